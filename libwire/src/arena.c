/* arena.c - the bump arena (documents, the registry, the IDL loader, the
 * TypeDef cache) and the one growth rule of libwire's growable arrays. */
#include "internal.h"

void *wire__arena_alloc_slow(wire_arena *a, size_t size) {
  size_t want = a->next_size ? a->next_size : 4096;
  if (size > SIZE_MAX - sizeof(wire_block) - 8) return NULL;
  if (want < size + sizeof(wire_block)) want = size + sizeof(wire_block);
  wire_block *blk = wire__alloc(a->ctx, want);
  if (!blk) return NULL;
  blk->next = a->head;
  blk->size = want;
  a->head = blk;
  a->p = (uint8_t *)(blk + 1);
  a->end = (uint8_t *)blk + want;
  if (a->next_size < (size_t)1 << 20) a->next_size = want * 2;
  void *r = a->p;
  a->p += size;
  return r;
}

void wire__arena_free(wire_arena *a) {
  wire_block *b = a->head;
  while (b) {
    wire_block *n = b->next;
    wire__free(a->ctx, b, b->size);
    b = n;
  }
  a->head = NULL;
  a->p = a->end = NULL;
}

void wire__arena_reset(wire_arena *a, size_t keep_max) {
  wire_block *keep = a->head;
  if (keep && keep->size > keep_max) keep = NULL;
  wire_block *b = a->head;
  while (b) {
    wire_block *n = b->next;
    if (b != keep) wire__free(a->ctx, b, b->size);
    b = n;
  }
  a->head = keep;
  /* the next block as large as the kept one: a document of the same size
   * then ends with a block of the same size (steady memory) */
  a->next_size = keep ? keep->size : 0;
  if (keep) {
    keep->next = NULL;
    a->p = (uint8_t *)(keep + 1);
    a->end = (uint8_t *)keep + keep->size;
  } else {
    a->p = a->end = NULL;
  }
}

/* The growth rule: double from `first` until n + 1 elements fit. */
static size_t next_cap(size_t cap, size_t n, size_t first, size_t elem) {
  size_t c = cap ? cap : first;
  while (c <= n) {
    if (c > SIZE_MAX / 2 / elem) return 0;
    c *= 2;
  }
  return c;
}

void *wire__grow(wire_ctx *ctx, void *p, size_t *cap, size_t n, size_t elem,
                 size_t first) {
  if (n < *cap) return p;
  size_t c = next_cap(*cap, n, first, elem);
  if (!c) return NULL;
  void *q = wire__realloc(ctx, p, *cap * elem, c * elem);
  if (!q) return NULL;
  *cap = c;
  return q;
}

void *wire__arena_grow(wire_arena *a, void *p, uint32_t *cap, uint32_t n,
                       size_t elem, uint32_t first) {
  if (n < *cap) return p;
  size_t c = next_cap(*cap, n, first, elem);
  if (!c || c > UINT32_MAX) return NULL;
  void *q = wire__arena_alloc(a, c * elem);
  if (!q) return NULL;
  if (n) memcpy(q, p, (size_t)n * elem);
  *cap = (uint32_t)c;
  return q;
}
