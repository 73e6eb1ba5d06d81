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
  mdec x;
  x.ctx = ctx;
  x.m = m;
  x.arena = arena;
  x.cap = arena_cap;
  x.used = arena_used ? *arena_used : 0;
  if (x.used > arena_cap) return WIRE_E_ARG;
  x.copy = (flags & WIRE_MEM_COPY) != 0;
  x.max_bin = ctx->max_binary;
  x.words = m->words;
  x.run = x.words ? wire__mdec_run_words : wire__mdec_run_bytes;
  x.scratch = NULL;
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
  wire_mlayout *rl = &m->layouts[layout];
  bool okk;
  if (rl->td && len >= 4 + (size_t)rl->td_len &&
      td_same(data, rl->td - 4, 4 + (size_t)rl->td_len)) {
    /* the common root: xlang header, not-null flag, the registered
     * TypeDef announced as #0 */
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
  p = root_meta(&x, layout, out);
  okk = p != NULL;
body:
  okk = okk && wire__mdec_struct_body(&x, p, &m->layouts[layout], out);
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
  if (!okk) return ctx->err_code ? ctx->err_code : WIRE_E_STATE;
  if (arena_used) *arena_used = x.used;
  return WIRE_OK;
}
