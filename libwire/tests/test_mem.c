/* test_mem.c - compiled codecs over native memory layouts (wire_mem_*):
 * the bytes equal the document encoder's for the same values, decoding
 * gives the values back (copies in the arena or views into the input),
 * a writer's other TypeDef is read through a mapping (widened, skipped and
 * defaulted fields), reference tracking of shared struct pointers, the
 * flat table form, and hostile input: truncation at every length fails
 * with a class and an offset inside the input, a small arena gives
 * WIRE_E_BUFFER_FULL, a bad bool / UTF-8 / count are refused. */
#include <stdio.h>
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"

static const char fdl[] =
    "package t;\n"
    "enum Color [id=200] { RED = 0; GREEN = 1; }\n"
    "message Pt [id=201] { int32 x = 1; string name = 2; }\n"
    "message Bag [id=202] {\n"
    "  int64 id = 1; string title = 2; list<string> tags = 3;\n"
    "  list<Pt> pts = 4 ; Pt head = 5 [nullable = false]; Color color = 6;\n"
    "  optional int32 maybe = 7; array<int32> nums = 8; map<string, int32> m = 9;\n"
    "  bool ok = 10; float64 ratio = 11;\n"
    "}\n";
/* the same types as another writer has them: Pt.x widened to int64, a
 * field Bag.extra the reader does not know, Bag.ratio missing */
static const char fdl_v2[] =
    "package t;\n"
    "enum Color [id=200] { RED = 0; GREEN = 1; }\n"
    "message Pt [id=201] { int64 x = 1; string name = 2; }\n"
    "message Bag [id=202] {\n"
    "  int64 id = 1; string title = 2; list<string> tags = 3;\n"
    "  list<Pt> pts = 4 ; Pt head = 5 [nullable = false]; Color color = 6;\n"
    "  optional int32 maybe = 7; array<int32> nums = 8; map<string, int32> m = 9;\n"
    "  bool ok = 10; string extra = 12;\n"
    "}\n";

typedef struct { const char *p; uint32_t n; } str;
typedef struct { int32_t x; str name; } pt;
typedef struct { str k; int32_t v; } kv;
typedef struct {
  int64_t id;
  str title;
  const str *tags;
  uint32_t ntags;
  const pt *pts;
  uint32_t npts;
  pt head;
  uint32_t color;
  int32_t maybe;
  uint8_t has_maybe;
  const int32_t *nums;
  uint32_t nnums;
  const kv *m;
  uint32_t nm;
  uint8_t ok;
  double ratio;
} bag;

typedef struct { uint32_t pt, bag, str, kv; } lay;

static wire_ctx *make(const char *text, int compatible, lay *L) {
  wire_ctx *c =
      mem_ctx(text, "t.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t tp = mem_ctx_type(c, "t.Pt"), tb = mem_ctx_type(c, "t.Bag");
  int32_t st = 0;
  st |= wire_mem_layout_new(c, tp, sizeof(pt), &L->pt);
  st |= wire_mem_layout_new(c, tb, sizeof(bag), &L->bag);
  st |= wire_mem_layout_new(c, WIRE_MEM_ELEMENT, sizeof(str), &L->str);
  st |= wire_mem_layout_new(c, WIRE_MEM_ELEMENT, sizeof(kv), &L->kv);
  cr_assert_eq(st, 0);
  st |= wire_mem_layout_field(c, L->pt, 0, WIRE_MEM_I32, O(pt, x), N, N, N);
  st |= wire_mem_layout_field(c, L->pt, 1, WIRE_MEM_STR, O(pt, name.p), O(pt, name.n), N, N);
  st |= wire_mem_layout_field(c, L->str, 0, WIRE_MEM_STR, O(str, p), O(str, n), N, N);
  st |= wire_mem_layout_field(c, L->kv, 0, WIRE_MEM_STR, O(kv, k.p), O(kv, k.n), N, N);
  st |= wire_mem_layout_field(c, L->kv, 1, WIRE_MEM_I32, O(kv, v), N, N, N);
  uint32_t b = L->bag;
  st |= wire_mem_layout_field(c, b, 0, WIRE_MEM_I64, O(bag, id), N, N, N);
  st |= wire_mem_layout_field(c, b, 1, WIRE_MEM_STR, O(bag, title.p), O(bag, title.n), N, N);
  st |= wire_mem_layout_field(c, b, 2, WIRE_MEM_LIST, O(bag, tags), O(bag, ntags), N, L->str);
  st |= wire_mem_layout_field(c, b, 3, WIRE_MEM_LIST, O(bag, pts), O(bag, npts), N, L->pt);
  st |= wire_mem_layout_field(c, b, 4, WIRE_MEM_STRUCT, O(bag, head), N, N, L->pt);
  st |= wire_mem_layout_field(c, b, 5, WIRE_MEM_ENUM, O(bag, color), N, N, N);
  st |= wire_mem_layout_field(c, b, 6, WIRE_MEM_I32, O(bag, maybe), N, O(bag, has_maybe), N);
  st |= wire_mem_layout_field(c, b, 7, WIRE_MEM_ARRAY, O(bag, nums), O(bag, nnums), N, N);
  st |= wire_mem_layout_field(c, b, 8, WIRE_MEM_MAP, O(bag, m), O(bag, nm), N, L->kv);
  st |= wire_mem_layout_field(c, b, 9, WIRE_MEM_BOOL, O(bag, ok), N, N, N);
  if (strstr(text, "ratio"))
    st |= wire_mem_layout_field(c, b, 10, WIRE_MEM_F64, O(bag, ratio), N, N, N);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, b), WIRE_OK, "%s", wire_ctx_error_message(c));
  return c;
}

static const str tags[] = {{"a", 1}, {"b\xc3\xa9", 3}};
static const pt pts[] = {{-1, {"one", 3}}, {300000, {"", 0}}};
static const int32_t nums[] = {7, -8, 1 << 30};
static const kv m[] = {{{"k", 1}, 1}, {{"kk", 2}, -2}};

static bag sample(void) {
  bag v;
  memset(&v, 0, sizeof v);
  v.id = -(INT64_C(1) << 40);
  v.title = (str){"title", 5};
  v.tags = tags;
  v.ntags = 2;
  v.pts = pts;
  v.npts = 2;
  v.head = (pt){42, {"head", 4}};
  v.color = 1;
  v.maybe = 9;
  v.has_maybe = 1;
  v.nums = nums;
  v.nnums = 3;
  v.m = m;
  v.nm = 2;
  v.ok = 1;
  v.ratio = 0.25;
  return v;
}

static int str_eq(str a, str b) { return a.n == b.n && !memcmp(a.p, b.p, a.n); }

static void check_same(const bag *a, const bag *b, int ratio) {
  cr_assert_eq(a->id, b->id);
  cr_assert(str_eq(a->title, b->title));
  cr_assert_eq(a->ntags, b->ntags);
  for (uint32_t i = 0; i < a->ntags; i++) cr_assert(str_eq(a->tags[i], b->tags[i]));
  cr_assert_eq(a->npts, b->npts);
  for (uint32_t i = 0; i < a->npts; i++) {
    cr_assert_eq(a->pts[i].x, b->pts[i].x);
    cr_assert(str_eq(a->pts[i].name, b->pts[i].name));
  }
  cr_assert_eq(a->head.x, b->head.x);
  cr_assert(str_eq(a->head.name, b->head.name));
  cr_assert_eq(a->color, b->color);
  cr_assert_eq(a->has_maybe, b->has_maybe);
  cr_assert_eq(a->maybe, b->maybe);
  cr_assert_eq(a->nnums, b->nnums);
  cr_assert(!memcmp(a->nums, b->nums, 4 * a->nnums));
  cr_assert_eq(a->nm, b->nm);
  for (uint32_t i = 0; i < a->nm; i++) {
    cr_assert(str_eq(a->m[i].k, b->m[i].k));
    cr_assert_eq(a->m[i].v, b->m[i].v);
  }
  cr_assert_eq(a->ok, b->ok);
  if (ratio) cr_assert_eq(a->ratio, b->ratio);
}

/* The document decoder reads the layout encoder's bytes. */
static void doc_bytes(wire_ctx *c, const uint8_t *p, size_t n) {
  wire_doc *d;
  cr_assert_eq(wire_decode(c, p, n, &d), WIRE_OK, "%s at %llu",
               wire_ctx_error_message(c),
               (unsigned long long)wire_ctx_error_offset(c));
  wire_doc_free(d);
}

static uint8_t arena[1 << 16];

/* The sample encoded through layout L->bag of c and copied into bytes (the
 * encoder's output is the context's buffer, reused by its next encode);
 * returns its length, which is under cap. */
static size_t sample_bytes(wire_ctx *c, const lay *L, uint8_t *bytes,
                           size_t cap) {
  bag v = sample();
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, L->bag, &v, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_lt(n, cap);
  memcpy(bytes, p, n);
  return n;
}

static void roundtrip(int compatible) {
  lay L;
  wire_ctx *c = make(fdl, compatible, &L);
  bag v = sample();
  uint8_t bytes[4096];
  size_t n = sample_bytes(c, &L, bytes, sizeof bytes);
  const uint8_t *p;
  doc_bytes(c, bytes, n); /* the document decoder reads them */
  for (int mode = 0; mode < 4; mode++) {
    int copy = mode & 1, in_place = mode >> 1;
    bag out;
    memset(&out, 0xAB, sizeof out);
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, L.bag, bytes, n, &out, arena, sizeof arena,
                                 &used, (copy ? WIRE_MEM_COPY : 0) |
                                 (in_place ? WIRE_MEM_ARRAYS_IN_PLACE : 0)),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    check_same(&v, &out, 1);
    /* views point into the input, copies into the arena */
    const uint8_t *t = (const uint8_t *)out.title.p;
    if (copy) cr_assert(t >= arena && t < arena + used);
    else cr_assert(t >= bytes && t < bytes + n);
    /* dense arrays: into the arena, unless left in place (not with
     * WIRE_MEM_COPY) */
    const uint8_t *a = (const uint8_t *)out.nums;
    if (in_place && !copy) cr_assert(a >= bytes && a + 4 * out.nnums <= bytes + n);
    else cr_assert(a >= arena && a + 4 * out.nnums <= arena + used);
    /* and encoding the decoded value gives the same bytes */
    cr_assert_eq(wire_mem_encode(c, L.bag, &out, &p, &n), WIRE_OK);
    cr_assert(!memcmp(p, bytes, n));
  }
  wire_ctx_free(c);
}

/* wire_mem_decode_bases: the bases are the input and the arena the call
 * saw, the image is wire_mem_decode's, and its addresses less the bases are
 * offsets of the same bytes (a string in the input, list items in the
 * arena). */
Test(mem, decode_bases) {
  lay L;
  wire_ctx *c = make(fdl, 1, &L);
  uint8_t bytes[4096];
  size_t n = sample_bytes(c, &L, bytes, sizeof bytes);
  bag a, b;
  size_t ua = 0, ub = 0;
  static uint8_t arena2[1 << 16];
  cr_assert_eq(wire_mem_decode(c, L.bag, bytes, n, &a, arena, sizeof arena,
                               &ua, 0), WIRE_OK);
  uint64_t bases[2] = {0, 0};
  cr_assert_eq(wire_mem_decode_bases(c, L.bag, bytes, n, &b, arena2,
                                     sizeof arena2, &ub, 0, bases),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert_eq(bases[0], (uint64_t)(uintptr_t)bytes);
  cr_assert_eq(bases[1], (uint64_t)(uintptr_t)arena2);
  cr_assert_eq(ua, ub);
  check_same(&a, &b, 1);
  uint64_t t = (uint64_t)(uintptr_t)b.title.p - bases[0];
  cr_assert_lt(t, n);
  cr_assert_eq((const uint8_t *)a.title.p, bytes + t);
  uint64_t k = (uint64_t)(uintptr_t)b.tags - bases[1];
  cr_assert_lt(k, ub);
  cr_assert(!memcmp(arena2 + k, a.tags, b.ntags * sizeof *b.tags));
  cr_assert_eq(wire_mem_decode_bases(c, L.bag, bytes, n, &b, arena2,
                                     sizeof arena2, &ub, 0, NULL),
               WIRE_E_ARG);
  wire_ctx_free(c);
}

Test(mem, roundtrip_same_schema) { roundtrip(0); }
Test(mem, roundtrip_compatible) { roundtrip(1); }

Test(mem, null_optional_and_empty) {
  lay L;
  wire_ctx *c = make(fdl, 1, &L);
  bag v = sample();
  v.has_maybe = 0;
  v.ntags = 0;
  v.tags = (const str *)"";
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, L.bag, &v, &p, &n), WIRE_OK);
  bag out;
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, L.bag, p, n, &out, arena, sizeof arena,
                               &used, 0), WIRE_OK);
  cr_assert_eq(out.has_maybe, 0);
  cr_assert_eq(out.ntags, 0);
  cr_assert_not_null(out.tags); /* empty, not null */
  wire_ctx_free(c);
}

Test(mem, writer_typedef_mapping) {
  /* a writer with the v2 types (through the document API) */
  lay W, R;
  wire_ctx *w = make(fdl_v2, 1, &W);
  wire_ctx *r = make(fdl, 1, &R);
  uint32_t tb;
  cr_assert_eq(wire_schema_find_type(w, "t.Bag", 5, &tb), WIRE_OK);
  /* the writer's Bag with its extra string (field 10 of the v2 Bag) */
  typedef struct { bag b; str extra; } bag2;
  uint32_t l2;
  cr_assert_eq(wire_mem_layout_new(w, tb, sizeof(bag2), &l2), WIRE_OK);
  int32_t st = 0;
  st |= wire_mem_layout_field(w, l2, 0, WIRE_MEM_I64, O(bag, id), N, N, N);
  st |= wire_mem_layout_field(w, l2, 1, WIRE_MEM_STR, O(bag, title.p), O(bag, title.n), N, N);
  st |= wire_mem_layout_field(w, l2, 2, WIRE_MEM_LIST, O(bag, tags), O(bag, ntags), N, W.str);
  st |= wire_mem_layout_field(w, l2, 3, WIRE_MEM_LIST, O(bag, pts), O(bag, npts), N, W.pt);
  st |= wire_mem_layout_field(w, l2, 4, WIRE_MEM_STRUCT, O(bag, head), N, N, W.pt);
  st |= wire_mem_layout_field(w, l2, 5, WIRE_MEM_ENUM, O(bag, color), N, N, N);
  st |= wire_mem_layout_field(w, l2, 6, WIRE_MEM_I32, O(bag, maybe), N, O(bag, has_maybe), N);
  st |= wire_mem_layout_field(w, l2, 7, WIRE_MEM_ARRAY, O(bag, nums), O(bag, nnums), N, N);
  st |= wire_mem_layout_field(w, l2, 8, WIRE_MEM_MAP, O(bag, m), O(bag, nm), N, W.kv);
  st |= wire_mem_layout_field(w, l2, 9, WIRE_MEM_BOOL, O(bag, ok), N, N, N);
  st |= wire_mem_layout_field(w, l2, 10, WIRE_MEM_STR, O(bag2, extra.p), O(bag2, extra.n), N, N);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(w));
  bag2 v;
  v.b = sample();
  v.extra = (str){"not read", 8};
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(w, l2, &v, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(w));
  uint8_t bytes[4096];
  memcpy(bytes, p, n);
  for (int round = 0; round < 3; round++) { /* the mapping is cached */
    bag out;
    memset(&out, 0xAB, sizeof out);
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(r, R.bag, bytes, n, &out, arena, sizeof arena,
                                 &used, WIRE_MEM_COPY),
                 WIRE_OK, "%s at %llu", wire_ctx_error_message(r),
                 (unsigned long long)wire_ctx_error_offset(r));
    check_same(&v.b, &out, 0);
    cr_assert_eq(out.ratio, 0.0); /* not sent: the default */
  }
  wire_ctx_free(w);
  wire_ctx_free(r);
}

/* A writer of the v2 Bag (w) and a reader of this schema's (r), what the
 * tests of another writer's TypeDef start from: the Bag's type (tb, the
 * same index in both), the reader's Pt (tp) and the writer's TypeDef of
 * the Bag (td[0..tdn)). */
typedef struct {
  lay W, R;
  wire_ctx *w, *r;
  uint32_t tb, tp;
  const uint8_t *td;
  size_t tdn;
} v2_reading;

static void v2_reading_make(v2_reading *v) {
  v->w = make(fdl_v2, 1, &v->W);
  v->r = make(fdl, 1, &v->R);
  cr_assert_eq(wire_schema_find_type(v->w, "t.Bag", 5, &v->tb), WIRE_OK);
  cr_assert_eq(wire_schema_find_type(v->r, "t.Pt", 4, &v->tp), WIRE_OK);
  cr_assert_eq(wire_schema_typedef(v->w, v->tb, &v->td, &v->tdn), WIRE_OK);
}

/* wire_gen_map (what generated decoders ask for another writer's TypeDef):
 * the field map of the v2 Bag, cached, and the TypeDefs it refuses. */
Test(mem, gen_field_map) {
  v2_reading v;
  v2_reading_make(&v);
  wire_ctx *w = v.w, *r = v.r;
  const uint8_t *td = v.td;
  size_t tdn = v.tdn;
  uint8_t wtd[1024];
  cr_assert_leq(tdn + 8, sizeof wtd);
  memcpy(wtd, td, tdn);
  memset(wtd + tdn, 0xEE, 8); /* what follows the TypeDef in a message */
  size_t n = 0;
  const uint32_t *map = NULL, *again = NULL;
  uint32_t nmap = 0, nagain = 0;
  cr_assert_eq(wire_gen_map(r, v.R.bag, wtd, tdn + 8, &n, &map, &nmap), WIRE_OK, "%s",
               wire_ctx_error_message(r));
  cr_assert_eq(n, tdn);
  cr_assert_eq(nmap, 11); /* the writer's fields */
  uint32_t reads = 0, skips = 0;
  for (uint32_t i = 0; i < nmap; i++) {
    if (map[i] >> 24 == WIRE_GEN_MAP_READ) reads++;
    if (map[i] >> 24 == WIRE_GEN_MAP_SKIP) {
      cr_assert_eq((map[i] >> 16) & 0xFF, WIRE_T_STRING); /* extra */
      skips++;
    }
  }
  cr_assert_eq(reads, 10);
  cr_assert_eq(skips, 1);
  /* the second time: the same map, from the cache */
  cr_assert_eq(wire_gen_map(r, v.R.bag, wtd, tdn, &n, &again, &nagain), WIRE_OK);
  cr_assert_eq(again, map);
  cr_assert_eq(nagain, nmap);
  /* refused: cut short, a bad hash, another type's TypeDef, the
   * registered one, bad arguments */
  cr_assert_eq(wire_gen_map(r, v.R.bag, wtd, 7, &n, &map, &nmap), WIRE_E_TRUNCATED);
  cr_assert_eq(wire_gen_map(r, v.R.bag, wtd, tdn - 1, &n, &map, &nmap), WIRE_E_TYPEDEF);
  wtd[tdn - 1] ^= 1;
  cr_assert_neq(wire_gen_map(r, v.R.bag, wtd, tdn, &n, &map, &nmap), WIRE_OK);
  wtd[tdn - 1] ^= 1;
  cr_assert_eq(wire_schema_typedef(r, v.tp, &td, &tdn), WIRE_OK);
  cr_assert_eq(wire_gen_map(r, v.R.bag, td, tdn, &n, &map, &nmap), WIRE_E_SCHEMA);
  cr_assert_eq(wire_schema_typedef(r, v.tb, &td, &tdn), WIRE_OK);
  cr_assert_eq(wire_gen_map(r, v.R.bag, td, tdn, &n, &map, &nmap), WIRE_E_UNSUPPORTED);
  cr_assert_eq(wire_gen_map(r, 999, td, tdn, &n, &map, &nmap), WIRE_E_ARG);
  cr_assert_eq(wire_gen_map(r, v.R.bag, NULL, tdn, &n, &map, &nmap), WIRE_E_ARG);
  cr_assert_eq(wire_gen_map(NULL, v.R.bag, td, tdn, &n, &map, &nmap), WIRE_E_ARG);
  wire_ctx_free(w);
  wire_ctx_free(r);
}

/* wire_mem_typedef_skips (what the Go binding's tape path asks so that
 * it drops the fields the compiled decoder drops): for the v2 Bag read
 * as this schema's, the fields wire_gen_map reads are kept and the one it
 * skips is reported; short room, cut or foreign TypeDefs and bad
 * arguments are refused. */
Test(mem, typedef_skips) {
  v2_reading v;
  v2_reading_make(&v);
  wire_ctx *w = v.w, *r = v.r;
  const uint8_t *td = v.td;
  size_t tdn = v.tdn, n = 0, nskip = 0;
  uint8_t skip[32];
  memset(skip, 0xEE, sizeof skip);
  cr_assert_eq(wire_mem_typedef_skips(r, v.R.bag, td, tdn, skip, sizeof skip,
                                      &nskip),
               WIRE_OK, "%s", wire_ctx_error_message(r));
  const uint32_t *map = NULL;
  uint32_t nmap = 0;
  cr_assert_eq(wire_gen_map(r, v.R.bag, td, tdn, &n, &map, &nmap), WIRE_OK);
  cr_assert_eq(nskip, nmap);
  size_t skips = 0;
  for (uint32_t i = 0; i < nmap; i++) {
    uint32_t act = map[i] >> 24;
    cr_assert(skip[i] == 0 || skip[i] == 1, "field %u: %u", i, skip[i]);
    if (act == WIRE_GEN_MAP_READ || act == WIRE_GEN_MAP_INT)
      cr_assert_eq(skip[i], 0, "field %u is read", i);
    if (act == WIRE_GEN_MAP_SKIP || act == WIRE_GEN_MAP_SKIP_FLAG)
      cr_assert_eq(skip[i], 1, "field %u is dropped", i);
    skips += skip[i];
  }
  cr_assert_eq(skips, 1);
  cr_assert_eq(skip[nmap], 0xEE); /* nothing written past the count */
  /* the registered TypeDef: every field kept */
  const uint8_t *rtd;
  size_t rtdn;
  cr_assert_eq(wire_schema_typedef(r, v.tb, &rtd, &rtdn), WIRE_OK);
  cr_assert_eq(wire_mem_typedef_skips(r, v.R.bag, rtd, rtdn, skip, sizeof skip,
                                      &nskip), WIRE_OK);
  cr_assert_gt(nskip, 0);
  for (size_t i = 0; i < nskip; i++) cr_assert_eq(skip[i], 0);
  /* refused */
  cr_assert_eq(wire_mem_typedef_skips(r, v.R.bag, td, tdn, skip, 3, &nskip),
               WIRE_E_BUFFER_FULL);
  cr_assert_eq(nskip, nmap);
  cr_assert_neq(wire_mem_typedef_skips(r, v.R.bag, td, 7, skip, sizeof skip,
                                       &nskip), WIRE_OK);
  cr_assert_neq(wire_mem_typedef_skips(r, v.R.bag, td, tdn - 1, skip,
                                       sizeof skip, &nskip), WIRE_OK);
  cr_assert_eq(wire_schema_typedef(r, v.tp, &rtd, &rtdn), WIRE_OK);
  cr_assert_eq(wire_mem_typedef_skips(r, v.R.bag, rtd, rtdn, skip, sizeof skip,
                                      &nskip), WIRE_E_SCHEMA);
  cr_assert_eq(wire_mem_typedef_skips(r, 999, td, tdn, skip, sizeof skip,
                                      &nskip), WIRE_E_ARG);
  cr_assert_eq(wire_mem_typedef_skips(r, v.R.bag, NULL, tdn, skip, sizeof skip,
                                      &nskip), WIRE_E_ARG);
  cr_assert_eq(wire_mem_typedef_skips(NULL, v.R.bag, td, tdn, skip, sizeof skip,
                                      &nskip), WIRE_E_ARG);
  wire_ctx_free(w);
  wire_ctx_free(r);
}

/* A field a writer's TypeDef lacks: counted by wire_mem_absent_count
 * (the registered TypeDef and a field sent as null are not), its
 * presence flag 2 with WIRE_MEM_MARK_ABSENT (0 without), told from a
 * null (0) and a value (1); an unknown form flag is refused. */
static const char fdl_ab1[] = "package t;\nmessage Q [id=205] { int32 a = 1; }\n";
static const char fdl_ab2[] =
    "package t;\nmessage Q [id=205] { int32 a = 1; optional int32 b = 2;\n"
    "  optional int32 c = 3; }\n";
typedef struct { int32_t a, b, c; uint8_t has_b, has_c; } qv;

static wire_ctx *make_q(const char *text, uint32_t *l) {
  wire_ctx *c = mem_ctx(text, "t.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  cr_assert_eq(wire_mem_layout_new(c, mem_ctx_type(c, "t.Q"), sizeof(qv), l),
               WIRE_OK);
  int32_t st = wire_mem_layout_field(c, *l, 0, WIRE_MEM_I32, O(qv, a), N, N, N);
  if (strstr(text, "optional")) {
    cr_assert_eq(wire_mem_layout_field(c, *l, 1, WIRE_MEM_I32 | 0x800u,
                                       O(qv, b), N, O(qv, has_b), N),
                 WIRE_E_ARG);
    st |= wire_mem_layout_field(c, *l, 1, WIRE_MEM_I32 | WIRE_MEM_MARK_ABSENT,
                                O(qv, b), N, O(qv, has_b), N);
    st |= wire_mem_layout_field(c, *l, 2, WIRE_MEM_I32, O(qv, c), N,
                                O(qv, has_c), N);
  }
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, *l), WIRE_OK, "%s", wire_ctx_error_message(c));
  return c;
}

static qv read_q(wire_ctx *r, uint32_t l, wire_ctx *w, uint32_t wl,
                 const qv *v) {
  const uint8_t *p;
  size_t n, used = 0;
  cr_assert_eq(wire_mem_encode(w, wl, v, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(w));
  qv out;
  memset(&out, 0xAB, sizeof out);
  cr_assert_eq(wire_mem_decode(r, l, p, n, &out, arena, sizeof arena, &used,
                               WIRE_MEM_COPY),
               WIRE_OK, "%s", wire_ctx_error_message(r));
  return out;
}

Test(mem, absent_fields) {
  uint32_t l1, l2;
  wire_ctx *w = make_q(fdl_ab1, &l1);
  wire_ctx *r = make_q(fdl_ab2, &l2);
  cr_assert_eq(wire_mem_absent_count(r), 0);
  cr_assert_eq(wire_mem_absent_count(NULL), 0);
  qv v = {4, 0, 0, 0, 0};
  for (uint64_t k = 1; k <= 2; k++) { /* mapped, then from the cache */
    qv out = read_q(r, l2, w, l1, &v);
    cr_assert_eq(out.a, 4);
    cr_assert_eq(out.b, 0);
    cr_assert_eq(out.has_b, 2); /* WIRE_MEM_MARK_ABSENT */
    cr_assert_eq(out.c, 0);
    cr_assert_eq(out.has_c, 0); /* without it */
    cr_assert_eq(wire_mem_absent_count(r), k);
  }
  /* the registered TypeDef: a null and a value, not counted */
  qv n2 = {5, 0, 6, 0, 1};
  qv out = read_q(r, l2, r, l2, &n2);
  cr_assert_eq(out.has_b, 0);
  cr_assert_eq(out.has_c, 1);
  cr_assert_eq(out.c, 6);
  n2.has_b = 1;
  n2.b = 7;
  out = read_q(r, l2, r, l2, &n2);
  cr_assert_eq(out.has_b, 1);
  cr_assert_eq(out.b, 7);
  cr_assert_eq(wire_mem_absent_count(r), 2);
  wire_ctx_free(w);
  wire_ctx_free(r);
}

Test(mem, truncated_everywhere) {
  lay L;
  wire_ctx *c = make(fdl, 1, &L);
  uint8_t bytes[4096];
  size_t n = sample_bytes(c, &L, bytes, sizeof bytes);
  for (size_t k = 0; k < n; k++) {
    bag out;
    size_t used = 0;
    int32_t st = wire_mem_decode(c, L.bag, bytes, k, &out, arena, sizeof arena,
                                 &used, WIRE_MEM_COPY);
    cr_assert_neq(st, WIRE_OK, "a prefix of %zu bytes decoded", k);
    cr_assert_eq(wire_ctx_error_code(c), st);
    cr_assert_leq(wire_ctx_error_offset(c), k, "prefix %zu: %s at %llu", k,
                  wire_ctx_error_message(c),
                  (unsigned long long)wire_ctx_error_offset(c));
  }
  /* one byte more is trailing */
  bytes[n] = 0;
  bag out;
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, L.bag, bytes, n + 1, &out, arena,
                               sizeof arena, &used, 0), WIRE_E_TRAILING);
  cr_assert_eq(wire_ctx_error_offset(c), n);
  wire_ctx_free(c);
}

Test(mem, small_arena_and_bad_values) {
  lay L;
  wire_ctx *c = make(fdl, 0, &L);
  uint8_t bytes[4096];
  size_t n = sample_bytes(c, &L, bytes, sizeof bytes);
  bag out;
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, L.bag, bytes, n, &out, arena, 8, &used,
                               WIRE_MEM_COPY), WIRE_E_BUFFER_FULL);
  cr_assert_gt(used, 8, "the size needed (a lower bound) is reported");
  /* the bool: the byte before the f64 ratio (same-schema order puts the
   * fixed-size fields first) - find it by value: ok is the only 0x01 that
   * changes the decode into WIRE_E_VALUE when set to 2 */
  int found = 0;
  for (size_t k = 7; k < n && !found; k++) {
    if (bytes[k] != 1) continue;
    bytes[k] = 2;
    used = 0;
    if (wire_mem_decode(c, L.bag, bytes, n, &out, arena, sizeof arena, &used,
                        0) == WIRE_E_VALUE &&
        wire_ctx_error_offset(c) == k)
      found = 1;
    bytes[k] = 1;
  }
  cr_assert(found, "no bool byte refused with WIRE_E_VALUE at its offset");
  /* invalid UTF-8 in the title */
  uint8_t *t = NULL;
  for (size_t k = 0; k + 5 <= n && !t; k++)
    if (!memcmp(bytes + k, "title", 5)) t = bytes + k;
  cr_assert_not_null(t);
  t[1] = 0xC0;
  used = 0;
  cr_assert_eq(wire_mem_decode(c, L.bag, bytes, n, &out, arena, sizeof arena,
                               &used, 0), WIRE_E_STRING);
  /* the same when strings are copied (copied and checked in one pass) */
  used = 0;
  cr_assert_eq(wire_mem_decode(c, L.bag, bytes, n, &out, arena, sizeof arena,
                               &used, WIRE_MEM_COPY), WIRE_E_STRING);
  wire_ctx_free(c);
}

Test(mem, refs_of_shared_pointers) {
  static const char f[] =
      "package r;\n"
      "message Node [id=300] { string name = 1; Node next = 2 [ref = true];"
      " Node other = 3 [ref = true]; }\n";
  typedef struct node { str name; const struct node *next, *other; } node;
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *c = mem_ctx(f, "r.fdl",
                          MEM_OPTS(WIRE_OPT_REF_TRACKING, 1,
                                   WIRE_OPT_COMPATIBLE, compatible));
    uint32_t t = mem_ctx_type(c, "r.Node");
    uint32_t l;
    /* through the flat table */
    const uint32_t rows[][WIRE_MEM_ROW] = {
        {WIRE_MEM_ROW_LAYOUT, t, sizeof(node), 0, 0, 0, 0, 0},
        {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(node, name.p), O(node, name.n), N, N, 0},
        {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STRUCT_PTR, O(node, next), N, N, 0, 0},
        {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_STRUCT_PTR, O(node, other), N, N, 0, 0},
    };
    cr_assert_eq(wire_mem_layout_table(c, &rows[0][0], 4, &l), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    node b = {{"b", 1}, NULL, NULL};
    node a = {{"a", 1}, &b, &b}; /* b twice */
    b.next = &a;                 /* and a cycle back to the root */
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, l, &a, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    uint8_t bytes[256];
    memcpy(bytes, p, n);
    doc_bytes(c, bytes, n);
    node out;
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, l, bytes, n, &out, arena, sizeof arena,
                                 &used, WIRE_MEM_COPY),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_not_null(out.next);
    cr_assert_eq(out.next, out.other, "the shared node is one object");
    cr_assert_eq(out.next->next, &out, "the cycle leads back to the root");
    cr_assert(str_eq(out.next->name, (str){"b", 1}));
    wire_ctx_free(c);
  }
}

/* A bool array held as bytes: any byte other than 0 is written as 1 (the
 * encoder takes eight at a time, then the rest one by one). */
Test(mem, bool_array_bytes) {
  static const char f[] =
      "package b;\n"
      "message Flags [id=310] { array<bool> on = 1; int32 after = 2; }\n";
  typedef struct { const uint8_t *on; uint32_t n; int32_t after; } flags;
  wire_ctx *c = mem_ctx(f, "b.fdl", NULL);
  uint32_t t = mem_ctx_type(c, "b.Flags");
  uint32_t l;
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, t, sizeof(flags), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_ARRAY, O(flags, on), O(flags, n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_I32, O(flags, after), N, N, N, 0},
  };
  cr_assert_eq(wire_mem_layout_table(c, &rows[0][0], 3, &l), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  static const uint8_t on[19] = {0, 1, 2, 0x7F, 0x80, 0xFF, 0, 0x10,
                                 0x01, 0, 0, 0, 0, 0, 0, 0x40,
                                 0xFE, 0, 3};
  for (uint32_t n = 0; n <= sizeof on; n++) {
    flags v = {on, n, -3};
    const uint8_t *p;
    size_t len;
    cr_assert_eq(wire_mem_encode(c, l, &v, &p, &len), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    cr_assert(len <= 128);
    uint8_t got[128];
    memcpy(got, p, len);
    /* the same bytes as the array of 0s and 1s gives */
    uint8_t norm[sizeof on];
    for (uint32_t i = 0; i < n; i++) norm[i] = on[i] ? 1 : 0;
    flags w = {norm, n, -3};
    size_t wlen;
    cr_assert_eq(wire_mem_encode(c, l, &w, &p, &wlen), WIRE_OK);
    cr_assert_eq(wlen, len);
    cr_assert(!memcmp(p, got, len), "bools of %u bytes", n);
    /* and the 0/1 bytes are on the wire: the last n+? bytes hold them */
    const uint8_t *hit = NULL;
    for (size_t k = 0; n && k + n <= len && !hit; k++)
      if (!memcmp(got + k, norm, n) && k && got[k - 1] == n) hit = got + k;
    cr_assert(!n || hit, "the normalized bools are in the bytes");
    uint8_t bytes[128];
    memcpy(bytes, got, len);
    flags out;
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, l, bytes, len, &out, arena, sizeof arena,
                                 &used, WIRE_MEM_COPY),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(out.n, n);
    cr_assert(!n || !memcmp(out.on, norm, n));
    cr_assert_eq(out.after, -3);
  }
  wire_ctx_free(c);
}

/* The depth limit counts the items of a list of structs as one level
 * below the list's struct: refused when that level is past the limit,
 * and not when the list is empty. */
Test(mem, depth_of_list_items) {
  static const char f[] =
      "package d;\n"
      "message P [id=320] { int32 x = 1; }\n"
      "message L [id=321] { list<P> ps = 1; }\n";
  typedef struct { int32_t x; } P;
  typedef struct { const P *ps; uint32_t n; } Lst;
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *c = mem_ctx(f, "d.fdl",
                          MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
    uint32_t tp = mem_ctx_type(c, "d.P");
    uint32_t tl = mem_ctx_type(c, "d.L");
    uint32_t lp, ll;
    cr_assert_eq(wire_mem_layout_new(c, tp, sizeof(P), &lp), WIRE_OK);
    cr_assert_eq(wire_mem_layout_new(c, tl, sizeof(Lst), &ll), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, lp, 0, WIRE_MEM_I32, O(P, x), N, N, N), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, ll, 0, WIRE_MEM_LIST, O(Lst, ps), O(Lst, n), N, lp), WIRE_OK);
    static const P ps[2] = {{1}, {-2}};
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, 1), WIRE_OK);
    Lst empty = {NULL, 0}, two = {ps, 2};
    cr_assert_eq(wire_mem_encode(c, ll, &empty, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    cr_assert_eq(wire_mem_encode(c, ll, &two, &p, &n), WIRE_E_DEPTH);
    cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, 2), WIRE_OK);
    cr_assert_eq(wire_mem_encode(c, ll, &two, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    /* the depth is back at the root's after the list: encoding again */
    cr_assert_eq(wire_mem_encode(c, ll, &two, &p, &n), WIRE_OK);
    wire_ctx_free(c);
  }
}

/* Lists of structs nested deeper than the encoder's frame stack (16):
 * the levels past it are written by a call each, the bytes read back,
 * and the depth limit still counts every level. */
Test(mem, deep_list_of_structs) {
  static const char f[] =
      "package t;\n"
      "message T [id=322] { int32 v = 1; list<T> kids = 2; int32 w = 3; }\n";
  typedef struct T T;
  struct T { int32_t v; const T *kids; uint32_t n; int32_t w; };
  enum { D = 40 };
  static T chain[D], leaves[2];
  for (int i = 0; i < D; i++)
    chain[i] = (T){i, i + 1 < D ? &chain[i + 1] : leaves, i + 1 < D ? 1 : 2,
                   -i};
  leaves[0] = (T){100, NULL, 0, 7};
  leaves[1] = (T){101, NULL, 0, 8};
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *c = mem_ctx(f, "t.fdl",
                          MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
    uint32_t tt = mem_ctx_type(c, "t.T");
    uint32_t lt;
    cr_assert_eq(wire_mem_layout_new(c, tt, sizeof(T), &lt), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, lt, 0, WIRE_MEM_I32, O(T, v), N, N, N), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, lt, 1, WIRE_MEM_LIST, O(T, kids), O(T, n), N, lt), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, lt, 2, WIRE_MEM_I32, O(T, w), N, N, N), WIRE_OK);
    const uint8_t *p;
    size_t n;
    /* the root and D levels of items below it */
    cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, D), WIRE_OK);
    cr_assert_eq(wire_mem_encode(c, lt, chain, &p, &n), WIRE_E_DEPTH);
    cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, D + 1), WIRE_OK);
    cr_assert_eq(wire_mem_encode(c, lt, chain, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    uint8_t bytes[1024];
    cr_assert(n <= sizeof bytes);
    memcpy(bytes, p, n);
    /* the same bytes again: the depth is back at the root's */
    cr_assert_eq(wire_mem_encode(c, lt, chain, &p, &n), WIRE_OK);
    cr_assert(!memcmp(bytes, p, n));
    T out;
    size_t used = 0;
    /* (the decoder counts its levels its own way: not tested here) */
    cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, 1000), WIRE_OK);
    cr_assert_eq(wire_mem_decode(c, lt, bytes, n, &out, arena, sizeof arena,
                                 &used, WIRE_MEM_COPY),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    const T *t = &out;
    for (int i = 0; i < D; i++) {
      cr_assert_eq(t->v, i);
      cr_assert_eq(t->w, -i);
      cr_assert_eq(t->n, i + 1 < D ? 1u : 2u);
      if (i + 1 < D) t = t->kids;
    }
    cr_assert_eq(t->kids[0].v, 100);
    cr_assert_eq(t->kids[0].w, 7);
    cr_assert_eq(t->kids[1].v, 101);
    cr_assert_eq(t->kids[1].w, 8);
    cr_assert_eq(t->kids[1].n, 0u);
    wire_ctx_free(c);
  }
}

/* The decoder's depth limit on structs nested past its frame stack (16
 * levels read in one loop, deeper ones by a call): lists of structs
 * (each list and its items one level each) and inline structs (one
 * level each), at the limit and one below it: the same status and
 * offset whatever the frame stack's size. */
Test(mem, deep_decode_limits) {
  enum { D = 40, K = 24 };
  /* lists: T's kids, D levels below the root */
  static const char f[] =
      "package t;\n"
      "message T [id=322] { int32 v = 1; list<T> kids = 2; int32 w = 3; }\n";
  typedef struct T T;
  struct T { int32_t v; const T *kids; uint32_t n; int32_t w; };
  static T chain[D + 1];
  for (int i = 0; i <= D; i++)
    chain[i] = (T){i, i < D ? &chain[i + 1] : NULL, i < D ? 1 : 0, -i};
  /* inline structs: S0 { S1 s; int32 v } ... S(K-1) { int32 v } */
  char g[4096];
  size_t gl = (size_t)snprintf(g, sizeof g, "package u;\n");
  for (int i = 0; i < K; i++)
    gl += (size_t)snprintf(g + gl, sizeof g - gl,
                           i + 1 < K ? "message S%d [id=%d] { S%d s = 1 [nullable = false]; int32 v = 2; }\n"
                                     : "message S%d [id=%d] { int32 v = 2; }\n",
                           i, 400 + i, i + 1);
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *c = wire_ctx_new();
    wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, compatible);
    cr_assert_eq(wire_schema_load_fdl(c, f, strlen(f), "t.fdl"), WIRE_OK,
                 "%s", wire_ctx_error_message(c));
    cr_assert_eq(wire_schema_load_fdl(c, g, gl, "u.fdl"), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    wire_schema_finish(c);
    uint32_t tt, lt, ls[K];
    cr_assert_eq(wire_schema_find_type(c, "t.T", 3, &tt), WIRE_OK);
    cr_assert_eq(wire_mem_layout_new(c, tt, sizeof(T), &lt), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, lt, 0, WIRE_MEM_I32, O(T, v), N, N, N), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, lt, 1, WIRE_MEM_LIST, O(T, kids), O(T, n), N, lt), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, lt, 2, WIRE_MEM_I32, O(T, w), N, N, N), WIRE_OK);
    /* S_i at offset 0 of S_(i-1): v of S_i at 4 * (K - 1 - i)... laid out
     * as int32 v[K] read from the innermost: S_i's v at 4 * i from the
     * outermost's start, S_(i+1) at 4 * (i + 1) */
    for (int i = K - 1; i >= 0; i--) {
      char name[16];
      snprintf(name, sizeof name, "u.S%d", i);
      uint32_t ti;
      cr_assert_eq(wire_schema_find_type(c, name, strlen(name), &ti), WIRE_OK);
      cr_assert_eq(wire_mem_layout_new(c, ti, 4 * (size_t)(K - i), &ls[i]), WIRE_OK);
      if (i + 1 < K)
        cr_assert_eq(wire_mem_layout_field(c, ls[i], 0, WIRE_MEM_STRUCT, 4, N, N, ls[i + 1]), WIRE_OK);
      cr_assert_eq(wire_mem_layout_field(c, ls[i], i + 1 < K ? 1 : 0, WIRE_MEM_I32, 0, N, N, N), WIRE_OK);
    }
    int32_t sv[K];
    for (int i = 0; i < K; i++) sv[i] = 10 * i;
    for (int which = 0; which < 2; which++) {
      const uint8_t *p;
      size_t n;
      uint32_t l = which ? ls[0] : lt;
      const void *v = which ? (const void *)sv : (const void *)chain;
      cr_assert_eq(wire_mem_encode(c, l, v, &p, &n), WIRE_OK, "%s",
                   wire_ctx_error_message(c));
      uint8_t bytes[2048];
      cr_assert(n <= sizeof bytes);
      memcpy(bytes, p, n);
      /* the levels: the root, then two a list (D lists) or one an inline
       * struct (K - 1 of them) */
      uint32_t need = which ? K : 1 + 2 * D;
      /* where the first level past the limit begins (the decoder enters a
       * level after its struct's type meta): a list's (the count, the
       * element header and meta of the deepest list, each limit below it
       * failing there too, at its list's level); an inline struct's body,
       * one struct (its v and, not compatible, hash) further per level */
      static const uint64_t at[2][2][2] = {{{325, 325}, {130, 136}},
                                           {{262, 262}, {430, 447}}};
      for (uint32_t lim = need - 2; lim <= need; lim++) {
        cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_DEPTH, lim), WIRE_OK);
        static uint8_t out[4096];
        size_t used = 0;
        int32_t st = wire_mem_decode(c, l, bytes, n, out, arena, sizeof arena,
                                     &used, WIRE_MEM_COPY);
        if (lim == need) {
          cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(c));
          continue;
        }
        cr_assert_eq(st, WIRE_E_DEPTH);
        cr_assert_eq(wire_ctx_error_offset(c), at[compatible][which][lim - (need - 2)],
                     "compatible %d, %s, limit %u: at %llu", compatible,
                     which ? "inline" : "lists", lim,
                     (unsigned long long)wire_ctx_error_offset(c));
      }
    }
    wire_ctx_free(c);
  }
}

/* Varints at every length boundary (the encoder has a word-at-a-time
 * writer besides the byte-at-a-time one): the shortest form, read back. */
static size_t vlen(uint64_t u) {
  size_t n = 1;
  while (u >= 0x80 && n < 9) { u >>= 7; n++; }
  return n;
}
Test(mem, varint_boundaries) {
  static const char f[] =
      "package v;\n"
      "message V [id=323] { int32 a = 1; int64 b = 2; int32 c = 3; int64 d = 4; }\n";
  typedef struct { int32_t a; int64_t b; int32_t c; int64_t d; } V;
  wire_ctx *c = mem_ctx(f, "v.fdl", NULL);
  uint32_t tv = mem_ctx_type(c, "v.V");
  uint32_t lv;
  cr_assert_eq(wire_mem_layout_new(c, tv, sizeof(V), &lv), WIRE_OK);
  cr_assert_eq(wire_mem_layout_field(c, lv, 0, WIRE_MEM_I32, O(V, a), N, N, N), WIRE_OK);
  cr_assert_eq(wire_mem_layout_field(c, lv, 1, WIRE_MEM_I64, O(V, b), N, N, N), WIRE_OK);
  cr_assert_eq(wire_mem_layout_field(c, lv, 2, WIRE_MEM_I32, O(V, c), N, N, N), WIRE_OK);
  cr_assert_eq(wire_mem_layout_field(c, lv, 3, WIRE_MEM_I64, O(V, d), N, N, N), WIRE_OK);
  const uint8_t *p;
  size_t n, base = 0;
  V zero = {0, 0, 0, 0};
  cr_assert_eq(wire_mem_encode(c, lv, &zero, &p, &n), WIRE_OK);
  base = n - 4; /* four one-byte varints */
  for (int bit = 0; bit < 64; bit++) {
    for (int k = -1; k <= 1; k++) {
      uint64_t u = (UINT64_C(1) << bit) + (uint64_t)(int64_t)k;
      /* zigzag of a and b: u itself; c and d: -u */
      int64_t s64 = (int64_t)((u >> 1) ^ (uint64_t)-(int64_t)(u & 1));
      int32_t s32 = (int32_t)(uint32_t)(u & 0xFFFFFFFFu);
      V v = {s32, s64, (int32_t)(0u - (uint32_t)s32), (int64_t)(0 - (uint64_t)s64)};
      cr_assert_eq(wire_mem_encode(c, lv, &v, &p, &n), WIRE_OK);
      uint32_t za = ((uint32_t)v.a << 1) ^ (uint32_t)(v.a >> 31);
      uint32_t zc = ((uint32_t)v.c << 1) ^ (uint32_t)(v.c >> 31);
      uint64_t zd = ((uint64_t)v.d << 1) ^ (uint64_t)(v.d >> 63);
      cr_assert_eq(n, base + vlen(za) + vlen(u) + vlen(zc) + vlen(zd),
                   "bit %d k %d", bit, k);
      uint8_t bytes[128];
      memcpy(bytes, p, n);
      V out;
      size_t used = 0;
      cr_assert_eq(wire_mem_decode(c, lv, bytes, n, &out, arena, sizeof arena,
                                   &used, WIRE_MEM_COPY),
                   WIRE_OK, "%s", wire_ctx_error_message(c));
      cr_assert(out.a == v.a && out.b == v.b && out.c == v.c && out.d == v.d,
                "bit %d k %d", bit, k);
    }
  }
  wire_ctx_free(c);
}

/* A tracked struct pointer that is an item of a list, named again by a
 * later field: the decoder records list items as references too. */
Test(mem, refs_to_list_items) {
  static const char f[] =
      "package r;\n"
      "message Item [id=310] { string name = 1; }\n"
      "message Hold [id=311] { list<ref Item> items = 1;"
      " ref Item pick = 2 [nullable = false]; }\n";
  typedef struct { str name; } item;
  typedef struct { const item *const *items; uint32_t n; const item *pick; } hold;
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *c = mem_ctx(f, "r.fdl",
                          MEM_OPTS(WIRE_OPT_REF_TRACKING, 1,
                                   WIRE_OPT_COMPATIBLE, compatible));
    uint32_t ti = mem_ctx_type(c, "r.Item");
    uint32_t th = mem_ctx_type(c, "r.Hold");
    uint32_t l;
    const uint32_t rows[][WIRE_MEM_ROW] = {
        {WIRE_MEM_ROW_LAYOUT, th, sizeof(hold), 0, 0, 0, 0, 0},
        {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, O(hold, items), O(hold, n), N, 2, 0},
        {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STRUCT_PTR, O(hold, pick), N, N, 1, 0},
        {WIRE_MEM_ROW_LAYOUT, ti, sizeof(item), 0, 0, 0, 0, 0},
        {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(item, name.p), O(item, name.n), N, N, 0},
        {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(void *), 0, 0, 0, 0, 0},
        {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, 1, 0},
    };
    cr_assert_eq(wire_mem_layout_table(c, &rows[0][0], 7, &l), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    item a = {{"a", 1}}, b = {{"b", 1}};
    const item *list[3] = {&a, &b, &a};
    hold h = {list, 3, &b};
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, l, &h, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    uint8_t bytes[256];
    cr_assert_leq(n, sizeof bytes);
    memcpy(bytes, p, n);
    doc_bytes(c, bytes, n);
    hold out;
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, l, bytes, n, &out, arena, sizeof arena,
                                 &used, WIRE_MEM_COPY),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(out.n, 3);
    cr_assert_eq(out.items[0], out.items[2], "a list item named twice");
    cr_assert_eq(out.pick, out.items[1], "a field naming a list item");
    cr_assert(str_eq(out.pick->name, (str){"b", 1}));
    wire_ctx_free(c);
  }
}

Test(mem, bind_errors) {
  lay L;
  wire_ctx *c = make(fdl, 1, &L);
  uint32_t tp, l;
  cr_assert_eq(wire_schema_find_type(c, "t.Pt", 4, &tp), WIRE_OK);
  cr_assert_eq(wire_mem_layout_new(c, tp, sizeof(pt), &l), WIRE_OK);
  /* a string in an integer form */
  cr_assert_eq(wire_mem_layout_field(c, l, 1, WIRE_MEM_I32, 0, N, N, N), WIRE_OK);
  cr_assert_eq(wire_mem_bind(c, l), WIRE_E_ARG);
  /* no such field, bound twice, a bound layout */
  cr_assert_eq(wire_mem_layout_field(c, L.pt, 9, WIRE_MEM_I32, 0, N, N, N), WIRE_E_STATE);
  uint32_t l2;
  cr_assert_eq(wire_mem_layout_new(c, tp, sizeof(pt), &l2), WIRE_OK);
  cr_assert_eq(wire_mem_layout_field(c, l2, 9, WIRE_MEM_I32, 0, N, N, N), WIRE_E_ARG);
  cr_assert_eq(wire_mem_layout_field(c, l2, 0, WIRE_MEM_I32, 0, N, N, N), WIRE_OK);
  cr_assert_eq(wire_mem_layout_field(c, l2, 0, WIRE_MEM_I32, 0, N, N, N), WIRE_E_ARG);
  cr_assert_eq(wire_mem_layout_new(c, 999, 4, &l2), WIRE_E_ARG);
  /* a layout without its non-nullable field decodes but does not encode */
  uint32_t l3;
  cr_assert_eq(wire_mem_layout_new(c, tp, sizeof(pt), &l3), WIRE_OK);
  cr_assert_eq(wire_mem_layout_field(c, l3, 0, WIRE_MEM_I32, O(pt, x), N, N, N), WIRE_OK);
  pt v = {5, {"five", 4}};
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, L.pt, &v, &p, &n), WIRE_OK);
  uint8_t bytes[64];
  memcpy(bytes, p, n);
  pt out = {0, {NULL, 0}};
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, l3, bytes, n, &out, arena, sizeof arena,
                               &used, 0), WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert_eq(out.x, 5);
  cr_assert_null(out.name.p);
  cr_assert_eq(wire_mem_encode(c, l3, &out, &p, &n), WIRE_E_ENCODE);
  /* a buffer too small */
  uint8_t small[4];
  cr_assert_eq(wire_mem_encode_to(c, L.pt, &v, small, sizeof small, &n),
               WIRE_E_BUFFER_FULL);
  cr_assert_gt(n, sizeof small);
  wire_ctx_free(c);
}

/* WIRE_MEM_STR_TAGGED: strings handed over in the encoding the caller
 * holds them in (the wire header in the length word) are written as
 * given, whatever the string policy; they come back in their wire encoding
 * with the header, untranscoded; bad text is refused unless trusted. */
Test(mem, tagged_strings) {
  static const char f[] =
      "package s;\n"
      "message S [id=310] { string a = 1; string b = 2; string c = 3; "
      "list<string> l = 4; }\n";
  typedef struct { const uint8_t *p; uint32_t h; } tstr;
  typedef struct { tstr a, b, c; const tstr *l; uint32_t nl; } sv;
  const uint32_t TAG = WIRE_MEM_STR | WIRE_MEM_STR_TAGGED;
  for (int policy = 0; policy < 2; policy++) {
    wire_ctx *c = mem_ctx(
        f, "s.fdl",
        MEM_OPTS(WIRE_OPT_COMPATIBLE, 1, WIRE_OPT_STRING_POLICY,
                 policy ? WIRE_STRING_JAVA : WIRE_STRING_AS_GIVEN));
    uint32_t t = mem_ctx_type(c, "s.S");
    uint32_t l, el;
    cr_assert_eq(wire_mem_layout_new(c, WIRE_MEM_ELEMENT, sizeof(tstr), &el), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, el, 0, TAG, O(tstr, p), O(tstr, h), N, N), WIRE_OK);
    cr_assert_eq(wire_mem_layout_new(c, t, sizeof(sv), &l), WIRE_OK);
    int32_t st = 0;
    st |= wire_mem_layout_field(c, l, 0, TAG, O(sv, a.p), O(sv, a.h), N, N);
    st |= wire_mem_layout_field(c, l, 1, TAG, O(sv, b.p), O(sv, b.h), N, N);
    st |= wire_mem_layout_field(c, l, 2, TAG, O(sv, c.p), O(sv, c.h), N, N);
    st |= wire_mem_layout_field(c, l, 3, WIRE_MEM_LIST, O(sv, l), O(sv, nl), N, el);
    cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
    /* Latin-1 "caf\xe9", UTF-16LE "\u4e2d", UTF-8 "\xc3\xa9" */
    static const uint8_t lat[] = {'c', 'a', 'f', 0xE9};
    static const uint8_t u16[] = {0x2D, 0x4E};
    static const uint8_t u8[] = {0xC3, 0xA9};
    tstr items[2] = {{u16, (2u << 2) | WIRE_STR_UTF16},
                     {lat, (4u << 2) | WIRE_STR_LATIN1}};
    sv v = {{lat, (4u << 2) | WIRE_STR_LATIN1},
            {u16, (2u << 2) | WIRE_STR_UTF16},
            {u8, (2u << 2) | WIRE_STR_UTF8}, items, 2};
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, l, &v, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    uint8_t bytes[256];
    memcpy(bytes, p, n);
    /* the document decoder sees each string in the encoding given */
    wire_doc *d;
    cr_assert_eq(wire_decode(c, bytes, n, &d), WIRE_OK);
    wire_node *root = wire_doc_root(d, 0);
    const int32_t want[3] = {WIRE_STR_LATIN1, WIRE_STR_UTF16, WIRE_STR_UTF8};
    for (uint32_t i = 0; i < 3; i++) {
      uint32_t at;
      const char name[2] = {(char)('a' + i), 0};
      cr_assert_eq(wire_struct_field_index(d, root, name, 1, &at), WIRE_OK);
      cr_assert_eq(wire_node_string_encoding(wire_node_field(root, at)),
                   want[i], "field %s", name);
    }
    wire_doc_free(d);
    /* decoded: untranscoded, with the header */
    for (int copy = 0; copy < 2; copy++) {
      sv out;
      size_t used = 0;
      cr_assert_eq(wire_mem_decode(c, l, bytes, n, &out, arena, sizeof arena,
                                   &used, copy ? WIRE_MEM_COPY : 0), WIRE_OK,
                   "%s", wire_ctx_error_message(c));
      cr_assert_eq(out.a.h, v.a.h);
      cr_assert_eq(out.b.h, v.b.h);
      cr_assert_eq(out.c.h, v.c.h);
      cr_assert(!memcmp(out.a.p, lat, 4) && !memcmp(out.b.p, u16, 2) &&
                !memcmp(out.c.p, u8, 2));
      cr_assert_eq(out.nl, 2);
      cr_assert_eq(out.l[0].h, items[0].h);
      cr_assert_eq(out.l[1].h, items[1].h);
      cr_assert_eq(copy ? (out.a.p >= arena && out.a.p < arena + used)
                        : (out.a.p >= bytes && out.a.p < bytes + n), 1);
      /* and they encode back to the same bytes */
      cr_assert_eq(wire_mem_encode(c, l, &out, &p, &n), WIRE_OK);
      cr_assert(!memcmp(p, bytes, n));
    }
    /* refused: an unpaired surrogate, odd UTF-16, bad UTF-8, encoding 3 */
    static const uint8_t lone[] = {0x00, 0xD8};
    sv bad = v;
    bad.b = (tstr){lone, (2u << 2) | WIRE_STR_UTF16};
    cr_assert_eq(wire_mem_encode(c, l, &bad, &p, &n), WIRE_E_STRING);
    bad.b = (tstr){u16, (1u << 2) | WIRE_STR_UTF16};
    cr_assert_eq(wire_mem_encode(c, l, &bad, &p, &n), WIRE_E_STRING);
    bad.b = (tstr){lat, (4u << 2) | WIRE_STR_UTF8};
    cr_assert_eq(wire_mem_encode(c, l, &bad, &p, &n), WIRE_E_STRING);
    bad.b = (tstr){lat, (4u << 2) | 3};
    cr_assert_eq(wire_mem_encode(c, l, &bad, &p, &n), WIRE_E_ENCODE);
    /* trusted: written as given, no check */
    wire_ctx_set_option(c, WIRE_OPT_TRUSTED_TEXT, 1);
    bad.b = (tstr){lone, (2u << 2) | WIRE_STR_UTF16};
    cr_assert_eq(wire_mem_encode(c, l, &bad, &p, &n), WIRE_OK);
    /* the decoder refuses such text in a field (the struct loop's reader)
     * and in a list item (the items loop's), copied or not: a lone
     * surrogate, odd UTF-16, Latin-1 bytes labelled UTF-8, encoding 3 */
    const tstr refused[4] = {{lone, (2u << 2) | WIRE_STR_UTF16},
                             {u16, (1u << 2) | WIRE_STR_UTF16},
                             {lat, (4u << 2) | WIRE_STR_UTF8},
                             {lat, (4u << 2) | WIRE_STR_LATIN1}};
    for (int k = 0; k < 4; k++) {
      for (int where = 0; where < 2; where++) {
        /* (Latin-1 "caf\xe9" only where the text under test is) */
        tstr its[2] = {items[0], items[0]};
        bad = v;
        bad.l = its;
        if (where) {
          its[1] = refused[k];
          bad.a = v.c;
        } else {
          bad.a = refused[k];
        }
        cr_assert_eq(wire_mem_encode(c, l, &bad, &p, &n), WIRE_OK);
        memcpy(bytes, p, n);
        if (k == 3) {
          /* Latin-1 written, its header's encoding bits set to 3 (the
           * only 4-byte text with that header: 0x10 then "caf") */
          size_t at = 0;
          while (at + 4 <= n && memcmp(bytes + at, "\x10" "caf", 4)) at++;
          cr_assert(at + 4 <= n);
          bytes[at] |= 3;
        }
        for (int copy = 0; copy < 2; copy++) {
          sv out;
          size_t used = 0;
          int32_t r = wire_mem_decode(c, l, bytes, n, &out, arena,
                                      sizeof arena, &used,
                                      copy ? WIRE_MEM_COPY : 0);
          cr_assert(r == WIRE_E_STRING || (k == 3 && r != WIRE_OK),
                    "text %d in %s (copy %d): %d", k,
                    where ? "an item" : "a field", copy, r);
        }
      }
    }
    /* the flag belongs to strings only */
    uint32_t l4;
    cr_assert_eq(wire_mem_layout_new(c, t, sizeof(sv), &l4), WIRE_OK);
    cr_assert_eq(wire_mem_layout_field(c, l4, 3, WIRE_MEM_LIST | WIRE_MEM_STR_TAGGED,
                                       O(sv, l), O(sv, nl), N, el), WIRE_E_ARG);
    wire_ctx_free(c);
  }
}

/* Unions (WIRE_MEM_UNION): the case id in memory beside the value, each
 * case a row of the union's own layout; the bytes equal the document
 * encoder's; an unknown case is read and dropped with its id kept. */
Test(mem, unions) {
  static const char f[] =
      "package u;\n"
      "enum Color [id=330] { RED = 0; GREEN = 1; }\n"
      "message Pt [id=331] { int32 x = 1; }\n"
      "union Shape [id=332] { string name = 1; int32 count = 2; Pt point = 3;\n"
      "  list<string> tags = 4; Color color = 5; float64 other = 6; }\n"
      "message Holder [id=333] { Shape s = 1; optional Shape os = 2;\n"
      "  list<Shape> many = 3; }\n";
  typedef struct { int32_t x; } upt;
  typedef struct {
    uint32_t case_id;
    union { str name; int32_t count; upt point; struct { const str *items; uint32_t n; } tags; uint32_t color; } v;
  } shape;
  typedef struct { shape s; shape os; uint8_t has_os; const shape *many; uint32_t nmany; } holder;
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx *c = mem_ctx(f, "u.fdl",
                          MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
    uint32_t tpt = mem_ctx_type(c, "u.Pt");
    uint32_t tsh = mem_ctx_type(c, "u.Shape");
    uint32_t tho = mem_ctx_type(c, "u.Holder");
    uint32_t lpt, lsh, lho, lstr;
    int32_t st = 0;
    st |= wire_mem_layout_new(c, tpt, sizeof(upt), &lpt);
    st |= wire_mem_layout_new(c, tsh, sizeof(shape), &lsh);
    st |= wire_mem_layout_new(c, tho, sizeof(holder), &lho);
    st |= wire_mem_layout_new(c, WIRE_MEM_ELEMENT, sizeof(str), &lstr);
    st |= wire_mem_layout_field(c, lpt, 0, WIRE_MEM_I32, 0, N, N, N);
    st |= wire_mem_layout_field(c, lstr, 0, WIRE_MEM_STR, O(str, p), O(str, n), N, N);
    /* the cases, relative to the union's memory (the struct shape) */
    st |= wire_mem_layout_field(c, lsh, 0, WIRE_MEM_STR, O(shape, v.name.p), O(shape, v.name.n), N, N);
    st |= wire_mem_layout_field(c, lsh, 1, WIRE_MEM_I32, O(shape, v.count), N, N, N);
    st |= wire_mem_layout_field(c, lsh, 2, WIRE_MEM_STRUCT, O(shape, v.point), N, N, lpt);
    st |= wire_mem_layout_field(c, lsh, 3, WIRE_MEM_LIST, O(shape, v.tags.items), O(shape, v.tags.n), N, lstr);
    st |= wire_mem_layout_field(c, lsh, 4, WIRE_MEM_ENUM, O(shape, v.color), N, N, N);
    /* case 6 (other) is not bound */
    uint32_t lel;
    st |= wire_mem_layout_new(c, WIRE_MEM_ELEMENT, sizeof(shape), &lel);
    st |= wire_mem_layout_field(c, lel, 0, WIRE_MEM_UNION, 0, O(shape, case_id), N, lsh);
    st |= wire_mem_layout_field(c, lho, 0, WIRE_MEM_UNION, O(holder, s), O(holder, s.case_id), N, lsh);
    st |= wire_mem_layout_field(c, lho, 1, WIRE_MEM_UNION, O(holder, os), O(holder, os.case_id), O(holder, has_os), lsh);
    st |= wire_mem_layout_field(c, lho, 2, WIRE_MEM_LIST, O(holder, many), O(holder, nmany), N, lel);
    cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
    cr_assert_eq(wire_mem_bind(c, lho), WIRE_OK, "%s", wire_ctx_error_message(c));
    static const str tags2[] = {{"a", 1}, {"bc", 2}};
    shape many[4];
    memset(many, 0, sizeof many);
    many[0].case_id = 1; many[0].v.name = (str){"nm", 2};
    many[1].case_id = 3; many[1].v.point.x = -7;
    many[2].case_id = 4; many[2].v.tags.items = tags2; many[2].v.tags.n = 2;
    many[3].case_id = 5; many[3].v.color = 1;
    holder v;
    memset(&v, 0, sizeof v);
    v.s.case_id = 2; v.s.v.count = 300;
    v.has_os = 0;
    v.many = many; v.nmany = 4;
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, lho, &v, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    uint8_t bytes[512];
    memcpy(bytes, p, n);
    /* the document path reads the same bytes and writes them again */
    wire_doc *d;
    cr_assert_eq(wire_decode(c, bytes, n, &d), WIRE_OK, "%s at %llu",
                 wire_ctx_error_message(c), (unsigned long long)wire_ctx_error_offset(c));
    uint8_t *again;
    size_t alen;
    cr_assert_eq(wire_encode(c, d, &again, &alen), WIRE_OK);
    cr_assert(alen == n && !memcmp(again, bytes, n));
    wire_ctx_free_bytes(c, again);
    wire_doc_free(d);
    holder out;
    memset(&out, 0xAB, sizeof out);
    size_t used = 0;
    cr_assert_eq(wire_mem_decode(c, lho, bytes, n, &out, arena, sizeof arena, &used,
                                 WIRE_MEM_COPY), WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(out.s.case_id, 2);
    cr_assert_eq(out.s.v.count, 300);
    cr_assert_eq(out.has_os, 0);
    cr_assert_eq(out.nmany, 4);
    cr_assert_eq(out.many[0].case_id, 1);
    cr_assert(str_eq(out.many[0].v.name, (str){"nm", 2}));
    cr_assert_eq(out.many[1].v.point.x, -7);
    cr_assert_eq(out.many[2].v.tags.n, 2);
    cr_assert(str_eq(out.many[2].v.tags.items[1], (str){"bc", 2}));
    cr_assert_eq(out.many[3].v.color, 1);
    cr_assert_eq(wire_mem_encode(c, lho, &out, &p, &n), WIRE_OK);
    cr_assert(!memcmp(p, bytes, n));
    /* an unbound case cannot be written; a case it does not hold is read
     * and dropped, its id kept */
    size_t blen = n;
    v.s.case_id = 6;
    cr_assert_eq(wire_mem_encode(c, lho, &v, &p, &n), WIRE_E_ENCODE);
    n = blen;
    uint32_t lsh2, lho2;
    st = wire_mem_layout_new(c, tsh, sizeof(shape), &lsh2);
    st |= wire_mem_layout_field(c, lsh2, 0, WIRE_MEM_STR, O(shape, v.name.p), O(shape, v.name.n), N, N);
    st |= wire_mem_layout_new(c, tho, sizeof(holder), &lho2);
    st |= wire_mem_layout_field(c, lho2, 0, WIRE_MEM_UNION, O(holder, s), O(holder, s.case_id), N, lsh2);
    cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
    memset(&out, 0xAB, sizeof out);
    used = 0;
    cr_assert_eq(wire_mem_decode(c, lho2, bytes, n, &out, arena, sizeof arena, &used, 0),
                 WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(out.s.case_id, 2, "the case id of a case not held is kept");
    cr_assert_eq(out.s.v.count, 0, "and its value storage cleared");
    wire_ctx_free(c);
  }
}

/* The options a layout was bound under are not frozen into it: switching
 * WIRE_OPT_COMPATIBLE / WIRE_OPT_REF_TRACKING between messages gives the
 * bytes a context created in that mode gives (each mode compiled once),
 * and rows cannot be added to a layout once bound in any mode. */
Test(mem, modes_switch_between_messages) {
  lay L;
  wire_ctx *c = make(fdl, 0, &L);
  lay L0, L1;
  wire_ctx *c0 = make(fdl, 0, &L0), *c1 = make(fdl, 1, &L1);
  bag v = sample();
  for (int round = 0; round < 3; round++)
    for (int compatible = 0; compatible < 2; compatible++) {
      wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, compatible);
      const uint8_t *p, *q;
      size_t n, qn;
      cr_assert_eq(wire_mem_encode(c, L.bag, &v, &p, &n), WIRE_OK, "%s",
                   wire_ctx_error_message(c));
      uint8_t bytes[4096];
      memcpy(bytes, p, n);
      wire_ctx *ref = compatible ? c1 : c0;
      cr_assert_eq(wire_mem_encode(ref, compatible ? L1.bag : L0.bag, &v, &q, &qn),
                   WIRE_OK);
      cr_assert(n == qn && !memcmp(bytes, q, n), "round %d, compatible %d",
                round, compatible);
      bag out;
      size_t used = 0;
      cr_assert_eq(wire_mem_decode(c, L.bag, bytes, n, &out, arena, sizeof arena,
                                   &used, WIRE_MEM_COPY), WIRE_OK, "%s",
                   wire_ctx_error_message(c));
      check_same(&v, &out, 1);
    }
  cr_assert_eq(wire_mem_layout_field(c, L.pt, 1, WIRE_MEM_STR, 0, 0, N, N),
               WIRE_E_STATE);
  wire_ctx_free(c);
  wire_ctx_free(c0);
  wire_ctx_free(c1);
}

/* A writer that names its fields (pyfory's dataclasses) read with a schema
 * that numbers them: the fields are matched by snake_case name, not
 * dropped (R-EVOLVE-2), in nested structs too. */
Test(mem, named_writer_fields_reach_a_numbered_schema) {
  static const char fw[] =
      "option wire_fields_by_name = true;\n"
      "package n;\n"
      "message In [id=340] { int32 first_value = 1 [wire_name = \"firstValue\"];\n"
      "  string label = 2; }\n"
      "message Out [id=341] { In inner = 1 [nullable = false]; int64 total = 2; }\n";
  static const char fr[] =
      "package n;\n"
      "message In [id=340] { int32 first_value = 1; string label = 2; }\n"
      "message Out [id=341] { In inner = 1 [nullable = false]; int64 total = 2; }\n";
  typedef struct { int32_t a; str label; } in_t;
  typedef struct { in_t inner; int64_t total; } out_t;
  wire_ctx *cw = NULL, *cr = NULL;
  uint32_t lw = 0, lr = 0;
  for (int k = 0; k < 2; k++) {
    wire_ctx *c =
        mem_ctx(k ? fr : fw, "n.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
    uint32_t ti = mem_ctx_type(c, "n.In"), to = mem_ctx_type(c, "n.Out");
    uint32_t li, lo;
    int32_t st = wire_mem_layout_new(c, ti, sizeof(in_t), &li);
    st |= wire_mem_layout_new(c, to, sizeof(out_t), &lo);
    st |= wire_mem_layout_field(c, li, 0, WIRE_MEM_I32, O(in_t, a), N, N, N);
    st |= wire_mem_layout_field(c, li, 1, WIRE_MEM_STR, O(in_t, label.p), O(in_t, label.n), N, N);
    st |= wire_mem_layout_field(c, lo, 0, WIRE_MEM_STRUCT, O(out_t, inner), N, N, li);
    st |= wire_mem_layout_field(c, lo, 1, WIRE_MEM_I64, O(out_t, total), N, N, N);
    cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
    if (k) cr = c, lr = lo; else cw = c, lw = lo;
  }
  out_t v = {{-5, {"lbl", 3}}, 99};
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(cw, lw, &v, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(cw));
  out_t o;
  memset(&o, 0, sizeof o);
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(cr, lr, p, n, &o, arena, sizeof arena, &used,
                               WIRE_MEM_COPY), WIRE_OK, "%s",
               wire_ctx_error_message(cr));
  cr_assert_eq(o.inner.a, -5, "firstValue reaches first_value");
  cr_assert(str_eq(o.inner.label, (str){"lbl", 3}));
  cr_assert_eq(o.total, 99);
  wire_ctx_free(cw);
  wire_ctx_free(cr);
}

/* Values that take no bytes (empty structs in lists) draw on the
 * payload's zero-width budget (R-SEC-11): each list's count is bounded by
 * the bytes left, but nested lists could otherwise claim the same bytes
 * again and again (quadratic elements from a few hundred bytes). */
Test(mem, zero_width_elements_are_budgeted) {
  static const char f[] =
      "package z;\n"
      "message E [id=350] { }\n"
      "message W [id=351] { list<E> es = 1; }\n"
      "message H [id=352] { list<W> ws = 1; }\n";
  typedef struct { uint8_t unused; } e_t;
  typedef struct { const e_t *es; uint32_t n; } w_t;
  typedef struct { const w_t *ws; uint32_t n; } h_t;
  wire_ctx *c = mem_ctx(f, "z.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  uint32_t te = mem_ctx_type(c, "z.E");
  uint32_t tw = mem_ctx_type(c, "z.W");
  uint32_t th = mem_ctx_type(c, "z.H");
  uint32_t le, lw, lh;
  int32_t st = wire_mem_layout_new(c, te, sizeof(e_t), &le);
  st |= wire_mem_layout_new(c, tw, sizeof(w_t), &lw);
  st |= wire_mem_layout_new(c, th, sizeof(h_t), &lh);
  st |= wire_mem_layout_field(c, lw, 0, WIRE_MEM_LIST, O(w_t, es), O(w_t, n), N, le);
  st |= wire_mem_layout_field(c, lh, 0, WIRE_MEM_LIST, O(h_t, ws), O(h_t, n), N, lw);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  /* K inner lists, each as long as the bytes after it allow */
  enum { K = 200 };
  static e_t empties[4 * K];
  static w_t ws[K];
  for (uint32_t i = 0; i < K; i++) ws[i] = (w_t){empties, 3 * (K - i)};
  h_t v = {ws, K};
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, lh, &v, &p, &n), WIRE_OK, "%s", wire_ctx_error_message(c));
  uint8_t *bytes = malloc(n);
  memcpy(bytes, p, n);
  size_t cap = 1u << 24, used = 0;
  uint8_t *big = malloc(cap);
  h_t out;
  st = wire_mem_decode(c, lh, bytes, n, &out, big, cap, &used, 0);
  cr_assert_eq(st, WIRE_E_LIMIT, "%u empty structs from %zu bytes: %s",
               3 * K * (K + 1) / 2, n, wire_ctx_error_message(c));
  /* a few of them are fine */
  v.n = 3;
  for (uint32_t i = 0; i < 3; i++) ws[i] = (w_t){empties, 3 - i};
  cr_assert_eq(wire_mem_encode(c, lh, &v, &p, &n), WIRE_OK);
  memcpy(bytes, p, n);
  used = 0;
  cr_assert_eq(wire_mem_decode(c, lh, bytes, n, &out, big, cap, &used, 0), WIRE_OK,
               "%s", wire_ctx_error_message(c));
  cr_assert_eq(out.n, 3);
  cr_assert_eq(out.ws[0].n, 3);
  free(big);
  free(bytes);
  wire_ctx_free(c);
}

/* An out-of-band payload (root header 03): the array's body carries a band
 * marker, in-band (01, then the bytes) or out-of-band (00, the bytes in
 * the next buffer), which the inline array reader must not take for the
 * length. */
Test(mem, arrays_in_an_out_of_band_payload) {
  for (int compatible = 0; compatible < 2; compatible++) {
    lay L;
    wire_ctx *c = make(fdl, compatible, &L);
    bag v = sample();
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, L.bag, &v, &p, &n), WIRE_OK);
    wire_doc *d;
    cr_assert_eq(wire_decode(c, p, n, &d), WIRE_OK, "%s", wire_ctx_error_message(c));
    wire_ctx_set_option(c, WIRE_OPT_OUT_OF_BAND, 1);
    for (int min = 0; min < 2; min++) {
      /* every body out of band, then none (12 bytes < 100) */
      wire_ctx_set_option(c, WIRE_OPT_OOB_MIN_BYTES, min ? 100 : 0);
      uint8_t *out;
      size_t len;
      cr_assert_eq(wire_encode(c, d, &out, &len), WIRE_OK, "%s",
                   wire_ctx_error_message(c));
      cr_assert_eq(out[0], 0x03);
      size_t nb = wire_ctx_oob_count(c);
      cr_assert_eq(nb, min ? 0u : 1u);
      const uint8_t *bufs[1];
      size_t lens[1];
      if (nb) cr_assert_eq(wire_ctx_oob_buffer(c, 0, &bufs[0], &lens[0]), WIRE_OK);
      cr_assert_eq(wire_ctx_set_oob_buffers(c, bufs, lens, nb), WIRE_OK);
      bag o;
      memset(&o, 0xAB, sizeof o);
      size_t used = 0;
      cr_assert_eq(wire_mem_decode(c, L.bag, out, len, &o, arena, sizeof arena,
                                   &used, WIRE_MEM_COPY),
                   WIRE_OK, "min %d: %s at %llu", min, wire_ctx_error_message(c),
                   (unsigned long long)wire_ctx_error_offset(c));
      check_same(&v, &o, 1);
      /* arrays left in place only when their bytes are in the input: an
       * out-of-band array is copied into the arena */
      memset(&o, 0xAB, sizeof o);
      used = 0;
      cr_assert_eq(wire_mem_decode(c, L.bag, out, len, &o, arena, sizeof arena,
                                   &used, WIRE_MEM_ARRAYS_IN_PLACE),
                   WIRE_OK, "min %d: %s", min, wire_ctx_error_message(c));
      check_same(&v, &o, 1);
      const uint8_t *a = (const uint8_t *)o.nums;
      if (min) cr_assert(a >= out && a + 4 * o.nnums <= out + len);
      else cr_assert(a >= arena && a + 4 * o.nnums <= arena + used);
      wire_ctx_set_oob_buffers(c, NULL, NULL, 0);
      wire_ctx_free_bytes(c, out);
    }
    wire_doc_free(d);
    wire_ctx_free(c);
  }
}
