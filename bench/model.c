/* model.c - the reference values of the six workloads, comparison, arena. */
#include "model.h"

#include <stdlib.h>
#include <string.h>

#define S(lit) {lit, (uint32_t)(sizeof(lit) - 1)}
#define N(arr) (uint32_t)(sizeof(arr) / sizeof((arr)[0]))

static const int32_t int_array[] = {-1234, -123, -12, -1, 0, 1, 12, 123, 1234};
static const int64_t long_array[] = {-123400, -12300, -1200, -100, 0,
                                     100,     1200,   12300, 123400};
static const float float_array[] = {-12.34f, -12.3f, -12.0f, -1.0f, 0.0f,
                                    1.0f,    12.0f,  12.3f,  12.34f};
static const double double_array[] = {-1.234, -1.23, -12.0, -1.0, 0.0,
                                      1.0,    12.0,  1.23,  1.234};
static const int32_t short_array[] = {-1234, -123, -12, -1, 0,
                                      1,     12,   123, 1234};
static const int32_t char_array[] = {'a', 's', 'd', 'f', 'A', 'S', 'D', 'F'};
static const uint8_t boolean_array[] = {1, 0, 0, 1};
static const bench_str persons[] = {S("Bill Gates, Jr."), S("Steven Jobs")};

/* U+1234 in UTF-8 is e1 88 b4. */
static const bench_image images[] = {
    {S("http://javaone.com/keynote_huge.jpg"),
     S("Javaone Keynote\xe1\x88\xb4"), 32000, 24000, SIZE_LARGE},
    {S("http://javaone.com/keynote_large.jpg"), S(""), 1024, 768, SIZE_LARGE},
    {S("http://javaone.com/keynote_small.jpg"), S(""), 320, 240, SIZE_SMALL},
};

#define NUMERIC                                                             \
  {{-12345, 987654321, -31415, 27182818, -32000, 1000000, -999999999, 42,  \
    123456789, -42, 31415926, -27182818}}

#define SAMPLE                                                              \
  {123, 1230000, 12.345f, 1.234567, 12345, '!', 1, 321, 3210000, 54.321f,   \
   7.654321, 32100, '$', 0, int_array, N(int_array), long_array,            \
   N(long_array), float_array, N(float_array), double_array,                \
   N(double_array), short_array, N(short_array), char_array,                \
   N(char_array), boolean_array, N(boolean_array),                          \
   S("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")}

#define MEDIA_CONTENT                                                       \
  {{S("http://javaone.com/keynote.ogg"), S(""), 641, 481,                   \
    S("video/theora\xe1\x88\xb4"), 18000001, 58982401, 0, 0, persons,       \
    N(persons), PLAYER_FLASH, S("Copyright (c) 2009, Scooby Dooby Doo")},   \
   images, N(images)}

static const bench_numeric numeric_items[BENCH_LIST_SIZE] = {
    NUMERIC, NUMERIC, NUMERIC, NUMERIC, NUMERIC};
static const bench_sample sample_items[BENCH_LIST_SIZE] = {
    SAMPLE, SAMPLE, SAMPLE, SAMPLE, SAMPLE};
static const bench_media_content media_items[BENCH_LIST_SIZE] = {
    MEDIA_CONTENT, MEDIA_CONTENT, MEDIA_CONTENT, MEDIA_CONTENT,
    MEDIA_CONTENT};

static const bench_values reference = {
    NUMERIC,
    SAMPLE,
    MEDIA_CONTENT,
    {numeric_items, BENCH_LIST_SIZE},
    {sample_items, BENCH_LIST_SIZE},
    {media_items, BENCH_LIST_SIZE},
};

const bench_values *bench_reference_values(void) { return &reference; }

const char *bench_workload_name(int w) {
  static const char *const names[W_COUNT] = {
      "NumericStruct",     "Sample",     "MediaContent",
      "NumericStructList", "SampleList", "MediaContentList"};
  return w >= 0 && w < W_COUNT ? names[w] : "?";
}

const void *bench_value_of(const bench_values *v, int w) {
  switch (w) {
  case W_NUMERIC_STRUCT: return &v->numeric;
  case W_SAMPLE: return &v->sample;
  case W_MEDIA_CONTENT: return &v->media_content;
  case W_NUMERIC_STRUCT_LIST: return &v->numeric_list;
  case W_SAMPLE_LIST: return &v->sample_list;
  case W_MEDIA_CONTENT_LIST: return &v->media_content_list;
  default: return NULL;
  }
}

static int str_eq(bench_str a, bench_str b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

static int mem_eq(const void *a, const void *b, size_t n) {
  return n == 0 || memcmp(a, b, n) == 0;
}

static int numeric_eq(const bench_numeric *a, const bench_numeric *b) {
  return memcmp(a->f, b->f, sizeof a->f) == 0;
}

static int sample_eq(const bench_sample *a, const bench_sample *b) {
  return a->int_value == b->int_value && a->long_value == b->long_value &&
         mem_eq(&a->float_value, &b->float_value, sizeof(float)) &&
         mem_eq(&a->double_value, &b->double_value, sizeof(double)) &&
         a->short_value == b->short_value && a->char_value == b->char_value &&
         a->boolean_value == b->boolean_value &&
         a->int_value_boxed == b->int_value_boxed &&
         a->long_value_boxed == b->long_value_boxed &&
         mem_eq(&a->float_value_boxed, &b->float_value_boxed, sizeof(float)) &&
         mem_eq(&a->double_value_boxed, &b->double_value_boxed,
                sizeof(double)) &&
         a->short_value_boxed == b->short_value_boxed &&
         a->char_value_boxed == b->char_value_boxed &&
         a->boolean_value_boxed == b->boolean_value_boxed &&
         a->n_int_array == b->n_int_array &&
         mem_eq(a->int_array, b->int_array, 4u * a->n_int_array) &&
         a->n_long_array == b->n_long_array &&
         mem_eq(a->long_array, b->long_array, 8u * a->n_long_array) &&
         a->n_float_array == b->n_float_array &&
         mem_eq(a->float_array, b->float_array, 4u * a->n_float_array) &&
         a->n_double_array == b->n_double_array &&
         mem_eq(a->double_array, b->double_array, 8u * a->n_double_array) &&
         a->n_short_array == b->n_short_array &&
         mem_eq(a->short_array, b->short_array, 4u * a->n_short_array) &&
         a->n_char_array == b->n_char_array &&
         mem_eq(a->char_array, b->char_array, 4u * a->n_char_array) &&
         a->n_boolean_array == b->n_boolean_array &&
         mem_eq(a->boolean_array, b->boolean_array, a->n_boolean_array) &&
         str_eq(a->string, b->string);
}

static int media_eq(const bench_media *a, const bench_media *b) {
  if (!(str_eq(a->uri, b->uri) && str_eq(a->title, b->title) &&
        a->width == b->width && a->height == b->height &&
        str_eq(a->format, b->format) && a->duration == b->duration &&
        a->size == b->size && a->bitrate == b->bitrate &&
        a->has_bitrate == b->has_bitrate && a->n_persons == b->n_persons &&
        a->player == b->player && str_eq(a->copyright, b->copyright)))
    return 0;
  for (uint32_t i = 0; i < a->n_persons; i++)
    if (!str_eq(a->persons[i], b->persons[i])) return 0;
  return 1;
}

static int image_eq(const bench_image *a, const bench_image *b) {
  return str_eq(a->uri, b->uri) && str_eq(a->title, b->title) &&
         a->width == b->width && a->height == b->height && a->size == b->size;
}

static int media_content_eq(const bench_media_content *a,
                            const bench_media_content *b) {
  if (!media_eq(&a->media, &b->media) || a->n_images != b->n_images)
    return 0;
  for (uint32_t i = 0; i < a->n_images; i++)
    if (!image_eq(&a->images[i], &b->images[i])) return 0;
  return 1;
}

int bench_value_equal(int w, const void *a, const void *b) {
  switch (w) {
  case W_NUMERIC_STRUCT: return numeric_eq(a, b);
  case W_SAMPLE: return sample_eq(a, b);
  case W_MEDIA_CONTENT: return media_content_eq(a, b);
  case W_NUMERIC_STRUCT_LIST: {
    const bench_numeric_list *x = a, *y = b;
    if (x->n != y->n) return 0;
    for (uint32_t i = 0; i < x->n; i++)
      if (!numeric_eq(&x->items[i], &y->items[i])) return 0;
    return 1;
  }
  case W_SAMPLE_LIST: {
    const bench_sample_list *x = a, *y = b;
    if (x->n != y->n) return 0;
    for (uint32_t i = 0; i < x->n; i++)
      if (!sample_eq(&x->items[i], &y->items[i])) return 0;
    return 1;
  }
  case W_MEDIA_CONTENT_LIST: {
    const bench_media_content_list *x = a, *y = b;
    if (x->n != y->n) return 0;
    for (uint32_t i = 0; i < x->n; i++)
      if (!media_content_eq(&x->items[i], &y->items[i])) return 0;
    return 1;
  }
  default: return 0;
  }
}

int bench_arena_init(bench_arena *a, size_t cap) {
  a->base = malloc(cap);
  a->cap = a->base ? cap : 0;
  a->used = 0;
  return a->base ? 0 : -1;
}

void bench_arena_fini(bench_arena *a) {
  free(a->base);
  a->base = NULL;
  a->cap = a->used = 0;
}
