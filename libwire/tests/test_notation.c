/* test_notation.c - the value notation of the library (wire_notation_*):
 * printing (one buffer and chunked), parsing (errors with byte offsets,
 * JSON edge cases, anchors, TypeDef numbers), re-fitting edited wire
 * choices, plain JSON both ways, fingerprints and inferred FDL. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "test_hex.h"

static wire_ctx *ctx;
static wire_doc *doc;

static void setup(void) {
  ctx = wire_ctx_new();
  doc = wire_doc_new(ctx);
  cr_assert(ctx && doc);
}
static void teardown(void) {
  wire_doc_free(doc);
  wire_ctx_free(ctx);
}
TestSuite(notation, .init = setup, .fini = teardown);
TestSuite(plain, .init = setup, .fini = teardown);

/* text -> one root -> payload hex */
static char *encode_text(const char *text, uint32_t flags, int32_t *st) {
  wire_node *n;
  size_t used;
  *st = wire_notation_parse(ctx, doc, text, strlen(text), flags, &n, &used);
  if (*st) return NULL;
  cr_assert_eq(wire_doc_add_root(doc, n), WIRE_OK);
  uint8_t *out;
  size_t olen;
  *st = wire_encode(ctx, doc, &out, &olen);
  if (*st) return NULL;
  char *h = tohex(out, olen);
  wire_ctx_free_bytes(ctx, out);
  return h;
}

/* payload hex -> notation of root 0 */
static char *print_hex(const char *hx, uint32_t flags) {
  size_t n;
  uint8_t *b = unhex(hx, &n);
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  uint8_t *text;
  size_t len;
  cr_assert_eq(wire_notation_print(ctx, d, wire_doc_root(d, 0), flags, &text, &len), WIRE_OK);
  cr_assert_eq(strlen((char *)text), len);
  char *r = strdup((char *)text);
  wire_ctx_free_bytes(ctx, text);
  wire_doc_free(d);
  free(b);
  return r;
}

Test(notation, prints_what_the_cli_printed) {
  char *s = print_hex("01ff160302ff0702ff150461fd", 0);
  cr_assert_str_eq(s, "{\"list\":[{\"varint64\":\"1\"},{\"string\":\"a\",\"enc\":"
                      "\"latin1\"},{\"null\":null}],\"header\":2}");
  free(s);
  s = print_hex("01ff151a61c3a9e697a5", 0); /* non-ASCII as \u escapes */
  cr_assert_str_eq(s, "{\"string\":\"a\\u00e9\\u65e5\",\"enc\":\"utf8\"}");
  free(s);
  s = print_hex("01ff15113dd800de", 0); /* a surrogate pair */
  cr_assert_str_eq(s, "{\"string\":\"\\ud83d\\ude00\",\"enc\":\"utf16\"}");
  free(s);
  s = print_hex("01ff2794a802", 0);
  cr_assert_str_eq(s, "{\"date\":\"18954\",\"iso\":\"2021-11-23\"}");
  free(s);
}

Test(notation, pretty_indents_like_jansson) {
  char *s = print_hex("01ff160208070204", WIRE_NOTATION_PRETTY);
  cr_assert_str_eq(s, "{\n  \"list\": [\n    {\n      \"varint64\": \"1\"\n    },\n"
                      "    {\n      \"varint64\": \"2\"\n    }\n  ],\n  \"header\": 8\n}");
  free(s);
  s = print_hex("01ff1600", WIRE_NOTATION_PRETTY);
  cr_assert_str_eq(s, "{\n  \"list\": []\n}");
  free(s);
}

typedef struct {
  size_t calls, bytes, max_chunk, stop_after;
} sink;

static int32_t count(void *user, const char *text, size_t len) {
  sink *k = user;
  (void)text;
  k->calls++;
  k->bytes += len;
  if (len > k->max_chunk) k->max_chunk = len;
  return k->stop_after && k->calls >= k->stop_after;
}

Test(notation, write_streams_in_chunks_and_can_be_stopped) {
  /* a list of 20000 strings: far more text than one chunk */
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  for (int i = 0; i < 20000; i++)
    wire_list_append(doc, l, wire_node_new_string(doc, (const uint8_t *)"abc", 3, -1));
  sink k = {0, 0, 0, 0};
  cr_assert_eq(wire_notation_write(ctx, doc, l, 0, count, &k), WIRE_OK);
  cr_assert_gt(k.calls, 10);
  cr_assert_leq(k.max_chunk, 4096);
  uint8_t *text;
  size_t len;
  cr_assert_eq(wire_notation_print(ctx, doc, l, 0, &text, &len), WIRE_OK);
  cr_assert_eq(len, k.bytes);
  wire_ctx_free_bytes(ctx, text);
  sink stop = {0, 0, 0, 2};
  cr_assert_eq(wire_notation_write(ctx, doc, l, 0, count, &stop), WIRE_E_STATE);
  cr_assert_eq(stop.calls, 2);
}

Test(notation, parses_sequences_and_reports_offsets) {
  const char *text = " {\"varint64\": \"1\"}\n {\"null\": null}  {\"int8\": 5}";
  wire_node *n;
  size_t used, pos = 0, len = strlen(text);
  cr_assert_eq(wire_notation_parse(ctx, doc, text, len, 0, &n, &used), WIRE_OK);
  cr_assert_eq(used, 18);
  pos += used;
  cr_assert_eq(wire_notation_parse(ctx, doc, text + pos, len - pos, 0, &n, &used), WIRE_OK);
  cr_assert_eq(wire_node_type(n), WIRE_T_NULL);
  pos += used;
  cr_assert_eq(wire_notation_parse(ctx, doc, text + pos, len - pos, 0, &n, &used),
               WIRE_E_NOTATION);
  cr_assert_eq(wire_ctx_error_offset(ctx), (uint64_t)(strchr(text + pos, '5') - (text + pos)),
               "offset of the bad value in the text");
  cr_assert(strstr(wire_ctx_error_message(ctx), "int8 takes a decimal string"));
}

Test(notation, rejects_bad_json_and_bad_notation) {
  static const struct { const char *text; size_t off; const char *msg; } bad[] = {
      {"", 0, "unexpected end"},
      {"{\"string\": \"a\\x\"}", 13, "bad escape"},
      {"{\"string\": \"\\ud800\"}", 12, "unpaired surrogate"},
      {"{\"string\": \"\xc3\"}", 12, "UTF-8"},
      {"{\"list\": [1,]}", 12, "unexpected character"},
      {"{\"a\": 1, \"a\": 2}", 14, "duplicate key"},
      {"{\"varint64\": \"1\", \"bool\": true}", 26, "two type keys"},
      {"{\"enc\": \"utf8\"}", 0, "no type key"},
      {"{\"list\": [{\"ref\": \"x\"}]}", 18, "unknown anchor"},
      {"{\"list\": [], \"anchor\": \"x\", \"header\": 99}", 38, "0..15"},
      {"[1]", 0, "must be a JSON object"},
      {"{\"decimal\": {\"unscaled\": \"1x\", \"scale\": 0}}", 25, "bad digit"},
      {"{\"struct\": {\"type\": \"demo.Nope\"}}", 20, "not in the schema"},
      {"{\"uint8\": \"256\"}", 10, "does not fit"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    wire_node *n = (wire_node *)1;
    size_t used = 77;
    int32_t st = wire_notation_parse(ctx, doc, bad[i].text, strlen(bad[i].text), 0, &n, &used);
    cr_assert_eq(st, WIRE_E_NOTATION, "%s: status %d", bad[i].text, st);
    cr_assert_null(n);
    cr_assert_eq(wire_ctx_error_offset(ctx), bad[i].off, "%s: offset %llu (%s)", bad[i].text,
                 (unsigned long long)wire_ctx_error_offset(ctx), wire_ctx_error_message(ctx));
    cr_assert(strstr(wire_ctx_error_message(ctx), bad[i].msg), "%s: %s", bad[i].text,
              wire_ctx_error_message(ctx));
  }
}

Test(notation, nesting_limit) {
  size_t depth = 3000;
  char *t = malloc(depth * 12 + 32);
  size_t w = 0;
  for (size_t i = 0; i < depth; i++) w += (size_t)sprintf(t + w, "{\"list\":[");
  w += (size_t)sprintf(t + w, "{\"null\":null}");
  for (size_t i = 0; i < depth; i++) w += (size_t)sprintf(t + w, "]}");
  wire_node *n;
  size_t used;
  cr_assert_eq(wire_notation_parse(ctx, doc, t, w, 0, &n, &used), WIRE_E_NOTATION);
  cr_assert(strstr(wire_ctx_error_message(ctx), "nested too deep"));
  free(t);
}

Test(notation, cycles_and_shared_values_round_trip) {
  int32_t st;
  char *h = encode_text("{\"list\": [{\"ref\": \"x\"}], \"anchor\": \"x\"}", 0, &st);
  cr_assert_str_eq(h, "010016010916fe00");
  char *s = print_hex(h, 0);
  cr_assert_str_eq(s, "{\"list\":[{\"ref\":\"a0\"}],\"header\":9,\"anchor\":\"a0\"}");
  free(s);
  free(h);
}

Test(notation, refit_drops_choices_that_no_longer_fit) {
  int32_t st;
  /* same-type header over mixed elements */
  const char *list = "{\"list\": [{\"varint64\": \"1\"}, {\"string\": \"a\"}], \"header\": 8}";
  cr_assert_null(encode_text(list, 0, &st));
  cr_assert_eq(st, WIRE_E_ENCODE);
  wire_doc_free(doc);
  doc = wire_doc_new(ctx);
  char *h = encode_text(list, WIRE_NOTATION_REFIT, &st);
  cr_assert_str_eq(h, "01ff1602000702150461");
  free(h);
  /* chunks that no longer add up */
  wire_doc_free(doc);
  doc = wire_doc_new(ctx);
  h = encode_text("{\"map\": [[{\"string\": \"a\"}, {\"varint64\": \"1\"}]], \"chunks\": [[0, 2]]}",
                  WIRE_NOTATION_REFIT, &st);
  cr_assert_str_eq(h, "01ff1801000115070461" "02");
  free(h);
  /* a Latin-1 encoding for text it cannot hold */
  wire_doc_free(doc);
  doc = wire_doc_new(ctx);
  const char *str = "{\"string\": \"\xe6\x97\xa5\", \"enc\": \"latin1\"}";
  cr_assert_null(encode_text(str, 0, &st));
  cr_assert_eq(st, WIRE_E_NOTATION);
  wire_doc_free(doc);
  doc = wire_doc_new(ctx);
  h = encode_text(str, WIRE_NOTATION_REFIT, &st);
  cr_assert_str_eq(h, "01ff1509e565");
  free(h);
  /* a header that still fits is kept */
  wire_doc_free(doc);
  doc = wire_doc_new(ctx);
  h = encode_text("{\"list\": [{\"varint64\": \"1\"}], \"header\": 0}", WIRE_NOTATION_REFIT, &st);
  cr_assert_str_eq(h, "01ff1601000702");
  free(h);
}

static const char *fdl =
    "package demo;\n"
    "enum Color [id = 101] { RED = 0; GREEN = 1; }\n"
    "message Item [id = 102] {\n"
    "  string name = 1;\n  Color color = 2;\n  optional decimal price = 3;\n"
    "  list<int64> sizes = 4;\n  map<string, timestamp> seen = 5;\n}\n";

Test(plain, prints_natural_json) {
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "item.fdl"), WIRE_OK);
  const char *text = "{\"name\": \"pen\", \"color\": \"GREEN\", \"price\": \"3.50\", "
                     "\"sizes\": [1, \"9007199254740993\"], "
                     "\"seen\": {\"a\": \"2024-02-29T12:34:56.5+01:00\"}}";
  uint32_t ti;
  cr_assert_eq(wire_schema_find_type(ctx, "demo.Item", 9, &ti), WIRE_OK);
  wire_node *n;
  size_t used;
  cr_assert_eq(wire_notation_parse_plain(ctx, doc, text, strlen(text), ti, &n, &used), WIRE_OK,
               "%s", wire_ctx_error_message(ctx));
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_notation_print(ctx, doc, n, WIRE_NOTATION_PLAIN, &out, &len), WIRE_OK);
  cr_assert_str_eq((char *)out,
                   "{\"name\":\"pen\",\"color\":\"GREEN\",\"price\":\"3.50\",\"sizes\":"
                   "[1,\"9007199254740993\"],\"seen\":{\"a\":\"2024-02-29T11:34:56.5Z\"}}");
  wire_ctx_free_bytes(ctx, out);
}

Test(plain, missing_fields_default_and_unknown_fields_fail) {
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "item.fdl"), WIRE_OK);
  uint32_t ti;
  wire_schema_find_type(ctx, "demo.Item", 9, &ti);
  wire_node *n;
  size_t used;
  cr_assert_eq(wire_notation_parse_plain(ctx, doc, "{}", 2, ti, &n, &used), WIRE_OK);
  uint8_t *out;
  size_t len;
  wire_notation_print(ctx, doc, n, WIRE_NOTATION_PLAIN, &out, &len);
  cr_assert_str_eq((char *)out, "{\"name\":\"\",\"color\":\"RED\",\"price\":null,\"sizes\":[],\"seen\":{}}");
  wire_ctx_free_bytes(ctx, out);
  const char *bad = "{\"name\": \"x\", \"colour\": 1}";
  cr_assert_eq(wire_notation_parse_plain(ctx, doc, bad, strlen(bad), ti, &n, &used), WIRE_E_NOTATION);
  cr_assert_eq(wire_ctx_error_offset(ctx), 24); /* the value of "colour" */
  cr_assert(strstr(wire_ctx_error_message(ctx), "has no field \"colour\""));
}

Test(plain, without_a_type_values_are_what_java_writes) {
  const char *text = "[1, 2.5, \"x\", null, {\"k\": true}]";
  wire_node *n;
  size_t used;
  cr_assert_eq(wire_notation_parse_plain(ctx, doc, text, strlen(text), WIRE_BY_NAME, &n, &used), WIRE_OK);
  cr_assert_eq(wire_node_type(n), WIRE_T_LIST);
  cr_assert_eq(wire_node_type(wire_node_child(n, 0)), WIRE_T_VARINT64);
  cr_assert_eq(wire_node_type(wire_node_child(n, 1)), WIRE_T_FLOAT64);
  cr_assert_eq(wire_node_type(wire_node_child(n, 4)), WIRE_T_MAP);
}

Test(plain, cycles_print_as_null_and_shared_values_are_bounded) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  wire_list_append(doc, l, l);
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_notation_print(ctx, doc, l, WIRE_NOTATION_PLAIN, &out, &len), WIRE_OK);
  cr_assert_str_eq((char *)out, "[null]");
  wire_ctx_free_bytes(ctx, out);
  /* 40 levels of a list holding the level below twice: 2^40 values */
  wire_node *cur = wire_node_new_null(doc);
  for (int i = 0; i < 40; i++) {
    wire_node *p = wire_node_new_list(doc, WIRE_T_LIST);
    wire_list_append(doc, p, cur);
    wire_list_append(doc, p, cur);
    cur = p;
  }
  sink k = {0, 0, 0, 0};
  cr_assert_eq(wire_notation_write(ctx, doc, cur, WIRE_NOTATION_PLAIN, count, &k), WIRE_E_LIMIT);
  /* the notation prints each shared list once */
  cr_assert_eq(wire_notation_write(ctx, doc, cur, 0, count, &k), WIRE_OK);
}

Test(plain, fingerprint_and_hash) {
  cr_assert_eq(wire_schema_load_fdl(ctx, fdl, strlen(fdl), "item.fdl"), WIRE_OK);
  uint32_t ti, hash;
  wire_schema_find_type(ctx, "demo.Item", 9, &ti);
  char buf[8];
  size_t len;
  cr_assert_eq(wire_schema_fingerprint(ctx, ti, buf, sizeof buf, &len, &hash), WIRE_E_BUFFER_FULL);
  char *fp = malloc(len + 1);
  cr_assert_eq(wire_schema_fingerprint(ctx, ti, fp, len + 1, &len, &hash), WIRE_OK);
  cr_assert_str_eq(fp, "1,21,0,0;2,0,0,0;3,40,0,1;4,22,0,0[7,0,0];5,24,0,0[21,0,0|38,0,0];");
  /* the hash the bytes carry */
  const char *text = "{\"name\": \"pen\"}";
  wire_node *n;
  size_t used;
  wire_notation_parse_plain(ctx, doc, text, strlen(text), ti, &n, &used);
  wire_doc_add_root(doc, n);
  uint8_t *out;
  size_t olen;
  cr_assert_eq(wire_encode(ctx, doc, &out, &olen), WIRE_OK);
  uint32_t h = (uint32_t)out[4] | (uint32_t)out[5] << 8 | (uint32_t)out[6] << 16 |
               (uint32_t)out[7] << 24;
  cr_assert_eq(h, hash);
  wire_ctx_free_bytes(ctx, out);
  cr_assert_eq(wire_schema_fingerprint(ctx, 0, fp, 1, &len, &hash), WIRE_E_ARG); /* an enum */
  free(fp);
}

static uint8_t *load(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  cr_assert_not_null(f, "%s (run from the repository root)", path);
  uint8_t *b = malloc(1 << 16);
  *n = fread(b, 1, 1 << 16, f);
  fclose(f);
  return b;
}

Test(plain, infer_fdl_from_typedefs) {
  /* pyfory 1.7.7, compatible: Person(name, home: Address, work: Address) */
  size_t n;
  uint8_t *b = load("libwire/tests/cli/data/person.pyfory.bin", &n);
  uint8_t *out;
  size_t len;
  cr_assert_eq(wire_schema_infer(ctx, b, n, &out, &len), WIRE_OK, "%s", wire_ctx_error_message(ctx));
  cr_assert(strstr((char *)out, "message Person {\n  Address home = 1;\n  string name = 2;\n"
                                "  Address work = 3;\n}"), "%s", out);
  cr_assert(strstr((char *)out, "option enable_auto_type_id = false;"));
  /* the FDL gives the writer's TypeDefs: no struct keeps its own */
  wire_ctx *c2 = wire_ctx_new();
  wire_ctx_set_option(c2, WIRE_OPT_COMPATIBLE, 1);
  cr_assert_eq(wire_schema_load_fdl(c2, (char *)out, len, "inferred.fdl"), WIRE_OK);
  wire_doc *d;
  cr_assert_eq(wire_decode(c2, b, n, &d), WIRE_OK);
  wire_node *root = wire_doc_root(d, 0);
  size_t tdl;
  cr_assert_null(wire_node_typedef(root, &tdl));
  cr_assert_null(wire_node_typedef(wire_node_field(root, 0), &tdl));
  wire_doc_free(d);
  wire_ctx_free(c2);
  wire_ctx_free_bytes(ctx, out);
  free(b);
  /* a same-schema payload has no TypeDefs */
  b = unhex("01ff1b669503b51e0c70656e01ff04f80a", &n);
  cr_assert_eq(wire_schema_infer(ctx, b, n, &out, &len), WIRE_E_SCHEMA);
  cr_assert(strstr(wire_ctx_error_message(ctx), "registered by id 102"));
  free(b);
}
