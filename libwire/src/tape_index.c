/* tape_index.c - pass 1 of the direct tape encoder (wire_encode_tape,
 * wire_encode_tape_to; tape_enc.c): reads the whole tape into an index of
 * records (tape_rec.h), one per value, in pre-order. It checks what the
 * document builders check (ops, lengths, integer ranges, text, registered
 * types, field names, REF numbers) with the same statuses, resolves REF
 * ops to the record they name, and marks values named by a REF as tracked
 * under reference tracking. Nothing is copied: records point into the
 * tape. Also the per-context scratch that holds the index. */
#include "tape_rec.h"

#include <stdio.h>

/* ---- scratch ------------------------------------------------------------ */

struct wire_tape_dec_scratch **wire__tape_dec_slot(wire_ctx *ctx) {
  scratch *s = wire__tape_scratch(ctx);
  return s ? &s->dec : NULL;
}

void wire__tape_scratch_free(wire_ctx *ctx) {
  scratch *s = ctx->tape;
  if (!s) return;
  wire__free(ctx, s->recs, s->recs_cap * sizeof *s->recs);
  wire__free(ctx, s->refs, s->refs_cap * sizeof *s->refs);
  wire__free(ctx, s->sts, s->sts_cap * sizeof *s->sts);
  wire__free(ctx, s->fld, s->fld_cap * sizeof *s->fld);
  wire__free(ctx, s->strs, s->strs_cap * sizeof *s->strs);
  wire__free(ctx, s->names, s->names_cap * sizeof *s->names);
  wire__free(ctx, s->tds, s->tds_cap * sizeof *s->tds);
  wire__arena_free(&s->arena);
  wire__enc_release(&s->enc);
  wire__free(ctx, s->out.p, s->out.cap);
  wire__tape_dec_scratch_free(ctx, s->dec);
  wire__free(ctx, s, sizeof *s);
  ctx->tape = NULL;
}

scratch *wire__tape_scratch(wire_ctx *ctx) {
  if (ctx->tape) return ctx->tape;
  scratch *s = wire__alloc(ctx, sizeof *s);
  if (!s) return NULL;
  memset(s, 0, sizeof *s);
  s->arena.ctx = ctx;
  s->enc.ctx = ctx;
  s->out.ctx = ctx;
  ctx->tape = s;
  return s;
}

/* ---- pass 1: read and check -------------------------------------------- */

typedef struct {
  wire_ctx *ctx;
  scratch *s;
  const uint8_t *start, *p, *end;
  int32_t status;
  uint32_t err_at;
  bool builder_msg; /* the context holds the message of this error */
} rd;

static bool rfail(rd *r, int32_t st, const uint8_t *at) {
  if (!r->status) {
    r->status = st;
    r->err_at = (uint32_t)(at - r->start);
  }
  return false;
}
/* A builder rule broken: the message is on the context. */
static bool bfail(rd *r, int32_t st, const uint8_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool bfail(rd *r, int32_t st, const uint8_t *at, const char *fmt, ...) {
  if (r->status) return false;
  char msg[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  wire__fail(r->ctx, st, (uint64_t)(at - r->start), "%s", msg);
  r->builder_msg = true;
  return rfail(r, st, at);
}

static inline bool need(rd *r, size_t k) {
  if (WIRE_LIKELY((size_t)(r->end - r->p) >= k)) return true;
  return rfail(r, WIRE_E_TRUNCATED, r->p);
}
static inline uint8_t g8(rd *r) { return need(r, 1) ? *r->p++ : 0; }
static inline uint16_t g16(rd *r) {
  if (!need(r, 2)) return 0;
  uint16_t v = (uint16_t)(r->p[0] | r->p[1] << 8);
  r->p += 2;
  return v;
}
static inline uint32_t g32(rd *r) {
  if (!need(r, 4)) return 0;
  uint32_t v;
  memcpy(&v, r->p, 4);
  r->p += 4;
  return v;
}
static inline uint64_t g64(rd *r) {
  if (!need(r, 8)) return 0;
  uint64_t v;
  memcpy(&v, r->p, 8);
  r->p += 8;
  return v;
}
static inline const uint8_t *gbytes(rd *r, size_t n) {
  if (!need(r, n)) return NULL;
  const uint8_t *q = r->p;
  r->p += n;
  return q;
}

static inline uint32_t new_rec(rd *r, const uint8_t *at, uint8_t type) {
  scratch *s = r->s;
  if (WIRE_UNLIKELY(s->nrecs == s->recs_cap) &&
      !grow_arr(r->ctx, (void **)&s->recs, &s->recs_cap, s->nrecs + 1,
                sizeof *s->recs)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NONE32;
  }
  uint32_t i = (uint32_t)s->nrecs++;
  trec *t = &s->recs[i];
  t->at = (uint32_t)(at - r->start);
  t->end = i + 1;
  t->x = t->n = t->mark = t->span = 0;
  t->type = type;
  t->flags = 0;
  t->a = t->b = 0;
  return i;
}

/* Gives the next REF number to record ri (NONE32: a union being read). */
static bool number(rd *r, uint32_t ri, const uint8_t *at) {
  scratch *s = r->s;
  if (WIRE_UNLIKELY(s->nrefs == s->refs_cap) &&
      !grow_arr(r->ctx, (void **)&s->refs, &s->refs_cap, s->nrefs + 1,
                sizeof *s->refs))
    return rfail(r, WIRE_E_NOMEM, at);
  s->refs[s->nrefs++] = ri;
  return true;
}

static uint32_t new_names(rd *r, const uint8_t *ns, size_t nsl,
                          const uint8_t *nm, size_t nl, const uint8_t *at) {
  scratch *s = r->s;
  if (!grow_arr(r->ctx, (void **)&s->names, &s->names_cap, s->nnames + 1,
                sizeof *s->names)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NONE32;
  }
  wire_names *x = &s->names[s->nnames];
  memset(x, 0, sizeof *x);
  x->ns = ns;
  x->ns_len = (uint32_t)nsl;
  x->name = nm;
  x->name_len = (uint32_t)nl;
  return (uint32_t)s->nnames++;
}

static bool count_ok(rd *r, uint32_t cnt, const uint8_t *at) {
  if (WIRE_LIKELY(cnt <= r->ctx->max_collection)) return true;
  return rfail(r, WIRE_E_LIMIT, at);
}

/* The range check of wire_node_new_int / _uint. */
static inline bool int_ok(rd *r, uint8_t t, uint64_t raw, const uint8_t *at) {
  switch (t) { /* the 64-bit types take any value */
  case WIRE_T_INT64: case WIRE_T_VARINT64: case WIRE_T_TAGGED_INT64:
  case WIRE_T_UINT64: case WIRE_T_VAR_UINT64: case WIRE_T_TAGGED_UINT64:
    return true;
  default: break;
  }
  if (t <= WIRE_T_TAGGED_INT64) {
    int64_t v = (int64_t)raw, lo = INT64_MIN, hi = INT64_MAX;
    if (t == WIRE_T_INT8) { lo = INT8_MIN; hi = INT8_MAX; }
    else if (t == WIRE_T_INT16) { lo = INT16_MIN; hi = INT16_MAX; }
    else if (t == WIRE_T_INT32 || t == WIRE_T_VARINT32) { lo = INT32_MIN; hi = INT32_MAX; }
    if (WIRE_LIKELY(v >= lo && v <= hi)) return true;
    return bfail(r, WIRE_E_VALUE, at, "%lld does not fit %s", (long long)v,
                 wire_type_name(t));
  }
  uint64_t hi = UINT64_MAX;
  if (t == WIRE_T_UINT8) hi = UINT8_MAX;
  else if (t == WIRE_T_UINT16) hi = UINT16_MAX;
  else if (t == WIRE_T_UINT32 || t == WIRE_T_VAR_UINT32) hi = UINT32_MAX;
  if (WIRE_LIKELY(raw <= hi)) return true;
  return bfail(r, WIRE_E_VALUE, at, "%llu does not fit %s",
               (unsigned long long)raw, wire_type_name(t));
}

static const wire_utype *reg_type(rd *r, uint32_t type, uint8_t kind,
                                  const uint8_t *at) {
  wire_registry *g = r->ctx->reg;
  bool ext_ok = kind == WIRE_KIND_STRUCT;
  if (g && type < g->ntypes &&
      (g->types[type].kind == kind ||
       (ext_ok && g->types[type].kind == WIRE_KIND_EXT)))
    return &g->types[type];
  bfail(r, WIRE_E_ARG, at, "type %u is not a registered %s", type,
        kind == WIRE_KIND_STRUCT ? "struct" : kind == WIRE_KIND_ENUM ? "enum"
                                                                    : "union");
  return NULL;
}

static bool meta_ok(rd *r, const uint8_t *ns, size_t nsl, const uint8_t *nm,
                    size_t nl, const uint8_t *at) {
  if (wire_meta_choose_encoding(WIRE_MSCTX_NAMESPACE, ns, nsl) < 0 ||
      wire_meta_choose_encoding(WIRE_MSCTX_TYPE_NAME, nm, nl) < 0)
    return bfail(r, WIRE_E_META_STRING, at, "name is not a meta string");
  return true;
}

static bool value(rd *r, unsigned depth);

/* A struct record of layout l with its fields unset. */
static uint32_t new_struct(rd *r, const uint8_t *at, uint8_t kind,
                           const wire_layout *l) {
  scratch *s = r->s;
  uint32_t ri = new_rec(r, at, kind);
  if (ri == NONE32) return NONE32;
  if (!grow_arr(r->ctx, (void **)&s->sts, &s->sts_cap, s->nsts + 1,
                sizeof *s->sts) ||
      !grow_arr(r->ctx, (void **)&s->fld, &s->fld_cap, s->nfld + l->nfields,
                sizeof *s->fld)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NONE32;
  }
  s->sts[s->nsts] = (tstruct){l, (uint32_t)s->nfld};
  for (uint32_t i = 0; i < l->nfields; i++) s->fld[s->nfld + i] = NONE32;
  s->nfld += l->nfields;
  s->recs[ri].x = (uint32_t)s->nsts++;
  if (!number(r, ri, at)) return NONE32;
  return ri;
}

/* The layout of a STRUCT_TD TypeDef: parsed once per distinct TypeDef of
 * the tape, as wire_node_new_struct_typedef does. */
static const wire_layout *td_layout(rd *r, const uint8_t *td, uint32_t tl,
                                    const uint8_t *at) {
  scratch *s = r->s;
  for (size_t i = 0; i < s->ntds; i++)
    if (s->tds[i].len == tl && wire__eq(s->tds[i].td, td, tl)) return s->tds[i].l;
  wire_in in = {r->ctx, td, td, td + tl};
  wire_layout *l;
  if (wire__typedef_read(r->ctx, &in, &s->arena, r->ctx->max_depth, &l) !=
      WIRE_OK) {
    r->builder_msg = true;
    rfail(r, r->ctx->err_code ? r->ctx->err_code : WIRE_E_TYPEDEF, at);
    return NULL;
  }
  if (in.p != in.end || l->kind != WIRE_KIND_STRUCT) {
    bfail(r, WIRE_E_TYPEDEF, at, "not one struct TypeDef");
    return NULL;
  }
  wire__struct_typedef_link(r->ctx, l);
  if (!grow_arr(r->ctx, (void **)&s->tds, &s->tds_cap, s->ntds + 1,
                sizeof *s->tds)) {
    rfail(r, WIRE_E_NOMEM, at);
    return NULL;
  }
  s->tds[s->ntds++] = (ttd){td, tl, l};
  return l;
}

#define HI8 UINT64_C(0x8080808080808080)

#define is_ascii wire__tape_ascii

/* Bytes of a word that have bit 7 set in a mask of bit-7 bits. */
static inline size_t count_hi(uint64_t m) {
  return (size_t)(((m >> 7) * UINT64_C(0x0101010101010101)) >> 56);
}

/* One word of UTF-8 for utf8_latin1_len: the non-ASCII bytes must be
 * C2 or C3 leads, each followed by a continuation byte (10xxxxxx);
 * *carry: the last byte of the word before was a lead. Adds the pairs
 * that end in the word; false for any other text. */
static inline bool latin1_word(uint64_t w, uint64_t *carry, size_t *pairs) {
  uint64_t hi = w & HI8;
  uint64_t cont = hi & ~(w << 1);
  uint64_t x = (w ^ UINT64_C(0xC2C2C2C2C2C2C2C2)) & UINT64_C(0xFEFEFEFEFEFEFEFE);
  uint64_t lo7 = UINT64_C(0x7F7F7F7F7F7F7F7F);
  uint64_t lead = ~(((x & lo7) + lo7) | x | lo7); /* bytes equal to C2/C3 */
  if ((lead | cont) != hi || cont != ((lead << 8) | *carry)) return false;
  *carry = lead >> 56;
  *pairs += count_hi(cont);
  return true;
}

/* UTF-8 text whose chars are all below U+0100, well formed: its Latin-1
 * length; SIZE_MAX for any other text. lim: the end of the tape (the
 * last word may be read past the text, within the tape). */
static inline __attribute__((always_inline)) size_t
utf8_latin1_len(const uint8_t *s, size_t len, const uint8_t *lim) {
  size_t i = 0, pairs = 0;
  uint64_t carry = 0, w;
  for (; i + 8 <= len; i += 8) {
    memcpy(&w, s + i, 8);
    if (!latin1_word(w, &carry, &pairs)) return SIZE_MAX;
  }
  size_t rest = len - i;
  if (rest && (size_t)(lim - (s + i)) >= 8) {
    memcpy(&w, s + i, 8);
    w &= (UINT64_C(1) << (8 * rest)) - 1;
    if (!latin1_word(w, &carry, &pairs)) return SIZE_MAX;
    /* the last byte a lead: cut short */
    if (rest < 8 && (w >> (8 * rest - 8) & 0xFF) >= 0xC2) return SIZE_MAX;
    return len - pairs;
  }
  for (; i < len; i++) {
    uint8_t c = s[i];
    if (carry) {
      if ((c & 0xC0) != 0x80) return SIZE_MAX;
      carry = 0;
      pairs++;
    } else if (c == 0xC2 || c == 0xC3) {
      carry = 1;
    } else if (c >= 0x80) {
      return SIZE_MAX;
    }
  }
  return carry ? SIZE_MAX : len - pairs;
}

/* Well-formed UTF-8 (RFC 3629, as wire__utf8_check has it) for the Java
 * choice, once it is known not to be all below U+0100: the choice
 * (wire__java_sample of its first 64 UTF-16 units) and the length in it,
 * in one pass. False for malformed text (the long way reports it, or
 * copes with it when trusted). */
static bool utf8_java(const uint8_t *s, size_t len, int32_t *enc, size_t *n) {
  uint16_t units[64];
  size_t nu = 0, total = 0, i = 0;
  while (i < len) {
    uint32_t cp;
    uint8_t c = s[i];
    if (c < 0x80) {
      cp = c;
      i++;
    } else if (c < 0xC2) {
      return false;
    } else if (c < 0xE0) {
      if (len - i < 2 || (s[i + 1] & 0xC0) != 0x80) return false;
      cp = (uint32_t)(c & 0x1F) << 6 | (s[i + 1] & 0x3F);
      i += 2;
    } else if (c < 0xF0) {
      if (len - i < 3 || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80)
        return false;
      cp = (uint32_t)(c & 0x0F) << 12 | (uint32_t)(s[i + 1] & 0x3F) << 6 |
           (s[i + 2] & 0x3F);
      if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
      i += 3;
    } else if (c < 0xF5) {
      if (len - i < 4 || (s[i + 1] & 0xC0) != 0x80 ||
          (s[i + 2] & 0xC0) != 0x80 || (s[i + 3] & 0xC0) != 0x80)
        return false;
      cp = (uint32_t)(c & 0x07) << 18 | (uint32_t)(s[i + 1] & 0x3F) << 12 |
           (uint32_t)(s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F);
      if (cp < 0x10000 || cp > 0x10FFFF) return false;
      i += 4;
    } else {
      return false;
    }
    if (cp >= 0x10000) {
      cp -= 0x10000;
      if (nu < 64) units[nu++] = (uint16_t)(0xD800 + (cp >> 10));
      if (nu < 64) units[nu++] = (uint16_t)(0xDC00 + (cp & 0x3FF));
      total += 2;
    } else {
      if (nu < 64) units[nu++] = (uint16_t)cp;
      total++;
    }
  }
  *enc = wire__java_sample(units, nu);
  *n = *enc == WIRE_STR_UTF16 ? 2 * total : len;
  return true;
}

/* The long way of check_string (any encoding byte, any policy). */
static bool check_string_slow(rd *r, const uint8_t *at, uint8_t e,
                              const uint8_t *b, uint32_t len, tstr *o) {
  wire_ctx *ctx = r->ctx;
  int32_t given;
  bool java;
  if (!wire__tape_string_given(e, &given, &java))
    return bfail(r, WIRE_E_ARG, at, "unknown string encoding");
  o->given = (uint8_t)given;
  o->how = S_COPY;
  o->n = len;
  if (!java && ctx->string_policy == WIRE_STRING_AS_GIVEN) {
    /* written as given: only the check */
    o->enc = (uint8_t)given;
    if (ctx->trusted_text || given == WIRE_STR_LATIN1) return true;
    if (given == WIRE_STR_UTF8) {
      if (wire__utf8_check(b, len) == len) return true;
      return bfail(r, WIRE_E_STRING, at, "text is not valid UTF-8");
    }
    if (wire__tape_check_text(given, b, len) != len)
      return bfail(r, WIRE_E_STRING, at, "invalid UTF-16");
    return true;
  }
  /* One look at the text: is it ASCII, then the check of the rest. */
  bool ascii = false;
  if (given != WIRE_STR_UTF16) {
    ascii = is_ascii(b, len, r->end);
    if (!ascii && given == WIRE_STR_UTF8 &&
        (java || ctx->string_policy == WIRE_STRING_JAVA)) {
      /* the Java choice of UTF-8 text: Latin-1 if it is valid and every
       * char is below U+0100 (what the full check, choice and length below
       * give for such text); anything else goes the long way */
      size_t n = utf8_latin1_len(b, len, r->end);
      if (n != SIZE_MAX) {
        o->enc = WIRE_STR_LATIN1;
        o->how = S_LATIN1;
        o->n = (uint32_t)n;
        return true;
      }
      int32_t enc;
      if (utf8_java(b, len, &enc, &n)) {
        if (n > UINT32_MAX)
          return bfail(r, WIRE_E_LIMIT, at, "string longer than 4 GiB on the "
                       "wire");
        o->enc = (uint8_t)enc;
        o->how = enc == WIRE_STR_UTF8 ? S_COPY : S_UTF16;
        o->n = (uint32_t)n;
        return true;
      }
    }
    if (!ascii && given == WIRE_STR_UTF8 && !ctx->trusted_text &&
        wire__utf8_check(b, len) != len)
      return bfail(r, WIRE_E_STRING, at, "text is not valid UTF-8");
  } else if (!ctx->trusted_text && wire__tape_check_text(given, b, len) != len) {
    return bfail(r, WIRE_E_STRING, at, "invalid UTF-16");
  }
  int32_t enc = wire__tape_wire_enc(ctx, given, java, ascii, b, len);
  o->enc = (uint8_t)enc;
  /* ASCII is the same bytes in Latin-1 and UTF-8 */
  if (enc == given || (ascii && enc != WIRE_STR_UTF16)) return true;
  size_t n = wire__transcode_len(given, enc, b, len);
  if (n > UINT32_MAX)
    return bfail(r, WIRE_E_LIMIT, at, "string longer than 4 GiB on the wire");
  o->how = S_ANY;
  o->n = (uint32_t)n;
  return true;
}

/* Checks the text of a tape string (encoding byte e, bytes b[0..len), op
 * at `at`) as wire_node_new_string does, and decides how it is written
 * (*o). The bindings' usual cases first: ASCII for the Java choice, text
 * as given. */
static inline __attribute__((always_inline)) bool
check_string(rd *r, const uint8_t *at, uint8_t e, const uint8_t *b,
             uint32_t len, tstr *o) {
  if (WIRE_LIKELY(e == TAPE_STR_UTF8_JAVA ||
                  e == (TAPE_STR_JAVA | WIRE_STR_UTF8))) {
    if (WIRE_LIKELY(is_ascii(b, len, r->end))) {
      /* ASCII for the Java choice: Latin-1, the same bytes */
      *o = (tstr){len, WIRE_STR_LATIN1, WIRE_STR_UTF8, S_COPY, 0};
      return true;
    }
    size_t n = utf8_latin1_len(b, len, r->end);
    if (n != SIZE_MAX) { /* as check_string_slow has it */
      *o = (tstr){(uint32_t)n, WIRE_STR_LATIN1, WIRE_STR_UTF8, S_LATIN1, 0};
      return true;
    }
  } else if (WIRE_LIKELY(e == (TAPE_STR_JAVA | WIRE_STR_LATIN1))) {
    /* Latin-1 for the Java choice: Latin-1, the same bytes, nothing to
     * check (a host's compact Latin-1 strings) */
    *o = (tstr){len, WIRE_STR_LATIN1, WIRE_STR_LATIN1, S_COPY, 0};
    return true;
  } else if (e <= WIRE_STR_UTF8 &&
             r->ctx->string_policy == WIRE_STRING_AS_GIVEN &&
             (e == WIRE_STR_LATIN1 || r->ctx->trusted_text ||
              (e == WIRE_STR_UTF8 && is_ascii(b, len, r->end)))) {
    /* written as given, nothing to check */
    *o = (tstr){len, e, e, S_COPY, 0};
    return true;
  }
  return check_string_slow(r, at, e, b, len, o);
}

static bool string(rd *r, uint32_t ri, const uint8_t *at) {
  uint8_t e = g8(r);
  uint32_t len = g32(r);
  const uint8_t *b = gbytes(r, len);
  if (!b) return false;
  tstr o = {0, 0, 0, 0, 0};
  if (!check_string(r, at, e, b, len, &o)) return false;
  trec *t = &r->s->recs[ri];
  t->a = o.enc;
  t->b = o.given;
  t->n = o.n;
  t->x = o.how;
  return true;
}

static bool fields_by_name(rd *r, uint32_t ri, unsigned depth,
                           const uint8_t *at) {
  uint32_t nf = g32(r);
  for (uint32_t i = 0; i < nf && !r->status; i++) {
    uint16_t nl = g16(r);
    const uint8_t *name = gbytes(r, nl);
    uint32_t vi = (uint32_t)r->s->nrecs;
    if (!value(r, depth + 1) || !name) return false;
    const tstruct *st = &r->s->sts[r->s->recs[ri].x];
    int32_t k = wire__field_index(r->ctx, st->l, (const char *)name, nl);
    if (k < 0) {
      char sname[128];
      return bfail(r, WIRE_E_ENCODE, at, "struct %s has no field %.*s",
                   wire__layout_full_name(r->ctx, st->l, sname, sizeof sname),
                   (int)nl, (const char *)name);
    }
    r->s->fld[st->fields + (uint32_t)k] = vi;
  }
  return !r->status;
}

/* One element of a flat container at *pp (not at the end of the tape):
 * a scalar checked as value() checks it, a string's entry at *xs.
 * Returns 1 (done, *pp after it), 2 (not a scalar), 0 (an error that
 * value() reports, *pp unchanged) or -1 (an error reported). */
enum { EL_ERR = -1, EL_SLOW = 0, EL_OK = 1, EL_NOT = 2 };
/* What the ops are to scalar(): not a scalar (0), or the kind of check. */
enum { SC_NOT, SC_STR, SC_INT, SC_ANY9, SC_TIME, SC_ONE, SC_BOOL };
static const uint8_t sclass[256] = {
  [WIRE_TAPE_NULL] = SC_ONE, [WIRE_T_NONE] = SC_ONE, [WIRE_T_BOOL] = SC_BOOL,
  [WIRE_T_STRING] = SC_STR,
  [WIRE_T_INT8] = SC_INT, [WIRE_T_INT16] = SC_INT, [WIRE_T_INT32] = SC_INT,
  [WIRE_T_VARINT32] = SC_INT, [WIRE_T_UINT8] = SC_INT,
  [WIRE_T_UINT16] = SC_INT, [WIRE_T_UINT32] = SC_INT,
  [WIRE_T_VAR_UINT32] = SC_INT,
  [WIRE_T_INT64] = SC_ANY9, [WIRE_T_VARINT64] = SC_ANY9,
  [WIRE_T_TAGGED_INT64] = SC_ANY9, [WIRE_T_UINT64] = SC_ANY9,
  [WIRE_T_VAR_UINT64] = SC_ANY9, [WIRE_T_TAGGED_UINT64] = SC_ANY9,
  [WIRE_T_FLOAT16] = SC_ANY9, [WIRE_T_BFLOAT16] = SC_ANY9,
  [WIRE_T_FLOAT32] = SC_ANY9, [WIRE_T_FLOAT64] = SC_ANY9,
  [WIRE_T_DATE] = SC_ANY9,
  [WIRE_T_TIMESTAMP] = SC_TIME, [WIRE_T_DURATION] = SC_TIME,
};
/* scalar() of a string op. */
static inline __attribute__((always_inline)) int
string1(rd *r, const uint8_t **pp, tstr **xs) {
  const uint8_t *p = *pp;
  size_t left = (size_t)(r->end - p);
  if (WIRE_UNLIKELY(left < 6)) return EL_SLOW;
  uint32_t len;
  memcpy(&len, p + 2, 4);
  if (WIRE_UNLIKELY(left - 6 < len)) return EL_SLOW;
  if (!check_string(r, p, p[1], p + 6, len, *xs)) return EL_ERR;
  (*xs)++;
  *pp = p + 6 + (size_t)len;
  return EL_OK;
}

static inline __attribute__((always_inline)) int
scalar(rd *r, const uint8_t **pp, tstr **xs) {
  const uint8_t *p = *pp;
  size_t left = (size_t)(r->end - p), k;
  uint8_t o = *p;
  switch (sclass[o]) {
  case SC_STR: return string1(r, pp, xs);
  case SC_INT: {
    if (WIRE_UNLIKELY(left < 9)) return EL_SLOW;
    uint64_t u;
    memcpy(&u, p + 1, 8);
    if (!int_ok(r, o, u, p)) return EL_ERR;
    *pp = p + 9;
    return EL_OK;
  }
  case SC_ANY9: k = 9; break;
  case SC_TIME: {
    if (WIRE_UNLIKELY(left < 13)) return EL_SLOW;
    uint32_t ns;
    memcpy(&ns, p + 9, 4);
    if (ns >= 1000000000u) return EL_SLOW;
    *pp = p + 13;
    return EL_OK;
  }
  case SC_ONE: k = 1; break;
  case SC_BOOL: k = 2; break;
  default: return EL_NOT;
  }
  if (WIRE_UNLIKELY(left < k)) return EL_SLOW;
  *pp = p + k;
  return EL_OK;
}

/* The elements of a list, set or map (count cnt > 0, at r->p) if they are
 * all scalars: checked as value() checks them, in order, but without
 * records; their types summed up in record ri (R_FLAT...) and their
 * strings in s->strs. Returns 1 (done, r->p after them), 0 (an element is
 * not a scalar: nothing done, value() reads them) or -1 (an error, as
 * value() reports it). */
static int flat(rd *r, uint32_t ri, uint8_t op, uint32_t cnt, unsigned depth) {
  scratch *s = r->s;
  const uint8_t *p = r->p, *end = r->end, *e = p;
  bool map = op == WIRE_T_MAP;
  uint64_t nv = map ? 2 * (uint64_t)cnt : cnt;
  /* room for a string entry per element (a string takes 6 tape bytes),
   * and one (the array exists) */
  size_t most = (size_t)(end - p) / 6;
  if (most > nv) most = (size_t)nv;
  if (!grow_arr(r->ctx, (void **)&s->strs, &s->strs_cap, s->nstrs + most + 1,
                sizeof *s->strs)) {
    rfail(r, WIRE_E_NOMEM, p);
    return -1;
  }
  tstr *xs = s->strs + s->nstrs;
  /* the types: the first non-null op of each side (NO_OP: none yet), all
   * non-null ones of that op, a null seen */
  enum { NO_OP = 0xFE };
  uint8_t kt = NO_OP, vt = NO_OP;
  bool same = true, null = false;
  int k;
  uint32_t nl1 = 0; /* elements read by the run of Latin-1 strings below */
  if (!map) {
    for (uint32_t i = 0; i < cnt; i++) {
      e = p;
      if (WIRE_UNLIKELY(p == end)) goto slow;
      uint8_t o = *p;
      if (o == WIRE_T_STRING) {
        /* a run of strings; first any run of Latin-1 ones for the Java
         * choice (a JVM's compact strings: enc 0x80, written as they are,
         * nothing to check), each entry S_COPY of the same bytes */
        if (end - p >= 6 && p[1] == (TAPE_STR_JAVA | WIRE_STR_LATIN1)) {
          const tstr l1 = {0, WIRE_STR_LATIN1, WIRE_STR_LATIN1, S_COPY, 0};
          uint32_t i0 = i;
          do {
            uint32_t len;
            memcpy(&len, p + 2, 4);
            if (WIRE_UNLIKELY((size_t)(end - p) - 6 < len)) break;
            *xs = l1;
            xs->n = len;
            xs++;
            p += 6 + (size_t)len;
          } while (++i < cnt && end - p >= 6 && p[0] == WIRE_T_STRING &&
                   p[1] == (TAPE_STR_JAVA | WIRE_STR_LATIN1));
          nl1 += i - i0;
          if (i == cnt || end - p < 6 || p[0] != WIRE_T_STRING) {
            /* the run ended (at the end, or at another op: the general
             * loop reads it next) */
            i--;
            goto typed;
          }
        }
        do {
          e = p;
          if (WIRE_UNLIKELY((size_t)(end - p) < 6)) goto slow;
          uint32_t len;
          memcpy(&len, p + 2, 4);
          const uint8_t *b = p + 6;
          if (WIRE_UNLIKELY((size_t)(end - b) < len)) goto slow;
          if (!check_string(r, p, p[1], b, len, xs)) return -1;
          xs++;
          p = b + len;
        } while (++i < cnt && p != end && *p == WIRE_T_STRING);
        i--;
      } else if (WIRE_UNLIKELY((k = scalar(r, &p, &xs)) != EL_OK)) {
        goto bad;
      }
    typed:
      if (WIRE_LIKELY(o == kt)) continue;
      if (o == TAPE_NULL) null = true;
      else if (kt == NO_OP) kt = o;
      else same = false;
    }
  } else {
    for (uint32_t i = 0; i < cnt; i++) {
      e = p;
      if (WIRE_UNLIKELY(p == end)) goto slow;
      uint8_t ko = *p;
      if (ko == WIRE_T_STRING) k = string1(r, &p, &xs);
      else k = scalar(r, &p, &xs);
      if (WIRE_UNLIKELY(k != EL_OK)) goto bad;
      e = p;
      if (WIRE_UNLIKELY(p == end)) goto slow;
      uint8_t vo = *p;
      if (sclass[vo] == SC_ANY9) k = (size_t)(end - p) >= 9 ? (p += 9, EL_OK) : EL_SLOW;
      else if (vo == WIRE_T_STRING) k = string1(r, &p, &xs);
      else k = scalar(r, &p, &xs);
      if (WIRE_UNLIKELY(k != EL_OK)) goto bad;
      if (WIRE_LIKELY(ko == kt && vo == vt)) continue;
      if (ko == TAPE_NULL || vo == TAPE_NULL) null = true;
      if (ko != TAPE_NULL && ko != kt) {
        if (kt == NO_OP) kt = ko;
        else same = false;
      }
      if (vo != TAPE_NULL && vo != vt) {
        if (vt == NO_OP) vt = vo;
        else same = false;
      }
    }
  }
  r->p = p;
  trec *t = &s->recs[ri];
  t->flags |= R_FLAT;
  t->x = (uint32_t)s->nstrs;
  t->span = (uint32_t)(p - (r->start + t->at + 5));
  t->a = kt == NO_OP ? 0 : kt;
  t->b = vt == NO_OP ? 0 : vt;
  if (map ? same && !null : same) t->flags |= R_FSAME;
  if (null && !map) t->flags |= R_FNULL;
  if (!map && nl1 == cnt) t->flags |= R_FL1;
  s->nstrs = (size_t)(xs - s->strs);
  return 1;
bad:
  if (k == EL_ERR) return -1;
  if (k == EL_NOT) goto not_flat;
slow:
  /* an element value() fails on: its error */
  r->p = e;
  if (!value(r, depth + 1)) return -1;
not_flat:
  s->nrecs = ri + 1;
  r->p = r->start + s->recs[ri].at + 5;
  return 0;
}

/* The ops of value(), one function per kind of value. Each reads the op's
 * operands (the op byte at `at` is consumed) and adds the records. */

static bool ref_op(rd *r, const uint8_t *at) {
  scratch *s = r->s;
  uint32_t k = g32(r), ri;
  if (r->status) return false;
  if (k >= s->nrefs || s->refs[k] == NONE32) return rfail(r, WIRE_E_REF, at);
  uint32_t target = s->refs[k];
  if ((ri = new_rec(r, at, s->recs[target].type)) == NONE32) return false;
  s->recs[ri].flags = R_REF;
  s->recs[ri].x = target;
  if (r->ctx->ref_tracking) s->recs[target].flags |= R_TRACKED;
  return true;
}

static bool collection_op(rd *r, uint8_t op, unsigned depth,
                          const uint8_t *at) {
  uint32_t cnt = g32(r), ri;
  if (r->status || !count_ok(r, cnt, at)) return false;
  if ((ri = new_rec(r, at, op)) == NONE32 || !number(r, ri, at)) return false;
  r->s->recs[ri].n = cnt;
  if (cnt && depth < r->ctx->max_depth) {
    int f = flat(r, ri, op, cnt, depth);
    if (f) return f > 0;
  }
  uint64_t nv = op == WIRE_T_MAP ? 2 * (uint64_t)cnt : cnt;
  for (uint64_t i = 0; i < nv; i++)
    if (!value(r, depth + 1)) return false;
  r->s->recs[ri].end = (uint32_t)r->s->nrecs;
  return true;
}

/* Element types whose 8-byte tape slots must be range-checked (the narrower
 * integers; bools and 64-bit integers take any slot). */
static bool packed_needs_check(uint8_t et) {
  return et != WIRE_T_BOOL && et <= WIRE_T_TAGGED_UINT64 &&
         et != WIRE_T_INT64 && et != WIRE_T_VARINT64 &&
         et != WIRE_T_TAGGED_INT64 && et != WIRE_T_UINT64 &&
         et != WIRE_T_VAR_UINT64 && et != WIRE_T_TAGGED_UINT64;
}

static bool packed_op(rd *r, const uint8_t *at) {
  uint8_t kind = g8(r), et = g8(r);
  uint32_t cnt = g32(r), ri;
  if (r->status) return false;
  if ((kind != WIRE_T_LIST && kind != WIRE_T_SET) || !wire__tape_packable(et))
    return rfail(r, WIRE_E_ARG, at);
  if (!count_ok(r, cnt, at)) return false;
  const uint8_t *b = gbytes(r, (size_t)cnt * 8);
  if (!b) return false;
  if ((ri = new_rec(r, at, kind)) == NONE32 || !number(r, ri, at)) return false;
  trec *rec = &r->s->recs[ri];
  rec->flags = R_PACKED;
  rec->a = et;
  rec->n = cnt;
  if (packed_needs_check(et)) {
    for (uint32_t i = 0; i < cnt; i++) {
      uint64_t u;
      memcpy(&u, b + 8 * (size_t)i, 8);
      if (!int_ok(r, et, u, at)) return false;
    }
  }
  return true;
}

/* L1_LIST: u32 count (>= 1), u32 size, then size bytes: count strings'
 * wire bytes (wire__tape_l1_next), exactly. */
static bool l1_list_op(rd *r, const uint8_t *at) {
  uint32_t cnt = g32(r), size = g32(r), ri;
  if (r->status) return false;
  if (!count_ok(r, cnt, at)) return false;
  const uint8_t *b = gbytes(r, size);
  if (!b) return false;
  const uint8_t *end = b + size;
  if (cnt == 0)
    return bfail(r, WIRE_E_ARG, at, "an L1_LIST of no strings");
  for (uint32_t i = 0; i < cnt; i++) {
    uint32_t len;
    if (!wire__tape_l1_next(&b, end, &len))
      return bfail(r, WIRE_E_ARG, at, "L1_LIST string %u is not a Latin-1 "
                   "string header and its bytes within the list's bytes", i);
  }
  if (b != end)
    return bfail(r, WIRE_E_ARG, at, "L1_LIST bytes after its %u strings",
                 cnt);
  if ((ri = new_rec(r, at, WIRE_T_LIST)) == NONE32 || !number(r, ri, at))
    return false;
  trec *rec = &r->s->recs[ri];
  rec->flags = R_L1LIST;
  rec->a = WIRE_T_STRING;
  rec->n = cnt;
  rec->span = size;
  return true;
}

static bool time_op(rd *r, uint8_t op, const uint8_t *at) {
  g64(r);
  uint32_t ns = g32(r);
  if (r->status) return false;
  if (ns >= 1000000000u)
    return bfail(r, WIRE_E_VALUE, at, "nanoseconds must be < 1e9");
  return new_rec(r, at, op) != NONE32;
}

static bool decimal_op(rd *r, const uint8_t *at) {
  uint32_t ri;
  g32(r);
  g8(r);
  gbytes(r, g32(r));
  if (r->status) return false;
  return (ri = new_rec(r, at, WIRE_T_DECIMAL)) != NONE32 && number(r, ri, at);
}

/* The names record of a registered by-name type (NONE32 on failure). */
static uint32_t type_names(rd *r, const wire_utype *t, const uint8_t *at) {
  size_t nsl = strlen(t->ns), nl = strlen(t->name);
  const uint8_t *ns = (const uint8_t *)t->ns, *nm = (const uint8_t *)t->name;
  if (!meta_ok(r, ns, nsl, nm, nl, at)) return NONE32;
  return new_names(r, ns, nsl, nm, nl, at);
}

static bool enum_record(rd *r, uint8_t kind, uint32_t x, uint32_t v,
                        const uint8_t *at) {
  uint32_t ri;
  if ((ri = new_rec(r, at, kind)) == NONE32) return false;
  r->s->recs[ri].x = x;
  r->s->recs[ri].n = v;
  return true;
}

/* WIRE_T_ENUM (a registered type) or TAPE_ENUM_ID (a bare user id). */
static bool enum_op(rd *r, uint8_t op, const uint8_t *at) {
  uint32_t type = g32(r), v = g32(r);
  if (r->status) return false;
  if (op != WIRE_T_ENUM) return enum_record(r, WIRE_T_ENUM, type, v, at);
  const wire_utype *t = reg_type(r, type, WIRE_KIND_ENUM, at);
  if (!t) return false;
  if (!t->by_name) return enum_record(r, WIRE_T_ENUM, t->user_id, v, at);
  uint32_t x = type_names(r, t, at);
  return x != NONE32 && enum_record(r, WIRE_T_NAMED_ENUM, x, v, at);
}

static bool named_enum_op(rd *r, const uint8_t *at) {
  uint16_t nsl = g16(r);
  const uint8_t *ns = gbytes(r, nsl);
  uint16_t nl = g16(r);
  const uint8_t *nm = gbytes(r, nl);
  uint32_t v = g32(r);
  if (r->status || !meta_ok(r, ns, nsl, nm, nl, at)) return false;
  uint32_t x = new_names(r, ns, nsl, nm, nl, at);
  return x != NONE32 && enum_record(r, WIRE_T_NAMED_ENUM, x, v, at);
}

/* The registered struct type `type` with its layout computed (NULL on
 * failure). */
static const wire_utype *struct_type(rd *r, uint32_t type, const uint8_t *at) {
  const wire_utype *t = reg_type(r, type, WIRE_KIND_STRUCT, at);
  if (!t) return NULL;
  if (wire__layout_of(r->ctx, type) != WIRE_OK) {
    r->builder_msg = true;
    rfail(r, r->ctx->err_code, at);
    return NULL;
  }
  return t;
}

/* WIRE_T_STRUCT (fields by name) or TAPE_STRUCT_TD (the same, under the
 * writer's TypeDef). */
static bool struct_op(rd *r, uint8_t op, unsigned depth, const uint8_t *at) {
  const uint8_t *td = NULL;
  uint32_t tl = 0, ri;
  if (op == TAPE_STRUCT_TD) {
    tl = g32(r);
    td = gbytes(r, tl);
  }
  uint32_t type = g32(r);
  if (type == 0xFFFFFFFFu) { /* identity block: informative on input */
    g32(r);
    gbytes(r, g16(r));
    gbytes(r, g16(r));
  }
  if (r->status) return false;
  const wire_layout *l;
  uint8_t kind;
  if (td) {
    if (!(l = td_layout(r, td, tl, at))) return false;
    kind = wire__layout_struct_kind(l);
  } else {
    const wire_utype *t = struct_type(r, type, at);
    if (!t) return false;
    l = t->layout;
    kind = wire__struct_kind(r->ctx, t);
  }
  if ((ri = new_struct(r, at, kind, l)) == NONE32) return false;
  if (!fields_by_name(r, ri, depth, at)) return false;
  r->s->recs[ri].end = (uint32_t)r->s->nrecs;
  return true;
}

/* TAPE_STRUCT_IDX: every field, in declaration order. */
static bool struct_idx_op(rd *r, unsigned depth, const uint8_t *at) {
  uint32_t type = g32(r), nf = g32(r), ri;
  if (r->status) return false;
  const wire_utype *t = struct_type(r, type, at);
  if (!t) return false;
  const wire_layout *l = t->layout;
  if ((ri = new_struct(r, at, wire__struct_kind(r->ctx, t), l)) == NONE32)
    return false;
  if (nf != l->nfields)
    return bfail(r, WIRE_E_ARG, at, "struct %s has %u fields, the tape "
                 "gives %u", t->full_name, l->nfields, nf);
  uint32_t base = r->s->sts[r->s->recs[ri].x].fields;
  for (uint32_t i = 0; i < nf; i++) {
    r->s->fld[base + i] = (uint32_t)r->s->nrecs;
    if (!value(r, depth + 1)) return false;
  }
  r->s->recs[ri].end = (uint32_t)r->s->nrecs;
  return true;
}

static bool union_op(rd *r, unsigned depth, const uint8_t *at) {
  uint32_t type = g32(r), c = g32(r), ri;
  if (r->status) return false;
  if ((ri = new_rec(r, at, WIRE_T_UNION)) == NONE32) return false;
  size_t slot = r->s->nrefs; /* the union's number comes before its value's */
  if (!number(r, NONE32, at) || !value(r, depth + 1)) return false;
  uint8_t kind = WIRE_T_UNION;
  uint32_t x = UINT32_MAX;
  if (type != WIRE_BY_NAME) {
    const wire_utype *t = reg_type(r, type, WIRE_KIND_UNION, at);
    if (!t) return false;
    if (t->by_name) {
      kind = WIRE_T_NAMED_UNION;
      x = new_names(r, (const uint8_t *)t->ns, strlen(t->ns),
                    (const uint8_t *)t->name, strlen(t->name), at);
      if (x == NONE32) return false;
    } else {
      kind = WIRE_T_TYPED_UNION;
      x = t->user_id;
    }
  }
  trec *u = &r->s->recs[ri];
  u->type = kind;
  u->x = x;
  u->n = c;
  u->end = (uint32_t)r->s->nrecs;
  r->s->refs[slot] = ri;
  return true;
}

/* Integers, floats, binaries and dense arrays. */
static bool scalar_op(rd *r, uint8_t op, const uint8_t *at) {
  uint32_t ri;
  if (op >= WIRE_T_INT8 && op <= WIRE_T_TAGGED_UINT64) {
    uint64_t u = g64(r);
    if (r->status || !int_ok(r, op, u, at)) return false;
    return new_rec(r, at, op) != NONE32;
  }
  if (op >= WIRE_T_FLOAT16 && op <= WIRE_T_FLOAT64) {
    g64(r);
    return !r->status && new_rec(r, at, op) != NONE32;
  }
  if (op == WIRE_T_BINARY || wire_type_array_width(op)) {
    uint32_t len = g32(r);
    const uint8_t *b = gbytes(r, len);
    if (!b) return false;
    uint32_t w = op == WIRE_T_BINARY ? 1 : wire_type_array_width(op);
    if (len % w)
      return bfail(r, WIRE_E_ARG, at, "byte length is not a multiple of the "
                   "width");
    if (op == WIRE_T_BOOL_ARRAY)
      for (uint32_t i = 0; i < len; i++)
        if (b[i] > 1)
          return bfail(r, WIRE_E_ARG, at, "bool array bytes must be 0 or 1");
    return (ri = new_rec(r, at, op)) != NONE32 && number(r, ri, at);
  }
  return rfail(r, WIRE_E_ARG, at); /* not an op of the tape format */
}

/* Reads one value (and its children) into records. */
static bool value(rd *r, unsigned depth) {
  const uint8_t *at = r->p;
  if (WIRE_UNLIKELY(depth > r->ctx->max_depth))
    return rfail(r, WIRE_E_DEPTH, at);
  uint8_t op = g8(r);
  if (r->status) return false;
  uint32_t ri;
  switch (op) {
  case TAPE_REF: return ref_op(r, at);
  case TAPE_NULL: return new_rec(r, at, WIRE_T_NULL) != NONE32;
  case WIRE_T_NONE: return new_rec(r, at, WIRE_T_NONE) != NONE32;
  case WIRE_T_BOOL:
    g8(r);
    return !r->status && new_rec(r, at, WIRE_T_BOOL) != NONE32;
  case WIRE_T_STRING:
    if ((ri = new_rec(r, at, WIRE_T_STRING)) == NONE32) return false;
    return string(r, ri, at);
  case WIRE_T_LIST: case WIRE_T_SET: case WIRE_T_MAP:
    return collection_op(r, op, depth, at);
  case TAPE_PACKED: return packed_op(r, at);
  case TAPE_L1_LIST: return l1_list_op(r, at);
  case WIRE_T_DATE:
    g64(r);
    return !r->status && new_rec(r, at, op) != NONE32;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION: return time_op(r, op, at);
  case WIRE_T_DECIMAL: return decimal_op(r, at);
  case WIRE_T_ENUM: case TAPE_ENUM_ID: return enum_op(r, op, at);
  case WIRE_T_NAMED_ENUM: return named_enum_op(r, at);
  case WIRE_T_STRUCT: case TAPE_STRUCT_TD: return struct_op(r, op, depth, at);
  case TAPE_STRUCT_IDX: return struct_idx_op(r, depth, at);
  case WIRE_T_UNION: return union_op(r, depth, at);
  default: return scalar_op(r, op, at);
  }
}

/* ---- the index ---------------------------------------------------------- */

static const char *tape_error(int32_t st) {
  switch (st) {
  case WIRE_E_TRUNCATED: return "the tape ends inside a value";
  case WIRE_E_REF: return "REF to a value not defined (yet)";
  case WIRE_E_TRAILING: return "bytes after the last root of the tape";
  case WIRE_E_DEPTH: return "tape values nested deeper than the depth limit";
  case WIRE_E_LIMIT: return "a tape count exceeds the collection limit";
  case WIRE_E_ARG: return "not a tape op (or an invalid operand)";
  default: return wire_status_message(st);
  }
}

/* Pass 1 over the whole tape; *roots gets the root count. */
int32_t wire__tape_index(wire_ctx *ctx, scratch *s, const uint8_t *tape,
                         size_t len, uint32_t *roots) {
  s->nrecs = s->nrefs = s->nsts = s->nfld = s->nnames = s->ntds = 0;
  s->nstrs = 0;
  wire__arena_free(&s->arena);
  if (!tape || len < 8 || tape[0] != 'W' || tape[1] != 'T' || tape[2] < 1 ||
      tape[2] > TAPE_VERSION)
    return wire__fail(ctx, WIRE_E_ARG, 0, "not a tape (version 1 or 2)");
  if (len > UINT32_MAX)
    return wire__fail(ctx, WIRE_E_LIMIT, 0, "tape longer than 4 GiB");
  rd r = {ctx, s, tape, tape + 8, tape + len, 0, 0, false};
  memcpy(roots, tape + 4, 4);
  /* Records are at least one tape byte each: reserve for the common case. */
  size_t guess = len / 8 + 16;
  if (!grow_arr(ctx, (void **)&s->recs, &s->recs_cap, guess, sizeof *s->recs))
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  for (uint32_t i = 0; i < *roots && !r.status; i++) value(&r, 0);
  if (!r.status && r.p != r.end) rfail(&r, WIRE_E_TRAILING, r.p);
  if (!r.status) return WIRE_OK;
  if (r.builder_msg && ctx->err_code == r.status) {
    ctx->err_offset = r.err_at;
    return r.status;
  }
  return wire__fail(ctx, r.status, r.err_at, "%s", tape_error(r.status));
}
