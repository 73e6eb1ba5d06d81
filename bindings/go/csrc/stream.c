/* stream.c - the streaming writer and reader for generated code and
 * bindings. Both keep the first error (sticky): later calls do nothing. */
#include "internal.h"

struct wire_reader {
  wire_in in;
  int32_t status;
  size_t err_at;
};

/* ---- writer ---- */

wire_writer *wire_writer_new(wire_ctx *ctx, uint8_t *buf, size_t cap) {
  if (!ctx) return NULL;
  wire_writer *w = wire__alloc(ctx, sizeof *w);
  if (!w) return NULL;
  memset(w, 0, sizeof *w);
  w->b.ctx = ctx;
  if (buf) {
    w->b.p = buf;
    w->b.cap = cap;
    w->b.fixed = true;
  }
  return w;
}

void wire_writer_free(wire_writer *w) {
  if (!w) return;
  wire_ctx *ctx = w->b.ctx;
  if (!w->b.fixed) wire__free(ctx, w->b.p, w->b.cap);
  wire__free(ctx, w, sizeof *w);
}

void wire_writer_reset(wire_writer *w) {
  if (!w) return;
  w->b.len = 0;
  w->b.status = WIRE_OK;
  w->needed = 0;
}

int32_t wire_writer_status(const wire_writer *w) {
  return w ? w->b.status : WIRE_E_ARG;
}
size_t wire_writer_size(const wire_writer *w) {
  if (!w) return 0;
  return w->b.status == WIRE_E_BUFFER_FULL ? w->needed : w->b.len;
}
const uint8_t *wire_writer_data(const wire_writer *w) {
  return w ? w->b.p : NULL;
}

/* Keeps `needed` counting after a fixed buffer filled up. */
static inline bool wok(wire_writer *w, size_t n) {
  if (!w) return false;
  if (w->b.status == WIRE_OK && w->b.cap - w->b.len >= n) return true;
  if (w->b.status == WIRE_OK && w->b.fixed) {
    w->b.status = WIRE_E_BUFFER_FULL;
    w->needed = w->b.len;
  }
  if (w->b.status == WIRE_E_BUFFER_FULL) {
    w->needed += n; /* upper bound for varints */
    return false;
  }
  return w->b.status == WIRE_OK && wire__buf_grow(&w->b, n) == WIRE_OK;
}

/* Appends n bytes after checking for exactly n bytes of room (a caller's
 * fixed buffer may end right after them). */
static void emit(wire_writer *w, const uint8_t *p, size_t n) {
  if (wok(w, n)) {
    memcpy(w->b.p + w->b.len, p, n);
    w->b.len += n;
  }
}

/* Encodes with the shared put helpers into a scratch buffer first, so the
 * writer reserves only the bytes actually written. */
#define EMIT(w, put)                                         \
  do {                                                       \
    uint8_t tmp_[16];                                        \
    wire_buf t_ = {NULL, tmp_, 0, sizeof tmp_, true, WIRE_OK}; \
    put;                                                     \
    emit((w), tmp_, t_.len);                                 \
  } while (0)

void wire_write_header(wire_writer *w) { EMIT(w, wire__put_u8(&t_, 1)); }
void wire_write_u8(wire_writer *w, uint8_t v) { EMIT(w, wire__put_u8(&t_, v)); }
void wire_write_bool(wire_writer *w, int32_t v) { EMIT(w, wire__put_u8(&t_, v != 0)); }
void wire_write_i8(wire_writer *w, int8_t v) { EMIT(w, wire__put_u8(&t_, (uint8_t)v)); }
void wire_write_i16(wire_writer *w, int16_t v) { EMIT(w, wire__put_le(&t_, (uint16_t)v, 2)); }
void wire_write_i32(wire_writer *w, int32_t v) { EMIT(w, wire__put_le(&t_, (uint32_t)v, 4)); }
void wire_write_i64(wire_writer *w, int64_t v) { EMIT(w, wire__put_le(&t_, (uint64_t)v, 8)); }
void wire_write_u16(wire_writer *w, uint16_t v) { EMIT(w, wire__put_le(&t_, v, 2)); }
void wire_write_u32(wire_writer *w, uint32_t v) { EMIT(w, wire__put_le(&t_, v, 4)); }
void wire_write_u64(wire_writer *w, uint64_t v) { EMIT(w, wire__put_le(&t_, v, 8)); }
void wire_write_varint32(wire_writer *w, int32_t v) { EMIT(w, wire__put_varu32(&t_, wire__zz32(v))); }
void wire_write_varuint32(wire_writer *w, uint32_t v) { EMIT(w, wire__put_varu32(&t_, v)); }
void wire_write_varint64(wire_writer *w, int64_t v) { EMIT(w, wire__put_varu64(&t_, wire__zz64(v))); }
void wire_write_varuint64(wire_writer *w, uint64_t v) { EMIT(w, wire__put_varu64(&t_, v)); }
void wire_write_tagged_int64(wire_writer *w, int64_t v) { EMIT(w, wire__put_tagged_i64(&t_, v)); }
void wire_write_tagged_uint64(wire_writer *w, uint64_t v) { EMIT(w, wire__put_tagged_u64(&t_, v)); }
void wire_write_float32(wire_writer *w, float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  EMIT(w, wire__put_le(&t_, u, 4));
}
void wire_write_float64(wire_writer *w, double v) {
  uint64_t u;
  memcpy(&u, &v, 8);
  EMIT(w, wire__put_le(&t_, u, 8));
}
void wire_write_bits16(wire_writer *w, uint16_t v) { EMIT(w, wire__put_le(&t_, v, 2)); }
void wire_write_bytes(wire_writer *w, const uint8_t *p, size_t n) {
  if (!p && n) {
    if (w && w->b.status == WIRE_OK) w->b.status = WIRE_E_ARG;
    return;
  }
  if (n) emit(w, p, n);
}
void wire_write_binary(wire_writer *w, const uint8_t *p, size_t n) {
  if (n > UINT32_MAX) {
    if (w && w->b.status == WIRE_OK) w->b.status = WIRE_E_LENGTH;
    return;
  }
  wire_write_varuint32(w, (uint32_t)n);
  wire_write_bytes(w, p, n);
}
void wire_write_string_raw(wire_writer *w, int32_t enc, const uint8_t *p,
                           size_t n) {
  if (!w) return;
  if (enc < 0 || enc > 2 || (!p && n) || n > (UINT64_C(1) << 34) ||
      (enc == WIRE_STR_UTF16 && (n & 1))) {
    if (w->b.status == WIRE_OK) w->b.status = WIRE_E_ARG;
    return;
  }
  EMIT(w, wire__put_varu36(&t_, ((uint64_t)n << 2) | (uint32_t)enc));
  wire_write_bytes(w, p, n);
}
void wire_write_string(wire_writer *w, const uint8_t *s, size_t n) {
  if (!w) return;
  if ((!s && n) || wire__utf8_check(s, n) != n) {
    if (w->b.status == WIRE_OK) w->b.status = WIRE_E_STRING;
    return;
  }
  int32_t enc = wire__java_string_encoding(s, n);
  if (enc == WIRE_STR_UTF8) {
    wire_write_string_raw(w, enc, s, n);
    return;
  }
  /* Exact length in the target encoding: one byte per code point for
   * Latin-1, two per UTF-16 unit (four for a code point past U+FFFF). */
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    if ((c & 0xC0) == 0x80) continue; /* continuation byte */
    len += enc == WIRE_STR_LATIN1 ? 1 : (c >= 0xF0 ? 4 : 2);
  }
  EMIT(w, wire__put_varu36(&t_, ((uint64_t)len << 2) | (uint32_t)enc));
  if (!wok(w, len)) return;
  w->b.len += wire__utf8_to_string(enc, s, n, w->b.p + w->b.len);
}
void wire_write_ref_flag(wire_writer *w, int32_t f) {
  if (f < -3 || f > 0) {
    if (w && w->b.status == WIRE_OK) w->b.status = WIRE_E_ARG;
    return;
  }
  wire_write_u8(w, (uint8_t)(int8_t)f);
}
void wire_write_type_id(wire_writer *w, uint32_t t) {
  if (t > 0x7F) {
    if (w && w->b.status == WIRE_OK) w->b.status = WIRE_E_ARG;
    return;
  }
  wire_write_u8(w, (uint8_t)t);
}

/* ---- reader ---- */

wire_reader *wire_reader_new(wire_ctx *ctx, const uint8_t *data, size_t len) {
  if (!ctx || (!data && len)) return NULL;
  wire_reader *r = wire__alloc(ctx, sizeof *r);
  if (!r) return NULL;
  memset(r, 0, sizeof *r);
  r->in = (wire_in){ctx, data, data, data + len};
  return r;
}
void wire_reader_free(wire_reader *r) {
  if (r) wire__free(r->in.ctx, r, sizeof *r);
}
int32_t wire_reader_status(const wire_reader *r) {
  return r ? r->status : WIRE_E_ARG;
}
size_t wire_reader_offset(const wire_reader *r) {
  if (!r) return 0;
  return r->status ? r->err_at : (size_t)(r->in.p - r->in.base);
}
size_t wire_reader_remaining(const wire_reader *r) {
  return r ? (size_t)(r->in.end - r->in.p) : 0;
}

/* Starts a read: false if the reader already failed. */
static inline bool rgo(wire_reader *r, const uint8_t **start) {
  if (!r || r->status) return false;
  *start = r->in.p;
  return true;
}
/* Ends a read: records a failure. */
static inline bool rend(wire_reader *r, const uint8_t *start, bool good) {
  if (good) return true;
  r->status = r->in.ctx->err_code ? r->in.ctx->err_code : WIRE_E_STATE;
  r->err_at = (size_t)(start - r->in.base);
  r->in.p = start;
  return false;
}
static bool rfail(wire_reader *r, const uint8_t *s, int32_t code,
                  const char *msg) {
  wire__fail(r->in.ctx, code, (uint64_t)(s - r->in.base), "%s", msg);
  return rend(r, s, false);
}

int32_t wire_read_header(wire_reader *r) {
  const uint8_t *s;
  uint8_t h;
  if (!rgo(r, &s)) return r ? r->status : WIRE_E_ARG;
  if (!rend(r, s, wire__get_u8(&r->in, &h))) return r->status;
  if (h == 1) return WIRE_OK;
  rfail(r, s, (h & 0xFC) || !(h & 1) ? WIRE_E_HEADER : WIRE_E_UNSUPPORTED,
        "payload header is not 0x01");
  return r->status;
}

#define LE_READER(name, type, n)                                  \
  type name(wire_reader *r) {                                      \
    const uint8_t *s;                                              \
    uint64_t v = 0;                                                \
    if (!rgo(r, &s)) return 0;                                     \
    if (!rend(r, s, wire__get_le(&r->in, n, &v))) return 0;        \
    return (type)v;                                                \
  }
LE_READER(wire_read_u8, uint8_t, 1)
LE_READER(wire_read_i8, int8_t, 1)
LE_READER(wire_read_i16, int16_t, 2)
LE_READER(wire_read_i32, int32_t, 4)
LE_READER(wire_read_i64, int64_t, 8)
LE_READER(wire_read_u16, uint16_t, 2)
LE_READER(wire_read_u32, uint32_t, 4)
LE_READER(wire_read_u64, uint64_t, 8)
LE_READER(wire_read_bits16, uint16_t, 2)

int32_t wire_read_bool(wire_reader *r) {
  const uint8_t *s = r ? r->in.p : NULL;
  uint8_t v = wire_read_u8(r);
  if (r && !r->status && v > 1) {
    rfail(r, s, WIRE_E_VALUE, "bool byte is not 0 or 1");
    return 0;
  }
  return v;
}
float wire_read_float32(wire_reader *r) {
  uint32_t u = wire_read_u32(r);
  float f;
  memcpy(&f, &u, 4);
  return f;
}
double wire_read_float64(wire_reader *r) {
  uint64_t u = wire_read_u64(r);
  double x;
  memcpy(&x, &u, 8);
  return x;
}
uint32_t wire_read_varuint32(wire_reader *r) {
  const uint8_t *s;
  uint32_t v = 0;
  if (!rgo(r, &s)) return 0;
  if (!rend(r, s, wire__get_varu32(&r->in, &v))) return 0;
  return v;
}
int32_t wire_read_varint32(wire_reader *r) {
  return wire__unzz32(wire_read_varuint32(r));
}
uint64_t wire_read_varuint64(wire_reader *r) {
  const uint8_t *s;
  uint64_t v = 0;
  if (!rgo(r, &s)) return 0;
  if (!rend(r, s, wire__get_varu64(&r->in, &v))) return 0;
  return v;
}
int64_t wire_read_varint64(wire_reader *r) {
  return wire__unzz64(wire_read_varuint64(r));
}
int64_t wire_read_tagged_int64(wire_reader *r) {
  const uint8_t *s;
  int64_t v = 0;
  if (!rgo(r, &s)) return 0;
  if (!rend(r, s, wire__get_tagged_i64(&r->in, &v))) return 0;
  return v;
}
uint64_t wire_read_tagged_uint64(wire_reader *r) {
  const uint8_t *s;
  uint64_t v = 0;
  if (!rgo(r, &s)) return 0;
  if (!rend(r, s, wire__get_tagged_u64(&r->in, &v))) return 0;
  return v;
}
int32_t wire_read_bytes(wire_reader *r, size_t n, const uint8_t **out) {
  const uint8_t *s;
  if (!out) return WIRE_E_ARG;
  *out = NULL;
  if (!rgo(r, &s)) return r ? r->status : WIRE_E_ARG;
  rend(r, s, wire__get_bytes(&r->in, n, out));
  return r->status;
}
int32_t wire_read_binary(wire_reader *r, const uint8_t **out, size_t *len) {
  if (!out || !len) return WIRE_E_ARG;
  *out = NULL;
  *len = 0;
  const uint8_t *s = r ? r->in.p : NULL;
  uint32_t n = wire_read_varuint32(r);
  if (!r || r->status) return r ? r->status : WIRE_E_ARG;
  if (n > r->in.ctx->max_binary) {
    rfail(r, s, WIRE_E_LIMIT, "binary longer than the limit");
    return r->status;
  }
  if (!rend(r, s, wire__get_bytes(&r->in, n, out))) return r->status;
  *len = n;
  return WIRE_OK;
}
int32_t wire_read_string(wire_reader *r, int32_t *enc, const uint8_t **out,
                         size_t *len) {
  if (!out || !len || !enc) return WIRE_E_ARG;
  *out = NULL;
  *len = 0;
  *enc = -1;
  const uint8_t *s;
  uint64_t h;
  if (!rgo(r, &s)) return r ? r->status : WIRE_E_ARG;
  if (!rend(r, s, wire__get_varu36(&r->in, &h))) return r->status;
  int e = (int)(h & 3);
  uint64_t n = h >> 2;
  if (e == 3) {
    rfail(r, s, WIRE_E_STRING, "reserved string encoding 3");
    return r->status;
  }
  if (e == WIRE_STR_UTF16 && (n & 1)) {
    rfail(r, s, WIRE_E_STRING, "UTF-16 string of odd length");
    return r->status;
  }
  if (n > r->in.ctx->max_binary) {
    rfail(r, s, WIRE_E_LIMIT, "string longer than the limit");
    return r->status;
  }
  const uint8_t *p;
  if (!rend(r, s, wire__get_bytes(&r->in, n, &p))) return r->status;
  if ((e == WIRE_STR_UTF8 && wire__utf8_check(p, n) != n) ||
      (e == WIRE_STR_UTF16 && wire__utf16_check(p, n) != n)) {
    rfail(r, s, WIRE_E_STRING, "invalid text");
    return r->status;
  }
  *enc = e;
  *out = p;
  *len = (size_t)n;
  return WIRE_OK;
}
int32_t wire_read_ref_flag(wire_reader *r) {
  const uint8_t *s = r ? r->in.p : NULL;
  int8_t f = wire_read_i8(r);
  if (r && !r->status && (f < -3 || f > 0)) {
    rfail(r, s, WIRE_E_REF, "invalid reference flag");
    return 0;
  }
  return f;
}
uint32_t wire_read_type_id(wire_reader *r) {
  const uint8_t *s = r ? r->in.p : NULL;
  uint8_t t = wire_read_u8(r);
  if (r && !r->status && t > WIRE_T_FLOAT64_ARRAY) {
    rfail(r, s, WIRE_E_TYPE, "undefined type id");
    return 0;
  }
  return t;
}
