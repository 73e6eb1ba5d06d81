/* tape_index.c - pass 1 of the direct tape encoder (wire_encode_tape,
 * wire_encode_tape_to; tape_enc.c): reads the whole tape into an index of
 * records (tape_rec.h), one per value, in pre-order. It checks what the
 * document builders check (ops, lengths, integer ranges, text, registered
 * types, field names, REF numbers) with the same statuses, resolves REF
 * ops to the record they name, and marks values named by a REF as tracked
 * under reference tracking. Nothing is copied: records point into the
 * tape. Also the per-context scratch that holds the index. */
#include "tape_rec.h"

#include <stdio.h>

/* ---- scratch ------------------------------------------------------------ */

struct wire_tape_dec_scratch **wire__tape_dec_slot(wire_ctx *ctx) {
  scratch *s = wire__tape_scratch(ctx);
  return s ? &s->dec : NULL;
}

void wire__tape_scratch_free(wire_ctx *ctx) {
  scratch *s = ctx->tape;
  if (!s) return;
  wire__free(ctx, s->recs, s->recs_cap * sizeof *s->recs);
  wire__free(ctx, s->refs, s->refs_cap * sizeof *s->refs);
  wire__free(ctx, s->sts, s->sts_cap * sizeof *s->sts);
  wire__free(ctx, s->fld, s->fld_cap * sizeof *s->fld);
  wire__free(ctx, s->names, s->names_cap * sizeof *s->names);
  wire__free(ctx, s->tds, s->tds_cap * sizeof *s->tds);
  wire__arena_free(&s->arena);
  wire__enc_release(&s->enc);
  wire__free(ctx, s->out.p, s->out.cap);
  wire__tape_dec_scratch_free(ctx, s->dec);
  wire__free(ctx, s, sizeof *s);
  ctx->tape = NULL;
}

scratch *wire__tape_scratch(wire_ctx *ctx) {
  if (ctx->tape) return ctx->tape;
  scratch *s = wire__alloc(ctx, sizeof *s);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  s->arena.ctx = ctx;
  s->enc.ctx = ctx;
  s->out.ctx = ctx;
  ctx->tape = s;
  return s;
}

/* ---- pass 1: read and check -------------------------------------------- */

typedef struct {
  wire_ctx *ctx;
  scratch *s;
  const uint8_t *start, *p, *end;
  int32_t status;
  uint32_t err_at;
  bool builder_msg; /* the context holds the message of this error */
} rd;

static bool rfail(rd *r, int32_t st, const uint8_t *at) {
  if (!r->status) {
    r->status = st;
    r->err_at = (uint32_t)(at - r->start);
  }
  return false;
}
/* A builder rule broken: the message is on the context. */
static bool bfail(rd *r, int32_t st, const uint8_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool bfail(rd *r, int32_t st, const uint8_t *at, const char *fmt, ...) {
  if (r->status) return false;
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  wire__fail(r->ctx, st, (uint64_t)(at - r->start), "%s", msg);
  r->builder_msg = true;
  return rfail(r, st, at);
}

static inline bool need(rd *r, size_t k) {
  if (WIRE_LIKELY((size_t)(r->end - r->p) >= k)) return true;
  return rfail(r, WIRE_E_TRUNCATED, r->p);
}
static inline uint8_t g8(rd *r) { return need(r, 1) ? *r->p++ : 0; }
static inline uint16_t g16(rd *r) {
  if (!need(r, 2)) return 0;
  uint16_t v = (uint16_t)(r->p[0] | r->p[1] << 8);
  r->p += 2;
  return v;
}
static inline uint32_t g32(rd *r) {
  if (!need(r, 4)) return 0;
  uint32_t v;
  memcpy(&v, r->p, 4);
  r->p += 4;
  return v;
}
static inline uint64_t g64(rd *r) {
  if (!need(r, 8)) return 0;
  uint64_t v;
  memcpy(&v, r->p, 8);
  r->p += 8;
  return v;
}
static inline const uint8_t *gbytes(rd *r, size_t n) {
  if (!need(r, n)) return NULL;
  const uint8_t *q = r->p;
  r->p += n;
  return q;
}

static inline uint32_t new_rec(rd *r, const uint8_t *at, uint8_t type) {
  scratch *s = r->s;
  if (WIRE_UNLIKELY(s->nrecs == s->recs_cap) &&
      !grow_arr(r->ctx, (void **)&s->recs, &s->recs_cap, s->nrecs + 1,
                sizeof *s->recs)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NONE32;
  }
  uint32_t i = (uint32_t)s->nrecs++;
  trec *t = &s->recs[i];
  t->at = (uint32_t)(at - r->start);
  t->end = i + 1;
  t->x = t->n = t->mark = 0;
  t->type = type;
  t->flags = 0;
  t->a = t->b = 0;
  return i;
}

/* Gives the next REF number to record ri (NONE32: a union being read). */
static bool number(rd *r, uint32_t ri, const uint8_t *at) {
  scratch *s = r->s;
  if (WIRE_UNLIKELY(s->nrefs == s->refs_cap) &&
      !grow_arr(r->ctx, (void **)&s->refs, &s->refs_cap, s->nrefs + 1,
                sizeof *s->refs))
    return rfail(r, WIRE_E_NOMEM, at);
  s->refs[s->nrefs++] = ri;
  return true;
}

static uint32_t new_names(rd *r, const uint8_t *ns, size_t nsl,
                          const uint8_t *nm, size_t nl, const uint8_t *at) {
  scratch *s = r->s;
  if (!grow_arr(r->ctx, (void **)&s->names, &s->names_cap, s->nnames + 1,
                sizeof *s->names)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NONE32;
  }
  wire_names *x = &s->names[s->nnames];
  memset(x, 0, sizeof *x);
  x->ns = ns;
  x->ns_len = (uint32_t)nsl;
  x->name = nm;
  x->name_len = (uint32_t)nl;
  return (uint32_t)s->nnames++;
}

static bool count_ok(rd *r, uint32_t cnt, const uint8_t *at) {
  if (WIRE_LIKELY(cnt <= r->ctx->max_collection)) return true;
  return rfail(r, WIRE_E_LIMIT, at);
}

/* The range check of wire_node_new_int / _uint. */
static inline bool int_ok(rd *r, uint8_t t, uint64_t raw, const uint8_t *at) {
  switch (t) { /* the 64-bit types take any value */
  case WIRE_T_INT64: case WIRE_T_VARINT64: case WIRE_T_TAGGED_INT64:
  case WIRE_T_UINT64: case WIRE_T_VAR_UINT64: case WIRE_T_TAGGED_UINT64:
    return true;
  default: break;
  }
  if (t <= WIRE_T_TAGGED_INT64) {
    int64_t v = (int64_t)raw, lo = INT64_MIN, hi = INT64_MAX;
    if (t == WIRE_T_INT8) { lo = INT8_MIN; hi = INT8_MAX; }
    else if (t == WIRE_T_INT16) { lo = INT16_MIN; hi = INT16_MAX; }
    else if (t == WIRE_T_INT32 || t == WIRE_T_VARINT32) { lo = INT32_MIN; hi = INT32_MAX; }
    if (WIRE_LIKELY(v >= lo && v <= hi)) return true;
    return bfail(r, WIRE_E_VALUE, at, "%lld does not fit %s", (long long)v,
                 wire_type_name(t));
  }
  uint64_t hi = UINT64_MAX;
  if (t == WIRE_T_UINT8) hi = UINT8_MAX;
  else if (t == WIRE_T_UINT16) hi = UINT16_MAX;
  else if (t == WIRE_T_UINT32 || t == WIRE_T_VAR_UINT32) hi = UINT32_MAX;
  if (WIRE_LIKELY(raw <= hi)) return true;
  return bfail(r, WIRE_E_VALUE, at, "%llu does not fit %s",
               (unsigned long long)raw, wire_type_name(t));
}

static const wire_utype *reg_type(rd *r, uint32_t type, uint8_t kind,
                                  const uint8_t *at) {
  wire_registry *g = r->ctx->reg;
  bool ext_ok = kind == WIRE_KIND_STRUCT;
  if (g && type < g->ntypes &&
      (g->types[type].kind == kind ||
       (ext_ok && g->types[type].kind == WIRE_KIND_EXT)))
    return &g->types[type];
  bfail(r, WIRE_E_ARG, at, "type %u is not a registered %s", type,
        kind == WIRE_KIND_STRUCT ? "struct" : kind == WIRE_KIND_ENUM ? "enum"
                                                                    : "union");
  return NULL;
}

static bool meta_ok(rd *r, const uint8_t *ns, size_t nsl, const uint8_t *nm,
                    size_t nl, const uint8_t *at) {
  if (wire_meta_choose_encoding(WIRE_MSCTX_NAMESPACE, ns, nsl) < 0 ||
      wire_meta_choose_encoding(WIRE_MSCTX_TYPE_NAME, nm, nl) < 0)
    return bfail(r, WIRE_E_META_STRING, at, "name is not a meta string");
  return true;
}

static bool value(rd *r, unsigned depth);

/* A struct record of layout l with its fields unset. */
static uint32_t new_struct(rd *r, const uint8_t *at, uint8_t kind,
                           const wire_layout *l) {
  scratch *s = r->s;
  uint32_t ri = new_rec(r, at, kind);
  if (ri == NONE32) return NONE32;
  if (!grow_arr(r->ctx, (void **)&s->sts, &s->sts_cap, s->nsts + 1,
                sizeof *s->sts) ||
      !grow_arr(r->ctx, (void **)&s->fld, &s->fld_cap, s->nfld + l->nfields,
                sizeof *s->fld)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NONE32;
  }
  s->sts[s->nsts] = (tstruct){l, (uint32_t)s->nfld};
  for (uint32_t i = 0; i < l->nfields; i++) s->fld[s->nfld + i] = NONE32;
  s->nfld += l->nfields;
  s->recs[ri].x = (uint32_t)s->nsts++;
  if (!number(r, ri, at)) return NONE32;
  return ri;
}

/* The layout of a STRUCT_TD TypeDef: parsed once per distinct TypeDef of
 * the tape, as wire_node_new_struct_typedef does. */
static const wire_layout *td_layout(rd *r, const uint8_t *td, uint32_t tl,
                                    const uint8_t *at) {
  scratch *s = r->s;
  for (size_t i = 0; i < s->ntds; i++)
    if (s->tds[i].len == tl && wire__eq(s->tds[i].td, td, tl)) return s->tds[i].l;
  wire_in in = {r->ctx, td, td, td + tl};
  wire_layout *l;
  if (wire__typedef_read(r->ctx, &in, &s->arena, r->ctx->max_depth, &l) !=
      WIRE_OK) {
    r->builder_msg = true;
    rfail(r, r->ctx->err_code ? r->ctx->err_code : WIRE_E_TYPEDEF, at);
    return NULL;
  }
  if (in.p != in.end || l->kind != WIRE_KIND_STRUCT) {
    bfail(r, WIRE_E_TYPEDEF, at, "not one struct TypeDef");
    return NULL;
  }
  wire__struct_typedef_link(r->ctx, l);
  if (!grow_arr(r->ctx, (void **)&s->tds, &s->tds_cap, s->ntds + 1,
                sizeof *s->tds)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NULL;
  }
  s->tds[s->ntds++] = (ttd){td, tl, l};
  return l;
}

static bool string(rd *r, uint32_t ri, const uint8_t *at) {
  uint8_t e = g8(r);
  uint32_t len = g32(r);
  const uint8_t *b = gbytes(r, len);
  if (!b) return false;
  int32_t given;
  bool java;
  if (!wire__tape_string_given(e, &given, &java))
    return bfail(r, WIRE_E_ARG, at, "unknown string encoding");
  /* One look at the text: its ASCII prefix, then the check of the rest. */
  bool ascii = false;
  if (given != WIRE_STR_UTF16) {
    size_t k = wire__ascii_prefix(b, len);
    ascii = k == len;
    if (!ascii && given == WIRE_STR_UTF8 && !r->ctx->trusted_text &&
        k + wire__utf8_check(b + k, len - k) != len)
      return bfail(r, WIRE_E_STRING, at, "text is not valid UTF-8");
  } else if (!r->ctx->trusted_text && wire__tape_check_text(given, b, len) != len) {
    return bfail(r, WIRE_E_STRING, at, "invalid UTF-16");
  }
  int32_t enc = wire__tape_wire_enc(r->ctx, given, java, ascii, b, len);
  trec *t = &r->s->recs[ri];
  t->a = (uint8_t)enc;
  t->b = (uint8_t)given;
  /* ASCII is the same bytes in Latin-1 and UTF-8 */
  if (enc == given || (ascii && enc != WIRE_STR_UTF16)) {
    t->flags |= R_SAME;
    t->n = len;
  } else {
    size_t n = wire__transcode_len(given, enc, b, len);
    if (n > UINT32_MAX)
      return bfail(r, WIRE_E_LIMIT, at, "string longer than 4 GiB on the wire");
    t->n = (uint32_t)n;
  }
  return true;
}

static bool fields_by_name(rd *r, uint32_t ri, unsigned depth,
                           const uint8_t *at) {
  uint32_t nf = g32(r);
  for (uint32_t i = 0; i < nf && !r->status; i++) {
    uint16_t nl = g16(r);
    const uint8_t *name = gbytes(r, nl);
    uint32_t vi = (uint32_t)r->s->nrecs;
    if (!value(r, depth + 1) || !name) return false;
    const tstruct *st = &r->s->sts[r->s->recs[ri].x];
    int32_t k = wire__field_index(r->ctx, st->l, (const char *)name, nl);
    if (k < 0)
      return bfail(r, WIRE_E_ENCODE, at, "no field %.*s", (int)nl,
                   (const char *)name);
    r->s->fld[st->fields + (uint32_t)k] = vi;
  }
  return !r->status;
}

/* Reads one value (and its children) into records. */
static bool value(rd *r, unsigned depth) {
  const uint8_t *at = r->p;
  if (WIRE_UNLIKELY(depth > r->ctx->max_depth))
    return rfail(r, WIRE_E_DEPTH, at);
  uint8_t op = g8(r);
  if (r->status) return false;
  scratch *s = r->s;
  uint32_t ri;
  switch (op) {
  case TAPE_REF: {
    uint32_t k = g32(r);
    if (r->status) return false;
    if (k >= s->nrefs || s->refs[k] == NONE32) return rfail(r, WIRE_E_REF, at);
    uint32_t target = s->refs[k];
    if ((ri = new_rec(r, at, s->recs[target].type)) == NONE32) return false;
    s->recs[ri].flags = R_REF;
    s->recs[ri].x = target;
    if (r->ctx->ref_tracking) s->recs[target].flags |= R_TRACKED;
    return true;
  }
  case TAPE_NULL:
    return new_rec(r, at, WIRE_T_NULL) != NONE32;
  case WIRE_T_NONE:
    return new_rec(r, at, WIRE_T_NONE) != NONE32;
  case WIRE_T_BOOL:
    g8(r);
    return !r->status && new_rec(r, at, WIRE_T_BOOL) != NONE32;
  case WIRE_T_STRING:
    if ((ri = new_rec(r, at, WIRE_T_STRING)) == NONE32) return false;
    return string(r, ri, at);
  case WIRE_T_LIST: case WIRE_T_SET: case WIRE_T_MAP: {
    uint32_t cnt = g32(r);
    if (r->status || !count_ok(r, cnt, at)) return false;
    if ((ri = new_rec(r, at, op)) == NONE32 || !number(r, ri, at)) return false;
    s->recs[ri].n = cnt;
    uint64_t nv = op == WIRE_T_MAP ? 2 * (uint64_t)cnt : cnt;
    for (uint64_t i = 0; i < nv; i++)
      if (!value(r, depth + 1)) return false;
    r->s->recs[ri].end = (uint32_t)r->s->nrecs;
    return true;
  }
  case TAPE_PACKED: {
    uint8_t kind = g8(r), et = g8(r);
    uint32_t cnt = g32(r);
    if (r->status) return false;
    if ((kind != WIRE_T_LIST && kind != WIRE_T_SET) || !wire__tape_packable(et))
      return rfail(r, WIRE_E_ARG, at);
    if (!count_ok(r, cnt, at)) return false;
    const uint8_t *b = gbytes(r, (size_t)cnt * 8);
    if (!b) return false;
    if ((ri = new_rec(r, at, kind)) == NONE32 || !number(r, ri, at)) return false;
    s->recs[ri].flags = R_PACKED;
    s->recs[ri].a = et;
    s->recs[ri].n = cnt;
    if (et != WIRE_T_BOOL && et <= WIRE_T_TAGGED_UINT64 &&
        et != WIRE_T_INT64 && et != WIRE_T_VARINT64 &&
        et != WIRE_T_TAGGED_INT64 && et != WIRE_T_UINT64 &&
        et != WIRE_T_VAR_UINT64 && et != WIRE_T_TAGGED_UINT64) {
      for (uint32_t i = 0; i < cnt; i++) {
        uint64_t u;
        memcpy(&u, b + 8 * (size_t)i, 8);
        if (!int_ok(r, et, u, at)) return false;
      }
    }
    return true;
  }
  case WIRE_T_DATE:
    g64(r);
    return !r->status && new_rec(r, at, op) != NONE32;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION: {
    g64(r);
    uint32_t ns = g32(r);
    if (r->status) return false;
    if (ns >= 1000000000u)
      return bfail(r, WIRE_E_VALUE, at, "nanoseconds must be < 1e9");
    return new_rec(r, at, op) != NONE32;
  }
  case WIRE_T_DECIMAL: {
    g32(r);
    g8(r);
    gbytes(r, g32(r));
    if (r->status) return false;
    return (ri = new_rec(r, at, op)) != NONE32 && number(r, ri, at);
  }
  case WIRE_T_ENUM: case TAPE_ENUM_ID: {
    uint32_t type = g32(r), v = g32(r);
    if (r->status) return false;
    uint8_t kind = WIRE_T_ENUM;
    uint32_t x = type;
    if (op == WIRE_T_ENUM) {
      const wire_utype *t = reg_type(r, type, WIRE_KIND_ENUM, at);
      if (!t) return false;
      x = t->user_id;
      if (t->by_name) {
        size_t nsl = strlen(t->ns), nl = strlen(t->name);
        if (!meta_ok(r, (const uint8_t *)t->ns, nsl, (const uint8_t *)t->name,
                     nl, at))
          return false;
        kind = WIRE_T_NAMED_ENUM;
        x = new_names(r, (const uint8_t *)t->ns, nsl, (const uint8_t *)t->name,
                      nl, at);
        if (x == NONE32) return false;
      }
    }
    if ((ri = new_rec(r, at, kind)) == NONE32) return false;
    s->recs[ri].x = x;
    s->recs[ri].n = v;
    return true;
  }
  case WIRE_T_NAMED_ENUM: {
    uint16_t nsl = g16(r);
    const uint8_t *ns = gbytes(r, nsl);
    uint16_t nl = g16(r);
    const uint8_t *nm = gbytes(r, nl);
    uint32_t v = g32(r);
    if (r->status || !meta_ok(r, ns, nsl, nm, nl, at)) return false;
    uint32_t x = new_names(r, ns, nsl, nm, nl, at);
    if (x == NONE32 || (ri = new_rec(r, at, WIRE_T_NAMED_ENUM)) == NONE32)
      return false;
    s->recs[ri].x = x;
    s->recs[ri].n = v;
    return true;
  }
  case WIRE_T_STRUCT: case TAPE_STRUCT_TD: {
    const uint8_t *td = NULL;
    uint32_t tl = 0;
    if (op == TAPE_STRUCT_TD) {
      tl = g32(r);
      td = gbytes(r, tl);
    }
    uint32_t type = g32(r);
    if (type == 0xFFFFFFFFu) { /* identity block: informative on input */
      g32(r);
      gbytes(r, g16(r));
      gbytes(r, g16(r));
    }
    if (r->status) return false;
    const wire_layout *l;
    uint8_t kind;
    if (td) {
      if (!(l = td_layout(r, td, tl, at))) return false;
      kind = wire__layout_struct_kind(l);
    } else {
      const wire_utype *t = reg_type(r, type, WIRE_KIND_STRUCT, at);
      if (!t) return false;
      if (wire__layout_of(r->ctx, type) != WIRE_OK) {
        r->builder_msg = true;
        return rfail(r, r->ctx->err_code, at);
      }
      l = t->layout;
      kind = wire__struct_kind(r->ctx, t);
    }
    if ((ri = new_struct(r, at, kind, l)) == NONE32) return false;
    if (!fields_by_name(r, ri, depth, at)) return false;
    r->s->recs[ri].end = (uint32_t)r->s->nrecs;
    return true;
  }
  case TAPE_STRUCT_IDX: {
    uint32_t type = g32(r), nf = g32(r);
    if (r->status) return false;
    const wire_utype *t = reg_type(r, type, WIRE_KIND_STRUCT, at);
    if (!t) return false;
    if (wire__layout_of(r->ctx, type) != WIRE_OK) {
      r->builder_msg = true;
      return rfail(r, r->ctx->err_code, at);
    }
    const wire_layout *l = t->layout;
    if ((ri = new_struct(r, at, wire__struct_kind(r->ctx, t), l)) == NONE32)
      return false;
    if (nf != l->nfields)
      return bfail(r, WIRE_E_ARG, at, "struct %s has %u fields, the tape "
                   "gives %u", t->full_name, l->nfields, nf);
    uint32_t base = r->s->sts[r->s->recs[ri].x].fields;
    for (uint32_t i = 0; i < nf; i++) {
      r->s->fld[base + i] = (uint32_t)r->s->nrecs;
      if (!value(r, depth + 1)) return false;
    }
    r->s->recs[ri].end = (uint32_t)r->s->nrecs;
    return true;
  }
  case WIRE_T_UNION: {
    uint32_t type = g32(r), c = g32(r);
    if (r->status) return false;
    if ((ri = new_rec(r, at, WIRE_T_UNION)) == NONE32) return false;
    size_t slot = s->nrefs; /* the union's number comes before its value's */
    if (!number(r, NONE32, at) || !value(r, depth + 1)) return false;
    uint8_t kind = WIRE_T_UNION;
    uint32_t x = UINT32_MAX;
    if (type != WIRE_BY_NAME) {
      const wire_utype *t = reg_type(r, type, WIRE_KIND_UNION, at);
      if (!t) return false;
      if (t->by_name) {
        kind = WIRE_T_NAMED_UNION;
        x = new_names(r, (const uint8_t *)t->ns, strlen(t->ns),
                      (const uint8_t *)t->name, strlen(t->name), at);
        if (x == NONE32) return false;
      } else {
        kind = WIRE_T_TYPED_UNION;
        x = t->user_id;
      }
    }
    trec *u = &r->s->recs[ri];
    u->type = kind;
    u->x = x;
    u->n = c;
    u->end = (uint32_t)r->s->nrecs;
    r->s->refs[slot] = ri;
    return true;
  }
  default:
    if (op >= WIRE_T_INT8 && op <= WIRE_T_TAGGED_UINT64) {
      uint64_t u = g64(r);
      if (r->status || !int_ok(r, op, u, at)) return false;
      return new_rec(r, at, op) != NONE32;
    }
    if (op >= WIRE_T_FLOAT16 && op <= WIRE_T_FLOAT64) {
      g64(r);
      return !r->status && new_rec(r, at, op) != NONE32;
    }
    if (op == WIRE_T_BINARY || wire_type_array_width(op)) {
      uint32_t len = g32(r);
      const uint8_t *b = gbytes(r, len);
      if (!b) return false;
      uint32_t w = op == WIRE_T_BINARY ? 1 : wire_type_array_width(op);
      if (len % w)
        return bfail(r, WIRE_E_ARG, at, "byte length is not a multiple of the "
                     "width");
      if (op == WIRE_T_BOOL_ARRAY)
        for (uint32_t i = 0; i < len; i++)
          if (b[i] > 1)
            return bfail(r, WIRE_E_ARG, at, "bool array bytes must be 0 or 1");
      return (ri = new_rec(r, at, op)) != NONE32 && number(r, ri, at);
    }
    return rfail(r, WIRE_E_ARG, at); /* not an op of the tape format */
  }
}

/* ---- the index ---------------------------------------------------------- */

static const char *tape_error(int32_t st) {
  switch (st) {
  case WIRE_E_TRUNCATED: return "the tape ends inside a value";
  case WIRE_E_REF: return "REF to a value not defined (yet)";
  case WIRE_E_TRAILING: return "bytes after the last root of the tape";
  case WIRE_E_DEPTH: return "tape values nested deeper than the depth limit";
  case WIRE_E_LIMIT: return "a tape count exceeds the collection limit";
  case WIRE_E_ARG: return "not a tape op (or an invalid operand)";
  default: return wire_status_message(st);
  }
}

/* Pass 1 over the whole tape; *roots gets the root count. */
int32_t wire__tape_index(wire_ctx *ctx, scratch *s, const uint8_t *tape,
                         size_t len, uint32_t *roots) {
  s->nrecs = s->nrefs = s->nsts = s->nfld = s->nnames = s->ntds = 0;
  wire__arena_free(&s->arena);
  if (!tape || len < 8 || tape[0] != 'W' || tape[1] != 'T' || tape[2] < 1 ||
      tape[2] > TAPE_VERSION)
    return wire__fail(ctx, WIRE_E_ARG, 0, "not a tape (version 1 or 2)");
  if (len > UINT32_MAX)
    return wire__fail(ctx, WIRE_E_LIMIT, 0, "tape longer than 4 GiB");
  rd r = {ctx, s, tape, tape + 8, tape + len, 0, 0, false};
  memcpy(roots, tape + 4, 4);
  /* Records are at least one tape byte each: reserve for the common case. */
  size_t guess = len / 8 + 16;
  if (!grow_arr(ctx, (void **)&s->recs, &s->recs_cap, guess, sizeof *s->recs))
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  for (uint32_t i = 0; i < *roots && !r.status; i++) value(&r, 0);
  if (!r.status && r.p != r.end) rfail(&r, WIRE_E_TRAILING, r.p);
  if (!r.status) return WIRE_OK;
  if (r.builder_msg && ctx->err_code == r.status) {
    ctx->err_offset = r.err_at;
    return r.status;
  }
  return wire__fail(ctx, r.status, r.err_at, "%s", tape_error(r.status));
}
