/* test_ffi.c - the shared library called the way ctypes, cffi and JNA call
 * it: dlopen + dlsym, then libffi calls with declared signatures (pointers,
 * int32, uint32, int64, uint64, size_t, double, uint16), never through the
 * C prototypes of wire.h. WIRE_LIB names the library (the Makefile sets it
 * to build/lib/libwire.so). */
#include <criterion/criterion.h>

#include <dlfcn.h>
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

static void *lib;

static void setup(void) {
  const char *path = getenv("WIRE_LIB");
  if (!path || !*path) path = "build/lib/libwire.so";
  lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  cr_assert_not_null(lib, "dlopen %s: %s", path, dlerror());
}
static void teardown(void) {
  if (lib) dlclose(lib);
}

TestSuite(ffi, .init = setup, .fini = teardown);

#define SIZE_T_FFI (sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32)

/* Big enough for any return value; integer returns narrower than a
 * register come back widened to ffi_arg, as libffi specifies. */
typedef union {
  ffi_arg a;
  ffi_sarg s;
  uint64_t u64;
  int64_t i64;
  double d;
  void *p;
} ret;

static void *sym(const char *name) {
  dlerror();
  void *p = dlsym(lib, name);
  cr_assert_not_null(p, "dlsym %s: %s", name, dlerror());
  return p;
}

/* Calls `name` with the given signature. */
static ret call(const char *name, ffi_type *rtype, unsigned nargs,
                ffi_type **atypes, void **avalues) {
  ffi_cif cif;
  cr_assert_eq(ffi_prep_cif(&cif, FFI_DEFAULT_ABI, nargs, rtype, atypes),
               FFI_OK, "ffi_prep_cif %s", name);
  ret r;
  memset(&r, 0, sizeof r);
  ffi_call(&cif, FFI_FN(sym(name)), &r, avalues);
  return r;
}

/* ---- typed wrappers, one per signature used ----------------------------- */

static void *p_of_void(const char *name) {
  return call(name, &ffi_type_pointer, 0, NULL, NULL).p;
}
static void v_of_p(const char *name, void *a) {
  ffi_type *t[] = {&ffi_type_pointer};
  void *v[] = {&a};
  call(name, &ffi_type_void, 1, t, v);
}
static int32_t i32_of_p(const char *name, void *a) {
  ffi_type *t[] = {&ffi_type_pointer};
  void *v[] = {&a};
  return (int32_t)call(name, &ffi_type_sint32, 1, t, v).s;
}
static uint32_t u32_of_p(const char *name, void *a) {
  ffi_type *t[] = {&ffi_type_pointer};
  void *v[] = {&a};
  return (uint32_t)call(name, &ffi_type_uint32, 1, t, v).a;
}
static int64_t i64_of_p(const char *name, void *a) {
  ffi_type *t[] = {&ffi_type_pointer};
  void *v[] = {&a};
  return call(name, &ffi_type_sint64, 1, t, v).i64;
}
static uint64_t u64_of_p(const char *name, void *a) {
  ffi_type *t[] = {&ffi_type_pointer};
  void *v[] = {&a};
  return call(name, &ffi_type_uint64, 1, t, v).u64;
}
static size_t size_of_p(const char *name, void *a) {
  ffi_type *t[] = {&ffi_type_pointer};
  void *v[] = {&a};
  ret r = call(name, SIZE_T_FFI, 1, t, v);
  return sizeof(size_t) == 8 ? (size_t)r.u64 : (size_t)r.a;
}
static void *p_of_p_size(const char *name, void *a, size_t i) {
  ffi_type *t[] = {&ffi_type_pointer, SIZE_T_FFI};
  void *v[] = {&a, &i};
  return call(name, &ffi_type_pointer, 2, t, v).p;
}
static const char *str_of_i32(const char *name, int32_t s) {
  ffi_type *t[] = {&ffi_type_sint32};
  void *v[] = {&s};
  return call(name, &ffi_type_pointer, 1, t, v).p;
}
static int32_t set_option(void *ctx, int32_t opt, int64_t value) {
  ffi_type *t[] = {&ffi_type_pointer, &ffi_type_sint32, &ffi_type_sint64};
  void *v[] = {&ctx, &opt, &value};
  return (int32_t)call("wire_ctx_set_option", &ffi_type_sint32, 3, t, v).s;
}
static int64_t get_option(void *ctx, int32_t opt) {
  ffi_type *t[] = {&ffi_type_pointer, &ffi_type_sint32};
  void *v[] = {&ctx, &opt};
  return call("wire_ctx_get_option", &ffi_type_sint64, 2, t, v).i64;
}
static int32_t set_limit(void *ctx, int32_t which, uint64_t value) {
  ffi_type *t[] = {&ffi_type_pointer, &ffi_type_sint32, &ffi_type_uint64};
  void *v[] = {&ctx, &which, &value};
  return (int32_t)call("wire_ctx_set_limit", &ffi_type_sint32, 3, t, v).s;
}
static int32_t decode(void *ctx, const uint8_t *data, size_t len, void **doc) {
  ffi_type *t[] = {&ffi_type_pointer, &ffi_type_pointer, SIZE_T_FFI,
                   &ffi_type_pointer};
  void *v[] = {&ctx, &data, &len, &doc};
  return (int32_t)call("wire_decode", &ffi_type_sint32, 4, t, v).s;
}
static int32_t encode(void *ctx, void *doc, uint8_t **out, size_t *out_len) {
  ffi_type *t[] = {&ffi_type_pointer, &ffi_type_pointer, &ffi_type_pointer,
                   &ffi_type_pointer};
  void *v[] = {&ctx, &doc, &out, &out_len};
  return (int32_t)call("wire_encode", &ffi_type_sint32, 4, t, v).s;
}
static void free_bytes(void *ctx, uint8_t *bytes) {
  ffi_type *t[] = {&ffi_type_pointer, &ffi_type_pointer};
  void *v[] = {&ctx, &bytes};
  call("wire_ctx_free_bytes", &ffi_type_void, 2, t, v);
}
static uint16_t f16_from_double(double d) {
  ffi_type *t[] = {&ffi_type_double};
  void *v[] = {&d};
  return (uint16_t)call("wire_float16_from_double", &ffi_type_uint16, 1, t, v)
      .a;
}
static double f16_to_double(uint16_t h) {
  ffi_type *t[] = {&ffi_type_uint16};
  void *v[] = {&h};
  return call("wire_float16_to_double", &ffi_type_double, 1, t, v).d;
}

static const uint8_t payload[] = {
    0x01, 0xff, 0x07, 0xd7, 0x04,                  /* varint64 -300 */
    0x01, 0xff, 0x0d, 0xff, 0xff, 0xff, 0xff, 0xff, /* uint64 max */
    0xff, 0xff, 0xff};

/* ---- tests --------------------------------------------------------------- */

Test(ffi, version_number_and_string) {
  uint32_t v = (uint32_t)call("wire_version_number", &ffi_type_uint32, 0,
                              NULL, NULL)
                   .a;
  cr_assert_eq(v, WIRE_VERSION_MAJOR * 10000 + WIRE_VERSION_MINOR * 100 +
                      WIRE_VERSION_PATCH);
  const char *s = p_of_void("wire_version_string");
  char want[32];
  snprintf(want, sizeof want, "%d.%d.%d", WIRE_VERSION_MAJOR,
           WIRE_VERSION_MINOR, WIRE_VERSION_PATCH);
  cr_assert_str_eq(s, want);
}

Test(ffi, decode_inspect_encode_free) {
  void *ctx = p_of_void("wire_ctx_new");
  cr_assert_not_null(ctx);
  cr_assert_eq(set_option(ctx, WIRE_OPT_REF_TRACKING, 0), WIRE_OK);
  cr_assert_eq(get_option(ctx, WIRE_OPT_REF_TRACKING), 0);
  void *doc = (void *)&doc;
  cr_assert_eq(decode(ctx, payload, sizeof payload, &doc), WIRE_OK);
  cr_assert_not_null(doc);
  cr_assert_eq(size_of_p("wire_doc_root_count", doc), 2);
  void *n0 = p_of_p_size("wire_doc_root", doc, 0);
  void *n1 = p_of_p_size("wire_doc_root", doc, 1);
  cr_assert_null(p_of_p_size("wire_doc_root", doc, 2));
  if (sizeof(size_t) == 8)
    cr_assert_null(p_of_p_size("wire_doc_root", doc, (size_t)1 << 32),
                   "a 64-bit size_t index is not cut to 32 bits");
  cr_assert_eq(u32_of_p("wire_node_type", n0), WIRE_T_VARINT64);
  cr_assert_eq(i64_of_p("wire_node_int", n0), -300);
  cr_assert_eq(u32_of_p("wire_node_type", n1), WIRE_T_UINT64);
  cr_assert_eq(u64_of_p("wire_node_uint", n1), UINT64_MAX);
  cr_assert_eq(u32_of_p("wire_node_index", n1), 1);
  uint8_t *out = NULL;
  size_t len = 0;
  cr_assert_eq(encode(ctx, doc, &out, &len), WIRE_OK);
  cr_assert_eq(len, sizeof payload);
  cr_assert_arr_eq(out, payload, len);
  free_bytes(ctx, out);
  v_of_p("wire_doc_free", doc);
  v_of_p("wire_ctx_free", ctx);
}

Test(ffi, errors_through_ffi) {
  void *ctx = p_of_void("wire_ctx_new");
  static const uint8_t bad[] = {0x01, 0xff, 0x01, 0x02}; /* bool byte 2 */
  void *doc = (void *)&doc;
  int32_t st = decode(ctx, bad, sizeof bad, &doc);
  cr_assert_eq(st, WIRE_E_VALUE);
  cr_assert_null(doc);
  cr_assert_eq(i32_of_p("wire_ctx_error_code", ctx), WIRE_E_VALUE);
  cr_assert_eq(u64_of_p("wire_ctx_error_offset", ctx), 3);
  ffi_type *t[] = {&ffi_type_pointer};
  void *v[] = {&ctx};
  const char *msg = call("wire_ctx_error_message", &ffi_type_pointer, 1, t, v).p;
  cr_assert_not_null(msg);
  cr_assert_gt(strlen(msg), 0);
  cr_assert_str_eq(str_of_i32("wire_status_name", st), "value");
  cr_assert_str_eq(str_of_i32("wire_status_name", WIRE_E_TRUNCATED),
                   "truncated");
  cr_assert_str_eq(str_of_i32("wire_status_name", -1), "unknown",
                   "a negative int32 argument stays negative");
  cr_assert_gt(strlen(str_of_i32("wire_status_message", WIRE_E_DEPTH)), 0);
  v_of_p("wire_ctx_free", ctx);
}

Test(ffi, limits_through_ffi) {
  void *ctx = p_of_void("wire_ctx_new");
  /* 4 nested lists around 1 */
  static const uint8_t deep[] = {0x01, 0xff, 0x16, 0x01, 0x08, 0x16, 0x01,
                                 0x08, 0x16, 0x01, 0x08, 0x16, 0x01, 0x08,
                                 0x07, 0x02};
  cr_assert_eq(set_limit(ctx, WIRE_LIMIT_DEPTH, 3), WIRE_OK);
  ffi_type *t[] = {&ffi_type_pointer, &ffi_type_sint32};
  int32_t which = WIRE_LIMIT_DEPTH;
  void *v[] = {&ctx, &which};
  cr_assert_eq(call("wire_ctx_get_limit", &ffi_type_uint64, 2, t, v).u64, 3);
  void *doc;
  cr_assert_eq(decode(ctx, deep, sizeof deep, &doc), WIRE_E_DEPTH);
  /* 2^32 + 5 is out of the depth range; cut to 32 bits it would be 5. */
  cr_assert_eq(set_limit(ctx, WIRE_LIMIT_DEPTH, (UINT64_C(1) << 32) + 5),
               WIRE_E_ARG, "the whole uint64 reaches the library");
  cr_assert_eq(call("wire_ctx_get_limit", &ffi_type_uint64, 2, t, v).u64, 3);
  int32_t bin = WIRE_LIMIT_BINARY;
  void *vb[] = {&ctx, &bin};
  cr_assert_eq(set_limit(ctx, WIRE_LIMIT_BINARY, (UINT64_C(1) << 40) + 7),
               WIRE_OK);
  cr_assert_eq(call("wire_ctx_get_limit", &ffi_type_uint64, 2, t, vb).u64,
               (UINT64_C(1) << 40) + 7);
  cr_assert_eq(set_limit(ctx, WIRE_LIMIT_DEPTH, 4), WIRE_OK);
  cr_assert_eq(decode(ctx, deep, sizeof deep, &doc), WIRE_OK);
  v_of_p("wire_doc_free", doc);
  v_of_p("wire_ctx_free", ctx);
}

Test(ffi, float16_with_double_arguments_and_results) {
  cr_assert_eq(f16_from_double(1.5), 0x3e00);
  cr_assert_eq(f16_from_double(65504.0), 0x7bff);
  cr_assert_eq(f16_from_double(65520.0), 0x7c00);
  cr_assert_eq(f16_from_double(-0.0), 0x8000);
  cr_assert_eq(f16_to_double(0x3c00), 1.0);
  cr_assert_eq(f16_to_double(0x0001), 0x1p-24);
  cr_assert_eq(f16_to_double(0xc000), -2.0);
}

Test(ffi, builders_mixing_integer_and_double_arguments) {
  void *ctx = p_of_void("wire_ctx_new");
  ffi_type *t1[] = {&ffi_type_pointer};
  void *a1[] = {&ctx};
  void *doc = call("wire_doc_new", &ffi_type_pointer, 1, t1, a1).p;
  cr_assert_not_null(doc);
  uint32_t type = WIRE_T_FLOAT16;
  double value = 1.5;
  ffi_type *t2[] = {&ffi_type_pointer, &ffi_type_uint32, &ffi_type_double};
  void *a2[] = {&doc, &type, &value};
  void *node = call("wire_node_new_float", &ffi_type_pointer, 3, t2, a2).p;
  cr_assert_not_null(node);
  cr_assert_eq(u64_of_p("wire_node_float_bits", node), 0x3e00);
  ffi_type *t3[] = {&ffi_type_pointer};
  void *a3[] = {&node};
  cr_assert_eq(call("wire_node_float", &ffi_type_double, 1, t3, a3).d, 1.5);
  /* int64 argument after a uint32 */
  uint32_t itype = WIRE_T_INT64;
  int64_t iv = INT64_MIN;
  ffi_type *t4[] = {&ffi_type_pointer, &ffi_type_uint32, &ffi_type_sint64};
  void *a4[] = {&doc, &itype, &iv};
  void *inode = call("wire_node_new_int", &ffi_type_pointer, 3, t4, a4).p;
  cr_assert_eq(i64_of_p("wire_node_int", inode), INT64_MIN);
  ffi_type *t5[] = {&ffi_type_pointer, &ffi_type_pointer};
  void *a5[] = {&doc, &inode};
  cr_assert_eq((int32_t)call("wire_doc_add_root", &ffi_type_sint32, 2, t5, a5)
                   .s,
               WIRE_OK);
  uint8_t *out;
  size_t len;
  cr_assert_eq(encode(ctx, doc, &out, &len), WIRE_OK);
  static const uint8_t want[] = {0x01, 0xff, 0x06, 0, 0, 0, 0, 0, 0, 0, 0x80};
  cr_assert_eq(len, sizeof want);
  cr_assert_arr_eq(out, want, len);
  free_bytes(ctx, out);
  v_of_p("wire_doc_free", doc);
  v_of_p("wire_ctx_free", ctx);
}

Test(ffi, murmur_with_uint64_seed_and_out_pointers) {
  static const char s[] = "The quick brown fox jumps over the lazy dog";
  const uint8_t *data = (const uint8_t *)s;
  size_t len = sizeof s - 1;
  uint64_t seed = 0, h1 = 1, h2 = 2;
  uint64_t *p1 = &h1, *p2 = &h2;
  ffi_type *t[] = {&ffi_type_pointer, SIZE_T_FFI, &ffi_type_uint64,
                   &ffi_type_pointer, &ffi_type_pointer};
  void *v[] = {&data, &len, &seed, &p1, &p2};
  call("wire_murmur3_x64_128", &ffi_type_void, 5, t, v);
  cr_assert_eq(h1, UINT64_C(0xe34bbc7bbc071b6c));
  cr_assert_eq(h2, UINT64_C(0x7a433ca9c49a9347));
}

Test(ffi, meta_string_encode_with_size_t_in_and_out) {
  int32_t msctx = WIRE_MSCTX_NAMESPACE, enc = WIRE_MS_ALL_TO_LOWER_SPECIAL;
  const uint8_t *text = (const uint8_t *)"demo";
  size_t tlen = 4, cap = 16, out_len = 0;
  uint8_t buf[16];
  uint8_t *out = buf;
  size_t *olp = &out_len;
  ffi_type *t[] = {&ffi_type_sint32, &ffi_type_sint32, &ffi_type_pointer,
                   SIZE_T_FFI,       &ffi_type_pointer, SIZE_T_FFI,
                   &ffi_type_pointer};
  void *v[] = {&msctx, &enc, &text, &tlen, &out, &cap, &olp};
  int32_t st = (int32_t)call("wire_meta_encode", &ffi_type_sint32, 7, t, v).s;
  cr_assert_eq(st, WIRE_OK);
  cr_assert_eq(out_len, 3);
  cr_assert_arr_eq(buf, ((const uint8_t[]){0x0c, 0x8c, 0x70}), 3);
}

Test(ffi, internal_symbols_are_not_exported) {
  static const char *const internal[] = {"wire__alloc", "wire__fail",
                                         "wire__buf_grow", "wire__utf8_check",
                                         "wire__java_string_encoding"};
  for (size_t i = 0; i < sizeof internal / sizeof *internal; i++) {
    dlerror();
    cr_assert_null(dlsym(lib, internal[i]), "%s is exported", internal[i]);
  }
}

Test(ffi, every_listed_symbol_resolves) {
  FILE *f = fopen("libwire/symbols.txt", "r");
  if (!f) cr_skip_test("libwire/symbols.txt not found from this directory");
  char line[256];
  size_t n = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (!*line) continue;
    cr_assert_eq(strncmp(line, "wire_", 5), 0, "%s lacks the wire_ prefix",
                 line);
    cr_assert_neq(strncmp(line, "wire__", 6), 0, "%s is internal", line);
    dlerror();
    cr_assert_not_null(dlsym(lib, line), "%s: %s", line, dlerror());
    n++;
  }
  fclose(f);
  cr_assert_gt(n, 100, "only %zu symbols listed", n);
}

/* Every accessor checks the node kind: on another kind it returns 0, NULL
 * or -1, never the bits of another representation (a string's pointer). */
Test(ffi, accessors_on_the_wrong_kind_return_nothing) {
  /* roots: string "ab", varint64 -300, uint64 max */
  static const uint8_t p[] = {0x01, 0xff, 0x15, 0x0a, 'a',  'b',
                              0x01, 0xff, 0x07, 0xd7, 0x04, 0x01,
                              0xff, 0x0d, 0xff, 0xff, 0xff, 0xff,
                              0xff, 0xff, 0xff, 0xff};
  void *ctx = p_of_void("wire_ctx_new");
  void *doc = NULL;
  cr_assert_eq(decode(ctx, p, sizeof p, &doc), WIRE_OK);
  void *s = p_of_p_size("wire_doc_root", doc, 0);
  void *i = p_of_p_size("wire_doc_root", doc, 1);
  void *u = p_of_p_size("wire_doc_root", doc, 2);
  cr_assert_eq(u32_of_p("wire_node_type", s), WIRE_T_STRING);
  cr_assert_eq(i64_of_p("wire_node_int", s), 0);
  cr_assert_eq(u64_of_p("wire_node_uint", s), 0);
  cr_assert_eq(u64_of_p("wire_node_float_bits", s), 0);
  cr_assert_eq(u32_of_p("wire_node_nanos", s), 0);
  cr_assert_eq(u32_of_p("wire_node_enum_value", s), 0);
  cr_assert_eq(size_of_p("wire_node_count", s), 0);
  cr_assert_null(p_of_p_size("wire_node_child", s, 0));
  cr_assert_null(p_of_p_size("wire_node_field", s, 0));
  cr_assert_eq(u64_of_p("wire_node_uint", i), 0);
  cr_assert_eq(i64_of_p("wire_node_int", i), -300);
  cr_assert_eq(i32_of_p("wire_node_string_encoding", i), -1);
  cr_assert_eq(i64_of_p("wire_node_int", u), 0);
  cr_assert_eq(u64_of_p("wire_node_uint", u), UINT64_MAX);
  v_of_p("wire_doc_free", doc);
  v_of_p("wire_ctx_free", ctx);
}

/* Out-of-band buffers through libffi: a pointer to an array of pointers and
 * one of size_t in, a pointer and a size_t out through out-pointers. Fory
 * Java's list of two byte[] out of band, decoded, then written again with
 * the options on (spec 1.12.1). */
Test(ffi, out_of_band_buffers) {
  static const uint8_t java[] = {0x03, 0xff, 0x16, 0x02, 0x08, 0x29, 0x00, 0x00};
  static const uint8_t b0[] = {0x09}, b1[] = {0x08};
  const uint8_t *bufs[2] = {b0, b1};
  size_t lens[2] = {1, 1}, count = 2;
  void *ctx = p_of_void("wire_ctx_new");
  const uint8_t *const *bp = bufs;
  const size_t *lp = lens;
  ffi_type *t4[] = {&ffi_type_pointer, &ffi_type_pointer, &ffi_type_pointer,
                    SIZE_T_FFI};
  void *v4[] = {&ctx, &bp, &lp, &count};
  cr_assert_eq((int32_t)call("wire_ctx_set_oob_buffers", &ffi_type_sint32, 4,
                             t4, v4).s, WIRE_OK);
  void *doc = NULL;
  cr_assert_eq(decode(ctx, java, sizeof java, &doc), WIRE_OK);
  cr_assert_eq(size_of_p("wire_ctx_oob_used", ctx), 2);
  void *list = p_of_p_size("wire_doc_root", doc, 0);
  void *e1 = p_of_p_size("wire_node_child", list, 1);
  cr_assert_eq(i32_of_p("wire_node_band", e1), WIRE_BAND_OUT);
  ffi_type *t2[] = {&ffi_type_pointer, SIZE_T_FFI};
  size_t zero = 0;
  void *v2[] = {&doc, &zero};
  cr_assert_eq((int32_t)call("wire_doc_root_oob", &ffi_type_sint32, 2, t2, v2).s, 1);
  cr_assert_eq(set_option(ctx, WIRE_OPT_OUT_OF_BAND, 1), WIRE_OK);
  uint8_t *out = NULL;
  size_t len = 0;
  cr_assert_eq(encode(ctx, doc, &out, &len), WIRE_OK);
  cr_assert_eq(len, sizeof java);
  cr_assert_arr_eq(out, java, len);
  cr_assert_eq(size_of_p("wire_ctx_oob_count", ctx), 2);
  const uint8_t *p = NULL;
  size_t plen = 0, one = 1;
  const uint8_t **pp = &p;
  size_t *plp = &plen;
  ffi_type *tb[] = {&ffi_type_pointer, SIZE_T_FFI, &ffi_type_pointer,
                    &ffi_type_pointer};
  void *vb[] = {&ctx, &one, &pp, &plp};
  cr_assert_eq((int32_t)call("wire_ctx_oob_buffer", &ffi_type_sint32, 4, tb,
                             vb).s, WIRE_OK);
  cr_assert_eq(plen, 1);
  cr_assert_eq(p, b1, "the buffer is the one given, not a copy");
  free_bytes(ctx, out);
  v_of_p("wire_doc_free", doc);
  v_of_p("wire_ctx_free", ctx);
}
