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

/* Decoding `bytes` with r and projecting the first root onto r's `type`
 * fails with WIRE_E_SCHEMA, with a message that holds `says` (that starts
 * with it, where `at_start`). */
static void projection_fails(wire_ctx *r, const uint8_t *bytes, size_t len,
                             const char *type, const char *says,
                             bool at_start) {
  wire_doc *doc = NULL;
  cr_assert_eq(wire_decode(r, bytes, len, &doc), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  wire_node *p = NULL;
  int32_t st = wire_struct_project(doc, wire_doc_root(doc, 0),
                                   type_of(r, type), &p);
  cr_assert_eq(st, WIRE_E_SCHEMA, "status %d", st);
  const char *msg = wire_ctx_error_message(r), *at = strstr(msg, says);
  cr_assert(at && (!at_start || at == msg), "%s", msg);
  wire_doc_free(doc);
}

Test(project, incompatible_field_fails_naming_it) {
  wire_ctx *w = new_ctx(writer_fdl), *r = new_ctx(clash_fdl);
  size_t len;
  uint8_t *bytes = written(w, &len);
  projection_fails(r, bytes, len, "p.Person", "name", false);
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

/* Nested structs and lists of them, projected message after message (the
 * field map of a cached TypeDef is made once and reused), onto two reader
 * types in turn, and an error deep inside naming its path. */
static const char nest_w_fdl[] =
    "package q;\n"
    "message Inner [id=410] { int32 a = 1; string b = 2; }\n"
    "message Outer [id=411] { Inner inner = 1; list<Inner> items = 2; "
    "int32 n = 3; }\n";
static const char nest_r_fdl[] =
    "package q;\n"
    "message Inner [id=410] { int64 a = 1; string b = 2; string extra = 3; }\n"
    "message Outer [id=411] { Inner inner = 1; list<Inner> items = 2; "
    "int64 n = 3; }\n"
    "message Other [id=412] { int64 n = 3; }\n";
static const char nest_clash_fdl[] =
    "package q;\n"
    "message Inner [id=410] { int32 a = 1; bool b = 2; }\n"
    "message Outer [id=411] { Inner inner = 1; list<Inner> items = 2; "
    "int32 n = 3; }\n";

static wire_node *inner(wire_ctx *w, wire_doc *doc, int64_t a, const char *b) {
  wire_node *s = wire_node_new_struct(doc, type_of(w, "q.Inner"));
  set(doc, s, "a", wire_node_new_int(doc, WIRE_T_VARINT32, a));
  set(doc, s, "b", wire_node_new_string(doc, (const uint8_t *)b, strlen(b),
                                        WIRE_STR_LATIN1));
  return s;
}

static uint8_t *nest_written(wire_ctx *w, size_t *len) {
  wire_doc *doc = wire_doc_new(w);
  wire_node *s = wire_node_new_struct(doc, type_of(w, "q.Outer"));
  set(doc, s, "inner", inner(w, doc, 5, "x"));
  wire_node *items = wire_node_new_list(doc, WIRE_T_LIST);
  cr_assert_eq(wire_list_append(doc, items, inner(w, doc, 1, "p")), WIRE_OK);
  cr_assert_eq(wire_list_append(doc, items, inner(w, doc, 2, "q")), WIRE_OK);
  set(doc, s, "items", items);
  set(doc, s, "n", wire_node_new_int(doc, WIRE_T_VARINT32, 9));
  cr_assert_eq(wire_doc_add_root(doc, s), WIRE_OK);
  uint8_t *out = NULL;
  cr_assert_eq(wire_encode(w, doc, &out, len), WIRE_OK, "%s",
               wire_ctx_error_message(w));
  wire_doc_free(doc);
  return out;
}

static void inner_is(const wire_node *s, int64_t a, const char *b) {
  cr_assert_eq(wire_node_type(field(s, "a")), WIRE_T_VARINT64);
  cr_assert_eq(wire_node_int(field(s, "a")), a);
  text_is(field(s, "b"), b);
  text_is(field(s, "extra"), "");
}

Test(project, nested_message_after_message_onto_two_types) {
  wire_ctx *w = new_ctx(nest_w_fdl), *r = new_ctx(nest_r_fdl);
  size_t len;
  uint8_t *bytes = nest_written(w, &len);
  for (int round = 0; round < 3; round++) {
    wire_doc *doc = NULL;
    cr_assert_eq(wire_decode(r, bytes, len, &doc), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    wire_node *root = wire_doc_root(doc, 0), *p = NULL, *o = NULL;
    for (int again = 0; again < 2; again++) {
      cr_assert_eq(wire_struct_project(doc, root, type_of(r, "q.Outer"), &p),
                   WIRE_OK, "%s", wire_ctx_error_message(r));
      inner_is(field(p, "inner"), 5, "x");
      wire_node *items = field(p, "items");
      cr_assert_eq(wire_node_count(items), 2);
      inner_is(wire_node_child(items, 0), 1, "p");
      inner_is(wire_node_child(items, 1), 2, "q");
      cr_assert_eq(wire_node_type(field(p, "n")), WIRE_T_VARINT64);
      cr_assert_eq(wire_node_int(field(p, "n")), 9);
      /* the same writer's type onto another reader's type */
      cr_assert_eq(wire_struct_project(doc, root, type_of(r, "q.Other"), &o),
                   WIRE_OK, "%s", wire_ctx_error_message(r));
      cr_assert_eq(wire_node_count(o), 1);
      cr_assert_eq(wire_node_int(field(o, "n")), 9);
    }
    wire_doc_free(doc);
  }
  /* strict: the writer's inner and items, which Other lacks, are errors */
  cr_assert_eq(wire_ctx_set_option(r, WIRE_OPT_PROJECT_STRICT, 1), WIRE_OK);
  projection_fails(r, bytes, len, "q.Other", "has no field of the reader",
                   false);
  wire_ctx_free_bytes(w, bytes);
  wire_ctx_free(w);
  wire_ctx_free(r);
}

Test(project, an_error_inside_names_its_path) {
  wire_ctx *w = new_ctx(nest_w_fdl), *r = new_ctx(nest_clash_fdl);
  size_t len;
  uint8_t *bytes = nest_written(w, &len);
  projection_fails(r, bytes, len, "q.Outer", "inner.b: ", true);
  wire_ctx_free_bytes(w, bytes);
  wire_ctx_free(w);
  wire_ctx_free(r);
}
