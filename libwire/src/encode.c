/* encode.c - document to bytes. Choices recorded in the document (string
 * encodings, reference flags, element headers, map chunks, meta string
 * encodings) are reproduced; everything else follows the writer policy of
 * the Fory Java runtime (spec/ "Writer policy"). */
#include "schema.h"

#include <stdio.h>

typedef struct {
  const uint8_t *p;
  uint32_t len;
  uint8_t enc, msctx;
} ms_seen;

typedef struct {
  wire_buf b;
  wire_ctx *ctx;
  const void **tds; /* TypeDefs announced in this root (layout or type) */
  size_t ntds, tds_cap;
  /* Those built from names alone: the names and their TypeDef index. */
  const wire_names **tdn;
  uint32_t *tdn_index;
  size_t ntdn, tdn_cap;
  uint32_t depth;
  uint32_t nrefs;
  wire_node **marked;
  size_t nmarked, marked_cap;
  ms_seen *ms;
  size_t nms, ms_cap;
} enc;

static bool efail(enc *e, int32_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool efail(enc *e, int32_t code, const char *fmt, ...) {
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  wire__fail(e->ctx, code, e->b.len, "%s", msg);
  return false;
}

static inline bool ok(enc *e) {
  if (WIRE_LIKELY(e->b.status == WIRE_OK)) return true;
  return efail(e, e->b.status, "output buffer");
}

/* Whether a node is written with REF_VALUE: its recorded choice, else the
 * policy for fresh values under reference tracking. */
static bool tracked(const enc *e, const wire_node *n) {
  if (n->flags & WIRE_NF_TRACK_SET) return (n->flags & WIRE_NF_TRACKED) != 0;
  if (!e->ctx->ref_tracking) return false;
  switch (n->type) {
  case WIRE_T_LIST: case WIRE_T_SET: case WIRE_T_MAP: case WIRE_T_BINARY:
  case WIRE_T_DECIMAL: case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT:
  case WIRE_T_NAMED_STRUCT: case WIRE_T_NAMED_COMPATIBLE_STRUCT:
  case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return true;
  default:
    return wire__is_array_type(n->type);
  }
}

/* Two nodes share type meta (same id; same user type for enums). */
static bool same_type(const wire_node *a, const wire_node *b) {
  if (a->type != b->type) return false;
  if (a->type == WIRE_T_ENUM) return a->v.en.type_id == b->v.en.type_id;
  if (a->type == WIRE_T_NAMED_ENUM) {
    const wire_names *x = a->v.nen.names, *y = b->v.nen.names;
    return x->ns_len == y->ns_len && x->name_len == y->name_len &&
           wire__eq(x->ns, y->ns, x->ns_len) &&
           wire__eq(x->name, y->name, x->name_len);
  }
  if (a->type >= WIRE_T_STRUCT && a->type <= WIRE_T_NAMED_EXT) {
    const wire_layout *x = a->v.st.layout, *y = b->v.st.layout;
    return x == y || (x->type_index != WIRE_NO_TYPE &&
                      x->type_index == y->type_index);
  }
  if (a->type == WIRE_T_TYPED_UNION) return a->v.un.user_id == b->v.un.user_id;
  return true;
}

static bool write_meta_string(enc *e, int msctx, const uint8_t *text,
                              uint32_t tlen, int recorded, int form,
                              bool xref, bool again, uint32_t ref) {
  int32_t me = recorded >= 0 ? recorded
                             : wire_meta_choose_encoding(msctx, text, tlen);
  if (me < 0) return efail(e, WIRE_E_META_STRING, "not a meta string");
  uint8_t stackbuf[256];
  uint8_t *heap = NULL;
  size_t blen = tlen, hcap = (size_t)tlen * 2 + 1;
  const uint8_t *bytes = text;
  if (me != WIRE_MS_UTF8) {
    uint8_t *buf = stackbuf;
    if (hcap > sizeof stackbuf && !(buf = heap = wire__alloc(e->ctx, hcap)))
      return efail(e, WIRE_E_NOMEM, "out of memory");
    if (wire_meta_encode(msctx, me, text, tlen, buf, hcap, &blen) != WIRE_OK) {
      wire__free(e->ctx, heap, hcap);
      return efail(e, WIRE_E_META_STRING, "\"%.*s\" cannot be written as %s",
                   (int)(tlen > 64 ? 64 : tlen), (const char *)text,
                   wire_meta_encoding_name(me));
    }
    bytes = buf;
  }
  /* A name equal (encoding and bytes) to one announced before in this
   * root, in either role, is written as a reference to it, as both
   * runtimes do - unless the payload announced it again (Fory Go). */
  (void)xref;
  if (ref && ref <= e->nms && !again) {
    /* the entry the decoded payload referred to, if it still matches */
    ms_seen *s = &e->ms[ref - 1];
    if (s->enc == me && s->len == blen && wire__eq(s->p, bytes, blen)) {
      wire__put_varu32(&e->b, (ref << 1) | 1);
      wire__free(e->ctx, heap, hcap);
      return ok(e);
    }
  }
  for (size_t i = 0; i < e->nms && !again; i++) {
    ms_seen *s = &e->ms[i];
    if (s->enc == me && s->len == blen &&
        wire__eq(s->p, bytes, blen)) {
      wire__put_varu32(&e->b, (uint32_t)(((i + 1) << 1) | 1));
      wire__free(e->ctx, heap, hcap);
      return ok(e);
    }
  }
  if (e->nms == e->ms_cap) {
    size_t cap = e->ms_cap ? e->ms_cap * 2 : 8;
    ms_seen *m = wire__realloc(e->ctx, e->ms, e->ms_cap * sizeof *m,
                               cap * sizeof *m);
    if (!m) {
      wire__free(e->ctx, heap, hcap);
      return efail(e, WIRE_E_NOMEM, "out of memory");
    }
    e->ms = m;
    e->ms_cap = cap;
  }
  wire__put_varu32(&e->b, (uint32_t)(blen << 1));
  if (blen > 16) {
    wire__put_le(&e->b, wire__ms_hash(bytes, blen, (uint8_t)me, form), 8);
  } else if (blen > 0) {
    wire__put_u8(&e->b, (uint8_t)me);
  }
  wire__put_bytes(&e->b, bytes, blen);
  uint8_t *keep = wire__alloc(e->ctx, blen ? blen : 1);
  if (keep && blen) memcpy(keep, bytes, blen);
  wire__free(e->ctx, heap, hcap);
  if (!ok(e)) {
    wire__free(e->ctx, keep, blen ? blen : 1);
    return false;
  }
  if (!keep) return efail(e, WIRE_E_NOMEM, "out of memory");
  e->ms[e->nms++] = (ms_seen){keep, (uint32_t)blen, (uint8_t)me,
                              (uint8_t)msctx};
  return true;
}

static void ms_reset(enc *e) {
  for (size_t i = 0; i < e->nms; i++)
    wire__free(e->ctx, (void *)e->ms[i].p, e->ms[i].len ? e->ms[i].len : 1);
  e->nms = 0;
}

/* Shared TypeDef: a reference if this root already announced it, else the
 * next index and the TypeDef bytes (as read, or built from the schema). */
static bool write_shared_typedef_named(enc *e, uint8_t kind,
                                       const wire_names *nm);

static bool write_shared_typedef(enc *e, const wire_layout *l, uint32_t ti) {
  if (!l && (ti == WIRE_NO_TYPE || !e->ctx->reg))
    return efail(e, WIRE_E_SCHEMA, "compatible mode needs the type's TypeDef: "
                                   "the type is not in the schema");
  const void *key = l ? (const void *)l : (const void *)&e->ctx->reg->types[ti];
  for (size_t i = 0; i < e->ntds; i++) {
    if (e->tds[i] == key) {
      wire__put_varu32(&e->b, (uint32_t)(i << 1 | 1));
      return ok(e);
    }
  }
  if (e->ntds == e->tds_cap) {
    size_t cap = e->tds_cap ? e->tds_cap * 2 : 8;
    const void **t = wire__realloc(e->ctx, e->tds, e->tds_cap * sizeof *t,
                                   cap * sizeof *t);
    if (!t) return efail(e, WIRE_E_NOMEM, "out of memory");
    e->tds = t;
    e->tds_cap = cap;
  }
  wire__put_varu32(&e->b, (uint32_t)(e->ntds << 1));
  e->tds[e->ntds++] = key;
  if (l && l->td) {
    wire__put_bytes(&e->b, l->td, l->td_len);
    return ok(e);
  }
  if (l) ti = l->type_index;
  if (ti == WIRE_NO_TYPE)
    return efail(e, WIRE_E_ENCODE, "no TypeDef for a type not in the schema");
  if (wire__typedef_build(e->ctx, ti, &e->b) != WIRE_OK) return false;
  return ok(e);
}

/* A named enum/ext/union that neither the schema nor a decoded TypeDef
 * describes: its TypeDef is built from its names, keyed by the names. */
static bool write_shared_typedef_named(enc *e, uint8_t kind,
                                       const wire_names *nm) {
  if (nm->layout) return write_shared_typedef(e, nm->layout, WIRE_NO_TYPE);
  for (size_t i = 0; i < e->ntdn; i++) {
    const wire_names *o = e->tdn[i];
    if (o->ns_len == nm->ns_len && o->name_len == nm->name_len &&
        wire__eq(o->ns, nm->ns, nm->ns_len) &&
        wire__eq(o->name, nm->name, nm->name_len)) {
      wire__put_varu32(&e->b, e->tdn_index[i] << 1 | 1);
      return ok(e);
    }
  }
  if (e->ntdn == e->tdn_cap) {
    size_t cap = e->tdn_cap ? e->tdn_cap * 2 : 8;
    const wire_names **t = wire__realloc(e->ctx, e->tdn, e->tdn_cap * sizeof *t,
                                         cap * sizeof *t);
    if (!t) return efail(e, WIRE_E_NOMEM, "out of memory");
    e->tdn = t;
    uint32_t *x = wire__realloc(e->ctx, e->tdn_index,
                                e->tdn_cap * sizeof *x, cap * sizeof *x);
    if (!x) return efail(e, WIRE_E_NOMEM, "out of memory");
    e->tdn_index = x;
    e->tdn_cap = cap;
  }
  e->tdn[e->ntdn] = nm;
  e->tdn_index[e->ntdn++] = (uint32_t)e->ntds;
  if (e->ntds == e->tds_cap) {
    size_t cap = e->tds_cap ? e->tds_cap * 2 : 8;
    const void **t = wire__realloc(e->ctx, e->tds, e->tds_cap * sizeof *t,
                                   cap * sizeof *t);
    if (!t) return efail(e, WIRE_E_NOMEM, "out of memory");
    e->tds = t;
    e->tds_cap = cap;
  }
  wire__put_varu32(&e->b, (uint32_t)(e->ntds << 1));
  e->tds[e->ntds++] = nm;
  if (wire__typedef_build_named(e->ctx, kind, nm->ns, nm->ns_len, nm->name,
                                nm->name_len, &e->b) != WIRE_OK)
    return false;
  return ok(e);
}

static bool write_names(enc *e, const wire_node *n, const wire_names *nm) {
  bool set = n->flags & WIRE_NF_NAMES_SET;
  return write_meta_string(e, WIRE_MSCTX_NAMESPACE, nm->ns, nm->ns_len,
                           set ? n->a : -1, nm->ns_hash_form, nm->ns_xref,
                           nm->ns_again, nm->ns_ref) &&
         write_meta_string(e, WIRE_MSCTX_TYPE_NAME, nm->name, nm->name_len,
                           set ? n->b : -1, nm->name_hash_form, nm->name_xref,
                           nm->name_again, nm->name_ref);
}

/* The registry index of a named type, for building its TypeDef. */
static uint32_t find_named(enc *e, uint8_t kind, const wire_names *nm) {
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

static bool write_type_meta(enc *e, const wire_node *n) {
  wire__put_u8(&e->b, n->type);
  switch (n->type) {
  case WIRE_T_ENUM:
    if (n->v.en.type_id == UINT32_MAX)
      return efail(e, WIRE_E_ENCODE, "an enum of unknown type needs a "
                                       "declared slot");
    wire__put_varu32(&e->b, n->v.en.type_id);
    break;
  case WIRE_T_NAMED_ENUM:
    if (e->ctx->compatible) {
      uint32_t ti = find_named(e, WIRE_KIND_ENUM, n->v.nen.names);
      if (!n->v.nen.names->layout && ti == WIRE_NO_TYPE)
        return write_shared_typedef_named(e, WIRE_KIND_ENUM, n->v.nen.names);
      return write_shared_typedef(e, n->v.nen.names->layout, ti);
    }
    return write_names(e, n, n->v.nen.names);
  case WIRE_T_STRUCT:
    wire__put_varu32(&e->b, n->v.st.layout->user_id);
    break;
  case WIRE_T_NAMED_STRUCT:
    if (e->ctx->compatible)
      return write_shared_typedef(e, n->v.st.layout, n->v.st.layout->type_index);
    if (n->v.st.names) return write_names(e, n, n->v.st.names);
    {
      const wire_layout *l = n->v.st.layout;
      bool set = n->flags & WIRE_NF_NAMES_SET;
      return write_meta_string(e, WIRE_MSCTX_NAMESPACE, l->ns, l->ns_len,
                               set ? n->a : -1, 0, false, false, 0) &&
             write_meta_string(e, WIRE_MSCTX_TYPE_NAME, l->name, l->name_len,
                               set ? n->b : -1, 0, false, false, 0);
    }
  case WIRE_T_COMPATIBLE_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT:
    return write_shared_typedef(e, n->v.st.layout, n->v.st.layout->type_index);
  case WIRE_T_EXT:
    wire__put_varu32(&e->b, n->v.st.layout->user_id);
    break;
  case WIRE_T_NAMED_EXT:
    if (e->ctx->compatible)
      return write_shared_typedef(e, n->v.st.names ? n->v.st.names->layout : NULL,
                                  n->v.st.layout->type_index);
    if (n->v.st.names) return write_names(e, n, n->v.st.names);
    {
      const wire_layout *l = n->v.st.layout;
      bool set = n->flags & WIRE_NF_NAMES_SET;
      return write_meta_string(e, WIRE_MSCTX_NAMESPACE, l->ns, l->ns_len,
                               set ? n->a : -1, 0, false, false, 0) &&
             write_meta_string(e, WIRE_MSCTX_TYPE_NAME, l->name, l->name_len,
                               set ? n->b : -1, 0, false, false, 0);
    }
  case WIRE_T_TYPED_UNION:
    wire__put_varu32(&e->b, n->v.un.user_id);
    break;
  case WIRE_T_NAMED_UNION:
    if (!n->v.un.names)
      return efail(e, WIRE_E_ENCODE, "named union without a name");
    if (e->ctx->compatible) {
      uint32_t ti = find_named(e, WIRE_KIND_UNION, n->v.un.names);
      if (!n->v.un.names->layout && ti == WIRE_NO_TYPE)
        return write_shared_typedef_named(e, WIRE_KIND_UNION, n->v.un.names);
      return write_shared_typedef(e, n->v.un.names->layout, ti);
    }
    return write_names(e, n, n->v.un.names);
  default:
    break;
  }
  return ok(e);
}

static bool write_body(enc *e, wire_node *n, const wire_ftype *decl);
static bool write_struct(enc *e, wire_node *n);
static bool static_type(const enc *e, const wire_ftype *f);

static bool mark(enc *e, wire_node *n) {
  if (e->nmarked == e->marked_cap) {
    size_t cap = e->marked_cap ? e->marked_cap * 2 : 32;
    wire_node **m = wire__realloc(e->ctx, e->marked,
                                  e->marked_cap * sizeof *m, cap * sizeof *m);
    if (!m) return efail(e, WIRE_E_NOMEM, "out of memory");
    e->marked = m;
    e->marked_cap = cap;
  }
  e->marked[e->nmarked++] = n;
  n->mark = ++e->nrefs;
  return true;
}

static bool write_slot(enc *e, wire_node *n, bool has_flag, bool allow_ref,
                       bool with_type, bool any_slot, const wire_ftype *decl) {
  if (n->type == WIRE_T_NULL) {
    if (!has_flag)
      return efail(e, WIRE_E_ENCODE, "null where the slot has no null flag");
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (has_flag) {
    /* Under reference tracking the Java runtime flags every value in a
     * slot of undeclared type (a root, an element of a mixed list, the
     * non-null side of a null map entry) 0x00, whatever its type. */
    bool track = any_slot && !(n->flags & WIRE_NF_TRACK_SET)
                     ? e->ctx->ref_tracking
                     : tracked(e, n);
    if (allow_ref && track) {
      if (n->mark) {
        wire__put_u8(&e->b, 0xFE);
        wire__put_varu32(&e->b, n->mark - 1);
        return ok(e);
      }
      wire__put_u8(&e->b, 0x00);
      if (!mark(e, n)) return false;
    } else {
      wire__put_u8(&e->b, 0xFF);
    }
  } else if (n->mark) {
    return efail(e, WIRE_E_ENCODE,
                 "shared value in a slot without reference flags");
  }
  if (with_type && !write_type_meta(e, n)) return false;
  return write_body(e, n, decl);
}

static bool enter(enc *e) {
  if (++e->depth > e->ctx->max_depth)
    return efail(e, WIRE_E_DEPTH, "nesting deeper than %u (a cycle through "
                                  "untracked values?)", e->ctx->max_depth);
  return true;
}

static bool is_prim(uint8_t t) {
  return t == WIRE_T_BOOL || (t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64) ||
         (t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64);
}

static bool is_struct_or_ext(uint8_t t) {
  return t >= WIRE_T_STRUCT && t <= WIRE_T_NAMED_EXT;
}

/* Whether values of a declared type are written without type meta: not
 * `any`, and not a struct or ext in compatible mode. */
static bool static_type(const enc *e, const wire_ftype *f) {
  if (f->type_id == WIRE_T_UNKNOWN) return false;
  if (is_struct_or_ext(f->type_id) && e->ctx->compatible) return false;
  return true;
}

static bool write_field(enc *e, const wire_lfield *lf, wire_node *v) {
  const wire_ftype *f = lf->type;
  bool flag = f->nullable || f->ref;
  if (!v) {
    if (!flag)
      return efail(e, WIRE_E_ENCODE, "field %.*s has no value",
                   (int)lf->name_len, (const char *)lf->name);
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  bool dynamic = !static_type(e, f);
  if (is_prim(f->type_id) && !flag) {
    if (v->type != f->type_id)
      return efail(e, WIRE_E_ENCODE, "field %.*s is a %s, not a %s",
                   (int)lf->name_len, (const char *)lf->name,
                   wire_type_name(f->type_id), wire_type_name(v->type));
    return write_body(e, v, f);
  }
  return write_slot(e, v, flag, f->ref, dynamic, dynamic, f);
}

static bool write_struct(enc *e, wire_node *n) {
  const wire_layout *l = n->v.st.layout;
  if (!e->ctx->compatible && !l->td && l->kind == WIRE_KIND_STRUCT)
    wire__put_le(&e->b, l->schema_hash, 4);
  if (!enter(e)) return false;
  for (uint32_t i = 0; i < l->nfields; i++)
    if (!write_field(e, &l->fields[i], i < n->small ? n->v.st.fields[i] : NULL))
      return false;
  e->depth--;
  return ok(e);
}

static bool write_list(enc *e, wire_node *n, const wire_ftype *decl) {
  uint32_t count = n->small;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  wire_node **it = n->v.list.items;
  wire_node *first = NULL;
  bool has_null = false, same = true, track = false;
  for (uint32_t i = 0; i < count; i++) {
    if (it[i]->type == WIRE_T_NULL) { has_null = true; continue; }
    if (!first) first = it[i];
    else if (!same_type(first, it[i])) same = false;
    if (tracked(e, it[i])) track = true;
  }
  const wire_ftype *edecl = decl ? decl->elem : NULL;
  if (edecl && !static_type(e, edecl)) edecl = NULL;
  /* Fresh lists: the Java runtime writes the type of float16/bfloat16
   * elements in compatible mode rather than declaring it (R-WLIST-6). */
  const wire_ftype *pdecl = edecl;
  if (pdecl && e->ctx->compatible &&
      (pdecl->type_id == WIRE_T_FLOAT16 || pdecl->type_id == WIRE_T_BFLOAT16))
    pdecl = NULL;
  uint8_t h;
  if (n->flags & WIRE_NF_HDR_SET) {
    h = n->a;
    if (h & 0xF0)
      return efail(e, WIRE_E_ENCODE, "element header 0x%02x has reserved "
                                       "bits", h);
    if ((h & WIRE_LF_DECL) && !edecl)
      return efail(e, WIRE_E_ENCODE, "element header 0x%02x needs a schema",
                   h);
    if (!(h & WIRE_LF_DECL)) edecl = NULL;
  } else if ((edecl = pdecl) != NULL) {
    /* Declared element type: no element type meta. */
    /* Ref-tracked elements carry full reference flags, which cover nulls:
     * the Java runtime then leaves the has-null bit clear. */
    h = (uint8_t)(WIRE_LF_DECL | WIRE_LF_SAME_TYPE |
                  (edecl->ref ? WIRE_LF_TRACKING
                              : (has_null ? WIRE_LF_HAS_NULL : 0)));
  } else {
    if (!same && e->ctx->ref_tracking) track = true;
    /* A declared element type says whether its values are tracked. */
    if (decl && decl->elem && decl->elem->type_id != WIRE_T_UNKNOWN)
      track = decl->elem->ref;
    h = (uint8_t)((same ? WIRE_LF_SAME_TYPE : 0) |
                  (has_null ? WIRE_LF_HAS_NULL : 0) |
                  (track ? WIRE_LF_TRACKING : 0));
  }
  bool flags = h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  if (has_null && !flags)
    return efail(e, WIRE_E_ENCODE, "null element but header 0x%02x has no "
                                     "null flag", h);
  wire__put_u8(&e->b, h);
  bool st = h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL);
  if (st && !edecl) {
    if (first) {
      for (uint32_t i = 0; i < count; i++)
        if (it[i]->type != WIRE_T_NULL && !same_type(first, it[i]))
          return efail(e, WIRE_E_ENCODE, "same-type header but element %u "
                                           "is a %s", i,
                       wire_type_name(it[i]->type));
      if (!write_type_meta(e, first)) return false;
    } else {
      uint8_t et = (n->flags & WIRE_NF_ELEM_SET) ? n->b : WIRE_T_NONE;
      if (et == WIRE_T_ENUM || et == WIRE_T_NAMED_ENUM)
        return efail(e, WIRE_E_ENCODE, "element type of an all-null list");
      wire__put_u8(&e->b, et);
    }
  }
  if (!enter(e)) return false;
  bool allow_ref = h & WIRE_LF_TRACKING;
  for (uint32_t i = 0; i < count; i++)
    if (!write_slot(e, it[i], flags, allow_ref, !st, !st, edecl)) return false;
  e->depth--;
  return ok(e);
}

static bool write_chunk(enc *e, wire_node **kv, uint32_t h, uint32_t size,
                        const wire_ftype *kd, const wire_ftype *vd) {
  const wire_ftype *kdecl = (h & WIRE_MF_KEY_DECL) ? kd : NULL;
  const wire_ftype *vdecl = (h & WIRE_MF_VAL_DECL) ? vd : NULL;
  wire__put_u8(&e->b, (uint8_t)h);
  if ((h & 0xC0) || ((h & WIRE_MF_KEY_DECL) && !kd) ||
      ((h & WIRE_MF_VAL_DECL) && !vd))
    return efail(e, WIRE_E_ENCODE, "chunk header 0x%02x needs a schema", h);
  bool knull = h & WIRE_MF_KEY_NULL, vnull = h & WIRE_MF_VAL_NULL;
  if (knull || vnull) {
    if (size != 1)
      return efail(e, WIRE_E_ENCODE, "a null chunk holds one entry");
    wire_node *k = kv[0], *v = kv[1];
    if ((k->type == WIRE_T_NULL) != knull || (v->type == WIRE_T_NULL) != vnull)
      return efail(e, WIRE_E_ENCODE, "chunk header 0x%02x does not match "
                                       "the entry's nulls", h);
    if (!knull && !write_slot(e, k, h & WIRE_MF_KEY_TRACK, true, !kdecl, true, kdecl))
      return false;
    if (!vnull && !write_slot(e, v, h & WIRE_MF_VAL_TRACK, true, !vdecl, true, vdecl))
      return false;
    return ok(e);
  }
  wire__put_u8(&e->b, (uint8_t)size);
  wire_node *k0 = kv[0], *v0 = kv[1];
  for (uint32_t i = 0; i < size; i++) {
    wire_node *k = kv[2 * i], *v = kv[2 * i + 1];
    if (k->type == WIRE_T_NULL || v->type == WIRE_T_NULL)
      return efail(e, WIRE_E_ENCODE, "null key or value inside a chunk");
    if (!same_type(k0, k) || !same_type(v0, v))
      return efail(e, WIRE_E_ENCODE, "keys or values of one chunk differ "
                                       "in type");
  }
  if ((!kdecl && !write_type_meta(e, k0)) || (!vdecl && !write_type_meta(e, v0)))
    return false;
  for (uint32_t i = 0; i < size; i++) {
    if (!write_slot(e, kv[2 * i], h & WIRE_MF_KEY_TRACK, true, false, false, kdecl) ||
        !write_slot(e, kv[2 * i + 1], h & WIRE_MF_VAL_TRACK, true, false, false, vdecl))
      return false;
  }
  return ok(e);
}

/* Map keys and values of a declared type are declared in the chunk header,
 * except structs and ext, whose type the Java runtime writes in every chunk
 * (spec R-WMAP-5). */
static const wire_ftype *map_decl(const enc *e, const wire_ftype *f) {
  if (!f || !static_type(e, f) || is_struct_or_ext(f->type_id)) return NULL;
  return f;
}

static bool write_map(enc *e, wire_node *n, const wire_ftype *decl) {
  /* Recorded chunks may declare any static type; fresh ones follow Java. */
  const wire_ftype *kr = decl && decl->key && static_type(e, decl->key) ? decl->key : NULL;
  const wire_ftype *vr = decl && decl->value && static_type(e, decl->value) ? decl->value : NULL;
  const wire_ftype *kd = decl ? map_decl(e, decl->key) : NULL;
  const wire_ftype *vd = decl ? map_decl(e, decl->value) : NULL;
  uint32_t dbits = (kd ? WIRE_MF_KEY_DECL : 0) | (vd ? WIRE_MF_VAL_DECL : 0);
  uint32_t count = n->small;
  wire__put_varu32(&e->b, count);
  if (count == 0) return ok(e);
  if (!enter(e)) return false;
  wire_node **kv = n->v.map.kv;
  wire_chunks *c = n->v.map.chunks;
  if (c) {
    uint64_t sum = 0;
    for (uint32_t i = 0; i < c->n; i++) sum += c->c[i] & 0xFF;
    if (sum != count)
      return efail(e, WIRE_E_ENCODE, "chunks hold %llu entries, the map %u",
                   (unsigned long long)sum, count);
    uint32_t at = 0;
    for (uint32_t i = 0; i < c->n; i++) {
      uint32_t size = c->c[i] & 0xFF;
      if (!write_chunk(e, kv + 2 * at, c->c[i] >> 8, size, kr, vr)) return false;
      at += size;
    }
  } else {
    uint32_t at = 0;
    while (at < count) {
      wire_node *k = kv[2 * at], *v = kv[2 * at + 1];
      bool kn = k->type == WIRE_T_NULL, vn = v->type == WIRE_T_NULL;
      if (kn || vn) {
        /* The non-null side is framed as a value of undeclared type (track
         * bit set) unless its type is declared. */
        uint32_t h = kn && vn ? (WIRE_MF_KEY_NULL | WIRE_MF_VAL_NULL)
                     : kn     ? (WIRE_MF_KEY_NULL |
                                 (vd ? WIRE_MF_VAL_DECL | (vd->ref ? WIRE_MF_VAL_TRACK : 0)
                                     : WIRE_MF_VAL_TRACK))
                              : (WIRE_MF_VAL_NULL |
                                 (kd ? WIRE_MF_KEY_DECL | (kd->ref ? WIRE_MF_KEY_TRACK : 0)
                                     : WIRE_MF_KEY_TRACK));
        if (!write_chunk(e, kv + 2 * at, h, 1, kd, vd)) return false;
        at++;
        continue;
      }
      uint32_t size = 1;
      while (at + size < count && size < 255) {
        wire_node *k2 = kv[2 * (at + size)], *v2 = kv[2 * (at + size) + 1];
        if (k2->type == WIRE_T_NULL || v2->type == WIRE_T_NULL ||
            !same_type(k, k2) || !same_type(v, v2))
          break;
        size++;
      }
      bool kt = false, vt = false;
      for (uint32_t i = 0; i < size; i++) {
        kt |= tracked(e, kv[2 * (at + i)]);
        vt |= tracked(e, kv[2 * (at + i) + 1]);
      }
      /* A declared key/value type says whether its values are tracked. */
      if (decl && decl->key) kt = decl->key->ref;
      if (decl && decl->value) vt = decl->value->ref;
      uint32_t h = (kt ? WIRE_MF_KEY_TRACK : 0) | (vt ? WIRE_MF_VAL_TRACK : 0) |
                   dbits;
      if (kd) h = (h & ~(uint32_t)WIRE_MF_KEY_TRACK) | (kd->ref ? WIRE_MF_KEY_TRACK : 0);
      if (vd) h = (h & ~(uint32_t)WIRE_MF_VAL_TRACK) | (vd->ref ? WIRE_MF_VAL_TRACK : 0);
      if (!write_chunk(e, kv + 2 * at, h, size, kd, vd)) return false;
      at += size;
    }
  }
  e->depth--;
  return ok(e);
}

static bool write_decimal(enc *e, const wire_node *n) {
  wire__put_varu32(&e->b, wire__zz32((int32_t)n->small));
  uint32_t len = n->v.dec.len;
  const uint8_t *m = n->v.dec.mag;
  while (len && m[len - 1] == 0) len--;
  bool neg = (n->flags & WIRE_NF_NEGATIVE) && len;
  if (len <= 8) {
    uint64_t mag = 0;
    for (uint32_t i = 0; i < len; i++) mag |= (uint64_t)m[i] << (8 * i);
    uint64_t lim = UINT64_C(1) << 62;
    if (neg ? mag <= lim : mag < lim) {
      int64_t v = neg ? (int64_t)(0 - mag) : (int64_t)mag;
      wire__put_varu64(&e->b, wire__zz64(v) << 1);
      return ok(e);
    }
  }
  uint64_t meta = ((uint64_t)len << 1) | (neg ? 1 : 0);
  wire__put_varu64(&e->b, (meta << 1) | 1);
  wire__put_bytes(&e->b, m, len);
  return ok(e);
}

static bool write_body(enc *e, wire_node *n, const wire_ftype *decl) {
  wire_buf *b = &e->b;
  switch (n->type) {
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return write_struct(e, n);
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    wire__put_varu32(b, n->small);
    if (!enter(e)) return false;
    if (!write_slot(e, n->v.un.value, true, true, true, true, NULL)) return false;
    e->depth--;
    return ok(e);
  case WIRE_T_BOOL: wire__put_u8(b, n->v.i ? 1 : 0); break;
  case WIRE_T_INT8: case WIRE_T_UINT8: wire__put_le(b, n->v.u, 1); break;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16:
  case WIRE_T_BFLOAT16:
    wire__put_le(b, n->v.u, 2);
    break;
  case WIRE_T_INT32: case WIRE_T_UINT32: case WIRE_T_FLOAT32:
    wire__put_le(b, n->v.u, 4);
    break;
  case WIRE_T_INT64: case WIRE_T_UINT64: case WIRE_T_FLOAT64:
    wire__put_le(b, n->v.u, 8);
    break;
  case WIRE_T_VARINT32: wire__put_varu32(b, wire__zz32((int32_t)n->v.i)); break;
  case WIRE_T_VAR_UINT32: wire__put_varu32(b, (uint32_t)n->v.u); break;
  case WIRE_T_VARINT64: wire__put_varu64(b, wire__zz64(n->v.i)); break;
  case WIRE_T_VAR_UINT64: wire__put_varu64(b, n->v.u); break;
  case WIRE_T_TAGGED_INT64: wire__put_tagged_i64(b, n->v.i); break;
  case WIRE_T_TAGGED_UINT64: wire__put_tagged_u64(b, n->v.u); break;
  case WIRE_T_STRING:
    wire__put_varu36(b, (n->v.bytes.len << 2) | n->a);
    wire__put_bytes(b, n->v.bytes.p, (size_t)n->v.bytes.len);
    break;
  case WIRE_T_LIST: case WIRE_T_SET: return write_list(e, n, decl);
  case WIRE_T_MAP: return write_map(e, n, decl);
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: wire__put_varu32(b, n->small); break;
  case WIRE_T_NONE: break;
  case WIRE_T_DURATION:
    wire__put_varu64(b, wire__zz64(n->v.i));
    wire__put_le(b, n->small, 4);
    break;
  case WIRE_T_TIMESTAMP:
    wire__put_le(b, n->v.u, 8);
    wire__put_le(b, n->small, 4);
    break;
  case WIRE_T_DATE: wire__put_varu64(b, wire__zz64(n->v.i)); break;
  case WIRE_T_DECIMAL: return write_decimal(e, n);
  default:
    if (n->type == WIRE_T_BINARY || wire__is_array_type(n->type)) {
      if (n->v.bytes.len > UINT32_MAX)
        return efail(e, WIRE_E_LENGTH, "payload longer than 4 GiB");
      wire__put_varu32(b, (uint32_t)n->v.bytes.len);
      wire__put_bytes(b, n->v.bytes.p, (size_t)n->v.bytes.len);
      break;
    }
    return efail(e, WIRE_E_TYPE, "cannot encode a %s node",
                 wire_type_name(n->type) ? wire_type_name(n->type) : "?");
  }
  return ok(e);
}

int32_t wire_encode(wire_ctx *ctx, wire_doc *doc, uint8_t **out,
                    size_t *out_len) {
  if (!ctx || !doc || !out || !out_len) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  wire_ctx_clear_error(ctx);
  enc e;
  memset(&e, 0, sizeof e);
  e.ctx = ctx;
  e.b.ctx = ctx;
  bool good = true;
  for (uint32_t r = 0; r < doc->nroots && good; r++) {
    wire__put_u8(&e.b, 0x01);
    e.nrefs = 0;
    e.depth = 0;
    good = write_slot(&e, doc->roots[r], true, true, true, true, NULL);
    for (size_t i = 0; i < e.nmarked; i++) e.marked[i]->mark = 0;
    e.nmarked = 0;
    e.ntds = 0;
    e.ntdn = 0;
    ms_reset(&e);
  }
  if (good && !ok(&e)) good = false;
  if (e.marked) wire__free(ctx, e.marked, e.marked_cap * sizeof *e.marked);
  if (e.tds) wire__free(ctx, e.tds, e.tds_cap * sizeof *e.tds);
  if (e.tdn) wire__free(ctx, e.tdn, e.tdn_cap * sizeof *e.tdn);
  if (e.tdn_index) wire__free(ctx, e.tdn_index, e.tdn_cap * sizeof *e.tdn_index);
  if (e.ms) wire__free(ctx, e.ms, e.ms_cap * sizeof *e.ms);
  if (!good) {
    wire__free(ctx, e.b.p, e.b.cap);
    return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  }
  uint8_t *res = wire__bytes_alloc(ctx, e.b.len);
  if (!res) {
    wire__free(ctx, e.b.p, e.b.cap);
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  }
  if (e.b.len) memcpy(res, e.b.p, e.b.len);
  *out = res;
  *out_len = e.b.len;
  wire__free(ctx, e.b.p, e.b.cap);
  return WIRE_OK;
}
