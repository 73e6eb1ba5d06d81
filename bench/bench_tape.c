/* bench_tape.c - the tape codec under callgrind (make bench-tape).
 *
 *   bench_tape N1 N2 [WORKLOAD]
 *
 * For each dynamic workload of the binding issues (list_mixed_1000,
 * map_str_i64_10000, i64_array_100000, binary_1MiB, strings_10000; the
 * tapes a binding would build, strings handed as UTF-8 for the writer's
 * choice as the bindings do today, and "given" variants whose strings come
 * in the host's own encoding, as given and trusted, and "jvm" variants
 * whose strings come as a JVM holds them, for the Java choice (encodings
 * 0x80 / 0x81, what the Kotlin binding writes)), it measures
 *   enc_doc  the document path: wire_doc_add_tape + wire_encode (the tape
 *            codec before the direct one; with -DTAPE_BASE: the library's
 *            wire_encode_tape, for a build of the older library)
 *   enc      wire_encode_tape_to into a writer reused per context
 *   enc_new  wire_encode_tape (a new buffer per call)
 *   dec_doc  wire_decode + the document walk (-DTAPE_BASE: wire_decode_tape)
 *   dec      wire_decode_tape_to into a reused writer
 *   dec_span wire_decode_tape_to with WIRE_TAPE_SPANS (binaries and arrays
 *            named by offset in the payload, not copied)
 * Each op: a warm-up call, then loops of N1 and N2 calls, each bracketed by
 * CALLGRIND_ZERO_STATS / CALLGRIND_DUMP_STATS_AT("<workload> <op> <n>");
 * tape_report.py prints Ir/op = (Ir(N2) - Ir(N1)) / (N2 - N1). Before
 * measuring, it checks that both paths give the same bytes and tapes. */
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include "xorshift.h"

#ifndef TAPE_BASE
/* The document path of the library (tape.c), kept as the reference. */
int32_t wire__tape_encode_doc(wire_ctx *ctx, const uint8_t *tape, size_t len,
                              uint8_t **out, size_t *out_len);
int32_t wire__tape_decode_doc(wire_ctx *ctx, const uint8_t *data, size_t len,
                              uint32_t flags, uint8_t **tape,
                              size_t *tape_len);
#endif

static void die(wire_ctx *ctx, const char *what) {
  fprintf(stderr, "bench_tape: %s failed: %s\n", what,
          ctx ? wire_ctx_error_message(ctx) : "?");
  exit(1);
}

typedef struct {
  uint8_t *p;
  size_t n, cap;
} buf;

static void put(buf *b, const void *p, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) die(NULL, "realloc");
  }
  memcpy(b->p + b->n, p, n);
  b->n += n;
}
static void p8(buf *b, uint8_t v) { put(b, &v, 1); }
static void p32(buf *b, uint32_t v) { put(b, &v, 4); }
static void p64(buf *b, uint64_t v) { put(b, &v, 8); }
static void header(buf *b) { put(b, "WT\x01\x00\x01\x00\x00\x00", 8); }

/* A string op: UTF-8 text for the writer's choice (0xFF), or, `given`
 * (2: with the Java choice flag, 0x80 / 0x81),
 * the text in the encoding a JVM or CPython host holds it in (Latin-1 when
 * every character fits, else UTF-16), written as given. */
static void string(buf *b, const char *utf8, int given) {
  size_t n = strlen(utf8);
  if (!given) {
    p8(b, 0x15);
    p8(b, 0xFF);
    p32(b, (uint32_t)n);
    put(b, utf8, n);
    return;
  }
  uint8_t tmp[256];
  size_t k = 0;
  int latin1 = 1;
  for (size_t i = 0; i < n;) { /* decode UTF-8 (valid, BMP) */
    uint8_t c = (uint8_t)utf8[i];
    uint32_t cp = c < 0x80 ? c : c < 0xE0 ? (uint32_t)(c & 0x1F) << 6 | (utf8[i + 1] & 0x3F)
                          : (uint32_t)(c & 0x0F) << 12 | (uint32_t)(utf8[i + 1] & 0x3F) << 6 |
                                (utf8[i + 2] & 0x3F);
    i += c < 0x80 ? 1 : c < 0xE0 ? 2 : 3;
    if (cp > 0xFF) latin1 = 0;
    tmp[k++] = (uint8_t)cp;
    tmp[k++] = (uint8_t)(cp >> 8);
  }
  p8(b, 0x15);
  if (latin1) {
    p8(b, given == 2 ? 0x80 : 0); /* Latin-1 (2: for the Java choice, as a JVM hands it) */
    p32(b, (uint32_t)(k / 2));
    for (size_t i = 0; i < k; i += 2) p8(b, tmp[i]);
  } else {
    p8(b, given == 2 ? 0x81 : 1); /* UTF-16 */
    p32(b, (uint32_t)k);
    put(b, tmp, k);
  }
}

static const char *const cjk[] = {"数据", "字符串", "编码器", "解码",
                                  "测试值", "列表", "映射表", "序列化"};
static const char *const words[] = {"alpha", "beta", "gamma", "delta",
                                    "caf\xc3\xa9", "na\xc3\xafve", "id",
                                    "value"};

/* 1,000 mixed values: varint64 (3/8), float64, bool, Latin-1 strings (2/8),
 * CJK strings (1/8) - bench/bench_wire.c's list. */
static void list_mixed(buf *b, int given) {
  header(b);
  p8(b, 0x16);
  p32(b, 1000);
  for (int i = 0; i < 1000; i++) {
    char s[32];
    switch (i % 8) {
    case 0: case 1: case 7: p8(b, 7); p64(b, (uint64_t)spread_int()); break;
    case 2: {
      double d = (double)(int64_t)rng() / 1048576.0;
      uint64_t u;
      memcpy(&u, &d, 8);
      p8(b, 20);
      p64(b, u);
      break;
    }
    case 3: p8(b, 1); p8(b, (uint8_t)(rng() & 1)); break;
    case 4: case 5:
      snprintf(s, sizeof s, "%s-%d", words[rng() % 8], i);
      string(b, s, given);
      break;
    default:
      snprintf(s, sizeof s, "%s%s", cjk[rng() % 8], cjk[rng() % 8]);
      string(b, s, given);
    }
  }
}

static void map_str_i64(buf *b, int given) {
  header(b);
  p8(b, 0x18);
  p32(b, 10000);
  for (int i = 0; i < 10000; i++) {
    char k[16];
    snprintf(k, sizeof k, "key%05d", i);
    string(b, k, given);
    p8(b, 7);
    p64(b, (uint64_t)spread_int());
  }
}

static void i64_array(buf *b, int given) {
  (void)given;
  header(b);
  p8(b, 47); /* int64_array */
  p32(b, 800000);
  for (int i = 0; i < 100000; i++) p64(b, (uint64_t)spread_int());
}

static void binary(buf *b, int given) {
  (void)given;
  header(b);
  p8(b, 41);
  p32(b, 1 << 20);
  for (int i = 0; i < (1 << 20) / 8; i++) p64(b, rng());
}

static void strings(buf *b, int given) {
  header(b);
  p8(b, 0x16);
  p32(b, 10000);
  for (int i = 0; i < 10000; i++) {
    char s[32];
    snprintf(s, sizeof s, "%s %05d", words[rng() % 8], i);
    string(b, s, given);
  }
}

typedef void (*maker)(buf *, int);

#ifndef TAPE_BASE
static wire_writer *W;
#endif

static void op_once(wire_ctx *ctx, int op, const uint8_t *tape, size_t tl,
                    const uint8_t *bytes, size_t bl) {
  uint8_t *out;
  size_t n;
  switch (op) {
  case 0:
#ifdef TAPE_BASE
    if (wire_encode_tape(ctx, tape, tl, &out, &n)) die(ctx, "encode (base)");
#else
    if (wire__tape_encode_doc(ctx, tape, tl, &out, &n)) die(ctx, "encode (doc)");
#endif
    wire_ctx_free_bytes(ctx, out);
    break;
#ifndef TAPE_BASE
  case 1:
    wire_writer_reset(W);
    if (wire_encode_tape_to(ctx, tape, tl, W)) die(ctx, "wire_encode_tape_to");
    break;
  case 2:
    if (wire_encode_tape(ctx, tape, tl, &out, &n)) die(ctx, "wire_encode_tape");
    wire_ctx_free_bytes(ctx, out);
    break;
#endif
  case 3:
#ifdef TAPE_BASE
    if (wire_decode_tape(ctx, bytes, bl, &out, &n)) die(ctx, "decode (base)");
#else
    if (wire__tape_decode_doc(ctx, bytes, bl, 0, &out, &n)) die(ctx, "decode (doc)");
#endif
    wire_ctx_free_bytes(ctx, out);
    break;
#ifndef TAPE_BASE
  case 4:
    wire_writer_reset(W);
    if (wire_decode_tape_to(ctx, bytes, bl, 0, W)) die(ctx, "wire_decode_tape_to");
    break;
  case 5:
    wire_writer_reset(W);
    if (wire_decode_tape_to(ctx, bytes, bl, WIRE_TAPE_SPANS, W))
      die(ctx, "wire_decode_tape_to (spans)");
    break;
#endif
  default: break;
  }
}

static void measure(const char *label, long n, wire_ctx *ctx, int op,
                    const uint8_t *tape, size_t tl, const uint8_t *bytes,
                    size_t bl) {
  char name[128];
  snprintf(name, sizeof name, "%s %ld", label, n);
  CALLGRIND_ZERO_STATS;
  for (long i = 0; i < n; i++) op_once(ctx, op, tape, tl, bytes, bl);
  CALLGRIND_DUMP_STATS_AT(name);
}

static const char *only; /* argv[3]: one workload */

static void workload(const char *name, maker make, int given, long n1,
                     long n2) {
  if (only && strcmp(only, name) != 0) return;
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) die(NULL, "wire_ctx_new");
#ifndef TAPE_BASE
  if (given) wire_ctx_set_option(ctx, 4 /* WIRE_OPT_TRUSTED_TEXT */, 1);
  W = wire_writer_new(ctx, NULL, 0);
#endif
  buf t = {NULL, 0, 0};
  make(&t, given);
  uint8_t *bytes;
  size_t bl;
  if (wire_encode_tape(ctx, t.p, t.n, &bytes, &bl)) die(ctx, "wire_encode_tape");
#ifndef TAPE_BASE
  /* the two paths agree */
  uint8_t *b2, *t1, *t2;
  size_t n2b, n1t, n2t;
  if (wire__tape_encode_doc(ctx, t.p, t.n, &b2, &n2b)) die(ctx, "doc encode");
  if (n2b != bl || memcmp(b2, bytes, bl)) die(NULL, "encode paths differ");
  if (wire_decode_tape(ctx, bytes, bl, &t1, &n1t)) die(ctx, "wire_decode_tape");
  if (wire__tape_decode_doc(ctx, bytes, bl, 0, &t2, &n2t)) die(ctx, "doc decode");
  if (n1t != n2t || memcmp(t1, t2, n1t)) die(NULL, "decode paths differ");
  wire_ctx_free_bytes(ctx, b2);
  wire_ctx_free_bytes(ctx, t1);
  wire_ctx_free_bytes(ctx, t2);
#endif
  printf("%s: tape %zu bytes, payload %zu bytes\n", name, t.n, bl);
  static const char *const ops[] = {"enc_doc", "enc", "enc_new", "dec_doc",
                                     "dec", "dec_span"};
  for (int op = 0; op < 6; op++) {
#ifdef TAPE_BASE
    if (op != 0 && op != 3) continue;
#endif
    char label[96];
    snprintf(label, sizeof label, "%s %s", name, ops[op]);
    measure("warmup", 1, ctx, op, t.p, t.n, bytes, bl);
    measure(label, n1, ctx, op, t.p, t.n, bytes, bl);
    measure(label, n2, ctx, op, t.p, t.n, bytes, bl);
  }
  wire_ctx_free_bytes(ctx, bytes);
#ifndef TAPE_BASE
  wire_writer_free(W);
#endif
  free(t.p);
  wire_ctx_free(ctx);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_tape N1 N2\n");
    return 2;
  }
  long n1 = strtol(argv[1], NULL, 10), n2 = strtol(argv[2], NULL, 10);
  if (n1 < 1 || n2 <= n1) return 2;
  only = argc > 3 ? argv[3] : NULL;
  CALLGRIND_START_INSTRUMENTATION;
  workload("list_mixed_1000", list_mixed, 0, n1, n2);
  workload("map_str_i64_10000", map_str_i64, 0, n1, n2);
  workload("i64_array_100000", i64_array, 0, n1, n2);
  workload("binary_1MiB", binary, 0, n1, n2);
  workload("strings_10000", strings, 0, n1, n2);
  workload("list_mixed_1000_given", list_mixed, 1, n1, n2);
  workload("map_str_i64_10000_given", map_str_i64, 1, n1, n2);
  workload("strings_10000_given", strings, 1, n1, n2);
  workload("list_mixed_1000_jvm", list_mixed, 2, n1, n2);
  workload("strings_10000_jvm", strings, 2, n1, n2);
  CALLGRIND_STOP_INSTRUMENTATION;
  return 0;
}
