/* tape.h - the tape format (spec/tape.md), shared by the document path
 * (tape.c: tape <-> document, the reference) and the direct codec
 * (tape_index.c, tape_enc.c, tape_dec.c: tape <-> bytes). */
#ifndef WIRE_TAPE_H
#define WIRE_TAPE_H

#include "policy.h"

/* Tape numbers are little-endian and copied with memcpy. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the tape code assumes a little-endian host"
#endif

/* The op codes (wire.h, Section - Tapes) under their short names. */
#define TAPE_VERSION WIRE_TAPE_VERSION
#define TAPE_NULL WIRE_TAPE_NULL
#define TAPE_REF WIRE_TAPE_REF
#define TAPE_STRUCT_TD WIRE_TAPE_STRUCT_TD
#define TAPE_ENUM_ID WIRE_TAPE_ENUM_ID
#define TAPE_PACKED WIRE_TAPE_PACKED
#define TAPE_STRUCT_IDX WIRE_TAPE_STRUCT_IDX
#define TAPE_SPAN WIRE_TAPE_SPAN
#define TAPE_STR_SPAN WIRE_TAPE_STR_SPAN
#define TAPE_ENTRY_RUN WIRE_TAPE_ENTRY_RUN
#define TAPE_L1_LIST WIRE_TAPE_L1_LIST

/* String encoding bytes: 0..2 the bytes are in that encoding and are
 * written as WIRE_OPT_STRING_POLICY says (by default in that encoding);
 * TAPE_STR_JAVA | e (v2) the bytes are in encoding e and are written in the
 * Java runtime's choice (R-WSTR-1); 0xFF (v1) = TAPE_STR_JAVA | UTF8. */
#define TAPE_STR_JAVA WIRE_TAPE_STR_JAVA
#define TAPE_STR_UTF8_JAVA WIRE_TAPE_STR_UTF8_JAVA

/* The encoding byte of a tape string: *given gets the encoding of the
 * bytes, *java whether the Java choice is asked for (TAPE_STR_JAVA); false
 * for an unknown byte. */
static inline bool wire__tape_string_given(uint8_t e, int32_t *given,
                                           bool *java) {
  if (e <= WIRE_STR_UTF8) {
    *given = e;
    *java = false;
    return true;
  }
  if (e == TAPE_STR_UTF8_JAVA) e = TAPE_STR_JAVA | WIRE_STR_UTF8;
  if (e < TAPE_STR_JAVA || e > (TAPE_STR_JAVA | WIRE_STR_UTF8)) return false;
  *given = e & 3;
  *java = true;
  return true;
}

/* The wire encoding of a tape string. `ascii`: the text is all ASCII (then
 * the Java choice is Latin-1 without looking further). */
static inline int32_t wire__tape_wire_enc(const wire_ctx *ctx, int32_t given,
                                          bool java, bool ascii,
                                          const uint8_t *s, size_t len) {
  if (!java) {
    if (ctx->string_policy == WIRE_STRING_UTF8) return WIRE_STR_UTF8;
    if (ctx->string_policy != WIRE_STRING_JAVA) return given;
  }
  if (ascii) return WIRE_STR_LATIN1;
  return wire__java_encoding_of(given, s, len);
}

/* Decodes the encoding byte of a tape string: *given gets the encoding of
 * the bytes, the result is the wire encoding, or -1 for an unknown byte. */
static inline int32_t wire__tape_string_enc(const wire_ctx *ctx, uint8_t e,
                                            const uint8_t *s, size_t len,
                                            int32_t *given) {
  bool java;
  if (!wire__tape_string_given(e, given, &java)) return -1;
  return wire__tape_wire_enc(ctx, *given, java, false, s, len);
}

/* One element of the bytes of an L1_LIST at *p (before end): a string
 * header, the shortest varuint36small of length << 2 | WIRE_STR_LATIN1,
 * then that many bytes. On success *p moves past them and *len gets the
 * length; false (nothing moved) if the bytes are not such an element. */
static inline bool wire__tape_l1_next(const uint8_t **p, const uint8_t *end,
                                      uint32_t *len) {
  const uint8_t *q = *p;
  uint64_t h = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (q == end) return false;
    uint8_t c = *q++;
    if (shift == 28 || !(c & 0x80)) { /* the last byte (the fifth: 8 bits) */
      if (shift && c == 0) return false; /* not the shortest form */
      h |= (uint64_t)c << shift;
      break;
    }
    h |= (uint64_t)(c & 0x7f) << shift;
  }
  if ((h & 3) != WIRE_STR_LATIN1 || (h >> 2) > (uint64_t)(end - q))
    return false;
  *len = (uint32_t)(h >> 2);
  *p = q + *len;
  return true;
}

/* wire_decode_tape_to's work (tape_dec.c), appending to out; on failure
 * out->len is as it was. loc: NULL, or *loc the number of a value of the
 * tape (spec/tape.md, input offsets), which gets that value's input
 * offset, or UINT64_MAX when the tape has no such value. */
int32_t wire__tape_decode_into(wire_ctx *ctx, const uint8_t *data,
                               size_t len, uint32_t flags, wire_buf *out,
                               uint64_t *loc);
/* The decoder's scratch output of wire_decode_tape, reused between calls
 * (NULL when out of memory). */
wire_buf *wire__tape_dec_out(wire_ctx *ctx);
/* After a caller's buffer filled up: decodes again into scratch for the
 * size the tape needs (*need; WIRE_E_BUFFER_FULL, the context's error), or
 * the payload's own error past the point where the buffer filled up
 * (tape_dec_entry.c). */
int32_t wire__tape_size_needed(wire_ctx *ctx, const uint8_t *data,
                               size_t len, uint32_t flags, size_t *need);

/* The flags of wire_decode_tape_to, and the version of the tapes it writes
 * with them. */
#define TAPE_DEC_FLAGS                                                  \
  (WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS | WIRE_TAPE_STRING_SPANS |   \
   WIRE_TAPE_ENTRY_RUNS)
static inline uint8_t wire__tape_dec_version(uint32_t flags) {
  return flags ? 2 : 1;
}

/* A binary or dense array of a read tape with WIRE_TAPE_SPANS: its bytes
 * p[0..n) as a SPAN op when they are bytes of the payload data[0..len)
 * (read in band, at least one), else (0) copied. */
static inline bool wire__tape_span(uint32_t flags, const uint8_t *data,
                                   size_t len, const uint8_t *p, size_t n) {
  uintptr_t off = (uintptr_t)p - (uintptr_t)data; /* wraps if p < data */
  return (flags & WIRE_TAPE_SPANS) && n && data && n <= len && off <= len - n;
}

/* A string of a read tape with WIRE_TAPE_STRING_SPANS: its n bytes at p
 * as a STR_SPAN op (op, u8 encoding, u32 n, u64 offset: 14 bytes) when
 * they are bytes of the payload data[0..len), else (0) copied. */
static inline bool wire__tape_str_span(uint32_t flags, const uint8_t *data,
                                       size_t len, const uint8_t *p,
                                       size_t n) {
  return (flags & WIRE_TAPE_STRING_SPANS) &&
         wire__tape_span(WIRE_TAPE_SPANS, data, len, p, n);
}

/* Values a REF op can name: the kinds with identity (lists, sets, maps,
 * structs, unions, binaries, decimals, dense arrays), numbered 0, 1, ...
 * in pre-order over the whole tape. */
static inline bool wire__tape_referenceable(uint32_t t) {
  return t == WIRE_T_LIST || t == WIRE_T_SET || t == WIRE_T_MAP ||
         (t >= WIRE_T_STRUCT && t <= WIRE_T_NAMED_UNION) ||
         t == WIRE_T_BINARY || t == WIRE_T_DECIMAL ||
         wire_type_array_width(t) != 0;
}

/* Element types a PACKED op may carry. */
static inline bool wire__tape_packable(uint32_t t) {
  return wire__is_prim(t);
}

/* Whether s[0..n) is ASCII. lim: the end of the memory that may be read
 * (text of at most 8 bytes is read as one word when lim allows). */
static inline __attribute__((always_inline)) bool
wire__tape_ascii(const uint8_t *s, size_t n, const uint8_t *lim) {
  const uint64_t hi = UINT64_C(0x8080808080808080);
  uint64_t w, v;
  if (n <= 8) {
    if ((size_t)(lim - s) < 8) {
      uint8_t acc = 0;
      for (size_t i = 0; i < n; i++) acc |= s[i];
      return !(acc & 0x80);
    }
    memcpy(&w, s, 8);
    if (n < 8) w &= (UINT64_C(1) << (8 * n)) - 1;
    return !(w & hi);
  }
  if (n <= 16) {
    memcpy(&w, s, 8);
    memcpy(&v, s + n - 8, 8);
    return !((w | v) & hi);
  }
  if (n <= 32) { /* four words, the last two ending at s + n */
    uint64_t x, y;
    memcpy(&w, s, 8);
    memcpy(&v, s + 8, 8);
    memcpy(&x, s + n - 16, 8);
    memcpy(&y, s + n - 8, 8);
    return !((w | v | x | y) & hi);
  }
  return wire__ascii_prefix(s, n) == n;
}

/* 16 bytes from s to d (a short string, when both have the room). */
static inline __attribute__((always_inline)) void
wire__copy16(uint8_t *d, const uint8_t *s) {
  uint64_t a, b;
  memcpy(&a, s, 8);
  memcpy(&b, s + 8, 8);
  memcpy(d, &a, 8);
  memcpy(d + 8, &b, 8);
}

/* Checks text handed in a tape (unless the context trusts it). Returns the
 * byte offset of the first bad unit within the text, or len. */
static inline size_t wire__tape_check_text(int32_t given, const uint8_t *s,
                                           size_t len) {
  if (given == WIRE_STR_UTF8) return wire__utf8_check(s, len);
  if (given == WIRE_STR_UTF16) {
    if (len & 1) return len - 1;
    return wire__utf16_check(s, len);
  }
  return len;
}

/* A read tape writes a shared scalar (a tracked string, date...) out again
 * at every reference to it, and the names and TypeDef bytes of user types
 * at every value, which could make the tape far larger than the
 * payload; the bytes written again are capped at this many for a payload
 * of `len` bytes. Past the cap decoding goes on (its errors come first)
 * and then fails with WIRE_E_LIMIT. */
static inline uint64_t wire__tape_reemit_budget(size_t len) {
  return 64 * (uint64_t)len + ((uint64_t)16 << 20);
}

/* The reference path (tape.c): tape -> document -> bytes, and bytes ->
 * document -> tape. The direct codec gives the same results. */
int32_t wire__tape_encode_doc(wire_ctx *ctx, const uint8_t *tape, size_t len,
                              uint8_t **out, size_t *out_len);
int32_t wire__tape_decode_doc(wire_ctx *ctx, const uint8_t *data, size_t len,
                              uint32_t flags, uint8_t **tape,
                              size_t *tape_len);

/* Per-context scratch of the direct codec (freed by wire_ctx_free). */
struct wire_tape_scratch;
struct wire_tape_dec_scratch;
struct wire_tape_scratch *wire__tape_scratch(wire_ctx *ctx);
void wire__tape_scratch_free(wire_ctx *ctx);
/* Where the decoder keeps its scratch (NULL if out of memory). */
struct wire_tape_dec_scratch **wire__tape_dec_slot(wire_ctx *ctx);
void wire__tape_dec_scratch_free(wire_ctx *ctx, struct wire_tape_dec_scratch *s);

#endif
