/* test_metastring.c - meta strings (namespaces, type names, field names):
 * the encoding the runtimes choose per context, the 5/6-bit packings, the
 * strip-last-char flag and the canonical-form checks of the decoder. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "wire.h"

TestSuite(choose);
TestSuite(encode);
TestSuite(decode);

#define NS WIRE_MSCTX_NAMESPACE
#define TN WIRE_MSCTX_TYPE_NAME
#define FN WIRE_MSCTX_FIELD_NAME

static int32_t choose_enc(int32_t msctx, const char *s) {
  return wire_meta_choose_encoding(msctx, (const uint8_t *)s, strlen(s));
}

/* ---- encoding choice --------------------------------------------------- */

typedef struct {
  int32_t msctx;
  const char *s;
  int32_t enc;
} choice;

static void check_choices(const choice *k, size_t n) {
  static const char *const ctxname[] = {"namespace", "type name",
                                        "field name"};
  for (size_t i = 0; i < n; i++) {
    int32_t got = choose_enc(k[i].msctx, k[i].s);
    cr_assert_eq(got, k[i].enc, "%s \"%s\": %d (%s), want %d (%s)",
                 ctxname[k[i].msctx], k[i].s, got,
                 got >= 0 ? wire_meta_encoding_name(got) : "-", k[i].enc,
                 wire_meta_encoding_name(k[i].enc));
  }
}

Test(choose, type_names) {
  static const choice k[] = {
      {TN, "Color", WIRE_MS_FIRST_TO_LOWER_SPECIAL},
      {TN, "A", WIRE_MS_FIRST_TO_LOWER_SPECIAL},
      {TN, "Abc", WIRE_MS_FIRST_TO_LOWER_SPECIAL},
      /* lower case only: LOWER_SPECIAL is not in the runtimes' type-name
       * list, so the next best is chosen */
      {TN, "color", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {TN, "a$b", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {TN, "a_b", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {TN, "helloWorld", WIRE_MS_ALL_TO_LOWER_SPECIAL}, /* (10+1)*5 < 60 */
      {TN, "HelloWorld", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL}, /* 60 !< 60 */
      {TN, "MyStruct", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {TN, "MyStruct1", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL}, /* digit */
      {TN, "abc1", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {TN, "ABC", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {TN, "Foo_Bar$x", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {TN, "a.b", WIRE_MS_UTF8}, /* '.' is not a type-name special */
      {TN, "a-b", WIRE_MS_UTF8},
      {TN, "日本", WIRE_MS_UTF8},
      {TN, "", WIRE_MS_UTF8},
  };
  check_choices(k, sizeof k / sizeof *k);
}

Test(choose, namespaces) {
  static const choice k[] = {
      {NS, "a.b", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {NS, "demo", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {NS, "com.example", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {NS, "a_b", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      /* FIRST_TO_LOWER_SPECIAL is a type-name-only encoding */
      {NS, "Abc", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {NS, "Abcdef", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {NS, "v1.api", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {NS, "Ab.c_9", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {NS, "a$b", WIRE_MS_UTF8}, /* '$' is not a namespace special */
      {NS, "a/b", WIRE_MS_UTF8},
      {NS, "日本", WIRE_MS_UTF8},
      {NS, "", WIRE_MS_UTF8},
  };
  check_choices(k, sizeof k / sizeof *k);
}

Test(choose, field_names) {
  static const choice k[] = {
      {FN, "user_name", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {FN, "userName", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      {FN, "x$y", WIRE_MS_ALL_TO_LOWER_SPECIAL},
      /* no FIRST_TO_LOWER_SPECIAL for field names */
      {FN, "Name", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {FN, "field1", WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL},
      {FN, "a.b", WIRE_MS_UTF8},
      {FN, "", WIRE_MS_UTF8},
  };
  check_choices(k, sizeof k / sizeof *k);
}

Test(choose, lower_special_is_never_chosen) {
  static const char *const lows[] = {"a", "demo", "a.b", "a_b", "x$y",
                                     "abc.def_ghi"};
  for (int c = 0; c < 3; c++)
    for (size_t i = 0; i < sizeof lows / sizeof *lows; i++)
      cr_assert_neq(choose_enc(c, lows[i]), WIRE_MS_LOWER_SPECIAL,
                    "context %d \"%s\"", c, lows[i]);
}

Test(choose, invalid_input_is_not_a_meta_string) {
  cr_assert_eq(wire_meta_choose_encoding(TN, (const uint8_t *)"\xc0\x80", 2),
               -1, "invalid UTF-8");
  cr_assert_eq(wire_meta_choose_encoding(3, (const uint8_t *)"a", 1), -1,
               "unknown context");
  static char big[32768];
  memset(big, 'a', sizeof big);
  cr_assert_eq(wire_meta_choose_encoding(TN, (const uint8_t *)big, 32767), -1,
               "32767 chars is over the limit");
}

Test(choose, encoding_names) {
  cr_assert_str_eq(wire_meta_encoding_name(WIRE_MS_UTF8), "utf8");
  cr_assert_str_eq(wire_meta_encoding_name(WIRE_MS_LOWER_SPECIAL),
                   "lower_special");
  cr_assert_str_eq(wire_meta_encoding_name(WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL),
                   "luds");
  cr_assert_str_eq(wire_meta_encoding_name(WIRE_MS_FIRST_TO_LOWER_SPECIAL),
                   "first_to_lower_special");
  cr_assert_str_eq(wire_meta_encoding_name(WIRE_MS_ALL_TO_LOWER_SPECIAL),
                   "all_to_lower_special");
  cr_assert_null(wire_meta_encoding_name(5));
  cr_assert_null(wire_meta_encoding_name(-1));
}

/* ---- exact bytes ------------------------------------------------------- */

/* Every row below was printed by pyfory 1.7.7:
 *   from pyfory.meta.metastring import MetaStringEncoder, Encoding
 *   MetaStringEncoder(".", "_")   # namespaces
 *   MetaStringEncoder("$", "_")   # type and field names
 *   enc.encode_with_encoding(text, Encoding.X).encoded_data.hex()
 * (and enc.encode(text, TYPE_NAME_ENCODINGS / NAMESPACE_ENCODINGS from
 * pyfory.meta.typedef chose the same encoding as the row, except that
 * pyfory has no namespace rule against FIRST_TO_LOWER_SPECIAL). */
typedef struct {
  int32_t msctx;
  int32_t enc;
  const char *s;
  size_t n;
  uint8_t b[32];
} vec;

static const vec pyfory_vectors[] = {
    {NS, WIRE_MS_ALL_TO_LOWER_SPECIAL, "demo", 3, {0x0c, 0x8c, 0x70}},
    {TN, WIRE_MS_FIRST_TO_LOWER_SPECIAL, "Color", 4, {0x89, 0xcb, 0x74, 0x40}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "color", 4, {0x89, 0xcb, 0x74, 0x40}},
    {TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "MyStruct1", 7,
     {0x4c, 0xc5, 0x89, 0xa2, 0xa0, 0x49, 0xea}},
    {TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "MyStruct", 7,
     {0xcc, 0xc5, 0x89, 0xa2, 0xa0, 0x49, 0x80}},
    {NS, WIRE_MS_ALL_TO_LOWER_SPECIAL, "a.b", 2, {0x03, 0x41}},
    {NS, WIRE_MS_ALL_TO_LOWER_SPECIAL, "com.example", 7,
     {0x09, 0xcc, 0xd1, 0x2e, 0x06, 0x3d, 0x64}},
    {NS, WIRE_MS_ALL_TO_LOWER_SPECIAL, "org.apache.fory", 10,
     {0x3a, 0x26, 0xd0, 0x1e, 0x01, 0x1c, 0x9a, 0x2b, 0xa3, 0x80}},
    {NS, WIRE_MS_ALL_TO_LOWER_SPECIAL, "org.apache.fory.benchmark.data", 19,
     {0x3a, 0x26, 0xd0, 0x1e, 0x01, 0x1c, 0x9a, 0x2b, 0xa3, 0x8d, 0x04, 0x8d,
      0x11, 0xd8, 0x08, 0xab, 0x43, 0x04, 0xc0}},
    {TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "Foo_Bar$x", 7,
     {0x3e, 0x71, 0xdf, 0xb6, 0x02, 0x3f, 0x2e}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "abcdefgh", 6,
     {0x80, 0x22, 0x19, 0x0a, 0x63, 0x80}},
    {TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "HelloWorld", 8,
     {0x42, 0x21, 0x65, 0x9d, 0x81, 0xc8, 0x96, 0x18}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "helloWorld", 7,
     {0x1c, 0x8b, 0x5b, 0xbb, 0x67, 0x45, 0x63}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "aB", 2, {0x03, 0xa1}},
    {FN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "user_name", 6,
     {0x52, 0x44, 0x8e, 0xda, 0x06, 0x10}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "a", 1, {0x00}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "ab", 2, {0x80, 0x20}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "abc", 2, {0x00, 0x22}},
    {TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "abcd", 3, {0x00, 0x22, 0x18}},
    {TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "abcd", 4,
     {0x80, 0x08, 0x41, 0x80}},
    {TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "ABC", 3, {0x34, 0xdb, 0x80}},
    {TN, WIRE_MS_FIRST_TO_LOWER_SPECIAL, "A", 1, {0x00}},
    {TN, WIRE_MS_FIRST_TO_LOWER_SPECIAL, "Abc", 2, {0x00, 0x22}},
    {NS, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "Ab.c_9", 5,
     {0x34, 0x0f, 0xc1, 0x7f, 0xe8}},
    {TN, WIRE_MS_LOWER_SPECIAL, "a.b_c$d|e", 6,
     {0x03, 0x41, 0xd8, 0xb8, 0x3e, 0x90}},
    {TN, WIRE_MS_UTF8, "日本", 6, {0xe6, 0x97, 0xa5, 0xe6, 0x9c, 0xac}},
};

static void hexs(const uint8_t *p, size_t n, char *out, size_t cap) {
  size_t o = 0;
  out[0] = 0;
  for (size_t i = 0; i < n && o + 3 < cap; i++)
    o += (size_t)snprintf(out + o, cap - o, "%02x", p[i]);
}

Test(encode, matches_pyfory_bytes) {
  for (size_t i = 0; i < sizeof pyfory_vectors / sizeof *pyfory_vectors; i++) {
    const vec *v = &pyfory_vectors[i];
    uint8_t out[64];
    size_t n = 0;
    int32_t st = wire_meta_encode(v->msctx, v->enc, (const uint8_t *)v->s,
                                  strlen(v->s), out, sizeof out, &n);
    cr_assert_eq(st, WIRE_OK, "\"%s\" as %s: status %s", v->s,
                 wire_meta_encoding_name(v->enc), wire_status_name(st));
    char got[80], want[80];
    hexs(out, n, got, sizeof got);
    hexs(v->b, v->n, want, sizeof want);
    cr_assert_eq(n, v->n, "\"%s\" as %s: %s, want %s", v->s,
                 wire_meta_encoding_name(v->enc), got, want);
    cr_assert_arr_eq(out, v->b, n, "\"%s\" as %s: %s, want %s", v->s,
                     wire_meta_encoding_name(v->enc), got, want);
  }
}

Test(decode, pyfory_bytes_decode_to_the_text) {
  for (size_t i = 0; i < sizeof pyfory_vectors / sizeof *pyfory_vectors; i++) {
    const vec *v = &pyfory_vectors[i];
    uint8_t out[64];
    size_t n = 0;
    int32_t st =
        wire_meta_decode(v->msctx, v->enc, v->b, v->n, out, sizeof out, &n);
    cr_assert_eq(st, WIRE_OK, "\"%s\": status %s", v->s, wire_status_name(st));
    cr_assert_eq(n, strlen(v->s), "\"%s\": decoded %zu chars", v->s, n);
    cr_assert_arr_eq(out, v->s, n, "\"%s\": decoded \"%.*s\"", v->s, (int)n,
                     (const char *)out);
  }
}

Test(encode, chosen_encoding_matches_pyfory_choice_for_names) {
  /* pyfory 1.7.7 MetaStringEncoder.encode(text, TYPE_NAME_ENCODINGS) */
  cr_assert_eq(choose_enc(TN, "Color"), WIRE_MS_FIRST_TO_LOWER_SPECIAL);
  cr_assert_eq(choose_enc(TN, "MyStruct1"), WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL);
  cr_assert_eq(choose_enc(TN, "abcdefgh"), WIRE_MS_ALL_TO_LOWER_SPECIAL);
  cr_assert_eq(choose_enc(NS, "org.apache.fory"),
               WIRE_MS_ALL_TO_LOWER_SPECIAL);
  cr_assert_eq(choose_enc(TN, "日本"), WIRE_MS_UTF8);
}

/* ---- round trips ------------------------------------------------------- */

static void round_trip(int32_t msctx, int32_t enc, const char *s) {
  uint8_t buf[256], text[256];
  size_t n = 0, tn = 0;
  int32_t st = wire_meta_encode(msctx, enc, (const uint8_t *)s, strlen(s), buf,
                                sizeof buf, &n);
  cr_assert_eq(st, WIRE_OK, "encode \"%s\" as %s: %s", s,
               wire_meta_encoding_name(enc), wire_status_name(st));
  st = wire_meta_decode(msctx, enc, buf, n, text, sizeof text, &tn);
  cr_assert_eq(st, WIRE_OK, "decode \"%s\" as %s: %s", s,
               wire_meta_encoding_name(enc), wire_status_name(st));
  cr_assert_eq(tn, strlen(s), "\"%s\" as %s: %zu chars back", s,
               wire_meta_encoding_name(enc), tn);
  cr_assert_arr_eq(text, s, tn, "\"%s\" as %s: got \"%.*s\"", s,
                   wire_meta_encoding_name(enc), (int)tn, (const char *)text);
}

Test(encode, every_encoding_round_trips) {
  round_trip(TN, WIRE_MS_UTF8, "héllo wörld");
  round_trip(TN, WIRE_MS_UTF8, "");
  round_trip(TN, WIRE_MS_LOWER_SPECIAL, "abc.def_ghi$jkl|xyz");
  round_trip(NS, WIRE_MS_LOWER_SPECIAL, "com.example_x");
  round_trip(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "MyStruct_0$9Zz");
  round_trip(NS, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "Org.Apache_1");
  round_trip(FN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, "field_9$");
  round_trip(TN, WIRE_MS_FIRST_TO_LOWER_SPECIAL, "Color");
  round_trip(TN, WIRE_MS_FIRST_TO_LOWER_SPECIAL, "My_type$x");
  round_trip(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "HelloWorld_X");
  round_trip(NS, WIRE_MS_ALL_TO_LOWER_SPECIAL, "Com.Example");
  round_trip(FN, WIRE_MS_ALL_TO_LOWER_SPECIAL, "userName");
}

Test(encode, round_trips_at_every_length_up_to_40) {
  static const char alpha[] = "abcdefghijklmnopqrstuvwxyz._$|";
  static const char luds[] = "abcXYZ0189$_";
  char s[64];
  for (size_t n = 1; n <= 40; n++) {
    for (size_t i = 0; i < n; i++) s[i] = alpha[(i * 7 + n) % 30];
    s[n] = 0;
    round_trip(TN, WIRE_MS_LOWER_SPECIAL, s);
    for (size_t i = 0; i < n; i++) s[i] = luds[(i * 5 + n) % 12];
    s[n] = 0;
    round_trip(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, s);
    for (size_t i = 0; i < n; i++) s[i] = (char)((i % 3) ? 'a' + i % 26 : 'Q');
    s[n] = 0;
    round_trip(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, s);
  }
}

/* ---- strip flag --------------------------------------------------------- */

/* Bit 7 of byte 0 is set iff bytes*8 >= n*bits + 1 + bits, i.e. the padding
 * could hold one more character that the decoder must drop. */
static void check_strip(int32_t enc, int bits, char c) {
  char s[64];
  for (size_t n = 1; n <= 48; n++) {
    memset(s, c, n);
    s[n] = 0;
    uint8_t out[64];
    size_t len = 0;
    cr_assert_eq(wire_meta_encode(TN, enc, (const uint8_t *)s, n, out,
                                  sizeof out, &len),
                 WIRE_OK);
    size_t total = n * (size_t)bits + 1;
    size_t bytes = (total + 7) / 8;
    cr_assert_eq(len, bytes, "%d-bit, %zu chars: %zu bytes, want %zu", bits, n,
                 len, bytes);
    bool flag = bytes * 8 >= total + (size_t)bits;
    cr_assert_eq((out[0] & 0x80) != 0, flag,
                 "%d-bit, %zu chars: strip flag %d, want %d", bits, n,
                 (out[0] & 0x80) != 0, flag);
    uint8_t text[64];
    size_t tn = 0;
    cr_assert_eq(wire_meta_decode(TN, enc, out, len, text, sizeof text, &tn),
                 WIRE_OK, "%d-bit, %zu chars", bits, n);
    cr_assert_eq(tn, n, "%d-bit: %zu chars decode to %zu", bits, n, tn);
  }
}

Test(encode, strip_flag_set_iff_padding_holds_another_char) {
  /* 'a' is value 0 in both alphabets: without the flag, padding would read
   * back as extra 'a's. */
  check_strip(WIRE_MS_LOWER_SPECIAL, 5, 'a');
  check_strip(WIRE_MS_ALL_TO_LOWER_SPECIAL, 5, 'a');
  check_strip(WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, 6, 'a');
  check_strip(WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL, 6, '_');
}

Test(encode, buffer_full_reports_the_needed_length) {
  uint8_t out[2];
  size_t n = 0;
  cr_assert_eq(wire_meta_encode(NS, WIRE_MS_ALL_TO_LOWER_SPECIAL,
                                (const uint8_t *)"com.example", 11, out,
                                sizeof out, &n),
               WIRE_E_BUFFER_FULL);
  cr_assert_eq(n, 7);
  cr_assert_eq(wire_meta_encode(TN, WIRE_MS_UTF8, (const uint8_t *)"abc", 3,
                                out, sizeof out, &n),
               WIRE_E_BUFFER_FULL);
  cr_assert_eq(n, 3);
}

Test(encode, characters_outside_the_alphabet_are_rejected) {
  uint8_t out[32];
  size_t n;
  cr_assert_eq(wire_meta_encode(TN, WIRE_MS_LOWER_SPECIAL,
                                (const uint8_t *)"aBc", 3, out, sizeof out, &n),
               WIRE_E_META_STRING, "upper case in LOWER_SPECIAL");
  cr_assert_eq(wire_meta_encode(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                                (const uint8_t *)"a.b", 3, out, sizeof out, &n),
               WIRE_E_META_STRING, "'.' in a type name LUDS");
  cr_assert_eq(wire_meta_encode(NS, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                                (const uint8_t *)"a$b", 3, out, sizeof out, &n),
               WIRE_E_META_STRING, "'$' in a namespace LUDS");
  cr_assert_eq(wire_meta_encode(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL,
                                (const uint8_t *)"a1", 2, out, sizeof out, &n),
               WIRE_E_META_STRING, "digit in ALL_TO_LOWER_SPECIAL");
  cr_assert_eq(wire_meta_encode(TN, WIRE_MS_FIRST_TO_LOWER_SPECIAL,
                                (const uint8_t *)"AB", 2, out, sizeof out, &n),
               WIRE_E_META_STRING, "second upper in FIRST_TO_LOWER_SPECIAL");
  cr_assert_eq(wire_meta_encode(TN, WIRE_MS_UTF8, (const uint8_t *)"\xff", 1,
                                out, sizeof out, &n),
               WIRE_E_META_STRING, "invalid UTF-8");
}

/* ---- non-canonical bytes ------------------------------------------------ */

static int32_t dec(int32_t msctx, int32_t enc, const uint8_t *b, size_t n) {
  uint8_t out[64];
  size_t tn;
  return wire_meta_decode(msctx, enc, b, n, out, sizeof out, &tn);
}

#define U8S(...) ((const uint8_t[]){__VA_ARGS__})

Test(decode, nonzero_padding_is_rejected) {
  /* "ab" = 80 20: 1 flag + 2x5 bits, then 5 padding bits (the stripped
   * char) that must be zero. */
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x80, 0x20), 2),
               WIRE_OK);
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x80, 0x21), 2),
               WIRE_E_META_STRING, "last padding bit set");
  /* "abcd" = 00 22 18: 21 bits used, 3 padding bits. */
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x00, 0x22, 0x18), 3),
               WIRE_OK);
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x00, 0x22, 0x19), 3),
               WIRE_E_META_STRING, "padding bit of \"abcd\" set");
  /* LUDS "ABC" = 34 db 80: 19 bits used, 5 padding bits. */
  cr_assert_eq(dec(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                   U8S(0x34, 0xdb, 0x80), 3),
               WIRE_OK);
  cr_assert_eq(dec(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                   U8S(0x34, 0xdb, 0x81), 3),
               WIRE_E_META_STRING, "LUDS padding bit set");
}

Test(decode, wrong_strip_flag_is_rejected) {
  /* "abcd": no room for a 5th char, so the flag must be clear. */
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x80, 0x22, 0x18), 3),
               WIRE_E_META_STRING, "flag set without a whole padding char");
  /* LUDS "abcd" = 80 08 41 80: 7 padding bits, flag required. */
  cr_assert_eq(dec(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                   U8S(0x80, 0x08, 0x41, 0x80), 4),
               WIRE_OK);
  /* The same bits with the flag clear are the canonical form of "abcda". */
  uint8_t out[8];
  size_t n = 0;
  cr_assert_eq(wire_meta_decode(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                                U8S(0x00, 0x08, 0x41, 0x80), 4, out,
                                sizeof out, &n),
               WIRE_OK);
  cr_assert_eq(n, 5);
  cr_assert_arr_eq(out, "abcda", 5);
  /* LUDS "abc" = 19 bits in 3 bytes: 5 padding bits, flag must be clear. */
  cr_assert_eq(dec(TN, WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL,
                   U8S(0x80, 0x08, 0x40), 3),
               WIRE_E_META_STRING, "LUDS flag without room");
  /* 5-bit "abc" = 00 22 has no padding; the flag would drop 'c'. */
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x80, 0x22), 2),
               WIRE_E_META_STRING);
}

Test(decode, invalid_symbols_are_rejected) {
  /* 5-bit value 30 (11110) is unused: first char after the flag bit. */
  cr_assert_eq(dec(TN, WIRE_MS_LOWER_SPECIAL, U8S(0x78), 1),
               WIRE_E_META_STRING, "value 30");
  cr_assert_eq(dec(TN, WIRE_MS_LOWER_SPECIAL, U8S(0x7c), 1),
               WIRE_E_META_STRING, "value 31");
  /* ALL_TO_LOWER_SPECIAL ending in the upper-case marker '|' (29). */
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x74), 1),
               WIRE_E_META_STRING, "dangling '|'");
  /* '|' followed by '.' (not a letter). */
  cr_assert_eq(dec(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL, U8S(0x77, 0x40), 2),
               WIRE_E_META_STRING, "'|' before '.'");
  /* FIRST_TO_LOWER_SPECIAL whose first char is '.' (26) */
  cr_assert_eq(dec(TN, WIRE_MS_FIRST_TO_LOWER_SPECIAL, U8S(0x68), 1),
               WIRE_E_META_STRING, "first char not a letter");
  cr_assert_eq(dec(TN, 5, U8S(0x00), 1), WIRE_E_META_STRING, "encoding 5");
  cr_assert_eq(dec(TN, WIRE_MS_UTF8, U8S(0xc0, 0x80), 2), WIRE_E_META_STRING,
               "invalid UTF-8");
}

Test(decode, all_to_lower_special_restores_upper_case) {
  uint8_t out[16];
  size_t n;
  cr_assert_eq(wire_meta_decode(TN, WIRE_MS_ALL_TO_LOWER_SPECIAL,
                                U8S(0x03, 0xa1), 2, out, sizeof out, &n),
               WIRE_OK);
  cr_assert_eq(n, 2);
  cr_assert_arr_eq(out, "aB", 2);
}

Test(decode, buffer_full_reports_the_needed_length) {
  uint8_t out[3];
  size_t n = 0;
  cr_assert_eq(wire_meta_decode(NS, WIRE_MS_ALL_TO_LOWER_SPECIAL,
                                U8S(0x09, 0xcc, 0xd1, 0x2e, 0x06, 0x3d, 0x64), 7,
                                out, sizeof out, &n),
               WIRE_E_BUFFER_FULL);
  cr_assert_eq(n, 11);
}

Test(decode, empty_bytes_are_the_empty_string) {
  uint8_t out[4];
  size_t n = 99;
  for (int32_t e = 0; e <= 4; e++) {
    cr_assert_eq(wire_meta_decode(TN, e, NULL, 0, out, sizeof out, &n),
                 WIRE_OK, "encoding %d", e);
    cr_assert_eq(n, 0);
  }
}
