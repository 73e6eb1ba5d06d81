/* metastring.c - meta string encodings (names of types and fields): the
 * 5- and 6-bit packings, the encoding choice the runtimes make, and
 * decoding. */
#include "internal.h"

static const char *const ms_names[5] = {
    "utf8", "lower_special", "luds", "first_to_lower_special",
    "all_to_lower_special"};

const char *wire_meta_encoding_name(int32_t e) {
  return e >= 0 && e < 5 ? ms_names[e] : NULL;
}

/* Implements R-MS-1. */
static void ms_specials(int32_t msctx, char *s1, char *s2) {
  if (msctx == WIRE_MSCTX_NAMESPACE) { *s1 = '.'; *s2 = '_'; }
  else { *s1 = '$'; *s2 = '_'; }
}

static bool ms_allowed(int32_t msctx, int32_t enc) {
  switch (enc) {
  case WIRE_MS_UTF8:
  case WIRE_MS_ALL_TO_LOWER_SPECIAL:
  case WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL:
    return true;
  case WIRE_MS_FIRST_TO_LOWER_SPECIAL:
    return msctx == WIRE_MSCTX_TYPE_NAME;
  default:
    return false; /* LOWER_SPECIAL is in no name context's list */
  }
}

static int lower_special_value(uint8_t c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  switch (c) {
  case '.': return 26;
  case '_': return 27;
  case '$': return 28;
  case '|': return 29;
  default: return -1;
  }
}

static int luds_value(uint8_t c, char s1, char s2) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  if (c >= '0' && c <= '9') return 52 + (c - '0');
  if (c == (uint8_t)s1) return 62;
  if (c == (uint8_t)s2) return 63;
  return -1;
}

/* Implements R-MS-7. */
int32_t wire_meta_choose_encoding(int32_t msctx, const uint8_t *s,
                                  size_t len) {
  if (msctx < 0 || msctx > 2 || (!s && len)) return -1;
  if (len == 0) return WIRE_MS_UTF8;
  if (wire__utf8_check(s, len) != len) return -1;
  char s1, s2;
  ms_specials(msctx, &s1, &s2);
  bool luds = true, lower = true;
  size_t digits = 0, uppers = 0, nchars = 0;
  for (size_t i = 0; i < len; i++) {
    uint8_t c = s[i];
    if (c >= 0x80) return WIRE_MS_UTF8; /* anything but ASCII */
    nchars++;
    if (luds_value(c, s1, s2) < 0) luds = false;
    if (lower_special_value(c) < 0) lower = false;
    if (c >= '0' && c <= '9') digits++;
    if (c >= 'A' && c <= 'Z') uppers++;
  }
  if (nchars >= WIRE_MS_MAX_CHARS) return -1;
  if (lower && ms_allowed(msctx, WIRE_MS_LOWER_SPECIAL))
    return WIRE_MS_LOWER_SPECIAL;
  if (luds) {
    if (digits) return WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL;
    if (uppers == 1 && s[0] >= 'A' && s[0] <= 'Z' &&
        ms_allowed(msctx, WIRE_MS_FIRST_TO_LOWER_SPECIAL))
      return WIRE_MS_FIRST_TO_LOWER_SPECIAL;
    if ((nchars + uppers) * 5 < nchars * 6) return WIRE_MS_ALL_TO_LOWER_SPECIAL;
    return WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL;
  }
  return WIRE_MS_UTF8;
}

/* The 5- or 6-bit value of input char i (for ALL_TO_LOWER_SPECIAL, of the
 * lower-case letter after the '|' escape). -1 if it cannot be encoded. */
static int char_value(int32_t enc, const uint8_t *s, size_t i, char s1,
                      char s2) {
  uint8_t c = s[i];
  switch (enc) {
  case WIRE_MS_LOWER_SPECIAL:
    return lower_special_value(c);
  case WIRE_MS_FIRST_TO_LOWER_SPECIAL:
    if (i == 0 && c >= 'A' && c <= 'Z') c = (uint8_t)(c - 'A' + 'a');
    return lower_special_value(c);
  case WIRE_MS_ALL_TO_LOWER_SPECIAL:
    if (c >= 'A' && c <= 'Z') return c - 'A';
    return c == '|' ? -1 : lower_special_value(c);
  case WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL:
    return luds_value(c, s1, s2);
  default:
    return -1;
  }
}

/* Implements R-MS-3, R-MS-4, R-MS-5. */
int32_t wire_meta_encode(int32_t msctx, int32_t enc, const uint8_t *s,
                         size_t len, uint8_t *out, size_t cap,
                         size_t *out_len) {
  if (msctx < 0 || msctx > 2 || (!s && len) || (!out && cap) || !out_len)
    return WIRE_E_ARG;
  *out_len = 0;
  if (len >= WIRE_MS_MAX_CHARS * 4) return WIRE_E_META_STRING;
  if (enc == WIRE_MS_UTF8) {
    if (wire__utf8_check(s, len) != len) return WIRE_E_META_STRING;
    *out_len = len;
    if (len > cap) return WIRE_E_BUFFER_FULL;
    if (len) memcpy(out, s, len);
    return WIRE_OK;
  }
  if (enc < 1 || enc > 4) return WIRE_E_ARG;
  if (len == 0) return WIRE_OK;
  if (len >= WIRE_MS_MAX_CHARS) return WIRE_E_META_STRING;
  char s1, s2;
  ms_specials(msctx, &s1, &s2);
  int bits = enc == WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL ? 6 : 5;
  /* Pass 1: validate and count the values. */
  size_t n = 0;
  for (size_t i = 0; i < len; i++) {
    if (char_value(enc, s, i, s1, s2) < 0) return WIRE_E_META_STRING;
    n += (enc == WIRE_MS_ALL_TO_LOWER_SPECIAL && s[i] >= 'A' && s[i] <= 'Z')
             ? 2
             : 1;
  }
  size_t total = n * (size_t)bits + 1;
  size_t bytes = (total + 7) / 8;
  *out_len = bytes;
  if (bytes > cap) return WIRE_E_BUFFER_FULL;
  /* Pass 2: pack MSB-first after the strip-flag bit. */
  memset(out, 0, bytes);
  size_t pos = 1;
  for (size_t i = 0; i < len; i++) {
    bool upper = enc == WIRE_MS_ALL_TO_LOWER_SPECIAL && s[i] >= 'A' &&
                 s[i] <= 'Z';
    for (int pass = upper ? 0 : 1; pass < 2; pass++) {
      int v = upper && pass == 0 ? 29 : char_value(enc, s, i, s1, s2);
      for (int b = bits - 1; b >= 0; b--, pos++)
        if ((v >> b) & 1) out[pos / 8] |= (uint8_t)(0x80 >> (pos % 8));
    }
  }
  if (bytes * 8 >= total + (size_t)bits) out[0] |= 0x80;
  return WIRE_OK;
}

/* Implements R-MSWIRE-3. */
uint64_t wire__ms_hash(const uint8_t *p, size_t len, uint8_t enc, int form) {
  uint64_t h;
  wire_murmur3_x64_128(p, len, 47, &h, NULL);
  if (form == 0) {
    /* Java: Math.abs on the signed lane (INT64_MIN stays), 0 becomes 256. */
    if ((int64_t)h < 0 && h != UINT64_C(0x8000000000000000)) h = 0 - h;
    if (h == 0) h = 256;
  }
  return (h & ~UINT64_C(0xFF)) | enc;
}

static const char lower_chars[] = "abcdefghijklmnopqrstuvwxyz._$|";

/* Implements R-MS-2, R-MS-6. */
int32_t wire_meta_decode(int32_t msctx, int32_t enc, const uint8_t *b,
                         size_t len, uint8_t *out, size_t cap,
                         size_t *out_len) {
  if (msctx < 0 || msctx > 2 || (!b && len) || (!out && cap) || !out_len)
    return WIRE_E_ARG;
  *out_len = 0;
  if (enc == WIRE_MS_UTF8) {
    if (wire__utf8_check(b, len) != len) return WIRE_E_META_STRING;
    *out_len = len;
    if (len > cap) return WIRE_E_BUFFER_FULL;
    if (len) memcpy(out, b, len);
    return WIRE_OK;
  }
  if (enc < 1 || enc > 4) return WIRE_E_META_STRING;
  if (WIRE_MUTANT(ms_no_first_to_lower) && enc == WIRE_MS_FIRST_TO_LOWER_SPECIAL)
    return WIRE_E_META_STRING;
  if (len == 0) return WIRE_OK;
  char s1, s2;
  ms_specials(msctx, &s1, &s2);
  int bits = enc == WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL ? 6 : 5;
  size_t total = len * 8;
  size_t nchars = (total - 1) / (size_t)bits;
  if ((b[0] & 0x80) && nchars > 0) nchars--;
  /* An empty name is written as zero bytes, never as packed padding. */
  if (nchars == 0) return WIRE_E_META_STRING;
  size_t pos = 1, n = 0;
  bool upper_next = false;
  for (size_t i = 0; i < nchars; i++) {
    int v = 0;
    for (int k = 0; k < bits; k++, pos++)
      v = (v << 1) | ((b[pos / 8] >> (7 - pos % 8)) & 1);
    uint8_t c;
    if (bits == 6) {
      if (v < 26) c = (uint8_t)('a' + v);
      else if (v < 52) c = (uint8_t)('A' + v - 26);
      else if (v < 62) c = (uint8_t)('0' + v - 52);
      else c = (uint8_t)(v == 62 ? s1 : s2);
    } else {
      if (v > 29) return WIRE_E_META_STRING;
      c = (uint8_t)lower_chars[v];
      if (enc == WIRE_MS_ALL_TO_LOWER_SPECIAL) {
        if (upper_next) {
          if (c < 'a' || c > 'z') return WIRE_E_META_STRING;
          c = (uint8_t)(c - 'a' + 'A');
          upper_next = false;
        } else if (c == '|') {
          upper_next = true;
          continue;
        }
      } else if (enc == WIRE_MS_FIRST_TO_LOWER_SPECIAL && n == 0) {
        if (c < 'a' || c > 'z') return WIRE_E_META_STRING;
        c = (uint8_t)(c - 'a' + 'A');
      }
    }
    if (n < cap) out[n] = c;
    n++;
  }
  if (upper_next) return WIRE_E_META_STRING;
  *out_len = n;
  if (n > cap) return WIRE_E_BUFFER_FULL;
  /* Canonical form: no spare byte, the strip flag exactly when a phantom
   * value would fit, and zero padding bits. */
  size_t used = 1 + nchars * (size_t)bits;
  if ((used + 7) / 8 != len) return WIRE_E_META_STRING;
  bool strip = (b[0] & 0x80) != 0;
  if (strip != (len * 8 >= used + (size_t)bits)) return WIRE_E_META_STRING;
  for (size_t q = used; q < len * 8; q++)
    if ((b[q / 8] >> (7 - q % 8)) & 1) return WIRE_E_META_STRING;
  return WIRE_OK;
}
