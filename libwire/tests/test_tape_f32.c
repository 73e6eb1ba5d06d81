/* test_tape_f32.c - float32 values keep their bits through tapes
 * (spec/tape.md, FLOAT32 and PACKED): a payload decoded to a tape and the
 * tape encoded again gives the payload back, for signaling NaNs, NaN
 * payloads, signed zeros, subnormals and every other pattern tried, through
 * the direct codec and the document path, as a root, in a list (PACKED) and
 * as map values. The f64 of a FLOAT32 op is the float32 widened with a NaN's
 * bits kept (the quiet bit as it was); a double NaN narrows to its top 23
 * payload bits, or to the quiet NaN when those are all zero.
 *
 * WIRE_TEST_F32_ALL=1 in the environment sweeps all 2^32 patterns (about a
 * minute) instead of the NaN/infinity exponent and a stride. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "tape.h"
#include "tape_rt.h"

/* The f64 bits a tape carries for float32 bits x, computed here on its
 * own: a NaN's sign and payload moved up, the rest converted by C. */
static uint64_t widened(uint32_t x) {
  uint64_t sign = (uint64_t)(x & 0x80000000u) << 32;
  uint32_t exp = x >> 23 & 0xFF, man = x & 0x7FFFFFu;
  union { float f; uint32_t u; } in = {.u = x};
  union { double d; uint64_t u; } out = {.d = in.f};
  return exp == 0xFF && man ? sign | UINT64_C(0x7FF) << 52 | (uint64_t)man << 29
                            : out.u;
}

static const uint32_t pats[] = {
  0x7F800001, /* the smallest signaling NaN */
  0xFF800001, 0x7FA00000, 0x7FBFFFFF, 0xFFBFFFFF, /* signaling NaNs */
  0x7F812345,
  0x7FC00000, 0xFFC00000, /* quiet NaNs */
  0x7FC00001, 0xFFD23456, 0x7FFFFFFF, /* quiet NaNs with payloads */
  0x00000000, 0x80000000, /* zeros */
  0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, /* subnormals */
  0x00800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3EAAAAAB,
  0x7F800000, 0xFF800000, /* infinities */
};
#define NPATS (sizeof pats / sizeof pats[0])

static size_t varu32(uint8_t *q, uint32_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    q[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  q[n++] = (uint8_t)v;
  return n;
}

/* A payload of one list of float32 bits xs[0, n) as Fory writes it:
 * header, not-null flag, LIST, count, the same-declared-type list header
 * and FLOAT32, then the values; *len gets its length (free with free). */
static uint8_t *list_payload(const uint32_t *xs, uint32_t n, size_t *len) {
  uint8_t *p = malloc(16 + 4 * (size_t)n);
  size_t k = 0;
  p[k++] = 0x01;
  p[k++] = 0xFF;
  p[k++] = WIRE_T_LIST;
  k += varu32(p + k, n);
  p[k++] = 0x08;
  p[k++] = WIRE_T_FLOAT32;
  for (uint32_t i = 0; i < n; i++, k += 4) memcpy(p + k, &xs[i], 4);
  *len = k;
  return p;
}

Test(tape_f32, root_keeps_bits_and_tape_widens_exactly) {
  wire_ctx *ctx = wire_ctx_new();
  for (size_t i = 0; i < NPATS; i++) {
    uint8_t p[7] = {0x01, 0xFF, WIRE_T_FLOAT32};
    memcpy(p + 3, &pats[i], 4);
    uint8_t *t;
    size_t tl;
    char what[32];
    snprintf(what, sizeof what, "root 0x%08x", pats[i]);
    round_trip(ctx, p, sizeof p, what, &t, &tl);
    /* "WT" v f u32 roots, op, f64 */
    cr_assert_eq(tl, 8 + 1 + 8, "%s: tape length", what);
    cr_assert_eq(t[8], WIRE_T_FLOAT32);
    uint64_t u;
    memcpy(&u, t + 9, 8);
    cr_assert_eq(u, widened(pats[i]), "%s: tape f64 0x%016llx", what,
                 (unsigned long long)u);
    wire_ctx_free_bytes(ctx, t);
  }
  wire_ctx_free(ctx);
}

Test(tape_f32, list_and_map_values_keep_bits) {
  wire_ctx *ctx = wire_ctx_new();
  size_t n;
  uint8_t *p = list_payload(pats, NPATS, &n);
  round_trip(ctx, p, n, "list", NULL, NULL);
  free(p);

  /* map<string, float32> built with the document API and wire_encode */
  wire_doc *d = wire_doc_new(ctx);
  wire_node *m = wire_node_new_map(d);
  for (size_t i = 0; i < NPATS; i++) {
    char k[16];
    int kl = snprintf(k, sizeof k, "k%zu", i);
    wire_node *key = wire_node_new_string(d, (const uint8_t *)k, (size_t)kl, -1);
    wire_node *v = wire_node_new_float_bits(d, WIRE_T_FLOAT32, pats[i]);
    cr_assert_eq(wire_map_put(d, m, key, v), 0);
  }
  cr_assert_eq(wire_doc_add_root(d, m), 0);
  uint8_t *mp;
  size_t ml;
  cr_assert_eq(wire_encode(ctx, d, &mp, &ml), 0);
  round_trip(ctx, mp, ml, "map", NULL, NULL);
  wire_ctx_free_bytes(ctx, mp);
  wire_doc_free(d);
  wire_ctx_free(ctx);
}

/* The node API converts the same way: wire_node_float widens a float32
 * node with its NaN bits, wire_node_new_float narrows them back. */
Test(tape_f32, node_float_round_trip) {
  wire_ctx *ctx = wire_ctx_new();
  wire_doc *d = wire_doc_new(ctx);
  for (size_t i = 0; i < NPATS; i++) {
    wire_node *a = wire_node_new_float_bits(d, WIRE_T_FLOAT32, pats[i]);
    double x = wire_node_float(a);
    uint64_t u;
    memcpy(&u, &x, 8);
    cr_assert_eq(u, widened(pats[i]), "0x%08x widened to 0x%016llx", pats[i],
                 (unsigned long long)u);
    wire_node *b = wire_node_new_float(d, WIRE_T_FLOAT32, x);
    cr_assert_eq(wire_node_float_bits(b), pats[i], "0x%08x came back as 0x%08llx",
                 pats[i], (unsigned long long)wire_node_float_bits(b));
  }
  wire_doc_free(d);
  wire_ctx_free(ctx);
}

/* Doubles that are no float32 widened: a NaN keeps its top 23 payload bits
 * and its quiet bit; with none of them set it becomes the quiet NaN. */
Test(tape_f32, tape_doubles_narrow) {
  static const struct { uint64_t in; uint32_t out; } cases[] = {
    {UINT64_C(0x7FF0000000000001), 0x7FC00000}, /* payload below the top 23 */
    {UINT64_C(0xFFF000001FFFFFFF), 0xFFC00000},
    {UINT64_C(0x7FF8000000000001), 0x7FC00000}, /* quiet, low payload */
    {UINT64_C(0x7FF4000000000001), 0x7FA00000}, /* signaling stays so */
    {UINT64_C(0xFFFFFFFFFFFFFFFF), 0xFFFFFFFF},
    {UINT64_C(0x3FF0000010000000), 0x3F800000}, /* 1 + 2^-24: a tie, even */
    {UINT64_C(0x3FF0000030000000), 0x3F800002}, /* 1 + 3*2^-24: to even up */
    {UINT64_C(0x47F0000000000000), 0x7F800000}, /* 2^128: overflows to inf */
  };
  wire_ctx *ctx = wire_ctx_new();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t t[17] = {'W', 'T', 1, 0, 1, 0, 0, 0, WIRE_T_FLOAT32};
    memcpy(t + 9, &cases[i].in, 8);
    uint8_t *o1, *o2;
    size_t n1, n2;
    cr_assert_eq(wire_encode_tape(ctx, t, sizeof t, &o1, &n1), 0);
    cr_assert_eq(wire__tape_encode_doc(ctx, t, sizeof t, &o2, &n2), 0);
    uint32_t x;
    cr_assert_eq(n1, 7);
    memcpy(&x, o1 + 3, 4);
    cr_assert_eq(x, cases[i].out, "0x%016llx narrowed to 0x%08x",
                 (unsigned long long)cases[i].in, x);
    cr_assert(n2 == n1 && memcmp(o1, o2, n1) == 0,
              "0x%016llx: the document path differs",
              (unsigned long long)cases[i].in);
    wire_ctx_free_bytes(ctx, o1);
    wire_ctx_free_bytes(ctx, o2);
  }
  wire_ctx_free(ctx);
}

/* Many patterns in lists of 2^20 through the direct codec: every pattern
 * with the NaN/infinity exponent and with the subnormal one (both signs),
 * and a stride over the rest; all 2^32 with WIRE_TEST_F32_ALL=1. */
Test(tape_f32, sweep, .timeout = 600) {
  enum { CHUNK = 1u << 20 };
  const char *all = getenv("WIRE_TEST_F32_ALL");
  int every = all && *all == '1';
  uint32_t *xs = malloc(sizeof(uint32_t) * CHUNK);
  wire_ctx *ctx = wire_ctx_new();
  wire_writer *tw = wire_writer_new(ctx, NULL, 0),
              *pw = wire_writer_new(ctx, NULL, 0);
  /* ranges: [start, start + count) stepped by step */
  struct { uint64_t start, count, step; } rs[] = {
    {0x7F800000, 1u << 23, 1}, {0xFF800000, 1u << 23, 1},
    {0x00000000, 1u << 23, 1}, {0x80000000, 1u << 23, 1},
    {0, (UINT64_C(1) << 32) / 4099, 4099},
  };
  size_t nr = sizeof rs / sizeof rs[0];
  if (every) {
    rs[0].start = 0;
    rs[0].count = UINT64_C(1) << 32;
    nr = 1;
  }
  for (size_t r = 0; r < nr; r++) {
    for (uint64_t done = 0; done < rs[r].count;) {
      uint32_t n = 0;
      while (n < CHUNK && done < rs[r].count)
        xs[n++] = (uint32_t)(rs[r].start + rs[r].step * done++);
      size_t len;
      uint8_t *p = list_payload(xs, n, &len);
      wire_writer_reset(tw);
      wire_writer_reset(pw);
      cr_assert_eq(wire_decode_tape_to(ctx, p, len, 0, tw), 0);
      cr_assert_eq(wire_encode_tape_to(ctx, wire_writer_data(tw),
                                       wire_writer_size(tw), pw), 0);
      cr_assert_eq(wire_writer_size(pw), len);
      const uint8_t *o = wire_writer_data(pw);
      if (memcmp(o, p, len) != 0) {
        size_t k = 0;
        while (o[k] == p[k]) k++;
        uint32_t x;
        memcpy(&x, p + (k - (len - 4 * (size_t)n)) / 4 * 4 +
                       (len - 4 * (size_t)n), 4);
        cr_assert_fail("0x%08x did not come back", x);
      }
      free(p);
    }
  }
  wire_writer_free(pw);
  wire_writer_free(tw);
  wire_ctx_free(ctx);
  free(xs);
}
