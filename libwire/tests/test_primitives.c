/* test_primitives.c - the xlang primitive encodings through the streaming
 * writer and reader: varints, tagged integers, zigzag, float16/bfloat16,
 * MurmurHash3 and the string helpers. */
#include <criterion/criterion.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "wire.h"

static wire_ctx *ctx;

static void setup(void) {
  ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
}
static void teardown(void) { wire_ctx_free(ctx); }

TestSuite(varint, .init = setup, .fini = teardown);
TestSuite(tagged, .init = setup, .fini = teardown);
TestSuite(reader, .init = setup, .fini = teardown);
TestSuite(writer, .init = setup, .fini = teardown);

/* Writers of the fixed-buffer tests are freed by the suite's fini, so a
 * failing assertion does not leak them (keeps valgrind runs clean). */
static wire_writer *owned;
static void teardown_owned(void) {
  wire_writer_free(owned);
  owned = NULL;
  wire_ctx_free(ctx);
}
TestSuite(fixedbuf, .init = setup, .fini = teardown_owned);
TestSuite(zigzag);
TestSuite(float16);
TestSuite(bfloat16);
TestSuite(murmur);
TestSuite(text, .init = setup, .fini = teardown);

/* ---- helpers ----------------------------------------------------------- */

typedef struct {
  uint64_t v;
  size_t n;
  uint8_t b[10];
} vcase;

static void hexs(const uint8_t *p, size_t n, char *out, size_t cap) {
  size_t o = 0;
  out[0] = 0;
  for (size_t i = 0; i < n && o + 3 < cap; i++)
    o += (size_t)snprintf(out + o, cap - o, "%02x", p[i]);
}

/* Asserts that the writer holds exactly want[0..n). */
static void expect_bytes(const wire_writer *w, const uint8_t *want, size_t n,
                         const char *what) {
  char got_hex[64], want_hex[64];
  cr_assert_eq(wire_writer_status(w), WIRE_OK, "%s: writer status %d", what,
               wire_writer_status(w));
  hexs(wire_writer_data(w), wire_writer_size(w), got_hex, sizeof got_hex);
  hexs(want, n, want_hex, sizeof want_hex);
  cr_assert_eq(wire_writer_size(w), n, "%s: wrote %s, want %s", what, got_hex,
               want_hex);
  cr_assert_arr_eq(wire_writer_data(w), want, n, "%s: wrote %s, want %s",
                   what, got_hex, want_hex);
}

static wire_reader *reader(const uint8_t *p, size_t n) {
  wire_reader *r = wire_reader_new(ctx, p, n);
  cr_assert_not_null(r);
  return r;
}

#define U8S(...) ((const uint8_t[]){__VA_ARGS__})
#define NB(...) sizeof((const uint8_t[]){__VA_ARGS__})

/* ---- varuint32 --------------------------------------------------------- */

static const vcase varu32_cases[] = {
    {0, 1, {0x00}},
    {1, 1, {0x01}},
    {127, 1, {0x7f}},
    {128, 2, {0x80, 0x01}},
    {16383, 2, {0xff, 0x7f}},
    {16384, 3, {0x80, 0x80, 0x01}},
    {(1u << 21) - 1, 3, {0xff, 0xff, 0x7f}},
    {1u << 21, 4, {0x80, 0x80, 0x80, 0x01}},
    {(1u << 28) - 1, 4, {0xff, 0xff, 0xff, 0x7f}},
    {1u << 28, 5, {0x80, 0x80, 0x80, 0x80, 0x01}},
    {0x80000000u, 5, {0x80, 0x80, 0x80, 0x80, 0x08}},
    {UINT32_MAX, 5, {0xff, 0xff, 0xff, 0xff, 0x0f}},
};

Test(varint, varuint32_writes_leb128_at_every_length_boundary) {
  for (size_t i = 0; i < sizeof varu32_cases / sizeof *varu32_cases; i++) {
    const vcase *c = &varu32_cases[i];
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    wire_write_varuint32(w, (uint32_t)c->v);
    char what[48];
    snprintf(what, sizeof what, "varuint32 %llu", (unsigned long long)c->v);
    expect_bytes(w, c->b, c->n, what);
    wire_writer_free(w);
  }
}

Test(varint, varuint32_reads_every_length_boundary) {
  for (size_t i = 0; i < sizeof varu32_cases / sizeof *varu32_cases; i++) {
    const vcase *c = &varu32_cases[i];
    uint8_t buf[11];
    memcpy(buf, c->b, c->n);
    buf[c->n] = 0x55; /* a following byte must not be consumed */
    wire_reader *r = reader(buf, c->n + 1);
    uint32_t v = wire_read_varuint32(r);
    cr_assert_eq(wire_reader_status(r), WIRE_OK, "value %llu",
                 (unsigned long long)c->v);
    cr_assert_eq(v, (uint32_t)c->v, "read %u want %llu", v,
                 (unsigned long long)c->v);
    cr_assert_eq(wire_reader_offset(r), c->n);
    cr_assert_eq(wire_read_u8(r), 0x55);
    wire_reader_free(r);
  }
}

/* ---- varuint64 --------------------------------------------------------- */

static const vcase varu64_cases[] = {
    {0, 1, {0x00}},
    {127, 1, {0x7f}},
    {128, 2, {0x80, 0x01}},
    {(UINT64_C(1) << 14) - 1, 2, {0xff, 0x7f}},
    {UINT64_C(1) << 14, 3, {0x80, 0x80, 0x01}},
    {(UINT64_C(1) << 21) - 1, 3, {0xff, 0xff, 0x7f}},
    {UINT64_C(1) << 21, 4, {0x80, 0x80, 0x80, 0x01}},
    {(UINT64_C(1) << 28) - 1, 4, {0xff, 0xff, 0xff, 0x7f}},
    {UINT64_C(1) << 28, 5, {0x80, 0x80, 0x80, 0x80, 0x01}},
    {UINT64_C(1) << 32, 5, {0x80, 0x80, 0x80, 0x80, 0x10}},
    {(UINT64_C(1) << 35) - 1, 5, {0xff, 0xff, 0xff, 0xff, 0x7f}},
    {UINT64_C(1) << 35, 6, {0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
    {(UINT64_C(1) << 42) - 1, 6, {0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
    {UINT64_C(1) << 42, 7, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
    {(UINT64_C(1) << 49) - 1, 7, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
    {UINT64_C(1) << 49, 8, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
    {(UINT64_C(1) << 56) - 1, 8,
     {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
    /* 9-byte form: 8 LEB128 bytes, then the top 8 bits whole. */
    {UINT64_C(1) << 56, 9,
     {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
    {UINT64_C(1) << 63, 9,
     {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80}},
    {UINT64_C(0x0123456789abcdef), 9,
     {0xef, 0x9b, 0xaf, 0xcd, 0xf8, 0xac, 0xd1, 0x91, 0x01}},
    {UINT64_MAX, 9, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
};

Test(varint, varuint64_writes_every_length_including_the_9_byte_form) {
  for (size_t i = 0; i < sizeof varu64_cases / sizeof *varu64_cases; i++) {
    const vcase *c = &varu64_cases[i];
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    wire_write_varuint64(w, c->v);
    char what[48];
    snprintf(what, sizeof what, "varuint64 0x%llx", (unsigned long long)c->v);
    expect_bytes(w, c->b, c->n, what);
    wire_writer_free(w);
  }
}

Test(varint, varuint64_reads_every_length_including_the_9_byte_form) {
  for (size_t i = 0; i < sizeof varu64_cases / sizeof *varu64_cases; i++) {
    const vcase *c = &varu64_cases[i];
    uint8_t buf[11];
    memcpy(buf, c->b, c->n);
    buf[c->n] = 0xAA;
    wire_reader *r = reader(buf, c->n + 1);
    uint64_t v = wire_read_varuint64(r);
    cr_assert_eq(wire_reader_status(r), WIRE_OK, "value 0x%llx",
                 (unsigned long long)c->v);
    cr_assert_eq(v, c->v, "read 0x%llx want 0x%llx", (unsigned long long)v,
                 (unsigned long long)c->v);
    cr_assert_eq(wire_reader_offset(r), c->n);
    wire_reader_free(r);
  }
}

/* ---- signed varints (zigzag) ------------------------------------------- */

typedef struct {
  int64_t v;
  size_t n;
  uint8_t b[10];
} scase;

static const scase varint32_cases[] = {
    {0, 1, {0x00}},
    {-1, 1, {0x01}},
    {1, 1, {0x02}},
    {63, 1, {0x7e}},
    {-64, 1, {0x7f}},
    {64, 2, {0x80, 0x01}},
    {-65, 2, {0x81, 0x01}},
    {8191, 2, {0xfe, 0x7f}},
    {-8192, 2, {0xff, 0x7f}},
    {8192, 3, {0x80, 0x80, 0x01}},
    {INT32_MAX, 5, {0xfe, 0xff, 0xff, 0xff, 0x0f}},
    {INT32_MIN, 5, {0xff, 0xff, 0xff, 0xff, 0x0f}},
};

Test(varint, varint32_is_zigzag_leb128) {
  for (size_t i = 0; i < sizeof varint32_cases / sizeof *varint32_cases; i++) {
    const scase *c = &varint32_cases[i];
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    wire_write_varint32(w, (int32_t)c->v);
    char what[48];
    snprintf(what, sizeof what, "varint32 %lld", (long long)c->v);
    expect_bytes(w, c->b, c->n, what);
    wire_writer_free(w);
    wire_reader *r = reader(c->b, c->n);
    int32_t got = wire_read_varint32(r);
    cr_assert_eq(wire_reader_status(r), WIRE_OK);
    cr_assert_eq(got, (int32_t)c->v, "%s: read %d", what, got);
    cr_assert_eq(wire_reader_remaining(r), 0);
    wire_reader_free(r);
  }
}

static const scase varint64_cases[] = {
    {0, 1, {0x00}},
    {-1, 1, {0x01}},
    {1, 1, {0x02}},
    {-64, 1, {0x7f}},
    {64, 2, {0x80, 0x01}},
    {(INT64_C(1) << 55) - 1, 8,
     {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
    {-(INT64_C(1) << 55), 8, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
    {INT64_C(1) << 55, 9,
     {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
    {-(INT64_C(1) << 55) - 1, 9,
     {0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}},
    {INT64_MAX, 9, {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
    {INT64_MIN, 9, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
};

Test(varint, varint64_is_zigzag_with_the_9_byte_form) {
  for (size_t i = 0; i < sizeof varint64_cases / sizeof *varint64_cases; i++) {
    const scase *c = &varint64_cases[i];
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    wire_write_varint64(w, c->v);
    char what[48];
    snprintf(what, sizeof what, "varint64 %lld", (long long)c->v);
    expect_bytes(w, c->b, c->n, what);
    wire_writer_free(w);
    wire_reader *r = reader(c->b, c->n);
    int64_t got = wire_read_varint64(r);
    cr_assert_eq(wire_reader_status(r), WIRE_OK);
    cr_assert_eq(got, c->v, "%s: read %lld", what, (long long)got);
    cr_assert_eq(wire_reader_remaining(r), 0);
    wire_reader_free(r);
  }
}

/* ---- rejected varints --------------------------------------------------- */

typedef struct {
  size_t n;
  uint8_t b[12];
  const char *why;
} bad;

static void expect_varu32_error(const bad *c, int32_t code) {
  wire_reader *r = reader(c->b, c->n);
  uint32_t v = wire_read_varuint32(r);
  cr_assert_eq(wire_reader_status(r), code, "%s: status %d (%s), want %s",
               c->why, wire_reader_status(r),
               wire_status_name(wire_reader_status(r)), wire_status_name(code));
  cr_assert_eq(v, 0, "%s: a failed read returns 0", c->why);
  cr_assert_eq(wire_reader_offset(r), 0, "%s: offset stays at the read",
               c->why);
  cr_assert_eq(wire_ctx_error_code(ctx), code, "%s", c->why);
  wire_reader_free(r);
}

static void expect_varu64_error(const bad *c, int32_t code) {
  wire_reader *r = reader(c->b, c->n);
  uint64_t v = wire_read_varuint64(r);
  cr_assert_eq(wire_reader_status(r), code, "%s: status %d (%s), want %s",
               c->why, wire_reader_status(r),
               wire_status_name(wire_reader_status(r)), wire_status_name(code));
  cr_assert_eq(v, 0, "%s", c->why);
  cr_assert_eq(wire_reader_offset(r), 0, "%s", c->why);
  wire_reader_free(r);
}

Test(varint, varuint32_overlong_and_oversized_forms_are_rejected) {
  static const bad cases[] = {
      {2, {0x80, 0x00}, "80 00 (zero in 2 bytes)"},
      {2, {0xff, 0x00}, "ff 00 (127 in 2 bytes)"},
      {3, {0x80, 0x80, 0x00}, "zero in 3 bytes"},
      {5, {0x80, 0x80, 0x80, 0x80, 0x00}, "zero in 5 bytes"},
      {5, {0xff, 0xff, 0xff, 0xff, 0x00}, "2^28-1 in 5 bytes"},
      {6, {0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, "6-byte varuint32"},
      {5, {0xff, 0xff, 0xff, 0xff, 0x10}, "5th byte 0x10 (> 32 bits)"},
      {5, {0xff, 0xff, 0xff, 0xff, 0x1f}, "5th byte 0x1f"},
      {6, {0xff, 0xff, 0xff, 0xff, 0x8f, 0x00}, "5th byte has continuation"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    expect_varu32_error(&cases[i], WIRE_E_VARINT);
}

Test(varint, varint32_rejects_overlong_forms_too) {
  wire_reader *r = reader(U8S(0x81, 0x00), 2);
  cr_assert_eq(wire_read_varint32(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_VARINT);
  wire_reader_free(r);
}

Test(varint, varuint64_overlong_forms_are_rejected) {
  static const bad cases[] = {
      {2, {0x80, 0x00}, "80 00"},
      {8, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, "zero in 8 bytes"},
      {9, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00},
       "9-byte form with a zero 9th byte"},
      {9, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00},
       "2^56-1 in 9 bytes"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    expect_varu64_error(&cases[i], WIRE_E_VARINT);
}

Test(varint, truncated_varints_report_truncated) {
  static const bad c32[] = {
      {0, {0}, "empty"},
      {1, {0x80}, "80"},
      {4, {0xff, 0xff, 0xff, 0xff}, "4 continuation bytes"},
  };
  for (size_t i = 0; i < sizeof c32 / sizeof *c32; i++)
    expect_varu32_error(&c32[i], WIRE_E_TRUNCATED);
  static const bad c64[] = {
      {0, {0}, "empty"},
      {3, {0x80, 0x80, 0x80}, "3 continuation bytes"},
      {8, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80},
       "8 continuation bytes, no 9th"},
  };
  for (size_t i = 0; i < sizeof c64 / sizeof *c64; i++)
    expect_varu64_error(&c64[i], WIRE_E_TRUNCATED);
}

/* ---- reader: fixed width, truncation, sticky errors --------------------- */

Test(reader, fixed_width_values_are_little_endian) {
  static const uint8_t in[] = {0x01, 0xfe, 0x34, 0x12, 0x78, 0x56, 0x34,
                               0x12, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45,
                               0x23, 0x01, 0x00, 0x00, 0xc0, 0x3f};
  wire_reader *r = reader(in, sizeof in);
  cr_assert_eq(wire_read_bool(r), 1);
  cr_assert_eq(wire_read_i8(r), -2);
  cr_assert_eq(wire_read_u16(r), 0x1234);
  cr_assert_eq(wire_read_u32(r), 0x12345678u);
  cr_assert_eq(wire_read_u64(r), UINT64_C(0x0123456789abcdef));
  cr_assert_eq(wire_read_float32(r), 1.5f);
  cr_assert_eq(wire_reader_status(r), WIRE_OK);
  cr_assert_eq(wire_reader_remaining(r), 0);
  wire_reader_free(r);
}

Test(writer, fixed_width_values_are_little_endian) {
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  wire_write_header(w);
  wire_write_i16(w, -2);
  wire_write_i32(w, 0x12345678);
  wire_write_i64(w, -1);
  wire_write_float64(w, 1.5);
  wire_write_bits16(w, 0x3c00);
  expect_bytes(w,
               U8S(0x01, 0xfe, 0xff, 0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff,
                   0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f,
                   0x00, 0x3c),
               25, "fixed width");
  wire_writer_free(w);
}

Test(reader, truncated_fixed_width_read_fails_at_its_start) {
  wire_reader *r = reader(U8S(0x07, 0x01, 0x02, 0x03), 4);
  cr_assert_eq(wire_read_u8(r), 7);
  cr_assert_eq(wire_read_u32(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_TRUNCATED);
  cr_assert_eq(wire_reader_offset(r), 1);
  wire_reader_free(r);
}

Test(reader, errors_are_sticky_and_the_offset_stays_at_the_failing_read) {
  /* 05 | 80 00 (overlong) | 07 */
  wire_reader *r = reader(U8S(0x05, 0x80, 0x00, 0x07), 4);
  cr_assert_eq(wire_read_varuint32(r), 5);
  cr_assert_eq(wire_reader_offset(r), 1);
  cr_assert_eq(wire_read_varuint32(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_VARINT);
  cr_assert_eq(wire_reader_offset(r), 1);
  cr_assert_eq(wire_ctx_error_code(ctx), WIRE_E_VARINT);
  cr_assert_eq(wire_ctx_error_offset(ctx), 1);
  /* Later reads that would succeed on their own return 0, move nothing and
   * keep the first error. */
  cr_assert_eq(wire_read_u8(r), 0);
  cr_assert_eq(wire_read_varuint64(r), 0);
  cr_assert_eq(wire_read_tagged_int64(r), 0);
  cr_assert_eq(wire_read_u16(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_VARINT);
  cr_assert_eq(wire_reader_offset(r), 1);
  const uint8_t *p = (const uint8_t *)"x";
  cr_assert_eq(wire_read_bytes(r, 1, &p), WIRE_E_VARINT);
  cr_assert_null(p);
  wire_reader_free(r);
}

Test(reader, sticky_after_truncation) {
  wire_reader *r = reader(U8S(0x01), 1);
  cr_assert_eq(wire_read_u16(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_TRUNCATED);
  cr_assert_eq(wire_read_u8(r), 0, "the 1 byte left is not read after an "
                                   "error");
  cr_assert_eq(wire_reader_offset(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_TRUNCATED);
  wire_reader_free(r);
}

Test(reader, bool_byte_other_than_0_or_1_is_a_value_error) {
  wire_reader *r = reader(U8S(0x02), 1);
  cr_assert_eq(wire_read_bool(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_VALUE);
  cr_assert_eq(wire_reader_offset(r), 0);
  wire_reader_free(r);
}

Test(reader, header_must_be_0x01) {
  wire_reader *r = reader(U8S(0x01), 1);
  cr_assert_eq(wire_read_header(r), WIRE_OK);
  wire_reader_free(r);
  r = reader(U8S(0x00), 1);
  cr_assert_eq(wire_read_header(r), WIRE_E_HEADER, "header 0x00 has no xlang "
                                                   "bit");
  wire_reader_free(r);
  r = reader(U8S(0x05), 1);
  cr_assert_eq(wire_read_header(r), WIRE_E_HEADER, "reserved bit 2 set");
  wire_reader_free(r);
}

Test(reader, ref_flags_and_type_ids_are_range_checked) {
  wire_reader *r = reader(U8S(0xfd, 0xfe, 0xff, 0x00, 0xfc), 5);
  cr_assert_eq(wire_read_ref_flag(r), -3);
  cr_assert_eq(wire_read_ref_flag(r), -2);
  cr_assert_eq(wire_read_ref_flag(r), -1);
  cr_assert_eq(wire_read_ref_flag(r), 0);
  cr_assert_eq(wire_read_ref_flag(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_REF);
  cr_assert_eq(wire_reader_offset(r), 4);
  wire_reader_free(r);
  r = reader(U8S(0x15, 0x7f), 2);
  cr_assert_eq(wire_read_type_id(r), WIRE_T_STRING);
  cr_assert_eq(wire_read_type_id(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_TYPE);
  wire_reader_free(r);
}

Test(writer, fixed_buffer_reports_buffer_full_and_needed_size) {
  uint8_t buf[16];
  wire_writer *w = wire_writer_new(ctx, buf, sizeof buf);
  wire_write_u64(w, 1);
  wire_write_u32(w, 2);
  cr_assert_eq(wire_writer_status(w), WIRE_OK);
  cr_assert_eq(wire_writer_size(w), 12);
  wire_write_u64(w, 3); /* 20 bytes needed, 16 available */
  cr_assert_eq(wire_writer_status(w), WIRE_E_BUFFER_FULL);
  cr_assert_eq(wire_writer_size(w), 20, "needed size %zu",
               wire_writer_size(w));
  wire_write_u8(w, 3); /* sticky: no change of status */
  cr_assert_eq(wire_writer_status(w), WIRE_E_BUFFER_FULL);
  cr_assert_eq(wire_writer_size(w), 21, "needed size keeps counting: %zu",
               wire_writer_size(w));
  wire_writer_reset(w);
  cr_assert_eq(wire_writer_status(w), WIRE_OK);
  wire_write_u8(w, 9);
  cr_assert_eq(wire_writer_size(w), 1);
  cr_assert_eq(buf[0], 9);
  wire_writer_free(w);
}

Test(fixedbuf, fits_a_u32_exactly) {
  uint8_t buf[4];
  wire_writer *w = owned = wire_writer_new(ctx, buf, sizeof buf);
  wire_write_u32(w, 0x04030201);
  cr_assert_eq(wire_writer_status(w), WIRE_OK, "a u32 into a 4-byte buffer: "
                                               "status %s",
               wire_status_name(wire_writer_status(w)));
  cr_assert_eq(wire_writer_size(w), 4);
  cr_assert_arr_eq(buf, U8S(1, 2, 3, 4), 4);
}

Test(fixedbuf, fits_a_short_varint_exactly) {
  uint8_t one[1];
  wire_writer *w = owned = wire_writer_new(ctx, one, 1);
  wire_write_varuint32(w, 5);
  cr_assert_eq(wire_writer_status(w), WIRE_OK, "a 1-byte varuint32 into a "
                                               "1-byte buffer: status %s",
               wire_status_name(wire_writer_status(w)));
  cr_assert_eq(one[0], 5);
}

Test(fixedbuf, fits_a_string_exactly) {
  uint8_t buf[3];
  wire_writer *w = owned = wire_writer_new(ctx, buf, sizeof buf);
  wire_write_string(w, (const uint8_t *)"hi", 2);
  cr_assert_eq(wire_writer_status(w), WIRE_OK, "\"hi\" (3 bytes) into a "
                                               "3-byte buffer: status %s",
               wire_status_name(wire_writer_status(w)));
  cr_assert_arr_eq(buf, U8S(0x08, 0x68, 0x69), 3);
}

Test(writer, fixed_buffer_takes_single_bytes_to_the_end) {
  uint8_t two[2];
  wire_writer *w = wire_writer_new(ctx, two, 2);
  wire_write_u8(w, 7);
  wire_write_u8(w, 8);
  cr_assert_eq(wire_writer_status(w), WIRE_OK);
  cr_assert_arr_eq(two, U8S(7, 8), 2);
  wire_write_u8(w, 9);
  cr_assert_eq(wire_writer_status(w), WIRE_E_BUFFER_FULL);
  cr_assert_eq(wire_writer_size(w), 3);
  wire_writer_free(w);
}

Test(writer, invalid_utf8_string_sets_a_string_error) {
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  wire_write_string(w, (const uint8_t *)"\xc0\x80", 2);
  cr_assert_eq(wire_writer_status(w), WIRE_E_STRING);
  cr_assert_eq(wire_writer_size(w), 0);
  wire_writer_free(w);
}

Test(writer, raw_string_argument_checks) {
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  wire_write_string_raw(w, WIRE_STR_UTF16, (const uint8_t *)"abc", 3);
  cr_assert_eq(wire_writer_status(w), WIRE_E_ARG, "odd UTF-16 length");
  wire_writer_reset(w);
  wire_write_string_raw(w, 3, (const uint8_t *)"a", 1);
  cr_assert_eq(wire_writer_status(w), WIRE_E_ARG, "encoding 3");
  wire_writer_reset(w);
  wire_write_string_raw(w, WIRE_STR_UTF16, (const uint8_t *)"\x61\x00", 2);
  expect_bytes(w, U8S(0x09, 0x61, 0x00), 3, "raw utf16 \"a\"");
  wire_writer_free(w);
}

Test(fixedbuf, size_after_overflow_inside_a_write) {
  /* 2 bytes used, a u16 needs 2 more of 3 left: fits; then a u32 does not. */
  uint8_t buf[5];
  wire_writer *w = owned = wire_writer_new(ctx, buf, sizeof buf);
  wire_write_u16(w, 1);
  wire_write_u16(w, 2);
  wire_write_u32(w, 3);
  cr_assert_eq(wire_writer_status(w), WIRE_E_BUFFER_FULL);
  cr_assert_geq(wire_writer_size(w), 8, "needed size %zu, want >= 8",
                wire_writer_size(w));
}

/* ---- tagged int64 / uint64 --------------------------------------------- */

static const scase tagged_i64_cases[] = {
    {0, 4, {0x00, 0x00, 0x00, 0x00}},
    {1, 4, {0x02, 0x00, 0x00, 0x00}},
    {-1, 4, {0xfe, 0xff, 0xff, 0xff}},
    {(INT64_C(1) << 30) - 1, 4, {0xfe, 0xff, 0xff, 0x7f}},
    {-(INT64_C(1) << 30), 4, {0x00, 0x00, 0x00, 0x80}},
    {INT64_C(1) << 30, 9, {0x01, 0x00, 0x00, 0x00, 0x40, 0, 0, 0, 0}},
    {-(INT64_C(1) << 30) - 1, 9,
     {0x01, 0xff, 0xff, 0xff, 0xbf, 0xff, 0xff, 0xff, 0xff}},
    {INT64_MAX, 9, {0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}},
    {INT64_MIN, 9, {0x01, 0, 0, 0, 0, 0, 0, 0, 0x80}},
};

Test(tagged, int64_uses_4_bytes_in_the_30_bit_range_else_flag_and_8) {
  for (size_t i = 0; i < sizeof tagged_i64_cases / sizeof *tagged_i64_cases;
       i++) {
    const scase *c = &tagged_i64_cases[i];
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    wire_write_tagged_int64(w, c->v);
    char what[48];
    snprintf(what, sizeof what, "tagged int64 %lld", (long long)c->v);
    expect_bytes(w, c->b, c->n, what);
    wire_writer_free(w);
    wire_reader *r = reader(c->b, c->n);
    int64_t got = wire_read_tagged_int64(r);
    cr_assert_eq(wire_reader_status(r), WIRE_OK, "%s", what);
    cr_assert_eq(got, c->v, "%s: read %lld", what, (long long)got);
    cr_assert_eq(wire_reader_remaining(r), 0, "%s", what);
    wire_reader_free(r);
  }
}

static const vcase tagged_u64_cases[] = {
    {0, 4, {0x00, 0x00, 0x00, 0x00}},
    {5, 4, {0x0a, 0x00, 0x00, 0x00}},
    /* Top bit of the 4-byte word set: must be read with a logical shift. */
    {(UINT64_C(1) << 31) - 1, 4, {0xfe, 0xff, 0xff, 0xff}},
    {UINT64_C(1) << 30, 4, {0x00, 0x00, 0x00, 0x80}},
    {UINT64_C(1) << 31, 9, {0x01, 0x00, 0x00, 0x00, 0x80, 0, 0, 0, 0}},
    {UINT64_MAX, 9, {0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
};

Test(tagged, uint64_uses_4_bytes_below_2_31_read_with_logical_shift) {
  for (size_t i = 0; i < sizeof tagged_u64_cases / sizeof *tagged_u64_cases;
       i++) {
    const vcase *c = &tagged_u64_cases[i];
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    wire_write_tagged_uint64(w, c->v);
    char what[48];
    snprintf(what, sizeof what, "tagged uint64 %llu",
             (unsigned long long)c->v);
    expect_bytes(w, c->b, c->n, what);
    wire_writer_free(w);
    wire_reader *r = reader(c->b, c->n);
    uint64_t got = wire_read_tagged_uint64(r);
    cr_assert_eq(wire_reader_status(r), WIRE_OK, "%s", what);
    cr_assert_eq(got, c->v, "%s: read %llu", what, (unsigned long long)got);
    wire_reader_free(r);
  }
}

Test(tagged, int64_long_form_for_a_small_value_is_rejected) {
  static const bad cases[] = {
      {9, {0x01, 0x05, 0, 0, 0, 0, 0, 0, 0}, "5 in the long form"},
      {9, {0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
       "-1 in the long form"},
      {9, {0x01, 0x00, 0x00, 0x00, 0xc0, 0xff, 0xff, 0xff, 0xff},
       "-2^30 in the long form"},
      {9, {0x01, 0xff, 0xff, 0xff, 0x3f, 0, 0, 0, 0}, "2^30-1 in the long form"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wire_reader *r = reader(cases[i].b, cases[i].n);
    cr_assert_eq(wire_read_tagged_int64(r), 0, "%s", cases[i].why);
    cr_assert_eq(wire_reader_status(r), WIRE_E_VARINT, "%s: status %s",
                 cases[i].why, wire_status_name(wire_reader_status(r)));
    cr_assert_eq(wire_reader_offset(r), 0, "%s", cases[i].why);
    wire_reader_free(r);
  }
}

Test(tagged, uint64_long_form_for_a_small_value_is_rejected) {
  wire_reader *r =
      reader(U8S(0x01, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0), 9); /* 2^31-1 */
  cr_assert_eq(wire_read_tagged_uint64(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_VARINT);
  wire_reader_free(r);
}

Test(tagged, truncated_forms_report_truncated) {
  wire_reader *r = reader(U8S(0x02, 0x00, 0x00), 3);
  cr_assert_eq(wire_read_tagged_int64(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_TRUNCATED);
  wire_reader_free(r);
  r = reader(U8S(0x01, 0x00, 0x00, 0x00, 0x40, 0x00), 6);
  cr_assert_eq(wire_read_tagged_int64(r), 0);
  cr_assert_eq(wire_reader_status(r), WIRE_E_TRUNCATED);
  cr_assert_eq(wire_reader_offset(r), 0);
  wire_reader_free(r);
}

/* ---- zigzag ------------------------------------------------------------ */

Test(zigzag, maps_small_magnitudes_to_small_codes) {
  cr_assert_eq(wire__zz32(0), 0u);
  cr_assert_eq(wire__zz32(-1), 1u);
  cr_assert_eq(wire__zz32(1), 2u);
  cr_assert_eq(wire__zz32(-2), 3u);
  cr_assert_eq(wire__zz32(INT32_MAX), 0xfffffffeu);
  cr_assert_eq(wire__zz32(INT32_MIN), 0xffffffffu);
  cr_assert_eq(wire__zz64(0), 0u);
  cr_assert_eq(wire__zz64(-1), 1u);
  cr_assert_eq(wire__zz64(INT64_MAX), UINT64_C(0xfffffffffffffffe));
  cr_assert_eq(wire__zz64(INT64_MIN), UINT64_MAX);
}

Test(zigzag, decoding_inverts_encoding) {
  static const int64_t vals[] = {0, 1, -1, 2, -2, 1000, -1000, INT32_MAX,
                                 INT32_MIN, INT64_MAX, INT64_MIN,
                                 INT64_C(0x123456789), -INT64_C(0x123456789)};
  for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
    cr_assert_eq(wire__unzz64(wire__zz64(vals[i])), vals[i]);
    if (vals[i] >= INT32_MIN && vals[i] <= INT32_MAX)
      cr_assert_eq(wire__unzz32(wire__zz32((int32_t)vals[i])),
                   (int32_t)vals[i]);
  }
  for (uint32_t u = 0; u < 100000; u++) {
    cr_assert_eq(wire__zz32(wire__unzz32(u)), u);
  }
}

/* ---- float16 ----------------------------------------------------------- */

static bool f16_is_nan(uint16_t h) {
  return (h & 0x7c00) == 0x7c00 && (h & 0x03ff) != 0;
}

/* Value of a binary16 pattern from the IEEE 754 definition. */
static double f16_value(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 0    ? ldexp(m, -24)
             : e == 31 ? INFINITY /* NaNs are not passed here */
                       : ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}

Test(float16, known_values_convert_exactly) {
  static const struct {
    double d;
    uint16_t h;
  } k[] = {
      {1.0, 0x3c00},           {1.5, 0x3e00},
      {-2.0, 0xc000},          {0.5, 0x3800},
      {65504.0, 0x7bff},       {0x1p-14, 0x0400}, /* smallest normal */
      {0x1p-24, 0x0001},       {0x3p-24, 0x0003}, {0x3ffp-24, 0x03ff},
      {0.0, 0x0000},           {-0.0, 0x8000},
      {INFINITY, 0x7c00},      {-INFINITY, 0xfc00},
      {0.333251953125, 0x3555},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    cr_assert_eq(wire_float16_from_double(k[i].d), k[i].h,
                 "%a -> 0x%04x, want 0x%04x", k[i].d,
                 wire_float16_from_double(k[i].d), k[i].h);
    cr_assert_eq(wire_float16_from_float((float)k[i].d), k[i].h, "%a", k[i].d);
    double back = wire_float16_to_double(k[i].h);
    cr_assert_eq(back, k[i].d, "0x%04x -> %a", k[i].h, back);
    cr_assert_eq(signbit(back) != 0, signbit(k[i].d) != 0, "sign of 0x%04x",
                 k[i].h);
    cr_assert_eq(wire_float16_to_float(k[i].h), (float)k[i].d);
  }
}

Test(float16, rounding_is_to_nearest_even) {
  static const struct {
    double d;
    uint16_t h;
    const char *why;
  } k[] = {
      {65520.0, 0x7c00, "65520 is halfway to 65536: ties to even -> inf"},
      {65519.99, 0x7bff, "just below the halfway point stays finite"},
      {1e10, 0x7c00, "overflow"},
      {-65520.0, 0xfc00, "negative overflow"},
      {0x1p-25, 0x0000, "half the smallest subnormal ties to even (0)"},
      {0x1.0000000000001p-25, 0x0001, "just above half rounds up"},
      {0x3p-25, 0x0002, "1.5 x smallest subnormal ties to even (2)"},
      {0x5p-25, 0x0002, "2.5 x smallest subnormal ties to even (2)"},
      {0x7ffp-25, 0x0400, "halfway 0x03ff/0x0400 rounds up into normal"},
      {1.0 + 0x1p-11, 0x3c00, "1 + half ulp ties to even (down)"},
      {1.0 + 0x3p-11, 0x3c02, "1 + 1.5 ulp ties to even (up)"},
      {1.0 + 0x1p-11 + 0x1p-30, 0x3c01,
       "above half by less than float precision: no double rounding"},
      {2047.5, 0x6800, "halfway at the top of a binade carries into the exponent"},
      {1e-30, 0x0000, "far below the subnormal range"},
      {-1e-30, 0x8000, "negative tiny keeps its sign"},
      {4.9e-324, 0x0000, "double subnormal"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    uint16_t got = wire_float16_from_double(k[i].d);
    cr_assert_eq(got, k[i].h, "%s: %a -> 0x%04x, want 0x%04x", k[i].why,
                 k[i].d, got, k[i].h);
  }
}

Test(float16, nan_stays_nan) {
  cr_assert(f16_is_nan(wire_float16_from_double(NAN)));
  cr_assert(f16_is_nan(wire_float16_from_double(-NAN)));
  cr_assert(f16_is_nan(wire_float16_from_float(NAN)));
  /* A NaN whose payload sits only in low double bits must not become inf. */
  uint64_t u = UINT64_C(0x7ff0000000000001);
  double d;
  memcpy(&d, &u, 8);
  cr_assert(f16_is_nan(wire_float16_from_double(d)), "0x%04x",
            wire_float16_from_double(d));
  cr_assert(isnan(wire_float16_to_double(0x7e00)));
  cr_assert(isnan(wire_float16_to_double(0x7c01)));
  cr_assert(isnan(wire_float16_to_double(0xfe00)));
  cr_assert(isnan(wire_float16_to_float(0x7d00)));
}

Test(float16, every_bit_pattern_round_trips_through_double_and_float) {
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t h = (uint16_t)i;
    double d = wire_float16_to_double(h);
    float f = wire_float16_to_float(h);
    if (f16_is_nan(h)) {
      cr_assert(isnan(d), "0x%04x -> %a", h, d);
      cr_assert(isnan(f), "0x%04x", h);
      cr_assert(f16_is_nan(wire_float16_from_double(d)), "0x%04x", h);
      cr_assert(f16_is_nan(wire_float16_from_float(f)), "0x%04x", h);
      continue;
    }
    cr_assert_eq(d, f16_value(h), "0x%04x -> %a, want %a", h, d, f16_value(h));
    cr_assert_eq(signbit(d) != 0, (h & 0x8000) != 0, "sign of 0x%04x", h);
    cr_assert_eq((double)f, d, "0x%04x float %a double %a", h, (double)f, d);
    uint16_t back = wire_float16_from_double(d);
    cr_assert_eq(back, h, "0x%04x -> %a -> 0x%04x", h, d, back);
    cr_assert_eq(wire_float16_from_float(f), h, "0x%04x via float", h);
  }
}

/* ---- bfloat16 ---------------------------------------------------------- */

static bool bf16_is_nan(uint16_t b) {
  return (b & 0x7f80) == 0x7f80 && (b & 0x007f) != 0;
}

Test(bfloat16, known_values) {
  cr_assert_eq(wire_bfloat16_from_float(1.5f), 0x3fc0);
  cr_assert_eq(wire_bfloat16_from_float(1.0f), 0x3f80);
  cr_assert_eq(wire_bfloat16_from_float(-2.0f), 0xc000);
  cr_assert_eq(wire_bfloat16_from_float(0.0f), 0x0000);
  cr_assert_eq(wire_bfloat16_from_float(-0.0f), 0x8000);
  cr_assert_eq(wire_bfloat16_from_float(INFINITY), 0x7f80);
  cr_assert_eq(wire_bfloat16_from_float(-INFINITY), 0xff80);
  cr_assert_eq(wire_bfloat16_from_double(1.5), 0x3fc0);
  cr_assert_eq(wire_bfloat16_from_double(-INFINITY), 0xff80);
  cr_assert_eq(wire_bfloat16_to_float(0x3fc0), 1.5f);
  cr_assert_eq(wire_bfloat16_to_float(0x4049), 3.140625f);
}

Test(bfloat16, rounding_is_to_nearest_even) {
  cr_assert_eq(wire_bfloat16_from_float(1.0f + 0x1p-8f), 0x3f80,
               "halfway ties down to even");
  cr_assert_eq(wire_bfloat16_from_float(1.0f + 0x3p-8f), 0x3f82,
               "halfway ties up to even");
  cr_assert_eq(wire_bfloat16_from_float(1.0f + 0x1p-8f + 0x1p-20f), 0x3f81,
               "above halfway rounds up");
  cr_assert_eq(wire_bfloat16_from_float(0x1.fffffep127f), 0x7f80,
               "FLT_MAX rounds to inf");
  cr_assert_eq(wire_bfloat16_from_double(1.0 + 0x1p-8), 0x3f80);
  cr_assert_eq(wire_bfloat16_from_double(1.0 + 0x3p-8), 0x3f82);
  cr_assert_eq(wire_bfloat16_from_double(1.0 + 0x1p-8 + 0x1p-40), 0x3f81,
               "no double rounding through float");
  cr_assert_eq(wire_bfloat16_from_double(1e300), 0x7f80, "overflow to inf");
  cr_assert_eq(wire_bfloat16_from_double(0x1p-133), 0x0001,
               "smallest bfloat16 subnormal");
  cr_assert_eq(wire_bfloat16_from_double(0x1p-134), 0x0000,
               "half the smallest subnormal ties to 0");
}

Test(bfloat16, nan_stays_nan) {
  cr_assert(bf16_is_nan(wire_bfloat16_from_float(NAN)));
  uint32_t u = 0x7f800001u; /* NaN payload only in the dropped bits */
  float f;
  memcpy(&f, &u, 4);
  cr_assert(bf16_is_nan(wire_bfloat16_from_float(f)), "0x%04x",
            wire_bfloat16_from_float(f));
  cr_assert(bf16_is_nan(wire_bfloat16_from_double(NAN)));
  cr_assert(isnan(wire_bfloat16_to_float(0x7fc0)));
}

Test(bfloat16, every_non_nan_pattern_round_trips) {
  for (uint32_t i = 0; i < 65536; i++) {
    uint16_t b = (uint16_t)i;
    float f = wire_bfloat16_to_float(b);
    if (bf16_is_nan(b)) {
      cr_assert(isnan(f), "0x%04x", b);
      continue;
    }
    uint32_t bits;
    memcpy(&bits, &f, 4);
    cr_assert_eq(bits, (uint32_t)b << 16, "0x%04x -> float bits 0x%08x", b,
                 bits);
    cr_assert_eq(wire_bfloat16_from_float(f), b, "0x%04x via float", b);
    cr_assert_eq(wire_bfloat16_from_double((double)f), b, "0x%04x via double",
                 b);
  }
}

/* ---- MurmurHash3 x64_128 ----------------------------------------------- */

/* Expected lanes from pyfory 1.7.7 (its C MurmurHash3_x64_128):
 *   import pyfory.lib.mmh3 as m
 *   a, b = m.hash_buffer(bytes(range(n)), 47)   # printed as unsigned
 * one vector per tail length 0..15 and across the 16-byte block boundary. */
static const struct {
  size_t n;
  uint64_t h1, h2;
} mm_vectors[] = {
    {0, UINT64_C(0xc7d479d90be9a13a), UINT64_C(0x3adfd99a81dcb327)},
    {1, UINT64_C(0x46f0406dbc95e046), UINT64_C(0x62a3b225c3582b12)},
    {2, UINT64_C(0x2f35260373920095), UINT64_C(0x8ff437847983af3e)},
    {3, UINT64_C(0x9fdfab7fd4f8f3a9), UINT64_C(0x5618e44e4aedd38b)},
    {4, UINT64_C(0x2b22615890cfa35b), UINT64_C(0xb6d61d5d26582a0c)},
    {5, UINT64_C(0xffeccf3f686bbc8d), UINT64_C(0xdbcda0f6c3329a3e)},
    {6, UINT64_C(0xf2a71d932dba585b), UINT64_C(0x0138ada1ddab22cb)},
    {7, UINT64_C(0x59a55def0e566932), UINT64_C(0xafbd88910f7a429a)},
    {8, UINT64_C(0xda4ece0b3d6524a0), UINT64_C(0x58978fd89b7c38d9)},
    {9, UINT64_C(0xe4619ccccf1eb9a4), UINT64_C(0x453ac2836d1076d1)},
    {10, UINT64_C(0xe16cdd7242c1fbb4), UINT64_C(0xc7f17263f0396989)},
    {11, UINT64_C(0x1ccbb24f4813203e), UINT64_C(0xfdaccf5c88eb01d3)},
    {12, UINT64_C(0xb2098d080088bf5c), UINT64_C(0xbda3d88d6f00d785)},
    {13, UINT64_C(0x871cb0b4ca8de0b6), UINT64_C(0x2ca454e92cfbe0bc)},
    {14, UINT64_C(0x2665c5b34271dad3), UINT64_C(0x106337d508d9fae9)},
    {15, UINT64_C(0xd58739a7e38282c3), UINT64_C(0xe21513255442221a)},
    {16, UINT64_C(0x21833af0e6292411), UINT64_C(0x23729bf26aa9df25)},
    {17, UINT64_C(0xa7eb7d6edb2a1e1c), UINT64_C(0xf0f52c458064fb69)},
    {18, UINT64_C(0xb82da1648876f51d), UINT64_C(0x54aa33cef907b054)},
    {19, UINT64_C(0x7e058aac9b9cf688), UINT64_C(0x46336bb19f47cdc4)},
    {20, UINT64_C(0x3caec0a93a4330ea), UINT64_C(0xade3aa56c72854a6)},
    {21, UINT64_C(0xee8cbfabd4b0b4fc), UINT64_C(0xb75df14e5aede3cf)},
    {22, UINT64_C(0xdbc28251472e50d7), UINT64_C(0x9fa43b95cf6e78d9)},
    {23, UINT64_C(0x5919ec17f56ce867), UINT64_C(0x82dbea286d79cdf4)},
    {24, UINT64_C(0x1e9858525c3d8814), UINT64_C(0xe2550e8a486cf7ff)},
    {25, UINT64_C(0xcdaeae3a1d6a61d4), UINT64_C(0xfdc441bc64bc504e)},
    {26, UINT64_C(0x651274824270c2d8), UINT64_C(0x41a76cb97bac73f3)},
    {27, UINT64_C(0x1bdd084155d0edeb), UINT64_C(0xd49d2a98c9f55973)},
    {28, UINT64_C(0x83ef19811db78c5c), UINT64_C(0x72e2414852443daf)},
    {29, UINT64_C(0xd5300ce910847660), UINT64_C(0x16658b914bea5512)},
    {30, UINT64_C(0x1849aac4b2d50cb3), UINT64_C(0x9a20ec6df94ea4a2)},
    {31, UINT64_C(0xca07e9444c32db4b), UINT64_C(0xf3d3d350825f1c8e)},
    {32, UINT64_C(0x8fe1d139cd6383a1), UINT64_C(0x1d99fbd356793956)},
    {33, UINT64_C(0x75a4fbdb543a0522), UINT64_C(0xdb5dc6db3cd11834)},
};

Test(murmur, matches_pyfory_for_every_tail_length_with_seed_47) {
  uint8_t data[40];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
  for (size_t i = 0; i < sizeof mm_vectors / sizeof *mm_vectors; i++) {
    uint64_t h1 = 0, h2 = 0;
    wire_murmur3_x64_128(data, mm_vectors[i].n, 47, &h1, &h2);
    cr_assert_eq(h1, mm_vectors[i].h1, "len %zu lane0 0x%016llx",
                 mm_vectors[i].n, (unsigned long long)h1);
    cr_assert_eq(h2, mm_vectors[i].h2, "len %zu lane1 0x%016llx",
                 mm_vectors[i].n, (unsigned long long)h2);
  }
}

Test(murmur, matches_the_published_quick_brown_fox_vector) {
  /* The widely published MurmurHash3_x64_128 value of this sentence with
   * seed 0; pyfory's hash_buffer(..., 0) gives the same lanes. */
  static const char s[] = "The quick brown fox jumps over the lazy dog";
  uint64_t h1, h2;
  wire_murmur3_x64_128((const uint8_t *)s, sizeof s - 1, 0, &h1, &h2);
  cr_assert_eq(h1, UINT64_C(0xe34bbc7bbc071b6c));
  cr_assert_eq(h2, UINT64_C(0x7a433ca9c49a9347));
  wire_murmur3_x64_128((const uint8_t *)"", 0, 0, &h1, &h2);
  cr_assert_eq(h1, 0u);
  cr_assert_eq(h2, 0u);
}

Test(murmur, lane_outputs_may_be_null) {
  uint64_t h1 = 0;
  wire_murmur3_x64_128((const uint8_t *)"hello", 5, 0, &h1, NULL);
  cr_assert_eq(h1, UINT64_C(0xcbd8a7b341bd9b02)); /* pyfory, seed 0 */
}

/* ---- strings ------------------------------------------------------------ */

static int32_t choose(const char *s) {
  return wire_string_choose_encoding((const uint8_t *)s, strlen(s));
}

Test(text, string_encoding_choice_follows_the_java_runtime) {
  /* Rows of conformance/peers/java/PROBES.md (fory-core 1.6.0 writer). */
  static char a70[80], a63[80], h70[80];
  memset(a70, 'a', 70);
  strcpy(a70 + 70, "日");
  memset(a63, 'a', 63);
  strcpy(a63 + 63, "日日");
  strcpy(h70, "日");
  memset(h70 + 3, 'a', 70);
  h70[73] = 0;
  static const struct {
    const char *s;
    int32_t enc;
  } k[] = {
      {"hi", WIRE_STR_LATIN1},       {"héllo", WIRE_STR_LATIN1},
      {"", WIRE_STR_LATIN1},         {"\xc3\xbf", WIRE_STR_LATIN1},
      {"日本", WIRE_STR_UTF16},      {"日本a", WIRE_STR_UTF16},
      {"aé日", WIRE_STR_UTF8},       {"😀", WIRE_STR_UTF16},
      {"a😀", WIRE_STR_UTF8},        {"€", WIRE_STR_UTF16},
      {"abcde日", WIRE_STR_UTF8},    {"abcdé日", WIRE_STR_UTF16},
      {"abcé日", WIRE_STR_UTF16},    {"é日", WIRE_STR_UTF16},
      {"\xc4\x80", WIRE_STR_UTF16}, /* U+0100: first char past Latin-1 */
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    cr_assert_eq(choose(k[i].s), k[i].enc, "\"%s\": %d, want %d", k[i].s,
                 choose(k[i].s), k[i].enc);
  cr_assert_eq(choose(a70), WIRE_STR_UTF8, "'a'*70 + 日");
  cr_assert_eq(choose(a63), WIRE_STR_UTF16, "'a'*63 + 日日");
  cr_assert_eq(choose(h70), WIRE_STR_UTF16, "日 + 'a'*70");
}

Test(text, write_string_uses_the_chosen_encoding) {
  static const struct {
    const char *s;
    size_t n;
    uint8_t b[16];
  } k[] = {
      {"hi", 3, {0x08, 0x68, 0x69}},
      {"héllo", 6, {0x14, 0x68, 0xe9, 0x6c, 0x6c, 0x6f}},
      {"日本", 5, {0x11, 0xe5, 0x65, 0x2c, 0x67}},
      {"aé日", 7, {0x1a, 0x61, 0xc3, 0xa9, 0xe6, 0x97, 0xa5}},
      {"😀", 5, {0x11, 0x3d, 0xd8, 0x00, 0xde}},
      {"", 1, {0x00}},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    wire_write_string(w, (const uint8_t *)k[i].s, strlen(k[i].s));
    expect_bytes(w, k[i].b, k[i].n, k[i].s);
    wire_writer_free(w);
  }
}

Test(text, long_string_header_is_multi_byte) {
  char s[71];
  memset(s, 'a', 70);
  s[70] = 0;
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  wire_write_string(w, (const uint8_t *)s, 70);
  cr_assert_eq(wire_writer_size(w), 72);
  /* 70 << 2 | latin1 = 280 = 98 02 */
  cr_assert_eq(wire_writer_data(w)[0], 0x98);
  cr_assert_eq(wire_writer_data(w)[1], 0x02);
  wire_writer_free(w);
}

Test(text, read_string_returns_encoding_and_bytes) {
  wire_reader *r = reader(U8S(0x11, 0xe5, 0x65, 0x2c, 0x67, 0x08, 0x68, 0x69),
                          8);
  int32_t enc;
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_read_string(r, &enc, &p, &n), WIRE_OK);
  cr_assert_eq(enc, WIRE_STR_UTF16);
  cr_assert_eq(n, 4);
  cr_assert_eq(p[0], 0xe5);
  cr_assert_eq(wire_read_string(r, &enc, &p, &n), WIRE_OK);
  cr_assert_eq(enc, WIRE_STR_LATIN1);
  cr_assert_eq(n, 2);
  cr_assert_eq(memcmp(p, "hi", 2), 0);
  wire_reader_free(r);
}

Test(text, read_string_rejects_bad_headers_and_text) {
  static const bad cases[] = {
      {2, {0x07, 0x41}, "reserved encoding 3"},
      {2, {0x05, 0x41}, "UTF-16 of odd length"},
      {3, {0x0a, 0xc0, 0x80}, "overlong UTF-8"},
      {3, {0x09, 0x00, 0xd8}, "lone UTF-16 high surrogate"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wire_reader *r = reader(cases[i].b, cases[i].n);
    int32_t enc;
    const uint8_t *p;
    size_t n;
    cr_assert_eq(wire_read_string(r, &enc, &p, &n), WIRE_E_STRING, "%s",
                 cases[i].why);
    cr_assert_eq(wire_reader_offset(r), 0, "%s", cases[i].why);
    wire_reader_free(r);
  }
  wire_reader *r = reader(U8S(0x0c, 0x61), 2); /* 3 bytes announced */
  int32_t enc;
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_read_string(r, &enc, &p, &n), WIRE_E_TRUNCATED);
  wire_reader_free(r);
}

static int32_t v8(const char *s, size_t n) {
  return wire_utf8_validate((const uint8_t *)s, n);
}

Test(text, utf8_validate_accepts_valid_text_and_boundaries) {
  cr_assert_eq(v8("", 0), WIRE_OK);
  cr_assert_eq(v8("plain ascii text!", 17), WIRE_OK);
  cr_assert_eq(v8("\xc2\x80", 2), WIRE_OK, "U+0080");
  cr_assert_eq(v8("\xdf\xbf", 2), WIRE_OK, "U+07FF");
  cr_assert_eq(v8("\xe0\xa0\x80", 3), WIRE_OK, "U+0800");
  cr_assert_eq(v8("\xed\x9f\xbf", 3), WIRE_OK, "U+D7FF");
  cr_assert_eq(v8("\xee\x80\x80", 3), WIRE_OK, "U+E000");
  cr_assert_eq(v8("\xef\xbf\xbf", 3), WIRE_OK, "U+FFFF");
  cr_assert_eq(v8("\xf0\x90\x80\x80", 4), WIRE_OK, "U+10000");
  cr_assert_eq(v8("\xf4\x8f\xbf\xbf", 4), WIRE_OK, "U+10FFFF");
  cr_assert_eq(v8("abcdefgh\xe6\x97\xa5xyz", 14), WIRE_OK, "after fast path");
  /* sequences in the last, partial word (read overlapping the one before) */
  cr_assert_eq(v8("0123456789\xe1\x88\xb4", 13), WIRE_OK, "U+1234 in the tail");
  cr_assert_eq(v8("Javaone Keynote\xe1\x88\xb4", 18), WIRE_OK, "two words, tail");
  cr_assert_eq(v8("0123456789ab\xf4\x8f\xbf\xbf", 16), WIRE_OK, "U+10FFFF last");
}

Test(text, utf8_validate_rejects_malformed_text) {
  static const struct {
    const char *s;
    size_t n;
    const char *why;
  } k[] = {
      {"\xc0\x80", 2, "overlong NUL"},
      {"\xc1\xbf", 2, "overlong 2-byte"},
      {"\xe0\x80\x80", 3, "overlong 3-byte"},
      {"\xe0\x9f\xbf", 3, "overlong U+07FF"},
      {"\xf0\x80\x80\x80", 4, "overlong 4-byte"},
      {"\xf0\x8f\xbf\xbf", 4, "overlong U+FFFF"},
      {"\xed\xa0\x80", 3, "high surrogate U+D800"},
      {"\xed\xbf\xbf", 3, "low surrogate U+DFFF"},
      {"\xed\xa0\xbd\xed\xb8\x80", 6, "CESU-8 surrogate pair"},
      {"\xf4\x90\x80\x80", 4, "U+110000"},
      {"\xf5\x80\x80\x80", 4, "lead byte F5"},
      {"\xf8\x88\x80\x80\x80", 5, "5-byte form"},
      {"\xff", 1, "byte FF"},
      {"\x80", 1, "lone continuation"},
      {"\xe6\x97", 2, "truncated 3-byte"},
      {"a\xf0\x9f\x98", 4, "truncated 4-byte"},
      {"\xc3", 1, "truncated 2-byte"},
      {"\xe6\x41\xa5", 3, "ASCII inside a sequence"},
      {"abcdefgh\x80", 9, "bad byte after the 8-byte fast path"},
      {"0123456789\xe1\x88", 12, "truncated 3-byte in the tail"},
      {"0123456789\xed\xa0\x80", 13, "surrogate in the tail"},
      {"0123456789ab\xf4\x90\x80\x80", 16, "U+110000 in the tail"},
      {"0123456789\xe0\x9f\xbfxy", 15, "overlong in the tail"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    cr_assert_eq(v8(k[i].s, k[i].n), WIRE_E_STRING, "%s", k[i].why);
}

static void expect_utf8(int32_t enc, const uint8_t *in, size_t n,
                        const char *want) {
  uint8_t *out = NULL;
  size_t len = 99;
  cr_assert_eq(wire_string_to_utf8(ctx, enc, in, n, &out, &len), WIRE_OK,
               "want \"%s\"", want);
  cr_assert_not_null(out);
  cr_assert_eq(len, strlen(want), "\"%s\": length %zu", want, len);
  cr_assert_eq(memcmp(out, want, len), 0, "\"%s\"", want);
  cr_assert_eq(out[len], 0, "NUL terminated");
  wire_ctx_free_bytes(ctx, out);
}

Test(text, string_to_utf8_converts_each_encoding) {
  expect_utf8(WIRE_STR_LATIN1, U8S(0x68, 0xe9, 0x6c, 0x6c, 0x6f), 5, "héllo");
  expect_utf8(WIRE_STR_LATIN1, U8S(0xff, 0x80), 2, "\xc3\xbf\xc2\x80");
  expect_utf8(WIRE_STR_UTF16, U8S(0xe5, 0x65, 0x2c, 0x67), 4, "日本");
  expect_utf8(WIRE_STR_UTF16, U8S(0x3d, 0xd8, 0x00, 0xde), 4, "😀");
  expect_utf8(WIRE_STR_UTF16, U8S(0x61, 0x00, 0xe9, 0x00, 0xac, 0x20), 6,
              "aé€");
  expect_utf8(WIRE_STR_UTF8, U8S(0x61, 0xc3, 0xa9, 0xe6, 0x97, 0xa5), 6,
              "aé日");
  expect_utf8(WIRE_STR_UTF8, (const uint8_t *)"", 0, "");
}

Test(text, string_to_utf8_rejects_invalid_input) {
  uint8_t *out = (uint8_t *)"sentinel";
  cr_assert_eq(wire_string_to_utf8(ctx, WIRE_STR_UTF16, U8S(0x00, 0xd8), 2,
                                   &out, NULL),
               WIRE_E_STRING, "lone high surrogate");
  cr_assert_null(out);
  cr_assert_eq(wire_string_to_utf8(ctx, WIRE_STR_UTF16, U8S(0x00, 0xdc, 0x61,
                                                            0x00),
                                   4, &out, NULL),
               WIRE_E_STRING, "lone low surrogate");
  cr_assert_eq(wire_string_to_utf8(ctx, WIRE_STR_UTF16, U8S(0x61, 0x00, 0x62),
                                   3, &out, NULL),
               WIRE_E_STRING, "odd length");
  cr_assert_eq(wire_string_to_utf8(ctx, WIRE_STR_UTF8, U8S(0xed, 0xa0, 0x80),
                                   3, &out, NULL),
               WIRE_E_STRING, "surrogate in UTF-8");
  cr_assert_eq(wire_string_to_utf8(ctx, 3, U8S(0x61), 1, &out, NULL),
               WIRE_E_ARG, "encoding 3");
}

/* wire__copy takes a different route for large copies whose destination
 * is 1-15 bytes past the source modulo 64 (internal.h): every relative
 * offset, at sizes around the 4096-byte threshold and one with a tail,
 * copies exactly the bytes and nothing around them. */
Test(writer, large_copies_are_exact_at_every_relative_offset) {
  enum { MAX = 20011 };
  static uint8_t src[MAX + 64], dst[MAX + 64 + 2];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 131 + 7);
  const size_t sizes[] = {4095, 4096, 4163, MAX};
  const size_t srcoffs[] = {0, 13};
  for (size_t si = 0; si < 4; si++)
    for (size_t so = 0; so < 2; so++)
      for (size_t d = 0; d < 64; d++) {
        size_t n = sizes[si];
        memset(dst, 0xA5, sizeof dst);
        wire__copy(dst + 1 + d, src + srcoffs[so], n);
        cr_assert_eq(memcmp(dst + 1 + d, src + srcoffs[so], n), 0,
                     "size %zu src+%zu dst+%zu", n, srcoffs[so], d);
        cr_assert_eq(dst[d], 0xA5);
        cr_assert_eq(dst[1 + d + n], 0xA5);
      }
}

/* wire__utf16_check reads four units a word (eight a step with SSE2, from
 * 16 bytes) while no byte is 0xD8-0xDF: in texts of 1-40 units (steps,
 * the overlapping last one, word and tail), a lone high surrogate, a lone
 * low one, a reversed pair and a high one ending the text are found at
 * every position, a valid pair is passed at every position, and Latin
 * text with low bytes in that range (U+00D8..U+00DF) passes. */
Test(text, utf16_check_at_every_position) {
  uint8_t s[82] = {0};
  for (size_t n = 1; n <= 40; n++)
    for (size_t at = 0; at < n; at++) {
      for (size_t k = 0; k < n; k++) { s[2 * k] = (uint8_t)('a' + k); s[2 * k + 1] = 0; }
      size_t len = 2 * n;
      s[2 * at] = 0x00; s[2 * at + 1] = 0xDC; /* lone low */
      cr_assert_eq(wire__utf16_check(s, len), 2 * at, "low n=%zu at=%zu", n, at);
      s[2 * at + 1] = 0xD8; /* high: followed by 'a'+.. or the end */
      cr_assert_eq(wire__utf16_check(s, len), 2 * at, "high n=%zu at=%zu", n, at);
      if (at + 1 < n) {
        s[2 * at + 3] = 0xDC; s[2 * at + 2] = 0x01; /* a pair */
        cr_assert_eq(wire__utf16_check(s, len), len, "pair n=%zu at=%zu", n, at);
        s[2 * at + 1] = 0xDC; s[2 * at + 3] = 0xD8; /* reversed */
        cr_assert_eq(wire__utf16_check(s, len), 2 * at, "reversed n=%zu at=%zu", n, at);
      }
      for (size_t k = 0; k < n; k++) { s[2 * k] = (uint8_t)(0xD8 + k % 8); s[2 * k + 1] = 0; }
      cr_assert_eq(wire__utf16_check(s, len), len, "latin n=%zu", n);
      cr_assert_eq(wire__utf16_check(s, len + 1), len, "odd n=%zu", n);
    }
}

/* wire__copy_ascii at every length to 80: the bytes copied and nothing
 * around them touched; false when any one byte is past ASCII (each
 * position; 1-3 bytes are read as first, middle and last). */
Test(text, copy_ascii_at_every_length_and_position) {
  uint8_t s[80], out[96];
  for (size_t n = 0; n <= sizeof s; n++) {
    for (size_t k = 0; k < n; k++) s[k] = (uint8_t)('a' + k % 26);
    memset(out, 0xEE, sizeof out);
    cr_assert(wire__copy_ascii(out + 8, s, n), "ascii n=%zu", n);
    cr_assert(!memcmp(out + 8, s, n), "copy n=%zu", n);
    for (size_t k = 0; k < 8; k++)
      cr_assert(out[k] == 0xEE && out[8 + n + k] == 0xEE, "outside n=%zu", n);
    for (size_t at = 0; at < n; at++) {
      s[at] = 0x80;
      cr_assert(!wire__copy_ascii(out + 8, s, n), "n=%zu at=%zu", n, at);
      s[at] = (uint8_t)('a' + at % 26);
    }
  }
}
