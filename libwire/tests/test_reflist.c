/* test_reflist.c - a list of a struct whose elements are not declared ref,
 * under reference tracking (spec R-WLIST-8, errata E-50): `list<optional
 * Addr> items` holding X, null, X, Y where both X are one object.
 *
 * The bytes of the pinned runtimes (fixtures exact.*.reflist have the same
 * shapes in a two-field struct) are read by the layout decoder and the
 * document decoder, with the sharing where the bytes carry it; the layout
 * encoder writes Java's bytes (each occurrence in full); the document
 * encoder writes a shared element as pyfory, Go and Rust do in compatible
 * mode, and as Java writes tracked declared elements in same-schema mode
 * (`0d`, never `0f`). */
#include <stdio.h>
#include <criterion/criterion.h>

#include "reflist_holder.h"

static const char fdl[] =
    "package ex;\n"
    "option enable_auto_type_id = false;\n"
    "option wire_fields_by_name = true;\n"
    "message Addr { string city = 1; }\n"
    "message Holder { list<optional Addr> items = 1; }\n";

static size_t unhex(const char *s, uint8_t *out) {
  size_t n = 0;
  for (; s[0] && s[1]; s += 2) {
    unsigned v;
    cr_assert_eq(sscanf(s, "%2x", &v), 1);
    out[n++] = (uint8_t)v;
  }
  return n;
}

/* The TypeDefs (compatible mode) and the names (same-schema mode) of the
 * runtimes' payloads, then the list. */
#define TD_HOLDER "01001e0010600bee236b4560e10992e0131dcb19224c167aa2646480"
#define TD_ADDR "1e020d009628c48b5e3de10992e00f00638848150913c0"
#define NAMES "01001d040492e008031dcb1922a41db4b3"

static const struct {
  const char *who, *hex;
  int compatible, shared;
} peers[] = {
    {"Java 1.6.0 compatible", TD_HOLDER "040a" TD_ADDR "ff0458fdff0458ff0459", 1, 0},
    {"pyfory 1.7.7 compatible", TD_HOLDER "040b" TD_ADDR "000458fdfe01000459", 1, 1},
    {"Go 1.6.1 compatible", TD_HOLDER "040b" TD_ADDR "000658fdfe01000659", 1, 1},
    {"Java 1.6.0 same-schema", NAMES "040effcf7fe7820458fdffcf7fe7820458ffcf7fe7820459", 0, 0},
    {"Java 1.6.0 @Ref same-schema", NAMES "040d00cf7fe7820458fdfe0100cf7fe7820459", 0, 1},
    {"pyfory 1.7.7 same-schema",
     "01001d040192e008031dcb1922a41db4b3040b1d03060300638800cf7fe7820458fdfe0100cf7fe7820459", 0, 1},
    {"Go 1.6.1 same-schema",
     "01001d040492e008031dcb1922a41db4b3040b1d040492e0060300638800cf7fe7820658fdfe0100cf7fe7820659",
     0, 1},
};

static uint8_t arena[1 << 16];

static int city_is(const addr *a, char ch) {
  return a && (a->city.h >> 2) == 1 && a->city.p[0] == (uint8_t)ch;
}

Test(reflist, every_runtime_form_reads) {
  for (size_t i = 0; i < sizeof peers / sizeof peers[0]; i++) {
    uint32_t lay;
    wire_ctx *c = reflist_make(fdl, peers[i].compatible, 1, &lay);
    uint8_t in[256];
    size_t n = unhex(peers[i].hex, in);
    /* the layout decoder */
    holder h;
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, lay, in, n, &h, arena, sizeof arena, &used, WIRE_MEM_COPY),
                 WIRE_OK, "%s: %s at %llu", peers[i].who, wire_ctx_error_message(c),
                 (unsigned long long)wire_ctx_error_offset(c));
    {
      cr_assert_eq(h.nitems, 4, "%s", peers[i].who);
      cr_assert(city_is(h.items[0], 'X') && !h.items[1] && city_is(h.items[2], 'X') &&
                    city_is(h.items[3], 'Y'),
                "%s: the items", peers[i].who);
      cr_assert_eq(h.items[0] == h.items[2], peers[i].shared,
                   "%s: X shared only where the bytes refer to it", peers[i].who);
    }
    /* the document decoder, and its encoder gives the bytes back */
    wire_doc *d;
    cr_assert_eq(wire_decode(c, in, n, &d), WIRE_OK, "%s: %s", peers[i].who,
                 wire_ctx_error_message(c));
    uint8_t *again;
    size_t alen;
    cr_assert_eq(wire_encode(c, d, &again, &alen), WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert(alen == n && !memcmp(again, in, n), "%s: written back", peers[i].who);
    wire_ctx_free_bytes(c, again);
    wire_doc_free(d);
    wire_ctx_free(c);
  }
}

/* The layout encoder writes a shared element in full at each occurrence
 * (the Java runtime's bytes); the document encoder keeps it shared. */
static void check_encoders(int compatible, const char *mem_hex, const char *doc_hex) {
  uint32_t lay;
  wire_ctx *c = reflist_make(fdl, compatible, 1, &lay);
  addr x = {L1("X")}, y = {L1("Y")};
  const addr *items[] = {&x, NULL, &x, &y};
  holder h = {items, 4, 0};
  const uint8_t *p;
  size_t n;
  uint8_t want[256];
  size_t wn = unhex(mem_hex, want);
  cr_assert_eq(wire_mem_encode(c, lay, &h, &p, &n), WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert(n == wn && !memcmp(p, want, n), "layout encoder, compatible %d", compatible);

  const char *text =
      "{\"struct\":{\"type\":\"ex.Holder\",\"fields\":{\"items\":{\"list\":["
      "{\"struct\":{\"type\":\"ex.Addr\",\"fields\":{\"city\":{\"string\":\"X\"}}},\"anchor\":\"x\"},"
      "{\"null\":null},{\"ref\":\"x\"},"
      "{\"struct\":{\"type\":\"ex.Addr\",\"fields\":{\"city\":{\"string\":\"Y\"}}}}]}}}}";
  size_t on;
  wn = unhex(doc_hex, want);
  uint8_t *out = reflist_doc_encode(c, text, &on);
  cr_assert(on == wn && !memcmp(out, want, on), "document encoder, compatible %d", compatible);
  wire_ctx_free_bytes(c, out);
  wire_ctx_free(c);
}

Test(reflist, encoders) {
  check_encoders(1, TD_HOLDER "040a" TD_ADDR "ff0458fdff0458ff0459",
                 TD_HOLDER "040b" TD_ADDR "000458fdfe01000459");
  check_encoders(0, NAMES "040effcf7fe7820458fdffcf7fe7820458ffcf7fe7820459",
                 NAMES "040d00cf7fe7820458fdfe0100cf7fe7820459");
}
