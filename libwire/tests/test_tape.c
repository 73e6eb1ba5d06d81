/* test_tape.c - the direct tape codec (wire_encode_tape[_to],
 * wire_decode_tape[_to]) against the document path it replaces
 * (wire_doc_add_tape + wire_encode, wire_decode + a walk of the document;
 * wire__tape_encode_doc / wire__tape_decode_doc):
 *
 *  - every valid fixture: the payload decodes to the same tape both ways
 *    (with and without WIRE_TAPE_FIELD_INDEX), and that tape encodes to the
 *    same bytes both ways (also under every string policy);
 *  - every invalid fixture: both decoders fail with the same class and
 *    byte offset;
 *  - random tapes over the fixture schemas (valid and broken ones, every
 *    option): same status, same error offset, same bytes; the bytes decode
 *    to the same tape both ways;
 *  - the format details: string policies and trusted text, STRUCT_IDX, v1
 *    tapes, writers reused and fixed buffers, errors. */
#include <criterion/criterion.h>
#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "tape.h"
#include "test_hex.h"

/* ---- helpers ------------------------------------------------------------ */

static char *hex(const uint8_t *p, size_t n) {
  size_t m = n > 200 ? 200 : n;
  char *s = malloc(2 * m + 4);
  for (size_t i = 0; i < m; i++) sprintf(s + 2 * i, "%02x", p[i]);
  strcpy(s + 2 * m, n > m ? "..." : "");
  return s;
}

/* A context for a fixture test: its options and schemas. */
/* The out-of-band buffers of the current fixture (spec 1.12.1): set on its
 * context, freed by fixture_free. */
static uint8_t *fx_buf[16];
static size_t fx_len[16], fx_n;

static void fixture_free(wire_ctx *ctx) {
  wire_ctx_free(ctx);
  for (size_t i = 0; i < fx_n; i++) free(fx_buf[i]);
  fx_n = 0;
}

static wire_ctx *fixture_ctx(const json_t *t) {
  wire_ctx *ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
  const json_t *cfg = json_object_get(t, "config");
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING,
                      json_is_true(json_object_get(cfg, "ref")));
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE,
                      json_is_true(json_object_get(cfg, "compatible")));
  const char *peer = json_string_value(json_object_get(cfg, "peer"));
  wire_ctx_set_option(ctx, WIRE_OPT_PEER,
                      !peer ? WIRE_PEER_NONE
                      : !strcmp(peer, "java") ? WIRE_PEER_JAVA
                      : !strcmp(peer, "pyfory") ? WIRE_PEER_PYFORY
                                                : WIRE_PEER_GO);
  size_t i;
  const json_t *s;
  json_array_foreach(json_object_get(t, "schemas"), i, s) {
    int32_t st = wire_schema_load_fdl_file(ctx, json_string_value(s));
    cr_assert_eq(st, WIRE_OK, "%s: %s", json_string_value(s),
                 wire_ctx_error_message(ctx));
  }
  const json_t *bufs = json_object_get(t, "buffers");
  fx_n = json_array_size(bufs);
  cr_assert(fx_n <= 16);
  json_array_foreach(bufs, i, s) fx_buf[i] = unhex(json_string_value(s), &fx_len[i]);
  if (fx_n)
    cr_assert_eq(wire_ctx_set_oob_buffers(ctx, (const uint8_t *const *)fx_buf,
                                          fx_len, fx_n), WIRE_OK);
  return ctx;
}

typedef struct {
  int32_t st;
  uint64_t off;
  uint8_t *p;
  size_t n;
} result;

static void result_free(wire_ctx *ctx, result *r) {
  wire_ctx_free_bytes(ctx, r->p);
  r->p = NULL;
}

static result enc_doc(wire_ctx *ctx, const uint8_t *tape, size_t len) {
  result r = {0, 0, NULL, 0};
  r.st = wire__tape_encode_doc(ctx, tape, len, &r.p, &r.n);
  r.off = r.st ? wire_ctx_error_offset(ctx) : 0;
  return r;
}
static result enc_direct(wire_ctx *ctx, const uint8_t *tape, size_t len) {
  result r = {0, 0, NULL, 0};
  r.st = wire_encode_tape(ctx, tape, len, &r.p, &r.n);
  r.off = r.st ? wire_ctx_error_offset(ctx) : 0;
  return r;
}
static result dec_doc(wire_ctx *ctx, const uint8_t *p, size_t n, uint32_t fl) {
  result r = {0, 0, NULL, 0};
  r.st = wire__tape_decode_doc(ctx, p, n, fl, &r.p, &r.n);
  r.off = r.st ? wire_ctx_error_offset(ctx) : 0;
  return r;
}
/* The direct decoder, through a reused writer. */
static result dec_direct(wire_ctx *ctx, wire_writer *w, const uint8_t *p,
                         size_t n, uint32_t fl) {
  result r = {0, 0, NULL, 0};
  wire_writer_reset(w);
  r.st = wire_decode_tape_to(ctx, p, n, fl, w);
  r.off = r.st ? wire_ctx_error_offset(ctx) : 0;
  if (!r.st) {
    r.n = wire_writer_size(w);
    r.p = malloc(r.n + 1);
    memcpy(r.p, wire_writer_data(w), r.n);
  }
  return r;
}

/* ---- SPAN ops (WIRE_TAPE_SPANS) ------------------------------------------ */

static int same(const char *what, const char *id, const result *a,
                const result *b);

#include "fuzz/tape_unspan.h"

/* WIRE_TAPE_SPANS: both paths give the same tape, and it is the tape
 * without spans once its spans are copied from the payload. With
 * WIRE_TAPE_STRING_SPANS as well (the direct path only): the same status
 * and error offset, and once its spans and string spans are copied, the
 * same tape again. */
static int check_spans(wire_ctx *ctx, wire_writer *w, const char *id,
                       const uint8_t *p, size_t n) {
  uint32_t fl = WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS;
  result a = dec_doc(ctx, p, n, fl);
  result b = dec_direct(ctx, w, p, n, fl);
  int good = same("decode (spans)", id, &a, &b);
  if (good && !a.st) {
    result c = dec_direct(ctx, w, p, n, WIRE_TAPE_FIELD_INDEX);
    size_t ul = 0;
    uint8_t *un = unspan(a.p, a.n, p, n, &ul);
    if (c.st || !un || ul != c.n || memcmp(un, c.p, ul) != 0) {
      cr_log_error("%s: the spans of the tape are not its bytes", id);
      good = 0;
    }
    free(un);
    for (uint32_t x = 0; x < 2; x++) {
      uint32_t more = WIRE_TAPE_STRING_SPANS | (x ? WIRE_TAPE_ENTRY_RUNS : 0);
      result s = dec_direct(ctx, w, p, n, fl | more);
      un = unspan(s.p, s.n, p, n, &ul);
      if (s.st || !un || ul != c.n || memcmp(un, c.p, ul) != 0) {
        cr_log_error("%s: the string spans%s of the tape are not its bytes",
                     id, x ? " and entry runs" : "");
        good = 0;
      }
      free(un);
      free(s.p);
    }
    free(c.p);
  } else if (good) {
    for (uint32_t x = 0; x < 2; x++) {
      uint32_t more = WIRE_TAPE_STRING_SPANS | (x ? WIRE_TAPE_ENTRY_RUNS : 0);
      result s = dec_direct(ctx, w, p, n, fl | more);
      if (s.st != a.st || s.off != a.off) {
        cr_log_error("%s: with string spans%s %s @%llu, without %s @%llu", id,
                     x ? " and entry runs" : "", wire_status_name(s.st),
                     (unsigned long long)s.off, wire_status_name(a.st),
                     (unsigned long long)a.off);
        good = 0;
      }
      free(s.p);
    }
  }
  result_free(ctx, &a);
  free(b.p);
  return good;
}

/* Both results agree: status, error offset, bytes. Returns 1 if so. */
static int same(const char *what, const char *id, const result *a,
                const result *b) {
  if (a->st != b->st || (a->st && a->off != b->off)) {
    cr_log_error("%s %s: document path %s @%llu, direct %s @%llu", id, what,
                 wire_status_name(a->st), (unsigned long long)a->off,
                 wire_status_name(b->st), (unsigned long long)b->off);
    return 0;
  }
  if (!a->st && (a->n != b->n || memcmp(a->p, b->p, a->n) != 0)) {
    char *x = hex(a->p, a->n), *y = hex(b->p, b->n);
    cr_log_error("%s %s: bytes differ\n  document %s\n  direct   %s", id, what,
                 x, y);
    free(x);
    free(y);
    return 0;
  }
  return 1;
}

/* Every encode path of a tape: the document path and the direct one
 * (allocating, and appending to a writer with something in it already). */
static int check_encode(wire_ctx *ctx, const char *id, const uint8_t *tape,
                        size_t len) {
  result a = enc_doc(ctx, tape, len);
  result b = enc_direct(ctx, tape, len);
  int good = same("encode", id, &a, &b);
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  wire_write_u8(w, 0xAB);
  int32_t st = wire_encode_tape_to(ctx, tape, len, w);
  if (st != a.st) {
    cr_log_error("%s encode_to: %s, expected %s", id, wire_status_name(st),
                 wire_status_name(a.st));
    good = 0;
  } else if (!st && (wire_writer_size(w) != a.n + 1 ||
                     memcmp(wire_writer_data(w) + 1, a.p, a.n) != 0)) {
    cr_log_error("%s encode_to: other bytes", id);
    good = 0;
  } else if (st && wire_writer_size(w) != 1) {
    cr_log_error("%s encode_to: the writer changed on failure", id);
    good = 0;
  }
  wire_writer_free(w);
  result_free(ctx, &a);
  result_free(ctx, &b);
  return good;
}

static json_t *load(const char *path) {
  json_error_t err;
  json_t *j = json_load_file(path, JSON_ALLOW_NUL, &err);
  cr_assert_not_null(j, "%s: %s", path, err.text);
  return j;
}

/* ---- fixtures ------------------------------------------------------------ */

Test(fixtures, valid_and_invalid) {
  json_t *man = load("fixtures/MANIFEST.json");
  size_t fi, ti;
  const json_t *f, *t;
  int bad = 0, nvalid = 0, ninvalid = 0, nencoded = 0;
  json_array_foreach(json_object_get(man, "files"), fi, f) {
    const char *path = json_string_value(json_object_get(f, "path"));
    json_t *file = load(path);
    json_array_foreach(json_object_get(file, "tests"), ti, t) {
      const char *id = json_string_value(json_object_get(t, "id"));
      const char *cls = json_string_value(json_object_get(t, "error"));
      if (cls && !strcmp(cls, "idl")) {
        /* the schema itself must be rejected; no bytes are read */
        wire_ctx *c = wire_ctx_new();
        int32_t st = WIRE_OK;
        size_t k;
        const json_t *s;
        json_array_foreach(json_object_get(t, "schemas"), k, s) {
          if (st == WIRE_OK)
            st = wire_schema_load_fdl_file(c, json_string_value(s));
        }
        if (st == WIRE_OK || strcmp(wire_status_name(st), "idl") != 0) {
          cr_log_error("%s: schema loaded with status %d, expected class idl",
                       id, st);
          bad++;
        }
        ninvalid++;
        wire_ctx_free(c);
        continue;
      }
      wire_ctx *ctx = fixture_ctx(t);
      wire_writer *w = wire_writer_new(ctx, NULL, 0);
      size_t n;
      uint8_t *bytes = unhex(json_string_value(json_object_get(t, "bytes")), &n);
      if (json_object_get(t, "error")) {
        ninvalid++;
        wire_doc *doc;
        result a = {wire_decode(ctx, bytes, n, &doc), 0, NULL, 0};
        a.off = wire_ctx_error_offset(ctx);
        if (!a.st) wire_doc_free(doc);
        result b = dec_direct(ctx, w, bytes, n, 0);
        if (!a.st) {
          cr_log_error("%s: wire_decode accepts an invalid fixture", id);
          bad++;
        }
        bad += !same("decode (invalid)", id, &a, &b);
        free(b.p);
      } else {
        nvalid++;
        bad += !check_spans(ctx, w, id, bytes, n);
        for (uint32_t fl = 0; fl <= WIRE_TAPE_FIELD_INDEX; fl++) {
          result a = dec_doc(ctx, bytes, n, fl);
          result b = dec_direct(ctx, w, bytes, n, fl);
          if (a.st) {
            cr_log_error("%s: no tape: %s", id, wire_ctx_error_message(ctx));
            bad++;
          }
          bad += !same(fl ? "decode (field index)" : "decode", id, &a, &b);
          if (!a.st) {
            for (int64_t pol = 0; pol <= 2; pol++) {
              wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, pol);
              bad += !check_encode(ctx, id, a.p, a.n);
              nencoded++;
            }
            wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, WIRE_STRING_AS_GIVEN);
          }
          result_free(ctx, &a);
          free(b.p);
        }
      }
      free(bytes);
      wire_writer_free(w);
      fixture_free(ctx);
    }
    json_decref(file);
  }
  json_decref(man);
  cr_log_info("%d valid fixtures (%d tape encodes), %d invalid", nvalid,
              nencoded, ninvalid);
  cr_expect_gt(nvalid, 700);
  cr_expect_gt(ninvalid, 400);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
}

/* ---- random tapes -------------------------------------------------------- */

#include "schema.h"

typedef struct {
  uint8_t *p;
  size_t n, cap;
} tbuf;

static void tput(tbuf *t, const void *p, size_t n) {
  if (t->n + n > t->cap) {
    t->cap = (t->n + n) * 2 + 64;
    t->p = realloc(t->p, t->cap);
    cr_assert_not_null(t->p);
  }
  if (n) memcpy(t->p + t->n, p, n);
  t->n += n;
}
static void t8(tbuf *t, uint8_t v) { tput(t, &v, 1); }
static void t16(tbuf *t, uint16_t v) { tput(t, &v, 2); }
static void t32(tbuf *t, uint32_t v) { tput(t, &v, 4); }
static void t64(tbuf *t, uint64_t v) { tput(t, &v, 8); }

typedef struct {
  wire_ctx *ctx;
  tbuf t;
  uint64_t s;
  uint32_t nref;  /* referenceable values numbered so far */
  int bad;        /* 1 in `bad` values is broken (0: never) */
  int text_ok;    /* only valid text (trusted-text runs) */
} gen;

static uint64_t rnd(gen *g) {
  g->s ^= g->s >> 12;
  g->s ^= g->s << 25;
  g->s ^= g->s >> 27;
  return g->s * UINT64_C(0x2545F4914F6CDD1D);
}
static uint32_t below(gen *g, uint32_t n) { return n ? (uint32_t)(rnd(g) % n) : 0; }
static int chance(gen *g, int n) { return n > 0 && below(g, (uint32_t)n) == 0; }
static int broken(gen *g) { return g->bad && chance(g, g->bad); }

static const char *const texts[] = {
    "", "a", "hi", "key00001", "caf\xc3\xa9", "na\xc3\xafve", "\xe6\x95\xb0\xe6\x8d\xae",
    "a\xc3\xa9\xe6\x97\xa5", "\xf0\x9f\x98\x80", "a\xf0\x9f\x98\x80",
    "abcde\xe6\x97\xa5", "abcd\xc3\xa9\xe6\x97\xa5",
    "\xe6\x97\245aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xe6\x97\xa5",
    "\xc3\xbf\xc3\x80 latin one", "hello world, a longer ascii string"};

/* UTF-8 text -> bytes in `enc` (Latin-1 only when the text allows it). */
static size_t text_in(const char *u, int enc, uint8_t *out) {
  size_t len = strlen(u);
  if (enc == WIRE_STR_UTF8) {
    memcpy(out, u, len);
    return len;
  }
  size_t n = wire__transcode(WIRE_STR_UTF8, enc, (const uint8_t *)u, len, out, 3 * len);
  return n;
}
static int latin1_ok(const char *u) {
  return wire__java_string_encoding((const uint8_t *)u, strlen(u)) ==
         WIRE_STR_LATIN1;
}

static void gen_string(gen *g) {
  const char *u = texts[below(g, sizeof texts / sizeof *texts)];
  int given = (int)below(g, 3);
  if (given == WIRE_STR_LATIN1 && !latin1_ok(u)) given = WIRE_STR_UTF16;
  uint8_t buf[512];
  size_t n = text_in(u, given, buf);
  uint8_t e = (uint8_t)given;
  switch (below(g, 3)) {
  case 0: break;                                 /* per the policy */
  case 1: e = (uint8_t)(TAPE_STR_JAVA | given); break;
  default: if (given == WIRE_STR_UTF8) e = TAPE_STR_UTF8_JAVA;
  }
  if (broken(g)) {
    switch (below(g, 3)) {
    case 0: e = (uint8_t)(3 + below(g, 0x7C)); break; /* unknown encoding */
    case 1:
      if (!g->text_ok && n) buf[below(g, (uint32_t)n)] = 0xFF; /* bad UTF-8 */
      break;
    default:
      if (!g->text_ok && given != WIRE_STR_LATIN1) {
        buf[n++] = 0x00; /* odd UTF-16 / stray NUL */
        if (given == WIRE_STR_UTF16) { buf[n++] = 0x00; buf[n++] = 0xD8; }
      }
    }
  }
  t8(&g->t, WIRE_T_STRING);
  t8(&g->t, e);
  t32(&g->t, (uint32_t)n);
  tput(&g->t, buf, n);
}

static void gen_int(gen *g, uint8_t type) {
  uint64_t r = rnd(g);
  int shift = (int)(r & 63);
  int64_t v = (int64_t)(rnd(g) >> shift);
  if (r & 64) v = -v;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (type == WIRE_T_INT8) { lo = INT8_MIN; hi = INT8_MAX; }
  else if (type == WIRE_T_INT16) { lo = INT16_MIN; hi = INT16_MAX; }
  else if (type == WIRE_T_INT32 || type == WIRE_T_VARINT32) { lo = INT32_MIN; hi = INT32_MAX; }
  if (!broken(g)) {
    if (v < lo || v > hi) v = lo + (int64_t)(((uint64_t)v) % ((uint64_t)(hi - lo) + 1));
  }
  t8(&g->t, type);
  t64(&g->t, (uint64_t)v);
}
static uint64_t uint_val(gen *g, uint8_t type) {
  uint64_t u = rnd(g) >> (rnd(g) & 63);
  uint64_t hi = UINT64_MAX;
  if (type == WIRE_T_UINT8) hi = UINT8_MAX;
  else if (type == WIRE_T_UINT16) hi = UINT16_MAX;
  else if (type == WIRE_T_UINT32 || type == WIRE_T_VAR_UINT32) hi = UINT32_MAX;
  if (hi != UINT64_MAX && !broken(g)) u %= hi + 1;
  return u;
}
static uint64_t int_val(gen *g, uint8_t type) {
  size_t at = g->t.n;
  gen_int(g, type);
  uint64_t v;
  memcpy(&v, g->t.p + at + 1, 8);
  g->t.n = at;
  return v;
}
static uint64_t float_val(gen *g) {
  static const double specials[] = {0.0, -0.0, 1.0, -1.5, 65504.0, 1e-8,
                                    3.4e38, 1e300, 0.1};
  double d = chance(g, 3) ? specials[below(g, 9)]
                          : (double)(int64_t)rnd(g) / (double)(UINT64_C(1) << below(g, 40));
  uint64_t u;
  memcpy(&u, &d, 8);
  if (chance(g, 20)) u = UINT64_C(0x7FF8000000000001); /* a NaN */
  return u;
}
static uint64_t prim_val(gen *g, uint8_t t) {
  if (t == WIRE_T_BOOL) return below(g, 2);
  if (t <= WIRE_T_TAGGED_INT64) return int_val(g, t);
  if (t <= WIRE_T_TAGGED_UINT64) return uint_val(g, t);
  return float_val(g);
}
static void gen_prim(gen *g, uint8_t t) {
  t8(&g->t, t);
  if (t == WIRE_T_BOOL) t8(&g->t, (uint8_t)below(g, broken(g) ? 256 : 2));
  else t64(&g->t, prim_val(g, t));
}

static const uint8_t prims[] = {
    WIRE_T_BOOL, WIRE_T_INT8, WIRE_T_INT16, WIRE_T_INT32, WIRE_T_VARINT32,
    WIRE_T_INT64, WIRE_T_VARINT64, WIRE_T_TAGGED_INT64, WIRE_T_UINT8,
    WIRE_T_UINT16, WIRE_T_UINT32, WIRE_T_VAR_UINT32, WIRE_T_UINT64,
    WIRE_T_VAR_UINT64, WIRE_T_TAGGED_UINT64, WIRE_T_FLOAT16, WIRE_T_BFLOAT16,
    WIRE_T_FLOAT32, WIRE_T_FLOAT64};
static uint8_t rand_prim(gen *g) { return prims[below(g, sizeof prims)]; }

static void gen_array(gen *g, uint8_t t) {
  uint32_t w = t == WIRE_T_BINARY ? 1 : wire_type_array_width(t);
  uint32_t n = below(g, 6) * w;
  if (broken(g) && w > 1) n++;
  t8(&g->t, t);
  t32(&g->t, n);
  for (uint32_t i = 0; i < n; i++)
    t8(&g->t, (uint8_t)(t == WIRE_T_BOOL_ARRAY ? below(g, broken(g) ? 3 : 2) : rnd(g)));
  g->nref++;
}

static void gen_packed(gen *g, uint8_t kind, uint8_t et, uint32_t n) {
  t8(&g->t, TAPE_PACKED);
  t8(&g->t, kind);
  t8(&g->t, broken(g) ? (uint8_t)below(g, 60) : et);
  t32(&g->t, n);
  g->nref++;
  for (uint32_t i = 0; i < n; i++) t64(&g->t, prim_val(g, et));
}

static wire_registry *reg(gen *g) { return g->ctx->reg; }

static void gen_value(gen *g, const wire_ftype *decl, int depth);
static void gen_any(gen *g, int depth);

static void gen_struct(gen *g, uint32_t ti, int depth) {
  wire_utype *u = &reg(g)->types[ti];
  cr_assert_eq(wire__layout_of(g->ctx, ti), WIRE_OK);
  const wire_layout *l = u->layout;
  g->nref++;
  if (chance(g, 2)) { /* by wire index */
    t8(&g->t, TAPE_STRUCT_IDX);
    t32(&g->t, ti);
    t32(&g->t, l->nfields + (broken(g) ? 1 : 0));
    for (uint32_t i = 0; i < l->nfields; i++) gen_value(g, l->fields[i].type, depth + 1);
    return;
  }
  if (u->kind == WIRE_KIND_STRUCT && chance(g, 4)) {
    /* the layout from the type's TypeDef, with or without an identity */
    wire_buf b = {g->ctx, NULL, 0, 0, false, WIRE_OK};
    cr_assert_eq(wire__typedef_build(g->ctx, ti, &b), WIRE_OK);
    if (broken(g) && b.len > 2) b.p[1 + below(g, (uint32_t)b.len - 1)] ^= 0x10;
    t8(&g->t, TAPE_STRUCT_TD);
    t32(&g->t, (uint32_t)b.len);
    tput(&g->t, b.p, b.len);
    free(b.p);
    if (chance(g, 2)) {
      t32(&g->t, 0xFFFFFFFFu);
      t32(&g->t, u->by_name ? 0xFFFFFFFFu : u->user_id);
      t16(&g->t, (uint16_t)strlen(u->ns));
      tput(&g->t, u->ns, strlen(u->ns));
      t16(&g->t, (uint16_t)strlen(u->name));
      tput(&g->t, u->name, strlen(u->name));
    } else {
      t32(&g->t, ti);
    }
  } else {
    t8(&g->t, WIRE_T_STRUCT);
    t32(&g->t, ti);
  }
  /* a random subset in random order (the nullable ones may be left out) */
  uint32_t order[64], n = 0;
  for (uint32_t i = 0; i < l->nfields && n < 64; i++) {
    const wire_ftype *f = l->fields[i].type;
    if ((f->nullable || f->ref || broken(g)) && chance(g, 4)) continue;
    order[n++] = i;
  }
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = below(g, i), x = order[i - 1];
    order[i - 1] = order[j];
    order[j] = x;
  }
  t32(&g->t, n);
  for (uint32_t k = 0; k < n; k++) {
    const wire_lfield *f = &l->fields[order[k]];
    char name[80];
    size_t nl;
    int how = (int)below(g, 3);
    if (broken(g)) {
      nl = (size_t)snprintf(name, sizeof name, "no_such_field");
    } else if (how == 0 && f->name) {
      nl = f->name_len < sizeof name ? f->name_len : sizeof name - 1;
      memcpy(name, f->name, nl);
    } else if (how == 1 && f->local != WIRE_NO_TYPE) {
      nl = (size_t)snprintf(name, sizeof name, "%s", u->fields[f->local].name);
    } else if (f->tag >= 0) {
      nl = (size_t)snprintf(name, sizeof name, "#%d", f->tag);
    } else {
      nl = f->name_len < sizeof name ? f->name_len : sizeof name - 1;
      memcpy(name, f->name, nl);
    }
    t16(&g->t, (uint16_t)nl);
    tput(&g->t, name, nl);
    gen_value(g, f->type, depth + 1);
  }
}

static void gen_enum(gen *g, uint32_t ti) {
  wire_utype *u = &reg(g)->types[ti];
  uint32_t v = u->nvalues ? u->values[below(g, u->nvalues)].value : 0;
  switch (below(g, 3)) {
  case 0:
    if (!u->by_name) {
      t8(&g->t, TAPE_ENUM_ID);
      t32(&g->t, u->user_id);
      t32(&g->t, v);
      return;
    }
    t8(&g->t, WIRE_T_NAMED_ENUM);
    t16(&g->t, (uint16_t)strlen(u->ns));
    tput(&g->t, u->ns, strlen(u->ns));
    t16(&g->t, (uint16_t)strlen(u->name));
    tput(&g->t, u->name, strlen(u->name));
    t32(&g->t, v);
    return;
  default:
    t8(&g->t, WIRE_T_ENUM);
    t32(&g->t, broken(g) ? 1000 : ti);
    t32(&g->t, v);
  }
}

static void gen_union(gen *g, uint32_t ti, int depth) {
  wire_utype *u = ti == WIRE_NO_TYPE ? NULL : &reg(g)->types[ti];
  uint32_t c = u && u->ncases ? below(g, u->ncases) : 0;
  t8(&g->t, WIRE_T_UNION);
  t32(&g->t, u ? ti : WIRE_BY_NAME);
  t32(&g->t, u && u->ncases ? u->cases[c].case_id : below(g, 4));
  g->nref++;
  if (u && u->ncases) gen_value(g, u->cases[c].type, depth + 1);
  else gen_any(g, depth + 1);
}

/* A registered type of a kind, or WIRE_NO_TYPE. */
static uint32_t pick_type(gen *g, uint8_t kind) {
  wire_registry *r = reg(g);
  if (!r || !r->ntypes) return WIRE_NO_TYPE;
  for (int tries = 0; tries < 8; tries++) {
    uint32_t i = below(g, r->ntypes);
    if (r->types[i].kind == kind) return i;
  }
  for (uint32_t i = 0; i < r->ntypes; i++)
    if (r->types[i].kind == kind) return i;
  return WIRE_NO_TYPE;
}

static void gen_ref(gen *g) {
  t8(&g->t, TAPE_REF);
  t32(&g->t, below(g, g->nref + (broken(g) ? 2 : 0)));
}

static void gen_elems(gen *g, const wire_ftype *elem, uint32_t n, int depth) {
  int mode = (int)below(g, 3); /* 0 random, 1 one scalar type, 2 one struct type */
  uint8_t pt = rand_prim(g);
  uint32_t st = pick_type(g, WIRE_KIND_STRUCT);
  for (uint32_t i = 0; i < n; i++) {
    if (elem) gen_value(g, elem, depth + 1);
    else if (chance(g, 8)) t8(&g->t, TAPE_NULL);
    else if (mode == 1) gen_prim(g, pt);
    else if (mode == 2 && st != WIRE_NO_TYPE && depth < 4) gen_struct(g, st, depth + 1);
    else gen_any(g, depth + 1);
  }
}

static void gen_list(gen *g, uint8_t kind, const wire_ftype *elem, int depth) {
  uint32_t n = below(g, depth > 3 ? 3 : 7);
  if (elem && wire__is_prim(elem->type_id) && !elem->nullable && chance(g, 2)) {
    gen_packed(g, kind, elem->type_id, n);
    return;
  }
  if (!elem && chance(g, 5)) {
    gen_packed(g, kind, rand_prim(g), n);
    return;
  }
  t8(&g->t, kind);
  t32(&g->t, n);
  g->nref++;
  gen_elems(g, elem, n, depth);
}

static void gen_map(gen *g, const wire_ftype *k, const wire_ftype *v, int depth) {
  uint32_t n = below(g, depth > 3 ? 3 : 7);
  t8(&g->t, WIRE_T_MAP);
  t32(&g->t, n);
  g->nref++;
  int mode = (int)below(g, 2);
  for (uint32_t i = 0; i < n; i++) {
    if (k) gen_value(g, k, depth + 1);
    else if (mode && !chance(g, 8)) gen_string(g);
    else gen_any(g, depth + 1);
    if (v) gen_value(g, v, depth + 1);
    else if (mode && !chance(g, 8)) gen_prim(g, WIRE_T_VARINT64);
    else gen_any(g, depth + 1);
  }
}

static void gen_misc(gen *g, uint8_t t) {
  switch (t) {
  case WIRE_T_DATE: t8(&g->t, t); t64(&g->t, (uint64_t)(int64_t)(int32_t)rnd(g)); break;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION:
    t8(&g->t, t);
    t64(&g->t, (uint64_t)((int64_t)rnd(g) >> below(g, 64)));
    t32(&g->t, broken(g) ? 1000000000u + below(g, 5) : below(g, 1000000000u));
    break;
  case WIRE_T_DECIMAL: {
    t8(&g->t, t);
    t32(&g->t, (uint32_t)(int32_t)(below(g, 40) - 20));
    t8(&g->t, (uint8_t)below(g, 2));
    uint32_t n = below(g, chance(g, 4) ? 20 : 9);
    t32(&g->t, n);
    for (uint32_t i = 0; i < n; i++)
      t8(&g->t, (uint8_t)(i + 1 == n && chance(g, 3) ? 0 : rnd(g)));
    g->nref++;
    break;
  }
  case WIRE_T_NONE: t8(&g->t, t); break;
  default: gen_array(g, t); break;
  }
}

static const uint8_t arrays[] = {
    WIRE_T_BINARY, WIRE_T_BOOL_ARRAY, WIRE_T_INT8_ARRAY, WIRE_T_INT16_ARRAY,
    WIRE_T_INT32_ARRAY, WIRE_T_INT64_ARRAY, WIRE_T_UINT8_ARRAY,
    WIRE_T_UINT16_ARRAY, WIRE_T_UINT32_ARRAY, WIRE_T_UINT64_ARRAY,
    WIRE_T_FLOAT16_ARRAY, WIRE_T_BFLOAT16_ARRAY, WIRE_T_FLOAT32_ARRAY,
    WIRE_T_FLOAT64_ARRAY};

static void gen_any(gen *g, int depth) {
  if (broken(g) && chance(g, 4)) { /* an op that does not exist */
    t8(&g->t, (uint8_t)(0x39 + below(g, 0xB0)));
    return;
  }
  uint32_t k = below(g, depth > 4 ? 10 : 18);
  switch (k) {
  case 0: t8(&g->t, TAPE_NULL); break;
  case 1: case 2: gen_prim(g, rand_prim(g)); break;
  case 3: case 4: gen_string(g); break;
  case 5: gen_misc(g, (uint8_t)(WIRE_T_DURATION + below(g, 5))); break;
  case 6: gen_misc(g, arrays[below(g, sizeof arrays)]); break;
  case 7:
    if (g->nref && chance(g, 2)) gen_ref(g);
    else gen_misc(g, WIRE_T_NONE);
    break;
  case 8: {
    uint32_t ti = pick_type(g, WIRE_KIND_ENUM);
    if (ti != WIRE_NO_TYPE) gen_enum(g, ti);
    else gen_prim(g, WIRE_T_VARINT64);
    break;
  }
  case 9: t8(&g->t, TAPE_ENUM_ID); t32(&g->t, below(g, 300)); t32(&g->t, below(g, 4)); break;
  case 10: case 11: gen_list(g, chance(g, 3) ? WIRE_T_SET : WIRE_T_LIST, NULL, depth); break;
  case 12: case 13: gen_map(g, NULL, NULL, depth); break;
  case 14: case 15: {
    uint32_t ti = pick_type(g, WIRE_KIND_STRUCT);
    if (ti != WIRE_NO_TYPE) gen_struct(g, ti, depth);
    else gen_list(g, WIRE_T_LIST, NULL, depth);
    break;
  }
  case 16: gen_union(g, chance(g, 2) ? pick_type(g, WIRE_KIND_UNION) : WIRE_NO_TYPE, depth); break;
  default:
    if (g->nref) gen_ref(g);
    else gen_string(g);
  }
}

/* A value for a declared type (sometimes any value, sometimes null). */
static void gen_value(gen *g, const wire_ftype *f, int depth) {
  if (!f || f->type_id == WIRE_T_UNKNOWN || (g->bad && chance(g, g->bad * 4))) {
    gen_any(g, depth);
    return;
  }
  if ((f->nullable || f->ref || chance(g, 40)) && chance(g, 6)) {
    t8(&g->t, TAPE_NULL);
    return;
  }
  if (f->ref && g->nref && chance(g, 4)) {
    gen_ref(g);
    return;
  }
  if (depth > 6 && f->nullable) {
    t8(&g->t, TAPE_NULL);
    return;
  }
  uint8_t t = f->type_id;
  if (f->user != WIRE_NO_TYPE) {
    uint8_t kind = reg(g)->types[f->user].kind;
    if (kind == WIRE_KIND_ENUM) gen_enum(g, f->user);
    else if (kind == WIRE_KIND_UNION) gen_union(g, f->user, depth);
    else if (depth < 8) gen_struct(g, f->user, depth);
    else t8(&g->t, TAPE_NULL);
    return;
  }
  if (wire__is_prim(t)) gen_prim(g, t);
  else if (t == WIRE_T_STRING) gen_string(g);
  else if (t == WIRE_T_LIST || t == WIRE_T_SET) gen_list(g, t, f->elem, depth);
  else if (t == WIRE_T_MAP) gen_map(g, f->key, f->value, depth);
  else if (t == WIRE_T_UNION) gen_union(g, WIRE_NO_TYPE, depth);
  else gen_misc(g, t);
}

static const char *schema_file(uint32_t k, uint32_t *count) {
  static char lines[128][200];
  static uint32_t n = 0;
  if (!n) {
    FILE *f = fopen("libwire/tests/fuzz/schemas.txt", "r");
    cr_assert_not_null(f);
    char line[200];
    while (n < 128 && fgets(line, sizeof line, f)) {
      line[strcspn(line, "\r\n")] = 0;
      if (!line[0] || line[0] == '#') continue;
      snprintf(lines[n++], sizeof lines[0], "%s", line);
    }
    fclose(f);
  }
  *count = n;
  return n ? lines[k % n] : NULL;
}

/* One random run: a tape of a few roots in a context of schema `k` and
 * random options; both encoders agree, and the bytes decode alike. */
static int random_case(uint64_t seed, int bad, int *encoded) {
  uint32_t nschemas;
  gen g;
  memset(&g, 0, sizeof g);
  g.s = seed * UINT64_C(0x9E3779B97F4A7C15) + 1;
  g.bad = bad;
  g.ctx = wire_ctx_new();
  const char *schema = schema_file((uint32_t)(seed % 61), &nschemas);
  int with_schema = (seed % 61) < nschemas;
  if (with_schema)
    cr_assert_eq(wire_schema_load_fdl_file(g.ctx, schema), WIRE_OK, "%s", schema);
  int ref = (int)below(&g, 2), compat = (int)below(&g, 2);
  int pol = (int)below(&g, 3), trusted = (int)below(&g, 2);
  wire_ctx_set_option(g.ctx, WIRE_OPT_REF_TRACKING, ref);
  wire_ctx_set_option(g.ctx, WIRE_OPT_COMPATIBLE, compat);
  wire_ctx_set_option(g.ctx, WIRE_OPT_STRING_POLICY, pol);
  /* trusted text is only compared on valid text: the document path always
   * checks */
  wire_ctx_set_option(g.ctx, WIRE_OPT_TRUSTED_TEXT, trusted);
  g.text_ok = trusted;
  if (chance(&g, 8)) wire_ctx_set_limit(g.ctx, WIRE_LIMIT_DEPTH, 1 + below(&g, 6));
  if (chance(&g, 16)) wire_ctx_set_limit(g.ctx, WIRE_LIMIT_COLLECTION, below(&g, 4));
  uint32_t roots = 1 + below(&g, 3);
  tput(&g.t, "WT", 2);
  t8(&g.t, (uint8_t)(1 + below(&g, 2)));
  t8(&g.t, 0);
  t32(&g.t, roots + (broken(&g) ? 1 : 0));
  for (uint32_t i = 0; i < roots; i++) {
    uint32_t st = pick_type(&g, WIRE_KIND_STRUCT);
    if (st != WIRE_NO_TYPE && chance(&g, 2)) gen_struct(&g, st, 0);
    else gen_any(&g, 0);
  }
  if (broken(&g)) t8(&g.t, 0); /* trailing */
  if (broken(&g) && g.t.n > 8) g.t.n = 8 + below(&g, (uint32_t)(g.t.n - 8)); /* cut */
  char id[160];
  snprintf(id, sizeof id, "seed %llu (%s, ref %d, compatible %d, policy %d, "
           "trusted %d)", (unsigned long long)seed,
           with_schema ? schema : "no schema", ref, compat, pol, trusted);
  int good = check_encode(g.ctx, id, g.t.p, g.t.n);
  result a = enc_doc(g.ctx, g.t.p, g.t.n);
  if (!a.st) {
    (*encoded)++;
    wire_writer *w = wire_writer_new(g.ctx, NULL, 0);
    for (uint32_t fl = 0; fl <= WIRE_TAPE_FIELD_INDEX; fl++) {
      result x = dec_doc(g.ctx, a.p, a.n, fl);
      result y = dec_direct(g.ctx, w, a.p, a.n, fl);
      good &= same("decode of the encoded tape", id, &x, &y);
      result_free(g.ctx, &x);
      free(y.p);
    }
    good &= check_spans(g.ctx, w, id, a.p, a.n);
    wire_writer_free(w);
  }
  result_free(g.ctx, &a);
  if (!good) {
    char *h = hex(g.t.p, g.t.n);
    cr_log_error("  tape %s", h);
    free(h);
  }
  free(g.t.p);
  wire_ctx_free(g.ctx);
  return good;
}

Test(random, valid_tapes) {
  int bad = 0, encoded = 0;
  for (uint64_t s = 1; s <= 10000; s++) bad += !random_case(s, 0, &encoded);
  cr_log_info("10000 random tapes, %d encoded", encoded);
  cr_expect_gt(encoded, 5000, "only %d of the random tapes encode", encoded);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
}

Test(random, broken_tapes) {
  int bad = 0, encoded = 0;
  for (uint64_t s = 100001; s <= 110000; s++) bad += !random_case(s, 12, &encoded);
  cr_log_info("10000 broken random tapes, %d encoded", encoded);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
}

/* ---- decoding: hand-made payloads and mutated fixtures ------------------- */

static int check_decode(wire_ctx *ctx, const char *id, const uint8_t *p,
                        size_t n) {
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  int good = 1;
  for (uint32_t fl = 0; fl <= WIRE_TAPE_FIELD_INDEX; fl++) {
    result a = dec_doc(ctx, p, n, fl);
    result b = dec_direct(ctx, w, p, n, fl);
    good &= same(fl ? "decode (field index)" : "decode", id, &a, &b);
    if (!fl) {
      /* and the allocating entry point */
      result c = {0, 0, NULL, 0};
      c.st = wire_decode_tape(ctx, p, n, &c.p, &c.n);
      c.off = c.st ? wire_ctx_error_offset(ctx) : 0;
      good &= same("wire_decode_tape", id, &a, &c);
      result_free(ctx, &c);
    }
    result_free(ctx, &a);
    free(b.p);
  }
  good &= check_spans(ctx, w, id, p, n);
  wire_writer_free(w);
  return good;
}

Test(decode, lists_packed_after_the_fact) {
  static const struct { const char *hex; int ref; const char *want; } cases[] = {
      /* header 00: every element has its own type meta, all varint64 */
      {"01ff16020007020704", 0, "f316070200000001000000000000000200000000000000"},
      /* three bools, each with its type: PACKED is longer than the ops */
      {"01ff160300010101000101", 0, NULL},
      /* tracked elements, the second a reference to the first */
      {"01ff16020100070afe00", 1, NULL},
      /* a null among the numbers: no PACKED */
      {"01ff160202ff0702fd", 0, NULL},
      /* mixed number types: no PACKED */
      {"01ff1602000702050a", 0, NULL},
      /* same-type with the has-null bit but no null: PACKED */
      {"01ff16020a07ff02ff04", 0, NULL},
      /* a shared string written again, a shared list as REF */
      {"01ff16020100150461fe00", 1, NULL},
      {"01ff160201001601080702fe00", 1, NULL},
  };
  int bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wire_ctx *ctx = wire_ctx_new();
    wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, cases[i].ref);
    size_t n;
    uint8_t *p = unhex(cases[i].hex, &n);
    wire_doc *doc;
    cr_assert_eq(wire_decode(ctx, p, n, &doc), WIRE_OK, "case %zu: %s", i,
                 wire_ctx_error_message(ctx));
    wire_doc_free(doc);
    bad += !check_decode(ctx, cases[i].hex, p, n);
    if (cases[i].want) {
      uint8_t *t;
      size_t tl;
      cr_assert_eq(wire_decode_tape(ctx, p, n, &t, &tl), WIRE_OK);
      char *h = hex(t + 8, tl - 8);
      cr_expect_str_eq(h, cases[i].want, "case %zu", i);
      free(h);
      wire_ctx_free_bytes(ctx, t);
    }
    free(p);
    wire_ctx_free(ctx);
  }
  cr_assert_eq(bad, 0);
}

/* Every valid fixture, mutated (a byte changed, inserted or dropped, the
 * payload cut): both decoders agree on status, offset and tape. */
Test(decode, mutated_fixtures) {
  json_t *man = load("fixtures/MANIFEST.json");
  size_t fi, ti;
  const json_t *f, *t;
  int bad = 0, cases = 0, ok = 0;
  uint64_t s = 7;
  json_array_foreach(json_object_get(man, "files"), fi, f) {
    const char *path = json_string_value(json_object_get(f, "path"));
    if (strstr(path, "/invalid/")) continue;
    json_t *file = load(path);
    json_array_foreach(json_object_get(file, "tests"), ti, t) {
      wire_ctx *ctx = fixture_ctx(t);
      size_t n;
      uint8_t *bytes = unhex(json_string_value(json_object_get(t, "bytes")), &n);
      uint8_t *m = malloc(n + 2);
      for (int k = 0; k < 24; k++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        size_t mn = n, at = n ? (size_t)(s >> 8) % n : 0;
        memcpy(m, bytes, n);
        switch ((s >> 4) % 4) {
        case 0: if (n) m[at] = (uint8_t)(s >> 40); break;
        case 1: memmove(m + at + 1, m + at, n - at); m[at] = (uint8_t)(s >> 32); mn++; break;
        case 2: if (n) { memmove(m + at, m + at + 1, n - at - 1); mn--; } break;
        default: mn = at; break;
        }
        char id[200];
        snprintf(id, sizeof id, "%s mutation %d",
                 json_string_value(json_object_get(t, "id")), k);
        result a = dec_doc(ctx, m, mn, 0);
        ok += a.st == 0;
        result_free(ctx, &a);
        bad += !check_decode(ctx, id, m, mn);
        cases++;
      }
      free(m);
      free(bytes);
      fixture_free(ctx);
    }
    json_decref(file);
  }
  json_decref(man);
  cr_log_info("%d mutated payloads (%d still decode)", cases, ok);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
}

/* The outcome of wire_decode at node limit lim. */
static int32_t doc_status_at(wire_ctx *ctx, uint64_t lim, const uint8_t *p,
                             size_t n) {
  wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, (int64_t)lim);
  wire_doc *doc = NULL;
  int32_t st = wire_decode(ctx, p, n, &doc);
  wire_doc_free(doc);
  return st;
}

/* Every fixture, valid and invalid, at node limits 1 to 24 and, for a
 * valid one, around the smallest limit wire_decode takes it at (found by
 * bisection; the limit counts every null although a document shares one
 * node for them, R-LIMIT-1): both decoders give the same status, offset
 * and tape (test_node_limit.c states the counts of chosen payloads). */
Test(decode, node_limits_on_fixtures) {
  json_t *man = load("fixtures/MANIFEST.json");
  size_t fi, ti;
  const json_t *f, *t;
  int bad = 0, cases = 0;
  json_array_foreach(json_object_get(man, "files"), fi, f) {
    json_t *file = load(json_string_value(json_object_get(f, "path")));
    json_array_foreach(json_object_get(file, "tests"), ti, t) {
      const char *id = json_string_value(json_object_get(t, "id"));
      const char *hx = json_string_value(json_object_get(t, "bytes"));
      const char *cls = json_string_value(json_object_get(t, "error"));
      if (!hx || (cls && !strcmp(cls, "idl"))) continue; /* a schema's */
      wire_ctx *ctx = fixture_ctx(t);
      size_t n;
      uint8_t *bytes = unhex(hx, &n);
      uint64_t lo = 1, hi = 0;
      if (!cls && doc_status_at(ctx, UINT64_C(1) << 26, bytes, n) == WIRE_OK) {
        hi = UINT64_C(1) << 26; /* the smallest limit that decodes */
        while (lo < hi) {
          uint64_t mid = lo + (hi - lo) / 2;
          if (doc_status_at(ctx, mid, bytes, n) == WIRE_OK) hi = mid;
          else lo = mid + 1;
        }
      }
      for (uint64_t lim = 1; lim <= 24 || (hi && lim <= hi + 1); lim++) {
        if (lim > 24 && lim + 2 < hi) lim = hi - 2;
        wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, (int64_t)lim);
        char what[200];
        snprintf(what, sizeof what, "%s at node limit %llu", id,
                 (unsigned long long)lim);
        bad += !check_decode(ctx, what, bytes, n);
        cases++;
      }
      free(bytes);
      fixture_free(ctx);
    }
    json_decref(file);
  }
  json_decref(man);
  cr_log_info("%d fixture decodes at node limits", cases);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
}

/* ---- the format and the API ---------------------------------------------- */

/* A one-root tape of a string: encoding byte e, bytes s[0..n). */
static size_t string_tape(uint8_t *t, uint8_t e, const void *s, uint32_t n) {
  memcpy(t, "WT\x02\x00\x01\x00\x00\x00\x15", 9);
  t[9] = e;
  memcpy(t + 10, &n, 4);
  memcpy(t + 14, s, n);
  return 14 + n;
}

static char *encode_hex(wire_ctx *ctx, const uint8_t *tape, size_t len,
                        int32_t *st) {
  uint8_t *out;
  size_t n;
  *st = wire_encode_tape(ctx, tape, len, &out, &n);
  if (*st) return NULL;
  char *h = hex(out, n);
  wire_ctx_free_bytes(ctx, out);
  return h;
}

/* (spec R-WSTR-1, R-WSTR-2 and tape.md) */
Test(format, string_policies) {
  wire_ctx *ctx = wire_ctx_new();
  uint8_t t[64];
  int32_t st;
  char *h;
  /* "aé日" given as UTF-16: as given, the Java choice (UTF-8), UTF-8 */
  static const uint8_t u16[] = {0x61, 0, 0xe9, 0, 0xe5, 0x65};
  size_t n = string_tape(t, WIRE_STR_UTF16, u16, sizeof u16);
  cr_expect_eq(wire_ctx_get_option(ctx, WIRE_OPT_STRING_POLICY), WIRE_STRING_AS_GIVEN);
  h = encode_hex(ctx, t, n, &st);
  cr_expect_str_eq(h, "01ff1519610" "0e900e565");
  free(h);
  wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, WIRE_STRING_JAVA);
  h = encode_hex(ctx, t, n, &st);
  cr_expect_str_eq(h, "01ff151a61c3a9e697a5");
  free(h);
  wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, WIRE_STRING_UTF8);
  h = encode_hex(ctx, t, n, &st);
  cr_expect_str_eq(h, "01ff151a61c3a9e697a5");
  free(h);
  /* 0x80|e: the Java choice whatever the option */
  n = string_tape(t, 0x81, u16, sizeof u16);
  wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, WIRE_STRING_AS_GIVEN);
  h = encode_hex(ctx, t, n, &st);
  cr_expect_str_eq(h, "01ff151a61c3a9e697a5");
  free(h);
  /* 0xFF (version 1): UTF-8 text, the Java choice: "日本" is UTF-16 */
  n = string_tape(t, 0xFF, "\xe6\x97\xa5\xe6\x9c\xac", 6);
  h = encode_hex(ctx, t, n, &st);
  cr_expect_str_eq(h, "01ff1511e5652c67");
  free(h);
  /* "héllo" in Latin-1 under the UTF-8 policy */
  n = string_tape(t, WIRE_STR_LATIN1, "h\xe9llo", 5);
  wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, WIRE_STRING_UTF8);
  h = encode_hex(ctx, t, n, &st);
  cr_expect_str_eq(h, "01ff151a68c3a96c6c6f");
  free(h);
  /* an unknown encoding byte, and an invalid policy value */
  n = string_tape(t, 0x83, "a", 1);
  cr_expect_null(encode_hex(ctx, t, n, &st));
  cr_expect_eq(st, WIRE_E_ARG);
  cr_expect_eq(wire_ctx_error_offset(ctx), 8);
  cr_expect_eq(wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, 3), WIRE_E_ARG);
  wire_ctx_free(ctx);
}

Test(format, trusted_text) {
  wire_ctx *ctx = wire_ctx_new();
  uint8_t t[64];
  int32_t st;
  /* invalid UTF-8 and a lone surrogate: rejected unless trusted */
  size_t n = string_tape(t, WIRE_STR_UTF8, "a\xff\xc3", 3);
  cr_expect_null(encode_hex(ctx, t, n, &st));
  cr_expect_eq(st, WIRE_E_STRING);
  static const uint8_t lone[] = {0x00, 0xd8, 0x61};
  size_t n2 = string_tape(t + 32, WIRE_STR_UTF16, lone, 3);
  cr_expect_null(encode_hex(ctx, t + 32, n2, &st));
  cr_expect_eq(st, WIRE_E_STRING);
  wire_ctx_set_option(ctx, WIRE_OPT_TRUSTED_TEXT, 1);
  char *h = encode_hex(ctx, t, n, &st);
  cr_expect_str_eq(h, "01ff150e61ffc3"); /* written as given: garbage in */
  free(h);
  /* and transcoded under every policy without reading out of bounds */
  for (int64_t pol = 0; pol <= 2; pol++) {
    wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, pol);
    free(encode_hex(ctx, t, n, &st));
    cr_expect_eq(st, WIRE_OK);
    free(encode_hex(ctx, t + 32, n2, &st));
    cr_expect_eq(st, WIRE_OK);
    t[9] = 0xFF;
    free(encode_hex(ctx, t, n, &st));
    cr_expect_eq(st, WIRE_OK);
    t[9] = WIRE_STR_UTF8;
  }
  wire_ctx_free(ctx);
}

/* A value that does not fit its field: the error names the field and its
 * struct ("field g.P.a: ..."), the innermost field only, and a later
 * call's error is named again (the writer state is the context's). */
static uint32_t find(wire_ctx *ctx, const char *name) {
  uint32_t t;
  cr_assert_eq(wire_schema_find_type(ctx, name, strlen(name), &t), WIRE_OK);
  return t;
}
static void field_name(tbuf *t, const char *name) {
  t16(t, (uint16_t)strlen(name));
  tput(t, name, strlen(name));
}
static void expect_field_error(wire_ctx *ctx, const tbuf *t, const char *want) {
  int32_t st;
  cr_expect_null(encode_hex(ctx, t->p, t->n, &st));
  cr_expect_eq(st, WIRE_E_ENCODE, "%s", want);
  cr_expect_str_eq(wire_ctx_error_message(ctx), want);
  cr_expect(check_encode(ctx, want, t->p, t->n));
}

/* A context with the schema of FDL text `fdl`. */
static wire_ctx *fdl_ctx(const char *fdl, const char *name) {
  wire_ctx *ctx = wire_ctx_new();
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), name), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  return ctx;
}

Test(format, field_errors_name_the_field_and_struct) {
  wire_ctx *ctx = fdl_ctx("package g;\nmessage In [id=601] { string s = 1; }\n"
                          "message P [id=602] { int32 a = 1; In inner = 2; }\n",
                          "g.fdl");
  uint32_t p = find(ctx, "g.P"), in = find(ctx, "g.In");
  for (int compatible = 0; compatible < 2; compatible++) {
    wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, (uint64_t)compatible);
    /* a: a varint64 where varint32 is declared */
    tbuf a = {0};
    tput(&a, "WT\x01\x00\x01\x00\x00\x00", 8);
    t8(&a, WIRE_T_STRUCT); t32(&a, p); t32(&a, 1);
    field_name(&a, "a"); t8(&a, WIRE_T_VARINT64); t64(&a, 5);
    expect_field_error(ctx, &a, "field g.P.a: a varint64 where varint32 is declared");
    /* a missing, inner given: a has no value */
    tbuf m = {0};
    tput(&m, "WT\x01\x00\x01\x00\x00\x00", 8);
    t8(&m, WIRE_T_STRUCT); t32(&m, p); t32(&m, 1);
    field_name(&m, "inner"); t8(&m, WIRE_T_STRUCT); t32(&m, in); t32(&m, 1);
    field_name(&m, "s"); t8(&m, 0x15); t8(&m, 2); t32(&m, 2); tput(&m, "hi", 2);
    expect_field_error(ctx, &m, "field g.P.a: no value (not nullable)");
    /* inner.s a number: named by In's field alone */
    tbuf n = {0};
    tput(&n, "WT\x01\x00\x01\x00\x00\x00", 8);
    t8(&n, WIRE_T_STRUCT); t32(&n, p); t32(&n, 2);
    field_name(&n, "a"); t8(&n, WIRE_T_VARINT32); t64(&n, 1);
    field_name(&n, "inner"); t8(&n, WIRE_T_STRUCT); t32(&n, in); t32(&n, 1);
    field_name(&n, "s"); t8(&n, WIRE_T_VARINT64); t64(&n, 4);
    expect_field_error(ctx, &n, "field g.In.s: a varint64 where string is declared");
    /* the same tape with a string for s is written */
    n.n -= 9;
    t8(&n, 0x15); t8(&n, 2); t32(&n, 2); tput(&n, "hi", 2);
    int32_t st;
    free(encode_hex(ctx, n.p, n.n, &st));
    cr_expect_eq(st, WIRE_OK, "%s", wire_ctx_error_message(ctx));
    expect_field_error(ctx, &a, "field g.P.a: a varint64 where varint32 is declared");
    /* a field the struct does not have: named with its struct, the inner
     * one's by In */
    tbuf z = {0};
    tput(&z, "WT\x01\x00\x01\x00\x00\x00", 8);
    t8(&z, WIRE_T_STRUCT); t32(&z, p); t32(&z, 1);
    field_name(&z, "zz"); t8(&z, WIRE_T_VARINT32); t64(&z, 1);
    expect_field_error(ctx, &z, "struct g.P has no field zz");
    tbuf zi = {0};
    tput(&zi, "WT\x01\x00\x01\x00\x00\x00", 8);
    t8(&zi, WIRE_T_STRUCT); t32(&zi, p); t32(&zi, 2);
    field_name(&zi, "a"); t8(&zi, WIRE_T_VARINT32); t64(&zi, 1);
    field_name(&zi, "inner"); t8(&zi, WIRE_T_STRUCT); t32(&zi, in); t32(&zi, 1);
    field_name(&zi, "zz"); t8(&zi, WIRE_T_VARINT32); t64(&zi, 1);
    expect_field_error(ctx, &zi, "struct g.In has no field zz");
    free(a.p);
    free(m.p);
    free(n.p);
    free(z.p);
    free(zi.p);
  }
  wire_ctx_free(ctx);
}

static wire_ctx *item_ctx(void) {
  return fdl_ctx("package demo;\nmessage Item [id=102] { string name = 1; "
                 "optional int32 count = 2; list<int64> xs = 3; }\n",
                 "item.fdl");
}

Test(format, struct_by_index) {
  wire_ctx *ctx = item_ctx();
  /* the wire order, as a binding learns it */
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *n = wire_node_new_struct(doc, 0);
  cr_assert_not_null(n);
  char order[3][16];
  for (size_t i = 0; i < 3; i++) {
    size_t nl;
    const char *nm = wire_node_field_name(n, i, &nl);
    snprintf(order[i], sizeof order[i], "%.*s", (int)nl, nm);
  }
  /* a name the struct lacks: named with the struct, as the tape's is */
  cr_expect_eq(wire_struct_set_field(doc, n, "zz", 2, wire_node_new_null(doc)),
               WIRE_E_ENCODE);
  cr_expect_str_eq(wire_ctx_error_message(ctx), "struct demo.Item has no field zz");
  wire_doc_free(doc);
  /* by name (any order) and by index (wire order) give the same bytes */
  tbuf a = {0}, b = {0};
  tput(&a, "WT\x01\x00\x01\x00\x00\x00", 8);
  t8(&a, WIRE_T_STRUCT); t32(&a, 0); t32(&a, 3);
  tput(&b, "WT\x02\x00\x01\x00\x00\x00", 8);
  t8(&b, TAPE_STRUCT_IDX); t32(&b, 0); t32(&b, 3);
  for (int k = 2; k >= 0; k--) {
    t16(&a, (uint16_t)strlen(order[k]));
    tput(&a, order[k], strlen(order[k]));
    tbuf *v = &a;
    if (!strcmp(order[k], "name")) { t8(v, 0x15); t8(v, 2); t32(v, 2); tput(v, "hi", 2); }
    else if (!strcmp(order[k], "count")) { t8(v, TAPE_NULL); }
    else { t8(v, TAPE_PACKED); t8(v, WIRE_T_LIST); t8(v, WIRE_T_VARINT64); t32(v, 2); t64(v, 7); t64(v, (uint64_t)-9); }
  }
  for (int k = 0; k < 3; k++) {
    tbuf *v = &b;
    if (!strcmp(order[k], "name")) { t8(v, 0x15); t8(v, 2); t32(v, 2); tput(v, "hi", 2); }
    else if (!strcmp(order[k], "count")) { t8(v, TAPE_NULL); }
    else { t8(v, TAPE_PACKED); t8(v, WIRE_T_LIST); t8(v, WIRE_T_VARINT64); t32(v, 2); t64(v, 7); t64(v, (uint64_t)-9); }
  }
  int32_t st;
  char *ha = encode_hex(ctx, a.p, a.n, &st);
  cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(ctx));
  char *hb = encode_hex(ctx, b.p, b.n, &st);
  cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(ctx));
  cr_expect_str_eq(ha, hb);
  cr_expect(check_encode(ctx, "struct by index", b.p, b.n));
  /* the decoded tape gives the fields back by index */
  uint8_t *out;
  size_t on;
  cr_assert_eq(wire_encode_tape(ctx, b.p, b.n, &out, &on), WIRE_OK);
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  cr_assert_eq(wire_decode_tape_to(ctx, out, on, WIRE_TAPE_FIELD_INDEX, w), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  cr_expect_eq(wire_writer_size(w), b.n);
  cr_expect(memcmp(wire_writer_data(w), b.p, b.n) == 0, "read tape differs");
  wire_writer_free(w);
  wire_ctx_free_bytes(ctx, out);
  /* a wrong field count */
  b.p[13] = 2;
  cr_expect_null(encode_hex(ctx, b.p, b.n, &st));
  cr_expect_eq(st, WIRE_E_ARG);
  cr_expect_eq(wire_ctx_error_offset(ctx), 8);
  cr_expect(check_encode(ctx, "struct by index, bad count", b.p, b.n));
  free(ha);
  free(hb);
  free(a.p);
  free(b.p);
  wire_ctx_free(ctx);
}

Test(format, errors_at_tape_offsets) {
  wire_ctx *ctx = wire_ctx_new();
  int32_t st;
  /* [int8 300] : the int8 op is at offset 13 */
  tbuf t = {0};
  tput(&t, "WT\x01\x00\x01\x00\x00\x00", 8);
  t8(&t, WIRE_T_LIST); t32(&t, 1);
  t8(&t, WIRE_T_INT8); t64(&t, 300);
  cr_expect_null(encode_hex(ctx, t.p, t.n, &st));
  cr_expect_eq(st, WIRE_E_VALUE);
  cr_expect_eq(wire_ctx_error_offset(ctx), 13);
  cr_expect(check_encode(ctx, "int8 300", t.p, t.n));
  /* cut inside the int: truncated at the op */
  cr_expect_null(encode_hex(ctx, t.p, t.n - 3, &st));
  cr_expect_eq(st, WIRE_E_TRUNCATED);
  cr_expect(check_encode(ctx, "cut", t.p, t.n - 3));
  /* a REF to itself inside a union's value */
  t.n = 8;
  t8(&t, WIRE_T_UNION); t32(&t, WIRE_BY_NAME); t32(&t, 1);
  t8(&t, TAPE_REF); t32(&t, 0);
  cr_expect_null(encode_hex(ctx, t.p, t.n, &st));
  cr_expect_eq(st, WIRE_E_REF);
  cr_expect_eq(wire_ctx_error_offset(ctx), 17);
  cr_expect(check_encode(ctx, "union cycle", t.p, t.n));
  /* nesting deeper than the depth limit */
  wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH, 3);
  t.n = 8;
  for (int i = 0; i < 5; i++) { t8(&t, WIRE_T_LIST); t32(&t, 1); }
  t8(&t, TAPE_NULL);
  cr_expect_null(encode_hex(ctx, t.p, t.n, &st));
  cr_expect_eq(st, WIRE_E_DEPTH);
  cr_expect(check_encode(ctx, "deep", t.p, t.n));
  /* not a tape */
  cr_expect_eq(wire_encode_tape_to(ctx, (const uint8_t *)"WT\x03\x00\x00\x00\x00\x00", 8,
                                   NULL), WIRE_E_ARG);
  free(t.p);
  wire_ctx_free(ctx);
}

/* A list of 200 mixed values and a map of 300 entries. */
static void sample_tape(tbuf *t) {
  t->n = 0;
  tput(t, "WT\x01\x00\x02\x00\x00\x00", 8);
  t8(t, WIRE_T_LIST); t32(t, 200);
  for (int i = 0; i < 200; i++) {
    if (i % 3 == 0) { t8(t, WIRE_T_VARINT64); t64(t, (uint64_t)i * 77777); }
    else if (i % 3 == 1) { t8(t, 0x15); t8(t, 0xFF); t32(t, 5); tput(t, "h\xc3\xa9ll", 5); }
    else { t8(t, WIRE_T_FLOAT64); double d = i / 3.0; uint64_t u; memcpy(&u, &d, 8); t64(t, u); }
  }
  t8(t, WIRE_T_MAP); t32(t, 300);
  for (int i = 0; i < 300; i++) {
    char k[16];
    int kl = snprintf(k, sizeof k, "key%05d", i);
    t8(t, 0x15); t8(t, 2); t32(t, (uint32_t)kl); tput(t, k, (size_t)kl);
    t8(t, WIRE_T_VARINT64); t64(t, (uint64_t)i << (i % 50));
  }
}

Test(api, writer_reuse_and_fixed_buffers) {
  wire_ctx *ctx = wire_ctx_new();
  tbuf t = {0};
  sample_tape(&t);
  uint8_t *ref;
  size_t rn;
  cr_assert_eq(wire_encode_tape(ctx, t.p, t.n, &ref, &rn), WIRE_OK);
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  for (int i = 0; i < 3; i++) {
    wire_writer_reset(w);
    cr_assert_eq(wire_encode_tape_to(ctx, t.p, t.n, w), WIRE_OK);
    cr_assert_eq(wire_writer_size(w), rn);
    cr_assert(memcmp(wire_writer_data(w), ref, rn) == 0);
  }
  /* two messages appended to one writer */
  cr_assert_eq(wire_encode_tape_to(ctx, t.p, t.n, w), WIRE_OK);
  cr_assert_eq(wire_writer_size(w), 2 * rn);
  cr_assert(memcmp(wire_writer_data(w) + rn, ref, rn) == 0);
  wire_writer_free(w);
  /* a caller's buffer: too small, then large enough */
  uint8_t *buf = malloc(rn + 8);
  memset(buf, 0xEE, rn + 8);
  w = wire_writer_new(ctx, buf, rn / 2);
  wire_write_u8(w, 0x42);
  cr_assert_eq(wire_encode_tape_to(ctx, t.p, t.n, w), WIRE_E_BUFFER_FULL);
  cr_expect_eq(wire_writer_size(w), rn + 1);
  cr_expect_eq(wire_writer_status(w), WIRE_E_BUFFER_FULL);
  cr_expect_eq(buf[0], 0x42);
  wire_writer_free(w);
  w = wire_writer_new(ctx, buf, rn);
  cr_assert_eq(wire_encode_tape_to(ctx, t.p, t.n, w), WIRE_OK);
  cr_expect_eq(wire_writer_size(w), rn);
  cr_expect(memcmp(buf, ref, rn) == 0);
  cr_expect_eq(buf[rn], 0xEE, "wrote past the buffer");
  /* a writer that has failed stays failed */
  wire_writer_free(w);
  w = wire_writer_new(ctx, buf, 1);
  wire_write_u32(w, 1);
  cr_expect_eq(wire_encode_tape_to(ctx, t.p, t.n, w), WIRE_E_BUFFER_FULL);
  wire_writer_free(w);
  /* decoding into a caller's buffer */
  uint8_t *tp;
  size_t tn;
  cr_assert_eq(wire_decode_tape(ctx, ref, rn, &tp, &tn), WIRE_OK);
  uint8_t *tb2 = malloc(tn);
  w = wire_writer_new(ctx, tb2, tn - 1);
  cr_expect_eq(wire_decode_tape_to(ctx, ref, rn, 0, w), WIRE_E_BUFFER_FULL);
  cr_expect_eq(wire_writer_size(w), tn);
  wire_writer_free(w);
  w = wire_writer_new(ctx, tb2, tn);
  cr_expect_eq(wire_decode_tape_to(ctx, ref, rn, 0, w), WIRE_OK);
  cr_expect(memcmp(tb2, tp, tn) == 0);
  cr_expect_eq(wire_decode_tape_to(ctx, ref, rn, 16, w), WIRE_E_ARG);
  wire_writer_free(w);
  /* the same into a caller's buffer for one call: too small (or none)
   * gives the size needed, a bad payload its own error whatever the room */
  size_t got = 0;
  cr_expect_eq(wire_decode_tape_into(ctx, ref, rn, 0, tb2, tn - 1, &got),
               WIRE_E_BUFFER_FULL);
  cr_expect_eq(got, tn);
  cr_expect_eq(wire_decode_tape_into(ctx, ref, rn, 0, NULL, 0, &got),
               WIRE_E_BUFFER_FULL);
  cr_expect_eq(got, tn);
  memset(tb2, 0, tn);
  cr_expect_eq(wire_decode_tape_into(ctx, ref, rn, 0, tb2, tn, &got), WIRE_OK);
  cr_expect_eq(got, tn);
  cr_expect(memcmp(tb2, tp, tn) == 0);
  cr_expect_eq(wire_decode_tape_into(ctx, ref, rn, 16, tb2, tn, &got),
               WIRE_E_ARG);
  cr_expect_eq(wire_decode_tape_into(ctx, ref, rn, 0, tb2, tn, NULL),
               WIRE_E_ARG);
  uint8_t *tp2;
  size_t tn2;
  int32_t trunc = wire_decode_tape(ctx, ref, rn - 1, &tp2, &tn2);
  cr_expect_neq(trunc, WIRE_OK);
  cr_expect_eq(wire_decode_tape_into(ctx, ref, rn - 1, 0, tb2, 1, &got), trunc);
  cr_expect_eq(got, 0);
  free(tb2);
  wire_ctx_free_bytes(ctx, tp);
  free(buf);
  wire_ctx_free_bytes(ctx, ref);
  free(t.p);
  wire_ctx_free(ctx);
}

/* Allocation accounting: every block freed; once the context's scratch has
 * grown, encoding into a reused writer and decoding into one allocate
 * nothing. */
static size_t n_alloc, n_live;
static void *c_malloc(void *u, size_t n) { (void)u; n_alloc++; n_live++; return malloc(n); }
static void *c_realloc(void *u, void *p, size_t o, size_t n) {
  (void)u; (void)o;
  n_alloc++;
  if (!p) n_live++;
  return realloc(p, n);
}
static void c_free(void *u, void *p, size_t n) { (void)u; (void)n; if (p) n_live--; free(p); }

Test(api, no_allocation_per_message) {
  n_alloc = n_live = 0;
  wire_ctx *ctx = wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free, NULL);
  tbuf t = {0};
  sample_tape(&t);
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  wire_writer *tw = wire_writer_new(ctx, NULL, 0);
  cr_assert_eq(wire_encode_tape_to(ctx, t.p, t.n, w), WIRE_OK);
  cr_assert_eq(wire_decode_tape_to(ctx, wire_writer_data(w), wire_writer_size(w),
                                   0, tw), WIRE_OK);
  size_t before = n_alloc;
  for (int i = 0; i < 5; i++) {
    wire_writer_reset(w);
    wire_writer_reset(tw);
    cr_assert_eq(wire_encode_tape_to(ctx, t.p, t.n, w), WIRE_OK);
    cr_assert_eq(wire_decode_tape_to(ctx, wire_writer_data(w),
                                     wire_writer_size(w), 0, tw), WIRE_OK);
  }
  cr_expect_eq(n_alloc, before, "%zu allocations in 5 round trips",
               n_alloc - before);
  wire_writer_free(w);
  wire_writer_free(tw);
  wire_ctx_free(ctx);
  cr_expect_eq(n_live, 0, "%zu blocks not freed", n_live);
  free(t.p);
}

/* A shared string written out again at every reference: the bytes written
 * again are capped (wire__tape_reemit_budget), on both paths alike. */
Test(decode, shared_scalars_capped) {
  wire_ctx *ctx = wire_ctx_new();
  wire_ctx_set_limit(ctx, WIRE_LIMIT_COLLECTION, 1 << 20);
  for (int refs = 100; refs <= 400; refs += 300) {
    tbuf b = {0};
    uint32_t slen = 60000, count = (uint32_t)refs + 1;
    t8(&b, 0x01); t8(&b, 0xFF); t8(&b, WIRE_T_LIST);
    for (uint32_t v = count; ; v >>= 7) { /* varuint32 count */
      if (v < 0x80) { t8(&b, (uint8_t)v); break; }
      t8(&b, (uint8_t)(v | 0x80));
    }
    t8(&b, 0x01); /* tracking, each element with its type */
    t8(&b, 0x00); t8(&b, WIRE_T_STRING);
    uint64_t h = (uint64_t)slen << 2 | WIRE_STR_LATIN1;
    for (;;) { if (h < 0x80) { t8(&b, (uint8_t)h); break; } t8(&b, (uint8_t)(h | 0x80)); h >>= 7; }
    for (uint32_t i = 0; i < slen; i++) t8(&b, 'a' + (uint8_t)(i % 26));
    for (int i = 0; i < refs; i++) { t8(&b, 0xFE); t8(&b, 0x00); }
    cr_expect(check_decode(ctx, refs == 100 ? "100 refs" : "400 refs", b.p, b.n));
    uint8_t *t;
    size_t tl;
    int32_t st = wire_decode_tape(ctx, b.p, b.n, &t, &tl);
    if (refs == 100) {
      cr_expect_eq(st, WIRE_OK, "%s", wire_ctx_error_message(ctx));
      cr_expect_gt(tl, 100u * slen);
      wire_ctx_free_bytes(ctx, t);
    } else {
      cr_expect_eq(st, WIRE_E_LIMIT, "400 refs: %s", wire_status_name(st));
    }
    free(b.p);
  }
  wire_ctx_free(ctx);
}

/* WIRE_TAPE_STRING_SPANS: strings read in band come as STR_SPAN ops naming
 * their bytes in the payload (the list's run read fast, a root string the
 * long way); an empty one is copied. */
Test(format, string_spans) {
  wire_ctx *ctx = wire_ctx_new();
  tbuf t = {0};
  tput(&t, "WT\x02\x00\x02\x00\x00\x00", 8);
  t8(&t, WIRE_T_LIST); t32(&t, 3);
  t8(&t, WIRE_T_STRING); t8(&t, WIRE_STR_UTF8); t32(&t, 5); tput(&t, "hello", 5);
  t8(&t, WIRE_T_STRING); t8(&t, WIRE_STR_UTF8); t32(&t, 0);
  t8(&t, WIRE_T_STRING); t8(&t, WIRE_STR_UTF8); t32(&t, 6);
  tput(&t, "w\xc3\xb6rld", 6);
  t8(&t, WIRE_T_STRING); t8(&t, WIRE_STR_UTF8); t32(&t, 4); tput(&t, "root", 4);
  uint8_t *pay;
  size_t pn;
  cr_assert_eq(wire_encode_tape(ctx, t.p, t.n, &pay, &pn), WIRE_OK);
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  cr_assert_eq(wire_decode_tape_to(ctx, pay, pn, WIRE_TAPE_STRING_SPANS, w),
               WIRE_OK);
  const uint8_t *tp = wire_writer_data(w);
  size_t tn = wire_writer_size(w);
  cr_expect_eq(tp[2], 2, "a version 2 tape");
  /* list, STR_SPAN 5, STRING 0, STR_SPAN 6, STR_SPAN 4 */
  cr_assert_eq(tn, 8 + 5 + 14 + 6 + 14 + 14);
  static const struct { size_t at; uint32_t n; const char *s; } want[] = {
      {13, 5, "hello"}, {33, 6, "w\xc3\xb6rld"}, {47, 4, "root"}};
  for (int i = 0; i < 3; i++) {
    const uint8_t *v = tp + want[i].at;
    uint32_t n;
    uint64_t off;
    cr_expect_eq(v[0], TAPE_STR_SPAN);
    cr_expect_eq(v[1], WIRE_STR_UTF8);
    memcpy(&n, v + 2, 4);
    memcpy(&off, v + 6, 8);
    cr_expect_eq(n, want[i].n);
    cr_assert_leq(off + n, pn);
    cr_expect(memcmp(pay + off, want[i].s, n) == 0, "string %d's bytes", i);
  }
  cr_expect_eq(tp[27], WIRE_T_STRING, "the empty string is copied");
  cr_expect(check_decode(ctx, "string spans", pay, pn));
  /* a tape with a STR_SPAN op does not encode */
  uint8_t *o;
  size_t on;
  cr_expect_eq(wire_encode_tape(ctx, tp, tn, &o, &on), WIRE_E_ARG);
  wire_writer_free(w);
  wire_ctx_free_bytes(ctx, pay);
  free(t.p);
  wire_ctx_free(ctx);
}

/* The ops of the read tape of pay with the string spans and entry runs
 * after its root MAP op: how many ENTRY_RUN ops and the entries they hold
 * (the others: one key and one value op each). */
static void runs_of(wire_ctx *ctx, const uint8_t *pay, size_t pn,
                    uint32_t *nruns, uint32_t *in_runs) {
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  cr_assert_eq(wire_decode_tape_to(ctx, pay, pn,
                                   WIRE_TAPE_STRING_SPANS |
                                       WIRE_TAPE_ENTRY_RUNS, w),
               WIRE_OK);
  const uint8_t *tp = wire_writer_data(w);
  size_t tn = wire_writer_size(w), at = 13;
  cr_assert_eq(tp[8], WIRE_T_MAP);
  *nruns = *in_runs = 0;
  while (at < tn) {
    if (tp[at] == TAPE_ENTRY_RUN) {
      uint32_t c;
      uint64_t off, n;
      memcpy(&c, tp + at + 2, 4);
      memcpy(&off, tp + at + 6, 8);
      memcpy(&n, tp + at + 14, 8);
      cr_expect(c > 0 && n > 0 && off <= pn && n <= pn - off);
      (*nruns)++;
      *in_runs += c;
      at += 22;
    } else if (tp[at] == TAPE_STR_SPAN) {
      at += 14 + 9; /* a long key, its number */
    } else {
      cr_assert_fail("op 0x%02x in the map", tp[at]);
    }
  }
  wire_writer_free(w);
}

/* WIRE_TAPE_ENTRY_RUNS: a map chunk of string keys and varint values comes
 * as ENTRY_RUN ops naming the entries' payload bytes; an entry the fast
 * readers do not take (a key of 4096 bytes or more: a longer header) ends
 * a run and the next entry starts another; bad text, the node limit
 * inside a run fail as without the flag (check_decode compares status,
 * offset and, unspanned, the tape). */
Test(format, entry_runs) {
  static const uint8_t vts[] = {WIRE_T_VARINT64, WIRE_T_VARINT32};
  for (int vi = 0; vi < 2; vi++) {
    wire_ctx *ctx = wire_ctx_new();
    tbuf t = {0};
    static char big[5000];
    memset(big, 'x', sizeof big);
    static const struct { const char *k; size_t n; int64_t v; } e[] = {
        {"a", 1, 1}, {"b\xc3\xa9", 3, -2}, {"", 0, 3}, {big, sizeof big, 4},
        {"k5", 2, 1 << 30}, {"k6", 2, -(1 << 30)}};
    tput(&t, "WT\x02\x00\x01\x00\x00\x00", 8);
    t8(&t, WIRE_T_MAP);
    t32(&t, 6);
    for (int i = 0; i < 6; i++) {
      t8(&t, WIRE_T_STRING);
      t8(&t, WIRE_STR_UTF8);
      t32(&t, (uint32_t)e[i].n);
      tput(&t, e[i].k, e[i].n);
      t8(&t, vts[vi]);
      t64(&t, (uint64_t)e[i].v);
    }
    uint8_t *pay;
    size_t pn;
    cr_assert_eq(wire_encode_tape(ctx, t.p, t.n, &pay, &pn), WIRE_OK);
    uint32_t nruns, in_runs;
    runs_of(ctx, pay, pn, &nruns, &in_runs);
    /* a run before the long key, one after it; the last entry, whose
     * varint has less than 9 bytes of payload from its start, is read the
     * long way (fast_num) */
    cr_expect_eq(nruns, 2);
    cr_expect_eq(in_runs, 4, "%u entries in runs", in_runs);
    {
      /* a tape with an ENTRY_RUN op does not encode */
      wire_writer *w = wire_writer_new(ctx, NULL, 0);
      cr_assert_eq(wire_decode_tape_to(ctx, pay, pn,
                                       WIRE_TAPE_STRING_SPANS |
                                           WIRE_TAPE_ENTRY_RUNS, w),
                   WIRE_OK);
      uint8_t *o;
      size_t on;
      cr_expect_eq(wire_encode_tape(ctx, wire_writer_data(w),
                                    wire_writer_size(w), &o, &on),
                   WIRE_E_ARG);
      wire_writer_free(w);
    }
    cr_expect(check_decode(ctx, "entry runs", pay, pn));
    /* the node limit inside the first run */
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 4);
    cr_expect(check_decode(ctx, "entry runs, node limit", pay, pn));
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 1 << 20);
    /* bad text in the second key, in the last; a varint cut short */
    uint8_t *bad = malloc(pn);
    cr_assert_not_null(bad);
    static const char *const keys[] = {"b\xc3\xa9", "k6"};
    for (int k = 0; k < 2; k++) {
      memcpy(bad, pay, pn);
      size_t kl = strlen(keys[k]), i = 0;
      while (i + kl <= pn && memcmp(bad + i, keys[k], kl) != 0) i++;
      cr_assert_leq(i + kl, pn);
      uint8_t *at = bad + i;
      at[1] = 0xFF;
      cr_expect(check_decode(ctx, "entry runs, bad text", bad, pn));
    }
    cr_expect(check_decode(ctx, "entry runs, cut", pay, pn - 1));
    free(bad);
    wire_ctx_free_bytes(ctx, pay);
    free(t.p);
    wire_ctx_free(ctx);
  }
}

/* WIRE_TAPE_ENTRY_RUNS, the run loop's own path for the usual entry (a
 * one-byte header of an ASCII key, a varint of at most 8 bytes, 40 bytes
 * of payload from its start): forty entries with keys of 0-31 ASCII bytes,
 * a UTF-8 key that is not ASCII, one of 32 bytes (a two-byte header), and
 * varints of 1-9 bytes, then the same payload with each byte replaced by
 * 0x00, 0x7F, 0x80, 0xC3 and 0xFF and each bit flipped: every outcome (the
 * status, its offset, the tape unspanned) as without the flag; and with
 * binary limits of 30, 31 and 32 bytes, and node limits inside the run. */
Test(format, entry_runs_short) {
  static const uint8_t vts[] = {WIRE_T_VARINT64, WIRE_T_VARINT32};
  for (int vi = 0; vi < 2; vi++) {
    wire_ctx *ctx = wire_ctx_new();
    tbuf t = {0};
    enum { N = 40 };
    char keys[N][40];
    size_t kn[N];
    int64_t v[N];
    for (int i = 0; i < N; i++) {
      kn[i] = (size_t)snprintf(keys[i], sizeof keys[i], "k%d", i);
      v[i] = (int64_t)i * 1000003 * (i % 2 ? -1 : 1);
    }
    kn[3] = 0;
    memset(keys[7], 'y', 31), kn[7] = 31;
    memset(keys[9], 'z', 32), kn[9] = 32;
    memcpy(keys[12], "b\xc3\xa9", 3), kn[12] = 3;
    memset(keys[15], 'q', 8), kn[15] = 8;
    memset(keys[16], 'r', 16), kn[16] = 16;
    memset(keys[17], 's', 17), kn[17] = 17;
    v[20] = vi ? INT32_MIN : INT64_C(1) << 54; /* 5 / 8 varint bytes */
    v[21] = vi ? INT32_MAX : INT64_MIN;         /* 5 / 9 */
    v[22] = 0;
    tput(&t, "WT\x02\x00\x01\x00\x00\x00", 8);
    t8(&t, WIRE_T_MAP);
    t32(&t, N);
    for (int i = 0; i < N; i++) {
      t8(&t, WIRE_T_STRING);
      t8(&t, WIRE_STR_UTF8);
      t32(&t, (uint32_t)kn[i]);
      tput(&t, keys[i], kn[i]);
      t8(&t, vts[vi]);
      t64(&t, (uint64_t)v[i]);
    }
    uint8_t *pay;
    size_t pn;
    cr_assert_eq(wire_encode_tape(ctx, t.p, t.n, &pay, &pn), WIRE_OK);
    uint32_t nruns, in_runs;
    runs_of(ctx, pay, pn, &nruns, &in_runs);
    /* one run (the entries the run loop's own path does not take are
     * read by fc_string_body and fast_num in it); the last entry, with
     * less than 9 bytes of payload from its varint's start, the long way */
    cr_expect_eq(nruns, 1, "%u runs, %u entries in runs", nruns, in_runs);
    cr_expect_eq(in_runs, N - 1, "%u entries in runs", in_runs);
    int bad = !check_decode(ctx, "short entries", pay, pn);
    static const int64_t bl[] = {30, 31, 32};
    for (int i = 0; i < 3; i++) {
      wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, bl[i]);
      bad += !check_decode(ctx, "short entries, binary limit", pay, pn);
    }
    wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, INT64_C(1) << 30);
    static const int64_t nl[] = {3, 20, 41};
    for (int i = 0; i < 3; i++) {
      wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, nl[i]);
      bad += !check_decode(ctx, "short entries, node limit", pay, pn);
    }
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 1 << 20);
    uint8_t *m = malloc(pn);
    cr_assert_not_null(m);
    static const uint8_t sub[] = {0x00, 0x7F, 0x80, 0xC3, 0xFF};
    for (size_t at = 0; at < pn; at++) {
      for (int j = 0; j < 5 + 8; j++) {
        memcpy(m, pay, pn);
        m[at] = j < 5 ? sub[j] : (uint8_t)(m[at] ^ (1u << (j - 5)));
        if (m[at] == pay[at]) continue;
        bad += !check_decode(ctx, "short entries, one byte changed", m, pn);
      }
    }
    cr_expect_eq(bad, 0, "%d mismatches (see the log)", bad);
    free(m);
    wire_ctx_free_bytes(ctx, pay);
    free(t.p);
    wire_ctx_free(ctx);
  }
}

/* WIRE_TAPE_SPANS: binaries and dense arrays read in band come as SPAN ops
 * naming their bytes in the payload; one read out of band is copied. */
Test(format, spans) {
  wire_ctx *ctx = wire_ctx_new();
  tbuf t = {0};
  tput(&t, "WT\x02\x00\x01\x00\x00\x00", 8);
  t8(&t, WIRE_T_LIST); t32(&t, 3);
  t8(&t, WIRE_T_BINARY); t32(&t, 100);
  for (int i = 0; i < 100; i++) t8(&t, (uint8_t)(i * 7));
  t8(&t, WIRE_T_INT64_ARRAY); t32(&t, 16);
  t64(&t, 0x1122334455667788u); t64(&t, 42);
  t8(&t, WIRE_T_BINARY); t32(&t, 0); /* empty: copied (nothing to name) */
  uint8_t *pay;
  size_t pn;
  cr_assert_eq(wire_encode_tape(ctx, t.p, t.n, &pay, &pn), WIRE_OK);
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  cr_assert_eq(wire_decode_tape_to(ctx, pay, pn, WIRE_TAPE_SPANS, w), WIRE_OK);
  const uint8_t *tp = wire_writer_data(w);
  size_t tn = wire_writer_size(w);
  cr_expect_eq(tp[2], 2, "a version 2 tape");
  /* list, then SPAN binary 100, SPAN int64_array 16, BINARY 0 */
  cr_assert_eq(tn, 8 + 5 + 14 + 14 + 5);
  const uint8_t *v = tp + 13;
  uint32_t n;
  uint64_t off;
  cr_expect_eq(v[0], TAPE_SPAN);
  cr_expect_eq(v[1], WIRE_T_BINARY);
  memcpy(&n, v + 2, 4);
  memcpy(&off, v + 6, 8);
  cr_expect_eq(n, 100);
  cr_assert_leq(off + n, pn);
  cr_expect(memcmp(pay + off, t.p + 18, 100) == 0, "the binary's bytes");
  v += 14;
  cr_expect_eq(v[0], TAPE_SPAN);
  cr_expect_eq(v[1], WIRE_T_INT64_ARRAY);
  memcpy(&n, v + 2, 4);
  memcpy(&off, v + 6, 8);
  cr_expect_eq(n, 16);
  cr_assert_leq(off + n, pn);
  cr_expect(memcmp(pay + off, t.p + 123, 16) == 0, "the array's bytes");
  v += 14;
  cr_expect_eq(v[0], WIRE_T_BINARY);
  cr_expect(check_decode(ctx, "spans", pay, pn));
  /* the binaries out of band: copied into the tape */
  wire_ctx_set_option(ctx, WIRE_OPT_OUT_OF_BAND, 1);
  uint8_t *pay2;
  size_t pn2;
  cr_assert_eq(wire_encode_tape(ctx, t.p, t.n, &pay2, &pn2), WIRE_OK);
  size_t nb = wire_ctx_oob_count(ctx);
  cr_assert_geq(nb, 1);
  const uint8_t *bufs[4];
  size_t lens[4];
  for (size_t i = 0; i < nb && i < 4; i++)
    cr_assert_eq(wire_ctx_oob_buffer(ctx, i, &bufs[i], &lens[i]), WIRE_OK);
  cr_assert_eq(wire_ctx_set_oob_buffers(ctx, bufs, lens, nb), WIRE_OK);
  wire_writer_reset(w);
  cr_assert_eq(wire_decode_tape_to(ctx, pay2, pn2, WIRE_TAPE_SPANS, w), WIRE_OK);
  tp = wire_writer_data(w);
  cr_expect_eq(tp[13], WIRE_T_BINARY, "an out-of-band binary is copied");
  cr_expect(check_decode(ctx, "spans, out of band", pay2, pn2));
  wire_ctx_set_oob_buffers(ctx, NULL, NULL, 0);
  /* a tape with a SPAN op does not encode */
  uint8_t *o;
  size_t on;
  wire_writer_reset(w);
  cr_assert_eq(wire_decode_tape_to(ctx, pay, pn, WIRE_TAPE_SPANS, w), WIRE_OK);
  cr_expect_eq(wire_encode_tape(ctx, wire_writer_data(w), wire_writer_size(w),
                                &o, &on), WIRE_E_ARG);
  wire_writer_free(w);
  wire_ctx_free_bytes(ctx, pay);
  wire_ctx_free_bytes(ctx, pay2);
  free(t.p);
  wire_ctx_free(ctx);
}

/* Varints at every length boundary through the flat writers and the fast
 * readers (in a mixed list, a same-type list, map values), and malformed
 * ones in a list: both paths agree. */
Test(format, varint_edges) {
  wire_ctx *ctx = wire_ctx_new();
  static const uint8_t types[] = {WIRE_T_VARINT64, WIRE_T_VAR_UINT64,
                                  WIRE_T_VARINT32, WIRE_T_VAR_UINT32,
                                  WIRE_T_TAGGED_INT64, WIRE_T_TAGGED_UINT64};
  uint64_t vals[200];
  int nv = 0;
  for (int b = 0; b <= 64; b += 7)
    for (int d = -1; d <= 1; d++) {
      uint64_t v = b < 64 ? (UINT64_C(1) << b) : 0;
      vals[nv++] = v + (uint64_t)(int64_t)d;
      vals[nv++] = UINT64_C(0) - (v + (uint64_t)(int64_t)d);
    }
  vals[nv++] = UINT64_MAX;
  vals[nv++] = (uint64_t)INT64_MIN;
  vals[nv++] = UINT64_C(1) << 56;
  vals[nv++] = (UINT64_C(1) << 56) - 1;
  int bad = 0;
  for (size_t k = 0; k < sizeof types; k++) {
    uint8_t t = types[k];
    for (int shape = 0; shape < 3; shape++) {
      tbuf tb = {0};
      tput(&tb, "WT\x01\x00\x01\x00\x00\x00", 8);
      int n = 0;
      for (int i = 0; i < nv; i++) {
        uint64_t v = vals[i];
        if (t == WIRE_T_VARINT32 && (int64_t)v != (int32_t)v) continue;
        if (t == WIRE_T_VAR_UINT32 && v > UINT32_MAX) continue;
        n++;
      }
      t8(&tb, shape == 2 ? WIRE_T_MAP : WIRE_T_LIST);
      t32(&tb, (uint32_t)n);
      for (int i = 0; i < nv; i++) {
        uint64_t v = vals[i];
        if (t == WIRE_T_VARINT32 && (int64_t)v != (int32_t)v) continue;
        if (t == WIRE_T_VAR_UINT32 && v > UINT32_MAX) continue;
        if (shape == 2) { /* string keys */
          char key[8];
          int kl = snprintf(key, sizeof key, "k%d", i);
          t8(&tb, WIRE_T_STRING); t8(&tb, 0xFF); t32(&tb, (uint32_t)kl);
          tput(&tb, key, (size_t)kl);
        }
        /* shape 1: a bool now and then (a mixed list, types written) */
        if (shape == 1 && i % 5 == 0) { t8(&tb, WIRE_T_BOOL); t8(&tb, 1); continue; }
        t8(&tb, t);
        t64(&tb, v);
      }
      char id[64];
      snprintf(id, sizeof id, "varints %s shape %d", wire_type_name(t), shape);
      bad += !check_encode(ctx, id, tb.p, tb.n);
      uint8_t *pay;
      size_t pn;
      cr_assert_eq(wire_encode_tape(ctx, tb.p, tb.n, &pay, &pn), WIRE_OK, "%s", id);
      bad += !check_decode(ctx, id, pay, pn);
      /* the payload with one byte changed anywhere, or cut */
      for (size_t i = 1; i < pn; i += 3) {
        uint8_t keep = pay[i];
        pay[i] = (uint8_t)(keep ^ (i % 2 ? 0x80 : 0xFF));
        bad += !check_decode(ctx, id, pay, pn);
        pay[i] = keep;
      }
      for (size_t cut = 1; cut < pn; cut += 7) bad += !check_decode(ctx, id, pay, cut);
      wire_ctx_free_bytes(ctx, pay);
      free(tb.p);
    }
  }
  /* varints a writer would not write: overlong, nine bytes, too long */
  static const char *const cases[] = {
      "01ff1602080780",                     /* cut inside */
      "01ff160208078000",                   /* overlong 2 bytes */
      "01ff1602080701ffffffffffffffff00",   /* 9-byte form, top byte 0 */
      "01ff1602080701ffffffffffffffff01",   /* 9-byte form */
      "01ff16020805ffffffff0f05",           /* varint32: 5 bytes, fits */
      "01ff16020805ffffffff1f05",           /* varint32: too large */
      "01ff16020805ffffffffff0105",         /* varint32: 6 bytes */
      "01ff1602080c8080808000",             /* var_uint32: overlong 5 */
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    size_t n;
    uint8_t *p = unhex(cases[i], &n);
    bad += !check_decode(ctx, cases[i], p, n);
    free(p);
  }
  cr_assert_eq(bad, 0);
  wire_ctx_free(ctx);
}

/* wire__tape_ascii (tape.h) at every length up to 40 with one byte of
 * 0x80 or above at every position, or none, against a byte loop; the text
 * sits at the end of its buffer so no word reads past lim. */
Test(format, ascii_check_at_every_length) {
  uint8_t buf[64];
  for (size_t n = 0; n <= 40; n++)
    for (size_t hi = 0; hi <= n; hi++) { /* hi == n: all ASCII */
      uint8_t *s = buf + sizeof buf - n;
      for (size_t i = 0; i < n; i++) s[i] = (uint8_t)('a' + i % 26);
      if (hi < n) s[hi] = (uint8_t)(0x80 | hi);
      bool want = hi == n;
      cr_assert_eq(wire__tape_ascii(s, n, buf + sizeof buf), want,
                   "n %zu, high byte at %zu", n, hi);
      cr_assert_eq(wire__tape_ascii(s, n, s + n + 64 > buf + sizeof buf
                                              ? buf + sizeof buf : s + n),
                   want);
    }
}

/* Lists of a JVM's Latin-1 strings (encoding 0x80): the index pass's run
 * of them and the writer's loop for a list made only of them (R_FL1), and
 * the decoder's run of short Latin-1 strings (fc_latin1_run) on the
 * payloads. Lists of 1..6 strings of 0..40 bytes (short ones copied in 16
 * bytes, so some end within 16 bytes of the tape or payload end), one
 * element at times replaced by a string in another encoding (0x81, 0,
 * 0xFF), a null, an int or a nested list, so that runs end and start
 * again; then each tape cut at every length and its length words made too
 * large. Every result against the document path (encode) and the
 * document decoder (decode, also with spans); lists of the fast decoder's
 * strings also under a binary limit below 16 and a node limit. */
static void jvm_list(tbuf *t, uint64_t seed, int odd, int at, int tail) {
  tput(t, "WT\x02\x00", 4);
  t32(t, tail ? 2 : 1);
  uint32_t n = 1 + (uint32_t)(seed % 6);
  t8(t, WIRE_T_LIST);
  t32(t, n);
  for (uint32_t i = 0; i < n; i++) {
    uint32_t len = (uint32_t)((seed >> (4 * (i % 8))) * 7 + i * 13) % 41;
    if ((int)i == at && odd) {
      switch (odd) {
      case 1: t8(t, WIRE_T_STRING); t8(t, 0x81); t32(t, 4); tput(t, "a\0\x01\x30", 4); continue;
      case 2: t8(t, WIRE_T_STRING); t8(t, 0); t32(t, 3); tput(t, "x\xe9y", 3); continue;
      case 3: t8(t, WIRE_T_STRING); t8(t, 0xFF); t32(t, 2); tput(t, "\xc3\xa9", 2); continue;
      case 4: t8(t, TAPE_NULL); continue;
      case 5: t8(t, WIRE_T_VARINT64); t64(t, 12345); continue;
      default: t8(t, WIRE_T_LIST); t32(t, 1); t8(t, WIRE_T_STRING); t8(t, 0x80); t32(t, 1); t8(t, 'z'); continue;
      }
    }
    t8(t, WIRE_T_STRING);
    t8(t, 0x80);
    t32(t, len);
    for (uint32_t k = 0; k < len; k++) t8(t, (uint8_t)(k * 37 + i + 0x41 + (k & 1) * 0x80));
  }
  if (tail) { t8(t, WIRE_T_BOOL); t8(t, 1); }
}

Test(format, jvm_latin1_string_lists) {
  wire_ctx *ctx = wire_ctx_new();
  int bad = 0, cases = 0;
  for (uint64_t seed = 0; seed < 240; seed++)
    for (int odd = 0; odd <= 6; odd++)
      for (int tail = 0; tail <= 1; tail++) {
        tbuf t = {NULL, 0, 0};
        int at = (int)(seed % 7);
        jvm_list(&t, seed * 0x9E3779B97F4A7C15ull >> 20, odd, at, tail);
        char id[64];
        snprintf(id, sizeof id, "jvm list %llu/%d/%d", (unsigned long long)seed, odd, tail);
        bad += !check_encode(ctx, id, t.p, t.n);
        cases++;
        uint8_t *out;
        size_t n;
        if (wire_encode_tape(ctx, t.p, t.n, &out, &n) == WIRE_OK) {
          bad += !check_decode(ctx, id, out, n);
          /* payloads cut short, the decoder's run reading to the end */
          for (size_t cut = n > 24 ? n - 24 : 0; cut < n; cut++)
            bad += !check_decode(ctx, id, out, cut);
          if (seed % 16 == 0) {
            uint64_t bin = wire_ctx_get_limit(ctx, WIRE_LIMIT_BINARY);
            wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, 7);
            bad += !check_decode(ctx, id, out, n);
            wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, bin);
            uint64_t nodes = wire_ctx_get_limit(ctx, WIRE_LIMIT_NODES);
            wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 3);
            bad += !check_decode(ctx, id, out, n);
            wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, nodes);
          }
          wire_ctx_free_bytes(ctx, out);
        }
        if (seed % 8 == 0) {
          /* every cut of the tape, and each length word too large */
          for (size_t cut = 8; cut < t.n; cut++) bad += !check_encode(ctx, id, t.p, cut);
          for (size_t k = 13; k + 6 <= t.n; k++)
            if (t.p[k] == WIRE_T_STRING && t.p[k + 1] == 0x80) {
              uint32_t len;
              memcpy(&len, t.p + k + 2, 4);
              uint32_t big = (uint32_t)(t.n - k - 6 + 1);
              memcpy(t.p + k + 2, &big, 4);
              bad += !check_encode(ctx, id, t.p, t.n);
              memcpy(t.p + k + 2, &len, 4);
            }
        }
        free(t.p);
      }
  cr_log_info("%d lists", cases);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
  wire_ctx_free(ctx);
}

/* ---- L1_LIST: a JVM's list of Latin-1 strings as their wire bytes ------- */

/* One list of n strings (lengths from seed, 0..40 bytes and, for some, 40
 * past the one-byte header's 31) in the two spellings: `ref` as STRING ops
 * of encoding 0x80, `l1` as one L1_LIST. `wrap` puts the list inside a
 * list with other values and a REF to it after it. */
static void l1_pair(tbuf *ref, tbuf *l1, uint64_t seed, uint32_t n, int wrap) {
  tbuf *both[2] = {ref, l1};
  for (int w = 0; w < 2; w++) {
    tbuf *t = both[w];
    tput(t, "WT\x02\x00", 4);
    t32(t, 1);
    if (wrap) { t8(t, WIRE_T_LIST); t32(t, 4); t8(t, WIRE_T_VARINT64); t64(t, 7); }
    uint8_t *sizeat = NULL;
    size_t size0 = 0;
    if (w == 0) { t8(t, WIRE_T_LIST); t32(t, n); }
    else { t8(t, TAPE_L1_LIST); t32(t, n); t32(t, 0); size0 = t->n; }
    for (uint32_t i = 0; i < n; i++) {
      uint32_t len = (uint32_t)((seed >> (4 * (i % 8))) * 7 + i * 13) % 41;
      if ((seed + i) % 5 == 0) len += 40;
      if (w == 0) { t8(t, WIRE_T_STRING); t8(t, 0x80); t32(t, len); }
      else {
        uint32_t h = len << 2;
        while (h >= 0x80) { t8(t, (uint8_t)(h | 0x80)); h >>= 7; }
        t8(t, (uint8_t)h);
      }
      for (uint32_t k = 0; k < len; k++) t8(t, (uint8_t)(k * 37 + i + 0x41 + (k & 1) * 0x80));
    }
    if (w == 1) { sizeat = t->p + size0 - 4; uint32_t sz = (uint32_t)(t->n - size0); memcpy(sizeat, &sz, 4); }
    if (wrap) { t8(t, TAPE_REF); t32(t, 1); t8(t, WIRE_T_BOOL); t8(t, 0); }
  }
}

/* The same bytes as the STRING ops, by both encode paths, plain and under
 * reference tracking (element flags), at the root and inside a list with
 * a REF to it. */
Test(format, l1_list_same_bytes) {
  wire_ctx *ctx = wire_ctx_new();
  int bad = 0, cases = 0;
  for (int track = 0; track <= 1; track++) {
    wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, track);
    for (uint64_t seed = 0; seed < 200; seed++)
      for (int wrap = 0; wrap <= 1; wrap++) {
        tbuf a = {NULL, 0, 0}, b = {NULL, 0, 0};
        uint32_t n = 1 + (uint32_t)(seed % 9) + (seed % 50 == 0 ? 300 : 0);
        l1_pair(&a, &b, seed * 0x9E3779B97F4A7C15ull >> 17, n, wrap);
        char id[64];
        snprintf(id, sizeof id, "l1 list %llu/%d/%d", (unsigned long long)seed, wrap, track);
        result x = enc_direct(ctx, a.p, a.n), y = enc_direct(ctx, b.p, b.n);
        bad += !same("L1_LIST against STRING ops", id, &x, &y);
        bad += !check_encode(ctx, id, b.p, b.n);
        result_free(ctx, &x);
        result_free(ctx, &y);
        free(a.p);
        free(b.p);
        cases++;
      }
  }
  cr_log_info("%d lists", cases);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
  wire_ctx_free(ctx);
}

/* Broken L1_LISTs fail with WIRE_E_ARG at the op (or TRUNCATED), the
 * same by both paths: every cut, every byte of a list changed, and the
 * framing broken on purpose (another encoding's header, a header not in
 * its shortest form, a length past the bytes, the count or size off by
 * one, no strings). */
Test(hostile, l1_list) {
  wire_ctx *ctx = wire_ctx_new();
  int bad = 0;
  for (uint64_t seed = 0; seed < 24; seed++) {
    tbuf a = {NULL, 0, 0}, b = {NULL, 0, 0};
    l1_pair(&a, &b, seed * 0x9E3779B97F4A7C15ull >> 17, 1 + (uint32_t)(seed % 4), (int)(seed & 1));
    char id[64];
    snprintf(id, sizeof id, "l1 hostile %llu", (unsigned long long)seed);
    for (size_t cut = 8; cut < b.n; cut++) bad += !check_encode(ctx, id, b.p, cut);
    for (size_t k = 8; k < b.n; k++)
      for (int v = 0; v < 4; v++) {
        uint8_t old = b.p[k];
        b.p[k] = (uint8_t)(v == 0 ? old ^ 1 : v == 1 ? old ^ 0x80 : v == 2 ? old + 1 : 0);
        bad += !check_encode(ctx, id, b.p, b.n);
        b.p[k] = old;
      }
    free(a.p);
    free(b.p);
  }
  /* hand-made: {op, count, size, bytes} */
  char id[64];
  static const struct { uint32_t cnt; const char *bytes; size_t n; } cases[] = {
    {1, "\x0c" "abc", 4},          /* ok: "abc" */
    {1, "\x0d" "abc", 4},          /* UTF-16 header */
    {1, "\x0e" "abc", 4},          /* UTF-8 header */
    {1, "\x8c\x00" "abc", 5},      /* header not in its shortest form */
    {1, "\x10" "abc", 4},          /* length 4, 3 bytes */
    {2, "\x0c" "abc", 4},          /* count past the bytes */
    {1, "\x0c" "abcd", 5},         /* a byte after the strings */
    {0, "", 0},                    /* no strings */
    {1, "\x80\x80\x80\x80\x10", 5}, /* a five-byte header, length past the end */
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    tbuf t = {NULL, 0, 0};
    tput(&t, "WT\x02\x00", 4);
    t32(&t, 1);
    t8(&t, TAPE_L1_LIST);
    t32(&t, cases[c].cnt);
    t32(&t, (uint32_t)cases[c].n);
    tput(&t, cases[c].bytes, cases[c].n);
    result r = enc_direct(ctx, t.p, t.n);
    int32_t want = c == 0 ? WIRE_OK : WIRE_E_ARG;
    if (r.st != want) {
      cr_log_error("case %zu: %s, expected %s", c, wire_status_name(r.st), wire_status_name(want));
      bad++;
    } else if (want && r.off != 8) {
      cr_log_error("case %zu: error at %llu, expected 8 (the op)", c,
                   (unsigned long long)r.off);
      bad++;
    }
    snprintf(id, sizeof id, "l1 hand-made %zu", c);
    bad += !check_encode(ctx, id, t.p, t.n);
    result_free(ctx, &r);
    free(t.p);
  }
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
  wire_ctx_free(ctx);
}
