/* project.c - reading a struct across schema versions: a struct read with
 * the writer's layout (its TypeDef) is projected onto the reader's
 * registered type - fields matched by tag id or name, unknown ones dropped,
 * missing ones defaulted, values converted where the format allows. */
#include <stdio.h>

#include "schema.h"

/* The reader's field being projected, innermost first: the path an error
 * names ("media.width") is written only when there is an error. */
typedef struct pframe {
  const struct pframe *up;
  const wire_lfield *f;
} pframe;

typedef struct {
  wire_doc *doc;
  uint32_t depth;
  const pframe *top;
} proj;

/* The dotted path of p's open fields into buf (the innermost 32 levels). */
static const char *path_of(const proj *p, char *buf, size_t cap) {
  const wire_lfield *f[32];
  size_t n = 0, len = 0;
  for (const pframe *q = p->top; q && n < 32; q = q->up) f[n++] = q->f;
  buf[0] = 0;
  while (n-- > 0) {
    int w = snprintf(buf + len, cap - len, "%s%.*s", len ? "." : "",
                     (int)f[n]->name_len, (const char *)f[n]->name);
    if (w < 0 || (size_t)w >= cap - len) break;
    len += (size_t)w;
  }
  return buf;
}

static int32_t pfail(proj *p, const char *fmt, const char *a, const char *b) {
  char path[256];
  return wire__fail(p->doc->ctx, WIRE_E_SCHEMA, 0, fmt,
                    path_of(p, path, sizeof path), a, b);
}

/* Integer families: any signed encoding reads as another signed encoding
 * (and unsigned likewise) when the value fits. */
static bool same_family(uint8_t a, uint8_t b) {
  if (wire__array_elem_type(b) != 0) return false;
  return (wire__is_int_type(a) && wire__is_int_type(b)) ||
         (wire__is_uint_type(a) && wire__is_uint_type(b));
}

static int32_t convert(proj *p, wire_node *v, const wire_ftype *f,
                       wire_node **out);

static int32_t default_of(proj *p, const wire_ftype *f, wire_node **out) {
  wire_doc *d = p->doc;
  uint8_t t = f->type_id;
  if (f->nullable || t == WIRE_T_UNKNOWN) *out = wire_node_new_null(d);
  else if (t == WIRE_T_BOOL) *out = wire_node_new_bool(d, 0);
  else if (wire__is_int_type(t)) *out = wire_node_new_int(d, t, 0);
  else if (wire__is_uint_type(t)) *out = wire_node_new_uint(d, t, 0);
  else if (t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64) *out = wire_node_new_float_bits(d, t, 0);
  else if (t == WIRE_T_STRING) *out = wire_node_new_string(d, (const uint8_t *)"", 0, -1);
  else if (t == WIRE_T_BINARY || wire__array_elem_type(t)) *out = wire_node_new_array(d, t, NULL, 0);
  else if (t == WIRE_T_LIST || t == WIRE_T_SET) *out = wire_node_new_list(d, t);
  else if (t == WIRE_T_MAP) *out = wire_node_new_map(d);
  else if (t == WIRE_T_DATE) *out = wire_node_new_date(d, 0);
  else if (t == WIRE_T_TIMESTAMP) *out = wire_node_new_timestamp(d, 0, 0);
  else if (t == WIRE_T_DURATION) *out = wire_node_new_duration(d, 0, 0);
  else if (t == WIRE_T_DECIMAL) *out = wire_node_new_decimal(d, 0, NULL, 0, 0);
  else if (f->user != WIRE_NO_TYPE &&
           d->ctx->reg->types[f->user].kind == WIRE_KIND_ENUM) {
    /* the first enumerator, as the runtimes default an enum */
    wire_utype *e = &d->ctx->reg->types[f->user];
    *out = wire_node_new_enum_of(d, f->user, e->nvalues ? e->values[0].value : 0);
  } else if (f->user != WIRE_NO_TYPE &&
             d->ctx->reg->types[f->user].kind == WIRE_KIND_STRUCT) {
    if (++p->depth > d->ctx->max_depth)
      return wire__fail(d->ctx, WIRE_E_DEPTH, 0, "defaults nested too deep");
    wire_node *s = wire_node_new_struct(d, f->user);
    if (!s) return d->ctx->err_code;
    const wire_layout *l = wire__st_layout(s);
    for (uint32_t i = 0; i < l->nfields; i++) {
      int32_t st = default_of(p, l->fields[i].type, &s->v.st->fields[i]);
      if (st) return st;
    }
    p->depth--;
    *out = s;
  } else {
    return pfail(p, "%s: no default for a missing %s field%s", wire_type_name(t), "");
  }
  return *out ? WIRE_OK : d->ctx->err_code;
}

static int32_t list_to_array(proj *p, wire_node *v, uint8_t at, wire_node **out) {
  uint8_t et = wire__array_elem_type(at);
  uint32_t w = wire_type_array_width(at);
  size_t n = v->small;
  if ((uint64_t)n * w > UINT32_MAX)
    return pfail(p, "%s: a list too long for %s%s", wire_type_name(at), "");
  uint8_t *buf = wire__arena_alloc(&p->doc->arena, n * w + 1);
  if (!buf) return wire__fail(p->doc->ctx, WIRE_E_NOMEM, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    wire_node *e = v->v.list->items[i];
    if (e->type == WIRE_T_NULL)
      return pfail(p, "%s: a list with a null element cannot be read as %s%s",
                   wire_type_name(at), "");
    uint64_t u;
    if (e->type == et) u = e->v.u;
    else if (same_family(e->type, et) || (wire__is_int_type(e->type) && wire__is_int_type(et)))
      u = e->v.u; /* range checked below */
    else
      return pfail(p, "%s: a list of %s cannot be read as %s",
                   wire_type_name(e->type), wire_type_name(at));
    if (wire__is_int_type(et) && w < 8) {
      int64_t x = e->v.i, lim = INT64_C(1) << (8 * w - 1);
      if (x < -lim || x >= lim)
        return pfail(p, "%s: element out of range for %s%s", wire_type_name(at), "");
    } else if (wire__is_uint_type(et) && w < 8 && e->v.u >> (8 * w)) {
      return pfail(p, "%s: element out of range for %s%s", wire_type_name(at), "");
    }
    for (uint32_t k = 0; k < w; k++) buf[i * w + k] = (uint8_t)(u >> (8 * k));
  }
  wire_node *a = wire__node_new(p->doc, at);
  if (!a) return p->doc->ctx->err_code;
  a->v.p = buf;
  a->small = (uint32_t)(n * w);
  *out = a;
  return WIRE_OK;
}

static int32_t array_to_list(proj *p, wire_node *v, const wire_ftype *f,
                             wire_node **out) {
  uint8_t et = f->elem ? f->elem->type_id : wire__array_elem_type(v->type);
  uint8_t src = v->type == WIRE_T_BINARY ? WIRE_T_UINT8 : wire__array_elem_type(v->type);
  uint32_t w = v->type == WIRE_T_BINARY ? 1 : wire_type_array_width(v->type);
  if (!(et == src || same_family(src, et)))
    return pfail(p, "%s: %s cannot be read as a list of %s", wire_type_name(v->type),
                 wire_type_name(et));
  wire_node *l = wire_node_new_list(p->doc, f->type_id);
  if (!l) return p->doc->ctx->err_code;
  for (uint64_t i = 0; i < v->small / w; i++) {
    uint64_t u = 0;
    for (uint32_t k = 0; k < w; k++) u |= (uint64_t)v->v.p[i * w + k] << (8 * k);
    wire_node *e;
    if (wire__is_int_type(et)) {
      int64_t x = w == 1 ? (int8_t)u : w == 2 ? (int16_t)u : w == 4 ? (int32_t)u : (int64_t)u;
      e = wire_node_new_int(p->doc, et, x);
    } else if (wire__is_uint_type(et)) {
      e = wire_node_new_uint(p->doc, et, u);
    } else if (et == WIRE_T_BOOL) {
      e = wire_node_new_bool(p->doc, (int32_t)u);
    } else {
      e = wire_node_new_float_bits(p->doc, et, u);
    }
    if (!e || wire__list_push(p->doc, l, e)) return p->doc->ctx->err_code;
  }
  *out = l;
  return WIRE_OK;
}

static int32_t project_struct(proj *p, wire_node *v, uint32_t type,
                              wire_node **out);

/* A value read with the writer's type, as the reader's field type f. */
static int32_t convert(proj *p, wire_node *v, const wire_ftype *f,
                       wire_node **out) {
  uint8_t t = f->type_id, s = v->type;
  if (s == WIRE_T_NULL) {
    if (f->nullable || t == WIRE_T_UNKNOWN) {
      *out = v;
      return WIRE_OK;
    }
    return pfail(p, "%s: null where %s%s is not nullable", wire_type_name(t), "");
  }
  if (t == WIRE_T_UNKNOWN) { *out = v; return WIRE_OK; }
  if (f->user != WIRE_NO_TYPE) {
    uint8_t k = p->doc->ctx->reg->types[f->user].kind;
    if (k == WIRE_KIND_STRUCT && s >= WIRE_T_STRUCT && s <= WIRE_T_NAMED_COMPATIBLE_STRUCT)
      return project_struct(p, v, f->user, out);
    if (k == WIRE_KIND_ENUM && (s == WIRE_T_ENUM || s == WIRE_T_NAMED_ENUM)) {
      *out = wire_node_new_enum_of(p->doc, f->user, v->small);
      return *out ? WIRE_OK : p->doc->ctx->err_code;
    }
    if ((k == WIRE_KIND_UNION && s >= WIRE_T_UNION && s <= WIRE_T_NAMED_UNION) ||
        (k == WIRE_KIND_EXT && (s == WIRE_T_EXT || s == WIRE_T_NAMED_EXT))) {
      *out = v;
      return WIRE_OK;
    }
    return pfail(p, "%s: a %s cannot be read as %s", wire_type_name(s),
                 p->doc->ctx->reg->types[f->user].full_name);
  }
  if (s == t) {
    if ((t == WIRE_T_LIST || t == WIRE_T_SET) && f->elem) {
      wire_node *l = wire_node_new_list(p->doc, t);
      if (!l) return p->doc->ctx->err_code;
      for (uint32_t i = 0; i < v->small; i++) {
        wire_node *e;
        int32_t st = convert(p, v->v.list->items[i], f->elem, &e);
        if (st) return st;
        if (wire__list_push(p->doc, l, e)) return p->doc->ctx->err_code;
      }
      *out = l;
      return WIRE_OK;
    }
    if (t == WIRE_T_MAP && f->key && f->value) {
      wire_node *m = wire_node_new_map(p->doc);
      if (!m) return p->doc->ctx->err_code;
      for (uint32_t i = 0; i < v->small; i++) {
        wire_node *k, *x;
        int32_t st = convert(p, v->v.map->kv[2 * i], f->key, &k);
        if (!st) st = convert(p, v->v.map->kv[2 * i + 1], f->value, &x);
        if (st) return st;
        if (wire__map_push(p->doc, m, k, x)) return p->doc->ctx->err_code;
      }
      *out = m;
      return WIRE_OK;
    }
    *out = v;
    return WIRE_OK;
  }
  /* list <-> dense array, binary <-> uint8 array */
  if ((s == WIRE_T_LIST || s == WIRE_T_SET) && wire__array_elem_type(t))
    return list_to_array(p, v, t, out);
  if ((t == WIRE_T_LIST || t == WIRE_T_SET) && (wire__array_elem_type(s) || s == WIRE_T_BINARY))
    return array_to_list(p, v, f, out);
  if ((s == WIRE_T_BINARY && t == WIRE_T_UINT8_ARRAY) ||
      (s == WIRE_T_UINT8_ARRAY && t == WIRE_T_BINARY) ||
      (s == WIRE_T_INT8_ARRAY && t == WIRE_T_BINARY)) {
    *out = wire_node_new_array(p->doc, t, v->v.p, (size_t)v->small);
    return *out ? WIRE_OK : p->doc->ctx->err_code;
  }
  /* scalar conversions that keep the value exactly */
  if (wire__is_int_type(s) && wire__is_int_type(t)) {
    *out = wire_node_new_int(p->doc, t, v->v.i);
    if (!*out) return pfail(p, "%s: value does not fit %s%s", wire_type_name(t), "");
    return WIRE_OK;
  }
  if (wire__is_uint_type(s) && wire__is_uint_type(t)) {
    *out = wire_node_new_uint(p->doc, t, v->v.u);
    if (!*out) return pfail(p, "%s: value does not fit %s%s", wire_type_name(t), "");
    return WIRE_OK;
  }
  if ((s == WIRE_T_FLOAT16 || s == WIRE_T_BFLOAT16 || s == WIRE_T_FLOAT32) &&
      (t == WIRE_T_FLOAT32 || t == WIRE_T_FLOAT64) && s != t) {
    *out = wire_node_new_float(p->doc, t, wire_node_float(v)); /* widening: exact */
    return *out ? WIRE_OK : p->doc->ctx->err_code;
  }
  return pfail(p, "%s: a %s cannot be read as %s", wire_type_name(s), wire_type_name(t));
}

/* A writer's field is the reader's field: the same tag id, or the same
 * name once both are in snake_case - pyfory writes attribute names as
 * written (firstName), Java and Go in snake_case, and FDL's wire names are
 * snake_case (spec R-EVOLVE-7). */
static bool name_matches(const wire_lfield *wf, const wire_lfield *rf) {
  if (rf->tag >= 0) return wf->tag == rf->tag;
  if (wf->tag >= 0) return false;
  if (wf->name_len == rf->name_len && wire__eq(wf->name, rf->name, rf->name_len))
    return true;
  char sn[256];
  if (wf->name_len > 120 || WIRE_MUTANT(evolve_exact_names)) return false;
  size_t n = wire__snake_case((const char *)wf->name, wf->name_len, sn);
  return n == rf->name_len && wire__eq(sn, rf->name, n);
}

/* Which writer's field each of the reader's fields reads (matched by tag
 * id or name), worked out once per writer's layout and reader's type. */
typedef struct wire_projmap {
  uint32_t type;     /* the reader's registered type */
  uint32_t n;        /* its field count when the map was made */
  int32_t unmatched; /* the first writer's field the reader lacks, or -1 */
  int32_t field[];   /* per reader's field: the writer's field, or -1 */
} wire_projmap;

static wire_projmap *field_map(wire_doc *d, wire_layout *wl,
                               const wire_layout *rl, uint32_t type) {
  if (wl->proj && wl->proj->type == type && wl->proj->n == rl->nfields)
    return wl->proj;
  /* the first reader's type is kept with a cached layout while the
   * cache's byte budget has room; another one is worked out again each
   * time (in the document), so that the cache's memory stays bounded */
  size_t size = sizeof(wire_projmap) + (size_t)rl->nfields * sizeof(int32_t);
  wire_projmap *m = wire__tdcache_proj(d->ctx, wl, size);
  bool keep = m != NULL;
  if (!m) m = wire__arena_alloc(&d->arena, size);
  if (!m) {
    wire__fail(d->ctx, WIRE_E_NOMEM, 0, "out of memory");
    return NULL;
  }
  m->type = type;
  m->n = rl->nfields;
  m->unmatched = -1;
  for (uint32_t i = 0; i < rl->nfields; i++) {
    m->field[i] = -1;
    for (uint32_t k = 0; k < wl->nfields; k++)
      if (name_matches(&wl->fields[k], &rl->fields[i])) {
        m->field[i] = (int32_t)k;
        break;
      }
  }
  for (uint32_t k = 0; k < wl->nfields && m->unmatched < 0; k++) {
    bool found = false;
    for (uint32_t i = 0; i < rl->nfields && !found; i++)
      found = name_matches(&wl->fields[k], &rl->fields[i]);
    if (!found) m->unmatched = (int32_t)k;
  }
  if (keep) wl->proj = m;
  return m;
}

static int32_t project_struct(proj *p, wire_node *v, uint32_t type,
                              wire_node **out) {
  wire_doc *d = p->doc;
  if (++p->depth > d->ctx->max_depth)
    return wire__fail(d->ctx, WIRE_E_DEPTH, 0, "structs nested too deep");
  if (!wire__st_open(v)) return WIRE_E_NOMEM;
  wire_node *r = wire_node_new_struct(d, type);
  if (!r) return d->ctx->err_code;
  const wire_layout *rl = wire__st_layout(r);
  wire_layout *wl = wire__st_layout(v);
  const wire_projmap *m = field_map(d, wl, rl, type);
  if (!m) return d->ctx->err_code;
  pframe fr = {p->top, NULL};
  p->top = &fr;
  for (uint32_t i = 0; i < rl->nfields; i++) {
    const wire_lfield *rf = &rl->fields[i];
    fr.f = rf;
    int32_t k = m->field[i];
    wire_node *val = k >= 0 && (uint32_t)k < v->small ? v->v.st->fields[k] : NULL;
    if (!val && WIRE_MUTANT(evolve_no_defaults))
      return pfail(p, "%s: the writer has no such field%s%s", "", "");
    int32_t st = val ? convert(p, val, rf->type, &r->v.st->fields[i])
                     : default_of(p, rf->type, &r->v.st->fields[i]);
    if (st) return st;
  }
  p->top = fr.up;
  /* a writer's field the reader has no place for: dropped, or an error
   * under WIRE_OPT_PROJECT_STRICT (R-EVOLVE-8) */
  if (d->ctx->project_strict && m->unmatched >= 0 &&
      (uint32_t)m->unmatched < v->small) {
    const wire_lfield *wf = &wl->fields[m->unmatched];
    char path[256];
    path_of(p, path, sizeof path);
    if (wf->tag >= 0)
      return wire__fail(d->ctx, WIRE_E_SCHEMA, 0, "%s%sthe writer's field "
                        "#%d has no field of the reader's type", path,
                        path[0] ? ": " : "", wf->tag);
    return wire__fail(d->ctx, WIRE_E_SCHEMA, 0, "%s%sthe writer's field "
                      "\"%.*s\" has no field of the reader's type", path,
                      path[0] ? ": " : "",
                      (int)(wf->name_len > 80 ? 80 : wf->name_len),
                      (const char *)wf->name);
  }
  p->depth--;
  *out = r;
  return WIRE_OK;
}

int32_t wire_struct_project(wire_doc *doc, wire_node *node, uint32_t type,
                            wire_node **out) {
  if (!doc || !node || !out) return WIRE_E_ARG;
  *out = NULL;
  wire_registry *r = doc->ctx->reg;
  if (!r || type >= r->ntypes || r->types[type].kind != WIRE_KIND_STRUCT ||
      node->type < WIRE_T_STRUCT || node->type > WIRE_T_NAMED_COMPATIBLE_STRUCT)
    return wire__fail(doc->ctx, WIRE_E_ARG, 0, "project a struct onto a struct "
                                               "type of the schema");
  proj p = {doc, 0, NULL};
  return project_struct(&p, node, type, out);
}

int32_t wire__field_default(wire_doc *doc, const wire_ftype *f,
                            wire_node **out) {
  proj p = {doc, 0, NULL};
  return default_of(&p, f, out);
}
