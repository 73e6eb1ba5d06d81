/* fuzz_decode.c - libFuzzer target for libwire's schema-less decoder.
 *
 * The whole input is a payload, decoded without a schema and in the
 * default (schema-consistent) mode on a fresh context with small limits.
 * fuzz_roundtrip (fuzz_common.h) checks it:
 *   - wire_decode fails cleanly (error code = status, offset inside the
 *     input) or succeeds;
 *   - lossless: wire_encode of the document reproduces the input exactly;
 *   - wire_dump returns the same status as wire_decode.
 * Everything is freed, so LeakSanitizer reports any leak.
 * Schemas, TypeDefs (compatible mode) and FDL: fuzz_schema.c, fuzz_fdl.c.
 *
 * Build: see build.sh (clang -fsanitize=fuzzer,address,undefined).
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wire_ctx *ctx = fuzz_new_ctx();
  fuzz_roundtrip(ctx, data, size);
  wire_ctx_free(ctx);
  return 0;
}
