/* impl_msgpack_c.c - "msgpack-c": msgpack-c (Debian's libmsgpack-dev)
 * shaped as Fory's suite shapes msgpack (MSGPACK_DEFINE_MAP): every struct
 * a map from field name to value, in declared order; numeric arrays and
 * lists as arrays; enums as integers.
 *
 *   ser: msgpack_packer into a reused msgpack_sbuffer, from the model.
 *   de:  msgpack_unpack_next (the object tree in a fresh zone), converted
 *        into the model structs (keys matched by name, strings and arrays
 *        copied into an arena, as msgpack-cxx's convert copies into
 *        std::string / std::vector), msgpack_unpacked_destroy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <msgpack.h>

#include "impl.h"

#define ARENA_CAP 65536

typedef struct {
  const bench_values *values;
  msgpack_sbuffer sbuf;
  msgpack_packer pk;
  bench_arena arena;
} mp_state;

/* ---- packing ----------------------------------------------------------- */

#define KEY(pk, lit) \
  (msgpack_pack_str(pk, sizeof(lit) - 1), \
   msgpack_pack_str_body(pk, lit, sizeof(lit) - 1))

static void pstr(msgpack_packer *pk, bench_str s) {
  msgpack_pack_str(pk, s.len);
  msgpack_pack_str_body(pk, s.p, s.len);
}

static void pbool(msgpack_packer *pk, uint8_t b) {
  if (b) msgpack_pack_true(pk);
  else msgpack_pack_false(pk);
}

/* A numeric array field: its key, then its n_<field> items, each packed
 * by pack. */
#define P_ARRAY(pk, v, field, pack)                  \
  do {                                               \
    KEY(pk, #field);                                 \
    msgpack_pack_array(pk, (v)->n_##field);          \
    for (uint32_t i_ = 0; i_ < (v)->n_##field; i_++) \
      pack(pk, (v)->field[i_]);                      \
  } while (0)

static void p_numeric(msgpack_packer *pk, const bench_numeric *v) {
  static const char *const names[12] = {"f1", "f2", "f3", "f4",  "f5",  "f6",
                                        "f7", "f8", "f9", "f10", "f11", "f12"};
  msgpack_pack_map(pk, 12);
  for (int i = 0; i < 12; i++) {
    size_t n = i < 9 ? 2 : 3;
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, names[i], n);
    msgpack_pack_int32(pk, v->f[i]);
  }
}

static void p_sample(msgpack_packer *pk, const bench_sample *v) {
  msgpack_pack_map(pk, 22);
  KEY(pk, "int_value"); msgpack_pack_int32(pk, v->int_value);
  KEY(pk, "long_value"); msgpack_pack_int64(pk, v->long_value);
  KEY(pk, "float_value"); msgpack_pack_float(pk, v->float_value);
  KEY(pk, "double_value"); msgpack_pack_double(pk, v->double_value);
  KEY(pk, "short_value"); msgpack_pack_int32(pk, v->short_value);
  KEY(pk, "char_value"); msgpack_pack_int32(pk, v->char_value);
  KEY(pk, "boolean_value"); pbool(pk, v->boolean_value);
  KEY(pk, "int_value_boxed"); msgpack_pack_int32(pk, v->int_value_boxed);
  KEY(pk, "long_value_boxed"); msgpack_pack_int64(pk, v->long_value_boxed);
  KEY(pk, "float_value_boxed"); msgpack_pack_float(pk, v->float_value_boxed);
  KEY(pk, "double_value_boxed");
  msgpack_pack_double(pk, v->double_value_boxed);
  KEY(pk, "short_value_boxed"); msgpack_pack_int32(pk, v->short_value_boxed);
  KEY(pk, "char_value_boxed"); msgpack_pack_int32(pk, v->char_value_boxed);
  KEY(pk, "boolean_value_boxed"); pbool(pk, v->boolean_value_boxed);
  P_ARRAY(pk, v, int_array, msgpack_pack_int32);
  P_ARRAY(pk, v, long_array, msgpack_pack_int64);
  P_ARRAY(pk, v, float_array, msgpack_pack_float);
  P_ARRAY(pk, v, double_array, msgpack_pack_double);
  P_ARRAY(pk, v, short_array, msgpack_pack_int32);
  P_ARRAY(pk, v, char_array, msgpack_pack_int32);
  P_ARRAY(pk, v, boolean_array, pbool);
  KEY(pk, "string"); pstr(pk, v->string);
}

static void p_media_content(msgpack_packer *pk, const bench_media_content *v) {
  const bench_media *m = &v->media;
  msgpack_pack_map(pk, 2);
  KEY(pk, "media");
  msgpack_pack_map(pk, 12);
  KEY(pk, "uri"); pstr(pk, m->uri);
  KEY(pk, "title"); pstr(pk, m->title);
  KEY(pk, "width"); msgpack_pack_int32(pk, m->width);
  KEY(pk, "height"); msgpack_pack_int32(pk, m->height);
  KEY(pk, "format"); pstr(pk, m->format);
  KEY(pk, "duration"); msgpack_pack_int64(pk, m->duration);
  KEY(pk, "size"); msgpack_pack_int64(pk, m->size);
  KEY(pk, "bitrate"); msgpack_pack_int32(pk, m->bitrate);
  KEY(pk, "has_bitrate"); pbool(pk, m->has_bitrate);
  KEY(pk, "persons");
  msgpack_pack_array(pk, m->n_persons);
  for (uint32_t i = 0; i < m->n_persons; i++) pstr(pk, m->persons[i]);
  KEY(pk, "player"); msgpack_pack_int32(pk, m->player);
  KEY(pk, "copyright"); pstr(pk, m->copyright);
  KEY(pk, "images");
  msgpack_pack_array(pk, v->n_images);
  for (uint32_t i = 0; i < v->n_images; i++) {
    const bench_image *im = &v->images[i];
    msgpack_pack_map(pk, 5);
    KEY(pk, "uri"); pstr(pk, im->uri);
    KEY(pk, "title"); pstr(pk, im->title);
    KEY(pk, "width"); msgpack_pack_int32(pk, im->width);
    KEY(pk, "height"); msgpack_pack_int32(pk, im->height);
    KEY(pk, "size"); msgpack_pack_int32(pk, im->size);
  }
}

static int mp_encode(void *st, int w, const uint8_t **out, size_t *out_len) {
  mp_state *s = st;
  const bench_values *v = s->values;
  msgpack_packer *pk = &s->pk;
  s->sbuf.size = 0; /* reuse the buffer */
  switch (w) {
  case W_NUMERIC_STRUCT: p_numeric(pk, &v->numeric); break;
  case W_SAMPLE: p_sample(pk, &v->sample); break;
  case W_MEDIA_CONTENT: p_media_content(pk, &v->media_content); break;
  case W_NUMERIC_STRUCT_LIST:
    msgpack_pack_map(pk, 1);
    KEY(pk, "struct_list");
    msgpack_pack_array(pk, v->numeric_list.n);
    for (uint32_t i = 0; i < v->numeric_list.n; i++)
      p_numeric(pk, &v->numeric_list.items[i]);
    break;
  case W_SAMPLE_LIST:
    msgpack_pack_map(pk, 1);
    KEY(pk, "sample_list");
    msgpack_pack_array(pk, v->sample_list.n);
    for (uint32_t i = 0; i < v->sample_list.n; i++)
      p_sample(pk, &v->sample_list.items[i]);
    break;
  case W_MEDIA_CONTENT_LIST:
    msgpack_pack_map(pk, 1);
    KEY(pk, "media_content_list");
    msgpack_pack_array(pk, v->media_content_list.n);
    for (uint32_t i = 0; i < v->media_content_list.n; i++)
      p_media_content(pk, &v->media_content_list.items[i]);
    break;
  default: return -1;
  }
  if (!s->sbuf.data) return -1;
  *out = (const uint8_t *)s->sbuf.data;
  *out_len = s->sbuf.size;
  return 0;
}

/* ---- converting the object tree into the model ------------------------ */

typedef struct {
  bench_arena *a;
  int bad;
} cv;

static int key_is(const msgpack_object *k, const char *name, size_t n) {
  return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
         memcmp(k->via.str.ptr, name, n) == 0;
}
#define IS(k, lit) key_is(k, lit, sizeof(lit) - 1)

static int64_t c_int(cv *c, const msgpack_object *o) {
  if (o->type == MSGPACK_OBJECT_POSITIVE_INTEGER) {
    if (o->via.u64 > INT64_MAX) c->bad = 1;
    return (int64_t)o->via.u64;
  }
  if (o->type == MSGPACK_OBJECT_NEGATIVE_INTEGER) return o->via.i64;
  c->bad = 1;
  return 0;
}
static int32_t c_i32(cv *c, const msgpack_object *o) {
  int64_t v = c_int(c, o);
  if (v < INT32_MIN || v > INT32_MAX) c->bad = 1;
  return (int32_t)v;
}
static double c_float(cv *c, const msgpack_object *o) {
  if (o->type == MSGPACK_OBJECT_FLOAT32 || o->type == MSGPACK_OBJECT_FLOAT64)
    return o->via.f64;
  c->bad = 1;
  return 0;
}
static uint8_t c_bool(cv *c, const msgpack_object *o) {
  if (o->type != MSGPACK_OBJECT_BOOLEAN) c->bad = 1;
  return o->type == MSGPACK_OBJECT_BOOLEAN && o->via.boolean;
}
static bench_str c_str(cv *c, const msgpack_object *o) {
  bench_str s = {NULL, 0};
  if (o->type != MSGPACK_OBJECT_STR) {
    c->bad = 1;
    return s;
  }
  char *p = bench_arena_alloc(c->a, o->via.str.size + 1);
  if (!p) {
    c->bad = 1;
    return s;
  }
  memcpy(p, o->via.str.ptr, o->via.str.size);
  s.p = p;
  s.len = o->via.str.size;
  return s;
}
/* An array's elements; NULL (and bad) if `o` is not an array. */
static const msgpack_object *c_arr(cv *c, const msgpack_object *o,
                                   uint32_t *n) {
  if (o->type != MSGPACK_OBJECT_ARRAY) {
    c->bad = 1;
    *n = 0;
    return NULL;
  }
  *n = o->via.array.size;
  return o->via.array.ptr;
}
static void *c_alloc(cv *c, size_t n) {
  void *p = bench_arena_alloc(c->a, n ? n : 1);
  if (!p) c->bad = 1;
  return p;
}
static const msgpack_object_kv *c_map(cv *c, const msgpack_object *o,
                                      uint32_t *n) {
  if (o->type != MSGPACK_OBJECT_MAP) {
    c->bad = 1;
    *n = 0;
    return NULL;
  }
  *n = o->via.map.size;
  return o->via.map.ptr;
}

#define C_ARRAY(c, o, T, conv, out, count)                  \
  do {                                                      \
    uint32_t n_;                                            \
    const msgpack_object *e_ = c_arr(c, o, &n_);            \
    T *d_ = c_alloc(c, sizeof(T) * n_);                     \
    for (uint32_t i_ = 0; d_ && i_ < n_; i_++)              \
      d_[i_] = (T)conv(c, &e_[i_]);                         \
    (out) = d_;                                             \
    (count) = d_ ? n_ : 0;                                  \
  } while (0)

static void c_numeric(cv *c, const msgpack_object *o, bench_numeric *v) {
  uint32_t n;
  const msgpack_object_kv *kv = c_map(c, o, &n);
  memset(v, 0, sizeof *v);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *k = &kv[i].key;
    /* "f1" .. "f12" */
    if (k->type != MSGPACK_OBJECT_STR || k->via.str.size < 2 ||
        k->via.str.size > 3 || k->via.str.ptr[0] != 'f') {
      c->bad = 1;
      continue;
    }
    int idx = k->via.str.ptr[1] - '0';
    if (k->via.str.size == 3) idx = idx * 10 + (k->via.str.ptr[2] - '0');
    if (idx < 1 || idx > 12) c->bad = 1;
    else v->f[idx - 1] = c_i32(c, &kv[i].val);
  }
}

static void c_sample(cv *c, const msgpack_object *o, bench_sample *v) {
  uint32_t n;
  const msgpack_object_kv *kv = c_map(c, o, &n);
  memset(v, 0, sizeof *v);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *k = &kv[i].key, *x = &kv[i].val;
    if (IS(k, "int_value")) v->int_value = c_i32(c, x);
    else if (IS(k, "long_value")) v->long_value = c_int(c, x);
    else if (IS(k, "float_value")) v->float_value = (float)c_float(c, x);
    else if (IS(k, "double_value")) v->double_value = c_float(c, x);
    else if (IS(k, "short_value")) v->short_value = c_i32(c, x);
    else if (IS(k, "char_value")) v->char_value = c_i32(c, x);
    else if (IS(k, "boolean_value")) v->boolean_value = c_bool(c, x);
    else if (IS(k, "int_value_boxed")) v->int_value_boxed = c_i32(c, x);
    else if (IS(k, "long_value_boxed")) v->long_value_boxed = c_int(c, x);
    else if (IS(k, "float_value_boxed"))
      v->float_value_boxed = (float)c_float(c, x);
    else if (IS(k, "double_value_boxed"))
      v->double_value_boxed = c_float(c, x);
    else if (IS(k, "short_value_boxed")) v->short_value_boxed = c_i32(c, x);
    else if (IS(k, "char_value_boxed")) v->char_value_boxed = c_i32(c, x);
    else if (IS(k, "boolean_value_boxed"))
      v->boolean_value_boxed = c_bool(c, x);
    else if (IS(k, "int_array"))
      C_ARRAY(c, x, int32_t, c_i32, v->int_array, v->n_int_array);
    else if (IS(k, "long_array"))
      C_ARRAY(c, x, int64_t, c_int, v->long_array, v->n_long_array);
    else if (IS(k, "float_array"))
      C_ARRAY(c, x, float, c_float, v->float_array, v->n_float_array);
    else if (IS(k, "double_array"))
      C_ARRAY(c, x, double, c_float, v->double_array, v->n_double_array);
    else if (IS(k, "short_array"))
      C_ARRAY(c, x, int32_t, c_i32, v->short_array, v->n_short_array);
    else if (IS(k, "char_array"))
      C_ARRAY(c, x, int32_t, c_i32, v->char_array, v->n_char_array);
    else if (IS(k, "boolean_array"))
      C_ARRAY(c, x, uint8_t, c_bool, v->boolean_array, v->n_boolean_array);
    else if (IS(k, "string")) v->string = c_str(c, x);
    else c->bad = 1;
  }
}

static void c_media(cv *c, const msgpack_object *o, bench_media *v) {
  uint32_t n;
  const msgpack_object_kv *kv = c_map(c, o, &n);
  memset(v, 0, sizeof *v);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *k = &kv[i].key, *x = &kv[i].val;
    if (IS(k, "uri")) v->uri = c_str(c, x);
    else if (IS(k, "title")) v->title = c_str(c, x);
    else if (IS(k, "width")) v->width = c_i32(c, x);
    else if (IS(k, "height")) v->height = c_i32(c, x);
    else if (IS(k, "format")) v->format = c_str(c, x);
    else if (IS(k, "duration")) v->duration = c_int(c, x);
    else if (IS(k, "size")) v->size = c_int(c, x);
    else if (IS(k, "bitrate")) v->bitrate = c_i32(c, x);
    else if (IS(k, "has_bitrate")) v->has_bitrate = c_bool(c, x);
    else if (IS(k, "persons"))
      C_ARRAY(c, x, bench_str, c_str, v->persons, v->n_persons);
    else if (IS(k, "player")) v->player = c_i32(c, x);
    else if (IS(k, "copyright")) v->copyright = c_str(c, x);
    else c->bad = 1;
  }
}

static void c_image(cv *c, const msgpack_object *o, bench_image *v) {
  uint32_t n;
  const msgpack_object_kv *kv = c_map(c, o, &n);
  memset(v, 0, sizeof *v);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *k = &kv[i].key, *x = &kv[i].val;
    if (IS(k, "uri")) v->uri = c_str(c, x);
    else if (IS(k, "title")) v->title = c_str(c, x);
    else if (IS(k, "width")) v->width = c_i32(c, x);
    else if (IS(k, "height")) v->height = c_i32(c, x);
    else if (IS(k, "size")) v->size = c_i32(c, x);
    else c->bad = 1;
  }
}

#define C_STRUCTS(c, o, T, conv, out, count)                \
  do {                                                      \
    uint32_t n_;                                            \
    const msgpack_object *e_ = c_arr(c, o, &n_);            \
    T *d_ = c_alloc(c, sizeof(T) * n_);                     \
    for (uint32_t i_ = 0; d_ && i_ < n_; i_++)              \
      conv(c, &e_[i_], &d_[i_]);                            \
    (out) = d_;                                             \
    (count) = d_ ? n_ : 0;                                  \
  } while (0)

static void c_media_content(cv *c, const msgpack_object *o,
                            bench_media_content *v) {
  uint32_t n;
  const msgpack_object_kv *kv = c_map(c, o, &n);
  memset(v, 0, sizeof *v);
  for (uint32_t i = 0; i < n; i++) {
    const msgpack_object *k = &kv[i].key, *x = &kv[i].val;
    if (IS(k, "media")) c_media(c, x, &v->media);
    else if (IS(k, "images"))
      C_STRUCTS(c, x, bench_image, c_image, v->images, v->n_images);
    else c->bad = 1;
  }
}

/* The one-field list wrapper: its array. */
static const msgpack_object *c_wrapper(cv *c, const msgpack_object *o,
                                       const char *key, size_t len) {
  uint32_t n;
  const msgpack_object_kv *kv = c_map(c, o, &n);
  if (n != 1 || !key_is(&kv[0].key, key, len)) {
    c->bad = 1;
    return NULL;
  }
  return &kv[0].val;
}

static int convert(cv *c, int w, const msgpack_object *o, void *out) {
  const msgpack_object *x;
  switch (w) {
  case W_NUMERIC_STRUCT: c_numeric(c, o, out); break;
  case W_SAMPLE: c_sample(c, o, out); break;
  case W_MEDIA_CONTENT: c_media_content(c, o, out); break;
  case W_NUMERIC_STRUCT_LIST: {
    bench_numeric_list *l = out;
    if ((x = c_wrapper(c, o, "struct_list", 11)))
      C_STRUCTS(c, x, bench_numeric, c_numeric, l->items, l->n);
    break;
  }
  case W_SAMPLE_LIST: {
    bench_sample_list *l = out;
    if ((x = c_wrapper(c, o, "sample_list", 11)))
      C_STRUCTS(c, x, bench_sample, c_sample, l->items, l->n);
    break;
  }
  case W_MEDIA_CONTENT_LIST: {
    bench_media_content_list *l = out;
    if ((x = c_wrapper(c, o, "media_content_list", 18)))
      C_STRUCTS(c, x, bench_media_content, c_media_content, l->items, l->n);
    break;
  }
  default: return -1;
  }
  return c->bad ? -1 : 0;
}

static int mp_decode_value(void *st, int w, const uint8_t *data, size_t len,
                           bench_arena *arena, void *out) {
  (void)st;
  msgpack_unpacked u;
  size_t off = 0;
  msgpack_unpacked_init(&u);
  int rc = -1;
  if (msgpack_unpack_next(&u, (const char *)data, len, &off) ==
          MSGPACK_UNPACK_SUCCESS &&
      off == len) {
    cv c = {arena, 0};
    rc = convert(&c, w, &u.data, out);
  }
  msgpack_unpacked_destroy(&u);
  if (rc)
    fprintf(stderr, "msgpack-c: decode %s: malformed input\n",
            bench_workload_name(w));
  return rc;
}

static int mp_decode(void *st, int w, const uint8_t *data, size_t len) {
  mp_state *s = st;
  bench_any_value value;
  bench_arena_reset(&s->arena);
  return mp_decode_value(st, w, data, len, &s->arena, &value);
}

static void mp_fini(void *st) {
  mp_state *s = st;
  if (!s) return;
  msgpack_sbuffer_destroy(&s->sbuf);
  bench_arena_fini(&s->arena);
  free(s);
}

static void *mp_init(const bench_values *values) {
  mp_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->values = values;
  msgpack_sbuffer_init(&s->sbuf);
  msgpack_packer_init(&s->pk, &s->sbuf, msgpack_sbuffer_write);
  if (bench_arena_init(&s->arena, ARENA_CAP)) {
    mp_fini(s);
    return NULL;
  }
  return s;
}

const bench_impl bench_impl_msgpack_c = {
    "msgpack-c", 0,    mp_init, mp_fini, mp_encode, mp_decode,
    mp_decode_value, NULL, NULL,
};
