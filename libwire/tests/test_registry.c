/* test_registry.c - the type registry through the public ABI
 * (wire_schema_*): registration by id and by name, fields, enum values and
 * union cases, lookups, the schema fingerprint and hash (R-SHASH-1), and
 * the rules that keep a registry consistent: duplicates and wrong kinds are
 * refused with WIRE_E_ARG, a struct in use gains no field, and a failed FDL
 * load leaves the registry as it was. A decoded enum or union finds the
 * reader's type of its kind and whole names (document, tape, notation). */
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

/* An enum's declared values, in declaration order (an FDL enum's as
 * written, gaps kept); the count alone with cap 0; a short buffer gets the
 * first values and WIRE_E_BUFFER_FULL; a struct or an unknown index is
 * not an enum. */
/* Loads `fdl`, which declares enum `name` and message M; their indexes. */
static void load_enum_and_m(const char *fdl, const char *name, uint32_t *e,
                            uint32_t *m) {
  cr_assert_eq(wire_schema_load_fdl(ctx, S(fdl), NULL), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  cr_assert_eq(wire_schema_find_type(ctx, S(name), e), WIRE_OK);
  cr_assert_eq(wire_schema_find_type(ctx, S("M"), m), WIRE_OK);
}

Test(registry, enum_values_in_declaration_order) {
  uint32_t e, m;
  load_enum_and_m("enum Level [id=7] { LOW = 5; HIGH = 40; MID = 9; }\n"
                  "message M [id=8] { Level l = 1; }\n",
                  "Level", &e, &m);
  size_t n = 0;
  cr_assert_eq(wire_schema_enum_values(ctx, e, NULL, 0, &n), WIRE_E_BUFFER_FULL);
  cr_assert_eq(n, 3);
  uint32_t v[4] = {0, 0, 0, 77};
  cr_assert_eq(wire_schema_enum_values(ctx, e, v, 4, &n), WIRE_OK);
  cr_assert_eq(n, 3);
  cr_assert(v[0] == 5 && v[1] == 40 && v[2] == 9 && v[3] == 77,
            "%u %u %u %u", v[0], v[1], v[2], v[3]);
  uint32_t w[2] = {0, 0};
  cr_assert_eq(wire_schema_enum_values(ctx, e, w, 1, &n), WIRE_E_BUFFER_FULL);
  cr_assert(n == 3 && w[0] == 5 && w[1] == 0);
  expect_refused(wire_schema_enum_values(ctx, m, v, 4, &n), WIRE_E_ARG,
                 "not an enum");
  expect_refused(wire_schema_enum_values(ctx, 99, v, 4, &n), WIRE_E_ARG,
                 "not an enum");
  cr_assert_eq(wire_schema_enum_values(ctx, e, NULL, 4, &n), WIRE_E_ARG);
  cr_assert_eq(wire_schema_enum_values(ctx, e, v, 4, NULL), WIRE_E_ARG);
  /* an enum registered through the ABI, no value yet: none */
  uint32_t z = add_type(WIRE_KIND_ENUM, 9, "", "Empty");
  cr_assert_eq(wire_schema_enum_values(ctx, z, v, 4, &n), WIRE_OK);
  cr_assert_eq(n, 0);
}

/* An enumerator's name by its index in declaration order (the order of
 * wire_schema_enum_values), not NUL-terminated in the contract; an index
 * past the last value, a struct, an unknown type or a missing out pointer
 * is refused. */
Test(registry, enum_value_names_in_declaration_order) {
  uint32_t e, m;
  load_enum_and_m("enum Sparse [id=7] { ONE = 1; FIVE = 5; THOUSAND = 1000; }\n"
                  "message M [id=8] { Sparse s = 1; }\n",
                  "Sparse", &e, &m);
  static const char *const want[] = {"ONE", "FIVE", "THOUSAND"};
  uint32_t v[3];
  size_t n = 0;
  cr_assert_eq(wire_schema_enum_values(ctx, e, v, 3, &n), WIRE_OK);
  cr_assert_eq(n, 3);
  for (size_t i = 0; i < 3; i++) {
    const uint8_t *name = NULL;
    size_t len = 99;
    cr_assert_eq(wire_schema_enum_value_name(ctx, e, i, &name, &len), WIRE_OK);
    cr_assert(len == strlen(want[i]) && memcmp(name, want[i], len) == 0,
              "%zu: %.*s", i, (int)len, (const char *)name);
  }
  cr_assert(v[0] == 1 && v[1] == 5 && v[2] == 1000);
  const uint8_t *name = NULL;
  size_t len = 0;
  expect_refused(wire_schema_enum_value_name(ctx, e, 3, &name, &len),
                 WIRE_E_ARG, "no 3");
  expect_refused(wire_schema_enum_value_name(ctx, m, 0, &name, &len),
                 WIRE_E_ARG, "not an enum");
  expect_refused(wire_schema_enum_value_name(ctx, 99, 0, &name, &len),
                 WIRE_E_ARG, "not an enum");
  cr_assert_eq(wire_schema_enum_value_name(ctx, e, 0, NULL, &len), WIRE_E_ARG);
  cr_assert_eq(wire_schema_enum_value_name(ctx, e, 0, &name, NULL), WIRE_E_ARG);
  /* a value added through the ABI with an empty name */
  uint32_t z = add_type(WIRE_KIND_ENUM, 9, "", "Bare");
  cr_assert_eq(wire_schema_add_enum_value(ctx, z, NULL, 0, 4), WIRE_OK);
  cr_assert_eq(wire_schema_enum_value_name(ctx, z, 0, &name, &len), WIRE_OK);
  cr_assert_eq(len, 0);
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

/* ---- A decoded enum or union finds its registered type (reader ctx) by
 * its kind and by the whole of its names: two named enums of one
 * namespace, and an enum's id / names held by a union (and the reverse),
 * as another writer registered them. */
static wire_ctx *writer;

typedef struct { int32_t kind; uint32_t id; const char *ns, *name; } tdesc;

/* Registers types t[0..n) in c (enums: values 0..2; unions: case 1 of
 * varint32), their indexes in out, and finishes the schema. */
static void reg_all(wire_ctx *c, const tdesc *t, int n, uint32_t *out) {
  static const char *const vn[] = {"V0", "V1", "V2"};
  wire_field_type *i32 = wire_schema_field_type(c, WIRE_T_VARINT32, 0, 0);
  for (int i = 0; i < n; i++) {
    cr_assert_eq(wire_schema_add_type(c, t[i].kind, t[i].id, S(t[i].ns),
                                      S(t[i].name), 1, &out[i]),
                 WIRE_OK, "%s: %s", t[i].name, wire_ctx_error_message(c));
    for (uint32_t v = 0; t[i].kind == WIRE_KIND_ENUM && v < 3; v++)
      cr_assert_eq(wire_schema_add_enum_value(c, out[i], vn[v], 2, v),
                   WIRE_OK);
    if (t[i].kind == WIRE_KIND_UNION)
      cr_assert_eq(wire_schema_add_union_case(c, out[i], 1, S("x"), i32),
                   WIRE_OK);
  }
  cr_assert_eq(wire_schema_finish(c), WIRE_OK, "%s", wire_ctx_error_message(c));
}

/* The reader's types (ctx) and a new writer's. */
static void both(const tdesc *rd, int nr, uint32_t *rt, const tdesc *wr,
                 int nw, uint32_t *wt) {
  writer = wire_ctx_new();
  cr_assert_not_null(writer);
  reg_all(ctx, rd, nr, rt);
  reg_all(writer, wr, nw, wt);
}

/* the reader's type of `value` as the writer wrote it: its index, or
 * 0xFFFFFFFF when the reader has no such type (WIRE_E_SCHEMA) */
static uint32_t read_type(wire_node *value, wire_doc *wd) {
  cr_assert_not_null(value, "%s", wire_ctx_error_message(writer));
  cr_assert_eq(wire_doc_add_root(wd, value), WIRE_OK);
  uint8_t *b;
  size_t n;
  cr_assert_eq(wire_encode(writer, wd, &b, &n), WIRE_OK, "%s",
               wire_ctx_error_message(writer));
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  uint32_t t = 0xFFFFFFFFu;
  int32_t st = wire_node_user_type(d, wire_doc_root(d, 0), &t);
  cr_assert(st == WIRE_OK || (st == WIRE_E_SCHEMA && t == 0xFFFFFFFFu),
            "status %d", st);
  wire_doc_free(d);
  /* the tape decoder's: ENUM or UNION with the type's index (a union the
   * reader lacks: 0xFFFFFFFF), else the enum's id or names (spec/tape.md) */
  uint8_t *tp;
  size_t tl;
  cr_assert_eq(wire_decode_tape(ctx, b, n, &tp, &tl), WIRE_OK);
  cr_assert_gt(tl, 13);
  uint32_t tt = 0xFFFFFFFFu;
  if (tp[8] == WIRE_T_ENUM || tp[8] == WIRE_T_UNION) memcpy(&tt, tp + 9, 4);
  cr_assert_eq(tt, t, "tape op 0x%02x of type %u, the document's %u", tp[8],
               tt, t);
  wire_ctx_free_bytes(ctx, tp);
  wire_ctx_free_bytes(writer, b);
  return t;
}

#define E WIRE_KIND_ENUM
#define U WIRE_KIND_UNION
#define BN WIRE_BY_NAME

Test(registry, decoded_enums_and_unions_find_their_type_by_kind_and_names) {
  /* reader: geo.A and geo.B (named enums, one namespace); union 7, enum 8,
   * named union geo.C and named enum geo.U; the writer: the same names and
   * ids with the kinds swapped for 7, 8, C and U */
  static const tdesc rd[] = {{E, BN, "geo", "A"}, {E, BN, "geo", "B"},
                             {U, 7, "", "U7"},    {E, 8, "", "E8"},
                             {U, BN, "geo", "C"}, {E, BN, "geo", "U"}};
  static const tdesc wr[] = {{E, BN, "geo", "A"}, {E, BN, "geo", "B"},
                             {E, 7, "", "E7"},    {U, 8, "", "U8"},
                             {E, BN, "geo", "C"}, {U, BN, "geo", "U"}};
  uint32_t rt[6], wt[6];
  both(rd, 6, rt, wr, 6, wt);
  for (int i = 0; i < 6; i++) {
    wire_doc *wd = wire_doc_new(writer);
    cr_assert_not_null(wd);
    wire_node *v =
        wr[i].kind == E
            ? wire_node_new_enum_of(wd, wt[i], 2)
            : wire_node_new_union(wd, wt[i], 1,
                                  wire_node_new_int(wd, WIRE_T_VARINT32, 5));
    uint32_t got = read_type(v, wd);
    uint32_t want = i < 2 ? rt[i] : 0xFFFFFFFFu; /* only A and B match */
    cr_assert_eq(got, want, "%s: reader type %u, want %u", wr[i].name, got,
                 want);
    wire_doc_free(wd);
  }
  wire_ctx_free(writer);
}

/* The notation keeps the header of an all-null list nested in a root list
 * (R-LIST-5) only when its enum element type is one the reader registered
 * as an enum, by id or by the whole of its names: the payload's element
 * type meta is the writer's, as it writes a root value of that enum. */
Test(registry, printed_null_lists_keep_the_header_of_a_known_enum) {
  static const tdesc rd[] = {{E, BN, "geo", "A"}, {E, 9, "", "E9"},
                             {U, 7, "", "U7"}, {U, BN, "geo", "C"}};
  static const tdesc wr[] = {{E, BN, "geo", "A"}, {E, 9, "", "E9"},
                             {E, BN, "geo", "B"}, {E, 7, "", "E7"},
                             {E, BN, "geo", "C"}};
  uint32_t rt[4], wt[5];
  both(rd, 4, rt, wr, 5, wt);
  for (int i = 0; i < 5; i++) {
    wire_doc *wd = wire_doc_new(writer);
    cr_assert_eq(wire_doc_add_root(wd, wire_node_new_enum_of(wd, wt[i], 0)),
                 WIRE_OK);
    uint8_t *b;
    size_t n;
    cr_assert_eq(wire_encode(writer, wd, &b, &n), WIRE_OK);
    /* 01 ff, the enum's type meta, value 0; nested as [[null, null]] */
    cr_assert(n > 3 && n < 64 && b[n - 1] == 0);
    uint8_t in[80] = {0x01, 0xFF, WIRE_T_LIST, 1, 0, WIRE_T_LIST, 2, 0x0A};
    memcpy(in + 8, b + 2, n - 3);
    size_t len = 8 + n - 3;
    in[len++] = 0xFD;
    in[len++] = 0xFD;
    wire_doc *d;
    uint8_t *js;
    size_t jn;
    char text[512];
    int32_t st = wire_decode(ctx, in, len, &d);
    cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(ctx));
    st = wire_notation_print(ctx, d, wire_doc_root(d, 0), 0, &js, &jn);
    cr_assert(st == WIRE_OK && jn < sizeof text);
    memcpy(text, js, jn);
    text[jn] = 0;
    cr_assert_eq(strstr(text, "\"header\":10") != NULL, i < 2, "%s: %s",
                 wr[i].name, text);
    wire_ctx_free_bytes(ctx, js);
    wire_doc_free(d);
    wire_ctx_free_bytes(writer, b);
    wire_doc_free(wd);
  }
  wire_ctx_free(writer);
}
