/* encode.c - document to bytes. Choices recorded in the document (string
 * encodings, reference flags, element headers, map chunks, meta string
 * encodings) are reproduced; everything else follows the writer policy of
 * the Fory Java runtime (spec/ "Writer policy"). */
#include "policy.h"

typedef wire_enc enc;

#define efail wire__enc_fail
#define ok wire__enc_ok
#define enter wire__enc_enter

/* ---- reference ids of this root ----
 * A node written with REF_VALUE gets the next id; marked[id - 1] is the
 * node, and mtab finds the id of a node (linear probing; slots inserted in
 * id order, emptied in reverse order at the end of the root, so probing
 * never meets a hole). */
struct wire_mark_slot {
  const wire_node *n;
  uint32_t id;
};

static inline size_t mark_hash(const wire_node *n, size_t cap) {
  uint64_t x = (uint64_t)(uintptr_t)n * UINT64_C(0x9e3779b97f4a7c15);
  return (size_t)(x >> 32) & (cap - 1);
}

/* The reference id given to n in this root, 0 if none. */
static inline uint32_t mark_of(const enc *e, const wire_node *n) {
  if (WIRE_LIKELY(e->nmarked == 0)) return 0;
  size_t cap = e->mtab_cap;
  for (size_t i = mark_hash(n, cap);; i = (i + 1) & (cap - 1)) {
    const struct wire_mark_slot *s = &e->mtab[i];
    if (s->n == n) return s->id;
    if (!s->n) return 0;
  }
}

static void mark_insert(struct wire_mark_slot *t, size_t cap,
                        const wire_node *n, uint32_t id) {
  size_t i = mark_hash(n, cap);
  while (t[i].n) i = (i + 1) & (cap - 1);
  t[i].n = n;
  t[i].id = id;
}

/* Gives n the next reference id. */
static bool mark_new(enc *e, wire_node *n) {
  if ((e->nmarked + 1) * 2 > e->mtab_cap) {
    size_t cap = e->mtab_cap ? e->mtab_cap * 2 : 64;
    struct wire_mark_slot *t = wire__alloc(e->ctx, cap * sizeof *t);
    if (!t) return efail(e, WIRE_E_NOMEM, "out of memory");
    memset(t, 0, cap * sizeof *t);
    for (size_t i = 0; i < e->nmarked; i++)
      mark_insert(t, cap, e->marked[i], (uint32_t)i + 1);
    if (e->mtab) wire__free(e->ctx, e->mtab, e->mtab_cap * sizeof *t);
    e->mtab = t;
    e->mtab_cap = cap;
  }
  if (!wire__enc_mark(e, n)) return false;
  mark_insert(e->mtab, e->mtab_cap, n, ++e->nrefs);
  return true;
}

/* Forgets the ids of this root. */
static void marks_clear(enc *e) {
  for (size_t k = e->nmarked; k-- > 0;) {
    const wire_node *n = e->marked[k];
    size_t cap = e->mtab_cap, i = mark_hash(n, cap);
    while (e->mtab[i].n != n) i = (i + 1) & (cap - 1);
    e->mtab[i].n = NULL;
  }
}

/* Whether a node is written with REF_VALUE: its recorded choice, else the
 * policy for fresh values under reference tracking. */
static inline bool tracked(const enc *e, const wire_node *n) {
  return wire__pol_tracked(e->ctx, n->type, n->flags & WIRE_NF_TRACK_SET,
                           n->flags & WIRE_NF_TRACKED);
}

/* Two nodes share type meta (same id; same user type for enums). */
static inline bool same_type(const wire_node *a, const wire_node *b) {
  if (a->type != b->type) return false;
  switch (a->type) {
  case WIRE_T_ENUM:
    return a->v.en == b->v.en;
  case WIRE_T_TYPED_UNION:
    return a->v.un->user_id == b->v.un->user_id;
  case WIRE_T_NAMED_ENUM:
    return wire__pol_same_type(a->type, b->type, 0, 0, a->v.names,
                               b->v.names, NULL, NULL);
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    /* (one meta word: one layout) */
    return wire__st_meta(a) == wire__st_meta(b) ||
           wire__pol_same_layout(wire__st_layout(a), wire__st_layout(b));
  default:
    return true;
  }
}

static bool write_type_meta(enc *e, const wire_node *n) {
  if (n->type == WIRE_T_COMPATIBLE_STRUCT ||
      n->type == WIRE_T_NAMED_COMPATIBLE_STRUCT)
    return wire__enc_struct_td_meta(e, n->type, wire__st_layout(n));
  wire_user_meta um = {UINT32_MAX, NULL, NULL, -1, -1};
  switch (n->type) {
  case WIRE_T_ENUM: um.user_id = n->v.en; break;
  case WIRE_T_NAMED_ENUM: um.names = n->v.names; break;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT:
    um.layout = wire__st_layout(n); /* (their type meta takes no names) */
    break;
  case WIRE_T_NAMED_STRUCT: case WIRE_T_NAMED_EXT:
    um.layout = wire__st_layout(n);
    um.names = wire__st_names(n);
    break;
  case WIRE_T_TYPED_UNION: um.user_id = n->v.un->user_id; break;
  case WIRE_T_NAMED_UNION: um.names = n->v.un->names; break;
  default:
    wire__put_u8(&e->b, n->type);
    return ok(e);
  }
  if (n->flags & WIRE_NF_NAMES_SET) {
    um.ns_enc = n->a;
    um.name_enc = n->b;
  }
  return wire__enc_type_meta(e, n->type, &um);
}

/* Text and array bytes: wire__copy_short, and up to 64 bytes (a URL, a
 * sentence) without a call too, in overlapping 32-byte moves. */
static inline __attribute__((always_inline)) void
copy_body(uint8_t *q, const uint8_t *p, size_t n) {
  if (n > 32 && n <= 64) {
    uint64_t a, b, c, w, x, y, z, t;
    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    memcpy(&c, p + 16, 8);
    memcpy(&w, p + 24, 8);
    memcpy(&x, p + n - 32, 8);
    memcpy(&y, p + n - 24, 8);
    memcpy(&z, p + n - 16, 8);
    memcpy(&t, p + n - 8, 8);
    memcpy(q, &a, 8);
    memcpy(q + 8, &b, 8);
    memcpy(q + 16, &c, 8);
    memcpy(q + 24, &w, 8);
    memcpy(q + n - 32, &x, 8);
    memcpy(q + n - 24, &y, 8);
    memcpy(q + n - 16, &z, 8);
    memcpy(q + n - 8, &t, 8);
    return;
  }
  wire__copy_short(q, p, n);
}

/* write_type_meta, a compatible struct's TypeDef this root announced
 * without a call. */
static inline bool type_meta(enc *e, const wire_node *n) {
  if (n->type == WIRE_T_COMPATIBLE_STRUCT ||
      n->type == WIRE_T_NAMED_COMPATIBLE_STRUCT)
    return wire__enc_struct_td(e, n->type, wire__st_layout(n));
  return write_type_meta(e, n);
}

static bool write_body(enc *e, wire_node *n, const wire_ftype *decl);
static bool write_struct(enc *e, wire_node *n);
static bool write_list(enc *e, wire_node *n, const wire_ftype *decl);

#define is_prim wire__is_prim
#define static_type(e, f) wire__pol_static_type((e)->ctx, (f))

/* A value in a slot of declared type `decl` whose type meta is not
 * written must be of that type (wire__pol_fits_decl). */
static bool fits_slow(const enc *e, const wire_node *n,
                      const wire_ftype *decl);
static inline bool fits(const enc *e, const wire_node *n,
                        const wire_ftype *decl) {
  const wire_registry *r = e->ctx->reg;
  if (n->type == WIRE_T_ENUM && r && decl->user < r->ntypes) {
    /* an enum registered by id: the common case, inline */
    const wire_utype *t = &r->types[decl->user];
    if (t->kind == WIRE_KIND_ENUM && !t->by_name) return n->v.en == t->user_id;
  }
  return fits_slow(e, n, decl);
}
__attribute__((noinline)) static bool fits_slow(const enc *e,
                                                const wire_node *n,
                                                const wire_ftype *decl) {
  uint32_t uid = UINT32_MAX;
  const wire_names *nm = NULL;
  const wire_layout *l = NULL;
  if (n->type == WIRE_T_ENUM) uid = n->v.en;
  else if (n->type == WIRE_T_NAMED_ENUM) nm = n->v.names;
  else if (wire__is_struct_or_ext(n->type)) l = wire__st_layout(n);
  return wire__pol_fits_decl(e->ctx, decl, n->type, uid, nm, l);
}

static bool write_slot(enc *e, wire_node *n, bool has_flag, bool allow_ref,
                       bool with_type, bool any_slot, const wire_ftype *decl) {
  if (n->type == WIRE_T_NULL) {
    if (!has_flag)
      return efail(e, WIRE_E_ENCODE, "null where the slot has no null flag");
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (!with_type && decl && WIRE_UNLIKELY(!fits(e, n, decl)))
    return wire__enc_not_declared(e, n->type, decl);
  if (has_flag) {
    /* Under reference tracking the Java runtime flags every value in a
     * slot of undeclared type (a root, an element of a mixed list, the
     * non-null side of a null map entry) 0x00, whatever its type. */
    bool track = wire__pol_slot_tracks(e->ctx, any_slot,
                                       n->flags & WIRE_NF_TRACK_SET,
                                       tracked(e, n));
    if (allow_ref && track) {
      uint32_t id = mark_of(e, n);
      if (id) {
        wire__put_u8(&e->b, 0xFE);
        wire__put_varu32(&e->b, id - 1);
        return ok(e);
      }
      wire__put_u8(&e->b, 0x00);
      if (!mark_new(e, n)) return false;
    } else {
      wire__put_u8(&e->b, 0xFF);
    }
  } else if (mark_of(e, n)) {
    return efail(e, WIRE_E_ENCODE,
                 "shared value in a slot without reference flags");
  }
  if (with_type && !write_type_meta(e, n)) return false;
  return write_body(e, n, decl);
}

static bool write_field(enc *e, const wire_lfield *lf, wire_node *v) {
  const wire_ftype *f = lf->type;
  bool flag = f->nullable || f->ref || wire__peer_any_flag(e->ctx, f) ||
              wire__peer_value_flag(e->ctx, f);
  bool ref = f->ref || wire__peer_field_tracks(e->ctx, f);
  if (!v) {
    if (!flag)
      return efail(e, WIRE_E_ENCODE, "field %.*s has no value",
                   (int)lf->name_len, (const char *)lf->name);
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (wire__peer_field_meta(e->ctx, f))
    return write_slot(e, v, flag, ref, true, false, f);
  bool dynamic = !static_type(e, f);
  if (is_prim(f->type_id) && !flag) {
    if (WIRE_UNLIKELY(v->type != f->type_id))
      return efail(e, WIRE_E_ENCODE, "field %.*s is a %s, not a %s",
                   (int)lf->name_len, (const char *)lf->name,
                   wire_type_name(f->type_id), wire_type_name(v->type));
    /* the common encodings here, the rest through write_body */
    wire_buf *b = &e->b;
    switch (v->type) {
    case WIRE_T_VARINT32: wire__put_varu32(b, wire__zz32((int32_t)v->v.i)); break;
    case WIRE_T_VARINT64: wire__put_varu64(b, wire__zz64(v->v.i)); break;
    case WIRE_T_INT32: case WIRE_T_FLOAT32: wire__put_le(b, v->v.u, 4); break;
    case WIRE_T_INT64: case WIRE_T_FLOAT64: wire__put_le(b, v->v.u, 8); break;
    case WIRE_T_BOOL: wire__put_u8(b, v->v.i ? 1 : 0); break;
    default: return write_body(e, v, f);
    }
    return WIRE_LIKELY(b->status == WIRE_OK) || ok(e);
  }
  if (!flag && !dynamic && !mark_of(e, v)) {
    /* A string, binary or dense array in a slot of its declared type:
     * the body alone (what write_slot would reach for it). */
    wire_buf *b = &e->b;
    if (v->type == WIRE_T_STRING && f->type_id == WIRE_T_STRING) {
      wire__put_varu36(b, ((uint64_t)v->small << 2) | v->a);
      wire__put_bytes(b, v->v.p, (size_t)v->small);
      return WIRE_LIKELY(b->status == WIRE_OK) || ok(e);
    }
    if (v->type == f->type_id && wire__is_array_type(v->type) && !e->oob) {
      wire__put_varu32(b, (uint32_t)v->small);
      wire__put_bytes(b, v->v.p, (size_t)v->small);
      return WIRE_LIKELY(b->status == WIRE_OK) || ok(e);
    }
  }
  return write_slot(e, v, flag, ref,
                    dynamic || (WIRE_MUTANT(enum_field_meta) && v->type == WIRE_T_ENUM) ||
                        (WIRE_MUTANT(union_field_meta) && v->type >= WIRE_T_UNION &&
                         v->type <= WIRE_T_NAMED_UNION),
                    dynamic, f);
}

static bool write_struct(enc *e, wire_node *n) {
  if (!wire__st_open(n)) return efail(e, WIRE_E_NOMEM, "out of memory");
  const wire_layout *l = wire__sb_layout(n->v.st); /* (open: no tag) */
  if (!e->ctx->compatible && !l->td && l->kind == WIRE_KIND_STRUCT)
    wire__put_le(&e->b, wire__peer_schema_hash(e->ctx, l), 4);
  if (!enter(e)) return false;
  const wire_lfield *lf = l->fields;
  wire_node *const *fv = n->v.st->fields;
  /* (the body has a slot per field of the layout; those past n->small
   * are unset, NULL) */
  uint32_t nf = l->nfields;
  /* The fields the layout says are a bare body, when the value is of the
   * declared type and the buffer has room, are written here through
   * locals (stores to the output cannot change them); everything else,
   * and every error, through write_field, with the buffer in sync. */
  wire_buf *b = &e->b;
  uint8_t *p = b->p;
  size_t len = b->len, cap = b->status == WIRE_OK ? b->cap : 0;
  bool compat = e->ctx->compatible;
  for (uint32_t i = 0; i < nf; i++) {
    wire_node *v = fv[i];
    if (WIRE_LIKELY(v != NULL)) {
      switch (lf[i].op) {
      case WIRE_FOP_VARINT32:
        if (v->type != WIRE_T_VARINT32 || len + 5 > cap) break;
        len += wire__varu32_at(p + len, wire__zz32((int32_t)v->v.i));
        continue;
      case WIRE_FOP_VARINT64:
        if (v->type != WIRE_T_VARINT64 || len + 9 > cap) break;
        len += wire__varu64_at(p + len, wire__zz64(v->v.i));
        continue;
      case WIRE_FOP_FIXED4:
      case WIRE_FOP_FIXED8: {
        if (v->type != lf[i].type->type_id || len + 8 > cap) break;
        uint64_t u = v->v.u;
        size_t w = lf[i].op == WIRE_FOP_FIXED4 ? 4 : 8;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(p + len, &u, 8);
#else
        for (size_t k = 0; k < w; k++) p[len + k] = (uint8_t)(u >> (8 * k));
#endif
        len += w;
        continue;
      }
      case WIRE_FOP_BOOL:
        if (v->type != WIRE_T_BOOL || len + 1 > cap) break;
        p[len++] = v->v.i ? 1 : 0;
        continue;
      case WIRE_FOP_STRING:
        if (v->type != WIRE_T_STRING || len + 5 + v->small > cap ||
            mark_of(e, v))
          break;
        len += wire__varu36_at(p + len, ((uint64_t)v->small << 2) | v->a);
        copy_body(p + len, v->v.p, v->small);
        len += v->small;
        continue;
      case WIRE_FOP_ENUM: /* the value alone, of the declared enum */
        if ((v->type != WIRE_T_ENUM && v->type != WIRE_T_NAMED_ENUM) ||
            WIRE_MUTANT(enum_field_meta) ||
            len + 5 > cap || !fits(e, v, lf[i].type) || mark_of(e, v))
          break;
        len += wire__varu32_at(p + len, v->small);
        continue;
      case WIRE_FOP_BYTES:
        if (v->type != lf[i].type->type_id || len + 5 + v->small > cap ||
            mark_of(e, v) || e->oob) /* markers: oob.c */
          break;
        len += wire__varu32_at(p + len, v->small);
        copy_body(p + len, v->v.p, v->small);
        len += v->small;
        continue;
      case WIRE_FOP_LIST: /* the body, of the declared kind */
        if (v->type != lf[i].type->type_id || mark_of(e, v)) break;
        b->len = len;
        if (!write_list(e, v, lf[i].type)) return false;
        p = b->p;
        len = b->len;
        cap = b->status == WIRE_OK ? b->cap : 0;
        continue;
      case WIRE_FOP_STRUCT:
        /* compatible mode: type meta (the field's type is not static)
         * and the body; else the body of a value of the declared type */
        if (!wire__is_struct_or_ext(v->type) || mark_of(e, v) ||
            (!compat && (!fits(e, v, lf[i].type) ||
                         wire__peer_field_meta(e->ctx, lf[i].type) ||
                         wire__peer_value_flag(e->ctx, lf[i].type))))
          break;
        b->len = len;
        if ((compat && !type_meta(e, v)) || !write_struct(e, v))
          return false;
        p = b->p;
        len = b->len;
        cap = b->status == WIRE_OK ? b->cap : 0;
        continue;
      case WIRE_FOP_SLOT:
        break;
      default: /* (wire__field_op gives one of the above) */
        __builtin_unreachable();
      }
    }
    b->len = len;
    if (!write_field(e, &lf[i], v)) return false;
    p = b->p;
    len = b->len;
    cap = b->status == WIRE_OK ? b->cap : 0;
  }
  b->len = len;
  e->depth--;
  return ok(e);
}

static bool write_list(enc *e, wire_node *n, const wire_ftype *decl) {
  uint32_t count = n->small;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  wire_node **it = wire__items(n);
  wire_node *first = NULL;
  bool has_null = false, same = true, track = false, anchor = false;
  for (uint32_t i = 0; i < count; i++) {
    wire_node *x = it[i];
    /* (a value the document marks tracked: an anchor, shared) */
    anchor |= (x->flags & (WIRE_NF_TRACK_SET | WIRE_NF_TRACKED)) ==
              (WIRE_NF_TRACK_SET | WIRE_NF_TRACKED);
    if (x->type == WIRE_T_NULL) { has_null = true; continue; }
    if (!first) first = x;
    else if (!same_type(first, x)) same = false;
    if (tracked(e, x)) track = true;
  }
  const wire_ftype *edecl;
  uint8_t h;
  if (n->flags & WIRE_NF_HDR_SET) {
    edecl = decl ? decl->elem : NULL;
    if (edecl && !wire__pol_declarable(e->ctx, edecl)) edecl = NULL;
    h = n->a;
    if (h & 0xF0)
      return efail(e, WIRE_E_ENCODE, "element header 0x%02x has reserved "
                                       "bits", h);
    if ((h & WIRE_LF_DECL) && !edecl)
      return efail(e, WIRE_E_ENCODE, "element header 0x%02x needs a schema",
                   h);
    if (!(h & WIRE_LF_DECL)) edecl = NULL;
  } else {
    /* all null with no element type to write (none kept, none recorded,
     * none declared): no same-type bit (R-WLIST-2) */
    if (!first && !wire__list_elem_type(n) &&
        !((n->flags & WIRE_NF_ELEM_SET) && !wire__is_user_type(n->b)) &&
        !wire__pol_null_list_typed(e->ctx, decl))
      same = false;
    h = wire__pol_list_header(e->ctx, decl, same, has_null, track, &edecl);
    /* a value the document marks tracked (an anchor: shared) needs the
     * tracking bit, whatever the declared element type says */
    if (anchor) h = wire__pol_list_shared(h);
  }
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  if (has_null && !flags)
    return efail(e, WIRE_E_ENCODE, "null element but header 0x%02x has no "
                                     "null flag", h);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) {
    if (first) {
      /* (a header of the policy's is same-type only when they are) */
      for (uint32_t i = 0; i < count && !same; i++)
        if (it[i]->type != WIRE_T_NULL && !same_type(first, it[i]))
          return efail(e, WIRE_E_ENCODE, "same-type header but element %u "
                                           "is a %s", i,
                       wire_type_name(it[i]->type));
      if (!type_meta(e, first)) return false;
    } else {
      /* all null: the user element type the list was read with (kept by
       * its first null, wire__list_elem_type), a recorded type id that
       * needs nothing after it, or the declared type's (R-WLIST-2) */
      const wire_node *et = wire__list_elem_type(n);
      if (et) {
        if (!write_type_meta(e, et)) return false;
      } else if ((n->flags & WIRE_NF_ELEM_SET) && !wire__is_user_type(n->b)) {
        wire__put_u8(&e->b, n->b);
      } else if (!wire__enc_null_list_meta(e, decl)) {
        return false;
      }
    }
  }
  if (!enter(e)) return false;
  bool allow_ref = h & WIRE_LF_TRACKING;
  if (!flags && st && !edecl && first && wire__is_struct_or_ext(first->type)) {
    /* structs of one type, no flags, no type meta: their bodies (what
     * write_slot reaches for each; it reports a null or a shared one) */
    for (uint32_t i = 0; i < count; i++) {
      wire_node *x = it[i];
      if (WIRE_UNLIKELY(x->type == WIRE_T_NULL || mark_of(e, x))) {
        if (!write_slot(e, x, false, false, false, false, NULL)) return false;
      } else if (!write_struct(e, x)) {
        return false;
      }
    }
  } else if (!flags && edecl && edecl->type_id == WIRE_T_STRING &&
             edecl->user == WIRE_NO_TYPE) {
    /* strings declared, no flags: their bodies (what write_slot writes for
     * each; it reports anything else) */
    wire_buf *b = &e->b;
    for (uint32_t i = 0; i < count; i++) {
      wire_node *x = it[i];
      if (WIRE_LIKELY(x->type == WIRE_T_STRING && !mark_of(e, x) &&
                      b->status == WIRE_OK &&
                      b->cap - b->len >= 5 + (size_t)x->small)) {
        /* (as write_struct writes a string field) */
        uint8_t *q = b->p + b->len;
        size_t hl = wire__varu36_at(q, ((uint64_t)x->small << 2) | x->a);
        copy_body(q + hl, x->v.p, x->small);
        b->len += hl + x->small;
      } else if (!write_slot(e, x, false, false, false, false, edecl)) {
        return false;
      }
    }
  } else {
    for (uint32_t i = 0; i < count; i++)
      if (!write_slot(e, it[i], flags, allow_ref, !st, !st, edecl))
        return false;
  }
  e->depth--;
  return ok(e);
}

static bool write_chunk(enc *e, wire_node **kv, uint32_t h, uint32_t size,
                        const wire_ftype *kd, const wire_ftype *vd) {
  const wire_ftype *kdecl = (h & WIRE_MF_KEY_DECL) ? kd : NULL;
  const wire_ftype *vdecl = (h & WIRE_MF_VAL_DECL) ? vd : NULL;
  wire__put_u8(&e->b, (uint8_t)h);
  if ((h & 0xC0) || ((h & WIRE_MF_KEY_DECL) && !kd) ||
      ((h & WIRE_MF_VAL_DECL) && !vd))
    return efail(e, WIRE_E_ENCODE, "chunk header 0x%02x needs a schema", h);
  bool knull = h & WIRE_MF_KEY_NULL, vnull = h & WIRE_MF_VAL_NULL;
  if (knull || vnull) {
    if (size != 1)
      return efail(e, WIRE_E_ENCODE, "a null chunk holds one entry");
    wire_node *k = kv[0], *v = kv[1];
    if ((k->type == WIRE_T_NULL) != knull || (v->type == WIRE_T_NULL) != vnull)
      return efail(e, WIRE_E_ENCODE, "chunk header 0x%02x does not match "
                                       "the entry's nulls", h);
    if (!knull && !write_slot(e, k, h & WIRE_MF_KEY_TRACK, true, !kdecl, true, kdecl))
      return false;
    if (!vnull && !write_slot(e, v, h & WIRE_MF_VAL_TRACK, true, !vdecl, true, vdecl))
      return false;
    return ok(e);
  }
  wire__put_u8(&e->b, (uint8_t)size);
  wire_node *k0 = kv[0], *v0 = kv[1];
  for (uint32_t i = 0; i < size; i++) {
    wire_node *k = kv[2 * i], *v = kv[2 * i + 1];
    if (k->type == WIRE_T_NULL || v->type == WIRE_T_NULL)
      return efail(e, WIRE_E_ENCODE, "null key or value inside a chunk");
    if (!same_type(k0, k) || !same_type(v0, v))
      return efail(e, WIRE_E_ENCODE, "keys or values of one chunk differ "
                                       "in type");
  }
  if ((!kdecl && !write_type_meta(e, k0)) || (!vdecl && !write_type_meta(e, v0)))
    return false;
  for (uint32_t i = 0; i < size; i++) {
    if (!write_slot(e, kv[2 * i], h & WIRE_MF_KEY_TRACK, true, false, false, kdecl) ||
        !write_slot(e, kv[2 * i + 1], h & WIRE_MF_VAL_TRACK, true, false, false, vdecl))
      return false;
  }
  return ok(e);
}

#define map_decl(e, f) wire__pol_map_decl((e)->ctx, (f))

static bool write_map(enc *e, wire_node *n, const wire_ftype *decl) {
  /* Recorded chunks may declare any static type; fresh ones follow Java. */
  const wire_ftype *kr = decl && decl->key && wire__pol_declarable(e->ctx, decl->key)
                             ? decl->key : NULL;
  const wire_ftype *vr = decl && decl->value && wire__pol_declarable(e->ctx, decl->value)
                             ? decl->value : NULL;
  const wire_ftype *kd = decl ? map_decl(e, decl->key) : NULL;
  const wire_ftype *vd = decl ? map_decl(e, decl->value) : NULL;
  uint32_t count = n->small;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  if (!enter(e)) return false;
  wire_node **kv = wire__kv(n);
  wire_chunks *c = wire__chunks(n);
  if (c) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < c->n; i++) sum += c->c[i] & 0xFF;
    if (sum != count)
      return efail(e, WIRE_E_ENCODE, "chunks hold %llu entries, the map %u",
                   (unsigned long long)sum, count);
    uint32_t at = 0;
    for (uint32_t i = 0; i < c->n; i++) {
      uint32_t size = c->c[i] & 0xFF;
      if (!write_chunk(e, kv + 2 * at, c->c[i] >> 8, size, kr, vr)) return false;
      at += size;
    }
  } else {
    uint32_t at = 0;
    while (at < count) {
      wire_node *k = kv[2 * at], *v = kv[2 * at + 1];
      bool kn = k->type == WIRE_T_NULL, vn = v->type == WIRE_T_NULL;
      if (kn || vn) {
        uint32_t h = wire__pol_null_chunk(kn, vn, kd, vd);
        if (!write_chunk(e, kv + 2 * at, h, 1, kd, vd)) return false;
        at++;
        continue;
      }
      uint32_t size = 1;
      while (at + size < count && size < WIRE_POL_CHUNK_MAX) {
        wire_node *k2 = kv[2 * (at + size)], *v2 = kv[2 * (at + size) + 1];
        if (k2->type == WIRE_T_NULL || v2->type == WIRE_T_NULL ||
            !same_type(k, k2) || !same_type(v, v2))
          break;
        size++;
      }
      bool kt = false, vt = false;
      for (uint32_t i = 0; i < size; i++) {
        kt |= tracked(e, kv[2 * (at + i)]);
        vt |= tracked(e, kv[2 * (at + i) + 1]);
      }
      uint32_t h = wire__pol_chunk(decl, kd, vd, kt, vt);
      if (!write_chunk(e, kv + 2 * at, h, size, kd, vd)) return false;
      at += size;
    }
  }
  e->depth--;
  return ok(e);
}

static bool write_decimal(enc *e, const wire_node *n) {
  return wire__enc_decimal(e, (int32_t)n->small, n->flags & WIRE_NF_NEGATIVE,
                           n->v.dec->mag, n->v.dec->len);
}

static bool write_body(enc *e, wire_node *n, const wire_ftype *decl) {
  wire_buf *b = &e->b;
  switch (n->type) {
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return write_struct(e, n);
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    wire__put_varu32(b, n->small);
    if (!enter(e)) return false;
  {
    /* a list, set or map case is written with the case's declared types
     * (R-UNION-5) */
    const wire_ftype *cd = wire__union_case_decl(e->ctx, n, n->small);
    if (cd && n->v.un->value->type != cd->type_id) cd = NULL;
    if (WIRE_MUTANT(union_case_undeclared)) cd = NULL;
    if (!write_slot(e, n->v.un->value, !WIRE_MUTANT(union_case_no_flag), true,
                    true, true, cd))
      return false;
  }
    e->depth--;
    return ok(e);
  case WIRE_T_BOOL: wire__put_u8(b, n->v.i ? 1 : 0); break;
  case WIRE_T_INT8: case WIRE_T_UINT8: wire__put_le(b, n->v.u, 1); break;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16:
  case WIRE_T_BFLOAT16:
    wire__put_le(b, n->v.u, 2);
    break;
  case WIRE_T_INT32: case WIRE_T_UINT32: case WIRE_T_FLOAT32:
    wire__put_le(b, n->v.u, 4);
    break;
  case WIRE_T_INT64: case WIRE_T_UINT64: case WIRE_T_FLOAT64:
    wire__put_le(b, n->v.u, 8);
    break;
  case WIRE_T_VARINT32: wire__put_varu32(b, wire__zz32((int32_t)n->v.i)); break;
  case WIRE_T_VAR_UINT32: wire__put_varu32(b, (uint32_t)n->v.u); break;
  case WIRE_T_VARINT64: wire__put_varu64(b, wire__zz64(n->v.i)); break;
  case WIRE_T_VAR_UINT64: wire__put_varu64(b, n->v.u); break;
  case WIRE_T_TAGGED_INT64: wire__put_tagged_i64(b, n->v.i); break;
  case WIRE_T_TAGGED_UINT64: wire__put_tagged_u64(b, n->v.u); break;
  case WIRE_T_STRING:
    wire__put_varu36(b, ((uint64_t)n->small << 2) | n->a);
    wire__put_bytes(b, n->v.p, (size_t)n->small);
    break;
  case WIRE_T_LIST: case WIRE_T_SET: return write_list(e, n, decl);
  case WIRE_T_MAP: return write_map(e, n, decl);
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: wire__put_varu32(b, n->small); break;
  case WIRE_T_NONE: break;
  case WIRE_T_DURATION:
    wire__put_varu64(b, wire__zz64(n->v.i));
    wire__put_le(b, n->small, 4);
    break;
  case WIRE_T_TIMESTAMP:
    wire__put_le(b, n->v.u, 8);
    wire__put_le(b, n->small, 4);
    break;
  case WIRE_T_DATE: wire__put_varu64(b, wire__zz64(n->v.i)); break;
  case WIRE_T_DECIMAL: return write_decimal(e, n);
  default:
    if (n->type == WIRE_T_BINARY || wire__is_array_type(n->type)) {
      if (!wire__enc_bytes(e, n->type, n->v.p, n->small, n->a)) return false;
      break;
    }
    return efail(e, WIRE_E_TYPE, "cannot encode a %s node",
                 wire_type_name(n->type) ? wire_type_name(n->type) : "?");
  }
  return ok(e);
}

int32_t wire_encode(wire_ctx *ctx, wire_doc *doc, uint8_t **out,
                    size_t *out_len) {
  if (!ctx || !doc || !out || !out_len) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  wire_ctx_clear_error(ctx);
  if (doc->nroots == 0) /* an empty payload is not one its decoder reads */
    return wire__fail(ctx, WIRE_E_ARG, 0, "no root value to encode: a "
                      "payload holds at least one (R-PAYLOAD-1)");
  enc e;
  wire__enc_begin(&e, ctx);
  ctx->n_oob_out = 0;
  /* The output goes straight into a wire_ctx_free_bytes block: its first
   * WIRE_OUT_PREFIX bytes are the block's header. */
  e.b.p = wire__out_take(ctx, 512, &e.b.cap);
  if (!e.b.p) {
    wire__enc_release(&e);
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  }
  e.b.len = e.base = WIRE_OUT_PREFIX;
  bool good = true;
  for (uint32_t r = 0; r < doc->nroots && good; r++) {
    wire__put_u8(&e.b, wire__enc_root_header(
                           &e, ctx->oob || (doc->roots[r]->flags &
                                            WIRE_NF_OOB_ROOT)));
    good = write_slot(&e, doc->roots[r], true, true, true, true, NULL);
    marks_clear(&e);
    wire__enc_end_root(&e);
  }
  if (good && !ok(&e)) good = false;
  if (e.mtab) wire__free(ctx, e.mtab, e.mtab_cap * sizeof *e.mtab);
  e.mtab = NULL;
  wire__enc_release(&e);
  if (!good) {
    wire__free(ctx, e.b.p, e.b.cap);
    ctx->n_oob_out = 0;
    return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  }
  *out = wire__out_finish(e.b.p, e.b.cap);
  *out_len = e.b.len - WIRE_OUT_PREFIX;
  return WIRE_OK;
}
