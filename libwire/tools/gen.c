/* gen.c - `wire gen c SCHEMA.fdl [-o DIR]`: C code for a schema
 * (wire_schema_gen_c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "wire.h"

static int write_file(void *user, const char *text, size_t len,
                      const char *ext) {
  const char **paths = user;
  char path[4096];
  snprintf(path, sizeof path, "%s/%s%s", paths[0], paths[1], ext);
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "error: arg at byte 0: cannot write %s\n", path);
    return WIRE_E_ARG;
  }
  int bad = fwrite(text, 1, len, f) != len;
  bad |= fclose(f) != 0;
  if (bad) {
    fprintf(stderr, "error: arg at byte 0: cannot write %s\n", path);
    return WIRE_E_ARG;
  }
  return 0;
}
static int32_t put_h(void *user, const char *text, size_t len) {
  return write_file(user, text, len, ".wire.h");
}
static int32_t put_c(void *user, const char *text, size_t len) {
  return write_file(user, text, len, ".wire.c");
}

int cli_cmd_gen(int argc, char **argv) {
  const char *lang = NULL, *schema = NULL, *dir = ".", *prefix = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "error: arg at byte 0: -o needs a directory\n");
        return 2;
      }
      dir = argv[++i];
    } else if (!strcmp(argv[i], "--prefix")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "error: arg at byte 0: --prefix needs a name\n");
        return 2;
      }
      prefix = argv[++i];
    } else if (!lang) {
      lang = argv[i];
    } else if (!schema) {
      schema = argv[i];
    } else {
      fprintf(stderr, "error: arg at byte 0: unexpected argument %s\n", argv[i]);
      return 2;
    }
  }
  if (!lang || strcmp(lang, "c") || !schema) {
    fprintf(stderr, "error: arg at byte 0: usage: wire gen c SCHEMA.fdl [-o DIR] [--prefix NAME]\n");
    return 2;
  }
  /* base name: the schema file's name without directory and .fdl */
  const char *b = strrchr(schema, '/');
  b = b ? b + 1 : schema;
  char base[512];
  snprintf(base, sizeof base, "%s", b);
  size_t bl = strlen(base);
  if (bl > 4 && !strcmp(base + bl - 4, ".fdl")) base[bl - 4] = 0;
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) return 1;
  int32_t st = wire_schema_load_fdl_file(ctx, schema);
  if (!st) st = wire_schema_finish(ctx);
  const char *paths[2] = {dir, base};
  if (!st) st = wire_schema_gen_c(ctx, base, prefix, put_h, put_c, (void *)paths);
  int rc = 0;
  if (st) {
    if (wire_ctx_error_code(ctx))
      rc = cli_ctx_error(ctx, st);
    else
      rc = 1;
  }
  wire_ctx_free(ctx);
  return rc;
}
