/* test_mem_list_front.c - a list's count and header in their usual form,
 * read by the compiled decoder without dec_list's general front: lists
 * of strings and of structs (list_usual) and of numbers
 * (wire__mdec_plist_list). Every byte of a message holding each kind,
 * set to each of its 256 values, and every prefix, decode the same way
 * (status, byte offset, arena bytes used, values) as with plans made
 * without the inline cases (wire__mdec_ds_ok off) and without the loop
 * of numbers (wire__mdec_lists_ok off), with and without compatible
 * mode. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"
#include "mem_damage.h"

/* (internal: off, plans made from then on have no inline cases, lists of
 * numbers take dec_list's general loop) */
extern bool wire__mdec_ds_ok;
extern bool wire__mdec_lists_ok;

static const char fdl[] =
    "package lf;\n"
    "message Pt [id=460] { int32 x = 1; string s = 2; }\n"
    "message Box [id=461] {\n"
    "  list<string> names = 1; list<int32> nums = 2; list<Pt> pts = 3;\n"
    "  list<int64> wide = 4; list<Pt> more = 5;\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t n, pad; } ustr;
typedef struct { int32_t x, pad; ustr s; } pt;
typedef struct {
  const ustr *names;
  uint32_t nnames, pad0;
  const int32_t *nums;
  uint32_t nnums, pad1;
  const pt *pts;
  uint32_t npts, pad2;
  const int64_t *wide;
  uint32_t nwide, pad3;
  const pt *more;
  uint32_t nmore, pad4;
} box;

static wire_ctx *make(int compatible, uint32_t *lr) {
  wire_ctx *c =
      mem_ctx(fdl, "lf.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t tp = mem_ctx_type(c, "lf.Pt"), tb = mem_ctx_type(c, "lf.Box");
  /* layouts: 0 box, 1 pt, 2 a string element */
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tb, sizeof(box), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, O(box, names), O(box, nnames), N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_ARRAY, O(box, nums), O(box, nnums), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_LIST, O(box, pts), O(box, npts), N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_ARRAY, O(box, wide), O(box, nwide), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_LIST, O(box, more), O(box, nmore), N, 1, 0},
      {WIRE_MEM_ROW_LAYOUT, tp, sizeof(pt), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(pt, x), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(pt, s), O(pt, s.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(ustr), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, 0, O(ustr, n), N, N, 0},
  };
  *lr = MEM_CTX_TABLE(c, rows);
  return c;
}

static uint8_t arena[1 << 14], arena2[1 << 14];

/* data[0..n) by ca with the inline cases and by cb without: the same
 * status and offset, or the same arena bytes used and values that encode
 * to the same bytes. */
static int32_t both(wire_ctx *ca, wire_ctx *cb, uint32_t lr,
                    const uint8_t *data, size_t n) {
  box o1, o2;
  size_t u1 = 0, u2 = 0;
  memset(&o1, 0xA5, sizeof o1);
  memset(&o2, 0xA5, sizeof o2);
  int32_t s1 = wire_mem_decode(ca, lr, data, n, &o1, arena, sizeof arena, &u1,
                               WIRE_MEM_COPY);
  wire__mdec_ds_ok = false;
  wire__mdec_lists_ok = false;
  int32_t s2 = wire_mem_decode(cb, lr, data, n, &o2, arena2, sizeof arena2,
                               &u2, WIRE_MEM_COPY);
  wire__mdec_ds_ok = true;
  wire__mdec_lists_ok = true;
  if (mem_damage_agree_ctx(ca, s1, cb, s2, n)) return s1;
  cr_assert_eq(u1, u2, "arena bytes used");
  /* (an empty list: the same pointer, the library's empty one) */
  cr_assert(o1.nnames || o1.names == o2.names);
  cr_assert(o1.nnums || o1.nums == o2.nums);
  cr_assert(o1.npts || o1.pts == o2.pts);
  cr_assert(o1.nwide || o1.wide == o2.wide);
  cr_assert(o1.nmore || o1.more == o2.more);
  mem_damage_same_values(ca, cb, lr, &o1, &o2);
  return s1;
}

Test(mem_list_front, every_byte_every_value_and_prefix) {
  static const ustr names[] = {{(const uint8_t *)"ab", 2, 0},
                               {(const uint8_t *)"", 0, 0},
                               {(const uint8_t *)"caf\xc3\xa9", 5, 0}};
  static const int32_t nums[] = {0, -1, 300, 1 << 20};
  static const int64_t wide[] = {1, -70000};
  static const pt pts[] = {{7, 0, {(const uint8_t *)"p", 1, 0}},
                           {-8, 0, {(const uint8_t *)"qq", 2, 0}}};
  for (int compatible = 0; compatible < 2; compatible++) {
    uint32_t lr;
    wire_ctx *ca = make(compatible, &lr), *cb = make(compatible, &lr);
    box v = {names, 3, 0, nums, 4, 0, pts, 2, 0, wide, 2, 0, pts, 1, 0};
    size_t len;
    box o;
    uint8_t *buf = mem_damage_round_trip(ca, lr, &v, &len, &o, arena, sizeof arena);
    cr_assert(o.nnames == 3 && o.names[2].n == 5 && o.names[1].n == 0);
    cr_assert(o.nnums == 4 && o.nums[1] == -1 && o.nums[3] == 1 << 20);
    cr_assert(o.nwide == 2 && o.wide[1] == -70000);
    cr_assert(o.npts == 2 && o.pts[1].x == -8 && o.pts[1].s.n == 2);
    cr_assert(o.nmore == 1 && o.more[0].x == 7);
    cr_assert_eq(both(ca, cb, lr, buf, len), WIRE_OK);
    mem_damage_every_value(both, ca, cb, lr, buf, len);
    free(buf);
    wire_ctx_free(ca);
    wire_ctx_free(cb);
  }
}
