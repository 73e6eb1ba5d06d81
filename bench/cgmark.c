/* cgmark.c - callgrind client requests for the pyfory side of the
 * benchmark, loaded by bench_pyfory.py through ctypes (Python cannot issue
 * valgrind client requests itself). Outside valgrind these are no-ops. */
#include <valgrind/callgrind.h>

void cgmark_start(void);
void cgmark_zero(void);
void cgmark_dump(const char *label);

void cgmark_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cgmark_zero(void) { CALLGRIND_ZERO_STATS; }
void cgmark_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
