/* decode.c - bytes to document: the value bodies, lists, sets and maps,
 * structs and unions, the reference slots and the roots (the type meta in
 * front of a value is read by decode_meta.c, a list's framing by
 * decode_lists.c; the decoder's state, each root's header byte, the errors
 * and the dump lines are decode_state.c's).
 * Every length, count, id and depth read from the input is checked before
 * use; see spec/ "Security considerations". */
#include "dec.h"

#include <stdio.h>

/* The body readers the document decoder calls per value: inlined here,
 * still exported to the tape decoder (dec.h declares them extern). */
#define WIRE_DEC_HOT __attribute__((always_inline)) inline

#define layout_names wire__dec_layout_names
#define kind_of wire__dec_kind_of

/* wire_dump: the readable form of a value the body readers produced, for a
 * T line (only evaluated when dumping). */
#define RD(n) (wire__readable(d->ctx, d->doc, (n), d->rd, sizeof d->rd), d->rd)
static const char *rd_value(dec *d, uint8_t type, int64_t i, uint32_t small,
                            bool neg, const uint8_t *mag, uint32_t len) {
  wire_node t;
  wire_dbody db = {mag, len};
  memset(&t, 0, sizeof t);
  t.type = type;
  t.small = small;
  if (type == WIRE_T_DECIMAL) {
    t.v.dec = &db;
    if (neg) t.flags |= WIRE_NF_NEGATIVE;
  } else {
    t.v.i = i;
  }
  return RD(&t);
}

#define fail wire__dec_fail
#define T WIRE_DEC_T

/* The node limit reached (R-LIMIT-10: at the value that would pass it). */
static wire_node *over_nodes(dec *d) {
  fail(d, WIRE_E_LIMIT, d->in.p, "more than %llu nodes",
       (unsigned long long)d->ctx->max_nodes);
  return NULL;
}

/* The document's shared null: a null slot records no choice of its own.
 * Every null read counts against the node limit as the node it would be
 * unshared (R-LIMIT-10, as the tape decoder counts it): the first makes
 * the shared node, each later one lowers d->max_nodes by one. */
static wire_node *null_node(dec *d) {
  wire_node *n = d->doc->null;
  if (WIRE_UNLIKELY(d->doc->nnodes >= d->max_nodes)) return over_nodes(d);
  if (WIRE_LIKELY(n != NULL)) {
    d->max_nodes--;
    return n;
  }
  if (!(n = wire__doc_null(d->doc))) fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
  return n;
}

static wire_node *node(dec *d, uint8_t type) {
  if (WIRE_UNLIKELY(d->doc->nnodes >= d->max_nodes)) return over_nodes(d);
  wire_node *n = wire__node_new(d->doc, type);
  if (!n) fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
  return n;
}

/* ---- values ---- */

#define read_type_meta wire__dec_type_meta
static bool read_body(dec *d, const tmeta *tm, int64_t ref_slot,
                      wire_node **out);
#define decl_tmeta wire__dec_decl_tmeta
static bool read_struct(dec *d, const tmeta *tm, wire_node *n);
static bool read_union(dec *d, const tmeta *tm, wire_node *n);

/* Whether a decoded node has the type meta `tm` (same id, same user type). */
static bool same_names(const wire_names *a, const wire_names *b) {
  if (!a || !b) return a == b;
  return a->ns_len == b->ns_len && a->name_len == b->name_len &&
         wire__eq(a->ns, b->ns, a->ns_len) &&
         wire__eq(a->name, b->name, a->name_len);
}

bool wire__dec_matches(const tmeta *tm, uint8_t type, uint32_t user_id,
                       const wire_names *names, const wire_layout *layout) {
  if (type != tm->type) return false;
  switch (tm->type) {
  case WIRE_T_ENUM: case WIRE_T_TYPED_UNION: return user_id == tm->user_id;
  case WIRE_T_NAMED_ENUM: return same_names(names, tm->names);
  case WIRE_T_NAMED_UNION:
    return tm->names ? same_names(names, tm->names)
                     : names && names->layout == tm->layout;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return layout == tm->layout;
  default: return true;
  }
}

static bool matches(const tmeta *tm, const wire_node *n) {
  switch (n->type) {
  case WIRE_T_ENUM:
    return wire__dec_matches(tm, n->type, n->v.en, NULL, NULL);
  case WIRE_T_TYPED_UNION:
    return wire__dec_matches(tm, n->type, n->v.un->user_id, NULL, NULL);
  case WIRE_T_NAMED_ENUM:
    return wire__dec_matches(tm, n->type, 0, n->v.names, NULL);
  case WIRE_T_NAMED_UNION:
    return wire__dec_matches(tm, n->type, 0, n->v.un->names, NULL);
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return wire__dec_matches(tm, n->type, 0, NULL, wire__st_layout(n));
  default:
    return wire__dec_matches(tm, n->type, 0, NULL, NULL);
  }
}

WIRE_DEC_HOT bool wire__dec_ref_flag(dec *d, bool allow_ref, int8_t *flag, uint32_t *id) {
  const uint8_t *s = d->in.p;
  uint8_t f;
  if (!wire__get_u8(&d->in, &f)) return false;
  *flag = (int8_t)f;
  switch ((int8_t)f) {
  case WIRE_REF_NULL:
    T(s, "ref flag 0xfd: null");
    return true;
  case WIRE_REF_REF:
    if (!allow_ref)
      return fail(d, WIRE_E_REF, s, "reference flag where only null/not-null "
                                    "flags are allowed");
    if (!wire__get_varu32(&d->in, id)) return false;
    if (*id >= d->nrefs)
      return fail(d, WIRE_E_REF, s, "reference id %u, only %zu value(s) so far",
                  *id, d->nrefs);
    return true;
  case WIRE_REF_NOT_NULL:
    T(s, "ref flag 0xff: not null");
    return true;
  case WIRE_REF_VALUE:
    if (!allow_ref)
      return fail(d, WIRE_E_REF, s, "ref-value flag where only null/not-null "
                                    "flags are allowed");
    T(s, "ref flag 0x00: tracked value #%zu", d->nrefs);
    return true;
  default:
    return fail(d, WIRE_E_REF, s, "invalid reference flag 0x%02x", f);
  }
}

/* A slot: an optional reference flag, then (unless `fixed` is given) type
 * meta, then the body. */
static bool read_slot_hint(dec *d, bool has_flag, bool allow_ref,
                           const tmeta *fixed, const wire_ftype *hint,
                           wire_node **out);

static bool read_slot(dec *d, bool has_flag, bool allow_ref,
                      const tmeta *fixed, wire_node **out) {
  return read_slot_hint(d, has_flag, allow_ref, fixed, NULL, out);
}

/* read_slot; when the slot's type meta is read and names the type of
 * `hint` (a union case's declared list, set or map type), the value is read
 * with hint's element, key and value types declared, as pyfory and Java
 * write union cases (R-UNION-5). */
static bool read_slot_hint(dec *d, bool has_flag, bool allow_ref,
                           const tmeta *fixed, const wire_ftype *hint,
                           wire_node **out) {
  int64_t slot = -1;
  uint8_t flag_track = 0;
  if (has_flag) {
    const uint8_t *s = d->in.p;
    int8_t f;
    uint32_t id;
    if (!wire__dec_ref_flag(d, allow_ref, &f, &id)) return false;
    if (f == WIRE_REF_NULL) {
      *out = null_node(d);
      return *out != NULL;
    }
    if (f == WIRE_REF_REF) {
      d->touched++;
      wire_node *target = (wire_node *)d->ctx->refs[id];
      if (!target)
        return fail(d, WIRE_E_REF, s,
                    "reference id %u names a value that is not complete", id);
      if (fixed && !matches(fixed, target))
        return fail(d, WIRE_E_REF, s,
                    "reference id %u names a %s where a %s is declared", id,
                    wire_type_name(target->type), wire_type_name(fixed->type));
      T(s, "ref flag 0xfe: reference to #%u", id);
      *out = target;
      return true;
    }
    if (f == WIRE_REF_VALUE) {
      d->touched++;
      if (wire__refs_reserve(d->ctx, d->nrefs + 1) != WIRE_OK)
        return fail(d, WIRE_E_NOMEM, s, "out of memory");
      slot = (int64_t)d->nrefs;
      d->ctx->refs[d->nrefs++] = NULL;
      flag_track = 1;
    }
  }
  tmeta tm;
  if (!fixed) {
    if (!read_type_meta(d, &tm)) return false;
    if (hint && !tm.decl && tm.type == hint->type_id) tm.decl = hint;
    fixed = &tm;
  }
  wire_node *n;
  if (!read_body(d, fixed, slot, &n)) return false;
  if (slot >= 0) d->ctx->refs[slot] = n;
  if (has_flag) {
    n->flags |= WIRE_NF_TRACK_SET;
    if (flag_track) n->flags |= WIRE_NF_TRACKED;
  }
  *out = n;
  return true;
}

#define enter wire__dec_enter
#define check_count wire__dec_check_count

bool wire__dec_check_count(dec *d, const uint8_t *s, uint64_t count,
                           uint64_t min_width) {
  if (count > d->ctx->max_collection)
    return fail(d, WIRE_E_LIMIT, s, "%llu elements exceed the limit %llu",
                (unsigned long long)count,
                (unsigned long long)d->ctx->max_collection);
  /* The bytes left, less one for each element that the open lists and
   * maps still owe (so nested counts cannot claim the same bytes). */
  uint64_t left = (uint64_t)(d->in.end - d->in.p);
  left = left > d->pending ? left - d->pending : 0;
  if (min_width && count > left / min_width)
    return fail(d, WIRE_E_TRUNCATED, s,
                "%llu elements cannot fit in the %llu byte(s) left",
                (unsigned long long)count, (unsigned long long)left);
  return true;
}

static const void *struct_meta(dec *d, wire_layout *l, wire_names *nm);

/* An enum node's type (ENUM: its user id; NAMED_ENUM: its names, with
 * their recorded encodings when read as meta strings) from tm. */
static bool enum_type(dec *d, const tmeta *tm, wire_node *n) {
  if (tm->type == WIRE_T_ENUM) {
    n->v.en = tm->user_id;
  } else if (tm->names) {
    n->v.names = tm->names;
    n->a = tm->ns_enc;
    n->b = tm->name_enc;
    n->flags |= WIRE_NF_NAMES_SET;
  } else if (!(n->v.names = layout_names(d, tm->layout))) {
    return false;
  }
  return true;
}

/* Keeps the user element type tm of the all-null list n (its type meta,
 * written once after the header, R-LIST-5; wire__dec_list_keeps_type): a
 * node of that type with no value, pointed at by the 64-bit value of a
 * null of the list's own in place of its first element, where the encoder
 * finds it (wire__list_elem_type). */
static bool keep_elem_type(dec *d, const tmeta *tm, wire_node *n) {
  wire_node *t = node(d, tm->type), *nul = t ? node(d, WIRE_T_NULL) : NULL;
  if (!nul) return false;
  switch (tm->type) {
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM:
    if (!enum_type(d, tm, t)) return false;
    break;
  default: { /* struct and ext kinds: a meta word, as a body starts */
    const void *meta = tm->layout;
    if (tm->names && !(meta = struct_meta(d, tm->layout, tm->names)))
      return false;
    const void **w = wire__arena_alloc(&d->doc->arena, sizeof *w);
    if (!w) return fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
    *w = meta;
    t->v.u = (uint64_t)(uintptr_t)w;
    break;
  }
  }
  nul->v.u = (uint64_t)(uintptr_t)t;
  n->v.list->items[0] = nul;
  return true;
}

static bool read_list(dec *d, wire_node *n, const wire_ftype *decl) {
  const uint8_t *s = d->in.p;
  uint32_t count;
  if (!wire__get_varu32(&d->in, &count)) return false;
  T(s, "%s length %u", wire_type_name(n->type), count);
  if (count == 0) return true;
  wire_dec_list l;
  if (!wire__dec_list_begin(d, decl, count, s, &l)) return false;
  n->a = l.h;
  n->flags |= WIRE_NF_HDR_SET;
  if (l.same && !(l.h & WIRE_LF_DECL)) {
    n->b = l.et.type;
    n->flags |= WIRE_NF_ELEM_SET;
  }
  wire_lbody *body = wire__list_body(d->doc, n, count);
  if (!body) return fail(d, WIRE_E_NOMEM, s, "out of memory");
  wire_node **items = body->items;
  if (!enter(d)) return false;
  bool any = false;
  if (l.owed) d->pending += count;
  for (uint32_t i = 0; i < count; i++) {
    wire_node *e;
    const uint8_t *es = d->in.p;
    if (l.owed) d->pending--;
    if (!read_slot(d, l.flags, l.track, l.same ? &l.et : NULL, &e)) return false;
    if (l.charge && !wire__dec_took_bytes(d, es)) return false;
    items[i] = e;
    n->small = i + 1;
    any |= e->type != WIRE_T_NULL;
  }
  if (!wire__dec_list_end(d, &l, any)) return false;
  if (wire__dec_list_keeps_type(&l, any) && !keep_elem_type(d, &l.et, n))
    return false;
  d->depth--;
  return true;
}

bool wire__dec_chunk_begin(dec *d, const wire_ftype *decl, wire_dec_chunk *c) {
  const uint8_t *hs = d->in.p;
  uint8_t h;
  if (!wire__get_u8(&d->in, &h)) return false;
  if (h & 0xC0)
    return fail(d, WIRE_E_COLLECTION, hs, "chunk header 0x%02x has reserved "
                                          "bits", h);
  bool knull = h & WIRE_MF_KEY_NULL, vnull = h & WIRE_MF_VAL_NULL;
  T(hs, "chunk header 0x%02x: key%s%s%s, value%s%s%s", h,
    knull ? " null" : "", (h & WIRE_MF_KEY_DECL) ? " declared" : "",
    (h & WIRE_MF_KEY_TRACK) ? " tracked" : "", vnull ? " null" : "",
    (h & WIRE_MF_VAL_DECL) ? " declared" : "",
    (h & WIRE_MF_VAL_TRACK) ? " tracked" : "");
  c->h = h;
  c->knull = knull;
  c->vnull = vnull;
  if (h & WIRE_MF_KEY_DECL) {
    if (!decl || !decl->key)
      return fail(d, WIRE_E_UNSUPPORTED, hs, "declared key type needs a schema");
    if (!decl_tmeta(d, decl->key, &c->kd)) return false;
  }
  if (h & WIRE_MF_VAL_DECL) {
    if (!decl || !decl->value)
      return fail(d, WIRE_E_UNSUPPORTED, hs,
                  "declared value type needs a schema");
    if (!decl_tmeta(d, decl->value, &c->vd)) return false;
  }
  c->kfix = (h & WIRE_MF_KEY_DECL) ? &c->kd : NULL;
  c->vfix = (h & WIRE_MF_VAL_DECL) ? &c->vd : NULL;
  return true;
}

bool wire__dec_chunk_size(dec *d, uint32_t left, uint8_t *size) {
  const uint8_t *ss = d->in.p;
  if (!wire__get_u8(&d->in, size)) return false;
  if (*size == 0 || *size > left)
    return fail(d, WIRE_E_COLLECTION, ss, "chunk of %u entries with %u left",
                *size, left);
  T(ss, "chunk size %u", *size);
  return true;
}

bool wire__dec_null_side(dec *d, const uint8_t *es) {
  return fail(d, WIRE_E_COLLECTION, es,
              "null flag on the non-null side of a null chunk");
}

bool wire__dec_null_in_chunk(dec *d, const uint8_t *es) {
  return fail(d, WIRE_E_COLLECTION, es,
              "null key or value inside a chunk (nulls take a chunk of "
              "their own)");
}

static bool read_map(dec *d, wire_node *n, const wire_ftype *decl) {
  const uint8_t *s = d->in.p;
  uint32_t count;
  if (!wire__get_varu32(&d->in, &count)) return false;
  T(s, "map size %u", count);
  if (count == 0) return true;
  /* Every entry takes at least one byte (a chunk header or key bytes). */
  if (!check_count(d, s, count, 1)) return false;
  wire_mbody *body = wire__map_body(d->doc, n, count);
  if (!body) return fail(d, WIRE_E_NOMEM, s, "out of memory");
  wire_node **kv = body->kv;
  if (!enter(d)) return false;
  uint32_t done = 0;
  d->pending += count; /* one less as each entry starts */
  while (done < count) {
    const uint8_t *hs = d->in.p;
    wire_dec_chunk c;
    if (!wire__dec_chunk_begin(d, decl, &c)) return false;
    uint8_t h = c.h;
    if (wire__chunk_push(d->doc, n, h, 1) != WIRE_OK)
      return fail(d, WIRE_E_NOMEM, hs, "out of memory");
    wire_node *k, *v;
    if (c.knull || c.vnull) {
      /* A single entry without a size byte; the non-null side carries its
       * own type meta, framed by a ref flag when its track bit is set. */
      const uint8_t *es = d->in.p;
      d->pending--;
      if (c.knull) {
        if (!(k = null_node(d))) return false;
      } else if (!read_slot(d, h & WIRE_MF_KEY_TRACK, true, c.kfix, &k)) {
        return false;
      }
      if (c.vnull) {
        if (!(v = null_node(d))) return false;
      } else if (!read_slot(d, h & WIRE_MF_VAL_TRACK, true, c.vfix, &v)) {
        return false;
      }
      if ((!c.knull && k->type == WIRE_T_NULL) ||
          (!c.vnull && v->type == WIRE_T_NULL))
        return wire__dec_null_side(d, es);
      kv[2 * done] = k;
      kv[2 * done + 1] = v;
      n->small = ++done;
      continue;
    }
    uint8_t size;
    if (!wire__dec_chunk_size(d, count - done, &size)) return false;
    body->chunks->c[body->chunks->n - 1] = (uint16_t)(h << 8 | size);
    tmeta kt, vt;
    if (c.kfix) kt = *c.kfix;
    else if (!read_type_meta(d, &kt)) return false;
    if (c.vfix) vt = *c.vfix;
    else if (!read_type_meta(d, &vt)) return false;
    for (uint32_t i = 0; i < size; i++) {
      const uint8_t *es = d->in.p;
      d->pending--;
      if (!read_slot(d, h & WIRE_MF_KEY_TRACK, true, &kt, &k) ||
          !read_slot(d, h & WIRE_MF_VAL_TRACK, true, &vt, &v) ||
          !wire__dec_took_bytes(d, es))
        return false;
      if (k->type == WIRE_T_NULL || v->type == WIRE_T_NULL)
        return wire__dec_null_in_chunk(d, es);
      kv[2 * done] = k;
      kv[2 * done + 1] = v;
      n->small = ++done;
    }
  }
  d->depth--;
  return true;
}

static const char *str_enc_name(int e) {
  return e == 0 ? "latin1" : e == 1 ? "utf16" : e == 2 ? "utf8" : "reserved";
}

WIRE_DEC_HOT bool wire__dec_string(dec *d, int32_t *enc_out, const uint8_t **out,
                      uint64_t *len_out) {
  const uint8_t *s = d->in.p;
  uint64_t h;
  if (!wire__get_varu36(&d->in, &h)) return false;
  int enc = (int)(h & 3);
  uint64_t len = h >> 2;
  if (enc == 3)
    return fail(d, WIRE_E_STRING, s, "reserved string encoding 3");
  if (len > d->ctx->max_binary)
    return fail(d, WIRE_E_LIMIT, s, "string of %llu bytes exceeds the limit",
                (unsigned long long)len);
  if (enc == WIRE_STR_UTF16 && (len & 1))
    return fail(d, WIRE_E_STRING, s, "UTF-16 string of odd length %llu",
                (unsigned long long)len);
  T(s, "string header: %llu byte(s), %s", (unsigned long long)len,
    str_enc_name(enc));
  const uint8_t *bs = d->in.p, *p;
  if (!wire__get_bytes(&d->in, len, &p)) return false;
  size_t bad;
  if (enc == WIRE_STR_UTF8 && (bad = wire__utf8_check(p, len)) != len)
    return fail(d, WIRE_E_STRING, bs + bad, "invalid UTF-8");
  if (enc == WIRE_STR_UTF16 && (bad = wire__utf16_check(p, len)) != len)
    return fail(d, WIRE_E_STRING, bs + bad, "unpaired UTF-16 surrogate");
  *enc_out = enc;
  *out = p;
  *len_out = len;
  if (d->dump) {
    size_t ul = wire__string_utf8_len(enc, p, len);
    char text[96];
    uint8_t tmp[400];
    if (ul < sizeof tmp) {
      size_t w = wire__string_to_utf8(enc, p, len, tmp);
      snprintf(text, sizeof text, "\"%.*s\"%s", w > 80 ? 80 : (int)w,
               (const char *)tmp, w > 80 ? "..." : "");
    } else {
      snprintf(text, sizeof text, "(%zu bytes of text)", ul);
    }
    T(bs, "text %s", text);
  }
  return true;
}

static bool read_string(dec *d, wire_node *n) {
  int32_t enc = 0;
  const uint8_t *p = NULL;
  uint64_t len = 0;
  if (!wire__dec_string(d, &enc, &p, &len)) return false;
  if (len > UINT32_MAX)
    return fail(d, WIRE_E_LIMIT, d->in.p, "a string of 4 GiB or more");
  n->a = (uint8_t)enc;
  n->flags |= WIRE_NF_HDR_SET;
  n->v.p = p;
  n->small = (uint32_t)len;
  return true;
}

bool wire__dec_decimal(dec *d, int32_t *scale_out, bool *negative,
                       const uint8_t **mag_out, uint32_t *len_out,
                       uint8_t small[8]) {
  const uint8_t *s = d->in.p;
  uint32_t zs;
  if (!wire__get_varu32(&d->in, &zs)) return false;
  int32_t scale = wire__unzz32(zs);
  T(s, "decimal scale %d", scale);
  const uint8_t *hs = d->in.p;
  uint64_t h;
  if (!wire__get_varu64(&d->in, &h)) return false;
  *scale_out = scale;
  if (!(h & 1)) {
    int64_t v = wire__unzz64(h >> 1);
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    uint32_t len = 0;
    while (mag) { small[len++] = (uint8_t)mag; mag >>= 8; }
    *mag_out = small;
    *len_out = len;
    *negative = v < 0;
    T(hs, "decimal unscaled %lld (small form)%s", (long long)v,
      rd_value(d, WIRE_T_DECIMAL, 0, (uint32_t)scale, v < 0, small, len));
    return true;
  }
  uint64_t meta = h >> 1;
  uint64_t len = meta >> 1;
  bool neg = meta & 1;
  if (len == 0 || len > d->ctx->max_decimal_bytes)
    return fail(d, WIRE_E_DECIMAL, hs, "big decimal magnitude of %llu bytes",
                (unsigned long long)len);
  T(hs, "decimal big form: %llu magnitude byte(s), %s",
    (unsigned long long)len, neg ? "negative" : "positive");
  const uint8_t *ms = d->in.p, *p;
  if (!wire__get_bytes(&d->in, len, &p)) return false;
  if (p[len - 1] == 0)
    return fail(d, WIRE_E_DECIMAL, ms, "big decimal magnitude has a high "
                                       "zero byte");
  if (len <= 8) {
    uint64_t mag = 0;
    for (uint64_t i = 0; i < len; i++) mag |= (uint64_t)p[i] << (8 * i);
    uint64_t lim = UINT64_C(1) << 62;
    if (neg ? mag <= lim : mag < lim)
      return fail(d, WIRE_E_DECIMAL, hs,
                  "big decimal form for a value that fits the small form");
  }
  *mag_out = p;
  *len_out = (uint32_t)len;
  *negative = neg;
  T(ms, "decimal magnitude (little-endian)%s",
    rd_value(d, WIRE_T_DECIMAL, 0, (uint32_t)scale, neg, p, (uint32_t)len));
  return true;
}

static bool read_decimal(dec *d, wire_node *n) {
  int32_t scale;
  bool neg;
  const uint8_t *mag;
  uint32_t len;
  uint8_t small[8];
  if (!wire__dec_decimal(d, &scale, &neg, &mag, &len, small)) return false;
  n->small = (uint32_t)scale;
  wire_dbody *b = wire__arena_alloc(d->arena, sizeof *b);
  if (!b || (mag == small && len && !(mag = wire__doc_dup(d->doc, small, len))))
    return fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
  b->mag = mag;
  b->len = len;
  n->v.dec = b;
  if (neg) n->flags |= WIRE_NF_NEGATIVE;
  return true;
}

static bool is_prim(uint8_t t) {
  return t == WIRE_T_BOOL || (t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64) ||
         (t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64);
}

/* The type meta a declared field type stands for (no bytes are read). */
bool wire__dec_decl_tmeta(dec *d, const wire_ftype *f, tmeta *tm) {
  memset(tm, 0, sizeof *tm);
  /* Values of `any`, and structs and ext values in compatible mode, always
   * carry their type meta: a declared bit for them is invalid (the encoder's
   * static_type rule) - except for a struct whose evolution is disabled,
   * which pyfory writes under a declared bit (R-LIST-3, errata E-49). */
  if (f->type_id == WIRE_T_UNKNOWN ||
      (d->ctx->compatible && f->type_id >= WIRE_T_STRUCT &&
       f->type_id <= WIRE_T_NAMED_EXT && !wire__fixed_struct(d->ctx, f)))
    return fail(d, WIRE_E_TYPE, d->in.p,
                "declared type %s must carry its type meta",
                wire_type_name(f->type_id));
  tm->type = f->type_id;
  tm->user_id = UINT32_MAX;
  tm->decl = f;
  if (f->user != WIRE_NO_TYPE) {
    wire_utype *t = &d->ctx->reg->types[f->user];
    tm->user_id = t->by_name ? UINT32_MAX : t->user_id;
    switch (t->kind) {
    case WIRE_KIND_STRUCT:
      tm->type = t->by_name ? WIRE_T_NAMED_STRUCT : WIRE_T_STRUCT;
      if (wire__layout_of(d->ctx, f->user) != WIRE_OK) return false;
      tm->layout = t->layout;
      break;
    case WIRE_KIND_ENUM:
      tm->type = t->by_name ? WIRE_T_NAMED_ENUM : WIRE_T_ENUM;
      if (t->by_name && !(tm->names = wire__dec_type_names(d, t)))
        return false;
      break;
    case WIRE_KIND_UNION:
      tm->type = WIRE_T_UNION;
      tm->reg = f->user;
      break;
    default:
      tm->type = t->by_name ? WIRE_T_NAMED_EXT : WIRE_T_EXT;
      if (wire__layout_of(d->ctx, f->user) != WIRE_OK) return false;
      tm->layout = t->layout;
      break;
    }
  } else if (kind_of(f->type_id) == WIRE_KIND_STRUCT &&
             f->type_id >= WIRE_T_STRUCT && f->type_id <= WIRE_T_NAMED_COMPATIBLE_STRUCT) {
    return fail(d, WIRE_E_SCHEMA, d->in.p,
                "a struct field of undeclared struct type in a same-schema "
                "payload");
  } else if (f->type_id == WIRE_T_EXT || f->type_id == WIRE_T_NAMED_EXT) {
    return fail(d, WIRE_E_UNSUPPORTED, d->in.p,
                "ext fields need their custom serializer");
  }
  return true;
}

int wire__dec_field_kind(const dec *d, const wire_ftype *f) {
  uint8_t t = f->type_id;
  bool flag = f->nullable || f->ref;
  bool dynamic = t == WIRE_T_UNKNOWN ||
                 ((kind_of(t) == WIRE_KIND_STRUCT || kind_of(t) == WIRE_KIND_EXT) &&
                  t >= WIRE_T_STRUCT && t <= WIRE_T_NAMED_EXT &&
                  d->ctx->compatible);
  if (dynamic) return WIRE_DEC_DYNAMIC;
  if (is_prim(t) && !flag && !WIRE_MUTANT(field_prim_flagged)) return WIRE_DEC_PRIM;
  return WIRE_DEC_DECLARED;
}

/* One struct field: framing from its declared type (spec R-FIELD-1..9). */
static bool read_field(dec *d, const wire_lfield *lf, wire_node **out) {
  const wire_ftype *f = lf->type;
  bool flag = f->nullable || f->ref || wire__peer_any_flag(d->ctx, f) ||
              wire__peer_value_flag(d->ctx, f) ||
              (WIRE_MUTANT(field_prim_flagged) && is_prim(f->type_id));
  bool ref = f->ref || wire__peer_field_tracks(d->ctx, f);
  if (d->dump) {
    if (lf->name_len)
      T(d->in.p, "field %.*s", (int)lf->name_len, (const char *)lf->name);
    else
      T(d->in.p, "field #%d", lf->tag);
  }
  if (wire__peer_field_meta(d->ctx, f)) {
    if (!read_slot(d, flag, ref, NULL, out)) return false;
    if ((*out)->type != WIRE_T_NULL) (*out)->flags |= WIRE_NF_TYPED;
    return true;
  }
  switch (wire__dec_field_kind(d, f)) {
  case WIRE_DEC_DYNAMIC:
    if (!read_slot(d, flag, ref, NULL, out)) return false;
    if ((*out)->type != WIRE_T_NULL) (*out)->flags |= WIRE_NF_TYPED;
    return true;
  case WIRE_DEC_PRIM: {
    tmeta tm = {.type = f->type_id};
    return read_body(d, &tm, -1, out);
  }
  default: {
    tmeta tm;
    return decl_tmeta(d, f, &tm) && read_slot(d, flag, ref, &tm, out);
  }
  }
}

bool wire__dec_struct_hash(dec *d, const wire_layout *l) {
  /* Structs carry the schema hash in same-schema mode only; ext bodies are
   * the custom serializer's. */
  if (((!d->ctx->compatible && !l->td) ||
       (WIRE_MUTANT(shash_in_compatible) && d->ctx->compatible)) &&
      l->kind == WIRE_KIND_STRUCT) {
    const uint8_t *s = d->in.p;
    uint64_t h;
    if (!wire__get_le(&d->in, 4, &h)) return false;
    uint32_t want = wire__peer_schema_hash(d->ctx, l);
    if ((uint32_t)h != want) {
      char name[160];
      if (l->type_index != WIRE_NO_TYPE)
        snprintf(name, sizeof name, "%s",
                 d->ctx->reg->types[l->type_index].full_name);
      else if (l->by_name)
        snprintf(name, sizeof name, "%.*s.%.*s", (int)l->ns_len,
                 (const char *)l->ns, (int)l->name_len, (const char *)l->name);
      else
        snprintf(name, sizeof name, "type id %u", l->user_id);
      char hint[160];
      wire__hash_hint(d->ctx, l, (uint32_t)h, hint, sizeof hint);
      return fail(d, WIRE_E_SCHEMA, s,
                  "schema hash 0x%08x of %s does not match the schema's "
                  "0x%08x%s", (unsigned)h, name, want, hint);
    }
    T(s, "schema hash 0x%08x", (unsigned)h);
  }
  return true;
}

/* The meta word of the bodies of structs of layout l named nm: the last
 * one made when it is of the same layout and names (a list of named
 * structs shares one), else a new one; NULL when out of memory. */
static const void *struct_meta(dec *d, wire_layout *l, wire_names *nm) {
  wire_smeta *sm = d->smeta;
  if (sm && d->smeta_doc == d->doc && sm->layout == l && sm->names == nm)
    return sm;
  if (!(sm = wire__arena_alloc(&d->doc->arena, sizeof *sm))) {
    fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
    return NULL;
  }
  d->smeta = sm;
  d->smeta_doc = d->doc;
  return wire__sb_meta(l, nm, sm);
}

static bool read_struct(dec *d, const tmeta *tm, wire_node *n) {
  wire_layout *l = tm->layout;
  wire_lazy_mark lz;
  bool lazy = WIRE_UNLIKELY(d->lazy) && wire__dec_lazy_due(d) &&
              wire__dec_lazy_begin(d, tm, &lz);
  /* Structs without fields share their body (it never changes), so that
   * a list of them costs a node each. */
  wire_sbody *body = d->empty_st;
  if (l->nfields || !body || wire__sb_layout(body) != l ||
      wire__sb_names(body) != tm->names || d->empty_doc != d->doc) {
    if (!(body = wire__struct_body(d->doc, l)))
      return fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
    if (tm->names && !(body->meta = struct_meta(d, l, tm->names)))
      return false;
    if (!l->nfields) {
      d->empty_st = body;
      d->empty_doc = d->doc;
    }
  }
  n->v.st = body;
  if (tm->names) {
    n->a = tm->ns_enc;
    n->b = tm->name_enc;
    n->flags |= WIRE_NF_NAMES_SET;
  }
  if (!wire__dec_struct_hash(d, l)) return false;
  if (!enter(d)) return false;
  lz.at = d->in.p;
  wire_node **fields = body->fields;
  for (uint32_t i = 0; i < l->nfields; i++) {
    const uint8_t *fs = d->in.p;
    if (!read_field(d, &l->fields[i], &fields[i]) ||
        !wire__dec_took_bytes(d, fs))
      return false;
    n->small = i + 1;
  }
  d->depth--;
  return !lazy || wire__dec_lazy_end(d, n, &lz);
}

bool wire__dec_union_case(dec *d, uint32_t *c) {
  const uint8_t *s = d->in.p;
  if (!wire__get_varu32(&d->in, c)) return false;
  T(s, "union case %u", *c);
  return true;
}

static bool read_union(dec *d, const tmeta *tm, wire_node *n) {
  uint32_t c;
  if (!wire__dec_union_case(d, &c)) return false;
  n->small = c;
  wire_ubody *u = wire__arena_alloc(d->arena, sizeof *u);
  if (!u) return fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
  n->v.un = u;
  u->value = NULL;
  u->user_id = tm->user_id;
  u->reg = tm->type == WIRE_T_UNION && tm->decl ? tm->reg : WIRE_NO_TYPE;
  u->names = tm->names;
  if (tm->names) {
    n->a = tm->ns_enc;
    n->b = tm->name_enc;
    n->flags |= WIRE_NF_NAMES_SET;
  }
  if (!tm->names && tm->layout && tm->layout->by_name &&
      !(u->names = layout_names(d, tm->layout)))
    return false;
  if (!enter(d)) return false;
  if (!read_slot_hint(d, true, true, NULL, wire__union_case_decl(d->ctx, n, c),
                      &u->value))
    return false;
  d->depth--;
  return true;
}

static double float_of_bits(uint8_t type, uint64_t u) {
  switch (type) {
  case WIRE_T_FLOAT16: return wire_float16_to_double((uint16_t)u);
  case WIRE_T_BFLOAT16: return wire_bfloat16_to_float((uint16_t)u);
  case WIRE_T_FLOAT32: {
    float f;
    uint32_t x = (uint32_t)u;
    memcpy(&f, &x, 4);
    return f;
  }
  default: {
    double x;
    memcpy(&x, &u, 8);
    return x;
  }
  }
}

WIRE_DEC_HOT bool wire__dec_prim(dec *d, uint8_t type, uint64_t *raw) {
  const uint8_t *s = d->in.p;
  uint64_t u;
  switch (type) {
  case WIRE_T_BOOL: {
    uint8_t b;
    if (!wire__get_u8(&d->in, &b)) return false;
    if (b > 1) return fail(d, WIRE_E_VALUE, s, "bool byte 0x%02x", b);
    *raw = b;
    T(s, "bool %s", b ? "true" : "false");
    return true;
  }
  case WIRE_T_INT8:
    if (!wire__get_le(&d->in, 1, &u)) return false;
    *raw = (uint64_t)(int64_t)(int8_t)u;
    T(s, "int8 %lld", (long long)(int64_t)*raw);
    return true;
  case WIRE_T_INT16:
    if (!wire__get_le(&d->in, 2, &u)) return false;
    *raw = (uint64_t)(int64_t)(int16_t)u;
    T(s, "int16 %lld", (long long)(int64_t)*raw);
    return true;
  case WIRE_T_INT32:
    if (!wire__get_le(&d->in, 4, &u)) return false;
    *raw = (uint64_t)(int64_t)(int32_t)u;
    T(s, "int32 %lld", (long long)(int64_t)*raw);
    return true;
  case WIRE_T_VARINT32: {
    uint32_t v;
    if (!wire__get_varu32(&d->in, &v)) return false;
    *raw = (uint64_t)(int64_t)wire__unzz32(v);
    T(s, "varint32 %lld", (long long)(int64_t)*raw);
    return true;
  }
  case WIRE_T_INT64:
    if (!wire__get_le(&d->in, 8, raw)) return false;
    T(s, "int64 %lld", (long long)(int64_t)*raw);
    return true;
  case WIRE_T_VARINT64:
    if (!wire__get_varu64(&d->in, &u)) return false;
    *raw = (uint64_t)wire__unzz64(u);
    T(s, "varint64 %lld", (long long)(int64_t)*raw);
    return true;
  case WIRE_T_TAGGED_INT64: {
    int64_t v;
    if (!wire__get_tagged_i64(&d->in, &v)) return false;
    *raw = (uint64_t)v;
    T(s, "tagged int64 %lld", (long long)v);
    return true;
  }
  case WIRE_T_UINT8:
    if (!wire__get_le(&d->in, 1, raw)) return false;
    T(s, "uint8 %llu", (unsigned long long)*raw);
    return true;
  case WIRE_T_UINT16:
    if (!wire__get_le(&d->in, 2, raw)) return false;
    T(s, "uint16 %llu", (unsigned long long)*raw);
    return true;
  case WIRE_T_UINT32:
    if (!wire__get_le(&d->in, 4, raw)) return false;
    T(s, "uint32 %llu", (unsigned long long)*raw);
    return true;
  case WIRE_T_VAR_UINT32: {
    uint32_t v;
    if (!wire__get_varu32(&d->in, &v)) return false;
    *raw = v;
    T(s, "var_uint32 %llu", (unsigned long long)*raw);
    return true;
  }
  case WIRE_T_UINT64:
    if (!wire__get_le(&d->in, 8, raw)) return false;
    T(s, "uint64 %llu", (unsigned long long)*raw);
    return true;
  case WIRE_T_VAR_UINT64:
    if (!wire__get_varu64(&d->in, raw)) return false;
    T(s, "var_uint64 %llu", (unsigned long long)*raw);
    return true;
  case WIRE_T_TAGGED_UINT64:
    if (!wire__get_tagged_u64(&d->in, raw)) return false;
    T(s, "tagged uint64 %llu", (unsigned long long)*raw);
    return true;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16:
    if (!wire__get_le(&d->in, 2, raw)) return false;
    T(s, "%s 0x%04llx (%g)", wire_type_name(type), (unsigned long long)*raw,
      float_of_bits(type, *raw));
    return true;
  case WIRE_T_FLOAT32:
    if (!wire__get_le(&d->in, 4, raw)) return false;
    if (WIRE_MUTANT(float_nan_canonical) && (*raw & 0x7FFFFFFF) > 0x7F800000)
      *raw = 0x7FC00000;
    T(s, "float32 0x%08llx (%.9g)", (unsigned long long)*raw,
      float_of_bits(type, *raw));
    return true;
  case WIRE_T_FLOAT64:
    if (!wire__get_le(&d->in, 8, raw)) return false;
    if (WIRE_MUTANT(float_nan_canonical) && (*raw & ~(UINT64_C(1) << 63)) > UINT64_C(0x7FF0000000000000))
      *raw = UINT64_C(0x7FF8000000000000);
    T(s, "float64 0x%016llx (%.17g)", (unsigned long long)*raw,
      float_of_bits(type, *raw));
    return true;
  default:
    return fail(d, WIRE_E_TYPE, s, "type %u has no body reader", type);
  }
}

WIRE_DEC_HOT bool wire__dec_enum_value(dec *d, uint32_t *v) {
  return wire__get_varu32(&d->in, v); /* traced by the caller, named */
}

bool wire__dec_time(dec *d, uint8_t type, int64_t *secs, uint32_t *nanos) {
  const uint8_t *s = d->in.p;
  uint64_t u, ns;
  if (type == WIRE_T_DURATION) {
    if (!wire__get_varu64(&d->in, &u)) return false;
    *secs = wire__unzz64(u);
  } else {
    if (!wire__get_le(&d->in, 8, &u)) return false;
    *secs = (int64_t)u;
  }
  T(s, "seconds %lld", (long long)*secs);
  const uint8_t *ns_at = d->in.p;
  if (!wire__get_le(&d->in, 4, &ns)) return false;
  if (ns >= 1000000000u)
    return fail(d, WIRE_E_VALUE, ns_at, "nanoseconds %llu >= 1e9",
                (unsigned long long)ns);
  *nanos = (uint32_t)ns;
  T(ns_at, "nanoseconds %u%s", *nanos,
    rd_value(d, type, *secs, *nanos, false, NULL, 0));
  return true;
}

WIRE_DEC_HOT bool wire__dec_date(dec *d, int64_t *days) {
  const uint8_t *s = d->in.p;
  uint64_t u;
  if (!wire__get_varu64(&d->in, &u)) return false;
  *days = wire__unzz64(u);
  T(s, "date: %lld day(s) since 1970-01-01%s", (long long)*days,
    rd_value(d, WIRE_T_DATE, *days, 0, false, NULL, 0));
  return true;
}

WIRE_DEC_HOT bool wire__dec_bytes(dec *d, uint8_t type, const uint8_t **out,
                     uint32_t *len_out) {
  const uint8_t *s = d->in.p;
  uint32_t w = type == WIRE_T_BINARY ? 1 : wire_type_array_width(type);
  if (!w) return fail(d, WIRE_E_TYPE, s, "type %u has no body reader", type);
  if (WIRE_UNLIKELY(d->oob) && wire__oob_marked(d->ctx, type)) {
    int r = wire__dec_oob_marker(d, type, w, out, len_out);
    if (r) return r > 0;
    s = d->in.p;
  }
  uint32_t len;
  if (!wire__get_varu32(&d->in, &len)) return false;
  if (len % w)
    return fail(d, WIRE_E_LENGTH, s, "%s byte length %u is not a multiple of %u",
                wire_type_name(type), len, w);
  if (len > d->ctx->max_binary)
    return fail(d, WIRE_E_LIMIT, s, "%u bytes exceed the limit", len);
  T(s, "byte length %u (%u element(s))", len, len / w);
  const uint8_t *bs = d->in.p, *p;
  if (!wire__get_bytes(&d->in, len, &p)) return false;
  if (type == WIRE_T_BOOL_ARRAY)
    for (uint32_t i = 0; i < len; i++)
      if (p[i] > 1) return fail(d, WIRE_E_VALUE, bs + i, "bool byte 0x%02x", p[i]);
  *out = p;
  *len_out = len;
  T(bs, "%s payload", wire_type_name(type));
  return true;
}

static bool read_body(dec *d, const tmeta *tm, int64_t slot,
                      wire_node **out) {
  wire_node *n = node(d, tm->type);
  if (!n) return false;
  *out = n;
  switch (tm->type) {
  case WIRE_T_STRING:
    return read_string(d, n);
  case WIRE_T_LIST:
  case WIRE_T_SET:
    if (slot >= 0) d->ctx->refs[slot] = n; /* before children: cycles */
    return read_list(d, n, tm->decl);
  case WIRE_T_MAP:
    if (slot >= 0) d->ctx->refs[slot] = n;
    return read_map(d, n, tm->decl);
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: {
    const uint8_t *s = d->in.p;
    uint32_t v;
    if (!wire__dec_enum_value(d, &v)) return false;
    n->small = v;
    if (!enum_type(d, tm, n)) return false;
    T(s, "enum value %u%s", v, RD(n));
    return true;
  }
  case WIRE_T_NONE:
    return true;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    if (slot >= 0 && !WIRE_MUTANT(struct_registered_late))
      d->ctx->refs[slot] = n; /* before fields: cycles */
    if (WIRE_MUTANT(struct_registered_late)) {
      bool done = read_struct(d, tm, n);
      if (slot >= 0) d->ctx->refs[slot] = n;
      return done;
    }
    return read_struct(d, tm, n);
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    return read_union(d, tm, n);
  case WIRE_T_DURATION: case WIRE_T_TIMESTAMP: {
    uint32_t ns;
    int64_t secs;
    if (!wire__dec_time(d, tm->type, &secs, &ns)) return false;
    n->v.i = secs;
    n->small = ns;
    return true;
  }
  case WIRE_T_DATE: {
    int64_t days;
    if (!wire__dec_date(d, &days)) return false;
    n->v.i = days;
    return true;
  }
  case WIRE_T_DECIMAL:
    return read_decimal(d, n);
  default:
    if (is_prim(tm->type)) {
      uint64_t u;
      if (!wire__dec_prim(d, tm->type, &u)) return false;
      n->v.u = u;
      return true;
    }
    {
      const uint8_t *p = NULL;
      uint32_t len = 0;
      d->band = 0;
      if (!wire__dec_bytes(d, tm->type, &p, &len)) return false;
      n->v.p = p;
      n->small = len;
      n->a = d->band; /* the band it was read with (oob.c) */
      return true;
    }
  }
}

void wire__dec_init(dec *d, wire_ctx *ctx, const uint8_t *data, size_t len,
                    wire_doc *doc, wire_arena *arena) {
  memset(d, 0, offsetof(dec, rd));
  d->cached = 0;
  d->tdc_pin = 0;
  d->in = (wire_in){ctx, data, data, data + len};
  d->ctx = ctx;
  d->doc = doc;
  d->arena = doc ? &doc->arena : arena;
  d->unbacked = wire__dec_unbacked_budget(len);
  d->max_nodes = ctx->max_nodes;
  ctx->oob_used = 0;
}

static int32_t run(wire_ctx *ctx, const uint8_t *data, size_t len,
                   wire_doc *doc, wire_dump_fn dump, void *user) {
  dec d;
  wire__dec_init(&d, ctx, data, len, doc, NULL);
  /* the tables the last decode left (wire__dec_fini) */
  d.ms = ctx->dec_keep.ms;
  d.ms_cap = ctx->dec_keep.ms_cap;
  d.tds = ctx->dec_keep.tds;
  d.tds_cap = ctx->dec_keep.tds_cap;
  memset(&ctx->dec_keep, 0, sizeof ctx->dec_keep);
  d.dump = dump;
  d.dump_user = user;
  d.lazy = !dump;
  /* blocks in proportion to the input while it is read (arena.c) */
  doc->arena.input_len = doc->nodes.input_len = len;
  int32_t st = WIRE_OK;
  if (len == 0) {
    st = wire__fail(ctx, WIRE_E_TRUNCATED, 0, "empty input");
  }
  while (st == WIRE_OK && d.in.p < d.in.end) {
    if (!wire__dec_root_header(&d, doc->nroots)) {
      st = ctx->err_code;
      break;
    }
    wire_node *root;
    if (!read_slot(&d, true, true, NULL, &root)) {
      st = ctx->err_code ? ctx->err_code : WIRE_E_STATE;
      break;
    }
    if (d.oob) {
      /* the header is the root's own: not on the document's shared null,
       * which every null root (and slot) shares; a node of its own, not
       * counted again (null_node counted this null) */
      if (root == doc->null && !(root = wire__node_new(doc, WIRE_T_NULL))) {
        fail(&d, WIRE_E_NOMEM, d.in.p, "out of memory");
        st = ctx->err_code;
        break;
      }
      root->flags |= WIRE_NF_OOB_ROOT;
    }
    if (wire_doc_add_root(doc, root) != WIRE_OK) {
      st = WIRE_E_NOMEM;
      break;
    }
  }
  wire__dec_fini(&d);
  doc->arena.input_len = doc->nodes.input_len = 0;
  return st;
}

int32_t wire_decode(wire_ctx *ctx, const uint8_t *data, size_t len,
                    wire_doc **out) {
  if (!ctx || !out || (!data && len)) return WIRE_E_ARG;
  *out = NULL;
  wire_ctx_clear_error(ctx);
  wire_doc *doc = wire_doc_new(ctx);
  if (!doc) return WIRE_E_NOMEM;
  int32_t st = run(ctx, data, len, doc, NULL, NULL);
  if (st != WIRE_OK) {
    wire_doc_free(doc);
    return st;
  }
  *out = doc;
  return WIRE_OK;
}

int32_t wire_dump(wire_ctx *ctx, const uint8_t *data, size_t len,
                  wire_dump_fn line, void *user) {
  if (!ctx || !line || (!data && len)) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_doc *doc = wire_doc_new(ctx);
  if (!doc) return WIRE_E_NOMEM;
  int32_t st = run(ctx, data, len, doc, line, user);
  wire_doc_free(doc);
  return st;
}

/* One field read into d->doc, for callers outside this file (the compiled
 * codecs skip a writer's field they do not have through it). */
bool wire__dec_field(dec *d, const wire_lfield *lf, wire_node **out) {
  return read_field(d, lf, out);
}
