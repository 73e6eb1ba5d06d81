/* typedef.c - struct layouts: the field order, the same-schema hash and
 * TypeDefs (the schema metadata of compatible mode), written and read. */
#include <stdio.h>
#include <stdlib.h>

#include "schema.h"

/* ---- field order (spec R-FORDER-1..3) ---- */

static bool is_primitive(uint8_t t) {
  return t == WIRE_T_BOOL || (t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64) ||
         (t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64);
}

static bool is_compressed(uint8_t t) {
  return t == WIRE_T_VARINT32 || t == WIRE_T_VAR_UINT32 ||
         t == WIRE_T_VARINT64 || t == WIRE_T_VAR_UINT64 ||
         t == WIRE_T_TAGGED_INT64 || t == WIRE_T_TAGGED_UINT64;
}

static int prim_size(uint8_t t) {
  switch (t) {
  case WIRE_T_BOOL: case WIRE_T_INT8: case WIRE_T_UINT8: return 1;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16:
  case WIRE_T_BFLOAT16: return 2;
  case WIRE_T_INT32: case WIRE_T_VARINT32: case WIRE_T_UINT32:
  case WIRE_T_VAR_UINT32: case WIRE_T_FLOAT32: return 4;
  default: return 8;
  }
}

/* Field identifier comparator: tag ids numerically first, then names
 * byte-lexicographically. */
static int cmp_ident(const wire_lfield *a, const wire_lfield *b) {
  bool ta = a->tag >= 0, tb = b->tag >= 0;
  if (ta && tb) return a->tag < b->tag ? -1 : a->tag > b->tag;
  if (ta) return -1;
  if (tb) return 1;
  if (WIRE_MUTANT(forder_shorter_first) && a->name_len != b->name_len)
    return a->name_len < b->name_len ? -1 : 1;
  size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
  int c = n ? memcmp(a->name, b->name, n) : 0;
  if (c) return c;
  return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

static int group(const wire_lfield *f) {
  if (!is_primitive(f->type->type_id)) return 3;
  return f->type->nullable && !WIRE_MUTANT(forder_nullable_ungrouped) ? 2 : 1;
}

static int cmp_order(const void *pa, const void *pb) {
  const wire_lfield *a = pa, *b = pb;
  int ga = group(a), gb = group(b);
  if (ga != gb) return ga - gb;
  if (ga < 3) {
    uint8_t x = a->type->type_id, y = b->type->type_id;
    int ca = is_compressed(x), cb = is_compressed(y);
    if (ca != cb) return WIRE_MUTANT(forder_compressed_first) ? cb - ca : ca - cb;
    int sa = prim_size(x), sb = prim_size(y);
    if (sa != sb) return sb - sa; /* larger first */
    if (x != y) return x - y;
  }
  return cmp_ident(a, b);
}

/* ---- same-schema fingerprint ---- */

/* The fingerprint text is built into a wire_buf (the context's allocator,
 * sticky status), the integers written by hand: no printf, and an
 * allocation failure is WIRE_E_NOMEM, never a hash of a truncated text. */
static void fp_add(wire_buf *s, const char *t, size_t n) {
  wire__put_bytes(s, t, n);
}

static void fp_uint(wire_buf *s, uint32_t v) {
  char b[12];
  size_t n = sizeof b;
  do {
    b[--n] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  fp_add(s, b + n, sizeof b - n);
}

static uint8_t fp_type_id(const wire_ftype *f) {
  switch (f->type_id) {
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: case WIRE_T_STRUCT:
  case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    return WIRE_T_UNKNOWN;
  default:
    return f->type_id;
  }
}

/* `how`: WIRE_HASH_* flags a peer runtime leaves out (R-PEER-1). */
static void fp_type(wire_buf *s, const wire_ftype *f, bool top, int how) {
  fp_uint(s, fp_type_id(f));
  bool coll = f->type_id == WIRE_T_LIST || f->type_id == WIRE_T_SET ||
              f->type_id == WIRE_T_MAP;
  bool ref = top && f->ref && !(how & WIRE_HASH_NO_REF);
  bool nullable = top && f->nullable && (coll || !(how & WIRE_HASH_GO_NULLABLE));
  char flags[4] = {',', ref ? '1' : '0', ',', nullable ? '1' : '0'};
  fp_add(s, flags, 4);
  if ((f->type_id == WIRE_T_LIST || f->type_id == WIRE_T_SET) && f->elem) {
    fp_add(s, "[", 1);
    fp_type(s, f->elem, false, how);
    fp_add(s, "]", 1);
  } else if (f->type_id == WIRE_T_MAP && f->key && f->value) {
    fp_add(s, "[", 1);
    fp_type(s, f->key, false, how);
    fp_add(s, "|", 1);
    fp_type(s, f->value, false, how);
    fp_add(s, "]", 1);
  }
}

/* Appends the fingerprint of the fields (any order) to s, NUL-terminated
 * (the NUL not counted in s->len). */
static int32_t fingerprint(wire_ctx *ctx, const wire_lfield *fields,
                           uint32_t n, wire_buf *s, int how) {
  /* The fields in identifier order, as indexes (insertion sort: structs
   * have few fields, and this runs once per type). */
  uint32_t small[64];
  uint32_t *ix = small;
  if (n > 64 && !(ix = wire__alloc(ctx, n * sizeof *ix)))
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    uint32_t k = i;
    while (k > 0 && !WIRE_MUTANT(shash_declared_order) &&
           cmp_ident(&fields[i], &fields[ix[k - 1]]) < 0) {
      ix[k] = ix[k - 1];
      k--;
    }
    ix[k] = i;
  }
  for (uint32_t i = 0; i < n; i++) {
    const wire_lfield *f = &fields[ix[i]];
    if (f->tag >= 0) fp_uint(s, (uint32_t)f->tag);
    else fp_add(s, (const char *)f->name, f->name_len);
    fp_add(s, ",", 1);
    fp_type(s, f->type, true, how);
    fp_add(s, ";", 1);
  }
  if (ix != small) wire__free(ctx, ix, n * sizeof *ix);
  wire__put_u8(s, 0);
  if (s->status) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  s->len--;
  return WIRE_OK;
}

int32_t wire__schema_hash(wire_ctx *ctx, const wire_lfield *fields,
                          uint32_t n, uint32_t *out) {
  return wire__schema_hash_as(ctx, fields, n, 0, out);
}

int32_t wire__schema_hash_as(wire_ctx *ctx, const wire_lfield *fields,
                             uint32_t n, int how, uint32_t *out) {
  wire_buf s = {ctx, NULL, 0, 0, false, WIRE_OK};
  int32_t st = fingerprint(ctx, fields, n, &s, how);
  if (st == WIRE_OK) {
    uint64_t h;
    wire_murmur3_x64_128(s.p, s.len, 47, &h, NULL);
    *out = (uint32_t)h;
  }
  wire__free(ctx, s.p, s.cap);
  return st;
}

int32_t wire__schema_fingerprint(wire_ctx *ctx, uint32_t type_index,
                                 char *out, size_t cap, size_t *out_len) {
  wire_registry *r = ctx->reg;
  if (!r || type_index >= r->ntypes || !r->types[type_index].layout)
    return WIRE_E_ARG;
  wire_layout *l = r->types[type_index].layout;
  wire_buf s = {ctx, NULL, 0, 0, false, WIRE_OK};
  int32_t st = fingerprint(ctx, l->fields, l->nfields, &s, 0);
  if (st == WIRE_OK) {
    if (out_len) *out_len = s.len;
    if (s.len + 1 > cap) st = WIRE_E_BUFFER_FULL;
    else memcpy(out, s.p, s.len + 1);
  }
  wire__free(ctx, s.p, s.cap);
  return st;
}

/* ---- snake_case ---- */

/* Field names go on the wire in snake_case: an upper-case letter becomes
 * '_' + lower case, except at the start and after '_' (and runs of capitals
 * stay together as one word). */
size_t wire__snake_case(const char *in, size_t n, char *out) {
  size_t w = 0;
  for (size_t i = 0; i < n; i++) {
    char c = in[i];
    if (c >= 'A' && c <= 'Z' && !WIRE_MUTANT(fname_as_declared)) {
      bool prev_lower = i > 0 && ((in[i - 1] >= 'a' && in[i - 1] <= 'z') ||
                                  (in[i - 1] >= '0' && in[i - 1] <= '9'));
      bool next_lower = i + 1 < n && in[i + 1] >= 'a' && in[i + 1] <= 'z';
      bool prev_upper = i > 0 && in[i - 1] >= 'A' && in[i - 1] <= 'Z';
      if (w > 0 && out[w - 1] != '_' && (prev_lower || (prev_upper && next_lower)))
        out[w++] = '_';
      out[w++] = (char)(c - 'A' + 'a');
    } else {
      out[w++] = c;
    }
  }
  return w;
}

/* ---- layouts from the registry ---- */

/* l->enum_ids (schema.h), when a field declares an enum registered by id. */
static int32_t layout_enum_ids(wire_registry *r, wire_layout *l) {
  uint32_t *ids = NULL;
  for (uint32_t i = 0; i < l->nfields; i++) {
    uint32_t ti = l->fields[i].type->user;
    if (ti >= r->ntypes || r->types[ti].kind != WIRE_KIND_ENUM || r->types[ti].by_name)
      continue;
    if (!ids) {
      ids = wire__arena_alloc(&r->arena, l->nfields * sizeof *ids);
      if (!ids) return WIRE_E_NOMEM;
      for (uint32_t k = 0; k < l->nfields; k++) ids[k] = WIRE_NO_TYPE;
    }
    ids[i] = r->types[ti].user_id;
  }
  l->enum_ids = ids;
  return WIRE_OK;
}

int32_t wire__layout_of(wire_ctx *ctx, uint32_t ti) {
  wire_registry *r = ctx->reg;
  wire_utype *t = &r->types[ti];
  if (t->layout || (t->kind != WIRE_KIND_STRUCT && t->kind != WIRE_KIND_EXT))
    return WIRE_OK;
  wire_layout *l = wire__arena_alloc(&r->arena, sizeof *l);
  if (!l) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  memset(l, 0, sizeof *l);
  l->self = l;
  l->type_index = ti;
  l->by_name = t->by_name;
  l->user_id = t->user_id;
  l->ns = (const uint8_t *)t->ns;
  l->ns_len = (uint32_t)strlen(t->ns);
  l->name = (const uint8_t *)t->name;
  l->name_len = (uint32_t)strlen(t->name);
  l->nfields = t->nfields;
  l->fields = wire__arena_alloc(&r->arena, (t->nfields + 1) * sizeof *l->fields);
  if (!l->fields) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  for (uint32_t i = 0; i < t->nfields; i++) {
    wire_field *f = &t->fields[i];
    size_t n = strlen(f->name);
    char *sn = wire__arena_alloc(&r->arena, 2 * n + 1);
    if (!sn) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    size_t sl = wire__snake_case(f->name, n, sn);
    sn[sl] = 0;
    l->fields[i] = (wire_lfield){(const uint8_t *)sn, (uint32_t)sl, f->tag,
                                 f->type, i};
    l->fields[i].op = wire__field_op(f->type);
  }
  l->kind = t->kind;
  /* An ext body (libwire's description of a custom serializer) keeps the
   * declared order; struct fields take the wire order. */
  if (t->kind == WIRE_KIND_STRUCT) {
    qsort(l->fields, l->nfields, sizeof *l->fields, cmp_order);
    int32_t st = wire__schema_hash(ctx, l->fields, l->nfields, &l->schema_hash);
    if (!st)
      st = wire__schema_hash_as(ctx, l->fields, l->nfields, WIRE_HASH_NO_REF,
                                &l->schema_hash_noref);
    if (!st)
      st = wire__schema_hash_as(ctx, l->fields, l->nfields,
                                WIRE_HASH_GO_NULLABLE, &l->schema_hash_go);
    if (st) return st;
  }
  if (layout_enum_ids(r, l) != WIRE_OK)
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  int32_t st = wire__layout_index(ctx, &r->arena, l);
  if (st) return st;
  t->layout = l;
  return WIRE_OK;
}

/* ---- how fields are written ---- */

uint8_t wire__field_op(const wire_ftype *f) {
  if (f->nullable || f->ref) return WIRE_FOP_SLOT;
  switch (f->type_id) {
  case WIRE_T_VARINT32: return WIRE_FOP_VARINT32;
  case WIRE_T_VARINT64: return WIRE_FOP_VARINT64;
  case WIRE_T_INT32: case WIRE_T_FLOAT32: return WIRE_FOP_FIXED4;
  case WIRE_T_INT64: case WIRE_T_FLOAT64: return WIRE_FOP_FIXED8;
  case WIRE_T_BOOL: return WIRE_FOP_BOOL;
  case WIRE_T_STRING: return WIRE_FOP_STRING;
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: return WIRE_FOP_ENUM;
  case WIRE_T_LIST: case WIRE_T_SET:
    return f->user == WIRE_NO_TYPE ? WIRE_FOP_LIST : WIRE_FOP_SLOT;
  default:
    if (f->type_id >= WIRE_T_STRUCT && f->type_id <= WIRE_T_NAMED_EXT &&
        f->user != WIRE_NO_TYPE)
      return WIRE_FOP_STRUCT;
    return wire__is_array_type(f->type_id) ? WIRE_FOP_BYTES : WIRE_FOP_SLOT;
  }
}

/* ---- field lookup by name ---- */

static uint32_t name_hash(const char *s, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
  return h;
}

/* The first slot to probe for hash h: h scaled to the slot count (any
 * count, not only powers of two, so that the index takes exactly twice
 * its names). */
static uint32_t ix_home(const wire_layout *l, uint32_t h) {
  return (uint32_t)(((uint64_t)h * l->nix) >> 32);
}

static void ix_put(wire_layout *l, const char *name, uint32_t len,
                   uint32_t field) {
  for (uint32_t k = ix_home(l, name_hash(name, len));;
       k = k + 1 == l->nix ? 0 : k + 1) {
    wire_name_slot *e = &l->ix[k];
    if (!e->name) {
      *e = (wire_name_slot){name, len, field};
      return;
    }
    if (e->len == len && memcmp(e->name, name, len) == 0) return; /* first wins */
  }
}

int32_t wire__layout_find(const wire_layout *l, const char *name, size_t len) {
  for (uint32_t k = ix_home(l, name_hash(name, len));;
       k = k + 1 == l->nix ? 0 : k + 1) {
    const wire_name_slot *e = &l->ix[k];
    if (!e->name) return -1;
    if (e->len == len && memcmp(e->name, name, len) == 0)
      return (int32_t)e->field;
  }
}

/* The declared name of field f where it is not f's wire name, or NULL. */
static const char *decl_name(const wire_utype *t, const wire_lfield *f) {
  if (!t || f->local == WIRE_NO_TYPE || f->local >= t->nfields) return NULL;
  const char *decl = t->fields[f->local].name;
  if (f->name && strlen(decl) == f->name_len &&
      memcmp(decl, f->name, f->name_len) == 0)
    return NULL;
  return decl;
}

static const wire_utype *layout_type(wire_ctx *ctx, const wire_layout *l) {
  return l->type_index != WIRE_NO_TYPE && ctx->reg
             ? &ctx->reg->types[l->type_index] : NULL;
}

uint32_t wire__layout_ix_slots(wire_ctx *ctx, const wire_layout *l) {
  const wire_utype *t = layout_type(ctx, l);
  uint64_t names = 0;
  for (uint32_t i = 0; i < l->nfields; i++)
    names += (l->fields[i].name != NULL) + (decl_name(t, &l->fields[i]) != NULL);
  /* at most half full: one probe or two per lookup */
  return names < 2 ? 4 : (uint32_t)(2 * names);
}

void wire__layout_ix_fill(wire_ctx *ctx, wire_layout *l, wire_name_slot *ix,
                          uint32_t n) {
  memset(ix, 0, n * sizeof *ix);
  l->ix = ix;
  l->nix = n;
  const wire_utype *t = layout_type(ctx, l);
  /* Field by field, wire name then declared name; the first field to use
   * a name keeps it (the order a scan of the fields would find them). */
  for (uint32_t i = 0; i < l->nfields; i++) {
    const wire_lfield *f = &l->fields[i];
    if (f->name) ix_put(l, (const char *)f->name, f->name_len, i);
    const char *decl = decl_name(t, f);
    if (decl) ix_put(l, decl, (uint32_t)strlen(decl), i);
  }
}

int32_t wire__layout_index(wire_ctx *ctx, wire_arena *arena, wire_layout *l) {
  uint32_t n = wire__layout_ix_slots(ctx, l);
  wire_name_slot *ix = wire__arena_alloc(arena, n * sizeof *ix);
  if (!ix) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  wire__layout_ix_fill(ctx, l, ix, n);
  return WIRE_OK;
}

/* ---- TypeDef writing ---- */

/* Field type as it appears in a TypeDef: user types by kind. */
static uint8_t td_type_id(wire_ctx *ctx, const wire_ftype *f,
                          bool compatible) {
  if (f->user == WIRE_NO_TYPE) return f->type_id;
  wire_utype *t = &ctx->reg->types[f->user];
  switch (t->kind) {
  case WIRE_KIND_ENUM:
    if (WIRE_MUTANT(tdef_registration_kinds)) return t->by_name ? WIRE_T_NAMED_ENUM : WIRE_T_ENUM;
    return WIRE_T_ENUM;
  case WIRE_KIND_UNION:
    if (WIRE_MUTANT(tdef_registration_kinds))
      return t->by_name ? WIRE_T_NAMED_UNION : WIRE_T_TYPED_UNION;
    return WIRE_T_UNION;
  case WIRE_KIND_EXT:
    if (!WIRE_MUTANT(ext_field_as_struct))
      return t->by_name ? WIRE_T_NAMED_EXT : WIRE_T_EXT;
    return t->by_name ? WIRE_T_NAMED_STRUCT : WIRE_T_STRUCT;
  default:
    if (t->by_name)
      return compatible && t->evolving ? WIRE_T_NAMED_COMPATIBLE_STRUCT
                                       : WIRE_T_NAMED_STRUCT;
    return compatible && t->evolving ? WIRE_T_COMPATIBLE_STRUCT
                                     : WIRE_T_STRUCT;
  }
}

static void td_nested(wire_ctx *ctx, wire_buf *b, const wire_ftype *f) {
  uint8_t t = td_type_id(ctx, f, true);
  wire__put_varu32(b, ((uint32_t)t << 2) | (f->nullable ? 2u : 0u) |
                          (f->ref ? 1u : 0u));
  if ((t == WIRE_T_LIST || t == WIRE_T_SET) && f->elem) td_nested(ctx, b, f->elem);
  if (t == WIRE_T_MAP && f->key && f->value) {
    td_nested(ctx, b, f->key);
    td_nested(ctx, b, f->value);
  }
}

/* Meta string index lists inside TypeDefs. */
static int td_name_index(int msctx, int enc) {
  if (WIRE_MUTANT(tdef_name_encoding_ids)) return enc; /* the meta string ids */
  switch (enc) {
  case WIRE_MS_UTF8: return 0;
  case WIRE_MS_ALL_TO_LOWER_SPECIAL: return 1;
  case WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL: return 2;
  case WIRE_MS_FIRST_TO_LOWER_SPECIAL:
    return msctx == WIRE_MSCTX_TYPE_NAME ? 3 : -1;
  default: return -1;
  }
}

static int32_t td_name(wire_ctx *ctx, wire_buf *b, int msctx,
                       const uint8_t *text, size_t len) {
  int enc = wire_meta_choose_encoding(msctx, text, len);
  int idx = td_name_index(msctx, enc);
  if (idx < 0) return wire__fail(ctx, WIRE_E_META_STRING, 0, "bad name");
  size_t blen;
  uint8_t tmp[512];
  uint8_t *buf = tmp;
  size_t cap = 2 * len + 1;
  if (cap > sizeof tmp && !(buf = wire__alloc(ctx, cap)))
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  if (wire_meta_encode(msctx, enc, text, len, buf, cap, &blen) != WIRE_OK) {
    if (buf != tmp) wire__free(ctx, buf, cap);
    return wire__fail(ctx, WIRE_E_META_STRING, 0, "bad name");
  }
  if (blen >= 63) {
    wire__put_u8(b, (uint8_t)(63 << 2 | idx));
    wire__put_varu32(b, (uint32_t)(blen - 63));
  } else {
    wire__put_u8(b, (uint8_t)(blen << 2 | (size_t)idx));
  }
  wire__put_bytes(b, buf, blen);
  if (buf != tmp) wire__free(ctx, buf, cap);
  return WIRE_OK;
}

/* Prepends the 8-byte header (52-bit hash of body + low 12 header bits,
 * size) and the size extension, and appends the TypeDef to out. */
static int32_t finish_typedef(wire_ctx *ctx, wire_buf *body_buf, wire_buf *out) {
  wire_buf body = *body_buf;
  int32_t st = WIRE_OK;
  if (body.status) {
    st = wire__fail(ctx, body.status, 0, "TypeDef body");
    return st;
  }
  {
    size_t size = body.len;
    uint64_t low12 = size >= 0xFF ? 0xFF : size;
    uint8_t tail[2] = {(uint8_t)(low12 & 0xFF), (uint8_t)((low12 >> 8) & 0x0F)};
    wire__put_bytes(&body, tail, 2);
    uint64_t h;
    wire_murmur3_x64_128(body.p, size + 2, 47, &h, NULL);
    body.len = size;
    h <<= 12;
    if ((int64_t)h < 0 && h != UINT64_C(0x8000000000000000)) h = 0 - h;
    h &= UINT64_C(0xFFFFFFFFFFFFF000);
    wire__put_le(out, h | low12, 8);
    if (size >= 0xFF) wire__put_varu32(out, (uint32_t)(size - 0xFF));
    wire__put_bytes(out, body.p, size);
    if (out->status) st = wire__fail(ctx, out->status, 0, "output");
  }
  *body_buf = body;
  return st;
}


static int32_t build_typedef(wire_ctx *ctx, uint32_t ti, wire_buf *out) {
  int32_t st = wire__layout_of(ctx, ti);
  if (st) return st;
  wire_utype *t = &ctx->reg->types[ti];
  wire_layout *l = t->layout;
  wire_buf body = {ctx, NULL, 0, 0, false, WIRE_OK};
  uint32_t n = l && t->kind == WIRE_KIND_STRUCT ? l->nfields : 0;
  if (t->kind == WIRE_KIND_STRUCT) {
    uint8_t h0 = (uint8_t)(0x80 | (t->evolving ? 0x40 : 0) |
                           (t->by_name ? 0x20 : 0) | (n >= 31 ? 31 : n));
    wire__put_u8(&body, h0);
    if (n >= 31) wire__put_varu32(&body, n - 31);
  } else {
    /* kind codes: 0 ENUM, 1 NAMED_ENUM, 2 EXT, 3 NAMED_EXT, 4 TYPED_UNION,
     * 5 NAMED_UNION */
    uint8_t base = t->kind == WIRE_KIND_ENUM ? 0 : t->kind == WIRE_KIND_EXT ? 2 : 4;
    wire__put_u8(&body, (uint8_t)(base + (t->by_name != WIRE_MUTANT(tdef_kind_parity) ? 1 : 0)));
  }
  if (t->by_name) {
    if ((st = td_name(ctx, &body, WIRE_MSCTX_NAMESPACE, (const uint8_t *)t->ns,
                      strlen(t->ns))) ||
        (st = td_name(ctx, &body, WIRE_MSCTX_TYPE_NAME,
                      (const uint8_t *)t->name, strlen(t->name))))
      goto done;
  } else if (WIRE_MUTANT(tdef_user_id_fixed)) {
    wire__put_le(&body, t->user_id, 4);
  } else {
    wire__put_varu32(&body, t->user_id);
  }
  for (uint32_t i = 0; i < n; i++) {
    const wire_lfield *f = &l->fields[WIRE_MUTANT(tdef_fields_reversed) ? n - 1 - i : i];
    uint32_t size;
    /* (layouts exist for structs only; n is 0 otherwise) */
    int enc_bits;
    uint8_t nb[512];
    size_t nlen = 0;
    if (f->tag >= 0) {
      enc_bits = 3;
      size = (uint32_t)f->tag;
    } else {
      int enc = wire_meta_choose_encoding(WIRE_MSCTX_FIELD_NAME, f->name,
                                          f->name_len);
      enc_bits = td_name_index(WIRE_MSCTX_FIELD_NAME, enc);
      if (enc_bits < 0 ||
          wire_meta_encode(WIRE_MSCTX_FIELD_NAME, enc, f->name, f->name_len,
                           nb, sizeof nb, &nlen) != WIRE_OK || nlen == 0) {
        st = wire__fail(ctx, WIRE_E_META_STRING, 0, "field name %.*s",
                        (int)f->name_len, (const char *)f->name);
        goto done;
      }
      size = (uint32_t)nlen - 1;
    }
    uint8_t fh = (uint8_t)(enc_bits << 6 | (size >= 15 ? 15 : size) << 2 |
                           (f->type->nullable ? 2 : 0) | (f->type->ref ? 1 : 0));
    wire__put_u8(&body, fh);
    if (size >= 15) wire__put_varu32(&body, size - 15);
    uint8_t top = td_type_id(ctx, f->type, true);
    wire__put_u8(&body, top);
    if ((top == WIRE_T_LIST || top == WIRE_T_SET) && f->type->elem)
      td_nested(ctx, &body, f->type->elem);
    if (top == WIRE_T_MAP && f->type->key && f->type->value) {
      td_nested(ctx, &body, f->type->key);
      td_nested(ctx, &body, f->type->value);
    }
    wire__put_bytes(&body, nb, nlen);
  }
  st = finish_typedef(ctx, &body, out);
done:
  wire__free(ctx, body.p, body.cap);
  return st;
}

int32_t wire__typedef_bytes(wire_ctx *ctx, uint32_t ti, const uint8_t **p,
                            uint32_t *len) {
  wire_registry *r = ctx->reg;
  if (!r || ti >= r->ntypes)
    return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not in the schema", ti);
  wire_utype *t = &r->types[ti];
  if (!t->td || t->td_gen != r->gen) {
    wire_buf b = {ctx, NULL, 0, 0, false, WIRE_OK};
    int32_t st = build_typedef(ctx, ti, &b);
    uint8_t *copy = NULL;
    if (st == WIRE_OK && !(copy = wire__arena_alloc(&r->arena, b.len)))
      st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    if (st == WIRE_OK) {
      memcpy(copy, b.p, b.len);
      t->td = copy;
      t->td_len = (uint32_t)b.len;
      t->td_gen = r->gen;
    }
    wire__free(ctx, b.p, b.cap);
    if (st) return st;
  }
  *p = t->td;
  *len = t->td_len;
  return WIRE_OK;
}

int32_t wire__typedef_build(wire_ctx *ctx, uint32_t ti, wire_buf *out) {
  const uint8_t *p = NULL;
  uint32_t len = 0;
  int32_t st = wire__typedef_bytes(ctx, ti, &p, &len);
  if (st) return st;
  wire__put_bytes(out, p, len);
  if (out->status) return wire__fail(ctx, out->status, 0, "output");
  return WIRE_OK;
}

/* ---- TypeDef reading ---- */

typedef struct {
  wire_ctx *ctx;
  wire_in *in;
  wire_arena *arena;
  const uint8_t *end;   /* end of the body */
  uint32_t depth, max_depth;
} tdr;

static int32_t tfail(tdr *r, const uint8_t *at, const char *what) {
  return wire__fail(r->ctx, WIRE_E_TYPEDEF, wire__off(r->in, at), "TypeDef: %s",
                    what);
}

/* Reads inside the body only: a body cut short is a TypeDef error. */
static bool body_u8(tdr *r, uint8_t *v) {
  if (r->in->p >= r->end) return false;
  *v = *r->in->p++;
  return true;
}
static bool body_varu32(tdr *r, uint32_t *v) {
  wire_in sub = *r->in;
  sub.end = r->end;
  if (!wire__get_varu32(&sub, v)) return false;
  r->in->p = sub.p;
  return true;
}

static int32_t read_name(tdr *r, int msctx, const uint8_t **text,
                         uint32_t *tlen) {
  static const int ns_list[3] = {WIRE_MS_UTF8, WIRE_MS_ALL_TO_LOWER_SPECIAL,
                                 WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL};
  static const int tn_list[4] = {WIRE_MS_UTF8, WIRE_MS_ALL_TO_LOWER_SPECIAL,
                                 WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                                 WIRE_MS_FIRST_TO_LOWER_SPECIAL};
  const uint8_t *s = r->in->p;
  uint8_t b;
  if (!body_u8(r, &b)) return tfail(r, s, "name runs past the body");
  uint32_t idx = b & 3, len = b >> 2;
  if (len == 63) {
    uint32_t extra;
    if (!body_varu32(r, &extra) || extra > 32767)
      return tfail(r, s, "bad name length");
    len += extra;
  }
  if (msctx == WIRE_MSCTX_NAMESPACE && idx > 2)
    return tfail(r, s, "namespace encoding index 3");
  int enc = msctx == WIRE_MSCTX_NAMESPACE ? ns_list[idx] : tn_list[idx];
  if ((size_t)(r->end - r->in->p) < len)
    return tfail(r, s, "name runs past the body");
  const uint8_t *bytes = r->in->p;
  r->in->p += len;
  uint8_t *out = wire__arena_alloc(r->arena, 2 * (size_t)len + 1);
  size_t olen;
  if (!out) return wire__fail(r->ctx, WIRE_E_NOMEM, 0, "out of memory");
  if (wire_meta_decode(msctx, enc, bytes, len, out, 2 * (size_t)len + 1,
                       &olen) != WIRE_OK)
    return tfail(r, s, "invalid name");
  *text = out;
  *tlen = (uint32_t)olen;
  return WIRE_OK;
}

static int32_t read_ftype(tdr *r, bool top, wire_ftype **out) {
  const uint8_t *s = r->in->p;
  if (++r->depth > r->max_depth) {
    return wire__fail(r->ctx, WIRE_E_DEPTH, wire__off(r->in, s),
                      "TypeDef field types nested deeper than %u",
                      r->max_depth);
  }
  uint32_t v;
  if (!body_varu32(r, &v)) return tfail(r, s, "field type runs past the body");
  uint32_t id = top ? v : v >> 2;
  if (id > WIRE_T_FLOAT64_ARRAY) return tfail(r, s, "undefined field type id");
  wire_ftype *f = wire__arena_alloc(r->arena, sizeof *f);
  if (!f) return wire__fail(r->ctx, WIRE_E_NOMEM, 0, "out of memory");
  memset(f, 0, sizeof *f);
  f->type_id = (uint8_t)id;
  f->user = WIRE_NO_TYPE;
  if (!top) {
    f->nullable = (v >> 1) & 1;
    f->ref = v & 1;
  }
  int32_t st;
  if (id == WIRE_T_LIST || id == WIRE_T_SET) {
    if ((st = read_ftype(r, false, &f->elem))) return st;
  } else if (id == WIRE_T_MAP) {
    if ((st = read_ftype(r, false, &f->key)) ||
        (st = read_ftype(r, false, &f->value)))
      return st;
  }
  r->depth--;
  *out = f;
  return WIRE_OK;
}

int32_t wire__typedef_read(wire_ctx *ctx, wire_in *in, wire_arena *arena,
                           uint32_t max_depth, wire_layout **out) {
  const uint8_t *start = in->p;
  uint64_t header;
  if (!wire__get_le(in, 8, &header)) return ctx->err_code;
  uint64_t size = header & 0xFF;
  if (header & 0x100)
    return wire__fail(ctx, WIRE_E_UNSUPPORTED, wire__off(in, start),
                      "compressed TypeDef");
  if (header & 0xE00)
    return wire__fail(ctx, WIRE_E_TYPEDEF, wire__off(in, start),
                      "TypeDef header has reserved bits set");
  if (size == 0xFF) {
    uint32_t extra;
    if (!wire__get_varu32(in, &extra)) return ctx->err_code;
    size += extra;
  }
  if (size > ctx->max_typedef_bytes)
    return wire__fail(ctx, WIRE_E_LIMIT, wire__off(in, start),
                      "TypeDef body of %llu bytes exceeds the limit %llu",
                      (unsigned long long)size,
                      (unsigned long long)ctx->max_typedef_bytes);
  const uint8_t *body;
  if (!wire__get_bytes(in, size, &body)) return ctx->err_code;
  /* The 52-bit hash covers the body and the low 12 header bits. */
  {
    uint8_t tmp[4096 + 2];
    uint8_t *buf = size + 2 <= sizeof tmp ? tmp : wire__alloc(ctx, size + 2);
    if (!buf) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    memcpy(buf, body, size);
    buf[size] = (uint8_t)(header & 0xFF);
    buf[size + 1] = (uint8_t)((header >> 8) & 0x0F);
    uint64_t h;
    wire_murmur3_x64_128(buf, size + 2, 47, &h, NULL);
    if (buf != tmp) wire__free(ctx, buf, size + 2);
    h <<= 12;
    if ((int64_t)h < 0 && h != UINT64_C(0x8000000000000000)) h = 0 - h;
    h &= UINT64_C(0xFFFFFFFFFFFFF000);
    if (h != (header & UINT64_C(0xFFFFFFFFFFFFF000)))
      return wire__fail(ctx, WIRE_E_TYPEDEF, wire__off(in, start),
                        "TypeDef hash does not match its body");
  }
  wire_layout *l = wire__arena_alloc(arena, sizeof *l);
  if (!l) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  memset(l, 0, sizeof *l);
  l->self = l;
  l->type_index = WIRE_NO_TYPE;
  l->compatible = true;
  l->td = start;
  l->td_len = (uint32_t)(in->p - start);
  wire_in sub = *in;
  sub.p = body;
  tdr r = {ctx, &sub, arena, body + size, 0, max_depth};
  uint8_t b0;
  if (!body_u8(&r, &b0)) return tfail(&r, body, "empty body");
  uint32_t nfields = 0;
  int32_t st;
  if (b0 & 0x80) {
    l->kind = WIRE_KIND_STRUCT;
    l->compatible = (b0 & 0x40) != 0;
    l->by_name = (b0 & 0x20) != 0;
    nfields = b0 & 0x1F;
    if (nfields == 31) {
      uint32_t extra;
      if (!body_varu32(&r, &extra)) return tfail(&r, body, "field count");
      if (extra > ctx->max_typedef_fields)
        return wire__fail(ctx, WIRE_E_LIMIT, wire__off(in, body),
                          "TypeDef with too many fields");
      nfields += extra;
    }
    if (nfields > ctx->max_typedef_fields)
      return wire__fail(ctx, WIRE_E_LIMIT, wire__off(in, body),
                        "TypeDef with %u fields exceeds the limit", nfields);
  } else {
    if (b0 & 0x70) return tfail(&r, body, "reserved bits in the kind byte");
    static const uint8_t kinds[6] = {WIRE_KIND_ENUM, WIRE_KIND_ENUM,
                                     WIRE_KIND_EXT, WIRE_KIND_EXT,
                                     WIRE_KIND_UNION, WIRE_KIND_UNION};
    uint8_t k = b0 & 0x0F;
    if (k > 5) return tfail(&r, body, "unknown TypeDef kind");
    l->kind = kinds[k];
    l->by_name = k & 1;
  }
  if (l->by_name) {
    if ((st = read_name(&r, WIRE_MSCTX_NAMESPACE, &l->ns, &l->ns_len)) ||
        (st = read_name(&r, WIRE_MSCTX_TYPE_NAME, &l->name, &l->name_len)))
      return st;
  } else if (!body_varu32(&r, &l->user_id) || l->user_id == UINT32_MAX) {
    return tfail(&r, sub.p, "user type id");
  }
  /* Every field takes at least two bytes. */
  if (nfields > (size_t)(r.end - sub.p) / 2)
    return tfail(&r, sub.p, "more fields than the body can hold");
  l->nfields = nfields;
  l->fields = wire__arena_alloc(arena, (nfields + 1) * sizeof *l->fields);
  if (!l->fields) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  static const int fn_list[3] = {WIRE_MS_UTF8, WIRE_MS_ALL_TO_LOWER_SPECIAL,
                                 WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL};
  for (uint32_t i = 0; i < nfields; i++) {
    const uint8_t *fs = sub.p;
    uint8_t fh;
    if (!body_u8(&r, &fh)) return tfail(&r, fs, "field runs past the body");
    uint32_t enc = fh >> 6, size2 = (fh >> 2) & 15;
    if (size2 == 15) {
      uint32_t extra;
      if (!body_varu32(&r, &extra) || extra > (UINT32_C(1) << 29))
        return tfail(&r, fs, "bad field size");
      size2 += extra;
    }
    wire_lfield *f = &l->fields[i];
    memset(f, 0, sizeof *f);
    f->local = WIRE_NO_TYPE;
    if ((st = read_ftype(&r, true, &f->type))) return st;
    f->type->nullable = (fh >> 1) & 1;
    f->type->ref = fh & 1;
    f->op = wire__field_op(f->type);
    f->td_off = (uint32_t)(fs - start);
    if (enc == 3) {
      f->tag = (int32_t)size2;
    } else {
      f->tag = -1;
      uint32_t len = size2 + 1;
      if ((size_t)(r.end - sub.p) < len)
        return tfail(&r, fs, "field name runs past the body");
      uint8_t *name = wire__arena_alloc(arena, 2 * (size_t)len + 1);
      size_t nlen;
      if (!name) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
      if (wire_meta_decode(WIRE_MSCTX_FIELD_NAME, fn_list[enc], sub.p, len,
                           name, 2 * (size_t)len + 1, &nlen) != WIRE_OK)
        return tfail(&r, fs, "invalid field name");
      sub.p += len;
      f->name = name;
      f->name_len = (uint32_t)nlen;
    }
    f->td_len = (uint32_t)(sub.p - fs);
  }
  if (sub.p != r.end) return tfail(&r, sub.p, "bytes left at the end of the body");
  /* l->schema_hash stays 0: bodies read with a TypeDef carry no hash. */
  *out = l;
  return WIRE_OK;
}

/* ---- linking a TypeDef to the schema ---- */

/* Gives the user-typed field types of a TypeDef the registered types of the
 * schema's version of the struct (matched by tag id or name), so enum and
 * union values read through it are named. */
static void link_ftype(wire_ctx *ctx, wire_ftype *td, const wire_ftype *reg) {
  if (!td || !reg) return;
  if (reg->user != WIRE_NO_TYPE) {
    uint8_t k = ctx->reg->types[reg->user].kind;
    uint8_t t = td->type_id;
    bool same = (k == WIRE_KIND_ENUM && (t == WIRE_T_ENUM || t == WIRE_T_NAMED_ENUM)) ||
                (k == WIRE_KIND_UNION && t >= WIRE_T_UNION && t <= WIRE_T_NAMED_UNION) ||
                (k == WIRE_KIND_STRUCT && t >= WIRE_T_STRUCT &&
                 t <= WIRE_T_NAMED_COMPATIBLE_STRUCT) ||
                (k == WIRE_KIND_EXT && (t == WIRE_T_EXT || t == WIRE_T_NAMED_EXT));
    if (same) td->user = reg->user;
    return;
  }
  if (td->type_id != reg->type_id) return;
  link_ftype(ctx, td->elem, reg->elem);
  link_ftype(ctx, td->key, reg->key);
  link_ftype(ctx, td->value, reg->value);
}

void wire__layout_link(wire_ctx *ctx, wire_layout *l) {
  wire_utype *t = &ctx->reg->types[l->type_index];
  if (t->kind != WIRE_KIND_STRUCT || wire__layout_of(ctx, l->type_index)) {
    wire_ctx_clear_error(ctx);
    return;
  }
  const wire_layout *r = t->layout;
  /* the schema fields taken (TypeDefs have at most the field limit) */
  uint8_t taken[(512 + 7) / 8];
  bool track = r->nfields <= 512;
  if (track) memset(taken, 0, sizeof taken);
  for (int pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < l->nfields; i++) {
      wire_lfield *f = &l->fields[i];
      if (pass == 1 && (f->local != WIRE_NO_TYPE || f->tag >= 0 || !track))
        continue;
      char sn[2 * 256];
      size_t sl = 0;
      if (pass == 1) {
        if (f->name_len > 256) continue;
        sl = wire__snake_case((const char *)f->name, f->name_len, sn);
      }
      for (uint32_t k = 0; k < r->nfields; k++) {
        const wire_lfield *g = &r->fields[k];
        /* pass 0: tag to tag, name to an untagged field of that name;
         * pass 1: a named field no field took, to a tagged schema field
         * of its snake_case name (a writer that names the fields a schema
         * numbers: pyfory's dataclasses against an FDL file, R-EVOLVE-2) */
        bool hit = pass == 0
                       ? (f->tag >= 0 ? g->tag == f->tag
                                      : g->tag < 0 && g->name_len == f->name_len &&
                                            wire__eq(g->name, f->name, f->name_len))
                       : g->tag >= 0 && !(taken[k / 8] & (1u << (k % 8))) &&
                             g->name_len == sl && wire__eq(g->name, sn, sl);
        if (!hit) continue;
        if (track) taken[k / 8] |= (uint8_t)(1u << (k % 8));
        f->local = g->local;
        if (!f->name) { /* a tag-id field: the schema's name for the tag */
          f->name = g->name;
          f->name_len = g->name_len;
        }
        link_ftype(ctx, f->type, g->type);
        break;
      }
    }
}


/* ---- readable field types (dump) ---- */

static size_t ftext(const wire_ftype *f, char *b, size_t cap, size_t w) {
  const char *n = wire_type_name(f->type_id);
  if (w < cap) w += (size_t)snprintf(b + w, cap - w, "%s", n ? n : "?");
  if ((f->type_id == WIRE_T_LIST || f->type_id == WIRE_T_SET) && f->elem) {
    if (w < cap) w += (size_t)snprintf(b + w, cap - w, "<");
    w = ftext(f->elem, b, cap, w);
    if (w < cap) w += (size_t)snprintf(b + w, cap - w, ">");
  } else if (f->type_id == WIRE_T_MAP && f->key && f->value) {
    if (w < cap) w += (size_t)snprintf(b + w, cap - w, "<");
    w = ftext(f->key, b, cap, w);
    if (w < cap) w += (size_t)snprintf(b + w, cap - w, ", ");
    w = ftext(f->value, b, cap, w);
    if (w < cap) w += (size_t)snprintf(b + w, cap - w, ">");
  }
  if (f->nullable && w < cap) w += (size_t)snprintf(b + w, cap - w, "?");
  if (f->ref && w < cap) w += (size_t)snprintf(b + w, cap - w, " ref");
  return w;
}

void wire__ftype_text(const wire_ftype *f, char *buf, size_t cap) {
  if (!cap) return;
  buf[0] = 0;
  ftext(f, buf, cap, 0);
}

int32_t wire__typedef_build_named(wire_ctx *ctx, uint8_t kind,
                                  const uint8_t *ns, size_t ns_len,
                                  const uint8_t *name, size_t name_len,
                                  wire_buf *out) {
  if (kind == WIRE_KIND_STRUCT) return WIRE_E_ARG;
  wire_buf body = {ctx, NULL, 0, 0, false, WIRE_OK};
  uint8_t base = kind == WIRE_KIND_ENUM ? 0 : kind == WIRE_KIND_EXT ? 2 : 4;
  wire__put_u8(&body, (uint8_t)(base + 1));
  int32_t st;
  if (!(st = td_name(ctx, &body, WIRE_MSCTX_NAMESPACE, ns, ns_len)) &&
      !(st = td_name(ctx, &body, WIRE_MSCTX_TYPE_NAME, name, name_len)))
    st = finish_typedef(ctx, &body, out);
  wire__free(ctx, body.p, body.cap);
  return st;
}

/* ---- linking TypeDefs, and the per-context cache of incoming ones ---- */

uint32_t wire__reg_lookup(wire_ctx *ctx, uint8_t kind, bool by_name,
                          uint32_t id, const uint8_t *ns, uint32_t ns_len,
                          const uint8_t *name, uint32_t name_len) {
  wire_registry *r = ctx->reg;
  if (!r) return WIRE_NO_TYPE;
  for (uint32_t i = 0; i < r->ntypes; i++) {
    wire_utype *t = &r->types[i];
    if (t->kind != kind || t->by_name != by_name) continue;
    if (!by_name) {
      if (t->user_id == id) return i;
    } else if (strlen(t->ns) == ns_len && strlen(t->name) == name_len &&
               wire__eq(t->ns, ns, ns_len) &&
               wire__eq(t->name, name, name_len)) {
      return i;
    }
  }
  return WIRE_NO_TYPE;
}

int32_t wire__typedef_resolve(wire_ctx *ctx, wire_layout *l) {
  l->type_index = wire__reg_lookup(ctx, l->kind, l->by_name, l->user_id, l->ns,
                                   l->ns_len, l->name, l->name_len);
  l->matches_schema = false;
  if (l->type_index == WIRE_NO_TYPE) return WIRE_OK;
  wire__layout_link(ctx, l);
  const uint8_t *p;
  uint32_t len;
  int32_t st = wire__typedef_bytes(ctx, l->type_index, &p, &len);
  if (st == WIRE_E_NOMEM) return st;
  if (st == WIRE_OK)
    l->matches_schema = len == l->td_len && wire__eq(p, l->td, len);
  else
    wire_ctx_clear_error(ctx); /* a type the schema cannot describe */
  return WIRE_OK;
}

/* ---- ABI: a type's metadata ---- */

static int32_t struct_layout(wire_ctx *ctx, uint32_t type, wire_layout **out) {
  if (!ctx) return WIRE_E_ARG;
  wire_registry *r = ctx->reg;
  if (!r || type >= r->ntypes || (r->types[type].kind != WIRE_KIND_STRUCT &&
                                  r->types[type].kind != WIRE_KIND_EXT))
    return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not a struct of the "
                                          "schema", type);
  int32_t st = wire__layout_of(ctx, type);
  if (st) return st;
  *out = r->types[type].layout;
  return WIRE_OK;
}

int32_t wire_schema_typedef(wire_ctx *ctx, uint32_t type, const uint8_t **out,
                            size_t *out_len) {
  if (!ctx || !out || !out_len) return WIRE_E_ARG;
  const uint8_t *p = NULL;
  uint32_t len = 0;
  int32_t st = wire__typedef_bytes(ctx, type, &p, &len);
  if (st) return st;
  *out = p;
  *out_len = len;
  return WIRE_OK;
}

int32_t wire_schema_hash(wire_ctx *ctx, uint32_t type, uint32_t *out_hash) {
  wire_layout *l = NULL;
  if (!out_hash) return WIRE_E_ARG;
  int32_t st = struct_layout(ctx, type, &l);
  if (st) return st;
  *out_hash = l->schema_hash;
  return WIRE_OK;
}

int32_t wire_schema_field_order(wire_ctx *ctx, uint32_t type,
                                uint32_t *out_decl, size_t cap,
                                size_t *out_count) {
  wire_layout *l = NULL;
  if (!out_count || (cap && !out_decl)) return WIRE_E_ARG;
  int32_t st = struct_layout(ctx, type, &l);
  if (st) return st;
  *out_count = l->nfields;
  for (uint32_t i = 0; i < l->nfields && i < cap; i++)
    out_decl[i] = l->fields[i].local;
  return cap < l->nfields ? WIRE_E_BUFFER_FULL : WIRE_OK;
}

int32_t wire_schema_field_index(wire_ctx *ctx, uint32_t type, const char *name,
                                size_t len, uint32_t *out_index) {
  wire_layout *l = NULL;
  if (!out_index || (!name && len)) return WIRE_E_ARG;
  int32_t st = struct_layout(ctx, type, &l);
  if (st) return st;
  int32_t i = wire__field_index(ctx, l, name ? name : "", len);
  if (i < 0)
    return wire__fail(ctx, WIRE_E_SCHEMA, 0, "%s has no field %.*s",
                      ctx->reg->types[type].full_name,
                      (int)(len > 64 ? 64 : len), name ? name : "");
  *out_index = (uint32_t)i;
  return WIRE_OK;
}
