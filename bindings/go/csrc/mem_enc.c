/* mem_enc.c - compiled codecs, the encoder: wire_mem_encode and
 * wire_mem_encode_to walk a bound layout's op sequence (mem.h, built by
 * mem_layout.c) over native memory and write the xlang bytes. */
#include "mem.h"

#if defined(__GNUC__) && !defined(__clang__)
/* the struct loops gain ~4% Ir at -O3 (inlining into the op cases);
 * without cross-jumping each case keeps its own jump to the next op's
 * (mem_enc_loop.h; merged into one, ~50 Ir more an order) */
#pragma GCC optimize("O3", "no-crossjumping")
#endif

#include "mem_put.h" /* (after the pragma: its writers at -O3 too) */

#include <stdlib.h>

#include "mem_enc.h" /* (the encoder's state and value writers) */

static bool enc_body(menc *e, const wire_mop *o, const uint8_t *base);

/* Struct pointer p, written now, as reference m->e.nrefs (which the
 * caller counts). */
static bool ref_add(menc *e, const void *p) {
  wire_mem *m = e->m;
  if (m->nref >= 1u << 20) return efail(e, WIRE_E_LIMIT, "too many references");
  if (!ref_room(e->ctx, m, m->nref + 1))
    return efail(e, WIRE_E_NOMEM, "out of memory");
  if (m->nref < ENC_REF_HASHED) {
    uint32_t h = ref_slot(p);
    while (e->rh[h]) h = (h + 1) & (ENC_REF_SLOTS - 1);
    e->rh[h] = (uint8_t)(m->nref + 1);
  }
  m->refp[m->nref] = p;
  m->refid[m->nref++] = m->e.nrefs;
  return true;
}

/* ref_note past the index's first ENC_REF_HASHED references, or when the
 * reference arrays are full. */
__attribute__((noinline)) static int64_t ref_more(menc *e, const void *p) {
  const wire_mem *m = e->m;
  for (uint32_t i = ENC_REF_HASHED; i < m->nref; i++)
    if (m->refp[i] == p) return m->refid[i];
  return ref_add(e, p) ? -1 : -2;
}

/* The reference id of struct pointer p when it was written before in
 * this message; else p is noted (ref_add) and the answer is -1; -2 on
 * error. The index's probe that misses ends at the slot p takes. */
static inline __attribute__((always_inline)) int64_t
ref_note(menc *e, const void *p) {
  wire_mem *m = e->m;
  uint32_t h = ref_slot(p);
  for (; e->rh[h]; h = (h + 1) & (ENC_REF_SLOTS - 1))
    if (m->refp[e->rh[h] - 1] == p) return m->refid[e->rh[h] - 1];
  uint32_t n = m->nref;
  if (WIRE_UNLIKELY(n >= ENC_REF_HASHED || n >= m->ref_cap))
    return ref_more(e, p);
  e->rh[h] = (uint8_t)(n + 1);
  m->refp[n] = p;
  m->refid[n] = m->e.nrefs;
  m->nref = n + 1;
  return -1;
}

/* The flag of struct pointer s in a slot with a flag (track: written
 * with REF_VALUE, an earlier equal pointer as a reference): 1 when the
 * body follows, 0 when the flag is all (null or a reference), -1 on
 * error. */
static inline __attribute__((always_inline)) int
put_ptr_flag(menc *e, bool track, const void *s) {
  if (!room(e, 6)) return -1;
  uint8_t *q = e->b->p + e->b->len;
  if (!s) {
    *q = 0xFD;
    e->b->len++;
    return 0;
  }
  if (!track) {
    *q = 0xFF;
    e->b->len++;
    return 1;
  }
  wire_mem *m = e->m;
  int64_t id = ref_note(e, s);
  if (id >= 0) {
    *q++ = 0xFE;
    q = put_varu32(q, (uint32_t)id);
    e->b->len = (size_t)(q - e->b->p);
    return 0;
  }
  if (id < -1) return -1;
  m->e.nrefs++;
  *q = 0x00;
  e->b->len++;
  return 1;
}

/* The reference / null flag of a value with MF_FLAG, and whether the body
 * follows (*body). Struct pointers under tracking: an earlier equal
 * pointer is written as a reference. */
static bool enc_flag(menc *e, const wire_mop *o, const uint8_t *base,
                     bool *body) {
  *body = false;
  if (o->code == MOP_STRUCT_PTR && !(o->fl & MF_PRESENT)) {
    int r = put_ptr_flag(e, o->fl & MF_TRACK, eptr(e, base + o->off));
    *body = r > 0;
    return r >= 0;
  }
  if (!room(e, 6)) return false;
  uint8_t *q = e->b->p + e->b->len;
  if (is_null(o, base)) {
    *q = 0xFD;
    e->b->len++;
    return true;
  }
  *body = true;
  if (!(o->fl & MF_TRACK)) {
    *q = 0xFF;
    e->b->len++;
    return true;
  }
  wire_mem *m = e->m;
  if (o->code == MOP_STRUCT_PTR) { /* (with a presence flag) */
    const void *p = eptr(e, base + o->off);
    int64_t id = ref_note(e, p);
    if (id >= 0) {
      *q++ = 0xFE;
      q = put_varu32(q, (uint32_t)id);
      e->b->len = (size_t)(q - e->b->p);
      *body = false;
      return true;
    }
    if (id < -1) return false;
  }
  m->e.nrefs++;
  *q = 0x00;
  e->b->len++;
  return true;
}

/* What is_null answers for the values of op o: never true, true for a
 * NULL pointer at o->off alone, or something else. */
enum { NK_NEVER, NK_PTR, NK_OTHER };
static int null_kind(const wire_mop *o) {
  if (o->fl & MF_PRESENT) return NK_OTHER;
  switch (o->code) {
  case MOP_NONE: return NK_OTHER;
  case MOP_STRUCT_PTR: return NK_PTR;
  case MOP_STR: case MOP_BYTES: case MOP_LIST: case MOP_PLIST: case MOP_DENSE:
  case MOP_MAP:
    return o->ft->nullable ? NK_PTR : NK_NEVER;
  default: return NK_NEVER;
  }
}

/* The width of a number of wire type wt written at a fixed width (its
 * bytes little-endian), or 0. */
static inline uint32_t fixed_width(uint8_t wt) {
  switch (wt) {
  case WIRE_T_INT8: case WIRE_T_UINT8: return 1;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16:
  case WIRE_T_BFLOAT16: return 2;
  case WIRE_T_INT32: case WIRE_T_UINT32: case WIRE_T_FLOAT32: return 4;
  case WIRE_T_INT64: case WIRE_T_UINT64: case WIRE_T_FLOAT64: return 8;
  default: return 0;
  }
}

/* How the caller of list_begin writes a list's items: structs inline
 * without flags, struct pointers without flags, with flags, with flags
 * under tracking. */
enum { LI_INLINE, LI_PTR, LI_FLAG, LI_TRACK };

/* A tagged string at `it` (op so, no flag) when the text is trusted and
 * its header well-formed, written at *q (the caller's write position, *lim
 * the buffer's end, as for reserve; e->b->len is not kept): 1 when
 * written, 0 when it is anything else (the general writer then writes or
 * reports it), -1 on error. */
static inline __attribute__((always_inline)) int
put_tstr(menc *e, uintptr_t rel, const wire_mop *so, const uint8_t *it,
         uint8_t **q, uint8_t **lim) {
  const uint8_t *sp = rptr(rel, it + so->off);
  uint64_t h = ld_len(it, so), len = h >> 2;
  if ((h & 3) == 3 || len > UINT32_MAX || (len && !sp)) return 0;
  if (!reserve(e, q, lim, (size_t)len + 9)) return -1;
  uint8_t *w = put_varu64(*q, h);
  copy_mid(w, sp, (size_t)len);
  *q = w + len;
  return 1;
}

/* A UTF-8 string at `it` (op so, no flag, a 32-bit length; the caller
 * writes strings as given: no Java policy) when it is valid or not
 * checked (check: the text is not trusted), written at *q as put_tstr
 * writes: 1 when written, 0 when it is anything else (the general writer
 * then writes or reports it), -1 on error. */
static inline __attribute__((always_inline)) int
put_ustr(menc *e, uintptr_t rel, bool check, const wire_mop *so,
         const uint8_t *it, uint8_t **q, uint8_t **lim) {
  const uint8_t *sp = rptr(rel, it + so->off);
  uint32_t len;
  memcpy(&len, it + so->aux, 4);
  if ((len && !sp) || (check && !etext_ok(sp, len))) return 0;
  if (!reserve(e, q, lim, (size_t)len + 5)) return -1;
  uint8_t *w = put_varu64(*q, ((uint64_t)len << 2) | WIRE_STR_UTF8);
  copy_mid(w, sp, len);
  *q = w + len;
  return 1;
}

/* How a map's keys or values, or a list's items, that are strings
 * without flags go: put_tstr, put_ustr, or the general way. */
enum { SK_BODY, SK_TSTR, SK_USTR };
static inline int str_kind(const menc *e, const wire_mop *so) {
  if (so->code != MOP_STR) return SK_BODY;
  if (so->fl & MF_TAGGED) return e->ctx->trusted_text ? SK_TSTR : SK_BODY;
  return !(so->fl & MF_LEN64) && e->utf8_str ? SK_USTR : SK_BODY;
}

/* mop.ek of a map, made at bind: bits 0-1 the null kind (NK_*) of its
 * keys, bits 2-3 of its values; bits 4-5 the string kind its keys take
 * where the context allows it (ek_str), bits 6-7 its values'. */
#define EK_NK(ek, side) (((ek) >> (2 * (side))) & 3)
#define EK_SK(ek, side) (((ek) >> (4 + 2 * (side))) & 3)

/* The string kind of element op so where the context allows it: SK_TSTR
 * for tagged strings, SK_USTR for UTF-8 ones of a 32-bit length. */
static int str_kind_of(const wire_mop *so) {
  if (so->code != MOP_STR) return SK_BODY;
  if (so->fl & MF_TAGGED) return SK_TSTR;
  return so->fl & MF_LEN64 ? SK_BODY : SK_USTR;
}

void wire__menc_kinds(wire_mop *o) {
  if (o->code == MOP_MAP)
    o->ek = (uint8_t)(null_kind(&o->sub[0]) | null_kind(&o->sub[1]) << 2 |
                      str_kind_of(&o->sub[0]) << 4 |
                      str_kind_of(&o->sub[1]) << 6);
}

/* String kind sk (EK_SK) as e's context takes it (str_kind's answer):
 * tagged strings as given when the text is trusted, UTF-8 ones unless
 * the Java policy chooses their encodings. */
static inline int ek_str(const menc *e, int sk) {
  if (sk == SK_TSTR) return e->check_str ? SK_BODY : SK_TSTR;
  return sk == SK_USTR && e->utf8_str ? SK_USTR : SK_BODY;
}

/* The write position of put_tstr's callers, and the buffer's end. */
#define WPOS(q, lim) ((q) = e->b->p + e->b->len, (lim) = e->b->p + e->b->cap)

/* The items of a list of strings without flags (sk: SK_TSTR or SK_USTR):
 * the ones as given (tagged ones trusted) or valid UTF-8 inline, the
 * others the general way; 0 when written, -1 on error (a call of its
 * own: list_begin's other lists keep their registers). */
static int
put_strs(menc *e, const wire_mop *o, const uint8_t *items, uint64_t count,
         int sk) {
  const wire_mop *so = &o->sub[0];
  const uintptr_t rel = e->rel;
  const bool check = !e->ctx->trusted_text;
  uint8_t *q, *lim;
  WPOS(q, lim);
  for (uint64_t i = 0; i < count; i++) {
    const uint8_t *it = items + i * o->esize;
    int r = sk == SK_TSTR ? put_tstr(e, rel, so, it, &q, &lim)
                          : put_ustr(e, rel, check, so, it, &q, &lim);
    if (r > 0) continue;
    if (r < 0) return -1;
    e->b->len = (size_t)(q - e->b->p);
    if (!enc_body(e, so, it)) return -1;
    WPOS(q, lim);
  }
  e->b->len = (size_t)(q - e->b->p);
  return 0;
}

/* A list: 0 when written, -1 on error, 1 when it is a list of structs
 * whose head is written and whose items (*itemsp, *countp of them) the
 * caller writes: *how says how (LI_INLINE only when how is NULL). */
static int list_begin(menc *e, const wire_mop *o, const uint8_t *base,
                      const uint8_t **itemsp, uint64_t *countp, int *how) {
  const uintptr_t rel = e->rel;
  const uint8_t *items = rptr(rel, base + o->off);
  uint64_t count = ld_len(base, o);
  if (count > UINT32_MAX) return lfail(e, WIRE_E_LENGTH, "list too long");
  if (count && !items) return lfail(e, WIRE_E_ENCODE, "NULL list with a count");
  if (!room(e, 16)) return -1;
  uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)count);
  e->b->len = (size_t)(q - e->b->p);
  if (!count) return 0;
  if (o->code == MOP_PLIST) {
    *q++ = o->lh;
    e->b->len++;
    if (!(o->lh & WIRE_LF_DECL)) {
      *q++ = o->ewt;
      e->b->len++;
    }
    uint32_t w = form_size(o->eform);
    if (!room(e, count * 10)) return -1;
    wire_mop eo = {0};
    eo.wt = o->ewt;
    eo.form = o->eform;
    eo.fl = is_int_wt(o->ewt) && !int_fits(o->eform, o->ewt) ? MF_CHECK : 0;
    if (eo.wt == WIRE_T_VARINT32 && eo.form == WIRE_MEM_I32) {
      /* the common case, without a call per element */
      q = e->b->p + e->b->len;
      for (uint64_t i = 0; i < count; i++) {
        int32_t v;
        memcpy(&v, items + i * 4, 4);
        q = put_varu32(q, wire__zz32(v));
      }
      e->b->len = (size_t)(q - e->b->p);
      return 0;
    }
    if (eo.wt == WIRE_T_VARINT64 && eo.form == WIRE_MEM_I64) {
      q = e->b->p + e->b->len;
      for (uint64_t i = 0; i < count; i++) {
        int64_t v;
        memcpy(&v, items + i * 8, 8);
        q = put_varu64(q, wire__zz64(v));
      }
      e->b->len = (size_t)(q - e->b->p);
      return 0;
    }
    if (eo.wt == WIRE_T_BOOL && w == 1) {
      /* bools: bytes other than 0 true, eight at a time */
      q = put_bools(e->b->p + e->b->len, items, (size_t)count);
      e->b->len = (size_t)(q - e->b->p);
      return 0;
    }
    if (!eo.fl && fixed_width(eo.wt) == w) {
      /* fixed-width numbers held at their wire width (a little-endian
       * host, floats of their own form): the bytes as they are */
      wire__copy(e->b->p + e->b->len, items, (size_t)(count * w));
      e->b->len += (size_t)(count * w);
      return 0;
    }
    for (uint64_t i = 0; i < count; i++)
      if (!enc_prim_elem(e, &eo, items + i * w)) return -1;
    return 0;
  }
  const wire_mop *so = &o->sub[0];
  bool has_null = false;
  int nk = so->ft->nullable || (so->fl & MF_PRESENT) ? null_kind(so) : NK_NEVER;
  if (nk == NK_PTR) { /* (is_null's answer without its switch per item) */
    const uint8_t *it = items + so->off;
    for (uint64_t i = 0; i < count && !has_null; i++, it += o->esize)
      has_null = ld_ptr(it) == NULL;
  } else if (nk == NK_OTHER) {
    for (uint64_t i = 0; i < count && !has_null; i++)
      has_null = is_null(so, items + i * o->esize);
  }
  uint8_t h = has_null ? o->lh_null : o->lh;
  q = e->b->p + e->b->len;
  *q = h;
  e->b->len++;
  if ((h & WIRE_LF_SAME_TYPE) && !(h & WIRE_LF_DECL)) {
    if (so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR) {
      if (!put_meta(e, &e->m->layouts[so->elem])) return -1;
    } else {
      if (!room(e, 1)) return -1;
      e->b->p[e->b->len++] = so->wt;
    }
  } else if (!(h & WIRE_LF_DECL)) {
    return lfail(e, WIRE_E_UNSUPPORTED, "list elements of undeclared type");
  }
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  if (!flags && so->code == MOP_STRUCT) {
    *itemsp = items;
    *countp = count;
    if (how) *how = LI_INLINE;
    return 1;
  }
  if (how && so->code == MOP_STRUCT_PTR && !(so->fl & MF_PRESENT)) {
    *itemsp = items;
    *countp = count;
    *how = !flags ? LI_PTR
           : (h & WIRE_LF_TRACKING) && e->ctx->ref_tracking ? LI_TRACK
                                                            : LI_FLAG;
    return 1;
  }
  const int sk = flags ? SK_BODY : str_kind(e, so);
  if (sk != SK_BODY) return put_strs(e, o, items, count, sk);
  wire_mop fo = *so;
  fo.fl = (uint8_t)((fo.fl & ~(MF_TRACK | MF_META)) |
                    ((h & WIRE_LF_TRACKING) && e->ctx->ref_tracking &&
                             (wire__pol_trackable(so->wt) ||
                              so->code == MOP_STRUCT_PTR)
                         ? MF_TRACK : 0));
  for (uint64_t i = 0; i < count; i++) {
    const uint8_t *it = items + i * o->esize;
    if (flags) {
      bool body;
      if (!enc_flag(e, &fo, it, &body)) return -1;
      if (!body) continue;
    }
    if (!enc_body(e, so, it)) return -1;
  }
  return 0;
}

/* The items of a list of structs without flags (their depth counted
 * once). */
static bool enc_items(menc *e, const wire_mop *o, const uint8_t *items,
                      uint64_t count) {
  const wire_mop *so = &o->sub[0];
  const wire_mlayout *el = &e->m->layouts[so->elem];
  if (WIRE_UNLIKELY(++e->depth > e->max_depth))
    return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
  for (uint64_t i = 0; i < count; i++)
    if (!enc_fields(e, el, items + i * o->esize + so->off)) return false;
  e->depth--;
  return true;
}

static bool enc_list(menc *e, const wire_mop *o, const uint8_t *base) {
  const uint8_t *items;
  uint64_t count;
  int r = list_begin(e, o, base, &items, &count, NULL);
  return r == 0 || (r > 0 && enc_items(e, o, items, count));
}

static bool enc_map(menc *e, const wire_mop *o, const uint8_t *base) {
  const uintptr_t rel = e->rel;
  const uint8_t *items = rptr(rel, base + o->off);
  uint64_t count = ld_len(base, o);
  if (count > UINT32_MAX) return efail(e, WIRE_E_LENGTH, "map too large");
  if (count && !items) return efail(e, WIRE_E_ENCODE, "NULL map with a count");
  if (!room(e, 8)) return false;
  uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)count);
  e->b->len = (size_t)(q - e->b->p);
  const wire_mop *ko = &o->sub[0], *vo = &o->sub[1];
  /* the chunk header, made at bind; the declared key and value types
   * (wire__pol_map_decl's) are those it declares */
  const uint32_t h = o->lh;
  if (h & (WIRE_MF_KEY_TRACK | WIRE_MF_VAL_TRACK))
    return efail(e, WIRE_E_UNSUPPORTED, "tracked map entries");
  const bool kd = h & WIRE_MF_KEY_DECL, vd = h & WIRE_MF_VAL_DECL;
  /* strings inline: tagged ones as given (trusted), valid UTF-8 */
  const uint8_t ek = o->ek;
  const int ks = ek_str(e, EK_SK(ek, 0)), vs = ek_str(e, EK_SK(ek, 1));
  const bool check = e->check_str;
  const int kk = EK_NK(ek, 0), vk = EK_NK(ek, 1);
  uint64_t at = 0;
  while (at < count) {
    uint64_t size = count - at;
    if (size > WIRE_POL_CHUNK_MAX - 1) size = WIRE_POL_CHUNK_MAX - 1;
    /* null keys or values go in chunks of their own */
    uint64_t k;
    if (kk != NK_OTHER && vk != NK_OTHER) {
      /* (is_null's answers without its switch per entry) */
      for (k = 0; k < size; k++) {
        const uint8_t *it = items + (at + k) * o->esize;
        if ((kk == NK_PTR && !ld_ptr(it + ko->off)) ||
            (vk == NK_PTR && !ld_ptr(it + vo->off)))
          break;
      }
    } else {
      for (k = 0; k < size; k++) {
        const uint8_t *it = items + (at + k) * o->esize;
        if (is_null(ko, it) || is_null(vo, it)) break;
      }
    }
    if (k == 0) {
      const uint8_t *it = items + at * o->esize;
      bool kn = is_null(ko, it), vn = is_null(vo, it);
      uint32_t nh = wire__pol_null_chunk(kn, vn, kd ? o->ft->key : NULL,
                                         vd ? o->ft->value : NULL);
      if (!room(e, 1)) return false;
      e->b->p[e->b->len++] = (uint8_t)nh;
      if (!kn) {
        if (!kd) return efail(e, WIRE_E_UNSUPPORTED, "map key of undeclared type");
        if ((nh & WIRE_MF_KEY_TRACK) && !room(e, 1)) return false;
        if (nh & WIRE_MF_KEY_TRACK) e->b->p[e->b->len++] = 0xFF;
        if (!enc_body(e, ko, it)) return false;
      }
      if (!vn) {
        if (!vd) {
          if (vo->code != MOP_STRUCT && vo->code != MOP_STRUCT_PTR)
            return efail(e, WIRE_E_UNSUPPORTED, "map value of undeclared type");
          if (!room(e, 1)) return false;
          e->b->p[e->b->len++] = 0xFF;
          if (!enc_meta(e, &e->m->layouts[vo->elem])) return false;
        } else if (nh & WIRE_MF_VAL_TRACK) {
          if (!room(e, 1)) return false;
          e->b->p[e->b->len++] = 0xFF;
        }
        if (!enc_body(e, vo, it)) return false;
      }
      at++;
      continue;
    }
    size = k;
    if (!room(e, 2)) return false;
    e->b->p[e->b->len++] = (uint8_t)h;
    e->b->p[e->b->len++] = (uint8_t)size;
    if (!kd) {
      if (ko->code != MOP_STRUCT && ko->code != MOP_STRUCT_PTR)
        return efail(e, WIRE_E_UNSUPPORTED, "map key of undeclared type");
      if (!enc_meta(e, &e->m->layouts[ko->elem])) return false;
    }
    if (!vd) {
      if (vo->code != MOP_STRUCT && vo->code != MOP_STRUCT_PTR)
        return efail(e, WIRE_E_UNSUPPORTED, "map value of undeclared type");
      if (!enc_meta(e, &e->m->layouts[vo->elem])) return false;
    }
    uint8_t *lim;
    WPOS(q, lim);
    for (uint64_t i = 0; i < size; i++) {
      const uint8_t *it = items + (at + i) * o->esize;
      int r = ks == SK_TSTR   ? put_tstr(e, rel, ko, it, &q, &lim)
              : ks == SK_USTR ? put_ustr(e, rel, check, ko, it, &q, &lim)
                              : 0;
      if (r < 0) return false;
      if (!r) {
        e->b->len = (size_t)(q - e->b->p);
        if (!enc_body(e, ko, it)) return false;
        WPOS(q, lim);
      }
      r = vs == SK_TSTR   ? put_tstr(e, rel, vo, it, &q, &lim)
          : vs == SK_USTR ? put_ustr(e, rel, check, vo, it, &q, &lim)
                          : 0;
      if (r < 0) return false;
      if (!r) {
        e->b->len = (size_t)(q - e->b->p);
        if (!enc_body(e, vo, it)) return false;
        WPOS(q, lim);
      }
    }
    e->b->len = (size_t)(q - e->b->p);
    at += size;
  }
  return true;
}

/* The type meta of a union case value of op c (not a struct: those have
 * their own): its declared type's id, an enum's user id after it. */
static bool enc_case_meta(menc *e, const wire_mop *c) {
  if (!room(e, 6)) return false;
  uint8_t *q = e->b->p + e->b->len;
  const wire_ftype *f = c->ft;
  if (c->code == MOP_ENUM) {
    *q++ = WIRE_T_ENUM;
    q = put_varu32(q, e->ctx->reg->types[f->user].user_id);
  } else {
    *q++ = f->type_id;
  }
  e->b->len = (size_t)(q - e->b->p);
  return true;
}

/* A union (R-UNION-2): the case id, then the case value as a full slot. */
static bool enc_union(menc *e, const wire_mop *o, const uint8_t *base) {
  uint32_t id;
  memcpy(&id, base + o->aux, 4);
  const wire_mlayout *ul = &e->m->layouts[o->elem];
  const wire_mop *c = NULL;
  for (uint32_t k = 0; k < ul->plan.nops && !c; k++)
    if (ul->plan.ops[k].local == id) c = &ul->plan.ops[k];
  if (!c || c->code == MOP_NONE)
    return efail(e, WIRE_E_ENCODE, "union case not bound to memory");
  if (!room(e, 5)) return false;
  uint8_t *q = put_varu32(e->b->p + e->b->len, id);
  e->b->len = (size_t)(q - e->b->p);
  const uint8_t *vb = base + o->off;
  bool body;
  if (!enc_flag(e, c, vb, &body)) return false;
  if (!body) return true;
  if (c->fl & MF_META) {
    if (!enc_meta(e, &e->m->layouts[c->elem])) return false;
  } else if (!enc_case_meta(e, c)) {
    return false;
  }
  return enc_body(e, c, vb);
}

static bool enc_body(menc *e, const wire_mop *o, const uint8_t *base) {
  if (!room(e, 16)) return false;
  const uint8_t *p = base + o->off;
  switch (o->code) {
  case MOP_INT:
    return enc_int(e, o, ld_u(p, o->form));
  case MOP_ENUM: {
    uint64_t v = ld_u(p, o->form);
    if (v > UINT32_MAX || (form_signed(o->form) && (int64_t)v < 0))
      return efail(e, WIRE_E_ENCODE, "enum value out of range");
    uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)v);
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  case MOP_BOOL:
    e->b->p[e->b->len++] = *p ? 1 : 0;
    return true;
  case MOP_BITS16:
    memcpy(e->b->p + e->b->len, p, 2);
    e->b->len += 2;
    return true;
  case MOP_F32: /* from a double: rounded, a NaN's bits kept (internal.h) */
    if (o->form == WIRE_MEM_F32) memcpy(e->b->p + e->b->len, p, 4);
    else { uint64_t u; memcpy(&u, p, 8); uint32_t x = wire__f32_narrow(u); memcpy(e->b->p + e->b->len, &x, 4); }
    e->b->len += 4;
    return true;
  case MOP_F64: /* from a float: widened, a NaN's bits kept */
    if (o->form == WIRE_MEM_F64) memcpy(e->b->p + e->b->len, p, 8);
    else { uint32_t x; memcpy(&x, p, 4); uint64_t u = wire__f32_widen(x); memcpy(e->b->p + e->b->len, &u, 8); }
    e->b->len += 8;
    return true;
  case MOP_STR:
    if (o->fl & MF_TAGGED) return enc_str_tagged(e, eptr(e, p), ld_len(base, o));
    return enc_str(e, eptr(e, p), ld_len(base, o));
  case MOP_BYTES: case MOP_DENSE: {
    const uint8_t *d = eptr(e, p);
    uint64_t n = ld_len(base, o);
    uint32_t w = o->code == MOP_DENSE ? form_size(o->eform) : 1;
    if (n > UINT32_MAX / (w ? w : 1))
      return efail(e, WIRE_E_LENGTH, "payload longer than 4 GiB");
    if (n && !d) return efail(e, WIRE_E_ENCODE, "NULL data with a length");
    uint32_t ww = o->code == MOP_DENSE ? wire_type_array_width(o->wt) : 1;
    if (!room(e, 5 + n * ww + 8)) return false;
    uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)(n * ww));
    if (o->code == MOP_DENSE && o->ewt == WIRE_T_BOOL) {
      /* bytes of bool memory other than 0 are true, as for a bool field */
      for (uint64_t i = 0; i < n; i++) q[i] = d[i * w] ? 1 : 0;
      e->b->len = (size_t)(q - e->b->p) + (size_t)n;
      return true;
    }
    if (o->code == MOP_BYTES || natural_form(o->ewt) == o->eform) {
      if (n) wire__copy(q, d, (size_t)(n * ww));
      e->b->len = (size_t)(q - e->b->p) + (size_t)(n * ww);
      return true;
    }
    e->b->len = (size_t)(q - e->b->p);
    for (uint64_t i = 0; i < n; i++) {
      uint64_t raw = ld_u(d + i * w, o->eform);
      if (!int_in_range(raw, o->eform, o->ewt))
        return efail(e, WIRE_E_ENCODE, "array element out of range");
      q = put_le(e->b->p + e->b->len, raw, (int)ww);
      e->b->len += ww;
    }
    return true;
  }
  case MOP_LIST: case MOP_PLIST:
    return enc_list(e, o, base);
  case MOP_MAP:
    return enc_map(e, o, base);
  case MOP_UNION:
    if (WIRE_UNLIKELY(++e->depth > e->max_depth))
      return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
    if (!enc_union(e, o, base)) return false;
    e->depth--;
    return true;
  case MOP_STRUCT:
    return enc_struct_body(e, &e->m->layouts[o->elem], p);
  case MOP_STRUCT_PTR: {
    const uint8_t *s = eptr(e, p);
    if (!s) return efail(e, WIRE_E_ENCODE, "NULL struct pointer in a "
                                           "non-nullable slot");
    return enc_struct_body(e, &e->m->layouts[o->elem], s);
  }
  case MOP_DATE: {
    int64_t v;
    memcpy(&v, p, 8);
    uint8_t *q = put_varu64(e->b->p + e->b->len, wire__zz64(v));
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  case MOP_TIMESTAMP: case MOP_DURATION: {
    wire_mem_time t;
    memcpy(&t, p, sizeof t);
    if (t.nanos >= 1000000000u)
      return efail(e, WIRE_E_ENCODE, "nanoseconds out of range");
    uint8_t *q = e->b->p + e->b->len;
    if (o->code == MOP_TIMESTAMP) q = put_le(q, (uint64_t)t.seconds, 8);
    else q = put_varu64(q, wire__zz64(t.seconds));
    q = put_le(q, t.nanos, 4);
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  case MOP_DECIMAL: {
    wire_mem_decimal dv;
    memcpy(&dv, p, sizeof dv);
    dv.magnitude = eptr(e, p + offsetof(wire_mem_decimal, magnitude));
    if (dv.len && !dv.magnitude)
      return efail(e, WIRE_E_ENCODE, "NULL decimal magnitude");
    uint8_t *q = put_small_dec(e->b->p + e->b->len, &dv); /* (room: above) */
    if (q) {
      e->b->len = (size_t)(q - e->b->p);
      return true;
    }
    return wire__enc_decimal(&e->m->e, dv.scale, dv.negative != 0,
                             dv.magnitude, dv.len); /* e->b is &m->e.b */
  }
  default:
    return efail(e, WIRE_E_ENCODE, "value has no encoding");
  }
}

/* A struct enc_fields writes inside another without a call: where the
 * outer one goes on, and for the items of a list the ones left. */
typedef struct {
  const wire_mop *o;       /* the outer struct's op, resumed after it */
  const uint8_t *base;     /* the outer struct's memory */
  const wire_mlayout *l;   /* list items: their layout (NULL: a struct) */
  const uint8_t *item;     /* list items: the next one's memory */
  uint64_t left;           /* list items: how many from it on */
  uint32_t stride;
  int how;                 /* list items: LI_* */
} eframe;

/* The next item of list frame f to write a body for (flags and
 * references written on the way): 1 with its memory at *basep, 0 when
 * the list is done, -1 on error. */
static inline int next_item(menc *e, eframe *f, const uint8_t **basep) {
  while (f->left) {
    const uint8_t *it = f->item;
    f->item += f->stride;
    f->left--;
    if (f->how == LI_INLINE) {
      *basep = it;
      return 1;
    }
    const uint8_t *s = eptr(e, it);
    if (f->how != LI_PTR) {
      int r = put_ptr_flag(e, f->how == LI_TRACK, s);
      if (r < 0) return -1;
      if (!r) continue;
    } else if (!s) {
      return lfail(e, WIRE_E_ENCODE, "NULL struct pointer in a "
                                     "non-nullable slot");
    }
    *basep = s;
    return 1;
  }
  return 0;
}

/* How deep enc_fields nests structs (inline ones and lists of them
 * without flags) in one call; deeper ones take a call each. */
#define ENC_NEST 16

/* The last MX_ value (mem.h): the struct loop's tables (mem_enc_loop.h)
 * have a label for every one up to it and no range check; an MX_ value
 * added to mem.h needs its label there (the general path's, `slow`, when
 * it is the decoder's only), and this number changed. A struct's ops end
 * with one of MX_END (wire__mem_plan_end): the loop has no bound to
 * compare with. */
#define ENC_MX_LAST 22
_Static_assert(MX_STRF == ENC_MX_LAST,
               "a new MX_ case: give it a label in the struct loop's tables");

/* (GCC alone knows noclone: the loop's label tables are its own) */
#if defined(__GNUC__) && !defined(__clang__)
#define ENC_NOCLONE __attribute__((noclone))
#else
#define ENC_NOCLONE
#endif

/* The struct loops' next op (o, its memory p), its case jumped to
 * through their table (a jump each case). */
#define NEXT            \
  do {                  \
    o++;                \
    p = base + o->off;  \
    goto *tab[o->ex];   \
  } while (0)

/* The struct loop, compiled twice: for images as they are, and for the
 * images of wire_mem_encode_based (their pointers relocated). */
#define ENC_LOOP fields_plain
#define ENC_BASED 0
#include "mem_enc_loop.h"
#undef ENC_LOOP
#undef ENC_BASED
#define ENC_LOOP fields_based
#define ENC_BASED 1
#include "mem_enc_loop.h"
#undef ENC_LOOP
#undef ENC_BASED

/* The fields of a struct of a flat plan (wire_mplan.flat: numbers and
 * bools alone, no pointer), without the struct loop's state: its cases of
 * those values, and the general path for a varint32 held as an int64. */
static __attribute__((noinline)) ENC_NOCLONE bool
fields_flat(menc *e, const wire_mlayout *l, const uint8_t *base) {
  static const void *const tab[ENC_MX_LAST + 1] = {
      [MX_SLOW] = &&slow, [MX_VI32] = &&c_VI32, [MX_VI64] = &&c_VI64,
      [MX_BOOL] = &&c_BOOL, [MX_ENUM] = &&c_ENUM, [MX_F32] = &&c_F32,
      [MX_F64] = &&c_F64, [MX_STR] = &&slow, [MX_VI32_64] = &&slow,
      [MX_TSTR] = &&slow, [MX_DENSE] = &&slow, [MX_RUN] = &&c_RUN,
      [MX_BOOLS] = &&slow, [MX_NEST] = &&slow, [MX_LIST] = &&slow,
      [MX_END] = &&done, [MX_SPTR] = &&slow, [MX_DEC] = &&slow,
      [MX_TIME] = &&slow, [MX_TSTRF] = &&slow, [MX_LTSTR] = &&slow,
      [MX_LSPTR] = &&slow, [MX_STRF] = &&slow};
  wire_buf *b = e->b;
  const bool bmi2 = enc_bmi2;
  uint8_t *q, *lim;
  WPOS(q, lim);
  if (e->hashed &&
      (l->kind == WIRE_T_STRUCT || l->kind == WIRE_T_NAMED_STRUCT)) {
    if (!reserve(e, &q, &lim, 4)) return false;
    q = put_le(q, l->hash, 4);
  }
  const wire_mop *o = l->plan.ops;
  if (!reserve(e, &q, &lim, o->rest)) return false;
  const uint8_t *p = base + o->off;
  goto *tab[o->ex];
#include "mem_enc_nums.h" /* (c_RUN ... c_F64) */
slow: /* (no flag or meta in a flat plan) */
  b->len = (size_t)(q - b->p);
  if (!enc_body(e, o, base)) return false;
  if (!room(e, o[1].rest + 8)) return false;
  WPOS(q, lim);
  NEXT;
done:
  b->len = (size_t)(q - b->p);
  return true;
}
#undef NEXT

static bool enc_fields(menc *e, const wire_mlayout *l, const uint8_t *base) {
  if (l->plan.flat) return fields_flat(e, l, base);
  return e->rel ? fields_based(e, l, base) : fields_plain(e, l, base);
}

static bool enc_struct_body(menc *e, const wire_mlayout *l,
                            const uint8_t *base) {
  if (WIRE_UNLIKELY(++e->depth > e->max_depth))
    return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
  if (!enc_fields(e, l, base)) return false;
  e->depth--;
  return true;
}

/* The root's header, reference flag and type meta. */
static bool put_root(menc *e, const wire_mlayout *l, const void *value) {
  wire_ctx *ctx = e->ctx;
  wire_mem *m = e->m;
  wire_buf *b = e->b;
  if (l->td && !ctx->ref_tracking) {
    /* the usual root: xlang header, not-null flag, the type meta with the
     * TypeDef announced as #0, stored together at bind (td - 4) */
    size_t n = 4 + (size_t)l->td_len;
    if (!room(e, n)) return false;
    copy_mid(b->p + b->len, l->td - 4, n);
    b->len += n;
    m->td_gen[l->type] = m->gen;
    m->td_idx[l->type] = 0;
    m->next_td = 1;
    return true;
  }
  if (!room(e, 2)) return false;
  b->p[b->len++] = 0x01;
  /* the root: a slot of undeclared type */
  if (ctx->ref_tracking) {
    /* the root is reference 0 */
    b->p[b->len++] = 0x00;
    memset(e->rh, 0, sizeof e->rh);
    if (!ref_add(e, value)) return false;
    m->e.nrefs = 1;
  } else {
    b->p[b->len++] = 0xFF;
  }
  return enc_meta(e, l);
}

static int32_t mem_encode(wire_ctx *ctx, uint32_t layout, const void *value,
                          uintptr_t rel, wire_buf *b) {
  if (!ctx->mem || layout >= ctx->mem->n)
    return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_mem *m = ctx->mem;
  wire__mem_mode(ctx, m);
  wire_mlayout *l = &m->layouts[layout];
  if (WIRE_UNLIKELY(!l->bound)) {
    int32_t st = wire_mem_bind(ctx, layout);
    if (st) return st;
    l = &m->layouts[layout];
  }
  if (!value) return wire__fail(ctx, WIRE_E_ARG, 0, "no value");
  if (!l->is_struct)
    return wire__fail(ctx, WIRE_E_ARG, 0, "layout %u is not a struct's", layout);
  menc e; /* (field by field: e.rh is cleared by put_root under tracking) */
  e.ctx = ctx, e.m = m, e.b = b, e.rel = rel;
  e.utf8_str = ctx->string_policy != WIRE_STRING_JAVA;
  e.check_str = !ctx->trusted_text;
  e.hashed = !ctx->compatible;
  e.max_depth = ctx->max_depth;
  if (++m->gen == 0) {
    memset(m->td_gen, 0, m->ntd * sizeof *m->td_gen);
    m->gen = 1;
  }
  m->next_td = 0;
  m->nref = 0;
  m->e.nrefs = 0;
  /* the root's body at depth 1, within every limit (at least 1) */
  e.depth = 1;
  bool okk = put_root(&e, l, value) && enc_fields(&e, l, value);
  wire__enc_end_root(&m->e);
  if (!okk) return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  return WIRE_OK;
}

static int32_t encode_rel(wire_ctx *ctx, uint32_t layout, const void *value,
                          uintptr_t rel, const uint8_t **out,
                          size_t *out_len) {
  if (!ctx || !out || !out_len) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  if (ctx->err_code) wire_ctx_clear_error(ctx);
  wire_mem *m = ctx->mem;
  if (!m) return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_buf *b = &m->e.b;
  b->len = 0;
  b->status = WIRE_OK;
  int32_t st = mem_encode(ctx, layout, value, rel, b);
  if (st) return st;
  *out = b->p;
  *out_len = b->len;
  return WIRE_OK;
}

int32_t wire_mem_encode(wire_ctx *ctx, uint32_t layout, const void *value,
                        const uint8_t **out, size_t *out_len) {
  return encode_rel(ctx, layout, value, 0, out, out_len);
}

int32_t wire_mem_encode_based(wire_ctx *ctx, uint32_t layout,
                              const void *value, uint64_t base,
                              const uint8_t **out, size_t *out_len) {
  if (!base) {
    if (out) *out = NULL;
    if (out_len) *out_len = 0;
    return ctx ? wire__fail(ctx, WIRE_E_ARG, 0, "base 0") : WIRE_E_ARG;
  }
  /* (unsigned arithmetic: value + (p - base) for every pointer p) */
  return encode_rel(ctx, layout, value,
                    (uintptr_t)value - (uintptr_t)base, out, out_len);
}

int32_t wire_mem_encode_to(wire_ctx *ctx, uint32_t layout, const void *value,
                           uint8_t *buf, size_t cap, size_t *out_len) {
  const uint8_t *p;
  size_t n;
  if (!out_len || (!buf && cap)) return WIRE_E_ARG;
  *out_len = 0;
  int32_t st = wire_mem_encode(ctx, layout, value, &p, &n);
  if (st) return st;
  *out_len = n;
  if (n > cap)
    return wire__fail(ctx, WIRE_E_BUFFER_FULL, cap, "%zu bytes needed", n);
  memcpy(buf, p, n);
  return WIRE_OK;
}
