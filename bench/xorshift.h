/* xorshift.h - the deterministic values the document and tape benchmarks
 * (bench_wire.c, bench_tape.c) build their inputs from: xorshift64*, the
 * same sequence on every run. One state per program (header only). */
#ifndef BENCH_XORSHIFT_H
#define BENCH_XORSHIFT_H

#include <stdint.h>

static uint64_t rng_state = UINT64_C(0x9E3779B97F4A7C15);

/* The next value of the sequence. */
static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(0x2545F4914F6CDD1D);
}

/* An int64 with a spread of varint lengths (1..9 bytes), either sign. */
static int64_t spread_int(void) {
  uint64_t r = rng();
  int64_t v = (int64_t)(rng() >> (r & 63));
  return (r & 64) ? -v : v;
}

#endif
