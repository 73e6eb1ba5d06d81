/* test_registry.c - the type registry through the public ABI
 * (wire_schema_*): registration by id and by name, fields, enum values and
 * union cases, lookups, the schema fingerprint and hash (R-SHASH-1), and
 * the rules that keep a registry consistent: duplicates and wrong kinds are
 * refused with WIRE_E_ARG, a struct in use gains no field, and a failed FDL
 * load leaves the registry as it was. */
#include <criterion/criterion.h>

#include <string.h>

#include "wire.h"

#define S(x) (x), strlen(x)

static wire_ctx *ctx;

static void setup(void) {
  ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
}
static void teardown(void) { wire_ctx_free(ctx); }

TestSuite(registry, .init = setup, .fini = teardown);

static uint32_t add_type(int32_t kind, uint32_t id, const char *ns,
                         const char *name) {
  uint32_t t = 0xFFFFFFFFu;
  cr_assert_eq(wire_schema_add_type(ctx, kind, id, S(ns), S(name), 1, &t),
               WIRE_OK, "%s: %s", name, wire_ctx_error_message(ctx));
  return t;
}

static wire_field_type *prim(uint32_t id, int32_t nullable) {
  wire_field_type *ft = wire_schema_field_type(ctx, id, nullable, 0);
  cr_assert_not_null(ft);
  return ft;
}

/* A struct Point {x: varint32} with id 100, encoded with value x. */
static uint32_t point(int32_t nullable) {
  uint32_t t = add_type(WIRE_KIND_STRUCT, 100, "", "Point");
  cr_assert_eq(wire_schema_add_field(ctx, t, S("x"), -1,
                                     prim(WIRE_T_VARINT32, nullable)),
               WIRE_OK);
  return t;
}

static void expect_refused(int32_t st, int32_t code, const char *needle) {
  cr_assert_eq(st, code, "status %d (%s), want %d", st,
               wire_status_name(st), code);
  cr_assert_eq(wire_ctx_error_code(ctx), code);
  cr_assert(strstr(wire_ctx_error_message(ctx), needle) != NULL,
            "message \"%s\" lacks \"%s\"", wire_ctx_error_message(ctx),
            needle);
  wire_ctx_clear_error(ctx);
}

Test(registry, types_are_numbered_in_registration_order) {
  uint32_t a = add_type(WIRE_KIND_STRUCT, 100, "", "Point");
  uint32_t b = add_type(WIRE_KIND_STRUCT, WIRE_BY_NAME, "geo", "Line");
  uint32_t e = add_type(WIRE_KIND_ENUM, 102, "", "Color");
  uint32_t u = add_type(WIRE_KIND_UNION, 103, "", "Shape");
  cr_assert_eq(a, 0);
  cr_assert_eq(b, 1);
  cr_assert_eq(e, 2);
  cr_assert_eq(u, 3);
  cr_assert_eq(wire_schema_type_count(ctx), 4);
  cr_assert_eq(wire_schema_type_kind(ctx, a), WIRE_KIND_STRUCT);
  cr_assert_eq(wire_schema_type_kind(ctx, e), WIRE_KIND_ENUM);
  cr_assert_eq(wire_schema_type_kind(ctx, u), WIRE_KIND_UNION);
  cr_assert_eq(wire_schema_type_kind(ctx, 4), -1);
  cr_assert_str_eq(wire_schema_type_name(ctx, a), "Point");
  cr_assert_str_eq(wire_schema_type_name(ctx, b), "geo.Line");
  cr_assert_null(wire_schema_type_name(ctx, 4));
}

Test(registry, find_by_full_name_or_unique_short_name) {
  add_type(WIRE_KIND_STRUCT, 100, "", "Point");
  uint32_t b = add_type(WIRE_KIND_STRUCT, WIRE_BY_NAME, "geo", "Line");
  uint32_t t = 99;
  cr_assert_eq(wire_schema_find_type(ctx, S("geo.Line"), &t), WIRE_OK);
  cr_assert_eq(t, b);
  t = 99;
  cr_assert_eq(wire_schema_find_type(ctx, S("Line"), &t), WIRE_OK);
  cr_assert_eq(t, b);
  expect_refused(wire_schema_find_type(ctx, S("Nope"), &t), WIRE_E_SCHEMA,
                 "Nope");
  /* a short name shared by two namespaces is not unique */
  add_type(WIRE_KIND_STRUCT, WIRE_BY_NAME, "map", "Line");
  cr_assert_neq(wire_schema_find_type(ctx, S("Line"), &t), WIRE_OK);
  wire_ctx_clear_error(ctx);
  cr_assert_eq(wire_schema_find_type(ctx, S("map.Line"), &t), WIRE_OK);
  cr_assert_eq(t, 2);
}

Test(registry, duplicates_are_refused_and_not_registered) {
  add_type(WIRE_KIND_STRUCT, 100, "", "Point");
  add_type(WIRE_KIND_STRUCT, WIRE_BY_NAME, "geo", "Line");
  uint32_t t;
  expect_refused(wire_schema_add_type(ctx, WIRE_KIND_STRUCT, 100, S(""),
                                      S("Other"), 1, &t),
                 WIRE_E_ARG, "type id 100 registered twice");
  expect_refused(wire_schema_add_type(ctx, WIRE_KIND_STRUCT, WIRE_BY_NAME,
                                      S("geo"), S("Line"), 1, &t),
                 WIRE_E_ARG, "geo.Line registered twice");
  expect_refused(wire_schema_add_type(ctx, 9, 101, S(""), S("K"), 1, &t),
                 WIRE_E_ARG, "kind");
  cr_assert_eq(wire_schema_type_count(ctx), 2);
}

Test(registry, members_only_on_types_of_their_kind) {
  uint32_t a = point(0);
  uint32_t e = add_type(WIRE_KIND_ENUM, 102, "", "Color");
  uint32_t u = add_type(WIRE_KIND_UNION, 103, "", "Shape");
  wire_field_type *i32 = prim(WIRE_T_VARINT32, 0);
  expect_refused(wire_schema_add_field(ctx, a, S("x"), -1, i32), WIRE_E_ARG,
                 "declared twice");
  expect_refused(wire_schema_add_field(ctx, e, S("y"), -1, i32), WIRE_E_ARG,
                 "not a registered struct");
  expect_refused(wire_schema_add_field(ctx, 99, S("y"), -1, i32), WIRE_E_ARG,
                 "not a registered struct");
  expect_refused(wire_schema_add_enum_value(ctx, a, S("RED"), 0), WIRE_E_ARG,
                 "not a registered enum");
  cr_assert_eq(wire_schema_add_enum_value(ctx, e, S("RED"), 0), WIRE_OK);
  cr_assert_eq(wire_schema_add_union_case(
                   ctx, u, 1, S("p"),
                   wire_schema_field_user_type(ctx, a, 0, 0)),
               WIRE_OK);
  cr_assert_eq(wire_schema_finish(ctx), WIRE_OK);
}

/* The fingerprint is the text hashed into the same-schema hash, and the
 * hash is the one a struct body carries after its type id. */
Test(registry, fingerprint_and_hash_match_the_encoded_body) {
  uint32_t a = point(0);
  char fp[64];
  size_t n = 0;
  uint32_t h = 0;
  cr_assert_eq(wire_schema_fingerprint(ctx, a, fp, sizeof fp, &n, &h),
               WIRE_OK);
  cr_assert_eq(n, strlen(fp));
  cr_assert_str_eq(fp, "x,5,0,0;");
  /* too small: the length needed is still told */
  size_t n2 = 0;
  cr_assert_eq(wire_schema_fingerprint(ctx, a, fp, 3, &n2, &h),
               WIRE_E_BUFFER_FULL);
  cr_assert_eq(n2, n);
  wire_ctx_clear_error(ctx);
  cr_assert_eq(wire_schema_fingerprint(ctx, a, fp, sizeof fp, &n, &h),
               WIRE_OK);

  wire_doc *doc = wire_doc_new(ctx);
  wire_node *s = wire_node_new_struct(doc, a);
  cr_assert_eq(wire_struct_set_field(doc, s, S("x"),
                                     wire_node_new_int(doc, WIRE_T_VARINT32,
                                                       5)),
               WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, s), WIRE_OK);
  uint8_t *out = NULL;
  size_t len = 0;
  cr_assert_eq(wire_encode(ctx, doc, &out, &len), WIRE_OK);
  /* 01 header, ff not null, 1b STRUCT, 64 id 100, hash (LE), 0a = 5 */
  cr_assert_eq(len, 9);
  cr_assert_eq(out[2], WIRE_T_STRUCT);
  uint32_t body_hash = (uint32_t)out[4] | (uint32_t)out[5] << 8 |
                       (uint32_t)out[6] << 16 | (uint32_t)out[7] << 24;
  cr_assert_eq(body_hash, h, "body %08x, fingerprint %08x", body_hash, h);
  cr_assert_eq(out[8], 0x0a);
  wire_ctx_free_bytes(ctx, out);
  wire_doc_free(doc);
}

Test(registry, hash_follows_field_nullability) {
  uint32_t a = point(0);
  char fp[64];
  size_t n;
  uint32_t h1, h2;
  cr_assert_eq(wire_schema_fingerprint(ctx, a, fp, sizeof fp, &n, &h1),
               WIRE_OK);
  wire_ctx *other = wire_ctx_new();
  wire_ctx *keep = ctx;
  ctx = other;
  uint32_t b = point(1);
  cr_assert_eq(wire_schema_fingerprint(ctx, b, fp, sizeof fp, &n, &h2),
               WIRE_OK);
  cr_assert_str_eq(fp, "x,5,0,1;"); /* name, type id, ref, nullable */
  ctx = keep;
  wire_ctx_free(other);
  cr_assert_neq(h1, h2);
}

Test(registry, fingerprint_only_for_structs) {
  uint32_t e = add_type(WIRE_KIND_ENUM, 102, "", "Color");
  char fp[16];
  size_t n;
  uint32_t h;
  cr_assert_eq(wire_schema_fingerprint(ctx, e, fp, sizeof fp, &n, &h),
               WIRE_E_ARG);
}

Test(registry, a_struct_in_use_gains_no_field) {
  uint32_t a = point(0);
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *s = wire_node_new_struct(doc, a);
  cr_assert_eq(wire_struct_set_field(doc, s, S("x"),
                                     wire_node_new_int(doc, WIRE_T_VARINT32,
                                                       1)),
               WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, s), WIRE_OK);
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_encode(ctx, doc, &out, &len), WIRE_OK);
  wire_ctx_free_bytes(ctx, out);
  wire_doc_free(doc);
  expect_refused(wire_schema_add_field(ctx, a, S("z"), -1,
                                       prim(WIRE_T_VARINT32, 0)),
                 WIRE_E_STATE, "already in use");
}

Test(registry, failed_fdl_load_leaves_the_registry_as_it_was) {
  static const char good[] = "package shop;\n"
                             "message Item [id=200] { string name = 1; }\n";
  static const char bad[] = "package shop2;\n"
                            "message A [id=201] { string a = 1; }\n"
                            "message B [id=202] { Missing m = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, S(good), "good.fdl"), WIRE_OK);
  cr_assert_eq(wire_schema_type_count(ctx), 1);
  int32_t st = wire_schema_load_fdl(ctx, S(bad), "bad.fdl");
  cr_assert_eq(st, WIRE_E_IDL);
  cr_assert(strstr(wire_ctx_error_message(ctx), "bad.fdl:3:") != NULL,
            "%s", wire_ctx_error_message(ctx));
  wire_ctx_clear_error(ctx);
  cr_assert_eq(wire_schema_type_count(ctx), 1);
  uint32_t t;
  cr_assert_neq(wire_schema_find_type(ctx, S("shop2.A"), &t), WIRE_OK);
  wire_ctx_clear_error(ctx);
  cr_assert_eq(wire_schema_find_type(ctx, S("shop.Item"), &t), WIRE_OK);
}
