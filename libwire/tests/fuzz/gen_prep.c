/* gen_prep.c - writes the code `wire gen c` writes for a schema, with the
 * library alone (no CLI): build.sh runs it on fuzz_gen.fdl for
 * fuzz_gen_decode.
 *
 *   gen_prep SCHEMA.fdl OUTDIR BASE PREFIX  ->  OUTDIR/BASE.wire.{h,c} */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

static const char *out_dir, *base;

static int32_t put(const char *ext, const char *text, size_t len) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.wire.%s", out_dir, base, ext);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(text, 1, len, f) != len || fclose(f)) return WIRE_E_ARG;
  return WIRE_OK;
}
static int32_t put_h(void *u, const char *t, size_t n) { (void)u; return put("h", t, n); }
static int32_t put_c(void *u, const char *t, size_t n) { (void)u; return put("c", t, n); }

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: gen_prep SCHEMA.fdl OUTDIR BASE PREFIX\n");
    return 2;
  }
  out_dir = argv[2];
  base = argv[3];
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx || wire_schema_load_fdl_file(ctx, argv[1]) ||
      wire_schema_finish(ctx) ||
      wire_schema_gen_c(ctx, base, argv[4], put_h, put_c, NULL)) {
    fprintf(stderr, "gen_prep: %s\n", ctx ? wire_ctx_error_message(ctx) : "no context");
    return 1;
  }
  wire_ctx_free(ctx);
  return 0;
}
