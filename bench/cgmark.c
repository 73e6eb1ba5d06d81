/* cgmark.c - callgrind client requests and a thread CPU clock for the
 * benchmark processes that are not C: the Python side loads it through
 * ctypes (bench_pyfory.py), the Rust side links it statically (rust/build.rs).
 * Outside valgrind the client requests are no-ops. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <time.h>

#include <valgrind/callgrind.h>

void cgmark_start(void);
void cgmark_stop(void);
void cgmark_zero(void);
void cgmark_dump(const char *label);
int32_t cgmark_running_on_valgrind(void);
uint64_t cgmark_thread_ns(void);

void cgmark_start(void) { CALLGRIND_START_INSTRUMENTATION; }
void cgmark_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void cgmark_zero(void) { CALLGRIND_ZERO_STATS; }
void cgmark_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
int32_t cgmark_running_on_valgrind(void) {
  return (int32_t)RUNNING_ON_VALGRIND;
}

/* CPU time of the calling thread in nanoseconds: less disturbed by the
 * other processes of a shared machine than the wall clock. */
uint64_t cgmark_thread_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
