/* tape_dec_entry.c - the entry points of the tape decoder (tape_dec.c)
 * that no binding calls per message: the tape in memory of its own
 * (wire_decode_tape), the size a tape needs when a caller's buffer was too
 * small, the input offset of a value of the tape (spec/tape.md, "Input
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

int32_t wire_decode_tape(wire_ctx *ctx, const uint8_t *data, size_t len,
                         uint8_t **tape, size_t *tape_len) {
  if (!ctx || !tape || !tape_len || (!data && len)) return WIRE_E_ARG;
  *tape = NULL;
  *tape_len = 0;
  wire_ctx_clear_error(ctx);
  wire_buf *out = wire__tape_dec_out(ctx);
  if (!out) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  wire_buf b = *out; /* reused between calls */
  memset(out, 0, sizeof *out);
  b.ctx = ctx;
  b.len = 0;
  b.status = WIRE_OK;
  int32_t st = wire__tape_decode_into(ctx, data, len, 0, &b, NULL);
  uint8_t *res = NULL;
  if (!st && !(res = wire__bytes_alloc(ctx, b.len)))
    st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  if (res) {
    memcpy(res, b.p, b.len);
    *tape = res;
    *tape_len = b.len;
  }
  if (b.cap > ((size_t)16 << 20)) {
    wire__free(ctx, b.p, b.cap);
    memset(&b, 0, sizeof b);
  }
  b.ctx = ctx;
  b.len = 0;
  b.status = WIRE_OK;
  *out = b;
  return st;
}
