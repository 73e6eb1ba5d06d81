/* test_mem_null_empty.c - the layout encoder given an empty UTF-8 string
 * as a NULL pointer of length 0 where no null may stand (a map key and
 * value, a field without a flag, a list item): what the decoder leaves
 * for a null map key (fuzz_mem_decode found it). Written as the empty
 * string is, without a copy from the NULL pointer (memcpy's arguments may
 * not be NULL even for no bytes: the sanitizer build's UBSan stops
 * there), and without adding its length to it for the UTF-8 check of the
 * struct loop (mem_enc_loop.h, c_STR: NULL + 0, which clang's UBSan stops
 * at and GCC's does not; fuzz_gen_decode found it,
 * fuzz/crashers/gen-null-empty-string-check.bin). */
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"

static const char fdl[] =
    "package ne;\n"
    "message E [id=430] { map<string, string> m = 1; string s = 2;\n"
    "  list<string> l = 3; }\n";

typedef struct { const uint8_t *p; uint32_t n, pad; } ustr;
typedef struct { ustr k, v; } kv;
typedef struct {
  const kv *m;
  uint32_t nm, pad;
  ustr s;
  const ustr *l;
  uint32_t nl, pad2;
} e_t;

static wire_ctx *make(uint32_t *le) {
  wire_ctx *c = mem_ctx(fdl, "ne.fdl", NULL);
  uint32_t te = mem_ctx_type(c, "ne.E");
  /* layouts: 0 E, 1 map entry, 2 list item */
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, te, sizeof(e_t), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_MAP, O(e_t, m), O(e_t, nm), N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(e_t, s), O(e_t, s.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_LIST, O(e_t, l), O(e_t, nl), N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(kv, k), O(kv, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(kv, v), O(kv, v.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(ustr), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, 0, 8, N, N, 0},
  };
  *le = MEM_CTX_TABLE(c, rows);
  return c;
}

Test(mem_null_empty, written_as_the_empty_string) {
  for (int policy = 0; policy < 2; policy++) {
    uint32_t le;
    wire_ctx *c = make(&le);
    if (policy)
      cr_assert_eq(wire_ctx_set_option(c, WIRE_OPT_STRING_POLICY,
                                       WIRE_STRING_JAVA), WIRE_OK);
    static const ustr none = {NULL, 0, 0}, empty = {(const uint8_t *)"", 0, 0};
    uint8_t want[256];
    size_t wn = 0;
    for (int k = 0; k < 2; k++) {
      ustr z = k ? none : empty;
      kv m[2] = {{z, z}, {(ustr){(const uint8_t *)"a", 1, 0}, z}};
      ustr l[2] = {z, z};
      e_t v = {m, 2, 0, z, l, 2, 0};
      const uint8_t *p;
      size_t n;
      cr_assert_eq(wire_mem_encode(c, le, &v, &p, &n), WIRE_OK, "%s",
                   wire_ctx_error_message(c));
      if (!k) {
        cr_assert_leq(n, sizeof want);
        memcpy(want, p, n);
        wn = n;
      } else {
        cr_assert(n == wn && !memcmp(p, want, n),
                  "NULL and \"\" give the same bytes (policy %d)", policy);
      }
    }
    wire_ctx_free(c);
  }
}
