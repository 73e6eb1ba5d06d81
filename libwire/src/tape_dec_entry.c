/* tape_dec_entry.c - the entry points of the tape decoder (tape_dec.c)
 * that decode again: into a caller's buffer and its size when it is too
 * small, and the input offset of a value of the tape (spec/tape.md,
 * "Input offsets"). */
#include "tape.h"

/* After a caller's buffer filled up: decodes again into scratch for the
 * size the tape needs (*need; WIRE_E_BUFFER_FULL, the context's error), or
 * the payload's own error past the point where the buffer filled up. */
static int32_t size_needed(wire_ctx *ctx, const uint8_t *data, size_t len,
                           uint32_t flags, size_t *need) {
  wire_buf tmp = {ctx, NULL, 0, 0, false, WIRE_OK};
  int32_t st = wire__tape_decode_into(ctx, data, len, flags, &tmp, NULL);
  *need = tmp.len;
  wire__free(ctx, tmp.p, tmp.cap);
  if (st) return st;
  return wire__fail(ctx, WIRE_E_BUFFER_FULL, 0, "the tape needs %zu bytes",
                    *need);
}

int32_t wire_decode_tape_to(wire_ctx *ctx, const uint8_t *data, size_t len,
                            uint32_t flags, wire_writer *w) {
  if (!ctx || !w || (!data && len)) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  if (w->b.status != WIRE_OK)
    return wire__fail(ctx, w->b.status, 0, "the writer has failed before");
  size_t base = w->b.len, need;
  int32_t st = wire__tape_decode_into(ctx, data, len, flags, &w->b, NULL);
  if (st == WIRE_E_BUFFER_FULL) {
    st = size_needed(ctx, data, len, flags, &need);
    if (st == WIRE_E_BUFFER_FULL) w->needed = base + need;
    else w->b.status = WIRE_OK;
  }
  return st;
}

int32_t wire_decode_tape_into(wire_ctx *ctx, const uint8_t *data,
                              size_t len, uint32_t flags, uint8_t *buf,
                              size_t cap, size_t *tape_len) {
  if (!ctx || !tape_len || (!data && len) || (!buf && cap)) return WIRE_E_ARG;
  *tape_len = 0;
  wire_ctx_clear_error(ctx);
  wire_buf b = {ctx, buf, 0, cap, true, WIRE_OK};
  int32_t st = wire__tape_decode_into(ctx, data, len, flags, &b, NULL);
  if (st == WIRE_E_BUFFER_FULL) {
    size_t need;
    st = size_needed(ctx, data, len, flags, &need);
    if (st == WIRE_E_BUFFER_FULL) *tape_len = need;
    return st;
  }
  if (!st) *tape_len = b.len;
  return st;
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
