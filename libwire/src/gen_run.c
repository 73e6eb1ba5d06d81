/* gen_run.c - what the code `wire gen c` writes calls at run time
 * (wire_gen_begin, wire_gen_grow, wire_gen_map in wire.h): the context's
 * options, limits and output buffer (the one wire_mem_encode writes into),
 * once per message; and for a writer's TypeDef other than the registered
 * one, its field map, computed once per TypeDef from the interpreter's
 * cached mapping (mem_dec_typedef.c) and kept with it. */
#include "mem_dec.h"
#include "policy.h"

static inline void gen_state_of(const wire_ctx *ctx, const wire_mem *m, wire_gen_state *s) {
  s->mode = ctx->gen_mode;
  s->max_depth = ctx->max_depth;
  s->max_collection = ctx->max_collection;
  s->max_binary = ctx->max_binary;
  s->buf = m->e.b.p;
  s->cap = m->e.b.cap;
}

/* wire_gen_begin's first call on a context, or after an error: the
 * codec state made, the error cleared (apart, so that the usual call
 * saves no registers) */
__attribute__((noinline)) static int32_t gen_begin_slow(wire_ctx *ctx, wire_gen_state *s) {
  if (!ctx || !s) return WIRE_E_ARG;
  if (ctx->err_code) wire_ctx_clear_error(ctx);
  wire_mem *m = ctx->mem;
  if (!m && !(m = wire__mem_state(ctx))) return WIRE_E_NOMEM;
  gen_state_of(ctx, m, s);
  return WIRE_OK;
}

int32_t wire_gen_begin(wire_ctx *ctx, wire_gen_state *s) {
  wire_mem *m;
  if (WIRE_UNLIKELY(!ctx || !s || ctx->err_code || !(m = ctx->mem)))
    return gen_begin_slow(ctx, s);
  gen_state_of(ctx, m, s);
  return WIRE_OK;
}

int32_t wire_gen_grow(wire_ctx *ctx, size_t used, size_t need, uint8_t **buf,
                      size_t *cap) {
  if (!ctx || !buf || !cap) return WIRE_E_ARG;
  wire_mem *m = ctx->mem ? ctx->mem : wire__mem_state(ctx);
  if (!m) return WIRE_E_NOMEM;
  wire_buf *b = &m->e.b;
  if (used > b->cap) return wire__fail(ctx, WIRE_E_ARG, 0, "used beyond the buffer");
  b->len = used;
  b->status = WIRE_OK;
  if (wire__buf_grow(b, need) != WIRE_OK)
    return wire__fail(ctx, WIRE_E_NOMEM, used, "out of memory");
  *buf = b->p;
  *cap = b->cap;
  return WIRE_OK;
}

/* ---- writers' TypeDefs -------------------------------------------------- */

/* Whether two declared types read the same bytes into the same memory:
 * the same type, framing and element types (user types resolved to the
 * same registered type). */
static bool same_type(const wire_ftype *a, const wire_ftype *b) {
  if (!a || !b) return a == b;
  /* (a user type by its registered index: a TypeDef names a struct field's
   * kind as the writer wrote it, the registry as declared) */
  return (a->user != WIRE_NO_TYPE ? a->user == b->user
                                  : a->type_id == b->type_id && b->user == WIRE_NO_TYPE) &&
         a->nullable == b->nullable && a->ref == b->ref &&
         /* (a dense array's element is its type id; the registry may spell
          * it out, a TypeDef does not) */
         (wire_type_array_width(a->type_id) || same_type(a->elem, b->elem)) &&
         same_type(a->key, b->key) &&
         same_type(a->value, b->value);
}

static bool plain_int(const wire_ftype *f) {
  return f->user == WIRE_NO_TYPE && !f->nullable && !f->ref &&
         is_int_wt(f->type_id);
}

/* Whether the generated skipper reads a value of type f (no type meta). */
static bool skippable(const wire_ctx *ctx, const wire_ftype *f) {
  if (f->user != WIRE_NO_TYPE || !wire__pol_static_type(ctx, f)) return false;
  uint8_t t = f->type_id;
  return (t >= WIRE_T_BOOL && t <= WIRE_T_TAGGED_UINT64) ||
         t == WIRE_T_FLOAT16 || t == WIRE_T_BFLOAT16 || t == WIRE_T_FLOAT32 ||
         t == WIRE_T_FLOAT64 || t == WIRE_T_STRING || t == WIRE_T_BINARY ||
         t == WIRE_T_DATE || t == WIRE_T_TIMESTAMP || t == WIRE_T_DURATION ||
         wire_type_array_width(t) != 0;
}

/* The generated code's map of writer TypeDef `wl` (plan p) onto layout
 * li's registered type: one WIRE_GEN_MAP_* entry per writer field. */
static int32_t build_map(wire_ctx *ctx, uint32_t li, const wire_layout *wl,
                         const wire_mplan *p, wire_mmap *c) {
  wire_mem *m = ctx->mem;
  const wire_utype *t = &ctx->reg->types[m->layouts[li].type];
  uint32_t *map = wire__arena_alloc(&m->arena, (p->nops + 1) * sizeof *map);
  if (!map) return nomem(ctx);
  for (uint32_t i = 0; i < p->nops; i++) {
    const wire_mop *o = &p->ops[i];
    const wire_ftype *wf = wl->fields[i].type;
    uint32_t act = WIRE_GEN_MAP_OTHER, k = o->local;
    if (o->code == MOP_SKIP || o->code == MOP_NONE) {
      k = 0;
      if (skippable(ctx, wf))
        act = wf->nullable || wf->ref ? WIRE_GEN_MAP_SKIP_FLAG : WIRE_GEN_MAP_SKIP;
    } else if (k < t->nfields && k <= 0xFFFF) {
      const wire_ftype *rf = t->fields[k].type;
      if (same_type(wf, rf))
        act = WIRE_GEN_MAP_READ;
      else if (o->code == MOP_INT && plain_int(wf) && plain_int(rf) &&
               !(o->fl & (MF_FLAG | MF_META | MF_REF)))
        act = WIRE_GEN_MAP_INT;
    } else {
      k = 0;
    }
    /* a field read as declared is its number alone (the generated code
     * switches on the entry) */
    map[i] = act == WIRE_GEN_MAP_READ ? k : act << 24 | (uint32_t)wf->type_id << 16 | k;
  }
  c->gen = map;
  c->ngen = p->nops;
  return WIRE_OK;
}

int32_t wire_gen_map(wire_ctx *ctx, uint32_t layout, const uint8_t *data,
                     size_t len, size_t *td_len, const uint32_t **map,
                     uint32_t *nmap) {
  if (!ctx || !data || !td_len || !map || !nmap) return WIRE_E_ARG;
  wire_mem *m = ctx->mem;
  if (!m || layout >= m->n) return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire__mem_mode(ctx, m);
  if (WIRE_UNLIKELY(!m->layouts[layout].bound)) {
    int32_t st = wire_mem_bind(ctx, layout);
    if (st) return st;
  }
  /* the TypeDef's extent: its 8-byte header, the size's varint, the body */
  if (len < 8) return wire__fail(ctx, WIRE_E_TRUNCATED, 0, "TypeDef truncated");
  size_t n = 8, size = data[0];
  if (size == 0xFF) {
    uint32_t extra = 0;
    int sh = 0;
    for (;; sh += 7) {
      if (n >= len || sh > 28)
        return wire__fail(ctx, WIRE_E_TYPEDEF, 0, "TypeDef size unreadable");
      uint8_t b = data[n++];
      extra |= (uint32_t)(b & 0x7F) << sh;
      if (b < 0x80) break;
    }
    size += extra;
  }
  if (size > ctx->max_typedef_bytes || size > len - n)
    return wire__fail(ctx, WIRE_E_TYPEDEF, 0, "TypeDef truncated or too large");
  n += size;
  wire_mlayout *l = &m->layouts[layout];
  wire_mmap *c = l->maps;
  while (c && !(c->td_len == n && memcmp(c->td, data, n) == 0)) c = c->next;
  if (!c) {
    /* first sight: the interpreter's mapping, cached with the layout */
    mdec x;
    memset(&x, 0, sizeof x);
    x.ctx = ctx;
    x.m = m;
    wire__dec_init(&x.d, ctx, data, n, NULL, &m->arena);
    const wire_layout *wl;
    const wire_mplan *p = wire__mdec_plan_for_td(&x, layout, data, n, data, &wl);
    wire__dec_fini(&x.d);
    if (!p) return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
    l = &m->layouts[layout];
    if (p == &l->plan)
      return wire__fail(ctx, WIRE_E_UNSUPPORTED, 0, "the registered TypeDef");
    for (c = l->maps; c && &c->plan != p; c = c->next) {}
    if (!c) return wire__fail(ctx, WIRE_E_STATE, 0, "TypeDef mapping not cached");
  }
  if (!c->gen) {
    const wire_layout *wl = (const wire_layout *)(const void *)c->plan.missing[-1];
    int32_t st = build_map(ctx, layout, wl, &c->plan, c);
    if (st) return st;
  }
  *td_len = n;
  *map = c->gen;
  *nmap = c->ngen;
  return WIRE_OK;
}
