/* shim.c - see shim.h. */
#include "shim.h"

#include <stdlib.h>

wirego_sess *wirego_sess_new(void) {
  wirego_sess *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->ctx = wire_ctx_new();
  if (s->ctx) s->w = wire_writer_new(s->ctx, NULL, 0);
  if (!s->ctx || !s->w) {
    wire_ctx_free(s->ctx);
    free(s);
    return NULL;
  }
  return s;
}

void wirego_sess_free(wirego_sess *s) {
  if (!s) return;
  wire_writer_free(s->w);
  wire_ctx_free(s->ctx);
  free(s);
}

static int32_t done(wirego_sess *s, int32_t st) {
  s->out = st == 0 ? wire_writer_data(s->w) : NULL;
  s->out_len = st == 0 ? wire_writer_size(s->w) : 0;
  return st;
}

int32_t wirego_encode(wirego_sess *s, const uint8_t *tape, size_t len) {
  wire_writer_reset(s->w);
  wire_ctx_clear_error(s->ctx);
  return done(s, wire_encode_tape_to(s->ctx, tape, len, s->w));
}

int32_t wirego_decode(wirego_sess *s, const uint8_t *data, size_t len,
                      uint32_t flags) {
  wire_writer_reset(s->w);
  wire_ctx_clear_error(s->ctx);
  return done(s, wire_decode_tape_to(s->ctx, data, len, flags, s->w));
}
