/* mem_dec_root.c - compiled codecs, the decoder's entry: wire_mem_decode
 * sets up the decoder's state (what wire__dec_init does, inline), reads
 * the root's header, flag and type meta — its usual forms recognised by
 * one compare with the bytes cached per layout — and hands the body to
 * the struct loop (mem_dec.c). */
#include "mem_dec.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#define push_td wire__mdec_push_td_fast

/* An allocation did not fit (aalloc set x->need; spec R-LIMIT-9): past
 * the context's limit, WIRE_E_LIMIT; else the caller's arena is too
 * small, WIRE_E_BUFFER_FULL (wire_mem_decode then reports x->need). Only
 * on the way out: no check on the values' path (mem_dec.c calls it where
 * aalloc returned NULL). */
COLD bool wire__mdec_afail(mdec *x, const uint8_t *at) {
  size_t len = (size_t)(x->d.in.end - x->d.in.base);
  size_t lim_end = wire__mdec_lim_end(x->ctx->max_mem_decode, len, x->used0);
  if (x->need > lim_end)
    return wire__dec_fail(&x->d, WIRE_E_LIMIT, at,
                          "decoding takes more than %llu bytes of arena for "
                          "%zu input bytes (WIRE_LIMIT_MEM_DECODE: %llu per "
                          "input byte + %u)",
                          (unsigned long long)(lim_end - x->used0), len,
                          (unsigned long long)x->ctx->max_mem_decode,
                          (unsigned)WIRE_MEM_DECODE_BASE);
  return wire__dec_fail(&x->d, WIRE_E_BUFFER_FULL, at,
                        "decode arena of %zu bytes too small (%zu needed "
                        "so far)", x->cap, x->need);
}

/* wire__mdec_afail of a size that does not fit size_t. */
COLD bool wire__mdec_afail_over(mdec *x, const uint8_t *at) {
  x->need = SIZE_MAX;
  return wire__mdec_afail(x, at);
}

/* wire__dec_init's memset of the decoder state up to rd, in 16-byte
 * stores kept inline: GCC makes that memset of some 200 bytes a
 * `rep stos`, slow to start (the empty asm keeps it from seeing the loop
 * as a memset). */
ALWAYS_INLINE void zero_dec(wire_dec *d) {
#if defined(__GNUC__) && !defined(__clang__) && defined(__SSE2__)
  enum { N = offsetof(wire_dec, rd) };
  _Static_assert(N >= 16, "wire_dec: its zeroed part is at least 16 bytes");
  uint8_t *q = (uint8_t *)d;
  const __m128i z = _mm_setzero_si128();
#pragma GCC unroll 32
  for (size_t i = 0; i + 16 <= N; i += 16) {
    _mm_storeu_si128((__m128i *)(void *)(q + i), z);
    __asm__("" : "+r"(q));
  }
  if (N % 16) _mm_storeu_si128((__m128i *)(void *)(q + N - 16), z);
#else
  memset(d, 0, offsetof(wire_dec, rd));
#endif
}

/* The root's header, flag and type meta in the forms wire_mem_decode
 * does not recognise inline: the plan of its body, or NULL with the error
 * set. */
static const wire_mplan *root_meta(mdec *x, uint32_t layout, void *out) {
  wire_ctx *ctx = x->ctx;
  wire_mem *m = x->m;
  size_t len = (size_t)(x->d.in.end - x->d.in.base);
  /* (the header reader expects a byte) */
  bool okk = len ? wire__dec_root_header(&x->d, 0) : wire__truncated(&x->d.in, 1);
  if (okk) {
    const uint8_t *fs = x->d.in.p;
    int8_t f;
    uint32_t id;
    okk = wire__dec_ref_flag(&x->d, true, &f, &id);
    if (okk && (f == WIRE_REF_NULL || f == WIRE_REF_REF))
      okk = dfail(x, WIRE_E_VALUE, fs, "the root is null or a reference");
    if (okk && f == WIRE_REF_VALUE) {
      x->d.nrefs++;
      if (!dref_room(ctx, m, 1)) okk = dfail(x, WIRE_E_NOMEM, fs, "out of memory");
      else {
        m->dref[0] = out;
        m->dref_layout[0] = layout;
        m->ndref = 1;
      }
    }
  }
  /* (the usual type meta, the registered TypeDef as #0, was the compare
   * in wire_mem_decode) */
  return okk ? wire__mdec_meta_other(x, layout) : NULL;
}

/* A flat plan's body (wire_mplan.flat) at c, to the end of the input:
 * the struct loop's inline cases (mem_dec.c) that wire__mem_flat admits,
 * without the decoder's state, depth or allocation. False for anything
 * they do not read (a value cut, overlong or too long, a bool other than
 * 0 or 1, an enum of more than one byte, bytes after the body):
 * wire_mem_decode then reads the message again by the general path,
 * which reads or reports it. */
ALWAYS_INLINE bool flat_body(const wire_mplan *p, const uint8_t *c,
                             const uint8_t *const end, uint8_t *base, bool words) {
  const uint8_t *np;
  for (const wire_mop *o = p->ops, *oe = o + p->nops; o < oe; o++) {
    uint8_t *d = base + o->off;
    switch (o->dx) {
    case MX_RUN: {
      const uint8_t *rc = c;
      const wire_mop *r =
          WIRE_LIKELY((size_t)(end - c) >= (size_t)o->dneed + WIRE_MEM_RUN_SLACK)
              ? (words ? wire__mdec_run_words(o, base, &rc)
                       : wire__mdec_run_bytes(o, base, &rc))
          : words ? wire__mdec_run_end_words(o, base, &rc, end)
                  : wire__mdec_run_end_bytes(o, base, &rc, end);
      if (r == o) return false;
      c = rc;
      o = r - 1;
      continue;
    }
    case MX_VI32: {
      uint32_t u;
      if (!fast_u32(c, end, &u, &np)) return false;
      int32_t v = wire__unzz32(u);
      memcpy(d, &v, 4);
      c = np;
      continue;
    }
    case MX_VI64: {
      uint64_t u;
      if (!fast_u64(c, end, &u, &np)) return false;
      int64_t v = wire__unzz64(u);
      memcpy(d, &v, 8);
      c = np;
      continue;
    }
    case MX_BOOL:
      if (c >= end || c[0] > 1) return false;
      *d = *c++;
      continue;
    case MX_ENUM: {
      if (c >= end || c[0] >= 0x80) return false;
      uint32_t v = *c++;
      memcpy(d, &v, 4);
      continue;
    }
    case MX_F32:
      if (end - c < 4) return false;
      memcpy(d, c, 4);
      c += 4;
      continue;
    case MX_F64:
      if (end - c < 8) return false;
      memcpy(d, c, 8);
      c += 8;
      continue;
    default:
      return false;
    }
  }
  return c == end;
}

/* Whether the 8 to 16 bytes at a are pre[0..n): two words that may
 * overlap. */
ALWAYS_INLINE bool pre_same(const uint8_t *a, const uint8_t *pre, size_t n) {
  uint64_t u, v, w, z;
  memcpy(&u, a, 8);
  memcpy(&v, pre, 8);
  memcpy(&w, a + n - 8, 8);
  memcpy(&z, pre + n - 8, 8);
  return ((u ^ v) | (w ^ z)) == 0;
}

/* Whether a root begins with the first bytes of a same-schema root of
 * rl (wire_mlayout.pre: rl->pre_len is not 0) up to its schema hash.
 * (max_roots: root_meta, the general path, refuses any root at 0.) */
ALWAYS_INLINE bool same_pre(const wire_ctx *ctx, const wire_mlayout *rl,
                            const uint8_t *data, size_t len) {
  return len >= rl->pre_len && pre_same(data, rl->pre, rl->pre_len) &&
         ctx->max_roots;
}

/* A root of a same-schema flat struct (rl->pre_len, rl->plan.flat) in
 * the usual form (same_pre), read by flat_body into out, as
 * wire_mem_decode's flat path reads a compatible one. False when not
 * read (the general path then reads it). Out of wire_mem_decode's line:
 * the compatible roots' paths there keep their code. */
static __attribute__((noinline)) bool same_flat(wire_ctx *ctx,
                                                const wire_mlayout *rl,
                                                const uint8_t *data,
                                                size_t len, void *out) {
  if (!same_pre(ctx, rl, data, len) || !wire__mdec_flat_ok ||
      !ctx->max_depth ||
      !flat_body(&rl->plan, data + rl->pre_len, data + len, out,
                 ctx->mem->words))
    return false;
  /* what the general path leaves after it (as for a compatible root) */
  ctx->oob_used = 0;
  ctx->mem->ndtd = 0;
  ctx->mem->ndref = 0;
  return true;
}

/* Whether wire_mem_decode may take the flat path (tests turn it off to
 * compare it with the general one). */
bool wire__mdec_flat_ok = true;

int32_t wire_mem_decode(wire_ctx *ctx, uint32_t layout, const uint8_t *data,
                        size_t len, void *out, uint8_t *arena,
                        size_t arena_cap, size_t *arena_used, uint32_t flags) {
  if (!ctx || (!data && len) || !out || (!arena && arena_cap)) return WIRE_E_ARG;
  if (ctx->err_code) wire_ctx_clear_error(ctx);
  if (!ctx->mem || layout >= ctx->mem->n)
    return wire__fail(ctx, WIRE_E_ARG, 0, "no layout %u", layout);
  wire_mem *m = ctx->mem;
  wire__mem_mode(ctx, m);
  if (WIRE_UNLIKELY(!m->layouts[layout].bound)) {
    int32_t st = wire_mem_bind(ctx, layout);
    if (st) return st;
  }
  if (!m->layouts[layout].is_struct)
    return wire__fail(ctx, WIRE_E_ARG, 0, "layout %u is not a struct's", layout);
  wire_mlayout *rl = &m->layouts[layout];
  /* the common root: xlang header, not-null flag, the registered TypeDef
   * announced as #0 (a same-schema layout has none: a flat one's root in
   * the usual form is read by same_flat) */
  bool common = rl->td && len >= 4 + (size_t)rl->td_len &&
                td_same(data, rl->td - 4, 4 + (size_t)rl->td_len);
  if (common && rl->plan.flat && wire__mdec_flat_ok && ctx->max_depth &&
      (!arena_used || *arena_used <= arena_cap) &&
      flat_body(&rl->plan, data + 4 + rl->td_len, data + len, out, m->words)) {
    /* a flat root in the usual form: what the general path below leaves
     * after it (no table, reference or arena byte used) */
    ctx->oob_used = 0;
    m->ndtd = 0;
    m->ndref = 0;
    return WIRE_OK;
  }
  if (!common && rl->pre_len && rl->plan.flat &&
      (!arena_used || *arena_used <= arena_cap) &&
      same_flat(ctx, rl, data, len, out))
    return WIRE_OK;
  mdec x;
  x.ctx = ctx;
  x.m = m;
  x.arena = arena;
  x.cap = arena_cap;
  x.used = arena_used ? *arena_used : 0;
  if (x.used > arena_cap) return WIRE_E_ARG;
  /* WIRE_LIMIT_MEM_DECODE: the arena capped where the limit ends (an
   * arena of at most WIRE_MEM_DECODE_BASE after `used` is within it
   * whatever the limit: no multiply for the usual small arenas) */
  x.used0 = x.used;
  if (WIRE_UNLIKELY(arena_cap - x.used > WIRE_MEM_DECODE_BASE)) {
    size_t e = wire__mdec_lim_end(ctx->max_mem_decode, len, x.used);
    if (e < arena_cap) x.cap = e;
  }
  x.copy = (flags & WIRE_MEM_COPY) != 0;
  x.inplace = !x.copy && (flags & WIRE_MEM_ARRAYS_IN_PLACE) != 0;
  x.max_bin = ctx->max_binary;
  x.max_depth = ctx->max_depth;
  x.run = m->words ? wire__mdec_run_words : wire__mdec_run_bytes;
  x.scratch = NULL;
  x.meta_unnamed = false;
  x.skip_refs = 0;
  /* (wire__dec_init, decode.c, inline: no document) */
  zero_dec(&x.d);
  x.d.in = (wire_in){ctx, data, data, data + len};
  x.d.ctx = ctx;
  x.d.arena = &m->arena;
  x.d.unbacked = wire__dec_unbacked_budget(len);
  ctx->oob_used = 0;
  /* the per-message tables live in the context across calls */
  x.d.tds = m->tds;
  x.d.tds_cap = m->tds_cap;
  x.d.ms = m->ms;
  x.d.ms_cap = m->ms_cap;
  /* (wire__dec_init left the per-root counts at zero: no wire__dec_root) */
  m->ndtd = 0;
  m->ndref = 0;
  const wire_mplan *p = NULL;
  bool okk;
  if (common) {
    x.d.in.p = data + 4 + rl->td_len;
    p = &rl->plan;
    okk = push_td(&x, ctx->reg->types[rl->type].layout, p, data + 4);
    goto body;
  }
  if (rl->td && len >= 4 + (size_t)rl->td_len && data[1] == 0x00 &&
      data[0] == 0x01 && data[2] == rl->td[-2] && data[3] == 0x00 &&
      td_same(data + 4, rl->td, rl->td_len) && dref_room(ctx, m, 1)) {
    /* the common form with a tracked value's flag (ref tracking): the
     * root is reference #0 (as the general path, root_meta, notes it) */
    x.d.nrefs = 1;
    m->dref[0] = out;
    m->dref_layout[0] = layout;
    m->ndref = 1;
    x.d.in.p = data + 4 + rl->td_len;
    p = &rl->plan;
    okk = push_td(&x, ctx->reg->types[rl->type].layout, p, data + 4);
    goto body;
  }
  if (rl->maps && len >= 4 + 8 && rl->td && td_same(data, rl->td - 4, 4)) {
    /* the same root of another writer whose TypeDef was mapped before
     * (what the general path, root_meta, finds after parsing the TypeDef's
     * header: wire__mdec_plan_for_td compares its bytes with the cached
     * ones, and no more than max_typedef_bytes of them) */
    for (wire_mmap *c = rl->maps; c; c = c->next) {
      if (len - 4 >= c->td_len && c->td_len <= ctx->max_typedef_bytes &&
          td_same(data + 4, c->td, c->td_len)) {
        x.d.in.p = data + 4 + c->td_len;
        p = &c->plan;
        okk = push_td(&x, (const wire_layout *)c->plan.missing[-1], p,
                      data + 4);
        goto body;
      }
    }
  }
  if (!rl->td && rl->pre_len && same_pre(ctx, rl, data, len)) {
    /* a same-schema root in the usual form: its body from the schema
     * hash, which the struct loop reads */
    x.d.in.p = data + rl->pre_len - 4;
    p = &rl->plan;
    okk = true;
    goto body;
  }
  p = root_meta(&x, layout, out);
  okk = p != NULL;
body:
  okk = okk && wire__mdec_struct_body(&x, p, rl, out);
  if (okk && x.d.in.p != x.d.in.end)
    okk = dfail(&x, WIRE_E_TRAILING, x.d.in.p, "bytes after the root value");
  if (x.scratch) wire_doc_free(x.scratch);
  m->tds = x.d.tds;
  m->tds_cap = x.d.tds_cap;
  m->ms = x.d.ms;
  m->ms_cap = x.d.ms_cap;
  x.d.tds = NULL;
  x.d.ms = NULL;
  /* (no wire__dec_fini: the tables went back to m above, and the
   * context's kept tables are the document decoder's) */
  if (!okk) {
    /* (the arena too small: a lower bound of what it takes) */
    if (ctx->err_code == WIRE_E_BUFFER_FULL && arena_used)
      *arena_used = x.need;
    return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  }
  if (arena_used) *arena_used = x.used;
  return WIRE_OK;
}
