/* test_mem_runs.c - the compiled decoder's runs of varint fields
 * (mem_dec_run.c): read a word at a time where the CPU has BMI2 and a
 * byte at a time otherwise, near the end of the input from a zero-padded
 * copy of the bytes left. Whatever reader takes them, a message decodes
 * to its values, and every prefix of it, and every message with one byte
 * changed, gets the status and the byte offset the document decoder
 * (wire_decode) reports for the same bytes. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"
#include "mem_damage.h"

/* (internal, mem_dec_run.c: off, the byte readers are used) */
extern bool wire__mdec_words_ok;
/* (internal, mem_dec_root.c: off, every root takes the general path) */
extern bool wire__mdec_flat_ok;

/* V and its seven fields, left open: each schema below closes it (fdl_w
 * after one field more) */
#define V_DECL                                                              \
  "message V [id=400] { int32 a = 1; int32 b = 2; int32 c = 3; int32 d = 4;\n" \
  "  int64 e = 5; int64 f = 6; int64 g = 7; "

static const char fdl[] =
    "package r;\n"
    V_DECL "}\n"
    "message L [id=401] { list<V> vs = 1; }\n";

typedef struct { int32_t a, b, c, d; int64_t e, f, g; } v_t;
typedef struct { const v_t *vs; uint32_t n; } l_t;

/* A layout in c of V (type tv) for size bytes that start with a v_t, its
 * seven fields bound, in *lv: the status. */
static int32_t v_layout(wire_ctx *c, uint32_t tv, uint32_t size,
                        uint32_t *lv) {
  static const uint32_t fields[][2] = {
      {WIRE_MEM_I32, O(v_t, a)}, {WIRE_MEM_I32, O(v_t, b)},
      {WIRE_MEM_I32, O(v_t, c)}, {WIRE_MEM_I32, O(v_t, d)},
      {WIRE_MEM_I64, O(v_t, e)}, {WIRE_MEM_I64, O(v_t, f)},
      {WIRE_MEM_I64, O(v_t, g)},
  };
  int32_t st = wire_mem_layout_new(c, tv, size, lv);
  for (uint32_t i = 0; i < 7; i++)
    st |= wire_mem_layout_field(c, *lv, i, fields[i][0], fields[i][1], N, N,
                                N);
  return st;
}

static wire_ctx *make(int compatible, int words, uint32_t *lv, uint32_t *ll) {
  wire__mdec_words_ok = words != 0; /* (read when the layouts are made) */
  wire_ctx *c = mem_ctx(fdl, "r.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t tv = mem_ctx_type(c, "r.V");
  uint32_t tl = mem_ctx_type(c, "r.L");
  int32_t st = v_layout(c, tv, sizeof(v_t), lv);
  st |= wire_mem_layout_new(c, tl, sizeof(l_t), ll);
  st |= wire_mem_layout_field(c, *ll, 0, WIRE_MEM_LIST, O(l_t, vs), O(l_t, n),
                              N, *lv);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, *ll), WIRE_OK, "%s", wire_ctx_error_message(c));
  wire__mdec_words_ok = true;
  return c;
}

/* values of every varint length, both signs */
static const int32_t i32s[] = {0, -1, 63, -65, 8191, -8193, 1048575,
                               -1048577, 134217727, -134217729, INT32_MAX,
                               INT32_MIN};
static const int64_t i64s[] = {0, -1, 100, INT64_C(1) << 34,
                               -(INT64_C(1) << 41), INT64_C(1) << 55,
                               INT64_C(1) << 62, INT64_MAX, INT64_MIN};

static v_t value(unsigned k) {
  v_t v = {i32s[k % 12], i32s[(k * 5 + 3) % 12], i32s[(k * 7 + 1) % 12],
           i32s[(k + 9) % 12], i64s[k % 9], i64s[(k * 4 + 2) % 9],
           i64s[(k * 2 + 7) % 9]};
  return v;
}

/* The bytes of V's body: its varints (zigzag). */
static size_t vlen(uint64_t z) {
  size_t k = 1;
  while (z >= 0x80 && k < 9) {
    z >>= 7;
    k++;
  }
  return k;
}
static size_t body_len(const v_t *v) {
  const int32_t a[4] = {v->a, v->b, v->c, v->d};
  const int64_t e[3] = {v->e, v->f, v->g};
  size_t n = 0;
  for (int i = 0; i < 4; i++)
    n += vlen((uint32_t)(((uint32_t)a[i] << 1) ^ (uint32_t)(a[i] >> 31)));
  for (int i = 0; i < 3; i++)
    n += vlen(((uint64_t)e[i] << 1) ^ (uint64_t)(e[i] >> 63));
  return n;
}

static uint8_t arena[1 << 14];

/* Decodes data[0..n) with layout l and wire_decode: the same status and,
 * on failure, the same byte offset. */
static int32_t same_as_doc(wire_ctx *c, uint32_t l, const uint8_t *data,
                           size_t n, void *out, int strict) {
  size_t used = 0;
  int32_t st = wire_mem_decode(c, l, data, n, out, arena, sizeof arena, &used,
                               WIRE_MEM_COPY);
  uint64_t off = mem_damage_clean(c, st, n);
  wire_doc *d = NULL;
  int32_t ds = wire_decode(c, data, n, &d);
  if (ds == WIRE_OK) wire_doc_free(d);
  uint64_t doff = mem_damage_clean(c, ds, n);
  if (!strict || st == WIRE_E_TRAILING)
    /* (the type meta: the two decoders name its errors differently; the
     * document decoder reads what follows a root as the next root) */
    return st;
  mem_damage_agree("mem", st, off, "doc", ds, doff, n, sizeof arena);
  return st;
}

/* same_as_doc as a probe: env is a doc_env. */
typedef struct { wire_ctx *c; uint32_t l; void *out; } doc_env;
static int32_t doc_probe(const void *env, const uint8_t *data, size_t n,
                         size_t cap, int strict) {
  const doc_env *e = env;
  (void)cap;
  return same_as_doc(e->c, e->l, data, n, e->out, strict);
}

/* (the substitutes most tests use besides the flipped top bit: a zero
 * (an overlong end), a byte of all ones, a lone continuation byte) */
static const uint8_t subs3[3] = {0x00, 0xFF, 0x80};

static void check(int compatible, int words) {
  uint32_t lv, ll;
  wire_ctx *c = make(compatible, words, &lv, &ll);
  for (unsigned k = 0; k < 12; k++) {
    v_t items[3] = {value(k), value(k + 1), value(k + 2)};
    l_t lst = {items, 3};
    for (int root = 0; root < 2; root++) {
      uint32_t l = root ? ll : lv;
      const void *in = root ? (const void *)&lst : (const void *)&items[0];
      const uint8_t *p;
      size_t n;
      cr_assert_eq(wire_mem_encode(c, l, in, &p, &n), WIRE_OK);
      uint8_t bytes[512];
      cr_assert_lt(n, sizeof bytes);
      memcpy(bytes, p, n);
      union { v_t v; l_t l; } out;
      cr_assert_eq(same_as_doc(c, l, bytes, n, &out, 1), WIRE_OK);
      size_t body = n - body_len(&items[root ? 2 : 0]); /* (the last) */
      if (root) {
        cr_assert_eq(out.l.n, 3);
        cr_assert(!memcmp(out.l.vs, items, sizeof items));
      } else {
        cr_assert(!memcmp(&out.v, &items[0], sizeof(v_t)));
      }
      /* every prefix (the padded copy must not read past the input); one
       * byte changed: a continuation bit set or cleared, a zero (an
       * overlong end), a byte of all ones, a lone continuation byte */
      doc_env e = {c, l, &out};
      mem_damage_all(doc_probe, &e, bytes, n, body, 0x80, subs3, 3);
    }
  }
  wire_ctx_free(c);
}

Test(mem_runs, words_compatible) { check(1, 1); }
Test(mem_runs, words_same_schema) { check(0, 1); }
Test(mem_runs, bytes_compatible) { check(1, 0); }
Test(mem_runs, bytes_same_schema) { check(0, 0); }

/* Another writer's TypeDef (V with a field more), mapped once and then
 * recognised by its cached bytes (the root's, and a list item's type
 * meta): a message, every prefix of it and every message with one byte
 * changed gets from a context that has the mapping cached the status and
 * byte offset one that maps it afresh reports. */
static const char fdl_w[] =
    "package r;\n"
    V_DECL "string x = 8; }\n"
    "message L [id=401] { list<V> vs = 1; }\n";

typedef struct { v_t v; const char *x; uint32_t xn; } w_t;
typedef struct { const w_t *vs; uint32_t n; } wl_t;

static wire_ctx *make_writer(uint32_t *lv, uint32_t *ll) {
  wire_ctx *c = mem_ctx(fdl_w, "w.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  uint32_t tv = mem_ctx_type(c, "r.V");
  uint32_t tl = mem_ctx_type(c, "r.L");
  int32_t st = v_layout(c, tv, sizeof(w_t), lv);
  st |= wire_mem_layout_new(c, tl, sizeof(wl_t), ll);
  st |= wire_mem_layout_field(c, *lv, 7, WIRE_MEM_STR, O(w_t, x), O(w_t, xn),
                              N, N);
  st |= wire_mem_layout_field(c, *ll, 0, WIRE_MEM_LIST, O(wl_t, vs),
                              O(wl_t, n), N, *lv);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  return c;
}

/* Decodes data[0..n) with a reader context that first read `orig` (its
 * writer's TypeDefs mapped and cached) and with a fresh one: the same
 * status and, on failure, the same byte offset. */
static int32_t cached_as_fresh(int root, const uint8_t *orig, size_t on,
                               const uint8_t *data, size_t n) {
  uint32_t lv[2], ll[2];
  wire_ctx *warm = make(1, 1, &lv[0], &ll[0]);
  wire_ctx *cold = make(1, 1, &lv[1], &ll[1]);
  union { v_t v; l_t l; } out;
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(warm, root ? ll[0] : lv[0], orig, on, &out,
                               arena, sizeof arena, &used, WIRE_MEM_COPY),
               WIRE_OK, "%s", wire_ctx_error_message(warm));
  int32_t st[2];
  uint64_t off[2];
  for (int k = 0; k < 2; k++) {
    wire_ctx *c = k ? cold : warm;
    used = 0;
    st[k] = wire_mem_decode(c, root ? ll[k] : lv[k], data, n, &out, arena,
                            sizeof arena, &used, WIRE_MEM_COPY);
    off[k] = mem_damage_clean(c, st[k], n);
  }
  mem_damage_agree("cached", st[0], off[0], "fresh", st[1], off[1], n,
                   sizeof arena);
  wire_ctx_free(warm);
  wire_ctx_free(cold);
  return st[0];
}

/* cached_as_fresh as a probe (it compares statuses always) */
typedef struct { int root; const uint8_t *orig; size_t on; } cached_env;
static int32_t cached_probe(const void *env, const uint8_t *data, size_t n,
                            size_t cap, int strict) {
  const cached_env *e = env;
  (void)cap;
  (void)strict;
  return cached_as_fresh(e->root, e->orig, e->on, data, n);
}

Test(mem_runs, mapped_typedef_cached) {
  uint32_t lv, ll;
  wire_ctx *w = make_writer(&lv, &ll);
  w_t items[2];
  for (unsigned k = 0; k < 2; k++) items[k] = (w_t){value(k + 3), "xyz", 3};
  wl_t lst = {items, 2};
  for (int root = 0; root < 2; root++) {
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(w, root ? ll : lv,
                                 root ? (const void *)&lst
                                      : (const void *)&items[0],
                                 &p, &n), WIRE_OK);
    uint8_t bytes[512], orig[512];
    cr_assert_lt(n, sizeof bytes);
    memcpy(bytes, p, n);
    memcpy(orig, p, n);
    /* the values: the reader's fields of the writer's message */
    {
      uint32_t rv, rl;
      wire_ctx *r = make(1, 1, &rv, &rl);
      union { v_t v; l_t l; } out;
      for (int pass = 0; pass < 2; pass++) { /* mapped, then cached */
        size_t used = 0;
        cr_assert_eq(wire_mem_decode(r, root ? rl : rv, bytes, n, &out, arena,
                                     sizeof arena, &used, WIRE_MEM_COPY),
                     WIRE_OK, "%s", wire_ctx_error_message(r));
        const v_t *got = root ? out.l.vs : &out.v;
        for (uint32_t k = 0; k < (root ? 2u : 1u); k++) {
          v_t want = value(k + 3);
          cr_assert(!memcmp(&got[k], &want, sizeof want));
        }
        if (root) cr_assert_eq(out.l.n, 2);
      }
      wire_ctx_free(r);
    }
    cr_assert_eq(cached_as_fresh(root, orig, n, bytes, n), WIRE_OK);
    cached_env e = {root, orig, n};
    mem_damage_all(cached_probe, &e, bytes, n, SIZE_MAX, 0x01, subs3, 2);
  }
  wire_ctx_free(w);
}

/* The inline cases of the general fields (mem_dec.c): a timestamp, a
 * duration, a decimal in its small form, reference / null flags (here a
 * nullable string's), and the root with a tracked value's flag (ref
 * tracking). Each message, every prefix of it and every message with one
 * byte of its body changed gets the document decoder's status and byte
 * offset. */
static const char fdl_t[] =
    "package t;\n"
    "message T [id=410] { timestamp ts = 1; duration du = 2; decimal dec = 3;\n"
    "  optional string s = 4; int32 k = 5; optional bytes b = 6; }\n";

typedef struct { wire_mem_time ts, du; wire_mem_decimal dec; const char *s;
                 uint32_t sn; uint8_t s_present; int32_t k; const uint8_t *b;
                 uint32_t bn; uint8_t b_present; } t_t;

static void check_general(int tracking) {
  wire_ctx *c = mem_ctx(fdl_t, "t.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, 1,
                                 WIRE_OPT_REF_TRACKING, tracking));
  uint32_t tt = mem_ctx_type(c, "t.T");
  uint32_t lt;
  int32_t st = wire_mem_layout_new(c, tt, sizeof(t_t), &lt);
  st |= wire_mem_layout_field(c, lt, 0, WIRE_MEM_TIMESTAMP, O(t_t, ts), N, N, N);
  st |= wire_mem_layout_field(c, lt, 1, WIRE_MEM_DURATION, O(t_t, du), N, N, N);
  st |= wire_mem_layout_field(c, lt, 2, WIRE_MEM_DECIMAL, O(t_t, dec), N, N, N);
  st |= wire_mem_layout_field(c, lt, 3, WIRE_MEM_STR, O(t_t, s), O(t_t, sn),
                              O(t_t, s_present), N);
  st |= wire_mem_layout_field(c, lt, 4, WIRE_MEM_I32, O(t_t, k), N, N, N);
  st |= wire_mem_layout_field(c, lt, 5, WIRE_MEM_BYTES, O(t_t, b), O(t_t, bn),
                              O(t_t, b_present), N);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, lt), WIRE_OK, "%s", wire_ctx_error_message(c));
  static const uint8_t mag[] = {0x39, 0x30}; /* 12345 */
  for (int k = 0; k < 2; k++) {
    /* the body: 12 + 6 + 4 + (7 or 1) + 1 + (5 or 1) bytes */
    t_t v = {{1700000000, 5000, 0}, {100, 7, 0}, {mag, 2, 2, k, 0},
             k ? NULL : "hello", k ? 0 : 5, (uint8_t)!k, 7,
             k ? (const uint8_t *)"abc" : NULL, k ? 3 : 0, (uint8_t)k};
    size_t body = 12 + 6 + 4 + (k ? 1 : 7) + 1 + (k ? 5 : 1);
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, lt, &v, &p, &n), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    uint8_t bytes[256];
    cr_assert_lt(n, sizeof bytes);
    cr_assert_gt(n, body);
    memcpy(bytes, p, n);
    cr_assert_eq(bytes[1], tracking ? 0x00 : 0xFF); /* the root's flag */
    t_t out;
    memset(&out, 0, sizeof out);
    cr_assert_eq(same_as_doc(c, lt, bytes, n, &out, 1), WIRE_OK);
    cr_assert(out.ts.seconds == v.ts.seconds && out.ts.nanos == v.ts.nanos);
    cr_assert(out.du.seconds == v.du.seconds && out.du.nanos == v.du.nanos);
    cr_assert(out.dec.len == 2 && !memcmp(out.dec.magnitude, mag, 2) &&
              out.dec.scale == 2 && out.dec.negative == (uint32_t)k);
    cr_assert_eq(out.s_present, !k);
    if (!k) cr_assert(out.sn == 5 && !memcmp(out.s, "hello", 5));
    cr_assert_eq(out.k, 7);
    cr_assert_eq(out.b_present, k);
    if (k) cr_assert(out.bn == 3 && !memcmp(out.b, "abc", 3));
    body = n - body;
    /* besides the flipped top bit: a zero, all ones, 0xFD and 0xFE (null
     * and not-null flags), 0x3B 0x9A (a timestamp's nanos past 1e9) */
    static const uint8_t subs[6] = {0x00, 0xFF, 0xFD, 0xFE, 0x3B, 0x9A};
    doc_env e = {c, lt, &out};
    mem_damage_all(doc_probe, &e, bytes, n, body, 0x80, subs, 6);
  }
  wire_ctx_free(c);
}

Test(mem_runs, general_fields) { check_general(0); }
Test(mem_runs, general_fields_tracked) { check_general(1); }

/* A flat struct (fixed-size values and varints only: wire_mem_decode's
 * flat path, mem_dec_root.c), in compatible mode (the root's TypeDef
 * recognised with one compare) and in same-schema mode (the root's
 * header, flag, kind, user type id and schema hash: same_flat): a
 * message, every prefix of it, every message with one byte changed and
 * one with a byte more decode through the flat path to the status, byte
 * offset and memory the general path gives (the flat path turned off). */
static const char fdl_f[] =
    "package r;\n"
    "enum E [id=403] { A = 0; B = 1; C = 2; }\n"
    "message F [id=402] { bool a = 1; float32 b = 2; float64 c = 3; E e = 4;\n"
    "  int32 d = 5; int64 f = 6; int32 g = 7; int32 h = 8; int32 i = 9;\n"
    "  int64 j = 10; }\n";

typedef struct { uint8_t a; float b; double c; uint32_t e; int32_t d;
                 int64_t f; int32_t g, h, i; int64_t j; } f_t;

static wire_ctx *make_flat(int compatible, int words, uint32_t *lf) {
  wire__mdec_words_ok = words != 0;
  wire_ctx *c = mem_ctx(fdl_f, "f.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t tf = mem_ctx_type(c, "r.F");
  int32_t st = wire_mem_layout_new(c, tf, sizeof(f_t), lf);
  st |= wire_mem_layout_field(c, *lf, 0, WIRE_MEM_BOOL, O(f_t, a), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 1, WIRE_MEM_F32, O(f_t, b), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 2, WIRE_MEM_F64, O(f_t, c), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 3, WIRE_MEM_ENUM, O(f_t, e), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 4, WIRE_MEM_I32, O(f_t, d), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 5, WIRE_MEM_I64, O(f_t, f), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 6, WIRE_MEM_I32, O(f_t, g), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 7, WIRE_MEM_I32, O(f_t, h), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 8, WIRE_MEM_I32, O(f_t, i), N, N, N);
  st |= wire_mem_layout_field(c, *lf, 9, WIRE_MEM_I64, O(f_t, j), N, N, N);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, *lf), WIRE_OK, "%s", wire_ctx_error_message(c));
  wire__mdec_words_ok = true;
  return c;
}

/* data[0..n) through the flat path and the general one: the same status,
 * offset and memory. */
static int32_t flat_as_general(wire_ctx *c, uint32_t lf, const uint8_t *data,
                               size_t n) {
  f_t out[2];
  int32_t st[2];
  uint64_t off[2];
  for (int k = 0; k < 2; k++) {
    memset(&out[k], 0x5A, sizeof out[k]);
    wire__mdec_flat_ok = k == 0;
    st[k] = wire_mem_decode(c, lf, data, n, &out[k], NULL, 0, NULL, 0);
    off[k] = mem_damage_clean(c, st[k], n);
  }
  wire__mdec_flat_ok = true;
  mem_damage_agree("flat", st[0], off[0], "general", st[1], off[1], n, 0);
  if (!st[0]) cr_assert(!memcmp(&out[0], &out[1], sizeof out[0]));
  return st[0];
}

/* flat_as_general as a probe (it compares statuses always) */
typedef struct { wire_ctx *c; uint32_t lf; } flat_env;
static int32_t flat_probe(const void *env, const uint8_t *data, size_t n,
                          size_t cap, int strict) {
  const flat_env *e = env;
  (void)cap;
  (void)strict;
  return flat_as_general(e->c, e->lf, data, n);
}

static void check_flat(int compatible, int words) {
  uint32_t lf;
  wire_ctx *c = make_flat(compatible, words, &lf);
  for (unsigned k = 0; k < 12; k++) {
    f_t v;
    memset(&v, 0, sizeof v);
    v.a = k & 1;
    v.b = (float)k * 1.5f;
    v.c = -(double)k / 3.0;
    v.e = k % 3;
    v.d = i32s[k % 12];
    v.f = i64s[k % 9];
    v.g = i32s[(k * 5 + 3) % 12];
    v.h = i32s[(k * 7 + 1) % 12];
    v.i = i32s[(k + 9) % 12];
    v.j = i64s[(k * 4 + 2) % 9];
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, lf, &v, &p, &n), WIRE_OK);
    uint8_t bytes[256];
    cr_assert_lt(n + 1, sizeof bytes);
    memcpy(bytes, p, n);
    cr_assert_eq(flat_as_general(c, lf, bytes, n), WIRE_OK);
    f_t out;
    memset(&out, 0, sizeof out);
    cr_assert_eq(wire_mem_decode(c, lf, bytes, n, &out, NULL, 0, NULL, 0),
                 WIRE_OK);
    cr_assert(!memcmp(&out, &v, sizeof v));
    /* every prefix; one byte changed: a continuation bit, a zero, all
     * ones, a lone continuation byte, a bool or enum byte out of range */
    static const uint8_t subs[5] = {0x00, 0xFF, 0x80, 0x02, 0x7F};
    flat_env e = {c, lf};
    mem_damage_all(flat_probe, &e, bytes, n, SIZE_MAX, 0x80, subs, 5);
    /* a byte more */
    bytes[n] = 0;
    cr_assert_eq(flat_as_general(c, lf, bytes, n + 1), WIRE_E_TRAILING);
    if (!compatible) {
      /* no root allowed: refused on either path, as root_meta refuses it */
      cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_ROOTS, 0), WIRE_OK);
      cr_assert_eq(flat_as_general(c, lf, bytes, n), WIRE_E_LIMIT);
      cr_assert_eq(wire_ctx_set_limit(c, WIRE_LIMIT_ROOTS, 1 << 20), WIRE_OK);
    }
  }
  wire_ctx_free(c);
}

Test(mem_runs, flat_words) { check_flat(1, 1); }
Test(mem_runs, flat_bytes) { check_flat(1, 0); }
Test(mem_runs, flat_same_schema_words) { check_flat(0, 1); }
Test(mem_runs, flat_same_schema_bytes) { check_flat(0, 0); }

/* A list of struct pointers without flags (its images allocated and
 * cleared at once, read as the items of a list of inline structs,
 * mem_dec.c): the bytes of a list of inline V decode through a layout
 * whose items point to V to the same values; every prefix and every
 * message with one byte changed get the status and byte offset the
 * document decoder reports; an arena too small at every size fails with
 * WIRE_E_BUFFER_FULL and writes nothing past it. */
typedef struct { const v_t **vs; uint32_t n; } lp_t;

static void check_ptrs(int compatible, int words) {
  uint32_t lv, ll;
  wire_ctx *c = make(compatible, words, &lv, &ll);
  uint32_t tl, le, lp;
  cr_assert_eq(wire_schema_find_type(c, "r.L", 3, &tl), WIRE_OK);
  int32_t st = wire_mem_layout_new(c, WIRE_MEM_ELEMENT, sizeof(void *), &le);
  st |= wire_mem_layout_field(c, le, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, lv);
  st |= wire_mem_layout_new(c, tl, sizeof(lp_t), &lp);
  st |= wire_mem_layout_field(c, lp, 0, WIRE_MEM_LIST, O(lp_t, vs),
                              O(lp_t, n), N, le);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, lp), WIRE_OK, "%s", wire_ctx_error_message(c));
  for (unsigned k = 0; k < 12; k += 3) {
    v_t items[3] = {value(k), value(k + 1), value(k + 2)};
    l_t lst = {items, 3};
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, ll, &lst, &p, &n), WIRE_OK);
    uint8_t bytes[512];
    cr_assert_lt(n, sizeof bytes);
    memcpy(bytes, p, n);
    lp_t out;
    cr_assert_eq(same_as_doc(c, lp, bytes, n, &out, 1), WIRE_OK);
    cr_assert_eq(out.n, 3);
    for (int i = 0; i < 3; i++) {
      cr_assert(!memcmp(out.vs[i], &items[i], sizeof(v_t)));
      cr_assert_eq((uintptr_t)out.vs[i] % 8, 0);
    }
    doc_env e = {c, lp, &out};
    mem_damage_all(doc_probe, &e, bytes, n, n - body_len(&items[2]),
                         0x80, subs3, 3);
    mem_damage_arenas(c, lp, bytes, n, &out, 0, NULL, NULL);
  }
  wire_ctx_free(c);
}

Test(mem_runs, struct_pointer_items_compatible) { check_ptrs(1, 1); }
Test(mem_runs, struct_pointer_items_same_schema) { check_ptrs(0, 0); }

/* A struct pointer field without a flag (read in the struct loop,
 * mem_dec.c): the bytes of an inline V field decode through a layout
 * that points to V to the same values, every prefix and every message
 * with one byte changed get the status and byte offset the document
 * decoder reports, and every arena too small fails with
 * WIRE_E_BUFFER_FULL. */
static const char fdl_p[] =
    "package r;\n"
    V_DECL "}\n"
    "message P [id=405] { int32 k = 1; V v = 2 [nullable = false];\n"
    "  int32 z = 3; }\n";

typedef struct { int32_t k; v_t v; int32_t z; } pi_t;
typedef struct { int32_t k; const v_t *v; int32_t z; } pp_t;

static void check_ptr_field(int compatible) {
  wire_ctx *c = mem_ctx(fdl_p, "p.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible));
  uint32_t tv = mem_ctx_type(c, "r.V");
  uint32_t tp = mem_ctx_type(c, "r.P");
  uint32_t lv, li, lp;
  int32_t st = v_layout(c, tv, sizeof(v_t), &lv);
  st |= wire_mem_layout_new(c, tp, sizeof(pi_t), &li);
  st |= wire_mem_layout_field(c, li, 0, WIRE_MEM_I32, O(pi_t, k), N, N, N);
  st |= wire_mem_layout_field(c, li, 1, WIRE_MEM_STRUCT, O(pi_t, v), N, N, lv);
  st |= wire_mem_layout_field(c, li, 2, WIRE_MEM_I32, O(pi_t, z), N, N, N);
  st |= wire_mem_layout_new(c, tp, sizeof(pp_t), &lp);
  st |= wire_mem_layout_field(c, lp, 0, WIRE_MEM_I32, O(pp_t, k), N, N, N);
  st |= wire_mem_layout_field(c, lp, 1, WIRE_MEM_STRUCT_PTR, O(pp_t, v), N, N,
                              lv);
  st |= wire_mem_layout_field(c, lp, 2, WIRE_MEM_I32, O(pp_t, z), N, N, N);
  cr_assert_eq(st, 0, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, lp), WIRE_OK, "%s", wire_ctx_error_message(c));
  for (unsigned k = 0; k < 12; k += 4) {
    pi_t in = {i32s[k], value(k), i32s[(k + 5) % 12]};
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_mem_encode(c, li, &in, &p, &n), WIRE_OK);
    uint8_t bytes[512];
    cr_assert_lt(n, sizeof bytes);
    memcpy(bytes, p, n);
    pp_t out;
    cr_assert_eq(same_as_doc(c, lp, bytes, n, &out, 1), WIRE_OK);
    cr_assert_eq(out.k, in.k);
    cr_assert_eq(out.z, in.z);
    cr_assert(!memcmp(out.v, &in.v, sizeof(v_t)));
    doc_env e = {c, lp, &out};
    mem_damage_all(doc_probe, &e, bytes, n, SIZE_MAX, 0x80, subs3, 3);
    mem_damage_arenas(c, lp, bytes, n, &out, 0, NULL, NULL);
  }
  wire_ctx_free(c);
}

Test(mem_runs, struct_pointer_field_compatible) { check_ptr_field(1); }
Test(mem_runs, struct_pointer_field_same_schema) { check_ptr_field(0); }
