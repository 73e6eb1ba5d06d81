/* _native.h - what the two C files of the extension share: the codec
 * object (one per Context), the per-class plans and the error helpers.
 *
 * _native.c: the module, the Codec type, class registration, and the tape
 * path (dynamic values: a version 2 tape and one wire_encode_tape_to /
 * wire_decode_tape_to call).
 * _mem.c: the compiled-layout path (registered classes: a native image
 * described once by a wire_mem layout, one wire_mem_encode /
 * wire_mem_decode call). */
#ifndef LIBWIRE_NATIVE_H
#define LIBWIRE_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "wire.h"

/* A float32 as the double Python holds for it, and back, as tapes carry
 * them (spec/tape.md, FLOAT32 NaNs): C's conversions, except that a NaN is
 * widened and narrowed bit for bit, its quiet bit as it was (the hardware
 * sets it), so a signaling NaN read into a float is written back signaling.
 * Narrowing a NaN whose top 23 payload bits are all zero gives the quiet
 * NaN. The layout path (_mem.c) and float32 arrays from lists use these;
 * the tape path leaves the conversions to libwire. */
static inline double lw_f32_widen(uint32_t x) {
  double d;
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) {
    uint64_t u = (uint64_t)(x >> 31) << 63 | UINT64_C(0x7FF) << 52 |
                 (uint64_t)(x & 0x7FFFFFu) << 29;
    memcpy(&d, &u, 8);
    return d;
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}
static inline uint32_t lw_f32_narrow(double d) {
  uint64_t u;
  uint32_t x;
  memcpy(&u, &d, 8);
  if ((u & ~(UINT64_C(1) << 63)) > UINT64_C(0x7FF) << 52) {
    uint32_t m = (uint32_t)(u >> 29) & 0x7FFFFFu;
    return (uint32_t)(u >> 63) << 31 | 0x7F800000u | (m ? m : 0x400000u);
  }
  float f = (float)d;
  memcpy(&x, &f, 4);
  return x;
}

/* A declared field type (wire_schema_field_type_info), as a tree. */
typedef struct hint {
  uint32_t tid;        /* WIRE_T_* of the declaration; WIRE_T_UNKNOWN: any */
  uint32_t user;       /* user type index, WIRE_BY_NAME if none */
  int32_t nullable;
  struct hint *elem, *key, *val;
} hint;

struct mlay;           /* _mem.c: a class's native image and its layout */

/* A registered class: fields in wire order, how to read and set them. */
typedef struct splan {
  PyObject *cls;
  uint32_t type;
  uint32_t n;          /* schema fields, wire order */
  PyObject **attr;     /* interned attribute name, NULL: no attribute */
  Py_ssize_t *slot;    /* offset of a __slots__ member, -1: by attribute */
  hint **hints;
  char **fname;        /* "Type.field" for messages */
  PyObject **dflt;     /* default value or NULL */
  PyObject **factory;  /* default factory or NULL */
  PyObject *by_name;   /* wire name -> field index (PyLong) */
  int use_dict;        /* instances have a __dict__ and no field is a
                          descriptor of the class: read it directly */
  uint32_t nattr;      /* fields with an attribute */
  size_t est;          /* bytes one instance takes, estimated (what a
                          decode charges per object: lw_charge) */
  uint32_t *dorder;    /* wire index of the k-th entry of an instance
                          __dict__ as last seen (learned), n entries */
  int pin_walk;        /* _mem.c: writing it ran Python code (a property):
                          its walks hold what the image points into */
  struct mlay *mem[2]; /* _mem.c: [0] for writing and for reading the
                          registered TypeDef; [1] reading other writers'
                          TypeDefs (a presence byte per field, so that
                          fields they lack get the class defaults) */
} splan;

/* A registered enum.Enum class. */
typedef struct {
  PyObject *cls;
  uint32_t type;
  Py_ssize_t n;
  Py_ssize_t nw;        /* member[0..nw): those whose wire value the schema
                           enum declares (_enums.c); the rest are refused
                           when written */
  PyObject **member;
  uint32_t *value;
  PyObject *from_wire; /* PyLong wire value -> member */
  PyObject **by_value; /* member of wire value v (v < nvalue), or NULL */
  uint32_t nvalue;
} eplan;

typedef struct {
  PyObject *key;
  Py_ssize_t index;
} memo_slot;

struct mstate;         /* _mem.c: scratch memory of the layout path */

typedef struct {
  PyObject_HEAD
  wire_ctx *ctx;
  PyObject *hooks;      /* the Context's hook object (libwire/_hooks.py) */
  PyObject *h_encode;   /* hooks.encode(obj) -> (shareable, head, pairs) */
  PyObject *h_register; /* hooks.register(cls) -> bool */
  PyObject *h_class_of; /* hooks.class_of(type index) -> None (plans added) */
  PyObject *h_decode;   /* hooks.decode(op, *args) -> object */
  PyObject *h_hashable; /* hooks.hashable(obj) -> hashable form */
  PyObject *h_type_name;/* hooks.type_name(type index) -> str */
  PyObject *h_sync;     /* hooks.sync() -> None: registrations up to date */
  PyObject *h_error;    /* WireError class */
  PyObject *array_new;  /* array.array */
  PyObject *int_classes;   /* wire type id -> WireInt subclass */
  PyObject *float_classes; /* wire type id -> WireFloat subclass */
  PyObject *none_value;    /* libwire.NONE */
  PyObject *classes;    /* cls -> capsule (splan / eplan), or False */
  PyObject *types;      /* type index (PyLong) -> capsule, or None */
  PyObject *enum_decl;  /* type index (PyLong) -> frozenset of the numbers
                           the enum declares, or None (_enums.c; kept: a
                           loaded enum's values never change) */
  PyObject *enum_ids;   /* numeric user id (PyLong) -> the schema enum's type
                           index, or WIRE_BY_NAME (_enums.c) */
  PyObject *retired;    /* capsules replaced while plans may be in use */
  PyObject *reg_version;/* libwire._registry.VERSION (a list) */
  long seen_version;    /* VERSION[0] at the last sync */
  int stale;            /* registrations or schemas changed: sync first */
  int ref;              /* WIRE_OPT_REF_TRACKING as set by the Context */
  int busy;             /* inside encode/decode: the state below is in use */
  int clear_pending;    /* clear() asked while busy: done on release */
  int layouts;          /* registered classes through the layouts (1, the
                           default; 0: every value through the tape) */
  /* messages by path (Codec.stats(): tests and profiling) */
  unsigned long long n_mem_enc, n_mem_dec, n_tape_enc, n_tape_dec;
  unsigned long long n_big_enc, n_big_dec;   /* large binaries, arrays */
  /* encode state */
  uint8_t *t;
  size_t tlen, tcap;
  size_t depth, max_depth;
  Py_ssize_t nshare;
  memo_slot *memo;
  size_t memo_cap, memo_used;
  const char *field;    /* field being written, for messages */
  wire_writer *out;     /* reused payload writer */
  wire_writer *tout;    /* reused tape writer (decode) */
  /* decode state */
  const uint8_t *p, *end;
  const uint8_t *src;   /* the payload being decoded (SPAN ops point in) */
  size_t src_len;
  PyObject **objs;
  size_t nobjs, objs_cap;
  struct mstate *ms;    /* _mem.c, allocated on first use */
  /* what the decode under way may still build (lw_charge) */
  size_t mem_left, mem_max, mem_in;
  PyObject *td_last;    /* the last STRUCT_TD's TypeDef bytes (shared by
                           the Structs of one decode that have them) */
  PyObject *names_last; /* field names of the last Struct read by name */
  PyTypeObject *last_tp;/* the class of the last root written ... */
  PyObject *last_plan;  /* ... and its plan (borrowed; reset on clear) */
} Codec;

/* ---- _native.c ---------------------------------------------------------- */

/* The Python objects a decode builds are charged against the context's
 * WIRE_LIMIT_MEM_DECODE budget, as libwire charges the compiled codecs'
 * arena (spec R-LIMIT-9): the limit x the input's length +
 * WIRE_MEM_DECODE_BASE per decode. The charges are estimates of each
 * object's size (CPython 3.11 on a 64-bit host, GC header included);
 * scalars from the singletons' caches are charged like any other. */
#define LW_EST_NUM 32                                   /* int, float */
#define LW_EST_STR(n, kind) (56 + (size_t)(n) * (kind)) /* n chars */
#define LW_EST_BYTES(n) (40 + (size_t)(n))
#define LW_EST_ARRAY(n) (64 + (size_t)(n))              /* n bytes */
#define LW_EST_LIST(n) (56 + 8 * (size_t)(n))
#define LW_EST_SET(n) (216 + 64 * (size_t)(n))
#define LW_EST_DICT(n) (64 + 48 * (size_t)(n))
/* Starts a decode's budget: len input bytes. */
void lw_budget_start(Codec *c, size_t len);
/* Past the budget: raises WireError("limit") at offset 0 (the objects are
 * built after the input has been read; a read tape and an image carry no
 * input offsets) and returns -1. */
int lw_mem_over(Codec *c, size_t n);
/* Charges n bytes: 0, or -1 with the limit error raised. */
static inline int lw_charge(Codec *c, size_t n) {
  if (__builtin_expect(n <= c->mem_left, 1)) {
    c->mem_left -= n;
    return 0;
  }
  return lw_mem_over(c, n);
}
/* The estimate for any object (those the hooks and factories make): its
 * type's size, its items, the GC header. */
size_t lw_obj_est(PyObject *v);

/* ---- _enums.c ----------------------------------------------------------- */

/* Splits the members of a registered enum class: member[0..nw) those whose
 * wire value the schema enum declares. 0, or -1 with a Python error. */
int lw_enum_split(Codec *c, eplan *p);
/* Raises WireError("value"): enum `ti` does not declare `num` (named with
 * the field being written and the declared numbers); returns NULL. */
PyObject *lw_enum_refuse(Codec *c, uint32_t ti, PyObject *num);
/* Codec.enum_check(type index, number) (the hooks, for EnumValue). */
PyObject *lw_Codec_enum_check(Codec *c, PyObject *args);
/* Codec.enum_check_id(user id, number): the same for the schema enum
 * registered with that numeric id, if any. */
PyObject *lw_Codec_enum_check_id(Codec *c, PyObject *args);

/* Raises WireError(cls, offset, msg, code); returns NULL. */
PyObject *lw_error(Codec *c, const char *cls, PyObject *offset,
                   const char *msg, int32_t code);
/* A WireError found on this side (no byte offset). */
PyObject *lw_fail(Codec *c, const char *cls, int32_t code, const char *fmt,
                  ...);
/* WireError("buffer_full") whose offset is the size the payload needs. */
PyObject *lw_buffer_full(Codec *c, size_t need);
/* The context's error (status st) as a WireError. */
PyObject *lw_ctx_fail(Codec *c, int32_t st);
/* The plan of type index ti (asking the hooks the first time): a struct
 * plan, or NULL with *ep set for an enum, NULL for neither (a Python
 * error may then be set). */
splan *lw_class_plan(Codec *c, uint32_t ti, eplan **ep);
/* The plan of a Python class met while writing (asking the hooks the
 * first time): a capsule (borrowed), or NULL (no plan; a Python error
 * may then be set). */
PyObject *lw_plan_of_type(Codec *c, PyTypeObject *tp);
int lw_set_field(PyObject *o, splan *p, uint32_t i, PyObject *v);
PyObject *lw_new_instance(PyObject *cls);
/* Whether o is an array.array (exactly). */
int lw_is_array(PyObject *o);
/* An array.array of typecode `code` holding a copy of p[0..nb). */
PyObject *lw_array_from(Codec *c, char code, const void *p, size_t nb);
/* _pybytes.c: a bytes object of the n bytes at p (large ones copied by a
 * loop that suits unaligned sources). */
PyObject *lw_bytes_from(const void *p, size_t n);
/* Tape path: roots (a sequence) -> bytes (or the length written into
 * `into`); payload -> list of roots. */
PyObject *lw_tape_encode(Codec *c, PyObject *roots, PyObject *into);
PyObject *lw_tape_decode(Codec *c, const uint8_t *data, size_t len);

/* The value of an int that fits one digit, without a call. */
static inline int lw_small_int(PyObject *o, long long *v) {
#if PY_VERSION_HEX >= 0x030C0000
  if (!PyUnstable_Long_IsCompact((PyLongObject *)o)) return 0;
  *v = (long long)PyUnstable_Long_CompactValue((PyLongObject *)o);
  return 1;
#else
  Py_ssize_t sz = Py_SIZE(o);
  if (sz > 1 || sz < -1) return 0;
  long long d = sz ? (long long)((PyLongObject *)o)->ob_digit[0] : 0;
  *v = sz < 0 ? -d : d;
  return 1;
#endif
}

/* The value of an exact int that fits int64_t, read from its digits
 * without a call where the layout of ints is known (3.11: up to three
 * 30-bit digits); 0 if it does not fit (or is not known to). */
static inline int lw_long_i64(PyObject *o, long long *v) {
#if PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
  Py_ssize_t sz = Py_SIZE(o), a = sz < 0 ? -sz : sz;
  const digit *d = ((PyLongObject *)o)->ob_digit;
  unsigned long long u;
  if (a <= 1) u = a ? d[0] : 0;
  else if (a == 2) u = (unsigned long long)d[0] | (unsigned long long)d[1] << 30;
  else if (a == 3 && d[2] < 8)      /* below 2^63 */
    u = (unsigned long long)d[0] | (unsigned long long)d[1] << 30 |
        (unsigned long long)d[2] << 60;
  else return 0;
  *v = sz < 0 ? -(long long)u : (long long)u;
  return 1;
#else
  return lw_small_int(o, v);
#endif
}

/* A str from Latin-1 bytes: checked eight bytes at a time for a byte
 * above 0x7F, then copied into a new compact str of the one-byte kind,
 * ASCII or not as the check says (CPython's strings are in their smallest
 * kind: equality and hashing rely on it). */
static inline PyObject *lw_str_latin1(const char *s, size_t n) {
  if (n > 1) {
    size_t i = 0;
    uint64_t acc = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      acc |= w;
    }
    for (; i < n; i++) acc |= (uint8_t)s[i];
    Py_UCS4 max = (acc & UINT64_C(0x8080808080808080)) ? 255 : 127;
    PyObject *u = PyUnicode_New((Py_ssize_t)n, max);
    if (u) memcpy(PyUnicode_DATA(u), s, n);
    return u;
  }
  return PyUnicode_DecodeLatin1(s, (Py_ssize_t)n, NULL);
}

/* ---- _mem.c ------------------------------------------------------------- */

/* Results of the layout path besides 0 (done) and -1 (Python error set):
 * the value cannot take this path (a type the layouts cannot express, a
 * value of an unexpected Python type, a range error): the tape path then
 * writes or reads it, and reports any error with its own message. */
#define LW_FALLBACK 1

/* dumps of one registered-class root: 0 with *out set (bytes, or the
 * length written into `into`), LW_FALLBACK, or -1. */
int lw_mem_encode(Codec *c, PyObject *obj, splan *sp, PyObject *into,
                  PyObject **out);
/* loads of a payload whose root is a registered struct the layouts can
 * read: 0 with *out set, LW_FALLBACK (not such a payload, or the layout
 * path failed: the tape path decodes it and reports any error), or -1. */
int lw_mem_decode(Codec *c, const uint8_t *data, size_t len, PyObject **out);
/* Frees a class's layout plans (not the libwire layouts: they live in the
 * context). */
void lw_mem_plan_free(splan *p);
/* Forgets what depends on the registrations (the root table). */
void lw_mem_clear(Codec *c);
/* Frees the scratch memory. */
void lw_mem_free(Codec *c);

#endif
