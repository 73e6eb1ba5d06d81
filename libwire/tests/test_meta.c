/* test_meta.c - metadata computed once: the per-type TypeDef bytes, schema
 * hash and field order in the ABI, fields set by index, and the per-context
 * cache of incoming TypeDefs (WIRE_LIMIT_TYPEDEF_CACHE): same documents
 * as without it, bounded, redone when the schema changes, and out of memory
 * reported as WIRE_E_NOMEM. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "schema.h" /* the cache's entries, for their sizes */
#include "tdcache_help.h"

static const char *SCHEMA =
    "package m;\n"
    "enum Color [id=20] { RED = 0; BLUE = 1; }\n"
    "message Point [id=21] { int32 x = 1; int64 y = 2; string label = 3; "
    "Color color = 4; }\n"
    "message Shape [id=22] { string name = 1; list<Point> points = 2; "
    "float64 area = 3; }\n";

static wire_ctx *new_ctx(const char *fdl) {
  wire_ctx *c = wire_ctx_new();
  cr_assert_not_null(c);
  cr_assert_eq(wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  if (fdl) {
    cr_assert_eq(wire_schema_load_fdl(c, fdl, strlen(fdl), "m.fdl"), WIRE_OK,
                 "%s", wire_ctx_error_message(c));
    cr_assert_eq(wire_schema_finish(c), WIRE_OK);
  }
  return c;
}

static uint32_t type_of(wire_ctx *c, const char *name) {
  uint32_t t;
  cr_assert_eq(wire_schema_find_type(c, name, strlen(name), &t), WIRE_OK);
  return t;
}

static void set(wire_ctx *c, wire_doc *d, wire_node *st, uint32_t type,
                const char *name, wire_node *v) {
  uint32_t ix;
  cr_assert_eq(wire_schema_field_index(c, type, name, strlen(name), &ix),
               WIRE_OK, "%s", name);
  cr_assert_eq(wire_struct_set_field_at(d, st, ix, v), WIRE_OK, "%s", name);
}

/* A Shape with n points, encoded in compatible mode (TypeDefs carried). */
static uint8_t *shape_bytes(wire_ctx *c, int n, size_t *len) {
  uint32_t shape = type_of(c, "m.Shape"), point = type_of(c, "m.Point");
  uint32_t color = type_of(c, "m.Color");
  wire_doc *d = wire_doc_new(c);
  wire_node *s = wire_node_new_struct(d, shape);
  set(c, d, s, shape, "name", wire_node_new_string(d, (const uint8_t *)"tri", 3,
                                                   WIRE_STR_UTF8));
  set(c, d, s, shape, "area", wire_node_new_float(d, WIRE_T_FLOAT64, 0.5));
  wire_node *pts = wire_node_new_list(d, WIRE_T_LIST);
  for (int i = 0; i < n; i++) {
    wire_node *p = wire_node_new_struct(d, point);
    set(c, d, p, point, "x", wire_node_new_int(d, WIRE_T_VARINT32, i));
    set(c, d, p, point, "y", wire_node_new_int(d, WIRE_T_VARINT64, -i));
    set(c, d, p, point, "label",
        wire_node_new_string(d, (const uint8_t *)"p", 1, WIRE_STR_UTF8));
    set(c, d, p, point, "color", wire_node_new_enum_of(d, color, (uint32_t)i & 1));
    cr_assert_eq(wire_list_append(d, pts, p), WIRE_OK);
  }
  set(c, d, s, shape, "points", pts);
  cr_assert_eq(wire_doc_add_root(d, s), WIRE_OK);
  uint8_t *out;
  cr_assert_eq(wire_encode(c, d, &out, len), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  wire_doc_free(d);
  uint8_t *copy = malloc(*len);
  memcpy(copy, out, *len);
  wire_ctx_free_bytes(c, out);
  return copy;
}

/* decode + encode of bytes gives the bytes back */
static void round_trip(wire_ctx *c, const uint8_t *b, size_t n) {
  wire_doc *d;
  cr_assert_eq(wire_decode(c, b, n, &d), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_encode(c, d, &out, &len), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_eq(len, n);
  cr_assert_arr_eq(out, b, n);
  wire_ctx_free_bytes(c, out);
  wire_doc_free(d);
}

static uint8_t *encode_root(wire_ctx *c, wire_doc *d, wire_node *root,
                            size_t *len);

static const uint8_t *find(const uint8_t *hay, size_t n, const uint8_t *needle,
                           size_t m) {
  for (size_t i = 0; i + m <= n; i++)
    if (memcmp(hay + i, needle, m) == 0) return hay + i;
  return NULL;
}

Test(meta_abi, typedef_bytes_are_the_ones_compatible_mode_writes) {
  wire_ctx *c = new_ctx(SCHEMA);
  size_t n;
  uint8_t *b = shape_bytes(c, 2, &n);
  const char *names[] = {"m.Shape", "m.Point"};
  for (int i = 0; i < 2; i++) {
    const uint8_t *td, *td2;
    size_t tl, tl2;
    cr_assert_eq(wire_schema_typedef(c, type_of(c, names[i]), &td, &tl),
                 WIRE_OK);
    cr_assert_gt(tl, 8);
    cr_assert_not_null(find(b, n, td, tl), "%s's TypeDef is in the payload",
                       names[i]);
    /* computed once: the same bytes at the same place */
    cr_assert_eq(wire_schema_typedef(c, type_of(c, names[i]), &td2, &tl2),
                 WIRE_OK);
    cr_assert_eq(td, td2);
    cr_assert_eq(tl, tl2);
  }
  free(b);
  wire_ctx_free(c);
}

Test(meta_abi, schema_hash_and_field_order) {
  wire_ctx *c = new_ctx(SCHEMA);
  uint32_t point = type_of(c, "m.Point");
  uint32_t h, fh;
  char fp[512];
  size_t fl;
  cr_assert_eq(wire_schema_hash(c, point, &h), WIRE_OK);
  cr_assert_eq(wire_schema_fingerprint(c, point, fp, sizeof fp, &fl, &fh),
               WIRE_OK);
  cr_assert_eq(h, fh);
  cr_assert_eq(strlen(fp), fl);
  size_t count;
  cr_assert_eq(wire_schema_field_order(c, point, NULL, 0, &count),
               WIRE_E_BUFFER_FULL);
  cr_assert_eq(count, 4);
  uint32_t order[4];
  cr_assert_eq(wire_schema_field_order(c, point, order, 4, &count), WIRE_OK);
  /* wire order: the non-nullable primitives first, larger first
   * (varint64 y before varint32 x), then the others by tag id */
  uint32_t want[4] = {1, 0, 2, 3};
  cr_assert_arr_eq(order, want, sizeof want);
  const char *decl[4] = {"x", "y", "label", "color"};
  for (uint32_t w = 0; w < 4; w++) {
    uint32_t ix;
    cr_assert_eq(wire_schema_field_index(c, point, decl[order[w]],
                                         strlen(decl[order[w]]), &ix),
                 WIRE_OK);
    cr_assert_eq(ix, w, "%s", decl[order[w]]);
  }
  uint32_t ix;
  cr_assert_eq(wire_schema_field_index(c, point, "z", 1, &ix), WIRE_E_SCHEMA);
  cr_assert_eq(wire_schema_hash(c, type_of(c, "m.Color"), &h), WIRE_E_ARG);
  cr_assert_eq(wire_schema_hash(c, 999, &h), WIRE_E_ARG);
  wire_ctx_free(c);
}

Test(meta_abi, set_by_index_equals_set_by_name) {
  wire_ctx *c = new_ctx(SCHEMA);
  uint32_t point = type_of(c, "m.Point");
  uint8_t *out[2];
  size_t len[2];
  for (int k = 0; k < 2; k++) {
    wire_doc *d = wire_doc_new(c);
    wire_node *p = wire_node_new_struct(d, point);
    wire_node *v[4] = {
        wire_node_new_int(d, WIRE_T_VARINT32, 7),
        wire_node_new_int(d, WIRE_T_VARINT64, 1LL << 40),
        wire_node_new_string(d, (const uint8_t *)"abc", 3, WIRE_STR_UTF8),
        wire_node_new_enum_of(d, type_of(c, "m.Color"), 1)};
    const char *names[4] = {"x", "y", "label", "color"};
    for (int i = 0; i < 4; i++) {
      if (k == 0) {
        cr_assert_eq(wire_struct_set_field(d, p, names[i], strlen(names[i]),
                                           v[i]),
                     WIRE_OK);
      } else {
        uint32_t ix;
        cr_assert_eq(wire_struct_field_index(d, p, names[i], strlen(names[i]),
                                             &ix),
                     WIRE_OK);
        cr_assert_eq(wire_struct_set_field_at(d, p, ix, v[i]), WIRE_OK);
        cr_assert_eq(wire_node_field(p, ix), v[i], "read back by index");
      }
    }
    cr_assert_eq(wire_struct_set_field_at(d, p, 4, v[0]), WIRE_E_ARG);
    cr_assert_eq(wire_struct_set_field_at(d, v[0], 0, v[0]), WIRE_E_ARG);
    cr_assert_eq(wire_doc_add_root(d, p), WIRE_OK);
    cr_assert_eq(wire_encode(c, d, &out[k], &len[k]), WIRE_OK);
    wire_doc_free(d);
  }
  cr_assert_eq(len[0], len[1]);
  cr_assert_arr_eq(out[0], out[1], len[0]);
  wire_ctx_free_bytes(c, out[0]);
  wire_ctx_free_bytes(c, out[1]);
  wire_ctx_free(c);
}

Test(meta_abi, field_index_of_a_decoded_struct_is_the_writers_order) {
  /* The reader's Shape lacks `name`: a node read with the writer's
   * TypeDef has the writer's fields, and its indexes are the writer's. */
  static const char *READER =
      "package m;\n"
      "enum Color [id=20] { RED = 0; BLUE = 1; }\n"
      "message Point [id=21] { int32 x = 1; int64 y = 2; string label = 3; "
      "Color color = 4; }\n"
      "message Shape [id=22] { list<Point> points = 2; float64 area = 3; }\n";
  wire_ctx *w = new_ctx(SCHEMA);
  size_t n;
  uint8_t *b = shape_bytes(w, 1, &n);
  wire_ctx *r = new_ctx(READER);
  for (int round = 0; round < 2; round++) { /* uncached, then cached */
    wire_doc *d;
    cr_assert_eq(wire_decode(r, b, n, &d), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    wire_node *shape = wire_doc_root(d, 0);
    cr_assert_eq(wire_node_count(shape), 3);
    uint32_t ix, rix;
    cr_assert_eq(wire_struct_field_index(d, shape, "points", 6, &ix), WIRE_OK);
    cr_assert_eq(wire_schema_field_index(r, type_of(r, "m.Shape"), "points", 6,
                                         &rix),
                 WIRE_OK);
    cr_assert_eq(ix, 2, "the writer's wire order");
    cr_assert_eq(rix, 1, "the reader's");
    cr_assert_eq(wire_node_count(wire_node_field(shape, ix)), 1);
    cr_assert_eq(wire_struct_field_index(d, shape, "#3", 2, &ix), WIRE_OK,
                 "by tag id");
    cr_assert_eq(wire_node_float(wire_node_field(shape, ix)), 0.5);
    cr_assert_eq(wire_struct_field_index(d, shape, "nope", 4, &ix),
                 WIRE_E_SCHEMA);
    wire_doc_free(d);
  }
  wire_ctx_free(r);
  wire_ctx_free(w);
  free(b);
}

/* ---- the incoming TypeDef cache --------------------------------------- */

Test(meta_cache, cached_and_uncached_reads_give_the_same_bytes) {
  wire_ctx *w = new_ctx(SCHEMA);
  size_t n;
  uint8_t *b = shape_bytes(w, 3, &n);
  for (uint64_t limit = 0; limit < 3; limit++) {
    wire_ctx *r = new_ctx(SCHEMA);
    cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, limit),
                 WIRE_OK);
    cr_assert_eq(wire_ctx_get_limit(r, WIRE_LIMIT_TYPEDEF_CACHE), limit);
    for (int i = 0; i < 3; i++) round_trip(r, b, n);
    wire_ctx_free(r);
  }
  free(b);
  wire_ctx_free(w);
}

Test(meta_cache, a_changed_typedef_with_the_same_header_is_not_taken) {
  /* Same 8-byte header, different body: the cache compares the bytes; the
   * changed TypeDef is read (and its hash then fails). */
  wire_ctx *w = new_ctx(SCHEMA);
  size_t n;
  uint8_t *b = shape_bytes(w, 1, &n);
  wire_ctx *r = new_ctx(SCHEMA);
  round_trip(r, b, n); /* cached now */
  uint8_t *bad = malloc(n);
  memcpy(bad, b, n);
  const uint8_t *td;
  size_t tl;
  cr_assert_eq(wire_schema_typedef(w, type_of(w, "m.Shape"), &td, &tl),
               WIRE_OK);
  uint8_t *at = (uint8_t *)find(bad, n, td, tl);
  cr_assert_not_null(at);
  at[tl - 1] ^= 0x01; /* last byte of the body */
  wire_doc *d;
  cr_assert_eq(wire_decode(r, bad, n, &d), WIRE_E_TYPEDEF, "%s",
               wire_ctx_error_message(r));
  cr_assert_null(d);
  round_trip(r, b, n); /* the cached one still serves */
  free(bad);
  free(b);
  wire_ctx_free(r);
  wire_ctx_free(w);
}

Test(meta_cache, links_are_redone_when_the_schema_changes) {
  wire_ctx *w = new_ctx(SCHEMA);
  size_t n;
  uint8_t *b = shape_bytes(w, 1, &n);
  wire_ctx *r = new_ctx(NULL);
  wire_doc *d;
  uint32_t t;
  cr_assert_eq(wire_decode(r, b, n, &d), WIRE_OK);
  cr_assert_eq(wire_node_user_type(d, wire_doc_root(d, 0), &t), WIRE_E_SCHEMA,
               "no schema yet");
  wire_doc_free(d);
  cr_assert_eq(wire_schema_load_fdl(r, SCHEMA, strlen(SCHEMA), "m.fdl"),
               WIRE_OK);
  cr_assert_eq(wire_schema_finish(r), WIRE_OK);
  cr_assert_eq(wire_decode(r, b, n, &d), WIRE_OK);
  cr_assert_eq(wire_node_user_type(d, wire_doc_root(d, 0), &t), WIRE_OK,
               "the TypeDef is linked to the type registered since");
  cr_assert_eq(t, type_of(r, "m.Shape"));
  cr_assert_null(wire_node_typedef(wire_doc_root(d, 0), &n),
                 "and it matches the schema's");
  wire_doc_free(d);
  free(b);
  wire_ctx_free(r);
  wire_ctx_free(w);
}

/* ---- memory ------------------------------------------------------------ */

/* Live bytes of a reading context after message 10 and after message 40
 * of 40 messages with distinct TypeDefs. */
/* The most live bytes over messages 0..9 (*at10) and 10..39 (*at40) of
 * 40 distinct TypeDefs: a full cache turns over (R-SEC-15), so its size
 * moves between turnovers, but never past what the limit holds. */
static void held_after_within(uint64_t limit, uint64_t bytes, uint8_t **p,
                              const size_t *lens, size_t *at10, size_t *at40) {
  counter c = {0};
  wire_ctx *r = wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free, &c);
  cr_assert_eq(wire_ctx_set_option(r, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, limit),
               WIRE_OK);
  cr_assert_eq(wire_ctx_get_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES),
               UINT64_C(1) << 20, "the default byte budget");
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES, bytes),
               WIRE_OK);
  cr_assert_eq(wire_ctx_get_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES), bytes);
  for (int i = 0; i < 40; i++) {
    wire_doc *d;
    cr_assert_eq(wire_decode(r, p[i], lens[i], &d), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    cr_assert_eq(wire_node_int(wire_node_field(wire_doc_root(d, 0), 0)), i);
    wire_doc_free(d);
    size_t *most = i < 10 ? at10 : at40;
    if (!i || i == 10 || c.live_bytes > *most) *most = c.live_bytes;
    if (r->tdc) { /* the entries and the bucket table, never past the budget */
      cr_assert_leq(r->tdc->bytes, bytes, "message %d: %zu bytes", i,
                    r->tdc->bytes);
      cr_assert_leq(r->tdc->count, limit);
    }
  }
  wire_ctx_free(r);
  cr_assert_eq(c.live, 0, "all freed");
}

static void held_after(uint64_t limit, uint8_t **p, const size_t *lens,
                       size_t *at10, size_t *at40) {
  held_after_within(limit, UINT64_C(1) << 20, p, lens, at10, at40);
}

Test(meta_cache, memory_is_bounded_by_the_limit) {
  size_t lens[40];
  uint8_t **p = distinct_payloads(40, lens);
  size_t a10, a40;
  /* a cache of 4: full after 4 messages, no growth after (the entries of
   * later messages are a few bytes larger: longer names) */
  held_after(4, p, lens, &a10, &a40);
  cr_assert_leq(a40, a10 + 64, "limit 4: %zu then %zu bytes", a10, a40);
  /* (without the limit every new TypeDef is kept: the test can fail) */
  held_after(1000, p, lens, &a10, &a40);
  cr_assert_gt(a40, a10, "limit 1000: %zu then %zu bytes", a10, a40);
  for (int i = 0; i < 40; i++) free(p[i]);
  free(p);
}

Test(meta_cache, memory_is_bounded_by_the_byte_budget) {
  size_t lens[40];
  uint8_t **p = distinct_payloads(40, lens);
  size_t a10, a40, b10, b40, off10, off40;
  /* each entry here takes a few hundred bytes: a budget of 1,500 holds a
   * few, then the cache turns over (and every value decodes the same:
   * held_after checks them) */
  held_after_within(1000, 1500, p, lens, &a10, &a40);
  cr_assert_leq(a40, a10 + 64, "budget 1500: %zu then %zu bytes", a10, a40);
  held_after_within(1000, 0, p, lens, &off10, &off40);
  cr_assert_eq(off40, off10, "budget 0: %zu then %zu bytes", off10, off40);
  cr_assert_gt(a10, off10, "budget 1500 keeps some: %zu, none %zu", a10,
               off10);
  cr_assert_leq(a10 - off10, 1500 + 1024, "the budget and the cache's own "
                "struct: %zu", a10 - off10);
  /* a budget that holds all 40 grows to the end */
  held_after_within(1000, 1u << 20, p, lens, &b10, &b40);
  cr_assert_gt(b40, b10, "budget 1 MiB: %zu then %zu bytes", b10, b40);
  for (int i = 0; i < 40; i++) free(p[i]);
  free(p);
}

Test(meta_cache, an_entry_takes_its_typedef_times_a_constant) {
  /* The costliest TypeDef bytes: tag-id fields of two bytes whose schema
   * names differ from their wire names (two names each in the index). */
  char fdl[16384] = "package w;\nmessage W [id=40] {";
  for (int i = 1; i <= 200; i++) {
    char f[64];
    snprintf(f, sizeof f, " int32 fieldNo%d = %d;", i, i);
    strcat(fdl, f);
  }
  strcat(fdl, " }\n");
  wire_ctx *w = new_ctx(fdl);
  const uint8_t *td;
  size_t tl;
  cr_assert_eq(wire_schema_typedef(w, type_of(w, "w.W"), &td, &tl), WIRE_OK);
  wire_doc *d = wire_doc_new(w);
  wire_node *s = wire_node_new_struct(d, type_of(w, "w.W"));
  for (size_t i = 0; i < 200; i++)
    cr_assert_eq(wire_struct_set_field_at(
                     d, s, i, wire_node_new_int(d, WIRE_T_VARINT32, 1)),
                 WIRE_OK);
  size_t n;
  uint8_t *b = encode_root(w, d, s, &n);
  for (int linked = 0; linked < 2; linked++) {
    wire_ctx *r = new_ctx(linked ? fdl : NULL);
    round_trip(r, b, n);
    const wire_tdcache *c = r->tdc;
    cr_assert_not_null(c);
    cr_assert_eq(c->count, 1);
    const wire_td_entry *e = c->newest;
    cr_assert_eq(e->layout.td_len, tl);
    size_t bound = WIRE_TDCACHE_PER_BYTE * tl + WIRE_TDCACHE_ENTRY_BASE;
    cr_assert_leq(e->size, bound, "%zu bytes for a TypeDef of %zu", e->size,
                  tl);
    if (linked) /* 29,627 bytes for 658: the test can fail */
      cr_assert_gt(e->size, 40 * tl, "%zu bytes", e->size);
    cr_assert_eq(c->bytes, e->size + c->nbuckets * sizeof *c->buckets);
    wire_ctx_free(r);
  }
  wire_ctx_free_bytes(w, b);
  wire_doc_free(d);
  wire_ctx_free(w);
}

Test(meta_cache, the_cache_counts_with_the_documents_heap) {
  /* One list of 256 structs of 256 types, each announcing its TypeDef (8
   * tag-id fields): every TypeDef goes to the cache, not the document, so
   * the lazy structs' budget (R-SEC-13) counts the cache's bytes too. The
   * decode then peaks at 27.7 bytes per input byte; counting only the
   * document's arenas, 33.2. */
  char *fdl = malloc(1 << 16);
  strcpy(fdl, "package z;\n");
  for (int i = 0; i < 256; i++)
    sprintf(fdl + strlen(fdl), "message T%d [id=%d] { int32 a = 1; int32 b = 2; "
            "int32 c = 3; int32 d = 4; int32 e = 5; int32 f = 6; int32 g = 7; "
            "int32 h = 8; }\n", i, 500 + i);
  wire_ctx *w = new_ctx(fdl);
  wire_doc *d = wire_doc_new(w);
  wire_node *list = wire_node_new_list(d, WIRE_T_LIST);
  for (int i = 0; i < 256; i++) {
    char name[16];
    snprintf(name, sizeof name, "z.T%d", i);
    wire_node *st = wire_node_new_struct(d, type_of(w, name));
    for (size_t k = 0; k < 8; k++)
      cr_assert_eq(wire_struct_set_field_at(
                       d, st, k, wire_node_new_int(d, WIRE_T_VARINT32, 0)),
                   WIRE_OK);
    cr_assert_eq(wire_list_append(d, list, st), WIRE_OK);
  }
  size_t n;
  uint8_t *b = encode_root(w, d, list, &n);
  counter c = {0};
  wire_ctx *r = wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free, &c);
  cr_assert_eq(wire_ctx_set_option(r, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  size_t base = c.live_bytes;
  c.peak = base;
  wire_doc *rd;
  cr_assert_eq(wire_decode(r, b, n, &rd), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  cr_assert_eq(r->tdc->count, 256, "all cached");
  size_t peak = c.peak - base;
  cr_assert_leq(peak, 30 * n + 16384, "%zu bytes for %zu", peak, n);
  wire_doc_free(rd);
  wire_ctx_free(r);
  wire_ctx_free_bytes(w, b);
  wire_doc_free(d);
  wire_ctx_free(w);
  free(fdl);
}

Test(meta_cache, allocation_failures_are_nomem_everywhere) {
  wire_ctx *w = new_ctx(SCHEMA);
  size_t n;
  uint8_t *b = shape_bytes(w, 2, &n);
  wire_ctx_free(w);
  size_t failures = 0;
  int finished = 0;
  for (size_t k = 1; k < 10000 && !finished; k++) {
    counter c = {0};
    c.fail_at = k;
    wire_ctx *r = wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free, &c);
    if (!r) continue;
    int32_t st = wire_ctx_set_option(r, WIRE_OPT_COMPATIBLE, 1);
    if (st == WIRE_OK)
      st = wire_schema_load_fdl(r, SCHEMA, strlen(SCHEMA), "m.fdl");
    if (st == WIRE_OK) st = wire_schema_finish(r);
    if (st != WIRE_OK) {
      cr_assert(c.failed);
      wire_ctx_free(r);
      cr_assert_eq(c.live, 0);
      continue;
    }
    /* two decodes: the first fills the cache, the second uses it */
    int ok = 1;
    for (int i = 0; i < 2 && ok; i++) {
      wire_doc *d;
      st = wire_decode(r, b, n, &d);
      if (st != WIRE_OK) {
        cr_assert(c.failed, "allocation %zu: %s without a failure", k,
                  wire_status_name(st));
        cr_assert_eq(st, WIRE_E_NOMEM, "allocation %zu: %s (%s)", k,
                     wire_status_name(st), wire_ctx_error_message(r));
        failures++;
        ok = 0;
        break;
      }
      uint32_t t, h;
      cr_assert_eq(wire_node_user_type(d, wire_doc_root(d, 0), &t), WIRE_OK);
      st = wire_schema_hash(r, t, &h);
      cr_assert(st == WIRE_OK || st == WIRE_E_NOMEM, "%s",
                wire_status_name(st));
      wire_doc_free(d);
    }
    if (ok && !c.failed) finished = 1;
    wire_ctx_free(r);
    cr_assert_eq(c.live, 0, "allocation %zu: leak", k);
  }
  cr_assert(finished);
  cr_assert_gt(failures, 3);
  free(b);
}

/* ---- create and set (wire_struct_set_value, _string, _bytes) ----------- */

static const char *SET_SCHEMA =
    "package s;\n"
    "enum Color [id=30] { RED = 0; BLUE = 1; }\n"
    "message All [id=31] { int32 i = 1; int64 l = 2; uint32 u = 3; "
    "float32 f = 4; float64 d = 5; bool b = 6; string s = 7; bytes raw = 8; "
    "list<int32> nums = 9; Color c = 10; int8 small = 11; }\n";

static uint32_t ix_of(wire_ctx *c, uint32_t type, const char *name) {
  uint32_t ix;
  cr_assert_eq(wire_schema_field_index(c, type, name, strlen(name), &ix),
               WIRE_OK, "%s", name);
  return ix;
}

static uint8_t *encode_root(wire_ctx *c, wire_doc *d, wire_node *root,
                            size_t *len) {
  uint8_t *out;
  cr_assert_eq(wire_doc_add_root(d, root), WIRE_OK);
  cr_assert_eq(wire_encode(c, d, &out, len), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  return out;
}

Test(meta_abi, create_and_set_equals_make_then_set) {
  wire_ctx *c = new_ctx(SET_SCHEMA);
  uint32_t all = type_of(c, "s.All"), color = type_of(c, "s.Color");
  static const uint8_t raw[3] = {1, 2, 3};
  static const int32_t nums[2] = {-7, 70000};
  float f = 1.5f;
  double g = -2.25;
  uint32_t fb;
  uint64_t gb;
  memcpy(&fb, &f, 4);
  memcpy(&gb, &g, 8);
  /* made, then set */
  wire_doc *d1 = wire_doc_new(c);
  wire_node *a = wire_node_new_struct(d1, all);
  set(c, d1, a, all, "i", wire_node_new_int(d1, WIRE_T_VARINT32, -123456));
  set(c, d1, a, all, "l", wire_node_new_int(d1, WIRE_T_VARINT64, INT64_MIN));
  set(c, d1, a, all, "u", wire_node_new_uint(d1, WIRE_T_VAR_UINT32, 4000000000u));
  set(c, d1, a, all, "f", wire_node_new_float_bits(d1, WIRE_T_FLOAT32, fb));
  set(c, d1, a, all, "d", wire_node_new_float_bits(d1, WIRE_T_FLOAT64, gb));
  set(c, d1, a, all, "b", wire_node_new_bool(d1, 1));
  set(c, d1, a, all, "s", wire_node_new_string(d1, (const uint8_t *)"h\xc3\xa9", 3,
                                               WIRE_STR_UTF8));
  set(c, d1, a, all, "raw", wire_node_new_binary(d1, raw, 3));
  wire_node *lst = wire_node_new_list(d1, WIRE_T_LIST);
  wire_list_append(d1, lst, wire_node_new_int(d1, WIRE_T_VARINT32, nums[0]));
  wire_list_append(d1, lst, wire_node_new_int(d1, WIRE_T_VARINT32, nums[1]));
  set(c, d1, a, all, "nums", lst);
  set(c, d1, a, all, "c", wire_node_new_enum_of(d1, color, 1));
  set(c, d1, a, all, "small", wire_node_new_int(d1, WIRE_T_INT8, -5));
  size_t n1;
  uint8_t *b1 = encode_root(c, d1, a, &n1);
  /* made and set in one call each */
  wire_doc *d2 = wire_doc_new(c);
  wire_node *s = wire_node_new_struct(d2, all);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "i"), WIRE_T_VARINT32,
                                     (uint64_t)(int64_t)-123456), WIRE_OK);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "l"), WIRE_T_VARINT64,
                                     (uint64_t)INT64_MIN), WIRE_OK);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "u"),
                                     WIRE_T_VAR_UINT32, 4000000000u), WIRE_OK);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "f"), WIRE_T_FLOAT32,
                                     fb), WIRE_OK);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "d"), WIRE_T_FLOAT64,
                                     gb), WIRE_OK);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "b"), WIRE_T_BOOL, 7),
               WIRE_OK);
  cr_assert_eq(wire_struct_set_string(d2, s, ix_of(c, all, "s"),
                                      (const uint8_t *)"h\xc3\xa9", 3,
                                      WIRE_STR_UTF8), WIRE_OK);
  cr_assert_eq(wire_struct_set_bytes(d2, s, ix_of(c, all, "raw"),
                                     WIRE_T_BINARY, raw, 3), WIRE_OK);
  wire_node *l2 = wire_node_new_list(d2, WIRE_T_LIST);
  wire_list_append(d2, l2, wire_node_new_int(d2, WIRE_T_VARINT32, nums[0]));
  wire_list_append(d2, l2, wire_node_new_int(d2, WIRE_T_VARINT32, nums[1]));
  cr_assert_eq(wire_struct_set_field_at(d2, s, ix_of(c, all, "nums"), l2),
               WIRE_OK);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "c"), WIRE_T_ENUM, 1),
               WIRE_OK);
  cr_assert_eq(wire_struct_set_value(d2, s, ix_of(c, all, "small"),
                                     WIRE_T_INT8, (uint64_t)(int64_t)-5),
               WIRE_OK);
  cr_assert_eq(wire_node_type(wire_node_field(s, ix_of(c, all, "c"))),
               WIRE_T_ENUM);
  cr_assert_eq(wire_node_user_type_id(wire_node_field(s, ix_of(c, all, "c"))),
               30);
  size_t n2;
  uint8_t *b2 = encode_root(c, d2, s, &n2);
  cr_assert_eq(n1, n2);
  cr_assert_arr_eq(b1, b2, n1, "the same bytes both ways");
  wire_ctx_free_bytes(c, b1);
  wire_ctx_free_bytes(c, b2);
  wire_doc_free(d1);
  wire_doc_free(d2);
  wire_ctx_free(c);
}

Test(meta_abi, create_and_set_checks_like_the_builders) {
  wire_ctx *c = new_ctx(SET_SCHEMA);
  uint32_t all = type_of(c, "s.All");
  wire_doc *d = wire_doc_new(c);
  wire_node *s = wire_node_new_struct(d, all);
  uint32_t i = ix_of(c, all, "i"), small = ix_of(c, all, "small");
  /* out of range: the error, and the field as it was */
  cr_assert_eq(wire_struct_set_value(d, s, i, WIRE_T_VARINT32, UINT64_C(1) << 40),
               WIRE_E_VALUE);
  cr_assert_null(wire_node_field(s, i));
  cr_assert_eq(wire_struct_set_value(d, s, small, WIRE_T_INT8, 200),
               WIRE_E_VALUE);
  cr_assert_eq(wire_struct_set_value(d, s, i, WIRE_T_FLOAT32, UINT64_C(1) << 33),
               WIRE_E_ARG);
  cr_assert_eq(wire_struct_set_value(d, s, i, WIRE_T_STRING, 0), WIRE_E_ARG);
  /* an enum value for a field that declares no enum */
  cr_assert_eq(wire_struct_set_value(d, s, i, WIRE_T_ENUM, 1), WIRE_E_SCHEMA);
  /* index out of range, not a struct, no document */
  cr_assert_eq(wire_struct_set_value(d, s, 99, WIRE_T_VARINT32, 1), WIRE_E_ARG);
  wire_node *v = wire_node_new_bool(d, 1);
  cr_assert_eq(wire_struct_set_value(d, v, 0, WIRE_T_VARINT32, 1), WIRE_E_ARG);
  cr_assert_eq(wire_struct_set_value(NULL, s, i, WIRE_T_VARINT32, 1), WIRE_E_ARG);
  /* text: not UTF-8; bytes: not whole elements, bool bytes */
  uint32_t str = ix_of(c, all, "s"), raw = ix_of(c, all, "raw");
  cr_assert_eq(wire_struct_set_string(d, s, str, (const uint8_t *)"\xff", 1,
                                      WIRE_STR_UTF8), WIRE_E_STRING);
  cr_assert_null(wire_node_field(s, str));
  /* not all ASCII: valid UTF-8 kept as UTF-8, a sequence cut short refused,
   * Latin-1 asked for: transcoded */
  cr_assert_eq(wire_struct_set_string(d, s, str,
                                      (const uint8_t *)"abcdefgh\xe1\x88", 10,
                                      WIRE_STR_UTF8), WIRE_E_STRING);
  cr_assert_null(wire_node_field(s, str));
  size_t tl;
  cr_assert_eq(wire_struct_set_string(d, s, str,
                                      (const uint8_t *)"abcdefgh\xe1\x88\xb4", 11,
                                      WIRE_STR_UTF8), WIRE_OK);
  cr_assert_eq(wire_node_string_encoding(wire_node_field(s, str)), WIRE_STR_UTF8);
  cr_assert_arr_eq(wire_node_bytes(wire_node_field(s, str), &tl),
                   "abcdefgh\xe1\x88\xb4", 11);
  cr_assert_eq(tl, 11);
  cr_assert_eq(wire_struct_set_string(d, s, str, (const uint8_t *)"h\xc3\xa9", 3,
                                      WIRE_STR_LATIN1), WIRE_OK);
  cr_assert_eq(wire_node_string_encoding(wire_node_field(s, str)), WIRE_STR_LATIN1);
  cr_assert_arr_eq(wire_node_bytes(wire_node_field(s, str), &tl), "h\xe9", 2);
  cr_assert_eq(tl, 2);
  cr_assert_eq(wire_struct_set_bytes(d, s, raw, WIRE_T_INT32_ARRAY,
                                     (const uint8_t *)"abc", 3), WIRE_E_ARG);
  cr_assert_eq(wire_struct_set_bytes(d, s, raw, WIRE_T_BOOL_ARRAY,
                                     (const uint8_t *)"\x02", 1), WIRE_E_ARG);
  cr_assert_null(wire_node_field(s, raw));
  wire_doc_free(d);
  wire_ctx_free(c);
}

/* Text of every length up to 80 (the copy's word and 16-byte moves, the
 * loop past 32 bytes): ASCII, valid UTF-8 with a two-byte sequence at
 * every place, and a byte that is never UTF-8 at every place, through
 * both text builders. */
static void check_text(wire_doc *d, wire_node *s, uint32_t str,
                       const uint8_t *t, size_t len, int32_t want) {
  wire_node *prev = wire_node_field(s, str);
  cr_assert_eq(wire_struct_set_string(d, s, str, t, len, WIRE_STR_UTF8), want,
               "length %zu", len);
  wire_node *n = wire_node_new_string(d, t, len, WIRE_STR_UTF8);
  if (want != WIRE_OK) {
    cr_assert_eq(wire_node_field(s, str), prev, "the field as it was");
    cr_assert_null(n, "length %zu", len);
    return;
  }
  wire_node *v[2] = {wire_node_field(s, str), n};
  for (int k = 0; k < 2; k++) {
    size_t got;
    cr_assert_not_null(v[k]);
    cr_assert_eq(wire_node_string_encoding(v[k]), WIRE_STR_UTF8);
    const uint8_t *b = wire_node_bytes(v[k], &got);
    cr_assert_eq(got, len, "length %zu", len);
    cr_assert(len == 0 || memcmp(b, t, len) == 0, "length %zu", len);
  }
}

Test(meta_abi, text_of_every_length_is_copied_and_checked) {
  wire_ctx *c = new_ctx(SET_SCHEMA);
  uint32_t all = type_of(c, "s.All"), str = ix_of(c, all, "s");
  uint8_t t[80];
  for (size_t len = 0; len <= sizeof t; len++) {
    wire_doc *d = wire_doc_new(c);
    wire_node *s = wire_node_new_struct(d, all);
    for (size_t i = 0; i < len; i++) t[i] = (uint8_t)('a' + i % 26);
    check_text(d, s, str, t, len, WIRE_OK);
    for (size_t at = 0; at < len; at++) {
      uint8_t keep = t[at];
      t[at] = 0xFF;
      check_text(d, s, str, t, len, WIRE_E_STRING);
      t[at] = 0xC3; /* cut short at the end, else followed by its 0xA9 */
      if (at + 1 < len) {
        uint8_t next = t[at + 1];
        t[at + 1] = 0xA9;
        check_text(d, s, str, t, len, WIRE_OK);
        t[at + 1] = next;
      } else {
        check_text(d, s, str, t, len, WIRE_E_STRING);
      }
      t[at] = keep;
    }
    wire_doc_free(d);
  }
  wire_ctx_free(c);
}

/* A value written without its type meta must be of the declared type:
 * before, a nullable field or a declared list element of another integer
 * type was written with its own encoding, and the bytes did not decode
 * (found by fuzz_tape_encode). */
Test(meta_abi, a_value_of_another_type_than_declared_is_not_encoded) {
  static const char *fdl =
      "package t;\n"
      "message N [id=40] { optional uint32 u = 1; list<int32> l = 2; }\n";
  wire_ctx *c = new_ctx(fdl);
  uint32_t n = type_of(c, "t.N");
  for (int compat = 0; compat < 2; compat++) {
    wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, compat);
    for (int bad = 0; bad < 2; bad++) {
      wire_doc *d = wire_doc_new(c);
      wire_node *s = wire_node_new_struct(d, n);
      wire_node *l = wire_node_new_list(d, WIRE_T_LIST);
      wire_list_append(d, l, wire_node_new_int(d, WIRE_T_VARINT32, 5));
      set(c, d, s, n, "l", l);
      set(c, d, s, n, "u", wire_node_new_uint(d, WIRE_T_VAR_UINT32, 7));
      if (bad == 0)
        set(c, d, s, n, "u", wire_node_new_uint(d, WIRE_T_VAR_UINT64,
                                                UINT64_C(1) << 40));
      else
        wire_list_append(d, l, wire_node_new_int(d, WIRE_T_VARINT64, 5));
      uint8_t *out = NULL;
      size_t len;
      cr_assert_eq(wire_doc_add_root(d, s), WIRE_OK);
      cr_assert_eq(wire_encode(c, d, &out, &len), WIRE_E_ENCODE,
                   "compatible %d, case %d", compat, bad);
      cr_assert(strstr(wire_ctx_error_message(c), "is declared"), "%s",
                wire_ctx_error_message(c));
      cr_assert_null(out);
      wire_doc_free(d);
    }
  }
  wire_ctx_free(c);
}
