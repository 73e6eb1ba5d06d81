/* test_hex.h - hex text to bytes and back, for the C tests that state
 * their payloads as hex (include after <criterion/criterion.h>). */
#ifndef TEST_HEX_H
#define TEST_HEX_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Hex text to newly malloc'ed bytes (never NULL, even when empty); the
 * test fails on an odd length or a character that is not hex. */
static inline uint8_t *unhex(const char *h, size_t *len) {
  size_t n = strlen(h);
  cr_assert_eq(n % 2, 0, "odd hex \"%s\"", h);
  uint8_t *out = malloc(n / 2 + 1);
  cr_assert_not_null(out);
  for (size_t i = 0; i < n / 2; i++) {
    int a = hexval(h[2 * i]), b = hexval(h[2 * i + 1]);
    cr_assert(a >= 0 && b >= 0, "bad hex \"%s\"", h);
    out[i] = (uint8_t)(a << 4 | b);
  }
  *len = n / 2;
  return out;
}

/* Bytes to newly malloc'ed lower-case hex text. */
static inline char *tohex(const uint8_t *p, size_t n) {
  char *s = malloc(2 * n + 1);
  cr_assert_not_null(s);
  for (size_t i = 0; i < n; i++) snprintf(s + 2 * i, 3, "%02x", p[i]);
  s[2 * n] = 0;
  return s;
}

#endif
