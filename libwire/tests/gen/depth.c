/* depth.c - the generated decoders under the depth limit (run by run.py,
 * built twice: as is, and with -DWIRE_GEN_NO_FALLBACK so that the
 * straight-line decoder must read the message itself or hand it over).
 *
 * The code is generated for depth.fdl (prefix dp): a chain of 1 to 6
 * Nodes (a type on a cycle: its bodies count depth as they go) holding
 * Leafs (bounded: their bodies check the deepest level they reach once),
 * under a Top. For both modes and every depth limit from 1 to 20, what
 * the generated decoder accepts wire_mem_decode accepts, and what it does
 * not it hands over (or, with the fallback, refuses as wire_mem_decode
 * does); every message is read straight at some limit. The same for
 * WIRE_LIMIT_MEM_DECODE over a Top of many Leafs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "depth.wire.h"

static uint8_t arena1[1 << 16], arena2[1 << 16];

int main(void) {
  static const dp_str xs[] = {{"p", 1}, {"q", 1}};
  dp_Leaf leaf = {5, {xs, 2}};
  dp_Node nodes[6];
  const dp_Node *ptrs[6];
  for (int i = 0; i < 6; i++) ptrs[i] = &nodes[i];
  for (int i = 5; i >= 0; i--) {
    nodes[i].v = i;
    nodes[i].leaf = leaf;
    nodes[i].kids = i == 5 ? (dp_seq1){NULL, 0} : (dp_seq1){&ptrs[i + 1], 1};
  }
  int failed = 0;
  for (int first = 0; first < 6; first++) {
    dp_Top top = {nodes[first], {&leaf, 1}};
    for (int mode = 0; mode < 2; mode++) {
      wire_ctx *c = wire_ctx_new();
      dp_wire w;
      const uint8_t *p;
      size_t n;
      if (!c || wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, mode) || dp_register(c, &w) ||
          !w.fast || dp_Top_encode(c, &w, &top, &p, &n)) {
        printf("FAIL depth: register / encode\n");
        return 1;
      }
      uint8_t *b = malloc(n);
      if (!b) return 2;
      memcpy(b, p, n);
      int straight = 0;
      for (uint64_t lim = 1; lim <= 20; lim++) {
        dp_Top o1, o2;
        size_t u1 = 0, u2 = 0;
        wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, lim);
        int32_t sg = dp_Top_decode(c, &w, b, n, &o1, arena1, sizeof arena1, &u1, WIRE_MEM_COPY);
        int32_t sm = wire_mem_decode(c, w.layout[2], b, n, &o2, arena2, sizeof arena2, &u2,
                                     WIRE_MEM_COPY);
#ifdef WIRE_GEN_NO_FALLBACK
        int ok = sg == WIRE_OK ? sm == WIRE_OK : sg == WIRE_E_UNSUPPORTED;
        straight |= sg == WIRE_OK;
#else
        int ok = sg == sm;
        straight |= sg == WIRE_OK;
#endif
        if (!ok) {
          printf("FAIL depth: %d nodes, mode %d, limit %d: generated %d, wire_mem_decode %d\n",
                 6 - first, mode, (int)lim, (int)sg, (int)sm);
          failed = 1;
        }
        if (lim == 1 && sm == WIRE_OK) {
          printf("FAIL depth: read at depth limit 1\n");
          failed = 1;
        }
      }
      if (!straight) {
        printf("FAIL depth: %d nodes, mode %d: never read\n", 6 - first, mode);
        failed = 1;
      }
      free(b);
      wire_ctx_free(c);
    }
  }
  /* WIRE_LIMIT_MEM_DECODE: a Top of 100,000 Leafs takes more arena than
   * 1 MiB; at limit 0 the generated decoder refuses it as wire_mem_decode
   * does (or hands it over), at the default both read it */
  {
    enum { K = 100000 };
    dp_Leaf *many = malloc(K * sizeof *many);
    size_t cap = (size_t)64 << 20;
    uint8_t *a1 = malloc(cap), *a2 = malloc(cap);
    wire_ctx *c = wire_ctx_new();
    dp_wire w;
    const uint8_t *p;
    size_t n;
    if (!many || !a1 || !a2 || !c) return 2;
    for (int i = 0; i < K; i++) many[i] = (dp_Leaf){i, {xs, 2}};
    dp_Top top = {nodes[5], {many, K}};
    if (dp_register(c, &w) || !w.fast || dp_Top_encode(c, &w, &top, &p, &n)) {
      printf("FAIL depth: register / encode of %d leaves\n", K);
      return 1;
    }
    uint8_t *b = malloc(n);
    if (!b) return 2;
    memcpy(b, p, n);
    for (uint64_t per = 0; per <= 512; per += 512) {
      dp_Top o1, o2;
      size_t u1 = 0, u2 = 0;
      wire_ctx_set_limit(c, WIRE_LIMIT_MEM_DECODE, per);
      int32_t sg = dp_Top_decode(c, &w, b, n, &o1, a1, cap, &u1, WIRE_MEM_COPY);
      int32_t sm = wire_mem_decode(c, w.layout[2], b, n, &o2, a2, cap, &u2, WIRE_MEM_COPY);
      int want = per ? WIRE_OK : WIRE_E_LIMIT;
#ifdef WIRE_GEN_NO_FALLBACK
      int ok = sm == want && (sg == want || (!per && sg == WIRE_E_UNSUPPORTED));
#else
      int ok = sm == want && sg == want;
#endif
      if (!ok || (sm == WIRE_OK && (u1 != u2 || u2 <= WIRE_MEM_DECODE_BASE))) {
        printf("FAIL depth: %d leaves (%zu bytes) at WIRE_LIMIT_MEM_DECODE %d: "
               "generated %d, wire_mem_decode %d (%zu / %zu arena bytes)\n", K, n,
               (int)per, (int)sg, (int)sm, u1, u2);
        failed = 1;
      }
    }
    free(b);
    free(a1);
    free(a2);
    free(many);
    wire_ctx_free(c);
  }
  if (!failed) printf("depth: ok\n");
  return failed;
}
