/* mapped.c - the field maps' run of bounded fields (run by run.py, built
 * as is and with -DWIRE_GEN_NO_FALLBACK, each also for x86-64-v3 when the
 * machine has BMI2).
 *
 * The reader is the code generated for mapped.fdl (prefix mr), whose
 * structs P0-P3 have bounded fields only: the generated field-map code
 * reads them as one run, checked once, while the writer's TypeDef lists
 * them in order, and hands the rest to the general walk at the first
 * other entry. The writer is the code generated for mapped_writer.fdl
 * (prefix mw): P0.a an int32 (widened in the run), P1 with a field more
 * (read after the run), P2 without d, P3 with b a string (skipped). Each
 * is read as a root (its body near the end of the input: the run from
 * the padded copy) and in lists (in place), whole and cut short at every
 * length: the generated decoder gives what wire_mem_decode gives - the
 * status and the values (in both modes; without the fallback it may hand
 * a message over, never read it otherwise). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mapped.wire.h"
#include "mapped_writer.wire.h"

static uint8_t arena1[1 << 14], arena2[1 << 14];
static int failed;
static long cases;

#define CHECK(c, ...) \
  do { if (!(c)) { printf("FAIL mapped: " __VA_ARGS__); printf("\n"); failed = 1; } } while (0)

typedef union { mr_P0 p0; mr_P1 p1; mr_P2 p2; mr_P3 p3; mr_L l; } value;

/* P0-P3 have the same members in the reader */
#define SAME_P(x, y) ((x).a == (y).a && (x).b == (y).b && (x).c == (y).c && \
                      (x).d == (y).d && (x).e == (y).e)

static int same(int which, const value *x, const value *y) {
  switch (which) {
  case 0: return SAME_P(x->p0, y->p0);
  case 1: return SAME_P(x->p1, y->p1);
  case 2: return SAME_P(x->p2, y->p2);
  case 3: return SAME_P(x->p3, y->p3);
  default: break;
  }
  const mr_L *a = &x->l, *b = &y->l;
  if (a->p0.count != b->p0.count || a->p1.count != b->p1.count ||
      a->p2.count != b->p2.count || a->p3.count != b->p3.count)
    return 0;
  for (uint32_t i = 0; i < a->p0.count; i++)
    if (!SAME_P(a->p0.items[i], b->p0.items[i])) return 0;
  for (uint32_t i = 0; i < a->p1.count; i++)
    if (!SAME_P(a->p1.items[i], b->p1.items[i])) return 0;
  for (uint32_t i = 0; i < a->p2.count; i++)
    if (!SAME_P(a->p2.items[i], b->p2.items[i])) return 0;
  for (uint32_t i = 0; i < a->p3.count; i++)
    if (!SAME_P(a->p3.items[i], b->p3.items[i])) return 0;
  return 1;
}

static int32_t gen_decode(wire_ctx *c, const mr_wire *w, int which, const uint8_t *p,
                          size_t n, value *v, size_t *used) {
  switch (which) {
  case 0: return mr_P0_decode(c, w, p, n, &v->p0, arena1, sizeof arena1, used, 0);
  case 1: return mr_P1_decode(c, w, p, n, &v->p1, arena1, sizeof arena1, used, 0);
  case 2: return mr_P2_decode(c, w, p, n, &v->p2, arena1, sizeof arena1, used, 0);
  case 3: return mr_P3_decode(c, w, p, n, &v->p3, arena1, sizeof arena1, used, 0);
  default: return mr_L_decode(c, w, p, n, &v->l, arena1, sizeof arena1, used, 0);
  }
}

/* The message (whole: `whole`) at the end of a buffer of its own size. */
static void one(wire_ctx *c, const mr_wire *w, int which, const uint8_t *msg, size_t n,
                int whole) {
  uint8_t *b = malloc(n ? n : 1);
  if (!b) exit(2);
  memcpy(b, msg, n);
  value v1, v2;
  memset(&v1, 0xA5, sizeof v1);
  memset(&v2, 0x5A, sizeof v2);
  size_t u1 = 0, u2 = 0;
  int32_t sg = gen_decode(c, w, which, b, n, &v1, &u1);
  int32_t sm = wire_mem_decode(c, w->layout[which], b, n, &v2, arena2, sizeof arena2, &u2, 0);
#ifdef WIRE_GEN_NO_FALLBACK
  CHECK(sg == WIRE_OK ? sm == WIRE_OK : sg == WIRE_E_UNSUPPORTED,
        "type %d, %zu bytes: generated %d, wire_mem_decode %d", which, n, (int)sg, (int)sm);
  CHECK(!whole || sg == WIRE_OK, "type %d: the generated code handed a whole message over",
        which);
#else
  CHECK(sg == sm, "type %d, %zu bytes: generated %d, wire_mem_decode %d", which, n, (int)sg,
        (int)sm);
#endif
  CHECK(!whole || sm == WIRE_OK, "type %d: wire_mem_decode refused the whole message: %s",
        which, wire_ctx_error_message(c));
  CHECK(whole || sm != WIRE_OK, "type %d: %zu bytes (cut short) read", which, n);
  if (sg == WIRE_OK && sm == WIRE_OK)
    CHECK(same(which, &v1, &v2) && u1 == u2,
          "type %d, %zu bytes: the generated decoder read other values", which, n);
  free(b);
  cases++;
}

int main(void) {
  wire_ctx *wc = wire_ctx_new(), *rc = wire_ctx_new();
  mw_wire ww;
  mr_wire rw;
  if (!wc || !rc) return 2;
  wire_ctx_set_option(wc, WIRE_OPT_COMPATIBLE, 1);
  wire_ctx_set_option(rc, WIRE_OPT_COMPATIBLE, 1);
  if (mw_register(wc, &ww) || mr_register(rc, &rw) || !rw.fast) {
    printf("FAIL mapped: register\n");
    return 1;
  }
  /* values of every varint length, the widest last */
  mw_P0 p0[5];
  mw_P1 p1[5];
  mw_P2 p2[5];
  mw_P3 p3[5];
  static const int32_t s32[5] = {0, -1, 300, -70000, INT32_MIN};
  static const uint32_t u32[5] = {0, 127, 128, 1u << 21, UINT32_MAX};
  static const int64_t s64[5] = {1, -64, 1 << 20, -(INT64_C(1) << 40), INT64_MIN};
  for (int i = 0; i < 5; i++) {
    p0[i] = (mw_P0){s32[4 - i], s32[i], u32[i], s32[(i + 2) % 5], (uint8_t)(i & 1)};
    p1[i] = (mw_P1){s64[i], s32[i], u32[4 - i], s32[(i + 1) % 5], 1, s32[(i + 3) % 5]};
    p2[i] = (mw_P2){s64[4 - i], s32[i], u32[i], (uint8_t)(i & 1)};
    p3[i] = (mw_P3){s64[i], {"text", 4}, u32[i], s32[4 - i], 1};
  }
  mw_L l = {{p0, 5}, {p1, 5}, {p2, 5}, {p3, 5}};
  for (int which = 0; which < 5; which++) {
    for (int i = 0; i < (which < 4 ? 5 : 1); i++) {
      const uint8_t *p;
      size_t n;
      int32_t st = which == 0 ? mw_P0_encode(wc, &ww, &p0[i], &p, &n)
                   : which == 1 ? mw_P1_encode(wc, &ww, &p1[i], &p, &n)
                   : which == 2 ? mw_P2_encode(wc, &ww, &p2[i], &p, &n)
                   : which == 3 ? mw_P3_encode(wc, &ww, &p3[i], &p, &n)
                                : mw_L_encode(wc, &ww, &l, &p, &n);
      if (st) {
        printf("FAIL mapped: encode: %s\n", wire_ctx_error_message(wc));
        return 1;
      }
      uint8_t *msg = malloc(n);
      if (!msg) return 2;
      memcpy(msg, p, n);
      one(rc, &rw, which, msg, n, 1);
      for (size_t cut = 0; cut < n; cut++) one(rc, &rw, which, msg, cut, 0);
      if (which < 4) {
        /* the values: the reader's members from the writer's */
        value v;
        size_t u = 0;
        if (gen_decode(rc, &rw, which, msg, n, &v, &u) == WIRE_OK) {
          if (which == 0)
            CHECK(v.p0.a == p0[i].a && v.p0.b == p0[i].b && v.p0.c == p0[i].c &&
                  v.p0.d == p0[i].d && v.p0.e == p0[i].e, "P0 %d: values", i);
          else if (which == 1)
            CHECK(v.p1.a == p1[i].a && v.p1.b == p1[i].b && v.p1.c == p1[i].c &&
                  v.p1.d == p1[i].d && v.p1.e == p1[i].e, "P1 %d: values", i);
          else if (which == 2)
            CHECK(v.p2.a == p2[i].a && v.p2.b == p2[i].b && v.p2.c == p2[i].c &&
                  v.p2.d == 0 && v.p2.e == p2[i].e, "P2 %d: values", i);
          else
            CHECK(v.p3.a == p3[i].a && v.p3.b == 0 && v.p3.c == p3[i].c &&
                  v.p3.d == p3[i].d && v.p3.e == p3[i].e, "P3 %d: values", i);
        }
      }
      free(msg);
    }
  }
  wire_ctx_free(wc);
  wire_ctx_free(rc);
  if (!failed) printf("mapped: ok (%ld messages)\n", cases);
  return failed;
}
