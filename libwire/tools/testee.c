/* testee.c - `wire testee`: libwire behind the conformance testee protocol
 * (conformance/PROTOCOL.md). One JSON request per stdin line, one response
 * per stdout line. Every request gets a fresh wire_ctx with the request's
 * options and schemas, so no state leaks from one request to the next. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "hex.h"
#include "wire.h"

/* Every feature tag libwire claims (the tags of fixtures/schema.json, and
 * "evolution": decode with "project", the readers checks of valid tests). */
static const char *const capabilities[] = {
    "ref_tracking", "compatible", "schema",   "float16",     "bfloat16",
    "decimal",      "struct",     "enum",     "union",       "ext",
    "named_types",  "unsigned",   "dense_array", "temporal", "meta_string",
    "typedef",      "evolution", "peer", "oob", NULL};

json_t *testee_hello(void) {
  json_t *caps = json_array();
  for (int i = 0; capabilities[i]; i++)
    json_array_append_new(caps, json_string(capabilities[i]));
  return json_pack("{s:{s:s,s:s,s:s,s:o}}", "hello", "name", "libwire",
                   "version", wire_version_string(), "runtime", "libwire",
                   "capabilities", caps);
}

static json_t *fail(json_t *resp, const char *cls, const char *msg) {
  json_object_set_new(resp, "ok", json_false());
  json_object_set_new(resp, "class", json_string(cls));
  json_object_set_new(resp, "message", json_string(msg ? msg : ""));
  return resp;
}

/* A failed library call: class, message "at byte N: ..." and the offset. */
static json_t *fail_ctx(json_t *resp, wire_ctx *ctx, int32_t st,
                        const char *detail) {
  const char *m = detail && *detail ? detail : wire_ctx_error_message(ctx);
  if (!*m) m = wire_status_message(st);
  unsigned long long off = (unsigned long long)wire_ctx_error_offset(ctx);
  size_t n = strlen(m) + 48;
  char *msg = malloc(n);
  snprintf(msg, n, "at byte %llu: %s", off, m);
  fail(resp, wire_status_name(st), msg);
  json_object_set_new(resp, "offset", json_integer((json_int_t)off));
  free(msg);
  return resp;
}

/* Hex text to new bytes; NULL if it is not an even number of hex digits. */
static uint8_t *from_hex(const char *s, size_t *len) {
  size_t n = strlen(s);
  uint8_t *b = malloc(n / 2 + 1);
  if (!b) return NULL;
  *len = hex_decode(s, n, b, 0, NULL);
  if (*len == (size_t)-1) {
    free(b);
    return NULL;
  }
  return b;
}

/* A node in the value notation, printed by libwire and read back as a
 * jansson value for the response; NULL with *st on failure. */
static json_t *notation_of(wire_ctx *ctx, wire_doc *doc, wire_node *n,
                           uint32_t flags, int32_t *st) {
  uint8_t *text;
  size_t len;
  *st = wire_notation_print(ctx, doc, n, flags, &text, &len);
  if (*st) return NULL;
  json_error_t jerr;
  json_t *j = json_loadb((const char *)text, len, JSON_ALLOW_NUL, &jerr);
  wire_ctx_free_bytes(ctx, text);
  if (!j) *st = WIRE_E_NOTATION;
  return j;
}

/* A request value given to libwire's notation parser as text. */
static int32_t add_notation_root(wire_ctx *ctx, wire_doc *doc, json_t *v) {
  char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  if (!text) return WIRE_E_NOMEM;
  wire_node *n;
  size_t used;
  int32_t st = wire_notation_parse(ctx, doc, text, strlen(text), 0, &n, &used);
  if (!st) st = wire_doc_add_root(doc, n);
  free(text);
  return st;
}

static json_t *to_hex(const uint8_t *b, size_t n) {
  char *s = malloc(2 * n + 1);
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    s[2 * i] = digits[b[i] >> 4];
    s[2 * i + 1] = digits[b[i] & 15];
  }
  json_t *j = json_stringn(s, 2 * n);
  free(s);
  return j;
}

/* Reads config and schemas into a new context; on failure fills resp and
 * returns NULL. */
static wire_ctx *request_ctx(const json_t *req, const char *root,
                             json_t *resp) {
  const json_t *config = json_object_get(req, "config");
  int ref = 0, compatible = 0, peer = WIRE_PEER_NONE;
  if (config && !json_is_null(config)) {
    if (!json_is_object(config)) {
      fail(resp, "arg", "config must be an object");
      return NULL;
    }
    const json_t *r = json_object_get(config, "ref");
    const json_t *c = json_object_get(config, "compatible");
    if ((r && !json_is_boolean(r)) || (c && !json_is_boolean(c))) {
      fail(resp, "arg", "config.ref and config.compatible must be booleans");
      return NULL;
    }
    ref = r && json_is_true(r);
    compatible = c && json_is_true(c);
    const json_t *pe = json_object_get(config, "peer");
    const char *pn = pe ? json_string_value(pe) : NULL;
    if (pe && !pn) {
      fail(resp, "arg", "config.peer must be java, pyfory or go");
      return NULL;
    }
    if (pn && !strcmp(pn, "java")) peer = WIRE_PEER_JAVA;
    else if (pn && !strcmp(pn, "pyfory")) peer = WIRE_PEER_PYFORY;
    else if (pn && !strcmp(pn, "go")) peer = WIRE_PEER_GO;
    else if (pn) {
      fail(resp, "arg", "config.peer must be java, pyfory or go");
      return NULL;
    }
  }
  const json_t *schemas = json_object_get(req, "schemas");
  if (schemas && !json_is_null(schemas) && !json_is_array(schemas)) {
    fail(resp, "arg", "schemas must be an array of paths");
    return NULL;
  }
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) {
    fail(resp, "nomem", "cannot create a context");
    return NULL;
  }
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, ref);
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, compatible);
  wire_ctx_set_option(ctx, WIRE_OPT_PEER, peer);
  size_t i;
  const json_t *s;
  json_array_foreach(schemas, i, s) {
    const char *path = json_string_value(s);
    if (!path) {
      fail(resp, "arg", "schemas must be an array of paths");
      wire_ctx_free(ctx);
      return NULL;
    }
    char *full = NULL;
    if (path[0] != '/' && root && *root) {
      size_t n = strlen(root) + strlen(path) + 2;
      full = malloc(n);
      snprintf(full, n, "%s/%s", root, path);
    }
    int32_t st = wire_schema_load_fdl_file(ctx, full ? full : path);
    free(full);
    if (st) {
      fail_ctx(resp, ctx, st, NULL);
      wire_ctx_free(ctx);
      return NULL;
    }
  }
  return ctx;
}

/* The "buffers" of a decode request (hex strings) on the context; the
 * bytes in *out (freed by the caller, after the decode). */
static int set_buffers(const json_t *req, wire_ctx *ctx, json_t *resp,
                       uint8_t ***out, size_t *n) {
  const json_t *bufs = json_object_get(req, "buffers");
  *out = NULL;
  *n = 0;
  if (!bufs || json_is_null(bufs)) return 0;
  if (!json_is_array(bufs)) {
    fail(resp, "arg", "\"buffers\" must be an array of hex strings");
    return 1;
  }
  size_t k = json_array_size(bufs);
  uint8_t **data = calloc(k + 1, sizeof *data);
  size_t *lens = calloc(k + 1, sizeof *lens);
  for (size_t i = 0; data && lens && i < k; i++) {
    const char *h = json_string_value(json_array_get(bufs, i));
    if (!h || !(data[i] = from_hex(h, &lens[i]))) {
      for (size_t j = 0; j < i; j++) free(data[j]);
      free(data);
      free(lens);
      fail(resp, "notation", "a buffer is not hex text");
      return 1;
    }
  }
  if (!data || !lens) {
    free(data);
    free(lens);
    fail(resp, "nomem", "out of memory");
    return 1;
  }
  int32_t st = wire_ctx_set_oob_buffers(ctx, (const uint8_t *const *)data,
                                        lens, k);
  free(lens);
  *out = data;
  *n = k;
  if (st) {
    fail_ctx(resp, ctx, st, NULL);
    return 1;
  }
  return 0;
}

static void free_buffers(uint8_t **data, size_t n) {
  for (size_t i = 0; i < n; i++) free(data[i]);
  free(data);
}

static json_t *decode_with(const json_t *req, wire_ctx *ctx, json_t *resp);

static json_t *do_decode(const json_t *req, wire_ctx *ctx, json_t *resp) {
  uint8_t **bufs;
  size_t nbufs;
  if (set_buffers(req, ctx, resp, &bufs, &nbufs)) {
    free_buffers(bufs, nbufs);
    return resp;
  }
  decode_with(req, ctx, resp);
  free_buffers(bufs, nbufs);
  return resp;
}

static json_t *decode_with(const json_t *req, wire_ctx *ctx, json_t *resp) {
  const char *hx = json_string_value(json_object_get(req, "hex"));
  if (!hx) return fail(resp, "arg", "decode needs \"hex\"");
  size_t len;
  uint8_t *data = from_hex(hx, &len);
  if (!data) return fail(resp, "notation", "\"hex\" is not hex text");
  const json_t *project = json_object_get(req, "project");
  if (project && !json_is_boolean(project)) {
    free(data);
    return fail(resp, "arg", "\"project\" must be a boolean");
  }
  wire_doc *doc;
  int32_t st = wire_decode(ctx, data, len, &doc);
  if (st) {
    fail_ctx(resp, ctx, st, NULL);
    free(data);
    return resp;
  }
  json_t *values = json_array();
  if (json_is_true(project)) {
    /* Every root struct whose type the schemas have, read as the schemas'
     * version of that type; other roots are left out. */
    for (size_t i = 0; !st && i < wire_doc_root_count(doc); i++) {
      wire_node *root = wire_doc_root(doc, i), *proj;
      uint32_t ti, t = wire_node_type(root);
      if (t < WIRE_T_STRUCT || t > WIRE_T_NAMED_COMPATIBLE_STRUCT) continue;
      if (wire_node_user_type(doc, root, &ti) != WIRE_OK) continue;
      st = wire_struct_project(doc, root, ti, &proj);
      json_t *j = st ? NULL : notation_of(ctx, doc, proj, 0, &st);
      if (j) json_array_append_new(values, j);
    }
  } else {
    uint32_t flags = wire_ctx_get_option(ctx, WIRE_OPT_REF_TRACKING)
                         ? WIRE_NOTATION_UNTRACKED
                         : 0;
    for (size_t i = 0; !st && i < wire_doc_root_count(doc); i++) {
      json_t *j = notation_of(ctx, doc, wire_doc_root(doc, i), flags, &st);
      if (j) json_array_append_new(values, j);
    }
  }
  if (st) {
    fail_ctx(resp, ctx, st, NULL);
    json_decref(values);
  } else {
    json_object_set_new(resp, "ok", json_true());
    json_object_set_new(resp, "values", values);
  }
  wire_doc_free(doc);
  free(data);
  return resp;
}

static json_t *do_encode(const json_t *req, wire_ctx *ctx, json_t *resp) {
  json_t *values = json_object_get(req, "values");
  if (!json_is_array(values))
    return fail(resp, "arg", "encode needs \"values\" (an array)");
  wire_doc *doc = wire_doc_new(ctx);
  if (!doc) return fail(resp, "nomem", "cannot create a document");
  size_t i;
  json_t *v;
  int32_t st = WIRE_OK;
  json_array_foreach(values, i, v) {
    st = add_notation_root(ctx, doc, v);
    if (st) {
      char full[320];
      snprintf(full, sizeof full, "value %zu: %s", i,
               *wire_ctx_error_message(ctx) ? wire_ctx_error_message(ctx)
                                            : wire_status_message(st));
      fail(resp, wire_status_name(st), full);
      break;
    }
  }
  if (!st) {
    uint8_t *out;
    size_t olen;
    st = wire_encode(ctx, doc, &out, &olen);
    if (st) {
      fail_ctx(resp, ctx, st, NULL);
    } else {
      json_object_set_new(resp, "ok", json_true());
      json_object_set_new(resp, "hex", to_hex(out, olen));
      size_t nb = wire_ctx_oob_count(ctx);
      if (nb) { /* out-of-band buffers (R-OOB-6), in order */
        json_t *bufs = json_array();
        for (size_t k = 0; k < nb; k++) {
          const uint8_t *p;
          size_t l;
          wire_ctx_oob_buffer(ctx, k, &p, &l);
          json_array_append_new(bufs, to_hex(p, l));
        }
        json_object_set_new(resp, "buffers", bufs);
      }
      wire_ctx_free_bytes(ctx, out);
    }
  }
  wire_doc_free(doc);
  return resp;
}

json_t *testee_handle(const json_t *req, const char *root) {
  json_t *resp = json_object();
  json_t *id = json_is_object(req) ? json_object_get(req, "id") : NULL;
  json_object_set_new(resp, "id", id ? json_incref(id) : json_null());
  if (!json_is_object(req)) return fail(resp, "arg", "request is not an object");
  const char *op = json_string_value(json_object_get(req, "op"));
  if (!op) return fail(resp, "arg", "request has no \"op\"");
  int decode = strcmp(op, "decode") == 0;
  if (!decode && strcmp(op, "encode") != 0)
    return fail(resp, "unsupported", "unknown op");
  wire_ctx *ctx = request_ctx(req, root, resp);
  if (!ctx) return resp;
  if (decode) do_decode(req, ctx, resp);
  else do_encode(req, ctx, resp);
  wire_ctx_free(ctx);
  return resp;
}

static void emit(json_t *j) {
  char *s = json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII);
  if (s) {
    fputs(s, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    free(s);
  }
}

int cmd_testee(int argc, char **argv) {
  const char *root = NULL;
  for (int i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--root") == 0 && i + 1 < argc) {
      root = argv[++i];
    } else {
      fprintf(stderr, "error: arg at byte 0: usage: wire testee [--root DIR]\n");
      return 2;
    }
  }
  json_t *hello = testee_hello();
  emit(hello);
  json_decref(hello);
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) >= 0) {
    size_t k = (size_t)n;
    while (k && (line[k - 1] == '\n' || line[k - 1] == '\r' ||
                 line[k - 1] == ' ' || line[k - 1] == '\t'))
      k--;
    size_t b = 0;
    while (b < k && (line[b] == ' ' || line[b] == '\t')) b++;
    if (b == k) continue;
    json_error_t jerr;
    json_t *req = json_loadb(line + b, k - b, JSON_ALLOW_NUL, &jerr);
    json_t *resp;
    if (!req) {
      char msg[256];
      snprintf(msg, sizeof msg, "request is not JSON: %s", jerr.text);
      resp = json_pack("{s:n,s:b,s:s,s:s}", "id", "ok", 0, "class", "arg",
                       "message", msg);
    } else {
      resp = testee_handle(req, root);
      json_decref(req);
    }
    emit(resp);
    json_decref(resp);
  }
  free(line);
  return 0;
}
