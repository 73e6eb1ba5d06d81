/* oob.c - out-of-band buffers (spec/01-primitives.md 1.12.1, R-OOB-1..6):
 * the buffers a decode reads and an encode writes, the in-band /
 * out-of-band marker in front of binary and dense array bodies in a root
 * whose header announces them (03), and the bands documents record. */
#include "dec.h"
#include "policy.h"

/* ---- the buffers on the context ---------------------------------------- */

int32_t wire_ctx_set_oob_buffers(wire_ctx *ctx, const uint8_t *const *data,
                                 const size_t *lens, size_t count) {
  if (!ctx) return WIRE_E_ARG;
  if (count && (!data || !lens))
    return wire__fail(ctx, WIRE_E_ARG, 0, "buffers without pointers or "
                      "lengths");
  for (size_t i = 0; i < count; i++)
    if (!data[i] && lens[i])
      return wire__fail(ctx, WIRE_E_ARG, 0, "buffer %zu is NULL with a "
                        "length", i);
  if (count > SIZE_MAX / sizeof(wire_oob))
    return wire__fail(ctx, WIRE_E_ARG, 0, "too many buffers");
  wire_oob *in = NULL;
  if (count) {
    in = wire__alloc(ctx, count * sizeof *in);
    if (!in) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
    for (size_t i = 0; i < count; i++) {
      in[i].p = data[i];
      in[i].len = lens[i];
    }
  }
  wire__free(ctx, ctx->oob_in, ctx->n_oob_in * sizeof *ctx->oob_in);
  ctx->oob_in = in;
  ctx->n_oob_in = count;
  ctx->oob_used = 0;
  return WIRE_OK;
}

size_t wire_ctx_oob_used(const wire_ctx *ctx) { return ctx ? ctx->oob_used : 0; }

size_t wire_ctx_oob_count(const wire_ctx *ctx) {
  return ctx ? ctx->n_oob_out : 0;
}

int32_t wire_ctx_oob_buffer(const wire_ctx *ctx, size_t index,
                            const uint8_t **out, size_t *out_len) {
  if (!ctx || !out || !out_len || index >= ctx->n_oob_out) return WIRE_E_ARG;
  *out = ctx->oob_out[index].p;
  *out_len = ctx->oob_out[index].len;
  return WIRE_OK;
}

void wire__oob_free(wire_ctx *ctx) {
  wire__free(ctx, ctx->oob_in, ctx->n_oob_in * sizeof *ctx->oob_in);
  wire__free(ctx, ctx->oob_out, ctx->oob_out_cap * sizeof *ctx->oob_out);
  ctx->oob_in = ctx->oob_out = NULL;
  ctx->n_oob_in = ctx->n_oob_out = ctx->oob_out_cap = 0;
}

/* ---- which bodies carry the marker ------------------------------------- */

/* In a root with header 03: the Java runtime marks binaries and every
 * dense array, pyfory binaries only, Fory Go nothing (R-OOB-3, errata
 * E-48). */
bool wire__oob_marked(const wire_ctx *ctx, uint32_t type) {
  switch (ctx->peer) {
  case WIRE_PEER_GO: return false;
  case WIRE_PEER_PYFORY: return type == WIRE_T_BINARY;
  default: return !WIRE_MUTANT(oob_binary_only) || type == WIRE_T_BINARY;
  }
}

/* ---- decoding ----------------------------------------------------------- */

int wire__dec_oob_marker(wire_dec *d, uint8_t type, uint32_t w,
                         const uint8_t **out, uint32_t *len_out) {
  const uint8_t *s = d->in.p;
  uint8_t m;
  if (!wire__get_u8(&d->in, &m)) return -1;
  if (m == 0x01) { /* in band: the length and the bytes follow */
    d->band = WIRE_NB_IN;
    WIRE_DEC_T(s, "buffer marker 01: in band");
    return 0;
  }
  if (m != 0x00) {
    wire__dec_fail(d, WIRE_E_VALUE, s, "buffer marker 0x%02x: expected 00 "
                   "(out of band) or 01 (in band)", m);
    return -1;
  }
  wire_ctx *ctx = d->ctx;
  if (ctx->oob_used >= ctx->n_oob_in) {
    wire__dec_fail(d, WIRE_E_TRUNCATED, s, "out-of-band buffer #%zu needed, "
                   "%zu given", ctx->oob_used, ctx->n_oob_in);
    return -1;
  }
  const wire_oob *b = &ctx->oob_in[ctx->oob_used];
  if (b->len % w) {
    wire__dec_fail(d, WIRE_E_LENGTH, s, "out-of-band buffer #%zu: %s byte "
                   "length %zu is not a multiple of %u", ctx->oob_used,
                   wire_type_name(type), b->len, w);
    return -1;
  }
  if (b->len > ctx->max_binary || b->len > UINT32_MAX) {
    wire__dec_fail(d, WIRE_E_LIMIT, s, "out-of-band buffer #%zu: %zu bytes "
                   "exceed the limit", ctx->oob_used, b->len);
    return -1;
  }
  if (type == WIRE_T_BOOL_ARRAY)
    for (size_t i = 0; i < b->len; i++)
      if (b->p[i] > 1) {
        wire__dec_fail(d, WIRE_E_VALUE, s, "out-of-band buffer #%zu: bool "
                       "byte 0x%02x at %zu", ctx->oob_used, b->p[i], i);
        return -1;
      }
  WIRE_DEC_T(s, "buffer marker 00: out of band, buffer #%zu (%zu byte(s), "
             "%zu element(s))", ctx->oob_used, b->len, b->len / w);
  ctx->oob_used++;
  d->band = WIRE_NB_OUT;
  *out = b->len ? b->p : s; /* never NULL */
  *len_out = (uint32_t)b->len;
  return 1;
}

/* ---- encoding ----------------------------------------------------------- */

static bool push_out(wire_enc *e, const uint8_t *p, size_t len) {
  wire_ctx *ctx = e->ctx;
  if (ctx->n_oob_out == ctx->oob_out_cap) {
    wire_oob *g = wire__grow(ctx, ctx->oob_out, &ctx->oob_out_cap,
                             ctx->n_oob_out + 1, sizeof *g, 8);
    if (!g) return wire__enc_fail(e, WIRE_E_NOMEM, "out of memory");
    ctx->oob_out = g;
  }
  ctx->oob_out[ctx->n_oob_out].p = p;
  ctx->oob_out[ctx->n_oob_out].len = len;
  ctx->n_oob_out++;
  return true;
}

bool wire__enc_bytes(wire_enc *e, uint32_t type, const uint8_t *p,
                     uint64_t len, uint8_t band) {
  if (len > UINT32_MAX)
    return wire__enc_fail(e, WIRE_E_LENGTH, "payload longer than 4 GiB");
  wire_buf *b = &e->b;
  if (WIRE_UNLIKELY(e->oob) && wire__oob_marked(e->ctx, type)) {
    bool out = band ? band == WIRE_NB_OUT : len >= e->ctx->oob_min;
    wire__put_u8(b, out ? 0x00 : 0x01);
    if (out) return push_out(e, p, (size_t)len);
  }
  wire__put_varu32(b, (uint32_t)len);
  wire__put_bytes(b, p, (size_t)len);
  return true;
}

/* ---- recorded choices in documents -------------------------------------- */

int32_t wire_node_set_band(wire_node *n, int32_t band) {
  if (!n || !(n->type == WIRE_T_BINARY || wire__is_array_type(n->type)) ||
      band < WIRE_BAND_POLICY || band > WIRE_BAND_OUT)
    return WIRE_E_ARG;
  n->a = band == WIRE_BAND_POLICY ? 0
         : band == WIRE_BAND_IN   ? WIRE_NB_IN
                                  : WIRE_NB_OUT;
  return WIRE_OK;
}

int32_t wire_node_band(const wire_node *n) {
  if (!n || !(n->type == WIRE_T_BINARY || wire__is_array_type(n->type)) ||
      !n->a)
    return WIRE_BAND_POLICY;
  return n->a == WIRE_NB_OUT ? WIRE_BAND_OUT : WIRE_BAND_IN;
}

int32_t wire_doc_set_root_oob(wire_doc *doc, size_t index, int32_t oob) {
  if (!doc || index >= doc->nroots) return WIRE_E_ARG;
  if (oob && doc->roots[index] == doc->null) {
    /* the root's own null: the shared one stands in other slots too */
    wire_node *n = wire__node_new(doc, WIRE_T_NULL);
    if (!n) return WIRE_E_NOMEM;
    doc->roots[index] = n;
  }
  if (oob) doc->roots[index]->flags |= WIRE_NF_OOB_ROOT;
  else doc->roots[index]->flags &= (uint8_t)~WIRE_NF_OOB_ROOT;
  return WIRE_OK;
}

int32_t wire_doc_root_oob(const wire_doc *doc, size_t index) {
  if (!doc || index >= doc->nroots) return -1;
  return (doc->roots[index]->flags & WIRE_NF_OOB_ROOT) ? 1 : 0;
}
