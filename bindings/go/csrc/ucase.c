/* ucase.c - the declared type of a union case, which pyfory and Java use
 * for a case value of list, set or map type (spec R-UNION-5). */
#include "internal.h"
#include "schema.h"

/* Registry index of the union a value names: by id (user_id) or by name
 * (names); WIRE_NO_TYPE when the schema has none. */
uint32_t wire__union_find(const wire_ctx *ctx, uint32_t user_id,
                          const wire_names *nm) {
  const wire_registry *r = ctx->reg;
  if (!r) return WIRE_NO_TYPE;
  for (uint32_t i = 0; i < r->ntypes; i++) {
    const wire_utype *t = &r->types[i];
    if (t->kind != WIRE_KIND_UNION) continue;
    if (nm) {
      if (t->by_name && strlen(t->ns) == nm->ns_len &&
          strlen(t->name) == nm->name_len && wire__eq(t->ns, nm->ns, nm->ns_len) &&
          wire__eq(t->name, nm->name, nm->name_len))
        return i;
    } else if (!t->by_name && user_id != UINT32_MAX && t->user_id == user_id) {
      return i;
    }
  }
  return WIRE_NO_TYPE;
}

const wire_ftype *wire__union_case_decl_at(const wire_ctx *ctx, uint32_t ti,
                                           uint32_t c) {
  const wire_registry *r = ctx->reg;
  if (!r || ti == WIRE_NO_TYPE || ti >= r->ntypes) return NULL;
  const wire_utype *u = &r->types[ti];
  if (u->kind != WIRE_KIND_UNION) return NULL;
  for (uint32_t i = 0; i < u->ncases; i++) {
    const wire_ftype *ft = u->cases[i].type;
    if (u->cases[i].case_id == c && ft &&
        (ft->type_id == WIRE_T_LIST || ft->type_id == WIRE_T_SET ||
         ft->type_id == WIRE_T_MAP))
      return ft;
  }
  return NULL;
}

const wire_ftype *wire__union_case_decl(const wire_ctx *ctx, const wire_node *n,
                                        uint32_t c) {
  uint32_t ti = n->v.un->reg;
  if (ti == WIRE_NO_TYPE) ti = wire__union_find(ctx, n->v.un->user_id, n->v.un->names);
  return wire__union_case_decl_at(ctx, ti, c);
}
