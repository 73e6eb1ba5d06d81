/* test_lazy.c - structs the document decoder keeps lazy once a document's
 * heap passes its budget (issue 9, decode_lazy.c). Every check compares a
 * document whose structs went lazy with one of the same values decoded
 * eagerly: the same payload behind a large binary root, which keeps the
 * heap under the budget (WIRE_LAZY_RATIO x the input read). Lazy nodes are
 * counted through internal.h, so a check that ran on eager nodes only
 * fails. */
#include "hostile/hostile_gen.h"
#include "internal.h"

#include <criterion/criterion.h>
#include <stdio.h>

#define S(x) (x), strlen(x)

/* Types of one or two fields whose bytes are few: each list of them
 * passes the budget. W nests a struct (in compatible mode its TypeDef is
 * a table read: W stays eager there). */
static const char fdl[] =
    "package lz;\n"
    "enum Color [id=401] { RED = 0; BLUE = 1; }\n"
    "message Inner [id=402] { int32 x = 1; }\n"
    "message A [id=410] { int8 a = 1; }\n"
    "message Str [id=411] { string s = 1; }\n"
    "message Opt [id=412] { optional string o = 1; }\n"
    "message L [id=413] { list<int32> l = 1; }\n"
    "message C [id=414] { Color c = 1; }\n"
    "message B [id=415] { bool b = 1; int8 a = 2; }\n"
    "message W [id=416] { Inner inner = 1; }\n";

enum { N = 6000 };

static wire_ctx *new_ctx(bool compatible, hg_heap *h) {
  wire_ctx *ctx = h ? wire_ctx_new_with_allocator(hg_malloc, hg_realloc,
                                                  hg_free, h)
                    : wire_ctx_new();
  cr_assert_not_null(ctx);
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, compatible),
               WIRE_OK);
  cr_assert_eq(wire_schema_load_fdl(ctx, S(fdl), "lz.fdl"), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  return ctx;
}

static uint32_t type_of(wire_ctx *ctx, const char *name) {
  uint32_t t = 0;
  cr_assert_eq(wire_schema_find_type(ctx, S(name), &t), WIRE_OK, "%s", name);
  return t;
}

static void set(wire_doc *doc, wire_node *s, size_t i, wire_node *v) {
  cr_assert_not_null(v);
  cr_assert_eq(wire_struct_set_field_at(doc, s, i, v), WIRE_OK);
}

/* The payload: a pad root (a binary of `pad` bytes, or none), then one
 * list of N structs per type, their values varying with the index. */
static uint8_t *payload(wire_ctx *w, size_t pad, size_t *len) {
  wire_doc *doc = wire_doc_new(w);
  cr_assert_not_null(doc);
  if (pad) {
    uint8_t *z = calloc(pad, 1);
    cr_assert_not_null(z);
    cr_assert_eq(wire_doc_add_root(doc, wire_node_new_binary(doc, z, pad)),
                 WIRE_OK);
    free(z);
  }
  static const char *const types[] = {"lz.A", "lz.Str", "lz.Opt", "lz.L",
                                      "lz.C", "lz.B",   "lz.W"};
  for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
    uint32_t ty = type_of(w, types[t]);
    wire_node *list = wire_node_new_list(doc, WIRE_T_LIST);
    cr_assert_not_null(list);
    for (int i = 0; i < N; i++) {
      wire_node *s = wire_node_new_struct(doc, ty);
      cr_assert_not_null(s);
      char txt[8];
      int tl = snprintf(txt, sizeof txt, "%d", i % 7);
      switch (t) {
      case 0: set(doc, s, 0, wire_node_new_int(doc, WIRE_T_INT8, i % 100 - 50)); break;
      case 1: /* mostly empty text (one byte), else one digit */
        set(doc, s, 0, wire_node_new_string(doc, (const uint8_t *)txt,
                                            i % 5 ? 0 : (size_t)tl,
                                            WIRE_STR_LATIN1));
        break;
      case 2:
        set(doc, s, 0, i % 3 ? wire_node_new_null(doc)
                             : wire_node_new_string(doc, (const uint8_t *)txt,
                                                    (size_t)tl, WIRE_STR_UTF8));
        break;
      case 3: {
        wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
        if (i % 4 == 0)
          cr_assert_eq(wire_list_append(doc, l, wire_node_new_int(doc, WIRE_T_VARINT32, i)),
                       WIRE_OK);
        set(doc, s, 0, l);
        break;
      }
      case 4: set(doc, s, 0, wire_node_new_enum_of(doc, type_of(w, "lz.Color"), (uint32_t)(i & 1))); break;
      case 5:
        set(doc, s, 0, wire_node_new_bool(doc, i & 1));
        set(doc, s, 1, wire_node_new_int(doc, WIRE_T_INT8, i % 90));
        break;
      default: {
        wire_node *in = wire_node_new_struct(doc, type_of(w, "lz.Inner"));
        set(doc, in, 0, wire_node_new_int(doc, WIRE_T_VARINT32, i));
        set(doc, s, 0, in);
        break;
      }
      }
      cr_assert_eq(wire_list_append(doc, list, s), WIRE_OK);
    }
    cr_assert_eq(wire_doc_add_root(doc, list), WIRE_OK);
  }
  uint8_t *out = NULL;
  cr_assert_eq(wire_encode(w, doc, &out, len), WIRE_OK, "%s",
               wire_ctx_error_message(w));
  wire_doc_free(doc);
  uint8_t *copy = malloc(*len);
  cr_assert_not_null(copy);
  memcpy(copy, out, *len);
  wire_ctx_free_bytes(w, out);
  return copy;
}

/* Lazy struct items among the roots of d (without opening any). */
static size_t lazy_items(const wire_doc *d) {
  size_t k = 0;
  for (size_t r = 0; r < wire_doc_root_count(d); r++) {
    wire_node *n = wire_doc_root(d, r);
    if (n->type != WIRE_T_LIST) continue;
    for (uint32_t i = 0; i < n->small; i++)
      k += (wire__items(n)[i]->v.u & WIRE_ST_LAZY) != 0;
  }
  return k;
}

static wire_doc *decode(wire_ctx *ctx, const uint8_t *p, size_t len) {
  wire_doc *d = NULL;
  cr_assert_eq(wire_decode(ctx, p, len, &d), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  return d;
}

typedef struct {
  bool compatible;
  uint8_t *lazy, *eager; /* the payload without and with the pad root */
  size_t lazy_len, eager_len;
} pair;

static pair make_pair(bool compatible) {
  pair p = {compatible, NULL, NULL, 0, 0};
  wire_ctx *w = new_ctx(compatible, NULL);
  p.lazy = payload(w, 0, &p.lazy_len);
  p.eager = payload(w, 64 * p.lazy_len, &p.eager_len);
  wire_ctx_free(w);
  return p;
}
static void free_pair(pair *p) {
  free(p->lazy);
  free(p->eager);
}

static char *notation(wire_ctx *ctx, wire_doc *d, wire_node *n) {
  uint8_t *t = NULL;
  size_t tl = 0;
  cr_assert_eq(wire_notation_print(ctx, d, n, 0, &t, &tl), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  char *s = strdup((const char *)t);
  wire_ctx_free_bytes(ctx, t);
  return s;
}

static void same_values(bool compatible) {
  pair p = make_pair(compatible);
  wire_ctx *r = new_ctx(compatible, NULL);
  wire_doc *e = decode(r, p.eager, p.eager_len);
  cr_assert_eq(lazy_items(e), 0, "the padded payload decodes eagerly");
  wire_doc *l = decode(r, p.lazy, p.lazy_len);
  /* (same-schema structs carry a 4-byte hash each: fewer go lazy) */
  size_t nl = lazy_items(l), want = compatible ? (size_t)4 * N : 100;
  cr_assert_gt(nl, want, "%zu lazy structs", nl);
  size_t roots = wire_doc_root_count(l);
  cr_assert_eq(roots + 1, wire_doc_root_count(e));
  /* the notation (every field, read through the public accessors) */
  for (size_t i = 0; i < roots; i++) {
    char *a = notation(r, l, wire_doc_root(l, i));
    char *b = notation(r, e, wire_doc_root(e, i + 1));
    cr_assert_str_eq(a, b, "root %zu", i);
    free(a);
    free(b);
  }
  cr_assert_eq(lazy_items(l), 0, "every struct opened");
  wire_doc_free(l);
  /* re-encoding a fresh lazy document gives the payload back (new
   * contexts: a document reused from the context's spare decodes with
   * its kept block uncounted, so it goes lazy later) */
  wire_ctx *r2 = new_ctx(compatible, NULL);
  l = decode(r2, p.lazy, p.lazy_len);
  cr_assert_gt(lazy_items(l), want);
  uint8_t *out = NULL;
  size_t ol = 0;
  cr_assert_eq(wire_encode(r2, l, &out, &ol), WIRE_OK, "%s",
               wire_ctx_error_message(r2));
  cr_assert_eq(ol, p.lazy_len);
  cr_assert(memcmp(out, p.lazy, ol) == 0);
  wire_ctx_free_bytes(r2, out);
  wire_doc_free(l);
  wire_ctx_free(r2);
  /* projection onto the reader's own type, field counts and node indexes
   * of lazy structs equal the eager ones */
  r2 = new_ctx(compatible, NULL);
  l = decode(r2, p.lazy, p.lazy_len);
  cr_assert_gt(lazy_items(l), want);
  for (size_t i = 0; i < roots; i++) {
    wire_node *ll = wire_doc_root(l, i), *el = wire_doc_root(e, i + 1);
    for (size_t k = N - 3; k < N; k++) {
      wire_node *a = wire_node_child(ll, k), *b = wire_node_child(el, k);
      bool was_lazy = a->v.u & WIRE_ST_LAZY;
      cr_assert_eq(wire_node_count(a), wire_node_count(b));
      cr_assert_eq(wire_node_index(a) - wire_node_index(ll),
                   wire_node_index(b) - wire_node_index(el));
      uint32_t ty = 0;
      cr_assert_eq(wire_node_user_type(l, a, &ty), WIRE_OK);
      wire_node *pa = NULL, *pb = NULL;
      cr_assert_eq(wire_struct_project(l, a, ty, &pa), WIRE_OK, "%s",
                   wire_ctx_error_message(r2));
      cr_assert_eq(wire_struct_project(e, b, ty, &pb), WIRE_OK);
      char *x = notation(r2, l, pa), *y = notation(r, e, pb);
      cr_assert_str_eq(x, y);
      free(x);
      free(y);
      if (was_lazy) { /* the fields got the indexes eager decoding gives */
        wire_node *fa = wire_node_field(a, 0), *fb = wire_node_field(b, 0);
        if (wire_node_type(fb) != WIRE_T_NULL)
          cr_assert_eq(wire_node_index(fa) - wire_node_index(ll),
                       wire_node_index(fb) - wire_node_index(el));
      }
    }
  }
  wire_doc_free(l);
  wire_ctx_free(r2);
  wire_doc_free(e);
  wire_ctx_free(r);
  free_pair(&p);
}

Test(lazy, same_values_as_eager_compatible) { same_values(true); }
Test(lazy, same_values_as_eager_same_schema) { same_values(false); }

/* An error inside a struct read after laziness set in is reported by
 * wire_decode with the status and offset eager decoding gives. */
Test(lazy, errors_keep_their_offset) {
  pair p = make_pair(true);
  wire_ctx *r = new_ctx(true, NULL);
  size_t pad = p.eager_len - p.lazy_len;
  cr_assert(memcmp(p.eager + pad, p.lazy, p.lazy_len) == 0);
  /* the last bool of root B (lz.B {bool, int8}): its last struct's first
   * byte, found from the end: W's root follows */
  wire_doc *l = decode(r, p.lazy, p.lazy_len);
  size_t roots = wire_doc_root_count(l);
  wire_node *b = wire_doc_root(l, roots - 2);
  wire_node *last = wire_node_child(b, N - 1);
  cr_assert(last->v.u & WIRE_ST_LAZY);
  size_t at = last->small; /* the offset of its field bytes */
  wire_doc_free(l);
  cr_assert_lt(at, p.lazy_len);
  cr_assert_eq(p.lazy[at], (N - 1) & 1, "the bool byte");
  uint8_t *bad = malloc(p.lazy_len), *bad2 = malloc(p.eager_len);
  memcpy(bad, p.lazy, p.lazy_len);
  memcpy(bad2, p.eager, p.eager_len);
  bad[at] = 2;
  bad2[pad + at] = 2;
  wire_doc *d = NULL;
  int32_t st = wire_decode(r, bad, p.lazy_len, &d);
  uint64_t off = wire_ctx_error_offset(r);
  cr_assert_eq(st, WIRE_E_VALUE, "%s", wire_status_name(st));
  cr_assert_eq(off, at);
  cr_assert_null(d);
  st = wire_decode(r, bad2, p.eager_len, &d);
  cr_assert_eq(st, WIRE_E_VALUE);
  cr_assert_eq(wire_ctx_error_offset(r), pad + at);
  free(bad);
  free(bad2);
  wire_ctx_free(r);
  free_pair(&p);
}

/* Out of memory while a lazy struct is opened: NULL and WIRE_E_NOMEM, the
 * node still lazy; with memory back, the same values. Setting a field of
 * a lazy struct opens it first; the context's options changed after the
 * decode do not change what its fields decode to. */
Test(lazy, open_out_of_memory_and_set) {
  pair p = make_pair(true);
  hg_heap h = {0, 0, 0, 0};
  wire_ctx *r = new_ctx(true, &h);
  wire_doc *l = decode(r, p.lazy, p.lazy_len);
  wire_ctx_set_option(r, WIRE_OPT_COMPATIBLE, 0);
  wire_ctx_set_limit(r, WIRE_LIMIT_BINARY, 0);
  wire_node *a = wire_doc_root(l, 0);
  h.fail_over = h.cur;
  size_t failed = 0, k;
  for (k = 0; k < N && !failed; k++) {
    wire_node *s = wire_node_child(a, k);
    bool was = s->v.u & WIRE_ST_LAZY;
    wire_node *f = wire_node_field(s, 0);
    if (!f) {
      cr_assert(was);
      cr_assert(s->v.u & WIRE_ST_LAZY, "still lazy");
      cr_assert_eq(wire_ctx_error_code(r), WIRE_E_NOMEM);
      failed++;
    }
  }
  cr_assert_eq(failed, 1, "the arena ran out");
  h.fail_over = 0;
  for (k = 0; k < N; k++) {
    wire_node *f = wire_node_field(wire_node_child(a, k), 0);
    cr_assert_not_null(f);
    cr_assert_eq(wire_node_int(f), (int64_t)(k % 100) - 50, "item %zu", k);
  }
  /* setters on lazy structs (root Str, root B) */
  wire_node *st = wire_node_child(wire_doc_root(l, 1), N - 1);
  wire_node *bs = wire_node_child(wire_doc_root(l, 5), N - 1);
  cr_assert(st->v.u & WIRE_ST_LAZY);
  cr_assert(bs->v.u & WIRE_ST_LAZY);
  cr_assert_eq(wire_struct_set_field_at(l, st, 0,
                                        wire_node_new_string(l, (const uint8_t *)"zz", 2,
                                                             WIRE_STR_LATIN1)),
               WIRE_OK);
  cr_assert_eq(wire_struct_set_value(l, bs, 1, WIRE_T_INT8, 77), WIRE_OK);
  cr_assert_eq(wire_node_count(st), 1);
  size_t tl = 0;
  const uint8_t *t = wire_node_bytes(wire_node_field(st, 0), &tl);
  cr_assert_eq(tl, 2);
  cr_assert(memcmp(t, "zz", 2) == 0);
  cr_assert_eq(wire_node_int(wire_node_field(bs, 1)), 77);
  cr_assert_eq(wire_node_int(wire_node_field(bs, 0)), (N - 1) & 1);
  wire_doc_free(l);
  wire_ctx_free(r);
  cr_assert_eq(h.cur, 0, "nothing left allocated");
  free_pair(&p);
}
