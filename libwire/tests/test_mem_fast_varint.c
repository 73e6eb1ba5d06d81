/* test_mem_fast_varint.c - the compiled decoder's inline varint readers
 * (fast_u32, fast_u64; mem_dec.h) against the checked readers of
 * primitives.c on every short sequence of edge bytes, with every number of
 * bytes left: what an inline reader takes, the checked one takes with the
 * same value and end; fast_u32 takes whatever the checked reader takes,
 * fast_u64 whatever it takes with 9 bytes left or in one byte; neither
 * reads a byte past the end (the bytes after it are a varint's last byte,
 * so a reader that went on would take a value the checked one refuses). */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mem_dec.h"
#include "wire.h"

/* the edge bytes: 0, 1, a one-byte maximum, the continuation bit alone and
 * with bits, all ones, the fifth byte's largest and smallest too large */
static const uint8_t edges[] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF, 0x0F, 0x10};
#define NE (sizeof edges)

/* seq[0..len) at the end of a block of its own, followed by fill bytes
 * (0x05: a varint's last byte) that no reader may take. */
static uint8_t *place(uint8_t *block, const uint8_t *seq, size_t len) {
  memset(block, 0x05, 32);
  memcpy(block, seq, len);
  return block;
}

static void check32(wire_ctx *ctx, const uint8_t *seq, size_t len) {
  uint8_t block[32];
  const uint8_t *b = place(block, seq, len), *np = NULL;
  wire_in in = {ctx, b, b, b + len};
  uint32_t v1 = 0xDEADBEEF, v2 = 0;
  bool ok1 = fast_u32(b, b + len, &v1, &np);
  bool ok2 = wire__get_varu32(&in, &v2);
  cr_assert_eq(ok1, ok2, "fast_u32 %d, checked %d (%zu bytes left, first "
               "%02x %02x)", ok1, ok2, len, len ? b[0] : 0, len > 1 ? b[1] : 0);
  if (ok1) {
    cr_assert_eq(v1, v2, "%zu bytes left: %u against %u", len, v1, v2);
    cr_assert_eq(np, in.p, "%zu bytes left: ends %td against %td", len,
                 np - b, in.p - b);
  }
}

static void check64(wire_ctx *ctx, const uint8_t *seq, size_t len) {
  uint8_t block[32];
  const uint8_t *b = place(block, seq, len), *np = NULL;
  wire_in in = {ctx, b, b, b + len};
  uint64_t v1 = 0xDEADBEEF, v2 = 0;
  bool ok1 = fast_u64(b, b + len, &v1, &np);
  bool ok2 = wire__get_varu64(&in, &v2);
  if (ok1) {
    cr_assert(ok2, "fast_u64 took what the checked reader refuses (%zu "
              "bytes left, first %02x)", len, b[0]);
    cr_assert_eq(v1, v2, "%zu bytes left: %llu against %llu", len,
                 (unsigned long long)v1, (unsigned long long)v2);
    cr_assert_eq(np, in.p, "%zu bytes left", len);
  } else if (ok2) {
    cr_assert(len < 9 && in.p - b > 1, "fast_u64 refused a usual value "
              "(%zu bytes left, %td long)", len, in.p - b);
  }
}

/* check(ctx, seq, n) on every sequence of n edge bytes, n <= 6 (as many
 * bytes left as the sequence has) */
static void each_short(wire_ctx *ctx,
                       void (*check)(wire_ctx *, const uint8_t *, size_t)) {
  uint8_t seq[8];
  for (size_t n = 0; n <= 6; n++) {
    size_t total = 1;
    for (size_t k = 0; k < n; k++) total *= NE;
    for (size_t i = 0; i < total; i++) {
      size_t r = i;
      for (size_t k = 0; k < n; k++, r /= NE) seq[k] = edges[r % NE];
      check(ctx, seq, n);
    }
  }
}

Test(mem_fast_varint, u32_every_short_sequence) {
  wire_ctx *ctx = wire_ctx_new();
  each_short(ctx, check32);
  wire_ctx_free(ctx);
}

/* every sequence of up to 6 edge bytes, then sequences of 7-10 bytes whose
 * first bytes all carry the continuation bit (the long forms) */
Test(mem_fast_varint, u64_every_short_and_long_sequence) {
  wire_ctx *ctx = wire_ctx_new();
  uint8_t seq[12];
  each_short(ctx, check64);
  static const uint8_t cont[] = {0x80, 0x81, 0xFF}, last[] = {0x00, 0x01,
                                                             0x7F, 0x80, 0xFF};
  for (size_t n = 7; n <= 10; n++) {
    /* n - 2 continuation bytes (3 kinds), then two of any edge byte */
    size_t total = 1;
    for (size_t k = 0; k + 2 < n; k++) total *= 3;
    for (size_t i = 0; i < total; i++) {
      size_t r = i;
      for (size_t k = 0; k + 2 < n; k++, r /= 3) seq[k] = cont[r % 3];
      for (size_t a = 0; a < sizeof last; a++)
        for (size_t z = 0; z < NE; z++) {
          seq[n - 2] = last[a];
          seq[n - 1] = edges[z];
          check64(ctx, seq, n);
          check64(ctx, seq, n - 1);
        }
    }
  }
  wire_ctx_free(ctx);
}

/* the struct loop's usual case: a one-byte value with one byte left, and
 * none with nothing left (the fill after the end not taken) */
Test(mem_fast_varint, one_byte_left) {
  uint8_t b[2] = {0x2A, 0x05};
  const uint8_t *np = NULL;
  uint32_t v = 0;
  uint64_t w = 0;
  cr_assert(fast_u32(b, b + 1, &v, &np) && v == 0x2A && np == b + 1);
  cr_assert(fast_u64(b, b + 1, &w, &np) && w == 0x2A && np == b + 1);
  cr_assert_not(fast_u32(b + 1, b + 1, &v, &np));
  cr_assert_not(fast_u64(b + 1, b + 1, &w, &np));
}
