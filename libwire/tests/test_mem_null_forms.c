/* test_mem_null_forms.c - a field sent as null cleared by the compiled
 * decoder (mem_dec_typedef.c, zero_at: one store of the form's own size
 * a form): every byte of its storage, of its length word (4 bytes, or 8
 * with WIRE_MEM_LEN64) and its presence flag reads 0, and not one byte
 * past them is touched. The image is filled with 0xA5 first; right after
 * each cleared place lies a guard byte, a field of its own that the
 * decoder reads before the nullable ones (non-nullable primitives come
 * first in the field order), so a clear too wide shows as a guard of 0. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"

static const char fdl[] =
    "package nf;\n"
    "message G [id=441] {\n"
    "  int8 ga = 1; int8 gb = 2; int8 gc = 3; int8 gd = 4; int8 ge = 5;\n"
    "  int8 gf = 6; int8 gg = 7; int8 gs = 8; int8 gt = 9; int8 gdt = 10;\n"
    "  int8 gts = 11; int8 gdc = 12;\n"
    "  optional int8 a = 13; optional int16 b = 14; optional int32 c = 15;\n"
    "  optional int64 d = 16; optional float32 e = 17;\n"
    "  optional float64 f = 18; optional bool g = 19;\n"
    "  optional string s = 20; optional string t = 21;\n"
    "  optional date dt = 22; optional timestamp ts = 23;\n"
    "  optional decimal dc = 24;\n"
    "}\n";

#define SIZE 168
#define NG 12
/* the guards' offsets, in the order of their fields */
static const uint32_t guard[NG] = {1, 6, 12, 24, 32, 48, 51, 68, 88, 104, 128,
                                   160};
/* the nullable fields: form, offset, bytes of storage, length word offset
 * and bytes (0: none), presence flag (N: a pointer's NULL) */
static const struct {
  uint32_t form, off, n, aux, auxn, present;
} nf[] = {
    {WIRE_MEM_I8, 0, 1, N, 0, 2},
    {WIRE_MEM_I16, 4, 2, N, 0, 7},
    {WIRE_MEM_I32, 8, 4, N, 0, 13},
    {WIRE_MEM_I64, 16, 8, N, 0, 25},
    {WIRE_MEM_F32, 28, 4, N, 0, 33},
    {WIRE_MEM_F64, 40, 8, N, 0, 49},
    {WIRE_MEM_BOOL, 50, 1, N, 0, 52},
    {WIRE_MEM_STR, 56, 8, 64, 4, N},
    {WIRE_MEM_STR | WIRE_MEM_LEN64, 72, 8, 80, 8, N},
    {WIRE_MEM_DATE, 96, 8, N, 0, 105},
    {WIRE_MEM_TIMESTAMP, 112, 16, N, 0, 129},
    {WIRE_MEM_DECIMAL, 136, 24, N, 0, 161},
};
#define NN (sizeof nf / sizeof nf[0])

static uint32_t make(wire_ctx *c) {
  uint32_t lt;
  cr_assert_eq(wire_mem_layout_new(c, mem_ctx_type(c, "nf.G"), SIZE, &lt),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  for (uint32_t i = 0; i < NG; i++)
    cr_assert_eq(wire_mem_layout_field(c, lt, i, WIRE_MEM_I8, guard[i], N, N,
                                       N),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
  for (uint32_t i = 0; i < NN; i++)
    cr_assert_eq(wire_mem_layout_field(c, lt, NG + i, nf[i].form, nf[i].off,
                                       nf[i].aux, nf[i].present, N),
                 WIRE_OK, "field %u: %s", i, wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, lt), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  return lt;
}

Test(mem_null_forms, cleared_at_their_own_width) {
  for (int compat = 0; compat < 2; compat++) {
    wire_ctx *c = mem_ctx(fdl, "nf.fdl",
                          MEM_OPTS(WIRE_OPT_COMPATIBLE, compat));
    uint32_t lt = make(c);
    uint8_t img[SIZE];
    memset(img, 0, sizeof img); /* every optional absent: null */
    for (uint32_t i = 0; i < NG; i++) img[guard[i]] = (uint8_t)(0x10 + i);
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, lt, img, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    uint8_t buf[512];
    cr_assert_leq(n, sizeof buf);
    memcpy(buf, p, n);
    uint8_t out[SIZE], arena[256];
    memset(out, 0xA5, sizeof out);
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, lt, buf, n, out, arena, sizeof arena,
                                 &used, 0),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    for (uint32_t i = 0; i < NG; i++)
      cr_assert_eq(out[guard[i]], 0x10 + i, "guard %u (compatible %d)", i,
                   compat);
    for (uint32_t i = 0; i < NN; i++) {
      for (uint32_t k = 0; k < nf[i].n; k++)
        cr_assert_eq(out[nf[i].off + k], 0, "field %u byte %u (compatible %d)",
                     i, k, compat);
      for (uint32_t k = 0; k < nf[i].auxn; k++)
        cr_assert_eq(out[nf[i].aux + k], 0,
                     "field %u length byte %u (compatible %d)", i, k, compat);
      if (nf[i].present != N)
        cr_assert_eq(out[nf[i].present], 0, "field %u presence (compatible %d)",
                     i, compat);
    }
    wire_ctx_free(c);
  }
}
