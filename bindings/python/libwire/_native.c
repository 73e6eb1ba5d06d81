/* _native.c - the CPython extension of the libwire binding: the module,
 * the Codec type (one per Context), class registration, and the paths of
 * the values that are not registered classes.
 *
 * dumps / loads of one root value take one of three paths, each one call
 * into libwire: a registered class through its compiled layout (_mem.c);
 * a large bytes / bytearray / memoryview / array.array root through the
 * streaming writer and reader (one copy each way); anything else, and what
 * the layouts cannot express, through the tape: the walk writes a version
 * 2 tape (spec/tape.md) into a buffer the codec reuses and makes one call,
 * wire_encode_tape_to; loads makes one call, wire_decode_tape_to with
 * WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS, and builds Python objects in C
 * from the tape (binaries and dense arrays straight from the payload).
 * Registered classes get a plan when they are first met (fields in wire
 * order, their declared types from wire_schema_field, interned attribute
 * names, slot offsets), so plain ints and floats go into fields of any
 * width, range-checked with an error that names the field.
 *
 * The values without a plain Python counterpart (Decimal, date and time,
 * Struct, EnumValue, Union, TypedArray, NONE, subclasses of the built-in
 * types) go through small Python hooks (libwire/_hooks.py) that hand back
 * tape fragments or build the object: they are rare in messages and keep
 * their Python classes in one place.
 *
 * The libwire sources are compiled into this module; its wire_* symbols
 * stay exported so the node-level API (libwire.document, ctypes) loads the
 * same library from this file. */
#include "_native.h"
#include <structmember.h>

#include "_constants.h"   /* generated from wire.h (setup.py) */

/* Tape ops beyond the wire type ids: WIRE_TAPE_* of wire.h. */
#define NO_TYPE WIRE_BY_NAME

/* ---- declared types ------------------------------------------------- */


static void hint_free(hint *h) {
  if (!h) return;
  hint_free(h->elem);
  hint_free(h->key);
  hint_free(h->val);
  PyMem_Free(h);
}

static hint *hint_make(const wire_field_type *ft, int depth) {
  if (!ft || depth > 32) return NULL;
  hint *h = PyMem_Calloc(1, sizeof *h);
  if (!h) return NULL;
  const wire_field_type *e = NULL, *k = NULL, *v = NULL;
  wire_schema_field_type_info(ft, &h->tid, &h->nullable, NULL, &h->user, &e, &k,
                              &v);
  h->elem = hint_make(e, depth + 1);
  h->key = hint_make(k, depth + 1);
  h->val = hint_make(v, depth + 1);
  return h;
}

/* ---- plans ---------------------------------------------------------- */



static void splan_free(PyObject *cap) {
  splan *p = PyCapsule_GetPointer(cap, "libwire.splan");
  if (!p) return;
  for (uint32_t i = 0; i < p->n; i++) {
    Py_XDECREF(p->attr[i]);
    hint_free(p->hints[i]);
    PyMem_Free(p->fname[i]);
    Py_XDECREF(p->dflt[i]);
    Py_XDECREF(p->factory[i]);
  }
  PyMem_Free(p->attr);
  PyMem_Free(p->slot);
  PyMem_Free(p->hints);
  PyMem_Free(p->fname);
  PyMem_Free(p->dflt);
  PyMem_Free(p->factory);
  PyMem_Free(p->dorder);
  lw_mem_plan_free(p);
  Py_XDECREF(p->by_name);
  Py_XDECREF(p->cls);
  PyMem_Free(p);
}

static void eplan_free(PyObject *cap) {
  eplan *p = PyCapsule_GetPointer(cap, "libwire.eplan");
  if (!p) return;
  for (Py_ssize_t i = 0; i < p->n; i++) Py_XDECREF(p->member[i]);
  PyMem_Free(p->member);
  PyMem_Free(p->value);
  PyMem_Free(p->by_value);
  Py_XDECREF(p->from_wire);
  Py_XDECREF(p->cls);
  PyMem_Free(p);
}

/* ---- the codec object ----------------------------------------------- */



PyObject *lw_error(Codec *c, const char *cls, PyObject *offset,
                            const char *msg, int32_t code) {
  PyObject *e = PyObject_CallFunction(c->h_error, "sOsi", cls, offset, msg,
                                      (int)code);
  if (e) {
    PyErr_SetObject(c->h_error, e);
    Py_DECREF(e);
  }
  return NULL;
}

/* A WireError found on this side (no byte offset). */
PyObject *lw_fail(Codec *c, const char *cls, int32_t code,
                         const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  PyObject *m = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  if (!m) return NULL;
  const char *s = PyUnicode_AsUTF8(m);
  if (s) lw_error(c, cls, Py_None, s, code);
  Py_DECREF(m);
  return NULL;
}

PyObject *lw_ctx_fail(Codec *c, int32_t st) {
  int32_t code = wire_ctx_error_code(c->ctx);
  if (!code) code = st;
  PyObject *off = PyLong_FromUnsignedLongLong(wire_ctx_error_offset(c->ctx));
  if (!off) return NULL;
  const char *msg = wire_ctx_error_message(c->ctx);
  if (!msg || !*msg) msg = wire_status_message(code);
  lw_error(c, wire_status_name(code), off, msg, code);
  Py_DECREF(off);
  wire_ctx_clear_error(c->ctx);
  return NULL;
}

/* WireError("buffer_full") whose offset is the size the payload needs. */
PyObject *lw_buffer_full(Codec *c, size_t need) {
  PyObject *n = PyLong_FromSize_t(need);
  if (!n) return NULL;
  lw_error(c, "buffer_full", n, "the buffer is too small: the payload needs "
           "the number of bytes in .offset", WIRE_E_BUFFER_FULL);
  Py_DECREF(n);
  return NULL;
}

/* ---- the decode budget (spec R-LIMIT-9) ------------------------------ */

void lw_budget_start(Codec *c, size_t len) {
  uint64_t per = wire_ctx_get_limit(c->ctx, WIRE_LIMIT_MEM_DECODE);
  size_t max = SIZE_MAX;
  if (!per || len <= (SIZE_MAX - WIRE_MEM_DECODE_BASE) / per)
    max = (size_t)per * len + WIRE_MEM_DECODE_BASE;
  c->mem_left = c->mem_max = max;
  c->mem_in = len;
}

__attribute__((cold, noinline)) int lw_mem_over(Codec *c, size_t n) {
  (void)n;
  c->mem_left = 0;
  PyObject *zero = PyLong_FromLong(0);
  if (!zero) return -1;
  PyObject *m = PyUnicode_FromFormat(
      "decoding makes more than %zu bytes of Python objects for %zu input "
      "bytes (WIRE_LIMIT_MEM_DECODE: %llu per input byte + %u; offset 0: "
      "the objects are built after the input has been read)",
      c->mem_max, c->mem_in,
      (unsigned long long)wire_ctx_get_limit(c->ctx, WIRE_LIMIT_MEM_DECODE),
      (unsigned)WIRE_MEM_DECODE_BASE);
  const char *s = m ? PyUnicode_AsUTF8(m) : NULL;
  if (s) lw_error(c, "limit", zero, s, WIRE_E_LIMIT);
  Py_XDECREF(m);
  Py_DECREF(zero);
  return -1;
}

size_t lw_obj_est(PyObject *v) {
  PyTypeObject *t = Py_TYPE(v);
  size_t n = (size_t)t->tp_basicsize;
  if (PyLong_Check(v)) return LW_EST_NUM;   /* ob_size is not a count */
  if (t->tp_itemsize) {
    Py_ssize_t k = Py_SIZE(v);
    n += (size_t)(k < 0 ? -k : k) * (size_t)t->tp_itemsize;
  }
  if (PyType_IS_GC(t)) n += 16;
  return n;
}

/* ---- tape writing --------------------------------------------------- */

static int grow(Codec *c, size_t n) {
  size_t need = c->tlen + n;
  if (need <= c->tcap) return 0;
  size_t cap = c->tcap ? c->tcap : 4096;
  while (cap < need) cap *= 2;
  uint8_t *t = PyMem_Realloc(c->t, cap);
  if (!t) {
    PyErr_NoMemory();
    return -1;
  }
  c->t = t;
  c->tcap = cap;
  return 0;
}

#define NEED(c, n) do { if ((c)->tlen + (n) > (c)->tcap && grow((c), (n))) \
                          return -1; } while (0)

static inline void put8(Codec *c, uint8_t v) { c->t[c->tlen++] = v; }
static inline void put32(Codec *c, uint32_t v) {
#if PY_LITTLE_ENDIAN
  memcpy(c->t + c->tlen, &v, 4);
#else
  uint8_t *p = c->t + c->tlen;
  p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
#endif
  c->tlen += 4;
}
static inline void put64(Codec *c, uint64_t v) {
#if PY_LITTLE_ENDIAN
  memcpy(c->t + c->tlen, &v, 8);
#else
  uint8_t *p = c->t + c->tlen;
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
#endif
  c->tlen += 8;
}
static inline void putd(Codec *c, double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  put64(c, u);
}
static inline void putn(Codec *c, const void *src, size_t n) {
  memcpy(c->t + c->tlen, src, n);
  c->tlen += n;
}

/* Reference memo: object -> pre-order number, for REF (ref=True only).
 * Open addressing on the pointer; the memo holds a reference so that an
 * address is not reused within one call. */
static Py_ssize_t memo_find(Codec *c, PyObject *o) {
  if (!c->memo_cap) return -1;
  size_t m = c->memo_cap - 1, i = ((uintptr_t)o >> 4) * 0x9E3779B97F4A7C15u;
  for (i &= m;; i = (i + 1) & m) {
    if (!c->memo[i].key) return -1;
    if (c->memo[i].key == o) return c->memo[i].index;
  }
}

static int memo_add(Codec *c, PyObject *o, Py_ssize_t index) {
  if ((c->memo_used + 1) * 2 > c->memo_cap) {
    size_t cap = c->memo_cap ? c->memo_cap * 2 : 64;
    memo_slot *t = PyMem_Calloc(cap, sizeof *t);
    if (!t) {
      PyErr_NoMemory();
      return -1;
    }
    for (size_t k = 0; k < c->memo_cap; k++) {
      if (!c->memo[k].key) continue;
      size_t i = ((uintptr_t)c->memo[k].key >> 4) * 0x9E3779B97F4A7C15u;
      for (i &= cap - 1; t[i].key; i = (i + 1) & (cap - 1)) {}
      t[i] = c->memo[k];
    }
    PyMem_Free(c->memo);
    c->memo = t;
    c->memo_cap = cap;
  }
  size_t m = c->memo_cap - 1, i = ((uintptr_t)o >> 4) * 0x9E3779B97F4A7C15u;
  for (i &= m; c->memo[i].key; i = (i + 1) & m) {}
  Py_INCREF(o);
  c->memo[i].key = o;
  c->memo[i].index = index;
  c->memo_used++;
  return 0;
}

static void memo_clear(Codec *c) {
  if (!c->memo_used) return;
  for (size_t k = 0; k < c->memo_cap; k++) {
    Py_CLEAR(c->memo[k].key);
  }
  c->memo_used = 0;
}

/* A referenceable value: 1 if written as REF, 0 to write it out, -1. */
static int shared(Codec *c, PyObject *o) {
  Py_ssize_t k = c->nshare++;
  if (!c->ref) return 0;
  Py_ssize_t prev = memo_find(c, o);
  if (prev >= 0) {
    c->nshare--;
    NEED(c, 5);
    put8(c, WIRE_TAPE_REF);
    put32(c, (uint32_t)prev);
    return 1;
  }
  return memo_add(c, o, k);
}

static int enc(Codec *c, PyObject *o, const hint *h);

/* Integer of wire type tid, range-checked. */

static int enc_int(Codec *c, PyObject *o, uint32_t tid) {
  int ovf = 0;
  long long v;
  if (!lw_long_i64(o, &v)) {
    v = PyLong_AsLongLongAndOverflow(o, &ovf);
    if (v == -1 && PyErr_Occurred()) return -1;
  }
  NEED(c, 9);
  if (tid == WIRE_T_VARINT64 && !ovf) {
    put8(c, WIRE_T_VARINT64);
    put64(c, (uint64_t)v);
    return 0;
  }
  if (tid >= WIRE_T_UINT8 && tid <= WIRE_T_TAGGED_UINT64) {
    unsigned long long u = (unsigned long long)v;
    if (ovf > 0) {
      u = PyLong_AsUnsignedLongLong(o);
      if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        goto range;
      }
    } else if (ovf < 0 || v < 0) {
      goto range;
    }
    unsigned long long max = tid == WIRE_T_UINT8 ? 0xFFu
                             : tid == WIRE_T_UINT16 ? 0xFFFFu
                             : (tid == WIRE_T_UINT32 || tid == WIRE_T_VAR_UINT32)
                                 ? 0xFFFFFFFFu : ~0ull;
    if (u > max) goto range;
    put8(c, (uint8_t)tid);
    put64(c, u);
    return 0;
  }
  if (ovf) goto range;
  {
    long long lo, hi;
    switch (tid) {
    case WIRE_T_INT8: lo = -128; hi = 127; break;
    case WIRE_T_INT16: lo = -32768; hi = 32767; break;
    case WIRE_T_INT32: case WIRE_T_VARINT32:
      lo = INT32_MIN; hi = INT32_MAX; break;
    default: lo = INT64_MIN; hi = INT64_MAX; break;
    }
    if (v < lo || v > hi) goto range;
  }
  put8(c, (uint8_t)tid);
  put64(c, (uint64_t)v);
  return 0;
range:
  if (c->field)
    lw_fail(c, "value", WIRE_E_VALUE, "field %s: %R is outside the %s range",
            c->field, o, wire_type_name(tid));
  else
    lw_fail(c, "value", WIRE_E_VALUE, "int %R is outside the %s range", o,
            wire_type_name(tid));
  return -1;
}

static int is_int_tid(uint32_t t) {
  return t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64;
}
static int is_float_tid(uint32_t t) {
  return t >= WIRE_T_FLOAT16 && t <= WIRE_T_FLOAT64;
}

static int enc_str(Codec *c, PyObject *o) {
  Py_ssize_t n = PyUnicode_GET_LENGTH(o);
  int kind = PyUnicode_KIND(o);
  if (kind == PyUnicode_1BYTE_KIND) {
    NEED(c, 6 + (size_t)n);
    put8(c, WIRE_T_STRING);
    put8(c, WIRE_TAPE_STR_JAVA | WIRE_STR_LATIN1);
    put32(c, (uint32_t)n);
    putn(c, PyUnicode_DATA(o), (size_t)n);
    return 0;
  }
  if (kind == PyUnicode_2BYTE_KIND) {
    NEED(c, 6 + 2 * (size_t)n);
    put8(c, WIRE_T_STRING);
    put8(c, WIRE_TAPE_STR_JAVA | WIRE_STR_UTF16);
    put32(c, (uint32_t)(2 * n));
#if PY_LITTLE_ENDIAN
    putn(c, PyUnicode_DATA(o), 2 * (size_t)n);
#else
    const Py_UCS2 *s = PyUnicode_DATA(o);
    for (Py_ssize_t i = 0; i < n; i++) {
      put8(c, (uint8_t)s[i]);
      put8(c, (uint8_t)(s[i] >> 8));
    }
#endif
    return 0;
  }
  Py_ssize_t bn;
  const char *b = PyUnicode_AsUTF8AndSize(o, &bn);
  if (!b) {
    PyErr_Clear();
    lw_fail(c, "string", WIRE_E_STRING, "text is not valid Unicode");
    return -1;
  }
  NEED(c, 6 + (size_t)bn);
  put8(c, WIRE_T_STRING);
  put8(c, WIRE_TAPE_STR_JAVA | WIRE_STR_UTF8);
  put32(c, (uint32_t)bn);
  putn(c, b, (size_t)bn);
  return 0;
}

static int enc_float(Codec *c, PyObject *o, uint32_t tid) {
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) return -1;
  NEED(c, 9);
  put8(c, (uint8_t)tid);
  putd(c, d);
  return 0;
}

static int enter(Codec *c) {
  if (++c->depth > c->max_depth) {
    /* the offset is in the tape, as for the tape encoder's own errors */
    PyObject *off = PyLong_FromSize_t(c->tlen);
    if (off) {
      lw_error(c, "depth", off, "the value nests deeper than the depth "
                 "limit (a cycle with ref=False?)", WIRE_E_DEPTH);
      Py_DECREF(off);
    }
    return -1;
  }
  return 0;
}

/* n bytes from s to d, without reading past s + n (short text). */
static inline void copy_short(uint8_t *d, const uint8_t *s, size_t n) {
  if (n >= 8) {
    uint64_t w;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      memcpy(&w, s + i, 8);
      memcpy(d + i, &w, 8);
    }
    if (i < n) {               /* the last 8 bytes again, overlapping */
      memcpy(&w, s + n - 8, 8);
      memcpy(d + n - 8, &w, 8);
    }
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
  } else {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  }
}

/* The usual elements of lists and maps written inline: compact ASCII
 * strings (as enc_str writes them), ints that fit int64_t as VARINT64 and
 * floats as FLOAT64 when no declared type says otherwise; anything else
 * through enc(). */
static inline __attribute__((always_inline)) int
enc_fast(Codec *c, PyObject *o, const hint *h) {
  PyTypeObject *tp = Py_TYPE(o);
  if (tp == &PyUnicode_Type && PyUnicode_IS_COMPACT_ASCII(o)) {
    size_t n = (size_t)PyUnicode_GET_LENGTH(o);
    if (n < 64) {
      if (c->tcap - c->tlen < 6 + n && grow(c, 6 + n)) return -1;
      uint8_t *q = c->t + c->tlen;
      uint32_t n32 = (uint32_t)n;
      q[0] = WIRE_T_STRING;
      q[1] = WIRE_TAPE_STR_JAVA | WIRE_STR_LATIN1;
      memcpy(q + 2, &n32, 4);
      copy_short(q + 6, (const uint8_t *)(((PyASCIIObject *)o) + 1), n);
      c->tlen += 6 + n;
      return 0;
    }
    return enc_str(c, o);
  }
  if (!h || h->tid == WIRE_T_UNKNOWN) {
    long long v;
    if (tp == &PyLong_Type && lw_long_i64(o, &v)) {
      NEED(c, 9);
      uint8_t *q = c->t + c->tlen;
      q[0] = WIRE_T_VARINT64;
      memcpy(q + 1, &v, 8);
      c->tlen += 9;
      return 0;
    }
    if (tp == &PyFloat_Type) {
      NEED(c, 9);
      uint8_t *q = c->t + c->tlen;
      double d = PyFloat_AS_DOUBLE(o);
      q[0] = WIRE_T_FLOAT64;
      memcpy(q + 1, &d, 8);
      c->tlen += 9;
      return 0;
    }
  }
  return enc(c, o, h);
}

static int enc_seq(Codec *c, PyObject *o, uint8_t op, const hint *eh) {
  int s = shared(c, o);
  if (s) return s < 0 ? -1 : 0;
  if (enter(c)) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
  PyObject **items = PySequence_Fast_ITEMS(o);
  NEED(c, 5);
  put8(c, op);
  put32(c, (uint32_t)n);
  for (Py_ssize_t i = 0; i < n; i++)
    if (enc_fast(c, items[i], eh)) return -1;
  c->depth--;
  return 0;
}

static int enc_set(Codec *c, PyObject *o, const hint *eh) {
  int s = shared(c, o);
  if (s) return s < 0 ? -1 : 0;
  if (enter(c)) return -1;
  NEED(c, 5);
  put8(c, WIRE_T_SET);
  put32(c, (uint32_t)PySet_GET_SIZE(o));
  Py_ssize_t pos = 0;
  PyObject *k;
  Py_hash_t hash;
  while (_PySet_NextEntry(o, &pos, &k, &hash))
    if (enc_fast(c, k, eh)) return -1;
  c->depth--;
  return 0;
}

static int enc_dict(Codec *c, PyObject *o, const hint *h) {
  int s = shared(c, o);
  if (s) return s < 0 ? -1 : 0;
  if (enter(c)) return -1;
  NEED(c, 5);
  put8(c, WIRE_T_MAP);
  put32(c, (uint32_t)PyDict_GET_SIZE(o));
  const hint *kh = h ? h->key : NULL, *vh = h ? h->val : NULL;
  Py_ssize_t pos = 0;
  PyObject *k, *v;
  while (PyDict_Next(o, &pos, &k, &v)) {
    if (enc_fast(c, k, kh) || enc_fast(c, v, vh)) return -1;
  }
  c->depth--;
  return 0;
}

/* Bytes of any buffer as BINARY (one copy, into the tape). */
static int enc_buffer(Codec *c, PyObject *o, uint8_t op) {
  Py_buffer b;
  if (PyObject_GetBuffer(o, &b, PyBUF_SIMPLE)) {
    PyErr_Clear();
    if (PyObject_GetBuffer(o, &b, PyBUF_FULL_RO)) return -1;
    /* not contiguous: take a copy */
    PyBuffer_Release(&b);
    PyObject *copy = PyBytes_FromObject(o);
    if (!copy) return -1;
    int r = enc_buffer(c, copy, op);
    Py_DECREF(copy);
    return r;
  }
  if ((uint64_t)b.len > 0xFFFFFFFFu) {
    PyBuffer_Release(&b);
    lw_fail(c, "limit", WIRE_E_LIMIT, "a binary of 4 GiB or more");
    return -1;
  }
  if (c->tlen + 5 + (size_t)b.len > c->tcap && grow(c, 5 + (size_t)b.len)) {
    PyBuffer_Release(&b);
    return -1;
  }
  put8(c, op);
  put32(c, (uint32_t)b.len);
  putn(c, b.buf, (size_t)b.len);
  PyBuffer_Release(&b);
  return 0;
}

static PyTypeObject *array_type;   /* array.array */

int lw_is_array(PyObject *o) { return Py_TYPE(o) == array_type; }

static uint32_t array_tid(PyObject *o) {
  Py_buffer b;
  if (PyObject_GetBuffer(o, &b, PyBUF_FORMAT | PyBUF_ND)) {
    PyErr_Clear();
    return 0;
  }
  uint32_t t = 0;
  const char *fmt = b.format ? b.format : "B";
  if (*fmt == '@' || *fmt == '=' || *fmt == '<'
#if !PY_LITTLE_ENDIAN
      || *fmt == '>' || *fmt == '!'
#endif
      )
    fmt++;
  char f = fmt[0] && !fmt[1] ? fmt[0] : 0;   /* one native element type */
  int sz = (int)b.itemsize;
  PyBuffer_Release(&b);
  switch (f) {
  case 'b': case 'h': case 'i': case 'l': case 'q':
    t = sz == 1 ? WIRE_T_INT8_ARRAY : sz == 2 ? WIRE_T_INT16_ARRAY
        : sz == 4 ? WIRE_T_INT32_ARRAY : WIRE_T_INT64_ARRAY;
    break;
  case 'B': case 'H': case 'I': case 'L': case 'Q':
    t = sz == 1 ? WIRE_T_UINT8_ARRAY : sz == 2 ? WIRE_T_UINT16_ARRAY
        : sz == 4 ? WIRE_T_UINT32_ARRAY : WIRE_T_UINT64_ARRAY;
    break;
  case 'f': t = WIRE_T_FLOAT32_ARRAY; break;
  case 'd': t = WIRE_T_FLOAT64_ARRAY; break;
  default: break;
  }
  return t;
}

/* A list of numbers for a declared dense array: the elements converted to
 * its element width. */
static int enc_list_as_array(Codec *c, PyObject *seq, uint32_t tid) {
  uint32_t w = wire_type_array_width(tid);
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject **it = PySequence_Fast_ITEMS(seq);
  int s = shared(c, seq);
  if (s) return s < 0 ? -1 : 0;
  NEED(c, 5 + (size_t)n * w);
  put8(c, (uint8_t)tid);
  put32(c, (uint32_t)(n * w));
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *e = it[i];
    uint8_t *p = c->t + c->tlen;
    if (tid == WIRE_T_BOOL_ARRAY) {
      int b = PyObject_IsTrue(e);
      if (b < 0) return -1;
      p[0] = (uint8_t)b;
    } else if (tid == WIRE_T_FLOAT32_ARRAY || tid == WIRE_T_FLOAT64_ARRAY) {
      double d = PyFloat_AsDouble(e);
      if (d == -1.0 && PyErr_Occurred()) return -1;
      if (tid == WIRE_T_FLOAT32_ARRAY) {
        uint32_t u = lw_f32_narrow(d);
        for (int k = 0; k < 4; k++) p[k] = (uint8_t)(u >> (8 * k));
      } else {
        uint64_t u;
        memcpy(&u, &d, 8);
        for (int k = 0; k < 8; k++) p[k] = (uint8_t)(u >> (8 * k));
      }
    } else if (tid >= WIRE_T_INT8_ARRAY && tid <= WIRE_T_UINT64_ARRAY) {
      if (!PyLong_Check(e)) {
        lw_fail(c, "value", WIRE_E_VALUE, "field %s: %R is not an int",
                c->field ? c->field : "?", e);
        return -1;
      }
      /* range check through the scalar path, then take its bits */
      uint32_t et = tid <= WIRE_T_INT64_ARRAY
                        ? (uint32_t[]){WIRE_T_INT8, WIRE_T_INT16, WIRE_T_INT32,
                                       WIRE_T_INT64}[tid - WIRE_T_INT8_ARRAY]
                        : (uint32_t[]){WIRE_T_UINT8, WIRE_T_UINT16,
                                       WIRE_T_UINT32, WIRE_T_UINT64}
                              [tid - WIRE_T_UINT8_ARRAY];
      size_t save = c->tlen;
      if (enc_int(c, e, et)) return -1;
      uint8_t tmp[8];
      memcpy(tmp, c->t + save + 1, 8);
      c->tlen = save;
      p = c->t + c->tlen;
      memcpy(p, tmp, w);
    } else {
      lw_fail(c, "unsupported", WIRE_E_UNSUPPORTED,
              "field %s: a list cannot be written as a %s",
              c->field ? c->field : "?", wire_type_name(tid));
      return -1;
    }
    c->tlen += w;
  }
  return 0;
}

static int enc_struct(Codec *c, PyObject *o, splan *p) {
  int s = shared(c, o);
  if (s) return s < 0 ? -1 : 0;
  if (enter(c)) return -1;
  NEED(c, 9);
  put8(c, WIRE_TAPE_STRUCT_IDX);
  put32(c, p->type);
  put32(c, p->n);
  const char *saved = c->field;
  /* Instances with a __dict__: read the fields from it (one dict lookup
   * with an interned name each) unless the class has data descriptors. */
  PyObject *dict = p->use_dict ? PyObject_GenericGetDict(o, NULL) : NULL;
  if (!dict) PyErr_Clear();
  for (uint32_t i = 0; i < p->n; i++) {
    c->field = p->fname[i];
    PyObject *v;
    if (!p->attr[i]) {
      NEED(c, 1);
      put8(c, WIRE_TAPE_NULL);
      continue;
    }
    if (p->slot[i] >= 0) {
      v = *(PyObject **)((char *)o + p->slot[i]);
      if (!v) {
        NEED(c, 1);
        put8(c, WIRE_TAPE_NULL);
        continue;
      }
      Py_INCREF(v);
    } else if (dict) {
      v = PyDict_GetItemWithError(dict, p->attr[i]);
      if (v) {
        Py_INCREF(v);
      } else {
        if (PyErr_Occurred()) goto fail;
        v = PyObject_GetAttr(o, p->attr[i]);   /* a property, a default */
        if (!v) goto fail;
      }
    } else {
      v = PyObject_GetAttr(o, p->attr[i]);
      if (!v) goto fail;
    }
    int r = enc(c, v, p->hints[i]);
    Py_DECREF(v);
    if (r) goto fail;
  }
  Py_XDECREF(dict);
  c->field = saved;
  c->depth--;
  return 0;
fail:
  Py_XDECREF(dict);
  return -1;
}

static int enc_enum(Codec *c, PyObject *o, eplan *p) {
  for (Py_ssize_t i = 0; i < p->n; i++) {
    if (p->member[i] == o) {
      if (i >= p->nw) {          /* a member the schema enum lacks */
        PyObject *num = PyLong_FromUnsignedLong(p->value[i]);
        if (num) lw_enum_refuse(c, p->type, num);
        Py_XDECREF(num);
        return -1;
      }
      NEED(c, 9);
      put8(c, WIRE_T_ENUM);
      put32(c, p->type);
      put32(c, p->value[i]);
      return 0;
    }
  }
  lw_fail(c, "value", WIRE_E_VALUE, "%R is not a member of its enum", o);
  return -1;
}

PyObject *lw_plan_of_type(Codec *c, PyTypeObject *tp) {
  PyObject *plan = PyDict_GetItemWithError(c->classes, (PyObject *)tp);
  if (!plan) {
    if (PyErr_Occurred()) return NULL;
    PyObject *r = PyObject_CallOneArg(c->h_register, (PyObject *)tp);
    if (!r) return NULL;
    Py_DECREF(r);
    plan = PyDict_GetItemWithError(c->classes, (PyObject *)tp);
    if (!plan) {
      if (PyErr_Occurred() ||
          PyDict_SetItem(c->classes, (PyObject *)tp, Py_False))
        return NULL;
    }
  }
  return plan && PyCapsule_CheckExact(plan) ? plan : NULL;
}

/* A WireError of a value inside a struct's field (no wire type, an
 * unregistered enum, ...) prefixed with the field, "field ns.T.f: ", as
 * libwire names a field's refusal; one named already is left so (the
 * innermost field names it). -1. */
static int name_field_error(Codec *c) {
  if (!c->field || !PyErr_ExceptionMatches(c->h_error)) return -1;
  PyObject *t, *v, *tb;
  PyErr_Fetch(&t, &v, &tb);
  PyErr_NormalizeException(&t, &v, &tb);
  PyObject *msg = v ? PyObject_GetAttrString(v, "message") : NULL;
  PyObject *cls = msg ? PyObject_GetAttrString(v, "cls") : NULL;
  PyObject *off = cls ? PyObject_GetAttrString(v, "offset") : NULL;
  PyObject *code = off ? PyObject_GetAttrString(v, "code") : NULL;
  const char *m = msg && PyUnicode_Check(msg) ? PyUnicode_AsUTF8(msg) : NULL;
  PyObject *e = NULL;
  PyObject *named = code && m && strncmp(m, "field ", 6) != 0
                        ? PyUnicode_FromFormat("field %s: %s", c->field, m)
                        : NULL;
  if (named)
    e = PyObject_CallFunctionObjArgs(c->h_error, cls, off, named, code, NULL);
  Py_XDECREF(named);
  Py_XDECREF(msg);
  Py_XDECREF(cls);
  Py_XDECREF(off);
  Py_XDECREF(code);
  if (!e) {
    PyErr_Clear();
    PyErr_Restore(t, v, tb);
    return -1;
  }
  Py_XDECREF(t);
  Py_XDECREF(v);
  Py_XDECREF(tb);
  PyErr_SetObject(c->h_error, e);
  Py_DECREF(e);
  return -1;
}

/* Objects the C walk does not know: ask the hooks. */
static int enc_other(Codec *c, PyObject *o, const hint *h) {
  PyTypeObject *tp = Py_TYPE(o);
  PyObject *plan = lw_plan_of_type(c, tp);
  if (!plan && PyErr_Occurred()) return -1;
  if (plan) {
    if (PyCapsule_IsValid(plan, "libwire.splan"))
      return enc_struct(c, o, PyCapsule_GetPointer(plan, "libwire.splan"));
    return enc_enum(c, o, PyCapsule_GetPointer(plan, "libwire.eplan"));
  }
  /* typed wrappers */
  if (PyLong_Check(o) && !PyBool_Check(o)) {
    PyObject *wt = PyObject_GetAttrString((PyObject *)tp, "wire_type");
    if (!wt) {
      PyErr_Clear();
      return enc_int(c, o, h && is_int_tid(h->tid) ? h->tid : WIRE_T_VARINT64);
    }
    long t = PyLong_AsLong(wt);
    Py_DECREF(wt);
    if (h && is_int_tid(h->tid)) t = h->tid;
    return enc_int(c, o, (uint32_t)t);
  }
  if (PyFloat_Check(o)) {
    PyObject *wt = PyObject_GetAttrString((PyObject *)tp, "wire_type");
    long t = WIRE_T_FLOAT64;
    if (wt) {
      t = PyLong_AsLong(wt);
      Py_DECREF(wt);
    } else {
      PyErr_Clear();
    }
    if (h && is_float_tid(h->tid)) t = h->tid;
    return enc_float(c, o, (uint32_t)t);
  }
  if (PyObject_TypeCheck(o, array_type)) {
    uint32_t t = array_tid(o);
    if (!t) {
      lw_fail(c, "unsupported", WIRE_E_UNSUPPORTED,
              "array.array of this typecode has no wire type");
      return -1;
    }
    int s = shared(c, o);
    if (s) return s < 0 ? -1 : 0;
    return enc_buffer(c, o, (uint8_t)t);
  }
  /* other buffers of numbers (numpy arrays, ...): dense arrays */
  if (PyObject_CheckBuffer(o)) {
    uint32_t t = array_tid(o);
    if (t) {
      int s = shared(c, o);
      if (s) return s < 0 ? -1 : 0;
      return enc_buffer(c, o, (uint8_t)t);
    }
  }
  /* hooks.encode(obj, declared type id) -> (shareable, head, pairs) */
  PyObject *r = PyObject_CallFunction(c->h_encode, "OI", o,
                                      (unsigned)(h ? h->tid : 0));
  if (!r) return name_field_error(c);
  if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 3) {
    Py_DECREF(r);
    PyErr_SetString(PyExc_TypeError, "hooks.encode must return a 3-tuple");
    return -1;
  }
  int rc = -1;
  const char *saved = c->field;
  PyObject *head = PyTuple_GET_ITEM(r, 1), *pairs = PyTuple_GET_ITEM(r, 2);
  if (PyObject_IsTrue(PyTuple_GET_ITEM(r, 0))) {
    int s = shared(c, o);
    if (s) {
      Py_DECREF(r);
      return s < 0 ? -1 : 0;
    }
  }
  if (!PyBytes_Check(head)) goto done;
  Py_ssize_t hn = PyBytes_GET_SIZE(head);
  if (c->tlen + (size_t)hn > c->tcap && grow(c, (size_t)hn)) goto done;
  putn(c, PyBytes_AS_STRING(head), (size_t)hn);
  if (pairs != Py_None) {
    if (enter(c)) goto done;
    Py_ssize_t n = PyTuple_GET_SIZE(pairs);
    for (Py_ssize_t i = 0; i < n; i++) {
      PyObject *pr = PyTuple_GET_ITEM(pairs, i);
      PyObject *pre = PyTuple_GET_ITEM(pr, 0);
      Py_ssize_t pn = PyBytes_GET_SIZE(pre);
      if (c->tlen + (size_t)pn > c->tcap && grow(c, (size_t)pn)) goto done;
      putn(c, PyBytes_AS_STRING(pre), (size_t)pn);
      /* a generic Struct's field: (prefix, value, b"ns.Type.field"), the
       * name for the messages of the walk (an enum's number, ...) */
      if (PyTuple_GET_SIZE(pr) > 2)
        c->field = PyBytes_AS_STRING(PyTuple_GET_ITEM(pr, 2));
      if (enc(c, PyTuple_GET_ITEM(pr, 1), NULL)) goto done;
    }
    c->depth--;
  }
  rc = 0;
done:
  c->field = saved;     /* (the names live in r) */
  Py_DECREF(r);
  return rc;
}

static int enc(Codec *c, PyObject *o, const hint *h) {
  PyTypeObject *tp = Py_TYPE(o);
  if (tp == &PyUnicode_Type) return enc_str(c, o);
  if (tp == &PyLong_Type)
    return enc_int(c, o, h && is_int_tid(h->tid) ? h->tid : WIRE_T_VARINT64);
  if (tp == &PyFloat_Type) {
    NEED(c, 9);
    put8(c, (uint8_t)(h && is_float_tid(h->tid) ? h->tid : WIRE_T_FLOAT64));
    putd(c, PyFloat_AS_DOUBLE(o));
    return 0;
  }
  if (tp == &PyBool_Type) {
    NEED(c, 2);
    put8(c, WIRE_T_BOOL);
    put8(c, o == Py_True);
    return 0;
  }
  if (o == Py_None) {
    NEED(c, 1);
    put8(c, WIRE_TAPE_NULL);
    return 0;
  }
  if (tp == &PyList_Type || tp == &PyTuple_Type) {
    if (h && h->tid >= WIRE_T_BOOL_ARRAY && h->tid <= WIRE_T_FLOAT64_ARRAY)
      return enc_list_as_array(c, o, h->tid);
    return enc_seq(c, o, h && h->tid == WIRE_T_SET ? WIRE_T_SET : WIRE_T_LIST,
                   h ? h->elem : NULL);
  }
  if (tp == &PyDict_Type) return enc_dict(c, o, h);
  if (tp == &PyBytes_Type || tp == &PyByteArray_Type ||
      tp == &PyMemoryView_Type) {
    int s = shared(c, o);
    if (s) return s < 0 ? -1 : 0;
    uint8_t op = WIRE_T_BINARY;
    /* in a slot declared as a dense array, the bytes are its elements
     * (libwire writes a value only as its declared type) */
    if (h && h->tid >= WIRE_T_BOOL_ARRAY && h->tid <= WIRE_T_FLOAT64_ARRAY)
      op = (uint8_t)h->tid;
    return enc_buffer(c, o, op);
  }
  if (tp == &PySet_Type || tp == &PyFrozenSet_Type)
    return enc_set(c, o, h ? h->elem : NULL);
  return enc_other(c, o, h);
}

/* Writes the tape of `roots` (a sequence) into c->t. */
static int write_tape(Codec *c, PyObject *roots) {
  c->tlen = 0;
  c->depth = 0;
  c->nshare = 0;
  c->field = NULL;
  uint64_t lim = wire_ctx_get_limit(c->ctx, WIRE_LIMIT_DEPTH);
  c->max_depth = lim > 100000 ? 100000 : (size_t)lim + 1;
  PyObject *seq = PySequence_Fast(roots, "roots must be a sequence");
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int rc = -1;
  if (grow(c, 8)) goto done;
  put8(c, 'W');
  put8(c, 'T');
  put8(c, WIRE_TAPE_VERSION);
  put8(c, 0);
  put32(c, (uint32_t)n);
  for (Py_ssize_t i = 0; i < n; i++)
    if (enc(c, PySequence_Fast_GET_ITEM(seq, i), NULL)) goto done;
  rc = 0;
done:
  Py_DECREF(seq);
  memo_clear(c);
  return rc;
}

/* The codec's buffers hold one message at a time: a call made from inside
 * another (a property or a default factory that calls dumps/loads on the
 * same Context) fails instead of overwriting them. */
static int acquire(Codec *c) {
  if (!c->ctx) {
    lw_error(c, "state", Py_None, "the Context is closed", WIRE_E_STATE);
    return -1;
  }
  if (c->busy) {
    lw_error(c, "state", Py_None, "dumps/loads called on a Context from "
               "inside its own dumps/loads", WIRE_E_STATE);
    return -1;
  }
  c->busy = 1;
  return 0;
}

static void clear_plans(Codec *c);

static void release(Codec *c) {
  c->busy = 0;
  if (c->clear_pending) {
    c->clear_pending = 0;
    clear_plans(c);
  }
}

/* Brings the class registrations up to date before a call (the hooks run
 * Context._sync) when the global registry, the Context's registrations or
 * its schemas changed since the last one. */
static int sync_regs(Codec *c) {
  long v = c->seen_version;
  if (c->reg_version && PyList_CheckExact(c->reg_version) &&
      PyList_GET_SIZE(c->reg_version) > 0) {
    v = PyLong_AsLong(PyList_GET_ITEM(c->reg_version, 0));
    if (v == -1 && PyErr_Occurred()) return -1;
  }
  if (v == c->seen_version && !c->stale) return 0;
  PyObject *r = PyObject_CallNoArgs(c->h_sync);
  if (c->clear_pending) {     /* no plan is in use yet */
    c->clear_pending = 0;
    clear_plans(c);
  }
  if (!r) return -1;
  Py_DECREF(r);
  c->seen_version = v;
  c->stale = 0;
  return 0;
}

/* ---- large binaries and dense arrays at the root --------------------- */

/* A root bytes / bytearray / memoryview / array.array of at least BIG_ROOT
 * bytes is written by libwire's streaming writer straight into the
 * returned bytes (or the caller's buffer) and read back straight from the
 * payload: one copy each way instead of three (through the tape). The
 * bytes are the tape path's (header, not-null flag, type id, length,
 * bytes: reference tracking off). */
#define BIG_ROOT 4096

static size_t varu_len(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

/* 0: written (*out set), LW_FALLBACK, -1. */
static int dumps_big(Codec *c, PyObject *obj, PyObject *into,
                     PyObject **out) {
#if PY_LITTLE_ENDIAN
  PyTypeObject *tp = Py_TYPE(obj);
  uint32_t t;
  if (tp == &PyBytes_Type || tp == &PyByteArray_Type ||
      tp == &PyMemoryView_Type) {
    t = WIRE_T_BINARY;
  } else if (tp == array_type) {
    t = array_tid(obj);
    if (!t) return LW_FALLBACK;
  } else {
    return LW_FALLBACK;
  }
  if (tp == &PyBytes_Type && PyBytes_GET_SIZE(obj) < BIG_ROOT)
    return LW_FALLBACK;
  Py_buffer b;
  if (PyObject_GetBuffer(obj, &b, PyBUF_SIMPLE)) {   /* not contiguous */
    PyErr_Clear();
    return LW_FALLBACK;
  }
  if (b.len < BIG_ROOT || (uint64_t)b.len > 0xFFFFFFFFu) {
    PyBuffer_Release(&b);
    return LW_FALLBACK;
  }
  size_t n = (size_t)b.len;
  size_t need = 3 + varu_len(n) + n;   /* t < 0x80: one byte */
  Py_buffer ib;
  uint8_t *dst;
  size_t cap;
  if (into != Py_None) {
    if (PyObject_GetBuffer(into, &ib, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS)) {
      PyBuffer_Release(&b);
      return -1;
    }
    dst = ib.buf;
    cap = (size_t)ib.len;
  } else {
    *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)need);
    if (!*out) {
      PyBuffer_Release(&b);
      return -1;
    }
    dst = (uint8_t *)PyBytes_AS_STRING(*out);
    cap = need;
  }
  int r = 0;
  if (cap < need) {
    lw_buffer_full(c, need);
    r = -1;
  } else {
    wire_writer *w = wire_writer_new(c->ctx, dst, cap);
    if (!w) {
      PyErr_NoMemory();
      r = -1;
    } else {
      wire_write_header(w);
      wire_write_ref_flag(w, -1);
      wire_write_type_id(w, t);
      wire_write_binary(w, b.buf, n);
      int32_t st = wire_writer_status(w);
      size_t size = wire_writer_size(w);
      wire_writer_free(w);
      if (st || size != need) {
        lw_fail(c, "state", WIRE_E_STATE, "streaming writer: status %d, "
                "%zu bytes for %zu", (int)st, size, need);
        r = -1;
      } else if (into != Py_None) {
        *out = PyLong_FromSize_t(need);
        if (!*out) r = -1;
      }
    }
  }
  PyBuffer_Release(&b);
  if (into != Py_None) PyBuffer_Release(&ib);
  else if (r) Py_CLEAR(*out);
  return r;
#else
  (void)c; (void)obj; (void)into; (void)out;
  return LW_FALLBACK;
#endif
}

static const char *array_code(uint32_t op);

/* 0: read (*out set), LW_FALLBACK (the tape path reads it and reports any
 * error), -1. */
static int loads_big(Codec *c, const uint8_t *d, size_t len, PyObject **out) {
#if PY_LITTLE_ENDIAN
  if (len < BIG_ROOT || d[0] != 0x01 || d[1] != 0xFF) return LW_FALLBACK;
  uint32_t t = d[2];
  const char *code = t == WIRE_T_BINARY ? NULL : array_code(t);
  if (t != WIRE_T_BINARY && !code) return LW_FALLBACK;
  wire_reader *r = wire_reader_new(c->ctx, d, len);
  if (!r) {
    PyErr_NoMemory();
    return -1;
  }
  const uint8_t *p = NULL;
  size_t n = 0;
  wire_read_header(r);
  int32_t flag = wire_read_ref_flag(r);
  uint32_t t2 = wire_read_type_id(r);
  wire_read_binary(r, &p, &n);
  int ok = !wire_reader_status(r) && !wire_reader_remaining(r) &&
           flag == -1 && t2 == t &&
           n <= wire_ctx_get_limit(c->ctx, WIRE_LIMIT_BINARY) &&
           (!code || n % wire_type_array_width(t) == 0);
  wire_reader_free(r);
  wire_ctx_clear_error(c->ctx);
  if (!ok) return LW_FALLBACK;
  if (!code) {
    *out = lw_bytes_from(p, n);
    return *out ? 0 : -1;
  }
  *out = lw_array_from(c, code[0], p, n);
  return *out ? 0 : -1;
#else
  (void)c; (void)d; (void)len; (void)out;
  return LW_FALLBACK;
#endif
}

/* One root value: a registered class through its layout, a large binary
 * or array through the streaming writer, anything else (and what the
 * layouts cannot express) through the tape. */
static PyObject *dumps_one(Codec *c, PyObject *obj, PyObject *into) {
  PyTypeObject *tp = Py_TYPE(obj);
  if (!c->ref && c->layouts) {
    PyObject *out = NULL;
    int r = dumps_big(c, obj, into, &out);
    if (r <= 0) {
      c->n_big_enc += !r;
      return r ? NULL : out;
    }
  }
  if (!c->ref && c->layouts && (tp->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
    PyObject *plan = c->last_plan;
    if (tp != c->last_tp) {
      plan = lw_plan_of_type(c, tp);
      if (!plan && PyErr_Occurred()) return NULL;
      c->last_tp = tp;
      c->last_plan = plan;
    }
    if (plan && PyCapsule_IsValid(plan, "libwire.splan")) {
      PyObject *out = NULL;
      int r = lw_mem_encode(c, obj,
                            PyCapsule_GetPointer(plan, "libwire.splan"), into,
                            &out);
      if (r <= 0) {
        c->n_mem_enc += !r;
        return r ? NULL : out;
      }
    }
  }
  PyObject *roots = PyTuple_Pack(1, obj);
  if (!roots) return NULL;
  PyObject *res = lw_tape_encode(c, roots, into);
  Py_DECREF(roots);
  return res;
}

/* Codec.dumps(obj, into=None) -> bytes, or the length written into the
 * caller's writable buffer. */
static PyObject *Codec_dumps(Codec *c, PyObject *const *args, Py_ssize_t n,
                             PyObject *kwnames) {
  PyObject *obj = n > 0 ? args[0] : NULL, *into = n > 1 ? args[1] : NULL;
  Py_ssize_t nk = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  if (n > 2) {
    PyErr_SetString(PyExc_TypeError, "dumps() takes at most 2 arguments");
    return NULL;
  }
  for (Py_ssize_t k = 0; k < nk; k++) {
    PyObject *name = PyTuple_GET_ITEM(kwnames, k);
    PyObject **dst = PyUnicode_CompareWithASCIIString(name, "into") == 0 ? &into
                     : PyUnicode_CompareWithASCIIString(name, "obj") == 0 ? &obj
                     : NULL;
    if (!dst || *dst) {
      PyErr_Format(PyExc_TypeError, "dumps() got an unexpected or repeated "
                   "argument %R", name);
      return NULL;
    }
    *dst = args[n + k];
  }
  if (!obj) {
    PyErr_SetString(PyExc_TypeError, "dumps() missing the value");
    return NULL;
  }
  if (!into) into = Py_None;
  if (acquire(c)) return NULL;
  PyObject *res = sync_regs(c) ? NULL : dumps_one(c, obj, into);
  release(c);
  return res;
}

/* Codec.encode(roots, into=None) -> bytes, or the length written into the
 * caller's writable buffer. */
static PyObject *Codec_encode(Codec *c, PyObject *args) {
  PyObject *roots, *into = Py_None;
  if (!PyArg_ParseTuple(args, "O|O", &roots, &into)) return NULL;
  if (acquire(c)) return NULL;
  PyObject *res = NULL;
  if (!sync_regs(c)) {
    if (PyTuple_CheckExact(roots) && PyTuple_GET_SIZE(roots) == 1)
      res = dumps_one(c, PyTuple_GET_ITEM(roots, 0), into);
    else
      res = lw_tape_encode(c, roots, into);
  }
  release(c);
  return res;
}

/* Tapes of at least this many bytes are encoded straight into the bytes
 * object returned (lw_tape_encode). */
#define DIRECT_OUT 4096

PyObject *lw_tape_encode(Codec *c, PyObject *roots, PyObject *into) {
  c->n_tape_enc++;
  if (Py_EnterRecursiveCall(" in libwire.dumps")) return NULL;
  int r = write_tape(c, roots);
  Py_LeaveRecursiveCall();
  if (r) return NULL;
  if (into != Py_None) {
    Py_buffer b;
    if (PyObject_GetBuffer(into, &b, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS))
      return NULL;
    wire_writer *w = wire_writer_new(c->ctx, b.buf, (size_t)b.len);
    if (!w) {
      PyBuffer_Release(&b);
      return PyErr_NoMemory();
    }
    int32_t st = wire_encode_tape_to(c->ctx, c->t, c->tlen, w);
    size_t size = wire_writer_size(w);
    wire_writer_free(w);
    PyBuffer_Release(&b);
    if (st == WIRE_E_BUFFER_FULL) {
      wire_ctx_clear_error(c->ctx);
      return lw_buffer_full(c, size);
    }
    if (st) return lw_ctx_fail(c, st);
    return PyLong_FromSize_t(size);
  }
  if (c->tlen >= DIRECT_OUT) {
    /* Large: written straight into a bytes object of twice the tape's
     * size (the room libwire's writers of flat lists and maps ask for; a
     * payload is rarely larger than its tape), then shrunk; a payload
     * that does not fit is written again the usual way. */
    size_t cap = 2 * c->tlen + 64;
    PyObject *res = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)cap);
    if (!res) return NULL;
    wire_writer *w = wire_writer_new(c->ctx, (uint8_t *)PyBytes_AS_STRING(res),
                                     cap);
    if (!w) {
      Py_DECREF(res);
      return PyErr_NoMemory();
    }
    int32_t st = wire_encode_tape_to(c->ctx, c->t, c->tlen, w);
    size_t size = wire_writer_size(w);
    wire_writer_free(w);
    if (!st) {
      if (_PyBytes_Resize(&res, (Py_ssize_t)size)) return NULL;
      return res;
    }
    Py_DECREF(res);
    if (st != WIRE_E_BUFFER_FULL) return lw_ctx_fail(c, st);
    wire_ctx_clear_error(c->ctx);
  }
  if (!c->out) {
    c->out = wire_writer_new(c->ctx, NULL, 0);
    if (!c->out) return PyErr_NoMemory();
  }
  wire_writer_reset(c->out);
  int32_t st = wire_encode_tape_to(c->ctx, c->t, c->tlen, c->out);
  if (st) return lw_ctx_fail(c, st);
  return PyBytes_FromStringAndSize((const char *)wire_writer_data(c->out),
                                   (Py_ssize_t)wire_writer_size(c->out));
}

/* Codec.tape(roots) -> the tape bytes (tests and profiling). */
static PyObject *Codec_tape(Codec *c, PyObject *roots) {
  if (acquire(c)) return NULL;
  PyObject *res = write_tape(c, roots) ? NULL
      : PyBytes_FromStringAndSize((const char *)c->t, (Py_ssize_t)c->tlen);
  release(c);
  return res;
}

/* ---- tape reading --------------------------------------------------- */

static PyObject *bad_tape(Codec *c) {
  return lw_fail(c, "arg", WIRE_E_ARG, "malformed tape at offset %zd",
                 (Py_ssize_t)(c->end - c->p));
}

#define AVAIL(c, n) ((size_t)((c)->end - (c)->p) >= (size_t)(n))

static inline uint32_t get32(const uint8_t *p) {
#if PY_LITTLE_ENDIAN
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
#else
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
         (uint32_t)p[3] << 24;
#endif
}
static inline uint64_t get64(const uint8_t *p) {
#if PY_LITTLE_ENDIAN
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
#else
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
  return v;
#endif
}
static inline uint16_t get16(const uint8_t *p) {
  return (uint16_t)(p[0] | p[1] << 8);
}

static int keep(Codec *c, PyObject *o) {
  if (c->nobjs == c->objs_cap) {
    size_t cap = c->objs_cap ? c->objs_cap * 2 : 64;
    PyObject **t = PyMem_Realloc(c->objs, cap * sizeof *t);
    if (!t) {
      PyErr_NoMemory();
      return -1;
    }
    c->objs = t;
    c->objs_cap = cap;
  }
  Py_INCREF(o);
  c->objs[c->nobjs++] = o;
  return 0;
}

static PyObject *dec(Codec *c, const hint *h);

/* An object the hooks (or a default factory) made, charged at its
 * estimate; NULL stays NULL. */
static PyObject *charged(Codec *c, PyObject *v) {
  if (v && lw_charge(c, lw_obj_est(v))) Py_CLEAR(v);
  return v;
}

/* A generic Struct of nf fields: the object and its fields dict. */
#define LW_EST_STRUCT(nf) (64 + LW_EST_DICT(nf))

static PyObject *hashable(Codec *c, PyObject *k) {
  if (PyObject_Hash(k) != -1) {
    Py_INCREF(k);
    return k;
  }
  PyErr_Clear();
  return PyObject_CallOneArg(c->h_hashable, k);
}

static PyObject *dec_str(Codec *c) {
  if (!AVAIL(c, 5)) return bad_tape(c);
  uint8_t e = c->p[0];
  uint32_t n = get32(c->p + 1);
  c->p += 5;
  if (!AVAIL(c, n)) return bad_tape(c);
  const char *s = (const char *)c->p;
  c->p += n;
  PyObject *v;
  switch (e & 3) {
  case 0: v = lw_str_latin1(s, n); break;
  case 1: {
    int bo = -1;
    v = PyUnicode_DecodeUTF16(s, n, "surrogatepass", &bo);
    break;
  }
  default: v = PyUnicode_DecodeUTF8(s, n, "surrogatepass"); break;
  }
  if (v && lw_charge(c, LW_EST_STR(PyUnicode_GET_LENGTH(v),
                                   PyUnicode_KIND(v))))
    Py_CLEAR(v);
  return v;
}

static PyObject *wrap_num(Codec *c, PyObject *classes, uint32_t op,
                          PyObject *v) {
  (void)c;
  PyObject *key = PyLong_FromUnsignedLong(op);
  if (!key) {
    Py_DECREF(v);
    return NULL;
  }
  PyObject *cls = PyDict_GetItemWithError(classes, key);
  Py_DECREF(key);
  if (!cls) return v;
  PyObject *r = PyObject_CallOneArg(cls, v);
  Py_DECREF(v);
  return r;
}

splan *lw_class_plan(Codec *c, uint32_t ti, eplan **ep) {
  *ep = NULL;
  PyObject *key = PyLong_FromUnsignedLong(ti);
  if (!key) return NULL;
  PyObject *cap = PyDict_GetItemWithError(c->types, key);
  if (!cap && !PyErr_Occurred()) {
    PyObject *r = PyObject_CallOneArg(c->h_class_of, key);
    if (r) {
      Py_DECREF(r);
      cap = PyDict_GetItemWithError(c->types, key);
      if (!cap && !PyErr_Occurred()) {
        PyDict_SetItem(c->types, key, Py_None);
      }
    }
  }
  Py_DECREF(key);
  if (!cap || !PyCapsule_CheckExact(cap)) return NULL;
  if (PyCapsule_IsValid(cap, "libwire.eplan")) {
    *ep = PyCapsule_GetPointer(cap, "libwire.eplan");
    return NULL;
  }
  return PyCapsule_GetPointer(cap, "libwire.splan");
}

int lw_set_field(PyObject *o, splan *p, uint32_t i, PyObject *v) {
  if (p->slot[i] >= 0) {
    PyObject **slot = (PyObject **)((char *)o + p->slot[i]);
    PyObject *old = *slot;
    Py_INCREF(v);
    *slot = v;
    Py_XDECREF(old);
    return 0;
  }
  return PyObject_GenericSetAttr(o, p->attr[i], v);
}

PyObject *lw_new_instance(PyObject *cls) {
  PyTypeObject *tp = (PyTypeObject *)cls;
  PyObject *args = PyTuple_New(0);
  if (!args) return NULL;
  PyObject *o = tp->tp_new(tp, args, NULL);
  Py_DECREF(args);
  return o;
}

static PyObject *dec_struct_idx(Codec *c) {
  if (!AVAIL(c, 8)) return bad_tape(c);
  uint32_t ti = get32(c->p), nf = get32(c->p + 4);
  c->p += 8;
  eplan *ep;
  splan *p = lw_class_plan(c, ti, &ep);
  if (!p && PyErr_Occurred()) return NULL;
  if (!p || p->n != nf) {
    /* no class: a generic Struct and its wire names from the hooks */
    if (lw_charge(c, LW_EST_STRUCT(nf))) return NULL;
    PyObject *r = PyObject_CallFunction(c->h_decode, "iI", WIRE_TAPE_STRUCT_IDX, ti);
    if (!r) return NULL;
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2 ||
        !PyList_Check(PyTuple_GET_ITEM(r, 1))) {
      Py_DECREF(r);
      PyErr_SetString(PyExc_TypeError, "hooks.decode: (Struct, names)");
      return NULL;
    }
    PyObject *st = Py_NewRef(PyTuple_GET_ITEM(r, 0));
    PyObject *names = Py_NewRef(PyTuple_GET_ITEM(r, 1));
    Py_DECREF(r);
    PyObject *fields = PyObject_GetAttrString(st, "fields");
    if (!fields || keep(c, st)) goto fail_st;
    for (uint32_t i = 0; i < nf; i++) {
      PyObject *v = dec(c, NULL);
      if (!v) goto fail_st;
      int rc = 0;
      if (v != Py_None && i < (uint32_t)PyList_GET_SIZE(names))
        rc = PyDict_SetItem(fields, PyList_GET_ITEM(names, i), v);
      Py_DECREF(v);
      if (rc) goto fail_st;
    }
    Py_DECREF(names);
    Py_DECREF(fields);
    return st;
  fail_st:
    Py_XDECREF(fields);
    Py_DECREF(names);
    Py_DECREF(st);
    return NULL;
  }
  if (lw_charge(c, p->est)) return NULL;
  PyObject *o = lw_new_instance(p->cls);
  if (!o) return NULL;
  if (keep(c, o)) goto fail;
  for (uint32_t i = 0; i < nf; i++) {
    PyObject *v = dec(c, p->hints[i]);
    if (!v) goto fail;
    int r = p->attr[i] ? lw_set_field(o, p, i, v) : 0;
    Py_DECREF(v);
    if (r) goto fail;
  }
  return o;
fail:
  Py_DECREF(o);
  return NULL;
}

/* Field i's name: a new str, or for a generic Struct's fields (keep) the
 * str of the same place in the last Struct read by name in this decode
 * when its text is the same (a read tape repeats the names at every
 * struct: one str each would make a one-byte item cost its names). */
static PyObject *field_name(Codec *c, int keep_it, uint32_t i, const char *s,
                            uint16_t n) {
  if (!keep_it) return PyUnicode_DecodeUTF8(s, n, NULL);
  PyObject *l = c->names_last;
  if (l && i < (uint32_t)PyList_GET_SIZE(l)) {
    PyObject *k = PyList_GET_ITEM(l, i);
    Py_ssize_t kl;
    const char *ks = PyUnicode_AsUTF8AndSize(k, &kl);
    if (!ks) return NULL;
    if (kl == (Py_ssize_t)n && memcmp(ks, s, n) == 0) return Py_NewRef(k);
  }
  PyObject *name = PyUnicode_DecodeUTF8(s, n, NULL);
  if (!name) return NULL;
  if (lw_charge(c, LW_EST_STR(n, 1))) {
    Py_DECREF(name);
    return NULL;
  }
  if (!l) {
    l = c->names_last = PyList_New(0);
    if (!l) {
      Py_DECREF(name);
      return NULL;
    }
  }
  if (i < (uint32_t)PyList_GET_SIZE(l)) {
    PyList_SetItem(l, i, Py_NewRef(name));
  } else if (i == (uint32_t)PyList_GET_SIZE(l) && PyList_Append(l, name)) {
    Py_DECREF(name);
    return NULL;
  }
  return name;
}

/* STRUCT (0x1B) and STRUCT_TD: fields by name. */
static PyObject *dec_struct_named(Codec *c, uint8_t op) {
  const uint8_t *td = NULL;
  uint32_t tdn = 0;
  if (op == WIRE_TAPE_STRUCT_TD) {
    if (!AVAIL(c, 4)) return bad_tape(c);
    tdn = get32(c->p);
    c->p += 4;
    if (!AVAIL(c, tdn)) return bad_tape(c);
    td = c->p;
    c->p += tdn;
  }
  if (!AVAIL(c, 4)) return bad_tape(c);
  uint32_t ti = get32(c->p);
  c->p += 4;
  PyObject *ident = NULL;
  if (ti == NO_TYPE) {
    if (!AVAIL(c, 6)) return bad_tape(c);
    uint32_t uid = get32(c->p);
    uint16_t nn = get16(c->p + 4);
    c->p += 6;
    if (!AVAIL(c, nn + 2)) return bad_tape(c);
    const char *ns = (const char *)c->p;
    c->p += nn;
    uint16_t mn = get16(c->p);
    c->p += 2;
    if (!AVAIL(c, mn)) return bad_tape(c);
    ident = Py_BuildValue("(Is#s#)", uid, ns, (Py_ssize_t)nn,
                          (const char *)c->p, (Py_ssize_t)mn);
    c->p += mn;
    if (!ident) return NULL;
  }
  splan *p = NULL;
  if (ti != NO_TYPE) {
    eplan *ep;
    p = lw_class_plan(c, ti, &ep);
    if (!p && PyErr_Occurred()) return NULL;
  }
  if (!AVAIL(c, 4)) {
    Py_XDECREF(ident);
    return bad_tape(c);
  }
  uint32_t nf = get32(c->p);
  c->p += 4;
  if (lw_charge(c, p ? p->est : LW_EST_STRUCT(nf))) {
    Py_XDECREF(ident);
    return NULL;
  }
  PyObject *o, *fields = NULL;
  if (p) {
    o = lw_new_instance(p->cls);
  } else {
    /* the TypeDef's bytes: one object for the Structs of this decode
     * that were read with the same TypeDef (a read tape repeats a shared
     * TypeDef at every struct; one bytes object each would make a
     * one-byte item cost a whole TypeDef) */
    PyObject *tdb;
    if (!td) {
      tdb = Py_NewRef(Py_None);
    } else if (c->td_last && PyBytes_GET_SIZE(c->td_last) == (Py_ssize_t)tdn &&
               memcmp(PyBytes_AS_STRING(c->td_last), td, tdn) == 0) {
      tdb = Py_NewRef(c->td_last);
    } else {
      tdb = lw_charge(c, LW_EST_BYTES(tdn)) ? NULL
          : PyBytes_FromStringAndSize((const char *)td, tdn);
      if (tdb) Py_XSETREF(c->td_last, Py_NewRef(tdb));
    }
    if (!tdb) {
      Py_XDECREF(ident);
      return NULL;
    }
    o = PyObject_CallFunction(c->h_decode, "iIOO", op, ti,
                              ident ? ident : Py_None, tdb);
    Py_DECREF(tdb);
    if (o) fields = PyObject_GetAttrString(o, "fields");
    if (o && !fields) Py_CLEAR(o);
  }
  Py_XDECREF(ident);
  if (!o) return NULL;
  uint8_t seen_small[64] = {0};
  uint8_t *seen = seen_small;
  if (p && p->n > sizeof seen_small) {
    seen = PyMem_Calloc(p->n, 1);
    if (!seen) {
      Py_DECREF(o);
      return PyErr_NoMemory();
    }
  }
  if (keep(c, o)) goto fail;
  for (uint32_t i = 0; i < nf; i++) {
    if (!AVAIL(c, 2)) {
      bad_tape(c);
      goto fail;
    }
    uint16_t n = get16(c->p);
    c->p += 2;
    if (!AVAIL(c, n)) {
      bad_tape(c);
      goto fail;
    }
    PyObject *name = field_name(c, fields != NULL, i, (const char *)c->p, n);
    c->p += n;
    if (!name) goto fail;
    long fi = -1;
    if (p) {
      PyObject *ix = PyDict_GetItemWithError(p->by_name, name);
      if (ix) fi = PyLong_AsLong(ix);
      else if (PyErr_Occurred()) {
        Py_DECREF(name);
        goto fail;
      }
    }
    PyObject *v = dec(c, fi >= 0 ? p->hints[fi] : NULL);
    if (!v) {
      Py_DECREF(name);
      goto fail;
    }
    int r = 0;
    if (fields) {
      r = PyDict_SetItem(fields, name, v);
    } else if (fi >= 0 && p->attr[fi]) {
      r = lw_set_field(o, p, (uint32_t)fi, v);
      seen[fi] = 1;
    }
    Py_DECREF(name);
    Py_DECREF(v);
    if (r) goto fail;
  }
  if (p) {
    for (uint32_t i = 0; i < p->n; i++) {
      if (seen[i] || !p->attr[i]) continue;
      PyObject *v = p->factory[i]
                    ? charged(c, PyObject_CallNoArgs(p->factory[i]))
                    : Py_NewRef(p->dflt[i] ? p->dflt[i] : Py_None);
      if (!v) goto fail;
      int r = lw_set_field(o, p, i, v);
      Py_DECREF(v);
      if (r) goto fail;
    }
  }
  if (seen != seen_small) PyMem_Free(seen);
  Py_XDECREF(fields);
  return o;
fail:
  if (seen != seen_small) PyMem_Free(seen);
  Py_XDECREF(fields);
  Py_DECREF(o);
  return NULL;
}

/* Whether s[0..n) is ASCII, reading only those bytes. */
static inline int ascii_short(const uint8_t *s, size_t n) {
  const uint64_t hi = UINT64_C(0x8080808080808080);
  uint64_t acc = 0, w;
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      memcpy(&w, s + i, 8);
      acc |= w;
    }
    memcpy(&w, s + n - 8, 8);
    acc |= w;
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    acc = a | b;
  } else {
    for (size_t i = 0; i < n; i++) acc |= s[i];
  }
  return !(acc & hi);
}

/* The usual elements of lists and maps read inline: short ASCII strings
 * (Latin-1 on the wire) into new compact str objects, VARINT64 ints;
 * anything else through dec(), which gives the same objects. */
static inline __attribute__((always_inline)) PyObject *
dec_fast(Codec *c, const hint *h) {
  const uint8_t *p = c->p;
  size_t left = (size_t)(c->end - p);
  if (left >= 6 && p[0] == WIRE_T_STRING && p[1] == WIRE_STR_LATIN1) {
    uint32_t n = get32(p + 2);
    const uint8_t *s = p + 6;
    if (n <= left - 6 && n < 64 && ascii_short(s, n)) {
      if (lw_charge(c, LW_EST_STR(n, 1))) return NULL;
      PyObject *u = PyUnicode_New((Py_ssize_t)n, 127);
      if (!u) return NULL;
      copy_short(PyUnicode_1BYTE_DATA(u), s, n);
      c->p = s + n;
      return u;
    }
  } else if (left >= 9 && p[0] == WIRE_T_VARINT64) {
    if (lw_charge(c, LW_EST_NUM)) return NULL;
    c->p = p + 9;
    return PyLong_FromLongLong((long long)get64(p + 1));
  }
  return dec(c, h);
}

static PyObject *dec_list(Codec *c, uint8_t op, const hint *h) {
  if (!AVAIL(c, 4)) return bad_tape(c);
  uint32_t n = get32(c->p);
  c->p += 4;
  if (!AVAIL(c, n)) return bad_tape(c);   /* every value is >= 1 byte */
  const hint *eh = h ? h->elem : NULL;
  if (lw_charge(c, op == WIRE_T_LIST ? LW_EST_LIST(n) : LW_EST_SET(n)))
    return NULL;
  if (op == WIRE_T_LIST) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (uint32_t i = 0; i < n; i++) {     /* items NULL until set */
      PyList_SET_ITEM(l, i, Py_NewRef(Py_None));
    }
    if (keep(c, l)) {
      Py_DECREF(l);
      return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
      PyObject *v = dec_fast(c, eh);
      if (!v) {
        Py_DECREF(l);
        return NULL;
      }
      PyObject *old = PyList_GET_ITEM(l, i);
      PyList_SET_ITEM(l, i, v);
      Py_DECREF(old);
    }
    return l;
  }
  PyObject *s = PySet_New(NULL);
  if (!s) return NULL;
  if (keep(c, s)) goto fail;
  for (uint32_t i = 0; i < n; i++) {
    PyObject *v = dec_fast(c, eh);
    if (!v) goto fail;
    PyObject *k = hashable(c, v);
    Py_DECREF(v);
    if (!k) goto fail;
    int r = PySet_Add(s, k);
    Py_DECREF(k);
    if (r) goto fail;
  }
  return s;
fail:
  Py_DECREF(s);
  return NULL;
}

static PyObject *dec_map(Codec *c, const hint *h) {
  if (!AVAIL(c, 4)) return bad_tape(c);
  uint32_t n = get32(c->p);
  c->p += 4;
  if (!AVAIL(c, (size_t)n * 2)) return bad_tape(c);
  const hint *kh = h ? h->key : NULL, *vh = h ? h->val : NULL;
  if (lw_charge(c, LW_EST_DICT(n))) return NULL;
  PyObject *d = _PyDict_NewPresized(n);
  if (!d) return NULL;
  if (keep(c, d)) goto fail;
  for (uint32_t i = 0; i < n; i++) {
    PyObject *k = dec_fast(c, kh);
    if (!k) goto fail;
    PyObject *v = dec_fast(c, vh);
    if (!v) {
      Py_DECREF(k);
      goto fail;
    }
    int r = PyDict_SetItem(d, k, v);
    if (r && PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      PyObject *hk = hashable(c, k);
      r = hk ? PyDict_SetItem(d, hk, v) : -1;
      Py_XDECREF(hk);
    }
    Py_DECREF(k);
    Py_DECREF(v);
    if (r) goto fail;
  }
  return d;
fail:
  Py_DECREF(d);
  return NULL;
}

static const char *array_code(uint32_t op) {
  switch (op) {
  case WIRE_T_INT8_ARRAY: return "b";
  case WIRE_T_INT16_ARRAY: return "h";
  case WIRE_T_INT32_ARRAY: return "i";
  case WIRE_T_INT64_ARRAY: return "q";
  case WIRE_T_UINT8_ARRAY: return "B";
  case WIRE_T_UINT16_ARRAY: return "H";
  case WIRE_T_UINT32_ARRAY: return "I";
  case WIRE_T_UINT64_ARRAY: return "Q";
  case WIRE_T_FLOAT32_ARRAY: return "f";
  case WIRE_T_FLOAT64_ARRAY: return "d";
  default: return NULL;
  }
}

/* An array.array of typecode `code` holding a copy of p[0..nb) (native
 * order: the wire's on little-endian hosts): a copy of an empty array of
 * the typecode, then its frombytes, through the method descriptors (no
 * argument parsing, no method lookup). */
PyObject *lw_array_from(Codec *c, char code, const void *p, size_t nb) {
  static PyObject *empty[128], *copy_d, *frombytes_d;
  unsigned char k = (unsigned char)code & 127;
  if (!copy_d) {
    copy_d = PyObject_GetAttrString(c->array_new, "__copy__");
    frombytes_d = copy_d ? PyObject_GetAttrString(c->array_new, "frombytes")
                         : NULL;
    if (!frombytes_d) {
      Py_CLEAR(copy_d);
      return NULL;
    }
  }
  if (!empty[k]) {
    empty[k] = PyObject_CallFunction(c->array_new, "C", code);
    if (!empty[k]) return NULL;
  }
  PyObject *a = PyObject_Vectorcall(copy_d, &empty[k], 1, NULL);
  if (!a) return NULL;
  PyObject *mv = PyMemoryView_FromMemory((char *)p, (Py_ssize_t)nb,
                                         PyBUF_READ);
  PyObject *r = NULL;
  if (mv) {
    PyObject *args[2] = {a, mv};
    r = PyObject_Vectorcall(frombytes_d, args, 2, NULL);
    Py_DECREF(mv);
  }
#if !PY_LITTLE_ENDIAN
  if (r) {
    Py_DECREF(r);
    r = PyObject_CallMethod(a, "byteswap", NULL);
  }
#endif
  if (!r) {
    Py_DECREF(a);
    return NULL;
  }
  Py_DECREF(r);
  return a;
}

/* A BINARY or dense array (op) of the n bytes at raw: in the tape, or in
 * the payload (SPAN). */
static PyObject *dec_bytes_of(Codec *c, uint8_t op, const hint *h,
                              const char *raw, uint32_t n) {
  PyObject *v;
  const char *tc = array_code(op);
  int bools = op == WIRE_T_BOOL_ARRAY && h && h->tid == op;
  if (lw_charge(c, op == WIRE_T_BINARY ? LW_EST_BYTES(n)
                   : bools ? LW_EST_LIST(n) : LW_EST_ARRAY(n) + 64))
    return NULL;
  if (op == WIRE_T_BINARY) {
    v = lw_bytes_from(raw, n);
  } else if (bools) {
    /* a declared bool array: a list of bools */
    PyObject *l = PyList_New(n);
    for (uint32_t i = 0; l && i < n; i++)
      PyList_SET_ITEM(l, i, PyBool_FromLong(raw[i] != 0));
    v = l;
  } else if (tc) {          /* one copy: the bytes into the array */
    v = lw_array_from(c, tc[0], raw, n);
  } else {
    PyObject *b = PyBytes_FromStringAndSize(raw, n);
    v = b ? PyObject_CallFunction(c->h_decode, "iO", op, b) : NULL;
    Py_XDECREF(b);
  }
  if (v && keep(c, v)) Py_CLEAR(v);
  return v;
}

/* BINARY and dense arrays copied into the tape: u32 n, n bytes. */
static PyObject *dec_array(Codec *c, uint8_t op, const hint *h) {
  if (!AVAIL(c, 4)) return bad_tape(c);
  uint32_t n = get32(c->p);
  c->p += 4;
  if (!AVAIL(c, n)) return bad_tape(c);
  const char *raw = (const char *)c->p;
  c->p += n;
  return dec_bytes_of(c, op, h, raw, n);
}

/* SPAN: u8 type, u32 n, u64 offset; the bytes stay in the payload, which
 * is copied once, straight into the value (the tape holds no copy). */
static PyObject *dec_span(Codec *c, const hint *h) {
  if (!AVAIL(c, 13)) return bad_tape(c);
  uint8_t op = c->p[0];
  uint32_t n = get32(c->p + 1);
  uint64_t off = get64(c->p + 5);
  c->p += 13;
  if (op != WIRE_T_BINARY &&
      !(op >= WIRE_T_BOOL_ARRAY && op <= WIRE_T_FLOAT64_ARRAY))
    return bad_tape(c);
  if (off > c->src_len || n > c->src_len - off) return bad_tape(c);
  return dec_bytes_of(c, op, h, (const char *)c->src + off, n);
}

static PyObject *dec_packed(Codec *c) {
  if (!AVAIL(c, 6)) return bad_tape(c);
  uint8_t kind = c->p[0], et = c->p[1];
  uint32_t n = get32(c->p + 2);
  c->p += 6;
  if ((size_t)(c->end - c->p) / 8 < n) return bad_tape(c);
  if (lw_charge(c, LW_EST_LIST(n) + (size_t)n * LW_EST_NUM +
                       (kind == WIRE_T_SET ? LW_EST_SET(n) : 0)))
    return NULL;
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t u = get64(c->p + 8 * (size_t)i);
    PyObject *v;
    if (et == WIRE_T_BOOL) {
      v = PyBool_FromLong(u != 0);
    } else if (et >= WIRE_T_FLOAT16 && et <= WIRE_T_FLOAT64) {
      double d;
      memcpy(&d, &u, 8);
      v = PyFloat_FromDouble(d);
      if (v && et != WIRE_T_FLOAT64) v = wrap_num(c, c->float_classes, et, v);
    } else if (et >= WIRE_T_UINT8 && et <= WIRE_T_TAGGED_UINT64) {
      v = PyLong_FromUnsignedLongLong(u);
      if (v) v = wrap_num(c, c->int_classes, et, v);
    } else {
      v = PyLong_FromLongLong((long long)u);
      if (v && et != WIRE_T_VARINT64) v = wrap_num(c, c->int_classes, et, v);
    }
    if (!v) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, v);
  }
  c->p += 8 * (size_t)n;
  PyObject *r = l;
  if (kind == WIRE_T_SET) {
    r = PySet_New(l);
    Py_DECREF(l);
    if (!r) return NULL;
  }
  if (keep(c, r)) {
    Py_DECREF(r);
    return NULL;
  }
  return r;
}

static PyObject *dec(Codec *c, const hint *h) {
  if (!AVAIL(c, 1)) return bad_tape(c);
  uint8_t op = *c->p++;
  switch (op) {
  case WIRE_TAPE_NULL: Py_RETURN_NONE;
  case WIRE_T_BOOL:
    if (!AVAIL(c, 1)) return bad_tape(c);
    return PyBool_FromLong(*c->p++ != 0);
  case WIRE_T_STRING: return dec_str(c);
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: case WIRE_T_FLOAT32:
  case WIRE_T_FLOAT64: {
    if (!AVAIL(c, 8)) return bad_tape(c);
    uint64_t u = get64(c->p);
    double d;
    memcpy(&d, &u, 8);
    c->p += 8;
    if (lw_charge(c, LW_EST_NUM)) return NULL;
    PyObject *v = PyFloat_FromDouble(d);
    if (v && op != WIRE_T_FLOAT64 && !(h && h->tid == op))
      v = wrap_num(c, c->float_classes, op, v);
    return v;
  }
  case WIRE_T_LIST: case WIRE_T_SET: {
    if (Py_EnterRecursiveCall(" in libwire.loads")) return NULL;
    PyObject *v = dec_list(c, op, h);
    Py_LeaveRecursiveCall();
    return v;
  }
  case WIRE_T_MAP: {
    if (Py_EnterRecursiveCall(" in libwire.loads")) return NULL;
    PyObject *v = dec_map(c, h);
    Py_LeaveRecursiveCall();
    return v;
  }
  case WIRE_TAPE_STRUCT_IDX: case WIRE_T_STRUCT: case WIRE_TAPE_STRUCT_TD: {
    if (Py_EnterRecursiveCall(" in libwire.loads")) return NULL;
    PyObject *v = op == WIRE_TAPE_STRUCT_IDX ? dec_struct_idx(c)
                                      : dec_struct_named(c, op);
    Py_LeaveRecursiveCall();
    return v;
  }
  case WIRE_TAPE_REF: {
    if (!AVAIL(c, 4)) return bad_tape(c);
    uint32_t k = get32(c->p);
    c->p += 4;
    if (k >= c->nobjs) return bad_tape(c);
    return Py_NewRef(c->objs[k]);
  }
  case WIRE_TAPE_PACKED: return dec_packed(c);
  case WIRE_T_BINARY: return dec_array(c, op, h);
  case WIRE_TAPE_SPAN: return dec_span(c, h);
  case WIRE_T_ENUM: {
    if (!AVAIL(c, 8)) return bad_tape(c);
    uint32_t ti = get32(c->p), val = get32(c->p + 4);
    c->p += 8;
    eplan *ep;
    lw_class_plan(c, ti, &ep);
    if (PyErr_Occurred()) return NULL;
    if (ep) {
      PyObject *key = PyLong_FromUnsignedLong(val);
      if (!key) return NULL;
      PyObject *m = PyDict_GetItemWithError(ep->from_wire, key);
      Py_DECREF(key);
      if (m) return Py_NewRef(m);
      if (PyErr_Occurred()) return NULL;
      return lw_fail(c, "value", WIRE_E_VALUE, "%S has no member for wire "
                     "value %u", ep->cls, val);
    }
    return charged(c, PyObject_CallFunction(c->h_decode, "iII", op, ti, val));
  }
  case WIRE_T_NONE: return Py_NewRef(c->none_value);
  case WIRE_T_DATE: case WIRE_T_DURATION: case WIRE_T_TIMESTAMP: {
    size_t n = op == WIRE_T_DATE ? 8 : 12;
    if (!AVAIL(c, n)) return bad_tape(c);
    long long s = (long long)get64(c->p);
    unsigned ns = op == WIRE_T_DATE ? 0 : get32(c->p + 8);
    c->p += n;
    return charged(c, PyObject_CallFunction(c->h_decode, "iLI", op, s, ns));
  }
  case WIRE_T_DECIMAL: {
    if (!AVAIL(c, 9)) return bad_tape(c);
    int32_t scale = (int32_t)get32(c->p);
    uint8_t neg = c->p[4];
    uint32_t n = get32(c->p + 5);
    c->p += 9;
    if (!AVAIL(c, n)) return bad_tape(c);
    PyObject *v = charged(c, PyObject_CallFunction(
        c->h_decode, "iiiy#", op, (int)scale, (int)neg, (const char *)c->p,
        (Py_ssize_t)n));
    c->p += n;
    if (v && keep(c, v)) Py_CLEAR(v);
    return v;
  }
  case WIRE_T_NAMED_ENUM: {
    if (!AVAIL(c, 2)) return bad_tape(c);
    uint16_t nn = get16(c->p);
    c->p += 2;
    if (!AVAIL(c, (size_t)nn + 2)) return bad_tape(c);
    const char *ns = (const char *)c->p;
    c->p += nn;
    uint16_t mn = get16(c->p);
    c->p += 2;
    if (!AVAIL(c, (size_t)mn + 4)) return bad_tape(c);
    const char *nm = (const char *)c->p;
    c->p += mn;
    uint32_t val = get32(c->p);
    c->p += 4;
    return charged(c, PyObject_CallFunction(c->h_decode, "is#s#I", op, ns,
                                            (Py_ssize_t)nn, nm,
                                            (Py_ssize_t)mn, val));
  }
  case WIRE_TAPE_ENUM_ID: {
    if (!AVAIL(c, 8)) return bad_tape(c);
    uint32_t tid = get32(c->p), val = get32(c->p + 4);
    c->p += 8;
    return charged(c, PyObject_CallFunction(c->h_decode, "iII", op, tid, val));
  }
  case WIRE_T_UNION: {
    if (!AVAIL(c, 8)) return bad_tape(c);
    uint32_t ti = get32(c->p), cs = get32(c->p + 4);
    c->p += 8;
    PyObject *u = charged(c, PyObject_CallFunction(c->h_decode, "iII", op,
                                                   ti, cs));
    if (!u) return NULL;
    if (keep(c, u)) {
      Py_DECREF(u);
      return NULL;
    }
    if (Py_EnterRecursiveCall(" in libwire.loads")) {
      Py_DECREF(u);
      return NULL;
    }
    PyObject *v = dec(c, NULL);
    Py_LeaveRecursiveCall();
    if (!v || PyObject_SetAttrString(u, "value", v)) {
      Py_XDECREF(v);
      Py_DECREF(u);
      return NULL;
    }
    Py_DECREF(v);
    return u;
  }
  default:
    if (op >= WIRE_T_INT8 && op <= WIRE_T_TAGGED_UINT64) {
      if (!AVAIL(c, 8)) return bad_tape(c);
      uint64_t u = get64(c->p);
      c->p += 8;
      if (lw_charge(c, LW_EST_NUM)) return NULL;
      PyObject *v = op >= WIRE_T_UINT8 ? PyLong_FromUnsignedLongLong(u)
                                       : PyLong_FromLongLong((long long)u);
      if (v && op != WIRE_T_VARINT64 && !(h && h->tid == op))
        v = wrap_num(c, c->int_classes, op, v);
      return v;
    }
    if (op >= WIRE_T_BOOL_ARRAY && op <= WIRE_T_FLOAT64_ARRAY)
      return dec_array(c, op, h);
    c->p--;
    return bad_tape(c);
  }
}

static void objs_clear(Codec *c) {
  for (size_t i = 0; i < c->nobjs; i++) Py_DECREF(c->objs[i]);
  c->nobjs = 0;
}

/* Every root of a payload, as a list: a registered struct root through its
 * layout, anything else through the tape. */
/* The roots of a payload, as a list; with `single` (loads), a root read by
 * a layout or the streaming reader is returned as it is, *single = 1 (no
 * list made and dropped per call). */
static PyObject *decode_buffer(Codec *c, PyObject *data, int *single) {
  Py_buffer b;
  if (PyObject_GetBuffer(data, &b, PyBUF_SIMPLE)) return NULL;
  PyObject *one = NULL, *res = NULL;
  int r = c->layouts ? loads_big(c, b.buf, (size_t)b.len, &one) : LW_FALLBACK;
  if (r == 0) {
    c->n_big_dec++;
  } else if (r == LW_FALLBACK && c->layouts) {
    r = lw_mem_decode(c, b.buf, (size_t)b.len, &one);
    c->n_mem_dec += !r;
  }
  if (r == 0 && single) {
    *single = 1;
    res = one;
  } else if (r == 0) {
    res = PyList_New(1);
    if (res) PyList_SET_ITEM(res, 0, one);
    else Py_DECREF(one);
  } else if (r == LW_FALLBACK) {
    res = lw_tape_decode(c, b.buf, (size_t)b.len);
  }
  PyBuffer_Release(&b);
  return res;
}

/* Codec.decode(data) -> list of the root values; data: any buffer. */
static PyObject *Codec_decode(Codec *c, PyObject *data) {
  if (acquire(c)) return NULL;
  PyObject *res = sync_regs(c) ? NULL : decode_buffer(c, data, NULL);
  release(c);
  return res;
}

/* Codec.loads(data) -> the one root value of a payload. */
static PyObject *Codec_loads(Codec *c, PyObject *data) {
  if (acquire(c)) return NULL;
  int single = 0;
  PyObject *roots = sync_regs(c) ? NULL : decode_buffer(c, data, &single);
  release(c);
  if (!roots || single) return roots;
  Py_ssize_t n = PyList_GET_SIZE(roots);
  if (n == 1) {
    PyObject *v = Py_NewRef(PyList_GET_ITEM(roots, 0));
    Py_DECREF(roots);
    return v;
  }
  Py_DECREF(roots);
  if (!n) {
    PyObject *zero = PyLong_FromLong(0);
    if (zero) {
      lw_error(c, "truncated", zero, "the payload holds no value",
               WIRE_E_TRUNCATED);
      Py_DECREF(zero);
    }
    return NULL;
  }
  return lw_fail(c, "trailing", WIRE_E_TRAILING, "the payload holds %zd "
                 "root values; use loads_all", n);
}

PyObject *lw_tape_decode(Codec *c, const uint8_t *data, size_t len) {
  c->n_tape_dec++;
  if (!c->tout) {
    c->tout = wire_writer_new(c->ctx, NULL, 0);
    if (!c->tout) return PyErr_NoMemory();
  }
  wire_writer_reset(c->tout);
  int32_t st = wire_decode_tape_to(c->ctx, data, len,
                                   WIRE_TAPE_FIELD_INDEX | WIRE_TAPE_SPANS,
                                   c->tout);
  if (st) return lw_ctx_fail(c, st);
  const uint8_t *t = wire_writer_data(c->tout);
  size_t n = wire_writer_size(c->tout);
  if (n < 8 || t[0] != 'W' || t[1] != 'T')
    return lw_fail(c, "arg", WIRE_E_ARG, "malformed tape");
  uint32_t roots = get32(t + 4);
  c->p = t + 8;
  c->end = t + n;
  c->src = data;
  c->src_len = len;
  lw_budget_start(c, len);
  PyObject *out = PyList_New(0);
  if (!out) return NULL;
  for (uint32_t i = 0; i < roots; i++) {
    PyObject *v = dec(c, NULL);
    if (!v || PyList_Append(out, v)) {
      Py_XDECREF(v);
      Py_CLEAR(out);
      break;
    }
    Py_DECREF(v);
  }
  objs_clear(c);
  Py_CLEAR(c->td_last);
  Py_CLEAR(c->names_last);
  return out;
}

/* ---- registration --------------------------------------------------- */

/* Codec.fields(type) -> [(wire name or None, tag)] in wire order. */
static PyObject *Codec_fields(Codec *c, PyObject *arg) {
  if (!c->ctx) return lw_error(c, "state", Py_None, "closed", WIRE_E_STATE);
  unsigned long ti = PyLong_AsUnsignedLong(arg);
  if (ti == (unsigned long)-1 && PyErr_Occurred()) return NULL;
  uint32_t n = wire_schema_field_count(c->ctx, (uint32_t)ti);
  if (!n && wire_ctx_error_code(c->ctx)) return lw_ctx_fail(c, 0);
  PyObject *l = PyList_New(n);
  if (!l) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    const char *name;
    size_t nl;
    int32_t tag;
    if (wire_schema_field(c->ctx, (uint32_t)ti, i, &name, &nl, &tag, NULL)) {
      Py_DECREF(l);
      return lw_ctx_fail(c, 0);
    }
    PyObject *it = name ? Py_BuildValue("(s#i)", name, (Py_ssize_t)nl, tag)
                        : Py_BuildValue("(Oi)", Py_None, tag);
    if (!it) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, it);
  }
  return l;
}

static PyObject *store_plan(Codec *c, PyObject *cls, uint32_t ti,
                            PyObject *cap);

/* Codec.add_struct(cls, type, attrs, defaults, factories, type_name):
 * attrs[i] the attribute of wire field i (or None); defaults/factories per
 * wire field (None: none). */
static PyObject *Codec_add_struct(Codec *c, PyObject *args) {
  PyObject *cls, *attrs, *defaults, *factories;
  unsigned int ti;
  const char *tname;
  if (!PyArg_ParseTuple(args, "OIO!O!O!s", &cls, &ti, &PyList_Type, &attrs,
                        &PyList_Type, &defaults, &PyList_Type, &factories,
                        &tname))
    return NULL;
  if (!PyType_Check(cls)) {
    PyErr_SetString(PyExc_TypeError, "cls must be a class");
    return NULL;
  }
  if (!c->ctx) return lw_error(c, "state", Py_None, "closed", WIRE_E_STATE);
  uint32_t n = wire_schema_field_count(c->ctx, ti);
  if ((Py_ssize_t)n != PyList_GET_SIZE(attrs) ||
      (Py_ssize_t)n != PyList_GET_SIZE(defaults) ||
      (Py_ssize_t)n != PyList_GET_SIZE(factories)) {
    PyErr_SetString(PyExc_ValueError, "one attribute per wire field");
    return NULL;
  }
  splan *p = PyMem_Calloc(1, sizeof *p);
  if (!p) return PyErr_NoMemory();
  p->cls = Py_NewRef(cls);
  p->type = ti;
  p->n = n;
  size_t m = n ? n : 1;
  p->attr = PyMem_Calloc(m, sizeof *p->attr);
  p->slot = PyMem_Calloc(m, sizeof *p->slot);
  p->hints = PyMem_Calloc(m, sizeof *p->hints);
  p->fname = PyMem_Calloc(m, sizeof *p->fname);
  p->dflt = PyMem_Calloc(m, sizeof *p->dflt);
  p->factory = PyMem_Calloc(m, sizeof *p->factory);
  p->by_name = PyDict_New();
  PyObject *cap = PyCapsule_New(p, "libwire.splan", splan_free);
  if (!cap) {
    /* the capsule owns the plan from here on; without one, free it all */
    Py_XDECREF(p->by_name);
    Py_DECREF(p->cls);
    PyMem_Free(p->attr); PyMem_Free(p->slot); PyMem_Free(p->hints);
    PyMem_Free(p->fname); PyMem_Free(p->dflt); PyMem_Free(p->factory);
    PyMem_Free(p);
    return NULL;
  }
  if (!p->attr || !p->slot || !p->hints || !p->fname || !p->dflt ||
      !p->factory || !p->by_name) {
    Py_DECREF(cap);
    return PyErr_NoMemory();
  }
  for (uint32_t i = 0; i < n; i++) {
    const char *name;
    size_t nl;
    int32_t tag;
    const wire_field_type *ft;
    if (wire_schema_field(c->ctx, ti, i, &name, &nl, &tag, &ft)) {
      Py_DECREF(cap);
      return lw_ctx_fail(c, 0);
    }
    p->hints[i] = hint_make(ft, 0);
    char buf[32];
    if (!name) {
      snprintf(buf, sizeof buf, "#%d", (int)tag);
      name = buf;
      nl = strlen(buf);
    }
    size_t tl = strlen(tname);
    p->fname[i] = PyMem_Malloc(tl + nl + 2);
    if (!p->fname[i]) {
      Py_DECREF(cap);
      return PyErr_NoMemory();
    }
    memcpy(p->fname[i], tname, tl);
    p->fname[i][tl] = '.';
    memcpy(p->fname[i] + tl + 1, name, nl);
    p->fname[i][tl + 1 + nl] = 0;
    PyObject *key = PyUnicode_FromStringAndSize(name, (Py_ssize_t)nl);
    PyObject *ix = PyLong_FromUnsignedLong(i);
    if (!key || !ix || PyDict_SetItem(p->by_name, key, ix)) {
      Py_XDECREF(key);
      Py_XDECREF(ix);
      Py_DECREF(cap);
      return NULL;
    }
    Py_DECREF(key);
    Py_DECREF(ix);
    p->slot[i] = -1;
    PyObject *a = PyList_GET_ITEM(attrs, i);
    if (a != Py_None) {
      Py_INCREF(a);
      PyUnicode_InternInPlace(&a);
      p->attr[i] = a;
      /* a __slots__ member: read and write it at its offset */
      PyObject *d = _PyType_Lookup((PyTypeObject *)cls, a);
      if (d && Py_IS_TYPE(d, &PyMemberDescr_Type)) {
        PyMemberDef *md = ((PyMemberDescrObject *)d)->d_member;
        if (md->type == T_OBJECT_EX && !(md->flags & READONLY))
          p->slot[i] = md->offset;
      }
    }
    PyObject *dv = PyList_GET_ITEM(defaults, i);
    PyObject *fv = PyList_GET_ITEM(factories, i);
    if (dv != Py_None) p->dflt[i] = Py_NewRef(dv);
    if (fv != Py_None) p->factory[i] = Py_NewRef(fv);
  }
  p->use_dict = ((PyTypeObject *)cls)->tp_dictoffset != 0;
  for (uint32_t i = 0; i < n && p->use_dict; i++) {
    if (!p->attr[i]) continue;
    PyObject *d = _PyType_Lookup((PyTypeObject *)cls, p->attr[i]);
    if (d && Py_TYPE(d)->tp_descr_set) p->use_dict = 0;  /* property, slot */
  }
  p->dorder = PyMem_Calloc(m, sizeof *p->dorder);
  if (!p->dorder) {
    Py_DECREF(cap);
    return PyErr_NoMemory();
  }
  for (uint32_t i = 0; i < n; i++) {
    p->dorder[i] = i;
    if (p->attr[i]) p->nattr++;
  }
  /* one instance (measured on CPython 3.11): the object, its GC header,
   * __slots__ included; with a __dict__ its values, ~8 bytes a field while
   * the class's instances share their keys (below 30 attributes), ~32
   * bytes a field in a dict of their own beyond */
  PyTypeObject *tp = (PyTypeObject *)cls;
  p->est = (size_t)tp->tp_basicsize + (PyType_IS_GC(tp) ? 16 : 0);
  if (tp->tp_dictoffset != 0)
    p->est += p->nattr < 30 ? 72 + 8 * (size_t)p->nattr
                            : 96 + 32 * (size_t)p->nattr;
  return store_plan(c, cls, ti, cap);
}

/* Puts a new plan in the class and type tables. A plan it replaces may be
 * in use by the call under way (or referenced by another class's layout
 * plan): it is kept until the plans are cleared. */
static PyObject *store_plan(Codec *c, PyObject *cls, uint32_t ti,
                            PyObject *cap) {
  PyObject *key = PyLong_FromUnsignedLong(ti);
  int r = -1;
  if (key) {
    PyObject *old[2] = {PyDict_GetItemWithError(c->classes, cls),
                        PyDict_GetItemWithError(c->types, key)};
    r = PyErr_Occurred() ? -1 : 0;
    for (int k = 0; k < 2 && !r; k++)
      if (old[k] && PyCapsule_CheckExact(old[k]) && old[k] != cap)
        r = PyList_Append(c->retired, old[k]);
    if (!r)
      r = PyDict_SetItem(c->classes, cls, cap) ||
          PyDict_SetItem(c->types, key, cap);
  }
  Py_XDECREF(key);
  Py_DECREF(cap);
  if (r) return NULL;
  Py_RETURN_NONE;
}

/* Codec.add_enum(cls, type, members, wire_values) */
static PyObject *Codec_add_enum(Codec *c, PyObject *args) {
  PyObject *cls, *members, *values;
  unsigned int ti;
  if (!PyArg_ParseTuple(args, "OIO!O!", &cls, &ti, &PyList_Type, &members,
                        &PyList_Type, &values))
    return NULL;
  Py_ssize_t n = PyList_GET_SIZE(members);
  if (PyList_GET_SIZE(values) != n) {
    PyErr_SetString(PyExc_ValueError, "one wire value per member");
    return NULL;
  }
  eplan *p = PyMem_Calloc(1, sizeof *p);
  if (!p) return PyErr_NoMemory();
  p->cls = Py_NewRef(cls);
  p->type = ti;
  p->member = PyMem_Calloc(n ? n : 1, sizeof *p->member);
  p->value = PyMem_Calloc(n ? n : 1, sizeof *p->value);
  p->from_wire = PyDict_New();
  PyObject *cap = PyCapsule_New(p, "libwire.eplan", eplan_free);
  if (!cap) {
    Py_XDECREF(p->from_wire);
    Py_DECREF(p->cls);
    PyMem_Free(p->member);
    PyMem_Free(p->value);
    PyMem_Free(p);
    return NULL;
  }
  if (!p->member || !p->value || !p->from_wire) {
    Py_DECREF(cap);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *m = PyList_GET_ITEM(members, i), *v = PyList_GET_ITEM(values, i);
    unsigned long u = PyLong_AsUnsignedLong(v);
    if (u == (unsigned long)-1 && PyErr_Occurred()) {
      Py_DECREF(cap);
      return NULL;
    }
    p->member[i] = Py_NewRef(m);
    p->value[i] = (uint32_t)u;
    p->n = i + 1;
    if (PyDict_SetItem(p->from_wire, v, m)) {
      Py_DECREF(cap);
      return NULL;
    }
  }
  /* wire value -> member as a table when the values are small */
  uint32_t top = 0;
  for (Py_ssize_t i = 0; i < n; i++)
    if (p->value[i] >= top) top = p->value[i] + 1;
  if (n && top <= 4 * (uint32_t)n + 64) {
    p->by_value = PyMem_Calloc(top, sizeof *p->by_value);
    if (!p->by_value) {
      Py_DECREF(cap);
      return PyErr_NoMemory();
    }
    for (Py_ssize_t i = n; i-- > 0;)      /* the first member of a value */
      p->by_value[p->value[i]] = p->member[i];
    p->nvalue = top;
  }
  if (lw_enum_split(c, p)) {              /* (the values are distinct) */
    Py_DECREF(cap);
    return NULL;
  }
  return store_plan(c, cls, ti, cap);
}

static void clear_plans(Codec *c) {
  c->last_tp = NULL;
  c->last_plan = NULL;
  lw_mem_clear(c);
  PyDict_Clear(c->classes);
  PyDict_Clear(c->types);
  if (c->enum_ids) PyDict_Clear(c->enum_ids);
  if (c->retired) PyList_SetSlice(c->retired, 0, PY_SSIZE_T_MAX, NULL);
}

/* Codec.clear(): forgets every plan (registrations or schemas changed);
 * inside a call the plans are in use: they go when it returns. */
static PyObject *Codec_clear(Codec *c, PyObject *noarg) {
  (void)noarg;
  if (c->busy) c->clear_pending = 1;
  else clear_plans(c);
  Py_RETURN_NONE;
}

/* Codec.invalidate(): the Context's registrations or schemas changed; the
 * next call syncs first. */
static PyObject *Codec_invalidate(Codec *c, PyObject *noarg) {
  (void)noarg;
  c->stale = 1;
  Py_RETURN_NONE;
}

/* Codec.use_layouts(bool): registered classes through the layouts and
 * large binary / array roots through the streaming writer (True), or,
 * for comparisons, every value through the tape (False). */
static PyObject *Codec_use_layouts(Codec *c, PyObject *arg) {
  int v = PyObject_IsTrue(arg);
  if (v < 0) return NULL;
  c->layouts = v;
  Py_RETURN_NONE;
}

/* Codec.stats() -> messages written and read by each path. */
static PyObject *Codec_stats(Codec *c, PyObject *noarg) {
  (void)noarg;
  return Py_BuildValue("{sKsKsKsKsKsK}", "layout_dumps", c->n_mem_enc,
                       "layout_loads", c->n_mem_dec, "tape_dumps",
                       c->n_tape_enc, "tape_loads", c->n_tape_dec,
                       "direct_dumps", c->n_big_enc, "direct_loads",
                       c->n_big_dec);
}

static PyObject *Codec_set_ref(Codec *c, PyObject *arg) {
  int v = PyObject_IsTrue(arg);
  if (v < 0) return NULL;
  c->ref = v;
  Py_RETURN_NONE;
}

/* ---- type ----------------------------------------------------------- */

static int Codec_init(Codec *c, PyObject *args, PyObject *kw) {
  (void)kw;
  unsigned long long addr;
  PyObject *hooks;
  if (!PyArg_ParseTuple(args, "KO", &addr, &hooks)) return -1;
  c->ctx = (wire_ctx *)(uintptr_t)addr;
  Py_XSETREF(c->hooks, Py_NewRef(hooks));
#define HOOK(field, name)                                         \
  Py_XSETREF(c->field, PyObject_GetAttrString(hooks, name));      \
  if (!c->field) return -1;
  HOOK(h_encode, "encode");
  HOOK(h_register, "register");
  HOOK(h_class_of, "class_of");
  HOOK(h_decode, "decode");
  HOOK(h_hashable, "hashable");
  HOOK(h_type_name, "type_name");
  HOOK(h_error, "WireError");
  HOOK(array_new, "array");
  HOOK(int_classes, "INT_CLASSES");
  HOOK(float_classes, "FLOAT_CLASSES");
  HOOK(none_value, "NONE");
  HOOK(h_sync, "sync");
  HOOK(reg_version, "VERSION");
#undef HOOK
  Py_XSETREF(c->classes, PyDict_New());
  Py_XSETREF(c->types, PyDict_New());
  Py_XSETREF(c->retired, PyList_New(0));
  Py_XSETREF(c->enum_decl, PyDict_New());
  Py_XSETREF(c->enum_ids, PyDict_New());
  if (!c->classes || !c->types || !c->retired || !c->enum_decl ||
      !c->enum_ids)
    return -1;
  c->seen_version = -1;
  c->stale = 1;
  c->layouts = 1;
  /* strings of the layouts are handed over as UTF-8; they are written as
   * the Java runtime (and the tape path, WIRE_TAPE_STR_JAVA) writes them */
  if (wire_ctx_set_option(c->ctx, WIRE_OPT_STRING_POLICY, WIRE_STRING_JAVA)) {
    lw_ctx_fail(c, 0);
    return -1;
  }
  return 0;
}

static int Codec_traverse(Codec *c, visitproc visit, void *arg) {
  Py_VISIT(c->hooks);
  Py_VISIT(c->h_encode);
  Py_VISIT(c->h_register);
  Py_VISIT(c->h_class_of);
  Py_VISIT(c->h_decode);
  Py_VISIT(c->h_hashable);
  Py_VISIT(c->h_type_name);
  Py_VISIT(c->h_sync);
  Py_VISIT(c->reg_version);
  Py_VISIT(c->classes);
  Py_VISIT(c->types);
  Py_VISIT(c->retired);
  Py_VISIT(c->enum_decl);
  Py_VISIT(c->enum_ids);
  return 0;
}

static int Codec_clear_refs(Codec *c) {
  c->last_tp = NULL;
  c->last_plan = NULL;
  Py_CLEAR(c->hooks);
  Py_CLEAR(c->h_encode);
  Py_CLEAR(c->h_register);
  Py_CLEAR(c->h_class_of);
  Py_CLEAR(c->h_decode);
  Py_CLEAR(c->h_hashable);
  Py_CLEAR(c->h_type_name);
  Py_CLEAR(c->h_error);
  Py_CLEAR(c->array_new);
  Py_CLEAR(c->int_classes);
  Py_CLEAR(c->float_classes);
  Py_CLEAR(c->none_value);
  Py_CLEAR(c->h_sync);
  Py_CLEAR(c->reg_version);
  Py_CLEAR(c->classes);
  Py_CLEAR(c->types);
  Py_CLEAR(c->retired);
  Py_CLEAR(c->enum_decl);
  Py_CLEAR(c->enum_ids);
  return 0;
}

/* Codec.close(): frees the writers (before the Context frees wire_ctx). */
static PyObject *Codec_close(Codec *c, PyObject *noarg) {
  (void)noarg;
  if (c->busy) {
    lw_error(c, "state", Py_None, "close() from inside dumps/loads",
               WIRE_E_STATE);
    return NULL;
  }
  if (c->out) wire_writer_free(c->out);
  if (c->tout) wire_writer_free(c->tout);
  c->out = c->tout = NULL;
  lw_mem_free(c);
  c->ctx = NULL;
  Py_RETURN_NONE;
}

static void Codec_dealloc(Codec *c) {
  PyObject_GC_UnTrack(c);
  if (c->ctx) {
    if (c->out) wire_writer_free(c->out);
    if (c->tout) wire_writer_free(c->tout);
  }
  memo_clear(c);
  PyMem_Free(c->memo);
  PyMem_Free(c->t);
  objs_clear(c);
  PyMem_Free(c->objs);
  Py_CLEAR(c->td_last);
  Py_CLEAR(c->names_last);
  lw_mem_free(c);
  Codec_clear_refs(c);
  Py_TYPE(c)->tp_free((PyObject *)c);
}

static PyMethodDef Codec_methods[] = {
  {"encode", (PyCFunction)Codec_encode, METH_VARARGS,
   "encode(roots, into=None) -> bytes (or the length written into `into`)"},
  {"decode", (PyCFunction)Codec_decode, METH_O,
   "decode(buffer) -> [root values]"},
  {"dumps", (PyCFunction)(void (*)(void))Codec_dumps,
   METH_FASTCALL | METH_KEYWORDS,
   "dumps(obj, into=None) -> bytes (or the length written into `into`)"},
  {"loads", (PyCFunction)Codec_loads, METH_O,
   "loads(buffer) -> the one root value"},
  {"use_layouts", (PyCFunction)Codec_use_layouts, METH_O,
   "registered classes through the layouts (True) or the tape (False)"},
  {"stats", (PyCFunction)Codec_stats, METH_NOARGS,
   "messages written and read by each path"},
  {"invalidate", (PyCFunction)Codec_invalidate, METH_NOARGS,
   "registrations or schemas changed: sync before the next call"},
  {"tape", (PyCFunction)Codec_tape, METH_O, "tape(roots) -> tape bytes"},
  {"fields", (PyCFunction)Codec_fields, METH_O,
   "fields(type) -> [(wire name, tag)] in wire order"},
  {"add_struct", (PyCFunction)Codec_add_struct, METH_VARARGS,
   "add_struct(cls, type, attrs, defaults, factories, type_name)"},
  {"add_enum", (PyCFunction)Codec_add_enum, METH_VARARGS,
   "add_enum(cls, type, members, wire_values)"},
  {"enum_check", (PyCFunction)lw_Codec_enum_check, METH_VARARGS,
   "enum_check(type, number): WireError('value') unless enum `type` "
   "declares the number"},
  {"enum_check_id", (PyCFunction)lw_Codec_enum_check_id, METH_VARARGS,
   "enum_check_id(user_id, number): the same for the schema enum registered "
   "with that numeric id, if any"},
  {"clear", (PyCFunction)Codec_clear, METH_NOARGS, "forget every plan"},
  {"set_ref", (PyCFunction)Codec_set_ref, METH_O, "reference tracking"},
  {"close", (PyCFunction)Codec_close, METH_NOARGS, "free the writers"},
  {NULL, NULL, 0, NULL}
};

static PyTypeObject CodecType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "libwire._native.Codec",
  .tp_basicsize = sizeof(Codec),
  .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
  .tp_doc = "Codec(wire_ctx address, hooks): dumps/loads of one Context",
  .tp_new = PyType_GenericNew,
  .tp_init = (initproc)Codec_init,
  .tp_dealloc = (destructor)Codec_dealloc,
  .tp_traverse = (traverseproc)Codec_traverse,
  .tp_clear = (inquiry)Codec_clear_refs,
  .tp_methods = Codec_methods,
};

/* ---- module --------------------------------------------------------- */

static PyObject *mod_ctx_new(PyObject *self, PyObject *noarg) {
  (void)self;
  (void)noarg;
  wire_ctx *c = wire_ctx_new();
  if (!c) return PyErr_NoMemory();
  return PyLong_FromVoidPtr(c);
}

static PyObject *mod_version(PyObject *self, PyObject *noarg) {
  (void)self;
  (void)noarg;
  return PyUnicode_FromString(wire_version_string());
}

static PyMethodDef mod_methods[] = {
  {"ctx_new", mod_ctx_new, METH_NOARGS, "a new wire_ctx (address)"},
  {"version", mod_version, METH_NOARGS, "libwire's version string"},
  {NULL, NULL, 0, NULL}
};

static struct PyModuleDef mod = {
  PyModuleDef_HEAD_INIT, "_native",
  "libwire's C codec for Python (dumps/loads over the compiled layouts, the streaming calls and the tape codec)", -1,
  mod_methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__native(void) {
  if (PyType_Ready(&CodecType) < 0) return NULL;
  PyObject *arr = PyImport_ImportModule("array");
  if (!arr) return NULL;
  array_type = (PyTypeObject *)PyObject_GetAttrString(arr, "array");
  Py_DECREF(arr);
  if (!array_type) return NULL;
  PyObject *m = PyModule_Create(&mod);
  if (!m) return NULL;
  Py_INCREF(&CodecType);
  if (PyModule_AddObject(m, "Codec", (PyObject *)&CodecType)) {
    Py_DECREF(&CodecType);
    Py_DECREF(m);
    return NULL;
  }
  /* Every constant of wire.h, by its C name (no hand copies in Python). */
  PyObject *consts = PyDict_New();
  if (!consts) goto fail;
  for (int i = 0; wire_constants[i].name; i++) {
    PyObject *v = PyLong_FromLongLong(wire_constants[i].value);
    if (!v || PyDict_SetItemString(consts, wire_constants[i].name, v)) {
      Py_XDECREF(v);
      Py_DECREF(consts);
      goto fail;
    }
    Py_DECREF(v);
  }
  if (PyModule_AddObject(m, "CONSTANTS", consts)) {
    Py_DECREF(consts);
    goto fail;
  }
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}
