/* test_tdcache.c - the TypeDef cache's memory over a context's life
 * (typedef_cache.c, WIRE_LIMIT_TYPEDEF_CACHE_BYTES): a flush gives the
 * entries back once no document made before it is alive, documents made
 * before it still read their TypeDefs, the budget counts the bucket table
 * at every size, and a full cache reads new TypeDefs straight into the
 * document. Live bytes are the caller's allocator's. */
#include <criterion/criterion.h>

#include "wire.h"
#include "schema.h" /* the cache's entries and byte count */
#include "tdcache_help.h"

#define N 40

static wire_ctx *reader(counter *c, uint64_t budget) {
  wire_ctx *r = wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free, c);
  cr_assert_not_null(r);
  cr_assert_eq(wire_ctx_set_option(r, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 1000), WIRE_OK);
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES, budget),
               WIRE_OK);
  return r;
}

static wire_doc *decode_one(wire_ctx *r, uint8_t **p, const size_t *lens,
                            int i) {
  wire_doc *d;
  cr_assert_eq(wire_decode(r, p[i], lens[i], &d), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  cr_assert_eq(wire_node_int(wire_node_field(wire_doc_root(d, 0), 0)), i);
  return d;
}

/* The bytes the cache says it holds are what it holds: its entries (the
 * retired ones too), their projection maps and the bucket table. */
static size_t held(const wire_tdcache *c) {
  size_t n = c->nbuckets * sizeof *c->buckets;
  for (const wire_td_entry *e = c->newest; e; e = e->older)
    n += e->size + e->proj_size;
  for (const wire_td_entry *e = c->retired; e; e = e->older)
    n += e->size + e->proj_size;
  return n;
}

static void free_payloads(uint8_t **p) {
  for (int i = 0; i < N; i++) free(p[i]);
  free(p);
}

/* The end of a test: the context freed leaves nothing live. */
static void finish(wire_ctx *r, const counter *c, uint8_t **p) {
  wire_ctx_free(r);
  cr_assert_eq(c->live, 0, "all freed");
  free_payloads(p);
}

/* The cache's bytes after messages 0..n-1 (1 MiB budget); for n = 1 its
 * entry alone (the bucket table left out). */
static size_t cached_after(uint8_t **p, const size_t *lens, int n) {
  counter c = {0};
  wire_ctx *r = reader(&c, UINT64_C(1) << 20);
  for (int i = 0; i < n; i++) wire_doc_free(decode_one(r, p, lens, i));
  size_t bytes = n == 1 ? r->tdc->newest->size : r->tdc->bytes;
  wire_ctx_free(r);
  return bytes;
}


Test(tdcache, a_flush_gives_the_entries_back) {
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  const uint64_t budget = 6000; /* full before the 40th TypeDef */
  counter c = {0};
  wire_ctx *r = reader(&c, budget);
  size_t empty = 0;
  for (int round = 0; round < 20; round++) {
    for (int i = 0; i < N; i++) {
      wire_doc_free(decode_one(r, p, lens, i));
      cr_assert_leq(r->tdc->bytes, budget);
      cr_assert_eq(r->tdc->bytes, held(r->tdc));
      if (round) /* the budget over the empty cache, and nothing more */
        cr_assert_leq(c.live_bytes - empty, budget, "round %d, message %d: "
                      "%zu bytes over %zu", round, i, c.live_bytes - empty,
                      empty);
    }
    size_t full = c.live_bytes, bytes = r->tdc->bytes;
    cr_assert_gt(bytes, budget / 2, "the cache filled: %zu bytes", bytes);
    cr_assert_eq(r->tdc->count * 2 < N, 1, "and stopped: %u entries",
                 r->tdc->count);
    /* a new limit flushes the cache: no document is alive, so its entries
     * and bucket table go back to the allocator at once */
    cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES, budget),
                 WIRE_OK);
    cr_assert_eq(r->tdc->bytes, 0);
    cr_assert_eq(c.live_bytes, full - bytes, "round %d: %zu of %zu given back",
                 round, full - c.live_bytes, bytes);
    if (!round) empty = c.live_bytes;
    cr_assert_eq(c.live_bytes, empty, "round %d: no growth", round);
  }
  finish(r, &c, p);
}

Test(tdcache, a_schema_change_gives_the_entries_back) {
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  counter c = {0};
  wire_ctx *r = reader(&c, UINT64_C(1) << 20);
  for (int i = 0; i < N; i++) wire_doc_free(decode_one(r, p, lens, i));
  size_t full = c.live_bytes, bytes = r->tdc->bytes;
  cr_assert_eq(r->tdc->count, N);
  const char *fdl = "package x;\nmessage X [id=9] { int32 a = 1; }\n";
  cr_assert_eq(wire_schema_load_fdl(r, fdl, strlen(fdl), "x.fdl"), WIRE_OK);
  cr_assert_eq(wire_schema_finish(r), WIRE_OK);
  size_t schema = c.live_bytes - full; /* (the registry's own growth) */
  /* the next decode finds the registry changed: the cache is flushed
   * before it is searched */
  wire_doc_free(decode_one(r, p, lens, 0));
  cr_assert_eq(r->tdc->count, 1);
  cr_assert_eq(r->tdc->bytes, held(r->tdc));
  cr_assert_lt(c.live_bytes, full + schema - bytes + r->tdc->bytes + 1,
               "%zu live, %zu before", c.live_bytes, full);
  finish(r, &c, p);
}

Test(tdcache, documents_made_before_a_flush_keep_their_typedefs) {
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  counter c = {0};
  wire_ctx *r = reader(&c, UINT64_C(1) << 20);
  wire_doc_free(decode_one(r, p, lens, 5)); /* the spare document made */
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES,
                                  UINT64_C(1) << 20), WIRE_OK);
  wire_doc *d0 = decode_one(r, p, lens, 0);
  size_t one = r->tdc->bytes;
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES,
                                  UINT64_C(1) << 20), WIRE_OK);
  /* d0 points into its entry: retired, not freed, still counted (the
   * bucket table went) */
  cr_assert_eq(r->tdc->count, 0);
  cr_assert_not_null(r->tdc->retired);
  cr_assert_eq(r->tdc->bytes, held(r->tdc));
  cr_assert_lt(r->tdc->bytes, one);
  wire_doc *d1 = decode_one(r, p, lens, 1);
  cr_assert_eq(r->tdc->count, 1);
  /* d0 still reads and writes its TypeDef (ASan: no use after free) */
  for (int k = 0; k < 2; k++) {
    wire_doc *d = k ? d1 : d0;
    const uint8_t *td;
    size_t tl;
    cr_assert_not_null(wire_node_typedef(wire_doc_root(d, 0), &tl));
    td = wire_node_typedef(wire_doc_root(d, 0), &tl);
    cr_assert_not_null(memchr(p[k], td[0], lens[k]));
    uint8_t *out;
    size_t n;
    cr_assert_eq(wire_encode(r, d, &out, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    cr_assert_eq(n, lens[k]);
    cr_assert_arr_eq(out, p[k], n);
    wire_ctx_free_bytes(r, out);
  }
  /* d1 was made after the flush: freeing d0 frees d0's entry */
  size_t before = c.live_bytes;
  wire_doc_free(d0);
  cr_assert_null(r->tdc->retired);
  cr_assert_eq(r->tdc->bytes, held(r->tdc));
  cr_assert_lt(c.live_bytes, before);
  /* a second flush while d1 is alive, then d1 freed: all back */
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES,
                                  UINT64_C(1) << 20), WIRE_OK);
  cr_assert_not_null(r->tdc->retired);
  cr_assert_eq(wire_node_int(wire_node_field(wire_doc_root(d1, 0), 0)), 1);
  before = c.live_bytes;
  size_t bytes = r->tdc->bytes;
  cr_assert_gt(bytes, 0);
  wire_doc_free(d1);
  cr_assert_null(r->tdc->retired);
  cr_assert_eq(r->tdc->bytes, 0);
  cr_assert_leq(c.live_bytes + bytes, before, "%zu live, %zu before",
                c.live_bytes, before);
  finish(r, &c, p);
}

Test(tdcache, a_reader_that_keeps_one_document_stays_within_the_budget) {
  /* The previous message's document is freed after the next decode and a
   * flush: retired entries wait for documents pinned before the flush,
   * and the budget, which counts them, bounds them. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  const uint64_t budget = 3000;
  counter c = {0};
  wire_ctx *r = reader(&c, budget);
  wire_doc *prev = NULL;
  size_t base = 0, most = 0;
  int freed = 0;
  for (int k = 0; k < 400; k++) {
    wire_doc *d = decode_one(r, p, lens, k % N);
    cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES, budget),
                 WIRE_OK);
    wire_doc_free(prev);
    prev = d;
    cr_assert_leq(r->tdc->bytes, budget);
    cr_assert_eq(r->tdc->bytes, held(r->tdc));
    if (r->tdc->bytes == 0) freed++;
    if (k == N) base = c.live_bytes - r->tdc->bytes;
    if (k > N && c.live_bytes - base > most) most = c.live_bytes - base;
  }
  cr_assert_gt(freed, 0, "the retired entries were given back");
  cr_assert_leq(most, budget + 1024, "%zu bytes over the first state", most);
  wire_doc_free(prev);
  finish(r, &c, p);
}

Test(tdcache, the_bucket_table_counts_in_the_budget_at_every_size) {
  /* Budgets every 8 bytes up to past the table's second doubling (16 to
   * 32 buckets at the 9th entry, 32 to 64 at the 17th): the entry whose
   * table growth would pass the budget is not kept, at each edge. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t entry = cached_after(p, lens, 1);
  uint32_t most = 0;
  for (uint64_t budget = 0; budget < 18 * entry + 1024; budget += 8) {
    counter c = {0};
    wire_ctx *r = reader(&c, budget);
    for (int i = 0; i < N; i++) {
      wire_doc_free(decode_one(r, p, lens, i));
      if (!r->tdc) continue; /* (budget 0: no cache made) */
      cr_assert_leq(r->tdc->bytes, budget, "budget %llu, message %d: %zu",
                    (unsigned long long)budget, i, r->tdc->bytes);
      cr_assert_eq(r->tdc->bytes, held(r->tdc));
    }
    if (r->tdc && r->tdc->count > most) most = r->tdc->count;
    wire_ctx_free(r);
  }
  cr_assert_geq(most, 17, "the sweep reached 64 buckets: %u entries", most);
  free_payloads(p);
}

Test(tdcache, a_full_cache_reads_new_typedefs_without_its_scratch) {
  /* Once the budget has no room for the smallest entry, a new TypeDef is
   * read into the document as with the cache off: no scratch block is
   * allocated for it (a spare document and its block make such a decode
   * allocation-free). The budget: 4 entries exactly, then 4 entries and
   * 8 bytes (less than any entry). */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t four = cached_after(p, lens, 4);
  for (int run = 0; run < 3; run++) {
    counter c = {0};
    wire_ctx *r = reader(&c, run == 2 ? 0 : four + (run ? 8 : 0));
    for (int i = 0; i < N; i++) {
      size_t was = c.allocs;
      wire_doc_free(decode_one(r, p, lens, i));
      if (i >= 8)
        cr_assert_eq(c.allocs, was, "budget %zu, message %d: %zu allocations",
                     run == 2 ? 0 : four + (run ? 8 : 0), i, c.allocs - was);
    }
    if (run < 2) cr_assert_eq(r->tdc->count, 4, "the cache holds 4");
    wire_ctx_free(r);
  }
  free_payloads(p);
}

Test(tdcache, projection_maps_count_in_the_budget_and_go_with_a_flush) {
  /* The reader's d.T0 has a field the writer's lacks: projecting makes a
   * field map, kept with the cached writer's layout while the budget has
   * room for it, and given back with the entry. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  const char *fdl = "package d;\nmessage T0 [id=100] { int32 v0 = 1; "
                    "int32 extra = 2; }\n";
  for (int tight = 0; tight < 2; tight++) {
    counter c = {0};
    wire_ctx *r = reader(&c, UINT64_C(1) << 20);
    cr_assert_eq(wire_schema_load_fdl(r, fdl, strlen(fdl), "d.fdl"), WIRE_OK);
    cr_assert_eq(wire_schema_finish(r), WIRE_OK);
    uint32_t t;
    cr_assert_eq(wire_schema_find_type(r, "d.T0", 4, &t), WIRE_OK);
    wire_doc_free(decode_one(r, p, lens, 0));
    size_t bytes = r->tdc->bytes;
    if (tight) /* no room left for a map */
      r->max_typedef_cache_bytes = bytes;
    for (int k = 0; k < 2; k++) {
      wire_doc *d = decode_one(r, p, lens, 0);
      wire_node *out;
      cr_assert_eq(wire_struct_project(d, wire_doc_root(d, 0), t, &out),
                   WIRE_OK, "%s", wire_ctx_error_message(r));
      cr_assert_eq(wire_node_int(wire_node_field(out, 0)), 0);
      cr_assert_eq(wire_node_count(out), 2);
      const wire_td_entry *e = r->tdc->newest;
      cr_assert_eq(e->proj_size ? 1 : 0, !tight, "map kept: %zu bytes",
                   e->proj_size);
      cr_assert_eq(r->tdc->bytes, bytes + e->proj_size);
      cr_assert_eq(r->tdc->bytes, held(r->tdc));
      cr_assert_leq(r->tdc->bytes, r->max_typedef_cache_bytes);
      wire_doc_free(d);
    }
    size_t live = c.live_bytes, all = r->tdc->bytes;
    cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE_BYTES,
                                    UINT64_C(1) << 20), WIRE_OK);
    cr_assert_eq(c.live_bytes, live - all, "the entry and its map back");
    wire_ctx_free(r);
    cr_assert_eq(c.live, 0);
  }
  free_payloads(p);
}
