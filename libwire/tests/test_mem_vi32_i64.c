/* test_mem_vi32_i64.c - a varint32 wire field held in an int64 memory
 * form (WIRE_MEM_I64), in the compiled codecs.
 *
 *  - the registered type's own field (FDL int32, I64 form): the encoder
 *    must check the range of each value (a value outside int32 is
 *    WIRE_E_ENCODE), so the registered plan reads the field by its checked
 *    op, never by an inline case, and the plan is not flat: every value
 *    of int32 decodes back, with the flat path allowed or not;
 *  - another writer's TypeDef whose int32 fields the reader holds as
 *    int64 (the reader's FDL says int64): the mapped plan reads them by
 *    the struct loop's inline case for a varint32 into 8 bytes
 *    (mem_dec.c dec_structs, MX_VI32_64), alone and beside an int64
 *    field; every value comes back, and every prefix of the message fails
 *    with the status and byte offset of wire_decode. */
#include <criterion/criterion.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire.h"
#include "mem_ctx.h"
#include "mem_rows.h"

/* (internal, mem_dec_root.c: off, every root takes the general path) */
extern bool wire__mdec_flat_ok;

static const char fdl32[] =
    "package q;\n"
    "message W [id=420] { int32 a = 1; int64 e = 2; int32 b = 3; }\n";
static const char fdl64[] =
    "package q;\n"
    "message W [id=420] { int64 a = 1; int64 e = 2; int64 b = 3; }\n";

typedef struct { int64_t a, e, b; } w64;
typedef struct { int32_t a; int64_t e; int32_t b; } w32;

static const int32_t vals[] = {0, -1, 63, -65, 8191, -8193, 1048575,
                               -1048577, 134217727, -134217729, INT32_MAX,
                               INT32_MIN};
enum { NV = sizeof vals / sizeof *vals };

/* A compatible-mode context with W of fdl bound to memory: the I64 form
 * for every field (wide) or I32 for a and b. */
static wire_ctx *make(const char *fdl, int wide, uint32_t *lw) {
  wire_ctx *c = mem_ctx(fdl, "q.fdl", MEM_OPTS(WIRE_OPT_COMPATIBLE, 1));
  uint32_t tw = mem_ctx_type(c, "q.W");
  const uint32_t rows64[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tw, sizeof(w64), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I64, O(w64, a), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_I64, O(w64, e), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_I64, O(w64, b), N, N, N, 0},
  };
  const uint32_t rows32[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, tw, sizeof(w32), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_I32, O(w32, a), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 1, WIRE_MEM_I64, O(w32, e), N, N, N, 0},
      {WIRE_MEM_ROW_FIELD, 2, WIRE_MEM_I32, O(w32, b), N, N, N, 0},
  };
  *lw = wide ? MEM_CTX_TABLE(c, rows64) : MEM_CTX_TABLE(c, rows32);
  cr_assert_eq(wire_mem_bind(c, *lw), WIRE_OK, "%s", wire_ctx_error_message(c));
  return c;
}

/* The bytes wire_mem_encode writes for *in, copied into bytes[64]. */
static size_t encode(wire_ctx *c, uint32_t l, const void *in, uint8_t *bytes) {
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, l, in, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_leq(n, 64);
  memcpy(bytes, p, n);
  return n;
}

static uint8_t arena[4096];

static int32_t mem_dec(wire_ctx *c, uint32_t l, const uint8_t *p, size_t n,
                       w64 *out) {
  size_t used = 0;
  memset(out, 0x5A, sizeof *out);
  return wire_mem_decode(c, l, p, n, out, arena, sizeof arena, &used, 0);
}

Test(mem_vi32_i64, registered_field_is_range_checked) {
  uint32_t l;
  wire_ctx *c = make(fdl32, 1, &l);
  for (int k = 0; k < NV; k++) {
    w64 in = {vals[k], (int64_t)vals[NV - 1 - k] * 3, vals[(k + 5) % NV]}, out;
    uint8_t bytes[64];
    size_t n = encode(c, l, &in, bytes);
    for (int flat = 1; flat >= 0; flat--) {
      wire__mdec_flat_ok = flat;
      int32_t st = mem_dec(c, l, bytes, n, &out);
      wire__mdec_flat_ok = true;
      cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(c));
      cr_assert(!memcmp(&in, &out, sizeof in), "value %d, flat %d", k, flat);
    }
  }
  /* one past int32 either way: the encoder refuses it */
  const int64_t over[] = {(int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1};
  for (int k = 0; k < 2; k++) {
    w64 in = {over[k], 0, 0};
    const uint8_t *p;
    size_t n;
    int32_t st = wire_mem_encode(c, l, &in, &p, &n);
    cr_assert_eq(st, WIRE_E_ENCODE, "%d: %s", st, wire_ctx_error_message(c));
  }
  wire_ctx_free(c);
}

Test(mem_vi32_i64, writer_int32_read_as_int64) {
  uint32_t lw, lr;
  wire_ctx *w = make(fdl32, 0, &lw), *r = make(fdl64, 1, &lr);
  for (int k = 0; k < NV; k++) {
    w32 in = {vals[k], (int64_t)vals[(k + 3) % NV] * (INT64_C(1) << 20), vals[NV - 1 - k]};
    uint8_t bytes[64];
    size_t n = encode(w, lw, &in, bytes);
    w64 out;
    cr_assert_eq(mem_dec(r, lr, bytes, n, &out), WIRE_OK, "%s",
                 wire_ctx_error_message(r));
    cr_assert_eq(out.a, in.a, "value %d: a %lld", k, (long long)out.a);
    cr_assert_eq(out.e, in.e, "value %d: e %lld", k, (long long)out.e);
    cr_assert_eq(out.b, in.b, "value %d: b %lld", k, (long long)out.b);
    /* every prefix: the status and offset of the document decoder */
    for (size_t cut = 0; cut < n; cut++) {
      int32_t ms = mem_dec(r, lr, bytes, cut, &out);
      uint64_t mo = wire_ctx_error_offset(r);
      wire_doc *d = NULL;
      int32_t ds = wire_decode(r, bytes, cut, &d);
      wire_doc_free(d);
      cr_assert_neq(ms, WIRE_OK, "value %d cut at %zu decodes", k, cut);
      cr_assert_eq(ms, ds, "value %d cut at %zu: %d, document %d", k, cut,
                   ms, ds);
      cr_assert_eq(mo, wire_ctx_error_offset(r), "value %d cut at %zu", k, cut);
    }
  }
  wire_ctx_free(w);
  wire_ctx_free(r);
}
