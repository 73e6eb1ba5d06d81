/* bench_c.c - the C side of the benchmark of Fory's six workloads: every
 * implementation of impls.c in one process (bench/README.md).
 *
 *   bench_c check PAYLOADS [OUTDIR]   byte and value checks, no timing
 *   bench_c callgrind N1 N2 PAYLOADS  instruction counts (under callgrind)
 *   bench_c ns ROUNDS PAYLOADS        thread-CPU time, batches interleaved
 *
 * PAYLOADS holds rust/<Workload>.bin and java/<Workload>.bin, the bytes of
 * Fory Rust 1.7.7 and Fory Java 1.6.0 (bench/payloads/, made by
 * bench/payloads.sh). `check` verifies, for every implementation, that
 * decoding its own bytes gives the reference values, and for those of
 * Fory's format (BENCH_FORY_BYTES) that its bytes equal Fory Rust's byte
 * for byte, that it reads Fory Rust's and Fory Java's bytes to the
 * reference values, and that its mismatch read (V2 types) of both sees the
 * widened fields. Any failure exits with status 1. `callgrind` and `ns`
 * run the same checks first (quietly).
 *
 * callgrind: for each workload and operation one warm-up call, then loops
 * of N1 and N2 calls, each bracketed by CALLGRIND_ZERO_STATS /
 * CALLGRIND_DUMP_STATS_AT("<Workload> <ser|de> <impl> <n>"); report.py
 * takes (Ir(N2) - Ir(N1)) / (N2 - N1). Run with --instr-atstart=no.
 * ns: batches of about 1 ms of one operation; round after round every
 * operation of every implementation of the workload runs one batch; the
 * median batch gives ns per operation.
 *
 * BENCH_ONLY="<text>" (environment) keeps only the operations whose label
 * ("MediaContent ser libwire-gen") contains the text: for profiling one
 * operation under callgrind or perf. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <valgrind/callgrind.h>

#include "impl.h"

#define MAX_IMPLS 16
#define ARENA_CAP (1u << 20)

typedef struct {
  uint8_t *p;
  size_t len;
} blob;

static blob rust_bytes[W_COUNT], java_bytes[W_COUNT];
static blob own_bytes[MAX_IMPLS][W_COUNT];
static void *states[MAX_IMPLS];
static size_t n_impls;

static void die(const char *msg) {
  fprintf(stderr, "bench_c: %s\n", msg);
  exit(1);
}

static blob read_file(const char *dir, const char *sub, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s/%s.bin", dir, sub, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "bench_c: cannot read %s (make bench-payloads writes "
                    "it)\n", path);
    exit(1);
  }
  blob b = {NULL, 0};
  size_t cap = 0;
  for (;;) {
    if (b.len == cap) {
      cap = cap ? 2 * cap : 4096;
      b.p = realloc(b.p, cap);
      if (!b.p) die("out of memory");
    }
    size_t n = fread(b.p + b.len, 1, cap - b.len, f);
    if (n == 0) break;
    b.len += n;
  }
  fclose(f);
  return b;
}

static void write_file(const char *dir, const char *impl, const char *name,
                       const uint8_t *p, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s-%s.bin", dir, impl, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "bench_c: cannot write %s\n", path);
    exit(1);
  }
}

static uint64_t thread_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Decodes `b` with impl i into a model value and compares. */
static int value_check(size_t i, int w, const uint8_t *p, size_t len,
                       bench_arena *arena, const char *whose, int verbose) {
  const bench_impl *im = bench_impls[i];
  bench_any_value value;
  bench_arena_reset(arena);
  if (im->decode_value(states[i], w, p, len, arena, &value)) {
    fprintf(stderr, "bench_c: %s cannot read %s's %s bytes\n", im->name,
            whose, bench_workload_name(w));
    return 1;
  }
  if (!bench_value_equal(w, &value, bench_value_of(bench_reference_values(),
                                                   w))) {
    fprintf(stderr, "bench_c: %s reads %s's %s bytes to other values\n",
            im->name, whose, bench_workload_name(w));
    return 1;
  }
  if (verbose)
    printf("READ %s %s reads %s's bytes: values ok\n", bench_workload_name(w),
           im->name, whose);
  return 0;
}

static int first_difference(const blob *a, const uint8_t *p, size_t len) {
  size_t n = a->len < len ? a->len : len;
  for (size_t k = 0; k < n; k++)
    if (a->p[k] != p[k]) return (int)k;
  return (int)n;
}

/* Initialises every implementation, encodes every workload once and runs
 * the checks. Returns the number of failures. */
static int setup_and_check(const char *payloads, const char *outdir,
                           int verbose) {
  const bench_values *ref = bench_reference_values();
  bench_arena arena;
  int failures = 0;
  if (bench_arena_init(&arena, ARENA_CAP)) die("out of memory");
  for (int w = 0; w < W_COUNT; w++) {
    rust_bytes[w] = read_file(payloads, "rust", bench_workload_name(w));
    java_bytes[w] = read_file(payloads, "java", bench_workload_name(w));
  }
  for (n_impls = 0; bench_impls[n_impls]; n_impls++) {
    size_t i = n_impls;
    const bench_impl *im = bench_impls[i];
    if (i == MAX_IMPLS) die("too many implementations");
    states[i] = im->init(ref);
    if (!states[i]) {
      fprintf(stderr, "bench_c: %s: init failed\n", im->name);
      exit(1);
    }
    for (int w = 0; w < W_COUNT; w++) {
      const char *name = bench_workload_name(w);
      const uint8_t *p;
      size_t len;
      if (im->encode(states[i], w, &p, &len)) {
        fprintf(stderr, "bench_c: %s cannot encode %s\n", im->name, name);
        exit(1);
      }
      blob *own = &own_bytes[i][w];
      own->p = malloc(len ? len : 1);
      if (!own->p) die("out of memory");
      memcpy(own->p, p, len);
      own->len = len;
      if (outdir) write_file(outdir, im->name, name, p, len);
      if (verbose) printf("SIZE %s %s %zu\n", name, im->name, len);
      failures += value_check(i, w, own->p, own->len, &arena, im->name, 0);
      if (im->decode(states[i], w, own->p, own->len)) {
        fprintf(stderr, "bench_c: %s: decode of its own %s bytes failed\n",
                im->name, name);
        failures++;
      }
      if (!(im->flags & BENCH_FORY_BYTES)) continue;
      const blob *r = &rust_bytes[w];
      if (len != r->len || memcmp(p, r->p, len) != 0) {
        fprintf(stderr,
                "bench_c: BYTES DIFFER: %s %s: %zu bytes, Fory Rust %zu; "
                "first difference at offset %d\n",
                name, im->name, len, r->len, first_difference(r, p, len));
        failures++;
      } else if (verbose) {
        printf("BYTES %s %s == fory-rust (%zu bytes)\n", name, im->name,
               len);
      }
      failures += value_check(i, w, r->p, r->len, &arena, "fory-rust",
                              verbose);
      failures += value_check(i, w, java_bytes[w].p, java_bytes[w].len,
                              &arena, "fory-java", verbose);
      if (verbose)
        printf("SIZE %s fory-java %zu (read by %s)\n", name,
               java_bytes[w].len, im->name);
      if (im->check_v2) {
        if (im->check_v2(states[i], w, r->p, r->len, ref) ||
            im->check_v2(states[i], w, java_bytes[w].p, java_bytes[w].len,
                         ref)) {
          fprintf(stderr, "bench_c: %s: mismatch read of %s failed\n",
                  im->name, name);
          failures++;
        } else if (verbose) {
          printf("READ %s %s:v2 reads fory-rust's and fory-java's bytes: "
                 "widened fields ok\n", name, im->name);
        }
      }
    }
  }
  bench_arena_fini(&arena);
  return failures;
}

/* One measured operation. */
typedef struct {
  size_t impl;
  int w;
  int op; /* 0 ser, 1 de, 2 de with the V2 reader */
} op_t;

static void run_op(const op_t *o) {
  const bench_impl *im = bench_impls[o->impl];
  void *st = states[o->impl];
  const blob *b = &own_bytes[o->impl][o->w];
  int rc;
  if (o->op == 0) {
    const uint8_t *p;
    size_t len;
    rc = im->encode(st, o->w, &p, &len);
  } else if (o->op == 1) {
    rc = im->decode(st, o->w, b->p, b->len);
  } else {
    rc = im->decode_v2(st, o->w, rust_bytes[o->w].p, rust_bytes[o->w].len);
  }
  if (rc) {
    fprintf(stderr, "bench_c: %s failed during measurement\n", im->name);
    exit(1);
  }
}

static void label_of(const op_t *o, char *buf, size_t cap) {
  const bench_impl *im = bench_impls[o->impl];
  snprintf(buf, cap, "%s %s %s%s", bench_workload_name(o->w),
           o->op == 0 ? "ser" : "de", im->name, o->op == 2 ? ":v2" : "");
}

static size_t ops_of(int w, op_t *ops) {
  size_t n = 0;
  for (size_t i = 0; i < n_impls; i++) {
    ops[n++] = (op_t){i, w, 0};
    ops[n++] = (op_t){i, w, 1};
    if (bench_impls[i]->decode_v2) ops[n++] = (op_t){i, w, 2};
  }
  const char *only = getenv("BENCH_ONLY");
  if (!only || !*only) return n;
  size_t kept = 0;
  for (size_t k = 0; k < n; k++) {
    char label[160];
    label_of(&ops[k], label, sizeof label);
    if (strstr(label, only)) ops[kept++] = ops[k];
  }
  return kept;
}

static void callgrind_loops(long n1, long n2) {
  op_t ops[3 * MAX_IMPLS];
  CALLGRIND_START_INSTRUMENTATION;
  for (int w = 0; w < W_COUNT; w++) {
    size_t n = ops_of(w, ops);
    for (size_t k = 0; k < n; k++) {
      char label[160], dump[200];
      label_of(&ops[k], label, sizeof label);
      long counts[3] = {1, n1, n2};
      for (int c = 0; c < 3; c++) {
        CALLGRIND_ZERO_STATS;
        for (long j = 0; j < counts[c]; j++) run_op(&ops[k]);
        if (c == 0) snprintf(dump, sizeof dump, "warmup 1");
        else snprintf(dump, sizeof dump, "%s %ld", label, counts[c]);
        CALLGRIND_DUMP_STATS_AT(dump);
      }
    }
  }
  CALLGRIND_STOP_INSTRUMENTATION;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void ns_rounds(int rounds) {
  op_t ops[3 * MAX_IMPLS];
  long batch[3 * MAX_IMPLS];
  double *samples = malloc(sizeof(double) * 3 * MAX_IMPLS * (size_t)rounds);
  if (!samples) die("out of memory");
  for (int w = 0; w < W_COUNT; w++) {
    size_t n = ops_of(w, ops);
    for (size_t k = 0; k < n; k++) {
      long b = 1;
      for (;;) {
        uint64_t t0 = thread_ns();
        for (long j = 0; j < b; j++) run_op(&ops[k]);
        if (thread_ns() - t0 >= 1000000u || b >= (1L << 24)) break;
        b *= 2;
      }
      batch[k] = b;
    }
    for (int r = 0; r < rounds; r++) {
      for (size_t k = 0; k < n; k++) {
        uint64_t t0 = thread_ns();
        for (long j = 0; j < batch[k]; j++) run_op(&ops[k]);
        samples[k * (size_t)rounds + (size_t)r] =
            (double)(thread_ns() - t0) / (double)batch[k];
      }
    }
    for (size_t k = 0; k < n; k++) {
      char label[160];
      double *s = samples + k * (size_t)rounds;
      qsort(s, (size_t)rounds, sizeof *s, cmp_double);
      label_of(&ops[k], label, sizeof label);
      printf("NS %s %.1f\n", label, s[rounds / 2]);
    }
  }
  free(samples);
}

static void teardown(void) {
  for (size_t i = 0; i < n_impls; i++) {
    bench_impls[i]->fini(states[i]);
    for (int w = 0; w < W_COUNT; w++) free(own_bytes[i][w].p);
  }
  for (int w = 0; w < W_COUNT; w++) {
    free(rust_bytes[w].p);
    free(java_bytes[w].p);
  }
}

int main(int argc, char **argv) {
  const char *usage = "usage: bench_c check PAYLOADS [OUTDIR] | callgrind "
                      "N1 N2 PAYLOADS | ns ROUNDS PAYLOADS";
  if (argc >= 3 && strcmp(argv[1], "check") == 0 && argc <= 4) {
    int failures = setup_and_check(argv[2], argc == 4 ? argv[3] : NULL, 1);
    teardown();
    if (failures) {
      fprintf(stderr, "bench_c: %d check(s) FAILED\n", failures);
      return 1;
    }
    printf("bench_c: all checks passed\n");
    return 0;
  }
  if (argc == 5 && strcmp(argv[1], "callgrind") == 0) {
    long n1 = strtol(argv[2], NULL, 10), n2 = strtol(argv[3], NULL, 10);
    if (n1 < 2 || n2 <= n1) die("need 2 <= N1 < N2");
    if (setup_and_check(argv[4], NULL, 0)) die("checks failed");
    callgrind_loops(n1, n2);
    teardown();
    return 0;
  }
  if (argc == 4 && strcmp(argv[1], "ns") == 0) {
    int rounds = atoi(argv[2]);
    if (rounds < 1) die("need ROUNDS >= 1");
    if (setup_and_check(argv[3], NULL, 0)) die("checks failed");
    ns_rounds(rounds);
    teardown();
    return 0;
  }
  die(usage);
  return 2;
}
