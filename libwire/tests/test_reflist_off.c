/* test_reflist_off.c - a list whose struct elements are declared ref,
 * written with reference tracking off (spec R-WLIST-8, errata E-56):
 * `list<optional ref Addr> items` holding X, null, Y. Fory Java 1.6.0
 * writes `List<@Ref Addr>` then without the tracking bit (its TypeDef keeps
 * the element's ref bit) and misreads a header that has it; the layout and
 * document encoders write the header Java writes: same-type and has-null
 * (`0a`, with type meta) in compatible mode, declared (`0e`) in same-schema
 * mode. Under reference tracking the bit stays (`0b`, `0d`). */
#include <criterion/criterion.h>

#include "reflist_holder.h"

static const char fdl[] =
    "package ex;\n"
    "message Addr [id=31] { string city = 1; }\n"
    "message Holder [id=32] { list<optional ref Addr> items = 1; }\n";

/* The element header of the `items` list in payload p (read back by the
 * document decoder, which keeps it). */
static int32_t items_header(wire_ctx *c, const uint8_t *p, size_t n) {
  wire_doc *d;
  cr_assert_eq(wire_decode(c, p, n, &d), WIRE_OK, "%s", wire_ctx_error_message(c));
  int32_t h = wire_list_header(wire_node_field(wire_doc_root(d, 0), 0));
  wire_doc_free(d);
  return h;
}

static void check(int compatible, int ref, int32_t want) {
  uint32_t lay;
  wire_ctx *c = reflist_make(fdl, compatible, ref, &lay);
  addr x = {L1("X")}, y = {L1("Y")};
  const addr *items[] = {&x, NULL, &y};
  holder h = {items, 3, 0};
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, lay, &h, &p, &n), WIRE_OK, "%s", wire_ctx_error_message(c));
  uint8_t copy[512];
  cr_assert(n <= sizeof copy);
  memcpy(copy, p, n);
  cr_assert_eq(items_header(c, copy, n), want, "layout encoder, compatible %d ref %d: %02x",
               compatible, ref, (unsigned)items_header(c, copy, n));

  const char *text =
      "{\"struct\":{\"type\":\"ex.Holder\",\"fields\":{\"items\":{\"list\":["
      "{\"struct\":{\"type\":\"ex.Addr\",\"fields\":{\"city\":{\"string\":\"X\"}}}},"
      "{\"null\":null},"
      "{\"struct\":{\"type\":\"ex.Addr\",\"fields\":{\"city\":{\"string\":\"Y\"}}}}]}}}}";
  size_t on;
  uint8_t *out = reflist_doc_encode(c, text, &on);
  cr_assert(on == n && !memcmp(out, copy, n), "document encoder = layout encoder, compatible %d ref %d",
            compatible, ref);
  wire_ctx_free_bytes(c, out);
  wire_ctx_free(c);
}

Test(reflist_off, no_tracking_bit_without_reference_tracking) {
  check(1, 0, 0x0a);
  check(0, 0, 0x0e);
}

Test(reflist_off, tracking_bit_under_reference_tracking) {
  check(1, 1, 0x0b);
  check(0, 1, 0x0d);
}
