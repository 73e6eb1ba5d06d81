/* mem_dec.h - what the parts of the compiled decoder share: its state over
 * one wire_mem_decode (mem_dec.c) and the TypeDef mappings
 * (mem_dec_typedef.c). Not installed. */
#ifndef WIRE_MEM_DEC_H
#define WIRE_MEM_DEC_H

#include "mem.h"

#define NOTYPE WIRE_NO_TYPE

/* the inline cases that the compiler would otherwise call */
#if defined(__GNUC__)
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE static inline
#endif
#if defined(__GNUC__)
#define COLD __attribute__((cold, noinline))
#else
#define COLD
#endif

/* A hot loop's function placed at a 64-byte boundary (a cache line):
 * its code's place within lines stays what it was when code before it
 * changes (mem_dec.c's struct loop, mem_dec_run.c's word reader). */
#if defined(__GNUC__)
#define HOT_ALIGN __attribute__((aligned(64)))
#else
#define HOT_ALIGN
#endif

/* A reader of a run of varints (mem_dec_run.c, below). */
typedef const wire_mop *(*wire_mdec_run_fn)(const wire_mop *o, uint8_t *base,
                                            const uint8_t **pc);

typedef struct {
  wire_dec d;      /* the cursor and the shared reading rules */
  wire_ctx *ctx;
  wire_mem *m;
  uint8_t *arena;
  size_t cap, used;
  size_t need;      /* after an allocation failed: where it would end */
  size_t used0;     /* used when the call began (WIRE_LIMIT_MEM_DECODE
                       counts from there) */
  bool copy;
  bool inplace;     /* dense arrays at their wire width point into the
                       input (WIRE_MEM_ARRAYS_IN_PLACE) */
  bool meta_unnamed; /* a struct value's type meta was refused and no
                        field has named the error yet (field_fail) */
  uint64_t max_bin; /* ctx->max_binary */
  uint32_t max_depth; /* ctx->max_depth */
  wire_mdec_run_fn run; /* the run reader of words (wire_mem.words) or
                           bytes */
  wire_doc *scratch;
  size_t skip_refs; /* reference ids below it have their entry in the
                       document decoder's table (dec_skip, mem_dec.c) */
} mdec;

#define IN(x) (&(x)->d.in)

/* Where the arena may end (WIRE_LIMIT_MEM_DECODE) for a payload of len
 * bytes decoded from `used` on: used + per_byte * len +
 * WIRE_MEM_DECODE_BASE, SIZE_MAX when that does not fit. */
static inline size_t wire__mdec_lim_end(uint64_t per_byte, size_t len,
                                        size_t used) {
  uint64_t room;
#if defined(__GNUC__)
  if (__builtin_mul_overflow(per_byte, (uint64_t)len, &room) ||
      __builtin_add_overflow(room, (uint64_t)WIRE_MEM_DECODE_BASE, &room))
    return SIZE_MAX;
#else
  if (per_byte && len > (UINT64_MAX - WIRE_MEM_DECODE_BASE) / per_byte)
    return SIZE_MAX;
  room = per_byte * len + WIRE_MEM_DECODE_BASE;
#endif
  return room > SIZE_MAX - used ? SIZE_MAX : used + (size_t)room;
}

/* The n bytes of a struct pointer's image cleared (fields the writer
 * did not send read as zero): 16 bytes at a time inline, the last 16
 * overlapping, up to 256; memset otherwise. */
ALWAYS_INLINE void zero_img(uint8_t *p, size_t n) {
#if defined(__SSE2__)
  if (n >= 16 && n <= 256) {
    const __m128i z = _mm_setzero_si128();
    for (size_t i = 0; i + 16 < n; i += 16)
      _mm_storeu_si128((__m128i *)(void *)(p + i), z);
    _mm_storeu_si128((__m128i *)(void *)(p + n - 16), z);
    return;
  }
#endif
  memset(p, 0, n);
}

/* An arena allocation failed at input position at (aalloc set x->need):
 * WIRE_E_LIMIT past WIRE_LIMIT_MEM_DECODE, else WIRE_E_BUFFER_FULL. Always
 * false. _over: for a size that does not fit size_t. (mem_dec_root.c) */
bool wire__mdec_afail(mdec *x, const uint8_t *at);
bool wire__mdec_afail_over(mdec *x, const uint8_t *at);

static inline bool dfail(mdec *x, int32_t code, const uint8_t *at,
                         const char *what) {
  return wire__dec_fail(&x->d, code, at, "%s", what);
}

/* wire__dec_enter with the depth limit of the call's start (one load
 * fewer a struct body or list): the same error, offset and depth. */
ALWAYS_INLINE bool menter(mdec *x) {
  if (WIRE_LIKELY(++x->d.depth <= x->max_depth)) return true;
  return wire__dec_fail(&x->d, WIRE_E_DEPTH, x->d.in.p,
                        "nesting deeper than %u", x->max_depth);
}

/* The plan for the TypeDef bytes td[0..len) of layout li's type (the
 * layout's own plan, or a mapping compiled once and cached); *out_wl gets
 * the writer's layout. NULL with the error set (at: its offset). */
const wire_mplan *wire__mdec_plan_for_td(mdec *x, uint32_t li,
                                         const uint8_t *td, size_t len,
                                         const uint8_t *at,
                                         const wire_layout **out_wl);
/* The TypeDefs a skipped value announced (the document decoder's, from
 * m->ndtd to d->ntds) get no plan: a NULL entry each in m->dtd, which a
 * reference to one then maps from its TypeDef (else m->dtd would be read
 * where nothing of this message was put). False with the error set (at:
 * its offset) when the table cannot grow. */
bool wire__mdec_skipped_tds(mdec *x, const uint8_t *at);
/* Records a TypeDef announced in the message (its index is the next one)
 * with the plan it maps to. */
bool wire__mdec_push_td(mdec *x, const wire_layout *wl, const wire_mplan *p,
                        const uint8_t *at);

/* push_td with room in both tables already (the usual case) inline. */
static inline bool wire__mdec_push_td_fast(mdec *x, const wire_layout *wl,
                                           const wire_mplan *p,
                                           const uint8_t *at) {
  wire_dec *d = &x->d;
  wire_mem *m = x->m;
  if (WIRE_LIKELY(d->ntds < d->tds_cap && d->ntds < m->dtd_cap)) {
    m->dtd[d->ntds] = p;
    d->tds[d->ntds++] = (wire_layout *)wl;
    m->ndtd = (uint32_t)d->ntds;
    return true;
  }
  return wire__mdec_push_td(x, wl, p, at);
}

/* One struct value's body (its type meta read) by plan p into base
 * (mem_dec.c). */
bool wire__mdec_struct_body(mdec *x, const wire_mplan *p,
                            const wire_mlayout *l, uint8_t *base);
/* Reads the type meta of a struct value expected to be of layout li and
 * gives the plan to read its body with (mem_dec_typedef.c). NULL with the
 * error set. */
const wire_mplan *wire__mdec_meta(mdec *x, uint32_t li);
/* The same after its usual case (the registered TypeDef announced as the
 * next one) did not match: every other form, and the errors. */
const wire_mplan *wire__mdec_meta_other(mdec *x, uint32_t li);
/* A field op o failed: when the failure is a refusal of the
 * type meta of the value in it (a struct field of compatible mode holding
 * a value of another kind or type), the message is prefixed once with
 * the field ("field demo.H.f: a varint64 where struct demo.A is
 * declared"). False (cold). */
COLD bool wire__mdec_field_fail(mdec *x, const wire_mop *o);
/* Zero / default for a field the writer did not send or sent as null: one
 * field's storage (not a nested struct's), any field (structs and unions
 * included), every field of a struct (mem_dec_typedef.c). */
void wire__mdec_zero_spec(const wire_mspec *s, uint8_t *base);
/* zero_spec for an op's field (not a nested struct's): its form, length
 * word, offset and presence flag as the op has them. */
void wire__mdec_zero_op(const wire_mop *o, uint8_t *base);
void wire__mdec_zero_any(mdec *x, const wire_mspec *s, uint8_t *base);
void wire__mdec_zero_struct(mdec *x, const wire_mlayout *l, uint8_t *base);

/* Runs of varints (mem_dec_run.c): the run from op o (o->drun ops of
 * one inline case) at *pc, stored at base. The op to go on with (the
 * run's end, the op it stopped at, or o when it read nothing: the checked
 * cases then read or report); *pc the cursor there. With o->dneed +
 * WIRE_MEM_RUN_SLACK bytes there: a byte at a time, or a word at a time
 * (where wire__mdec_words() says the CPU can); with fewer, run_end_words
 * or run_end_bytes (end: the input's). */
#define WIRE_MEM_RUN_SLACK 3
const wire_mop *wire__mdec_run_bytes(const wire_mop *o, uint8_t *base,
                                     const uint8_t **pc);
const wire_mop *wire__mdec_run_words(const wire_mop *o, uint8_t *base,
                                     const uint8_t **pc);
const wire_mop *wire__mdec_run_end_bytes(const wire_mop *o, uint8_t *base,
                                         const uint8_t **pc,
                                         const uint8_t *end);
const wire_mop *wire__mdec_run_end_words(const wire_mop *o, uint8_t *base,
                                         const uint8_t **pc,
                                         const uint8_t *end);
/* The elements of a list of numbers (MOP_PLIST, no flags, all of the
 * declared type) from the cursor into items (mem_dec_lists.c): true when
 * it read them all (the cursor after them); false, the cursor unmoved,
 * when one is not read without doubt: dec_list's general loop then reads
 * the list again and reports. */
bool wire__mdec_plist(mdec *x, const wire_mop *o, uint8_t *items,
                      uint32_t count);
/* A whole list of numbers (MOP_PLIST) from its count, in its usual form
 * (count of at most five bytes, not 0; a header without flags, declared
 * or with the declared type id; every element read by wire__mdec_plist):
 * 1 when read, 0 on an error dec_list would report there (the count
 * against the bytes left, the arena, the depth), -1 with nothing read or
 * kept for anything else, which dec_list then reads and reports. */
int wire__mdec_plist_list(mdec *x, const wire_mop *o, uint8_t *base);
/* A list of struct pointers (MDI_SPTR) with reference / null flags after
 * list_usual (mem_dec.c) read its count (s: where it began; hp: its
 * header, within the input; count not 0): a header of one type with
 * HAS_NULL or TRACKING, the type meta next or declared outside compatible
 * mode; dec_list's front and loop for those items, in a loop of their
 * own (mem_dec_lists.c). 1 when read, 0 on error (where dec_list reports
 * it), -1 with nothing read or changed for any other header. */
int wire__mdec_list_sptrs(mdec *x, const wire_mop *o, uint8_t *base,
                          const uint8_t *s, const uint8_t *hp,
                          uint32_t count);
extern bool wire__mdec_lists_ok;
extern bool wire__mdec_words_ok;
extern bool wire__mdec_flat_ok;

/* ---- inline readers of the decoder ---- */

/* Whether the n bytes at a are the TypeDef td: its first word (the
 * header, with the hash) at once, which tells another writer's TypeDef
 * without a call. */
ALWAYS_INLINE bool td_same(const uint8_t *a, const uint8_t *td, size_t n) {
  if (n >= 8) {
    uint64_t u, v;
    memcpy(&u, a, 8);
    memcpy(&v, td, 8);
    if (u != v) return false;
  }
#if defined(__SSE2__)
  /* the rest without a call: 16 bytes at a time, the last 16 overlapping
   * (a TypeDef is tens of bytes; the header, its first 8, is equal) */
  if (n >= 16) {
    __m128i acc = _mm_setzero_si128();
    for (size_t i = 8; i + 16 < n; i += 16)
      acc = _mm_or_si128(acc, _mm_xor_si128(
                                  _mm_loadu_si128((const __m128i *)(const void *)(a + i)),
                                  _mm_loadu_si128((const __m128i *)(const void *)(td + i))));
    acc = _mm_or_si128(acc, _mm_xor_si128(
                                _mm_loadu_si128((const __m128i *)(const void *)(a + n - 16)),
                                _mm_loadu_si128((const __m128i *)(const void *)(td + n - 16))));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(acc, _mm_setzero_si128())) == 0xFFFF;
  }
#endif
  return memcmp(a, td, n) == 0;
}

/* Bounds a count of items each at least `min` bytes (0: items that may
 * take none, wire__dec_check_count_empty). */
static inline bool dcount(mdec *x, const uint8_t *s, uint64_t count,
                          uint64_t min) {
  /* (what either check accepts without a doubt, inline) */
  uint64_t left = (uint64_t)(IN(x)->end - IN(x)->p);
  if (WIRE_LIKELY(min <= 1 && count <= x->ctx->max_collection &&
                  x->d.pending <= left && count <= left - x->d.pending))
    return true;
  return min ? wire__dec_check_count(&x->d, s, count, min)
             : wire__dec_check_count_empty(&x->d, s, count);
}

/* Whether every byte of s[0..n) is 0 or 1, a word at a time. */
static inline bool bools_ok(const uint8_t *s, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (w & UINT64_C(0xFEFEFEFEFEFEFEFE)) return false;
  }
  uint32_t o = 0;
  for (; i < n; i++) o |= s[i];
  return o <= 1;
}

/* Varints with at least 5 / 9 bytes left, without per-byte bounds checks;
 * false for anything unusual (truncation, overlong, too long), which the
 * checked readers then report. */
static inline bool fast_u32(const uint8_t *s, const uint8_t *end, uint32_t *v,
                            const uint8_t **np) {
  if (WIRE_UNLIKELY(s >= end)) return false;
  uint32_t c = s[0], r;
  if (c < 0x80) { *v = c; *np = s + 1; return true; }
  if (WIRE_UNLIKELY(end - s < 5)) {
    r = c & 0x7F; /* (the first byte, 0x80 or more) */
    for (int i = 1; i < 4 && s + i < end; i++) {
      c = s[i];
      r |= (c & 0x7F) << (7 * i);
      if (c < 0x80) {
        if (!c) return false;
        *v = r;
        *np = s + i + 1;
        return true;
      }
    }
    return false;
  }
  r = c & 0x7F;
  c = s[1];
  r |= (c & 0x7F) << 7;
  if (c < 0x80) { if (!c) return false; *v = r; *np = s + 2; return true; }
  c = s[2];
  r |= (c & 0x7F) << 14;
  if (c < 0x80) { if (!c) return false; *v = r; *np = s + 3; return true; }
  c = s[3];
  r |= (c & 0x7F) << 21;
  if (c < 0x80) { if (!c) return false; *v = r; *np = s + 4; return true; }
  c = s[4];
  if (c & 0xF0 || !c) return false;
  *v = r | c << 28;
  *np = s + 5;
  return true;
}
static inline bool fast_u64(const uint8_t *s, const uint8_t *end, uint64_t *v,
                            const uint8_t **np) {
  if (WIRE_UNLIKELY(s >= end)) return false;
  if (s[0] < 0x80) { *v = s[0]; *np = s + 1; return true; }
  if (WIRE_UNLIKELY(end - s < 9)) return false;
  uint64_t r = s[0] & 0x7F;
  for (int i = 1; i < 8; i++) {
    uint64_t c = s[i];
    r |= (c & 0x7F) << (7 * i);
    if (c < 0x80) {
      if (!c) return false;
      *v = r;
      *np = s + i + 1;
      return true;
    }
  }
  if (!s[8]) return false;
  *v = r | (uint64_t)s[8] << 56;
  *np = s + 9;
  return true;
}

/* Varints where the bytes are known to be there (a run's bounds check, or
 * its zero-padded copy): the cursor after, or NULL for an overlong or too
 * long one. */
static inline const uint8_t *vu32_in(const uint8_t *p, uint32_t *v) {
  uint32_t b = p[0];
  if (b < 0x80) { *v = b; return p + 1; }
  uint32_t r = b & 0x7F;
  b = p[1];
  if (b < 0x80) { *v = r | b << 7; return b ? p + 2 : NULL; }
  r |= (b & 0x7F) << 7;
  b = p[2];
  if (b < 0x80) { *v = r | b << 14; return b ? p + 3 : NULL; }
  r |= (b & 0x7F) << 14;
  b = p[3];
  if (b < 0x80) { *v = r | b << 21; return b ? p + 4 : NULL; }
  r |= (b & 0x7F) << 21;
  b = p[4];
  if (!b || (b & 0xF0)) return NULL;
  *v = r | b << 28;
  return p + 5;
}
static inline const uint8_t *vu64_in(const uint8_t *p, uint64_t *v) {
  uint64_t r = 0;
  for (int i = 0; i < 8; i++) {
    uint64_t b = p[i];
    if (b < 0x80) {
      *v = r | b << (7 * i);
      return b || !i ? p + i + 1 : NULL;
    }
    r |= (b & 0x7F) << (7 * i);
  }
  if (!p[8]) return NULL;
  *v = r | (uint64_t)p[8] << 56;
  return p + 9;
}

#endif
