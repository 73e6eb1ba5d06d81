/* mem_enc.h - the layout encoder's state (menc), its room checks and
 * the writers of single values it calls (type meta, strings, integers);
 * included by mem_enc.c alone, after mem_put.h, where its walkers (struct
 * loop, lists, maps, unions, reference flags) are. */
#ifndef WIRE_MEM_ENC_H
#define WIRE_MEM_ENC_H

#include "mem_put.h"

#define NOTYPE WIRE_NO_TYPE

/* The encoder's reference index: its slots, and how many references it
 * holds (the ones after those are looked for one by one). */
#define ENC_REF_SLOTS 128 /* (ref_slot, mem_put.h: 7 bits) */
#define ENC_REF_HASHED 96

typedef struct {
  wire_ctx *ctx;
  wire_mem *m;
  wire_buf *b;
  uint32_t depth;
  /* strings as given: UTF-8 unless the Java policy asks otherwise, checked
   * unless the caller vouches for them */
  bool utf8_str, check_str;
  bool hashed;        /* same-schema structs begin with their hash */
  uint32_t max_depth;
  /* what is added to a pointer of the image other than NULL
   * (wire_mem_encode_based; else 0) */
  uintptr_t rel;
  /* under tracking: an index of the first ENC_REF_HASHED references of
   * m->refp (slot: 1 + their index, 0 free), open addressing */
  uint8_t rh[ENC_REF_SLOTS];
} menc;

__attribute__((cold)) static bool efail(menc *e, int32_t code, const char *w) {
  wire__fail(e->ctx, code, e->b->len, "%s", w);
  return false;
}

/* efail for the writers that answer -1 on error (both cold: apart) */
__attribute__((cold)) static int lfail(menc *e, int32_t code, const char *w) {
  efail(e, code, w);
  return -1;
}

static inline __attribute__((always_inline)) bool room(menc *e, size_t n) {
  wire_buf *b = e->b;
  if (WIRE_LIKELY(b->cap - b->len >= n)) return true;
  if (wire__buf_grow(b, n) != WIRE_OK) return efail(e, WIRE_E_NOMEM, "out of memory");
  return true;
}

/* Room for n bytes at *q and 8 more (a fixed-width writer stores a
 * whole word) before *lim, the buffer's end, growing the buffer (and
 * moving both) when there is not. The end is kept in a local: the bytes
 * stored through q could alias the buffer's fields. */
static inline __attribute__((always_inline)) bool reserve(menc *e, uint8_t **q, uint8_t **lim, size_t n) {
  if (WIRE_LIKELY((size_t)(*lim - *q) >= n + 8)) return true;
  wire_buf *b = e->b;
  b->len = (size_t)(*q - b->p);
  if (!room(e, n + 8)) return false;
  *q = b->p + b->len;
  *lim = b->p + b->cap;
  return true;
}

static inline const void *eptr(const menc *e, const uint8_t *p) {
  return rptr(e->rel, p);
}

/* utf8_ok, called: text that is not ASCII (out of the struct loops) */
static __attribute__((noinline)) bool eutf8_ok(const uint8_t *s, size_t n) {
  return utf8_ok(s, n);
}

/* Whether text s[0..n) is valid UTF-8 (text_ok's answer), for the
 * caller's strings, past whose end nothing may be read: whether it is
 * ASCII first, by words or'ed together and tested once (sixteen bytes a
 * round, the last ones overlapping), text shorter than a word by two
 * loads of four bytes overlapping, or of its first, middle and last bytes
 * (which are all of them below four); else utf8_ok. */
static inline __attribute__((always_inline)) bool
etext_ok(const uint8_t *s, size_t n) {
  if (n >= 8) {
    uint64_t a, z, w, y;
    memcpy(&a, s + n - 8, 8);
    if (n > 16) {
      memcpy(&z, s + n - 16, 8);
      for (size_t i = 0; i + 16 < n; i += 16) {
        memcpy(&w, s + i, 8);
        memcpy(&y, s + i + 8, 8);
        a |= w | y;
      }
    } else {
      memcpy(&z, s, 8);
    }
    return !((a | z) & UINT64_C(0x8080808080808080)) || eutf8_ok(s, n);
  }
  uint32_t b = 0, c = 0;
  if (n >= 4) {
    memcpy(&b, s, 4);
    memcpy(&c, s + n - 4, 4);
  } else if (n) {
    b = (uint32_t)(s[0] | s[n / 2]);
    c = s[n - 1];
  }
  return !((b | c) & 0x80808080u) || eutf8_ok(s, n);
}

static bool enc_struct_body(menc *e, const wire_mlayout *l, const uint8_t *base);
static bool enc_fields(menc *e, const wire_mlayout *l, const uint8_t *base);

/* Type meta of a struct value of layout l without a TypeDef (put_meta
 * writes those). */
static bool enc_meta_id(menc *e, const wire_mlayout *l) {
  wire_mem *m = e->m;
  uint32_t ti = l->type;
  wire_utype *t = &e->ctx->reg->types[ti];
  if (l->kind == WIRE_T_STRUCT) {
    if (!room(e, 6)) return false;
    uint8_t *q = e->b->p + e->b->len;
    *q++ = l->kind;
    q = put_varu32(q, t->user_id);
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  /* named same-schema structs: meta strings through the writer policy */
  wire_user_meta um = {UINT32_MAX, NULL, t->layout, -1, -1};
  return wire__enc_type_meta(&m->e, l->kind, &um); /* e->b is &m->e.b */
}

/* The type meta of a struct value of layout l with a TypeDef (announced
 * in this message already or not) at q, where there is room for 6 +
 * l->td_len bytes; where the next byte goes. */
static inline __attribute__((always_inline)) uint8_t *
put_td(wire_mem *m, const wire_mlayout *l, uint8_t *q) {
  uint32_t ti = l->type;
  *q++ = l->kind;
  if (m->td_gen[ti] == m->gen) return put_varu32(q, (m->td_idx[ti] << 1) | 1);
  m->td_gen[ti] = m->gen;
  m->td_idx[ti] = m->next_td;
  q = put_varu32(q, m->next_td++ << 1);
  copy_mid(q, l->td, l->td_len);
  return q + l->td_len;
}

/* Type meta of a struct value of layout l: a TypeDef (put_td) without a
 * call. */
static inline __attribute__((always_inline)) bool
put_meta(menc *e, const wire_mlayout *l) {
  if (!l->td) return enc_meta_id(e, l);
  if (!room(e, 6 + l->td_len)) return false;
  e->b->len = (size_t)(put_td(e->m, l, e->b->p + e->b->len) - e->b->p);
  return true;
}

/* put_meta, called (the colder paths). */
static bool enc_meta(menc *e, const wire_mlayout *l) { return put_meta(e, l); }

static bool enc_str(menc *e, const uint8_t *s, uint64_t len) {
  wire_ctx *ctx = e->ctx;
  if (len > UINT32_MAX) return efail(e, WIRE_E_LENGTH, "string longer than 4 GiB");
  if (WIRE_UNLIKELY(!s)) {
    if (len) return efail(e, WIRE_E_ENCODE, "NULL string with a length");
    s = (const uint8_t *)""; /* (empty: memcpy takes no NULL, even for 0) */
  }
  if (!ctx->trusted_text && wire__utf8_check(s, (size_t)len) != len)
    return efail(e, WIRE_E_STRING, "invalid UTF-8");
  int32_t enc = WIRE_STR_UTF8;
  if (ctx->string_policy == WIRE_STRING_JAVA)
    enc = wire__java_encoding_of(WIRE_STR_UTF8, s, (size_t)len);
  if (enc == WIRE_STR_UTF8) {
    if (!room(e, 9 + len)) return false;
    uint8_t *q = e->b->p + e->b->len;
    uint64_t h = (len << 2) | WIRE_STR_UTF8;
    int n = 0;
    while (h >= 0x80 && n < 4) { *q++ = (uint8_t)(h | 0x80); h >>= 7; n++; }
    *q++ = (uint8_t)h;
    wire__copy(q, s, (size_t)len);
    e->b->len = (size_t)(q - e->b->p) + (size_t)len;
    return true;
  }
  size_t wl = wire__transcode_len(WIRE_STR_UTF8, enc, s, (size_t)len);
  if (!room(e, 9 + wl)) return false;
  uint8_t *q = e->b->p + e->b->len;
  uint64_t h = ((uint64_t)wl << 2) | (uint64_t)enc;
  int n = 0;
  while (h >= 0x80 && n < 4) { *q++ = (uint8_t)(h | 0x80); h >>= 7; n++; }
  *q++ = (uint8_t)h;
  wire__transcode(WIRE_STR_UTF8, enc, s, (size_t)len, q, wl);
  e->b->len = (size_t)(q - e->b->p) + wl;
  return true;
}

/* A string whose length word is the wire header (WIRE_MEM_STR_TAGGED):
 * written in the encoding the caller chose, checked unless trusted. */
static bool enc_str_tagged(menc *e, const uint8_t *s, uint64_t h) {
  uint64_t len = h >> 2;
  int32_t enc = (int32_t)(h & 3);
  if (enc == 3) return efail(e, WIRE_E_ENCODE, "string encoding 3 is reserved");
  if (len > UINT32_MAX) return efail(e, WIRE_E_LENGTH, "string longer than 4 GiB");
  if (len && !s) return efail(e, WIRE_E_ENCODE, "NULL string with a length");
  if (!e->ctx->trusted_text) {
    if (enc == WIRE_STR_UTF8 && wire__utf8_check(s, (size_t)len) != len)
      return efail(e, WIRE_E_STRING, "invalid UTF-8");
    if (enc == WIRE_STR_UTF16 &&
        ((len & 1) || wire__utf16_check(s, (size_t)len) != len))
      return efail(e, WIRE_E_STRING, "invalid UTF-16");
  }
  if (!room(e, 9 + len)) return false;
  uint8_t *q = put_varu64(e->b->p + e->b->len, h);
  if (len) wire__copy(q, s, (size_t)len);
  e->b->len = (size_t)(q - e->b->p) + (size_t)len;
  return true;
}

static inline bool enc_int(menc *e, const wire_mop *o, uint64_t raw) {
  if ((o->fl & MF_CHECK) && !int_in_range(raw, o->form, o->wt))
    return efail(e, WIRE_E_ENCODE, "integer out of the range of its wire type");
  uint8_t *q = e->b->p + e->b->len;
  switch (o->wt) {
  case WIRE_T_INT8: case WIRE_T_UINT8: *q++ = (uint8_t)raw; break;
  case WIRE_T_INT16: case WIRE_T_UINT16: q = put_le(q, raw, 2); break;
  case WIRE_T_INT32: case WIRE_T_UINT32: q = put_le(q, raw, 4); break;
  case WIRE_T_INT64: case WIRE_T_UINT64: q = put_le(q, raw, 8); break;
  case WIRE_T_VARINT32: q = put_varu32(q, wire__zz32((int32_t)raw)); break;
  case WIRE_T_VAR_UINT32: q = put_varu32(q, (uint32_t)raw); break;
  case WIRE_T_VARINT64: q = put_varu64(q, wire__zz64((int64_t)raw)); break;
  case WIRE_T_VAR_UINT64: q = put_varu64(q, raw); break;
  case WIRE_T_TAGGED_INT64: {
    int64_t v = (int64_t)raw;
    if (v >= -(INT64_C(1) << 30) && v < (INT64_C(1) << 30)) {
      q = put_le(q, (uint32_t)((uint32_t)(int32_t)v << 1), 4);
    } else {
      *q++ = 1;
      q = put_le(q, raw, 8);
    }
    break;
  }
  default: /* TAGGED_UINT64 */
    if (raw < (UINT64_C(1) << 31)) q = put_le(q, (uint32_t)raw << 1, 4);
    else { *q++ = 1; q = put_le(q, raw, 8); }
    break;
  }
  e->b->len = (size_t)(q - e->b->p);
  return true;
}

/* A primitive element of a packed list / dense conversion; `eo`: the
 * element's op (wt, form, MF_CHECK), made once per list. */
static inline bool enc_prim_elem(menc *e, const wire_mop *eo, const uint8_t *p) {
  uint8_t wt = eo->wt;
  uint64_t raw = ld_u(p, eo->form);
  if (is_int_wt(wt)) return enc_int(e, eo, raw);
  uint8_t *q = e->b->p + e->b->len;
  switch (wt) {
  case WIRE_T_BOOL: *q++ = raw ? 1 : 0; break;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: q = put_le(q, raw, 2); break;
  case WIRE_T_FLOAT32: q = put_le(q, raw, 4); break;
  default: q = put_le(q, raw, 8); break;
  }
  e->b->len = (size_t)(q - e->b->p);
  return true;
}

#endif
