/* test_mem_struct_fit.c - a compatible-mode struct field declared as
 * struct g.A holding a value of another kind or type, as pyfory 1.7.7
 * writes one (spec/errata.md E-STRUCTFIT-1, R-FIELD-10): an int, a
 * string, a list, a struct g.B, an enum, None where the field is not
 * nullable (NONE type meta) and null where it is, by id and by name.
 * The document decoder keeps every value and the document encoder
 * writes the same bytes back; the compiled decoder, whose layout holds
 * an A there, refuses each with class schema at the value's type meta
 * and names the field ("field g.H.f: a varint64 where struct g.A is
 * declared"). */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"
#include "test_hex.h"

/* pyfory 1.7.7, compatible, ref off: H(f=...) with f declared A (not
 * nullable) and HN(f=...) with f Optional[A]; A 101, B 102, E 103, H 104,
 * HN 105 by id, or g.A ... g.HN by name (/tmp probe, errata E-STRUCTFIT-1) */
static const struct {
  const char *name, *hex;
} pf[] = {
    {"id/H/B",
     "01ff1c000570adb6905aba49c168401c141c02052019cb91382d7cc1"
     "6640056012"},
    {"id/H/a",
     "01ff1c000570adb6905aba49c168401c141c0205b041dfe88ea318c1"
     "6540055c0e"},
    {"id/H/enum",
     "01ff1c000570adb6905aba49c168401c14196701"},
    {"id/H/i32",
     "01ff1c000570adb6905aba49c168401c14070a"},
    {"id/H/list",
     "01ff1c000570adb6905aba49c168401c14160208070204"},
    {"id/H/null",
     "01ff1c000570adb6905aba49c168401c1424"},
    {"id/H/str",
     "01ff1c000570adb6905aba49c168401c1415086869"},
    {"id/HN/B",
     "01ff1c00054099c7d5efb577c169421c14ff1c02052019cb91382d7c"
     "c16640056012"},
    {"id/HN/a",
     "01ff1c00054099c7d5efb577c169421c14ff1c0205b041dfe88ea318"
     "c16540055c0e"},
    {"id/HN/enum",
     "01ff1c00054099c7d5efb577c169421c14ff196701"},
    {"id/HN/i32",
     "01ff1c00054099c7d5efb577c169421c14ff070a"},
    {"id/HN/list",
     "01ff1c00054099c7d5efb577c169421c14ff160208070204"},
    {"id/HN/null",
     "01ff1c00054099c7d5efb577c169421c14fd"},
    {"id/HN/str",
     "01ff1c00054099c7d5efb577c169421c14ff15086869"},
    {"name/H/B",
     "01ff1e0008a00ec837b13d02e10518071c401e141e0208203cbb0422"
     "7017e10518070440056012"},
    {"name/H/a",
     "01ff1e0008a00ec837b13d02e10518071c401e141e020850bec0e29d"
     "021de10518070040055c0e"},
    {"name/H/enum",
     "01ff1e0008a00ec837b13d02e10518071c401e141a020580e7c96c3d"
     "732d010518071001"},
    {"name/H/i32",
     "01ff1e0008a00ec837b13d02e10518071c401e14070a"},
    {"name/H/list",
     "01ff1e0008a00ec837b13d02e10518071c401e14160208070204"},
    {"name/H/null",
     "01ff1e0008a00ec837b13d02e10518071c401e1424"},
    {"name/H/str",
     "01ff1e0008a00ec837b13d02e10518071c401e1415086869"},
    {"name/HN/B",
     "01ff1e00092053a82d307b76e105180a4338421e14ff1e0208203cbb"
     "04227017e10518070440056012"},
    {"name/HN/a",
     "01ff1e00092053a82d307b76e105180a4338421e14ff1e020850bec0"
     "e29d021de10518070040055c0e"},
    {"name/HN/enum",
     "01ff1e00092053a82d307b76e105180a4338421e14ff1a020580e7c9"
     "6c3d732d010518071001"},
    {"name/HN/i32",
     "01ff1e00092053a82d307b76e105180a4338421e14ff070a"},
    {"name/HN/list",
     "01ff1e00092053a82d307b76e105180a4338421e14ff160208070204"},
    {"name/HN/null",
     "01ff1e00092053a82d307b76e105180a4338421e14fd"},
    {"name/HN/str",
     "01ff1e00092053a82d307b76e105180a4338421e14ff15086869"},
};

static const char fdl_id[] =
    "package g;\n"
    "message A [id=101] { int32 x = 1; }\n"
    "message B [id=102] { int32 y = 1; }\n"
    "enum E [id=103] { R = 0; G = 1; }\n"
    "message H [id=104] { A f = 1 [nullable = false]; }\n"
    "message HN [id=105] { A f = 1; }\n";
static const char fdl_name[] =
    "package g;\n"
    "option enable_auto_type_id = false;\n"
    "message A { int32 x = 1; }\n"
    "message B { int32 y = 1; }\n"
    "enum E { R = 0; G = 1; }\n"
    "message H { A f = 1 [nullable = false]; }\n"
    "message HN { A f = 1; }\n";

typedef struct { int32_t x; } a_t;
typedef struct { const a_t *f; } h_t;

/* A compatible context of the schema for name's registration; *lh and
 * *lhn get the layouts of H and HN (f an A pointer). */
static wire_ctx *ctx_for(const char *name, uint32_t *lh, uint32_t *lhn) {
  bool byname = strncmp(name, "name/", 5) == 0;
  wire_ctx *c = mem_ctx(byname ? fdl_name : fdl_id, "g.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  uint32_t ta = mem_ctx_type(c, "g.A"), th = mem_ctx_type(c, "g.H"),
           thn = mem_ctx_type(c, "g.HN");
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, ta, sizeof(a_t), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(a_t, x), N, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, th, sizeof(h_t), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, O(h_t, f), N, N, 0, 0},
      {WIRE_MEM_ROW_LAYOUT, thn, sizeof(h_t), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, O(h_t, f), N, N, 0, 0},
  };
  uint32_t first = MEM_CTX_TABLE(c, rows);
  *lh = first + 1;
  *lhn = first + 2;
  return c;
}

Test(struct_fit, document_round_trip) {
  for (size_t i = 0; i < sizeof pf / sizeof pf[0]; i++) {
    size_t len;
    uint8_t *b = unhex(pf[i].hex, &len);
    wire_ctx *c = wire_ctx_new();
    wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, 1);
    wire_doc *d = NULL;
    cr_assert_eq(wire_decode(c, b, len, &d), WIRE_OK, "%s: %s", pf[i].name,
                 wire_ctx_error_message(c));
    uint8_t *out = NULL;
    size_t n = 0;
    cr_assert_eq(wire_encode(c, d, &out, &n), WIRE_OK, "%s: %s", pf[i].name,
                 wire_ctx_error_message(c));
    cr_assert(n == len && memcmp(out, b, n) == 0,
              "%s: the document does not encode to the same bytes",
              pf[i].name);
    wire_ctx_free_bytes(c, out);
    wire_doc_free(d);
    wire_ctx_free(c);
    free(b);
  }
}

Test(struct_fit, compiled_decoder_names_the_field) {
  static uint8_t arena[4096];
  for (size_t i = 0; i < sizeof pf / sizeof pf[0]; i++) {
    const char *nm = pf[i].name;
    bool nullable = strstr(nm, "/HN/") != NULL;
    const char *what = strrchr(nm, '/') + 1;
    size_t len;
    uint8_t *b = unhex(pf[i].hex, &len);
    uint32_t lh, lhn;
    wire_ctx *c = ctx_for(nm, &lh, &lhn);
    h_t out = {NULL};
    size_t used = 0;
    int32_t st = wire_mem_decode(c, nullable ? lhn : lh, b, len, &out, arena,
                                 sizeof arena, &used, 0);
    if (strcmp(what, "a") == 0) {
      cr_assert_eq(st, WIRE_OK, "%s: %s", nm, wire_ctx_error_message(c));
      cr_assert(out.f && out.f->x == 7, "%s", nm);
    } else if (strcmp(what, "null") == 0 && nullable) {
      cr_assert_eq(st, WIRE_OK, "%s: %s", nm, wire_ctx_error_message(c));
      cr_assert_null(out.f, "%s", nm);
    } else {
      const char *msg = wire_ctx_error_message(c);
      cr_assert_eq(st, WIRE_E_SCHEMA, "%s: %d %s", nm, st, msg);
      char want[64];
      snprintf(want, sizeof want, "field g.%s.f: ", nullable ? "HN" : "H");
      cr_assert(strncmp(msg, want, strlen(want)) == 0, "%s: %s", nm, msg);
      cr_assert(strstr(msg, "where struct g.A is declared"), "%s: %s", nm,
                msg);
      /* the value's type meta: after H's TypeDef and, when nullable, the
       * field's flag; of struct B, its TypeDef after `1c 02` / `1e 02` */
      bool byname = strncmp(nm, "name/", 5) == 0;
      size_t at = byname ? (nullable ? 22 : 20) : (nullable ? 18 : 17);
      if (strcmp(what, "B") == 0) at += 2;
      cr_assert_eq(wire_ctx_error_offset(c), at, "%s: %s at %llu, want %zu",
                   nm, msg, (unsigned long long)wire_ctx_error_offset(c), at);
    }
    wire_ctx_free(c);
    free(b);
  }
}
