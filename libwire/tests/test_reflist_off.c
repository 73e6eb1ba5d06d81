/* test_reflist_off.c - a list whose struct elements are declared ref,
 * written with reference tracking off (spec R-WLIST-8, errata E-56):
 * `list<optional ref Addr> items` holding X, null, Y. Fory Java 1.6.0
 * writes `List<@Ref Addr>` then without the tracking bit (its TypeDef keeps
 * the element's ref bit) and misreads a header that has it; the layout and
 * document encoders write the header Java writes: same-type and has-null
 * (`0a`, with type meta) in compatible mode, declared (`0e`) in same-schema
 * mode. Under reference tracking the bit stays (`0b`, `0d`). */
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#define N WIRE_MEM_NONE
#define O(t, f) (uint32_t) offsetof(t, f)
#define TSTR (WIRE_MEM_STR | WIRE_MEM_STR_TAGGED)

static const char fdl[] =
    "package ex;\n"
    "message Addr [id=31] { string city = 1; }\n"
    "message Holder [id=32] { list<optional ref Addr> items = 1; }\n";

typedef struct { const uint8_t *p; uint32_t h, pad; } jstr; /* tagged */
typedef struct { jstr city; } addr;
typedef struct {
  const addr *const *items;
  uint32_t nitems, pad;
} holder;

static wire_ctx *make(int compatible, int ref, uint32_t *lay) {
  wire_ctx *c = wire_ctx_new();
  wire_ctx_set_option(c, WIRE_OPT_REF_TRACKING, ref);
  wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, compatible);
  wire_ctx_set_option(c, WIRE_OPT_TRUSTED_TEXT, 1);
  cr_assert_eq(wire_schema_load_fdl(c, fdl, strlen(fdl), "ex.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_schema_finish(c), WIRE_OK);
  uint32_t ta, th;
  cr_assert_eq(wire_schema_find_type(c, "ex.Addr", 7, &ta), WIRE_OK);
  cr_assert_eq(wire_schema_find_type(c, "ex.Holder", 9, &th), WIRE_OK);
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, th, sizeof(holder), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, O(holder, items), O(holder, nitems), N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, ta, sizeof(addr), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, O(addr, city), O(addr, city.h), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(void *), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, 1, 0},
  };
  cr_assert_eq(wire_mem_layout_table(c, &rows[0][0], sizeof rows / sizeof rows[0], lay),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  return c;
}

/* The element header of the `items` list in payload p (read back by the
 * document decoder, which keeps it). */
static int32_t items_header(wire_ctx *c, const uint8_t *p, size_t n) {
  wire_doc *d;
  cr_assert_eq(wire_decode(c, p, n, &d), WIRE_OK, "%s", wire_ctx_error_message(c));
  int32_t h = wire_list_header(wire_node_field(wire_doc_root(d, 0), 0));
  wire_doc_free(d);
  return h;
}

static jstr L1(const char *s) {
  return (jstr){(const uint8_t *)s, (uint32_t)strlen(s) << 2 | WIRE_STR_LATIN1, 0};
}

static void check(int compatible, int ref, int32_t want) {
  uint32_t lay;
  wire_ctx *c = make(compatible, ref, &lay);
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
  wire_doc *d = wire_doc_new(c);
  wire_node *root;
  size_t used;
  cr_assert_eq(wire_notation_parse(c, d, text, strlen(text), 0, &root, &used), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_eq(wire_doc_add_root(d, root), WIRE_OK);
  uint8_t *out;
  size_t on;
  cr_assert_eq(wire_encode(c, d, &out, &on), WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert(on == n && !memcmp(out, copy, n), "document encoder = layout encoder, compatible %d ref %d",
            compatible, ref);
  wire_ctx_free_bytes(c, out);
  wire_doc_free(d);
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
