/* policy.h - the writer policy of spec/03-writer-policy.md and the writer
 * state shared by the two encoders: the document encoder (encode.c, nodes)
 * and the tape encoder (tape_enc.c, tape records). Each encoder walks its
 * own value representation; every choice the policy makes (reference
 * flags, list and set element headers, map chunk headers, declared types,
 * type meta of user types, meta strings, shared TypeDefs) is made here, so
 * the two write the same bytes for the same values. */
#ifndef WIRE_POLICY_H
#define WIRE_POLICY_H

#include "schema.h"

/* A meta string announced in the current root: its bytes are in the
 * output buffer at `off` (stable while the root is written). */
typedef struct {
  size_t off;
  uint32_t len;
  uint8_t enc, msctx;
} wire_ms_seen;

/* Writer state of one encode call. */
typedef struct {
  wire_buf b;
  size_t base;     /* where this call's output starts in b (error offsets) */
  wire_ctx *ctx;
  const void **tds; /* TypeDefs announced in this root (layout or type) */
  size_t ntds, tds_cap;
  /* Those built from names alone: the names and their TypeDef index. */
  struct wire_tdn { const wire_names *nm; uint32_t index; } *tdn;
  size_t ntdn, tdn_cap;
  uint32_t depth;
  uint32_t nrefs;  /* reference ids given out in this root */
  void **marked;   /* values given a reference id in this root (walker's) */
  size_t nmarked, marked_cap;
  /* The document encoder's reference ids of marked[] by node (encode.c):
   * open addressing, a power of two of slots, NULL until needed. */
  struct wire_mark_slot *mtab;
  size_t mtab_cap;
  wire_ms_seen *ms;
  size_t nms, ms_cap;
  bool oob;        /* the current root announces out-of-band buffers */
  bool field_named; /* the error names its struct field (tape_enc.c) */
} wire_enc;

/* Records the error with the output offset; returns false. */
bool wire__enc_fail(wire_enc *e, int32_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The buffer's sticky status as an error. */
static inline bool wire__enc_ok(wire_enc *e) {
  if (WIRE_LIKELY(e->b.status == WIRE_OK)) return true;
  return wire__enc_fail(e, e->b.status, "output buffer");
}
static inline bool wire__enc_enter(wire_enc *e) {
  if (WIRE_LIKELY(++e->depth <= e->ctx->max_depth)) return true;
  return wire__enc_fail(e, WIRE_E_DEPTH, "nesting deeper than %u (a cycle "
                        "through untracked values?)", e->ctx->max_depth);
}
/* Remembers a value that got a reference id (so the walker can clear it
 * at the end of the root). */
bool wire__enc_mark(wire_enc *e, void *value);
/* Forgets the per-root tables (meta strings, TypeDefs, reference ids);
 * the caller clears the marks of e->marked[0..nmarked) first. */
void wire__enc_end_root(wire_enc *e);
/* A fresh writer state on ctx (taking the tables the context kept). */
void wire__enc_begin(wire_enc *e, wire_ctx *ctx);
/* Frees the tables, or leaves them to the context (not the output
 * buffer). */
void wire__enc_release(wire_enc *e);

/* The body of a binary or dense array: varuint32 byte length and bytes;
 * in a root with e->oob, after the in-band marker or, out of band, the
 * marker alone with the bytes added to the context's buffers (oob.c).
 * band: the recorded WIRE_NB_* (0: WIRE_OPT_OOB_MIN_BYTES decides). */
bool wire__enc_bytes(wire_enc *e, uint32_t type, const uint8_t *p,
                     uint64_t len, uint8_t band);
/* The header byte of a root: 03 announces out-of-band buffers. */
static inline uint8_t wire__enc_root_header(wire_enc *e, bool oob) {
  e->oob = oob;
  return oob ? 0x03 : 0x01;
}

/* ---- policy decisions -------------------------------------------------- */

static inline bool wire__is_prim(uint32_t t) {
  return t == WIRE_T_BOOL || (t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64) ||
         (t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64);
}
static inline bool wire__is_user_type(uint32_t t) {
  return t >= WIRE_T_ENUM && t <= WIRE_T_NAMED_UNION;
}
static inline bool wire__is_struct_or_ext(uint32_t t) {
  return t >= WIRE_T_STRUCT && t <= WIRE_T_NAMED_EXT;
}

/* Types a fresh value of which is written tracked under reference tracking
 * in a slot of fixed type (R-WREF-2; structs too, R-WFIELD-2). */
static inline bool wire__pol_trackable(uint32_t t) {
  switch (t) {
  case WIRE_T_LIST: case WIRE_T_SET: case WIRE_T_MAP: case WIRE_T_BINARY:
  case WIRE_T_DECIMAL: case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT:
  case WIRE_T_NAMED_STRUCT: case WIRE_T_NAMED_COMPATIBLE_STRUCT:
  case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return true;
  default:
    return wire__is_array_type(t);
  }
}

/* Whether a value is written with REF_VALUE: the recorded choice
 * (track_set, recorded), else the policy for fresh values. */
static inline bool wire__pol_tracked(const wire_ctx *ctx, uint32_t type,
                                     bool track_set, bool recorded) {
  if (track_set) return recorded;
  return ctx->ref_tracking && wire__pol_trackable(type);
}

/* The tracking decision of a slot with a reference flag: under reference
 * tracking every fresh value in a slot of undeclared type is flagged 00,
 * whatever its type (R-WREF-2). */
static inline bool wire__pol_slot_tracks(const wire_ctx *ctx, bool any_slot,
                                         bool track_set, bool tracked) {
  return any_slot && !track_set ? ctx->ref_tracking : tracked;
}

/* Whether values of a declared type are written without type meta: not
 * `any`, and not a struct or ext in compatible mode. */
static inline bool wire__pol_static_type(const wire_ctx *ctx,
                                         const wire_ftype *f) {
  if (f->type_id == WIRE_T_UNKNOWN) return false;
  if (wire__is_struct_or_ext(f->type_id) && ctx->compatible) return false;
  return true;
}

/* Whether a recorded declared bit (list element header, map chunk header)
 * may stand for values of a declared type: the static types, and in
 * compatible mode a struct whose evolution is disabled, which pyfory writes
 * so in maps (R-LIST-3, errata E-49; fresh values carry type meta). */
static inline bool wire__pol_declarable(const wire_ctx *ctx,
                                        const wire_ftype *f) {
  return wire__pol_static_type(ctx, f) ||
         (ctx->compatible && wire__fixed_struct(ctx, f));
}

/* Whether a value is what a slot of static declared type f reads without
 * type meta (the decoder's wire__dec_decl_tmeta): the declared type id,
 * and for a user type its kind and identity (a struct or ext of the
 * schema's layout, an enum of that enum, any union). The value is given
 * by its type, enum user id, names (named enums) and layout (structs). An
 * encoder fails a value that does not fit rather than write bytes its
 * decoder rejects or reads as another value. */
bool wire__pol_fits_user(const wire_ctx *ctx, const wire_ftype *f,
                         uint8_t type, uint32_t user_id,
                         const wire_names *names, const wire_layout *layout);
static inline bool wire__pol_fits_decl(const wire_ctx *ctx,
                                       const wire_ftype *f, uint8_t type,
                                       uint32_t user_id,
                                       const wire_names *names,
                                       const wire_layout *layout) {
  if (f->user == WIRE_NO_TYPE)
    return f->type_id == WIRE_T_UNKNOWN ||
           (type == f->type_id && !wire__is_struct_or_ext(type));
  return wire__pol_fits_user(ctx, f, type, user_id, names, layout);
}

/* The error of a value that does not fit its declared type: false. */
bool wire__enc_not_declared(wire_enc *e, uint8_t type, const wire_ftype *decl);

/* A field's error prefixed once with the struct and field that the
 * innermost failing field names (the tape encoder's): false. */
bool wire__enc_in_field(wire_enc *e, const wire_layout *l,
                        const wire_lfield *lf);

/* Two values share type meta: same type id and, for user types, the same
 * type (R-WLIST-1). Arguments are each value's type, enum or union user
 * type id, names (named enums) and layout (structs). */
/* Two struct layouts write the same type meta and the same bodies: one
 * layout, or one registered type whose values are written with the same
 * TypeDef (the schema's, or equal bytes read from the wire). A value read
 * with an older writer's TypeDef and its projection onto the schema share
 * the registered type but not the layout, so they cannot share a TypeDef
 * in a same-type list. */
static inline bool wire__pol_same_layout(const wire_layout *la,
                                         const wire_layout *lb) {
  if (la == lb) return true;
  if (la->type_index == WIRE_NO_TYPE || la->type_index != lb->type_index)
    return false;
  bool a_schema = !la->td || la->matches_schema;
  bool b_schema = !lb->td || lb->matches_schema;
  if (a_schema || b_schema) return a_schema && b_schema;
  return la->td_len == lb->td_len && wire__eq(la->td, lb->td, la->td_len);
}

static inline bool wire__pol_same_type(uint32_t ta, uint32_t tb, uint32_t ida,
                                       uint32_t idb, const wire_names *na,
                                       const wire_names *nb,
                                       const wire_layout *la,
                                       const wire_layout *lb) {
  if (ta != tb) return false;
  switch (ta) {
  case WIRE_T_ENUM: case WIRE_T_TYPED_UNION: return ida == idb;
  case WIRE_T_NAMED_ENUM:
    return na->ns_len == nb->ns_len && na->name_len == nb->name_len &&
           wire__eq(na->ns, nb->ns, na->ns_len) &&
           wire__eq(na->name, nb->name, na->name_len);
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return wire__pol_same_layout(la, lb);
  default:
    return true;
  }
}

/* A declared element type tracks its values: `ref` on a scalar or string
 * element is a TypeDef bit only, which pyfory writes for ref=True list
 * fields and never acts on (R-FDLX-9). */
static inline bool wire__pol_elem_ref(const wire_ftype *ed) {
  return ed->ref && (ed->type_id == WIRE_T_UNKNOWN || !wire__is_prim(ed->type_id)) &&
         ed->type_id != WIRE_T_STRING;
}

/* Element header of a fresh list or set (R-WLIST-1, R-WLIST-5..7) from what
 * its elements are: `same` (all non-null elements share type meta), `has_null`,
 * `track` (an element is written tracked). `decl` is the declared list type
 * or NULL. *edecl gets the declared element type the elements are written
 * with (no type meta), or NULL. */
static inline uint8_t wire__pol_list_header(const wire_ctx *ctx,
                                            const wire_ftype *decl, bool same,
                                            bool has_null, bool track,
                                            const wire_ftype **edecl) {
  const wire_ftype *ed = decl ? decl->elem : NULL;
  if (ed && !wire__pol_static_type(ctx, ed)) ed = NULL;
  /* The Java runtime writes the type of float16/bfloat16 elements in
   * compatible mode rather than declaring it (R-WLIST-6). */
  if (ed && ctx->compatible &&
      (ed->type_id == WIRE_T_FLOAT16 || ed->type_id == WIRE_T_BFLOAT16))
    ed = NULL;
  *edecl = ed;
  if (ed) {
    /* Ref-tracked elements carry full reference flags, which cover nulls:
     * the Java runtime then leaves the has-null bit clear. With reference
     * tracking off a `ref` element is a TypeDef bit only: Java writes
     * `List<@Ref T>` then with the tracking bit clear (R-WLIST-8). */
    return (uint8_t)(WIRE_LF_DECL | WIRE_LF_SAME_TYPE |
                     (wire__pol_elem_ref(ed) && ctx->ref_tracking
                          ? WIRE_LF_TRACKING
                          : (has_null ? WIRE_LF_HAS_NULL : 0)));
  }
  if (!same && ctx->ref_tracking) track = true;
  /* A declared element type says whether its values are tracked (under
   * reference tracking only, as above). */
  if (decl && decl->elem && decl->elem->type_id != WIRE_T_UNKNOWN)
    track = wire__pol_elem_ref(decl->elem) && ctx->ref_tracking;
  return (uint8_t)((same ? WIRE_LF_SAME_TYPE : 0) |
                   (has_null ? WIRE_LF_HAS_NULL : 0) |
                   (track ? WIRE_LF_TRACKING : 0));
}

/* The header of a list one of whose elements is shared (an anchor, a tape
 * REF) although the policy gave it no tracking bit (R-WLIST-8): tracking
 * set; a declared header then leaves has-null clear, since the reference
 * flags cover nulls (as the Java runtime writes its tracked declared
 * elements: `0d`, never `0f`). */
static inline uint8_t wire__pol_list_shared(uint8_t h) {
  if (h & WIRE_LF_TRACKING) return h;
  h |= WIRE_LF_TRACKING;
  return (h & WIRE_LF_DECL) ? (uint8_t)(h & ~WIRE_LF_HAS_NULL) : h;
}

/* Whether a fresh list whose elements are all null has an element type to
 * write after a same-type header (R-WLIST-2): its declared element type is
 * a registered struct or ext (wire__enc_null_list_meta writes its type
 * meta). Without one the list is written as Fory Go 1.6.1 writes `[]any`
 * of nils, with no same-type bit and no element type (`02 fd fd`), which
 * pyfory, Java and Go all read; NONE (pyfory's form) Java and Go cannot. */
static inline bool wire__pol_null_list_typed(const wire_ctx *ctx,
                                             const wire_ftype *decl) {
  const wire_ftype *ed = decl ? decl->elem : NULL;
  return ed && wire__is_struct_or_ext(ed->type_id) && ctx->reg &&
         ed->user < ctx->reg->ntypes;
}

/* Map keys and values of a declared type are declared in the chunk header,
 * except structs and ext, whose type the Java runtime writes in every chunk
 * (spec R-WMAP-5). */
static inline const wire_ftype *wire__pol_map_decl(const wire_ctx *ctx,
                                                   const wire_ftype *f) {
  if (!f || !wire__pol_static_type(ctx, f) || wire__is_struct_or_ext(f->type_id))
    return NULL;
  return f;
}

/* Header of a fresh null chunk (R-WMAP-1, R-WMAP-6, R-WMAP-7): the
 * non-null side is framed as a value of undeclared type (track bit set)
 * unless its type is declared (kd, vd from wire__pol_map_decl). */
static inline uint32_t wire__pol_null_chunk(bool kn, bool vn,
                                            const wire_ftype *kd,
                                            const wire_ftype *vd) {
  if (kn && vn) return WIRE_MF_KEY_NULL | WIRE_MF_VAL_NULL;
  if (kn)
    return WIRE_MF_KEY_NULL |
           (vd ? WIRE_MF_VAL_DECL | (vd->ref ? WIRE_MF_VAL_TRACK : 0)
               : WIRE_MF_VAL_TRACK);
  return WIRE_MF_VAL_NULL |
         (kd ? WIRE_MF_KEY_DECL | (kd->ref ? WIRE_MF_KEY_TRACK : 0)
             : WIRE_MF_KEY_TRACK);
}

/* A fresh normal chunk takes the following entries while neither side is
 * null, keys and values keep the type meta of the first, and it holds fewer
 * than this many entries (R-WMAP-1). */
#define WIRE_POL_CHUNK_MAX 255

/* Header of a fresh normal chunk (R-WMAP-2, R-WMAP-5): kt / vt = a key /
 * value of the chunk is written tracked. */
static inline uint32_t wire__pol_chunk(const wire_ftype *decl,
                                       const wire_ftype *kd,
                                       const wire_ftype *vd, bool kt, bool vt) {
  /* A declared key/value type says whether its values are tracked. */
  if (decl && decl->key) kt = decl->key->ref;
  if (decl && decl->value) vt = decl->value->ref;
  if (kd) kt = kd->ref;
  if (vd) vt = vd->ref;
  return (kt ? WIRE_MF_KEY_TRACK : 0) | (vt ? WIRE_MF_VAL_TRACK : 0) |
         (kd ? WIRE_MF_KEY_DECL : 0) | (vd ? WIRE_MF_VAL_DECL : 0);
}

/* ---- user type meta ---------------------------------------------------- */

/* What the type meta of a user-typed value depends on. */
typedef struct {
  uint32_t user_id;          /* ENUM type id, TYPED_UNION user id */
  const wire_names *names;   /* NAMED_ENUM, NAMED_UNION; named struct / ext
                                names as read (may be NULL) */
  const wire_layout *layout; /* struct and ext kinds */
  int32_t ns_enc, name_enc;  /* recorded meta string encodings, -1 = policy */
} wire_user_meta;

/* Writes the type id and the type meta after it (R-WSTRUCT-1): ids, meta
 * strings or a shared TypeDef. */
bool wire__enc_type_meta(wire_enc *e, uint8_t type, const wire_user_meta *um);

/* The element type meta of a same-type list whose elements are all null
 * (R-WLIST-2): a declared element type that is a registered struct or ext
 * (one written with type meta: compatible mode; wire__pol_null_list_typed)
 * gives the type meta a fresh value of it carries, as Fory Go, pyfory and
 * the compiled codecs write it; any other list gets NONE (a recorded
 * same-type header: a fresh list without such a type has no same-type
 * bit). `decl` is the declared list type or NULL. */
bool wire__enc_null_list_meta(wire_enc *e, const wire_ftype *decl);

/* The type meta of a struct value of a compatible kind (COMPATIBLE_STRUCT,
 * NAMED_COMPATIBLE_STRUCT: the type id and a shared TypeDef, keyed by its
 * layout l), as wire__enc_type_meta writes it; a TypeDef this root
 * announced costs the search of the announced ones and two writes. */
bool wire__enc_struct_td_meta(wire_enc *e, uint8_t type, const wire_layout *l);
/* Its part after the search: the TypeDef l, not announced in this root,
 * announced. */
bool wire__enc_struct_td_new(wire_enc *e, uint8_t type, const wire_layout *l);
/* wire__enc_struct_td_meta with the search inline: a TypeDef this root
 * announced (the type id and its index) without a call. */
static inline bool wire__enc_struct_td(wire_enc *e, uint8_t type,
                                       const wire_layout *l) {
  if (WIRE_MUTANT(shared_announce_again) || WIRE_MUTANT(shared_bit_inverted))
    return wire__enc_struct_td_meta(e, type, l);
  const void *const *t = e->tds;
  for (size_t i = 0, n = e->ntds; i < n; i++) {
    if (t[i] != l) continue;
    wire_buf *b = &e->b;
    if (b->cap - b->len < 6 || b->status != WIRE_OK)
      return wire__enc_struct_td_meta(e, type, l);
    b->p[b->len++] = type;
    b->len += wire__varu32_at(b->p + b->len, (uint32_t)(i << 1 | 1));
    return true;
  }
  return wire__enc_struct_td_new(e, type, l);
}

/* A decimal body (R-WNUM-1: small form whenever the value allows it). */
bool wire__enc_decimal(wire_enc *e, int32_t scale, bool negative,
                       const uint8_t *mag, uint32_t len);

#endif
