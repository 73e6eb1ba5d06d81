/* decode_state.c - the decoder's state around the values (dec.h), shared
 * by the document, tape and compiled decoders: the meta string hash seed,
 * what each root resets, the tables kept on the context for the next
 * decode, the header byte of each root, the errors and the dump lines.
 * The values themselves are read by decode.c (which also has
 * wire__dec_init, so that wire_decode inlines it). */
#include "dec.h"

#include <stdio.h>

/* The meta string hash key: addresses (ASLR) and a counter, mixed (in
 * fuzz builds one fixed number, os_random.c's wire__fuzz_key). Made
 * when the first meta string is read (most payloads have none, and the
 * atomic counter is a measurable part of decoding a small struct). */
void wire__dec_seed(dec *d) {
#ifdef WIRE_FUZZ_KEYS
  /* (fuzz builds: one key for every decode, internal.h) */
  uint64_t x = wire__fuzz_key() ^ UINT64_C(0x6d6574615f737472);
#else
  static _Atomic uint64_t calls;
  uint64_t x = (uint64_t)(uintptr_t)d ^ ((uint64_t)(uintptr_t)d->ctx << 17) ^
               ((uint64_t)(uintptr_t)&wire__dec_init << 31) ^
               (++calls * UINT64_C(0x9e3779b97f4a7c15));
#endif
  for (int i = 0; i < 2; i++) {
    x += UINT64_C(0x9e3779b97f4a7c15);
    uint64_t z = x;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    d->seed[i] = z ^ (z >> 31);
  }
  d->seeded = true;
}

void wire__dec_root(dec *d) {
  d->nrefs = 0;
  d->nms = 0;
  d->ntds = 0;
  d->depth = 0;
}

/* The tables are left to the context for the next decode (when it keeps
 * none and they are not large), else freed. */
#define DEC_KEEP_MAX 4096
void wire__dec_fini(dec *d) {
  wire_ctx *ctx = d->ctx;
  if (!ctx->dec_keep.ms && !ctx->dec_keep.tds && d->ms_cap <= DEC_KEEP_MAX &&
      d->tds_cap <= DEC_KEEP_MAX) {
    ctx->dec_keep.ms = d->ms;
    ctx->dec_keep.ms_cap = d->ms_cap;
    ctx->dec_keep.tds = d->tds;
    ctx->dec_keep.tds_cap = d->tds_cap;
  } else {
    if (d->ms) wire__free(ctx, d->ms, d->ms_cap * sizeof *d->ms);
    if (d->tds) wire__free(ctx, d->tds, d->tds_cap * sizeof *d->tds);
  }
  d->ms = NULL;
  d->tds = NULL;
  d->ms_cap = d->tds_cap = 0;
}

void wire__dec_keep_free(wire_ctx *ctx) {
  ms_entry *ms = ctx->dec_keep.ms;
  wire_layout **tds = ctx->dec_keep.tds;
  if (ms) wire__free(ctx, ms, ctx->dec_keep.ms_cap * sizeof *ms);
  if (tds) wire__free(ctx, tds, ctx->dec_keep.tds_cap * sizeof *tds);
  memset(&ctx->dec_keep, 0, sizeof ctx->dec_keep);
}

bool wire__dec_root_header(dec *d, size_t roots) {
  wire_ctx *ctx = d->ctx;
  if (roots >= ctx->max_roots)
    return wire__dec_fail(d, WIRE_E_LIMIT, d->in.p,
                          "more than %llu root values",
                          (unsigned long long)ctx->max_roots);
  wire__dec_root(d);
  const uint8_t *s = d->in.p;
  uint8_t h = *d->in.p++;
  if (h != 0x01 && h != 0x03)
    return wire__dec_fail(d, WIRE_E_HEADER, s,
                          "header 0x%02x: expected 0x01 (xlang) or 0x03 "
                          "(xlang, out-of-band buffers)", h);
  d->oob = h == 0x03; /* R-PAYLOAD-3 */
  if (d->dump) {
    char text[80];
    snprintf(text, sizeof text, "header 0x%02x: xlang%s (root value #%zu)", h,
             d->oob ? ", out-of-band buffers" : "", roots);
    d->dump(d->dump_user, wire__off(&d->in, s), 1, 0, text);
  }
  return true;
}

/* ---- errors and dump lines (cold: off the values' path) ---- */

bool wire__dec_fail(dec *d, int32_t code, const uint8_t *at, const char *fmt,
                    ...) {
  va_list ap;
  va_start(ap, fmt);
  char msg[256];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  wire__fail(d->ctx, code, wire__off(&d->in, at), "%s", msg);
  return false;
}

void wire__dec_trace(dec *d, const uint8_t *start, const char *fmt, ...) {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  d->dump(d->dump_user, wire__off(&d->in, start),
          (uint64_t)(d->in.p - start), d->depth, text);
}
