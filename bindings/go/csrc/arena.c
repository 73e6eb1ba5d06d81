/* arena.c - the bump arena (documents, the registry, the IDL loader, the
 * TypeDef cache) and the one growth rule of libwire's growable arrays. */
#include "internal.h"

/* Blocks double from 4 KiB up to BLOCK_MAX. A request larger than a
 * sixteenth of the block size gets a block of its own, put behind the
 * current one, so that no block is left with more than a sixteenth of it
 * unused: the arena holds at most about 1/16 more than was asked of it,
 * plus its newest block, which the end of the input may leave almost
 * empty. So while a decoder fills the arena from an input of n bytes
 * (a->input_len), a new block is at most PER_BYTE x n (at least
 * BLOCK_CAP_MIN, which the constant of the heap bound holds): the two
 * arenas of a decoded document then hold at most 2 x PER_BYTE x n bytes
 * more than they hand out, where doubling up to 64 KiB let them hold
 * about twice what they hand out (spec R-SEC-9). Inputs of 32 KiB and
 * more grow as without the cap. */
#define BLOCK_FIRST ((size_t)4 << 10)
#define BLOCK_MAX ((size_t)64 << 10)
#define BLOCK_CAP_MIN ((size_t)8 << 10)
#define PER_BYTE 2

void *wire__arena_alloc_slow(wire_arena *a, size_t size) {
  size_t want = a->next_size ? a->next_size : BLOCK_FIRST;
  if (a->input_len && want > BLOCK_CAP_MIN) {
    size_t cap = (a->input_len * PER_BYTE + 4095) & ~(size_t)4095;
    if (cap < BLOCK_CAP_MIN) cap = BLOCK_CAP_MIN;
    if (want > cap) want = cap;
  }
  if (size > SIZE_MAX - sizeof(wire_block) - 8) return NULL;
  if (size > want / 16) {
    size_t n = size + sizeof(wire_block);
    wire_block *blk = wire__alloc(a->ctx, n);
    if (!blk) return NULL;
    blk->size = n;
    a->total += n;
    if (a->head) {
      blk->next = a->head->next;
      a->head->next = blk;
    } else { /* the next small request starts a block in front of it */
      blk->next = NULL;
      a->head = blk;
      a->p = a->end = NULL;
    }
    return blk + 1;
  }
  wire_block *blk = wire__alloc(a->ctx, want);
  if (!blk) return NULL;
  blk->next = a->head;
  blk->size = want;
  a->total += want;
  a->head = blk;
  a->p = (uint8_t *)(blk + 1);
  a->end = (uint8_t *)blk + want;
  if (want < BLOCK_MAX) a->next_size = want * 2;
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
  a->total = 0;
}

void wire__arena_reset(wire_arena *a, size_t keep_max) {
  wire_block *keep = a->head;
  a->total = 0; /* (a kept block is not counted again) */
  if (keep && !keep->next && keep->size <= keep_max) { /* one block, kept */
    a->next_size = keep->size;
    a->p = (uint8_t *)(keep + 1);
    a->end = (uint8_t *)keep + keep->size;
    return;
  }
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
