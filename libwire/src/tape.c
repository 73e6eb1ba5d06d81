/* tape.c - tapes and documents (format in spec/tape.md).
 *
 *   wire_doc_add_tape(ctx, doc, tape, len)   tape -> document nodes
 *
 * and the reference path of the tape codec, built on the document builder
 * and accessor functions:
 *
 *   wire__tape_encode_doc   tape -> document -> bytes (wire_encode)
 *   wire__tape_decode_doc   bytes -> document (wire_decode) -> tape
 *
 * wire_encode_tape / wire_decode_tape do the same without a document
 * (tape_enc.c, tape_dec.c); the tests check that both give the same bytes
 * and tapes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tape.h"

/* ---------------------------------------------------------------------- */
/* tape -> document                                                        */
/* ---------------------------------------------------------------------- */

typedef struct {
  const uint8_t *td;
  uint32_t len;
  wire_node *first;
} td_seen;

typedef struct {
  wire_ctx *ctx;
  wire_doc *doc;
  const uint8_t *p, *start, *end;
  wire_node **nodes; /* the referenceable values of the tape, in pre-order;
                        NULL for a union whose value is being read */
  size_t n, cap;
  td_seen *tds;      /* STRUCT_TD layouts of this tape, by TypeDef bytes */
  size_t ntds, tds_cap;
  int ref;
  int32_t status;
  uint64_t err_at;
} rd;

static int rfail(rd *r, int32_t st, const uint8_t *at) {
  if (!r->status) {
    r->status = st;
    r->err_at = (uint64_t)(at - r->start);
  }
  return 0;
}
/* A failed builder: its status (the context's error). */
static int bfail(rd *r, const uint8_t *at) {
  int32_t st = wire_ctx_error_code(r->ctx);
  return rfail(r, st ? st : WIRE_E_ARG, at);
}
static int need(rd *r, size_t k) {
  return (size_t)(r->end - r->p) >= k ? 1 : rfail(r, WIRE_E_TRUNCATED, r->p);
}
static uint8_t u8(rd *r) { return need(r, 1) ? *r->p++ : 0; }
static uint16_t u16(rd *r) {
  if (!need(r, 2)) return 0;
  uint16_t v = (uint16_t)(r->p[0] | r->p[1] << 8);
  r->p += 2;
  return v;
}
static uint32_t u32(rd *r) {
  if (!need(r, 4)) return 0;
  uint32_t v;
  memcpy(&v, r->p, 4);
  r->p += 4;
  return v;
}
static uint64_t u64(rd *r) {
  if (!need(r, 8)) return 0;
  uint64_t v;
  memcpy(&v, r->p, 8);
  r->p += 8;
  return v;
}
static double f64(rd *r) {
  uint64_t b = u64(r);
  double d;
  memcpy(&d, &b, 8);
  return d;
}
static const uint8_t *bytes(rd *r, size_t n) {
  if (!need(r, n)) return NULL;
  const uint8_t *q = r->p;
  r->p += n;
  return q;
}

static int number(rd *r, wire_node *n, const uint8_t *at) {
  if (r->n == r->cap) {
    wire_node **m = wire__grow(r->ctx, r->nodes, &r->cap, r->n, sizeof *m, 64);
    if (!m) return rfail(r, WIRE_E_NOMEM, at);
    r->nodes = m;
  }
  r->nodes[r->n++] = n;
  return 1;
}
static int keep(rd *r, wire_node *n, const uint8_t *at) {
  if (!n) return bfail(r, at);
  if (!wire__tape_referenceable(wire_node_type(n))) return 1;
  return number(r, n, at);
}

static int count_ok(rd *r, uint32_t cnt, const uint8_t *at) {
  if (cnt > r->ctx->max_collection) {
    rfail(r, WIRE_E_LIMIT, at);
    return 0;
  }
  return 1;
}

static wire_node *value(rd *r, unsigned depth);

/* Fields by name (STRUCT, STRUCT_TD), in any order. */
static int fields(rd *r, wire_node *s, unsigned depth, const uint8_t *at) {
  uint32_t nf = u32(r);
  for (uint32_t i = 0; i < nf && !r->status; i++) {
    uint16_t nl = u16(r);
    const uint8_t *name = bytes(r, nl);
    wire_node *v = value(r, depth + 1);
    if (!v || !name) return 0;
    if (wire_struct_set_field(r->doc, s, (const char *)name, nl, v))
      return bfail(r, at);
  }
  return !r->status;
}

/* A string node in the wire encoding the tape and the policy give. */
static wire_node *string_node(rd *r, const uint8_t *at, uint8_t e,
                              const uint8_t *b, uint32_t len);

static wire_node *string(rd *r, const uint8_t *at) {
  uint8_t e = u8(r);
  uint32_t len = u32(r);
  const uint8_t *b = bytes(r, len);
  if (!b) return NULL;
  return string_node(r, at, e, b, len);
}

/* The string node of the text b[0, len) of tape encoding byte e. */
static wire_node *string_node(rd *r, const uint8_t *at, uint8_t e,
                              const uint8_t *b, uint32_t len) {
  int32_t given, enc = wire__tape_string_enc(r->ctx, e, b, len, &given);
  if (enc < 0) {
    rfail(r, WIRE_E_ARG, at);
    return NULL;
  }
  if (given == WIRE_STR_UTF8) {
    wire_node *n = wire_node_new_string(r->doc, b, len, enc);
    if (!n) bfail(r, at);
    return n;
  }
  /* latin1 / utf16 bytes: checked and converted to UTF-8 for the builder */
  uint8_t *u;
  size_t ul;
  if (wire_string_to_utf8(r->ctx, given, b, len, &u, &ul)) {
    bfail(r, at);
    return NULL;
  }
  wire_node *n = wire_node_new_string(r->doc, u, ul, enc);
  wire_ctx_free_bytes(r->ctx, u);
  if (!n) bfail(r, at);
  return n;
}

static wire_node *struct_td(rd *r, const uint8_t *td, uint32_t tl) {
  for (size_t i = 0; i < r->ntds; i++)
    if (r->tds[i].len == tl && wire__eq(r->tds[i].td, td, tl))
      return wire_node_new_struct_like(r->doc, r->tds[i].first);
  wire_node *n = wire_node_new_struct_typedef(r->doc, td, tl);
  if (!n) return NULL;
  if (r->ntds == r->tds_cap) {
    td_seen *m = wire__grow(r->ctx, r->tds, &r->tds_cap, r->ntds, sizeof *m, 8);
    if (!m) {
      wire__fail(r->ctx, WIRE_E_NOMEM, 0, "out of memory");
      return NULL;
    }
    r->tds = m;
  }
  r->tds[r->ntds++] = (td_seen){td, tl, n};
  return n;
}

/* REF: u32 k, the k-th referenceable value of the tape. */
static wire_node *ref_to(rd *r, const uint8_t *at) {
  uint32_t k = u32(r);
  if (r->status) return NULL;
  if (k >= r->n || !r->nodes[k]) {
    rfail(r, WIRE_E_REF, at);
    return NULL;
  }
  wire_node *n = r->nodes[k];
  if (r->ref) wire_node_set_tracked(n, 1);
  return n;
}

/* A list or set: u32 count, then the elements. */
static wire_node *list(rd *r, uint8_t op, unsigned depth,
                       const uint8_t *at) {
  wire_doc *d = r->doc;
  wire_node *n = NULL;
  uint32_t cnt = u32(r);
  if (r->status || !count_ok(r, cnt, at)) return NULL;
  n = wire_node_new_list(d, op);
  if (!keep(r, n, at)) return NULL;
  for (uint32_t i = 0; i < cnt; i++) {
    wire_node *e = value(r, depth + 1);
    if (!e) return NULL;
    if (wire_list_append(d, n, e)) {
      bfail(r, at);
      return NULL;
    }
  }
  return n;
}

/* A map: u32 count, then key and value of each entry. */
static wire_node *map(rd *r, unsigned depth, const uint8_t *at) {
  wire_doc *d = r->doc;
  wire_node *n = NULL;
  uint32_t cnt = u32(r);
  if (r->status || !count_ok(r, cnt, at)) return NULL;
  n = wire_node_new_map(d);
  if (!keep(r, n, at)) return NULL;
  for (uint32_t i = 0; i < cnt; i++) {
    wire_node *k = value(r, depth + 1);
    wire_node *v = k ? value(r, depth + 1) : NULL;
    if (!v) return NULL;
    if (wire_map_put(d, n, k, v)) {
      bfail(r, at);
      return NULL;
    }
  }
  return n;
}

/* L1_LIST: a list of Latin-1 strings for the Java choice, as their wire
 * bytes (u32 count >= 1, u32 size, size bytes). */
static wire_node *l1_list(rd *r, const uint8_t *at) {
  wire_doc *d = r->doc;
  uint32_t cnt = u32(r), size = u32(r);
  if (r->status || !count_ok(r, cnt, at)) return NULL;
  const uint8_t *b = bytes(r, size);
  if (!b) return NULL;
  const uint8_t *end = b + size, *p = b;
  uint32_t i = 0, len;
  while (i < cnt && wire__tape_l1_next(&p, end, &len)) /* as pass 1 */
    i++;
  if (cnt == 0 || i < cnt || p != end) {
    rfail(r, WIRE_E_ARG, at);
    return NULL;
  }
  wire_node *n = wire_node_new_list(d, WIRE_T_LIST);
  if (!keep(r, n, at)) return NULL;
  for (i = 0; i < cnt; i++) {
    len = 0;
    wire__tape_l1_next(&b, end, &len);
    wire_node *e = string_node(r, at, TAPE_STR_JAVA | WIRE_STR_LATIN1,
                               b - len, len);
    if (!e) return NULL;
    if (wire_list_append(d, n, e)) {
      bfail(r, at);
      return NULL;
    }
  }
  return n;
}

/* PACKED: a list or set of one numeric type, 8 bytes an element. */
static wire_node *packed(rd *r, const uint8_t *at) {
  wire_doc *d = r->doc;
  wire_node *n = NULL;
  uint8_t kind = u8(r), et = u8(r);
  uint32_t cnt = u32(r);
  if (r->status) return NULL;
  if ((kind != WIRE_T_LIST && kind != WIRE_T_SET) || !wire__tape_packable(et)) {
    rfail(r, WIRE_E_ARG, at);
    return NULL;
  }
  if (!count_ok(r, cnt, at)) return NULL;
  const uint8_t *b = bytes(r, (size_t)cnt * 8);
  if (!b) return NULL;
  n = wire_node_new_list(d, kind);
  if (!keep(r, n, at)) return NULL;
  for (uint32_t i = 0; i < cnt; i++) {
    uint64_t u;
    memcpy(&u, b + 8 * (size_t)i, 8);
    wire_node *e;
    if (et == WIRE_T_BOOL) e = wire_node_new_bool(d, u != 0);
    else if (et <= WIRE_T_TAGGED_INT64) e = wire_node_new_int(d, et, (int64_t)u);
    else if (et <= WIRE_T_TAGGED_UINT64) e = wire_node_new_uint(d, et, u);
    else {
      double dv;
      memcpy(&dv, &u, 8);
      e = wire_node_new_float(d, et, dv);
    }
    if (!e || wire_list_append(d, n, e)) {
      bfail(r, at);
      return NULL;
    }
  }
  return n;
}

/* STRUCT / STRUCT_TD: the type (or a TypeDef), then fields by name. */
static wire_node *struct_named(rd *r, uint8_t op, unsigned depth,
                               const uint8_t *at) {
  wire_doc *d = r->doc;
  wire_node *n = NULL;
  const uint8_t *td = NULL;
  uint32_t tl = 0;
  if (op == TAPE_STRUCT_TD) {
    tl = u32(r);
    td = bytes(r, tl);
  }
  uint32_t type = u32(r);
  if (type == 0xFFFFFFFFu) { /* identity block: informative on input */
    u32(r);
    bytes(r, u16(r));
    bytes(r, u16(r));
  }
  if (r->status) return NULL;
  n = td ? struct_td(r, td, tl) : wire_node_new_struct(d, type);
  if (!keep(r, n, at) || !fields(r, n, depth, at)) return NULL;
  return n;
}

/* STRUCT_IDX: a registered struct with every field by wire index. */
static wire_node *struct_idx(rd *r, unsigned depth, const uint8_t *at) {
  wire_doc *d = r->doc;
  wire_node *n = NULL;
  uint32_t type = u32(r), nf = u32(r);
  if (r->status) return NULL;
  n = wire_node_new_struct(d, type);
  if (!keep(r, n, at)) return NULL;
  if (nf != wire__st_layout(n)->nfields) {
    wire__fail(r->ctx, WIRE_E_ARG, 0, "struct %s has %u fields, the tape "
               "gives %u", wire_schema_type_name(r->ctx, type),
               wire__st_layout(n)->nfields, nf);
    rfail(r, WIRE_E_ARG, at);
    return NULL;
  }
  for (uint32_t i = 0; i < nf; i++) {
    wire_node *v = value(r, depth + 1);
    if (!v) return NULL;
    n->v.st->fields[i] = v;
  }
  return n;
}

/* UNION: type, case, then the value; the union is numbered before it. */
static wire_node *union_value(rd *r, unsigned depth, const uint8_t *at) {
  wire_doc *d = r->doc;
  wire_node *n = NULL;
  uint32_t type = u32(r), c = u32(r);
  if (r->status) return NULL;
  size_t slot = r->n; /* the union's number comes before its value's */
  if (!number(r, NULL, at)) return NULL;
  wire_node *v = value(r, depth + 1);
  if (!v) return NULL;
  n = wire_node_new_union(d, type, c, v);
  if (!n) {
    bfail(r, at);
    return NULL;
  }
  r->nodes[slot] = n;
  return n;
}

static wire_node *value(rd *r, unsigned depth) {
  const uint8_t *at = r->p;
  if (depth > r->ctx->max_depth) {
    rfail(r, WIRE_E_DEPTH, at);
    return NULL;
  }
  uint8_t op = u8(r);
  if (r->status) return NULL;
  wire_doc *d = r->doc;
  wire_node *n = NULL;
  if (op == TAPE_REF) return ref_to(r, at);
  switch (op) {
  case TAPE_NULL: n = wire_node_new_null(d); break;
  case WIRE_T_NONE: n = wire_node_new_none(d); break;
  case WIRE_T_BOOL: n = wire_node_new_bool(d, u8(r)); break;
  case WIRE_T_STRING:
    n = string(r, at);
    if (!n) return NULL;
    break;
  case WIRE_T_BINARY: {
    uint32_t len = u32(r);
    const uint8_t *b = bytes(r, len);
    if (!b) return NULL;
    n = wire_node_new_binary(d, b, len);
    break;
  }
  case WIRE_T_LIST: case WIRE_T_SET: return list(r, op, depth, at);
  case WIRE_T_MAP: return map(r, depth, at);
  case TAPE_PACKED: return packed(r, at);
  case TAPE_L1_LIST: return l1_list(r, at);
  case WIRE_T_DATE: n = wire_node_new_date(d, (int64_t)u64(r)); break;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION: {
    int64_t s = (int64_t)u64(r);
    uint32_t ns = u32(r);
    if (r->status) return NULL;
    n = op == WIRE_T_TIMESTAMP ? wire_node_new_timestamp(d, s, ns)
                               : wire_node_new_duration(d, s, ns);
    break;
  }
  case WIRE_T_DECIMAL: {
    int32_t scale = (int32_t)u32(r);
    uint8_t neg = u8(r);
    uint32_t len = u32(r);
    const uint8_t *m = bytes(r, len);
    if (r->status) return NULL;
    n = wire_node_new_decimal(d, neg, m, len, scale);
    break;
  }
  case WIRE_T_ENUM: {
    uint32_t type = u32(r), v = u32(r);
    if (r->status) return NULL;
    n = wire_node_new_enum_of(d, type, v);
    break;
  }
  case TAPE_ENUM_ID: {
    uint32_t id = u32(r), v = u32(r);
    if (r->status) return NULL;
    n = wire_node_new_enum(d, id, v);
    break;
  }
  case WIRE_T_NAMED_ENUM: {
    uint16_t nsl = u16(r);
    const uint8_t *ns = bytes(r, nsl);
    uint16_t nl = u16(r);
    const uint8_t *nm = bytes(r, nl);
    uint32_t v = u32(r);
    if (r->status) return NULL;
    n = wire_node_new_named_enum(d, ns, nsl, nm, nl, v);
    break;
  }
  case WIRE_T_STRUCT: case TAPE_STRUCT_TD: return struct_named(r, op, depth, at);
  case TAPE_STRUCT_IDX: return struct_idx(r, depth, at);
  case WIRE_T_UNION: return union_value(r, depth, at);
  default:
    if (op >= WIRE_T_INT8 && op <= WIRE_T_TAGGED_INT64) {
      n = wire_node_new_int(d, op, (int64_t)u64(r));
    } else if (op >= WIRE_T_UINT8 && op <= WIRE_T_TAGGED_UINT64) {
      n = wire_node_new_uint(d, op, u64(r));
    } else if (op >= WIRE_T_FLOAT16 && op <= WIRE_T_FLOAT64) {
      n = wire_node_new_float(d, op, f64(r));
    } else if (wire_type_array_width(op)) {
      uint32_t len = u32(r);
      const uint8_t *b = bytes(r, len);
      if (!b) return NULL;
      n = wire_node_new_array(d, op, b, len);
    } else {
      rfail(r, WIRE_E_ARG, at); /* not an op of the tape format */
      return NULL;
    }
  }
  if (r->status) return NULL;
  return keep(r, n, at) ? n : NULL;
}

static const char *tape_error(int32_t st) {
  switch (st) {
  case WIRE_E_TRUNCATED: return "the tape ends inside a value";
  case WIRE_E_REF: return "REF to a value not defined (yet)";
  case WIRE_E_TRAILING: return "bytes after the last root of the tape";
  case WIRE_E_DEPTH: return "tape values nested deeper than the depth limit";
  case WIRE_E_LIMIT: return "a tape count exceeds the collection limit";
  case WIRE_E_ARG: return "not a tape op (or an invalid operand)";
  default: return wire_status_message(st);
  }
}

/* Adds the roots of a tape to doc. On failure returns the status; the
 * context's error offset is then the tape offset of the failing value. */
int32_t wire_doc_add_tape(wire_ctx *ctx, wire_doc *doc, const uint8_t *tape,
                          size_t len) {
  if (!ctx || !doc || (!tape && len)) return WIRE_E_ARG;
  wire_ctx_clear_error(ctx);
  rd r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.doc = doc;
  r.p = r.start = tape;
  r.end = tape + len;
  r.ref = ctx->ref_tracking;
  if (len < 8 || tape[0] != 'W' || tape[1] != 'T' || tape[2] < 1 ||
      tape[2] > TAPE_VERSION)
    return wire__fail(ctx, WIRE_E_ARG, 0, "not a tape (version 1 or 2)");
  r.p += 4;
  uint32_t roots = u32(&r);
  for (uint32_t i = 0; i < roots && !r.status; i++) {
    const uint8_t *at = r.p;
    wire_node *n = value(&r, 0);
    if (n && wire_doc_add_root(doc, n)) bfail(&r, at);
  }
  if (!r.status && r.p != r.end) rfail(&r, WIRE_E_TRAILING, r.p);
  if (r.nodes) wire__free(ctx, r.nodes, r.cap * sizeof *r.nodes);
  if (r.tds) wire__free(ctx, r.tds, r.tds_cap * sizeof *r.tds);
  if (!r.status) return WIRE_OK;
  if (ctx->err_code == r.status) {
    ctx->err_offset = r.err_at; /* the builder's message, at the tape op */
    return r.status;
  }
  return wire__fail(ctx, r.status, r.err_at, "%s", tape_error(r.status));
}

int32_t wire__tape_encode_doc(wire_ctx *ctx, const uint8_t *tape, size_t len,
                              uint8_t **out, size_t *out_len) {
  *out = NULL;
  *out_len = 0;
  wire_doc *doc = wire_doc_new(ctx);
  if (!doc) return WIRE_E_NOMEM;
  int32_t st = wire_doc_add_tape(ctx, doc, tape, len);
  if (!st) st = wire_encode(ctx, doc, out, out_len);
  wire_doc_free(doc);
  return st;
}

/* ---------------------------------------------------------------------- */
/* document -> tape                                                        */
/* ---------------------------------------------------------------------- */

typedef struct {
  wire_ctx *ctx;
  wire_doc *doc;
  uint8_t *b;
  size_t len, cap;
  uint32_t *seen; /* node index -> tape value number + 1; scalars: 1 */
  uint32_t next;
  uint64_t reemit, budget; /* shared scalars written again: bytes, cap */
  uint32_t flags; /* WIRE_TAPE_* */
  int32_t status;
  int again; /* inside a shared scalar written again */
  const uint8_t *data; /* the payload (WIRE_TAPE_SPANS) */
  size_t data_len;
} wr;

static int grow(wr *w, size_t k) {
  if (w->len + k <= w->cap) return 1;
  uint8_t *m = k > SIZE_MAX - w->len
                   ? NULL
                   : wire__grow(w->ctx, w->b, &w->cap, w->len + k - 1, 1, 256);
  if (!m) {
    w->status = WIRE_E_NOMEM;
    return 0;
  }
  w->b = m;
  return 1;
}
static void put(wr *w, const void *p, size_t k) {
  if (k && grow(w, k)) {
    memcpy(w->b + w->len, p, k);
    w->len += k;
  }
}
/* Names and TypeDef bytes the tape repeats at every value: counted against
 * the budget of bytes written again (as tape_dec.c does), past which
 * nothing more is kept. */
static void put_inline(wr *w, const void *p, size_t k) {
  if (!w->again) {
    w->reemit += k;
    if (w->reemit > w->budget) return;
  }
  put(w, p, k);
}
static void p8(wr *w, uint8_t v) { put(w, &v, 1); }
static void p16(wr *w, uint16_t v) { put(w, &v, 2); }
static void p32(wr *w, uint32_t v) { put(w, &v, 4); }
static void p64(wr *w, uint64_t v) { put(w, &v, 8); }

static void emit(wr *w, wire_node *n);

static void emit_fields(wr *w, wire_node *n) {
  size_t cnt = wire_node_count(n), set = 0;
  for (size_t i = 0; i < cnt; i++) set += wire_node_field(n, i) != NULL;
  p32(w, (uint32_t)set); /* unset fields (fresh structs only) are left out */
  for (size_t i = 0; i < cnt; i++) {
    wire_node *f = wire_node_field(n, i);
    if (!f) continue;
    size_t nl;
    const char *name = wire_node_field_name(n, i, &nl);
    char tag[16];
    if (!name) {
      int k = 0, t = wire_node_field_tag(n, i);
      tag[k++] = '#';
      char dg[12];
      int nd = 0;
      do { dg[nd++] = (char)('0' + t % 10); t /= 10; } while (t && nd < 11);
      while (nd) tag[k++] = dg[--nd];
      name = tag;
      nl = (size_t)k;
    }
    p16(w, (uint16_t)nl);
    put_inline(w, name, nl);
    emit(w, f);
  }
}

/* A list or set: PACKED when it holds two or more numbers of one type. */
static void emit_list(wr *w, wire_node *n, uint32_t t) {
  size_t cnt = wire_node_count(n);
  uint32_t et = cnt >= 2 ? wire_node_type(wire_node_child(n, 0)) : 0;
  int packed = wire__tape_packable(et);
  for (size_t i = 1; packed && i < cnt; i++)
    packed = wire_node_type(wire_node_child(n, i)) == et;
  if (packed) {
    p8(w, TAPE_PACKED);
    p8(w, (uint8_t)t);
    p8(w, (uint8_t)et);
    p32(w, (uint32_t)cnt);
    if (!grow(w, cnt * 8)) return;
    for (size_t i = 0; i < cnt; i++) {
      wire_node *c = wire_node_child(n, i);
      uint64_t u;
      if (et == WIRE_T_BOOL || et <= WIRE_T_TAGGED_INT64) {
        u = (uint64_t)wire_node_int(c);
      } else if (et <= WIRE_T_TAGGED_UINT64) {
        u = wire_node_uint(c);
      } else {
        double dv = wire_node_float(c);
        memcpy(&u, &dv, 8);
      }
      memcpy(w->b + w->len, &u, 8);
      w->len += 8;
    }
    return;
  }
  p8(w, (uint8_t)t);
  p32(w, (uint32_t)cnt);
  for (size_t i = 0; i < cnt; i++) emit(w, wire_node_child(n, i));
}

/* An enum: ENUM by registry index when the schema has its type, else by id
 * (ENUM_ID) or by name (NAMED_ENUM). */
static void emit_enum(wr *w, wire_node *n, uint32_t t) {
  size_t len;
  const uint8_t *b;
  uint32_t ti;
  if (wire_node_user_type(w->doc, n, &ti) == WIRE_OK) {
    p8(w, WIRE_T_ENUM);
    p32(w, ti);
  } else if (t == WIRE_T_ENUM) {
    p8(w, TAPE_ENUM_ID);
    p32(w, wire_node_enum_type_id(n));
  } else {
    size_t nsl;
    const uint8_t *ns = wire_node_enum_namespace(n, &nsl);
    b = wire_node_bytes(n, &len);
    p8(w, WIRE_T_NAMED_ENUM);
    p16(w, (uint16_t)nsl);
    put_inline(w, ns, nsl);
    p16(w, (uint16_t)len);
    put_inline(w, b, len);
  }
  p32(w, wire_node_enum_value(n));
}

/* A struct or ext: STRUCT_IDX (fields by wire index) when asked for and
 * the schema's layout applies, else STRUCT / STRUCT_TD with names. */
static void emit_struct(wr *w, wire_node *n) {
  size_t tl;
  const uint8_t *td = wire_node_typedef(n, &tl);
  uint32_t ti;
  int known = wire_node_user_type(w->doc, n, &ti) == WIRE_OK;
  if (known && !td && (w->flags & WIRE_TAPE_FIELD_INDEX)) {
    /* fields by wire index: all of them, in wire order */
    size_t cnt = wire_node_count(n);
    p8(w, TAPE_STRUCT_IDX);
    p32(w, ti);
    p32(w, (uint32_t)cnt);
    for (size_t i = 0; i < cnt; i++) {
      wire_node *f = wire_node_field(n, i);
      if (f) emit(w, f);
      else p8(w, TAPE_NULL);
    }
    return;
  }
  if (td) {
    /* layout from a TypeDef; then the identity for the reader */
    p8(w, TAPE_STRUCT_TD);
    p32(w, (uint32_t)tl);
    put_inline(w, td, tl);
  } else {
    p8(w, WIRE_T_STRUCT);
  }
  p32(w, known ? ti : 0xFFFFFFFFu);
  if (!known) {
    const uint8_t *ns = NULL, *nm = NULL;
    size_t nsl = 0, nl = 0;
    if (wire_node_type_names(n, &ns, &nsl, &nm, &nl) != WIRE_OK)
      nsl = nl = 0;
    p32(w, wire_node_user_type_id(n));
    p16(w, (uint16_t)nsl);
    put_inline(w, ns, nsl);
    p16(w, (uint16_t)nl);
    put_inline(w, nm, nl);
  }
  emit_fields(w, n);
}

/* A binary or dense array: its bytes, or where they are in the payload
 * (WIRE_TAPE_SPANS). */
static void emit_bytes(wr *w, uint8_t t, const uint8_t *b, size_t len) {
  if (wire__tape_span(w->flags, w->data, w->data_len, b, len)) {
    p8(w, TAPE_SPAN);
    p8(w, t);
    p32(w, (uint32_t)len);
    p64(w, (uint64_t)(b - w->data));
    return;
  }
  p8(w, t);
  p32(w, (uint32_t)len);
  put(w, b, len);
}

/* Numbers and dense arrays (the op is their type id). */
static void emit_scalar(wr *w, wire_node *n, uint32_t t) {
  size_t len;
  const uint8_t *b;
  if (t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_INT64) {
    p8(w, (uint8_t)t);
    p64(w, (uint64_t)wire_node_int(n));
  } else if (t >= WIRE_T_UINT8 && t <= WIRE_T_TAGGED_UINT64) {
    p8(w, (uint8_t)t);
    p64(w, wire_node_uint(n));
  } else if (t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64) {
    double dv = wire_node_float(n);
    p8(w, (uint8_t)t);
    put(w, &dv, 8);
  } else if (wire_type_array_width(t)) {
    b = wire_node_bytes(n, &len);
    emit_bytes(w, (uint8_t)t, b, len);
  } else {
    w->status = WIRE_E_UNSUPPORTED;
  }
}

static void emit(wr *w, wire_node *n) {
  uint32_t idx = wire_node_index(n);
  uint32_t t = wire_node_type(n);
  if (t == WIRE_T_NULL) { /* a decoded document shares one null */
    p8(w, TAPE_NULL);
    return;
  }
  if (wire__tape_referenceable(t)) {
    if (w->seen[idx]) {
      p8(w, TAPE_REF);
      p32(w, w->seen[idx] - 1);
      return;
    }
    w->seen[idx] = ++w->next;
  } else if (w->seen[idx]) { /* a shared scalar, written out again */
    size_t at = w->len;
    int again = w->again;
    w->seen[idx] = 0;
    w->again = 1;
    emit(w, n);
    w->again = again;
    w->seen[idx] = 1;
    w->reemit += w->len - at;
    if (w->reemit > w->budget) w->len = at; /* over the cap: see the end */
    return;
  } else {
    w->seen[idx] = 1;
  }
  size_t len;
  const uint8_t *b;
  switch (t) {
  case WIRE_T_NULL: p8(w, TAPE_NULL); break;
  case WIRE_T_NONE: p8(w, WIRE_T_NONE); break;
  case WIRE_T_BOOL: p8(w, WIRE_T_BOOL); p8(w, (uint8_t)wire_node_int(n)); break;
  case WIRE_T_STRING:
    b = wire_node_bytes(n, &len);
    p8(w, WIRE_T_STRING);
    p8(w, (uint8_t)wire_node_string_encoding(n));
    p32(w, (uint32_t)len);
    put(w, b, len);
    break;
  case WIRE_T_BINARY:
    b = wire_node_bytes(n, &len);
    emit_bytes(w, WIRE_T_BINARY, b, len);
    break;
  case WIRE_T_LIST: case WIRE_T_SET:
    emit_list(w, n, t);
    break;
  case WIRE_T_MAP: {
    size_t cnt = wire_node_count(n);
    p8(w, WIRE_T_MAP);
    p32(w, (uint32_t)cnt);
    for (size_t i = 0; i < cnt; i++) {
      emit(w, wire_node_map_key(n, i));
      emit(w, wire_node_map_value(n, i));
    }
    break;
  }
  case WIRE_T_DATE: p8(w, WIRE_T_DATE); p64(w, (uint64_t)wire_node_int(n)); break;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION:
    p8(w, (uint8_t)t);
    p64(w, (uint64_t)wire_node_int(n));
    p32(w, wire_node_nanos(n));
    break;
  case WIRE_T_DECIMAL:
    b = wire_node_bytes(n, &len);
    p8(w, WIRE_T_DECIMAL);
    p32(w, (uint32_t)wire_node_decimal_scale(n));
    p8(w, (uint8_t)wire_node_decimal_negative(n));
    p32(w, (uint32_t)len);
    put(w, b, len);
    break;
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM:
    emit_enum(w, n, t);
    break;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    emit_struct(w, n);
    break;
  case WIRE_T_UNION: case WIRE_T_TYPED_UNION: case WIRE_T_NAMED_UNION: {
    uint32_t ti;
    if (wire_node_user_type(w->doc, n, &ti) != WIRE_OK) ti = 0xFFFFFFFFu;
    p8(w, WIRE_T_UNION);
    p32(w, ti);
    p32(w, wire_node_union_case(n));
    emit(w, wire_node_union_value(n));
    break;
  }
  default:
    emit_scalar(w, n, t);
  }
}

/* Decodes a payload into a document and writes its roots as a tape
 * (allocated through the context; free with wire_ctx_free_bytes). */
int32_t wire__tape_decode_doc(wire_ctx *ctx, const uint8_t *data, size_t len,
                              uint32_t flags, uint8_t **tape,
                              size_t *tape_len) {
  wire_doc *doc;
  *tape = NULL;
  *tape_len = 0;
  int32_t st = wire_decode(ctx, data, len, &doc);
  if (st) return st;
  size_t seen_size = (wire_doc_node_count(doc) + 1) * sizeof(uint32_t);
  wr w = {ctx, doc, NULL, 0, 0, wire__alloc(ctx, seen_size), 0, 0,
          wire__tape_reemit_budget(len), flags, 0, 0, data, len};
  if (!w.seen) {
    wire_doc_free(doc);
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  }
  memset(w.seen, 0, seen_size);
  size_t roots = wire_doc_root_count(doc);
  uint8_t hdr[4] = {'W', 'T', wire__tape_dec_version(flags), 0};
  put(&w, hdr, 4);
  p32(&w, (uint32_t)roots);
  for (size_t i = 0; i < roots && !w.status; i++) emit(&w, wire_doc_root(doc, i));
  wire__free(ctx, w.seen, seen_size);
  wire_doc_free(doc);
  wire_ctx_clear_error(ctx); /* lookups of unregistered types above */
  uint8_t *res = w.status ? NULL : wire__bytes_alloc(ctx, w.len);
  if (res && w.len) memcpy(res, w.b, w.len);
  if (w.b) wire__free(ctx, w.b, w.cap);
  if (w.status) return wire__fail(ctx, w.status, 0, "cannot write the tape");
  if (w.reemit > w.budget) {
    wire_ctx_free_bytes(ctx, res);
    return wire__fail(ctx, WIRE_E_LIMIT, 0, "shared values written out again "
                      "in the tape exceed %llu bytes",
                      (unsigned long long)w.budget);
  }
  if (!res) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  *tape = res;
  *tape_len = w.len;
  return WIRE_OK;
}
