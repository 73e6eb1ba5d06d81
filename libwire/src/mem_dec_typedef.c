/* mem_dec_typedef.c - the compiled decoder and the writers' TypeDefs: a
 * TypeDef that is not the registered one (another writer's version of the
 * type) is parsed once, linked to the registered type and
 * compiled into a plan for the layout's memory (fields the reader lacks
 * are skipped, fields the writer lacks are zeroed); plans are cached per
 * layout, at most 64 per type. wire_mem_decode (mem_dec.c) reads the type
 * meta and asks here for the plan. */
#include "mem_dec.h"

static const wire_mspec *spec_for(const wire_mlayout *l, uint32_t local) {
  return local == NOTYPE ? NULL : wire__mem_spec_of(l, local);
}

/* Compiles the mapping from a writer's TypeDef layout `wl` (linked to the
 * registered type) into memory layout li. */
static int32_t compile_map(wire_ctx *ctx, uint32_t li, const wire_layout *wl,
                           wire_mplan *out) {
  wire_mem *m = ctx->mem;
  const wire_layout *rl = ctx->reg->types[m->layouts[li].type].layout;
  wire_mop *ops = wire__arena_alloc(&m->arena, (wl->nfields + 1) * sizeof *ops);
  const wire_mspec **miss = wire__arena_alloc(
      &m->arena, (m->layouts[li].nspecs + 1) * sizeof *miss);
  if (!ops || !miss) return nomem(ctx);
  for (uint32_t i = 0; i < wl->nfields; i++) {
    const wire_lfield *f = &wl->fields[i];
    const wire_mspec *s = spec_for(&m->layouts[li], f->local);
    const wire_ftype *rf = NULL;
    for (uint32_t k = 0; k < rl->nfields && f->local != NOTYPE; k++)
      if (rl->fields[k].local == f->local) rf = rl->fields[k].type;
    wire_mop *o = &ops[i];
    int32_t st = WIRE_E_SCHEMA;
    if (s && rf) st = wire__mem_compile_value(ctx, li, f->type, rf, s, o, false);
    if (st == WIRE_E_SCHEMA) {
      wire_ctx_clear_error(ctx);
      memset(o, 0, sizeof *o);
      o->code = MOP_SKIP;
      o->ft = f->type;
      o->wt = f->type->type_id;
      o->lf = f;
      o->local = NOTYPE;
      continue;
    }
    if (st) return st;
    o->local = f->local;
    wire__mem_frame(ctx, f->type, o);
  }
  uint32_t nm = 0;
  const wire_mlayout *ml = &m->layouts[li];
  for (uint32_t k = 0; k < ml->nspecs; k++) {
    bool sent = false;
    for (uint32_t i = 0; i < wl->nfields && !sent; i++)
      sent = ops[i].code != MOP_SKIP && ops[i].local == ml->specs[k].field;
    if (!sent) miss[nm++] = &ml->specs[k];
  }
  wire__mem_fast_paths(ops, wl->nfields);
  out->ops = ops;
  out->nops = wl->nfields;
  out->missing = miss;
  out->nmissing = nm;
  return WIRE_OK;
}

#define MAX_MAPS 64

/* The plan for TypeDef bytes td[0..len) of layout li's type: the layout's
 * own when the bytes are the registered TypeDef, else a cached mapping. */
const wire_mplan *wire__mdec_plan_for_td(mdec *x, uint32_t li,
                                         const uint8_t *td, size_t len,
                                         const uint8_t *at,
                                         const wire_layout **out_wl) {
  wire_mem *m = x->m;
  wire_mlayout *l = &m->layouts[li];
  *out_wl = NULL;
  if (len == l->td_len && memcmp(td, l->td, len) == 0) {
    *out_wl = x->ctx->reg->types[l->type].layout;
    return &l->plan;
  }
  for (wire_mmap *c = l->maps; c; c = c->next)
    if (c->td_len == len && memcmp(c->td, td, len) == 0) {
      *out_wl = (const wire_layout *)c->plan.missing[-1];
      return &c->plan;
    }
  if (l->nmaps >= MAX_MAPS) {
    dfail(x, WIRE_E_LIMIT, at, "more than 64 distinct writer TypeDefs of one "
                               "type");
    return NULL;
  }
  /* parse it into the context's arena (kept with the mapping) */
  wire_in in = {x->ctx, td, td, td + len};
  wire_layout *wl;
  if (wire__typedef_read(x->ctx, &in, &m->arena, x->ctx->max_depth, &wl) !=
      WIRE_OK) {
    x->ctx->err_offset += (uint64_t)(at - IN(x)->base);
    return NULL;
  }
  wire_utype *t = &x->ctx->reg->types[l->type];
  bool same = wl->kind == WIRE_KIND_STRUCT && wl->by_name == t->by_name &&
              (t->by_name ? wl->ns_len == strlen(t->ns) &&
                                wl->name_len == strlen(t->name) &&
                                wire__eq(wl->ns, t->ns, wl->ns_len) &&
                                wire__eq(wl->name, t->name, wl->name_len)
                          : wl->user_id == t->user_id);
  if (!same) {
    dfail(x, WIRE_E_SCHEMA, at, "TypeDef of another type where a struct of "
                                "the layout's type is expected");
    return NULL;
  }
  wl->type_index = l->type;
  wire__layout_link(x->ctx, wl);
  wire_mmap *c = wire__arena_alloc(&m->arena, sizeof *c);
  uint8_t *copy = wire__arena_alloc(&m->arena, len);
  if (!c || !copy) {
    nomem(x->ctx);
    return NULL;
  }
  memcpy(copy, td, len);
  wl->td = copy;
  if (compile_map(x->ctx, li, wl, &c->plan) != WIRE_OK) return NULL;
  /* keep the writer's layout just before the missing list */
  const wire_mspec **mm = wire__arena_alloc(
      &m->arena, (c->plan.nmissing + 2) * sizeof *mm);
  if (!mm) {
    nomem(x->ctx);
    return NULL;
  }
  mm[0] = (const wire_mspec *)(const void *)wl;
  memcpy(mm + 1, c->plan.missing, c->plan.nmissing * sizeof *mm);
  c->plan.missing = mm + 1;
  c->td = copy;
  c->td_len = (uint32_t)len;
  c->gen = NULL; /* built on first use by generated code (gen_run.c) */
  c->ngen = 0;
  l = &m->layouts[li];
  c->next = l->maps;
  l->maps = c;
  l->nmaps++;
  *out_wl = wl;
  return &c->plan;
}

bool wire__mdec_push_td(mdec *x, const wire_layout *wl, const wire_mplan *p,
                        const uint8_t *at) {
  wire_dec *d = &x->d;
  wire_mem *m = x->m;
  if (d->ntds == d->tds_cap) {
    size_t cap = d->tds_cap ? d->tds_cap * 2 : 8;
    wire_layout **t = wire__realloc(x->ctx, d->tds, d->tds_cap * sizeof *t,
                                    cap * sizeof *t);
    if (!t) return dfail(x, WIRE_E_NOMEM, at, "out of memory");
    d->tds = t;
    d->tds_cap = cap;
  }
  if (!grow(x->ctx, (void **)&m->dtd, &m->dtd_cap, (uint32_t)d->ntds + 1,
            sizeof *m->dtd))
    return dfail(x, WIRE_E_NOMEM, at, "out of memory");
  m->dtd[d->ntds] = p;
  d->tds[d->ntds++] = (wire_layout *)wl;
  m->ndtd = (uint32_t)d->ntds;
  return true;
}
