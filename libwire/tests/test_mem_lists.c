/* test_mem_lists.c - the compiled decoder's lists of numbers read in a
 * loop of their own (mem_dec_lists.c, lists of declared elements with no
 * flags). A message of lists of every number type decodes to its values
 * with the loop and without it (the general loop of dec_list), and every
 * prefix, every message with one byte changed, each arena size below the
 * one needed and counts past WIRE_LIMIT_COLLECTION get the same status and
 * byte offset from both. */
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

/* (internal, mem_dec_lists.c: off, every list takes the general loop) */
extern bool wire__mdec_lists_ok;

#define NL 10
static const char fdl[] =
    "package ml;\n"
    "message P [id=420] {\n"
    "  list<int32> a = 1; list<int64> b = 2; list<float32> c = 3;\n"
    "  list<float64> d = 4; list<bool> e = 5; list<fixed int32> f = 6;\n"
    "  list<fixed int64> g = 7; list<int8> h = 8; list<uint8> i = 9;\n"
    "  list<uint32> j = 10;\n"
    "}\n";
/* the memory width of list l's elements (their natural forms) */
static const size_t widths[NL] = {4, 8, 4, 8, 1, 4, 8, 1, 1, 4};

typedef struct { const void *p; uint32_t n, pad; } seq;
typedef struct { seq l[NL]; } p_t;

static wire_ctx *make(uint32_t *lp) {
  wire_ctx *c = mem_ctx(fdl, "ml.fdl", NULL);
  uint32_t t = mem_ctx_type(c, "ml.P");
  int32_t st = wire_mem_layout_new(c, t, sizeof(p_t), lp);
  for (uint32_t k = 0; k < NL; k++)
    st |= wire_mem_layout_field(c, *lp, k, WIRE_MEM_ARRAY,
                                (uint32_t)(16 * k), (uint32_t)(16 * k + 8), N,
                                N);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, *lp), WIRE_OK, "%s", wire_ctx_error_message(c));
  return c;
}

/* values of every varint length, both signs */
static const int32_t i32s[] = {0, -1, 63, -65, 8191, -8193, 1048575,
                               -1048577, 134217727, -134217729, INT32_MAX,
                               INT32_MIN, 1};
static const int64_t i64s[] = {0, -1, 100, -(INT64_C(1) << 13),
                               INT64_C(1) << 20, -(INT64_C(1) << 27),
                               INT64_C(1) << 34, -(INT64_C(1) << 41),
                               INT64_C(1) << 48, -(INT64_C(1) << 55),
                               INT64_C(1) << 62, INT64_MAX, INT64_MIN};
static const uint32_t u32s[] = {0, 1, 127, 128, 16383, 16384, 2097151,
                                2097152, 268435455, 268435456, UINT32_MAX};

/* element k of list l (of n), written at dst */
static void elem(int l, uint32_t k, uint32_t n, uint8_t *dst) {
  uint32_t r = (k * 7 + n) % 13;
  switch (l) {
  case 0: case 5: memcpy(dst, &i32s[r], 4); break;
  case 1: case 6: memcpy(dst, &i64s[r], 8); break;
  case 2: { float f = (float)i32s[r] / 3.0f; memcpy(dst, &f, 4); break; }
  case 3: { double d = (double)i64s[r] / 7.0; memcpy(dst, &d, 8); break; }
  case 4: dst[0] = (uint8_t)(r & 1); break;
  case 7: dst[0] = (uint8_t)(int8_t)(i32s[r] >> 3); break;
  case 8: dst[0] = (uint8_t)(k * 37); break;
  default: memcpy(dst, &u32s[r % 11], 4); break;
  }
}

static uint8_t arena[1 << 16], arena2[1 << 16];
static uint8_t vals[NL][1024];

/* a message with lists of n elements each (list l of n + l % 3 for
 * variety when vary) */
static size_t message(wire_ctx *c, uint32_t lp, uint32_t n, int vary,
                      uint8_t *out, size_t cap) {
  p_t v;
  memset(&v, 0, sizeof v);
  for (int l = 0; l < NL; l++) {
    uint32_t m = vary ? n + (uint32_t)l % 3 : n;
    for (uint32_t k = 0; k < m; k++) elem(l, k, m, vals[l] + k * widths[l]);
    v.l[l].p = vals[l];
    v.l[l].n = m;
  }
  return mem_damage_encode(c, lp, &v, out, cap);
}

/* Decodes data[0..n) with the loop and without it, into an arena of cap
 * bytes: the same status, offset and values. */
static int32_t both(wire_ctx *c, uint32_t lp, const uint8_t *data, size_t n,
                    size_t cap) {
  p_t o1, o2;
  size_t u1 = 0, u2 = 0;
  memset(&o1, 0, sizeof o1);
  memset(&o2, 0, sizeof o2);
  wire__mdec_lists_ok = true;
  int32_t s1 = wire_mem_decode(c, lp, data, n, &o1, arena, cap, &u1,
                               WIRE_MEM_COPY);
  uint64_t f1 = mem_damage_clean(c, s1, n);
  wire__mdec_lists_ok = false;
  int32_t s2 = wire_mem_decode(c, lp, data, n, &o2, arena2, cap, &u2,
                               WIRE_MEM_COPY);
  uint64_t f2 = mem_damage_clean(c, s2, n);
  wire__mdec_lists_ok = true;
  mem_damage_agree("loop", s1, f1, "general", s2, f2, n, cap);
  if (s1) return s1;
  cr_assert_eq(u1, u2);
  for (int l = 0; l < NL; l++) {
    cr_assert_eq(o1.l[l].n, o2.l[l].n);
    cr_assert(o1.l[l].n == 0 ||
              !memcmp(o1.l[l].p, o2.l[l].p, o1.l[l].n * widths[l]),
              "list %d differs", l);
  }
  return s1;
}

/* both as a probe */
typedef struct { wire_ctx *c; uint32_t lp; } lists_env;
static int32_t lists_probe(const void *env, const uint8_t *data, size_t n,
                           size_t cap, int strict) {
  const lists_env *e = env;
  (void)strict;
  return both(e->c, e->lp, data, n, cap < sizeof arena ? cap : sizeof arena);
}

Test(mem_lists, values_every_length) {
  uint32_t lp;
  wire_ctx *c = make(&lp);
  static const uint32_t lens[] = {0, 1, 7, 8, 9, 13, 100};
  static uint8_t buf[1 << 14];
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    for (int vary = 0; vary < 2; vary++) {
      size_t len = message(c, lp, lens[li], vary, buf, sizeof buf);
      for (int loop = 1; loop >= 0; loop--) {
        p_t o;
        size_t used = 0;
        memset(&o, 0, sizeof o);
        wire__mdec_lists_ok = loop != 0;
        cr_assert_eq(wire_mem_decode(c, lp, buf, len, &o, arena, sizeof arena,
                                     &used, WIRE_MEM_COPY),
                     WIRE_OK, "%s", wire_ctx_error_message(c));
        for (int l = 0; l < NL; l++) {
          uint32_t m = vary ? lens[li] + (uint32_t)l % 3 : lens[li];
          cr_assert_eq(o.l[l].n, m, "list %d: %u of %u", l, o.l[l].n, m);
          uint8_t want[8];
          for (uint32_t k = 0; k < m; k++) {
            elem(l, k, m, want);
            cr_assert(!memcmp((const uint8_t *)o.l[l].p + k * widths[l], want,
                              widths[l]),
                      "list %d item %u of %u (loop %d)", l, k, m, loop);
          }
        }
      }
      wire__mdec_lists_ok = true;
      cr_assert_eq(both(c, lp, buf, len, sizeof arena), WIRE_OK);
    }
  }
  wire_ctx_free(c);
}

Test(mem_lists, prefixes_and_changed_bytes) {
  uint32_t lp;
  wire_ctx *c = make(&lp);
  static const uint32_t lens[] = {1, 8, 9, 100};
  static uint8_t buf[1 << 14];
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    size_t len = message(c, lp, lens[li], 1, buf, sizeof buf);
    /* every prefix; one byte changed: its top bit, a zero, all ones, a
     * bool out of range, a varint's last byte; every arena too small */
    static const uint8_t subs[] = {0x00, 0xFF, 0x02, 0x7F};
    lists_env e = {c, lp};
    mem_damage_all(lists_probe, &e, buf, len, 0, 0x80, subs, sizeof subs);
    p_t o;
    mem_damage_arenas(c, lp, buf, len, &o, WIRE_MEM_COPY, lists_probe, &e);
  }
  wire_ctx_free(c);
}

/* The same sweeps with the context's depth limit at exactly what the
 * message needs: a list whose loop gives up on an element and hands it
 * back to the general reader must leave the depth as it found it (else
 * the general reader's error becomes a depth error). */
Test(mem_lists, changed_bytes_at_the_depth_limit) {
  uint32_t lp;
  wire_ctx *c = make(&lp);
  static uint8_t buf[1 << 12];
  size_t len = message(c, lp, 9, 1, buf, sizeof buf);
  lists_env e = {c, lp};
  uint64_t d = 1;
  for (; d < 64; d++) {
    cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, d), WIRE_OK);
    if (both(c, lp, buf, len, sizeof arena) == WIRE_OK) break;
  }
  cr_assert(d > 1 && d < 64, "the message needs depth %u", (unsigned)d);
  static const uint8_t subs[] = {0x00, 0xFF, 0x02, 0x7F};
  mem_damage_bytes(lists_probe, &e, buf, len, 0, 0x80, subs, sizeof subs);
  wire_ctx_free(c);
}

/* One list l (the others empty) with hand-made elements: the message's
 * bytes for a count of 1 and element 0, its count and element then
 * replaced (*el_end: where the element ends). */
static size_t one_l(wire_ctx *c, uint32_t lp, int l, const uint8_t *el,
                    size_t n, uint32_t count, uint8_t *out, size_t *el_end) {
  p_t v;
  memset(&v, 0, sizeof v);
  static const int64_t zero = 0;
  v.l[l].p = &zero;
  v.l[l].n = 1;
  const uint8_t *b;
  size_t len;
  cr_assert_eq(wire_mem_encode(c, lp, &v, &b, &len), WIRE_OK);
  /* find count 1, header, element 0 of list a: 01 0c 00 after the
   * struct's header (the first such run) */
  size_t at = 0;
  while (at + 3 <= len && !(b[at] == 1 && b[at + 1] == 0x0c && b[at + 2] == 0))
    at++;
  cr_assert(at + 3 <= len, "list a not found");
  memcpy(out, b, at);
  size_t o = at;
  o += (size_t)(count < 0x80 ? (out[o] = (uint8_t)count, 1)
                             : (out[o] = (uint8_t)(count | 0x80),
                                out[o + 1] = (uint8_t)(count >> 7), 2));
  out[o++] = 0x0c;
  memcpy(out + o, el, n);
  o += n;
  if (el_end) *el_end = o;
  memcpy(out + o, b + at + 3, len - at - 3);
  return o + len - at - 3;
}

Test(mem_lists, overlong_long_and_counts) {
  uint32_t lp;
  wire_ctx *c = make(&lp);
  static uint8_t buf[1 << 14];
  /* an overlong varint (1 in two bytes), one of six bytes, a fifth byte
   * with bits past 32: refused with or without the loop, at the element */
  static const uint8_t over[] = {0x81, 0x00};
  static const uint8_t six[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
  static const uint8_t big[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x1F};
  static const uint8_t ok5[] = {0xFF, 0xFF, 0xFF, 0xFF, 0x0F};
  static const uint8_t over64[] = {0xFF, 0x80, 0x00};
  static const uint8_t ten64[] = {0x80, 0x80, 0x80, 0x80, 0x80,
                                  0x80, 0x80, 0x80, 0x80, 0x01};
  static const uint8_t nine0[] = {0x80, 0x80, 0x80, 0x80, 0x80,
                                  0x80, 0x80, 0x80, 0x00};
  const uint8_t *els[] = {over, six, big, ok5};
  size_t ns[] = {sizeof over, sizeof six, sizeof big, sizeof ok5};
  for (int k = 0; k < 4; k++) {
    size_t len = one_l(c, lp, 0, els[k], ns[k], 1, buf, NULL);
    int32_t st = both(c, lp, buf, len, sizeof arena);
    if (k < 3) {
      cr_assert_neq(st, WIRE_OK, "case %d", k);
      /* the offset names the element's first byte or one within it */
      uint64_t off = wire_ctx_error_offset(c);
      cr_assert(off < len, "case %d at %llu", k, (unsigned long long)off);
    } else {
      cr_assert_eq(st, WIRE_OK);
    }
  }
  /* the same at the end of the input (fewer bytes left than a varint may
   * take), in lists a (varint32) and b (varint64) */
  for (int k = 0; k < 4; k++) {
    size_t e;
    one_l(c, lp, 0, els[k], ns[k], 1, buf, &e);
    for (size_t cut = e - ns[k]; cut <= e; cut++)
      cr_assert_neq(both(c, lp, buf, cut, sizeof arena), WIRE_OK);
  }
  {
    const uint8_t *e64[] = {over64, ten64, over, nine0};
    size_t n64[] = {sizeof over64, sizeof ten64, sizeof over, sizeof nine0};
    for (int k = 0; k < 4; k++) {
      size_t e, len = one_l(c, lp, 1, e64[k], n64[k], 1, buf, &e);
      cr_assert_neq(both(c, lp, buf, len, sizeof arena), WIRE_OK, "%d", k);
      for (size_t cut = e - n64[k]; cut <= e; cut++)
        cr_assert_neq(both(c, lp, buf, cut, sizeof arena), WIRE_OK);
    }
  }
  /* a count past the collection limit, and one past the bytes */
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_COLLECTION, 4), WIRE_OK);
  uint8_t els5[5] = {2, 4, 6, 8, 10};
  size_t len = one_l(c, lp, 0, els5, 5, 5, buf, NULL);
  cr_assert_eq(both(c, lp, buf, len, sizeof arena), WIRE_E_LIMIT);
  len = one_l(c, lp, 0, els5, 4, 4, buf, NULL);
  cr_assert_eq(both(c, lp, buf, len, sizeof arena), WIRE_OK);
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_COLLECTION, 1 << 24),
               WIRE_OK);
  len = one_l(c, lp, 0, els5, 5, 200, buf, NULL);
  cr_assert_neq(both(c, lp, buf, len, sizeof arena), WIRE_OK);
  wire_ctx_free(c);
}
