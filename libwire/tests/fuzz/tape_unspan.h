/* tape_unspan.h - a read tape with its SPAN, STR_SPAN and ENTRY_RUN ops
 * made the copies they stand for (the tape read without WIRE_TAPE_SPANS,
 * WIRE_TAPE_STRING_SPANS and WIRE_TAPE_ENTRY_RUNS), for the tests:
 * test_tape.c and the fuzz target fuzz_tape_decode. Not installed. */
#ifndef WIRE_TAPE_UNSPAN_H
#define WIRE_TAPE_UNSPAN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tape.h"

typedef struct {
  const uint8_t *p, *end, *data;
  size_t data_len;
  uint8_t *o;
  size_t n, cap;
  int bad;
} unspan_t;

static void u_put(unspan_t *u, const void *p, size_t k) {
  if (u->n + k > u->cap) {
    u->cap = (u->n + k) * 2 + 64;
    u->o = realloc(u->o, u->cap);
    if (!u->o) abort();
  }
  if (k) memcpy(u->o + u->n, p, k);
  u->n += k;
}
/* Copies k tape bytes. */
static const uint8_t *u_copy(unspan_t *u, size_t k) {
  if ((size_t)(u->end - u->p) < k) {
    u->bad = 1;
    return NULL;
  }
  const uint8_t *q = u->p;
  u_put(u, q, k);
  u->p += k;
  return q;
}
static uint32_t u_copy32(unspan_t *u) {
  const uint8_t *q = u_copy(u, 4);
  uint32_t v = 0;
  if (q) memcpy(&v, q, 4);
  return v;
}
static uint16_t u_copy16(unspan_t *u) {
  const uint8_t *q = u_copy(u, 2);
  return q ? (uint16_t)(q[0] | q[1] << 8) : 0;
}

/* A varint of the payload at *p (before end), up to 9 bytes (the ninth
 * of 8 bits); 0 bytes read if it does not end. */
static uint64_t u_varint(const uint8_t **p, const uint8_t *end, int *ok) {
  uint64_t v = 0;
  for (int i = 0; i < 9 && *p < end; i++) {
    uint8_t b = *(*p)++;
    if (i == 8) {
      v |= (uint64_t)b << 56;
      return v;
    }
    v |= (uint64_t)(b & 0x7F) << (7 * i);
    if (b < 0x80) return v;
  }
  *ok = 0;
  return 0;
}

/* An ENTRY_RUN op (u8 value type, u32 count, u64 offset, u64 n) made the
 * count (STRING, number) pairs it stands for, read from the payload with
 * a reader of its own; returns count. */
static uint32_t u_run(unspan_t *u) {
  if ((size_t)(u->end - u->p) < 22) {
    u->bad = 1;
    return 0;
  }
  uint8_t vt = u->p[1];
  uint32_t cnt;
  uint64_t off, n;
  memcpy(&cnt, u->p + 2, 4);
  memcpy(&off, u->p + 6, 8);
  memcpy(&n, u->p + 14, 8);
  u->p += 22;
  if ((vt != WIRE_T_VARINT64 && vt != WIRE_T_VARINT32) || !cnt || !n ||
      off > u->data_len || n > u->data_len - off) {
    u->bad = 1;
    return 0;
  }
  const uint8_t *p = u->data + off, *end = p + n;
  int ok = 1;
  for (uint32_t i = 0; i < cnt && ok; i++) {
    uint64_t h = u_varint(&p, end, &ok);
    uint32_t len = (uint32_t)(h >> 2);
    uint8_t op = WIRE_T_STRING, e = (uint8_t)(h & 3);
    if (!ok || (size_t)(end - p) < len) {
      ok = 0;
      break;
    }
    u_put(u, &op, 1);
    u_put(u, &e, 1);
    u_put(u, &len, 4);
    u_put(u, p, len);
    p += len;
    uint64_t z = u_varint(&p, end, &ok);
    int64_t v = vt == WIRE_T_VARINT64
                    ? (int64_t)(z >> 1) ^ -(int64_t)(z & 1)
                    : (int64_t)(int32_t)((uint32_t)(z >> 1) ^
                                         -(uint32_t)(z & 1));
    u_put(u, &vt, 1);
    u_put(u, &v, 8);
  }
  if (!ok || p != end) u->bad = 1;
  return cnt;
}

/* One value of a read tape, its SPAN ops made the ops they stand for. */
static void u_value(unspan_t *u) {
  const uint8_t *q = u_copy(u, 1);
  if (!q) return;
  uint8_t op = *q;
  if (op >= WIRE_T_INT8 && op <= WIRE_T_TAGGED_UINT64) { u_copy(u, 8); return; }
  if (op >= WIRE_T_FLOAT16 && op <= WIRE_T_FLOAT64) { u_copy(u, 8); return; }
  if (op == WIRE_T_BINARY || wire_type_array_width(op)) {
    u_copy(u, u_copy32(u));
    return;
  }
  switch (op) {
  case TAPE_NULL: case WIRE_T_NONE: return;
  case WIRE_T_BOOL: u_copy(u, 1); return;
  case WIRE_T_STRING: u_copy(u, 1); u_copy(u, u_copy32(u)); return;
  case WIRE_T_LIST: case WIRE_T_SET: {
    uint32_t c = u_copy32(u);
    for (uint32_t i = 0; i < c && !u->bad; i++) u_value(u);
    return;
  }
  case WIRE_T_MAP: {
    uint32_t c = u_copy32(u);
    while (c && !u->bad) {
      if (u->p < u->end && *u->p == TAPE_ENTRY_RUN) {
        uint32_t k = u_run(u);
        if (k > c) u->bad = 1;
        else c -= k;
        continue;
      }
      u_value(u);
      u_value(u);
      c--;
    }
    return;
  }
  case WIRE_T_ENUM: case TAPE_ENUM_ID: case TAPE_REF:
    u_copy(u, op == TAPE_REF ? 4 : 8);
    return;
  case WIRE_T_NAMED_ENUM:
    u_copy(u, u_copy16(u));
    u_copy(u, u_copy16(u));
    u_copy(u, 4);
    return;
  case WIRE_T_STRUCT: case TAPE_STRUCT_TD: {
    if (op == TAPE_STRUCT_TD) u_copy(u, u_copy32(u));
    if (u_copy32(u) == 0xFFFFFFFFu) {
      u_copy(u, 4);
      u_copy(u, u_copy16(u));
      u_copy(u, u_copy16(u));
    }
    uint32_t nf = u_copy32(u);
    for (uint32_t i = 0; i < nf && !u->bad; i++) {
      u_copy(u, u_copy16(u));
      u_value(u);
    }
    return;
  }
  case TAPE_STRUCT_IDX: {
    u_copy(u, 4);
    uint32_t nf = u_copy32(u);
    for (uint32_t i = 0; i < nf && !u->bad; i++) u_value(u);
    return;
  }
  case WIRE_T_UNION: u_copy(u, 8); u_value(u); return;
  case WIRE_T_DURATION: case WIRE_T_TIMESTAMP: u_copy(u, 12); return;
  case WIRE_T_DATE: u_copy(u, 8); return;
  case WIRE_T_DECIMAL: u_copy(u, 5); u_copy(u, u_copy32(u)); return;
  case TAPE_PACKED: {
    u_copy(u, 2);
    u_copy(u, 8 * (size_t)u_copy32(u));
    return;
  }
  case TAPE_SPAN: {
    /* op type, u32 n, u64 offset -> op type, u32 n, the n payload bytes */
    u->n--;
    if ((size_t)(u->end - u->p) < 13) { u->bad = 1; return; }
    uint8_t t = u->p[0];
    uint32_t n;
    uint64_t off;
    memcpy(&n, u->p + 1, 4);
    memcpy(&off, u->p + 5, 8);
    u->p += 13;
    if ((t != WIRE_T_BINARY && !wire_type_array_width(t)) || !n ||
        off > u->data_len || n > u->data_len - off) {
      u->bad = 1;
      return;
    }
    u_put(u, &t, 1);
    u_put(u, &n, 4);
    u_put(u, u->data + off, n);
    return;
  }
  case TAPE_STR_SPAN: {
    /* op enc, u32 n, u64 offset -> STRING enc, u32 n, the n payload bytes */
    u->n--;
    if ((size_t)(u->end - u->p) < 13) { u->bad = 1; return; }
    uint8_t op2 = WIRE_T_STRING, e = u->p[0];
    uint32_t n;
    uint64_t off;
    memcpy(&n, u->p + 1, 4);
    memcpy(&off, u->p + 5, 8);
    u->p += 13;
    if (e > WIRE_STR_UTF8 || !n || off > u->data_len || n > u->data_len - off) {
      u->bad = 1;
      return;
    }
    u_put(u, &op2, 1);
    u_put(u, &e, 1);
    u_put(u, &n, 4);
    u_put(u, u->data + off, n);
    return;
  }
  default: u->bad = 1;
  }
}

/* The tape read with WIRE_TAPE_SPANS, its spans made copies: malloc'ed, or
 * NULL if it is not a tape of this payload. */
static uint8_t *unspan(const uint8_t *t, size_t tl, const uint8_t *data,
                       size_t data_len, size_t *out_len) {
  unspan_t u = {t + 8, t + tl, data, data_len, NULL, 0, 0, 0};
  if (tl < 8) return NULL;
  u_put(&u, t, 8);
  uint32_t roots;
  memcpy(&roots, t + 4, 4);
  for (uint32_t i = 0; i < roots && !u.bad; i++) u_value(&u);
  if (u.bad || u.p != u.end) {
    free(u.o);
    return NULL;
  }
  *out_len = u.n;
  return u.o;
}

#endif
