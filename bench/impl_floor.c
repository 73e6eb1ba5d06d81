/* impl_floor.c - "floor": a hand-written positional codec of the model
 * structs, the lower bound of the benchmark. Fields in declared order, no
 * header, no type or field metadata: integers as zigzag varints, floats
 * and doubles as 4/8 little-endian bytes, bools and enums as one byte,
 * strings as a varint length + UTF-8 bytes, numeric arrays as a varint
 * count + the little-endian elements, lists as a varint count + the
 * elements. Decoding checks every length against the input and copies
 * strings and arrays into an arena (as owned strings are). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the floor codec copies arrays as little-endian memory"
#endif

#define OUT_CAP 65536
#define ARENA_CAP 65536

typedef struct {
  const bench_values *values;
  uint8_t *out;
  bench_arena arena;
} floor_state;

/* ---- writing ---------------------------------------------------------- */

typedef struct {
  uint8_t *p, *end;
} wbuf;

static inline uint8_t *put_var(uint8_t *p, uint64_t v) {
  if (v < 0x80) {
    *p = (uint8_t)v;
    return p + 1;
  }
  if (v < 0x4000) {
    p[0] = (uint8_t)(v | 0x80);
    p[1] = (uint8_t)(v >> 7);
    return p + 2;
  }
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  return p;
}
static inline uint64_t zz32(int32_t v) {
  return (uint32_t)(((uint32_t)v << 1) ^ (uint32_t)(v >> 31));
}
static inline uint64_t zz64(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
/* Room for n more bytes. */
static inline int room(const wbuf *b, size_t n) {
  return (size_t)(b->end - b->p) >= n;
}
static inline int put_str(wbuf *b, bench_str s) {
  if (!room(b, 5 + (size_t)s.len)) return -1;
  b->p = put_var(b->p, s.len);
  memcpy(b->p, s.p, s.len);
  b->p += s.len;
  return 0;
}
static inline int put_arr(wbuf *b, const void *p, uint32_t n, size_t w) {
  if (!room(b, 5 + n * w)) return -1;
  b->p = put_var(b->p, n);
  memcpy(b->p, p, n * w);
  b->p += n * w;
  return 0;
}
static inline uint8_t *put_f32(uint8_t *p, float v) {
  memcpy(p, &v, 4);
  return p + 4;
}
static inline uint8_t *put_f64(uint8_t *p, double v) {
  memcpy(p, &v, 8);
  return p + 8;
}

static int put_numeric(wbuf *b, const bench_numeric *v) {
  if (!room(b, 12 * 5)) return -1;
  uint8_t *p = b->p;
  for (int i = 0; i < 12; i++) p = put_var(p, zz32(v->f[i]));
  b->p = p;
  return 0;
}

static int put_sample(wbuf *b, const bench_sample *v) {
  if (!room(b, 128)) return -1;
  uint8_t *p = b->p;
  p = put_var(p, zz32(v->int_value));
  p = put_var(p, zz64(v->long_value));
  p = put_f32(p, v->float_value);
  p = put_f64(p, v->double_value);
  p = put_var(p, zz32(v->short_value));
  p = put_var(p, zz32(v->char_value));
  *p++ = v->boolean_value;
  p = put_var(p, zz32(v->int_value_boxed));
  p = put_var(p, zz64(v->long_value_boxed));
  p = put_f32(p, v->float_value_boxed);
  p = put_f64(p, v->double_value_boxed);
  p = put_var(p, zz32(v->short_value_boxed));
  p = put_var(p, zz32(v->char_value_boxed));
  *p++ = v->boolean_value_boxed;
  b->p = p;
  if (put_arr(b, v->int_array, v->n_int_array, 4) ||
      put_arr(b, v->long_array, v->n_long_array, 8) ||
      put_arr(b, v->float_array, v->n_float_array, 4) ||
      put_arr(b, v->double_array, v->n_double_array, 8) ||
      put_arr(b, v->short_array, v->n_short_array, 4) ||
      put_arr(b, v->char_array, v->n_char_array, 4) ||
      put_arr(b, v->boolean_array, v->n_boolean_array, 1))
    return -1;
  return put_str(b, v->string);
}

static int put_media(wbuf *b, const bench_media *v) {
  if (put_str(b, v->uri) || put_str(b, v->title) || !room(b, 20)) return -1;
  b->p = put_var(b->p, zz32(v->width));
  b->p = put_var(b->p, zz32(v->height));
  if (put_str(b, v->format) || !room(b, 40)) return -1;
  uint8_t *p = b->p;
  p = put_var(p, zz64(v->duration));
  p = put_var(p, zz64(v->size));
  p = put_var(p, zz32(v->bitrate));
  *p++ = v->has_bitrate;
  p = put_var(p, v->n_persons);
  b->p = p;
  for (uint32_t i = 0; i < v->n_persons; i++)
    if (put_str(b, v->persons[i])) return -1;
  if (!room(b, 1)) return -1;
  *b->p++ = (uint8_t)v->player;
  return put_str(b, v->copyright);
}

static int put_image(wbuf *b, const bench_image *v) {
  if (put_str(b, v->uri) || put_str(b, v->title) || !room(b, 11)) return -1;
  uint8_t *p = b->p;
  p = put_var(p, zz32(v->width));
  p = put_var(p, zz32(v->height));
  *p++ = (uint8_t)v->size;
  b->p = p;
  return 0;
}

static int put_media_content(wbuf *b, const bench_media_content *v) {
  if (put_media(b, &v->media) || !room(b, 5)) return -1;
  b->p = put_var(b->p, v->n_images);
  for (uint32_t i = 0; i < v->n_images; i++)
    if (put_image(b, &v->images[i])) return -1;
  return 0;
}

static int floor_encode(void *st, int w, const uint8_t **out,
                        size_t *out_len) {
  floor_state *s = st;
  const bench_values *v = s->values;
  wbuf b = {s->out, s->out + OUT_CAP};
  int rc = 0;
  switch (w) {
  case W_NUMERIC_STRUCT: rc = put_numeric(&b, &v->numeric); break;
  case W_SAMPLE: rc = put_sample(&b, &v->sample); break;
  case W_MEDIA_CONTENT: rc = put_media_content(&b, &v->media_content); break;
  case W_NUMERIC_STRUCT_LIST:
    b.p = put_var(b.p, v->numeric_list.n);
    for (uint32_t i = 0; i < v->numeric_list.n && !rc; i++)
      rc = put_numeric(&b, &v->numeric_list.items[i]);
    break;
  case W_SAMPLE_LIST:
    b.p = put_var(b.p, v->sample_list.n);
    for (uint32_t i = 0; i < v->sample_list.n && !rc; i++)
      rc = put_sample(&b, &v->sample_list.items[i]);
    break;
  case W_MEDIA_CONTENT_LIST:
    b.p = put_var(b.p, v->media_content_list.n);
    for (uint32_t i = 0; i < v->media_content_list.n && !rc; i++)
      rc = put_media_content(&b, &v->media_content_list.items[i]);
    break;
  default: rc = -1;
  }
  if (rc) {
    fprintf(stderr, "floor: encode %s: buffer full\n", bench_workload_name(w));
    return -1;
  }
  *out = s->out;
  *out_len = (size_t)(b.p - s->out);
  return 0;
}

/* ---- reading ---------------------------------------------------------- */

typedef struct {
  const uint8_t *p, *end;
  bench_arena *arena;
  int bad;
} rbuf;

/* Slow path: near the end of the input, every byte checked. */
static uint64_t get_var_slow(rbuf *r, int max_bytes) {
  uint64_t v = 0;
  for (int shift = 0, i = 0; i < max_bytes; i++, shift += 7) {
    if (r->p == r->end) break;
    uint8_t c = *r->p++;
    v |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) return v;
  }
  r->bad = 1;
  return 0;
}
/* Fast paths: with 10 bytes left no byte needs a bounds check; unrolled. */
#define VAR_STEP(i)                                 \
  c = p[i];                                         \
  v |= (c & 0x7f) << (7 * (i));                     \
  if (c < 0x80) {                                   \
    r->p = p + (i) + 1;                             \
    return v;                                       \
  }
static inline uint64_t get_var32(rbuf *r) {
  const uint8_t *p = r->p;
  if (r->end - p < 10) return get_var_slow(r, 5);
  uint64_t v = 0, c;
  VAR_STEP(0) VAR_STEP(1) VAR_STEP(2) VAR_STEP(3) VAR_STEP(4)
  r->bad = 1;
  return 0;
}
static inline uint64_t get_var64(rbuf *r) {
  const uint8_t *p = r->p;
  if (r->end - p < 10) return get_var_slow(r, 10);
  uint64_t v = 0, c;
  VAR_STEP(0) VAR_STEP(1) VAR_STEP(2) VAR_STEP(3) VAR_STEP(4)
  VAR_STEP(5) VAR_STEP(6) VAR_STEP(7) VAR_STEP(8) VAR_STEP(9)
  r->bad = 1;
  return 0;
}
static inline uint64_t get_var(rbuf *r, int max_bytes) {
  return max_bytes <= 5 ? get_var32(r) : get_var64(r);
}
static inline int32_t get_i32(rbuf *r) {
  uint32_t u = (uint32_t)get_var(r, 5);
  return (int32_t)((u >> 1) ^ (0u - (u & 1)));
}
static inline int64_t get_i64(rbuf *r) {
  uint64_t u = get_var(r, 10);
  return (int64_t)((u >> 1) ^ (0u - (u & 1)));
}
static inline uint8_t get_u8(rbuf *r) {
  if (r->p == r->end) {
    r->bad = 1;
    return 0;
  }
  return *r->p++;
}
static inline void get_fixed(rbuf *r, void *out, size_t n) {
  if ((size_t)(r->end - r->p) < n) {
    r->bad = 1;
    memset(out, 0, n);
    return;
  }
  memcpy(out, r->p, n);
  r->p += n;
}
/* count elements of width w copied into the arena. */
static inline const void *get_arr(rbuf *r, size_t w, uint32_t *count) {
  uint64_t n = get_var(r, 5);
  if (r->bad || n > (uint64_t)(r->end - r->p) / w) {
    r->bad = 1;
    *count = 0;
    return NULL;
  }
  void *dst = bench_arena_alloc(r->arena, (size_t)n * w);
  if (!dst) {
    r->bad = 1;
    *count = 0;
    return NULL;
  }
  memcpy(dst, r->p, (size_t)n * w);
  r->p += n * w;
  *count = (uint32_t)n;
  return dst;
}
static inline bench_str get_str(rbuf *r) {
  bench_str s;
  s.p = get_arr(r, 1, &s.len);
  return s;
}
/* A list count, bounded by the input (each element takes >= 1 byte). */
static inline uint32_t get_count(rbuf *r) {
  uint64_t n = get_var(r, 5);
  if (n > (uint64_t)(r->end - r->p)) {
    r->bad = 1;
    return 0;
  }
  return (uint32_t)n;
}

static void get_numeric(rbuf *r, bench_numeric *v) {
  for (int i = 0; i < 12; i++) v->f[i] = get_i32(r);
}

static void get_sample(rbuf *r, bench_sample *v) {
  v->int_value = get_i32(r);
  v->long_value = get_i64(r);
  get_fixed(r, &v->float_value, 4);
  get_fixed(r, &v->double_value, 8);
  v->short_value = get_i32(r);
  v->char_value = get_i32(r);
  v->boolean_value = get_u8(r);
  v->int_value_boxed = get_i32(r);
  v->long_value_boxed = get_i64(r);
  get_fixed(r, &v->float_value_boxed, 4);
  get_fixed(r, &v->double_value_boxed, 8);
  v->short_value_boxed = get_i32(r);
  v->char_value_boxed = get_i32(r);
  v->boolean_value_boxed = get_u8(r);
  v->int_array = get_arr(r, 4, &v->n_int_array);
  v->long_array = get_arr(r, 8, &v->n_long_array);
  v->float_array = get_arr(r, 4, &v->n_float_array);
  v->double_array = get_arr(r, 8, &v->n_double_array);
  v->short_array = get_arr(r, 4, &v->n_short_array);
  v->char_array = get_arr(r, 4, &v->n_char_array);
  v->boolean_array = get_arr(r, 1, &v->n_boolean_array);
  v->string = get_str(r);
}

static void get_media(rbuf *r, bench_media *v) {
  v->uri = get_str(r);
  v->title = get_str(r);
  v->width = get_i32(r);
  v->height = get_i32(r);
  v->format = get_str(r);
  v->duration = get_i64(r);
  v->size = get_i64(r);
  v->bitrate = get_i32(r);
  v->has_bitrate = get_u8(r);
  uint32_t n = get_count(r);
  bench_str *persons = bench_arena_alloc(r->arena, n * sizeof *persons);
  if (!persons) r->bad = 1, n = 0;
  for (uint32_t i = 0; i < n; i++) persons[i] = get_str(r);
  v->persons = persons;
  v->n_persons = n;
  v->player = get_u8(r);
  v->copyright = get_str(r);
}

static void get_media_content(rbuf *r, bench_media_content *v) {
  get_media(r, &v->media);
  uint32_t n = get_count(r);
  bench_image *images = bench_arena_alloc(r->arena, n * sizeof *images);
  if (!images) r->bad = 1, n = 0;
  for (uint32_t i = 0; i < n; i++) {
    images[i].uri = get_str(r);
    images[i].title = get_str(r);
    images[i].width = get_i32(r);
    images[i].height = get_i32(r);
    images[i].size = get_u8(r);
  }
  v->images = images;
  v->n_images = n;
}

#define GET_LIST(r, list, T, get)                                   \
  do {                                                              \
    uint32_t n_ = get_count(r);                                     \
    T *items_ = bench_arena_alloc((r)->arena, n_ * sizeof(T));      \
    if (!items_) (r)->bad = 1, n_ = 0;                              \
    for (uint32_t i_ = 0; i_ < n_; i_++) get(r, &items_[i_]);       \
    (list)->items = items_;                                         \
    (list)->n = n_;                                                 \
  } while (0)

static int floor_decode_value(void *st, int w, const uint8_t *data,
                              size_t len, bench_arena *arena, void *out) {
  (void)st;
  rbuf r = {data, data + len, arena, 0};
  switch (w) {
  case W_NUMERIC_STRUCT: get_numeric(&r, out); break;
  case W_SAMPLE: get_sample(&r, out); break;
  case W_MEDIA_CONTENT: get_media_content(&r, out); break;
  case W_NUMERIC_STRUCT_LIST:
    GET_LIST(&r, (bench_numeric_list *)out, bench_numeric, get_numeric);
    break;
  case W_SAMPLE_LIST:
    GET_LIST(&r, (bench_sample_list *)out, bench_sample, get_sample);
    break;
  case W_MEDIA_CONTENT_LIST:
    GET_LIST(&r, (bench_media_content_list *)out, bench_media_content,
             get_media_content);
    break;
  default: return -1;
  }
  if (r.bad || r.p != r.end) {
    fprintf(stderr, "floor: decode %s: malformed input\n",
            bench_workload_name(w));
    return -1;
  }
  return 0;
}

static int floor_decode(void *st, int w, const uint8_t *data, size_t len) {
  floor_state *s = st;
  bench_any_value value;
  bench_arena_reset(&s->arena);
  return floor_decode_value(st, w, data, len, &s->arena, &value);
}

static void *floor_init(const bench_values *values) {
  floor_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->values = values;
  s->out = malloc(OUT_CAP);
  if (!s->out || bench_arena_init(&s->arena, ARENA_CAP)) {
    free(s->out);
    free(s);
    return NULL;
  }
  return s;
}

static void floor_fini(void *st) {
  floor_state *s = st;
  if (!s) return;
  bench_arena_fini(&s->arena);
  free(s->out);
  free(s);
}

const bench_impl bench_impl_floor = {
    "floor", 0, floor_init, floor_fini, floor_encode, floor_decode,
    floor_decode_value, NULL, NULL,
};
