/* mem_enc_loop.h - the layout encoder's struct loop (its fields, and
 * the structs and lists of structs nested in it without flags, in one
 * call), included twice by mem_enc.c: ENC_LOOP names the function,
 * ENC_BASED says whether the image's pointers are relocated by e->rel
 * (wire_mem_encode_based). Its dispatch jumps through a table of labels
 * by mop.ex (the cases chosen at bind, mem_layout.c). */

/* The fields of a struct body (its depth counted by the caller), with
 * the structs nested in it without flags. */
static __attribute__((noinline)) ENC_NOCLONE bool
ENC_LOOP(menc *e, const wire_mlayout *l, const uint8_t *base) {
  /* the cases by mop.ex, for trusted text and for text that is checked
   * (its tagged strings the general way); MX_SLOW's, the general path */
  static const void *const tab_t[ENC_MX_LAST + 1] = {
      [MX_SLOW] = &&slow, [MX_VI32] = &&c_VI32, [MX_VI64] = &&c_VI64,
      [MX_BOOL] = &&c_BOOL, [MX_ENUM] = &&c_ENUM, [MX_F32] = &&c_F32,
      [MX_F64] = &&c_F64, [MX_STR] = &&c_STR, [MX_VI32_64] = &&slow,
      [MX_TSTR] = &&c_TSTR, [MX_DENSE] = &&c_DENSE, [MX_RUN] = &&c_RUN,
      [MX_BOOLS] = &&c_BOOLS, [MX_NEST] = &&c_NEST, [MX_LIST] = &&c_LIST,
      [MX_END] = &&c_END, [MX_SPTR] = &&c_SPTR, [MX_DEC] = &&c_DEC,
      [MX_TIME] = &&c_TIME, [MX_TSTRF] = &&c_TSTRF, [MX_LTSTR] = &&c_LTSTR,
      [MX_LSPTR] = &&c_LSPTR, [MX_STRF] = &&c_STRF};
  static const void *const tab_c[ENC_MX_LAST + 1] = {
      [MX_SLOW] = &&slow, [MX_VI32] = &&c_VI32, [MX_VI64] = &&c_VI64,
      [MX_BOOL] = &&c_BOOL, [MX_ENUM] = &&c_ENUM, [MX_F32] = &&c_F32,
      [MX_F64] = &&c_F64, [MX_STR] = &&c_STR, [MX_VI32_64] = &&slow,
      [MX_TSTR] = &&slow, [MX_DENSE] = &&c_DENSE, [MX_RUN] = &&c_RUN,
      [MX_BOOLS] = &&c_BOOLS, [MX_NEST] = &&c_NEST, [MX_LIST] = &&c_LIST,
      [MX_END] = &&c_END, [MX_SPTR] = &&c_SPTR, [MX_DEC] = &&c_DEC,
      [MX_TIME] = &&c_TIME, [MX_TSTRF] = &&slow, [MX_LTSTR] = &&c_LIST,
      [MX_LSPTR] = &&c_LSPTR, [MX_STRF] = &&c_STRF};
  wire_buf *b = e->b;
  const bool utf8_str = e->utf8_str, check_str = e->check_str;
  const bool hashed = e->hashed, bmi2 = enc_bmi2;
  const uintptr_t rel = ENC_BASED ? e->rel : 0; /* (0: as they are) */
  const void *const *tab = check_str ? tab_c : tab_t;
  /* a struct's frame: only what done reads of it (left 0 and l NULL:
   * not a list's; item, stride and how left unset) */
#define PUSH_STRUCT()         \
  do {                        \
    st[nest].o = o;           \
    st[nest].base = base;     \
    st[nest].l = NULL;        \
    st[nest].left = 0;        \
    nest++;                   \
  } while (0)
  eframe st[ENC_NEST];
  uint32_t nest = 0;
  const wire_mop *o;
  uint8_t *q, *lim;
  WPOS(q, lim);
start: /* the struct l at base, written at q (lim: the buffer's end) */
  if (hashed &&
      (l->kind == WIRE_T_STRUCT || l->kind == WIRE_T_NAMED_STRUCT)) {
    if (!reserve(e, &q, &lim, 4)) return false;
    q = put_le(q, l->hash, 4);
  }
  o = l->plan.ops;
  if (!reserve(e, &q, &lim, o->rest)) return false;
  for (;;) {
  for (;; o++) {
    const uint8_t *p;
    p = base + o->off;
    /* (ex: x, or the start of a run of varints, or a case of its own;
     * every MX_ value has its label in the tables above) */
    goto *tab[o->ex];
#include "mem_enc_nums.h" /* (c_RUN ... c_F64) */
    c_TSTR: /* (trusted text) */
      {
        /* the wire header as given, then the bytes (a pointer other
         * than NULL relocated) */
        uintptr_t v;
        memcpy(&v, p, sizeof v);
        uint64_t h;
        if (WIRE_UNLIKELY(o->fl & MF_LEN64)) {
          memcpy(&h, base + o->aux, 8);
          if (h >> 34) goto slow; /* (longer than 4 GiB) */
        } else {
          uint32_t h32;
          memcpy(&h32, base + o->aux, 4);
          h = h32;
        }
        uint64_t len = h >> 2;
        if ((h & 3) == 3 || (len && !v)) goto slow;
        /* room: header and text, and what the next inline ops write */
        if (!reserve(e, &q, &lim, (size_t)len + o->rest)) return false;
        q = put_vu64(q, h, bmi2);
        copy_mid(q, (const uint8_t *)(v + rel), (size_t)len);
        q += len;
        NEXT;
      }
      goto slow;
    c_DENSE: {
      /* the bytes as they are in memory */
      const uint8_t *d = rptr(rel, p);
      uint64_t n = ld_len(base, o);
      if (n > UINT32_MAX || (n && !d)) goto slow;
      uint64_t len = n * o->esize;
      if (len > UINT32_MAX) goto slow;
      if (!reserve(e, &q, &lim, (size_t)len + o->rest)) return false;
      q = put_varu32(q, (uint32_t)len);
      copy_mid(q, d, (size_t)len);
      q += len;
      NEXT;
    }
    c_STR:
      if (utf8_str) {
        const uint8_t *sp = rptr(rel, p);
        uint32_t len;
        memcpy(&len, base + o->aux, 4);
        if (len && !sp) goto slow;
        /* (text that fails the check goes the general way, which says
         * so) */
        if (check_str && !etext_ok(sp, len)) goto slow;
        /* room: header and text, and what the next inline ops write */
        if (!reserve(e, &q, &lim, (size_t)len + o->rest)) return false;
        q = put_varu64(q, ((uint64_t)len << 2) | WIRE_STR_UTF8);
        copy_mid(q, sp, len);
        q += len;
        NEXT;
      }
      goto slow;
    c_BOOLS: { /* (a bool array held as bytes) */
      const uint8_t *d = rptr(rel, p);
      uint64_t n = ld_len(base, o);
      if (n > UINT32_MAX || (n && !d)) goto slow;
      if (!reserve(e, &q, &lim, (size_t)n + 5 + o->rest)) return false;
      q = put_varu32(q, (uint32_t)n);
      q = put_bools(q, d, (size_t)n);
      NEXT;
    }
    c_NEST: /* (a struct inline, without a flag) */
      b->len = (size_t)(q - b->p);
      if ((o->fl & MF_META) && !put_meta(e, &e->m->layouts[o->elem]))
        return false;
      if (WIRE_UNLIKELY(nest == ENC_NEST)) {
        if (!enc_struct_body(e, &e->m->layouts[o->elem], p)) return false;
        goto next;
      }
      if (WIRE_UNLIKELY(++e->depth > e->max_depth))
        return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
      PUSH_STRUCT();
      l = &e->m->layouts[o->elem];
      base = p;
      WPOS(q, lim);
      goto start;
    c_LTSTR: { /* (tagged strings, trusted: a list without flags inline) */
      const uint8_t *items = rptr(rel, p);
      uint32_t count;
      memcpy(&count, base + o->aux, 4);
      if (!count) { /* (room: the count, and the inline ops after it) */
        if (!reserve(e, &q, &lim, 1 + (size_t)o->rest)) return false;
        *q++ = 0;
        NEXT;
      }
      if (!items) goto c_LIST; /* (the error) */
      const wire_mop *so = &o->sub[0];
      const uint32_t soff = so->off, saux = so->aux, esz = o->esize;
      uint8_t h = o->lh;
      if (so->ft->nullable)
        for (uint32_t i = 0; i < count; i++)
          if (!ld_ptr(items + (size_t)i * esz + soff)) h = o->lh_null;
      /* (flags, or a type the list does not declare: the general way) */
      if ((h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING)) || !(h & WIRE_LF_DECL))
        goto c_LIST;
      if (!reserve(e, &q, &lim, 6)) return false;
      q = put_varu32(q, count);
      *q++ = h;
      for (uint32_t i = 0; i < count; i++) {
        const uint8_t *it = items + (size_t)i * esz;
        const uint8_t *sp = rptr(rel, it + soff);
        uint32_t sh;
        memcpy(&sh, it + saux, 4);
        uint32_t len = sh >> 2;
        if (WIRE_UNLIKELY((sh & 3) == 3 || (len && !sp))) {
          b->len = (size_t)(q - b->p); /* (enc_body reports it) */
          if (!enc_body(e, so, it)) return false;
          WPOS(q, lim);
          continue;
        }
        if (!reserve(e, &q, &lim, (size_t)len + 5)) return false;
        if (sh < 0x80) *q++ = (uint8_t)sh;
        else q = put_varu32(q, sh);
        copy_mid(q, sp, len);
        q += len;
      }
      if (!reserve(e, &q, &lim, o[1].rest)) return false;
      NEXT;
    }
    c_LSPTR: { /* (struct pointers: a list without flags, its items in
                * this loop) */
      const uint8_t *items = rptr(rel, p);
      uint32_t count;
      memcpy(&count, base + o->aux, 4);
      if (!count) { /* (room: the count, and the inline ops after it) */
        if (!reserve(e, &q, &lim, 1 + (size_t)o->rest)) return false;
        *q++ = 0;
        NEXT;
      }
      if (!items || WIRE_UNLIKELY(nest == ENC_NEST)) goto c_LIST;
      const wire_mop *so = &o->sub[0];
      const wire_mlayout *el = &e->m->layouts[so->elem];
      const uint32_t esz = o->esize;
      uint8_t h = o->lh;
      if (so->ft->nullable)
        for (uint32_t i = 0; i < count; i++)
          if (!ld_ptr(items + (size_t)i * esz + so->off)) h = o->lh_null;
      const bool meta = (h & WIRE_LF_SAME_TYPE) && !(h & WIRE_LF_DECL);
      if (meta ? !el->td : !(h & WIRE_LF_DECL)) goto c_LIST;
      if (!reserve(e, &q, &lim, 12 + (size_t)el->td_len)) return false;
      q = put_varu32(q, count);
      *q++ = h;
      if (meta) q = put_td(e->m, el, q);
      b->len = (size_t)(q - b->p);
      /* the items' depth, counted once */
      if (WIRE_UNLIKELY(++e->depth > e->max_depth))
        return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
      const int how = !(h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING)) ? LI_PTR
                      : (h & WIRE_LF_TRACKING) && e->ctx->ref_tracking
                          ? LI_TRACK
                          : LI_FLAG;
      st[nest++] = (eframe){o, base, el, items + so->off, count, esz, how};
      goto item;
    }
    c_LIST: { /* (a list without a flag) */
      b->len = (size_t)(q - b->p);
      const uint8_t *items;
      uint64_t count;
      int how;
      int r = list_begin(e, o, base, &items, &count,
                         nest < ENC_NEST ? &how : NULL);
      if (r < 0) return false;
      if (r == 0) goto next;
      if (WIRE_UNLIKELY(nest == ENC_NEST)) {
        if (!enc_items(e, o, items, count)) return false;
        goto next;
      }
      /* the items' depth, counted once */
      if (WIRE_UNLIKELY(++e->depth > e->max_depth))
        return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
      const wire_mop *so = &o->sub[0];
      st[nest++] = (eframe){o, base, &e->m->layouts[so->elem],
                            items + so->off, count, o->esize, how};
      goto item;
    }
    c_SPTR: { /* (a struct by pointer, without a presence flag) */
      if (WIRE_UNLIKELY(nest == ENC_NEST)) goto slow;
      /* its flag and meta written here, then its fields as those of an
       * inline one */
      const uint8_t *s = rptr(rel, p);
      const wire_mlayout *sl = &e->m->layouts[o->elem];
      /* room: the flag and a reference id, the type meta, and the inline
       * ops after this one (the flag may be all) */
      if (!reserve(e, &q, &lim, 12 + (size_t)sl->td_len + o->rest))
        return false;
      if (o->fl & MF_FLAG) {
        if (!s) {
          *q++ = 0xFD;
          NEXT;
        }
        if (o->fl & MF_TRACK) {
          int64_t id = ref_note(e, s);
          if (id >= 0) {
            *q++ = 0xFE;
            q = put_varu32(q, (uint32_t)id);
            NEXT;
          }
          if (id < -1) return false;
          e->m->e.nrefs++;
          *q++ = 0x00;
        } else {
          *q++ = 0xFF;
        }
      }
      if (o->fl & MF_META) {
        if (sl->td) {
          q = put_td(e->m, sl, q);
        } else {
          b->len = (size_t)(q - b->p);
          if (!enc_meta_id(e, sl)) return false;
          WPOS(q, lim);
        }
      }
      if (WIRE_UNLIKELY(!s || ++e->depth > e->max_depth)) {
        b->len = (size_t)(q - b->p);
        if (s)
          return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
        if (!room(e, 16)) return false; /* (as enc_body reports it) */
        return efail(e, WIRE_E_ENCODE, "NULL struct pointer in a "
                                       "non-nullable slot");
      }
      PUSH_STRUCT();
      l = sl;
      base = s;
      goto start;
    }
    /* decimals and timestamps without a call (the others, and any error,
     * through enc_body); room: theirs, and the inline ops' after them */
    c_DEC: {
      if (!reserve(e, &q, &lim, 16 + (size_t)o->rest)) return false;
      wire_mem_decimal dv;
      memcpy(&dv, p, sizeof dv);
      dv.magnitude = rptr(rel, p + offsetof(wire_mem_decimal, magnitude));
      uint8_t *r = put_small_dec(q, &dv);
      if (!r) goto slow;
      q = r;
      NEXT;
    }
    c_TIME: {
      if (!reserve(e, &q, &lim, 16 + (size_t)o->rest)) return false;
      wire_mem_time t;
      memcpy(&t, p, sizeof t);
      if (t.nanos >= 1000000000u) goto slow;
      q = put_le(put_le(q, (uint64_t)t.seconds, 8), t.nanos, 4);
      NEXT;
    }
    c_TSTRF: { /* (a nullable tagged string: its flag, then as MX_TSTR) */
      uintptr_t v;
      memcpy(&v, p, sizeof v);
      uint32_t h;
      memcpy(&h, base + o->aux, 4);
      if (!v) { /* null (what its length says does not matter) */
        if (!reserve(e, &q, &lim, 1 + (size_t)o->rest)) return false;
        *q++ = 0xFD;
        NEXT;
      }
      if ((h & 3) == 3) goto slow;
      uint32_t len = h >> 2;
      if (!reserve(e, &q, &lim, 6 + (size_t)len + o->rest)) return false;
      *q++ = 0xFF;
      if (h < 0x80) *q++ = (uint8_t)h;
      else q = put_varu32(q, h);
      copy_mid(q, (const uint8_t *)(v + rel), len);
      q += len;
      NEXT;
    }
    c_STRF: /* (a nullable UTF-8 string: its flag, then as MX_STR) */
      if (utf8_str) {
        const uint8_t *sp = rptr(rel, p);
        if (!sp) { /* null (what its length says does not matter) */
          if (!reserve(e, &q, &lim, 1 + (size_t)o->rest)) return false;
          *q++ = 0xFD;
          NEXT;
        }
        uint32_t len;
        memcpy(&len, base + o->aux, 4);
        if (check_str && !etext_ok(sp, len)) goto slow;
        /* (o->rest: the inline ops' after it, not its own) */
        if (!reserve(e, &q, &lim, 6 + (size_t)len + o->rest)) return false;
        *q++ = 0xFF;
        q = put_varu64(q, ((uint64_t)len << 2) | WIRE_STR_UTF8);
        copy_mid(q, sp, len);
        q += len;
        NEXT;
      }
      goto slow;
    c_END:
      goto done;
  slow: /* the general path */
    b->len = (size_t)(q - b->p);
    if (o->fl & MF_FLAG) {
      bool body;
      if (!enc_flag(e, o, base, &body)) return false;
      if (!body) goto next;
    } else if (WIRE_UNLIKELY(o->code == MOP_NONE)) {
      return efail(e, WIRE_E_ENCODE, "a non-nullable field of the struct is "
                                     "not bound to memory");
    }
    if (o->fl & MF_META) {
      if (!enc_meta(e, &e->m->layouts[o->elem])) return false;
    }
    if (!enc_body(e, o, base)) return false;
  next: /* (o[1]: the next op, or the end's, whose rest is 0) */
    if (!room(e, o[1].rest + 8)) return false;
    q = b->p + b->len;
    lim = b->p + b->cap;
  }
done: /* the end of a struct: the next item of a list, or the outer one */
  b->len = (size_t)(q - b->p);
  if (!nest) return true;
  eframe *f = &st[nest - 1];
  if (f->left && f->how == LI_INLINE) { /* (the usual next item) */
    base = f->item;
    f->item += f->stride;
    f->left--;
    l = f->l;
    goto start;
  }
  if (f->l) {
  item: /* (b->len up to date) */
    f = &st[nest - 1];
    int r = next_item(e, f, &base);
    if (r < 0) return false;
    WPOS(q, lim);
    if (r) {
      l = f->l;
      goto start;
    }
  }
  e->depth--;
  nest--;
  o = f->o;
  base = f->base;
  if (!reserve(e, &q, &lim, o[1].rest)) return false;
  o++;
  }
}
#undef PUSH_STRUCT
