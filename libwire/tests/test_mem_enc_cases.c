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

#define N WIRE_MEM_NONE
#define O(t, f) (uint32_t) offsetof(t, f)
#define TSTR (WIRE_MEM_STR | WIRE_MEM_STR_TAGGED)

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
  wire_ctx *c = wire_ctx_new();
  wire_ctx_set_option(c, WIRE_OPT_REF_TRACKING, 1);
  wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, 1);
  wire_ctx_set_option(c, WIRE_OPT_TRUSTED_TEXT, trusted);
  cr_assert_eq(wire_schema_load_fdl(c, fdl, strlen(fdl), "c.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_schema_finish(c), WIRE_OK);
  uint32_t t;
  cr_assert_eq(wire_schema_find_type(c, "c.Rec", 5, &t), WIRE_OK);
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
  cr_assert_eq(wire_mem_layout_table(c, &rows[0][0], sizeof rows / sizeof rows[0],
                                     l),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  return c;
}

static uint8_t text[400];
static jstr tagv[8]; /* (tags: from tagv[i % 5], i % 4 of them) */
static const uint8_t mag[16] = {0x39, 0x30, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

/* Encodes v in c: the bytes (copied to out, *n of them) are the document
 * codec's too. */
static void enc_ok(wire_ctx *c, uint32_t l, const rec *v, uint8_t *out,
                   size_t *n) {
  const uint8_t *p;
  cr_assert_eq(wire_mem_encode(c, l, v, &p, n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_leq(*n, 1 << 16);
  memcpy(out, p, *n);
  wire_doc *d;
  cr_assert_eq(wire_decode(c, out, *n, &d), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  uint8_t *again;
  size_t alen;
  cr_assert_eq(wire_encode(c, d, &again, &alen), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert(alen == *n && !memcmp(again, out, alen),
            "the document codec writes the same bytes (%zu / %zu)", alen, *n);
  wire_ctx_free_bytes(c, again);
  wire_doc_free(d);
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
