/* test_project.c - reading a struct across schema versions
 * (wire_struct_project): a payload written in compatible mode with one
 * version of a type, decoded with another, then projected onto the
 * reader's version. Fields the reader lacks are dropped, fields the writer
 * lacks get defaults, compatible values are converted (varint32 -> varint64,
 * list<int32> -> array<int32>), and incompatible ones fail with
 * WIRE_E_SCHEMA naming the field. */
#include <criterion/criterion.h>

#include <string.h>

#include "wire.h"

#define S(x) (x), strlen(x)

static const char writer_fdl[] =
    "package p;\n"
    "enum Color [id=301] { RED = 0; BLUE = 1; }\n"
    "message Person [id=300] {\n"
    "  string name = 1; int32 age = 2; list<int32> nums = 3; Color c = 4;\n"
    "  string gone = 6;\n"
    "}\n";
static const char reader_fdl[] =
    "package p;\n"
    "enum Color [id=301] { RED = 0; BLUE = 1; }\n"
    "message Person [id=300] {\n"
    "  string name = 1; int64 age = 2; array<int32> nums = 3; Color c = 4;\n"
    "  string email = 5;\n"
    "}\n";
static const char clash_fdl[] =
    "package p;\n"
    "enum Color [id=301] { RED = 0; BLUE = 1; }\n"
    "message Person [id=300] { int32 name = 1; }\n";

static wire_ctx *new_ctx(const char *fdl) {
  wire_ctx *ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  cr_assert_eq(wire_schema_load_fdl(ctx, S(fdl), "schema.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  return ctx;
}

static uint32_t type_of(wire_ctx *ctx, const char *name) {
  uint32_t t = 0;
  cr_assert_eq(wire_schema_find_type(ctx, S(name), &t), WIRE_OK);
  return t;
}

static void set(wire_doc *doc, wire_node *s, const char *name, wire_node *v) {
  cr_assert_not_null(v);
  cr_assert_eq(wire_struct_set_field(doc, s, S(name), v), WIRE_OK, "%s", name);
}

/* The writer's Person {name "Ada", age 36, nums [7, 8], c BLUE, gone "x"}. */
static uint8_t *written(wire_ctx *w, size_t *len) {
  wire_doc *doc = wire_doc_new(w);
  wire_node *s = wire_node_new_struct(doc, type_of(w, "p.Person"));
  set(doc, s, "name",
      wire_node_new_string(doc, (const uint8_t *)"Ada", 3, WIRE_STR_LATIN1));
  set(doc, s, "age", wire_node_new_int(doc, WIRE_T_VARINT32, 36));
  wire_node *nums = wire_node_new_list(doc, WIRE_T_LIST);
  cr_assert_eq(wire_list_append(doc, nums,
                                wire_node_new_int(doc, WIRE_T_VARINT32, 7)),
               WIRE_OK);
  cr_assert_eq(wire_list_append(doc, nums,
                                wire_node_new_int(doc, WIRE_T_VARINT32, 8)),
               WIRE_OK);
  set(doc, s, "nums", nums);
  set(doc, s, "c", wire_node_new_enum_of(doc, type_of(w, "p.Color"), 1));
  set(doc, s, "gone",
      wire_node_new_string(doc, (const uint8_t *)"x", 1, WIRE_STR_LATIN1));
  cr_assert_eq(wire_doc_add_root(doc, s), WIRE_OK);
  uint8_t *out = NULL;
  cr_assert_eq(wire_encode(w, doc, &out, len), WIRE_OK, "%s",
               wire_ctx_error_message(w));
  wire_doc_free(doc);
  return out;
}

static wire_node *field(const wire_node *s, const char *name) {
  for (size_t i = 0; i < wire_node_count(s); i++) {
    size_t n = 0;
    const char *fn = wire_node_field_name(s, i, &n);
    if (fn && n == strlen(name) && memcmp(fn, name, n) == 0)
      return wire_node_field(s, i);
  }
  return NULL;
}

static void text_is(const wire_node *n, const char *want) {
  uint8_t buf[32];
  size_t len = 0;
  cr_assert_eq(wire_node_string_utf8(n, buf, sizeof buf, &len), WIRE_OK);
  cr_assert_eq(len, strlen(want));
  cr_assert(memcmp(buf, want, len) == 0);
}

Test(project, onto_the_readers_version) {
  wire_ctx *w = new_ctx(writer_fdl), *r = new_ctx(reader_fdl);
  size_t len;
  uint8_t *bytes = written(w, &len);
  wire_doc *doc = NULL;
  cr_assert_eq(wire_decode(r, bytes, len, &doc), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  wire_node *root = wire_doc_root(doc, 0);
  size_t td_len = 0;
  /* read with the writer's TypeDef: the reader's schema differs */
  cr_assert_not_null(wire_node_typedef(root, &td_len));
  cr_assert_gt(td_len, 0);

  wire_node *p = NULL;
  cr_assert_eq(wire_struct_project(doc, root, type_of(r, "p.Person"), &p),
               WIRE_OK, "%s", wire_ctx_error_message(r));
  cr_assert_eq(wire_node_count(p), 5);
  text_is(field(p, "name"), "Ada");
  wire_node *age = field(p, "age");
  cr_assert_eq(wire_node_type(age), WIRE_T_VARINT64);
  cr_assert_eq(wire_node_int(age), 36);
  wire_node *nums = field(p, "nums");
  cr_assert_eq(wire_node_type(nums), WIRE_T_INT32_ARRAY);
  cr_assert_eq(wire_node_count(nums), 2);
  cr_assert_eq(wire_node_enum_value(field(p, "c")), 1);
  /* the writer lacks email: the default, an empty string */
  wire_node *email = field(p, "email");
  cr_assert_eq(wire_node_type(email), WIRE_T_STRING);
  text_is(email, "");
  /* the reader lacks gone: dropped */
  cr_assert_null(field(p, "gone"));

  /* the projection is the reader's own layout: it encodes as such */
  wire_doc *out_doc = wire_doc_new(r);
  wire_node *copy = NULL;
  cr_assert_eq(wire_struct_project(out_doc, root, type_of(r, "p.Person"),
                                   &copy),
               WIRE_OK);
  wire_doc_free(out_doc);
  wire_doc_free(doc);
  wire_ctx_free_bytes(w, bytes);
  wire_ctx_free(w);
  wire_ctx_free(r);
}

Test(project, incompatible_field_fails_naming_it) {
  wire_ctx *w = new_ctx(writer_fdl), *r = new_ctx(clash_fdl);
  size_t len;
  uint8_t *bytes = written(w, &len);
  wire_doc *doc = NULL;
  cr_assert_eq(wire_decode(r, bytes, len, &doc), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  wire_node *p = NULL;
  int32_t st = wire_struct_project(doc, wire_doc_root(doc, 0),
                                   type_of(r, "p.Person"), &p);
  cr_assert_eq(st, WIRE_E_SCHEMA, "status %d", st);
  cr_assert(strstr(wire_ctx_error_message(r), "name") != NULL, "%s",
            wire_ctx_error_message(r));
  wire_doc_free(doc);
  wire_ctx_free_bytes(w, bytes);
  wire_ctx_free(w);
  wire_ctx_free(r);
}

Test(project, same_version_reads_without_a_typedef) {
  wire_ctx *w = new_ctx(writer_fdl), *r = new_ctx(writer_fdl);
  size_t len;
  uint8_t *bytes = written(w, &len);
  wire_doc *doc = NULL;
  cr_assert_eq(wire_decode(r, bytes, len, &doc), WIRE_OK);
  size_t td_len = 7;
  cr_assert_null(wire_node_typedef(wire_doc_root(doc, 0), &td_len));
  wire_node *p = NULL;
  cr_assert_eq(wire_struct_project(doc, wire_doc_root(doc, 0),
                                   type_of(r, "p.Person"), &p),
               WIRE_OK);
  text_is(field(p, "gone"), "x");
  cr_assert_eq(wire_node_type(field(p, "age")), WIRE_T_VARINT32);
  wire_doc_free(doc);
  wire_ctx_free_bytes(w, bytes);
  wire_ctx_free(w);
  wire_ctx_free(r);
}
