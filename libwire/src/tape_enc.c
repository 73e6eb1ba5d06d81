/* tape_enc.c - tapes to bytes without a document (wire_encode_tape,
 * wire_encode_tape_to).
 *
 * Pass 1 reads the whole tape into an index of records, one per value, in
 * pre-order: it checks what the document builders check (ops, lengths,
 * integer ranges, text, registered types, field names, REF numbers) with
 * the same statuses, resolves REF ops to the record they name, and marks
 * values named by a REF as tracked under reference tracking. Nothing is
 * copied: records point into the tape. Pass 2 writes the records with the
 * writer policy of policy.h, as encode.c writes document nodes, so both
 * paths give the same bytes. The index, the output buffer and the tables
 * live in the context and are reused by the next call. */
#include "tape.h"

#include <stdio.h>

/* ---- records ------------------------------------------------------------ */

#define R_REF 0x01     /* a REF op: x = the record it names */
#define R_TRACKED 0x02 /* named by a REF under reference tracking */
#define R_PACKED 0x04  /* PACKED list/set: a = element type, n = count */
#define R_SAME 0x08    /* string: the wire bytes are the tape bytes */
#define NONE32 UINT32_MAX

typedef struct {
  uint32_t at;   /* tape offset of the op byte */
  uint32_t end;  /* record index after this value and its children */
  uint32_t x;    /* REF: target; ENUM, TYPED_UNION, UNION: user type id;
                    NAMED_ENUM, NAMED_UNION: names index; structs: index
                    into the struct table */
  uint32_t n;    /* list, set, map, packed: count; enum value; union case */
  uint32_t mark; /* reference id + 1 in the root being written */
  uint8_t type;  /* the node kind a document would have (WIRE_T_*) */
  uint8_t flags; /* R_* */
  uint8_t a, b;  /* string: wire encoding, given encoding; packed: a = elem */
} trec;

typedef struct {
  const wire_layout *l;
  uint32_t fields; /* first of l->nfields record indices in `fld` */
} tstruct;

typedef struct {
  const uint8_t *td;
  uint32_t len;
  wire_layout *l;
} ttd;

struct wire_tape_scratch {
  trec *recs;
  size_t nrecs, recs_cap;
  uint32_t *refs; /* referenceable values by number: their records */
  size_t nrefs, refs_cap;
  tstruct *sts;
  size_t nsts, sts_cap;
  uint32_t *fld;
  size_t nfld, fld_cap;
  wire_names *names;
  size_t nnames, names_cap;
  ttd *tds;
  size_t ntds, tds_cap;
  wire_arena arena; /* layouts of STRUCT_TD TypeDefs */
  wire_enc enc;     /* writer tables (meta strings, TypeDefs, marks) */
  wire_buf out;     /* output of wire_encode_tape */
  struct wire_tape_dec_scratch *dec; /* the decoder's (tape_dec.c) */
};

typedef struct wire_tape_scratch scratch;

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

/* Grows an array of `size`-byte items to hold `need` of them. */
static bool grow_arr(wire_ctx *ctx, void **p, size_t *cap, size_t need,
                     size_t size) {
  if (need <= *cap) return true;
  void *m = wire__grow(ctx, *p, cap, need - 1, size, 64);
  if (!m) return false;
  *p = m;
  return true;
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

/* ---- pass 2: write ------------------------------------------------------ */

typedef struct {
  wire_enc *e;
  wire_ctx *ctx;
  const uint8_t *tape;
  trec *recs;
  const tstruct *sts;
  const uint32_t *fld;
  const wire_names *names;
} wt;

#define efail wire__enc_fail
#define ok wire__enc_ok

static inline trec *res(const wt *w, uint32_t i) {
  trec *t = &w->recs[i];
  return (t->flags & R_REF) ? &w->recs[t->x] : t;
}
static inline const uint8_t *payload(const wt *w, const trec *t) {
  return w->tape + t->at + 1;
}
static inline uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t rd64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}

/* wire__pol_tracked for a tape value: a REF'd value (under reference
 * tracking) is recorded as tracked, any other is fresh. */
static inline bool tracked(const wt *w, const trec *t) {
  if (t->flags & R_TRACKED) return true;
  return w->ctx->ref_tracking && wire__pol_trackable(t->type);
}

static inline const wire_layout *layout_of(const wt *w, const trec *t) {
  return w->sts[t->x].l;
}

static bool same_user_type(const wt *w, const trec *a, const trec *b);
/* wire__pol_same_type for tape values. */
static inline bool same_type(const wt *w, const trec *a, const trec *b) {
  if (a->type != b->type) return false;
  if (a->type < WIRE_T_ENUM || a->type > WIRE_T_NAMED_EXT) return true;
  return same_user_type(w, a, b);
}

static bool same_user_type(const wt *w, const trec *a, const trec *b) {
  switch (a->type) {
  case WIRE_T_ENUM: case WIRE_T_TYPED_UNION: return a->x == b->x;
  case WIRE_T_NAMED_ENUM:
    return a->x == b->x ||
           wire__pol_same_type(a->type, b->type, 0, 0, &w->names[a->x],
                               &w->names[b->x], NULL, NULL);
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return wire__pol_same_type(a->type, b->type, 0, 0, NULL, NULL,
                               layout_of(w, a), layout_of(w, b));
  default:
    return true;
  }
}

static bool type_meta(const wt *w, const trec *t) {
  wire_user_meta um = {UINT32_MAX, NULL, NULL, -1, -1};
  switch (t->type) {
  case WIRE_T_ENUM: case WIRE_T_TYPED_UNION: case WIRE_T_UNION:
    um.user_id = t->x;
    break;
  case WIRE_T_NAMED_ENUM: case WIRE_T_NAMED_UNION:
    um.names = &w->names[t->x];
    break;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    um.layout = layout_of(w, t);
    break;
  default:
    wire__put_u8(&w->e->b, t->type);
    return ok(w->e);
  }
  return wire__enc_type_meta(w->e, t->type, &um);
}

/* A primitive body from the 8 tape bytes of its value (i64, u64 or f64). */
static inline void prim(wire_buf *b, uint8_t type, uint64_t u) {
  switch (type) {
  case WIRE_T_BOOL: wire__put_u8(b, u != 0); break;
  case WIRE_T_INT8: case WIRE_T_UINT8: wire__put_u8(b, (uint8_t)u); break;
  case WIRE_T_INT16: case WIRE_T_UINT16: wire__put_le(b, u, 2); break;
  case WIRE_T_INT32: case WIRE_T_UINT32: wire__put_le(b, u, 4); break;
  case WIRE_T_INT64: case WIRE_T_UINT64: wire__put_le(b, u, 8); break;
  case WIRE_T_VARINT32: wire__put_varu32(b, wire__zz32((int32_t)u)); break;
  case WIRE_T_VAR_UINT32: wire__put_varu32(b, (uint32_t)u); break;
  case WIRE_T_VARINT64: wire__put_varu64(b, wire__zz64((int64_t)u)); break;
  case WIRE_T_VAR_UINT64: wire__put_varu64(b, u); break;
  case WIRE_T_TAGGED_INT64: wire__put_tagged_i64(b, (int64_t)u); break;
  case WIRE_T_TAGGED_UINT64: wire__put_tagged_u64(b, u); break;
  default: { /* floats: rounded as wire_node_new_float does */
    double d;
    memcpy(&d, &u, 8);
    if (type == WIRE_T_FLOAT64) {
      wire__put_le(b, u, 8);
    } else if (type == WIRE_T_FLOAT32) {
      float f = (float)d;
      uint32_t x;
      memcpy(&x, &f, 4);
      wire__put_le(b, x, 4);
    } else {
      wire__put_le(b, type == WIRE_T_FLOAT16 ? wire_float16_from_double(d)
                                             : wire_bfloat16_from_double(d), 2);
    }
  }
  }
}

static bool body(const wt *w, trec *t, const wire_ftype *decl);

static bool slot(const wt *w, uint32_t i, bool has_flag, bool allow_ref,
                 bool with_type, bool any_slot, const wire_ftype *decl) {
  wire_enc *e = w->e;
  trec *t = res(w, i);
  if (t->type == WIRE_T_NULL) {
    if (!has_flag)
      return efail(e, WIRE_E_ENCODE, "null where the slot has no null flag");
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (has_flag) {
    bool track = wire__pol_slot_tracks(w->ctx, any_slot, t->flags & R_TRACKED,
                                       tracked(w, t));
    if (allow_ref && track) {
      if (t->mark) {
        wire__put_u8(&e->b, 0xFE);
        wire__put_varu32(&e->b, t->mark - 1);
        return ok(e);
      }
      wire__put_u8(&e->b, 0x00);
      if (!wire__enc_mark(e, t)) return false;
      t->mark = ++e->nrefs;
    } else {
      wire__put_u8(&e->b, 0xFF);
    }
  } else if (t->mark) {
    return efail(e, WIRE_E_ENCODE,
                 "shared value in a slot without reference flags");
  }
  if (with_type && !type_meta(w, t)) return false;
  return body(w, t, decl);
}

static bool field(const wt *w, const wire_lfield *lf, uint32_t vi) {
  wire_enc *e = w->e;
  const wire_ftype *f = lf->type;
  bool flag = f->nullable || f->ref;
  if (vi == NONE32) {
    if (!flag)
      return efail(e, WIRE_E_ENCODE, "field %.*s has no value",
                   (int)lf->name_len, (const char *)lf->name);
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  bool dynamic = !wire__pol_static_type(w->ctx, f);
  if (wire__is_prim(f->type_id) && !flag) {
    trec *v = res(w, vi);
    if (v->type != f->type_id)
      return efail(e, WIRE_E_ENCODE, "field %.*s is a %s, not a %s",
                   (int)lf->name_len, (const char *)lf->name,
                   wire_type_name(f->type_id), wire_type_name(v->type));
    return body(w, v, f);
  }
  return slot(w, vi, flag, f->ref, dynamic, dynamic, f);
}

static bool write_struct(const wt *w, const trec *t) {
  wire_enc *e = w->e;
  const tstruct *st = &w->sts[t->x];
  const wire_layout *l = st->l;
  if (!w->ctx->compatible && !l->td && l->kind == WIRE_KIND_STRUCT)
    wire__put_le(&e->b, l->schema_hash, 4);
  if (!wire__enc_enter(e)) return false;
  for (uint32_t i = 0; i < l->nfields; i++)
    if (!field(w, &l->fields[i], w->fld[st->fields + i])) return false;
  e->depth--;
  return ok(e);
}

static bool write_packed(const wt *w, const trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  const wire_ftype *edecl;
  uint8_t h = wire__pol_list_header(w->ctx, decl, true, false, false, &edecl);
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) wire__put_u8(&e->b, t->a);
  if (!wire__enc_enter(e)) return false;
  const uint8_t *p = payload(w, t) + 6;
  /* Elements have the same type and are never tracked: every flag is ff
   * (the list is same-type, so no slot is of undeclared type). */
  size_t per = flags ? 11 : 10;
  if (!wire__buf_room(&e->b, per * count)) return ok(e);
  uint8_t et = t->a;
  for (uint32_t i = 0; i < count; i++) {
    if (flags) e->b.p[e->b.len++] = 0xFF;
    prim(&e->b, et, rd64(p + 8 * (size_t)i));
  }
  e->depth--;
  return ok(e);
}

static bool write_list(const wt *w, const trec *t, const wire_ftype *decl) {
  if (t->flags & R_PACKED) return write_packed(w, t, decl);
  wire_enc *e = w->e;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  uint32_t first_at = t - w->recs + 1, end = t->end;
  const trec *first = NULL;
  bool has_null = false, same = true, track = false;
  for (uint32_t c = first_at; c < end; c = w->recs[c].end) {
    const trec *x = res(w, c);
    if (x->type == WIRE_T_NULL) { has_null = true; continue; }
    if (!first) first = x;
    else if (same && !same_type(w, first, x)) same = false;
    if (!track && tracked(w, x)) track = true;
  }
  const wire_ftype *edecl;
  uint8_t h = wire__pol_list_header(w->ctx, decl, same, has_null, track, &edecl);
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) {
    if (first) {
      if (!type_meta(w, first)) return false;
    } else {
      wire__put_u8(&e->b, WIRE_T_NONE);
    }
  }
  if (!wire__enc_enter(e)) return false;
  bool allow_ref = h & WIRE_LF_TRACKING;
  if (!flags && st) {
    /* no flags, no type meta: the bodies alone */
    for (uint32_t c = first_at; c < end; c = w->recs[c].end) {
      trec *x = res(w, c);
      if (x->type == WIRE_T_NULL)
        return efail(e, WIRE_E_ENCODE, "null where the slot has no null flag");
      if (x->mark)
        return efail(e, WIRE_E_ENCODE,
                     "shared value in a slot without reference flags");
      if (!body(w, x, edecl)) return false;
    }
  } else {
    for (uint32_t c = first_at; c < end; c = w->recs[c].end)
      if (!slot(w, c, flags, allow_ref, !st, !st, edecl)) return false;
  }
  e->depth--;
  return ok(e);
}

static bool write_map(const wt *w, const trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  const wire_ftype *kd = decl ? wire__pol_map_decl(w->ctx, decl->key) : NULL;
  const wire_ftype *vd = decl ? wire__pol_map_decl(w->ctx, decl->value) : NULL;
  uint32_t count = t->n;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  if (!wire__enc_enter(e)) return false;
  uint32_t kc = (uint32_t)(t - w->recs) + 1; /* key record of the entry */
  uint32_t left = count;
  while (left) {
    uint32_t vc = w->recs[kc].end;
    const trec *k = res(w, kc), *v = res(w, vc);
    bool kn = k->type == WIRE_T_NULL, vn = v->type == WIRE_T_NULL;
    if (kn || vn) {
      uint32_t h = wire__pol_null_chunk(kn, vn, kd, vd);
      const wire_ftype *kdecl = (h & WIRE_MF_KEY_DECL) ? kd : NULL;
      const wire_ftype *vdecl = (h & WIRE_MF_VAL_DECL) ? vd : NULL;
      wire__put_u8(&e->b, (uint8_t)h);
      if (!kn && !slot(w, kc, h & WIRE_MF_KEY_TRACK, true, !kdecl, true, kdecl))
        return false;
      if (!vn && !slot(w, vc, h & WIRE_MF_VAL_TRACK, true, !vdecl, true, vdecl))
        return false;
      kc = w->recs[vc].end;
      left--;
      continue;
    }
    /* A normal chunk: the following entries of the same key and value
     * types, no nulls, fewer than WIRE_POL_CHUNK_MAX. */
    uint32_t size = 1;
    bool kt = tracked(w, k), vt = tracked(w, v);
    uint32_t c = w->recs[vc].end;
    while (size < left && size < WIRE_POL_CHUNK_MAX) {
      uint32_t c2 = w->recs[c].end;
      const trec *k2 = res(w, c), *v2 = res(w, c2);
      if (k2->type == WIRE_T_NULL || v2->type == WIRE_T_NULL ||
          !same_type(w, k, k2) || !same_type(w, v, v2))
        break;
      kt |= tracked(w, k2);
      vt |= tracked(w, v2);
      size++;
      c = w->recs[c2].end;
    }
    uint32_t h = wire__pol_chunk(decl, kd, vd, kt, vt);
    const wire_ftype *kdecl = (h & WIRE_MF_KEY_DECL) ? kd : NULL;
    const wire_ftype *vdecl = (h & WIRE_MF_VAL_DECL) ? vd : NULL;
    wire__put_u8(&e->b, (uint8_t)h);
    wire__put_u8(&e->b, (uint8_t)size);
    if ((!kdecl && !type_meta(w, k)) || (!vdecl && !type_meta(w, v)))
      return false;
    if (!(h & (WIRE_MF_KEY_TRACK | WIRE_MF_VAL_TRACK))) {
      /* no flags: the bodies alone (slot() without its flag branch) */
      for (uint32_t i = 0; i < size; i++) {
        vc = w->recs[kc].end;
        trec *k2 = res(w, kc), *v2 = res(w, vc);
        if (k2->mark)
          return efail(e, WIRE_E_ENCODE,
                       "shared value in a slot without reference flags");
        if (!body(w, k2, kdecl)) return false;
        if (v2->mark)
          return efail(e, WIRE_E_ENCODE,
                       "shared value in a slot without reference flags");
        if (!body(w, v2, vdecl)) return false;
        kc = w->recs[vc].end;
      }
    } else {
      for (uint32_t i = 0; i < size; i++) {
        vc = w->recs[kc].end;
        if (!slot(w, kc, h & WIRE_MF_KEY_TRACK, true, false, false, kdecl) ||
            !slot(w, vc, h & WIRE_MF_VAL_TRACK, true, false, false, vdecl))
          return false;
        kc = w->recs[vc].end;
      }
    }
    left -= size;
  }
  e->depth--;
  return ok(e);
}

static bool write_string(const wt *w, const trec *t) {
  wire_buf *b = &w->e->b;
  const uint8_t *p = payload(w, t);
  const uint8_t *s = p + 5;
  size_t n = t->n;
  if (!wire__buf_room(b, 5 + n)) return ok(w->e);
  wire__put_varu36(b, ((uint64_t)n << 2) | t->a);
  if (t->flags & R_SAME) {
    memcpy(b->p + b->len, s, n);
  } else {
    size_t m = wire__transcode(t->b, t->a, s, rd32(p + 1), b->p + b->len, n);
    if (m < n) memset(b->p + b->len + m, 0, n - m); /* malformed trusted text */
  }
  b->len += n;
  return ok(w->e);
}

static bool body(const wt *w, trec *t, const wire_ftype *decl) {
  wire_enc *e = w->e;
  wire_buf *b = &e->b;
  const uint8_t *p = payload(w, t);
  switch (t->type) {
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return write_struct(w, t);
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    wire__put_varu32(b, t->n);
    if (!wire__enc_enter(e)) return false;
    if (!slot(w, (uint32_t)(t - w->recs) + 1, true, true, true, true, NULL))
      return false;
    e->depth--;
    return ok(e);
  case WIRE_T_BOOL: wire__put_u8(b, p[0] != 0); break;
  case WIRE_T_STRING: return write_string(w, t);
  case WIRE_T_LIST: case WIRE_T_SET: return write_list(w, t, decl);
  case WIRE_T_MAP: return write_map(w, t, decl);
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: wire__put_varu32(b, t->n); break;
  case WIRE_T_NONE: break;
  case WIRE_T_DURATION:
    wire__put_varu64(b, wire__zz64((int64_t)rd64(p)));
    wire__put_le(b, rd32(p + 8), 4);
    break;
  case WIRE_T_TIMESTAMP:
    wire__put_le(b, rd64(p), 8);
    wire__put_le(b, rd32(p + 8), 4);
    break;
  case WIRE_T_DATE: wire__put_varu64(b, wire__zz64((int64_t)rd64(p))); break;
  case WIRE_T_DECIMAL:
    return wire__enc_decimal(e, (int32_t)rd32(p), p[4] != 0, p + 9, rd32(p + 5));
  default:
    if (wire__is_prim(t->type)) {
      prim(b, t->type, rd64(p));
      break;
    }
    if (t->type == WIRE_T_BINARY || wire__is_array_type(t->type)) {
      uint32_t len = rd32(p);
      wire__put_varu32(b, len);
      wire__put_bytes(b, p + 4, len);
      break;
    }
    return efail(e, WIRE_E_TYPE, "cannot encode a %s value",
                 wire_type_name(t->type) ? wire_type_name(t->type) : "?");
  }
  return ok(e);
}

/* ---- entry points -------------------------------------------------------- */

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
static int32_t index_tape(wire_ctx *ctx, scratch *s, const uint8_t *tape,
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

/* Pass 2: the roots into e->b. */
static bool write_roots(wire_ctx *ctx, scratch *s, const uint8_t *tape,
                        uint32_t roots, wire_enc *e) {
  wt w = {e, ctx, tape, s->recs, s->sts, s->fld, s->names};
  bool good = true;
  uint32_t ri = 0;
  for (uint32_t i = 0; i < roots && good; i++) {
    wire__put_u8(&e->b, 0x01);
    good = slot(&w, ri, true, true, true, true, NULL);
    for (size_t k = 0; k < e->nmarked; k++) ((trec *)e->marked[k])->mark = 0;
    wire__enc_end_root(e);
    ri = s->recs[ri].end;
  }
  return good && ok(e);
}

/* Scratch above this size is released after the call, so one huge message
 * does not pin its memory in the context. */
#define KEEP_BYTES ((size_t)16 << 20)

static void trim(wire_ctx *ctx, scratch *s) {
  if (s->recs_cap * sizeof *s->recs > KEEP_BYTES) {
    wire__free(ctx, s->recs, s->recs_cap * sizeof *s->recs);
    s->recs = NULL;
    s->recs_cap = 0;
  }
  if (s->refs_cap * sizeof *s->refs > KEEP_BYTES) {
    wire__free(ctx, s->refs, s->refs_cap * sizeof *s->refs);
    s->refs = NULL;
    s->refs_cap = 0;
  }
  if (s->fld_cap * sizeof *s->fld > KEEP_BYTES) {
    wire__free(ctx, s->fld, s->fld_cap * sizeof *s->fld);
    s->fld = NULL;
    s->fld_cap = 0;
  }
  if (s->out.cap > KEEP_BYTES) {
    wire__free(ctx, s->out.p, s->out.cap);
    s->out.p = NULL;
    s->out.cap = 0;
  }
  wire__arena_free(&s->arena);
}

/* Encodes the tape, appending to *out. On failure out->len is unchanged;
 * if out is a fixed buffer that is too small, the result is
 * WIRE_E_BUFFER_FULL and *need gets the payload size. */
static int32_t encode_buf(wire_ctx *ctx, const uint8_t *tape, size_t len,
                          wire_buf *out, size_t *need) {
  scratch *s = wire__tape_scratch(ctx);
  if (!s) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  uint32_t roots = 0;
  int32_t st = index_tape(ctx, s, tape, len, &roots);
  if (st) {
    trim(ctx, s);
    return st;
  }
  wire_enc *e = &s->enc;
  size_t base = out->len;
  e->b = *out;
  e->base = base;
  bool good = write_roots(ctx, s, tape, roots, e);
  out->p = e->b.p;
  out->cap = e->b.cap;
  int32_t bst = e->b.status;
  if (good) {
    out->len = e->b.len;
  } else {
    for (size_t k = 0; k < e->nmarked; k++) ((trec *)e->marked[k])->mark = 0;
    wire__enc_end_root(e);
    st = ctx->err_code ? ctx->err_code : WIRE_E_STATE;
    if (bst == WIRE_E_BUFFER_FULL) {
      /* Write again into scratch: the size needed, or the real error that
       * follows the point where the buffer filled up. */
      wire_buf tmp = {ctx, NULL, 0, 0, false, WIRE_OK};
      e->b = tmp;
      e->base = 0;
      wire_ctx_clear_error(ctx);
      if (write_roots(ctx, s, tape, roots, e)) {
        *need = e->b.len;
        st = wire__fail(ctx, WIRE_E_BUFFER_FULL, 0, "the payload needs %zu "
                        "bytes, the buffer has %zu", e->b.len, out->cap - base);
      } else {
        for (size_t k = 0; k < e->nmarked; k++) ((trec *)e->marked[k])->mark = 0;
        wire__enc_end_root(e);
        st = ctx->err_code ? ctx->err_code : WIRE_E_STATE;
      }
      wire__free(ctx, e->b.p, e->b.cap);
    }
  }
  memset(&e->b, 0, sizeof e->b);
  e->base = 0;
  trim(ctx, s);
  return st;
}

int32_t wire_encode_tape_to(wire_ctx *ctx, const uint8_t *tape, size_t len,
                            wire_writer *w) {
  if (!ctx || !w || (!tape && len)) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  if (w->b.status != WIRE_OK)
    return wire__fail(ctx, w->b.status, 0, "the writer has failed before");
  size_t need = 0, base = w->b.len;
  int32_t st = encode_buf(ctx, tape, len, &w->b, &need);
  if (st == WIRE_E_BUFFER_FULL) {
    w->b.status = WIRE_E_BUFFER_FULL;
    w->needed = base + need;
  }
  return st;
}

int32_t wire_encode_tape(wire_ctx *ctx, const uint8_t *tape, size_t len,
                         uint8_t **out, size_t *out_len) {
  if (!ctx || !out || !out_len || (!tape && len)) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  wire_ctx_clear_error(ctx);
  scratch *s = wire__tape_scratch(ctx);
  if (!s) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  wire_buf b = s->out; /* the context's output buffer, reused */
  s->out.p = NULL;
  s->out.cap = 0;
  b.len = 0;
  b.status = WIRE_OK;
  size_t need;
  int32_t st = encode_buf(ctx, tape, len, &b, &need);
  uint8_t *res = NULL;
  if (!st && !(res = wire__bytes_alloc(ctx, b.len)))
    st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  if (res) {
    if (b.len) memcpy(res, b.p, b.len);
    *out = res;
    *out_len = b.len;
  }
  if (s->out.p) wire__free(ctx, s->out.p, s->out.cap); /* trimmed meanwhile */
  s->out = b;
  s->out.len = 0;
  if (s->out.cap > KEEP_BYTES) {
    wire__free(ctx, s->out.p, s->out.cap);
    s->out.p = NULL;
    s->out.cap = 0;
  }
  return st;
}
