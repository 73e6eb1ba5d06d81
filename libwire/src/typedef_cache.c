/* typedef_cache.c - the context's cache of incoming TypeDefs (schema.h):
 * a TypeDef read once per context, kept as one allocation of exactly its
 * size, found again by its header and bytes; a flush gives the entries
 * back once no document points at them (spec R-SEC-14), and a full cache
 * turns over, keeping the entries read since the last turnover (a second
 * chance, spec R-SEC-15); it takes only TypeDefs it has seen before, in
 * buckets a peer cannot aim at (a keyed hash, R-SEC-15). */
#include "schema.h"

/* The bucket of a header: the top log2(nbuckets) bits of
 * (a * header + b) mod 2^128 under the context's secret key (a, b): the
 * multiply-add-shift scheme, strongly universal for one 64-bit word
 * (Dietzfelbinger 1996), so for any two headers a peer picks without
 * knowing the key, their buckets are independent and uniform. A peer
 * that sends headers of one bucket under a fixed mix (they are its to
 * choose: the hash in them only has to match the body) would otherwise
 * make each lookup compare every entry (spec R-SEC-15). One 64x64-bit
 * multiply to 128 bits, one to 64 and three adds. */
static uint64_t td_hash(const wire_tdcache *c, uint64_t header) {
#ifdef __SIZEOF_INT128__
  unsigned __int128 lo = (unsigned __int128)c->key[0] * header + c->key[2];
  uint64_t hi = (uint64_t)(lo >> 64);
#else
  uint64_t a0 = c->key[0] & 0xFFFFFFFF, a1 = c->key[0] >> 32;
  uint64_t x0 = header & 0xFFFFFFFF, x1 = header >> 32;
  uint64_t p00 = a0 * x0, p01 = a0 * x1, p10 = a1 * x0;
  uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFF) + (p10 & 0xFFFFFFFF);
  uint64_t low = (mid << 32) | (p00 & 0xFFFFFFFF);
  uint64_t hi = a1 * x1 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
  hi += (low + c->key[2] < low); /* the carry of + b's low word */
#endif
  return hi + c->key[1] * header + c->key[3];
}

static uint32_t td_bucket(const wire_tdcache *c, uint64_t header) {
  return (uint32_t)(td_hash(c, header) >> c->shift);
}

/* Whether a full cache may take the TypeDef with this header: only
 * when it was seen lately (spec R-SEC-15). The last headers seen while
 * the cache was full are remembered by a tag (32 bits of their keyed
 * hash) in one of two slots the hash picks, the one written longer ago,
 * so that two TypeDefs read in turn cannot keep pushing each other out
 * of one slot. A tag stays after its TypeDef is taken: one retired and
 * seen again is taken at once. */
static bool seen_before(wire_tdcache *c, uint64_t header) {
  uint64_t h = td_hash(c, header);
  uint32_t tag = (uint32_t)h | 1, m = WIRE_TDCACHE_SEEN - 1;
  uint32_t i = (uint32_t)(h >> 32) & m;
  uint32_t j = (i + 1 + (uint32_t)(h >> 48) % m) & m; /* (never i) */
  wire_td_seen *a = &c->seen[i], *b = &c->seen[j];
  if (a->tag == tag || b->tag == tag) return true;
  wire_td_seen *old = (int32_t)(a->when - b->when) <= 0 ? a : b;
  old->tag = tag;
  old->when = ++c->seen_clock;
  return false;
}

static wire_tdcache *tdcache(wire_ctx *ctx) {
  wire_tdcache *c = ctx->tdc;
  uint32_t gen = ctx->reg ? ctx->reg->gen : 0;
  if (c && c->reg_gen != gen) {
    wire__tdcache_flush(ctx);
    c->reg_gen = gen;
  }
  return c;
}

wire_layout *wire__tdcache_find(wire_ctx *ctx, const uint8_t *p,
                                size_t avail) {
  wire_tdcache *c = tdcache(ctx);
  if (!c || !c->count || avail < 8) return NULL;
  uint64_t header;
  memcpy(&header, p, 8); /* the key only; little-endian not needed */
  for (wire_td_entry *e = c->buckets[td_bucket(c, header)]; e; e = e->next) {
    const wire_layout *l = &e->layout;
    if (e->header == header && l->td_len <= avail &&
        memcmp(l->td, p, l->td_len) == 0) {
      if (e->hits < 3 && !e->hits++) /* (for the next turnover) */
        c->hot++;
      return &e->layout;
    }
  }
  return NULL;
}

static int32_t td_nomem(wire_ctx *ctx) {
  return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
}

/* The least an entry takes: its struct and the copy of a TypeDef that
 * is its 8-byte header alone (and the 0 after it). */
#define ENTRY_MIN (sizeof(wire_td_entry) + 9)

/* What the bucket table grows by with the next entry (it doubles when
 * half full; the first table has 16 buckets). */
static size_t table_growth(const wire_tdcache *c) {
  uint32_t nb = c ? c->nbuckets : 0, count = c ? c->count : 0;
  return count >= nb / 2 ? (nb ? nb : 16) * sizeof(wire_td_entry *) : 0;
}

/* Room for one more entry: under the count limit, and the byte budget
 * holds the smallest entry with the table growth it brings. Without room
 * a TypeDef is read straight into the document, not into the scratch
 * first (adoption would refuse it). */
static bool has_room(const wire_ctx *ctx, const wire_tdcache *c) {
  uint32_t count = c ? c->count : 0;
  size_t bytes = c ? c->bytes : 0;
  return count < ctx->max_typedef_cache &&
         bytes + table_growth(c) + ENTRY_MIN <= ctx->max_typedef_cache_bytes;
}

static void turn_over(wire_ctx *ctx, wire_tdcache *c, uint64_t *hold);

/* A TypeDef the full cache had no room for was just read (or is about to
 * be) without it: the cache turns over when, since the last turnover,
 * more TypeDefs were read without it than a quarter of its entries plus
 * the distinct entries found in it (so a cache that serves most of what
 * it is asked for keeps its entries, one that serves little gives way),
 * and it has taken at least as many entries as the last turnover kept:
 * each turnover walks the entries, at most twice those taken, six
 * times, and that walk is paid for by the entries taken, each read from
 * its message's bytes. */
static bool may_turn_over(wire_tdcache *c) {
  if (!c) return false;
  c->missed++;
  return c->missed > c->hot + c->count / 4 && c->added &&
         c->added >= c->kept;
}

wire_arena *wire__tdcache_scratch(wire_ctx *ctx, const uint8_t *p,
                                  size_t avail, uint64_t *hold) {
  wire_tdcache *c = tdcache(ctx);
  if (avail < 8) return NULL; /* (not a TypeDef) */
  if (!c) {
    if (!has_room(ctx, c)) return NULL;
    if (!(c = wire__alloc(ctx, sizeof *c))) return NULL; /* read uncached */
    memset(c, 0, sizeof *c);
    wire__os_random(c->key, 4, c); /* for the context's life */
    c->scratch.ctx = ctx;
    c->reg_gen = ctx->reg ? ctx->reg->gen : 0;
    ctx->tdc = c;
  }
  if (!has_room(ctx, c)) {
    uint64_t header;
    memcpy(&header, p, 8);
    if (!seen_before(c, header)) return NULL; /* not counted as missed */
    if (!may_turn_over(c)) return NULL;
    turn_over(ctx, c, hold);
    if (!has_room(ctx, c)) return NULL;
  }
  return &c->scratch;
}

void wire__tdcache_drop(wire_ctx *ctx) {
  if (!ctx->tdc) return;
  wire__arena_free(&ctx->tdc->scratch);
  ctx->tdc->scratch.next_size = 0; /* the next TypeDef starts small again */
}

/* ---- the copy: one block, pointers first, then the bytes ---- */

static size_t ftype_count(const wire_ftype *f) {
  return f ? 1 + ftype_count(f->elem) + ftype_count(f->key) +
                 ftype_count(f->value)
           : 0;
}

static wire_ftype *ftype_copy(const wire_ftype *f, wire_ftype **next) {
  if (!f) return NULL;
  wire_ftype *c = (*next)++;
  *c = *f;
  c->elem = ftype_copy(f->elem, next);
  c->key = ftype_copy(f->key, next);
  c->value = ftype_copy(f->value, next);
  return c;
}

static const uint8_t *bytes_copy(const uint8_t *s, uint32_t n, uint8_t **next) {
  if (!s) return NULL;
  uint8_t *c = *next;
  memcpy(c, s, n);
  c[n] = 0;
  *next += n + 1;
  return c;
}

/* A field's name is the TypeDef's (decoded, copied) when the TypeDef names
 * it, else the registry's (a tag id matched to the schema: kept as is). */
static bool own_name(const wire_lfield *f) { return f->tag < 0 && f->name; }

/* The size of the copy of the linked layout l, and the counts the copy
 * needs. */
static size_t copy_size(wire_ctx *ctx, const wire_layout *l, size_t *ntypes,
                        uint32_t *nix) {
  size_t nt = 0, bytes = l->td_len + 1;
  if (l->ns) bytes += (size_t)l->ns_len + 1;
  if (l->name) bytes += (size_t)l->name_len + 1;
  for (uint32_t i = 0; i < l->nfields; i++) {
    nt += ftype_count(l->fields[i].type);
    if (own_name(&l->fields[i])) bytes += (size_t)l->fields[i].name_len + 1;
  }
  *ntypes = nt;
  *nix = wire__layout_ix_slots(ctx, l);
  return sizeof(wire_td_entry) + (size_t)l->nfields * sizeof(wire_lfield) +
         nt * sizeof(wire_ftype) + (size_t)*nix * sizeof(wire_name_slot) +
         bytes;
}

/* Copies l into mem[0..size) as an entry whose layout points only into
 * mem (and at the registry's names). */
static wire_td_entry *copy_into(wire_ctx *ctx, const wire_layout *l,
                                uint8_t *mem, size_t size, size_t ntypes,
                                uint32_t nix) {
  wire_td_entry *e = (wire_td_entry *)(void *)mem;
  memset(e, 0, sizeof *e);
  e->size = size;
  wire_layout *cl = &e->layout;
  *cl = *l;
  cl->self = cl;
  wire_lfield *fields = (wire_lfield *)(void *)(e + 1);
  wire_ftype *types = (wire_ftype *)(void *)(fields + l->nfields);
  wire_name_slot *ix = (wire_name_slot *)(void *)(types + ntypes);
  uint8_t *b = (uint8_t *)(ix + nix);
  cl->fields = fields;
  for (uint32_t i = 0; i < l->nfields; i++) {
    fields[i] = l->fields[i];
    fields[i].type = ftype_copy(l->fields[i].type, &types);
    if (own_name(&l->fields[i]))
      fields[i].name = bytes_copy(l->fields[i].name, l->fields[i].name_len, &b);
  }
  cl->ns = bytes_copy(l->ns, l->ns_len, &b);
  cl->name = bytes_copy(l->name, l->name_len, &b);
  cl->td = bytes_copy(l->td, l->td_len, &b);
  memcpy(&e->header, cl->td, 8);
  wire__layout_ix_fill(ctx, cl, ix, nix);
  cl->proj = NULL;
  cl->entry = NULL;
  return e;
}

/* Doubles the bucket table in place: the bucket is the hash's top bits,
 * so an entry of bucket i moves to 2i or 2i + 1 (one more bit). Buckets
 * are split from the last down: 2i and 2i + 1 are then new or already
 * emptied, so the old table is never held beside a new one. */
static int32_t grow_buckets(wire_ctx *ctx, wire_tdcache *c) {
  uint32_t onb = c->nbuckets, nb = onb ? onb * 2 : 16;
  wire_td_entry **b = wire__realloc(ctx, c->buckets, onb * sizeof *b,
                                    nb * sizeof *b);
  if (!b) return td_nomem(ctx);
  memset(b + onb, 0, (nb - onb) * sizeof *b);
  c->buckets = b;
  c->nbuckets = nb;
  c->shift = onb ? c->shift - 1 : 64 - 4;
  c->bytes += (nb - onb) * sizeof *b;
  for (uint32_t i = onb; i-- > 0;) {
    wire_td_entry *e = b[i], *next;
    b[i] = NULL;
    for (; e; e = next) {
      next = e->next;
      uint32_t k = td_bucket(c, e->header);
      e->next = b[k];
      b[k] = e;
    }
  }
  return WIRE_OK;
}

static int32_t adopt(wire_ctx *ctx, wire_tdcache *c, wire_layout **lp,
                     wire_arena *arena, uint64_t *hold) {
  const wire_layout *l = *lp;
  size_t ntypes;
  uint32_t nix;
  size_t size = copy_size(ctx, l, &ntypes, &nix);
  size_t grow = table_growth(c);
  bool keep = c->bytes + grow + size <= ctx->max_typedef_cache_bytes;
  uint64_t header;
  memcpy(&header, l->td, 8);
  if (!keep && seen_before(c, header) && may_turn_over(c)) {
    /* make room, then try again */
    turn_over(ctx, c, hold);
    grow = table_growth(c);
    keep = c->bytes + grow + size <= ctx->max_typedef_cache_bytes;
  }
  if (keep && grow) {
    int32_t st = grow_buckets(ctx, c);
    if (st) return st;
  }
  /* over the budget: the document's copy, as an uncached read makes */
  uint8_t *mem = keep ? wire__alloc(ctx, size) : wire__arena_alloc(arena, size);
  if (!mem) return td_nomem(ctx);
  wire_td_entry *e = copy_into(ctx, l, mem, size, ntypes, nix);
  *lp = &e->layout;
  if (!keep) return WIRE_OK;
  e->layout.entry = e;
  e->older = c->newest;
  c->newest = e;
  c->bytes += size;
  uint32_t k = td_bucket(c, e->header);
  e->next = c->buckets[k];
  c->buckets[k] = e;
  c->count++;
  c->added++;
  return WIRE_OK;
}

int32_t wire__tdcache_adopt(wire_ctx *ctx, wire_layout **lp,
                            wire_arena *arena, uint64_t *hold) {
  int32_t st = wire__typedef_resolve(ctx, *lp);
  wire_tdcache *c = ctx->tdc;
  if (!st && c && c->scratch.head) st = adopt(ctx, c, lp, arena, hold);
  wire__tdcache_drop(ctx);
  return st;
}

static void free_entries(wire_ctx *ctx, wire_tdcache *c, wire_td_entry *e) {
  for (wire_td_entry *older; e; e = older) {
    older = e->older;
    c->bytes -= e->size + e->proj_size;
    if (e->layout.proj) wire__free(ctx, e->layout.proj, e->proj_size);
    wire__free(ctx, e, e->size);
  }
}

/* Entries first..last (linked by `older`), no longer reachable, join the
 * retired ones; a new generation of pins starts. The retired entries are
 * freed now when nothing pinned before holds them, else by the last unpin
 * of such a holder. */
static void retire(wire_ctx *ctx, wire_tdcache *c, wire_td_entry *first,
                   wire_td_entry *last) {
  if (first) {
    last->older = c->retired;
    c->retired = first;
  }
  c->flushes++;
  c->pins_old += c->pins;
  c->pins = 0;
  if (!c->pins_old) {
    free_entries(ctx, c, c->retired);
    c->retired = NULL;
  }
}

void wire__tdcache_flush(wire_ctx *ctx) {
  wire_tdcache *c = ctx->tdc;
  if (!c) return;
  if (c->buckets) {
    wire__free(ctx, c->buckets, c->nbuckets * sizeof *c->buckets);
    c->bytes -= c->nbuckets * sizeof *c->buckets;
  }
  c->buckets = NULL;
  c->nbuckets = 0;
  c->count = c->added = c->kept = c->hot = c->missed = 0;
  wire_td_entry *last = c->newest;
  while (last && last->older) last = last->older;
  retire(ctx, c, c->newest, last); /* every reachable entry */
  c->newest = NULL;
}

/* What a turnover keeps: at most `most` entries of `room` bytes. */
typedef struct {
  size_t room, bytes;
  uint32_t most, count;
} turn;

static void keep_if(turn *t, wire_td_entry *e, uint8_t hits) {
  size_t size = e->size + e->proj_size;
  if (e->hits != hits || e->keep || t->count >= t->most ||
      size > t->room - t->bytes)
    return;
  e->keep = true;
  t->count++;
  t->bytes += size;
}

/* A full cache makes room. It keeps half of itself (half the count limit
 * and half the byte budget left beside the bucket table): the entries
 * found most since the last turnover first (3 times or more, twice,
 * once), then the others, each the oldest first, so that a TypeDef read
 * all along outlives a flood of new ones, even one whose TypeDefs come
 * back now and then, and a set of TypeDefs larger than the cache keeps
 * being served in part;
 * the others are retired as by a flush (freed at once unless a document
 * or a tape decode pins them: `hold`, the slot of a decode without a
 * document, is pinned first). The table keeps its size. O(entries): at
 * most six times the entries taken since the last turnover
 * (may_turn_over), each read from its message. */
static void turn_over(wire_ctx *ctx, wire_tdcache *c, uint64_t *hold) {
  if (hold && !*hold) wire__tdcache_pin(ctx, hold);
  size_t table = c->nbuckets * sizeof *c->buckets;
  uint64_t budget = ctx->max_typedef_cache_bytes;
  uint64_t most = ctx->max_typedef_cache / 2;
  turn t = {budget > table ? (size_t)((budget - table) / 2) : 0, 0,
            most < UINT32_MAX ? (uint32_t)most : UINT32_MAX, 0};
  /* every non-empty bucket starts with an entry: emptied through them,
   * the table is not walked (it may be much larger than the entries) */
  for (wire_td_entry *e = c->newest; e; e = e->older)
    c->buckets[td_bucket(c, e->header)] = NULL;
  /* The list is the entries taken since the last turnover, newest first,
   * then those it kept, oldest first: made all oldest first. */
  wire_td_entry *e = c->newest, *fresh = NULL, *older;
  for (uint32_t i = 0; i < c->added && e; i++, e = older) {
    older = e->older;
    e->older = fresh;
    fresh = e;
  }
  wire_td_entry *all = e ? e : fresh;
  while (e && e->older) e = e->older;
  if (e) e->older = fresh;
  for (int hits = 3; hits >= 0; hits--)
    for (e = all; e; e = e->older) keep_if(&t, e, (uint8_t)hits);
  wire_td_entry *keep = NULL, **tail = &keep, *drop = NULL, *last = NULL;
  for (e = all; e; e = older) {
    older = e->older;
    if (!e->keep) {
      e->older = drop;
      drop = e;
      if (!last) last = e;
      continue;
    }
    e->keep = false;
    e->hits = 0;
    *tail = e;
    tail = &e->older;
    uint32_t k = td_bucket(c, e->header);
    e->next = c->buckets[k];
    c->buckets[k] = e;
  }
  *tail = NULL;
  c->newest = keep;
  c->count = c->kept = t.count;
  c->added = c->hot = c->missed = 0;
  c->turnovers++;
  retire(ctx, c, drop, last);
}

void wire__tdcache_pin(wire_ctx *ctx, uint64_t *pin) {
  if (*pin) return;
  wire_tdcache *c = ctx->tdc;
  *pin = c->flushes + 1;
  c->pins++;
}

void wire__tdcache_unpin(wire_ctx *ctx, uint64_t pin) {
  wire_tdcache *c = ctx->tdc;
  if (pin == c->flushes + 1) {
    c->pins--;
    return;
  }
  if (--c->pins_old) return;
  free_entries(ctx, c, c->retired);
  c->retired = NULL;
}

void *wire__tdcache_proj(wire_ctx *ctx, wire_layout *l, size_t size) {
  wire_tdcache *c = ctx->tdc;
  wire_td_entry *e = l->entry;
  if (!e || l->proj || c->bytes + size > ctx->max_typedef_cache_bytes)
    return NULL;
  void *m = wire__alloc(ctx, size);
  if (!m) return NULL; /* (made per projection instead) */
  e->proj_size = size;
  c->bytes += size;
  return m;
}

void wire__tdcache_free(wire_ctx *ctx) {
  wire_tdcache *c = ctx->tdc;
  if (!c) return;
  free_entries(ctx, c, c->newest);
  free_entries(ctx, c, c->retired);
  wire__arena_free(&c->scratch);
  if (c->buckets) wire__free(ctx, c->buckets, c->nbuckets * sizeof *c->buckets);
  wire__free(ctx, c, sizeof *c);
  ctx->tdc = NULL;
}
