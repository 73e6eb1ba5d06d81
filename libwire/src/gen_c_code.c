/* gen_c_code.c - the straight-line codecs of `wire gen c`: for each
 * message, an encoder and a decoder written out field by field over the
 * generated C structs, with the framing (flags, type meta, list headers),
 * TypeDef bytes, schema hashes and type ids fixed at generation time, so
 * that a message costs a few instructions a field and one call into
 * libwire (wire_gen_begin).
 *
 * They handle the common case only: the context in its default options
 * (no reference tracking, strings as given, no peer quirks) in either
 * mode, and on the decoding side the bytes that libwire's own writer would
 * produce for the registered TypeDefs, or another writer's TypeDef of a
 * struct through its field map (wire_gen_map; dec_map_fn: fields read as
 * declared, integers converted, primitives skipped, missing fields zero).
 * Another list header, a reference flag, a Latin-1 or UTF-16 string, a
 * limit reached, a writer's field of another kind, ... are not handled.
 * Whatever they do not handle, the whole message
 * goes to wire_mem_encode / wire_mem_decode over the same structs, which
 * read every form and report errors with their class and byte offset. So
 * their checks only need to be at least as strict as the interpreter's: a
 * message they accept is one the interpreter accepts with the same result.
 *
 * The registration checks that the context registered the types with the
 * TypeDefs and hashes the code was generated with (else every message goes
 * to the interpreter). Maps and decimals have no straight-line form yet:
 * a message that can hold one always goes to the interpreter. */
#include "gen_c.h"
#include "policy.h"

#include <stdio.h>

#define helpers wire__gen_helpers

/* ---- what the generated code can do straight ---------------------------- */

static bool sl_value(const gen *g, const uint8_t *ok, const wire_ftype *f,
                     const vinfo *v);

/* Per mode (0 same-schema, 1 compatible), whether struct ti and everything
 * it holds has straight-line code. */
static void sl_compute(gen *g, uint8_t *ok, int mode) {
  uint32_t nt = g->r->ntypes;
  for (uint32_t i = 0; i < nt; i++) {
    const wire_utype *t = &g->r->types[i];
    /* named structs in same-schema mode carry meta strings; unions go
     * through the interpreter */
    ok[i] = g->ok[i] && t->kind == WIRE_KIND_STRUCT && !(mode == 0 && t->by_name);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < nt; i++) {
      if (!ok[i]) continue;
      const wire_utype *t = &g->r->types[i];
      for (uint32_t k = 0; k < t->nfields; k++) {
        const vinfo *v = g->fv[i][k];
        if (v && !sl_value(g, ok, t->fields[k].type, v)) {
          ok[i] = 0;
          changed = true;
          break;
        }
      }
    }
  }
}

static bool sl_value(const gen *g, const uint8_t *ok, const wire_ftype *f,
                     const vinfo *v) {
  uint8_t k = wire__gen_kind_of(g, f);
  if (k == WIRE_KIND_ENUM) return true;
  if (k == WIRE_KIND_STRUCT) return ok[f->user];
  if (k) return false;
  switch (f->type_id) {
  case WIRE_T_DECIMAL: case WIRE_T_MAP: return false;
  case WIRE_T_LIST: case WIRE_T_SET:
    if (!strcmp(v->form, "WIRE_MEM_ARRAY")) return true;
    return v->sub[0] && sl_value(g, ok, f->elem, v->sub[0]);
  default:
    return true;
  }
}

/* ---- generation state ----------------------------------------------------- */

/* (cg, the state of writing one mode's code: gen_c.h) */

static const char *P_(const cg *x) { return x->g->prefix; }

/* Wire type of a field type (the registered kind for user types). */
static bool is_struct_t(const cg *x, const wire_ftype *f) {
  return wire__gen_kind_of(x->g, f) == WIRE_KIND_STRUCT;
}

/* The struct kind written for ti in this mode, and whether it carries its
 * TypeDef (else its user id). */
uint8_t kind_in(const cg *x, uint32_t ti) {
  const wire_utype *t = &x->g->r->types[ti];
  bool compat = x->mode && t->evolving;
  return t->by_name ? (compat ? WIRE_T_NAMED_COMPATIBLE_STRUCT : WIRE_T_NAMED_STRUCT)
                    : (compat ? WIRE_T_COMPATIBLE_STRUCT : WIRE_T_STRUCT);
}
bool has_td(const cg *x, uint32_t ti) {
  uint8_t k = kind_in(x, ti);
  return k == WIRE_T_COMPATIBLE_STRUCT || k == WIRE_T_NAMED_COMPATIBLE_STRUCT ||
         (x->mode && k == WIRE_T_NAMED_STRUCT);
}

/* Most bytes a value writes when that is bounded (no string, list or
 * struct); 0 otherwise. */
static uint32_t bound_of(const cg *x, const wire_ftype *f, const vinfo *v) {
  if (!v) return 0;
  if (wire__gen_kind_of(x->g, f) == WIRE_KIND_ENUM) return 5;
  if (wire__gen_kind_of(x->g, f)) return 0;
  switch (f->type_id) {
  case WIRE_T_BOOL: case WIRE_T_INT8: case WIRE_T_UINT8: return 1;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16:
  case WIRE_T_BFLOAT16: return 2;
  case WIRE_T_INT32: case WIRE_T_UINT32: case WIRE_T_FLOAT32: return 4;
  case WIRE_T_VARINT32: case WIRE_T_VAR_UINT32: return 5;
  case WIRE_T_INT64: case WIRE_T_UINT64: case WIRE_T_FLOAT64: return 8;
  case WIRE_T_VARINT64: case WIRE_T_VAR_UINT64: case WIRE_T_TAGGED_INT64:
  case WIRE_T_TAGGED_UINT64: case WIRE_T_DATE: return 9;
  case WIRE_T_TIMESTAMP: return 12;
  case WIRE_T_DURATION: return 13;
  default: return 0;
  }
}

/* Whether a slot of declared type f carries a null / reference flag and
 * type meta (mem_layout.c's wire__mem_frame, without reference tracking). */
static bool slot_flag(const wire_ftype *f) { return f->nullable || f->ref; }
static bool slot_meta(const cg *x, const wire_ftype *f) {
  return x->mode && is_struct_t(x, f);
}

/* The C test that a held value is null (for a slot with a flag). */
static void null_test(const cg *x, const wire_ftype *f, const vinfo *v,
                      const char *X, const char *has, char *out, size_t cap) {
  if (v->flag) snprintf(out, cap, "!%s", has);
  else if (!strcmp(v->form, "WIRE_MEM_STRUCT_PTR")) snprintf(out, cap, "!%s", X);
  else if (v->shape == 1) snprintf(out, cap, "!%s.ptr", X);
  else if (v->shape == 2) snprintf(out, cap, "!%s.items", X);
  else snprintf(out, cap, "0");
  (void)x;
  (void)f;
}

static void ind(sb *c, int n) { put(c, "%*s", 2 * n, ""); }

/* ---- encoders -------------------------------------------------------------- */

/* Type meta of a struct of type ti (room is the callee's). */
static void enc_meta(cg *x, uint32_t ti, int d) {
  char nm[160];
  wire__gen_cname(x->g, ti, nm, sizeof nm);
  const wire_utype *t = &x->g->r->types[ti];
  ind(x->c, d);
  if (has_td(x, ti))
    put(x->c, "if (!(q = %s__meta(e, q, %u, 0x%02x, %s_td, sizeof %s_td))) return 0;\n",
        P_(x), ti, kind_in(x, ti), nm, nm);
  else
    put(x->c, "if (!(q = %s__id(e, q, 0x%02x, %uu))) return 0;\n", P_(x),
        kind_in(x, ti), t->user_id);
}

/* Writes a primitive of wire type t held in X (room reserved). */
static void enc_prim(cg *x, uint8_t t, const char *X, int d) {
  sb *c = x->c;
  ind(c, d);
  switch (t) {
  case WIRE_T_BOOL: put(c, "*q++ = %s ? 1 : 0;\n", X); break;
  case WIRE_T_INT8: case WIRE_T_UINT8: put(c, "*q++ = (uint8_t)%s;\n", X); break;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16:
    put(c, "q = %s__u16(q, (uint16_t)%s);\n", P_(x), X);
    break;
  case WIRE_T_INT32: case WIRE_T_UINT32:
    put(c, "q = %s__u32(q, (uint32_t)%s);\n", P_(x), X);
    break;
  case WIRE_T_INT64: case WIRE_T_UINT64:
    put(c, "q = %s__u64(q, (uint64_t)%s);\n", P_(x), X);
    break;
  case WIRE_T_FLOAT32: put(c, "q = %s__f32(q, %s);\n", P_(x), X); break;
  case WIRE_T_FLOAT64: put(c, "q = %s__f64(q, %s);\n", P_(x), X); break;
  case WIRE_T_VARINT32:
    put(c, "q = %s__vu32(q, %s__zz32(%s));\n", P_(x), P_(x), X);
    break;
  case WIRE_T_VAR_UINT32: put(c, "q = %s__vu32(q, %s);\n", P_(x), X); break;
  case WIRE_T_VARINT64: case WIRE_T_DATE:
    put(c, "q = %s__vu64(q, %s__zz64(%s));\n", P_(x), P_(x), X);
    break;
  case WIRE_T_VAR_UINT64: put(c, "q = %s__vu64(q, %s);\n", P_(x), X); break;
  case WIRE_T_TAGGED_INT64: put(c, "q = %s__ti64(q, %s);\n", P_(x), X); break;
  case WIRE_T_TAGGED_UINT64: put(c, "q = %s__tu64(q, %s);\n", P_(x), X); break;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION:
    put(c, "if (%s.nanos >= 1000000000u) return 0;\n", X);
    ind(c, d);
    if (t == WIRE_T_TIMESTAMP)
      put(c, "q = %s__u64(q, (uint64_t)%s.seconds);\n", P_(x), X);
    else
      put(c, "q = %s__vu64(q, %s__zz64(%s.seconds));\n", P_(x), P_(x), X);
    ind(c, d);
    put(c, "q = %s__u32(q, %s.nanos);\n", P_(x), X);
    break;
  default:
    put(c, "return 0; /* type %u */\n", t);
    break;
  }
}

static void enc_value(cg *x, const wire_ftype *f, const vinfo *v,
                      const char *X, int d, bool meta);

/* A list held as {items, count} with element vinfo ev. */
static void enc_list(cg *x, const wire_ftype *f, const vinfo *v, const char *X,
                     int d) {
  sb *c = x->c;
  const char *P = P_(x);
  const wire_ftype *ef = f->elem;
  uint32_t n = x->tmp++;
  const wire_ftype *ed;
  bool packed = !strcmp(v->form, "WIRE_MEM_ARRAY");
  uint8_t lh = wire__pol_list_header(x->g->ctx, f, true, false, false, &ed);
  uint8_t lhn = wire__pol_list_header(x->g->ctx, f, true, true, false, &ed);
  ind(c, d); put(c, "{\n");
  ind(c, d + 1); put(c, "uint32_t n%u = %s.count;\n", n, X);
  ind(c, d + 1); put(c, "%s const *it%u = %s.items;\n", v->item, n, X);
  ind(c, d + 1); put(c, "if (n%u && !it%u) return 0;\n", n, n);
  if (packed) {
    uint32_t w = bound_of(x, ef, v); /* the element's most bytes */
    ind(c, d + 1);
    put(c, "if (!%s__room(e, &q, 7 + (size_t)n%u * %u)) return 0;\n", P, n, w ? w : 9);
  } else {
    ind(c, d + 1); put(c, "if (!%s__room(e, &q, 7)) return 0;\n", P);
  }
  ind(c, d + 1); put(c, "q = %s__vu32(q, n%u);\n", P, n);
  ind(c, d + 1); put(c, "if (n%u) {\n", n);
  int b = d + 2;
  if (packed) {
    ind(c, b); put(c, "*q++ = 0x%02x;\n", lh);
    if (!(lh & WIRE_LF_DECL)) { ind(c, b); put(c, "*q++ = 0x%02x;\n", ef->type_id); }
    ind(c, b); put(c, "for (uint32_t i = 0; i < n%u; i++) {\n", n);
    char it[64];
    snprintf(it, sizeof it, "it%u[i]", n);
    enc_prim(x, ef->type_id, it, b + 1);
    ind(c, b); put(c, "}\n");
    ind(c, d + 1); put(c, "}\n");
    ind(c, d); put(c, "}\n");
    return;
  }
  const vinfo *ev = v->sub[0];
  char item[80], has[96], nt[240];
  snprintf(item, sizeof item, ev->flag ? "it%u[i].value" : "it%u[i]", n);
  snprintf(has, sizeof has, "it%u[i].has_value", n);
  null_test(x, ef, ev, item, has, nt, sizeof nt);
  /* wire_mem_encode looks for null elements only where they may be */
  if (strcmp(nt, "0") && (ef->nullable || ev->flag)) {
    ind(c, b); put(c, "uint8_t h = 0x%02x;\n", lh);
    ind(c, b); put(c, "for (uint32_t i = 0; i < n%u; i++)\n", n);
    ind(c, b + 1); put(c, "if (%s) { h = 0x%02x; break; }\n", nt, lhn);
  } else {
    ind(c, b); put(c, "const uint8_t h = 0x%02x;\n", lh);
  }
  ind(c, b); put(c, "*q++ = h;\n");
  bool elem_meta = false;
  if ((lh & WIRE_LF_SAME_TYPE) && !(lh & WIRE_LF_DECL)) {
    if (is_struct_t(x, ef)) {
      enc_meta(x, ef->user, b);
    } else {
      ind(c, b); put(c, "*q++ = 0x%02x;\n", ef->type_id);
    }
  } else if (!(lh & WIRE_LF_DECL)) {
    ind(c, b); put(c, "return 0; /* elements of undeclared type */\n");
    elem_meta = true;
  }
  (void)elem_meta;
  uint32_t eb = bound_of(x, ef, ev);
  ind(c, b); put(c, "for (uint32_t i = 0; i < n%u; i++) {\n", n);
  if (eb) { ind(c, b + 1); put(c, "if (!%s__room(e, &q, %u)) return 0;\n", P, eb + 1); }
  ind(c, b + 1); put(c, "if (h & 0x%02x) {\n", WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  if (!eb) { ind(c, b + 2); put(c, "if (!%s__room(e, &q, 1)) return 0;\n", P); }
  if (strcmp(nt, "0")) {
    ind(c, b + 2); put(c, "if (%s) { *q++ = 0xFD; continue; }\n", nt);
  }
  ind(c, b + 2); put(c, "*q++ = 0xFF;\n");
  ind(c, b + 1); put(c, "}\n");
  enc_value(x, ef, ev, item, b + 1, false);
  ind(c, b); put(c, "}\n");
  ind(c, d + 1); put(c, "}\n");
  ind(c, d); put(c, "}\n");
}

/* A value of declared type f held in X as v (its flag written already;
 * `meta`: the slot's type meta precedes the body). Bounded values find
 * their room reserved. */
static void enc_value(cg *x, const wire_ftype *f, const vinfo *v,
                      const char *X, int d, bool meta) {
  sb *c = x->c;
  const char *P = P_(x);
  uint8_t k = wire__gen_kind_of(x->g, f);
  if (k == WIRE_KIND_ENUM) {
    ind(c, d); put(c, "q = %s__vu32(q, %s);\n", P, X);
    return;
  }
  if (k == WIRE_KIND_STRUCT) {
    char nm[160];
    wire__gen_cname(x->g, f->user, nm, sizeof nm);
    bool ptr = !strcmp(v->form, "WIRE_MEM_STRUCT_PTR");
    if (ptr) { ind(c, d); put(c, "if (!%s) return 0;\n", X); }
    if (meta) enc_meta(x, f->user, d);
    ind(c, d);
    put(c, "e->p = q;\n");
    ind(c, d);
    put(c, "if (!%s_e%d(e, %s%s)) return 0;\n", nm, x->mode, ptr ? "" : "&", X);
    ind(c, d);
    put(c, "q = e->p;\n");
    return;
  }
  uint8_t t = f->type_id;
  if (t == WIRE_T_STRING) {
    ind(c, d); put(c, "if (!(q = %s__str(e, q, %s.ptr, %s.len))) return 0;\n", P, X, X);
    return;
  }
  if (t == WIRE_T_BINARY) {
    ind(c, d); put(c, "if (!(q = %s__bin(e, q, %s.ptr, %s.len, 1))) return 0;\n", P, X, X);
    return;
  }
  uint8_t de = wire__array_elem_type(t);
  if (de) {
    ind(c, d);
    put(c, "if (!(q = %s__bin(e, q, (const uint8_t *)%s.items, %s.count, %u))) return 0;\n",
        P, X, X, wire_type_array_width(t));
    return;
  }
  if (t == WIRE_T_LIST || t == WIRE_T_SET) {
    enc_list(x, f, v, X, d);
    return;
  }
  enc_prim(x, t, X, d);
}

/* The fields of struct ti in wire order. */
static void enc_fields(cg *x, uint32_t ti) {
  sb *c = x->c;
  const wire_utype *t = &x->g->r->types[ti];
  const char *P = P_(x);
  for (uint32_t w = 0; w < t->nfields;) {
    /* a run of bounded fields shares one room check */
    uint32_t sum = 0, end = w;
    while (end < t->nfields) {
      uint32_t k = t->layout->fields[end].local;
      const wire_ftype *f = t->fields[k].type;
      const vinfo *v = x->g->fv[ti][k];
      uint32_t bo = v ? bound_of(x, f, v) : (slot_flag(f) ? 0 : 0);
      if (!v && slot_flag(f)) bo = 0;
      if (!bo) break;
      sum += bo + (slot_flag(f) ? 1 : 0);
      end++;
    }
    if (sum) {
      ind(c, 1); put(c, "if (!%s__room(e, &q, %u)) return 0;\n", P, sum);
    } else {
      end = w + 1;
    }
    for (; w < end; w++) {
      uint32_t k = t->layout->fields[w].local;
      const wire_field *fd = &t->fields[k];
      const wire_ftype *f = fd->type;
      const vinfo *v = x->g->fv[ti][k];
      ind(c, 1); put(c, "/* %s */\n", fd->name);
      if (!v) {
        /* not held: null (the type is generated only if it is nullable) */
        ind(c, 1); put(c, "if (!%s__room(e, &q, 1)) return 0;\n", P);
        ind(c, 1); put(c, "*q++ = 0xFD;\n");
        continue;
      }
      char X[200], has[200];
      char mb[200];
      snprintf(X, sizeof X, "v->%s", wire__gen_member(fd->name, mb, sizeof mb));
      char fb[200];
      snprintf(has, sizeof has, "v->%s", wire__gen_flag(x->g, ti, k, fb, sizeof fb));
      bool bounded = sum != 0;
      if (slot_flag(f)) {
        char nt[240];
        null_test(x, f, v, X, has, nt, sizeof nt);
        if (!bounded) { ind(c, 1); put(c, "if (!%s__room(e, &q, 1)) return 0;\n", P); }
        ind(c, 1); put(c, "if (%s) {\n", nt);
        ind(c, 2); put(c, "*q++ = 0xFD;\n");
        ind(c, 1); put(c, "} else {\n");
        ind(c, 2); put(c, "*q++ = 0xFF;\n");
        enc_value(x, f, v, X, 2, slot_meta(x, f));
        ind(c, 1); put(c, "}\n");
      } else {
        enc_value(x, f, v, X, 1, slot_meta(x, f));
      }
    }
  }
}

static void enc_struct_fn(cg *x, uint32_t ti) {
  sb *c = x->c;
  char nm[160];
  wire__gen_cname(x->g, ti, nm, sizeof nm);
  const wire_utype *t = &x->g->r->types[ti];
  put(c, "static int %s_e%d(%s__enc *e, const struct %s *v) {\n", nm, x->mode,
      P_(x), nm);
  put(c, "  if (++e->depth > e->max_depth) return 0;\n  uint8_t *q = e->p;\n  (void)v;\n");
  uint8_t kd = kind_in(x, ti);
  if (!x->mode && (kd == WIRE_T_STRUCT || kd == WIRE_T_NAMED_STRUCT)) {
    put(c, "  if (!%s__room(e, &q, 4)) return 0;\n", P_(x));
    put(c, "  q = %s__u32(q, 0x%08xu);\n", P_(x), t->layout->schema_hash);
  }
  enc_fields(x, ti);
  put(c, "  e->p = q;\n  e->depth--;\n  return 1;\n}\n\n");
}

/* ---- decoders -------------------------------------------------------------- */

/* Type meta of a struct of type ti. With a TypeDef: declares mp<N> / mn<N>,
 * the field map of the writer's TypeDef (NULL: the registered one), and
 * returns N; else -1. */
static int dec_meta(cg *x, uint32_t ti, int d) {
  char nm[160];
  wire__gen_cname(x->g, ti, nm, sizeof nm);
  const wire_utype *t = &x->g->r->types[ti];
  ind(x->c, d);
  if (has_td(x, ti)) {
    uint32_t u = x->tmp++;
    put(x->c, "const uint32_t *mp%u = NULL;\n", u);
    ind(x->c, d); put(x->c, "uint32_t mn%u = 0;\n", u);
    ind(x->c, d);
    put(x->c, "if (!(p = %s__dmeta(d, p, end, %u, %u, 0x%02x, %s_td, sizeof %s_td, &mp%u, &mn%u)))"
              " return 0;\n", P_(x), ti, x->g->layout_of[ti], kind_in(x, ti), nm, nm, u, u);
    return (int)u;
  }
  put(x->c, "if (!(p = %s__did(p, end, 0x%02x, %uu))) return 0;\n", P_(x), kind_in(x, ti),
      t->user_id);
  return -1;
}

/* The call of the body decoder of struct ti into pointer expression S:
 * through the writer's field map when map variable mv (>= 0) is set. A
 * bounded body calls a bounded one's body straight (NM_i: no depth check,
 * its levels passed on); a field map's reader counts depth itself, so it
 * gets the levels entered so far added to d->depth. */
static void dec_call(cg *x, uint32_t ti, int mv, const char *S, int d) {
  sb *c = x->c;
  char nm[160], body[400], lv[48] = "";
  wire__gen_cname(x->g, ti, nm, sizeof nm);
  bool direct = x->bounded && x->calls && !x->calls[ti].unbounded;
  if (direct) {
    snprintf(lv, sizeof lv, "lv + %u", x->lvl);
    snprintf(body, sizeof body, "%s_i%d(d, %s, %s)", nm, x->mode, S, lv);
  } else {
    snprintf(body, sizeof body, "%s_d%d(d, %s)", nm, x->mode, S);
  }
  if (mv < 0) {
    ind(c, d); put(c, "if (!%s) return 0;\n", body);
    return;
  }
  char zw[40] = "";
  if (x->les) snprintf(zw, sizeof zw, " || d->p == es%u", x->les - 1);
  ind(c, d); put(c, "if (mp%d) {\n", mv);
  if (direct) { ind(c, d + 1); put(c, "d->depth += %s;\n", lv); }
  ind(c, d + 1); put(c, "if (!%s_m1(d, %s, mp%d, mn%d)%s) return 0;\n", nm, S, mv, mv, zw);
  if (direct) { ind(c, d + 1); put(c, "d->depth -= %s;\n", lv); }
  ind(c, d); put(c, "} else if (!%s) {\n", body);
  ind(c, d + 1); put(c, "return 0;\n");
  ind(c, d); put(c, "}\n");
}

/* Reads a primitive of wire type t into lvalue X of C type ct. */
static void dec_prim(cg *x, uint8_t t, const char *X, int d) {
  sb *c = x->c;
  const char *P = P_(x);
  /* the bounds checks, left out in a checked run; "u": the readers that
   * assume 9 bytes are there */
  const char *B1 = x->unchecked ? "0" : "p >= end";
  const char *U = x->unchecked ? "u" : "";
  const char *V = x->unchecked ? "u" : x->tail ? "t" : "";
  const char *DA = !x->unchecked && x->tail ? "d, " : "";
  char B[32];
  ind(c, d);
  switch (t) {
  case WIRE_T_BOOL:
    put(c, "if (%s || *p > 1) return 0;\n", B1);
    ind(c, d); put(c, "%s = *p++;\n", X);
    break;
  case WIRE_T_INT8: case WIRE_T_UINT8:
    if (!x->unchecked) { put(c, "if (p >= end) return 0;\n"); ind(c, d); }
    put(c, "%s = (%s)*p++;\n", X, t == WIRE_T_INT8 ? "int8_t" : "uint8_t");
    break;
  case WIRE_T_INT16: case WIRE_T_UINT16: case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16:
    if (!x->unchecked) { put(c, "if (end - p < 2) return 0;\n"); ind(c, d); }
    put(c, "%s = (%s)%s__ld16(p);\n", X, t == WIRE_T_INT16 ? "int16_t" : "uint16_t", P);
    ind(c, d); put(c, "p += 2;\n");
    break;
  case WIRE_T_INT32: case WIRE_T_UINT32:
    if (!x->unchecked) { put(c, "if (end - p < 4) return 0;\n"); ind(c, d); }
    put(c, "%s = (%s)%s__ld32(p);\n", X, t == WIRE_T_INT32 ? "int32_t" : "uint32_t", P);
    ind(c, d); put(c, "p += 4;\n");
    break;
  case WIRE_T_INT64: case WIRE_T_UINT64:
    if (!x->unchecked) { put(c, "if (end - p < 8) return 0;\n"); ind(c, d); }
    put(c, "%s = (%s)%s__ld64(p);\n", X, t == WIRE_T_INT64 ? "int64_t" : "uint64_t", P);
    ind(c, d); put(c, "p += 8;\n");
    break;
  case WIRE_T_FLOAT32:
    if (!x->unchecked) { put(c, "if (end - p < 4) return 0;\n"); ind(c, d); } put(c, "memcpy(&%s, p, 4);\n", X);
    ind(c, d); put(c, "p += 4;\n");
    break;
  case WIRE_T_FLOAT64:
    if (!x->unchecked) { put(c, "if (end - p < 8) return 0;\n"); ind(c, d); } put(c, "memcpy(&%s, p, 8);\n", X);
    ind(c, d); put(c, "p += 8;\n");
    break;
  case WIRE_T_VARINT32: case WIRE_T_VAR_UINT32: {
    uint32_t u = x->tmp++;
    if (t == WIRE_T_VARINT32 && (x->unchecked || x->tail)) {
      put(c, "int32_t z%u;\n", u);
      ind(c, d);
      put(c, "if (!(p = %s__rvz32%s(%sp, end, &z%u))) return 0;\n", P,
          x->unchecked ? "w" : "t", DA, u);
      ind(c, d); put(c, "%s = z%u;\n", X, u);
      break;
    }
    put(c, "uint32_t u%u;\n", u);
    ind(c, d);
    put(c, "if (!(p = %s__rvu32%s(%sp, end, &u%u))) return 0;\n", P,
        x->unchecked ? "w" : V, DA, u);
    ind(c, d);
    if (t == WIRE_T_VARINT32) put(c, "%s = %s__unzz32(u%u);\n", X, P, u);
    else put(c, "%s = u%u;\n", X, u);
    break;
  }
  case WIRE_T_VARINT64: case WIRE_T_VAR_UINT64: case WIRE_T_DATE: {
    uint32_t u = x->tmp++;
    put(c, "uint64_t u%u;\n", u);
    ind(c, d); put(c, "if (!(p = %s__rvu64%s(%sp, end, &u%u))) return 0;\n", P, V, DA, u);
    ind(c, d);
    if (t == WIRE_T_VAR_UINT64) put(c, "%s = u%u;\n", X, u);
    else put(c, "%s = %s__unzz64(u%u);\n", X, P, u);
    break;
  }
  case WIRE_T_TAGGED_INT64: case WIRE_T_TAGGED_UINT64:
    /* the 4-byte form only */
    snprintf(B, sizeof B, "%s", x->unchecked ? "0" : "end - p < 4");
    put(c, "if (%s || (p[0] & 1)) return 0;\n", B);
    ind(c, d);
    if (t == WIRE_T_TAGGED_INT64)
      put(c, "%s = (int64_t)((int32_t)%s__ld32(p) >> 1);\n", X, P);
    else
      put(c, "%s = (uint64_t)(%s__ld32(p) >> 1);\n", X, P);
    ind(c, d); put(c, "p += 4;\n");
    break;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION: {
    if (t == WIRE_T_TIMESTAMP) {
      if (!x->unchecked) { put(c, "if (end - p < 12) return 0;\n"); ind(c, d); }
      put(c, "%s.seconds = (int64_t)%s__ld64(p);\n", X, P);
      ind(c, d); put(c, "p += 8;\n");
    } else {
      uint32_t u = x->tmp++;
      put(c, "uint64_t u%u;\n", u);
      ind(c, d); put(c, "if (!(p = %s__rvu64%s(p, end, &u%u)) || end - p < 4) return 0;\n", P, U, u);
      ind(c, d); put(c, "%s.seconds = %s__unzz64(u%u);\n", X, P, u);
    }
    ind(c, d); put(c, "%s.nanos = %s__ld32(p);\n", X, P);
    ind(c, d); put(c, "%s.pad = 0;\n", X);
    ind(c, d); put(c, "if (%s.nanos >= 1000000000u) return 0;\n", X);
    ind(c, d); put(c, "p += 4;\n");
    break;
  }
  default:
    put(c, "return 0; /* type %u */\n", t);
    break;
  }
}

/* The null value of a held value (what wire_mem_decode stores). */
static void dec_null(cg *x, const wire_ftype *f, const vinfo *v, const char *X,
                     const char *has, int d) {
  sb *c = x->c;
  (void)f;
  if (v->flag) { ind(c, d); put(c, "%s = 0;\n", has); }
  ind(c, d); put(c, "memset(&%s, 0, sizeof %s);\n", X, X);
  (void)x;
}

static void dec_value(cg *x, const wire_ftype *f, const vinfo *v,
                      const char *X, int d, bool meta);

static void dec_list(cg *x, const wire_ftype *f, const vinfo *v, const char *X,
                     int d) {
  sb *c = x->c;
  const char *P = P_(x);
  const wire_ftype *ef = f->elem;
  uint32_t n = x->tmp++;
  const wire_ftype *ed;
  bool packed = !strcmp(v->form, "WIRE_MEM_ARRAY");
  uint8_t lh = wire__pol_list_header(x->g->ctx, f, true, false, false, &ed);
  uint8_t lhn = wire__pol_list_header(x->g->ctx, f, true, true, false, &ed);
  ind(c, d); put(c, "{\n");
  ind(c, d + 1); put(c, "uint32_t n%u;\n", n);
  ind(c, d + 1); put(c, "if (!(p = %s__rcount(d, p, end, &n%u))) return 0;\n", P, n);
  ind(c, d + 1);
  put(c, "%s *a%u = n%u ? %s__alloc(d, (size_t)n%u * sizeof *a%u, 8) : NULL;\n",
      v->item, n, n, P, n, n);
  ind(c, d + 1); put(c, "if (n%u && !a%u) return 0;\n", n, n);
  ind(c, d + 1);
  put(c, "%s.items = n%u ? a%u : (%s const *)(const void *)\"\";\n", X, n, n, v->item);
  ind(c, d + 1); put(c, "%s.count = n%u;\n", X, n);
  ind(c, d + 1); put(c, "if (n%u) {\n", n);
  int b = d + 2;
  ind(c, b); put(c, "if (p >= end) return 0;\n");
  if (packed) {
    ind(c, b); put(c, "if (*p++ != 0x%02x) return 0;\n", lh);
    if (!(lh & WIRE_LF_DECL)) {
      ind(c, b); put(c, "if (p >= end || *p++ != 0x%02x) return 0;\n", ef->type_id);
    }
    if (!x->bounded) { ind(c, b); put(c, "if (++d->depth > d->max_depth) return 0;\n"); }
    ind(c, b); put(c, "for (uint32_t i = 0; i < n%u; i++) {\n", n);
    char it[64];
    snprintf(it, sizeof it, "a%u[i]", n);
    dec_prim(x, ef->type_id, it, b + 1);
    ind(c, b); put(c, "}\n");
    if (!x->bounded) { ind(c, b); put(c, "d->depth--;\n"); }
    ind(c, d + 1); put(c, "}\n");
    ind(c, d); put(c, "}\n");
    return;
  }
  const vinfo *ev = v->sub[0];
  ind(c, b); put(c, "const uint8_t h = *p++;\n");
  if (lh == lhn) {
    ind(c, b); put(c, "if (h != 0x%02x) return 0;\n", lh);
  } else {
    ind(c, b); put(c, "if (h != 0x%02x && h != 0x%02x) return 0;\n", lh, lhn);
  }
  int saved_lmp = x->lmp;
  x->lmp = -1;
  if ((lh & WIRE_LF_SAME_TYPE) && !(lh & WIRE_LF_DECL)) {
    if (is_struct_t(x, ef)) {
      x->lmp = dec_meta(x, ef->user, b);
    } else {
      ind(c, b); put(c, "if (p >= end || *p++ != 0x%02x) return 0;\n", ef->type_id);
    }
  } else if (!(lh & WIRE_LF_DECL)) {
    ind(c, b); put(c, "return 0; /* elements of undeclared type */\n");
  }
  /* an element of no bytes (an empty struct): wire_mem_decode charges the
   * payload's zero-width budget for it. Any other element reads a byte at
   * least, as does a struct whose body does (then only a field map's read
   * is checked). */
  bool st = is_struct_t(x, ef);
  bool zw = st && !(x->calls && x->calls[ef->user].nonzero);
  bool zwm = st && !zw && x->lmp >= 0;
  if (x->bounded) x->lvl++;
  else { ind(c, b); put(c, "if (++d->depth > d->max_depth) return 0;\n"); }
  ind(c, b); put(c, "for (uint32_t i = 0; i < n%u; i++) {\n", n);
  if (zw || zwm) { ind(c, b + 1); put(c, "const uint8_t *es%u = p;\n", n); }
  char item[80], has[96];
  snprintf(item, sizeof item, ev->flag ? "a%u[i].value" : "a%u[i]", n);
  snprintf(has, sizeof has, "a%u[i].has_value", n);
  ind(c, b + 1); put(c, "if (h & 0x%02x) {\n", WIRE_LF_HAS_NULL | WIRE_LF_TRACKING);
  ind(c, b + 2); put(c, "if (p >= end) return 0;\n");
  ind(c, b + 2); put(c, "const uint8_t fl = *p++;\n");
  ind(c, b + 2); put(c, "if (fl == 0xFD) {\n");
  /* a null element: as wire_mem_decode leaves it */
  ind(c, b + 3); put(c, "memset(&a%u[i], 0, sizeof a%u[i]);\n", n, n);
  ind(c, b + 3); put(c, "continue;\n");
  ind(c, b + 2); put(c, "}\n");
  ind(c, b + 2); put(c, "if (fl != 0xFF) return 0;\n");
  ind(c, b + 1); put(c, "}\n");
  if (ev->flag) { ind(c, b + 1); put(c, "%s = 1;\n", has); }
  uint32_t saved_les = x->les;
  x->les = zwm ? n + 1 : 0;
  dec_value(x, ef, ev, item, b + 1, false);
  x->les = saved_les;
  if (zw) { ind(c, b + 1); put(c, "if (p == es%u) return 0;\n", n); }
  ind(c, b); put(c, "}\n");
  x->lmp = saved_lmp;
  if (x->bounded) x->lvl--;
  else { ind(c, b); put(c, "d->depth--;\n"); }
  ind(c, d + 1); put(c, "}\n");
  ind(c, d); put(c, "}\n");
}

static void dec_value(cg *x, const wire_ftype *f, const vinfo *v,
                      const char *X, int d, bool meta) {
  sb *c = x->c;
  const char *P = P_(x);
  uint8_t k = wire__gen_kind_of(x->g, f);
  if (k == WIRE_KIND_ENUM) {
    uint32_t u = x->tmp++;
    ind(c, d); put(c, "uint32_t u%u;\n", u);
    ind(c, d);
    put(c, "if (!(p = %s__rvu32%s(%sp, end, &u%u))) return 0;\n", P,
        x->unchecked ? "u" : x->tail ? "t" : "", !x->unchecked && x->tail ? "d, " : "", u);
    ind(c, d); put(c, "%s = u%u;\n", X, u);
    return;
  }
  if (k == WIRE_KIND_STRUCT) {
    char nm[160];
    wire__gen_cname(x->g, f->user, nm, sizeof nm);
    int mv = meta ? dec_meta(x, f->user, d) : x->lmp;
    if (!strcmp(v->form, "WIRE_MEM_STRUCT_PTR")) {
      uint32_t s = x->tmp++;
      char S[32];
      snprintf(S, sizeof S, "s%u", s);
      ind(c, d); put(c, "struct %s *s%u = %s__alloc(d, sizeof *s%u, 8);\n", nm, s, P, s);
      ind(c, d); put(c, "if (!s%u) return 0;\n", s);
      ind(c, d); put(c, "memset(s%u, 0, sizeof *s%u);\n", s, s);
      ind(c, d); put(c, "%s = s%u;\n", X, s);
      ind(c, d); put(c, "d->p = p;\n");
      dec_call(x, f->user, mv, S, d);
      ind(c, d); put(c, "p = d->p;\n");
    } else {
      char S[220];
      snprintf(S, sizeof S, "&%s", X);
      ind(c, d); put(c, "d->p = p;\n");
      dec_call(x, f->user, mv, S, d);
      ind(c, d); put(c, "p = d->p;\n");
    }
    return;
  }
  uint8_t t = f->type_id;
  if (t == WIRE_T_STRING) {
    ind(c, d); put(c, "if (!(p = %s__rstr(d, p, end, &%s.ptr, &%s.len))) return 0;\n", P, X, X);
    return;
  }
  if (t == WIRE_T_BINARY) {
    ind(c, d); put(c, "if (!(p = %s__rbin(d, p, end, &%s.ptr, &%s.len))) return 0;\n", P, X, X);
    return;
  }
  uint8_t de = wire__array_elem_type(t);
  if (de) {
    uint32_t u = x->tmp++;
    ind(c, d); put(c, "const void *q%u;\n", u);
    ind(c, d);
    put(c, "if (!(p = %s__rarr(d, p, end, &q%u, &%s.count, %u, %d))) return 0;\n", P, u, X,
        wire_type_array_width(t), t == WIRE_T_BOOL_ARRAY);
    ind(c, d); put(c, "%s.items = q%u;\n", X, u);
    return;
  }
  if (t == WIRE_T_LIST || t == WIRE_T_SET) {
    dec_list(x, f, v, X, d);
    return;
  }
  dec_prim(x, t, X, d);
}

/* Declared field k of struct ti, indented by d. */
static void dec_field_k(cg *x, uint32_t ti, uint32_t k, int d) {
  sb *c = x->c;
  const wire_utype *t = &x->g->r->types[ti];
  const wire_field *fd = &t->fields[k];
  const wire_ftype *f = fd->type;
  const vinfo *v = x->g->fv[ti][k];
  ind(c, d); put(c, "/* %s */\n", fd->name);
  const char *B1 = x->unchecked ? "0" : "p >= end";
  if (!v) {
    ind(c, d); put(c, "if (%s || *p != 0xFD) return 0;\n", B1);
    ind(c, d); put(c, "p++;\n");
    return;
  }
  char X[200], has[200];
  char mb[200];
  snprintf(X, sizeof X, "v->%s", wire__gen_member(fd->name, mb, sizeof mb));
  char fb[200];
  snprintf(has, sizeof has, "v->%s", wire__gen_flag(x->g, ti, k, fb, sizeof fb));
  if (slot_flag(f)) {
    if (!x->unchecked) { ind(c, d); put(c, "if (p >= end) return 0;\n"); }
    ind(c, d); put(c, "if (*p == 0xFD) {\n");
    ind(c, d + 1); put(c, "p++;\n");
    dec_null(x, f, v, X, has, d + 1);
    ind(c, d); put(c, "} else {\n");
    ind(c, d + 1); put(c, "if (*p++ != 0xFF) return 0;\n");
    if (v->flag) { ind(c, d + 1); put(c, "%s = 1;\n", has); }
    dec_value(x, f, v, X, d + 1, slot_meta(x, f));
    ind(c, d); put(c, "}\n");
  } else {
    if (v->flag) { ind(c, d); put(c, "%s = 1;\n", has); }
    dec_value(x, f, v, X, d, slot_meta(x, f));
  }
}

/* Field number w (wire order) of struct ti, indented by d. */
static void dec_field(cg *x, uint32_t ti, uint32_t w, int d) {
  dec_field_k(x, ti, x->g->r->types[ti].layout->fields[w].local, d);
}

/* Bits and signedness of an integer wire type; false for other types. */
static bool int_type(uint8_t t, int *bits, int *sgn) {
  switch (t) {
  case WIRE_T_INT8: *bits = 8; *sgn = 1; return true;
  case WIRE_T_INT16: *bits = 16; *sgn = 1; return true;
  case WIRE_T_INT32: case WIRE_T_VARINT32: *bits = 32; *sgn = 1; return true;
  case WIRE_T_INT64: case WIRE_T_VARINT64: case WIRE_T_TAGGED_INT64:
    *bits = 64; *sgn = 1; return true;
  case WIRE_T_UINT8: *bits = 8; *sgn = 0; return true;
  case WIRE_T_UINT16: *bits = 16; *sgn = 0; return true;
  case WIRE_T_UINT32: case WIRE_T_VAR_UINT32: *bits = 32; *sgn = 0; return true;
  case WIRE_T_UINT64: case WIRE_T_VAR_UINT64: case WIRE_T_TAGGED_UINT64:
    *bits = 64; *sgn = 0; return true;
  default: return false;
  }
}

/* The body of struct ti as another writer's TypeDef lists its fields (the
 * field map of wire_gen_map): each field read by the same code as in
 * dec_struct_fn, or converted from another integer type, or skipped; the
 * fields the writer lacks stay zero, as wire_mem_decode leaves them.
 * NM_x1 takes one map entry; NM_m1 walks the map, with the registered
 * fields written out in their order where the writer sends them there
 * (a compare each) and NM_x1 for every other entry. */
/* When field k of struct ti is a plain 64-bit signed integer: the branch
 * that reads it from a writer's int32 (varint; the usual widening, no
 * range to check) at indent d, unchecked in a checked run. */
static void put_widen(cg *x, uint32_t ti, uint32_t k, int d) {
  const wire_ftype *f = x->g->r->types[ti].fields[k].type;
  const vinfo *v = x->g->fv[ti][k];
  int bits, sgn;
  if (!v || v->flag || v->shape || slot_flag(f) || wire__gen_kind_of(x->g, f) ||
      !int_type(f->type_id, &bits, &sgn) || !sgn || bits != 64)
    return;
  char mb[200];
  uint32_t u = x->tmp++;
  const char *P = P_(x);
  ind(x->c, d);
  put(x->c, "} else if (map[fi] == 0x%08xu) { /* from int32 */\n",
      (uint32_t)WIRE_GEN_MAP_INT << 24 | (uint32_t)WIRE_T_VARINT32 << 16 | k);
  ind(x->c, d + 1);
  put(x->c, "uint32_t u%u;\n", u);
  ind(x->c, d + 1);
  if (x->unchecked) put(x->c, "if (!(p = %s__rvu32u(p, end, &u%u))) return 0;\n", P, u);
  else put(x->c, "if (!(p = %s__rvu32t(d, p, end, &u%u))) return 0;\n", P, u);
  ind(x->c, d + 1);
  put(x->c, "v->%s = (%s)%s__unzz32(u%u);\n",
      wire__gen_member(x->g->r->types[ti].fields[k].name, mb, sizeof mb), v->ctype, P, u);
}

/* The largest run of bounded fields read from a padded copy on the stack
 * when the input ends within the run's most bytes. */
#define PAD_MAX 512u

/* Near the end of the input: p and end moved to a copy of its last S bytes
 * (fixed-size when it has them) and S zeros; NM__end, NM__n: the way back. */
static void put_pad(cg *x, uint32_t S) {
  const char *P = P_(x);
  put(x->c, "    uint8_t %s__pad[%u];\n    const uint8_t *%s__end = end;\n"
            "    size_t %s__n = (size_t)(end - p);\n", P, 2 * S, P, P);
  put(x->c, "    if (end - d->base >= %u) memcpy(%s__pad, end - %u, %u);\n", S, P, S, S);
  put(x->c, "    else memcpy(%s__pad + %u - %s__n, p, %s__n);\n", P, S, P, P);
  put(x->c, "    memset(%s__pad + %u, 0, %u);\n", P, S, S);
  put(x->c, "    p = %s__pad + %u - %s__n;\n    end = %s__pad + sizeof %s__pad;\n", P, S, P,
      P, P);
}

/* The registered fields of struct ti (all bounded) read in their order
 * without checks while the field map lists them so, the writer's int32
 * widened where dec_map_fn reads it too; `miss` is the code for the first
 * other entry (the general walk takes over at fi). */
static void map_run(cg *x, uint32_t ti, const char *miss) {
  sb *c = x->c;
  const wire_utype *t = &x->g->r->types[ti];
  bool tail = x->tail;
  x->tail = false;
  x->unchecked = true;
  for (uint32_t w = 0; w < t->nfields; w++) {
    uint32_t k = t->layout->fields[w].local;
    put(c, "      if (map[fi] == %u) {\n", k);
    dec_field_k(x, ti, k, 4);
    put_widen(x, ti, k, 3);
    put(c, "      } else {\n%s      }\n      fi++;\n", miss);
  }
  x->unchecked = false;
  x->tail = tail;
}

static void dec_map_fn(cg *x, uint32_t ti) {
  sb *c = x->c;
  char nm[160];
  wire__gen_cname(x->g, ti, nm, sizeof nm);
  const wire_utype *t = &x->g->r->types[ti];
  const char *P = P_(x);
  put(c, "static const uint8_t *%s_x1(%s__dec *d, struct %s *v, uint32_t m,\n"
         "                              const uint8_t *p) {\n", nm, P, nm);
  put(c, "  const uint8_t *end = d->end;\n  (void)v;\n"
         "  switch (m) { /* WIRE_GEN_MAP_READ: the field's number */\n");
  x->tail = true;
  for (uint32_t k = 0; k < t->nfields; k++) {
    put(c, "  case %u: {\n", k);
    dec_field_k(x, ti, k, 2);
    put(c, "    return p;\n  }\n");
  }
  put(c, "  default:\n"
         "    break;\n  }\n"
         "  if ((m >> 24) == WIRE_GEN_MAP_SKIP || (m >> 24) == WIRE_GEN_MAP_SKIP_FLAG)\n"
         "    return %s__skip(d, p, end, (m >> 16) & 0xFF, (m >> 24) == WIRE_GEN_MAP_SKIP_FLAG);\n"
         "  if ((m >> 24) != WIRE_GEN_MAP_INT) return NULL;\n"
         "  uint64_t raw;\n  int sg;\n"
         "  if (!(p = %s__rint(p, end, (m >> 16) & 0xFF, &raw, &sg))) return NULL;\n"
         "  switch (m & 0xFFFF) {\n", P, P);
  for (uint32_t k = 0; k < t->nfields; k++) {
    const wire_ftype *f = t->fields[k].type;
    const vinfo *v = x->g->fv[ti][k];
    int bits, sgn;
    if (!v || v->flag || v->shape || slot_flag(f) || wire__gen_kind_of(x->g, f) ||
        !int_type(f->type_id, &bits, &sgn))
      continue;
    char mb[200];
    put(c, "  case %u:\n    if (!%s__fits(raw, sg, %d, %d)) return NULL;\n"
           "    v->%s = (%s)raw;\n    return p;\n", k, P, sgn, bits,
        wire__gen_member(t->fields[k].name, mb, sizeof mb), v->ctype);
  }
  put(c, "  default:\n    return NULL;\n  }\n}\n\n");
  put(c, "static int %s_m1(%s__dec *d, struct %s *v, const uint32_t *map, uint32_t n) {\n",
      nm, P, nm);
  put(c, "  if (++d->depth > d->max_depth) return 0;\n"
         "  const uint8_t *p = d->p, *end = d->end;\n"
         "  uint32_t fi = 0;\n"
         "  (void)end;\n"
         "  memset(v, 0, sizeof *v);\n");
  /* Every registered field bounded (NumericStruct-like): while the writer
   * sends them in their order, read them as the matching read does, after
   * one check for their most bytes; at the first other entry, or when the
   * input may end within them, the general walk below takes over at fi. */
  uint32_t sum = 0;
  bool fast = t->nfields >= 2;
  for (uint32_t w = 0; fast && w < t->nfields; w++) {
    uint32_t k = t->layout->fields[w].local;
    const vinfo *v = x->g->fv[ti][k];
    uint32_t bo = v ? bound_of(x, t->fields[k].type, v) : 0;
    fast = bo != 0;
    sum += bo + (slot_flag(t->fields[k].type) ? 1 : 0);
  }
  if (fast) {
    uint32_t S = sum + 9;
    put(c, "  if (n >= %u) {\n    if (end - p >= %u) {\n", t->nfields, S);
    map_run(x, ti, "      goto slow;\n");
    put(c, "      goto rest;\n    }\n");
    if (S <= PAD_MAX) {
      /* near the end of the input: the same reads from a padded copy, as
       * dec_struct_fn does; at a miss, back to the input */
      put_pad(x, S);
      char miss[1200];
      snprintf(miss, sizeof miss,
               "      if (p > %s__pad + %u) return 0;\n"
               "      p = %s__end - (%s__pad + %u - p);\n      end = %s__end;\n"
               "      goto slow;\n", P, S, P, P, S, P);
      map_run(x, ti, miss);
      put(c, "%s", miss);
    }
    put(c, "  }\nslow:\n");
  }
  for (uint32_t w = 0; w < t->nfields; w++) {
    uint32_t k = t->layout->fields[w].local;
    put(c, "  if (fi < n) {\n    if (map[fi] == %u) {\n", k);
    dec_field_k(x, ti, k, 3);
    put_widen(x, ti, k, 2);
    put(c, "    } else if (!(p = %s_x1(d, v, map[fi], p))) {\n      return 0;\n    }\n"
           "    fi++;\n  }\n", nm);
  }
  x->tail = false;
  if (fast) put(c, "rest:\n");
  put(c, "  for (; fi < n; fi++)\n    if (!(p = %s_x1(d, v, map[fi], p))) return 0;\n"
         "  d->p = p;\n  d->depth--;\n  return 1;\n}\n\n", nm);
}


static void dec_struct_fn(cg *x, uint32_t ti) {
  sb *c = x->c;
  char nm[160];
  wire__gen_cname(x->g, ti, nm, sizeof nm);
  const wire_utype *t = &x->g->r->types[ti];
  const char *P = P_(x);
  /* a bounded body: NM_i<mode>, its levels `lv` on top of d->depth; NM_d
   * checks the most it can enter once */
  const wire_gen_call *cl = x->calls ? &x->calls[ti] : NULL;
  x->bounded = cl && !cl->unbounded;
  x->lvl = 1;
  if (x->bounded) {
    if (cl->parents <= 1) put(c, "%s__HOT", P);
    else put(c, "static");
    put(c, " int %s_i%d(%s__dec *d, struct %s *v, uint32_t lv) {\n", nm, x->mode, P, nm);
    put(c, "  (void)lv;\n");
  } else {
    put(c, "static int %s_d%d(%s__dec *d, struct %s *v) {\n", nm, x->mode, P, nm);
    put(c, "  if (++d->depth > d->max_depth) return 0;\n");
  }
  put(c, "  const uint8_t *p = d->p, *end = d->end;\n  (void)v;\n  (void)end;\n");
  uint8_t kd = kind_in(x, ti);
  if (!x->mode && (kd == WIRE_T_STRUCT || kd == WIRE_T_NAMED_STRUCT)) {
    put(c, "  if (end - p < 4 || %s__ld32(p) != 0x%08xu) return 0;\n", P,
        t->layout->schema_hash);
    put(c, "  p += 4;\n");
  }
  for (uint32_t w = 0; w < t->nfields;) {
    /* a run of bounded fields: checked once for its most bytes (and 9 more
     * for the word-wide varint readers), then read without checks */
    uint32_t sum = 0, end = w;
    while (end < t->nfields) {
      uint32_t k = t->layout->fields[end].local;
      const vinfo *v = x->g->fv[ti][k];
      uint32_t bo = v ? bound_of(x, t->fields[k].type, v) : 0;
      if (!bo) break;
      sum += bo + (slot_flag(t->fields[k].type) ? 1 : 0);
      end++;
    }
    if (end - w < 2) {
      dec_field(x, ti, w, 1);
      w++;
      continue;
    }
    put(c, "  if (end - p >= %u) {\n", sum + 9);
    x->unchecked = true;
    for (uint32_t k = w; k < end; k++) dec_field(x, ti, k, 2);
    x->unchecked = false;
    put(c, "  } else {\n");
    if (sum + 9 <= PAD_MAX) {
      /* near the end of the input: the same unchecked reads from a copy
       * of the input's last bytes (a fixed-size copy of the last S when
       * the input has them) followed by S zeros, then whether they stayed
       * within the input (a varint running into the zeros reads as ended
       * there) */
      uint32_t S = sum + 9;
      put_pad(x, S);
      x->unchecked = true;
      for (uint32_t k = w; k < end; k++) dec_field(x, ti, k, 2);
      x->unchecked = false;
      put(c, "    if (p > %s__pad + %u) return 0;\n", P, S);
      put(c, "    p = %s__end - (%s__pad + %u - p);\n    end = %s__end;\n", P, P, S, P);
    } else {
      for (uint32_t k = w; k < end; k++) dec_field(x, ti, k, 2);
    }
    put(c, "  }\n");
    w = end;
  }
  if (!x->bounded) {
    put(c, "  d->p = p;\n  d->depth--;\n  return 1;\n}\n\n");
    return;
  }
  x->bounded = false;
  put(c, "  d->p = p;\n  return 1;\n}\n\n");
  put(c, "static int %s_d%d(%s__dec *d, struct %s *v) {\n"
         "  if (d->depth + %uu > d->max_depth) return 0;\n"
         "  return %s_i%d(d, v, 0);\n}\n\n", nm, x->mode, P, nm, cl->depth, nm, x->mode);
}

/* ---- entry points ------------------------------------------------------------ */

/* The TypeDef bytes the code writes and expects, as constants. */
void wire__gen_code_prepare(gen *g) {
  wire_ctx *ctx = g->ctx;
  uint32_t nt = g->r->ntypes;
  for (int mode = 0; mode < 2; mode++) {
    g->sl[mode] = wire__alloc(ctx, nt ? nt : 1);
    if (!g->sl[mode]) {
      g->nomem = true;
      return;
    }
  }
  for (uint32_t i = 0; i < nt; i++)
    if (g->ok[i] && g->r->types[i].kind == WIRE_KIND_STRUCT && wire__layout_of(ctx, i)) {
      g->nomem = true;
      return;
    }
  sl_compute(g, g->sl[0], 0);
  sl_compute(g, g->sl[1], 1);
}

void wire__gen_code_tds(gen *g, sb *c) {
  wire_ctx *ctx = g->ctx;
  uint32_t nt = g->r->ntypes;
  if (!g->sl[0] || !g->sl[1]) return;
  /* the TypeDefs */
  for (uint32_t i = 0; i < nt; i++) {
    if (!g->ok[i] || g->r->types[i].kind != WIRE_KIND_STRUCT) continue;
    const uint8_t *td;
    uint32_t len;
    if (wire__layout_of(ctx, i) || wire__typedef_bytes(ctx, i, &td, &len)) {
      g->nomem = true;
      return;
    }
    char nm[160];
    wire__gen_cname(g, i, nm, sizeof nm);
    put(c, "static const uint8_t %s_td[%u] = {", nm, len);
    for (uint32_t k = 0; k < len; k++)
      put(c, "%s0x%02x", k ? (k % 12 ? ", " : ",\n  ") : "\n  ", td[k]);
    put(c, "\n};\n");
    /* a root in compatible mode starts with these bytes: the header, the
     * not-null flag, the kind and TypeDef #0 */
    cg x = {g, c, 1, NULL, 0, false, false, -1};
    if (g->sl[1][i] && has_td(&x, i)) {
      put(c, "static const uint8_t %s_pre[%u] = {\n  0x01, 0xff, 0x%02x, 0x00,",
          nm, len + 4, kind_in(&x, i));
      for (uint32_t k = 0; k < len; k++)
        put(c, "%s0x%02x", k ? (k % 12 ? ", " : ",\n  ") : "\n  ", td[k]);
      put(c, "\n};\n");
    }
  }
  put(c, "\n");
}

void wire__gen_code_fields(gen *g, sb *h) {
  (void)g;
  put(h, "  uint32_t fast; /* the straight-line codecs apply (checked at registration) */\n");
}

/* The TypeDef bytes and hashes the code assumes; the registration checks
 * them against the context's. */
void wire__gen_code_register(gen *g, sb *c) {
  const wire_registry *r = g->r;
  put(c, "  w->fast = 1;\n");
  for (uint32_t i = 0; i < r->ntypes; i++) {
    if (!g->ok[i] || g->r->types[i].kind != WIRE_KIND_STRUCT) continue;
    if (wire__layout_of(g->ctx, i)) {
      g->nomem = true;
      return;
    }
    char nm[160];
    wire__gen_cname(g, i, nm, sizeof nm);
    put(c, "  {\n    const uint8_t *td;\n    size_t tdn;\n    uint32_t hash;\n"
           "    if (wire_schema_typedef(ctx, w->type[%u], &td, &tdn) ||\n"
           "        tdn != sizeof %s_td || memcmp(td, %s_td, tdn) ||\n"
           "        wire_schema_hash(ctx, w->type[%u], &hash) || hash != 0x%08xu)\n"
           "      w->fast = 0;\n  }\n",
        i, nm, nm, i, r->types[i].layout->schema_hash);
  }
}

/* The prototypes, then the bodies per mode (false: out of memory). */
static bool code_bodies(gen *g, sb *c, uint8_t *const *ok) {
  wire_ctx *ctx = g->ctx;
  uint32_t nt = g->r->ntypes;
  const char *P = g->prefix;
  bool done = false;
  /* how the decoders call one another, per mode */
  wire_gen_call *calls[2] = {NULL, NULL};
  size_t ncalls = (nt ? nt : 1) * sizeof *calls[0];
  for (int mode = 0; mode < 2; mode++)
    if (!(calls[mode] = wire__alloc(ctx, ncalls)) ||
        wire__gen_calls(g, ok[mode], mode, calls[mode]))
      goto out;
  /* prototypes, then the bodies per mode */
  for (int mode = 0; mode < 2; mode++)
    for (uint32_t i = 0; i < nt; i++) {
      if (!ok[mode][i]) continue;
      char nm[160];
      wire__gen_cname(g, i, nm, sizeof nm);
      put(c, "static int %s_e%d(%s__enc *e, const struct %s *v);\n", nm, mode, P, nm);
      put(c, "static int %s_d%d(%s__dec *d, struct %s *v);\n", nm, mode, P, nm);
      const wire_gen_call *cl = &calls[mode][i];
      if (!cl->unbounded) {
        if (cl->parents <= 1) put(c, "%s__HOT", P);
        else put(c, "static");
        put(c, " int %s_i%d(%s__dec *d, struct %s *v, uint32_t lv);\n", nm, mode, P, nm);
      }
      cg x = {g, c, mode, ok[mode], 0, false, false, -1};
      if (mode && has_td(&x, i))
        put(c, "static int %s_m1(%s__dec *d, struct %s *v, const uint32_t *map, uint32_t n);\n",
            nm, P, nm);
    }
  put(c, "\n");
  for (int mode = 0; mode < 2; mode++) {
    ctx->compatible = mode != 0;
    cg x = {g, c, mode, ok[mode], 0, false, false, -1, calls[mode], false, 0, 0};
    for (uint32_t i = 0; i < nt; i++) {
      if (!ok[mode][i]) continue;
      enc_struct_fn(&x, i);
      dec_struct_fn(&x, i);
      if (mode && has_td(&x, i)) dec_map_fn(&x, i);
    }
  }
  done = true;
out:
  for (int mode = 0; mode < 2; mode++) wire__free(ctx, calls[mode], ncalls);
  return done;
}

void wire__gen_code(gen *g, sb *c) {
  wire_ctx *ctx = g->ctx;
  wire_registry *r = g->r;
  uint32_t nt = r->ntypes;
  if (!g->sl[0] || !g->sl[1]) return; /* out of memory (g->nomem) */
  uint8_t *ok[2] = {g->sl[0], g->sl[1]};
  bool save_c = ctx->compatible, save_r = ctx->ref_tracking;
  uint8_t save_p = ctx->peer;
  ctx->ref_tracking = false;
  ctx->peer = WIRE_PEER_NONE;
  helpers(g, c, nt ? nt : 1);
  put(c, "\n");
  if (!code_bodies(g, c, ok)) g->nomem = true;
  ctx->compatible = save_c;
  ctx->ref_tracking = save_r;
  ctx->peer = save_p;
  /* per message: the straight-line codecs for the modes they cover, the
   * interpreter for the rest */
  for (uint32_t i = 0; i < nt; i++) {
    if (!g->ok[i] || g->r->types[i].kind != WIRE_KIND_STRUCT) continue;
    char nm[160];
    wire__gen_cname(g, i, nm, sizeof nm);
    wire__gen_entries(g, c, i, nm);
  }
}
