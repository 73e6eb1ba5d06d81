/* fdl_sandbox.c - fdl.c for the fuzz_fdl target: its fopen (imports) is
 * redirected to wire_fuzz_fopen (fuzz_fdl.c), an in-memory table of the
 * fixture schemas, so fuzzed `import` statements never touch the file
 * system (no /dev/zero, FIFOs or large files). Built instead of
 * libwire/src/fdl.c, see build.sh. */
#include <stdio.h>

FILE *wire_fuzz_fopen(const char *path, const char *mode);
#define fopen wire_fuzz_fopen
#include "fdl.c"
