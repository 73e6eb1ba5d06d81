/* gen_c_entry.c - the per-message entry points of `wire gen c`:
 * <Type>_encode and <Type>_decode, the public functions of the generated
 * file. Each checks that the straight-line code applies (the registration
 * found the TypeDefs and hashes it was generated with, the context's
 * options are ones it handles), picks the branch of the context's mode,
 * writes or reads the header and the root's type (its TypeDef announced,
 * compared as bytes, or another writer's mapped to the fields) and calls
 * the struct's codec from gen_c_code.c; whatever it does not handle goes
 * to wire_mem_encode / wire_mem_decode over the same structs.
 * -DWIRE_GEN_NO_FALLBACK builds them without that fallback (the tests of
 * the straight-line code). */
#include "gen_c.h"

/* The code of one mode's branch in an entry point (x->mode is the mode). */
typedef void (*entry_body)(cg *x, uint32_t ti, const char *nm);

/* An entry point's two branches, same-schema then compatible, chosen by the
 * context's mode at run time; a mode without straight-line code for the
 * type fails its branch (the interpreter follows). */
static void entry_modes(gen *g, sb *c, uint32_t ti, const char *nm, entry_body body) {
  for (int mode = 0; mode < 2; mode++) {
    /* (a plain else: every path through the two sets ok) */
    put(c, "%s", mode ? "    else {\n" : "    if (!(s.mode & WIRE_GEN_COMPATIBLE)) {\n");
    if (g->sl[mode][ti]) {
      cg x = {g, c, mode, g->sl[mode], 0, false, false, -1};
      body(&x, ti, nm);
    } else {
      put(c, "      ok = 0;\n");
    }
    put(c, "    }\n");
  }
}

/* -DWIRE_GEN_NO_FALLBACK: the tests of the straight-line code */
static const char *nofb_open(const gen *g, uint32_t ti) {
  return g->sl[0][ti] || g->sl[1][ti] ? "#ifdef WIRE_GEN_NO_FALLBACK\n"
                                        "  return WIRE_E_UNSUPPORTED;\n#else\n" : "";
}
static const char *nofb_close(const gen *g, uint32_t ti) {
  return g->sl[0][ti] || g->sl[1][ti] ? "#endif\n" : "";
}

/* Encode, one mode: the header, the root's type (its TypeDef announced) and
 * the struct. */
static void enc_entry_body(cg *x, uint32_t i, const char *nm) {
  sb *c = x->c;
  const char *P = x->g->prefix;
  if (x->mode && has_td(x, i)) {
    put(c, "      ok = %s__room(&e, &q, sizeof %s_pre);\n"
           "      if (ok) {\n"
           "        memcpy(q, %s_pre, sizeof %s_pre);\n"
           "        e.p = q + sizeof %s_pre;\n"
           "        e.ann[0] = %u;\n        e.nann = 1;\n"
           "        ok = %s_e1(&e, value);\n      }\n",
        P, nm, nm, nm, nm, i, nm);
    return;
  }
  put(c, "      ok = %s__room(&e, &q, 2);\n"
         "      if (ok) {\n        *q++ = 0x01;\n        *q++ = 0xFF;\n      }\n", P);
  put(c, "      ok = ok && (q = ");
  if (has_td(x, i))
    put(c, "%s__meta(&e, q, %u, 0x%02x, %s_td, sizeof %s_td)", P, i, kind_in(x, i), nm, nm);
  else
    put(c, "%s__id(&e, q, 0x%02x, %uu)", P, kind_in(x, i), x->g->r->types[i].user_id);
  put(c, ") != NULL;\n      e.p = q;\n      ok = ok && %s_e%d(&e, value);\n", nm, x->mode);
}

static void enc_entry(gen *g, sb *c, uint32_t i, const char *nm) {
  const char *P = g->prefix;
  uint32_t li = g->layout_of[i];
  put(c, "int32_t %s_encode(wire_ctx *ctx, const %s_wire *w, const %s *value,\n"
         "    const uint8_t **out, size_t *out_len) {\n", nm, P, nm);
  if (g->sl[0][i] || g->sl[1][i]) {
    put(c, "  wire_gen_state s;\n"
           "  if (w && w->fast && value && out && out_len &&\n"
           "      wire_gen_begin(ctx, &s) == WIRE_OK &&\n"
           "      !(s.mode & ~(uint32_t)(WIRE_GEN_COMPATIBLE | WIRE_GEN_TRUSTED_TEXT |\n"
           "                             WIRE_GEN_STRING_JAVA))) {\n"
           "    %s__enc e;\n"
           "    e.ctx = ctx;\n    e.buf = e.p = s.buf;\n    e.end = s.buf + s.cap;\n"
           "    e.depth = 0;\n    e.max_depth = s.max_depth;\n"
           "    e.text = (s.mode & WIRE_GEN_STRING_JAVA) ? 2 : !(s.mode & WIRE_GEN_TRUSTED_TEXT);\n"
           "    e.nann = 0;\n"
           "    uint8_t *q = e.p;\n"
           "    int ok;\n", P);
    entry_modes(g, c, i, nm, enc_entry_body);
    put(c, "    if (ok) {\n      *out = e.buf;\n      *out_len = (size_t)(e.p - e.buf);\n"
           "      return WIRE_OK;\n    }\n  }\n");
  }
  put(c, "%s  return wire_mem_encode(ctx, w->layout[%u], value, out, out_len);\n%s}\n\n",
      nofb_open(g, i), li, nofb_close(g, i));
}

/* Decode, one mode: the header, the root's type and the struct; in
 * compatible mode our own TypeDef compared as bytes, another writer's
 * mapped to the fields. */
static void dec_entry_body(cg *x, uint32_t i, const char *nm) {
  sb *c = x->c;
  const char *P = x->g->prefix;
  uint32_t li = x->g->layout_of[i];
  if (x->mode && has_td(x, i)) {
    /* (a memcmp of a constant size up to 64 bytes: compilers compare it
     * a word at a time, in place; a longer one, a call, first the
     * TypeDef's first 8 bytes, its hash, which tell another one) */
    put(c, "      if (len >= sizeof %s_pre &&\n"
           "          (sizeof %s_pre <= 64 || %s__ld64(data + 4) == %s__ld64(%s_pre + 4)) &&\n"
           "          !memcmp(data, %s_pre, sizeof %s_pre)) {\n"
           "        d.p = data + sizeof %s_pre;\n"
           "        d.ann[0] = %u;\n        d.map[0] = NULL;\n        d.nann = 1;\n"
           "        ok = ok && %s_d1(&d, out);\n", nm, nm, P, P, nm, nm, nm, nm, i, nm);
    /* another writer's TypeDef (or none of ours): its field map */
    put(c, "      } else {\n"
           "        const uint32_t *mp = NULL;\n        uint32_t mn = 0;\n"
           "        ok = ok && len >= 2 && data[0] == 0x01 && data[1] == 0xFF &&\n"
           "             (d.p = %s__dmeta(&d, data + 2, d.end, %u, %u, 0x%02x, %s_td,\n"
           "                              sizeof %s_td, &mp, &mn)) != NULL &&\n"
           "             (mp ? %s_m1(&d, out, mp, mn) : %s_d1(&d, out));\n"
           "      }\n", P, i, li, kind_in(x, i), nm, nm, nm, nm);
    return;
  }
  put(c, "      ok = ok && len >= 2 && data[0] == 0x01 && data[1] == 0xFF;\n"
         "      d.p = data + 2;\n");
  put(c, "      ok = ok && (d.p = ");
  if (has_td(x, i)) /* (not in same-schema mode) */
    put(c, "%s__dmeta(&d, d.p, d.end, %u, %u, 0x%02x, %s_td, sizeof %s_td, &d.map[63], &d.nmap[63])",
        P, i, li, kind_in(x, i), nm, nm);
  else
    put(c, "%s__did(d.p, d.end, 0x%02x, %uu)", P, kind_in(x, i), x->g->r->types[i].user_id);
  put(c, ") != NULL && %s_d%d(&d, out);\n", nm, x->mode);
}

static void dec_entry(gen *g, sb *c, uint32_t i, const char *nm) {
  const char *P = g->prefix;
  uint32_t li = g->layout_of[i];
  put(c, "int32_t %s_decode(wire_ctx *ctx, const %s_wire *w, const uint8_t *data,\n"
         "    size_t len, %s *out, uint8_t *arena, size_t arena_cap,\n"
         "    size_t *arena_used, uint32_t flags) {\n", nm, P, nm);
  if (g->sl[0][i] || g->sl[1][i]) {
    put(c, "  wire_gen_state s;\n"
           "  if (w && w->fast && data && out && (arena || !arena_cap) &&\n"
           "      wire_gen_begin(ctx, &s) == WIRE_OK) {\n"
           "    %s__dec d;\n"
           "    d.p = data;\n    d.end = data + len;\n    d.arena = arena;\n"
           "    d.cap = arena_cap;\n    d.used = arena_used ? *arena_used : 0;\n"
           "    if (d.used <= arena_cap && arena_cap - d.used > WIRE_MEM_DECODE_BASE) {\n"
           "      /* no further than WIRE_LIMIT_MEM_DECODE lets wire_mem_decode go */\n"
           "      uint64_t per = wire_ctx_get_limit(ctx, WIRE_LIMIT_MEM_DECODE);\n"
           "      size_t room = arena_cap - d.used - WIRE_MEM_DECODE_BASE;\n"
           "      if (!len || per <= room / len)\n"
           "        d.cap = d.used + WIRE_MEM_DECODE_BASE + (size_t)per * len;\n"
           "    }\n"
           "    d.max_collection = s.max_collection;\n    d.max_binary = s.max_binary;\n"
           "    d.nskip = 0;\n"
           "    d.depth = 0;\n    d.max_depth = s.max_depth;\n"
           "    d.copy = (flags & WIRE_MEM_COPY) != 0;\n    d.nann = 0;\n"
           "    d.ctx = ctx;\n    d.layout = w->layout;\n    d.base = data;\n"
           "    int ok = d.used <= arena_cap;\n", P);
    entry_modes(g, c, i, nm, dec_entry_body);
    put(c, "    if (ok && d.p == d.end) {\n"
           "      if (arena_used) *arena_used = d.used;\n"
           "      return WIRE_OK;\n    }\n  }\n");
  }
  put(c, "%s  return wire_mem_decode(ctx, w->layout[%u], data, len, out, arena,\n"
         "                         arena_cap, arena_used, flags);\n%s}\n\n",
      nofb_open(g, i), li, nofb_close(g, i));
}

/* Both entry points of struct ti (C name nm). */
void wire__gen_entries(gen *g, sb *c, uint32_t ti, const char *nm) {
  enc_entry(g, c, ti, nm);
  dec_entry(g, c, ti, nm);
}
