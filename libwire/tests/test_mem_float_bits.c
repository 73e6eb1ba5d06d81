/* test_mem_float_bits.c - the compiled codecs keep a float's bits when a
 * wire float32 is held in a C double member, or a wire float64 in a float
 * member (WIRE_MEM_F64 / WIRE_MEM_F32 across widths): the conversion is the
 * tape's (spec/tape.md, FLOAT32 NaNs), not the hardware's, which would set
 * a signaling NaN's quiet bit. Checked against a context whose members have
 * the wire's own widths (bytes copied as they are): the same payload both
 * ways, and the members read back with the bits the tape would carry. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire.h"
#include "mem_ctx.h"

#define N WIRE_MEM_NONE
#define O(t, f) (uint32_t) offsetof(t, f)

static const char fdl[] =
    "package fb;\n"
    "message R [id=431] { float32 a = 1; float64 b = 2; }\n";

typedef struct { double a; float b; } cross; /* widths crossed */
typedef struct { float a; double b; } same;  /* the wire's widths */

static const uint32_t pats[] = {
    0x7F800001, 0xFF800001, 0x7FA00000, 0x7FBFFFFF, 0xFFBFFFFF, 0x7F812345,
    0x7FC00000, 0xFFC00000, 0x7FC00001, 0xFFD23456, 0x7FFFFFFF,
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x3F800000, 0xFF7FFFFF,
    0x7F800000, 0xFF800000,
};
enum { NP = sizeof pats / sizeof pats[0] };

/* float32 bits x widened as the tape widens them (a NaN: sign, payload at
 * the top of the double's, quiet bit as it was), worked out here. */
static uint64_t widened(uint32_t x) {
  if ((x & 0x7FFFFFFFu) > 0x7F800000u)
    return (uint64_t)(x >> 31) << 63 | UINT64_C(0x7FF) << 52 |
           (uint64_t)(x & 0x7FFFFF) << 29;
  float f;
  memcpy(&f, &x, 4);
  double d = f; /* not a NaN: exact */
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

static wire_ctx *make(int crossed, int compatible, uint32_t *l) {
  wire_ctx *c = mem_ctx(fdl, "fb.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t t = mem_ctx_type(c, "fb.R");
  const uint32_t rc[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, t, sizeof(cross), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_F64, O(cross, a), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_F32, O(cross, b), N, N, N, 0},
  };
  const uint32_t rs[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, t, sizeof(same), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_F32, O(same, a), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_F64, O(same, b), N, N, N, 0},
  };
  *l = crossed ? MEM_CTX_TABLE(c, rc) : MEM_CTX_TABLE(c, rs);
  cr_assert_eq(wire_mem_bind(c, *l), WIRE_OK, "%s", wire_ctx_error_message(c));
  return c;
}

static uint8_t arena[4096];

Test(mem_float_bits, float32_in_double_and_float64_in_float) {
  for (int compatible = 0; compatible <= 1; compatible++) {
    uint32_t lc, ls;
    wire_ctx *cc = make(1, compatible, &lc), *cs = make(0, compatible, &ls);
    for (int i = 0; i < NP; i++) {
      uint32_t x = pats[i];
      uint64_t w = widened(x);
      cross in;
      same ref;
      memcpy(&in.a, &w, 8);
      memcpy(&in.b, &x, 4);
      memcpy(&ref.a, &x, 4);
      memcpy(&ref.b, &w, 8);
      const uint8_t *p;
      size_t n, rn;
      static uint8_t rb[256];
      cr_assert_eq(wire_mem_encode(cs, ls, &ref, &p, &rn), WIRE_OK);
      cr_assert_leq(rn, sizeof rb);
      memcpy(rb, p, rn);
      cr_assert_eq(wire_mem_encode(cc, lc, &in, &p, &n), WIRE_OK, "%s",
                   wire_ctx_error_message(cc));
      cr_assert(n == rn && !memcmp(p, rb, n),
                "0x%08x (compatible %d): the crossed members wrote other bytes",
                x, compatible);
      cross out;
      size_t used = 0;
      memset(&out, 0x5A, sizeof out);
      cr_assert_eq(wire_mem_decode(cc, lc, rb, rn, &out, arena, sizeof arena,
                                   &used, 0),
                   WIRE_OK, "%s", wire_ctx_error_message(cc));
      uint64_t ga;
      uint32_t gb;
      memcpy(&ga, &out.a, 8);
      memcpy(&gb, &out.b, 4);
      cr_assert_eq(ga, w, "0x%08x into a double: 0x%016llx", x,
                   (unsigned long long)ga);
      cr_assert_eq(gb, x, "0x%08x's double into a float: 0x%08x", x, gb);
    }
    /* a double NaN with no top 23 payload bit: the quiet NaN of its sign
     * in the float member; a signaling one keeps its top bits */
    static const struct { uint64_t in; uint32_t out; } nar[] = {
        {UINT64_C(0xFFF0000000000001), 0xFFC00000},
        {UINT64_C(0x7FF4000000000000), 0x7FA00000},
        {UINT64_C(0x3FF0000010000000), 0x3F800000}, /* a tie: even */
    };
    for (int i = 0; i < 3; i++) {
      same ref = {0};
      memcpy(&ref.b, &nar[i].in, 8);
      const uint8_t *p;
      size_t n;
      static uint8_t rb[256];
      cr_assert_eq(wire_mem_encode(cs, ls, &ref, &p, &n), WIRE_OK);
      memcpy(rb, p, n);
      cross out;
      size_t used = 0;
      cr_assert_eq(wire_mem_decode(cc, lc, rb, n, &out, arena, sizeof arena,
                                   &used, 0), WIRE_OK);
      uint32_t gb;
      memcpy(&gb, &out.b, 4);
      cr_assert_eq(gb, nar[i].out, "0x%016llx narrowed to 0x%08x",
                   (unsigned long long)nar[i].in, gb);
    }
    wire_ctx_free(cc);
    wire_ctx_free(cs);
  }
}

