/* text.c - string validation, transcoding between the wire encodings
 * (Latin-1, UTF-16LE, UTF-8) and the Java runtime's encoding choice. */
#include "internal.h"

/* The text checks' place fixed by this file alone (internal.h), where it
 * was when tape_dec.c's was fixed: 16 bytes past the boundary (at 48,
 * the Kotlin MediaContent decode read 2-3 % slower). */
WIRE_TEXT_ALIGN64(16);

/* Implements R-STR-3 (the scan: wire__utf8_scan, internal.h). */
size_t wire__utf8_check(const uint8_t *s, size_t len) {
  if (len >= 8) {
    /* All ASCII: 8 bytes at a time, the last word overlapping. */
    uint64_t w, acc = 0;
    for (size_t i = 0; i + 8 <= len; i += 8) {
      memcpy(&w, s + i, 8);
      acc |= w;
    }
    memcpy(&w, s + len - 8, 8);
    if (!((acc | w) & UINT64_C(0x8080808080808080))) return len;
  }
  return wire__utf8_scan(s, len);
}

/* Implements R-STR-2, R-STR-3. */
size_t wire__utf16_check(const uint8_t *s, size_t len) {
  const uint64_t ones = UINT64_C(0x0101010101010101);
  size_t i = 0, even = len & ~(size_t)1;
  if (even >= 8) {
    /* The usual text in one pass: no byte of it 0xD8-0xDF (test below),
     * eight bytes a word, the last word ending at the last whole unit
     * (overlapping the one before), one branch at the end. */
    uint64_t hit = 0, w, t;
    for (size_t k = 0; k + 8 <= even; k += 8) {
      memcpy(&w, s + k, 8);
      t = (w & 0xF8 * ones) ^ (0xD8 * ones);
      hit |= (t - ones) & ~t;
    }
    memcpy(&w, s + even - 8, 8);
    t = (w & 0xF8 * ones) ^ (0xD8 * ones);
    hit |= (t - ones) & ~t;
    if (!(hit & (0x80 * ones))) return even;
  }
  while (i + 1 < len) {
    /* Four units a word while no byte of it is 0xD8-0xDF (a surrogate has
     * its high byte there; a low byte there only sends the word the long
     * way): t has a zero byte exactly where such a byte is, in either byte
     * order. */
    if (i + 8 <= len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      uint64_t t = (w & 0xF8 * ones) ^ (0xD8 * ones);
      if (!((t - ones) & ~t & (0x80 * ones))) {
        i += 8;
        continue;
      }
    }
    uint32_t u = (uint32_t)s[i] | ((uint32_t)s[i + 1] << 8);
    if (u >= 0xD800 && u <= 0xDBFF) {
      if (i + 3 >= len) return i;
      uint32_t l = (uint32_t)s[i + 2] | ((uint32_t)s[i + 3] << 8);
      if (l < 0xDC00 || l > 0xDFFF) return i;
      i += 4;
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
      return i;
    } else {
      i += 2;
    }
  }
  return (len & 1) ? len - 1 : len;
}

int32_t wire_utf8_validate(const uint8_t *text, size_t len) {
  if (!text && len) return WIRE_E_ARG;
  return wire__utf8_check(text, len) == len ? WIRE_OK : WIRE_E_STRING;
}

size_t wire__string_utf8_len(int32_t enc, const uint8_t *s, size_t len) {
  size_t n = 0;
  switch (enc) {
  case WIRE_STR_LATIN1:
    for (size_t i = 0; i < len; i++) n += s[i] < 0x80 ? 1 : 2;
    return n;
  case WIRE_STR_UTF16:
    for (size_t i = 0; i + 1 < len; i += 2) {
      uint32_t u = (uint32_t)s[i] | ((uint32_t)s[i + 1] << 8);
      if (u < 0x80) n += 1;
      else if (u < 0x800) n += 2;
      else if (u >= 0xD800 && u <= 0xDBFF) { n += 4; i += 2; }
      else n += 3;
    }
    return n;
  default:
    return len;
  }
}

static size_t put_cp(uint8_t *o, uint32_t cp) {
  if (cp < 0x80) { o[0] = (uint8_t)cp; return 1; }
  if (cp < 0x800) {
    o[0] = (uint8_t)(0xC0 | (cp >> 6));
    o[1] = (uint8_t)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (uint8_t)(0xE0 | (cp >> 12));
    o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (uint8_t)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (uint8_t)(0xF0 | (cp >> 18));
  o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (uint8_t)(0x80 | (cp & 0x3F));
  return 4;
}

size_t wire__string_to_utf8(int32_t enc, const uint8_t *s, size_t len,
                            uint8_t *out) {
  size_t n = 0;
  switch (enc) {
  case WIRE_STR_LATIN1:
    for (size_t i = 0; i < len; i++) n += put_cp(out + n, s[i]);
    return n;
  case WIRE_STR_UTF16:
    for (size_t i = 0; i + 1 < len; i += 2) {
      uint32_t u = (uint32_t)s[i] | ((uint32_t)s[i + 1] << 8);
      if (u >= 0xD800 && u <= 0xDBFF && i + 3 < len) {
        uint32_t l = (uint32_t)s[i + 2] | ((uint32_t)s[i + 3] << 8);
        u = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00);
        i += 2;
      }
      n += put_cp(out + n, u);
    }
    return n;
  default:
    if (len) memcpy(out, s, len);
    return len;
  }
}

/* Decodes one code point of UTF-8 at s[*i] (len bytes in all). A truncated
 * or malformed sequence (only in text nobody checked: trusted input)
 * decodes as its first byte alone, so callers stay in bounds. */
static uint32_t next_cp(const uint8_t *s, size_t len, size_t *i) {
  uint8_t c = s[*i];
  if (c < 0x80) { (*i)++; return c; }
  size_t n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
           : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (n == 0 || len - *i < n) { (*i)++; return c; }
  uint32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; k++) {
    uint8_t cc = s[*i + k];
    if ((cc & 0xC0) != 0x80) { (*i)++; return c; }
    cp = (cp << 6) | (cc & 0x3F);
  }
  *i += n;
  return cp;
}

/* One code point of UTF-8 text that has been checked (no bounds checks). */
static inline uint32_t next_cp_valid(const uint8_t *s, size_t *i) {
  uint8_t c = s[*i];
  if (c < 0x80) { (*i)++; return c; }
  if (c < 0xE0) {
    uint32_t cp = ((uint32_t)(c & 0x1F) << 6) | (s[*i + 1] & 0x3F);
    *i += 2;
    return cp;
  }
  if (c < 0xF0) {
    uint32_t cp = ((uint32_t)(c & 0x0F) << 12) |
                  ((uint32_t)(s[*i + 1] & 0x3F) << 6) | (s[*i + 2] & 0x3F);
    *i += 3;
    return cp;
  }
  uint32_t cp = ((uint32_t)(c & 0x07) << 18) |
                ((uint32_t)(s[*i + 1] & 0x3F) << 12) |
                ((uint32_t)(s[*i + 2] & 0x3F) << 6) | (s[*i + 3] & 0x3F);
  *i += 4;
  return cp;
}

/* One code point of text in a wire encoding. UTF-16: a lone surrogate is
 * returned as is, an odd last byte is skipped (trusted input only). */
static inline uint32_t cp_in(int32_t enc, const uint8_t *s, size_t len,
                             size_t *i) {
  if (enc == WIRE_STR_LATIN1) return s[(*i)++];
  if (enc == WIRE_STR_UTF8) return next_cp(s, len, i);
  if (len - *i < 2) { *i = len; return UINT32_MAX; }
  uint32_t u = (uint32_t)s[*i] | ((uint32_t)s[*i + 1] << 8);
  *i += 2;
  if (u >= 0xD800 && u <= 0xDBFF && len - *i >= 2) {
    uint32_t l = (uint32_t)s[*i] | ((uint32_t)s[*i + 1] << 8);
    if (l >= 0xDC00 && l <= 0xDFFF) {
      *i += 2;
      return 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00);
    }
  }
  return u;
}

static inline size_t cp_size(int32_t to, uint32_t cp) {
  if (to == WIRE_STR_LATIN1) return 1;
  if (to == WIRE_STR_UTF16) return cp >= 0x10000 ? 4 : 2;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Length of the ASCII prefix of s (8 bytes at a time). */
size_t wire__ascii_prefix(const uint8_t *s, size_t len) {
  size_t i = 0;
  while (i + 8 <= len) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (w & UINT64_C(0x8080808080808080)) break;
    i += 8;
  }
  while (i < len && s[i] < 0x80) i++;
  return i;
}

#define HI8 UINT64_C(0x8080808080808080)

/* Set bytes of a mask that has only bit 7 of some bytes set. */
static inline size_t count_hi(uint64_t m) {
  return (size_t)(((m >> 7) * UINT64_C(0x0101010101010101)) >> 56);
}

/* Bytes of s that are UTF-8 continuation bytes (10xxxxxx), and that lead a
 * 4-byte sequence (11110xxx and above). */
static void utf8_counts(const uint8_t *s, size_t len, size_t *cont,
                        size_t *four) {
  size_t c = 0, f = 0, i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (!(w & HI8)) continue;
    c += count_hi(w & ~(w << 1) & HI8);
    f += count_hi(w & (w << 1) & (w << 2) & (w << 3) & HI8);
  }
  for (; i < len; i++) {
    c += (s[i] & 0xC0) == 0x80;
    f += s[i] >= 0xF0;
  }
  *cont = c;
  *four = f;
}

/* The length is exact for valid text; wire__transcode never writes more
 * than `cap` bytes, so malformed trusted text cannot overflow (it gives
 * garbage, which the caller pads). */
size_t wire__transcode_len(int32_t from, int32_t to, const uint8_t *s,
                           size_t len) {
  if (from == to) return len;
  size_t cont, four, n = 0, i = 0;
  switch (from) {
  case WIRE_STR_UTF8:
    utf8_counts(s, len, &cont, &four);
    return to == WIRE_STR_LATIN1 ? len - cont : 2 * (len - cont) + 2 * four;
  case WIRE_STR_LATIN1:
    if (to == WIRE_STR_UTF16) return 2 * len;
    for (; i + 8 <= len; i += 8) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      n += count_hi(w & HI8);
    }
    for (; i < len; i++) n += s[i] >> 7;
    return len + n;
  default:
    while (i < len) {
      uint32_t cp = cp_in(from, s, len, &i);
      if (cp != UINT32_MAX) n += cp_size(to, cp);
    }
    return n;
  }
}

size_t wire__transcode(int32_t from, int32_t to, const uint8_t *s, size_t len,
                       uint8_t *out, size_t cap) {
  size_t n = 0, i = 0;
  if (from == to) {
    n = len < cap ? len : cap;
    if (n) memcpy(out, s, n);
    return n;
  }
  while (i < len) {
    if (from != WIRE_STR_UTF16 && s[i] < 0x80) { /* an ASCII run */
      size_t k = wire__ascii_prefix(s + i, len - i);
      if (to == WIRE_STR_UTF16) {
        if (k > (cap - n) / 2) k = (cap - n) / 2;
        for (size_t j = 0; j < k; j++) {
          out[n++] = s[i + j];
          out[n++] = 0;
        }
      } else {
        if (k > cap - n) k = cap - n;
        memcpy(out + n, s + i, k);
        n += k;
      }
      i += k;
      if (i >= len || n >= cap) break;
    }
    uint32_t cp;
    if (from == WIRE_STR_UTF8) {
      /* valid text (checked, or trusted): decode without checking */
      uint8_t c = s[i];
      size_t k = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      if (c < 0xC0 || len - i < k) {
        cp = c;
        i++;
      } else if (k == 2) {
        cp = ((uint32_t)(c & 0x1F) << 6) | (s[i + 1] & 0x3F);
        i += 2;
      } else if (k == 3) {
        cp = ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(s[i + 1] & 0x3F) << 6) |
             (s[i + 2] & 0x3F);
        i += 3;
      } else {
        cp = ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(s[i + 1] & 0x3F) << 12) |
             ((uint32_t)(s[i + 2] & 0x3F) << 6) | (s[i + 3] & 0x3F);
        i += 4;
      }
    } else {
      cp = cp_in(from, s, len, &i);
      if (cp == UINT32_MAX) continue;
    }
    if (to == WIRE_STR_LATIN1) {
      if (n + 1 > cap) break;
      out[n++] = (uint8_t)cp;
    } else if (to == WIRE_STR_UTF16) {
      if (cp >= 0x10000 && cp <= 0x10FFFF) {
        if (n + 4 > cap) break;
        uint32_t c = cp - 0x10000;
        uint32_t hi = 0xD800 + (c >> 10), lo = 0xDC00 + (c & 0x3FF);
        out[n++] = (uint8_t)hi; out[n++] = (uint8_t)(hi >> 8);
        out[n++] = (uint8_t)lo; out[n++] = (uint8_t)(lo >> 8);
      } else {
        if (n + 2 > cap) break;
        out[n++] = (uint8_t)cp; out[n++] = (uint8_t)(cp >> 8);
      }
    } else {
      uint8_t tmp[4];
      size_t k = put_cp(tmp, cp);
      if (n + k > cap) break;
      memcpy(out + n, tmp, k);
      n += k;
    }
  }
  return n;
}

size_t wire__utf8_to_string(int32_t enc, const uint8_t *s, size_t len,
                            uint8_t *out) {
  size_t n = 0, i = 0;
  switch (enc) {
  case WIRE_STR_LATIN1:
    while (i < len) {
      uint32_t cp = next_cp_valid(s, &i);
      if (cp > 0xFF) return SIZE_MAX;
      out[n++] = (uint8_t)cp;
    }
    return n;
  case WIRE_STR_UTF16:
    while (i < len) {
      uint32_t cp = next_cp_valid(s, &i);
      if (cp >= 0x10000) {
        cp -= 0x10000;
        uint32_t hi = 0xD800 + (cp >> 10), lo = 0xDC00 + (cp & 0x3FF);
        out[n++] = (uint8_t)hi; out[n++] = (uint8_t)(hi >> 8);
        out[n++] = (uint8_t)lo; out[n++] = (uint8_t)(lo >> 8);
      } else {
        out[n++] = (uint8_t)cp; out[n++] = (uint8_t)(cp >> 8);
      }
    }
    return n;
  case WIRE_STR_UTF8:
    if (len) memcpy(out, s, len);
    return len;
  default:
    return SIZE_MAX;
  }
}

/* The Java runtime (JDK 9+ compact strings) writes a string whose chars all
 * fit Latin-1 as LATIN1. Otherwise it samples the first 64 UTF-16 chars:
 * blocks of 4 chars are counted as ASCII together; the chars after the last
 * whole block are counted by looking at the first of them once per remaining
 * char (a quirk of the runtime that decides the bytes, so it is reproduced).
 * If every sampled char counted as ASCII it writes UTF8, else UTF16. */
int32_t wire__java_sample(const uint16_t *units, size_t nunits) {
  size_t blocks = nunits / 4 * 4;
  size_t ascii = 0;
  for (size_t k = 0; k < blocks; k += 4) {
    if (units[k] < 0x80 && units[k + 1] < 0x80 && units[k + 2] < 0x80 &&
        units[k + 3] < 0x80) {
      ascii += 4;
    } else {
      for (size_t j = 0; j < 4; j++) ascii += units[k + j] < 0x80;
    }
  }
  for (size_t k = blocks; k < nunits; k++) ascii += units[blocks] < 0x80;
  return ascii >= nunits ? WIRE_STR_UTF8 : WIRE_STR_UTF16;
}

/* Implements R-WSTR-1. */
int32_t wire__java_string_encoding(const uint8_t *s, size_t len) {
  size_t i = 0;
  bool latin1 = true;
  /* Fast scan for the Latin-1 question. */
  while (i < len) {
    uint8_t c = s[i];
    if (c < 0x80) { i++; continue; }
    if (c == 0xC2 || c == 0xC3) { i += 2; continue; }
    latin1 = false;
    break;
  }
  if (latin1) return WIRE_STR_LATIN1;
  /* Collect up to 64 UTF-16 code units. */
  uint16_t units[64];
  size_t nunits = 0;
  i = 0;
  while (i < len && nunits < 64) {
    uint32_t cp = next_cp(s, len, &i);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      units[nunits++] = (uint16_t)(0xD800 + (cp >> 10));
      if (nunits < 64) units[nunits++] = (uint16_t)(0xDC00 + (cp & 0x3FF));
    } else {
      units[nunits++] = (uint16_t)cp;
    }
  }
  return wire__java_sample(units, nunits);
}

int32_t wire__java_encoding_of(int32_t enc, const uint8_t *s, size_t len) {
  if (enc == WIRE_STR_LATIN1) return WIRE_STR_LATIN1;
  if (enc == WIRE_STR_UTF8) return wire__java_string_encoding(s, len);
  size_t n = len / 2, k = 0;
  while (k < n && s[2 * k + 1] == 0) k++;
  if (k == n) return WIRE_STR_LATIN1;
  uint16_t units[64];
  size_t m = n < 64 ? n : 64;
  for (k = 0; k < m; k++)
    units[k] = (uint16_t)(s[2 * k] | (s[2 * k + 1] << 8));
  return wire__java_sample(units, m);
}

/* Implements R-WSTR-1. */
int32_t wire_string_choose_encoding(const uint8_t *utf8, size_t len) {
  if (!utf8 && len) return WIRE_E_ARG;
  return wire__java_string_encoding(utf8, len);
}

int32_t wire_string_to_utf8(wire_ctx *ctx, int32_t enc, const uint8_t *bytes,
                            size_t len, uint8_t **out, size_t *out_len) {
  if (!ctx || !out || (!bytes && len)) return WIRE_E_ARG;
  *out = NULL;
  if (enc == WIRE_STR_UTF16) {
    if (wire__utf16_check(bytes, len) != len || (len & 1))
      return wire__fail(ctx, WIRE_E_STRING, 0, "invalid UTF-16");
  } else if (enc == WIRE_STR_UTF8) {
    if (wire__utf8_check(bytes, len) != len)
      return wire__fail(ctx, WIRE_E_STRING, 0, "invalid UTF-8");
  } else if (enc != WIRE_STR_LATIN1) {
    return wire__fail(ctx, WIRE_E_ARG, 0, "unknown string encoding");
  }
  size_t n = wire__string_utf8_len(enc, bytes, len);
  uint8_t *p = wire__bytes_alloc(ctx, n + 1);
  if (!p) return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
  size_t w = wire__string_to_utf8(enc, bytes, len, p);
  p[w] = 0;
  *out = p;
  if (out_len) *out_len = w;
  return WIRE_OK;
}
