/* test_doc.c - the document API and the whole-message codec: builders for
 * every node kind against bytes written by the real pyfory 1.7.7, decoding
 * and accessors, lossless decode -> encode, references, errors, limits and
 * the allocator contract (counting and failure injection).
 *
 * Unless a comment says otherwise, every expected payload was printed by
 * pyfory 1.7.7 with
 *   f = pyfory.Fory(xlang=True, ref=False, compatible=False)
 *   f.serialize(VALUE).hex()
 * (ref=True for the reference-tracking payloads). Scalars of a fixed wire
 * type (int8, float16, ...) were written by pyfory's own serializer for that
 * type id, selected by mapping a subclass of int/float to the type's entry
 * in f.type_resolver._types_info; enums were registered with
 * f.register_type(Color, type_id=101) and
 * f.register_type(Shade, name="demo.Color"). */
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
  cr_assert_not_null(ctx);
  doc = wire_doc_new(ctx);
  cr_assert_not_null(doc);
}
static void teardown(void) {
  wire_doc_free(doc);
  wire_ctx_free(ctx);
}

TestSuite(build, .init = setup, .fini = teardown);
TestSuite(decode, .init = setup, .fini = teardown);
TestSuite(lossless, .init = setup, .fini = teardown);
TestSuite(refs, .init = setup, .fini = teardown);
TestSuite(errors, .init = setup, .fini = teardown);
TestSuite(limits, .init = setup, .fini = teardown);
TestSuite(alloc);

/* ---- helpers ----------------------------------------------------------- */

/* Encodes the test's document and compares with the expected hex. */
static void expect_doc(wire_doc *d, const char *want) {
  uint8_t *out = NULL;
  size_t n = 0;
  int32_t st = wire_encode(ctx, d, &out, &n);
  cr_assert_eq(st, WIRE_OK, "encode failed: %s at byte %llu: %s (want %s)",
               wire_status_name(st),
               (unsigned long long)wire_ctx_error_offset(ctx),
               wire_ctx_error_message(ctx), want);
  char *got = tohex(out, n);
  cr_assert_str_eq(got, want, "encoded %s, want %s", got, want);
  free(got);
  wire_ctx_free_bytes(ctx, out);
}

/* Adds `n` as the root of the test's (empty) document and checks the
 * encoding. */
static void expect_root(wire_node *n, const char *want) {
  cr_assert_not_null(n, "builder failed: %s (%s)",
                     wire_status_name(wire_ctx_error_code(ctx)),
                     wire_ctx_error_message(ctx));
  cr_assert_eq(wire_doc_root_count(doc), 0);
  cr_assert_eq(wire_doc_add_root(doc, n), WIRE_OK);
  expect_doc(doc, want);
}

/* Decodes hex into a new document kept in *bytes (which must outlive it). */
static wire_doc *decode_hex(const char *h, uint8_t **bytes) {
  size_t n;
  *bytes = unhex(h, &n);
  wire_doc *d = NULL;
  int32_t st = wire_decode(ctx, *bytes, n, &d);
  cr_assert_eq(st, WIRE_OK, "decode %s: %s at byte %llu: %s", h,
               wire_status_name(st),
               (unsigned long long)wire_ctx_error_offset(ctx),
               wire_ctx_error_message(ctx));
  cr_assert_not_null(d);
  return d;
}

static const uint8_t *U(const char *s) { return (const uint8_t *)s; }

static wire_node *str(wire_doc *d, const char *s) {
  wire_node *n = wire_node_new_string(d, U(s), strlen(s), -1);
  cr_assert_not_null(n);
  return n;
}
static wire_node *i64(wire_doc *d, int64_t v) {
  wire_node *n = wire_node_new_int(d, WIRE_T_VARINT64, v);
  cr_assert_not_null(n);
  return n;
}
static void append(wire_doc *d, wire_node *l, wire_node *e) {
  cr_assert_eq(wire_list_append(d, l, e), WIRE_OK);
}
static void put(wire_doc *d, wire_node *m, wire_node *k, wire_node *v) {
  cr_assert_eq(wire_map_put(d, m, k, v), WIRE_OK);
}

/* ---- builders: every node kind ----------------------------------------- */

Test(build, null_root) { expect_root(wire_node_new_null(doc), "01fd"); }

Test(build, none_root) { expect_root(wire_node_new_none(doc), "01ff24"); }

Test(build, bool_true) { expect_root(wire_node_new_bool(doc, 1), "01ff0101"); }

Test(build, bool_false) {
  expect_root(wire_node_new_bool(doc, 0), "01ff0100");
}

Test(build, signed_integer_types) {
  static const struct {
    uint32_t t;
    int64_t v;
    const char *hex;
  } k[] = {
      {WIRE_T_INT8, -1, "01ff02ff"},
      {WIRE_T_INT16, -2, "01ff03feff"},
      {WIRE_T_INT32, -3, "01ff04fdffffff"},
      {WIRE_T_VARINT32, -1, "01ff0501"},
      {WIRE_T_INT64, -4, "01ff06fcffffffffffffff"},
      {WIRE_T_VARINT64, 1, "01ff0702"},
      {WIRE_T_VARINT64, -300, "01ff07d704"},
      {WIRE_T_VARINT64, INT64_C(1) << 40, "01ff07808080808040"},
      {WIRE_T_TAGGED_INT64, INT64_C(1) << 30, "01ff08010000004000000000"},
      {WIRE_T_TAGGED_INT64, -5, "01ff08f6ffffff"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_doc *d = wire_doc_new(ctx);
    cr_assert_eq(wire_doc_add_root(d, wire_node_new_int(d, k[i].t, k[i].v)),
                 WIRE_OK, "%s", k[i].hex);
    expect_doc(d, k[i].hex);
    wire_doc_free(d);
  }
}

Test(build, unsigned_integer_types) {
  static const struct {
    uint32_t t;
    uint64_t v;
    const char *hex;
  } k[] = {
      {WIRE_T_UINT8, 255, "01ff09ff"},
      {WIRE_T_UINT16, 65535, "01ff0affff"},
      {WIRE_T_UINT32, UINT32_MAX, "01ff0bffffffff"},
      {WIRE_T_VAR_UINT32, 300, "01ff0cac02"},
      {WIRE_T_UINT64, UINT64_MAX, "01ff0dffffffffffffffff"},
      {WIRE_T_VAR_UINT64, UINT64_C(1) << 56, "01ff0e808080808080808001"},
      {WIRE_T_TAGGED_UINT64, (UINT64_C(1) << 31) - 1, "01ff0ffeffffff"},
      {WIRE_T_TAGGED_UINT64, UINT64_C(1) << 31, "01ff0f010000008000000000"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_doc *d = wire_doc_new(ctx);
    cr_assert_eq(wire_doc_add_root(d, wire_node_new_uint(d, k[i].t, k[i].v)),
                 WIRE_OK, "%s", k[i].hex);
    expect_doc(d, k[i].hex);
    wire_doc_free(d);
  }
}

Test(build, integers_are_range_checked) {
  cr_assert_null(wire_node_new_int(doc, WIRE_T_INT8, 128));
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_VALUE);
  cr_assert_null(wire_node_new_int(doc, WIRE_T_INT16, -32769));
  cr_assert_null(wire_node_new_int(doc, WIRE_T_VARINT32, INT64_C(1) << 31));
  cr_assert_null(wire_node_new_uint(doc, WIRE_T_UINT8, 256));
  cr_assert_null(wire_node_new_uint(doc, WIRE_T_VAR_UINT32, UINT64_C(1) << 32));
  cr_assert_null(wire_node_new_int(doc, WIRE_T_UINT8, 1), "unsigned type id");
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_ARG);
  cr_assert_null(wire_node_new_uint(doc, WIRE_T_INT8, 1), "signed type id");
  cr_assert_not_null(wire_node_new_int(doc, WIRE_T_INT8, -128));
  cr_assert_not_null(wire_node_new_uint(doc, WIRE_T_UINT16, 65535));
}

Test(build, float_types_round_to_nearest_even) {
  static const struct {
    uint32_t t;
    double v;
    const char *hex;
  } k[] = {
      {WIRE_T_FLOAT16, 1.5, "01ff11003e"},
      {WIRE_T_BFLOAT16, 1.5, "01ff12c03f"},
      {WIRE_T_FLOAT32, 1.5, "01ff130000c03f"},
      {WIRE_T_FLOAT64, 1.5, "01ff14000000000000f83f"},
      {WIRE_T_FLOAT64, 2.5, "01ff140000000000000440"},
      {WIRE_T_FLOAT64, -0.0, "01ff140000000000000080"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_doc *d = wire_doc_new(ctx);
    cr_assert_eq(
        wire_doc_add_root(d, wire_node_new_float(d, k[i].t, k[i].v)), WIRE_OK);
    expect_doc(d, k[i].hex);
    wire_doc_free(d);
  }
}

Test(build, float_bits_are_kept_exactly) {
  wire_node *inf =
      wire_node_new_float_bits(doc, WIRE_T_FLOAT64, UINT64_C(0x7ff0000000000000));
  expect_root(inf, "01ff14000000000000f07f");
  cr_assert_null(wire_node_new_float_bits(doc, WIRE_T_FLOAT16, 0x10000),
                 "bits wider than float16");
  cr_assert_null(wire_node_new_float(doc, WIRE_T_INT32, 1.0));
}

Test(build, strings_in_the_java_encoding_choice) {
  static const struct {
    const char *s;
    const char *hex;
  } k[] = {
      {"hello", "01ff151468656c6c6f"},
      {"héllo", "01ff151468e96c6c6f"},
      {"日本語", "01ff1519e5652c679e8a"},
      {"", "01ff1500"},
      {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
       "01ff15a00161616161616161616161616161616161616161616161616161616161616"
       "161616161616161616161"},
      /* From conformance/peers/java/PROBES.md (fory-core 1.6.0): Java writes
       * "aé日" as UTF-8 where pyfory uses UTF-16. */
      {"aé日", "01ff151a61c3a9e697a5"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_doc *d = wire_doc_new(ctx);
    cr_assert_eq(wire_doc_add_root(d, str(d, k[i].s)), WIRE_OK);
    expect_doc(d, k[i].hex);
    wire_doc_free(d);
  }
}

Test(build, strings_with_an_explicit_encoding) {
  /* pyfory's own choices where they differ from Java's. */
  wire_node *a = wire_node_new_string(doc, U("aé日"), strlen("aé日"),
                                      WIRE_STR_UTF16);
  wire_node *b = wire_node_new_string(doc, U("😀x"), strlen("😀x"),
                                      WIRE_STR_UTF8);
  cr_assert_not_null(a);
  cr_assert_not_null(b);
  cr_assert_eq(wire_doc_add_root(doc, a), WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, b), WIRE_OK);
  /* Two roots: two payloads back to back. */
  expect_doc(doc, "01ff15196100e900e565"
                  "01ff1516f09f988078");
}

Test(build, string_errors) {
  cr_assert_null(wire_node_new_string(doc, U("日"), 3, WIRE_STR_LATIN1));
  cr_assert_neq(wire_ctx_error_code(ctx), WIRE_OK);
  cr_assert_null(wire_node_new_string(doc, U("\xc0\x80"), 2, -1));
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_STRING);
  cr_assert_null(wire_node_new_string(doc, U("a"), 1, 3), "encoding 3");
}

Test(build, binary) {
  expect_root(wire_node_new_binary(doc, U("\x00\xff"), 2), "01ff290200ff");
}

Test(build, empty_binary) {
  expect_root(wire_node_new_binary(doc, NULL, 0), "01ff2900");
}

Test(build, dense_arrays) {
  static const struct {
    uint32_t t;
    const char *bytes;
    size_t n;
    const char *hex;
  } k[] = {
      {WIRE_T_INT32_ARRAY, "\x01\x00\x00\x00\xff\xff\xff\xff\x07\x00\x00\x00",
       12, "01ff2e0c01000000ffffffff07000000"},
      {WIRE_T_FLOAT64_ARRAY,
       "\x00\x00\x00\x00\x00\x00\xe0\x3f\x00\x00\x00\x00\x00\x00\xd0\xbf", 16,
       "01ff3810000000000000e03f000000000000d0bf"},
      {WIRE_T_FLOAT16_ARRAY, "\x00\x3c\x00\x7c", 4, "01ff3504003c007c"},
      {WIRE_T_BFLOAT16_ARRAY, "\xc0\x3f", 2, "01ff3602c03f"},
      {WIRE_T_BOOL_ARRAY, "\x01\x00", 2, "01ff2b020100"},
      {WIRE_T_INT8_ARRAY, "\x01\xff", 2, "01ff2c0201ff"},
      {WIRE_T_INT16_ARRAY, "\x01\x00\xfe\xff", 4, "01ff2d040100feff"},
      {WIRE_T_INT64_ARRAY, "\x01\x00\x00\x00\x00\x00\x00\x00", 8,
       "01ff2f080100000000000000"},
      {WIRE_T_UINT8_ARRAY, "\xff", 1, "01ff3001ff"},
      {WIRE_T_UINT16_ARRAY, "\xff\xff", 2, "01ff3102ffff"},
      {WIRE_T_UINT32_ARRAY, "\x01\x00\x00\x00", 4, "01ff320401000000"},
      {WIRE_T_UINT64_ARRAY, "\xff\xff\xff\xff\xff\xff\xff\xff", 8,
       "01ff3308ffffffffffffffff"},
      {WIRE_T_FLOAT32_ARRAY, "\x00\x00\xc0\x3f", 4, "01ff37040000c03f"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_doc *d = wire_doc_new(ctx);
    wire_node *a = wire_node_new_array(d, k[i].t, U(k[i].bytes), k[i].n);
    cr_assert_not_null(a, "%s", k[i].hex);
    cr_assert_eq(wire_node_count(a), k[i].n / wire_type_array_width(k[i].t));
    cr_assert_eq(wire_doc_add_root(d, a), WIRE_OK);
    expect_doc(d, k[i].hex);
    wire_doc_free(d);
  }
}

Test(build, array_errors) {
  cr_assert_null(wire_node_new_array(doc, WIRE_T_INT32_ARRAY, U("\1\2\3"), 3),
                 "3 bytes of int32");
  cr_assert_null(wire_node_new_array(doc, WIRE_T_BOOL_ARRAY, U("\2"), 1),
                 "bool byte 2");
  cr_assert_null(wire_node_new_array(doc, WIRE_T_STRING, U("a"), 1),
                 "not an array type");
  cr_assert_null(wire_node_new_array(doc, WIRE_T_FLOAT8_ARRAY, U("a"), 1),
                 "float8 arrays are not supported");
}

Test(build, date) {
  expect_root(wire_node_new_date(doc, 18954), "01ff2794a802"); /* 2021-11-23 */
}

Test(build, date_before_the_epoch) {
  expect_root(wire_node_new_date(doc, -1), "01ff2701"); /* 1969-12-31 */
}

Test(build, timestamp) {
  /* datetime(2000, 1, 1, tzinfo=utc) */
  expect_root(wire_node_new_timestamp(doc, 946684800, 0),
              "01ff2680436d380000000000000000");
}

Test(build, duration) {
  /* timedelta(days=1, microseconds=1) */
  expect_root(wire_node_new_duration(doc, 86400, 1000), "01ff2580c60ae8030000");
}

Test(build, negative_duration) {
  /* timedelta(seconds=-0.5) = -1 s + 500000000 ns */
  expect_root(wire_node_new_duration(doc, -1, 500000000), "01ff25010065cd1d");
}

Test(build, nanos_out_of_range_are_rejected) {
  cr_assert_null(wire_node_new_timestamp(doc, 0, 1000000000));
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_VALUE);
  cr_assert_null(wire_node_new_duration(doc, 0, 1000000000));
}

Test(build, decimals_small_and_big_forms) {
  static const struct {
    int32_t neg;
    const char *mag;
    size_t n;
    int32_t scale;
    const char *hex;
  } k[] = {
      {0, "\x39\x30", 2, 2, "01ff2804e48103"},            /* 123.45 */
      {0, "", 0, 0, "01ff280000"},                         /* 0 */
      {1, "\x0f", 1, 1, "01ff28023a"},                     /* -1.5 */
      {0, "\x00\x00\x00\x00\x00\x00\x00\x40", 8, 0,        /* 2^62 */
       "01ff2800210000000000000040"},
      {1, "\x00\x00\x00\x00\x00\x00\x00\x00\x40", 9, 0,    /* -2^70 */
       "01ff280027000000000000000040"},
      {0, "\x39\x30\x00\x00", 4, 2, "01ff2804e48103"}, /* high zeros dropped */
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_doc *d = wire_doc_new(ctx);
    wire_node *n =
        wire_node_new_decimal(d, k[i].neg, U(k[i].mag), k[i].n, k[i].scale);
    cr_assert_not_null(n);
    cr_assert_eq(wire_doc_add_root(d, n), WIRE_OK);
    expect_doc(d, k[i].hex);
    wire_doc_free(d);
  }
}

Test(build, decimal_java_boundaries) {
  /* From conformance/peers/java/PROBES.md (fory-core 1.6.0). */
  static const struct {
    int32_t neg;
    const char *mag;
    size_t n;
    int32_t scale;
    const char *hex;
  } k[] = {
      {0, "\xff\xff\xff\xff\xff\xff\xff\x3f", 8, 0,
       "01ff2800fcffffffffffffffff"}, /* 2^62-1, 9-byte varuint64 */
      {1, "\x00\x00\x00\x00\x00\x00\x00\x40", 8, 0,
       "01ff2800feffffffffffffffff"}, /* -2^62 still small */
      {1, "\x01\x00\x00\x00\x00\x00\x00\x40", 8, 0,
       "01ff2800230100000000000040"}, /* -2^62-1 */
      {0, "\x00\x00\x00\x00\x00\x00\x00\x80", 8, 0,
       "01ff2800210000000000000080"}, /* 2^63 */
      {1, "\x01", 1, -3, "01ff280502"}, /* -1 scale -3 */
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_doc *d = wire_doc_new(ctx);
    wire_node *n =
        wire_node_new_decimal(d, k[i].neg, U(k[i].mag), k[i].n, k[i].scale);
    cr_assert_eq(wire_doc_add_root(d, n), WIRE_OK);
    expect_doc(d, k[i].hex);
    wire_doc_free(d);
  }
}

Test(build, enum_by_id) {
  expect_root(wire_node_new_enum(doc, 101, 1), "01ff196501");
}

Test(build, named_enum_with_recorded_encodings) {
  wire_node *e =
      wire_node_new_named_enum(doc, U("demo"), 4, U("Color"), 5, 0);
  cr_assert_not_null(e);
  /* pyfory encodes the namespace "demo" as LOWER_SPECIAL (1). */
  cr_assert_eq(wire_node_set_name_encodings(e, WIRE_MS_LOWER_SPECIAL,
                                            WIRE_MS_FIRST_TO_LOWER_SPECIAL),
               WIRE_OK);
  expect_root(e, "01ff1a06010c8c70080389cb744000");
}

Test(build, named_enum_with_policy_encodings) {
  /* Java's writer policy: namespaces never use LOWER_SPECIAL, so "demo" is
   * ALL_TO_LOWER_SPECIAL (4) with the same packed bytes. */
  wire_node *e =
      wire_node_new_named_enum(doc, U("demo"), 4, U("Color"), 5, 0);
  expect_root(e, "01ff1a06040c8c70080389cb744000");
}

Test(build, named_enum_long_names_carry_a_hash) {
  /* Meta strings over 16 bytes carry the MurmurHash3-based 8-byte hash. */
  const char *ns = "org.apache.fory.benchmark.data";
  wire_node *e = wire_node_new_named_enum(doc, U(ns), strlen(ns), U("Color"),
                                          5, 1);
  cr_assert_eq(wire_node_set_name_encodings(e, 1, 3), WIRE_OK);
  expect_root(e, "01ff1a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11d808ab43"
                 "04c0080389cb744001");
}

Test(build, repeated_meta_strings_are_references) {
  const char *ns = "org.apache.fory.benchmark.data";
  const char *tn = "VeryLongTypeNameForTesting123";
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  wire_node *a = wire_node_new_named_enum(doc, U(ns), strlen(ns), U("Color"),
                                          5, 1);
  wire_node *b = wire_node_new_named_enum(doc, U(ns), strlen(ns), U("Color"),
                                          5, 0);
  wire_node *c = wire_node_new_named_enum(doc, U(""), 0, U(tn), strlen(tn), 0);
  wire_node_set_name_encodings(a, 1, 3);
  wire_node_set_name_encodings(b, 1, 3);
  wire_node_set_name_encodings(c, 0, 2);
  append(doc, l, a);
  append(doc, l, b);
  append(doc, l, c);
  expect_root(l, "01ff1603001a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11d8"
                 "08ab4304c0080389cb7440011a0305001a002c02c5f778f16b8c465e22"
                 "2c4a71a35ac1e24e01823e72368892641a36bb6e00");
}

Test(build, named_enum_without_a_registered_type_in_compatible_mode) {
  /* Compatible mode writes a named enum's type meta as a shared TypeDef;
   * without a schema it is built from the names, as the Java runtime writes
   * it (bytes from fory-core 1.6.0: Color of namespace demo, value 1). */
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  wire_node *e = wire_node_new_named_enum(doc, U("demo"), 4, U("Color"), 5, 1);
  cr_assert_eq(wire_doc_add_root(doc, e), WIRE_OK);
  uint8_t *out = NULL;
  size_t n;
  int32_t st = wire_encode(ctx, doc, &out, &n);
  cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(ctx));
  static const uint8_t want[] = {0x01, 0xff, 0x1a, 0x00, 0x0a, 0xa0, 0xbc,
                                 0x05, 0x58, 0x44, 0xf3, 0x23, 0x01, 0x0d,
                                 0x0c, 0x8c, 0x70, 0x13, 0x89, 0xcb, 0x74,
                                 0x40, 0x01};
  cr_assert_eq(n, sizeof want);
  cr_assert_arr_eq(out, want, sizeof want);
  wire_ctx_free_bytes(ctx, out);
}

Test(build, named_enum_rejects_names_that_are_not_meta_strings) {
  cr_assert_null(
      wire_node_new_named_enum(doc, U("\xff"), 1, U("Color"), 5, 0));
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_META_STRING);
}

Test(build, list_with_mixed_types_and_null) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, i64(doc, 1));
  append(doc, l, str(doc, "a"));
  append(doc, l, wire_node_new_null(doc));
  append(doc, l, wire_node_new_float(doc, WIRE_T_FLOAT64, 2.5));
  expect_root(l, "01ff160402ff0702ff150461fdff140000000000000440");
}

Test(build, list_of_one_type) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, str(doc, "x"));
  append(doc, l, str(doc, "y"));
  append(doc, l, str(doc, "z"));
  expect_root(l, "01ff1603081504780479047a");
}

Test(build, list_of_one_type_with_a_null) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, i64(doc, 1));
  append(doc, l, wire_node_new_null(doc));
  expect_root(l, "01ff16020a07ff02fd");
}

Test(build, list_of_nulls_only) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, wire_node_new_null(doc));
  append(doc, l, wire_node_new_null(doc));
  /* no element type to write: no same-type bit (R-WLIST-2, errata E-57) */
  expect_root(l, "01ff160202fdfd");
}

Test(build, nested_lists) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  wire_node *a = wire_node_new_list(doc, WIRE_T_LIST);
  wire_node *b = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, a, i64(doc, 1));
  append(doc, a, i64(doc, 2));
  append(doc, b, i64(doc, 3));
  append(doc, l, a);
  append(doc, l, b);
  expect_root(l, "01ff16020816020807020401080706");
}

Test(build, empty_list_and_map) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  wire_node *m = wire_node_new_map(doc);
  cr_assert_eq(wire_doc_add_root(doc, l), WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, m), WIRE_OK);
  expect_doc(doc, "01ff1600"
                  "01ff1800");
}

Test(build, set) {
  wire_node *s = wire_node_new_list(doc, WIRE_T_SET);
  append(doc, s, str(doc, "a"));
  expect_root(s, "01ff170108150461");
}

Test(build, list_of_enums) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, wire_node_new_enum(doc, 101, 0));
  append(doc, l, wire_node_new_enum(doc, 101, 2));
  expect_root(l, "01ff16020819650002");
}

Test(build, list_of_uint8_array) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, wire_node_new_array(doc, WIRE_T_UINT8_ARRAY, U("\1\2"), 2));
  expect_root(l, "01ff16010830020102");
}

Test(build, map_chunks_group_entries_of_one_type) {
  wire_node *m = wire_node_new_map(doc);
  put(doc, m, str(doc, "a"), i64(doc, 1));
  put(doc, m, str(doc, "b"), i64(doc, 2));
  expect_root(m, "01ff180200021507046102046204");
}

Test(build, map_chunks_split_when_the_type_changes) {
  wire_node *m = wire_node_new_map(doc);
  put(doc, m, i64(doc, 1), str(doc, "x"));
  put(doc, m, str(doc, "y"), i64(doc, 2));
  expect_root(m, "01ff18020001071502047800011507047904");
}

Test(build, map_entries_with_null_key_or_value) {
  wire_node *m = wire_node_new_map(doc);
  put(doc, m, str(doc, "a"), wire_node_new_null(doc));
  put(doc, m, wire_node_new_null(doc), str(doc, "b"));
  expect_root(m, "01ff180211ff1504610aff150462");
}

Test(build, nested_maps) {
  wire_node *m = wire_node_new_map(doc);
  wire_node *inner = wire_node_new_map(doc);
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, wire_node_new_bool(doc, 1));
  put(doc, inner, str(doc, "n"), l);
  put(doc, m, str(doc, "k"), inner);
  expect_root(m, "01ff180100011518046b0100011516046e01080101");
}

Test(build, map_with_named_enum_key_and_value) {
  const char *ns = "org.apache.fory.benchmark.data";
  const char *tn = "VeryLongTypeNameForTesting123";
  wire_node *m = wire_node_new_map(doc);
  wire_node *k = wire_node_new_named_enum(doc, U(ns), strlen(ns), U("Color"),
                                          5, 1);
  wire_node *v = wire_node_new_named_enum(doc, U(""), 0, U(tn), strlen(tn), 0);
  wire_node_set_name_encodings(k, 1, 3);
  wire_node_set_name_encodings(v, 0, 2);
  put(doc, m, k, v);
  expect_root(m, "01ff180100011a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11"
                 "d808ab4304c0080389cb74401a002c02c5f778f16b8c465e222c4a71a3"
                 "5ac1e24e01823e72368892641a36bb6e0100");
}

Test(build, recorded_map_chunks_must_cover_the_entries) {
  wire_node *m = wire_node_new_map(doc);
  put(doc, m, str(doc, "a"), i64(doc, 1));
  put(doc, m, str(doc, "b"), i64(doc, 2));
  /* One chunk per entry instead of the policy's single chunk. */
  cr_assert_eq(wire_map_add_chunk(doc, m, 0, 1), WIRE_OK);
  cr_assert_eq(wire_map_add_chunk(doc, m, 0, 1), WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, m), WIRE_OK);
  expect_doc(doc, "01ff18020001150704610200011507046204");
  cr_assert_eq(wire_map_add_chunk(doc, m, 0, 1), WIRE_OK);
  uint8_t *out = NULL;
  size_t n;
  cr_assert_eq(wire_encode(ctx, doc, &out, &n), WIRE_E_ENCODE,
               "3 chunk entries for a 2-entry map");
  cr_assert_null(out);
  cr_assert_eq(wire_map_clear_chunks(m), WIRE_OK);
  expect_doc(doc, "01ff180200021507046102046204");
}

Test(build, node_indexes_follow_creation_order) {
  wire_node *a = wire_node_new_bool(doc, 1);
  wire_node *b = wire_node_new_null(doc);
  wire_node *c = i64(doc, 3);
  cr_assert_eq(wire_node_index(a), 0);
  cr_assert_eq(wire_node_index(b), 1);
  cr_assert_eq(wire_node_index(c), 2);
  cr_assert_eq(wire_doc_node_count(doc), 3);
}

Test(build, builder_arguments_are_checked) {
  cr_assert_null(wire_node_new_list(doc, WIRE_T_MAP));
  wire_node *m = wire_node_new_map(doc);
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  cr_assert_eq(wire_list_append(doc, m, l), WIRE_E_ARG);
  cr_assert_eq(wire_map_put(doc, l, m, m), WIRE_E_ARG);
  cr_assert_eq(wire_list_append(doc, l, NULL), WIRE_E_ARG);
  cr_assert_eq(wire_list_set_header(l, 16), WIRE_E_ARG);
  cr_assert_eq(wire_map_add_chunk(doc, m, 0x40, 1), WIRE_E_ARG);
  cr_assert_eq(wire_map_add_chunk(doc, m, 0, 0), WIRE_E_ARG);
  cr_assert_eq(wire_doc_add_root(doc, NULL), WIRE_E_ARG);
}

/* ---- decode + accessors ------------------------------------------------- */

static wire_node *root0(wire_doc *d) {
  cr_assert_eq(wire_doc_root_count(d), 1);
  wire_node *n = wire_doc_root(d, 0);
  cr_assert_not_null(n);
  return n;
}

Test(decode, integers) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff07d704", &b);
  wire_node *n = root0(d);
  cr_assert_eq(wire_node_type(n), WIRE_T_VARINT64);
  cr_assert_eq(wire_node_int(n), -300);
  wire_doc_free(d);
  free(b);
  d = decode_hex("01ff0dffffffffffffffff", &b);
  cr_assert_eq(wire_node_type(root0(d)), WIRE_T_UINT64);
  cr_assert_eq(wire_node_uint(root0(d)), UINT64_MAX);
  wire_doc_free(d);
  free(b);
  d = decode_hex("01ff0f010000008000000000", &b);
  cr_assert_eq(wire_node_type(root0(d)), WIRE_T_TAGGED_UINT64);
  cr_assert_eq(wire_node_uint(root0(d)), UINT64_C(1) << 31);
  wire_doc_free(d);
  free(b);
  d = decode_hex("01ff08f6ffffff", &b);
  cr_assert_eq(wire_node_int(root0(d)), -5);
  wire_doc_free(d);
  free(b);
  d = decode_hex("01ff02ff", &b);
  cr_assert_eq(wire_node_type(root0(d)), WIRE_T_INT8);
  cr_assert_eq(wire_node_int(root0(d)), -1);
  wire_doc_free(d);
  free(b);
}

Test(decode, bool_and_null) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff0101" "01fd", &b);
  cr_assert_eq(wire_doc_root_count(d), 2);
  cr_assert_eq(wire_node_type(wire_doc_root(d, 0)), WIRE_T_BOOL);
  cr_assert_eq(wire_node_int(wire_doc_root(d, 0)), 1);
  cr_assert_eq(wire_node_type(wire_doc_root(d, 1)), WIRE_T_NULL);
  cr_assert_null(wire_doc_root(d, 2));
  wire_doc_free(d);
  free(b);
}

Test(decode, floats) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff11003e" "01ff12c03f" "01ff130000c03f"
                           "01ff14000000000000f83f", &b);
  cr_assert_eq(wire_doc_root_count(d), 4);
  static const uint32_t types[] = {WIRE_T_FLOAT16, WIRE_T_BFLOAT16,
                                   WIRE_T_FLOAT32, WIRE_T_FLOAT64};
  static const uint64_t bits[] = {0x3e00, 0x3fc0, 0x3fc00000,
                                  UINT64_C(0x3ff8000000000000)};
  for (size_t i = 0; i < 4; i++) {
    wire_node *n = wire_doc_root(d, i);
    cr_assert_eq(wire_node_type(n), types[i]);
    cr_assert_eq(wire_node_float(n), 1.5, "root %zu", i);
    cr_assert_eq(wire_node_float_bits(n), bits[i], "root %zu", i);
  }
  wire_doc_free(d);
  free(b);
}

Test(decode, string_text_and_encoding) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff1519e5652c679e8a", &b);
  wire_node *n = root0(d);
  cr_assert_eq(wire_node_type(n), WIRE_T_STRING);
  cr_assert_eq(wire_node_string_encoding(n), WIRE_STR_UTF16);
  size_t len;
  const uint8_t *p = wire_node_bytes(n, &len);
  cr_assert_eq(len, 6);
  cr_assert_eq(p, b + 4, "string bytes point into the input (zero-copy)");
  uint8_t text[16];
  size_t tn = 0;
  cr_assert_eq(wire_node_string_utf8(n, text, sizeof text, &tn), WIRE_OK);
  cr_assert_eq(tn, strlen("日本語"));
  cr_assert_arr_eq(text, "日本語", tn);
  cr_assert_eq(wire_node_string_utf8(n, text, 4, &tn), WIRE_E_BUFFER_FULL);
  cr_assert_eq(tn, 9, "needed length reported");
  wire_doc_free(d);
  free(b);
}

Test(decode, binary_and_arrays) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff290200ff" "01ff2e0c01000000ffffffff07000000",
                           &b);
  wire_node *bin = wire_doc_root(d, 0), *arr = wire_doc_root(d, 1);
  cr_assert_eq(wire_node_type(bin), WIRE_T_BINARY);
  size_t n;
  const uint8_t *p = wire_node_bytes(bin, &n);
  cr_assert_eq(n, 2);
  cr_assert_eq(p[0], 0x00);
  cr_assert_eq(p[1], 0xff);
  cr_assert_eq(wire_node_count(bin), 2);
  cr_assert_eq(wire_node_type(arr), WIRE_T_INT32_ARRAY);
  cr_assert_eq(wire_node_count(arr), 3);
  p = wire_node_bytes(arr, &n);
  cr_assert_eq(n, 12);
  cr_assert_eq(p[4], 0xff);
  wire_doc_free(d);
  free(b);
}

Test(decode, time_values) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff2794a802" "01ff26640000000000000000000000"
                           "01ff25010065cd1d", &b);
  wire_node *date = wire_doc_root(d, 0), *ts = wire_doc_root(d, 1),
            *dur = wire_doc_root(d, 2);
  cr_assert_eq(wire_node_type(date), WIRE_T_DATE);
  cr_assert_eq(wire_node_int(date), 18954);
  cr_assert_eq(wire_node_type(ts), WIRE_T_TIMESTAMP);
  cr_assert_eq(wire_node_int(ts), 100);
  cr_assert_eq(wire_node_nanos(ts), 0);
  cr_assert_eq(wire_node_type(dur), WIRE_T_DURATION);
  cr_assert_eq(wire_node_int(dur), -1);
  cr_assert_eq(wire_node_nanos(dur), 500000000u);
  wire_doc_free(d);
  free(b);
}

Test(decode, decimals) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff2804e48103" "01ff280027000000000000000040"
                           "01ff28023a", &b);
  wire_node *a = wire_doc_root(d, 0), *big = wire_doc_root(d, 1),
            *neg = wire_doc_root(d, 2);
  size_t n;
  const uint8_t *m = wire_node_bytes(a, &n);
  cr_assert_eq(wire_node_type(a), WIRE_T_DECIMAL);
  cr_assert_eq(wire_node_decimal_scale(a), 2);
  cr_assert_eq(wire_node_decimal_negative(a), 0);
  cr_assert_eq(n, 2);
  cr_assert_eq(m[0] | m[1] << 8, 12345);
  m = wire_node_bytes(big, &n);
  cr_assert_eq(wire_node_decimal_negative(big), 1);
  cr_assert_eq(n, 9);
  cr_assert_eq(m[8], 0x40);
  cr_assert_eq(wire_node_decimal_scale(neg), 1);
  cr_assert_eq(wire_node_decimal_negative(neg), 1);
  m = wire_node_bytes(neg, &n);
  cr_assert_eq(n, 1);
  cr_assert_eq(m[0], 15);
  wire_doc_free(d);
  free(b);
}

Test(decode, enums) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff196501" "01ff1a06010c8c70080389cb744000", &b);
  wire_node *e = wire_doc_root(d, 0), *ne = wire_doc_root(d, 1);
  cr_assert_eq(wire_node_type(e), WIRE_T_ENUM);
  cr_assert_eq(wire_node_enum_type_id(e), 101);
  cr_assert_eq(wire_node_enum_value(e), 1);
  cr_assert_eq(wire_node_type(ne), WIRE_T_NAMED_ENUM);
  cr_assert_eq(wire_node_enum_value(ne), 0);
  size_t n;
  const uint8_t *p = wire_node_enum_namespace(ne, &n);
  cr_assert_eq(n, 4);
  cr_assert_arr_eq(p, "demo", 4);
  p = wire_node_bytes(ne, &n);
  cr_assert_eq(n, 5);
  cr_assert_arr_eq(p, "Color", 5);
  int32_t nse = -9, nme = -9;
  cr_assert_eq(wire_node_name_encodings(ne, &nse, &nme), WIRE_OK);
  cr_assert_eq(nse, WIRE_MS_LOWER_SPECIAL);
  cr_assert_eq(nme, WIRE_MS_FIRST_TO_LOWER_SPECIAL);
  wire_doc_free(d);
  free(b);
}

Test(decode, meta_string_references_resolve) {
  uint8_t *b;
  wire_doc *d = decode_hex(
      "01ff1603001a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11d808ab4304c008"
      "0389cb7440011a0305001a002c02c5f778f16b8c465e222c4a71a35ac1e24e01823e72"
      "368892641a36bb6e00",
      &b);
  wire_node *l = root0(d);
  cr_assert_eq(wire_node_count(l), 3);
  size_t n;
  const uint8_t *p = wire_node_enum_namespace(wire_node_child(l, 1), &n);
  cr_assert_eq(n, 30, "namespace by reference");
  cr_assert_arr_eq(p, "org.apache.fory.benchmark.data", 30);
  p = wire_node_bytes(wire_node_child(l, 1), &n);
  cr_assert_eq(n, 5);
  cr_assert_arr_eq(p, "Color", 5);
  p = wire_node_bytes(wire_node_child(l, 2), &n);
  cr_assert_eq(n, 29);
  cr_assert_arr_eq(p, "VeryLongTypeNameForTesting123", 29);
  wire_node_enum_namespace(wire_node_child(l, 2), &n);
  cr_assert_eq(n, 0);
  wire_doc_free(d);
  free(b);
}

Test(decode, list_children_and_header) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff160402ff0702ff150461fdff140000000000000440", &b);
  wire_node *l = root0(d);
  cr_assert_eq(wire_node_type(l), WIRE_T_LIST);
  cr_assert_eq(wire_node_count(l), 4);
  cr_assert_eq(wire_list_header(l), 0x02);
  cr_assert_eq(wire_node_type(wire_node_child(l, 0)), WIRE_T_VARINT64);
  cr_assert_eq(wire_node_int(wire_node_child(l, 0)), 1);
  cr_assert_eq(wire_node_type(wire_node_child(l, 1)), WIRE_T_STRING);
  cr_assert_eq(wire_node_type(wire_node_child(l, 2)), WIRE_T_NULL);
  cr_assert_eq(wire_node_float(wire_node_child(l, 3)), 2.5);
  cr_assert_null(wire_node_child(l, 4));
  cr_assert_eq(wire_node_tracked(l), 0, "root flag ff: not tracked");
  wire_doc_free(d);
  free(b);
}

Test(decode, map_entries_and_chunks) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff180211ff1504610aff150462", &b);
  wire_node *m = root0(d);
  cr_assert_eq(wire_node_type(m), WIRE_T_MAP);
  cr_assert_eq(wire_node_count(m), 2);
  cr_assert_eq(wire_node_type(wire_node_map_key(m, 0)), WIRE_T_STRING);
  cr_assert_eq(wire_node_type(wire_node_map_value(m, 0)), WIRE_T_NULL);
  cr_assert_eq(wire_node_type(wire_node_map_key(m, 1)), WIRE_T_NULL);
  cr_assert_eq(wire_node_type(wire_node_map_value(m, 1)), WIRE_T_STRING);
  cr_assert_null(wire_node_map_key(m, 2));
  cr_assert_eq(wire_map_chunk_count(m), 2);
  uint32_t h, c;
  cr_assert_eq(wire_map_chunk(m, 0, &h, &c), WIRE_OK);
  cr_assert_eq(h, 0x11);
  cr_assert_eq(c, 1);
  cr_assert_eq(wire_map_chunk(m, 1, &h, &c), WIRE_OK);
  cr_assert_eq(h, 0x0a);
  cr_assert_eq(wire_map_chunk(m, 2, &h, &c), WIRE_E_ARG);
  wire_doc_free(d);
  free(b);
}

Test(decode, multi_entry_chunk) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff180300030707000002020404", &b); /* {i: i} */
  wire_node *m = root0(d);
  cr_assert_eq(wire_node_count(m), 3);
  for (size_t i = 0; i < 3; i++) {
    cr_assert_eq(wire_node_int(wire_node_map_key(m, i)), (int64_t)i);
    cr_assert_eq(wire_node_int(wire_node_map_value(m, i)), (int64_t)i);
  }
  uint32_t h, c;
  cr_assert_eq(wire_map_chunk_count(m), 1);
  wire_map_chunk(m, 0, &h, &c);
  cr_assert_eq(c, 3);
  wire_doc_free(d);
  free(b);
}

Test(decode, meta_string_reference_may_name_the_other_context) {
  /* pyfory 1.7.7 keeps one meta string table per payload and references an
   * equal earlier entry whatever its role: with
   * f.register_type(A, name="abc.abc") it writes the type name "abc" as a
   * reference (03) to the namespace "abc" (04 01 0022). fory-core 1.6.0
   * reads these bytes too (it resolves "abc.abc" and then reports the class
   * as unregistered). */
  static const uint8_t b[] = {0x01, 0xff, 0x1a, 0x04, 0x01, 0x00,
                              0x22, 0x03, 0x00};
  wire_doc *d = NULL;
  int32_t st = wire_decode(ctx, b, sizeof b, &d);
  cr_assert_eq(st, WIRE_OK, "decode 01ff1a040100220300: %s at byte %llu: %s",
               wire_status_name(st),
               (unsigned long long)wire_ctx_error_offset(ctx),
               wire_ctx_error_message(ctx));
  wire_node *e = root0(d);
  size_t n;
  const uint8_t *p = wire_node_enum_namespace(e, &n);
  cr_assert_eq(n, 3);
  cr_assert_arr_eq(p, "abc", 3);
  p = wire_node_bytes(e, &n);
  cr_assert_eq(n, 3);
  cr_assert_arr_eq(p, "abc", 3);
  expect_doc(d, "01ff1a040100220300");
  wire_doc_free(d);
}

Test(decode, list_of_none_has_zero_width_elements) {
  uint8_t *b;
  wire_doc *d = decode_hex("01ff16640824", &b); /* 100 x NONE */
  wire_node *l = root0(d);
  cr_assert_eq(wire_node_count(l), 100);
  cr_assert_eq(wire_node_type(wire_node_child(l, 99)), WIRE_T_NONE);
  expect_doc(d, "01ff16640824");
  wire_doc_free(d);
  free(b);
}

/* Decoded nulls are one node (a null records no choice of its own), so a
 * list or map of nulls costs a pointer per null; the notation prints them
 * as nulls, not as references, and the bytes come back the same. */
Test(decode, nulls_share_one_node) {
  uint8_t *b;
  /* a list of 3 nulls, then a map of null -> null and null -> 1 (chunk
   * headers 0x12, 0x0a) */
  wire_doc *d = decode_hex("01ff160302fdfdfd01ff1802120aff0502", &b);
  wire_node *l = wire_doc_root(d, 0), *m = wire_doc_root(d, 1);
  cr_assert_eq(wire_node_type(wire_node_child(l, 0)), WIRE_T_NULL);
  cr_assert_eq(wire_node_child(l, 0), wire_node_child(l, 2));
  cr_assert_eq(wire_node_map_key(m, 0), wire_node_child(l, 1));
  cr_assert_eq(wire_node_map_value(m, 0), wire_node_map_key(m, 1));
  cr_assert_eq(wire_node_type(wire_node_map_value(m, 1)), WIRE_T_VARINT32);
  /* 4 nodes: the list, the null, the map and the value 1 */
  cr_assert_eq(wire_doc_node_count(d), 4);
  uint8_t *txt;
  size_t tl;
  cr_assert_eq(wire_notation_print(ctx, d, l, 0, &txt, &tl),
               WIRE_OK);
  cr_assert_null(strstr((const char *)txt, "\"ref\""), "%s", txt);
  cr_assert_null(strstr((const char *)txt, "anchor"), "%s", txt);
  wire_ctx_free_bytes(ctx, txt);
  expect_doc(d, "01ff160302fdfdfd01ff1802120aff0502");
  wire_doc_free(d);
  free(b);
}

typedef struct {
  size_t lines;
  uint64_t last_end;
  bool ordered;
  bool saw_bool;
} dump_state;

static void on_line(void *user, uint64_t offset, uint64_t length,
                    uint32_t depth, const char *text) {
  dump_state *s = user;
  (void)depth;
  if (offset < s->last_end && length) s->ordered = false;
  if (offset + length > s->last_end) s->last_end = offset + length;
  if (strstr(text, "bool true")) s->saw_bool = true;
  s->lines++;
}

Test(decode, dump_describes_every_byte_in_order) {
  size_t n;
  uint8_t *b = unhex("01ff0101" "01ff160208070204", &n);
  dump_state s = {0, 0, true, false};
  cr_assert_eq(wire_dump(ctx, b, n, on_line, &s), WIRE_OK);
  cr_assert_geq(s.lines, 8);
  cr_assert(s.ordered);
  cr_assert(s.saw_bool);
  cr_assert_eq(s.last_end, n, "dump covers %llu of %zu bytes",
               (unsigned long long)s.last_end, n);
  free(b);
}

Test(decode, dump_returns_the_decode_error) {
  size_t n;
  uint8_t *b = unhex("01ff0102", &n);
  dump_state s = {0, 0, true, false};
  cr_assert_eq(wire_dump(ctx, b, n, on_line, &s), WIRE_E_VALUE);
  cr_assert_eq(wire_ctx_error_offset(ctx), 3);
  free(b);
}

/* ---- lossless ------------------------------------------------------------ */

/* Decode -> encode must give back the input byte for byte. */
static const char *const lossless_payloads[] = {
    "01fd", "01ff0101", "01ff0100", "01ff0700", "01ff070e", "01ff07d704",
    "01ff07808080808040", "01ff07ffffffffffffffffff",
    "01ff140000000000000440", "01ff14000000000000f07f",
    "01ff140000000000000080", "01ff151468656c6c6f", "01ff1519e5652c679e8a",
    "01ff1516f09f988078", "01ff15196100e900e565", "01ff1500",
    "01ff15a00161616161616161616161616161616161616161616161616161616161616161"
    "616161616161616161",
    "01ff290200ff", "01ff2900", "01ff160402ff0702ff150461fdff140000000000000440",
    "01ff16020816020807020401080706", "01ff1603081504780479047a",
    "01ff180200021507046102046204", "01ff180211ff1504610aff150462",
    "01ff18020001071502047800011507047904",
    "01ff180100011518046b0100011516046e01080101", "01ff1702081504620461",
    "01ff2701", "01ff2794a802", "01ff2800210000000000000040",
    "01ff280027000000000000000040", "01ff28023a", "01ff2804e48103",
    "01ff280000", "01ff196501", "01ff1a06010c8c70080389cb744000",
    "01ff16020819650002", "01ff2e0c01000000ffffffff07000000",
    "01ff3810000000000000e03f000000000000d0bf", "01ff3504003c007c",
    "01ff2b0101", "01ff16010830020102", "01ff2580c60ae8030000",
    "01ff2680436d380000000000000000", "01ff16020a24fdfd",
    "01ff1801000115160478010a24fd",
    "01ff1602000702160200070416020007061601080708", "01ff16020a07ff02fd",
    "01ff16020a15fdff0461", "01ff160208160108070201080702",
    "01ff160208160001080702", "01ff1801000115160461020a07ff02fd",
    "01ff16020818010001150704610200",
    "01ff160602ff0702ff0704ff0706ff150478fdff16010a24fd",
    "01ff180300030707000002020404", "01ff16020829000178",
    "01ff1602081511e5652c670461",
    "01ff1603001a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11d808ab4304c008"
    "0389cb7440011a0305001a002c02c5f778f16b8c465e222c4a71a35ac1e24e01823e72"
    "368892641a36bb6e00",
    "01ff180100011a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11d808ab4304c0"
    "080389cb74401a002c02c5f778f16b8c465e222c4a71a35ac1e24e01823e7236889264"
    "1a36bb6e0100",
    /* pyfory fixed-type scalars */
    "01ff02ff", "01ff03feff", "01ff04fdffffff", "01ff0501",
    "01ff06fcffffffffffffff", "01ff08010000004000000000", "01ff08f6ffffff",
    "01ff09ff", "01ff0affff", "01ff0bffffffff", "01ff0cac02",
    "01ff0dffffffffffffffff", "01ff0e808080808080808001", "01ff0ffeffffff",
    "01ff0f010000008000000000", "01ff11003e", "01ff12c03f", "01ff130000c03f",
    "01ff24",
    /* pyfory ref=True */
    "0100160209160001080702fe01", "010016010916fe00",
    "010016020918000100011507046b02fe01",
    "0100180208021516046100010807020462fe01", "010015086869", "0100070a",
    "0100160208070204",
    /* Java fory-core 1.6.0 (conformance/peers/java/PROBES.md) */
    "01ff151a61c3a9e697a5", "01ff151661f09f9880", "01ff15226162636465e697a5",
    "01ff15316100620063006400e900e565", "01ff160302ff0702ff150461fd",
    "01ff18010aff0702", "01ff180111ff150461", "01ff180112",
    "01ff1802000115070461020001151504620478", "0100170108150461",
    "0100180100011507046102", "01ff2800fcffffffffffffffff",
    "01ff2800feffffffffffffffff", "01ff2800230100000000000040",
    "01ff280502", "01ff25010065cd1d", "01ff26640000000000000000000000",
};

Test(lossless, decode_then_encode_reproduces_the_input) {
  size_t count = sizeof lossless_payloads / sizeof *lossless_payloads;
  cr_assert_geq(count, 20);
  for (size_t i = 0; i < count; i++) {
    uint8_t *b;
    wire_doc *d = decode_hex(lossless_payloads[i], &b);
    expect_doc(d, lossless_payloads[i]);
    wire_doc_free(d);
    free(b);
  }
}

Test(lossless, all_payloads_as_one_multi_root_input) {
  size_t count = sizeof lossless_payloads / sizeof *lossless_payloads, total = 0;
  for (size_t i = 0; i < count; i++) total += strlen(lossless_payloads[i]);
  char *all = malloc(total + 1);
  all[0] = 0;
  for (size_t i = 0; i < count; i++) strcat(all, lossless_payloads[i]);
  uint8_t *b;
  wire_doc *d = decode_hex(all, &b);
  cr_assert_eq(wire_doc_root_count(d), count);
  expect_doc(d, all);
  wire_doc_free(d);
  free(b);
  free(all);
}

Test(lossless, reencoding_does_not_change_the_document) {
  uint8_t *b;
  wire_doc *d = decode_hex("0100160209160001080702fe01", &b);
  expect_doc(d, "0100160209160001080702fe01");
  expect_doc(d, "0100160209160001080702fe01");
  wire_doc_free(d);
  free(b);
}

/* ---- references ---------------------------------------------------------- */

Test(refs, shared_value_decodes_to_one_node) {
  uint8_t *b;
  /* pyfory ref=True: l = [1]; [l, l] */
  wire_doc *d = decode_hex("0100160209160001080702fe01", &b);
  wire_node *outer = root0(d);
  cr_assert_eq(wire_node_count(outer), 2);
  wire_node *a = wire_node_child(outer, 0), *c = wire_node_child(outer, 1);
  cr_assert_eq(a, c, "both elements are the same node");
  cr_assert_eq(wire_node_type(a), WIRE_T_LIST);
  cr_assert_eq(wire_node_count(a), 1);
  cr_assert_eq(wire_node_int(wire_node_child(a, 0)), 1);
  cr_assert_eq(wire_node_tracked(outer), 1);
  cr_assert_eq(wire_node_tracked(a), 1);
  wire_doc_free(d);
  free(b);
}

Test(refs, cycle_decodes_to_a_self_reference) {
  uint8_t *b;
  /* pyfory ref=True: l = []; l.append(l) */
  wire_doc *d = decode_hex("010016010916fe00", &b);
  wire_node *l = root0(d);
  cr_assert_eq(wire_node_count(l), 1);
  cr_assert_eq(wire_node_child(l, 0), l);
  wire_doc_free(d);
  free(b);
}

Test(refs, shared_map_decodes_to_one_node) {
  uint8_t *b;
  wire_doc *d = decode_hex("010016020918000100011507046b02fe01", &b);
  wire_node *l = root0(d);
  cr_assert_eq(wire_node_child(l, 0), wire_node_child(l, 1));
  cr_assert_eq(wire_node_type(wire_node_child(l, 0)), WIRE_T_MAP);
  wire_doc_free(d);
  free(b);
}

Test(refs, built_cycle_encodes_like_pyfory_with_ref_tracking) {
  cr_assert_eq(wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, 1), WIRE_OK);
  cr_assert_eq(wire_ctx_get_option(ctx, WIRE_OPT_REF_TRACKING), 1);
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, l);
  expect_root(l, "010016010916fe00");
}

Test(refs, built_shared_list_encodes_like_pyfory_with_ref_tracking) {
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, 1);
  wire_node *outer = wire_node_new_list(doc, WIRE_T_LIST);
  wire_node *inner = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, inner, i64(doc, 1));
  append(doc, outer, inner);
  append(doc, outer, inner);
  expect_root(outer, "0100160209160001080702fe01");
}

Test(refs, ref_tracking_flags_every_root) {
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, 1);
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, i64(doc, 1));
  append(doc, l, i64(doc, 2));
  cr_assert_eq(wire_doc_add_root(doc, i64(doc, 5)), WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, str(doc, "hi")), WIRE_OK);
  cr_assert_eq(wire_doc_add_root(doc, l), WIRE_OK);
  /* pyfory ref=True: 5, "hi", [1, 2] */
  expect_doc(doc, "0100070a" "010015086869" "0100160208070204");
}

Test(refs, shared_value_without_tracking_is_written_twice) {
  wire_node *outer = wire_node_new_list(doc, WIRE_T_LIST);
  wire_node *inner = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, inner, i64(doc, 1));
  append(doc, outer, inner);
  append(doc, outer, inner);
  expect_root(outer, "01ff160208160108070201080702"); /* pyfory ref=False */
}

Test(refs, cycle_without_tracking_fails_instead_of_recursing_forever) {
  wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
  append(doc, l, l);
  cr_assert_eq(wire_doc_add_root(doc, l), WIRE_OK);
  uint8_t *out = (uint8_t *)"x";
  size_t n = 7;
  int32_t st = wire_encode(ctx, doc, &out, &n);
  cr_assert_eq(st, WIRE_E_DEPTH, "status %s", wire_status_name(st));
  cr_assert_null(out);
  cr_assert_eq(n, 0);
}

Test(refs, reference_to_an_unknown_id_is_rejected) {
  size_t n;
  uint8_t *b = unhex("010016010916fe01", &n);
  wire_doc *d = (wire_doc *)1;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_E_REF);
  cr_assert_null(d);
  cr_assert_eq(wire_ctx_error_offset(ctx), 6);
  free(b);
}

Test(refs, ref_flags_need_a_tracking_header) {
  /* List header 02 (nulls, no ref tracking): elements carry null/not-null
   * flags only, so the ref-value flag 00 is invalid. */
  size_t n;
  uint8_t *b = unhex("01ff160102000702", &n);
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_E_REF);
  cr_assert_eq(wire_ctx_error_offset(ctx), 5);
  free(b);
}

/* ---- errors carry a code and a byte offset ------------------------------ */

typedef struct {
  const char *hex;
  int32_t code;
  uint64_t offset;
  const char *why;
} bad;

static const bad bad_payloads[] = {
    {"", WIRE_E_TRUNCATED, 0, "empty input"},
    {"02ff0101", WIRE_E_HEADER, 0, "header without the xlang bit"},
    {"0dff0101", WIRE_E_HEADER, 0, "reserved header bits"},
    {"03ff2900", WIRE_E_TRUNCATED, 3, "out-of-band binary, no buffer given"},
    {"01", WIRE_E_TRUNCATED, 1, "header only"},
    {"01ff07", WIRE_E_TRUNCATED, 3, "varint64 missing"},
    {"01ff0780", WIRE_E_TRUNCATED, 3, "varint64 cut"},
    {"01ff078000", WIRE_E_VARINT, 3, "overlong varint64"},
    {"01ff0102", WIRE_E_VALUE, 3, "bool byte 2"},
    {"01ff3f", WIRE_E_TYPE, 2, "type id 63 is undefined"},
    {"01ff00", WIRE_E_TYPE, 2, "type id 0"},
    {"01ff10", WIRE_E_TYPE, 2, "float8 is not allowed"},
    {"01fe00", WIRE_E_REF, 1, "reference with nothing to refer to"},
    {"01fc", WIRE_E_REF, 1, "ref flag 0xfc"},
    {"01ff150b41", WIRE_E_STRING, 3, "string encoding 3"},
    {"01ff1505e9", WIRE_E_STRING, 3, "UTF-16 of odd length"},
    {"01ff150ac080", WIRE_E_STRING, 4, "overlong UTF-8 text"},
    {"01ff150a61", WIRE_E_TRUNCATED, 4, "string cut"},
    {"01ff28000501", WIRE_E_DECIMAL, 4, "big decimal form for 1"},
    {"01ff25000000ca9a3b", WIRE_E_VALUE, 4, "duration nanos 1e9"},
    {"01ff2b0102", WIRE_E_VALUE, 4, "bool array byte 2"},
    {"01ff2e0301", WIRE_E_LENGTH, 3, "int32 array of 3 bytes"},
    {"01ff160140", WIRE_E_COLLECTION, 4, "list element header 0x40"},
    {"01ff18014000", WIRE_E_COLLECTION, 4, "map chunk header 0x40"},
    {"01ff1801000207150461020462", WIRE_E_COLLECTION, 5,
     "chunk of 2 in a 1-entry map"},
    {"01ff18ffffffff0f", WIRE_E_LIMIT, 3, "map larger than the limit"},
    {"01ff0101" "00", WIRE_E_HEADER, 4, "bad second root"},
    {"01ff0101" "01ff0780", WIRE_E_TRUNCATED, 7, "second root cut"},
    {"01ff1a00020a0c8c70", WIRE_E_META_STRING, 5, "meta string encoding 10"},
    {"01ff1a0303", WIRE_E_META_STRING, 3, "meta string reference to nothing"},
    {"01ff16904e0824", WIRE_E_LIMIT, 3, "10000 NONE elements from 2 bytes"},
    {"01ff15fcffffffff", WIRE_E_LIMIT, 3, "string longer than the limit"},
    {"01ff15800061", WIRE_E_VARINT, 3, "overlong string header"},
    {"01ff180100000715", WIRE_E_COLLECTION, 5, "map chunk of size 0"},
    {"01ff160108", WIRE_E_TRUNCATED, 5, "element type missing"},
};

Test(errors, invalid_inputs_report_code_and_offset) {
  for (size_t i = 0; i < sizeof bad_payloads / sizeof *bad_payloads; i++) {
    const bad *c = &bad_payloads[i];
    size_t n;
    uint8_t *b = unhex(c->hex, &n);
    wire_doc *d = (wire_doc *)b; /* must be reset to NULL */
    int32_t st = wire_decode(ctx, b, n, &d);
    cr_assert_eq(st, c->code, "%s (%s): %s, want %s (%s)", c->why, c->hex,
                 wire_status_name(st), wire_status_name(c->code),
                 wire_ctx_error_message(ctx));
    cr_assert_null(d, "%s", c->why);
    cr_assert_eq(wire_ctx_error_code(ctx), c->code, "%s", c->why);
    cr_assert_eq(wire_ctx_error_offset(ctx), c->offset,
                 "%s (%s): offset %llu, want %llu (%s)", c->why, c->hex,
                 (unsigned long long)wire_ctx_error_offset(ctx),
                 (unsigned long long)c->offset, wire_ctx_error_message(ctx));
    cr_assert_gt(strlen(wire_ctx_error_message(ctx)), 0, "%s", c->why);
    free(b);
  }
}

Test(errors, context_decodes_correctly_after_a_failure) {
  size_t n;
  uint8_t *bad_in = unhex("01ff1603081504780479", &n); /* 3rd string missing */
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, bad_in, n, &d), WIRE_E_TRUNCATED);
  free(bad_in);
  uint8_t *b;
  d = decode_hex("01ff1603081504780479047a", &b);
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_OK, "error cleared by success");
  cr_assert_str_eq(wire_ctx_error_message(ctx), "");
  wire_node *l = root0(d);
  cr_assert_eq(wire_node_count(l), 3);
  uint8_t t[4];
  size_t tn;
  wire_node_string_utf8(wire_node_child(l, 2), t, sizeof t, &tn);
  cr_assert_eq(tn, 1);
  cr_assert_eq(t[0], 'z');
  expect_doc(d, "01ff1603081504780479047a");
  wire_doc_free(d);
  free(b);
}

Test(errors, failed_ref_decode_does_not_poison_the_next_one) {
  size_t n;
  uint8_t *b1 = unhex("0100160209160001080702fe05", &n);
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b1, n, &d), WIRE_E_REF);
  free(b1);
  uint8_t *b2;
  d = decode_hex("0100160209160001080702fe01", &b2);
  wire_node *l = root0(d);
  cr_assert_eq(wire_node_child(l, 0), wire_node_child(l, 1));
  wire_doc_free(d);
  free(b2);
}

Test(errors, clear_error_resets_code_offset_and_message) {
  size_t n;
  uint8_t *b = unhex("01ff0102", &n);
  wire_doc *d;
  wire_decode(ctx, b, n, &d);
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_VALUE);
  wire_ctx_clear_error(ctx);
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_OK);
  cr_assert_eq(wire_ctx_error_offset(ctx), 0);
  cr_assert_str_eq(wire_ctx_error_message(ctx), "");
  free(b);
}

Test(errors, status_names_are_pinned) {
  static const char *const names[] = {
      "ok",          "truncated",   "varint",      "header",   "ref",
      "type",        "string",      "length",      "depth",    "limit",
      "nomem",       "arg",         "meta_string", "decimal",  "value",
      "unsupported", "collection",  "notation",    "buffer_full", "state",
      "trailing"};
  cr_assert_geq(WIRE_STATUS_COUNT, 21);
  for (int32_t i = 0; i < (int32_t)(sizeof names / sizeof *names); i++)
    cr_assert_str_eq(wire_status_name(i), names[i], "status %d", i);
  for (int32_t i = 0; i < WIRE_STATUS_COUNT; i++) {
    cr_assert_str_neq(wire_status_name(i), "unknown", "status %d", i);
    cr_assert_gt(strlen(wire_status_message(i)), 0);
  }
  cr_assert_str_eq(wire_status_name(WIRE_STATUS_COUNT), "unknown");
  cr_assert_str_eq(wire_status_name(-1), "unknown");
}

Test(errors, type_names_round_trip) {
  for (uint32_t t = 0; t <= 56; t++) {
    const char *name = wire_type_name(t);
    cr_assert_not_null(name, "type %u", t);
    cr_assert_eq(wire_type_from_name(name, strlen(name)), (int32_t)t);
  }
  cr_assert_str_eq(wire_type_name(WIRE_T_VAR_UINT32), "var_uint32");
  cr_assert_str_eq(wire_type_name(WIRE_T_FLOAT16_ARRAY), "float16_array");
  cr_assert_str_eq(wire_type_name(WIRE_T_NULL), "null");
  cr_assert_null(wire_type_name(57));
  cr_assert_eq(wire_type_from_name("nope", 4), -1);
  cr_assert_eq(wire_type_array_width(WIRE_T_INT64_ARRAY), 8);
  cr_assert_eq(wire_type_array_width(WIRE_T_BFLOAT16_ARRAY), 2);
  cr_assert_eq(wire_type_array_width(WIRE_T_LIST), 0);
}

/* ---- limits ----------------------------------------------------------------
 */

/* `depth` nested single-element lists around the integer 1. */
static char *nested_hex(size_t depth) {
  char *h = malloc(4 + 6 * depth + 4 + 1);
  strcpy(h, "01ff");
  for (size_t i = 0; i < depth; i++) strcat(h, "160108");
  strcat(h, "0702");
  return h;
}

static int32_t decode_nested(size_t depth, wire_doc **out) {
  char *h = nested_hex(depth);
  size_t n;
  uint8_t *b = unhex(h, &n);
  free(h);
  int32_t st = wire_decode(ctx, b, n, out);
  /* No string or binary nodes inside: the bytes may go. */
  free(b);
  return st;
}

Test(limits, depth_limit_is_configurable) {
  cr_assert_eq(wire_ctx_get_limit(ctx, WIRE_LIMIT_DEPTH), 64);
  cr_assert_eq(wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH, 3), WIRE_OK);
  cr_assert_eq(wire_ctx_get_limit(ctx, WIRE_LIMIT_DEPTH), 3);
  wire_doc *d = NULL;
  cr_assert_eq(decode_nested(3, &d), WIRE_OK, "3 nested lists fit depth 3");
  wire_doc_free(d);
  cr_assert_eq(decode_nested(4, &d), WIRE_E_DEPTH,
               "4 nested lists exceed depth 3");
  cr_assert_null(d);
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_DEPTH);
}

Test(limits, default_depth_accepts_60_levels) {
  wire_doc *d = NULL;
  cr_assert_eq(decode_nested(60, &d), WIRE_OK, "%s",
               wire_ctx_error_message(ctx));
  wire_node *n = root0(d);
  for (int i = 0; i < 59; i++) n = wire_node_child(n, 0);
  cr_assert_eq(wire_node_type(n), WIRE_T_LIST);
  cr_assert_eq(wire_node_int(wire_node_child(n, 0)), 1);
  wire_doc_free(d);
}

Test(limits, default_depth_rejects_deep_nesting_without_crashing) {
  wire_doc *d = NULL;
  cr_assert_eq(decode_nested(100000, &d), WIRE_E_DEPTH);
}

Test(limits, encoder_honours_the_depth_limit) {
  wire_node *outer = wire_node_new_list(doc, WIRE_T_LIST), *cur = outer;
  for (int i = 0; i < 3; i++) {
    wire_node *l = wire_node_new_list(doc, WIRE_T_LIST);
    append(doc, cur, l);
    cur = l;
  }
  append(doc, cur, i64(doc, 1));
  cr_assert_eq(wire_doc_add_root(doc, outer), WIRE_OK);
  expect_doc(doc, "01ff1601081601081601081601080702");
  wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH, 3);
  uint8_t *out;
  size_t n;
  cr_assert_eq(wire_encode(ctx, doc, &out, &n), WIRE_E_DEPTH);
}

Test(limits, invalid_limits_are_rejected) {
  cr_assert_eq(wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH, 0), WIRE_E_ARG);
  cr_assert_eq(wire_ctx_get_limit(ctx, WIRE_LIMIT_DEPTH), 64);
  cr_assert_eq(wire_ctx_set_limit(ctx, 99, 1), WIRE_E_ARG);
  cr_assert_eq(wire_ctx_set_option(ctx, 99, 1), WIRE_E_ARG);
}

Test(limits, binary_limit) {
  wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, 1);
  size_t n;
  uint8_t *b = unhex("01ff290200ff", &n);
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_E_LIMIT);
  cr_assert_eq(wire_ctx_error_offset(ctx), 3);
  free(b);
}

Test(limits, collection_limit) {
  wire_ctx_set_limit(ctx, WIRE_LIMIT_COLLECTION, 2);
  size_t n;
  uint8_t *b = unhex("01ff1603081504780479047a", &n);
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_E_LIMIT);
  free(b);
}

Test(limits, node_limit) {
  wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 3);
  size_t n;
  uint8_t *b = unhex("01ff1603081504780479047a", &n); /* 4 nodes */
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_E_LIMIT);
  free(b);
}

Test(limits, root_limit) {
  wire_ctx_set_limit(ctx, WIRE_LIMIT_ROOTS, 2);
  size_t n;
  uint8_t *b = unhex("01ff010101ff010101ff0101", &n);
  wire_doc *d;
  cr_assert_eq(wire_decode(ctx, b, n, &d), WIRE_E_LIMIT);
  cr_assert_eq(wire_ctx_error_offset(ctx), 8);
  free(b);
}

/* ---- allocator ------------------------------------------------------------ */

/* A malloc-backed allocator that counts live blocks, checks the sizes the
 * library reports back, and can make the N-th allocation (malloc or
 * realloc) fail. */
typedef struct {
  size_t live, live_bytes, events, fail_at, mismatches;
  bool failed;
} counter;

typedef struct {
  size_t size;
  size_t pad; /* keeps 16-byte alignment */
} hdr;

static void *c_malloc(void *u, size_t n) {
  counter *c = u;
  c->events++;
  if (c->fail_at && c->events == c->fail_at) {
    c->failed = true;
    return NULL;
  }
  hdr *h = malloc(sizeof *h + n);
  if (!h) return NULL;
  h->size = n;
  c->live++;
  c->live_bytes += n;
  return h + 1;
}
static void *c_realloc(void *u, void *p, size_t old, size_t n) {
  counter *c = u;
  c->events++;
  if (c->fail_at && c->events == c->fail_at) {
    c->failed = true;
    return NULL;
  }
  hdr *h = (hdr *)p - 1;
  if (h->size != old) c->mismatches++;
  size_t was = h->size;
  hdr *nh = realloc(h, sizeof *nh + n);
  if (!nh) return NULL;
  nh->size = n;
  c->live_bytes = c->live_bytes - was + n;
  return nh + 1;
}
static void c_free(void *u, void *p, size_t n) {
  counter *c = u;
  if (!p) return;
  hdr *h = (hdr *)p - 1;
  if (h->size != n) c->mismatches++;
  c->live--;
  c->live_bytes -= h->size;
  free(h);
}

static wire_ctx *counted_ctx(counter *c) {
  return wire_ctx_new_with_allocator(c_malloc, c_realloc, c_free, c);
}

Test(alloc, every_allocation_goes_through_the_allocator_and_is_freed) {
  counter c = {0};
  wire_ctx *x = counted_ctx(&c);
  cr_assert_not_null(x);
  cr_assert_eq(c.live, 1, "the context itself is allocated through it");
  const char *h = "0100160209160001080702fe01";
  size_t n;
  uint8_t *in = unhex(h, &n);
  wire_doc *d;
  cr_assert_eq(wire_decode(x, in, n, &d), WIRE_OK);
  cr_assert_gt(c.live, 1);
  uint8_t *out;
  size_t outlen;
  cr_assert_eq(wire_encode(x, d, &out, &outlen), WIRE_OK);
  cr_assert_eq(outlen, n);
  cr_assert_arr_eq(out, in, n);
  /* The context keeps one freed output block for its next encode (no
   * allocator call per message); a second one is released. */
  uint8_t *out2;
  cr_assert_eq(wire_encode(x, d, &out2, &outlen), WIRE_OK);
  size_t before = c.live;
  wire_ctx_free_bytes(x, out);
  cr_assert_eq(c.live, before, "free_bytes keeps one block for reuse");
  wire_ctx_free_bytes(x, out2);
  cr_assert_eq(c.live, before - 1, "free_bytes releases a second block");
  cr_assert_eq(wire_encode(x, d, &out, &outlen), WIRE_OK);
  cr_assert_eq(c.live, before - 1, "the next encode reuses the kept block");
  cr_assert_arr_eq(out, in, n);
  wire_ctx_free_bytes(x, out);
  wire_doc_free(d);
  uint8_t *text;
  size_t tl;
  cr_assert_eq(wire_string_to_utf8(x, WIRE_STR_UTF16,
                                   (const uint8_t *)"\xe5\x65\x2c\x67", 4,
                                   &text, &tl),
               WIRE_OK);
  wire_ctx_free_bytes(x, text);
  wire_writer *w = wire_writer_new(x, NULL, 0);
  for (int i = 0; i < 1000; i++) wire_write_varuint64(w, UINT64_MAX);
  wire_writer_free(w);
  wire_reader *r = wire_reader_new(x, in, n);
  wire_reader_free(r);
  wire_ctx_free(x);
  cr_assert_eq(c.live, 0, "%zu block(s) leaked", c.live);
  cr_assert_eq(c.live_bytes, 0);
  cr_assert_eq(c.mismatches, 0, "free/realloc got a wrong size %zu time(s)",
               c.mismatches);
  free(in);
}

Test(alloc, builders_and_encoder_use_the_allocator) {
  counter c = {0};
  wire_ctx *x = counted_ctx(&c);
  wire_ctx_set_option(x, WIRE_OPT_REF_TRACKING, 1);
  wire_doc *d = wire_doc_new(x);
  wire_node *l = wire_node_new_list(d, WIRE_T_LIST);
  for (int i = 0; i < 2000; i++) {
    char s[32];
    snprintf(s, sizeof s, "element %d é", i);
    cr_assert_eq(wire_list_append(d, l, wire_node_new_string(
                                            d, (const uint8_t *)s, strlen(s),
                                            -1)),
                 WIRE_OK);
  }
  wire_node *e = wire_node_new_named_enum(d, (const uint8_t *)"a.b", 3,
                                          (const uint8_t *)"Color", 5, 1);
  cr_assert_eq(wire_list_append(d, l, e), WIRE_OK);
  cr_assert_eq(wire_list_append(d, l, l), WIRE_OK);
  cr_assert_eq(wire_doc_add_root(d, l), WIRE_OK);
  uint8_t *out;
  size_t n;
  cr_assert_eq(wire_encode(x, d, &out, &n), WIRE_OK);
  wire_doc *back;
  cr_assert_eq(wire_decode(x, out, n, &back), WIRE_OK);
  cr_assert_eq(wire_node_count(wire_doc_root(back, 0)), 2002);
  wire_doc_free(back);
  wire_ctx_free_bytes(x, out);
  wire_doc_free(d);
  wire_ctx_free(x);
  cr_assert_eq(c.live, 0, "%zu block(s) leaked", c.live);
  cr_assert_eq(c.mismatches, 0);
}

/* A payload that exercises every allocation site of the decoder and the
 * encoder: many nodes (several arena blocks), references (the ref table),
 * meta strings with hashes and references (the meta string tables), strings,
 * maps with chunks, and an output buffer that has to grow. */
static char *nested_payload(void) {
  static const char *const parts[] = {
      "01ff1603001a2601b87bc69a10f06e3a26d01e011c9a2ba38d048d11d808ab4304c008"
      "0389cb7440011a0305001a002c02c5f778f16b8c465e222c4a71a35ac1e24e01823e72"
      "368892641a36bb6e00",
      "0100180208021516046100010807020462fe01",
      "010016010916fe00",
      "01ff180100011518046b0100011516046e01080101",
      "01ff1602000702160200070416020007061601080708",
  };
  size_t cap = 4096 + 2 * 600;
  char *h = malloc(cap);
  h[0] = 0;
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) strcat(h, parts[i]);
  /* a list of 300 varint64 1s: 01 ff 16 ac02 08 07 then 300 x 02 */
  strcat(h, "01ff16ac020807");
  for (int i = 0; i < 300; i++) strcat(h, "02");
  return h;
}

Test(alloc, decode_and_encode_fail_cleanly_at_every_allocation) {
  char *h = nested_payload();
  size_t n;
  uint8_t *in = unhex(h, &n);
  free(h);
  size_t decode_failures = 0, encode_failures = 0;
  bool finished = false;
  for (size_t k = 1; k < 100000 && !finished; k++) {
    counter c = {0};
    c.fail_at = k;
    wire_ctx *x = counted_ctx(&c);
    if (!x) {
      cr_assert(c.failed);
      cr_assert_eq(c.live, 0);
      continue;
    }
    wire_doc *d = (wire_doc *)in;
    int32_t st = wire_decode(x, in, n, &d);
    if (st != WIRE_OK) {
      cr_assert(c.failed, "allocation %zu: decode failed (%s) without an "
                          "allocation failure", k, wire_status_name(st));
      cr_assert_eq(st, WIRE_E_NOMEM, "allocation %zu failed in decode: status "
                                     "%s (%s)", k, wire_status_name(st),
                   wire_ctx_error_message(x));
      cr_assert_eq(wire_ctx_error_code(x), WIRE_E_NOMEM, "allocation %zu", k);
      cr_assert_null(d);
      decode_failures++;
    } else {
      cr_assert_not_null(d);
      uint8_t *out = (uint8_t *)in;
      size_t outlen = 99;
      st = wire_encode(x, d, &out, &outlen);
      if (st != WIRE_OK) {
        cr_assert(c.failed, "allocation %zu: encode failed (%s) without an "
                            "allocation failure", k, wire_status_name(st));
        cr_assert_eq(st, WIRE_E_NOMEM, "allocation %zu failed in encode: "
                                       "status %s (%s)", k,
                     wire_status_name(st), wire_ctx_error_message(x));
        cr_assert_null(out);
        encode_failures++;
      } else {
        cr_assert_eq(outlen, n, "allocation %zu", k);
        cr_assert_arr_eq(out, in, n, "allocation %zu: output differs", k);
        wire_ctx_free_bytes(x, out);
        cr_assert(!c.failed, "allocation %zu failed but decode and encode "
                             "both succeeded", k);
        finished = true;
      }
      wire_doc_free(d);
    }
    wire_ctx_free(x);
    cr_assert_eq(c.live, 0, "allocation %zu failed: %zu block(s) leaked", k,
                 c.live);
    cr_assert_eq(c.mismatches, 0, "allocation %zu: wrong free size", k);
  }
  cr_assert(finished, "never got through without a failure");
  cr_assert_gt(decode_failures, 3, "decode allocation sites: %zu",
               decode_failures);
  /* the output block, the TypeDef and reference tables (the context keeps
   * them for the next call, so only a fresh context allocates them) */
  cr_assert_geq(encode_failures, 3, "encode allocation sites: %zu",
                encode_failures);
  free(in);
}

Test(alloc, builders_fail_cleanly_at_every_allocation) {
  bool finished = false;
  for (size_t k = 1; k < 10000 && !finished; k++) {
    counter c = {0};
    c.fail_at = k;
    wire_ctx *x = counted_ctx(&c);
    if (!x) continue;
    wire_doc *d = wire_doc_new(x);
    bool ok = d != NULL;
    if (ok) {
      wire_node *l = wire_node_new_list(d, WIRE_T_LIST);
      ok = l != NULL;
      for (int i = 0; ok && i < 600; i++) {
        wire_node *s = wire_node_new_string(d, (const uint8_t *)"日本", 6, -1);
        ok = s && wire_list_append(d, l, s) == WIRE_OK;
      }
      wire_node *m = ok ? wire_node_new_map(d) : NULL;
      ok = ok && m;
      for (int i = 0; ok && i < 100; i++) {
        wire_node *kk = wire_node_new_int(d, WIRE_T_INT32, i);
        wire_node *vv = wire_node_new_named_enum(
            d, (const uint8_t *)"ns", 2, (const uint8_t *)"Name", 4, 0);
        ok = kk && vv && wire_map_put(d, m, kk, vv) == WIRE_OK;
      }
      ok = ok && wire_list_append(d, l, m) == WIRE_OK &&
           wire_doc_add_root(d, l) == WIRE_OK;
      if (!ok)
        cr_assert_eq(wire_ctx_error_code(x), WIRE_E_NOMEM,
                     "allocation %zu: builder error %s", k,
                     wire_status_name(wire_ctx_error_code(x)));
      wire_doc_free(d);
    }
    if (ok) {
      cr_assert(!c.failed, "allocation %zu failed but every builder "
                           "succeeded", k);
      finished = true;
    } else {
      cr_assert(c.failed, "allocation %zu: failure without cause", k);
    }
    wire_ctx_free(x);
    cr_assert_eq(c.live, 0, "allocation %zu: %zu block(s) leaked", k, c.live);
    cr_assert_eq(c.mismatches, 0);
  }
  cr_assert(finished);
}

Test(alloc, string_to_utf8_reports_nomem) {
  counter c = {0};
  wire_ctx *x = counted_ctx(&c);
  c.fail_at = c.events + 1;
  uint8_t *out = (uint8_t *)"x";
  cr_assert_eq(wire_string_to_utf8(x, WIRE_STR_LATIN1, (const uint8_t *)"ab",
                                   2, &out, NULL),
               WIRE_E_NOMEM);
  cr_assert_null(out);
  wire_ctx_free(x);
  cr_assert_eq(c.live, 0);
}

Test(alloc, context_creation_failure_returns_null) {
  counter c = {0};
  c.fail_at = 1;
  cr_assert_null(counted_ctx(&c));
  cr_assert_eq(c.live, 0);
  cr_assert_null(wire_ctx_new_with_allocator(NULL, c_realloc, c_free, &c));
}
