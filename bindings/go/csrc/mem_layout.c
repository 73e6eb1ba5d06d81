/* mem_layout.c - compiled codecs, the layouts: registered structs bound to
 * native memory layouts (wire_mem_layout_* and wire_mem_bind in wire.h,
 * the plan in mem.h). Binding decides the framing of every field once,
 * with the writer policy of policy.h, and computes the type meta and
 * TypeDef bytes once (typedef.c); mem_enc.c and mem_dec.c then walk the
 * op sequence. */
#include "mem.h"

#if defined(__GNUC__) && !defined(__clang__)
/* the struct loops gain ~4% Ir at -O3 (inlining into the op switch) */
#pragma GCC optimize("O3")
#endif

#include <stdlib.h>

#define NOTYPE WIRE_NO_TYPE

/* ---- state ------------------------------------------------------------- */

wire_mem *wire__mem_state(wire_ctx *ctx) {
  if (ctx->mem) return ctx->mem;
  wire_mem *m = wire__alloc(ctx, sizeof *m);
  if (!m) return NULL;
  memset(m, 0, sizeof *m);
  m->arena.ctx = ctx;
  m->arena.next_size = 4096;
  m->e.ctx = ctx;
  m->e.b.ctx = ctx;
  m->words = wire__mdec_words();
  ctx->mem = m;
  return m;
}

void wire__mem_free(wire_ctx *ctx) {
  wire_mem *m = ctx->mem;
  if (!m) return;
  for (uint32_t i = 0; i < m->n; i++)
    wire__free(ctx, m->layouts[i].specs,
               m->layouts[i].cap * sizeof(wire_mspec));
  wire__free(ctx, m->layouts, m->cap * sizeof *m->layouts);
  wire__free(ctx, m->e.b.p, m->e.b.cap);
  wire__enc_release(&m->e);
  wire__free(ctx, m->td_gen, m->ntd * sizeof(uint32_t));
  wire__free(ctx, m->td_idx, m->ntd * sizeof(uint32_t));
  wire__free(ctx, m->refp, m->ref_cap * sizeof(void *));
  wire__free(ctx, m->refid, m->ref_cap * sizeof(uint32_t));
  wire__free(ctx, m->dtd, m->dtd_cap * sizeof(void *));
  wire__free(ctx, m->dref, m->dref_cap * sizeof(void *));
  wire__free(ctx, m->dref_layout, m->dref_cap * sizeof(uint32_t));
  wire__free(ctx, m->tds, m->tds_cap * sizeof *m->tds);
  wire__free(ctx, m->ms, m->ms_cap * sizeof *m->ms);
  wire__arena_free(&m->arena);
  wire__free(ctx, m, sizeof *m);
  ctx->mem = NULL;
}

/* ---- building layouts -------------------------------------------------- */

int32_t wire_mem_layout_new(wire_ctx *ctx, uint32_t type, uint32_t size,
                            uint32_t *out_layout) {
  if (!ctx || !out_layout) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_mem *m = wire__mem_state(ctx);
  if (!m) return WIRE_E_NOMEM;
  if (type != WIRE_MEM_ELEMENT) {
    if (!ctx->reg || type >= ctx->reg->ntypes ||
        (ctx->reg->types[type].kind != WIRE_KIND_STRUCT &&
         ctx->reg->types[type].kind != WIRE_KIND_UNION))
      return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not a registered "
                        "struct or union", type);
  }
  if (m->n >= 1u << 24)
    return wire__fail(ctx, WIRE_E_LIMIT, 0, "too many layouts");
  if (!grow(ctx, (void **)&m->layouts, &m->cap, m->n + 1, sizeof *m->layouts))
    return nomem(ctx);
  wire_mlayout *l = &m->layouts[m->n];
  memset(l, 0, sizeof *l);
  l->type = type;
  l->size = size;
  *out_layout = m->n++;
  return WIRE_OK;
}

int32_t wire_mem_layout_field(wire_ctx *ctx, uint32_t layout, uint32_t field,
                              uint32_t form, uint32_t offset, uint32_t aux,
                              uint32_t present, uint32_t elem) {
  if (!ctx) return WIRE_E_ARG;
  wire_mem *m = ctx->mem;
  if (!m || layout >= m->n)
    return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_mlayout *l = &m->layouts[layout];
  if (l->frozen || l->binding)
    return wire__fail(ctx, WIRE_E_STATE, 0, "layout %u is bound", layout);
  uint32_t f = form & WIRE_MEM_F_MASK;
  if (f < WIRE_MEM_I8 || f > WIRE_MEM_UNION ||
      (form & ~(WIRE_MEM_F_MASK | WIRE_MEM_LEN64 | WIRE_MEM_STR_TAGGED |
                WIRE_MEM_MARK_ABSENT)) ||
      ((form & WIRE_MEM_STR_TAGGED) && f != WIRE_MEM_STR))
    return wire__fail(ctx, WIRE_E_ARG, 0, "form 0x%x", form);
  const wire_utype *lt = l->type == WIRE_MEM_ELEMENT ? NULL : &ctx->reg->types[l->type];
  if (!lt ? field > 1
          : field >= (lt->kind == WIRE_KIND_UNION ? lt->ncases : lt->nfields))
    return wire__fail(ctx, WIRE_E_ARG, 0, "layout %u has no field %u", layout,
                      field);
  for (uint32_t i = 0; i < l->nspecs; i++)
    if (l->specs[i].field == field)
      return wire__fail(ctx, WIRE_E_ARG, 0, "field %u bound twice", field);
  if (!grow(ctx, (void **)&l->specs, &l->cap, l->nspecs + 1, sizeof *l->specs))
    return nomem(ctx);
  l->specs[l->nspecs++] = (wire_mspec){field, form, offset, aux, present, elem};
  return WIRE_OK;
}

uint64_t wire_mem_absent_count(const wire_ctx *ctx) {
  return ctx && ctx->mem ? ctx->mem->nabsent : 0;
}

int32_t wire_mem_layout_table(wire_ctx *ctx, const uint32_t *rows,
                              size_t nrows, uint32_t *out_first) {
  if (!ctx || (!rows && nrows) || !out_first) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_mem *m = wire__mem_state(ctx);
  if (!m) return WIRE_E_NOMEM;
  uint32_t first = m->n, cur = WIRE_MEM_NONE;
  *out_first = first;
  for (size_t i = 0; i < nrows; i++) {
    const uint32_t *r = rows + i * WIRE_MEM_ROW;
    int32_t st;
    if (r[0] == WIRE_MEM_ROW_LAYOUT) {
      st = wire_mem_layout_new(ctx, r[1], r[2], &cur);
    } else if (r[0] == WIRE_MEM_ROW_FIELD && cur != WIRE_MEM_NONE) {
      uint32_t f = r[2] & WIRE_MEM_F_MASK;
      uint32_t elem = r[6];
      if ((f == WIRE_MEM_STRUCT || f == WIRE_MEM_STRUCT_PTR ||
           f == WIRE_MEM_LIST || f == WIRE_MEM_MAP || f == WIRE_MEM_UNION) &&
          elem != WIRE_MEM_NONE)
        elem += first;
      st = wire_mem_layout_field(ctx, cur, r[1], r[2], r[3], r[4], r[5], elem);
    } else {
      st = wire__fail(ctx, WIRE_E_ARG, 0, "table row %zu", i);
    }
    if (st) return st;
  }
  return WIRE_OK;
}

/* ---- compiling --------------------------------------------------------- */


static uint8_t user_kind(wire_ctx *ctx, const wire_ftype *f) {
  if (f->user == NOTYPE || !ctx->reg || f->user >= ctx->reg->ntypes) return 0;
  return ctx->reg->types[f->user].kind;
}

static int32_t bind_layout(wire_ctx *ctx, uint32_t li);

/* (off: plans made from then on are read without the decoder's inline
 * cases, mop.ds MDS_GENERAL; for tests) */
bool wire__mdec_ds_ok = true;

static int32_t cfail(wire_ctx *ctx, uint32_t li, const wire_mspec *s,
                     const char *what) {
  return wire__fail(ctx, WIRE_E_ARG, 0, "layout %u field %u: %s", li,
                    s ? s->field : 0, what);
}

/* The value op of a field of a registered user type (struct, enum,
 * union; ext values have no memory form). */
static int32_t compile_user(wire_ctx *ctx, uint32_t li, uint8_t uk,
                            const wire_ftype *wf, const wire_mspec *s,
                            wire_mop *o, bool encoder) {
  wire_mem *m = ctx->mem;
  uint32_t form = o->form;
  if (uk == WIRE_KIND_STRUCT) {
    if (form != WIRE_MEM_STRUCT && form != WIRE_MEM_STRUCT_PTR)
      return WIRE_E_SCHEMA;
    if (s->elem >= m->n || m->layouts[s->elem].type != wf->user)
      return encoder ? cfail(ctx, li, s, "nested layout of another type")
                     : WIRE_E_SCHEMA;
    int32_t st = bind_layout(ctx, s->elem);
    if (st) return st;
    o->code = form == WIRE_MEM_STRUCT ? MOP_STRUCT : MOP_STRUCT_PTR;
    return WIRE_OK;
  }
  if (uk == WIRE_KIND_ENUM) {
    if (form != WIRE_MEM_ENUM && !is_int_form(form)) return WIRE_E_SCHEMA;
    o->code = MOP_ENUM;
    return WIRE_OK;
  }
  if (uk == WIRE_KIND_UNION) {
    if (form != WIRE_MEM_UNION || s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    if (s->elem >= m->n || m->layouts[s->elem].type != wf->user)
      return encoder ? cfail(ctx, li, s, "union layout of another type")
                     : WIRE_E_SCHEMA;
    int32_t st = bind_layout(ctx, s->elem);
    if (st) return st;
    o->code = MOP_UNION;
    return WIRE_OK;
  }
  return encoder ? cfail(ctx, li, s, "ext values have no memory form yet")
                 : WIRE_E_SCHEMA;
}

/* The op of a scalar wire type (integers, bool, floats, string, binary,
 * date, time, decimal); WIRE_E_SCHEMA when the form cannot carry it, -1
 * when wt is not one of them. */
static int32_t compile_scalar(uint8_t wt, const wire_mspec *s, wire_mop *o,
                              bool encoder) {
  uint32_t form = o->form;
  if (is_int_wt(wt)) {
    if (!is_int_form(form)) return WIRE_E_SCHEMA;
    o->code = MOP_INT;
    if (encoder ? !int_fits(form, wt) : !int_fits_form(wt, form))
      o->fl |= MF_CHECK;
    return WIRE_OK;
  }
  uint32_t want;
  switch (wt) {
  case WIRE_T_BOOL: want = WIRE_MEM_BOOL; o->code = MOP_BOOL; break;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16:
    want = WIRE_MEM_BITS16;
    o->code = MOP_BITS16;
    break;
  case WIRE_T_FLOAT32: case WIRE_T_FLOAT64:
    if (form != WIRE_MEM_F32 && form != WIRE_MEM_F64) return WIRE_E_SCHEMA;
    o->code = wt == WIRE_T_FLOAT32 ? MOP_F32 : MOP_F64;
    return WIRE_OK;
  case WIRE_T_STRING:
    if (s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    want = WIRE_MEM_STR;
    o->code = MOP_STR;
    break;
  case WIRE_T_BINARY:
    if (s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    want = WIRE_MEM_BYTES;
    o->code = MOP_BYTES;
    break;
  case WIRE_T_DATE: want = WIRE_MEM_DATE; o->code = MOP_DATE; break;
  case WIRE_T_TIMESTAMP:
    want = WIRE_MEM_TIMESTAMP;
    o->code = MOP_TIMESTAMP;
    break;
  case WIRE_T_DURATION:
    want = WIRE_MEM_DURATION;
    o->code = MOP_DURATION;
    break;
  case WIRE_T_DECIMAL: want = WIRE_MEM_DECIMAL; o->code = MOP_DECIMAL; break;
  default: return -1;
  }
  return form == want ? WIRE_OK : WIRE_E_SCHEMA;
}

/* The element ops of a list or map op (o->sub: the item, or the key and
 * the value) from the element layout's slots, or from the struct layout
 * itself for a list of structs; the list headers. */
static int32_t compile_elems(wire_ctx *ctx, uint32_t li, const wire_ftype *wf,
                             const wire_ftype *rf, const wire_mspec *s,
                             wire_mop *o, bool encoder) {
  wire_mem *m = ctx->mem;
  wire_mlayout *el = &m->layouts[s->elem];
  int32_t st = bind_layout(ctx, s->elem);
  if (st) return st;
  o->esize = el->size;
  int nsub = o->code == MOP_MAP ? 2 : 1;
  o->sub = wire__arena_alloc(&m->arena, 2 * sizeof(wire_mop));
  if (!o->sub) return nomem(ctx);
  memset(o->sub, 0, 2 * sizeof(wire_mop));
  for (int k = 0; k < nsub; k++) {
    const wire_ftype *we = o->code == MOP_MAP ? (k ? wf->value : wf->key)
                                              : wf->elem;
    const wire_ftype *re = rf->type_id == wf->type_id
                               ? (o->code == MOP_MAP ? (k ? rf->value : rf->key)
                                                     : rf->elem)
                               : we;
    if (!re) re = we;
    if (el->type != WIRE_MEM_ELEMENT) {
      /* a list of structs: the items are the struct layout itself */
      wire_mspec is = {0, WIRE_MEM_STRUCT, 0, WIRE_MEM_NONE, WIRE_MEM_NONE,
                       s->elem};
      st = wire__mem_compile_value(ctx, li, we, re, &is, &o->sub[k], encoder);
    } else {
      const wire_mspec *es = NULL;
      for (uint32_t i = 0; i < el->nspecs; i++)
        if (el->specs[i].field == (uint32_t)k) es = &el->specs[i];
      if (!es) return cfail(ctx, li, s, "element layout without slot");
      st = wire__mem_compile_value(ctx, li, we, re, es, &o->sub[k], encoder);
    }
    if (st) return st;
    o->sub[k].ft = we;
  }
  if (o->code == MOP_LIST) {
    const wire_ftype *ed;
    o->lh = wire__pol_list_header(ctx, wf, true, false, false, &ed);
    o->lh_null = wire__pol_list_header(ctx, wf, true, true, false, &ed);
    const wire_mop *so = &o->sub[0];
    if (!(so->fl & MF_PRESENT) && wire__mdec_ds_ok)
      o->ditems = so->code == MOP_STRUCT ? MDI_STRUCT
                  : so->code == MOP_STRUCT_PTR ? MDI_SPTR
                  : so->code != MOP_STR ? MDI_NONE
                  : so->fl & MF_TAGGED ? MDI_TSTR
                  : !(so->fl & MF_LEN64) ? MDI_STR
                                         : MDI_NONE;
  } else if (o->code == MOP_MAP) {
    /* the encoder's chunk header (mem_enc.c's enc_map) */
    o->lh = (uint8_t)wire__pol_chunk(wf, wire__pol_map_decl(ctx, wf->key),
                                     wire__pol_map_decl(ctx, wf->value),
                                     false, false);
    /* (keys and values strings of the inline forms: MDI_STR; both
     * tagged: MDI_TSTR) */
    bool strs = true;
    for (int k = 0; k < 2; k++) {
      const wire_mop *so = &o->sub[k];
      strs = strs && so->code == MOP_STR && !(so->fl & MF_PRESENT) &&
             ((so->fl & MF_TAGGED) || !(so->fl & MF_LEN64));
    }
    o->ditems = !strs || !wire__mdec_ds_ok ? MDI_NONE
                : o->sub[0].fl & o->sub[1].fl & MF_TAGGED ? MDI_TSTR
                                                          : MDI_STR;
  }
  wire__menc_kinds(o);
  return WIRE_OK;
}

/* The op of a collection wire type: a dense array, a list / set (packed
 * primitives or element-layout items), a map. */
static int32_t compile_coll(wire_ctx *ctx, uint32_t li, const wire_ftype *wf,
                            const wire_ftype *rf, const wire_mspec *s,
                            wire_mop *o, bool encoder) {
  wire_mem *m = ctx->mem;
  uint32_t form = o->form;
  uint8_t wt = wf->type_id;
  /* the reader's element type decides the packed memory width */
  if (wire__array_elem_type(wt)) {
    uint8_t re = wire__array_elem_type(rf->type_id);
    if (!re && (rf->type_id == WIRE_T_LIST || rf->type_id == WIRE_T_SET) &&
        rf->elem)
      re = rf->elem->type_id;
    if (form != WIRE_MEM_ARRAY || s->aux == WIRE_MEM_NONE || !natural_form(re))
      return WIRE_E_SCHEMA;
    o->code = MOP_DENSE;
    o->ewt = wire__array_elem_type(wt);
    o->eform = natural_form(re);
    if (natural_form(o->ewt) != o->eform &&
        !(is_int_form(o->eform) && is_int_wt(o->ewt)))
      return WIRE_E_SCHEMA;
    return WIRE_OK;
  }
  if ((wt == WIRE_T_LIST || wt == WIRE_T_SET) && wf->elem) {
    if (s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    if (form == WIRE_MEM_ARRAY) {
      uint8_t re = wire__array_elem_type(rf->type_id);
      if (!re && rf->elem) re = rf->elem->type_id;
      uint8_t we = wf->elem->type_id;
      if (!natural_form(re) || !natural_form(we) || user_kind(ctx, wf->elem))
        return WIRE_E_SCHEMA;
      if (natural_form(we) != natural_form(re) &&
          !(is_int_wt(we) && is_int_form(natural_form(re))))
        return WIRE_E_SCHEMA;
      o->code = MOP_PLIST;
      o->ewt = we;
      o->eform = natural_form(re);
      const wire_ftype *ed;
      o->lh = wire__pol_list_header(ctx, wf, true, false, false, &ed);
      o->lh_null = o->lh;
      return WIRE_OK;
    }
    if (form != WIRE_MEM_LIST) return WIRE_E_SCHEMA;
    if (s->elem >= m->n) return cfail(ctx, li, s, "no element layout");
    o->code = MOP_LIST;
  } else if (wt == WIRE_T_MAP && wf->key && wf->value) {
    if (form != WIRE_MEM_MAP || s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    if (s->elem >= m->n || m->layouts[s->elem].type != WIRE_MEM_ELEMENT)
      return cfail(ctx, li, s, "map entries need an element layout");
    o->code = MOP_MAP;
  } else {
    return encoder ? cfail(ctx, li, s, "declared type has no memory form")
                   : WIRE_E_SCHEMA;
  }
  return compile_elems(ctx, li, wf, rf, s, o, encoder);
}

/* Compiles one value op: wire side `wf` (the declared type, or a writer's
 * TypeDef field type), reader's declared type `rf` (same as wf for the
 * registered plan), memory side `s`. Returns WIRE_E_SCHEMA when the form
 * cannot carry the wire type (a mapping then skips the field). */
int32_t wire__mem_compile_value(wire_ctx *ctx, uint32_t li,
                                const wire_ftype *wf, const wire_ftype *rf,
                                const wire_mspec *s, wire_mop *o,
                                bool encoder) {
  uint32_t form = s->form & WIRE_MEM_F_MASK;
  uint8_t wt = wf->type_id;
  uint8_t uk = user_kind(ctx, wf);
  memset(o, 0, sizeof *o);
  o->wt = wt;
  o->form = (uint8_t)form;
  o->off = s->offset;
  o->aux = s->aux;
  o->present = s->present;
  o->elem = s->elem;
  o->ft = wf;
  o->local = NOTYPE;
  o->ds = wire__mdec_ds_ok ? MDS_NONE : MDS_GENERAL;
  if (s->form & WIRE_MEM_LEN64) o->fl |= MF_LEN64;
  if (s->form & WIRE_MEM_STR_TAGGED) o->fl |= MF_TAGGED;
  if (s->present != WIRE_MEM_NONE) o->fl |= MF_PRESENT;
  if (uk) return compile_user(ctx, li, uk, wf, s, o, encoder);
  int32_t st = compile_scalar(wt, s, o, encoder);
  if (st != -1) return st;
  return compile_coll(ctx, li, wf, rf, s, o, encoder);
}

/* Framing of a field (R-FIELD-*, policy.h). */
void wire__mem_frame(wire_ctx *ctx, const wire_ftype *f, wire_mop *o) {
  /* the peer's framing (R-PEER-2..4): pyfory's type meta before a named
   * struct field, Go's reference flags on nullable struct fields and its
   * flag on struct fields held by value */
  bool flag = f->nullable || f->ref || wire__peer_value_flag(ctx, f);
  bool ref = f->ref || wire__peer_field_tracks(ctx, f);
  bool dynamic = !wire__pol_static_type(ctx, f) || wire__peer_field_meta(ctx, f);
  if (dynamic) o->fl |= MF_META;
  if (flag) o->fl |= MF_FLAG;
  if (ref) o->fl |= MF_REF;
  bool trackable = dynamic || wire__pol_trackable(o->wt) ||
                   o->code == MOP_STRUCT || o->code == MOP_STRUCT_PTR;
  if (ref && ctx->ref_tracking && trackable) o->fl |= MF_TRACK;
}

/* The most bytes the decoder's inline case of op o reads when it is a
 * varint (0: another kind). */
static uint32_t dec_bound(const wire_mop *o) {
  switch (o->x) {
  case MX_VI32: case MX_VI32_64: return 5;
  case MX_VI64: return 9;
  default: return 0;
  }
}

#define RUN_MIN 3

/* The decoder's struct loop case of an op without an inline one (mop.ds). */
static uint8_t dec_slow_case(const wire_mop *o) {
  bool flag = (o->fl & MF_FLAG) != 0;
  if (o->fl & (MF_PRESENT | MF_CHECK)) return MDS_NONE;
  if (o->code == MOP_STRUCT_PTR) return flag ? MDS_FPTR : MDS_PTR;
  if (o->fl & MF_META) return MDS_NONE;
  switch (o->code) {
  case MOP_DECIMAL: return flag ? MDS_NONE : MDS_DEC;
  case MOP_TIMESTAMP: case MOP_DURATION: return flag ? MDS_NONE : MDS_TIME;
  case MOP_STR:
    /* (the forms of fast_str and fast_tstr) */
    return flag && ((o->fl & MF_TAGGED) || !(o->fl & MF_LEN64)) ? MDS_FSTR
                                                                : MDS_NONE;
  case MOP_MAP: return flag ? MDS_NONE : MDS_MAP;
  default: return MDS_NONE;
  }
}

/* Groups consecutive varint ops of one inline case into runs the decoder
 * reads after one bounds check, without dispatch (each op: the length and
 * the most bytes of the rest of its run, and the case). */
static void dec_runs(wire_mop *ops, uint32_t n) {
  for (uint32_t i = n; i-- > 0;) {
    wire_mop *o = &ops[i];
    uint32_t b = dec_bound(o);
    o->drun = 0;
    o->dneed = 0;
    if (!b) continue;
    o->drun = 1;
    o->dneed = (uint16_t)b;
    if (i + 1 < n && ops[i + 1].drun && ops[i + 1].x == o->x &&
        ops[i + 1].drun < 255 && ops[i + 1].dneed + b <= WIRE_MEM_RUN_MAX) {
      o->drun = (uint8_t)(ops[i + 1].drun + 1);
      o->dneed = (uint16_t)(ops[i + 1].dneed + b);
    }
  }
  /* the decoder takes a run as one from its first op, when it is long
   * enough to pay for itself */
  for (uint32_t i = 0; i < n; i++) {
    wire_mop *o = &ops[i];
    bool first = !i || ops[i - 1].drun != o->drun + 1;
    o->dx = first && o->drun >= RUN_MIN ? MX_RUN : o->x;
    bool plain = !(o->fl & (MF_FLAG | MF_CHECK | MF_PRESENT));
    if (o->code == MOP_DENSE && o->ewt == WIRE_T_BOOL &&
        o->eform == WIRE_MEM_BOOL && plain && !(o->fl & MF_META))
      o->dx = MX_BOOLS;
    if (o->code == MOP_STRUCT && plain) o->dx = MX_NEST;
    if ((o->code == MOP_LIST || o->code == MOP_PLIST) && plain &&
        !(o->fl & MF_META))
      o->dx = MX_LIST;
    /* the encoder's case: the decoder's, or one of its own for a value
     * the decoder reads the general way */
    o->ex = o->dx;
    const uint8_t fmp = o->fl & (MF_FLAG | MF_META | MF_PRESENT);
    if (o->code == MOP_STRUCT_PTR && !(o->fl & MF_PRESENT)) o->ex = MX_SPTR;
    if (o->code == MOP_DECIMAL && !fmp) o->ex = MX_DEC;
    if (o->code == MOP_TIMESTAMP && !fmp) o->ex = MX_TIME;
    if (o->code == MOP_STR && fmp == MF_FLAG && o->ft && o->ft->nullable &&
        !(o->fl & (MF_TRACK | MF_LEN64)))
      o->ex = o->fl & MF_TAGGED ? MX_TSTRF : MX_STRF;
    const wire_mop *so = o->code == MOP_LIST ? &o->sub[0] : NULL;
    if (o->dx == MX_LIST && so && !((o->fl | so->fl) & MF_LEN64) &&
        !(so->fl & MF_PRESENT)) {
      if (so->code == MOP_STR && (so->fl & MF_TAGGED)) o->ex = MX_LTSTR;
      if (so->code == MOP_STRUCT_PTR) o->ex = MX_LSPTR;
    }
    o->ds = !wire__mdec_ds_ok ? MDS_GENERAL
            : o->dx == MX_SLOW ? dec_slow_case(o) : MDS_NONE;
  }
}

/* Chooses the inline cases of a plan's ops and the reserve sums. */
void wire__mem_fast_paths(wire_mop *ops, uint32_t n) {
  uint32_t rest = 0;
  for (uint32_t i = n; i-- > 0;) {
    wire_mop *o = &ops[i];
    uint32_t need = 0;
    o->x = MX_SLOW;
    if (!(o->fl & (MF_FLAG | MF_META | MF_CHECK | MF_PRESENT))) {
      switch (o->code) {
      case MOP_INT:
        if (o->wt == WIRE_T_VARINT32 && o->form == WIRE_MEM_I32) { o->x = MX_VI32; need = 5; }
        if (o->wt == WIRE_T_VARINT64 && o->form == WIRE_MEM_I64) { o->x = MX_VI64; need = 9; }
        /* (in a writer's TypeDef's plan only: a registered plan, made for
         * the encoder too, checks an int64 form's range, MF_CHECK) */
        if (o->wt == WIRE_T_VARINT32 && o->form == WIRE_MEM_I64) o->x = MX_VI32_64;
        break;
      case MOP_BOOL: o->x = MX_BOOL; need = 1; break;
      case MOP_ENUM:
        if (o->form == WIRE_MEM_ENUM || o->form == WIRE_MEM_U32) { o->x = MX_ENUM; need = 5; }
        break;
      case MOP_F32: if (o->form == WIRE_MEM_F32) { o->x = MX_F32; need = 4; } break;
      case MOP_F64: if (o->form == WIRE_MEM_F64) { o->x = MX_F64; need = 8; } break;
      case MOP_STR:
        if (o->fl & MF_TAGGED) { o->x = MX_TSTR; need = 9; }
        else if (!(o->fl & MF_LEN64)) { o->x = MX_STR; need = 5; }
        break;
      case MOP_BYTES: o->x = MX_DENSE; o->esize = 1; need = 5; break;
      case MOP_DENSE:
        if (natural_form(o->ewt) == o->eform && o->ewt != WIRE_T_BOOL) {
          o->x = MX_DENSE;
          o->esize = wire_type_array_width(o->wt);
          need = 5;
        }
        break;
      default: break;
      }
    }
    rest += need;
    o->rest = rest;
    if (o->x == MX_SLOW) rest = 0;
  }
  dec_runs(ops, n);
}

/* The cases flat_body (mem_dec_root.c) reads; not MX_VI32_64, which only
 * a writer's TypeDef's plan has, never flat (test_mem_vi32_i64). */
bool wire__mem_flat(const wire_mop *ops, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    switch (ops[i].dx) {
    case MX_RUN: case MX_VI32: case MX_VI64: case MX_BOOL:
    case MX_ENUM: case MX_F32: case MX_F64:
      break;
    default:
      return false;
    }
  }
  return true;
}

const wire_mspec *wire__mem_spec_of(const wire_mlayout *l, uint32_t field) {
  for (uint32_t i = 0; i < l->nspecs; i++)
    if (l->specs[i].field == field) return &l->specs[i];
  return NULL;
}

static int32_t bind_struct(wire_ctx *ctx, uint32_t li) {
  wire_mem *m = ctx->mem;
  uint32_t ti = m->layouts[li].type;
  int32_t st = wire__layout_of(ctx, ti);
  if (st) return st;
  wire_utype *t = &ctx->reg->types[ti];
  const wire_layout *rl = t->layout;
  wire_mop *ops = wire__arena_alloc(&m->arena, (rl->nfields + 1) * sizeof *ops);
  if (!ops) return nomem(ctx);
  uint32_t n = 0;
  for (uint32_t i = 0; i < rl->nfields; i++) {
    const wire_lfield *lf = &rl->fields[i];
    const wire_mspec *s = wire__mem_spec_of(&m->layouts[li], lf->local);
    wire_mop *o = &ops[n];
    if (!s) {
      /* not in memory: written as null (nullable) or not at all (the
       * layout can then only decode), skipped when read */
      memset(o, 0, sizeof *o);
      o->code = MOP_NONE;
      o->ft = lf->type;
      o->wt = lf->type->type_id;
      o->local = lf->local;
      o->lf = lf;
      o->fl = lf->type->nullable ? MF_FLAG : 0;
      n++;
      continue;
    }
    st = wire__mem_compile_value(ctx, li, lf->type, lf->type, s, o, true);
    if (st == WIRE_E_SCHEMA)
      return cfail(ctx, li, s, "the form cannot carry the field's type");
    if (st) return st;
    o->local = lf->local;
    wire__mem_frame(ctx, lf->type, o);
    if (lf->type->nullable && !(o->fl & MF_PRESENT) &&
        o->code != MOP_STRUCT_PTR && o->code != MOP_STR &&
        o->code != MOP_BYTES && o->code != MOP_LIST && o->code != MOP_PLIST &&
        o->code != MOP_DENSE && o->code != MOP_MAP)
      return cfail(ctx, li, s, "a nullable field needs a presence flag");
    n++;
  }
  wire__mem_fast_paths(ops, n);
  wire__mem_plan_end(ops, n);
  wire_mlayout *l = &m->layouts[li];
  l->plan.ops = ops;
  l->plan.nops = n;
  l->plan.flat = wire__mem_flat(ops, n) && !l->plan.nmissing;
  l->kind = wire__struct_kind(ctx, t);
  l->plan.hashed = wire__mem_hashed(ctx, l);
  l->hash = wire__peer_schema_hash(ctx, rl);
  l->pre_len = 0;
  if (l->kind == WIRE_T_STRUCT && l->plan.hashed) {
    /* (a varint32 takes at most 5 bytes: 3 + 5 + 4 fit pre) */
    uint8_t *q = l->pre;
    *q++ = 0x01;
    *q++ = 0xFF;
    *q++ = l->kind;
    q += wire__varu32_at(q, t->user_id);
    for (int k = 0; k < 4; k++) *q++ = (uint8_t)(l->hash >> (8 * k));
    l->pre_len = (uint8_t)(q - l->pre);
  }
  if (l->kind == WIRE_T_COMPATIBLE_STRUCT ||
      l->kind == WIRE_T_NAMED_COMPATIBLE_STRUCT ||
      (ctx->compatible && l->kind == WIRE_T_NAMED_STRUCT)) {
    wire_buf b = {ctx, NULL, 0, 0, false, WIRE_OK};
    st = wire__typedef_build(ctx, ti, &b);
    if (st) {
      wire__free(ctx, b.p, b.cap);
      return st;
    }
    /* the TypeDef after the root's first four bytes as this writer sends
     * them (xlang header, not-null flag, the kind, TypeDef #0): a root
     * is recognised with one compare (wire_mem_decode, wire_mem_encode) */
    uint8_t *pre = wire__arena_alloc(&m->arena, b.len + 4);
    if (!pre) {
      wire__free(ctx, b.p, b.cap);
      return nomem(ctx);
    }
    pre[0] = 0x01;
    pre[1] = 0xFF;
    pre[2] = l->kind;
    pre[3] = 0x00;
    l->td = pre + 4;
    memcpy(l->td, b.p, b.len);
    l->td_len = (uint32_t)b.len;
    wire__free(ctx, b.p, b.cap);
  }
  return WIRE_OK;
}

/* A union layout: one op per case (in declaration order, the case id in
 * `local`), each a full slot (R-UNION-2): always a flag, the case value's
 * type meta (written by the codecs: a struct's, or the case type's id),
 * its body. A case without a row is MOP_NONE. */
static int32_t bind_union(wire_ctx *ctx, uint32_t li) {
  wire_mem *m = ctx->mem;
  const wire_utype *t = &ctx->reg->types[m->layouts[li].type];
  uint32_t n = t->ncases;
  wire_mop *ops = wire__arena_alloc(&m->arena, (n + 1) * sizeof *ops);
  if (!ops) return nomem(ctx);
  for (uint32_t k = 0; k < n; k++) {
    const wire_ftype *cf = t->cases[k].type;
    const wire_mspec *s = wire__mem_spec_of(&m->layouts[li], k);
    wire_mop *o = &ops[k];
    memset(o, 0, sizeof *o);
    if (s) {
      int32_t st = wire__mem_compile_value(ctx, li, cf, cf, s, o, true);
      if (st == WIRE_E_SCHEMA)
        return cfail(ctx, li, s, "the form cannot carry the case's type");
      if (st) return st;
      if (o->code == MOP_UNION)
        return cfail(ctx, li, s, "a union case of union type");
      uint8_t uk = user_kind(ctx, cf);
      if (uk == WIRE_KIND_ENUM && ctx->reg->types[cf->user].by_name)
        return cfail(ctx, li, s, "a union case of a named enum has no memory "
                                 "form yet");
    } else {
      o->code = MOP_NONE;
      o->wt = cf->type_id;
      o->ft = cf;
    }
    o->ft = cf;
    o->local = t->cases[k].case_id;
    o->fl |= MF_FLAG | MF_REF;
    if (o->code == MOP_STRUCT || o->code == MOP_STRUCT_PTR) o->fl |= MF_META;
    if (ctx->ref_tracking &&
        (wire__pol_trackable(o->wt) || o->code == MOP_STRUCT ||
         o->code == MOP_STRUCT_PTR))
      o->fl |= MF_TRACK;
  }
  wire_mlayout *l = &m->layouts[li];
  l->plan.ops = ops;
  l->plan.nops = n;
  return WIRE_OK;
}

static int32_t bind_layout(wire_ctx *ctx, uint32_t li) {
  wire_mem *m = ctx->mem;
  wire_mlayout *l = &m->layouts[li];
  if (l->bound || l->binding) return WIRE_OK;
  l->binding = true;
  int32_t st = WIRE_OK;
  if (l->type != WIRE_MEM_ELEMENT)
    st = ctx->reg->types[l->type].kind == WIRE_KIND_UNION ? bind_union(ctx, li)
                                                          : bind_struct(ctx, li);
  l = &m->layouts[li];
  l->binding = false;
  if (st == WIRE_OK) {
    l->bound = l->frozen = true;
    l->is_struct = l->type != WIRE_MEM_ELEMENT &&
                   ctx->reg->types[l->type].kind == WIRE_KIND_STRUCT;
  }
  return st;
}

void wire__mem_switch(wire_mem *m, uint32_t mode) {
  for (uint32_t i = 0; i < m->n; i++) {
    wire_mlayout *l = &m->layouts[i];
    wire_mcompiled *was = &l->other[m->mode], *now = &l->other[mode];
    *was = (wire_mcompiled){l->bound, l->hash, l->plan, l->kind, l->td,
                            l->td_len, l->maps, l->nmaps, {0}, l->pre_len};
    memcpy(was->pre, l->pre, sizeof was->pre);
    l->bound = now->bound;
    l->hash = now->hash;
    l->plan = now->plan;
    l->kind = now->kind;
    l->td = now->td;
    l->td_len = now->td_len;
    l->maps = now->maps;
    l->nmaps = now->nmaps;
    memcpy(l->pre, now->pre, sizeof l->pre);
    l->pre_len = now->pre_len;
  }
  m->mode = mode;
}

int32_t wire_mem_bind(wire_ctx *ctx, uint32_t layout) {
  if (!ctx) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  if (!ctx->mem || layout >= ctx->mem->n)
    return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  if (ctx->mem->layouts[layout].type == WIRE_MEM_ELEMENT)
    return wire__fail(ctx, WIRE_E_ARG, 0, "layout %u is an element layout",
                      layout);
  wire_mem *m = ctx->mem;
  wire__mem_mode(ctx, m);
  uint32_t nt = ctx->reg->ntypes;
  if (m->ntd < nt) {
    uint32_t *g = wire__realloc(ctx, m->td_gen, m->ntd * sizeof *g, nt * sizeof *g);
    if (!g) return nomem(ctx);
    m->td_gen = g;
    uint32_t *x = wire__realloc(ctx, m->td_idx, m->ntd * sizeof *x, nt * sizeof *x);
    if (!x) return nomem(ctx);
    m->td_idx = x;
    memset(g + m->ntd, 0, (nt - m->ntd) * sizeof *g);
    memset(x + m->ntd, 0, (nt - m->ntd) * sizeof *x);
    m->ntd = nt;
  }
  return bind_layout(ctx, layout);
}
