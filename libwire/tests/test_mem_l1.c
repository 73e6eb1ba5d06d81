/* test_mem_l1.c - the compiled decoder's Latin-1 readers of tagged
 * strings left in the payload (l1_head, mem_dec_read.h): the items of a
 * list of tagged strings (dec_items) and the keys and values of a map of
 * tagged strings (l1_entries, mop.ditems MDI_TSTR), not copied. With one
 * byte set to each of its 256 values and on every prefix they read what
 * the general loops read (plans made with wire__mdec_ds_ok off): the same
 * status and byte offset, the same pointers into the payload and the same
 * headers, with 32-bit and 64-bit length words, headers of one, two and
 * three bytes, and a binary limit that the longest string passes. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem_ctx.h"
#include "mem_rows.h"
#include "mem_damage.h"
#include "wire.h"

/* (internal, mem_layout.c: off, plans made from then on have no inline
 * cases; the library reads it only when it makes a plan) */
extern bool wire__mdec_ds_ok;

static const char fdl[] =
    "package ml;\n"
    "message T [id=452] { list<string> tags = 1; map<string, string> m = 2; "
    "}\n";

typedef struct { const uint8_t *p; uint32_t h, pad; } ts;  /* 32-bit word */
typedef struct { const uint8_t *p; uint64_t h; } ts64;     /* 64-bit word */
typedef struct { ts k; ts64 v; } kv;
typedef struct { const ts *tags; uint32_t nt, pad; const kv *m; uint32_t nm, pad2; } tv;

#define TAG (WIRE_MEM_STR | WIRE_MEM_STR_TAGGED)

static wire_ctx *make(int compatible, uint32_t *lr) {
  wire_ctx *c = mem_ctx(fdl, "ml.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t t = mem_ctx_type(c, "ml.T");
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, t, sizeof(tv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, offsetof(tv, tags),
       offsetof(tv, nt), N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_MAP, offsetof(tv, m), offsetof(tv, nm),
       N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(ts), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TAG, offsetof(ts, p), offsetof(ts, h), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TAG, offsetof(kv, k.p), offsetof(kv, k.h), N, N,
       0},
      {WIRE_MEM_ROW_FIELD, 1, TAG | WIRE_MEM_LEN64, offsetof(kv, v.p),
       offsetof(kv, v.h), N, N, 0},
  };
  *lr = MEM_CTX_TABLE(c, rows);
  return c;
}

static uint8_t arena[1 << 12], arena2[1 << 12];

/* data[0..n) decoded by ca (the Latin-1 readers) and cb (the general
 * loops), not copied: the same status and offset, and on success the same
 * pointers and headers. */
static int32_t both(wire_ctx *ca, wire_ctx *cb, uint32_t lr,
                    const uint8_t *data, size_t n) {
  tv o1, o2;
  size_t u1 = 0, u2 = 0;
  int32_t s1 = wire_mem_decode(ca, lr, data, n, &o1, arena, sizeof arena, &u1,
                               0);
  wire__mdec_ds_ok = false;
  int32_t s2 = wire_mem_decode(cb, lr, data, n, &o2, arena2, sizeof arena2,
                               &u2, 0);
  wire__mdec_ds_ok = true;
  if (mem_damage_agree_ctx(ca, s1, cb, s2, n)) return s1;
  cr_assert_eq(o1.nt, o2.nt);
  for (uint32_t i = 0; i < o1.nt; i++)
    cr_assert(o1.tags[i].p == o2.tags[i].p && o1.tags[i].h == o2.tags[i].h,
              "%zu bytes: tag %u", n, i);
  cr_assert_eq(o1.nm, o2.nm);
  for (uint32_t i = 0; i < o1.nm; i++) {
    const kv *a = &o1.m[i], *b = &o2.m[i];
    cr_assert(a->k.p == b->k.p && a->k.h == b->k.h, "%zu bytes: key %u", n, i);
    cr_assert(a->v.p == b->v.p && a->v.h == b->v.h, "%zu bytes: value %u", n,
              i);
  }
  return s1;
}

#define H(len, enc) (((uint32_t)(len) << 2) | (uint32_t)(enc))

Test(mem_l1, latin1_items_and_entries_as_the_general_loops) {
  /* Latin-1 of 0, 1, 3, 31 (one-byte header), 32 and 40 bytes (two);
   * UTF-16 and UTF-8 among them (fast_tstr's) */
  static uint8_t lat[40], u16[4] = {0x2D, 0x4E, 0xE9, 0x00};
  static const uint8_t u8[] = {0xC3, 0xA9};
  for (int i = 0; i < 40; i++) lat[i] = (uint8_t)(i % 3 ? 'a' + i % 26 : 0xE9);
  const ts tags[] = {{lat, H(3, WIRE_STR_LATIN1), 0},
                     {lat, H(0, WIRE_STR_LATIN1), 0},
                     {lat, H(32, WIRE_STR_LATIN1), 0},
                     {u16, H(4, WIRE_STR_UTF16), 0},
                     {lat, H(1, WIRE_STR_LATIN1), 0},
                     {u8, H(2, WIRE_STR_UTF8), 0},
                     {lat, H(31, WIRE_STR_LATIN1), 0}};
  const kv m[] = {{{lat, H(2, WIRE_STR_LATIN1), 0}, {lat, H(40, WIRE_STR_LATIN1)}},
                  {{u8, H(2, WIRE_STR_UTF8), 0}, {lat, H(0, WIRE_STR_LATIN1)}},
                  {{lat + 1, H(5, WIRE_STR_LATIN1), 0}, {u16, H(2, WIRE_STR_UTF16)}},
                  {{lat, H(33, WIRE_STR_LATIN1), 0}, {lat + 7, H(9, WIRE_STR_LATIN1)}}};
  tv v = {tags, 7, 0, m, 4, 0};
  for (int compatible = 0; compatible < 2; compatible++) {
    /* 40 bytes: the longest string at the limit; 32: above it */
    for (uint64_t max = 32; max <= 40; max += 8) {
      uint32_t lr;
      wire_ctx *ca = make(compatible, &lr), *cb = make(compatible, &lr);
      uint8_t buf[512];
      size_t len = mem_damage_encode(ca, lr, &v, buf, sizeof buf);
      cr_assert_eq(wire_ctx_set_limit(ca, WIRE_LIMIT_BINARY, max), WIRE_OK);
      cr_assert_eq(wire_ctx_set_limit(cb, WIRE_LIMIT_BINARY, max), WIRE_OK);
      uint8_t *exact = mem_damage_exact(buf, len);
      int32_t st = both(ca, cb, lr, exact, len);
      cr_assert_eq(st, max == 40 ? WIRE_OK : WIRE_E_LIMIT, "%s",
                   wire_ctx_error_message(ca));
      if (!st) {
        /* left in the payload, with the headers given */
        tv o;
        size_t used = 0;
        cr_assert_eq(wire_mem_decode(ca, lr, exact, len, &o, arena,
                                     sizeof arena, &used, 0), WIRE_OK);
        cr_assert_eq(o.nt, 7);
        for (uint32_t i = 0; i < 7; i++) {
          cr_assert_eq(o.tags[i].h, tags[i].h, "tag %u", i);
          uint32_t n = tags[i].h >> 2;
          cr_assert(n ? o.tags[i].p > exact && o.tags[i].p + n <= exact + len &&
                            !memcmp(o.tags[i].p, tags[i].p, n)
                      : o.tags[i].p != NULL, "tag %u", i);
        }
        cr_assert_eq(o.nm, 4);
        for (uint32_t i = 0; i < 4; i++) {
          cr_assert(o.m[i].k.h == m[i].k.h && o.m[i].v.h == m[i].v.h, "entry %u", i);
          cr_assert(!memcmp(o.m[i].k.p, m[i].k.p, m[i].k.h >> 2) &&
                        !memcmp(o.m[i].v.p, m[i].v.p, (size_t)(m[i].v.h >> 2)),
                    "entry %u", i);
        }
      }
      mem_damage_every_value(both, ca, cb, lr, exact, len);
      free(exact);
      wire_ctx_free(ca);
      wire_ctx_free(cb);
    }
  }
}

/* A list of tagged strings with 64-bit length words (Go's strings are
 * bound this way): each item's word is stored whole, all 8 bytes, by the
 * Latin-1 loop (tstr_store), by fast_tstr for any other item and when
 * copied. The items of a list are not cleared before they are read, so
 * an arena filled with another byte shows a word stored 4 bytes wide
 * (the high half left as it was), which a cleared image hides. */
Test(mem_l1, list_items_with_64_bit_length_words_stored_whole) {
  typedef struct {
    const ts64 *tags;
    uint32_t nt, pad;
    const kv *m;
    uint32_t nm, pad2;
  } tv64;
  wire_ctx *c = mem_ctx(fdl, "ml.fdl", NULL);
  uint32_t t = mem_ctx_type(c, "ml.T");
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, t, sizeof(tv64), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, offsetof(tv64, tags),
       offsetof(tv64, nt), N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_MAP, offsetof(tv64, m),
       offsetof(tv64, nm), N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(ts64), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TAG | WIRE_MEM_LEN64, offsetof(ts64, p),
       offsetof(ts64, h), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TAG, offsetof(kv, k.p), offsetof(kv, k.h), N, N,
       0},
      {WIRE_MEM_ROW_FIELD, 1, TAG | WIRE_MEM_LEN64, offsetof(kv, v.p),
       offsetof(kv, v.h), N, N, 0},
  };
  uint32_t lr = MEM_CTX_TABLE(c, rows);
  static const uint8_t u16[4] = {0x2D, 0x4E, 0xE9, 0x00};
  const ts64 tags[] = {{(const uint8_t *)"abc", H(3, WIRE_STR_LATIN1)},
                       {u16, H(4, WIRE_STR_UTF16)},
                       {(const uint8_t *)"", H(0, WIRE_STR_LATIN1)},
                       {(const uint8_t *)"\xC3\xA9", H(2, WIRE_STR_UTF8)}};
  tv64 v = {tags, 4, 0, NULL, 0, 0};
  uint8_t buf[128];
  size_t len = mem_damage_encode(c, lr, &v, buf, sizeof buf);
  for (int copy = 0; copy < 2; copy++) {
    memset(arena, 0xA5, sizeof arena);
    tv64 o;
    memset(&o, 0xA5, sizeof o);
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, lr, buf, len, &o, arena, sizeof arena,
                                 &used, copy ? WIRE_MEM_COPY : 0),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(o.nt, 4);
    for (uint32_t i = 0; i < 4; i++)
      cr_assert_eq(o.tags[i].h, (uint64_t)tags[i].h,
                   "copy %d, item %u: word %#llx, header %#x", copy, i,
                   (unsigned long long)o.tags[i].h, (unsigned)tags[i].h);
  }
  memset(arena, 0, sizeof arena);
  wire_ctx_free(c);
}
