/* test_mem_enc_maps.c - the layout encoder's maps, whose keys' and
 * values' kinds are decided when a layout is bound (mop.ek): whether they
 * can be null (a NULL pointer, a presence flag, never) and whether they
 * are strings written inline (UTF-8 of a 32-bit length, tagged) or the
 * general way (numbers, 64-bit lengths). Maps of each kind, with null
 * keys and values in every place of up to seven entries, under trusted
 * and checked text and both string policies: the values decode back
 * (nulls null), and the bytes are the document codec's. Tagged text that
 * is not UTF-8 is refused where it is checked and only there; a string
 * longer than 4 GiB is refused in every context. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"

#define LSTR (WIRE_MEM_STR | WIRE_MEM_LEN64)

static const char fdl[] =
    "package mm;\n"
    "option wire_nullable_map_keys = true;\n"
    "message M [id=450] {\n"
    "  map<string, optional string> a = 1; map<string, int32> b = 2;\n"
    "  map<int32, string> c = 3; map<string, optional string> d = 4;\n"
    "  map<string, string> e = 5; map<string, optional string> f = 6;\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t n, pad; } ustr; /* (d: tagged) */
typedef struct { const uint8_t *p; uint64_t n; } lstr;
typedef struct { ustr k, v; } kv_s;
typedef struct { ustr k; int32_t v, pad; } kv_b;
typedef struct { int32_t k, pad; ustr v; } kv_c;
typedef struct { lstr k, v; } kv_e;
typedef struct { ustr k, v; uint8_t has, pad[7]; } kv_f;
typedef struct { const void *p; uint32_t n, pad; } seq;
#define NM 6
typedef struct { seq m[NM]; } mrec;

static wire_ctx *make(int trusted, int policy, uint32_t *l) {
  wire_ctx *c = mem_ctx(
      fdl, "mm.fdl",
      MEM_OPTS(WIRE_OPT_COMPATIBLE, 1, WIRE_OPT_TRUSTED_TEXT, trusted,
               policy >= 0 ? WIRE_OPT_STRING_POLICY : MEM_OPT_NONE, policy));
  uint32_t t = mem_ctx_type(c, "mm.M");
  uint32_t rows[32][WIRE_MEM_ROW] = {{WIRE_MEM_ROW_LAYOUT, t, sizeof(mrec), 0, 0, 0, 0, 0}};
  uint32_t nr = 1;
  for (uint32_t k = 0; k < NM; k++, nr++) {
    const uint32_t r[WIRE_MEM_ROW] = {WIRE_MEM_ROW_FIELD, k, WIRE_MEM_MAP,
                                      O(mrec, m[k]), O(mrec, m[k].n), N,
                                      k + 1, 0};
    memcpy(rows[nr], r, sizeof r);
  }
  /* the entries' layouts, 1 to 6 */
  const uint32_t er[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv_s), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(kv_s, k), O(kv_s, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(kv_s, v), O(kv_s, v.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv_b), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(kv_b, k), O(kv_b, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_I32, O(kv_b, v), N, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv_c), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(kv_c, k), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(kv_c, v), O(kv_c, v.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv_s), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, O(kv_s, k), O(kv_s, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, TSTR, O(kv_s, v), O(kv_s, v.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv_e), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, LSTR, O(kv_e, k), O(kv_e, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, LSTR, O(kv_e, v), O(kv_e, v.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(kv_f), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(kv_f, k), O(kv_f, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(kv_f, v), O(kv_f, v.n),
       O(kv_f, has), N, 0},
  };
  memcpy(rows[nr], er, sizeof er);
  nr += sizeof er / sizeof er[0];
  *l = mem_ctx_table(c, &rows[0][0], nr);
  return c;
}

static uint8_t text[400];
static kv_s ea[8], ed[8];
static kv_b eb[8];
static kv_c ec[8];
static kv_e ee[8];
static kv_f ef[8];

/* A string of text from `at`, len bytes long (two-byte UTF-8 sequences
 * from 200 on: len even there). */
static ustr str_at(uint32_t at, uint32_t len) {
  return (ustr){text + at, len, 0};
}

/* M with n entries a map; seed places the null keys and values and sets
 * the lengths (some past a one-byte header), the ones at 200 not ASCII */
static void mrec_of(mrec *r, uint32_t n, uint32_t seed) {
  for (uint32_t i = 0; i < 8; i++) {
    uint32_t s = seed + i;
    uint32_t at = s % 4 == 3 ? 200 : s % 37;
    ustr k = str_at(at, (s * 7) % 11 & ~1u), v = str_at(at, (s * 29) % 150 & ~1u);
    bool nk = s % 5 == 3, nv = s % 3 == 1;
    ustr zk = nk ? (ustr){NULL, 0, 0} : k, zv = nv ? (ustr){NULL, 0, 0} : v;
    ea[i] = (kv_s){zk, zv};
    eb[i] = (kv_b){zk, (int32_t)(s * 1000003u), 0};
    ec[i] = (kv_c){(int32_t)s - 4, 0, v}; /* (values not nullable) */
    /* tagged: the header is the length and the encoding (UTF-8, 2) */
    ed[i] = (kv_s){{zk.p, zk.n << 2 | 2, 0}, {zv.p, zv.n << 2 | 2, 0}};
    ee[i] = (kv_e){{zk.p, zk.n}, {v.p, v.n}};
    ef[i] = (kv_f){zk, v, (uint8_t)!nv, {0}};
  }
  const void *e[NM] = {ea, eb, ec, ed, ee, ef};
  for (int k = 0; k < NM; k++) r->m[k] = (seq){e[k], n, 0};
}

/* Whether string a (a pointer of len bytes, NULL for null) was decoded
 * as b (its length len_b). */
static bool same_str(const uint8_t *a, uint64_t la, const uint8_t *b,
                     uint64_t lb) {
  if (!a) return !b;
  return b && la == lb && !memcmp(a, b, la);
}

/* The decoded maps of d are those of r: nulls null, the rest equal (the
 * Java policy's Latin-1 of a UTF-8 string decodes back to UTF-8). */
static void same_maps(const mrec *r, const mrec *d) {
  for (int k = 0; k < NM; k++) cr_assert_eq(d->m[k].n, r->m[k].n, "map %d", k);
  for (uint32_t i = 0; i < r->m[0].n; i++) {
    const kv_s *x = (const kv_s *)r->m[0].p + i, *y = (const kv_s *)d->m[0].p + i;
    cr_assert(same_str(x->k.p, x->k.n, y->k.p, y->k.n), "a key %u", i);
    cr_assert(same_str(x->v.p, x->v.n, y->v.p, y->v.n), "a value %u", i);
    const kv_b *bx = (const kv_b *)r->m[1].p + i, *by = (const kv_b *)d->m[1].p + i;
    cr_assert(same_str(bx->k.p, bx->k.n, by->k.p, by->k.n), "b key %u", i);
    cr_assert_eq(bx->v, by->v, "b value %u", i);
    const kv_c *cx = (const kv_c *)r->m[2].p + i, *cy = (const kv_c *)d->m[2].p + i;
    cr_assert_eq(cx->k, cy->k, "c key %u", i);
    cr_assert(same_str(cx->v.p, cx->v.n, cy->v.p, cy->v.n), "c value %u", i);
    const kv_s *dx = (const kv_s *)r->m[3].p + i, *dy = (const kv_s *)d->m[3].p + i;
    cr_assert(same_str(dx->k.p, dx->k.n >> 2, dy->k.p, dy->k.n >> 2), "d key %u", i);
    cr_assert(same_str(dx->v.p, dx->v.n >> 2, dy->v.p, dy->v.n >> 2), "d value %u", i);
    const kv_e *ex = (const kv_e *)r->m[4].p + i, *ey = (const kv_e *)d->m[4].p + i;
    cr_assert(same_str(ex->k.p, ex->k.n, ey->k.p, ey->k.n), "e key %u", i);
    cr_assert(same_str(ex->v.p, ex->v.n, ey->v.p, ey->v.n), "e value %u", i);
    const kv_f *fx = (const kv_f *)r->m[5].p + i, *fy = (const kv_f *)d->m[5].p + i;
    cr_assert(same_str(fx->k.p, fx->k.n, fy->k.p, fy->k.n), "f key %u", i);
    cr_assert_eq(!!fx->has, !!fy->has, "f value %u present", i);
    if (fx->has)
      cr_assert(same_str(fx->v.p, fx->v.n, fy->v.p, fy->v.n), "f value %u", i);
  }
}

static uint8_t arena[1 << 16];

Test(mem_enc_maps, null_keys_and_values_and_string_kinds) {
  for (int i = 0; i < 200; i++) text[i] = (uint8_t)('a' + i % 26);
  for (int i = 200; i < 400; i += 2) text[i] = 0xC3, text[i + 1] = 0xA9;
  static uint8_t b[2][1 << 16];
  for (int policy = -1; policy <= WIRE_STRING_JAVA; policy += 1 + WIRE_STRING_JAVA) {
    uint32_t lt, lc;
    wire_ctx *ct = make(1, policy, &lt), *cc = make(0, policy, &lc);
    for (uint32_t n = 0; n < 8; n++) {
      for (uint32_t seed = 0; seed < 15; seed++) {
        mrec r;
        mrec_of(&r, n, seed);
        size_t len[2];
        for (int t = 0; t < 2; t++) {
          wire_ctx *c = t ? cc : ct;
          const uint8_t *p;
          cr_assert_eq(wire_mem_encode(c, t ? lc : lt, &r, &p, &len[t]),
                       WIRE_OK, "%s", wire_ctx_error_message(c));
          cr_assert_leq(len[t], sizeof b[t]);
          memcpy(b[t], p, len[t]);
          wire_doc *d;
          cr_assert_eq(wire_decode(c, b[t], len[t], &d), WIRE_OK, "%s",
                       wire_ctx_error_message(c));
          uint8_t *again;
          size_t alen;
          cr_assert_eq(wire_encode(c, d, &again, &alen), WIRE_OK, "%s",
                       wire_ctx_error_message(c));
          cr_assert(alen == len[t] && !memcmp(again, b[t], alen),
                    "the document codec's bytes (n %u, seed %u)", n, seed);
          wire_ctx_free_bytes(c, again);
          wire_doc_free(d);
          mrec back;
          size_t used = 0;
          cr_assert_eq(wire_mem_decode(c, t ? lc : lt, b[t], len[t], &back,
                                       arena, sizeof arena, &used,
                                       WIRE_MEM_COPY),
                       WIRE_OK, "%s", wire_ctx_error_message(c));
          same_maps(&r, &back);
        }
        cr_assert(len[0] == len[1] && !memcmp(b[0], b[1], len[0]),
                  "trusted and checked text: the same bytes (n %u, seed %u)",
                  n, seed);
        /* the Java policy writes é (UTF-8 in memory) as Latin-1, except
         * in the tagged map d, written as given */
        if (policy == WIRE_STRING_JAVA && n) {
          mrec only = r;
          only.m[3].n = 0;
          const uint8_t *p;
          size_t pn;
          cr_assert_eq(wire_mem_encode(ct, lt, &only, &p, &pn), WIRE_OK);
          for (size_t i = 0; i + 1 < pn; i++)
            cr_assert(p[i] != 0xC3 || p[i + 1] != 0xA9,
                      "Latin-1 (n %u seed %u)", n, seed);
        }
      }
    }
    wire_ctx_free(ct);
    wire_ctx_free(cc);
  }
}

Test(mem_enc_maps, refused_tagged_text_and_long_strings) {
  for (int i = 0; i < 200; i++) text[i] = (uint8_t)('a' + i % 26);
  static const uint8_t bad[4] = {'o', 0xFF, 'k', 'x'};
  for (int trusted = 0; trusted < 2; trusted++) {
    for (int policy = -1; policy <= WIRE_STRING_JAVA; policy += 1 + WIRE_STRING_JAVA) {
      uint32_t l;
      wire_ctx *c = make(trusted, policy, &l);
      for (int side = 0; side < 2; side++) {
        mrec r;
        mrec_of(&r, 3, 0);
        /* the tagged map's second entry, key or value, not UTF-8 */
        kv_s *x = &ed[1];
        (side ? &x->v : &x->k)->p = bad;
        (side ? &x->v : &x->k)->n = 4u << 2 | 2;
        const uint8_t *p;
        size_t n;
        int32_t st = wire_mem_encode(c, l, &r, &p, &n);
        cr_assert_eq(st, trusted ? WIRE_OK : WIRE_E_STRING,
                     "tagged %s (trusted %d): %s", side ? "value" : "key",
                     trusted, wire_ctx_error_message(c));
        /* a 64-bit length past 4 GiB (its low word small) */
        mrec_of(&r, 3, 0);
        (side ? &ee[2].v : &ee[2].k)->n = (UINT64_C(1) << 32) | 3;
        cr_assert_eq(wire_mem_encode(c, l, &r, &p, &n), WIRE_E_LENGTH,
                     "a string past 4 GiB (trusted %d): %s", trusted,
                     wire_ctx_error_message(c));
      }
      wire_ctx_free(c);
    }
  }
}
