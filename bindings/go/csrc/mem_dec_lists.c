/* mem_dec_lists.c - the compiled decoder's lists in loops of their own:
 * lists of struct pointers with reference / null flags (at the end), and
 * lists of numbers (MOP_PLIST) whose header says every element is of the
 * declared type with no null or reference flags: varint32 / varint64 into 32- / 64-bit integers,
 * fixed-width numbers and bools of the memory width, read in a loop of
 * their own into the dense item array. The loop gives up at the first
 * element it does not read without doubt (cut, overlong or too long,
 * a bool byte other than 0 or 1, fewer bytes than the rest of the list
 * takes), which happens only for input in error: dec_list's general loop
 * then reads the list from its start and reports, so errors and their
 * offsets are those of the general loop. */
#include "mem_dec.h"
#include "mem_dec_read.h"

/* A varint64 of at most 9 bytes before end; false for anything unusual. */
ALWAYS_INLINE bool chk_u64(const uint8_t *s, const uint8_t *end, uint64_t *v,
                           const uint8_t **np) {
  if (WIRE_LIKELY(end - s >= 9)) return fast_u64(s, end, v, np);
  uint64_t r = 0;
  for (int i = 0; i < 8 && s + i < end; i++) {
    uint64_t c = s[i];
    r |= (c & 0x7F) << (7 * i);
    if (c < 0x80) {
      if (i && !c) return false;
      *v = r;
      *np = s + i + 1;
      return true;
    }
  }
  return false;
}

/* (off: every list takes dec_list's general loop; for tests) */
bool wire__mdec_lists_ok = true;

bool wire__mdec_plist(mdec *x, const wire_mop *o, uint8_t *items,
                      uint32_t count) {
  if (!wire__mdec_lists_ok) return false;
  wire_in *in = IN(x);
  const uint8_t *p = in->p, *end = in->end;
  uint8_t t = o->ewt;
  uint32_t f = o->eform;
  if (t == WIRE_T_VARINT32 && f == WIRE_MEM_I32) {
    for (uint32_t i = 0; i < count; i++) {
      uint32_t u;
      if (!fast_u32(p, end, &u, &p)) return false;
      int32_t v = wire__unzz32(u);
      memcpy(items + (size_t)i * 4, &v, 4);
    }
  } else if (t == WIRE_T_VARINT64 && f == WIRE_MEM_I64) {
    for (uint32_t i = 0; i < count; i++) {
      uint64_t u;
      if (!chk_u64(p, end, &u, &p)) return false;
      int64_t v = wire__unzz64(u);
      memcpy(items + (size_t)i * 8, &v, 8);
    }
  } else {
    /* fixed widths: the memory width, the wire's bytes as they are */
    uint32_t w;
    if ((t == WIRE_T_FLOAT32 && f == WIRE_MEM_F32) ||
        (t == WIRE_T_INT32 && f == WIRE_MEM_I32) ||
        (t == WIRE_T_UINT32 && f == WIRE_MEM_U32))
      w = 4;
    else if ((t == WIRE_T_FLOAT64 && f == WIRE_MEM_F64) ||
             (t == WIRE_T_INT64 && f == WIRE_MEM_I64) ||
             (t == WIRE_T_UINT64 && f == WIRE_MEM_U64))
      w = 8;
    else if ((t == WIRE_T_BOOL && f == WIRE_MEM_BOOL) ||
             (t == WIRE_T_INT8 && f == WIRE_MEM_I8) ||
             (t == WIRE_T_UINT8 && f == WIRE_MEM_U8))
      w = 1;
    else
      return false;
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    if (w > 1) return false;
#endif
    size_t n = (size_t)count * w;
    if ((size_t)(end - p) < n) return false;
    if (t == WIRE_T_BOOL && !bools_ok(p, n)) return false;
    memcpy(items, p, n);
    p += n;
  }
  in->p = p;
  return true;
}

int wire__mdec_plist_list(mdec *x, const wire_mop *o, uint8_t *base) {
  if (!wire__mdec_lists_ok) return -1;
  wire_in *in = IN(x);
  const uint8_t *s = in->p, *hp;
  uint32_t count;
  if (!fast_u32(s, in->end, &count, &hp) || !count || hp >= in->end) return -1;
  uint8_t h = hp[0];
  const uint8_t *c = hp + 1; /* (after the header and a type id) */
  if (h == WIRE_LF_SAME_TYPE) {
    if (c >= in->end || *c != o->ewt) return -1;
    c++;
  } else if ((h & ~WIRE_LF_SAME_TYPE) != WIRE_LF_DECL) {
    return -1;
  }
  /* (dec_list's checks up to the header, in its order) */
  in->p = hp;
  if (!dcount(x, s, count, 1)) return 0;
  size_t stride = form_size(o->eform), used = x->used;
  if (stride && count > SIZE_MAX / stride) return wire__mdec_afail_over(x, s);
  uint8_t *items = aalloc(x, (size_t)count * stride, 8);
  if (!items) return wire__mdec_afail(x, s);
  st_ptr(base + o->off, items);
  st_len(base, o, count);
  in->p = c;
  if (!menter(x)) return 0;
  if (!wire__mdec_plist(x, o, items, count)) {
    /* an element in error: nothing kept (dec_list reads it again) */
    x->used = used;
    x->d.depth--;
    in->p = s;
    return -1;
  }
  x->d.depth--;
  return 1;
}

/* A list of struct pointers with reference / null flags (mem_dec.h). */
int wire__mdec_list_sptrs(mdec *x, const wire_mop *o, uint8_t *base,
                          const uint8_t *s, const uint8_t *hp,
                          uint32_t count) {
  wire_in *in = IN(x);
  uint8_t h = hp[0];
  bool meta = (h & WIRE_LF_SAME_TYPE) && !(h & WIRE_LF_DECL);
  if ((h & 0xF0) || (!meta && (!(h & WIRE_LF_DECL) || x->ctx->compatible)))
    return -1;
  const wire_mop *so = &o->sub[0];
  in->p = hp;
  if (!dcount(x, s, count, 0)) return 0;
  size_t stride = o->esize;
  if (stride && count > SIZE_MAX / stride) return wire__mdec_afail_over(x, s);
  uint8_t *items = aalloc(x, (size_t)count * stride, 8);
  if (!items) return wire__mdec_afail(x, s);
  st_ptr(base + o->off, items);
  st_len(base, o, count);
  in->p = hp + 1;
  const wire_mlayout *el = &x->m->layouts[so->elem];
  const wire_mplan *ep = meta ? meta_fast(x, so->elem) : &el->plan;
  if (!ep || !menter(x)) return 0;
  bool track = h & WIRE_LF_TRACKING;
  /* (every item takes its flag's byte: none draws on the zero-width
   * budget dec_list's loop checks) */
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *it = items + (size_t)i * stride;
    uint32_t rid = NOTYPE;
    const uint8_t *c = in->p;
    uint8_t b = c < in->end ? c[0] : 0xFD;
    if (b == 0xFF || (b == 0x00 && track)) {
      /* (item_flag's usual two: not null, a tracked value) */
      in->p = c + 1;
      if (!b) {
        wire_mem *m = x->m;
        rid = (uint32_t)x->d.nrefs++;
        if (!dref_room(x->ctx, m, rid + 1))
          return dfail(x, WIRE_E_NOMEM, c, "out of memory");
        while (m->ndref <= rid) {
          m->dref[m->ndref] = NULL;
          m->dref_layout[m->ndref++] = NOTYPE;
        }
      }
    } else {
      int r = item_flag(x, o, so, it, stride, track, &rid);
      if (r < 0) return 0;
      if (!r) continue;
    }
    uint8_t *sb = aalloc(x, el->size ? el->size : 1, 8);
    if (!sb) return wire__mdec_afail(x, in->p);
    zero_img(sb, el->size);
    st_ptr(it + so->off, sb);
    if (rid != NOTYPE) {
      x->m->dref[rid] = sb;
      x->m->dref_layout[rid] = so->elem;
    }
    if (!wire__mdec_struct_body(x, ep, el, sb)) return 0;
  }
  x->d.depth--;
  return 1;
}
