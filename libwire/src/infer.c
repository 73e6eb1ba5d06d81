/* infer.c - schema facts for people: the fingerprint behind a schema hash,
 * and FDL inferred from the TypeDefs of a payload. */
#include "notation.h"

int32_t wire_schema_fingerprint(wire_ctx *ctx, uint32_t type, char *out,
                                size_t cap, size_t *out_len,
                                uint32_t *out_hash) {
  if (!ctx) return WIRE_E_ARG;
  wire_registry *r = ctx->reg;
  if (!r || type >= r->ntypes || r->types[type].kind != WIRE_KIND_STRUCT)
    return wire__fail(ctx, WIRE_E_ARG, 0, "type %u is not a struct of the "
                                          "schema", type);
  int32_t st = wire__layout_of(ctx, type);
  if (st) return st;
  if (out_hash) *out_hash = r->types[type].layout->schema_hash;
  size_t len = 0;
  st = wire__schema_fingerprint(ctx, type, out, cap, &len);
  if (out_len) *out_len = len;
  return st;
}

int32_t wire_schema_infer(wire_ctx *ctx, const uint8_t *data, size_t len,
                          uint8_t **out, size_t *out_len) {
  (void)data; (void)len; (void)out; (void)out_len;
  return wire__fail(ctx, WIRE_E_UNSUPPORTED, 0, "not yet");
}
