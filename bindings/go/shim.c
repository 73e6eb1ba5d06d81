/* shim.c - see shim.h. */
#include "shim.h"

#include <stdlib.h>
#include <string.h>

const uint8_t wirego_empty[8];

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
  free(s->in);
  free(s->arena);
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

int32_t wirego_encode_into(wirego_sess *s, const uint8_t *tape, size_t len,
                           uint8_t *buf, size_t cap) {
  s->out = NULL;
  s->out_len = 0;
  wire_writer *w = wire_writer_new(s->ctx, buf, cap);
  if (!w) return WIRE_E_NOMEM;
  wire_ctx_clear_error(s->ctx);
  int32_t st = wire_encode_tape_to(s->ctx, tape, len, w);
  /* s->out stays NULL: buf is Go memory, which C keeps no pointer to */
  if (st == 0) s->out_len = wire_writer_size(w);
  wire_writer_free(w);
  return st;
}

int32_t wirego_decode(wirego_sess *s, const uint8_t *data, size_t len,
                      uint32_t flags) {
  wire_writer_reset(s->w);
  wire_ctx_clear_error(s->ctx);
  return done(s, wire_decode_tape_to(s->ctx, data, len, flags, s->w));
}

int32_t wirego_mem_encode(uintptr_t sess, uint32_t layout, uintptr_t img) {
  wirego_sess *s = (wirego_sess *)sess;
  s->out = NULL;
  s->out_len = 0;
  return wire_mem_encode(s->ctx, layout, (const void *)img, &s->out,
                         &s->out_len);
}

/* Buffers above this size are given back after the call. */
#define KEEP_MAX WIREGO_KEEP_MAX

int32_t wirego_mem_decode(uintptr_t sess, uint32_t layout, uint32_t root_size,
                          const uint8_t *data, size_t len) {
  wirego_sess *s = (wirego_sess *)sess;
  if (len > s->in_cap) {
    size_t cap = len < 4096 ? 4096 : len;
    uint8_t *p = malloc(cap);
    if (!p) return WIRE_E_NOMEM;
    free(s->in);
    s->in = p;
    s->in_cap = cap;
  }
  if (len) memcpy(s->in, data, len);
  size_t root = ((size_t)root_size + 15) & ~(size_t)15;
  /* a first guess; most messages need less than their own size again */
  size_t want = root + 2 * len + 1024;
  int32_t st;
  for (;;) {
    if (s->arena_cap < want) {
      /* the arena C may take for this input (WIRE_LIMIT_MEM_DECODE):
       * grown up to that, no further (asked only when growing) */
      uint64_t per = wire_ctx_get_limit(s->ctx, WIRE_LIMIT_MEM_DECODE);
      size_t most = SIZE_MAX;
      if (len <= (SIZE_MAX - WIRE_MEM_DECODE_BASE - root) / (per ? per : 1))
        most = root + WIRE_MEM_DECODE_BASE + (size_t)per * len;
      size_t cap = s->arena_cap ? s->arena_cap : 4096;
      while (cap < want && cap < most) cap = cap > most / 2 ? most : cap * 2;
      if (cap < want) cap = want; /* (the first guess past `most`) */
      uint8_t *p = malloc(cap);
      if (!p) return WIRE_E_NOMEM;
      free(s->arena);
      s->arena = p;
      s->arena_cap = cap;
    }
    size_t used = root;
    st = wire_mem_decode(s->ctx, layout, s->in, len, s->arena, s->arena,
                         s->arena_cap, &used, 0);
    /* too small: `used` is at least the size needed, which C keeps
     * within `most` (WIRE_E_LIMIT past it), so growing ends */
    if (st == WIRE_E_BUFFER_FULL && used > s->arena_cap) {
      want = used;
      continue;
    }
    s->arena_used = st == 0 ? used : root;
    return st;
  }
}

int32_t wirego_mem_decode_direct(uintptr_t sess, uint32_t layout,
                                 const uint8_t *data, size_t len,
                                 uint8_t *out) {
  wirego_sess *s = (wirego_sess *)sess;
  return wire_mem_decode(s->ctx, layout, data, len, out, NULL, 0, NULL, 0);
}

void wirego_mem_trim(wirego_sess *s) {
  if (s->arena_cap > KEEP_MAX) {
    free(s->arena);
    s->arena = NULL;
    s->arena_cap = 0;
  }
  if (s->in_cap > KEEP_MAX) {
    free(s->in);
    s->in = NULL;
    s->in_cap = 0;
  }
}

void *wirego_alloc(size_t n) { return malloc(n ? n : 1); }
void wirego_free(void *p) { free(p); }
