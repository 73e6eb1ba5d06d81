/* mem_dec_run.c - the compiled decoder's runs of varints: three or more
 * consecutive varint fields of one inline case (mem_layout.c groups them,
 * mop.drun), which the struct loop of mem_dec.c hands over as one op. A
 * run is read without dispatch after one bounds check; near the end of
 * the input (fewer bytes left than the run may take) from a copy of the
 * bytes left followed by zeros, with one compare per value. Where the CPU
 * has BMI1 and BMI2 (known at compile time, or asked once per context),
 * values of two bytes or more are read a word at a time (pext). Every
 * reader here stops at the first value that is cut, overlong or too long;
 * the struct loop's checked case then reads or reports it. */
#include "mem_dec.h"

#if defined(__GNUC__) && defined(__x86_64__) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RUN_WORDS 1
#include <immintrin.h>
#define WORDS __attribute__((target("bmi,bmi2")))
#else
#define RUN_WORDS 0
#endif

/* How a run's reads are bounded: not at all (the caller checked the bytes
 * of the whole run), or while the cursor is before lim (in a zero-padded
 * copy: a value that would go on past lim meets a zero byte, an overlong
 * or too long form, and stops the run). */
enum { RUN_ALL, RUN_PAD };
#define RUN_ROOM() (how == RUN_ALL || p < lim)

/* The loops over ops o..e from *pp (one per case: the value's width in
 * memory), each value read by RD32 / RD64 (the cursor after it, or NULL
 * to stop): the op it stopped at, *pp the cursor there. */
#define RUN_LOOP(T, U, RD, UNZZ)                    \
  for (; o < e && RUN_ROOM(); o++) {                \
    U u;                                            \
    if (!(n = RD(p, &u))) break;                    \
    T v = UNZZ(u);                                  \
    memcpy(base + o->off, &v, sizeof v);            \
    p = n;                                          \
  }
#define RUN_OPS(RD32, RD64)                                      \
  const uint8_t *p = *pp, *n;                                    \
  switch (o->x) {                                                \
  case MX_VI32: RUN_LOOP(int32_t, uint32_t, RD32, wire__unzz32) break;   \
  case MX_VI32_64: RUN_LOOP(int64_t, uint32_t, RD32, wire__unzz32) break; \
  default: /* MX_VI64 */                                         \
    RUN_LOOP(int64_t, uint64_t, RD64, wire__unzz64) break;       \
  }                                                              \
  *pp = p;                                                       \
  return o

/* Ops o..e a byte at a time. */
ALWAYS_INLINE const wire_mop *run_bytes(const wire_mop *o, const wire_mop *e,
                                        uint8_t *base, const uint8_t **pp,
                                        const uint8_t *lim, int how) {
  RUN_OPS(vu32_in, vu64_in);
}
static const wire_mop *bytes_all(const wire_mop *o, const wire_mop *e,
                                 uint8_t *base, const uint8_t **pp) {
  return run_bytes(o, e, base, pp, NULL, RUN_ALL);
}

#if RUN_WORDS
/* A varint's value is canonical when it is at least the least value of
 * its length (else overlong) and, for 32 bits, below 2^32: x - lo[k] <=
 * span[k], k its length less one (8: no end in the bytes looked at). */
static const uint64_t lo32[9] = {0, 1u << 7, 1u << 14, 1u << 21, 1u << 28,
                                 UINT64_MAX, UINT64_MAX, UINT64_MAX,
                                 UINT64_MAX};
static const uint64_t span32[9] = {
    (1u << 7) - 1, (1u << 14) - (1u << 7) - 1, (1u << 21) - (1u << 14) - 1,
    (1u << 28) - (1u << 21) - 1, (UINT64_C(1) << 32) - (1u << 28) - 1,
    0, 0, 0, 0};

/* A varint32 at p with 8 bytes there: the cursor after it, or NULL. */
ALWAYS_INLINE WORDS const uint8_t *wu32(const uint8_t *p, uint32_t *v) {
  if (p[0] < 0x80) {
    *v = p[0];
    return p + 1;
  }
  uint64_t w;
  memcpy(&w, p, 8);
  uint64_t m = ~w & UINT64_C(0x8080808080); /* bytes it may end at */
  size_t k = (size_t)_tzcnt_u64(m) >> 3;    /* (m == 0: 8) */
  uint64_t x = _pext_u64(w & (m ^ (m - 1)), UINT64_C(0x7F7F7F7F7F));
  if (x - lo32[k] > span32[k]) return NULL;
  *v = (uint32_t)x;
  return p + k + 1;
}
/* A varint64 at p with 9 bytes there (the ninth a whole byte). */
ALWAYS_INLINE WORDS const uint8_t *wu64(const uint8_t *p, uint64_t *v) {
  if (p[0] < 0x80) {
    *v = p[0];
    return p + 1;
  }
  uint64_t w;
  memcpy(&w, p, 8);
  uint64_t m = ~w & UINT64_C(0x8080808080808080);
  if (WIRE_UNLIKELY(!m)) {
    if (!p[8]) return NULL;
    *v = _pext_u64(w, UINT64_C(0x7F7F7F7F7F7F7F7F)) | (uint64_t)p[8] << 56;
    return p + 9;
  }
  size_t k = (size_t)_tzcnt_u64(m) >> 3;
  if (k && !p[k]) return NULL; /* overlong: its last byte 0 */
  *v = _pext_u64(w & (m ^ (m - 1)), UINT64_C(0x7F7F7F7F7F7F7F7F));
  return p + k + 1;
}

/* run_bytes a word at a time: 8 bytes (varint32) or 9 (varint64) must be
 * there from where each value begins. */
ALWAYS_INLINE WORDS const wire_mop *run_words(const wire_mop *o,
                                              const wire_mop *e,
                                              uint8_t *base,
                                              const uint8_t **pp,
                                              const uint8_t *lim, int how) {
  RUN_OPS(wu32, wu64);
}
ALWAYS_INLINE WORDS const wire_mop *words_all(const wire_mop *o,
                                              const wire_mop *e, uint8_t *base,
                                              const uint8_t **pp) {
  return run_words(o, e, base, pp, NULL, RUN_ALL);
}
/* Whether the CPU has BMI1 and BMI2 (the compiler's word on it, else the
 * CPU's, which the compiler's runtime reads once at start-up). */
static inline bool have_words(void) {
#if defined(__BMI__) && defined(__BMI2__)
  return true;
#else
  return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
#endif
}
#else
static inline bool have_words(void) { return false; }
#define words_all(o, e, base, pp) bytes_all(o, e, base, pp)
#endif

/* Whether the word readers may be used where the CPU has them (tests
 * turn them off to reach the byte readers). */
bool wire__mdec_words_ok = true;

bool wire__mdec_words(void) { return wire__mdec_words_ok && have_words(); }

const wire_mop *wire__mdec_run_bytes(const wire_mop *o, uint8_t *base,
                                     const uint8_t **pc) {
  return bytes_all(o, o + o->drun, base, pc);
}
#if RUN_WORDS
HOT_ALIGN WORDS const wire_mop *wire__mdec_run_words(const wire_mop *o,
                                                     uint8_t *base,
                                                     const uint8_t **pc) {
  return words_all(o, o + o->drun, base, pc);
}
#else
const wire_mop *wire__mdec_run_words(const wire_mop *o, uint8_t *base,
                                     const uint8_t **pc) {
  return bytes_all(o, o + o->drun, base, pc);
}
#endif

/* The bytes left (fewer than the run may take: at most
 * WIRE_MEM_RUN_MAX + WIRE_MEM_RUN_SLACK) copied with 16 zero bytes after
 * them, read there by the padded reader PAD (inline: no second call and
 * its entry), the cursor moved by what that took. */
#define RUN_END(PAD)                                                      \
  const uint8_t *p = *pc;                                                 \
  size_t left = (size_t)(end - p), i = 0;                                 \
  uint8_t pad[WIRE_MEM_RUN_MAX + WIRE_MEM_RUN_SLACK + 16];                \
  if (!left || left > WIRE_MEM_RUN_MAX + WIRE_MEM_RUN_SLACK) return o;    \
  for (; i + 16 <= left; i += 16) memcpy(pad + i, p + i, 16);             \
  copy_short(pad + i, p + i, left - i);                                   \
  memset(pad + left, 0, 16);                                              \
  const uint8_t *q = pad;                                                 \
  o = PAD(o, o + o->drun, base, &q, pad + left, RUN_PAD);                 \
  *pc = p + (q - pad);                                                    \
  return o

const wire_mop *wire__mdec_run_end_bytes(const wire_mop *o, uint8_t *base,
                                         const uint8_t **pc,
                                         const uint8_t *end) {
  RUN_END(run_bytes);
}
#if RUN_WORDS
WORDS const wire_mop *wire__mdec_run_end_words(const wire_mop *o,
                                               uint8_t *base,
                                               const uint8_t **pc,
                                               const uint8_t *end) {
  RUN_END(run_words);
}
#else
const wire_mop *wire__mdec_run_end_words(const wire_mop *o, uint8_t *base,
                                         const uint8_t **pc,
                                         const uint8_t *end) {
  return wire__mdec_run_end_bytes(o, base, pc, end);
}
#endif
