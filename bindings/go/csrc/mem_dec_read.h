/* mem_dec_read.h - the compiled decoder's inline readers of one value
 * (mem_dec.c's struct, list and map loops use them): arena allocation,
 * the usual type meta of a struct, strings, flags, fixed-width and
 * integer values, byte runs. Each reads the usual form without a call and
 * gives up (NULL / false) on anything else, which the general readers of
 * mem_dec.c then read or report. Not installed. */
#ifndef WIRE_MEM_DEC_READ_H
#define WIRE_MEM_DEC_READ_H

#include "mem_dec.h"

/* n bytes at the given alignment from the arena (NULL, x->need set, when
 * they do not fit: the caller reports through wire__mdec_afail). */

static inline void *aalloc(mdec *x, size_t n, size_t align) {
  size_t at = (x->used + (align - 1)) & ~(align - 1);
  /* (used <= cap always: wire_mem_decode checks it first, and every
   * allocation keeps it; unaligned, at is used. cap is the arena's size or
   * where WIRE_LIMIT_MEM_DECODE ends, the smaller: wire__mdec_afail tells
   * which) */
  if ((align > 1 && at > x->cap) || n > x->cap - at) {
    x->need = n > SIZE_MAX - at ? SIZE_MAX : at + n;
    return NULL;
  }
  x->used = at + n;
  return x->arena + at;
}

/* The type meta of a struct value of layout li, its usual forms inline:
 * the registered TypeDef announced as the next one, or a reference to a
 * TypeDef this message announced for the layout's plan; anything else
 * goes to dec_meta (mem_dec_typedef.c), which reads or reports it. */
ALWAYS_INLINE const wire_mplan *meta_fast(mdec *x, uint32_t li) {
  wire_in *in = IN(x);
  wire_dec *d = &x->d;
  wire_mem *m = x->m;
  const wire_mlayout *l = &m->layouts[li];
  const uint8_t *c = in->p;
  size_t n = d->ntds;
  if (WIRE_LIKELY(l->td && in->end - c >= 2 && c[0] == l->kind && c[1] < 0x80)) {
    uint32_t mk = c[1];
    if (mk == (uint32_t)(n << 1)) {
      /* (n < 64 here: the marker is one byte) */
      if (n < d->tds_cap && n < m->dtd_cap &&
          (size_t)(in->end - c) - 2 >= l->td_len &&
          l->td_len <= x->ctx->max_typedef_bytes &&
          td_same(c + 2, l->td, l->td_len)) {
        m->dtd[n] = &l->plan;
        d->tds[n] = x->ctx->reg->types[l->type].layout;
        d->ntds = n + 1;
        m->ndtd = (uint32_t)n + 1;
        in->p = c + 2 + l->td_len;
        return &l->plan;
      }
    } else if ((mk & 1) && (mk >> 1) < n && (mk >> 1) < m->ndtd) {
      /* (as dec_meta takes a reference) */
      const wire_mplan *rp = m->dtd[mk >> 1];
      if (rp && (rp == &l->plan || d->tds[mk >> 1]->type_index == l->type)) {
        in->p = c + 2;
        return rp;
      }
    }
  }
  return wire__mdec_meta_other(x, li);
}

/* The usual UTF-8 string (header of one or two bytes, valid text within
 * the limits, arena room for a copy) into op o's pointer and 32-bit
 * length at base: the cursor after it, or NULL for anything else, which
 * the general reader (dec_str) then reads or reports. */
ALWAYS_INLINE const uint8_t *fast_str(mdec *x, const wire_mop *o,
                                      uint8_t *base, const uint8_t *c,
                                      const uint8_t *end) {
  if (WIRE_UNLIKELY(c >= end)) return NULL;
  uint32_t len, h = c[0];
  const uint8_t *t;
  if ((h & 0x83) == WIRE_STR_UTF8) {
    len = h >> 2;
    t = c + 1;
  } else if ((h & 3) == WIRE_STR_UTF8 && end - c >= 2 && c[1] < 0x80 && c[1]) {
    len = ((h & 0x7F) | (uint32_t)c[1] << 7) >> 2;
    t = c + 2;
  } else {
    return NULL;
  }
  if (WIRE_UNLIKELY((size_t)(end - t) < len) || len > x->max_bin)
    return NULL;
  const uint8_t *sp = t;
  if (x->copy && len) {
    /* copied and checked in one pass where it is long enough (ASCII: no
     * more to check); text that is not valid gives the arena back */
    uint8_t *q = aalloc(x, len, 1);
    if (!q) return NULL;
    if (!wire__copy_ascii(q, t, len) && !utf8_ok(t, len)) {
      x->used -= len; /* (taken at alignment 1) */
      return NULL;
    }
    sp = q;
  } else if (!text_ok(t, len, end)) {
    return NULL;
  }
  st_ptr(base + o->off, len ? sp : (const uint8_t *)"");
  memcpy(base + o->aux, &len, 4);
  return t + len;
}

/* A string op's form has an inline reader: tagged (fast_tstr), or UTF-8
 * with a 32-bit length (fast_str). */
ALWAYS_INLINE bool fast_form(const wire_mop *o) {
  return (o->fl & MF_TAGGED) || !(o->fl & MF_LEN64);
}

/* Whether the n bytes at s (n even) are valid UTF-16 (wire__utf16_check):
 * text with no byte 0xD8-0xDF (so no surrogate) told inline, 16 bytes at
 * a time, the last 16 overlapping. */
ALWAYS_INLINE bool utf16_ok(const uint8_t *s, size_t n) {
#if defined(__SSE2__)
  if (n >= 16) {
    const __m128i hi = _mm_set1_epi8((char)0xF8), sur = _mm_set1_epi8((char)0xD8);
    __m128i acc = _mm_setzero_si128();
    for (size_t i = 0; i + 16 < n; i += 16)
      acc = _mm_or_si128(acc, _mm_cmpeq_epi8(_mm_and_si128(_mm_loadu_si128(
                                  (const __m128i *)(const void *)(s + i)), hi), sur));
    acc = _mm_or_si128(acc, _mm_cmpeq_epi8(_mm_and_si128(_mm_loadu_si128(
                                (const __m128i *)(const void *)(s + n - 16)), hi), sur));
    if (!_mm_movemask_epi8(acc)) return true;
  }
#endif
  return wire__utf16_check(s, n) == n;
}

/* A string left in its wire encoding, with its header (MX_TSTR): the
 * cursor after it, or NULL for anything unusual (the general readers then
 * read or report it). */
ALWAYS_INLINE const uint8_t *fast_tstr(mdec *x, const wire_mop *o,
                                       uint8_t *base, const uint8_t *c,
                                       const uint8_t *end) {
  const uint8_t *t;
  uint8_t *d = base + o->off;
  uint32_t n;
  if (!fast_u32(c, end, &n, &t)) return NULL;
  {
    uint32_t enc = n & 3, len = n >> 2;
    if (enc == 3 || len > x->max_bin || (size_t)(end - t) < len)
      return NULL;
    if (enc == WIRE_STR_UTF8 ? !text_ok(t, len, end)
        : enc == WIRE_STR_UTF16 && ((len & 1) || !utf16_ok(t, len)))
      return NULL;
    /* (the bindings that tag strings, the JVM's and CPython's, read
     * them in place with a 32-bit length word: that way laid out as the
     * straight one, the others' out of line) */
    const uint8_t *sp = t;
    if (WIRE_UNLIKELY(x->copy) && len) {
      uint8_t *q = aalloc(x, len, 1);
      if (!q) return NULL;
      copy_short(q, t, len);
      sp = q;
    }
    st_ptr(d, WIRE_LIKELY(len) ? sp : (const uint8_t *)"");
    if (WIRE_UNLIKELY(o->fl & MF_LEN64)) {
      uint64_t w = n;
      memcpy(base + o->aux, &w, 8);
    } else {
      memcpy(base + o->aux, &n, 4);
    }
    return t + len;
  }
}

/* The header of a tagged string of Latin-1 text (the JVM's usual
 * strings) of one or two bytes at c, its text within end and max bytes:
 * the text (*hn: the header), or NULL for any other string, which
 * fast_tstr then reads (it takes these the same way: Latin-1 has no
 * text to check, every byte is a character). For loops that hold the
 * op's fields in registers (tstr_store) and do not copy. */
ALWAYS_INLINE const uint8_t *l1_head(const uint8_t *c, const uint8_t *end,
                                     uint64_t max, uint32_t *hn) {
  if (WIRE_UNLIKELY(end - c < 2)) return NULL;
  uint32_t n = c[0];
  const uint8_t *t = c + 1;
  if (n & 0x80) {
    uint32_t b = c[1];
    if (b - 1 >= 0x7F) return NULL; /* (0, overlong, or a longer header) */
    n = (n & 0x7F) | b << 7;
    t = c + 2;
  }
  if ((n & 3) != WIRE_STR_LATIN1 || (n >> 2) > max ||
      (size_t)(end - t) < (n >> 2))
    return NULL;
  *hn = n;
  return t;
}

/* A tagged string's pointer (t; "" when empty) and header n stored as
 * fast_tstr stores them: at off, and at aux in 4 bytes or 8 (len64). */
ALWAYS_INLINE void tstr_store(uint8_t *it, uint32_t off, uint32_t aux,
                              bool len64, const uint8_t *t, uint32_t n) {
  st_ptr(it + off, n >> 2 ? t : (const uint8_t *)"");
  if (len64) {
    uint64_t w = n;
    memcpy(it + aux, &w, 8);
  } else {
    memcpy(it + aux, &n, 4);
  }
}

/* A reference / null flag (wire__dec_ref_flag) of a value of op o (a
 * list's items: the list's op), its usual forms inline: not null, null, a
 * tracked value and a reference with a one-byte id to a value read before
 * where references are allowed (not for an op of MDS_GENERAL, where tests
 * compare with the general reader); the rest and the errors go to the
 * general reader. */
ALWAYS_INLINE bool ref_flag(mdec *x, const wire_mop *o, bool allow_ref,
                            int8_t *f, uint32_t *id) {
  wire_in *in = IN(x);
  if (WIRE_LIKELY(in->p < in->end)) {
    const uint8_t *c = in->p;
    int8_t b = (int8_t)c[0];
    if (b == WIRE_REF_NOT_NULL || b == WIRE_REF_NULL ||
        (b == WIRE_REF_VALUE && allow_ref)) {
      in->p++;
      *f = b;
      return true;
    }
    if (b == WIRE_REF_REF && allow_ref && in->end - c >= 2 && c[1] < 0x80 &&
        c[1] < x->d.nrefs && o->ds != MDS_GENERAL) {
      *id = c[1];
      in->p += 2;
      *f = b;
      return true;
    }
  }
  return wire__dec_ref_flag(&x->d, allow_ref, f, id);
}

/* n (4 or 8) bytes at p, little-endian (one load where the host is). */
ALWAYS_INLINE uint64_t ld_le(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* A timestamp or duration (o->wt) in its usual form (the seconds, fixed
 * or a varint, then nanoseconds in range) at s into p: the cursor after
 * it, or NULL (wire__dec_time then reads or reports it). */
ALWAYS_INLINE const uint8_t *fast_time(const wire_mop *o, uint8_t *p,
                                       const uint8_t *s, const uint8_t *end) {
  const uint8_t *np;
  uint64_t u;
  if (o->wt == WIRE_T_DURATION) {
    if (!fast_u64(s, end, &u, &np)) return NULL;
    u = (uint64_t)wire__unzz64(u);
  } else {
    if (end - s < 8) return NULL;
    u = ld_le(s, 8);
    np = s + 8;
  }
  if (end - np < 4 || ld_le(np, 4) >= 1000000000u) return NULL;
  wire_mem_time t = {(int64_t)u, (uint32_t)ld_le(np, 4), 0};
  memcpy(p, &t, sizeof t);
  return np + 4;
}

/* A decimal in its small form (as wire__dec_decimal reads it) at s into
 * p, its magnitude copied into the arena: the cursor after it, or NULL
 * for another form or an arena without room (dec_body's general reader
 * then reads or reports it). */
ALWAYS_INLINE const uint8_t *fast_decimal(mdec *x, uint8_t *p,
                                          const uint8_t *s,
                                          const uint8_t *end) {
  uint32_t zs;
  uint64_t h;
  const uint8_t *np, *np2;
  if (!fast_u32(s, end, &zs, &np) || !fast_u64(np, end, &h, &np2) || (h & 1))
    return NULL;
  int64_t v = wire__unzz64(h >> 1);
  uint64_t mg = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  uint32_t n = 0;
  uint8_t *q;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  /* (the bytes up to the highest one not zero, little-endian: the whole
   * word stored, the arena taking only its n bytes, so the room for all
   * 8 is asked; less room goes to the general reader, which takes n) */
  n = mg ? (uint32_t)(71 - __builtin_clzll(mg)) >> 3 : 0;
  if (WIRE_UNLIKELY(x->cap - x->used < 8)) return NULL;
  q = x->arena + x->used;
  x->used += n ? n : 1;
  memcpy(q, &mg, 8);
#else
  uint8_t small[8];
  while (mg) { small[n++] = (uint8_t)mg; mg >>= 8; }
  q = aalloc(x, n ? n : 1, 1);
  if (!q) return NULL;
  copy_short(q, small, n);
#endif
  wire_mem_decimal dv = {q, n, wire__unzz32(zs), v < 0, 0};
  memcpy(p, &dv, sizeof dv);
  return np2;
}

/* An integer of wire type t at the cursor, sign- or zero-extended. */
static inline bool dec_int_raw(mdec *x, uint8_t t, uint64_t *raw) {
  wire_in *in = IN(x);
  if (t == WIRE_T_VARINT32) {
    uint32_t v;
    if (fast_u32(in->p, in->end, &v, &in->p)) {
      *raw = (uint64_t)(int64_t)wire__unzz32(v);
      return true;
    }
    if (!wire__get_varu32(in, &v)) return false;
    *raw = (uint64_t)(int64_t)wire__unzz32(v);
    return true;
  }
  if (t == WIRE_T_VARINT64) {
    uint64_t v;
    if (!fast_u64(in->p, in->end, &v, &in->p) && !wire__get_varu64(in, &v))
      return false;
    *raw = (uint64_t)wire__unzz64(v);
    return true;
  }
  return wire__dec_prim(&x->d, t, raw);
}

/* The inline cases of byte runs (as fast_tstr): the cursor after the
 * value, or NULL for anything unusual (the general readers then read or
 * report it). */
/* Binary or an array at its wire width (MX_DENSE, esize: the width), or a
 * bool array (bools: MX_BOOLS, bytes each 0 or 1); not in an out-of-band
 * payload (where they may carry a band marker). */
ALWAYS_INLINE const uint8_t *fast_dense(mdec *x, const wire_mop *o,
                                        uint8_t *base, const uint8_t *c,
                                        const uint8_t *end, bool bools) {
  const uint8_t *t;
  uint8_t *d = base + o->off;
  uint32_t n;
  if (x->d.oob || !fast_u32(c, end, &n, &t)) return NULL;
  uint32_t w = bools ? 1 : o->esize; /* (1, 2, 4 or 8) */
  if ((n & (w - 1)) || n > x->max_bin || (size_t)(end - t) < n ||
      (bools && !bools_ok(t, n)))
    return NULL;
  uint32_t count = n >> __builtin_ctz(w); /* (n / w: w a power of 2) */
  const uint8_t *v = t;
  if (o->code == MOP_DENSE ? count != 0 && !x->inplace : x->copy && n) {
    uint8_t *q = aalloc(x, n, o->code == MOP_DENSE ? 8 : 1);
    if (!q) return NULL;
    copy_128(q, t, n);
    v = q;
  }
  st_ptr(d, count ? v : (const uint8_t *)"");
  st_len(base, o, count);
  return t + n;
}

/* The reference / null flag of list item `it` of list op o (so: the
 * element op, NULL for packed items of `stride` bytes): 0 when that was
 * the whole item (a null, a reference), 1 when its value follows (*rid:
 * the reference id to note for a tracked struct pointer, else NOTYPE), -1
 * on error. */
static inline int item_flag(mdec *x, const wire_mop *o, const wire_mop *so,
                     uint8_t *it, size_t stride, bool track, uint32_t *rid) {
  wire_in *in = IN(x);
  const uint8_t *fs = in->p;
  int8_t f;
  uint32_t id;
  if (!ref_flag(x, o, track, &f, &id)) return -1;
  if (f == WIRE_REF_NULL) {
    if (!so) {
      memset(it, 0, stride);
    } else if (so->code == MOP_STRUCT_PTR) {
      st_ptr(it + so->off, NULL);
    } else if (so->fl & MF_PRESENT) {
      it[so->present] = 0;
    } else if (so->code == MOP_STRUCT) {
      wire__mdec_zero_struct(x, &x->m->layouts[so->elem], it + so->off);
    } else if (!(so->code == MOP_STR || so->code == MOP_BYTES ||
                 so->code == MOP_LIST || so->code == MOP_MAP ||
                 so->code == MOP_DENSE || so->code == MOP_PLIST)) {
      memset(it, 0, stride);
    } else {
      st_ptr(it + so->off, NULL);
      st_len(it, so, 0);
    }
    return 0;
  }
  if (f == WIRE_REF_REF) {
    wire_mem *m = x->m;
    if (!so || so->code != MOP_STRUCT_PTR || id >= m->ndref ||
        !m->dref[id] || m->dref_layout[id] != so->elem) {
      dfail(x, WIRE_E_UNSUPPORTED, fs, "a reference the layout cannot hold");
      return -1;
    }
    st_ptr(it + so->off, m->dref[id]);
    return 0;
  }
  if (f == WIRE_REF_VALUE) {
    *rid = (uint32_t)x->d.nrefs++;
    if (so && so->code == MOP_STRUCT_PTR) {
      /* later references may name this item: note its id now */
      wire_mem *m = x->m;
      if (!dref_room(x->ctx, m, *rid + 1)) {
        dfail(x, WIRE_E_NOMEM, fs, "out of memory");
        return -1;
      }
      while (m->ndref <= *rid) {
        m->dref[m->ndref] = NULL;
        m->dref_layout[m->ndref++] = NOTYPE;
      }
    } else {
      *rid = NOTYPE;
    }
  }
  if (so && (so->fl & MF_PRESENT)) it[so->present] = 1;
  return 1;
}

#endif
