/* schema.c - `wire schema`: FDL inferred from a payload's TypeDefs, and
 * the fingerprint behind a struct's schema hash. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static int fingerprint(wire_ctx *ctx, const cli_opts *o) {
  uint32_t ti;
  if (wire_schema_find_type(ctx, o->fingerprint, strlen(o->fingerprint),
                            &ti) != WIRE_OK ||
      wire_schema_type_kind(ctx, ti) != WIRE_KIND_STRUCT) {
    char msg[300];
    snprintf(msg, sizeof msg, "no struct %s in the schema", o->fingerprint);
    return cli_error("arg", 0, msg);
  }
  size_t len = 0;
  uint32_t hash = 0;
  char small[1];
  int32_t st = wire_schema_fingerprint(ctx, ti, small, 0, &len, &hash);
  if (st && st != WIRE_E_BUFFER_FULL) return cli_ctx_error(ctx, st);
  char *fp = malloc(len + 1);
  if (!fp) return cli_error("nomem", 0, "out of memory");
  st = wire_schema_fingerprint(ctx, ti, fp, len + 1, &len, &hash);
  if (st) {
    free(fp);
    return cli_ctx_error(ctx, st);
  }
  printf("%s: schema hash 0x%08x (on the wire: %02x %02x %02x %02x)\n",
         wire_schema_type_name(ctx, ti), hash, hash & 0xff, hash >> 8 & 0xff,
         hash >> 16 & 0xff, hash >> 24);
  printf("fingerprint: \"%s\"\n", fp);
  printf("fields (tag id or name, type id, ref, nullable):\n");
  for (char *p = fp; *p;) {
    char *e = strchr(p, ';');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    printf("  %.*s\n", (int)n, p);
    p += n + (e != NULL);
  }
  free(fp);
  return 0;
}

int cli_cmd_schema(wire_ctx *ctx, const cli_opts *o) {
  if (o->fingerprint) return fingerprint(ctx, o);
  uint8_t *data;
  size_t len;
  if (cli_load_bytes(o, &data, &len)) return 1;
  uint8_t *fdl;
  size_t flen;
  int32_t st = wire_schema_infer(ctx, data, len, &fdl, &flen);
  int rc = 0;
  if (st) {
    rc = cli_ctx_error(ctx, st);
    if (st == WIRE_E_SCHEMA && strstr(wire_ctx_error_message(ctx), "same-schema"))
      cli_hint("write the FDL from the writer's classes; `wire schema "
               "--fingerprint TYPE --schema FILE` then checks it against "
               "the payload's schema hash");
  } else {
    fwrite(fdl, 1, flen, stdout);
    wire_ctx_free_bytes(ctx, fdl);
  }
  free(data);
  return rc;
}
