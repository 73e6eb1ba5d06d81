/* dump.c - `wire dump`: a payload listed byte range by byte range. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef struct {
  const uint8_t *data;
  int color;
} dump_state;

#define DIM "\033[2m"
#define CYAN "\033[36m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

/* Lines that start a value or a structure stand out. */
static int is_heading(const char *text) {
  return !strncmp(text, "header ", 7) || !strncmp(text, "type id ", 8) ||
         !strncmp(text, "field ", 6) || !strncmp(text, "TypeDef", 7) ||
         !strncmp(text, "shared TypeDef", 14);
}

static void dump_line(void *user, uint64_t off, uint64_t len, uint32_t depth,
                      const char *text) {
  dump_state *s = user;
  char hex[40] = "";
  size_t shown = len > 8 ? 8 : (size_t)len;
  size_t w = 0;
  for (size_t i = 0; i < shown; i++)
    w += (size_t)snprintf(hex + w, sizeof hex - w, "%02x ", s->data[off + i]);
  if (len > 8) snprintf(hex + w, sizeof hex - w, "...");
  if (s->color)
    printf(DIM "%6llu" RESET "  " CYAN "%-28s" RESET " %*s%s%s%s\n",
           (unsigned long long)off, hex, (int)(2 * depth), "",
           is_heading(text) ? BOLD : "", text, is_heading(text) ? RESET : "");
  else
    printf("%6llu  %-28s %*s%s\n", (unsigned long long)off, hex,
           (int)(2 * depth), "", text);
}

static int use_color(int opt, int fd) {
  if (opt >= 0) return opt;
  const char *nc = getenv("NO_COLOR");
  const char *term = getenv("TERM");
  return isatty(fd) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
}

/* The mode to list the payload in: as asked, else the one it reads in. */
static int pick_mode(wire_ctx *ctx, const cli_opts *o, const uint8_t *data,
                     size_t len) {
  if (o->mode >= 0) return o->mode;
  int first = cli_guess_compatible(data, len);
  for (int k = 0; k < 2; k++) {
    int m = k ? !first : first;
    wire_doc *doc;
    wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, m);
    if (wire_decode(ctx, data, len, &doc) == WIRE_OK) {
      wire_doc_free(doc);
      return m;
    }
  }
  return first;
}

int cli_cmd_dump(wire_ctx *ctx, const cli_opts *o) {
  uint8_t *data;
  size_t len;
  if (cli_load_bytes(o, &data, &len)) return 1;
  int mode = pick_mode(ctx, o, data, len);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, mode);
  dump_state s = {data, use_color(o->color, 1)};
  if (s.color)
    printf(BOLD "offset  bytes                        meaning" RESET "\n");
  else
    printf("offset  bytes                        meaning\n");
  int32_t st = wire_dump(ctx, data, len, dump_line, &s);
  int rc = 0;
  if (st) {
    /* the error, and what the modes give, on their own lines */
    wire_doc *doc = NULL;
    int compatible;
    cli_opts forced = *o;
    forced.mode = o->mode;
    if (cli_decode_auto(ctx, &forced, data, len, &doc, &compatible) == 0) {
      /* (not reached: the dump and the decode read alike) */
      wire_doc_free(doc);
      rc = cli_ctx_error(ctx, st);
    } else {
      rc = 1;
    }
  } else {
    printf("%6zu  end (%zu bytes, %s mode)\n", len, len,
           mode ? "compatible" : "same-schema");
  }
  free(data);
  return rc;
}
