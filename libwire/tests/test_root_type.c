/* test_root_type.c - wire_root_type: the registered type of a payload's
 * root, read from its type meta, for structs of one field layout (one
 * schema hash) by id, by name in one namespace and one name in two
 * namespaces, an enum and a built-in root, in both modes with reference
 * tracking on and off; and the errors of what it cannot read. */
#include <criterion/criterion.h>
#include <string.h>

#include "wire.h"

static const char *FDL =
    "package sh;\noption enable_auto_type_id = false;\n"
    "message A [id=701] { int32 n = 1; string s = 2; }\n"
    "message B [id=702] { int32 n = 1; string s = 2; }\n"
    "message C { int32 n = 1; string s = 2; }\n"
    "message D { int32 n = 1; string s = 2; }\n"
    "enum E [id=703] { X = 0; Y = 1; }\n"
    "enum F { P = 0; Q = 1; }\n";
static const char *FDL_X = "package shx;\noption enable_auto_type_id = false;\n"
                           "message C { int32 n = 1; string s = 2; }\n";
static const char *FDL_Y = "package shy.deeper_name_space;\n"
                           "option enable_auto_type_id = false;\n"
                           "message C { int32 n = 1; string s = 2; }\n";

static wire_ctx *make(int compatible, int ref, int with_x) {
  wire_ctx *ctx = wire_ctx_new();
  cr_assert_eq(wire_schema_load_fdl(ctx, FDL, strlen(FDL), "sh.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  if (with_x)
    cr_assert_eq(wire_schema_load_fdl(ctx, FDL_X, strlen(FDL_X), "x.fdl"),
                 WIRE_OK, "%s", wire_ctx_error_message(ctx));
  cr_assert_eq(wire_schema_load_fdl(ctx, FDL_Y, strlen(FDL_Y), "y.fdl"),
               WIRE_OK, "%s", wire_ctx_error_message(ctx));
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, (uint64_t)compatible);
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, (uint64_t)ref);
  return ctx;
}

static uint32_t type_of(wire_ctx *ctx, const char *name) {
  uint32_t t;
  cr_assert_eq(wire_schema_find_type(ctx, name, strlen(name), &t), WIRE_OK,
               "%s", name);
  return t;
}

/* The payload of the value of plain JSON `json` as type `type` (or of
 * `node` made by the caller in `doc`). */
static uint8_t *encode(wire_ctx *ctx, wire_doc *doc, wire_node *n,
                       size_t *len) {
  cr_assert_not_null(n, "%s", wire_ctx_error_message(ctx));
  cr_assert_eq(wire_doc_add_root(doc, n), WIRE_OK);
  uint8_t *out;
  cr_assert_eq(wire_encode(ctx, doc, &out, len), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  return out;
}
static uint8_t *encode_struct(wire_ctx *ctx, uint32_t type, size_t *len) {
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *n;
  const char *json = "{\"n\": 7, \"s\": \"seven\"}";
  cr_assert_eq(wire_notation_parse_plain(ctx, doc, json, strlen(json), type,
                                         &n, NULL),
               WIRE_OK, "%s", wire_ctx_error_message(ctx));
  uint8_t *out = encode(ctx, doc, n, len);
  wire_doc_free(doc);
  return out;
}

static const char *STRUCTS[] = {"sh.A", "sh.B", "sh.C", "sh.D", "shx.C",
                                "shy.deeper_name_space.C"};

Test(root_type, each_struct_root_names_its_own_type) {
  for (int compatible = 0; compatible < 2; compatible++)
    for (int ref = 0; ref < 2; ref++) {
      wire_ctx *ctx = make(compatible, ref, 1);
      for (int round = 0; round < 2; round++) /* (TypeDefs cached in the second) */
        for (size_t i = 0; i < sizeof STRUCTS / sizeof *STRUCTS; i++) {
          uint32_t want = type_of(ctx, STRUCTS[i]), got = 12345;
          size_t len;
          uint8_t *p = encode_struct(ctx, want, &len);
          cr_expect_eq(wire_root_type(ctx, p, len, &got), WIRE_OK, "%s",
                       wire_ctx_error_message(ctx));
          cr_expect_eq(got, want, "%s compatible=%d ref=%d: got %u", STRUCTS[i],
                       compatible, ref, got);
          /* the payload decodes as ever after it (no state left) */
          wire_doc *d;
          cr_expect_eq(wire_decode(ctx, p, len, &d), WIRE_OK, "%s",
                       wire_ctx_error_message(ctx));
          wire_doc_free(d);
          wire_ctx_free_bytes(ctx, p);
        }
      wire_ctx_free(ctx);
    }
}

Test(root_type, enums_and_built_in_roots) {
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *ctx = make(compatible, 0, 1);
    const char *enums[] = {"sh.E", "sh.F"};
    for (int k = 0; k < 2; k++) {
      uint32_t want = type_of(ctx, enums[k]), got = 0;
      wire_doc *doc = wire_doc_new(ctx);
      size_t len;
      uint8_t *p = encode(ctx, doc, wire_node_new_enum_of(doc, want, 1), &len);
      cr_expect_eq(wire_root_type(ctx, p, len, &got), WIRE_OK, "%s",
                   wire_ctx_error_message(ctx));
      cr_expect_eq(got, want, "%s: got %u", enums[k], got);
      wire_ctx_free_bytes(ctx, p);
      wire_doc_free(doc);
    }
    wire_doc *doc = wire_doc_new(ctx);
    size_t len;
    uint8_t *p = encode(ctx, doc, wire_node_new_int(doc, WIRE_T_VARINT32, 5), &len);
    uint32_t got = 0;
    cr_expect_eq(wire_root_type(ctx, p, len, &got), WIRE_OK);
    cr_expect_eq(got, UINT32_MAX);
    wire_ctx_free_bytes(ctx, p);
    wire_doc_free(doc);
    wire_ctx_free(ctx);
  }
}

Test(root_type, errors) {
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *ctx = make(compatible, 0, 1);
    uint32_t got = 0, c = type_of(ctx, "shx.C");
    size_t len;
    uint8_t *p = encode_struct(ctx, c, &len);
    cr_expect_eq(wire_root_type(ctx, p, 0, &got), WIRE_E_TRUNCATED);
    cr_expect_eq(got, UINT32_MAX);
    cr_expect_eq(wire_root_type(NULL, p, len, &got), WIRE_E_ARG);
    cr_expect_eq(wire_root_type(ctx, p, len, NULL), WIRE_E_ARG);
    /* cut inside the type meta (names or TypeDef) */
    cr_expect_eq(wire_root_type(ctx, p, 5, &got), WIRE_E_TRUNCATED, "%s",
                 wire_ctx_error_message(ctx));
    /* a reader without shx: a same-schema struct it lacks is an error, a
     * writer's TypeDef of it a type it has not */
    wire_ctx *r = make(compatible, 0, 0);
    got = 0;
    int32_t st = wire_root_type(r, p, len, &got);
    if (compatible) {
      cr_expect_eq(st, WIRE_OK, "%s", wire_ctx_error_message(r));
      cr_expect_eq(got, UINT32_MAX);
    } else {
      cr_expect_eq(st, WIRE_E_SCHEMA);
      cr_expect(strstr(wire_ctx_error_message(r), "shx.C is not in the schema"),
                "%s", wire_ctx_error_message(r));
    }
    wire_ctx_free(r);
    /* a null root */
    uint8_t null_root[] = {0x01, 0xFD};
    cr_expect_eq(wire_root_type(ctx, null_root, 2, &got), WIRE_E_VALUE);
    /* another header */
    p[0] = 0x07;
    cr_expect_eq(wire_root_type(ctx, p, len, &got), WIRE_E_HEADER);
    wire_ctx_free_bytes(ctx, p);
    wire_ctx_free(ctx);
  }
}
