/* notation_print.c - documents to the value notation (spec/notation.md),
 * streamed in chunks: nothing is held but a 4 KiB buffer and two bytes of
 * scratch per document node (incoming edges, visited). */
#include <stdio.h>

#include "notation.h"

#define MAX_PRINT_DEPTH 4096
#define MAX_TDS 256

typedef struct {
  wire_ctx *ctx;
  const wire_doc *doc;
  wire_tout *o;
  uint8_t *refs;      /* incoming edges per node index (saturating at 2) */
  uint8_t *visited;
  bool untracked;     /* also print "tracked": false */
  uint32_t depth;
  /* TypeDefs printed in this document, numbered in pre-order - the order
   * in which the encoder meets (and announces) them: a struct's TypeDef
   * comes before those of its fields (spec N-4). */
  const uint8_t *tds[MAX_TDS];
  size_t ntds;
  /* TypeDefs equal to the schema's, first announcements: not printed */
  const uint8_t *sch[MAX_TDS];
  size_t sch_len[MAX_TDS], nsch;
} printer;

/* ---- shared references --------------------------------------------------- */

/* Children of a node, for the edge count. */
static size_t child_count(const wire_node *n) {
  uint32_t t = wire_node_type(n);
  if (t == WIRE_T_MAP) return 2 * wire_node_count(n);
  if ((t >= WIRE_T_STRUCT && t <= WIRE_T_NAMED_EXT) || t == WIRE_T_LIST ||
      t == WIRE_T_SET)
    return wire_node_count(n);
  if (t >= WIRE_T_UNION && t <= WIRE_T_NAMED_UNION) return 1;
  return 0;
}

static wire_node *child_at(const wire_node *n, size_t k) {
  uint32_t t = wire_node_type(n);
  if (t == WIRE_T_MAP)
    return k & 1 ? wire_node_map_value(n, k / 2) : wire_node_map_key(n, k / 2);
  if (t == WIRE_T_LIST || t == WIRE_T_SET) return wire_node_child(n, k);
  if (t >= WIRE_T_UNION && t <= WIRE_T_NAMED_UNION)
    return wire_node_union_value(n);
  return wire_node_field(n, k);
}

/* Counts incoming edges from `root` without recursion (an explicit stack
 * of (node, next child) pairs). */
static int32_t count_refs(printer *p, const wire_node *root) {
  typedef struct { const wire_node *n; size_t k; } frame;
  size_t cap = 64, top = 0;
  frame *st = wire__alloc(p->ctx, cap * sizeof *st);
  if (!st) return wire__fail(p->ctx, WIRE_E_NOMEM, 0, "out of memory");
  p->refs[wire_node_index(root)] = 1;
  st[top++] = (frame){root, 0};
  while (top) {
    frame *f = &st[top - 1];
    if (f->k == child_count(f->n)) {
      top--;
      continue;
    }
    const wire_node *c = child_at(f->n, f->k++);
    if (!c) continue;
    uint32_t i = wire_node_index(c);
    if (p->refs[i]++) {
      p->refs[i] = 2;
      continue;
    }
    if (top == cap) {
      frame *g = wire__grow(p->ctx, st, &cap, top, sizeof *st, cap);
      if (!g) {
        wire__free(p->ctx, st, cap * sizeof *st);
        return wire__fail(p->ctx, WIRE_E_NOMEM, 0, "out of memory");
      }
      st = g;
    }
    st[top++] = (frame){c, 0};
  }
  wire__free(p->ctx, st, cap * sizeof *st);
  return WIRE_OK;
}

/* ---- small pieces --------------------------------------------------------- */

static void key_str(printer *p, bool *any, const char *k, const char *v) {
  wire__tout_key(p->o, any, k);
  wire__tout_str(p->o, v, strlen(v));
}
static void key_u64(printer *p, bool *any, const char *k, uint64_t v) {
  wire__tout_key(p->o, any, k);
  wire__tout_u64(p->o, v);
}
static void key_true(printer *p, bool *any, const char *k) {
  wire__tout_key(p->o, any, k);
  wire__tout_raw(p->o, "true", 4);
}
/* A decimal integer as a JSON string. */
static void str_i64(printer *p, int64_t v) {
  wire__tout_put(p->o, '"');
  wire__tout_i64(p->o, v);
  wire__tout_put(p->o, '"');
}
static void str_u64(printer *p, uint64_t v) {
  wire__tout_put(p->o, '"');
  wire__tout_u64(p->o, v);
  wire__tout_put(p->o, '"');
}

static void hex_string(printer *p, const uint8_t *b, size_t n) {
  static const char hx[] = "0123456789abcdef";
  wire__tout_put(p->o, '"');
  for (size_t i = 0; i < n; i++) {
    wire__tout_put(p->o, hx[b[i] >> 4]);
    wire__tout_put(p->o, hx[b[i] & 15]);
  }
  wire__tout_put(p->o, '"');
}

static void float_bits_str(printer *p, uint32_t t, uint64_t bits) {
  char b[32];
  int digits = t == WIRE_T_FLOAT64 ? 16 : t == WIRE_T_FLOAT32 ? 8 : 4;
  snprintf(b, sizeof b, "\"0x%0*llx\"", digits, (unsigned long long)bits);
  wire__tout_cstr(p->o, b);
}

static const char *str_enc_name(int32_t e) {
  return e == WIRE_STR_LATIN1 ? "latin1" : e == WIRE_STR_UTF16 ? "utf16"
                                                               : "utf8";
}

/* ns_xref / name_xref / ns_again / name_again of a node with names. */
static void name_refs(printer *p, bool *any, const wire_node *n) {
  int32_t xs, xn;
  if (wire_node_name_refs(n, &xs, &xn) != WIRE_OK) return;
  if (xs & 1) key_true(p, any, "ns_xref");
  if (xn & 1) key_true(p, any, "name_xref");
  if (xs & 2) key_true(p, any, "ns_again");
  if (xn & 2) key_true(p, any, "name_again");
}

/* The meta string choices of a named type (structs, unions, enums of the
 * schema). */
static void name_encodings(printer *p, bool *any, const wire_node *n) {
  int32_t a, c;
  name_refs(p, any, n);
  if (wire_node_name_encodings(n, &a, &c) != WIRE_OK || a < 0) return;
  key_str(p, any, "ns_enc", wire_meta_encoding_name(a));
  key_str(p, any, "name_enc", wire_meta_encoding_name(c));
  /* pyfory's hash form of a long name, also for structs, unions and
   * enums registered by name (notation N-4) */
  if (wire_node_type(n) != WIRE_T_NAMED_ENUM &&
      wire_node_name_hash_forms(n, &a, &c) == WIRE_OK) {
    if (a) key_str(p, any, "ns_hash", "raw");
    if (c) key_str(p, any, "name_hash", "raw");
  }
}

/* "type" (registered full name, or ns.name) or "type_id" of a user value. */
static void type_ident(printer *p, bool *any, const wire_node *n) {
  uint32_t ti;
  if (wire_node_user_type(p->doc, n, &ti) == WIRE_OK) {
    const char *name = wire_schema_type_name(p->ctx, ti);
    if (name) key_str(p, any, "type", name);
    return;
  }
  const uint8_t *ns, *name;
  size_t nsl, nl;
  if (wire_node_type_names(n, &ns, &nsl, &name, &nl) == WIRE_OK) {
    wire__tout_key(p->o, any, "type");
    wire_tout *o = p->o;
    char *full = wire__alloc(p->ctx, nsl + nl + 2);
    if (!full) {
      o->status = WIRE_E_NOMEM;
      return;
    }
    size_t w = 0;
    if (nsl) {
      memcpy(full, ns, nsl);
      full[nsl] = '.';
      w = nsl + 1;
    }
    if (nl) memcpy(full + w, name, nl);
    wire__tout_str(o, full, w + nl);
    wire__free(p->ctx, full, nsl + nl + 2);
    return;
  }
  uint32_t id = wire_node_user_type_id(n);
  if (id != UINT32_MAX) key_u64(p, any, "type_id", id);
}

static int32_t print_node(printer *p, const wire_node *n);

/* ---- node kinds ------------------------------------------------------------ */

static void print_float(printer *p, bool *any, const wire_node *n,
                        uint32_t t) {
  char b[48];
  wire__tout_key(p->o, any, wire_type_name(t));
  float_bits_str(p, t, wire_node_float_bits(n));
  wire__fmt_float(t, wire_node_float_bits(n), b, sizeof b);
  key_str(p, any, "approx", b);
}

static void print_string(printer *p, bool *any, const wire_node *n) {
  size_t need = 0;
  wire_node_string_utf8(n, NULL, 0, &need);
  uint8_t *tmp = wire__alloc(p->ctx, need + 1);
  if (!tmp) {
    p->o->status = WIRE_E_NOMEM;
    return;
  }
  wire_node_string_utf8(n, tmp, need + 1, &need);
  wire__tout_key(p->o, any, "string");
  wire__tout_str(p->o, (const char *)tmp, need);
  wire__free(p->ctx, tmp, need + 1);
  key_str(p, any, "enc", str_enc_name(wire_node_string_encoding(n)));
}

static void print_temporal(printer *p, bool *any, const wire_node *n,
                           uint32_t t) {
  char iso[48];
  int64_t v = wire_node_int(n);
  if (t == WIRE_T_DATE) {
    wire__tout_key(p->o, any, "date");
    str_i64(p, v);
    if (wire__fmt_date(v, iso, sizeof iso)) key_str(p, any, "iso", iso);
    return;
  }
  bool inner = false;
  wire__tout_key(p->o, any, wire_type_name(t));
  wire__tout_open(p->o, '{');
  wire__tout_key(p->o, &inner, "seconds");
  str_i64(p, v);
  key_u64(p, &inner, "nanos", wire_node_nanos(n));
  wire__tout_close(p->o, '}', inner);
  if (t == WIRE_T_TIMESTAMP &&
      wire__fmt_timestamp(v, wire_node_nanos(n), 1, iso, sizeof iso))
    key_str(p, any, "iso", iso);
}

static void print_decimal(printer *p, bool *any, const wire_node *n) {
  size_t len, dl, cap;
  const uint8_t *b = wire_node_bytes(n, &len);
  char *digits = wire__fmt_decimal(p->ctx, wire_node_decimal_negative(n), b,
                                   len, 0, 0, &dl, &cap);
  if (!digits) {
    p->o->status = WIRE_E_NOMEM;
    return;
  }
  bool inner = false;
  wire__tout_key(p->o, any, "decimal");
  wire__tout_open(p->o, '{');
  wire__tout_key(p->o, &inner, "unscaled");
  wire__tout_str(p->o, digits, dl);
  wire__tout_key(p->o, &inner, "scale");
  wire__tout_i64(p->o, wire_node_decimal_scale(n));
  wire__tout_close(p->o, '}', inner);
  wire__free(p->ctx, digits, cap);
}

static void print_named_enum(printer *p, bool *any, const wire_node *n) {
  size_t nsl, nl;
  const uint8_t *ns = wire_node_enum_namespace(n, &nsl);
  const uint8_t *nm = wire_node_bytes(n, &nl);
  bool inner = false;
  wire__tout_key(p->o, any, "named_enum");
  wire__tout_open(p->o, '{');
  wire__tout_key(p->o, &inner, "namespace");
  wire__tout_str(p->o, (const char *)ns, nsl);
  wire__tout_key(p->o, &inner, "name");
  wire__tout_str(p->o, (const char *)nm, nl);
  key_u64(p, &inner, "value", wire_node_enum_value(n));
  wire__tout_close(p->o, '}', inner);
  int32_t a, c, hf, hn;
  wire_node_name_encodings(n, &a, &c);
  if (a >= 0) {
    key_str(p, any, "ns_enc", wire_meta_encoding_name(a));
    key_str(p, any, "name_enc", wire_meta_encoding_name(c));
  }
  wire_node_name_hash_forms(n, &hf, &hn);
  if (hf) key_str(p, any, "ns_hash", "raw");
  if (hn) key_str(p, any, "name_hash", "raw");
  name_refs(p, any, n);
}

static void print_enum(printer *p, bool *any, const wire_node *n, uint32_t t) {
  uint32_t ti;
  bool inner = false;
  if (wire_node_user_type(p->doc, n, &ti) == WIRE_OK) {
    /* an enum of the schema, named by its type whether registered by id
     * or by name */
    wire__tout_key(p->o, any, "enum");
    wire__tout_open(p->o, '{');
    const char *name = wire_schema_type_name(p->ctx, ti);
    if (name) key_str(p, &inner, "type", name);
    key_u64(p, &inner, "value", wire_node_enum_value(n));
    wire__tout_close(p->o, '}', inner);
    if (t == WIRE_T_NAMED_ENUM) name_encodings(p, any, n);
    return;
  }
  if (t == WIRE_T_NAMED_ENUM) {
    print_named_enum(p, any, n);
    return;
  }
  wire__tout_key(p->o, any, "enum");
  wire__tout_open(p->o, '{');
  /* without a type id: an enum field read through a TypeDef, with no
   * schema to name it */
  if (wire_node_enum_type_id(n) != UINT32_MAX)
    key_u64(p, &inner, "type_id", wire_node_enum_type_id(n));
  key_u64(p, &inner, "value", wire_node_enum_value(n));
  wire__tout_close(p->o, '}', inner);
}

/* "typedef": the hex of a TypeDef met for the first time, or the number of
 * an earlier one. The number is taken when the struct is entered, before
 * its fields (pre-order, as the encoder announces them). */
static int64_t typedef_number(printer *p, const wire_node *n, bool *fresh) {
  size_t tdl;
  bool match;
  const uint8_t *td = wire__node_typedef_raw(n, &tdl, &match);
  *fresh = false;
  if (!td) return -1;
  for (size_t k = 0; k < p->ntds; k++)
    if (p->tds[k] == td) return (int64_t)k;
  if (match) {
    /* The schema's own TypeDef is implied - unless the payload announced
     * equal bytes again (Fory Go): that announcement is printed, so that
     * the encoder announces it again too (N-5.3). */
    bool again = false;
    for (size_t k = 0; k < p->nsch; k++) {
      if (p->sch[k] == td) return -1;
      if (p->sch_len[k] == tdl && memcmp(p->sch[k], td, tdl) == 0) again = true;
    }
    if (!again) {
      if (p->nsch < MAX_TDS) {
        p->sch[p->nsch] = td;
        p->sch_len[p->nsch++] = tdl;
      }
      return -1;
    }
  }
  *fresh = true;
  if (p->ntds < MAX_TDS) p->tds[p->ntds++] = td;
  return -1;
}

static int32_t print_struct(printer *p, bool *any, const wire_node *n,
                            uint32_t t) {
  bool fresh, inner = false, fany = false;
  int64_t tdn = typedef_number(p, n, &fresh);
  wire__tout_key(p->o, any, t >= WIRE_T_EXT ? "ext" : "struct");
  wire__tout_open(p->o, '{');
  type_ident(p, &inner, n);
  wire__tout_key(p->o, &inner, "fields");
  wire__tout_open(p->o, '{');
  for (size_t k = 0; k < wire_node_count(n); k++) {
    const wire_node *fv = wire_node_field(n, k);
    if (!fv) continue;
    size_t fl;
    const char *fname = wire_node_field_name(n, k, &fl);
    char tagname[24];
    if (!fname) {
      fl = (size_t)snprintf(tagname, sizeof tagname, "#%d",
                            wire_node_field_tag(n, k));
      fname = tagname;
    }
    wire__tout_keyn(p->o, &fany, fname, fl);
    int32_t st = print_node(p, fv);
    if (st) return st;
  }
  wire__tout_close(p->o, '}', fany);
  if (tdn >= 0) {
    key_u64(p, &inner, "typedef", (uint64_t)tdn);
  } else if (fresh) {
    size_t tdl;
    bool match;
    const uint8_t *td = wire__node_typedef_raw(n, &tdl, &match);
    wire__tout_key(p->o, &inner, "typedef");
    hex_string(p, td, tdl);
  }
  wire__tout_close(p->o, '}', inner);
  name_encodings(p, any, n);
  return WIRE_OK;
}

static int32_t print_union(printer *p, bool *any, const wire_node *n) {
  bool inner = false;
  wire__tout_key(p->o, any, "union");
  wire__tout_open(p->o, '{');
  type_ident(p, &inner, n);
  key_u64(p, &inner, "case", wire_node_union_case(n));
  wire__tout_key(p->o, &inner, "value");
  int32_t st = print_node(p, wire_node_union_value(n));
  if (st) return st;
  wire__tout_close(p->o, '}', inner);
  name_encodings(p, any, n);
  return WIRE_OK;
}

/* Whether the all-null list n was read with a user element type (R-LIST-5)
 * that no declaration gives the encoder again: the list is the printed
 * root, or the type is one the context's schema does not have (a
 * compatible payload read without one). The notation cannot name that
 * type, and the list's same-type header alone would be written with NONE,
 * which Java and Go do not read; its "header" is then left out, so that
 * `wire encode` writes the list as R-WLIST-2 says (the declared type's
 * meta, or no same-type bit). */
static bool elem_type_unnamed(const printer *p, const wire_node *n) {
  const wire_node *et = wire__list_elem_type(n);
  if (!et) return false;
  if (p->depth == 1) return true;
  uint8_t t = (uint8_t)wire_node_type(et);
  if (t != WIRE_T_ENUM && t != WIRE_T_NAMED_ENUM)
    return wire__st_layout(et)->type_index == WIRE_NO_TYPE;
  const wire_names *nm = t == WIRE_T_NAMED_ENUM ? et->v.names : NULL;
  return wire__reg_lookup_names(p->ctx, WIRE_KIND_ENUM, et->v.en, nm) ==
         WIRE_NO_TYPE;
}

static int32_t print_list(printer *p, bool *any, const wire_node *n,
                          uint32_t t) {
  bool items = false;
  wire__tout_key(p->o, any, wire_type_name(t));
  wire__tout_open(p->o, '[');
  for (size_t k = 0; k < wire_node_count(n); k++) {
    wire__tout_sep(p->o, &items);
    int32_t st = print_node(p, wire_node_child(n, k));
    if (st) return st;
  }
  wire__tout_close(p->o, ']', items);
  int32_t h = wire_list_header(n);
  if (h >= 0 && !elem_type_unnamed(p, n)) key_u64(p, any, "header", (uint64_t)h);
  return WIRE_OK;
}

static int32_t print_map(printer *p, bool *any, const wire_node *n) {
  bool items = false;
  wire__tout_key(p->o, any, "map");
  wire__tout_open(p->o, '[');
  for (size_t k = 0; k < wire_node_count(n); k++) {
    bool pair = false;
    wire__tout_sep(p->o, &items);
    wire__tout_open(p->o, '[');
    wire__tout_sep(p->o, &pair);
    int32_t st = print_node(p, wire_node_map_key(n, k));
    if (st) return st;
    wire__tout_sep(p->o, &pair);
    if ((st = print_node(p, wire_node_map_value(n, k)))) return st;
    wire__tout_close(p->o, ']', pair);
  }
  wire__tout_close(p->o, ']', items);
  size_t nc = wire_map_chunk_count(n);
  if (nc) {
    bool chunks = false;
    wire__tout_key(p->o, any, "chunks");
    wire__tout_open(p->o, '[');
    for (size_t k = 0; k < nc; k++) {
      uint32_t h, c;
      bool pair = false;
      wire_map_chunk(n, k, &h, &c);
      wire__tout_sep(p->o, &chunks);
      wire__tout_open(p->o, '[');
      wire__tout_sep(p->o, &pair);
      wire__tout_u64(p->o, h);
      wire__tout_sep(p->o, &pair);
      wire__tout_u64(p->o, c);
      wire__tout_close(p->o, ']', pair);
    }
    wire__tout_close(p->o, ']', chunks);
  }
  return WIRE_OK;
}

static void print_array(printer *p, bool *any, const wire_node *n,
                        uint32_t t) {
  size_t len;
  const uint8_t *b = wire_node_bytes(n, &len);
  uint32_t w = wire_type_array_width(t);
  bool items = false;
  wire__tout_key(p->o, any, wire_type_name(t));
  wire__tout_open(p->o, '[');
  for (size_t i = 0; i < len / w; i++) {
    const uint8_t *e = b + i * w;
    uint64_t u = 0;
    for (uint32_t k = 0; k < w; k++) u |= (uint64_t)e[k] << (8 * k);
    wire__tout_sep(p->o, &items);
    switch (t) {
    case WIRE_T_BOOL_ARRAY: wire__tout_cstr(p->o, u ? "true" : "false"); break;
    case WIRE_T_INT8_ARRAY: str_i64(p, (int8_t)u); break;
    case WIRE_T_INT16_ARRAY: str_i64(p, (int16_t)u); break;
    case WIRE_T_INT32_ARRAY: str_i64(p, (int32_t)u); break;
    case WIRE_T_INT64_ARRAY: str_i64(p, (int64_t)u); break;
    case WIRE_T_FLOAT16_ARRAY: float_bits_str(p, WIRE_T_FLOAT16, u); break;
    case WIRE_T_BFLOAT16_ARRAY: float_bits_str(p, WIRE_T_BFLOAT16, u); break;
    case WIRE_T_FLOAT32_ARRAY: float_bits_str(p, WIRE_T_FLOAT32, u); break;
    case WIRE_T_FLOAT64_ARRAY: float_bits_str(p, WIRE_T_FLOAT64, u); break;
    default: str_u64(p, u); break;
    }
  }
  wire__tout_close(p->o, ']', items);
}

/* "anchor" when the node is reached more than once, else its tracked
 * state when it differs from the default. */
static void ref_annotations(printer *p, bool *any, const wire_node *n) {
  if (wire_node_type(n) == WIRE_T_NULL) return;
  if (p->refs[wire_node_index(n)] > 1) {
    char anchor[24];
    snprintf(anchor, sizeof anchor, "a%u", wire_node_index(n));
    key_str(p, any, "anchor", anchor);
  } else if (wire_node_tracked(n) == 1) {
    key_true(p, any, "tracked");
  } else if (wire_node_tracked(n) == 0 && p->untracked) {
    wire__tout_key(p->o, any, "tracked");
    wire__tout_raw(p->o, "false", 5);
  }
}

static int32_t print_value(printer *p, bool *any, const wire_node *n,
                           uint32_t t) {
  switch (t) {
  case WIRE_T_NULL:
    wire__tout_key(p->o, any, "null");
    wire__tout_raw(p->o, "null", 4);
    return WIRE_OK;
  case WIRE_T_NONE:
    wire__tout_key(p->o, any, "none");
    wire__tout_raw(p->o, "null", 4);
    return WIRE_OK;
  case WIRE_T_BOOL:
    wire__tout_key(p->o, any, "bool");
    wire__tout_cstr(p->o, wire_node_int(n) ? "true" : "false");
    return WIRE_OK;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: case WIRE_T_FLOAT32:
  case WIRE_T_FLOAT64:
    print_float(p, any, n, t);
    return WIRE_OK;
  case WIRE_T_STRING:
    print_string(p, any, n);
    return WIRE_OK;
  case WIRE_T_BINARY: {
    size_t len;
    const uint8_t *b = wire_node_bytes(n, &len);
    wire__tout_key(p->o, any, "binary");
    hex_string(p, b, len);
    return WIRE_OK;
  }
  case WIRE_T_DATE: case WIRE_T_TIMESTAMP: case WIRE_T_DURATION:
    print_temporal(p, any, n, t);
    return WIRE_OK;
  case WIRE_T_DECIMAL:
    print_decimal(p, any, n);
    return WIRE_OK;
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM:
    print_enum(p, any, n, t);
    return WIRE_OK;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    return print_struct(p, any, n, t);
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION:
    return print_union(p, any, n);
  case WIRE_T_LIST: case WIRE_T_SET:
    return print_list(p, any, n, t);
  case WIRE_T_MAP:
    return print_map(p, any, n);
  default:
    if (wire__is_int_type(t)) {
      wire__tout_key(p->o, any, wire_type_name(t));
      str_i64(p, wire_node_int(n));
    } else if (wire__is_uint_type(t)) {
      wire__tout_key(p->o, any, wire_type_name(t));
      str_u64(p, wire_node_uint(n));
    } else if (wire_type_array_width(t)) {
      print_array(p, any, n, t);
    } else {
      const char *name = wire_type_name(t);
      key_str(p, any, "unsupported", name ? name : "?");
    }
    return WIRE_OK;
  }
}

static int32_t print_node(printer *p, const wire_node *n) {
  if (p->o->status) return p->o->status;
  uint32_t idx = wire_node_index(n);
  bool any = false;
  wire__tout_open(p->o, '{');
  /* nulls are never references (a decoded document shares one) */
  if (p->visited[idx] && wire_node_type(n) != WIRE_T_NULL) {
    char anchor[24];
    snprintf(anchor, sizeof anchor, "a%u", idx);
    key_str(p, &any, "ref", anchor);
    wire__tout_close(p->o, '}', any);
    return p->o->status;
  }
  p->visited[idx] = 1;
  if (++p->depth > MAX_PRINT_DEPTH)
    return wire__fail(p->ctx, WIRE_E_DEPTH, 0,
                      "value nested deeper than %d levels", MAX_PRINT_DEPTH);
  int32_t st = print_value(p, &any, n, wire_node_type(n));
  if (st) return st;
  ref_annotations(p, &any, n);
  /* out-of-band buffers (N-3, R-OOB-6) */
  int32_t band = wire_node_band(n);
  if (band != WIRE_BAND_POLICY) key_str(p, &any, "band", band ? "out" : "in");
  if (p->depth == 1 && (n->flags & WIRE_NF_OOB_ROOT)) key_true(p, &any, "oob");
  wire__tout_close(p->o, '}', any);
  p->depth--;
  return p->o->status;
}

/* ---- entry points ------------------------------------------------------------- */

static int32_t run_print(wire_ctx *ctx, const wire_doc *doc,
                         const wire_node *node, uint32_t flags, wire_tout *o) {
  if (flags & WIRE_NOTATION_PLAIN) return wire__plain_print(ctx, doc, node, o);
  size_t nn = wire_doc_node_count(doc) + 1;
  printer p;
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.doc = doc;
  p.o = o;
  p.untracked = flags & WIRE_NOTATION_UNTRACKED;
  p.refs = wire__alloc(ctx, nn * sizeof *p.refs);
  p.visited = wire__alloc(ctx, nn);
  int32_t st;
  if (!p.refs || !p.visited) {
    st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  } else {
    memset(p.refs, 0, nn * sizeof *p.refs);
    memset(p.visited, 0, nn);
    st = count_refs(&p, node);
    if (!st) st = print_node(&p, node);
  }
  wire__free(ctx, p.refs, nn * sizeof *p.refs);
  wire__free(ctx, p.visited, nn);
  return st;
}

int32_t wire_notation_write(wire_ctx *ctx, const wire_doc *doc,
                            const wire_node *node, uint32_t flags,
                            wire_text_fn out, void *user) {
  if (!ctx || !doc || !node || !out) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  wire_tout *o = wire__alloc(ctx, sizeof *o);
  if (!o) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  o->ctx = ctx;
  o->fn = out;
  o->user = user;
  o->status = WIRE_OK;
  o->indent = (flags & WIRE_NOTATION_PRETTY) ? 2 : 0;
  o->level = 0;
  o->len = 0;
  int32_t st = run_print(ctx, doc, node, flags, o);
  if (!st) {
    wire__tout_flush(o);
    st = o->status;
  } else if (o->status && !ctx->err_code) {
    st = wire__fail(ctx, o->status, 0, "out of memory");
  }
  wire__free(ctx, o, sizeof *o);
  return st;
}

static int32_t append(void *user, const char *text, size_t len) {
  wire_buf *b = user;
  wire__put_bytes(b, text, len);
  return b->status;
}

int32_t wire_notation_print(wire_ctx *ctx, const wire_doc *doc,
                            const wire_node *node, uint32_t flags,
                            uint8_t **out, size_t *out_len) {
  if (!out || !out_len) return WIRE_E_ARG;
  *out = NULL;
  *out_len = 0;
  wire_buf b = {ctx, NULL, 0, 0, false, WIRE_OK};
  int32_t st = wire_notation_write(ctx, doc, node, flags, append, &b);
  if (!st) {
    uint8_t *r = wire__bytes_alloc(ctx, b.len + 1);
    if (!r) {
      st = wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    } else {
      if (b.len) memcpy(r, b.p, b.len);
      r[b.len] = 0;
      *out = r;
      *out_len = b.len;
    }
  }
  wire__free(ctx, b.p, b.cap);
  return st;
}
