/* internal.h - shared definitions of libwire's sources. Not installed. */
#ifndef WIRE_INTERNAL_H
#define WIRE_INTERNAL_H

#include "wire.h"
#include "mutant.h"

#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define WIRE_LIKELY(x) __builtin_expect(!!(x), 1)
#define WIRE_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Starts the file's .text `at` bytes past a 64-byte boundary of the
 * library (0 <= at < 64; used at the top of a file, before any function:
 * the assembler raises the section's alignment to 64 and pads only `at`
 * bytes, the file's code stays as it is). Without it, where a file's hot
 * loops fall within the 32- and 64-byte fetch windows depends on the
 * sizes of the objects linked before it, and so moves with changes
 * elsewhere: the tape decoder's list loop cost 7 % of list_mixed_1000's
 * decode in half of the places (bindings/kotlin/ROUNDS.md, round 51,
 * which measured the values used). GCC and clang put top-level asm
 * before the file's functions; `make text-align-check` checks the
 * objects. */
#if defined(__GNUC__) && defined(__ELF__)
#define WIRE_TEXT_ALIGN64(at)                                           \
  __asm__(".text\n\t.p2align 6\n\t.if " #at "\n\t.skip " #at ", 0xcc" \
          "\n\t.endif")
#else
#define WIRE_TEXT_ALIGN64(at) struct wire__text_align64_unused
#endif

/* ---- Context ---------------------------------------------------------- */

/* One out-of-band buffer. */
typedef struct {
  const uint8_t *p;
  size_t len;
} wire_oob;

struct wire_ctx {
  wire_malloc_fn malloc_fn;
  wire_realloc_fn realloc_fn;
  wire_free_fn free_fn;
  void *user;
  bool ref_tracking;
  bool compatible;
  bool trusted_text;     /* WIRE_OPT_TRUSTED_TEXT */
  uint8_t string_policy; /* WIRE_OPT_STRING_POLICY */
  uint8_t peer;          /* WIRE_OPT_PEER */
  bool project_strict;   /* WIRE_OPT_PROJECT_STRICT */
  uint32_t gen_mode;     /* WIRE_GEN_* of the options above */
  bool oob;              /* WIRE_OPT_OUT_OF_BAND */
  uint64_t oob_min;      /* WIRE_OPT_OOB_MIN_BYTES */
  /* Out-of-band buffers (spec 1.12): those decodes read (copies of the
   * caller's arrays; the bytes are the caller's), how many the last decode
   * read, and those the last encode wrote (pointing into its values). */
  wire_oob *oob_in;
  size_t n_oob_in, oob_used;
  wire_oob *oob_out;
  size_t n_oob_out, oob_out_cap;
  /* wire_schema_add_import_dir: where FDL imports are looked for after the
   * importing file's directory (foryc -I), each NUL-terminated */
  char **import_dirs;
  uint32_t n_import_dirs;
  /* wire_schema_warning: what the last FDL load warned about, each
   * NUL-terminated (fdl.c) */
  char **fdl_warnings;
  size_t n_fdl_warnings;
  uint32_t max_depth;
  uint64_t max_binary;
  uint64_t max_collection;
  uint64_t max_nodes;
  uint64_t max_decimal_bytes;
  uint64_t max_roots;
  uint64_t max_typedef_bytes;
  uint64_t max_typedef_fields;
  uint64_t max_typedef_cache; /* entries of the incoming TypeDef cache */
  int32_t err_code;
  uint64_t err_offset;
  char err_msg[256];
  /* Scratch reused across calls so steady-state decoding does not call the
   * allocator per message. */
  void **refs;      /* reference table: decoded nodes by ref id */
  size_t refs_cap;
  struct wire_registry_s *reg; /* user types (schema.h), NULL if none */
  struct wire_tape_scratch *tape; /* tape codec scratch (tape_rec.h) */
  struct wire_mem_s *mem; /* native memory layouts (mem.h), NULL if none */
  struct wire_tdcache *tdc; /* incoming TypeDefs (schema.h), or NULL */
  /* Kept from one call to the next (up to a size), so that steady-state
   * encoding and decoding do not call the allocator: an emptied document
   * with its newest arena block, one output block (of wire_ctx_free_bytes),
   * and the per-call tables of the encoder and the decoder. */
  struct wire_doc *spare_doc;
  uint8_t *spare_out;
  size_t spare_out_cap;
  struct {
    void *marked, *tds, *tdn, *ms;
    size_t marked_cap, tds_cap, tdn_cap, ms_cap;
  } enc_keep;
  struct {
    void *ms, *tds;
    size_t ms_cap, tds_cap;
  } dec_keep;
  /* WIRE_LIMIT_MEM_DECODE: arena bytes per input byte (mem_dec); last, so
   * that the fields before keep their offsets (the Go struct ratios move
   * with them) */
  uint64_t max_mem_decode;
  /* WIRE_LIMIT_TYPEDEF_CACHE_BYTES: bytes the TypeDef cache may keep */
  uint64_t max_typedef_cache_bytes;
};

/* Frees what the context keeps between calls (ctx.c; the tables by
 * policy.c and decode_state.c, which know their element sizes). */
void wire__ctx_release_spares(wire_ctx *ctx);
void wire__enc_keep_free(wire_ctx *ctx);
void wire__dec_keep_free(wire_ctx *ctx);
/* An output block for an encoder: ctx->spare_out when there is one, else a
 * new one of `want` bytes; *cap gets its size. NULL if out of memory. */
uint8_t *wire__out_take(wire_ctx *ctx, size_t want, size_t *cap);
/* Turns an output block p[0..cap) whose bytes start at p + WIRE_OUT_PREFIX
 * into a wire_ctx_free_bytes block. */
#define WIRE_OUT_PREFIX 16 /* = ctx.c's BYTES_PREFIX */
uint8_t *wire__out_finish(uint8_t *p, size_t cap);

void *wire__alloc(wire_ctx *ctx, size_t size);
void *wire__realloc(wire_ctx *ctx, void *p, size_t old_size, size_t size);
void wire__free(wire_ctx *ctx, void *p, size_t size);
/* Records an error on the context and returns code (cold: the branches to
 * it are laid out apart from the hot code). */
int32_t wire__fail(wire_ctx *ctx, int32_t code, uint64_t offset,
                   const char *fmt, ...)
    __attribute__((cold, format(printf, 4, 5)));
/* Allocates a block released by wire_ctx_free_bytes (size kept in front). */
uint8_t *wire__bytes_alloc(wire_ctx *ctx, size_t size);
int32_t wire__refs_reserve(wire_ctx *ctx, size_t n);
/* Frees the warnings of the last FDL load (fdl.c). */
void wire__fdl_warnings_free(wire_ctx *ctx);
/* Frees the out-of-band buffer tables of the context (oob.c). */
void wire__oob_free(wire_ctx *ctx);
/* Frees the native memory layouts of the context (mem_layout.c). */
void wire__mem_free(wire_ctx *ctx);
/* Fills out[0..n) with secret random words from the operating system
 * (getrandom(2) on Linux, arc4random_buf on the BSDs and macOS), else with
 * addresses, `where` among them, the clock and a counter, mixed
 * (os_random.c). For hash keys only: never fails. */
void wire__os_random(uint64_t *out, size_t n, const void *where);
#ifdef WIRE_FUZZ_KEYS
/* Fuzz builds only (os_random.c): the one key of every keyed table. */
uint64_t wire__fuzz_key(void);
#endif
/* MurmurHash3 x86 32-bit with seed 0 (primitives.c): the type ids foryc
 * generates from names (fdl_resolve.c). The 128-bit x64 variant is public. */
uint32_t wire__murmur3_x86_32(const uint8_t *d, size_t n);

/* ---- Growable output buffer ------------------------------------------- */

typedef struct {
  wire_ctx *ctx;
  uint8_t *p;
  size_t len, cap;
  bool fixed;     /* caller-owned storage: never grows */
  int32_t status; /* sticky */
} wire_buf;

int32_t wire__buf_grow(wire_buf *b, size_t extra) __attribute__((cold));

/* The streaming writer (stream.c): a buffer, and the size needed so far
 * once a caller's fixed buffer has overflowed. */
struct wire_writer {
  wire_buf b;
  size_t needed;
};

static inline bool wire__buf_room(wire_buf *b, size_t n) {
  if (WIRE_LIKELY(b->cap - b->len >= n && b->status == WIRE_OK)) return true;
  return wire__buf_grow(b, n) == WIRE_OK;
}
/* Copies n bytes (no overlap). Large copies whose destination lies 1-15
 * bytes past the source modulo 64 go through wire__copy_far: there the
 * `rep movsb` that glibc's memcpy uses for them runs at a tenth of its
 * speed on AMD Zen (3.5 GB/s instead of 45 on an 800 KB copy). */
void wire__copy_far(uint8_t *d, const uint8_t *s, size_t n);
static inline void wire__copy(void *d, const void *s, size_t n) {
  if (WIRE_UNLIKELY(n >= 4096) &&
      ((((uintptr_t)d - (uintptr_t)s) & 63) - 1) < 15) {
    wire__copy_far((uint8_t *)d, (const uint8_t *)s, n);
    return;
  }
  memcpy(d, s, n);
}
/* The same without a call when n is at most 32 (the common string):
 * overlapping word moves that touch no byte outside d[0..n), s[0..n). */
static inline void wire__copy_short(void *d, const void *s, size_t n) {
  uint8_t *q = (uint8_t *)d;
  const uint8_t *p = (const uint8_t *)s;
  if (n <= 16) {
    if (n >= 8) {
      uint64_t a, z;
      memcpy(&a, p, 8);
      memcpy(&z, p + n - 8, 8);
      memcpy(q, &a, 8);
      memcpy(q + n - 8, &z, 8);
    } else if (n >= 4) {
      uint32_t a, z;
      memcpy(&a, p, 4);
      memcpy(&z, p + n - 4, 4);
      memcpy(q, &a, 4);
      memcpy(q + n - 4, &z, 4);
    } else if (n) {
      uint8_t a = p[0], m = p[n / 2], z = p[n - 1];
      q[0] = a;
      q[n / 2] = m;
      q[n - 1] = z;
    }
  } else if (n <= 32) {
    uint64_t a, b, y, z;
    memcpy(&a, p, 8);
    memcpy(&b, p + 8, 8);
    memcpy(&y, p + n - 16, 8);
    memcpy(&z, p + n - 8, 8);
    memcpy(q, &a, 8);
    memcpy(q + 8, &b, 8);
    memcpy(q + n - 16, &y, 8);
    memcpy(q + n - 8, &z, 8);
  } else {
    wire__copy(d, s, n);
  }
}
/* Copies s[0..len) to out (no overlap); whether it was all ASCII (then
 * it is valid in every encoding and its UTF-8, Latin-1 forms are the
 * bytes themselves). Up to 64 bytes without a loop, in overlapping moves
 * that touch no byte outside out[0..len), s[0..len). */
static inline bool wire__copy_ascii(uint8_t *out, const uint8_t *s,
                                    size_t len) {
#if defined(__SSE2__)
  if (len >= 16) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i z = _mm_loadu_si128((const __m128i *)(const void *)(s + len - 16));
    _mm_storeu_si128((__m128i *)(void *)out, a);
    _mm_storeu_si128((__m128i *)(void *)(out + len - 16), z);
    a = _mm_or_si128(a, z);
    for (size_t i = 16; i + 16 < len; i += 16) {
      __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
      _mm_storeu_si128((__m128i *)(void *)(out + i), x);
      a = _mm_or_si128(a, x);
    }
    return !_mm_movemask_epi8(a);
  }
#else
  if (len >= 16) {
    uint64_t w, acc = 0;
    for (size_t i = 0; i + 8 < len; i += 8) {
      memcpy(&w, s + i, 8);
      memcpy(out + i, &w, 8);
      acc |= w;
    }
    memcpy(&w, s + len - 8, 8);
    memcpy(out + len - 8, &w, 8);
    return !((acc | w) & UINT64_C(0x8080808080808080));
  }
#endif
  if (len >= 8) {
    uint64_t a, z;
    memcpy(&a, s, 8);
    memcpy(&z, s + len - 8, 8);
    memcpy(out, &a, 8);
    memcpy(out + len - 8, &z, 8);
    return !((a | z) & UINT64_C(0x8080808080808080));
  }
  if (len >= 4) {
    uint32_t a, z;
    memcpy(&a, s, 4);
    memcpy(&z, s + len - 4, 4);
    memcpy(out, &a, 4);
    memcpy(out + len - 4, &z, 4);
    return !((a | z) & 0x80808080u);
  }
  if (len) { /* 1-3 bytes: the first, the middle and the last */
    uint8_t a = s[0], m = s[len / 2], z = s[len - 1];
    out[0] = a;
    out[len / 2] = m;
    out[len - 1] = z;
    return !((a | m | z) & 0x80);
  }
  return true;
}
static inline void wire__put_u8(wire_buf *b, uint8_t v) {
  if (wire__buf_room(b, 1)) b->p[b->len++] = v;
}
static inline void wire__put_bytes(wire_buf *b, const void *p, size_t n) {
  if (n && wire__buf_room(b, n)) {
    wire__copy(b->p + b->len, p, n);
    b->len += n;
  }
}
static inline void wire__put_le(wire_buf *b, uint64_t v, int n) {
  if (wire__buf_room(b, 8)) {
    uint8_t *q = b->p + b->len;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(q, &v, 8); /* (room for 8; the bytes past n are not kept) */
#else
    for (int i = 0; i < n; i++) q[i] = (uint8_t)(v >> (8 * i));
#endif
#ifdef WIRE_MUTANTS /* the hot helpers stay as they are in real builds */
    if (WIRE_MUTANT(big_endian))
      for (int i = 0; i < n; i++) q[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
#endif
    b->len += (size_t)n;
  }
}
/* Raw writers: the encoding of v at q, which has room (5, 9 or 5
 * bytes); they return the number of bytes written. */
static inline size_t wire__varu32_at(uint8_t *q, uint32_t v) {
  /* unrolled: one comparison per byte */
  if (v < 0x80) {
    q[0] = (uint8_t)v;
    return 1;
  }
  q[0] = (uint8_t)(v | 0x80);
  if (v < 0x4000) {
    q[1] = (uint8_t)(v >> 7);
    return 2;
  }
  q[1] = (uint8_t)(v >> 7 | 0x80);
  if (v < 0x200000) {
    q[2] = (uint8_t)(v >> 14);
    return 3;
  }
  q[2] = (uint8_t)(v >> 14 | 0x80);
  if (v < 0x10000000) {
    q[3] = (uint8_t)(v >> 21);
    return 4;
  }
  q[3] = (uint8_t)(v >> 21 | 0x80);
  q[4] = (uint8_t)(v >> 28);
  return 5;
}
static inline size_t wire__varu64_at(uint8_t *q, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80 && n < 8) { q[n++] = (uint8_t)(v | 0x80); v >>= 7; }
  q[n++] = (uint8_t)v;
  return n;
}
static inline size_t wire__varu36_at(uint8_t *q, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80 && n < 4) { q[n++] = (uint8_t)(v | 0x80); v >>= 7; }
  q[n++] = (uint8_t)v;
  return n;
}

static inline void wire__put_varu32(wire_buf *b, uint32_t v) {
  if (!wire__buf_room(b, 5)) return;
#ifdef WIRE_MUTANTS
  if (WIRE_MUTANT(varint_padded) && v < 0x80) { /* an overlong 2-byte form */
    b->p[b->len++] = (uint8_t)(v | 0x80);
    b->p[b->len++] = 0;
    return;
  }
#endif
  b->len += wire__varu32_at(b->p + b->len, v);
}
/* varuint64 ("PVL"): LEB128 for up to 8 bytes; a 9th byte carries the top
 * 8 bits whole. */
static inline void wire__put_varu64(wire_buf *b, uint64_t v) {
#ifdef WIRE_MUTANTS
  if (!wire__buf_room(b, WIRE_MUTANT(pvl_leb128) ? 10 : 9)) return;
  if (WIRE_MUTANT(pvl_leb128)) { /* plain LEB128, up to 10 bytes */
    while (v >= 0x80) { b->p[b->len++] = (uint8_t)(v | 0x80); v >>= 7; }
    b->p[b->len++] = (uint8_t)v;
    return;
  }
#else
  if (!wire__buf_room(b, 9)) return;
#endif
  b->len += wire__varu64_at(b->p + b->len, v);
}
/* String header: varuint36_small, LEB128 with a 5th byte of 8 bits. */
static inline void wire__put_varu36(wire_buf *b, uint64_t v) {
#ifdef WIRE_MUTANTS
  if (WIRE_MUTANT(str_encoding_3) && (v & 3) == 2) v |= 3;
#endif
  if (!wire__buf_room(b, 5)) return;
#ifdef WIRE_MUTANTS
  if (WIRE_MUTANT(v36_padded) && v < 0x80) { /* an overlong 2-byte form */
    b->p[b->len++] = (uint8_t)(v | 0x80);
    b->p[b->len++] = 0;
    return;
  }
#endif
  b->len += wire__varu36_at(b->p + b->len, v);
}
static inline uint32_t wire__zz32(int32_t v) {
  return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
}
static inline uint64_t wire__zz64(int64_t v) {
  return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int32_t wire__unzz32(uint32_t v) {
  return (int32_t)((v >> 1) ^ (~(v & 1) + 1));
}
static inline int64_t wire__unzz64(uint64_t v) {
  return (int64_t)((v >> 1) ^ (~(v & 1) + 1));
}
static inline void wire__put_tagged_i64(wire_buf *b, int64_t v) {
#ifdef WIRE_MUTANTS
  int short_bits = WIRE_MUTANT(tagged_wide_short) ? 31 : 30;
#else
  enum { short_bits = 30 };
#endif
  if (v >= -(INT64_C(1) << short_bits) && v < (INT64_C(1) << short_bits)) {
    wire__put_le(b, (uint32_t)((uint32_t)(int32_t)v << 1), 4);
  } else {
    wire__put_u8(b, 1);
    wire__put_le(b, (uint64_t)v, 8);
  }
}
static inline void wire__put_tagged_u64(wire_buf *b, uint64_t v) {
  if (v < (UINT64_C(1) << 31)) {
    wire__put_le(b, (uint32_t)v << 1, 4);
  } else {
    wire__put_u8(b, 1);
    wire__put_le(b, v, 8);
  }
}

/* Byte equality that accepts NULL for empty spans (memcmp does not). */
static inline bool wire__eq(const void *a, const void *b, size_t n) {
  return n == 0 || memcmp(a, b, n) == 0;
}

/* ---- Input cursor ------------------------------------------------------ */

/* All reads check `n <= end - p` before touching memory. On failure they
 * record the error on the context and return false; the cursor does not
 * move past the end. */
typedef struct {
  wire_ctx *ctx;
  const uint8_t *base, *p, *end;
} wire_in;

static inline uint64_t wire__off(const wire_in *in, const uint8_t *p) {
  return (uint64_t)(p - in->base);
}
bool wire__truncated(wire_in *in, size_t need);
bool wire__bad_varint(wire_in *in, const uint8_t *start, const char *what);

static inline bool wire__get_u8(wire_in *in, uint8_t *v) {
  if (WIRE_UNLIKELY(in->p >= in->end)) {
    *v = 0;
    return wire__truncated(in, 1);
  }
  *v = *in->p++;
  return true;
}
static inline bool wire__get_le(wire_in *in, int n, uint64_t *v) {
  if (WIRE_UNLIKELY((size_t)(in->end - in->p) < (size_t)n)) {
    *v = 0;
    return wire__truncated(in, (size_t)n);
  }
  uint64_t r = 0;
  for (int i = 0; i < n; i++) r |= (uint64_t)in->p[i] << (8 * i);
  in->p += n;
  *v = r;
  return true;
}
bool wire__get_varu32_slow(wire_in *in, uint32_t *v);
static inline bool wire__get_varu32(wire_in *in, uint32_t *v) {
  if (WIRE_LIKELY(in->p < in->end && in->p[0] < 0x80)) {
    *v = *in->p++;
    return true;
  }
  *v = 0;
  return wire__get_varu32_slow(in, v);
}
bool wire__get_varu64(wire_in *in, uint64_t *v);
bool wire__get_varu36(wire_in *in, uint64_t *v);
bool wire__get_tagged_i64(wire_in *in, int64_t *v);
bool wire__get_tagged_u64(wire_in *in, uint64_t *v);
static inline bool wire__get_bytes(wire_in *in, uint64_t n,
                                   const uint8_t **out) {
  if (WIRE_UNLIKELY((uint64_t)(in->end - in->p) < n)) {
    *out = NULL;
    return wire__truncated(in, (size_t)n);
  }
  *out = in->p;
  in->p += n;
  return true;
}

/* ---- Text -------------------------------------------------------------- */

/* Returns the byte offset of the first invalid sequence, or len if valid. */
size_t wire__utf8_check(const uint8_t *s, size_t len);
/* wire__utf8_check without its first pass over ASCII text: for text known
 * not to be all ASCII, and inline (R-STR-3). */
static inline __attribute__((always_inline)) size_t
wire__utf8_scan(const uint8_t *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    /* ASCII, 8 bytes at a time; the first other byte found from the mask */
    if (i + 8 <= len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      uint64_t m = w & UINT64_C(0x8080808080808080);
      if (!m) {
        i += 8;
        continue;
      }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
      i += (size_t)__builtin_ctzll(m) >> 3;
#else
      while (s[i] < 0x80) i++;
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    } else if (len >= 8) {
      /* the tail: the last word, without its bytes before i */
      uint64_t w;
      memcpy(&w, s + len - 8, 8);
      uint64_t m = (w & UINT64_C(0x8080808080808080)) >> (8 * (i - (len - 8)));
      if (!m) return len;
      i += (size_t)__builtin_ctzll(m) >> 3;
#endif
    } else if (s[i] < 0x80) {
      i++;
      continue;
    }
    /* A sequence of RFC 3629: the lead byte gives its length and the
     * range of its second byte (no overlong forms, no surrogates, nothing
     * past U+10FFFF); the other bytes are continuation bytes. */
    uint8_t c = s[i], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
      n = 3;
      if (c == 0xE0) lo = 0xA0;
      else if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 4;
      if (c == 0xF0) lo = 0x90;
      else if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (len - i < n || s[i + 1] < lo || s[i + 1] > hi) return i;
    if (n > 2 && (s[i + 2] & 0xC0) != 0x80) return i;
    if (n > 3 && (s[i + 3] & 0xC0) != 0x80) return i;
    i += n;
  }
  return len;
}

/* Same for UTF-16LE code units (len bytes, even). */
size_t wire__utf16_check(const uint8_t *s, size_t len);
/* UTF-8 length of wire string bytes in an encoding. */
size_t wire__string_utf8_len(int32_t enc, const uint8_t *s, size_t len);
/* Writes the UTF-8 form into out (enough room assumed). */
size_t wire__string_to_utf8(int32_t enc, const uint8_t *s, size_t len,
                            uint8_t *out);
/* Transcodes valid UTF-8 into wire bytes of `enc` (room: latin1 len, utf16
 * 2*len, utf8 len). Returns bytes written, or SIZE_MAX if the text cannot be
 * written in that encoding. */
size_t wire__utf8_to_string(int32_t enc, const uint8_t *s, size_t len,
                            uint8_t *out);
/* Text in wire encoding `from` re-encoded in `to`: the byte length (exact
 * for valid text), and the bytes (at most cap of them; for valid text
 * exactly the length). Bounds-safe on text nobody checked. */
size_t wire__transcode_len(int32_t from, int32_t to, const uint8_t *s,
                           size_t len);
size_t wire__transcode(int32_t from, int32_t to, const uint8_t *s, size_t len,
                       uint8_t *out, size_t cap);
/* Length of the ASCII prefix of s. */
size_t wire__ascii_prefix(const uint8_t *s, size_t len);
/* The Java runtime's encoding choice (R-WSTR-1) for text given in `enc`. */
int32_t wire__java_encoding_of(int32_t enc, const uint8_t *s, size_t len);
/* Its choice for text not all below U+0100 from the text's first UTF-16
 * units (at most 64): WIRE_STR_UTF8 or WIRE_STR_UTF16. */
int32_t wire__java_sample(const uint16_t *units, size_t nunits);

/* ---- Meta strings ------------------------------------------------------ */

#define WIRE_MS_MAX_CHARS 32767

/* ---- Arena ------------------------------------------------------------- */

typedef struct wire_block {
  struct wire_block *next;
  size_t size;
} wire_block;

typedef struct {
  wire_ctx *ctx;
  wire_block *head;
  uint8_t *p, *end;
  size_t next_size;
  size_t total; /* bytes of the blocks allocated since the last reset */
  /* 0, or the length of the input a decoder is filling the arena from:
   * new blocks then stay in proportion to it (arena.c, spec R-SEC-9) */
  size_t input_len;
} wire_arena;

void *wire__arena_alloc_slow(wire_arena *a, size_t size);
static inline void *wire__arena_alloc(wire_arena *a, size_t size) {
  size = (size + 7) & ~(size_t)7;
  if (WIRE_LIKELY((size_t)(a->end - a->p) >= size)) {
    void *r = a->p;
    a->p += size;
    return r;
  }
  return wire__arena_alloc_slow(a, size);
}
void wire__arena_free(wire_arena *a);
/* Frees every block but the newest (kept, emptied, when not larger than
 * keep_max): an arena to be used again. */
void wire__arena_reset(wire_arena *a, size_t keep_max);

/* ---- Growable arrays (arena.c) ------------------------------------------
 * The one growth rule: when element n does not fit in *cap, the capacity
 * doubles (from `first`) until it does. Both return the array (p itself
 * when it had room); wire__grow reallocates through the context's
 * allocator, wire__arena_grow copies the n elements into arena memory.
 * NULL (p and *cap untouched) when memory runs out. */
void *wire__grow(wire_ctx *ctx, void *p, size_t *cap, size_t n, size_t elem,
                 size_t first);
void *wire__arena_grow(wire_arena *a, void *p, uint32_t *cap, uint32_t n,
                       size_t elem, uint32_t first);

/* ---- Document ---------------------------------------------------------- */

/* node.flags */
#define WIRE_NF_TRACK_SET 0x01  /* tracked state recorded */
#define WIRE_NF_TRACKED 0x02    /* written with REF_VALUE */
#define WIRE_NF_HDR_SET 0x04    /* list header / string enc recorded */
#define WIRE_NF_NEGATIVE 0x08   /* decimal sign */
#define WIRE_NF_NAMES_SET 0x10  /* named enum encodings recorded */
#define WIRE_NF_ELEM_SET 0x20   /* list element type recorded */
#define WIRE_NF_TYPED 0x40      /* struct/enum/union value written with its
                                   type meta (a slot of undeclared type) */
#define WIRE_NF_OOB_ROOT 0x80   /* a root written with header 03 (out-of-band
                                   buffers announced) */
/* The recorded band of a binary or dense array node (kept in `a`, which
 * those kinds do not use otherwise): 0 none, WIRE_NB_IN, WIRE_NB_OUT. */
#define WIRE_NB_IN 1
#define WIRE_NB_OUT 2

typedef struct {
  const uint8_t *ns, *name;
  uint32_t ns_len, name_len;
  /* Hash form of a name longer than 16 bytes: 0 = the Java runtime's
   * (absolute value of the murmur lane), 1 = pyfory's (the lane as is). */
  uint8_t ns_hash_form, name_hash_form;
  /* Written as a reference to a name announced in the other role (a type
   * name referring to an equal namespace, as pyfory does). */
  uint8_t ns_xref, name_xref;
  /* Announced again although an equal name was announced before in this
   * root (Fory Go does this); a writer normally refers to it instead. */
  uint8_t ns_again, name_again;
  /* The meta string table entry (index + 1) a reference named, 0 if the
   * name was announced: several equal entries may exist (names announced
   * again), so the writer refers to the same one. */
  uint32_t ns_ref, name_ref;
  /* The TypeDef these names came from (compatible mode), or NULL. */
  const struct wire_layout *layout;
} wire_names;

/* The 64-bit hash announcing a meta string longer than 16 bytes. */
uint64_t wire__ms_hash(const uint8_t *p, size_t len, uint8_t enc, int form);

typedef struct {
  uint32_t n, cap;
  uint16_t c[]; /* header << 8 | count */
} wire_chunks;

/* A node is 20 bytes: a tag (kind, flags, two bytes of wire choices), its
 * creation index, one 32-bit value and one 64-bit value. What does not fit
 * lives in a body in the document's arena (containers, structs, unions,
 * decimals), so that a decoded node costs little more than the bytes it
 * came from (issue 9: peak heap <= 32 x input + 64 KiB). Nodes are 4-byte
 * aligned (a node arena of their own); the 64-bit value is read unaligned
 * (never take its address). */
typedef struct wire_lbody {  /* LIST, SET: small = count */
  uint32_t cap, pad_;
  wire_node *items[];
} wire_lbody;
typedef struct wire_mbody {  /* MAP: small = entry count */
  wire_chunks *chunks;       /* recorded chunks, or NULL (writer policy) */
  uint32_t cap, pad_;
  wire_node *kv[];           /* key, value pairs: 2 * cap */
} wire_mbody;
typedef struct wire_smeta { /* a struct's layout with its names */
  struct wire_layout *layout; /* first, as wire_layout's `self` */
  wire_names *names;
} wire_smeta;
typedef struct wire_sbody {  /* STRUCT kinds: small = field values set */
  /* The layout itself (no names, the usual case) or a wire_smeta (layout
   * and names): one word, so that a struct of one field costs 16 bytes of
   * body (issue 9). Both start with a pointer to the layout (wire_layout's
   * `self`), so reading it costs one load more and no branch. Read
   * through wire__sb_layout / wire__sb_names. */
  const void *meta;
  wire_node *fields[];       /* in wire order, layout->nfields */
} wire_sbody;
static inline struct wire_layout *wire__meta_layout(const void *m) {
  return *(struct wire_layout *const *)m;
}
static inline wire_names *wire__meta_names(const void *m) {
  return m == (const void *)wire__meta_layout(m)
             ? NULL
             : ((const wire_smeta *)m)->names;
}
static inline struct wire_layout *wire__sb_layout(const wire_sbody *b) {
  return wire__meta_layout(b->meta);
}
static inline wire_names *wire__sb_names(const wire_sbody *b) {
  return wire__meta_names(b->meta);
}
/* A struct decoded lazily (issue 9; decode_lazy.c): a decoded document
 * whose heap passes its budget keeps the structs it reads from then on,
 * validated in full, as a node whose 64-bit value is a pointer to this
 * record with bit 0 set (WIRE_ST_LAZY) and whose `small` is the offset of
 * its field bytes in the input; the fields are decoded again, into the
 * body, on first access (wire__st_open). The record starts with the
 * body's meta word, so that the layout and names read the same way. */
typedef struct wire_lazy_src {
  wire_doc *doc;
  /* the input the structs were read from, and the context's options they
   * were validated under (restored while their fields are decoded) */
  const uint8_t *in;
  size_t len;
  struct wire_lazy_opts {
    bool ref_tracking, compatible;
    uint8_t peer;
    uint32_t max_depth;
    uint64_t max_binary, max_collection, max_nodes, max_decimal_bytes;
  } opts;
} wire_lazy_src;             /* one per document that has lazy structs */
typedef struct wire_lazy {
  const void *meta; /* as wire_sbody's */
  wire_lazy_src *src;
} wire_lazy;
#define WIRE_ST_LAZY 1u
/* The meta word of a body of layout l with names nm: l itself without
 * names, else *sm (filled here; it must outlive the body). */
static inline const void *wire__sb_meta(struct wire_layout *l,
                                        wire_names *nm, wire_smeta *sm) {
  if (!nm) return l;
  sm->layout = l;
  sm->names = nm;
  return sm;
}
typedef struct wire_ubody {  /* UNION kinds: small = case id */
  wire_node *value;
  wire_names *names;
  uint32_t user_id, reg;
} wire_ubody;
typedef struct wire_dbody {  /* DECIMAL: small = scale */
  const uint8_t *mag;
  uint32_t len;
} wire_dbody;

struct __attribute__((packed, aligned(4))) wire_node {
  uint8_t type;   /* WIRE_T_* */
  uint8_t flags;  /* WIRE_NF_* */
  uint8_t a;      /* string encoding, list header, ns encoding */
  uint8_t b;      /* list element type, name encoding */
  uint32_t index; /* creation order within the document */
  /* nanos, enum value, decimal scale, item count, byte length, union case */
  uint32_t small;
  union {
    int64_t i;
    uint64_t u;
    const uint8_t *p;    /* STRING, BINARY, arrays (small = byte length) */
    wire_lbody *list;    /* NULL while empty */
    wire_mbody *map;     /* NULL while empty and without chunks */
    wire_sbody *st;
    wire_ubody *un;
    wire_dbody *dec;
    uint32_t en;         /* ENUM: user type id */
    wire_names *names;   /* NAMED_ENUM */
  } v;
};
_Static_assert(sizeof(wire_node) == 20, "a node is 20 bytes");

struct wire_doc {
  wire_ctx *ctx;
  wire_arena arena;      /* bytes, bodies, names */
  wire_arena nodes;      /* nodes only (4-byte aligned) */
  wire_node **roots;     /* roots_small until more roots are added */
  uint32_t nroots, roots_cap;
  wire_node *roots_small[4];
  uint32_t nnodes;
  wire_node *null;       /* the null the decoder shares (created once) */
  uint64_t tdc_pin;      /* holds layouts of the context's TypeDef cache:
                            1 + the cache's count of flushes and
                            turnovers when it took the first (schema.h:
                            wire__tdcache_pin), or 0 */
};

/* Items of a list/set, key-value pairs of a map, fields of a struct (none
 * while empty). */
static inline wire_node **wire__items(const wire_node *n) {
  wire_lbody *b = n->v.list;
  return b ? b->items : NULL;
}
/* The user element type an all-null list was read with (decode.c
 * keep_elem_type): a node of that type holding its type meta only, kept by
 * the list's first element, a null of its own (other nulls have no 64-bit
 * value); NULL for any other list. */
static inline const wire_node *wire__list_elem_type(const wire_node *n) {
  wire_node **it = wire__items(n);
  return it && n->small && it[0]->type == WIRE_T_NULL
             ? (const wire_node *)(uintptr_t)it[0]->v.u
             : NULL;
}
static inline wire_node **wire__kv(const wire_node *n) {
  wire_mbody *b = n->v.map;
  return b ? b->kv : NULL;
}
static inline wire_chunks *wire__chunks(const wire_node *n) {
  wire_mbody *b = n->v.map;
  return b ? b->chunks : NULL;
}
/* The meta word of a struct node, lazy or not (the body's, or the lazy
 * record's first word). */
static inline const void *wire__st_meta(const wire_node *n) {
  return *(const void *const *)(uintptr_t)(n->v.u & ~(uint64_t)WIRE_ST_LAZY);
}
static inline struct wire_layout *wire__st_layout(const wire_node *n) {
  return wire__meta_layout(wire__st_meta(n));
}
static inline wire_names *wire__st_names(const wire_node *n) {
  return wire__meta_names(wire__st_meta(n));
}
/* A struct node's fields (its `small` and v.st) are read only after
 * wire__st_open: a lazy struct's fields are decoded then (false: out of
 * memory, recorded on the document's context; the node stays lazy). */
bool wire__st_materialise(wire_node *n);
static inline bool wire__st_open(const wire_node *n) {
  return WIRE_LIKELY(!(n->v.u & WIRE_ST_LAZY)) ||
         wire__st_materialise((wire_node *)(uintptr_t)n);
}
static inline wire_node **wire__st_fields(const wire_node *n) {
  return n->v.st->fields;
}

/* A node of `type` with its two values set, from the node page's room
 * (the caller checked it), in whole-word stores (no zeroing first). */
static inline wire_node *wire__node_put(wire_doc *d, uint8_t type,
                                        uint32_t small, uint64_t u) {
  wire_node *n = (wire_node *)(void *)d->nodes.p;
  d->nodes.p += sizeof(wire_node);
  const uint8_t head[4] = {type, 0, 0, 0}; /* type, flags, a, b */
  memcpy(n, head, 4);
  n->index = d->nnodes++;
  n->small = small;
  n->v.u = u;
  return n;
}
/* A zeroed node from the document's node pages (the first of a new page,
 * and out of memory, in wire__node_new_slow). */
wire_node *wire__node_new_slow(wire_doc *doc, uint8_t type);
static inline wire_node *wire__node_new(wire_doc *d, uint8_t type) {
  wire_arena *a = &d->nodes;
  if (WIRE_UNLIKELY((size_t)(a->end - a->p) < sizeof(wire_node)))
    return wire__node_new_slow(d, type);
  return wire__node_put(d, type, 0, 0);
}
/* The document's shared null (decoded nulls carry no wire choice of their
 * own); NULL when out of memory. */
wire_node *wire__doc_null(wire_doc *doc);
void *wire__doc_dup(wire_doc *doc, const void *p, size_t n);
/* A list's (map's) body of `cap` slots, its items (entries) and chunks
 * kept; NULL (the error recorded) when out of memory. */
wire_lbody *wire__list_body(wire_doc *doc, wire_node *list, uint32_t cap);
wire_mbody *wire__map_body(wire_doc *doc, wire_node *map, uint32_t cap);
/* A struct body for layout l, every field unset. */
wire_sbody *wire__struct_body(wire_doc *doc, struct wire_layout *l);
int32_t wire__list_push(wire_doc *doc, wire_node *list, wire_node *item);
int32_t wire__map_push(wire_doc *doc, wire_node *map, wire_node *k,
                       wire_node *v);
int32_t wire__chunk_push(wire_doc *doc, wire_node *map, uint32_t header,
                         uint32_t count);

/* Collection flags. */
#define WIRE_LF_TRACKING 0x01
#define WIRE_LF_HAS_NULL 0x02
#define WIRE_LF_DECL 0x04
#define WIRE_LF_SAME_TYPE 0x08
#define WIRE_MF_KEY_TRACK 0x01
#define WIRE_MF_KEY_NULL 0x02
#define WIRE_MF_KEY_DECL 0x04
#define WIRE_MF_VAL_TRACK 0x08
#define WIRE_MF_VAL_NULL 0x10
#define WIRE_MF_VAL_DECL 0x20

#define WIRE_REF_NULL (-3)
#define WIRE_REF_REF (-2)
#define WIRE_REF_NOT_NULL (-1)
#define WIRE_REF_VALUE 0

static inline bool wire__is_int_type(uint32_t t) {
  return t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_INT64;
}
static inline bool wire__is_uint_type(uint32_t t) {
  return t >= WIRE_T_UINT8 && t <= WIRE_T_TAGGED_UINT64;
}
static inline bool wire__is_float_type(uint32_t t) {
  return t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64;
}
/* A float32 as the double a tape carries for it, and back (spec/tape.md,
 * FLOAT32; also wire_node_float / wire_node_new_float). Numbers convert as
 * C converts them (widening is exact, narrowing rounds to nearest even).
 * A NaN keeps its sign and payload bit for bit, signaling or quiet, where
 * the hardware conversion would set the quiet bit: the float32 payload is
 * the top 23 payload bits of the double. A double NaN whose top 23 payload
 * bits are all zero narrows to the quiet NaN of its sign. */
static inline uint64_t wire__f32_widen(uint32_t x) {
  if (WIRE_UNLIKELY((x & 0x7FFFFFFFu) > 0x7F800000u))
    return (uint64_t)(x >> 31) << 63 | UINT64_C(0x7FF) << 52 |
           (uint64_t)(x & 0x7FFFFFu) << 29;
  float f;
  memcpy(&f, &x, 4);
  double d = f;
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static inline uint32_t wire__f32_narrow(uint64_t u) {
  if (WIRE_UNLIKELY((u & ~(UINT64_C(1) << 63)) > UINT64_C(0x7FF) << 52)) {
    uint32_t m = (uint32_t)(u >> 29) & 0x7FFFFFu;
    return (uint32_t)(u >> 63) << 31 | 0x7F800000u | (m ? m : 0x400000u);
  }
  double d;
  memcpy(&d, &u, 8);
  float f = (float)d;
  uint32_t x;
  memcpy(&x, &f, 4);
  return x;
}
/* float16 and bfloat16 as the double a tape carries for them (spec/tape.md,
 * FLOAT16 and BFLOAT16 NaNs; also wire_node_float and the public
 * conversions): the exact value, a NaN with its sign and its payload as the
 * top bits of the double's, quiet bit as it was. Back: wire__f16_narrow /
 * wire__bf16_narrow (primitives.c) round a number to nearest even and keep
 * a NaN's top payload bits and quiet bit (the quiet NaN of its sign if those
 * are all zero), so every 16-bit pattern comes back. */
static inline uint64_t wire__f16_widen(uint16_t h) {
  uint64_t sign = (uint64_t)(h >> 15) << 63;
  uint32_t e = h >> 10 & 0x1F;
  uint64_t m = h & 0x3FFu;
  if (e == 0x1F) return sign | UINT64_C(0x7FF) << 52 | m << 42; /* inf, NaN */
  if (e) return sign | (uint64_t)(e + 1008) << 52 | m << 42;
  if (!m) return sign;
  double d = (double)m; /* a subnormal: m * 2^-24, exact */
  uint64_t u;
  memcpy(&u, &d, 8);
  return sign | (u - (UINT64_C(24) << 52));
}
static inline uint64_t wire__bf16_widen(uint16_t b) {
  return wire__f32_widen((uint32_t)b << 16);
}
uint16_t wire__f16_narrow(uint64_t u);
uint16_t wire__bf16_narrow(uint64_t u);
static inline bool wire__is_array_type(uint32_t t) {
  return t >= WIRE_T_BOOL_ARRAY && t <= WIRE_T_FLOAT64_ARRAY &&
         t != WIRE_T_FLOAT8_ARRAY;
}
/* The scalar type id of a dense array type's items; 0 for any other type
 * (float8 arrays included: no scalar float8 exists). */
static inline uint8_t wire__array_elem_type(uint32_t t) {
  static const uint8_t elem[] = {
    WIRE_T_BOOL, WIRE_T_INT8, WIRE_T_INT16, WIRE_T_INT32, WIRE_T_INT64,
    WIRE_T_UINT8, WIRE_T_UINT16, WIRE_T_UINT32, WIRE_T_UINT64, 0,
    WIRE_T_FLOAT16, WIRE_T_BFLOAT16, WIRE_T_FLOAT32, WIRE_T_FLOAT64};
  return t >= WIRE_T_BOOL_ARRAY && t <= WIRE_T_FLOAT64_ARRAY
             ? elem[t - WIRE_T_BOOL_ARRAY] : 0;
}

/* Java-policy helpers shared by the encoder and the builders. */
int32_t wire__java_string_encoding(const uint8_t *utf8, size_t len);

#endif
