/* shim.c - see shim.h. */
#include "shim.h"

#include <stdlib.h>

wirego_sess *wirego_sess_new(void) {
  wirego_sess *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->ctx = wire_ctx_new();
  if (!s->ctx) {
    free(s);
    return NULL;
  }
  return s;
}

static void drop(wirego_sess *s) {
  if (s->out) wire_ctx_free_bytes(s->ctx, s->out);
  s->out = NULL;
  s->out_len = 0;
}

void wirego_sess_free(wirego_sess *s) {
  if (!s) return;
  drop(s);
  wire_ctx_free(s->ctx);
  free(s);
}

int32_t wirego_encode(wirego_sess *s, const uint8_t *tape, size_t len) {
  drop(s);
  wire_ctx_clear_error(s->ctx);
  return wire_encode_tape(s->ctx, tape, len, &s->out, &s->out_len);
}

int32_t wirego_decode(wirego_sess *s, const uint8_t *data, size_t len) {
  drop(s);
  wire_ctx_clear_error(s->ctx);
  return wire_decode_tape(s->ctx, data, len, &s->out, &s->out_len);
}
