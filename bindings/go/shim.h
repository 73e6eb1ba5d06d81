/* shim.h - one cgo call per message on top of the direct tape codec of
 * wire.h (wire_encode_tape_to / wire_decode_tape_to, spec/tape.md): the
 * session keeps one writer per context, reset by every call, so no buffer
 * is allocated per message; the payload or read tape stays in it until the
 * next call, and the Go side reads it from there without a second call. */
#ifndef WIREGO_SHIM_H
#define WIREGO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

typedef struct wirego_sess {
  wire_ctx *ctx;
  wire_writer *w;     /* output of the last call (growable, reused) */
  const uint8_t *out; /* its bytes after a successful call */
  size_t out_len;
} wirego_sess;

wirego_sess *wirego_sess_new(void);
void wirego_sess_free(wirego_sess *s);
/* wire_encode_tape_to into the session's writer (s->out / s->out_len). */
int32_t wirego_encode(wirego_sess *s, const uint8_t *tape, size_t len);
/* wire_decode_tape_to with flags into the session's writer. */
int32_t wirego_decode(wirego_sess *s, const uint8_t *data, size_t len,
                      uint32_t flags);

#endif
