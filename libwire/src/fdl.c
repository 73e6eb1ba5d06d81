/* fdl.c - Fory IDL (FDL) schemas parsed at run time into the type registry.
 *
 * Exported functions (declared in wire.h):
 *
 *   Parses one FDL source held in memory and registers its types on the
 *   context. `name` names the source in error messages and is the path that
 *   `import` statements are resolved against (relative to its directory, or
 *   to the current directory if it has none); NULL means "<input>".
 *   WIRE_API int32_t wire_schema_load_fdl(wire_ctx *ctx, const char *text,
 *                                         size_t len, const char *name);
 *
 *   Reads an FDL file and, recursively, the files it imports (paths relative
 *   to the importing file's directory; each file read once per call; import
 *   cycles are errors) and registers their types on the context.
 *   WIRE_API int32_t wire_schema_load_fdl_file(wire_ctx *ctx,
 *                                              const char *path);
 *
 * Both return WIRE_OK or an error recorded on the context. Errors in a
 * schema have the message "<file>:<line>:<column>: <what>" and the byte
 * offset in that file: WIRE_E_IDL for what the fory-compiler 1.7.7 parser
 * rejects (syntax), what its validator rejects (unknown types, duplicate
 * field numbers, ...), unreadable imports, import cycles and conflicts with
 * types already registered; WIRE_E_UNSUPPORTED for imports of .proto/.fbs
 * schemas. WIRE_E_ARG: bad arguments or an unreadable top-level file.
 * WIRE_E_NOMEM. On error the registry is left as it was (except when the
 * final wire__reg_finish fails on types registered before).
 *
 * The language accepted is the one of fory-compiler 1.7.7 (the `foryc`
 * command: fory_compiler/frontend/fdl/{lexer,parser}.py and
 * fory_compiler/ir/validator.py), which is the reference here:
 *  - top level, in any order: `package a.b [alias c];`, `option n = v;`,
 *    `import "path";`, enum, message, union and service definitions;
 *  - type ids: `[id=N]`; without one a type gets the id foryc generates,
 *    MurmurHash3_x86_32(utf8("<package or package alias>.<Outer.Inner>"))
 *    (or of its [alias=...]), unless the file says
 *    `option enable_auto_type_id = false;` - then it is registered by name:
 *    namespace "<package or 'default'>[.<Outer path>]", name = simple name,
 *    as the generated Java and Python registration code does;
 *  - field numbers are TAG_IDs: the generated code annotates every field
 *    with @ForyField(id = N) (Java) / pyfory.field(id=N) (Python);
 *  - scalar type names and encodings map to the wire type ids as the
 *    generators' type-id tables do (generators/go.py, generators/java.py
 *    get_type_id_expr and get_scalar_type_id_expr); see `prims` below;
 *  - nullable: `optional` or [nullable=true]; fields of message type and
 *    `any` fields are always nullable (foryc's validator and generated
 *    code), and `optional` on a message field is an error, as in foryc;
 *    ref: `ref T`, `list<ref T>`, `repeated ref T`, `map<K, ref V>`,
 *    [ref=true]; ref(weak=..., thread_safe=...) only steers generated code;
 *  - enum values are the numbers written; union case ids likewise.
 * Beyond foryc 1.7.7: a file imported along several paths is loaded once
 * (foryc reports its types as duplicates); nested collections such as
 * list<list<T>> (foryc: C++ output only); dotted names relative to an
 * enclosing message; a file whose types an earlier call registered in the
 * same way is not registered again (two schemas sharing an import).
 *
 * Pipeline: lex (whole file into tokens) -> recursive-descent parse into a
 * temporary AST (an arena released at the end) -> imports, depth-first ->
 * declaration checks -> type registration (dependencies first) -> fields,
 * enum values and union cases with names resolved to registry indexes ->
 * wire__reg_finish. */
#include "schema.h"

#include <stdio.h>

/* Status of errors in the schema text. Syntax (what foryc's parser
 * rejects) and consistency (what its validator rejects) are both
 * WIRE_E_IDL; the message tells which. */
#define FDL_E_SYNTAX WIRE_E_IDL
#define FDL_E_SCHEMA WIRE_E_IDL

#define TRY(x)                                                                \
  do {                                                                        \
    int32_t st_ = (x);                                                        \
    if (st_) return st_;                                                      \
  } while (0)

/* Bounds that keep the recursion of the parser and the loader shallow. */
#define FDL_MAX_NESTING 64
#define FDL_MAX_IMPORT_DEPTH 64
#define FDL_MAX_FIELD_TAG ((INT64_C(1) << 29) - 1)

/* ---- tokens ------------------------------------------------------------ */

enum {
  TK_EOF, TK_IDENT, TK_INT, TK_STRING,
  /* punctuation, in the order of punct_chars */
  TK_LBRACE, TK_RBRACE, TK_LBRACKET, TK_RBRACKET, TK_LPAREN, TK_RPAREN,
  TK_LANGLE, TK_RANGLE, TK_SEMI, TK_COMMA, TK_EQUALS, TK_DOT,
  /* keywords, in the order of kw_names */
  TK_PACKAGE, TK_IMPORT, TK_PUBLIC, TK_WEAK, TK_MESSAGE, TK_ENUM, TK_UNION,
  TK_OPTIONAL, TK_REF, TK_REPEATED, TK_LIST, TK_ARRAY, TK_MAP, TK_OPTION,
  TK_TRUE, TK_FALSE, TK_RESERVED, TK_TO, TK_MAX, TK_SERVICE, TK_RPC,
  TK_RETURNS, TK_STREAM, TK_COUNT
};

static const char punct_chars[] = "{}[]()<>;,=.";

static const char *const kw_names[] = {
    "package", "import", "public", "weak", "message", "enum", "union",
    "optional", "ref", "repeated", "list", "array", "map", "option",
    "true", "false", "reserved", "to", "max", "service", "rpc",
    "returns", "stream"};

typedef struct {
  uint8_t t;
  bool big;       /* TK_INT outside int64 */
  size_t off, len; /* source bytes */
  int64_t ival;   /* TK_INT */
  const char *s;  /* TK_STRING: the decoded text (arena) */
  size_t slen;
} fdl_tok;

/* ---- AST --------------------------------------------------------------- */

typedef struct fdl_file fdl_file;
typedef struct fdl_type fdl_type;
typedef struct fdl_texpr fdl_texpr;

/* Type expressions. */
enum { X_PRIM, X_NAMED, X_LIST, X_ARRAY, X_MAP };
enum { ENC_NONE, ENC_VARINT, ENC_FIXED, ENC_TAGGED };

struct fdl_texpr {
  uint8_t form;     /* X_* */
  uint8_t prim;     /* X_PRIM: index in prims */
  uint8_t enc;      /* X_PRIM: ENC_* */
  bool optional;    /* as a list element / map value: `optional T` */
  bool ref;         /* as a list element / map value: `ref T` */
  size_t off;
  const char *name; /* X_NAMED: as written, dotted */
  size_t nlen;
  fdl_type *target; /* X_NAMED, once resolved */
  fdl_texpr *elem, *key, *value;
};

typedef struct fdl_field fdl_field;
struct fdl_field { /* message field or union case */
  fdl_field *next;
  const char *name;
  size_t nlen;
  size_t off, name_off, num_off;
  int64_t number;
  fdl_texpr *type;
  bool optional, ref; /* field-level modifiers (messages only) */
  /* libwire extensions (field options foryc ignores): */
  bool wire_set;           /* [wire_set = true]: a list<T> that is a SET */
  bool not_nullable;       /* [nullable = false] on a message or any field */
  bool wire_ref;           /* [wire_ref = true]: the list/set/map object itself
                              is reference-tracked (R-FDLX-9) */
  const char *wire_name;   /* [wire_name = "x"]: the name on the wire */
  size_t wire_name_len;
};

typedef struct fdl_value fdl_value;
struct fdl_value {
  fdl_value *next;
  const char *name;
  size_t nlen;
  size_t off, num_off;
  int64_t value;
};

struct fdl_type {
  uint8_t kind; /* WIRE_KIND_STRUCT (message), _ENUM, _UNION */
  const char *name;
  size_t nlen, off;
  fdl_file *file;
  fdl_type *parent, *next, *children, *last_child;
  bool has_id;
  int64_t id;
  const char *alias; /* [alias=...] */
  size_t alias_len;
  int8_t evolving; /* [evolving=...]: -1 unset */
  bool wire_ext;   /* [wire_ext = true] (libwire extension): an ext type */
  fdl_field *fields, *last_field;
  fdl_value *values, *last_value;
  /* computed */
  char *path;     /* "Outer.Inner" */
  size_t path_len;
  bool by_name, auto_id;
  uint32_t user_id;
  char *ns;       /* registry namespace */
  size_t ns_len;
  char *hash_src; /* auto ids: the hashed name */
  uint32_t reg;   /* registry index */
};

typedef struct fdl_import fdl_import;
struct fdl_import {
  fdl_import *next;
  const char *path;
  size_t plen, off;
  fdl_file *target;
};

typedef struct fdl_rpc fdl_rpc;
struct fdl_rpc { /* request/response type of a service method */
  fdl_rpc *next;
  fdl_texpr *type;
};

struct fdl_file {
  fdl_file *next_all, *next_order, *via;
  char *name;      /* for messages */
  char *key;       /* normalized path: identity for "loaded once" */
  const char *text;
  size_t len;
  char *buf;       /* owned text */
  size_t buf_cap;
  fdl_tok *toks;
  size_t ntoks;
  const char *pkg, *pkg_alias;
  size_t pkg_len, pkg_alias_len;
  bool has_pkg, no_auto_id;
  bool fields_by_name; /* option wire_fields_by_name (libwire extension) */
  bool nullable_map_keys; /* option wire_nullable_map_keys (extension) */
  const char *wire_ns;  /* option wire_namespace = "..." (extension) */
  size_t wire_ns_len;
  int8_t evolving; /* option evolving: -1 unset */
  fdl_import *imports, *last_import;
  fdl_type *types, *last_type;
  fdl_rpc *rpcs, *last_rpc;
  uint8_t state;   /* 0 parsed, 1 importing, 2 done */
  uint32_t depth;  /* import depth */
  fdl_file **vis;  /* itself + transitive imports */
  size_t nvis;
  uint32_t mark;
  bool preloaded;  /* all its types were registered by an earlier call */
};

typedef struct {
  wire_ctx *ctx;
  wire_arena arena;
  fdl_file *files, *files_last;  /* all, in load order */
  fdl_file *order, *order_last;  /* dependencies first */
  size_t nfiles;
  uint32_t stamp;
} fdl_loader;

typedef struct {
  fdl_loader *L;
  fdl_file *f;
  size_t p;
  uint32_t depth;
} fdl_parser;

/* ---- scalar types ------------------------------------------------------ */

#define PF_BAD_KEY 1 /* not a valid map key */
#define PF_ANY 2

/* FDL scalar type names and their wire type ids: default (= `varint`),
 * `fixed`, `tagged`, and the dense array of that element (array<T>). Source:
 * fory_compiler/ir/types.py (PRIMITIVE_TYPES, ARRAY_ELEMENT_KINDS),
 * generators/go.py and generators/java.py (get_type_id_expr,
 * get_scalar_type_id_expr), ir/validator.py (INVALID_MAP_KEY_KINDS). */
static const struct prim_info {
  const char *name;
  uint8_t id, fixed_id, tagged_id, array_id, flags;
} prims[] = {
    {"bool", WIRE_T_BOOL, 0, 0, WIRE_T_BOOL_ARRAY, 0},
    {"int8", WIRE_T_INT8, 0, 0, WIRE_T_INT8_ARRAY, 0},
    {"int16", WIRE_T_INT16, 0, 0, WIRE_T_INT16_ARRAY, 0},
    {"int32", WIRE_T_VARINT32, WIRE_T_INT32, 0, WIRE_T_INT32_ARRAY, 0},
    {"int64", WIRE_T_VARINT64, WIRE_T_INT64, WIRE_T_TAGGED_INT64,
     WIRE_T_INT64_ARRAY, 0},
    {"uint8", WIRE_T_UINT8, 0, 0, WIRE_T_UINT8_ARRAY, 0},
    {"uint16", WIRE_T_UINT16, 0, 0, WIRE_T_UINT16_ARRAY, 0},
    {"uint32", WIRE_T_VAR_UINT32, WIRE_T_UINT32, 0, WIRE_T_UINT32_ARRAY, 0},
    {"uint64", WIRE_T_VAR_UINT64, WIRE_T_UINT64, WIRE_T_TAGGED_UINT64,
     WIRE_T_UINT64_ARRAY, 0},
    {"float16", WIRE_T_FLOAT16, 0, 0, WIRE_T_FLOAT16_ARRAY, PF_BAD_KEY},
    {"bfloat16", WIRE_T_BFLOAT16, 0, 0, WIRE_T_BFLOAT16_ARRAY, PF_BAD_KEY},
    {"float32", WIRE_T_FLOAT32, 0, 0, WIRE_T_FLOAT32_ARRAY, PF_BAD_KEY},
    {"float64", WIRE_T_FLOAT64, 0, 0, WIRE_T_FLOAT64_ARRAY, PF_BAD_KEY},
    {"string", WIRE_T_STRING, 0, 0, 0, 0},
    {"bytes", WIRE_T_BINARY, 0, 0, 0, PF_BAD_KEY},
    {"date", WIRE_T_DATE, 0, 0, 0, 0},
    {"timestamp", WIRE_T_TIMESTAMP, 0, 0, 0, 0},
    {"duration", WIRE_T_DURATION, 0, 0, 0, 0},
    {"decimal", WIRE_T_DECIMAL, 0, 0, 0, PF_BAD_KEY},
    {"any", WIRE_T_UNKNOWN, 0, 0, 0, PF_BAD_KEY | PF_ANY},
};
#define NPRIMS (sizeof prims / sizeof prims[0])

static bool eqn(const char *a, size_t al, const char *b, size_t bl) {
  return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}
static bool eqs(const char *a, size_t al, const char *s) {
  return eqn(a, al, s, strlen(s));
}

static int find_prim(const char *s, size_t n) {
  for (size_t i = 0; i < NPRIMS; i++)
    if (eqs(s, n, prims[i].name)) return (int)i;
  return -1;
}

/* MurmurHash3 x86 32-bit, seed 0: foryc's auto type ids
 * (fory_compiler/ir/type_id.py). */
static uint32_t rotl32(uint32_t x, int r) {
  return (x << r) | (x >> (32 - r));
}
static uint32_t murmur3_32(const uint8_t *d, size_t n) {
  const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
  uint32_t h = 0, k;
  size_t nb = n / 4;
  for (size_t i = 0; i < nb; i++) {
    const uint8_t *q = d + 4 * i;
    k = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
        (uint32_t)q[3] << 24;
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  const uint8_t *t = d + 4 * nb;
  k = 0;
  if ((n & 3) == 3) k ^= (uint32_t)t[2] << 16;
  if ((n & 3) >= 2) k ^= (uint32_t)t[1] << 8;
  if ((n & 3) >= 1) {
    k ^= t[0];
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
  }
  h ^= (uint32_t)n;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

/* ---- errors and memory ------------------------------------------------- */

static void line_col(const fdl_file *f, size_t off, unsigned *line,
                     unsigned *col) {
  unsigned l = 1, c = 1;
  if (off > f->len) off = f->len;
  for (size_t i = 0; i < off; i++) {
    unsigned char ch = (unsigned char)f->text[i];
    if (ch == '\n') {
      l++;
      c = 1;
    } else if ((ch & 0xc0) != 0x80) { /* columns count characters */
      c++;
    }
  }
  *line = l;
  *col = c;
}

__attribute__((format(printf, 5, 0)))
static int32_t vfail(fdl_loader *L, const fdl_file *f, int32_t code,
                     size_t off, const char *fmt, va_list ap) {
  char what[224];
  vsnprintf(what, sizeof what, fmt, ap);
  unsigned line, col;
  line_col(f, off, &line, &col);
  return wire__fail(L->ctx, code, off, "%s:%u:%u: %s", f->name, line, col,
                    what);
}

/* A syntax error (what foryc's lexer/parser rejects). */
__attribute__((format(printf, 4, 5)))
static int32_t syn(fdl_loader *L, const fdl_file *f, size_t off,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int32_t st = vfail(L, f, FDL_E_SYNTAX, off, fmt, ap);
  va_end(ap);
  return st;
}

/* A semantic error (what foryc's validator rejects). */
__attribute__((format(printf, 4, 5)))
static int32_t sem(fdl_loader *L, const fdl_file *f, size_t off,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int32_t st = vfail(L, f, FDL_E_SCHEMA, off, fmt, ap);
  va_end(ap);
  return st;
}

static int32_t nomem(fdl_loader *L) {
  return wire__fail(L->ctx, WIRE_E_NOMEM, 0, "out of memory");
}

/* Prefixes the error a registry builder just recorded with a position. */
static int32_t rewrap(fdl_loader *L, const fdl_file *f, size_t off,
                      int32_t st) {
  if (st == WIRE_E_NOMEM) return st;
  char msg[sizeof L->ctx->err_msg];
  memcpy(msg, L->ctx->err_msg, sizeof msg);
  msg[sizeof msg - 1] = 0;
  unsigned line, col;
  line_col(f, off, &line, &col);
  return wire__fail(L->ctx, FDL_E_SCHEMA, off, "%s:%u:%u: %s", f->name, line,
                    col, msg);
}

static void *anew(fdl_loader *L, size_t size) {
  void *p = wire__arena_alloc(&L->arena, size);
  if (p) memset(p, 0, size);
  return p;
}

static char *adup(fdl_loader *L, const char *s, size_t n) {
  char *p = wire__arena_alloc(&L->arena, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = 0;
  return p;
}

/* "a.b" from a and b; either may be empty. */
static char *ajoin(fdl_loader *L, const char *a, size_t al, const char *b,
                   size_t bl, size_t *out_len) {
  size_t n = al + bl + (al && bl ? 1 : 0);
  char *p = wire__arena_alloc(&L->arena, n + 1);
  if (!p) return NULL;
  size_t o = 0;
  if (al) {
    memcpy(p, a, al);
    o = al;
  }
  if (al && bl) p[o++] = '.';
  if (bl) memcpy(p + o, b, bl);
  p[n] = 0;
  if (out_len) *out_len = n;
  return p;
}

/* ---- lexer ------------------------------------------------------------- */

static bool ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool ident_char(unsigned char c) {
  return ident_start(c) || is_digit(c);
}

static int32_t push_tok(fdl_loader *L, fdl_file *f, size_t *cap,
                        fdl_tok **out) {
  if (f->ntoks == *cap) {
    size_t nc = *cap ? *cap * 2 : 256;
    fdl_tok *p = wire__arena_alloc(&L->arena, nc * sizeof *p);
    if (!p) return nomem(L);
    if (f->ntoks) memcpy(p, f->toks, f->ntoks * sizeof *p);
    f->toks = p;
    *cap = nc;
  }
  *out = &f->toks[f->ntoks++];
  memset(*out, 0, sizeof **out);
  return WIRE_OK;
}

/* Skips white space and comments; fails on an unterminated block comment.*/
static int32_t skip_blank(fdl_loader *L, fdl_file *f, size_t *pi) {
  const unsigned char *s = (const unsigned char *)f->text;
  size_t n = f->len, i = *pi;
  for (;;) {
    if (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
                  s[i] == '\n')) {
      i++;
    } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') i++;
    } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
      size_t start = i;
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
      if (i + 1 >= n) return syn(L, f, start, "unterminated block comment");
      i += 2;
    } else {
      break;
    }
  }
  *pi = i;
  return WIRE_OK;
}

/* A quoted string; escapes \n, \t, and \x = x for any other x. */
static int32_t lex_string(fdl_loader *L, fdl_file *f, size_t i, fdl_tok *t) {
  const unsigned char *s = (const unsigned char *)f->text;
  size_t n = f->len, j = i + 1, dlen = 0;
  unsigned char q = s[i];
  for (;;) { /* find the end and the decoded length */
    if (j >= n) return syn(L, f, i, "unterminated string");
    if (s[j] == q) break;
    if (s[j] == '\n') return syn(L, f, i, "newline in string");
    if (s[j] == '\\') {
      if (++j >= n) return syn(L, f, i, "unterminated string");
    }
    j++;
    dlen++;
  }
  char *out = wire__arena_alloc(&L->arena, dlen + 1);
  if (!out) return nomem(L);
  size_t o = 0;
  for (size_t k = i + 1; k < j; k++) {
    unsigned char c = s[k];
    if (c == '\\') {
      c = s[++k];
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
    }
    out[o++] = (char)c;
  }
  out[o] = 0;
  t->t = TK_STRING;
  t->s = out;
  t->slen = o;
  t->len = j + 1 - i;
  return WIRE_OK;
}

static int32_t lex(fdl_loader *L, fdl_file *f) {
  const unsigned char *s = (const unsigned char *)f->text;
  size_t n = f->len, i = 0, cap = 0;
  for (;;) {
    TRY(skip_blank(L, f, &i));
    fdl_tok *t = NULL;
    TRY(push_tok(L, f, &cap, &t));
    t->off = i;
    if (i >= n) {
      t->t = TK_EOF;
      return WIRE_OK;
    }
    unsigned char c = s[i];
    const char *pc = c ? strchr(punct_chars, c) : NULL;
    if (c == '"' || c == '\'') {
      TRY(lex_string(L, f, i, t));
      i += t->len;
    } else if (pc) {
      t->t = (uint8_t)(TK_LBRACE + (pc - punct_chars));
      t->len = 1;
      i++;
    } else if (ident_start(c)) {
      size_t j = i;
      while (j < n && ident_char(s[j])) j++;
      t->t = TK_IDENT;
      t->len = j - i;
      for (size_t k = 0; k < sizeof kw_names / sizeof kw_names[0]; k++)
        if (eqs(f->text + i, j - i, kw_names[k])) {
          t->t = (uint8_t)(TK_PACKAGE + k);
          break;
        }
      i = j;
    } else if (is_digit(c) || (c == '-' && i + 1 < n && is_digit(s[i + 1]))) {
      size_t j = i + (c == '-');
      bool neg = c == '-';
      uint64_t mag = 0;
      for (; j < n && is_digit(s[j]); j++) {
        unsigned d = s[j] - '0';
        if (mag > (UINT64_MAX - d) / 10) t->big = true;
        else mag = mag * 10 + d;
      }
      if (!t->big && mag > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
        t->big = true;
      if (!t->big)
        t->ival = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN
                                                        : -(int64_t)mag)
                      : (int64_t)mag;
      t->t = TK_INT;
      t->len = j - i;
      i = j;
    } else if (c >= 0x20 && c < 0x7f) {
      return syn(L, f, i, "unexpected character '%c'", c);
    } else {
      return syn(L, f, i, "unexpected byte 0x%02x", c);
    }
  }
}

/* ---- parser ------------------------------------------------------------ */

static fdl_tok *cur(fdl_parser *P) { return &P->f->toks[P->p]; }
static bool check(fdl_parser *P, int t) { return cur(P)->t == t; }
static fdl_tok *advance(fdl_parser *P) {
  fdl_tok *t = cur(P);
  if (t->t != TK_EOF) P->p++;
  return t;
}
static bool accept(fdl_parser *P, int t) {
  if (!check(P, t)) return false;
  advance(P);
  return true;
}

/* How a token is shown in messages. */
static void tok_desc(const fdl_file *f, const fdl_tok *t, char *buf,
                     size_t cap) {
  if (t->t == TK_EOF)
    snprintf(buf, cap, "end of input");
  else
    snprintf(buf, cap, "'%.*s'", (int)(t->len > 32 ? 32 : t->len),
             f->text + t->off);
}

/* Syntax error at the current token: "expected <what>, found <token>". */
static int32_t unexpected(fdl_parser *P, const char *what) {
  char d[48];
  tok_desc(P->f, cur(P), d, sizeof d);
  return syn(P->L, P->f, cur(P)->off, "expected %s, found %s", what, d);
}

static int32_t expect(fdl_parser *P, int t, const char *what,
                      fdl_tok **out) {
  if (!check(P, t)) return unexpected(P, what);
  fdl_tok *k = advance(P);
  if (out) *out = k;
  return WIRE_OK;
}

static int32_t int_value(fdl_parser *P, const fdl_tok *t, int64_t *out) {
  if (t->big)
    return syn(P->L, P->f, t->off, "integer %.*s is out of range",
               (int)t->len, P->f->text + t->off);
  *out = t->ival;
  return WIRE_OK;
}

/* IDENT ('.' IDENT)* as one string. */
static int32_t parse_qname(fdl_parser *P, const char *what, const char **out,
                           size_t *out_len, size_t *off) {
  fdl_tok *t = NULL;
  TRY(expect(P, TK_IDENT, what, &t));
  size_t first = P->p - 1, total = t->len, parts = 1;
  while (check(P, TK_DOT)) {
    advance(P);
    fdl_tok *u = NULL;
    TRY(expect(P, TK_IDENT, "an identifier after '.'", &u));
    total += 1 + u->len;
    parts++;
  }
  if (off) *off = t->off;
  if (parts == 1) {
    *out = P->f->text + t->off;
    *out_len = t->len;
    return WIRE_OK;
  }
  char *b = wire__arena_alloc(&P->L->arena, total + 1);
  if (!b) return nomem(P->L);
  size_t o = 0;
  for (size_t k = 0; k < parts; k++) {
    const fdl_tok *u = &P->f->toks[first + 2 * k];
    if (k) b[o++] = '.';
    memcpy(b + o, P->f->text + u->off, u->len);
    o += u->len;
  }
  b[o] = 0;
  *out = b;
  *out_len = total;
  return WIRE_OK;
}

/* An option value: string, integer, true, false or identifier. */
typedef struct {
  uint8_t t;
  bool big;
  int64_t i;
  const char *s;
  size_t slen;
  size_t off;
} fdl_val;

static int32_t parse_value(fdl_parser *P, fdl_val *v) {
  fdl_tok *t = cur(P);
  memset(v, 0, sizeof *v);
  v->t = t->t;
  v->off = t->off;
  switch (t->t) {
  case TK_STRING: v->s = t->s; v->slen = t->slen; break;
  case TK_IDENT: v->s = P->f->text + t->off; v->slen = t->len; break;
  case TK_INT: v->i = t->ival; v->big = t->big; break;
  case TK_TRUE: case TK_FALSE: break;
  default:
    return unexpected(P, "an option value (string, integer, true, false "
                         "or identifier)");
  }
  advance(P);
  return WIRE_OK;
}

/* Python truthiness, as foryc's bool(value). */
static bool truthy(const fdl_val *v) {
  switch (v->t) {
  case TK_TRUE: return true;
  case TK_FALSE: return false;
  case TK_INT: return v->big || v->i != 0;
  default: return v->slen != 0;
  }
}

/* option NAME = VALUE ;  (file level when apply) */
static int32_t parse_option(fdl_parser *P, bool apply) {
  advance(P); /* option */
  fdl_tok *name = NULL;
  fdl_val v;
  TRY(expect(P, TK_IDENT, "an option name", &name));
  TRY(expect(P, TK_EQUALS, "'=' after the option name", NULL));
  TRY(parse_value(P, &v));
  TRY(expect(P, TK_SEMI, "';' after the option", NULL));
  if (!apply) return WIRE_OK;
  const char *n = P->f->text + name->off;
  /* foryc: enable_auto_type_id is off only for the literal false. */
  if (eqs(n, name->len, "enable_auto_type_id"))
    P->f->no_auto_id = v.t == TK_FALSE;
  else if (eqs(n, name->len, "evolving"))
    P->f->evolving = truthy(&v);
  /* libwire extension: identify this file's fields by name on the wire
   * (TypeDef names, fingerprints) instead of by their numbers, as types
   * declared without @ForyField ids in the runtimes are. foryc ignores it. */
  else if (eqs(n, name->len, "wire_fields_by_name"))
    P->f->fields_by_name = truthy(&v);
  /* libwire extension: map keys are declared nullable in TypeDefs, as the
   * Java runtime declares them. */
  else if (eqs(n, name->len, "wire_nullable_map_keys"))
    P->f->nullable_map_keys = truthy(&v);
  /* libwire extension: the namespace of the types this file registers by
   * name, e.g. "" as register(cls, "name") gives in the runtimes, instead
   * of the package (or foryc's "default"). */
  else if (eqs(n, name->len, "wire_namespace") && v.t == TK_STRING) {
    if (memchr(v.s, 0, v.slen) ||
        wire_meta_choose_encoding(WIRE_MSCTX_NAMESPACE, (const uint8_t *)v.s,
                                  v.slen) < 0)
      return syn(P->L, P->f, v.off, "wire_namespace must be a valid name");
    P->f->wire_ns = v.s;
    P->f->wire_ns_len = v.slen;
  }
  /* Other options (java_package, go_package, ...) only steer code
   * generation; unknown ones are ignored, as foryc does. */
  return WIRE_OK;
}

static int32_t parse_package(fdl_parser *P) {
  fdl_tok *kw = advance(P);
  if (P->f->has_pkg)
    return syn(P->L, P->f, kw->off, "duplicate package declaration");
  TRY(parse_qname(P, "a package name", &P->f->pkg, &P->f->pkg_len, NULL));
  P->f->has_pkg = true;
  if (check(P, TK_IDENT) && eqs(P->f->text + cur(P)->off, cur(P)->len,
                                "alias")) {
    advance(P);
    TRY(parse_qname(P, "a package alias", &P->f->pkg_alias,
                    &P->f->pkg_alias_len, NULL));
  }
  return expect(P, TK_SEMI, "';' after the package declaration", NULL);
}

static int32_t parse_import(fdl_parser *P) {
  fdl_tok *kw = advance(P);
  if (check(P, TK_PUBLIC) || check(P, TK_WEAK))
    return syn(P->L, P->f, kw->off, "'import %s' is not supported in FDL; "
               "use import \"path\";",
               check(P, TK_PUBLIC) ? "public" : "weak");
  fdl_tok *path = NULL;
  TRY(expect(P, TK_STRING, "an import path string", &path));
  TRY(expect(P, TK_SEMI, "';' after the import", NULL));
  fdl_import *imp = anew(P->L, sizeof *imp);
  if (!imp) return nomem(P->L);
  imp->path = path->s;
  imp->plen = path->slen;
  imp->off = path->off;
  if (P->f->last_import) P->f->last_import->next = imp;
  else P->f->imports = imp;
  P->f->last_import = imp;
  return WIRE_OK;
}

/* reserved 2, 9 to 11, 40 to max, "NAME";  - parsed and ignored. */
static int32_t parse_reserved(fdl_parser *P) {
  advance(P);
  for (;;) {
    if (check(P, TK_STRING)) {
      advance(P);
    } else if (check(P, TK_INT)) {
      advance(P);
      if (accept(P, TK_TO) && !accept(P, TK_MAX) && !accept(P, TK_INT))
        return unexpected(P, "an integer or 'max' after 'to'");
    } else {
      return unexpected(P, "a reserved number or name");
    }
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_SEMI, "',' or ';' in the reserved statement", NULL);
  }
}

/* [name=value, ...] after a type name. */
static int32_t parse_type_options(fdl_parser *P, fdl_type *t) {
  advance(P); /* [ */
  for (;;) {
    fdl_tok *name = NULL;
    fdl_val v;
    TRY(expect(P, TK_IDENT, "a type option name", &name));
    TRY(expect(P, TK_EQUALS, "'=' after the option name", NULL));
    TRY(parse_value(P, &v));
    const char *n = P->f->text + name->off;
    if (eqs(n, name->len, "id")) {
      if (v.t != TK_INT)
        return syn(P->L, P->f, v.off, "type option 'id' must be an integer");
      if (v.big || v.i < 0 || (v.i == 0 && t->kind != WIRE_KIND_UNION))
        return syn(P->L, P->f, v.off, "type option 'id' must be a %s "
                   "integer", t->kind == WIRE_KIND_UNION ? "non-negative"
                                                         : "positive");
      t->has_id = true;
      t->id = v.i;
    } else if (eqs(n, name->len, "alias")) {
      if (v.t == TK_STRING || v.t == TK_IDENT) {
        t->alias = v.s;
        t->alias_len = v.slen;
      }
    } else if (eqs(n, name->len, "evolving")) {
      t->evolving = truthy(&v);
    } else if (eqs(n, name->len, "wire_ext")) {
      /* libwire extension: the message stands for an ext type (a custom
       * body the schema does not describe). */
      t->wire_ext = truthy(&v);
    } /* deprecated, namespace, use_record_for_java, ...: ignored */
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_RBRACKET, "',' or ']' in the type options", NULL);
  }
}

/* ref(weak=true, thread_safe=false): code generation only; ignored. */
static int32_t parse_ref_options(fdl_parser *P) {
  if (!accept(P, TK_LPAREN)) return WIRE_OK;
  for (;;) {
    if (!check(P, TK_IDENT) && !check(P, TK_WEAK))
      return unexpected(P, "a ref option name");
    advance(P);
    fdl_val v;
    TRY(expect(P, TK_EQUALS, "'=' after the ref option name", NULL));
    TRY(parse_value(P, &v));
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_RPAREN, "',' or ')' in the ref options", NULL);
  }
}

static fdl_texpr *new_texpr(fdl_parser *P, uint8_t form, size_t off) {
  fdl_texpr *x = anew(P->L, sizeof *x);
  if (x) {
    x->form = form;
    x->off = off;
  }
  return x;
}

static int32_t parse_type(fdl_parser *P, fdl_texpr **out);

/* Modifiers in front of a list element or a map value. */
static int32_t parse_elem_mods(fdl_parser *P, bool *optional, bool *ref) {
  for (;;) {
    if (accept(P, TK_OPTIONAL)) {
      *optional = true;
    } else if (accept(P, TK_REF)) {
      *ref = true;
      TRY(parse_ref_options(P));
    } else {
      return WIRE_OK;
    }
  }
}

static int32_t parse_type_inner(fdl_parser *P, fdl_texpr **out) {
  fdl_tok *t = cur(P);
  fdl_texpr *x;
  if (t->t == TK_LIST) {
    advance(P);
    bool opt = false, ref = false;
    TRY(expect(P, TK_LANGLE, "'<' after 'list'", NULL));
    TRY(parse_elem_mods(P, &opt, &ref));
    if (!(x = new_texpr(P, X_LIST, t->off))) return nomem(P->L);
    TRY(parse_type(P, &x->elem));
    x->elem->optional = opt;
    x->elem->ref = ref;
    TRY(expect(P, TK_RANGLE, "'>' after the list element type", NULL));
  } else if (t->t == TK_ARRAY) {
    advance(P);
    TRY(expect(P, TK_LANGLE, "'<' after 'array'", NULL));
    if (check(P, TK_OPTIONAL) || check(P, TK_REF))
      return syn(P->L, P->f, cur(P)->off,
                 "array elements cannot be optional or ref");
    if (!(x = new_texpr(P, X_ARRAY, t->off))) return nomem(P->L);
    TRY(parse_type(P, &x->elem));
    TRY(expect(P, TK_RANGLE, "'>' after the array element type", NULL));
  } else if (t->t == TK_MAP) {
    advance(P);
    bool opt = false, ref = false;
    TRY(expect(P, TK_LANGLE, "'<' after 'map'", NULL));
    if (check(P, TK_REF))
      return syn(P->L, P->f, cur(P)->off, "map keys cannot be ref");
    if (!(x = new_texpr(P, X_MAP, t->off))) return nomem(P->L);
    TRY(parse_type(P, &x->key));
    TRY(expect(P, TK_COMMA, "',' between the map key and value types",
               NULL));
    TRY(parse_elem_mods(P, &opt, &ref));
    TRY(parse_type(P, &x->value));
    x->value->optional = opt;
    x->value->ref = ref;
    TRY(expect(P, TK_RANGLE, "'>' after the map value type", NULL));
  } else if (t->t == TK_IDENT) {
    const char *s = P->f->text + t->off;
    uint8_t enc = eqs(s, t->len, "varint") ? ENC_VARINT
                  : eqs(s, t->len, "fixed") ? ENC_FIXED
                  : eqs(s, t->len, "tagged") ? ENC_TAGGED : ENC_NONE;
    if (enc != ENC_NONE) {
      advance(P);
      if (!check(P, TK_IDENT)) {
        char what[48];
        snprintf(what, sizeof what, "an integer type after '%.*s'",
                 (int)t->len, s);
        return unexpected(P, what);
      }
      fdl_tok *ty = advance(P);
      int k = find_prim(P->f->text + ty->off, ty->len);
      if (k < 0 || !prims[k].fixed_id ||
          (enc == ENC_TAGGED && !prims[k].tagged_id))
        return syn(P->L, P->f, ty->off, "'%.*s' encoding is only valid for "
                   "%s", (int)t->len, s,
                   enc == ENC_TAGGED ? "int64 and uint64"
                                     : "int32, int64, uint32 and uint64");
      if (!(x = new_texpr(P, X_PRIM, t->off))) return nomem(P->L);
      x->prim = (uint8_t)k;
      x->enc = enc;
    } else {
      int k = find_prim(s, t->len);
      if (k >= 0) {
        advance(P);
        if (!(x = new_texpr(P, X_PRIM, t->off))) return nomem(P->L);
        x->prim = (uint8_t)k;
      } else {
        if (!(x = new_texpr(P, X_NAMED, t->off))) return nomem(P->L);
        TRY(parse_qname(P, "a type name", &x->name, &x->nlen, NULL));
      }
    }
  } else {
    return unexpected(P, "a type");
  }
  *out = x;
  return WIRE_OK;
}

static int32_t parse_type(fdl_parser *P, fdl_texpr **out) {
  if (++P->depth > FDL_MAX_NESTING)
    return syn(P->L, P->f, cur(P)->off, "types nested too deeply");
  int32_t st = parse_type_inner(P, out);
  P->depth--;
  return st;
}

static bool tok_is(fdl_parser *P, const fdl_tok *t, const char *s) {
  return eqs(P->f->text + t->off, t->len, s);
}

/* [name=value, ...] after a field or union case; ref=true and
 * nullable=true act on message fields (fld != NULL). */
static int32_t parse_field_options(fdl_parser *P, fdl_field *fld) {
  advance(P); /* [ */
  for (;;) {
    fdl_tok *name = cur(P);
    if (name->t != TK_IDENT && name->t != TK_REF && name->t != TK_OPTIONAL &&
        name->t != TK_REPEATED && name->t != TK_LIST && name->t != TK_WEAK)
      return unexpected(P, "a field option name");
    advance(P);
    fdl_val v;
    TRY(expect(P, TK_EQUALS, "'=' after the option name", NULL));
    TRY(parse_value(P, &v));
    if (fld && v.t == TK_TRUE) {
      if (tok_is(P, name, "ref")) {
        if (fld->type->form == X_LIST) fld->type->elem->ref = true;
        else if (fld->type->form == X_MAP) fld->type->value->ref = true;
        else fld->ref = true;
      } else if (tok_is(P, name, "nullable")) {
        fld->optional = true;
      } else if (tok_is(P, name, "wire_set")) {
        fld->wire_set = true;
      } else if (tok_is(P, name, "wire_ref")) {
        fld->wire_ref = true;
      }
    }
    if (fld && v.t == TK_FALSE && tok_is(P, name, "nullable"))
      fld->not_nullable = true; /* libwire extension */
    if (fld && tok_is(P, name, "wire_name") && v.t == TK_STRING) {
      if (v.slen == 0 || memchr(v.s, 0, v.slen) ||
          wire_meta_choose_encoding(WIRE_MSCTX_FIELD_NAME,
                                    (const uint8_t *)v.s, v.slen) < 0)
        return syn(P->L, P->f, v.off, "wire_name must be a valid field name");
      fld->wire_name = v.s;
      fld->wire_name_len = v.slen;
    }
    if (accept(P, TK_COMMA)) continue;
    return expect(P, TK_RBRACKET, "',' or ']' in the field options", NULL);
  }
}

static void link_field(fdl_type *t, fdl_field *fld) {
  if (t->last_field) t->last_field->next = fld;
  else t->fields = fld;
  t->last_field = fld;
}

/* [optional] [ref] [repeated] type name = N [options] ; */
static int32_t parse_field(fdl_parser *P, fdl_type *msg) {
  fdl_field *fld = anew(P->L, sizeof *fld);
  if (!fld) return nomem(P->L);
  fld->off = cur(P)->off;
  bool repeated = false, elem_opt = false, elem_ref = false;
  for (;;) {
    if (accept(P, TK_OPTIONAL)) {
      if (repeated) elem_opt = true;
      else fld->optional = true;
    } else if (accept(P, TK_REF)) {
      TRY(parse_ref_options(P));
      if (repeated) elem_ref = true;
      else fld->ref = true;
    } else if (check(P, TK_REPEATED)) {
      if (repeated)
        return syn(P->L, P->f, cur(P)->off, "'repeated' given twice");
      advance(P);
      repeated = true;
    } else {
      break;
    }
  }
  size_t type_off = cur(P)->off;
  TRY(parse_type(P, &fld->type));
  if (repeated) { /* repeated T = list<T> */
    fdl_texpr *l = new_texpr(P, X_LIST, type_off);
    if (!l) return nomem(P->L);
    l->elem = fld->type;
    l->elem->optional = elem_opt;
    l->elem->ref = elem_ref;
    fld->type = l;
  }
  if (!check(P, TK_IDENT) && !check(P, TK_TO))
    return unexpected(P, "a field name");
  fdl_tok *name = advance(P);
  fld->name = P->f->text + name->off;
  fld->nlen = name->len;
  fld->name_off = name->off;
  fdl_tok *num = NULL;
  TRY(expect(P, TK_EQUALS, "'=' after the field name", NULL));
  TRY(expect(P, TK_INT, "a field number", &num));
  TRY(int_value(P, num, &fld->number));
  fld->num_off = num->off;
  if (check(P, TK_LBRACKET)) TRY(parse_field_options(P, fld));
  TRY(expect(P, TK_SEMI, "';' after the field", NULL));
  link_field(msg, fld);
  return WIRE_OK;
}

/* [repeated] type name = N [options] ; */
static int32_t parse_union_case(fdl_parser *P, fdl_type *u) {
  if (check(P, TK_OPTIONAL) || check(P, TK_REF))
    return syn(P->L, P->f, cur(P)->off,
               "union cases cannot be optional or ref");
  fdl_field *fld = anew(P->L, sizeof *fld);
  if (!fld) return nomem(P->L);
  fld->off = cur(P)->off;
  bool repeated = accept(P, TK_REPEATED);
  size_t type_off = cur(P)->off;
  TRY(parse_type(P, &fld->type));
  if (repeated) {
    fdl_texpr *l = new_texpr(P, X_LIST, type_off);
    if (!l) return nomem(P->L);
    l->elem = fld->type;
    fld->type = l;
  }
  fdl_tok *name = NULL, *num = NULL;
  TRY(expect(P, TK_IDENT, "a union case name", &name));
  fld->name = P->f->text + name->off;
  fld->nlen = name->len;
  fld->name_off = name->off;
  TRY(expect(P, TK_EQUALS, "'=' after the union case name", NULL));
  TRY(expect(P, TK_INT, "a union case id", &num));
  TRY(int_value(P, num, &fld->number));
  fld->num_off = num->off;
  if (check(P, TK_LBRACKET)) TRY(parse_field_options(P, NULL));
  TRY(expect(P, TK_SEMI, "';' after the union case", NULL));
  link_field(u, fld);
  return WIRE_OK;
}

/* `kind Name [options] {` - the common head of enum, message, union. */
static int32_t parse_type_head(fdl_parser *P, fdl_type *parent, uint8_t kind,
                               fdl_type **out) {
  advance(P); /* enum / message / union */
  if (++P->depth > FDL_MAX_NESTING)
    return syn(P->L, P->f, cur(P)->off, "types nested too deeply");
  fdl_type *t = anew(P->L, sizeof *t);
  if (!t) return nomem(P->L);
  t->kind = kind;
  t->file = P->f;
  t->parent = parent;
  t->evolving = -1;
  fdl_tok *name = NULL;
  TRY(expect(P, TK_IDENT, kind == WIRE_KIND_ENUM ? "an enum name"
                          : kind == WIRE_KIND_UNION ? "a union name"
                                                    : "a message name",
             &name));
  t->name = P->f->text + name->off;
  t->nlen = name->len;
  t->off = name->off;
  if (check(P, TK_LBRACKET)) TRY(parse_type_options(P, t));
  char what[48];
  snprintf(what, sizeof what, "'{' after the %s name",
           kind == WIRE_KIND_ENUM ? "enum"
           : kind == WIRE_KIND_UNION ? "union" : "message");
  TRY(expect(P, TK_LBRACE, what, NULL));
  /* link */
  if (parent) {
    if (parent->last_child) parent->last_child->next = t;
    else parent->children = t;
    parent->last_child = t;
  } else {
    if (P->f->last_type) P->f->last_type->next = t;
    else P->f->types = t;
    P->f->last_type = t;
  }
  *out = t;
  return WIRE_OK;
}

static int32_t body_end(fdl_parser *P, const fdl_type *t, bool *done) {
  *done = false;
  if (accept(P, TK_RBRACE)) {
    *done = true;
    P->depth--;
  } else if (check(P, TK_EOF)) {
    return syn(P->L, P->f, cur(P)->off, "expected '}' to close %s %.*s, "
               "found end of input",
               t->kind == WIRE_KIND_ENUM ? "enum"
               : t->kind == WIRE_KIND_UNION ? "union" : "message",
               (int)t->nlen, t->name);
  }
  return WIRE_OK;
}

static int32_t parse_enum(fdl_parser *P, fdl_type *parent) {
  fdl_type *t;
  TRY(parse_type_head(P, parent, WIRE_KIND_ENUM, &t));
  for (;;) {
    bool done;
    TRY(body_end(P, t, &done));
    if (done) return WIRE_OK;
    if (check(P, TK_OPTION))
      return syn(P->L, P->f, cur(P)->off,
                 "option statements inside an enum are not supported");
    if (check(P, TK_RESERVED)) {
      TRY(parse_reserved(P));
      continue;
    }
    fdl_value *v = anew(P->L, sizeof *v);
    if (!v) return nomem(P->L);
    fdl_tok *name = NULL, *num = NULL;
    TRY(expect(P, TK_IDENT, "an enum value name", &name));
    v->name = P->f->text + name->off;
    v->nlen = name->len;
    v->off = name->off;
    TRY(expect(P, TK_EQUALS, "'=' after the enum value name", NULL));
    TRY(expect(P, TK_INT, "an integer enum value", &num));
    TRY(int_value(P, num, &v->value));
    v->num_off = num->off;
    TRY(expect(P, TK_SEMI, "';' after the enum value", NULL));
    if (t->last_value) t->last_value->next = v;
    else t->values = v;
    t->last_value = v;
  }
}

static int32_t parse_message(fdl_parser *P, fdl_type *parent);

static int32_t parse_union(fdl_parser *P, fdl_type *parent) {
  fdl_type *t;
  TRY(parse_type_head(P, parent, WIRE_KIND_UNION, &t));
  for (;;) {
    bool done;
    TRY(body_end(P, t, &done));
    if (done) return WIRE_OK;
    if (check(P, TK_RESERVED)) TRY(parse_reserved(P));
    else TRY(parse_union_case(P, t));
  }
}

static int32_t parse_message(fdl_parser *P, fdl_type *parent) {
  fdl_type *t;
  TRY(parse_type_head(P, parent, WIRE_KIND_STRUCT, &t));
  for (;;) {
    bool done;
    TRY(body_end(P, t, &done));
    if (done) return WIRE_OK;
    switch (cur(P)->t) {
    case TK_RESERVED: TRY(parse_reserved(P)); break;
    case TK_OPTION:
      return syn(P->L, P->f, cur(P)->off,
                 "option statements inside a message are not supported");
    case TK_MESSAGE: TRY(parse_message(P, t)); break;
    case TK_ENUM: TRY(parse_enum(P, t)); break;
    case TK_UNION: TRY(parse_union(P, t)); break;
    default: TRY(parse_field(P, t)); break;
    }
  }
}

/* rpc Name ( [stream] Type ) returns ( [stream] Type ) ( ; | { options } ) */
static int32_t parse_rpc_type(fdl_parser *P) {
  TRY(expect(P, TK_LPAREN, "'(' before the rpc type", NULL));
  accept(P, TK_STREAM);
  fdl_texpr *x = new_texpr(P, X_NAMED, cur(P)->off);
  fdl_rpc *r = anew(P->L, sizeof *r);
  if (!x || !r) return nomem(P->L);
  TRY(parse_qname(P, "a message or union type", &x->name, &x->nlen, NULL));
  TRY(expect(P, TK_RPAREN, "')' after the rpc type", NULL));
  r->type = x;
  if (P->f->last_rpc) P->f->last_rpc->next = r;
  else P->f->rpcs = r;
  P->f->last_rpc = r;
  return WIRE_OK;
}

static int32_t parse_service(fdl_parser *P) {
  advance(P);
  TRY(expect(P, TK_IDENT, "a service name", NULL));
  TRY(expect(P, TK_LBRACE, "'{' after the service name", NULL));
  while (!accept(P, TK_RBRACE)) {
    if (check(P, TK_OPTION)) {
      TRY(parse_option(P, false));
    } else if (accept(P, TK_RPC)) {
      TRY(expect(P, TK_IDENT, "a method name", NULL));
      TRY(parse_rpc_type(P));
      TRY(expect(P, TK_RETURNS, "'returns'", NULL));
      TRY(parse_rpc_type(P));
      if (accept(P, TK_LBRACE)) {
        while (!accept(P, TK_RBRACE)) {
          if (check(P, TK_OPTION)) TRY(parse_option(P, false));
          else if (!accept(P, TK_SEMI))
            return unexpected(P, "'option' or '}' in the method block");
        }
      } else {
        TRY(expect(P, TK_SEMI, "';' after the method", NULL));
      }
    } else {
      return unexpected(P, "'rpc', 'option' or '}' in the service");
    }
  }
  return WIRE_OK;
}

static int32_t parse_file(fdl_parser *P) {
  while (!check(P, TK_EOF)) {
    switch (cur(P)->t) {
    case TK_PACKAGE: TRY(parse_package(P)); break;
    case TK_IMPORT: TRY(parse_import(P)); break;
    case TK_OPTION: TRY(parse_option(P, true)); break;
    case TK_ENUM: TRY(parse_enum(P, NULL)); break;
    case TK_UNION: TRY(parse_union(P, NULL)); break;
    case TK_MESSAGE: TRY(parse_message(P, NULL)); break;
    case TK_SERVICE: TRY(parse_service(P)); break;
    default:
      return unexpected(P, "a declaration (package, option, import, "
                           "message, enum, union or service)");
    }
  }
  return WIRE_OK;
}

/* ---- files and imports ------------------------------------------------- */

/* Lexically normalized path: "a/./b/../c" -> "a/c", duplicate '/' folded;
 * ".." kept where nothing is left to remove. */
static char *normalize_path(fdl_loader *L, const char *p, size_t n) {
  char *out = wire__arena_alloc(&L->arena, n + 2);
  if (!out) return NULL;
  bool abs = n && p[0] == '/';
  size_t o = 0, i = 0, floor = 0; /* out[0..floor) cannot be popped */
  if (abs) {
    out[o++] = '/';
    floor = 1;
  }
  while (i < n) {
    while (i < n && p[i] == '/') i++;
    size_t s = i;
    while (i < n && p[i] != '/') i++;
    size_t len = i - s;
    if (len == 0 || (len == 1 && p[s] == '.')) continue;
    if (len == 2 && p[s] == '.' && p[s + 1] == '.') {
      if (o > floor) { /* drop the last component */
        size_t k = o;
        while (k > floor && out[k - 1] != '/') k--;
        bool dotdot = o - k == 2 && out[k] == '.' && out[k + 1] == '.';
        if (!dotdot) {
          o = k > floor ? k - 1 : k;
          continue;
        }
      } else if (abs) {
        continue; /* "/.." = "/" */
      }
    }
    if (o > floor) out[o++] = '/';
    memcpy(out + o, p + s, len);
    o += len;
  }
  if (o == 0) out[o++] = '.';
  out[o] = 0;
  return out;
}

/* The directory part of a path with its trailing '/', or "" */
static size_t dir_len(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? (size_t)(s - p) + 1 : 0;
}

static fdl_file *new_file(fdl_loader *L, const char *name, size_t nlen) {
  fdl_file *f = anew(L, sizeof *f);
  if (!f) return NULL;
  f->name = adup(L, name, nlen);
  f->key = normalize_path(L, name, nlen);
  f->evolving = -1;
  if (!f->name || !f->key) return NULL;
  if (L->files_last) L->files_last->next_all = f;
  else L->files = f;
  L->files_last = f;
  L->nfiles++;
  return f;
}

/* Reads the whole file into a context-allocated buffer. */
static int32_t read_file(fdl_loader *L, fdl_file *f, bool *missing) {
  *missing = false;
  FILE *fp = fopen(f->key, "rb");
  if (!fp) {
    *missing = true;
    return WIRE_E_ARG;
  }
  size_t cap = 4096, n = 0;
  char *buf = wire__alloc(L->ctx, cap);
  if (!buf) {
    fclose(fp);
    return nomem(L);
  }
  for (;;) {
    if (n == cap) {
      char *nb = cap <= SIZE_MAX / 2
                     ? wire__realloc(L->ctx, buf, cap, cap * 2) : NULL;
      if (!nb) {
        wire__free(L->ctx, buf, cap);
        fclose(fp);
        return nomem(L);
      }
      buf = nb;
      cap *= 2;
    }
    size_t k = fread(buf + n, 1, cap - n, fp);
    n += k;
    if (k == 0) break;
  }
  bool bad = ferror(fp) != 0;
  fclose(fp);
  f->buf = buf;
  f->buf_cap = cap;
  if (bad) {
    *missing = true;
    return WIRE_E_ARG;
  }
  f->text = buf;
  f->len = n;
  return WIRE_OK;
}

static int32_t parse_text(fdl_loader *L, fdl_file *f) {
  TRY(lex(L, f));
  fdl_parser P = {L, f, 0, 0};
  return parse_file(&P);
}

static bool ends_with(const char *s, size_t n, const char *suffix) {
  size_t k = strlen(suffix);
  return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* The import chain from `from` back to `to`, as "a -> b -> c". */
static void cycle_text(const fdl_file *from, const fdl_file *to, char *buf,
                       size_t cap) {
  const fdl_file *chain[FDL_MAX_IMPORT_DEPTH + 2];
  size_t n = 0;
  for (const fdl_file *g = from; g && n < FDL_MAX_IMPORT_DEPTH + 1;
       g = g->via) {
    chain[n++] = g;
    if (g == to) break;
  }
  size_t o = 0;
  buf[0] = 0;
  for (size_t i = n; i-- > 0 && o < cap;) {
    int w = snprintf(buf + o, cap - o, "%s -> ", chain[i]->key);
    if (w < 0) break;
    o += (size_t)w;
  }
  if (o < cap) snprintf(buf + o, cap - o, "%s", to->key);
}

__attribute__((format(printf, 5, 6)))
static int32_t fail_code(fdl_loader *L, const fdl_file *f, int32_t code,
                         size_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int32_t st = vfail(L, f, code, off, fmt, ap);
  va_end(ap);
  return st;
}

/* Resolves, reads and parses the imports of f, depth-first; appends f to
 * the dependency order after them. */
static int32_t load_imports(fdl_loader *L, fdl_file *f) {
  f->state = 1;
  for (fdl_import *imp = f->imports; imp; imp = imp->next) {
    if (ends_with(imp->path, imp->plen, ".proto") ||
        ends_with(imp->path, imp->plen, ".fbs"))
      return fail_code(L, f, WIRE_E_UNSUPPORTED, imp->off,
                       "import \"%.*s\": only FDL schemas can be imported "
                       "(protobuf and FlatBuffers are not supported)",
                       (int)imp->plen, imp->path);
    size_t dl = imp->plen && imp->path[0] == '/' ? 0 : dir_len(f->key);
    char *joined = wire__arena_alloc(&L->arena, dl + imp->plen + 1);
    if (!joined) return nomem(L);
    memcpy(joined, f->key, dl);
    memcpy(joined + dl, imp->path, imp->plen);
    joined[dl + imp->plen] = 0;
    char *key = normalize_path(L, joined, dl + imp->plen);
    if (!key) return nomem(L);
    fdl_file *g = L->files;
    while (g && strcmp(g->key, key) != 0) g = g->next_all;
    if (g) {
      if (g->state == 1) {
        char chain[160];
        cycle_text(f, g, chain, sizeof chain);
        return sem(L, f, imp->off, "import cycle: %s", chain);
      }
      imp->target = g;
      continue;
    }
    if (f->depth + 1 > FDL_MAX_IMPORT_DEPTH)
      return sem(L, f, imp->off, "imports nested more than %d deep",
                 FDL_MAX_IMPORT_DEPTH);
    if (!(g = new_file(L, key, strlen(key)))) return nomem(L);
    g->via = f;
    g->depth = f->depth + 1;
    bool missing;
    int32_t st = read_file(L, g, &missing);
    if (st && missing)
      return sem(L, f, imp->off, "cannot read import \"%.*s\" (%s)",
                 (int)imp->plen, imp->path, g->key);
    TRY(st);
    TRY(parse_text(L, g));
    TRY(load_imports(L, g));
    imp->target = g;
  }
  f->state = 2;
  if (L->order_last) L->order_last->next_order = f;
  else L->order = f;
  L->order_last = f;
  return WIRE_OK;
}

/* f and the files it imports, transitively. */
static void vis_walk(fdl_loader *L, fdl_file *g, fdl_file **arr, size_t *n) {
  if (g->mark == L->stamp) return;
  g->mark = L->stamp;
  arr[(*n)++] = g;
  for (fdl_import *imp = g->imports; imp; imp = imp->next)
    if (imp->target) vis_walk(L, imp->target, arr, n);
}

/* ---- declaration checks ------------------------------------------------ */

/* Top-level names: unique within the file and against its imports (foryc
 * merges imported types into one schema and rejects duplicates). */
static int32_t check_top_names(fdl_loader *L, fdl_file *f) {
  for (fdl_type *t = f->types; t; t = t->next)
    for (size_t k = 0; k < f->nvis; k++) {
      fdl_file *g = f->vis[k];
      for (fdl_type *u = g->types; u; u = u->next) {
        if (u == t) break;
        if (!eqn(u->name, u->nlen, t->name, t->nlen)) continue;
        if (g == f)
          return sem(L, f, t->off, "type %.*s is declared twice",
                     (int)t->nlen, t->name);
        return sem(L, f, t->off, "type %.*s is already declared in %s",
                   (int)t->nlen, t->name, g->name);
      }
    }
  return WIRE_OK;
}

/* Paths, nested names, field numbers, enum values and union cases. */
static int32_t check_type(fdl_loader *L, fdl_type *t) {
  fdl_file *f = t->file;
  t->path = t->parent ? ajoin(L, t->parent->path, t->parent->path_len,
                              t->name, t->nlen, &t->path_len)
                      : adup(L, t->name, t->path_len = t->nlen);
  if (!t->path) return nomem(L);
  for (fdl_type *c = t->children; c; c = c->next)
    for (fdl_type *d = t->children; d != c; d = d->next)
      if (eqn(c->name, c->nlen, d->name, d->nlen))
        return sem(L, f, c->off, "type %.*s is declared twice in %s",
                   (int)c->nlen, c->name, t->path);
  if (t->kind == WIRE_KIND_ENUM) {
    for (fdl_value *v = t->values; v; v = v->next) {
      if (v->value < 0 || v->value > (int64_t)UINT32_MAX)
        return sem(L, f, v->num_off, "enum value %lld of %s.%.*s is out of "
                   "range (0..4294967295)", (long long)v->value, t->path,
                   (int)v->nlen, v->name);
      for (fdl_value *w = t->values; w != v; w = w->next) {
        if (w->value == v->value)
          return sem(L, f, v->num_off, "enum value %lld is used twice in %s "
                     "(%.*s and %.*s)", (long long)v->value, t->path,
                     (int)w->nlen, w->name, (int)v->nlen, v->name);
        if (eqn(w->name, w->nlen, v->name, v->nlen))
          return sem(L, f, v->off, "enum value %.*s is declared twice in "
                     "%s", (int)v->nlen, v->name, t->path);
      }
    }
  } else {
    bool un = t->kind == WIRE_KIND_UNION;
    if (un && !t->fields)
      return sem(L, f, t->off, "union %s needs at least one case", t->path);
    int64_t max = un ? (int64_t)UINT32_MAX : FDL_MAX_FIELD_TAG;
    const char *what = un ? "union case id" : "field number";
    for (fdl_field *a = t->fields; a; a = a->next) {
      if (a->number < 0 || a->number > max)
        return sem(L, f, a->num_off, "%s %lld of %s.%.*s is out of range "
                   "(0..%lld)", what, (long long)a->number, t->path,
                   (int)a->nlen, a->name, (long long)max);
      for (fdl_field *b = t->fields; b != a; b = b->next) {
        if (b->number == a->number)
          return sem(L, f, a->num_off, "%s %lld is used twice in %s (%.*s "
                     "and %.*s)", what, (long long)a->number, t->path,
                     (int)b->nlen, b->name, (int)a->nlen, a->name);
        if (eqn(b->name, b->nlen, a->name, a->nlen))
          return sem(L, f, a->name_off, "%s %.*s is declared twice in %s",
                     un ? "union case" : "field", (int)a->nlen, a->name,
                     t->path);
      }
    }
  }
  for (fdl_type *c = t->children; c; c = c->next) TRY(check_type(L, c));
  return WIRE_OK;
}

/* Registration identity: by id (explicit or foryc's generated one) or by
 * namespace + name; the registry namespace is the package followed by the
 * path of the enclosing messages, the name the simple name. */
static int32_t identify(fdl_loader *L, fdl_type *t) {
  for (; t; t = t->next) {
    fdl_file *f = t->file;
    const char *pp = t->parent ? t->parent->path : "";
    size_t ppl = t->parent ? t->parent->path_len : 0;
    t->by_name = !t->has_id && f->no_auto_id;
    if (t->by_name)
      t->ns = f->wire_ns ? ajoin(L, f->wire_ns, f->wire_ns_len, pp, ppl,
                                 &t->ns_len)
              : f->has_pkg ? ajoin(L, f->pkg, f->pkg_len, pp, ppl, &t->ns_len)
                           : ajoin(L, "default", 7, pp, ppl, &t->ns_len);
    else
      t->ns = ajoin(L, f->has_pkg ? f->pkg : "", f->pkg_len, pp, ppl,
                    &t->ns_len);
    if (!t->ns) return nomem(L);
    if (t->has_id) {
      if (t->id >= (int64_t)UINT32_MAX)
        return sem(L, f, t->off, "type id %lld of %s is out of range "
                   "(0..4294967294)", (long long)t->id, t->path);
      t->user_id = (uint32_t)t->id;
    } else if (!t->by_name) {
      /* foryc: MurmurHash3_x86_32 of "<package alias or package>.<path>",
       * or of the [alias=...] (qualified with the package unless it has a
       * dot). */
      const char *q = f->pkg_alias ? f->pkg_alias : f->has_pkg ? f->pkg : "";
      size_t ql = f->pkg_alias ? f->pkg_alias_len : f->pkg_len;
      size_t n;
      if (t->alias && memchr(t->alias, '.', t->alias_len))
        t->hash_src = adup(L, t->alias, n = t->alias_len);
      else if (t->alias)
        t->hash_src = ajoin(L, q, ql, t->alias, t->alias_len, &n);
      else
        t->hash_src = ajoin(L, q, ql, t->path, t->path_len, &n);
      if (!t->hash_src) return nomem(L);
      t->user_id = murmur3_32((const uint8_t *)t->hash_src, n);
      t->auto_id = true;
    }
    TRY(identify(L, t->children));
  }
  return WIRE_OK;
}

/* ---- registration ------------------------------------------------------ */

static bool same_str(const char *z, const char *s, size_t n) {
  return strlen(z) == n && (n == 0 || memcmp(z, s, n) == 0);
}

/* Counts the types of a file that a previous call registered identically
 * (index < before) and records their indexes. */
static void count_known(wire_registry *r, uint32_t before, fdl_type *t,
                        size_t *total, size_t *same) {
  for (; t; t = t->next) {
    (*total)++;
    for (uint32_t i = 0; i < before; i++) {
      wire_utype *u = &r->types[i];
      if (!same_str(u->ns, t->ns, t->ns_len) ||
          !same_str(u->name, t->name, t->nlen))
        continue;
      uint8_t tk = t->wire_ext && t->kind == WIRE_KIND_STRUCT ? WIRE_KIND_EXT
                                                              : t->kind;
      if (u->kind == tk && u->by_name == t->by_name &&
          (t->by_name || u->user_id == t->user_id)) {
        (*same)++;
        t->reg = i;
      }
      break;
    }
    count_known(r, before, t->children, total, same);
  }
}

static int32_t register_types(fdl_loader *L, fdl_type *t) {
  for (; t; t = t->next) {
    fdl_file *f = t->file;
    wire_registry *r = L->ctx->reg;
    if (!t->by_name) {
      for (uint32_t i = 0; i < r->ntypes; i++) {
        wire_utype *u = &r->types[i];
        if (u->by_name || u->user_id != t->user_id) continue;
        if (t->auto_id)
          return sem(L, f, t->off, "the generated type id %u of %s (hash of "
                     "\"%s\") is already used by %s; give one of them an "
                     "explicit [id=...] or an [alias=...]", t->user_id,
                     t->path, t->hash_src, u->full_name);
        return sem(L, f, t->off, "type id %u of %s is already used by %s",
                   t->user_id, t->path, u->full_name);
      }
      if (t->user_id == UINT32_MAX)
        return sem(L, f, t->off, "type id 4294967295 of %s is reserved; "
                   "give it an explicit [id=...]", t->path);
    }
    uint32_t idx;
    uint8_t kind = t->wire_ext && t->kind == WIRE_KIND_STRUCT ? WIRE_KIND_EXT
                                                              : t->kind;
    int32_t st = wire__reg_add_type(L->ctx, kind, t->by_name, t->user_id,
                                    t->ns, t->ns_len, t->name, t->nlen, &idx);
    if (st) return rewrap(L, f, t->off, st);
    if (t->kind == WIRE_KIND_STRUCT)
      r->types[idx].evolving = t->evolving >= 0 ? t->evolving > 0
                               : f->evolving >= 0 ? f->evolving > 0 : true;
    t->reg = idx;
    TRY(register_types(L, t->children));
  }
  return WIRE_OK;
}

/* ---- names and field types --------------------------------------------- */

static fdl_type *find_child(fdl_type *list, const char *n, size_t nl) {
  for (; list; list = list->next)
    if (eqn(list->name, list->nlen, n, nl)) return list;
  return NULL;
}

/* "A.B.C" from the types in `list`, through nested types. */
static fdl_type *find_path(fdl_type *list, const char *n, size_t nl) {
  fdl_type *t = NULL;
  size_t i = 0;
  for (;;) {
    size_t j = i;
    while (j < nl && n[j] != '.') j++;
    if (!(t = find_child(list, n + i, j - i))) return NULL;
    if (j >= nl) return t;
    list = t->children;
    i = j + 1;
  }
}

/* Resolves a type name used in file f inside message `scope` (NULL at the
 * top level). As foryc: a simple name is looked up in the enclosing
 * messages, innermost first, then among the top-level types of the file and
 * its imports; a dotted name is a path from a top-level type ("Outer.Inner")
 * or a package-qualified one ("pkg.Outer.Inner"). Beyond foryc, a dotted
 * name may also be relative to an enclosing message. */
static int32_t resolve(fdl_loader *L, fdl_file *f, fdl_type *scope,
                       fdl_texpr *x) {
  const char *n = x->name;
  size_t nl = x->nlen;
  bool dotted = memchr(n, '.', nl) != NULL;
  fdl_type *found = NULL;
  const fdl_file *found_in = NULL;
  if (!dotted)
    for (fdl_type *s = scope; s; s = s->parent)
      if ((found = find_child(s->children, n, nl))) goto done;
  for (size_t k = 0; k < f->nvis; k++) {
    fdl_type *p = find_path(f->vis[k]->types, n, nl);
    if (!p) continue;
    if (found && found != p)
      return sem(L, f, x->off, "type name %.*s is ambiguous: it is declared "
                 "in %s and in %s; qualify it with its package", (int)nl, n,
                 found_in->name, f->vis[k]->name);
    found = p;
    found_in = f->vis[k];
  }
  if (found || !dotted) goto done;
  size_t best = 0;
  for (size_t k = 0; k < f->nvis; k++) {
    fdl_file *g = f->vis[k];
    size_t pl = g->pkg_len;
    if (!g->has_pkg || pl + 1 >= nl || n[pl] != '.' ||
        memcmp(n, g->pkg, pl) != 0 || (found && pl <= best))
      continue;
    fdl_type *p = find_path(g->types, n + pl + 1, nl - pl - 1);
    if (p) {
      found = p;
      best = pl;
    }
  }
  if (found) goto done;
  for (fdl_type *s = scope; s; s = s->parent)
    if ((found = find_path(s->children, n, nl))) goto done;
done:
  if (!found)
    return sem(L, f, x->off, "unknown type %.*s", (int)nl, n);
  x->target = found;
  return WIRE_OK;
}

static bool is_any(const fdl_texpr *x) {
  return x->form == X_PRIM && (prims[x->prim].flags & PF_ANY);
}

static int32_t bad_key(fdl_loader *L, fdl_file *f, const fdl_texpr *x) {
  return sem(L, f, x->off, "map keys cannot be any, bytes, floating-point, "
             "decimal, message, union, list, array or map types");
}

/* `ref` is for messages and unions only. */
static int32_t check_ref(fdl_loader *L, fdl_file *f, const fdl_texpr *x,
                         size_t off) {
  if (is_any(x)) return sem(L, f, off, "ref is not allowed on any");
  if (x->form != X_NAMED)
    return sem(L, f, off, "ref is only valid for message and union types");
  if (x->target->kind == WIRE_KIND_ENUM)
    return sem(L, f, off, "ref is only valid for message and union types, "
               "not for enum %s", x->target->path);
  return WIRE_OK;
}

static uint8_t kind_type_id(uint8_t kind) {
  return kind == WIRE_KIND_ENUM ? WIRE_T_ENUM
         : kind == WIRE_KIND_UNION ? WIRE_T_UNION : WIRE_T_STRUCT;
}

static int32_t build_elem(fdl_loader *L, fdl_file *f, fdl_type *scope,
                          fdl_texpr *x, wire_ftype **out);

/* The registry field type of a type expression; named types are resolved
 * to their registry index (type_id ENUM/STRUCT/UNION by kind, as
 * wire__reg_finish does). */
static int32_t build(fdl_loader *L, fdl_file *f, fdl_type *scope,
                     fdl_texpr *x, bool key, wire_ftype **out) {
  wire_ctx *ctx = L->ctx;
  wire_ftype *ft = NULL;
  if (key && x->form != X_PRIM && x->form != X_NAMED) return bad_key(L, f, x);
  switch (x->form) {
  case X_PRIM: {
    const struct prim_info *p = &prims[x->prim];
    if (key && (p->flags & PF_BAD_KEY)) return bad_key(L, f, x);
    uint8_t id = x->enc == ENC_FIXED ? p->fixed_id
                 : x->enc == ENC_TAGGED ? p->tagged_id : p->id;
    if (!(ft = wire__ftype_new(ctx, id))) return nomem(L);
    break;
  }
  case X_NAMED:
    TRY(resolve(L, f, scope, x));
    if (key && x->target->kind != WIRE_KIND_ENUM) return bad_key(L, f, x);
    if (!(ft = wire__ftype_new(ctx, kind_type_id(x->target->kind))))
      return nomem(L);
    ft->user = x->target->reg;
    break;
  case X_LIST:
    if (!(ft = wire__ftype_new(ctx, WIRE_T_LIST))) return nomem(L);
    TRY(build_elem(L, f, scope, x->elem, &ft->elem));
    break;
  case X_ARRAY: {
    const fdl_texpr *e = x->elem;
    if (e->form != X_PRIM || !prims[e->prim].array_id)
      return sem(L, f, e->off, "array<T> elements must be bool, integer or "
                 "floating-point types; use list<T>");
    if (e->enc != ENC_NONE)
      return sem(L, f, e->off, "array<T> elements take no encoding "
                 "modifier: array elements are always fixed-width");
    const struct prim_info *p = &prims[e->prim];
    if (!(ft = wire__ftype_new(ctx, p->array_id))) return nomem(L);
    /* the element, informational: the fixed-width scalar */
    if (!(ft->elem = wire__ftype_new(ctx, p->fixed_id ? p->fixed_id : p->id)))
      return nomem(L);
    break;
  }
  default: /* X_MAP */
    if (!(ft = wire__ftype_new(ctx, WIRE_T_MAP))) return nomem(L);
    TRY(build(L, f, scope, x->key, true, &ft->key));
    if (f->nullable_map_keys) ft->key->nullable = 1;
    TRY(build_elem(L, f, scope, x->value, &ft->value));
    break;
  }
  *out = ft;
  return WIRE_OK;
}

/* A list element or map value with its `optional` / `ref` modifiers. */
static int32_t build_elem(fdl_loader *L, fdl_file *f, fdl_type *scope,
                          fdl_texpr *x, wire_ftype **out) {
  TRY(build(L, f, scope, x, false, out));
  /* libwire extension: `ref` on a scalar or string element, as pyfory
   * declares the elements of a ref=True list field (R-FDLX-9) */
  if (x->ref && (x->form == X_NAMED || is_any(x)))
    TRY(check_ref(L, f, x, x->off));
  if (x->optional && is_any(x))
    return sem(L, f, x->off, "optional any is not supported; use any");
  (*out)->nullable = x->optional || is_any(x); /* any is always nullable */
  (*out)->ref = x->ref;
  return WIRE_OK;
}

static int32_t add_field(fdl_loader *L, fdl_type *t, fdl_field *a) {
  fdl_file *f = t->file;
  fdl_texpr *x = a->type;
  wire_ftype *ft;
  TRY(build(L, f, t, x, false, &ft));
  if (a->ref) {
    if (x->form == X_LIST || x->form == X_MAP)
      return sem(L, f, a->off, "ref is not allowed on list/map fields; use "
                 "list<ref T> or map<K, ref V>");
    TRY(check_ref(L, f, x, a->off));
  }
  if (a->optional && is_any(x))
    return sem(L, f, a->off, "optional or nullable any is not supported; "
               "use any");
  if (a->wire_ref && x->form != X_LIST && x->form != X_MAP)
    return sem(L, f, a->off, "wire_ref is for list, set and map fields; use "
               "ref T for a message field");
  /* foryc: message fields are always optional, and saying so is an error */
  bool message = x->form == X_NAMED && x->target->kind == WIRE_KIND_STRUCT;
  if (a->optional && message)
    return sem(L, f, a->off, "message fields are always nullable; remove the "
               "optional modifier");
  ft->nullable = a->optional || message || is_any(x);
  /* libwire extension: [nullable = false] keeps a message field non-null,
   * as runtime classes declare struct fields by default, and an any field
   * without a null flag, as pyfory declares a plain Any (R-FDLX-8). */
  if (a->not_nullable) ft->nullable = 0;
  ft->ref = a->ref || a->wire_ref;
  if (a->wire_set && ft->type_id == WIRE_T_LIST) ft->type_id = WIRE_T_SET;
  const char *fname = a->wire_name ? a->wire_name : a->name;
  size_t flen = a->wire_name ? a->wire_name_len : a->nlen;
  int32_t st = wire__reg_add_field(L->ctx, t->reg, fname, flen,
                                   f->fields_by_name ? -1 : (int32_t)a->number,
                                   ft);
  return st ? rewrap(L, f, a->name_off, st) : WIRE_OK;
}

static int32_t fill_types(fdl_loader *L, fdl_type *t) {
  for (; t; t = t->next) {
    fdl_file *f = t->file;
    int32_t st = WIRE_OK;
    if (t->kind == WIRE_KIND_STRUCT) {
      for (fdl_field *a = t->fields; a; a = a->next) TRY(add_field(L, t, a));
    } else if (t->kind == WIRE_KIND_ENUM) {
      for (fdl_value *v = t->values; v && !st; v = v->next)
        if ((st = wire__reg_add_enum_value(L->ctx, t->reg, v->name, v->nlen,
                                           (uint32_t)v->value)))
          return rewrap(L, f, v->off, st);
    } else {
      for (fdl_field *a = t->fields; a; a = a->next) {
        wire_ftype *ft;
        TRY(build(L, f, t->parent, a->type, false, &ft));
        if ((st = wire__reg_add_union_case(L->ctx, t->reg, (uint32_t)a->number,
                                           a->name, a->nlen, ft)))
          return rewrap(L, f, a->name_off, st);
      }
    }
    TRY(fill_types(L, t->children));
  }
  return WIRE_OK;
}

/* Service methods take and return messages or unions. */
static int32_t check_rpcs(fdl_loader *L, fdl_file *f) {
  for (fdl_rpc *r = f->rpcs; r; r = r->next) {
    TRY(resolve(L, f, NULL, r->type));
    if (r->type->target->kind == WIRE_KIND_ENUM)
      return sem(L, f, r->type->off, "rpc type %s must be a message or a "
                 "union, not an enum", r->type->target->path);
  }
  return WIRE_OK;
}

/* ---- driver ------------------------------------------------------------ */

static int32_t load_all(fdl_loader *L, fdl_file *top) {
  TRY(parse_text(L, top));
  TRY(load_imports(L, top));
  fdl_file *g;
  for (g = L->order; g; g = g->next_order) {
    g->vis = wire__arena_alloc(&L->arena, L->nfiles * sizeof *g->vis);
    if (!g->vis) return nomem(L);
    L->stamp++;
    vis_walk(L, g, g->vis, &g->nvis);
  }
  for (g = L->order; g; g = g->next_order) {
    TRY(check_top_names(L, g));
    for (fdl_type *t = g->types; t; t = t->next) TRY(check_type(L, t));
    TRY(identify(L, g->types));
  }
  wire_registry *r = wire__reg(L->ctx);
  if (!r) return nomem(L);
  /* Files whose every type an earlier call registered the same way were
   * loaded before (a shared import): they are not registered again. */
  uint32_t before = r->ntypes;
  int32_t st = WIRE_OK;
  for (g = L->order; g && !st; g = g->next_order) {
    size_t total = 0, same = 0;
    count_known(r, before, g->types, &total, &same);
    g->preloaded = total > 0 && same == total;
    if (!g->preloaded) st = register_types(L, g->types);
  }
  for (g = L->order; g && !st; g = g->next_order)
    if (!g->preloaded) {
      st = fill_types(L, g->types);
      if (!st) st = check_rpcs(L, g);
    }
  if (st) { /* leave the registry as it was */
    r->ntypes = before;
    return st;
  }
  return wire__reg_finish(L->ctx);
}

static void loader_init(fdl_loader *L, wire_ctx *ctx) {
  memset(L, 0, sizeof *L);
  L->ctx = ctx;
  L->arena.ctx = ctx;
}

static void loader_free(fdl_loader *L) {
  for (fdl_file *g = L->files; g; g = g->next_all)
    if (g->buf) wire__free(L->ctx, g->buf, g->buf_cap);
  wire__arena_free(&L->arena);
}

int32_t wire_schema_load_fdl(wire_ctx *ctx, const char *text, size_t len,
                             const char *name) {
  if (!ctx) return WIRE_E_ARG;
  if (!text && len) return wire__fail(ctx, WIRE_E_ARG, 0, "no schema text");
  fdl_loader L;
  loader_init(&L, ctx);
  if (!name || !*name) name = "<input>";
  int32_t st;
  fdl_file *f = new_file(&L, name, strlen(name));
  if (!f) {
    st = nomem(&L);
  } else {
    f->text = text ? text : "";
    f->len = len;
    st = load_all(&L, f);
  }
  loader_free(&L);
  return st;
}

int32_t wire_schema_load_fdl_file(wire_ctx *ctx, const char *path) {
  if (!ctx) return WIRE_E_ARG;
  if (!path || !*path) return wire__fail(ctx, WIRE_E_ARG, 0, "no path");
  fdl_loader L;
  loader_init(&L, ctx);
  int32_t st;
  fdl_file *f = new_file(&L, path, strlen(path));
  if (!f) {
    st = nomem(&L);
  } else {
    bool missing;
    st = read_file(&L, f, &missing);
    if (st && missing)
      st = wire__fail(ctx, WIRE_E_ARG, 0, "%s: cannot read the file", path);
    if (!st) st = load_all(&L, f);
  }
  loader_free(&L);
  return st;
}
