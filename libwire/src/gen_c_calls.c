/* gen_c_calls.c - how the straight-line decoders of `wire gen c` call one
 * another (gen_c_code.c): per mode, per struct with straight-line code,
 * which other bodies call its body, whether its nesting is bounded, how
 * deep it goes, and whether its body always reads a byte.
 *
 * A struct whose fields reach no cycle of struct types nests a bounded
 * number of levels: its body is written without a depth count of its own
 * (one check of the whole at its out-of-line entry), and when a single
 * other such body calls it, it is written into that body (always inlined).
 * The walk below follows the values exactly as dec_value / dec_list write
 * their calls and depth levels. */
#include "gen_c.h"

/* The structs whose bodies the value of declared type f, held as v, calls
 * (appended to out, *n of them so far; at most cap). */
static void callees(const gen *g, const wire_ftype *f, const vinfo *v,
                    uint32_t *out, uint32_t *n, uint32_t cap) {
  if (!v) return;
  uint8_t k = wire__gen_kind_of(g, f);
  if (k == WIRE_KIND_STRUCT) {
    if (*n < cap) out[(*n)++] = f->user;
    return;
  }
  if (k) return;
  if ((f->type_id == WIRE_T_LIST || f->type_id == WIRE_T_SET) &&
      strcmp(v->form, "WIRE_MEM_ARRAY") && f->elem)
    callees(g, f->elem, v->sub[0], out, n, cap);
}

/* Depth levels a value enters below its struct (dec_list: one per list;
 * a struct: its body's). */
static uint32_t value_depth(const gen *g, const wire_ftype *f, const vinfo *v,
                            const wire_gen_call *calls) {
  if (!v) return 0;
  uint8_t k = wire__gen_kind_of(g, f);
  if (k == WIRE_KIND_STRUCT) return calls[f->user].depth;
  if (k) return 0;
  if (f->type_id != WIRE_T_LIST && f->type_id != WIRE_T_SET) return 0;
  if (!strcmp(v->form, "WIRE_MEM_ARRAY") || !f->elem) return 1;
  return 1 + value_depth(g, f->elem, v->sub[0], calls);
}

/* Whether type `to` is reached from `from` over one call or more (seen:
 * scratch of nt bytes). */
static bool reaches(const gen *g, const uint8_t *ok, uint32_t from, uint32_t to,
                    uint8_t *seen, uint32_t *stack, uint32_t *buf, uint32_t cap) {
  uint32_t nt = g->r->ntypes, sp = 0;
  memset(seen, 0, nt);
  stack[sp++] = from;
  while (sp) {
    uint32_t t = stack[--sp];
    const wire_utype *u = &g->r->types[t];
    for (uint32_t k = 0; k < u->nfields; k++) {
      uint32_t n = 0;
      callees(g, u->fields[k].type, g->fv[t][k], buf, &n, cap);
      for (uint32_t j = 0; j < n; j++) {
        uint32_t c = buf[j];
        if (c == to) return true;
        if (c < nt && ok[c] && !seen[c]) {
          seen[c] = 1;
          stack[sp++] = c; /* (each type pushed once: sp < nt) */
        }
      }
    }
  }
  return false;
}

/* Fills calls[t].depth (and .nonzero) of a bounded type, its callees
 * first (they are bounded too, and form no cycle). */
static void fill_bounded(const gen *g, const uint8_t *ok, int mode, uint32_t t,
                         wire_gen_call *calls, uint8_t *done) {
  if (done[t]) return;
  done[t] = 1;
  const wire_utype *u = &g->r->types[t];
  uint32_t depth = 0;
  bool nonzero = !mode && !u->by_name; /* (the schema hash) */
  for (uint32_t k = 0; k < u->nfields; k++) {
    const wire_ftype *f = u->fields[k].type;
    const vinfo *v = g->fv[t][k];
    uint32_t c[1], n = 0;
    callees(g, f, v, c, &n, 1);
    if (n) fill_bounded(g, ok, mode, c[0], calls, done);
    uint32_t vd = value_depth(g, f, v, calls);
    if (vd > depth) depth = vd;
    /* a byte at least: a missing field's null flag, any flag, any value
     * but a struct (whose type meta in compatible mode is two bytes) */
    if (!v || f->nullable || f->ref || wire__gen_kind_of(g, f) != WIRE_KIND_STRUCT ||
        mode || calls[f->user].nonzero)
      nonzero = true;
  }
  calls[t].depth = 1 + depth;
  calls[t].nonzero = nonzero;
}

int wire__gen_calls(const gen *g, const uint8_t *ok, int mode, wire_gen_call *calls) {
  wire_ctx *ctx = g->ctx;
  uint32_t nt = g->r->ntypes, cap = 64;
  uint8_t *seen = wire__alloc(ctx, nt ? nt : 1);
  uint8_t *oncycle = wire__alloc(ctx, nt ? nt : 1);
  uint32_t *stack = wire__alloc(ctx, (nt ? nt : 1) * sizeof *stack);
  uint32_t buf[64];
  int rc = -1;
  if (!seen || !oncycle || !stack) goto out;
  memset(calls, 0, (nt ? nt : 1) * sizeof *calls);
  for (uint32_t t = 0; t < nt; t++)
    oncycle[t] = ok[t] && reaches(g, ok, t, t, seen, stack, buf, cap);
  /* unbounded: on a cycle, or reaching one */
  for (uint32_t t = 0; t < nt; t++) {
    if (!ok[t]) continue;
    calls[t].unbounded = oncycle[t];
    for (uint32_t c = 0; c < nt && !calls[t].unbounded; c++)
      if (c != t && oncycle[c] && reaches(g, ok, t, c, seen, stack, buf, cap))
        calls[t].unbounded = true;
  }
  memset(seen, 0, nt ? nt : 1);
  for (uint32_t t = 0; t < nt; t++)
    if (ok[t] && !calls[t].unbounded) fill_bounded(g, ok, mode, t, calls, seen);
  /* the bounded bodies' calls of bounded bodies */
  for (uint32_t t = 0; t < nt; t++) {
    if (!ok[t] || calls[t].unbounded) continue;
    const wire_utype *u = &g->r->types[t];
    for (uint32_t k = 0; k < u->nfields; k++) {
      uint32_t n = 0;
      callees(g, u->fields[k].type, g->fv[t][k], buf, &n, cap);
      for (uint32_t j = 0; j < n; j++) calls[buf[j]].parents++;
    }
  }
  rc = 0;
out:
  wire__free(ctx, seen, nt ? nt : 1);
  wire__free(ctx, oncycle, nt ? nt : 1);
  wire__free(ctx, stack, (nt ? nt : 1) * sizeof *stack);
  return rc;
}
