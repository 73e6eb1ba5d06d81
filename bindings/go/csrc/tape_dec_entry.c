/* tape_dec_entry.c - the tape decoder (tape_dec.c) run again, on cold
 * paths: for the size a tape needs when a caller's buffer was too small,
 * and for the input offset of a value of the tape (spec/tape.md, "Input
 * offsets"). */
#include "tape.h"

/* tape.h */
int32_t wire__tape_size_needed(wire_ctx *ctx, const uint8_t *data,
                               size_t len, uint32_t flags, size_t *need) {
  wire_buf tmp = {ctx, NULL, 0, 0, false, WIRE_OK};
  int32_t st = wire__tape_decode_into(ctx, data, len, flags, &tmp, NULL);
  *need = tmp.len;
  wire__free(ctx, tmp.p, tmp.cap);
  if (st) return st;
  return wire__fail(ctx, WIRE_E_BUFFER_FULL, 0, "the tape needs %zu bytes",
                    *need);
}

int32_t wire_decode_tape_offset(wire_ctx *ctx, const uint8_t *data,
                                size_t len, uint32_t flags, uint64_t k,
                                uint64_t *offset) {
  if (!ctx || !offset || (!data && len)) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_buf tmp = {ctx, NULL, 0, 0, false, WIRE_OK};
  uint64_t at = k;
  int32_t st = wire__tape_decode_into(ctx, data, len, flags, &tmp, &at);
  wire__free(ctx, tmp.p, tmp.cap);
  if (st) return st;
  if (at == UINT64_MAX)
    return wire__fail(ctx, WIRE_E_ARG, 0, "the tape has no value %llu",
                      (unsigned long long)k);
  *offset = at;
  return WIRE_OK;
}
