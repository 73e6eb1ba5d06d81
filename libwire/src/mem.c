/* mem.c - compiled codecs: registered structs bound to native memory
 * layouts (wire_mem_* in wire.h, the plan in mem.h). Binding decides the
 * framing of every field once, with the writer policy of policy.h, and
 * computes the type meta and TypeDef bytes once (typedef.c); encoding and
 * decoding then walk the op sequence. Decoding reads untrusted bytes with
 * the checks of the document decoder (dec.h): bounds before use, counts
 * against the bytes left and the limits, the depth limit, UTF-8. */
#include "mem.h"

#if defined(__GNUC__) && !defined(__clang__)
/* the struct loops gain ~4% Ir at -O3 (inlining into the op switch) */
#pragma GCC optimize("O3")
#endif

#include <stdlib.h>

#define NOTYPE WIRE_NO_TYPE

/* ---- state ------------------------------------------------------------- */

static wire_mem *mem_of(wire_ctx *ctx) {
  if (ctx->mem) return ctx->mem;
  wire_mem *m = wire__alloc(ctx, sizeof *m);
  if (!m) return NULL;
  memset(m, 0, sizeof *m);
  m->arena.ctx = ctx;
  m->arena.next_size = 4096;
  m->e.ctx = ctx;
  m->e.b.ctx = ctx;
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

static int32_t nomem(wire_ctx *ctx) {
  return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
}

static bool grow(wire_ctx *ctx, void **p, uint32_t *cap, uint32_t need,
                 size_t size) {
  if (need <= *cap) return true;
  uint32_t nc = *cap ? *cap : 8;
  while (nc < need) nc *= 2;
  void *q = wire__realloc(ctx, *p, (size_t)*cap * size, (size_t)nc * size);
  if (!q) return false;
  *p = q;
  *cap = nc;
  return true;
}

/* Room for n entries in the encoder's and the decoder's reference tables. */
static bool ref_room(wire_ctx *ctx, wire_mem *m, uint32_t n) {
  if (n <= m->ref_cap) return true;
  uint32_t nc = m->ref_cap ? m->ref_cap * 2 : 16;
  while (nc < n) nc *= 2;
  const void **a = wire__realloc(ctx, m->refp, m->ref_cap * sizeof *a, nc * sizeof *a);
  if (!a) return false;
  m->refp = a;
  uint32_t *b = wire__realloc(ctx, m->refid, m->ref_cap * sizeof *b, nc * sizeof *b);
  if (!b) {
    /* keep the sizes consistent: shrink back is not possible, so grow both
     * or report failure with the old capacity of the smaller one */
    return false;
  }
  m->refid = b;
  m->ref_cap = nc;
  return true;
}
static bool dref_room(wire_ctx *ctx, wire_mem *m, uint32_t n) {
  if (n <= m->dref_cap) return true;
  uint32_t nc = m->dref_cap ? m->dref_cap * 2 : 16;
  while (nc < n) nc *= 2;
  void **a = wire__realloc(ctx, m->dref, m->dref_cap * sizeof *a, nc * sizeof *a);
  if (!a) return false;
  m->dref = a;
  uint32_t *b = wire__realloc(ctx, m->dref_layout, m->dref_cap * sizeof *b,
                              nc * sizeof *b);
  if (!b) return false;
  m->dref_layout = b;
  m->dref_cap = nc;
  return true;
}

/* ---- building layouts -------------------------------------------------- */

int32_t wire_mem_layout_new(wire_ctx *ctx, uint32_t type, uint32_t size,
                            uint32_t *out_layout) {
  if (!ctx || !out_layout) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_mem *m = mem_of(ctx);
  if (!m) return WIRE_E_NOMEM;
  if (type != WIRE_MEM_ELEMENT) {
    if (!ctx->reg || type >= ctx->reg->ntypes ||
        ctx->reg->types[type].kind != WIRE_KIND_STRUCT)
      return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not a registered "
                        "struct", type);
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
  if (l->bound || l->binding)
    return wire__fail(ctx, WIRE_E_STATE, 0, "layout %u is bound", layout);
  uint32_t f = form & WIRE_MEM_F_MASK;
  if (f < WIRE_MEM_I8 || f > WIRE_MEM_DECIMAL || (form & ~0x1FFu))
    return wire__fail(ctx, WIRE_E_ARG, 0, "form 0x%x", form);
  if (l->type == WIRE_MEM_ELEMENT ? field > 1
                                  : field >= ctx->reg->types[l->type].nfields)
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

int32_t wire_mem_layout_table(wire_ctx *ctx, const uint32_t *rows,
                              size_t nrows, uint32_t *out_first) {
  if (!ctx || (!rows && nrows) || !out_first) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_mem *m = mem_of(ctx);
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
           f == WIRE_MEM_LIST || f == WIRE_MEM_MAP) && elem != WIRE_MEM_NONE)
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

static bool is_int_wt(uint8_t t) {
  return t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64;
}
static bool is_int_form(uint32_t f) {
  return f >= WIRE_MEM_I8 && f <= WIRE_MEM_U64;
}
/* bits and signedness of an integer wire type / form */
static int wt_bits(uint8_t t) {
  switch (t) {
  case WIRE_T_INT8: case WIRE_T_UINT8: return 8;
  case WIRE_T_INT16: case WIRE_T_UINT16: return 16;
  case WIRE_T_INT32: case WIRE_T_VARINT32: case WIRE_T_UINT32:
  case WIRE_T_VAR_UINT32: return 32;
  default: return 64;
  }
}
static bool wt_signed(uint8_t t) { return t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_INT64; }
static inline int form_bits(uint32_t f) {
  switch (f) {
  case WIRE_MEM_I8: case WIRE_MEM_U8: case WIRE_MEM_BOOL: return 8;
  case WIRE_MEM_I16: case WIRE_MEM_U16: case WIRE_MEM_BITS16: return 16;
  case WIRE_MEM_I32: case WIRE_MEM_U32: case WIRE_MEM_F32:
  case WIRE_MEM_ENUM: return 32;
  default: return 64;
  }
}
static bool form_signed(uint32_t f) { return f >= WIRE_MEM_I8 && f <= WIRE_MEM_I64; }

/* The packed memory form of a primitive element type (0: none). */
static uint8_t natural_form(uint8_t t) {
  switch (t) {
  case WIRE_T_BOOL: return WIRE_MEM_BOOL;
  case WIRE_T_INT8: return WIRE_MEM_I8;
  case WIRE_T_INT16: return WIRE_MEM_I16;
  case WIRE_T_INT32: case WIRE_T_VARINT32: return WIRE_MEM_I32;
  case WIRE_T_INT64: case WIRE_T_VARINT64: case WIRE_T_TAGGED_INT64:
    return WIRE_MEM_I64;
  case WIRE_T_UINT8: return WIRE_MEM_U8;
  case WIRE_T_UINT16: return WIRE_MEM_U16;
  case WIRE_T_UINT32: case WIRE_T_VAR_UINT32: return WIRE_MEM_U32;
  case WIRE_T_UINT64: case WIRE_T_VAR_UINT64: case WIRE_T_TAGGED_UINT64:
    return WIRE_MEM_U64;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: return WIRE_MEM_BITS16;
  case WIRE_T_FLOAT32: return WIRE_MEM_F32;
  case WIRE_T_FLOAT64: return WIRE_MEM_F64;
  default: return 0;
  }
}
/* Element type of a dense array type. */
static uint8_t array_elem(uint8_t t) {
  switch (t) {
  case WIRE_T_BOOL_ARRAY: return WIRE_T_BOOL;
  case WIRE_T_INT8_ARRAY: return WIRE_T_INT8;
  case WIRE_T_INT16_ARRAY: return WIRE_T_INT16;
  case WIRE_T_INT32_ARRAY: return WIRE_T_INT32;
  case WIRE_T_INT64_ARRAY: return WIRE_T_INT64;
  case WIRE_T_UINT8_ARRAY: return WIRE_T_UINT8;
  case WIRE_T_UINT16_ARRAY: return WIRE_T_UINT16;
  case WIRE_T_UINT32_ARRAY: return WIRE_T_UINT32;
  case WIRE_T_UINT64_ARRAY: return WIRE_T_UINT64;
  case WIRE_T_FLOAT16_ARRAY: return WIRE_T_FLOAT16;
  case WIRE_T_BFLOAT16_ARRAY: return WIRE_T_BFLOAT16;
  case WIRE_T_FLOAT32_ARRAY: return WIRE_T_FLOAT32;
  case WIRE_T_FLOAT64_ARRAY: return WIRE_T_FLOAT64;
  default: return 0;
  }
}
static uint32_t form_size(uint32_t f) { return (uint32_t)form_bits(f) / 8; }

/* Whether every value of form f fits integer wire type t. */
static bool int_fits(uint32_t f, uint8_t t) {
  int fb = form_bits(f), tb = wt_bits(t);
  bool fs = form_signed(f), ts = wt_signed(t);
  if (fs == ts) return fb <= tb;
  if (!fs && ts) return fb < tb;
  return false;
}
/* Whether every value of wire type t fits form f. */
static bool int_fits_form(uint8_t t, uint32_t f) {
  int fb = form_bits(f), tb = wt_bits(t);
  bool fs = form_signed(f), ts = wt_signed(t);
  if (fs == ts) return tb <= fb;
  if (ts && !fs) return false;
  return tb < fb;
}

static uint8_t user_kind(wire_ctx *ctx, const wire_ftype *f) {
  if (f->user == NOTYPE || !ctx->reg || f->user >= ctx->reg->ntypes) return 0;
  return ctx->reg->types[f->user].kind;
}

static int32_t bind_layout(wire_ctx *ctx, uint32_t li);

static int32_t cfail(wire_ctx *ctx, uint32_t li, const wire_mspec *s,
                     const char *what) {
  return wire__fail(ctx, WIRE_E_ARG, 0, "layout %u field %u: %s", li,
                    s ? s->field : 0, what);
}

/* Compiles one value op: wire side `wf` (the declared type, or a writer's
 * TypeDef field type), reader's declared type `rf` (same as wf for the
 * registered plan), memory side `s`. Returns WIRE_E_SCHEMA when the form
 * cannot carry the wire type (a mapping then skips the field). */
static int32_t compile_value(wire_ctx *ctx, uint32_t li, const wire_ftype *wf,
                             const wire_ftype *rf, const wire_mspec *s,
                             wire_mop *o, bool encoder) {
  wire_mem *m = ctx->mem;
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
  if (s->form & WIRE_MEM_LEN64) o->fl |= MF_LEN64;
  if (s->present != WIRE_MEM_NONE) o->fl |= MF_PRESENT;
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
  if (uk) return encoder ? cfail(ctx, li, s, "unions and ext values have no "
                                            "memory form yet")
                         : WIRE_E_SCHEMA;
  if (is_int_wt(wt)) {
    if (!is_int_form(form)) return WIRE_E_SCHEMA;
    o->code = MOP_INT;
    if (encoder ? !int_fits(form, wt) : !int_fits_form(wt, form))
      o->fl |= MF_CHECK;
    return WIRE_OK;
  }
  switch (wt) {
  case WIRE_T_BOOL:
    if (form != WIRE_MEM_BOOL) return WIRE_E_SCHEMA;
    o->code = MOP_BOOL;
    return WIRE_OK;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16:
    if (form != WIRE_MEM_BITS16) return WIRE_E_SCHEMA;
    o->code = MOP_BITS16;
    return WIRE_OK;
  case WIRE_T_FLOAT32: case WIRE_T_FLOAT64:
    if (form != WIRE_MEM_F32 && form != WIRE_MEM_F64) return WIRE_E_SCHEMA;
    o->code = wt == WIRE_T_FLOAT32 ? MOP_F32 : MOP_F64;
    return WIRE_OK;
  case WIRE_T_STRING:
    if (form != WIRE_MEM_STR || s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    o->code = MOP_STR;
    return WIRE_OK;
  case WIRE_T_BINARY:
    if (form != WIRE_MEM_BYTES || s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    o->code = MOP_BYTES;
    return WIRE_OK;
  case WIRE_T_DATE:
    if (form != WIRE_MEM_DATE) return WIRE_E_SCHEMA;
    o->code = MOP_DATE;
    return WIRE_OK;
  case WIRE_T_TIMESTAMP:
    if (form != WIRE_MEM_TIMESTAMP) return WIRE_E_SCHEMA;
    o->code = MOP_TIMESTAMP;
    return WIRE_OK;
  case WIRE_T_DURATION:
    if (form != WIRE_MEM_DURATION) return WIRE_E_SCHEMA;
    o->code = MOP_DURATION;
    return WIRE_OK;
  case WIRE_T_DECIMAL:
    if (form != WIRE_MEM_DECIMAL) return WIRE_E_SCHEMA;
    o->code = MOP_DECIMAL;
    return WIRE_OK;
  default:
    break;
  }
  /* the reader's element type decides the packed memory width */
  if (array_elem(wt)) {
    uint8_t re = array_elem(rf->type_id);
    if (!re && (rf->type_id == WIRE_T_LIST || rf->type_id == WIRE_T_SET) &&
        rf->elem)
      re = rf->elem->type_id;
    if (form != WIRE_MEM_ARRAY || s->aux == WIRE_MEM_NONE || !natural_form(re))
      return WIRE_E_SCHEMA;
    o->code = MOP_DENSE;
    o->ewt = array_elem(wt);
    o->eform = natural_form(re);
    if (natural_form(o->ewt) != o->eform &&
        !(is_int_form(o->eform) && is_int_wt(o->ewt)))
      return WIRE_E_SCHEMA;
    return WIRE_OK;
  }
  if ((wt == WIRE_T_LIST || wt == WIRE_T_SET) && wf->elem) {
    if (s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    if (form == WIRE_MEM_ARRAY) {
      uint8_t re = array_elem(rf->type_id);
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
    } else if (form == WIRE_MEM_LIST) {
      if (s->elem >= m->n) return cfail(ctx, li, s, "no element layout");
      o->code = MOP_LIST;
    } else {
      return WIRE_E_SCHEMA;
    }
  } else if (wt == WIRE_T_MAP && wf->key && wf->value) {
    if (form != WIRE_MEM_MAP || s->aux == WIRE_MEM_NONE) return WIRE_E_SCHEMA;
    if (s->elem >= m->n || m->layouts[s->elem].type != WIRE_MEM_ELEMENT)
      return cfail(ctx, li, s, "map entries need an element layout");
    o->code = MOP_MAP;
  } else {
    return encoder ? cfail(ctx, li, s, "declared type has no memory form")
                   : WIRE_E_SCHEMA;
  }
  /* element ops: from the element layout's slots */
  wire_mlayout *el = &m->layouts[s->elem];
  if (o->code == MOP_PLIST) {
    uint8_t h = 0;
    const wire_ftype *ed;
    h = wire__pol_list_header(ctx, wf, true, false, false, &ed);
    o->lh = h;
    o->lh_null = h;
    return WIRE_OK;
  }
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
      st = compile_value(ctx, li, we, re, &is, &o->sub[k], encoder);
    } else {
      const wire_mspec *es = NULL;
      for (uint32_t i = 0; i < el->nspecs; i++)
        if (el->specs[i].field == (uint32_t)k) es = &el->specs[i];
      if (!es) return cfail(ctx, li, s, "element layout without slot");
      st = compile_value(ctx, li, we, re, es, &o->sub[k], encoder);
    }
    if (st) return st;
    o->sub[k].ft = we;
  }
  if (o->code == MOP_LIST) {
    const wire_ftype *ed;
    o->lh = wire__pol_list_header(ctx, wf, true, false, false, &ed);
    o->lh_null = wire__pol_list_header(ctx, wf, true, true, false, &ed);
  }
  return WIRE_OK;
}

/* Framing of a field (R-FIELD-*, policy.h). */
static void frame(wire_ctx *ctx, const wire_ftype *f, wire_mop *o) {
  bool flag = f->nullable || f->ref;
  bool dynamic = !wire__pol_static_type(ctx, f);
  if (dynamic) o->fl |= MF_META;
  if (flag) o->fl |= MF_FLAG;
  if (f->ref) o->fl |= MF_REF;
  bool trackable = dynamic || wire__pol_trackable(o->wt) ||
                   o->code == MOP_STRUCT || o->code == MOP_STRUCT_PTR;
  if (f->ref && ctx->ref_tracking && trackable) o->fl |= MF_TRACK;
}

/* Chooses the inline cases of a plan's ops and the reserve sums. */
static void fast_paths(wire_mop *ops, uint32_t n) {
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
        if (o->wt == WIRE_T_VARINT32 && o->form == WIRE_MEM_I64) o->x = MX_VI32_64;
        break;
      case MOP_BOOL: o->x = MX_BOOL; need = 1; break;
      case MOP_ENUM:
        if (o->form == WIRE_MEM_ENUM || o->form == WIRE_MEM_U32) { o->x = MX_ENUM; need = 5; }
        break;
      case MOP_F32: if (o->form == WIRE_MEM_F32) { o->x = MX_F32; need = 4; } break;
      case MOP_F64: if (o->form == WIRE_MEM_F64) { o->x = MX_F64; need = 8; } break;
      case MOP_STR: if (!(o->fl & MF_LEN64)) { o->x = MX_STR; need = 5; } break;
      default: break;
      }
    }
    rest += need;
    o->rest = rest;
    if (o->x == MX_SLOW) rest = 0;
  }
}

static const wire_mspec *spec_of(const wire_mlayout *l, uint32_t field) {
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
    const wire_mspec *s = spec_of(&m->layouts[li], lf->local);
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
    st = compile_value(ctx, li, lf->type, lf->type, s, o, true);
    if (st == WIRE_E_SCHEMA)
      return cfail(ctx, li, s, "the form cannot carry the field's type");
    if (st) return st;
    o->local = lf->local;
    frame(ctx, lf->type, o);
    if (lf->type->nullable && !(o->fl & MF_PRESENT) &&
        o->code != MOP_STRUCT_PTR && o->code != MOP_STR &&
        o->code != MOP_BYTES && o->code != MOP_LIST && o->code != MOP_PLIST &&
        o->code != MOP_DENSE && o->code != MOP_MAP)
      return cfail(ctx, li, s, "a nullable field needs a presence flag");
    n++;
  }
  fast_paths(ops, n);
  wire_mlayout *l = &m->layouts[li];
  l->plan.ops = ops;
  l->plan.nops = n;
  l->kind = wire__struct_kind(ctx, t);
  if (l->kind == WIRE_T_COMPATIBLE_STRUCT ||
      l->kind == WIRE_T_NAMED_COMPATIBLE_STRUCT ||
      (ctx->compatible && l->kind == WIRE_T_NAMED_STRUCT)) {
    wire_buf b = {ctx, NULL, 0, 0, false, WIRE_OK};
    st = wire__typedef_build(ctx, ti, &b);
    if (st) {
      wire__free(ctx, b.p, b.cap);
      return st;
    }
    l->td = wire__arena_alloc(&m->arena, b.len);
    if (!l->td) {
      wire__free(ctx, b.p, b.cap);
      return nomem(ctx);
    }
    memcpy(l->td, b.p, b.len);
    l->td_len = (uint32_t)b.len;
    wire__free(ctx, b.p, b.cap);
  }
  return WIRE_OK;
}

static int32_t bind_layout(wire_ctx *ctx, uint32_t li) {
  wire_mem *m = ctx->mem;
  wire_mlayout *l = &m->layouts[li];
  if (l->bound || l->binding) return WIRE_OK;
  l->binding = true;
  int32_t st = WIRE_OK;
  if (l->type != WIRE_MEM_ELEMENT) st = bind_struct(ctx, li);
  l = &m->layouts[li];
  l->binding = false;
  if (st == WIRE_OK) l->bound = true;
  return st;
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

/* ---- memory access ----------------------------------------------------- */

#define AT(base, off) ((const uint8_t *)(base) + (off))

static inline uint64_t ld_u(const uint8_t *p, uint32_t form) {
  switch (form) {
  case WIRE_MEM_I8: { int8_t v; memcpy(&v, p, 1); return (uint64_t)(int64_t)v; }
  case WIRE_MEM_I16: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
  case WIRE_MEM_I32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
  case WIRE_MEM_U8: case WIRE_MEM_BOOL: return *p;
  case WIRE_MEM_U16: case WIRE_MEM_BITS16: { uint16_t v; memcpy(&v, p, 2); return v; }
  case WIRE_MEM_U32: case WIRE_MEM_ENUM: case WIRE_MEM_F32: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}
static inline void st_u(uint8_t *p, uint32_t form, uint64_t v) {
  switch (form_bits(form)) {
  case 8: *p = (uint8_t)v; break;
  case 16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}
static inline uint64_t ld_len(const uint8_t *base, const wire_mop *o) {
  if (o->fl & MF_LEN64) { uint64_t v; memcpy(&v, base + o->aux, 8); return v; }
  uint32_t v;
  memcpy(&v, base + o->aux, 4);
  return v;
}
static inline void st_len(uint8_t *base, const wire_mop *o, uint64_t n) {
  if (o->fl & MF_LEN64) memcpy(base + o->aux, &n, 8);
  else { uint32_t v = (uint32_t)n; memcpy(base + o->aux, &v, 4); }
}
static inline const void *ld_ptr(const uint8_t *p) {
  const void *v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline void st_ptr(uint8_t *p, const void *v) { memcpy(p, &v, sizeof v); }

/* Whether an integer value of form f (raw as loaded) fits wire type t. */
static bool int_in_range(uint64_t raw, uint32_t f, uint8_t t) {
  int tb = wt_bits(t);
  if (form_signed(f)) {
    int64_t v = (int64_t)raw;
    if (wt_signed(t)) return tb == 64 || (v >= -(INT64_C(1) << (tb - 1)) &&
                                          v < (INT64_C(1) << (tb - 1)));
    return v >= 0 && (tb == 64 || (uint64_t)v < (UINT64_C(1) << tb));
  }
  if (wt_signed(t)) return raw < (UINT64_C(1) << (tb - 1));
  return tb == 64 || raw < (UINT64_C(1) << tb);
}
/* Whether a decoded value of wire type t (raw: sign- or zero-extended) fits
 * form f. */
static bool form_in_range(uint64_t raw, uint8_t t, uint32_t f) {
  int fb = form_bits(f);
  if (wt_signed(t)) {
    int64_t v = (int64_t)raw;
    if (form_signed(f)) return fb == 64 || (v >= -(INT64_C(1) << (fb - 1)) &&
                                            v < (INT64_C(1) << (fb - 1)));
    return v >= 0 && (fb == 64 || (uint64_t)v < (UINT64_C(1) << fb));
  }
  if (form_signed(f)) return raw < (UINT64_C(1) << (fb - 1));
  return fb == 64 || raw < (UINT64_C(1) << fb);
}

/* Whether the value of op o at base is null (nullable fields). */
static inline bool is_null(const wire_mop *o, const uint8_t *base) {
  if (o->fl & MF_PRESENT) return base[o->present] == 0;
  switch (o->code) {
  case MOP_NONE: return true;
  case MOP_STRUCT_PTR: return ld_ptr(base + o->off) == NULL;
  case MOP_STR: case MOP_BYTES: case MOP_LIST: case MOP_PLIST: case MOP_DENSE:
  case MOP_MAP:
    return (o->ft->nullable) && ld_ptr(base + o->off) == NULL;
  default: return false;
  }
}

/* ===================================================================== */
/* Encoding                                                              */
/* ===================================================================== */

typedef struct {
  wire_ctx *ctx;
  wire_mem *m;
  wire_buf *b;
  uint32_t depth;
} menc;

static bool efail(menc *e, int32_t code, const char *what) {
  wire__fail(e->ctx, code, e->b->len, "%s", what);
  return false;
}

static inline bool room(menc *e, size_t n) {
  wire_buf *b = e->b;
  if (WIRE_LIKELY(b->cap - b->len >= n)) return true;
  if (wire__buf_grow(b, n) != WIRE_OK) return efail(e, WIRE_E_NOMEM, "out of memory");
  return true;
}

static inline uint8_t *put_varu32(uint8_t *q, uint32_t v) {
  if (v < 0x80) { q[0] = (uint8_t)v; return q + 1; }
  q[0] = (uint8_t)(v | 0x80);
  if (v < 0x4000) { q[1] = (uint8_t)(v >> 7); return q + 2; }
  q[1] = (uint8_t)((v >> 7) | 0x80);
  if (v < 0x200000) { q[2] = (uint8_t)(v >> 14); return q + 3; }
  q[2] = (uint8_t)((v >> 14) | 0x80);
  if (v < 0x10000000) { q[3] = (uint8_t)(v >> 21); return q + 4; }
  q[3] = (uint8_t)((v >> 21) | 0x80);
  q[4] = (uint8_t)(v >> 28);
  return q + 5;
}
static inline uint8_t *put_varu64(uint8_t *q, uint64_t v) {
  if (v < (UINT64_C(1) << 28)) return put_varu32(q, (uint32_t)v);
  int n = 0;
  while (v >= 0x80 && n < 8) { *q++ = (uint8_t)(v | 0x80); v >>= 7; n++; }
  *q++ = (uint8_t)v;
  return q;
}
static inline uint8_t *put_le(uint8_t *q, uint64_t v, int n) {
  memcpy(q, &v, 8); /* little-endian host; room for 8 reserved */
  return q + n;
}

static bool enc_struct_body(menc *e, const wire_mlayout *l, const uint8_t *base);

/* Type meta of a struct value of layout l. */
static bool enc_meta(menc *e, const wire_mlayout *l) {
  wire_mem *m = e->m;
  uint32_t ti = l->type;
  if (l->td) {
    if (!room(e, 6 + l->td_len)) return false;
    uint8_t *q = e->b->p + e->b->len;
    *q++ = l->kind;
    if (m->td_gen[ti] == m->gen) {
      q = put_varu32(q, (m->td_idx[ti] << 1) | 1);
    } else {
      m->td_gen[ti] = m->gen;
      m->td_idx[ti] = m->next_td;
      q = put_varu32(q, m->next_td++ << 1);
      memcpy(q, l->td, l->td_len);
      q += l->td_len;
    }
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  wire_utype *t = &e->ctx->reg->types[ti];
  if (l->kind == WIRE_T_STRUCT) {
    if (!room(e, 6)) return false;
    uint8_t *q = e->b->p + e->b->len;
    *q++ = l->kind;
    q = put_varu32(q, t->user_id);
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  /* named same-schema structs: meta strings through the writer policy */
  wire_user_meta um = {UINT32_MAX, NULL, t->layout, -1, -1};
  return wire__enc_type_meta(&m->e, l->kind, &um); /* e->b is &m->e.b */
}

static bool enc_str(menc *e, const uint8_t *s, uint64_t len) {
  wire_ctx *ctx = e->ctx;
  if (len > UINT32_MAX) return efail(e, WIRE_E_LENGTH, "string longer than 4 GiB");
  if (len && !s) return efail(e, WIRE_E_ENCODE, "NULL string with a length");
  if (!ctx->trusted_text && wire__utf8_check(s, (size_t)len) != len)
    return efail(e, WIRE_E_STRING, "invalid UTF-8");
  int32_t enc = WIRE_STR_UTF8;
  if (ctx->string_policy == WIRE_STRING_JAVA)
    enc = wire__java_encoding_of(WIRE_STR_UTF8, s, (size_t)len);
  if (enc == WIRE_STR_UTF8) {
    if (!room(e, 9 + len)) return false;
    uint8_t *q = e->b->p + e->b->len;
    uint64_t h = (len << 2) | WIRE_STR_UTF8;
    int n = 0;
    while (h >= 0x80 && n < 4) { *q++ = (uint8_t)(h | 0x80); h >>= 7; n++; }
    *q++ = (uint8_t)h;
    memcpy(q, s, (size_t)len);
    e->b->len = (size_t)(q - e->b->p) + (size_t)len;
    return true;
  }
  size_t wl = wire__transcode_len(WIRE_STR_UTF8, enc, s, (size_t)len);
  if (!room(e, 9 + wl)) return false;
  uint8_t *q = e->b->p + e->b->len;
  uint64_t h = ((uint64_t)wl << 2) | (uint64_t)enc;
  int n = 0;
  while (h >= 0x80 && n < 4) { *q++ = (uint8_t)(h | 0x80); h >>= 7; n++; }
  *q++ = (uint8_t)h;
  wire__transcode(WIRE_STR_UTF8, enc, s, (size_t)len, q, wl);
  e->b->len = (size_t)(q - e->b->p) + wl;
  return true;
}

static inline bool enc_int(menc *e, const wire_mop *o, uint64_t raw) {
  if ((o->fl & MF_CHECK) && !int_in_range(raw, o->form, o->wt))
    return efail(e, WIRE_E_ENCODE, "integer out of the range of its wire type");
  uint8_t *q = e->b->p + e->b->len;
  switch (o->wt) {
  case WIRE_T_INT8: case WIRE_T_UINT8: *q++ = (uint8_t)raw; break;
  case WIRE_T_INT16: case WIRE_T_UINT16: q = put_le(q, raw, 2); break;
  case WIRE_T_INT32: case WIRE_T_UINT32: q = put_le(q, raw, 4); break;
  case WIRE_T_INT64: case WIRE_T_UINT64: q = put_le(q, raw, 8); break;
  case WIRE_T_VARINT32: q = put_varu32(q, wire__zz32((int32_t)raw)); break;
  case WIRE_T_VAR_UINT32: q = put_varu32(q, (uint32_t)raw); break;
  case WIRE_T_VARINT64: q = put_varu64(q, wire__zz64((int64_t)raw)); break;
  case WIRE_T_VAR_UINT64: q = put_varu64(q, raw); break;
  case WIRE_T_TAGGED_INT64: {
    int64_t v = (int64_t)raw;
    if (v >= -(INT64_C(1) << 30) && v < (INT64_C(1) << 30)) {
      q = put_le(q, (uint32_t)((uint32_t)(int32_t)v << 1), 4);
    } else {
      *q++ = 1;
      q = put_le(q, raw, 8);
    }
    break;
  }
  default: /* TAGGED_UINT64 */
    if (raw < (UINT64_C(1) << 31)) q = put_le(q, (uint32_t)raw << 1, 4);
    else { *q++ = 1; q = put_le(q, raw, 8); }
    break;
  }
  e->b->len = (size_t)(q - e->b->p);
  return true;
}

/* A primitive element of a packed list / dense conversion. */
static inline bool enc_prim_elem(menc *e, uint8_t wt, uint8_t form,
                                 const uint8_t *p) {
  wire_mop o = {0};
  o.wt = wt;
  o.form = form;
  uint64_t raw = ld_u(p, form);
  if (is_int_wt(wt)) {
    o.fl = int_fits(form, wt) ? 0 : MF_CHECK;
    return enc_int(e, &o, raw);
  }
  uint8_t *q = e->b->p + e->b->len;
  switch (wt) {
  case WIRE_T_BOOL: *q++ = raw ? 1 : 0; break;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: q = put_le(q, raw, 2); break;
  case WIRE_T_FLOAT32: q = put_le(q, raw, 4); break;
  default: q = put_le(q, raw, 8); break;
  }
  e->b->len = (size_t)(q - e->b->p);
  return true;
}

static bool enc_body(menc *e, const wire_mop *o, const uint8_t *base);

/* The reference / null flag of a value with MF_FLAG, and whether the body
 * follows (*body). Struct pointers under tracking: an earlier equal
 * pointer is written as a reference. */
static bool enc_flag(menc *e, const wire_mop *o, const uint8_t *base,
                     bool *body) {
  *body = false;
  if (!room(e, 6)) return false;
  uint8_t *q = e->b->p + e->b->len;
  if (is_null(o, base)) {
    *q = 0xFD;
    e->b->len++;
    return true;
  }
  *body = true;
  if (!(o->fl & MF_TRACK)) {
    *q = 0xFF;
    e->b->len++;
    return true;
  }
  wire_mem *m = e->m;
  if (o->code == MOP_STRUCT_PTR) {
    const void *p = ld_ptr(base + o->off);
    for (uint32_t i = 0; i < m->nref; i++)
      if (m->refp[i] == p) {
        *q++ = 0xFE;
        q = put_varu32(q, m->refid[i]);
        e->b->len = (size_t)(q - e->b->p);
        *body = false;
        return true;
      }
    if (m->nref >= 1u << 20) return efail(e, WIRE_E_LIMIT, "too many references");
    if (!ref_room(e->ctx, m, m->nref + 1))
      return efail(e, WIRE_E_NOMEM, "out of memory");
    m->refp[m->nref] = p;
    m->refid[m->nref++] = m->e.nrefs;
  }
  m->e.nrefs++;
  *q = 0x00;
  e->b->len++;
  return true;
}

static bool enc_list(menc *e, const wire_mop *o, const uint8_t *base) {
  const uint8_t *items = ld_ptr(base + o->off);
  uint64_t count = ld_len(base, o);
  if (count > UINT32_MAX) return efail(e, WIRE_E_LENGTH, "list too long");
  if (count && !items) return efail(e, WIRE_E_ENCODE, "NULL list with a count");
  if (!room(e, 16)) return false;
  uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)count);
  e->b->len = (size_t)(q - e->b->p);
  if (!count) return true;
  if (o->code == MOP_PLIST) {
    *q++ = o->lh;
    e->b->len++;
    if (!(o->lh & WIRE_LF_DECL)) {
      *q++ = o->ewt;
      e->b->len++;
    }
    uint32_t w = form_size(o->eform);
    if (!room(e, count * 10)) return false;
    for (uint64_t i = 0; i < count; i++)
      if (!enc_prim_elem(e, o->ewt, o->eform, items + i * w)) return false;
    return true;
  }
  const wire_mop *so = &o->sub[0];
  bool has_null = false;
  if (so->ft->nullable || (so->fl & MF_PRESENT))
    for (uint64_t i = 0; i < count && !has_null; i++)
      has_null = is_null(so, items + i * o->esize);
  uint8_t h = has_null ? o->lh_null : o->lh;
  q = e->b->p + e->b->len;
  *q = h;
  e->b->len++;
  if ((h & WIRE_LF_SAME_TYPE) && !(h & WIRE_LF_DECL)) {
    if (so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR) {
      if (!enc_meta(e, &e->m->layouts[so->elem])) return false;
    } else {
      if (!room(e, 1)) return false;
      e->b->p[e->b->len++] = so->wt;
    }
  } else if (!(h & WIRE_LF_DECL)) {
    return efail(e, WIRE_E_UNSUPPORTED, "list elements of undeclared type");
  }
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire_mop fo = *so;
  fo.fl = (uint8_t)((fo.fl & ~(MF_TRACK | MF_META)) |
                    ((h & WIRE_LF_TRACKING) && e->ctx->ref_tracking &&
                             (wire__pol_trackable(so->wt) ||
                              so->code == MOP_STRUCT_PTR)
                         ? MF_TRACK : 0));
  if (!flags && so->code == MOP_STRUCT) {
    const wire_mlayout *el = &e->m->layouts[so->elem];
    for (uint64_t i = 0; i < count; i++)
      if (!enc_struct_body(e, el, items + i * o->esize + so->off)) return false;
    return true;
  }
  for (uint64_t i = 0; i < count; i++) {
    const uint8_t *it = items + i * o->esize;
    if (flags) {
      bool body;
      if (!enc_flag(e, &fo, it, &body)) return false;
      if (!body) continue;
    }
    if (!enc_body(e, so, it)) return false;
  }
  return true;
}

static bool enc_map(menc *e, const wire_mop *o, const uint8_t *base) {
  const uint8_t *items = ld_ptr(base + o->off);
  uint64_t count = ld_len(base, o);
  if (count > UINT32_MAX) return efail(e, WIRE_E_LENGTH, "map too large");
  if (count && !items) return efail(e, WIRE_E_ENCODE, "NULL map with a count");
  if (!room(e, 8)) return false;
  uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)count);
  e->b->len = (size_t)(q - e->b->p);
  const wire_mop *ko = &o->sub[0], *vo = &o->sub[1];
  const wire_ftype *kd = wire__pol_map_decl(e->ctx, o->ft->key);
  const wire_ftype *vd = wire__pol_map_decl(e->ctx, o->ft->value);
  uint32_t h = wire__pol_chunk(o->ft, kd, vd, false, false);
  if (h & (WIRE_MF_KEY_TRACK | WIRE_MF_VAL_TRACK))
    return efail(e, WIRE_E_UNSUPPORTED, "tracked map entries");
  uint64_t at = 0;
  while (at < count) {
    uint64_t size = count - at;
    if (size > WIRE_POL_CHUNK_MAX - 1) size = WIRE_POL_CHUNK_MAX - 1;
    /* null keys or values go in chunks of their own */
    uint64_t k;
    for (k = 0; k < size; k++) {
      const uint8_t *it = items + (at + k) * o->esize;
      if (is_null(ko, it) || is_null(vo, it)) break;
    }
    if (k == 0) {
      const uint8_t *it = items + at * o->esize;
      bool kn = is_null(ko, it), vn = is_null(vo, it);
      uint32_t nh = wire__pol_null_chunk(kn, vn, kd, vd);
      if (!room(e, 1)) return false;
      e->b->p[e->b->len++] = (uint8_t)nh;
      if (!kn) {
        if (!kd) return efail(e, WIRE_E_UNSUPPORTED, "map key of undeclared type");
        if ((nh & WIRE_MF_KEY_TRACK) && !room(e, 1)) return false;
        if (nh & WIRE_MF_KEY_TRACK) e->b->p[e->b->len++] = 0xFF;
        if (!enc_body(e, ko, it)) return false;
      }
      if (!vn) {
        if (!vd) {
          if (vo->code != MOP_STRUCT && vo->code != MOP_STRUCT_PTR)
            return efail(e, WIRE_E_UNSUPPORTED, "map value of undeclared type");
          if (!room(e, 1)) return false;
          e->b->p[e->b->len++] = 0xFF;
          if (!enc_meta(e, &e->m->layouts[vo->elem])) return false;
        } else if (nh & WIRE_MF_VAL_TRACK) {
          if (!room(e, 1)) return false;
          e->b->p[e->b->len++] = 0xFF;
        }
        if (!enc_body(e, vo, it)) return false;
      }
      at++;
      continue;
    }
    size = k;
    if (!room(e, 2)) return false;
    e->b->p[e->b->len++] = (uint8_t)h;
    e->b->p[e->b->len++] = (uint8_t)size;
    if (!kd) {
      if (ko->code != MOP_STRUCT && ko->code != MOP_STRUCT_PTR)
        return efail(e, WIRE_E_UNSUPPORTED, "map key of undeclared type");
      if (!enc_meta(e, &e->m->layouts[ko->elem])) return false;
    }
    if (!vd) {
      if (vo->code != MOP_STRUCT && vo->code != MOP_STRUCT_PTR)
        return efail(e, WIRE_E_UNSUPPORTED, "map value of undeclared type");
      if (!enc_meta(e, &e->m->layouts[vo->elem])) return false;
    }
    for (uint64_t i = 0; i < size; i++) {
      const uint8_t *it = items + (at + i) * o->esize;
      if (!enc_body(e, ko, it) || !enc_body(e, vo, it)) return false;
    }
    at += size;
  }
  return true;
}

static bool enc_body(menc *e, const wire_mop *o, const uint8_t *base) {
  if (!room(e, 16)) return false;
  const uint8_t *p = base + o->off;
  switch (o->code) {
  case MOP_INT:
    return enc_int(e, o, ld_u(p, o->form));
  case MOP_ENUM: {
    uint64_t v = ld_u(p, o->form);
    if (v > UINT32_MAX || (form_signed(o->form) && (int64_t)v < 0))
      return efail(e, WIRE_E_ENCODE, "enum value out of range");
    uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)v);
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  case MOP_BOOL:
    e->b->p[e->b->len++] = *p ? 1 : 0;
    return true;
  case MOP_BITS16:
    memcpy(e->b->p + e->b->len, p, 2);
    e->b->len += 2;
    return true;
  case MOP_F32:
    if (o->form == WIRE_MEM_F32) memcpy(e->b->p + e->b->len, p, 4);
    else { double d; memcpy(&d, p, 8); float f = (float)d; memcpy(e->b->p + e->b->len, &f, 4); }
    e->b->len += 4;
    return true;
  case MOP_F64:
    if (o->form == WIRE_MEM_F64) memcpy(e->b->p + e->b->len, p, 8);
    else { float f; memcpy(&f, p, 4); double d = f; memcpy(e->b->p + e->b->len, &d, 8); }
    e->b->len += 8;
    return true;
  case MOP_STR:
    return enc_str(e, ld_ptr(p), ld_len(base, o));
  case MOP_BYTES: case MOP_DENSE: {
    const uint8_t *d = ld_ptr(p);
    uint64_t n = ld_len(base, o);
    uint32_t w = o->code == MOP_DENSE ? form_size(o->eform) : 1;
    if (n > UINT32_MAX / (w ? w : 1))
      return efail(e, WIRE_E_LENGTH, "payload longer than 4 GiB");
    if (n && !d) return efail(e, WIRE_E_ENCODE, "NULL data with a length");
    uint32_t ww = o->code == MOP_DENSE ? wire_type_array_width(o->wt) : 1;
    if (!room(e, 5 + n * ww + 8)) return false;
    uint8_t *q = put_varu32(e->b->p + e->b->len, (uint32_t)(n * ww));
    if (o->code == MOP_BYTES || natural_form(o->ewt) == o->eform) {
      if (n) memcpy(q, d, (size_t)(n * ww));
      e->b->len = (size_t)(q - e->b->p) + (size_t)(n * ww);
      return true;
    }
    e->b->len = (size_t)(q - e->b->p);
    for (uint64_t i = 0; i < n; i++) {
      uint64_t raw = ld_u(d + i * w, o->eform);
      if (!int_in_range(raw, o->eform, o->ewt))
        return efail(e, WIRE_E_ENCODE, "array element out of range");
      q = put_le(e->b->p + e->b->len, raw, (int)ww);
      e->b->len += ww;
    }
    return true;
  }
  case MOP_LIST: case MOP_PLIST:
    return enc_list(e, o, base);
  case MOP_MAP:
    return enc_map(e, o, base);
  case MOP_STRUCT:
    return enc_struct_body(e, &e->m->layouts[o->elem], p);
  case MOP_STRUCT_PTR: {
    const uint8_t *s = ld_ptr(p);
    if (!s) return efail(e, WIRE_E_ENCODE, "NULL struct pointer in a "
                                           "non-nullable slot");
    return enc_struct_body(e, &e->m->layouts[o->elem], s);
  }
  case MOP_DATE: {
    int64_t v;
    memcpy(&v, p, 8);
    uint8_t *q = put_varu64(e->b->p + e->b->len, wire__zz64(v));
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  case MOP_TIMESTAMP: case MOP_DURATION: {
    wire_mem_time t;
    memcpy(&t, p, sizeof t);
    if (t.nanos >= 1000000000u)
      return efail(e, WIRE_E_ENCODE, "nanoseconds out of range");
    uint8_t *q = e->b->p + e->b->len;
    if (o->code == MOP_TIMESTAMP) q = put_le(q, (uint64_t)t.seconds, 8);
    else q = put_varu64(q, wire__zz64(t.seconds));
    q = put_le(q, t.nanos, 4);
    e->b->len = (size_t)(q - e->b->p);
    return true;
  }
  case MOP_DECIMAL: {
    wire_mem_decimal dv;
    memcpy(&dv, p, sizeof dv);
    if (dv.len && !dv.magnitude)
      return efail(e, WIRE_E_ENCODE, "NULL decimal magnitude");
    return wire__enc_decimal(&e->m->e, dv.scale, dv.negative != 0,
                             dv.magnitude, dv.len); /* e->b is &m->e.b */
  }
  default:
    return efail(e, WIRE_E_ENCODE, "value has no encoding");
  }
}

static bool enc_struct_body(menc *e, const wire_mlayout *l,
                            const uint8_t *base) {
  if (WIRE_UNLIKELY(++e->depth > e->ctx->max_depth))
    return efail(e, WIRE_E_DEPTH, "nesting deeper than the depth limit");
  wire_buf *b = e->b;
  if (!e->ctx->compatible &&
      (l->kind == WIRE_T_STRUCT || l->kind == WIRE_T_NAMED_STRUCT)) {
    if (!room(e, 4)) return false;
    b->len = (size_t)(put_le(b->p + b->len,
                             e->ctx->reg->types[l->type].layout->schema_hash,
                             4) - b->p);
  }
  const wire_mop *o = l->plan.ops, *end = o + l->plan.nops;
  /* strings as given: UTF-8 unless the Java policy asks otherwise, checked
   * unless the caller vouches for them */
  const bool raw_str = e->ctx->trusted_text &&
                       e->ctx->string_policy != WIRE_STRING_JAVA;
  if (o < end && !room(e, o->rest + 8)) return false;
  uint8_t *q = b->p + b->len;
  for (; o < end; o++) {
    const uint8_t *p = base + o->off;
    switch (o->x) {
    case MX_VI32: {
      int32_t v;
      memcpy(&v, p, 4);
      q = put_varu32(q, wire__zz32(v));
      continue;
    }
    case MX_VI64: {
      int64_t v;
      memcpy(&v, p, 8);
      q = put_varu64(q, wire__zz64(v));
      continue;
    }
    case MX_BOOL: *q++ = *p ? 1 : 0; continue;
    case MX_ENUM: {
      uint32_t v;
      memcpy(&v, p, 4);
      q = put_varu32(q, v);
      continue;
    }
    case MX_F32: memcpy(q, p, 4); q += 4; continue;
    case MX_F64: memcpy(q, p, 8); q += 8; continue;
    case MX_STR:
      if (raw_str) {
        const uint8_t *sp = ld_ptr(p);
        uint32_t len;
        memcpy(&len, base + o->aux, 4);
        if (len && !sp) break;
        /* room: header and text, and what the next inline ops write */
        size_t more = o + 1 < end ? o[1].rest : 0;
        if (WIRE_UNLIKELY((size_t)(b->p + b->cap - q) < (size_t)len + 5 + more + 8)) {
          b->len = (size_t)(q - b->p);
          if (!room(e, (size_t)len + 5 + more + 8)) return false;
          q = b->p + b->len;
        }
        q = put_varu64(q, ((uint64_t)len << 2) | WIRE_STR_UTF8);
        if (len <= 16) {
          for (uint32_t k = 0; k < len; k++) q[k] = sp[k];
        } else {
          memcpy(q, sp, len);
        }
        q += len;
        continue;
      }
      break;
    default:
      break;
    }
    /* the general path */
    b->len = (size_t)(q - b->p);
    if (o->fl & MF_FLAG) {
      bool body;
      if (!enc_flag(e, o, base, &body)) return false;
      if (!body) goto next;
    } else if (WIRE_UNLIKELY(o->code == MOP_NONE)) {
      return efail(e, WIRE_E_ENCODE, "a non-nullable field of the struct is "
                                     "not bound to memory");
    }
    if (o->fl & MF_META) {
      if (!enc_meta(e, &e->m->layouts[o->elem])) return false;
    }
    if (!enc_body(e, o, base)) return false;
  next:
    if (o + 1 < end && !room(e, o[1].rest + 8)) return false;
    q = b->p + b->len;
  }
  b->len = (size_t)(q - b->p);
  e->depth--;
  return true;
}

static int32_t mem_encode(wire_ctx *ctx, uint32_t layout, const void *value,
                          wire_buf *b) {
  if (!ctx->mem || layout >= ctx->mem->n)
    return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_mem *m = ctx->mem;
  wire_mlayout *l = &m->layouts[layout];
  if (WIRE_UNLIKELY(!l->bound)) {
    int32_t st = wire_mem_bind(ctx, layout);
    if (st) return st;
    l = &m->layouts[layout];
  }
  if (!value) return wire__fail(ctx, WIRE_E_ARG, 0, "no value");
  menc e = {ctx, m, b, 0};
  if (++m->gen == 0) {
    memset(m->td_gen, 0, m->ntd * sizeof *m->td_gen);
    m->gen = 1;
  }
  m->next_td = 0;
  m->nref = 0;
  m->e.nrefs = 0;
  if (!room(&e, 2)) return ctx->err_code;
  b->p[b->len++] = 0x01;
  /* the root: a slot of undeclared type */
  if (ctx->ref_tracking) {
    /* the root is reference 0 */
    b->p[b->len++] = 0x00;
    if (!ref_room(ctx, m, 1)) return nomem(ctx);
    m->refp[0] = value;
    m->refid[0] = 0;
    m->nref = 1;
    m->e.nrefs = 1;
  } else {
    b->p[b->len++] = 0xFF;
  }
  bool okk = enc_meta(&e, l) && enc_struct_body(&e, l, value);
  wire__enc_end_root(&m->e);
  if (!okk) return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  return WIRE_OK;
}

int32_t wire_mem_encode(wire_ctx *ctx, uint32_t layout, const void *value,
                        const uint8_t **out, size_t *out_len) {
  if (!ctx || !out || !out_len) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  if (ctx->err_code) wire_ctx_clear_error(ctx);
  wire_mem *m = ctx->mem;
  if (!m) return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_buf *b = &m->e.b;
  b->len = 0;
  b->status = WIRE_OK;
  int32_t st = mem_encode(ctx, layout, value, b);
  if (st) return st;
  *out = b->p;
  *out_len = b->len;
  return WIRE_OK;
}

int32_t wire_mem_encode_to(wire_ctx *ctx, uint32_t layout, const void *value,
                           uint8_t *buf, size_t cap, size_t *out_len) {
  const uint8_t *p;
  size_t n;
  if (!out_len || (!buf && cap)) return WIRE_E_ARG;
  *out_len = 0;
  int32_t st = wire_mem_encode(ctx, layout, value, &p, &n);
  if (st) return st;
  *out_len = n;
  if (n > cap)
    return wire__fail(ctx, WIRE_E_BUFFER_FULL, cap, "%zu bytes needed", n);
  memcpy(buf, p, n);
  return WIRE_OK;
}

/* ===================================================================== */
/* Decoding                                                              */
/* ===================================================================== */

typedef struct {
  wire_dec d;      /* the cursor and the shared reading rules */
  wire_ctx *ctx;
  wire_mem *m;
  uint8_t *arena;
  size_t cap, used;
  bool copy;
  wire_doc *scratch;
} mdec;

#define IN(x) (&(x)->d.in)

static bool dfail(mdec *x, int32_t code, const uint8_t *at, const char *what) {
  return wire__dec_fail(&x->d, code, at, "%s", what);
}

static void *aalloc(mdec *x, size_t n, size_t align) {
  size_t at = (x->used + (align - 1)) & ~(align - 1);
  if (at > x->cap || n > x->cap - at) return NULL;
  x->used = at + n;
  return x->arena + at;
}

static bool dec_struct_body(mdec *x, const wire_mplan *p,
                            const wire_mlayout *l, uint8_t *base);

/* Zero / default for a field the writer did not send or sent as null. */
static void zero_spec(const wire_mspec *s, uint8_t *base) {
  uint32_t f = s->form & WIRE_MEM_F_MASK;
  size_t n;
  switch (f) {
  case WIRE_MEM_STR: case WIRE_MEM_BYTES: case WIRE_MEM_STRUCT_PTR:
  case WIRE_MEM_LIST: case WIRE_MEM_ARRAY: case WIRE_MEM_MAP:
    n = sizeof(void *);
    break;
  case WIRE_MEM_STRUCT: n = 0; break; /* handled by the caller */
  case WIRE_MEM_DATE: n = 8; break;
  case WIRE_MEM_TIMESTAMP: case WIRE_MEM_DURATION: n = sizeof(wire_mem_time); break;
  case WIRE_MEM_DECIMAL: n = sizeof(wire_mem_decimal); break;
  default: n = form_size(f); break;
  }
  if (n) memset(base + s->offset, 0, n);
  if (s->aux != WIRE_MEM_NONE && f != WIRE_MEM_UNION)
    memset(base + s->aux, 0, (s->form & WIRE_MEM_LEN64) ? 8 : 4);
  if (s->present != WIRE_MEM_NONE) base[s->present] = 0;
}

static void zero_struct(mdec *x, const wire_mlayout *l, uint8_t *base);
static void zero_any(mdec *x, const wire_mspec *s, uint8_t *base) {
  if ((s->form & WIRE_MEM_F_MASK) == WIRE_MEM_STRUCT &&
      s->elem < x->m->n) {
    if (s->present != WIRE_MEM_NONE) base[s->present] = 0;
    zero_struct(x, &x->m->layouts[s->elem], base + s->offset);
    return;
  }
  zero_spec(s, base);
}
static void zero_struct(mdec *x, const wire_mlayout *l, uint8_t *base) {
  if (x->d.depth > x->ctx->max_depth) return;
  x->d.depth++;
  for (uint32_t i = 0; i < l->nspecs; i++) zero_any(x, &l->specs[i], base);
  x->d.depth--;
}

/* ---- writers' TypeDefs ---- */

static const wire_mspec *spec_for(const wire_mlayout *l, uint32_t local) {
  return local == NOTYPE ? NULL : spec_of(l, local);
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
    if (s && rf) st = compile_value(ctx, li, f->type, rf, s, o, false);
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
    frame(ctx, f->type, o);
  }
  uint32_t nm = 0;
  const wire_mlayout *ml = &m->layouts[li];
  for (uint32_t k = 0; k < ml->nspecs; k++) {
    bool sent = false;
    for (uint32_t i = 0; i < wl->nfields && !sent; i++)
      sent = ops[i].code != MOP_SKIP && ops[i].local == ml->specs[k].field;
    if (!sent) miss[nm++] = &ml->specs[k];
  }
  fast_paths(ops, wl->nfields);
  out->ops = ops;
  out->nops = wl->nfields;
  out->missing = miss;
  out->nmissing = nm;
  return WIRE_OK;
}

#define MAX_MAPS 64

/* The plan for TypeDef bytes td[0..len) of layout li's type: the layout's
 * own when the bytes are the registered TypeDef, else a cached mapping. */
static const wire_mplan *plan_for_td(mdec *x, uint32_t li, const uint8_t *td,
                                     size_t len, const uint8_t *at,
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
  l = &m->layouts[li];
  c->next = l->maps;
  l->maps = c;
  l->nmaps++;
  *out_wl = wl;
  return &c->plan;
}

static bool push_td(mdec *x, const wire_layout *wl, const wire_mplan *p,
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

/* Reads the type meta of a struct value expected to be of layout li and
 * gives the plan to read its body with. */
static const wire_mplan *dec_meta(mdec *x, uint32_t li) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p;
  wire_mem *m = x->m;
  wire_mlayout *l = &m->layouts[li];
  uint8_t t;
  if (!wire__get_u8(in, &t)) return NULL;
  if (t == WIRE_T_COMPATIBLE_STRUCT || t == WIRE_T_NAMED_COMPATIBLE_STRUCT ||
      (t == WIRE_T_NAMED_STRUCT && x->ctx->compatible)) {
    const uint8_t *ms = in->p;
    uint32_t marker;
    if (!wire__get_varu32(in, &marker)) return NULL;
    uint32_t index = marker >> 1;
    wire_dec *d = &x->d;
    if (marker & 1) {
      if (index >= d->ntds) {
        dfail(x, WIRE_E_TYPEDEF, ms, "TypeDef reference to an index not "
                                     "announced");
        return NULL;
      }
      if (index < m->ndtd && m->dtd[index] &&
          (m->dtd[index] == &l->plan || d->tds[index]->type_index == l->type))
        return m->dtd[index];
      /* announced by a skipped value, or for another layout of the type */
      const wire_layout *wl = d->tds[index];
      if (wl->type_index != l->type || !wl->td) {
        dfail(x, WIRE_E_SCHEMA, s, "struct of another type than the "
                                   "declared one");
        return NULL;
      }
      const wire_layout *w2;
      return plan_for_td(x, li, wl->td, wl->td_len, s, &w2);
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
    const wire_mplan *p = plan_for_td(x, li, ts, len, ts, &wl);
    if (!p) return NULL;
    if (!push_td(x, wl, p, ts)) return NULL;
    return p;
  }
  if (t != l->kind) {
    dfail(x, WIRE_E_SCHEMA, s, "struct type meta of another kind than the "
                               "layout's");
    return NULL;
  }
  wire_utype *ut = &x->ctx->reg->types[l->type];
  if (t == WIRE_T_STRUCT) {
    uint32_t id;
    const uint8_t *u = in->p;
    if (!wire__get_varu32(in, &id)) return NULL;
    if (id != ut->user_id) {
      dfail(x, WIRE_E_SCHEMA, u, "struct of another type id than the "
                                 "declared one");
      return NULL;
    }
    return &l->plan;
  }
  /* named same-schema: meta strings */
  in->p = s;
  wire_tmeta tm;
  if (!wire__dec_type_meta(&x->d, &tm)) return NULL;
  if (!tm.layout || tm.layout->type_index != l->type) {
    dfail(x, WIRE_E_SCHEMA, s, "struct of another type than the declared one");
    return NULL;
  }
  return &l->plan;
}

/* Bounds a count of items each at least `min` bytes. */
static inline bool dcount(mdec *x, const uint8_t *s, uint64_t count,
                          uint64_t min) {
  return wire__dec_check_count(&x->d, s, count, min);
}

static bool dec_str(mdec *x, const wire_mop *o, uint8_t *base,
                    bool binary) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p, *p;
  uint64_t len;
  int32_t enc = WIRE_STR_UTF8;
  if (binary) {
    uint32_t n;
    if (!wire__dec_bytes(&x->d, WIRE_T_BINARY, &p, &n)) return false;
    len = n;
  } else {
    /* fast path: short UTF-8 strings */
    uint64_t h;
    if (WIRE_LIKELY(in->p < in->end && in->p[0] < 0x80 && (in->p[0] & 3) == 2)) {
      h = *in->p++;
      len = h >> 2;
      if (WIRE_UNLIKELY((size_t)(in->end - in->p) < len))
        return wire__truncated(in, (size_t)len);
      p = in->p;
      in->p += len;
      size_t i = 0;
      if (!x->ctx->trusted_text || true) {
        i = wire__ascii_prefix(p, (size_t)len);
        if (i != len && wire__utf8_check(p + i, (size_t)len - i) != len - i)
          return dfail(x, WIRE_E_STRING, p, "invalid UTF-8");
      }
    } else {
      in->p = s;
      if (!wire__dec_string(&x->d, &enc, &p, &len)) return false;
    }
  }
  (void)s;
  if (enc != WIRE_STR_UTF8) {
    size_t ul = wire__string_utf8_len(enc, p, (size_t)len);
    uint8_t *q = aalloc(x, ul ? ul : 1, 1);
    if (!q) return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
    wire__string_to_utf8(enc, p, (size_t)len, q);
    p = q;
    len = ul;
  } else if (x->copy && len) {
    uint8_t *q = aalloc(x, (size_t)len, 1);
    if (!q) return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
    memcpy(q, p, (size_t)len);
    p = q;
  }
  st_ptr(base + o->off, len ? p : (const uint8_t *)"");
  if (!(o->fl & MF_LEN64) && len > UINT32_MAX)
    return dfail(x, WIRE_E_LIMIT, s, "length does not fit the layout");
  st_len(base, o, len);
  return true;
}

/* Whether s[0..len) is valid UTF-8 (RFC 3629: no overlongs, surrogates or
 * code points above U+10FFFF), ASCII eight bytes at a time. */
static inline bool utf8_ok(const uint8_t *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    while (i + 8 <= len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      if (w & UINT64_C(0x8080808080808080)) break;
      i += 8;
    }
    while (i < len && s[i] < 0x80) i++;
    if (i >= len) return true;
    uint8_t c = s[i];
    size_t left = len - i;
    if (c >= 0xC2 && c <= 0xDF) {
      if (left < 2 || (s[i + 1] & 0xC0) != 0x80) return false;
      i += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      if (left < 3 || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80)
        return false;
      if (c == 0xE0 && s[i + 1] < 0xA0) return false;
      if (c == 0xED && s[i + 1] >= 0xA0) return false;
      i += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      if (left < 4 || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80 ||
          (s[i + 3] & 0xC0) != 0x80)
        return false;
      if (c == 0xF0 && s[i + 1] < 0x90) return false;
      if (c == 0xF4 && s[i + 1] >= 0x90) return false;
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}

/* Varints with at least 5 / 9 bytes left, without per-byte bounds checks;
 * false for anything unusual (truncation, overlong, too long), which the
 * checked readers then report. */
static inline bool fast_u32(const uint8_t *s, const uint8_t *end, uint32_t *v,
                            const uint8_t **np) {
  if (WIRE_UNLIKELY(end - s < 5)) {
    uint32_t r = 0;
    for (int i = 0; i < 4 && s + i < end; i++) {
      uint32_t c = s[i];
      r |= (c & 0x7F) << (7 * i);
      if (c < 0x80) {
        if (i && !c) return false;
        *v = r;
        *np = s + i + 1;
        return true;
      }
    }
    return false;
  }
  uint32_t c = s[0], r;
  if (c < 0x80) { *v = c; *np = s + 1; return true; }
  r = c & 0x7F;
  c = s[1];
  r |= (c & 0x7F) << 7;
  if (c < 0x80) { if (!c) return false; *v = r; *np = s + 2; return true; }
  c = s[2];
  r |= (c & 0x7F) << 14;
  if (c < 0x80) { if (!c) return false; *v = r; *np = s + 3; return true; }
  c = s[3];
  r |= (c & 0x7F) << 21;
  if (c < 0x80) { if (!c) return false; *v = r; *np = s + 4; return true; }
  c = s[4];
  if (c & 0xF0 || !c) return false;
  *v = r | c << 28;
  *np = s + 5;
  return true;
}
static inline bool fast_u64(const uint8_t *s, const uint8_t *end, uint64_t *v,
                            const uint8_t **np) {
  if (WIRE_UNLIKELY(end - s < 9)) return false;
  uint64_t r = 0;
  for (int i = 0; i < 8; i++) {
    uint64_t c = s[i];
    r |= (c & 0x7F) << (7 * i);
    if (c < 0x80) {
      if (i && !c) return false;
      *v = r;
      *np = s + i + 1;
      return true;
    }
  }
  if (!s[8]) return false;
  *v = r | (uint64_t)s[8] << 56;
  *np = s + 9;
  return true;
}

/* An integer of wire type t at the cursor, sign- or zero-extended. */
static inline bool dec_int_raw(mdec *x, uint8_t t, uint64_t *raw) {
  wire_in *in = IN(x);
  if (t == WIRE_T_VARINT32) {
    uint32_t v;
    if (fast_u32(in->p, in->end, &v, &in->p)) {
      *raw = (uint64_t)(int64_t)wire__unzz32(v);
      return true;
    }
    if (!wire__get_varu32(in, &v)) return false;
    *raw = (uint64_t)(int64_t)wire__unzz32(v);
    return true;
  }
  if (t == WIRE_T_VARINT64) {
    uint64_t v;
    if (!fast_u64(in->p, in->end, &v, &in->p) && !wire__get_varu64(in, &v))
      return false;
    *raw = (uint64_t)wire__unzz64(v);
    return true;
  }
  return wire__dec_prim(&x->d, t, raw);
}

static bool dec_body(mdec *x, const wire_mop *o, uint8_t *base);

/* The elements of a list after its count. */
static bool dec_list(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p;
  uint32_t count;
  if (!wire__get_varu32(in, &count)) return false;
  if (!dcount(x, s, count, 1)) return false;
  bool packed = o->code == MOP_PLIST;
  size_t stride = packed ? form_size(o->eform) : o->esize;
  if (stride && count > SIZE_MAX / stride)
    return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
  uint8_t *items = NULL;
  if (count) {
    items = aalloc(x, (size_t)count * stride, 8);
    if (!items) return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
  }
  st_ptr(base + o->off, count ? items : (const uint8_t *)"");
  st_len(base, o, count);
  if (!count) return true;
  const uint8_t *hs = in->p;
  uint8_t h;
  if (!wire__get_u8(in, &h)) return false;
  if (h & 0xF0) return dfail(x, WIRE_E_COLLECTION, hs, "element header has "
                                                       "reserved bits");
  const wire_mop *so = packed ? NULL : &o->sub[0];
  uint8_t ewt = packed ? o->ewt : so->wt;
  const wire_mplan *ep = NULL;
  bool same = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  bool is_struct = so && (so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR);
  if ((h & WIRE_LF_SAME_TYPE) && !(h & WIRE_LF_DECL)) {
    if (is_struct) {
      if (!(ep = dec_meta(x, so->elem))) return false;
    } else {
      const uint8_t *ts = in->p;
      uint8_t t;
      if (!wire__get_u8(in, &t)) return false;
      if (t != ewt) return dfail(x, WIRE_E_SCHEMA, ts, "list element type "
                                                      "differs from the "
                                                      "declared one");
    }
  } else if ((h & WIRE_LF_DECL) && is_struct && x->ctx->compatible) {
    return dfail(x, WIRE_E_COLLECTION, hs, "declared struct elements in "
                                           "compatible mode");
  } else if (h & WIRE_LF_DECL) {
    ep = is_struct ? &x->m->layouts[so->elem].plan : NULL;
  }
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  bool track = h & WIRE_LF_TRACKING;
  if (!wire__dec_enter(&x->d)) return false;
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *it = items + (size_t)i * stride;
    const wire_mplan *pp = ep;
    if (flags) {
      const uint8_t *fs = in->p;
      int8_t f;
      uint32_t id;
      if (!wire__dec_ref_flag(&x->d, track, &f, &id)) return false;
      if (f == WIRE_REF_NULL) {
        if (packed) {
          memset(it, 0, stride);
        } else if (so->code == MOP_STRUCT_PTR) {
          st_ptr(it + so->off, NULL);
        } else if (so->fl & MF_PRESENT) {
          it[so->present] = 0;
        } else if (so->code == MOP_STRUCT) {
          zero_struct(x, &x->m->layouts[so->elem], it + so->off);
        } else if (!(so->code == MOP_STR || so->code == MOP_BYTES ||
                     so->code == MOP_LIST || so->code == MOP_MAP ||
                     so->code == MOP_DENSE || so->code == MOP_PLIST)) {
          memset(it, 0, stride);
        } else {
          st_ptr(it + so->off, NULL);
          st_len(it, so, 0);
        }
        continue;
      }
      if (f == WIRE_REF_REF) {
        wire_mem *m = x->m;
        if (!so || so->code != MOP_STRUCT_PTR || id >= m->ndref ||
            !m->dref[id] || m->dref_layout[id] != so->elem)
          return dfail(x, WIRE_E_UNSUPPORTED, fs, "a reference the layout "
                                                  "cannot hold");
        st_ptr(it + so->off, m->dref[id]);
        continue;
      }
      if (f == WIRE_REF_VALUE) x->d.nrefs++;
      if (so && (so->fl & MF_PRESENT)) it[so->present] = 1;
    } else if (so && (so->fl & MF_PRESENT)) {
      it[so->present] = 1;
    }
    if (!same) {
      const uint8_t *ts = in->p;
      if (is_struct) {
        if (!(pp = dec_meta(x, so->elem))) return false;
      } else {
        uint8_t t;
        if (!wire__get_u8(in, &t)) return false;
        if (t != ewt) return dfail(x, WIRE_E_SCHEMA, ts, "list element of "
                                                        "another type");
      }
    }
    if (packed) {
      uint64_t raw;
      const uint8_t *vs = in->p;
      if (!dec_int_raw(x, ewt, &raw)) return false;
      if (is_int_wt(ewt) && !form_in_range(raw, ewt, o->eform))
        return dfail(x, WIRE_E_VALUE, vs, "list element out of the range of "
                                          "the layout's integer");
      if (o->eform == WIRE_MEM_F64 && ewt == WIRE_T_FLOAT32) {
        uint32_t b32 = (uint32_t)raw;
        float f;
        memcpy(&f, &b32, 4);
        double dd = f;
        memcpy(it, &dd, 8);
      } else {
        st_u(it, o->eform, raw);
      }
      continue;
    }
    if (is_struct && pp) {
      wire_mlayout *el = &x->m->layouts[so->elem];
      uint8_t *sb = it + so->off;
      if (so->code == MOP_STRUCT_PTR) {
        sb = aalloc(x, el->size ? el->size : 1, 8);
        if (!sb) return dfail(x, WIRE_E_LIMIT, in->p, "decode arena exhausted");
        memset(sb, 0, el->size);
        st_ptr(it + so->off, sb);
      }
      if (!dec_struct_body(x, pp, el, sb)) return false;
      continue;
    }
    if (!dec_body(x, so, it)) return false;
  }
  x->d.depth--;
  return true;
}

static bool dec_map(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  const uint8_t *s = in->p;
  uint32_t count;
  if (!wire__get_varu32(in, &count)) return false;
  if (!dcount(x, s, count, 1)) return false;
  uint8_t *items = NULL;
  if (count) {
    if (o->esize && count > SIZE_MAX / o->esize)
      return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
    items = aalloc(x, (size_t)count * o->esize, 8);
    if (!items) return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
    memset(items, 0, (size_t)count * o->esize);
  }
  st_ptr(base + o->off, count ? items : (const uint8_t *)"");
  st_len(base, o, count);
  const wire_mop *ko = &o->sub[0], *vo = &o->sub[1];
  if (!wire__dec_enter(&x->d)) return false;
  uint32_t at = 0;
  while (at < count) {
    const uint8_t *cs = in->p;
    uint8_t h;
    if (!wire__get_u8(in, &h)) return false;
    if (h & 0xC0) return dfail(x, WIRE_E_COLLECTION, cs, "chunk header has "
                                                         "reserved bits");
    bool kn = h & WIRE_MF_KEY_NULL, vn = h & WIRE_MF_VAL_NULL;
    uint32_t size = 1;
    if (!kn && !vn) {
      uint8_t sz;
      if (!wire__dec_chunk_size(&x->d, count - at, &sz)) return false;
      size = sz;
    }
    const wire_mop *sides[2] = {ko, vo};
    const wire_mplan *plans[2] = {NULL, NULL};
    bool nulls[2] = {kn, vn};
    bool trk[2] = {(h & WIRE_MF_KEY_TRACK) != 0, (h & WIRE_MF_VAL_TRACK) != 0};
    bool decl[2] = {(h & WIRE_MF_KEY_DECL) != 0, (h & WIRE_MF_VAL_DECL) != 0};
    bool in_chunk = !kn && !vn;
    for (int k = 0; k < 2 && in_chunk; k++) {
      const wire_mop *so = sides[k];
      bool st_ = so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR;
      if (!decl[k]) {
        if (st_) {
          if (!(plans[k] = dec_meta(x, so->elem))) return false;
        } else {
          const uint8_t *ts = in->p;
          uint8_t t;
          if (!wire__get_u8(in, &t)) return false;
          if (t != so->wt) return dfail(x, WIRE_E_SCHEMA, ts, "map key or "
                                                             "value of "
                                                             "another type");
        }
      } else if (st_) {
        plans[k] = &x->m->layouts[so->elem].plan;
      }
    }
    for (uint32_t i = 0; i < size; i++) {
      uint8_t *it = items + (size_t)(at + i) * o->esize;
      for (int k = 0; k < 2; k++) {
        const wire_mop *so = sides[k];
        bool st_ = so->code == MOP_STRUCT || so->code == MOP_STRUCT_PTR;
        if (nulls[k]) {
          if (so->fl & MF_PRESENT) it[so->present] = 0;
          continue;
        }
        const wire_mplan *pp = plans[k];
        if (trk[k]) {
          const uint8_t *fs = in->p;
          int8_t f;
          uint32_t id;
          if (!wire__dec_ref_flag(&x->d, true, &f, &id)) return false;
          if (f == WIRE_REF_NULL || f == WIRE_REF_REF)
            return dfail(x, WIRE_E_UNSUPPORTED, fs, "map entry reference");
          if (f == WIRE_REF_VALUE) x->d.nrefs++;
        }
        if (!in_chunk) {
          if (!decl[k]) {
            if (st_) {
              if (!(pp = dec_meta(x, so->elem))) return false;
            } else {
              const uint8_t *ts = in->p;
              uint8_t t;
              if (!wire__get_u8(in, &t)) return false;
              if (t != so->wt) return dfail(x, WIRE_E_SCHEMA, ts, "map key or "
                                                                 "value of "
                                                                 "another type");
            }
          } else if (!in_chunk && st_) {
            pp = &x->m->layouts[so->elem].plan;
          }
        }
        if (so->fl & MF_PRESENT) it[so->present] = 1;
        if (st_) {
          wire_mlayout *el = &x->m->layouts[so->elem];
          uint8_t *sb = it + so->off;
          if (so->code == MOP_STRUCT_PTR) {
            sb = aalloc(x, el->size ? el->size : 1, 8);
            if (!sb) return dfail(x, WIRE_E_LIMIT, in->p, "decode arena "
                                                          "exhausted");
            memset(sb, 0, el->size);
            st_ptr(it + so->off, sb);
          }
          if (!dec_struct_body(x, pp, el, sb)) return false;
        } else if (!dec_body(x, so, it)) {
          return false;
        }
      }
    }
    at += size;
  }
  x->d.depth--;
  return true;
}

static bool dec_body(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  uint8_t *p = base + o->off;
  const uint8_t *s = in->p;
  switch (o->code) {
  case MOP_INT: {
    uint64_t raw;
    if (!dec_int_raw(x, o->wt, &raw)) return false;
    if ((o->fl & MF_CHECK) && !form_in_range(raw, o->wt, o->form))
      return dfail(x, WIRE_E_VALUE, s, "integer out of the range of the "
                                       "layout's form");
    st_u(p, o->form, raw);
    return true;
  }
  case MOP_ENUM: {
    uint32_t v;
    if (!wire__dec_enum_value(&x->d, &v)) return false;
    if (!form_in_range(v, WIRE_T_UINT32, o->form == WIRE_MEM_ENUM
                                             ? WIRE_MEM_U32 : o->form))
      return dfail(x, WIRE_E_VALUE, s, "enum value out of the range of the "
                                       "layout's form");
    st_u(p, o->form == WIRE_MEM_ENUM ? WIRE_MEM_U32 : o->form, v);
    return true;
  }
  case MOP_BOOL: {
    uint8_t v;
    if (!wire__get_u8(in, &v)) return false;
    if (v > 1) return dfail(x, WIRE_E_VALUE, s, "bool byte other than 0 or 1");
    *p = v;
    return true;
  }
  case MOP_BITS16: case MOP_F32: case MOP_F64: {
    int n = o->code == MOP_BITS16 ? 2 : o->code == MOP_F32 ? 4 : 8;
    if (WIRE_UNLIKELY((size_t)(in->end - in->p) < (size_t)n))
      return wire__truncated(in, (size_t)n);
    if (o->code == MOP_F32 && o->form == WIRE_MEM_F64) {
      float f;
      memcpy(&f, in->p, 4);
      double d = f;
      memcpy(p, &d, 8);
    } else if (o->code == MOP_F64 && o->form == WIRE_MEM_F32) {
      double d;
      memcpy(&d, in->p, 8);
      float f = (float)d;
      memcpy(p, &f, 4);
    } else {
      memcpy(p, in->p, (size_t)n);
    }
    in->p += n;
    return true;
  }
  case MOP_STR: return dec_str(x, o, base, false);
  case MOP_BYTES: return dec_str(x, o, base, true);
  case MOP_DENSE: {
    const uint8_t *d;
    uint32_t n;
    if (!wire__dec_bytes(&x->d, o->wt, &d, &n)) return false;
    uint32_t ww = wire_type_array_width(o->wt);
    uint32_t count = n / ww;
    uint32_t w = form_size(o->eform);
    uint8_t *q = NULL;
    if (count) {
      q = aalloc(x, (size_t)count * w, 8);
      if (!q) return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
      if (natural_form(o->ewt) == o->eform) {
        memcpy(q, d, n);
      } else {
        for (uint32_t i = 0; i < count; i++) {
          uint64_t raw = 0;
          memcpy(&raw, d + (size_t)i * ww, ww);
          if (wt_signed(o->ewt) && ww < 8 && (raw >> (8 * ww - 1)) & 1)
            raw |= ~UINT64_C(0) << (8 * ww);
          if (!form_in_range(raw, o->ewt, o->eform))
            return dfail(x, WIRE_E_VALUE, d + (size_t)i * ww, "array element "
                                                              "out of range");
          st_u(q + (size_t)i * w, o->eform, raw);
        }
      }
    }
    st_ptr(p, count ? q : (const uint8_t *)"");
    st_len(base, o, count);
    return true;
  }
  case MOP_LIST: case MOP_PLIST: return dec_list(x, o, base);
  case MOP_MAP: return dec_map(x, o, base);
  case MOP_STRUCT: case MOP_STRUCT_PTR: {
    wire_mlayout *el = &x->m->layouts[o->elem];
    const wire_mplan *pp = &el->plan;
    if (o->fl & MF_META) {
      if (!(pp = dec_meta(x, o->elem))) return false;
    } else if (el->kind == WIRE_T_STRUCT || el->kind == WIRE_T_NAMED_STRUCT) {
      pp = &el->plan;
    }
    uint8_t *sb = p;
    if (o->code == MOP_STRUCT_PTR) {
      sb = aalloc(x, el->size ? el->size : 1, 8);
      if (!sb) return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
      memset(sb, 0, el->size);
      st_ptr(p, sb);
    }
    return dec_struct_body(x, pp, el, sb);
  }
  case MOP_DATE: {
    int64_t v;
    if (!wire__dec_date(&x->d, &v)) return false;
    memcpy(p, &v, 8);
    return true;
  }
  case MOP_TIMESTAMP: case MOP_DURATION: {
    wire_mem_time t = {0, 0, 0};
    if (!wire__dec_time(&x->d, o->wt, &t.seconds, &t.nanos)) return false;
    memcpy(p, &t, sizeof t);
    return true;
  }
  case MOP_DECIMAL: {
    wire_mem_decimal dv;
    memset(&dv, 0, sizeof dv);
    bool neg;
    const uint8_t *mag;
    uint8_t small[8];
    if (!wire__dec_decimal(&x->d, &dv.scale, &neg, &mag, &dv.len, small))
      return false;
    if (mag == small || x->copy) {
      uint8_t *q = aalloc(x, dv.len ? dv.len : 1, 1);
      if (!q) return dfail(x, WIRE_E_LIMIT, s, "decode arena exhausted");
      memcpy(q, mag, dv.len);
      mag = q;
    }
    dv.magnitude = mag;
    dv.negative = neg;
    memcpy(p, &dv, sizeof dv);
    return true;
  }
  default:
    return dfail(x, WIRE_E_STATE, s, "op without a reader");
  }
}

/* A writer's field the reader does not have: read into a scratch document
 * through the document decoder's rules. */
static bool dec_skip(mdec *x, const wire_mop *o) {
  if (!x->scratch) {
    x->scratch = wire_doc_new(x->ctx);
    if (!x->scratch) return dfail(x, WIRE_E_NOMEM, IN(x)->p, "out of memory");
  }
  wire_doc *saved = x->d.doc;
  wire_arena *sa = x->d.arena;
  x->d.doc = x->scratch;
  x->d.arena = &x->scratch->arena;
  wire_node *n;
  bool okk = wire__dec_field(&x->d, o->lf, &n);
  x->d.doc = saved;
  x->d.arena = sa;
  return okk;
}

static bool dec_field(mdec *x, const wire_mop *o, uint8_t *base) {
  wire_in *in = IN(x);
  if (o->fl & MF_FLAG) {
    const uint8_t *fs = in->p;
    int8_t f;
    uint32_t id;
    if (!wire__dec_ref_flag(&x->d, (o->fl & MF_REF) != 0, &f, &id))
      return false;
    if (f == WIRE_REF_NULL) {
      const wire_mspec tmp = {0, o->form | ((o->fl & MF_LEN64) ? WIRE_MEM_LEN64 : 0),
                              o->off, o->aux, o->present, o->elem};
      if (o->code == MOP_STRUCT) {
        if (o->present != WIRE_MEM_NONE) base[o->present] = 0;
        zero_struct(x, &x->m->layouts[o->elem], base + o->off);
      } else {
        zero_spec(&tmp, base);
      }
      return true;
    }
    if (f == WIRE_REF_REF) {
      wire_mem *m = x->m;
      if (o->code != MOP_STRUCT_PTR || id >= m->ndref || !m->dref[id] ||
          m->dref_layout[id] != o->elem)
        return dfail(x, WIRE_E_UNSUPPORTED, fs, "a reference the layout "
                                                "cannot hold");
      st_ptr(base + o->off, m->dref[id]);
      return true;
    }
    if (f == WIRE_REF_VALUE) {
      wire_mem *m = x->m;
      uint32_t id2 = (uint32_t)x->d.nrefs++;
      if (!dref_room(x->ctx, m, id2 + 1))
        return dfail(x, WIRE_E_NOMEM, fs, "out of memory");
      while (m->ndref <= id2) {
        m->dref[m->ndref] = NULL;
        m->dref_layout[m->ndref++] = NOTYPE;
      }
      if (o->code == MOP_STRUCT_PTR) {
        /* decode now so that references inside can name it */
        wire_mlayout *el = &m->layouts[o->elem];
        const wire_mplan *pp = &el->plan;
        if (o->fl & MF_META) {
          if (!(pp = dec_meta(x, o->elem))) return false;
        }
        uint8_t *sb = aalloc(x, el->size ? el->size : 1, 8);
        if (!sb) return dfail(x, WIRE_E_LIMIT, fs, "decode arena exhausted");
        memset(sb, 0, el->size);
        st_ptr(base + o->off, sb);
        m = x->m;
        m->dref[id2] = sb;
        m->dref_layout[id2] = o->elem;
        return dec_struct_body(x, pp, el, sb);
      }
    }
  }
  if (o->fl & MF_PRESENT) base[o->present] = 1;
  return dec_body(x, o, base);
}

static bool dec_struct_body(mdec *x, const wire_mplan *p,
                            const wire_mlayout *l, uint8_t *base) {
  if (!wire__dec_enter(&x->d)) return false;
  wire_in *in = IN(x);
  if (!x->ctx->compatible &&
      (l->kind == WIRE_T_STRUCT || l->kind == WIRE_T_NAMED_STRUCT)) {
    const uint8_t *s = in->p;
    uint64_t h;
    if (!wire__get_le(in, 4, &h)) return false;
    if ((uint32_t)h != x->ctx->reg->types[l->type].layout->schema_hash)
      return dfail(x, WIRE_E_SCHEMA, s, "schema hash differs from the "
                                        "registered struct's");
  }
  const wire_mop *o = p->ops, *end = o + p->nops;
  const bool copy = x->copy;
  for (; o < end; o++) {
    uint8_t *d = base + o->off;
    const uint8_t *c = in->p;
    switch (o->x) {
    case MX_VI32:
      {
        uint32_t u;
        if (fast_u32(c, in->end, &u, &in->p)) {
          int32_t v = wire__unzz32(u);
          memcpy(d, &v, 4);
          continue;
        }
      }
      break;
    case MX_VI32_64: {
      uint32_t u;
      if (fast_u32(c, in->end, &u, &in->p)) {
        int64_t v = wire__unzz32(u);
        memcpy(d, &v, 8);
        continue;
      }
      break;
    }
    case MX_VI64: {
      uint64_t u;
      if (fast_u64(c, in->end, &u, &in->p)) {
        int64_t v = wire__unzz64(u);
        memcpy(d, &v, 8);
        continue;
      }
      break;
    }
    case MX_BOOL:
      if (WIRE_LIKELY(c < in->end && c[0] <= 1)) {
        *d = c[0];
        in->p = c + 1;
        continue;
      }
      break;
    case MX_ENUM:
      if (WIRE_LIKELY(c < in->end && c[0] < 0x80)) {
        uint32_t v = c[0];
        memcpy(d, &v, 4);
        in->p = c + 1;
        continue;
      }
      break;
    case MX_F32:
      if (WIRE_LIKELY(in->end - c >= 4)) {
        memcpy(d, c, 4);
        in->p = c + 4;
        continue;
      }
      break;
    case MX_F64:
      if (WIRE_LIKELY(in->end - c >= 8)) {
        memcpy(d, c, 8);
        in->p = c + 8;
        continue;
      }
      break;
    case MX_STR:
      /* a UTF-8 string with a header of one or two bytes */
      if (WIRE_LIKELY(c < in->end && (c[0] & 3) == WIRE_STR_UTF8)) {
        uint32_t len;
        const uint8_t *t;
        if (c[0] < 0x80) {
          len = c[0] >> 2;
          t = c + 1;
        } else if (in->end - c >= 2 && c[1] < 0x80 && c[1]) {
          len = ((uint32_t)(c[0] & 0x7F) | (uint32_t)c[1] << 7) >> 2;
          t = c + 2;
        } else {
          break;
        }
        if (WIRE_UNLIKELY((size_t)(in->end - t) < len)) break;
        if (!utf8_ok(t, len)) break;
        const uint8_t *sp = t;
        if (copy && len) {
          uint8_t *q = aalloc(x, len, 1);
          if (!q) break;
          memcpy(q, t, len);
          sp = q;
        }
        st_ptr(d, len ? sp : (const uint8_t *)"");
        memcpy(base + o->aux, &len, 4);
        in->p = t + len;
        continue;
      }
      break;
    default:
      break;
    }
    if (o->code == MOP_SKIP || o->code == MOP_NONE) {
      /* a field the layout does not hold */
      if (!dec_skip(x, o)) return false;
      continue;
    }
    if (!dec_field(x, o, base)) return false;
  }
  for (uint32_t i = 0; i < p->nmissing; i++) zero_any(x, p->missing[i], base);
  x->d.depth--;
  return true;
}

int32_t wire_mem_decode(wire_ctx *ctx, uint32_t layout, const uint8_t *data,
                        size_t len, void *out, uint8_t *arena,
                        size_t arena_cap, size_t *arena_used, uint32_t flags) {
  if (!ctx || (!data && len) || !out || (!arena && arena_cap)) return WIRE_E_ARG;
  if (ctx->err_code) wire_ctx_clear_error(ctx);
  if (!ctx->mem || layout >= ctx->mem->n)
    return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_mem *m = ctx->mem;
  if (WIRE_UNLIKELY(!m->layouts[layout].bound)) {
    int32_t st = wire_mem_bind(ctx, layout);
    if (st) return st;
  }
  mdec x;
  x.ctx = ctx;
  x.m = m;
  x.arena = arena;
  x.cap = arena_cap;
  x.used = arena_used ? *arena_used : 0;
  if (x.used > arena_cap) return WIRE_E_ARG;
  x.copy = (flags & WIRE_MEM_COPY) != 0;
  x.scratch = NULL;
  wire__dec_init(&x.d, ctx, data, len, NULL, &m->arena);
  /* the per-message tables live in the context across calls */
  x.d.tds = m->tds;
  x.d.tds_cap = m->tds_cap;
  x.d.ms = m->ms;
  x.d.ms_cap = m->ms_cap;
  wire__dec_root(&x.d);
  m->ndtd = 0;
  m->ndref = 0;
  const wire_mplan *p = NULL;
  wire_mlayout *rl = &m->layouts[layout];
  bool okk;
  if (len >= 4 && data[0] == 0x01 && data[1] == 0xFF && rl->td &&
      data[2] == rl->kind && data[3] == 0x00 && len - 4 >= rl->td_len &&
      memcmp(data + 4, rl->td, rl->td_len) == 0) {
    /* the common root: xlang header, not-null flag, the registered
     * TypeDef announced as #0 */
    x.d.in.p = data + 4 + rl->td_len;
    p = &rl->plan;
    okk = push_td(&x, ctx->reg->types[rl->type].layout, p, data + 4);
    goto body;
  }
  /* (the header reader expects a byte) */
  okk = len ? wire__dec_root_header(&x.d, 0) : wire__truncated(&x.d.in, 1);
  if (okk) {
    const uint8_t *fs = x.d.in.p;
    int8_t f;
    uint32_t id;
    okk = wire__dec_ref_flag(&x.d, true, &f, &id);
    if (okk && (f == WIRE_REF_NULL || f == WIRE_REF_REF))
      okk = dfail(&x, WIRE_E_VALUE, fs, "the root is null or a reference");
    if (okk && f == WIRE_REF_VALUE) {
      x.d.nrefs++;
      if (!dref_room(ctx, m, 1)) okk = dfail(&x, WIRE_E_NOMEM, fs, "out of memory");
      else {
        m->dref[0] = out;
        m->dref_layout[0] = layout;
        m->ndref = 1;
      }
    }
  }
  p = okk ? dec_meta(&x, layout) : NULL;
  okk = p != NULL;
body:
  okk = okk && dec_struct_body(&x, p, &m->layouts[layout], out);
  if (okk && x.d.in.p != x.d.in.end)
    okk = dfail(&x, WIRE_E_TRAILING, x.d.in.p, "bytes after the root value");
  if (x.scratch) wire_doc_free(x.scratch);
  m->tds = x.d.tds;
  m->tds_cap = x.d.tds_cap;
  m->ms = x.d.ms;
  m->ms_cap = x.d.ms_cap;
  x.d.tds = NULL;
  x.d.ms = NULL;
  wire__dec_fini(&x.d);
  if (!okk) return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  if (arena_used) *arena_used = x.used;
  return WIRE_OK;
}
