/* shim.h - one cgo call per message on top of the tape API of wire.h
 * (spec/tape.md): the encoded payload or read tape stays in the session
 * until the next call, so the Go side copies it out without a second call
 * to free it. */
#ifndef WIREGO_SHIM_H
#define WIREGO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

typedef struct wirego_sess {
  wire_ctx *ctx;
  uint8_t *out; /* last payload or read tape, allocated through ctx */
  size_t out_len;
} wirego_sess;

wirego_sess *wirego_sess_new(void);
void wirego_sess_free(wirego_sess *s);
/* wire_encode_tape into s->out / s->out_len. */
int32_t wirego_encode(wirego_sess *s, const uint8_t *tape, size_t len);
/* wire_decode_tape into s->out / s->out_len. */
int32_t wirego_decode(wirego_sess *s, const uint8_t *data, size_t len);

#endif
