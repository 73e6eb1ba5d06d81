/* hex.c - the one hex decoder of the tools. */
#include "hex.h"

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

size_t hex_decode(const char *in, size_t len, uint8_t *out, int spaces,
                  size_t *bad) {
  size_t n = 0;
  int hi = -1;
  for (size_t i = 0; i < len; i++) {
    char c = in[i];
    if (spaces && (c == ' ' || c == '\n' || c == '\r' || c == '\t')) continue;
    int v = hexval(c);
    if (v < 0) {
      if (bad) *bad = i;
      return (size_t)-1;
    }
    if (hi < 0) {
      hi = v;
    } else {
      out[n++] = (uint8_t)(hi << 4 | v);
      hi = -1;
    }
  }
  if (hi >= 0) {
    if (bad) *bad = len;
    return (size_t)-1;
  }
  return n;
}
