/* tape_dec.c - bytes to tapes (placeholder: the document path). */
#include "tape.h"

int32_t wire_decode_tape(wire_ctx *ctx, const uint8_t *data, size_t len,
                         uint8_t **tape, size_t *tape_len) {
  return wire__tape_decode_doc(ctx, data, len, 0, tape, tape_len);
}

int32_t wire_decode_tape_to(wire_ctx *ctx, const uint8_t *data, size_t len,
                            uint32_t flags, wire_writer *w) {
  uint8_t *t;
  size_t tl;
  int32_t st = wire__tape_decode_doc(ctx, data, len, flags, &t, &tl);
  if (st) return st;
  wire__put_bytes(&w->b, t, tl);
  wire_ctx_free_bytes(ctx, t);
  return w->b.status;
}
