/* json.c - a strict JSON reader (RFC 8259) for the value notation: one
 * value into a tree allocated in an arena. Strings are checked UTF-8,
 * escapes are decoded (\u0000 and surrogate pairs included, lone
 * surrogates rejected), numbers are kept as written, duplicate keys are
 * errors. Nesting is limited to WJ_MAX_DEPTH; time and memory are linear
 * in the text. */
#include <stdlib.h>

#include "notation.h"

typedef struct {
  wire_ctx *ctx;
  wire_arena *arena;
  const char *text;
  size_t pos, len;
  uint32_t depth;
  /* Items of the open containers, top of stack last (a shared stack:
   * each container copies its slice into the arena when it closes). */
  void **stack;
  size_t nstack, cap;
} jp;

static int32_t jerr(jp *p, size_t at, const char *what) {
  return wire__fail(p->ctx, WIRE_E_NOTATION, at, "JSON: %s", what);
}

static void skip_ws(jp *p) {
  while (p->pos < p->len) {
    char c = p->text[p->pos];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
    p->pos++;
  }
}

static int32_t push(jp *p, void *v) {
  if (p->nstack == p->cap) {
    void **s = wire__grow(p->ctx, p->stack, &p->cap, p->nstack, sizeof *s, 64);
    if (!s) return wire__fail(p->ctx, WIRE_E_NOMEM, p->pos, "out of memory");
    p->stack = s;
  }
  p->stack[p->nstack++] = v;
  return WIRE_OK;
}

static wj *new_value(jp *p, uint8_t kind, size_t off) {
  wj *v = wire__arena_alloc(p->arena, sizeof *v);
  if (!v) {
    wire__fail(p->ctx, WIRE_E_NOMEM, off, "out of memory");
    return NULL;
  }
  memset(v, 0, sizeof *v);
  v->kind = kind;
  v->off = off;
  return v;
}

static int hexdig(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool hex4(const char *s, uint32_t *out) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) {
    int d = hexdig(s[i]);
    if (d < 0) return false;
    v = v << 4 | (uint32_t)d;
  }
  *out = v;
  return true;
}

static size_t put_utf8(char *o, uint32_t cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xC0 | cp >> 6);
    o[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | cp >> 12);
    o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  o[0] = (char)(0xF0 | cp >> 18);
  o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  o[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* A string at p->pos (the opening quote). Decoded text goes into the arena
 * unless it has no escapes, in which case it points into the text. */
static int32_t read_string(jp *p, const char **out, uint32_t *out_len) {
  size_t start = ++p->pos;
  bool escapes = false;
  size_t i = start;
  for (;;) {
    if (i >= p->len) return jerr(p, start - 1, "unterminated string");
    unsigned char c = (unsigned char)p->text[i];
    if (c == '"') break;
    if (c < 0x20) return jerr(p, i, "control character in a string");
    if (c == '\\') {
      escapes = true;
      i += 2;
      continue;
    }
    i++;
  }
  size_t end = i; /* the closing quote */
  if (end - start > UINT32_MAX) return jerr(p, start, "string too long");
  if (!escapes) {
    if (wire__utf8_check((const uint8_t *)p->text + start, end - start) !=
        end - start)
      return jerr(p, start + wire__utf8_check((const uint8_t *)p->text + start,
                                              end - start),
                  "string is not valid UTF-8");
    *out = p->text + start;
    *out_len = (uint32_t)(end - start);
    p->pos = end + 1;
    return WIRE_OK;
  }
  /* Decoded text is never longer than the escaped text. */
  char *buf = wire__arena_alloc(p->arena, end - start + 1);
  if (!buf) return wire__fail(p->ctx, WIRE_E_NOMEM, start, "out of memory");
  size_t w = 0, run = start;
  for (i = start; i < end;) {
    if (p->text[i] != '\\') {
      i++;
      continue;
    }
    size_t n = i - run;
    if (wire__utf8_check((const uint8_t *)p->text + run, n) != n)
      return jerr(p, run, "string is not valid UTF-8");
    memcpy(buf + w, p->text + run, n);
    w += n;
    if (i + 1 >= end) return jerr(p, i, "bad escape");
    char e = p->text[i + 1];
    const char *simple = "\"\"\\\\//b\bf\fn\nr\rt\t";
    const char *m = NULL;
    for (const char *q = simple; *q; q += 2)
      if (*q == e) {
        m = q;
        break;
      }
    if (m) {
      buf[w++] = m[1];
      i += 2;
    } else if (e == 'u') {
      uint32_t cp;
      if (i + 6 > end || !hex4(p->text + i + 2, &cp))
        return jerr(p, i, "bad \\u escape");
      i += 6;
      if (cp >= 0xD800 && cp < 0xDC00) {
        uint32_t lo;
        if (i + 6 > end || p->text[i] != '\\' || p->text[i + 1] != 'u' ||
            !hex4(p->text + i + 2, &lo) || lo < 0xDC00 || lo >= 0xE000)
          return jerr(p, i - 6, "unpaired surrogate in a \\u escape");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        i += 6;
      } else if (cp >= 0xDC00 && cp < 0xE000) {
        return jerr(p, i - 6, "unpaired surrogate in a \\u escape");
      }
      w += put_utf8(buf + w, cp);
    } else {
      return jerr(p, i, "bad escape");
    }
    run = i;
  }
  size_t n = end - run;
  if (wire__utf8_check((const uint8_t *)p->text + run, n) != n)
    return jerr(p, run, "string is not valid UTF-8");
  memcpy(buf + w, p->text + run, n);
  w += n;
  *out = buf;
  *out_len = (uint32_t)w;
  p->pos = end + 1;
  return WIRE_OK;
}

static int32_t read_number(jp *p, wj *v) {
  size_t s = p->pos, i = s;
  const char *t = p->text;
  bool is_int = true;
  if (i < p->len && t[i] == '-') i++;
  if (i >= p->len) return jerr(p, s, "bad number");
  if (t[i] == '0') {
    i++;
  } else if (t[i] >= '1' && t[i] <= '9') {
    while (i < p->len && t[i] >= '0' && t[i] <= '9') i++;
  } else {
    return jerr(p, s, "bad number");
  }
  if (i < p->len && t[i] == '.') {
    is_int = false;
    i++;
    size_t d = i;
    while (i < p->len && t[i] >= '0' && t[i] <= '9') i++;
    if (i == d) return jerr(p, s, "bad number");
  }
  if (i < p->len && (t[i] == 'e' || t[i] == 'E')) {
    is_int = false;
    i++;
    if (i < p->len && (t[i] == '+' || t[i] == '-')) i++;
    size_t d = i;
    while (i < p->len && t[i] >= '0' && t[i] <= '9') i++;
    if (i == d) return jerr(p, s, "bad number");
  }
  v->u.s = t + s;
  v->n = (uint32_t)(i - s);
  v->is_int = is_int;
  p->pos = i;
  return WIRE_OK;
}

static int cmp_member(const void *a, const void *b) {
  const wj_member *x = *(wj_member *const *)a, *y = *(wj_member *const *)b;
  size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
  int c = n ? memcmp(x->key, y->key, n) : 0;
  if (c) return c;
  return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

/* Duplicate keys: quadratic for small objects, sorted otherwise. */
static int32_t check_keys(jp *p, wj *obj) {
  wj_member *m = obj->u.members;
  uint32_t n = obj->n;
  if (n <= 16) {
    for (uint32_t i = 1; i < n; i++)
      for (uint32_t k = 0; k < i; k++)
        if (m[i].key_len == m[k].key_len &&
            wire__eq(m[i].key, m[k].key, m[i].key_len))
          return jerr(p, m[i].value->off, "duplicate key in an object");
    return WIRE_OK;
  }
  wj_member **s = wire__alloc(p->ctx, n * sizeof *s);
  if (!s) return wire__fail(p->ctx, WIRE_E_NOMEM, obj->off, "out of memory");
  for (uint32_t i = 0; i < n; i++) s[i] = &m[i];
  qsort(s, n, sizeof *s, cmp_member);
  int32_t st = WIRE_OK;
  for (uint32_t i = 1; i < n && !st; i++)
    if (cmp_member(&s[i - 1], &s[i]) == 0)
      st = jerr(p, (s[i] > s[i - 1] ? s[i] : s[i - 1])->value->off,
                "duplicate key in an object");
  wire__free(p->ctx, s, n * sizeof *s);
  return st;
}

static int32_t read_value(jp *p, wj **out);

static int32_t read_array(jp *p, wj *v) {
  size_t base = p->nstack;
  p->pos++;
  skip_ws(p);
  if (p->pos < p->len && p->text[p->pos] == ']') {
    p->pos++;
    return WIRE_OK;
  }
  for (;;) {
    wj *item;
    int32_t st = read_value(p, &item);
    if (st) return st;
    if ((st = push(p, item))) return st;
    skip_ws(p);
    if (p->pos >= p->len) return jerr(p, v->off, "unterminated array");
    char c = p->text[p->pos++];
    if (c == ']') break;
    if (c != ',') return jerr(p, p->pos - 1, "expected ',' or ']'");
  }
  size_t n = p->nstack - base;
  if (n > UINT32_MAX) return jerr(p, v->off, "array too long");
  v->u.items = wire__arena_alloc(p->arena, n * sizeof(wj *));
  if (!v->u.items) return wire__fail(p->ctx, WIRE_E_NOMEM, v->off, "out of memory");
  memcpy(v->u.items, p->stack + base, n * sizeof(wj *));
  v->n = (uint32_t)n;
  p->nstack = base;
  return WIRE_OK;
}

static int32_t read_object(jp *p, wj *v) {
  size_t base = p->nstack;
  p->pos++;
  skip_ws(p);
  if (p->pos < p->len && p->text[p->pos] == '}') {
    p->pos++;
    return WIRE_OK;
  }
  for (;;) {
    skip_ws(p);
    if (p->pos >= p->len || p->text[p->pos] != '"')
      return jerr(p, p->pos, "expected a key string");
    wj_member *m = wire__arena_alloc(p->arena, sizeof *m);
    if (!m) return wire__fail(p->ctx, WIRE_E_NOMEM, p->pos, "out of memory");
    int32_t st = read_string(p, &m->key, &m->key_len);
    if (st) return st;
    skip_ws(p);
    if (p->pos >= p->len || p->text[p->pos] != ':')
      return jerr(p, p->pos, "expected ':'");
    p->pos++;
    if ((st = read_value(p, &m->value))) return st;
    if ((st = push(p, m))) return st;
    skip_ws(p);
    if (p->pos >= p->len) return jerr(p, v->off, "unterminated object");
    char c = p->text[p->pos++];
    if (c == '}') break;
    if (c != ',') return jerr(p, p->pos - 1, "expected ',' or '}'");
  }
  size_t n = p->nstack - base;
  if (n > UINT32_MAX) return jerr(p, v->off, "object too long");
  v->u.members = wire__arena_alloc(p->arena, n * sizeof(wj_member));
  if (!v->u.members)
    return wire__fail(p->ctx, WIRE_E_NOMEM, v->off, "out of memory");
  for (size_t i = 0; i < n; i++)
    v->u.members[i] = *(wj_member *)p->stack[base + i];
  v->n = (uint32_t)n;
  p->nstack = base;
  return check_keys(p, v);
}

static bool word(jp *p, const char *w, size_t n) {
  if (p->len - p->pos < n || memcmp(p->text + p->pos, w, n) != 0) return false;
  p->pos += n;
  return true;
}

static int32_t read_value(jp *p, wj **out) {
  skip_ws(p);
  if (p->pos >= p->len) return jerr(p, p->pos, "unexpected end of text");
  size_t at = p->pos;
  char c = p->text[at];
  wj *v;
  int32_t st = WIRE_OK;
  switch (c) {
  case '{':
  case '[':
    if (++p->depth > WJ_MAX_DEPTH) return jerr(p, at, "nested too deep");
    if (!(v = new_value(p, c == '{' ? WJ_OBJECT : WJ_ARRAY, at)))
      return WIRE_E_NOMEM;
    st = c == '{' ? read_object(p, v) : read_array(p, v);
    p->depth--;
    break;
  case '"':
    if (!(v = new_value(p, WJ_STRING, at))) return WIRE_E_NOMEM;
    st = read_string(p, &v->u.s, &v->n);
    break;
  case 't':
  case 'f':
  case 'n':
    if (!(v = new_value(p, c == 't' ? WJ_TRUE : c == 'f' ? WJ_FALSE : WJ_NULL,
                        at)))
      return WIRE_E_NOMEM;
    if (!(c == 't' ? word(p, "true", 4) : c == 'f' ? word(p, "false", 5)
                                                   : word(p, "null", 4)))
      return jerr(p, at, "unknown literal");
    break;
  default:
    if (c != '-' && (c < '0' || c > '9'))
      return jerr(p, at, "unexpected character");
    if (!(v = new_value(p, WJ_NUMBER, at))) return WIRE_E_NOMEM;
    st = read_number(p, v);
  }
  *out = v;
  return st;
}

int32_t wire__json_parse(wire_ctx *ctx, wire_arena *arena, const char *text,
                         size_t len, wj **out, size_t *end) {
  jp p = {ctx, arena, text, 0, len, 0, NULL, 0, 0};
  *out = NULL;
  int32_t st = read_value(&p, out);
  if (p.stack) wire__free(ctx, p.stack, p.cap * sizeof *p.stack);
  if (st) {
    *out = NULL;
    return st;
  }
  /* A number must not run into the next token ("1x"). */
  if (p.pos < len && (*out)->kind == WJ_NUMBER) {
    char c = text[p.pos];
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t' && c != '{' &&
        c != '[' && c != '"')
      return jerr(&p, p.pos, "unexpected character after a number");
  }
  if (end) *end = p.pos;
  return WIRE_OK;
}

wj *wire__json_get(const wj *obj, const char *key) {
  if (!obj || obj->kind != WJ_OBJECT) return NULL;
  size_t n = strlen(key);
  for (uint32_t i = 0; i < obj->n; i++)
    if (obj->u.members[i].key_len == n &&
        wire__eq(obj->u.members[i].key, key, n))
      return obj->u.members[i].value;
  return NULL;
}

bool wire__parse_u64(const char *s, size_t n, uint64_t *out) {
  if (!s || n == 0 || n > 20) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return false;
    uint64_t d = (uint64_t)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  *out = v;
  return true;
}

bool wire__parse_i64(const char *s, size_t n, int64_t *out) {
  if (!s || n == 0) return false;
  bool neg = s[0] == '-';
  uint64_t m;
  if (!wire__parse_u64(s + (neg || s[0] == '+'), n - (neg || s[0] == '+'), &m))
    return false;
  if (neg ? m > (uint64_t)INT64_MAX + 1 : m > (uint64_t)INT64_MAX) return false;
  *out = neg ? (int64_t)(0 - m) : (int64_t)m;
  return true;
}

bool wire__json_int(const wj *v, int64_t lo, int64_t hi, int64_t *out) {
  int64_t x;
  if (!v || v->kind != WJ_NUMBER || !v->is_int ||
      !wire__parse_i64(v->u.s, v->n, &x) || x < lo || x > hi)
    return false;
  *out = x;
  return true;
}
