/* primitives.c - output buffer growth, varint reading, MurmurHash3,
 * float16 and bfloat16 conversions. */
#include "internal.h"

/* ---- output buffer ---- */

int32_t wire__buf_grow(wire_buf *b, size_t extra) {
  if (b->status != WIRE_OK) return b->status;
  if (b->cap - b->len >= extra) return WIRE_OK;
  if (b->fixed) {
    /* Keep counting the size that would have been needed. */
    b->status = WIRE_E_BUFFER_FULL;
    return b->status;
  }
  uint8_t *p = extra > SIZE_MAX / 2 - b->len
                   ? NULL
                   : wire__grow(b->ctx, b->p, &b->cap, b->len + extra - 1, 1,
                                256);
  if (!p) {
    b->status = WIRE_E_NOMEM;
    return b->status;
  }
  b->p = p;
  return WIRE_OK;
}

/* 64 bytes per step through registers; the empty asm keeps the compiler
 * from turning the loop back into a memcpy call. */
void wire__copy_far(uint8_t *d, const uint8_t *s, size_t n) {
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    memcpy(d + i, s + i, 64);
#if defined(__GNUC__)
    __asm__ volatile("" ::: "memory");
#endif
  }
  memcpy(d + i, s + i, n - i);
}

/* ---- input ---- */

bool wire__truncated(wire_in *in, size_t need) {
  wire__fail(in->ctx, WIRE_E_TRUNCATED, wire__off(in, in->p),
             "need %zu byte(s), %zu left", need, (size_t)(in->end - in->p));
  return false;
}

bool wire__bad_varint(wire_in *in, const uint8_t *start, const char *what) {
  wire__fail(in->ctx, WIRE_E_VARINT, wire__off(in, start), "%s", what);
  return false;
}

static bool varint_cut(wire_in *in, const uint8_t *s) {
  wire__fail(in->ctx, WIRE_E_TRUNCATED, wire__off(in, s),
             "varint runs past the end of the input");
  return false;
}

/* Implements R-VARINT-2, R-VARINT-3, R-VARINT-4. */
bool wire__get_varu32_slow(wire_in *in, uint32_t *v) {
  const uint8_t *s = in->p;
  uint32_t r = 0;
  for (int i = 0; i < 5; i++) {
    if (s + i >= in->end) return varint_cut(in, s);
    uint8_t c = s[i];
    if (i == 4) {
      if (c & 0xF0)
        return wire__bad_varint(in, s, "varuint32 does not fit 32 bits");
    }
    r |= (uint32_t)(c & 0x7F) << (7 * i);
    if (!(c & 0x80)) {
      if (i > 0 && c == 0)
        return wire__bad_varint(in, s, "overlong varuint32");
      in->p = s + i + 1;
      *v = r;
      return true;
    }
  }
  return wire__bad_varint(in, s, "varuint32 longer than 5 bytes");
}

/* Implements R-PVL-2, R-PVL-3. */
bool wire__get_varu64(wire_in *in, uint64_t *v) {
  const uint8_t *s = in->p;
  uint64_t r = 0;
  if (WIRE_LIKELY(in->end - s >= 9)) { /* no bounds check per byte */
    for (int i = 0; i < 8; i++) {
      uint8_t c = s[i];
      r |= (uint64_t)(c & 0x7F) << (7 * i);
      if (!(c & 0x80)) {
        if (i > 0 && c == 0)
          return wire__bad_varint(in, s, "overlong varuint64");
        in->p = s + i + 1;
        *v = r;
        return true;
      }
    }
    if (s[8] == 0) return wire__bad_varint(in, s, "overlong varuint64");
    *v = r | (uint64_t)(WIRE_MUTANT(pvl_ninth_7bits) ? s[8] & 0x7F : s[8]) << 56;
    in->p = s + 9;
    return true;
  }
  for (int i = 0; i < 9; i++) {
    if (s + i >= in->end) return varint_cut(in, s);
    uint8_t c = s[i];
    if (i == 8) {
      /* The 9th byte holds the top 8 bits whole. */
      if (c == 0) return wire__bad_varint(in, s, "overlong varuint64");
      r |= (uint64_t)(WIRE_MUTANT(pvl_ninth_7bits) ? c & 0x7F : c) << 56;
      in->p = s + 9;
      *v = r;
      return true;
    }
    r |= (uint64_t)(c & 0x7F) << (7 * i);
    if (!(c & 0x80)) {
      if (i > 0 && c == 0)
        return wire__bad_varint(in, s, "overlong varuint64");
      in->p = s + i + 1;
      *v = r;
      return true;
    }
  }
  return false; /* not reached */
}

/* Implements R-V36-2. */
bool wire__get_varu36(wire_in *in, uint64_t *v) {
  const uint8_t *s = in->p;
  uint64_t r = 0;
  for (int i = 0; i < 5; i++) {
    if (s + i >= in->end) return varint_cut(in, s);
    uint8_t c = s[i];
    if (i == 4) {
      if (c == 0) return wire__bad_varint(in, s, "overlong string header");
      r |= (uint64_t)c << 28;
      in->p = s + 5;
      *v = r;
      return true;
    }
    r |= (uint64_t)(c & 0x7F) << (7 * i);
    if (!(c & 0x80)) {
      if (i > 0 && c == 0)
        return wire__bad_varint(in, s, "overlong string header");
      in->p = s + i + 1;
      *v = r;
      return true;
    }
  }
  return false;
}

/* Implements R-TAGGED-1, R-TAGGED-3. */
bool wire__get_tagged_i64(wire_in *in, int64_t *v) {
  const uint8_t *s = in->p;
  uint64_t w;
  if (!wire__get_le(in, 4, &w)) return false;
  if (!(w & 1)) {
    *v = (int64_t)(int32_t)(uint32_t)w >> 1;
    return true;
  }
  if ((w & 0xFF) != 1) {
    in->p = s;
    return wire__bad_varint(in, s, "tagged int64 flag byte must be 0x01");
  }
  in->p = s + 1;
  uint64_t u;
  if (!wire__get_le(in, 8, &u)) return false;
  int64_t x = (int64_t)u;
  if (x >= -(INT64_C(1) << 30) && x < (INT64_C(1) << 30)) {
    in->p = s;
    return wire__bad_varint(in, s, "tagged int64 in long form fits 4 bytes");
  }
  *v = x;
  return true;
}

/* Implements R-TAGGED-2, R-TAGGED-3. */
bool wire__get_tagged_u64(wire_in *in, uint64_t *v) {
  const uint8_t *s = in->p;
  uint64_t w;
  if (!wire__get_le(in, 4, &w)) return false;
  if (!(w & 1)) {
    *v = (uint32_t)w >> 1; /* logical shift */
    if (WIRE_MUTANT(tagged_u64_arith)) *v = (uint64_t)((int64_t)(int32_t)(uint32_t)w >> 1);
    return true;
  }
  if ((w & 0xFF) != 1) {
    in->p = s;
    return wire__bad_varint(in, s, "tagged uint64 flag byte must be 0x01");
  }
  in->p = s + 1;
  uint64_t u;
  if (!wire__get_le(in, 8, &u)) return false;
  if (u < (UINT64_C(1) << 31)) {
    in->p = s;
    return wire__bad_varint(in, s, "tagged uint64 in long form fits 4 bytes");
  }
  *v = u;
  return true;
}

/* ---- MurmurHash3 x64 128 ---- */

static inline uint64_t rotl64(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}
static inline uint64_t fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= UINT64_C(0xff51afd7ed558ccd);
  k ^= k >> 33;
  k *= UINT64_C(0xc4ceb9fe1a85ec53);
  k ^= k >> 33;
  return k;
}
static inline uint64_t load64(const uint8_t *p) {
  uint64_t r = 0;
  for (int i = 0; i < 8; i++) r |= (uint64_t)p[i] << (8 * i);
  return r;
}

/* Implements R-HASH-1. */
void wire_murmur3_x64_128(const uint8_t *data, size_t len, uint64_t seed,
                          uint64_t *out0, uint64_t *out1) {
  const uint64_t c1 = UINT64_C(0x87c37b91114253d5);
  const uint64_t c2 = UINT64_C(0x4cf5ad432745937f);
  uint64_t h1 = seed, h2 = seed;
  size_t nblocks = len / 16;
  for (size_t i = 0; i < nblocks; i++) {
    uint64_t k1 = load64(data + 16 * i), k2 = load64(data + 16 * i + 8);
    k1 *= c1; k1 = rotl64(k1, 31); k1 *= c2; h1 ^= k1;
    h1 = rotl64(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
    k2 *= c2; k2 = rotl64(k2, 33); k2 *= c1; h2 ^= k2;
    h2 = rotl64(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
  }
  const uint8_t *tail = data + nblocks * 16;
  uint64_t k1 = 0, k2 = 0;
  size_t rest = len & 15;
  for (size_t i = rest; i > 8; i--) k2 |= (uint64_t)tail[i - 1] << (8 * (i - 9));
  if (rest > 8) {
    k2 *= c2; k2 = rotl64(k2, 33); k2 *= c1; h2 ^= k2;
  }
  for (size_t i = rest < 8 ? rest : 8; i > 0; i--)
    k1 |= (uint64_t)tail[i - 1] << (8 * (i - 1));
  if (rest > 0) {
    k1 *= c1; k1 = rotl64(k1, 31); k1 *= c2; h1 ^= k1;
  }
  h1 ^= (uint64_t)len; h2 ^= (uint64_t)len;
  h1 += h2; h2 += h1;
  h1 = fmix64(h1); h2 = fmix64(h2);
  h1 += h2; h2 += h1;
  if (out0) *out0 = h1;
  if (out1) *out1 = h2;
}

/* ---- float16 / bfloat16 ---- */

static inline uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint64_t f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

/* Rounds the double of bits u to binary16 directly (no double rounding
 * through float); a NaN keeps its sign, quiet bit and top 10 payload bits,
 * the quiet NaN of its sign if those are all zero (internal.h). */
/* Implements R-FLOAT-2. */
uint16_t wire__f16_narrow(uint64_t u) {
  uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
  int exp = (int)((u >> 52) & 0x7FF);
  uint64_t man = u & UINT64_C(0xFFFFFFFFFFFFF);
  if (exp == 0x7FF) {
    uint16_t m = (uint16_t)(man >> 42);
    if (man && !m) m = 0x200; /* a NaN with no top payload bit: quiet */
    return (uint16_t)(sign | 0x7C00 | m);
  }
  if (exp == 0 && man == 0) return sign;
  /* value = 1.man * 2^(exp-1023), or subnormal double (underflows to 0). */
  int e = exp - 1023;
  if (exp == 0) return sign; /* double subnormals are far below f16 range */
  uint64_t full = man | (UINT64_C(1) << 52); /* 53 significant bits */
  /* Target: f16 normal if e >= -14: significand 11 bits.
   * Subnormal f16: value = m * 2^-24, m < 1024. */
  int shift; /* how many low bits of `full` to drop */
  int16_t hexp;
  if (e >= -14) {
    shift = 52 - 10;
    hexp = (int16_t)(e + 15);
  } else {
    shift = 52 - 10 + (-14 - e);
    hexp = 0;
    if (shift > 53 + 1) return sign; /* rounds to zero */
  }
  uint64_t m;
  if (shift >= 64) {
    m = 0;
  } else {
    m = full >> shift;
    uint64_t rem = full & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    if (rem > half || (rem == half && (m & 1))) m++;
  }
  if (hexp == 0) {
    /* subnormal (m may have rounded up into the normal range: then m=1024
     * which encodes exponent 1 with zero mantissa, exactly right). */
    return (uint16_t)(sign | m);
  }
  /* normal: m in [1024, 2048]; 2048 means carry into exponent */
  if (m >= 2048) {
    m >>= 1;
    hexp++;
  }
  if (hexp >= 31) return sign | 0x7C00;
  return (uint16_t)(sign | (uint16_t)(hexp << 10) | (uint16_t)(m & 0x3FF));
}

uint16_t wire_float16_from_double(double d) {
  return wire__f16_narrow(f64_bits(d));
}

uint16_t wire_float16_from_float(float f) {
  /* widened bit for bit, then rounded once: float -> double is exact */
  return wire__f16_narrow(wire__f32_widen(f32_bits(f)));
}

double wire_float16_to_double(uint16_t h) {
  uint64_t u = wire__f16_widen(h);
  double r;
  memcpy(&r, &u, 8);
  return r;
}

float wire_float16_to_float(uint16_t h) {
  return bits_f32(wire__f32_narrow(wire__f16_widen(h))); /* exact */
}

uint16_t wire_bfloat16_from_float(float f) {
  uint32_t u = f32_bits(f);
  if ((u & 0x7F800000) == 0x7F800000 && (u & 0x7FFFFF)) {
    /* a NaN: sign, quiet bit and top 7 payload bits; quiet if none is set */
    return (uint16_t)((u >> 16) | ((u & 0x7F0000) ? 0 : 0x0040));
  }
  uint32_t lsb = (u >> 16) & 1;
  u += 0x7FFF + lsb;
  return (uint16_t)(u >> 16);
}

float wire_bfloat16_to_float(uint16_t b) { return bits_f32((uint32_t)b << 16); }

/* Rounds the double of bits u to 8 significant bits directly (no double
 * rounding through float); a NaN as in wire__f16_narrow (7 payload bits). */
/* Implements R-FLOAT-2. */
uint16_t wire__bf16_narrow(uint64_t u) {
  uint16_t sign = (uint16_t)((u >> 48) & 0x8000);
  int exp = (int)((u >> 52) & 0x7FF);
  uint64_t man = u & UINT64_C(0xFFFFFFFFFFFFF);
  if (exp == 0x7FF) {
    uint16_t m = (uint16_t)(man >> 45);
    if (man && !m) m = 0x40; /* a NaN with no top payload bit: quiet */
    return (uint16_t)(sign | 0x7F80 | m);
  }
  if (exp == 0) return sign;
  int e = exp - 1023;
  uint64_t full = man | (UINT64_C(1) << 52);
  int shift;
  int hexp;
  if (e >= -126) {
    shift = 52 - 7;
    hexp = e + 127;
  } else {
    shift = 52 - 7 + (-126 - e);
    hexp = 0;
  }
  uint64_t m;
  if (shift >= 64) {
    m = 0;
  } else {
    m = full >> shift;
    uint64_t rem = full & ((UINT64_C(1) << shift) - 1);
    uint64_t half = UINT64_C(1) << (shift - 1);
    if (rem > half || (rem == half && (m & 1))) m++;
  }
  if (hexp == 0) return (uint16_t)(sign | m);
  if (m >= 256) {
    m >>= 1;
    hexp++;
  }
  if (hexp >= 255) return sign | 0x7F80;
  return (uint16_t)(sign | (uint16_t)(hexp << 7) | (uint16_t)(m & 0x7F));
}

uint16_t wire_bfloat16_from_double(double d) {
  return wire__bf16_narrow(f64_bits(d));
}

/* MurmurHash3 x86 32-bit, seed 0: foryc's auto type ids
 * (fory_compiler/ir/type_id.py). */
static uint32_t rotl32_(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}
/* Implements R-FDL-5. */
uint32_t wire__murmur3_x86_32(const uint8_t *d, size_t n) {
  const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
  uint32_t h = 0, k;
  size_t nb = n / 4;
  for (size_t i = 0; i < nb; i++) {
    const uint8_t *q = d + 4 * i;
    k = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
        (uint32_t)q[3] << 24;
    k *= c1;
    k = rotl32_(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32_(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  const uint8_t *t = d + 4 * nb;
  k = 0;
  if ((n & 3) == 3) k ^= (uint32_t)t[2] << 16;
  if ((n & 3) >= 2) k ^= (uint32_t)t[1] << 8;
  if ((n & 3) >= 1) {
    k ^= t[0];
    k *= c1;
    k = rotl32_(k, 15);
    k *= c2;
    h ^= k;
  }
  h ^= (uint32_t)n;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}
