/* bench_wire.c - libwire instruction-count benchmark (run under callgrind).
 *
 *   bench_wire N1 N2 [OUTDIR]
 *
 * For each workload it builds the document with the builder API, encodes it
 * once, checks that decode + encode reproduces the bytes, and writes the
 * payload to OUTDIR/<workload>.bin (the pyfory side decodes that file, so
 * both runtimes work on the same values). Then, for each operation, it runs
 * a warm-up call and two measured loops of N1 and N2 calls. Each loop is
 * bracketed by CALLGRIND_ZERO_STATS / CALLGRIND_DUMP_STATS_AT("<label> <n>"),
 * so every loop becomes one callgrind dump; bench/report.py derives
 *   Ir per operation = (Ir(N2 loop) - Ir(N1 loop)) / (N2 - N1),
 * which cancels the constant cost of the client requests and the loop set-up.
 * Run with --instr-atstart=no: instrumentation starts right before the first
 * measured loop, so program start-up is never counted anyway.
 *
 * Outside valgrind the client requests are no-ops and the program just runs.
 */
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <valgrind/callgrind.h>

#include "xorshift.h"

#define LIST_LEN 1000
#define MAP_LEN 10000

static void die(wire_ctx *ctx, const char *what) {
  fprintf(stderr, "bench_wire: %s failed: %s\n", what,
          ctx ? wire_ctx_error_message(ctx) : "?");
  exit(1);
}

static wire_node *must(wire_ctx *ctx, wire_node *n, const char *what) {
  if (!n) die(ctx, what);
  return n;
}

/* The values are generated once (deterministic PRNG) so that the "build"
 * measurement covers the builder API only, not the value generation. */
typedef struct {
  int kind; /* 0 varint64, 1 float64, 2 bool, 3 string */
  int64_t i;
  double f;
  char s[32];
  size_t slen;
} value;

static value list_vals[LIST_LEN];
static value map_keys[MAP_LEN];
static int64_t map_vals[MAP_LEN];

static void make_values(void) {
  static const char *const cjk[] = {"数据", "字符串", "编码器", "解码",
                                    "测试值", "列表", "映射表", "序列化"};
  static const char *const words[] = {"alpha", "beta", "gamma", "delta",
                                      "caf\xc3\xa9", "na\xc3\xafve", "id",
                                      "value"};
  for (int i = 0; i < LIST_LEN; i++) {
    value *v = &list_vals[i];
    int n = 0;
    switch (i % 8) {
    case 0: case 1: case 7: /* varint64 of every length */
      v->kind = 0;
      v->i = spread_int();
      break;
    case 2:
      v->kind = 1;
      v->f = (double)(int64_t)rng() / 1048576.0;
      break;
    case 3:
      v->kind = 2;
      v->i = (int64_t)(rng() & 1);
      break;
    case 4: case 5: /* short Latin-1 */
      v->kind = 3;
      n = snprintf(v->s, sizeof v->s, "%s-%d", words[rng() % 8], i);
      break;
    default: /* 6: UTF-16 (CJK only, so the Java policy picks UTF-16) */
      v->kind = 3;
      n = snprintf(v->s, sizeof v->s, "%s%s", cjk[rng() % 8], cjk[rng() % 8]);
      break;
    }
    v->slen = (size_t)n;
  }
  for (int i = 0; i < MAP_LEN; i++) {
    map_keys[i].slen =
        (size_t)snprintf(map_keys[i].s, sizeof map_keys[i].s, "key%05d", i);
    map_vals[i] = spread_int();
  }
}

/* (a) a list of 1,000 mixed scalars and strings. */
static wire_doc *build_list(wire_ctx *ctx) {
  wire_doc *doc = wire_doc_new(ctx);
  if (!doc) die(ctx, "wire_doc_new");
  wire_node *list = must(ctx, wire_node_new_list(doc, WIRE_T_LIST), "list");
  for (int i = 0; i < LIST_LEN; i++) {
    const value *v = &list_vals[i];
    wire_node *e;
    switch (v->kind) {
    case 0: e = wire_node_new_int(doc, WIRE_T_VARINT64, v->i); break;
    case 1: e = wire_node_new_float(doc, WIRE_T_FLOAT64, v->f); break;
    case 2: e = wire_node_new_bool(doc, (int32_t)v->i); break;
    default:
      e = wire_node_new_string(doc, (const uint8_t *)v->s, v->slen, -1);
      break;
    }
    must(ctx, e, "element");
    if (wire_list_append(doc, list, e) != WIRE_OK) die(ctx, "append");
  }
  if (wire_doc_add_root(doc, list) != WIRE_OK) die(ctx, "add_root");
  return doc;
}

/* (b) a map<string, varint64> of 10,000 entries. */
static wire_doc *build_map(wire_ctx *ctx) {
  wire_doc *doc = wire_doc_new(ctx);
  if (!doc) die(ctx, "wire_doc_new");
  wire_node *map = must(ctx, wire_node_new_map(doc), "map");
  for (int i = 0; i < MAP_LEN; i++) {
    wire_node *k = must(ctx, wire_node_new_string(
                                 doc, (const uint8_t *)map_keys[i].s,
                                 map_keys[i].slen, -1), "key");
    wire_node *v = must(ctx, wire_node_new_int(doc, WIRE_T_VARINT64,
                                               map_vals[i]), "value");
    if (wire_map_put(doc, map, k, v) != WIRE_OK) die(ctx, "map_put");
  }
  if (wire_doc_add_root(doc, map) != WIRE_OK) die(ctx, "add_root");
  return doc;
}

static void encode_once(wire_ctx *ctx, wire_doc *doc) {
  uint8_t *out;
  size_t len;
  if (wire_encode(ctx, doc, &out, &len) != WIRE_OK) die(ctx, "wire_encode");
  wire_ctx_free_bytes(ctx, out);
}

static void decode_once(wire_ctx *ctx, const uint8_t *p, size_t len) {
  wire_doc *doc;
  if (wire_decode(ctx, p, len, &doc) != WIRE_OK) die(ctx, "wire_decode");
  wire_doc_free(doc);
}

typedef wire_doc *(*builder)(wire_ctx *);

static void measure(const char *label, long n, wire_ctx *ctx, wire_doc *doc,
                    const uint8_t *p, size_t len, builder build, int op) {
  char name[96];
  snprintf(name, sizeof name, "%s %ld", label, n);
  CALLGRIND_ZERO_STATS;
  for (long i = 0; i < n; i++) {
    if (op == 0) {
      wire_doc_free(build(ctx));
    } else if (op == 1) {
      encode_once(ctx, doc);
    } else {
      decode_once(ctx, p, len);
    }
  }
  CALLGRIND_DUMP_STATS_AT(name);
}

static void workload(const char *name, builder build, long n1, long n2,
                     const char *outdir) {
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) die(NULL, "wire_ctx_new");
  wire_doc *doc = build(ctx);
  uint8_t *bytes;
  size_t len;
  if (wire_encode(ctx, doc, &bytes, &len) != WIRE_OK) die(ctx, "wire_encode");

  /* Lossless check: decode + encode reproduces the payload. */
  wire_doc *back;
  uint8_t *again;
  size_t again_len;
  if (wire_decode(ctx, bytes, len, &back) != WIRE_OK) die(ctx, "wire_decode");
  if (wire_encode(ctx, back, &again, &again_len) != WIRE_OK)
    die(ctx, "re-encode");
  if (again_len != len || memcmp(again, bytes, len) != 0) {
    fprintf(stderr, "bench_wire: %s: decode+encode changed the bytes\n",
            name);
    exit(1);
  }
  wire_ctx_free_bytes(ctx, again);
  wire_doc_free(back);

  if (outdir) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", outdir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
      fprintf(stderr, "bench_wire: cannot write %s\n", path);
      exit(1);
    }
  }
  printf("%s: %zu bytes\n", name, len);

  static const char *const ops[] = {"build", "encode", "decode"};
  for (int op = 0; op < 3; op++) {
    char label[64];
    snprintf(label, sizeof label, "%s %s", name, ops[op]);
    /* Warm-up: grows the context's scratch and the allocator's pools. */
    measure("warmup", 1, ctx, doc, bytes, len, build, op);
    measure(label, n1, ctx, doc, bytes, len, build, op);
    measure(label, n2, ctx, doc, bytes, len, build, op);
  }
  wire_ctx_free_bytes(ctx, bytes);
  wire_doc_free(doc);
  wire_ctx_free(ctx);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_wire N1 N2 [OUTDIR]\n");
    return 2;
  }
  long n1 = strtol(argv[1], NULL, 10), n2 = strtol(argv[2], NULL, 10);
  if (n1 < 1 || n2 <= n1) {
    fprintf(stderr, "bench_wire: need 1 <= N1 < N2\n");
    return 2;
  }
  const char *outdir = argc > 3 ? argv[3] : NULL;
  make_values();
  CALLGRIND_START_INSTRUMENTATION;
  workload("list", build_list, n1, n2, outdir);
  workload("map", build_map, n1, n2, outdir);
  CALLGRIND_STOP_INSTRUMENTATION;
  return 0;
}
