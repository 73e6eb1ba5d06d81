/* shim.h - one cgo call per message.
 *
 * Dynamic values go through the direct tape codec of wire.h
 * (wire_encode_tape_to / wire_decode_tape_to, spec/tape.md): the session
 * keeps one writer per context, reset by every call, so no buffer is
 * allocated per message; the payload or read tape stays in it until the
 * next call, and the Go side reads it from there without a second call.
 *
 * Registered structs go through the compiled codecs (wire_mem_*,
 * libwire/LAYOUTS.md): encoding reads an image the Go side built in C
 * memory; decoding copies the payload into C memory, decodes into an image
 * in the session's arena (strings point into that copy) and the Go side
 * builds its values from the image. No Go pointer is kept in C memory. */
#ifndef WIREGO_SHIM_H
#define WIREGO_SHIM_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

typedef struct wirego_sess {
  wire_ctx *ctx;
  wire_writer *w;     /* output of the last tape call (growable, reused) */
  const uint8_t *out; /* its bytes after a successful call (tape or mem) */
  size_t out_len;
  /* compiled-codec decoding */
  uint8_t *in;        /* copy of the payload being decoded */
  size_t in_cap;
  uint8_t *arena;     /* the root image at 0, then lists, structs, text */
  size_t arena_cap;
  size_t arena_used;
} wirego_sess;

/* A C address for empty strings and lists (never read). */
extern const uint8_t wirego_empty[8];

wirego_sess *wirego_sess_new(void);
void wirego_sess_free(wirego_sess *s);
/* wire_encode_tape_to into the session's writer (s->out / s->out_len). */
int32_t wirego_encode(wirego_sess *s, const uint8_t *tape, size_t len);
/* wire_encode_tape_to straight into the caller's buf[0..cap) (a writer
 * over it for the call; s->out_len = the payload's size, s->out NULL: buf
 * may be Go memory, which C must not keep a pointer to).
 * WIRE_E_BUFFER_FULL when the payload does not fit: buf[0..cap) may then
 * hold a part of it. */
int32_t wirego_encode_into(wirego_sess *s, const uint8_t *tape, size_t len,
                           uint8_t *buf, size_t cap);
/* wire_decode_tape_to with flags into the session's writer. */
int32_t wirego_decode(wirego_sess *s, const uint8_t *data, size_t len,
                      uint32_t flags);
/* wire_mem_encode of the image at img (s->out / s->out_len). The session
 * and the image (C memory) come as integers: cgo then checks no pointer
 * argument (the check costs about a tenth of a small message). */
int32_t wirego_mem_encode(uintptr_t sess, uint32_t layout, uintptr_t img);
/* wire_mem_decode of data[0..len) into the root image s->arena[0..
 * root_size) and the arena after it, grown and retried while the arena is
 * too small. */
int32_t wirego_mem_decode(uintptr_t sess, uint32_t layout, uint32_t root_size,
                          const uint8_t *data, size_t len);
/* wire_mem_decode of data[0..len) straight into out, with no arena and
 * no copy of the input: for a root image of numbers and bools alone
 * (nothing in it points into the input or an arena), which may be Go
 * memory without pointers (C keeps no pointer to data or out after the
 * call). WIRE_E_BUFFER_FULL when the decode needs an arena: then
 * wirego_mem_decode. */
int32_t wirego_mem_decode_direct(uintptr_t sess, uint32_t layout,
                                 const uint8_t *data, size_t len,
                                 uint8_t *out);
/* Gives back the decode buffers when one large message grew them beyond
 * 16 MiB (the Go side calls it after reading such an image). */
void wirego_mem_trim(wirego_sess *s);
#define WIREGO_KEEP_MAX ((size_t)16 << 20)
/* A block of C memory for the Go side's encode images (NULL if out of
 * memory); freed with wirego_free. */
void *wirego_alloc(size_t n);
void wirego_free(void *p);

#endif
