/* fdl.h - the pieces of the FDL loader shared by its files.
 *
 *   fdl_lex.c      source text -> tokens
 *   fdl_parse.c    tokens -> AST (recursive descent)
 *   fdl_resolve.c  declaration checks, type ids, registration, field types
 *   fdl.c          errors, imports and the driver (wire_schema_load_fdl*)
 *
 * Cross-file functions keep their short names inside the loader and are
 * linked as wire__fdl_<name> (the aliases below). */
#ifndef WIRE_FDL_H
#define WIRE_FDL_H

#include "schema.h"

#include <stdarg.h>
#include <stdio.h>

#define adup wire__fdl_adup
#define ajoin wire__fdl_ajoin
#define anew wire__fdl_anew
#define check_rpcs wire__fdl_check_rpcs
#define check_top_names wire__fdl_check_top_names
#define check_type wire__fdl_check_type
#define count_known wire__fdl_count_known
#define fill_types wire__fdl_fill_types
#define find_prim wire__fdl_find_prim
#define identify wire__fdl_identify
#define lex wire__fdl_lex
#define line_col wire__fdl_line_col
#define nomem wire__fdl_nomem
#define nprims wire__fdl_nprims
#define parse_file wire__fdl_parse_file
#define prims wire__fdl_prims
#define register_types wire__fdl_register_types
#define rewrap wire__fdl_rewrap
#define sem wire__fdl_sem
#define syn wire__fdl_syn
#define vfail wire__fdl_vfail


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
  size_t not_nullable_off; /* where that option is (for the warning) */
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
  bool quiet_foryc;     /* option wire_warn_foryc = false (extension): no
                           warnings where foryc reads the file otherwise */
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
struct prim_info {
  const char *name;
  uint8_t id, fixed_id, tagged_id, array_id, flags;
};
extern const struct prim_info prims[];
extern const size_t nprims;

static inline bool eqn(const char *a, size_t al, const char *b, size_t bl) {
  return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}
static inline bool eqs(const char *a, size_t al, const char *s) {
  return eqn(a, al, s, strlen(s));
}


/* ---- shared functions -------------------------------------------------- */

char *adup(fdl_loader *L, const char *s, size_t n);
char *ajoin(fdl_loader *L, const char *a, size_t al, const char *b, size_t bl, size_t *out_len);
void *anew(fdl_loader *L, size_t size);
void line_col(const fdl_file *f, size_t off, unsigned *line, unsigned *col);
/* Adds "file:line:col: text" to the context's warnings of this load
 * (wire_schema_warning); WIRE_E_NOMEM if it cannot. */
int32_t wire__fdl_warn(fdl_loader *L, const fdl_file *f, size_t off,
                       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int32_t nomem(fdl_loader *L);
int32_t rewrap(fdl_loader *L, const fdl_file *f, size_t off, int32_t st);
__attribute__((format(printf, 4, 5)))
int32_t sem(fdl_loader *L, const fdl_file *f, size_t off, const char *fmt, ...);
__attribute__((format(printf, 4, 5)))
int32_t syn(fdl_loader *L, const fdl_file *f, size_t off, const char *fmt, ...);
__attribute__((format(printf, 5, 0)))
int32_t vfail(fdl_loader *L, const fdl_file *f, int32_t code, size_t off, const char *fmt, va_list ap);
int32_t lex(fdl_loader *L, fdl_file *f);
int32_t parse_file(fdl_parser *P);
int32_t check_rpcs(fdl_loader *L, fdl_file *f);
int32_t check_top_names(fdl_loader *L, fdl_file *f);
int32_t check_type(fdl_loader *L, fdl_type *t);
void count_known(wire_registry *r, uint32_t before, fdl_type *t, size_t *total, size_t *same);
int32_t fill_types(fdl_loader *L, fdl_type *t);
int32_t identify(fdl_loader *L, fdl_type *t);
int32_t register_types(fdl_loader *L, fdl_type *t);
int find_prim(const char *s, size_t n);

#endif
