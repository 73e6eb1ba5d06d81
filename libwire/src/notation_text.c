/* notation_text.c - chunked JSON text output, and the readable forms of
 * dates, timestamps, durations, decimals and floats shared by the notation
 * printers and wire_dump. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "notation.h"

/* ---- output ------------------------------------------------------------ */

void wire__tout_flush(wire_tout *o) {
  if (o->len && o->status == WIRE_OK && o->fn(o->user, o->buf, o->len) != 0)
    o->status = wire__fail(o->ctx, WIRE_E_STATE, 0,
                           "the output callback stopped the print");
  o->len = 0;
}

void wire__tout_raw(wire_tout *o, const char *s, size_t n) {
  while (n) {
    if (o->len == sizeof o->buf) wire__tout_flush(o);
    size_t k = sizeof o->buf - o->len;
    if (k > n) k = n;
    memcpy(o->buf + o->len, s, k);
    o->len += k;
    s += k;
    n -= k;
  }
}

void wire__tout_cstr(wire_tout *o, const char *s) {
  wire__tout_raw(o, s, strlen(s));
}

static const char hexd[] = "0123456789abcdef";

static void put_u4(wire_tout *o, uint32_t u) {
  char b[6] = {'\\', 'u', hexd[u >> 12 & 15], hexd[u >> 8 & 15],
               hexd[u >> 4 & 15], hexd[u & 15]};
  wire__tout_raw(o, b, 6);
}

/* Decodes one UTF-8 sequence (already validated by its producer; a bad
 * byte is printed as U+FFFD). */
static uint32_t next_cp(const unsigned char *s, size_t n, size_t *i) {
  unsigned char c = s[*i];
  uint32_t cp;
  size_t k;
  if (c >= 0xC0 && c < 0xE0) { cp = c & 0x1F; k = 1; }
  else if (c >= 0xE0 && c < 0xF0) { cp = c & 0x0F; k = 2; }
  else if (c >= 0xF0 && c < 0xF8) { cp = c & 0x07; k = 3; }
  else { (*i)++; return 0xFFFD; }
  if (*i + k >= n) {
    *i = n;
    return 0xFFFD;
  }
  for (size_t j = 1; j <= k; j++) cp = cp << 6 | (s[*i + j] & 0x3F);
  *i += k + 1;
  return cp;
}

void wire__tout_str(wire_tout *o, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  wire__tout_put(o, '"');
  size_t i = 0, run = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      i++;
      continue;
    }
    wire__tout_raw(o, str + run, i - run);
    if (c >= 0x80) {
      uint32_t cp = next_cp(s, n, &i);
      if (cp >= 0x10000) {
        cp -= 0x10000;
        put_u4(o, 0xD800 | cp >> 10);
        put_u4(o, 0xDC00 | (cp & 0x3FF));
      } else {
        put_u4(o, cp);
      }
    } else {
      const char *e = NULL;
      switch (c) {
      case '"': e = "\\\""; break;
      case '\\': e = "\\\\"; break;
      case '\b': e = "\\b"; break;
      case '\f': e = "\\f"; break;
      case '\n': e = "\\n"; break;
      case '\r': e = "\\r"; break;
      case '\t': e = "\\t"; break;
      }
      if (e) wire__tout_raw(o, e, 2);
      else put_u4(o, c);
      i++;
    }
    run = i;
  }
  wire__tout_raw(o, str + run, n - run);
  wire__tout_put(o, '"');
}

void wire__tout_u64(wire_tout *o, uint64_t v) {
  char b[24];
  size_t i = sizeof b;
  do {
    b[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  wire__tout_raw(o, b + i, sizeof b - i);
}

void wire__tout_i64(wire_tout *o, int64_t v) {
  if (v < 0) {
    wire__tout_put(o, '-');
    wire__tout_u64(o, 0 - (uint64_t)v);
  } else {
    wire__tout_u64(o, (uint64_t)v);
  }
}

static void newline(wire_tout *o) {
  wire__tout_put(o, '\n');
  for (uint32_t i = 0; i < o->level * o->indent; i++) wire__tout_put(o, ' ');
}

void wire__tout_open(wire_tout *o, char c) {
  wire__tout_put(o, c);
  o->level++;
}

void wire__tout_close(wire_tout *o, char c, bool any) {
  o->level--;
  if (any && o->indent) newline(o);
  wire__tout_put(o, c);
}

void wire__tout_sep(wire_tout *o, bool *any) {
  if (*any) wire__tout_put(o, ',');
  *any = true;
  if (o->indent) newline(o);
}

void wire__tout_keyn(wire_tout *o, bool *any, const char *key, size_t n) {
  wire__tout_sep(o, any);
  wire__tout_str(o, key, n);
  if (o->indent) wire__tout_raw(o, ": ", 2);
  else wire__tout_put(o, ':');
}

void wire__tout_key(wire_tout *o, bool *any, const char *key) {
  wire__tout_keyn(o, any, key, strlen(key));
}

/* ---- dates and times ---------------------------------------------------- */

/* Proleptic Gregorian civil date from days since 1970-01-01 (and back). */
static void civil(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
  z += 719468;
  int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  unsigned doe = (unsigned)(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int64_t yy = (int64_t)yoe + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = yy + (*m <= 2);
}

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  unsigned yoe = (unsigned)(y - era * 400);
  unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (int64_t)doe - 719468;
}

#define MIN_DAY (-719162)  /* 0001-01-01 */
#define MAX_DAY 2932896    /* 9999-12-31 */

bool wire__fmt_date(int64_t days, char *buf, size_t cap) {
  if (days < MIN_DAY || days > MAX_DAY) return false;
  int64_t y;
  unsigned m, d;
  civil(days, &y, &m, &d);
  snprintf(buf, cap, "%04d-%02u-%02u", (int)y, m, d);
  return true;
}

/* ".123456789", or trimmed of trailing zeros unless `full` (none for 0). */
static void frac(char *buf, size_t cap, uint32_t nanos, int full) {
  if (!full && nanos == 0) {
    buf[0] = 0;
    return;
  }
  snprintf(buf, cap, ".%09u", nanos);
  if (!full) {
    size_t n = strlen(buf);
    while (n > 2 && buf[n - 1] == '0') buf[--n] = 0;
  }
}

bool wire__fmt_timestamp(int64_t s, uint32_t nanos, int full, char *buf,
                         size_t cap) {
  if (s < (int64_t)MIN_DAY * 86400 || s >= ((int64_t)MAX_DAY + 1) * 86400)
    return false;
  int64_t days = s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
  int64_t sod = s - days * 86400;
  int64_t y;
  unsigned m, d;
  civil(days, &y, &m, &d);
  char f[16];
  frac(f, sizeof f, nanos, full);
  snprintf(buf, cap, "%04d-%02u-%02uT%02d:%02d:%02d%sZ", (int)y, m, d,
           (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60), f);
  return true;
}

void wire__fmt_duration(int64_t s, uint32_t nanos, char *buf, size_t cap) {
  /* seconds + nanos/1e9, printed with its sign in front */
  bool neg = s < 0;
  uint64_t whole;
  uint32_t ns = nanos;
  if (neg) {
    /* -(|s| - nanos/1e9): borrow one second when nanos is not zero */
    whole = 0 - (uint64_t)s;
    if (ns) {
      whole -= 1;
      ns = 1000000000u - ns;
    }
  } else {
    whole = (uint64_t)s;
  }
  char f[16];
  frac(f, sizeof f, ns, 0);
  snprintf(buf, cap, "%sPT%llu%sS", neg && (whole || ns) ? "-" : "",
           (unsigned long long)whole, f);
}

static bool digits(const char *s, size_t n, size_t at, size_t k, unsigned *v) {
  if (at + k > n) return false;
  unsigned x = 0;
  for (size_t i = 0; i < k; i++) {
    if (s[at + i] < '0' || s[at + i] > '9') return false;
    x = x * 10 + (unsigned)(s[at + i] - '0');
  }
  *v = x;
  return true;
}

static unsigned month_days(int64_t y, unsigned m) {
  static const unsigned md[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)) return 29;
  return md[m - 1];
}

static bool scan_ymd(const char *s, size_t n, int64_t *days) {
  unsigned y, m, d;
  if (n < 10 || !digits(s, n, 0, 4, &y) || s[4] != '-' ||
      !digits(s, n, 5, 2, &m) || s[7] != '-' || !digits(s, n, 8, 2, &d) ||
      y < 1 || m < 1 || m > 12 || d < 1 || d > month_days(y, m))
    return false;
  *days = days_from_civil(y, m, d);
  return true;
}

bool wire__scan_date(const char *s, size_t n, int64_t *days) {
  return n == 10 && scan_ymd(s, n, days);
}

/* ".123" up to 9 digits into nanoseconds; returns the characters used. */
static size_t scan_frac(const char *s, size_t n, size_t at, uint32_t *nanos) {
  *nanos = 0;
  if (at >= n || (s[at] != '.' && s[at] != ',')) return 0;
  size_t i = at + 1;
  uint32_t v = 0, k = 0;
  while (i < n && s[i] >= '0' && s[i] <= '9') {
    if (k == 9) return 0;
    v = v * 10 + (uint32_t)(s[i] - '0');
    k++;
    i++;
  }
  if (k == 0) return 0;
  while (k < 9) {
    v *= 10;
    k++;
  }
  *nanos = v;
  return i - at;
}

bool wire__scan_timestamp(const char *s, size_t n, int64_t *seconds,
                          uint32_t *nanos) {
  int64_t days;
  unsigned hh, mm, ss;
  if (n < 20 || !scan_ymd(s, n, &days) || (s[10] != 'T' && s[10] != ' ') ||
      !digits(s, n, 11, 2, &hh) || s[13] != ':' || !digits(s, n, 14, 2, &mm) ||
      s[16] != ':' || !digits(s, n, 17, 2, &ss) || hh > 23 || mm > 59 ||
      ss > 59)
    return false;
  size_t i = 19;
  size_t f = scan_frac(s, n, i, nanos);
  if (i < n && (s[i] == '.' || s[i] == ',') && f == 0) return false;
  i += f;
  int64_t off = 0;
  if (i < n && (s[i] == 'Z' || s[i] == 'z')) {
    i++;
  } else if (i < n && (s[i] == '+' || s[i] == '-')) {
    unsigned oh, om;
    if (!digits(s, n, i + 1, 2, &oh) || i + 3 >= n || s[i + 3] != ':' ||
        !digits(s, n, i + 4, 2, &om) || oh > 23 || om > 59)
      return false;
    off = (int64_t)(oh * 3600 + om * 60) * (s[i] == '-' ? -1 : 1);
    i += 6;
  } else {
    return false;
  }
  if (i != n) return false;
  *seconds = days * 86400 + hh * 3600 + mm * 60 + ss - off;
  return true;
}

bool wire__scan_duration(const char *s, size_t n, int64_t *seconds,
                         uint32_t *nanos) {
  size_t i = 0;
  bool neg = false;
  if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  if (n - i < 4 || s[i] != 'P' || s[i + 1] != 'T') return false;
  i += 2;
  size_t d = i;
  uint64_t whole = 0;
  while (i < n && s[i] >= '0' && s[i] <= '9') {
    if (whole > (uint64_t)INT64_MAX / 10) return false;
    whole = whole * 10 + (uint64_t)(s[i] - '0');
    i++;
  }
  if (i == d) return false;
  uint32_t ns;
  size_t f = scan_frac(s, n, i, &ns);
  if (i < n && s[i] == '.' && f == 0) return false;
  i += f;
  if (i + 1 != n || s[i] != 'S' || whole > (uint64_t)INT64_MAX) return false;
  if (!neg) {
    *seconds = (int64_t)whole;
    *nanos = ns;
  } else if (ns) {
    *seconds = -(int64_t)whole - 1;
    *nanos = 1000000000u - ns;
  } else {
    *seconds = -(int64_t)whole;
    *nanos = 0;
  }
  return true;
}

/* ---- decimals ----------------------------------------------------------- */

char *wire__fmt_decimal(wire_ctx *ctx, int negative, const uint8_t *mag,
                        size_t len, int32_t scale, int point, size_t *out_len,
                        size_t *out_cap) {
  /* digits of the magnitude (base 256 -> base 10, least significant
   * first), then sign, point and zeros around them */
  size_t nd_cap = len * 3 + 2;
  uint8_t *m = wire__alloc(ctx, len ? len : 1);
  char *dg = wire__alloc(ctx, nd_cap);
  if (!m || !dg) {
    wire__free(ctx, m, len ? len : 1);
    wire__free(ctx, dg, nd_cap);
    return NULL;
  }
  if (len) memcpy(m, mag, len);
  size_t nd = 0, ml = len;
  while (ml > 0 && m[ml - 1] == 0) ml--;
  while (ml > 0) {
    unsigned rem = 0;
    for (size_t i = ml; i-- > 0;) {
      unsigned cur = rem * 256 + m[i];
      m[i] = (uint8_t)(cur / 10);
      rem = cur % 10;
    }
    dg[nd++] = (char)('0' + rem);
    while (ml > 0 && m[ml - 1] == 0) ml--;
  }
  if (nd == 0) dg[nd++] = '0';
  wire__free(ctx, m, len ? len : 1);
  bool zero = nd == 1 && dg[0] == '0';
  int64_t sc = point ? scale : 0;
  /* layout: [-] int part [. frac part] ; with sc <= 0 trailing zeros */
  size_t zeros_after = sc < 0 ? (size_t)(-sc) : 0;
  size_t frac_digits = sc > 0 ? (size_t)sc : 0;
  size_t lead_zeros = frac_digits >= nd ? frac_digits - nd + 1 : 0;
  if (zero) zeros_after = 0;
  size_t total = 1 + nd + lead_zeros + zeros_after + 2;
  if (zeros_after > (1u << 20) || lead_zeros > (1u << 20)) {
    /* absurd scales: keep the exponent form instead of megabytes of 0s */
    total = nd + 32;
  }
  char *out = wire__alloc(ctx, total);
  if (!out) {
    wire__free(ctx, dg, nd_cap);
    return NULL;
  }
  size_t w = 0;
  if (negative && !zero) out[w++] = '-';
  if (total == nd + 32) {
    for (size_t i = nd; i-- > 0;) out[w++] = dg[i];
    w += (size_t)snprintf(out + w, total - w, "E%lld", (long long)-sc);
  } else {
    /* all digits, most significant first, padded */
    size_t all = nd + lead_zeros;
    size_t int_digits = all - frac_digits;
    for (size_t i = 0; i < all; i++) {
      if (i == int_digits) out[w++] = '.';
      out[w++] = i < lead_zeros ? '0' : dg[nd - 1 - (i - lead_zeros)];
    }
    for (size_t i = 0; i < zeros_after; i++) out[w++] = '0';
  }
  out[w] = 0;
  wire__free(ctx, dg, nd_cap);
  *out_len = w;
  *out_cap = total;
  return out;
}

bool wire__scan_decimal(wire_arena *arena, const char *s, size_t n,
                        int *negative, uint8_t **mag, size_t *mag_len,
                        int32_t *scale) {
  size_t i = 0;
  *negative = 0;
  if (i < n && (s[i] == '-' || s[i] == '+')) *negative = s[i++] == '-';
  size_t start = i, ndig = 0;
  int64_t sc = 0;
  bool seen_point = false;
  for (; i < n; i++) {
    if (s[i] >= '0' && s[i] <= '9') {
      ndig++;
      if (seen_point) sc++;
    } else if (s[i] == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (ndig == 0) return false;
  size_t digits_end = i;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    int64_t e;
    if (!wire__parse_i64(s + i + 1, n - i - 1, &e) || e > INT32_MAX ||
        e < INT32_MIN)
      return false;
    sc -= e;
    i = n;
  }
  if (i != n || sc > INT32_MAX || sc < INT32_MIN) return false;
  uint8_t *m = wire__arena_alloc(arena, ndig / 2 + 2);
  if (!m) return false;
  size_t ml = 0;
  for (size_t k = start; k < digits_end; k++) {
    if (s[k] == '.') continue;
    unsigned carry = (unsigned)(s[k] - '0');
    for (size_t q = 0; q < ml; q++) {
      unsigned cur = m[q] * 10u + carry;
      m[q] = (uint8_t)cur;
      carry = cur >> 8;
    }
    if (carry) m[ml++] = (uint8_t)carry;
  }
  *mag = m;
  *mag_len = ml;
  *scale = (int32_t)sc;
  return true;
}

/* ---- floats -------------------------------------------------------------- */

static double float_value(uint32_t t, uint64_t bits) {
  switch (t) {
  case WIRE_T_FLOAT16: return wire_float16_to_double((uint16_t)bits);
  case WIRE_T_BFLOAT16: return wire_bfloat16_to_float((uint16_t)bits);
  case WIRE_T_FLOAT32: {
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
  }
  default: {
    double d;
    memcpy(&d, &bits, 8);
    return d;
  }
  }
}

static uint64_t float_bits(uint32_t t, double v) {
  switch (t) {
  case WIRE_T_FLOAT16: return wire_float16_from_double(v);
  case WIRE_T_BFLOAT16: return wire_bfloat16_from_double(v);
  case WIRE_T_FLOAT32: {
    float f = (float)v;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
  }
  default: {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
  }
  }
}

void wire__fmt_float(uint32_t t, uint64_t bits, char *buf, size_t cap) {
  double v = float_value(t, bits);
  if (isnan(v)) {
    snprintf(buf, cap, "nan");
    return;
  }
  if (isinf(v)) {
    snprintf(buf, cap, v > 0 ? "inf" : "-inf");
    return;
  }
  int prec = t == WIRE_T_FLOAT64 ? 17 : t == WIRE_T_FLOAT32 ? 9 : 5;
  /* the shortest precision that reads back to the same bits */
  for (int p = 1; p <= prec; p++) {
    snprintf(buf, cap, "%.*g", p, v);
    if (float_bits(t, strtod(buf, NULL)) == bits) break;
  }
}

const char *wire__enum_value_name(const wire_ctx *ctx, uint32_t type,
                                  uint32_t value) {
  const wire_registry *r = ctx ? ctx->reg : NULL;
  if (!r || type >= r->ntypes || r->types[type].kind != WIRE_KIND_ENUM)
    return NULL;
  const wire_utype *t = &r->types[type];
  for (uint32_t i = 0; i < t->nvalues; i++)
    if (t->values[i].value == value) return t->values[i].name;
  return NULL;
}

void wire__readable(wire_ctx *ctx, const wire_doc *doc, const wire_node *n,
                    char *buf, size_t cap) {
  char b[64];
  buf[0] = 0;
  switch (n->type) {
  case WIRE_T_DATE:
    if (wire__fmt_date(n->v.i, b, sizeof b)) snprintf(buf, cap, " = %s", b);
    break;
  case WIRE_T_TIMESTAMP:
    if (wire__fmt_timestamp(n->v.i, n->small, 0, b, sizeof b))
      snprintf(buf, cap, " = %s", b);
    break;
  case WIRE_T_DURATION:
    wire__fmt_duration(n->v.i, n->small, b, sizeof b);
    snprintf(buf, cap, " = %s", b);
    break;
  case WIRE_T_DECIMAL: {
    size_t len, dcap;
    char *s = wire__fmt_decimal(ctx, (n->flags & WIRE_NF_NEGATIVE) != 0,
                                n->v.dec->mag, n->v.dec->len, (int32_t)n->small,
                                1, &len, &dcap);
    if (s) {
      snprintf(buf, cap, " = %.*s%s", len > 60 ? 60 : (int)len, s,
               len > 60 ? "..." : "");
      wire__free(ctx, s, dcap);
    }
    break;
  }
  case WIRE_T_ENUM: case WIRE_T_NAMED_ENUM: {
    uint32_t ti;
    const char *name = NULL;
    if (wire_node_user_type(doc, n, &ti) == WIRE_OK)
      name = wire__enum_value_name(ctx, ti, n->small);
    if (name) snprintf(buf, cap, " (%s.%s)", wire_schema_type_name(ctx, ti), name);
    break;
  }
  default:
    break;
  }
}
