/* fuzz_tape_decode.c - libFuzzer target for the direct tape decoder.
 *
 * Input: the mode byte of fuzz_tape.h (compatible, reference tracking,
 * schema slot; fuzz_schema's layout, so corpus_schema/ seeds it), then a
 * payload. In compatible mode the TypeDef hashes are repaired first
 * (fuzz_typedef.h, with wire_decode as the decoder), so mutations inside
 * TypeDef bodies reach the tape decoders' TypeDef reading. Checks (fuzz_tape.h): wire_decode_tape_to gives the status,
 * error offset and tape of the document path, with and without
 * WIRE_TAPE_FIELD_INDEX (and with WIRE_TAPE_SPANS); with
 * WIRE_TAPE_STRING_SPANS as well (and WIRE_TAPE_ENTRY_RUNS), the status
 * and error offset without it and, its spans and runs copied from the
 * payload (tape_unspan.h), the same tape;
 * a tape that decodes
 * encodes alike both ways (and, with every string policy, alike again).
 * Runs under ASan/UBSan/LSan.
 *
 * WIRE_FUZZ_WRITE_TAPES=DIR writes mode byte + tape of every input that
 * decodes to DIR (how corpus_tape/, the seeds of fuzz_tape_encode, was
 * made). */
#include "fuzz_tape.h"
#include "fuzz_typedef.h" /* fuzz_repaired_copy */
#include "tape_unspan.h"

/* WIRE_TAPE_STRING_SPANS (| more) against the copying tape (direct path
 * both). */
static void check_string_spans(wire_ctx *ctx, wire_writer *w,
                               const uint8_t *p, size_t n, uint32_t more) {
  uint32_t fl = WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS;
  uint8_t *a = NULL, *b = NULL;
  size_t an = 0, bn = 0;
  wire_writer_reset(w);
  int32_t sa = wire_decode_tape_to(ctx, p, n, fl, w);
  uint64_t oa = sa ? wire_ctx_error_offset(ctx) : 0;
  if (!sa && !(a = unspan(wire_writer_data(w), wire_writer_size(w), p, n, &an)))
    tape_fail("spans (not a tape of the payload)", p, n, sa, oa, sa, oa);
  wire_writer_reset(w);
  int32_t sb = wire_decode_tape_to(ctx, p, n, fl | more, w);
  uint64_t ob = sb ? wire_ctx_error_offset(ctx) : 0;
  fuzz_check_error(ctx, sb, n, "wire_decode_tape_to (string spans)");
  if (sa != sb || (sa && oa != ob))
    tape_fail("decodes (string spans)", p, n, sa, oa, sb, ob);
  if (!sb) {
    b = unspan(wire_writer_data(w), wire_writer_size(w), p, n, &bn);
    if (!b || bn != an || memcmp(a, b, an) != 0) {
      fuzz_hexdump("tape with string spans", wire_writer_data(w),
                   wire_writer_size(w));
      tape_fail("string spans (copied)", p, n, sa, 0, sb, 0);
    }
  }
  free(a);
  free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wire_ctx *ctx;
  wire_writer *w;
  if (!tape_begin(data, size, &ctx, &w)) return 0;
  /* compatible mode: TypeDef hashes repaired (by the document decoder) */
  const size_t n = size - 1;
  uint8_t *p = fuzz_repaired_copy(ctx, data + 1, n, data[0] & 1,
                                  fuzz_decode_doc, NULL, NULL);
  for (uint32_t fl = 0; fl <= WIRE_TAPE_FIELD_INDEX; fl++) {
    uint8_t *tape;
    size_t tl;
    tape_check_decode(ctx, w, p, n, fl, &tape, &tl);
    if (!tape) continue;
    const char *dir = getenv("WIRE_FUZZ_WRITE_TAPES");
    if (dir && fl == 0) {
      char path[4096];
      snprintf(path, sizeof path, "%s/tape-%02x-%08zx.bin", dir, data[0],
               (size_t)(wire_version_number() ^ tl ^ (tape[tl - 1] * 131u) ^
                        (size ^ (size_t)data[size - 1] << 8)));
      FILE *f = fopen(path, "wb");
      if (f) {
        fwrite(data, 1, 1, f);
        fwrite(tape, 1, tl, f);
        fclose(f);
      }
    }
    for (int64_t pol = 0; pol <= 2; pol++) {
      wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, pol);
      tape_check_encode(ctx, w, tape, tl, NULL, NULL);
    }
    wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, 0);
    free(tape);
  }
  /* binaries and arrays as spans of the payload (such a tape is not one
   * to encode) */
  tape_check_decode(ctx, w, p, n, WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS,
                    NULL, NULL);
  check_string_spans(ctx, w, p, n, WIRE_TAPE_STRING_SPANS);
  check_string_spans(ctx, w, p, n,
                     WIRE_TAPE_STRING_SPANS | WIRE_TAPE_ENTRY_RUNS);
  free(p);
  return 0;
}
