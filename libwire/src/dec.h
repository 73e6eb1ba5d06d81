/* dec.h - the decoder's state and reading rules, shared by the document
 * decoder (decode.c, decode_meta.c, decode_state.c), the tape decoder
 * (tape_dec.c) and the compiled decoder (mem_dec.c):
 * type meta, meta strings, shared TypeDefs, declared types, reference
 * flags, list headers, map chunks and the bodies of values, each with the
 * checks of spec/ "Security considerations" (bounds before allocation,
 * limits, depth) and the same statuses, messages and byte offsets. Not
 * installed. */
#ifndef WIRE_DEC_H
#define WIRE_DEC_H

#include "schema.h"

/* Type meta as read from the stream. */
typedef struct {
  uint8_t type;
  uint8_t ns_enc, name_enc;
  uint32_t user_id;       /* ENUM, STRUCT, EXT, TYPED_UNION; or UINT32_MAX */
  wire_names *names;      /* NAMED_* kinds read with meta strings */
  wire_layout *layout;    /* struct kinds */
  const wire_ftype *decl; /* declared type (element types of containers) */
  uint32_t reg;           /* registered union of a declared UNION field */
} tmeta;
typedef tmeta wire_tmeta;

/* A meta string announced in this root. Its text is decoded once per role
 * (namespace, type name) it is read in, so a reference costs O(1). The
 * table doubles as a chained hash table of the distinct strings: bucket i
 * starts at entry head of ms[i] (index + 1, 0 = empty). */
typedef struct {
  const uint8_t *p;
  uint32_t len;
  uint8_t enc;
  uint8_t msctx;
  uint8_t form;     /* hash form, see wire_names */
  uint8_t decoded;  /* bit r: text[r] holds the text in role r */
  uint32_t hash;    /* keyed hash of (enc, bytes) */
  uint32_t head;    /* first entry of bucket (this index) + 1, or 0 */
  uint32_t next;    /* next entry of the same bucket + 1, or 0 */
  uint32_t tlen[2];
  const uint8_t *text[2];
} ms_entry;

typedef struct wire_dec {
  wire_in in;
  wire_ctx *ctx;
  wire_doc *doc;       /* the document decoder's output, else NULL */
  wire_arena *arena;   /* names, unpacked meta strings, TypeDef layouts */
  uint32_t depth;
  size_t nrefs;
  uint64_t unbacked; /* zero-width elements left in the payload's budget */
  uint64_t pending;  /* elements that open lists and maps still owe, one
                        input byte each (document decoder) */
  uint64_t seed[2];  /* key of the meta string hash (per decode, made by
                        wire__dec_seed before the first meta string) */
  bool seeded;
  ms_entry *ms;
  size_t nms, ms_cap;
  wire_dump_fn dump;
  void *dump_user;
  wire_layout **tds;       /* TypeDefs announced in this root, by index */
  size_t ntds, tds_cap;
  bool oob;                /* the root's header announces out-of-band
                              buffers (03) */
  uint8_t band;            /* the band of the last body wire__dec_bytes
                              read in such a root (WIRE_NB_*) */
  struct wire_sbody *empty_st; /* the body structs without fields share */
  wire_doc *empty_doc;         /* (in this document) */
  struct wire_smeta *smeta;    /* the last layout + names of named structs */
  wire_doc *smeta_doc;         /* (in this document) */
  /* The last names made for values of a type known by its layout or its
   * registration (wire__dec_layout_names, wire__dec_type_names): what
   * they were made from, and in which arena */
  wire_names *nm_last;
  const void *nm_from;
  wire_arena *nm_arena;
  /* Lazy structs (decode_lazy.c): whether this decode may keep structs
   * lazy, the reads of the root's tables (meta strings, TypeDefs,
   * references) so far - a struct whose fields read none decodes the same
   * again later - and the last lazy record made */
  bool lazy;
  uint32_t touched;
  struct wire_lazy *lazy_rec;
  struct wire_lazy_src *lazy_src; /* (of this document) */
  /* Last, and not zeroed by wire__dec_init's memset (the compiled
   * decoder's copy of it stays as it was): */
  char rd[96];             /* wire_dump: a value in readable form (only
                              written before it is read) */
  uint64_t max_nodes; /* the node limit less the nulls read after the
                         first (document decoder: they share one node but
                         count one each, R-LIMIT-10; set by wire__dec_init,
                         and by the compiled codecs' skip, mem_dec.c) */
  /* The document decoder's only (zeroed by wire__dec_init): bytes the
   * context's TypeDef cache took in this decode, TypeDefs the document
   * would otherwise hold, counted with its heap */
  size_t cached;
  /* A decode without a document (the tape decoder): its pin of the
   * context's TypeDef cache, taken when the cache turns over during the
   * decode, which may hold cached layouts (zeroed by wire__dec_init; the
   * caller unpins it when done, wire__tdcache_unpin).
   * The compiled decoder takes no cached layout without a document (its
   * skip reads into a scratch document), so its copy is not zeroed. */
  uint64_t tdc_pin;
} dec;
typedef dec wire_dec;

/* Elements that take no input bytes (same-type NONE without flags) a
 * payload of len bytes may hold, all roots together: a zero-width element
 * costs a node, so the budget grows with the input (spec R-LIST-9,
 * R-SEC-11). */
static inline uint64_t wire__dec_unbacked_budget(size_t len) {
  return 1024 + (uint64_t)len / 8;
}

/* A value that took no input bytes although it was not charged up front
 * (an empty struct, a struct of NONE fields, a NONE field): one unit of
 * the payload's zero-width budget; false (WIRE_E_LIMIT at `at`) when the
 * budget is spent. Without this, values that take no bytes could claim
 * the same bytes again and again (spec R-SEC-11). */
bool wire__dec_unbacked(wire_dec *d, const uint8_t *at);
static inline bool wire__dec_took_bytes(wire_dec *d, const uint8_t *start) {
  return WIRE_LIKELY(d->in.p != start) || wire__dec_unbacked(d, start);
}

/* Lazy structs (issue 9, decode_lazy.c). Once a decoded document's heap
 * passes WIRE_LAZY_MIN bytes and WIRE_LAZY_RATIO x the input read so far,
 * the structs read from then on are validated in full and kept as a lazy
 * node (internal.h, wire_lazy) when their fields read none of the root's
 * tables: their bodies and field nodes are given back, and decoded again
 * on first access. */
#define WIRE_LAZY_MIN ((size_t)32 << 10)
#define WIRE_LAZY_RATIO 24
typedef struct {
  uint8_t *arena_p, *nodes_p;
  size_t arena_total, nodes_total;
  wire_node *null;
  uint32_t touched;
  struct wire_sbody *empty_st;
  struct wire_smeta *smeta;
  wire_names *nm_last;
  const uint8_t *at; /* the struct's field bytes */
} wire_lazy_mark;
static inline bool wire__dec_lazy_due(const wire_dec *d) {
  const wire_doc *doc = d->doc;
  size_t heap = doc->arena.total + doc->nodes.total + d->cached;
  return WIRE_UNLIKELY(heap > WIRE_LAZY_MIN) &&
         heap / WIRE_LAZY_RATIO > (size_t)(d->in.p - d->in.base);
}
/* Whether the struct of type meta tm (read next) may be kept lazy: then
 * *m marks where its decoding starts (nested structs stay eager). */
bool wire__dec_lazy_begin(wire_dec *d, const wire_tmeta *tm, wire_lazy_mark *m);
/* After its fields were read: n made lazy when nothing but its own nodes
 * and bodies came of them (false: out of memory). */
bool wire__dec_lazy_end(wire_dec *d, wire_node *n, const wire_lazy_mark *m);

/* Starts decoding data[0..len) (into doc, or NULL for another output whose
 * names and layouts go to `arena`). */
void wire__dec_init(wire_dec *d, wire_ctx *ctx, const uint8_t *data,
                    size_t len, wire_doc *doc, wire_arena *arena);
/* Starts a root frame: empty tables, depth 0 (the zero-width budget is the
 * payload's). */
void wire__dec_root(wire_dec *d);
/* Frees the tables. */
void wire__dec_fini(wire_dec *d);
/* Checks the header byte of a root frame at the cursor (and the root
 * limit: `roots` read so far). */
bool wire__dec_root_header(wire_dec *d, size_t roots);
void wire__dec_seed(wire_dec *d);

/* cold: the branches to it are laid out apart from the decoders' hot code */
bool wire__dec_fail(wire_dec *d, int32_t code, const uint8_t *at,
                    const char *fmt, ...)
    __attribute__((cold, format(printf, 4, 5)));
static inline bool wire__dec_enter(wire_dec *d) {
  if (WIRE_LIKELY(++d->depth <= d->ctx->max_depth)) return true;
  return wire__dec_fail(d, WIRE_E_DEPTH, d->in.p, "nesting deeper than %u",
                        d->ctx->max_depth);
}
/* A T line of wire_dump (decode.c); T() evaluates nothing unless dumping. */
void wire__dec_trace(wire_dec *d, const uint8_t *start, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define WIRE_DEC_T(start, ...) \
  do { if (WIRE_UNLIKELY(d->dump != NULL)) wire__dec_trace(d, start, __VA_ARGS__); } while (0)
/* The user type kind of a user type id. */
static inline uint8_t wire__dec_kind_of(uint8_t t) {
  switch (t) {
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: return WIRE_KIND_ENUM;
  case WIRE_T_EXT: case WIRE_T_NAMED_EXT: return WIRE_KIND_EXT;
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    return WIRE_KIND_UNION;
  default: return WIRE_KIND_STRUCT;
  }
}
/* A count of elements that are at least min_width bytes each: within the
 * collection limit and the bytes left. */
bool wire__dec_check_count(wire_dec *d, const uint8_t *s, uint64_t count,
                           uint64_t min_width);
/* The same for items that may take no bytes (structs: an empty body):
 * each takes a byte or a unit of the zero-width budget, so the count is
 * bounded by the bytes left (less those pending) plus the budget left;
 * the budget is drawn on as each item turns out to take none. */
bool wire__dec_check_count_empty(wire_dec *d, const uint8_t *s,
                                 uint64_t count);

/* Type meta at the cursor. */
bool wire__dec_type_meta(wire_dec *d, wire_tmeta *tm);
/* The type meta a declared type stands for (nothing is read). */
bool wire__dec_decl_tmeta(wire_dec *d, const wire_ftype *f, wire_tmeta *tm);
/* Names of a named type known from a layout (NULL: no names), or from
 * its registration, in d->arena: made once and shared by the values that
 * follow of the same type (a list of named enums costs no names per
 * element; spec R-SEC-9). NULL when out of memory (the error set). */
wire_names *wire__dec_layout_names(wire_dec *d, const wire_layout *l);
wire_names *wire__dec_type_names(wire_dec *d, const wire_utype *t);
/* Whether a value (its type, enum / union user id, names, layout) has the
 * type meta `tm` (references must name a value of the declared type). */
bool wire__dec_matches(const wire_tmeta *tm, uint8_t type, uint32_t user_id,
                       const wire_names *names, const wire_layout *layout);

/* How a field of declared type f is framed (R-FIELD-1..9). */
enum { WIRE_DEC_DYNAMIC, WIRE_DEC_PRIM, WIRE_DEC_DECLARED };
int wire__dec_field_kind(const wire_dec *d, const wire_ftype *f);

/* A reference flag: *flag gets WIRE_REF_*; for WIRE_REF_REF *id gets the
 * checked reference id (< d->nrefs). `s` is where the flag starts. */
bool wire__dec_ref_flag(wire_dec *d, bool allow_ref, int8_t *flag,
                        uint32_t *id);

/* Bodies. Primitives: *raw gets a signed integer sign-extended, an unsigned
 * one zero-extended, a float's bits, a bool 0/1. */
bool wire__dec_prim(wire_dec *d, uint8_t type, uint64_t *raw);
bool wire__dec_string(wire_dec *d, int32_t *enc, const uint8_t **p,
                      uint64_t *len);
/* Binary and dense arrays (payload bytes, width and limit checked). */
/* In a root with header 03: the marker before a binary or dense array
 * body of element width w (oob.c). -1 on error; 0 in band (the length and
 * the bytes follow); 1 out of band (*out, *len: the next buffer, checked).
 * Sets d->band. */
int wire__dec_oob_marker(wire_dec *d, uint8_t type, uint32_t w,
                         const uint8_t **out, uint32_t *len);
/* Whether bodies of `type` carry the marker in such a root (the peer's
 * rule). */
bool wire__oob_marked(const wire_ctx *ctx, uint32_t type);
bool wire__dec_bytes(wire_dec *d, uint8_t type, const uint8_t **p,
                     uint32_t *len);
/* Duration / timestamp: seconds and nanoseconds (< 1e9). */
bool wire__dec_time(wire_dec *d, uint8_t type, int64_t *s, uint32_t *ns);
bool wire__dec_date(wire_dec *d, int64_t *days);
/* Decimal: the small form's magnitude goes to small[8] (little-endian,
 * minimal), the big form's points into the input. */
bool wire__dec_decimal(wire_dec *d, int32_t *scale, bool *negative,
                       const uint8_t **mag, uint32_t *len, uint8_t small[8]);
/* The schema hash before a same-schema struct body, if it has one. */
bool wire__dec_struct_hash(wire_dec *d, const wire_layout *l);
bool wire__dec_union_case(wire_dec *d, uint32_t *c);
bool wire__dec_enum_value(wire_dec *d, uint32_t *v);

/* A list or set after its count (> 0): the element header and element type
 * meta. *fixed is NULL when each element carries its own type meta;
 * *flags: elements carry reference flags; *track: they may be references. */
typedef struct {
  uint8_t h;
  bool same, flags, track;
  bool owed;   /* each element reserves a byte of the input up front */
  bool charge; /* an element that takes no bytes draws on the budget */
  const uint8_t *hs; /* where the header is */
  wire_tmeta et;     /* element type meta (same-type or declared) */
} wire_dec_list;
bool wire__dec_list_begin(wire_dec *d, const wire_ftype *decl, uint32_t count,
                          const uint8_t *s, wire_dec_list *l);
/* After the elements: a same-type list of a union element type that
 * holds no non-null element cannot be kept (its type meta is not kept). */
bool wire__dec_list_end(wire_dec *d, const wire_dec_list *l, bool any_non_null);
/* Whether a list (after wire__dec_list_end) is one whose elements are all
 * null and whose element type meta, of an enum, struct or ext, is written
 * once after the header (R-LIST-5): a document keeps that type in two
 * nodes more (decode.c keep_elem_type), which count against the node
 * limit in every decoder; a tape does not hold it. */
static inline bool wire__dec_list_keeps_type(const wire_dec_list *l,
                                             bool any_non_null) {
  return l->same && !(l->h & WIRE_LF_DECL) && !any_non_null &&
         l->et.type >= WIRE_T_ENUM && l->et.type <= WIRE_T_NAMED_EXT;
}

/* A map chunk header and its declared key / value type meta. */
typedef struct {
  uint8_t h;
  bool knull, vnull;
  const wire_tmeta *kfix, *vfix; /* declared sides (into kd / vd), or NULL */
  wire_tmeta kd, vd;
} wire_dec_chunk;
bool wire__dec_chunk_begin(wire_dec *d, const wire_ftype *decl,
                           wire_dec_chunk *c);
/* The size byte of a normal chunk, with `left` entries of the map left. */
bool wire__dec_chunk_size(wire_dec *d, uint32_t left, uint8_t *size);
/* The errors of a null chunk whose non-null side is null, and of a null
 * inside a normal chunk (es: where the entry starts). */
bool wire__dec_null_side(wire_dec *d, const uint8_t *es);
bool wire__dec_null_in_chunk(wire_dec *d, const uint8_t *es);
/* One struct field of declared type lf->type into d->doc (decode.c). */
bool wire__dec_field(wire_dec *d, const wire_lfield *lf, wire_node **out);

#endif
