/* tape_rt.h - a payload through a tape and back, for the tape tests
 * (test_tape_f32.c, test_tape_f16.c; include after <criterion/criterion.h>):
 * both directions through the direct codec and the document path, each
 * asserted. */
#ifndef TAPE_RT_H
#define TAPE_RT_H

#include <stdint.h>
#include <string.h>

#include "wire.h"
#include "tape.h"

/* payload -> tape -> payload through the direct codec, and through the
 * document path (wire__tape_decode_doc / wire__tape_encode_doc): the same
 * tape both ways, and the payload back both ways. *tape_out (if not NULL)
 * gets the direct tape (free with wire_ctx_free_bytes). */
static inline void round_trip(wire_ctx *ctx, const uint8_t *p, size_t n,
                              const char *what, uint8_t **tape_out,
                              size_t *tape_len) {
  uint8_t *t1 = NULL, *t2 = NULL, *o1 = NULL, *o2 = NULL;
  size_t l1 = 0, l2 = 0, n1 = 0, n2 = 0;
  cr_assert_eq(wire_decode_tape(ctx, p, n, &t1, &l1), 0, "%s: decode: %s",
               what, wire_ctx_error_message(ctx));
  cr_assert_eq(wire__tape_decode_doc(ctx, p, n, 0, &t2, &l2), 0,
               "%s: document decode", what);
  cr_assert(l1 == l2 && memcmp(t1, t2, l1) == 0,
            "%s: the direct tape differs from the document path's", what);
  cr_assert_eq(wire_encode_tape(ctx, t1, l1, &o1, &n1), 0, "%s: encode: %s",
               what, wire_ctx_error_message(ctx));
  cr_assert_eq(wire__tape_encode_doc(ctx, t1, l1, &o2, &n2), 0,
               "%s: document encode", what);
  cr_assert(n1 == n && memcmp(o1, p, n) == 0,
            "%s: the payload did not come back", what);
  cr_assert(n2 == n && memcmp(o2, p, n) == 0,
            "%s: the payload did not come back through the document", what);
  wire_ctx_free_bytes(ctx, t2);
  wire_ctx_free_bytes(ctx, o1);
  wire_ctx_free_bytes(ctx, o2);
  if (tape_out) {
    *tape_out = t1;
    *tape_len = l1;
  } else {
    wire_ctx_free_bytes(ctx, t1);
  }
}

#endif
