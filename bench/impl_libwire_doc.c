/* impl_libwire_doc.c - "libwire-doc": libwire's document API on the six
 * workloads, xlang compatible mode (WIRE_OPT_COMPATIBLE), the schema
 * loaded from schemas/bench.fdl.
 *
 *   ser: build the document from the model values (wire_doc_new,
 *        wire_node_new_struct, scalar, string and array fields made and
 *        set in one call each (wire_struct_set_value, _string, _bytes)
 *        with indexes looked up once by name at set-up, other fields through
 *        wire_struct_set_field_at, lists appended),
 *        wire_encode, wire_doc_free; the bytes of the previous call are
 *        released at the next one (wire_ctx_free_bytes).
 *   de:  wire_decode + wire_doc_free.
 *   de of libwire-doc:v2: wire_decode on a context with schemas/
 *        bench_v2.fdl, wire_struct_project of the root onto the V2 type
 *        (the widened field converted), wire_doc_free.
 *
 * BENCH_SCHEMA_DIR (a -D from the Makefile) is where the FDL files are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impl.h"
#include "wire.h"

#ifndef BENCH_SCHEMA_DIR
#define BENCH_SCHEMA_DIR "schemas"
#endif

enum { T_NUMERIC, T_SAMPLE, T_MEDIA, T_IMAGE, T_MEDIA_CONTENT, T_NUMERIC_LIST,
       T_SAMPLE_LIST, T_MEDIA_CONTENT_LIST, T_PLAYER, T_SIZE, T_COUNT };
static const char *const type_names[T_COUNT] = {
    "bench.NumericStruct", "bench.Sample", "bench.Media", "bench.Image",
    "bench.MediaContent", "bench.NumericStructList", "bench.SampleList",
    "bench.MediaContentList", "bench.Player", "bench.Size"};
/* The root type of each workload. */
static const int root_type[W_COUNT] = {T_NUMERIC, T_SAMPLE, T_MEDIA_CONTENT,
                                       T_NUMERIC_LIST, T_SAMPLE_LIST,
                                       T_MEDIA_CONTENT_LIST};

typedef struct {
  const bench_values *values;
  wire_ctx *ctx, *ctx_v2;
  uint32_t type[T_COUNT], type_v2[T_COUNT];
  /* Index of each field of field_names[t] in type t (set-up) */
  uint32_t fx[T_COUNT][22];
  uint8_t *last; /* bytes of the previous encode */
} doc_state;

/* The fields the builders set, per type, in the order of doc_state.fx. */
static const char *const field_names[T_COUNT][23] = {
    [T_NUMERIC] = {"f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9",
                   "f10", "f11", "f12"},
    [T_SAMPLE] = {"int_value", "long_value", "float_value", "double_value",
                  "short_value", "char_value", "boolean_value",
                  "int_value_boxed", "long_value_boxed", "float_value_boxed",
                  "double_value_boxed", "short_value_boxed",
                  "char_value_boxed", "boolean_value_boxed", "int_array",
                  "long_array", "float_array", "double_array", "short_array",
                  "char_array", "boolean_array", "string"},
    [T_MEDIA] = {"uri", "title", "width", "height", "format", "duration",
                 "size", "bitrate", "has_bitrate", "persons", "player",
                 "copyright"},
    [T_IMAGE] = {"uri", "title", "width", "height", "size"},
    [T_MEDIA_CONTENT] = {"media", "images"},
    [T_NUMERIC_LIST] = {"struct_list"},
    [T_SAMPLE_LIST] = {"sample_list"},
    [T_MEDIA_CONTENT_LIST] = {"media_content_list"},
};

static int fail(wire_ctx *ctx, const char *what) {
  fprintf(stderr, "libwire-doc: %s: %s (offset %llu)\n", what,
          ctx ? wire_ctx_error_message(ctx) : "out of memory",
          ctx ? (unsigned long long)wire_ctx_error_offset(ctx) : 0ull);
  return -1;
}

/* ---- building ----------------------------------------------------------
 * Fields are set by index: every field's index is looked up once by name
 * at set-up (wire_schema_field_index, into doc_state.fx), as a binding
 * resolves a class's fields once. Scalar, string and array fields are made
 * and set in one call each (wire_struct_set_value, _string, _bytes);
 * struct and list fields through wire_struct_set_field_at. The library
 * takes NULL nodes and reports them, so a builder ORs the statuses of its
 * calls and checks them once (the error is on the context). */

typedef struct {
  doc_state *s;
  wire_doc *doc;
  int32_t rc; /* the builders' statuses, ORed */
} build;

#define I32(v) (uint64_t)(int64_t)(v)
static uint64_t f32_bits(float v) {
  uint32_t bits;
  memcpy(&bits, &v, 4);
  return bits;
}
static uint64_t f64_bits(double v) {
  uint64_t bits;
  memcpy(&bits, &v, 8);
  return bits;
}
static int32_t set_str(wire_doc *d, wire_node *n, uint32_t ix, bench_str v) {
  return wire_struct_set_string(d, n, ix, (const uint8_t *)v.p, v.len,
                                WIRE_STR_UTF8);
}

static wire_node *numeric_node(build *b, const bench_numeric *v) {
  wire_doc *d = b->doc;
  const uint32_t *fx = b->s->fx[T_NUMERIC];
  wire_node *n = wire_node_new_struct(d, b->s->type[T_NUMERIC]);
  int32_t rc = 0;
  for (int i = 0; i < 12; i++)
    rc |= wire_struct_set_value(d, n, fx[i], WIRE_T_VARINT32, I32(v->f[i]));
  b->rc |= rc;
  return n;
}

static wire_node *sample_node(build *b, const bench_sample *v) {
  wire_doc *d = b->doc;
  const uint32_t *fx = b->s->fx[T_SAMPLE];
  wire_node *n = wire_node_new_struct(d, b->s->type[T_SAMPLE]);
  int32_t rc = 0;
  rc |= wire_struct_set_value(d, n, fx[0], WIRE_T_VARINT32, I32(v->int_value));
  rc |= wire_struct_set_value(d, n, fx[1], WIRE_T_VARINT64, I32(v->long_value));
  rc |= wire_struct_set_value(d, n, fx[2], WIRE_T_FLOAT32,
                              f32_bits(v->float_value));
  rc |= wire_struct_set_value(d, n, fx[3], WIRE_T_FLOAT64,
                              f64_bits(v->double_value));
  rc |= wire_struct_set_value(d, n, fx[4], WIRE_T_VARINT32, I32(v->short_value));
  rc |= wire_struct_set_value(d, n, fx[5], WIRE_T_VARINT32, I32(v->char_value));
  rc |= wire_struct_set_value(d, n, fx[6], WIRE_T_BOOL, v->boolean_value);
  rc |= wire_struct_set_value(d, n, fx[7], WIRE_T_VARINT32,
                              I32(v->int_value_boxed));
  rc |= wire_struct_set_value(d, n, fx[8], WIRE_T_VARINT64,
                              I32(v->long_value_boxed));
  rc |= wire_struct_set_value(d, n, fx[9], WIRE_T_FLOAT32,
                              f32_bits(v->float_value_boxed));
  rc |= wire_struct_set_value(d, n, fx[10], WIRE_T_FLOAT64,
                              f64_bits(v->double_value_boxed));
  rc |= wire_struct_set_value(d, n, fx[11], WIRE_T_VARINT32,
                              I32(v->short_value_boxed));
  rc |= wire_struct_set_value(d, n, fx[12], WIRE_T_VARINT32,
                              I32(v->char_value_boxed));
  rc |= wire_struct_set_value(d, n, fx[13], WIRE_T_BOOL,
                              v->boolean_value_boxed);
  const struct {
    uint32_t type;
    const void *p;
    size_t len;
  } arrays[7] = {
      {WIRE_T_INT32_ARRAY, v->int_array, 4u * v->n_int_array},
      {WIRE_T_INT64_ARRAY, v->long_array, 8u * v->n_long_array},
      {WIRE_T_FLOAT32_ARRAY, v->float_array, 4u * v->n_float_array},
      {WIRE_T_FLOAT64_ARRAY, v->double_array, 8u * v->n_double_array},
      {WIRE_T_INT32_ARRAY, v->short_array, 4u * v->n_short_array},
      {WIRE_T_INT32_ARRAY, v->char_array, 4u * v->n_char_array},
      {WIRE_T_BOOL_ARRAY, v->boolean_array, v->n_boolean_array}};
  for (int i = 0; i < 7; i++)
    rc |= wire_struct_set_bytes(d, n, fx[14 + i], arrays[i].type,
                                (const uint8_t *)arrays[i].p, arrays[i].len);
  rc |= set_str(d, n, fx[21], v->string);
  b->rc |= rc;
  return n;
}

static wire_node *media_node(build *b, const bench_media *v) {
  wire_doc *d = b->doc;
  const uint32_t *fx = b->s->fx[T_MEDIA];
  wire_node *n = wire_node_new_struct(d, b->s->type[T_MEDIA]);
  int32_t rc = set_str(d, n, fx[0], v->uri);
  rc |= set_str(d, n, fx[1], v->title);
  rc |= wire_struct_set_value(d, n, fx[2], WIRE_T_VARINT32, I32(v->width));
  rc |= wire_struct_set_value(d, n, fx[3], WIRE_T_VARINT32, I32(v->height));
  rc |= set_str(d, n, fx[4], v->format);
  rc |= wire_struct_set_value(d, n, fx[5], WIRE_T_VARINT64, I32(v->duration));
  rc |= wire_struct_set_value(d, n, fx[6], WIRE_T_VARINT64, I32(v->size));
  rc |= wire_struct_set_value(d, n, fx[7], WIRE_T_VARINT32, I32(v->bitrate));
  rc |= wire_struct_set_value(d, n, fx[8], WIRE_T_BOOL, v->has_bitrate);
  wire_node *persons = wire_node_new_list(d, WIRE_T_LIST);
  for (uint32_t i = 0; i < v->n_persons; i++)
    rc |= wire_list_append(d, persons,
                           wire_node_new_string(d, (const uint8_t *)v->persons[i].p,
                                                v->persons[i].len, WIRE_STR_UTF8));
  rc |= wire_struct_set_field_at(d, n, fx[9], persons);
  rc |= wire_struct_set_value(d, n, fx[10], WIRE_T_ENUM, (uint32_t)v->player);
  rc |= set_str(d, n, fx[11], v->copyright);
  b->rc |= rc;
  return n;
}

static wire_node *image_node(build *b, const bench_image *v) {
  wire_doc *d = b->doc;
  const uint32_t *fx = b->s->fx[T_IMAGE];
  wire_node *n = wire_node_new_struct(d, b->s->type[T_IMAGE]);
  int32_t rc = set_str(d, n, fx[0], v->uri);
  rc |= set_str(d, n, fx[1], v->title);
  rc |= wire_struct_set_value(d, n, fx[2], WIRE_T_VARINT32, I32(v->width));
  rc |= wire_struct_set_value(d, n, fx[3], WIRE_T_VARINT32, I32(v->height));
  rc |= wire_struct_set_value(d, n, fx[4], WIRE_T_ENUM, (uint32_t)v->size);
  b->rc |= rc;
  return n;
}

static wire_node *media_content_node(build *b, const bench_media_content *v) {
  wire_doc *d = b->doc;
  const uint32_t *fx = b->s->fx[T_MEDIA_CONTENT];
  wire_node *n = wire_node_new_struct(d, b->s->type[T_MEDIA_CONTENT]);
  int32_t rc = wire_struct_set_field_at(d, n, fx[0], media_node(b, &v->media));
  wire_node *images = wire_node_new_list(d, WIRE_T_LIST);
  for (uint32_t i = 0; i < v->n_images; i++)
    rc |= wire_list_append(d, images, image_node(b, &v->images[i]));
  rc |= wire_struct_set_field_at(d, n, fx[1], images);
  b->rc |= rc;
  return n;
}

/* A list-of-structs root (the three *List workloads): one field. */
static wire_node *list_root(build *b, int type, int item_type) {
  wire_doc *d = b->doc;
  const bench_values *v = b->s->values;
  wire_node *n = wire_node_new_struct(d, b->s->type[type]);
  wire_node *list = wire_node_new_list(d, WIRE_T_LIST);
  int32_t rc = 0;
  switch (item_type) {
  case T_NUMERIC:
    for (uint32_t i = 0; i < v->numeric_list.n; i++)
      rc |= wire_list_append(d, list, numeric_node(b, &v->numeric_list.items[i]));
    break;
  case T_SAMPLE:
    for (uint32_t i = 0; i < v->sample_list.n; i++)
      rc |= wire_list_append(d, list, sample_node(b, &v->sample_list.items[i]));
    break;
  default:
    for (uint32_t i = 0; i < v->media_content_list.n; i++)
      rc |= wire_list_append(
          d, list, media_content_node(b, &v->media_content_list.items[i]));
    break;
  }
  rc |= wire_struct_set_field_at(d, n, b->s->fx[type][0], list);
  b->rc |= rc;
  return n;
}

static wire_node *root_node(build *b, int w) {
  const bench_values *v = b->s->values;
  switch (w) {
  case W_NUMERIC_STRUCT: return numeric_node(b, &v->numeric);
  case W_SAMPLE: return sample_node(b, &v->sample);
  case W_MEDIA_CONTENT: return media_content_node(b, &v->media_content);
  case W_NUMERIC_STRUCT_LIST: return list_root(b, T_NUMERIC_LIST, T_NUMERIC);
  case W_SAMPLE_LIST: return list_root(b, T_SAMPLE_LIST, T_SAMPLE);
  case W_MEDIA_CONTENT_LIST:
    return list_root(b, T_MEDIA_CONTENT_LIST, T_MEDIA_CONTENT);
  default: return NULL;
  }
}

static int doc_encode(void *st, int w, const uint8_t **out, size_t *out_len) {
  doc_state *s = st;
  wire_ctx_free_bytes(s->ctx, s->last);
  s->last = NULL;
  build b = {s, wire_doc_new(s->ctx), 0};
  if (!b.doc) return fail(s->ctx, "wire_doc_new");
  wire_node *root = root_node(&b, w);
  if (b.rc != WIRE_OK || !root || wire_doc_add_root(b.doc, root) != WIRE_OK) {
    wire_doc_free(b.doc);
    return fail(s->ctx, "building the document");
  }
  uint8_t *bytes;
  size_t len;
  int32_t rc = wire_encode(s->ctx, b.doc, &bytes, &len);
  wire_doc_free(b.doc);
  if (rc != WIRE_OK) return fail(s->ctx, "wire_encode");
  s->last = bytes;
  *out = bytes;
  *out_len = len;
  return 0;
}

static int doc_decode(void *st, int w, const uint8_t *data, size_t len) {
  doc_state *s = st;
  (void)w;
  wire_doc *doc;
  if (wire_decode(s->ctx, data, len, &doc) != WIRE_OK)
    return fail(s->ctx, "wire_decode");
  wire_doc_free(doc);
  return 0;
}

/* ---- reading back into the model (checks only) ----------------------- */

typedef struct {
  bench_arena *arena;
  int bad;
} rd;

static bench_str rd_str(rd *r, const wire_node *n) {
  bench_str s = {NULL, 0};
  size_t wlen = 0, len = 0;
  if (!n || wire_node_type(n) != WIRE_T_STRING) {
    r->bad = 1;
    return s;
  }
  wire_node_bytes(n, &wlen);
  /* UTF-8 needs at most 3 bytes per wire byte (Latin-1: 2, UTF-16: 1.5). */
  uint8_t *out = bench_arena_alloc(r->arena, 3 * wlen + 1);
  if (!out || wire_node_string_utf8(n, out, 3 * wlen + 1, &len) != WIRE_OK) {
    r->bad = 1;
    return s;
  }
  s.p = (const char *)out;
  s.len = (uint32_t)len;
  return s;
}

static const void *rd_arr(rd *r, const wire_node *n, uint32_t type_id,
                          size_t width, uint32_t *count) {
  size_t len = 0;
  const uint8_t *p = n ? wire_node_bytes(n, &len) : NULL;
  *count = 0;
  if (!n || wire_node_type(n) != type_id || len % width) {
    r->bad = 1;
    return NULL;
  }
  void *dst = bench_arena_alloc(r->arena, len ? len : 1);
  if (!dst) {
    r->bad = 1;
    return NULL;
  }
  if (len) memcpy(dst, p, len);
  *count = (uint32_t)(len / width);
  return dst;
}

static int64_t rd_int(rd *r, const wire_node *n) {
  if (!n) {
    r->bad = 1;
    return 0;
  }
  return wire_node_int(n);
}

static double rd_float(rd *r, const wire_node *n) {
  if (!n) {
    r->bad = 1;
    return 0;
  }
  return wire_node_float(n);
}

/* Calls `field(r, tag, child, out)` for every field of a struct node. */
typedef void (*field_fn)(rd *r, int32_t tag, const wire_node *v, void *out);
static void rd_struct(rd *r, const wire_node *n, field_fn field, void *out) {
  if (!n || wire_node_type(n) < WIRE_T_STRUCT ||
      wire_node_type(n) > WIRE_T_NAMED_COMPATIBLE_STRUCT) {
    r->bad = 1;
    return;
  }
  size_t count = wire_node_count(n);
  for (size_t i = 0; i < count; i++)
    field(r, wire_node_field_tag(n, i), wire_node_field(n, i), out);
}

/* Elements of a list node into an arena array of `size`-byte items. */
static void *rd_list(rd *r, const wire_node *n, size_t size, uint32_t *count,
                     field_fn field) {
  *count = 0;
  if (!n || wire_node_type(n) != WIRE_T_LIST) {
    r->bad = 1;
    return NULL;
  }
  size_t len = wire_node_count(n);
  uint8_t *items = bench_arena_alloc(r->arena, len * size + 1);
  if (!items) {
    r->bad = 1;
    return NULL;
  }
  memset(items, 0, len * size);
  for (size_t i = 0; i < len; i++)
    rd_struct(r, wire_node_child(n, i), field, items + i * size);
  *count = (uint32_t)len;
  return items;
}

static void numeric_field(rd *r, int32_t tag, const wire_node *v, void *out) {
  bench_numeric *o = out;
  if (tag >= 1 && tag <= 12) o->f[tag - 1] = (int32_t)rd_int(r, v);
  else r->bad = 1;
}

static void sample_field(rd *r, int32_t tag, const wire_node *v, void *out) {
  bench_sample *o = out;
  switch (tag) {
  case 1: o->int_value = (int32_t)rd_int(r, v); break;
  case 2: o->long_value = rd_int(r, v); break;
  case 3: o->float_value = (float)rd_float(r, v); break;
  case 4: o->double_value = rd_float(r, v); break;
  case 5: o->short_value = (int32_t)rd_int(r, v); break;
  case 6: o->char_value = (int32_t)rd_int(r, v); break;
  case 7: o->boolean_value = (uint8_t)rd_int(r, v); break;
  case 8: o->int_value_boxed = (int32_t)rd_int(r, v); break;
  case 9: o->long_value_boxed = rd_int(r, v); break;
  case 10: o->float_value_boxed = (float)rd_float(r, v); break;
  case 11: o->double_value_boxed = rd_float(r, v); break;
  case 12: o->short_value_boxed = (int32_t)rd_int(r, v); break;
  case 13: o->char_value_boxed = (int32_t)rd_int(r, v); break;
  case 14: o->boolean_value_boxed = (uint8_t)rd_int(r, v); break;
  case 15:
    o->int_array = rd_arr(r, v, WIRE_T_INT32_ARRAY, 4, &o->n_int_array);
    break;
  case 16:
    o->long_array = rd_arr(r, v, WIRE_T_INT64_ARRAY, 8, &o->n_long_array);
    break;
  case 17:
    o->float_array = rd_arr(r, v, WIRE_T_FLOAT32_ARRAY, 4, &o->n_float_array);
    break;
  case 18:
    o->double_array =
        rd_arr(r, v, WIRE_T_FLOAT64_ARRAY, 8, &o->n_double_array);
    break;
  case 19:
    o->short_array = rd_arr(r, v, WIRE_T_INT32_ARRAY, 4, &o->n_short_array);
    break;
  case 20:
    o->char_array = rd_arr(r, v, WIRE_T_INT32_ARRAY, 4, &o->n_char_array);
    break;
  case 21:
    o->boolean_array =
        rd_arr(r, v, WIRE_T_BOOL_ARRAY, 1, &o->n_boolean_array);
    break;
  case 22: o->string = rd_str(r, v); break;
  default: r->bad = 1;
  }
}

static void media_field(rd *r, int32_t tag, const wire_node *v, void *out) {
  bench_media *o = out;
  switch (tag) {
  case 1: o->uri = rd_str(r, v); break;
  case 2: o->title = rd_str(r, v); break;
  case 3: o->width = (int32_t)rd_int(r, v); break;
  case 4: o->height = (int32_t)rd_int(r, v); break;
  case 5: o->format = rd_str(r, v); break;
  case 6: o->duration = rd_int(r, v); break;
  case 7: o->size = rd_int(r, v); break;
  case 8: o->bitrate = (int32_t)rd_int(r, v); break;
  case 9: o->has_bitrate = (uint8_t)rd_int(r, v); break;
  case 10: {
    size_t n = v && wire_node_type(v) == WIRE_T_LIST ? wire_node_count(v) : 0;
    bench_str *p = bench_arena_alloc(r->arena, n * sizeof *p + 1);
    if (!v || wire_node_type(v) != WIRE_T_LIST || !p) {
      r->bad = 1;
      break;
    }
    for (size_t i = 0; i < n; i++) p[i] = rd_str(r, wire_node_child(v, i));
    o->persons = p;
    o->n_persons = (uint32_t)n;
    break;
  }
  case 11:
    if (!v || wire_node_type(v) != WIRE_T_ENUM) r->bad = 1;
    else o->player = (int32_t)wire_node_enum_value(v);
    break;
  case 12: o->copyright = rd_str(r, v); break;
  default: r->bad = 1;
  }
}

static void image_field(rd *r, int32_t tag, const wire_node *v, void *out) {
  bench_image *o = out;
  switch (tag) {
  case 1: o->uri = rd_str(r, v); break;
  case 2: o->title = rd_str(r, v); break;
  case 3: o->width = (int32_t)rd_int(r, v); break;
  case 4: o->height = (int32_t)rd_int(r, v); break;
  case 5:
    if (!v || wire_node_type(v) != WIRE_T_ENUM) r->bad = 1;
    else o->size = (int32_t)wire_node_enum_value(v);
    break;
  default: r->bad = 1;
  }
}

static void media_content_field(rd *r, int32_t tag, const wire_node *v,
                                void *out) {
  bench_media_content *o = out;
  if (tag == 1) rd_struct(r, v, media_field, &o->media);
  else if (tag == 2)
    o->images = rd_list(r, v, sizeof(bench_image), &o->n_images, image_field);
  else r->bad = 1;
}

static void numeric_list_field(rd *r, int32_t tag, const wire_node *v,
                               void *out) {
  bench_numeric_list *o = out;
  if (tag == 1)
    o->items = rd_list(r, v, sizeof(bench_numeric), &o->n, numeric_field);
  else r->bad = 1;
}

static void sample_list_field(rd *r, int32_t tag, const wire_node *v,
                              void *out) {
  bench_sample_list *o = out;
  if (tag == 1)
    o->items = rd_list(r, v, sizeof(bench_sample), &o->n, sample_field);
  else r->bad = 1;
}

static void media_content_list_field(rd *r, int32_t tag, const wire_node *v,
                                     void *out) {
  bench_media_content_list *o = out;
  if (tag == 1)
    o->items = rd_list(r, v, sizeof(bench_media_content), &o->n,
                       media_content_field);
  else r->bad = 1;
}

static const field_fn root_fields[W_COUNT] = {
    numeric_field,      sample_field,      media_content_field,
    numeric_list_field, sample_list_field, media_content_list_field};
static const size_t root_sizes[W_COUNT] = {
    sizeof(bench_numeric),      sizeof(bench_sample),
    sizeof(bench_media_content), sizeof(bench_numeric_list),
    sizeof(bench_sample_list),  sizeof(bench_media_content_list)};

static int doc_decode_value(void *st, int w, const uint8_t *data, size_t len,
                            bench_arena *arena, void *out) {
  doc_state *s = st;
  wire_doc *doc;
  if (w < 0 || w >= W_COUNT) return -1;
  if (wire_decode(s->ctx, data, len, &doc) != WIRE_OK)
    return fail(s->ctx, "wire_decode");
  rd r = {arena, 0};
  memset(out, 0, root_sizes[w]);
  if (wire_doc_root_count(doc) != 1) r.bad = 1;
  else rd_struct(&r, wire_doc_root(doc, 0), root_fields[w], out);
  wire_doc_free(doc);
  if (r.bad) {
    fprintf(stderr, "libwire-doc: %s: the document has another shape\n",
            bench_workload_name(w));
    return -1;
  }
  return 0;
}

/* ---- the mismatch read ------------------------------------------------- */

/* Decodes with the V2 schema and projects the root onto the V2 type;
 * *out_doc keeps the document for a check (NULL: freed here). */
static int v2_read(doc_state *s, int w, const uint8_t *data, size_t len,
                   wire_doc **out_doc, wire_node **out_root) {
  wire_doc *doc;
  wire_node *projected;
  if (wire_decode(s->ctx_v2, data, len, &doc) != WIRE_OK)
    return fail(s->ctx_v2, "wire_decode (v2)");
  if (wire_doc_root_count(doc) != 1 ||
      wire_struct_project(doc, wire_doc_root(doc, 0),
                          s->type_v2[root_type[w]], &projected) != WIRE_OK) {
    wire_doc_free(doc);
    return fail(s->ctx_v2, "wire_struct_project (v2)");
  }
  if (out_doc) {
    *out_doc = doc;
    *out_root = projected;
  } else {
    wire_doc_free(doc);
  }
  return 0;
}

static int doc_decode_v2(void *st, int w, const uint8_t *data, size_t len) {
  return v2_read(st, w, data, len, NULL, NULL);
}

/* The field with tag `tag` of a struct node. */
static const wire_node *field_by_tag(const wire_node *n, int32_t tag) {
  size_t count = n ? wire_node_count(n) : 0;
  for (size_t i = 0; i < count; i++)
    if (wire_node_field_tag(n, i) == tag) return wire_node_field(n, i);
  return NULL;
}

/* A widened field: present, of type VARINT64, with the writer's value. */
static int widened(const wire_node *n, int32_t tag, int64_t want) {
  const wire_node *f = field_by_tag(n, tag);
  return f && wire_node_type(f) == WIRE_T_VARINT64 && wire_node_int(f) == want;
}

static int media_content_v2_ok(const wire_node *n,
                               const bench_media_content *v) {
  const wire_node *images = field_by_tag(n, 2);
  if (!widened(field_by_tag(n, 1), 3, v->media.width) || !images ||
      wire_node_count(images) != v->n_images)
    return 0;
  for (uint32_t i = 0; i < v->n_images; i++)
    if (!widened(wire_node_child(images, i), 3, v->images[i].width)) return 0;
  return 1;
}

static int doc_check_v2(void *st, int w, const uint8_t *data, size_t len,
                        const bench_values *v) {
  doc_state *s = st;
  wire_doc *doc;
  wire_node *root;
  if (v2_read(s, w, data, len, &doc, &root)) return -1;
  int ok = 1;
  const wire_node *list = field_by_tag(root, 1);
  switch (w) {
  case W_NUMERIC_STRUCT: ok = widened(root, 1, v->numeric.f[0]); break;
  case W_SAMPLE: ok = widened(root, 1, v->sample.int_value); break;
  case W_MEDIA_CONTENT: ok = media_content_v2_ok(root, &v->media_content); break;
  case W_NUMERIC_STRUCT_LIST:
    ok = list && wire_node_count(list) == v->numeric_list.n;
    for (uint32_t i = 0; ok && i < v->numeric_list.n; i++)
      ok = widened(wire_node_child(list, i), 1, v->numeric_list.items[i].f[0]);
    break;
  case W_SAMPLE_LIST:
    ok = list && wire_node_count(list) == v->sample_list.n;
    for (uint32_t i = 0; ok && i < v->sample_list.n; i++)
      ok = widened(wire_node_child(list, i), 1,
                   v->sample_list.items[i].int_value);
    break;
  case W_MEDIA_CONTENT_LIST:
    ok = list && wire_node_count(list) == v->media_content_list.n;
    for (uint32_t i = 0; ok && i < v->media_content_list.n; i++)
      ok = media_content_v2_ok(wire_node_child(list, i),
                               &v->media_content_list.items[i]);
    break;
  default: ok = 0;
  }
  wire_doc_free(doc);
  if (!ok) {
    fprintf(stderr, "libwire-doc: %s: the v2 read got other values\n",
            bench_workload_name(w));
    return -1;
  }
  return 0;
}

/* ---- set-up ------------------------------------------------------------ */

static wire_ctx *load(const char *file, uint32_t types[T_COUNT],
                      uint32_t (*fx)[22]) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", BENCH_SCHEMA_DIR, file);
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) return NULL;
  if (wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1) != WIRE_OK ||
      wire_schema_load_fdl_file(ctx, path) != WIRE_OK ||
      wire_schema_finish(ctx) != WIRE_OK) {
    fail(ctx, path);
    wire_ctx_free(ctx);
    return NULL;
  }
  for (int i = 0; i < T_COUNT; i++) {
    if (wire_schema_find_type(ctx, type_names[i], strlen(type_names[i]),
                              &types[i]) != WIRE_OK) {
      fail(ctx, type_names[i]);
      wire_ctx_free(ctx);
      return NULL;
    }
    for (int k = 0; fx && field_names[i][k]; k++) {
      const char *name = field_names[i][k];
      if (wire_schema_field_index(ctx, types[i], name, strlen(name),
                                  &fx[i][k]) != WIRE_OK) {
        fail(ctx, name);
        wire_ctx_free(ctx);
        return NULL;
      }
    }
  }
  return ctx;
}

static void doc_fini(void *st) {
  doc_state *s = st;
  if (!s) return;
  if (s->ctx) wire_ctx_free_bytes(s->ctx, s->last);
  wire_ctx_free(s->ctx);
  wire_ctx_free(s->ctx_v2);
  free(s);
}

static void *doc_init(const bench_values *values) {
  doc_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->values = values;
  s->ctx = load("bench.fdl", s->type, s->fx);
  s->ctx_v2 = load("bench_v2.fdl", s->type_v2, NULL);
  if (!s->ctx || !s->ctx_v2) {
    doc_fini(s);
    return NULL;
  }
  return s;
}

const bench_impl bench_impl_libwire_doc = {
    "libwire-doc", BENCH_FORY_BYTES, doc_init,         doc_fini,
    doc_encode,    doc_decode,       doc_decode_value, doc_decode_v2,
    doc_check_v2,
};
