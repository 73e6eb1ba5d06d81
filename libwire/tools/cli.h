/* cli.h - what the commands of the `wire` tool share (wire.c, dump.c,
 * schema.c). */
#ifndef WIRE_TOOLS_CLI_H
#define WIRE_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

#define CLI_MAX_SCHEMAS 64

typedef struct {
  const char *cmd;
  int hex, ref, pretty, project, plain, strict;
  int mode;  /* -1: from the bytes, 0: same-schema, 1: compatible */
  int peer;  /* WIRE_PEER_* (--peer) */
  int color; /* -1: auto, 0: never, 1: always */
  const char *type;        /* encode --plain --type */
  const char *fingerprint; /* schema --fingerprint TYPE */
  const char *file;
  const char *schemas[CLI_MAX_SCHEMAS];
  int nschemas;
  const char *import_dirs[CLI_MAX_SCHEMAS]; /* -I DIR */
  int nimport_dirs;
  const char *buffer_files[CLI_MAX_SCHEMAS]; /* --buffer FILE */
  int nbuffer_files;
  const char *buffers_prefix; /* --buffers PREFIX */
  int oob;                    /* encode --oob */
  const struct cli_buffers_s *buffers; /* what --buffer/--buffers loaded */
} cli_opts;

/* Out-of-band buffers read from files (buffers.c). */
typedef struct cli_buffers_s {
  uint8_t **data;
  size_t *lens;
  size_t n, cap;
} cli_buffers;

/* `error: CLASS at byte N: MESSAGE` on stderr after flushing stdout;
 * returns 1. */
int cli_error(const char *cls, unsigned long long off, const char *msg);
/* The context's last error in that form. */
int cli_ctx_error(wire_ctx *ctx, int32_t status);
/* `hint: ...` on stderr. */
void cli_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The whole of FILE (NULL: stdin), malloc'd; NULL on error. */
uint8_t *cli_read_all(const char *file, size_t *len);
/* The payload bytes of o->file, hex-decoded with --hex; prints the error. */
int cli_load_bytes(const cli_opts *o, uint8_t **data, size_t *len);
/* 1 when the first value's type meta says compatible mode. */
int cli_guess_compatible(const uint8_t *data, size_t len);
/* Decodes in the mode o->mode asks for, or (-1) the one the bytes suggest,
 * falling back to the other mode; on failure prints the error with hints
 * about the modes and returns 1. */
int cli_decode_auto(wire_ctx *ctx, const cli_opts *o, const uint8_t *data,
                    size_t len, wire_doc **doc, int *compatible);
/* The schema's only struct: 0 and *type; 1 if none, 2 if several. */
int cli_only_struct(wire_ctx *ctx, uint32_t *type);

/* Reads the --buffer files and the --buffers PREFIX.0, .1, ... files and
 * hands them to ctx; prints the error and returns 1 on failure. */
int cli_buffers_load(wire_ctx *ctx, const cli_opts *o, cli_buffers *b);
/* After a decode: buffers given but not read are an error (`trailing`). */
int cli_buffers_check_used(wire_ctx *ctx, const cli_buffers *b);
void cli_buffers_free(cli_buffers *b);
/* After an encode: writes its out-of-band buffers to --buffers PREFIX.N
 * (an error when there are some and no --buffers). */
int cli_buffers_write(wire_ctx *ctx, const cli_opts *o);

int cli_cmd_dump(wire_ctx *ctx, const cli_opts *o);
int cli_cmd_schema(wire_ctx *ctx, const cli_opts *o);

/* `wire gen c SCHEMA.fdl [-o DIR]` (gen.c); argv after "gen". */
int cli_cmd_gen(int argc, char **argv);

#endif
