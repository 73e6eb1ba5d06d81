/* mem_dec.c - compiled codecs, the decoder: the values of a struct by a
 * bound layout's op sequence (mem.h), or the cached mapping of a writer's
 * TypeDef, stored into native memory (wire_mem_decode, mem_dec_root.c,
 * starts it). It reads untrusted bytes with the checks of the document
 * decoder (dec.h): bounds before use, counts against the bytes left and
 * the limits, the depth limit, UTF-8. */
#include "mem_dec.h"

#if defined(__GNUC__) && !defined(__clang__)
/* the struct loops gain ~4% Ir at -O3 (inlining into the op switch) */
#pragma GCC optimize("O3")
#endif

#include "mem_dec_read.h"

#include <stdlib.h>

#define plan_for_td wire__mdec_plan_for_td
#define push_td wire__mdec_push_td_fast
#define dec_meta wire__mdec_meta
#define zero_op wire__mdec_zero_op
#define zero_struct wire__mdec_zero_struct
#define zero_any wire__mdec_zero_any

/* One struct value's body (its type meta read) by plan p into base; the
 * bodies of `count` list items (mem_dec.c, below). */
static bool dec_struct_body(mdec *x, const wire_mplan *p,
                            const wire_mlayout *l, uint8_t *base);
static bool dec_struct_items(mdec *x, const wire_mplan *p,
                             const wire_mlayout *l, uint8_t *base,
                             size_t stride, uint32_t count);

static bool dec_str(mdec *x, const wire_mop *o, uint8_t *base,
                    bool binary) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p, *p;
  uint64_t len;
  int32_t enc = WIRE_STR_UTF8;
  if (binary) {
    uint32_t n;
    if (!wire__dec_bytes(&x->d, WIRE_T_BINARY, &p, &n)) return false;
    len = n;
  } else {
    /* fast path: short UTF-8 strings */
    uint64_t h;
    if (WIRE_LIKELY(in->p < in->end && in->p[0] < 0x80 && (in->p[0] & 3) == 2)) {
      h = *in->p++;
      len = h >> 2;
      if (WIRE_UNLIKELY((size_t)(in->end - in->p) < len))
        return wire__truncated(in, (size_t)len);
      p = in->p;
      in->p += len;
      if (!text_ok(p, (size_t)len, in->end))
        return dfail(x, WIRE_E_STRING, p + wire__utf8_check(p, (size_t)len),
                     "invalid UTF-8"); /* (at its first bad byte) */
    } else {
      in->p = s;
      if (!wire__dec_string(&x->d, &enc, &p, &len)) return false;
    }
  }
  (void)s;
  if (o->fl & MF_TAGGED) {
    /* left in its wire encoding; the length word gets the header */
    if (x->copy && len) {
      uint8_t *q = aalloc(x, (size_t)len, 1);
      if (!q) return wire__mdec_afail(x, s);
      wire__copy(q, p, (size_t)len);
      p = q;
    }
    if (!(o->fl & MF_LEN64) && len > (UINT32_MAX >> 2))
      return dfail(x, WIRE_E_LIMIT, s, "length does not fit the layout");
    st_ptr(base + o->off, len ? p : (const uint8_t *)"");
    st_len(base, o, (len << 2) | (uint64_t)enc);
    return true;
  }
  if (enc != WIRE_STR_UTF8) {
    size_t ul = wire__string_utf8_len(enc, p, (size_t)len);
    uint8_t *q = aalloc(x, ul ? ul : 1, 1);
    if (!q) return wire__mdec_afail(x, s);
    wire__string_to_utf8(enc, p, (size_t)len, q);
    p = q;
    len = ul;
  } else if (x->copy && len) {
    uint8_t *q = aalloc(x, (size_t)len, 1);
    if (!q) return wire__mdec_afail(x, s);
    wire__copy(q, p, (size_t)len);
    p = q;
  }
  st_ptr(base + o->off, len ? p : (const uint8_t *)"");
  if (!(o->fl & MF_LEN64) && len > UINT32_MAX)
    return dfail(x, WIRE_E_LIMIT, s, "length does not fit the layout");
  st_len(base, o, len);
  return true;
}

static bool dec_body(mdec *x, const wire_mop *o, uint8_t *base);

/* A tagged string at c that l1_head does not take (not Latin-1, or a
 * longer header, or an error), op so, item it: fast_tstr, else dec_body,
 * which reads or reports it. The cursor after it, NULL on error. (The
 * fallback of the Latin-1 loops of lists and maps.) */
static const uint8_t *tstr_other(mdec *x, const wire_mop *so, uint8_t *it,
                                 const uint8_t *c, const uint8_t *end) {
  const uint8_t *t = fast_tstr(x, so, it, c, end);
  if (t) return t;
  IN(x)->p = c;
  return dec_body(x, so, it) ? IN(x)->p : NULL;
}

/* The usual list items, inline structs of one plan (ep) or strings
 * (UTF-8 or tagged), without flags or type meta of their own: what the
 * general loop of dec_list does for them, in a loop of their own. */
ALWAYS_INLINE bool dec_items(mdec *x, const wire_mop *so, const wire_mplan *ep,
                        uint8_t *items, size_t stride, uint32_t count) {
  wire_in *in = IN(x);
  const uint8_t *prev = in->p;
  if (so->code == MOP_STRUCT)
    return dec_struct_items(x, ep, &x->m->layouts[so->elem], items + so->off,
                            stride, count);
  if (so->code == MOP_STRUCT_PTR) {
    /* the images one after the other at the 8-byte stride the items'
     * allocations one by one would have (the same arena bytes), cleared
     * at once, read as the items of a list of inline structs */
    const wire_mlayout *el = &x->m->layouts[so->elem];
    size_t sz = el->size ? el->size : 1, is = (sz + 7) & ~(size_t)7;
    if ((size_t)count - 1 > (SIZE_MAX - sz) / is)
      return wire__mdec_afail_over(x, prev);
    size_t all = ((size_t)count - 1) * is + sz;
    uint8_t *img = aalloc(x, all, 8);
    if (!img) return wire__mdec_afail(x, prev);
    zero_img(img, all);
    for (uint32_t i = 0; i < count; i++)
      st_ptr(items + (size_t)i * stride + so->off, img + (size_t)i * is);
    return dec_struct_items(x, ep, el, img, is, count);
  }
  /* (a string takes one byte at least, its header: no item is empty,
   * so none draws on the zero-width budget) */
  if ((so->fl & MF_TAGGED) && !x->copy) { /* (MDI_TSTR) */
    /* (the tag sets of the JVM: Latin-1 items not copied, the op's
     * fields held in registers; any other item by fast_tstr, then
     * dec_body) */
    const uint32_t off = so->off, aux = so->aux;
    const bool len64 = (so->fl & MF_LEN64) != 0;
    const uint64_t max = x->max_bin;
    const uint8_t *c = in->p, *const end = in->end, *t;
    for (uint32_t i = 0; i < count; i++) {
      uint8_t *it = items + (size_t)i * stride;
      uint32_t n;
      if (WIRE_LIKELY((t = l1_head(c, end, max, &n)) != NULL)) {
        tstr_store(it, off, aux, len64, t, n);
        c = t + (n >> 2);
        continue;
      }
      if (!(c = tstr_other(x, so, it, c, end))) return false;
    }
    in->p = c;
    return true;
  }
  bool tagged = (so->fl & MF_TAGGED) != 0; /* (copied) */
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *it = items + (size_t)i * stride;
    const uint8_t *np = tagged ? fast_tstr(x, so, it, in->p, in->end)
                               : fast_str(x, so, it, in->p, in->end);
    if (WIRE_LIKELY(np != NULL)) in->p = np;
    else if (!dec_body(x, so, it)) return false;
  }
  return true;
}

/* A list of the usual items (o->ditems) in its usual form, read without
 * the general front's cases of dec_list: a count of at most five bytes,
 * not 0, and a header without flags (structs: their type meta next, or
 * declared outside compatible mode; strings: declared, or their type id
 * next). 1 when read, 0 on error (reported where dec_list reports it:
 * the checks up to the header are dec_list's own, in its order), -1 with
 * nothing read or changed for any other form (dec_list then reads it).
 * Lists of numbers: wire__mdec_plist_list, in a file of its own (here,
 * its registers cost the other lists more). */
ALWAYS_INLINE int list_usual(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p, *hp;
  uint32_t count;
  if (!fast_u32(s, in->end, &count, &hp) || !count || hp >= in->end) return -1;
  const wire_mop *so = &o->sub[0];
  bool st = o->ditems == MDI_STRUCT || o->ditems == MDI_SPTR, meta = false;
  uint8_t h = hp[0];
  const uint8_t *c = hp + 1; /* (after the header and a type id) */
  if (h == WIRE_LF_SAME_TYPE) {
    if (st) {
      meta = true;
    } else {
      if (c >= in->end || *c != so->wt) return -1;
      c++;
    }
  } else if ((h & ~WIRE_LF_SAME_TYPE) != WIRE_LF_DECL ||
             (st && x->ctx->compatible)) {
    /* (struct pointers with flags: a loop of their own) */
    return o->ditems == MDI_SPTR && (h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING))
               ? wire__mdec_list_sptrs(x, o, base, s, hp, count)
               : -1;
  }
  in->p = hp;
  if (!dcount(x, s, count, st ? 0 : 1)) return 0;
  size_t stride = o->esize;
  if (stride && count > SIZE_MAX / stride) return wire__mdec_afail_over(x, s);
  uint8_t *items = aalloc(x, (size_t)count * stride, 8);
  if (!items) return wire__mdec_afail(x, s);
  st_ptr(base + o->off, items);
  st_len(base, o, count);
  in->p = c;
  const wire_mplan *ep = NULL;
  if (st) {
    ep = meta ? meta_fast(x, so->elem) : &x->m->layouts[so->elem].plan;
    if (!ep) return 0;
  }
  if (!menter(x) || !dec_items(x, so, ep, items, stride, count))
    return 0;
  x->d.depth--;
  return 1;
}

/* The elements of a list after its count. */
static bool dec_list(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  if (o->ditems) {
    int r = list_usual(x, o, base);
    if (r >= 0) return r;
  }
  const uint8_t *s = in->p;
  uint32_t count;
  if (!wire__get_varu32(in, &count)) return false;
  bool packed = o->code == MOP_PLIST;
  const wire_mop *so = packed ? NULL : &o->sub[0];
  bool is_struct = so && (so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR);
  /* (struct items may take no bytes: an empty body) */
  if (!dcount(x, s, count, is_struct ? 0 : 1)) return false;
  size_t stride = packed ? form_size(o->eform) : o->esize;
  if (stride && count > SIZE_MAX / stride)
    return wire__mdec_afail_over(x, s);
  uint8_t *items = NULL;
  if (count) {
    items = aalloc(x, (size_t)count * stride, 8);
    if (!items) return wire__mdec_afail(x, s);
  }
  st_ptr(base + o->off, count ? items : (const uint8_t *)"");
  st_len(base, o, count);
  if (!count) return true;
  const uint8_t *hs = in->p;
  uint8_t h;
  if (!wire__get_u8(in, &h)) return false;
  if (h & 0xF0) return dfail(x, WIRE_E_COLLECTION, hs, "element header has "
                                                       "reserved bits");
  uint8_t ewt = packed ? o->ewt : so->wt;
  const wire_mplan *ep = NULL;
  bool same = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if ((h & WIRE_LF_SAME_TYPE) && !(h & WIRE_LF_DECL)) {
    if (is_struct) {
      if (!(ep = meta_fast(x, so->elem))) return false;
    } else {
      const uint8_t *ts = in->p;
      uint8_t t;
      if (!wire__get_u8(in, &t)) return false;
      if (t != ewt) return dfail(x, WIRE_E_SCHEMA, ts, "list element type "
                                                      "differs from the "
                                                      "declared one");
    }
  } else if ((h & WIRE_LF_DECL) && is_struct && x->ctx->compatible) {
    return dfail(x, WIRE_E_COLLECTION, hs, "declared struct elements in "
                                           "compatible mode");
  } else if (h & WIRE_LF_DECL) {
    ep = is_struct ? &x->m->layouts[so->elem].plan : NULL;
  }
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  bool track = h & WIRE_LF_TRACKING;
  if (!menter(x)) return false;
  /* (o->ditems: a list, not packed, of the usual items) */
  if (!flags && same) {
    if (o->ditems &&
        ((o->ditems != MDI_STRUCT && o->ditems != MDI_SPTR) || ep != NULL)) {
      if (!dec_items(x, so, ep, items, stride, count)) return false;
      x->d.depth--;
      return true;
    }
    if (packed && wire__mdec_plist(x, o, items, count)) {
      x->d.depth--;
      return true;
    }
  }
  /* an element that takes no bytes (an empty struct) draws on the
   * payload's zero-width budget (R-SEC-11), checked as the next begins */
  const uint8_t *prev = in->p;
  for (uint32_t i = 0; i < count; i++) {
    if (i && !wire__dec_took_bytes(&x->d, prev)) return false;
    prev = in->p;
    uint8_t *it = items + (size_t)i * stride;
    const wire_mplan *pp = ep;
    uint32_t rid = NOTYPE; /* reference id of a tracked struct pointer */
    if (flags) {
      int r = item_flag(x, o, so, it, stride, track, &rid);
      if (r < 0) return false;
      if (!r) continue;
    } else if (so && (so->fl & MF_PRESENT)) {
      it[so->present] = 1;
    }
    if (!same) {
      const uint8_t *ts = in->p;
      if (is_struct) {
        if (!(pp = dec_meta(x, so->elem))) return false;
      } else {
        uint8_t t;
        if (!wire__get_u8(in, &t)) return false;
        if (t != ewt) return dfail(x, WIRE_E_SCHEMA, ts, "list element of "
                                                        "another type");
      }
    }
    if (packed) {
      uint64_t raw;
      const uint8_t *vs = in->p;
      if (!dec_int_raw(x, ewt, &raw)) return false;
      if (is_int_wt(ewt) && !form_in_range(raw, ewt, o->eform))
        return dfail(x, WIRE_E_VALUE, vs, "list element out of the range of "
                                          "the layout's integer");
      /* (a float is stored at its own width: compile_coll gives a
       * packed list of floats the element form of its wire type) */
      st_u(it, o->eform, raw);
      continue;
    }
    if (is_struct && pp) {
      wire_mlayout *el = &x->m->layouts[so->elem];
      uint8_t *sb = it + so->off;
      if (so->code == MOP_STRUCT_PTR) {
        sb = aalloc(x, el->size ? el->size : 1, 8);
        if (!sb) return wire__mdec_afail(x, in->p);
        memset(sb, 0, el->size);
        st_ptr(it + so->off, sb);
        if (rid != NOTYPE) {
          x->m->dref[rid] = sb;
          x->m->dref_layout[rid] = so->elem;
        }
      }
      if (!dec_struct_body(x, pp, el, sb)) return false;
      continue;
    }
    if (so->code == MOP_STR && fast_form(so)) {
      const uint8_t *np = so->fl & MF_TAGGED
                              ? fast_tstr(x, so, it, in->p, in->end)
                              : fast_str(x, so, it, in->p, in->end);
      if (WIRE_LIKELY(np != NULL)) {
        in->p = np;
        continue;
      }
    }
    if (!dec_body(x, so, it)) return false;
  }
  if (count && !wire__dec_took_bytes(&x->d, prev)) return false;
  x->d.depth--;
  return true;
}

/* The n entries of a map chunk of tagged strings to tagged strings, not
 * copied, at items (stride apart): Latin-1 keys and values by l1_head,
 * any other string by fast_tstr, then dec_body, as dec_map reads them. */
static bool l1_entries(mdec *x, const wire_mop *ko, const wire_mop *vo,
                       uint8_t *items, size_t stride, uint32_t n) {
  wire_in *in = IN(x);
  const uint32_t koff = ko->off, kaux = ko->aux, voff = vo->off,
                 vaux = vo->aux;
  const bool k64 = (ko->fl & MF_LEN64) != 0, v64 = (vo->fl & MF_LEN64) != 0;
  const uint64_t max = x->max_bin;
  const uint8_t *c = in->p, *const end = in->end, *t;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *it = items + (size_t)i * stride;
    uint32_t h;
    for (int k = 0; k < 2; k++) {
      if (WIRE_LIKELY((t = l1_head(c, end, max, &h)) != NULL)) {
        if (k) tstr_store(it, voff, vaux, v64, t, h);
        else tstr_store(it, koff, kaux, k64, t, h);
        c = t + (h >> 2);
        continue;
      }
      if (!(c = tstr_other(x, k ? vo : ko, it, c, end))) return false;
    }
  }
  in->p = c;
  return true;
}

static bool dec_map(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p;
  uint32_t count;
  if (!wire__get_varu32(in, &count)) return false;
  if (!dcount(x, s, count, 1)) return false;
  uint8_t *items = NULL;
  if (count) {
    if (o->esize && count > SIZE_MAX / o->esize)
      return wire__mdec_afail_over(x, s);
    items = aalloc(x, (size_t)count * o->esize, 8);
    if (!items) return wire__mdec_afail(x, s);
    zero_img(items, (size_t)count * o->esize);
  }
  st_ptr(base + o->off, count ? items : (const uint8_t *)"");
  st_len(base, o, count);
  const wire_mop *ko = &o->sub[0], *vo = &o->sub[1];
  if (!menter(x)) return false;
  uint32_t at = 0;
  while (at < count) {
    const uint8_t *cs = in->p;
    uint8_t h;
    if (!wire__get_u8(in, &h)) return false;
    if (h & 0xC0) return dfail(x, WIRE_E_COLLECTION, cs, "chunk header has "
                                                         "reserved bits");
    bool kn = h & WIRE_MF_KEY_NULL, vn = h & WIRE_MF_VAL_NULL;
    uint32_t size = 1;
    if (h == (WIRE_MF_KEY_DECL | WIRE_MF_VAL_DECL) && (o->ditems & 2) &&
        in->p < in->end && in->p[0] && in->p[0] <= count - at) {
      /* the usual chunk of strings (declared, no null or tracking) and
       * its size as wire__dec_chunk_size takes it, to their loop
       * (o->ditems & 2: MDI_STR or MDI_TSTR) */
      size = *in->p++;
      goto strs;
    }
    if (!kn && !vn) {
      uint8_t sz;
      if (!wire__dec_chunk_size(&x->d, count - at, &sz)) return false;
      size = sz;
    }
    const wire_mop *sides[2] = {ko, vo};
    const wire_mplan *plans[2] = {NULL, NULL};
    bool nulls[2] = {kn, vn};
    bool trk[2] = {(h & WIRE_MF_KEY_TRACK) != 0, (h & WIRE_MF_VAL_TRACK) != 0};
    bool decl[2] = {(h & WIRE_MF_KEY_DECL) != 0, (h & WIRE_MF_VAL_DECL) != 0};
    bool in_chunk = !kn && !vn;
    for (int k = 0; k < 2 && in_chunk; k++) {
      const wire_mop *so = sides[k];
      bool st_ = so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR;
      if (!decl[k]) {
        if (st_) {
          if (!(plans[k] = dec_meta(x, so->elem))) return false;
        } else {
          const uint8_t *ts = in->p;
          uint8_t t;
          if (!wire__get_u8(in, &t)) return false;
          if (t != so->wt) return dfail(x, WIRE_E_SCHEMA, ts, "map key or "
                                                             "value of "
                                                             "another type");
        }
      } else if (st_) {
        plans[k] = &x->m->layouts[so->elem].plan;
      }
    }
    if (in_chunk && !trk[0] && !trk[1] && (o->ditems & 2)) {
      /* strings to strings (the usual map of a struct), without the
       * general loop's per-entry cases */
    strs:
      if (o->ditems == MDI_TSTR && !x->copy) {
        /* (Latin-1 keys and values, the JVM's usual strings: the ops'
         * fields held in registers; any other string as below) */
        if (!l1_entries(x, ko, vo, items + (size_t)at * o->esize, o->esize,
                        size))
          return false;
        at += size;
        continue;
      }
      for (uint32_t i = 0; i < size; i++) {
        /* (two strings take two bytes at least: no entry is empty) */
        uint8_t *it = items + (size_t)(at + i) * o->esize;
        const uint8_t *np;
        for (int k = 0; k < 2; k++) {
          const wire_mop *so = k ? vo : ko;
          np = so->fl & MF_TAGGED ? fast_tstr(x, so, it, in->p, in->end)
                                  : fast_str(x, so, it, in->p, in->end);
          if (WIRE_LIKELY(np != NULL)) in->p = np;
          else if (!dec_body(x, so, it)) return false;
        }
      }
      at += size;
      continue;
    }
    for (uint32_t i = 0; i < size; i++) {
      uint8_t *it = items + (size_t)(at + i) * o->esize;
      const uint8_t *es = in->p;
      for (int k = 0; k < 2; k++) {
        const wire_mop *so = sides[k];
        bool st_ = so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR;
        if (nulls[k]) {
          if (so->fl & MF_PRESENT) it[so->present] = 0;
          continue;
        }
        const wire_mplan *pp = plans[k];
        if (trk[k]) {
          const uint8_t *fs = in->p;
          int8_t f;
          uint32_t id;
          if (!ref_flag(x, o, true, &f, &id)) return false;
          if (f == WIRE_REF_NULL || f == WIRE_REF_REF)
            return dfail(x, WIRE_E_UNSUPPORTED, fs, "map entry reference");
          if (f == WIRE_REF_VALUE) x->d.nrefs++;
        }
        if (!in_chunk) {
          if (!decl[k]) {
            if (st_) {
              if (!(pp = dec_meta(x, so->elem))) return false;
            } else {
              const uint8_t *ts = in->p;
              uint8_t t;
              if (!wire__get_u8(in, &t)) return false;
              if (t != so->wt) return dfail(x, WIRE_E_SCHEMA, ts, "map key or "
                                                                 "value of "
                                                                 "another type");
            }
          } else if (!in_chunk && st_) {
            pp = &x->m->layouts[so->elem].plan;
          }
        }
        if (so->fl & MF_PRESENT) it[so->present] = 1;
        if (st_) {
          wire_mlayout *el = &x->m->layouts[so->elem];
          uint8_t *sb = it + so->off;
          if (so->code == MOP_STRUCT_PTR) {
            sb = aalloc(x, el->size ? el->size : 1, 8);
            if (!sb) return wire__mdec_afail(x, in->p);
            memset(sb, 0, el->size);
            st_ptr(it + so->off, sb);
          }
          if (!dec_struct_body(x, pp, el, sb)) return false;
        } else if (!dec_body(x, so, it)) {
          return false;
        }
      }
      if (!wire__dec_took_bytes(&x->d, es)) return false;
    }
    at += size;
  }
  x->d.depth--;
  return true;
}

static bool dec_field(mdec *x, const wire_mop *o, uint8_t *base);
static bool dec_skip(mdec *x, const wire_mop *o);

/* A union (R-UNION-2): the case id, then the case value as a full slot. A
 * case the layout does not hold (or the schema does not list, R-UNION-3)
 * is read and dropped: the case id is kept, the value storage cleared. */
static bool dec_union(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  uint32_t id;
  if (!wire__get_varu32(in, &id)) return false;
  const wire_mlayout *ul = &x->m->layouts[o->elem];
  uint8_t *vb = base + o->off;
  memset(vb, 0, ul->size); /* (the case id may lie within) */
  memcpy(base + o->aux, &id, 4);
  const wire_mop *c = NULL;
  for (uint32_t k = 0; k < ul->plan.nops && !c; k++)
    if (ul->plan.ops[k].local == id) c = &ul->plan.ops[k];
  if (!menter(x)) return false;
  bool okk;
  if (!c || c->code == MOP_NONE) {
    /* a slot of undeclared type */
    static wire_ftype any_t = {WIRE_T_UNKNOWN, 1, 0, WIRE_NO_TYPE, NULL, NULL,
                               NULL, NULL};
    static const wire_lfield any_f = {NULL, 0, -1, &any_t, WIRE_NO_TYPE, 0, 0,
                                      WIRE_FOP_SLOT};
    wire_mop skip;
    memset(&skip, 0, sizeof skip);
    skip.code = MOP_SKIP;
    skip.lf = &any_f;
    okk = dec_skip(x, &skip);
  } else if (c->fl & MF_META) {
    okk = dec_field(x, c, vb); /* a struct: flag, type meta, body */
  } else {
    /* flag, then the case type's id (an enum's with its user id) */
    const uint8_t *fs = in->p;
    if (fs < in->end && (*fs == 0xFD || *fs == 0xFE)) {
      okk = dec_field(x, c, vb);
    } else {
      int8_t f;
      uint32_t rid;
      okk = wire__dec_ref_flag(&x->d, true, &f, &rid);
      if (okk && f == WIRE_REF_VALUE) x->d.nrefs++;
      const uint8_t *ts = in->p;
      uint8_t t;
      okk = okk && wire__get_u8(in, &t);
      if (okk && c->code == MOP_ENUM) {
        uint32_t uid;
        okk = t == WIRE_T_ENUM && wire__get_varu32(in, &uid) &&
              uid == x->ctx->reg->types[c->ft->user].user_id;
        if (!okk && !x->ctx->err_code)
          dfail(x, WIRE_E_SCHEMA, ts, "union case value of another type than "
                                      "the case's");
      } else if (okk && t != c->ft->type_id) {
        okk = dfail(x, WIRE_E_SCHEMA, ts, "union case value of another type "
                                          "than the case's");
      }
      if (okk && (c->fl & MF_PRESENT)) vb[c->present] = 1;
      okk = okk && dec_body(x, c, vb);
    }
  }
  if (okk) x->d.depth--;
  return okk;
}

static bool dec_body(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  uint8_t *p = base + o->off;
  const uint8_t *s = in->p;
  switch (o->code) {
  case MOP_INT: {
    uint64_t raw;
    if (!dec_int_raw(x, o->wt, &raw)) return false;
    if ((o->fl & MF_CHECK) && !form_in_range(raw, o->wt, o->form))
      return dfail(x, WIRE_E_VALUE, s, "integer out of the range of the "
                                       "layout's form");
    st_u(p, o->form, raw);
    return true;
  }
  case MOP_ENUM: {
    uint32_t v;
    if (!wire__dec_enum_value(&x->d, &v)) return false;
    if (!form_in_range(v, WIRE_T_UINT32, o->form == WIRE_MEM_ENUM
                                             ? WIRE_MEM_U32 : o->form))
      return dfail(x, WIRE_E_VALUE, s, "enum value out of the range of the "
                                       "layout's form");
    st_u(p, o->form == WIRE_MEM_ENUM ? WIRE_MEM_U32 : o->form, v);
    return true;
  }
  case MOP_BOOL: {
    uint8_t v;
    if (!wire__get_u8(in, &v)) return false;
    if (v > 1) return dfail(x, WIRE_E_VALUE, s, "bool byte other than 0 or 1");
    *p = v;
    return true;
  }
  case MOP_BITS16: case MOP_F32: case MOP_F64: {
    int n = o->code == MOP_BITS16 ? 2 : o->code == MOP_F32 ? 4 : 8;
    if (WIRE_UNLIKELY((size_t)(in->end - in->p) < (size_t)n))
      return wire__truncated(in, (size_t)n);
    if (o->code == MOP_F32 && o->form == WIRE_MEM_F64) {
      uint32_t f; /* widened, a NaN's bits kept (internal.h) */
      memcpy(&f, in->p, 4);
      uint64_t u = wire__f32_widen(f);
      memcpy(p, &u, 8);
    } else if (o->code == MOP_F64 && o->form == WIRE_MEM_F32) {
      uint64_t u; /* rounded, a NaN's bits kept */
      memcpy(&u, in->p, 8);
      uint32_t f = wire__f32_narrow(u);
      memcpy(p, &f, 4);
    } else {
      memcpy(p, in->p, (size_t)n);
    }
    in->p += n;
    return true;
  }
  case MOP_STR:
    if (fast_form(o)) {
      /* (the struct loop's inline cases, for a flagged string) */
      const uint8_t *np = o->fl & MF_TAGGED ? fast_tstr(x, o, base, s, in->end)
                                            : fast_str(x, o, base, s, in->end);
      if (WIRE_LIKELY(np != NULL)) {
        in->p = np;
        return true;
      }
    }
    return dec_str(x, o, base, false);
  case MOP_BYTES: {
    /* the usual binary inline (as wire__dec_bytes reads it): its length
     * within the input and the limit, not in an out-of-band payload */
    const uint8_t *t;
    uint32_t n;
    if (!x->d.oob && fast_u32(s, in->end, &n, &t) && n <= x->max_bin &&
        (size_t)(in->end - t) >= n) {
      const uint8_t *v = t;
      if (x->copy && n) {
        uint8_t *q = aalloc(x, n, 1);
        if (!q) return wire__mdec_afail(x, s);
        wire__copy(q, t, n);
        v = q;
      }
      st_ptr(p, n ? v : (const uint8_t *)"");
      st_len(base, o, n);
      in->p = t + n;
      return true;
    }
    return dec_str(x, o, base, true);
  }
  case MOP_DENSE: {
    const uint8_t *d;
    uint32_t n;
    if (!wire__dec_bytes(&x->d, o->wt, &d, &n)) return false;
    uint32_t ww = wire_type_array_width(o->wt);
    uint32_t count = n / ww;
    uint32_t w = form_size(o->eform);
    uint8_t *q = NULL;
    /* (WIRE_MEM_ARRAYS_IN_PLACE: the items left in the input) */
    bool keep = x->inplace && natural_form(o->ewt) == o->eform &&
                d >= IN(x)->base && (size_t)(IN(x)->end - d) >= n;
    if (count && !keep) {
      q = aalloc(x, (size_t)count * w, 8);
      if (!q) return wire__mdec_afail(x, s);
      if (natural_form(o->ewt) == o->eform) {
        wire__copy(q, d, n);
      } else {
        for (uint32_t i = 0; i < count; i++) {
          uint64_t raw = 0;
          memcpy(&raw, d + (size_t)i * ww, ww);
          if (wt_signed(o->ewt) && ww < 8 && (raw >> (8 * ww - 1)) & 1)
            raw |= ~UINT64_C(0) << (8 * ww);
          if (!form_in_range(raw, o->ewt, o->eform))
            return dfail(x, WIRE_E_VALUE, d + (size_t)i * ww, "array element "
                                                              "out of range");
          st_u(q + (size_t)i * w, o->eform, raw);
        }
      }
    }
    st_ptr(p, !count ? (const uint8_t *)"" : keep ? d : q);
    st_len(base, o, count);
    return true;
  }
  case MOP_LIST: case MOP_PLIST: return dec_list(x, o, base);
  case MOP_MAP: return dec_map(x, o, base);
  case MOP_UNION: return dec_union(x, o, base);
  case MOP_STRUCT: case MOP_STRUCT_PTR: {
    wire_mlayout *el = &x->m->layouts[o->elem];
    const wire_mplan *pp = &el->plan;
    if (o->fl & MF_META) {
      if (!(pp = meta_fast(x, o->elem))) return false;
    } else if (el->kind == WIRE_T_STRUCT || el->kind == WIRE_T_NAMED_STRUCT) {
      pp = &el->plan;
    }
    uint8_t *sb = p;
    if (o->code == MOP_STRUCT_PTR) {
      sb = aalloc(x, el->size ? el->size : 1, 8);
      if (!sb) return wire__mdec_afail(x, s);
      memset(sb, 0, el->size);
      st_ptr(p, sb);
    }
    return dec_struct_body(x, pp, el, sb);
  }
  case MOP_DATE: {
    int64_t v;
    if (!wire__dec_date(&x->d, &v)) return false;
    memcpy(p, &v, 8);
    return true;
  }
  case MOP_TIMESTAMP: case MOP_DURATION: {
    wire_mem_time t = {0, 0, 0};
    /* (the struct loop's inline reader; tests compare it with the
     * general one: MDS_GENERAL) */
    const uint8_t *np = o->ds != MDS_GENERAL ? fast_time(o, p, s, in->end)
                                             : NULL;
    if (np) {
      in->p = np;
      return true;
    }
    if (!wire__dec_time(&x->d, o->wt, &t.seconds, &t.nanos)) return false;
    memcpy(p, &t, sizeof t);
    return true;
  }
  case MOP_DECIMAL: {
    wire_mem_decimal dv;
    memset(&dv, 0, sizeof dv);
    bool neg;
    const uint8_t *mag;
    uint8_t small[8];
    const uint8_t *np = o->ds != MDS_GENERAL ? fast_decimal(x, p, s, in->end)
                                             : NULL;
    if (np) {
      in->p = np;
      return true;
    }
    if (!wire__dec_decimal(&x->d, &dv.scale, &neg, &mag, &dv.len, small))
      return false;
    if (mag == small || x->copy) {
      uint8_t *q = aalloc(x, dv.len ? dv.len : 1, 1);
      if (!q) return wire__mdec_afail(x, s);
      if (dv.len <= 16) copy_short(q, mag, dv.len);
      else wire__copy(q, mag, dv.len);
      mag = q;
    }
    dv.magnitude = mag;
    dv.negative = neg;
    memcpy(p, &dv, sizeof dv);
    return true;
  }
  default:
    return dfail(x, WIRE_E_STATE, s, "op without a reader");
  }
}

/* A writer's field the reader does not have: read into a scratch document
 * through the document decoder's rules. The ids of values read into
 * memory since the last skip get an empty entry in the document decoder's
 * table: a reference to one is its error (a value not complete), never a
 * read of the table where nothing was put (or a freed document's node). */
static bool dec_skip(mdec *x, const wire_mop *o) {
  if (!x->scratch) {
    x->scratch = wire_doc_new(x->ctx);
    if (!x->scratch) return dfail(x, WIRE_E_NOMEM, IN(x)->p, "out of memory");
    /* the skipped values of the call count against the node limit as in
     * wire_decode (R-LIMIT-10; zero_dec does not set it) */
    x->d.max_nodes = x->ctx->max_nodes;
  }
  wire_ctx *ctx = x->ctx;
  if (x->skip_refs < x->d.nrefs) {
    if (wire__refs_reserve(ctx, x->d.nrefs) != WIRE_OK)
      return dfail(x, WIRE_E_NOMEM, IN(x)->p, "out of memory");
    memset(ctx->refs + x->skip_refs, 0,
           (x->d.nrefs - x->skip_refs) * sizeof *ctx->refs);
  }
  wire_doc *saved = x->d.doc;
  wire_arena *sa = x->d.arena;
  x->d.doc = x->scratch;
  x->d.arena = &x->scratch->arena;
  wire_node *n;
  const uint8_t *s = IN(x)->p;
  bool okk = wire__dec_field(&x->d, o->lf, &n);
  x->d.doc = saved;
  x->d.arena = sa;
  x->skip_refs = x->d.nrefs;
  return okk && wire__mdec_skipped_tds(x, s);
}

/* A field's null (its flag 0xFD): its storage cleared, a nested struct's
 * every field. */
static void null_field(mdec *x, const wire_mop *o, uint8_t *base) {
  if (o->code == MOP_STRUCT) {
    if (o->present != WIRE_MEM_NONE) base[o->present] = 0;
    zero_struct(x, &x->m->layouts[o->elem], base + o->off);
    return;
  }
  zero_op(o, base);
}

static bool dec_field(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  if (o->fl & MF_FLAG) {
    const uint8_t *fs = in->p;
    int8_t f;
    uint32_t id;
    if (!ref_flag(x, o, (o->fl & MF_REF) != 0, &f, &id)) return false;
    if (f == WIRE_REF_NULL) {
      null_field(x, o, base);
      return true;
    }
    if (f == WIRE_REF_REF) {
      wire_mem *m = x->m;
      if (o->code != MOP_STRUCT_PTR || id >= m->ndref || !m->dref[id] ||
          m->dref_layout[id] != o->elem)
        return dfail(x, WIRE_E_UNSUPPORTED, fs, "a reference the layout "
                                                "cannot hold");
      st_ptr(base + o->off, m->dref[id]);
      return true;
    }
    if (f == WIRE_REF_VALUE) {
      wire_mem *m = x->m;
      uint32_t id2 = (uint32_t)x->d.nrefs++;
      if (!dref_room(x->ctx, m, id2 + 1))
        return dfail(x, WIRE_E_NOMEM, fs, "out of memory");
      while (m->ndref <= id2) {
        m->dref[m->ndref] = NULL;
        m->dref_layout[m->ndref++] = NOTYPE;
      }
      if (o->code == MOP_STRUCT_PTR) {
        /* decode now so that references inside can name it */
        wire_mlayout *el = &m->layouts[o->elem];
        const wire_mplan *pp = &el->plan;
        if (o->fl & MF_META) {
          if (!(pp = meta_fast(x, o->elem))) return false;
        }
        uint8_t *sb = aalloc(x, el->size ? el->size : 1, 8);
        if (!sb) return wire__mdec_afail(x, fs);
        zero_img(sb, el->size);
        st_ptr(base + o->off, sb);
        m = x->m;
        m->dref[id2] = sb;
        m->dref_layout[id2] = o->elem;
        return dec_struct_body(x, pp, el, sb);
      }
    }
  }
  if (o->fl & MF_PRESENT) base[o->present] = 1;
  return dec_body(x, o, base);
}

/* A struct pointer with a reference / null flag (MDS_FPTR) at c, as
 * dec_field reads it, without its calls: 1 when read (the cursor in the
 * reader), 0 on error, -1 for a form it leaves to dec_field (a flag of
 * more than the usual bytes, and every error; nothing read). */
ALWAYS_INLINE int fptr_field(mdec *x, const wire_mop *o, uint8_t *base,
                             const uint8_t *c) {
  wire_in *in = IN(x);
  wire_mem *m = x->m;
  uint8_t *d = base + o->off;
  bool ref = (o->fl & MF_REF) != 0;
  if (WIRE_UNLIKELY(c >= in->end)) return -1;
  uint8_t b = c[0];
  if (b == 0xFF || (b == 0x00 && ref)) { /* not null; a tracked value */
    const wire_mlayout *el = &m->layouts[o->elem];
    uint32_t id2 = NOTYPE;
    in->p = c + 1;
    if (!b) {
      id2 = (uint32_t)x->d.nrefs++;
      if (!dref_room(x->ctx, m, id2 + 1))
        return dfail(x, WIRE_E_NOMEM, c, "out of memory");
      while (m->ndref <= id2) {
        m->dref[m->ndref] = NULL;
        m->dref_layout[m->ndref++] = NOTYPE;
      }
    }
    const wire_mplan *pp = &el->plan;
    if ((o->fl & MF_META) && !(pp = meta_fast(x, o->elem))) return 0;
    uint8_t *sb = aalloc(x, el->size ? el->size : 1, 8);
    if (!sb) return wire__mdec_afail(x, b ? c + 1 : c);
    zero_img(sb, el->size);
    st_ptr(d, sb);
    if (!b) {
      m->dref[id2] = sb;
      m->dref_layout[id2] = o->elem;
    }
    return dec_struct_body(x, pp, el, sb);
  }
  if (b == 0xFE && ref && in->end - c >= 2 && c[1] < 0x80) {
    /* a reference to a value read before, one the layout holds */
    uint32_t id = c[1];
    if (id >= x->d.nrefs || id >= m->ndref || !m->dref[id] ||
        m->dref_layout[id] != o->elem)
      return -1;
    st_ptr(d, m->dref[id]);
    in->p = c + 2;
    return 1;
  }
  if (b == 0xFD) { /* null */
    null_field(x, o, base);
    in->p = c + 1;
    return 1;
  }
  return -1;
}

/* The reader's fields the writer of plan p did not send, at base, their
 * presence flags 2 where the layout asks (WIRE_MEM_MARK_ABSENT); counted
 * for wire_mem_absent_count. */
static COLD void zero_missing(mdec *x, const wire_mplan *p, uint8_t *base) {
  x->m->nabsent++;
  for (uint32_t k = 0; k < p->nmissing; k++) {
    const wire_mspec *s = p->missing[k];
    zero_any(x, s, base);
    if ((s->form & WIRE_MEM_MARK_ABSENT) && s->present != WIRE_MEM_NONE)
      base[s->present] = 2;
  }
}

/* The last MX_ value (mem.h): dec_structs' dispatch lists every case up
 * to it and leaves out the range check (~2 instructions an op); an MX_
 * value added to mem.h needs its case there (MX_SLOW's, the checked
 * path, when the decoder has no inline case for it), and this number
 * changed. */
#define DEC_MX_LAST 15
_Static_assert(MX_END == DEC_MX_LAST,
               "a new MX_ case: give it a case in dec_structs' dispatch");

/* The bodies of `count` struct values by plan p, the first at base, the
 * others `stride` bytes apart (list items: each must take bytes or draw
 * on the zero-width budget, as dec_list checks its items). The loop keeps
 * the cursor in c (the input's end in end: no store into the memory
 * being written can change them) and puts it back into the reader around
 * every call that reads on its own. */
ALWAYS_INLINE bool dec_structs(mdec *x, const wire_mplan *p,
                               const wire_mlayout *l, uint8_t *base,
                               size_t stride, uint32_t count, bool items) {
  if (!menter(x)) return false;
  wire_in *in = IN(x);
  bool hashed = p->hashed;
  const uint8_t *c = in->p, *const end = in->end, *np;
  for (uint32_t i = 0; i < count; i++, base += stride) {
    const uint8_t *prev = c;
    if (hashed) {
      uint64_t h;
      in->p = c;
      if (!wire__get_le(in, 4, &h)) return false;
      if ((uint32_t)h != l->hash)
        return dfail(x, WIRE_E_SCHEMA, c, "schema hash differs from the "
                                          "registered struct's");
      c = in->p;
    }
    /* (to the op after the last, MX_END: no bound to compare with; each
     * case forms base + o->off where it stores, not before the dispatch:
     * one register fewer held across it, 7-137 Ir a decode) */
    for (const wire_mop *o = p->ops;; o++) {
      switch (o->dx) {
      case MX_END:
        if (WIRE_UNLIKELY(o->aux)) zero_missing(x, p, base); /* (nmissing) */
        goto done;
      case MX_RUN: {
        const uint8_t *rc = c; /* (c itself stays out of memory) */
        const wire_mop *r =
            WIRE_LIKELY((size_t)(end - c) >= (size_t)o->dneed + WIRE_MEM_RUN_SLACK)
                ? x->run(o, base, &rc)
                : x->run == wire__mdec_run_words
                      ? wire__mdec_run_end_words(o, base, &rc, end)
                      : wire__mdec_run_end_bytes(o, base, &rc, end);
        if (r != o) {
          c = rc;
          o = r - 1;
          continue;
        }
        break; /* the checked reader of the first */
      }
      case MX_VI32: {
        uint32_t u;
        if (fast_u32(c, end, &u, &np)) {
          int32_t v = wire__unzz32(u);
          memcpy(base + o->off, &v, 4);
          c = np;
          continue;
        }
        break;
      }
      case MX_VI32_64: {
        uint32_t u;
        if (fast_u32(c, end, &u, &np)) {
          int64_t v = wire__unzz32(u);
          memcpy(base + o->off, &v, 8);
          c = np;
          continue;
        }
        break;
      }
      case MX_VI64: {
        uint64_t u;
        if (fast_u64(c, end, &u, &np)) {
          int64_t v = wire__unzz64(u);
          memcpy(base + o->off, &v, 8);
          c = np;
          continue;
        }
        break;
      }
      case MX_BOOL:
        if (WIRE_LIKELY(c < end && c[0] <= 1)) {
          base[o->off] = *c++;
          continue;
        }
        break;
      case MX_ENUM:
        if (WIRE_LIKELY(c < end && c[0] < 0x80)) {
          uint32_t v = *c++;
          memcpy(base + o->off, &v, 4);
          continue;
        }
        break;
      case MX_F32:
        if (WIRE_LIKELY(end - c >= 4)) {
          memcpy(base + o->off, c, 4);
          c += 4;
          continue;
        }
        break;
      case MX_F64:
        if (WIRE_LIKELY(end - c >= 8)) {
          memcpy(base + o->off, c, 8);
          c += 8;
          continue;
        }
        break;
      case MX_STR: /* a UTF-8 string with a header of one or two bytes */
        np = fast_str(x, o, base, c, end);
        goto bytes;
      case MX_NEST: {
        /* (dec_field and dec_body's way for it, without their dispatch) */
        const wire_mlayout *el = &x->m->layouts[o->elem];
        const wire_mplan *pp = &el->plan;
        in->p = c;
        if ((o->fl & MF_META) && !(pp = meta_fast(x, o->elem)))
          return wire__mdec_field_fail(x, o);
        if (!dec_struct_body(x, pp, el, base + o->off)) return false;
        c = in->p;
        continue;
      }
      case MX_LIST:
        in->p = c;
        if (o->code == MOP_PLIST) { /* (numbers: its usual form) */
          int r = wire__mdec_plist_list(x, o, base);
          if (r > 0) {
            c = in->p;
            continue;
          }
          if (!r) return false;
        }
        if (!dec_list(x, o, base)) return false;
        c = in->p;
        continue;
      case MX_TSTR: np = fast_tstr(x, o, base, c, end); goto bytes;
      case MX_DENSE: np = fast_dense(x, o, base, c, end, false); goto bytes;
      case MX_BOOLS:
        np = fast_dense(x, o, base, c, end, true);
      bytes:
        if (WIRE_LIKELY(np != NULL)) {
          c = np;
          continue;
        }
        break;
      case MX_SLOW:
        break;
      default: /* (every MX_ value has its case: see DEC_MX_LAST) */
        __builtin_unreachable();
      }
      in->p = c;
      /* (the ops without an inline case of their own: mem.h, MDS_*) */
      switch (o->ds) {
      case MDS_PTR: {
        /* a struct pointer without a flag: dec_body's way, without its
         * call and dispatch */
        const wire_mlayout *el = &x->m->layouts[o->elem];
        const wire_mplan *pp = &el->plan;
        if ((o->fl & MF_META) && !(pp = meta_fast(x, o->elem)))
          return wire__mdec_field_fail(x, o);
        uint8_t *sb = aalloc(x, el->size ? el->size : 1, 8);
        if (!sb) return wire__mdec_afail(x, c);
        zero_img(sb, el->size);
        st_ptr(base + o->off, sb);
        if (!dec_struct_body(x, pp, el, sb)) return false;
        c = in->p;
        continue;
      }
      case MDS_FPTR: {
        int r = fptr_field(x, o, base, c);
        if (r > 0) {
          c = in->p;
          continue;
        }
        if (!r) return wire__mdec_field_fail(x, o);
        break;
      }
      case MDS_DEC:
        np = fast_decimal(x, base + o->off, c, end);
        goto slow;
      case MDS_TIME:
        np = fast_time(o, base + o->off, c, end);
        goto slow;
      case MDS_FSTR:
        np = NULL;
        if (WIRE_LIKELY(c < end && c[0] == 0xFF)) {
          np = o->fl & MF_TAGGED ? fast_tstr(x, o, base, c + 1, end)
                                 : fast_str(x, o, base, c + 1, end);
        } else if (c < end && c[0] == 0xFD) {
          null_field(x, o, base);
          np = c + 1;
        }
      slow:
        if (WIRE_LIKELY(np != NULL)) {
          c = np;
          continue;
        }
        break;
      case MDS_MAP:
        if (!dec_map(x, o, base)) return false;
        c = in->p;
        continue;
      default:
        break;
      }
      if (o->code == MOP_SKIP || o->code == MOP_NONE) {
        /* a field the layout does not hold */
        if (!dec_skip(x, o)) return false;
      } else if (!dec_field(x, o, base)) {
        return wire__mdec_field_fail(x, o);
      }
      c = in->p;
    }
  done:
    if (items && WIRE_UNLIKELY(c == prev)) {
      in->p = c;
      if (!wire__dec_unbacked(&x->d, prev)) return false;
    }
  }
  in->p = c;
  x->d.depth--;
  return true;
}

/* (at a 64-byte boundary: the struct loop's jumps and their padding lie
 * where they lie whatever the code before it, so a change elsewhere in
 * this file does not move them; Kotlin ROUNDS round 50) */
HOT_ALIGN static bool dec_struct_body(mdec *x, const wire_mplan *p,
                                      const wire_mlayout *l, uint8_t *base) {
  return dec_structs(x, p, l, base, 0, 1, false);
}
bool wire__mdec_struct_body(mdec *x, const wire_mplan *p,
                            const wire_mlayout *l, uint8_t *base) {
  return dec_struct_body(x, p, l, base);
}
static bool dec_struct_items(mdec *x, const wire_mplan *p,
                             const wire_mlayout *l, uint8_t *base,
                             size_t stride, uint32_t count) {
  return dec_structs(x, p, l, base, stride, count, true);
}
