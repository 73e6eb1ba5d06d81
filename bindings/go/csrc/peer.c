/* peer.c - the legal choices in which the runtimes' same-schema bytes
 * differ, read and written as the runtime chosen with WIRE_OPT_PEER does
 * (spec R-PEER-1..4, errata E-32, E-33, E-40..). */
#include "policy.h"

uint32_t wire__peer_schema_hash(const wire_ctx *ctx, const wire_layout *l) {
  switch (WIRE_MUTANT(peer_hash_ignored) ? WIRE_PEER_NONE : ctx->peer) {
  case WIRE_PEER_PYFORY:
    /* pyfory writes the seed for an empty fingerprint (E-32) */
    return l->nfields ? l->schema_hash : 47;
  case WIRE_PEER_JAVA:
    /* without reference tracking Java hashes no ref flag (E-40) */
    return ctx->ref_tracking ? l->schema_hash : l->schema_hash_noref;
  case WIRE_PEER_GO:
    /* Go hashes pointer fields as not nullable (E-41) */
    return l->schema_hash_go;
  default:
    return l->schema_hash;
  }
}

bool wire__peer_field_meta_of(const wire_ctx *ctx, const wire_ftype *f) {
  /* pyfory: type meta (after the null flag of a nullable field) before a
   * same-schema field whose struct is registered by name (E-33) */
  if (ctx->peer != WIRE_PEER_PYFORY || ctx->compatible || !ctx->reg ||
      WIRE_MUTANT(peer_named_meta_ignored) ||
      f->user == WIRE_NO_TYPE || f->user >= ctx->reg->ntypes)
    return false;
  const wire_utype *t = &ctx->reg->types[f->user];
  return t->kind == WIRE_KIND_STRUCT && t->by_name;
}

bool wire__peer_any_flag_of(const wire_ctx *ctx, const wire_ftype *f) {
  /* Go: a null flag before every any field, declared nullable or not (E-42) */
  return ctx->peer == WIRE_PEER_GO && f->type_id == WIRE_T_UNKNOWN &&
         !WIRE_MUTANT(peer_go_fields_ignored);
}

bool wire__peer_value_flag_of(const wire_ctx *ctx, const wire_ftype *f) {
  /* Go with reference tracking, same-schema mode: a struct field held by
   * value gets a flag too (`ff` before the body; its TypeDef declares it
   * ref, which compatible mode follows), as a pointer would (E-52) */
  return ctx->peer == WIRE_PEER_GO && ctx->ref_tracking && !ctx->compatible &&
         !f->nullable && !f->ref && wire__is_struct_or_ext(f->type_id) &&
         !WIRE_MUTANT(peer_go_fields_ignored);
}

bool wire__peer_field_tracks_of(const wire_ctx *ctx, const wire_ftype *f) {
  /* Go with reference tracking: every nullable struct field (a pointer)
   * carries reference flags, while its schema hash counts the ref flag of
   * fields tagged fory:"ref" only (E-41) */
  return ctx->peer == WIRE_PEER_GO && ctx->ref_tracking && f->nullable &&
         wire__is_struct_or_ext(f->type_id) && !WIRE_MUTANT(peer_go_fields_ignored);
}
