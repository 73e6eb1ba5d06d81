/* test_mem_maps.c - the compiled decoder's maps of strings to strings
 * (mop.ditems MDI_STR): a chunk of declared strings without nulls or
 * tracking and its size are read inline (dec_map), anything else by the
 * general chunk reader. Every size a chunk may claim, in the first chunk
 * and in one after a null chunk, gets the same status and byte offset
 * with the inline case and without it (plans made with
 * wire__mdec_ds_ok off), and the sizes past the entries left are
 * refused at the size byte. */
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
    "package mm;\n"
    "message Bag [id=450] { map<string, optional string> m = 1; }\n";

typedef struct { const uint8_t *p; uint32_t n, pad; } ustr;
typedef struct { ustr k, v; } kv;
typedef struct { const kv *m; uint32_t n, pad; } bag;

static wire_ctx *make(int compatible, uint32_t *lr) {
  wire_ctx *c = mem_ctx(fdl, "mm.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t t = mem_ctx_type(c, "mm.Bag");
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, t, sizeof(bag), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_MAP, offsetof(bag, m), offsetof(bag, n),
       N, 1, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, offsetof(kv, k), offsetof(kv, k.n),
       N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, offsetof(kv, v), offsetof(kv, v.n),
       N, N, 0},
  };
  *lr = MEM_CTX_TABLE(c, rows);
  return c;
}

static uint8_t arena[1 << 12], arena2[1 << 12];

/* data[0..n) decoded by ca (inline cases) and cb (none): the same status,
 * offset and entries; the status. */
static int32_t both(wire_ctx *ca, wire_ctx *cb, uint32_t lr,
                    const uint8_t *data, size_t n) {
  bag o1, o2;
  size_t u1 = 0, u2 = 0;
  int32_t s1 = wire_mem_decode(ca, lr, data, n, &o1, arena, sizeof arena, &u1,
                               WIRE_MEM_COPY);
  wire__mdec_ds_ok = false;
  int32_t s2 = wire_mem_decode(cb, lr, data, n, &o2, arena2, sizeof arena2,
                               &u2, WIRE_MEM_COPY);
  wire__mdec_ds_ok = true;
  if (mem_damage_agree_ctx(ca, s1, cb, s2, n)) return s1;
  cr_assert_eq(o1.n, o2.n);
  for (uint32_t i = 0; i < o1.n; i++) {
    const kv *a = &o1.m[i], *b = &o2.m[i];
    cr_assert(a->k.n == b->k.n && !memcmp(a->k.p, b->k.p, a->k.n));
    cr_assert_eq(a->v.p == NULL, b->v.p == NULL);
    cr_assert(a->v.n == b->v.n && (!a->v.n || !memcmp(a->v.p, b->v.p, a->v.n)));
  }
  return s1;
}

Test(mem_maps, chunk_sizes_inline_and_general) {
  for (int compatible = 0; compatible < 2; compatible++) {
    uint32_t lr;
    wire_ctx *ca = make(compatible, &lr), *cb = make(compatible, &lr);
    static const kv e[] = {{{(const uint8_t *)"a", 1, 0}, {(const uint8_t *)"x", 1, 0}},
                           {{(const uint8_t *)"bb", 2, 0}, {NULL, 0, 0}},
                           {{(const uint8_t *)"cc", 2, 0}, {(const uint8_t *)"y", 1, 0}},
                           {{(const uint8_t *)"dd", 2, 0}, {(const uint8_t *)"z", 1, 0}}};
    bag v = {e, 4, 0};
    size_t len;
    bag o;
    uint8_t *buf = mem_damage_round_trip(ca, lr, &v, &len, &o, arena, sizeof arena);
    uint8_t *m = mem_damage_exact(buf, len);
    cr_assert_eq(o.n, 4);
    cr_assert_null(o.m[1].v.p);
    cr_assert(o.m[3].v.n == 1 && o.m[3].v.p[0] == 'z');
    cr_assert_eq(both(ca, cb, lr, buf, len), WIRE_OK);
    /* the chunks' size bytes: before the first key "a" (4 entries left)
     * and before "cc", after the null chunk (2 left) */
    static const uint8_t ka[] = {0x06, 'a'}, kc[] = {0x0A, 'c', 'c'};
    size_t at[2] = {0, 0}, left[2] = {4, 2};
    for (size_t i = 0; i + 3 <= len; i++) {
      if (!at[0] && !memcmp(buf + i, ka, 2)) at[0] = i - 1;
      if (!memcmp(buf + i, kc, 3)) at[1] = i - 1;
    }
    cr_assert(at[0] && at[1], "chunk sizes not found");
    for (int k = 0; k < 2; k++) {
      for (unsigned sz = 0; sz < 256; sz++) {
        memcpy(m, buf, len);
        m[at[k]] = (uint8_t)sz;
        int32_t st = both(ca, cb, lr, m, len);
        if (sz == 0 || sz > left[k]) {
          cr_assert_eq(st, WIRE_E_COLLECTION, "chunk %d size %u", k, sz);
          cr_assert_eq(wire_ctx_error_offset(ca), at[k], "chunk %d size %u",
                       k, sz);
        }
      }
      /* the message cut after the chunk's header */
      cr_assert_neq(both(ca, cb, lr, buf, at[k]), WIRE_OK);
    }
    free(m);
    free(buf);
    wire_ctx_free(ca);
    wire_ctx_free(cb);
  }
}
