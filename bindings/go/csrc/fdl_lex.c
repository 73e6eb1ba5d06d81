/* fdl_lex.c - FDL source text into tokens: identifiers, integers, quoted
 * strings (decoded into the loader arena), punctuation and keywords; line
 * and block comments skipped. */
#include "fdl.h"

static const char punct_chars[] = "{}[]()<>;,=.";

static const char *const kw_names[] = {
    "package", "import", "public", "weak", "message", "enum", "union",
    "optional", "ref", "repeated", "list", "array", "map", "option",
    "true", "false", "reserved", "to", "max", "service", "rpc",
    "returns", "stream"};


/* ---- lexer ------------------------------------------------------------- */

static bool ident_start(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool ident_char(unsigned char c) {
  return ident_start(c) || is_digit(c);
}

static int32_t push_tok(fdl_loader *L, fdl_file *f, size_t *cap,
                        fdl_tok **out) {
  if (f->ntoks == *cap) {
    uint32_t c32 = (uint32_t)*cap;
    fdl_tok *p = *cap > UINT32_MAX / 2 || f->ntoks > UINT32_MAX
                     ? NULL
                     : wire__arena_grow(&L->arena, f->toks, &c32,
                                        (uint32_t)f->ntoks, sizeof *p, 256);
    if (!p) return nomem(L);
    f->toks = p;
    *cap = c32;
  }
  *out = &f->toks[f->ntoks++];
  memset(*out, 0, sizeof **out);
  return WIRE_OK;
}

/* Skips white space and comments; fails on an unterminated block comment.*/
static int32_t skip_blank(fdl_loader *L, fdl_file *f, size_t *pi) {
  const unsigned char *s = (const unsigned char *)f->text;
  size_t n = f->len, i = *pi;
  for (;;) {
    if (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' ||
                  s[i] == '\n')) {
      i++;
    } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') i++;
    } else if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
      size_t start = i;
      i += 2;
      while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/')) i++;
      if (i + 1 >= n) return syn(L, f, start, "unterminated block comment");
      i += 2;
    } else {
      break;
    }
  }
  *pi = i;
  return WIRE_OK;
}

/* A quoted string; escapes \n, \t, and \x = x for any other x. */
static int32_t lex_string(fdl_loader *L, fdl_file *f, size_t i, fdl_tok *t) {
  const unsigned char *s = (const unsigned char *)f->text;
  size_t n = f->len, j = i + 1, dlen = 0;
  unsigned char q = s[i];
  for (;;) { /* find the end and the decoded length */
    if (j >= n) return syn(L, f, i, "unterminated string");
    if (s[j] == q) break;
    if (s[j] == '\n') return syn(L, f, i, "newline in string");
    if (s[j] == '\\') {
      if (++j >= n) return syn(L, f, i, "unterminated string");
    }
    j++;
    dlen++;
  }
  char *out = wire__arena_alloc(&L->arena, dlen + 1);
  if (!out) return nomem(L);
  size_t o = 0;
  for (size_t k = i + 1; k < j; k++) {
    unsigned char c = s[k];
    if (c == '\\') {
      c = s[++k];
      if (c == 'n') c = '\n';
      else if (c == 't') c = '\t';
    }
    out[o++] = (char)c;
  }
  out[o] = 0;
  t->t = TK_STRING;
  t->s = out;
  t->slen = o;
  t->len = j + 1 - i;
  return WIRE_OK;
}

int32_t lex(fdl_loader *L, fdl_file *f) {
  const unsigned char *s = (const unsigned char *)f->text;
  size_t n = f->len, i = 0, cap = 0;
  for (;;) {
    TRY(skip_blank(L, f, &i));
    fdl_tok *t = NULL;
    TRY(push_tok(L, f, &cap, &t));
    t->off = i;
    if (i >= n) {
      t->t = TK_EOF;
      return WIRE_OK;
    }
    unsigned char c = s[i];
    const char *pc = c ? strchr(punct_chars, c) : NULL;
    if (c == '"' || c == '\'') {
      TRY(lex_string(L, f, i, t));
      i += t->len;
    } else if (pc) {
      t->t = (uint8_t)(TK_LBRACE + (pc - punct_chars));
      t->len = 1;
      i++;
    } else if (ident_start(c)) {
      size_t j = i;
      while (j < n && ident_char(s[j])) j++;
      t->t = TK_IDENT;
      t->len = j - i;
      for (size_t k = 0; k < sizeof kw_names / sizeof kw_names[0]; k++)
        if (eqs(f->text + i, j - i, kw_names[k])) {
          t->t = (uint8_t)(TK_PACKAGE + k);
          break;
        }
      i = j;
    } else if (is_digit(c) || (c == '-' && i + 1 < n && is_digit(s[i + 1]))) {
      size_t j = i + (c == '-');
      bool neg = c == '-';
      uint64_t mag = 0;
      for (; j < n && is_digit(s[j]); j++) {
        unsigned d = s[j] - '0';
        if (mag > (UINT64_MAX - d) / 10) t->big = true;
        else mag = mag * 10 + d;
      }
      if (!t->big && mag > (neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
        t->big = true;
      if (!t->big)
        t->ival = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN
                                                        : -(int64_t)mag)
                      : (int64_t)mag;
      t->t = TK_INT;
      t->len = j - i;
      i = j;
    } else if (c >= 0x20 && c < 0x7f) {
      return syn(L, f, i, "unexpected character '%c'", c);
    } else {
      return syn(L, f, i, "unexpected byte 0x%02x", c);
    }
  }
}

