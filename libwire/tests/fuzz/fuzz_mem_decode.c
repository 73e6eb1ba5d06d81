/* fuzz_mem_decode.c - libFuzzer target for the compiled codecs' decoder
 * (wire_mem_decode, mem_dec.c).
 *
 * Input: a mode byte, then a payload. Mode bit 0: compatible mode; bit 1:
 * strings copied into the arena (else views into the input); bit 2:
 * reference tracking; bits 3-4: the root layout (Outer, Inner, Holder: a
 * list of Outer and the lists of numbers Nums, G); bit 5: strings bound
 * as WIRE_MEM_STR_TAGGED (left in their wire encoding); bit 6: dense
 * arrays left in the input
 * (WIRE_MEM_ARRAYS_IN_PLACE); bit 7: runs of varints read a byte at a
 * time (else a word at a time where the CPU can, mem_dec_run.c). Inner
 * has no arrays: Inner with bit 6 picks the root X instead (bit 7 then
 * its arrays in place, as X has no runs of varints), and with bits 5 and
 * 6 the root Flat (no strings to tag). X has maps with struct values
 * (inline and by pointer, each chunk's value type meta), array<bool>, a
 * struct and an enum registered by name (NS, NE: meta strings, named
 * TypeDefs), and a list of Inner whose items may each announce a TypeDef
 * of their own (seeded with 64 and 65 writers' TypeDefs: the limit of 64
 * mappings of one type, mem_dec_typedef.c); Flat has numbers only, all
 * bound, so that the root in the usual form is read by flat_body
 * (mem_dec_root.c). The
 * payload is decoded into C structs bound at run time
 * (wire_mem_layout_field) to a schema with every memory form:
 * integers of each width, floats, float16 bits, bool, strings, binary,
 * enums, nested structs inline and by pointer, optional fields with
 * presence flags, lists of strings / structs / primitives, a map, a dense
 * array, date, timestamp, decimal. G holds what the struct loop reads in
 * cases of its own (mem.h, mop.ds): a map of strings to strings (its own
 * loop), a duration, a struct pointer without a flag, struct pointers
 * with a reference flag (one-byte references), a list of tracked struct
 * pointers with null items, a list of struct pointers without flags,
 * nullable strings (null too), text in UTF-16 and Latin-1 (tagged seeds),
 * a map with null values, and runs of varint fields (mem_dec_run.c).
 * Nums has a list of every number type in the forms the bindings bind
 * them: packed (WIRE_MEM_ARRAY, the packed loops of mem_dec_lists.c and
 * dec_list's general one: varint, fixed and tagged encodings, sets, null
 * elements) with a 32-bit count (C, Kotlin) or a 64-bit one
 * (WIRE_MEM_LEN64, Go), and as element layouts of one number, nullable
 * ones with a presence byte right after the value (Kotlin's List<Int?>:
 * strides of 2, 5 and 9 bytes, items unaligned) or padded (C).
 * In compatible mode the TypeDef hashes are repaired first
 * (fuzz_typedef.h, with wire_mem_decode as the decoder), so mutations
 * inside TypeDef bodies reach the mapping of a writer's TypeDef.
 * Checks:
 *   - a failure is clean (error code = status, offset within the input)
 *     and the arena is not overrun;
 *   - on success every decoded string and array points into the input or
 *     the arena, bools (X's array<bool> too) and presence bytes are 0 or
 *     1, and encoding the
 *     decoded value succeeds and decodes again (Nums: to the same
 *     numbers).
 * Everything is freed, so LeakSanitizer reports any leak.
 */
#include <stddef.h>

#include "fuzz_common.h"
#include "fuzz_typedef.h" /* fuzz_repaired_copy, fuzz_decode_mem */
#include "schema.h"        /* the TypeDef cache's entries (cache_check) */

/* (internal, mem_dec_run.c: off, layouts made from then on read runs of
 * varints a byte at a time) */
extern bool wire__mdec_words_ok;

static const char schema[] =
    "option enable_auto_type_id = false;\n" /* NE, NS: by name */
    "package fz;\n"
    "enum E [id=100] { A = 0; B = 1; C = 2; }\n"
    "message Inner [id=101] { int32 a = 1; string s = 2; optional int64 o = 3; }\n"
    "message Outer [id=102] {\n"
    "  bool b = 1; int8 i8 = 2; int16 i16 = 3; int32 i32 = 4; int64 i64 = 5;\n"
    "  uint8 u8 = 6; uint16 u16 = 7; uint32 u32 = 8; uint64 u64 = 9;\n"
    "  float32 f32 = 10; float64 f64 = 11; float16 h = 12; string s = 13;\n"
    "  bytes bin = 14; E e = 15; Inner inner = 16 [nullable = false];\n"
    "  Inner pin = 17; list<string> names = 18; list<Inner> items = 19;\n"
    "  map<string, int32> m = 20; array<int32> arr = 21; list<int64> li = 22;\n"
    "  optional string os = 23; optional int32 oi = 24; date d = 25;\n"
    "  timestamp ts = 26; decimal dec = 27; Inner rin = 28 [ref = true];\n"
    "  U u = 29; list<U> us = 30;\n"
    "}\n"
    "union U [id=104] { string name = 1; int32 n = 2; Inner in = 3;\n"
    "  list<string> tags = 4; E e = 5; float64 unbound = 6; }\n"
    "message G [id=105] {\n"
    "  map<string, string> sm = 1; duration du = 2;\n"
    "  Inner hp = 3 [nullable = false]; list<optional ref Inner> ritems = 4;\n"
    "  ref Inner r1 = 5; ref Inner r2 = 6; optional string fs = 7;\n"
    "  string text = 8; list<string> texts = 9;\n"
    "  map<string, optional string> om = 10; list<Inner> plist = 11;\n"
    "  int32 n1 = 12; int32 n2 = 13; int32 n3 = 14;\n"
    "  int64 w1 = 15; int64 w2 = 16; int64 w3 = 17;\n"
    "}\n"
    "message Holder [id=103] { list<Outer> outers = 1; Nums nums = 2; }\n"
    "message Nums [id=106] {\n"
    "  list<int32> vi32 = 1; list<int64> vi64 = 2;\n"
    "  list<fixed int32> fi32 = 3; list<fixed uint32> fu32 = 4;\n"
    "  list<float32> f32 = 5;\n"
    "  list<float64> f64 = 6; list<fixed int64> fi64 = 7;\n"
    "  list<fixed uint64> fu64 = 8; list<bool> bo = 9; list<int8> i8 = 10;\n"
    "  list<uint8> u8 = 11; list<int16> i16 = 12; list<uint32> vu32 = 13;\n"
    "  list<tagged int64> ti64 = 14;\n"
    "  list<int32> si32 = 15 [wire_set = true];\n"
    "  list<optional int64> on64 = 16; list<float16> h16 = 17;\n"
    "  list<optional int32> ni32 = 18; list<int64> ei64 = 19;\n"
    "  list<optional float64> nf64 = 20; list<optional bool> nbo = 21;\n"
    "  list<int8> ei8 = 22; list<optional int16> ni16 = 23;\n"
    "  list<float32> ef32 = 24; list<uint64> eu64 = 25;\n"
    "}\n"
    "enum NE { N0 = 0; N1 = 1; N2 = 2; }\n"
    "message NS { int32 k = 1; string t = 2; NE e = 3; }\n"
    "message X [id=107] {\n"
    "  map<string, Inner> mi = 1; map<int32, Inner> mp = 2;\n"
    "  array<bool> flags = 3; NS ns = 4; NE ne = 5;\n"
    "  list<NS> nss = 6; map<string, NS> mns = 7; list<Inner> many = 99;\n"
    "}\n"
    "message Flat [id=108] {\n"
    "  int32 a = 1; int32 b = 2; int32 c = 3; int64 d = 4; int64 e = 5;\n"
    "  float32 f = 6; float64 g = 7; bool h = 8; E i = 9; int32 j = 10;\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t n; } span;
typedef struct {
  int32_t a;
  span s;
  int64_t o;
  uint8_t has_o;
} inner_t;
typedef struct { span k; int32_t v; } entry_t;
typedef struct {
  uint32_t id;
  union { span name; int32_t n; const inner_t *in; struct { const span *p; uint32_t n; } tags; uint32_t e; } v;
} u_t;
typedef struct {
  uint8_t b;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  float f32;
  double f64;
  uint16_t h;
  span s, bin;
  uint32_t e;
  inner_t inner;
  const inner_t *pin;
  const span *names;
  uint32_t n_names;
  const inner_t *items;
  uint32_t n_items;
  const entry_t *m;
  uint32_t n_m;
  const int32_t *arr;
  uint32_t n_arr;
  const int64_t *li;
  uint32_t n_li;
  span os;
  int32_t oi;
  uint8_t has_oi;
  int64_t d;
  wire_mem_time ts;
  wire_mem_decimal dec;
  const inner_t *rin;
  u_t u;
  const u_t *us;
  uint32_t n_us;
} outer_t;
/* Nums: a pointer and a count, 32 bits (C, Kotlin) or 64 (Go) */
typedef struct {
  const uint8_t *p;
  union { uint32_t n32; uint64_t n64; } n;
} seq_t;
#define NUMS 25
typedef struct { seq_t f[NUMS]; } nums_t;
typedef struct {
  const outer_t *items;
  uint32_t n;
  const nums_t *nums;
} holder_t;
typedef struct { span k, v; } skv_t;
typedef struct {
  const skv_t *sm;
  uint32_t n_sm;
  wire_mem_time du;
  const inner_t *hp;
  const inner_t *const *ritems;
  uint32_t n_ritems;
  const inner_t *r1, *r2;
  span fs, text;
  const span *texts;
  uint32_t n_texts;
  const skv_t *om;
  uint32_t n_om;
  const inner_t *const *plist;
  uint32_t n_plist;
  int32_t n[3];
  int64_t w[3];
} g_t;

/* X: maps with struct values (inline and by pointer), array<bool>, the
 * types registered by name (NS, NE), and a list of Inner whose items may
 * each bring a TypeDef of their own (the 64-TypeDef limit) */
typedef struct { span k; inner_t v; } sie_t;
typedef struct { int32_t k; const inner_t *v; } ipe_t;
typedef struct { int32_t k; span t; uint32_t e; } ns_t;
typedef struct { span k; const ns_t *v; } sne_t;
typedef struct {
  const sie_t *mi;
  uint32_t n_mi;
  const ipe_t *mp;
  uint32_t n_mp;
  const uint8_t *flags;
  uint32_t n_flags;
  const ns_t *ns;
  uint32_t ne;
  const ns_t *nss;
  uint32_t n_nss;
  const sne_t *mns;
  uint32_t n_mns;
  const inner_t *many;
  uint32_t n_many;
} x_t;
/* Flat: numbers only, every field bound (a flat plan: mem_dec_root.c's
 * flat_body reads the root in the usual form). (An int32 bound to 64 bits
 * would not do: the layout's own plan is also the encoder's, which
 * range-checks it, so it is no flat op.) */
typedef struct {
  int32_t a, b, c;
  int64_t d, e;
  float f;
  double g;
  uint8_t h;
  uint32_t i;
  int32_t j;
} flat_t;

/* Nums' element layouts: one number at 0, its presence byte at pres */
#define NEL 8
static const struct { uint32_t form, w, size, pres; } nel[NEL] = {
    {WIRE_MEM_I32, 4, 5, 4},  /* Kotlin's List<Int?> */
    {WIRE_MEM_I64, 8, 8, WIRE_MEM_NONE},
    {WIRE_MEM_F64, 8, 9, 8},  /* List<Double?> */
    {WIRE_MEM_BOOL, 1, 2, 1}, /* List<Boolean?> */
    {WIRE_MEM_I8, 1, 1, WIRE_MEM_NONE},
    {WIRE_MEM_I16, 2, 4, 2},  /* a C struct { int16_t v; uint8_t has; } */
    {WIRE_MEM_F32, 4, 4, WIRE_MEM_NONE},
    {WIRE_MEM_U64, 8, 8, WIRE_MEM_NONE},
};
/* Nums' fields in declaration order: the form (WIRE_MEM_ARRAY: packed, of
 * `width` bytes; WIRE_MEM_LIST: items of element layout nel[el]) */
#define PK(w) {WIRE_MEM_ARRAY, w, 0}
#define PK64(w) {WIRE_MEM_ARRAY | WIRE_MEM_LEN64, w, 0}
#define EL(k) {WIRE_MEM_LIST, 0, k}
#define EL64(k) {WIRE_MEM_LIST | WIRE_MEM_LEN64, 0, k}
static const struct { uint32_t form; uint8_t width, el; } nrow[NUMS] = {
    /* vi32, vi64, fi32, fu32, f32, f64, fi64, fu64 */
    PK(4), PK64(8), PK(4), PK64(4), PK(4), PK64(8), PK(8), PK(8),
    /* bo, i8, u8, i16, vu32, ti64, si32, on64, h16 */
    PK(1), PK(1), PK64(1), PK(2), PK(4), PK(8), PK(4), PK(8), PK(2),
    /* ni32, ei64, nf64, nbo, ei8, ni16, ef32, eu64 */
    EL(0), EL64(1), EL(2), EL(3), EL(4), EL(5), EL(6), EL64(7)};
#undef PK
#undef PK64
#undef EL
#undef EL64

typedef struct {
  uint32_t inner, outer, holder, str, entry, u, uel, g, skv, iptr, nums;
  uint32_t nel[NEL];
  uint32_t x, sie, ipe, ns, sne, flat;
} layouts;

#define N WIRE_MEM_NONE
#define F(l, i, form, m, aux, pres, el)                                     \
  st |= wire_mem_layout_field(ctx, l, i, form, (uint32_t)(m), aux, pres, el)
#define O(t, m) (uint32_t) offsetof(t, m)

/* strings as WIRE_MEM_STR_TAGGED (their length word is the wire header) */
static int tagged;
#define STRF (WIRE_MEM_STR | (tagged ? WIRE_MEM_STR_TAGGED : 0))

/* G's layouts (the schema with G loaded) */
static int setup_g(wire_ctx *ctx, layouts *L) {
  uint32_t tg;
  if (wire_schema_find_type(ctx, "fz.G", 4, &tg)) return -1;
  int32_t st = 0;
  st |= wire_mem_layout_new(ctx, tg, sizeof(g_t), &L->g);
  st |= wire_mem_layout_new(ctx, WIRE_MEM_ELEMENT, sizeof(skv_t), &L->skv);
  st |= wire_mem_layout_new(ctx, WIRE_MEM_ELEMENT, sizeof(void *), &L->iptr);
  if (st) return -1;
  F(L->skv, 0, STRF, O(skv_t, k.p), O(skv_t, k.n), N, N);
  F(L->skv, 1, STRF, O(skv_t, v.p), O(skv_t, v.n), N, N);
  F(L->iptr, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, L->inner);
  uint32_t g = L->g;
  F(g, 0, WIRE_MEM_MAP, O(g_t, sm), O(g_t, n_sm), N, L->skv);
  F(g, 1, WIRE_MEM_DURATION, O(g_t, du), N, N, N);
  F(g, 2, WIRE_MEM_STRUCT_PTR, O(g_t, hp), N, N, L->inner);
  F(g, 3, WIRE_MEM_LIST, O(g_t, ritems), O(g_t, n_ritems), N, L->iptr);
  F(g, 4, WIRE_MEM_STRUCT_PTR, O(g_t, r1), N, N, L->inner);
  F(g, 5, WIRE_MEM_STRUCT_PTR, O(g_t, r2), N, N, L->inner);
  F(g, 6, STRF, O(g_t, fs.p), O(g_t, fs.n), N, N);
  F(g, 7, STRF, O(g_t, text.p), O(g_t, text.n), N, N);
  F(g, 8, WIRE_MEM_LIST, O(g_t, texts), O(g_t, n_texts), N, L->str);
  F(g, 9, WIRE_MEM_MAP, O(g_t, om), O(g_t, n_om), N, L->skv);
  F(g, 10, WIRE_MEM_LIST, O(g_t, plist), O(g_t, n_plist), N, L->iptr);
  for (uint32_t k = 0; k < 3; k++) {
    F(g, 11 + k, WIRE_MEM_I32, O(g_t, n) + 4 * k, N, N, N);
    F(g, 14 + k, WIRE_MEM_I64, O(g_t, w) + 8 * k, N, N, N);
  }
  return st ? -1 : 0;
}

/* Nums' layouts and Holder's (the schema with Holder loaded) */
static int setup_holder(wire_ctx *ctx, layouts *L) {
  uint32_t th, tn;
  if (wire_schema_find_type(ctx, "fz.Holder", 9, &th) ||
      wire_schema_find_type(ctx, "fz.Nums", 7, &tn))
    return -1;
  int32_t st = 0;
  st |= wire_mem_layout_new(ctx, th, sizeof(holder_t), &L->holder);
  st |= wire_mem_layout_new(ctx, tn, sizeof(nums_t), &L->nums);
  for (uint32_t k = 0; k < NEL; k++) {
    st |= wire_mem_layout_new(ctx, WIRE_MEM_ELEMENT, nel[k].size, &L->nel[k]);
    if (!st) F(L->nel[k], 0, nel[k].form, 0, N, nel[k].pres, N);
  }
  if (st) return -1;
  for (uint32_t i = 0; i < NUMS; i++)
    F(L->nums, i, nrow[i].form, O(nums_t, f) + i * sizeof(seq_t),
      O(nums_t, f) + i * sizeof(seq_t) + O(seq_t, n), N,
      (nrow[i].form & WIRE_MEM_F_MASK) == WIRE_MEM_LIST ? L->nel[nrow[i].el]
                                                        : N);
  F(L->holder, 0, WIRE_MEM_LIST, O(holder_t, items), O(holder_t, n), N,
    L->outer);
  F(L->holder, 1, WIRE_MEM_STRUCT_PTR, O(holder_t, nums), N, N, L->nums);
  return st ? -1 : 0;
}

/* A new layout of `size` bytes in *out: of the type named `name`, or
 * an element layout (name NULL). */
static bool new_layout(wire_ctx *ctx, const char *name, size_t size,
                       uint32_t *out) {
  uint32_t t = WIRE_MEM_ELEMENT;
  return (name && wire_schema_find_type(ctx, name, strlen(name), &t)) ||
         wire_mem_layout_new(ctx, t, size, out);
}

/* X's layouts and Flat's (the whole schema loaded) */
static int setup_x(wire_ctx *ctx, layouts *L) {
  if (new_layout(ctx, "fz.X", sizeof(x_t), &L->x) ||
      new_layout(ctx, "fz.NS", sizeof(ns_t), &L->ns) ||
      new_layout(ctx, "fz.Flat", sizeof(flat_t), &L->flat) ||
      new_layout(ctx, NULL, sizeof(sie_t), &L->sie) ||
      new_layout(ctx, NULL, sizeof(ipe_t), &L->ipe) ||
      new_layout(ctx, NULL, sizeof(sne_t), &L->sne))
    return -1;
  int32_t st = 0;
  F(L->ns, 0, WIRE_MEM_I32, O(ns_t, k), N, N, N);
  F(L->ns, 1, STRF, O(ns_t, t.p), O(ns_t, t.n), N, N);
  F(L->ns, 2, WIRE_MEM_ENUM, O(ns_t, e), N, N, N);
  F(L->sie, 0, STRF, O(sie_t, k.p), O(sie_t, k.n), N, N);
  F(L->sie, 1, WIRE_MEM_STRUCT, O(sie_t, v), N, N, L->inner);
  F(L->ipe, 0, WIRE_MEM_I32, O(ipe_t, k), N, N, N);
  F(L->ipe, 1, WIRE_MEM_STRUCT_PTR, O(ipe_t, v), N, N, L->inner);
  F(L->sne, 0, STRF, O(sne_t, k.p), O(sne_t, k.n), N, N);
  F(L->sne, 1, WIRE_MEM_STRUCT_PTR, O(sne_t, v), N, N, L->ns);
  uint32_t x = L->x;
  F(x, 0, WIRE_MEM_MAP, O(x_t, mi), O(x_t, n_mi), N, L->sie);
  F(x, 1, WIRE_MEM_MAP, O(x_t, mp), O(x_t, n_mp), N, L->ipe);
  F(x, 2, WIRE_MEM_ARRAY, O(x_t, flags), O(x_t, n_flags), N, N);
  F(x, 3, WIRE_MEM_STRUCT_PTR, O(x_t, ns), N, N, L->ns);
  F(x, 4, WIRE_MEM_ENUM, O(x_t, ne), N, N, N);
  F(x, 5, WIRE_MEM_LIST, O(x_t, nss), O(x_t, n_nss), N, L->ns);
  F(x, 6, WIRE_MEM_MAP, O(x_t, mns), O(x_t, n_mns), N, L->sne);
  F(x, 7, WIRE_MEM_LIST, O(x_t, many), O(x_t, n_many), N, L->inner);
  /* Flat's fields in declaration order: the form and the offset */
  static const uint32_t flat_f[][2] = {
      {WIRE_MEM_I32, O(flat_t, a)},  {WIRE_MEM_I32, O(flat_t, b)},
      {WIRE_MEM_I32, O(flat_t, c)},  {WIRE_MEM_I64, O(flat_t, d)},
      {WIRE_MEM_I64, O(flat_t, e)},  {WIRE_MEM_F32, O(flat_t, f)},
      {WIRE_MEM_F64, O(flat_t, g)},  {WIRE_MEM_BOOL, O(flat_t, h)},
      {WIRE_MEM_ENUM, O(flat_t, i)}, {WIRE_MEM_I32, O(flat_t, j)}};
  for (uint32_t k = 0; k < 10; k++)
    F(L->flat, k, flat_f[k][0], flat_f[k][1], N, N, N);
  return st ? -1 : 0;
}

/* The schema and the layouts of root `which` (0 Outer, 1 Inner, 2 Holder,
 * 3 G, 4 X, 5 Flat). The schema is loaded up to what the root needs (Outer and Inner:
 * the messages before G; G: up to Holder; Holder: all), so that a root
 * does without the parse and layouts of the others. */
static int setup(wire_ctx *ctx, layouts *L, uint32_t which) {
  uint32_t ti, to, tu;
  L->g = L->skv = L->iptr = L->holder = L->nums = UINT32_MAX; /* (none) */
  L->x = L->flat = UINT32_MAX;
  const char *cut = which == 2 || which >= 4 ? NULL
                    : which == 3 ? strstr(schema, "message Holder [")
                                 : strstr(schema, "message G [");
  size_t len = cut ? (size_t)(cut - schema) : sizeof schema - 1;
  if (wire_schema_load_fdl(ctx, schema, len, "fz.fdl") ||
      wire_schema_finish(ctx) ||
      wire_schema_find_type(ctx, "fz.Inner", 8, &ti) ||
      wire_schema_find_type(ctx, "fz.Outer", 8, &to) ||
      wire_schema_find_type(ctx, "fz.U", 4, &tu))
    return -1;
  int32_t st = 0;
  st |= wire_mem_layout_new(ctx, ti, sizeof(inner_t), &L->inner);
  st |= wire_mem_layout_new(ctx, to, sizeof(outer_t), &L->outer);
  st |= wire_mem_layout_new(ctx, WIRE_MEM_ELEMENT, sizeof(span), &L->str);
  st |= wire_mem_layout_new(ctx, WIRE_MEM_ELEMENT, sizeof(entry_t), &L->entry);
  st |= wire_mem_layout_new(ctx, tu, sizeof(u_t), &L->u);
  st |= wire_mem_layout_new(ctx, WIRE_MEM_ELEMENT, sizeof(u_t), &L->uel);
  if (st) return -1;
  F(L->u, 0, STRF, O(u_t, v.name.p), O(u_t, v.name.n), N, N);
  F(L->u, 1, WIRE_MEM_I32, O(u_t, v.n), N, N, N);
  F(L->u, 2, WIRE_MEM_STRUCT_PTR, O(u_t, v.in), N, N, L->inner);
  F(L->u, 3, WIRE_MEM_LIST, O(u_t, v.tags.p), O(u_t, v.tags.n), N, L->str);
  F(L->u, 4, WIRE_MEM_ENUM, O(u_t, v.e), N, N, N);
  F(L->uel, 0, WIRE_MEM_UNION, 0, O(u_t, id), N, L->u);
  F(L->inner, 0, WIRE_MEM_I32, O(inner_t, a), N, N, N);
  F(L->inner, 1, STRF, O(inner_t, s.p), O(inner_t, s.n), N, N);
  F(L->inner, 2, WIRE_MEM_I64, O(inner_t, o), N, O(inner_t, has_o), N);
  F(L->str, 0, STRF, O(span, p), O(span, n), N, N);
  F(L->entry, 0, STRF, O(entry_t, k.p), O(entry_t, k.n), N, N);
  F(L->entry, 1, WIRE_MEM_I32, O(entry_t, v), N, N, N);
  uint32_t o = L->outer;
  F(o, 0, WIRE_MEM_BOOL, O(outer_t, b), N, N, N);
  F(o, 1, WIRE_MEM_I8, O(outer_t, i8), N, N, N);
  F(o, 2, WIRE_MEM_I16, O(outer_t, i16), N, N, N);
  F(o, 3, WIRE_MEM_I32, O(outer_t, i32), N, N, N);
  F(o, 4, WIRE_MEM_I64, O(outer_t, i64), N, N, N);
  F(o, 5, WIRE_MEM_U8, O(outer_t, u8), N, N, N);
  F(o, 6, WIRE_MEM_U16, O(outer_t, u16), N, N, N);
  F(o, 7, WIRE_MEM_U32, O(outer_t, u32), N, N, N);
  F(o, 8, WIRE_MEM_U64, O(outer_t, u64), N, N, N);
  F(o, 9, WIRE_MEM_F32, O(outer_t, f32), N, N, N);
  F(o, 10, WIRE_MEM_F64, O(outer_t, f64), N, N, N);
  F(o, 11, WIRE_MEM_BITS16, O(outer_t, h), N, N, N);
  F(o, 12, STRF, O(outer_t, s.p), O(outer_t, s.n), N, N);
  F(o, 13, WIRE_MEM_BYTES, O(outer_t, bin.p), O(outer_t, bin.n), N, N);
  F(o, 14, WIRE_MEM_ENUM, O(outer_t, e), N, N, N);
  F(o, 15, WIRE_MEM_STRUCT, O(outer_t, inner), N, N, L->inner);
  F(o, 16, WIRE_MEM_STRUCT_PTR, O(outer_t, pin), N, N, L->inner);
  F(o, 17, WIRE_MEM_LIST, O(outer_t, names), O(outer_t, n_names), N, L->str);
  F(o, 18, WIRE_MEM_LIST, O(outer_t, items), O(outer_t, n_items), N, L->inner);
  F(o, 19, WIRE_MEM_MAP, O(outer_t, m), O(outer_t, n_m), N, L->entry);
  F(o, 20, WIRE_MEM_ARRAY, O(outer_t, arr), O(outer_t, n_arr), N, N);
  F(o, 21, WIRE_MEM_ARRAY, O(outer_t, li), O(outer_t, n_li), N, N);
  F(o, 22, STRF, O(outer_t, os.p), O(outer_t, os.n), N, N);
  F(o, 23, WIRE_MEM_I32, O(outer_t, oi), N, O(outer_t, has_oi), N);
  F(o, 24, WIRE_MEM_DATE, O(outer_t, d), N, N, N);
  F(o, 25, WIRE_MEM_TIMESTAMP, O(outer_t, ts), N, N, N);
  F(o, 26, WIRE_MEM_DECIMAL, O(outer_t, dec), N, N, N);
  F(o, 27, WIRE_MEM_STRUCT_PTR, O(outer_t, rin), N, N, L->inner);
  F(o, 28, WIRE_MEM_UNION, O(outer_t, u), O(outer_t, u.id), N, L->u);
  F(o, 29, WIRE_MEM_LIST, O(outer_t, us), O(outer_t, n_us), N, L->uel);
  if (st) return -1;
  return which == 3   ? setup_g(ctx, L)
         : which == 2 ? setup_holder(ctx, L)
         : which >= 4 ? setup_x(ctx, L)
                      : 0;
}

static const uint8_t *in_lo, *in_hi, *ar_lo, *ar_hi;
static void check_span(const uint8_t *p, uint32_t n) {
  if (!n) return;
  if ((p >= in_lo && p + n <= in_hi) || (p >= ar_lo && p + n <= ar_hi)) return;
  fprintf(stderr, "fuzz_mem_decode: a decoded string or array points "
                  "outside the input and the arena\n");
  abort();
}
/* a string's byte length */
static uint32_t slen(uint32_t n) { return tagged ? n >> 2 : n; }
static void check_inner(const inner_t *v) { check_span(v->s.p, slen(v->s.n)); }
static void check_outer(const outer_t *v) {
  check_span(v->s.p, slen(v->s.n));
  check_span(v->bin.p, v->bin.n);
  check_span(v->os.p, slen(v->os.n));
  check_inner(&v->inner);
  if (v->pin) check_inner(v->pin);
  if (v->rin) check_inner(v->rin);
  for (uint32_t i = 0; i <= v->n_us; i++) {
    const u_t *u = i < v->n_us ? &v->us[i] : &v->u;
    if (u->id == 1) check_span(u->v.name.p, slen(u->v.name.n));
    if (u->id == 3 && u->v.in) check_inner(u->v.in);
    if (u->id == 4)
      for (uint32_t k = 0; k < u->v.tags.n; k++)
        check_span(u->v.tags.p[k].p, slen(u->v.tags.p[k].n));
  }
  for (uint32_t i = 0; i < v->n_names; i++)
    check_span(v->names[i].p, slen(v->names[i].n));
  for (uint32_t i = 0; i < v->n_items; i++) check_inner(&v->items[i]);
  for (uint32_t i = 0; i < v->n_m; i++) check_span(v->m[i].k.p, slen(v->m[i].k.n));
  check_span((const uint8_t *)v->arr, 4 * v->n_arr);
  check_span((const uint8_t *)v->li, 8 * v->n_li);
}
static void check_kvs(const skv_t *e, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    check_span(e[i].k.p, slen(e[i].k.n));
    check_span(e[i].v.p, slen(e[i].v.n));
  }
}
static void check_g(const g_t *v) {
  check_kvs(v->sm, v->n_sm);
  check_kvs(v->om, v->n_om);
  /* (pointers may be null: a field another writer's TypeDef leaves out,
   * a list item read with flags) */
  if (v->hp) check_inner(v->hp);
  if (v->r1) check_inner(v->r1);
  if (v->r2) check_inner(v->r2);
  for (uint32_t i = 0; i < v->n_ritems; i++)
    if (v->ritems[i]) check_inner(v->ritems[i]);
  for (uint32_t i = 0; i < v->n_plist; i++)
    if (v->plist[i]) check_inner(v->plist[i]);
  check_span(v->fs.p, slen(v->fs.n));
  check_span(v->text.p, slen(v->text.n));
  for (uint32_t i = 0; i < v->n_texts; i++)
    check_span(v->texts[i].p, slen(v->texts[i].n));
}

static void check_bools(const uint8_t *p, uint32_t n, const char *what) {
  for (uint32_t i = 0; i < n; i++)
    if (p[i] > 1) {
      fprintf(stderr, "fuzz_mem_decode: %s: a bool other than 0 or 1\n", what);
      abort();
    }
}
static void check_ns(const ns_t *v) { check_span(v->t.p, slen(v->t.n)); }
static void check_x(const x_t *v) {
  for (uint32_t i = 0; i < v->n_mi; i++) {
    check_span(v->mi[i].k.p, slen(v->mi[i].k.n));
    check_inner(&v->mi[i].v);
  }
  for (uint32_t i = 0; i < v->n_mp; i++)
    if (v->mp[i].v) check_inner(v->mp[i].v);
  check_span(v->flags, v->n_flags);
  check_bools(v->flags, v->n_flags, "X.flags");
  if (v->ns) check_ns(v->ns);
  for (uint32_t i = 0; i < v->n_nss; i++) check_ns(&v->nss[i]);
  for (uint32_t i = 0; i < v->n_mns; i++) {
    check_span(v->mns[i].k.p, slen(v->mns[i].k.n));
    if (v->mns[i].v) check_ns(v->mns[i].v);
  }
  for (uint32_t i = 0; i < v->n_many; i++) check_inner(&v->many[i]);
}

static uint64_t seq_n(const seq_t *q, uint32_t i) {
  return nrow[i].form & WIRE_MEM_LEN64 ? q->n.n64 : q->n.n32;
}
/* the bytes of an item of Nums' field i */
static uint32_t nums_stride(uint32_t i) {
  return nrow[i].width ? nrow[i].width : nel[nrow[i].el].size;
}
static void nums_bad(const char *what, uint32_t i) {
  fprintf(stderr, "fuzz_mem_decode: Nums field %u: %s\n", i + 1, what);
  abort();
}
static void check_nums(const nums_t *v) {
  for (uint32_t i = 0; i < NUMS; i++) {
    const seq_t *q = &v->f[i];
    uint64_t n = seq_n(q, i);
    if (n > (1u << 16)) nums_bad("count past the collection limit", i);
    uint32_t w = nums_stride(i);
    check_span(q->p, (uint32_t)n * w);
    bool el = !nrow[i].width;
    uint32_t pres = el ? nel[nrow[i].el].pres : WIRE_MEM_NONE;
    bool bools = el ? nel[nrow[i].el].form == WIRE_MEM_BOOL : i == 8;
    for (uint64_t k = 0; k < n; k++) {
      const uint8_t *it = q->p + k * w;
      if (pres != WIRE_MEM_NONE && it[pres] > 1)
        nums_bad("a presence byte other than 0 or 1", i);
      if (bools && (pres == WIRE_MEM_NONE || it[pres]) && it[0] > 1)
        nums_bad("a bool other than 0 or 1", i);
    }
  }
}
/* Nums decoded again from its encoding: the same numbers (null items of
 * an element layout: their presence byte only) */
static void same_nums(const nums_t *a, const nums_t *b) {
  if (!a || !b) {
    if (a != b) nums_bad("null after a round trip, or not null", 0);
    return;
  }
  for (uint32_t i = 0; i < NUMS; i++) {
    uint64_t n = seq_n(&a->f[i], i);
    if (seq_n(&b->f[i], i) != n)
      nums_bad("another count after a round trip", i);
    uint32_t w = nums_stride(i);
    uint32_t pres = nrow[i].width ? WIRE_MEM_NONE : nel[nrow[i].el].pres;
    for (uint64_t k = 0; k < n; k++) {
      const uint8_t *x = a->f[i].p + k * w, *y = b->f[i].p + k * w;
      bool same = pres == WIRE_MEM_NONE ? !memcmp(x, y, w)
                  : x[pres] == y[pres] && (!x[pres] || !memcmp(x, y, pres));
      if (!same) nums_bad("another number after a round trip", i);
    }
  }
}
static void check_holder(const holder_t *h) {
  for (uint32_t i = 0; i < h->n; i++) check_outer(&h->items[i]);
  if (h->nums) check_nums(h->nums);
}

typedef union { inner_t i; outer_t o; holder_t h; g_t g; x_t x; flat_t f; } root_t;

static uint8_t arena[1 << 16];

/* The root a mode byte picks (setup's `which`): bits 3-4, Inner with bit
 * 6 (arrays in place, of which Inner has none) standing for X, or with
 * bits 5 and 6 (tagged strings too) for Flat (which has no strings). */
static uint32_t mem_root(uint8_t mode) {
  uint32_t which = (mode >> 3) & 3;
  if (which == 1 && (mode & 0x40)) which = (mode & 0x20) ? 5 : 4;
  return which;
}
static uint32_t root_layout(const layouts *L, uint32_t which) {
  switch (which) {
  case 1: return L->inner;
  case 2: return L->holder;
  case 3: return L->g;
  case 4: return L->x;
  case 5: return L->flat;
  default: return L->outer;
  }
}

/* The checks of a decoded root (out) of layout `root`. */
static void check_root(const layouts *L, uint32_t root, const root_t *out) {
  if (root == L->inner) check_inner(&out->i);
  else if (root == L->outer) check_outer(&out->o);
  else if (root == L->g) check_g(&out->g);
  else if (root == L->x) check_x(&out->x);
  else if (root == L->flat) check_bools(&out->f.h, 1, "Flat.h");
  else check_holder(&out->h);
}

/* ---- compatible mode: a small TypeDef cache turned over ----
 *
 * The compiled decoder skips a writer's field the reader lacks through the
 * document decoder (dec_skip, mem_dec.c), which reads the TypeDefs a
 * skipped value announces through the context's TypeDef cache
 * (typedef_cache.c): a full cache takes a TypeDef on its second sighting
 * and turns over, retiring entries that a document (the skip's scratch
 * document) may still hold. So in compatible mode the payload is decoded
 * again, three times, on a second context whose cache holds 1, 2 or 4
 * entries, or 8 within 4 KiB (mode bits 1 and 7: bits 1 and 5 pick
 * nothing else for X, whose list of Inner holds the TypeDefs): the first
 * decode fills it and marks the TypeDefs seen, the next ones turn it over
 * inside their skips. Checks: each decode gives the status and error
 * offset of the first context's (whatever the cache holds), a success
 * encodes to the same bytes; after each decode no entry stays retired or
 * pinned (the scratch document is freed when the call returns) and the
 * cache counts what it holds; the third decode runs while a document of
 * the payload (wire_decode on the same context) holds entries, which
 * encodes to the same bytes after it, and once it is freed nothing stays
 * retired. */
static uint8_t arena2[1 << 16];

/* The cache of ctx counts what it holds: its entries (count, bytes within
 * its limits), the retired ones and the bucket table; with no document
 * alive (idle) none is retired or pinned. */
static void cache_check(const wire_ctx *ctx, bool idle, const char *when) {
  const wire_tdcache *c = ctx->tdc;
  if (!c) return;
  size_t sum = (size_t)c->nbuckets * sizeof *c->buckets;
  uint32_t n = 0;
  for (const wire_td_entry *e = c->newest; e; e = e->older, n++)
    sum += e->size + e->proj_size;
  for (const wire_td_entry *e = c->retired; e; e = e->older)
    sum += e->size + e->proj_size;
  uint64_t most = wire_ctx_get_limit(ctx, WIRE_LIMIT_TYPEDEF_CACHE),
           bytes = wire_ctx_get_limit(ctx, WIRE_LIMIT_TYPEDEF_CACHE_BYTES);
  if (sum != c->bytes || n != c->count || n > most || c->bytes > bytes) {
    fprintf(stderr, "fuzz_mem_decode: %s: the TypeDef cache holds %u "
            "entries, %zu bytes; counts %u, %zu (limits %llu, %llu)\n",
            when, n, sum, c->count, c->bytes, (unsigned long long)most,
            (unsigned long long)bytes);
    abort();
  }
  if (idle && (c->retired || c->pins || c->pins_old)) {
    fprintf(stderr, "fuzz_mem_decode: %s: with no document alive, the "
            "TypeDef cache keeps retired entries (%s), pins %u, older pins "
            "%u\n", when, c->retired ? "some" : "none", c->pins,
            c->pins_old);
    abort();
  }
}

/* The bytes of a decoded root (NULL: it does not encode), a malloc'ed
 * copy of *n bytes. */
static uint8_t *root_bytes(wire_ctx *ctx, uint32_t root, const root_t *out,
                           size_t *n) {
  const uint8_t *enc;
  *n = 0;
  if (wire_mem_encode(ctx, root, out, &enc, n) != WIRE_OK) return NULL;
  uint8_t *b = malloc(*n ? *n : 1);
  if (!b) abort();
  memcpy(b, enc, *n);
  return b;
}

static void same_bytes(const uint8_t *a, size_t na, const uint8_t *b,
                       size_t nb, const char *what) {
  if (!a != !b || na != nb || (a && memcmp(a, b, na) != 0)) {
    fprintf(stderr, "fuzz_mem_decode: %s: encodes otherwise (%zu, %zu "
            "bytes)\n", what, na, nb);
    abort();
  }
}

/* The payload p[0..n) decoded three times on a context with a small
 * TypeDef cache (see above); st, off: the first context's status and
 * error offset; want[0..wn): its decoded value's bytes (NULL: none). */
static void small_cache_turns(uint8_t mode, uint32_t which, uint32_t flags,
                              const uint8_t *p, size_t n, int32_t st,
                              uint64_t off, const uint8_t *want, size_t wn) {
  wire_ctx *sc = fuzz_new_ctx();
  wire_ctx_set_option(sc, WIRE_OPT_COMPATIBLE, 1);
  wire_ctx_set_option(sc, WIRE_OPT_REF_TRACKING, (mode >> 2) & 1);
  uint32_t bits = ((mode >> 1) & 1) | ((mode >> 6) & 2);
  wire_ctx_set_limit(sc, WIRE_LIMIT_TYPEDEF_CACHE, 1u << bits);
  if (bits == 3) /* (8 entries: a byte budget that a few TypeDefs fill) */
    wire_ctx_set_limit(sc, WIRE_LIMIT_TYPEDEF_CACHE_BYTES, 4096);
  layouts L;
  wire__mdec_words_ok = !(mode >> 7) || which == 4;
  int bad = setup(sc, &L, which);
  wire__mdec_words_ok = true;
  if (bad) abort();
  uint32_t root = root_layout(&L, which);
  const uint8_t *ar0 = ar_lo, *ar1 = ar_hi;
  ar_lo = arena2;
  ar_hi = arena2 + sizeof arena2;
  wire_doc *doc = NULL;
  uint8_t *doc_bytes = NULL;
  size_t doc_n = 0;
  for (int round = 0; round < 3; round++) {
    if (round == 2) {
      /* a document holds the entries it read while the third decode turns
       * the cache over */
      if (wire_decode(sc, p, n, &doc) == WIRE_OK) {
        if (wire_encode(sc, doc, &doc_bytes, &doc_n) != WIRE_OK)
          doc_bytes = NULL;
      } else {
        doc = NULL;
      }
    }
    root_t out;
    memset(&out, 0, sizeof out);
    size_t used = 0;
    uint64_t turns = sc->tdc ? sc->tdc->turnovers : 0;
    int32_t st2 = wire_mem_decode(sc, root, p, n, &out, arena2,
                                  sizeof arena2, &used, flags);
    if (getenv("WIRE_FUZZ_VERBOSE"))
      fprintf(stderr, "  small TypeDef cache, decode %d: %s, %llu turnover(s) "
              "inside it, %u entries after\n", round + 1,
              wire_status_name(st2),
              (unsigned long long)((sc->tdc ? sc->tdc->turnovers : 0) - turns),
              sc->tdc ? sc->tdc->count : 0);
    fuzz_check_error(sc, st2, n, "wire_mem_decode (small TypeDef cache)");
    uint64_t off2 = st2 ? wire_ctx_error_offset(sc) : 0;
    if (st2 != st || off2 != off) {
      fprintf(stderr, "fuzz_mem_decode: decode %d with a small TypeDef "
              "cache: %s at %llu (%s); the first context: %s at %llu\n",
              round + 1, wire_status_name(st2), (unsigned long long)off2,
              st2 ? wire_ctx_error_message(sc) : "", wire_status_name(st),
              (unsigned long long)off);
      abort();
    }
    cache_check(sc, doc == NULL, "after a decode");
    if (st2 == WIRE_OK) {
      check_root(&L, root, &out);
      size_t gn;
      uint8_t *got = root_bytes(sc, root, &out, &gn);
      same_bytes(want, wn, got, gn, "a value decoded with a small cache");
      free(got);
    }
  }
  if (doc) {
    uint8_t *again = NULL;
    size_t an = 0;
    if (wire_encode(sc, doc, &again, &an) != WIRE_OK) again = NULL;
    same_bytes(doc_bytes, doc_n, again, an,
               "a document whose entries the cache retired");
    wire_ctx_free_bytes(sc, again);
    wire_ctx_free_bytes(sc, doc_bytes);
    wire_doc_free(doc);
    cache_check(sc, true, "after the document was freed");
  }
  ar_lo = ar0;
  ar_hi = ar1;
  wire_ctx_free(sc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  uint8_t mode = data[0];
  data++;
  size--;
  wire_ctx *ctx = fuzz_new_ctx();
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, mode & 1);
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, (mode >> 2) & 1);
  tagged = (mode >> 5) & 1;
  layouts L;
  uint32_t which = mem_root(mode);
  /* (X: bit 7 is its arrays in place; it has no runs of varints) */
  wire__mdec_words_ok = !(mode >> 7) || which == 4;
  int bad = setup(ctx, &L, which);
  wire__mdec_words_ok = true;
  if (bad) {
    fprintf(stderr, "fuzz_mem_decode: setup: %s\n", wire_ctx_error_message(ctx));
    abort();
  }
  uint32_t root = root_layout(&L, which);
  root_t out;
  uint32_t flags = ((mode & 2) ? WIRE_MEM_COPY : 0) |
                   ((which == 4 ? mode >> 7 : (mode >> 6) & 1)
                        ? WIRE_MEM_ARRAYS_IN_PLACE : 0);
  fuzz_mem_run run = {root, flags, &out, sizeof out, arena, sizeof arena, 0};
  int32_t st;
  uint8_t *copy = fuzz_repaired_copy(ctx, data, size, mode & 1,
                                     fuzz_decode_mem, &run, &st);
  in_lo = copy;
  in_hi = copy + size;
  ar_lo = arena;
  ar_hi = arena + sizeof arena;
  size_t used = run.used;
  if (getenv("WIRE_FUZZ_VERBOSE")) {
    fprintf(stderr, "fuzz_mem_decode: mode byte 0x%02x\n", mode);
    fuzz_hexdump("  payload (TypeDef hashes repaired)", copy, size);
    fprintf(stderr, "  decode: %s%s%s\n", wire_status_name(st),
            st ? ": " : "", st ? wire_ctx_error_message(ctx) : "");
  }
  fuzz_check_error(ctx, st, size, "wire_mem_decode");
  /* (too small: the size needed, more than the arena's) */
  if (st == WIRE_E_BUFFER_FULL ? used <= sizeof arena : used > sizeof arena)
    abort();
  uint64_t off = st ? wire_ctx_error_offset(ctx) : 0;
  int32_t st0 = st;
  uint8_t *want = NULL;
  size_t wn = 0;
  if (st == WIRE_OK) {
    check_root(&L, root, &out);
    if (mode & 1) want = root_bytes(ctx, root, &out, &wn);
    /* what was read can be written, and read again */
    const uint8_t *enc;
    size_t len;
    st = wire_mem_encode(ctx, root, &out, &enc, &len);
    if (st == WIRE_OK) {
      uint8_t *again = malloc(len);
      if (!again) abort();
      memcpy(again, enc, len);
      root_t back;
      size_t used2 = used;
      st = wire_mem_decode(ctx, root, again, len, &back, arena, sizeof arena,
                           &used2, WIRE_MEM_COPY);
      if (st != WIRE_OK && st != WIRE_E_BUFFER_FULL) {
        fprintf(stderr, "fuzz_mem_decode: re-encoded value does not decode: "
                        "%s\n", wire_ctx_error_message(ctx));
        abort();
      }
      if (st == WIRE_OK && root == L.holder) same_nums(out.h.nums, back.h.nums);
      free(again);
    } else if (st != WIRE_E_ENCODE && st != WIRE_E_STRING &&
               st != WIRE_E_DEPTH) {
      fprintf(stderr, "fuzz_mem_decode: decoded value does not encode: %s\n",
              wire_ctx_error_message(ctx));
      abort();
    }
  }
  if (mode & 1)
    small_cache_turns(mode, which, flags, copy, size, st0, off, want, wn);
  free(want);
  free(copy);
  wire_ctx_free(ctx);
  return 0;
}

#ifdef FUZZ_MEM_SEEDS
/* cc -DFUZZ_MEM_SEEDS ... -o seeds && ./seeds DIR: writes the seed corpus
 * (corpus_mem/, README.md): a populated Outer, an Inner, a Holder and a G
 * in each mode (mem_NN.bin, NN the mode byte), X and Flat (x_seeds), the G again with runs of
 * varints read a byte at a time (mem_gb_NNN.bin, mode bit 7), a G with
 * text in UTF-16 and Latin-1 written through tagged strings
 * (mem_gw_NN.bin), in compatible mode an Inner from a writer whose
 * Inner has a field less and two more (mem_wi_NN.bin: its TypeDef mapped
 * onto the reader's, mem_dec_typedef.c), a Holder of Nums alone, with
 * its arrays read in place too (mem_hn_NN.bin, NN up to 0x57), and in
 * compatible mode a Holder of a writer's Nums whose lists have other
 * number types and encodings, null items, and a field the reader lacks
 * (mem_wn_NN.bin), and in compatible mode an Outer and a G of a writer
 * whose int64 fields are int32 (mem_ww_NN.bin, mem_wwg_NN.bin: read
 * widened, writer_widen). */

/* The other writer's Inner (id 101 as the reader's) */
static const char wschema[] =
    "package fz;\n"
    "message Inner [id=101] { int32 a = 1; string s = 2; string x = 4;\n"
    "  list<int64> y = 5; }\n";
typedef struct {
  int32_t a;
  span s, x;
  const int64_t *y;
  uint32_t ny;
} winner_t;

/* The seed writer's options for a mode byte: bit 0 compatible, bit 2
 * reference tracking (as LLVMFuzzerTestOneInput reads them). */
static void seed_options(wire_ctx *ctx, int mode) {
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, mode & 1);
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, (mode >> 2) & 1);
}

/* A new context with the seed writer's options for mode. */
static wire_ctx *seed_ctx(int mode) {
  wire_ctx *ctx = wire_ctx_new();
  seed_options(ctx, mode);
  return ctx;
}

/* An Inner of wschema, encoded by ctx in mode into *enc. */
static int writer_inner(wire_ctx *ctx, int mode, const uint8_t **enc,
                        size_t *len) {
  static const int64_t ys[] = {1, -1, INT64_C(1) << 50};
  static const winner_t w = {11, {(const uint8_t *)"eleven", 6},
                             {(const uint8_t *)"more", 4}, ys, 3};
  seed_options(ctx, mode);
  uint32_t ti, l;
  if (wire_schema_load_fdl(ctx, wschema, sizeof wschema - 1, "w.fdl") ||
      wire_schema_finish(ctx) ||
      wire_schema_find_type(ctx, "fz.Inner", 8, &ti) ||
      wire_mem_layout_new(ctx, ti, sizeof(winner_t), &l))
    return -1;
  int32_t st = 0;
  F(l, 0, WIRE_MEM_I32, O(winner_t, a), N, N, N);
  F(l, 1, WIRE_MEM_STR, O(winner_t, s.p), O(winner_t, s.n), N, N);
  F(l, 2, WIRE_MEM_STR, O(winner_t, x.p), O(winner_t, x.n), N, N);
  F(l, 3, WIRE_MEM_ARRAY, O(winner_t, y), O(winner_t, ny), N, N);
  if (st) return -1;
  return wire_mem_encode(ctx, l, &w, enc, len);
}

/* The other writer's Nums (its Holder has no list of Outer): fields
 * named as the reader's with other number types, encodings and null
 * items, and one the reader lacks */
static const char wnschema[] =
    "package fz;\n"
    "message Holder [id=103] { Nums nums = 2; }\n"
    "message Nums [id=106] {\n"
    "  list<int64> vi32 = 1; list<int32> vi64 = 2; list<int32> fi32 = 3;\n"
    "  list<optional fixed uint32> fu32 = 4; list<int16> i8 = 10;\n"
    "  list<int8> i16 = 12; list<fixed int32> ni32 = 18;\n"
    "  list<int32> ei64 = 19; list<float64> ef32 = 24; list<int16> x = 30;\n"
    "}\n";
#define WN 10
typedef struct { seq_t f[WN]; } wnums_t;

/* A Holder of wnschema, encoded by ctx in mode into *enc. */
static int writer_nums(wire_ctx *ctx, int mode, const uint8_t **enc,
                       size_t *len) {
  static const int64_t vi32[] = {1, -1, INT32_MAX};
  static const int32_t vi64[] = {-5, 70000}, fi32[] = {3, -300};
  static const uint32_t fu32[] = {1, 2};
  static const int16_t i8[] = {-100, 100}, x[] = {9};
  static const int8_t i16[] = {-1, 1};
  static const int32_t ni32[] = {42}, ei64[] = {-42, 7};
  static const double ef32[] = {0.25};
  static const struct { const void *p; uint32_t n; } v[WN] = {
      {vi32, 3}, {vi64, 2}, {fi32, 2}, {fu32, 2}, {i8, 2},
      {i16, 2},  {ni32, 1}, {ei64, 2}, {ef32, 1}, {x, 1}};
  wnums_t w;
  for (int i = 0; i < WN; i++)
    w.f[i] = (seq_t){(const uint8_t *)v[i].p, {.n32 = v[i].n}};
  const wnums_t *wp = &w;
  seed_options(ctx, mode);
  uint32_t th, tn, lh, ln;
  if (wire_schema_load_fdl(ctx, wnschema, sizeof wnschema - 1, "wn.fdl") ||
      wire_schema_finish(ctx) ||
      wire_schema_find_type(ctx, "fz.Holder", 9, &th) ||
      wire_schema_find_type(ctx, "fz.Nums", 7, &tn) ||
      wire_mem_layout_new(ctx, th, sizeof wp, &lh) ||
      wire_mem_layout_new(ctx, tn, sizeof(wnums_t), &ln))
    return -1;
  int32_t st = 0;
  for (uint32_t i = 0; i < WN; i++)
    F(ln, i, WIRE_MEM_ARRAY, i * sizeof(seq_t), i * sizeof(seq_t) + 8, N, N);
  F(lh, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, ln);
  if (st) return -1;
  return wire_mem_encode(ctx, lh, &wp, enc, len);
}

/* Writes mode byte + payload to DIR/NAME_MM.bin for mode and mode | also
 * (0x20: the same payload read with plain and with tagged strings; 0:
 * mode alone). */
static int put_seed2(const char *dir, const char *name, int mode, int also,
                     const uint8_t *enc, size_t len) {
  for (int t = 0; t < (also ? 2 : 1); t++) {
    char path[4096];
    int m = mode | (t ? also : 0);
    snprintf(path, sizeof path, "%s/%s_%02d.bin", dir, name, m);
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    fputc(m, f);
    fwrite(enc, 1, len, f);
    fclose(f);
  }
  return 0;
}
static int put_seed(const char *dir, const char *name, int mode,
                    const uint8_t *enc, size_t len) {
  return put_seed2(dir, name, mode, 0x20, enc, len);
}

/* Another writer's Outer and G whose int64 fields are int32 (id and
 * names as the reader's): the reader's mapped plan reads each varint32
 * into its int64 (MX_VI32_64: Outer's i64 in the struct loop, G's w1..w3
 * in a run of varints beside the int32 n1..n3), sign-extended. */
static const char wwschema[] =
    "package fz;\n"
    "message Outer [id=102] { int32 i32 = 4; int32 i64 = 5; }\n"
    "message G [id=105] { int32 n1 = 12; int32 n2 = 13; int32 n3 = 14;\n"
    "  int32 w1 = 15; int32 w2 = 16; int32 w3 = 17; }\n";

/* An Outer (g: a G) of wwschema, encoded by ctx in mode into *enc. */
static int writer_widen(wire_ctx *ctx, int mode, int g, const uint8_t **enc,
                        size_t *len) {
  static const int32_t vo[2] = {7, INT32_MIN};
  static const int32_t vg[6] = {1, -300, 70000, INT32_MIN, -1, INT32_MAX};
  seed_options(ctx, mode);
  uint32_t ti, l;
  if (wire_schema_load_fdl(ctx, wwschema, sizeof wwschema - 1, "ww.fdl") ||
      wire_schema_finish(ctx) ||
      wire_schema_find_type(ctx, g ? "fz.G" : "fz.Outer", g ? 4 : 8, &ti) ||
      wire_mem_layout_new(ctx, ti, g ? sizeof vg : sizeof vo, &l))
    return -1;
  int32_t st = 0;
  for (uint32_t i = 0; i < (g ? 6u : 2u); i++)
    F(l, i, WIRE_MEM_I32, 4 * i, N, N, N);
  if (st) return -1;
  return wire_mem_encode(ctx, l, g ? (const void *)vg : (const void *)vo, enc,
                         len);
}

/* An Inner of a writer whose Inner has an int32 field x of tag 10 + i
 * besides a and s (a TypeDef of its own for each i: fields are written
 * by tag), encoded as a compatible
 * root: header, flag, then the item's type meta from [2]. */
typedef struct { int32_t a; span s; int32_t x; } wi_t;
static int writer_inner_i(wire_ctx *ctx, int i, const uint8_t **enc,
                          size_t *len) {
  char fdl[160];
  int n = snprintf(fdl, sizeof fdl,
                   "package fz;\nmessage Inner [id=101] { int32 a = 1; "
                   "string s = 2; int32 x = %d; }\n", 10 + i);
  /* (a string of 24 bytes: with one byte, the list of 64 items, about
   * 24 input bytes each, took fuzz_heap's document decoder past its
   * bound, crashers/open/heap-64-typedefs-list.bin) */
  wi_t w = {i, {(const uint8_t *)"an Inner of one writer..", 24}, -i};
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1);
  uint32_t ti, l;
  if (wire_schema_load_fdl(ctx, fdl, (size_t)n, "wi.fdl") ||
      wire_schema_finish(ctx) ||
      wire_schema_find_type(ctx, "fz.Inner", 8, &ti) ||
      wire_mem_layout_new(ctx, ti, sizeof w, &l))
    return -1;
  int32_t st = 0;
  F(l, 0, WIRE_MEM_I32, O(wi_t, a), N, N, N);
  F(l, 1, WIRE_MEM_STR, O(wi_t, s.p), O(wi_t, s.n), N, N);
  F(l, 2, WIRE_MEM_I32, O(wi_t, x), N, N, N);
  if (st) return -1;
  return wire_mem_encode(ctx, l, &w, enc, len);
}

/* A varuint32 at p; its length. */
static size_t put_varu32(uint8_t *p, uint32_t v) {
  size_t n = 0;
  for (; v >= 0x80; v >>= 7) p[n++] = (uint8_t)(v | 0x80);
  p[n++] = (uint8_t)v;
  return n;
}

/* In compatible mode (mode byte 0x49), an X whose list `many` holds
 * `count` Inner items of as many writers, each item with its own type
 * meta announcing its writer's TypeDef (list header 0: items of no one
 * type): 64 of them map (mem_dec_typedef.c, MAX_MAPS), a 65th is past
 * the limit. The payload is X encoded with `many` empty (the last field:
 * the highest tag of the non-primitive group, R-FORDER-2) and the items
 * spliced in for its count 0; read back here to check the splice. */
static int many_typedefs(const char *dir, const x_t *xv, uint32_t count) {
  wire_ctx *ctx = wire_ctx_new();
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1);
  layouts L;
  const uint8_t *enc;
  size_t len;
  if (setup(ctx, &L, 4) || wire_mem_encode(ctx, L.x, xv, &enc, &len) ||
      !len || enc[len - 1] != 0)
    return -1;
  size_t cap = len + 16 + (size_t)count * 64, n = len - 1;
  uint8_t *buf = malloc(cap);
  if (!buf) return -1;
  memcpy(buf, enc, n);
  n += put_varu32(buf + n, count);
  buf[n++] = 0; /* list header: no flags, items of their own types */
  for (uint32_t i = 0; i < count; i++) {
    wire_ctx *w = wire_ctx_new();
    const uint8_t *we;
    size_t wl;
    /* (the writer's root: header, not-null flag, type, marker 0) */
    if (writer_inner_i(w, (int)i, &we, &wl) || wl < 4 || we[3] != 0 ||
        n + wl + 8 > cap) {
      free(buf);
      return -1;
    }
    buf[n++] = we[2];
    n += put_varu32(buf + n, (i + 1) << 1); /* TypeDef #i+1 (X's is #0) */
    memcpy(buf + n, we + 4, wl - 4);
    n += wl - 4;
    wire_ctx_free(w);
  }
  static uint8_t ar[1 << 16];
  root_t back;
  size_t used = 0;
  int32_t st = wire_mem_decode(ctx, L.x, buf, n, &back, ar, sizeof ar, &used,
                               0);
  int32_t want = count > 64 ? WIRE_E_LIMIT : WIRE_OK;
  if (st != want || (!st && back.x.n_many != count)) {
    fprintf(stderr, "many_typedefs(%u): %s\n", count,
            st ? wire_ctx_error_message(ctx) : "items lost");
    free(buf);
    return -1;
  }
  char name[32];
  snprintf(name, sizeof name, "mem_xtd%u", count);
  int r = put_seed2(dir, name, 0x49, 0, buf, n);
  free(buf);
  wire_ctx_free(ctx);
  return r;
}

/* The length of the TypeDef at td (its 8-byte header, the size's extra
 * varint, the body), within n bytes; 0 if cut. */
static size_t td_length(const uint8_t *td, size_t n) {
  if (n < 8) return 0;
  size_t size = td[0], at = 8;
  if (size == 0xFF) {
    uint32_t extra = 0;
    for (int sh = 0; at < n && sh < 35; sh += 7) {
      extra |= (uint32_t)(td[at] & 0x7F) << sh;
      if (!(td[at++] & 0x80)) break;
    }
    size += extra;
  }
  return at + size <= n ? at + size : 0;
}

/* The other writer's X: the reader's list `many` and a list of Inner the
 * reader lacks (skipped through the document decoder, dec_skip). */
static const char wxschema[] =
    "package fz;\n"
    "message Inner [id=101] { int32 a = 1; }\n"
    "message X [id=107] { list<Inner> extra = 98; list<Inner> many = 99; }\n";

/* In compatible mode, the other writer's X (wxschema) whose skipped list
 * `extra` holds `count` Inner items of as many writers, each announcing
 * its writer's TypeDef (#1..#count, read by the document decoder through
 * the context's TypeDef cache), and whose list `many` refers to each of
 * them (the compiled decoder maps a TypeDef a skipped value announced,
 * mem_dec_typedef.c), newest first, then announces two new ones and the
 * first writer's again. Mode bytes 49, 4b, c9, cb: a TypeDef cache of
 * 1, 2, 4 entries and 8 in 4 KiB, for small_cache_turns.
 * Returns 0, or -1. */
static int skip_typedefs(const char *dir, uint32_t count) {
  wire_ctx *ctx = wire_ctx_new();
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1);
  typedef struct { const int32_t *e; uint32_t ne; const int32_t *m; uint32_t nm; } wx_t;
  uint32_t tx, ti, lx, li;
  if (wire_schema_load_fdl(ctx, wxschema, sizeof wxschema - 1, "wx.fdl") ||
      wire_schema_finish(ctx) ||
      wire_schema_find_type(ctx, "fz.X", 4, &tx) ||
      wire_schema_find_type(ctx, "fz.Inner", 8, &ti) ||
      wire_mem_layout_new(ctx, ti, sizeof(int32_t), &li) ||
      wire_mem_layout_new(ctx, tx, sizeof(wx_t), &lx))
    return -1;
  int32_t st = 0;
  F(li, 0, WIRE_MEM_I32, 0, N, N, N);
  F(lx, 0, WIRE_MEM_LIST, O(wx_t, e), O(wx_t, ne), N, li);
  F(lx, 1, WIRE_MEM_LIST, O(wx_t, m), O(wx_t, nm), N, li);
  const int32_t one = 5;
  /* `extra` of one item, `many` empty: `many` is the last field (the
   * payload ends in its count 0) */
  wx_t v1 = {&one, 1, NULL, 0}, v0 = {NULL, 0, NULL, 0};
  const uint8_t *enc;
  size_t len, len1;
  if (st || wire_mem_encode(ctx, lx, &v1, &enc, &len1) || enc[len1 - 1] != 0 ||
      wire_mem_encode(ctx, lx, &v0, &enc, &len) || len < 2 ||
      enc[len - 1] != 0 || enc[len - 2] != 0)
    return -1;
  size_t cap = len + 64 + (size_t)(count + 3) * 128, n = len - 2;
  uint8_t *buf = malloc(cap);
  if (!buf) return -1;
  memcpy(buf, enc, n);
  for (int part = 0; part < 2; part++) {
    uint32_t items = part ? count + 3 : count;
    n += put_varu32(buf + n, items);
    buf[n++] = 0; /* list header: items of their own types */
    for (uint32_t k = 0; k < items; k++) {
      /* part 1: the skipped TypeDefs newest first, then two new writers'
       * and the first writer's announced again */
      uint32_t i = !part ? k : k < count ? count - 1 - k : k - 1;
      if (part && k == count + 2) i = 0;
      bool ref = part && k < count;
      wire_ctx *w = wire_ctx_new();
      const uint8_t *we;
      size_t wl, tl;
      if (writer_inner_i(w, (int)i, &we, &wl) || wl < 4 || we[3] != 0 ||
          !(tl = td_length(we + 4, wl - 4)) || n + wl + 8 > cap) {
        free(buf);
        return -1;
      }
      buf[n++] = we[2];
      uint32_t index = part ? (k < count ? i + 1 : k + 1) : k + 1;
      n += put_varu32(buf + n, ref ? index << 1 | 1 : index << 1);
      if (!ref) {
        memcpy(buf + n, we + 4, tl);
        n += tl;
      }
      memcpy(buf + n, we + 4 + tl, wl - 4 - tl);
      n += wl - 4 - tl;
      wire_ctx_free(w);
    }
  }
  wire_ctx_free(ctx);
  /* read back: every item of `many`, in its writer's order */
  wire_ctx *rc = wire_ctx_new();
  wire_ctx_set_option(rc, WIRE_OPT_COMPATIBLE, 1);
  layouts L;
  static uint8_t ar[1 << 16];
  root_t back;
  size_t used = 0;
  if (setup(rc, &L, 4) ||
      wire_mem_decode(rc, L.x, buf, n, &back, ar, sizeof ar, &used, 0) ||
      back.x.n_many != count + 3 || back.x.many[0].a != (int32_t)count - 1 ||
      back.x.many[count + 2].a != 0) {
    fprintf(stderr, "skip_typedefs(%u): %s\n", count,
            wire_ctx_error_message(rc));
    free(buf);
    return -1;
  }
  wire_ctx_free(rc);
  static const int modes[] = {0x49, 0x4b, 0xc9, 0xcb};
  char name[32];
  snprintf(name, sizeof name, "mem_xskip%u", count);
  int r = 0;
  for (size_t m = 0; m < sizeof modes / sizeof *modes && !r; m++)
    r = put_seed2(dir, name, modes[m], 0, buf, n);
  free(buf);
  return r;
}

/* X and Flat (mem_root): X populated in each mode (mem_x_MM.bin, also
 * with its arrays in place: bit 7), Flat likewise with runs of varints
 * read a word and a byte at a time (mem_f_MM.bin), and X's list of Inner
 * of 64 and 65 writers' TypeDefs (many_typedefs). Returns the number of
 * seeds written, or -1. */
static int x_seeds(const char *dir) {
  static const uint8_t flags[] = {1, 0, 0, 1, 1};
  inner_t in1 = {7, {(const uint8_t *)"seven", 5}, 70, 1};
  inner_t in2 = {-2, {(const uint8_t *)"two", 3}, 0, 0};
  sie_t mi[2] = {{{(const uint8_t *)"a", 1}, {0, {NULL, 0}, 0, 0}},
                 {{(const uint8_t *)"bee", 3}, {0, {NULL, 0}, 0, 0}}};
  mi[0].v = in1;
  mi[1].v = in2;
  ipe_t mp[2] = {{1, &in1}, {-300, &in2}};
  ns_t ns = {42, {(const uint8_t *)"named", 5}, 2};
  ns_t nss[2] = {{1, {(const uint8_t *)"x", 1}, 0}, {-1, {NULL, 0}, 1}};
  sne_t mns[2] = {{{(const uint8_t *)"k", 1}, &ns},
                  {{(const uint8_t *)"k2", 2}, &nss[0]}};
  inner_t many[2] = {in2, in1};
  x_t xv = {mi, 2, mp, 2, flags, 5, &ns, 1, nss, 2, mns, 2, many, 2};
  flat_t fv = {1, -300000, INT32_MAX, INT64_MIN, 1 << 20, 1.5f, -0.25, 1, 2,
               -5};
  int k = 0;
  for (int m = 0; m < 32; m++) {
    /* bits 0-2: compatible, copied strings, reference tracking; bit 3:
     * bit 7 of the mode byte; bit 4: Flat */
    int flat = m >> 4;
    int mode = (m & 7) | 0x48 | (flat ? 0x20 : 0) | ((m & 8) ? 0x80 : 0);
    wire_ctx *ctx = seed_ctx(mode);
    layouts L;
    const uint8_t *enc;
    size_t len;
    if (setup(ctx, &L, mem_root((uint8_t)mode)) ||
        wire_mem_encode(ctx, flat ? L.flat : L.x, flat ? (const void *)&fv
                                                       : (const void *)&xv,
                        &enc, &len) ||
        put_seed2(dir, flat ? "mem_f" : "mem_x", mode, 0, enc, len)) {
      fprintf(stderr, "seed x %02x: %s\n", mode, wire_ctx_error_message(ctx));
      return -1;
    }
    wire_ctx_free(ctx);
    k++;
  }
  x_t empty = {NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0};
  if (many_typedefs(dir, &empty, 64) || many_typedefs(dir, &empty, 65) ||
      skip_typedefs(dir, 12))
    return -1;
  return k + 7;
}

/* An item of Nums' element layout k: the value's first bytes of v (none:
 * a null item) */
static void put_item(uint8_t *it, uint32_t k, const void *v) {
  if (v) memcpy(it, v, nel[k].w);
  if (nel[k].pres != WIRE_MEM_NONE) it[nel[k].pres] = v != NULL;
}

/* a tagged span of text s (n bytes) in encoding enc */
static span tag(const char *s, uint32_t n, uint32_t enc) {
  return (span){(const uint8_t *)s, n << 2 | enc};
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  static const int32_t arr[] = {1, -2, 300000};
  static const int64_t li[] = {5, -6, INT64_C(1) << 40};
  static const span names[] = {{(const uint8_t *)"ann", 3}, {(const uint8_t *)"b\xc3\xa9", 3}};
  static const uint8_t mag[] = {0x39, 0x30};
  inner_t in1 = {7, {(const uint8_t *)"seven", 5}, 70, 1};
  inner_t items[2] = {{1, {(const uint8_t *)"one", 3}, 0, 0}, {2, {(const uint8_t *)"", 0}, -2, 1}};
  entry_t m[2] = {{{(const uint8_t *)"k", 1}, 1}, {{(const uint8_t *)"key2", 4}, -9}};
  outer_t o;
  memset(&o, 0, sizeof o);
  o.b = 1; o.i8 = -8; o.i16 = -1600; o.i32 = 320000; o.i64 = -(INT64_C(1) << 50);
  o.u8 = 200; o.u16 = 60000; o.u32 = 4000000000u; o.u64 = UINT64_C(1) << 63;
  o.f32 = 1.5f; o.f64 = -2.25; o.h = 0x3c00;
  o.s = (span){(const uint8_t *)"hello \xe2\x82\xac", 9};
  o.bin = (span){(const uint8_t *)"\x00\x01\x02", 3};
  o.e = 2; o.inner = in1; o.pin = &in1;
  o.names = names; o.n_names = 2; o.items = items; o.n_items = 2;
  o.m = m; o.n_m = 2; o.arr = arr; o.n_arr = 3; o.li = li; o.n_li = 3;
  o.os = (span){(const uint8_t *)"opt", 3}; o.oi = 5; o.has_oi = 1;
  o.d = 19000; o.ts = (wire_mem_time){1700000000, 500, 0};
  o.dec = (wire_mem_decimal){mag, 2, 2, 1, 0};
  o.rin = &in1;
  static const span utags[] = {{(const uint8_t *)"t", 1}};
  u_t us[3];
  memset(us, 0, sizeof us);
  us[0].id = 3; us[0].v.in = &in1;
  us[1].id = 4; us[1].v.tags.p = utags; us[1].v.tags.n = 1;
  us[2].id = 5; us[2].v.e = 1;
  o.u.id = 2; o.u.v.n = -77;
  o.us = us; o.n_us = 3;
  /* Nums: edge values of each type; element lists with null items */
  static const int32_t vi32[] = {0, -1, 63, -64, 300, INT32_MAX, INT32_MIN};
  static const int64_t vi64[] = {0, INT64_C(1) << 40, -(INT64_C(1) << 56),
                                 INT64_MAX, INT64_MIN};
  static const int32_t fi32[] = {1, -2, INT32_MAX};
  static const uint32_t fu32[] = {0, 4000000000u};
  static const float f32[] = {1.5f, -2.0f, 1e30f};
  static const double f64[] = {3.25, -1e300};
  static const int64_t fi64[] = {1, -(INT64_C(1) << 50)};
  static const uint64_t fu64[] = {UINT64_MAX, 7};
  static const uint8_t bo[] = {1, 0, 1}, u8[] = {255, 0};
  static const int8_t i8[] = {-128, 127, 0};
  static const int16_t i16[] = {-32768, 300};
  static const uint32_t vu32[] = {0, 128, UINT32_MAX};
  static const int64_t ti64[] = {1, INT64_C(1) << 40, -5};
  static const int32_t si32[] = {3, 1, 2};
  static const int64_t on64[] = {9, -9};
  static const uint16_t h16[] = {0x3c00, 0x7e00};
  static const struct { const void *p; uint32_t n; } packed[17] = {
      {vi32, 7}, {vi64, 5}, {fi32, 3}, {fu32, 2}, {f32, 3}, {f64, 2},
      {fi64, 2}, {fu64, 2}, {bo, 3},   {i8, 3},   {u8, 2},  {i16, 2},
      {vu32, 3}, {ti64, 3}, {si32, 3}, {on64, 2}, {h16, 2}};
  static const int32_t e_i32[] = {5, -7};
  static const int64_t e_i64[] = {1, -1, INT64_C(1) << 60};
  static const double e_f64[] = {2.5};
  static const uint8_t e_bo[] = {1, 0};
  static const int8_t e_i8[] = {-1, 2};
  static const int16_t e_i16[] = {300};
  static const float e_f32[] = {0.5f};
  static const uint64_t e_u64[] = {UINT64_C(1) << 63, 5};
  /* items by element layout (NULL: a null item) */
  const void *eitems[NEL][3] = {
      {&e_i32[0], NULL, &e_i32[1]}, {&e_i64[0], &e_i64[1], &e_i64[2]},
      {&e_f64[0], NULL},            {&e_bo[0], NULL, &e_bo[1]},
      {&e_i8[0], &e_i8[1]},         {&e_i16[0], NULL},
      {&e_f32[0]},                  {&e_u64[0], &e_u64[1]}};
  static const uint32_t eitems_n[NEL] = {3, 3, 2, 3, 2, 2, 1, 2};
  static uint8_t ebuf[NEL][3 * 9];
  nums_t nv;
  memset(&nv, 0, sizeof nv);
  for (uint32_t i = 0; i < NUMS; i++) {
    uint32_t n;
    if (nrow[i].width) {
      nv.f[i].p = packed[i].p;
      n = packed[i].n;
    } else {
      uint32_t k = nrow[i].el;
      memset(ebuf[k], 0, sizeof ebuf[k]);
      n = eitems_n[k];
      for (uint32_t j = 0; j < n; j++)
        put_item(ebuf[k] + j * nel[k].size, k, eitems[k][j]);
      nv.f[i].p = ebuf[k];
    }
    if (nrow[i].form & WIRE_MEM_LEN64) nv.f[i].n.n64 = n;
    else nv.f[i].n.n32 = n;
  }
  holder_t h = {&o, 1, &nv};
  holder_t hn = {NULL, 0, &nv}; /* Nums alone */
  /* G: shared and null items, two references to one Inner */
  inner_t in2 = {-2, {(const uint8_t *)"two", 3}, 0, 0};
  skv_t sm[2], om[2];
  sm[0] = (skv_t){{(const uint8_t *)"k", 1}, {(const uint8_t *)"v", 1}};
  sm[1] = (skv_t){{(const uint8_t *)"", 0},
                  {(const uint8_t *)"caf\xc3\xa9", 5}};
  om[0] = (skv_t){{(const uint8_t *)"a", 1}, {NULL, 0}};
  om[1] = (skv_t){{(const uint8_t *)"b", 1}, {(const uint8_t *)"x", 1}};
  const inner_t *ritems[] = {&in1, &in2, &in1, NULL};
  const inner_t *plist[] = {&in2, &in1};
  g_t gv = {sm, 2, {-7, 999999999, 0}, &in1, ritems, 4, &in2, &in1,
            {NULL, 0}, {(const uint8_t *)"plain text", 10}, names, 2, om, 2,
            plist, 2, {1, -300000, INT32_MIN},
            {5, -(INT64_C(1) << 40), INT64_MAX}};
  /* the same with text of every tagged encoding: UTF-16 of 9 code units
   * (past the 16 bytes the decoder checks at once), Latin-1, UTF-8 */
  static const char u16[] = "h\0e\0l\0l\0o\0 \0\xac\x20w\0!\0";
  /* (Latin-1 of 40 bytes: a header of two bytes, l1_head) */
  static const char l1long[] = "\xe9t\xe9 d'une longueur de quarante oct";
  span wtexts[3];
  wtexts[0] = tag("\xe9t\xe9", 3, WIRE_STR_LATIN1);
  wtexts[2] = tag(l1long, 40, WIRE_STR_LATIN1);
  wtexts[1] = tag(u16, 18, WIRE_STR_UTF16);
  skv_t wsm[2], wom[2];
  g_t gw = gv;
  wsm[0] = (skv_t){tag(u16, 18, WIRE_STR_UTF16), tag(l1long, 40, WIRE_STR_LATIN1)};
  wsm[1] = (skv_t){tag("k2", 2, WIRE_STR_UTF8), tag(u16, 4, WIRE_STR_UTF16)};
  wom[0] = (skv_t){tag("a", 1, WIRE_STR_LATIN1), (span){NULL, 0}};
  wom[1] = (skv_t){tag("\xff", 1, WIRE_STR_LATIN1),
                   tag(u16, 18, WIRE_STR_UTF16)};
  /* (their strings tagged too) */
  inner_t in1w = {7, tag("seven", 5, WIRE_STR_LATIN1), 70, 1};
  inner_t in2w = {-2, tag(u16, 6, WIRE_STR_UTF16), 0, 0};
  const inner_t *writems[] = {&in1w, &in2w, &in1w, NULL};
  const inner_t *wplist[] = {&in2w, &in1w};
  gw.hp = &in1w;
  gw.ritems = writems;
  gw.plist = wplist;
  gw.r1 = &in2w;
  gw.sm = wsm;
  gw.om = wom;
  gw.fs = tag("\xe9", 1, WIRE_STR_LATIN1);
  gw.text = tag(u16, 18, WIRE_STR_UTF16);
  gw.texts = wtexts;
  gw.n_texts = 3;
  gw.r2 = NULL;
  int k = 0;
  for (int mode = 0; mode < 32; mode++) {
    if ((mode >> 3) == 3) {
      /* G, through tagged strings */
      tagged = 1;
      wire_ctx *ctx = seed_ctx(mode);
      layouts L;
      const uint8_t *enc;
      size_t len;
      if (setup(ctx, &L, 3) || wire_mem_encode(ctx, L.g, &gw, &enc, &len) ||
          put_seed(argv[1], "mem_gw", mode, enc, len)) {
        fprintf(stderr, "seed gw %d: %s\n", mode, wire_ctx_error_message(ctx));
        return 1;
      }
      wire_ctx_free(ctx);
      tagged = 0;
      k++;
    }
    wire_ctx *ctx = seed_ctx(mode);
    layouts L;
    uint32_t which = (mode >> 3) & 3;
    if (setup(ctx, &L, which)) {
      fprintf(stderr, "setup: %s\n", wire_ctx_error_message(ctx));
      return 1;
    }
    const void *v = which == 1 ? (const void *)&in1
                    : which == 2 ? (const void *)&h
                    : which == 3 ? (const void *)&gv : (const void *)&o;
    uint32_t root = which == 1 ? L.inner : which == 2 ? L.holder
                  : which == 3 ? L.g : L.outer;
    const uint8_t *enc;
    size_t len;
    if (wire_mem_encode(ctx, root, v, &enc, &len)) {
      fprintf(stderr, "seed %d: %s\n", mode, wire_ctx_error_message(ctx));
      return 1;
    }
    if (put_seed(argv[1], "mem", mode, enc, len) ||
        (which == 3 && put_seed(argv[1], "mem_gb", mode | 0x80, enc, len)))
      return 1;
    if (which == 2) {
      if (wire_mem_encode(ctx, L.holder, &hn, &enc, &len) ||
          put_seed2(argv[1], "mem_hn", mode, 0x40, enc, len)) {
        fprintf(stderr, "seed hn %d: %s\n", mode, wire_ctx_error_message(ctx));
        return 1;
      }
      k++;
    }
    /* another writer's version of the root: an Inner or a Holder of Nums
     * with fields added and left out, or an Outer or a G whose int64
     * fields are int32 (read widened) */
    const char *wname = !(mode & 1) ? NULL
                        : which == 1 ? "mem_wi"
                        : which == 2 ? "mem_wn"
                        : (mode & 7) != 1 ? NULL
                        : which == 3 ? "mem_wwg" : "mem_ww";
    if (wname) {
      wire_ctx *w = wire_ctx_new();
      int bad = which == 1   ? writer_inner(w, mode, &enc, &len)
                : which == 2 ? writer_nums(w, mode, &enc, &len)
                             : writer_widen(w, mode, which == 3, &enc, &len);
      if (bad || put_seed(argv[1], wname, mode, enc, len)) {
        fprintf(stderr, "seed %s %d: %s\n", wname, mode,
                wire_ctx_error_message(w));
        return 1;
      }
      wire_ctx_free(w);
      k++;
    }
    wire_ctx_free(ctx);
    k++;
  }
  int kx = x_seeds(argv[1]);
  if (kx < 0) return 1;
  printf("%d seeds\n", k + kx);
  return 0;
}
#endif
