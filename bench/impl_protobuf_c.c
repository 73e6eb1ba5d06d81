/* impl_protobuf_c.c - "protobuf-c": protobuf-c (Debian's libprotobuf-c)
 * with the code protoc-c generates from schemas/bench.proto.
 *
 *   init: the reference values as protobuf-c messages (its in-memory form).
 *   ser:  protobuf_c_message_get_packed_size + protobuf_c_message_pack into
 *         a reused buffer (pack does not check bounds, so the size comes
 *         first, as protobuf-c's own pack_to_buffer does).
 *   de:   <message>__unpack (default allocator) +
 *         protobuf_c_message_free_unpacked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.pb-c.h"
#include "impl.h"

#define PREP_CAP (1u << 20)

typedef struct {
  bench_arena prep; /* the prepared messages */
  const ProtobufCMessage *msg[W_COUNT];
  uint8_t *out;
  size_t out_cap;
} pb_state;

static const ProtobufCMessageDescriptor *const descriptors[W_COUNT] = {
    &benchpb__numeric_struct__descriptor,
    &benchpb__sample__descriptor,
    &benchpb__media_content__descriptor,
    &benchpb__numeric_struct_list__descriptor,
    &benchpb__sample_list__descriptor,
    &benchpb__media_content_list__descriptor,
};

/* ---- preparing the messages ------------------------------------------- */

typedef struct {
  bench_arena *a;
  int bad;
} prep;

static void *alloc(prep *p, size_t n) {
  void *q = bench_arena_alloc(p->a, n ? n : 1);
  if (!q) p->bad = 1;
  else memset(q, 0, n ? n : 1);
  return q;
}

static char *cstr(prep *p, bench_str s) {
  char *q = alloc(p, (size_t)s.len + 1);
  if (q) memcpy(q, s.p, s.len);
  return q;
}

static void *copy(prep *p, const void *src, size_t n) {
  void *q = alloc(p, n);
  if (q && n) memcpy(q, src, n);
  return q;
}

static Benchpb__NumericStruct *pb_numeric(prep *p, const bench_numeric *v) {
  Benchpb__NumericStruct *m = alloc(p, sizeof *m);
  if (!m) return NULL;
  benchpb__numeric_struct__init(m);
  int32_t *f[12] = {&m->f1, &m->f2, &m->f3, &m->f4,  &m->f5,  &m->f6,
                    &m->f7, &m->f8, &m->f9, &m->f10, &m->f11, &m->f12};
  for (int i = 0; i < 12; i++) *f[i] = v->f[i];
  return m;
}

static Benchpb__Sample *pb_sample(prep *p, const bench_sample *v) {
  Benchpb__Sample *m = alloc(p, sizeof *m);
  if (!m) return NULL;
  benchpb__sample__init(m);
  m->int_value = v->int_value;
  m->long_value = v->long_value;
  m->float_value = v->float_value;
  m->double_value = v->double_value;
  m->short_value = v->short_value;
  m->char_value = v->char_value;
  m->boolean_value = v->boolean_value;
  m->int_value_boxed = v->int_value_boxed;
  m->long_value_boxed = v->long_value_boxed;
  m->float_value_boxed = v->float_value_boxed;
  m->double_value_boxed = v->double_value_boxed;
  m->short_value_boxed = v->short_value_boxed;
  m->char_value_boxed = v->char_value_boxed;
  m->boolean_value_boxed = v->boolean_value_boxed;
  m->n_int_array = v->n_int_array;
  m->int_array = copy(p, v->int_array, 4u * v->n_int_array);
  m->n_long_array = v->n_long_array;
  m->long_array = copy(p, v->long_array, 8u * v->n_long_array);
  m->n_float_array = v->n_float_array;
  m->float_array = copy(p, v->float_array, 4u * v->n_float_array);
  m->n_double_array = v->n_double_array;
  m->double_array = copy(p, v->double_array, 8u * v->n_double_array);
  m->n_short_array = v->n_short_array;
  m->short_array = copy(p, v->short_array, 4u * v->n_short_array);
  m->n_char_array = v->n_char_array;
  m->char_array = copy(p, v->char_array, 4u * v->n_char_array);
  m->n_boolean_array = v->n_boolean_array;
  m->boolean_array =
      alloc(p, sizeof(protobuf_c_boolean) * v->n_boolean_array);
  for (uint32_t i = 0; m->boolean_array && i < v->n_boolean_array; i++)
    m->boolean_array[i] = v->boolean_array[i];
  m->string = cstr(p, v->string);
  return m;
}

static Benchpb__MediaContent *pb_media_content(prep *p,
                                               const bench_media_content *v) {
  Benchpb__MediaContent *m = alloc(p, sizeof *m);
  Benchpb__Media *md = alloc(p, sizeof *md);
  if (!m || !md) return NULL;
  benchpb__media_content__init(m);
  benchpb__media__init(md);
  const bench_media *a = &v->media;
  md->uri = cstr(p, a->uri);
  md->title = cstr(p, a->title);
  md->width = a->width;
  md->height = a->height;
  md->format = cstr(p, a->format);
  md->duration = a->duration;
  md->size = a->size;
  md->bitrate = a->bitrate;
  md->has_bitrate = a->has_bitrate;
  md->n_persons = a->n_persons;
  md->persons = alloc(p, sizeof(char *) * a->n_persons);
  for (uint32_t i = 0; md->persons && i < a->n_persons; i++)
    md->persons[i] = cstr(p, a->persons[i]);
  md->player = (Benchpb__Player)a->player;
  md->copyright = cstr(p, a->copyright);
  m->media = md;
  m->n_images = v->n_images;
  m->images = alloc(p, sizeof(Benchpb__Image *) * v->n_images);
  for (uint32_t i = 0; m->images && i < v->n_images; i++) {
    Benchpb__Image *im = alloc(p, sizeof *im);
    if (!im) return NULL;
    benchpb__image__init(im);
    im->uri = cstr(p, v->images[i].uri);
    im->title = cstr(p, v->images[i].title);
    im->width = v->images[i].width;
    im->height = v->images[i].height;
    im->size = (Benchpb__Size)v->images[i].size;
    m->images[i] = im;
  }
  return m;
}

static int prepare(pb_state *s, const bench_values *v) {
  prep p = {&s->prep, 0};
  s->msg[W_NUMERIC_STRUCT] = (ProtobufCMessage *)pb_numeric(&p, &v->numeric);
  s->msg[W_SAMPLE] = (ProtobufCMessage *)pb_sample(&p, &v->sample);
  s->msg[W_MEDIA_CONTENT] =
      (ProtobufCMessage *)pb_media_content(&p, &v->media_content);

  Benchpb__NumericStructList *nl = alloc(&p, sizeof *nl);
  Benchpb__SampleList *sl = alloc(&p, sizeof *sl);
  Benchpb__MediaContentList *ml = alloc(&p, sizeof *ml);
  if (!nl || !sl || !ml) return -1;
  benchpb__numeric_struct_list__init(nl);
  benchpb__sample_list__init(sl);
  benchpb__media_content_list__init(ml);
  nl->n_struct_list = v->numeric_list.n;
  nl->struct_list = alloc(&p, sizeof(void *) * v->numeric_list.n);
  for (uint32_t i = 0; nl->struct_list && i < v->numeric_list.n; i++)
    nl->struct_list[i] = pb_numeric(&p, &v->numeric_list.items[i]);
  sl->n_sample_list = v->sample_list.n;
  sl->sample_list = alloc(&p, sizeof(void *) * v->sample_list.n);
  for (uint32_t i = 0; sl->sample_list && i < v->sample_list.n; i++)
    sl->sample_list[i] = pb_sample(&p, &v->sample_list.items[i]);
  ml->n_media_content_list = v->media_content_list.n;
  ml->media_content_list =
      alloc(&p, sizeof(void *) * v->media_content_list.n);
  for (uint32_t i = 0; ml->media_content_list && i < v->media_content_list.n;
       i++)
    ml->media_content_list[i] =
        pb_media_content(&p, &v->media_content_list.items[i]);
  s->msg[W_NUMERIC_STRUCT_LIST] = &nl->base;
  s->msg[W_SAMPLE_LIST] = &sl->base;
  s->msg[W_MEDIA_CONTENT_LIST] = &ml->base;
  return p.bad ? -1 : 0;
}

/* ---- measured ---------------------------------------------------------- */

static int pb_encode(void *st, int w, const uint8_t **out, size_t *out_len) {
  pb_state *s = st;
  size_t len = protobuf_c_message_get_packed_size(s->msg[w]);
  if (len > s->out_cap) {
    uint8_t *q = realloc(s->out, len);
    if (!q) return -1;
    s->out = q;
    s->out_cap = len;
  }
  if (protobuf_c_message_pack(s->msg[w], s->out) != len) {
    fprintf(stderr, "protobuf-c: pack %s: size changed\n",
            bench_workload_name(w));
    return -1;
  }
  *out = s->out;
  *out_len = len;
  return 0;
}

static int pb_decode(void *st, int w, const uint8_t *data, size_t len) {
  (void)st;
  ProtobufCMessage *m = protobuf_c_message_unpack(descriptors[w], NULL, len,
                                                  data);
  if (!m) {
    fprintf(stderr, "protobuf-c: unpack %s failed\n", bench_workload_name(w));
    return -1;
  }
  protobuf_c_message_free_unpacked(m, NULL);
  return 0;
}

/* ---- back to the model (checks only) ----------------------------------- */

static bench_str mstr(prep *p, const char *s) {
  bench_str r = {NULL, 0};
  if (!s) {
    p->bad = 1;
    return r;
  }
  size_t n = strlen(s);
  r.p = copy(p, s, n);
  r.len = (uint32_t)n;
  return r;
}

static void m_numeric(const Benchpb__NumericStruct *m, bench_numeric *v) {
  const int32_t f[12] = {m->f1, m->f2, m->f3, m->f4,  m->f5,  m->f6,
                         m->f7, m->f8, m->f9, m->f10, m->f11, m->f12};
  memcpy(v->f, f, sizeof f);
}

static void m_sample(prep *p, const Benchpb__Sample *m, bench_sample *v) {
  v->int_value = m->int_value;
  v->long_value = m->long_value;
  v->float_value = m->float_value;
  v->double_value = m->double_value;
  v->short_value = m->short_value;
  v->char_value = m->char_value;
  v->boolean_value = (uint8_t)m->boolean_value;
  v->int_value_boxed = m->int_value_boxed;
  v->long_value_boxed = m->long_value_boxed;
  v->float_value_boxed = m->float_value_boxed;
  v->double_value_boxed = m->double_value_boxed;
  v->short_value_boxed = m->short_value_boxed;
  v->char_value_boxed = m->char_value_boxed;
  v->boolean_value_boxed = (uint8_t)m->boolean_value_boxed;
  v->n_int_array = (uint32_t)m->n_int_array;
  v->int_array = copy(p, m->int_array, 4 * m->n_int_array);
  v->n_long_array = (uint32_t)m->n_long_array;
  v->long_array = copy(p, m->long_array, 8 * m->n_long_array);
  v->n_float_array = (uint32_t)m->n_float_array;
  v->float_array = copy(p, m->float_array, 4 * m->n_float_array);
  v->n_double_array = (uint32_t)m->n_double_array;
  v->double_array = copy(p, m->double_array, 8 * m->n_double_array);
  v->n_short_array = (uint32_t)m->n_short_array;
  v->short_array = copy(p, m->short_array, 4 * m->n_short_array);
  v->n_char_array = (uint32_t)m->n_char_array;
  v->char_array = copy(p, m->char_array, 4 * m->n_char_array);
  v->n_boolean_array = (uint32_t)m->n_boolean_array;
  uint8_t *b = alloc(p, m->n_boolean_array);
  for (size_t i = 0; b && i < m->n_boolean_array; i++)
    b[i] = (uint8_t)m->boolean_array[i];
  v->boolean_array = b;
  v->string = mstr(p, m->string);
}

static void m_media_content(prep *p, const Benchpb__MediaContent *m,
                            bench_media_content *v) {
  const Benchpb__Media *a = m->media;
  if (!a) {
    p->bad = 1;
    return;
  }
  bench_media *o = &v->media;
  o->uri = mstr(p, a->uri);
  o->title = mstr(p, a->title);
  o->width = a->width;
  o->height = a->height;
  o->format = mstr(p, a->format);
  o->duration = a->duration;
  o->size = a->size;
  o->bitrate = a->bitrate;
  o->has_bitrate = (uint8_t)a->has_bitrate;
  bench_str *persons = alloc(p, sizeof *persons * a->n_persons);
  for (size_t i = 0; persons && i < a->n_persons; i++)
    persons[i] = mstr(p, a->persons[i]);
  o->persons = persons;
  o->n_persons = (uint32_t)a->n_persons;
  o->player = (int32_t)a->player;
  o->copyright = mstr(p, a->copyright);
  bench_image *images = alloc(p, sizeof *images * m->n_images);
  for (size_t i = 0; images && i < m->n_images; i++) {
    images[i].uri = mstr(p, m->images[i]->uri);
    images[i].title = mstr(p, m->images[i]->title);
    images[i].width = m->images[i]->width;
    images[i].height = m->images[i]->height;
    images[i].size = (int32_t)m->images[i]->size;
  }
  v->images = images;
  v->n_images = (uint32_t)m->n_images;
}

static int pb_decode_value(void *st, int w, const uint8_t *data, size_t len,
                           bench_arena *arena, void *out) {
  (void)st;
  ProtobufCMessage *m = protobuf_c_message_unpack(descriptors[w], NULL, len,
                                                  data);
  if (!m) return -1;
  prep p = {arena, 0};
  switch (w) {
  case W_NUMERIC_STRUCT: m_numeric((void *)m, out); break;
  case W_SAMPLE: m_sample(&p, (void *)m, out); break;
  case W_MEDIA_CONTENT: m_media_content(&p, (void *)m, out); break;
  case W_NUMERIC_STRUCT_LIST: {
    const Benchpb__NumericStructList *l = (void *)m;
    bench_numeric_list *o = out;
    bench_numeric *items = alloc(&p, sizeof *items * l->n_struct_list);
    for (size_t i = 0; items && i < l->n_struct_list; i++)
      m_numeric(l->struct_list[i], &items[i]);
    o->items = items;
    o->n = (uint32_t)l->n_struct_list;
    break;
  }
  case W_SAMPLE_LIST: {
    const Benchpb__SampleList *l = (void *)m;
    bench_sample_list *o = out;
    bench_sample *items = alloc(&p, sizeof *items * l->n_sample_list);
    for (size_t i = 0; items && i < l->n_sample_list; i++)
      m_sample(&p, l->sample_list[i], &items[i]);
    o->items = items;
    o->n = (uint32_t)l->n_sample_list;
    break;
  }
  default: {
    const Benchpb__MediaContentList *l = (void *)m;
    bench_media_content_list *o = out;
    bench_media_content *items =
        alloc(&p, sizeof *items * l->n_media_content_list);
    for (size_t i = 0; items && i < l->n_media_content_list; i++)
      m_media_content(&p, l->media_content_list[i], &items[i]);
    o->items = items;
    o->n = (uint32_t)l->n_media_content_list;
  }
  }
  protobuf_c_message_free_unpacked(m, NULL);
  return p.bad ? -1 : 0;
}

static void pb_fini(void *st) {
  pb_state *s = st;
  if (!s) return;
  bench_arena_fini(&s->prep);
  free(s->out);
  free(s);
}

static void *pb_init(const bench_values *values) {
  pb_state *s = calloc(1, sizeof *s);
  if (!s || bench_arena_init(&s->prep, PREP_CAP) || prepare(s, values)) {
    fprintf(stderr, "protobuf-c: cannot prepare the messages\n");
    pb_fini(s);
    return NULL;
  }
  return s;
}

const bench_impl bench_impl_protobuf_c = {
    "protobuf-c", 0,    pb_init, pb_fini, pb_encode, pb_decode,
    pb_decode_value, NULL, NULL,
};
