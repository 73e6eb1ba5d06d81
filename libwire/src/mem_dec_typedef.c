/* mem_dec_typedef.c - the compiled decoder and the writers' TypeDefs: a
 * TypeDef that is not the registered one (another writer's version of the
 * type) is parsed once, linked to the registered type and
 * compiled into a plan for the layout's memory (fields the reader lacks
 * are skipped, fields the writer lacks are zeroed); plans are cached per
 * layout, at most 64 per type. The type meta in front of each struct
 * value is read here too (wire__mdec_meta: the registered TypeDef, a
 * reference to one announced, or a new one mapped), and the fields a
 * writer did not send are zeroed here. */
#include "mem_dec.h"

#include <stdio.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__)
/* as mem_dec.c: the type meta of every struct value is read here */
#pragma GCC optimize("O3")
#endif

/* Refuses the type meta of a value where a struct of layout l's type is
 * declared: "a varint64 where struct demo.A is declared"; the field
 * holding it names it (wire__mdec_field_fail). */
COLD static void meta_refused(mdec *x, const wire_mlayout *l,
                              const uint8_t *at, const char *what) {
  wire__dec_fail(&x->d, WIRE_E_SCHEMA, at, "%s where struct %s is declared",
                 what, x->ctx->reg->types[l->type].full_name);
  x->meta_unnamed = true;
}

/* The same for a writer's TypeDef of another type (wl), a type meta of
 * another kind (t) or a struct of another user type id: the words built
 * here, out of the callers' frames (they run for every struct value). */
COLD static void td_refused(mdec *x, const wire_mlayout *l,
                            const uint8_t *at, const wire_layout *wl) {
  char what[160], name[144];
  if (wl->kind != WIRE_KIND_STRUCT)
    snprintf(what, sizeof what, "a TypeDef of another kind");
  else if (wl->by_name)
    snprintf(what, sizeof what, "a struct %s",
             wire__layout_full_name(x->ctx, wl, name, sizeof name));
  else
    snprintf(what, sizeof what, "a struct of type id %u", wl->user_id);
  meta_refused(x, l, at, what);
}

COLD static void kind_refused(mdec *x, const wire_mlayout *l,
                              const uint8_t *at, uint32_t t) {
  char what[64];
  const char *tn = wire_type_name(t);
  if (!tn) tn = "unknown type";
  snprintf(what, sizeof what, "a%s %s", strchr("aeiou", tn[0]) ? "n" : "",
           tn);
  meta_refused(x, l, at, what);
}

COLD static void id_refused(mdec *x, const wire_mlayout *l,
                            const uint8_t *at, uint32_t id) {
  char what[48];
  snprintf(what, sizeof what, "a struct of type id %u", id);
  meta_refused(x, l, at, what);
}

static bool holds_op(const wire_mplan *p, const wire_mop *o) {
  return p->ops && o >= p->ops && o < p->ops + p->nops;
}

/* The layout whose plan (registered or a writer's) holds op o: looked up
 * here, on the failure path only, so that the struct loop keeps no
 * layout pointer live for it (a register held across the loop cost
 * 17-66 Ir a decode in bench-structs / bench-orders). */
static const wire_mlayout *owner_of(const wire_mem *m, const wire_mop *o) {
  for (uint32_t i = 0; i < m->n; i++) {
    const wire_mlayout *l = &m->layouts[i];
    if (holds_op(&l->plan, o)) return l;
    for (const wire_mmap *mp = l->maps; mp; mp = mp->next)
      if (holds_op(&mp->plan, o)) return l;
  }
  return NULL;
}

bool wire__mdec_field_fail(mdec *x, const wire_mop *o) {
  if (!x->meta_unnamed) return false;
  x->meta_unnamed = false;
  wire_ctx *ctx = x->ctx;
  const wire_mlayout *l = owner_of(x->m, o);
  if (!l) return false;
  if (l->type >= ctx->reg->ntypes || o->local == NOTYPE) return false;
  const wire_utype *t = &ctx->reg->types[l->type];
  const wire_lfield *f = NULL;
  for (uint32_t i = 0; t->layout && i < t->layout->nfields && !f; i++)
    if (t->layout->fields[i].local == o->local) f = &t->layout->fields[i];
  if (!f) return false;
  char was[sizeof ctx->err_msg];
  memcpy(was, ctx->err_msg, sizeof was);
  if (snprintf(ctx->err_msg, sizeof ctx->err_msg, "field %s.%.*s: %s",
               t->full_name, (int)f->name_len, (const char *)f->name, was) < 0)
    memcpy(ctx->err_msg, was, sizeof was);
  return false;
}

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
  wire__mem_plan_end(ops, wl->nfields);
  ops[wl->nfields].aux = nm; /* (the decoder's struct loop reads it there) */
  out->ops = ops;
  out->nops = wl->nfields;
  out->missing = miss;
  out->nmissing = nm;
  out->flat = false; /* (the flat path reads the registered TypeDef only) */
  out->hashed = wire__mem_hashed(ctx, ml);
  return WIRE_OK;
}

#define MAX_MAPS 64

/* A shared TypeDef wl after type id t whose kind or registration (by
 * name or by id) is not the id's (R-UTYPE-5; NAMED_* ids carry names, the
 * others ids): refused, class typedef, at the marker ms, as the tape
 * decoder (decode_meta.c: read_shared_typedef) does. Only where a TypeDef
 * is read, mapped or referred to under an id other than the layout's. */
COLD static bool td_kind_refused(mdec *x, uint8_t t, bool kind_struct,
                                 bool by_name, const uint8_t *ms) {
  const char *tn = wire_type_name(t);
  if (!kind_struct)
    return wire__dec_fail(&x->d, WIRE_E_TYPEDEF, ms, "TypeDef of another kind than a "
                                        "struct for a %s value", tn);
  return wire__dec_fail(&x->d, WIRE_E_TYPEDEF, ms, "TypeDef registered by %s for a %s "
                                      "value", by_name ? "name" : "id", tn);
}
static bool td_kind_ok(mdec *x, uint8_t t, const wire_layout *wl,
                       const uint8_t *ms) {
  bool named = t != WIRE_T_COMPATIBLE_STRUCT;
  if (wl->kind == WIRE_KIND_STRUCT && wl->by_name == named) return true;
  return td_kind_refused(x, t, wl->kind == WIRE_KIND_STRUCT, wl->by_name, ms);
}

/* wire__mdec_plan_for_td after struct type id t (0: none, the bytes
 * alone) whose marker is at ms. */
static const wire_mplan *plan_for(mdec *x, uint32_t li, const uint8_t *td,
                                  size_t len, const uint8_t *at,
                                  const wire_layout **out_wl, uint8_t t,
                                  const uint8_t *ms);

/* The plan for TypeDef bytes td[0..len) of layout li's type: the layout's
 * own when the bytes are the registered TypeDef, else a cached mapping. */
const wire_mplan *wire__mdec_plan_for_td(mdec *x, uint32_t li,
                                         const uint8_t *td, size_t len,
                                         const uint8_t *at,
                                         const wire_layout **out_wl) {
  return plan_for(x, li, td, len, at, out_wl, 0, at);
}

static const wire_mplan *plan_for(mdec *x, uint32_t li, const uint8_t *td,
                                  size_t len, const uint8_t *at,
                                  const wire_layout **out_wl, uint8_t tid,
                                  const uint8_t *ms) {
  wire_mem *m = x->m;
  wire_mlayout *l = &m->layouts[li];
  *out_wl = NULL;
  /* (the registered TypeDef and the mapped ones are of the type's own
   * kind and registration) */
  bool own_name = x->ctx->reg->types[l->type].by_name;
  if (len == l->td_len && memcmp(td, l->td, len) == 0) {
    if (tid && (tid != WIRE_T_COMPATIBLE_STRUCT) != own_name) {
      td_kind_refused(x, tid, true, own_name, ms);
      return NULL;
    }
    *out_wl = x->ctx->reg->types[l->type].layout;
    return &l->plan;
  }
  for (wire_mmap *c = l->maps; c; c = c->next)
    if (c->td_len == len && memcmp(c->td, td, len) == 0) {
      if (tid && (tid != WIRE_T_COMPATIBLE_STRUCT) != own_name) {
        td_kind_refused(x, tid, true, own_name, ms);
        return NULL;
      }
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
  if (tid && !td_kind_ok(x, tid, wl, ms)) return NULL;
  wire_utype *t = &x->ctx->reg->types[l->type];
  bool same = wl->kind == WIRE_KIND_STRUCT && wl->by_name == t->by_name &&
              (t->by_name ? wl->ns_len == strlen(t->ns) &&
                                wl->name_len == strlen(t->name) &&
                                wire__eq(wl->ns, t->ns, wl->ns_len) &&
                                wire__eq(wl->name, t->name, wl->name_len)
                          : wl->user_id == t->user_id);
  if (!same) {
    td_refused(x, l, at, wl);
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

bool wire__mdec_skipped_tds(mdec *x, const uint8_t *at) {
  wire_dec *d = &x->d;
  wire_mem *m = x->m;
  if (m->ndtd >= d->ntds) return true;
  if (!grow(x->ctx, (void **)&m->dtd, &m->dtd_cap, (uint32_t)d->ntds,
            sizeof *m->dtd))
    return dfail(x, WIRE_E_NOMEM, at, "out of memory");
  for (size_t k = m->ndtd; k < d->ntds; k++) m->dtd[k] = NULL;
  m->ndtd = (uint32_t)d->ntds;
  return true;
}

/* ---- the type meta of a struct value ---- */

/* Reads the type meta of a struct value expected to be of layout li and
 * gives the plan to read its body with. */
const wire_mplan *wire__mdec_meta(mdec *x, uint32_t li) {
  wire_in *in = IN(x);
  wire_mem *m = x->m;
  wire_mlayout *l = &m->layouts[li];
  wire_dec *d = &x->d;
  const uint8_t *c = in->p;
  if (l->td && in->end - c >= 2 && c[0] == l->kind && d->ntds < 64 &&
      c[1] == (uint8_t)(d->ntds << 1) && l->td_len <= x->ctx->max_typedef_bytes &&
      (size_t)(in->end - c) - 2 >= l->td_len &&
      td_same(c + 2, l->td, l->td_len)) {
    /* the usual case: the registered TypeDef announced as the next one */
    const uint8_t *ts = c + 2;
    in->p = ts + l->td_len;
    if (!wire__mdec_push_td_fast(x, x->ctx->reg->types[l->type].layout, &l->plan, ts))
      return NULL;
    return &l->plan;
  }
  return wire__mdec_meta_other(x, li);
}

const wire_mplan *wire__mdec_meta_other(mdec *x, uint32_t li) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p;
  wire_mem *m = x->m;
  wire_mlayout *l = &m->layouts[li];
  wire_dec *d = &x->d;
  if (l->maps && l->td && in->end - s >= 2 && s[0] == l->kind &&
      d->ntds < 64 && s[1] == (uint8_t)(d->ntds << 1)) {
    /* another writer's TypeDef mapped before, announced as the next
     * one: what the general path below finds after parsing its header
     * (wire__mdec_plan_for_td: the cached bytes, within the limit) */
    size_t left = (size_t)(in->end - s) - 2;
    for (wire_mmap *c = l->maps; c; c = c->next)
      if (left >= c->td_len && c->td_len <= x->ctx->max_typedef_bytes &&
          td_same(s + 2, c->td, c->td_len)) {
        in->p = s + 2 + c->td_len;
        if (!wire__mdec_push_td_fast(
                x, (const wire_layout *)c->plan.missing[-1], &c->plan, s + 2))
          return NULL;
        return &c->plan;
      }
  }
  uint8_t t;
  if (!wire__get_u8(in, &t)) return NULL;
  if (t == WIRE_T_COMPATIBLE_STRUCT || t == WIRE_T_NAMED_COMPATIBLE_STRUCT ||
      (t == WIRE_T_NAMED_STRUCT && x->ctx->compatible)) {
    const uint8_t *ms = in->p;
    uint32_t marker;
    if (!wire__get_varu32(in, &marker)) return NULL;
    uint32_t index = marker >> 1;
    if (marker & 1) {
      if (index >= d->ntds) {
        dfail(x, WIRE_E_TYPEDEF, ms, "TypeDef reference to an index not "
                                     "announced");
        return NULL;
      }
      if (index < m->ndtd && m->dtd[index] &&
          (m->dtd[index] == &l->plan || d->tds[index]->type_index == l->type)) {
        /* (a TypeDef of l's type is of its registration, and so is the
         * layout's own id: another id is checked) */
        if (WIRE_UNLIKELY(t != l->kind) && !td_kind_ok(x, t, d->tds[index], ms))
          return NULL;
        return m->dtd[index];
      }
      /* announced by a skipped value, or for another layout of the type */
      const wire_layout *wl = d->tds[index];
      if (!td_kind_ok(x, t, wl, ms)) return NULL;
      if (wl->type_index != l->type || !wl->td) {
        meta_refused(x, l, s, "a struct of another type");
        return NULL;
      }
      const wire_layout *w2;
      return plan_for(x, li, wl->td, wl->td_len, s, &w2, t, ms);
    }
    if (index != d->ntds) {
      dfail(x, WIRE_E_TYPEDEF, ms, "new TypeDef announced out of order");
      return NULL;
    }
    const uint8_t *ts = in->p;
    uint64_t header;
    if (!wire__get_le(in, 8, &header)) return NULL;
    uint64_t size = header & 0xFF;
    if (size == 0xFF) {
      uint32_t extra;
      if (!wire__get_varu32(in, &extra)) return NULL;
      size += extra;
    }
    if (size > x->ctx->max_typedef_bytes) {
      dfail(x, WIRE_E_LIMIT, ts, "TypeDef body exceeds the limit");
      return NULL;
    }
    const uint8_t *body;
    if (!wire__get_bytes(in, size, &body)) return NULL;
    size_t len = (size_t)(in->p - ts);
    const wire_layout *wl;
    const wire_mplan *p = plan_for(x, li, ts, len, ts, &wl, t, ms);
    if (!p) return NULL;
    if (!wire__mdec_push_td_fast(x, wl, p, ts)) return NULL;
    return p;
  }
  if (t != l->kind) {
    if (x->ctx->compatible &&
        (t == WIRE_T_NAMED_ENUM || t == WIRE_T_NAMED_EXT ||
         t == WIRE_T_NAMED_UNION)) {
      /* a shared TypeDef follows: read and checked as the tape decoder
       * does (R-UTYPE-5, class typedef at its marker) before the kind is
       * refused */
      in->p = s;
      wire_tmeta tm;
      if (!wire__dec_type_meta(&x->d, &tm)) return NULL;
    }
    kind_refused(x, l, s, t);
    return NULL;
  }
  wire_utype *ut = &x->ctx->reg->types[l->type];
  if (t == WIRE_T_STRUCT) {
    uint32_t id;
    const uint8_t *u = in->p;
    if (!wire__get_varu32(in, &id)) return NULL;
    if (id != ut->user_id) {
      id_refused(x, l, u, id);
      return NULL;
    }
    return &l->plan;
  }
  /* named same-schema: meta strings */
  in->p = s;
  wire_tmeta tm;
  if (!wire__dec_type_meta(&x->d, &tm)) return NULL;
  if (!tm.layout || tm.layout->type_index != l->type) {
    meta_refused(x, l, s, "a struct of another type");
    return NULL;
  }
  return &l->plan;
}

/* ---- fields the writer did not send ---- */

/* Zero / default for a field the writer did not send or sent as null:
 * form f (flags masked) at off, its length word (4 bytes, 8 with len64)
 * or a union's case id at aux, its presence flag. (Each clear a store of
 * constant size: a memset of a size known only at run time is a general
 * sequence, ~38 instructions a call where the order graph's null
 * pointers take it. form_size is 1, 2, 4 or 8.) */
static inline void zero_at(uint32_t f, bool len64, uint32_t off, uint32_t aux,
                           uint32_t present, uint8_t *base) {
  static const uint64_t z[3] = {0, 0, 0};
  uint8_t *p = base + off;
  switch (f) {
  case WIRE_MEM_STR: case WIRE_MEM_BYTES: case WIRE_MEM_STRUCT_PTR:
  case WIRE_MEM_LIST: case WIRE_MEM_ARRAY: case WIRE_MEM_MAP:
    memcpy(p, z, sizeof(void *));
    break;
  case WIRE_MEM_STRUCT: break; /* handled by the caller */
  case WIRE_MEM_TIMESTAMP: case WIRE_MEM_DURATION:
    memcpy(p, z, sizeof(wire_mem_time));
    break;
  case WIRE_MEM_DECIMAL: memcpy(p, z, sizeof(wire_mem_decimal)); break;
  case WIRE_MEM_I8: case WIRE_MEM_U8: case WIRE_MEM_BOOL: *p = 0; break;
  case WIRE_MEM_I16: case WIRE_MEM_U16: case WIRE_MEM_BITS16:
    memcpy(p, z, 2);
    break;
  case WIRE_MEM_I32: case WIRE_MEM_U32: case WIRE_MEM_F32: case WIRE_MEM_ENUM:
    memcpy(p, z, 4);
    break;
  default: memcpy(p, z, 8); break; /* (form_size 8: a date among them) */
  }
  if (aux != WIRE_MEM_NONE && f != WIRE_MEM_UNION) {
    if (len64) memcpy(base + aux, z, 8);
    else memcpy(base + aux, z, 4);
  }
  if (present != WIRE_MEM_NONE) base[present] = 0;
}
void wire__mdec_zero_spec(const wire_mspec *s, uint8_t *base) {
  zero_at(s->form & WIRE_MEM_F_MASK, (s->form & WIRE_MEM_LEN64) != 0,
          s->offset, s->aux, s->present, base);
}
void wire__mdec_zero_op(const wire_mop *o, uint8_t *base) {
  zero_at(o->form, (o->fl & MF_LEN64) != 0, o->off, o->aux, o->present, base);
}

void wire__mdec_zero_any(mdec *x, const wire_mspec *s, uint8_t *base) {
  if ((s->form & WIRE_MEM_F_MASK) == WIRE_MEM_UNION && s->elem < x->m->n) {
    /* case id 0 with its value storage cleared */
    if (s->present != WIRE_MEM_NONE) base[s->present] = 0;
    memset(base + s->aux, 0, 4);
    memset(base + s->offset, 0, x->m->layouts[s->elem].size);
    return;
  }
  if ((s->form & WIRE_MEM_F_MASK) == WIRE_MEM_STRUCT &&
      s->elem < x->m->n) {
    if (s->present != WIRE_MEM_NONE) base[s->present] = 0;
    wire__mdec_zero_struct(x, &x->m->layouts[s->elem], base + s->offset);
    return;
  }
  wire__mdec_zero_spec(s, base);
}
void wire__mdec_zero_struct(mdec *x, const wire_mlayout *l, uint8_t *base) {
  if (x->d.depth > x->ctx->max_depth) return;
  x->d.depth++;
  for (uint32_t i = 0; i < l->nspecs; i++)
    wire__mdec_zero_any(x, &l->specs[i], base);
  x->d.depth--;
}

int32_t wire_mem_typedef_skips(wire_ctx *ctx, uint32_t layout,
                               const uint8_t *td, size_t len, uint8_t *out,
                               size_t cap, size_t *out_n) {
  if (!ctx || !td || !out_n || (!out && cap)) return WIRE_E_ARG;
  if (ctx->err_code) wire_ctx_clear_error(ctx);
  *out_n = 0;
  if (!ctx->mem || layout >= ctx->mem->n)
    return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_mem *m = ctx->mem;
  wire__mem_mode(ctx, m);
  if (!m->layouts[layout].bound) {
    int32_t st = wire_mem_bind(ctx, layout);
    if (st) return st;
  }
  if (!m->layouts[layout].is_struct)
    return wire__fail(ctx, WIRE_E_ARG, 0, "layout %u is not a struct's",
                      layout);
  /* a decoder over the TypeDef bytes alone: errors name offsets in them */
  mdec x;
  memset(&x, 0, sizeof x);
  x.ctx = ctx;
  x.m = m;
  x.d.ctx = ctx;
  x.d.in = (wire_in){ctx, td, td, td + len};
  const wire_layout *wl;
  const wire_mplan *p = wire__mdec_plan_for_td(&x, layout, td, len, td, &wl);
  if (!p) return ctx->err_code ? ctx->err_code : WIRE_E_SCHEMA;
  *out_n = p->nops;
  if (p->nops > cap) return WIRE_E_BUFFER_FULL;
  for (uint32_t i = 0; i < p->nops; i++)
    out[i] = p->ops[i].code == MOP_SKIP;
  return WIRE_OK;
}
