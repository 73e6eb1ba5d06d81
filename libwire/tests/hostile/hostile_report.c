/* hostile_report.c - the `make hostile` measurements (issue 9).
 *
 * hostile_report [SIZE...] generates a payload of every class of
 * hostile_gen.h at each size (default 1000 10000 100000 1000000 bytes),
 * decodes it once on a fresh context with a counting allocator and prints
 * one line per case:
 *   CLASS SIZE LEN STATUS PEAK_HEAP_BYTES
 * Under callgrind (--collect-atstart=no) only the wire_decode call is
 * collected and each case ends in its own dump (described as
 * "CLASS SIZE"), so report.py reads the instructions per case. Set
 * HG_CLASSES to a comma-separated list of class names to run only those.
 *
 * hostile_report --seeds DIR writes the seeds of the fuzz_heap target
 * (libwire/tests/fuzz/corpus_heap/): a mode byte (fuzz_heap.c) and the
 * payload of every class at 2 KB and 16 KB; hostile_report --payload
 * CLASS SIZE writes one payload to stdout (report.py measures the CLI on
 * it). */
#include "hostile_gen.h"

#include <stdio.h>
#include <valgrind/callgrind.h>

static int wanted(const char *name) {
  const char *list = getenv("HG_CLASSES");
  if (!list || !*list) return 1;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *c = strchr(p, ',');
    size_t m = c ? (size_t)(c - p) : strlen(p);
    if (m == n && memcmp(p, name, n) == 0) return 1;
    if (!c) break;
    p = c + 1;
  }
  return 0;
}

static int seeds(const char *dir) {
  static const size_t sz[2] = {2000, 16000};
  for (int c = 0; c < HG_NCLASSES; c++)
    for (int s = 0; s < 2; s++) {
      size_t len;
      uint8_t *p = hg_gen(c, sz[s], &len);
      char path[512];
      snprintf(path, sizeof path, "%s/%s-%zu", dir, hg_names[c], sz[s]);
      FILE *f = fopen(path, "wb");
      if (!f) return 1;
      uint8_t mode = hg_compatible(c) ? 1 : c == HG_DEEP ? 4 : 0;
      if (s == 1) mode |= 2; /* the larger ones through the tape too */
      fputc(mode, f);
      fwrite(p, 1, len, f);
      fclose(f);
      free(p);
    }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--seeds") == 0) return seeds(argv[2]);
  if (argc == 4 && strcmp(argv[1], "--payload") == 0) {
    for (int c = 0; c < HG_NCLASSES; c++)
      if (strcmp(argv[2], hg_names[c]) == 0) {
        size_t len;
        uint8_t *p = hg_gen(c, (size_t)strtoull(argv[3], NULL, 10), &len);
        fwrite(p, 1, len, stdout);
        free(p);
        return 0;
      }
    return 2;
  }
  size_t sizes[16] = {1000, 10000, 100000, 1000000};
  int nsizes = 4;
  if (argc > 1) {
    nsizes = 0;
    for (int i = 1; i < argc && nsizes < 16; i++)
      sizes[nsizes++] = (size_t)strtoull(argv[i], NULL, 10);
  }
  for (int c = 0; c < HG_NCLASSES; c++) {
    if (!wanted(hg_names[c])) continue;
    for (int s = 0; s < nsizes; s++) {
      size_t len;
      uint8_t *p = hg_gen(c, sizes[s], &len);
      hg_heap h = {0, 0, 0, 0};
      /* HG_HEAP_CAP=BYTES: allocations beyond it fail (to measure old
       * builds whose peaks explode). */
      if (getenv("HG_HEAP_CAP"))
        h.fail_over = (size_t)strtoull(getenv("HG_HEAP_CAP"), NULL, 10);
      wire_ctx *ctx =
          wire_ctx_new_with_allocator(hg_malloc, hg_realloc, hg_free, &h);
      if (!ctx) return 2;
      hg_ctx_setup(ctx, c);
      size_t base = h.cur;
      h.peak = h.cur;
      wire_doc *doc = NULL;
      CALLGRIND_ZERO_STATS;
      CALLGRIND_TOGGLE_COLLECT;
      int32_t st = wire_decode(ctx, p, len, &doc);
      CALLGRIND_TOGGLE_COLLECT;
      char desc[64];
      snprintf(desc, sizeof desc, "%s %zu", hg_names[c], sizes[s]);
      CALLGRIND_DUMP_STATS_AT(desc);
      wire_doc_free(doc);
      wire_ctx_free(ctx);
      printf("%s %zu %zu %d %zu\n", hg_names[c], sizes[s], len, st,
             h.peak - base);
      fflush(stdout);
      free(p);
    }
  }
  return 0;
}
