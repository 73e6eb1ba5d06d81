/* test_tape_offset.c - wire_decode_tape_offset (spec/tape.md, "Input
 * offsets"): the input offset of value k of a read tape, values numbered
 * in tape order (a PACKED list, then its elements), with every tape flag
 * set and none; a number past the tape's values, and the node limit. */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "wire.h"

#define ALL_FLAGS                                                          \
  (WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS | WIRE_TAPE_STRING_SPANS |      \
   WIRE_TAPE_ENTRY_RUNS)

/* Checks the offsets of values 0 .. n-1 of payload p, and that value n
 * is not there, with flags 0 and all flags. */
static void check(const uint8_t *p, size_t len, const uint64_t *want,
                  uint64_t n) {
  wire_ctx *ctx = wire_ctx_new();
  for (int f = 0; f < 2; f++) {
    uint32_t flags = f ? ALL_FLAGS : 0;
    for (uint64_t k = 0; k <= n; k++) {
      uint64_t off = 999;
      int32_t st = wire_decode_tape_offset(ctx, p, len, flags, k, &off);
      if (k == n) {
        cr_expect_eq(st, WIRE_E_ARG, "value %llu of %llu",
                     (unsigned long long)k, (unsigned long long)n);
        continue;
      }
      cr_expect_eq(st, WIRE_OK, "value %llu: status %d", (unsigned long long)k,
                   st);
      cr_expect_eq(off, want[k], "value %llu (flags %u): offset %llu, want %llu",
                   (unsigned long long)k, flags, (unsigned long long)off,
                   (unsigned long long)want[k]);
    }
  }
  wire_ctx_free(ctx);
}

Test(tape_offset, mixed_list) {
  /* [int32 1, "x", int32 300]: a list of elements with their type meta */
  static const uint8_t p[] = {0x01, 0xff, 0x16, 0x03, 0x00, 0x05, 0x02,
                              0x15, 0x04, 0x78, 0x05, 0xd8, 0x04};
  static const uint64_t want[] = {3, 6, 8, 11};
  check(p, sizeof p, want, 4);
}

/* [1, 2, 300, 4] of int32 (one element type: PACKED in the tape) */
static const uint8_t packed[] = {0x01, 0xff, 0x16, 0x04, 0x08, 0x05,
                                 0x02, 0x04, 0xd8, 0x04, 0x08};

Test(tape_offset, packed_list) {
  static const uint64_t want[] = {3, 6, 7, 8, 10};
  check(packed, sizeof packed, want, 5);
}

Test(tape_offset, null_and_nested) {
  /* [null, [int64 5]]: a null by its flag, a list in a list */
  static const uint8_t p[] = {0x01, 0xff, 0x16, 0x02, 0x0a, 0x16,
                              0xfd, 0xff, 0x01, 0x08, 0x07, 0x0a};
  static const uint64_t want[] = {3, 6, 8, 11};
  check(p, sizeof p, want, 4);
}

Test(tape_offset, limits_and_errors) {
  const uint8_t *p = packed;
  wire_ctx *ctx = wire_ctx_new();
  uint64_t off = 0;
  /* the node limit holds as for wire_decode_tape_to */
  cr_assert_eq(wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 3), WIRE_OK);
  cr_expect_eq(wire_decode_tape_offset(ctx, p, sizeof packed, 0, 1, &off),
               WIRE_E_LIMIT);
  cr_assert_eq(wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 5), WIRE_OK);
  cr_expect_eq(wire_decode_tape_offset(ctx, p, sizeof packed, 0, 4, &off), WIRE_OK);
  cr_expect_eq(off, 10);
  /* a payload's own error; bad arguments */
  cr_expect_eq(wire_decode_tape_offset(ctx, p, sizeof packed - 1, 0, 0, &off),
               WIRE_E_TRUNCATED);
  cr_expect_eq(wire_decode_tape_offset(ctx, p, sizeof packed, 0, 0, NULL),
               WIRE_E_ARG);
  cr_expect_eq(wire_decode_tape_offset(ctx, p, sizeof packed, 0x100, 0, &off),
               WIRE_E_ARG);
  wire_ctx_free(ctx);
}
