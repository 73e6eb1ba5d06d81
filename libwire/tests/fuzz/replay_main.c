/* replay_main.c - a main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on every file named on the command line (as
 * `target FILE...` does with libFuzzer), so the regression replay builds
 * with any C compiler (replay.sh). Prints the number of inputs run; a failed
 * check aborts the process as under libFuzzer. WIRE_FUZZ_VERBOSE=1 names
 * each file before running it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  int n = 0;
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "%s: cannot open\n", argv[i]);
      return 2;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf) abort();
    for (;;) {
      if (len == cap && !(buf = realloc(buf, cap *= 2))) abort();
      size_t k = fread(buf + len, 1, cap - len, f);
      if (k == 0) break;
      len += k;
    }
    fclose(f);
    /* Exactly `len` bytes, so that ASan sees reads past the input. */
    uint8_t *in = malloc(len ? len : 1);
    if (!in) abort();
    for (size_t j = 0; j < len; j++) in[j] = buf[j];
    free(buf);
    if (getenv("WIRE_FUZZ_VERBOSE")) fprintf(stderr, "running %s\n", argv[i]);
    LLVMFuzzerTestOneInput(in, len);
    free(in);
    n++;
  }
  printf("%s: %d input(s) replayed\n", argv[0], n);
  return 0;
}
