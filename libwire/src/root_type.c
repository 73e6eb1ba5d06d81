/* root_type.c - wire_root_type: the registered type a payload's first root
 * value names in its type meta, read as the decoders read it (dec.h), so
 * that a binding can pick the class of an untyped decode before it
 * decodes (a struct registered by name in schema-consistent mode names it
 * with two meta strings, which only a meta-string decoder reads). */
#include "dec.h"

int32_t wire_root_type(wire_ctx *ctx, const uint8_t *data, size_t len,
                       uint32_t *out_type) {
  if (!ctx || (!data && len) || !out_type) return WIRE_E_ARG;
  *out_type = WIRE_NO_TYPE;
  if (!len) return wire__fail(ctx, WIRE_E_TRUNCATED, 0, "empty input");
  wire_arena arena;
  memset(&arena, 0, sizeof arena);
  arena.ctx = ctx;
  size_t oob_used = ctx->oob_used; /* (wire__dec_init clears it) */
  wire_dec d;
  wire__dec_init(&d, ctx, data, len, NULL, &arena);
  ctx->oob_used = oob_used;
  wire_tmeta tm;
  int8_t flag;
  uint32_t id;
  const uint8_t *fs = data + 1;
  bool ok = wire__dec_root_header(&d, 0) &&
            wire__dec_ref_flag(&d, true, &flag, &id);
  if (ok && (flag == WIRE_REF_NULL || flag == WIRE_REF_REF))
    ok = wire__dec_fail(&d, WIRE_E_VALUE, fs, "the root is null or a reference");
  if (ok) ok = wire__dec_type_meta(&d, &tm);
  if (ok) {
    if (tm.layout) /* structs (a writer's TypeDef: the type it names) */
      *out_type = tm.layout->type_index;
    else if (tm.type >= WIRE_T_ENUM && tm.type <= WIRE_T_NAMED_UNION &&
             tm.type != WIRE_T_UNION)
      *out_type = wire__reg_lookup_names(ctx, wire__dec_kind_of(tm.type),
                                         tm.user_id, tm.names);
  }
  if (d.tdc_pin) wire__tdcache_unpin(ctx, d.tdc_pin);
  wire__dec_fini(&d);
  wire__arena_free(&arena);
  return ok ? WIRE_OK : ctx->err_code ? ctx->err_code : WIRE_E_STATE;
}
