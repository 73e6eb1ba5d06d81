/* fuzz_notation.c - libFuzzer target for libwire's value notation reader
 * and printers (wire_notation_parse/_parse_plain/_write).
 *
 * The input is JSON text (untrusted, as `wire encode` reads it). Checks,
 * besides the sanitizers and libFuzzer's timeout:
 *   - failure is clean: *out_node is NULL, the context's error code equals
 *     the status, the offset is inside the text, the message is set;
 *   - a parsed value prints (notation, pretty and plain) without failing;
 *   - printing is the inverse of parsing: the printed text parses again
 *     and both values encode to the same bytes (or fail alike);
 *   - those bytes decode (fuzz_roundtrip: losslessly), and the decoded
 *     document's notation parses and encodes to the same bytes again;
 *   - with WIRE_NOTATION_REFIT the parse succeeds whenever the strict one
 *     does, and gives the same bytes when the strict value encodes;
 *   - plain JSON without a schema type parses when the text is JSON and
 *     prints again.
 * Mode (compatible or not) and reference tracking come from the first
 * byte's low bits when it is a digit-free prefix byte ('\x01'..'\x03').
 */
#include "fuzz_common.h"

static int32_t to_buf(void *user, const char *text, size_t len) {
  wire_buf *b = user;
  wire__put_bytes(b, text, len);
  return b->status;
}

/* The notation of `n` as malloc'd text, or NULL if printing failed. */
static char *print(wire_ctx *ctx, wire_doc *doc, wire_node *n, uint32_t flags,
                   size_t *len, int32_t *st) {
  uint8_t *out;
  *st = wire_notation_print(ctx, doc, n, flags, &out, len);
  if (*st) return NULL;
  char *r = malloc(*len + 1);
  memcpy(r, out, *len + 1);
  wire_ctx_free_bytes(ctx, out);
  return r;
}

static void fail_check(const char *what, const uint8_t *data, size_t size) {
  fprintf(stderr, "fuzz_notation: %s\n", what);
  fuzz_hexdump("input", data, size);
  abort();
}

/* Encodes one root parsed from text; NULL (and *st) on failure. */
static uint8_t *encode_text(wire_ctx *ctx, const char *text, size_t len,
                            uint32_t flags, size_t *olen, int32_t *st) {
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *n;
  size_t used;
  uint8_t *r = NULL;
  *st = wire_notation_parse(ctx, doc, text, len, flags, &n, &used);
  if (!*st) *st = wire_doc_add_root(doc, n);
  if (!*st) {
    uint8_t *out;
    *st = wire_encode(ctx, doc, &out, olen);
    if (!*st) {
      r = malloc(*olen + 1);
      memcpy(r, out, *olen);
      wire_ctx_free_bytes(ctx, out);
    }
  }
  wire_doc_free(doc);
  return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int mode = size && data[0] >= 1 && data[0] <= 3 ? data[0] : 0;
  const char *text = (const char *)data + (mode != 0);
  size_t len = size - (mode != 0);
  wire_ctx *ctx = fuzz_new_ctx();
  wire_ctx_set_option(ctx, WIRE_OPT_COMPATIBLE, mode & 1);
  wire_ctx_set_option(ctx, WIRE_OPT_REF_TRACKING, (mode >> 1) & 1);

  uint32_t tracked = (mode & 2) ? WIRE_NOTATION_UNTRACKED : 0;
  wire_doc *doc = wire_doc_new(ctx);
  wire_node *n = (wire_node *)1;
  size_t used = 0;
  int32_t st = wire_notation_parse(ctx, doc, text, len, 0, &n, &used);
  if (st) {
    if (n || wire_ctx_error_code(ctx) != st || wire_ctx_error_offset(ctx) > len ||
        !*wire_ctx_error_message(ctx))
      fail_check("a failed parse is not clean", data, size);
  } else {
    if (used > len) fail_check("consumed past the text", data, size);
    size_t tl;
    int32_t pst;
    static const uint32_t flags[] = {0, WIRE_NOTATION_PRETTY,
                                     WIRE_NOTATION_UNTRACKED, WIRE_NOTATION_PLAIN};
    for (int i = 0; i < 4; i++) {
      char *t = print(ctx, doc, n, flags[i], &tl, &pst);
      /* plain JSON may refuse values shared too often; nothing else fails */
      if (!t && !(flags[i] == WIRE_NOTATION_PLAIN && pst == WIRE_E_LIMIT) &&
          pst != WIRE_E_DEPTH)
        fail_check("a parsed value does not print", data, size);
      free(t);
    }
    /* print -> parse -> encode gives the bytes of the original */
    size_t l1, l2;
    int32_t s1, s2;
    uint8_t *b1 = encode_text(ctx, text, len, 0, &l1, &s1);
    char *t = print(ctx, doc, n, tracked, &tl, &pst);
    if (t) {
      uint8_t *b2 = encode_text(ctx, t, tl, 0, &l2, &s2);
      if ((b1 != NULL) != (b2 != NULL) || (b1 && (l1 != l2 || memcmp(b1, b2, l1))))
        fail_check("the printed notation encodes to other bytes", data, size);
      free(b2);
      free(t);
    }
    /* REFIT accepts what the strict parse accepts, and keeps fitting choices */
    uint8_t *b3 = encode_text(ctx, text, len, WIRE_NOTATION_REFIT, &l2, &s2);
    if (b1 && (!b3 || l1 != l2 || memcmp(b1, b3, l1)))
      fail_check("REFIT changed bytes that encoded without it", data, size);
    free(b3);
    if (b1) {
      fuzz_roundtrip(ctx, b1, l1);
      wire_doc *d2;
      int32_t dst = wire_decode(ctx, b1, l1, &d2);
      if (dst == WIRE_OK) {
        for (size_t r = 0; r < wire_doc_root_count(d2); r++) {
          char *t2 = print(ctx, d2, wire_doc_root(d2, r), tracked, &tl, &pst);
          if (!t2) fail_check("a decoded document does not print", data, size);
          uint8_t *b4 = encode_text(ctx, t2, tl, 0, &l2, &s2);
          if (!b4 || l2 != l1 || memcmp(b4, b1, l1))
            fail_check("decode -> notation -> encode is not lossless", data, size);
          free(b4);
          free(t2);
        }
        wire_doc_free(d2);
      } else if (dst != WIRE_E_SCHEMA && dst != WIRE_E_UNSUPPORTED) {
        /* a successful encode decodes (issue 9), unless reading it needs
         * the schema of the structs the notation named */
        fprintf(stderr, "decode: %s\n", wire_ctx_error_message(ctx));
        fail_check("a successful encode does not decode", data, size);
      }
    }
    free(b1);
  }
  /* plain JSON without a schema type */
  wire_node *pn;
  if (wire_notation_parse_plain(ctx, doc, text, len, WIRE_BY_NAME, &pn, &used) == WIRE_OK) {
    wire_buf b = {ctx, NULL, 0, 0, false, WIRE_OK};
    int32_t pst = wire_notation_write(ctx, doc, pn, WIRE_NOTATION_PLAIN, to_buf, &b);
    if (pst && pst != WIRE_E_DEPTH) fail_check("plain JSON does not print", data, size);
    wire__free(ctx, b.p, b.cap);
  }
  wire_doc_free(doc);
  wire_ctx_free(ctx);
  return 0;
}
