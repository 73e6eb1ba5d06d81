/* test_tape_f16.c - float16 and bfloat16 values keep their bits through
 * tapes, documents and the conversion functions (spec/tape.md, FLOAT16 and
 * BFLOAT16 NaNs): every one of the 65,536 patterns of each type, read into
 * a tape and written back, through the direct codec and the document path,
 * as a root and in a list, and through wire_node_float / wire_node_new_float
 * and the public conversions. The f64 a tape carries is the value widened,
 * a NaN with its sign, its quiet bit and its payload as the top bits of the
 * double's; a double NaN narrows to its top payload bits, or to the quiet
 * NaN when those are all zero. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "tape.h"
#include "tape_rt.h"

enum { NPAT = 1 << 16 };

static uint64_t dbits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

/* The f64 bits a tape carries for 16-bit pattern h of type t, worked out
 * here from the definitions: sign, exponent and significand read apart,
 * a finite value put together with ldexp, a NaN's payload moved to the top
 * of the double's 52 bits. */
static uint64_t oracle(uint32_t t, uint16_t h) {
  int mbits = t == WIRE_T_FLOAT16 ? 10 : 7;
  int ebits = 15 - mbits, bias = (1 << (ebits - 1)) - 1;
  uint64_t sign = (uint64_t)(h >> 15) << 63;
  int e = h >> mbits & ((1 << ebits) - 1);
  uint64_t m = h & ((1u << mbits) - 1);
  if (e == (1 << ebits) - 1)
    return sign | UINT64_C(0x7FF) << 52 | m << (52 - mbits);
  double mag = e ? ldexp((double)(m + (UINT64_C(1) << mbits)), e - bias - mbits)
                 : ldexp((double)m, 1 - bias - mbits);
  return sign | dbits(mag);
}

static bool is_nan16(uint32_t t, uint16_t h) {
  return t == WIRE_T_FLOAT16 ? (h & 0x7FFF) > 0x7C00 : (h & 0x7FFF) > 0x7F80;
}

static const uint32_t types[] = {WIRE_T_FLOAT16, WIRE_T_BFLOAT16};

/* Each pattern as a root: the tape's f64 is the oracle's, and both paths
 * give the payload back. */
Test(tape_f16, every_root_pattern) {
  wire_ctx *ctx = wire_ctx_new();
  for (size_t k = 0; k < 2; k++) {
    for (uint32_t h = 0; h < NPAT; h++) {
      uint8_t p[5] = {0x01, 0xFF, (uint8_t)types[k], (uint8_t)h,
                      (uint8_t)(h >> 8)};
      char what[40];
      snprintf(what, sizeof what, "%s root 0x%04x",
               wire_type_name(types[k]), h);
      uint8_t *t;
      size_t tl;
      round_trip(ctx, p, sizeof p, what, &t, &tl);
      cr_assert_eq(tl, 8 + 1 + 8, "%s: tape length", what);
      cr_assert_eq(t[8], types[k], "%s: op", what);
      uint64_t u;
      memcpy(&u, t + 9, 8);
      cr_assert_eq(u, oracle(types[k], (uint16_t)h), "%s: tape f64 0x%016llx",
                   what, (unsigned long long)u);
      wire_ctx_free_bytes(ctx, t);
    }
  }
  wire_ctx_free(ctx);
}

/* All patterns in one list (the tape's PACKED run) and in one dense array
 * (raw bytes), and a map whose values are the NaNs of the type. */
Test(tape_f16, every_pattern_in_a_list_an_array_and_a_map) {
  wire_ctx *ctx = wire_ctx_new();
  for (size_t k = 0; k < 2; k++) {
    uint32_t t = types[k];
    size_t n = 0;
    uint8_t *p = malloc(16 + 2 * (size_t)NPAT);
    p[n++] = 0x01;
    p[n++] = 0xFF;
    p[n++] = WIRE_T_LIST;
    p[n++] = 0x80; /* 65,536 as a varuint32 */
    p[n++] = 0x80;
    p[n++] = 0x04;
    p[n++] = 0x08; /* same declared type, no nulls */
    p[n++] = (uint8_t)t;
    for (uint32_t h = 0; h < NPAT; h++) {
      p[n++] = (uint8_t)h;
      p[n++] = (uint8_t)(h >> 8);
    }
    uint8_t *tape;
    size_t tl;
    round_trip(ctx, p, n, wire_type_name(t), &tape, &tl);
    /* "WT" v f u32 roots, PACKED u8 kind u8 type u32 count, f64s */
    cr_assert_eq(tl, 8 + 7 + 8 * (size_t)NPAT, "packed tape length");
    cr_assert_eq(tape[8], WIRE_TAPE_PACKED);
    for (uint32_t h = 0; h < NPAT; h++) {
      uint64_t u;
      memcpy(&u, tape + 15 + 8 * (size_t)h, 8);
      cr_assert_eq(u, oracle(t, (uint16_t)h), "%s 0x%04x in a list: 0x%016llx",
                   wire_type_name(t), h, (unsigned long long)u);
    }
    wire_ctx_free_bytes(ctx, tape);

    /* the same bytes as a dense array */
    uint8_t *a = malloc(8 + 2 * (size_t)NPAT);
    size_t an = 0;
    a[an++] = 0x01;
    a[an++] = 0xFF;
    a[an++] = (uint8_t)(t == WIRE_T_FLOAT16 ? WIRE_T_FLOAT16_ARRAY
                                             : WIRE_T_BFLOAT16_ARRAY);
    a[an++] = 0x80; /* 131,072 bytes */
    a[an++] = 0x80;
    a[an++] = 0x08;
    memcpy(a + an, p + 8, 2 * (size_t)NPAT);
    an += 2 * (size_t)NPAT;
    round_trip(ctx, a, an, "array", &tape, &tl);
    wire_ctx_free_bytes(ctx, tape);
    free(a);
    free(p);

    /* map<string, t> of the type's NaNs, built with the document API */
    wire_doc *d = wire_doc_new(ctx);
    wire_node *m = wire_node_new_map(d);
    for (uint32_t h = 0; h < NPAT; h++) {
      if (!is_nan16(t, (uint16_t)h) || (h & 0x3F) != 0x21) continue;
      char key[16];
      int kl = snprintf(key, sizeof key, "k%u", h);
      wire_node *kn = wire_node_new_string(d, (const uint8_t *)key, (size_t)kl, -1);
      cr_assert_eq(wire_map_put(d, m, kn, wire_node_new_float_bits(d, t, h)), 0);
    }
    cr_assert_eq(wire_doc_add_root(d, m), 0);
    uint8_t *mp;
    size_t ml;
    cr_assert_eq(wire_encode(ctx, d, &mp, &ml), 0);
    round_trip(ctx, mp, ml, "map", &tape, &tl);
    wire_ctx_free_bytes(ctx, tape);
    wire_ctx_free_bytes(ctx, mp);
    wire_doc_free(d);
  }
  wire_ctx_free(ctx);
}

/* The node API: wire_node_float widens as the tape does, and
 * wire_node_new_float narrows it back to the same bits. */
Test(tape_f16, node_float_every_pattern) {
  wire_ctx *ctx = wire_ctx_new();
  wire_doc *d = wire_doc_new(ctx);
  for (size_t k = 0; k < 2; k++) {
    for (uint32_t h = 0; h < NPAT; h++) {
      wire_node *a = wire_node_new_float_bits(d, types[k], h);
      double x = wire_node_float(a);
      cr_assert_eq(dbits(x), oracle(types[k], (uint16_t)h),
                   "%s 0x%04x widened to 0x%016llx", wire_type_name(types[k]),
                   h, (unsigned long long)dbits(x));
      wire_node *b = wire_node_new_float(d, types[k], x);
      cr_assert_eq(wire_node_float_bits(b), h, "%s 0x%04x came back as 0x%04llx",
                   wire_type_name(types[k]), h,
                   (unsigned long long)wire_node_float_bits(b));
    }
  }
  wire_doc_free(d);
  wire_ctx_free(ctx);
}

/* The public conversions keep every pattern too, through double and
 * through float (a float keeps a NaN's payload as its top bits). */
Test(tape_f16, public_conversions_every_pattern) {
  for (uint32_t h = 0; h < NPAT; h++) {
    uint16_t x = (uint16_t)h;
    cr_assert_eq(dbits(wire_float16_to_double(x)), oracle(WIRE_T_FLOAT16, x),
                 "float16 0x%04x to double", h);
    cr_assert_eq(wire_float16_from_double(wire_float16_to_double(x)), x,
                 "float16 0x%04x through double", h);
    float f = wire_float16_to_float(x);
    uint32_t fb;
    memcpy(&fb, &f, 4);
    uint64_t o = oracle(WIRE_T_FLOAT16, x);
    if (is_nan16(WIRE_T_FLOAT16, x))
      cr_assert_eq(fb, (uint32_t)(o >> 63) << 31 | 0x7F800000u |
                           (uint32_t)(o >> 29 & 0x7FFFFF),
                   "float16 0x%04x to float: 0x%08x", h, fb);
    cr_assert_eq(wire_float16_from_float(f), x, "float16 0x%04x through float", h);
    float g = wire_bfloat16_to_float(x);
    memcpy(&fb, &g, 4);
    cr_assert_eq(fb, h << 16, "bfloat16 0x%04x to float", h);
    cr_assert_eq(wire_bfloat16_from_float(g), x, "bfloat16 0x%04x through float", h);
    uint64_t w = oracle(WIRE_T_BFLOAT16, x);
    double wd;
    memcpy(&wd, &w, 8);
    cr_assert_eq(wire_bfloat16_from_double(wd), x, "bfloat16 0x%04x through double", h);
  }
}

/* Doubles that are no widened 16-bit value: a NaN keeps its top payload
 * bits and its quiet bit; with none of them set it becomes the quiet NaN of
 * its sign; numbers round to nearest even. Through the tape (both encoders)
 * and wire_node_new_float. */
Test(tape_f16, doubles_narrow) {
  static const struct { uint32_t t; uint64_t in; uint16_t out; } cases[] = {
    {WIRE_T_FLOAT16, UINT64_C(0x7FF0000000000001), 0x7E00}, /* low payload */
    {WIRE_T_FLOAT16, UINT64_C(0xFFF003FFFFFFFFFF), 0xFE00},
    {WIRE_T_FLOAT16, UINT64_C(0x7FF8000000000001), 0x7E00},
    {WIRE_T_FLOAT16, UINT64_C(0x7FF0040000000000), 0x7C01}, /* signaling */
    {WIRE_T_FLOAT16, UINT64_C(0xFFF4000000000000), 0xFD00},
    {WIRE_T_FLOAT16, UINT64_C(0xFFFFFFFFFFFFFFFF), 0xFFFF},
    {WIRE_T_FLOAT16, UINT64_C(0x3FF0020000000000), 0x3C00}, /* tie: even */
    {WIRE_T_FLOAT16, UINT64_C(0x3FF0060000000000), 0x3C02}, /* tie: up */
    {WIRE_T_FLOAT16, UINT64_C(0x40F0000000000000), 0x7C00}, /* 65536: inf */
    {WIRE_T_BFLOAT16, UINT64_C(0x7FF0000000000001), 0x7FC0},
    {WIRE_T_BFLOAT16, UINT64_C(0xFFF01FFFFFFFFFFF), 0xFFC0},
    {WIRE_T_BFLOAT16, UINT64_C(0x7FF0200000000000), 0x7F81}, /* signaling */
    {WIRE_T_BFLOAT16, UINT64_C(0xFFF4000000000000), 0xFFA0},
    {WIRE_T_BFLOAT16, UINT64_C(0x7FFFFFFFFFFFFFFF), 0x7FFF},
    {WIRE_T_BFLOAT16, UINT64_C(0x3FF0100000000000), 0x3F80}, /* tie: even */
    {WIRE_T_BFLOAT16, UINT64_C(0x3FF0300000000000), 0x3F82}, /* tie: up */
  };
  wire_ctx *ctx = wire_ctx_new();
  wire_doc *d = wire_doc_new(ctx);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint8_t t[17] = {'W', 'T', 1, 0, 1, 0, 0, 0, (uint8_t)cases[i].t};
    memcpy(t + 9, &cases[i].in, 8);
    uint8_t *o1, *o2;
    size_t n1, n2;
    cr_assert_eq(wire_encode_tape(ctx, t, sizeof t, &o1, &n1), 0);
    cr_assert_eq(wire__tape_encode_doc(ctx, t, sizeof t, &o2, &n2), 0);
    cr_assert_eq(n1, 5);
    uint16_t x = (uint16_t)(o1[3] | o1[4] << 8);
    cr_assert_eq(x, cases[i].out, "%s 0x%016llx narrowed to 0x%04x",
                 wire_type_name(cases[i].t), (unsigned long long)cases[i].in, x);
    cr_assert(n2 == n1 && memcmp(o1, o2, n1) == 0,
              "0x%016llx: the document path differs",
              (unsigned long long)cases[i].in);
    double v;
    memcpy(&v, &cases[i].in, 8);
    cr_assert_eq(wire_node_float_bits(wire_node_new_float(d, cases[i].t, v)),
                 cases[i].out, "wire_node_new_float 0x%016llx",
                 (unsigned long long)cases[i].in);
    wire_ctx_free_bytes(ctx, o1);
    wire_ctx_free_bytes(ctx, o2);
  }
  wire_doc_free(d);
  wire_ctx_free(ctx);
}
