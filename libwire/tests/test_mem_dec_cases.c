/* test_mem_dec_cases.c - the compiled decoder's struct loop cases for ops
 * without an inline case of their own (mop.ds, mem.h: struct pointers
 * with and without a reference / null flag, decimals, timestamps and
 * durations, strings with a flag, maps), its inline one-byte references
 * and its loop for maps of strings to strings. A graph of the order
 * graph's shape decodes to the same values with them and without them
 * (every op by dec_field, every map entry by the general loop), and every
 * prefix, every message with one byte changed and each arena size below
 * the one needed get the same status and byte offset from both (and
 * neither writes past the arena's end), with and without compatible
 * mode. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"
#include "mem_damage.h"

/* (internal, mem_layout.c: off, plans made from then on have no mop.ds
 * cases, no inline decimal, timestamp or reference reader and maps no
 * string loop; the library reads it only when it makes a plan) */
extern bool wire__mdec_ds_ok;

static const char fdl[] =
    "package mc;\n"
    "message Cat [id=440] { int64 id = 1; string name = 2; ref Cat parent = 3; }\n"
    "message Item [id=441] {\n"
    "  string sku = 1; ref Cat cat = 2 [nullable = false]; decimal price = 3;\n"
    "  timestamp at = 4; duration took = 5; optional string note = 6;\n"
    "  map<string, optional string> attrs = 7; Cat home = 8 [nullable = false];\n"
    "  optional string memo = 9; Cat spare = 10;\n"
    "}\n"
    "message Root [id=442] {\n"
    "  list<optional ref Item> items = 1; ref Item pick = 2 [nullable = false];\n"
    "  map<string, string> tags = 3; optional string notes = 4;\n"
    "  ref Cat maybe = 5; map<string, string> extra = 6 [nullable = true];\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t h, pad; } jstr; /* tagged */
typedef struct { const uint8_t *p; uint32_t n, pad; } ustr; /* UTF-8 */
typedef struct cat { int64_t id; jstr name; const struct cat *parent; } cat;
typedef struct { ustr k; jstr v; } kv;
typedef struct { jstr k, v; } kv2;
typedef struct {
  ustr sku;
  const cat *cat;
  wire_mem_decimal price;
  wire_mem_time at, took;
  ustr note;
  const kv *attrs;
  uint32_t nattrs, pad;
  const cat *home;
  jstr memo;
  const cat *spare;
} item;
typedef struct {
  const item *const *items;
  uint32_t nitems, pad;
  const item *pick;
  const kv2 *tags;
  uint32_t ntags, pad2;
  jstr notes;
  const cat *maybe;
  const kv2 *extra;
  uint32_t nextra, pad3;
} root;

static jstr J(const char *s) {
  return (jstr){(const uint8_t *)s, (uint32_t)strlen(s) << 2 | WIRE_STR_LATIN1, 0};
}
static ustr U(const char *s) {
  return (ustr){(const uint8_t *)s, (uint32_t)strlen(s), 0};
}

static wire_ctx *make(int compatible, uint32_t *lr) {
  wire_ctx *c = mem_ctx(fdl, "mc.fdl",
                        MEM_OPTS(WIRE_OPT_REF_TRACKING, 1,
                                 WIRE_OPT_COMPATIBLE, compatible));
  uint32_t tc = mem_ctx_type(c, "mc.Cat");
  uint32_t ti = mem_ctx_type(c, "mc.Item");
  uint32_t tr = mem_ctx_type(c, "mc.Root");
  /* layouts: 0 root, 1 item, 2 cat, 3 item pointer, 4 kv, 5 kv2 */
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tr, sizeof(root), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, O(root, items), O(root, nitems), N, 3, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STRUCT_PTR, O(root, pick), N, N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_MAP, O(root, tags), O(root, ntags), N, 5, 0},
      {WIRE_MEM_ROW_FIELD, 3, TSTR, O(root, notes), O(root, notes.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_STRUCT_PTR, O(root, maybe), N, N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 5, WIRE_MEM_MAP, O(root, extra), O(root, nextra), N, 5, 0},
      {WIRE_MEM_ROW_LAYOUT, ti, sizeof(item), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(item, sku), O(item, sku.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STRUCT_PTR, O(item, cat), N, N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_DECIMAL, O(item, price), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_TIMESTAMP, O(item, at), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_DURATION, O(item, took), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 5, WIRE_MEM_STR, O(item, note), O(item, note.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 6, WIRE_MEM_MAP, O(item, attrs), O(item, nattrs), N, 4, 0},
      {WIRE_MEM_ROW_FIELD, 7, WIRE_MEM_STRUCT_PTR, O(item, home), N, N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 8, TSTR, O(item, memo), O(item, memo.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 9, WIRE_MEM_STRUCT_PTR, O(item, spare), N, N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, tc, sizeof(cat), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I64, O(cat, id), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, TSTR, O(cat, name), O(cat, name.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_STRUCT_PTR, O(cat, parent), N, N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(void *), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, 1, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(kv, k), O(kv, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, TSTR, O(kv, v), O(kv, v.h), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv2), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, O(kv2, k), O(kv2, k.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, TSTR, O(kv2, v), O(kv2, v.h), N, N, 0},
  };
  *lr = MEM_CTX_TABLE(c, rows);
  return c;
}

static uint8_t arena[1 << 16], arena2[1 << 16];

/* The values: shared and cyclic categories, an item twice in the list, a
 * null item, a field naming an earlier item; decimals small and big, a
 * timestamp before 1970, a negative duration, null and empty strings,
 * UTF-8 past ASCII and UTF-16, a null map value. */
static size_t message(wire_ctx *c, uint32_t lr, uint8_t *out, size_t cap) {
  static const uint8_t m1[] = {0x39, 0x30}, m9[] = {1, 2, 3, 4, 5, 6, 7, 8, 9},
                       m62[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x3F};
  static const uint8_t u16[] = {0x34, 0x12, 'a', 0, 'b', 0, 'c', 0, 'd', 0,
                                'e', 0, 'f', 0, 'g', 0, 'h', 0};
  static cat a, b, r, s;
  a = (cat){1, J("a"), NULL};
  b = (cat){2, J("b"), &a};
  a.parent = &b;
  r = (cat){3, J("root"), NULL};
  s = (cat){4, (jstr){u16, sizeof u16 << 2 | WIRE_STR_UTF16, 0}, &r};
  static kv attrs[3];
  attrs[0] = (kv){U("colour"), J("red")};
  attrs[1] = (kv){U("caf\xc3\xa9"), (jstr){NULL, 0, 0}};
  attrs[2] = (kv){U(""), J("")};
  static const uint8_t b7[] = {0x80}, b15[] = {0x00, 0x80};
  static item x, y, z, w, u;
  x = (item){U("SKU-1"), &s, {m1, 2, 2, 0, 0}, {-86400, 5, 0}, {3, 999999999, 0},
             U("fragile, keep dry"), attrs, 3, 0, &r, J("m"), &b};
  y = (item){U("SKU-2 \xe2\x82\xac"), &a, {m62, 8, 0, 1, 0}, {1700000000, 0, 0},
             {-7, 1, 0}, (ustr){NULL, 0, 0}, attrs, 1, 0, &a, (jstr){NULL, 0, 0},
             NULL};
  z = (item){U(""), &r, {m9, 9, 3, 0, 0}, {0, 0, 0}, {0, 0, 0}, U(""), NULL, 0, 0,
             &s, J("a memo of some length, longer than thirty-one bytes"), &s};
  /* (decimals whose highest bit ends a byte) */
  w = z;
  w.price = (wire_mem_decimal){b7, 1, 0, 1, 0};
  u = z;
  u.price = (wire_mem_decimal){b15, 2, 5, 0, 0};
  static const item *items[7];
  items[0] = &x; items[1] = &y; items[2] = &x; items[3] = NULL; items[4] = &z;
  items[5] = &w; items[6] = &u;
  static kv2 tags[2];
  tags[0] = (kv2){J("k"), J("v")};
  tags[1] = (kv2){(jstr){u16, sizeof u16 << 2 | WIRE_STR_UTF16, 0}, J("w")};
  /* (the root's image is not cleared: its nulls are written) */
  root v = {items, 7, 0, &y, tags, 2, 0, (jstr){NULL, 0, 0}, NULL, tags, 1, 0};
  return mem_damage_encode(c, lr, &v, out, cap);
}

static uint8_t enc1[1 << 14];

/* Decodes data[0..n) by ca with the cases and by cb without them, into
 * arenas of cap bytes: the same status and offset, or values that encode
 * to the same bytes. */
static int32_t both(wire_ctx *ca, wire_ctx *cb, uint32_t lr,
                    const uint8_t *data, size_t n, size_t cap) {
  root o1, o2;
  size_t u1 = 0, u2 = 0;
  memset(&o1, 0xA5, sizeof o1);
  memset(&o2, 0xA5, sizeof o2);
  /* (the 16 bytes past the arena's end: no reader writes there, also
   * not the inline decimal's whole-word store) */
  size_t fence = cap + 16 <= sizeof arena ? 16 : sizeof arena - cap;
  memset(arena + cap, 0x5A, fence);
  wire__mdec_ds_ok = true;
  int32_t s1 = wire_mem_decode(ca, lr, data, n, &o1, arena, cap, &u1,
                               WIRE_MEM_COPY);
  uint64_t f1 = wire_ctx_error_offset(ca);
  for (size_t k = 0; k < fence; k++)
    cr_assert_eq(arena[cap + k], 0x5A, "%zu bytes, arena %zu: byte %zu past "
                 "its end written", n, cap, k);
  wire__mdec_ds_ok = false;
  int32_t s2 = wire_mem_decode(cb, lr, data, n, &o2, arena2, cap, &u2,
                               WIRE_MEM_COPY);
  uint64_t f2 = wire_ctx_error_offset(cb);
  wire__mdec_ds_ok = true;
  cr_assert_eq(s1, s2, "%zu bytes, arena %zu: cases %d (%s), general %d (%s)",
               n, cap, s1, wire_ctx_error_message(ca), s2,
               wire_ctx_error_message(cb));
  if (s1) {
    cr_assert_eq(f1, f2, "%zu bytes: cases at %llu (%s), general at %llu (%s)",
                 n, (unsigned long long)f1, wire_ctx_error_message(ca),
                 (unsigned long long)f2, wire_ctx_error_message(cb));
    return s1;
  }
  cr_assert_eq(u1, u2);
  const uint8_t *p;
  size_t n1, n2;
  int32_t e1 = wire_mem_encode(ca, lr, &o1, &p, &n1);
  if (!e1) memcpy(enc1, p, n1 < sizeof enc1 ? n1 : sizeof enc1);
  int32_t e2 = wire_mem_encode(cb, lr, &o2, &p, &n2);
  cr_assert_eq(e1, e2);
  if (!e1) {
    cr_assert(n1 == n2 && n1 <= sizeof enc1 && !memcmp(enc1, p, n1),
              "%zu bytes: the values differ", n);
  }
  return s1;
}

Test(mem_dec_cases, values) {
  for (int compatible = 0; compatible < 2; compatible++) {
    uint32_t lr;
    wire_ctx *c = make(compatible, &lr);
    static uint8_t buf[1 << 12];
    size_t len = message(c, lr, buf, sizeof buf);
    root o;
    size_t used = 0;
    memset(&o, 0xA5, sizeof o);
    cr_assert_eq(wire_mem_decode(c, lr, buf, len, &o, arena, sizeof arena,
                                 &used, WIRE_MEM_COPY),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(o.nitems, 7);
    cr_assert(o.items[5]->price.len == 1 && o.items[5]->price.negative &&
              o.items[5]->price.magnitude[0] == 0x80);
    cr_assert(o.items[6]->price.len == 2 && o.items[6]->price.scale == 5 &&
              o.items[6]->price.magnitude[1] == 0x80);
    cr_assert_eq(o.items[0], o.items[2], "an item named twice");
    cr_assert_null(o.items[3]);
    cr_assert_eq(o.pick, o.items[1], "a field naming an earlier item");
    const item *x = o.items[0], *y = o.items[1], *z = o.items[4];
    cr_assert(x->sku.n == 5 && !memcmp(x->sku.p, "SKU-1", 5));
    cr_assert_eq(x->at.seconds, -86400);
    cr_assert_eq(x->at.nanos, 5);
    cr_assert_eq(x->took.seconds, 3);
    cr_assert_eq(x->took.nanos, 999999999);
    cr_assert_eq(y->took.seconds, -7);
    cr_assert(x->price.len == 2 && x->price.magnitude[0] == 0x39 &&
              x->price.scale == 2 && !x->price.negative);
    cr_assert(y->price.len == 8 && y->price.negative);
    cr_assert(z->price.len == 9 && z->price.scale == 3);
    cr_assert(x->note.n == 17 && !memcmp(x->note.p, "fragile, keep dry", 17));
    cr_assert_null(y->note.p, "a null string");
    cr_assert(z->note.p && z->note.n == 0, "an empty string");
    cr_assert_null(y->memo.p);
    cr_assert_eq(z->memo.h >> 2, 51);
    cr_assert_eq(x->nattrs, 3);
    cr_assert_null(x->attrs[1].v.p, "a null map value");
    cr_assert(x->attrs[1].k.n == 5 && !memcmp(x->attrs[1].k.p, "caf\xc3\xa9", 5));
    cr_assert_eq(x->cat->id, 4);
    cr_assert_eq(x->cat->parent->id, 3);
    cr_assert_neq(x->home, x->cat->parent, "home is not a ref field");
    cr_assert_eq(x->home->id, 3);
    cr_assert_null(x->home->parent);
    cr_assert_eq(x->spare->id, 2);
    cr_assert_null(y->spare);
    cr_assert_eq(z->spare->parent->id, 3);
    cr_assert_eq(y->cat->parent->parent, y->cat, "the cycle leads back");
    cr_assert_null(o.maybe);
    cr_assert_null(o.notes.p);
    cr_assert_eq(o.notes.h, 0);
    cr_assert_eq(o.nextra, 1);
    cr_assert_eq(o.ntags, 2);
    cr_assert_eq(o.tags[1].k.h & 3, (uint32_t)WIRE_STR_UTF16);
    wire_ctx *c2 = make(compatible, &lr);
    cr_assert_eq(both(c, c2, lr, buf, len, sizeof arena), WIRE_OK);
    wire_ctx_free(c2);
    wire_ctx_free(c);
  }
}

/* both as a probe; each decode's failure clean */
typedef struct { wire_ctx *ca, *cb; uint32_t lr; } cases_env;
static int32_t cases_probe(const void *env, const uint8_t *data, size_t n,
                           size_t cap, int strict) {
  const cases_env *e = env;
  (void)strict;
  int32_t st = both(e->ca, e->cb, e->lr, data, n,
                    cap < sizeof arena ? cap : sizeof arena);
  mem_damage_clean(e->ca, st, n);
  mem_damage_clean(e->cb, st, n);
  return st;
}

Test(mem_dec_cases, prefixes_changed_bytes_and_arenas) {
  /* besides the top bit flipped: a zero, all ones, the null and the
   * reference flags, a one, a varint's last byte, UTF-16 surrogates */
  static const uint8_t subs[] = {0x00, 0xFF, 0xFD, 0xFE, 0x01, 0x7F, 0xD8,
                                 0xDC};
  for (int compatible = 0; compatible < 2; compatible++) {
    uint32_t lr;
    wire_ctx *ca = make(compatible, &lr), *cb = make(compatible, &lr);
    static uint8_t buf[1 << 12];
    size_t len = message(ca, lr, buf, sizeof buf);
    cases_env e = {ca, cb, lr};
    mem_damage_all(cases_probe, &e, buf, len, 0, 0x80, subs, sizeof subs);
    /* every one-byte reference id after each reference flag (the
     * struct loop's and ref_flag's inline references) */
    cr_assert_gt(mem_damage_ref_ids(cases_probe, &e, buf, len, 0xFE, 40), 0);
    /* the arena too small at every size below what the message needs */
    root o;
    mem_damage_arenas(ca, lr, buf, len, &o, WIRE_MEM_COPY, cases_probe, &e);
    wire_ctx_free(ca);
    wire_ctx_free(cb);
  }
}

/* where the n bytes of pat first are in b[0..len) */
static size_t find(const uint8_t *b, size_t len, const void *pat, size_t n) {
  for (size_t i = 0; i + n <= len; i++)
    if (!memcmp(b + i, pat, n)) return i;
  cr_assert_fail("pattern not in the message");
  return 0;
}

/* The inline readers both ways share refuse what the general readers
 * refuse: nanoseconds of 1e9, UTF-16 with a surrogate alone. */
Test(mem_dec_cases, shared_readers_refuse) {
  for (int compatible = 0; compatible < 2; compatible++) {
    uint32_t lr;
    wire_ctx *ca = make(compatible, &lr), *cb = make(compatible, &lr);
    static uint8_t buf[1 << 12], m[1 << 12];
    size_t len = message(ca, lr, buf, sizeof buf);
    /* x.at: -86400 s, 5 ns */
    static const uint8_t at[] = {0x80, 0xAE, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF,
                                 0xFF, 5, 0, 0, 0};
    size_t i = find(buf, len, at, sizeof at);
    static const uint8_t e9[] = {0x00, 0xCA, 0x9A, 0x3B}, e9m[] = {0xFF, 0xC9,
                                                                  0x9A, 0x3B};
    memcpy(m, buf, len);
    memcpy(m + i + 8, e9m, 4);
    cr_assert_eq(both(ca, cb, lr, m, len, sizeof arena), WIRE_OK);
    memcpy(m + i + 8, e9, 4);
    cr_assert_eq(both(ca, cb, lr, m, len, sizeof arena), WIRE_E_VALUE);
    cr_assert_eq(wire_ctx_error_offset(ca), i + 8);
    /* the UTF-16 text: 'c' made a high surrogate, then a low one */
    size_t u = find(buf, len, "b\0c\0d\0", 6) + 3;
    for (int k = 0; k < 2; k++) {
      memcpy(m, buf, len);
      m[u] = k ? 0xDC : 0xD8;
      cr_assert_eq(both(ca, cb, lr, m, len, sizeof arena), WIRE_E_STRING,
                   "a surrogate alone (%d)", k);
    }
    wire_ctx_free(ca);
    wire_ctx_free(cb);
  }
}
