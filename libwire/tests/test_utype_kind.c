/* test_utype_kind.c - R-UTYPE-5 through both decoders: a shared TypeDef
 * whose kind or registration (by name, by id) is not the one of the type
 * id that introduced it (NAMED_* ids carry names, the others ids) is
 * refused, class typedef, by the tape decoder (wire_decode) and by the
 * compiled one (wire_mem_decode with registered layouts) alike, at the
 * same byte: for the root and for nested struct fields, for a TypeDef
 * announced (new or mapped before) and for one referred to, and for an
 * enum's TypeDef after a struct id and a struct's after an enum, ext or
 * union id. The unchanged message decodes with both. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"

static const char FDL[] =
    "package ut;\noption enable_auto_type_id = false;\n"
    "message A [id=801] { int32 n = 1; }\n"
    "message N { int32 n = 1; }\n"
    "message O [id=802] {\n"
    "  A a = 1 [nullable = false]; N b = 2 [nullable = false];\n"
    "  A c = 3 [nullable = false]; N d = 4 [nullable = false];\n"
    "}\n"
    "enum Color { RED = 0; GREEN = 1; }\n";

typedef struct { int32_t n; } sa;
typedef struct { sa a, b, c, d; } so;

typedef struct {
  wire_ctx *ctx;
  uint32_t lo, la, ln; /* layouts of O, A, N */
} fx;

static fx make(void) {
  fx f;
  f.ctx = mem_ctx(FDL, "ut.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  uint32_t to = mem_ctx_type(f.ctx, "ut.O"), ta = mem_ctx_type(f.ctx, "ut.A"),
           tn = mem_ctx_type(f.ctx, "ut.N");
  const uint32_t N_ = WIRE_MEM_NONE;
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, to, sizeof(so), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT, 0, N_, N_, 1, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STRUCT, 4, N_, N_, 2, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_STRUCT, 8, N_, N_, 1, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_STRUCT, 12, N_, N_, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, ta, sizeof(sa), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, 0, N_, N_, N_, 0},
      {WIRE_MEM_ROW_LAYOUT, tn, sizeof(sa), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, 0, N_, N_, N_, 0},
  };
  f.lo = MEM_CTX_TABLE(f.ctx, rows);
  f.la = f.lo + 1;
  f.ln = f.lo + 2;
  return f;
}

/* The message of O {1, 2, 3, 4} from the compiled encoder. */
static size_t message(fx *f, uint8_t *buf, size_t cap) {
  so v = {{1}, {2}, {3}, {4}};
  size_t n = 0;
  cr_assert_eq(wire_mem_encode_to(f->ctx, f->lo, &v, buf, cap, &n), WIRE_OK,
               "%s", wire_ctx_error_message(f->ctx));
  return n;
}

/* Where the message's type ids and markers are (the compiled encoder's
 * bytes for O {1, 2, 3, 4}): the root's TypeDef (#0), a's (#1, A by id),
 * b's (#2, N by name), then c and d referring to #1 and #2. */
enum { ROOT = 2, FA = 23, FB = 39, FC = 58, FD = 61, LEN = 64,
       A_TD = 25, A_END = 38 };

typedef struct {
  int32_t st;
  uint64_t off;
  so v;
} res;

static res tape(fx *f, const uint8_t *b, size_t n) {
  res r;
  memset(&r, 0, sizeof r);
  wire_doc *d = NULL;
  r.st = wire_decode(f->ctx, b, n, &d);
  r.off = r.st ? wire_ctx_error_offset(f->ctx) : 0;
  if (d) wire_doc_free(d);
  return r;
}
static res compiled(fx *f, const uint8_t *b, size_t n) {
  res r;
  memset(&r, 0, sizeof r);
  uint8_t arena[512];
  size_t used = 0;
  r.st = wire_mem_decode(f->ctx, f->lo, b, n, &r.v, arena, sizeof arena,
                         &used, 0);
  r.off = r.st ? wire_ctx_error_offset(f->ctx) : 0;
  return r;
}

/* b[0..n) through both decoders, twice (the second time with its
 * TypeDefs cached and mapped): both refuse it, class typedef, at byte
 * `off`. */
static void both_refuse(fx *f, const uint8_t *b, size_t n, uint64_t off,
                        const char *what) {
  for (int round = 0; round < 2; round++) {
    res t = tape(f, b, n);
    cr_expect_eq(t.st, WIRE_E_TYPEDEF, "%s: tape %d at %llu: %s", what, t.st,
                 (unsigned long long)t.off, wire_ctx_error_message(f->ctx));
    cr_expect_eq(t.off, off, "%s: tape at %llu", what,
                 (unsigned long long)t.off);
    res c = compiled(f, b, n);
    cr_expect_eq(c.st, WIRE_E_TYPEDEF, "%s: compiled %d at %llu: %s", what,
                 c.st, (unsigned long long)c.off,
                 wire_ctx_error_message(f->ctx));
    cr_expect_eq(c.off, off, "%s: compiled at %llu", what,
                 (unsigned long long)c.off);
  }
}
static void both_read(fx *f, const uint8_t *b, size_t n, const char *what) {
  for (int round = 0; round < 2; round++) {
    res t = tape(f, b, n);
    cr_expect_eq(t.st, WIRE_OK, "%s: tape: %s", what,
                 wire_ctx_error_message(f->ctx));
    res c = compiled(f, b, n);
    cr_expect_eq(c.st, WIRE_OK, "%s: compiled: %s", what,
                 wire_ctx_error_message(f->ctx));
    cr_expect(c.v.a.n == 1 && c.v.b.n == 2 && c.v.c.n == 3 && c.v.d.n == 4,
              "%s: %d %d %d %d", what, c.v.a.n, c.v.b.n, c.v.c.n, c.v.d.n);
  }
}

static void with_id(fx *f, size_t at, uint8_t id, bool ok, const char *what) {
  uint8_t b[LEN];
  cr_assert_eq(message(f, b, sizeof b), (size_t)LEN);
  b[at] = id;
  if (ok) both_read(f, b, LEN, what);
  else both_refuse(f, b, LEN, at + 1, what);
}

static const struct {
  size_t at;
  uint8_t id;
  bool ok;
  const char *what;
} CASES[] = {
    {ROOT, WIRE_T_NAMED_COMPATIBLE_STRUCT, false, "root: by-id TypeDef after 30"},
    {ROOT, WIRE_T_NAMED_STRUCT, false, "root: by-id TypeDef after 29"},
    {ROOT, WIRE_T_NAMED_ENUM, false, "root: struct TypeDef after NAMED_ENUM"},
    {ROOT, WIRE_T_NAMED_EXT, false, "root: struct TypeDef after NAMED_EXT"},
    {ROOT, WIRE_T_NAMED_UNION, false, "root: struct TypeDef after NAMED_UNION"},
    {FA, WIRE_T_NAMED_COMPATIBLE_STRUCT, false, "a: by-id TypeDef after 30"},
    {FA, WIRE_T_NAMED_STRUCT, false, "a: by-id TypeDef after 29"},
    {FA, WIRE_T_NAMED_ENUM, false, "a: struct TypeDef after NAMED_ENUM"},
    {FA, WIRE_T_NAMED_EXT, false, "a: struct TypeDef after NAMED_EXT"},
    {FA, WIRE_T_NAMED_UNION, false, "a: struct TypeDef after NAMED_UNION"},
    {FB, WIRE_T_COMPATIBLE_STRUCT, false, "b: by-name TypeDef after 28"},
    {FB, WIRE_T_NAMED_STRUCT, true, "b: by-name TypeDef after 29"},
    {FC, WIRE_T_NAMED_COMPATIBLE_STRUCT, false, "c: reference, by id, after 30"},
    {FC, WIRE_T_NAMED_STRUCT, false, "c: reference, by id, after 29"},
    {FC, WIRE_T_NAMED_ENUM, false, "c: reference, struct, after NAMED_ENUM"},
    {FD, WIRE_T_COMPATIBLE_STRUCT, false, "d: reference, by name, after 28"},
    {FD, WIRE_T_NAMED_STRUCT, true, "d: reference, by name, after 29"},
};

Test(utype_kind, registration_and_kind_against_the_type_id) {
  fx f = make();
  uint8_t b[LEN + 1];
  cr_assert_eq(message(&f, b, sizeof b), (size_t)LEN);
  cr_assert(b[ROOT] == WIRE_T_COMPATIBLE_STRUCT && b[FA] == b[ROOT] &&
            b[FB] == WIRE_T_NAMED_COMPATIBLE_STRUCT && b[FC] == b[FA] &&
            b[FD] == b[FB] && b[FC + 1] == 3 && b[FD + 1] == 5);
  both_read(&f, b, LEN, "as written");
  for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++)
    with_id(&f, CASES[i].at, CASES[i].id, CASES[i].ok, CASES[i].what);
  /* c (28, A by id) referring to b's TypeDef (N by name): the
   * registration refused before the other type is */
  b[FC + 1] = 5;
  both_refuse(&f, b, LEN, FC + 1, "c: reference to a by-name TypeDef after 28");
  wire_ctx_free(f.ctx);
}

/* The same after a writer's TypeDef of A other than the registered one
 * (a field more) was mapped by a first decode: the mapped TypeDef is
 * checked against the id too. */
Test(utype_kind, a_mapped_writer_typedef) {
  static const char FDL2[] =
      "package ut;\noption enable_auto_type_id = false;\n"
      "message A [id=801] { int32 n = 1; int32 m = 2; }\n"
      "message N { int32 n = 1; }\n"
      "message O [id=802] {\n"
      "  A a = 1 [nullable = false]; N b = 2 [nullable = false];\n"
      "  A c = 3 [nullable = false]; N d = 4 [nullable = false];\n"
      "}\n";
  wire_ctx *w = mem_ctx(FDL2, "ut2.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  wire_doc *doc = wire_doc_new(w);
  wire_node *n;
  const char *json = "{\"a\": {\"n\": 1, \"m\": 9}, \"b\": {\"n\": 2}, "
                     "\"c\": {\"n\": 3, \"m\": 9}, \"d\": {\"n\": 4}}";
  cr_assert_eq(wire_notation_parse_plain(w, doc, json, strlen(json),
                                         mem_ctx_type(w, "ut.O"), &n, NULL),
               WIRE_OK, "%s", wire_ctx_error_message(w));
  cr_assert_eq(wire_doc_add_root(doc, n), WIRE_OK);
  uint8_t *p;
  size_t len;
  cr_assert_eq(wire_encode(w, doc, &p, &len), WIRE_OK, "%s",
               wire_ctx_error_message(w));
  cr_assert(len > FA + 2 && p[FA] == WIRE_T_COMPATIBLE_STRUCT && p[FA + 1] == 2);
  fx f = make();
  both_read(&f, p, len, "another writer's A");
  p[FA] = WIRE_T_NAMED_COMPATIBLE_STRUCT;
  both_refuse(&f, p, len, FA + 1, "mapped A after 30");
  p[FA] = WIRE_T_NAMED_ENUM;
  both_refuse(&f, p, len, FA + 1, "mapped A after NAMED_ENUM");
  wire_ctx_free_bytes(w, p);
  wire_doc_free(doc);
  wire_ctx_free(w);
  wire_ctx_free(f.ctx);
}

/* A named enum's TypeDef after a struct's id, for the root and for a: the
 * kind is refused before the struct's type is looked at. */
Test(utype_kind, an_enum_typedef_after_a_struct_id) {
  fx f = make();
  wire_doc *doc = wire_doc_new(f.ctx);
  uint8_t *e;
  size_t elen;
  cr_assert_eq(wire_doc_add_root(doc, wire_node_new_enum_of(
                                          doc, mem_ctx_type(f.ctx, "ut.Color"), 1)),
               WIRE_OK);
  cr_assert_eq(wire_encode(f.ctx, doc, &e, &elen), WIRE_OK, "%s",
               wire_ctx_error_message(f.ctx));
  cr_assert(elen > 13 && e[2] == WIRE_T_NAMED_ENUM && e[3] == 0 &&
            (e[4] & 0xFF) != 0xFF);
  size_t tdlen = 8 + e[4]; /* header and body */
  cr_assert(4 + tdlen < elen);
  uint8_t m[LEN], b[2 * LEN + 64];
  cr_assert_eq(message(&f, m, sizeof m), (size_t)LEN);
  /* the root's TypeDef replaced */
  size_t n = 0;
  memcpy(b, m, 4), n = 4;
  memcpy(b + n, e + 4, tdlen), n += tdlen;
  memcpy(b + n, m + FA, LEN - FA), n += LEN - FA;
  both_refuse(&f, b, n, ROOT + 1, "root: enum TypeDef after 28");
  b[ROOT] = WIRE_T_NAMED_COMPATIBLE_STRUCT;
  both_refuse(&f, b, n, ROOT + 1, "root: enum TypeDef after 30");
  /* a's */
  n = 0;
  memcpy(b, m, A_TD), n = A_TD;
  memcpy(b + n, e + 4, tdlen), n += tdlen;
  memcpy(b + n, m + A_END, LEN - A_END), n += LEN - A_END;
  both_refuse(&f, b, n, FA + 1, "a: enum TypeDef after 28");
  wire_ctx_free_bytes(f.ctx, e);
  wire_doc_free(doc);
  wire_ctx_free(f.ctx);
}
