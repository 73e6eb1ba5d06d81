/* schema.h - the type registry: user types (struct, enum, union, ext) and
 * field types, as registered through the ABI or loaded from Fory IDL. */
#ifndef WIRE_SCHEMA_H
#define WIRE_SCHEMA_H

#include "internal.h"

#define WIRE_NO_TYPE UINT32_MAX

/* A field type: a node of the declared type tree of a field, a list
 * element, a map key or value. */
typedef struct wire_ftype wire_ftype;
struct wire_ftype {
  uint8_t type_id;    /* WIRE_T_*; user types: ENUM, STRUCT, UNION, EXT
                         (resolved to the registered kind), UNKNOWN = any */
  uint8_t nullable;   /* optional */
  uint8_t ref;        /* reference tracked */
  uint32_t user;      /* index of the user type, or WIRE_NO_TYPE */
  wire_ftype *elem;   /* LIST, SET, *_ARRAY element */
  wire_ftype *key;    /* MAP */
  wire_ftype *value;  /* MAP */
  /* Until resolution: the referenced type name as written in the IDL. */
  char *unresolved;
};

typedef struct {
  char *name;        /* as declared (snake_case on the wire, see R-STRUCT) */
  int32_t tag;       /* field number / tag id; -1 if identified by name */
  wire_ftype *type;
} wire_field;

typedef struct {
  char *name;
  uint32_t value;    /* wire value (explicit id or ordinal) */
} wire_enum_value;

typedef struct {
  uint32_t case_id;
  char *name;
  wire_ftype *type;
} wire_union_case;

/* A struct layout: the fields in wire order with their declared types, as
 * computed from the registry (same-schema and fresh compatible writes) or
 * read from a TypeDef (compatible reads). */
typedef struct {
  const uint8_t *name;  /* snake_case; NULL/0 for a tag-only TypeDef field */
  uint32_t name_len;
  int32_t tag;          /* -1 if identified by name */
  wire_ftype *type;     /* nullable/ref of the field are type->nullable/ref */
  uint32_t local;       /* index of the registered field, or WIRE_NO_TYPE */
  uint32_t td_off, td_len; /* the field's entry within its TypeDef */
  uint8_t op;           /* WIRE_FOP_*: how the encoder writes the value */
} wire_lfield;

/* How a field's value is written, from its declared type alone (computed
 * with the layout): the body of a primitive, string or dense array in a
 * slot of its declared type without flags; a list or set, or a struct
 * (type meta in compatible mode, then the body), without flags; or the
 * general path (SLOT: type meta, flags, references, every other type;
 * also the zero value). */
enum { WIRE_FOP_SLOT = 0, WIRE_FOP_VARINT32, WIRE_FOP_VARINT64,
       WIRE_FOP_FIXED4, WIRE_FOP_FIXED8, WIRE_FOP_BOOL, WIRE_FOP_STRING,
       WIRE_FOP_BYTES, WIRE_FOP_ENUM, WIRE_FOP_LIST, WIRE_FOP_STRUCT };
uint8_t wire__field_op(const wire_ftype *f);

typedef struct wire_layout {
  /* This layout (set where it is made, and again in a copy): a struct
   * body's meta word points at a layout or at a wire_smeta, both starting
   * with their layout (internal.h, wire_sbody). */
  struct wire_layout *self;
  uint32_t type_index;  /* registered type, or WIRE_NO_TYPE */
  bool by_name;
  bool compatible;      /* read from / written as a TypeDef */
  uint8_t kind;         /* WIRE_KIND_* (TypeDefs also describe enums...) */
  uint32_t user_id;
  const uint8_t *ns, *name;
  uint32_t ns_len, name_len;
  uint32_t nfields;
  wire_lfield *fields;
  /* Per field (wire order): the user id of the enum registered by id that
   * the field declares, else WIRE_NO_TYPE; NULL when no field declares
   * one, and for layouts read from TypeDefs. Made with the layout of a
   * registered struct (an enum's registration never changes), so that
   * wire_struct_set_value and the encoder check an enum field's value
   * with one load. */
  const uint32_t *enum_ids;
  uint32_t schema_hash; /* same-schema hash of the fields */
  /* The hashes other runtimes write for these fields (WIRE_OPT_PEER,
   * spec R-PEER-1): without ref flags (Fory Java with reference tracking
   * off), without the nullable flag of non-collection fields (Fory Go). */
  uint32_t schema_hash_noref, schema_hash_go;
  const uint8_t *td;    /* the TypeDef bytes as read (header..end), or NULL */
  uint32_t td_len;
  bool matches_schema;  /* td equals the TypeDef of the registered type */
  /* Field lookup by name (wire name, and declared name where it differs):
   * open addressing, nix slots (twice the names), NULL if not built. */
  struct wire_name_slot *ix;
  uint32_t nix;
  /* wire_struct_project's field map from this layout (the writer's) onto
   * one registered type, made at the first projection (project.c) and
   * kept with the entry when the layout is the TypeDef cache's (entry:
   * the cache's entry this layout is, else NULL: the map is made per
   * projection). */
  struct wire_projmap *proj;
  struct wire_td_entry *entry;
} wire_layout;

typedef struct wire_name_slot {
  const char *name;   /* NULL: empty slot */
  uint32_t len;
  uint32_t field;     /* index into wire_layout.fields */
} wire_name_slot;

/* Builds l->ix in `arena` (WIRE_E_NOMEM on failure, recorded on ctx). */
int32_t wire__layout_index(wire_ctx *ctx, wire_arena *arena, wire_layout *l);
/* The slots of l's index (twice its names, at least 4), and
 * the index built into ix[0..n) of them (the TypeDef cache's entries). */
uint32_t wire__layout_ix_slots(wire_ctx *ctx, const wire_layout *l);
void wire__layout_ix_fill(wire_ctx *ctx, wire_layout *l, wire_name_slot *ix,
                          uint32_t n);
/* The field of name[0..len) through l->ix (which must be built); -1. */
int32_t wire__layout_find(const wire_layout *l, const char *name, size_t len);

/* Kinds of user types: WIRE_KIND_* in wire.h. */

typedef struct {
  uint8_t kind;        /* WIRE_KIND_* */
  bool by_name;        /* registered by namespace + name */
  bool evolving;       /* struct may use the compatible layout (default) */
  uint32_t user_id;    /* when !by_name */
  char *ns, *name;     /* namespace ("" if none) and type name */
  char *full_name;     /* "ns.name" or "name": how the CLI and notation
                          refer to the type */
  wire_field *fields;  /* declaration order */
  uint32_t nfields, fields_cap;
  uint32_t *order;     /* wire order of fields (indexes), after finish */
  wire_enum_value *values;
  uint32_t nvalues, values_cap;
  wire_union_case *cases;
  uint32_t ncases, cases_cap;
  wire_layout *layout; /* computed on first use (wire__layout_of) */
  /* The type's TypeDef bytes (wire__typedef_bytes), built once; valid
   * while td_gen equals the registry's gen. */
  uint8_t *td;
  uint32_t td_len, td_gen;
} wire_utype;

/* The registry lives in the context. */
typedef struct wire_registry_s {
  wire_utype *types;
  uint32_t ntypes, cap;
  wire_arena arena;    /* names, fields, field types */
  /* Bumped by every change to the registry: what was computed from it
   * (TypeDef bytes, the links of cached incoming TypeDefs) is redone. */
  uint32_t gen;
} wire_registry;

/* A declared field type naming a struct whose evolution is disabled
 * (R-UMODE-2): in compatible mode its values may come without type meta
 * (R-LIST-3, errata E-49). */
static inline bool wire__fixed_struct(const wire_ctx *ctx, const wire_ftype *f) {
  return f->user != WIRE_NO_TYPE && ctx->reg && f->user < ctx->reg->ntypes &&
         ctx->reg->types[f->user].kind == WIRE_KIND_STRUCT &&
         !ctx->reg->types[f->user].evolving;
}

/* The context's registry, created on first use; NULL if out of memory. */
wire_registry *wire__reg(wire_ctx *ctx);
void wire__reg_free(wire_ctx *ctx);

/* Internal builders used by the ABI wrappers and by the IDL loader. They
 * record errors on the context and return a status. Strings are copied. */
int32_t wire__reg_add_type(wire_ctx *ctx, uint8_t kind, bool by_name,
                           uint32_t user_id, const char *ns, size_t ns_len,
                           const char *name, size_t name_len,
                           uint32_t *out_index);
wire_ftype *wire__ftype_new(wire_ctx *ctx, uint8_t type_id);
int32_t wire__reg_add_field(wire_ctx *ctx, uint32_t type_index,
                            const char *name, size_t name_len, int32_t tag,
                            wire_ftype *type);
int32_t wire__reg_add_enum_value(wire_ctx *ctx, uint32_t type_index,
                                 const char *name, size_t name_len,
                                 uint32_t value);
int32_t wire__reg_add_union_case(wire_ctx *ctx, uint32_t type_index,
                                 uint32_t case_id, const char *name,
                                 size_t name_len, wire_ftype *type);
/* Looks a type up by full name ("ns.name") or by short name. */
int32_t wire__reg_find(wire_ctx *ctx, const char *name, size_t len,
                       uint32_t *out_index);
/* Resolves ftype->unresolved names, computes field orders and hashes. */
int32_t wire__reg_finish(wire_ctx *ctx);

/* project.c: the default value of a missing field of declared type f
 * (null when nullable, zero, empty, the first enumerator). */
int32_t wire__field_default(wire_doc *doc, const wire_ftype *f,
                            wire_node **out);

/* infer.c: "; the writer's hash matches field x with nullable on" when one
 * field flag (or one field less) gives the payload's hash `got`; "" when
 * nothing simple does. */
void wire__hash_hint(wire_ctx *ctx, const wire_layout *l, uint32_t got,
                     char *buf, size_t cap);

/* notation_text.c: " = 349.99", " = 2024-02-29", " (demo.Color.RED)": a
 * decoded decimal, date, timestamp, duration or enum (with a schema) in
 * readable form, for wire_dump; "" for other nodes. */
void wire__readable(wire_ctx *ctx, const wire_doc *doc, const wire_node *n,
                    char *buf, size_t cap);

/* typedef.c */
size_t wire__snake_case(const char *in, size_t n, char *out);
/* The same-schema hash of the fields (any order) into *out; WIRE_E_NOMEM
 * (recorded on ctx) if the fingerprint cannot be built. */
int32_t wire__schema_hash(wire_ctx *ctx, const wire_lfield *fields,
                          uint32_t n, uint32_t *out);
/* The same with the flags a peer runtime leaves out: WIRE_HASH_* bits. */
enum { WIRE_HASH_NO_REF = 1, WIRE_HASH_GO_NULLABLE = 2 };
int32_t wire__schema_hash_as(wire_ctx *ctx, const wire_lfield *fields,
                             uint32_t n, int how, uint32_t *out);
/* Gives a named struct or ext node built from the schema names of its own
 * (the layout's), where the notation's recorded name choices (announced
 * again, hash forms) are kept; no-op for other nodes (doc.c). */
int32_t wire__node_own_names(wire_doc *d, wire_node *n);
/* The TypeDef a struct node was read with, also when it is the schema's
 * (doc.c). */
const uint8_t *wire__node_typedef_raw(const wire_node *n, size_t *out_len,
                                      bool *matches_schema);
/* ucase.c: the declared type of case c of union node n when it is a list,
 * set or map and the schema has the union (R-UNION-5); else NULL. */
const wire_ftype *wire__union_case_decl(const wire_ctx *ctx, const wire_node *n,
                                        uint32_t c);
/* The same for the union of registry index ti; the registry index of a
 * union by user id or names (WIRE_NO_TYPE if none). */
const wire_ftype *wire__union_case_decl_at(const wire_ctx *ctx, uint32_t ti,
                                           uint32_t c);
uint32_t wire__union_find(const wire_ctx *ctx, uint32_t user_id,
                          const wire_names *nm);
/* peer.c: the schema hash the WIRE_OPT_PEER runtime writes for l, and
 * whether it writes a null flag and type meta before a field of type f. */
uint32_t wire__peer_schema_hash(const wire_ctx *ctx, const wire_layout *l);
bool wire__peer_field_meta_of(const wire_ctx *ctx, const wire_ftype *f);
/* Whether the peer writes a null flag before an any field that is not
 * declared nullable. */
bool wire__peer_any_flag_of(const wire_ctx *ctx, const wire_ftype *f);
/* Whether the peer writes a flag (not tracked) before a struct field that
 * is neither nullable nor ref. */
bool wire__peer_value_flag_of(const wire_ctx *ctx, const wire_ftype *f);
/* Whether the peer writes reference flags in a field not declared ref. */
bool wire__peer_field_tracks_of(const wire_ctx *ctx, const wire_ftype *f);
/* (without a peer, inline: every field asks) */
static inline bool wire__peer_field_meta(const wire_ctx *ctx,
                                         const wire_ftype *f) {
  return ctx->peer != WIRE_PEER_NONE && wire__peer_field_meta_of(ctx, f);
}
static inline bool wire__peer_any_flag(const wire_ctx *ctx,
                                       const wire_ftype *f) {
  return ctx->peer != WIRE_PEER_NONE && wire__peer_any_flag_of(ctx, f);
}
static inline bool wire__peer_value_flag(const wire_ctx *ctx,
                                         const wire_ftype *f) {
  return ctx->peer != WIRE_PEER_NONE && wire__peer_value_flag_of(ctx, f);
}
static inline bool wire__peer_field_tracks(const wire_ctx *ctx,
                                           const wire_ftype *f) {
  return ctx->peer != WIRE_PEER_NONE && wire__peer_field_tracks_of(ctx, f);
}
/* The fingerprint string behind the same-schema hash of registered struct
 * `ti` (NUL-terminated into out; *out_len without the NUL). */
int32_t wire__schema_fingerprint(wire_ctx *ctx, uint32_t ti, char *out,
                                 size_t cap, size_t *out_len);
/* Computes the layout of registered struct `ti` (field order, hash). */
int32_t wire__layout_of(wire_ctx *ctx, uint32_t ti);
/* Appends the TypeDef of registered type `ti` to out. */
int32_t wire__typedef_build(wire_ctx *ctx, uint32_t ti, wire_buf *out);
/* The TypeDef bytes of registered type `ti`, built on first use and kept
 * in the registry (owned by the context). */
int32_t wire__typedef_bytes(wire_ctx *ctx, uint32_t ti, const uint8_t **p,
                            uint32_t *len);
/* The registered type of a kind with an id or names; WIRE_NO_TYPE. */
uint32_t wire__reg_lookup(wire_ctx *ctx, uint8_t kind, bool by_name,
                          uint32_t id, const uint8_t *ns, uint32_t ns_len,
                          const uint8_t *name, uint32_t name_len);
/* The same by a value's names (nm, a named type) or, nm NULL, by id. Static
 * but not inline: each file that calls it gets the code its own copy had
 * (the tape decoder's object code is the same as with its copy). */
static __attribute__((unused)) uint32_t
wire__reg_lookup_names(const wire_ctx *ctx, uint8_t kind, uint32_t id,
                       const wire_names *nm) {
  const wire_registry *r = ctx->reg;
  for (uint32_t i = 0; r && i < r->ntypes; i++) {
    const wire_utype *u = &r->types[i];
    if (u->kind != kind) continue;
    if (nm ? (u->by_name && strlen(u->ns) == nm->ns_len &&
              strlen(u->name) == nm->name_len &&
              wire__eq(u->ns, nm->ns, nm->ns_len) &&
              wire__eq(u->name, nm->name, nm->name_len))
           : (!u->by_name && u->user_id == id))
      return i;
  }
  return WIRE_NO_TYPE;
}

/* ---- Incoming TypeDefs, cached per context across messages ----------
 * (typedef_cache.c) Found by the 8-byte TypeDef header, whose bucket is
 * a keyed hash under a secret key the context draws from the system (a
 * peer chooses the headers, not the buckets); a hit is a lookup and a
 * byte compare of the whole TypeDef. A TypeDef the cache has room
 * for is read once, into the cache's scratch arena, linked to the registry
 * there (type, fields matched by tag id or name, matches_schema), then
 * copied into one allocation of exactly its size: the entry, the layout,
 * its fields and field types, the names it decoded, its bytes and its
 * name index; the scratch is freed. So the document holds nothing of a
 * cached TypeDef, and an entry takes at most WIRE_TDCACHE_PER_BYTE bytes
 * per byte of its TypeDef plus WIRE_TDCACHE_ENTRY_BASE. At most
 * WIRE_LIMIT_TYPEDEF_CACHE entries and WIRE_LIMIT_TYPEDEF_CACHE_BYTES
 * bytes of them (with the bucket table and the entries' projection maps);
 * a TypeDef past either is read per message into the document, as with
 * the cache off.
 *
 * A registry change or a new limit flushes the cache: the bucket table is
 * freed and the entries become unreachable. Documents may point at
 * entries, so a document that takes a cached layout pins the cache until
 * it is freed (wire__tdcache_pin); a tape decode is pinned by a turnover
 * that happens during it, until it returns. A flush frees the entries at once when nothing pins them;
 * otherwise they are retired, still counted in `bytes`, and freed when
 * the last holder pinned before the flush is freed (holders pinned after
 * it do not hold them). So the cache never holds more than its byte
 * budget plus its own struct, and gives its memory back once no document
 * made before the flush is alive.
 *
 * A full cache turns over (spec R-SEC-15): when, since the last turnover,
 * more TypeDefs were read without the cache for want of room than a
 * quarter of its entries plus the distinct entries found in it, and the
 * cache has taken at least as many entries as the last turnover kept, it
 * keeps half of itself (half the count limit and half the byte budget):
 * the entries found most since the last turnover first (3 times or more,
 * twice, once), then the others, each the oldest first; the others are
 * retired as by a flush. A full cache counts, and takes, only a TypeDef
 * it has seen lately (`seen`): one sent once is read into the document,
 * never copied, and does not hasten a turnover. So a peer that
 * sends many distinct TypeDefs cannot fill the cache for good: the
 * TypeDefs read in every message stay cached through the flood, the
 * others are cached again soon after they come back; and a set of
 * TypeDefs larger than the cache is still served in part. A hit costs a
 * load and a branch (the entry's `hits`), its first three since the last
 * turnover a store (and the first a count) more. */
#define WIRE_TDCACHE_PER_BYTE 80
#define WIRE_TDCACHE_ENTRY_BASE 256
#define WIRE_TDCACHE_SEEN 64
typedef struct wire_td_entry {
  struct wire_td_entry *next;  /* in its bucket */
  struct wire_td_entry *older; /* every entry of its list, for the free */
  uint64_t header;
  size_t size;                 /* of this allocation */
  size_t proj_size;            /* of layout.proj, when kept (project.c) */
  uint8_t hits;                 /* found since the last turnover (0-3) */
  bool keep;                   /* (during a turnover) */
  wire_layout layout;
} wire_td_entry;

typedef struct {
  uint32_t tag, when;
} wire_td_seen;

typedef struct wire_tdcache {
  wire_td_entry **buckets;
  wire_td_entry *newest;  /* the reachable entries */
  wire_td_entry *retired; /* flushed, kept for pinning documents */
  /* A header's bucket is the top bits of (a * header + b) mod 2^128, a
   * and b the context's secret 128-bit key (key[0..1] = a low, high;
   * key[2..3] = b), drawn from the operating system when the cache is
   * made: the peer chooses the headers, not where they go (R-SEC-15). */
  uint64_t key[4];
  uint32_t shift;         /* 64 - log2(nbuckets) */
  wire_td_seen seen[WIRE_TDCACHE_SEEN]; /* headers seen lately while full */
  uint32_t seen_clock;
  uint32_t nbuckets, count;
  uint32_t added;      /* entries taken since the last turnover or flush */
  uint32_t kept;       /* entries the last turnover kept */
  uint32_t hot;        /* entries found (hit) since it */
  uint32_t missed;     /* TypeDefs read without the cache since it, for
                          want of room */
  uint64_t turnovers;  /* (for the tests) */
  uint32_t reg_gen;
  uint64_t flushes;    /* flushes and turnovers: the pins' generation */
  uint32_t pins;       /* live holders (documents, tape decodes) pinned
                          since the last flush or turnover */
  uint32_t pins_old;   /* live holders pinned before it (they hold the
                          retired entries) */
  size_t bytes;        /* entries, retired ones too, their projection
                          maps and the bucket table */
  wire_arena scratch;  /* the TypeDef being read for the cache */
} wire_tdcache;

/* The cached layout of the TypeDef at p[0..avail), or NULL. */
wire_layout *wire__tdcache_find(wire_ctx *ctx, const uint8_t *p,
                                size_t avail);
/* The arena to read the new TypeDef at p[0..avail) into: the cache's
 * scratch when the cache has room for one more entry, or, full, has seen
 * this TypeDef lately and may make room by a turnover; else NULL (read
 * it into the document). hold: the pin slot of a caller
 * without a document (a tape decode), which may hold cached layouts
 * already: pinned before a turnover (wire__tdcache_pin), the caller
 * unpins it when it returns; NULL for a document decode (a document is
 * pinned when it takes a cached layout). */
wire_arena *wire__tdcache_scratch(wire_ctx *ctx, const uint8_t *p,
                                  size_t avail, uint64_t *hold);
/* *l was just read (wire__typedef_read) from bytes that may not outlive
 * the call: links it to the registry, and, when it was read into the
 * scratch, replaces it by a cached copy (or, past the cache's byte budget
 * even after a turnover, by a copy in `arena`, the document's). The
 * scratch is emptied. hold: as for wire__tdcache_scratch. */
int32_t wire__tdcache_adopt(wire_ctx *ctx, wire_layout **l, wire_arena *arena,
                            uint64_t *hold);
/* Empties the scratch after a TypeDef that could not be read. */
void wire__tdcache_drop(wire_ctx *ctx);
/* Links a layout read from a TypeDef to the registry: its registered type,
 * the fields (wire__layout_link) and matches_schema. */
int32_t wire__typedef_resolve(wire_ctx *ctx, wire_layout *l);
/* Makes every entry unreachable, and frees the entries when no document
 * pins the cache (else they are retired, for wire__tdcache_unpin). */
void wire__tdcache_flush(wire_ctx *ctx);
/* A holder (a document, a tape decode) takes a cached entry's layout:
 * counts it as pinning the cache, once (*pin, 0 until then, gets 1 + the
 * generation; the holder's pin slot). */
void wire__tdcache_pin(wire_ctx *ctx, uint64_t *pin);
/* A holder that pinned the cache (pin: its slot's value) is done: with
 * the last one pinned before the last flush or turnover the retired
 * entries go. */
void wire__tdcache_unpin(wire_ctx *ctx, uint64_t pin);
/* Memory for a projection map of `size` bytes kept with the cached
 * layout l (wire_struct_project), counted in the byte budget; NULL when l
 * is not cached, already has a map, or the budget has no room (the caller
 * then makes the map per projection). */
void *wire__tdcache_proj(wire_ctx *ctx, wire_layout *l, size_t size);
void wire__tdcache_free(wire_ctx *ctx);
/* Writes a readable form of a field type ("list<varint32?>") into buf. */
void wire__ftype_text(const wire_ftype *f, char *buf, size_t cap);
/* Links the fields of a TypeDef layout of a registered type (l->type_index)
 * to the schema's fields: names for tag ids, user types for enum/union
 * fields. */
void wire__layout_link(wire_ctx *ctx, wire_layout *l);
/* Appends the TypeDef of a named enum/ext/union known only by its names. */
int32_t wire__typedef_build_named(wire_ctx *ctx, uint8_t kind,
                                  const uint8_t *ns, size_t ns_len,
                                  const uint8_t *name, size_t name_len,
                                  wire_buf *out);
/* Reads a TypeDef at in->p into a layout allocated in `arena`. */
int32_t wire__typedef_read(wire_ctx *ctx, wire_in *in, wire_arena *arena,
                           uint32_t max_depth, wire_layout **out);

/* policy.c */
/* The struct a layout lays out as "ns.Name" (or "Name"), into buf (cut
 * at cap): buf. */
const char *wire__layout_full_name(const wire_ctx *ctx, const wire_layout *l,
                                   char *buf, size_t cap);

/* doc.c */
/* Index of a layout field by wire name, declared name or "#<tag>"; -1. */
int32_t wire__field_index(wire_ctx *ctx, const wire_layout *l,
                          const char *name, size_t len);
/* The node kind of a fresh value of registered struct or ext `t` (follows
 * WIRE_OPT_COMPATIBLE and the type's evolving flag). */
uint8_t wire__struct_kind(const wire_ctx *ctx, const wire_utype *t);
/* The node kind of a struct with a layout read from a TypeDef. */
uint8_t wire__layout_struct_kind(const wire_layout *l);
/* Links a struct layout read from a TypeDef to the schema's type. */
void wire__struct_typedef_link(wire_ctx *ctx, wire_layout *l);

#endif
