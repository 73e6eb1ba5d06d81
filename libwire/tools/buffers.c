/* buffers.c - out-of-band buffers as files for the `wire` tool
 * (spec/01-primitives.md 1.12): `--buffer FILE` / `--buffers PREFIX` give
 * decode, dump and schema the buffers a payload with header 03 refers to;
 * `encode --buffers PREFIX` writes the ones it produces to PREFIX.0,
 * PREFIX.1, ... */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The name of buffer i of a prefix, into name[0..cap). */
static int buffer_name(char *name, size_t cap, const char *prefix, size_t i) {
  int n = snprintf(name, cap, "%s.%zu", prefix, i);
  return n > 0 && (size_t)n < cap;
}

static int add(cli_buffers *b, uint8_t *data, size_t len) {
  if (b->n == b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 8;
    uint8_t **d = realloc(b->data, cap * sizeof *d);
    size_t *l = d ? realloc(b->lens, cap * sizeof *l) : NULL;
    if (!d || !l) {
      if (d) b->data = d;
      free(data);
      return 1;
    }
    b->data = d;
    b->lens = l;
    b->cap = cap;
  }
  b->data[b->n] = data;
  b->lens[b->n++] = len;
  return 0;
}

static int read_one(cli_buffers *b, const char *file) {
  size_t len;
  uint8_t *data = cli_read_all(file, &len);
  if (!data || add(b, data, len)) {
    fprintf(stderr, "error: io at byte 0: cannot read buffer %s: %s\n", file,
            strerror(errno));
    return 1;
  }
  return 0;
}

int cli_buffers_load(wire_ctx *ctx, const cli_opts *o, cli_buffers *b) {
  memset(b, 0, sizeof *b);
  for (int i = 0; i < o->nbuffer_files; i++)
    if (read_one(b, o->buffer_files[i])) return 1;
  if (o->buffers_prefix) {
    char name[4096];
    for (size_t i = 0;; i++) {
      if (!buffer_name(name, sizeof name, o->buffers_prefix, i))
        return cli_error("arg", 0, "--buffers: the prefix is too long");
      FILE *f = fopen(name, "rb");
      if (!f) break; /* PREFIX.0, PREFIX.1, ... up to the first missing one */
      fclose(f);
      if (read_one(b, name)) return 1;
    }
  }
  if (!b->n) return 0;
  int32_t st = wire_ctx_set_oob_buffers(ctx, (const uint8_t *const *)b->data,
                                        b->lens, b->n);
  return st ? cli_ctx_error(ctx, st) : 0;
}

int cli_buffers_check_used(wire_ctx *ctx, const cli_buffers *b) {
  size_t used = wire_ctx_oob_used(ctx);
  if (used >= b->n) return 0;
  char msg[160];
  snprintf(msg, sizeof msg, "%zu out-of-band buffer(s) given, the payload "
           "reads %zu", b->n, used);
  return cli_error("trailing", 0, msg);
}

void cli_buffers_free(cli_buffers *b) {
  for (size_t i = 0; i < b->n; i++) free(b->data[i]);
  free(b->data);
  free(b->lens);
  memset(b, 0, sizeof *b);
}

int cli_buffers_write(wire_ctx *ctx, const cli_opts *o) {
  size_t n = wire_ctx_oob_count(ctx);
  if (n && !o->buffers_prefix) {
    char msg[200];
    snprintf(msg, sizeof msg, "the payload has %zu out-of-band buffer(s): "
             "--buffers PREFIX names the files they go to", n);
    return cli_error("arg", 0, msg);
  }
  char name[4096];
  for (size_t i = 0; i < n; i++) {
    const uint8_t *p;
    size_t len;
    if (!buffer_name(name, sizeof name, o->buffers_prefix, i))
      return cli_error("arg", 0, "--buffers: the prefix is too long");
    wire_ctx_oob_buffer(ctx, i, &p, &len);
    FILE *f = fopen(name, "wb");
    int bad = !f || (len && fwrite(p, 1, len, f) != len);
    if (f && fclose(f)) bad = 1;
    if (bad) {
      fprintf(stderr, "error: io at byte 0: cannot write buffer %s: %s\n",
              name, strerror(errno));
      return 1;
    }
  }
  FILE *stale;
  if (n && buffer_name(name, sizeof name, o->buffers_prefix, n) &&
      (stale = fopen(name, "rb")) != NULL) {
    fclose(stale);
    fflush(stdout);
    fprintf(stderr, "warning: %s is left from before: `--buffers %s` would "
            "read it too\n", name, o->buffers_prefix);
  }
  return 0;
}
