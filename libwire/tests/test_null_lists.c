/* test_null_lists.c - lists whose elements are all null and whose element
 * type is a user type (R-LIST-5, R-WLIST-2): the element type meta is
 * written once after the header although no element carries it.
 *
 *  - writers: a list field declared `list<optional T>` (T a registered
 *    struct, compatible mode) holding only nulls gets T's type meta, as
 *    pyfory 1.7.7 and Fory Go 1.6.1 write it (bytes below from pyfory:
 *    libwire/tests/py has the dataclasses' shape), through the tape codec
 *    and through the document;
 *  - readers: those bytes decode (the document keeps the element type and
 *    writes the same bytes again; the tape holds the nulls, and the schema's
 *    declaration gives the type again), both decoders giving one tape; a
 *    union element type is still refused;
 *  - without an element type to write (a root list; the notation, which
 *    cannot name a type the schema lacks), no same-type bit: `02 fd fd`,
 *    as Fory Go writes `[]any{nil, nil}` (errata E-57). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "tape.h"
#include "test_hex.h"

/* pyfory 1.7.7, xlang, compatible, reference tracking off:
 * Holder(colors=[None], leaves=[None, None]) with
 *   class Holder: colors: List[Optional[Color]]; leaves: List[Optional[Leaf]]
 *   class Leaf: x: pyfory.Int32
 * registered by id (Color 103, Leaf 101, Holder 102) and by name (t.*). */
static const char by_id[] =
    "01ff1c00108096c08603ec17c2664c166609cb74644c16722c80a924010efd020a1c02"
    "05b041dfe88ea318c16540055cfdfd";
static const char by_name[] =
    "01ff1e001620c6b217431b5ae2054c131dcb19224c166609cb74644c167a2c80a92401"
    "0efd020a1e020a30f40d119f744ce1054c0f2c802840055cfdfd";
static const char fdl_id[] =
    "option wire_fields_by_name = true;\n"
    "enum Color [id = 103] { RED = 0; GREEN = 1; }\n"
    "message Leaf [id = 101] { int32 x = 1; }\n"
    "message Holder [id = 102] { list<optional Color> colors = 1;\n"
    "  list<optional Leaf> leaves = 2; }\n";
static const char fdl_name[] =
    "package t;\noption enable_auto_type_id = false;\n"
    "option wire_fields_by_name = true;\n"
    "enum Color { RED = 0; GREEN = 1; }\n"
    "message Leaf { int32 x = 1; }\n"
    "message Holder { list<optional Color> colors = 1;\n"
    "  list<optional Leaf> leaves = 2; }\n";

static wire_ctx *ctx_with(const char *fdl, int compatible) {
  wire_ctx *ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, compatible);
  if (fdl)
    cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "t.fdl"), WIRE_OK,
                 "%s", wire_ctx_error_message(ctx));
  return ctx;
}

/* A build tape of one Holder (registry index 2: Color, Leaf, Holder in
 * declaration order) with `colors` = [null] and `leaves` = [null, null]. */
typedef struct { uint8_t b[128]; size_t n; } tbuf;
static void put(tbuf *t, const void *p, size_t n) {
  cr_assert(t->n + n <= sizeof t->b);
  memcpy(t->b + t->n, p, n);
  t->n += n;
}
static void put8(tbuf *t, uint8_t v) { put(t, &v, 1); }
static void put16(tbuf *t, uint16_t v) { put(t, &v, 2); }
static void put32(tbuf *t, uint32_t v) { put(t, &v, 4); }
static void field(tbuf *t, const char *name, uint32_t nulls) {
  put16(t, (uint16_t)strlen(name));
  put(t, name, strlen(name));
  put8(t, 0x16); /* LIST */
  put32(t, nulls);
  for (uint32_t i = 0; i < nulls; i++) put8(t, 0x00); /* NULL */
}
static tbuf holder_tape(void) {
  tbuf t = {{0}, 0};
  put(&t, "WT\x02\x00", 4);
  put32(&t, 1);
  put8(&t, 0x1B); /* STRUCT */
  put32(&t, 2);
  put32(&t, 2);
  field(&t, "colors", 1);
  field(&t, "leaves", 2);
  return t;
}

/* (st, p and n from one call made before this one: C leaves the order in
 * which arguments are evaluated open) */
static void expect_bytes(wire_ctx *ctx, int32_t st, uint8_t *p, size_t n,
                         const char *want, const char *what) {
  cr_assert_eq(st, WIRE_OK, "%s: %s", what, wire_ctx_error_message(ctx));
  char *h = tohex(p, n);
  cr_expect_str_eq(h, want, "%s", what);
  free(h);
  wire_ctx_free_bytes(ctx, p);
}

Test(null_lists, written_as_pyfory_writes_them) {
  const char *fdl[] = {fdl_id, fdl_name}, *want[] = {by_id, by_name};
  for (int k = 0; k < 2; k++) {
    wire_ctx *ctx = ctx_with(fdl[k], 1);
    tbuf t = holder_tape();
    uint8_t *p;
    size_t n;
    int32_t st = wire_encode_tape(ctx, t.b, t.n, &p, &n);
    expect_bytes(ctx, st, p, n, want[k], k ? "tape, by name" : "tape, by id");
    st = wire__tape_encode_doc(ctx, t.b, t.n, &p, &n);
    expect_bytes(ctx, st, p, n, want[k],
                 k ? "document, by name" : "document, by id");
    wire_ctx_free(ctx);
  }
}

/* Without an element type to write (a root list, a `list<any>` field) an
 * all-null list has no same-type bit and no element type, as Fory Go 1.6.1
 * writes `[]any{nil, nil}` (R-WLIST-2, errata E-57): `02 fd fd`, under
 * reference tracking `03 fd fd` (R-WLIST-4); pyfory, Java and Go read
 * both, where NONE (`0a 24`) is read by pyfory alone. The tape codec and
 * the document agree. */
Test(null_lists, undeclared_lists_have_no_element_type) {
  static const char *want[] = {"01ff160202fdfd", "0100160203fdfd"};
  for (int ref = 0; ref < 2; ref++) {
    wire_ctx *ctx = ctx_with(fdl_id, 1);
    wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, ref);
    tbuf t = {{0}, 0};
    put(&t, "WT\x02\x00", 4);
    put32(&t, 1);
    put8(&t, 0x16);
    put32(&t, 2);
    put8(&t, 0x00);
    put8(&t, 0x00);
    uint8_t *p;
    size_t n;
    int32_t st = wire_encode_tape(ctx, t.b, t.n, &p, &n);
    expect_bytes(ctx, st, p, n, want[ref], "root list, tape");
    st = wire__tape_encode_doc(ctx, t.b, t.n, &p, &n);
    expect_bytes(ctx, st, p, n, want[ref], "root list, document");
    wire_ctx_free(ctx);
  }
}

/* Through the notation: decoded without the schema, the list's element type
 * (Leaf, known from a TypeDef only) cannot be named, so its header is left
 * out and the list is written again without an element type (`02 fd fd`,
 * which pyfory reads back to Holder(colors=[None], leaves=[None, None]));
 * with the schema the header is kept and the bytes come back as read. A
 * root list has no declaration to give the type again. */
static void notation_case(const char *hx, const char *fdl, int compatible,
                          const char *want) {
  wire_ctx *ctx = ctx_with(fdl, compatible);
  size_t n;
  uint8_t *in = unhex(hx, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, in, n, &doc), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  uint8_t *js;
  size_t jn;
  cr_assert_eq(wire_notation_print(ctx, doc, wire_doc_root(doc, 0), 0, &js, &jn),
               WIRE_OK);
  wire_doc *back = wire_doc_new(ctx);
  wire_node *root;
  size_t used;
  cr_assert_eq(wire_notation_parse(ctx, back, (const char *)js, jn, 0, &root,
                                   &used), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  cr_assert_eq(wire_doc_add_root(back, root), WIRE_OK);
  uint8_t *p;
  size_t pn;
  int32_t st = wire_encode(ctx, back, &p, &pn);
  expect_bytes(ctx, st, p, pn, want, (const char *)js);
  wire_ctx_free_bytes(ctx, js);
  wire_doc_free(back);
  wire_doc_free(doc);
  free(in);
  wire_ctx_free(ctx);
}

Test(null_lists, notation_without_the_type) {
  notation_case(by_id, fdl_id, 1, by_id);
  notation_case(by_name, fdl_name, 1, by_name);
  notation_case(by_id, NULL, 1,
                "01ff1c00108096c08603ec17c2664c166609cb74644c16722c80a924010e"
                "fd0202fdfd");
  notation_case(by_name, NULL, 1,
                "01ff1e001620c6b217431b5ae2054c131dcb19224c166609cb74644c167a"
                "2c80a924010efd0202fdfd");
  /* a root set of STRUCT 101 (same-schema): no declaration gives the type
   * again, schema or not */
  notation_case("01ff17020a1b65fdfd", fdl_id, 0, "01ff170202fdfd");
}

/* A recorded same-type header with no type kept (pyfory's `[None, None]`
 * through the notation, which does not show NONE) still gets NONE. */
Test(null_lists, recorded_same_type_header_gets_none) {
  wire_ctx *ctx = ctx_with(NULL, 0);
  const char *js = "{\"list\":[{\"null\":null},{\"null\":null}],\"header\":10}";
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *root;
  size_t used;
  cr_assert_eq(wire_notation_parse(ctx, doc, js, strlen(js), 0, &root, &used),
               WIRE_OK, "%s", wire_ctx_error_message(ctx));
  cr_assert_eq(wire_doc_add_root(doc, root), WIRE_OK);
  uint8_t *p;
  size_t n;
  int32_t st = wire_encode(ctx, doc, &p, &n);
  expect_bytes(ctx, st, p, n, "01ff16020a24fdfd", "header 0a");
  wire_doc_free(doc);
  wire_ctx_free(ctx);
}

/* Decoded with or without the schema: the document writes the input again
 * (the element type it read is kept), the tape holds the nulls, and both
 * decoders agree. */
static void decode_case(const char *hx, const char *fdl, int compatible,
                        int declared) {
  wire_ctx *ctx = ctx_with(fdl, compatible);
  size_t n;
  uint8_t *in = unhex(hx, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, in, n, &doc), WIRE_OK, "%s: %s", hx,
               wire_ctx_error_message(ctx));
  uint8_t *p;
  size_t pn;
  int32_t st = wire_encode(ctx, doc, &p, &pn);
  expect_bytes(ctx, st, p, pn, hx, "document");
  wire_doc_free(doc);
  uint8_t *a, *b;
  size_t an, bn;
  cr_assert_eq(wire_decode_tape(ctx, in, n, &a, &an), WIRE_OK, "%s: %s", hx,
               wire_ctx_error_message(ctx));
  cr_assert_eq(wire__tape_decode_doc(ctx, in, n, 0, &b, &bn), WIRE_OK);
  cr_expect(an == bn && memcmp(a, b, an) == 0, "%s: the two tapes differ", hx);
  /* and, where the list is a field the schema declares, the tape encodes
   * back to the input (a tape does not hold the element type: the
   * declaration gives it) */
  if (declared) {
    uint8_t *q;
    size_t qn;
    st = wire_encode_tape(ctx, a, an, &q, &qn);
    expect_bytes(ctx, st, q, qn, hx, "the tape encoded again");
  }
  wire_ctx_free_bytes(ctx, a);
  wire_ctx_free_bytes(ctx, b);
  free(in);
  wire_ctx_free(ctx);
}

Test(null_lists, read_and_kept) {
  decode_case(by_id, NULL, 1, 0);
  decode_case(by_name, NULL, 1, 0);
  decode_case(by_id, fdl_id, 1, 1);
  decode_case(by_name, fdl_name, 1, 1);
  /* a root list of ENUM 103, and a set of STRUCT 101 (same-schema) */
  decode_case("01ff16010a1967fd", NULL, 0, 0);
  decode_case("01ff17020a1b65fdfd", fdl_id, 0, 0);
}

/* A union element type is still refused (its type meta is not kept):
 * UNION, and TYPED_UNION with its user id. */
Test(null_lists, union_element_type_refused) {
  const char *cases[] = {"010016010a21fd", "010016010a2224fd"};
  for (int k = 0; k < 2; k++) {
    wire_ctx *ctx = ctx_with(NULL, 0);
    size_t n;
    uint8_t *in = unhex(cases[k], &n);
    wire_doc *doc;
    cr_expect_eq(wire_decode(ctx, in, n, &doc), WIRE_E_UNSUPPORTED, "%s",
                 cases[k]);
    cr_expect_eq(wire_ctx_error_offset(ctx), 4);
    uint8_t *a;
    size_t an;
    cr_expect_eq(wire_decode_tape(ctx, in, n, &a, &an), WIRE_E_UNSUPPORTED,
                 "%s", cases[k]);
    cr_expect_eq(wire_ctx_error_offset(ctx), 4);
    free(in);
    wire_ctx_free(ctx);
  }
}
