/* doc.c - the document: its roots, node builders, and the nodes of user
 * types (structs, enums, unions: built, set and read). Reading other nodes
 * is doc_access.c's, their wire choices doc_choices.c's, the arena is in
 * arena.c. */
#include <stddef.h>
#include <stdlib.h>

#include "schema.h"

/* ---- document ---- */

/* A freed document's shell and newest arena block (up to this size) stay
 * on the context for the next wire_doc_new. */
#define SPARE_ARENA_MAX ((size_t)256 << 10)

wire_doc *wire_doc_new(wire_ctx *ctx) {
  if (!ctx) return NULL;
  wire_doc *d = ctx->spare_doc;
  if (d) {
    ctx->spare_doc = NULL;
    return d;
  }
  d = wire__alloc(ctx, sizeof *d);
  if (!d) {
    wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    return NULL;
  }
  memset(d, 0, sizeof *d);
  d->ctx = ctx;
  d->arena.ctx = ctx;
  d->nodes.ctx = ctx;
  return d;
}

void wire_doc_free(wire_doc *d) {
  if (!d) return;
  wire_ctx *ctx = d->ctx;
  if (d->tdc_pin) wire__tdcache_unpin(ctx, d->tdc_pin); /* (before its layouts go) */
  if (d->roots && d->roots != d->roots_small)
    wire__free(ctx, d->roots, d->roots_cap * sizeof *d->roots);
  if (!ctx->spare_doc) {
    wire__arena_reset(&d->arena, SPARE_ARENA_MAX);
    wire__arena_reset(&d->nodes, SPARE_ARENA_MAX);
    wire_arena a = d->arena, na = d->nodes;
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->arena = a;
    d->nodes = na;
    ctx->spare_doc = d;
    return;
  }
  wire__arena_free(&d->arena);
  wire__arena_free(&d->nodes);
  wire__free(ctx, d, sizeof *d);
}

size_t wire_doc_root_count(const wire_doc *d) { return d ? d->nroots : 0; }

wire_node *wire_doc_root(const wire_doc *d, size_t i) {
  return d && i < d->nroots ? d->roots[i] : NULL;
}

static int32_t nomem(wire_doc *d) {
  return wire__fail(d->ctx, WIRE_E_NOMEM, 0, "out of memory");
}

int32_t wire_doc_add_root(wire_doc *d, wire_node *n) {
  if (!d || !n) return WIRE_E_ARG;
  if (!d->roots_cap) {
    d->roots = d->roots_small;
    d->roots_cap = 4;
  }
  if (d->nroots == d->roots_cap) {
    /* Past the inline table, through the allocator, not the arena: a
     * payload of many small roots would otherwise keep every smaller copy
     * of the table (spec R-SEC-9). */
    size_t cap = (size_t)d->roots_cap * 2, sz = sizeof *d->roots;
    if (cap > UINT32_MAX) return nomem(d);
    wire_node **r;
    if (d->roots == d->roots_small) {
      r = wire__alloc(d->ctx, cap * sz);
      if (r) memcpy(r, d->roots_small, d->nroots * sz);
    } else {
      r = wire__realloc(d->ctx, d->roots, d->roots_cap * sz, cap * sz);
    }
    if (!r) return nomem(d);
    d->roots = r;
    d->roots_cap = (uint32_t)cap;
  }
  d->roots[d->nroots++] = n;
  return WIRE_OK;
}

__attribute__((noinline)) wire_node *wire__node_new_slow(wire_doc *d,
                                                         uint8_t type) {
  /* nodes only: the page is bumped by 20 bytes at a time */
  wire_node *n = wire__arena_alloc_slow(&d->nodes, sizeof *n);
  if (!n) {
    nomem(d);
    return NULL;
  }
  memset(n, 0, sizeof *n);
  n->type = type;
  n->index = d->nnodes++;
  return n;
}

wire_node *wire__doc_null(wire_doc *d) {
  if (!d->null) d->null = wire__node_new(d, WIRE_T_NULL);
  return d->null;
}

void *wire__doc_dup(wire_doc *d, const void *p, size_t n) {
  void *r = wire__arena_alloc(&d->arena, n ? n : 1);
  if (!r) {
    nomem(d);
    return NULL;
  }
  if (n) memcpy(r, p, n);
  return r;
}

/* A body of `cap` slots (of `slot` bytes after a `head`-byte header) with
 * the first n slots and the header copied from `old` (NULL: zeroed), its
 * capacity set at `cap_at`; NULL (the error recorded) if out of memory. */
static void *new_body(wire_doc *d, const void *old, size_t head, size_t slot,
                      uint32_t n, uint32_t cap, size_t cap_at) {
  uint8_t *b = (uint64_t)cap * slot > SIZE_MAX - head
                   ? NULL
                   : wire__arena_alloc(&d->arena, head + (size_t)cap * slot);
  if (!b) {
    nomem(d);
    return NULL;
  }
  if (old) memcpy(b, old, head + (size_t)n * slot);
  else memset(b, 0, head);
  memcpy(b + cap_at, &cap, sizeof cap);
  return b;
}

/* The growth rule of wire__arena_grow: 4, then doubling. */
static uint32_t grown(uint32_t cap) {
  return cap < 4 ? 4 : cap > UINT32_MAX / 2 ? 0 : cap * 2;
}

wire_lbody *wire__list_body(wire_doc *d, wire_node *l, uint32_t cap) {
  wire_lbody *b = new_body(d, l->v.list, sizeof *b, sizeof(wire_node *),
                           l->small, cap, offsetof(wire_lbody, cap));
  if (b) l->v.list = b;
  return b;
}

wire_mbody *wire__map_body(wire_doc *d, wire_node *m, uint32_t cap) {
  wire_mbody *b = new_body(d, m->v.map, sizeof *b, 2 * sizeof(wire_node *),
                           m->small, cap, offsetof(wire_mbody, cap));
  if (b) m->v.map = b;
  return b;
}

int32_t wire__list_push(wire_doc *d, wire_node *l, wire_node *item) {
  wire_lbody *b = l->v.list;
  if (!b || l->small == b->cap) {
    uint32_t cap = grown(b ? b->cap : 0);
    if (!cap || !(b = wire__list_body(d, l, cap))) return nomem(d);
  }
  b->items[l->small++] = item;
  return WIRE_OK;
}

int32_t wire__map_push(wire_doc *d, wire_node *m, wire_node *k,
                       wire_node *v) {
  wire_mbody *b = m->v.map;
  if (!b || m->small == b->cap) {
    uint32_t cap = grown(b ? b->cap : 0);
    if (!cap || !(b = wire__map_body(d, m, cap))) return nomem(d);
  }
  b->kv[2 * m->small] = k;
  b->kv[2 * m->small + 1] = v;
  m->small++;
  return WIRE_OK;
}

int32_t wire__chunk_push(wire_doc *d, wire_node *m, uint32_t header,
                         uint32_t count) {
  if (!m->v.map && !wire__map_body(d, m, 0)) return WIRE_E_NOMEM;
  wire_chunks *c = m->v.map->chunks;
  if (!c || c->n == c->cap) {
    uint32_t cap = c ? c->cap * 2 : 4;
    wire_chunks *nc =
        wire__arena_alloc(&d->arena, sizeof *nc + cap * sizeof(uint16_t));
    if (!nc) return nomem(d);
    nc->n = c ? c->n : 0;
    nc->cap = cap;
    if (c && c->n) memcpy(nc->c, c->c, c->n * sizeof(uint16_t));
    m->v.map->chunks = c = nc;
  }
  c->c[c->n++] = (uint16_t)(header << 8 | count);
  return WIRE_OK;
}

/* ---- builders ---- */

/* (out of line: the builders' common paths then need no frame) */
__attribute__((noinline, cold)) static wire_node *bad(wire_doc *d,
                                                      const char *msg) {
  if (d) wire__fail(d->ctx, WIRE_E_ARG, 0, "%s", msg);
  return NULL;
}

wire_node *wire_node_new_null(wire_doc *d) {
  return d ? wire__node_new(d, WIRE_T_NULL) : NULL;
}
wire_node *wire_node_new_none(wire_doc *d) {
  return d ? wire__node_new(d, WIRE_T_NONE) : NULL;
}
wire_node *wire_node_new_bool(wire_doc *d, int32_t v) {
  if (!d) return NULL;
  wire_node *n = wire__node_new(d, WIRE_T_BOOL);
  if (n) n->v.i = v != 0;
  return n;
}

static wire_node *int_slow(wire_doc *d, uint32_t t, int64_t v);
/* The builders' bodies (d is not NULL), shared with the create-and-set
 * calls below. */
static inline __attribute__((always_inline)) wire_node *
int_node(wire_doc *d, uint32_t t, int64_t v) {
  if (WIRE_LIKELY(t == WIRE_T_VARINT32 || t == WIRE_T_INT32
                      ? v == (int32_t)v
                      : t == WIRE_T_VARINT64 || t == WIRE_T_INT64)) {
    wire_node *n = wire__node_new(d, (uint8_t)t);
    if (n) n->v.i = v;
    return n;
  }
  return int_slow(d, t, v);
}

wire_node *wire_node_new_int(wire_doc *d, uint32_t t, int64_t v) {
  return d ? int_node(d, t, v) : NULL;
}

static wire_node *int_slow(wire_doc *d, uint32_t t, int64_t v) {
  if (!wire__is_int_type(t)) return bad(d, "not a signed integer type");
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (t == WIRE_T_INT8) { lo = INT8_MIN; hi = INT8_MAX; }
  else if (t == WIRE_T_INT16) { lo = INT16_MIN; hi = INT16_MAX; }
  else if (t == WIRE_T_INT32 || t == WIRE_T_VARINT32) {
    lo = INT32_MIN; hi = INT32_MAX;
  }
  if (v < lo || v > hi) {
    wire__fail(d->ctx, WIRE_E_VALUE, 0, "%lld does not fit %s",
               (long long)v, wire_type_name(t));
    return NULL;
  }
  wire_node *n = wire__node_new(d, (uint8_t)t);
  if (n) n->v.i = v;
  return n;
}

wire_node *wire_node_new_uint(wire_doc *d, uint32_t t, uint64_t v) {
  if (!d) return NULL;
  if (!wire__is_uint_type(t)) return bad(d, "not an unsigned integer type");
  uint64_t hi = UINT64_MAX;
  if (t == WIRE_T_UINT8) hi = UINT8_MAX;
  else if (t == WIRE_T_UINT16) hi = UINT16_MAX;
  else if (t == WIRE_T_UINT32 || t == WIRE_T_VAR_UINT32) hi = UINT32_MAX;
  if (v > hi) {
    wire__fail(d->ctx, WIRE_E_VALUE, 0, "%llu does not fit %s",
               (unsigned long long)v, wire_type_name(t));
    return NULL;
  }
  wire_node *n = wire__node_new(d, (uint8_t)t);
  if (n) n->v.u = v;
  return n;
}

wire_node *wire_node_new_float_bits(wire_doc *d, uint32_t t, uint64_t bits) {
  if (!d) return NULL;
  if (!wire__is_float_type(t)) return bad(d, "not a float type");
  uint64_t mask = t == WIRE_T_FLOAT64   ? UINT64_MAX
                  : t == WIRE_T_FLOAT32 ? UINT32_MAX
                                        : UINT16_MAX;
  if (bits & ~mask) return bad(d, "float bits wider than the type");
  wire_node *n = wire__node_new(d, (uint8_t)t);
  if (n) n->v.u = bits;
  return n;
}

wire_node *wire_node_new_float(wire_doc *d, uint32_t t, double v) {
  uint64_t bits;
  memcpy(&bits, &v, 8);
  switch (t) { /* a NaN keeps its bits (internal.h) */
  case WIRE_T_FLOAT16: bits = wire__f16_narrow(bits); break;
  case WIRE_T_BFLOAT16: bits = wire__bf16_narrow(bits); break;
  case WIRE_T_FLOAT32: bits = wire__f32_narrow(bits); break;
  case WIRE_T_FLOAT64: break;
  default: return bad(d, "not a float type");
  }
  return wire_node_new_float_bits(d, t, bits);
}

static wire_node *string_slow(wire_doc *d, const uint8_t *s, size_t len,
                              int32_t enc);
/* A string node of text in wire encoding enc at buf (the document's). */
__attribute__((noinline)) static wire_node *text_node_slow(wire_doc *d,
                                                           const uint8_t *buf,
                                                           size_t n,
                                                           int32_t enc) {
  wire_node *node = wire__node_new(d, WIRE_T_STRING);
  if (node) {
    node->a = (uint8_t)enc;
    node->flags |= WIRE_NF_HDR_SET;
    node->v.p = buf;
    node->small = (uint32_t)n;
  }
  return node;
}
static inline wire_node *text_node(wire_doc *d, const uint8_t *buf, size_t n,
                                   int32_t enc) {
  if (WIRE_UNLIKELY((size_t)(d->nodes.end - d->nodes.p) < sizeof(wire_node)))
    return text_node_slow(d, buf, n, enc); /* (a new node page) */
  wire_node *node = wire__node_put(d, WIRE_T_STRING, (uint32_t)n, 0);
  node->a = (uint8_t)enc;
  node->flags = WIRE_NF_HDR_SET;
  node->v.p = buf;
  return node;
}
static inline __attribute__((always_inline)) wire_node *
string_node(wire_doc *d, const uint8_t *s, size_t len, int32_t enc) {
  if (WIRE_UNLIKELY((!s && len) || len > UINT32_MAX / 2))
    return bad(d, !s ? "null text" : "text longer than 2 GiB");
  if (WIRE_LIKELY(enc == WIRE_STR_UTF8 || enc == WIRE_STR_LATIN1)) {
    /* ASCII text (the common case) is checked while it is copied. */
    wire_arena *a = &d->arena;
    size_t sz = (len + 7 + !len) & ~(size_t)7;
    if (WIRE_LIKELY((size_t)(a->end - a->p) >= sz)) {
      uint8_t *buf = a->p;
      if (wire__copy_ascii(buf, s, len)) {
        a->p += sz;
        return text_node(d, buf, len, enc);
      }
    }
  }
  return string_slow(d, s, len, enc);
}

wire_node *wire_node_new_string(wire_doc *d, const uint8_t *s, size_t len,
                                int32_t enc) {
  return d ? string_node(d, s, len, enc) : bad(d, "null text");
}

static wire_node *string_slow(wire_doc *d, const uint8_t *s, size_t len,
                              int32_t enc) {
  if (enc == WIRE_STR_UTF8 || enc == WIRE_STR_LATIN1) {
    /* ASCII text (the common case) is checked while it is copied. */
    uint8_t *buf = wire__arena_alloc(&d->arena, len ? len : 1);
    if (!buf) {
      nomem(d);
      return NULL;
    }
    if (wire__copy_ascii(buf, s, len) ||
        (enc == WIRE_STR_UTF8 && wire__utf8_check(s, len) == len)) {
      /* ASCII, or valid UTF-8 kept as UTF-8: the copy is the string */
      return text_node(d, buf, len, enc);
    }
    /* invalid, or Latin-1 of non-ASCII text: the general path below
     * (the copy stays unused in the arena) */
  }
  if (wire__utf8_check(s, len) != len) {
    wire__fail(d->ctx, WIRE_E_STRING, 0, "text is not valid UTF-8");
    return NULL;
  }
  if (enc < 0) enc = wire__java_string_encoding(s, len);
  if (enc > WIRE_STR_UTF8) return bad(d, "unknown string encoding");
  size_t cap = enc == WIRE_STR_UTF16 ? 2 * len : len;
  uint8_t *buf = wire__arena_alloc(&d->arena, cap ? cap : 1);
  if (!buf) {
    nomem(d);
    return NULL;
  }
  size_t n = wire__utf8_to_string(enc, s, len, buf);
  if (n == SIZE_MAX) {
    wire__fail(d->ctx, WIRE_E_ENCODE, 0,
               "text does not fit the Latin-1 encoding");
    return NULL;
  }
  return text_node(d, buf, n, enc);
}

wire_node *wire_node_new_binary(wire_doc *d, const uint8_t *p, size_t len) {
  return wire_node_new_array(d, WIRE_T_BINARY, p, len);
}

wire_node *wire_node_new_array(wire_doc *d, uint32_t t, const uint8_t *p,
                               size_t len) {
  if (!d || (!p && len)) return bad(d, "null bytes");
  uint32_t w = t == WIRE_T_BINARY ? 1 : wire_type_array_width(t);
  if (!w) return bad(d, "not a dense array type");
  if (len & (w - 1)) /* widths are 1, 2, 4, 8 */
    return bad(d, "byte length is not a multiple of the width");
  if (len > UINT32_MAX) return bad(d, "array longer than 4 GiB");
  if (t == WIRE_T_BOOL_ARRAY)
    for (size_t i = 0; i < len; i++)
      if (p[i] > 1) return bad(d, "bool array bytes must be 0 or 1");
  uint8_t *copy = wire__arena_alloc(&d->arena, len ? len : 1);
  if (!copy) {
    nomem(d);
    return NULL;
  }
  if (len) memcpy(copy, p, len);
  wire_node *n = wire__node_new(d, (uint8_t)t);
  if (!n) return NULL;
  n->v.p = copy;
  n->small = (uint32_t)len;
  return n;
}

wire_node *wire_node_new_date(wire_doc *d, int64_t days) {
  if (!d) return NULL;
  wire_node *n = wire__node_new(d, WIRE_T_DATE);
  if (n) n->v.i = days;
  return n;
}

static wire_node *new_time(wire_doc *d, uint8_t t, int64_t s, uint32_t ns) {
  if (!d) return NULL;
  if (ns >= 1000000000u) {
    wire__fail(d->ctx, WIRE_E_VALUE, 0, "nanoseconds must be < 1e9");
    return NULL;
  }
  wire_node *n = wire__node_new(d, t);
  if (n) {
    n->v.i = s;
    n->small = ns;
  }
  return n;
}
wire_node *wire_node_new_timestamp(wire_doc *d, int64_t s, uint32_t ns) {
  return new_time(d, WIRE_T_TIMESTAMP, s, ns);
}
wire_node *wire_node_new_duration(wire_doc *d, int64_t s, uint32_t ns) {
  return new_time(d, WIRE_T_DURATION, s, ns);
}

wire_node *wire_node_new_decimal(wire_doc *d, int32_t negative,
                                 const uint8_t *mag, size_t len,
                                 int32_t scale) {
  if (!d || (!mag && len)) return bad(d, "null magnitude");
  while (len && mag[len - 1] == 0) len--; /* minimal form */
  if (len > UINT32_MAX) return bad(d, "decimal too long");
  uint8_t *copy = wire__doc_dup(d, mag, len);
  wire_dbody *b = copy ? wire__arena_alloc(&d->arena, sizeof *b) : NULL;
  if (!b) {
    if (copy) nomem(d);
    return NULL;
  }
  b->mag = copy;
  b->len = (uint32_t)len;
  wire_node *n = wire__node_new(d, WIRE_T_DECIMAL);
  if (!n) return NULL;
  n->v.dec = b;
  n->small = (uint32_t)scale;
  if (negative && len) n->flags |= WIRE_NF_NEGATIVE;
  return n;
}

wire_node *wire_node_new_enum(wire_doc *d, uint32_t type_id, uint32_t v) {
  if (!d) return NULL;
  wire_node *n = wire__node_new(d, WIRE_T_ENUM);
  if (n) {
    n->v.en = type_id;
    n->small = v;
  }
  return n;
}

wire_node *wire_node_new_named_enum(wire_doc *d, const uint8_t *ns,
                                    size_t ns_len, const uint8_t *name,
                                    size_t name_len, uint32_t v) {
  if (!d || (!ns && ns_len) || (!name && name_len)) return bad(d, "null name");
  if (wire_meta_choose_encoding(WIRE_MSCTX_NAMESPACE, ns, ns_len) < 0 ||
      wire_meta_choose_encoding(WIRE_MSCTX_TYPE_NAME, name, name_len) < 0) {
    wire__fail(d->ctx, WIRE_E_META_STRING, 0, "name is not a meta string");
    return NULL;
  }
  wire_names *nm = wire__arena_alloc(&d->arena, sizeof *nm);
  if (!nm) {
    nomem(d);
    return NULL;
  }
  memset(nm, 0, sizeof *nm);
  nm->ns = wire__doc_dup(d, ns, ns_len);
  nm->name = wire__doc_dup(d, name, name_len);
  if (!nm->ns || !nm->name) return NULL;
  nm->ns_len = (uint32_t)ns_len;
  nm->name_len = (uint32_t)name_len;
  wire_node *n = wire__node_new(d, WIRE_T_NAMED_ENUM);
  if (n) {
    n->v.names = nm;
    n->small = v;
  }
  return n;
}

wire_node *wire_node_new_list(wire_doc *d, uint32_t t) {
  if (!d) return NULL;
  if (t != WIRE_T_LIST && t != WIRE_T_SET) return bad(d, "not list or set");
  return wire__node_new(d, (uint8_t)t);
}

int32_t wire_list_append(wire_doc *d, wire_node *l, wire_node *e) {
  if (!d || !l || !e || (l->type != WIRE_T_LIST && l->type != WIRE_T_SET))
    return WIRE_E_ARG;
  wire_lbody *b = l->v.list;
  if (WIRE_LIKELY(b && l->small < b->cap)) {
    b->items[l->small++] = e;
    return WIRE_OK;
  }
  if (!b) {
    /* the first item: a body of 4 slots (wire__list_push's first size)
     * from the arena's room */
    wire_arena *a = &d->arena;
    size_t sz = sizeof(wire_lbody) + 4 * sizeof(wire_node *);
    if (WIRE_LIKELY((size_t)(a->end - a->p) >= sz)) {
      b = (wire_lbody *)(void *)a->p;
      a->p += sz;
      b->cap = 4;
      b->pad_ = 0;
      b->items[0] = e;
      l->v.list = b;
      l->small = 1;
      return WIRE_OK;
    }
  }
  return wire__list_push(d, l, e);
}

wire_node *wire_node_new_map(wire_doc *d) {
  return d ? wire__node_new(d, WIRE_T_MAP) : NULL;
}

int32_t wire_map_put(wire_doc *d, wire_node *m, wire_node *k, wire_node *v) {
  if (!d || !m || !k || !v || m->type != WIRE_T_MAP) return WIRE_E_ARG;
  return wire__map_push(d, m, k, v);
}

/* ---- user types ---- */

uint8_t wire__struct_kind(const wire_ctx *ctx, const wire_utype *t) {
  bool compat = ctx->compatible && t->evolving;
  if (t->kind == WIRE_KIND_EXT) return t->by_name ? WIRE_T_NAMED_EXT : WIRE_T_EXT;
  return t->by_name ? (compat ? WIRE_T_NAMED_COMPATIBLE_STRUCT : WIRE_T_NAMED_STRUCT)
                    : (compat ? WIRE_T_COMPATIBLE_STRUCT : WIRE_T_STRUCT);
}

uint8_t wire__layout_struct_kind(const wire_layout *l) {
  return l->by_name ? (l->compatible ? WIRE_T_NAMED_COMPATIBLE_STRUCT
                                     : WIRE_T_NAMED_STRUCT)
                    : (l->compatible ? WIRE_T_COMPATIBLE_STRUCT : WIRE_T_STRUCT);
}

/* Structs, and ext values whose body the schema describes as fields. */
static bool is_struct(const wire_node *n) {
  return n && n->type >= WIRE_T_STRUCT && n->type <= WIRE_T_NAMED_EXT;
}
/* The fields a struct node holds (n->small) on the setters' fast paths:
 * none while it is lazy (they open it on the slow path). */
static inline uint32_t set_count(const wire_node *n) {
  return (n->v.u & WIRE_ST_LAZY) ? 0 : n->small;
}
/* A struct whose fields can be read and set (a lazy one decoded now). */
static bool open_struct(const wire_node *n) {
  return is_struct(n) && wire__st_open(n);
}
/* The status of a lazy struct that could not be decoded (out of memory:
 * the error is on its document's context). */
static int32_t open_failed(const wire_node *n) {
  const wire_lazy *z = (const wire_lazy *)(uintptr_t)(n->v.u & ~(uint64_t)WIRE_ST_LAZY);
  int32_t st = z->src->doc->ctx->err_code;
  return st ? st : WIRE_E_NOMEM;
}
static bool is_union(const wire_node *n) {
  return n && n->type >= WIRE_T_UNION && n->type <= WIRE_T_NAMED_UNION;
}

static wire_utype *reg_type(wire_doc *d, uint32_t type, uint8_t kind) {
  wire_registry *r = d->ctx->reg;
  if (!r || type >= r->ntypes || r->types[type].kind != kind) {
    wire__fail(d->ctx, WIRE_E_ARG, 0, "type %u is not a registered %s", type,
               kind == WIRE_KIND_STRUCT ? "struct" : kind == WIRE_KIND_ENUM
                                                         ? "enum" : "union");
    return NULL;
  }
  return &r->types[type];
}

wire_sbody *wire__struct_body(wire_doc *d, wire_layout *l) {
  size_t n = l->nfields;
  wire_sbody *b = wire__arena_alloc(&d->arena, sizeof *b + n * sizeof(wire_node *));
  if (!b) {
    nomem(d);
    return NULL;
  }
  b->meta = l;
  for (size_t i = 0; i < n; i++) b->fields[i] = NULL;
  return b;
}

/* A struct node of a kind and layout, all fields unset. */
static wire_node *struct_node(wire_doc *d, uint8_t kind, wire_layout *l) {
  wire_sbody *b = wire__struct_body(d, l);
  wire_node *n = b ? wire__node_new(d, kind) : NULL;
  if (!n) return NULL;
  n->v.st = b;
  n->small = l->nfields;
  return n;
}

__attribute__((noinline)) static wire_node *new_struct_slow(wire_doc *d,
                                                            uint32_t type);

wire_node *wire_node_new_struct(wire_doc *d, uint32_t type) {
  /* A struct type in use (its layout is there) with room for the body and
   * the node: without a call. */
  wire_registry *r = d ? d->ctx->reg : NULL;
  if (WIRE_LIKELY(r && type < r->ntypes && r->types[type].layout &&
                  r->types[type].kind == WIRE_KIND_STRUCT)) {
    wire_utype *t = &r->types[type];
    wire_layout *l = t->layout;
    wire_arena *a = &d->arena;
    size_t sz = sizeof(wire_sbody) + (size_t)l->nfields * sizeof(wire_node *);
    if (WIRE_LIKELY((size_t)(a->end - a->p) >= sz &&
                    (size_t)(d->nodes.end - d->nodes.p) >= sizeof(wire_node))) {
      wire_sbody *b = (wire_sbody *)(void *)a->p;
      a->p += sz; /* a multiple of 8 */
      b->meta = l;
      wire_node *n = wire__node_put(d, wire__struct_kind(d->ctx, t),
                                    l->nfields, 0);
      n->v.st = b;
      /* last: only n is live across the call */
      memset(b->fields, 0, (size_t)l->nfields * sizeof(wire_node *));
      return n;
    }
  }
  return new_struct_slow(d, type);
}

static wire_node *new_struct_slow(wire_doc *d, uint32_t type) {
  if (!d) return NULL;
  wire_registry *r = d->ctx->reg;
  if (r && type < r->ntypes && r->types[type].layout &&
      r->types[type].kind == WIRE_KIND_STRUCT) {
    wire_utype *t = &r->types[type];
    return struct_node(d, wire__struct_kind(d->ctx, t), t->layout);
  }
  bool ext = r && type < r->ntypes && r->types[type].kind == WIRE_KIND_EXT;
  wire_utype *t = ext ? &r->types[type] : reg_type(d, type, WIRE_KIND_STRUCT);
  if (!t || wire__layout_of(d->ctx, type) != WIRE_OK) return NULL;
  return struct_node(d, wire__struct_kind(d->ctx, t), t->layout);
}

int32_t wire__node_own_names(wire_doc *d, wire_node *n) {
  if (n->type != WIRE_T_NAMED_STRUCT && n->type != WIRE_T_NAMED_COMPATIBLE_STRUCT &&
      n->type != WIRE_T_NAMED_EXT)
    return WIRE_OK;
  if (wire__st_names(n)) return WIRE_OK;
  if (!wire__st_open(n)) return open_failed(n);
  wire_layout *l = wire__st_layout(n);
  wire_names *nm = wire__arena_alloc(&d->arena, sizeof *nm);
  if (!nm) return wire__fail(d->ctx, WIRE_E_NOMEM, 0, "out of memory");
  memset(nm, 0, sizeof *nm);
  nm->ns = l->ns;
  nm->ns_len = l->ns_len;
  nm->name = l->name;
  nm->name_len = l->name_len;
  wire_smeta *sm = wire__arena_alloc(&d->arena, sizeof *sm);
  if (!sm) return wire__fail(d->ctx, WIRE_E_NOMEM, 0, "out of memory");
  n->v.st->meta = wire__sb_meta(l, nm, sm);
  return WIRE_OK;
}

/* Index of a field by wire name (snake_case), declared name, or "#tag". */
int32_t wire__field_index(wire_ctx *ctx, const wire_layout *l,
                          const char *name, size_t len) {
  /* Names through the layout's index; "#tag" by the scan below. */
  if (l->ix && !(len > 0 && name[0] == '#'))
    return wire__layout_find(l, name, len);
  for (uint32_t i = 0; i < l->nfields; i++) {
    const wire_lfield *f = &l->fields[i];
    if (f->name_len == len && f->name && wire__eq(f->name, name, len))
      return (int32_t)i;
    if (f->local != WIRE_NO_TYPE && l->type_index != WIRE_NO_TYPE) {
      const char *decl = ctx->reg->types[l->type_index].fields[f->local].name;
      if (strlen(decl) == len && wire__eq(decl, name, len)) return (int32_t)i;
    }
    if (f->tag >= 0 && len > 1 && name[0] == '#') {
      char *end;
      char buf[16];
      if (len < sizeof buf) {
        memcpy(buf, name + 1, len - 1);
        buf[len - 1] = 0;
        long v = strtol(buf, &end, 10);
        if (*end == 0 && v == f->tag) return (int32_t)i;
      }
    }
  }
  return -1;
}

int32_t wire_struct_set_field(wire_doc *d, wire_node *n, const char *name,
                              size_t len, wire_node *value) {
  if (!d || !is_struct(n) || !name || !value) return WIRE_E_ARG;
  if (!wire__st_open(n)) return open_failed(n);
  const wire_layout *l = wire__st_layout(n);
  int32_t i = wire__field_index(d->ctx, l, name, len);
  char sn[128];
  if (i < 0)
    return wire__fail(d->ctx, WIRE_E_ENCODE, 0, "struct %s has no field %.*s",
                      wire__layout_full_name(d->ctx, l, sn, sizeof sn),
                      (int)(len > 64 ? 64 : len), name);
  n->v.st->fields[i] = value;
  return WIRE_OK;
}

static int32_t set_field_slow(wire_doc *d, wire_node *n, size_t index,
                              wire_node *value) __attribute__((noinline));

int32_t wire_struct_set_field_at(wire_doc *d, wire_node *n, size_t index,
                                 wire_node *value) {
  if (WIRE_LIKELY(d && value && is_struct(n) && index < set_count(n))) {
    n->v.st->fields[index] = value;
    return WIRE_OK;
  }
  return set_field_slow(d, n, index, value);
}

static int32_t set_field_slow(wire_doc *d, wire_node *n, size_t index,
                              wire_node *value) {
  if (!d || !is_struct(n) || !value) return WIRE_E_ARG;
  if (!wire__st_open(n)) return open_failed(n);
  if (index >= wire__st_layout(n)->nfields)
    return wire__fail(d->ctx, WIRE_E_ARG, 0, "field index %zu of %u", index,
                      wire__st_layout(n)->nfields);
  /* A decoded struct may hold fewer values than its layout has fields
   * (n->small); the ones between are unset. */
  if (index >= n->small) {
    for (uint32_t i = n->small; i < index; i++) n->v.st->fields[i] = NULL;
    n->small = (uint32_t)index + 1;
  }
  n->v.st->fields[index] = value;
  return WIRE_OK;
}

/* ---- create and set ----
 * One call for a field's value: the node is made as its builder makes it
 * and stored as wire_struct_set_field_at stores it. */

static inline int32_t put_field(wire_doc *d, wire_node *n, size_t index,
                                wire_node *v) {
  if (WIRE_UNLIKELY(!v))
    return d->ctx->err_code ? d->ctx->err_code : WIRE_E_NOMEM;
  if (WIRE_LIKELY(index < set_count(n))) {
    n->v.st->fields[index] = v;
    return WIRE_OK;
  }
  return set_field_slow(d, n, index, v);
}

/* An enum value of the registered enum that field `index` declares. */
static wire_node *field_enum(wire_doc *d, const wire_node *n, size_t index,
                             uint64_t value) {
  const wire_layout *l = wire__st_layout(n);
  if (index >= l->nfields) {
    wire__fail(d->ctx, WIRE_E_ARG, 0, "field index %zu of %u", index,
               l->nfields);
    return NULL;
  }
  uint32_t ti = l->fields[index].type->user;
  wire_registry *r = d->ctx->reg;
  if (ti == WIRE_NO_TYPE || !r || ti >= r->ntypes ||
      r->types[ti].kind != WIRE_KIND_ENUM) {
    wire__fail(d->ctx, WIRE_E_SCHEMA, 0,
               "field %zu is not of a registered enum type", index);
    return NULL;
  }
  if (value > UINT32_MAX) return bad(d, "enum value wider than 32 bits");
  if (r->types[ti].by_name)
    return wire_node_new_enum_of(d, ti, (uint32_t)value);
  wire_node *v = wire__node_new(d, WIRE_T_ENUM);
  if (v) {
    v->v.en = r->types[ti].user_id;
    v->small = (uint32_t)value;
  }
  return v;
}

static wire_node *value_node(wire_doc *d, const wire_node *n, size_t index,
                             uint32_t t, uint64_t bits) {
  switch (t) {
  case WIRE_T_BOOL: return wire_node_new_bool(d, bits != 0);
  case WIRE_T_DATE: return wire_node_new_date(d, (int64_t)bits);
  case WIRE_T_ENUM: return field_enum(d, n, index, bits);
  default:
    if (wire__is_uint_type(t)) return wire_node_new_uint(d, t, bits);
    if (wire__is_float_type(t)) return wire_node_new_float_bits(d, t, bits);
    return bad(d, "not a scalar type (set_value takes integers, bool, "
                  "float bits, date and enum values)");
  }
}

__attribute__((noinline)) static int32_t set_value_slow(wire_doc *d, wire_node *n, size_t index,
                              uint32_t t, uint64_t bits) {
  if (!d || !is_struct(n)) return WIRE_E_ARG;
  if (!wire__st_open(n)) return open_failed(n);
  wire_node *v = wire__is_int_type(t) ? int_node(d, t, (int64_t)bits)
                                      : value_node(d, n, index, t, bits);
  return put_field(d, n, index, v);
}

int32_t wire_struct_set_value(wire_doc *d, wire_node *n, size_t index,
                              uint32_t t, uint64_t bits) {
  /* The common kinds without a call to the slow path: a field in range,
   * room for the node, and a value its kind takes as it is (32-bit
   * integers in range, 64-bit integers, float32 / float64 bits, bool, a
   * value of the enum registered by id the field declares). Everything
   * else, and every error, through set_value_slow. */
  if (WIRE_LIKELY(d && is_struct(n) && index < set_count(n) &&
                  (size_t)(d->nodes.end - d->nodes.p) >= sizeof(wire_node))) {
    bool fast = false;
    if (t == WIRE_T_VARINT32 || t == WIRE_T_INT32) /* the commonest */
      fast = (int64_t)bits == (int32_t)bits;
    else switch (t) {
    case WIRE_T_VARINT64: case WIRE_T_INT64: case WIRE_T_FLOAT64:
      fast = true;
      break;
    case WIRE_T_FLOAT32: fast = bits <= UINT32_MAX; break;
    case WIRE_T_BOOL:
      bits = bits != 0;
      fast = true;
      break;
    case WIRE_T_ENUM: { /* a value of the enum registered by id the
                           field declares (wire_layout.enum_ids) */
      const uint32_t *ids = wire__st_layout(n)->enum_ids;
      if (!ids || ids[index] == WIRE_NO_TYPE || bits > UINT32_MAX) break;
      wire_node *v = wire__node_put(d, WIRE_T_ENUM, (uint32_t)bits, 0);
      v->v.en = ids[index];
      n->v.st->fields[index] = v;
      return WIRE_OK;
    }
    default: break;
    }
    if (WIRE_LIKELY(fast)) {
      n->v.st->fields[index] = wire__node_put(d, (uint8_t)t, 0, bits);
      return WIRE_OK;
    }
  }
  return set_value_slow(d, n, index, t, bits);
}

/* The node of bytes just copied to the arena's next sz bytes (which, and
 * a node, have room), set as field `index`. */
static inline wire_node *bytes_field(wire_doc *d, wire_node *n, size_t index,
                                     uint8_t type, size_t len, size_t sz) {
  wire_node *v = wire__node_put(d, type, (uint32_t)len, 0);
  v->v.p = d->arena.p;
  d->arena.p += sz;
  n->v.st->fields[index] = v;
  return v;
}
/* The same for text in wire encoding enc. */
static inline void text_field(wire_doc *d, wire_node *n, size_t index,
                              size_t len, size_t sz, int32_t enc) {
  wire_node *v = bytes_field(d, n, index, WIRE_T_STRING, len, sz);
  v->a = (uint8_t)enc;
  v->flags = WIRE_NF_HDR_SET;
}

__attribute__((noinline)) static int32_t set_string_slow(
    wire_doc *d, wire_node *n, size_t index, const uint8_t *utf8, size_t len,
    int32_t encoding) {
  if (!d || !is_struct(n)) return WIRE_E_ARG;
  if (!wire__st_open(n)) return open_failed(n);
  return put_field(d, n, index, string_node(d, utf8, len, encoding));
}

/* set_string's text that is not all ASCII, copied to the arena's next
 * bytes (with room for them, rounded up to 8, and a node): kept when it is valid UTF-8
 * given as UTF-8; anything else through set_string_slow. */
__attribute__((noinline)) static int32_t set_string_copied(
    wire_doc *d, wire_node *n, size_t index, const uint8_t *utf8, size_t len,
    int32_t encoding) {
  if (encoding != WIRE_STR_UTF8 ||
      wire__utf8_scan(d->arena.p, len) != len)
    return set_string_slow(d, n, index, utf8, len, encoding);
  text_field(d, n, index, len, (len + 7 + !len) & ~(size_t)7, encoding);
  return WIRE_OK;
}

int32_t wire_struct_set_string(wire_doc *d, wire_node *n, size_t index,
                               const uint8_t *utf8, size_t len,
                               int32_t encoding) {
  /* The common case without a call: text of a field in range, with room
   * for the copy and the node, all ASCII (the copy checks). */
  if (WIRE_LIKELY(d && is_struct(n) && index < set_count(n) && utf8 &&
                  len <= 4096 &&
                  (encoding == WIRE_STR_UTF8 ||
                   encoding == WIRE_STR_LATIN1))) {
    wire_arena *a = &d->arena;
    size_t sz = (len + 7 + !len) & ~(size_t)7;
    if (WIRE_LIKELY((size_t)(a->end - a->p) >= sz &&
                    (size_t)(d->nodes.end - d->nodes.p) >=
                        sizeof(wire_node))) {
      if (WIRE_UNLIKELY(!wire__copy_ascii(a->p, utf8, len)))
        return set_string_copied(d, n, index, utf8, len, encoding);
      text_field(d, n, index, len, sz, encoding);
      return WIRE_OK;
    }
  }
  return set_string_slow(d, n, index, utf8, len, encoding);
}

__attribute__((noinline)) static int32_t set_bytes_slow(
    wire_doc *d, wire_node *n, size_t index, uint32_t t, const uint8_t *bytes,
    size_t len) {
  if (!d || !is_struct(n)) return WIRE_E_ARG;
  if (!wire__st_open(n)) return open_failed(n);
  return put_field(d, n, index, wire_node_new_array(d, t, bytes, len));
}

int32_t wire_struct_set_bytes(wire_doc *d, wire_node *n, size_t index,
                              uint32_t t, const uint8_t *bytes, size_t len) {
  /* The common case without a call: binary or a dense array other than
   * bool (whose bytes are checked), whole elements, room for the copy and
   * the node. */
  uint32_t w = t == WIRE_T_BINARY || t == WIRE_T_INT8_ARRAY ||
                       t == WIRE_T_UINT8_ARRAY
                   ? 1
               : t == WIRE_T_INT32_ARRAY || t == WIRE_T_FLOAT32_ARRAY ||
                       t == WIRE_T_UINT32_ARRAY
                   ? 4
               : t == WIRE_T_INT64_ARRAY || t == WIRE_T_FLOAT64_ARRAY ||
                       t == WIRE_T_UINT64_ARRAY
                   ? 8
                   : wire_type_array_width(t);
  if (WIRE_LIKELY(d && is_struct(n) && index < set_count(n) && bytes && w &&
                  t != WIRE_T_BOOL_ARRAY && !(len & (w - 1)) &&
                  len <= 4096)) {
    wire_arena *a = &d->arena;
    size_t sz = (len + 7 + !len) & ~(size_t)7;
    if (WIRE_LIKELY((size_t)(a->end - a->p) >= sz &&
                    (size_t)(d->nodes.end - d->nodes.p) >= sizeof(wire_node))) {
      memcpy(a->p, bytes, len);
      bytes_field(d, n, index, (uint8_t)t, len, sz);
      return WIRE_OK;
    }
  }
  return set_bytes_slow(d, n, index, t, bytes, len);
}

int32_t wire_struct_field_index(const wire_doc *d, const wire_node *n,
                                const char *name, size_t len,
                                uint32_t *out_index) {
  if (!d || !is_struct(n) || (!name && len) || !out_index) return WIRE_E_ARG;
  int32_t i = wire__field_index(d->ctx, wire__st_layout(n), name ? name : "", len);
  if (i < 0)
    return wire__fail(d->ctx, WIRE_E_SCHEMA, 0, "no field %.*s",
                      (int)(len > 64 ? 64 : len), name ? name : "");
  *out_index = (uint32_t)i;
  return WIRE_OK;
}

wire_node *wire_node_new_enum_of(wire_doc *d, uint32_t type, uint32_t value) {
  if (!d) return NULL;
  wire_utype *t = reg_type(d, type, WIRE_KIND_ENUM);
  if (!t) return NULL;
  if (!t->by_name) return wire_node_new_enum(d, t->user_id, value);
  return wire_node_new_named_enum(d, (const uint8_t *)t->ns, strlen(t->ns),
                                  (const uint8_t *)t->name, strlen(t->name),
                                  value);
}

wire_node *wire_node_new_union(wire_doc *d, uint32_t type, uint32_t case_id,
                               wire_node *value) {
  if (!d || !value) return NULL;
  wire_node *n;
  wire_ubody *u = wire__arena_alloc(&d->arena, sizeof *u);
  if (!u) {
    nomem(d);
    return NULL;
  }
  memset(u, 0, sizeof *u);
  if (type == WIRE_BY_NAME) {
    n = wire__node_new(d, WIRE_T_UNION);
    if (!n) return NULL;
    n->v.un = u;
    u->user_id = UINT32_MAX;
    u->reg = WIRE_NO_TYPE;
  } else {
    wire_utype *t = reg_type(d, type, WIRE_KIND_UNION);
    if (!t) return NULL;
    n = wire__node_new(d, t->by_name ? WIRE_T_NAMED_UNION : WIRE_T_TYPED_UNION);
    if (!n) return NULL;
    n->v.un = u;
    u->user_id = t->by_name ? UINT32_MAX : t->user_id;
    u->reg = type;
    if (t->by_name) {
      wire_names *nm = wire__arena_alloc(&d->arena, sizeof *nm);
      if (!nm) {
        nomem(d);
        return NULL;
      }
      memset(nm, 0, sizeof *nm);
      nm->ns = (const uint8_t *)t->ns;
      nm->ns_len = (uint32_t)strlen(t->ns);
      nm->name = (const uint8_t *)t->name;
      nm->name_len = (uint32_t)strlen(t->name);
      n->v.un->names = nm;
    }
  }
  n->small = case_id;
  n->v.un->value = value;
  return n;
}

wire_node *wire_node_field(const wire_node *n, size_t i) {
  return open_struct(n) && i < n->small ? n->v.st->fields[i] : NULL;
}

const char *wire_node_field_name(const wire_node *n, size_t i,
                                 size_t *out_len) {
  if (out_len) *out_len = 0;
  if (!is_struct(n) || i >= wire__st_layout(n)->nfields) return NULL;
  const wire_lfield *f = &wire__st_layout(n)->fields[i];
  if (out_len) *out_len = f->name_len;
  return (const char *)f->name;
}

int32_t wire_node_field_tag(const wire_node *n, size_t i) {
  if (!is_struct(n) || i >= wire__st_layout(n)->nfields) return -1;
  return wire__st_layout(n)->fields[i].tag;
}

/* The registered type of a given kind with this id or these names. */
static uint32_t lookup(const wire_doc *d, uint8_t kind, uint32_t id,
                       const wire_names *nm) {
  return d ? wire__reg_lookup_names(d->ctx, kind, id, nm) : WIRE_NO_TYPE;
}

int32_t wire_node_user_type(const wire_doc *d, const wire_node *n,
                            uint32_t *out_type) {
  if (!n || !out_type) return WIRE_E_ARG;
  uint32_t ti = WIRE_NO_TYPE;
  if (is_struct(n)) ti = wire__st_layout(n)->type_index;
  else if (n->type == WIRE_T_ENUM) ti = lookup(d, WIRE_KIND_ENUM, n->v.en, NULL);
  else if (n->type == WIRE_T_NAMED_ENUM) ti = lookup(d, WIRE_KIND_ENUM, 0, n->v.names);
  else if (n->type == WIRE_T_UNION) ti = n->v.un->reg;
  else if (n->type == WIRE_T_TYPED_UNION) ti = lookup(d, WIRE_KIND_UNION, n->v.un->user_id, NULL);
  else if (n->type == WIRE_T_NAMED_UNION && n->v.un->names)
    ti = lookup(d, WIRE_KIND_UNION, 0, n->v.un->names);
  if (ti == WIRE_NO_TYPE) return WIRE_E_SCHEMA;
  *out_type = ti;
  return WIRE_OK;
}

/* Namespace and name of a user-typed node (struct, named enum or union),
 * or of a struct read from a TypeDef. */
int32_t wire_node_type_names(const wire_node *n, const uint8_t **ns,
                             size_t *ns_len, const uint8_t **name,
                             size_t *name_len) {
  if (!n || !ns || !ns_len || !name || !name_len) return WIRE_E_ARG;
  *ns = *name = NULL;
  *ns_len = *name_len = 0;
  const wire_names *nm = NULL;
  if (is_struct(n)) {
    const wire_layout *l = wire__st_layout(n);
    if (!l->by_name) return WIRE_E_ARG;
    *ns = l->ns;
    *ns_len = l->ns_len;
    *name = l->name;
    *name_len = l->name_len;
    return WIRE_OK;
  }
  if (n->type == WIRE_T_NAMED_ENUM) nm = n->v.names;
  else if (is_union(n)) nm = n->v.un->names;
  if (!nm) return WIRE_E_ARG;
  *ns = nm->ns;
  *ns_len = nm->ns_len;
  *name = nm->name;
  *name_len = nm->name_len;
  return WIRE_OK;
}

/* User type id of a struct, enum or typed union; UINT32_MAX if by name. */
uint32_t wire_node_user_type_id(const wire_node *n) {
  if (!n) return UINT32_MAX;
  if (is_struct(n)) return wire__st_layout(n)->by_name ? UINT32_MAX
                                                   : wire__st_layout(n)->user_id;
  if (n->type == WIRE_T_ENUM) return n->v.en;
  if (is_union(n)) return n->v.un->user_id;
  return UINT32_MAX;
}

uint32_t wire_node_union_case(const wire_node *n) {
  return is_union(n) ? n->small : 0;
}
wire_node *wire_node_union_value(const wire_node *n) {
  return is_union(n) ? n->v.un->value : NULL;
}

const uint8_t *wire_node_typedef(const wire_node *n, size_t *out_len) {
  if (out_len) *out_len = 0;
  if (!is_struct(n)) return NULL;
  const wire_layout *l = wire__st_layout(n);
  if (!l->td || l->matches_schema) return NULL;
  if (out_len) *out_len = l->td_len;
  return l->td;
}

const uint8_t *wire__node_typedef_raw(const wire_node *n, size_t *out_len,
                                      bool *matches_schema) {
  *out_len = 0;
  *matches_schema = false;
  if (!is_struct(n) || !wire__st_layout(n)->td) return NULL;
  *out_len = wire__st_layout(n)->td_len;
  *matches_schema = wire__st_layout(n)->matches_schema;
  return wire__st_layout(n)->td;
}

static wire_node *struct_of_layout(wire_doc *d, wire_layout *l) {
  return struct_node(d, wire__layout_struct_kind(l), l);
}

/* Links a struct layout read from a TypeDef to the schema's type when
 * there is one. */
void wire__struct_typedef_link(wire_ctx *ctx, wire_layout *l) {
  wire_registry *r = ctx->reg;
  for (uint32_t i = 0; r && i < r->ntypes; i++) {
    wire_utype *t = &r->types[i];
    if (t->kind != WIRE_KIND_STRUCT || t->by_name != l->by_name) continue;
    if (l->by_name ? (strlen(t->ns) == l->ns_len &&
                      strlen(t->name) == l->name_len &&
                      wire__eq(t->ns, l->ns, l->ns_len) &&
                      wire__eq(t->name, l->name, l->name_len))
                   : t->user_id == l->user_id) {
      l->type_index = i;
      wire__layout_link(ctx, l);
      break;
    }
  }
}

wire_node *wire_node_new_struct_typedef(wire_doc *d, const uint8_t *td,
                                        size_t len) {
  if (!d || !td) return NULL;
  uint8_t *copy = wire__doc_dup(d, td, len);
  if (!copy) return NULL;
  wire_in in = {d->ctx, copy, copy, copy + len};
  wire_layout *l;
  if (wire__typedef_read(d->ctx, &in, &d->arena, d->ctx->max_depth, &l) !=
      WIRE_OK)
    return NULL;
  if (in.p != in.end || l->kind != WIRE_KIND_STRUCT) {
    wire__fail(d->ctx, WIRE_E_TYPEDEF, 0, "not one struct TypeDef");
    return NULL;
  }
  wire__struct_typedef_link(d->ctx, l);
  return struct_of_layout(d, l);
}

wire_node *wire_node_new_struct_like(wire_doc *d, const wire_node *other) {
  if (!d || !is_struct(other)) return NULL;
  wire_node *n = struct_of_layout(d, wire__st_layout(other));
  if (n) n->type = other->type;
  return n;
}
