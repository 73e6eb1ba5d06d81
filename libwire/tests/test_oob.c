/* test_oob.c - out-of-band buffers (spec/01-primitives.md 1.12, R-OOB-*)
 * through the C API: the buffer list on the context, the marker before
 * binaries and dense arrays in a root with header 03 (Java's rule, pyfory's
 * and Go's), recorded bands and root headers, fresh encodes under
 * WIRE_OPT_OUT_OF_BAND, the tape codecs, the notation, and the errors. The
 * byte strings are Fory Java 1.6.0's, pyfory 1.7.7's and Fory Go 1.6.1's
 * (serialize with a buffer callback). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "test_hex.h"

static wire_ctx *ctx;

static void setup(void) {
  ctx = wire_ctx_new();
  cr_assert(ctx);
}
static void teardown(void) { wire_ctx_free(ctx); }

TestSuite(oob, .init = setup, .fini = teardown);

/* Up to 8 buffers given as hex. */
typedef struct {
  uint8_t *data[8];
  size_t lens[8];
  size_t n;
} bufs;

static void set_bufs(bufs *b, const char *const *hex) {
  memset(b, 0, sizeof *b);
  for (; hex && *hex; hex++) {
    b->data[b->n] = unhex(*hex, &b->lens[b->n]);
    b->n++;
  }
  cr_assert_eq(wire_ctx_set_oob_buffers(ctx, (const uint8_t *const *)b->data,
                                        b->lens, b->n),
               WIRE_OK);
}

static void free_bufs(bufs *b) {
  for (size_t i = 0; i < b->n; i++) free(b->data[i]);
}

static wire_doc *decode_ok(const char *hex, uint8_t **keep) {
  size_t n;
  *keep = unhex(hex, &n);
  wire_doc *doc;
  cr_assert_eq(wire_decode(ctx, *keep, n, &doc), WIRE_OK, "%s: %s", hex,
               wire_ctx_error_message(ctx));
  return doc;
}

/* decode with the buffers, encode: the same payload, and the same buffers
 * (pointing at the given ones: no copy). */
static void roundtrip(const char *hex, const char *const *buffers) {
  bufs b;
  set_bufs(&b, buffers);
  uint8_t *in;
  wire_doc *doc = decode_ok(hex, &in);
  cr_assert_eq(wire_ctx_oob_used(ctx), b.n);
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_encode(ctx, doc, &out, &len), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  char *got = tohex(out, len);
  cr_assert_str_eq(got, hex);
  cr_assert_eq(wire_ctx_oob_count(ctx), b.n);
  for (size_t i = 0; i < b.n; i++) {
    const uint8_t *p;
    size_t l;
    cr_assert_eq(wire_ctx_oob_buffer(ctx, i, &p, &l), WIRE_OK);
    cr_assert_eq(l, b.lens[i]);
    if (l) cr_assert_eq(p, b.data[i], "buffer %zu is copied", i);
  }
  free(got);
  wire_ctx_free_bytes(ctx, out);
  wire_doc_free(doc);
  free(in);
  free_bufs(&b);
}

static void fails(const char *hex, const char *const *buffers, int32_t code,
                  uint64_t offset) {
  bufs b;
  set_bufs(&b, buffers);
  size_t n;
  uint8_t *in = unhex(hex, &n);
  wire_doc *doc = NULL;
  int32_t st = wire_decode(ctx, in, n, &doc);
  cr_assert_eq(st, code, "%s: %s (%s)", hex, wire_status_name(st),
               wire_ctx_error_message(ctx));
  cr_assert_eq(wire_ctx_error_offset(ctx), offset, "%s: offset %llu", hex,
               (unsigned long long)wire_ctx_error_offset(ctx));
  cr_assert_null(doc);
  free(in);
  free_bufs(&b);
}

/* Fory Java 1.6.0: every binary and dense array body carries the marker. */
Test(oob, java_binaries_and_arrays_both_bands) {
  roundtrip("03ff2900", (const char *const[]){"010203", NULL});
  roundtrip("03ff290103010203", NULL);
  roundtrip("03ff2e00", (const char *const[]){"01000000ffffffff", NULL});
  roundtrip("03ff2e010801000000ffffffff", NULL);
  roundtrip("03ff2b00", (const char *const[]){"01", NULL});
  roundtrip("03ff3801080000000000000040", NULL);
  roundtrip("03ff290100", NULL);                   /* empty, in band */
  roundtrip("03ff2900", (const char *const[]){"", NULL}); /* empty buffer */
  /* a list of two byte[] (same-type header 08, element type binary) */
  roundtrip("03ff160208290000", (const char *const[]){"09", "08", NULL});
  roundtrip("03ff16020829010109010108", NULL);
}

Test(oob, decoded_values_point_into_the_buffers) {
  bufs b;
  set_bufs(&b, (const char *const[]){"01000000ffffffff", NULL});
  uint8_t *in;
  wire_doc *doc = decode_ok("03ff2e00", &in);
  wire_node *r = wire_doc_root(doc, 0);
  cr_assert_eq(wire_node_type(r), WIRE_T_INT32_ARRAY);
  size_t len;
  cr_assert_eq(wire_node_bytes(r, &len), b.data[0]);
  cr_assert_eq(len, 8);
  cr_assert_eq(wire_node_band(r), WIRE_BAND_OUT);
  cr_assert_eq(wire_doc_root_oob(doc, 0), 1);
  cr_assert_eq(wire_node_count(r), 2);
  wire_doc_free(doc);
  free(in);
  free_bufs(&b);
}

/* The buffer list runs across roots; a header-01 root carries no marker. */
Test(oob, buffers_run_across_roots) {
  roundtrip("03ff2900" "01ff290161" "03ff2900",
            (const char *const[]){"aa", "bb", NULL});
  bufs b;
  set_bufs(&b, (const char *const[]){"aa", "bb", NULL});
  uint8_t *in;
  wire_doc *doc = decode_ok("03ff2900" "01ff290161" "03ff2900", &in);
  cr_assert_eq(wire_doc_root_oob(doc, 1), 0);
  cr_assert_eq(wire_node_band(wire_doc_root(doc, 1)), WIRE_BAND_POLICY);
  size_t len;
  const uint8_t *p = wire_node_bytes(wire_doc_root(doc, 2), &len);
  cr_assert_eq(p, b.data[1]);
  wire_doc_free(doc);
  free(in);
  free_bufs(&b);
}

/* pyfory 1.7.7 marks binaries only: its dense arrays keep the plain form
 * (errata E-48); Fory Go 1.6.1 marks nothing. */
Test(oob, peer_rules) {
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_PYFORY);
  roundtrip("03ff16030029002900070a", (const char *const[]){"6162", "6364", NULL});
  roundtrip("03ff2e080100000002000000", NULL);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_GO);
  roundtrip("03ff2903010203", NULL);
  roundtrip("03ff2e0801000000ffffffff", NULL);
  /* Java's bytes read as Go's: the marker is taken for the length */
  fails("03ff290103010203", NULL, WIRE_E_REF, 6);
}

Test(oob, errors) {
  /* a marker other than 00 / 01 */
  fails("03ff2902", NULL, WIRE_E_VALUE, 3);
  /* out of band with no buffer left */
  fails("03ff2900", NULL, WIRE_E_TRUNCATED, 3);
  fails("03ff160208290000", (const char *const[]){"09", NULL},
        WIRE_E_TRUNCATED, 7);
  /* a buffer that does not fit the element width, a bool byte 2 */
  fails("03ff2e00", (const char *const[]){"010203", NULL}, WIRE_E_LENGTH, 3);
  fails("03ff2b00", (const char *const[]){"0102", NULL}, WIRE_E_VALUE, 3);
  /* over the binary limit */
  wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, 2);
  fails("03ff2900", (const char *const[]){"010203", NULL}, WIRE_E_LIMIT, 3);
  wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, 1u << 30);
  /* in band, the usual checks after the marker */
  fails("03ff2e0103010203", NULL, WIRE_E_LENGTH, 4);
  fails("03ff2901", NULL, WIRE_E_TRUNCATED, 4);
  /* the marker is missing */
  fails("03ff29", NULL, WIRE_E_TRUNCATED, 3);
  /* reserved header bits, and bit 1 without the xlang bit */
  fails("07ff2900", NULL, WIRE_E_HEADER, 0);
  fails("02ff2900", NULL, WIRE_E_HEADER, 0);
}

/* Every decode starts again at buffer 0, and the buffers stay set. */
Test(oob, each_decode_starts_at_buffer_zero) {
  bufs b;
  set_bufs(&b, (const char *const[]){"aa", NULL});
  for (int i = 0; i < 3; i++) {
    uint8_t *in;
    wire_doc *doc = decode_ok("03ff2900", &in);
    cr_assert_eq(wire_ctx_oob_used(ctx), 1);
    wire_doc_free(doc);
    free(in);
  }
  cr_assert_eq(wire_ctx_set_oob_buffers(ctx, NULL, NULL, 0), WIRE_OK);
  fails("03ff2900", NULL, WIRE_E_TRUNCATED, 3);
  free_bufs(&b);
}

Test(oob, arguments) {
  const uint8_t *p[1] = {NULL};
  size_t l[1] = {3};
  cr_assert_eq(wire_ctx_set_oob_buffers(ctx, p, l, 1), WIRE_E_ARG);
  cr_assert_eq(wire_ctx_set_oob_buffers(ctx, NULL, l, 1), WIRE_E_ARG);
  cr_assert_eq(wire_ctx_set_oob_buffers(NULL, NULL, NULL, 0), WIRE_E_ARG);
  l[0] = 0;
  cr_assert_eq(wire_ctx_set_oob_buffers(ctx, p, l, 1), WIRE_OK);
  const uint8_t *q;
  size_t ql;
  cr_assert_eq(wire_ctx_oob_buffer(ctx, 0, &q, &ql), WIRE_E_ARG);
  cr_assert_eq(wire_ctx_oob_count(NULL), 0);
  cr_assert_eq(wire_ctx_oob_used(NULL), 0);
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_OOB_MIN_BYTES, -1), WIRE_E_ARG);
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *s = wire_node_new_string(doc, (const uint8_t *)"x", 1, -1);
  cr_assert_eq(wire_node_set_band(s, WIRE_BAND_OUT), WIRE_E_ARG);
  cr_assert_eq(wire_node_band(s), WIRE_BAND_POLICY);
  wire_node *bin = wire_node_new_binary(doc, (const uint8_t *)"x", 1);
  cr_assert_eq(wire_node_set_band(bin, 2), WIRE_E_ARG);
  cr_assert_eq(wire_doc_set_root_oob(doc, 0, 1), WIRE_E_ARG);
  cr_assert_eq(wire_doc_root_oob(doc, 0), -1);
  wire_doc_free(doc);
}

static char *encode_hex(wire_doc *doc) {
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_encode(ctx, doc, &out, &len), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  char *h = tohex(out, len);
  wire_ctx_free_bytes(ctx, out);
  return h;
}

/* Fresh values: WIRE_OPT_OUT_OF_BAND sends every body of at least
 * WIRE_OPT_OOB_MIN_BYTES bytes out of band; recorded bands win. */
Test(oob, fresh_values_follow_the_options) {
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  wire_node *big = wire_node_new_binary(doc, (const uint8_t *)"abcd", 4);
  wire_node *small = wire_node_new_binary(doc, (const uint8_t *)"a", 1);
  wire_node *arr = wire_node_new_array(doc, WIRE_T_INT16_ARRAY,
                                       (const uint8_t *)"\x01\x00", 2);
  wire_list_append(doc, l, big);
  wire_list_append(doc, l, small);
  wire_list_append(doc, l, arr);
  wire_doc_add_root(doc, l);
  char *h = encode_hex(doc);
  cr_assert_str_eq(h, "01ff160300290461626364290161" "2d020100");
  cr_assert_eq(wire_ctx_oob_count(ctx), 0);
  free(h);
  wire_ctx_set_option(ctx, WIRE_OPT_OUT_OF_BAND, 1);
  h = encode_hex(doc);
  cr_assert_str_eq(h, "03ff16030029002900" "2d00");
  cr_assert_eq(wire_ctx_oob_count(ctx), 3);
  free(h);
  wire_ctx_set_option(ctx, WIRE_OPT_OOB_MIN_BYTES, 2);
  h = encode_hex(doc);
  cr_assert_str_eq(h, "03ff1603002900290101" "61" "2d00");
  cr_assert_eq(wire_ctx_oob_count(ctx), 2);
  const uint8_t *p;
  size_t len;
  cr_assert_eq(wire_ctx_oob_buffer(ctx, 1, &p, &len), WIRE_OK);
  cr_assert_eq(len, 2);
  cr_assert(memcmp(p, "\x01\x00", 2) == 0);
  free(h);
  /* a recorded band, and pyfory's rule for the array */
  cr_assert_eq(wire_node_set_band(big, WIRE_BAND_IN), WIRE_OK);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, WIRE_PEER_PYFORY);
  h = encode_hex(doc);
  cr_assert_str_eq(h, "03ff1603002901046162636429010161" "2d020100");
  cr_assert_eq(wire_ctx_oob_count(ctx), 0);
  free(h);
  /* the option off, the root recorded as out-of-band */
  wire_ctx_set_option(ctx, WIRE_OPT_OUT_OF_BAND, 0);
  h = encode_hex(doc);
  cr_assert_str_eq(h, "01ff160300290461626364290161" "2d020100");
  free(h);
  cr_assert_eq(wire_doc_set_root_oob(doc, 0, 1), WIRE_OK);
  cr_assert_eq(wire_doc_root_oob(doc, 0), 1);
  h = encode_hex(doc);
  cr_assert_str_eq(h, "03ff1603002901046162636429010161" "2d020100");
  free(h);
  /* a failed encode leaves no buffers */
  wire_node *again = wire_node_new_binary(doc, (const uint8_t *)"zz", 2);
  wire_node_set_band(again, WIRE_BAND_OUT);
  wire_list_append(doc, l, again);
  wire_list_append(doc, l, wire_node_new_null(doc));
  wire_list_set_header(l, 0); /* no has-null bit: the null cannot go */
  uint8_t *out;
  cr_assert_neq(wire_encode(ctx, doc, &out, &len), WIRE_OK);
  cr_assert_eq(wire_ctx_oob_count(ctx), 0);
  wire_doc_free(doc);
}

/* The notation records the root header ("oob") and the bands. */
Test(oob, notation) {
  bufs b;
  set_bufs(&b, (const char *const[]){"09", NULL});
  uint8_t *in;
  wire_doc *doc = decode_ok("03ff16020829000101" "08", &in);
  uint8_t *text;
  size_t tl;
  cr_assert_eq(wire_notation_print(ctx, doc, wire_doc_root(doc, 0), 0, &text,
                                   &tl), WIRE_OK);
  cr_assert_str_eq((char *)text, "{\"list\":[{\"binary\":\"09\",\"band\":"
                   "\"out\"},{\"binary\":\"08\",\"band\":\"in\"}],"
                   "\"header\":8,\"oob\":true}");
  wire_doc *d2 = wire_doc_new(ctx);
  wire_node *n;
  size_t used;
  cr_assert_eq(wire_notation_parse(ctx, d2, (char *)text, tl, 0, &n, &used),
               WIRE_OK, "%s", wire_ctx_error_message(ctx));
  wire_doc_add_root(d2, n);
  char *h = encode_hex(d2);
  cr_assert_str_eq(h, "03ff16020829000101" "08");
  free(h);
  wire_ctx_free_bytes(ctx, text);
  static const char *const bad[] = {
      "{\"list\":[{\"binary\":\"09\",\"oob\":true}]}",
      "{\"string\":\"x\",\"band\":\"out\"}",
      "{\"binary\":\"09\",\"band\":\"sideways\"}",
      "{\"binary\":\"09\",\"oob\":1}", NULL};
  for (int i = 0; bad[i]; i++)
    cr_assert_eq(wire_notation_parse(ctx, d2, bad[i], strlen(bad[i]), 0, &n,
                                     &used),
                 WIRE_E_NOTATION, "%s", bad[i]);
  wire_doc_free(d2);
  wire_doc_free(doc);
  free(in);
  free_bufs(&b);
}

/* The tape codecs: decoding reads the buffers, encoding writes them under
 * WIRE_OPT_OUT_OF_BAND (pointing into the tape). */
Test(oob, tapes) {
  bufs b;
  set_bufs(&b, (const char *const[]){"09", "08", NULL});
  size_t n;
  uint8_t *in = unhex("03ff160208290000", &n);
  uint8_t *tape;
  size_t tl;
  cr_assert_eq(wire_decode_tape(ctx, in, n, &tape, &tl), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  cr_assert_eq(wire_ctx_oob_used(ctx), 2);
  uint8_t *out;
  size_t ol;
  cr_assert_eq(wire_encode_tape(ctx, tape, tl, &out, &ol), WIRE_OK);
  char *h = tohex(out, ol);
  cr_assert_str_eq(h, "01ff1602082901090108"); /* option off: in band */
  free(h);
  wire_ctx_free_bytes(ctx, out);
  wire_ctx_set_option(ctx, WIRE_OPT_OUT_OF_BAND, 1);
  cr_assert_eq(wire_encode_tape(ctx, tape, tl, &out, &ol), WIRE_OK);
  h = tohex(out, ol);
  cr_assert_str_eq(h, "03ff160208290000");
  cr_assert_eq(wire_ctx_oob_count(ctx), 2);
  const uint8_t *p;
  size_t len;
  cr_assert_eq(wire_ctx_oob_buffer(ctx, 1, &p, &len), WIRE_OK);
  cr_assert_eq(len, 1);
  cr_assert_eq(p[0], 0x08);
  cr_assert(p > tape && p < tape + tl, "points into the tape");
  free(h);
  wire_ctx_free_bytes(ctx, out);
  wire_ctx_free_bytes(ctx, tape);
  free(in);
  free_bufs(&b);
}

/* Struct fields of binary and array type: the encoder's field fast paths
 * give way to the marker in a root with header 03 (Java's rule). */
Test(oob, struct_fields) {
  static const char fdl[] = "package t;\nmessage B [id = 100] {\n"
                            "  array<int32> ints = 1;\n  bytes data = 2;\n"
                            "  int32 n = 3;\n}\n";
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "t.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  wire_ctx_set_option(ctx, WIRE_OPT_OUT_OF_BAND, 1);
  static const char text[] = "{\"struct\": {\"type\": \"t.B\", \"fields\": {"
                             "\"ints\": {\"int32_array\": [\"1\", \"-1\"]}, "
                             "\"data\": {\"binary\": \"6162\"}, "
                             "\"n\": {\"varint32\": \"3\"}}}}";
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *n;
  size_t used;
  cr_assert_eq(wire_notation_parse(ctx, doc, text, strlen(text), 0, &n, &used),
               WIRE_OK, "%s", wire_ctx_error_message(ctx));
  wire_doc_add_root(doc, n);
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_encode(ctx, doc, &out, &len), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  cr_assert_eq(out[0], 0x03);
  cr_assert_eq(wire_ctx_oob_count(ctx), 2);
  /* the payload ends with the two markers (wire order: n, data, ints) */
  char *h = tohex(out, len);
  cr_assert(strstr(h, "060000") != NULL, "%s", h);
  const uint8_t *bp[2];
  size_t bl[2];
  for (size_t i = 0; i < 2; i++) wire_ctx_oob_buffer(ctx, i, &bp[i], &bl[i]);
  cr_assert_eq(bl[0] + bl[1], 10);
  /* read back with those buffers, written again in band */
  cr_assert_eq(wire_ctx_set_oob_buffers(ctx, bp, bl, 2), WIRE_OK);
  wire_doc *back;
  cr_assert_eq(wire_decode(ctx, out, len, &back), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  for (size_t i = 0; i < 3; i++)
    wire_node_set_band(wire_node_field(wire_doc_root(back, 0), i), WIRE_BAND_IN);
  uint8_t *out2;
  size_t len2;
  cr_assert_eq(wire_encode(ctx, back, &out2, &len2), WIRE_OK);
  cr_assert_eq(len2, len + 2 + 10, "in band: marker 01, a length byte and "
               "the bytes per body");
  cr_assert_eq(wire_ctx_oob_count(ctx), 0);
  free(h);
  wire_ctx_free_bytes(ctx, out2);
  wire_ctx_free_bytes(ctx, out);
  wire_doc_free(back);
  wire_doc_free(doc);
}
