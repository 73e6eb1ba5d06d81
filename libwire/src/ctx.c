/* ctx.c - contexts, allocation, errors, status and type names. */
#include "tape.h"

#include <stdio.h>
#include <stdlib.h>

uint32_t wire_version_number(void) {
  return WIRE_VERSION_MAJOR * 10000 + WIRE_VERSION_MINOR * 100 +
         WIRE_VERSION_PATCH;
}

#define WIRE_STR2(x) #x
#define WIRE_STR(x) WIRE_STR2(x)
const char *wire_version_string(void) {
  return WIRE_STR(WIRE_VERSION_MAJOR) "." WIRE_STR(WIRE_VERSION_MINOR) "."
      WIRE_STR(WIRE_VERSION_PATCH);
}

static const char *const status_names[WIRE_STATUS_COUNT] = {
    "ok",          "truncated",   "varint",     "header",   "ref",
    "type",        "string",      "length",     "depth",    "limit",
    "nomem",       "arg",         "meta_string", "decimal", "value",
    "unsupported", "collection",  "notation",   "buffer_full", "state",
    "trailing",    "typedef",     "schema",     "idl",      "encode"};

static const char *const status_messages[WIRE_STATUS_COUNT] = {
    "success",
    "the input ends inside a value",
    "a varint is too long, not in canonical form, or out of range",
    "the payload header bitmap is invalid",
    "a reference flag or reference id is invalid",
    "a type id is unknown, reserved or not allowed here",
    "a string header or its text is invalid",
    "a length or count is inconsistent with the input",
    "the value nesting is deeper than the depth limit",
    "a configured size limit was exceeded",
    "out of memory",
    "an argument is invalid",
    "a meta string is invalid",
    "a decimal is invalid or not in canonical form",
    "a value is outside the domain of its type",
    "the input uses a format feature libwire does not support",
    "a collection element header or map chunk is invalid",
    "the value cannot be written as requested",
    "the output buffer is too small",
    "the call is not valid in the current state",
    "bytes remain after the expected values",
    "a TypeDef is malformed, over a limit, or its hash does not match",
    "the payload does not match the schema (unknown type, schema hash)",
    "a Fory IDL schema does not parse or is inconsistent",
    "the value cannot be encoded as given"};

const char *wire_status_name(int32_t s) {
  return s >= 0 && s < WIRE_STATUS_COUNT ? status_names[s] : "unknown";
}
const char *wire_status_message(int32_t s) {
  return s >= 0 && s < WIRE_STATUS_COUNT ? status_messages[s]
                                         : "unknown status";
}

static const char *const type_names[57] = {
    "unknown", "bool", "int8", "int16", "int32", "varint32", "int64",
    "varint64", "tagged_int64", "uint8", "uint16", "uint32", "var_uint32",
    "uint64", "var_uint64", "tagged_uint64", "float8", "float16", "bfloat16",
    "float32", "float64", "string", "list", "set", "map", "enum",
    "named_enum", "struct", "compatible_struct", "named_struct",
    "named_compatible_struct", "ext", "named_ext", "union", "typed_union",
    "named_union", "none", "duration", "timestamp", "date", "decimal",
    "binary", "array", "bool_array", "int8_array", "int16_array",
    "int32_array", "int64_array", "uint8_array", "uint16_array",
    "uint32_array", "uint64_array", "float8_array", "float16_array",
    "bfloat16_array", "float32_array", "float64_array"};

const char *wire_type_name(uint32_t t) {
  if (t < 57) return type_names[t];
  if (t == WIRE_T_NULL) return "null";
  return NULL;
}

int32_t wire_type_from_name(const char *name, size_t len) {
  if (!name) return -1;
  for (uint32_t t = 0; t < 57; t++)
    if (strlen(type_names[t]) == len && memcmp(type_names[t], name, len) == 0)
      return (int32_t)t;
  if (len == 4 && memcmp(name, "null", 4) == 0) return WIRE_T_NULL;
  return -1;
}

uint32_t wire_type_array_width(uint32_t t) {
  switch (t) {
  case WIRE_T_BOOL_ARRAY: case WIRE_T_INT8_ARRAY: case WIRE_T_UINT8_ARRAY:
    return 1;
  case WIRE_T_INT16_ARRAY: case WIRE_T_UINT16_ARRAY:
  case WIRE_T_FLOAT16_ARRAY: case WIRE_T_BFLOAT16_ARRAY:
    return 2;
  case WIRE_T_INT32_ARRAY: case WIRE_T_UINT32_ARRAY: case WIRE_T_FLOAT32_ARRAY:
    return 4;
  case WIRE_T_INT64_ARRAY: case WIRE_T_UINT64_ARRAY: case WIRE_T_FLOAT64_ARRAY:
    return 8;
  default:
    return 0;
  }
}

/* ---- allocation ---- */

static void *std_malloc(void *u, size_t n) { (void)u; return malloc(n); }
static void *std_realloc(void *u, void *p, size_t o, size_t n) {
  (void)u; (void)o;
  return realloc(p, n);
}
static void std_free(void *u, void *p, size_t n) { (void)u; (void)n; free(p); }

wire_ctx *wire_ctx_new(void) {
  return wire_ctx_new_with_allocator(std_malloc, std_realloc, std_free, NULL);
}

wire_ctx *wire_ctx_new_with_allocator(wire_malloc_fn m, wire_realloc_fn r,
                                      wire_free_fn f, void *user) {
  if (!m || !r || !f) return NULL;
  wire_ctx *ctx = m(user, sizeof *ctx);
  if (!ctx) return NULL;
  memset(ctx, 0, sizeof *ctx);
  ctx->malloc_fn = m;
  ctx->realloc_fn = r;
  ctx->free_fn = f;
  ctx->user = user;
  ctx->max_depth = 64;
  ctx->max_binary = UINT64_C(1) << 30;
  ctx->max_collection = UINT64_C(1) << 24;
  ctx->max_nodes = UINT64_C(1) << 26;
  ctx->max_decimal_bytes = 10000;
  ctx->max_roots = UINT64_C(1) << 20;
  ctx->max_typedef_bytes = 4096;
  ctx->max_typedef_fields = 512;
  ctx->max_typedef_cache = 256;
  ctx->max_mem_decode = 512;
  ctx->max_typedef_cache_bytes = UINT64_C(1) << 20;
  return ctx;
}

void wire__ctx_release_spares(wire_ctx *ctx) {
  if (ctx->spare_doc) {
    wire_doc *d = ctx->spare_doc;
    ctx->spare_doc = NULL;
    wire__arena_free(&d->arena);
    wire__arena_free(&d->nodes);
    wire__free(ctx, d, sizeof *d);
  }
  wire__free(ctx, ctx->spare_out, ctx->spare_out_cap);
  ctx->spare_out = NULL;
  ctx->spare_out_cap = 0;
  wire__enc_keep_free(ctx);
  wire__dec_keep_free(ctx);
}

void wire_ctx_free(wire_ctx *ctx) {
  if (!ctx) return;
  if (ctx->refs) wire__free(ctx, ctx->refs, ctx->refs_cap * sizeof(void *));
  wire__tdcache_free(ctx);
  wire__reg_free(ctx);
  wire__tape_scratch_free(ctx);
  wire__mem_free(ctx);
  wire__oob_free(ctx);
  wire__fdl_warnings_free(ctx);
  wire__ctx_release_spares(ctx);
  for (uint32_t i = 0; i < ctx->n_import_dirs; i++)
    wire__free(ctx, ctx->import_dirs[i], strlen(ctx->import_dirs[i]) + 1);
  wire__free(ctx, ctx->import_dirs, ctx->n_import_dirs * sizeof(char *));
  ctx->free_fn(ctx->user, ctx, sizeof *ctx);
}

int32_t wire_schema_add_import_dir(wire_ctx *ctx, const char *dir) {
  if (!ctx) return WIRE_E_ARG;
  if (!dir || !*dir)
    return wire__fail(ctx, WIRE_E_ARG, 0, "import directory is empty");
  if (ctx->n_import_dirs >= 256)
    return wire__fail(ctx, WIRE_E_LIMIT, 0, "more than 256 import directories");
  size_t n = strlen(dir);
  char *copy = wire__alloc(ctx, n + 1);
  char **dirs = copy ? wire__realloc(ctx, ctx->import_dirs,
                                     ctx->n_import_dirs * sizeof(char *),
                                     (ctx->n_import_dirs + 1) * sizeof(char *))
                     : NULL;
  if (!dirs) {
    wire__free(ctx, copy, n + 1);
    return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  }
  memcpy(copy, dir, n + 1);
  dirs[ctx->n_import_dirs++] = copy;
  ctx->import_dirs = dirs;
  return WIRE_OK;
}

void *wire__alloc(wire_ctx *ctx, size_t n) {
  return ctx->malloc_fn(ctx->user, n ? n : 1);
}
void *wire__realloc(wire_ctx *ctx, void *p, size_t o, size_t n) {
  if (!p) return wire__alloc(ctx, n);
  return ctx->realloc_fn(ctx->user, p, o, n);
}
void wire__free(wire_ctx *ctx, void *p, size_t n) {
  if (p) ctx->free_fn(ctx->user, p, n);
}

#define BYTES_PREFIX 16
uint8_t *wire__bytes_alloc(wire_ctx *ctx, size_t size) {
  if (size > SIZE_MAX - BYTES_PREFIX) return NULL;
  uint8_t *p = wire__alloc(ctx, size + BYTES_PREFIX);
  if (!p) return NULL;
  memcpy(p, &size, sizeof size);
  return p + BYTES_PREFIX;
}

/* Freed output blocks up to this size are kept for the next encode. */
#define SPARE_OUT_MAX ((size_t)1 << 20)

void wire_ctx_free_bytes(wire_ctx *ctx, uint8_t *bytes) {
  if (!ctx || !bytes) return;
  size_t size;
  memcpy(&size, bytes - BYTES_PREFIX, sizeof size);
  if (!ctx->spare_out && size + BYTES_PREFIX <= SPARE_OUT_MAX &&
      size + BYTES_PREFIX >= 256) {
    ctx->spare_out = bytes - BYTES_PREFIX;
    ctx->spare_out_cap = size + BYTES_PREFIX;
    return;
  }
  wire__free(ctx, bytes - BYTES_PREFIX, size + BYTES_PREFIX);
}

uint8_t *wire__out_take(wire_ctx *ctx, size_t want, size_t *cap) {
  uint8_t *p = ctx->spare_out;
  if (p) {
    ctx->spare_out = NULL;
    *cap = ctx->spare_out_cap;
    return p;
  }
  if (!(p = wire__alloc(ctx, want))) return NULL;
  *cap = want;
  return p;
}

/* The size in front is that of the whole block, so that
 * wire_ctx_free_bytes gives the allocator back what it allocated. */
uint8_t *wire__out_finish(uint8_t *p, size_t cap) {
  size_t size = cap - BYTES_PREFIX;
  memcpy(p, &size, sizeof size);
  return p + BYTES_PREFIX;
}

int32_t wire__refs_reserve(wire_ctx *ctx, size_t n) {
  if (n <= ctx->refs_cap) return WIRE_OK;
  void **p = wire__grow(ctx, ctx->refs, &ctx->refs_cap, n - 1, sizeof *p, 64);
  if (!p) return WIRE_E_NOMEM;
  ctx->refs = p;
  return WIRE_OK;
}

/* ---- options, limits, errors ---- */

static int32_t set_option(wire_ctx *ctx, int32_t opt, int64_t v) {
  switch (opt) {
  case WIRE_OPT_REF_TRACKING: ctx->ref_tracking = v != 0; return WIRE_OK;
  case WIRE_OPT_COMPATIBLE: ctx->compatible = v != 0; return WIRE_OK;
  case WIRE_OPT_STRING_POLICY:
    if (v < WIRE_STRING_AS_GIVEN || v > WIRE_STRING_UTF8)
      return wire__fail(ctx, WIRE_E_ARG, 0, "string policy %lld is not one of "
                        "WIRE_STRING_AS_GIVEN/JAVA/UTF8", (long long)v);
    ctx->string_policy = (uint8_t)v;
    return WIRE_OK;
  case WIRE_OPT_TRUSTED_TEXT: ctx->trusted_text = v != 0; return WIRE_OK;
  case WIRE_OPT_PEER:
    if (v < WIRE_PEER_NONE || v > WIRE_PEER_GO)
      return wire__fail(ctx, WIRE_E_ARG, 0, "peer %lld is not one of "
                        "WIRE_PEER_NONE/JAVA/PYFORY/GO", (long long)v);
    ctx->peer = (uint8_t)v;
    return WIRE_OK;
  case WIRE_OPT_PROJECT_STRICT: ctx->project_strict = v != 0; return WIRE_OK;
  case WIRE_OPT_OUT_OF_BAND: ctx->oob = v != 0; return WIRE_OK;
  case WIRE_OPT_OOB_MIN_BYTES:
    if (v < 0)
      return wire__fail(ctx, WIRE_E_ARG, 0, "a negative size (%lld)",
                        (long long)v);
    ctx->oob_min = (uint64_t)v;
    return WIRE_OK;
  default:
    return wire__fail(ctx, WIRE_E_ARG, 0, "unknown option %d", (int)opt);
  }
}

int32_t wire_ctx_set_option(wire_ctx *ctx, int32_t opt, int64_t v) {
  if (!ctx) return WIRE_E_ARG;
  int32_t st = set_option(ctx, opt, v);
  /* the options as generated code sees them (wire_gen_begin) */
  ctx->gen_mode =
      (ctx->compatible ? WIRE_GEN_COMPATIBLE : 0) |
      (ctx->ref_tracking ? WIRE_GEN_REF_TRACKING : 0) |
      (ctx->trusted_text ? WIRE_GEN_TRUSTED_TEXT : 0) |
      (ctx->string_policy == WIRE_STRING_JAVA ? WIRE_GEN_STRING_JAVA : 0) |
      (ctx->peer != WIRE_PEER_NONE ? WIRE_GEN_PEER : 0);
  return st;
}

int64_t wire_ctx_get_option(const wire_ctx *ctx, int32_t opt) {
  if (!ctx) return -1;
  switch (opt) {
  case WIRE_OPT_REF_TRACKING: return ctx->ref_tracking;
  case WIRE_OPT_COMPATIBLE: return ctx->compatible;
  case WIRE_OPT_STRING_POLICY: return ctx->string_policy;
  case WIRE_OPT_TRUSTED_TEXT: return ctx->trusted_text;
  case WIRE_OPT_PEER: return ctx->peer;
  case WIRE_OPT_PROJECT_STRICT: return ctx->project_strict;
  case WIRE_OPT_OUT_OF_BAND: return ctx->oob;
  case WIRE_OPT_OOB_MIN_BYTES: return (int64_t)ctx->oob_min;
  default: return -1;
  }
}

int32_t wire_ctx_set_limit(wire_ctx *ctx, int32_t which, uint64_t v) {
  if (!ctx) return WIRE_E_ARG;
  /* Cached TypeDefs were checked against the old limits. */
  wire__tdcache_flush(ctx);
  switch (which) {
  case WIRE_LIMIT_DEPTH:
    if (v < 1 || v > WIRE_DEPTH_MAX)
      return wire__fail(ctx, WIRE_E_ARG, 0, "depth limit must be 1..%d",
                        WIRE_DEPTH_MAX);
    ctx->max_depth = (uint32_t)v;
    return WIRE_OK;
  case WIRE_LIMIT_BINARY: ctx->max_binary = v; return WIRE_OK;
  case WIRE_LIMIT_COLLECTION: ctx->max_collection = v; return WIRE_OK;
  case WIRE_LIMIT_NODES: ctx->max_nodes = v; return WIRE_OK;
  case WIRE_LIMIT_DECIMAL_DIGITS: ctx->max_decimal_bytes = v; return WIRE_OK;
  case WIRE_LIMIT_ROOTS: ctx->max_roots = v; return WIRE_OK;
  case WIRE_LIMIT_TYPEDEF_BYTES: ctx->max_typedef_bytes = v; return WIRE_OK;
  case WIRE_LIMIT_TYPEDEF_FIELDS: ctx->max_typedef_fields = v; return WIRE_OK;
  case WIRE_LIMIT_TYPEDEF_CACHE: ctx->max_typedef_cache = v; return WIRE_OK;
  case WIRE_LIMIT_MEM_DECODE: ctx->max_mem_decode = v; return WIRE_OK;
  case WIRE_LIMIT_TYPEDEF_CACHE_BYTES:
    ctx->max_typedef_cache_bytes = v;
    return WIRE_OK;
  default:
    return wire__fail(ctx, WIRE_E_ARG, 0, "unknown limit %d", (int)which);
  }
}

uint64_t wire_ctx_get_limit(const wire_ctx *ctx, int32_t which) {
  if (!ctx) return 0;
  switch (which) {
  case WIRE_LIMIT_DEPTH: return ctx->max_depth;
  case WIRE_LIMIT_BINARY: return ctx->max_binary;
  case WIRE_LIMIT_COLLECTION: return ctx->max_collection;
  case WIRE_LIMIT_NODES: return ctx->max_nodes;
  case WIRE_LIMIT_DECIMAL_DIGITS: return ctx->max_decimal_bytes;
  case WIRE_LIMIT_ROOTS: return ctx->max_roots;
  case WIRE_LIMIT_TYPEDEF_BYTES: return ctx->max_typedef_bytes;
  case WIRE_LIMIT_TYPEDEF_FIELDS: return ctx->max_typedef_fields;
  case WIRE_LIMIT_TYPEDEF_CACHE: return ctx->max_typedef_cache;
  case WIRE_LIMIT_MEM_DECODE: return ctx->max_mem_decode;
  case WIRE_LIMIT_TYPEDEF_CACHE_BYTES: return ctx->max_typedef_cache_bytes;
  default: return 0;
  }
}

int32_t wire__fail(wire_ctx *ctx, int32_t code, uint64_t offset,
                   const char *fmt, ...) {
  if (!ctx) return code;
  ctx->err_code = code;
  ctx->err_offset = offset;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->err_msg, sizeof ctx->err_msg, fmt, ap);
  va_end(ap);
  return code;
}

int32_t wire_ctx_error_code(const wire_ctx *ctx) {
  return ctx ? ctx->err_code : WIRE_E_ARG;
}
uint64_t wire_ctx_error_offset(const wire_ctx *ctx) {
  return ctx ? ctx->err_offset : 0;
}
const char *wire_ctx_error_message(const wire_ctx *ctx) {
  if (!ctx) return "no context";
  if (ctx->err_code == WIRE_OK) return "";
  return ctx->err_msg;
}
void wire_ctx_clear_error(wire_ctx *ctx) {
  if (!ctx) return;
  ctx->err_code = WIRE_OK;
  ctx->err_offset = 0;
  ctx->err_msg[0] = 0;
}
