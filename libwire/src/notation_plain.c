/* notation_plain.c - plain JSON (spec/notation.md N-6): natural JSON for
 * people and jq, lossy. Printing drops wire types and choices; reading
 * takes the wire types from the schema (or, without one, from what the
 * Java runtime writes for JSON-like values). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "notation.h"

#define MAX_PLAIN_DEPTH 4096
#define SAFE_INT (INT64_C(1) << 53)

/* ======================================================================= */
/* Printing                                                                 */
/* ======================================================================= */

typedef struct {
  wire_ctx *ctx;
  const wire_doc *doc;
  wire_tout *o;
  uint8_t *onstack;   /* per node index: being printed (a cycle) */
  uint64_t budget;    /* values left to print (shared values repeat) */
  uint32_t depth;
} plain;

static int32_t pl_node(plain *p, const wire_node *n);

static void pl_i64(plain *p, int64_t v) {
  if (v >= -SAFE_INT && v <= SAFE_INT) {
    wire__tout_i64(p->o, v);
  } else {
    wire__tout_put(p->o, '"');
    wire__tout_i64(p->o, v);
    wire__tout_put(p->o, '"');
  }
}

static void pl_u64(plain *p, uint64_t v) {
  if (v <= (uint64_t)SAFE_INT) {
    wire__tout_u64(p->o, v);
  } else {
    wire__tout_put(p->o, '"');
    wire__tout_u64(p->o, v);
    wire__tout_put(p->o, '"');
  }
}

static void pl_float(plain *p, uint32_t t, uint64_t bits) {
  char b[48];
  wire__fmt_float(t, bits, b, sizeof b);
  if (b[0] == 'n' || b[0] == 'i' || (b[0] == '-' && b[1] == 'i'))
    wire__tout_str(p->o, b, strlen(b));
  else
    wire__tout_cstr(p->o, b);
}

static void pl_base64(plain *p, const uint8_t *b, size_t n) {
  static const char tab[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  wire__tout_put(p->o, '"');
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8 | b[i + 2];
    char q[4] = {tab[v >> 18], tab[v >> 12 & 63], tab[v >> 6 & 63],
                 tab[v & 63]};
    wire__tout_raw(p->o, q, 4);
  }
  if (n - i == 1) {
    uint32_t v = (uint32_t)b[i] << 16;
    char q[4] = {tab[v >> 18], tab[v >> 12 & 63], '=', '='};
    wire__tout_raw(p->o, q, 4);
  } else if (n - i == 2) {
    uint32_t v = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8;
    char q[4] = {tab[v >> 18], tab[v >> 12 & 63], tab[v >> 6 & 63], '='};
    wire__tout_raw(p->o, q, 4);
  }
  wire__tout_put(p->o, '"');
}

static void pl_string(plain *p, const wire_node *n) {
  size_t need = 0;
  wire_node_string_utf8(n, NULL, 0, &need);
  uint8_t *tmp = wire__alloc(p->ctx, need + 1);
  if (!tmp) {
    p->o->status = WIRE_E_NOMEM;
    return;
  }
  wire_node_string_utf8(n, tmp, need + 1, &need);
  wire__tout_str(p->o, (const char *)tmp, need);
  wire__free(p->ctx, tmp, need + 1);
}

static void pl_temporal(plain *p, const wire_node *n, uint32_t t) {
  char b[64];
  int64_t s = wire_node_int(n);
  bool ok = true;
  if (t == WIRE_T_DATE) ok = wire__fmt_date(s, b, sizeof b);
  else if (t == WIRE_T_TIMESTAMP)
    ok = wire__fmt_timestamp(s, wire_node_nanos(n), 0, b, sizeof b);
  else
    wire__fmt_duration(s, wire_node_nanos(n), b, sizeof b);
  if (ok) wire__tout_str(p->o, b, strlen(b));
  else wire__tout_i64(p->o, s); /* beyond years 1..9999: the number */
}

static void pl_decimal(plain *p, const wire_node *n) {
  size_t len, dl, cap;
  const uint8_t *b = wire_node_bytes(n, &len);
  char *s = wire__fmt_decimal(p->ctx, wire_node_decimal_negative(n), b, len,
                              wire_node_decimal_scale(n), 1, &dl, &cap);
  if (!s) {
    p->o->status = WIRE_E_NOMEM;
    return;
  }
  wire__tout_str(p->o, s, dl);
  wire__free(p->ctx, s, cap);
}

static void pl_enum(plain *p, const wire_node *n) {
  uint32_t ti;
  const char *name = NULL;
  if (wire_node_user_type(p->doc, n, &ti) == WIRE_OK)
    name = wire__enum_value_name(p->ctx, ti, wire_node_enum_value(n));
  if (name) wire__tout_str(p->o, name, strlen(name));
  else wire__tout_u64(p->o, wire_node_enum_value(n));
}

static int32_t pl_struct(plain *p, const wire_node *n) {
  bool any = false;
  wire__tout_open(p->o, '{');
  for (size_t k = 0; k < wire_node_count(n); k++) {
    const wire_node *fv = wire_node_field(n, k);
    if (!fv) continue;
    size_t fl;
    const char *fname = wire_node_field_name(n, k, &fl);
    char tag[24];
    if (!fname) {
      fl = (size_t)snprintf(tag, sizeof tag, "#%d", wire_node_field_tag(n, k));
      fname = tag;
    }
    wire__tout_keyn(p->o, &any, fname, fl);
    int32_t st = pl_node(p, fv);
    if (st) return st;
  }
  wire__tout_close(p->o, '}', any);
  return WIRE_OK;
}

static const char *case_name(plain *p, const wire_node *n) {
  uint32_t ti;
  if (wire_node_user_type(p->doc, n, &ti) != WIRE_OK || !p->ctx->reg ||
      ti >= p->ctx->reg->ntypes)
    return NULL;
  const wire_utype *u = &p->ctx->reg->types[ti];
  for (uint32_t i = 0; i < u->ncases; i++)
    if (u->cases[i].case_id == wire_node_union_case(n)) return u->cases[i].name;
  return NULL;
}

static int32_t pl_union(plain *p, const wire_node *n) {
  bool any = false;
  const char *name = case_name(p, n);
  wire__tout_open(p->o, '{');
  if (name) {
    wire__tout_key(p->o, &any, name);
  } else {
    char b[24];
    snprintf(b, sizeof b, "#%u", wire_node_union_case(n));
    wire__tout_key(p->o, &any, b);
  }
  int32_t st = pl_node(p, wire_node_union_value(n));
  if (st) return st;
  wire__tout_close(p->o, '}', any);
  return WIRE_OK;
}

static int32_t pl_list(plain *p, const wire_node *n) {
  bool any = false;
  wire__tout_open(p->o, '[');
  for (size_t k = 0; k < wire_node_count(n); k++) {
    wire__tout_sep(p->o, &any);
    int32_t st = pl_node(p, wire_node_child(n, k));
    if (st) return st;
  }
  wire__tout_close(p->o, ']', any);
  return WIRE_OK;
}

static int32_t pl_map(plain *p, const wire_node *n) {
  bool any = false, by_key = true;
  for (size_t k = 0; k < wire_node_count(n) && by_key; k++)
    by_key = wire_node_type(wire_node_map_key(n, k)) == WIRE_T_STRING;
  wire__tout_open(p->o, by_key ? '{' : '[');
  for (size_t k = 0; k < wire_node_count(n); k++) {
    int32_t st;
    if (by_key) {
      wire__tout_sep(p->o, &any);
      pl_string(p, wire_node_map_key(n, k));
      wire__tout_raw(p->o, p->o->indent ? ": " : ":", p->o->indent ? 2 : 1);
    } else {
      bool pair = false;
      wire__tout_sep(p->o, &any);
      wire__tout_open(p->o, '[');
      wire__tout_sep(p->o, &pair);
      if ((st = pl_node(p, wire_node_map_key(n, k)))) return st;
      wire__tout_sep(p->o, &pair);
      if ((st = pl_node(p, wire_node_map_value(n, k)))) return st;
      wire__tout_close(p->o, ']', pair);
      continue;
    }
    if ((st = pl_node(p, wire_node_map_value(n, k)))) return st;
  }
  wire__tout_close(p->o, by_key ? '}' : ']', any);
  return WIRE_OK;
}

static void pl_array(plain *p, const wire_node *n, uint32_t t) {
  size_t len;
  const uint8_t *b = wire_node_bytes(n, &len);
  uint32_t w = wire_type_array_width(t);
  bool any = false;
  wire__tout_open(p->o, '[');
  for (size_t i = 0; i < len / w; i++) {
    uint64_t u = 0;
    for (uint32_t k = 0; k < w; k++) u |= (uint64_t)b[i * w + k] << (8 * k);
    wire__tout_sep(p->o, &any);
    switch (t) {
    case WIRE_T_BOOL_ARRAY: wire__tout_cstr(p->o, u ? "true" : "false"); break;
    case WIRE_T_INT8_ARRAY: pl_i64(p, (int8_t)u); break;
    case WIRE_T_INT16_ARRAY: pl_i64(p, (int16_t)u); break;
    case WIRE_T_INT32_ARRAY: pl_i64(p, (int32_t)u); break;
    case WIRE_T_INT64_ARRAY: pl_i64(p, (int64_t)u); break;
    case WIRE_T_FLOAT16_ARRAY: pl_float(p, WIRE_T_FLOAT16, u); break;
    case WIRE_T_BFLOAT16_ARRAY: pl_float(p, WIRE_T_BFLOAT16, u); break;
    case WIRE_T_FLOAT32_ARRAY: pl_float(p, WIRE_T_FLOAT32, u); break;
    case WIRE_T_FLOAT64_ARRAY: pl_float(p, WIRE_T_FLOAT64, u); break;
    default: pl_u64(p, u); break;
    }
  }
  wire__tout_close(p->o, ']', any);
}

static int32_t pl_value(plain *p, const wire_node *n, uint32_t t) {
  switch (t) {
  case WIRE_T_NULL: case WIRE_T_NONE: wire__tout_raw(p->o, "null", 4); break;
  case WIRE_T_BOOL: wire__tout_cstr(p->o, wire_node_int(n) ? "true" : "false"); break;
  case WIRE_T_STRING: pl_string(p, n); break;
  case WIRE_T_BINARY: {
    size_t len;
    const uint8_t *b = wire_node_bytes(n, &len);
    pl_base64(p, b, len);
    break;
  }
  case WIRE_T_DATE: case WIRE_T_TIMESTAMP: case WIRE_T_DURATION:
    pl_temporal(p, n, t);
    break;
  case WIRE_T_DECIMAL: pl_decimal(p, n); break;
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: pl_enum(p, n); break;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return pl_struct(p, n);
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    return pl_union(p, n);
  case WIRE_T_LIST: case WIRE_T_SET: return pl_list(p, n);
  case WIRE_T_MAP: return pl_map(p, n);
  default:
    if (wire__is_int_type(t)) pl_i64(p, wire_node_int(n));
    else if (wire__is_uint_type(t)) pl_u64(p, wire_node_uint(n));
    else if (wire__is_float_type(t)) pl_float(p, t, wire_node_float_bits(n));
    else if (wire_type_array_width(t)) pl_array(p, n, t);
    else wire__tout_raw(p->o, "null", 4);
  }
  return WIRE_OK;
}

static int32_t pl_node(plain *p, const wire_node *n) {
  if (p->o->status) return p->o->status;
  if (wire_node_type(n) == WIRE_T_NULL) { /* shared by decoded documents */
    wire__tout_raw(p->o, "null", 4);
    return p->o->status;
  }
  uint32_t idx = wire_node_index(n);
  if (p->onstack[idx]) {
    /* a reference back to a value being printed: plain JSON has no cycles */
    wire__tout_raw(p->o, "null", 4);
    return WIRE_OK;
  }
  if (p->budget-- == 0)
    return wire__fail(p->ctx, WIRE_E_LIMIT, 0,
                      "plain JSON would repeat shared values too often; use "
                      "the notation (it prints them once)");
  if (++p->depth > MAX_PLAIN_DEPTH)
    return wire__fail(p->ctx, WIRE_E_DEPTH, 0,
                      "value nested deeper than %d levels", MAX_PLAIN_DEPTH);
  p->onstack[idx] = 1;
  int32_t st = pl_value(p, n, wire_node_type(n));
  p->onstack[idx] = 0;
  p->depth--;
  return st ? st : p->o->status;
}

int32_t wire__plain_print(wire_ctx *ctx, const wire_doc *doc,
                          const wire_node *node, wire_tout *o) {
  size_t nn = wire_doc_node_count(doc) + 1;
  plain p = {ctx, doc, o, wire__alloc(ctx, nn), 16 * (uint64_t)nn + 1000000, 0};
  if (!p.onstack) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  memset(p.onstack, 0, nn);
  int32_t st = pl_node(&p, node);
  wire__free(ctx, p.onstack, nn);
  return st;
}

/* ======================================================================= */
/* Reading                                                                  */
/* ======================================================================= */

typedef struct {
  wire_ctx *ctx;
  wire_doc *doc;
  uint32_t depth;
  const char *field; /* the field being read, for messages */
} builder;

static int32_t bfail(builder *b, const wj *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int32_t bfail(builder *b, const wj *at, const char *fmt, ...) {
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (b->field)
    return wire__fail(b->ctx, WIRE_E_NOTATION, at ? at->off : 0,
                      "plain JSON, field %s: %s", b->field, msg);
  return wire__fail(b->ctx, WIRE_E_NOTATION, at ? at->off : 0,
                    "plain JSON: %s", msg);
}

static int32_t bnode(builder *b, const wj *at, wire_node *n, wire_node **out) {
  if (!n) {
    int32_t code = b->ctx->err_code == WIRE_E_NOMEM || !b->ctx->err_code
                       ? WIRE_E_NOMEM
                       : WIRE_E_NOTATION;
    char msg[256];
    snprintf(msg, sizeof msg, "%s", b->ctx->err_msg);
    return wire__fail(b->ctx, code, at->off, "%s", msg);
  }
  *out = n;
  return WIRE_OK;
}

/* Number text of a JSON number or numeric string, NUL-terminated. */
static bool num_text(const wj *v, char *buf, size_t cap) {
  if (!v || (v->kind != WJ_NUMBER && v->kind != WJ_STRING) || v->n == 0 ||
      v->n >= cap)
    return false;
  memcpy(buf, v->u.s, v->n);
  buf[v->n] = 0;
  return strlen(buf) == v->n;
}

static bool get_i64(const wj *v, int64_t *out) {
  if (!v || (v->kind != WJ_NUMBER && v->kind != WJ_STRING)) return false;
  if (wire__parse_i64(v->u.s, v->n, out)) return true;
  /* 1e3 or 5.0 as JSON numbers */
  char b[64];
  if (v->kind != WJ_NUMBER || !num_text(v, b, sizeof b)) return false;
  double d = strtod(b, NULL);
  if (!(d >= -9.2e18 && d <= 9.2e18) || d != floor(d)) return false;
  *out = (int64_t)d;
  return true;
}

static bool get_u64(const wj *v, uint64_t *out) {
  if (!v || (v->kind != WJ_NUMBER && v->kind != WJ_STRING)) return false;
  if (wire__parse_u64(v->u.s, v->n, out)) return true;
  int64_t i;
  if (!get_i64(v, &i) || i < 0) return false;
  *out = (uint64_t)i;
  return true;
}

static bool get_double(const wj *v, double *out) {
  char b[80];
  if (!num_text(v, b, sizeof b)) return false;
  if (v->kind == WJ_STRING) {
    if (strcmp(b, "nan") == 0 || strcmp(b, "NaN") == 0) {
      *out = NAN;
      return true;
    }
    if (strcmp(b, "inf") == 0 || strcmp(b, "Infinity") == 0) {
      *out = INFINITY;
      return true;
    }
    if (strcmp(b, "-inf") == 0 || strcmp(b, "-Infinity") == 0) {
      *out = -INFINITY;
      return true;
    }
  }
  char *end;
  *out = strtod(b, &end);
  return *end == 0 && end != b;
}

static bool unbase64(wire_arena *a, const wj *v, uint8_t **out, size_t *len) {
  if (!v || v->kind != WJ_STRING) return false;
  uint8_t *o = wire__arena_alloc(a, v->n / 4 * 3 + 3);
  if (!o) return false;
  size_t w = 0;
  uint32_t acc = 0;
  int bits = 0, pad = 0;
  for (uint32_t i = 0; i < v->n; i++) {
    char c = v->u.s[i];
    int d;
    if (c >= 'A' && c <= 'Z') d = c - 'A';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
    else if (c >= '0' && c <= '9') d = c - '0' + 52;
    else if (c == '+' || c == '-') d = 62;
    else if (c == '/' || c == '_') d = 63;
    else if (c == '=') { pad++; continue; }
    else return false;
    if (pad) return false;
    acc = acc << 6 | (uint32_t)d;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      o[w++] = (uint8_t)(acc >> bits);
    }
  }
  *out = o;
  *len = w;
  return true;
}

static int32_t build(builder *b, const wj *v, const wire_ftype *f,
                     wire_node **out);

/* Without a declared type: what the Java runtime writes for such a value. */
static int32_t guess(builder *b, const wj *v, wire_node **out) {
  wire_doc *d = b->doc;
  int32_t st;
  switch (v->kind) {
  case WJ_NULL: return bnode(b, v, wire_node_new_null(d), out);
  case WJ_TRUE: case WJ_FALSE:
    return bnode(b, v, wire_node_new_bool(d, v->kind == WJ_TRUE), out);
  case WJ_STRING:
    return bnode(b, v, wire_node_new_string(d, (const uint8_t *)v->u.s, v->n, -1),
                 out);
  case WJ_NUMBER: {
    int64_t i;
    double x;
    if (v->is_int && wire__parse_i64(v->u.s, v->n, &i))
      return bnode(b, v, wire_node_new_int(d, WIRE_T_VARINT64, i), out);
    if (!get_double(v, &x)) return bfail(b, v, "bad number");
    return bnode(b, v, wire_node_new_float(d, WIRE_T_FLOAT64, x), out);
  }
  case WJ_ARRAY: {
    wire_node *l = wire_node_new_list(d, WIRE_T_LIST);
    if (!l) return bnode(b, v, NULL, out);
    for (uint32_t i = 0; i < v->n; i++) {
      wire_node *e;
      if ((st = build(b, v->u.items[i], NULL, &e))) return st;
      if (wire_list_append(d, l, e)) return bnode(b, v, NULL, out);
    }
    *out = l;
    return WIRE_OK;
  }
  default: {
    wire_node *m = wire_node_new_map(d);
    if (!m) return bnode(b, v, NULL, out);
    for (uint32_t i = 0; i < v->n; i++) {
      const wj_member *mb = &v->u.members[i];
      wire_node *k = wire_node_new_string(d, (const uint8_t *)mb->key,
                                          mb->key_len, -1), *e;
      if (!k) return bnode(b, v, NULL, out);
      if ((st = build(b, mb->value, NULL, &e))) return st;
      if (wire_map_put(d, m, k, e)) return bnode(b, v, NULL, out);
    }
    *out = m;
    return WIRE_OK;
  }
  }
}

static int32_t b_scalar(builder *b, const wj *v, uint32_t t, wire_node **out) {
  wire_doc *d = b->doc;
  if (t == WIRE_T_BOOL) {
    if (v->kind != WJ_TRUE && v->kind != WJ_FALSE)
      return bfail(b, v, "expected true or false");
    return bnode(b, v, wire_node_new_bool(d, v->kind == WJ_TRUE), out);
  }
  if (wire__is_int_type(t)) {
    int64_t i;
    if (!get_i64(v, &i)) return bfail(b, v, "expected an integer");
    return bnode(b, v, wire_node_new_int(d, t, i), out);
  }
  if (wire__is_uint_type(t)) {
    uint64_t u;
    if (!get_u64(v, &u)) return bfail(b, v, "expected an unsigned integer");
    return bnode(b, v, wire_node_new_uint(d, t, u), out);
  }
  double x;
  if (!get_double(v, &x)) return bfail(b, v, "expected a number");
  return bnode(b, v, wire_node_new_float(d, t, x), out);
}

static int32_t b_temporal(builder *b, const wj *v, uint32_t t,
                          wire_node **out) {
  wire_doc *d = b->doc;
  int64_t s = 0;
  uint32_t ns = 0;
  bool ok;
  if (v->kind == WJ_NUMBER) {
    double x;
    ok = get_double(v, &x) && x > -9.2e18 && x < 9.2e18;
    if (ok && t == WIRE_T_DATE) {
      ok = get_i64(v, &s);
    } else if (ok) {
      double w = floor(x);
      s = (int64_t)w;
      ns = (uint32_t)llround((x - w) * 1e9);
      if (ns >= 1000000000u) {
        s++;
        ns = 0;
      }
    }
  } else if (v->kind == WJ_STRING) {
    ok = t == WIRE_T_DATE        ? wire__scan_date(v->u.s, v->n, &s)
         : t == WIRE_T_TIMESTAMP ? wire__scan_timestamp(v->u.s, v->n, &s, &ns)
                                 : wire__scan_duration(v->u.s, v->n, &s, &ns);
  } else {
    ok = false;
  }
  if (!ok)
    return bfail(b, v, t == WIRE_T_DATE ? "expected a date \"YYYY-MM-DD\""
                       : t == WIRE_T_TIMESTAMP
                           ? "expected a timestamp \"YYYY-MM-DDThh:mm:ssZ\""
                           : "expected a duration \"PT<seconds>S\"");
  wire_node *n = t == WIRE_T_DATE        ? wire_node_new_date(d, s)
                 : t == WIRE_T_TIMESTAMP ? wire_node_new_timestamp(d, s, ns)
                                         : wire_node_new_duration(d, s, ns);
  return bnode(b, v, n, out);
}

static int32_t b_list(builder *b, const wj *v, const wire_ftype *f,
                      wire_node **out) {
  if (v->kind != WJ_ARRAY) return bfail(b, v, "expected an array");
  wire_node *l = wire_node_new_list(b->doc, f->type_id);
  if (!l) return bnode(b, v, NULL, out);
  for (uint32_t i = 0; i < v->n; i++) {
    wire_node *e;
    int32_t st = build(b, v->u.items[i], f->elem, &e);
    if (st) return st;
    if (wire_list_append(b->doc, l, e)) return bnode(b, v, NULL, out);
  }
  *out = l;
  return WIRE_OK;
}

static int32_t b_map(builder *b, const wj *v, const wire_ftype *f,
                     wire_node **out) {
  wire_doc *d = b->doc;
  wire_node *m = wire_node_new_map(d);
  if (!m) return bnode(b, v, NULL, out);
  int32_t st;
  if (v->kind == WJ_OBJECT) {
    for (uint32_t i = 0; i < v->n; i++) {
      const wj_member *mb = &v->u.members[i];
      /* the key as a JSON string value, read with the key type */
      wj key = {WJ_STRING, 0, mb->key_len, mb->value->off, {.s = mb->key}};
      wire_node *k, *e;
      if ((st = build(b, &key, f->key, &k)) ||
          (st = build(b, mb->value, f->value, &e)))
        return st;
      if (wire_map_put(d, m, k, e)) return bnode(b, v, NULL, out);
    }
  } else if (v->kind == WJ_ARRAY) {
    for (uint32_t i = 0; i < v->n; i++) {
      const wj *pr = v->u.items[i];
      wire_node *k, *e;
      if (pr->kind != WJ_ARRAY || pr->n != 2)
        return bfail(b, pr, "expected a [key, value] pair");
      if ((st = build(b, pr->u.items[0], f->key, &k)) ||
          (st = build(b, pr->u.items[1], f->value, &e)))
        return st;
      if (wire_map_put(d, m, k, e)) return bnode(b, v, NULL, out);
    }
  } else {
    return bfail(b, v, "expected an object or an array of pairs");
  }
  *out = m;
  return WIRE_OK;
}

static int32_t b_array(builder *b, const wj *v, uint32_t t, wire_node **out) {
  if (v->kind != WJ_ARRAY) return bfail(b, v, "expected an array");
  uint32_t w = wire_type_array_width(t);
  uint8_t *buf = wire__alloc(b->ctx, (size_t)v->n * w + 1);
  if (!buf) return wire__fail(b->ctx, WIRE_E_NOMEM, v->off, "out of memory");
  static const uint8_t elem[] = {
      [WIRE_T_BOOL_ARRAY] = WIRE_T_BOOL, [WIRE_T_INT8_ARRAY] = WIRE_T_INT8,
      [WIRE_T_INT16_ARRAY] = WIRE_T_INT16, [WIRE_T_INT32_ARRAY] = WIRE_T_INT32,
      [WIRE_T_INT64_ARRAY] = WIRE_T_INT64, [WIRE_T_UINT8_ARRAY] = WIRE_T_UINT8,
      [WIRE_T_UINT16_ARRAY] = WIRE_T_UINT16,
      [WIRE_T_UINT32_ARRAY] = WIRE_T_UINT32,
      [WIRE_T_UINT64_ARRAY] = WIRE_T_UINT64,
      [WIRE_T_FLOAT16_ARRAY] = WIRE_T_FLOAT16,
      [WIRE_T_BFLOAT16_ARRAY] = WIRE_T_BFLOAT16,
      [WIRE_T_FLOAT32_ARRAY] = WIRE_T_FLOAT32,
      [WIRE_T_FLOAT64_ARRAY] = WIRE_T_FLOAT64};
  int32_t st = WIRE_OK;
  for (uint32_t i = 0; i < v->n && !st; i++) {
    wire_node *e;
    st = b_scalar(b, v->u.items[i], elem[t], &e);
    if (st) break;
    uint64_t u = wire__is_float_type(elem[t]) ? wire_node_float_bits(e)
                 : wire__is_int_type(elem[t]) ? (uint64_t)wire_node_int(e)
                 : elem[t] == WIRE_T_BOOL     ? (uint64_t)wire_node_int(e)
                                              : wire_node_uint(e);
    for (uint32_t k = 0; k < w; k++) buf[i * w + k] = (uint8_t)(u >> (8 * k));
  }
  if (!st) st = bnode(b, v, wire_node_new_array(b->doc, t, buf, (size_t)v->n * w), out);
  wire__free(b->ctx, buf, (size_t)v->n * w + 1);
  return st;
}

static int32_t b_struct(builder *b, const wj *v, uint32_t ti, wire_node **out);

static int32_t b_enum(builder *b, const wj *v, uint32_t ti, wire_node **out) {
  const wire_utype *u = &b->ctx->reg->types[ti];
  int64_t x;
  if (v->kind == WJ_STRING) {
    for (uint32_t i = 0; i < u->nvalues; i++)
      if (strlen(u->values[i].name) == v->n &&
          wire__eq(u->values[i].name, v->u.s, v->n))
        return bnode(b, v, wire_node_new_enum_of(b->doc, ti, u->values[i].value),
                     out);
  }
  if (v->kind == WJ_NUMBER && wire__json_int(v, 0, UINT32_MAX, &x))
    return bnode(b, v, wire_node_new_enum_of(b->doc, ti, (uint32_t)x), out);
  return bfail(b, v, "expected a value name of enum %s", u->full_name);
}

static int32_t b_union(builder *b, const wj *v, uint32_t ti, wire_node **out) {
  const wire_utype *u = &b->ctx->reg->types[ti];
  if (v->kind != WJ_OBJECT || v->n != 1)
    return bfail(b, v, "union %s takes {\"<case name>\": value}", u->full_name);
  const wj_member *m = &v->u.members[0];
  for (uint32_t i = 0; i < u->ncases; i++) {
    const wire_union_case *c = &u->cases[i];
    char tag[24];
    snprintf(tag, sizeof tag, "#%u", c->case_id);
    bool hit = (strlen(c->name) == m->key_len && wire__eq(c->name, m->key, m->key_len)) ||
               (strlen(tag) == m->key_len && wire__eq(tag, m->key, m->key_len));
    if (!hit) continue;
    wire_node *val;
    int32_t st = build(b, m->value, c->type, &val);
    if (st) return st;
    return bnode(b, v, wire_node_new_union(b->doc, ti, c->case_id, val), out);
  }
  return bfail(b, v, "union %s has no case \"%.*s\"", u->full_name,
               (int)(m->key_len > 60 ? 60 : m->key_len), m->key);
}

static int32_t build(builder *b, const wj *v, const wire_ftype *f,
                     wire_node **out) {
  if (!f || f->type_id == WIRE_T_UNKNOWN) return guess(b, v, out);
  if (v->kind == WJ_NULL) return bnode(b, v, wire_node_new_null(b->doc), out);
  if (++b->depth > WJ_MAX_DEPTH) return bfail(b, v, "nested too deep");
  int32_t st;
  uint32_t t = f->type_id;
  if (f->user != WIRE_NO_TYPE) {
    uint8_t kind = b->ctx->reg->types[f->user].kind;
    st = kind == WIRE_KIND_ENUM    ? b_enum(b, v, f->user, out)
         : kind == WIRE_KIND_UNION ? b_union(b, v, f->user, out)
                                   : b_struct(b, v, f->user, out);
  } else if (t == WIRE_T_STRING) {
    st = v->kind == WJ_STRING
             ? bnode(b, v, wire_node_new_string(b->doc, (const uint8_t *)v->u.s,
                                                v->n, -1), out)
             : bfail(b, v, "expected a string");
  } else if (t == WIRE_T_BINARY) {
    uint8_t *bytes;
    size_t n;
    wire_arena a = {b->ctx, NULL, NULL, NULL, 4096};
    st = unbase64(&a, v, &bytes, &n)
             ? bnode(b, v, wire_node_new_binary(b->doc, bytes, n), out)
             : bfail(b, v, "expected base64 text");
    wire__arena_free(&a);
  } else if (t == WIRE_T_DATE || t == WIRE_T_TIMESTAMP || t == WIRE_T_DURATION) {
    st = b_temporal(b, v, t, out);
  } else if (t == WIRE_T_DECIMAL) {
    int neg;
    uint8_t *mag;
    size_t ml;
    int32_t sc;
    wire_arena a = {b->ctx, NULL, NULL, NULL, 4096};
    st = (v->kind == WJ_STRING || v->kind == WJ_NUMBER) &&
                 wire__scan_decimal(&a, v->u.s, v->n, &neg, &mag, &ml, &sc)
             ? bnode(b, v, wire_node_new_decimal(b->doc, neg, mag, ml, sc), out)
             : bfail(b, v, "expected a decimal number");
    wire__arena_free(&a);
  } else if (t == WIRE_T_LIST || t == WIRE_T_SET) {
    st = b_list(b, v, f, out);
  } else if (t == WIRE_T_MAP) {
    st = b_map(b, v, f, out);
  } else if (wire_type_array_width(t)) {
    st = b_array(b, v, t, out);
  } else if (t == WIRE_T_BOOL || wire__is_int_type(t) || wire__is_uint_type(t) ||
             wire__is_float_type(t)) {
    st = b_scalar(b, v, t, out);
  } else {
    st = bfail(b, v, "type %s cannot be read from plain JSON",
               wire_type_name(t) ? wire_type_name(t) : "?");
  }
  b->depth--;
  return st;
}

/* A struct from an object keyed by field name (wire or declared name, or
 * "#<tag>"); missing fields get their defaults. */
static int32_t b_struct(builder *b, const wj *v, uint32_t ti, wire_node **out) {
  const wire_utype *u = &b->ctx->reg->types[ti];
  if (v->kind != WJ_OBJECT)
    return bfail(b, v, "struct %s takes an object", u->full_name);
  wire_node *n = wire_node_new_struct(b->doc, ti);
  if (!n) return bnode(b, v, NULL, out);
  const wire_layout *l = wire__st_layout(n);
  uint8_t *used = wire__alloc(b->ctx, v->n + 1);
  if (!used) return wire__fail(b->ctx, WIRE_E_NOMEM, v->off, "out of memory");
  memset(used, 0, v->n + 1);
  int32_t st = WIRE_OK;
  const char *outer = b->field;
  for (uint32_t i = 0; i < l->nfields && !st; i++) {
    const wire_lfield *lf = &l->fields[i];
    const char *decl = lf->local != WIRE_NO_TYPE ? u->fields[lf->local].name : NULL;
    char tag[24];
    snprintf(tag, sizeof tag, "#%d", lf->tag);
    const wj *fv = NULL;
    for (uint32_t k = 0; k < v->n && !fv; k++) {
      const wj_member *m = &v->u.members[k];
      if ((lf->name && m->key_len == lf->name_len &&
           wire__eq(m->key, lf->name, m->key_len)) ||
          (decl && strlen(decl) == m->key_len && wire__eq(decl, m->key, m->key_len)) ||
          (lf->tag >= 0 && strlen(tag) == m->key_len &&
           wire__eq(tag, m->key, m->key_len))) {
        fv = m->value;
        used[k] = 1;
      }
    }
    b->field = decl ? decl : lf->name ? (const char *)lf->name : tag;
    if (fv) st = build(b, fv, lf->type, &n->v.st->fields[i]);
    else st = wire__field_default(b->doc, lf->type, &n->v.st->fields[i]);
    b->field = outer;
  }
  for (uint32_t k = 0; k < v->n && !st; k++)
    if (!used[k])
      st = bfail(b, v->u.members[k].value, "struct %s has no field \"%.*s\"",
                 u->full_name,
                 (int)(v->u.members[k].key_len > 60 ? 60 : v->u.members[k].key_len),
                 v->u.members[k].key);
  wire__free(b->ctx, used, v->n + 1);
  if (!st) *out = n;
  return st;
}

int32_t wire__plain_build(wire_ctx *ctx, wire_doc *doc, const wj *v,
                          uint32_t type, wire_node **out) {
  builder b = {ctx, doc, 0, NULL};
  if (type == WIRE_BY_NAME) return guess(&b, v, out);
  wire_registry *r = ctx->reg;
  if (!r || type >= r->ntypes)
    return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not in the schema", type);
  wire_ftype f;
  memset(&f, 0, sizeof f);
  f.type_id = WIRE_T_STRUCT;
  f.user = type;
  return build(&b, v, &f, out);
}
