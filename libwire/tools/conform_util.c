/* conform_util.c - small string, hex and clock helpers of the conformance runner. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conform_run.h"

char *cf_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  memcpy(d, s, n);
  return d;
}

char *cf_fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  va_start(ap, f);
  vsnprintf(s, (size_t)n + 1, f, ap);
  va_end(ap);
  return s;
}

/* A one-line copy of s, at most max bytes (then "..."). */
char *cf_oneline(const char *s, size_t max) {
  size_t n = strlen(s);
  size_t k = n > max ? max : n;
  char *d = malloc(k + 4);
  for (size_t i = 0; i < k; i++)
    d[i] = (s[i] == '\n' || s[i] == '\r' || s[i] == '\t') ? ' ' : s[i];
  if (n > max) {
    /* do not cut a UTF-8 sequence */
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    memcpy(d + k, "...", 4);
  } else {
    d[k] = 0;
  }
  return d;
}

char *cf_dump_short(const json_t *j, size_t max) {
  if (!j) return cf_xstrdup("(nothing)");
  char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
  if (!s) return cf_xstrdup("?");
  char *o = cf_oneline(s, max);
  free(s);
  return o;
}

double cf_now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int cf_streq_hex(const char *a, const char *b) {
  for (;; a++, b++) {
    int x = *a, y = *b;
    if (x >= 'A' && x <= 'F') x += 32;
    if (y >= 'A' && y <= 'F') y += 32;
    if (x != y) return 0;
    if (!x) return 1;
  }
}

/* First differing byte offset of two hex strings (same case-insensitive). */
size_t cf_hex_diff_at(const char *a, const char *b) {
  size_t i = 0;
  for (;; i++) {
    int x = a[i], y = b[i];
    if (x >= 'A' && x <= 'F') x += 32;
    if (y >= 'A' && y <= 'F') y += 32;
    if (x != y || !x) break;
  }
  return i / 2;
}
