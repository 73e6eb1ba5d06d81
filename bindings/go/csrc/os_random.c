/* os_random.c - secret key material from the operating system, for the
 * hash tables whose keys a peer chooses (the TypeDef cache's buckets,
 * typedef_cache.c; spec R-SEC-15). The bytes only decide where entries
 * are kept, never what a decode gives, so a weaker fallback costs speed
 * under attack, not correctness. */
#include "internal.h"

#include <time.h>

#if defined(__linux__)
#include <sys/random.h>
#elif defined(__APPLE__) || defined(__FreeBSD__) || defined(__OpenBSD__) || \
    defined(__NetBSD__) || defined(__DragonFly__)
#include <stdlib.h> /* arc4random_buf */
#define HAVE_ARC4RANDOM 1
#endif

/* splitmix64's finaliser: every bit of x moves every bit of the result. */
static uint64_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

/* When the system gives nothing (no getrandom, a seccomp filter, too
 * early at boot): addresses (ASLR), the clock and a counter, mixed. A
 * peer that can guess them could aim at one bucket again; a peer that
 * cannot read the process's memory or clock to the nanosecond cannot. */
static void fallback(uint64_t *out, size_t n, const void *where) {
  static _Atomic uint64_t calls;
  struct timespec ts = {0, 0};
  (void)timespec_get(&ts, TIME_UTC);
  uint64_t x = (uint64_t)(uintptr_t)where ^
               ((uint64_t)(uintptr_t)&calls << 21) ^
               ((uint64_t)(uintptr_t)&ts << 42) ^
               ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)ts.tv_nsec ^
               (++calls * UINT64_C(0x9e3779b97f4a7c15));
  for (size_t i = 0; i < n; i++) {
    x += UINT64_C(0x9e3779b97f4a7c15);
    out[i] ^= mix(x);
  }
}

#ifdef WIRE_FUZZ_KEYS
#include <stdlib.h> /* getenv, strtoull */

/* Fuzz builds only (libwire/tests/fuzz/build.sh defines WIRE_FUZZ_KEYS;
 * no other build does): the keys of the hash tables a peer aims at, the
 * TypeDef cache's (below) and the meta string table's (wire__dec_seed,
 * decode_state.c), are this one number, the environment's WIRE_FUZZ_KEY
 * (decimal or 0x hex) or a constant, instead of the operating system's
 * bytes and the addresses ASLR moves: they decide which entries a cache
 * keeps and which buckets collide, so a finding that depends on them
 * replays on another machine with the key of the run that found it. */
uint64_t wire__fuzz_key(void) {
  static uint64_t key;
  static bool read;
  if (!read) {
    const char *s = getenv("WIRE_FUZZ_KEY");
    key = s && *s ? (uint64_t)strtoull(s, NULL, 0)
                  : UINT64_C(0x5eed5eed5eed5eed);
    read = true;
  }
  return key;
}
#endif

void wire__os_random(uint64_t *out, size_t n, const void *where) {
  size_t want = n * sizeof *out, got = 0;
  memset(out, 0, want);
#ifdef WIRE_FUZZ_KEYS
  (void)where;
  for (size_t i = 0; i < n; i++)
    out[i] = mix(wire__fuzz_key() + (i + 1) * UINT64_C(0x9e3779b97f4a7c15));
  return;
#endif
#if defined(__linux__)
  while (got < want) {
    ssize_t r = getrandom((uint8_t *)out + got, want - got, GRND_NONBLOCK);
    if (r <= 0) break; /* (EINTR, EAGAIN, ENOSYS: the fallback below) */
    got += (size_t)r;
  }
#elif defined(HAVE_ARC4RANDOM)
  arc4random_buf(out, want);
  got = want;
#endif
  if (got < want) fallback(out, n, where);
}
