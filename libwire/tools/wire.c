/* wire.c - the `wire` command-line tool: decode, encode, dump and infer
 * schemas of Fory xlang payloads (`wire help`, README.md,
 * spec/notation.md). */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "conform.h"
#include "help.h"
#include "hex.h"
#include "wire.h"

/* ---- errors ----------------------------------------------------------------- */

int cli_error(const char *cls, unsigned long long off, const char *msg) {
  fflush(stdout); /* the error goes on its own line after what was printed */
  fprintf(stderr, "error: %s at byte %llu: %s\n", cls, off, msg);
  return 1;
}

int cli_ctx_error(wire_ctx *ctx, int32_t st) {
  const char *m = wire_ctx_error_message(ctx);
  return cli_error(wire_status_name(st), wire_ctx_error_offset(ctx),
                   *m ? m : wire_status_message(st));
}

void cli_hint(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("hint: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static int usage_error(const char *fmt, const char *arg) {
  fputs("error: arg at byte 0: ", stderr);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  return 2;
}

/* ---- input ------------------------------------------------------------------ */

uint8_t *cli_read_all(const char *file, size_t *len) {
  FILE *f = file ? fopen(file, "rb") : stdin;
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    if (n == cap) {
      uint8_t *g = realloc(buf, cap *= 2);
      if (!g) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = g;
    }
    size_t r = fread(buf + n, 1, cap - n, f);
    n += r;
    if (r == 0) break;
  }
  if (file) fclose(f);
  *len = n;
  return buf;
}

int cli_load_bytes(const cli_opts *o, uint8_t **data, size_t *len) {
  *data = cli_read_all(o->file, len);
  if (!*data) {
    fprintf(stderr, "error: io at byte 0: cannot read %s: %s\n",
            o->file ? o->file : "stdin", strerror(errno));
    return 1;
  }
  if (o->hex) {
    size_t bad;
    size_t n = hex_decode((const char *)*data, *len, *data, 1, &bad);
    if (n == (size_t)-1) {
      free(*data);
      *data = NULL;
      return cli_error("notation", (unsigned long long)bad,
                       bad == *len ? "input is hex text with an odd number of "
                                     "digits"
                                   : "input is not hex text");
    }
    *len = n;
  }
  return 0;
}

/* ---- mode detection ---------------------------------------------------------- */

/* 1 when the first value's type meta says compatible mode (a struct type
 * that only compatible payloads carry), else 0. */
int cli_guess_compatible(const uint8_t *d, size_t n) {
  if (n < 3 || (d[0] & ~2) != 0x01 || d[1] == 0xfd) return 0;
  return d[2] == WIRE_T_COMPATIBLE_STRUCT ||
         d[2] == WIRE_T_NAMED_COMPATIBLE_STRUCT;
}

static const char *mode_name(int compatible) {
  return compatible ? "compatible" : "same-schema";
}

typedef struct {
  int32_t status;
  unsigned long long off;
  char msg[300];
} saved_error;

static void save(wire_ctx *ctx, int32_t st, saved_error *e) {
  e->status = st;
  e->off = wire_ctx_error_offset(ctx);
  snprintf(e->msg, sizeof e->msg, "%s",
           *wire_ctx_error_message(ctx) ? wire_ctx_error_message(ctx)
                                        : wire_status_message(st));
}

int cli_decode_auto(wire_ctx *ctx, const cli_opts *o, const uint8_t *data,
                    size_t len, wire_doc **doc, int *compatible) {
  int first = o->mode >= 0 ? o->mode : cli_guess_compatible(data, len);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, first);
  int32_t st = wire_decode(ctx, data, len, doc);
  if (!st) {
    *compatible = first;
    return 0;
  }
  saved_error e1;
  save(ctx, st, &e1);
  /* The other mode, to say what the bytes suggest (and to use it when the
   * mode was not given). Errors that do not depend on the mode (a
   * truncated input) fail the same way there. */
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, !first);
  wire_doc *other = NULL;
  int32_t st2 = wire_decode(ctx, data, len, &other);
  if (!st2 && o->mode < 0) {
    *doc = other;
    *compatible = !first;
    return 0;
  }
  saved_error e2;
  if (st2) save(ctx, st2, &e2);
  wire_doc_free(other);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, first);
  cli_error(wire_status_name(e1.status), e1.off, e1.msg);
  if (!st2) {
    cli_hint("read in %s mode as %s asks; the bytes read in %s mode "
             "(drop %s)",
             mode_name(first), first ? "--compatible" : "--same-schema",
             mode_name(!first), first ? "--compatible" : "--same-schema");
  } else if (e2.status != e1.status || e2.off != e1.off ||
             strcmp(e1.msg, e2.msg) != 0) {
    cli_hint("read in %s mode (%s); in %s mode it fails too: %s at byte "
             "%llu: %s",
             mode_name(first),
             o->mode >= 0 ? (first ? "--compatible" : "--same-schema")
             : first      ? "the first value is a struct with a TypeDef"
                          : "no --compatible, and the first value has no "
                            "TypeDef",
             mode_name(!first), wire_status_name(e2.status), e2.off, e2.msg);
  }
  if (e1.status == WIRE_E_SCHEMA && strstr(e1.msg, "schema hash"))
    cli_hint("`wire schema --fingerprint TYPE --schema FILE` prints the "
             "fields libwire hashes for TYPE");
  if (e1.status == WIRE_E_SCHEMA && !o->nschemas)
    cli_hint("pass the writer's types with --schema FILE.fdl (`wire schema` "
             "infers them from a compatible payload)");
  return 1;
}

/* ---- decode --------------------------------------------------------------------- */

static int32_t to_stdout(void *user, const char *text, size_t len) {
  (void)user;
  return fwrite(text, 1, len, stdout) == len ? 0 : 1;
}

static int print_root(wire_ctx *ctx, wire_doc *doc, wire_node *n,
                      uint32_t flags) {
  int32_t st = wire_notation_write(ctx, doc, n, flags, to_stdout, NULL);
  if (st == WIRE_E_STATE) return 1; /* stdout closed (a pipe): stop quietly */
  if (st) return cli_ctx_error(ctx, st);
  fputc('\n', stdout);
  return 0;
}

static int cmd_decode(wire_ctx *ctx, const cli_opts *o) {
  uint8_t *data;
  size_t len;
  if (cli_load_bytes(o, &data, &len)) return 1;
  wire_doc *doc = NULL;
  int compatible;
  if (cli_decode_auto(ctx, o, data, len, &doc, &compatible) ||
      cli_buffers_check_used(ctx, o->buffers)) {
    wire_doc_free(doc);
    free(data);
    return 1;
  }
  uint32_t flags = (o->pretty ? WIRE_NOTATION_PRETTY : 0) |
                   (o->ref ? WIRE_NOTATION_UNTRACKED : 0) |
                   (o->plain ? WIRE_NOTATION_PLAIN : 0);
  int rc = 0;
  for (size_t i = 0; !rc && i < wire_doc_root_count(doc); i++) {
    wire_node *root = wire_doc_root(doc, i), *n = root;
    if (o->project) {
      /* each root struct as the schema's version of its type */
      uint32_t ti, t = wire_node_type(root);
      if (t < WIRE_T_STRUCT || t > WIRE_T_NAMED_COMPATIBLE_STRUCT) continue;
      if (wire_node_user_type(doc, root, &ti) != WIRE_OK) continue;
      /* a writer's field the reader's type has no place for is reported:
       * a warning, or with --strict an error (spec R-EVOLVE-8) */
      wire_ctx_set_option(ctx, WIRE_OPT_PROJECT_STRICT, 1);
      int32_t st = wire_struct_project(doc, root, ti, &n);
      if (st == WIRE_E_SCHEMA && !o->strict &&
          strstr(wire_ctx_error_message(ctx), "has no field of the reader's")) {
        fflush(stdout);
        fprintf(stderr, "warning: root %zu: %s (dropped; --strict makes this an "
                        "error)\n", i, wire_ctx_error_message(ctx));
        wire_ctx_set_option(ctx, WIRE_OPT_PROJECT_STRICT, 0);
        st = wire_struct_project(doc, root, ti, &n);
      }
      if (st) {
        rc = cli_ctx_error(ctx, st);
        break;
      }
      flags &= ~(uint32_t)WIRE_NOTATION_UNTRACKED;
    }
    rc = print_root(ctx, doc, n, flags);
  }
  wire_doc_free(doc);
  free(data);
  return rc;
}

int cli_only_struct(wire_ctx *ctx, uint32_t *type) {
  int found = 0;
  for (uint32_t i = 0; i < wire_schema_type_count(ctx); i++)
    if (wire_schema_type_kind(ctx, i) == WIRE_KIND_STRUCT) {
      *type = i;
      found++;
    }
  return found == 1 ? 0 : found == 0 ? 1 : 2;
}

/* ---- encode --------------------------------------------------------------------- */

/* The root type of --plain: --type, or the schema's only struct; -1 (and
 * a message) when there is none or several. */
static int64_t root_type(wire_ctx *ctx, const cli_opts *o) {
  if (o->type && !strcmp(o->type, "any")) return WIRE_BY_NAME;
  if (o->type) {
    uint32_t ti;
    if (wire_schema_find_type(ctx, o->type, strlen(o->type), &ti) != WIRE_OK) {
      cli_error("arg", 0, "--type names no type of the schema");
      return -1;
    }
    return ti;
  }
  uint32_t ti;
  int st = cli_only_struct(ctx, &ti);
  if (st == 0) return ti;
  cli_error("arg", 0, st == 1 ? "--plain needs a schema with a struct "
                                "(--schema FILE.fdl), or --type any"
                              : "--plain needs --type TYPE: the schema has "
                                "several structs");
  return -1;
}

static size_t skip_ws(const uint8_t *t, size_t pos, size_t len) {
  while (pos < len && (t[pos] == ' ' || t[pos] == '\n' || t[pos] == '\r' ||
                       t[pos] == '\t'))
    pos++;
  return pos;
}

/* A document that names a TypeDef was printed from a compatible payload. */
static int mentions_typedef(const uint8_t *t, size_t len) {
  static const char k[] = "\"typedef\"";
  for (size_t i = 0; i + sizeof k - 1 <= len; i++)
    if (t[i] == '"' && memcmp(t + i, k, sizeof k - 1) == 0) return 1;
  return 0;
}

static int write_payload(const cli_opts *o, const uint8_t *out, size_t olen) {
  if (o->hex) {
    static const char hx[] = "0123456789abcdef";
    for (size_t i = 0; i < olen; i++) {
      putchar(hx[out[i] >> 4]);
      putchar(hx[out[i] & 15]);
    }
    putchar('\n');
  } else {
    fwrite(out, 1, olen, stdout);
  }
  return 0;
}

static int cmd_encode(wire_ctx *ctx, const cli_opts *o) {
  size_t len;
  uint8_t *text = cli_read_all(o->file, &len);
  if (!text) {
    fprintf(stderr, "error: io at byte 0: cannot read %s: %s\n",
            o->file ? o->file : "stdin", strerror(errno));
    return 1;
  }
  int64_t type = WIRE_BY_NAME;
  if (o->plain && (type = root_type(ctx, o)) < 0) {
    free(text);
    return 1;
  }
  if (o->mode < 0)
    wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE,
                        !o->plain && mentions_typedef(text, len));
  uint32_t flags = o->strict ? 0 : WIRE_NOTATION_REFIT;
  wire_doc *doc = wire_doc_new(ctx);
  int rc = doc ? 0 : cli_ctx_error(ctx, WIRE_E_NOMEM);
  size_t pos = 0;
  while (!rc && (pos = skip_ws(text, pos, len)) < len) {
    wire_node *n;
    size_t used;
    int32_t st =
        o->plain ? wire_notation_parse_plain(ctx, doc, (const char *)text + pos,
                                             len - pos, (uint32_t)type, &n, &used)
                 : wire_notation_parse(ctx, doc, (const char *)text + pos,
                                       len - pos, flags, &n, &used);
    if (!st) st = wire_doc_add_root(doc, n);
    if (st) {
      const char *m = wire_ctx_error_message(ctx);
      rc = cli_error(wire_status_name(st),
                     (unsigned long long)(pos + wire_ctx_error_offset(ctx)),
                     *m ? m : wire_status_message(st));
      break;
    }
    pos += used;
  }
  if (!rc && wire_doc_root_count(doc) == 0) {
    /* no value in the input: no payload (the library refuses to write an
     * empty one, R-PAYLOAD-1) */
  } else if (!rc) {
    uint8_t *out;
    size_t olen;
    int32_t st = wire_encode(ctx, doc, &out, &olen);
    if (st) {
      rc = cli_ctx_error(ctx, st);
      if (o->strict && st == WIRE_E_ENCODE)
        cli_hint("without --strict, recorded wire choices that do not fit "
                 "are chosen again");
    } else {
      rc = cli_buffers_write(ctx, o);
      if (!rc) rc = write_payload(o, out, olen);
      wire_ctx_free_bytes(ctx, out);
    }
  }
  wire_doc_free(doc);
  free(text);
  return rc;
}

/* ---- options ----------------------------------------------------------------------- */

static int parse_color(const char *v, cli_opts *o) {
  if (strcmp(v, "auto") == 0) o->color = -1;
  else if (strcmp(v, "always") == 0) o->color = 1;
  else if (strcmp(v, "never") == 0) o->color = 0;
  else return usage_error("--color takes auto, always or never, not %s", v);
  return 0;
}

/* Which options each command takes. */
static int allowed(const char *cmd, const char *opt) {
  static const char *const common[] = {"--hex", "--schema", "-I", NULL};
  static const char *const decoding[] = {"--compatible", "--same-schema",
                                         "--ref", "--peer", NULL};
  if (!strcmp(opt, "--buffers")) return strcmp(cmd, "gen") != 0;
  if (!strcmp(opt, "--buffer"))
    return !strcmp(cmd, "decode") || !strcmp(cmd, "dump") ||
           !strcmp(cmd, "schema");
  for (int i = 0; common[i]; i++)
    if (strcmp(opt, common[i]) == 0) return 1;
  int is_schema = strcmp(cmd, "schema") == 0;
  for (int i = 0; decoding[i]; i++)
    if (strcmp(opt, decoding[i]) == 0)
      return !is_schema || !strcmp(opt, "--peer");
  if (strcmp(cmd, "decode") == 0)
    return !strcmp(opt, "--plain") || !strcmp(opt, "--pretty") ||
           !strcmp(opt, "--project") || !strcmp(opt, "--strict");
  if (strcmp(cmd, "encode") == 0)
    return !strcmp(opt, "--plain") || !strcmp(opt, "--type") ||
           !strcmp(opt, "--strict") || !strcmp(opt, "--oob");
  if (strcmp(cmd, "dump") == 0) return !strcmp(opt, "--color");
  if (is_schema) return !strcmp(opt, "--fingerprint");
  return 0;
}

static int parse_args(int argc, char **argv, cli_opts *o) {
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *eq = strchr(a, '=');
    char name[32];
    size_t nl = eq && a[0] == '-' ? (size_t)(eq - a) : strlen(a);
    if (a[0] == '-' && a[1]) {
      if (nl >= sizeof name) return usage_error("unknown option %s", a);
      memcpy(name, a, nl);
      name[nl] = 0;
      if (!allowed(o->cmd, name)) {
        fprintf(stderr, "error: arg at byte 0: wire %s has no option %s\n",
                o->cmd, a);
        fprintf(stderr, "hint: `wire help %s` lists its options\n", o->cmd);
        return 2;
      }
      const char *val = eq ? eq + 1 : NULL;
      int needs = !strcmp(name, "--schema") || !strcmp(name, "--type") ||
                  !strcmp(name, "--fingerprint") || !strcmp(name, "--color") ||
                  !strcmp(name, "--peer") || !strcmp(name, "-I") ||
                  !strcmp(name, "--buffer") || !strcmp(name, "--buffers");
      if (needs && !val) {
        if (++i >= argc) return usage_error("%s needs a value", name);
        val = argv[i];
      } else if (!needs && val) {
        return usage_error("%s takes no value", name);
      }
      if (!strcmp(name, "--hex")) o->hex = 1;
      else if (!strcmp(name, "--ref")) o->ref = 1;
      else if (!strcmp(name, "--compatible")) o->mode = 1;
      else if (!strcmp(name, "--same-schema")) o->mode = 0;
      else if (!strcmp(name, "--pretty")) o->pretty = 1;
      else if (!strcmp(name, "--project")) o->project = 1;
      else if (!strcmp(name, "--plain")) o->plain = 1;
      else if (!strcmp(name, "--strict")) o->strict = 1;
      else if (!strcmp(name, "--type")) o->type = val;
      else if (!strcmp(name, "--fingerprint")) o->fingerprint = val;
      else if (!strcmp(name, "--oob")) o->oob = 1;
      else if (!strcmp(name, "--buffers")) o->buffers_prefix = val;
      else if (!strcmp(name, "--buffer")) {
        if (o->nbuffer_files == CLI_MAX_SCHEMAS)
          return usage_error("too many --buffer files%s", "");
        o->buffer_files[o->nbuffer_files++] = val;
      }
      else if (!strcmp(name, "--peer")) {
        if (!strcmp(val, "java")) o->peer = WIRE_PEER_JAVA;
        else if (!strcmp(val, "pyfory")) o->peer = WIRE_PEER_PYFORY;
        else if (!strcmp(val, "go")) o->peer = WIRE_PEER_GO;
        else return usage_error("--peer takes java, pyfory or go, not %s", val);
      } else if (!strcmp(name, "--color")) {
        if (parse_color(val, o)) return 2;
      } else if (!strcmp(name, "-I")) {
        if (o->nimport_dirs == CLI_MAX_SCHEMAS)
          return usage_error("too many -I directories%s", "");
        o->import_dirs[o->nimport_dirs++] = val;
      } else if (!strcmp(name, "--schema")) {
        if (o->nschemas == CLI_MAX_SCHEMAS)
          return usage_error("too many --schema files%s", "");
        o->schemas[o->nschemas++] = val;
      }
    } else if (!o->file) {
      o->file = a;
    } else {
      return usage_error("one input file only (%s is the second)", a);
    }
  }
  if (o->project && !o->nschemas)
    return usage_error("--project needs --schema: it reads structs as the "
                       "schema's version of their type%s", "");
  if (o->type && !o->plain) return usage_error("--type goes with --plain%s", "");
  if (!strcmp(o->cmd, "encode") && o->plain && !o->nschemas && o->type &&
      strcmp(o->type, "any"))
    return usage_error("--type needs --schema%s", "");
  if (o->fingerprint && !o->nschemas)
    return usage_error("--fingerprint needs --schema%s", "");
  if (o->fingerprint && o->file)
    return usage_error("--fingerprint takes no payload (%s)", o->file);
  return 0;
}

static int wants_help(int argc, char **argv) {
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
  return 0;
}

static int cmd_help(int argc, char **argv) {
  if (argc < 3) {
    help_overview(stdout);
    return 0;
  }
  if (!strcmp(argv[2], "--man")) {
    help_man(stdout);
    return 0;
  }
  if (!strcmp(argv[2], "conform")) {
    char *args[] = {(char *)"--help", NULL};
    return cmd_conform(1, args);
  }
  if (help_command(stdout, argv[2]) < 0) {
    fprintf(stderr, "error: arg at byte 0: no command %s\n", argv[2]);
    help_usage(stderr);
    return 2;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    help_usage(stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "version") || !strcmp(cmd, "--version") ||
      !strcmp(cmd, "-V")) {
    printf("wire %s\n", wire_version_string());
    return 0;
  }
  if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
    return cmd_help(argc, argv);
  if (!strcmp(cmd, "conform")) return cmd_conform(argc - 2, argv + 2);
  if (!strcmp(cmd, "testee")) return cmd_testee(argc - 2, argv + 2);
  if (!strcmp(cmd, "gen") && !wants_help(argc, argv))
    return cli_cmd_gen(argc - 2, argv + 2);
  if (!help_known(cmd)) {
    fprintf(stderr, "error: arg at byte 0: no command %s\n", cmd);
    help_usage(stderr);
    return 2;
  }
  if (wants_help(argc, argv)) {
    help_command(stdout, cmd);
    return 0;
  }
  cli_opts o;
  memset(&o, 0, sizeof o);
  o.cmd = cmd;
  o.mode = -1;
  o.color = -1;
  int rc = parse_args(argc, argv, &o);
  if (rc) return rc;
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) return 1;
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, o.ref);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, o.mode == 1);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, o.peer);
  for (int i = 0; i < o.nimport_dirs; i++)
    if (wire_schema_add_import_dir(ctx, o.import_dirs[i]) != WIRE_OK) {
      wire_ctx_free(ctx);
      return usage_error("-I %s: cannot add the directory", o.import_dirs[i]);
    }
  for (int i = 0; i < o.nschemas; i++) {
    int32_t st = wire_schema_load_fdl_file(ctx, o.schemas[i]);
    if (st) {
      rc = cli_ctx_error(ctx, st);
      wire_ctx_free(ctx);
      return rc;
    }
    /* what foryc reads otherwise (spec R-FDL-2) */
    for (size_t k = 0; k < wire_schema_warning_count(ctx); k++)
      fprintf(stderr, "warning: %s\n", wire_schema_warning(ctx, k));
  }
  wire_ctx_set_option(ctx, WIRE_OPT_OUT_OF_BAND, o.oob);
  cli_buffers bufs;
  memset(&bufs, 0, sizeof bufs);
  o.buffers = &bufs;
  if (strcmp(cmd, "encode") != 0 && cli_buffers_load(ctx, &o, &bufs)) rc = 1;
  else if (!strcmp(cmd, "decode")) rc = cmd_decode(ctx, &o);
  else if (!strcmp(cmd, "encode")) rc = cmd_encode(ctx, &o);
  else if (!strcmp(cmd, "dump")) rc = cli_cmd_dump(ctx, &o);
  else rc = cli_cmd_schema(ctx, &o);
  if (strcmp(cmd, "encode") != 0) cli_buffers_free(&bufs);
  wire_ctx_free(ctx);
  return rc;
}
