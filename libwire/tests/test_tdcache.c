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


Test(tdcache, a_flush_gives_the_entries_back, .timeout = 60) {
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  const uint64_t budget = 6000; /* full before the 40th TypeDef */
  counter c = {0};
  wire_ctx *r = reader(&c, budget);
  size_t empty = 0;
  for (int round = 0; round < 20; round++) {
    size_t most = 0;
    for (int i = 0; i < N; i++) {
      wire_doc_free(decode_one(r, p, lens, i));
      if (r->tdc->bytes > most) most = r->tdc->bytes;
      cr_assert_leq(r->tdc->bytes, budget);
      cr_assert_eq(r->tdc->bytes, held(r->tdc));
      if (round) /* the budget over the empty cache, and nothing more */
        cr_assert_leq(c.live_bytes - empty, budget, "round %d, message %d: "
                      "%zu bytes over %zu", round, i, c.live_bytes - empty,
                      empty);
    }
    size_t full = c.live_bytes, bytes = r->tdc->bytes;
    cr_assert_gt(most, budget / 2, "the cache filled: %zu bytes", most);
    if (!round) { /* each TypeDef seen once: no turnover (R-SEC-15) */
      cr_assert_eq(r->tdc->turnovers, 0);
    } else { /* seen before (a flush keeps what was seen) */
      cr_assert_eq(r->tdc->count * 2 < N, 1, "and turned over: %u entries",
                   r->tdc->count);
      cr_assert_gt(r->tdc->turnovers, 0);
    }
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

Test(tdcache, a_schema_change_gives_the_entries_back, .timeout = 60) {
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

Test(tdcache, documents_made_before_a_flush_keep_their_typedefs, .timeout = 60) {
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

Test(tdcache, a_reader_that_keeps_one_document_stays_within_the_budget, .timeout = 60) {
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

Test(tdcache, the_bucket_table_counts_in_the_budget_at_every_size, .timeout = 60) {
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
      if (r->tdc->count > most) most = r->tdc->count;
    }
    wire_ctx_free(r);
  }
  cr_assert_geq(most, 17, "the sweep reached 64 buckets: %u entries", most);
  free_payloads(p);
}

Test(tdcache, a_full_cache_reads_new_typedefs_without_its_scratch, .timeout = 60) {
  /* Once the budget has no room for the smallest entry and a turnover
   * cannot make any (the entries it retired are pinned by a live
   * document, and no entry was taken since the turnover that kept two),
   * a new TypeDef is read into the document as with the cache off: no
   * turnover, no scratch block allocated for it (a spare document and its
   * block make such a decode allocation-free). The budget: 4 entries
   * exactly, then 4 entries and 8 bytes (less than any entry), then none.
   * When the document goes, the retired entries go and the cache takes
   * TypeDefs again. Each new TypeDef is read twice: a full cache takes
   * only one seen before. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t four = cached_after(p, lens, 4);
  for (int run = 0; run < 3; run++) {
    counter c = {0};
    wire_ctx *r = reader(&c, run == 2 ? 0 : four + (run ? 8 : 0));
    wire_doc *pinned = NULL;
    for (int i = 0; i < N; i++) {
      if (i >= 4) /* seen once: a full cache takes it only when seen again */
        wire_doc_free(decode_one(r, p, lens, i));
      size_t was = c.allocs;
      wire_doc *d = decode_one(r, p, lens, i);
      if (i == 3) pinned = d; /* holds the 4th entry: pins the first four */
      else wire_doc_free(d);
      if (i < 4) wire_doc_free(decode_one(r, p, lens, i)); /* hits */
      if (i >= 8)
        cr_assert_eq(c.allocs, was, "budget %zu, message %d: %zu allocations",
                     run == 2 ? 0 : four + (run ? 8 : 0), i, c.allocs - was);
    }
    if (run < 2) {
      cr_assert_eq(r->tdc->count, 2, "the turnover kept two of the four");
      cr_assert_eq(r->tdc->turnovers, 1, "once");
      cr_assert_not_null(r->tdc->retired);
    }
    wire_doc_free(pinned);
    if (run < 2) {
      cr_assert_null(r->tdc->retired);
      wire_doc_free(decode_one(r, p, lens, 7));
      cr_assert_eq(r->tdc->count, 3, "taken again");
    }
    wire_ctx_free(r);
  }
  free_payloads(p);
}

Test(tdcache, projection_maps_count_in_the_budget_and_go_with_a_flush, .timeout = 60) {
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

/* ---- a full cache turns over (R-SEC-15) ---- */

/* The reachable entry holding TypeDef bytes td[0..n), or NULL. */
static const wire_td_entry *entry_of(const wire_tdcache *c, const uint8_t *td,
                                     size_t n) {
  for (const wire_td_entry *e = c->newest; e; e = e->older)
    if (e->layout.td_len == n && memcmp(e->layout.td, td, n) == 0) return e;
  return NULL;
}

/* Whether document d's root was read with the cache's entry (a hit or a
 * TypeDef just cached), not a reading of its own. */
static bool read_from_cache(const wire_tdcache *c, wire_doc *d) {
  size_t n;
  const uint8_t *td = wire_node_typedef(wire_doc_root(d, 0), &n);
  const wire_td_entry *e = entry_of(c, td, n);
  return e && e->layout.td == td;
}

/* The TypeDef bytes of payload i (decoded once on a context of its own). */
static uint8_t *typedef_of(uint8_t **p, const size_t *lens, int i,
                           size_t *n) {
  counter c = {0};
  wire_ctx *r = reader(&c, 0);
  wire_doc *d = decode_one(r, p, lens, i);
  const uint8_t *td = wire_node_typedef(wire_doc_root(d, 0), n);
  uint8_t *copy = malloc(*n);
  memcpy(copy, td, *n);
  wire_doc_free(d);
  wire_ctx_free(r);
  return copy;
}

/* The steady peer's TypeDef is payload 0's; a flood of the 39 others
 * (each sent `times` times in a row) goes between its messages, on a
 * budget of some 12 entries. Every message of payload 0 after its second
 * is a hit on the same entry, the cache turns over again and again, and
 * its memory never passes the budget. */
static void steady_through_a_flood(int times) {
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t ln;
  uint8_t *l = typedef_of(p, lens, 0, &ln);
  const uint64_t budget = 6000;
  counter c = {0};
  wire_ctx *r = reader(&c, budget);
  size_t base = 0;
  for (int k = 0; k < 400; k++) {
    const wire_td_entry *e = k >= 2 ? entry_of(r->tdc, l, ln) : NULL;
    if (k >= 2)
      cr_assert_not_null(e, "times %d, message %d: payload 0 was evicted "
                         "(%llu turnovers)", times, k,
                         (unsigned long long)r->tdc->turnovers);
    wire_doc *d = decode_one(r, p, lens, 0);
    cr_assert(read_from_cache(r->tdc, d));
    if (k >= 2) cr_assert_eq(entry_of(r->tdc, l, ln), e, "the same entry");
    wire_doc_free(d);
    for (int t = 0; t < times; t++)
      wire_doc_free(decode_one(r, p, lens, 1 + k % (N - 1)));
    cr_assert_leq(r->tdc->bytes, budget);
    cr_assert_eq(r->tdc->bytes, held(r->tdc));
    cr_assert_null(r->tdc->retired, "no document pins: freed at once");
    if (k == 1) base = c.live_bytes - r->tdc->bytes;
    if (k > 1) /* the context's own memory and the budget, no more */
      cr_assert_leq(c.live_bytes, base + budget, "message %d: %zu over %zu",
                    k, c.live_bytes - base, base);
  }
  cr_assert_gt(r->tdc->turnovers, 10, "%llu turnovers",
               (unsigned long long)r->tdc->turnovers);
  free(l);
  finish(r, &c, p);
}

Test(tdcache, a_steady_typedef_stays_cached_through_a_flood, .timeout = 60) {
  steady_through_a_flood(1);
}

Test(tdcache, a_steady_typedef_stays_cached_through_a_flood_read_twice, .timeout = 60) {
  /* each flooding TypeDef read twice, so hit too: a turnover keeps the
   * oldest entries read first, and the steady one stays */
  steady_through_a_flood(2);
}

Test(tdcache, a_typedef_after_a_flood_is_cached_again, .timeout = 60) {
  /* 39 distinct TypeDefs fill a cache of some 12 entries (none read
   * twice), then payload 0 comes again and again: it is read without the
   * cache while the cache has no room, until more TypeDefs were read so
   * than a quarter of its entries (and the entries found, none); then the
   * cache turns over and takes it (the scratch and the entry allocated),
   * and from then on it is read from the cache with no allocation. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t ln;
  uint8_t *l = typedef_of(p, lens, 0, &ln);
  counter c = {0};
  wire_ctx *r = reader(&c, 6000);
  for (int i = 1; i < N; i++) wire_doc_free(decode_one(r, p, lens, i));
  cr_assert_null(entry_of(r->tdc, l, ln));
  uint32_t full = r->tdc->count;
  int k = 0;
  wire_doc *d = NULL;
  for (;; k++) {
    size_t was = c.allocs;
    d = decode_one(r, p, lens, 0);
    if (read_from_cache(r->tdc, d)) {
      cr_assert_gt(c.allocs, was, "read and copied into the cache");
      break;
    }
    cr_assert_eq(c.allocs, was, "read into the document");
    wire_doc_free(d);
    cr_assert_leq((uint32_t)k, full / 4 + 1, "still not cached after %d messages", k);
  }
  const wire_td_entry *e = entry_of(r->tdc, l, ln);
  wire_doc_free(d);
  for (int m = 0; m < 5; m++) {
    size_t was = c.allocs;
    d = decode_one(r, p, lens, 0);
    cr_assert(read_from_cache(r->tdc, d));
    cr_assert_eq(entry_of(r->tdc, l, ln), e);
    cr_assert_eq(c.allocs, was, "a hit: %zu allocations", c.allocs - was);
    wire_doc_free(d);
  }
  /* the flood goes on between its messages: newer than the flood's
   * first entries, it is kept because it is found */
  uint64_t turns = r->tdc->turnovers;
  for (int m = 0; m < 200; m++) {
    wire_doc_free(decode_one(r, p, lens, 1 + m % (N - 1)));
    cr_assert_eq(entry_of(r->tdc, l, ln), e, "message %d", m);
    wire_doc_free(decode_one(r, p, lens, 0));
  }
  cr_assert_gt(r->tdc->turnovers, turns + 5);
  free(l);
  finish(r, &c, p);
}

Test(tdcache, documents_made_before_a_turnover_still_read_and_reencode, .timeout = 60) {
  /* Every 7th document of a long flood is kept to the end: the entries
   * they hold are retired by the turnovers, not freed (the allocator
   * fills what is freed with 0xA5; ASan), and the cache's bytes, the
   * retired entries with them, stay within the budget. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  const uint64_t budget = 6000;
  counter c = {0};
  wire_ctx *r = reader(&c, budget);
  wire_doc *kept[60];
  int which[60], nkept = 0;
  for (int k = 0; k < 400; k++) {
    wire_doc *d = decode_one(r, p, lens, k % N);
    if (k % 7 == 0 && nkept < 60) {
      which[nkept] = k % N;
      kept[nkept++] = d;
    } else {
      wire_doc_free(d);
    }
    cr_assert_leq(r->tdc->bytes, budget);
    cr_assert_eq(r->tdc->bytes, held(r->tdc));
  }
  cr_assert_gt(r->tdc->turnovers, 0);
  for (int k = 0; k < nkept; k++) {
    wire_doc *d = kept[k];
    int i = which[k];
    cr_assert_eq(wire_node_int(wire_node_field(wire_doc_root(d, 0), 0)), i);
    size_t tl;
    const uint8_t *td = wire_node_typedef(wire_doc_root(d, 0), &tl);
    cr_assert_not_null(td);
    cr_assert_lt(tl, lens[i]);
    cr_assert_arr_eq(td, p[i] + lens[i] - tl - 1, tl, "document %d", k);
    uint8_t *out;
    size_t n;
    cr_assert_eq(wire_encode(r, d, &out, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    cr_assert_eq(n, lens[i]);
    cr_assert_arr_eq(out, p[i], n, "document %d re-encodes", k);
    wire_ctx_free_bytes(r, out);
  }
  for (int k = 0; k < nkept; k++) wire_doc_free(kept[k]);
  cr_assert_null(r->tdc->retired, "all given back with the documents");
  cr_assert_eq(r->tdc->bytes, held(r->tdc));
  finish(r, &c, p);
}

/* The bytes of document d of writer w with `root` as its root, in a
 * malloc'd copy; d and w are freed. */
static uint8_t *encoded_copy(wire_ctx *w, wire_doc *d, wire_node *root,
                             size_t *len) {
  cr_assert_eq(wire_doc_add_root(d, root), WIRE_OK);
  uint8_t *bytes, *out;
  cr_assert_eq(wire_encode(w, d, &bytes, len), WIRE_OK);
  out = malloc(*len);
  memcpy(out, bytes, *len);
  wire_ctx_free_bytes(w, bytes);
  wire_doc_free(d);
  wire_ctx_free(w);
  return out;
}

/* One root: a list of structs of types 0..k-1, then one of type 0 again
 * (a reference to the root's first TypeDef). */
static uint8_t *list_payload(int k, size_t *len) {
  wire_ctx *w = wire_ctx_new();
  cr_assert_eq(wire_ctx_set_option(w, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  char fdl[8192] = "package d;\n";
  for (int i = 0; i < k; i++)
    snprintf(fdl + strlen(fdl), sizeof fdl - strlen(fdl),
             "message T%d [id=%d] { int32 v%d = 1; }\n", i, 100 + i, i);
  cr_assert_eq(wire_schema_load_fdl(w, fdl, strlen(fdl), "d.fdl"), WIRE_OK);
  cr_assert_eq(wire_schema_finish(w), WIRE_OK);
  wire_doc *d = wire_doc_new(w);
  wire_node *list = wire_node_new_list(d, WIRE_T_LIST);
  for (int i = 0; i <= k; i++) {
    char name[16];
    snprintf(name, sizeof name, "d.T%d", i % k);
    uint32_t t;
    cr_assert_eq(wire_schema_find_type(w, name, strlen(name), &t), WIRE_OK);
    wire_node *s = wire_node_new_struct(d, t);
    cr_assert_eq(wire_struct_set_field_at(
                     d, s, 0, wire_node_new_int(d, WIRE_T_VARINT32, 7 * i)),
                 WIRE_OK);
    cr_assert_eq(wire_list_append(d, list, s), WIRE_OK);
  }
  return encoded_copy(w, d, list, len);
}

/* A reader whose cache of 4 entries holds 2 found ones (payloads 20 and
 * 21, read twice): a turnover keeps those, and retires the others. */
static wire_ctx *primed(counter *c, uint8_t **p, const size_t *lens) {
  wire_ctx *r = reader(c, UINT64_C(1) << 20);
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 4), WIRE_OK);
  for (int k = 0; k < 4; k++) wire_doc_free(decode_one(r, p, lens, 20 + k / 2));
  cr_assert_eq(r->tdc->hot, 2);
  return r;
}

Test(tdcache, decodes_keep_their_layouts_through_a_turnover_in_the_payload,
     .timeout = 60) {
  /* A cache of 4 entries, 2 of them found, and a payload of 12 TypeDefs
   * whose last struct refers to the first TypeDef: the cache takes the
   * first two, turns over at a later one and retires them (it keeps the
   * found ones) while the decode holds them. A tape decode (no document)
   * is pinned by the turnover until it returns, then the retired entries
   * go; a document holds them until it is freed. Both read what a decode
   * without the cache reads (the allocator fills what is freed with 0xA5;
   * ASan). */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t n;
  uint8_t *b = list_payload(12, &n);
  counter c0 = {0};
  wire_ctx *plain = reader(&c0, 0);
  uint8_t *want;
  size_t want_len;
  cr_assert_eq(wire_decode_tape(plain, b, n, &want, &want_len), WIRE_OK, "%s",
               wire_ctx_error_message(plain));
  for (int round = 0; round < 3; round++) { /* 1 to 3 tapes, then a doc */
    counter c = {0};
    wire_ctx *r = primed(&c, p, lens);
    /* the payload read once: its first two TypeDefs fill the cache, the
     * others are seen (a full cache takes a TypeDef seen before) */
    wire_doc *seen;
    cr_assert_eq(wire_decode(r, b, n, &seen), WIRE_OK);
    cr_assert_eq(r->tdc->turnovers, 0);
    wire_doc_free(seen);
    for (int k = 0; k <= round; k++) {
      uint64_t turns = r->tdc->turnovers;
      uint8_t *tape;
      size_t tape_len;
      cr_assert_eq(wire_decode_tape(r, b, n, &tape, &tape_len), WIRE_OK,
                   "%s", wire_ctx_error_message(r));
      cr_assert_gt(r->tdc->turnovers, turns, "turned over in the call");
      cr_assert_null(r->tdc->retired, "given back when the call returned");
      cr_assert_eq(tape_len, want_len);
      cr_assert_arr_eq(tape, want, tape_len, "round %d, tape %d", round, k);
      wire_ctx_free_bytes(r, tape);
      for (int i = 0; i < 4; i++) /* found again */
        wire_doc_free(decode_one(r, p, lens, 20 + i / 2));
    }
    wire_doc *d;
    cr_assert_eq(wire_decode(r, b, n, &d), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    cr_assert_not_null(r->tdc->retired, "held by the document");
    wire_node *list = wire_doc_root(d, 0);
    for (int i = 0; i <= 12; i++)
      cr_assert_eq(wire_node_int(wire_node_field(wire_node_child(list, (size_t)i), 0)),
                   7 * i);
    uint8_t *out;
    size_t m;
    cr_assert_eq(wire_encode(r, d, &out, &m), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    cr_assert_eq(m, n);
    cr_assert_arr_eq(out, b, n);
    wire_ctx_free_bytes(r, out);
    wire_doc_free(d);
    cr_assert_null(r->tdc->retired);
    cr_assert_leq(r->tdc->count, 4);
    wire_ctx_free(r);
    cr_assert_eq(c.live, 0);
  }
  wire_ctx_free_bytes(plain, want);
  wire_ctx_free(plain);
  free(b);
  free_payloads(p);
}

Test(tdcache, a_turnover_leaves_room_when_every_entry_was_read, .timeout = 60) {
  /* Every cached TypeDef read again (all hit), then a new one: the
   * turnover keeps at most half the budget (bytes, then entries), so the
   * new one is cached at once. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  for (int by_count = 0; by_count < 2; by_count++) {
    counter c = {0};
    wire_ctx *r = reader(&c, by_count ? UINT64_C(1) << 20 : 6000);
    if (by_count)
      cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 8),
                   WIRE_OK);
    int i = 0;
    for (; !r->tdc || r->tdc->turnovers == 0; i++) { /* each read twice */
      wire_doc_free(decode_one(r, p, lens, i));
      wire_doc_free(decode_one(r, p, lens, i));
    }
    cr_assert_lt(i, N);
    /* the turnover came with TypeDef i - 1, which is cached */
    wire_doc *d = decode_one(r, p, lens, i - 1);
    cr_assert(read_from_cache(r->tdc, d), "by_count %d: the new TypeDef "
              "cached", by_count);
    wire_doc_free(d);
    cr_assert_leq(r->tdc->kept, (uint32_t)(by_count ? 4 : i), "half the entries");
    if (!by_count) {
      size_t kept = 0;
      for (const wire_td_entry *e = r->tdc->newest; e; e = e->older)
        if (e != r->tdc->newest) kept += e->size + e->proj_size;
      cr_assert_leq(kept, 3000, "half the bytes: %zu", kept);
    }
    wire_ctx_free(r);
    cr_assert_eq(c.live, 0);
  }
  free_payloads(p);
}

/* n TypeDefs in turn on a cache of 8 entries, 30 rounds: the hits of the
 * last 20 rounds (per cent) and the turnovers. */
static int served(int n, uint64_t *turnovers) {
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  uint8_t *tds[N];
  size_t tls[N];
  for (int i = 0; i < n; i++) tds[i] = typedef_of(p, lens, i, &tls[i]);
  counter c = {0};
  wire_ctx *r = reader(&c, UINT64_C(1) << 20);
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 8), WIRE_OK);
  int hits = 0, reads = 0;
  for (int k = 0; k < 30 * n; k++) {
    int i = k % n;
    bool hit = r->tdc && entry_of(r->tdc, tds[i], tls[i]);
    wire_doc_free(decode_one(r, p, lens, i));
    if (k >= 10 * n) {
      reads++;
      hits += hit;
    }
    cr_assert_leq(r->tdc->count, 8);
  }
  *turnovers = r->tdc->turnovers;
  for (int i = 0; i < n; i++) free(tds[i]);
  finish(r, &c, p);
  return hits * 100 / reads;
}

Test(tdcache, a_set_larger_than_the_cache_is_served_in_part, .timeout = 60) {
  /* The cache turns over only when it serves less than it is asked for,
   * and keeps half of itself when it does (found entries first, then the
   * oldest): 10 TypeDefs in turn on 8 entries are mostly hits, 16 on 8
   * some. A cache that made room at each miss, or kept only the entries
   * found, would serve none of them: each would be evicted just before it
   * comes back. */
  uint64_t t10, t16;
  int h10 = served(10, &t10), h16 = served(16, &t16);
  cr_assert_geq(h10, 60, "10 on 8: %d%% hits", h10);
  cr_assert_leq(t10, 8, "10 on 8: %llu turnovers in 300 reads",
                (unsigned long long)t10);
  cr_assert_geq(h16, 10, "16 on 8: %d%% hits", h16);
}

/* ---- a peer cannot aim at one bucket, nor fill the cache with
 * TypeDefs sent once (R-SEC-15) ---- */

/* A message of one struct of user id u (a 3-byte varint: u in 2^14 ..
 * 2^21) and one int32 field, its TypeDef made here with the hash its
 * header must carry: as many distinct valid TypeDefs as a peer wants. */
#define CRAFTED_LEN 19
static void crafted(uint32_t u, uint8_t *o) {
  uint8_t body[8] = {0xc1, (uint8_t)(0x80 | (u & 0x7f)),
                     (uint8_t)(0x80 | ((u >> 7) & 0x7f)), (uint8_t)(u >> 14),
                     0xc4, 0x05, 6, 0}; /* (+ the header's low 12 bits) */
  uint64_t h;
  wire_murmur3_x64_128(body, 8, 47, &h, NULL);
  h <<= 12;
  if ((int64_t)h < 0 && h != UINT64_C(0x8000000000000000)) h = 0 - h;
  h = (h & UINT64_C(0xFFFFFFFFFFFFF000)) | 6;
  o[0] = 0x01; /* xlang */
  o[1] = 0xff; /* not null */
  o[2] = 0x1c; /* compatible struct */
  o[3] = 0x00; /* a new shared TypeDef */
  for (int i = 0; i < 8; i++) o[4 + i] = (uint8_t)(h >> (8 * i));
  memcpy(o + 12, body, 6);
  o[18] = 0x0a; /* the field: 5 */
}

static uint64_t crafted_header(uint32_t u) {
  uint8_t o[CRAFTED_LEN];
  crafted(u, o);
  uint64_t h;
  memcpy(&h, o + 4, 8);
  return h;
}

/* n messages (payloads of CRAFTED_LEN bytes) whose TypeDef headers x
 * give bucket(x) == 0, from user ids past `from`. */
static uint8_t **aimed(int n, uint32_t from, uint32_t (*bucket)(uint64_t)) {
  uint8_t **p = calloc((size_t)n, sizeof *p);
  int k = 0;
  for (uint32_t u = from; k < n; u++) {
    cr_assert_lt(u, 1u << 21);
    if (bucket(crafted_header(u))) continue;
    p[k] = malloc(CRAFTED_LEN);
    crafted(u, p[k++]);
  }
  return p;
}

static void free_aimed(uint8_t **p, int n) {
  for (int i = 0; i < n; i++) free(p[i]);
  free(p);
}

/* The bucket a fixed mix gave (libwire before R-SEC-15's key) at 512
 * buckets; a header of bucket 0 at 512 is in bucket 0 at every smaller
 * table too. */
static uint32_t fixed_bucket(uint64_t x) {
  return (uint32_t)((x * UINT64_C(0x9E3779B97F4A7C15)) >> 40) & 511;
}

/* The longest chain of the cache's table (the most compares a lookup
 * makes) and the compares of a hit, summed over the entries. */
static uint32_t longest_chain(const wire_tdcache *c, uint64_t *sum) {
  uint32_t most = 0;
  *sum = 0;
  for (uint32_t b = 0; b < c->nbuckets; b++) {
    uint32_t len = 0;
    for (const wire_td_entry *e = c->buckets[b]; e; e = e->next) *sum += ++len;
    if (len > most) most = len;
  }
  return most;
}

/* The 256 messages read on a fresh cache of 256 entries (512 buckets),
 * each read again as a hit. */
static const wire_tdcache *read_aimed(wire_ctx *r, uint8_t **p) {
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 256), WIRE_OK);
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 256; i++) {
      wire_doc *d;
      cr_assert_eq(wire_decode(r, p[i], CRAFTED_LEN, &d), WIRE_OK, "%s",
                   wire_ctx_error_message(r));
      cr_assert(!k || read_from_cache(r->tdc, d), "message %d is a hit", i);
      wire_doc_free(d);
    }
  cr_assert_eq(r->tdc->count, 256);
  cr_assert_eq(r->tdc->nbuckets, 512);
  return r->tdc;
}

Test(tdcache, a_flood_aimed_at_one_bucket_is_spread, .timeout = 60) {
  /* 256 TypeDefs whose headers all fell in one bucket of the fixed mix:
   * a lookup compared up to 256 headers (128.5 for a hit on average).
   * Under the context's key they spread: at most a few per bucket (the
   * longest of 256 in 512 random buckets is over 10 once in 10^9). */
  uint8_t **p = aimed(256, 1u << 14, fixed_bucket);
  counter c = {0};
  wire_ctx *r = reader(&c, UINT64_C(1) << 20);
  uint64_t sum;
  uint32_t most = longest_chain(read_aimed(r, p), &sum);
  cr_assert_leq(most, 10, "a chain of %u", most);
  cr_assert_leq(sum, 2 * 256, "%llu compares for 256 hits",
                (unsigned long long)sum);
  wire_ctx_free(r);
  cr_assert_eq(c.live, 0);
  free_aimed(p, 256);
}

#ifdef __SIZEOF_INT128__
/* The cache's bucket function, for one context's key (typedef_cache.c),
 * at 512 buckets. */
static uint64_t aim_key[4];
static uint32_t keyed_bucket(uint64_t x) {
  unsigned __int128 lo = (unsigned __int128)aim_key[0] * x + aim_key[2];
  uint64_t h = (uint64_t)(lo >> 64) + aim_key[1] * x + aim_key[3];
  return (uint32_t)(h >> (64 - 9));
}
#endif

Test(tdcache, each_context_has_a_key_of_its_own, .timeout = 60) {
  /* Two contexts draw their keys from the system: they differ. TypeDefs
   * aimed at one bucket of the first context's key (read out of it, as
   * no peer can) all fall in that bucket there, which shows that the key
   * decides the buckets, and spread in the second context. */
#ifndef __SIZEOF_INT128__
  cr_skip_test("no 128-bit integers to compute the bucket with");
#else
  uint8_t one[CRAFTED_LEN];
  crafted(1u << 20, one);
  counter c[2] = {{0}, {0}};
  wire_ctx *r[2];
  for (int k = 0; k < 2; k++) {
    r[k] = reader(&c[k], UINT64_C(1) << 20);
    wire_doc *d; /* the cache (and its key) made */
    cr_assert_eq(wire_decode(r[k], one, CRAFTED_LEN, &d), WIRE_OK);
    wire_doc_free(d);
  }
  cr_assert_neq(memcmp(r[0]->tdc->key, r[1]->tdc->key, sizeof aim_key), 0);
  memcpy(aim_key, r[0]->tdc->key, sizeof aim_key);
  uint8_t **p = aimed(256, 1u << 14, keyed_bucket);
  for (int k = 0; k < 2; k++) {
    uint64_t key[4];
    memcpy(key, r[k]->tdc->key, sizeof key);
    /* a new limit flushes the cache, not its key */
    const wire_tdcache *tdc = read_aimed(r[k], p);
    cr_assert_eq(memcmp(tdc->key, key, sizeof key), 0);
    uint64_t sum;
    uint32_t most = longest_chain(tdc, &sum);
    if (!k)
      cr_assert_eq(most, 256, "aimed with the key: one chain (%u)", most);
    else
      cr_assert_leq(most, 10, "another key: a chain of %u", most);
    wire_ctx_free(r[k]);
    cr_assert_eq(c[k].live, 0);
  }
  free_aimed(p, 256);
#endif
}

/* A reader whose cache is full with payloads 0..7: by count (a limit of 8
 * entries) when eight is 0, else by bytes (eight: the bytes of those
 * entries; the budget has room for the smallest entry more, not for
 * these). */
static wire_ctx *full_of_eight(counter *c, uint8_t **p, const size_t *lens,
                               size_t eight) {
  wire_ctx *r = reader(c, eight ? eight + 16 * sizeof(wire_td_entry *) +
                                      sizeof(wire_td_entry) + 9
                                : UINT64_C(1) << 20);
  if (!eight)
    cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 8), WIRE_OK);
  for (int i = 0; i < 8; i++) wire_doc_free(decode_one(r, p, lens, i));
  cr_assert_eq(r->tdc->count, 8);
  return r;
}

Test(tdcache, a_full_cache_takes_no_typedef_it_has_not_seen_before, .timeout = 60) {
  /* A full cache of 8 entries, one of them read in every other message,
   * and 32 TypeDefs sent once each: none is copied into the cache and the
   * cache does not turn over; each is read into its document (with no
   * allocation, the spare document's, when the cache is full by count).
   * Sent a second time, they are taken: the cache turns over and keeps
   * the steady entry. Full by count (8 entries), then by bytes (room for
   * the smallest entry, not for these: the copy's turnover). */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t eight = cached_after(p, lens, 8);
  for (int by_bytes = 0; by_bytes < 2; by_bytes++) {
    counter c = {0};
    wire_ctx *r = full_of_eight(&c, p, lens, by_bytes ? eight : 0);
    const wire_td_entry *steady = r->tdc->newest;
    for (int i = 8; i < N; i++) {
      wire_doc *d = decode_one(r, p, lens, 7);
      cr_assert(read_from_cache(r->tdc, d));
      wire_doc_free(d);
      size_t was = c.allocs;
      d = decode_one(r, p, lens, i);
      cr_assert_not(read_from_cache(r->tdc, d));
      wire_doc_free(d);
      if (!by_bytes)
        cr_assert_eq(c.allocs, was, "message %d: %zu allocations", i,
                     c.allocs - was);
      cr_assert_eq(r->tdc->turnovers, 0, "by_bytes %d, message %d", by_bytes, i);
      cr_assert_eq(r->tdc->newest, steady, "nothing new taken");
    }
    int taken = 0;
    for (int i = 8; i < N; i++) {
      wire_doc_free(decode_one(r, p, lens, 7));
      wire_doc *d = decode_one(r, p, lens, i);
      taken += read_from_cache(r->tdc, d);
      wire_doc_free(d);
    }
    cr_assert_gt(r->tdc->turnovers, 0);
    cr_assert_geq(taken, 8, "by_bytes %d: %d of 32 seen before taken",
                  by_bytes, taken);
    wire_doc *d = decode_one(r, p, lens, 7);
    cr_assert(read_from_cache(r->tdc, d), "the steady entry kept");
    wire_doc_free(d);
    wire_ctx_free(r);
    cr_assert_eq(c.live, 0);
  }
  free_payloads(p);
}

Test(tdcache, two_typedefs_read_in_turn_are_both_taken, .timeout = 60) {
  /* On a full cache, two new TypeDefs sent in turn, again and again, are
   * each seen before when they come back (they do not push each other
   * out of the table of headers seen), on every key: both are taken
   * within six messages. 300 contexts, 300 keys. */
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  for (int run = 0; run < 300; run++) {
    counter c = {0};
    wire_ctx *r = reader(&c, UINT64_C(1) << 20);
    cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 8), WIRE_OK);
    for (int i = 0; i < 8; i++) wire_doc_free(decode_one(r, p, lens, i));
    for (int m = 0; m < 6; m++) wire_doc_free(decode_one(r, p, lens, 8 + m % 2));
    for (int i = 8; i < 10; i++) {
      wire_doc *d = decode_one(r, p, lens, i);
      cr_assert(read_from_cache(r->tdc, d), "run %d: TypeDef %d taken", run, i);
      wire_doc_free(d);
    }
    wire_ctx_free(r);
    cr_assert_eq(c.live, 0);
  }
  free_payloads(p);
}

/* ---- two TypeDefs with one header (R-SEC-15) ---- */

/* Two messages whose TypeDefs have the same 8-byte header and different
 * bodies, both valid: a struct of user id 212017670 (fields #7 bool, #6
 * varint32, #6 int8, #3 int8) and one of 244783261 (#3 varint32, #6 bool,
 * #3 int16, #7 bool), nullable fields marked. The 52-bit hash in the
 * header is MurmurHash3 without a secret, so a peer finds such pairs:
 * this one took 106 million hashes (Brent's cycle finding over 13-byte
 * bodies, 3 s of CPU). */
static const uint8_t same_header[2][32] = {
    {0x01, 0xff, 0x1c, 0x00, 0x0d, 0x80, 0xd3, 0x48, 0x2c, 0x9f, 0x08,
     0x3b, 0xc4, 0x86, 0xc4, 0x8c, 0x65, 0xdc, 0x01, 0xd8, 0x05, 0xda,
     0x02, 0xce, 0x02, 0x01, 0x0a, 0xff, 0x07, 0xff, 0x09},
    {0x01, 0xff, 0x1c, 0x00, 0x0d, 0x80, 0xd3, 0x48, 0x2c, 0x9f, 0x08,
     0x3b, 0xc4, 0x9d, 0xb1, 0xdc, 0x74, 0xce, 0x05, 0xd8, 0x01, 0xce,
     0x03, 0xdc, 0x01, 0xff, 0x0a, 0x01, 0xff, 0x34, 0x12, 0x00}};
static const size_t same_header_len[2] = {31, 32};

/* Message k decoded on r: its root's TypeDef is its own bytes, its
 * fields read as the writer sent them, and it encodes to itself. */
static void read_same_header(wire_ctx *r, int k) {
  static const int64_t want[2][4] = {{1, 5, 7, 9}, {5, 1, 0x1234, 0}};
  const uint8_t *in = same_header[k];
  size_t len = same_header_len[k];
  wire_doc *d;
  cr_assert_eq(wire_decode(r, in, len, &d), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  wire_node *root = wire_doc_root(d, 0);
  size_t tl;
  const uint8_t *td = wire_node_typedef(root, &tl);
  cr_assert_eq(tl, 21);
  cr_assert_eq(memcmp(td, in + 4, tl), 0, "message %d: its own TypeDef", k);
  for (size_t i = 0; i < 4; i++) {
    const wire_node *f = wire_node_field(root, i);
    cr_assert_eq(wire_node_int(f), want[k][i], "message %d, field %zu", k, i);
  }
  uint8_t *out;
  size_t n;
  cr_assert_eq(wire_encode(r, d, &out, &n), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  cr_assert_eq(n, len);
  cr_assert_eq(memcmp(out, in, n), 0, "message %d encodes to itself", k);
  wire_ctx_free_bytes(r, out);
  wire_doc_free(d);
}

Test(tdcache, two_typedefs_with_one_header_are_told_apart, .timeout = 60) {
  /* The cache finds an entry by its header's bucket and then compares
   * the whole TypeDef, so the second of two TypeDefs with one header is
   * a miss, read and cached beside the first (one bucket), and each
   * message reads with its own, on a cache with room and on a full one. */
  cr_assert_eq(memcmp(same_header[0], same_header[1], 12), 0, "one header");
  cr_assert_neq(memcmp(same_header[0] + 12, same_header[1] + 12, 13), 0);
  for (int full = 0; full < 2; full++) {
    counter c = {0};
    wire_ctx *r = reader(&c, UINT64_C(1) << 20);
    if (full)
      cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 1),
                   WIRE_OK);
    for (int m = 0; m < 8; m++) read_same_header(r, m & 1);
    const wire_tdcache *tdc = r->tdc;
    cr_assert_eq(tdc->count, full ? 1u : 2u);
    if (!full) {
      uint32_t most = longest_chain(tdc, &(uint64_t){0});
      cr_assert_eq(most, 2, "one bucket");
    }
    wire_ctx_free(r);
    cr_assert_eq(c.live, 0);
  }
}

/* ---- a TypeDef read without the cache counts once (R-SEC-15) ---- */

/* A message of one struct of 60 int32 fields (type id 99): a TypeDef
 * whose entry takes more than the small ones of distinct_payloads. */
static uint8_t *wide_payload(size_t *len) {
  wire_ctx *w = wire_ctx_new();
  cr_assert_eq(wire_ctx_set_option(w, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  char fdl[4096] = "package e;\nmessage Wide [id=99] {\n";
  for (int i = 0; i < 60; i++)
    snprintf(fdl + strlen(fdl), sizeof fdl - strlen(fdl),
             "  int32 f%d = %d;\n", i, i + 1);
  strcat(fdl, "}\n");
  cr_assert_eq(wire_schema_load_fdl(w, fdl, strlen(fdl), "e.fdl"), WIRE_OK);
  cr_assert_eq(wire_schema_finish(w), WIRE_OK);
  uint32_t t;
  cr_assert_eq(wire_schema_find_type(w, "e.Wide", 6, &t), WIRE_OK);
  wire_doc *d = wire_doc_new(w);
  wire_node *s = wire_node_new_struct(d, t);
  for (int i = 0; i < 60; i++)
    cr_assert_eq(wire_struct_set_field_at(
                     d, s, (size_t)i, wire_node_new_int(d, WIRE_T_VARINT32, i)),
                 WIRE_OK);
  return encoded_copy(w, d, s, len);
}

/* What one message did to the cache's counts. */
typedef struct {
  int64_t missed, tags, turnovers; /* (the change of each) */
  bool cached;                     /* the root read with a cache entry */
} td_step;

static td_step read_counted(wire_ctx *r, const uint8_t *in, size_t len) {
  const wire_tdcache *t = r->tdc;
  td_step s = {t ? -(int64_t)t->missed : 0, t ? -(int64_t)t->seen_clock : 0,
               t ? -(int64_t)t->turnovers : 0, false};
  wire_doc *d;
  cr_assert_eq(wire_decode(r, in, len, &d), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  t = r->tdc;
  s.missed += t->missed;
  s.tags += t->seen_clock;
  s.turnovers += (int64_t)t->turnovers;
  s.cached = read_from_cache(t, d);
  wire_doc_free(d);
  return s;
}

/* The size of payload i's cache entry. */
static size_t entry_size(uint8_t **p, const size_t *lens, int i) {
  counter c = {0};
  wire_ctx *r = reader(&c, UINT64_C(1) << 20);
  wire_doc_free(decode_one(r, p, lens, i));
  size_t n = r->tdc->newest->size;
  wire_ctx_free(r);
  return n;
}

/* Whether r's cache has room for an entry of `size` bytes (the count
 * limit, the budget with the table growth it brings). */
static bool fits(const wire_ctx *r, size_t size) {
  const wire_tdcache *t = r->tdc;
  size_t grow = t->count >= t->nbuckets / 2
                    ? (t->nbuckets ? t->nbuckets : 16) * sizeof *t->buckets
                    : 0;
  return t->count < r->max_typedef_cache &&
         t->bytes + grow + size <= r->max_typedef_cache_bytes;
}

/* On a full cache a TypeDef it does not hold is looked at by two calls
 * (wire__tdcache_scratch before it is read, adopt after, when its copy
 * would pass the byte budget), each of which may ask whether it was seen
 * before and count it as read without the cache. Each reading counts
 * once: the first of a TypeDef keeps its tag (one tag written), is not
 * counted and is not taken; a later one writes no tag and is counted
 * once, or taken. Full by count (8 entries: the scratch's call), and by
 * bytes with room for the smallest entry but not for these (adopt's). */
static void each_reading_counts_once(uint8_t **p, const size_t *lens,
                                     bool by_bytes, size_t eight) {
  counter c = {0};
  wire_ctx *r = full_of_eight(&c, p, lens, by_bytes ? eight : 0);
  int taken = 0, full_first = 0;
  for (int i = 8; i < N; i++) {
    bool full = !fits(r, entry_size(p, lens, i));
    td_step s = read_counted(r, p[i], lens[i]);
    cr_assert_eq(s.turnovers, 0);
    cr_assert_eq(s.missed, 0, "by_bytes %d, TypeDef %d first read: not "
                 "counted (%lld)", by_bytes, i, (long long)s.missed);
    if (!full) { /* a cache with room takes what it reads */
      cr_assert(s.cached);
      cr_assert_eq(s.tags, 0);
      continue;
    }
    full_first++;
    cr_assert_eq(s.tags, 1, "by_bytes %d, TypeDef %d first read: one tag "
                 "(%lld)", by_bytes, i, (long long)s.tags);
    cr_assert_not(s.cached, "by_bytes %d, TypeDef %d: taken at its first "
                  "reading", by_bytes, i);
    s = read_counted(r, p[i], lens[i]);
    cr_assert_eq(s.tags, 0, "by_bytes %d, TypeDef %d read again: seen",
                 by_bytes, i);
    if (s.turnovers) {
      cr_assert(s.cached, "by_bytes %d, TypeDef %d: a turnover for it "
                "takes it", by_bytes, i);
      cr_assert_eq(r->tdc->missed, 0);
      taken++;
    } else {
      cr_assert_not(s.cached);
      cr_assert_eq(s.missed, 1, "by_bytes %d, TypeDef %d read again without "
                   "the cache: counted %lld times", by_bytes, i,
                   (long long)s.missed);
    }
  }
  cr_assert_gt(taken, 2, "by_bytes %d: %d turnovers", by_bytes, taken);
  cr_assert_gt(full_first, 10, "by_bytes %d: %d read first on a full cache",
               by_bytes, full_first);
  wire_ctx_free(r);
  cr_assert_eq(c.live, 0);
}

Test(tdcache, each_reading_without_the_cache_counts_once, .timeout = 60) {
  size_t lens[N];
  uint8_t **p = distinct_payloads(N, lens);
  size_t eight = cached_after(p, lens, 8);
  each_reading_counts_once(p, lens, false, eight);
  each_reading_counts_once(p, lens, true, eight);
  free_payloads(p);
}

Test(tdcache, a_typedef_too_large_after_a_turnover_counts_once, .timeout = 60) {
  /* Both calls for one reading: the cache is full by count, the wide
   * TypeDef is seen before and the scratch's call turns the cache over
   * (the count so far goes with it), then its copy passes the byte budget
   * and it is read into the document: adopt's call counts that reading,
   * once, towards the next turnover, and takes no turnover itself (no
   * entry was taken since the last). */
  size_t lens[N], wl;
  uint8_t **p = distinct_payloads(N, lens);
  uint8_t *wide = wide_payload(&wl);
  size_t eight = cached_after(p, lens, 8);
  counter c = {0};
  wire_ctx *r = reader(&c, eight + 16 * sizeof(wire_td_entry *));
  cr_assert_eq(wire_ctx_set_limit(r, WIRE_LIMIT_TYPEDEF_CACHE, 8), WIRE_OK);
  for (int i = 0; i < 8; i++) wire_doc_free(decode_one(r, p, lens, i));
  cr_assert_eq(r->tdc->count, 8);
  td_step s = read_counted(r, wide, wl);
  cr_assert_eq(s.tags, 1);
  cr_assert_eq(s.missed, 0, "first reading: not counted");
  int m = 0;
  for (;; m++) {
    cr_assert_lt(m, 8, "no turnover after %d readings", m);
    s = read_counted(r, wide, wl);
    cr_assert_not(s.cached, "too large for the budget");
    cr_assert_eq(s.tags, 0);
    if (s.turnovers) break;
    cr_assert_eq(s.missed, 1, "reading %d: counted %lld times", m,
                 (long long)s.missed);
  }
  cr_assert_eq(s.turnovers, 1);
  cr_assert_eq(r->tdc->missed, 1, "the reading after the turnover: counted "
               "%u times", r->tdc->missed);
  cr_assert_eq(r->tdc->added, 0, "nothing taken");
  s = read_counted(r, wide, wl);
  cr_assert_eq(s.missed, 1);
  cr_assert_eq(s.turnovers, 0, "no entry taken since: no turnover");
  wire_ctx_free(r);
  cr_assert_eq(c.live, 0);
  free(wide);
  free_payloads(p);
}
