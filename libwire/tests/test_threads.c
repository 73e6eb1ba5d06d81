/* test_threads.c - one context per thread, several threads decoding and
 * encoding at once (issue 9). Run under ThreadSanitizer by `make tsan`; a
 * shared context stays documented as not thread-safe (wire.h). Each thread
 * decodes every hostile generator class, re-encodes the valid ones and
 * checks the bytes, and goes through the tape codec and the notation.
 * A plain program with its own main (not Criterion, whose process arena
 * does not start under ThreadSanitizer); exit status 0 when every thread
 * passed. Arguments are ignored (`make test` passes --jobs). */
#include "hostile/hostile_gen.h"

#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ROUNDS 3

typedef struct {
  int id;
  int failures;
  char why[256];
} job;

static const char schema[] =
    "option wire_fields_by_name = true;\n"
    "message S [id=300] { int32 a = 1; list<string> b = 2; }\n";

static void *work(void *arg) {
  job *j = arg;
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx || wire_schema_load_fdl(ctx, schema, sizeof schema - 1, "s") !=
                  WIRE_OK) {
    j->failures++;
    return NULL;
  }
  for (int r = 0; r < ROUNDS; r++) {
    for (int c = 0; c < HG_NCLASSES; c++) {
      size_t len;
      uint8_t *p = hg_gen(c, 4000 + 1000 * (size_t)j->id, &len);
      wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, hg_compatible(c));
      wire_ctx_set_limit(ctx, WIRE_LIMIT_DEPTH,
                         c == HG_DEEP ? WIRE_DEPTH_MAX : 64);
      wire_doc *doc = NULL;
      int32_t st = wire_decode(ctx, p, len, &doc);
      if ((st == WIRE_OK) != (hg_valid[c] == 1)) {
        snprintf(j->why, sizeof j->why, "%s: %s", hg_names[c],
                 wire_ctx_error_message(ctx));
        j->failures++;
      }
      if (doc) {
        uint8_t *out = NULL;
        size_t ol = 0;
        /* lossless, except that the typedefs class announces one TypeDef
         * again and again, which the writer refers to instead: there the
         * output must decode and encode to itself */
        if (wire_encode(ctx, doc, &out, &ol) != WIRE_OK ||
            (c != HG_TYPEDEFS && (ol != len || memcmp(out, p, len) != 0))) {
          snprintf(j->why, sizeof j->why, "%s: not lossless", hg_names[c]);
          j->failures++;
        } else if (c == HG_TYPEDEFS) {
          wire_doc *d2 = NULL;
          uint8_t *o2 = NULL;
          size_t l2 = 0;
          if (wire_decode(ctx, out, ol, &d2) != WIRE_OK ||
              wire_encode(ctx, d2, &o2, &l2) != WIRE_OK || l2 != ol ||
              memcmp(o2, out, ol) != 0) {
            snprintf(j->why, sizeof j->why, "%s: output not stable",
                     hg_names[c]);
            j->failures++;
          }
          wire_ctx_free_bytes(ctx, o2);
          wire_doc_free(d2);
        }
        wire_ctx_free_bytes(ctx, out);
        uint8_t *txt = NULL;
        size_t tl;
        if (wire_notation_print(ctx, doc, wire_doc_root(doc, 0), 0, &txt,
                                &tl) == WIRE_OK)
          wire_ctx_free_bytes(ctx, txt);
        wire_doc_free(doc);
      }
      uint8_t *tape = NULL;
      size_t tl = 0;
      if (wire_decode_tape(ctx, p, len, &tape, &tl) == WIRE_OK) {
        uint8_t *out = NULL;
        size_t ol;
        if (wire_encode_tape(ctx, tape, tl, &out, &ol) != WIRE_OK) {
          snprintf(j->why, sizeof j->why, "%s: tape does not encode: %s",
                   hg_names[c], wire_ctx_error_message(ctx));
          j->failures++;
        }
        wire_ctx_free_bytes(ctx, out);
        wire_ctx_free_bytes(ctx, tape);
      }
      free(p);
    }
  }
  wire_ctx_free(ctx);
  return NULL;
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  pthread_t t[THREADS];
  job jobs[THREADS];
  for (int i = 0; i < THREADS; i++) {
    jobs[i] = (job){i, 0, ""};
    pthread_attr_t at;
    pthread_attr_init(&at);
    /* the deep class runs at WIRE_DEPTH_MAX: the documented stack, with
     * room for sanitizers */
    pthread_attr_setstacksize(&at, 4 * (WIRE_STACK_BASE +
                                        (size_t)WIRE_DEPTH_MAX *
                                            WIRE_STACK_PER_LEVEL));
    if (pthread_create(&t[i], &at, work, &jobs[i]) != 0) return 2;
    pthread_attr_destroy(&at);
  }
  for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
  int bad = 0;
  for (int i = 0; i < THREADS; i++)
    if (jobs[i].failures) {
      fprintf(stderr, "thread %d: %d failure(s), last: %s\n", i,
              jobs[i].failures, jobs[i].why);
      bad = 1;
    }
  printf("threads: %d threads x %d rounds x %d classes: %s\n", THREADS,
         ROUNDS, HG_NCLASSES, bad ? "FAILED" : "OK");
  return bad;
}
