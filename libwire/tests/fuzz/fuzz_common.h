/* fuzz_common.h - checks shared by the libwire fuzz targets (header only).
 *
 * fuzz_roundtrip() is the decoder property every target applies to a
 * payload, on a context configured by the caller (schema, options):
 *   1. wire_decode succeeds or fails cleanly: on failure *out_doc is NULL
 *      and the context's error code equals the status, with an offset
 *      inside the input and a message;
 *   2. lossless: if decoding succeeded, wire_encode of the document
 *      succeeds and writes exactly the input bytes;
 *   3. wire_dump (no-op callback that reads every line) returns the same
 *      status as wire_decode.
 * A violation prints the input (hex) and the difference, then aborts, so
 * libFuzzer saves the input. Leaks are LeakSanitizer's job: everything is
 * freed here.
 *
 * Known issues: with WIRE_FUZZ_SKIP_KNOWN=1 (the default of run.sh and
 * replay.sh), checks that fail because of a reported, not yet fixed bug
 * are skipped for exactly the inputs that bug concerns (a pattern in the
 * decoded document or the registry), so fuzzing can go on past it. Each
 * skip names its entry (K<n>) in crashers/README.md; remove it with the
 * fix. Crashes and sanitizer reports elsewhere are never skipped. */
#ifndef WIRE_FUZZ_COMMON_H
#define WIRE_FUZZ_COMMON_H

#include "wire.h"
#include "internal.h" /* node layout, for the known-issue patterns only */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static void fuzz_hexdump(const char *what, const uint8_t *p, size_t n) {
  fprintf(stderr, "%s (%zu bytes):", what, n);
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, "%s%02x", i % 32 ? "" : "\n  ", p[i]);
  fprintf(stderr, "\n");
}

/* A context with small limits: inputs are at most a few KiB. Depth keeps
 * its default. */
static void fuzz_set_limits(wire_ctx *ctx) {
  wire_ctx_set_limit(ctx, WIRE_LIMIT_BINARY, 1u << 16);
  wire_ctx_set_limit(ctx, WIRE_LIMIT_COLLECTION, 1u << 16);
  wire_ctx_set_limit(ctx, WIRE_LIMIT_NODES, 1u << 17);
  wire_ctx_set_limit(ctx, WIRE_LIMIT_DECIMAL_DIGITS, 1024);
  wire_ctx_set_limit(ctx, WIRE_LIMIT_ROOTS, 1024);
}

static wire_ctx *fuzz_new_ctx(void) {
  wire_ctx *ctx = wire_ctx_new();
  if (!ctx) abort();
  fuzz_set_limits(ctx);
  return ctx;
}

static void fuzz_check_error(wire_ctx *ctx, int32_t st, size_t size,
                             const char *who) {
  if (st == WIRE_OK) return;
  if (wire_ctx_error_code(ctx) != st || wire_ctx_error_offset(ctx) > size ||
      wire_ctx_error_message(ctx) == NULL) {
    fprintf(stderr, "%s: status %d but ctx error %d at %llu (input %zu)\n",
            who, st, wire_ctx_error_code(ctx),
            (unsigned long long)wire_ctx_error_offset(ctx), size);
    abort();
  }
}

static void fuzz_dump_line(void *user, uint64_t offset, uint64_t length,
                           uint32_t depth, const char *text) {
  size_t *total = user;
  /* Touch the arguments so the sanitizers check the text is a valid
   * NUL-terminated string. */
  *total += (size_t)offset + (size_t)length + depth + strlen(text);
}

static bool fuzz_skip_known(void) {
  static int skip = -1;
  if (skip < 0) {
    const char *e = getenv("WIRE_FUZZ_SKIP_KNOWN");
    skip = e && *e && *e != '0';
  }
  return skip;
}

/* Set by fuzz_roundtrip when it skipped the encode check (known issue). */
static bool fuzz_skipped;

/* Whether a decoded document matches the pattern of an open issue: none
 * is open (K9, K11-K13 were fixed in e4d9bce, K14 in 0ab02b4). Add a
 * pattern here, naming its K number, when one is reported. */
static bool fuzz_known_issue(const wire_doc *doc) {
  (void)doc;
  return false;
}

/* Describes the configuration in failure reports (set by the target). */
static const char *fuzz_config = "";

/* Encodes `doc` and requires exactly `data`. `what` names the check. */
static void fuzz_expect_encoding(wire_ctx *ctx, wire_doc *doc,
                                 const uint8_t *data, size_t size,
                                 const char *what) {
  uint8_t *out = NULL;
  size_t out_len = 0;
  int32_t est = wire_encode(ctx, doc, &out, &out_len);
  bool same = est == WIRE_OK && out_len == size &&
              (size == 0 || memcmp(out, data, size) == 0);
  if (!same) {
    fprintf(stderr, "%s%s\n", fuzz_config, what);
    fuzz_hexdump("input", data, size);
    if (est != WIRE_OK) {
      fprintf(stderr, "decode succeeded, encode failed: %s (%d) at %llu: "
                      "%s\n", wire_status_name(est), est,
              (unsigned long long)wire_ctx_error_offset(ctx),
              wire_ctx_error_message(ctx));
    } else {
      fuzz_hexdump("re-encoded", out, out_len);
      size_t i = 0;
      while (i < size && i < out_len && data[i] == out[i]) i++;
      fprintf(stderr, "lossless property violated: first difference at "
                      "byte %zu\n", i);
    }
    abort();
  }
  wire_ctx_free_bytes(ctx, out);
}

/* The decoder properties above. Returns the decode status. */
static int32_t fuzz_roundtrip(wire_ctx *ctx, const uint8_t *data,
                              size_t size) {
  wire_doc *doc = NULL;
  fuzz_skipped = false;
  int32_t st = wire_decode(ctx, data, size, &doc);
  fuzz_check_error(ctx, st, size, "wire_decode");
  if (getenv("WIRE_FUZZ_VERBOSE"))
    fprintf(stderr, "  decode: %s%s%s\n", wire_status_name(st),
            st ? ": " : "", st ? wire_ctx_error_message(ctx) : "");
  if (st == WIRE_OK) {
    if (!doc) abort();
    if (fuzz_skip_known() && fuzz_known_issue(doc))
      fuzz_skipped = true;
    else
      fuzz_expect_encoding(ctx, doc, data, size, "decode -> encode");
    wire_doc_free(doc);
  } else if (doc) {
    abort(); /* *out_doc must be NULL on failure */
  }

  size_t total = 0;
  int32_t dst = wire_dump(ctx, data, size, fuzz_dump_line, &total);
  fuzz_check_error(ctx, dst, size, "wire_dump");
  if (dst != st) {
    fprintf(stderr, "%s\n", fuzz_config);
    fuzz_hexdump("input", data, size);
    fprintf(stderr, "wire_dump returned %d, wire_decode %d\n", dst, st);
    abort();
  }
  return st;
}

#endif
