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

/* ---- helpers ------------------------------------------------------------ */

static uint8_t *unhex(const char *h, size_t *len) {
  size_t n = strlen(h);
  uint8_t *out = malloc(n / 2 + 1);
  cr_assert_not_null(out);
  for (size_t i = 0; i < n / 2; i++) {
    unsigned v;
    cr_assert_eq(sscanf(h + 2 * i, "%2x", &v), 1);
    out[i] = (uint8_t)v;
  }
  *len = n / 2;
  return out;
}

static char *hex(const uint8_t *p, size_t n) {
  size_t m = n > 200 ? 200 : n;
  char *s = malloc(2 * m + 4);
  for (size_t i = 0; i < m; i++) sprintf(s + 2 * i, "%02x", p[i]);
  strcpy(s + 2 * m, n > m ? "..." : "");
  return s;
}

/* A context for a fixture test: its options and schemas. */
static wire_ctx *fixture_ctx(const json_t *t) {
  wire_ctx *ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
  const json_t *cfg = json_object_get(t, "config");
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING,
                      json_is_true(json_object_get(cfg, "ref")));
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE,
                      json_is_true(json_object_get(cfg, "compatible")));
  size_t i;
  const json_t *s;
  json_array_foreach(json_object_get(t, "schemas"), i, s) {
    int32_t st = wire_schema_load_fdl_file(ctx, json_string_value(s));
    cr_assert_eq(st, WIRE_OK, "%s: %s", json_string_value(s),
                 wire_ctx_error_message(ctx));
  }
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
            wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, WIRE_STRING_JAVA);
          }
          result_free(ctx, &a);
          free(b.p);
        }
      }
      free(bytes);
      wire_writer_free(w);
      wire_ctx_free(ctx);
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
