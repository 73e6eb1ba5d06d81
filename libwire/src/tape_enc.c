/* tape_enc.c - tapes to bytes without a document (wire_encode_tape,
 * wire_encode_tape_to).
 *
 * Pass 1 (tape_index.c) reads the whole tape into an index of records
 * (tape_rec.h), one per value, in pre-order, checked as the document
 * builders check. Pass 2, here, writes the records with the writer
 * policy of policy.h, as encode.c writes document nodes, so both paths
 * give the same bytes. The index, the output buffer and the tables
 * live in the context and are reused by the next call. */
#include "tape_rec.h"

/* ---- pass 2: write ------------------------------------------------------ */

typedef struct {
  wire_enc *e;
  wire_ctx *ctx;
  const uint8_t *tape;
  trec *recs;
  const tstruct *sts;
  const uint32_t *fld;
  const wire_names *names;
} wt;

#define efail wire__enc_fail
#define ok wire__enc_ok

static inline trec *res(const wt *w, uint32_t i) {
  trec *t = &w->recs[i];
  return (t->flags & R_REF) ? &w->recs[t->x] : t;
}
static inline const uint8_t *payload(const wt *w, const trec *t) {
  return w->tape + t->at + 1;
}
static inline uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* wire__pol_tracked for a tape value: a REF'd value (under reference
 * tracking) is recorded as tracked, any other is fresh. */
static inline bool tracked(const wt *w, const trec *t) {
  if (t->flags & R_TRACKED) return true;
  return w->ctx->ref_tracking && wire__pol_trackable(t->type);
}

static inline const wire_layout *layout_of(const wt *w, const trec *t) {
  return w->sts[t->x].l;
}

static bool same_user_type(const wt *w, const trec *a, const trec *b);
/* wire__pol_same_type for tape values. */
static inline bool same_type(const wt *w, const trec *a, const trec *b) {
  if (a->type != b->type) return false;
  if (a->type < WIRE_T_ENUM || a->type > WIRE_T_NAMED_EXT) return true;
  return same_user_type(w, a, b);
}

static bool same_user_type(const wt *w, const trec *a, const trec *b) {
  switch (a->type) {
  case WIRE_T_ENUM: case WIRE_T_TYPED_UNION: return a->x == b->x;
  case WIRE_T_NAMED_ENUM:
    return a->x == b->x ||
           wire__pol_same_type(a->type, b->type, 0, 0, &w->names[a->x],
                               &w->names[b->x], NULL, NULL);
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return wire__pol_same_type(a->type, b->type, 0, 0, NULL, NULL,
                               layout_of(w, a), layout_of(w, b));
  default:
    return true;
  }
}

static bool type_meta(const wt *w, const trec *t) {
  wire_user_meta um = {UINT32_MAX, NULL, NULL, -1, -1};
  switch (t->type) {
  case WIRE_T_ENUM: case WIRE_T_TYPED_UNION: case WIRE_T_UNION:
    um.user_id = t->x;
    break;
  case WIRE_T_NAMED_ENUM: case WIRE_T_NAMED_UNION:
    um.names = &w->names[t->x];
    break;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    um.layout = layout_of(w, t);
    break;
  default:
    wire__put_u8(&w->e->b, t->type);
    return ok(w->e);
  }
  return wire__enc_type_meta(w->e, t->type, &um);
}

/* A primitive body from the 8 tape bytes of its value (i64, u64 or f64). */
static inline void prim(wire_buf *b, uint8_t type, uint64_t u) {
  switch (type) {
  case WIRE_T_BOOL: wire__put_u8(b, u != 0); break;
  case WIRE_T_INT8: case WIRE_T_UINT8: wire__put_u8(b, (uint8_t)u); break;
  case WIRE_T_INT16: case WIRE_T_UINT16: wire__put_le(b, u, 2); break;
  case WIRE_T_INT32: case WIRE_T_UINT32: wire__put_le(b, u, 4); break;
  case WIRE_T_INT64: case WIRE_T_UINT64: wire__put_le(b, u, 8); break;
  case WIRE_T_VARINT32: wire__put_varu32(b, wire__zz32((int32_t)u)); break;
  case WIRE_T_VAR_UINT32: wire__put_varu32(b, (uint32_t)u); break;
  case WIRE_T_VARINT64: wire__put_varu64(b, wire__zz64((int64_t)u)); break;
  case WIRE_T_VAR_UINT64: wire__put_varu64(b, u); break;
  case WIRE_T_TAGGED_INT64: wire__put_tagged_i64(b, (int64_t)u); break;
  case WIRE_T_TAGGED_UINT64: wire__put_tagged_u64(b, u); break;
  default: { /* floats: rounded as wire_node_new_float does */
    double d;
    memcpy(&d, &u, 8);
    if (type == WIRE_T_FLOAT64) {
      wire__put_le(b, u, 8);
    } else if (type == WIRE_T_FLOAT32) {
      float f = (float)d;
      uint32_t x;
      memcpy(&x, &f, 4);
      wire__put_le(b, x, 4);
    } else {
      wire__put_le(b, type == WIRE_T_FLOAT16 ? wire_float16_from_double(d)
                                             : wire_bfloat16_from_double(d), 2);
    }
  }
  }
}

static bool body(const wt *w, trec *t, const wire_ftype *decl);

/* A value in a slot of declared type `decl` whose type meta is not
 * written must be of that type (as encode.c checks). */
static bool fits(const wt *w, const trec *t, const wire_ftype *decl) {
  uint32_t uid = UINT32_MAX;
  const wire_names *nm = NULL;
  const wire_layout *l = NULL;
  if (t->type == WIRE_T_ENUM) uid = t->x;
  else if (t->type == WIRE_T_NAMED_ENUM) nm = &w->names[t->x];
  else if (wire__is_struct_or_ext(t->type)) l = layout_of(w, t);
  return wire__pol_fits_decl(w->ctx, decl, t->type, uid, nm, l);
}

static bool slot(const wt *w, uint32_t i, bool has_flag, bool allow_ref,
                 bool with_type, bool any_slot, const wire_ftype *decl) {
  wire_enc *e = w->e;
  trec *t = res(w, i);
  if (t->type == WIRE_T_NULL) {
    if (!has_flag)
      return efail(e, WIRE_E_ENCODE, "null where the slot has no null flag");
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (!with_type && decl && WIRE_UNLIKELY(!fits(w, t, decl)))
    return wire__enc_not_declared(e, t->type, decl);
  if (has_flag) {
    bool track = wire__pol_slot_tracks(w->ctx, any_slot, t->flags & R_TRACKED,
                                       tracked(w, t));
    if (allow_ref && track) {
      if (t->mark) {
        wire__put_u8(&e->b, 0xFE);
        wire__put_varu32(&e->b, t->mark - 1);
        return ok(e);
      }
      wire__put_u8(&e->b, 0x00);
      if (!wire__enc_mark(e, t)) return false;
      t->mark = ++e->nrefs;
    } else {
      wire__put_u8(&e->b, 0xFF);
    }
  } else if (t->mark) {
    return efail(e, WIRE_E_ENCODE,
                 "shared value in a slot without reference flags");
  }
  if (with_type && !type_meta(w, t)) return false;
  return body(w, t, decl);
}

static bool field(const wt *w, const wire_lfield *lf, uint32_t vi) {
  wire_enc *e = w->e;
  const wire_ftype *f = lf->type;
  bool flag = f->nullable || f->ref || wire__peer_any_flag(w->ctx, f);
  bool ref = f->ref || wire__peer_field_tracks(w->ctx, f);
  if (vi == NONE32) {
    if (!flag)
      return efail(e, WIRE_E_ENCODE, "field %.*s has no value",
                   (int)lf->name_len, (const char *)lf->name);
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (wire__peer_field_meta(w->ctx, f))
    return slot(w, vi, flag, ref, true, false, f);
  bool dynamic = !wire__pol_static_type(w->ctx, f);
  if (wire__is_prim(f->type_id) && !flag) {
    trec *v = res(w, vi);
    if (v->type != f->type_id)
      return efail(e, WIRE_E_ENCODE, "field %.*s is a %s, not a %s",
                   (int)lf->name_len, (const char *)lf->name,
                   wire_type_name(f->type_id), wire_type_name(v->type));
    return body(w, v, f);
  }
  return slot(w, vi, flag, ref, dynamic, dynamic, f);
}

static bool write_struct(const wt *w, const trec *t) {
  wire_enc *e = w->e;
  const tstruct *st = &w->sts[t->x];
  const wire_layout *l = st->l;
  if (!w->ctx->compatible && !l->td && l->kind == WIRE_KIND_STRUCT)
    wire__put_le(&e->b, wire__peer_schema_hash(e->ctx, l), 4);
  if (!wire__enc_enter(e)) return false;
  for (uint32_t i = 0; i < l->nfields; i++)
    if (!field(w, &l->fields[i], w->fld[st->fields + i])) return false;
  e->depth--;
  return ok(e);
}

static bool write_packed(const wt *w, const trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  const wire_ftype *edecl;
  uint8_t h = wire__pol_list_header(w->ctx, decl, true, false, false, &edecl);
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) wire__put_u8(&e->b, t->a);
  if (!wire__enc_enter(e)) return false;
  /* (a number is no user type: its type id alone must be declared) */
  if (edecl && !wire__pol_fits_decl(w->ctx, edecl, t->a, UINT32_MAX, NULL,
                                    NULL))
    return wire__enc_not_declared(e, t->a, edecl);
  const uint8_t *p = payload(w, t) + 6;
  /* Elements have the same type and are never tracked: every flag is ff
   * (the list is same-type, so no slot is of undeclared type). */
  size_t per = flags ? 11 : 10;
  if (!wire__buf_room(&e->b, per * count)) return ok(e);
  uint8_t et = t->a;
  for (uint32_t i = 0; i < count; i++) {
    if (flags) e->b.p[e->b.len++] = 0xFF;
    prim(&e->b, et, rd64(p + 8 * (size_t)i));
  }
  e->depth--;
  return ok(e);
}

static bool write_list(const wt *w, const trec *t, const wire_ftype *decl) {
  if (t->flags & R_PACKED) return write_packed(w, t, decl);
  wire_enc *e = w->e;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  uint32_t first_at = t - w->recs + 1, end = t->end;
  const trec *first = NULL;
  bool has_null = false, same = true, track = false;
  for (uint32_t c = first_at; c < end; c = w->recs[c].end) {
    const trec *x = res(w, c);
    if (x->type == WIRE_T_NULL) { has_null = true; continue; }
    if (!first) first = x;
    else if (same && !same_type(w, first, x)) same = false;
    if (!track && tracked(w, x)) track = true;
  }
  const wire_ftype *edecl;
  uint8_t h = wire__pol_list_header(w->ctx, decl, same, has_null, track, &edecl);
  /* an element recorded tracked (shared) needs the tracking bit (R-WLIST-8) */
  for (uint32_t c = first_at; c < end && !(h & WIRE_LF_TRACKING); c = w->recs[c].end)
    if (res(w, c)->flags & R_TRACKED) h |= WIRE_LF_TRACKING;
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) {
    if (first) {
      if (!type_meta(w, first)) return false;
    } else {
      wire__put_u8(&e->b, WIRE_T_NONE);
    }
  }
  if (!wire__enc_enter(e)) return false;
  bool allow_ref = h & WIRE_LF_TRACKING;
  if (!flags && st) {
    /* no flags, no type meta: the bodies alone */
    for (uint32_t c = first_at; c < end; c = w->recs[c].end) {
      trec *x = res(w, c);
      if (x->type == WIRE_T_NULL)
        return efail(e, WIRE_E_ENCODE, "null where the slot has no null flag");
      if (edecl && WIRE_UNLIKELY(!fits(w, x, edecl)))
        return wire__enc_not_declared(e, x->type, edecl);
      if (x->mark)
        return efail(e, WIRE_E_ENCODE,
                     "shared value in a slot without reference flags");
      if (!body(w, x, edecl)) return false;
    }
  } else {
    for (uint32_t c = first_at; c < end; c = w->recs[c].end)
      if (!slot(w, c, flags, allow_ref, !st, !st, edecl)) return false;
  }
  e->depth--;
  return ok(e);
}

static bool write_map(const wt *w, const trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  const wire_ftype *kd = decl ? wire__pol_map_decl(w->ctx, decl->key) : NULL;
  const wire_ftype *vd = decl ? wire__pol_map_decl(w->ctx, decl->value) : NULL;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  if (!wire__enc_enter(e)) return false;
  uint32_t kc = (uint32_t)(t - w->recs) + 1; /* key record of the entry */
  uint32_t left = count;
  while (left) {
    uint32_t vc = w->recs[kc].end;
    const trec *k = res(w, kc), *v = res(w, vc);
    bool kn = k->type == WIRE_T_NULL, vn = v->type == WIRE_T_NULL;
    if (kn || vn) {
      uint32_t h = wire__pol_null_chunk(kn, vn, kd, vd);
      const wire_ftype *kdecl = (h & WIRE_MF_KEY_DECL) ? kd : NULL;
      const wire_ftype *vdecl = (h & WIRE_MF_VAL_DECL) ? vd : NULL;
      wire__put_u8(&e->b, (uint8_t)h);
      if (!kn && !slot(w, kc, h & WIRE_MF_KEY_TRACK, true, !kdecl, true, kdecl))
        return false;
      if (!vn && !slot(w, vc, h & WIRE_MF_VAL_TRACK, true, !vdecl, true, vdecl))
        return false;
      kc = w->recs[vc].end;
      left--;
      continue;
    }
    /* A normal chunk: the following entries of the same key and value
     * types, no nulls, fewer than WIRE_POL_CHUNK_MAX. */
    uint32_t size = 1;
    bool kt = tracked(w, k), vt = tracked(w, v);
    uint32_t c = w->recs[vc].end;
    while (size < left && size < WIRE_POL_CHUNK_MAX) {
      uint32_t c2 = w->recs[c].end;
      const trec *k2 = res(w, c), *v2 = res(w, c2);
      if (k2->type == WIRE_T_NULL || v2->type == WIRE_T_NULL ||
          !same_type(w, k, k2) || !same_type(w, v, v2))
        break;
      kt |= tracked(w, k2);
      vt |= tracked(w, v2);
      size++;
      c = w->recs[c2].end;
    }
    uint32_t h = wire__pol_chunk(decl, kd, vd, kt, vt);
    const wire_ftype *kdecl = (h & WIRE_MF_KEY_DECL) ? kd : NULL;
    const wire_ftype *vdecl = (h & WIRE_MF_VAL_DECL) ? vd : NULL;
    wire__put_u8(&e->b, (uint8_t)h);
    wire__put_u8(&e->b, (uint8_t)size);
    if ((!kdecl && !type_meta(w, k)) || (!vdecl && !type_meta(w, v)))
      return false;
    if (!(h & (WIRE_MF_KEY_TRACK | WIRE_MF_VAL_TRACK))) {
      /* no flags: the bodies alone (slot() without its flag branch) */
      for (uint32_t i = 0; i < size; i++) {
        vc = w->recs[kc].end;
        trec *k2 = res(w, kc), *v2 = res(w, vc);
        if (kdecl && WIRE_UNLIKELY(!fits(w, k2, kdecl)))
          return wire__enc_not_declared(e, k2->type, kdecl);
        if (k2->mark)
          return efail(e, WIRE_E_ENCODE,
                       "shared value in a slot without reference flags");
        if (!body(w, k2, kdecl)) return false;
        if (vdecl && WIRE_UNLIKELY(!fits(w, v2, vdecl)))
          return wire__enc_not_declared(e, v2->type, vdecl);
        if (v2->mark)
          return efail(e, WIRE_E_ENCODE,
                       "shared value in a slot without reference flags");
        if (!body(w, v2, vdecl)) return false;
        kc = w->recs[vc].end;
      }
    } else {
      for (uint32_t i = 0; i < size; i++) {
        vc = w->recs[kc].end;
        if (!slot(w, kc, h & WIRE_MF_KEY_TRACK, true, false, false, kdecl) ||
            !slot(w, vc, h & WIRE_MF_VAL_TRACK, true, false, false, vdecl))
          return false;
        kc = w->recs[vc].end;
      }
    }
    left -= size;
  }
  e->depth--;
  return ok(e);
}

static bool write_string(const wt *w, const trec *t) {
  wire_buf *b = &w->e->b;
  const uint8_t *p = payload(w, t);
  const uint8_t *s = p + 5;
  size_t n = t->n;
  if (!wire__buf_room(b, 5 + n)) return ok(w->e);
  wire__put_varu36(b, ((uint64_t)n << 2) | t->a);
  if (t->flags & R_SAME) {
    memcpy(b->p + b->len, s, n);
  } else {
    size_t m = wire__transcode(t->b, t->a, s, rd32(p + 1), b->p + b->len, n);
    if (m < n) memset(b->p + b->len + m, 0, n - m); /* malformed trusted text */
  }
  b->len += n;
  return ok(w->e);
}

static bool body(const wt *w, trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  wire_buf *b = &e->b;
  const uint8_t *p = payload(w, t);
  switch (t->type) {
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return write_struct(w, t);
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    wire__put_varu32(b, t->n);
    if (!wire__enc_enter(e)) return false;
    {
      /* a list, set or map case with the case's declared types (R-UNION-5) */
      const wire_ftype *cd = NULL;
      if (t->type != WIRE_T_UNION)
        cd = wire__union_case_decl_at(
            w->ctx, wire__union_find(w->ctx, t->type == WIRE_T_TYPED_UNION ? t->x : UINT32_MAX,
                                     t->type == WIRE_T_NAMED_UNION ? &w->names[t->x] : NULL),
            t->n);
      uint32_t vi = (uint32_t)(t - w->recs) + 1;
      if (cd && res(w, vi)->type != cd->type_id) cd = NULL;
      if (!slot(w, vi, true, true, true, true, cd)) return false;
    }
    e->depth--;
    return ok(e);
  case WIRE_T_BOOL: wire__put_u8(b, p[0] != 0); break;
  case WIRE_T_STRING: return write_string(w, t);
  case WIRE_T_LIST: case WIRE_T_SET: return write_list(w, t, decl);
  case WIRE_T_MAP: return write_map(w, t, decl);
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: wire__put_varu32(b, t->n); break;
  case WIRE_T_NONE: break;
  case WIRE_T_DURATION:
    wire__put_varu64(b, wire__zz64((int64_t)rd64(p)));
    wire__put_le(b, rd32(p + 8), 4);
    break;
  case WIRE_T_TIMESTAMP:
    wire__put_le(b, rd64(p), 8);
    wire__put_le(b, rd32(p + 8), 4);
    break;
  case WIRE_T_DATE: wire__put_varu64(b, wire__zz64((int64_t)rd64(p))); break;
  case WIRE_T_DECIMAL:
    return wire__enc_decimal(e, (int32_t)rd32(p), p[4] != 0, p + 9, rd32(p + 5));
  default:
    if (wire__is_prim(t->type)) {
      prim(b, t->type, rd64(p));
      break;
    }
    if (t->type == WIRE_T_BINARY || wire__is_array_type(t->type)) {
      if (!wire__enc_bytes(e, t->type, p + 4, rd32(p), 0)) return false;
      break;
    }
    return efail(e, WIRE_E_TYPE, "cannot encode a %s value",
                 wire_type_name(t->type) ? wire_type_name(t->type) : "?");
  }
  return ok(e);
}

/* ---- entry points -------------------------------------------------------- */

/* Pass 2: the roots into e->b. */
static bool write_roots(wire_ctx *ctx, scratch *s, const uint8_t *tape,
                        uint32_t roots, wire_enc *e) {
  wt w = {e, ctx, tape, s->recs, s->sts, s->fld, s->names};
  bool good = true;
  ctx->n_oob_out = 0;
  uint32_t ri = 0;
  for (uint32_t i = 0; i < roots && good; i++) {
    wire__put_u8(&e->b, wire__enc_root_header(e, ctx->oob));
    good = slot(&w, ri, true, true, true, true, NULL);
    for (size_t k = 0; k < e->nmarked; k++) ((trec *)e->marked[k])->mark = 0;
    wire__enc_end_root(e);
    ri = s->recs[ri].end;
  }
  return good && ok(e);
}

/* Scratch above this size is released after the call, so one huge message
 * does not pin its memory in the context. */
#define KEEP_BYTES ((size_t)16 << 20)

static void trim(wire_ctx *ctx, scratch *s) {
  if (s->recs_cap * sizeof *s->recs > KEEP_BYTES) {
    wire__free(ctx, s->recs, s->recs_cap * sizeof *s->recs);
    s->recs = NULL;
    s->recs_cap = 0;
  }
  if (s->refs_cap * sizeof *s->refs > KEEP_BYTES) {
    wire__free(ctx, s->refs, s->refs_cap * sizeof *s->refs);
    s->refs = NULL;
    s->refs_cap = 0;
  }
  if (s->fld_cap * sizeof *s->fld > KEEP_BYTES) {
    wire__free(ctx, s->fld, s->fld_cap * sizeof *s->fld);
    s->fld = NULL;
    s->fld_cap = 0;
  }
  if (s->out.cap > KEEP_BYTES) {
    wire__free(ctx, s->out.p, s->out.cap);
    s->out.p = NULL;
    s->out.cap = 0;
  }
  wire__arena_free(&s->arena);
}

/* Encodes the tape, appending to *out. On failure out->len is unchanged;
 * if out is a fixed buffer that is too small, the result is
 * WIRE_E_BUFFER_FULL and *need gets the payload size. */
static int32_t encode_buf(wire_ctx *ctx, const uint8_t *tape, size_t len,
                          wire_buf *out, size_t *need) {
  scratch *s = wire__tape_scratch(ctx);
  if (!s) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  uint32_t roots = 0;
  int32_t st = wire__tape_index(ctx, s, tape, len, &roots);
  if (!st && roots == 0) /* an empty payload is not one its decoder reads */
    st = wire__fail(ctx, WIRE_E_ARG, 0, "no root value to encode: a payload "
                    "holds at least one (R-PAYLOAD-1)");
  if (st) {
    trim(ctx, s);
    return st;
  }
  wire_enc *e = &s->enc;
  size_t base = out->len;
  e->b = *out;
  e->base = base;
  bool good = write_roots(ctx, s, tape, roots, e);
  out->p = e->b.p;
  out->cap = e->b.cap;
  int32_t bst = e->b.status;
  if (good) {
    out->len = e->b.len;
  } else {
    for (size_t k = 0; k < e->nmarked; k++) ((trec *)e->marked[k])->mark = 0;
    wire__enc_end_root(e);
    st = ctx->err_code ? ctx->err_code : WIRE_E_STATE;
    if (bst == WIRE_E_BUFFER_FULL) {
      /* Write again into scratch: the size needed, or the real error that
       * follows the point where the buffer filled up. */
      wire_buf tmp = {ctx, NULL, 0, 0, false, WIRE_OK};
      e->b = tmp;
      e->base = 0;
      wire_ctx_clear_error(ctx);
      if (write_roots(ctx, s, tape, roots, e)) {
        *need = e->b.len;
        st = wire__fail(ctx, WIRE_E_BUFFER_FULL, 0, "the payload needs %zu "
                        "bytes, the buffer has %zu", e->b.len, out->cap - base);
      } else {
        for (size_t k = 0; k < e->nmarked; k++) ((trec *)e->marked[k])->mark = 0;
        wire__enc_end_root(e);
        st = ctx->err_code ? ctx->err_code : WIRE_E_STATE;
      }
      wire__free(ctx, e->b.p, e->b.cap);
    }
  }
  memset(&e->b, 0, sizeof e->b);
  e->base = 0;
  if (st) ctx->n_oob_out = 0;
  trim(ctx, s);
  return st;
}

int32_t wire_encode_tape_to(wire_ctx *ctx, const uint8_t *tape, size_t len,
                            wire_writer *w) {
  if (!ctx || !w || (!tape && len)) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  if (w->b.status != WIRE_OK)
    return wire__fail(ctx, w->b.status, 0, "the writer has failed before");
  size_t need = 0, base = w->b.len;
  int32_t st = encode_buf(ctx, tape, len, &w->b, &need);
  if (st == WIRE_E_BUFFER_FULL) {
    w->b.status = WIRE_E_BUFFER_FULL;
    w->needed = base + need;
  }
  return st;
}

int32_t wire_encode_tape(wire_ctx *ctx, const uint8_t *tape, size_t len,
                         uint8_t **out, size_t *out_len) {
  if (!ctx || !out || !out_len || (!tape && len)) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  wire_ctx_clear_error(ctx);
  scratch *s = wire__tape_scratch(ctx);
  if (!s) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  wire_buf b = s->out; /* the context's output buffer, reused */
  s->out.p = NULL;
  s->out.cap = 0;
  b.len = 0;
  b.status = WIRE_OK;
  size_t need;
  int32_t st = encode_buf(ctx, tape, len, &b, &need);
  uint8_t *res = NULL;
  if (!st && !(res = wire__bytes_alloc(ctx, b.len)))
    st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  if (res) {
    if (b.len) memcpy(res, b.p, b.len);
    *out = res;
    *out_len = b.len;
  }
  if (s->out.p) wire__free(ctx, s->out.p, s->out.cap); /* trimmed meanwhile */
  s->out = b;
  s->out.len = 0;
  if (s->out.cap > KEEP_BYTES) {
    wire__free(ctx, s->out.p, s->out.cap);
    s->out.p = NULL;
    s->out.cap = 0;
  }
  return st;
}
