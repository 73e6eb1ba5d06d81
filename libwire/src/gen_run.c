/* gen_run.c - what the code `wire gen c` writes calls at run time
 * (wire_gen_begin, wire_gen_grow in wire.h): the context's options,
 * limits and output buffer (the one wire_mem_encode writes into), once per
 * message. */
#include "mem.h"

int32_t wire_gen_begin(wire_ctx *ctx, wire_gen_state *s) {
  if (!ctx || !s) return WIRE_E_ARG;
  if (ctx->err_code) wire_ctx_clear_error(ctx);
  wire_mem *m = ctx->mem;
  if (WIRE_UNLIKELY(!m) && !(m = wire__mem_state(ctx))) return WIRE_E_NOMEM;
  s->mode = ctx->gen_mode;
  s->max_depth = ctx->max_depth;
  s->max_collection = ctx->max_collection;
  s->max_binary = ctx->max_binary;
  s->buf = m->e.b.p;
  s->cap = m->e.b.cap;
  return WIRE_OK;
}

int32_t wire_gen_grow(wire_ctx *ctx, size_t used, size_t need, uint8_t **buf,
                      size_t *cap) {
  if (!ctx || !buf || !cap) return WIRE_E_ARG;
  wire_mem *m = ctx->mem ? ctx->mem : wire__mem_state(ctx);
  if (!m) return WIRE_E_NOMEM;
  wire_buf *b = &m->e.b;
  if (used > b->cap) return wire__fail(ctx, WIRE_E_ARG, 0, "used beyond the buffer");
  b->len = used;
  b->status = WIRE_OK;
  if (wire__buf_grow(b, need) != WIRE_OK)
    return wire__fail(ctx, WIRE_E_NOMEM, used, "out of memory");
  *buf = b->p;
  *cap = b->cap;
  return WIRE_OK;
}
