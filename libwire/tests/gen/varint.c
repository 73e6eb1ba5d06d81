/* varint.c - the generated decoders' varint32 readers on hostile bytes
 * (run by run.py, built as is and with -DWIRE_GEN_NO_FALLBACK, each also
 * for x86-64-v3 when the machine has BMI2: the word-at-a-time readers).
 *
 * The code is generated for varint.fdl (prefix vt): four varint32 fields
 * (a run read with one bounds check) and a string. Each message is the
 * header and type meta of an encoded Nums, then four varints from a list
 * of canonical, overlong, too wide and unterminated forms, then the
 * string (long: the run read in place; empty: read from the padded copy
 * near the end), cut short at every length for some. In both modes the
 * generated decoder accepts exactly what wire_mem_decode accepts, with
 * the same values; without the fallback, what it refuses it hands over
 * (WIRE_E_UNSUPPORTED), and every message of canonical varints it reads
 * itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "varint.wire.h"

static uint8_t arena1[1 << 12], arena2[1 << 12];

/* varint forms: length, bytes, whether canonical for a varint32 */
typedef struct { int n; uint8_t b[6]; int ok; } form;
static const form forms[] = {
  {1, {0x00}, 1}, {1, {0x01}, 1}, {1, {0x7F}, 1}, {2, {0x80, 0x01}, 1},
  {2, {0xFF, 0x7F}, 1}, {3, {0x80, 0x80, 0x01}, 1}, {3, {0xFF, 0xFF, 0x7F}, 1},
  {4, {0x80, 0x80, 0x80, 0x01}, 1}, {4, {0xFF, 0xFF, 0xFF, 0x7F}, 1},
  {5, {0x80, 0x80, 0x80, 0x80, 0x01}, 1}, {5, {0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, 1},
  {5, {0xFE, 0xFF, 0xFF, 0xFF, 0x0F}, 1},
  /* overlong */
  {2, {0x80, 0x00}, 0}, {2, {0x81, 0x00}, 0}, {3, {0xFF, 0x80, 0x00}, 0},
  {4, {0x80, 0x80, 0x80, 0x00}, 0}, {5, {0xFF, 0xFF, 0xFF, 0xFF, 0x00}, 0},
  /* beyond 32 bits */
  {5, {0xFF, 0xFF, 0xFF, 0xFF, 0x10}, 0}, {5, {0x80, 0x80, 0x80, 0x80, 0x7F}, 0},
  /* no end within 5 bytes */
  {6, {0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 0}, {6, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x00}, 0},
};
#define NFORMS (sizeof forms / sizeof forms[0])

static int failed;

static void one(wire_ctx *c, const vt_wire *w, const uint8_t *msg, size_t n, int valid,
                const char *what) {
  /* the message at the start of a buffer of its own size (ASan sees any
   * read past it) */
  uint8_t *b = malloc(n ? n : 1);
  if (!b) exit(2);
  memcpy(b, msg, n);
  vt_Nums o1, o2;
  size_t u1 = 0, u2 = 0;
  int32_t sg = vt_Nums_decode(c, w, b, n, &o1, arena1, sizeof arena1, &u1, WIRE_MEM_COPY);
  int32_t sm = wire_mem_decode(c, w->layout[0], b, n, &o2, arena2, sizeof arena2, &u2,
                               WIRE_MEM_COPY);
#ifdef WIRE_GEN_NO_FALLBACK
  int ok = sg == WIRE_OK ? sm == WIRE_OK : sg == WIRE_E_UNSUPPORTED;
  if (valid && sg != WIRE_OK) ok = 0;
#else
  int ok = sg == sm;
#endif
  if (ok && sg == WIRE_OK && sm == WIRE_OK &&
      (o1.a != o2.a || o1.b != o2.b || o1.c != o2.c || o1.d != o2.d ||
       o1.s.len != o2.s.len || u1 != u2))
    ok = 0;
  if (valid >= 0 && (sm == WIRE_OK) != valid) ok = 0;
  if (!ok) {
    printf("FAIL varint: %s: generated %d, wire_mem_decode %d (expected %s)\n", what,
           (int)sg, (int)sm, valid > 0 ? "read" : valid == 0 ? "refused" : "either");
    failed = 1;
  }
  free(b);
}

int main(void) {
  static char longs[48];
  memset(longs, 'x', sizeof longs);
  long cases = 0;
  for (int mode = 0; mode < 2; mode++) {
    wire_ctx *c = wire_ctx_new();
    vt_wire w;
    if (!c || wire_ctx_set_option(c, WIRE_OPT_COMPATIBLE, mode) || vt_register(c, &w) ||
        !w.fast) {
      printf("FAIL varint: register\n");
      return 1;
    }
    /* the bytes before the fields: Nums with zeros and an empty string
     * ends in its four one-byte varints and the string's one-byte header */
    vt_Nums z;
    memset(&z, 0, sizeof z);
    const uint8_t *p;
    size_t n;
    if (vt_Nums_encode(c, &w, &z, &p, &n) || n < 5 ||
        memcmp(p + n - 5, "\0\0\0\0", 4)) {
      printf("FAIL varint: encode, or the fields not last\n");
      return 1;
    }
    size_t pre = n - 5;
    uint8_t hdr[64], msg[128];
    memcpy(hdr, p, pre);
    uint8_t send = p[n - 1]; /* the empty string */
    z.s.ptr = longs;
    z.s.len = sizeof longs;
    if (vt_Nums_encode(c, &w, &z, &p, &n) || n < pre + 4 + sizeof longs ||
        n > pre + 4 + 64 || memcmp(p + pre, "\0\0\0\0", 4)) {
      printf("FAIL varint: encode (long string)\n");
      return 1;
    }
    uint8_t slong[64];
    size_t nslong = n - pre - 4;
    memcpy(slong, p + pre + 4, nslong);
    for (size_t i = 0; i < NFORMS; i++)
      for (size_t j = 0; j < NFORMS; j++)
        for (int k = 0; k < 4; k++) { /* forms i and j at fields k and k+1 */
          for (int lng = 0; lng < 2; lng++) {
            size_t m = pre;
            memcpy(msg, hdr, pre);
            for (int f = 0; f < 4; f++) {
              const form *fm = f == k ? &forms[i] : f == (k + 1) % 4 ? &forms[j] : &forms[3];
              memcpy(msg + m, fm->b, (size_t)fm->n);
              m += (size_t)fm->n;
            }
            if (lng) {
              memcpy(msg + m, slong, nslong);
              m += nslong;
            } else {
              msg[m++] = send;
            }
            char what[96];
            snprintf(what, sizeof what, "mode %d, forms %zu and %zu at field %d, %s string",
                     mode, i, j, k, lng ? "long" : "empty");
            one(c, &w, msg, m, forms[i].ok && forms[j].ok, what);
            cases++;
            if (lng || k) continue;
            /* cut short at every length from the fields on */
            for (size_t cut = pre; cut < m; cut++) {
              snprintf(what, sizeof what, "mode %d, forms %zu and %zu, cut to %zu of %zu",
                       mode, i, j, cut, m);
              one(c, &w, msg, cut, 0, what);
              cases++;
            }
          }
        }
    wire_ctx_free(c);
  }
  if (!failed) printf("varint: ok (%ld messages)\n", cases);
  return failed;
}
