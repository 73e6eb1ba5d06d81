/* test_node_limit.c - WIRE_LIMIT_NODES counts the same in every decoder
 * (spec R-LIMIT-1): every value read counts one node, each null too
 * (although a document's nulls share one node), a reference none, and the
 * element type an all-null list of a user type keeps two.
 *
 *  - payloads whose count is stated by hand: nulls in lists (each read
 *    path of the tape decoder: the long way, the fast slot readers, string
 *    runs), in map chunks and struct fields, null roots (one with an
 *    out-of-band header), references, zero-width elements, packed numbers
 *    and an all-null list of a struct type. At every limit from 1 to one
 *    past the count, wire_decode, wire_dump, wire_decode_tape and
 *    wire_decode_tape_to (several flag sets) give the same status and
 *    offset: WIRE_E_LIMIT below the count, success from it on;
 *  - wire_mem_decode: the writer's fields a reader lacks are skipped
 *    through the document decoder and count the same way (the values read
 *    into memory are bounded by WIRE_LIMIT_MEM_DECODE instead), so the
 *    skip fails where wire_decode fails, at the same offset, at a limit
 *    smaller by the nodes of the values it reads into memory. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "mem_ctx.h"
#include "test_hex.h"

typedef struct {
  int32_t st;
  uint64_t off;
} outcome;

static outcome outcome_of(wire_ctx *ctx, int32_t st) {
  outcome o = {st, st ? wire_ctx_error_offset(ctx) : 0};
  return o;
}

static void no_line(void *user, uint64_t off, uint64_t len, uint32_t depth,
                    const char *text) {
  (void)user, (void)off, (void)len, (void)depth, (void)text;
}

enum { NDEC = 7 };
static const char *const dec_names[NDEC] = {
    "wire_decode", "wire_dump", "wire_decode_tape", "tape_to 0",
    "tape_to FIELD_INDEX", "tape_to STRING_SPANS|ENTRY_RUNS",
    "tape_to all flags"};
static const uint32_t tape_flags[] = {
    0, WIRE_TAPE_FIELD_INDEX, WIRE_TAPE_STRING_SPANS | WIRE_TAPE_ENTRY_RUNS,
    WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS | WIRE_TAPE_STRING_SPANS |
        WIRE_TAPE_ENTRY_RUNS};

/* Payload p[0..n) through decoder k. */
static outcome run_decoder(wire_ctx *ctx, wire_writer *w, int k,
                           const uint8_t *p, size_t n) {
  switch (k) {
  case 0: {
    wire_doc *doc = NULL;
    outcome o = outcome_of(ctx, wire_decode(ctx, p, n, &doc));
    wire_doc_free(doc);
    return o;
  }
  case 1:
    return outcome_of(ctx, wire_dump(ctx, p, n, no_line, NULL));
  case 2: {
    uint8_t *t = NULL;
    size_t tn;
    outcome o = outcome_of(ctx, wire_decode_tape(ctx, p, n, &t, &tn));
    if (!o.st) wire_ctx_free_bytes(ctx, t);
    return o;
  }
  default:
    wire_writer_reset(w);
    return outcome_of(ctx, wire_decode_tape_to(ctx, p, n, tape_flags[k - 3], w));
  }
}

/* Payloads and the nodes they count. Same-schema mode unless `compat`;
 * `fdl`: the schema loaded. */
static const char holder_fdl[] =
    "package h;\n"
    "option wire_fields_by_name = true;\n"
    "enum Color [id = 103] { RED = 0; GREEN = 1; }\n"
    "message Leaf [id = 101] { int32 x = 1; }\n"
    "message Holder [id = 102] { list<optional Color> colors = 1;\n"
    "  list<optional Leaf> leaves = 2; }\n";
static const char p_fdl[] =
    "package s;\n"
    "message P [id=600] { optional string a = 1; optional int32 b = 2;\n"
    "  list<optional string> c = 3; map<string, optional int32> m = 4; }\n";

static const struct {
  const char *what, *hex, *fdl;
  int compat, ref;
  uint64_t nodes;
} cases[] = {
    /* the payload of the report: a list of three nulls (same type NONE,
     * has-null): the list and each null */
    {"list of 3 nulls", "01ff16030a24fdfdfd", NULL, 0, 0, 4},
    {"two lists of nulls", "01ff16030a24fdfdfd01ff16020a24fdfd", NULL, 0, 0, 7},
    /* elements with their own type meta (the fast slot readers) */
    {"nulls among varints", "01ff160402fdff0502fdff150478", NULL, 0, 0, 5},
    {"nulls among strings", "01ff16040a15fdff0461fdff086263", NULL, 0, 0, 5},
    {"null between numbers", "01ff16030a05ff02fdff06", NULL, 0, 0, 4},
    /* null roots: one each, the shared node or not */
    {"null root", "01fd", NULL, 0, 0, 1},
    {"three null roots", "01fd01fd01fd", NULL, 0, 0, 3},
    {"null root, out-of-band header", "03fd", NULL, 0, 0, 1},
    {"out-of-band null root after a null", "01fd03fd", NULL, 0, 0, 2},
    /* map chunks with a null key, a null value */
    {"map with null key and value", "01ff18030aff050211ff15046100011505046204",
     NULL, 0, 0, 7},
    /* references count none (a shared string or list) */
    {"reference to a string", "01ff16020100150461fe00", NULL, 0, 1, 2},
    {"reference to a list", "01ff160201001601080702fe00", NULL, 0, 1, 3},
    /* zero-width elements and packed numbers: one each */
    {"NONE elements without flags", "01ff16030824", NULL, 0, 0, 4},
    {"packed varints", "01ff16030807020406", NULL, 0, 0, 4},
    /* null fields, a list and a map with nulls (struct P: b, a null;
     * c ["x", null, null]; m {"k": null, "j": 5}) */
    {"struct with null fields", "01ff1bd8040262f485fdfd030eff0478fdfd0214046b"
     "2401046a0a", p_fdl, 0, 0, 12},
    /* Holder(colors=[None], leaves=[None, None]) as pyfory 1.7.7 writes it
     * (test_null_lists.c): Holder, two lists, three nulls, and the two
     * nodes leaves keeps its element type in (colors' is declared) */
    {"all-null list of an enum (Color, by id)", "01ff16020a1967fdfd",
     holder_fdl, 0, 0, 5},
    {"all-null lists of an enum and a struct",
     "01ff1c00108096c08603ec17c2664c166609cb74644c16722c80a924010efd020a1c02"
     "05b041dfe88ea318c16540055cfdfd", holder_fdl, 1, 0, 8},
};

/* Every decoder at node limits 1 .. count + 1: WIRE_E_LIMIT below the
 * count, success from it on, the same outcome everywhere. */
Test(node_limit, every_decoder_counts_the_same) {
  int bad = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    wire_ctx *ctx = wire_ctx_new();
    cr_assert_not_null(ctx);
    wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, cases[i].compat);
    wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, cases[i].ref);
    if (cases[i].fdl)
      cr_assert_eq(wire_schema_load_fdl(ctx, cases[i].fdl,
                                        strlen(cases[i].fdl), "t.fdl"),
                   WIRE_OK, "%s", wire_ctx_error_message(ctx));
    wire_writer *w = wire_writer_new(ctx, NULL, 0);
    size_t n;
    uint8_t *p = unhex(cases[i].hex, &n);
    for (uint64_t lim = 1; lim <= cases[i].nodes + 1; lim++) {
      wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, (int64_t)lim);
      outcome first = run_decoder(ctx, w, 0, p, n);
      int32_t want = lim < cases[i].nodes ? WIRE_E_LIMIT : WIRE_OK;
      if (first.st != want) {
        cr_log_error("%s at limit %llu: wire_decode gives %d (%s), not %d",
                     cases[i].what, (unsigned long long)lim, first.st,
                     first.st ? wire_ctx_error_message(ctx) : "",
                     want);
        bad++;
      }
      for (int k = 1; k < NDEC; k++) {
        outcome o = run_decoder(ctx, w, k, p, n);
        if (o.st != first.st || o.off != first.off) {
          cr_log_error("%s at limit %llu: %s gives %d at %llu, wire_decode "
                       "%d at %llu", cases[i].what, (unsigned long long)lim,
                       dec_names[k], o.st, (unsigned long long)o.off,
                       first.st, (unsigned long long)first.off);
          bad++;
        }
      }
    }
    free(p);
    wire_writer_free(w);
    wire_ctx_free(ctx);
  }
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
}

/* The writer's R has fields the reader's lacks: a list of three nulls and
 * a null string. wire_encode --plain --compatible of {"v": 7, "extra":
 * [null, null, null], "note": null} with
 *   message R [id=501] { int32 v = 1; list<optional int32> extra = 2;
 *                        optional string note = 3; }
 * The document counts R, v, the list, its three nulls and note: 7; the
 * compiled decoder of a reader with v only skips the list, its nulls and
 * note: 5, failing at the same offset as wire_decode at a limit 2 smaller
 * (R and v are read into memory). */
static const char skip_payload[] =
    "01ff1c000a60f7d2d0f57147c3f503c405c81616ce150e030efdfdfdfd";
static const char skip_reader_fdl[] =
    "package s;\n"
    "message R [id=501] { int32 v = 1; }\n";

Test(node_limit, compiled_decoder_counts_skipped_values_the_same) {
  wire_ctx *ctx = mem_ctx(skip_reader_fdl, "r.fdl",
                          MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, mem_ctx_type(ctx, "s.R"), sizeof(int32_t), 0, 0,
       0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, 0, WIRE_MEM_NONE, WIRE_MEM_NONE,
       WIRE_MEM_NONE, 0},
  };
  uint32_t lr = MEM_CTX_TABLE(ctx, rows);
  size_t n;
  uint8_t *p = unhex(skip_payload, &n);
  enum { DOC = 7, SKIPPED = 5 };
  int bad = 0;
  for (uint64_t lim = 1; lim <= SKIPPED + 1; lim++) {
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, (int64_t)lim);
    uint8_t arena[256];
    size_t used = 0;
    int32_t v = 0;
    outcome m = outcome_of(ctx, wire_mem_decode(ctx, lr, p, n, &v, arena,
                                                sizeof arena, &used, 0));
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, (int64_t)(lim + DOC - SKIPPED));
    wire_doc *doc = NULL;
    outcome d = outcome_of(ctx, wire_decode(ctx, p, n, &doc));
    wire_doc_free(doc);
    int32_t want = lim < SKIPPED ? WIRE_E_LIMIT : WIRE_OK;
    if (m.st != want || m.st != d.st || m.off != d.off || (!m.st && v != 7)) {
      cr_log_error("limit %llu: wire_mem_decode %d at %llu (v %d), "
                   "wire_decode at limit %llu %d at %llu; want %d",
                   (unsigned long long)lim, m.st, (unsigned long long)m.off,
                   v, (unsigned long long)(lim + DOC - SKIPPED), d.st,
                   (unsigned long long)d.off, want);
      bad++;
    }
  }
  free(p);
  wire_ctx_free(ctx);
  cr_assert_eq(bad, 0, "%d mismatches (see the log)", bad);
}

/* A long all-null list costs the document a pointer per element: each
 * null is counted, so a limit of 1000 nodes refuses a list of 1000 nulls
 * (1001 nodes) in every decoder, just after the 1000th null's flag. */
Test(node_limit, long_all_null_list_is_counted) {
  enum { N = 1000 };
  uint8_t p[8 + N];
  size_t n = 0;
  p[n++] = 0x01, p[n++] = 0xFF, p[n++] = 0x16;
  p[n++] = (uint8_t)(0x80 | (N & 0x7F)), p[n++] = (uint8_t)(N >> 7);
  p[n++] = 0x0A, p[n++] = 0x24; /* same type NONE, has-null */
  for (int i = 0; i < N; i++) p[n++] = 0xFD;
  wire_ctx *ctx = wire_ctx_new();
  cr_assert_not_null(ctx);
  wire_writer *w = wire_writer_new(ctx, NULL, 0);
  for (int k = 0; k < NDEC; k++) {
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, N);
    outcome o = run_decoder(ctx, w, k, p, n);
    cr_expect_eq(o.st, WIRE_E_LIMIT, "%s: %d", dec_names[k], o.st);
    cr_expect_eq(o.off, 7 + N, "%s: at %llu", dec_names[k],
                 (unsigned long long)o.off);
    wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, N + 1);
    o = run_decoder(ctx, w, k, p, n);
    cr_expect_eq(o.st, WIRE_OK, "%s: %d", dec_names[k], o.st);
  }
  wire_writer_free(w);
  wire_ctx_free(ctx);
}
