/* mem_structs.c - instructions per wire_mem_decode of the Kotlin binding's
 * three struct workloads (NumericStruct, Sample, MediaContent of
 * bench/schemas/bench.fdl) with the layouts and flags the binding uses
 * (bindings/kotlin, Mem.kt): compatible mode, strings left in their wire
 * encoding (WIRE_MEM_STR_TAGGED, MediaContent's two UTF-16 strings sent as
 * UTF-16), nested classes and list items as struct pointers, a flat
 * struct decoded with no arena, the others through wire_mem_decode_bases
 * with WIRE_MEM_ARRAYS_IN_PLACE and the root image at the arena's start. A benchmark, not a test:
 * `make bench-structs` builds it, runs it under callgrind and prints
 * `BENCH mem <workload> de ir=N`, then `... en ir=N` for wire_mem_encode
 * of the same values; `mem_structs time` prints ns per decode
 * (thread CPU time: median and least of 31 batches) instead, `mem_structs one K` decodes
 * workload K (0-3) 10,000 times under instrumentation (for
 * callgrind_annotate; `one-en K` encodes it). GoSample: Sample as the Go binding decodes Fory
 * Go's bytes (schema consistent mode, the seven arrays written as lists of
 * declared elements), into the same image. */
#define _POSIX_C_SOURCE 199309L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <valgrind/callgrind.h>
#include "wire.h"

#define NONE WIRE_MEM_NONE
#define STR (WIRE_MEM_STR | WIRE_MEM_STR_TAGGED)

static wire_ctx *ctx;
/* Sample as Fory Go writes it: the arrays are lists */
static const char go_fdl[] =
    "package gobench;\n"
    "message Sample [id=2] {\n"
    "  int32 int_value = 1; int64 long_value = 2; float32 float_value = 3;\n"
    "  float64 double_value = 4; int32 short_value = 5; int32 char_value = 6;\n"
    "  bool boolean_value = 7; int32 int_value_boxed = 8;\n"
    "  int64 long_value_boxed = 9; float32 float_value_boxed = 10;\n"
    "  float64 double_value_boxed = 11; int32 short_value_boxed = 12;\n"
    "  int32 char_value_boxed = 13; bool boolean_value_boxed = 14;\n"
    "  list<int32> int_array = 15; list<int64> long_array = 16;\n"
    "  list<float32> float_array = 17; list<float64> double_array = 18;\n"
    "  list<int32> short_array = 19; list<int32> char_array = 20;\n"
    "  list<bool> boolean_array = 21; string string = 22;\n"
    "}\n";
static void ck(int32_t st, const char *what) {
  if (st) {
    fprintf(stderr, "%s: %d %s\n", what, st, wire_ctx_error_message(ctx));
    exit(1);
  }
}
static uint32_t type_of(const char *name) {
  uint32_t t;
  ck(wire_schema_find_type(ctx, name, strlen(name), &t), name);
  return t;
}
static uint32_t layout(uint32_t type, uint32_t size) {
  uint32_t l;
  ck(wire_mem_layout_new(ctx, type, size, &l), "layout");
  return l;
}
static void field(uint32_t l, uint32_t f, uint32_t form, uint32_t off,
                  uint32_t elem) {
  uint32_t base = form & WIRE_MEM_F_MASK;
  uint32_t aux = base == WIRE_MEM_STR || base == WIRE_MEM_BYTES ||
                         base == WIRE_MEM_LIST || base == WIRE_MEM_ARRAY
                     ? off + 8 : NONE;
  ck(wire_mem_layout_field(ctx, l, f, form, off, aux, NONE, elem), "field");
}

/* images: pointer + 32-bit length word (the tagged header) */
typedef struct { const uint8_t *p; uint32_t h, pad; } tstr;
typedef struct { const void *p; uint32_t n, pad; } seq;
static tstr latin1(const char *s) {
  return (tstr){(const uint8_t *)s, (uint32_t)strlen(s) << 2 | WIRE_STR_LATIN1, 0};
}
/* ASCII text with U+1234 last, as UTF-16LE */
static tstr utf16(const char *s) {
  size_t n = strlen(s);
  uint8_t *b = malloc(2 * n + 2);
  for (size_t i = 0; i < n; i++) { b[2 * i] = (uint8_t)s[i]; b[2 * i + 1] = 0; }
  b[2 * n] = 0x34;
  b[2 * n + 1] = 0x12;
  return (tstr){b, (uint32_t)(2 * n + 2) << 2 | WIRE_STR_UTF16, 0};
}

typedef struct { int32_t f[12]; } numeric;
typedef struct {
  int32_t iv; int32_t pad0; int64_t lv; float fv; int32_t pad1; double dv;
  int32_t sv, cv; uint8_t bv, pad2[7];
  int32_t ivb; int32_t pad3; int64_t lvb; float fvb; int32_t pad4; double dvb;
  int32_t svb, cvb; uint8_t bvb, pad5[7];
  seq ia, la, fa, da, sa, ca, ba;
  tstr s;
} sample;
typedef struct {
  tstr uri, title, format, copyright;
  int32_t width, height;
  int64_t duration, size;
  int32_t bitrate; uint8_t has_bitrate, pad[3];
  seq persons;
  uint32_t player, pad2;
} media;
typedef struct { tstr uri, title; int32_t width, height; uint32_t size, pad; } image;
typedef struct { const media *media; seq images; } content;

static uint8_t arena[1 << 16] __attribute__((aligned(8)));

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}
static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int timing = argc > 1 && !strcmp(argv[1], "time");
  ctx = wire_ctx_new();
  ck(wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, 1), "option");
  ck(wire_ctx_set_option(ctx, WIRE_OPT_TRUSTED_TEXT, 1), "option");
  ck(wire_schema_load_fdl_file(ctx, BENCH_SCHEMA_DIR "/bench.fdl"), "schema");
  ck(wire_schema_finish(ctx), "finish");

  uint32_t ln = layout(type_of("bench.NumericStruct"), sizeof(numeric));
  for (uint32_t i = 0; i < 12; i++) field(ln, i, WIRE_MEM_I32, 4 * i, NONE);

  wire_ctx *kctx = ctx, *gctx = wire_ctx_new();
  ck(wire_ctx_set_option(gctx, WIRE_OPT_TRUSTED_TEXT, 1), "option");
  uint32_t ls = layout(type_of("bench.Sample"), sizeof(sample)), ks = ls, lg = NONE;
  for (int g = 0; g < 2; g++) {
    if (g) {
      ctx = gctx;
      ck(wire_schema_load_fdl(ctx, go_fdl, strlen(go_fdl), "go.fdl"), "go schema");
      ck(wire_schema_finish(ctx), "finish");
      ls = lg = layout(type_of("gobench.Sample"), sizeof(sample));
    }
    static const uint32_t forms[14] = {
        WIRE_MEM_I32, WIRE_MEM_I64, WIRE_MEM_F32, WIRE_MEM_F64, WIRE_MEM_I32,
        WIRE_MEM_I32, WIRE_MEM_BOOL, WIRE_MEM_I32, WIRE_MEM_I64, WIRE_MEM_F32,
        WIRE_MEM_F64, WIRE_MEM_I32, WIRE_MEM_I32, WIRE_MEM_BOOL};
    static const uint32_t offs[14] = {
        offsetof(sample, iv), offsetof(sample, lv), offsetof(sample, fv),
        offsetof(sample, dv), offsetof(sample, sv), offsetof(sample, cv),
        offsetof(sample, bv), offsetof(sample, ivb), offsetof(sample, lvb),
        offsetof(sample, fvb), offsetof(sample, dvb), offsetof(sample, svb),
        offsetof(sample, cvb), offsetof(sample, bvb)};
    for (uint32_t i = 0; i < 14; i++) field(ls, i, forms[i], offs[i], NONE);
    for (uint32_t i = 0; i < 7; i++)
      field(ls, 14 + i, WIRE_MEM_ARRAY, offsetof(sample, ia) + 16 * i, NONE);
    field(ls, 21, STR, offsetof(sample, s), NONE);
    if (g) ls = ks, ctx = kctx;
  }

  uint32_t li = layout(type_of("bench.Image"), sizeof(image));
  field(li, 0, STR, offsetof(image, uri), NONE);
  field(li, 1, STR, offsetof(image, title), NONE);
  field(li, 2, WIRE_MEM_I32, offsetof(image, width), NONE);
  field(li, 3, WIRE_MEM_I32, offsetof(image, height), NONE);
  field(li, 4, WIRE_MEM_ENUM, offsetof(image, size), NONE);
  uint32_t lm = layout(type_of("bench.Media"), sizeof(media));
  uint32_t lp = layout(WIRE_MEM_ELEMENT, sizeof(tstr));
  field(lp, 0, STR, 0, NONE);
  field(lm, 0, STR, offsetof(media, uri), NONE);
  field(lm, 1, STR, offsetof(media, title), NONE);
  field(lm, 2, WIRE_MEM_I32, offsetof(media, width), NONE);
  field(lm, 3, WIRE_MEM_I32, offsetof(media, height), NONE);
  field(lm, 4, STR, offsetof(media, format), NONE);
  field(lm, 5, WIRE_MEM_I64, offsetof(media, duration), NONE);
  field(lm, 6, WIRE_MEM_I64, offsetof(media, size), NONE);
  field(lm, 7, WIRE_MEM_I32, offsetof(media, bitrate), NONE);
  field(lm, 8, WIRE_MEM_BOOL, offsetof(media, has_bitrate), NONE);
  field(lm, 9, WIRE_MEM_LIST, offsetof(media, persons), lp);
  field(lm, 10, WIRE_MEM_ENUM, offsetof(media, player), NONE);
  field(lm, 11, STR, offsetof(media, copyright), NONE);
  uint32_t lc = layout(type_of("bench.MediaContent"), sizeof(content));
  uint32_t lit = layout(WIRE_MEM_ELEMENT, 8);
  field(lit, 0, WIRE_MEM_STRUCT_PTR, 0, li);
  field(lc, 0, WIRE_MEM_STRUCT_PTR, offsetof(content, media), lm);
  field(lc, 1, WIRE_MEM_LIST, offsetof(content, images), lit);

  /* the values (BenchModel.kt's) */
  numeric nv = {{-12345, 987654321, -31415, 27182818, -32000, 1000000,
                 -999999999, 42, 123456789, -42, 31415926, -27182818}};
  static const int32_t ia[9] = {-1234, -123, -12, -1, 0, 1, 12, 123, 1234};
  static const int64_t la[9] = {-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400};
  static const float fa[9] = {-12.34f, -12.3f, -12.0f, -1.0f, 0.0f, 1.0f, 12.0f, 12.3f, 12.34f};
  static const double da[9] = {-1.234, -1.23, -12.0, -1.0, 0.0, 1.0, 12.0, 1.23, 1.234};
  static const int32_t ca[8] = {'a', 's', 'd', 'f', 'A', 'S', 'D', 'F'};
  static const uint8_t ba[4] = {1, 0, 0, 1};
  sample sv;
  memset(&sv, 0, sizeof sv);
  sv.iv = 123; sv.lv = 1230000; sv.fv = 12.345f; sv.dv = 1.234567; sv.sv = 12345;
  sv.cv = '!'; sv.bv = 1; sv.ivb = 321; sv.lvb = 3210000; sv.fvb = 54.321f;
  sv.dvb = 7.654321; sv.svb = 32100; sv.cvb = '$'; sv.bvb = 0;
  sv.ia = (seq){ia, 9, 0}; sv.la = (seq){la, 9, 0}; sv.fa = (seq){fa, 9, 0};
  sv.da = (seq){da, 9, 0}; sv.sa = (seq){ia, 9, 0}; sv.ca = (seq){ca, 8, 0};
  sv.ba = (seq){ba, 4, 0};
  sv.s = latin1("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
  static tstr persons[2];
  persons[0] = latin1("Bill Gates, Jr.");
  persons[1] = latin1("Steven Jobs");
  media mv;
  memset(&mv, 0, sizeof mv);
  mv.uri = latin1("http://javaone.com/keynote.ogg");
  mv.title = latin1("");
  mv.width = 641; mv.height = 481;
  mv.format = utf16("video/theora");
  mv.duration = 18000001; mv.size = 58982401; mv.bitrate = 0; mv.has_bitrate = 0;
  mv.persons = (seq){persons, 2, 0};
  mv.player = 1;
  mv.copyright = latin1("Copyright (c) 2009, Scooby Dooby Doo");
  static image im[3];
  im[0] = (image){latin1("http://javaone.com/keynote_huge.jpg"), utf16("Javaone Keynote"), 32000, 24000, 1, 0};
  im[1] = (image){latin1("http://javaone.com/keynote_large.jpg"), latin1(""), 1024, 768, 1, 0};
  im[2] = (image){latin1("http://javaone.com/keynote_small.jpg"), latin1(""), 320, 240, 0, 0};
  static const image *imp[3] = {&im[0], &im[1], &im[2]};
  content cv = {&mv, {imp, 3, 0}};

  struct { const char *name; uint32_t l; const void *v; size_t size; int flat; wire_ctx *c; } w[4] = {
      {"NumericStruct", ln, &nv, sizeof nv, 1, kctx},
      {"Sample", ls, &sv, sizeof sv, 0, kctx},
      {"MediaContent", lc, &cv, sizeof cv, 0, kctx},
      {"GoSample", lg, &sv, sizeof sv, 0, gctx}};
  uint8_t *buf[4];
  size_t len[4];
  for (int k = 0; k < 4; k++) {
    const uint8_t *p;
    ck(wire_mem_encode(w[k].c, w[k].l, w[k].v, &p, &len[k]), "encode");
    buf[k] = malloc(len[k]);
    memcpy(buf[k], p, len[k]);
  }
  uint64_t bases[2];
  /* one decode as the binding makes it */
#define DECODE(k)                                                            \
  (w[k].flat ? wire_mem_decode(w[k].c, w[k].l, buf[k], len[k], arena, NULL, 0, \
                               NULL, 0)                                      \
             : (used = w[k].size,                                            \
                wire_mem_decode_bases(w[k].c, w[k].l, buf[k], len[k], arena,    \
                                      arena, sizeof arena, &used,      \
                                      WIRE_MEM_ARRAYS_IN_PLACE, bases)))
  size_t used = 0;
  const uint8_t *eout;
  size_t elen;
  /* one encode (its bytes equal to the first's: checked below) */
#define ENCODE(k) wire_mem_encode(w[k].c, w[k].l, w[k].v, &eout, &elen)
  for (int k = 0; k < 4; k++) {
    ctx = w[k].c;
    ck(ENCODE(k), "encode");
    if (elen != len[k] || memcmp(eout, buf[k], elen)) {
      fprintf(stderr, "encode: other bytes\n");
      return 1;
    }
    ck(DECODE(k), "decode");
    if (k == 0 && memcmp(arena, &nv, sizeof nv)) { fprintf(stderr, "bad numeric\n"); return 1; }
    if ((k == 1 || k == 3) &&
        (((sample *)arena)->lvb != 3210000 || ((sample *)arena)->da.n != 9 ||
         memcmp(((sample *)arena)->la.p, la, sizeof la) ||
         memcmp(((sample *)arena)->ia.p, ia, sizeof ia) ||
         memcmp(((sample *)arena)->fa.p, fa, sizeof fa) ||
         memcmp(((sample *)arena)->ba.p, ba, sizeof ba))) {
      fprintf(stderr, "bad sample\n");
      return 1;
    }
    if (k == 2 && (((content *)arena)->images.n != 3 ||
                   ((const media *)((content *)arena)->media)->duration != 18000001)) {
      fprintf(stderr, "bad media\n"); return 1;
    }
    if (!timing) printf("%s: bytes %zu arena %zu\n", w[k].name, len[k], w[k].flat ? w[k].size : used);
  }
  if (timing) {
    for (int k = 0; k < 4; k++) {
      double t[31];
      int reps = 20000;
      for (int b = 0; b < 31; b++) {
        double t0 = now_ns();
        for (int i = 0; i < reps; i++) DECODE(k);
        t[b] = (now_ns() - t0) / reps;
      }
      qsort(t, 31, sizeof t[0], cmp_d);
      printf("TIME mem %s de ns=%.1f (min %.1f)\n", w[k].name, t[15], t[0]);
    }
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "one")) {
    /* 10,000 decodes of workload argv[2] (0-3) under instrumentation, for
     * callgrind_annotate */
    int k = atoi(argv[2]) % 4;
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < 10000; i++) DECODE(k);
    CALLGRIND_STOP_INSTRUMENTATION;
    return 0;
  }
  if (argc > 2 && !strcmp(argv[1], "one-en")) {
    /* 10,000 encodes of workload argv[2] (0-3), as one-decodes */
    int k = atoi(argv[2]) % 4;
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < 10000; i++) ENCODE(k);
    CALLGRIND_STOP_INSTRUMENTATION;
    return 0;
  }
  CALLGRIND_START_INSTRUMENTATION;
  for (int k = 0; k < 4; k++) {
    static const int loops[2] = {2, 200};
    for (int j = 0; j < 2; j++) {
      char dump[64];
      snprintf(dump, sizeof dump, "%s de %d", w[k].name, loops[j]);
      CALLGRIND_ZERO_STATS;
      for (int i = 0; i < loops[j]; i++) DECODE(k);
      CALLGRIND_DUMP_STATS_AT(dump);
    }
  }
  /* the encodes (wire_mem_encode of the same values; GoSample: Go's
   * context) */
  for (int k = 0; k < 4; k++) {
    static const int loops[2] = {2, 200};
    for (int j = 0; j < 2; j++) {
      char dump[64];
      snprintf(dump, sizeof dump, "%s en %d", w[k].name, loops[j]);
      CALLGRIND_ZERO_STATS;
      for (int i = 0; i < loops[j]; i++) ENCODE(k);
      CALLGRIND_DUMP_STATS_AT(dump);
    }
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  return 0;
}
