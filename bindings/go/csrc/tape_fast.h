/* tape_fast.h - the fast readers of the direct tape decoder (tape_dec.c):
 * scalars in lists and maps (numbers, bools, strings) read without the
 * general readers, and their tape ops. Included by tape_dec.c only; not
 * installed. */
#ifndef WIRE_TAPE_FAST_H
#define WIRE_TAPE_FAST_H

#include "dec.h"
#include "tape.h"

/* A number op from its decoded bits (as the document walk writes it: the
 * value widened to i64 / u64 / f64). */
static inline uint64_t tape_num(uint8_t type, uint64_t raw) {
  if (type >= WIRE_T_FLOAT16 && type <= WIRE_T_FLOAT64) {
    switch (type) { /* widened, a NaN's bits kept (internal.h) */
    case WIRE_T_FLOAT16: raw = wire__f16_widen((uint16_t)raw); break;
    case WIRE_T_BFLOAT16: raw = wire__bf16_widen((uint16_t)raw); break;
    case WIRE_T_FLOAT32: raw = wire__f32_widen((uint32_t)raw); break;
    default: break;
    }
  }
  return raw;
}

/* ---- the usual cases, read fast ---------------------------------------------
 * Scalars in lists and maps (numbers, bools, strings) are read here
 * without the general readers when the input is valid and of the usual
 * shape: nothing is read or written otherwise, and the caller reads the
 * value the long way (dec.h), which reports any error as wire_decode
 * does. */

#define HOT static inline __attribute__((always_inline))
#define HI8 UINT64_C(0x8080808080808080)

/* Bytes of 7 bits each (in the low bytes of x) put together. */
HOT uint64_t unspread(uint64_t x) {
  x &= UINT64_C(0x7F7F7F7F7F7F7F7F);
  x = (x & UINT64_C(0x007F007F007F007F)) | (x & UINT64_C(0x7F007F007F007F00)) >> 1;
  x = (x & UINT64_C(0x00003FFF00003FFF)) | (x & UINT64_C(0x3FFF00003FFF0000)) >> 2;
  return (x & UINT64_C(0x0FFFFFFF)) | (x & UINT64_C(0x0FFFFFFF00000000)) >> 4;
}

/* A varint (LEB128) of at most `most` bytes (5 or 8, the 9-byte form of a
 * varuint64 aside), not overlong, with 8 bytes readable at p: *n gets its
 * length, 0 if it is not such a varint. */
HOT uint64_t varint_word(const uint8_t *p, unsigned most, unsigned *n) {
  uint64_t w;
  memcpy(&w, p, 8);
  uint64_t stop = ~w & HI8;
  if (!stop) {
    *n = 0;
    return 0;
  }
  unsigned k = ((unsigned)__builtin_ctzll(stop) >> 3) + 1;
  if (k > most || (k > 1 && (uint8_t)(w >> (8 * k - 8)) == 0)) {
    *n = 0;
    return 0;
  }
  *n = k;
  return unspread(k == 8 ? w : w & ((UINT64_C(1) << (8 * k)) - 1));
}

/* A number body of type ty at *pp (ends at end): *raw as wire__dec_prim
 * gives it. False: not read (an unusual or bad one, or a type read the
 * long way). */
HOT bool fast_num(const uint8_t **pp, const uint8_t *end, uint8_t ty,
                  uint64_t *raw) {
  const uint8_t *p = *pp;
  size_t left = (size_t)(end - p);
  uint64_t u;
  unsigned n;
  switch (ty) {
  case WIRE_T_VARINT64: case WIRE_T_VAR_UINT64:
    if (left && p[0] < 0x80) {
      u = p[0];
      n = 1;
    } else if (left >= 9) {
      u = varint_word(p, 8, &n);
      if (!n) {
        uint64_t w; /* nine bytes, or overlong */
        memcpy(&w, p, 8);
        if (p[8] == 0 || (~w & HI8)) return false;
        u = unspread(w) | (uint64_t)p[8] << 56;
        n = 9;
      }
    } else {
      return false;
    }
    *raw = ty == WIRE_T_VARINT64 ? (uint64_t)wire__unzz64(u) : u;
    break;
  case WIRE_T_VARINT32: case WIRE_T_VAR_UINT32:
    if (left && p[0] < 0x80) {
      u = p[0];
      n = 1;
    } else if (left >= 8) {
      u = varint_word(p, 5, &n);
      if (!n || (n == 5 && (p[4] & 0xF0))) return false;
    } else {
      return false;
    }
    *raw = ty == WIRE_T_VARINT32 ? (uint64_t)(int64_t)wire__unzz32((uint32_t)u)
                                 : u;
    break;
  case WIRE_T_BOOL:
    if (!left || p[0] > 1) return false;
    *raw = p[0];
    n = 1;
    break;
  case WIRE_T_INT8: case WIRE_T_UINT8:
    if (!left) return false;
    *raw = ty == WIRE_T_INT8 ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
    n = 1;
    break;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16:
  case WIRE_T_BFLOAT16: {
    uint16_t x;
    if (left < 2) return false;
    memcpy(&x, p, 2);
    *raw = ty == WIRE_T_INT16 ? (uint64_t)(int64_t)(int16_t)x : x;
    n = 2;
    break;
  }
  case WIRE_T_INT32: case WIRE_T_UINT32: case WIRE_T_FLOAT32: {
    uint32_t x;
    if (left < 4) return false;
    memcpy(&x, p, 4);
    *raw = ty == WIRE_T_INT32 ? (uint64_t)(int64_t)(int32_t)x : x;
    n = 4;
    break;
  }
  case WIRE_T_INT64: case WIRE_T_UINT64: case WIRE_T_FLOAT64:
    if (left < 8) return false;
    memcpy(raw, p, 8);
    n = 8;
    break;
  default: /* tagged: the long way */
    return false;
  }
  *pp = p + n;
  return true;
}

#define copy16 wire__copy16

/* The state the fast readers work on, in locals: the input, the output
 * (its room ends at qend; only when the buffer has not failed) and the
 * node count. fc_load / fc_store move it from / back to the decoder. */
typedef struct {
  const uint8_t *p, *end;
  uint8_t *q, *qend;
  uint64_t nv, maxn, maxb;
} fc;

/* A string body and its tape op: a STR_SPAN when sbase (the payload) is
 * given, else a STRING with the bytes (NULL is a constant at the copying
 * loops' calls, so that they carry no test of it). */
/* A string body at c->p checked as the fast readers take it (a header of
 * one or two bytes, text valid in its encoding, within the binary limit;
 * the node limit is the caller's): *b its bytes, *len their count, *enc
 * the encoding; c is not moved. False: not read so (the long way reports
 * what is wrong). */
HOT bool fc_string_body(const fc *c, const uint8_t **bp, uint32_t *lenp,
                        uint32_t *encp) {
  const uint8_t *p = c->p;
  size_t left = (size_t)(c->end - p);
  if (WIRE_UNLIKELY(!left)) return false;
  uint32_t h = p[0], hl = 1;
  if (h >= 0x80) {
    if (left < 2 || p[1] >= 0x80 || !p[1]) return false;
    h = (h & 0x7F) | (uint32_t)p[1] << 7;
    hl = 2;
  }
  uint32_t enc = h & 3, len = h >> 2;
  const uint8_t *b = p + hl;
  size_t avail = (size_t)(c->end - b);
  if (WIRE_UNLIKELY(enc == 3 || len > c->maxb || avail < len)) return false;
  if (enc == WIRE_STR_UTF8) {
    if (!wire__tape_ascii(b, len, c->end) && wire__utf8_check(b, len) != len)
      return false;
  } else if (enc == WIRE_STR_UTF16) {
    if ((len & 1) || wire__utf16_check(b, len) != len) return false;
  }
  *bp = b;
  *lenp = len;
  *encp = enc;
  return true;
}

HOT bool fc_string(fc *c, const uint8_t *sbase) {
  const uint8_t *b;
  uint32_t len, enc;
  if (WIRE_UNLIKELY(c->nv >= c->maxn) || !fc_string_body(c, &b, &len, &enc))
    return false;
  bool over = (size_t)(c->end - b) >= 16;
  uint8_t *q = c->q;
  if (sbase && len) {
    /* b[0..len) lies in the payload (c->end is its end) */
    if (WIRE_UNLIKELY((size_t)(c->qend - q) < 14)) return false;
    uint64_t off = (uint64_t)(b - sbase);
    q[0] = TAPE_STR_SPAN;
    q[1] = (uint8_t)enc;
    memcpy(q + 2, &len, 4);
    memcpy(q + 6, &off, 8);
    c->q = q + 14;
    c->p = b + len;
    c->nv++;
    return true;
  }
  if (WIRE_UNLIKELY((size_t)(c->qend - q) < 6 + (size_t)len + 16)) return false;
  q[0] = WIRE_T_STRING;
  q[1] = (uint8_t)enc;
  memcpy(q + 2, &len, 4);
  if (over && len <= 16) copy16(q + 6, b);
  else wire__copy(q + 6, b, len);
  c->q = q + 6 + len;
  c->p = b + len;
  c->nv++;
  return true;
}

/* Strings of a list from element i (count in all) while they are the
 * usual short Latin-1 ones (a one-byte header, at most 16 bytes, with 16
 * bytes of input after the header and room for their ops): each a STRING
 * op, as fc_string writes it, in straight-line code. Returns the index of
 * the first string it leaves to fc_string (or count). */
HOT uint32_t fc_latin1_run(fc *c, uint32_t i, uint32_t count) {
  if (c->maxb < 16) return i;
  const uint8_t *p = c->p, *end = c->end;
  uint8_t *q = c->q, *qend = c->qend;
  uint64_t nv = c->nv, maxn = c->maxn;
  while (i < count && (size_t)(end - p) >= 17 && (size_t)(qend - q) >= 22 &&
         nv < maxn) {
    uint32_t h = p[0];
    /* a one-byte header of Latin-1 text (enc 0) of 0..16 bytes */
    if (h > (16u << 2) || (h & 3) != WIRE_STR_LATIN1) break;
    uint32_t len = h >> 2;
    uint64_t op = (uint64_t)WIRE_T_STRING | (uint64_t)len << 16;
    memcpy(q, &op, 8); /* the op, encoding 0 and the length (2 bytes over) */
    copy16(q + 6, p + 1);
    q += 6 + len;
    p += 1 + len;
    nv++;
    i++;
  }
  c->p = p;
  c->q = q;
  c->nv = nv;
  return i;
}

/* A number body of type ty and its tape op. */
HOT bool fc_num(fc *c, uint8_t ty) {
  if (WIRE_UNLIKELY((size_t)(c->qend - c->q) < 9 || c->nv >= c->maxn))
    return false;
  uint64_t raw;
  if (!fast_num(&c->p, c->end, ty, &raw)) return false;
  uint8_t *q = c->q;
  q[0] = ty;
  if (ty == WIRE_T_BOOL) {
    q[1] = (uint8_t)raw;
    c->q = q + 2;
  } else {
    uint64_t v = tape_num(ty, raw);
    memcpy(q + 1, &v, 8);
    c->q = q + 9;
  }
  c->nv++;
  return true;
}

/* Types the fast readers read. */
static inline bool fast_type(uint8_t ty) {
  return (ty >= WIRE_T_BOOL && ty <= WIRE_T_TAGGED_UINT64) ||
         (ty >= WIRE_T_FLOAT16 && ty <= WIRE_T_STRING);
}

/* A slot of a list or map: has_flag: a reference flag, of which not-null
 * and null are read here; ty: the slot's type (0: read from the input)
 * among fast_type. *type gets the value's kind. False: nothing read. */
HOT bool fc_slot(fc *c, bool has_flag, uint8_t ty, uint8_t *type,
             const uint8_t *sbase) {
  const uint8_t *s = c->p;
  if (has_flag) {
    if (WIRE_UNLIKELY(s == c->end)) return false;
    if (*s == 0xFD) { /* null */
      if (c->nv >= c->maxn || c->q == c->qend) return false;
      c->nv++;
      *c->q++ = TAPE_NULL;
      c->p = s + 1;
      *type = WIRE_T_NULL;
      return true;
    }
    if (*s != 0xFF) return false;
    c->p = s + 1;
  }
  if (!ty) {
    if (WIRE_UNLIKELY(c->p == c->end)) goto no;
    ty = *c->p++;
    if (!fast_type(ty)) goto no;
  }
  if (ty == WIRE_T_STRING ? !fc_string(c, sbase) : !fc_num(c, ty)) goto no;
  *type = ty;
  return true;
no:
  c->p = s;
  return false;
}

/* fc_slot for a slot whose value carries its own type byte (ty 0): one
 * dispatch on that byte, each case reading its body and writing its op,
 * so that an element of a list of mixed types takes one type-dependent
 * jump, not one per step (the type test, the number reader's switch, the
 * float widening, the bool form). Other types and nulls go to fc_slot.
 * False: nothing read. */
HOT bool fc_any(fc *c, bool has_flag, uint8_t *type, const uint8_t *sbase) {
  const uint8_t *s = c->p, *p = s;
  if (has_flag) {
    if (WIRE_UNLIKELY(p == c->end || *p != 0xFF))
      return fc_slot(c, true, 0, type, sbase);
    p++;
  }
  if (WIRE_UNLIKELY(p == c->end || c->nv >= c->maxn ||
                    (size_t)(c->qend - c->q) < 9))
    return false;
  uint8_t ty = *p++;
  uint8_t *q = c->q;
  uint64_t raw;
  switch (ty) {
#define FC_NUM(T)                                   \
  case T:                                           \
    if (!fast_num(&p, c->end, T, &raw)) return false; \
    raw = tape_num(T, raw);                         \
    q[0] = T;                                       \
    memcpy(q + 1, &raw, 8);                         \
    c->q = q + 9;                                   \
    break;
  FC_NUM(WIRE_T_VARINT64)
  FC_NUM(WIRE_T_VARINT32)
  FC_NUM(WIRE_T_INT64)
  FC_NUM(WIRE_T_INT32)
  FC_NUM(WIRE_T_FLOAT64)
  FC_NUM(WIRE_T_FLOAT32)
#undef FC_NUM
  case WIRE_T_BOOL:
    if (p == c->end || *p > 1) return false;
    q[0] = WIRE_T_BOOL;
    q[1] = *p++;
    c->q = q + 2;
    break;
  case WIRE_T_STRING:
    c->p = p;
    if (!fc_string(c, sbase)) {
      c->p = s;
      return false;
    }
    *type = WIRE_T_STRING;
    return true;
  default:
    return fc_slot(c, has_flag, 0, type, sbase);
  }
  c->p = p;
  c->nv++;
  *type = ty;
  return true;
}

#endif
