/* registry.c - user types registered on a context: structs, enums, unions
 * and ext types, their fields and field types. */
#include "schema.h"

wire_registry *wire__reg(wire_ctx *ctx) {
  if (ctx->reg) return ctx->reg;
  wire_registry *r = wire__alloc(ctx, sizeof *r);
  if (!r) return NULL;
  memset(r, 0, sizeof *r);
  r->arena.ctx = ctx;
  r->gen = 1;
  ctx->reg = r;
  return r;
}

void wire__reg_free(wire_ctx *ctx) {
  wire_registry *r = ctx->reg;
  if (!r) return;
  wire__arena_free(&r->arena);
  if (r->types) wire__free(ctx, r->types, r->cap * sizeof *r->types);
  wire__free(ctx, r, sizeof *r);
  ctx->reg = NULL;
}

static char *dupn(wire_registry *r, const char *s, size_t n) {
  char *p = wire__arena_alloc(&r->arena, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = 0;
  return p;
}

/* Grows an arena-held array (the growth rule of arena.c). */
static void *grow(wire_registry *r, void *old, uint32_t n, uint32_t *cap,
                  size_t elem) {
  return wire__arena_grow(&r->arena, old, cap, n, elem, 4);
}

static int32_t nomem(wire_ctx *ctx) {
  return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
}

int32_t wire__reg_add_type(wire_ctx *ctx, uint8_t kind, bool by_name,
                           uint32_t user_id, const char *ns, size_t ns_len,
                           const char *name, size_t name_len,
                           uint32_t *out) {
  wire_registry *r = wire__reg(ctx);
  if (!r) return nomem(ctx);
  if (kind < WIRE_KIND_STRUCT || kind > WIRE_KIND_EXT || !name || !name_len)
    return wire__fail(ctx, WIRE_E_ARG, 0, "a type needs a kind and a name");
  if (!by_name && user_id == UINT32_MAX)
    return wire__fail(ctx, WIRE_E_ARG, 0, "user type id 0xffffffff is "
                                          "reserved");
  for (uint32_t i = 0; i < r->ntypes; i++) {
    wire_utype *t = &r->types[i];
    if (!by_name && !t->by_name && t->user_id == user_id)
      return wire__fail(ctx, WIRE_E_ARG, 0, "type id %u registered twice "
                                            "(%s)", user_id, t->full_name);
    if (strlen(t->name) == name_len && wire__eq(t->name, name, name_len) &&
        strlen(t->ns) == ns_len && (!ns_len || wire__eq(t->ns, ns, ns_len)))
      return wire__fail(ctx, WIRE_E_ARG, 0, "type %s registered twice",
                        t->full_name);
  }
  if (r->ntypes == r->cap) {
    size_t cap = r->cap;
    wire_utype *p = wire__grow(ctx, r->types, &cap, r->ntypes, sizeof *p, 16);
    if (!p) return nomem(ctx);
    r->types = p;
    r->cap = (uint32_t)cap;
  }
  wire_utype *t = &r->types[r->ntypes];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->by_name = by_name;
  t->evolving = true;
  t->user_id = by_name ? UINT32_MAX : user_id;
  t->ns = dupn(r, ns ? ns : "", ns ? ns_len : 0);
  t->name = dupn(r, name, name_len);
  t->full_name = wire__arena_alloc(&r->arena, ns_len + name_len + 2);
  if (!t->ns || !t->name || !t->full_name) return nomem(ctx);
  if (ns_len) {
    memcpy(t->full_name, ns, ns_len);
    t->full_name[ns_len] = '.';
    memcpy(t->full_name + ns_len + 1, name, name_len);
    t->full_name[ns_len + 1 + name_len] = 0;
  } else {
    memcpy(t->full_name, name, name_len + 1);
    t->full_name[name_len] = 0;
  }
  if (out) *out = r->ntypes;
  r->ntypes++;
  r->gen++;
  return WIRE_OK;
}

wire_ftype *wire__ftype_new(wire_ctx *ctx, uint8_t type_id) {
  wire_registry *r = wire__reg(ctx);
  if (!r) return NULL;
  wire_ftype *f = wire__arena_alloc(&r->arena, sizeof *f);
  if (!f) return NULL;
  memset(f, 0, sizeof *f);
  f->type_id = type_id;
  f->user = WIRE_NO_TYPE;
  return f;
}

static wire_utype *type_at(wire_ctx *ctx, uint32_t i, uint8_t kind) {
  wire_registry *r = ctx->reg;
  /* Ext types may describe their custom body as fields. */
  bool ok = r && i < r->ntypes &&
            (r->types[i].kind == kind ||
             (kind == WIRE_KIND_STRUCT && r->types[i].kind == WIRE_KIND_EXT));
  if (!ok) {
    wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not a registered %s", i,
               kind == WIRE_KIND_STRUCT ? "struct"
               : kind == WIRE_KIND_ENUM ? "enum" : "union");
    return NULL;
  }
  if (r->types[i].layout) {
    wire__fail(ctx, WIRE_E_STATE, 0, "type %s is already in use",
               r->types[i].full_name);
    return NULL;
  }
  return &r->types[i];
}

int32_t wire__reg_add_field(wire_ctx *ctx, uint32_t ti, const char *name,
                            size_t name_len, int32_t tag, wire_ftype *type) {
  wire_utype *t = type_at(ctx, ti, WIRE_KIND_STRUCT);
  if (!t) return ctx->err_code;
  if (!type || !name || !name_len)
    return wire__fail(ctx, WIRE_E_ARG, 0, "a field needs a name and a type");
  for (uint32_t i = 0; i < t->nfields; i++) {
    if (strlen(t->fields[i].name) == name_len &&
        wire__eq(t->fields[i].name, name, name_len))
      return wire__fail(ctx, WIRE_E_ARG, 0, "field %.*s declared twice in %s",
                        (int)name_len, name, t->full_name);
    if (tag >= 0 && t->fields[i].tag == tag)
      return wire__fail(ctx, WIRE_E_ARG, 0, "field id %d used twice in %s",
                        tag, t->full_name);
  }
  wire_registry *r = ctx->reg;
  wire_field *f = grow(r, t->fields, t->nfields, &t->fields_cap, sizeof *f);
  if (!f) return nomem(ctx);
  t->fields = f;
  f = &t->fields[t->nfields];
  f->name = dupn(r, name, name_len);
  if (!f->name) return nomem(ctx);
  f->tag = tag;
  f->type = type;
  t->nfields++;
  r->gen++;
  return WIRE_OK;
}

int32_t wire__reg_add_enum_value(wire_ctx *ctx, uint32_t ti, const char *name,
                                 size_t name_len, uint32_t value) {
  wire_utype *t = type_at(ctx, ti, WIRE_KIND_ENUM);
  if (!t) return ctx->err_code;
  for (uint32_t i = 0; i < t->nvalues; i++)
    if (t->values[i].value == value)
      return wire__fail(ctx, WIRE_E_ARG, 0, "enum value %u used twice in %s",
                        value, t->full_name);
  wire_registry *r = ctx->reg;
  wire_enum_value *v = grow(r, t->values, t->nvalues, &t->values_cap,
                            sizeof *v);
  if (!v) return nomem(ctx);
  t->values = v;
  v = &t->values[t->nvalues];
  v->name = dupn(r, name ? name : "", name ? name_len : 0);
  if (!v->name) return nomem(ctx);
  v->value = value;
  t->nvalues++;
  r->gen++;
  return WIRE_OK;
}

int32_t wire__reg_add_union_case(wire_ctx *ctx, uint32_t ti, uint32_t case_id,
                                 const char *name, size_t name_len,
                                 wire_ftype *type) {
  wire_utype *t = type_at(ctx, ti, WIRE_KIND_UNION);
  if (!t) return ctx->err_code;
  if (!type) return wire__fail(ctx, WIRE_E_ARG, 0, "a case needs a type");
  for (uint32_t i = 0; i < t->ncases; i++)
    if (t->cases[i].case_id == case_id)
      return wire__fail(ctx, WIRE_E_ARG, 0, "union case %u used twice in %s",
                        case_id, t->full_name);
  wire_registry *r = ctx->reg;
  wire_union_case *c = grow(r, t->cases, t->ncases, &t->cases_cap,
                            sizeof *c);
  if (!c) return nomem(ctx);
  t->cases = c;
  c = &t->cases[t->ncases];
  c->case_id = case_id;
  c->name = dupn(r, name ? name : "", name ? name_len : 0);
  if (!c->name) return nomem(ctx);
  c->type = type;
  t->ncases++;
  r->gen++;
  return WIRE_OK;
}

int32_t wire__reg_find(wire_ctx *ctx, const char *name, size_t len,
                       uint32_t *out) {
  wire_registry *r = ctx->reg;
  if (!r) return WIRE_E_ARG;
  uint32_t found = WIRE_NO_TYPE, nfound = 0;
  for (uint32_t i = 0; i < r->ntypes; i++) {
    wire_utype *t = &r->types[i];
    if (strlen(t->full_name) == len && wire__eq(t->full_name, name, len)) {
      *out = i;
      return WIRE_OK;
    }
    if (strlen(t->name) == len && wire__eq(t->name, name, len)) {
      found = i;
      nfound++;
    }
  }
  if (nfound == 1) {
    *out = found;
    return WIRE_OK;
  }
  return WIRE_E_ARG;
}

static int32_t resolve(wire_ctx *ctx, wire_ftype *f) {
  if (!f) return WIRE_OK;
  if (f->unresolved) {
    uint32_t i;
    if (wire__reg_find(ctx, f->unresolved, strlen(f->unresolved), &i))
      return wire__fail(ctx, WIRE_E_ARG, 0, "unknown type %s", f->unresolved);
    f->user = i;
    f->unresolved = NULL;
    switch (ctx->reg->types[i].kind) {
    case WIRE_KIND_STRUCT: f->type_id = WIRE_T_STRUCT; break;
    case WIRE_KIND_ENUM: f->type_id = WIRE_T_ENUM; break;
    case WIRE_KIND_UNION: f->type_id = WIRE_T_UNION; break;
    default: f->type_id = WIRE_T_EXT; break;
    }
  }
  int32_t st;
  if ((st = resolve(ctx, f->elem)) || (st = resolve(ctx, f->key)) ||
      (st = resolve(ctx, f->value)))
    return st;
  return WIRE_OK;
}

int32_t wire__reg_finish(wire_ctx *ctx) {
  wire_registry *r = ctx->reg;
  if (!r) return WIRE_OK;
  r->gen++;
  for (uint32_t i = 0; i < r->ntypes; i++) {
    wire_utype *t = &r->types[i];
    int32_t st;
    for (uint32_t k = 0; k < t->nfields; k++)
      if ((st = resolve(ctx, t->fields[k].type))) return st;
    for (uint32_t k = 0; k < t->ncases; k++)
      if ((st = resolve(ctx, t->cases[k].type))) return st;
  }
  return WIRE_OK;
}

/* ---- ABI ---- */

int32_t wire_schema_add_type(wire_ctx *ctx, int32_t kind, uint32_t user_id,
                           const char *ns, size_t ns_len, const char *name,
                           size_t name_len, int32_t evolving,
                           uint32_t *out_type) {
  if (!ctx) return WIRE_E_ARG;
  bool by_name = user_id == WIRE_BY_NAME;
  uint32_t ti;
  int32_t st = wire__reg_add_type(ctx, (uint8_t)kind, by_name, user_id, ns,
                                  ns_len, name, name_len, &ti);
  if (st) return st;
  ctx->reg->types[ti].evolving = evolving != 0;
  if (out_type) *out_type = ti;
  return WIRE_OK;
}

wire_field_type *wire_schema_field_type(wire_ctx *ctx, uint32_t type_id,
                                     int32_t nullable, int32_t ref) {
  if (!ctx || type_id > WIRE_T_FLOAT64_ARRAY) return NULL;
  wire_ftype *f = wire__ftype_new(ctx, (uint8_t)type_id);
  if (!f) return NULL;
  f->nullable = nullable != 0;
  f->ref = ref != 0;
  return (wire_field_type *)f;
}

wire_field_type *wire_schema_field_user_type(wire_ctx *ctx, uint32_t type,
                                      int32_t nullable, int32_t ref) {
  if (!ctx || !ctx->reg || type >= ctx->reg->ntypes) return NULL;
  static const uint8_t ids[5] = {0, WIRE_T_STRUCT, WIRE_T_ENUM, WIRE_T_UNION,
                                 WIRE_T_EXT};
  wire_ftype *f = wire__ftype_new(ctx, ids[ctx->reg->types[type].kind]);
  if (!f) return NULL;
  f->user = type;
  f->nullable = nullable != 0;
  f->ref = ref != 0;
  return (wire_field_type *)f;
}

int32_t wire_schema_field_type_set_element(wire_field_type *ft,
                                    wire_field_type *elem) {
  wire_ftype *f = (wire_ftype *)ft;
  if (!f || !elem) return WIRE_E_ARG;
  if (f->type_id != WIRE_T_LIST && f->type_id != WIRE_T_SET) return WIRE_E_ARG;
  f->elem = (wire_ftype *)elem;
  return WIRE_OK;
}

int32_t wire_schema_field_type_set_key_value(wire_field_type *ft,
                                      wire_field_type *key,
                                      wire_field_type *value) {
  wire_ftype *f = (wire_ftype *)ft;
  if (!f || !key || !value || f->type_id != WIRE_T_MAP) return WIRE_E_ARG;
  f->key = (wire_ftype *)key;
  f->value = (wire_ftype *)value;
  return WIRE_OK;
}

int32_t wire_schema_add_field(wire_ctx *ctx, uint32_t type, const char *name,
                              size_t name_len, int32_t tag,
                              wire_field_type *ft) {
  if (!ctx) return WIRE_E_ARG;
  return wire__reg_add_field(ctx, type, name, name_len, tag < 0 ? -1 : tag,
                             (wire_ftype *)ft);
}

int32_t wire_schema_add_enum_value(wire_ctx *ctx, uint32_t type, const char *name,
                            size_t name_len, uint32_t value) {
  if (!ctx) return WIRE_E_ARG;
  return wire__reg_add_enum_value(ctx, type, name, name_len, value);
}

int32_t wire_schema_add_union_case(wire_ctx *ctx, uint32_t type, uint32_t case_id,
                            const char *name, size_t name_len,
                            wire_field_type *ft) {
  if (!ctx) return WIRE_E_ARG;
  return wire__reg_add_union_case(ctx, type, case_id, name, name_len,
                                  (wire_ftype *)ft);
}

uint32_t wire_schema_type_count(const wire_ctx *ctx) {
  return ctx && ctx->reg ? ctx->reg->ntypes : 0;
}

int32_t wire_schema_find_type(wire_ctx *ctx, const char *name, size_t len,
                       uint32_t *out_type) {
  if (!ctx || !name || !out_type) return WIRE_E_ARG;
  if (wire__reg_find(ctx, name, len, out_type) != WIRE_OK)
    return wire__fail(ctx, WIRE_E_SCHEMA, 0, "no type %.*s in the schema",
                      (int)len, name);
  return WIRE_OK;
}

const char *wire_schema_type_name(const wire_ctx *ctx, uint32_t type) {
  if (!ctx || !ctx->reg || type >= ctx->reg->ntypes) return NULL;
  return ctx->reg->types[type].full_name;
}

int32_t wire_schema_type_kind(const wire_ctx *ctx, uint32_t type) {
  if (!ctx || !ctx->reg || type >= ctx->reg->ntypes) return -1;
  return ctx->reg->types[type].kind;
}

uint32_t wire_schema_field_count(wire_ctx *ctx, uint32_t type) {
  int32_t kind = wire_schema_type_kind(ctx, type);
  if (kind != WIRE_KIND_STRUCT && kind != WIRE_KIND_EXT) return 0;
  if (wire__layout_of(ctx, type)) return 0;
  return ctx->reg->types[type].layout->nfields;
}

int32_t wire_schema_field(wire_ctx *ctx, uint32_t type, uint32_t index,
                          const char **out_name, size_t *out_name_len,
                          int32_t *out_tag, const wire_field_type **out_ft) {
  if (!ctx) return WIRE_E_ARG;
  if (index >= wire_schema_field_count(ctx, type))
    return wire__fail(ctx, WIRE_E_ARG, 0, "no field %u in type %u", index,
                      type);
  const wire_lfield *f = &ctx->reg->types[type].layout->fields[index];
  if (out_name) *out_name = (const char *)f->name;
  if (out_name_len) *out_name_len = f->name ? f->name_len : 0;
  if (out_tag) *out_tag = f->tag;
  if (out_ft) *out_ft = (const wire_field_type *)f->type;
  return WIRE_OK;
}

int32_t wire_schema_field_type_info(const wire_field_type *ft,
                                    uint32_t *out_type_id,
                                    int32_t *out_nullable, int32_t *out_ref,
                                    uint32_t *out_user,
                                    const wire_field_type **out_elem,
                                    const wire_field_type **out_key,
                                    const wire_field_type **out_value) {
  const wire_ftype *f = (const wire_ftype *)ft;
  if (!f) return WIRE_E_ARG;
  if (out_type_id) *out_type_id = f->type_id;
  if (out_nullable) *out_nullable = f->nullable;
  if (out_ref) *out_ref = f->ref;
  if (out_user) *out_user = f->user == WIRE_NO_TYPE ? WIRE_BY_NAME : f->user;
  if (out_elem) *out_elem = (const wire_field_type *)f->elem;
  if (out_key) *out_key = (const wire_field_type *)f->key;
  if (out_value) *out_value = (const wire_field_type *)f->value;
  return WIRE_OK;
}

int32_t wire_schema_enum_values(wire_ctx *ctx, uint32_t type,
                                uint32_t *out_values, size_t cap,
                                size_t *out_count) {
  if (!ctx || !out_count || (cap && !out_values)) return WIRE_E_ARG;
  if (wire_schema_type_kind(ctx, type) != WIRE_KIND_ENUM)
    return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not an enum", type);
  const wire_utype *t = &ctx->reg->types[type];
  *out_count = t->nvalues;
  for (uint32_t i = 0; i < t->nvalues && i < cap; i++)
    out_values[i] = t->values[i].value;
  return cap < t->nvalues ? WIRE_E_BUFFER_FULL : WIRE_OK;
}

int32_t wire_schema_enum_value_name(wire_ctx *ctx, uint32_t type,
                                    size_t index, const uint8_t **out_name,
                                    size_t *out_len) {
  if (!ctx || !out_name || !out_len) return WIRE_E_ARG;
  if (wire_schema_type_kind(ctx, type) != WIRE_KIND_ENUM)
    return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not an enum", type);
  const wire_utype *t = &ctx->reg->types[type];
  if (index >= t->nvalues)
    return wire__fail(ctx, WIRE_E_ARG, 0, "enum %s has %u values, no %zu",
                      t->full_name, t->nvalues, index);
  *out_name = (const uint8_t *)t->values[index].name;
  *out_len = strlen(t->values[index].name);
  return WIRE_OK;
}

int32_t wire_schema_finish(wire_ctx *ctx) {
  if (!ctx) return WIRE_E_ARG;
  return wire__reg_finish(ctx);
}
