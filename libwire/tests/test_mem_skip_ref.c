/* test_mem_skip_ref.c - the compiled decoder skipping a writer's field
 * (one the reader's type lacks, compatible mode) whose value is a
 * reference under reference tracking. A skipped field is read by the
 * document decoder, whose reference table holds only what that decoder
 * read; the ids of values the compiled decoder read into memory have no
 * entry there. A reference from the skipped field to such a value must
 * fail cleanly (WIRE_E_REF at the reference's flag), never read the
 * table at that id (found by fuzz_mem_decode: a NULL table read at id 2;
 * with a table left by an earlier wire_decode on the context, a node of
 * a freed document). Both are tried: a fresh context, and one that
 * decoded the same payload as a document first. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_damage.h"
#include "mem_rows.h"

/* the writer's R has a field b the reader's lacks */
static const char wfdl[] =
    "package s;\n"
    "message Node [id=500] { int32 v = 1; }\n"
    "message R [id=501] { ref Node a = 1; ref Node b = 2; ref Node c = 3; }\n";
/* readers of a only, and of b only */
static const char rfdl[] =
    "package s;\n"
    "message Node [id=500] { int32 v = 1; }\n"
    "message R [id=501] { ref Node a = 1; }\n";
static const char rbfdl[] =
    "package s;\n"
    "message Node [id=500] { int32 v = 1; }\n"
    "message R [id=501] { ref Node b = 2; }\n";

typedef struct { int32_t v; } node_t;
typedef struct { const node_t *a, *b, *c; } wr_t; /* (a reader uses a) */

/* A context in compatible mode with reference tracking, the schema fdl
 * loaded and R's layout (the writer's: a, b, c; a reader's: its one field
 * at offset 0) in *lr. */
static wire_ctx *ctx_of(const char *fdl, uint32_t *lr) {
  wire_ctx *c = mem_ctx(fdl, "s.fdl",
                        MEM_OPTS(WIRE_OPT_COMPATIBLE, 1,
                                 WIRE_OPT_REF_TRACKING, 1));
  uint32_t tn = mem_ctx_type(c, "s.Node"), tr = mem_ctx_type(c, "s.R");
  /* layouts: 0 node, 1 R (its first nf rows of fields) */
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tn, sizeof(node_t), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(node_t, v), N, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, tr, sizeof(wr_t), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, O(wr_t, a), N, N, 0, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_STRUCT_PTR, O(wr_t, b), N, N, 0, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_STRUCT_PTR, O(wr_t, c), N, N, 0, 0},
  };
  size_t nf = fdl == wfdl ? 3 : 1;
  *lr = mem_ctx_table(c, &rows[0][0], 3 + nf) + 1;
  return c;
}

/* Decodes payload buf[0..len) with the reader's layout lr on r into
 * *out: the status. */
static int32_t read_r(wire_ctx *r, uint32_t lr, const uint8_t *buf,
                      size_t len, wr_t *out) {
  static uint8_t arena[4096];
  size_t used = 0;
  return wire_mem_decode(r, lr, buf, len, out, arena, sizeof arena, &used, 0);
}

/* The writer's R v, encoded into out. */
static size_t writer_payload(const wr_t *v, uint8_t *out, size_t cap) {
  uint32_t lw;
  wire_ctx *w = ctx_of(wfdl, &lw);
  size_t len = mem_damage_encode(w, lw, v, out, cap);
  wire_ctx_free(w);
  return len;
}

/* The writer's R with a, b and c the same Node (b and c: references to
 * a) decoded with the reader's layout on a context whose document
 * reference table an earlier wire_decode filled (or not): WIRE_E_REF at
 * the first reference's flag. */
static void skipped_reference(int used_before) {
  static const node_t n = {7};
  const wr_t v = {&n, &n, &n};
  uint8_t buf[256];
  size_t len = writer_payload(&v, buf, sizeof buf);
  /* the first reference: the next to last 0xFE (ref flag) followed by a
   * small id (the body's end: FE id FE id) */
  size_t at = len;
  if (len >= 4 && buf[len - 4] == 0xFE && buf[len - 2] == 0xFE) at = len - 4;
  cr_assert_lt(at, len, "the writer sent no reference");
  uint32_t lr;
  wire_ctx *r = ctx_of(rfdl, &lr);
  if (used_before) {
    /* the same payload as a document: the table holds its nodes, freed
     * with it */
    wire_doc *doc = NULL;
    cr_assert_eq(wire_decode(r, buf, len, &doc), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    wire_doc_free(doc);
  }
  wr_t out;
  int32_t st = read_r(r, lr, buf, len, &out);
  cr_assert_eq(st, WIRE_E_REF, "status %d: %s", st, wire_ctx_error_message(r));
  cr_assert_eq(wire_ctx_error_offset(r), at, "error at %llu, reference at %zu",
               (unsigned long long)wire_ctx_error_offset(r), at);
  wire_ctx_free(r);
}

Test(mem_skip_ref, reference_to_a_value_read_into_memory) {
  skipped_reference(0);
}

Test(mem_skip_ref, reference_after_a_document_decode) {
  skipped_reference(1);
}

/* A skipped field referring to another skipped field's value: the
 * document decoder's own, so the payload decodes. The reader has b only:
 * a (skipped) is a value, b (read into memory) another, c (skipped) a
 * reference to a's. */
Test(mem_skip_ref, reference_between_skipped_fields) {
  static const node_t n1 = {1}, n2 = {2};
  const wr_t v = {&n2, &n1, &n2};
  uint8_t buf[256];
  size_t len = writer_payload(&v, buf, sizeof buf);
  cr_assert(len >= 2 && buf[len - 2] == 0xFE, "c is not a reference");
  uint32_t lr;
  wire_ctx *r = ctx_of(rbfdl, &lr);
  wr_t out;
  int32_t st = read_r(r, lr, buf, len, &out);
  cr_assert_eq(st, WIRE_OK, "status %d: %s", st, wire_ctx_error_message(r));
  cr_assert_eq(out.a->v, 1);
  wire_ctx_free(r);
}
