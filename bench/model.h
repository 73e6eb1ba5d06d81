/* model.h - the six workloads of Fory's benchmark suite as plain C structs
 * (the benchmark's reference values), a bump arena for decoders, and value
 * comparison. Field lists and values: those of the suite (bench/README.md);
 * bench/rust/src/model.rs and bench/java/.../ForyBench.java hold the same.
 *
 * Every C implementation (impl.h) encodes these values, in whatever form
 * it prepares from them at init, and the byte checks compare what it
 * decodes back with them. */
#ifndef BENCH_MODEL_H
#define BENCH_MODEL_H

#include <stddef.h>
#include <stdint.h>

enum {
  W_NUMERIC_STRUCT = 0,
  W_SAMPLE = 1,
  W_MEDIA_CONTENT = 2,
  W_NUMERIC_STRUCT_LIST = 3,
  W_SAMPLE_LIST = 4,
  W_MEDIA_CONTENT_LIST = 5,
  W_COUNT = 6
};

#define BENCH_LIST_SIZE 5

/* UTF-8 text, not NUL-terminated in decoded values. */
typedef struct {
  const char *p;
  uint32_t len;
} bench_str;

typedef struct {
  int32_t f[12]; /* f1 .. f12 */
} bench_numeric;

typedef struct {
  int32_t int_value;
  int64_t long_value;
  float float_value;
  double double_value;
  int32_t short_value;
  int32_t char_value;
  uint8_t boolean_value;
  int32_t int_value_boxed;
  int64_t long_value_boxed;
  float float_value_boxed;
  double double_value_boxed;
  int32_t short_value_boxed;
  int32_t char_value_boxed;
  uint8_t boolean_value_boxed;
  const int32_t *int_array;
  uint32_t n_int_array;
  const int64_t *long_array;
  uint32_t n_long_array;
  const float *float_array;
  uint32_t n_float_array;
  const double *double_array;
  uint32_t n_double_array;
  const int32_t *short_array;
  uint32_t n_short_array;
  const int32_t *char_array;
  uint32_t n_char_array;
  const uint8_t *boolean_array; /* 0 or 1 */
  uint32_t n_boolean_array;
  bench_str string;
} bench_sample;

enum { PLAYER_JAVA = 0, PLAYER_FLASH = 1 };
enum { SIZE_SMALL = 0, SIZE_LARGE = 1 };

typedef struct {
  bench_str uri;
  bench_str title;
  int32_t width;
  int32_t height;
  bench_str format;
  int64_t duration;
  int64_t size;
  int32_t bitrate;
  uint8_t has_bitrate;
  const bench_str *persons;
  uint32_t n_persons;
  int32_t player; /* PLAYER_* */
  bench_str copyright;
} bench_media;

typedef struct {
  bench_str uri;
  bench_str title;
  int32_t width;
  int32_t height;
  int32_t size; /* SIZE_* */
} bench_image;

typedef struct {
  bench_media media;
  const bench_image *images;
  uint32_t n_images;
} bench_media_content;

typedef struct {
  const bench_numeric *items;
  uint32_t n;
} bench_numeric_list;

typedef struct {
  const bench_sample *items;
  uint32_t n;
} bench_sample_list;

typedef struct {
  const bench_media_content *items;
  uint32_t n;
} bench_media_content_list;

/* The workloads' model types in workload order, each with the member
 * name it has in bench_values and bench_any_value. */
#define BENCH_WORKLOAD_TYPES(X)                              \
  X(bench_numeric, numeric) X(bench_sample, sample)          \
  X(bench_media_content, media_content)                      \
  X(bench_numeric_list, numeric_list)                        \
  X(bench_sample_list, sample_list)                          \
  X(bench_media_content_list, media_content_list)
#define BENCH_MEMBER(type, name) type name;

/* One value of each workload. */
typedef struct {
  BENCH_WORKLOAD_TYPES(BENCH_MEMBER)
} bench_values;

/* Room for the model value of any workload (what decode_value reads). */
typedef union {
  BENCH_WORKLOAD_TYPES(BENCH_MEMBER)
} bench_any_value;

/* The reference values (static storage). */
const bench_values *bench_reference_values(void);
/* "NumericStruct", ... */
const char *bench_workload_name(int workload);
/* Pointer to the member of `v` for `workload`. */
const void *bench_value_of(const bench_values *v, int workload);

/* 1 if the two values of `workload` are equal (floats bit for bit). */
int bench_value_equal(int workload, const void *a, const void *b);

/* A bump arena over one fixed block: what decoders copy strings and
 * arrays into. No per-allocation bookkeeping; reset frees everything. */
typedef struct {
  uint8_t *base;
  size_t cap;
  size_t used;
} bench_arena;

int bench_arena_init(bench_arena *a, size_t cap);
void bench_arena_fini(bench_arena *a);
static inline void bench_arena_reset(bench_arena *a) { a->used = 0; }
/* 8-byte aligned; NULL when the block is exhausted. */
static inline void *bench_arena_alloc(bench_arena *a, size_t n) {
  size_t at = (a->used + 7u) & ~(size_t)7u;
  if (at > a->cap || n > a->cap - at) return NULL;
  a->used = at + n;
  return a->base + at;
}

#endif
