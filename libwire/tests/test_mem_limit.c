/* test_mem_limit.c - WIRE_LIMIT_MEM_DECODE: the arena bytes one
 * wire_mem_decode may take per input byte (beyond WIRE_MEM_DECODE_BASE).
 * A compatible-mode writer whose struct has one bool field sends each
 * list item as one byte; the reader's layout of the same type is an image
 * of BIG bytes, so every input byte asks for hundreds of arena bytes. The
 * default refuses that with WIRE_E_LIMIT at the list's count (an offset
 * inside the input); a limit one below what the payload takes refuses it,
 * the limit it takes accepts it; an arena one byte short gives
 * WIRE_E_BUFFER_FULL and the size needed. The same through a list of
 * struct pointers (their images allocated at once) and a struct pointer
 * field per item (allocated one by one). */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"

#define BIG 4096u /* bytes of the reader's image of one item */
#define ITEMS 5000u

static const char fdl[] =
    "package a;\n"
    "message S [id=301] { bool b = 1; }\n"
    "message M [id=302] { list<S> items = 1; }\n"
    "message P [id=303] { S s = 1; }\n"
    "message Q [id=304] { list<P> ps = 1; }\n";

typedef struct { uint8_t b; } ws_t;                  /* the writer's S */
typedef struct { const ws_t *items; uint32_t n; } wm_t; /* its M */
typedef struct { uint8_t b; uint8_t rest[BIG - 1]; } rs_t; /* the reader's */
typedef struct { const rs_t *items; uint32_t n; } rm_t;
typedef struct { const rs_t *const *items; uint32_t n; } rmp_t;
typedef struct { const rs_t *s; } rp_t;
typedef struct { const rp_t *ps; uint32_t n; } rq_t;

static wire_ctx *ctx_new(void) {
  return mem_ctx(fdl, "a.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
}

/* ITEMS items of M (or of Q, each a P of one S) as the small writer
 * sends them, in malloc'd memory: *len bytes. */
static uint8_t *payload(int nested, size_t *len) {
  wire_ctx *c = ctx_new();
  uint32_t ls, lm, lp, lq;
  int32_t st =
      wire_mem_layout_new(c, mem_ctx_type(c, "a.S"), sizeof(ws_t), &ls);
  st |= wire_mem_layout_field(c, ls, 0, WIRE_MEM_BOOL, 0, N, N, N);
  static ws_t items[ITEMS];
  static struct { const ws_t *s; } ps[ITEMS];
  for (uint32_t i = 0; i < ITEMS; i++) {
    items[i].b = i & 1;
    ps[i].s = &items[i];
  }
  const uint8_t *p;
  if (!nested) {
    st |= wire_mem_layout_new(c, mem_ctx_type(c, "a.M"), sizeof(wm_t), &lm);
    st |= wire_mem_layout_field(c, lm, 0, WIRE_MEM_LIST, O(wm_t, items),
                                O(wm_t, n), N, ls);
    cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
    wm_t v = {items, ITEMS};
    cr_assert_eq(wire_mem_encode(c, lm, &v, &p, len), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
  } else {
    typedef struct { const void *ps; uint32_t n; } wq_t;
    st |= wire_mem_layout_new(c, mem_ctx_type(c, "a.P"), sizeof ps[0], &lp);
    st |= wire_mem_layout_field(c, lp, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, ls);
    st |= wire_mem_layout_new(c, mem_ctx_type(c, "a.Q"), sizeof(wq_t), &lq);
    st |= wire_mem_layout_field(c, lq, 0, WIRE_MEM_LIST, O(wq_t, ps),
                                O(wq_t, n), N, lp);
    cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
    wq_t v = {ps, ITEMS};
    cr_assert_eq(wire_mem_encode(c, lq, &v, &p, len), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
  }
  uint8_t *b = malloc(*len);
  cr_assert_not_null(b);
  memcpy(b, p, *len);
  wire_ctx_free(c);
  return b;
}

/* The reader: its S an image of BIG bytes; the root layout of M read as
 * inline items (form 0), as struct pointers (1), or of Q (2). */
static wire_ctx *reader(int form, uint32_t *root) {
  wire_ctx *c = ctx_new();
  uint32_t ls, le, lp;
  int32_t st =
      wire_mem_layout_new(c, mem_ctx_type(c, "a.S"), sizeof(rs_t), &ls);
  st |= wire_mem_layout_field(c, ls, 0, WIRE_MEM_BOOL, O(rs_t, b), N, N, N);
  if (form == 0) {
    st |= wire_mem_layout_new(c, mem_ctx_type(c, "a.M"), sizeof(rm_t), root);
    st |= wire_mem_layout_field(c, *root, 0, WIRE_MEM_LIST, O(rm_t, items),
                                O(rm_t, n), N, ls);
  } else if (form == 1) {
    st |= wire_mem_layout_new(c, WIRE_MEM_ELEMENT, sizeof(void *), &le);
    st |= wire_mem_layout_field(c, le, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, ls);
    st |= wire_mem_layout_new(c, mem_ctx_type(c, "a.M"), sizeof(rmp_t), root);
    st |= wire_mem_layout_field(c, *root, 0, WIRE_MEM_LIST, O(rmp_t, items),
                                O(rmp_t, n), N, le);
  } else {
    st |= wire_mem_layout_new(c, mem_ctx_type(c, "a.P"), sizeof(rp_t), &lp);
    st |= wire_mem_layout_field(c, lp, 0, WIRE_MEM_STRUCT_PTR, O(rp_t, s), N,
                                N, ls);
    st |= wire_mem_layout_new(c, mem_ctx_type(c, "a.Q"), sizeof(rq_t), root);
    st |= wire_mem_layout_field(c, *root, 0, WIRE_MEM_LIST, O(rq_t, ps),
                                O(rq_t, n), N, lp);
  }
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, *root), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  return c;
}

static union { rm_t m; rmp_t mp; rq_t q; } out;

/* The arena bytes the payload takes past `from` (no limit in the way). */
static size_t taken(wire_ctx *c, uint32_t root, const uint8_t *b, size_t len,
                    uint8_t *arena, size_t cap, size_t from) {
  uint64_t was = wire_ctx_get_limit(c, WIRE_LIMIT_MEM_DECODE);
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, UINT64_MAX),
               WIRE_OK);
  size_t used = from;
  cr_assert_eq(wire_mem_decode(c, root, b, len, &out, arena, cap, &used, 0),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, was);
  return used - from;
}

Test(mem_limit, default_and_set_get) {
  wire_ctx *c = wire_ctx_new();
  cr_assert_eq(wire_ctx_get_limit(c, WIRE_LIMIT_MEM_DECODE), 512);
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, 0), WIRE_OK);
  cr_assert_eq(wire_ctx_get_limit(c, WIRE_LIMIT_MEM_DECODE), 0);
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, UINT64_MAX),
               WIRE_OK);
  cr_assert_eq(wire_ctx_get_limit(c, WIRE_LIMIT_MEM_DECODE), UINT64_MAX);
  /* the limits before it keep their numbers */
  cr_assert_eq(WIRE_LIMIT_TYPEDEF_CACHE, 9);
  cr_assert_eq(WIRE_LIMIT_MEM_DECODE, 10);
  cr_assert_eq(WIRE_LIMIT_TYPEDEF_CACHE_BYTES, 11);
  cr_assert_eq(wire_ctx_set_limit(c, 12, 1), WIRE_E_ARG);
  wire_ctx_free(c);
}

/* The payload's amplification refused by default, at the list's count,
 * and accepted from the limit it takes on (and one below: refused). */
static void refused_then_accepted(int form) {
  size_t len;
  uint8_t *b = payload(form == 2, &len);
  uint32_t root;
  wire_ctx *c = reader(form, &root);
  size_t cap = (size_t)ITEMS * (BIG + 64) + 4096;
  uint8_t *arena = malloc(cap);
  cr_assert_not_null(arena);
  size_t need = taken(c, root, b, len, arena, cap, 0);
  cr_assert_gt(need, 512 * len + WIRE_MEM_DECODE_BASE,
               "%zu arena bytes for %zu input bytes", need, len);

  /* the default: WIRE_E_LIMIT however large the arena */
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, root, b, len, &out, arena, cap, &used, 0),
               WIRE_E_LIMIT);
  uint64_t off = wire_ctx_error_offset(c);
  cr_assert_lt(off, len);
  cr_assert(strstr(wire_ctx_error_message(c), "WIRE_LIMIT_MEM_DECODE"), "%s",
            wire_ctx_error_message(c));
  if (form != 2) {
    /* at the list's count (ITEMS as a varuint32) for the items; at the
     * first item (one byte each, the payload's last ITEMS) for the images
     * the pointers point to, all allocated there */
    static const uint8_t count[] = {0x88, 0x27};
    cr_assert_eq(ITEMS, 0x08 | 0x27 << 7);
    size_t at = len - ITEMS;
    if (form == 0) {
      while (at > 0 && memcmp(b + at, count, 2)) at--;
      cr_assert_gt(at, 0);
    }
    cr_assert_eq(off, at, "refused at byte %llu of %zu",
                 (unsigned long long)off, len);
  } else {
    /* at an item past the budget (they are allocated one by one), not
     * at the start */
    cr_assert_gt(off, len / 4);
  }

  /* the smallest limit that takes it, and one below */
  size_t per = (need - WIRE_MEM_DECODE_BASE + len - 1) / len;
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, per - 1), WIRE_OK);
  used = 0;
  cr_assert_eq(wire_mem_decode(c, root, b, len, &out, arena, cap, &used, 0),
               WIRE_E_LIMIT, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, per), WIRE_OK);
  used = 0;
  cr_assert_eq(wire_mem_decode(c, root, b, len, &out, arena, cap, &used, 0),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert_eq(used, need);
  if (form == 0) {
    cr_assert_eq(out.m.n, ITEMS);
    for (uint32_t i = 0; i < ITEMS; i++) cr_assert_eq(out.m.items[i].b, i & 1);
  } else if (form == 1) {
    cr_assert_eq(out.mp.n, ITEMS);
    for (uint32_t i = 0; i < ITEMS; i++)
      cr_assert_eq(out.mp.items[i]->b, i & 1);
  } else {
    cr_assert_eq(out.q.n, ITEMS);
    for (uint32_t i = 0; i < ITEMS; i++) cr_assert_eq(out.q.ps[i].s->b, i & 1);
  }

  /* the budget counts from the caller's *arena_used: the same limit
   * takes the payload after a root image the caller placed */
  size_t from = 4096;
  size_t need2 = taken(c, root, b, len, arena, cap, from);
  cr_assert_leq(need2, need + 8);
  if (need2 <= per * len + WIRE_MEM_DECODE_BASE) {
    used = from;
    cr_assert_eq(wire_mem_decode(c, root, b, len, &out, arena, cap, &used, 0),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(used, from + need2);
  }

  /* under the limit, an arena one byte short: WIRE_E_BUFFER_FULL and the
   * size needed (a lower bound, more than the arena) */
  uint8_t *exact = malloc(need);
  cr_assert_not_null(exact);
  used = 0;
  cr_assert_eq(wire_mem_decode(c, root, b, len, &out, exact, need - 1, &used,
                               0), WIRE_E_BUFFER_FULL);
  cr_assert(used > need - 1 && used <= need, "%zu reported, %zu taken", used,
            need);
  cr_assert_lt(wire_ctx_error_offset(c), len);
  used = 0;
  cr_assert_eq(wire_mem_decode(c, root, b, len, &out, exact, need, &used, 0),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert_eq(used, need);
  free(exact);
  free(arena);
  free(b);
  wire_ctx_free(c);
}

Test(mem_limit, inline_items) { refused_then_accepted(0); }
Test(mem_limit, struct_pointer_items) { refused_then_accepted(1); }
Test(mem_limit, struct_pointer_fields) { refused_then_accepted(2); }

/* The limit is on what the decode takes, not on the arena given: an
 * arena too small for a payload over the limit gives WIRE_E_LIMIT (a
 * larger arena would not help), and a message the base covers decodes
 * at limit 0. */
Test(mem_limit, limit_before_arena_size) {
  size_t len;
  uint8_t *b = payload(0, &len);
  uint32_t root;
  wire_ctx *c = reader(0, &root);
  static uint8_t small[16384];
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, root, b, len, &out, small, sizeof small,
                               &used, 0), WIRE_E_LIMIT);
  cr_assert_eq(used, 0, "not changed by WIRE_E_LIMIT");
  /* a few items fit the base whatever the limit */
  size_t len2;
  wire_ctx *w = ctx_new();
  uint32_t ls, lm;
  int32_t st =
      wire_mem_layout_new(w, mem_ctx_type(w, "a.S"), sizeof(ws_t), &ls);
  st |= wire_mem_layout_field(w, ls, 0, WIRE_MEM_BOOL, 0, N, N, N);
  st |= wire_mem_layout_new(w, mem_ctx_type(w, "a.M"), sizeof(wm_t), &lm);
  st |= wire_mem_layout_field(w, lm, 0, WIRE_MEM_LIST, O(wm_t, items),
                              O(wm_t, n), N, ls);
  cr_assert_eq(st, 0);
  ws_t three[3] = {{1}, {0}, {1}};
  wm_t v = {three, 3};
  const uint8_t *p;
  cr_assert_eq(wire_mem_encode(w, lm, &v, &p, &len2), WIRE_OK);
  cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, 0), WIRE_OK);
  used = 0;
  cr_assert_eq(wire_mem_decode(c, root, p, len2, &out, small, sizeof small,
                               &used, 0), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_eq(out.m.n, 3);
  cr_assert_eq(out.m.items[2].b, 1);
  wire_ctx_free(w);
  free(b);
  wire_ctx_free(c);
}
