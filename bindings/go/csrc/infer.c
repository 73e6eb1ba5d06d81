/* infer.c - schema facts for people: the fingerprint behind a schema hash,
 * and FDL inferred from the TypeDefs of a payload (`wire schema`). */
#include <stdio.h>
#include <stdlib.h>

#include "notation.h"

int32_t wire_schema_fingerprint(wire_ctx *ctx, uint32_t type, char *out,
                                size_t cap, size_t *out_len,
                                uint32_t *out_hash) {
  if (!ctx) return WIRE_E_ARG;
  wire_registry *r = ctx->reg;
  if (!r || type >= r->ntypes || r->types[type].kind != WIRE_KIND_STRUCT)
    return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not a struct of the "
                                          "schema", type);
  int32_t st = wire__layout_of(ctx, type);
  if (st) return st;
  if (out_hash) *out_hash = r->types[type].layout->schema_hash;
  size_t len = 0;
  st = wire__schema_fingerprint(ctx, type, out, cap, &len);
  if (out_len) *out_len = len;
  return st;
}

/* ======================================================================= */
/* Inference                                                                */
/* ======================================================================= */

#define MAX_OBSERVED 100000 /* values looked at per field */

typedef struct {
  const wire_layout *l;  /* the first TypeDef seen for this type */
  char name[80];         /* FDL name */
  const wire_node **inst;
  size_t ninst, cap;
  bool ns_ok;            /* in the file's namespace */
} istruct;

typedef struct {
  char name[80];
  bool by_name, known;   /* known: registration seen on the wire */
  uint32_t user_id;
  uint8_t kind;          /* WIRE_KIND_ENUM or WIRE_KIND_UNION */
  uint32_t values[256];  /* enum values / union case ids seen */
  const wire_node *case_value[256];
  uint32_t nvalues;
} iuser;

typedef struct {
  wire_ctx *ctx;
  wire_doc *doc;
  istruct *st;
  size_t nst, st_cap;
  iuser *us;
  size_t nus, us_cap;
  const char *ns;        /* the file's namespace (first named type) */
  uint32_t ns_len;
  bool by_name_types, fields_by_name, fields_by_tag, nullable_keys;
  bool not_nullable; /* a message or any field says [nullable = false] */
  wire_buf out;
  const wire_node **obs; /* scratch for observations */
  size_t nobs, obs_cap;
} infer;

static void put(infer *x, const char *s) { wire__put_bytes(&x->out, s, strlen(s)); }
static void putn(infer *x, const char *s, size_t n) { wire__put_bytes(&x->out, s, n); }
static void putf(infer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(infer *x, const char *fmt, ...) {
  char b[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b, sizeof b, fmt, ap);
  va_end(ap);
  if (n > 0) putn(x, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

static bool is_ident(const uint8_t *s, size_t n) {
  if (n == 0 || (s[0] >= '0' && s[0] <= '9')) return false;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_'))
      return false;
  }
  return true;
}

static const char *const keywords[] = {
    "package", "import", "public", "weak", "message", "enum", "union",
    "optional", "ref", "repeated", "list", "array", "map", "option", "true",
    "false", "reserved", "to", "max", "service", "rpc", "returns", "stream",
    NULL};

static bool is_keyword(const uint8_t *s, size_t n) {
  for (int i = 0; keywords[i]; i++)
    if (strlen(keywords[i]) == n && memcmp(keywords[i], s, n) == 0) return true;
  return false;
}

/* An identifier made of `s` (other characters become '_'). */
static void ident(char *out, size_t cap, const uint8_t *s, size_t n) {
  size_t w = 0;
  if (n == 0 || (s[0] >= '0' && s[0] <= '9')) out[w++] = 'T';
  for (size_t i = 0; i < n && w + 1 < cap; i++) {
    uint8_t c = s[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    out[w++] = ok ? (char)c : '_';
  }
  out[w] = 0;
}

/* ---- collecting ----------------------------------------------------------- */

static bool same_identity(const wire_layout *a, const wire_layout *b) {
  if (a->by_name != b->by_name || a->kind != b->kind) return false;
  if (!a->by_name) return a->user_id == b->user_id;
  return a->ns_len == b->ns_len && a->name_len == b->name_len &&
         wire__eq(a->ns, b->ns, a->ns_len) && wire__eq(a->name, b->name, a->name_len);
}

static void *grow(wire_ctx *ctx, void *p, size_t *cap, size_t n, size_t size) {
  return wire__grow(ctx, p, cap, n, size, 16);
}

/* The struct type of layout l, added when new (NULL: out of memory). */
static istruct *struct_type(infer *x, const wire_layout *l) {
  istruct *s = NULL;
  for (size_t i = 0; i < x->nst && !s; i++)
    if (same_identity(x->st[i].l, l)) s = &x->st[i];
  if (!s) {
    istruct *g = grow(x->ctx, x->st, &x->st_cap, x->nst, sizeof *g);
    if (!g) return NULL;
    x->st = g;
    s = &x->st[x->nst++];
    memset(s, 0, sizeof *s);
    s->l = l;
    if (l->by_name) {
      ident(s->name, sizeof s->name, l->name, l->name_len);
      if (!x->ns) {
        x->ns = (const char *)l->ns;
        x->ns_len = l->ns_len;
      }
      s->ns_ok = l->ns_len == x->ns_len && wire__eq(l->ns, x->ns, l->ns_len);
      x->by_name_types = true;
    } else {
      snprintf(s->name, sizeof s->name, "Type%u", l->user_id);
      s->ns_ok = true;
    }
    for (uint32_t i = 0; i < l->nfields; i++) {
      if (l->fields[i].tag >= 0) x->fields_by_tag = true;
      else x->fields_by_name = true;
    }
  }
  return s;
}

static int32_t add_instance(infer *x, const wire_node *n) {
  const wire_layout *l = wire__st_layout(n);
  if (!l) return WIRE_OK;
  istruct *s = struct_type(x, l);
  if (!s) return WIRE_E_NOMEM;
  const wire_node **g = grow(x->ctx, (void *)s->inst, &s->cap, s->ninst, sizeof *g);
  if (!g) return WIRE_E_NOMEM;
  s->inst = g;
  s->inst[s->ninst++] = n;
  return WIRE_OK;
}

static size_t nchildren(const wire_node *n) {
  switch (n->type) {
  case WIRE_T_LIST: case WIRE_T_SET: return n->small;
  case WIRE_T_MAP: return 2 * (size_t)n->small;
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION: return 1;
  default:
    if (n->type >= WIRE_T_STRUCT && n->type <= WIRE_T_NAMED_EXT)
      return wire__st_open(n) ? n->small : 0;
    return 0;
  }
}

static const wire_node *child(const wire_node *n, size_t k) {
  switch (n->type) {
  case WIRE_T_LIST: case WIRE_T_SET: return n->v.list->items[k];
  case WIRE_T_MAP: return n->v.map->kv[k];
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    return n->v.un->value;
  default: return n->v.st->fields[k];
  }
}

/* A struct element type an all-null list or set n kept (R-LIST-5): a
 * type of the schema, no instance. */
static int32_t add_kept_type(infer *x, const wire_node *n) {
  const wire_node *et = wire__list_elem_type(n);
  if (!et || et->type < WIRE_T_STRUCT ||
      et->type > WIRE_T_NAMED_COMPATIBLE_STRUCT || !wire__st_layout(et))
    return WIRE_OK;
  return struct_type(x, wire__st_layout(et)) ? WIRE_OK : WIRE_E_NOMEM;
}

/* Every struct reached from the roots, by type. */
static int32_t collect(infer *x) {
  size_t nn = x->doc->nnodes + 1;
  uint8_t *seen = wire__alloc(x->ctx, nn);
  size_t cap = 64, top = 0;
  const wire_node **stack = wire__alloc(x->ctx, cap * sizeof *stack);
  int32_t st = seen && stack ? WIRE_OK : WIRE_E_NOMEM;
  if (seen) memset(seen, 0, nn);
  for (uint32_t r = 0; !st && r < x->doc->nroots; r++) {
    stack[top++] = x->doc->roots[r];
    while (!st && top) {
      const wire_node *n = stack[--top];
      if (!n || seen[n->index]) continue;
      seen[n->index] = 1;
      if (n->type >= WIRE_T_STRUCT && n->type <= WIRE_T_NAMED_COMPATIBLE_STRUCT)
        st = add_instance(x, n);
      else if (n->type == WIRE_T_LIST || n->type == WIRE_T_SET)
        st = add_kept_type(x, n);
      size_t k = nchildren(n);
      for (size_t i = 0; !st && i < k; i++) {
        const wire_node **g = grow(x->ctx, (void *)stack, &cap, top, sizeof *g);
        if (!g) {
          st = WIRE_E_NOMEM;
          break;
        }
        stack = g;
        stack[top++] = child(n, i);
      }
    }
  }
  wire__free(x->ctx, seen, nn);
  wire__free(x->ctx, (void *)stack, cap * sizeof *stack);
  return st;
}

/* The values of field `fi` of every instance, then `path` applied ('e'
 * element, 'k' key, 'v' value): into x->obs. */
static void observe(infer *x, const istruct *s, uint32_t fi, const char *path) {
  x->nobs = 0;
  for (size_t i = 0; i < s->ninst; i++) {
    const wire_node *n = s->inst[i];
    if (wire__st_open(n) && fi < n->small && n->v.st->fields[fi]) {
      const wire_node **g = grow(x->ctx, (void *)x->obs, &x->obs_cap, x->nobs, sizeof *g);
      if (!g) return;
      x->obs = g;
      x->obs[x->nobs++] = n->v.st->fields[fi];
    }
  }
  for (const char *p = path; *p; p++) {
    size_t n0 = x->nobs, w = 0;
    const wire_node **next = NULL;
    size_t ncap = 0;
    for (size_t i = 0; i < n0 && w < MAX_OBSERVED; i++) {
      const wire_node *n = x->obs[i];
      size_t k = 0, step = 1, start = 0;
      if (*p == 'e' && (n->type == WIRE_T_LIST || n->type == WIRE_T_SET)) k = n->small;
      else if (*p != 'e' && n->type == WIRE_T_MAP) {
        k = 2 * (size_t)n->small;
        step = 2;
        start = *p == 'v';
      }
      for (size_t j = start; j < k && w < MAX_OBSERVED; j += step) {
        const wire_node **g = grow(x->ctx, (void *)next, &ncap, w, sizeof *g);
        if (!g) break;
        next = g;
        next[w++] = child(n, j);
      }
    }
    wire__free(x->ctx, (void *)x->obs, x->obs_cap * sizeof *x->obs);
    x->obs = next;
    x->obs_cap = ncap;
    x->nobs = w;
  }
}

/* ---- types ------------------------------------------------------------------- */

static const char *scalar_name(uint8_t t) {
  switch (t) {
  case WIRE_T_BOOL: return "bool";
  case WIRE_T_INT8: return "int8";
  case WIRE_T_INT16: return "int16";
  case WIRE_T_INT32: return "fixed int32";
  case WIRE_T_VARINT32: return "int32";
  case WIRE_T_INT64: return "fixed int64";
  case WIRE_T_VARINT64: return "int64";
  case WIRE_T_TAGGED_INT64: return "tagged int64";
  case WIRE_T_UINT8: return "uint8";
  case WIRE_T_UINT16: return "uint16";
  case WIRE_T_UINT32: return "fixed uint32";
  case WIRE_T_VAR_UINT32: return "uint32";
  case WIRE_T_UINT64: return "fixed uint64";
  case WIRE_T_VAR_UINT64: return "uint64";
  case WIRE_T_TAGGED_UINT64: return "tagged uint64";
  case WIRE_T_FLOAT16: return "float16";
  case WIRE_T_BFLOAT16: return "bfloat16";
  case WIRE_T_FLOAT32: return "float32";
  case WIRE_T_FLOAT64: return "float64";
  case WIRE_T_STRING: return "string";
  case WIRE_T_BINARY: return "bytes";
  case WIRE_T_DATE: return "date";
  case WIRE_T_TIMESTAMP: return "timestamp";
  case WIRE_T_DURATION: return "duration";
  case WIRE_T_DECIMAL: return "decimal";
  case WIRE_T_UNKNOWN: return "any";
  case WIRE_T_BOOL_ARRAY: return "array<bool>";
  case WIRE_T_INT8_ARRAY: return "array<int8>";
  case WIRE_T_INT16_ARRAY: return "array<int16>";
  case WIRE_T_INT32_ARRAY: return "array<int32>";
  case WIRE_T_INT64_ARRAY: return "array<int64>";
  case WIRE_T_UINT8_ARRAY: return "array<uint8>";
  case WIRE_T_UINT16_ARRAY: return "array<uint16>";
  case WIRE_T_UINT32_ARRAY: return "array<uint32>";
  case WIRE_T_UINT64_ARRAY: return "array<uint64>";
  case WIRE_T_FLOAT16_ARRAY: return "array<float16>";
  case WIRE_T_BFLOAT16_ARRAY: return "array<bfloat16>";
  case WIRE_T_FLOAT32_ARRAY: return "array<float32>";
  case WIRE_T_FLOAT64_ARRAY: return "array<float64>";
  default: return NULL;
  }
}

static const istruct *struct_of(const infer *x, const wire_node *n) {
  if (!n || n->type < WIRE_T_STRUCT || n->type > WIRE_T_NAMED_COMPATIBLE_STRUCT)
    return NULL;
  for (size_t i = 0; i < x->nst; i++)
    if (same_identity(x->st[i].l, wire__st_layout(n))) return &x->st[i];
  return NULL;
}

/* An enum or union named after its field (TypeDefs do not name them), with
 * the values seen. */
static iuser *user_type(infer *x, uint8_t kind, const char *field,
                        const char *suffix) {
  iuser *g = grow(x->ctx, x->us, &x->us_cap, x->nus, sizeof *g);
  if (!g) return NULL;
  x->us = g;
  iuser *u = &x->us[x->nus++];
  memset(u, 0, sizeof *u);
  u->kind = kind;
  /* CamelCase of the field name */
  size_t w = 0;
  bool up = true;
  for (const char *p = field; *p && w + 1 < sizeof u->name - 8; p++) {
    if (*p == '_') {
      up = true;
      continue;
    }
    char c = *p;
    if (up && c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
    up = false;
    u->name[w++] = c;
  }
  u->name[w] = 0;
  if (!w || (u->name[0] >= '0' && u->name[0] <= '9'))
    snprintf(u->name, sizeof u->name, "F%s", field);
  strncat(u->name, suffix, sizeof u->name - strlen(u->name) - 1);
  /* distinct names */
  for (size_t i = 0; i + 1 < x->nus; i++)
    if (!strcmp(x->us[i].name, u->name)) {
      size_t k = strlen(u->name);
      snprintf(u->name + k, sizeof u->name - k, "%zu", x->nus);
      break;
    }
  for (size_t i = 0; i < x->nst; i++)
    if (!strcmp(x->st[i].name, u->name)) {
      size_t k = strlen(u->name);
      snprintf(u->name + k, sizeof u->name - k, "%s", kind == WIRE_KIND_ENUM ? "Enum" : "Union");
      break;
    }
  return u;
}

static void note_value(iuser *u, uint32_t v, const wire_node *val) {
  for (uint32_t i = 0; i < u->nvalues; i++)
    if (u->values[i] == v) return;
  if (u->nvalues < 256) {
    u->case_value[u->nvalues] = val;
    u->values[u->nvalues++] = v;
  }
}

static void type_text(infer *x, const istruct *s, uint32_t fi, char *path,
                      const wire_ftype *f, const char *field, char *note,
                      size_t ncap);

/* The FDL text of a value's type, for union cases. */
static void node_type_text(infer *x, const wire_node *n, char *buf, size_t cap) {
  const istruct *s = struct_of(x, n);
  const char *sc = n ? scalar_name(n->type) : NULL;
  if (s) snprintf(buf, cap, "%s", s->name);
  else if (sc && n->type != WIRE_T_UNKNOWN) snprintf(buf, cap, "%s", sc);
  else if (n && (n->type == WIRE_T_LIST || n->type == WIRE_T_SET)) snprintf(buf, cap, "list<any>");
  else if (n && n->type == WIRE_T_MAP) snprintf(buf, cap, "map<string, any>");
  else snprintf(buf, cap, "string");
}

static void add_text(char *out, size_t cap, const char *s) {
  strncat(out, s, cap - strlen(out) - 1);
}

/* The FDL name of a struct, enum or union field type, from the values
 * seen there; false for other types. */
static bool user_text(infer *x, const istruct *s, uint32_t fi, const char *path,
                      uint8_t t, const char *field, char *note, size_t ncap) {
  if (t >= WIRE_T_STRUCT && t <= WIRE_T_NAMED_COMPATIBLE_STRUCT) {
    observe(x, s, fi, path);
    for (size_t i = 0; i < x->nobs; i++) {
      const istruct *o = struct_of(x, x->obs[i]);
      if (o) {
        put(x, o->name);
        return true;
      }
    }
    /* elements all null: the type an all-null list kept (R-LIST-5) */
    size_t pl = strlen(path);
    char up[64];
    if (pl && pl <= sizeof up && path[pl - 1] == 'e') {
      memcpy(up, path, pl - 1);
      up[pl - 1] = 0;
      observe(x, s, fi, up);
      for (size_t i = 0; i < x->nobs; i++) {
        const wire_node *n = x->obs[i];
        const istruct *o = n->type == WIRE_T_LIST || n->type == WIRE_T_SET
                               ? struct_of(x, wire__list_elem_type(n))
                               : NULL;
        if (o) {
          put(x, o->name);
          return true;
        }
      }
    }
    add_text(note, ncap, " a struct, null in this payload: its type is unknown;");
    put(x, "any");
    return true;
  }
  if (t == WIRE_T_ENUM || t == WIRE_T_NAMED_ENUM) {
    iuser *u = user_type(x, WIRE_KIND_ENUM, field, "");
    if (!u) return true;
    observe(x, s, fi, path);
    for (size_t i = 0; i < x->nobs; i++)
      if (x->obs[i]->type == WIRE_T_ENUM || x->obs[i]->type == WIRE_T_NAMED_ENUM)
        note_value(u, x->obs[i]->small, NULL);
    put(x, u->name);
    return true;
  }
  if (t >= WIRE_T_UNION && t <= WIRE_T_NAMED_UNION) {
    iuser *u = user_type(x, WIRE_KIND_UNION, field, "");
    if (!u) return true;
    observe(x, s, fi, path);
    for (size_t i = 0; i < x->nobs; i++) {
      const wire_node *n = x->obs[i];
      if (n->type >= WIRE_T_UNION && n->type <= WIRE_T_NAMED_UNION) {
        note_value(u, n->small, n->v.un->value);
        if (n->type == WIRE_T_TYPED_UNION && n->v.un->user_id != UINT32_MAX) {
          u->known = true;
          u->user_id = n->v.un->user_id;
        }
      }
    }
    put(x, u->name);
    return true;
  }
  return false;
}

/* The FDL for declared type f of field fi at `path` (elements 'e', keys
 * 'k', values 'v'); written into x->out. Notes on what FDL cannot say go
 * into `note`. */
static void type_text(infer *x, const istruct *s, uint32_t fi, char *path,
                      const wire_ftype *f, const char *field, char *note,
                      size_t ncap) {
  uint8_t t = f->type_id;
  size_t pl = strlen(path);
  const char *sc = scalar_name(t);
  if (sc) {
    put(x, sc);
    return;
  }
  if (t == WIRE_T_LIST || t == WIRE_T_SET) {
    if (t == WIRE_T_SET && pl) add_text(note, ncap, " a nested set is written as a list;");
    put(x, "list<");
    if (f->elem) {
      if (f->elem->nullable) put(x, "optional ");
      if (f->elem->ref) put(x, "ref ");
      path[pl] = 'e';
      path[pl + 1] = 0;
      type_text(x, s, fi, path, f->elem, field, note, ncap);
      path[pl] = 0;
    } else {
      put(x, "any");
    }
    put(x, ">");
    return;
  }
  if (t == WIRE_T_MAP) {
    put(x, "map<");
    if (f->key) {
      if (f->key->nullable) x->nullable_keys = true;
      path[pl] = 'k';
      path[pl + 1] = 0;
      type_text(x, s, fi, path, f->key, field, note, ncap);
    } else {
      put(x, "string");
    }
    put(x, ", ");
    if (f->value) {
      if (f->value->nullable) put(x, "optional ");
      if (f->value->ref) put(x, "ref ");
      path[pl] = 'v';
      path[pl + 1] = 0;
      type_text(x, s, fi, path, f->value, field, note, ncap);
    } else {
      put(x, "any");
    }
    path[pl] = 0;
    put(x, ">");
    return;
  }
  if (user_text(x, s, fi, path, t, field, note, ncap)) return;
  add_text(note, ncap, " an ext field: its body needs the custom serializer;");
  put(x, "any");
}

/* ---- output ------------------------------------------------------------------- */

static void field_line(infer *x, const istruct *s, uint32_t i, uint32_t num) {
  const wire_lfield *lf = &s->l->fields[i];
  const wire_ftype *f = lf->type;
  char name[96], field[96], note[400] = "", wname[96] = "";
  if (lf->tag >= 0 && !lf->name) {
    snprintf(name, sizeof name, "f%d", lf->tag);
  } else if (lf->name && is_ident(lf->name, lf->name_len) &&
             !is_keyword(lf->name, lf->name_len)) {
    ident(name, sizeof name, lf->name, lf->name_len);
    char sn[200];
    size_t n = lf->name_len < 96 ? wire__snake_case(name, strlen(name), sn) : 0;
    if (n != strlen(name) || memcmp(sn, name, n) != 0)
      add_text(note, sizeof note, " the writer's field name is not snake_case: "
                                  "FDL writes it in snake_case;");
  } else {
    ident(name, sizeof name, lf->name ? lf->name : (const uint8_t *)"f",
          lf->name ? lf->name_len : 1);
    if (lf->name && is_keyword(lf->name, lf->name_len)) {
      snprintf(wname, sizeof wname, "%s", name);
      add_text(name, sizeof name, "_");
    } else {
      add_text(note, sizeof note, " the writer's field name is not an FDL "
                                  "identifier;");
    }
  }
  snprintf(field, sizeof field, "%s", name);
  bool is_msg = f->type_id >= WIRE_T_STRUCT && f->type_id <= WIRE_T_NAMED_COMPATIBLE_STRUCT;
  bool is_union = f->type_id >= WIRE_T_UNION && f->type_id <= WIRE_T_NAMED_UNION;
  bool is_any = f->type_id == WIRE_T_UNKNOWN;
  /* the field's own nullable/ref flags */
  put(x, "  ");
  size_t mark = x->out.len;
  if (f->nullable && !is_msg && !is_any) put(x, "optional ");
  bool wire_ref = false;
  if (f->ref) {
    if (is_msg || is_union) put(x, "ref ");
    else if (f->type_id == WIRE_T_LIST || f->type_id == WIRE_T_SET ||
             f->type_id == WIRE_T_MAP)
      wire_ref = true;
    else add_text(note, sizeof note, " the writer tracks references of this field;");
  }
  char path[64] = "";
  type_text(x, s, i, path, f, field, note, sizeof note);
  /* a struct nobody saw became `any`, which is always nullable */
  bool became_any = is_msg && x->out.len - mark >= 3 &&
                    memcmp(x->out.p + x->out.len - 3, "any", 3) == 0;
  putf(x, " %s = %u", name, num);
  bool opts = false;
  if ((is_msg && !became_any && !f->nullable) || (is_any && !f->nullable)) {
    put(x, " [nullable = false");
    opts = true;
    x->not_nullable = true;
  }
  if (f->type_id == WIRE_T_SET) {
    put(x, opts ? ", wire_set = true" : " [wire_set = true");
    opts = true;
  }
  if (wire_ref) {
    put(x, opts ? ", wire_ref = true" : " [wire_ref = true");
    opts = true;
  }
  if (*wname) {
    putf(x, opts ? ", wire_name = \"%s\"" : " [wire_name = \"%s\"", wname);
    opts = true;
  }
  if (opts) put(x, "]");
  put(x, ";");
  if (*note) putf(x, "  //%s", note);
  put(x, "\n");
}

static void emit_struct(infer *x, const istruct *s) {
  const wire_layout *l = s->l;
  if (!s->ns_ok)
    putf(x, "// libwire: registered in namespace \"%.*s\", which one FDL file "
            "cannot say next to \"%.*s\"\n",
         (int)l->ns_len, (const char *)l->ns, (int)x->ns_len, x->ns);
  if (l->by_name && !is_ident(l->name, l->name_len))
    putf(x, "// libwire: the writer's type name is \"%.*s\"\n", (int)l->name_len,
         (const char *)l->name);
  putf(x, "message %s", s->name);
  bool opts = false;
  if (!l->by_name) {
    putf(x, " [id = %u", l->user_id);
    opts = true;
  }
  if (!l->compatible) {
    put(x, opts ? ", evolving = false" : " [evolving = false");
    opts = true;
  }
  if (opts) put(x, "]");
  put(x, " {\n");
  /* fields in wire order; numbers: the tag ids, or 1, 2, ... */
  uint32_t next = 1;
  for (uint32_t i = 0; i < l->nfields; i++) {
    uint32_t num = l->fields[i].tag >= 0 ? (uint32_t)l->fields[i].tag : next;
    next = num + 1;
    for (uint32_t k = 0; k < l->nfields; k++)
      if (k != i && l->fields[k].tag >= 0 && (uint32_t)l->fields[k].tag == num &&
          l->fields[i].tag < 0)
        num = next++; /* do not collide with a tag id */
    field_line(x, s, i, num);
  }
  put(x, "}\n\n");
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

static void emit_user(infer *x, iuser *u) {
  if (u->kind == WIRE_KIND_ENUM) {
    putf(x, "enum %s {  // values as seen in this payload\n", u->name);
    if (!u->nvalues) u->values[u->nvalues++] = 0;
    qsort(u->values, u->nvalues, sizeof u->values[0], cmp_u32);
    char up[80];
    size_t n = strlen(u->name);
    for (size_t i = 0; i <= n && i < sizeof up; i++)
      up[i] = u->name[i] >= 'a' && u->name[i] <= 'z' ? (char)(u->name[i] - 32) : u->name[i];
    for (uint32_t i = 0; i < u->nvalues; i++)
      putf(x, "  %s_%u = %u;\n", up, u->values[i], u->values[i]);
    put(x, "}\n\n");
    return;
  }
  putf(x, "union %s", u->name);
  if (u->known) putf(x, " [id = %u]", u->user_id);
  put(x, " {  // cases as seen in this payload\n");
  if (!u->nvalues) put(x, "  string case_0 = 0;  // no value seen\n");
  for (uint32_t i = 0; i < u->nvalues; i++) {
    char t[96];
    node_type_text(x, u->case_value[i], t, sizeof t);
    putf(x, "  %s case_%u = %u;\n", t, u->values[i], u->values[i]);
  }
  put(x, "}\n\n");
}

static bool pkg_ok(const char *s, uint32_t n) {
  if (n == 0) return false;
  size_t start = 0;
  for (size_t i = 0; i <= n; i++)
    if (i == n || s[i] == '.') {
      if (!is_ident((const uint8_t *)s + start, i - start) ||
          is_keyword((const uint8_t *)s + start, i - start))
        return false;
      start = i + 1;
    }
  return true;
}

/* What a same-schema payload shows about its first value. */
static int32_t same_schema_message(wire_ctx *ctx, const uint8_t *d, size_t n) {
  char what[160] = "its first value is not a struct";
  if (n >= 3 && d[0] == 0x01 && d[1] != 0xfd) {
    uint8_t t = d[2];
    if (t == WIRE_T_STRUCT && n >= 4) {
      wire_in in = {ctx, d, d + 3, d + n};
      uint32_t id;
      uint64_t h = 0;
      if (wire__get_varu32(&in, &id) && wire__get_le(&in, 4, &h))
        snprintf(what, sizeof what, "its first value is a struct registered by "
                                    "id %u with schema hash 0x%08x",
                 id, (unsigned)h);
    } else if (t == WIRE_T_NAMED_STRUCT) {
      snprintf(what, sizeof what, "its first value is a struct registered by name");
    }
  }
  wire_ctx_clear_error(ctx);
  return wire__fail(ctx, WIRE_E_SCHEMA, 0,
                    "a same-schema payload carries no TypeDefs, so its fields "
                    "are not in the bytes; %s", what);
}

/* The file's head: what it was inferred from, and its options. */
static void emit_header(infer *x) {
  putf(x, "// Inferred by `wire schema` from the TypeDefs of a payload: %zu "
           "struct type(s).\n",
       x->nst);
  if (x->by_name_types) {
    if (pkg_ok(x->ns, x->ns_len)) putf(x, "package %.*s;\n", (int)x->ns_len, x->ns);
    else putf(x, "option wire_namespace = \"%.*s\";  // libwire: the writer's "
                  "namespace\n", (int)x->ns_len, x->ns);
    put(x, "option enable_auto_type_id = false;  // types without [id = ...] "
            "are registered by name\n");
  }
  if (x->fields_by_name)
    put(x, "option wire_fields_by_name = true;  // libwire: fields are "
            "identified by name\n");
  if (x->fields_by_name && x->fields_by_tag)
    put(x, "// libwire: some structs identify fields by tag id, others by "
            "name; one file says one of them\n");
  if (x->nullable_keys)
    put(x, "option wire_nullable_map_keys = true;  // libwire: map keys are "
            "nullable in the writer's TypeDefs\n");
  if (x->not_nullable)
    put(x, "option wire_warn_foryc = false;  // libwire: [nullable = false] "
            "describes the writer's classes (foryc ignores it)\n");
}

int32_t wire_schema_infer(wire_ctx *ctx, const uint8_t *data, size_t len,
                          uint8_t **out, size_t *out_len) {
  if (!ctx || !out || !out_len || (!data && len)) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  bool was = ctx->compatible;
  ctx->compatible = true;
  wire_doc *doc;
  int32_t st = wire_decode(ctx, data, len, &doc);
  ctx->compatible = was;
  if (st) {
    int32_t code = st;
    uint64_t off = wire_ctx_error_offset(ctx);
    char msg[256];
    snprintf(msg, sizeof msg, "%s", wire_ctx_error_message(ctx));
    /* a same-schema payload reads in same-schema mode, or fails there on
     * the schema it lacks */
    wire_doc *d2 = NULL;
    ctx->compatible = false;
    int32_t st2 = wire_decode(ctx, data, len, &d2);
    ctx->compatible = was;
    wire_doc_free(d2);
    if (!st2 || ctx->err_code == WIRE_E_SCHEMA)
      return same_schema_message(ctx, data, len);
    return wire__fail(ctx, code, off, "%s", msg);
  }
  infer x;
  memset(&x, 0, sizeof x);
  x.ctx = ctx;
  x.doc = doc;
  x.out = (wire_buf){ctx, NULL, 0, 0, false, WIRE_OK};
  st = collect(&x);
  if (!st && x.nst == 0) {
    wire_doc_free(doc);
    wire__free(ctx, x.st, x.st_cap * sizeof *x.st);
    return same_schema_message(ctx, data, len);
  }
  /* structs first (their fields name the enums and unions) */
  wire_buf head = x.out;
  x.out = (wire_buf){ctx, NULL, 0, 0, false, WIRE_OK};
  for (size_t i = 0; !st && i < x.nst; i++) emit_struct(&x, &x.st[i]);
  for (size_t i = 0; i < x.nus; i++) emit_user(&x, &x.us[i]);
  wire_buf body = x.out;
  x.out = head;
  emit_header(&x);
  put(&x, "\n");
  wire__put_bytes(&x.out, body.p, body.len);
  wire__put_u8(&x.out, 0);
  if (x.out.status) st = x.out.status;
  if (!st) {
    uint8_t *r = wire__bytes_alloc(ctx, x.out.len);
    if (!r) {
      st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    } else {
      memcpy(r, x.out.p, x.out.len);
      *out = r;
      *out_len = x.out.len - 1;
    }
  } else {
    wire__fail(ctx, st, 0, "out of memory");
  }
  for (size_t i = 0; i < x.nst; i++)
    wire__free(ctx, (void *)x.st[i].inst, x.st[i].cap * sizeof *x.st[i].inst);
  wire__free(ctx, x.st, x.st_cap * sizeof *x.st);
  wire__free(ctx, x.us, x.us_cap * sizeof *x.us);
  wire__free(ctx, (void *)x.obs, x.obs_cap * sizeof *x.obs);
  wire__free(ctx, body.p, body.cap);
  wire__free(ctx, x.out.p, x.out.cap);
  wire_doc_free(doc);
  return st;
}

/* ======================================================================= */
/* Schema hash mismatches                                                   */
/* ======================================================================= */

/* The schema hash of fields; a hint is only a hint: without memory for the
 * fingerprint, nothing matches (UINT64_MAX is no 32-bit hash). */
static uint64_t hash_of(wire_ctx *ctx, const wire_lfield *f, uint32_t n) {
  uint32_t h;
  if (wire__schema_hash(ctx, f, n, &h) != WIRE_OK) {
    wire_ctx_clear_error(ctx);
    return UINT64_MAX;
  }
  return h;
}

static uint64_t hash_with(wire_ctx *ctx, const wire_layout *l,
                          wire_lfield *tmp, uint32_t skip, uint32_t flip,
                          wire_ftype *ft, int what) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < l->nfields; i++) {
    if (i == skip) continue;
    tmp[n] = l->fields[i];
    if (i == flip) {
      *ft = *l->fields[i].type;
      if (what & 1) ft->nullable = !ft->nullable;
      if (what & 2) ft->ref = !ft->ref;
      if (what & 4) ft->ref = 0;
      tmp[n].type = ft;
    }
    n++;
  }
  return hash_of(ctx, tmp, n);
}

void wire__hash_hint(wire_ctx *ctx, const wire_layout *l, uint32_t got,
                     char *buf, size_t cap) {
  buf[0] = 0;
  uint8_t b0 = (uint8_t)got;
  if (b0 == WIRE_T_NAMED_STRUCT || b0 == WIRE_T_STRUCT) {
    /* type meta where the hash should be (pyfory, errata E-33) */
    snprintf(buf, cap, "; the bytes there look like type meta (type id %u, "
                       "%s) - pyfory writes it before a nested struct field "
                       "(spec/errata.md E-33; WIRE_OPT_PEER, --peer pyfory)",
             b0, wire_type_name(b0));
    return;
  }
  if (!l->nfields) return;
  wire_lfield *tmp = wire__alloc(ctx, l->nfields * sizeof *tmp);
  if (!tmp) return;
  wire_ftype ft;
  char who[96];
  for (uint32_t i = 0; i < l->nfields && !buf[0]; i++) {
    const wire_lfield *f = &l->fields[i];
    if (f->name_len)
      snprintf(who, sizeof who, "\"%.*s\"", (int)(f->name_len > 60 ? 60 : f->name_len),
               (const char *)f->name);
    else
      snprintf(who, sizeof who, "#%d", f->tag);
    for (int what = 1; what <= 3 && !buf[0]; what++)
      if (hash_with(ctx, l, tmp, UINT32_MAX, i, &ft, what) == got)
        snprintf(buf, cap, "; the writer's hash matches field %s with %s%s%s",
                 who,
                 what & 1 ? (f->type->nullable ? "nullable off" : "nullable on") : "",
                 what == 3 ? " and " : "",
                 what & 2 ? (f->type->ref ? "ref off" : "ref on") : "");
    if (!buf[0] && hash_with(ctx, l, tmp, i, UINT32_MAX, &ft, 0) == got)
      snprintf(buf, cap, "; the writer's hash matches the fields without %s", who);
  }
  if (!buf[0]) {
    /* every ref flag left out (Fory Java with reference tracking off) */
    wire_ftype *fts = wire__alloc(ctx, l->nfields * sizeof *fts);
    if (fts) {
      for (uint32_t i = 0; i < l->nfields; i++) {
        tmp[i] = l->fields[i];
        fts[i] = *l->fields[i].type;
        fts[i].ref = 0;
        tmp[i].type = &fts[i];
      }
      if (hash_of(ctx, tmp, l->nfields) == got)
        snprintf(buf, cap, "; the writer's hash leaves out every ref flag "
                           "(Fory Java without reference tracking)");
      wire__free(ctx, fts, l->nfields * sizeof *fts);
    }
  }
  if (!buf[0] && hash_of(ctx, tmp, 0) == got)
    snprintf(buf, cap, "; the writer's hash is that of a struct without fields");
  wire__free(ctx, tmp, l->nfields * sizeof *tmp);
}
