/* notation.c - converts between documents and the JSON value notation. */

#include "notation.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------------- */
/* Printing                                                                */
/* ---------------------------------------------------------------------- */

typedef struct {
  wire_ctx *ctx;
  wire_doc *doc;
  uint32_t *refs;    /* incoming edges per node index */
  uint8_t *visited;
  int untracked;     /* also print "tracked": false */
  const uint8_t *tds[256]; /* TypeDefs printed in this root, in order */
  size_t ntds;
} printer;

static void count_refs(printer *p, wire_node *n) {
  uint32_t i = wire_node_index(n);
  if (p->refs[i]++) return; /* already walked */
  uint32_t t = wire_node_type(n);
  if (t == WIRE_T_LIST || t == WIRE_T_SET) {
    for (size_t k = 0; k < wire_node_count(n); k++)
      count_refs(p, wire_node_child(n, k));
  } else if (t == WIRE_T_MAP) {
    for (size_t k = 0; k < wire_node_count(n); k++) {
      count_refs(p, wire_node_map_key(n, k));
      count_refs(p, wire_node_map_value(n, k));
    }
  } else if (t >= WIRE_T_STRUCT && t <= WIRE_T_NAMED_EXT) {
    for (size_t k = 0; k < wire_node_count(n); k++)
      if (wire_node_field(n, k)) count_refs(p, wire_node_field(n, k));
  } else if (t >= WIRE_T_UNION && t <= WIRE_T_NAMED_UNION) {
    count_refs(p, wire_node_union_value(n));
  }
}

/* "type" (registered full name or ns.name) or "type_id" of a user value. */
static void type_ident(printer *p, wire_node *n, json_t *o) {
  uint32_t ti;
  if (wire_node_user_type(p->doc, n, &ti) == WIRE_OK) {
    json_object_set_new(o, "type", json_string(wire_schema_type_name(p->ctx, ti)));
    return;
  }
  const uint8_t *ns, *name;
  size_t nsl, nl;
  if (wire_node_type_names(n, &ns, &nsl, &name, &nl) == WIRE_OK) {
    char *full = malloc(nsl + nl + 2);
    size_t w = 0;
    if (nsl) {
      memcpy(full, ns, nsl);
      full[nsl] = '.';
      w = nsl + 1;
    }
    if (nl) memcpy(full + w, name, nl);
    json_object_set_new(o, "type", json_stringn(full, w + nl));
    free(full);
    return;
  }
  uint32_t id = wire_node_user_type_id(n);
  if (id != UINT32_MAX) json_object_set_new(o, "type_id", json_integer(id));
}

static json_t *str_u64(uint64_t v) {
  char b[32];
  snprintf(b, sizeof b, "%" PRIu64, v);
  return json_string(b);
}
static json_t *str_i64(int64_t v) {
  char b[32];
  snprintf(b, sizeof b, "%" PRId64, v);
  return json_string(b);
}

static json_t *float_bits_json(uint32_t t, uint64_t bits) {
  char b[32];
  int digits = t == WIRE_T_FLOAT64 ? 16 : t == WIRE_T_FLOAT32 ? 8 : 4;
  snprintf(b, sizeof b, "0x%0*" PRIx64, digits, bits);
  return json_string(b);
}

static double float_value(uint32_t t, uint64_t bits) {
  switch (t) {
  case WIRE_T_FLOAT16: return wire_float16_to_double((uint16_t)bits);
  case WIRE_T_BFLOAT16: return wire_bfloat16_to_float((uint16_t)bits);
  case WIRE_T_FLOAT32: {
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  default: {
    double d;
    memcpy(&d, &bits, 8);
    return d;
  }
  }
}

static json_t *float_approx(uint32_t t, uint64_t bits) {
  double v = float_value(t, bits);
  char b[40];
  if (isnan(v)) return json_string("nan");
  if (isinf(v)) return json_string(v > 0 ? "inf" : "-inf");
  int prec = t == WIRE_T_FLOAT64 ? 17 : t == WIRE_T_FLOAT32 ? 9 : 5;
  /* Shortest precision that round-trips. */
  for (int p = 1; p <= prec; p++) {
    snprintf(b, sizeof b, "%.*g", p, v);
    double back = strtod(b, NULL);
    uint64_t again;
    switch (t) {
    case WIRE_T_FLOAT16: again = wire_float16_from_double(back); break;
    case WIRE_T_BFLOAT16: again = wire_bfloat16_from_double(back); break;
    case WIRE_T_FLOAT32: {
      float f = (float)back;
      uint32_t u;
      memcpy(&u, &f, 4);
      again = u;
      break;
    }
    default: memcpy(&again, &back, 8); break;
    }
    if (again == bits) break;
  }
  return json_string(b);
}

static const char *str_enc_name(int32_t e) {
  return e == WIRE_STR_LATIN1 ? "latin1" : e == WIRE_STR_UTF16 ? "utf16" : "utf8";
}

static json_t *text_json(const uint8_t *p, size_t n) {
  return json_stringn((const char *)p, n);
}

/* Proleptic Gregorian civil date from days since 1970-01-01. */
static void civil(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t yy = (int64_t)yoe + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yy + (*m <= 2);
}

static json_t *node_json(printer *p, wire_node *n);

/* The meta string encodings a named type was written with. */
static void name_encodings(wire_node *n, json_t *o) {
  int32_t a, c, xs, xn;
  if (wire_node_name_refs(n, &xs, &xn) == WIRE_OK) {
    if (xs & 1) json_object_set_new(o, "ns_xref", json_true());
    if (xn & 1) json_object_set_new(o, "name_xref", json_true());
    if (xs & 2) json_object_set_new(o, "ns_again", json_true());
    if (xn & 2) json_object_set_new(o, "name_again", json_true());
  }
  if (wire_node_name_encodings(n, &a, &c) != WIRE_OK || a < 0) return;
  json_object_set_new(o, "ns_enc", json_string(wire_meta_encoding_name(a)));
  json_object_set_new(o, "name_enc", json_string(wire_meta_encoding_name(c)));
}

static json_t *array_json(wire_node *n) {
  uint32_t t = wire_node_type(n);
  size_t len;
  const uint8_t *b = wire_node_bytes(n, &len);
  uint32_t w = wire_type_array_width(t);
  json_t *arr = json_array();
  for (size_t i = 0; i < len / w; i++) {
    const uint8_t *e = b + i * w;
    uint64_t u = 0;
    for (uint32_t k = 0; k < w; k++) u |= (uint64_t)e[k] << (8 * k);
    json_t *v;
    switch (t) {
    case WIRE_T_BOOL_ARRAY: v = json_boolean(u); break;
    case WIRE_T_INT8_ARRAY: v = str_i64((int8_t)u); break;
    case WIRE_T_INT16_ARRAY: v = str_i64((int16_t)u); break;
    case WIRE_T_INT32_ARRAY: v = str_i64((int32_t)u); break;
    case WIRE_T_INT64_ARRAY: v = str_i64((int64_t)u); break;
    case WIRE_T_FLOAT16_ARRAY: v = float_bits_json(WIRE_T_FLOAT16, u); break;
    case WIRE_T_BFLOAT16_ARRAY: v = float_bits_json(WIRE_T_BFLOAT16, u); break;
    case WIRE_T_FLOAT32_ARRAY: v = float_bits_json(WIRE_T_FLOAT32, u); break;
    case WIRE_T_FLOAT64_ARRAY: v = float_bits_json(WIRE_T_FLOAT64, u); break;
    default: v = str_u64(u); break;
    }
    json_array_append_new(arr, v);
  }
  return arr;
}

static json_t *node_json(printer *p, wire_node *n) {
  uint32_t idx = wire_node_index(n);
  char anchor[24];
  snprintf(anchor, sizeof anchor, "a%u", idx);
  if (p->visited[idx]) return json_pack("{s:s}", "ref", anchor);
  p->visited[idx] = 1;
  uint32_t t = wire_node_type(n);
  const char *name = wire_type_name(t);
  json_t *o = json_object();
  size_t len;
  const uint8_t *b;
  switch (t) {
  case WIRE_T_NULL:
    json_object_set_new(o, "null", json_null());
    break;
  case WIRE_T_NONE:
    json_object_set_new(o, "none", json_null());
    break;
  case WIRE_T_BOOL:
    json_object_set_new(o, "bool", json_boolean(wire_node_int(n)));
    break;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: case WIRE_T_FLOAT32:
  case WIRE_T_FLOAT64:
    json_object_set_new(o, name, float_bits_json(t, wire_node_float_bits(n)));
    json_object_set_new(o, "approx", float_approx(t, wire_node_float_bits(n)));
    break;
  case WIRE_T_STRING: {
    size_t need;
    wire_node_string_utf8(n, NULL, 0, &need);
    uint8_t *tmp = malloc(need + 1);
    wire_node_string_utf8(n, tmp, need, &need);
    json_object_set_new(o, "string", text_json(tmp, need));
    free(tmp);
    json_object_set_new(o, "enc",
                        json_string(str_enc_name(wire_node_string_encoding(n))));
    break;
  }
  case WIRE_T_BINARY: {
    b = wire_node_bytes(n, &len);
    char *hex = malloc(2 * len + 1);
    for (size_t i = 0; i < len; i++) sprintf(hex + 2 * i, "%02x", b[i]);
    hex[2 * len] = 0;
    json_object_set_new(o, "binary", json_string(hex));
    free(hex);
    break;
  }
  case WIRE_T_DATE: {
    json_object_set_new(o, "date", str_i64(wire_node_int(n)));
    int64_t y;
    unsigned m, d;
    int64_t days = wire_node_int(n);
    if (days > -3652059 && days < 2932897) { /* years 0001..9999 */
      civil(days, &y, &m, &d);
      char iso[32];
      snprintf(iso, sizeof iso, "%04" PRId64 "-%02u-%02u", y, m, d);
      json_object_set_new(o, "iso", json_string(iso));
    }
    break;
  }
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION: {
    json_object_set_new(o, name,
                        json_pack("{s:o,s:I}", "seconds",
                                  str_i64(wire_node_int(n)), "nanos",
                                  (json_int_t)wire_node_nanos(n)));
    int64_t s = wire_node_int(n);
    if (t == WIRE_T_TIMESTAMP && s > -62135596800LL && s < 253402300800LL) {
      int64_t days = s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
      int64_t sod = s - days * 86400;
      int64_t y;
      unsigned m, d;
      civil(days, &y, &m, &d);
      char iso[64];
      snprintf(iso, sizeof iso, "%04" PRId64 "-%02u-%02uT%02d:%02d:%02d.%09uZ",
               y, m, d, (int)(sod / 3600), (int)(sod / 60 % 60),
               (int)(sod % 60), wire_node_nanos(n));
      json_object_set_new(o, "iso", json_string(iso));
    }
    break;
  }
  case WIRE_T_DECIMAL: {
    /* magnitude (little-endian bytes) to decimal digits */
    b = wire_node_bytes(n, &len);
    uint8_t *mag = malloc(len ? len : 1);
    if (len) memcpy(mag, b, len);
    size_t cap = len * 3 + 3;
    char *digits = malloc(cap);
    size_t nd = 0, ml = len;
    while (ml > 0) {
      unsigned rem = 0;
      for (size_t i = ml; i-- > 0;) {
        unsigned cur = rem * 256 + mag[i];
        mag[i] = (uint8_t)(cur / 10);
        rem = cur % 10;
      }
      digits[nd++] = (char)('0' + rem);
      while (ml > 0 && mag[ml - 1] == 0) ml--;
    }
    if (nd == 0) digits[nd++] = '0';
    if (wire_node_decimal_negative(n)) digits[nd++] = '-';
    for (size_t i = 0; i < nd / 2; i++) {
      char c = digits[i];
      digits[i] = digits[nd - 1 - i];
      digits[nd - 1 - i] = c;
    }
    digits[nd] = 0;
    json_object_set_new(o, "decimal",
                        json_pack("{s:s,s:i}", "unscaled", digits, "scale",
                                  (int)wire_node_decimal_scale(n)));
    free(digits);
    free(mag);
    break;
  }
  case WIRE_T_ENUM:
  case WIRE_T_NAMED_ENUM: {
    uint32_t ti;
    if (wire_node_user_type(p->doc, n, &ti) == WIRE_OK) {
      /* An enum of the schema: named by its type, whether registered by id
       * or by name. */
      json_object_set_new(o, "enum",
                          json_pack("{s:s,s:I}", "type",
                                    wire_schema_type_name(p->ctx, ti), "value",
                                    (json_int_t)wire_node_enum_value(n)));
      if (t == WIRE_T_NAMED_ENUM) name_encodings(n, o);
      break;
    }
    if (t == WIRE_T_ENUM && wire_node_enum_type_id(n) == UINT32_MAX) {
      /* an enum field read through a TypeDef, with no schema to name it */
      json_object_set_new(o, "enum",
                          json_pack("{s:I}", "value",
                                    (json_int_t)wire_node_enum_value(n)));
      break;
    }
    if (t == WIRE_T_ENUM) {
      json_object_set_new(o, "enum",
                          json_pack("{s:I,s:I}", "type_id",
                                    (json_int_t)wire_node_enum_type_id(n),
                                    "value",
                                    (json_int_t)wire_node_enum_value(n)));
      break;
    }
    size_t nsl, nl;
    const uint8_t *ns = wire_node_enum_namespace(n, &nsl);
    const uint8_t *nm = wire_node_bytes(n, &nl);
    json_object_set_new(o, "named_enum",
                        json_pack("{s:o,s:o,s:I}", "namespace",
                                  text_json(ns, nsl), "name", text_json(nm, nl),
                                  "value",
                                  (json_int_t)wire_node_enum_value(n)));
    int32_t a, c;
    wire_node_name_encodings(n, &a, &c);
    if (a >= 0) {
      json_object_set_new(o, "ns_enc", json_string(wire_meta_encoding_name(a)));
      json_object_set_new(o, "name_enc",
                          json_string(wire_meta_encoding_name(c)));
    }
    int32_t hf, hn;
    wire_node_name_hash_forms(n, &hf, &hn);
    if (hf) json_object_set_new(o, "ns_hash", json_string("raw"));
    if (hn) json_object_set_new(o, "name_hash", json_string("raw"));
    int32_t xs, xn;
    if (wire_node_name_refs(n, &xs, &xn) == WIRE_OK) {
      if (xs & 1) json_object_set_new(o, "ns_xref", json_true());
      if (xn & 1) json_object_set_new(o, "name_xref", json_true());
      if (xs & 2) json_object_set_new(o, "ns_again", json_true());
      if (xn & 2) json_object_set_new(o, "name_again", json_true());
    }
    break;
  }
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT: {
    json_t *body = json_object();
    type_ident(p, n, body);
    json_t *fields = json_object();
    for (size_t k = 0; k < wire_node_count(n); k++) {
      size_t fl;
      const char *fname = wire_node_field_name(n, k, &fl);
      char tagname[24];
      if (!fname) {
        fl = (size_t)snprintf(tagname, sizeof tagname, "#%d",
                              wire_node_field_tag(n, k));
        fname = tagname;
      }
      char *key = malloc(fl + 1);
      memcpy(key, fname, fl);
      key[fl] = 0;
      wire_node *fv = wire_node_field(n, k);
      if (fv) json_object_set_new(fields, key, node_json(p, fv));
      free(key);
    }
    json_object_set_new(body, "fields", fields);
    size_t tdl;
    const uint8_t *td = wire_node_typedef(n, &tdl);
    if (td) {
      size_t k = 0;
      while (k < p->ntds && p->tds[k] != td) k++;
      if (k < p->ntds) {
        json_object_set_new(body, "typedef", json_integer((json_int_t)k));
      } else {
        char *hx = malloc(2 * tdl + 1);
        for (size_t q = 0; q < tdl; q++) sprintf(hx + 2 * q, "%02x", td[q]);
        json_object_set_new(body, "typedef", json_stringn(hx, 2 * tdl));
        free(hx);
        if (p->ntds < 256) p->tds[p->ntds++] = td;
      }
    }
    json_object_set_new(o, t >= WIRE_T_EXT ? "ext" : "struct", body);
    name_encodings(n, o);
    break;
  }
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION: {
    json_t *body = json_object();
    type_ident(p, n, body);
    json_object_set_new(body, "case", json_integer(wire_node_union_case(n)));
    json_object_set_new(body, "value", node_json(p, wire_node_union_value(n)));
    json_object_set_new(o, "union", body);
    name_encodings(n, o);
    break;
  }
  case WIRE_T_LIST: case WIRE_T_SET: {
    json_t *arr = json_array();
    json_object_set_new(o, name, arr);
    int32_t h = wire_list_header(n);
    if (h >= 0) json_object_set_new(o, "header", json_integer(h));
    bool all_null = wire_node_count(n) > 0;
    for (size_t k = 0; k < wire_node_count(n); k++) {
      wire_node *c = wire_node_child(n, k);
      if (wire_node_type(c) != WIRE_T_NULL) all_null = false;
      json_array_append_new(arr, node_json(p, c));
    }
    (void)all_null;
    break;
  }
  case WIRE_T_MAP: {
    json_t *arr = json_array();
    json_object_set_new(o, "map", arr);
    for (size_t k = 0; k < wire_node_count(n); k++) {
      json_t *kj = node_json(p, wire_node_map_key(n, k));
      json_t *vj = node_json(p, wire_node_map_value(n, k));
      json_array_append_new(arr, json_pack("[o,o]", kj, vj));
    }
    size_t nc = wire_map_chunk_count(n);
    if (nc) {
      json_t *ch = json_array();
      for (size_t k = 0; k < nc; k++) {
        uint32_t h, c;
        wire_map_chunk(n, k, &h, &c);
        json_array_append_new(ch, json_pack("[I,I]", (json_int_t)h,
                                            (json_int_t)c));
      }
      json_object_set_new(o, "chunks", ch);
    }
    break;
  }
  default:
    if (t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64) {
      if (t >= WIRE_T_UINT8)
        json_object_set_new(o, name, str_u64(wire_node_uint(n)));
      else
        json_object_set_new(o, name, str_i64(wire_node_int(n)));
    } else if (wire_type_array_width(t)) {
      json_object_set_new(o, name, array_json(n));
    } else {
      json_object_set_new(o, "unsupported", json_string(name ? name : "?"));
    }
  }
  if (t != WIRE_T_NULL) {
    if (p->refs[idx] > 1) json_object_set_new(o, "anchor", json_string(anchor));
    else if (wire_node_tracked(n) == 1)
      json_object_set_new(o, "tracked", json_true());
    else if (wire_node_tracked(n) == 0 && p->untracked)
      json_object_set_new(o, "tracked", json_false());
  }
  return o;
}

json_t *wire_notation_from_root(wire_ctx *ctx, wire_doc *doc, size_t index,
                                int untracked) {
  return wire_notation_from_node_ex(ctx, doc, wire_doc_root(doc, index),
                                    untracked);
}

json_t *wire_notation_from_node(wire_ctx *ctx, wire_doc *doc, wire_node *n) {
  return wire_notation_from_node_ex(ctx, doc, n, 0);
}

json_t *wire_notation_from_node_ex(wire_ctx *ctx, wire_doc *doc,
                                   wire_node *root, int untracked) {
  size_t nn = wire_doc_node_count(doc);
  printer p = {ctx, doc, calloc(nn + 1, sizeof(uint32_t)), calloc(nn + 1, 1),
               untracked, {0}, 0};
  count_refs(&p, root);
  json_t *j = node_json(&p, root);
  free(p.refs);
  free(p.visited);
  return j;
}

/* ---------------------------------------------------------------------- */
/* Parsing                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct {
  wire_ctx *ctx;
  wire_doc *doc;
  char *err;
  size_t errlen;
  json_t *anchors; /* name -> integer index into nodes */
  wire_node **nodes;
  size_t nnodes, cap;
  unsigned depth;
  wire_node *tds[256]; /* a struct node per TypeDef of this root, in order */
  size_t ntds;
} parser;

static int32_t perr(parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int32_t perr(parser *p, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err, p->errlen, fmt, ap);
  va_end(ap);
  return WIRE_E_NOTATION;
}

static const char *const annotations[] = {
    "anchor", "tracked", "enc", "header", "chunks", "ns_enc", "name_enc",
    "ns_hash", "name_hash", "ns_xref", "name_xref", "ns_again", "name_again",
    "approx", "iso", NULL};

static bool is_annotation(const char *k) {
  for (int i = 0; annotations[i]; i++)
    if (strcmp(k, annotations[i]) == 0) return true;
  return false;
}

static bool parse_i64(const char *s, int64_t *v) {
  if (!s || !*s) return false;
  errno = 0;
  char *end;
  long long x = strtoll(s, &end, 10);
  if (errno || *end) return false;
  *v = x;
  return true;
}
static bool parse_u64(const char *s, uint64_t *v) {
  if (!s || !*s || *s == '-') return false;
  errno = 0;
  char *end;
  unsigned long long x = strtoull(s, &end, 10);
  if (errno || *end) return false;
  *v = x;
  return true;
}

/* A float string: "0x" bits, or a decimal / nan / inf. */
static bool parse_float(uint32_t t, const char *s, uint64_t *bits) {
  if (!s) return false;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s + 2, &end, 16);
    if (errno || *end || end == s + 2) return false;
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

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int32_t parse_node(parser *p, json_t *j, wire_node **out);

static int32_t remember(parser *p, json_t *j, wire_node *n) {
  json_t *a = json_object_get(j, "anchor");
  json_t *tr = json_object_get(j, "tracked");
  if (tr) {
    if (!json_is_boolean(tr)) return perr(p, "\"tracked\" must be a boolean");
    wire_node_set_tracked(n, json_is_true(tr));
  }
  if (!a) return WIRE_OK;
  if (!json_is_string(a)) return perr(p, "\"anchor\" must be a string");
  if (json_object_get(p->anchors, json_string_value(a)))
    return perr(p, "anchor \"%s\" defined twice", json_string_value(a));
  if (p->nnodes == p->cap) {
    p->cap = p->cap ? p->cap * 2 : 16;
    p->nodes = realloc(p->nodes, p->cap * sizeof *p->nodes);
  }
  p->nodes[p->nnodes] = n;
  json_object_set_new(p->anchors, json_string_value(a),
                      json_integer((json_int_t)p->nnodes));
  p->nnodes++;
  wire_node_set_tracked(n, 1);
  return WIRE_OK;
}

static int32_t doc_err(parser *p, const char *what) {
  wire_ctx *ctx = NULL;
  (void)ctx;
  return perr(p, "%s", what);
}

static int32_t parse_array_node(parser *p, uint32_t t, json_t *v,
                                wire_node **out) {
  if (!json_is_array(v))
    return perr(p, "%s takes an array", wire_type_name(t));
  uint32_t w = wire_type_array_width(t);
  size_t n = json_array_size(v);
  uint8_t *buf = malloc(n * w + 1);
  for (size_t i = 0; i < n; i++) {
    json_t *e = json_array_get(v, i);
    uint64_t u = 0;
    bool good = true;
    if (t == WIRE_T_BOOL_ARRAY) {
      good = json_is_boolean(e);
      u = json_is_true(e);
    } else if (t == WIRE_T_FLOAT16_ARRAY || t == WIRE_T_BFLOAT16_ARRAY ||
               t == WIRE_T_FLOAT32_ARRAY || t == WIRE_T_FLOAT64_ARRAY) {
      uint32_t ft = t == WIRE_T_FLOAT16_ARRAY    ? WIRE_T_FLOAT16
                    : t == WIRE_T_BFLOAT16_ARRAY ? WIRE_T_BFLOAT16
                    : t == WIRE_T_FLOAT32_ARRAY  ? WIRE_T_FLOAT32
                                                 : WIRE_T_FLOAT64;
      good = parse_float(ft, json_string_value(e), &u);
    } else if (t == WIRE_T_INT8_ARRAY || t == WIRE_T_INT16_ARRAY ||
               t == WIRE_T_INT32_ARRAY || t == WIRE_T_INT64_ARRAY) {
      int64_t x;
      good = parse_i64(json_string_value(e), &x);
      int bits = (int)w * 8;
      if (good && bits < 64) {
        int64_t lo = -(INT64_C(1) << (bits - 1)), hi = (INT64_C(1) << (bits - 1)) - 1;
        good = x >= lo && x <= hi;
      }
      u = (uint64_t)x;
    } else {
      good = parse_u64(json_string_value(e), &u);
      if (good && w < 8) good = u < (UINT64_C(1) << (8 * w));
    }
    if (!good) {
      free(buf);
      return perr(p, "element %zu of %s is invalid", i, wire_type_name(t));
    }
    for (uint32_t k = 0; k < w; k++) buf[i * w + k] = (uint8_t)(u >> (8 * k));
  }
  *out = wire_node_new_array(p->doc, t, buf, n * w);
  free(buf);
  return *out ? WIRE_OK : doc_err(p, "cannot build the array");
}

static int32_t msenc(parser *p, json_t *j, const char *key, int32_t *out) {
  json_t *v = json_object_get(j, key);
  *out = -1;
  if (!v) return WIRE_OK;
  for (int32_t e = 0; e < 5; e++)
    if (json_is_string(v) && strcmp(json_string_value(v),
                                    wire_meta_encoding_name(e)) == 0) {
      *out = e;
      return WIRE_OK;
    }
  return perr(p, "unknown meta string encoding in \"%s\"", key);
}

static int32_t apply_name_encodings(parser *p, json_t *j, wire_node *n) {
  int32_t a, b, st;
  if ((st = msenc(p, j, "ns_enc", &a)) || (st = msenc(p, j, "name_enc", &b)))
    return st;
  if ((a >= 0) != (b >= 0))
    return perr(p, "give both ns_enc and name_enc or neither");
  if (a >= 0 && wire_node_set_name_encodings(n, a, b) != WIRE_OK)
    return perr(p, "ns_enc/name_enc on a value without names");
  int32_t xs = json_is_true(json_object_get(j, "ns_xref")) |
               (json_is_true(json_object_get(j, "ns_again")) << 1);
  int32_t xn = json_is_true(json_object_get(j, "name_xref")) |
               (json_is_true(json_object_get(j, "name_again")) << 1);
  if ((xs || xn) && wire_node_set_name_refs(n, xs, xn) != WIRE_OK)
    return perr(p, "ns_xref/name_xref/ns_again/name_again on a value without "
                   "names of its own");
  return WIRE_OK;
}

static int32_t parse_node(parser *p, json_t *j, wire_node **out) {
  *out = NULL;
  if (!json_is_object(j)) return perr(p, "a node must be a JSON object");
  if (++p->depth > 10000) return perr(p, "nesting too deep");
  json_t *ref = json_object_get(j, "ref");
  if (ref) {
    if (json_object_size(j) != 1 || !json_is_string(ref))
      return perr(p, "a ref node is {\"ref\": \"name\"} alone");
    json_t *ix = json_object_get(p->anchors, json_string_value(ref));
    if (!ix) return perr(p, "unknown anchor \"%s\"", json_string_value(ref));
    *out = p->nodes[json_integer_value(ix)];
    p->depth--;
    return WIRE_OK;
  }
  const char *key = NULL;
  json_t *v = NULL;
  const char *k;
  json_t *val;
  json_object_foreach(j, k, val) {
    if (is_annotation(k)) continue;
    if (key) return perr(p, "two type keys: \"%s\" and \"%s\"", key, k);
    key = k;
    v = val;
  }
  if (!key) return perr(p, "no type key");
  int32_t t;
  if (strcmp(key, "null") == 0) t = WIRE_T_NULL;
  else t = wire_type_from_name(key, strlen(key));
  if (t < 0) return perr(p, "unknown type key \"%s\"", key);
  wire_doc *d = p->doc;
  wire_node *n = NULL;
  int32_t st = WIRE_OK;
  uint64_t u;
  int64_t i64;
  switch (t) {
  case WIRE_T_NULL:
    n = wire_node_new_null(d);
    break;
  case WIRE_T_NONE:
    n = wire_node_new_none(d);
    break;
  case WIRE_T_BOOL:
    if (!json_is_boolean(v)) return perr(p, "bool takes true or false");
    n = wire_node_new_bool(d, json_is_true(v));
    break;
  case WIRE_T_STRING: {
    if (!json_is_string(v)) return perr(p, "string takes a JSON string");
    int32_t enc = -1;
    json_t *e = json_object_get(j, "enc");
    if (e) {
      const char *es = json_string_value(e);
      if (!es) return perr(p, "\"enc\" must be a string");
      enc = strcmp(es, "latin1") == 0  ? WIRE_STR_LATIN1
            : strcmp(es, "utf16") == 0 ? WIRE_STR_UTF16
            : strcmp(es, "utf8") == 0  ? WIRE_STR_UTF8
                                       : -2;
      if (enc == -2) return perr(p, "unknown string encoding \"%s\"", es);
    }
    n = wire_node_new_string(d, (const uint8_t *)json_string_value(v),
                             json_string_length(v), enc);
    break;
  }
  case WIRE_T_BINARY: {
    const char *h = json_string_value(v);
    if (!h) return perr(p, "binary takes a hex string");
    size_t hl = strlen(h);
    if (hl % 2) return perr(p, "binary hex has odd length");
    uint8_t *buf = malloc(hl / 2 + 1);
    for (size_t i = 0; i < hl / 2; i++) {
      int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);
      if (a < 0 || b < 0) {
        free(buf);
        return perr(p, "binary hex has a bad digit");
      }
      buf[i] = (uint8_t)(a << 4 | b);
    }
    n = wire_node_new_binary(d, buf, hl / 2);
    free(buf);
    break;
  }
  case WIRE_T_DATE:
    if (!parse_i64(json_string_value(v), &i64))
      return perr(p, "date takes days as a decimal string");
    n = wire_node_new_date(d, i64);
    break;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION: {
    json_t *s = json_object_get(v, "seconds"), *ns = json_object_get(v, "nanos");
    if (!json_is_object(v) || !parse_i64(json_string_value(s), &i64) ||
        !json_is_integer(ns) || json_integer_value(ns) < 0 ||
        json_integer_value(ns) > 999999999 || json_object_size(v) != 2)
      return perr(p, "%s takes {\"seconds\": \"…\", \"nanos\": N}", key);
    n = t == WIRE_T_TIMESTAMP
            ? wire_node_new_timestamp(d, i64, (uint32_t)json_integer_value(ns))
            : wire_node_new_duration(d, i64, (uint32_t)json_integer_value(ns));
    break;
  }
  case WIRE_T_DECIMAL: {
    json_t *us = json_object_get(v, "unscaled"), *sc = json_object_get(v, "scale");
    const char *s = json_string_value(us);
    if (!json_is_object(v) || !s || !json_is_integer(sc) ||
        json_integer_value(sc) < INT32_MIN || json_integer_value(sc) > INT32_MAX)
      return perr(p, "decimal takes {\"unscaled\": \"…\", \"scale\": N}");
    bool neg = s[0] == '-';
    const char *dg = s + (neg || s[0] == '+');
    size_t nd = strlen(dg);
    if (nd == 0) return perr(p, "decimal unscaled has no digits");
    uint8_t *mag = calloc(nd / 2 + 2, 1);
    size_t ml = 0;
    for (size_t i = 0; i < nd; i++) {
      if (dg[i] < '0' || dg[i] > '9') {
        free(mag);
        return perr(p, "decimal unscaled has a bad digit");
      }
      unsigned carry = (unsigned)(dg[i] - '0');
      for (size_t q = 0; q < ml; q++) {
        unsigned cur = mag[q] * 10u + carry;
        mag[q] = (uint8_t)cur;
        carry = cur >> 8;
      }
      if (carry) mag[ml++] = (uint8_t)carry;
    }
    n = wire_node_new_decimal(d, neg, mag, ml, (int32_t)json_integer_value(sc));
    free(mag);
    break;
  }
  case WIRE_T_ENUM: {
    json_t *ti = json_object_get(v, "type_id"), *ev = json_object_get(v, "value");
    json_t *tn = json_object_get(v, "type");
    if (tn) {
      uint32_t idx;
      if (!json_is_string(tn) || !json_is_integer(ev) ||
          wire_schema_find_type(p->ctx, json_string_value(tn), json_string_length(tn),
                         &idx) != WIRE_OK ||
          wire_schema_type_kind(p->ctx, idx) != WIRE_KIND_ENUM)
        return perr(p, "enum type \"%s\" is not an enum of the schema",
                    json_string_value(tn) ? json_string_value(tn) : "?");
      n = wire_node_new_enum_of(d, idx, (uint32_t)json_integer_value(ev));
      if (n && (st = apply_name_encodings(p, j, n))) return st;
      break;
    }
    if (!ti && json_is_integer(ev) && json_object_size(v) == 1) {
      /* a field value of an unnamed enum type */
      n = wire_node_new_enum(d, UINT32_MAX, (uint32_t)json_integer_value(ev));
      break;
    }
    if (!json_is_integer(ti) || !json_is_integer(ev) ||
        json_integer_value(ti) < 0 || json_integer_value(ti) > UINT32_MAX ||
        json_integer_value(ev) < 0 || json_integer_value(ev) > UINT32_MAX)
      return perr(p, "enum takes {\"type_id\": N, \"value\": N}");
    n = wire_node_new_enum(d, (uint32_t)json_integer_value(ti),
                           (uint32_t)json_integer_value(ev));
    break;
  }
  case WIRE_T_NAMED_ENUM: {
    json_t *ns = json_object_get(v, "namespace"), *nm = json_object_get(v, "name"),
           *ev = json_object_get(v, "value");
    if (!json_is_string(ns) || !json_is_string(nm) || !json_is_integer(ev) ||
        json_integer_value(ev) < 0 || json_integer_value(ev) > UINT32_MAX)
      return perr(p, "named_enum takes {\"namespace\", \"name\", \"value\"}");
    n = wire_node_new_named_enum(
        d, (const uint8_t *)json_string_value(ns), json_string_length(ns),
        (const uint8_t *)json_string_value(nm), json_string_length(nm),
        (uint32_t)json_integer_value(ev));
    int32_t a, b;
    if ((st = msenc(p, j, "ns_enc", &a)) || (st = msenc(p, j, "name_enc", &b)))
      return st;
    if (n && (a >= 0) != (b >= 0))
      return perr(p, "give both ns_enc and name_enc or neither");
    if (n && a >= 0) wire_node_set_name_encodings(n, a, b);
    json_t *hs = json_object_get(j, "ns_hash"), *hn = json_object_get(j, "name_hash");
    if ((hs && !json_is_string(hs)) || (hn && !json_is_string(hn)))
      return perr(p, "ns_hash/name_hash must be \"raw\" or \"abs\"");
    if (n)
      wire_node_set_name_hash_forms(
          n, hs && strcmp(json_string_value(hs), "raw") == 0,
          hn && strcmp(json_string_value(hn), "raw") == 0);
    if (n)
      wire_node_set_name_refs(
          n,
          json_is_true(json_object_get(j, "ns_xref")) |
              (json_is_true(json_object_get(j, "ns_again")) << 1),
          json_is_true(json_object_get(j, "name_xref")) |
              (json_is_true(json_object_get(j, "name_again")) << 1));
    break;
  }
  case WIRE_T_STRUCT: case WIRE_T_EXT: {
    json_t *tn = json_object_get(v, "type"), *fs = json_object_get(v, "fields");
    json_t *td = json_object_get(v, "typedef");
    uint32_t idx;
    if (!json_is_object(v) || (fs && !json_is_object(fs)))
      return perr(p, "struct takes {\"type\": \"ns.Name\", \"fields\": {…}}");
    if (json_is_integer(td)) {
      json_int_t ti = json_integer_value(td);
      if (ti < 0 || (size_t)ti >= p->ntds)
        return perr(p, "\"typedef\": %lld names no earlier TypeDef", (long long)ti);
      n = wire_node_new_struct_like(d, p->tds[ti]);
    } else if (json_is_string(td)) {
      const char *h = json_string_value(td);
      size_t hl = json_string_length(td);
      uint8_t *buf = malloc(hl / 2 + 1);
      size_t bl = 0;
      for (; bl < hl / 2; bl++) {
        int a = hexval(h[2 * bl]), b = hexval(h[2 * bl + 1]);
        if (a < 0 || b < 0) break;
        buf[bl] = (uint8_t)(a << 4 | b);
      }
      if (hl % 2 || bl != hl / 2) {
        free(buf);
        return perr(p, "\"typedef\" must be hex");
      }
      n = wire_node_new_struct_typedef(d, buf, bl);
      free(buf);
      if (n && p->ntds < 256) p->tds[p->ntds++] = n;
    } else {
      if (!json_is_string(tn) ||
          wire_schema_find_type(p->ctx, json_string_value(tn), json_string_length(tn),
                         &idx) != WIRE_OK ||
          wire_schema_type_kind(p->ctx, idx) !=
              (t == WIRE_T_EXT ? WIRE_KIND_EXT : WIRE_KIND_STRUCT))
        return perr(p, "%s type \"%s\" is not in the schema (--schema)", key,
                    json_string_value(tn) ? json_string_value(tn) : "?");
      n = wire_node_new_struct(d, idx);
    }
    if (!n) return perr(p, "%s", wire_ctx_error_message(p->ctx));
    if ((st = remember(p, j, n))) return st;
    if ((st = apply_name_encodings(p, j, n))) return st;
    const char *fk;
    json_t *fv;
    json_object_foreach(fs, fk, fv) {
      wire_node *c;
      if ((st = parse_node(p, fv, &c))) return st;
      if (wire_struct_set_field(d, n, fk, strlen(fk), c) != WIRE_OK)
        return perr(p, "struct %s has no field \"%s\"",
                    json_string_value(tn) ? json_string_value(tn) : "?", fk);
    }
    p->depth--;
    *out = n;
    return WIRE_OK;
  }
  case WIRE_T_UNION: {
    json_t *tn = json_object_get(v, "type"), *c = json_object_get(v, "case"),
           *uv = json_object_get(v, "value");
    uint32_t idx = WIRE_BY_NAME;
    if (!json_is_object(v) || !json_is_integer(c) || !uv)
      return perr(p, "union takes {\"type\", \"case\": N, \"value\": node}");
    if (tn && (!json_is_string(tn) ||
               wire_schema_find_type(p->ctx, json_string_value(tn),
                              json_string_length(tn), &idx) != WIRE_OK))
      return perr(p, "union type is not in the schema");
    wire_node *un;
    if ((st = parse_node(p, uv, &un))) return st;
    n = wire_node_new_union(d, idx, (uint32_t)json_integer_value(c), un);
    if (n && (st = apply_name_encodings(p, j, n))) return st;
    break;
  }
  case WIRE_T_LIST: case WIRE_T_SET: {
    if (!json_is_array(v)) return perr(p, "%s takes an array", key);
    n = wire_node_new_list(d, (uint32_t)t);
    if (!n) break;
    json_t *h = json_object_get(j, "header");
    if (h) {
      if (!json_is_integer(h) || json_integer_value(h) < 0 ||
          json_integer_value(h) > 15)
        return perr(p, "\"header\" must be 0..15");
      wire_list_set_header(n, (int32_t)json_integer_value(h));
    }
    if ((st = remember(p, j, n))) return st;
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
      wire_node *c;
      if ((st = parse_node(p, e, &c))) return st;
      if (wire_list_append(d, n, c)) return perr(p, "out of memory");
    }
    p->depth--;
    *out = n;
    return WIRE_OK;
  }
  case WIRE_T_MAP: {
    if (!json_is_array(v)) return perr(p, "map takes an array of pairs");
    n = wire_node_new_map(d);
    if (!n) break;
    if ((st = remember(p, j, n))) return st;
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
      if (!json_is_array(e) || json_array_size(e) != 2)
        return perr(p, "map entry %zu is not a [key, value] pair", i);
      wire_node *kn, *vn;
      if ((st = parse_node(p, json_array_get(e, 0), &kn)) ||
          (st = parse_node(p, json_array_get(e, 1), &vn)))
        return st;
      if (wire_map_put(d, n, kn, vn)) return perr(p, "out of memory");
    }
    json_t *ch = json_object_get(j, "chunks");
    if (ch) {
      if (!json_is_array(ch)) return perr(p, "\"chunks\" must be an array");
      json_array_foreach(ch, i, e) {
        json_t *h = json_array_get(e, 0), *c = json_array_get(e, 1);
        if (json_array_size(e) != 2 || !json_is_integer(h) ||
            !json_is_integer(c) ||
            wire_map_add_chunk(d, n, (uint32_t)json_integer_value(h),
                               (uint32_t)json_integer_value(c)))
          return perr(p, "chunk %zu must be [header 0..63, count 1..255]", i);
      }
    }
    p->depth--;
    *out = n;
    return WIRE_OK;
  }
  default:
    if (t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_INT64) {
      if (!parse_i64(json_string_value(v), &i64))
        return perr(p, "%s takes a decimal string", key);
      n = wire_node_new_int(d, (uint32_t)t, i64);
    } else if (t >= WIRE_T_UINT8 && t <= WIRE_T_TAGGED_UINT64) {
      if (!parse_u64(json_string_value(v), &u))
        return perr(p, "%s takes a decimal string", key);
      n = wire_node_new_uint(d, (uint32_t)t, u);
    } else if (t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64) {
      if (!parse_float((uint32_t)t, json_string_value(v), &u))
        return perr(p, "%s takes \"0x<bits>\" or a decimal string", key);
      n = wire_node_new_float_bits(d, (uint32_t)t, u);
    } else if (wire_type_array_width((uint32_t)t)) {
      if ((st = parse_array_node(p, (uint32_t)t, v, &n))) return st;
    } else {
      return perr(p, "type \"%s\" cannot be written from the notation yet",
                  key);
    }
  }
  if (!n) return perr(p, "value of \"%s\" is out of range or invalid", key);
  if ((st = remember(p, j, n))) return st;
  p->depth--;
  *out = n;
  return WIRE_OK;
}

int32_t wire_notation_add_root(wire_ctx *ctx, wire_doc *doc, json_t *value,
                               char *err, size_t errlen) {
  parser p = {ctx, doc, err, errlen, json_object(), NULL, 0, 0, 0, {0}, 0};
  wire_node *n;
  int32_t st = parse_node(&p, value, &n);
  if (st == WIRE_OK) st = wire_doc_add_root(doc, n);
  json_decref(p.anchors);
  free(p.nodes);
  return st;
}
