/* hostile_gen.h - generators of hostile payloads, one per attack class
 * (header only; used by test_hostile.c, hostile_report.c and the seeds of
 * the fuzz_heap target).
 *
 * hg_gen(cls, target, &len) returns a payload of about `target` bytes
 * (never more than target + 64) that exercises one class of issue 9 at
 * that size, malloc'd (free it). Each class states whether it is valid
 * (decodes) or is meant to be rejected once a budget runs out; either way
 * the decoder must spend memory and time in proportion to its length.
 * hg_ctx_setup() applies the context settings the class needs (compatible
 * mode, the largest depth). Sizes of at least 64 bytes are supported. */
#ifndef HOSTILE_GEN_H
#define HOSTILE_GEN_H

#include "wire.h"
#include "internal.h" /* wire__ms_hash */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum {
  HG_MS_REF,      /* one large packed meta string, then references to it */
  HG_MS_DISTINCT, /* distinct meta strings announced (60000 per root) */
  HG_MS_AGAIN,    /* the same meta strings announced again and again */
  HG_TYPEDEFS,    /* compatible mode: a new shared TypeDef per element */
  HG_ROOTS,       /* null roots, 2 bytes each */
  HG_REFS,        /* a list of references to one tracked value */
  HG_NULL_MAP,    /* a map of null -> null entries, 1 byte each */
  HG_NULL_LIST,   /* a list of nulls, 1 byte each */
  HG_LISTS,       /* a same-type list of empty lists, 1 byte each */
  HG_DEEP,        /* roots nested as deep as the largest depth limit */
  HG_ZERO_WIDTH,  /* roots of 8192 NONE (7 bytes each): rejected */
  HG_NESTED_COUNTS, /* 63 nested lists, each claiming every byte left for
                       its elements: rejected */
  HG_STRUCTS,     /* compatible mode: a list of structs of one int8 field,
                     1 byte each */
  HG_EMPTY_STRUCTS, /* compatible mode: roots, each a list of empty structs
                       (0 bytes each) claiming the same backing bytes:
                       rejected */
  HG_NAMED_ENUMS, /* compatible mode: a same-type list of named enums, one
                     TypeDef, 1 byte each */
  HG_NCLASSES
};

static const char *const hg_names[HG_NCLASSES] = {
    "ms-referenced", "ms-distinct", "ms-repeated", "typedefs", "roots",
    "references", "map-null", "list-null", "lists", "deep", "zero-width",
    "nested-counts", "structs", "empty-structs", "named-enums"};
/* Whether the payload of the class decodes (1) or is rejected (0). */
static const int hg_valid[HG_NCLASSES] = {1, 1, 1, 1, 1, 1, 1,
                                          1, 1, 1, 0, 0, 1, 0, 1};

/* Whether the class is decoded in compatible mode (its TypeDefs). */
static inline int hg_compatible(int cls) {
  return cls == HG_TYPEDEFS || cls == HG_STRUCTS || cls == HG_EMPTY_STRUCTS ||
         cls == HG_NAMED_ENUMS;
}

typedef struct {
  uint8_t *p;
  size_t len, cap;
} hg_buf;

static inline void hg_put(hg_buf *b, const void *p, size_t n) {
  if (b->len + n > b->cap) abort(); /* generator bug */
  memcpy(b->p + b->len, p, n);
  b->len += n;
}
static inline void hg_u8(hg_buf *b, uint8_t v) { hg_put(b, &v, 1); }
static inline void hg_var(hg_buf *b, uint64_t v) {
  while (v >= 0x80) { hg_u8(b, (uint8_t)(v | 0x80)); v >>= 7; }
  hg_u8(b, (uint8_t)v);
}
/* A meta string announcement of `text` (n chars) in encoding enc. */
static inline void hg_ms_new(hg_buf *b, int msctx, int enc, const char *text,
                      size_t n) {
  size_t cap = n + 8, blen = 0;
  uint8_t *bytes = malloc(cap);
  if (!bytes || wire_meta_encode(msctx, enc, (const uint8_t *)text, n, bytes,
                                 cap, &blen) != WIRE_OK)
    abort();
  hg_var(b, (uint64_t)blen << 1);
  if (blen > 16) {
    uint64_t h = wire__ms_hash(bytes, blen, (uint8_t)enc, 0);
    for (int i = 0; i < 8; i++) hg_u8(b, (uint8_t)(h >> (8 * i)));
  } else if (blen > 0) {
    hg_u8(b, (uint8_t)enc);
  }
  hg_put(b, bytes, blen);
  free(bytes);
}

/* The largest depth limit wire_ctx_set_limit accepts. */
static inline uint32_t hg_max_depth(void) {
  wire_ctx *c = wire_ctx_new();
  uint32_t lo = 1, hi = 1u << 20;
  while (c && lo < hi) { /* largest accepted value */
    uint32_t mid = lo + (hi - lo + 1) / 2;
    if (wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, mid) == WIRE_OK) lo = mid;
    else hi = mid - 1;
  }
  wire_ctx_free(c);
  return lo;
}

static inline void hg_ctx_setup(wire_ctx *ctx, int cls) {
  if (hg_compatible(cls)) wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1);
  if (cls == HG_DEEP)
    wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH, hg_max_depth());
}

/* A named enum demo.Color's TypeDef (pyfory 1.7.7, fixture enum.named.0036):
 * the 8-byte header and the 10-byte body. */
static const uint8_t hg_color_td[18] = {0x0a, 0xa0, 0xbc, 0x05, 0x58, 0x44,
                                        0xf3, 0x23, 0x01, 0x0d, 0x0c, 0x8c,
                                        0x70, 0x13, 0x89, 0xcb, 0x74, 0x40};

/* COMPATIBLE_STRUCT type meta announcing a TypeDef (libwire's encoder in
 * compatible mode, FDL `package demo; message E {} message F { int8 a =
 * 1; }`): id 0x1c, meta index 0 (new), 8-byte header, body. E has no
 * field; F one int8 field. */
static const uint8_t hg_empty_td[16] = {0x1c, 0x00, 0x06, 0xa0, 0xe2, 0x5a,
                                        0x1c, 0xd9, 0xf2, 0x37, 0xc0, 0x92,
                                        0xe4, 0x96, 0xff, 0x06};
static const uint8_t hg_int8_td[18] = {0x1c, 0x00, 0x08, 0x70, 0xb5, 0x13,
                                       0x97, 0xa4, 0xc8, 0x3a, 0xc1, 0x80,
                                       0xe7, 0xc0, 0xb1, 0x0f, 0xc4, 0x02};

static inline uint8_t *hg_gen(int cls, size_t target, size_t *out_len) {
  hg_buf b = {malloc(target + 64), 0, target + 64};
  if (!b.p || target < 64) abort();
  switch (cls) {
  case HG_MS_REF: {
    /* A quarter of the bytes in one namespace ("aaa..." packs to 5 bits a
     * char), the rest 4-byte named enums referring to it. */
    size_t chars = target / 4 * 8 / 5;
    if (chars > 32766) chars = 32766;
    if (chars < 17) chars = 17;
    char *t = malloc(chars);
    if (!t) abort();
    memset(t, 'a', chars);
    hg_buf head = {malloc(chars + 64), 0, chars + 64};
    if (!head.p) abort();
    hg_u8(&head, 0x1a);
    hg_ms_new(&head, WIRE_MSCTX_NAMESPACE, WIRE_MS_ALL_TO_LOWER_SPECIAL, t,
              chars);
    hg_ms_new(&head, WIRE_MSCTX_TYPE_NAME, WIRE_MS_UTF8, "E", 1);
    hg_u8(&head, 0);
    free(t);
    size_t room = target - 8 - head.len;
    size_t n = 1 + room / 4;
    hg_put(&b, "\x01\xff\x16", 3);
    hg_var(&b, n);
    hg_u8(&b, 0);
    hg_put(&b, head.p, head.len);
    free(head.p);
    for (size_t i = 1; i < n; i++) hg_put(&b, "\x1a\x03\x05\x00", 4);
    break;
  }
  case HG_MS_DISTINCT:
  case HG_MS_AGAIN: {
    /* Named enums of 12 bytes: two 3-char UTF-8 meta strings announced
     * (distinct ones, or the same two every time), up to 30000 per root. */
    size_t left = target;
    uint32_t k = 0;
    while (left >= 24) {
      size_t n = (left - 8) / 12;
      if (n > 30000) n = 30000;
      hg_put(&b, "\x01\xff\x16", 3);
      hg_var(&b, n);
      hg_u8(&b, 0);
      for (size_t i = 0; i < n; i++, k++) {
        char s[3] = {'a', 'a', 'a'};
        if (cls == HG_MS_DISTINCT) {
          s[0] = (char)('a' + k % 26);
          s[1] = (char)('a' + k / 26 % 26);
          s[2] = (char)('a' + k / 676 % 26);
        }
        hg_u8(&b, 0x1a);
        hg_put(&b, "\x06\x00", 2);
        hg_put(&b, s, 3);
        hg_put(&b, "\x06\x00", 2);
        hg_put(&b, s, 3);
        hg_u8(&b, 0);
      }
      left = target - b.len;
    }
    break;
  }
  case HG_TYPEDEFS: {
    /* One root: named enums, each announcing the next shared TypeDef. */
    size_t n = 0, used = 8;
    while (used + 2 + sizeof hg_color_td + 5 <= target)
      used += 2 + sizeof hg_color_td + (n++ < 64 ? 1 : n < 8192 ? 2 : 3);
    hg_put(&b, "\x01\xff\x16", 3);
    hg_var(&b, n);
    hg_u8(&b, 0);
    for (size_t i = 0; i < n; i++) {
      hg_u8(&b, 0x1a);
      hg_var(&b, (uint64_t)i << 1);
      hg_put(&b, hg_color_td, sizeof hg_color_td);
      hg_u8(&b, 1);
    }
    break;
  }
  case HG_ROOTS:
    while (b.len + 2 <= target) hg_put(&b, "\x01\xfd", 2);
    break;
  case HG_REFS: {
    size_t n = (target - 8) / 2;
    hg_put(&b, "\x01\xff\x16", 3);
    hg_var(&b, n);
    hg_put(&b, "\x01\x00\x16\x00", 4); /* tracked empty list */
    for (size_t i = 1; i < n; i++) hg_put(&b, "\xfe\x00", 2);
    break;
  }
  case HG_NULL_MAP:
  case HG_NULL_LIST: {
    size_t n = target - 8;
    hg_put(&b, cls == HG_NULL_MAP ? "\x01\xff\x18" : "\x01\xff\x16", 3);
    hg_var(&b, n);
    if (cls == HG_NULL_LIST) hg_u8(&b, 0x02);
    memset(b.p + b.len, cls == HG_NULL_MAP ? 0x12 : 0xfd, n);
    b.len += n;
    break;
  }
  case HG_LISTS: {
    size_t n = target - 8; /* every element: an empty list (count 0) */
    hg_put(&b, "\x01\xff\x16", 3);
    hg_var(&b, n);
    hg_put(&b, "\x08\x16", 2);
    memset(b.p + b.len, 0, n);
    b.len += n;
    break;
  }
  case HG_DEEP: {
    /* Lists nested to the largest depth the limit allows, as many roots
     * as fit. */
    uint32_t depth = hg_max_depth();
    for (;;) {
      size_t lv = (target - b.len - 4) / 3;
      if (lv < 1) break;
      if (lv > depth - 1) lv = depth - 1;
      hg_put(&b, "\x01\xff\x16", 3);
      for (size_t i = 1; i < lv; i++) hg_put(&b, "\x01\x08\x16", 3);
      hg_u8(&b, 0);
      if (target - b.len < 16) break;
    }
    break;
  }
  case HG_ZERO_WIDTH:
    while (b.len + 7 <= target) hg_put(&b, "\x01\xff\x16\x80\x40\x08\x24", 7);
    break;
  case HG_NESTED_COUNTS: {
    /* 01 ff, then 62 times 16 <count> 00 (elements with their own type
     * meta), then 16 <count> 02 and that many nulls; every count is the
     * number of bytes left after it. */
    size_t levels = 63, at = 2;
    hg_put(&b, "\x01\xff", 2);
    for (size_t i = 0; i < levels; i++) {
      size_t rest = target - at - 2 - 3 * (levels - 1 - i) - 5;
      hg_u8(&b, 0x16);
      hg_var(&b, rest);
      hg_u8(&b, i + 1 < levels ? 0x00 : 0x02);
      at = b.len;
    }
    while (b.len < target) hg_u8(&b, 0xfd);
    break;
  }
  case HG_STRUCTS: {
    size_t n = target - 8 - sizeof hg_int8_td;
    hg_put(&b, "\x01\xff\x16", 3);
    hg_var(&b, n);
    hg_u8(&b, 0x08); /* same type */
    hg_put(&b, hg_int8_td, sizeof hg_int8_td);
    memset(b.p + b.len, 0x01, n);
    b.len += n;
    break;
  }
  case HG_EMPTY_STRUCTS: {
    /* Half the bytes are null roots at the end (the backing); each root
     * before them is a list of as many empty structs as there are bytes
     * of backing, all of which take no bytes themselves. */
    size_t backing = target / 2, head = 3 + 3 + 1 + sizeof hg_empty_td;
    while (b.len + head + backing <= target) {
      hg_put(&b, "\x01\xff\x16", 3);
      hg_var(&b, backing);
      hg_u8(&b, 0x08);
      hg_put(&b, hg_empty_td, sizeof hg_empty_td);
    }
    while (b.len + 2 <= target) hg_put(&b, "\x01\xfd", 2);
    break;
  }
  case HG_NAMED_ENUMS: {
    /* every element: ordinal 1 of demo.Color, whose names each value
     * once made again from the TypeDef (48 bytes an element) */
    size_t n = target - 10 - sizeof hg_color_td;
    hg_put(&b, "\x01\xff\x16", 3);
    hg_var(&b, n);
    hg_put(&b, "\x08\x1a\x00", 3); /* same type, NAMED_ENUM, TypeDef #0 */
    hg_put(&b, hg_color_td, sizeof hg_color_td);
    memset(b.p + b.len, 0x01, n);
    b.len += n;
    break;
  }
  default:
    abort();
  }
  *out_len = b.len;
  return b.p;
}

/* ---- A counting allocator (through wire_ctx_new_with_allocator) ---- */

typedef struct {
  size_t cur, peak, calls;
  size_t fail_over; /* 0: never fail; else fail when cur would exceed it */
} hg_heap;

static inline void *hg_malloc(void *u, size_t n) {
  hg_heap *h = u;
  if (h->fail_over && h->cur + n > h->fail_over) return NULL;
  void *p = malloc(n ? n : 1);
  if (!p) return NULL;
  h->calls++;
  h->cur += n;
  if (h->cur > h->peak) h->peak = h->cur;
  return p;
}
static inline void *hg_realloc(void *u, void *p, size_t old, size_t n) {
  hg_heap *h = u;
  if (h->fail_over && h->cur - old + n > h->fail_over) return NULL;
  void *q = realloc(p, n ? n : 1);
  if (!q) return NULL;
  h->calls++;
  h->cur = h->cur - old + n;
  if (h->cur > h->peak) h->peak = h->cur;
  return q;
}
static inline void hg_free(void *u, void *p, size_t n) {
  hg_heap *h = u;
  if (!p) return;
  h->cur -= n;
  free(p);
}

/* Decodes data on a fresh counting context set up for cls; returns the
 * status, *peak gets the peak of live bytes during the decode (the
 * context's own allocation excluded). */
static inline int32_t hg_decode_peak(int cls, const uint8_t *data, size_t len,
                              size_t *peak) {
  hg_heap h = {0, 0, 0, 0};
  wire_ctx *ctx = wire_ctx_new_with_allocator(hg_malloc, hg_realloc, hg_free,
                                              &h);
  if (!ctx) abort();
  hg_ctx_setup(ctx, cls);
  size_t base = h.cur;
  h.peak = h.cur;
  wire_doc *doc = NULL;
  int32_t st = wire_decode(ctx, data, len, &doc);
  *peak = h.peak - base;
  wire_doc_free(doc);
  wire_ctx_free(ctx);
  if (h.cur != 0) abort(); /* leak through the allocator */
  return st;
}

#endif
