/* test_mem_holes.c - wire_mem_encode_holes: binaries left as holes that
 * the caller fills. Binaries in a field (with and without a presence
 * byte), in a list, as map values and in a nested struct; the output with
 * its holes filled is wire_mem_encode's, byte for byte, in both modes and
 * under reference tracking; the hole table grows past its first size and
 * is reset per message; a binary's pointer is never read (the callers'
 * numbers below point nowhere); the errors of a binary (NULL with a
 * length, a length past 4 GiB) are those of wire_mem_encode. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire.h"

#define N WIRE_MEM_NONE
#define O(t, f) (uint32_t) offsetof(t, f)

static const char fdl[] =
    "package h;\n"
    "message Pic [id=410] { int32 w = 1; bytes data = 2; }\n"
    "message Page [id=411] {\n"
    "  string title = 1; bytes head = 2; optional bytes maybe = 3;\n"
    "  list<bytes> parts = 4; map<string, bytes> named = 5;\n"
    "  Pic pic = 6 [nullable = false]; int64 tail = 7;\n"
    "}\n";

typedef struct { const uint8_t *p; uint64_t n; } span; /* a binary */
typedef struct { const char *k; uint64_t kn; span v; } entry;
typedef struct { int32_t w, pad; span data; } pic;
typedef struct {
  const char *title;
  uint64_t ntitle;
  span head;
  span maybe;
  uint8_t maybe_present, pad[7];
  const span *parts;
  uint64_t nparts;
  const entry *named;
  uint64_t nnamed;
  const pic *pic;
  int64_t tail;
} page;

static wire_ctx *make(int compatible, int tracking, uint32_t *root) {
  wire_ctx *c = wire_ctx_new();
  cr_assert_not_null(c);
  wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, compatible);
  wire_ctx_set_option(c, WIRE_OPT_REF_TRACKING, tracking);
  cr_assert_eq(wire_schema_load_fdl(c, fdl, strlen(fdl), "h.fdl"), WIRE_OK,
               "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_schema_finish(c), WIRE_OK);
  uint32_t tpic, tpage;
  cr_assert_eq(wire_schema_find_type(c, "h.Pic", 5, &tpic), WIRE_OK);
  cr_assert_eq(wire_schema_find_type(c, "h.Page", 6, &tpage), WIRE_OK);
  /* layouts: 0 page, 1 pic, 2 binary item, 3 entry */
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tpage, sizeof(page), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR | WIRE_MEM_LEN64, O(page, title), O(page, ntitle), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_BYTES | WIRE_MEM_LEN64, O(page, head), O(page, head.n), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_BYTES | WIRE_MEM_LEN64, O(page, maybe), O(page, maybe.n), O(page, maybe_present), N, 0},
      {WIRE_MEM_ROW_FIELD, 3, WIRE_MEM_LIST | WIRE_MEM_LEN64, O(page, parts), O(page, nparts), N, 2, 0},
      {WIRE_MEM_ROW_FIELD, 4, WIRE_MEM_MAP | WIRE_MEM_LEN64, O(page, named), O(page, nnamed), N, 3, 0},
      {WIRE_MEM_ROW_FIELD, 5, WIRE_MEM_STRUCT_PTR, O(page, pic), N, N, 1, 0},
      {WIRE_MEM_ROW_FIELD, 6, WIRE_MEM_I64, O(page, tail), N, N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, tpic, sizeof(pic), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(pic, w), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_BYTES | WIRE_MEM_LEN64, O(pic, data), O(pic, data.n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(span), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_BYTES | WIRE_MEM_LEN64, 0, O(span, n), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(entry), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STR | WIRE_MEM_LEN64, O(entry, k), O(entry, kn), N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_BYTES | WIRE_MEM_LEN64, O(entry, v), O(entry, v.n), N, N, 0},
  };
  uint32_t first;
  cr_assert_eq(wire_mem_layout_table(c, &rows[0][0], sizeof rows / sizeof rows[0], &first),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_mem_bind(c, first), WIRE_OK, "%s", wire_ctx_error_message(c));
  *root = first;
  return c;
}

/* The binaries of the tests: blob[i] of i * 37 % 300 bytes. */
#define NBLOB 64
static uint8_t blob[NBLOB][300];
static uint64_t blob_len(int i) { return (uint64_t)(i * 37 % 300); }

static void fill_blobs(void) {
  for (int i = 0; i < NBLOB; i++)
    for (int k = 0; k < 300; k++) blob[i][k] = (uint8_t)(i * 131 + k * 7 + 1);
}

/* The caller's number for blob i: not an address (never read). */
static const uint8_t *num(int i) { return (const uint8_t *)(uintptr_t)(0x5000 + 16 * (uint64_t)i); }
static int blob_of(uint64_t ref) {
  cr_assert(ref >= 0x5000 && (ref - 0x5000) % 16 == 0 && (ref - 0x5000) / 16 < NBLOB,
            "a caller's number: %llx", (unsigned long long)ref);
  return (int)((ref - 0x5000) / 16);
}

/* A page with nparts list items and nnamed map entries; with numbers
 * (holes) or the blobs' addresses. */
typedef struct {
  page pg;
  pic pc;
  span parts[NBLOB];
  entry named[8];
} doc;

static void build(doc *d, int holes, int nparts, int nnamed, int maybe) {
  memset(d, 0, sizeof *d);
#define B(i) (span){holes ? num(i) : blob[i], blob_len(i)}
  d->pc = (pic){9, 0, B(3)};
  for (int i = 0; i < nparts; i++) d->parts[i] = B((5 + i) % NBLOB);
  static const char *keys[8] = {"a", "bb", "ccc", "d", "e", "f", "g", "h"};
  for (int i = 0; i < nnamed; i++)
    d->named[i] = (entry){keys[i], strlen(keys[i]), B(40 + i)};
  d->pg = (page){"title", 5, B(1), maybe ? B(2) : (span){NULL, 0}, (uint8_t)maybe, {0},
                 d->parts, (uint64_t)nparts, d->named, (uint64_t)nnamed, &d->pc, -77};
#undef B
}

/* Encodes the page both ways: the holes filled give wire_mem_encode's
 * bytes; returns the number of holes. */
static size_t check_same(wire_ctx *c, uint32_t root, int nparts, int nnamed, int maybe) {
  static doc plain, holed;
  static uint8_t want[1 << 16], got[1 << 16];
  build(&plain, 0, nparts, nnamed, maybe);
  build(&holed, 1, nparts, nnamed, maybe);
  const uint8_t *p;
  size_t n, m;
  cr_assert_eq(wire_mem_encode(c, root, &plain.pg, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_leq(n, sizeof want);
  memcpy(want, p, n);
  const wire_mem_hole *h;
  size_t nh;
  cr_assert_eq(wire_mem_encode_holes(c, root, &holed.pg, 0, &p, &m, &h, &nh), WIRE_OK,
               "%s", wire_ctx_error_message(c));
  cr_assert_eq(m, n, "the same length: %zu, %zu", m, n);
  /* the caller's copy: the bytes between the holes from *out, the holes
   * from its own arrays */
  memset(got, 0xAB, m);
  uint64_t at = 0;
  for (size_t i = 0; i < nh; i++) {
    cr_assert_geq(h[i].at, at, "holes in the order of the output");
    cr_assert_leq(h[i].at + h[i].len, m);
    memcpy(got + at, p + at, (size_t)(h[i].at - at));
    int k = blob_of(h[i].ref);
    cr_assert_eq(h[i].len, blob_len(k));
    memcpy(got + h[i].at, blob[k], (size_t)h[i].len);
    at = h[i].at + h[i].len;
  }
  memcpy(got + at, p + at, (size_t)(m - at));
  cr_assert(!memcmp(got, want, n), "the holes filled: wire_mem_encode's bytes");
  /* every binary is a hole, empty ones too */
  cr_assert_eq(nh, (size_t)(2 + maybe + nparts + nnamed));
  return nh;
}

static void check_modes(int compatible, int tracking) {
  fill_blobs();
  uint32_t root;
  wire_ctx *c = make(compatible, tracking, &root);
  check_same(c, root, 0, 0, 0);
  check_same(c, root, 3, 2, 1);
  check_same(c, root, NBLOB, 8, 1); /* past the table's first 16 */
  check_same(c, root, 1, 0, 0);     /* reset per message */
  wire_ctx_free(c);
}

Test(mem_holes, same_bytes_schema_consistent) { check_modes(0, 0); }
Test(mem_holes, same_bytes_compatible) { check_modes(1, 0); }
Test(mem_holes, same_bytes_tracking) { check_modes(1, 1); }

/* based: the other pointers relative to base, the binaries' numbers as
 * they are */
Test(mem_holes, based) {
  fill_blobs();
  uint32_t root;
  wire_ctx *c = make(1, 0, &root);
  static doc d;
  build(&d, 1, 2, 0, 0);
  static _Alignas(16) uint8_t moved[sizeof(doc)];
  /* relocate the image's own pointers (title, parts, pic) by hand */
  doc r = d;
  uint64_t base = 0x100000;
  r.pg.title = (const char *)(uintptr_t)base; /* title copied at moved + 0 */
  memcpy(moved, "title", 5);
  size_t off_parts = 64, off_pic = 64 + 2 * sizeof(span), off_pg = off_pic + sizeof(pic);
  memcpy(moved + off_parts, d.parts, 2 * sizeof(span));
  memcpy(moved + off_pic, &d.pc, sizeof(pic));
  r.pg.parts = (const span *)(uintptr_t)(base + off_parts);
  r.pg.pic = (const pic *)(uintptr_t)(base + off_pic);
  memcpy(moved + off_pg, &r.pg, sizeof(page));
  const uint8_t *p;
  size_t n, m, nh, nh0;
  const wire_mem_hole *h;
  /* the value at moved + off_pg stands for base + off_pg */
  cr_assert_eq(wire_mem_encode_holes(c, root, moved + off_pg, base + off_pg, &p, &n, &h, &nh),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  cr_assert_eq(nh, 4);
  uint8_t first[4096];
  cr_assert_leq(n, sizeof first);
  memcpy(first, p, n);
  wire_mem_hole h0[4];
  memcpy(h0, h, sizeof h0);
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &m, &h, &nh0), WIRE_OK);
  cr_assert_eq(m, n);
  cr_assert_eq(nh0, 4);
  for (size_t i = 0; i < 4; i++)
    cr_assert(h[i].ref == h0[i].ref && h[i].at == h0[i].at && h[i].len == h0[i].len);
  /* the bytes around the holes agree */
  uint64_t at = 0;
  for (size_t i = 0; i < 4; i++) {
    cr_assert(!memcmp(first + at, p + at, (size_t)(h[i].at - at)));
    at = h[i].at + h[i].len;
  }
  cr_assert(!memcmp(first + at, p + at, (size_t)(n - at)));
  wire_ctx_free(c);
}

/* What wire_mem_encode refuses, wire_mem_encode_holes refuses: a NULL
 * binary with a length, a length past 4 GiB (not read: no such memory);
 * a missing out-parameter. After an error the next message is whole. */
Test(mem_holes, errors) {
  fill_blobs();
  uint32_t root;
  wire_ctx *c = make(1, 1, &root);
  static doc d;
  const uint8_t *p;
  size_t n, nh;
  const wire_mem_hole *h;
  build(&d, 1, 2, 1, 1);
  d.parts[1] = (span){NULL, 3};
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &n, &h, &nh), WIRE_E_ENCODE);
  cr_assert_eq(nh, 0);
  cr_assert_null(h);
  build(&d, 1, 2, 1, 1);
  d.pg.head.n = (uint64_t)UINT32_MAX + 1;
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &n, &h, &nh), WIRE_E_LENGTH);
  build(&d, 1, 2, 1, 1);
  d.pc.data.n = (uint64_t)UINT32_MAX + 1; /* in the struct loop's own path */
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &n, &h, &nh), WIRE_E_LENGTH);
  build(&d, 1, 2, 1, 1);
  d.named[0].v = (span){NULL, 1};
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &n, &h, &nh), WIRE_E_ENCODE);
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &n, NULL, &nh), WIRE_E_ARG);
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &n, &h, NULL), WIRE_E_ARG);
  cr_assert_eq(wire_mem_encode_holes(NULL, root, &d.pg, 0, &p, &n, &h, &nh), WIRE_E_ARG);
  cr_assert_eq(wire_mem_encode_holes(c, 99, &d.pg, 0, &p, &n, &h, &nh), WIRE_E_ARG);
  /* a large binary: its length only (no bytes behind the number) */
  build(&d, 1, 0, 0, 0);
  d.pg.head.n = 1u << 26;
  cr_assert_eq(wire_mem_encode_holes(c, root, &d.pg, 0, &p, &n, &h, &nh), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_eq(nh, 2);
  cr_assert_eq(h[0].len, 1u << 26);
  cr_assert_gt(n, 1u << 26);
  /* and whole again */
  check_same(c, root, 3, 2, 1);
  wire_ctx_free(c);
}
