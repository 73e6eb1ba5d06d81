/* notation_parse.c - the value notation (spec/notation.md) to document
 * nodes: the JSON text is read into a tree (json.c), then each node object
 * is built by the function for its type key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "notation.h"

#define MAX_TDS 256

typedef struct {
  const char *name;
  uint32_t len;
  wire_node *node;
} anchor;

typedef struct {
  wire_ctx *ctx;
  wire_doc *doc;
  uint32_t flags;
  wire_arena *tmp;  /* scratch for this parse (the JSON tree's arena) */
  anchor *anchors;  /* open-addressing table, cap a power of two */
  size_t nanchors, cap;
  uint32_t depth;
  /* a struct node per TypeDef of this document, in pre-order: a struct's
   * TypeDef is numbered before those of its fields, as printed */
  wire_node *tds[MAX_TDS];
  size_t ntds;
} parser;

static int32_t perr(parser *p, const wj *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int32_t perr(parser *p, const wj *at, const char *fmt, ...) {
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return wire__fail(p->ctx, WIRE_E_NOTATION, at ? at->off : 0, "%s", msg);
}

/* A builder refused a value: class notation (the value cannot be written
 * as asked) with the builder's message, at this JSON offset. */
static int32_t berr(parser *p, const wj *at) {
  int32_t code = p->ctx->err_code == WIRE_E_NOMEM || !p->ctx->err_code
                     ? WIRE_E_NOMEM
                     : WIRE_E_NOTATION;
  char msg[256];
  snprintf(msg, sizeof msg, "%s", p->ctx->err_msg);
  return wire__fail(p->ctx, code, at ? at->off : 0, "%s", msg);
}

static bool is_str(const wj *v) { return v && v->kind == WJ_STRING; }
static bool str_is(const wj *v, const char *s) {
  return is_str(v) && v->n == strlen(s) && wire__eq(v->u.s, s, v->n);
}
/* A string value as a NUL-free C view for messages. */
static int vlen(const wj *v) { return is_str(v) ? (int)(v->n > 80 ? 80 : v->n) : 1; }
static const char *vtext(const wj *v) { return is_str(v) ? v->u.s : "?"; }

static const char *const annotations[] = {
    "anchor", "tracked", "enc", "header", "chunks", "ns_enc", "name_enc",
    "ns_hash", "name_hash", "ns_xref", "name_xref", "ns_again", "name_again",
    "approx", "iso", "band", "oob", NULL};

static bool is_annotation(const char *k, size_t n) {
  for (int i = 0; annotations[i]; i++)
    if (strlen(annotations[i]) == n && memcmp(k, annotations[i], n) == 0)
      return true;
  return false;
}

/* ---- anchors --------------------------------------------------------------- */

static uint64_t name_hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
  return h;
}

static anchor *anchor_slot(parser *p, const char *s, size_t n) {
  size_t mask = p->cap - 1;
  for (size_t i = name_hash(s, n) & mask;; i = (i + 1) & mask) {
    anchor *a = &p->anchors[i];
    if (!a->name || (a->len == n && wire__eq(a->name, s, n))) return a;
  }
}

static int32_t anchor_put(parser *p, const wj *v, wire_node *node) {
  if (2 * (p->nanchors + 1) > p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 64;
    anchor *old = p->anchors;
    size_t old_cap = p->cap;
    p->anchors = wire__alloc(p->ctx, cap * sizeof *old);
    if (!p->anchors) {
      p->anchors = old;
      return wire__fail(p->ctx, WIRE_E_NOMEM, v->off, "out of memory");
    }
    memset(p->anchors, 0, cap * sizeof *old);
    p->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].name) *anchor_slot(p, old[i].name, old[i].len) = old[i];
    wire__free(p->ctx, old, old_cap * sizeof *old);
  }
  anchor *a = anchor_slot(p, v->u.s, v->n);
  if (a->name)
    return perr(p, v, "anchor \"%.*s\" defined twice", vlen(v), vtext(v));
  *a = (anchor){v->u.s, v->n, node};
  p->nanchors++;
  return WIRE_OK;
}

static wire_node *anchor_get(parser *p, const wj *v) {
  if (!p->cap) return NULL;
  anchor *a = anchor_slot(p, v->u.s, v->n);
  return a->name ? a->node : NULL;
}

/* "anchor" and "tracked" of a node object. */
static int32_t remember(parser *p, const wj *j, wire_node *n) {
  wj *a = wire__json_get(j, "anchor"), *tr = wire__json_get(j, "tracked");
  if (tr) {
    if (tr->kind != WJ_TRUE && tr->kind != WJ_FALSE)
      return perr(p, tr, "\"tracked\" must be a boolean");
    wire_node_set_tracked(n, tr->kind == WJ_TRUE);
  }
  if (!a) return WIRE_OK;
  if (!is_str(a)) return perr(p, a, "\"anchor\" must be a string");
  int32_t st = anchor_put(p, a, n);
  if (!st) wire_node_set_tracked(n, 1);
  return st;
}

/* ---- wire-choice annotations ------------------------------------------------ */

/* "band" of a binary or dense array and "oob" of a root (N-3, R-OOB-6). */
static int32_t oob_annotations(parser *p, const wj *j, int32_t t,
                               wire_node *n) {
  wj *b = wire__json_get(j, "band"), *o = wire__json_get(j, "oob");
  if (b) {
    if (t != WIRE_T_BINARY && !wire_type_array_width((uint32_t)t))
      return perr(p, b, "\"band\" is for binaries and dense arrays");
    if (!str_is(b, "in") && !str_is(b, "out"))
      return perr(p, b, "\"band\" takes \"in\" or \"out\"");
    wire_node_set_band(n, str_is(b, "out") ? WIRE_BAND_OUT : WIRE_BAND_IN);
  }
  if (o) {
    if (p->depth != 1) return perr(p, o, "\"oob\" is for root values only");
    if (o->kind != WJ_TRUE && o->kind != WJ_FALSE)
      return perr(p, o, "\"oob\" must be a boolean");
    if (o->kind == WJ_TRUE) n->flags |= WIRE_NF_OOB_ROOT;
  }
  return WIRE_OK;
}

static int32_t msenc(parser *p, const wj *j, const char *key, int32_t *out) {
  wj *v = wire__json_get(j, key);
  *out = -1;
  if (!v) return WIRE_OK;
  for (int32_t e = 0; e < 5; e++)
    if (str_is(v, wire_meta_encoding_name(e))) {
      *out = e;
      return WIRE_OK;
    }
  return perr(p, v, "unknown meta string encoding in \"%s\"", key);
}

/* An encoding that cannot write the (edited) name: dropped under REFIT. */
static bool ms_fits(int32_t msctx, int32_t enc, const uint8_t *s, size_t n) {
  if (enc < 0) return true;
  size_t need;
  uint8_t tmp[1];
  int32_t st = wire_meta_encode(msctx, enc, s, n, tmp, 0, &need);
  return st == WIRE_OK || st == WIRE_E_BUFFER_FULL;
}

static int32_t name_refs(parser *p, const wj *j, wire_node *n, bool strict) {
  int32_t xs = (wire__json_get(j, "ns_xref") &&
                wire__json_get(j, "ns_xref")->kind == WJ_TRUE) |
               ((wire__json_get(j, "ns_again") &&
                 wire__json_get(j, "ns_again")->kind == WJ_TRUE) << 1);
  int32_t xn = (wire__json_get(j, "name_xref") &&
                wire__json_get(j, "name_xref")->kind == WJ_TRUE) |
               ((wire__json_get(j, "name_again") &&
                 wire__json_get(j, "name_again")->kind == WJ_TRUE) << 1);
  if ((xs || xn) && wire_node_set_name_refs(n, xs, xn) != WIRE_OK && strict)
    return perr(p, j, "ns_xref/name_xref/ns_again/name_again on a value "
                      "without names of its own");
  return WIRE_OK;
}

static int32_t name_encodings(parser *p, const wj *j, wire_node *n) {
  int32_t a, b, st;
  /* a struct of the schema gets names of its own only when the notation
   * records a choice for them */
  if ((wire__json_get(j, "ns_again") || wire__json_get(j, "name_again") ||
       wire__json_get(j, "ns_xref") || wire__json_get(j, "name_xref") ||
       wire__json_get(j, "ns_hash") || wire__json_get(j, "name_hash")) &&
      (st = wire__node_own_names(p->doc, n)))
    return berr(p, j);
  if ((st = msenc(p, j, "ns_enc", &a)) || (st = msenc(p, j, "name_enc", &b)))
    return st;
  if ((a >= 0) != (b >= 0))
    return perr(p, j, "give both ns_enc and name_enc or neither");
  if (a >= 0 && (p->flags & WIRE_NOTATION_REFIT)) {
    const uint8_t *ns, *nm;
    size_t nsl, nl;
    if (wire_node_type_names(n, &ns, &nsl, &nm, &nl) == WIRE_OK &&
        (!ms_fits(WIRE_MSCTX_NAMESPACE, a, ns, nsl) ||
         !ms_fits(WIRE_MSCTX_TYPE_NAME, b, nm, nl)))
      a = b = -1;
  }
  if (a >= 0 && wire_node_set_name_encodings(n, a, b) != WIRE_OK)
    return perr(p, j, "ns_enc/name_enc on a value without names");
  wj *hs = wire__json_get(j, "ns_hash"), *hn = wire__json_get(j, "name_hash");
  if ((hs && !is_str(hs)) || (hn && !is_str(hn)))
    return perr(p, hs && !is_str(hs) ? hs : hn,
                "ns_hash/name_hash must be \"raw\" or \"abs\"");
  if ((hs || hn) &&
      wire_node_set_name_hash_forms(n, str_is(hs, "raw"), str_is(hn, "raw")) != WIRE_OK)
    return perr(p, j, "ns_hash/name_hash on a value without names");
  return name_refs(p, j, n, true);
}

/* ---- scalars ------------------------------------------------------------------ */

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Hex text to bytes in the document's arena; NULL if it is not hex. */
static uint8_t *unhex(parser *p, const wj *v, size_t *len) {
  if (!is_str(v) || v->n % 2) return NULL;
  uint8_t *b = wire__arena_alloc(p->tmp, v->n / 2 + 1);
  if (!b) return NULL;
  for (size_t i = 0; i < v->n / 2; i++) {
    int hi = hexval(v->u.s[2 * i]), lo = hexval(v->u.s[2 * i + 1]);
    if (hi < 0 || lo < 0) return NULL;
    b[i] = (uint8_t)(hi << 4 | lo);
  }
  *len = v->n / 2;
  return b;
}

/* A float string: "0x" bits, or a decimal / nan / inf. */
static bool parse_float(uint32_t t, const wj *v, uint64_t *bits) {
  if (!is_str(v) || v->n == 0 || v->n > 64) return false;
  char s[72];
  memcpy(s, v->u.s, v->n);
  s[v->n] = 0;
  if (strlen(s) != v->n) return false;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    uint64_t x = 0;
    size_t nd = v->n - 2;
    if (nd == 0 || nd > 16) return false;
    for (size_t i = 2; i < v->n; i++) {
      int d = hexval(s[i]);
      if (d < 0) return false;
      x = x << 4 | (uint64_t)d;
    }
    uint64_t max = t == WIRE_T_FLOAT64 ? UINT64_MAX
                   : t == WIRE_T_FLOAT32 ? UINT32_MAX : UINT16_MAX;
    if (x > max) return false;
    *bits = x;
    return true;
  }
  double d;
  if (strcmp(s, "nan") == 0) d = NAN;
  else if (strcmp(s, "inf") == 0) d = INFINITY;
  else if (strcmp(s, "-inf") == 0) d = -INFINITY;
  else {
    char *end;
    d = strtod(s, &end);
    if (*end || end == s) return false;
  }
  switch (t) {
  case WIRE_T_FLOAT16: *bits = wire_float16_from_double(d); break;
  case WIRE_T_BFLOAT16: *bits = wire_bfloat16_from_double(d); break;
  case WIRE_T_FLOAT32: {
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    *bits = u;
    break;
  }
  default: memcpy(bits, &d, 8); break;
  }
  return true;
}

static int32_t p_string(parser *p, const wj *j, const wj *v, wire_node **out) {
  if (!is_str(v)) return perr(p, v, "string takes a JSON string");
  int32_t enc = -1;
  wj *e = wire__json_get(j, "enc");
  if (e) {
    enc = str_is(e, "latin1")  ? WIRE_STR_LATIN1
          : str_is(e, "utf16") ? WIRE_STR_UTF16
          : str_is(e, "utf8")  ? WIRE_STR_UTF8
                               : -2;
    if (enc == -2)
      return perr(p, e, "unknown string encoding \"%.*s\"", vlen(e), vtext(e));
  }
  *out = wire_node_new_string(p->doc, (const uint8_t *)v->u.s, v->n, enc);
  if (!*out && enc >= 0 && (p->flags & WIRE_NOTATION_REFIT))
    *out = wire_node_new_string(p->doc, (const uint8_t *)v->u.s, v->n, -1);
  return *out ? WIRE_OK : berr(p, v);
}

static int32_t p_binary(parser *p, const wj *v, wire_node **out) {
  size_t n;
  uint8_t *b = unhex(p, v, &n);
  if (!b) return perr(p, v, "binary takes an even number of hex digits");
  *out = wire_node_new_binary(p->doc, b, n);
  return *out ? WIRE_OK : berr(p, v);
}

static int32_t p_number(parser *p, uint32_t t, const char *key, const wj *v,
                        wire_node **out) {
  if (wire__is_int_type(t)) {
    int64_t i64;
    if (!is_str(v) || !wire__parse_i64(v->u.s, v->n, &i64))
      return perr(p, v, "%s takes a decimal string", key);
    *out = wire_node_new_int(p->doc, t, i64);
  } else if (wire__is_uint_type(t)) {
    uint64_t u;
    if (!is_str(v) || !wire__parse_u64(v->u.s, v->n, &u))
      return perr(p, v, "%s takes a decimal string", key);
    *out = wire_node_new_uint(p->doc, t, u);
  } else {
    uint64_t u;
    if (!parse_float(t, v, &u))
      return perr(p, v, "%s takes \"0x<bits>\" or a decimal string", key);
    *out = wire_node_new_float_bits(p->doc, t, u);
  }
  return *out ? WIRE_OK : berr(p, v);
}

static int32_t p_temporal(parser *p, uint32_t t, const char *key, const wj *v,
                          wire_node **out) {
  int64_t i64, ns;
  if (t == WIRE_T_DATE) {
    if (!is_str(v) || !wire__parse_i64(v->u.s, v->n, &i64))
      return perr(p, v, "date takes days as a decimal string");
    *out = wire_node_new_date(p->doc, i64);
    return *out ? WIRE_OK : berr(p, v);
  }
  wj *s = wire__json_get(v, "seconds"), *n = wire__json_get(v, "nanos");
  if (!v || v->kind != WJ_OBJECT || v->n != 2 || !is_str(s) ||
      !wire__parse_i64(s->u.s, s->n, &i64) ||
      !wire__json_int(n, 0, 999999999, &ns))
    return perr(p, v, "%s takes {\"seconds\": \"…\", \"nanos\": N}", key);
  *out = t == WIRE_T_TIMESTAMP
             ? wire_node_new_timestamp(p->doc, i64, (uint32_t)ns)
             : wire_node_new_duration(p->doc, i64, (uint32_t)ns);
  return *out ? WIRE_OK : berr(p, v);
}

static int32_t p_decimal(parser *p, const wj *v, wire_node **out) {
  wj *us = wire__json_get(v, "unscaled"), *sc = wire__json_get(v, "scale");
  int64_t scale;
  if (!v || v->kind != WJ_OBJECT || !is_str(us) ||
      !wire__json_int(sc, INT32_MIN, INT32_MAX, &scale))
    return perr(p, v, "decimal takes {\"unscaled\": \"…\", \"scale\": N}");
  size_t i = us->u.s[0] == '-' || us->u.s[0] == '+';
  if (us->n == i) return perr(p, us, "decimal unscaled has no digits");
  for (size_t k = i; k < us->n; k++)
    if (us->u.s[k] < '0' || us->u.s[k] > '9')
      return perr(p, us, "decimal unscaled has a bad digit");
  int neg;
  uint8_t *mag;
  size_t ml;
  int32_t sc0;
  if (!wire__scan_decimal(p->tmp, us->u.s, us->n, &neg, &mag, &ml,
                          &sc0))
    return perr(p, us, "decimal unscaled has a bad digit");
  *out = wire_node_new_decimal(p->doc, neg, mag, ml, (int32_t)scale);
  return *out ? WIRE_OK : berr(p, v);
}

static int32_t p_enum(parser *p, const wj *j, const wj *v, wire_node **out) {
  wj *ti = wire__json_get(v, "type_id"), *ev = wire__json_get(v, "value");
  wj *tn = wire__json_get(v, "type");
  int64_t tid, val;
  if (tn) {
    uint32_t idx;
    if (!is_str(tn) || !wire__json_int(ev, 0, UINT32_MAX, &val) ||
        wire_schema_find_type(p->ctx, tn->u.s, tn->n, &idx) != WIRE_OK ||
        wire_schema_type_kind(p->ctx, idx) != WIRE_KIND_ENUM)
      return perr(p, tn, "enum type \"%.*s\" is not an enum of the schema",
                  vlen(tn), vtext(tn));
    wire_ctx_clear_error(p->ctx);
    *out = wire_node_new_enum_of(p->doc, idx, (uint32_t)val);
    if (!*out) return berr(p, v);
    return name_encodings(p, j, *out);
  }
  if (!ti && wire__json_int(ev, 0, UINT32_MAX, &val) && v->n == 1) {
    /* a field value of an unnamed enum type */
    *out = wire_node_new_enum(p->doc, UINT32_MAX, (uint32_t)val);
    return *out ? WIRE_OK : berr(p, v);
  }
  if (!wire__json_int(ti, 0, UINT32_MAX, &tid) ||
      !wire__json_int(ev, 0, UINT32_MAX, &val))
    return perr(p, v, "enum takes {\"type_id\": N, \"value\": N}");
  *out = wire_node_new_enum(p->doc, (uint32_t)tid, (uint32_t)val);
  return *out ? WIRE_OK : berr(p, v);
}

static int32_t p_named_enum(parser *p, const wj *j, const wj *v,
                            wire_node **out) {
  wj *ns = wire__json_get(v, "namespace"), *nm = wire__json_get(v, "name"),
     *ev = wire__json_get(v, "value");
  int64_t val;
  if (!is_str(ns) || !is_str(nm) || !wire__json_int(ev, 0, UINT32_MAX, &val))
    return perr(p, v, "named_enum takes {\"namespace\", \"name\", \"value\"}");
  wire_node *n = wire_node_new_named_enum(
      p->doc, (const uint8_t *)ns->u.s, ns->n, (const uint8_t *)nm->u.s, nm->n,
      (uint32_t)val);
  if (!n) return berr(p, v);
  int32_t a, b, st;
  if ((st = msenc(p, j, "ns_enc", &a)) || (st = msenc(p, j, "name_enc", &b)))
    return st;
  if ((a >= 0) != (b >= 0))
    return perr(p, j, "give both ns_enc and name_enc or neither");
  if ((p->flags & WIRE_NOTATION_REFIT) &&
      (!ms_fits(WIRE_MSCTX_NAMESPACE, a, (const uint8_t *)ns->u.s, ns->n) ||
       !ms_fits(WIRE_MSCTX_TYPE_NAME, b, (const uint8_t *)nm->u.s, nm->n)))
    a = b = -1;
  if (a >= 0) wire_node_set_name_encodings(n, a, b);
  wj *hs = wire__json_get(j, "ns_hash"), *hn = wire__json_get(j, "name_hash");
  if ((hs && !is_str(hs)) || (hn && !is_str(hn)))
    return perr(p, hs && !is_str(hs) ? hs : hn,
                "ns_hash/name_hash must be \"raw\" or \"abs\"");
  wire_node_set_name_hash_forms(n, str_is(hs, "raw"), str_is(hn, "raw"));
  *out = n;
  return name_refs(p, j, n, false);
}

/* ---- containers and user types ------------------------------------------------ */

static int32_t parse_node(parser *p, const wj *j, wire_node **out);

/* The struct node a "struct" body asks for: by TypeDef (new or earlier)
 * or by schema type. */
static int32_t new_struct(parser *p, uint32_t t, const char *key,
                          const wj *v, wire_node **out) {
  wj *tn = wire__json_get(v, "type"), *td = wire__json_get(v, "typedef");
  if (td && td->kind == WJ_NUMBER) {
    int64_t k;
    if (!wire__json_int(td, 0, INT64_MAX, &k) || (size_t)k >= p->ntds)
      return perr(p, td, "\"typedef\": %.*s names no earlier TypeDef",
                  (int)(td->n > 20 ? 20 : td->n), td->u.s);
    *out = wire_node_new_struct_like(p->doc, p->tds[k]);
  } else if (td) {
    size_t bl;
    uint8_t *buf = unhex(p, td, &bl);
    if (!buf) return perr(p, td, "\"typedef\" must be hex");
    *out = wire_node_new_struct_typedef(p->doc, buf, bl);
    if (*out && p->ntds < MAX_TDS) p->tds[p->ntds++] = *out;
  } else {
    uint32_t idx;
    if (!is_str(tn) ||
        wire_schema_find_type(p->ctx, tn->u.s, tn->n, &idx) != WIRE_OK ||
        wire_schema_type_kind(p->ctx, idx) !=
            (t == WIRE_T_EXT ? WIRE_KIND_EXT : WIRE_KIND_STRUCT))
      return perr(p, tn ? tn : v, "%s type \"%.*s\" is not in the schema "
                                  "(--schema)", key, vlen(tn), vtext(tn));
    wire_ctx_clear_error(p->ctx);
    *out = wire_node_new_struct(p->doc, idx);
  }
  return *out ? WIRE_OK : berr(p, td ? td : v);
}

static int32_t p_struct(parser *p, uint32_t t, const char *key, const wj *j,
                        const wj *v, wire_node **out) {
  wj *fs = wire__json_get(v, "fields"), *tn = wire__json_get(v, "type");
  if (!v || v->kind != WJ_OBJECT || (fs && fs->kind != WJ_OBJECT))
    return perr(p, v, "struct takes {\"type\": \"ns.Name\", \"fields\": {…}}");
  wire_node *n;
  int32_t st = new_struct(p, t, key, v, &n);
  if (st || (st = remember(p, j, n)) || (st = name_encodings(p, j, n)))
    return st;
  for (uint32_t i = 0; fs && i < fs->n; i++) {
    const wj_member *m = &fs->u.members[i];
    wire_node *c;
    if ((st = parse_node(p, m->value, &c))) return st;
    if (wire_struct_set_field(p->doc, n, m->key, m->key_len, c) != WIRE_OK)
      return perr(p, m->value, "struct %.*s has no field \"%.*s\"", vlen(tn),
                  vtext(tn), (int)(m->key_len > 80 ? 80 : m->key_len), m->key);
  }
  *out = n;
  return WIRE_OK;
}

static int32_t p_union(parser *p, const wj *j, const wj *v, wire_node **out) {
  wj *tn = wire__json_get(v, "type"), *c = wire__json_get(v, "case"),
     *uv = wire__json_get(v, "value");
  int64_t cs;
  uint32_t idx = WIRE_BY_NAME;
  if (!v || v->kind != WJ_OBJECT || !wire__json_int(c, 0, UINT32_MAX, &cs) ||
      !uv)
    return perr(p, v, "union takes {\"type\", \"case\": N, \"value\": node}");
  if (tn && (!is_str(tn) ||
             wire_schema_find_type(p->ctx, tn->u.s, tn->n, &idx) != WIRE_OK))
    return perr(p, tn, "union type \"%.*s\" is not in the schema", vlen(tn),
                vtext(tn));
  wire_ctx_clear_error(p->ctx);
  wire_node *un;
  int32_t st = parse_node(p, uv, &un);
  if (st) return st;
  *out = wire_node_new_union(p->doc, idx, (uint32_t)cs, un);
  if (!*out) return berr(p, v);
  return name_encodings(p, j, *out);
}

/* Whether two elements can share one list header / map chunk type. */
static bool same_kind(const wire_node *a, const wire_node *b) {
  if (a->type != b->type) return false;
  if (a->type >= WIRE_T_STRUCT && a->type <= WIRE_T_NAMED_EXT)
    return wire__st_layout(a) == wire__st_layout(b);
  return true;
}

/* A recorded list header that no longer fits the elements (an edited
 * document): nulls without a null flag, or mixed types under "same type". */
static bool header_fits(const wire_node *n, int64_t h) {
  bool has_null = false, mixed = false;
  const wire_node *first = NULL;
  for (uint32_t i = 0; i < n->small; i++) {
    const wire_node *e = n->v.list->items[i];
    if (e->type == WIRE_T_NULL) {
      has_null = true;
    } else if (!first) {
      first = e;
    } else if (!same_kind(first, e)) {
      mixed = true;
    }
  }
  if (has_null && !(h & (WIRE_LF_HAS_NULL | WIRE_LF_TRACKING))) return false;
  if (mixed && (h & (WIRE_LF_SAME_TYPE | WIRE_LF_DECL))) return false;
  return true;
}

static int32_t p_list(parser *p, uint32_t t, const char *key, const wj *j,
                      const wj *v, wire_node **out) {
  if (!v || v->kind != WJ_ARRAY) return perr(p, v, "%s takes an array", key);
  wire_node *n = wire_node_new_list(p->doc, t);
  if (!n) return berr(p, v);
  wj *h = wire__json_get(j, "header");
  int64_t hv = -1;
  if (h && !wire__json_int(h, 0, 15, &hv))
    return perr(p, h, "\"header\" must be 0..15");
  int32_t st = remember(p, j, n);
  if (st) return st;
  for (uint32_t i = 0; i < v->n; i++) {
    wire_node *c;
    if ((st = parse_node(p, v->u.items[i], &c))) return st;
    if (wire_list_append(p->doc, n, c)) return berr(p, v->u.items[i]);
  }
  if (hv >= 0 && (!(p->flags & WIRE_NOTATION_REFIT) || header_fits(n, hv)))
    wire_list_set_header(n, (int32_t)hv);
  *out = n;
  return WIRE_OK;
}

/* Recorded map chunks that no longer fit the entries. */
static bool chunks_fit(const wire_node *m, const wj *ch) {
  uint64_t at = 0;
  for (uint32_t i = 0; i < ch->n; i++) {
    const wj *e = ch->u.items[i];
    int64_t h, c;
    if (e->kind != WJ_ARRAY || e->n != 2 ||
        !wire__json_int(e->u.items[0], 0, 63, &h) ||
        !wire__json_int(e->u.items[1], 1, 255, &c) || at + (uint64_t)c > m->small)
      return false;
    wire_node **kv = m->v.map->kv + 2 * at;
    bool kn = h & WIRE_MF_KEY_NULL, vn = h & WIRE_MF_VAL_NULL;
    if (kn || vn) {
      if (c != 1 || (kv[0]->type == WIRE_T_NULL) != kn ||
          (kv[1]->type == WIRE_T_NULL) != vn)
        return false;
    } else {
      for (int64_t k = 0; k < c; k++) {
        wire_node *key = kv[2 * k], *val = kv[2 * k + 1];
        if (key->type == WIRE_T_NULL || val->type == WIRE_T_NULL ||
            !same_kind(kv[0], key) || !same_kind(kv[1], val))
          return false;
      }
    }
    at += (uint64_t)c;
  }
  return at == m->small;
}

static int32_t p_map(parser *p, const wj *j, const wj *v, wire_node **out) {
  if (!v || v->kind != WJ_ARRAY) return perr(p, v, "map takes an array of pairs");
  wire_node *n = wire_node_new_map(p->doc);
  if (!n) return berr(p, v);
  int32_t st = remember(p, j, n);
  if (st) return st;
  for (uint32_t i = 0; i < v->n; i++) {
    const wj *e = v->u.items[i];
    if (e->kind != WJ_ARRAY || e->n != 2)
      return perr(p, e, "map entry %u is not a [key, value] pair", i);
    wire_node *kn, *vn;
    if ((st = parse_node(p, e->u.items[0], &kn)) ||
        (st = parse_node(p, e->u.items[1], &vn)))
      return st;
    if (wire_map_put(p->doc, n, kn, vn)) return berr(p, e);
  }
  wj *ch = wire__json_get(j, "chunks");
  if (ch && ch->kind != WJ_ARRAY) return perr(p, ch, "\"chunks\" must be an array");
  if (ch && (!(p->flags & WIRE_NOTATION_REFIT) || chunks_fit(n, ch))) {
    for (uint32_t i = 0; i < ch->n; i++) {
      const wj *e = ch->u.items[i];
      int64_t h, c;
      if (e->kind != WJ_ARRAY || e->n != 2 ||
          !wire__json_int(e->u.items[0], 0, UINT32_MAX, &h) ||
          !wire__json_int(e->u.items[1], 0, UINT32_MAX, &c) ||
          wire_map_add_chunk(p->doc, n, (uint32_t)h, (uint32_t)c))
        return perr(p, e, "chunk %u must be [header 0..63, count 1..255]", i);
    }
  }
  *out = n;
  return WIRE_OK;
}

static int32_t p_array(parser *p, uint32_t t, const wj *v, wire_node **out) {
  if (!v || v->kind != WJ_ARRAY)
    return perr(p, v, "%s takes an array", wire_type_name(t));
  uint32_t w = wire_type_array_width(t);
  uint8_t *buf = wire__arena_alloc(p->tmp, (size_t)v->n * w + 1);
  if (!buf) return wire__fail(p->ctx, WIRE_E_NOMEM, v->off, "out of memory");
  uint32_t ft = t == WIRE_T_FLOAT16_ARRAY    ? WIRE_T_FLOAT16
                : t == WIRE_T_BFLOAT16_ARRAY ? WIRE_T_BFLOAT16
                : t == WIRE_T_FLOAT32_ARRAY  ? WIRE_T_FLOAT32
                : t == WIRE_T_FLOAT64_ARRAY  ? WIRE_T_FLOAT64
                                             : 0;
  bool is_signed = t == WIRE_T_INT8_ARRAY || t == WIRE_T_INT16_ARRAY ||
                   t == WIRE_T_INT32_ARRAY || t == WIRE_T_INT64_ARRAY;
  for (uint32_t i = 0; i < v->n; i++) {
    const wj *e = v->u.items[i];
    uint64_t u = 0;
    bool good;
    if (t == WIRE_T_BOOL_ARRAY) {
      good = e->kind == WJ_TRUE || e->kind == WJ_FALSE;
      u = e->kind == WJ_TRUE;
    } else if (ft) {
      good = parse_float(ft, e, &u);
    } else if (is_signed) {
      int64_t x = 0;
      good = is_str(e) && wire__parse_i64(e->u.s, e->n, &x);
      int bits = (int)w * 8;
      if (good && bits < 64)
        good = x >= -(INT64_C(1) << (bits - 1)) &&
               x <= (INT64_C(1) << (bits - 1)) - 1;
      u = (uint64_t)x;
    } else {
      good = is_str(e) && wire__parse_u64(e->u.s, e->n, &u);
      if (good && w < 8) good = u < (UINT64_C(1) << (8 * w));
    }
    if (!good)
      return perr(p, e, "element %u of %s is invalid", i, wire_type_name(t));
    for (uint32_t k = 0; k < w; k++) buf[i * w + k] = (uint8_t)(u >> (8 * k));
  }
  *out = wire_node_new_array(p->doc, t, buf, (size_t)v->n * w);
  return *out ? WIRE_OK : berr(p, v);
}

/* ---- dispatch -------------------------------------------------------------- */

static int32_t p_value(parser *p, int32_t t, const char *key, const wj *j,
                       const wj *v, wire_node **out) {
  switch (t) {
  case WIRE_T_NULL: *out = wire_node_new_null(p->doc); break;
  case WIRE_T_NONE: *out = wire_node_new_none(p->doc); break;
  case WIRE_T_BOOL:
    if (!v || (v->kind != WJ_TRUE && v->kind != WJ_FALSE))
      return perr(p, v, "bool takes true or false");
    *out = wire_node_new_bool(p->doc, v->kind == WJ_TRUE);
    break;
  case WIRE_T_STRING: return p_string(p, j, v, out);
  case WIRE_T_BINARY: return p_binary(p, v, out);
  case WIRE_T_DATE: case WIRE_T_TIMESTAMP: case WIRE_T_DURATION:
    return p_temporal(p, (uint32_t)t, key, v, out);
  case WIRE_T_DECIMAL: return p_decimal(p, v, out);
  case WIRE_T_ENUM: return p_enum(p, j, v, out);
  case WIRE_T_NAMED_ENUM: return p_named_enum(p, j, v, out);
  case WIRE_T_STRUCT: case WIRE_T_EXT:
    return p_struct(p, (uint32_t)t, key, j, v, out);
  case WIRE_T_UNION: return p_union(p, j, v, out);
  case WIRE_T_LIST: case WIRE_T_SET:
    return p_list(p, (uint32_t)t, key, j, v, out);
  case WIRE_T_MAP: return p_map(p, j, v, out);
  default:
    if (wire__is_int_type((uint32_t)t) || wire__is_uint_type((uint32_t)t) ||
        wire__is_float_type((uint32_t)t))
      return p_number(p, (uint32_t)t, key, v, out);
    if (wire_type_array_width((uint32_t)t)) return p_array(p, (uint32_t)t, v, out);
    return perr(p, j, "type \"%s\" cannot be written from the notation yet",
                key);
  }
  return *out ? WIRE_OK : berr(p, v);
}

/* Containers and structs record their anchor before their children (for
 * cycles); other values after they are built. */
static bool anchors_early(int32_t t) {
  return t == WIRE_T_STRUCT || t == WIRE_T_EXT || t == WIRE_T_LIST ||
         t == WIRE_T_SET || t == WIRE_T_MAP;
}

static int32_t parse_node(parser *p, const wj *j, wire_node **out) {
  *out = NULL;
  if (j->kind != WJ_OBJECT) return perr(p, j, "a node must be a JSON object");
  wj *ref = wire__json_get(j, "ref");
  if (ref) {
    if (j->n != 1 || !is_str(ref))
      return perr(p, j, "a ref node is {\"ref\": \"name\"} alone");
    if (!(*out = anchor_get(p, ref)))
      return perr(p, ref, "unknown anchor \"%.*s\"", vlen(ref), vtext(ref));
    return WIRE_OK;
  }
  const wj_member *tk = NULL;
  for (uint32_t i = 0; i < j->n; i++) {
    const wj_member *m = &j->u.members[i];
    if (is_annotation(m->key, m->key_len)) continue;
    if (tk)
      return perr(p, m->value, "two type keys: \"%.*s\" and \"%.*s\"",
                  (int)(tk->key_len > 40 ? 40 : tk->key_len), tk->key,
                  (int)(m->key_len > 40 ? 40 : m->key_len), m->key);
    tk = m;
  }
  if (!tk) return perr(p, j, "no type key");
  char key[40];
  int32_t t = -1;
  if (tk->key_len < sizeof key && !memchr(tk->key, 0, tk->key_len)) {
    memcpy(key, tk->key, tk->key_len);
    key[tk->key_len] = 0;
    t = strcmp(key, "null") == 0 ? WIRE_T_NULL
                                 : wire_type_from_name(key, tk->key_len);
  }
  if (t < 0)
    return perr(p, j, "unknown type key \"%.*s\"",
                (int)(tk->key_len > 40 ? 40 : tk->key_len), tk->key);
  if (++p->depth > WJ_MAX_DEPTH) return perr(p, j, "nesting too deep");
  int32_t st = p_value(p, t, key, j, tk->value, out);
  if (!st && !anchors_early(t)) st = remember(p, j, *out);
  if (!st) st = oob_annotations(p, j, t, *out);
  p->depth--;
  return st;
}

/* ---- entry points ------------------------------------------------------------- */

static int32_t parse_text(wire_ctx *ctx, wire_doc *doc, const char *text,
                          size_t len, uint32_t flags, uint32_t type,
                          wire_node **out, size_t *consumed) {
  if (!ctx || !doc || (!text && len) || !out) return WIRE_E_ARG;
  *out = NULL;
  wire_ctx_clear_error(ctx);
  wire_arena arena = {ctx, NULL, NULL, NULL, 4096};
  wj *root;
  size_t end;
  int32_t st = wire__json_parse(ctx, &arena, text, len, &root, &end);
  if (!st) {
    if (flags & WIRE_NOTATION_PLAIN) {
      st = wire__plain_build(ctx, doc, root, type, out);
    } else {
      parser p;
      memset(&p, 0, sizeof p);
      p.ctx = ctx;
      p.doc = doc;
      p.flags = flags;
      p.tmp = &arena;
      st = parse_node(&p, root, out);
      wire__free(ctx, p.anchors, p.cap * sizeof *p.anchors);
    }
  }
  wire__arena_free(&arena);
  if (st) *out = NULL;
  else if (consumed) *consumed = end;
  return st;
}

int32_t wire_notation_parse(wire_ctx *ctx, wire_doc *doc, const char *text,
                            size_t len, uint32_t flags, wire_node **out_node,
                            size_t *consumed) {
  return parse_text(ctx, doc, text, len, flags & ~(uint32_t)WIRE_NOTATION_PLAIN,
                    WIRE_BY_NAME, out_node, consumed);
}

int32_t wire_notation_parse_plain(wire_ctx *ctx, wire_doc *doc,
                                  const char *text, size_t len, uint32_t type,
                                  wire_node **out_node, size_t *consumed) {
  return parse_text(ctx, doc, text, len, WIRE_NOTATION_PLAIN, type, out_node,
                    consumed);
}
