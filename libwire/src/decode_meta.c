/* decode_meta.c - the document decoder's type meta: meta strings (the
 * per-message table, keyed by a SipHash of the wire bytes), type ids and
 * registered types, names, and shared TypeDefs (wire__dec_type_meta,
 * dec.h). Every length, count and id read from the input is checked
 * before use; see spec/ "Security considerations". */
#include "dec.h"

#include <stdio.h>

#define fail wire__dec_fail
#define layout_names wire__dec_layout_names
#define T WIRE_DEC_T
#define kind_of wire__dec_kind_of

/* ---- meta strings ---- */

/* SipHash-1-3 of (enc, bytes) under the decoder's key: the meta string
 * table is keyed by wire bytes, so its hash must not be predictable
 * (hash flooding, spec R-SEC-10). */
#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                          \
  do {                                                                    \
    v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);             \
    v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                \
    v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                \
    v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);             \
  } while (0)
static uint32_t ms_hash(const dec *d, uint8_t enc, const uint8_t *p,
                        size_t len) {
  uint64_t v0 = d->seed[0] ^ UINT64_C(0x736f6d6570736575);
  uint64_t v1 = d->seed[1] ^ UINT64_C(0x646f72616e646f6d);
  uint64_t v2 = d->seed[0] ^ UINT64_C(0x6c7967656e657261);
  uint64_t v3 = d->seed[1] ^ UINT64_C(0x7465646279746573) ^ enc;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t m;
    memcpy(&m, p + i, 8);
    v3 ^= m;
    SIPROUND;
    v0 ^= m;
  }
  uint64_t m = (uint64_t)len << 56;
  for (size_t k = 0; i + k < len; k++) m |= (uint64_t)p[i + k] << (8 * k);
  v3 ^= m;
  SIPROUND;
  v0 ^= m;
  v2 ^= 0xff;
  SIPROUND; SIPROUND; SIPROUND;
  uint64_t h = v0 ^ v1 ^ v2 ^ v3;
  return (uint32_t)(h ^ (h >> 32));
}
#undef SIPROUND
#undef ROTL

/* The announced entry equal to (enc, bytes), or NULL. The tape decoder
 * keeps the table between calls, so a bucket may start or end with stale
 * links: a link counts only while it names an entry of this root, of this
 * bucket, earlier than the one before (chains are linked in index order). */
static ms_entry *ms_find(dec *d, uint32_t hash, uint8_t enc,
                         const uint8_t *bytes, uint32_t len) {
  if (!d->ms_cap) return NULL;
  uint32_t mask = (uint32_t)d->ms_cap - 1, b = hash & mask;
  uint32_t i = d->ms[b].head, prev = (uint32_t)d->nms + 1;
  while (i && i < prev) {
    ms_entry *e = &d->ms[i - 1];
    if ((e->hash & mask) != b) break;
    if (e->hash == hash && e->enc == enc && e->len == len &&
        wire__eq(e->p, bytes, len))
      return e;
    prev = i;
    i = e->next;
  }
  return NULL;
}

static void ms_link(dec *d, size_t i) {
  ms_entry *e = &d->ms[i];
  uint32_t *head = &d->ms[e->hash & (d->ms_cap - 1)].head;
  e->next = *head;
  *head = (uint32_t)i + 1;
}

/* Room for one more entry: the table doubles, and its buckets are rebuilt
 * (entries announced again stay out of them). */
static bool ms_grow(dec *d, const uint8_t *s) {
  if (d->nms < d->ms_cap) return true;
  size_t cap = d->ms_cap ? d->ms_cap * 2 : 8;
  if (cap > 65536) return fail(d, WIRE_E_LIMIT, s, "too many meta strings");
  ms_entry *m = wire__realloc(d->ctx, d->ms, d->ms_cap * sizeof *m,
                              cap * sizeof *m);
  if (!m) return fail(d, WIRE_E_NOMEM, s, "out of memory");
  d->ms = m;
  d->ms_cap = cap;
  for (size_t i = 0; i < cap; i++) m[i].head = 0;
  for (size_t i = 0; i < d->nms; i++) {
    m[i].next = 0;
    if (m[i].decoded & 0x80) ms_link(d, i); /* bit 7: in the buckets */
  }
  return true;
}

static bool read_meta_string(dec *d, int msctx, wire_names *nm, bool is_ns,
                             uint8_t *enc_out) {
  const uint8_t *s = d->in.p;
  uint32_t h;
  d->touched++;
  if (!wire__get_varu32(&d->in, &h)) return false;
  ms_entry *e;
  if (h & 1) {
    uint32_t id = h >> 1;
    if (id == 0 || id > d->nms)
      return fail(d, WIRE_E_META_STRING, s, "meta string reference %u of %zu",
                  id, d->nms);
    e = &d->ms[id - 1];
    /* A reference may name an entry announced in the other role (pyfory
     * shares one table); the text is decoded in this role's alphabet. */
    if (e->msctx != msctx) {
      if (WIRE_MUTANT(ms_one_role))
        return fail(d, WIRE_E_META_STRING, s, "reference to the other role");
      if (is_ns) nm->ns_xref = 1;
      else nm->name_xref = 1;
    }
    if (is_ns) nm->ns_ref = id;
    else nm->name_ref = id;
    T(s, "%s: reference to meta string #%u", is_ns ? "namespace" : "type name",
      id);
  } else {
    uint32_t len = h >> 1;
    if (len > 32767 * 4)
      return fail(d, WIRE_E_META_STRING, s, "meta string of %u bytes", len);
    T(s, "%s: new meta string, %u byte(s)", is_ns ? "namespace" : "type name",
      len);
    const uint8_t *hs = d->in.p;
    uint64_t hash = 0;
    uint8_t enc, form = 0;
    if (len > 16) {
      if (!wire__get_le(&d->in, 8, &hash)) return false;
      enc = (uint8_t)(hash & 0xFF);
      T(hs, "meta string hash 0x%016llx (encoding %s)",
        (unsigned long long)hash, wire_meta_encoding_name(enc) ? wire_meta_encoding_name(enc) : "?");
    } else if (len > 0) {
      if (!wire__get_u8(&d->in, &enc)) return false;
      T(hs, "meta string encoding %u (%s)", enc,
        wire_meta_encoding_name(enc) ? wire_meta_encoding_name(enc) : "?");
    } else {
      enc = WIRE_MS_UTF8;
    }
    if (enc > 4)
      return fail(d, WIRE_E_META_STRING, hs, "meta string encoding %u", enc);
    const uint8_t *bytes;
    if (!wire__get_bytes(&d->in, len, &bytes)) return false;
    if (len > 16) {
      if (hash == wire__ms_hash(bytes, len, enc, 0)) form = 0;
      else if (hash == wire__ms_hash(bytes, len, enc, 1)) form = 1;
      else return fail(d, WIRE_E_META_STRING, hs, "meta string hash mismatch");
    }
    if (!d->seeded) wire__dec_seed(d);
    uint32_t kh = ms_hash(d, enc, bytes, len);
    /* Announced again instead of referenced: Fory Go writes this; the name
     * gets a new index, and the choice is kept for re-encoding. */
    bool again = ms_find(d, kh, enc, bytes, len) != NULL;
    if (again) {
      if (WIRE_MUTANT(ms_one_role))
        return fail(d, WIRE_E_META_STRING, s, "name announced twice");
      if (is_ns) nm->ns_again = 1;
      else nm->name_again = 1;
    }
    if (!ms_grow(d, s)) return false;
    e = &d->ms[d->nms];
    *e = (ms_entry){bytes, len, enc, (uint8_t)msctx, form, 0, kh,
                    e->head, 0, {0, 0}, {NULL, NULL}};
    if (!again) {
      e->decoded = 0x80;
      ms_link(d, d->nms);
    }
    d->nms++;
  }
  /* The text in this role: UTF-8 names stay zero-copy, packed ones are
   * unpacked into the document (at most 8/5 chars per byte), once. */
  int role = msctx == WIRE_MSCTX_NAMESPACE ? 0 : 1;
  if (!(e->decoded & (1u << role))) {
    const uint8_t *text = e->p;
    size_t tlen = e->len;
    if (e->enc != WIRE_MS_UTF8) {
      uint8_t *t = wire__arena_alloc(d->arena, (size_t)e->len * 2 + 1);
      if (!t) return fail(d, WIRE_E_NOMEM, s, "out of memory");
      if (wire_meta_decode(msctx, e->enc, e->p, e->len, t,
                           (size_t)e->len * 2 + 1, &tlen) != WIRE_OK)
        return fail(d, WIRE_E_META_STRING, s, "invalid %s meta string",
                    wire_meta_encoding_name(e->enc));
      text = t;
    } else if (wire__utf8_check(e->p, e->len) != e->len) {
      return fail(d, WIRE_E_META_STRING, s, "meta string is not UTF-8");
    }
    e->text[role] = text;
    e->tlen[role] = (uint32_t)tlen;
    e->decoded |= (uint8_t)(1u << role);
  }
  const uint8_t *copy = e->text[role];
  uint32_t tlen = e->tlen[role];
  if (is_ns) { nm->ns = copy; nm->ns_len = tlen; nm->ns_hash_form = e->form; }
  else { nm->name = copy; nm->name_len = tlen; nm->name_hash_form = e->form; }
  *enc_out = e->enc;
  if (d->dump)
    T(d->in.p, "%s = \"%.*s\"", is_ns ? "namespace" : "type name", (int)tlen,
      (const char *)copy);
  return true;
}

/* ---- type meta ---- */

static const char *kind_name(uint8_t kind) {
  return kind == WIRE_KIND_STRUCT ? "struct" : kind == WIRE_KIND_ENUM ? "enum"
         : kind == WIRE_KIND_UNION ? "union" : "ext";
}

static uint32_t registered(dec *d, bool by_name, uint32_t id,
                           const uint8_t *ns, uint32_t ns_len,
                           const uint8_t *name, uint32_t name_len,
                           uint8_t kind) {
  return wire__reg_lookup(d->ctx, kind, by_name, id, ns, ns_len, name,
                          name_len);
}

/* Same-schema struct (and ext) type meta: the schema must know the type. */
static bool need_layout(dec *d, const uint8_t *s, tmeta *tm, uint32_t ti) {
  if (kind_of(tm->type) != WIRE_KIND_STRUCT) return true;
  if (ti == WIRE_NO_TYPE) {
    if (tm->names)
      return fail(d, WIRE_E_SCHEMA, s,
                  "struct %.*s.%.*s is not in the schema (same-schema "
                  "payloads need it; pass --schema)",
                  (int)tm->names->ns_len, (const char *)tm->names->ns,
                  (int)tm->names->name_len, (const char *)tm->names->name);
    return fail(d, WIRE_E_SCHEMA, s,
                "struct type id %u is not in the schema (same-schema "
                "payloads need it; pass --schema)", tm->user_id);
  }
  if (wire__layout_of(d->ctx, ti) != WIRE_OK) return false;
  tm->layout = d->ctx->reg->types[ti].layout;
  return true;
}

/* Ext values: libwire reads a custom body only where the schema describes
 * it (an ext type declared with fields, spec R-EXT-2). */
static bool need_ext(dec *d, const uint8_t *s, tmeta *tm, uint32_t ti) {
  if (ti == WIRE_NO_TYPE)
    return fail(d, WIRE_E_UNSUPPORTED, s, "ext value of a type the schema "
                                          "does not describe");
  if (wire__layout_of(d->ctx, ti) != WIRE_OK) return false;
  tm->layout = d->ctx->reg->types[ti].layout;
  return true;
}

static bool find_by_id(dec *d, const uint8_t *s, tmeta *tm) {
  uint8_t kind = kind_of(tm->type);
  uint32_t ti = registered(d, false, tm->user_id, NULL, 0, NULL, 0, kind);
  if (kind == WIRE_KIND_EXT) return need_ext(d, s, tm, ti);
  return need_layout(d, s, tm, ti);
}

static wire_names *names_from(dec *d, const void *from, const char *ns,
                              size_t ns_len, const char *name,
                              size_t name_len, const wire_layout *l) {
  if (d->nm_last && d->nm_from == from && d->nm_arena == d->arena)
    return d->nm_last;
  wire_names *nm = wire__arena_alloc(d->arena, sizeof *nm);
  if (!nm) {
    fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
    return NULL;
  }
  memset(nm, 0, sizeof *nm);
  nm->ns = (const uint8_t *)ns;
  nm->ns_len = (uint32_t)ns_len;
  nm->name = (const uint8_t *)name;
  nm->name_len = (uint32_t)name_len;
  nm->layout = l;
  d->nm_last = nm;
  d->nm_from = from;
  d->nm_arena = d->arena;
  return nm;
}
wire_names *wire__dec_layout_names(dec *d, const wire_layout *l) {
  if (!l) return names_from(d, NULL, NULL, 0, NULL, 0, NULL);
  return names_from(d, l, (const char *)l->ns, l->ns_len,
                    (const char *)l->name, l->name_len, l);
}
wire_names *wire__dec_type_names(dec *d, const wire_utype *t) {
  return names_from(d, t, t->ns, strlen(t->ns), t->name, strlen(t->name),
                    NULL);
}

static bool read_names(dec *d, tmeta *tm) {
  wire_names *nm = wire__arena_alloc(d->arena, sizeof *nm);
  if (!nm) return fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
  memset(nm, 0, sizeof *nm);
  tm->names = nm;
  tm->user_id = UINT32_MAX;
  return read_meta_string(d, WIRE_MSCTX_NAMESPACE, nm, true, &tm->ns_enc) &&
         read_meta_string(d, WIRE_MSCTX_TYPE_NAME, nm, false, &tm->name_enc);
}

static bool find_named(dec *d, const uint8_t *s, tmeta *tm) {
  uint8_t kind = kind_of(tm->type);
  uint32_t ti = registered(d, true, 0, tm->names->ns, tm->names->ns_len,
                           tm->names->name, tm->names->name_len, kind);
  if (kind == WIRE_KIND_EXT) return need_ext(d, s, tm, ti);
  return need_layout(d, s, tm, ti);
}

/* Shared TypeDef marker: (index << 1) | 1 refers to an earlier TypeDef of
 * this root, index << 1 announces the next one, which follows. */
static bool read_shared_typedef(dec *d, tmeta *tm) {
  const uint8_t *s = d->in.p;
  d->touched++;
  uint32_t marker;
  if (!wire__get_varu32(&d->in, &marker)) return false;
  uint32_t index = marker >> 1;
  wire_layout *l;
  if (marker & 1) {
    if (index >= d->ntds)
      return fail(d, WIRE_E_TYPEDEF, s, "TypeDef reference %u of %zu", index,
                  d->ntds);
    l = d->tds[index];
    T(s, "shared TypeDef #%u (reference)", index);
  } else {
    if (index != d->ntds)
      return fail(d, WIRE_E_TYPEDEF, s, "new TypeDef announced as #%u, "
                                        "expected #%zu", index, d->ntds);
    T(s, "shared TypeDef #%u (new, follows)", index);
    const uint8_t *ts = d->in.p;
    /* A TypeDef seen before (in any message on this context): a lookup and
     * a byte compare; else it is read, linked and (room permitting)
     * cached. */
    l = wire__tdcache_find(d->ctx, ts, (size_t)(d->in.end - ts));
    if (l) {
      d->in.p += l->td_len;
    } else {
      /* read into the cache's scratch when the cache has room (then
       * copied into the cache, not the document) */
      /* a decode without a document holds its cached layouts until it
       * returns: a turnover pins it first */
      uint64_t *hold = d->doc ? NULL : &d->tdc_pin;
      wire_arena *ta =
          wire__tdcache_scratch(d->ctx, ts, (size_t)(d->in.end - ts), hold);
      if (wire__typedef_read(d->ctx, &d->in, ta ? ta : d->arena,
                             d->ctx->max_depth, &l) != WIRE_OK) {
        wire__tdcache_drop(d->ctx);
        return false;
      }
      size_t was = ta ? d->ctx->tdc->bytes : 0;
      if (wire__tdcache_adopt(d->ctx, &l, d->arena, hold) != WIRE_OK)
        return false;
      /* (a turnover may have given back more than the entry took) */
      if (ta && d->doc && d->ctx->tdc->bytes > was)
        d->cached += d->ctx->tdc->bytes - was;
    }
    if (d->dump) {
      if (l->by_name)
        T(ts, "TypeDef: %s%s %.*s.%.*s, %u field(s)",
          l->kind != WIRE_KIND_STRUCT ? "" : l->compatible ? "compatible " : "fixed ",
          kind_name(l->kind),
          (int)l->ns_len, (const char *)l->ns, (int)l->name_len,
          (const char *)l->name, l->nfields);
      else
        T(ts, "TypeDef: %s%s id %u, %u field(s)",
          l->kind != WIRE_KIND_STRUCT ? "" : l->compatible ? "compatible " : "fixed ",
          kind_name(l->kind),
          l->user_id, l->nfields);
      for (uint32_t i = 0; i < l->nfields; i++) {
        const wire_lfield *f = &l->fields[i];
        char ty[160], line[320];
        wire__ftype_text(f->type, ty, sizeof ty);
        if (f->name_len)
          snprintf(line, sizeof line, "  TypeDef field %u: %.*s: %s", i,
                   (int)f->name_len, (const char *)f->name, ty);
        else
          snprintf(line, sizeof line, "  TypeDef field %u: tag %d: %s", i,
                   f->tag, ty);
        d->dump(d->dump_user, wire__off(&d->in, ts) + f->td_off, f->td_len,
                d->depth + 1, line);
      }
    }
    /* a document that holds a cached layout keeps the cache's entries
     * from being freed by a flush or a turnover until it is freed
     * (typedef_cache.c); a decode without a document (tapes) is pinned
     * by the turnover itself, until it returns */
    if (l->entry && d->doc && !d->doc->tdc_pin)
      wire__tdcache_pin(d->ctx, &d->doc->tdc_pin);
    /* The same TypeDef announced again in this root (Fory Go, E-44): a
     * layout of its own, so that the document keeps the announcement and
     * re-encoding announces it again (notation N-5.3). */
    for (size_t k = 0; k < d->ntds; k++) {
      if (d->tds[k] != l) continue;
      wire_layout *c = wire__arena_alloc(d->arena, sizeof *c);
      uint8_t *tb = c ? wire__arena_alloc(d->arena, l->td_len ? l->td_len : 1) : NULL;
      if (!tb) return fail(d, WIRE_E_NOMEM, s, "out of memory");
      *c = *l;
      c->self = c;
      c->entry = NULL; /* (a projection map of its own is the document's) */
      memcpy(tb, l->td, l->td_len);
      c->td = tb;
      l = c;
      break;
    }
    wire_layout **t = wire__grow(d->ctx, d->tds, &d->tds_cap, d->ntds,
                                 sizeof *t, 8);
    if (!t) return fail(d, WIRE_E_NOMEM, s, "out of memory");
    d->tds = t;
    d->tds[d->ntds++] = l;
  }
  if (l->kind != kind_of(tm->type))
    return fail(d, WIRE_E_TYPEDEF, s, "TypeDef of a %s for a %s value",
                kind_name(l->kind), wire_type_name(tm->type));
  {
    /* The TypeDef's registration (by name or by id) must match the type
     * id: NAMED_* kinds carry names, the others ids (R-UTYPE-5). */
    bool named = tm->type == WIRE_T_NAMED_ENUM || tm->type == WIRE_T_NAMED_STRUCT ||
                 tm->type == WIRE_T_NAMED_COMPATIBLE_STRUCT ||
                 tm->type == WIRE_T_NAMED_EXT || tm->type == WIRE_T_NAMED_UNION;
    if (named != l->by_name)
      return fail(d, WIRE_E_TYPEDEF, s, "TypeDef registered by %s for a %s value",
                  l->by_name ? "name" : "id", wire_type_name(tm->type));
  }
  if (l->kind == WIRE_KIND_EXT) {
    /* The TypeDef names the ext type; its body comes from the schema. */
    tmeta ext = *tm;
    if (!need_ext(d, s, &ext, l->type_index)) return false;
    tm->names = layout_names(d, l);
    if (!tm->names) return false;
    tm->layout = ext.layout;
    tm->user_id = l->by_name ? UINT32_MAX : l->user_id;
    return true;
  }
  tm->layout = l;
  tm->user_id = l->by_name ? UINT32_MAX : l->user_id;
  return true;
}

bool wire__dec_type_meta(dec *d, tmeta *tm) {
  const uint8_t *s = d->in.p;
  uint8_t t;
  if (!wire__get_u8(&d->in, &t)) return false;
  memset(tm, 0, sizeof *tm);
  tm->type = t;
  const char *name = wire_type_name(t);
  if (t == WIRE_T_UNKNOWN || t > WIRE_T_FLOAT64_ARRAY || t == WIRE_T_FLOAT8 ||
      t == WIRE_T_ARRAY || t == WIRE_T_FLOAT8_ARRAY)
    return fail(d, WIRE_E_TYPE, s, "type id %u is %s here", t,
                t <= WIRE_T_FLOAT64_ARRAY ? "not allowed" : "undefined");
  T(s, "type id %u (%s)", t, name);
  switch (t) {
  case WIRE_T_ENUM: {
    const uint8_t *u = d->in.p;
    if (!wire__get_varu32(&d->in, &tm->user_id)) return false;
    if (tm->user_id == UINT32_MAX)
      return fail(d, WIRE_E_TYPE, u, "user type id 0xffffffff is reserved");
    T(u, "user type id %u", tm->user_id);
    return true;
  }
  case WIRE_T_NAMED_ENUM:
  case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_EXT:
  case WIRE_T_NAMED_UNION:
    if (d->ctx->compatible) return read_shared_typedef(d, tm);
    return read_names(d, tm) && find_named(d, s, tm);
  case WIRE_T_COMPATIBLE_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT:
    return read_shared_typedef(d, tm);
  case WIRE_T_STRUCT:
  case WIRE_T_EXT:
  case WIRE_T_TYPED_UNION: {
    const uint8_t *u = d->in.p;
    if (!wire__get_varu32(&d->in, &tm->user_id)) return false;
    if (tm->user_id == UINT32_MAX)
      return fail(d, WIRE_E_TYPE, u, "user type id 0xffffffff is reserved");
    T(u, "user type id %u", tm->user_id);
    return find_by_id(d, s, tm);
  }
  default:
    return true;
  }
}
