/* gen_c.c - C code for the types of the context's registry
 * (wire_schema_gen_c, `wire gen c`): a header with C structs for the
 * messages, enum constants, the registration function and per message
 * encode / decode entry points; a source that registers the types exactly
 * as the registry holds them and binds each struct to its memory layout
 * (a table of WIRE_MEM_ROW rows, mem_layout.c). Not a hot path. */
#include "gen_c.h"

#include <stdio.h>
#include <stdlib.h>

void wire__sb_put(sb *s, const char *fmt, ...) {
  if (s->bad) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = s->cap - s->len;
    int n = vsnprintf(s->p ? s->p + s->len : NULL, s->p ? room : 0, fmt, ap);
    va_end(ap);
    if (n < 0) { s->bad = true; return; }
    if ((size_t)n < room) { s->len += (size_t)n; return; }
    size_t nc = s->cap ? s->cap * 2 : 4096;
    while (nc < s->len + (size_t)n + 1) nc *= 2;
    char *q = wire__realloc(s->ctx, s->p, s->cap, nc);
    if (!q) { s->bad = true; return; }
    s->p = q;
    s->cap = nc;
  }
}

void wire__sb_cat(sb *d, const sb *s) {
  if (s->len) put(d, "%.*s", (int)s->len, s->p);
  if (s->bad) d->bad = true;
}

/* C name of a type: <prefix>_<name>, or <prefix>_<namespace>_<name> when
 * another type has the same name. */
/* A member name for a schema name: a C keyword gets a trailing '_'. */
const char *wire__gen_member(const char *name, char *buf, size_t cap) {
  static const char *const kw[] = {
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "bool", "true", "false"};
  for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
    if (!strcmp(name, kw[i])) {
      snprintf(buf, cap, "%s_", name);
      return buf;
    }
  return name;
}

/* The member of the presence flag of field k of struct ti: has_<name>,
 * with '_' appended while another field has that name. */
const char *wire__gen_flag(const gen *g, uint32_t ti, uint32_t k, char *buf,
                           size_t cap) {
  const wire_utype *t = &g->r->types[ti];
  snprintf(buf, cap, "has_%s", t->fields[k].name);
  for (bool clash = true; clash;) {
    clash = false;
    for (uint32_t i = 0; i < t->nfields && !clash; i++) {
      char mb[200];
      clash = !strcmp(wire__gen_member(t->fields[i].name, mb, sizeof mb), buf);
    }
    size_t n = strlen(buf);
    if (clash && n + 1 < cap) {
      buf[n] = '_';
      buf[n + 1] = 0;
    } else if (clash) {
      break;
    }
  }
  return buf;
}

void wire__gen_cname(const gen *g, uint32_t ti, char *out, size_t cap) {
  const wire_utype *t = &g->r->types[ti];
  const char *n = t->name;
  for (uint32_t k = 0; k < g->r->ntypes; k++)
    if (k != ti && !strcmp(g->r->types[k].name, t->name)) n = t->full_name;
  int w = snprintf(out, cap, "%s_", g->prefix);
  size_t i = w > 0 && (size_t)w < cap ? (size_t)w : 0;
  for (; *n && i + 1 < cap; n++, i++) {
    char ch = *n;
    bool id = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '_';
    out[i] = id ? ch : '_';
  }
  out[i] = 0;
}

/* The primitive field types: each one's C type and WIRE_MEM_* form. */
typedef struct {
  uint8_t t;
  const char *ctype, *form;
} prim_info;
static const prim_info prims[] = {
    {WIRE_T_BOOL, "uint8_t", "WIRE_MEM_BOOL"},
    {WIRE_T_INT8, "int8_t", "WIRE_MEM_I8"},
    {WIRE_T_INT16, "int16_t", "WIRE_MEM_I16"},
    {WIRE_T_INT32, "int32_t", "WIRE_MEM_I32"},
    {WIRE_T_VARINT32, "int32_t", "WIRE_MEM_I32"},
    {WIRE_T_INT64, "int64_t", "WIRE_MEM_I64"},
    {WIRE_T_VARINT64, "int64_t", "WIRE_MEM_I64"},
    {WIRE_T_TAGGED_INT64, "int64_t", "WIRE_MEM_I64"},
    {WIRE_T_UINT8, "uint8_t", "WIRE_MEM_U8"},
    {WIRE_T_UINT16, "uint16_t", "WIRE_MEM_U16"},
    {WIRE_T_UINT32, "uint32_t", "WIRE_MEM_U32"},
    {WIRE_T_VAR_UINT32, "uint32_t", "WIRE_MEM_U32"},
    {WIRE_T_UINT64, "uint64_t", "WIRE_MEM_U64"},
    {WIRE_T_VAR_UINT64, "uint64_t", "WIRE_MEM_U64"},
    {WIRE_T_TAGGED_UINT64, "uint64_t", "WIRE_MEM_U64"},
    {WIRE_T_FLOAT16, "uint16_t", "WIRE_MEM_BITS16"},
    {WIRE_T_BFLOAT16, "uint16_t", "WIRE_MEM_BITS16"},
    {WIRE_T_FLOAT32, "float", "WIRE_MEM_F32"},
    {WIRE_T_FLOAT64, "double", "WIRE_MEM_F64"},
    {WIRE_T_DATE, "int64_t", "WIRE_MEM_DATE"},
    {WIRE_T_TIMESTAMP, "wire_mem_time", "WIRE_MEM_TIMESTAMP"},
    {WIRE_T_DURATION, "wire_mem_time", "WIRE_MEM_DURATION"},
    {WIRE_T_DECIMAL, "wire_mem_decimal", "WIRE_MEM_DECIMAL"},
};

/* What primitive type t is in C; NULL when t is no primitive. */
static const prim_info *prim_of(uint8_t t) {
  for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
    if (prims[i].t == t) return &prims[i];
  return NULL;
}
static bool packable(uint8_t t) {
  return prim_of(t) && t != WIRE_T_DATE && t != WIRE_T_TIMESTAMP &&
         t != WIRE_T_DURATION && t != WIRE_T_DECIMAL;
}
uint8_t wire__gen_kind_of(const gen *g, const wire_ftype *f) {
  return f->user != WIRE_NO_TYPE ? g->r->types[f->user].kind : 0;
}

/* Whether a value of declared type f has a memory form. */
static bool supported(const gen *g, const wire_ftype *f) {
  if (!f) return false;
  uint8_t k = wire__gen_kind_of(g, f);
  if (k == WIRE_KIND_ENUM) return true;
  if (k == WIRE_KIND_STRUCT || k == WIRE_KIND_UNION) return g->ok[f->user];
  if (k) return false;
  uint8_t t = f->type_id;
  if (prim_of(t) || t == WIRE_T_STRING || t == WIRE_T_BINARY || wire__array_elem_type(t))
    return true;
  if (t == WIRE_T_LIST || t == WIRE_T_SET) return supported(g, f->elem);
  if (t == WIRE_T_MAP) return supported(g, f->key) && supported(g, f->value);
  return false;
}

static void emit_struct(gen *g, uint32_t ti);
static void emit_union(gen *g, uint32_t ti);

static void member(char *out, size_t cap, const char *path, const char *m) {
  if (!*path) snprintf(out, cap, "%s", m);
  else if (!m) snprintf(out, cap, "%s", path);
  else snprintf(out, cap, "%s.%s", path, m);
}

/* A field row for a value described by v, in C type S at member `path`
 * ("" for the whole item), presence flag member `flagm`. */
static void row(sb *out, uint32_t slot, const vinfo *v, const char *S,
                const char *path, const char *flagm) {
  char off[400], aux[400], pres[400], m[300];
  if (v->shape == 1) {
    member(m, sizeof m, path, "ptr");
    snprintf(off, sizeof off, "offsetof(%s, %s)", S, m);
    member(m, sizeof m, path, "len");
    snprintf(aux, sizeof aux, "offsetof(%s, %s)", S, m);
  } else if (v->shape == 2) {
    member(m, sizeof m, path, "items");
    snprintf(off, sizeof off, "offsetof(%s, %s)", S, m);
    member(m, sizeof m, path, "count");
    snprintf(aux, sizeof aux, "offsetof(%s, %s)", S, m);
  } else if (v->shape == 3) {
    /* a union: the struct holding it, and its case id */
    if (*path) snprintf(off, sizeof off, "offsetof(%s, %s)", S, path);
    else snprintf(off, sizeof off, "0");
    member(m, sizeof m, path, "case_id");
    snprintf(aux, sizeof aux, "offsetof(%s, %s)", S, m);
  } else {
    if (*path) snprintf(off, sizeof off, "offsetof(%s, %s)", S, path);
    else snprintf(off, sizeof off, "0");
    snprintf(aux, sizeof aux, "WIRE_MEM_NONE");
  }
  if (v->flag && flagm) snprintf(pres, sizeof pres, "offsetof(%s, %s)", S, flagm);
  else snprintf(pres, sizeof pres, "WIRE_MEM_NONE");
  char el[32];
  if (v->elem >= 0) snprintf(el, sizeof el, "%lldu", (long long)v->elem);
  else snprintf(el, sizeof el, "WIRE_MEM_NONE");
  put(out, "  WIRE_MEM_ROW_FIELD, %u, %s, (uint32_t)%s, (uint32_t)%s,\n"
           "    (uint32_t)%s, %s, 0,\n", slot, v->form, off, aux, pres, el);
}

static bool flag_needed(const gen *g, const wire_ftype *f) {
  if (!f->nullable) return false;
  uint8_t k = wire__gen_kind_of(g, f);
  if (k == WIRE_KIND_STRUCT) return false;
  uint8_t t = f->type_id;
  return !(t == WIRE_T_STRING || t == WIRE_T_BINARY || t == WIRE_T_LIST ||
           t == WIRE_T_SET || t == WIRE_T_MAP || wire__array_elem_type(t));
}

/* A lasting copy of v (freed with the generation). */
static vinfo *vkeep(gen *g, const vinfo *v) {
  vinfo *k = wire__alloc(g->ctx, sizeof *k);
  if (!k) {
    g->nomem = true;
    return NULL;
  }
  *k = *v;
  k->next = g->vall;
  g->vall = k;
  return k;
}

static void val(gen *g, const wire_ftype *f, vinfo *v) {
  memset(v, 0, sizeof *v);
  v->elem = -1;
  v->flag = flag_needed(g, f);
  uint8_t k = wire__gen_kind_of(g, f);
  char nm[160];
  if (k == WIRE_KIND_ENUM) {
    snprintf(v->ctype, sizeof v->ctype, "uint32_t");
    v->form = "WIRE_MEM_ENUM";
    return;
  }
  if (k == WIRE_KIND_UNION) {
    wire__gen_cname(g, f->user, nm, sizeof nm);
    v->elem = g->layout_of[f->user];
    if (g->state[f->user] == 0) emit_union(g, f->user);
    snprintf(v->ctype, sizeof v->ctype, "struct %s", nm);
    v->form = "WIRE_MEM_UNION";
    v->shape = 3;
    return;
  }
  if (k == WIRE_KIND_STRUCT) {
    wire__gen_cname(g, f->user, nm, sizeof nm);
    v->elem = g->layout_of[f->user];
    if (!f->nullable && !f->ref && g->state[f->user] == 0) emit_struct(g, f->user);
    if (f->nullable || f->ref || g->state[f->user] != 2) {
      snprintf(v->ctype, sizeof v->ctype, "const struct %s *", nm);
      v->form = "WIRE_MEM_STRUCT_PTR";
    } else {
      snprintf(v->ctype, sizeof v->ctype, "struct %s", nm);
      v->form = "WIRE_MEM_STRUCT";
    }
    return;
  }
  uint8_t t = f->type_id;
  const prim_info *pi = prim_of(t);
  if (pi) {
    snprintf(v->ctype, sizeof v->ctype, "%s", pi->ctype);
    v->form = pi->form;
    return;
  }
  if (t == WIRE_T_STRING || t == WIRE_T_BINARY) {
    snprintf(v->ctype, sizeof v->ctype, "%s_%s", g->prefix,
             t == WIRE_T_STRING ? "str" : "bytes");
    v->form = t == WIRE_T_STRING ? "WIRE_MEM_STR" : "WIRE_MEM_BYTES";
    v->shape = 1;
    return;
  }
  uint32_t id = g->nhelper++;
  v->shape = 2;
  char it[240];
  if (wire__array_elem_type(t) || ((t == WIRE_T_LIST || t == WIRE_T_SET) &&
                        packable(f->elem->type_id) && !f->elem->nullable &&
                        !f->elem->ref && !wire__gen_kind_of(g, f->elem))) {
    uint8_t e = wire__array_elem_type(t) ? wire__array_elem_type(t) : f->elem->type_id;
    snprintf(it, sizeof it, "%s", prim_of(e)->ctype);
    v->form = "WIRE_MEM_ARRAY";
  } else if (t == WIRE_T_MAP) {
    vinfo kv, vv;
    val(g, f->key, &kv);
    val(g, f->value, &vv);
    snprintf(it, sizeof it, "%s_entry%u", g->prefix, id);
    put(&g->pre, "typedef struct {\n  %s key;\n", kv.ctype);
    if (kv.flag) put(&g->pre, "  uint8_t has_key;\n");
    put(&g->pre, "  %s value;\n", vv.ctype);
    if (vv.flag) put(&g->pre, "  uint8_t has_value;\n");
    put(&g->pre, "} %s;\n", it);
    v->elem = g->nstructs + g->nelem++;
    put(&g->erows, "  WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, (uint32_t)sizeof(%s), 0, 0, 0, 0, 0,\n", it);
    row(&g->erows, 0, &kv, it, "key", "has_key");
    row(&g->erows, 1, &vv, it, "value", "has_value");
    v->form = "WIRE_MEM_MAP";
    v->sub[0] = vkeep(g, &kv);
    v->sub[1] = vkeep(g, &vv);
  } else {
    vinfo ev;
    val(g, f->elem, &ev);
    v->form = "WIRE_MEM_LIST";
    if (!strcmp(ev.form, "WIRE_MEM_STRUCT")) {
      snprintf(it, sizeof it, "%s", ev.ctype);
      v->elem = ev.elem;
    } else {
      if (ev.flag) {
        snprintf(it, sizeof it, "%s_item%u", g->prefix, id);
        put(&g->pre, "typedef struct {\n  %s value;\n  uint8_t has_value;\n} %s;\n",
            ev.ctype, it);
      } else {
        snprintf(it, sizeof it, "%s", ev.ctype);
      }
      v->elem = g->nstructs + g->nelem++;
      put(&g->erows, "  WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, (uint32_t)sizeof(%s), 0, 0, 0, 0, 0,\n", it);
      row(&g->erows, 0, &ev, it, ev.flag ? "value" : "", "has_value");
    }
    v->sub[0] = vkeep(g, &ev);
  }
  snprintf(v->item, sizeof v->item, "%s", it);
  snprintf(v->ctype, sizeof v->ctype, "%s_seq%u", g->prefix, id);
  put(&g->pre, "typedef struct {\n  %s const *items;\n  uint32_t count;\n} %s;\n",
      it, v->ctype);
}

static void emit_struct(gen *g, uint32_t ti) {
  wire_utype *t = &g->r->types[ti];
  g->state[ti] = 1;
  char nm[160];
  wire__gen_cname(g, ti, nm, sizeof nm);
  sb body = {g->ctx, NULL, 0, 0, false};
  sb *rows = &g->rows_of[ti];
  put(rows, "  /* %u: %s */\n  WIRE_MEM_ROW_LAYOUT, %u, (uint32_t)sizeof(struct %s), 0, 0, 0, 0, 0,\n",
      g->layout_of[ti], t->full_name, ti, nm);
  put(&body, "struct %s {\n", nm);
  uint32_t members = 0;
  for (uint32_t i = 0; i < t->nfields; i++) {
    const wire_field *f = &t->fields[i];
    if (!supported(g, f->type)) {
      put(&body, "  /* %s: no memory form (written as null) */\n", f->name);
      continue;
    }
    vinfo v;
    val(g, f->type, &v);
    g->fv[ti][i] = vkeep(g, &v);
    char mb[200];
    const char *mn = wire__gen_member(f->name, mb, sizeof mb);
    put(&body, "  %s %s;\n", v.ctype, mn);
    char fl[200];
    wire__gen_flag(g, ti, i, fl, sizeof fl);
    if (v.flag) put(&body, "  uint8_t %s;\n", fl);
    char S[200];
    snprintf(S, sizeof S, "struct %s", nm);
    row(rows, i, &v, S, mn, fl);
    members++;
  }
  if (!members) put(&body, "  uint8_t unused_;\n");
  put(&body, "};\n\n");
  sb_cat(&g->h, &g->pre);
  g->pre.len = 0;
  sb_cat(&g->h, &body);
  wire__free(g->ctx, body.p, body.cap);
  g->state[ti] = 2;
}

/* A union: the case id beside a C union of the cases (struct cases by
 * pointer, so that a union never needs a struct to be complete). */
static void emit_union(gen *g, uint32_t ti) {
  wire_utype *t = &g->r->types[ti];
  g->state[ti] = 1;
  char nm[160];
  wire__gen_cname(g, ti, nm, sizeof nm);
  sb body = {g->ctx, NULL, 0, 0, false};
  sb *rows = &g->rows_of[ti];
  char S[200];
  snprintf(S, sizeof S, "struct %s", nm);
  put(rows, "  /* %u: union %s */\n  WIRE_MEM_ROW_LAYOUT, %u, (uint32_t)sizeof(struct %s), 0, 0, 0, 0, 0,\n",
      g->layout_of[ti], t->full_name, ti, nm);
  put(&body, "/* union %s: case_id says which member of value holds the value */\n",
      t->full_name);
  for (uint32_t k = 0; k < t->ncases; k++)
    put(&body, "#define %s_%s %uu\n", nm, t->cases[k].name, t->cases[k].case_id);
  put(&body, "struct %s {\n  uint32_t case_id;\n  union {\n", nm);
  for (uint32_t k = 0; k < t->ncases; k++) {
    const wire_ftype *cf = t->cases[k].type;
    vinfo v;
    if (wire__gen_kind_of(g, cf) == WIRE_KIND_STRUCT) {
      char cn[160];
      memset(&v, 0, sizeof v);
      wire__gen_cname(g, cf->user, cn, sizeof cn);
      snprintf(v.ctype, sizeof v.ctype, "const struct %s *", cn);
      v.form = "WIRE_MEM_STRUCT_PTR";
      v.elem = g->layout_of[cf->user];
    } else {
      val(g, cf, &v);
    }
    char mb[200];
    const char *mn = wire__gen_member(t->cases[k].name, mb, sizeof mb);
    put(&body, "    %s %s;\n", v.ctype, mn);
    char path[300];
    snprintf(path, sizeof path, "value.%s", mn);
    row(rows, k, &v, S, path, NULL);
  }
  put(&body, "  } value;\n};\n\n");
  sb_cat(&g->h, &g->pre);
  g->pre.len = 0;
  sb_cat(&g->h, &body);
  wire__free(g->ctx, body.p, body.cap);
  g->state[ti] = 2;
}

static const char *kind_name(uint8_t k) {
  switch (k) {
  case WIRE_KIND_STRUCT: return "WIRE_KIND_STRUCT";
  case WIRE_KIND_ENUM: return "WIRE_KIND_ENUM";
  case WIRE_KIND_UNION: return "WIRE_KIND_UNION";
  default: return "WIRE_KIND_EXT";
  }
}

static void cstr(sb *s, const char *p) {
  put(s, "\"");
  for (; *p; p++) {
    unsigned char ch = (unsigned char)*p;
    if (ch == '"' || ch == '\\') put(s, "\\%c", ch);
    else if (ch < 0x20 || ch >= 0x7f) put(s, "\\%03o", ch);
    else put(s, "%c", ch);
  }
  put(s, "\"");
}

/* Registration of one field type: a C expression building it, into `s`
 * as statements assigning variable ft<n>; returns n. */
static uint32_t reg_ftype(gen *g, sb *s, const wire_ftype *f, uint32_t *nvar) {
  uint32_t n = (*nvar)++;
  if (f->user != WIRE_NO_TYPE)
    put(s, "  ft[%u] = wire_schema_field_user_type(ctx, w->type[%u], %d, %d);\n",
        n, f->user, f->nullable, f->ref);
  else
    put(s, "  ft[%u] = wire_schema_field_type(ctx, %u, %d, %d);\n", n, f->type_id,
        f->nullable, f->ref);
  put(s, "  if (!ft[%u]) return WIRE_E_NOMEM;\n", n);
  if (f->elem && (f->type_id == WIRE_T_LIST || f->type_id == WIRE_T_SET)) {
    uint32_t e = reg_ftype(g, s, f->elem, nvar);
    put(s, "  if ((st = wire_schema_field_type_set_element(ft[%u], ft[%u]))) return st;\n", n, e);
  }
  if (f->key && f->value) {
    uint32_t k = reg_ftype(g, s, f->key, nvar);
    uint32_t v = reg_ftype(g, s, f->value, nvar);
    put(s, "  if ((st = wire_schema_field_type_set_key_value(ft[%u], ft[%u], ft[%u]))) return st;\n",
        n, k, v);
  }
  return n;
}

static uint32_t ftype_nodes(const wire_ftype *f) {
  if (!f) return 0;
  return 1 + ftype_nodes(f->elem) + ftype_nodes(f->key) + ftype_nodes(f->value);
}

/* Which types get a C struct (g->ok): structs whose non-nullable fields
 * all have a memory form, unions whose cases all have one (no case of
 * union type or of a named enum); and their layout indexes. */
static void choose_types(gen *g) {
  const wire_registry *r = g->r;
  uint32_t nt = r->ntypes;
  for (uint32_t i = 0; i < nt; i++) {
    g->ok[i] = r->types[i].kind == WIRE_KIND_STRUCT ||
              (r->types[i].kind == WIRE_KIND_UNION && r->types[i].ncases);
    g->rows_of[i].ctx = g->ctx;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < nt; i++) {
      if (!g->ok[i]) continue;
      const wire_utype *t = &r->types[i];
      for (uint32_t k = 0; k < t->nfields; k++)
        if (!t->fields[k].type->nullable && !supported(g, t->fields[k].type)) {
          g->ok[i] = 0;
          changed = true;
          break;
        }
      for (uint32_t k = 0; k < t->ncases && g->ok[i]; k++) {
        const wire_ftype *cf = t->cases[k].type;
        uint8_t ck = wire__gen_kind_of(g, cf);
        if (!supported(g, cf) || ck == WIRE_KIND_UNION ||
            (ck == WIRE_KIND_ENUM && r->types[cf->user].by_name)) {
          g->ok[i] = 0;
          changed = true;
        }
      }
    }
  }
  for (uint32_t i = 0; i < nt; i++)
    g->layout_of[i] = g->ok[i] ? g->nstructs++ : UINT32_MAX;
}

/* The package prefix: the given one, else the first type's namespace,
 * else the base name, as a C identifier. */
static void set_prefix(gen *g, const char *base, const char *prefix) {
  const wire_registry *r = g->r;
  const char *ns = prefix && *prefix ? prefix
                   : r->types[0].ns && *r->types[0].ns ? r->types[0].ns : base;
  size_t i = 0;
  for (; ns[i] && i + 1 < sizeof g->prefix; i++) {
    char ch = ns[i];
    bool id = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
              (ch >= '0' && ch <= '9') || ch == '_';
    g->prefix[i] = id ? ch : '_';
  }
  g->prefix[i] = 0;
}

/* The header: version check, enums, structs, the <prefix>_wire table and
 * the prototypes (the straight-line code is prepared on the way). */
static void write_header(gen *g, const char *base) {
  const wire_registry *r = g->r;
  uint32_t nt = r->ntypes;
  char guard[160];
  {
    size_t i = 0;
    for (; base[i] && i + 1 < sizeof guard - 8; i++) {
      char ch = base[i];
      guard[i] = (ch >= 'a' && ch <= 'z') ? (char)(ch - 32)
               : ((ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')) ? ch : '_';
    }
    memcpy(guard + i, "_WIRE_H", 8);
  }
  const char *P = g->prefix;
  sb *h = &g->h;
  put(h, "/* %s.wire.h - generated by `wire gen c` (libwire %d.%d.%d). Do not edit. */\n",
      base, WIRE_VERSION_MAJOR, WIRE_VERSION_MINOR, WIRE_VERSION_PATCH);
  put(h, "#ifndef %s\n#define %s\n\n#include <stddef.h>\n#include <stdint.h>\n\n#include <wire.h>\n\n", guard, guard);
  put(h, "#if !defined(WIRE_VERSION_MAJOR) || WIRE_VERSION_MAJOR != %d || \\\n"
         "    WIRE_VERSION_MINOR != %d || WIRE_VERSION_PATCH != %d\n"
         "#error \"%s.wire.h was generated for libwire %d.%d.%d: regenerate it with this libwire's `wire gen c`\"\n#endif\n\n",
      WIRE_VERSION_MAJOR, WIRE_VERSION_MINOR, WIRE_VERSION_PATCH, base,
      WIRE_VERSION_MAJOR, WIRE_VERSION_MINOR, WIRE_VERSION_PATCH);
  put(h, "#define %s_WIRE_VERSION %du\n\n", P,
      WIRE_VERSION_MAJOR * 10000 + WIRE_VERSION_MINOR * 100 + WIRE_VERSION_PATCH);
  put(h, "/* Strings: UTF-8, not NUL-terminated. */\n"
         "typedef struct { const char *ptr; uint32_t len; } %s_str;\n"
         "typedef struct { const uint8_t *ptr; uint32_t len; } %s_bytes;\n\n", P, P);
  /* enums */
  for (uint32_t i = 0; i < nt; i++) {
    const wire_utype *t = &r->types[i];
    if (t->kind != WIRE_KIND_ENUM) continue;
    char nm[160];
    wire__gen_cname(g, i, nm, sizeof nm);
    put(h, "/* enum %s (held as uint32_t) */\n", t->full_name);
    for (uint32_t k = 0; k < t->nvalues; k++)
      put(h, "#define %s_%s %uu\n", nm, t->values[k].name, t->values[k].value);
    put(h, "\n");
  }
  for (uint32_t i = 0; i < nt; i++) {
    const wire_utype *t = &r->types[i];
    char nm[160];
    wire__gen_cname(g, i, nm, sizeof nm);
    if ((t->kind == WIRE_KIND_UNION || t->kind == WIRE_KIND_EXT) && !g->ok[i])
      put(h, "/* %s %s: no memory form in this version (fields of its type "
             "are left out) */\n", t->kind == WIRE_KIND_UNION ? "union" : "ext",
          t->full_name);
    if (g->ok[i]) put(h, "typedef struct %s %s;\n", nm, nm);
  }
  put(h, "\n");
  for (uint32_t i = 0; i < nt; i++)
    if (g->ok[i] && g->state[i] == 0) {
      if (r->types[i].kind == WIRE_KIND_UNION) emit_union(g, i);
      else emit_struct(g, i);
    }
  wire__gen_code_prepare(g);
  put(h, "/* Type and layout indexes in a context, set by %s_register. */\n"
         "typedef struct {\n  uint32_t type[%u];\n  uint32_t layout[%u];\n",
      P, nt, g->nstructs + g->nelem + 1);
  wire__gen_code_fields(g, h);
  put(h, "} %s_wire;\n\n", P);
  put(h, "/* Registers the schema's types on ctx (then wire_schema_finish) and\n"
         " * binds each message to its C struct. */\n"
         "int32_t %s_register(wire_ctx *ctx, %s_wire *w);\n\n", P, P);
  for (uint32_t i = 0; i < nt; i++) {
    if (!g->ok[i] || r->types[i].kind != WIRE_KIND_STRUCT) continue;
    char nm[160];
    wire__gen_cname(g, i, nm, sizeof nm);
    put(h, "/* %s: encode one root value; *out is valid until the next wire_mem_*\n"
           " * call on ctx. Decode: lists and copies go to arena (wire_mem_decode). */\n",
        r->types[i].full_name);
    put(h, "int32_t %s_encode(wire_ctx *ctx, const %s_wire *w, const %s *value,\n"
           "    const uint8_t **out, size_t *out_len);\n", nm, P, nm);
    put(h, "int32_t %s_decode(wire_ctx *ctx, const %s_wire *w, const uint8_t *data,\n"
           "    size_t len, %s *out, uint8_t *arena, size_t arena_cap,\n"
           "    size_t *arena_used, uint32_t flags);\n", nm, P, nm);
    if (g->sl[0] && g->sl[1])
      put(h, "/* Modes with straight-line code (1 same-schema, 2 compatible); the\n"
             " * rest goes through wire_mem_encode / wire_mem_decode. */\n"
             "#define %s_STRAIGHT %du\n\n", nm, g->sl[0][i] | g->sl[1][i] << 1);
  }
  put(h, "#endif\n");
}

/* The source's first lines and the layout table. */
static void write_rows(gen *g, sb *c, const char *base) {
  uint32_t nt = g->r->ntypes;
  const char *P = g->prefix;
  put(c, "/* %s.wire.c - generated by `wire gen c` (libwire %d.%d.%d). Do not edit. */\n"
         "#include \"%s.wire.h\"\n\n#include <string.h>\n\n", base, WIRE_VERSION_MAJOR,
      WIRE_VERSION_MINOR, WIRE_VERSION_PATCH, base);
  put(c, "/* Layouts: struct layouts first (by type), then element layouts;\n"
         " * a layout row's type is the index into w->type. */\n"
         "static const uint32_t %s_rows[] = {\n", P);
  for (uint32_t li = 0; li < g->nstructs; li++)
    for (uint32_t i = 0; i < nt; i++)
      if (g->layout_of[i] == li) sb_cat(c, &g->rows_of[i]);
  sb_cat(c, &g->erows);
  put(c, "  0, 0, 0, 0, 0, 0, 0, 0\n};\n\n");
}

/* <prefix>_register: the types, enum values, fields and union cases, then
 * the layout table bound to the context. */
static void write_register(gen *g, sb *c) {
  wire_ctx *ctx = g->ctx;
  const wire_registry *r = g->r;
  uint32_t nt = r->ntypes;
  const char *P = g->prefix;
  uint32_t nft = 1;
  for (uint32_t i = 0; i < nt; i++) {
    const wire_utype *t = &r->types[i];
    for (uint32_t k = 0; k < t->nfields; k++) nft += ftype_nodes(t->fields[k].type);
    for (uint32_t k = 0; k < t->ncases; k++) nft += ftype_nodes(t->cases[k].type);
  }
  put(c, "int32_t %s_register(wire_ctx *ctx, %s_wire *w) {\n"
         "  int32_t st;\n  wire_field_type *ft[%u];\n  uint32_t nft = 0;\n"
         "  if (!ctx || !w) return WIRE_E_ARG;\n"
         "  if (wire_version_number() != %s_WIRE_VERSION) return WIRE_E_STATE;\n",
      P, P, nft, P);
  for (uint32_t i = 0; i < nt; i++) {
    const wire_utype *t = &r->types[i];
    put(c, "  if ((st = wire_schema_add_type(ctx, %s, ", kind_name(t->kind));
    if (t->by_name) put(c, "WIRE_BY_NAME");
    else put(c, "%uu", t->user_id);
    put(c, ", ");
    cstr(c, t->ns ? t->ns : "");
    put(c, ", %zu, ", t->ns ? strlen(t->ns) : 0);
    cstr(c, t->name);
    put(c, ", %zu, %d, &w->type[%u]))) return st;\n", strlen(t->name),
        t->evolving ? 1 : 0, i);
  }
  for (uint32_t i = 0; i < nt; i++) {
    const wire_utype *t = &r->types[i];
    for (uint32_t k = 0; k < t->nvalues; k++) {
      put(c, "  if ((st = wire_schema_add_enum_value(ctx, w->type[%u], ", i);
      cstr(c, t->values[k].name);
      put(c, ", %zu, %uu))) return st;\n", strlen(t->values[k].name),
          t->values[k].value);
    }
    uint32_t nvar = 0;
    for (uint32_t k = 0; k < t->nfields; k++) {
      sb tmp = {ctx, NULL, 0, 0, false};
      uint32_t base_var = nvar;
      uint32_t v = reg_ftype(g, &tmp, t->fields[k].type, &nvar);
      (void)base_var;
      sb_cat(c, &tmp);
      wire__free(ctx, tmp.p, tmp.cap);
      put(c, "  if ((st = wire_schema_add_field(ctx, w->type[%u], ", i);
      cstr(c, t->fields[k].name);
      put(c, ", %zu, %d, ft[%u]))) return st;\n", strlen(t->fields[k].name),
          t->fields[k].tag, v);
      nvar = 0;
    }
    for (uint32_t k = 0; k < t->ncases; k++) {
      sb tmp = {ctx, NULL, 0, 0, false};
      uint32_t v = reg_ftype(g, &tmp, t->cases[k].type, &nvar);
      sb_cat(c, &tmp);
      wire__free(ctx, tmp.p, tmp.cap);
      put(c, "  if ((st = wire_schema_add_union_case(ctx, w->type[%u], %uu, ", i,
          t->cases[k].case_id);
      cstr(c, t->cases[k].name);
      put(c, ", %zu, ft[%u]))) return st;\n", strlen(t->cases[k].name), v);
      nvar = 0;
    }
  }
  put(c, "  (void)nft;\n  if ((st = wire_schema_finish(ctx))) return st;\n");
  put(c, "  /* the layout table, with type numbers mapped to this context's */\n"
         "  uint32_t cur = 0, first = 0, n = 0;\n"
         "  for (size_t i = 0; %s_rows[i * WIRE_MEM_ROW]; i++) {\n"
         "    const uint32_t *r = %s_rows + i * WIRE_MEM_ROW;\n"
         "    if (r[0] == WIRE_MEM_ROW_LAYOUT) {\n"
         "      st = wire_mem_layout_new(ctx, r[1] == WIRE_MEM_ELEMENT ? r[1] : w->type[r[1]], r[2], &cur);\n"
         "      if (n == 0) first = cur;\n"
         "      w->layout[n++] = cur;\n"
         "    } else {\n"
         "      st = wire_mem_layout_field(ctx, cur, r[1], r[2], r[3], r[4], r[5],\n"
         "                                 r[6] == WIRE_MEM_NONE ? r[6] : first + r[6]);\n"
         "    }\n"
         "    if (st) return st;\n  }\n", P, P);
  if (g->nstructs)
    put(c, "  for (uint32_t i = 0; i < %uu; i++)\n"
           "    if ((st = wire_mem_bind(ctx, w->layout[i]))) return st;\n",
        g->nstructs);
  wire__gen_code_register(g, c);
  put(c, "  (void)ft;\n  (void)first;\n  return WIRE_OK;\n}\n\n");
}

/* Frees what the generation allocated, c's text included. */
static void gen_free(gen *g, sb *c) {
  wire_ctx *ctx = g->ctx;
  const wire_registry *r = g->r;
  uint32_t nt = r->ntypes;
  if (g->rows_of)
    for (uint32_t i = 0; i < nt; i++) wire__free(ctx, g->rows_of[i].p, g->rows_of[i].cap);
  wire__free(ctx, g->rows_of, nt * sizeof *g->rows_of);
  for (uint32_t i = 0; g->fv && i < nt; i++)
    wire__free(ctx, g->fv[i], (r->types[i].nfields ? r->types[i].nfields : 1) *
                                 sizeof **g->fv);
  wire__free(ctx, g->fv, nt * sizeof *g->fv);
  wire__free(ctx, g->sl[0], nt ? nt : 1);
  wire__free(ctx, g->sl[1], nt ? nt : 1);
  while (g->vall) {
    vinfo *nx = g->vall->next;
    wire__free(ctx, g->vall, sizeof *g->vall);
    g->vall = nx;
  }
  wire__free(ctx, g->ok, nt);
  wire__free(ctx, g->state, nt);
  wire__free(ctx, g->layout_of, nt * sizeof *g->layout_of);
  wire__free(ctx, g->h.p, g->h.cap);
  wire__free(ctx, g->pre.p, g->pre.cap);
  wire__free(ctx, g->erows.p, g->erows.cap);
  wire__free(ctx, c->p, c->cap);
}

int32_t wire_schema_gen_c(wire_ctx *ctx, const char *base, const char *prefix,
                          wire_text_fn header, wire_text_fn source,
                          void *user) {
  if (!ctx || !base || !header || !source) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_registry *r = ctx->reg;
  if (!r || !r->ntypes) return wire__fail(ctx, WIRE_E_ARG, 0, "no types");
  int32_t st = wire__reg_finish(ctx);
  if (st) return st;
  gen g;
  memset(&g, 0, sizeof g);
  g.ctx = ctx;
  g.r = r;
  g.h.ctx = g.pre.ctx = g.erows.ctx = ctx;
  uint32_t nt = r->ntypes;
  g.ok = wire__alloc(ctx, nt);
  g.state = wire__alloc(ctx, nt);
  g.layout_of = wire__alloc(ctx, nt * sizeof *g.layout_of);
  g.rows_of = wire__alloc(ctx, nt * sizeof *g.rows_of);
  if (g.rows_of) memset(g.rows_of, 0, nt * sizeof *g.rows_of);
  g.fv = wire__alloc(ctx, nt * sizeof *g.fv);
  if (g.fv) memset(g.fv, 0, nt * sizeof *g.fv);
  for (uint32_t i = 0; g.fv && i < nt; i++) {
    uint32_t nf = r->types[i].nfields ? r->types[i].nfields : 1;
    g.fv[i] = wire__alloc(ctx, nf * sizeof **g.fv);
    if (!g.fv[i]) g.nomem = true;
    else memset(g.fv[i], 0, nf * sizeof **g.fv);
  }
  sb c = {ctx, NULL, 0, 0, false};
  if (!g.ok || !g.state || !g.layout_of || !g.rows_of || !g.fv || g.nomem) {
    st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    goto done;
  }
  memset(g.state, 0, nt);
  choose_types(&g);
  set_prefix(&g, base, prefix);
  write_header(&g, base);
  write_rows(&g, &c, base);
  wire__gen_code_tds(&g, &c);
  write_register(&g, &c);
  wire__gen_code(&g, &c);
  if (g.h.bad || c.bad || g.pre.bad || g.erows.bad || g.nomem) {
    st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    goto done;
  }
  if ((st = header(user, g.h.p, g.h.len)) || (st = source(user, c.p, c.len)))
    goto done;
  st = WIRE_OK;
done:
  gen_free(&g, &c);
  return st;
}
