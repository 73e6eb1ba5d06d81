/* _pybytes.c - the bytes objects of large binaries read from a payload: one
 * copy, by a loop of 32-byte loads and 32-byte-aligned stores where the
 * CPU has AVX2, else by memcpy.
 *
 * Why not memcpy: a BINARY's bytes start after a varint in the payload,
 * so they are rarely 64-byte aligned, and glibc 2.36 on an AVX-512 CPU
 * (the Zen 4 this repository is measured on) copies them with 64-byte
 * loads, each of which then spans two cache lines; with 32-byte loads half
 * of them do. Like glibc, the loop runs backwards when the destination
 * lies less than 256 bytes after the source modulo 4 KiB (a forward loop
 * would read addresses that alias, in their low 12 bits, the stores just
 * made). */
#include "_native.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define LW_COPY_AVX2 1
#endif

/* Binaries of this many bytes or more take lw_copy (below that, the bytes
 * object's own copy: its fixed costs dominate). */
#define LW_COPY_MIN 4096
/* Above this the C library's copy is kept: for copies larger than its
 * estimate of the cache it may switch to non-temporal stores. */
#define LW_COPY_MAX ((size_t)4 << 20)

#ifdef LW_COPY_AVX2
#define LD(p) _mm256_loadu_si256((const __m256i *)(p))
#define ST(p, x) _mm256_store_si256((__m256i *)(p), x)

/* n >= 128; d and s do not overlap. */
__attribute__((target("avx2"))) static void copy_fwd(uint8_t *d,
                                                      const uint8_t *s,
                                                      size_t n) {
  /* the first 32 bytes unaligned, then on from d's next 32-byte boundary */
  size_t a = 32 - ((uintptr_t)d & 31);
  _mm256_storeu_si256((__m256i *)d, LD(s));
  d += a;
  s += a;
  n -= a;
  for (; n >= 128; d += 128, s += 128, n -= 128) {
    __m256i x0 = LD(s), x1 = LD(s + 32), x2 = LD(s + 64), x3 = LD(s + 96);
    ST(d, x0);
    ST(d + 32, x1);
    ST(d + 64, x2);
    ST(d + 96, x3);
  }
  memcpy(d, s, n);
}

/* The same from the end down. */
__attribute__((target("avx2"))) static void copy_bwd(uint8_t *d,
                                                      const uint8_t *s,
                                                      size_t n) {
  /* the last 32 bytes unaligned, then down from d + n's 32-byte boundary
   * below them */
  size_t a = ((uintptr_t)(d + n) & 31) ? ((uintptr_t)(d + n) & 31) : 32;
  _mm256_storeu_si256((__m256i *)(d + n - 32), LD(s + n - 32));
  n -= a;
  for (; n >= 128; n -= 128) {
    const uint8_t *q = s + n - 128;
    uint8_t *p = d + n - 128;
    __m256i x0 = LD(q + 96), x1 = LD(q + 64), x2 = LD(q + 32), x3 = LD(q);
    ST(p + 96, x0);
    ST(p + 64, x1);
    ST(p + 32, x2);
    ST(p, x3);
  }
  memcpy(d, s, n);
}

/* Whether the CPU has AVX2 and the OS saves the YMM registers (cpuid and
 * xgetbv here, rather than __builtin_cpu_supports, which links libgcc's
 * CPU model code into the module). */
static int cpu_avx2(void) {
  unsigned a, b, c, d, lo, hi;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) ||
      !(c & bit_AVX))
    return 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6) != 6 || __get_cpuid_max(0, NULL) < 7) return 0;
  __cpuid_count(7, 0, a, b, c, d);
  return (b & bit_AVX2) != 0;
}

static int have_avx2 = -1;
#endif

static void lw_copy(void *d, const void *s, size_t n) {
#ifdef LW_COPY_AVX2
  if (have_avx2 < 0) have_avx2 = cpu_avx2();
  if (have_avx2 && n >= 128 && n <= LW_COPY_MAX) {
    if ((((uintptr_t)d - (uintptr_t)s) & 4095) < 256)
      copy_bwd(d, s, n);
    else
      copy_fwd(d, s, n);
    return;
  }
#endif
  memcpy(d, s, n);
}

PyObject *lw_bytes_from(const void *p, size_t n) {
  if (n < LW_COPY_MIN) return PyBytes_FromStringAndSize(p, (Py_ssize_t)n);
  if (n > (size_t)PY_SSIZE_T_MAX) return PyErr_NoMemory();
  PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
  if (b) lw_copy(PyBytes_AS_STRING(b), p, n);
  return b;
}
