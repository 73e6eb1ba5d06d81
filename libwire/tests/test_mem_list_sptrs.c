/* test_mem_list_sptrs.c - lists of struct pointers whose items carry a
 * reference / null flag (list_sptrs in mem_dec.c: a header of one type
 * with HAS_NULL or TRACKING, read without dec_list's general front and
 * loop). Every byte of a message holding two such lists, set to each of
 * its 256 values, every prefix and every depth limit decode the same way
 * (status, byte offset, arena bytes used, shared items, values) as with
 * plans made without the inline cases (wire__mdec_ds_ok off), with and
 * without reference tracking and compatible mode. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"
#include "mem_damage.h"

/* (internal: off, plans made from then on have no inline cases) */
extern bool wire__mdec_ds_ok;

static const char fdl[] =
    "package ls;\n"
    "message Pt [id=470] { int32 x = 1; string s = 2; }\n"
    "message Bag [id=471] {\n"
    "  list<optional ref Pt> pts = 1; list<optional ref Pt> more = 2;\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t n, pad; } ustr;
typedef struct { int32_t x, pad; ustr s; } pt;
typedef struct {
  const pt *const *pts;
  uint32_t npts, pad0;
  const pt *const *more;
  uint32_t nmore, pad1;
} bag;

static wire_ctx *make(int tracking, int compatible, uint32_t *lr) {
  wire_ctx *c = mem_ctx(fdl, "ls.fdl",
                        MEM_OPTS(WIRE_OPT_REF_TRACKING, tracking,
                                 WIRE_OPT_COMPATIBLE, compatible));
  uint32_t tp = mem_ctx_type(c, "ls.Pt"), tb = mem_ctx_type(c, "ls.Bag");
  /* layouts: 0 bag, 1 pt, 2 a pt pointer element */
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tb, sizeof(bag), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, O(bag, pts), O(bag, npts), N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_LIST, O(bag, more), O(bag, nmore), N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, tp, sizeof(pt), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(pt, x), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(pt, s), O(pt, s.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(void *), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, 1, 0},
  };
  *lr = MEM_CTX_TABLE(c, rows);
  return c;
}

static uint8_t arena[1 << 13], arena2[1 << 13];

/* The items of a list decoded: their pads untouched by the decoder read
 * zero (each image cleared; the arena was filled with 0xA5 before), and
 * which of them are one shared item. */
static void items_ok(const pt *const *a, const pt *const *b, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    cr_assert_eq(a[i] == NULL, b[i] == NULL, "item %u null one way only", i);
    if (a[i]) cr_assert(a[i]->pad == 0 && a[i]->s.pad == 0, "image not clear");
    for (uint32_t j = 0; j < i; j++)
      cr_assert_eq(a[i] && a[i] == a[j], b[i] && b[i] == b[j],
                   "items %u and %u shared one way only", j, i);
  }
}

/* data[0..n) by ca with the inline cases and by cb without: the same
 * status and offset, or the same arena bytes used, the same shared items
 * and values that encode to the same bytes. */
static int32_t both(wire_ctx *ca, wire_ctx *cb, uint32_t lr,
                    const uint8_t *data, size_t n) {
  bag o1, o2;
  size_t u1 = 0, u2 = 0;
  memset(&o1, 0xA5, sizeof o1);
  memset(&o2, 0xA5, sizeof o2);
  memset(arena, 0xA5, sizeof arena);
  memset(arena2, 0xA5, sizeof arena2);
  int32_t s1 = wire_mem_decode(ca, lr, data, n, &o1, arena, sizeof arena, &u1,
                               WIRE_MEM_COPY);
  wire__mdec_ds_ok = false;
  int32_t s2 = wire_mem_decode(cb, lr, data, n, &o2, arena2, sizeof arena2,
                               &u2, WIRE_MEM_COPY);
  wire__mdec_ds_ok = true;
  if (mem_damage_agree_ctx(ca, s1, cb, s2, n)) return s1;
  cr_assert_eq(u1, u2, "arena bytes used %zu %zu", u1, u2);
  cr_assert(o1.npts == o2.npts && o1.nmore == o2.nmore);
  items_ok(o1.pts, o2.pts, o1.npts);
  items_ok(o1.more, o2.more, o1.nmore);
  mem_damage_same_values(ca, cb, lr, &o1, &o2);
  return s1;
}

Test(mem_list_sptrs, every_byte_every_value_prefix_and_depth) {
  static const pt a = {7, 0, {(const uint8_t *)"ab", 2, 0}},
                  b = {-300, 0, {(const uint8_t *)"", 0, 0}},
                  c = {1 << 20, 0, {(const uint8_t *)"caf\xc3\xa9", 5, 0}};
  static const pt *const pts[] = {&a, &b, &a, NULL, &c};
  /* (each list with a null: both take list_sptrs without tracking too.
   * A list of pointers without flags takes dec_items, which allocates
   * its images before their strings: with strings copied it uses fewer
   * arena bytes than the general loop, 229 against 232 here) */
  static const pt *const more[] = {&c, NULL, &b};
  for (int mode = 0; mode < 4; mode++) {
    int tracking = mode & 1, compatible = mode >> 1;
    uint32_t lr;
    wire_ctx *ca = make(tracking, compatible, &lr),
             *cb = make(tracking, compatible, &lr);
    bag v = {pts, 5, 0, more, 3, 0};
    size_t len;
    bag o;
    uint8_t *buf = mem_damage_round_trip(ca, lr, &v, &len, &o, arena, sizeof arena);
    cr_assert(o.npts == 5 && o.pts[3] == NULL && o.pts[1]->x == -300 &&
              o.pts[4]->s.n == 5 && o.nmore == 3 && o.more[0]->x == 1 << 20);
    /* (shared items: one image where references are tracked) */
    cr_assert_eq(o.pts[0] == o.pts[2], tracking != 0);
    cr_assert_eq(o.more[0] == o.pts[4], tracking != 0);
    cr_assert_eq(both(ca, cb, lr, buf, len), WIRE_OK);
    mem_damage_every_value(both, ca, cb, lr, buf, len);
    /* every depth limit up to what the message needs: the first list
     * leaves the depth as it found it for the second's items */
    int32_t last = -1;
    for (int32_t lim = 1; lim <= 4; lim++) {
      cr_assert_eq(wire_ctx_set_limit(ca, WIRE_LIMIT_DEPTH, lim), WIRE_OK);
      cr_assert_eq(wire_ctx_set_limit(cb, WIRE_LIMIT_DEPTH, lim), WIRE_OK);
      last = both(ca, cb, lr, buf, len);
      if (lim == 2) cr_assert_neq(last, WIRE_OK, "items at depth 3");
    }
    cr_assert_eq(last, WIRE_OK);
    free(buf);
    wire_ctx_free(ca);
    wire_ctx_free(cb);
  }
}
