/* evolve.c - the generated decoders reading another writer's TypeDefs
 * (run by run.py, built twice: as is, and with -DWIRE_GEN_NO_FALLBACK so
 * that the straight-line decoder must read the message itself).
 *
 * The writer is the code generated for evolve_writer.fdl (prefix fw), the
 * reader the code generated for ../fuzz/fuzz_gen.fdl (prefix fg): fields
 * added, removed, widened, narrowed and retyped, in the root, a nested
 * struct, a struct by pointer and a list of structs. For each root and
 * both string modes the reader's generated decoder must read the bytes -
 * twice, the second time through the cached field maps - to the value
 * wire_mem_decode reads (both encoded again through wire_mem_encode give
 * the same bytes), using as much of the arena, with the converted and
 * missing fields checked one by one. A narrowed value out of the reader's
 * range must be refused (WIRE_E_VALUE through the interpreter, or handed
 * over), and so must more skipped values than the node limit allows, at
 * every node limit around the values skipped (node_limits), and at every
 * depth limit the messages reach (depth_limits). With an argument DIR it also writes the messages as seeds of
 * fuzz_gen_decode (DIR/evolve_NN.bin: the mode byte, then the bytes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evolve_writer.wire.h"
#include "fuzz_gen.wire.h"

static uint8_t arena1[1 << 16], arena2[1 << 16];
static int failed;

#define CHECK(c, ...)                                                         \
  do {                                                                        \
    if (!(c)) {                                                               \
      printf("FAIL evolve: " __VA_ARGS__);                                    \
      printf("\n");                                                           \
      failed = 1;                                                             \
    }                                                                         \
  } while (0)

typedef union { fg_Inner i; fg_Outer o; fg_Holder h; } value;

static int32_t gen_decode(wire_ctx *ctx, const fg_wire *w, int which,
                          const uint8_t *p, size_t n, value *v, size_t *used,
                          uint32_t flags) {
  return which == 0 ? fg_Outer_decode(ctx, w, p, n, &v->o, arena1, sizeof arena1, used, flags)
         : which == 1 ? fg_Inner_decode(ctx, w, p, n, &v->i, arena1, sizeof arena1, used, flags)
                      : fg_Holder_decode(ctx, w, p, n, &v->h, arena1, sizeof arena1, used, flags);
}

static int str_is(fg_str s, const char *t) {
  return s.len == strlen(t) && (!s.len || !memcmp(s.ptr, t, s.len));
}

static void check_inner(const fg_Inner *i, int64_t a, const char *s) {
  CHECK(i->a == a, "Inner.a %d", (int)i->a);
  CHECK(str_is(i->s, s), "Inner.s");
}

static void check_outer(const fg_Outer *o) {
  CHECK(o->b == 1 && o->i8 == -8 && o->i16 == -1600, "Outer b/i8/i16");
  CHECK(o->i32 == 0, "Outer.i32 (not written) is %d", (int)o->i32);
  CHECK(o->i64 == -2000000000 && o->u32 == 4000000000u, "Outer i64 (written as int32) / u32");
  CHECK(o->oi == 0 && !o->has_oi, "Outer.oi (written as a string) is not zero");
  CHECK(str_is(o->s, "hello"), "Outer.s");
  CHECK(o->e == 2 && o->ts.seconds == 1700000000 && o->du.nanos == 7, "Outer e/ts/du");
  check_inner(&o->inner, 7, "seven");
  CHECK(o->pin != NULL, "Outer.pin is null");
  if (o->pin) check_inner(o->pin, 7, "seven");
  CHECK(o->items.count == 2, "Outer.items");
  if (o->items.count == 2) {
    check_inner(&o->items.items[0], 1, "one");
    check_inner(&o->items.items[1], -2, "");
    CHECK(o->items.items[1].has_o && o->items.items[1].o == -2, "Inner.o");
  }
  CHECK(o->names.count == 2 && str_is(o->names.items[1], "b\xc3\xa9"), "Outer.names");
}

/* wire_mem_encode's bytes of a decoded value, copied out. */
static uint8_t *mem_bytes(wire_ctx *ctx, uint32_t layout, const void *v, size_t *len) {
  const uint8_t *p;
  if (wire_mem_encode(ctx, layout, v, &p, len)) return NULL;
  uint8_t *c = malloc(*len ? *len : 1);
  if (c) memcpy(c, p, *len);
  return c;
}

static void read_both(wire_ctx *ctx, const fg_wire *w, int which, const uint8_t *p,
                      size_t n, uint32_t flags) {
  static const char *const names[] = {"Outer", "Inner", "Holder"};
  uint32_t layout = w->layout[which == 0 ? 1 : which == 1 ? 0 : 2];
  for (int round = 0; round < 2; round++) {
    value a, b;
    memset(&a, 0xA5, sizeof a);
    memset(&b, 0, sizeof b);
    size_t u1 = 0, u2 = 0;
    int32_t st = gen_decode(ctx, w, which, p, n, &a, &u1, flags);
    CHECK(st == WIRE_OK, "%s round %d: the generated decoder: %d %s", names[which], round,
          (int)st, wire_ctx_error_message(ctx));
    if (st) return;
    st = wire_mem_decode(ctx, layout, p, n, &b, arena2, sizeof arena2, &u2, flags);
    CHECK(st == WIRE_OK, "%s: wire_mem_decode: %s", names[which], wire_ctx_error_message(ctx));
    if (st) return;
    CHECK(u1 == u2, "%s: arena used %zu, wire_mem_decode %zu", names[which], u1, u2);
    size_t la = 0, lb = 0;
    uint8_t *ba = mem_bytes(ctx, layout, &a, &la), *bb = mem_bytes(ctx, layout, &b, &lb);
    CHECK(ba && bb && la == lb && !memcmp(ba, bb, la),
          "%s: the generated decoder read another value than wire_mem_decode", names[which]);
    free(ba);
    free(bb);
    if (which == 0) check_outer(&a.o);
    else if (which == 1) {
      check_inner(&a.i, 7, "seven");
      CHECK(a.i.has_o && a.i.o == 70, "Inner.o");
    } else {
      CHECK(a.h.outers.count == 1, "Holder.outers");
      if (a.h.outers.count == 1) check_outer(&a.h.outers.items[0]);
    }
  }
}

/* The depth limit at every value around the messages' depth: what the
 * generated decoder accepts, wire_mem_decode accepts; what it refuses, it
 * hands over (or, with the fallback, refuses as wire_mem_decode does) -
 * for the writer's TypeDefs (the field maps count depth as they go) and
 * for the reader's own (the bodies of bounded types check their deepest
 * level once, at their entry). */
static void depth_limits(wire_ctx *ctx, const fg_wire *w, int which, const uint8_t *p,
                         size_t n) {
  static const char *const names[] = {"Outer", "Inner", "Holder"};
  uint32_t layout = w->layout[which == 0 ? 1 : which == 1 ? 0 : 2];
  uint64_t saved = wire_ctx_get_limit(ctx, WIRE_LIMIT_DEPTH);
  value a;
  size_t u = 0, own_n = 0;
  if (wire_mem_decode(ctx, layout, p, n, &a, arena2, sizeof arena2, &u, WIRE_MEM_COPY)) {
    CHECK(0, "depth: %s: wire_mem_decode: %s", names[which], wire_ctx_error_message(ctx));
    return;
  }
  uint8_t *own = mem_bytes(ctx, layout, &a, &own_n);
  CHECK(own != NULL, "depth: %s: wire_mem_encode", names[which]);
  for (int mine = 0; mine < 2 && own; mine++) {
    const uint8_t *q = mine ? own : p;
    size_t qn = mine ? own_n : n;
    int accepted = 0;
    for (uint64_t lim = 1; lim <= 7; lim++) {
      wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH, lim);
      size_t u1 = 0, u2 = 0;
      int32_t sg = gen_decode(ctx, w, which, q, qn, &a, &u1, 0);
      int32_t sm = wire_mem_decode(ctx, layout, q, qn, &a, arena2, sizeof arena2, &u2, 0);
#ifdef WIRE_GEN_NO_FALLBACK
      CHECK(sg == WIRE_OK ? sm == WIRE_OK : sg == WIRE_E_UNSUPPORTED,
            "depth %d: %s (%s TypeDefs): generated %d, wire_mem_decode %d", (int)lim,
            names[which], mine ? "own" : "writer's", (int)sg, (int)sm);
#else
      CHECK(sg == sm, "depth %d: %s (%s TypeDefs): generated %d, wire_mem_decode %d",
            (int)lim, names[which], mine ? "own" : "writer's", (int)sg, (int)sm);
#endif
      accepted |= sm == WIRE_OK;
      CHECK(which == 1 || lim > 1 || sm != WIRE_OK, "depth 1: %s read", names[which]);
    }
    CHECK(accepted, "depth: %s not read at depth 7", names[which]);
  }
  free(own);
  wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH, saved);
}

/* The node limit at every value from 0 to past the values the message
 * skips (the writer's fields the reader lacks: wire_mem_decode reads each
 * as a node, R-LIMIT-10): the generated decoder reads the message at
 * exactly the limits wire_mem_decode does, and hands it over (or, with the
 * fallback, refuses it as wire_mem_decode does) below them. */
static void node_limits(wire_ctx *ctx, const fg_wire *w, int which, const uint8_t *p,
                        size_t n) {
  static const char *const names[] = {"Outer", "Inner", "Holder"};
  uint32_t layout = w->layout[which == 0 ? 1 : which == 1 ? 0 : 2];
  uint64_t saved = wire_ctx_get_limit(ctx, WIRE_LIMIT_NODES);
  int64_t least = -1;
  for (uint64_t lim = 0; lim <= 64; lim++) {
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, lim);
    value a;
    size_t u1 = 0, u2 = 0;
    int32_t sg = gen_decode(ctx, w, which, p, n, &a, &u1, 0);
    int32_t sm = wire_mem_decode(ctx, layout, p, n, &a, arena2, sizeof arena2, &u2, 0);
#ifdef WIRE_GEN_NO_FALLBACK
    CHECK(sg == WIRE_OK ? sm == WIRE_OK : sg == WIRE_E_UNSUPPORTED && sm != WIRE_OK,
          "nodes %d: %s: generated %d, wire_mem_decode %d", (int)lim, names[which],
          (int)sg, (int)sm);
#else
    CHECK(sg == sm, "nodes %d: %s: generated %d, wire_mem_decode %d", (int)lim,
          names[which], (int)sg, (int)sm);
#endif
    CHECK(sm == WIRE_OK || sm == WIRE_E_LIMIT, "nodes %d: %s: wire_mem_decode %d",
          (int)lim, names[which], (int)sm);
    if (sm == WIRE_OK && least < 0) least = (int64_t)lim;
    CHECK(sm == WIRE_OK || least < 0, "nodes %d: %s refused above %d", (int)lim,
          names[which], (int)least);
  }
  /* each message skips some of the writer's fields: the sweep crosses */
  CHECK(least > 0 && least < 64, "nodes: %s read from limit %d", names[which], (int)least);
  wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, saved);
}

int main(int argc, char **argv) {
  static const fw_str names[] = {{"ann", 3}, {"b\xc3\xa9", 3}};
  static const fw_str onames[] = {{"x", 1}, {NULL, 0}};
  static const int32_t arr[] = {1, -2, 300000};
  static const uint8_t flags[] = {1, 0, 1};
  static const int64_t li[] = {5, -6, INT64_C(1) << 40};
  static const int16_t more[] = {3, -4};
  fw_Inner in1 = {7, {"seven", 5}, 70, 1, {"more", 4}, 9, 1};
  fw_Inner items[2] = {{1, {"one", 3}, 0, 0, {"", 0}, 0, 0},
                       {-2, {"", 0}, -2, 1, {"x", 1}, 0, 0}};
  fw_Outer o;
  memset(&o, 0, sizeof o);
  o.b = 1; o.i8 = -8; o.i16 = -1600; o.i64 = -2000000000;
  o.u8 = 200; o.u16 = 60000; o.u32 = 4000000000u; o.u64 = UINT64_C(1) << 63;
  o.fi32 = -5; o.fu64 = 9; o.ti64 = -3; o.tu64 = 12345;
  o.f32 = 1.5f; o.f64 = -2.25; o.h = 0x3c00;
  o.s = (fw_str){"hello", 5};
  o.bin = (fw_bytes){(const uint8_t *)"\x00\x01\x02", 3};
  o.e = 2; o.inner = in1; o.pin = &in1;
  o.names = (fw_seq0){names, 2}; o.items = (fw_seq1){items, 2};
  o.arr = (fw_seq2){arr, 3}; o.flags = (fw_seq3){flags, 3}; o.li = (fw_seq4){li, 3};
  o.os = (fw_str){"opt", 3}; o.oi = (fw_str){"five", 4};
  o.d = 19000; o.ts = (wire_mem_time){1700000000, 500, 0};
  o.du = (wire_mem_time){-90, 7, 0}; o.onames = (fw_seq5){onames, 2};
  o.note = (fw_str){"a note \xe2\x82\xac", 10}; o.more = (fw_seq6){more, 2};
  o.when = (wire_mem_time){5, 6, 0}; o.ratio = 0.5; o.has_ratio = 1; o.big = 1u << 30;
  fw_Holder h = {{&o, 1}};

  wire_ctx *wc = wire_ctx_new(), *rc = wire_ctx_new();
  fw_wire ww;
  fg_wire rw;
  if (!wc || !rc) return 2;
  wire_ctx_set_option(wc, WIRE_OPT_COMPATIBLE, 1);
  wire_ctx_set_option(rc, WIRE_OPT_COMPATIBLE, 1);
  if (fw_register(wc, &ww) || fg_register(rc, &rw) || !rw.fast) {
    printf("FAIL evolve: register\n");
    return 1;
  }
  int seeds = 0;
  for (int which = 0; which < 3; which++) {
    const uint8_t *p;
    size_t n;
    int32_t st = which == 0 ? fw_Outer_encode(wc, &ww, &o, &p, &n)
                 : which == 1 ? fw_Inner_encode(wc, &ww, &in1, &p, &n)
                              : fw_Holder_encode(wc, &ww, &h, &p, &n);
    if (st) {
      printf("FAIL evolve: encode: %s\n", wire_ctx_error_message(wc));
      return 1;
    }
    uint8_t *bytes = malloc(n);
    if (!bytes) return 2;
    memcpy(bytes, p, n);
    depth_limits(rc, &rw, which, bytes, n);
    node_limits(rc, &rw, which, bytes, n);
    for (uint32_t copy = 0; copy < 2; copy++) {
      read_both(rc, &rw, which, bytes, n, copy ? WIRE_MEM_COPY : 0);
      if (argc == 2) {
        char path[4096];
        snprintf(path, sizeof path, "%s/evolve_%02d.bin", argv[1], seeds++);
        FILE *f = fopen(path, "wb");
        if (!f) return 2;
        fputc(1 | (int)copy << 1 | which << 2, f); /* compatible, copy, root */
        fwrite(bytes, 1, n, f);
        fclose(f);
      }
    }
    free(bytes);
  }
  /* a narrowed value out of the reader's range: refused */
  o.i8 = 300;
  const uint8_t *p;
  size_t n;
  if (fw_Outer_encode(wc, &ww, &o, &p, &n)) return 1;
  value a;
  size_t used = 0;
  int32_t st = fg_Outer_decode(rc, &rw, p, n, &a.o, arena1, sizeof arena1, &used, 0);
#ifdef WIRE_GEN_NO_FALLBACK
  CHECK(st == WIRE_E_UNSUPPORTED, "Outer.i8 = 300: not handed over (%d)", (int)st);
#else
  CHECK(st == WIRE_E_VALUE, "Outer.i8 = 300: not refused (%d)", (int)st);
#endif
  /* more values skipped than the node limit allows wire_mem_decode */
  o.i8 = -8;
  if (fw_Outer_encode(wc, &ww, &o, &p, &n)) return 1;
  wire_ctx_set_limit(rc, WIRE_LIMIT_NODES, 3);
  st = fg_Outer_decode(rc, &rw, p, n, &a.o, arena1, sizeof arena1, &used, 0);
  int32_t st2 = wire_mem_decode(rc, rw.layout[1], p, n, &a.o, arena1, sizeof arena1, &used, 0);
  CHECK(st2 != WIRE_OK, "wire_mem_decode skipped more values than the node limit");
#ifdef WIRE_GEN_NO_FALLBACK
  CHECK(st == WIRE_E_UNSUPPORTED, "node limit: not handed over (%d)", (int)st);
#else
  CHECK(st == st2, "node limit: %d, wire_mem_decode %d", (int)st, (int)st2);
#endif
  wire_ctx_free(wc);
  wire_ctx_free(rc);
  if (!failed) printf("evolve: ok\n");
  return failed;
}
