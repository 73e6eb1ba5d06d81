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
#include "fdl.h"

#include <unistd.h>

/* ---- scalar types ------------------------------------------------------ */

/* Names and wire type ids of the FDL scalars (struct prim_info, fdl.h). */
const struct prim_info prims[] = {
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
const size_t nprims = sizeof prims / sizeof prims[0];

/* Implements R-FDL-8. */
int find_prim(const char *s, size_t n) {
  for (size_t i = 0; i < nprims; i++)
    if (eqs(s, n, prims[i].name)) return (int)i;
  return -1;
}

/* ---- errors and memory ------------------------------------------------- */

void line_col(const fdl_file *f, size_t off, unsigned *line,
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

int32_t vfail(fdl_loader *L, const fdl_file *f, int32_t code,
                     size_t off, const char *fmt, va_list ap) {
  char what[224];
  vsnprintf(what, sizeof what, fmt, ap);
  unsigned line, col;
  line_col(f, off, &line, &col);
  return wire__fail(L->ctx, code, off, "%s:%u:%u: %s", f->name, line, col,
                    what);
}

void wire__fdl_warnings_free(wire_ctx *ctx) {
  for (size_t i = 0; i < ctx->n_fdl_warnings; i++)
    wire__free(ctx, ctx->fdl_warnings[i], strlen(ctx->fdl_warnings[i]) + 1);
  wire__free(ctx, ctx->fdl_warnings, ctx->n_fdl_warnings * sizeof(char *));
  ctx->fdl_warnings = NULL;
  ctx->n_fdl_warnings = 0;
}

int32_t wire__fdl_warn(fdl_loader *L, const fdl_file *f, size_t off,
                       const char *fmt, ...) {
  wire_ctx *ctx = L->ctx;
  if (ctx->n_fdl_warnings >= 4096) return WIRE_OK; /* enough said */
  char what[256], text[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  unsigned line, col;
  line_col(f, off, &line, &col);
  int n = snprintf(text, sizeof text, "%s:%u:%u: %s", f->name, line, col, what);
  size_t len = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
  char *copy = wire__alloc(ctx, len + 1);
  char **list = copy ? wire__realloc(ctx, ctx->fdl_warnings,
                                     ctx->n_fdl_warnings * sizeof(char *),
                                     (ctx->n_fdl_warnings + 1) * sizeof(char *))
                     : NULL;
  if (!list) {
    wire__free(ctx, copy, len + 1);
    return nomem(L);
  }
  memcpy(copy, text, len);
  copy[len] = 0;
  list[ctx->n_fdl_warnings++] = copy;
  ctx->fdl_warnings = list;
  return WIRE_OK;
}

size_t wire_schema_warning_count(const wire_ctx *ctx) {
  return ctx ? ctx->n_fdl_warnings : 0;
}

const char *wire_schema_warning(const wire_ctx *ctx, size_t index) {
  return ctx && index < ctx->n_fdl_warnings ? ctx->fdl_warnings[index] : NULL;
}

/* A syntax error (what foryc's lexer/parser rejects). */
int32_t syn(fdl_loader *L, const fdl_file *f, size_t off,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int32_t st = vfail(L, f, FDL_E_SYNTAX, off, fmt, ap);
  va_end(ap);
  return st;
}

/* A semantic error (what foryc's validator rejects). */
int32_t sem(fdl_loader *L, const fdl_file *f, size_t off,
                   const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int32_t st = vfail(L, f, FDL_E_SCHEMA, off, fmt, ap);
  va_end(ap);
  return st;
}

int32_t nomem(fdl_loader *L) {
  return wire__fail(L->ctx, WIRE_E_NOMEM, 0, "out of memory");
}

/* Prefixes the error a registry builder just recorded with a position. */
int32_t rewrap(fdl_loader *L, const fdl_file *f, size_t off,
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

void *anew(fdl_loader *L, size_t size) {
  void *p = wire__arena_alloc(&L->arena, size);
  if (p) memset(p, 0, size);
  return p;
}

char *adup(fdl_loader *L, const char *s, size_t n) {
  char *p = wire__arena_alloc(&L->arena, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = 0;
  return p;
}

/* "a.b" from a and b; either may be empty. */
char *ajoin(fdl_loader *L, const char *a, size_t al, const char *b,
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
      char *nb = wire__grow(L->ctx, buf, &cap, n, 1, 4096);
      if (!nb) {
        wire__free(L->ctx, buf, cap);
        fclose(fp);
        return nomem(L);
      }
      buf = nb;
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
/* Implements R-FDL-2. */
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
    /* not next to the importing file: the import directories, in order
     * (foryc -I; wire_schema_add_import_dir) */
    if (imp->path[0] != '/' && access(key, R_OK) != 0) {
      for (uint32_t k = 0; k < L->ctx->n_import_dirs; k++) {
        const char *d = L->ctx->import_dirs[k];
        size_t n = strlen(d);
        char *j = wire__arena_alloc(&L->arena, n + 1 + imp->plen + 1);
        if (!j) return nomem(L);
        memcpy(j, d, n);
        j[n] = '/';
        memcpy(j + n + 1, imp->path, imp->plen);
        j[n + 1 + imp->plen] = 0;
        char *k2 = normalize_path(L, j, n + 1 + imp->plen);
        if (!k2) return nomem(L);
        if (access(k2, R_OK) == 0) {
          key = k2;
          break;
        }
      }
    }
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
  wire__fdl_warnings_free(ctx); /* the warnings are the last load's */
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

