/* policy.c - the parts of the writer policy shared by the document encoder
 * and the tape encoder that are not inline in policy.h: meta strings,
 * shared TypeDefs, the type meta of user types, decimals. */
#include "policy.h"

#include <stdio.h>

bool wire__enc_fail(wire_enc *e, int32_t code, const char *fmt, ...) {
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  wire__fail(e->ctx, code, e->b.len - e->base, "%s", msg);
  return false;
}

bool wire__enc_mark(wire_enc *e, void *value) {
  if (e->nmarked == e->marked_cap) {
    void **m = wire__grow(e->ctx, e->marked, &e->marked_cap, e->nmarked,
                          sizeof *m, 32);
    if (!m) return wire__enc_fail(e, WIRE_E_NOMEM, "out of memory");
    e->marked = m;
  }
  e->marked[e->nmarked++] = value;
  return true;
}

/* Implements R-MSWIRE-7, R-SHARED-4, R-PAYLOAD-5. */
void wire__enc_end_root(wire_enc *e) {
  e->nmarked = 0;
  e->nrefs = 0;
  e->depth = 0;
  if (!WIRE_MUTANT(shared_no_reset)) {
    e->ntds = 0;
    e->ntdn = 0;
  }
  e->nms = 0;
}

void wire__enc_begin(wire_enc *e, wire_ctx *ctx) {
  memset(e, 0, sizeof *e);
  e->ctx = ctx;
  e->b.ctx = ctx;
  e->marked = ctx->enc_keep.marked;
  e->marked_cap = ctx->enc_keep.marked_cap;
  e->tds = ctx->enc_keep.tds;
  e->tds_cap = ctx->enc_keep.tds_cap;
  e->tdn = ctx->enc_keep.tdn;
  e->tdn_cap = ctx->enc_keep.tdn_cap;
  e->ms = ctx->enc_keep.ms;
  e->ms_cap = ctx->enc_keep.ms_cap;
  memset(&ctx->enc_keep, 0, sizeof ctx->enc_keep);
}

/* Tables up to this many entries are kept on the context for the next
 * call; larger ones are freed. */
#define KEEP_MAX 4096

void wire__enc_keep_free(wire_ctx *ctx) {
  wire_enc e;
  wire__enc_begin(&e, ctx);
  if (e.marked) wire__free(ctx, e.marked, e.marked_cap * sizeof *e.marked);
  if (e.tds) wire__free(ctx, e.tds, e.tds_cap * sizeof *e.tds);
  if (e.tdn) wire__free(ctx, e.tdn, e.tdn_cap * sizeof *e.tdn);
  if (e.ms) wire__free(ctx, e.ms, e.ms_cap * sizeof *e.ms);
}

void wire__enc_release(wire_enc *e) {
  wire_ctx *ctx = e->ctx;
  bool keep = !ctx->enc_keep.marked && !ctx->enc_keep.tds &&
              !ctx->enc_keep.tdn && !ctx->enc_keep.ms &&
              e->marked_cap <= KEEP_MAX && e->tds_cap <= KEEP_MAX &&
              e->tdn_cap <= KEEP_MAX && e->ms_cap <= KEEP_MAX;
  if (keep) {
    ctx->enc_keep.marked = e->marked;
    ctx->enc_keep.marked_cap = e->marked_cap;
    ctx->enc_keep.tds = e->tds;
    ctx->enc_keep.tds_cap = e->tds_cap;
    ctx->enc_keep.tdn = e->tdn;
    ctx->enc_keep.tdn_cap = e->tdn_cap;
    ctx->enc_keep.ms = e->ms;
    ctx->enc_keep.ms_cap = e->ms_cap;
  } else {
    if (e->marked) wire__free(ctx, e->marked, e->marked_cap * sizeof *e->marked);
    if (e->tds) wire__free(ctx, e->tds, e->tds_cap * sizeof *e->tds);
    if (e->tdn) wire__free(ctx, e->tdn, e->tdn_cap * sizeof *e->tdn);
    if (e->ms) wire__free(ctx, e->ms, e->ms_cap * sizeof *e->ms);
  }
  e->marked = NULL;
  e->tds = NULL;
  e->tdn = NULL;
  e->ms = NULL;
  e->marked_cap = e->tds_cap = e->tdn_cap = e->ms_cap = 0;
  wire__enc_end_root(e);
}

bool wire__pol_fits_user(const wire_ctx *ctx, const wire_ftype *f,
                         uint8_t type, uint32_t user_id,
                         const wire_names *names, const wire_layout *layout) {
  if (f->type_id == WIRE_T_UNKNOWN) return true;
  if (!ctx->reg || f->user >= ctx->reg->ntypes)
    return type == f->type_id && !wire__is_struct_or_ext(type);
  const wire_utype *t = &ctx->reg->types[f->user];
  switch (t->kind) {
  case WIRE_KIND_ENUM:
    if (!t->by_name) return type == WIRE_T_ENUM && user_id == t->user_id;
    return type == WIRE_T_NAMED_ENUM && names &&
           names->ns_len == strlen(t->ns) &&
           names->name_len == strlen(t->name) &&
           wire__eq(names->ns, t->ns, names->ns_len) &&
           wire__eq(names->name, t->name, names->name_len);
  case WIRE_KIND_UNION:
    return type >= WIRE_T_UNION && type <= WIRE_T_NAMED_UNION;
  default: {
    uint8_t want = t->kind == WIRE_KIND_EXT
                       ? (t->by_name ? WIRE_T_NAMED_EXT : WIRE_T_EXT)
                       : (t->by_name ? WIRE_T_NAMED_STRUCT : WIRE_T_STRUCT);
    /* the body is written with the value's layout and read with the
     * schema's: they must be one (or write the same TypeDef) */
    return type == want && layout && layout->type_index == f->user &&
           (layout == t->layout || !layout->td || layout->matches_schema);
  }
  }
}

bool wire__enc_not_declared(wire_enc *e, uint8_t type, const wire_ftype *decl) {
  return wire__enc_fail(e, WIRE_E_ENCODE, "a %s where %s is declared",
                        wire_type_name(type) ? wire_type_name(type) : "?",
                        decl->user != WIRE_NO_TYPE
                            ? e->ctx->reg->types[decl->user].full_name
                            : wire_type_name(decl->type_id));
}

/* The struct a layout lays out, "ns.Name" (or "Name"), into buf (cut at
 * cap): the registered type's full name, else the writer's TypeDef's. */
const char *wire__layout_full_name(const wire_ctx *ctx, const wire_layout *l,
                                   char *buf, size_t cap) {
  if (l->type_index != WIRE_NO_TYPE)
    snprintf(buf, cap, "%s", ctx->reg->types[l->type_index].full_name);
  else
    snprintf(buf, cap, "%.*s%s%.*s", (int)l->ns_len,
             l->ns ? (const char *)l->ns : "", l->ns_len ? "." : "",
             (int)l->name_len, l->name ? (const char *)l->name : "");
  return buf;
}

/* A field's error, as the writer saw it, prefixed once with the field and
 * its struct ("field demo.Item.name: a varint64 where string is
 * declared"): the innermost field names it, the fields of the structs
 * around it leave it so. False. */
bool wire__enc_in_field(wire_enc *e, const wire_layout *l,
                        const wire_lfield *lf) {
  wire_ctx *ctx = e->ctx;
  if (e->field_named || ctx->err_code == WIRE_E_NOMEM ||
      ctx->err_code == WIRE_E_BUFFER_FULL)
    return false;
  e->field_named = true;
  char was[sizeof ctx->err_msg], sname[sizeof ctx->err_msg];
  memcpy(was, ctx->err_msg, sizeof was);
  /* (cut at the message's size, as every message is) */
  int n = snprintf(ctx->err_msg, sizeof ctx->err_msg, "field %s.%.*s: %s",
                   wire__layout_full_name(ctx, l, sname, sizeof sname),
                   (int)lf->name_len, (const char *)lf->name, was);
  if (n < 0) memcpy(ctx->err_msg, was, sizeof was);
  return false;
}

/* ---- meta strings ------------------------------------------------------ */

/* Implements R-MSWIRE-1, R-MSWIRE-2, R-MSWIRE-4, R-MSWIRE-5, R-WMS-1, R-WMS-2. */
static bool write_meta_string(wire_enc *e, int msctx, const uint8_t *text,
                              uint32_t tlen, int recorded, int form,
                              bool again, uint32_t ref) {
  int32_t me = recorded >= 0 ? recorded
                             : wire_meta_choose_encoding(msctx, text, tlen);
  if (WIRE_MUTANT(ms_always_utf8) && recorded < 0 && me >= 0) me = WIRE_MS_UTF8;
  if (me < 0) return wire__enc_fail(e, WIRE_E_META_STRING, "not a meta string");
  uint8_t stackbuf[256];
  uint8_t *heap = NULL;
  size_t blen = tlen, hcap = (size_t)tlen * 2 + 1;
  const uint8_t *bytes = text;
  if (me != WIRE_MS_UTF8) {
    uint8_t *buf = stackbuf;
    if (hcap > sizeof stackbuf && !(buf = heap = wire__alloc(e->ctx, hcap)))
      return wire__enc_fail(e, WIRE_E_NOMEM, "out of memory");
    if (wire_meta_encode(msctx, me, text, tlen, buf, hcap, &blen) != WIRE_OK) {
      wire__free(e->ctx, heap, hcap);
      return wire__enc_fail(e, WIRE_E_META_STRING,
                            "\"%.*s\" cannot be written as %s",
                            (int)(tlen > 64 ? 64 : tlen), (const char *)text,
                            wire_meta_encoding_name(me));
    }
    bytes = buf;
  }
  /* A name equal (encoding and bytes) to one announced before in this
   * root, in either role, is written as a reference to it, as both
   * runtimes do - unless the payload announced it again (Fory Go). */
  if (WIRE_MUTANT(ms_announce_again)) again = true;
  if (ref && ref <= e->nms && !again) {
    /* the entry the decoded payload referred to, if it still matches */
    wire_ms_seen *s = &e->ms[ref - 1];
    if (s->enc == me && s->len == blen && wire__eq(e->b.p + s->off, bytes, blen)) {
      wire__put_varu32(&e->b, (ref << 1) | 1);
      wire__free(e->ctx, heap, hcap);
      return wire__enc_ok(e);
    }
  }
  /* The latest equal entry: where a name was announced again (Fory Go),
   * Go refers to the later announcement (R-MSWIRE-9). */
  for (size_t k = e->nms; k-- > 0 && !again;) {
    size_t i = WIRE_MUTANT(ms_refer_first) ? e->nms - 1 - k : k; /* earliest first */
    wire_ms_seen *s = &e->ms[i];
    if (s->enc == me && s->len == blen && wire__eq(e->b.p + s->off, bytes, blen)) {
      wire__put_varu32(&e->b, (uint32_t)(((i + 1) << 1) | 1));
      wire__free(e->ctx, heap, hcap);
      return wire__enc_ok(e);
    }
  }
  if (e->nms == e->ms_cap) {
    wire_ms_seen *m = wire__grow(e->ctx, e->ms, &e->ms_cap, e->nms, sizeof *m,
                                 8);
    if (!m) {
      wire__free(e->ctx, heap, hcap);
      return wire__enc_fail(e, WIRE_E_NOMEM, "out of memory");
    }
    e->ms = m;
  }
  wire__put_varu32(&e->b, (uint32_t)(blen << 1));
  if (blen > 16) {
    wire__put_le(&e->b, wire__ms_hash(bytes, blen, (uint8_t)me, form), 8);
  } else if (blen > 0) {
    wire__put_u8(&e->b, (uint8_t)me);
  }
  wire__put_bytes(&e->b, bytes, blen);
  wire__free(e->ctx, heap, hcap);
  if (!wire__enc_ok(e)) return false;
  /* The announced bytes stay in the output: later names compare there. */
  e->ms[e->nms++] = (wire_ms_seen){e->b.len - blen, (uint32_t)blen,
                                   (uint8_t)me, (uint8_t)msctx};
  return true;
}

static bool write_names(wire_enc *e, const wire_names *nm, int32_t ns_enc,
                        int32_t name_enc) {
  /* pyfory and Go hash long names in the raw form (E-26, R-PEER-4) */
  uint8_t raw = e->ctx->peer == WIRE_PEER_PYFORY || e->ctx->peer == WIRE_PEER_GO;
  return write_meta_string(e, WIRE_MSCTX_NAMESPACE, nm->ns, nm->ns_len, ns_enc,
                           nm->ns_hash_form | raw, nm->ns_again, nm->ns_ref) &&
         write_meta_string(e, WIRE_MSCTX_TYPE_NAME, nm->name, nm->name_len,
                           name_enc, nm->name_hash_form | raw, nm->name_again,
                           nm->name_ref);
}

/* ---- shared TypeDefs --------------------------------------------------- */

static bool grow_tds(wire_enc *e) {
  if (e->ntds < e->tds_cap) return true;
  const void **t = wire__grow(e->ctx, e->tds, &e->tds_cap, e->ntds, sizeof *t,
                              8);
  if (!t) return wire__enc_fail(e, WIRE_E_NOMEM, "out of memory");
  e->tds = t;
  return true;
}

/* Shared TypeDef: a reference if this root already announced it, else the
 * next index and the TypeDef bytes (as read, or built from the schema). */
/* Implements R-SHARED-1, R-SHARED-2, R-SHARED-5. */
static bool write_shared_typedef(wire_enc *e, const wire_layout *l,
                                 uint32_t ti) {
  if (!l && (ti == WIRE_NO_TYPE || !e->ctx->reg))
    return wire__enc_fail(e, WIRE_E_SCHEMA, "compatible mode needs the type's "
                          "TypeDef: the type is not in the schema");
  const void *key = l ? (const void *)l : (const void *)&e->ctx->reg->types[ti];
  for (size_t i = 0; i < e->ntds && !WIRE_MUTANT(shared_announce_again); i++) {
    if (e->tds[i] == key) {
      wire__put_varu32(&e->b, (uint32_t)(i << 1 | !WIRE_MUTANT(shared_bit_inverted)));
      return wire__enc_ok(e);
    }
  }
  if (!grow_tds(e)) return false;
  wire__put_varu32(&e->b, (uint32_t)(e->ntds << 1 | WIRE_MUTANT(shared_bit_inverted)));
  e->tds[e->ntds++] = key;
  if (l && l->td) {
    wire__put_bytes(&e->b, l->td, l->td_len);
    return wire__enc_ok(e);
  }
  if (l) ti = l->type_index;
  if (ti == WIRE_NO_TYPE)
    return wire__enc_fail(e, WIRE_E_ENCODE,
                          "no TypeDef for a type not in the schema");
  {
    /* the type's TypeDef as built once (wire__typedef_bytes) */
    const wire_registry *r = e->ctx->reg;
    const wire_utype *t = r && ti < r->ntypes ? &r->types[ti] : NULL;
    if (WIRE_LIKELY(t && t->td && t->td_gen == r->gen)) {
      wire__put_bytes(&e->b, t->td, t->td_len);
      return wire__enc_ok(e);
    }
  }
  if (wire__typedef_build(e->ctx, ti, &e->b) != WIRE_OK) return false;
  return wire__enc_ok(e);
}

/* A TypeDef not announced in this root (wire__enc_struct_td_new; inline in
 * both callers): with a TypeDef of the schema (built once) and room in the
 * table and the buffer, the next index and its bytes here; anything else
 * through write_shared_typedef. */
static inline bool td_announce(wire_enc *e, uint8_t type,
                               const wire_layout *l) {
  const wire_registry *r = e->ctx->reg;
  uint32_t ti = l->type_index;
  if (!l->td && r && ti < r->ntypes && e->ntds < e->tds_cap &&
      !WIRE_MUTANT(shared_bit_inverted)) {
    const wire_utype *ut = &r->types[ti];
    wire_buf *b = &e->b;
    if (ut->td && ut->td_gen == r->gen &&
        wire__buf_room(b, 6 + (size_t)ut->td_len)) {
      b->p[b->len++] = type;
      b->len += wire__varu32_at(b->p + b->len, (uint32_t)(e->ntds << 1));
      memcpy(b->p + b->len, ut->td, ut->td_len);
      b->len += ut->td_len;
      e->tds[e->ntds++] = l;
      return true;
    }
  }
  wire__put_u8(&e->b, type);
  return write_shared_typedef(e, l, ti);
}

bool wire__enc_struct_td_meta(wire_enc *e, uint8_t type, const wire_layout *l) {
  const void *const *t = e->tds;
  for (size_t i = 0, n = e->ntds;
       i < n && !WIRE_MUTANT(shared_announce_again); i++) {
    if (t[i] == l) {
      wire_buf *b = &e->b;
      if (!wire__buf_room(b, 6)) return wire__enc_ok(e);
      b->p[b->len++] = type;
      b->len += wire__varu32_at(
          b->p + b->len,
          (uint32_t)(i << 1 | !WIRE_MUTANT(shared_bit_inverted)));
      return true;
    }
  }
  return td_announce(e, type, l);
}

bool wire__enc_struct_td_new(wire_enc *e, uint8_t type, const wire_layout *l) {
  return td_announce(e, type, l);
}

/* A named enum/ext/union that neither the schema nor a decoded TypeDef
 * describes: its TypeDef is built from its names, keyed by the names. */
static bool write_shared_typedef_named(wire_enc *e, uint8_t kind,
                                       const wire_names *nm) {
  if (nm->layout) return write_shared_typedef(e, nm->layout, WIRE_NO_TYPE);
  for (size_t i = 0; i < e->ntdn; i++) {
    const wire_names *o = e->tdn[i].nm;
    if (o->ns_len == nm->ns_len && o->name_len == nm->name_len &&
        wire__eq(o->ns, nm->ns, nm->ns_len) &&
        wire__eq(o->name, nm->name, nm->name_len)) {
      wire__put_varu32(&e->b, e->tdn[i].index << 1 | 1);
      return wire__enc_ok(e);
    }
  }
  struct wire_tdn *t = wire__grow(e->ctx, e->tdn, &e->tdn_cap, e->ntdn,
                                  sizeof *t, 8);
  if (!t) return wire__enc_fail(e, WIRE_E_NOMEM, "out of memory");
  e->tdn = t;
  e->tdn[e->ntdn++] = (struct wire_tdn){nm, (uint32_t)e->ntds};
  if (!grow_tds(e)) return false;
  wire__put_varu32(&e->b, (uint32_t)(e->ntds << 1));
  e->tds[e->ntds++] = nm;
  if (wire__typedef_build_named(e->ctx, kind, nm->ns, nm->ns_len, nm->name,
                                nm->name_len, &e->b) != WIRE_OK)
    return false;
  return wire__enc_ok(e);
}

/* The registry index of a named type, for building its TypeDef. */
static uint32_t find_named(wire_enc *e, uint8_t kind, const wire_names *nm) {
  wire_registry *r = e->ctx->reg;
  for (uint32_t i = 0; r && i < r->ntypes; i++) {
    wire_utype *t = &r->types[i];
    if (t->kind == kind && t->by_name && strlen(t->ns) == nm->ns_len &&
        strlen(t->name) == nm->name_len &&
        wire__eq(t->ns, nm->ns, nm->ns_len) &&
        wire__eq(t->name, nm->name, nm->name_len))
      return i;
  }
  return WIRE_NO_TYPE;
}

/* Namespace and name of a named struct or ext: as read, else the layout's. */
static bool write_layout_names(wire_enc *e, const wire_user_meta *um) {
  if (um->names) return write_names(e, um->names, um->ns_enc, um->name_enc);
  const wire_layout *l = um->layout;
  uint8_t raw = e->ctx->peer == WIRE_PEER_PYFORY || e->ctx->peer == WIRE_PEER_GO;
  return write_meta_string(e, WIRE_MSCTX_NAMESPACE, l->ns, l->ns_len,
                           um->ns_enc, raw, false, 0) &&
         write_meta_string(e, WIRE_MSCTX_TYPE_NAME, l->name, l->name_len,
                           um->name_enc, raw, false, 0);
}

/* Type meta without a TypeDef (STRUCT and EXT by id, NAMED_STRUCT and
 * NAMED_EXT outside compatible mode) leaves the field layout to the
 * reader's schema: the value's layout must be the schema's for a type it
 * has (not a layout only a TypeDef describes), or the bytes do not decode
 * (found by fuzz_tape_encode: a STRUCT_TD tape of a non-evolving named
 * struct the schema lacks, encoded outside compatible mode). A tape's
 * STRUCT_TD layout linked to a schema type by name is refused too, even
 * with the schema's TypeDef bytes: it does not have the schema's
 * same-schema hash, so its bytes did not decode either (project it onto
 * the schema first, wire_struct_project). */
static bool same_schema_layout(wire_enc *e, const wire_layout *l) {
  if (l->type_index != WIRE_NO_TYPE && (!l->td || l->matches_schema))
    return true;
  return wire__enc_fail(e, WIRE_E_SCHEMA, "a struct or ext written without "
                        "a TypeDef needs its type in the schema, with the "
                        "schema's fields (a layout read from a TypeDef: "
                        "compatible mode, or an evolving type)");
}

/* Implements R-WSTRUCT-1, R-WSTRUCT-3, R-UTYPE-1, R-UTYPE-2, R-UTYPE-3. */
bool wire__enc_type_meta(wire_enc *e, uint8_t type, const wire_user_meta *um) {
  wire__put_u8(&e->b, WIRE_MUTANT(ext_as_struct) && type == WIRE_T_EXT ? WIRE_T_STRUCT : type);
  bool compat = e->ctx->compatible;
  switch (type) {
  case WIRE_T_ENUM:
    if (um->user_id == UINT32_MAX)
      return wire__enc_fail(e, WIRE_E_ENCODE, "an enum of unknown type needs "
                            "a declared slot");
    if (!WIRE_MUTANT(utype_no_enum_id)) wire__put_varu32(&e->b, um->user_id);
    break;
  case WIRE_T_NAMED_ENUM:
    if (compat) {
      uint32_t ti = find_named(e, WIRE_KIND_ENUM, um->names);
      if (!um->names->layout && ti == WIRE_NO_TYPE)
        return write_shared_typedef_named(e, WIRE_KIND_ENUM, um->names);
      return write_shared_typedef(e, um->names->layout, ti);
    }
    return write_names(e, um->names, um->ns_enc, um->name_enc);
  case WIRE_T_STRUCT: case WIRE_T_EXT:
    if (!same_schema_layout(e, um->layout)) return false;
    wire__put_varu32(&e->b, um->layout->user_id);
    break;
  case WIRE_T_NAMED_STRUCT:
    if (compat) return write_shared_typedef(e, um->layout, um->layout->type_index);
    return same_schema_layout(e, um->layout) && write_layout_names(e, um);
  case WIRE_T_COMPATIBLE_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT:
    return write_shared_typedef(e, um->layout, um->layout->type_index);
  case WIRE_T_NAMED_EXT:
    if (compat)
      return write_shared_typedef(e, um->names ? um->names->layout : NULL,
                                  um->layout->type_index);
    return same_schema_layout(e, um->layout) && write_layout_names(e, um);
  case WIRE_T_TYPED_UNION:
    wire__put_varu32(&e->b, um->user_id);
    break;
  case WIRE_T_NAMED_UNION:
    if (!um->names)
      return wire__enc_fail(e, WIRE_E_ENCODE, "named union without a name");
    if (compat) {
      uint32_t ti = find_named(e, WIRE_KIND_UNION, um->names);
      if (!um->names->layout && ti == WIRE_NO_TYPE)
        return write_shared_typedef_named(e, WIRE_KIND_UNION, um->names);
      return write_shared_typedef(e, um->names->layout, ti);
    }
    return write_names(e, um->names, um->ns_enc, um->name_enc);
  default:
    break;
  }
  return wire__enc_ok(e);
}

/* Implements R-WLIST-2 (an all-null list's element type). */
bool wire__enc_null_list_meta(wire_enc *e, const wire_ftype *decl) {
  if (wire__pol_null_list_typed(e->ctx, decl)) {
    const wire_ftype *ed = decl->elem;
    const wire_registry *r = e->ctx->reg;
    if (wire__layout_of(e->ctx, ed->user) != WIRE_OK) /* (computed once) */
      return wire__enc_fail(e, WIRE_E_NOMEM, "out of memory");
    const wire_utype *t = &r->types[ed->user];
    wire_user_meta um = {UINT32_MAX, NULL, t->layout, -1, -1};
    return wire__enc_type_meta(e, wire__struct_kind(e->ctx, t), &um);
  }
  wire__put_u8(&e->b, WIRE_T_NONE);
  return wire__enc_ok(e);
}

/* ---- decimals ---------------------------------------------------------- */

/* Implements R-DEC-1, R-DEC-2, R-DEC-5. */
bool wire__enc_decimal(wire_enc *e, int32_t scale, bool negative,
                       const uint8_t *m, uint32_t len) {
  wire__put_varu32(&e->b, wire__zz32(scale));
  while (len && m[len - 1] == 0) len--;
  bool neg = negative && len;
  if (len <= 8) {
    uint64_t mag = 0;
    for (uint32_t i = 0; i < len; i++) mag |= (uint64_t)m[i] << (8 * i);
    uint64_t lim = UINT64_C(1) << 62;
    if (neg ? mag <= lim : mag < lim) {
      int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
      wire__put_varu64(&e->b, wire__zz64(v) << 1);
      return wire__enc_ok(e);
    }
  }
  uint64_t meta = ((uint64_t)len << 1) | (neg ? 1 : 0);
  wire__put_varu64(&e->b, (meta << 1) | 1);
  wire__put_bytes(&e->b, m, len);
  return wire__enc_ok(e);
}
