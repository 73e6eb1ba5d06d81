/* encode.c - document to bytes. Choices recorded in the document (string
 * encodings, reference flags, element headers, map chunks, meta string
 * encodings) are reproduced; everything else follows the writer policy of
 * the Fory Java runtime (spec/ "Writer policy"). */
#include "policy.h"

typedef wire_enc enc;

#define efail wire__enc_fail
#define ok wire__enc_ok
#define enter wire__enc_enter

/* Whether a node is written with REF_VALUE: its recorded choice, else the
 * policy for fresh values under reference tracking. */
static inline bool tracked(const enc *e, const wire_node *n) {
  return wire__pol_tracked(e->ctx, n->type, n->flags & WIRE_NF_TRACK_SET,
                           n->flags & WIRE_NF_TRACKED);
}

/* Two nodes share type meta (same id; same user type for enums). */
static inline bool same_type(const wire_node *a, const wire_node *b) {
  if (a->type != b->type) return false;
  switch (a->type) {
  case WIRE_T_ENUM:
    return a->v.en.type_id == b->v.en.type_id;
  case WIRE_T_TYPED_UNION:
    return a->v.un.user_id == b->v.un.user_id;
  case WIRE_T_NAMED_ENUM:
    return wire__pol_same_type(a->type, b->type, 0, 0, a->v.nen.names,
                               b->v.nen.names, NULL, NULL);
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return wire__pol_same_type(a->type, b->type, 0, 0, NULL, NULL,
                               a->v.st.layout, b->v.st.layout);
  default:
    return true;
  }
}

static bool write_type_meta(enc *e, const wire_node *n) {
  wire_user_meta um = {UINT32_MAX, NULL, NULL, -1, -1};
  switch (n->type) {
  case WIRE_T_ENUM: um.user_id = n->v.en.type_id; break;
  case WIRE_T_NAMED_ENUM: um.names = n->v.nen.names; break;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    um.layout = n->v.st.layout;
    um.names = n->v.st.names;
    break;
  case WIRE_T_TYPED_UNION: um.user_id = n->v.un.user_id; break;
  case WIRE_T_NAMED_UNION: um.names = n->v.un.names; break;
  default:
    wire__put_u8(&e->b, n->type);
    return ok(e);
  }
  if (n->flags & WIRE_NF_NAMES_SET) {
    um.ns_enc = n->a;
    um.name_enc = n->b;
  }
  return wire__enc_type_meta(e, n->type, &um);
}

static bool write_body(enc *e, wire_node *n, const wire_ftype *decl);
static bool write_struct(enc *e, wire_node *n);

#define is_prim wire__is_prim
#define static_type(e, f) wire__pol_static_type((e)->ctx, (f))

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
    bool track = wire__pol_slot_tracks(e->ctx, any_slot,
                                       n->flags & WIRE_NF_TRACK_SET,
                                       tracked(e, n));
    if (allow_ref && track) {
      if (n->mark) {
        wire__put_u8(&e->b, 0xFE);
        wire__put_varu32(&e->b, n->mark - 1);
        return ok(e);
      }
      wire__put_u8(&e->b, 0x00);
      if (!wire__enc_mark(e, n)) return false;
      n->mark = ++e->nrefs;
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

static bool write_field(enc *e, const wire_lfield *lf, wire_node *v) {
  const wire_ftype *f = lf->type;
  bool flag = f->nullable || f->ref || wire__peer_any_flag(e->ctx, f);
  bool ref = f->ref || wire__peer_field_tracks(e->ctx, f);
  if (!v) {
    if (!flag)
      return efail(e, WIRE_E_ENCODE, "field %.*s has no value",
                   (int)lf->name_len, (const char *)lf->name);
    wire__put_u8(&e->b, 0xFD);
    return ok(e);
  }
  if (wire__peer_field_meta(e->ctx, f))
    return write_slot(e, v, flag, ref, true, false, f);
  bool dynamic = !static_type(e, f);
  if (is_prim(f->type_id) && !flag) {
    if (WIRE_UNLIKELY(v->type != f->type_id))
      return efail(e, WIRE_E_ENCODE, "field %.*s is a %s, not a %s",
                   (int)lf->name_len, (const char *)lf->name,
                   wire_type_name(f->type_id), wire_type_name(v->type));
    /* the common encodings here, the rest through write_body */
    wire_buf *b = &e->b;
    switch (v->type) {
    case WIRE_T_VARINT32: wire__put_varu32(b, wire__zz32((int32_t)v->v.i)); break;
    case WIRE_T_VARINT64: wire__put_varu64(b, wire__zz64(v->v.i)); break;
    case WIRE_T_INT32: case WIRE_T_FLOAT32: wire__put_le(b, v->v.u, 4); break;
    case WIRE_T_INT64: case WIRE_T_FLOAT64: wire__put_le(b, v->v.u, 8); break;
    case WIRE_T_BOOL: wire__put_u8(b, v->v.i ? 1 : 0); break;
    default: return write_body(e, v, f);
    }
    return WIRE_LIKELY(b->status == WIRE_OK) || ok(e);
  }
  if (!flag && !dynamic && !v->mark) {
    /* A string, binary or dense array in a slot of its declared type:
     * the body alone (what write_slot would reach for it). */
    wire_buf *b = &e->b;
    if (v->type == WIRE_T_STRING && f->type_id == WIRE_T_STRING) {
      wire__put_varu36(b, (v->v.bytes.len << 2) | v->a);
      wire__put_bytes(b, v->v.bytes.p, (size_t)v->v.bytes.len);
      return WIRE_LIKELY(b->status == WIRE_OK) || ok(e);
    }
    if (v->type == f->type_id && wire__is_array_type(v->type) &&
        v->v.bytes.len <= UINT32_MAX) {
      wire__put_varu32(b, (uint32_t)v->v.bytes.len);
      wire__put_bytes(b, v->v.bytes.p, (size_t)v->v.bytes.len);
      return WIRE_LIKELY(b->status == WIRE_OK) || ok(e);
    }
  }
  return write_slot(e, v, flag, ref,
                    dynamic || (WIRE_MUTANT(enum_field_meta) && v->type == WIRE_T_ENUM) ||
                        (WIRE_MUTANT(union_field_meta) && v->type >= WIRE_T_UNION &&
                         v->type <= WIRE_T_NAMED_UNION),
                    dynamic, f);
}

static bool write_struct(enc *e, wire_node *n) {
  const wire_layout *l = n->v.st.layout;
  if (!e->ctx->compatible && !l->td && l->kind == WIRE_KIND_STRUCT)
    wire__put_le(&e->b, wire__peer_schema_hash(e->ctx, l), 4);
  if (!enter(e)) return false;
  const wire_lfield *lf = l->fields;
  wire_node *const *fv = n->v.st.fields;
  uint32_t nf = l->nfields, have = n->small;
  wire_buf *b = &e->b;
  for (uint32_t i = 0; i < nf; i++) {
    wire_node *v = i < have ? fv[i] : NULL;
    /* The fields the layout says are a bare body, when the value is of
     * the declared type; everything else (and every error) through
     * write_field. The buffer's status is sticky: checked at the end. */
    if (WIRE_LIKELY(v != NULL)) {
      switch (lf[i].op) {
      case WIRE_FOP_VARINT32:
        if (v->type != WIRE_T_VARINT32) break;
        wire__put_varu32(b, wire__zz32((int32_t)v->v.i));
        continue;
      case WIRE_FOP_VARINT64:
        if (v->type != WIRE_T_VARINT64) break;
        wire__put_varu64(b, wire__zz64(v->v.i));
        continue;
      case WIRE_FOP_FIXED4:
        if (v->type != lf[i].type->type_id) break;
        wire__put_le(b, v->v.u, 4);
        continue;
      case WIRE_FOP_FIXED8:
        if (v->type != lf[i].type->type_id) break;
        wire__put_le(b, v->v.u, 8);
        continue;
      case WIRE_FOP_BOOL:
        if (v->type != WIRE_T_BOOL) break;
        wire__put_u8(b, v->v.i ? 1 : 0);
        continue;
      case WIRE_FOP_STRING:
        if (v->type != WIRE_T_STRING || v->mark) break;
        wire__put_varu36(b, (v->v.bytes.len << 2) | v->a);
        wire__put_bytes(b, v->v.bytes.p, (size_t)v->v.bytes.len);
        continue;
      case WIRE_FOP_BYTES:
        if (v->type != lf[i].type->type_id || v->mark ||
            v->v.bytes.len > UINT32_MAX)
          break;
        wire__put_varu32(b, (uint32_t)v->v.bytes.len);
        wire__put_bytes(b, v->v.bytes.p, (size_t)v->v.bytes.len);
        continue;
      default:
        break;
      }
    }
    if (!write_field(e, &lf[i], v)) return false;
  }
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
  const wire_ftype *edecl;
  uint8_t h;
  if (n->flags & WIRE_NF_HDR_SET) {
    edecl = decl ? decl->elem : NULL;
    if (edecl && !static_type(e, edecl)) edecl = NULL;
    h = n->a;
    if (h & 0xF0)
      return efail(e, WIRE_E_ENCODE, "element header 0x%02x has reserved "
                                       "bits", h);
    if ((h & WIRE_LF_DECL) && !edecl)
      return efail(e, WIRE_E_ENCODE, "element header 0x%02x needs a schema",
                   h);
    if (!(h & WIRE_LF_DECL)) edecl = NULL;
  } else {
    h = wire__pol_list_header(e->ctx, decl, same, has_null, track, &edecl);
    /* a value the document marks tracked (an anchor: shared) needs the
     * tracking bit, whatever the declared element type says */
    for (uint32_t i = 0; i < count && !(h & WIRE_LF_TRACKING); i++)
      if ((it[i]->flags & WIRE_NF_TRACK_SET) && (it[i]->flags & WIRE_NF_TRACKED))
        h |= WIRE_LF_TRACKING;
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

#define map_decl(e, f) wire__pol_map_decl((e)->ctx, (f))

static bool write_map(enc *e, wire_node *n, const wire_ftype *decl) {
  /* Recorded chunks may declare any static type; fresh ones follow Java. */
  const wire_ftype *kr = decl && decl->key && static_type(e, decl->key) ? decl->key : NULL;
  const wire_ftype *vr = decl && decl->value && static_type(e, decl->value) ? decl->value : NULL;
  const wire_ftype *kd = decl ? map_decl(e, decl->key) : NULL;
  const wire_ftype *vd = decl ? map_decl(e, decl->value) : NULL;
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
        uint32_t h = wire__pol_null_chunk(kn, vn, kd, vd);
        if (!write_chunk(e, kv + 2 * at, h, 1, kd, vd)) return false;
        at++;
        continue;
      }
      uint32_t size = 1;
      while (at + size < count && size < WIRE_POL_CHUNK_MAX) {
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
      uint32_t h = wire__pol_chunk(decl, kd, vd, kt, vt);
      if (!write_chunk(e, kv + 2 * at, h, size, kd, vd)) return false;
      at += size;
    }
  }
  e->depth--;
  return ok(e);
}

static bool write_decimal(enc *e, const wire_node *n) {
  return wire__enc_decimal(e, (int32_t)n->small, n->flags & WIRE_NF_NEGATIVE,
                           n->v.dec.mag, n->v.dec.len);
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
  {
    /* a list, set or map case is written with the case's declared types
     * (R-UNION-5) */
    const wire_ftype *cd = wire__union_case_decl(e->ctx, n, n->small);
    if (cd && n->v.un.value->type != cd->type_id) cd = NULL;
    if (WIRE_MUTANT(union_case_undeclared)) cd = NULL;
    if (!write_slot(e, n->v.un.value, !WIRE_MUTANT(union_case_no_flag), true, true, true, cd)) return false;
  }
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
  if (doc->nroots == 0) /* an empty payload is not one its decoder reads */
    return wire__fail(ctx, WIRE_E_ARG, 0, "no root value to encode: a "
                      "payload holds at least one (R-PAYLOAD-1)");
  enc e;
  wire__enc_begin(&e, ctx);
  /* The output goes straight into a wire_ctx_free_bytes block: its first
   * WIRE_OUT_PREFIX bytes are the block's header. */
  e.b.p = wire__out_take(ctx, 512, &e.b.cap);
  if (!e.b.p) {
    wire__enc_release(&e);
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  }
  e.b.len = e.base = WIRE_OUT_PREFIX;
  bool good = true;
  for (uint32_t r = 0; r < doc->nroots && good; r++) {
    wire__put_u8(&e.b, 0x01);
    good = write_slot(&e, doc->roots[r], true, true, true, true, NULL);
    for (size_t i = 0; i < e.nmarked; i++) ((wire_node *)e.marked[i])->mark = 0;
    wire__enc_end_root(&e);
  }
  if (good && !ok(&e)) good = false;
  wire__enc_release(&e);
  if (!good) {
    wire__free(ctx, e.b.p, e.b.cap);
    return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  }
  *out = wire__out_finish(e.b.p, e.b.cap);
  *out_len = e.b.len - WIRE_OUT_PREFIX;
  return WIRE_OK;
}
