/* test_mem_enc_cases.c - the layout encoder's struct loop cases of its own
 * (mop.ex, mem_enc_loop.h): a nullable tagged string with its flag (null,
 * every length of a one- and two-byte header, each encoding, a header the
 * general path refuses), decimals (small and past the small form),
 * timestamps (and nanoseconds out of range), struct pointers (null,
 * shared, deeper than the loop nests), lists of tagged strings (nullable
 * items and not; a header or a NULL the general path refuses), each
 * under trusted text (the cases inline) and checked text (the tagged
 * strings the general way). The
 * bytes are checked against the document codec's and between the two
 * contexts; a refused value's error has the general path's code and an
 * offset at the field's place in the bytes of the same value made valid. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"
#include "mem_damage.h"

static const char fdl[] =
    "package c;\n"
    "message Rec [id=410] {\n"
    "  optional string note = 1; decimal d = 2; timestamp t = 3;\n"
    "  ref Rec next = 4; string s = 5; list<optional string> tags = 6;\n"
    "  list<string> names = 7;\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t h, pad; } jstr; /* tagged */
typedef struct rec {
  jstr note;
  wire_mem_decimal d;
  wire_mem_time t;
  const struct rec *next;
  jstr s;
  const jstr *tags;
  uint32_t ntags, pad;
  const jstr *names; /* (items not nullable) */
  uint32_t nnames, pad2;
} rec;

static wire_ctx *make(int trusted, uint32_t *l) {
  wire_ctx *c = mem_ctx(fdl, "c.fdl",
                        MEM_OPTS(WIRE_OPT_REF_TRACKING, 1,
                                 WIRE_OPT_COMPATIBLE, 1,
                                 WIRE_OPT_TRUSTED_TEXT, trusted));
  uint32_t t = mem_ctx_type(c, "c.Rec");
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, t, sizeof(rec), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, O(rec, note), O(rec, note.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_DECIMAL, O(rec, d), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_TIMESTAMP, O(rec, t), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_STRUCT_PTR, O(rec, next), N, N, 0, 0},
      {WIRE_MEM_ROW_FIELD, 4, TSTR, O(rec, s), O(rec, s.h), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 5, WIRE_MEM_LIST, O(rec, tags), O(rec, ntags), N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 6, WIRE_MEM_LIST, O(rec, names), O(rec, nnames), N, 1, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(jstr), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, 0, 8, N, N, 0},
  };
  *l = MEM_CTX_TABLE(c, rows);
  return c;
}

static uint8_t text[400];
static jstr tagv[8]; /* (tags: from tagv[i % 5], i % 4 of them) */
static const uint8_t mag[16] = {0x39, 0x30, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

/* Encodes v in c: the bytes (copied to out, *n of them) are the document
 * codec's too. */
static void enc_ok(wire_ctx *c, uint32_t l, const void *v, uint8_t *out,
                   size_t *n) {
  *n = mem_damage_encode_doc(c, l, v, out, 1 << 16);
}

/* A chain of n records from r[0], each with a note of its own (the
 * notes' lengths from len0 on, encoding enc, every third null). */
static void chain(rec *r, int n, uint32_t len0, uint32_t enc) {
  for (int i = 0; i < n; i++) {
    uint32_t len = (len0 + (uint32_t)i * 5) % 300;
    if (enc == 1) len &= ~1u; /* (UTF-16: whole units) */
    r[i] = (rec){{text, len << 2 | enc, 0},
                 {mag, (uint32_t)(i % 13), i % 7, (uint32_t)(i & 1), 0},
                 {1700000000 + i, (uint32_t)i * 1000, 0},
                 i + 1 < n ? &r[i + 1] : NULL,
                 {text + i, (uint32_t)(i % 90) << 2, 0},
                 tagv + i % 5, (uint32_t)(i % 4), 0,
                 tagv + i % 3, (uint32_t)(i % 6), 0};
    if (i % 3 == 2) r[i].note = (jstr){NULL, 0, 0};
  }
}

static void tags_of(void) {
  for (int i = 0; i < 8; i++)
    tagv[i] = (jstr){text + 3 * i, (uint32_t)(i * 37 % 150) << 2, 0};
}

Test(mem_enc_cases, notes_decimals_timestamps_and_pointers) {
  for (int i = 0; i < (int)sizeof text; i++)
    text[i] = (uint8_t)('A' + i % 26); /* ASCII: valid in every encoding */
  tags_of();
  uint32_t lt, lc;
  wire_ctx *ct = make(1, &lt), *cc = make(0, &lc);
  static rec r[40];
  static uint8_t bt[1 << 16], bc[1 << 16];
  for (uint32_t enc = 0; enc < 3; enc++) {
    for (uint32_t len0 = 0; len0 < 40; len0++) {
      int n = 1 + (int)(len0 % 4) * 12; /* up to 37 deep: past the loop's 16 */
      chain(r, n, len0 * 7, enc);
      if (len0 % 5 == 1 && n > 3) r[n - 1].next = &r[1]; /* shared: a reference */
      size_t nt, nc;
      enc_ok(ct, lt, &r[0], bt, &nt);
      enc_ok(cc, lc, &r[0], bc, &nc);
      cr_assert(nt == nc && !memcmp(bt, bc, nt),
                "trusted and checked text: the same bytes (enc %u len0 %u)",
                enc, len0);
    }
  }
  wire_ctx_free(ct);
  wire_ctx_free(cc);
}

/* The error of encoding v in c: its code and offset. */
static int32_t enc_err(wire_ctx *c, uint32_t l, const rec *v, uint64_t *off) {
  const uint8_t *p;
  size_t n;
  int32_t st = wire_mem_encode(c, l, v, &p, &n);
  *off = wire_ctx_error_offset(c);
  return st;
}

Test(mem_enc_cases, refused_values_where_the_general_path_refuses_them) {
  for (int i = 0; i < (int)sizeof text; i++) text[i] = (uint8_t)('a' + i % 26);
  tags_of();
  for (int trusted = 0; trusted < 2; trusted++) {
    uint32_t l;
    wire_ctx *c = make(trusted, &l);
    static rec r[4];
    static uint8_t good[1 << 16];
    size_t n;
    for (int depth = 1; depth <= 3; depth++) {
      chain(r, depth, 9, 0);
      rec *last = &r[depth - 1];
      /* nanoseconds out of range: refused where the timestamp goes */
      enc_ok(c, l, &r[0], good, &n);
      uint8_t ts[12];
      memcpy(ts, &last->t.seconds, 8);
      memcpy(ts + 8, &last->t.nanos, 4);
      last->t.nanos = 1000000000u;
      uint64_t off;
      cr_assert_eq(enc_err(c, l, &r[0], &off), WIRE_E_ENCODE);
      cr_assert_lt(off + 12, n + 1);
      cr_assert(!memcmp(good + off, ts, 12), "the timestamp's place (%llu)",
                (unsigned long long)off);
      last->t.nanos = 5;
      /* a note of the reserved encoding 3: refused after its flag, where
       * its header goes */
      last->note = (jstr){text, 9u << 2 | 0, 0};
      enc_ok(c, l, &r[0], good, &n);
      last->note.h = 9u << 2 | 3;
      cr_assert_eq(enc_err(c, l, &r[0], &off), WIRE_E_ENCODE);
      cr_assert(off >= 1 && off < n && good[off - 1] == 0xFF &&
                    good[off] == (9u << 2) && !memcmp(good + off + 1, text, 9),
                "the note's header's place (%llu)", (unsigned long long)off);
      /* invalid UTF-8 in the note and in s: refused where text is
       * checked, written as given where it is trusted */
      static const uint8_t bad[3] = {'a', 0xFF, 'b'};
      last->note.h = 9u << 2;
      for (int k = 0; k < 2; k++) {
        jstr *js = k ? &last->s : &last->note, keep = *js;
        *js = (jstr){bad, 3u << 2 | 2, 0};
        if (trusted) {
          const uint8_t *p;
          cr_assert_eq(wire_mem_encode(c, l, &r[0], &p, &n), WIRE_OK);
          int found = 0; /* (the header 3 << 2 | 2, then the bytes) */
          for (size_t i = 0; i + 4 <= n && !found; i++)
            found = !memcmp(p + i, "\x0e" "a\xff" "b", 4);
          cr_assert(found);
        } else {
          int32_t st = enc_err(c, l, &r[0], &off);
          cr_assert_eq(st, WIRE_E_STRING, "%d %s", st, wire_ctx_error_message(c));
        }
        *js = keep;
      }
      /* a list's tagged string of the reserved encoding 3, or (items not
       * nullable) NULL with a length: refused where its header goes */
      for (int k = 0; k < 2; k++) {
        static jstr tl[3];
        tl[0] = tagv[1];
        tl[1] = (jstr){text + 40, 7u << 2, 0};
        tl[2] = tagv[2];
        const jstr **lp = k ? &last->names : &last->tags, *keep = *lp;
        uint32_t *np = k ? &last->nnames : &last->ntags, nkeep = *np;
        *lp = tl;
        *np = 3;
        enc_ok(c, l, &r[0], good, &n);
        if (k) tl[1].p = NULL;
        else tl[1].h |= 3;
        int32_t st = enc_err(c, l, &r[0], &off);
        cr_assert_eq(st, WIRE_E_ENCODE, "%d %s", st, wire_ctx_error_message(c));
        cr_assert(off < n && good[off] == (7u << 2) &&
                      !memcmp(good + off + 1, text + 40, 7),
                  "the tag's header's place (%llu)", (unsigned long long)off);
        *lp = keep;
        *np = nkeep;
      }
      /* a decimal past the small form: the general writer's bytes */
      last->d = (wire_mem_decimal){mag, 12, 3, 1, 0};
      enc_ok(c, l, &r[0], good, &n);
      last->d = (wire_mem_decimal){NULL, 2, 0, 0, 0};
      cr_assert_eq(enc_err(c, l, &r[0], &off), WIRE_E_ENCODE);
    }
    wire_ctx_free(c);
  }
}

/* ---- UTF-8 strings (a 32-bit length), flat structs, lists of numbers --
 * a nullable UTF-8 string with its flag (MX_STRF), UTF-8 strings of lists
 * and maps without flags (put_ustr), short text checked by overlapping
 * loads (etext_ok), a struct of numbers alone (fields_flat) in both
 * modes, lists of fixed-width numbers and of bools written as a block:
 * the bytes are the document codec's, the values decode back, and text
 * that is not UTF-8 is refused where it is checked. */

static const char fdl2[] =
    "package u;\n"
    "message S [id=420] {\n"
    "  optional string note = 1; string s = 2; list<string> names = 3;\n"
    "  map<string, string> attrs = 4; int32 n = 5;\n"
    "}\n"
    "message F [id=421] {\n"
    "  int32 a = 1; int64 b = 2; bool c = 3; float32 d = 4; float64 e = 5;\n"
    "  int32 w = 6;\n"
    "}\n"
    "message L [id=422] {\n"
    "  list<float32> f = 1; list<float64> d = 2; list<bool> b = 3;\n"
    "  list<int8> i8 = 4; list<fixed int32> x = 5; list<fixed int64> y = 6;\n"
    "  list<uint8> u8 = 7; list<int16> i16 = 8;\n"
    "}\n";

typedef struct { const uint8_t *p; uint32_t n, pad; } ustr;
typedef struct { ustr k, v; } ukv;
typedef struct {
  ustr note, s;
  const ustr *names;
  uint32_t nnames, pad;
  const ukv *attrs;
  uint32_t nattrs;
  int32_t n;
} srec;
typedef struct {
  int32_t a;
  int64_t b;
  uint8_t c;
  float d;
  double e;
  int32_t w;
} frec;
#define NLS 8
typedef struct { const void *p; uint32_t n, pad; } lseq;
typedef struct { lseq l[NLS]; } lrec;
static const size_t lw[NLS] = {4, 8, 1, 1, 4, 8, 1, 2};

/* c's layouts of S, F and L (*ls, *lf, *ll); policy: the string policy
 * (-1: the default) */
static wire_ctx *make2(int trusted, int compatible, int policy, uint32_t *ls,
                       uint32_t *lf, uint32_t *ll) {
  wire_ctx *c = mem_ctx(
      fdl2, "u.fdl",
      MEM_OPTS(WIRE_OPT_COMPATIBLE, compatible, WIRE_OPT_TRUSTED_TEXT, trusted,
               policy >= 0 ? WIRE_OPT_STRING_POLICY : MEM_OPT_NONE, policy));
  uint32_t ts = mem_ctx_type(c, "u.S");
  uint32_t tf = mem_ctx_type(c, "u.F");
  uint32_t tl = mem_ctx_type(c, "u.L");
  /* layouts: 0 S, 1 string items, 2 entries, 3 F, 4 L */
  uint32_t rows[32][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, ts, sizeof(srec), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(srec, note), O(srec, note.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(srec, s), O(srec, s.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_LIST, O(srec, names), O(srec, nnames), N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_MAP, O(srec, attrs), O(srec, nattrs), N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_I32, O(srec, n), N, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(ustr), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, 0, 8, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(ukv), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR, O(ukv, k), O(ukv, k.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STR, O(ukv, v), O(ukv, v.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, tf, sizeof(frec), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(frec, a), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_I64, O(frec, b), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_BOOL, O(frec, c), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_F32, O(frec, d), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_F64, O(frec, e), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 5, WIRE_MEM_I32, O(frec, w), N, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, tl, sizeof(lrec), 0, 0, 0, 0, 0},
  };
  uint32_t nr = 19;
  for (uint32_t k = 0; k < NLS; k++, nr++) {
    const uint32_t r[WIRE_MEM_ROW] = {WIRE_MEM_ROW_FIELD, k, WIRE_MEM_ARRAY,
                                      (uint32_t)(16 * k), (uint32_t)(16 * k + 8),
                                      N, N, 0};
    memcpy(rows[nr], r, sizeof r);
  }
  uint32_t first = mem_ctx_table(c, &rows[0][0], nr);
  *ls = first;
  *lf = first + 3;
  *ll = first + 4;
  return c;
}

static uint8_t utext[400];
static ustr unames[8];
static ukv uattrs[8];

/* S of strings from utext: note (null when len0 % 3 == 2), s, k names
 * and k entries of lengths from len0 on */
static void srec_of(srec *r, uint32_t len0, uint32_t k) {
  for (uint32_t i = 0; i < 8; i++) {
    unames[i] = (ustr){utext + i, (len0 + i * 3) % 140, 0};
    uattrs[i] = (ukv){{utext + 2 * i, (len0 + i) % 11, 0},
                      {utext + 5 * i, (len0 * 3 + i) % 90, 0}};
  }
  *r = (srec){{utext + 1, len0 % 300, 0}, {utext + 7, (len0 * 7) % 190, 0},
              unames, k, 0, uattrs, k, (int32_t)len0};
  if (len0 % 3 == 2) r->note = (ustr){NULL, 5, 0}; /* (null: its length unread) */
}

Test(mem_enc_cases, utf8_strings_of_fields_lists_and_maps) {
  /* ASCII, then two-byte UTF-8 sequences (é) from 200 on */
  for (int i = 0; i < 200; i++) utext[i] = (uint8_t)('A' + i % 26);
  for (int i = 200; i < 400; i += 2) utext[i] = 0xC3, utext[i + 1] = 0xA9;
  static uint8_t bt[1 << 16], bc[1 << 16];
  for (int policy = -1; policy <= WIRE_STRING_JAVA; policy += 1 + WIRE_STRING_JAVA) {
    uint32_t lt, lc, f, l;
    wire_ctx *ct = make2(1, 1, policy, &lt, &f, &l);
    wire_ctx *cc = make2(0, 1, policy, &lc, &f, &l);
    for (uint32_t len0 = 0; len0 < 60; len0++) {
      for (uint32_t base = 0; base < 2; base++) { /* ASCII, then not */
        srec r;
        srec_of(&r, len0, len0 % 9);
        if (base) { /* (whole two-byte sequences) */
          r.s.p = utext + 200, r.s.n &= ~1u;
          if (r.note.p) r.note.p = utext + 200, r.note.n &= ~1u;
          uattrs[0].v.p = utext + 200, uattrs[0].v.n &= ~1u;
          unames[0].p = utext + 200, unames[0].n &= ~1u;
        }
        size_t nt, nc;
        enc_ok(ct, lt, &r, bt, &nt);
        enc_ok(cc, lc, &r, bc, &nc);
        /* the Java policy: é in Latin-1, whatever holds it */
        if (base && policy == WIRE_STRING_JAVA)
          cr_assert(!memchr(bt, 0xC3, nt), "Latin-1 (len0 %u)", len0);
        cr_assert(nt == nc && !memcmp(bt, bc, nt),
                  "trusted and checked text: the same bytes (len0 %u)", len0);
      }
    }
    wire_ctx_free(ct);
    wire_ctx_free(cc);
  }
}

/* The offset of the error of encoding v in c (and its status, st). */
static uint64_t err_at(wire_ctx *c, uint32_t l, const void *v, int32_t st) {
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, l, v, &p, &n), st, "%s",
               wire_ctx_error_message(c));
  return wire_ctx_error_offset(c);
}

Test(mem_enc_cases, text_that_is_not_utf8_is_refused_where_checked) {
  for (int i = 0; i < 200; i++) utext[i] = (uint8_t)('a' + i % 26);
  static uint8_t good[1 << 16];
  for (int trusted = 0; trusted < 2; trusted++) {
    uint32_t ls, lf, ll;
    wire_ctx *c = make2(trusted, 1, -1, &ls, &lf, &ll);
    /* where: the note, s, a name, a key, a value; a string of len bytes,
     * one of them (at) not UTF-8 (lengths past 16 and 32: the words of
     * the encoder's ASCII test or'ed together, two rounds of them) */
    for (int where = 0; where < 5; where++) {
      for (uint32_t len = 1; len <= 70; len++) {
        for (uint32_t at = 0; at < len; at++) {
          srec r;
          srec_of(&r, 3, 4);
          r.note = (ustr){utext + 1, 3, 0};
          static uint8_t bad[72];
          memset(bad, 'Q', sizeof bad);
          ustr *u = where == 0   ? &r.note
                    : where == 1 ? &r.s
                    : where == 2 ? &unames[2]
                    : where == 3 ? &uattrs[1].k
                                 : &uattrs[2].v;
          *u = (ustr){bad, len, 0};
          size_t n;
          enc_ok(c, ls, &r, good, &n);
          /* (the good bytes: the string's header, one or two bytes, and
           * its Qs) */
          const uint32_t hv = len << 2 | WIRE_STR_UTF8;
          const uint8_t hb[2] = {(uint8_t)(hv < 0x80 ? hv : (hv | 0x80)),
                                 (uint8_t)(hv >> 7)};
          const size_t hn = hv < 0x80 ? 1 : 2;
          size_t h = 0;
          while (h + hn + len <= n && (memcmp(good + h, hb, hn) ||
                                       memcmp(good + h + hn, bad, len)))
            h++;
          cr_assert(h + hn + len <= n);
          bad[at] = 0xFF;
          if (trusted) {
            const uint8_t *p;
            cr_assert_eq(wire_mem_encode(c, ls, &r, &p, &n), WIRE_OK);
            cr_assert(!memcmp(p + h + hn, bad, len), "as given (%d %u %u)",
                      where, len, at);
          } else {
            uint64_t off = err_at(c, ls, &r, WIRE_E_STRING);
            cr_assert_eq(off, h, "where the header goes (%d %u %u): %llu",
                         where, len, at, (unsigned long long)off);
          }
          bad[at] = 'Q';
        }
      }
    }
    /* a string NULL with a length: refused where its header goes (a
     * name, a value) */
    for (int where = 0; where < 2; where++) {
      srec r;
      srec_of(&r, 3, 4);
      ustr *u = where ? &uattrs[1].v : &unames[1];
      u->n = 7;
      u->p = (const uint8_t *)"RRRRRRR";
      size_t n;
      enc_ok(c, ls, &r, good, &n);
      size_t h = 0;
      while (h + 8 <= n && memcmp(good + h, "\x1eRRRRRRR", 8)) h++;
      cr_assert(h + 8 <= n);
      u->p = NULL;
      cr_assert_eq(err_at(c, ls, &r, WIRE_E_ENCODE), h);
    }
    wire_ctx_free(c);
  }
}

Test(mem_enc_cases, flat_structs_and_lists_of_numbers) {
  static uint8_t out[1 << 16], arena[1 << 16];
  static uint8_t vals[NLS][1024];
  for (int compatible = 0; compatible < 2; compatible++) {
    uint32_t ls, lf, ll;
    wire_ctx *c = make2(0, compatible, -1, &ls, &lf, &ll);
    for (uint32_t k = 0; k < 40; k++) {
      /* F: every varint length, a bool byte other than 0 and 1 */
      int64_t big = (int64_t)((UINT64_C(1) << (k % 64)) * 0x9E37u);
      frec fv = {(int32_t)big, (k & 1) ? -big : big, (uint8_t)(k % 4),
                 (float)k / 3.0f, (double)big / 7.0, -(int32_t)k};
      size_t n, used = 0;
      enc_ok(c, lf, &fv, out, &n);
      frec fo;
      memset(&fo, 0, sizeof fo);
      cr_assert_eq(wire_mem_decode(c, lf, out, n, &fo, arena, sizeof arena,
                                   &used, WIRE_MEM_COPY),
                   WIRE_OK, "%s", wire_ctx_error_message(c));
      cr_assert(fo.a == fv.a && fo.b == fv.b && fo.c == (fv.c != 0) &&
                fo.d == fv.d && fo.e == fv.e && fo.w == fv.w);
      /* L: k elements each (bools of every byte value) */
      lrec lv;
      for (int l = 0; l < NLS; l++) {
        for (uint32_t i = 0; i < k * lw[l]; i++)
          vals[l][i] = (uint8_t)(i * 37 + k * 11 + (uint32_t)l);
        if (l < 2) /* (floats: no NaN, whose bits may change) */
          for (uint32_t i = 0; i < k; i++) {
            if (l == 0) { float x = (float)(i * 3 + k) / 7.0f; memcpy(vals[l] + 4 * i, &x, 4); }
            else { double x = (double)(i * 5 + k) / 9.0; memcpy(vals[l] + 8 * i, &x, 8); }
          }
        lv.l[l] = (lseq){vals[l], k, 0};
      }
      enc_ok(c, ll, &lv, out, &n);
      lrec lo;
      memset(&lo, 0, sizeof lo);
      used = 0;
      cr_assert_eq(wire_mem_decode(c, ll, out, n, &lo, arena, sizeof arena,
                                   &used, WIRE_MEM_COPY),
                   WIRE_OK, "%s", wire_ctx_error_message(c));
      for (int l = 0; l < NLS; l++) {
        cr_assert_eq(lo.l[l].n, k);
        const uint8_t *got = lo.l[l].p;
        for (uint32_t i = 0; i < k * lw[l]; i++)
          cr_assert_eq(got[i], l == 2 ? (vals[l][i] != 0) : vals[l][i],
                       "list %d byte %u of %u", l, i, k);
      }
    }
    wire_ctx_free(c);
  }
}
