/* help.c - the text of `wire help`, `wire COMMAND --help` and the man page
 * wire.1 (`wire help --man`), from one table. */

#include "help.h"

#include <stdio.h>
#include <string.h>

#include "wire.h"

typedef struct {
  const char *flag; /* "--hex" */
  const char *arg;  /* "FILE", or NULL */
  const char *text; /* one line or a few, pre-wrapped at 76 columns */
} help_opt;

typedef struct {
  const char *name;
  const char *synopsis;
  const char *summary;
  const char *text; /* paragraphs separated by blank lines */
  const help_opt *opts;
  const char *examples; /* lines; a line starting with "$ " is a command */
} help_cmd;

#define OPT_HEX {"--hex", NULL, "the byte side is hex text (whitespace ignored), not raw bytes"}
#define OPT_SCHEMA                                                          \
  {"--schema", "FILE.fdl", "load the user types of an FDL schema (repeatable; imports\n" \
                           "are resolved against the file's directory)"}, \
  {"-I", "DIR", "also look for imported FDL files in DIR (repeatable, in order;\n" \
                "as foryc -I); .proto and .fbs imports are unsupported"}
#define OPT_REF                                                             \
  {"--ref", NULL, "reference tracking on (as Fory(ref=True)): values written with\n" \
                  "the not-null flag print \"tracked\": false"}
#define OPT_PEER                                                            \
  {"--peer", "RUNTIME", "java, pyfory or go: where the runtimes' same-schema bytes\n" \
                        "differ (schema hashes, type meta of named struct fields),\n" \
                        "read and write them as that runtime does"}
#define OPT_BUFFERS_IN                                                      \
  {"--buffer", "FILE", "an out-of-band buffer of a payload with header 03 (repeatable,\n" \
                       "in order; spec 1.12.1)"}, \
  {"--buffers", "PREFIX", "the out-of-band buffers PREFIX.0, PREFIX.1, ... up to the\n" \
                          "first missing file (after the --buffer files)"}
#define OPT_MODE                                                            \
  {"--compatible", NULL, "read or write in compatible mode (schema evolution, TypeDefs)"}, \
  {"--same-schema", NULL, "read or write in same-schema mode (schema hashes)"}

static const help_opt decode_opts[] = {
    OPT_HEX, OPT_SCHEMA, OPT_MODE, OPT_REF, OPT_PEER, OPT_BUFFERS_IN,
    {"--plain", NULL, "plain JSON instead of the notation: structs as objects keyed by\n"
                      "field name, lists as arrays, numbers as numbers (lossy)"},
    {"--pretty", NULL, "indent the JSON by two spaces"},
    {"--project", NULL, "read each root struct as the schema's version of its type\n"
                        "(fields matched by id or name, missing ones defaulted);\n"
                        "needs --schema"},
    {"--strict", NULL, "with --project: a writer's field the schema's type has no\n"
                       "field for is an error, not a warning"},
    {NULL, NULL, NULL}};

static const help_opt encode_opts[] = {
    OPT_HEX, OPT_SCHEMA, OPT_MODE, OPT_REF, OPT_PEER,
    {"--plain", NULL, "read plain JSON (as `decode --plain` prints it); the wire types\n"
                      "come from the schema (--schema, and --type for the root)"},
    {"--type", "TYPE", "with --plain: the schema type of each root (default: the\n"
                       "schema's only struct); `any`: no schema type, values as the\n"
                       "Fory Java runtime writes JSON-like data (long, double, string,\n"
                       "list, map)"},
    {"--strict", NULL, "fail when a recorded wire choice (list header, map chunks,\n"
                       "string encoding) no longer fits its edited value, instead of\n"
                       "choosing again"},
    {"--oob", NULL, "roots announce out-of-band buffers (header 03) and binaries and\n"
                    "dense arrays not recorded otherwise go out of band"},
    {"--buffers", "PREFIX", "write the out-of-band buffers to PREFIX.0, PREFIX.1, ...\n"
                            "(needed when the payload has any)"},
    {NULL, NULL, NULL}};

static const help_opt dump_opts[] = {
    OPT_HEX, OPT_SCHEMA, OPT_MODE, OPT_REF, OPT_PEER, OPT_BUFFERS_IN,
    {"--color", "WHEN", "colour: auto (the default: when stdout is a terminal and\n"
                        "NO_COLOR is unset), always or never"},
    {NULL, NULL, NULL}};

static const help_opt schema_opts[] = {
    OPT_HEX, OPT_SCHEMA, OPT_PEER, OPT_BUFFERS_IN,
    {"--fingerprint", "TYPE", "print the fingerprint string and schema hash libwire computes\n"
                              "for struct TYPE of the --schema files"},
    {NULL, NULL, NULL}};

static const help_opt none_opts[] = {{NULL, NULL, NULL}};

static const help_cmd commands[] = {
    {"decode", "[options] [FILE]",
     "print a payload's values as JSON",
     "Reads a payload (FILE, or stdin) and prints each root value as one JSON\n"
     "document per line in the value notation (spec/notation.md): every wire\n"
     "type and wire choice is kept, so `wire decode | wire encode` gives the\n"
     "same bytes back. With --plain it prints natural JSON instead.\n"
     "\n"
     "The mode (same-schema or compatible) is taken from the bytes unless\n"
     "--compatible or --same-schema says it: a struct with a TypeDef means\n"
     "compatible mode. When the payload does not read in that mode but does in\n"
     "the other, the other is used; when neither works the error says which\n"
     "mode was used and what the other one gives.\n"
     "\n"
     "A payload with header 03 keeps binaries and arrays out of band: give its\n"
     "buffers with --buffer or --buffers (buffers left unread are an error).\n"
     "The notation shows their bytes inline, with \"band\": \"out\".",
     decode_opts,
     "$ wire decode --plain order.bin | jq .customer.name\n"
     "$ wire decode --buffers blob order.bin     # blob.0, blob.1, ...\n"
     "$ echo 01ff070a | wire decode --hex\n"
     "{\"varint64\":\"5\"}"},
    {"encode", "[options] [FILE]",
     "write JSON as a payload",
     "Reads JSON documents (FILE, or stdin; one root value each, separated by\n"
     "whitespace) and writes the payload to stdout. Wire choices recorded by\n"
     "`wire decode` are reproduced; where a recorded choice no longer fits an\n"
     "edited value it is chosen again as the Fory Java runtime would (unless\n"
     "--strict). A document with a \"typedef\" selects compatible mode.\n"
     "\n"
     "With --plain the documents are plain JSON, read as values of a schema\n"
     "type: fields by name, missing fields get their defaults.\n"
     "\n"
     "Out-of-band buffers (roots with \"oob\", or --oob) go to the files\n"
     "--buffers PREFIX names.",
     encode_opts,
     "$ echo '{\"string\": \"hi\"}' | wire encode --hex\n"
     "01ff15086869\n"
     "$ wire decode order.bin > order.json; edit order.json; wire encode order.json > new.bin\n"
     "$ echo '{\"id\": 7}' | wire encode --plain --schema shop.fdl --type shop.Order\n"
     "$ echo '{\"binary\": \"abcd\"}' | wire encode --hex --oob --buffers blob\n"
     "03ff2900"},
    {"dump", "[options] [FILE]",
     "list a payload byte by byte",
     "Prints every byte range of a payload with its offset, its bytes and what\n"
     "it means: headers, reference flags, type ids, meta strings, TypeDefs and\n"
     "their fields, values (decimals, dates and timestamps also in readable\n"
     "form; enum values by name with a schema). When the payload is invalid the\n"
     "listing stops at the bad byte and the error follows on its own line.",
     dump_opts,
     "$ echo 01ff1502 | wire dump --hex"},
    {"schema", "[options] FILE | --fingerprint TYPE --schema F",
     "infer FDL from a payload, or print a fingerprint",
     "Prints an FDL schema for the types of a compatible-mode payload, inferred\n"
     "from its TypeDefs: each struct with its registration (id or name), its\n"
     "fields (names or tag ids, types, optional, ref) and the wire_* options\n"
     "that make libwire write the same TypeDefs. `wire decode --schema` of the\n"
     "result reads the payload. Enum and union types are named after the field\n"
     "that holds them (TypeDefs do not name them). A same-schema payload has no\n"
     "TypeDefs: then the command says what the bytes show and exits with 1.\n"
     "\n"
     "With --fingerprint it prints the fingerprint libwire hashes into the\n"
     "schema hash of a struct - compare it with the writer's when a schema hash\n"
     "does not match.",
     schema_opts,
     "$ wire schema order.bin > order.fdl && wire decode --schema order.fdl order.bin\n"
     "$ wire schema --fingerprint shop.Order --schema shop.fdl"},
    {"gen", "c SCHEMA.fdl [-o DIR] [--prefix NAME]",
     "generate C code for a schema",
     "Writes DIR/<name>.wire.h and DIR/<name>.wire.c (DIR: the current\n"
     "directory) for SCHEMA.fdl and the files it imports: C structs for the\n"
     "messages, enum constants, <package>_register (registers the types and\n"
     "binds each message to its struct, wire_mem_* in wire.h) and per message\n"
     "<Type>_encode and <Type>_decode. The header refuses to compile against\n"
     "another libwire version than the one that generated it. C names start\n"
     "with NAME_ (default: the package, '.' as '_').",
     none_opts,
     "$ wire gen c shop.fdl -o gen && cc -c gen/shop.wire.c -Igen"},
    {"conform", "[options] [DIR]",
     "run the conformance suite",
     "Runs the conformance suite (fixtures/) against libwire or a testee\n"
     "speaking conformance/PROTOCOL.md; `wire conform --help` lists its\n"
     "options.",
     none_opts, NULL},
    {"testee", "[--root DIR]",
     "serve the conformance testee protocol",
     "Speaks conformance/PROTOCOL.md on stdin and stdout with libwire behind it.",
     none_opts, NULL},
    {"version", "", "print the version", "Prints `wire VERSION` (also --version).",
     none_opts, NULL},
    {"help", "[COMMAND | --man]", "print help",
     "Prints this overview, the help of one command (also `wire COMMAND\n"
     "--help`), or with --man the manual page in roff.",
     none_opts, NULL},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const char overview[] =
    "wire - decode, encode, dump and check Apache Fory xlang payloads\n";

static const char environment[] =
    "NO_COLOR: when set, `dump --color=auto` prints no colour.";

static const char exit_status[] =
    "0 on success; 1 when the input is invalid or an operation fails (the\n"
    "error is printed on stderr as `error: CLASS at byte N: MESSAGE`,\n"
    "sometimes followed by `hint:` lines); 2 on a usage error.";

static const help_cmd *find(const char *name) {
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (strcmp(commands[i].name, name) == 0) return &commands[i];
  return NULL;
}

int help_known(const char *command) { return find(command) != NULL; }

void help_usage(FILE *f) {
  fputs("usage:", f);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "%s wire %s%s%s\n", i ? "      " : "", commands[i].name,
            *commands[i].synopsis ? " " : "", commands[i].synopsis);
  fputs("Run `wire help COMMAND` for the options of a command.\n", f);
}

static void print_opts(FILE *f, const help_opt *o) {
  if (!o[0].flag) return;
  fputs("\noptions:\n", f);
  for (; o->flag; o++) {
    char head[40];
    snprintf(head, sizeof head, "%s%s%s", o->flag, o->arg ? " " : "",
             o->arg ? o->arg : "");
    const char *t = o->text;
    int first = 1;
    while (*t) {
      const char *nl = strchr(t, '\n');
      size_t n = nl ? (size_t)(nl - t) : strlen(t);
      fprintf(f, "  %-22s %.*s\n", first ? head : "", (int)n, t);
      first = 0;
      t += n + (nl != NULL);
    }
  }
}

void help_overview(FILE *f) {
  fputs(overview, f);
  fputc('\n', f);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(f, "  wire %-9s %s\n", commands[i].name, commands[i].summary);
  fputs("\nRun `wire help COMMAND` (or `wire COMMAND --help`) for a command's "
        "options,\n`wire help --man` for the manual page.\n",
        f);
}

int help_command(FILE *f, const char *command) {
  const help_cmd *c = find(command);
  if (!c) return -1;
  fprintf(f, "usage: wire %s%s%s\n\n%s\n", c->name, *c->synopsis ? " " : "",
          c->synopsis, c->text);
  print_opts(f, c->opts);
  if (c->examples) {
    fputs("\nexamples:\n", f);
    const char *t = c->examples;
    while (*t) {
      const char *nl = strchr(t, '\n');
      size_t n = nl ? (size_t)(nl - t) : strlen(t);
      fprintf(f, "  %.*s\n", (int)n, t);
      t += n + (nl != NULL);
    }
  }
  return 0;
}

/* ---- roff ---------------------------------------------------------------- */

/* Text for roff: backslashes and dashes escaped, a leading '.' or '\''
 * protected; each input line break becomes a space (roff fills). */
static void roff_text(FILE *f, const char *t, size_t n, int fill) {
  int bol = 1;
  for (size_t i = 0; i < n; i++) {
    char c = t[i];
    if (bol && (c == '.' || c == '\'')) fputs("\\&", f);
    bol = 0;
    if (c == '\\') fputs("\\e", f);
    else if (c == '-') fputs("\\-", f);
    else if (c == '\n') {
      fputc(fill ? ' ' : '\n', f);
      bol = !fill;
    } else fputc(c, f);
  }
}

static void roff_paragraphs(FILE *f, const char *t) {
  while (*t) {
    const char *end = strstr(t, "\n\n");
    size_t n = end ? (size_t)(end - t) : strlen(t);
    fputs(".PP\n", f);
    roff_text(f, t, n, 1);
    fputc('\n', f);
    t += n + (end ? 2 : 0);
  }
}

void help_man(FILE *f) {
  fprintf(f, ".TH WIRE 1 \"\" \"libwire %s\" \"User Commands\"\n",
          wire_version_string());
  fputs(".SH NAME\nwire \\- decode, encode, dump and check Apache Fory xlang "
        "payloads\n.SH SYNOPSIS\n",
        f);
  for (size_t i = 0; i < NCOMMANDS; i++) {
    fprintf(f, ".B wire %s\n", commands[i].name);
    if (*commands[i].synopsis) {
      roff_text(f, commands[i].synopsis, strlen(commands[i].synopsis), 1);
      fputc('\n', f);
    }
    fputs(".br\n", f);
  }
  fputs(".SH DESCRIPTION\n", f);
  roff_paragraphs(f,
                  "wire reads and writes the binary xlang format of Apache "
                  "Fory with libwire. Payloads\nare read from FILE or stdin "
                  "and written to stdout; errors go to stderr.");
  fputs(".SH COMMANDS\n", f);
  for (size_t i = 0; i < NCOMMANDS; i++) {
    const help_cmd *c = &commands[i];
    fprintf(f, ".SS \"wire %s ", c->name);
    roff_text(f, c->synopsis, strlen(c->synopsis), 1);
    fputs("\"\n", f);
    roff_paragraphs(f, c->text);
    for (const help_opt *o = c->opts; o->flag; o++) {
      fputs(".TP\n.B ", f);
      roff_text(f, o->flag, strlen(o->flag), 1);
      if (o->arg) fprintf(f, " \\fI%s\\fR", o->arg);
      fputc('\n', f);
      roff_text(f, o->text, strlen(o->text), 1);
      fputc('\n', f);
    }
    if (c->examples) {
      fputs(".PP\nExamples:\n.PP\n.nf\n.RS\n", f);
      roff_text(f, c->examples, strlen(c->examples), 0);
      fputs("\n.RE\n.fi\n", f);
    }
  }
  fputs(".SH EXIT STATUS\n", f);
  roff_text(f, exit_status, strlen(exit_status), 1);
  fputs("\n.SH ENVIRONMENT\n", f);
  roff_text(f, environment, strlen(environment), 1);
  fputs("\n.SH SEE ALSO\nspec/notation.md (the value notation), spec/06-fdl.md "
        "(FDL), conformance/PROTOCOL.md.\n",
        f);
}
