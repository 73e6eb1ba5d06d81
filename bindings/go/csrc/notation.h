/* notation.h - the value notation inside the library (spec/notation.md):
 * a JSON reader that builds a tree in an arena, a chunked text writer, and
 * the readable forms of decimals and temporals that the printers and
 * wire_dump share. Not installed. */
#ifndef WIRE_NOTATION_INTERNAL_H
#define WIRE_NOTATION_INTERNAL_H

#include "schema.h"

/* ---- JSON tree -------------------------------------------------------- */

enum { WJ_NULL, WJ_FALSE, WJ_TRUE, WJ_NUMBER, WJ_STRING, WJ_ARRAY,
       WJ_OBJECT };

typedef struct wj wj;
typedef struct {
  const char *key; /* UTF-8, not NUL-terminated, may hold NUL */
  uint32_t key_len;
  wj *value;
} wj_member;

struct wj {
  uint8_t kind;    /* WJ_* */
  uint8_t is_int;  /* WJ_NUMBER without fraction or exponent */
  uint32_t n;      /* bytes of a string or number, items, members */
  size_t off;      /* byte offset of the value in the text */
  union {
    const char *s;       /* WJ_STRING (decoded), WJ_NUMBER (as written) */
    wj **items;          /* WJ_ARRAY */
    wj_member *members;  /* WJ_OBJECT, in text order, keys distinct */
  } u;
};

/* Maximum nesting of JSON arrays and objects the reader accepts. */
#define WJ_MAX_DEPTH 2048

/* Parses one JSON value at text[0..len) (leading whitespace skipped) into
 * a tree allocated in `arena`; *end gets the offset just past the value.
 * Errors: WIRE_E_NOTATION on the context with the byte offset. */
int32_t wire__json_parse(wire_ctx *ctx, wire_arena *arena, const char *text,
                         size_t len, wj **out, size_t *end);
/* The member `key` of an object, or NULL. */
wj *wire__json_get(const wj *obj, const char *key);
/* A WJ_NUMBER that is an integer in [lo, hi]. */
bool wire__json_int(const wj *v, int64_t lo, int64_t hi, int64_t *out);
/* A decimal integer in a string or number span; false if it does not fit. */
bool wire__parse_i64(const char *s, size_t n, int64_t *out);
bool wire__parse_u64(const char *s, size_t n, uint64_t *out);

/* ---- Chunked text output ---------------------------------------------- */

typedef struct {
  wire_ctx *ctx;
  wire_text_fn fn;
  void *user;
  int32_t status;   /* sticky */
  uint32_t indent;  /* spaces per level, 0 = compact */
  uint32_t level;
  size_t len;
  char buf[4096];
} wire_tout;

void wire__tout_flush(wire_tout *o);
static inline void wire__tout_put(wire_tout *o, char c) {
  if (WIRE_UNLIKELY(o->len == sizeof o->buf)) wire__tout_flush(o);
  o->buf[o->len++] = c;
}
void wire__tout_raw(wire_tout *o, const char *s, size_t n);
void wire__tout_cstr(wire_tout *o, const char *s); /* raw, NUL-terminated */
/* A JSON string with jansson's JSON_ENSURE_ASCII escaping. */
void wire__tout_str(wire_tout *o, const char *s, size_t n);
void wire__tout_u64(wire_tout *o, uint64_t v);
void wire__tout_i64(wire_tout *o, int64_t v);
/* Containers: `any` is the caller's "has an item" flag for the container. */
void wire__tout_open(wire_tout *o, char c);
void wire__tout_close(wire_tout *o, char c, bool any);
void wire__tout_sep(wire_tout *o, bool *any);
void wire__tout_key(wire_tout *o, bool *any, const char *key);
void wire__tout_keyn(wire_tout *o, bool *any, const char *key, size_t n);

/* ---- Readable forms ---------------------------------------------------- */

/* "2024-02-29" for days since 1970-01-01 within years 1..9999; false
 * outside. buf >= 16 bytes. */
bool wire__fmt_date(int64_t days, char *buf, size_t cap);
/* "2024-02-29T12:34:56.789Z" (fraction trimmed to 3/6/9 digits, none if
 * zero) when `full` is 0, or always 9 digits when `full` is 1 (the
 * notation's "iso"). buf >= 40 bytes. */
bool wire__fmt_timestamp(int64_t seconds, uint32_t nanos, int full,
                         char *buf, size_t cap);
/* "PT1.5S", "-PT0.000000001S" (ISO 8601). buf >= 40 bytes. */
void wire__fmt_duration(int64_t seconds, uint32_t nanos, char *buf,
                        size_t cap);
/* Parses what wire__fmt_date / wire__fmt_timestamp / wire__fmt_duration
 * print (timestamps also with an offset "+01:00"). */
bool wire__scan_date(const char *s, size_t n, int64_t *days);
bool wire__scan_timestamp(const char *s, size_t n, int64_t *seconds,
                          uint32_t *nanos);
bool wire__scan_duration(const char *s, size_t n, int64_t *seconds,
                         uint32_t *nanos);
/* Decimal digits of a little-endian magnitude (sign and scale applied when
 * `point` is 1: "-349.99", "1.5E+3" never - plain digits with a point or
 * trailing zeros). Allocated through ctx (wire__free with *cap). */
char *wire__fmt_decimal(wire_ctx *ctx, int negative, const uint8_t *mag,
                        size_t len, int32_t scale, int point, size_t *out_len,
                        size_t *cap);
/* A decimal text ("-349.99", "1e3", "12") to sign, magnitude (LE bytes in
 * `arena`) and scale. */
bool wire__scan_decimal(wire_arena *arena, const char *s, size_t n,
                        int *negative, uint8_t **mag, size_t *mag_len,
                        int32_t *scale);
/* Shortest decimal that reads back to the same float bits; "nan", "inf",
 * "-inf" for those. buf >= 40 bytes. */
void wire__fmt_float(uint32_t type, uint64_t bits, char *buf, size_t cap);
/* The registered name of an enum value, or NULL. */
const char *wire__enum_value_name(const wire_ctx *ctx, uint32_t type,
                                  uint32_t value);

/* ---- Plain JSON (notation_plain.c) ------------------------------------- */

int32_t wire__plain_print(wire_ctx *ctx, const wire_doc *doc,
                          const wire_node *node, wire_tout *o);
int32_t wire__plain_build(wire_ctx *ctx, wire_doc *doc, const wj *v,
                          uint32_t type, wire_node **out);


#endif
