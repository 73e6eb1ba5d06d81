/* wire.c - the `wire` command-line tool: decode, encode and dump Fory xlang
 * payloads (see README.md and spec/notation.md). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "notation.h"
#include "wire.h"

static const char usage[] =
    "usage: wire decode [--hex] [--ref] [--compatible] [--pretty] [--project] "
    "[--schema FILE.fdl]... [FILE]\n"
    "       wire encode [--hex] [--ref] [--compatible] [--schema FILE.fdl]... "
    "[FILE]\n"
    "       wire dump [--hex] [--ref] [--compatible] [--schema FILE.fdl]... "
    "[FILE]\n"
    "       wire conform [--testee CMD] [--junit FILE] [--expect-failures FILE]\n"
    "                    [--results-md FILE] [DIR]   (wire conform --help)\n"
    "       wire testee\n"
    "       wire version\n"
    "Reads FILE or stdin. --hex: hex text instead of raw bytes on the byte "
    "side.\n";

typedef struct {
  int hex, ref, compatible, pretty, project;
  const char *file;
  const char *schemas[64];
  int nschemas;
} opts;

static int error_exit(const char *cls, unsigned long long off,
                      const char *msg) {
  fprintf(stderr, "error: %s at byte %llu: %s\n", cls, off, msg);
  return 1;
}

static int ctx_error(wire_ctx *ctx, int32_t st) {
  return error_exit(wire_status_name(st), wire_ctx_error_offset(ctx),
                    *wire_ctx_error_message(ctx) ? wire_ctx_error_message(ctx)
                                                 : wire_status_message(st));
}

static uint8_t *read_all(const char *file, size_t *len) {
  FILE *f = file ? fopen(file, "rb") : stdin;
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  for (;;) {
    if (n == cap) buf = realloc(buf, cap *= 2);
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  if (file) fclose(f);
  *len = n;
  return buf;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Hex text to bytes in place; whitespace is ignored. Returns -1 on error. */
static long unhex(uint8_t *buf, size_t len, size_t *out) {
  size_t n = 0;
  int hi = -1;
  for (size_t i = 0; i < len; i++) {
    int c = buf[i];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    int v = hexval(c);
    if (v < 0) return (long)i;
    if (hi < 0) {
      hi = v;
    } else {
      buf[n++] = (uint8_t)(hi << 4 | v);
      hi = -1;
    }
  }
  if (hi >= 0) return (long)len;
  *out = n;
  return -1;
}

static int load_bytes(const opts *o, uint8_t **data, size_t *len) {
  *data = read_all(o->file, len);
  if (!*data) {
    fprintf(stderr, "error: io at byte 0: cannot read %s: %s\n",
            o->file ? o->file : "stdin", strerror(errno));
    return 1;
  }
  if (o->hex) {
    long bad = unhex(*data, *len, len);
    if (bad >= 0) {
      free(*data);
      return error_exit("notation", (unsigned long long)bad,
                        "input is not hex text");
    }
  }
  return 0;
}

static int cmd_decode(wire_ctx *ctx, const opts *o) {
  uint8_t *data;
  size_t len;
  if (load_bytes(o, &data, &len)) return 1;
  wire_doc *doc;
  int32_t st = wire_decode(ctx, data, len, &doc);
  if (st) {
    free(data);
    return ctx_error(ctx, st);
  }
  size_t flags = JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER |
                 (o->pretty ? JSON_INDENT(2) : JSON_COMPACT);
  if (o->project) {
    /* Read each root struct as the schema's version of its type. */
    for (size_t i = 0; i < wire_doc_root_count(doc); i++) {
      wire_node *root = wire_doc_root(doc, i), *proj;
      uint32_t ti, t = wire_node_type(root);
      if (t < WIRE_T_STRUCT || t > WIRE_T_NAMED_COMPATIBLE_STRUCT) continue;
      if (wire_node_user_type(doc, root, &ti) != WIRE_OK) continue;
      st = wire_struct_project(doc, root, ti, &proj);
      if (st) {
        wire_doc_free(doc);
        free(data);
        return ctx_error(ctx, st);
      }
      json_t *j = wire_notation_from_node(ctx, doc, proj);
      char *s = json_dumps(j, JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER |
                                  (o->pretty ? JSON_INDENT(2) : JSON_COMPACT));
      puts(s);
      free(s);
      json_decref(j);
    }
    wire_doc_free(doc);
    free(data);
    return 0;
  }
  for (size_t i = 0; i < wire_doc_root_count(doc); i++) {
    json_t *j = wire_notation_from_root(ctx, doc, i, o->ref);
    char *s = json_dumps(j, flags | JSON_ENCODE_ANY);
    puts(s);
    free(s);
    json_decref(j);
  }
  wire_doc_free(doc);
  free(data);
  return 0;
}

static int cmd_encode(wire_ctx *ctx, const opts *o) {
  size_t len;
  uint8_t *text = read_all(o->file, &len);
  if (!text) {
    fprintf(stderr, "error: io at byte 0: cannot read input\n");
    return 1;
  }
  wire_doc *doc = wire_doc_new(ctx);
  size_t pos = 0;
  int rc = 0;
  while (pos < len) {
    while (pos < len && (text[pos] == ' ' || text[pos] == '\n' ||
                         text[pos] == '\r' || text[pos] == '\t'))
      pos++;
    if (pos >= len) break;
    json_error_t jerr;
    json_t *j = json_loadb((const char *)text + pos, len - pos,
                           JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY |
                               JSON_ALLOW_NUL,
                           &jerr);
    if (!j) {
      rc = error_exit("notation", (unsigned long long)(pos + jerr.position),
                      jerr.text);
      break;
    }
    char msg[256] = "";
    int32_t st = wire_notation_add_root(ctx, doc, j, msg, sizeof msg);
    json_decref(j);
    if (st) {
      rc = error_exit(wire_status_name(st), (unsigned long long)pos,
                      *msg ? msg : wire_ctx_error_message(ctx));
      break;
    }
    pos += jerr.position;
  }
  if (!rc) {
    uint8_t *out;
    size_t olen;
    int32_t st = wire_encode(ctx, doc, &out, &olen);
    if (st) {
      rc = ctx_error(ctx, st);
    } else {
      if (o->hex) {
        for (size_t i = 0; i < olen; i++) printf("%02x", out[i]);
        printf("\n");
      } else {
        fwrite(out, 1, olen, stdout);
      }
      wire_ctx_free_bytes(ctx, out);
    }
  }
  wire_doc_free(doc);
  free(text);
  return rc;
}

typedef struct {
  const uint8_t *data;
} dump_state;

static void dump_line(void *user, uint64_t off, uint64_t len, uint32_t depth,
                      const char *text) {
  dump_state *s = user;
  char hex[40] = "";
  size_t shown = len > 8 ? 8 : (size_t)len;
  size_t w = 0;
  for (size_t i = 0; i < shown; i++)
    w += (size_t)snprintf(hex + w, sizeof hex - w, "%02x ", s->data[off + i]);
  if (len > 8) snprintf(hex + w, sizeof hex - w, "...");
  printf("%6llu  %-28s %*s%s\n", (unsigned long long)off, hex,
         (int)(2 * depth), "", text);
}

static int cmd_dump(wire_ctx *ctx, const opts *o) {
  uint8_t *data;
  size_t len;
  if (load_bytes(o, &data, &len)) return 1;
  printf("offset  bytes                        meaning\n");
  dump_state s = {data};
  int32_t st = wire_dump(ctx, data, len, dump_line, &s);
  int rc = 0;
  if (st) rc = ctx_error(ctx, st);
  else printf("%6zu  end (%zu bytes)\n", len, len);
  free(data);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "version") == 0) {
    printf("wire %s\n", wire_version_string());
    return 0;
  }
  if (strcmp(cmd, "conform") == 0) return wire_cmd_conform(argc - 2, argv + 2);
  if (strcmp(cmd, "testee") == 0) return wire_cmd_testee(argc - 2, argv + 2);
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage, stdout);
    return 0;
  }
  opts o = {0};
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--hex") == 0) o.hex = 1;
    else if (strcmp(a, "--ref") == 0) o.ref = 1;
    else if (strcmp(a, "--compatible") == 0) o.compatible = 1;
    else if (strcmp(a, "--pretty") == 0) o.pretty = 1;
    else if (strcmp(a, "--project") == 0) o.project = 1;
    else if (strcmp(a, "--schema") == 0) {
      if (++i >= argc) {
        fputs("error: arg at byte 0: --schema needs a file\n", stderr);
        return 2;
      }
      if (o.nschemas == 64) {
        fputs("error: arg at byte 0: too many --schema files\n", stderr);
        return 2;
      }
      o.schemas[o.nschemas++] = argv[i];
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "error: arg at byte 0: unknown option %s\n%s", a, usage);
      return 2;
    } else if (!o.file) {
      o.file = a;
    } else {
      fputs(usage, stderr);
      return 2;
    }
  }
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) return 1;
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, o.ref);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, o.compatible);
  for (int i = 0; i < o.nschemas; i++) {
    int32_t st = wire_schema_load_fdl_file(ctx, o.schemas[i]);
    if (st) {
      int rc = ctx_error(ctx, st);
      wire_ctx_free(ctx);
      return rc;
    }
  }
  int rc;
  if (strcmp(cmd, "decode") == 0) rc = cmd_decode(ctx, &o);
  else if (strcmp(cmd, "encode") == 0) rc = cmd_encode(ctx, &o);
  else if (strcmp(cmd, "dump") == 0) rc = cmd_dump(ctx, &o);
  else {
    fputs(usage, stderr);
    rc = 2;
  }
  wire_ctx_free(ctx);
  return rc;
}
