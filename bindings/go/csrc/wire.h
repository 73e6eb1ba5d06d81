/*
 * wire.h - libwire, a C reference implementation of the Apache Fory xlang
 * binary serialization format.
 *
 * This is the only public header. Every function below is an exported symbol
 * (nothing is macro- or inline-only), takes and returns only fixed-width
 * integers, doubles, pointers and size_t, and never passes a struct by value,
 * so libffi users (ctypes, cffi, Java FFM, cgo) can call all of it.
 *
 * Conventions
 *  - Functions that can fail return an int32_t status: WIRE_OK (0) or one of
 *    the WIRE_E_* codes below. Their numbers are pinned and never reused.
 *  - A wire_ctx holds options, limits, the allocator and the last error
 *    (code, byte offset, message). A context is not thread-safe; use one per
 *    thread. Objects created from a context must not outlive it.
 *  - Memory returned by the library is released by a library function named
 *    in the comment of the function that returned it.
 */
#ifndef WIRE_H
#define WIRE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  define WIRE_API __declspec(dllexport)
#elif defined(__GNUC__)
#  define WIRE_API __attribute__((visibility("default")))
#else
#  define WIRE_API
#endif

/* ===================================================================== */
/* Section - Version                                                      */
/* ===================================================================== */

#define WIRE_VERSION_MAJOR 0
#define WIRE_VERSION_MINOR 1
#define WIRE_VERSION_PATCH 0

/* MAJOR*10000 + MINOR*100 + PATCH of the library actually loaded. */
WIRE_API uint32_t wire_version_number(void);
/* "MAJOR.MINOR.PATCH"; static storage. */
WIRE_API const char *wire_version_string(void);

/* ===================================================================== */
/* Section - Status codes                                                 */
/* ===================================================================== */

/* Pinned numbers: never renumbered, never reused. The name of each code is
 * also its error class in spec/ and in the conformance fixtures. */
enum {
  WIRE_OK = 0,
  WIRE_E_TRUNCATED = 1,        /* input ends inside a value */
  WIRE_E_VARINT = 2,           /* varint too long, overlong or out of range */
  WIRE_E_HEADER = 3,           /* bad payload header bitmap */
  WIRE_E_REF = 4,              /* bad reference flag or reference id */
  WIRE_E_TYPE = 5,             /* unknown, reserved or unexpected type id */
  WIRE_E_STRING = 6,           /* bad string header or text */
  WIRE_E_LENGTH = 7,           /* a length or count that cannot fit */
  WIRE_E_DEPTH = 8,            /* nesting deeper than the depth limit */
  WIRE_E_LIMIT = 9,            /* a configured size limit was exceeded */
  WIRE_E_NOMEM = 10,           /* the allocator failed */
  WIRE_E_ARG = 11,             /* invalid argument from the caller */
  WIRE_E_META_STRING = 12,     /* bad meta string */
  WIRE_E_DECIMAL = 13,         /* bad decimal */
  WIRE_E_VALUE = 14,           /* a value outside its domain (bool 2, nanos) */
  WIRE_E_UNSUPPORTED = 15,     /* valid format feature libwire does not do */
  WIRE_E_COLLECTION = 16,      /* bad list/set element header or map chunk */
  WIRE_E_NOTATION = 17,        /* value notation cannot be written as asked */
  WIRE_E_BUFFER_FULL = 18,     /* caller-owned output buffer is too small */
  WIRE_E_STATE = 19,           /* call not valid in the object's state */
  WIRE_E_TRAILING = 20,        /* bytes left after the expected values */
  WIRE_E_TYPEDEF = 21,         /* a TypeDef is malformed or over a limit */
  WIRE_E_SCHEMA = 22,          /* payload and schema disagree (unknown
                                  type, schema hash mismatch) */
  WIRE_E_IDL = 23,             /* a Fory IDL (FDL) schema does not parse */
  WIRE_E_ENCODE = 24           /* a value cannot be encoded as given (a null
                                  in a slot without a null flag, a recorded
                                  header that does not fit the value) */
};
#define WIRE_STATUS_COUNT 25

/* Short snake_case name of a status ("truncated"); "unknown" if out of range.
 * Static storage. */
WIRE_API const char *wire_status_name(int32_t status);
/* One-sentence description of a status. Static storage. */
WIRE_API const char *wire_status_message(int32_t status);

/* ===================================================================== */
/* Section - Type ids                                                     */
/* ===================================================================== */

/* Internal type ids of the xlang format (one byte on the wire). */
enum {
  WIRE_T_UNKNOWN = 0, WIRE_T_BOOL = 1, WIRE_T_INT8 = 2, WIRE_T_INT16 = 3,
  WIRE_T_INT32 = 4, WIRE_T_VARINT32 = 5, WIRE_T_INT64 = 6,
  WIRE_T_VARINT64 = 7, WIRE_T_TAGGED_INT64 = 8, WIRE_T_UINT8 = 9,
  WIRE_T_UINT16 = 10, WIRE_T_UINT32 = 11, WIRE_T_VAR_UINT32 = 12,
  WIRE_T_UINT64 = 13, WIRE_T_VAR_UINT64 = 14, WIRE_T_TAGGED_UINT64 = 15,
  WIRE_T_FLOAT8 = 16, WIRE_T_FLOAT16 = 17, WIRE_T_BFLOAT16 = 18,
  WIRE_T_FLOAT32 = 19, WIRE_T_FLOAT64 = 20, WIRE_T_STRING = 21,
  WIRE_T_LIST = 22, WIRE_T_SET = 23, WIRE_T_MAP = 24, WIRE_T_ENUM = 25,
  WIRE_T_NAMED_ENUM = 26, WIRE_T_STRUCT = 27, WIRE_T_COMPATIBLE_STRUCT = 28,
  WIRE_T_NAMED_STRUCT = 29, WIRE_T_NAMED_COMPATIBLE_STRUCT = 30,
  WIRE_T_EXT = 31, WIRE_T_NAMED_EXT = 32, WIRE_T_UNION = 33,
  WIRE_T_TYPED_UNION = 34, WIRE_T_NAMED_UNION = 35, WIRE_T_NONE = 36,
  WIRE_T_DURATION = 37, WIRE_T_TIMESTAMP = 38, WIRE_T_DATE = 39,
  WIRE_T_DECIMAL = 40, WIRE_T_BINARY = 41, WIRE_T_ARRAY = 42,
  WIRE_T_BOOL_ARRAY = 43, WIRE_T_INT8_ARRAY = 44, WIRE_T_INT16_ARRAY = 45,
  WIRE_T_INT32_ARRAY = 46, WIRE_T_INT64_ARRAY = 47, WIRE_T_UINT8_ARRAY = 48,
  WIRE_T_UINT16_ARRAY = 49, WIRE_T_UINT32_ARRAY = 50,
  WIRE_T_UINT64_ARRAY = 51, WIRE_T_FLOAT8_ARRAY = 52,
  WIRE_T_FLOAT16_ARRAY = 53, WIRE_T_BFLOAT16_ARRAY = 54,
  WIRE_T_FLOAT32_ARRAY = 55, WIRE_T_FLOAT64_ARRAY = 56,
  /* Not a wire id: the node kind of a null value in the document. */
  WIRE_T_NULL = 255
};

/* Lower-case spec name of a type id ("var_uint32", "float16_array");
 * "null" for WIRE_T_NULL; NULL if the id is undefined. Static storage. */
WIRE_API const char *wire_type_name(uint32_t type_id);
/* Inverse of wire_type_name; returns -1 if the name is unknown. */
WIRE_API int32_t wire_type_from_name(const char *name, size_t len);
/* Element width in bytes of a dense array type id, else 0. */
WIRE_API uint32_t wire_type_array_width(uint32_t type_id);

/* ===================================================================== */
/* Section - Context                                                      */
/* ===================================================================== */

typedef struct wire_ctx wire_ctx;

/* Allocator callbacks. realloc_fn gets the old size so arenas can be
 * implemented on top of it; free_fn gets the size too. */
typedef void *(*wire_malloc_fn)(void *user, size_t size);
typedef void *(*wire_realloc_fn)(void *user, void *ptr, size_t old_size,
                                 size_t new_size);
typedef void (*wire_free_fn)(void *user, void *ptr, size_t size);

/* A context using malloc/realloc/free. NULL if out of memory. Free it with
 * wire_ctx_free. */
WIRE_API wire_ctx *wire_ctx_new(void);
/* A context whose every allocation (its own included) goes through the given
 * callbacks. All three callbacks are required. NULL if out of memory; free
 * it with wire_ctx_free, which releases everything through free_fn. */
WIRE_API wire_ctx *wire_ctx_new_with_allocator(wire_malloc_fn malloc_fn,
                                               wire_realloc_fn realloc_fn,
                                               wire_free_fn free_fn,
                                               void *user);
/* Frees the context. Documents, writers and readers made from it must have
 * been freed before. NULL is ignored. */
WIRE_API void wire_ctx_free(wire_ctx *ctx);

/* Options (value 0 or 1 unless said otherwise; all default to 0). */
enum {
  WIRE_OPT_REF_TRACKING = 1, /* fresh values: write reference flags as a
                                ref-tracking runtime does */
  WIRE_OPT_COMPATIBLE = 2,   /* compatible (schema evolution) mode */
  WIRE_OPT_STRING_POLICY = 3,/* a WIRE_STRING_* value: the wire encoding of
                                strings handed in with an encoding (tape
                                strings with encoding 0..2, spec/tape.md;
                                compiled codecs' strings) */
  WIRE_OPT_TRUSTED_TEXT = 4, /* 1: text handed in is valid in its encoding
                                and is not checked again; invalid text then
                                gives invalid output (never a crash).
                                Decoding always checks */
  WIRE_OPT_PEER = 5,         /* a WIRE_PEER_* value: the runtime whose
                                choices are read and written where the
                                runtimes' same-schema bytes differ (schema
                                hash, type meta of named struct fields;
                                spec R-PEER-1..4) */
  WIRE_OPT_PROJECT_STRICT = 6, /* 1: wire_struct_project fails (WIRE_E_SCHEMA)
                                on a writer's field the reader's type has
                                no field for, instead of dropping it */
  WIRE_OPT_OUT_OF_BAND = 7,  /* 1: roots written by wire_encode and the tape
                                encoders announce out-of-band buffers
                                (header 03) and their binaries and dense
                                arrays go out of band (section Out-of-band
                                buffers below) */
  WIRE_OPT_OOB_MIN_BYTES = 8 /* with WIRE_OPT_OUT_OF_BAND: bodies shorter
                                than this many bytes stay in band (0: every
                                body goes out of band) */
};
/* Peer runtimes (WIRE_OPT_PEER). */
enum {
  WIRE_PEER_NONE = 0,   /* libwire's own choices (the default) */
  WIRE_PEER_JAVA = 1,   /* Fory Java 1.6.0 */
  WIRE_PEER_PYFORY = 2, /* pyfory 1.7.7 */
  WIRE_PEER_GO = 3      /* Fory Go 1.6.1 */
};
/* String policies (WIRE_OPT_STRING_POLICY). */
enum {
  WIRE_STRING_AS_GIVEN = 0, /* in the encoding it is given in (default) */
  WIRE_STRING_JAVA = 1,     /* the Java runtime's choice (spec R-WSTR-1) */
  WIRE_STRING_UTF8 = 2      /* always UTF-8 (the Go and Rust runtimes) */
};
WIRE_API int32_t wire_ctx_set_option(wire_ctx *ctx, int32_t option,
                                     int64_t value);
WIRE_API int64_t wire_ctx_get_option(const wire_ctx *ctx, int32_t option);

/* Limits on what a decoder accepts. Defaults in parentheses. */
enum {
  WIRE_LIMIT_DEPTH = 1,        /* nesting depth of values (64; at most
                                  WIRE_DEPTH_MAX) */
  WIRE_LIMIT_BINARY = 2,       /* bytes of one string/binary/array (1 GiB) */
  WIRE_LIMIT_COLLECTION = 3,   /* elements of one list/set/map (16 Mi) */
  WIRE_LIMIT_NODES = 4,        /* nodes in one decoded document (64 Mi) */
  WIRE_LIMIT_DECIMAL_DIGITS = 5, /* magnitude bytes of a big decimal (10000) */
  WIRE_LIMIT_ROOTS = 6,        /* root values in one payload (1 Mi) */
  WIRE_LIMIT_TYPEDEF_BYTES = 7,/* body bytes of one TypeDef (4096) */
  WIRE_LIMIT_TYPEDEF_FIELDS = 8,/* fields of one TypeDef (512) */
  WIRE_LIMIT_TYPEDEF_CACHE = 9,/* distinct incoming TypeDefs a context keeps
                                  across messages (256; 0 = none). A full
                                  cache turns over: it keeps half of itself,
                                  the TypeDefs found most since the last
                                  turnover first (spec R-SEC-15); one it has
                                  no room for is read per message. */
  WIRE_LIMIT_MEM_DECODE = 10,  /* arena bytes one wire_mem_decode may take
                                  per input byte, beyond
                                  WIRE_MEM_DECODE_BASE (512): a compatible
                                  writer can send a struct as one byte that
                                  the reader's layout makes an image of
                                  hundreds. WIRE_E_LIMIT past it. */
  WIRE_LIMIT_TYPEDEF_CACHE_BYTES = 11 /* heap bytes those cached TypeDefs
                                  may take together (1 MiB; 0 = none): an
                                  entry is one allocation of at most 80
                                  bytes per byte of its TypeDef + 256 (spec
                                  R-LIMIT-1); one that does not fit is read
                                  per message, and a full cache turns over
                                  (as for WIRE_LIMIT_TYPEDEF_CACHE). A
                                  schema change or a new limit flushes the
                                  cache: its entries (and those a turnover
                                  drops) are freed once no document decoded
                                  before is alive, and count until then. */
};
/* The arena bytes every wire_mem_decode may take whatever its input's
 * length (1 MiB), beside WIRE_LIMIT_MEM_DECODE per input byte. */
#define WIRE_MEM_DECODE_BASE 1048576
/* The largest depth limit (WIRE_LIMIT_DEPTH accepts 1..WIRE_DEPTH_MAX).
 * Decoding, dumping and encoding recurse once per nesting level and use at
 * most WIRE_STACK_PER_LEVEL bytes of C stack per level plus
 * WIRE_STACK_BASE (optimized builds, x86-64; sanitizers need more): a
 * thread that decodes with depth limit D needs WIRE_STACK_BASE +
 * D * WIRE_STACK_PER_LEVEL bytes of stack, 1088 KiB at the largest limit
 * (the default of 64 needs 128 KiB). */
#define WIRE_DEPTH_MAX 1024
#define WIRE_STACK_PER_LEVEL 1024
#define WIRE_STACK_BASE 65536
WIRE_API int32_t wire_ctx_set_limit(wire_ctx *ctx, int32_t limit,
                                    uint64_t value);
WIRE_API uint64_t wire_ctx_get_limit(const wire_ctx *ctx, int32_t limit);

/* The last error recorded on this context by a failed call. */
WIRE_API int32_t wire_ctx_error_code(const wire_ctx *ctx);
/* Byte offset in the input (decode) or output (encode) where it happened. */
WIRE_API uint64_t wire_ctx_error_offset(const wire_ctx *ctx);
/* Detailed message, valid until the next call on the context. Never NULL. */
WIRE_API const char *wire_ctx_error_message(const wire_ctx *ctx);
WIRE_API void wire_ctx_clear_error(wire_ctx *ctx);

/* Frees memory the library returned through the context (wire_encode,
 * wire_string_to_utf8). NULL is ignored. */
WIRE_API void wire_ctx_free_bytes(wire_ctx *ctx, uint8_t *bytes);

/* ===================================================================== */
/* Section - Out-of-band buffers                                          */
/* ===================================================================== */

/* A payload whose root header is 03 may keep the bytes of binaries and
 * dense arrays outside the payload, in separate buffers numbered in the
 * order the values occur (spec/01-primitives.md 1.12.1, R-OOB-1..6: pyfory's
 * buffer_callback / buffers, Fory Java's BufferCallback / BufferObject).
 * Which bodies carry the in-band/out-of-band marker depends on the peer
 * (WIRE_OPT_PEER): binaries and dense arrays (Java, the default), binaries
 * only (pyfory), none (Fory Go). Documents record the band of each body
 * and the header of each root (wire_node_set_band, wire_doc_set_root_oob
 * in the Document section). */

/* The buffers the next decodes read out-of-band bodies from (wire_decode,
 * wire_decode_tape[_to], wire_mem_decode, wire_dump, wire_schema_infer):
 * count pointers and lengths. The two arrays are copied, the bytes are
 * not: they must stay valid as long as the decodes that read them, and as
 * long as a decoded document (its binary and array nodes point into them,
 * as into the payload). count 0 forgets them. Every decode starts again
 * at buffer 0; an out-of-band body with no buffer left fails with
 * WIRE_E_TRUNCATED at the marker's offset. */
WIRE_API int32_t wire_ctx_set_oob_buffers(wire_ctx *ctx,
                                          const uint8_t *const *data,
                                          const size_t *lens, size_t count);
/* Buffers the last decode on ctx read (a caller that gave more can treat
 * the rest as trailing data: `wire decode` does). */
WIRE_API size_t wire_ctx_oob_used(const wire_ctx *ctx);
/* Out-of-band buffers the last encode wrote (wire_encode,
 * wire_encode_tape[_to]), in order; 0 after a failed encode. */
WIRE_API size_t wire_ctx_oob_count(const wire_ctx *ctx);
/* Buffer `index` of the last encode: *out points into the encoded value
 * (a document's node, a tape), valid as long as that value and until the
 * next encode on ctx. WIRE_E_ARG past the last one. */
WIRE_API int32_t wire_ctx_oob_buffer(const wire_ctx *ctx, size_t index,
                                     const uint8_t **out, size_t *out_len);

/* ===================================================================== */
/* Section - Primitives                                                   */
/* ===================================================================== */

/* MurmurHash3 x64 128-bit; writes the two 64-bit lanes. */
WIRE_API void wire_murmur3_x64_128(const uint8_t *data, size_t len,
                                   uint64_t seed, uint64_t *out_lane0,
                                   uint64_t *out_lane1);

/* float16 (IEEE binary16) and bfloat16 conversions. From float/double the
 * rounding is round-to-nearest-even; to float/double the conversion is
 * exact. A NaN keeps its sign, its quiet bit and its payload, which sits in
 * the top bits of the wider type's (narrowing keeps as many as fit; the
 * quiet NaN of its sign if none of those is set), so every 16-bit pattern
 * converts to double or float and back to itself (spec/tape.md, FLOAT16
 * and BFLOAT16 NaNs). */
WIRE_API uint16_t wire_float16_from_double(double value);
WIRE_API double wire_float16_to_double(uint16_t bits);
WIRE_API uint16_t wire_float16_from_float(float value);
WIRE_API float wire_float16_to_float(uint16_t bits);
WIRE_API uint16_t wire_bfloat16_from_float(float value);
WIRE_API float wire_bfloat16_to_float(uint16_t bits);
WIRE_API uint16_t wire_bfloat16_from_double(double value);

/* String encodings on the wire. */
enum { WIRE_STR_LATIN1 = 0, WIRE_STR_UTF16 = 1, WIRE_STR_UTF8 = 2 };

/* Checks UTF-8 text (no overlongs, no surrogates, <= U+10FFFF). */
WIRE_API int32_t wire_utf8_validate(const uint8_t *text, size_t len);
/* The encoding the Fory Java runtime picks for this text (valid UTF-8). */
WIRE_API int32_t wire_string_choose_encoding(const uint8_t *utf8, size_t len);
/* Converts wire string bytes in `encoding` to newly allocated UTF-8 (NUL
 * terminated, *out_len excludes the NUL). Free with wire_ctx_free_bytes. */
WIRE_API int32_t wire_string_to_utf8(wire_ctx *ctx, int32_t encoding,
                                     const uint8_t *bytes, size_t len,
                                     uint8_t **out, size_t *out_len);

/* Meta string encodings (ids as on the wire). */
enum {
  WIRE_MS_UTF8 = 0, WIRE_MS_LOWER_SPECIAL = 1,
  WIRE_MS_LOWER_UPPER_DIGIT_SPECIAL = 2, WIRE_MS_FIRST_TO_LOWER_SPECIAL = 3,
  WIRE_MS_ALL_TO_LOWER_SPECIAL = 4
};
/* Meta string contexts: which special characters and encodings apply. */
enum { WIRE_MSCTX_NAMESPACE = 0, WIRE_MSCTX_TYPE_NAME = 1,
       WIRE_MSCTX_FIELD_NAME = 2 };
/* Lower-case name of a meta string encoding, NULL if unknown. Static
 * storage. */
WIRE_API const char *wire_meta_encoding_name(int32_t encoding);
/* The encoding the runtimes select for `text` in meta string context
 * `msctx`; -1 if the text cannot be a meta string. */
WIRE_API int32_t wire_meta_choose_encoding(int32_t msctx, const uint8_t *text,
                                           size_t len);
/* Encodes text with the given encoding into out (capacity cap); *out_len
 * gets the byte length (also when WIRE_E_BUFFER_FULL is returned). */
WIRE_API int32_t wire_meta_encode(int32_t msctx, int32_t encoding,
                                  const uint8_t *text, size_t len,
                                  uint8_t *out, size_t cap, size_t *out_len);
/* Decodes meta string bytes into text (capacity cap, no NUL added). */
WIRE_API int32_t wire_meta_decode(int32_t msctx, int32_t encoding,
                                  const uint8_t *bytes, size_t len,
                                  uint8_t *out, size_t cap, size_t *out_len);

/* ===================================================================== */
/* Section - Streaming writer                                             */
/* ===================================================================== */

/* A writer appends xlang primitives to an output buffer. Errors are sticky:
 * after the first failure every call is a no-op and wire_writer_status
 * reports it, so generated code can write straight-line and check once. */
typedef struct wire_writer wire_writer;

/* buf == NULL: the writer owns a growable buffer (allocated through ctx).
 * Otherwise it writes into the caller's buf[0..cap) and fails with
 * WIRE_E_BUFFER_FULL when it would overflow; wire_writer_size then tells how
 * many bytes were needed so far. Free with wire_writer_free. */
WIRE_API wire_writer *wire_writer_new(wire_ctx *ctx, uint8_t *buf,
                                      size_t cap);
WIRE_API void wire_writer_free(wire_writer *w);
/* Forgets the content and the error; keeps the buffer. */
WIRE_API void wire_writer_reset(wire_writer *w);
WIRE_API int32_t wire_writer_status(const wire_writer *w);
/* Bytes written (or needed, after WIRE_E_BUFFER_FULL). */
WIRE_API size_t wire_writer_size(const wire_writer *w);
/* The written bytes; owned by the writer (or the caller's buffer). */
WIRE_API const uint8_t *wire_writer_data(const wire_writer *w);

WIRE_API void wire_write_header(wire_writer *w);  /* 0x01: xlang, no OOB */
WIRE_API void wire_write_u8(wire_writer *w, uint8_t v);
WIRE_API void wire_write_bool(wire_writer *w, int32_t v);
WIRE_API void wire_write_i8(wire_writer *w, int8_t v);
WIRE_API void wire_write_i16(wire_writer *w, int16_t v);
WIRE_API void wire_write_i32(wire_writer *w, int32_t v);
WIRE_API void wire_write_i64(wire_writer *w, int64_t v);
WIRE_API void wire_write_u16(wire_writer *w, uint16_t v);
WIRE_API void wire_write_u32(wire_writer *w, uint32_t v);
WIRE_API void wire_write_u64(wire_writer *w, uint64_t v);
WIRE_API void wire_write_varint32(wire_writer *w, int32_t v);
WIRE_API void wire_write_varuint32(wire_writer *w, uint32_t v);
WIRE_API void wire_write_varint64(wire_writer *w, int64_t v);
WIRE_API void wire_write_varuint64(wire_writer *w, uint64_t v);
WIRE_API void wire_write_tagged_int64(wire_writer *w, int64_t v);
WIRE_API void wire_write_tagged_uint64(wire_writer *w, uint64_t v);
WIRE_API void wire_write_float32(wire_writer *w, float v);
WIRE_API void wire_write_float64(wire_writer *w, double v);
WIRE_API void wire_write_bits16(wire_writer *w, uint16_t bits); /* f16/bf16 */
WIRE_API void wire_write_bytes(wire_writer *w, const uint8_t *p, size_t n);
/* varuint32 length + bytes (binary and dense array payloads). */
WIRE_API void wire_write_binary(wire_writer *w, const uint8_t *p, size_t n);
/* A string from UTF-8 text, in the Java runtime's encoding choice. */
WIRE_API void wire_write_string(wire_writer *w, const uint8_t *utf8,
                                size_t len);
/* A string with an explicit encoding; bytes are already in that encoding. */
WIRE_API void wire_write_string_raw(wire_writer *w, int32_t encoding,
                                    const uint8_t *bytes, size_t len);
WIRE_API void wire_write_ref_flag(wire_writer *w, int32_t flag); /* -3..0 */
WIRE_API void wire_write_type_id(wire_writer *w, uint32_t type_id);

/* ===================================================================== */
/* Section - Streaming reader                                             */
/* ===================================================================== */

/* A reader over caller-owned bytes (which must outlive it). Sticky errors
 * as for the writer: after a failure reads return 0 and do not advance. */
typedef struct wire_reader wire_reader;

/* NULL if out of memory; free with wire_reader_free. */
WIRE_API wire_reader *wire_reader_new(wire_ctx *ctx, const uint8_t *data,
                                      size_t len);
WIRE_API void wire_reader_free(wire_reader *r);
WIRE_API int32_t wire_reader_status(const wire_reader *r);
/* Current position (on error: where the failing read started). */
WIRE_API size_t wire_reader_offset(const wire_reader *r);
WIRE_API size_t wire_reader_remaining(const wire_reader *r);

WIRE_API int32_t wire_read_header(wire_reader *r); /* checks the bitmap */
WIRE_API uint8_t wire_read_u8(wire_reader *r);
WIRE_API int32_t wire_read_bool(wire_reader *r);
WIRE_API int8_t wire_read_i8(wire_reader *r);
WIRE_API int16_t wire_read_i16(wire_reader *r);
WIRE_API int32_t wire_read_i32(wire_reader *r);
WIRE_API int64_t wire_read_i64(wire_reader *r);
WIRE_API uint16_t wire_read_u16(wire_reader *r);
WIRE_API uint32_t wire_read_u32(wire_reader *r);
WIRE_API uint64_t wire_read_u64(wire_reader *r);
WIRE_API int32_t wire_read_varint32(wire_reader *r);
WIRE_API uint32_t wire_read_varuint32(wire_reader *r);
WIRE_API int64_t wire_read_varint64(wire_reader *r);
WIRE_API uint64_t wire_read_varuint64(wire_reader *r);
WIRE_API int64_t wire_read_tagged_int64(wire_reader *r);
WIRE_API uint64_t wire_read_tagged_uint64(wire_reader *r);
WIRE_API float wire_read_float32(wire_reader *r);
WIRE_API double wire_read_float64(wire_reader *r);
WIRE_API uint16_t wire_read_bits16(wire_reader *r);
/* Zero-copy: *out points into the input. */
WIRE_API int32_t wire_read_bytes(wire_reader *r, size_t n,
                                 const uint8_t **out);
/* varuint32 length + bytes, zero-copy. */
WIRE_API int32_t wire_read_binary(wire_reader *r, const uint8_t **out,
                                  size_t *out_len);
/* A string header + bytes, zero-copy; the text is validated. */
WIRE_API int32_t wire_read_string(wire_reader *r, int32_t *out_encoding,
                                  const uint8_t **out, size_t *out_len);
WIRE_API int32_t wire_read_ref_flag(wire_reader *r); /* -3..0 */
WIRE_API uint32_t wire_read_type_id(wire_reader *r);

/* ===================================================================== */
/* Section - Document                                                     */
/* ===================================================================== */

/* A document is an arena holding a graph of nodes: the root values of one
 * payload. Nodes may be shared and may form cycles. All nodes and their
 * bytes belong to the document and die with wire_doc_free. A decoded
 * document's string and binary nodes point into the input bytes
 * (zero-copy), which must outlive the document, and its null values are
 * one node (a null records no wire choice; it is never a reference).
 * Lazy structs (spec R-SEC-13): once a decoded document's heap passes
 * 32 KiB and 24 x the input read so far, the structs read from then on are
 * validated in full by wire_decode (every error is reported there, with
 * the offset it has otherwise) but their fields are decoded again from
 * the input, under the options of the decode, the first time any function
 * reads or changes them: so the input must outlive the document, reading a
 * decoded document may allocate (out of memory there: NULL or
 * WIRE_E_NOMEM, the error on the document's context, the struct still
 * lazy), and a decoded document must not be read from two threads at
 * once. Values, node indexes and re-encoded bytes are those of eager
 * decoding. */
typedef struct wire_doc wire_doc;
typedef struct wire_node wire_node;

/* Ownership: every node of this section, and every pointer an accessor
 * returns (bytes, names, TypeDefs), belongs to the document and is valid
 * until wire_doc_free; the bytes of decoded strings and binaries point into
 * the input, which must outlive the document. */

/* NULL if out of memory; free with wire_doc_free. */
WIRE_API wire_doc *wire_doc_new(wire_ctx *ctx);
WIRE_API void wire_doc_free(wire_doc *doc);

WIRE_API size_t wire_doc_root_count(const wire_doc *doc);
WIRE_API wire_node *wire_doc_root(const wire_doc *doc, size_t index);
WIRE_API int32_t wire_doc_add_root(wire_doc *doc, wire_node *node);

/* Builders. Each returns a node owned by the document, or NULL (the error
 * is on the context). Byte and text arguments are copied. */
WIRE_API wire_node *wire_node_new_null(wire_doc *doc);
WIRE_API wire_node *wire_node_new_none(wire_doc *doc);
WIRE_API wire_node *wire_node_new_bool(wire_doc *doc, int32_t v);
/* type_id: any signed integer type (INT8..TAGGED_INT64); range-checked. */
WIRE_API wire_node *wire_node_new_int(wire_doc *doc, uint32_t type_id,
                                      int64_t v);
/* type_id: any unsigned integer type (UINT8..TAGGED_UINT64). */
WIRE_API wire_node *wire_node_new_uint(wire_doc *doc, uint32_t type_id,
                                       uint64_t v);
/* type_id FLOAT16/BFLOAT16/FLOAT32/FLOAT64 with the raw IEEE bits. */
WIRE_API wire_node *wire_node_new_float_bits(wire_doc *doc, uint32_t type_id,
                                             uint64_t bits);
/* type_id FLOAT16/BFLOAT16/FLOAT32/FLOAT64, rounded to nearest even; a
 * NaN keeps its sign, its quiet bit and the top payload bits that fit the
 * type (10, 7 or 23; the quiet NaN if those are all zero: spec/tape.md,
 * FLOAT32 NaNs, FLOAT16 and BFLOAT16 NaNs). */
WIRE_API wire_node *wire_node_new_float(wire_doc *doc, uint32_t type_id,
                                        double v);
/* UTF-8 text (validated); encoding -1 = the Java runtime's choice. */
WIRE_API wire_node *wire_node_new_string(wire_doc *doc, const uint8_t *utf8,
                                         size_t len, int32_t encoding);
WIRE_API wire_node *wire_node_new_binary(wire_doc *doc, const uint8_t *bytes,
                                         size_t len);
/* A dense array from raw little-endian element bytes (len = bytes). */
WIRE_API wire_node *wire_node_new_array(wire_doc *doc, uint32_t type_id,
                                        const uint8_t *bytes, size_t len);
WIRE_API wire_node *wire_node_new_date(wire_doc *doc, int64_t days);
WIRE_API wire_node *wire_node_new_timestamp(wire_doc *doc, int64_t seconds,
                                            uint32_t nanos);
WIRE_API wire_node *wire_node_new_duration(wire_doc *doc, int64_t seconds,
                                           uint32_t nanos);
/* unscaled = sign * magnitude, magnitude as little-endian bytes. */
WIRE_API wire_node *wire_node_new_decimal(wire_doc *doc, int32_t negative,
                                          const uint8_t *magnitude_le,
                                          size_t len, int32_t scale);
WIRE_API wire_node *wire_node_new_enum(wire_doc *doc, uint32_t user_type_id,
                                       uint32_t value);
WIRE_API wire_node *wire_node_new_named_enum(wire_doc *doc,
                                             const uint8_t *ns, size_t ns_len,
                                             const uint8_t *name,
                                             size_t name_len, uint32_t value);
/* type_id LIST or SET; elements are appended. */
WIRE_API wire_node *wire_node_new_list(wire_doc *doc, uint32_t type_id);
WIRE_API int32_t wire_list_append(wire_doc *doc, wire_node *list,
                                  wire_node *element);
WIRE_API wire_node *wire_node_new_map(wire_doc *doc);
WIRE_API int32_t wire_map_put(wire_doc *doc, wire_node *map, wire_node *key,
                              wire_node *value);

/* A struct of registered type `type`, fields unset (unset nullable fields
 * are written as null; others must be set). Its kind (same-schema or
 * compatible) follows the context's WIRE_OPT_COMPATIBLE at this call. An
 * ext type whose custom body the schema describes as fields works the same
 * way (its node kind is EXT or NAMED_EXT). */
WIRE_API wire_node *wire_node_new_struct(wire_doc *doc, uint32_t type);
/* Sets a field by wire name (snake_case), declared name, or "#<tag id>". */
WIRE_API int32_t wire_struct_set_field(wire_doc *doc, wire_node *node,
                                       const char *name, size_t len,
                                       wire_node *value);
/* A struct whose layout (type and fields in wire order) comes from TypeDef
 * bytes, as wire_node_typedef returns them; the bytes are copied. */
WIRE_API wire_node *wire_node_new_struct_typedef(wire_doc *doc,
                                                 const uint8_t *typedef_bytes,
                                                 size_t len);
/* A struct with the same type and layout as `other` (same TypeDef). */
WIRE_API wire_node *wire_node_new_struct_like(wire_doc *doc,
                                              const wire_node *other);
/* An enum value of registered enum `type` (by id or by name as registered).*/
WIRE_API wire_node *wire_node_new_enum_of(wire_doc *doc, uint32_t type,
                                          uint32_t value);
/* A union value: type = a registered union, or WIRE_BY_NAME for an untyped
 * UNION (33) whose schema the reader knows from context. */
WIRE_API wire_node *wire_node_new_union(wire_doc *doc, uint32_t type,
                                        uint32_t case_id, wire_node *value);

/* Wire choices (for lossless re-encoding; optional for fresh values). */
/* Marks the node as written with reference tracking (REF_VALUE flag). */
WIRE_API int32_t wire_node_set_tracked(wire_node *node, int32_t tracked);
WIRE_API int32_t wire_node_tracked(const wire_node *node);
/* List/set element header byte (0..15), -1 = writer policy. */
WIRE_API int32_t wire_list_set_header(wire_node *list, int32_t header);
WIRE_API int32_t wire_list_header(const wire_node *list);
/* Appends a map chunk (header byte, entry count); the chunk counts must sum
 * to the entry count when encoding. wire_map_clear_chunks = writer policy. */
WIRE_API int32_t wire_map_add_chunk(wire_doc *doc, wire_node *map,
                                    uint32_t header, uint32_t count);
WIRE_API int32_t wire_map_clear_chunks(wire_node *map);
WIRE_API size_t wire_map_chunk_count(const wire_node *map);
WIRE_API int32_t wire_map_chunk(const wire_node *map, size_t index,
                                uint32_t *out_header, uint32_t *out_count);
/* Meta string encodings of a named enum's namespace and name (-1 = policy).*/
WIRE_API int32_t wire_node_set_name_encodings(wire_node *node,
                                              int32_t ns_encoding,
                                              int32_t name_encoding);
WIRE_API int32_t wire_node_name_encodings(const wire_node *node,
                                          int32_t *out_ns_encoding,
                                          int32_t *out_name_encoding);
/* Bands of a binary or dense array body in a root with header 03. */
enum {
  WIRE_BAND_POLICY = -1, /* not recorded: WIRE_OPT_OOB_MIN_BYTES decides */
  WIRE_BAND_IN = 0,      /* marker 01, length and bytes in the payload */
  WIRE_BAND_OUT = 1      /* marker 00, the bytes in the next buffer */
};
/* Records the band of a binary or dense array node (WIRE_E_ARG for other
 * kinds); decoded nodes carry the band they were read with. The band
 * matters only in a root that announces out-of-band buffers. */
WIRE_API int32_t wire_node_set_band(wire_node *node, int32_t band);
WIRE_API int32_t wire_node_band(const wire_node *node);
/* Whether root `index` of the document is written with header 03: 1 yes
 * (recorded, as decoded), 0 as WIRE_OPT_OUT_OF_BAND says; -1 if there is
 * no such root. */
WIRE_API int32_t wire_doc_set_root_oob(wire_doc *doc, size_t index,
                                       int32_t oob);
WIRE_API int32_t wire_doc_root_oob(const wire_doc *doc, size_t index);

/* Accessors. Each one checks the node kind: on a node of another kind (or
 * NULL) it returns 0, NULL or -1 as its comment says, never another
 * field's bits. */
/* Node kind: a WIRE_T_* type id, or WIRE_T_NULL. */
WIRE_API uint32_t wire_node_type(const wire_node *node);
WIRE_API int64_t wire_node_int(const wire_node *node);    /* signed ints,
                                                   bool, date, seconds */
WIRE_API uint64_t wire_node_uint(const wire_node *node);  /* unsigned ints */
WIRE_API uint64_t wire_node_float_bits(const wire_node *node);
/* Any float kind, widened exactly (a NaN bit for bit, signaling or quiet:
 * spec/tape.md, FLOAT32 NaNs, FLOAT16 and BFLOAT16 NaNs). */
WIRE_API double wire_node_float(const wire_node *node);
/* Nanoseconds of a timestamp/duration (0 for other kinds). */
WIRE_API uint32_t wire_node_nanos(const wire_node *node);
/* String: bytes in wire encoding; binary, arrays: payload bytes; decimal:
 * magnitude (little-endian); named enum: the type name. */
WIRE_API const uint8_t *wire_node_bytes(const wire_node *node,
                                        size_t *out_len);
/* Encoding of a string node (WIRE_STR_*). */
WIRE_API int32_t wire_node_string_encoding(const wire_node *node);
/* Text of a string node as UTF-8 into out (capacity cap); *out_len gets the
 * needed length. WIRE_E_BUFFER_FULL if it did not fit. */
WIRE_API int32_t wire_node_string_utf8(const wire_node *node, uint8_t *out,
                                       size_t cap, size_t *out_len);
/* Decimal: sign (1 negative) and scale. */
WIRE_API int32_t wire_node_decimal_negative(const wire_node *node);
WIRE_API int32_t wire_node_decimal_scale(const wire_node *node);
/* Enum: user type id; named enum: namespace bytes. */
WIRE_API uint32_t wire_node_enum_type_id(const wire_node *node);
WIRE_API const uint8_t *wire_node_enum_namespace(const wire_node *node,
                                                 size_t *out_len);
WIRE_API uint32_t wire_node_enum_value(const wire_node *node);
/* Elements of a list/set, entries of a map, elements of an array. */
WIRE_API size_t wire_node_count(const wire_node *node);
WIRE_API wire_node *wire_node_child(const wire_node *node, size_t index);
WIRE_API wire_node *wire_node_map_key(const wire_node *node, size_t index);
WIRE_API wire_node *wire_node_map_value(const wire_node *node, size_t index);
/* Struct fields in wire order (wire_node_count gives their number); NULL
 * for an unset field of a fresh struct. */
WIRE_API wire_node *wire_node_field(const wire_node *node, size_t index);
/* Sets struct field `index` (wire order, as wire_node_field reads it; for
 * a fresh struct of a registered type, wire_schema_field_index gives it):
 * no lookup by name. WIRE_E_ARG if index is out of range. */
WIRE_API int32_t wire_struct_set_field_at(wire_doc *doc, wire_node *node,
                                          size_t index, wire_node *value);
/* Create and set: the value of field `index` (as wire_struct_set_field_at
 * takes it) made and set in one call, as the node's builder and
 * wire_struct_set_field_at would. A failure leaves the field as it was.
 * wire_struct_set_value: type_id a signed integer type (bits = the value,
 * two's complement, range-checked as wire_node_new_int), an unsigned
 * integer type, FLOAT16..FLOAT64 (bits as wire_node_new_float_bits), BOOL
 * (0 false, else true), DATE (days) or ENUM (the value of the registered
 * enum the field declares; WIRE_E_SCHEMA if it declares none).
 * wire_struct_set_string: UTF-8 text as wire_node_new_string (copied).
 * wire_struct_set_bytes: BINARY or a dense array type, as
 * wire_node_new_array (copied). */
WIRE_API int32_t wire_struct_set_value(wire_doc *doc, wire_node *node,
                                       size_t index, uint32_t type_id,
                                       uint64_t bits);
WIRE_API int32_t wire_struct_set_string(wire_doc *doc, wire_node *node,
                                        size_t index, const uint8_t *utf8,
                                        size_t len, int32_t encoding);
WIRE_API int32_t wire_struct_set_bytes(wire_doc *doc, wire_node *node,
                                       size_t index, uint32_t type_id,
                                       const uint8_t *bytes, size_t len);
/* The index of a field of this struct node by wire name, declared name or
 * "#<tag>" (a decoded struct's fields are in its writer's order);
 * WIRE_E_SCHEMA if it has none. */
WIRE_API int32_t wire_struct_field_index(const wire_doc *doc,
                                         const wire_node *node,
                                         const char *name, size_t len,
                                         uint32_t *out_index);
/* Wire (snake_case) name of field `index`; NULL for a field known only by
 * its tag id. Owned by the document or the context. */
WIRE_API const char *wire_node_field_name(const wire_node *node, size_t index,
                                          size_t *out_len);
WIRE_API int32_t wire_node_field_tag(const wire_node *node, size_t index);
/* Registered type of a struct, ext, enum or union node in the schema of
 * the document's context; WIRE_E_SCHEMA if the schema does not have it. */
WIRE_API int32_t wire_node_user_type(const wire_doc *doc,
                                     const wire_node *node,
                                     uint32_t *out_type);
/* Namespace and name of a struct registered by name, a named enum or a
 * named union. */
WIRE_API int32_t wire_node_type_names(const wire_node *node,
                                      const uint8_t **ns, size_t *ns_len,
                                      const uint8_t **name, size_t *name_len);
/* Numeric user type id of a struct, enum or typed union; 0xFFFFFFFF if
 * registered by name or unknown. */
WIRE_API uint32_t wire_node_user_type_id(const wire_node *node);
/* Reads a struct across schema versions: a new struct of registered type
 * `type` (the reader's version) whose fields are taken from `node` (read
 * with the writer's TypeDef) by tag id or name; fields the reader lacks are
 * dropped, fields the writer lacks get defaults (null, zero, empty, the
 * first enumerator), and values are converted where the format allows
 * (integer encodings, float widening, list <-> dense array, binary <->
 * uint8 array). Other mismatches fail with WIRE_E_SCHEMA naming the field. */
WIRE_API int32_t wire_struct_project(wire_doc *doc, wire_node *node,
                                     uint32_t type, wire_node **out);
/* The TypeDef a struct was read with, when the schema would not write the
 * same bytes (an older or newer version of the type, or a type the schema
 * does not have); NULL otherwise. Owned by the document. */
WIRE_API const uint8_t *wire_node_typedef(const wire_node *node,
                                          size_t *out_len);
WIRE_API uint32_t wire_node_union_case(const wire_node *node);
WIRE_API wire_node *wire_node_union_value(const wire_node *node);

/* Creation order of the node within its document, 0..count-1: a dense key
 * for identity maps in bindings and printers. */
WIRE_API uint32_t wire_node_index(const wire_node *node);
WIRE_API size_t wire_doc_node_count(const wire_doc *doc);

/* ===================================================================== */
/* Section - Runtime quirks (not stable)                                  */
/* ===================================================================== */

/* Wire choices that exist only because one runtime writes them that way;
 * they let a decoded document re-encode byte for byte. Not part of the
 * stable ABI: they may change or go before 1.0 as the runtimes converge.
 * A decoded document shares one names record among the values of a type
 * whose names come from one place (the items of a same-type list, the
 * values of a declared named-enum field, named structs of one TypeDef):
 * setting these on one such node sets them for all that share it. */

/* Hash form of the namespace and name of a value of a type registered by
 * name (named enum, struct, union, ext) when longer than 16 bytes
 * on the wire: 0 = the Java runtime's (absolute value of the MurmurHash3
 * lane, the default), 1 = pyfory's (the lane as is). */
WIRE_API int32_t wire_node_set_name_hash_forms(wire_node *node,
                                               int32_t ns_form,
                                               int32_t name_form);
WIRE_API int32_t wire_node_name_hash_forms(const wire_node *node,
                                           int32_t *out_ns_form,
                                           int32_t *out_name_form);

/* How a decoded namespace / type name was written, as bit flags: 1 = as a
 * reference to an equal name announced in the other role (pyfory shares one
 * table for both; the Java runtime does not); 2 = announced again although
 * an equal name was announced before in the root (Fory Go). Only for nodes
 * that carry their names. */
WIRE_API int32_t wire_node_set_name_refs(wire_node *node, int32_t ns_xref,
                                         int32_t name_xref);
WIRE_API int32_t wire_node_name_refs(const wire_node *node,
                                     int32_t *out_ns_xref,
                                     int32_t *out_name_xref);

/* ===================================================================== */
/* Section - Schema: user types                                           */
/* ===================================================================== */

/* User types (structs, enums, unions, ext) live in the context's registry.
 * A type is named by its index (0, 1, ... in registration order). Types are
 * registered by numeric id, or by namespace + name with user_id
 * WIRE_BY_NAME. A registered struct must not gain fields after it has been
 * used to encode or decode. */
#define WIRE_BY_NAME 0xFFFFFFFFu
enum { WIRE_KIND_STRUCT = 1, WIRE_KIND_ENUM = 2, WIRE_KIND_UNION = 3,
       WIRE_KIND_EXT = 4 };
typedef struct wire_field_type wire_field_type;

/* kind: 1 struct, 2 enum, 3 union, 4 ext. evolving: a struct may be written
 * in the compatible layout (default 1; 0 keeps the same-schema layout even
 * in compatible mode). *out_type gets the type index. */
WIRE_API int32_t wire_schema_add_type(wire_ctx *ctx, int32_t kind,
                                    uint32_t user_id, const char *ns,
                                    size_t ns_len, const char *name,
                                    size_t name_len, int32_t evolving,
                                    uint32_t *out_type);
/* A field type node (owned by the context). type_id: a built-in WIRE_T_*;
 * LIST/SET/MAP take element, key and value types below. */
WIRE_API wire_field_type *wire_schema_field_type(wire_ctx *ctx, uint32_t type_id,
                                              int32_t nullable, int32_t ref);
/* A field type naming a registered user type (owned by the context). */
WIRE_API wire_field_type *wire_schema_field_user_type(wire_ctx *ctx, uint32_t type,
                                               int32_t nullable, int32_t ref);
WIRE_API int32_t wire_schema_field_type_set_element(wire_field_type *list,
                                             wire_field_type *element);
WIRE_API int32_t wire_schema_field_type_set_key_value(wire_field_type *map,
                                               wire_field_type *key,
                                               wire_field_type *value);
/* tag: the field's tag id, or -1 to identify it by name (snake_case). */
WIRE_API int32_t wire_schema_add_field(wire_ctx *ctx, uint32_t type,
                                       const char *name, size_t name_len,
                                       int32_t tag, wire_field_type *ft);
WIRE_API int32_t wire_schema_add_enum_value(wire_ctx *ctx, uint32_t type,
                                     const char *name, size_t name_len,
                                     uint32_t value);
WIRE_API int32_t wire_schema_add_union_case(wire_ctx *ctx, uint32_t type,
                                     uint32_t case_id, const char *name,
                                     size_t name_len, wire_field_type *ft);
/* Parses one Fory IDL (FDL) source and registers its types. `name` is used
 * in error messages ("name:line:col: ...", status WIRE_E_IDL) and imports
 * are resolved against its directory; NULL = "<input>". The text need not
 * be NUL-terminated. On error the registry is left as it was. */
WIRE_API int32_t wire_schema_load_fdl(wire_ctx *ctx, const char *text,
                                      size_t len, const char *name);
/* Reads an FDL file and the files it imports (relative to the importing
 * file; each loaded once; cycles are errors) and registers their types. */
WIRE_API int32_t wire_schema_load_fdl_file(wire_ctx *ctx, const char *path);
/* Warnings of the last wire_schema_load_fdl[_file] call: what the load
 * accepted but foryc reads differently, each "file:line:col: text" - today
 * `[nullable = false]` on a message or any field, which libwire honours and
 * foryc ignores, so foryc's code for the same file writes other bytes (spec
 * R-FDL-2, R-FDLX-6, R-FDLX-8). */
WIRE_API size_t wire_schema_warning_count(const wire_ctx *ctx);
/* Warning `index`, NUL-terminated; NULL past the last. Owned by the
 * context, valid until the next load or wire_ctx_free. */
WIRE_API const char *wire_schema_warning(const wire_ctx *ctx, size_t index);
/* Adds a directory where FDL imports are looked for when the imported file
 * is not next to the importing one (as foryc's -I; searched in the order
 * added). The text is copied. */
WIRE_API int32_t wire_schema_add_import_dir(wire_ctx *ctx, const char *dir);
/* Resolves names between types loaded from IDL; call after registering. */
WIRE_API int32_t wire_schema_finish(wire_ctx *ctx);
WIRE_API uint32_t wire_schema_type_count(const wire_ctx *ctx);
/* By full name "ns.name" or by a name that is unique without namespace. */
WIRE_API int32_t wire_schema_find_type(wire_ctx *ctx, const char *name, size_t len,
                                uint32_t *out_type);
/* "ns.name" (or "name"); owned by the context. */
WIRE_API const char *wire_schema_type_name(const wire_ctx *ctx, uint32_t type);
/* 1 struct, 2 enum, 3 union, 4 ext; -1 if no such type. */
WIRE_API int32_t wire_schema_type_kind(const wire_ctx *ctx, uint32_t type);
/* Number of fields of struct or ext `type`, 0 for other kinds or an
 * unknown type. The fields are numbered in wire order: the order payloads
 * and STRUCT_IDX tapes (spec/tape.md) carry them. */
WIRE_API uint32_t wire_schema_field_count(wire_ctx *ctx, uint32_t type);
/* Field `index` (wire order) of struct or ext `type`: its wire
 * (snake_case) name (NULL and 0 for a field known only by its tag), its tag
 * id (-1 if identified by name) and its declared type. The name and the
 * type are owned by the context. Any out pointer may be NULL. WIRE_E_ARG
 * for an unknown type or an index past the last field. */
WIRE_API int32_t wire_schema_field(wire_ctx *ctx, uint32_t type,
                                   uint32_t index, const char **out_name,
                                   size_t *out_name_len, int32_t *out_tag,
                                   const wire_field_type **out_ft);
/* Parts of a declared field type: its type id (a built-in WIRE_T_*;
 * WIRE_T_STRUCT, ENUM, UNION or EXT for a registered user type; UNKNOWN
 * for any value), nullable and ref (0/1), the user type index
 * (WIRE_BY_NAME if none), the element type (LIST, SET, dense arrays) and
 * the key and value types (MAP), NULL where there are none. Any out
 * pointer may be NULL. The types are owned by the context and valid as
 * long as it is. */
WIRE_API int32_t wire_schema_field_type_info(const wire_field_type *ft,
                                             uint32_t *out_type_id,
                                             int32_t *out_nullable,
                                             int32_t *out_ref,
                                             uint32_t *out_user,
                                             const wire_field_type **out_elem,
                                             const wire_field_type **out_key,
                                             const wire_field_type **out_value);
/* The values enum `type` declares (its enumerators' numbers, in
 * declaration order) into out_values[0..cap); *out_count gets how many it
 * declares (out_values may be NULL with cap 0 to ask for the count). For a
 * binding that checks the values it writes against the schema once, at
 * registration, instead of per value. WIRE_E_ARG when `type` is not an
 * enum of the schema, WIRE_E_BUFFER_FULL if cap is short. */
WIRE_API int32_t wire_schema_enum_values(wire_ctx *ctx, uint32_t type,
                                         uint32_t *out_values, size_t cap,
                                         size_t *out_count);
/* The name of enumerator `index` of enum `type` (declaration order, as
 * wire_schema_enum_values counts them): *out_name gets its bytes (not
 * NUL-terminated; owned by the context, valid as long as the schema is),
 * *out_len their count. For a binding that maps its own enum constants to
 * the schema's enumerators by name. WIRE_E_ARG when `type` is not an enum
 * of the schema or `index` is not below its value count. */
WIRE_API int32_t wire_schema_enum_value_name(wire_ctx *ctx, uint32_t type,
                                             size_t index,
                                             const uint8_t **out_name,
                                             size_t *out_len);
/* The fingerprint libwire hashes into the same-schema hash of struct
 * `type` (spec R-SHASH-1), NUL-terminated into out[0..cap); *out_len gets
 * its length without the NUL (also with WIRE_E_BUFFER_FULL), *out_hash the
 * 32-bit schema hash the struct's bodies carry. */
WIRE_API int32_t wire_schema_fingerprint(wire_ctx *ctx, uint32_t type,
                                         char *out, size_t cap,
                                         size_t *out_len,
                                         uint32_t *out_hash);
/* Metadata of a registered struct (or ext) type, computed once on first
 * use and kept by the context, for codecs and bindings that write the
 * bytes themselves (e.g. through the streaming API). Each returns
 * WIRE_E_ARG for a type that is not a struct of the schema, WIRE_E_NOMEM
 * if the metadata cannot be built.
 * The type's TypeDef as compatible mode writes it (header included):
 * *out points into the context, valid until the schema changes or the
 * context is freed. Also for enums, unions and ext types. */
WIRE_API int32_t wire_schema_typedef(wire_ctx *ctx, uint32_t type,
                                     const uint8_t **out, size_t *out_len);
/* The 32-bit same-schema hash the struct's bodies carry (spec R-SHASH-1). */
WIRE_API int32_t wire_schema_hash(wire_ctx *ctx, uint32_t type,
                                  uint32_t *out_hash);
/* Fields in wire order: *out_count gets the number of fields, and
 * out_decl[0..cap) the declaration index (wire_schema_add_field order) of
 * the field at each wire position (WIRE_E_BUFFER_FULL if cap is short;
 * out_decl may be NULL with cap 0 to ask for the count). */
WIRE_API int32_t wire_schema_field_order(wire_ctx *ctx, uint32_t type,
                                         uint32_t *out_decl, size_t cap,
                                         size_t *out_count);
/* The wire position of a field by wire (snake_case) or declared name, as
 * wire_node_field and wire_struct_set_field_at index fresh structs of the
 * type; WIRE_E_SCHEMA if the type has no such field. */
WIRE_API int32_t wire_schema_field_index(wire_ctx *ctx, uint32_t type,
                                         const char *name, size_t len,
                                         uint32_t *out_index);
/* FDL for the types of a payload, inferred from the TypeDefs it carries
 * (compatible mode): every struct with its registration (id or name),
 * fields (names or tag ids, types, nullability, ref) and the wire_*
 * options that make libwire write the same TypeDefs. The payload is
 * decoded in compatible mode with the context's schema (which may be
 * empty). *out is NUL-terminated FDL text allocated through ctx (free with
 * wire_ctx_free_bytes). WIRE_E_SCHEMA when the payload carries no TypeDef
 * (a same-schema payload: its fields are not in the bytes). */
WIRE_API int32_t wire_schema_infer(wire_ctx *ctx, const uint8_t *data,
                                   size_t len, uint8_t **out,
                                   size_t *out_len);

/* ===================================================================== */
/* Section - Whole-message codec                                          */
/* ===================================================================== */

/* Decodes every root value of a payload into a new document (*out_doc; free
 * with wire_doc_free). String and binary nodes point into `data`, which must
 * outlive the document (lazy structs read their fields from it later:
 * see the Document section). On failure *out_doc is NULL and the context has the
 * error and its byte offset. */
WIRE_API int32_t wire_decode(wire_ctx *ctx, const uint8_t *data, size_t len,
                             wire_doc **out_doc);
/* The registered type a payload's first root value is, read from its type
 * meta as the decoders read it: a struct, ext, enum or typed union by user
 * type id, by namespace and type name (two meta strings), or by the
 * writer's TypeDef (compatible mode). *out_type gets the type's index
 * (wire_schema_find_type's), or UINT32_MAX when the root is of a built-in
 * type or a TypeDef the schema has no type for. Only the header, reference
 * flag and type meta are read (a TypeDef is cached as a decode caches it);
 * their errors are the decoders' (a same-schema struct the schema lacks:
 * WIRE_E_SCHEMA), and WIRE_E_VALUE when the root is null. For bindings
 * that pick the class of an untyped decode before decoding. */
WIRE_API int32_t wire_root_type(wire_ctx *ctx, const uint8_t *data,
                                size_t len, uint32_t *out_type);
/* Encodes every root of the document. *out is allocated through the context
 * (free with wire_ctx_free_bytes). The document's values are not changed
 * (its lazy structs are decoded), and it must not be encoded from two
 * threads at once. Wire choices recorded in the document are
 * reproduced; others follow the writer policy (spec/). */
WIRE_API int32_t wire_encode(wire_ctx *ctx, wire_doc *doc,
                             uint8_t **out, size_t *out_len);

/* ===================================================================== */
/* Section - Tapes (one FFI call per message)                             */
/* ===================================================================== */

/* A tape is a flat, pre-order, little-endian description of root values
 * (format in spec/tape.md) that a binding builds or parses in its own
 * memory, so that a whole message crosses the FFI boundary in one call.
 * Tapes carry values, not wire choices: encoding follows the writer policy
 * as for fresh document nodes. The tape codec works without a document:
 * it writes the same bytes as wire_doc_add_tape + wire_encode, and reads
 * the same tapes as wire_decode + a walk of the document. Its scratch
 * memory lives in the context and is reused by later calls. */

/* Tape op codes that are not wire type ids (spec/tape.md; every other op
 * byte is the WIRE_T_* id of the value that follows), the tape version
 * byte, and the string encoding bytes beyond WIRE_STR_*. */
enum {
  WIRE_TAPE_VERSION = 2,       /* tapes with STRUCT_IDX / Java strings */
  WIRE_TAPE_NULL = 0x00,       /* a null reference */
  WIRE_TAPE_REF = 0xF0,        /* u32 k: the k-th referenceable value */
  WIRE_TAPE_STRUCT_TD = 0xF1,  /* struct laid out by a TypeDef */
  WIRE_TAPE_ENUM_ID = 0xF2,    /* enum by user type id (no schema) */
  WIRE_TAPE_PACKED = 0xF3,     /* list/set of one numeric type, 8 B each */
  WIRE_TAPE_STRUCT_IDX = 0xF4, /* registered struct, fields by wire index */
  WIRE_TAPE_SPAN = 0xF5,       /* binary / dense array: payload bytes by
                                  offset (read tapes, WIRE_TAPE_SPANS) */
  WIRE_TAPE_STR_SPAN = 0xF6,   /* string: payload bytes by offset (read
                                  tapes, WIRE_TAPE_STRING_SPANS) */
  WIRE_TAPE_ENTRY_RUN = 0xF7,  /* map entries (string keys, varint values):
                                  their payload bytes by offset (read tapes,
                                  WIRE_TAPE_ENTRY_RUNS) */
  WIRE_TAPE_L1_LIST = 0xF8,    /* list of Latin-1 strings given as their
                                  wire bytes (build tapes) */
  WIRE_TAPE_STR_JAVA = 0x80,   /* | WIRE_STR_*: written as Java would */
  WIRE_TAPE_STR_UTF8_JAVA = 0xFF /* version 1 spelling of 0x80 | UTF8 */
};

/* Encodes the roots of a tape. *out is allocated through the context (free
 * with wire_ctx_free_bytes). On failure the error offset is in the tape
 * (a malformed tape or a value the builders reject) or in the output (a
 * value the encoder cannot write). */
WIRE_API int32_t wire_encode_tape(wire_ctx *ctx, const uint8_t *tape,
                                  size_t len, uint8_t **out, size_t *out_len);
/* Same, appending the payload to a writer (wire_writer_new; reuse one per
 * context with wire_writer_reset so no buffer is allocated per message).
 * On failure the writer's content is left as it was; a fixed buffer that is
 * too small gives WIRE_E_BUFFER_FULL and wire_writer_size tells the size
 * that was needed. */
WIRE_API int32_t wire_encode_tape_to(wire_ctx *ctx, const uint8_t *tape,
                                     size_t len, wire_writer *out);
/* Decodes a payload into a tape of its roots, allocated through the context
 * (free with wire_ctx_free_bytes). Errors are those of wire_decode. */
WIRE_API int32_t wire_decode_tape(wire_ctx *ctx, const uint8_t *data,
                                  size_t len, uint8_t **tape,
                                  size_t *tape_len);
/* Flags of wire_decode_tape_to. */
enum {
  WIRE_TAPE_FIELD_INDEX = 1, /* registered structs as STRUCT_IDX (fields by
                               wire index, no names; a version 2 tape) */
  WIRE_TAPE_SPANS = 2, /* binaries and dense arrays whose bytes are in the
                          payload as SPAN ops (offset and length into `data`)
                          instead of copies: for a caller that keeps the
                          payload while it reads the tape (a version 2 tape) */
  WIRE_TAPE_STRING_SPANS = 4, /* the same for strings: STR_SPAN ops (a
                                 version 2 tape) */
  WIRE_TAPE_ENTRY_RUNS = 8 /* map entries of string keys and varint32 /
                              varint64 values without flags, checked, as
                              ENTRY_RUN ops naming their payload bytes (a
                              version 2 tape; spec/tape.md) */
};
/* Same, appending the tape to a writer (reuse one per context). Strings,
 * binaries and arrays are copied once, from the payload into the tape
 * (binaries and arrays not at all with WIRE_TAPE_SPANS, strings not at all
 * with WIRE_TAPE_STRING_SPANS). On
 * failure the writer's content is left as it was; a fixed buffer that is
 * too small gives WIRE_E_BUFFER_FULL and wire_writer_size tells the size
 * that was needed. A tape that would write shared scalars (tracked strings,
 * dates), or the names and TypeDef bytes that it repeats at every value of
 * a user type, out again beyond 64 bytes per payload byte + 16 MiB fails
 * with WIRE_E_LIMIT. */
WIRE_API int32_t wire_decode_tape_to(wire_ctx *ctx, const uint8_t *data,
                                     size_t len, uint32_t flags,
                                     wire_writer *tape_out);
/* Same, into the caller's buffer buf[0, cap) for the length of this call
 * (for a binding that lends its own memory, such as a JVM array, to one
 * call): *tape_len gets the tape's length; WIRE_E_BUFFER_FULL when cap is
 * too small, and then *tape_len gets the size that was needed (buf's
 * content is then undefined). */
WIRE_API int32_t wire_decode_tape_into(wire_ctx *ctx, const uint8_t *data,
                                       size_t len, uint32_t flags,
                                       uint8_t *buf, size_t cap,
                                       size_t *tape_len);
/* The input offset of value k of the tape that wire_decode_tape_to with
 * flags makes of data (spec/tape.md, "Input offsets": values numbered
 * 0, 1, 2 ... in tape order, a PACKED list's elements and an ENTRY_RUN's
 * keys and values each one; the offset of a value's bytes after its
 * reference flag and type meta, of a null or REF its flag), into *offset:
 * data is decoded again, for a host that finds a value of a read tape it
 * cannot take. WIRE_E_ARG when the tape has no value k; the payload's own
 * error if it fails to decode. */
WIRE_API int32_t wire_decode_tape_offset(wire_ctx *ctx, const uint8_t *data,
                                         size_t len, uint32_t flags,
                                         uint64_t k, uint64_t *offset);
/* Adds the roots of a tape to a document. */
WIRE_API int32_t wire_doc_add_tape(wire_ctx *ctx, wire_doc *doc,
                                   const uint8_t *tape, size_t len);

/* Annotated listing: calls `line` once per byte range with its offset,
 * length, nesting depth and a NUL-terminated description, while decoding
 * like wire_decode. Returns the decode status. */
typedef void (*wire_dump_fn)(void *user, uint64_t offset, uint64_t length,
                             uint32_t depth, const char *text);
WIRE_API int32_t wire_dump(wire_ctx *ctx, const uint8_t *data, size_t len,
                           wire_dump_fn line, void *user);

/* ===================================================================== */
/* Section - Native memory layouts (compiled codecs)                      */
/* ===================================================================== */

/* A registered struct bound to a native memory layout: where each field
 * lives in a C struct (or a binding's object image) and in which form.
 * At bind time the layout is compiled once into a plan (field order,
 * TypeDef bytes, type meta, list headers), so that encoding and decoding a
 * whole message is one call with no document, no per-value allocation and
 * no lookup by name. Layouts live in the context; they are named by their
 * index. Element layouts (type WIRE_MEM_ELEMENT) describe the items of a
 * list or set (slot 0) and the entries of a map (slot 0 key, slot 1
 * value); a list of structs uses the struct's own layout. */
#define WIRE_MEM_ELEMENT 0xFFFFFFFFu
#define WIRE_MEM_NONE 0xFFFFFFFFu
/* In-memory forms. Integers of either signedness and any width can carry
 * any integer wire type (range checked both ways). */
enum {
  WIRE_MEM_I8 = 1, WIRE_MEM_I16 = 2, WIRE_MEM_I32 = 3, WIRE_MEM_I64 = 4,
  WIRE_MEM_U8 = 5, WIRE_MEM_U16 = 6, WIRE_MEM_U32 = 7, WIRE_MEM_U64 = 8,
  WIRE_MEM_BITS16 = 9,   /* float16 / bfloat16 as their uint16 bits */
  WIRE_MEM_F32 = 10, WIRE_MEM_F64 = 11,
  WIRE_MEM_BOOL = 12,    /* uint8_t 0 / 1 */
  WIRE_MEM_STR = 13,     /* const uint8_t * UTF-8 at offset, length at aux */
  WIRE_MEM_BYTES = 14,   /* const uint8_t * at offset, length at aux */
  WIRE_MEM_STRUCT = 15,  /* struct of layout `elem`, inline at offset */
  WIRE_MEM_STRUCT_PTR = 16, /* pointer to a struct of layout `elem` */
  WIRE_MEM_LIST = 17,    /* pointer to `count` items (count at aux) of
                            element layout `elem` (stride: its size) */
  WIRE_MEM_ARRAY = 18,   /* pointer to `count` packed items (count at aux)
                            of the element's natural width (bool: uint8);
                            dense arrays and lists of primitives */
  WIRE_MEM_MAP = 19,     /* pointer to `count` entries of element layout
                            `elem` (slot 0 key, slot 1 value) */
  WIRE_MEM_ENUM = 20,    /* uint32_t enumerator value */
  WIRE_MEM_DATE = 21,    /* int64_t days since 1970-01-01 */
  WIRE_MEM_TIMESTAMP = 22, /* wire_mem_time: seconds since the epoch */
  WIRE_MEM_DURATION = 23,  /* wire_mem_time */
  WIRE_MEM_DECIMAL = 24, /* wire_mem_decimal */
  WIRE_MEM_UNION = 25    /* a union: the case id (uint32_t) at aux, the
                            cases laid out by union layout `elem` from
                            offset */
};
/* Form flags (or-ed into the form). */
#define WIRE_MEM_LEN64 0x100u   /* length / count at aux is uint64_t, not
                                   uint32_t */
/* On WIRE_MEM_STR: the length word at aux holds the wire's string header,
 * (byte length << 2) | WIRE_STR_*, and the text is in that encoding
 * (Latin-1, UTF-16LE or UTF-8) instead of always UTF-8. Encoding writes
 * the bytes as given in that encoding (WIRE_OPT_STRING_POLICY does not
 * apply; checked unless WIRE_OPT_TRUSTED_TEXT); decoding leaves a string in
 * the encoding it has on the wire (no transcoding) and stores its header.
 * For bindings whose strings are Latin-1 / UTF-16 inside (CPython, the
 * JVM). With a uint32_t length word a string is at most 2^30 - 1 bytes. */
#define WIRE_MEM_STR_TAGGED 0x200u
/* On a struct field with a presence flag: the flag reads 2 (instead of 0)
 * when wire_mem_decode reads the struct from a writer whose TypeDef lacks
 * the field (or sends it as a type the field's form cannot carry), so
 * that a field the writer did not send is told from one sent as null
 * (0); 1 as ever when it has a value. For a binding that gives absent
 * fields defaults of its own (wire_mem_absent_count). */
#define WIRE_MEM_MARK_ABSENT 0x400u
#define WIRE_MEM_F_MASK 0xFFu
/* Fixed C structs of the temporal and decimal forms. */
typedef struct { int64_t seconds; uint32_t nanos; uint32_t pad; } wire_mem_time;
typedef struct {
  const uint8_t *magnitude; /* little-endian unsigned magnitude */
  uint32_t len;             /* bytes of the magnitude */
  int32_t scale;            /* value = (-1)^negative * magnitude * 10^-scale */
  uint32_t negative;
  uint32_t pad;
} wire_mem_decimal;

/* A new layout of registered struct `type` (or WIRE_MEM_ELEMENT) whose
 * values are `size` bytes (the stride in lists). A layout of a registered
 * union binds its cases: field = the case's index in declaration order,
 * offsets from where the union's memory starts (a case of struct type
 * inline or by pointer; a union case of union type has no memory form). A
 * case without a row cannot be written; read, its value is dropped and its
 * case id kept. Union layouts are used by WIRE_MEM_UNION rows only, never
 * as a root. */
WIRE_API int32_t wire_mem_layout_new(wire_ctx *ctx, uint32_t type,
                                     uint32_t size, uint32_t *out_layout);
/* Binds field `field` (index in declaration order; slot 0/1 of an element
 * layout) to memory: `form` (WIRE_MEM_* | flags) at `offset`; `aux`: the
 * offset of the length / count, or of the union case (else WIRE_MEM_NONE);
 * `present`: offset of a uint8_t presence flag of an optional value, or
 * WIRE_MEM_NONE (pointer forms: NULL is null); `elem`: the layout of a
 * nested struct, list element or map entry (a union row: its case id). A
 * field without binding is written as its default when nullable (null)
 * and skipped when read. */
WIRE_API int32_t wire_mem_layout_field(wire_ctx *ctx, uint32_t layout,
                                       uint32_t field, uint32_t form,
                                       uint32_t offset, uint32_t aux,
                                       uint32_t present, uint32_t elem);
/* Layouts from a flat table of uint32_t rows, WIRE_MEM_ROW words each:
 * a layout row {WIRE_MEM_ROW_LAYOUT, type, size, 0...} starts a layout,
 * field rows {WIRE_MEM_ROW_FIELD, field, form, offset, aux, present, elem,
 * 0} follow it. `elem` in a table counts layouts from the table's first
 * (*out_first gets the index of the first layout). */
#define WIRE_MEM_ROW 8
enum { WIRE_MEM_ROW_LAYOUT = 1, WIRE_MEM_ROW_FIELD = 2 };
WIRE_API int32_t wire_mem_layout_table(wire_ctx *ctx, const uint32_t *rows,
                                       size_t nrows, uint32_t *out_first);
/* Compiles the layout and the layouts it uses (done by the first encode or
 * decode otherwise). Checks that every bound form can carry its field's
 * declared type. The schema must be finished. */
WIRE_API int32_t wire_mem_bind(wire_ctx *ctx, uint32_t layout);
/* Encodes one root value from memory: the payload header, the root's type
 * meta and its body, in the context's mode. *out points to memory of the
 * context, valid until the next wire_mem_* call on it. */
WIRE_API int32_t wire_mem_encode(wire_ctx *ctx, uint32_t layout,
                                 const void *value, const uint8_t **out,
                                 size_t *out_len);
/* Same into buf[0..cap): WIRE_E_BUFFER_FULL if it does not fit (*out_len
 * then gets the size needed). */
WIRE_API int32_t wire_mem_encode_to(wire_ctx *ctx, uint32_t layout,
                                    const void *value, uint8_t *buf,
                                    size_t cap, size_t *out_len);
/* wire_mem_encode of a value whose pointers are numbers relative to
 * `base` (not 0): a pointer p other than NULL is read at
 * value + (p - base). For a caller whose value lives in memory that moves
 * between calls (a garbage-collected heap array pinned for the call only,
 * such as a JVM array passed to a critical downcall): every pointer of the
 * value then points into the value's own memory (its strings, lists and
 * structs laid out after it). *out as for wire_mem_encode. */
WIRE_API int32_t wire_mem_encode_based(wire_ctx *ctx, uint32_t layout,
                                       const void *value, uint64_t base,
                                       const uint8_t **out, size_t *out_len);
/* Decode flags. */
enum {
  WIRE_MEM_COPY = 1, /* copy strings and binaries into the arena (else they
                       point into `data`, except text that must be
                       transcoded to UTF-8) */
  WIRE_MEM_ARRAYS_IN_PLACE = 2 /* dense arrays whose items are held at their
                       wire width point into `data` (unaligned: read them
                       with memcpy) instead of being copied into the arena;
                       for callers that copy the items out anyway (ignored
                       with WIRE_MEM_COPY) */
};
/* Decodes one root value of the layout's type into *out (every bound field
 * written; missing fields get defaults). Lists, pointed-to structs and
 * copies go into arena[0..arena_cap): *arena_used (in: bytes already used,
 * out: bytes used after). Arena bytes past the caller's *arena_used are
 * bounded by the context's WIRE_LIMIT_MEM_DECODE times len plus
 * WIRE_MEM_DECODE_BASE: WIRE_E_LIMIT (at the value that would pass it)
 * when decoding needs more, whatever the arena's size. Else
 * WIRE_E_BUFFER_FULL when the arena is too small: *arena_used then gets
 * a lower bound of the arena size needed (where the allocation that did
 * not fit would end, more than arena_cap); a caller that grows the arena
 * to at least that and decodes again ends with WIRE_OK or WIRE_E_LIMIT
 * (or another error of the input). A writer's
 * TypeDef that differs from the registered one is read through a mapping
 * computed once and cached in the context. Errors have class and byte
 * offset as for wire_decode; *out may then be partly written. */
WIRE_API int32_t wire_mem_decode(wire_ctx *ctx, uint32_t layout,
                                 const uint8_t *data, size_t len, void *out,
                                 uint8_t *arena, size_t arena_cap,
                                 size_t *arena_used, uint32_t flags);
/* wire_mem_decode, and bases[0] = data, bases[1] = arena as this call saw
 * them. For a caller whose input and arena are memory that moves between
 * calls (a garbage-collected heap pinned for the call only, such as a JVM
 * array passed to a critical downcall): the addresses written into *out and
 * the arena are then only numbers, and (address - base) is the offset of
 * the bytes pointed to in the input or the arena. Empty strings, binaries
 * and lists may point elsewhere (their length or count is 0). */
WIRE_API int32_t wire_mem_decode_bases(wire_ctx *ctx, uint32_t layout,
                                       const uint8_t *data, size_t len,
                                       void *out, uint8_t *arena,
                                       size_t arena_cap, size_t *arena_used,
                                       uint32_t flags, uint64_t *bases);
/* How many struct values wire_mem_decode (and wire_mem_decode_bases) have
 * read on this context, since it was made, from a writer's TypeDef that
 * lacks some of their layout's bound fields (fields then zeroed, as a
 * field sent as a type its form cannot carry). A binding that gives such
 * fields defaults of its own compares it before and after a call: a
 * payload of the registered TypeDefs leaves it as it was, and costs
 * nothing more to decode. */
WIRE_API uint64_t wire_mem_absent_count(const wire_ctx *ctx);
/* Which fields of a writer's TypeDef (td[0..len), as it follows a struct's
 * type meta) wire_mem_decode skips when it reads a struct of layout's type
 * with it: out[i] = 1 for the TypeDef's field i that the layout's memory
 * cannot hold (a field the type lacks, or one whose declared type the
 * member's form cannot carry: read and dropped, the member left zero),
 * else 0. *out_n gets the TypeDef's field count; WIRE_E_BUFFER_FULL when
 * it is more than cap. The mapping is the one wire_mem_decode computes and
 * caches (at most 64 TypeDefs per type); for a binding that reads the same
 * struct another way and must drop the same fields. */
WIRE_API int32_t wire_mem_typedef_skips(wire_ctx *ctx, uint32_t layout,
                                        const uint8_t *td, size_t len,
                                        uint8_t *out, size_t cap,
                                        size_t *out_n);

/* ===================================================================== */
/* Section - Generated code support                                       */
/* ===================================================================== */

/* What the code `wire gen c` writes calls at run time. Its straight-line
 * encoders and decoders ask the context once per message for its options,
 * limits and output buffer, and hand the whole message to wire_mem_encode
 * / wire_mem_decode (which read every form and report errors) whenever
 * they meet something they do not handle. Hand-written code needs none of
 * this. */
enum {
  WIRE_GEN_COMPATIBLE = 1,   /* WIRE_OPT_COMPATIBLE is on */
  WIRE_GEN_REF_TRACKING = 2, /* WIRE_OPT_REF_TRACKING is on */
  WIRE_GEN_TRUSTED_TEXT = 4, /* WIRE_OPT_TRUSTED_TEXT is on */
  WIRE_GEN_STRING_JAVA = 8,  /* WIRE_OPT_STRING_POLICY is WIRE_STRING_JAVA */
  WIRE_GEN_PEER = 16         /* WIRE_OPT_PEER is not WIRE_PEER_NONE */
};
typedef struct {
  uint32_t mode;           /* WIRE_GEN_* */
  uint32_t max_depth;      /* the context's limits (WIRE_LIMIT_*) */
  uint64_t max_collection;
  uint64_t max_binary;
  uint8_t *buf;            /* the context's output buffer (what
                              wire_mem_encode returns its bytes in); owned by
                              the context, valid until its next wire_gen_* or
                              wire_mem_* call */
  size_t cap;              /* its size in bytes */
} wire_gen_state;
/* Clears the context's error and fills *state. */
WIRE_API int32_t wire_gen_begin(wire_ctx *ctx, wire_gen_state *state);
/* Makes the context's output buffer hold at least used + need bytes,
 * keeping its first `used`; *buf and *cap get the (possibly moved) buffer.
 * Ownership: the buffer is the context's (as state->buf); it is valid until
 * the next wire_gen_* or wire_mem_* call on the context. WIRE_E_NOMEM on
 * failure. */
WIRE_API int32_t wire_gen_grow(wire_ctx *ctx, size_t used, size_t need,
                               uint8_t **buf, size_t *cap);
/* How the generated decoder reads a field of a writer's TypeDef that is
 * not the registered one (schema evolution): one uint32_t per writer
 * field, in the writer's order: action << 24 | writer's wire type << 16 |
 * the registered field's declaration index (INT), and for READ the
 * declaration index alone. */
enum {
  WIRE_GEN_MAP_READ = 0,      /* the registered field, read as declared */
  WIRE_GEN_MAP_INT = 1,       /* the registered integer field from another
                                 integer type (the writer's), the value
                                 checked against the field's range */
  WIRE_GEN_MAP_SKIP = 2,      /* no field of the reader's: a value of the
                                 writer's (primitive, string, binary or
                                 dense array) type, read and dropped */
  WIRE_GEN_MAP_SKIP_FLAG = 3, /* the same behind a null flag */
  WIRE_GEN_MAP_OTHER = 4      /* anything else (the interpreter's case) */
};
/* For generated decoders: the TypeDef that starts at data[0..len) (its
 * header and body) as a writer's version of memory layout `layout`'s type.
 * *td_len gets the TypeDef's size in bytes, *map / *nmap its field map
 * (WIRE_GEN_MAP_*), computed on the first sight of those TypeDef bytes and
 * cached in the context with the interpreter's mapping (as wire_mem_decode
 * caches it, at most 64 per type). Ownership: the map is the context's,
 * valid until the context's layouts or options change or it is freed.
 * Errors: WIRE_E_TYPEDEF / WIRE_E_SCHEMA / WIRE_E_LIMIT for bytes the
 * interpreter refuses too; WIRE_E_UNSUPPORTED for the registered TypeDef
 * (the generated code reads it straight). */
WIRE_API int32_t wire_gen_map(wire_ctx *ctx, uint32_t layout,
                              const uint8_t *data, size_t len, size_t *td_len,
                              const uint32_t **map, uint32_t *nmap);

/* ===================================================================== */
/* Section - Value notation                                               */
/* ===================================================================== */

/* The JSON value notation of spec/notation.md, printed from documents and
 * parsed into them: what `wire decode` prints and `wire encode` reads, and
 * what the conformance testees exchange. */
enum {
  WIRE_NOTATION_PRETTY = 1,    /* print: indent by two spaces */
  WIRE_NOTATION_UNTRACKED = 2, /* print: "tracked": false on values written
                                  with the not-null flag where reference
                                  tracking would flag them (N-2) */
  WIRE_NOTATION_PLAIN = 4,     /* print plain JSON (N-6): lossy, natural
                                  JSON for people and jq */
  WIRE_NOTATION_REFIT = 8      /* parse: a recorded wire choice that no
                                  longer fits its (edited) value - a list
                                  header, map chunks, a string or meta
                                  string encoding - is dropped and the
                                  writer policy decides, instead of the
                                  encode failing */
};

/* Receives printed text in chunks of at most 4 KiB (not NUL-terminated).
 * Returns 0 to go on; anything else stops the print, which then fails with
 * WIRE_E_STATE. */
typedef int32_t (*wire_text_fn)(void *user, const char *text, size_t len);

/* Prints `node` and every node it reaches as one JSON document (no final
 * newline) through `out`. The text is never held whole: the library keeps
 * a 4 KiB buffer and 2 bytes of scratch per node of the document, all
 * freed before it returns. Anchors and "typedef" numbers are local to the
 * call (one root document). flags: WIRE_NOTATION_PRETTY, _UNTRACKED,
 * _PLAIN. Errors: WIRE_E_DEPTH beyond 4096 nesting levels, WIRE_E_LIMIT
 * when plain JSON would repeat shared values more than 16 times the node
 * count, WIRE_E_STATE when `out` stopped it, WIRE_E_NOMEM. */
WIRE_API int32_t wire_notation_write(wire_ctx *ctx, const wire_doc *doc,
                                     const wire_node *node, uint32_t flags,
                                     wire_text_fn out, void *user);
/* Same, into a new NUL-terminated buffer (*out_len excludes the NUL)
 * allocated through ctx; free it with wire_ctx_free_bytes. */
WIRE_API int32_t wire_notation_print(wire_ctx *ctx, const wire_doc *doc,
                                     const wire_node *node, uint32_t flags,
                                     uint8_t **out, size_t *out_len);
/* Parses one JSON document of the notation from text[0..len) (leading
 * whitespace skipped) and builds its value in `doc`: *out_node is owned by
 * the document and not yet a root (wire_doc_add_root). *consumed gets the
 * offset just past the document, so a caller can read a sequence of
 * documents. The text is not kept. Errors: WIRE_E_NOTATION (not JSON, not
 * the notation, or a value the builders refuse, such as int8 "300") with
 * the byte offset of the offending JSON value in text on the context;
 * WIRE_E_NOMEM. flags: WIRE_NOTATION_REFIT. */
WIRE_API int32_t wire_notation_parse(wire_ctx *ctx, wire_doc *doc,
                                     const char *text, size_t len,
                                     uint32_t flags, wire_node **out_node,
                                     size_t *consumed);
/* Reads plain JSON (N-6) as a value of registered type `type`, taking the
 * wire types from the schema; missing struct fields get their defaults.
 * type WIRE_BY_NAME: no schema type - JSON values become what the Java
 * runtime writes for them (integer: varint64, other numbers: float64,
 * string, list, map of string keys). Ownership and errors as for
 * wire_notation_parse. */
WIRE_API int32_t wire_notation_parse_plain(wire_ctx *ctx, wire_doc *doc,
                                           const char *text, size_t len,
                                           uint32_t type,
                                           wire_node **out_node,
                                           size_t *consumed);

/* ===================================================================== */
/* Section - Generated C code                                             */
/* ===================================================================== */

/* C code for the registered types (`wire gen c`): a header and a source
 * with C structs for the messages, enum constants, a registration function
 * `<pkg>_register` and per message `<type>_encode` / `<type>_decode` over
 * the layouts above. `base` names the files (<base>.wire.h includes as
 * "<base>.wire.h"); C names start with `prefix` (NULL: the package
 * name with '.' as '_'). The text goes to header / source in one call each; a
 * non-zero return of theirs is returned. Structs with a field that has no
 * memory form (unions, ext, any) get no code unless the field is nullable
 * (it is then left out and written as null). */
WIRE_API int32_t wire_schema_gen_c(wire_ctx *ctx, const char *base,
                                   const char *prefix, wire_text_fn header,
                                   wire_text_fn source, void *user);

#ifdef __cplusplus
}
#endif
#endif /* WIRE_H */
