/* mem_put.h - the byte writers of the layout encoder (mem_enc.c, its
 * only includer): varints (spread by BMI2's pdep where the CPU has it),
 * little-endian words, bool memory as wire bools, copies of up to 64 bytes
 * without a call, runs of varints, small decimals; the image's pointers,
 * relocated, and their slots in the reference index. Each writer writes
 * at q, where the caller made room, and answers where the next byte
 * goes. */
#ifndef WIRE_MEM_PUT_H
#define WIRE_MEM_PUT_H

#include "mem.h"

static inline __attribute__((always_inline)) uint8_t *put_varu32(uint8_t *q, uint32_t v) {
  if (v < 0x80) { q[0] = (uint8_t)v; return q + 1; }
  q[0] = (uint8_t)(v | 0x80);
  if (v < 0x4000) { q[1] = (uint8_t)(v >> 7); return q + 2; }
  q[1] = (uint8_t)((v >> 7) | 0x80);
  if (v < 0x200000) { q[2] = (uint8_t)(v >> 14); return q + 3; }
  q[2] = (uint8_t)((v >> 14) | 0x80);
  if (v < 0x10000000) { q[3] = (uint8_t)(v >> 21); return q + 4; }
  q[3] = (uint8_t)((v >> 21) | 0x80);
  q[4] = (uint8_t)(v >> 28);
  return q + 5;
}
static inline uint8_t *put_varu64(uint8_t *q, uint64_t v) {
  if (v < (UINT64_C(1) << 28)) return put_varu32(q, (uint32_t)v);
  int n = 0;
  while (v >= 0x80 && n < 8) { *q++ = (uint8_t)(v | 0x80); v >>= 7; n++; }
  *q++ = (uint8_t)v;
  return q;
}
/* BMI2's pdep (CPUID leaf 7: EBX bit 8), looked up once when the library
 * is loaded: the struct loops' varints then spread their 7-bit groups to
 * bytes in one instruction. Inline assembly, so that the library needs no
 * -mbmi2 and runs on any x86-64. */
#if defined(__GNUC__) && defined(__x86_64__)
#include <cpuid.h>
#define ENC_PDEP 1
static bool enc_bmi2;
__attribute__((constructor)) static void enc_cpu(void) {
  unsigned a, b, c, d;
  enc_bmi2 = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 8));
}
/* The continuation bits of a varint of n + 1 bytes (n < 8). */
static const uint64_t enc_cont[8] = {
    0, 0x80, 0x8080, 0x808080, 0x80808080, UINT64_C(0x8080808080),
    UINT64_C(0x808080808080), UINT64_C(0x80808080808080)};
/* The varint of v (at least 0x80; g: the mask of its 7-bit groups, five
 * or eight of them), storing a whole word at q. */
static inline uint8_t *put_pdep(uint8_t *q, uint64_t v, uint64_t g) {
  uint64_t w;
  __asm__("pdepq %2, %1, %0" : "=r"(w) : "r"(v), "rm"(g));
  unsigned n = (63u ^ (unsigned)__builtin_clzll(w)) >> 3;
  w |= enc_cont[n];
  memcpy(q, &w, 8);
  return q + n + 1;
}
#else
#define enc_bmi2 false
#endif

/* The varint writers of the struct loops, where a whole word may be
 * stored at q (room for 8 more is reserved); bmi2: enc_bmi2. */
static inline uint8_t *put_vu32(uint8_t *q, uint32_t v, bool bmi2) {
  if (v < 0x80) { q[0] = (uint8_t)v; return q + 1; }
#ifdef ENC_PDEP
  if (bmi2)
    return put_pdep(q, v, UINT64_C(0x7F7F7F7F7F));
#else
  (void)bmi2;
#endif
  return put_varu32(q, v);
}
static inline uint8_t *put_vu64(uint8_t *q, uint64_t v, bool bmi2) {
  if (v < 0x80) { q[0] = (uint8_t)v; return q + 1; }
#ifdef ENC_PDEP
  if (bmi2 && v < (UINT64_C(1) << 56))
    return put_pdep(q, v, UINT64_C(0x7F7F7F7F7F7F7F7F));
#else
  (void)bmi2;
#endif
  return put_varu64(q, v);
}
static inline uint8_t *put_le(uint8_t *q, uint64_t v, int n) {
  memcpy(q, &v, 8); /* little-endian host; room for 8 reserved */
  return q + n;
}

/* n bytes of bool memory as wire bools (any byte other than 0 is true),
 * eight at a time: a byte's top bit after adding 0x7F to its low bits,
 * or'ed with the byte, says whether it is other than 0. */
static inline uint8_t *put_bools(uint8_t *q, const uint8_t *d, size_t n) {
  const uint64_t lo = UINT64_C(0x7F7F7F7F7F7F7F7F);
  size_t i = 0;
  uint64_t w;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, d + i, 8);
    w = ((((w & lo) + lo) | w) >> 7) & UINT64_C(0x0101010101010101);
    memcpy(q + i, &w, 8);
  }
  if (i == n) return q + n;
  if (n >= 8) { /* the tail: the last eight, again (the same bytes) */
    memcpy(&w, d + n - 8, 8);
    w = ((((w & lo) + lo) | w) >> 7) & UINT64_C(0x0101010101010101);
    memcpy(q + n - 8, &w, 8);
  } else if (n >= 4) { /* four to seven: two words of four overlapping */
    uint32_t a, z;
    const uint32_t lo4 = 0x7F7F7F7Fu, one4 = 0x01010101u;
    memcpy(&a, d, 4);
    memcpy(&z, d + n - 4, 4);
    a = ((((a & lo4) + lo4) | a) >> 7) & one4;
    z = ((((z & lo4) + lo4) | z) >> 7) & one4;
    memcpy(q, &a, 4);
    memcpy(q + n - 4, &z, 4);
  } else {
    for (; i < n; i++) q[i] = d[i] ? 1 : 0;
  }
  return q + n;
}

/* Copies n bytes: up to 64 without a call. */
static inline __attribute__((always_inline)) void copy_mid(uint8_t *d, const uint8_t *s, size_t n) {
  if (n <= 32 || n > 64) {
    copy_short(d, s, n);
    return;
  }
  uint8_t a[32], b[32];
  memcpy(a, s, 32);
  memcpy(b, s + n - 32, 32);
  memcpy(d, a, 32);
  memcpy(d + n - 32, b, 32);
}

/* A run of int32 or int64 varints (o->drun ops from o, all o->x) into
 * the room reserved for them, without dispatch. */
static inline __attribute__((always_inline)) uint8_t *
put_run(const wire_mop *o, const uint8_t *base, uint8_t *q, bool bmi2) {
  const wire_mop *e = o + o->drun;
  if (o->x == MX_VI32) {
    for (; o < e; o++) {
      int32_t v;
      memcpy(&v, base + o->off, 4);
      q = put_vu32(q, wire__zz32(v), bmi2);
    }
  } else {
    for (; o < e; o++) {
      int64_t v;
      memcpy(&v, base + o->off, 8);
      q = put_vu64(q, wire__zz64(v), bmi2);
    }
  }
  return q;
}

/* The pointer stored at p, relocated by rel (what wire_mem_encode_based
 * adds to every pointer but NULL; else 0). */
static inline __attribute__((always_inline)) const void *rptr(uintptr_t rel, const uint8_t *p) {
  uintptr_t v;
  memcpy(&v, p, sizeof v);
  return (const void *)(v ? v + rel : 0);
}

/* A decimal whose magnitude is below 2^62 (the usual), at q (room for
 * 14): the scale, then the value's zigzag shifted left (the small form of
 * wire__enc_decimal, without a call). Where the next byte goes, or NULL
 * when the decimal is another (or has no magnitude): nothing written. */
static inline uint8_t *put_small_dec(uint8_t *q, const wire_mem_decimal *dv) {
  if (dv->len > 8 || (dv->len && !dv->magnitude)) return NULL;
  uint64_t mag = 0;
  for (uint32_t i = 0; i < dv->len; i++)
    mag |= (uint64_t)dv->magnitude[i] << (8 * i);
  if (mag >= (UINT64_C(1) << 62)) return NULL;
  int64_t v = dv->negative ? -(int64_t)mag : (int64_t)mag;
  q = put_varu32(q, wire__zz32(dv->scale));
  return put_varu64(q, wire__zz64(v) << 1);
}

/* The slot of pointer p in mem_enc.c's reference index (of 128 slots). */
static inline uint32_t ref_slot(const void *p) {
  return (uint32_t)(((uint64_t)(uintptr_t)p * UINT64_C(0x9E3779B97F4A7C15)) >>
                    57);
}

#endif
