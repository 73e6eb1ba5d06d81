/* fuzz_tape_encode.c - libFuzzer target for the direct tape encoder.
 *
 * Input: the mode byte of fuzz_tape.h (compatible, reference tracking,
 * schema slot), then a tape (corpus_tape/: tapes of the corpus_schema
 * payloads, written by fuzz_tape_decode). The low bits of the tape's
 * second-to-last byte pick the string policy (0..2), so that every policy
 * gets fuzzed without another byte of input. Checks (fuzz_tape.h):
 * wire_encode_tape_to gives the status, error offset and bytes of the
 * document path (wire_doc_add_tape + wire_encode); bytes that it writes
 * decode (wire_decode succeeds) and to the same tape both ways. Then the tape is encoded once more
 * with WIRE_OPT_TRUSTED_TEXT (not compared: the document path checks text
 * anyway), which must not crash or leak, whatever the text. */
#include "fuzz_tape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wire_ctx *ctx;
  wire_writer *w;
  if (!tape_begin(data, size, &ctx, &w)) return 0;
  const uint8_t *t = data + 1;
  size_t n = size - 1;
  int64_t pol = n >= 2 ? t[n - 2] % 3 : 0;
  wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, pol);
  uint8_t *out;
  size_t on;
  tape_check_encode(ctx, w, t, n, &out, &on);
  if (out) {
    /* a successful encode decodes (issue 9) */
    wire_doc *back = NULL;
    if (wire_decode(ctx, out, on, &back) != WIRE_OK) {
      fprintf(stderr, "fuzz_tape_encode: an encode does not decode: %s\n",
              wire_ctx_error_message(ctx));
      fuzz_hexdump("input", data, size);
      abort();
    }
    wire_doc_free(back);
    tape_check_decode(ctx, w, out, on, 0, NULL, NULL);
    tape_check_decode(ctx, w, out, on, WIRE_TAPE_FIELD_INDEX, NULL, NULL);
    tape_check_decode(ctx, w, out, on, WIRE_TAPE_SPANS, NULL, NULL);
    free(out);
  }
  wire_ctx_set_option(ctx, WIRE_OPT_TRUSTED_TEXT, 1);
  wire_writer_reset(w);
  int32_t st = wire_encode_tape_to(ctx, t, n, w);
  if (st && wire_ctx_error_code(ctx) != st) {
    fprintf(stderr, "fuzz_tape_encode: trusted: status %d, ctx error %d\n", st,
            wire_ctx_error_code(ctx));
    abort();
  }
  wire_ctx_set_option(ctx, WIRE_OPT_TRUSTED_TEXT, 0);
  wire_ctx_set_option(ctx, WIRE_OPT_STRING_POLICY, 0);
  return 0;
}
