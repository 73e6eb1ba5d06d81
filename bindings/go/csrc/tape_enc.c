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

#include <stdio.h>

/* ---- pass 2: write ------------------------------------------------------ */

typedef struct {
  wire_enc *e;
  wire_ctx *ctx;
  const uint8_t *tape, *tape_end;
  trec *recs;
  const tstruct *sts;
  const uint32_t *fld;
  const wire_names *names;
  const tstr *strs;
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

/* ---- raw writes (room checked by the caller) ------------------------------ */

static inline uint8_t *q_varu32(uint8_t *q, uint32_t v) {
  while (v >= 0x80) { *q++ = (uint8_t)(v | 0x80); v >>= 7; }
  *q++ = (uint8_t)v;
  return q;
}
/* Bytes of a varuint64 by the bit length of its value (1..64). */
static const uint8_t varu64_len[65] = {
  1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3,
  4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7,
  7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9};

/* varuint64: LEB128 for up to 8 bytes, a 9th byte of the top 8 bits.
 * q has 9 bytes of room: the groups of 7 bits are spread over one word
 * (28-, 14-, then 7-bit halves) and stored at once. */
static inline uint8_t *q_varu64(uint8_t *q, uint64_t v) {
  if (v < 0x80) {
    *q = (uint8_t)v;
    return q + 1;
  }
  uint64_t x = (v & 0xFFFFFFF) | (v & UINT64_C(0xFFFFFFF0000000)) << 4;
  x = (x & UINT64_C(0x00003FFF00003FFF)) | (x & UINT64_C(0x0FFFC0000FFFC000)) << 2;
  x = (x & UINT64_C(0x007F007F007F007F)) | (x & UINT64_C(0x3F803F803F803F80)) << 1;
  unsigned n = varu64_len[64 - __builtin_clzll(v)];
  if (n == 9) {
    x |= UINT64_C(0x8080808080808080);
    q[8] = (uint8_t)(v >> 56);
  } else {
    x |= UINT64_C(0x8080808080808080) & ((UINT64_C(1) << (8 * n - 8)) - 1);
  }
  memcpy(q, &x, 8);
  return q + n;
}
static inline uint8_t *q_le(uint8_t *q, uint64_t v, int n) {
  for (int i = 0; i < n; i++) q[i] = (uint8_t)(v >> (8 * i));
  return q + n;
}
/* A string header: varuint36_small (a 5th byte of 8 bits). */
static inline uint8_t *q_varu36(uint8_t *q, uint64_t v) {
  if (WIRE_LIKELY(v < 0x80)) {
    *q++ = (uint8_t)v;
    return q;
  }
  for (int n = 0; v >= 0x80 && n < 4; n++) { *q++ = (uint8_t)(v | 0x80); v >>= 7; }
  *q++ = (uint8_t)v;
  return q;
}
/* n bytes from s to d (short ones without a call). */
static inline void copy(uint8_t *d, const uint8_t *s, size_t n) {
  uint64_t a, b;
  uint32_t x, y;
  if (n > 16) {
    memcpy(d, s, n);
  } else if (n >= 8) {
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    memcpy(&x, s, 4);
    memcpy(&y, s + n - 4, 4);
    memcpy(d, &x, 4);
    memcpy(d + n - 4, &y, 4);
  } else if (n) {
    d[0] = s[0];
    d[n / 2] = s[n / 2];
    d[n - 1] = s[n - 1];
  }
}

/* Most bytes a primitive body of each type takes (by type id). */
static const uint8_t prim_max[WIRE_T_FLOAT64 + 1] = {
  [WIRE_T_BOOL] = 1, [WIRE_T_INT8] = 1, [WIRE_T_INT16] = 2,
  [WIRE_T_INT32] = 4, [WIRE_T_VARINT32] = 5, [WIRE_T_INT64] = 8,
  [WIRE_T_VARINT64] = 9, [WIRE_T_TAGGED_INT64] = 9, [WIRE_T_UINT8] = 1,
  [WIRE_T_UINT16] = 2, [WIRE_T_UINT32] = 4, [WIRE_T_VAR_UINT32] = 5,
  [WIRE_T_UINT64] = 8, [WIRE_T_VAR_UINT64] = 9, [WIRE_T_TAGGED_UINT64] = 9,
  [WIRE_T_FLOAT16] = 2, [WIRE_T_BFLOAT16] = 2, [WIRE_T_FLOAT32] = 4,
  [WIRE_T_FLOAT64] = 8,
};

/* A primitive body from the 8 tape bytes of its value (i64, u64 or f64),
 * at q (prim_max[type] bytes of room); returns the end. */
static inline __attribute__((always_inline)) uint8_t *
prim_raw(uint8_t *q, uint8_t type, uint64_t u) {
  switch (type) {
  case WIRE_T_BOOL: *q = u != 0; return q + 1;
  case WIRE_T_INT8: case WIRE_T_UINT8: *q = (uint8_t)u; return q + 1;
  case WIRE_T_INT16: case WIRE_T_UINT16: return q_le(q, u, 2);
  case WIRE_T_INT32: case WIRE_T_UINT32: return q_le(q, u, 4);
  case WIRE_T_INT64: case WIRE_T_UINT64: return q_le(q, u, 8);
  case WIRE_T_VARINT32: return q_varu32(q, wire__zz32((int32_t)u));
  case WIRE_T_VAR_UINT32: return q_varu32(q, (uint32_t)u);
  case WIRE_T_VARINT64: return q_varu64(q, wire__zz64((int64_t)u));
  case WIRE_T_VAR_UINT64: return q_varu64(q, u);
  case WIRE_T_TAGGED_INT64: {
    int64_t v = (int64_t)u;
    if (v >= -(INT64_C(1) << 30) && v < (INT64_C(1) << 30))
      return q_le(q, (uint32_t)((uint32_t)(int32_t)v << 1), 4);
    *q = 1;
    return q_le(q + 1, u, 8);
  }
  case WIRE_T_TAGGED_UINT64:
    if (u < (UINT64_C(1) << 31)) return q_le(q, (uint32_t)u << 1, 4);
    *q = 1;
    return q_le(q + 1, u, 8);
  default: /* floats: rounded as wire_node_new_float does */
    if (type == WIRE_T_FLOAT64) return q_le(q, u, 8);
    if (type == WIRE_T_FLOAT32) return q_le(q, wire__f32_narrow(u), 4);
    return q_le(q, type == WIRE_T_FLOAT16 ? wire__f16_narrow(u)
                                          : wire__bf16_narrow(u), 2);
  }
}

static inline void prim(wire_buf *b, uint8_t type, uint64_t u) {
  if (wire__buf_room(b, prim_max[type]))
    b->len = (size_t)(prim_raw(b->p + b->len, type, u) - b->p);
}

#define HOT static inline __attribute__((always_inline))

/* UTF-8 text of chars below U+0100, checked well formed (tstr.l1), into
 * Latin-1 at q. ASCII goes 8 bytes at a time when the text can be read
 * and the output written 8 bytes past their ends (slack: q has n + 8
 * bytes of room, the tape 8 bytes after s + len). */
static void utf8_to_latin1(uint8_t *q, const uint8_t *s, size_t len,
                           bool slack) {
  size_t i = 0;
  if (slack) {
    while (i < len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      memcpy(q, &w, 8);
      uint64_t hi = w & UINT64_C(0x8080808080808080);
      size_t z = hi ? (size_t)__builtin_ctzll(hi) >> 3 : 8;
      if (z >= len - i) return;
      i += z;
      q += z;
      if (z == 8) continue;
      *q++ = (uint8_t)(s[i] << 6 | (s[i + 1] & 0x3F));
      i += 2;
    }
    return;
  }
  while (i < len) {
    uint8_t c = s[i];
    if (c < 0x80) {
      *q++ = c;
      i++;
    } else {
      *q++ = (uint8_t)(c << 6 | (s[i + 1] & 0x3F));
      i += 2;
    }
  }
}

/* Well-formed UTF-8 (checked by pass 1: S_UTF16) into UTF-16LE at q. */
static void utf8_to_utf16(uint8_t *q, const uint8_t *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    uint8_t c = s[i];
    uint32_t cp;
    if (c < 0x80) {
      q[0] = c;
      q[1] = 0;
      q += 2;
      i++;
      continue;
    }
    if (c < 0xE0) {
      cp = (uint32_t)(c & 0x1F) << 6 | (s[i + 1] & 0x3F);
      i += 2;
    } else if (c < 0xF0) {
      cp = (uint32_t)(c & 0x0F) << 12 | (uint32_t)(s[i + 1] & 0x3F) << 6 |
           (s[i + 2] & 0x3F);
      i += 3;
    } else {
      cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(s[i + 1] & 0x3F) << 12 |
           (uint32_t)(s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F);
      i += 4;
      cp -= 0x10000;
      uint32_t hi = 0xD800 + (cp >> 10);
      q[0] = (uint8_t)hi;
      q[1] = (uint8_t)(hi >> 8);
      q += 2;
      cp = 0xDC00 + (cp & 0x3FF);
    }
    q[0] = (uint8_t)cp;
    q[1] = (uint8_t)(cp >> 8);
    q += 2;
  }
}

/* The wire bytes of a string (x->n of them) at q, from s[0..len) in the
 * tape; slack: as utf8_to_latin1. */
HOT void text_raw(uint8_t *q, const tstr *x, const uint8_t *s, uint32_t len,
                  bool slack) {
  size_t n = x->n;
  switch (x->how) {
  case S_COPY: copy(q, s, n); break;
  case S_LATIN1: utf8_to_latin1(q, s, len, slack); break;
  case S_UTF16: utf8_to_utf16(q, s, len); break;
  default: {
    size_t m = wire__transcode(x->given, x->enc, s, len, q, n);
    if (m < n) memset(q + m, 0, n - m); /* malformed trusted text */
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
  bool flag = f->nullable || f->ref || wire__peer_any_flag(w->ctx, f) ||
              wire__peer_value_flag(w->ctx, f);
  bool ref = f->ref || wire__peer_field_tracks(w->ctx, f);
  if (vi == NONE32) {
    if (!flag) return efail(e, WIRE_E_ENCODE, "no value (not nullable)");
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (wire__peer_field_meta(w->ctx, f))
    return slot(w, vi, flag, ref, true, false, f);
  bool dynamic = !wire__pol_static_type(w->ctx, f);
  if (wire__is_prim(f->type_id) && !flag) {
    trec *v = res(w, vi);
    if (v->type != f->type_id)
      return wire__enc_not_declared(e, v->type, f);
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
    if (!field(w, &l->fields[i], w->fld[st->fields + i]))
      return wire__enc_in_field(e, l, &l->fields[i]);
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

/* ---- flat containers (tape_rec.h) ---------------------------------------- */

#define copy16 wire__copy16

/* The body of the scalar at tape *pp (not a null, op `op`) at q: *pp moves
 * past it, *xs past its string entry. `over`: q has 16 bytes of room
 * after the body, which short strings are copied with when the tape (up
 * to tape_end) has 16 bytes after them too. Returns the end of the body. */
HOT uint8_t *body_raw(uint8_t *q, const uint8_t **pp, uint8_t op,
                      const tstr **xs, bool over, const uint8_t *tape_end) {
  const uint8_t *p = *pp;
  switch (op) {
  case WIRE_T_STRING: {
    const tstr *x = (*xs)++;
    uint32_t len = rd32(p + 2);
    const uint8_t *s = p + 6;
    size_t n = x->n;
    *pp = s + len;
    q = q_varu36(q, ((uint64_t)n << 2) | x->enc);
    over = over && (size_t)(tape_end - s) - len >= 16;
    if (WIRE_LIKELY(x->how == S_COPY) && over && n <= 16) copy16(q, s);
    else text_raw(q, x, s, len, over);
    return q + n;
  }
  case WIRE_T_NONE: *pp = p + 1; return q;
  case WIRE_T_BOOL: *pp = p + 2; *q = p[1] != 0; return q + 1;
  case WIRE_T_DATE:
    *pp = p + 9;
    return q_varu64(q, wire__zz64((int64_t)rd64(p + 1)));
  case WIRE_T_TIMESTAMP:
    *pp = p + 13;
    return q_le(q_le(q, rd64(p + 1), 8), rd32(p + 9), 4);
  case WIRE_T_DURATION:
    *pp = p + 13;
    return q_le(q_varu64(q, wire__zz64((int64_t)rd64(p + 1))), rd32(p + 9), 4);
  default:
    *pp = p + 9;
    return prim_raw(q, op, rd64(p + 1));
  }
}

/* The room an element at tape p (not a null) takes at most, as the other
 * writers ask for it: its reference flag (flag >= 0), type byte (typed)
 * and body. */
static inline size_t elem_room(const uint8_t *p, const tstr *x, int flag,
                               bool typed) {
  uint8_t op = p[0];
  size_t k = op == WIRE_T_STRING ? 5 + (size_t)x->n
             : op <= WIRE_T_FLOAT64 ? prim_max[op]
             : op == WIRE_T_NONE ? 0
             : op == WIRE_T_DATE ? 9 : op == WIRE_T_TIMESTAMP ? 12 : 13;
  return k + (flag >= 0) + typed;
}

/* An element (not a null): flag, type byte, body. */
HOT uint8_t *elem_raw(uint8_t *q, const uint8_t **pp, int flag, bool typed,
                      const tstr **xs, bool over, const uint8_t *tape_end) {
  uint8_t op = **pp;
  if (flag >= 0) *q++ = (uint8_t)flag;
  if (typed) *q++ = op;
  return body_raw(q, pp, op, xs, over, tape_end);
}

/* The output of a flat container: its room asked for once (`fast`: twice
 * the tape bytes of the elements, which bounds what they are written as,
 * and slack), or per element as the other writers ask (a caller's fixed
 * buffer without that much room left). */
typedef struct {
  wire_buf *b;
  uint8_t *q;
  bool fast, over;
  const uint8_t *tape_end;
} wq;

static inline void wq_open(wq *o, const wt *w, const trec *t) {
  wire_buf *b = &w->e->b;
  size_t need = 2 * (size_t)t->span + 32;
  o->b = b;
  o->fast = b->status == WIRE_OK &&
            (b->cap - b->len >= need || (!b->fixed && wire__buf_room(b, need)));
  o->over = o->fast;
  o->tape_end = w->tape_end;
  o->q = b->p ? b->p + b->len : NULL;
}
static inline void wq_close(wq *o) {
  if (o->q) o->b->len = (size_t)(o->q - o->b->p);
}
/* Room for n bytes (checked when not fast). */
static inline bool wq_room(wq *o, size_t n) {
  if (WIRE_LIKELY(o->fast)) return true;
  wq_close(o);
  if (!wire__buf_room(o->b, n)) return false;
  o->q = o->b->p + o->b->len;
  return true;
}
static inline const uint8_t *wq_elem(wq *o, const uint8_t *p, int flag,
                                     bool typed, const tstr **xs) {
  if (!o->fast && !wq_room(o, elem_room(p, *xs, flag, typed))) return NULL;
  o->q = elem_raw(o->q, &p, flag, typed, xs, o->over, o->tape_end);
  return p;
}

/* Whether the scalar op fits the declared type (numbers and strings are no
 * user types: the type id alone must be declared). */
static inline bool op_fits(const wt *w, const wire_ftype *decl, uint8_t op) {
  return !decl || wire__pol_fits_decl(w->ctx, decl, op, UINT32_MAX, NULL, NULL);
}

/* The index of the first of `count` scalars at p that is not null and does
 * not fit decl; count if all fit. */
static uint32_t flat_first_unfit(const wt *w, const trec *t, const uint8_t *p,
                                 uint32_t count, const wire_ftype *decl) {
  if ((t->flags & R_FSAME) && t->a && op_fits(w, decl, t->a)) return count;
  for (uint32_t i = 0; i < count; i++) {
    if (*p != TAPE_NULL && !op_fits(w, decl, *p)) return i;
    p += scalar_size(p);
  }
  return count;
}

/* write_list for a flat list or set (count > 0): the same header and
 * framing from the types pass 1 summed up (scalars are never tracked by
 * the policy nor named by a REF). */
static bool write_flat_list(const wt *w, const trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  const wire_ftype *edecl;
  /* (all null, t->a 0: no same-type bit without a type to write, R-WLIST-2) */
  bool same = (t->flags & R_FSAME) &&
              (t->a || wire__pol_null_list_typed(w->ctx, decl));
  uint8_t h = wire__pol_list_header(w->ctx, decl, same, t->flags & R_FNULL,
                                    false, &edecl);
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) {
    if (t->a) wire__put_u8(&e->b, t->a);
    else if (!wire__enc_null_list_meta(e, decl)) return false; /* all null */
  }
  if (!wire__enc_enter(e)) return false;
  /* slot(): a value of undeclared type is tracked under reference
   * tracking (a reference id that nothing names) */
  int flag = !flags ? -1
             : (h & WIRE_LF_TRACKING) && !st && w->ctx->ref_tracking ? 0x00
                                                                     : 0xFF;
  const uint8_t *p = w->tape + t->at + 5;
  const tstr *xs = w->strs + t->x;
  /* elements written without type meta must be of the declared type: the
   * first that is not ends the list with an error there, as in encode.c */
  uint32_t upto = edecl ? flat_first_unfit(w, t, p, count, edecl) : count;
  wq o;
  wq_open(&o, w, t);
  if (upto == count && o.fast && !flags && (t->flags & R_FSAME) &&
      t->a == WIRE_T_STRING) {
    /* strings, bodies alone */
    uint8_t *q = o.q;
    if (o.over && (t->flags & R_FL1)) {
      /* a JVM's Latin-1 strings (R_FL1): each its length as the header
       * and its bytes, without their entries in strs */
      const uint8_t *te = w->tape_end;
      for (uint32_t i = 0; i < count; i++) {
        uint32_t len = rd32(p + 2);
        const uint8_t *s = p + 6;
        p = s + len;
        q = q_varu36(q, (uint64_t)len << 2 | WIRE_STR_LATIN1);
        if (WIRE_LIKELY(len <= 16 && (size_t)(te - p) >= 16)) copy16(q, s);
        else memcpy(q, s, len);
        q += len;
      }
    } else if (o.over)
      for (uint32_t i = 0; i < count; i++)
        q = body_raw(q, &p, WIRE_T_STRING, &xs, true, w->tape_end);
    else
      for (uint32_t i = 0; i < count; i++)
        q = body_raw(q, &p, WIRE_T_STRING, &xs, false, w->tape_end);
    o.q = q;
  } else {
    for (uint32_t i = 0; i < count; i++) {
      if (i == upto && *p != TAPE_NULL) {
        wq_close(&o);
        return wire__enc_not_declared(e, *p, edecl);
      }
      if (*p == TAPE_NULL) {
        if (!flags) {
          wq_close(&o);
          return efail(e, WIRE_E_ENCODE, "null where the slot has no null flag");
        }
        if (!wq_room(&o, 1)) break;
        *o.q++ = 0xFD;
        p++;
        continue;
      }
      if (o.fast)
        o.q = elem_raw(o.q, &p, flag, !st, &xs, true, w->tape_end);
      else if (!(p = wq_elem(&o, p, flag, !st, &xs)))
        break;
      if (flag == 0) e->nrefs++;
    }
  }
  wq_close(&o);
  e->depth--;
  return ok(e);
}

/* `size` entries of a normal chunk of a flat map (key and value ops kt,
 * vt; reference flags kf, vf < 0: none). */
HOT uint8_t *entries_raw(uint8_t *q, const uint8_t **pp, uint32_t size,
                         uint8_t kt, uint8_t vt, int kf, int vf,
                         const tstr **xs, bool over, const uint8_t *tape_end) {
  for (uint32_t i = 0; i < size; i++) {
    if (kf >= 0) *q++ = (uint8_t)kf;
    q = body_raw(q, pp, kt, xs, over, tape_end);
    if (vf >= 0) *q++ = (uint8_t)vf;
    q = body_raw(q, pp, vt, xs, over, tape_end);
  }
  return q;
}

/* entries_raw with the usual key and value types spelled out, so that
 * their bodies are written without a dispatch per value. */
static uint8_t *chunk_raw(uint8_t *q, const uint8_t **pp, uint32_t size,
                          uint8_t kt, uint8_t vt, int kf, int vf,
                          const tstr **xs, bool over,
                          const uint8_t *tape_end) {
#define ENTRIES(k, v) entries_raw(q, pp, size, k, v, kf, vf, xs, over, tape_end)
  if (kt == WIRE_T_STRING && kf < 0 && vf < 0) {
#define NOFLAG(k, v) entries_raw(q, pp, size, k, v, -1, -1, xs, over, tape_end)
    switch (vt) { /* the usual case: no reference flags */
    case WIRE_T_STRING: return NOFLAG(WIRE_T_STRING, WIRE_T_STRING);
    case WIRE_T_VARINT64: return NOFLAG(WIRE_T_STRING, WIRE_T_VARINT64);
    case WIRE_T_VARINT32: return NOFLAG(WIRE_T_STRING, WIRE_T_VARINT32);
    case WIRE_T_INT64: return NOFLAG(WIRE_T_STRING, WIRE_T_INT64);
    case WIRE_T_FLOAT64: return NOFLAG(WIRE_T_STRING, WIRE_T_FLOAT64);
    case WIRE_T_BOOL: return NOFLAG(WIRE_T_STRING, WIRE_T_BOOL);
    default: return NOFLAG(WIRE_T_STRING, vt);
    }
#undef NOFLAG
  }
  if (kt == WIRE_T_STRING) {
    switch (vt) {
    case WIRE_T_STRING: return ENTRIES(WIRE_T_STRING, WIRE_T_STRING);
    case WIRE_T_VARINT64: return ENTRIES(WIRE_T_STRING, WIRE_T_VARINT64);
    case WIRE_T_VARINT32: return ENTRIES(WIRE_T_STRING, WIRE_T_VARINT32);
    case WIRE_T_INT64: return ENTRIES(WIRE_T_STRING, WIRE_T_INT64);
    case WIRE_T_FLOAT64: return ENTRIES(WIRE_T_STRING, WIRE_T_FLOAT64);
    case WIRE_T_BOOL: return ENTRIES(WIRE_T_STRING, WIRE_T_BOOL);
    default: return ENTRIES(WIRE_T_STRING, vt);
    }
  }
  if (kt == WIRE_T_VARINT64 && vt == WIRE_T_VARINT64)
    return ENTRIES(WIRE_T_VARINT64, WIRE_T_VARINT64);
  return ENTRIES(kt, vt);
#undef ENTRIES
}

/* write_map for a flat map (count > 0). */
static bool write_flat_map(const wt *w, const trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  const wire_ftype *kd = decl ? wire__pol_map_decl(w->ctx, decl->key) : NULL;
  const wire_ftype *vd = decl ? wire__pol_map_decl(w->ctx, decl->value) : NULL;
  uint32_t left = t->n;
  wire__put_varu32(&e->b, left);
  if (!wire__enc_enter(e)) return false;
  bool homo = t->flags & R_FSAME;
  int any = w->ctx->ref_tracking ? 0x00 : 0xFF;
  const uint8_t *p = w->tape + t->at + 5;
  const tstr *xs = w->strs + t->x;
  wq o;
  wq_open(&o, w, t);
  while (left) {
    const uint8_t *k = p, *v = p + scalar_size(p);
    bool kn = *k == TAPE_NULL, vn = *v == TAPE_NULL;
    if (kn || vn) {
      /* a null chunk: the other side as a slot of undeclared type */
      uint32_t h = wire__pol_null_chunk(kn, vn, kd, vd);
      if (!wq_room(&o, 1)) break;
      *o.q++ = (uint8_t)h;
      if (!kn && (h & WIRE_MF_KEY_DECL) && !op_fits(w, kd, *k)) {
        wq_close(&o);
        return wire__enc_not_declared(e, *k, kd);
      }
      p = kn ? k + 1
             : wq_elem(&o, k, (h & WIRE_MF_KEY_TRACK) ? any : -1,
                       !(h & WIRE_MF_KEY_DECL), &xs);
      if (!p) break;
      if (!kn && (h & WIRE_MF_KEY_TRACK) && !any) e->nrefs++;
      if (!vn && (h & WIRE_MF_VAL_DECL) && !op_fits(w, vd, *v)) {
        wq_close(&o);
        return wire__enc_not_declared(e, *v, vd);
      }
      p = vn ? v + 1
             : wq_elem(&o, v, (h & WIRE_MF_VAL_TRACK) ? any : -1,
                       !(h & WIRE_MF_VAL_DECL), &xs);
      if (!p) break;
      if (!vn && (h & WIRE_MF_VAL_TRACK) && !any) e->nrefs++;
      left--;
      continue;
    }
    /* a normal chunk: the following entries of the same types, no null */
    uint8_t kt = *k, vt = *v;
    uint32_t size = left < WIRE_POL_CHUNK_MAX ? left : WIRE_POL_CHUNK_MAX;
    if (!homo) {
      const uint8_t *c = v + scalar_size(v);
      uint32_t most = size;
      for (size = 1; size < most; size++) {
        const uint8_t *v2 = c + scalar_size(c);
        if (*c != kt || *v2 != vt) break;
        c = v2 + scalar_size(v2);
      }
    }
    uint32_t h = wire__pol_chunk(decl, kd, vd, false, false);
    if (!wq_room(&o, 4)) break;
    *o.q++ = (uint8_t)h;
    *o.q++ = (uint8_t)size;
    if (!(h & WIRE_MF_KEY_DECL)) *o.q++ = kt;
    if (!(h & WIRE_MF_VAL_DECL)) *o.q++ = vt;
    int kf = (h & WIRE_MF_KEY_TRACK) ? 0xFF : -1;
    int vf = (h & WIRE_MF_VAL_TRACK) ? 0xFF : -1;
    /* the chunk's keys (values) are all of one type: its first entry says
     * whether they fit the declared type */
    bool kbad = (h & WIRE_MF_KEY_DECL) && !op_fits(w, kd, kt);
    if (kbad || ((h & WIRE_MF_VAL_DECL) && !op_fits(w, vd, vt))) {
      if (!kbad && wq_room(&o, elem_room(p, xs, kf, false)))
        o.q = elem_raw(o.q, &p, kf, false, &xs, false, o.tape_end);
      wq_close(&o);
      if (o.b->status != WIRE_OK) return ok(e);
      return kbad ? wire__enc_not_declared(e, kt, kd)
                  : wire__enc_not_declared(e, vt, vd);
    }
    if (o.fast) {
      o.q = chunk_raw(o.q, &p, size, kt, vt, kf, vf, &xs, o.over, o.tape_end);
    } else {
      for (uint32_t i = 0; i < size && p; i++) {
        p = wq_elem(&o, p, kf, false, &xs);
        if (p) p = wq_elem(&o, p, vf, false, &xs);
      }
      if (!p) break;
    }
    left -= size;
  }
  wq_close(&o);
  e->depth--;
  return ok(e);
}

/* write_list for an L1_LIST: the header of a list of strings without a
 * null, then each element's wire bytes as the tape gives them (pass 1
 * checked their framing), after its flag when the header asks for flags. */
static bool write_l1_list(const wt *w, const trec *t,
                          const wire_ftype *decl) {
  wire_enc *e = w->e;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  const wire_ftype *edecl;
  uint8_t h = wire__pol_list_header(w->ctx, decl, true, false, false, &edecl);
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) wire__put_u8(&e->b, WIRE_T_STRING);
  if (!wire__enc_enter(e)) return false;
  if (edecl && !op_fits(w, edecl, WIRE_T_STRING))
    return wire__enc_not_declared(e, WIRE_T_STRING, edecl);
  const uint8_t *p = w->tape + t->at + 9, *end = p + t->span;
  if (!flags) {
    wire__put_bytes(&e->b, p, t->span);
  } else {
    /* as write_flat_list: a value of undeclared type is tracked under
     * reference tracking (a reference id that nothing names) */
    uint8_t flag = (h & WIRE_LF_TRACKING) && !st && w->ctx->ref_tracking
                       ? 0x00 : 0xFF;
    for (uint32_t i = 0; i < count; i++) {
      const uint8_t *s = p;
      uint32_t len = 0;
      wire__tape_l1_next(&p, end, &len); /* (checked in pass 1) */
      wire__put_u8(&e->b, flag);
      wire__put_bytes(&e->b, s, (size_t)(p - s));
      if (flag == 0) e->nrefs++;
    }
  }
  e->depth--;
  return ok(e);
}

static bool write_list(const wt *w, const trec *t, const wire_ftype *decl) {
  if (t->flags & R_L1LIST) return write_l1_list(w, t, decl);
  if (t->flags & R_FLAT) return write_flat_list(w, t, decl);
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
  /* all null: no same-type bit without a type to write (R-WLIST-2) */
  if (!first && !wire__pol_null_list_typed(w->ctx, decl)) same = false;
  const wire_ftype *edecl;
  uint8_t h = wire__pol_list_header(w->ctx, decl, same, has_null, track, &edecl);
  /* an element recorded tracked (shared) needs the tracking bit (R-WLIST-8) */
  for (uint32_t c = first_at; c < end && !(h & WIRE_LF_TRACKING); c = w->recs[c].end)
    if (res(w, c)->flags & R_TRACKED) h = wire__pol_list_shared(h);
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) {
    if (first) {
      if (!type_meta(w, first)) return false;
    } else if (!wire__enc_null_list_meta(e, decl)) {
      return false;
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
  if (t->flags & R_FLAT) return write_flat_map(w, t, decl);
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
  tstr x = {t->n, t->a, t->b, (uint8_t)t->x, 0};
  if (!wire__buf_room(b, 5 + (size_t)x.n)) return ok(w->e);
  uint32_t len = rd32(p + 1);
  bool slack = b->cap - b->len >= 13 + (size_t)x.n &&
               (size_t)(w->tape_end - (p + 5 + len)) >= 8;
  uint8_t *q = q_varu36(b->p + b->len, ((uint64_t)x.n << 2) | x.enc);
  text_raw(q, &x, p + 5, len, slack);
  b->len = (size_t)(q - b->p) + x.n;
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
                        size_t len, uint32_t roots, wire_enc *e) {
  wt w = {e, ctx, tape, tape + len, s->recs, s->sts, s->fld, s->names, s->strs};
  bool good = true;
  ctx->n_oob_out = 0;
  e->field_named = false; /* (the writer state is the context's, reused) */
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
  if (s->strs_cap * sizeof *s->strs > KEEP_BYTES) {
    wire__free(ctx, s->strs, s->strs_cap * sizeof *s->strs);
    s->strs = NULL;
    s->strs_cap = 0;
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
  bool good = write_roots(ctx, s, tape, len, roots, e);
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
      if (write_roots(ctx, s, tape, len, roots, e)) {
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
