/* mem_orders.c - instructions per wire_mem_decode of one Order of the
 * Kotlin binding's order graph (bindings/kotlin/src/test/orders.fdl):
 * compatible mode with reference tracking, so the decoder's general paths
 * (reference flags, struct pointers announcing their TypeDefs, a shared
 * product, nullable list items, a map, decimals, timestamps, binary).
 * A benchmark, not a test: `make bench-orders` builds it, runs it under
 * callgrind and prints `BENCH mem orders de ir=N`. By hand:
 *
 *   make all && mkdir -p build/bench/orders
 *   build/bin/wire gen c bindings/kotlin/src/test/orders.fdl --prefix og \
 *       -o build/bench/orders
 *   cc -O2 -march=x86-64-v3 -Ilibwire/include -Ibuild/bench/orders \
 *       bench/mem_orders.c build/bench/orders/orders.wire.c \
 *       build/lib/libwire.a -lm -o build/bench/mem_orders
 *   valgrind --tool=callgrind --instr-atstart=no --combine-dumps=yes \
 *       --callgrind-out-file=X build/bench/mem_orders
 *
 * Ir/op = (dump "order de 200" - dump "order de 2") / 198. An argument
 * sets the first product's thumbnail size (300 by default; the second
 * gets two thirds of it; at most 2,000): the Kotlin binding's orders carry
 * 200-2,000 bytes a thumbnail (`mem_orders 1100`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>
#include "orders.wire.h"

#define S(x) {x, sizeof(x) - 1}
static uint8_t arena[1 << 20];

int main(int argc, char **argv) {
  int n1 = 2, n2 = 200;
  int tn = argc > 1 ? atoi(argv[1]) : 300;
  if (tn < 2 || tn > 2000) { fprintf(stderr, "thumbnail size: 2..2000\n"); return 1; }
  wire_ctx *ctx = wire_ctx_new();
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1);
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, 1);
  og_wire w;
  if (og_register(ctx, &w)) { fprintf(stderr, "register: %s\n", wire_ctx_error_message(ctx)); return 1; }
  static og_Category root = {1, S("Electronics"), NULL};
  static og_Category sub = {2, S("Electronics Premium"), &root};
  static og_str tags[] = {S("new"), S("sale"), S("bestseller")};
  static uint8_t thumb[2000];
  for (int i = 0; i < 2000; i++) thumb[i] = (uint8_t)(i * 7);
  static const uint8_t mag1[] = {0x39, 0x30};
  static og_Product p1 = {S("SKU-100001"), S("Ultra Pro 1001"),
    S("Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor"),
    &sub, {mag1, 2, 2, 0, 0}, 1234, {tags, 3}, {thumb, 300}};
  static og_Product p2 = {S("SKU-100002"), S("Eco Max 1002"),
    S("labore et dolore magna aliqua enim ad minim veniam"),
    &root, {mag1, 2, 2, 0, 0}, 321, {tags, 2}, {thumb, 200}};
  p1.thumbnail.len = (uint32_t)tn;
  p2.thumbnail.len = (uint32_t)(tn * 2 / 3);
  static og_Address a1 = {S("Hauptstrasse 12"), S("Berlin"), S("10115"), S("DE")};
  static og_Address a2 = {S("Parkallee 3"), S("Vienna"), S("1010"), S("AT")};
  static const og_Address *addrs[] = {&a1, &a2};
  static og_OrderLine l1 = {&p1, 2, {mag1, 2, 2, 0, 0}, 0.1};
  static og_OrderLine l2 = {&p2, 1, {mag1, 2, 2, 0, 0}, 0.0};
  static og_OrderLine l3 = {&p1, 5, {mag1, 2, 2, 0, 0}, 0.25};
  static const og_OrderLine *lines[] = {&l1, &l2, &l3};
  static og_entry3 attrs[] = {{S("channel"), S("web")}, {S("priority"), S("high")}, {S("source"), S("app")}};
  og_Order o;
  memset(&o, 0, sizeof o);
  o.id = (og_str)S("ORD-000001");
  o.customer = (og_Customer){10001, S("Alice"), S("Anderson"), S("alice.anderson1@example.com"),
                             {500000000, 0, 0}, 1, {addrs, 2}};
  o.lines = (og_seq2){lines, 3};
  o.status = og_OrderStatus_PAID;
  o.created = (wire_mem_time){1700000000, 5000, 0};
  o.shipping_address = &a1;
  o.attributes = (og_seq3){attrs, 3};
  o.notes = (og_str)S("leave at the door");
  const uint8_t *p; size_t n;
  if (og_Order_encode(ctx, &w, &o, &p, &n)) { fprintf(stderr, "encode: %s\n", wire_ctx_error_message(ctx)); return 1; }
  uint8_t *buf = malloc(n);
  memcpy(buf, p, n);
  og_Order out;
  size_t used = 0;
  if (og_Order_decode(ctx, &w, buf, n, &out, arena, sizeof arena, &used, WIRE_MEM_COPY)) {
    fprintf(stderr, "decode: %s\n", wire_ctx_error_message(ctx)); return 1; }
  if (out.lines.count != 3 || out.lines.items[0]->product != out.lines.items[2]->product ||
      out.customer.addresses.items[0] == NULL || out.attributes.count != 3 ||
      out.lines.items[0]->product->category->parent->id != 1) { fprintf(stderr, "bad value\n"); return 1; }
  printf("bytes %zu arena %zu\n", n, used);
  CALLGRIND_START_INSTRUMENTATION;
  int loops[2] = {n1, n2};
  for (int k = 0; k < 2; k++) {
    CALLGRIND_ZERO_STATS;
    for (int i = 0; i < loops[k]; i++) {
      used = 0;
      if (og_Order_decode(ctx, &w, buf, n, &out, arena, sizeof arena, &used, WIRE_MEM_COPY)) return 1;
    }
    char lab[64];
    snprintf(lab, sizeof lab, "order de %d", loops[k]);
    CALLGRIND_DUMP_STATS_AT(lab);
  }
  /* and the encode of the same order ("order en N") */
  for (int k = 0; k < 2; k++) {
    CALLGRIND_ZERO_STATS;
    for (int i = 0; i < loops[k]; i++)
      if (og_Order_encode(ctx, &w, &o, &p, &n)) return 1;
    char lab[64];
    snprintf(lab, sizeof lab, "order en %d", loops[k]);
    CALLGRIND_DUMP_STATS_AT(lab);
  }
  wire_ctx_free(ctx);
  return 0;
}
