/* _mem.c - registered classes over the compiled codecs (wire_mem_* of
 * wire.h, libwire/LAYOUTS.md).
 *
 * Each registered class gets, the first time it is written or read, a
 * native image: one 16-byte slot per schema field (the value or a pointer,
 * a uint32 length / count at +8, a presence byte at +12), described once
 * to libwire as a wire_mem layout, with element layouts for the items of
 * lists and the entries of maps. dumps reads the attributes in C (the
 * instance __dict__ in the order last seen, slot offsets, interned names)
 * and fills the image in scratch memory reused by every call, strings as
 * pointers to the str objects' UTF-8 data and binaries and dense arrays as
 * pointers into the objects' buffers, then makes one wire_mem_encode call
 * and copies its bytes into the returned bytes object. loads finds the
 * root's class from its type meta (user type id, name in the TypeDef, or
 * namespace and type name: wire_root_type decodes the meta strings),
 * makes one wire_mem_decode call into a reused arena (strings pointing
 * into the payload) and builds the Python objects from the image.
 *
 * What the layouts cannot express - union, ext and "any" fields, float16
 * and bfloat16, dates, times and decimals, a value of an unexpected Python
 * type, an integer outside its field's range, reference tracking, more
 * than one root - takes the tape path (LW_FALLBACK), which writes or reads
 * it and reports errors with their messages. */
#include "_native.h"

#define NONE WIRE_MEM_NONE
#define SLOT 16u         /* bytes per value in an image */
#define LEN_AT 8u        /* uint32 length / count */
#define PRESENT_AT 12u   /* presence byte (optional scalars) */

/* How a Python value maps to a slot. */
enum {
  MK_NONE,     /* no attribute: not bound */
  MK_INT, MK_UINT, MK_F32, MK_F64, MK_BOOL,
  MK_STR, MK_BYTES, MK_ENUM,
  MK_STRUCT,   /* pointer to the image of a registered class */
  MK_LIST,     /* list / set: items of an element layout */
  MK_PACKED,   /* list / set of primitives: packed items */
  MK_DENSE,    /* dense array: packed items (array.array on reading) */
  MK_MAP,
  MK_ITEM      /* an item of a list of structs: the class's image itself */
};

typedef struct mval mval;
struct mval {
  uint8_t kind;
  uint8_t form;      /* WIRE_MEM_* */
  uint8_t nullable;  /* None is written as null, and null read as None */
  uint8_t set;       /* MK_LIST / MK_PACKED: a set */
  uint8_t var;       /* layout variant of nested classes (splan.mem) */
  uint8_t ew;        /* MK_PACKED / MK_DENSE: bytes per item */
  uint8_t tid;       /* declared wire type */
  char acode;        /* MK_DENSE: array.array typecode, 0: list of bools */
  uint32_t off;      /* in the owner's image */
  uint32_t present;  /* offset of the presence byte, or NONE */
  uint32_t layout;   /* MK_LIST / MK_MAP: the element layout */
  uint32_t esize;    /* their stride */
  int64_t lo;        /* MK_INT: range [lo, hi]; MK_UINT: [0, hi] */
  uint64_t hi;
  uint32_t est;      /* what the object read from it takes besides its
                        items and text (lw_charge; 0: charged elsewhere) */
  mval *sub;         /* item (MK_LIST, MK_PACKED, MK_DENSE); key, value */
  splan *sp;         /* MK_STRUCT */
  eplan *ep;         /* MK_ENUM */
};

struct mlay {
  int state;         /* 0 building, 1 ready, -1 the layouts cannot */
  int bound;
  int enc_ok;        /* every non-nullable field has an attribute */
  uint32_t layout;
  uint32_t size;     /* image bytes, the memo slot included */
  uint32_t memo;     /* offset of the object built from the image */
  size_t est;        /* the object and its fields' objects besides their
                        items and text (charged per object built) */
  mval *f;           /* per wire field */
};

/* ---- scratch memory ------------------------------------------------------ */

typedef struct chunk {
  struct chunk *next;
  size_t cap, used;
  _Alignas(16) uint8_t data[];
} chunk;

typedef struct {
  uint8_t byname, ok;
  uint8_t tags, names;   /* its fields include tag-id / named ones */
  uint32_t uid;
  const uint8_t *name;   /* namespace and name, as the TypeDef has them */
  size_t nlen;
  const uint8_t *td;     /* the registered TypeDef (context memory) */
  size_t tdlen;
} tinfo;

#define NCACHE 32
typedef struct {
  uint8_t *key;          /* kind byte and type meta of a root */
  size_t klen;
  splan *sp;
  int var;
} rcache;

struct mstate {
  chunk *head;            /* encode images: chunks, reset per call */
  chunk *cur;
  PyObject **pins;        /* objects whose memory the image points into */
  size_t npins, pins_cap;
  Py_buffer *bufs;        /* buffers the image points into */
  size_t nbufs, bufs_cap;
  size_t depth, max_depth;
  int pinning;            /* the walk may run Python code: objects whose
                             memory the image points into are held */
  uint8_t *arena;         /* decode arena */
  size_t arena_cap;
  int fallback;           /* building met what needs the tape path */
  tinfo *ti;              /* per type index, built on first decode */
  uint32_t nti;
  int ti_ready;
  rcache cache[NCACHE];   /* root type meta -> class */
  uint64_t nabsent;       /* wire_mem_absent_count after the last decode */
  uint32_t ncache, last, next;
};

#define CHUNK (64u * 1024u)
#define ARENA0 (64u * 1024u)
#define ARENA_KEEP (4u << 20)

static struct mstate *ms_get(Codec *c) {
  if (!c->ms) {
    c->ms = PyMem_Calloc(1, sizeof *c->ms);
    if (!c->ms) PyErr_NoMemory();
  }
  return c->ms;
}

/* Zeroed, 16-aligned scratch for images, valid until the next reset. */
static uint8_t *salloc_more(struct mstate *s, size_t n) {
  chunk *k = s->cur;
  while (k && k->cap - k->used < n) {
    k = k->next;
    if (k) k->used = 0;
  }
  if (!k) {
    size_t cap = n > CHUNK ? n : CHUNK;
    k = PyMem_Malloc(sizeof *k + cap);
    if (!k) {
      PyErr_NoMemory();
      return NULL;
    }
    k->cap = cap;
    k->used = 0;
    k->next = NULL;
    if (s->cur) {
      k->next = s->cur->next;
      s->cur->next = k;
    } else {
      s->head = k;
    }
  }
  s->cur = k;
  uint8_t *p = k->data + k->used;
  k->used += n;
  memset(p, 0, n);
  return p;
}

static inline uint8_t *salloc(struct mstate *s, size_t n) {
  n = (n + 15) & ~(size_t)15;
  chunk *k = s->cur;
  if (k && k->cap - k->used >= n) {
    uint8_t *p = k->data + k->used;
    k->used += n;
    memset(p, 0, n);
    return p;
  }
  return salloc_more(s, n);
}

/* The walk met code that may run Python code (a property, a buffer
 * exporter written in Python, ...), which could free what the image points
 * into: in a walk that does not hold those objects, start again holding
 * them (LW_RESTART). */
#define LW_RESTART 2
static inline int may_run_python(struct mstate *s) {
  return s->pinning ? 0 : LW_RESTART;
}

static int hold_grow(struct mstate *s, PyObject *o) {
  if (s->npins == s->pins_cap) {
    size_t cap = s->pins_cap ? 2 * s->pins_cap : 64;
    PyObject **t = PyMem_Realloc(s->pins, cap * sizeof *t);
    if (!t) {
      PyErr_NoMemory();
      return -1;
    }
    s->pins = t;
    s->pins_cap = cap;
  }
  s->pins[s->npins++] = Py_NewRef(o);
  return 0;
}

/* Keeps a (new or borrowed) object alive until the call returns. */
static inline int hold(struct mstate *s, PyObject *o) {
  if (s->npins < s->pins_cap) {
    s->pins[s->npins++] = Py_NewRef(o);
    return 0;
  }
  return hold_grow(s, o);
}

/* An object the image points into: held when Python code may run during
 * the walk; otherwise nothing can free it before the call returns. */
static inline int pin(struct mstate *s, PyObject *o) {
  return s->pinning ? hold(s, o) : 0;
}

static Py_buffer *buf_push(struct mstate *s) {
  if (s->nbufs == s->bufs_cap) {
    size_t cap = s->bufs_cap ? 2 * s->bufs_cap : 8;
    Py_buffer *t = PyMem_Realloc(s->bufs, cap * sizeof *t);
    if (!t) {
      PyErr_NoMemory();
      return NULL;
    }
    s->bufs = t;
    s->bufs_cap = cap;
  }
  return &s->bufs[s->nbufs++];
}

/* After a call: the pins and buffers go, the chunks are kept (the first
 * one only, after a large message). */
static void scratch_reset(struct mstate *s) {
  for (size_t i = 0; i < s->npins; i++) Py_DECREF(s->pins[i]);
  s->npins = 0;
  for (size_t i = 0; i < s->nbufs; i++) PyBuffer_Release(&s->bufs[i]);
  s->nbufs = 0;
  if (s->head) {
    chunk *k = s->head->next;
    s->head->next = NULL;
    while (k) {
      chunk *n = k->next;
      PyMem_Free(k);
      k = n;
    }
    s->head->used = 0;
  }
  s->cur = s->head;
  if (s->pins_cap > 4096) {
    PyMem_Free(s->pins);
    s->pins = NULL;
    s->pins_cap = 0;
  }
}

static inline void st_ptr(uint8_t *p, const void *v) { memcpy(p, &v, sizeof v); }
static inline const uint8_t *ld_ptr(const uint8_t *p) {
  const uint8_t *v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline void st_len(uint8_t *p, uint32_t n) { memcpy(p + LEN_AT, &n, 4); }
static inline uint32_t ld_len(const uint8_t *p) {
  uint32_t n;
  memcpy(&n, p + LEN_AT, 4);
  return n;
}

/* ---- plans --------------------------------------------------------------- */

static void mval_free(mval *m) {
  if (!m->sub) return;
  int n = m->kind == MK_MAP ? 2 : 1;
  for (int k = 0; k < n; k++) mval_free(&m->sub[k]);
  PyMem_Free(m->sub);
  m->sub = NULL;
}

static void mlay_free(struct mlay *l, uint32_t n) {
  if (!l) return;
  if (l->f)
    for (uint32_t i = 0; i < n; i++) mval_free(&l->f[i]);
  PyMem_Free(l->f);
  PyMem_Free(l);
}

void lw_mem_plan_free(splan *p) {
  for (int k = 0; k < 2; k++) {
    mlay_free(p->mem[k], p->n);
    p->mem[k] = NULL;
  }
}

static int is_int_tid(uint32_t t) {
  return t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64;
}

/* Memory form, range and kind of an integer wire type. */
static void int_form(uint32_t t, mval *m) {
  switch (t) {
  case WIRE_T_INT8: m->form = WIRE_MEM_I8; m->lo = INT8_MIN; m->hi = INT8_MAX; break;
  case WIRE_T_INT16: m->form = WIRE_MEM_I16; m->lo = INT16_MIN; m->hi = INT16_MAX; break;
  case WIRE_T_INT32: case WIRE_T_VARINT32:
    m->form = WIRE_MEM_I32; m->lo = INT32_MIN; m->hi = INT32_MAX; break;
  case WIRE_T_UINT8: m->form = WIRE_MEM_U8; m->hi = UINT8_MAX; break;
  case WIRE_T_UINT16: m->form = WIRE_MEM_U16; m->hi = UINT16_MAX; break;
  case WIRE_T_UINT32: case WIRE_T_VAR_UINT32:
    m->form = WIRE_MEM_U32; m->hi = UINT32_MAX; break;
  case WIRE_T_UINT64: case WIRE_T_VAR_UINT64: case WIRE_T_TAGGED_UINT64:
    m->form = WIRE_MEM_U64; m->hi = UINT64_MAX; break;
  default:   /* int64, varint64, tagged int64 */
    m->form = WIRE_MEM_I64; m->lo = INT64_MIN; m->hi = INT64_MAX; break;
  }
  m->kind = m->form >= WIRE_MEM_U8 ? MK_UINT : MK_INT;
}

/* The low `width` bytes of v (a two's complement integer) at p. */
static inline void store_int(uint8_t *p, uint8_t width, uint64_t v) {
  switch (width) {
  case 1: *p = (uint8_t)v; break;
  case 2: { uint16_t y = (uint16_t)v; memcpy(p, &y, 2); break; }
  case 4: { uint32_t y = (uint32_t)v; memcpy(p, &y, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

static uint8_t form_width(uint8_t f) {
  switch (f) {
  case WIRE_MEM_I8: case WIRE_MEM_U8: case WIRE_MEM_BOOL: return 1;
  case WIRE_MEM_I16: case WIRE_MEM_U16: case WIRE_MEM_BITS16: return 2;
  case WIRE_MEM_I32: case WIRE_MEM_U32: case WIRE_MEM_F32:
  case WIRE_MEM_ENUM: return 4;
  default: return 8;
  }
}

/* Element type and array.array typecode of a dense array type (0: the
 * layouts do not carry it here: float16 / bfloat16 arrays). */
static uint32_t dense_elem(uint32_t t, char *code) {
  switch (t) {
  case WIRE_T_BOOL_ARRAY: *code = 0; return WIRE_T_BOOL;
  case WIRE_T_INT8_ARRAY: *code = 'b'; return WIRE_T_INT8;
  case WIRE_T_INT16_ARRAY: *code = 'h'; return WIRE_T_INT16;
  case WIRE_T_INT32_ARRAY: *code = 'i'; return WIRE_T_INT32;
  case WIRE_T_INT64_ARRAY: *code = 'q'; return WIRE_T_INT64;
  case WIRE_T_UINT8_ARRAY: *code = 'B'; return WIRE_T_UINT8;
  case WIRE_T_UINT16_ARRAY: *code = 'H'; return WIRE_T_UINT16;
  case WIRE_T_UINT32_ARRAY: *code = 'I'; return WIRE_T_UINT32;
  case WIRE_T_UINT64_ARRAY: *code = 'Q'; return WIRE_T_UINT64;
  case WIRE_T_FLOAT32_ARRAY: *code = 'f'; return WIRE_T_FLOAT32;
  case WIRE_T_FLOAT64_ARRAY: *code = 'd'; return WIRE_T_FLOAT64;
  default: return 0;
  }
}

static int is_scalar(uint8_t kind) {
  return kind == MK_INT || kind == MK_UINT || kind == MK_F32 ||
         kind == MK_F64 || kind == MK_BOOL || kind == MK_ENUM;
}
static int has_len(uint8_t kind) {
  return kind == MK_STR || kind == MK_BYTES || kind == MK_LIST ||
         kind == MK_PACKED || kind == MK_DENSE || kind == MK_MAP;
}

static int mem_build(Codec *c, splan *sp, int var);

/* The layout rows of a value slot. */
static int32_t add_row(Codec *c, uint32_t layout, uint32_t field,
                       const mval *m, uint32_t flags) {
  uint32_t elem = m->kind == MK_STRUCT ? m->sp->mem[m->var]->layout
                  : (m->kind == MK_LIST || m->kind == MK_MAP) ? m->layout
                                                               : NONE;
  uint32_t form = m->form | flags |
                  (m->kind == MK_STR ? WIRE_MEM_STR_TAGGED : 0);
  return wire_mem_layout_field(c->ctx, layout, field, form, m->off,
                               has_len(m->kind) ? m->off + LEN_AT : NONE,
                               m->present, elem);
}

/* A primitive element the packed (ARRAY) form carries. */
static int packable(const hint *e) {
  return e && e->user == WIRE_BY_NAME && !e->nullable &&
         (is_int_tid(e->tid) || e->tid == WIRE_T_FLOAT32 ||
          e->tid == WIRE_T_FLOAT64 || e->tid == WIRE_T_BOOL);
}

static int mval_init(Codec *c, mval *m, const hint *h, uint32_t off, int var,
                     int force_present);

/* An element layout of `n` slots (items of a list, entries of a map). */
static int element_layout(Codec *c, mval *m, const hint *const *hs, int n,
                          int var) {
  m->sub = PyMem_Calloc((size_t)n, sizeof *m->sub);
  if (!m->sub) {
    PyErr_NoMemory();
    return -1;
  }
  for (int k = 0; k < n; k++) {
    int r = mval_init(c, &m->sub[k], hs[k], SLOT * (uint32_t)k, var, 0);
    if (r) return r;
  }
  m->esize = SLOT * (uint32_t)n;
  if (wire_mem_layout_new(c->ctx, WIRE_MEM_ELEMENT, m->esize, &m->layout))
    return 1;
  for (int k = 0; k < n; k++)
    if (add_row(c, m->layout, (uint32_t)k, &m->sub[k], 0)) return 1;
  return 0;
}

/* A slot for a value of declared type h at `off`: 0, 1 (the layouts cannot
 * carry it), -1. */
static int mval_init(Codec *c, mval *m, const hint *h, uint32_t off, int var,
                     int force_present) {
  memset(m, 0, sizeof *m);
  m->off = off;
  m->present = NONE;
  m->layout = NONE;
  m->var = (uint8_t)var;
  if (!h) return 1;
  m->nullable = h->nullable != 0;
  m->tid = (uint8_t)h->tid;
  uint32_t t = h->tid;
  if (h->user != WIRE_BY_NAME) {
    int32_t kind = wire_schema_type_kind(c->ctx, h->user);
    eplan *ep = NULL;
    splan *sp = NULL;
    if (kind == WIRE_KIND_STRUCT || kind == WIRE_KIND_ENUM) {
      sp = lw_class_plan(c, h->user, &ep);
      if (PyErr_Occurred()) return -1;
    }
    if (kind == WIRE_KIND_STRUCT && sp) {
      m->kind = MK_STRUCT;
      m->form = WIRE_MEM_STRUCT_PTR;
      m->sp = sp;
      if (!sp->mem[var]) {
        int r = mem_build(c, sp, var);
        if (r) return r;
      } else if (sp->mem[var]->state < 0) {
        return 1;
      }
    } else if (kind == WIRE_KIND_ENUM && ep) {
      m->kind = MK_ENUM;
      m->form = WIRE_MEM_ENUM;
      m->ep = ep;
    } else {
      return 1;     /* unions, ext types, structs without a class */
    }
  } else if (is_int_tid(t)) {
    int_form(t, m);
  } else if (t == WIRE_T_FLOAT32 || t == WIRE_T_FLOAT64) {
    m->kind = t == WIRE_T_FLOAT32 ? MK_F32 : MK_F64;
    m->form = t == WIRE_T_FLOAT32 ? WIRE_MEM_F32 : WIRE_MEM_F64;
  } else if (t == WIRE_T_BOOL) {
    m->kind = MK_BOOL;
    m->form = WIRE_MEM_BOOL;
  } else if (t == WIRE_T_STRING) {
    m->kind = MK_STR;
    m->form = WIRE_MEM_STR;
  } else if (t == WIRE_T_BINARY) {
    m->kind = MK_BYTES;
    m->form = WIRE_MEM_BYTES;
  } else if (t == WIRE_T_LIST || t == WIRE_T_SET) {
    m->set = t == WIRE_T_SET;
    if (packable(h->elem)) {
      m->kind = MK_PACKED;
      m->form = WIRE_MEM_ARRAY;
      m->sub = PyMem_Calloc(1, sizeof *m->sub);
      if (!m->sub) {
        PyErr_NoMemory();
        return -1;
      }
      int r = mval_init(c, m->sub, h->elem, 0, var, 0);
      if (r) return r;
      m->ew = form_width(m->sub->form);
    } else if (!m->set && h->elem && h->elem->user != WIRE_BY_NAME &&
               !h->elem->nullable &&
               wire_schema_type_kind(c->ctx, h->elem->user) ==
                   WIRE_KIND_STRUCT) {
      /* non-nullable structs: the items are the class's images, inline
       * (libwire's layout of the struct is the element layout) */
      eplan *ep;
      splan *sp = lw_class_plan(c, h->elem->user, &ep);
      if (!sp) return PyErr_Occurred() ? -1 : 1;
      if (!sp->mem[var]) {
        int r = mem_build(c, sp, var);
        if (r) return r;
      } else if (sp->mem[var]->state < 0) {
        return 1;
      }
      m->kind = MK_LIST;
      m->form = WIRE_MEM_LIST;
      m->sub = PyMem_Calloc(1, sizeof *m->sub);
      if (!m->sub) {
        PyErr_NoMemory();
        return -1;
      }
      m->sub->kind = MK_ITEM;
      m->sub->sp = sp;
      m->sub->var = (uint8_t)var;
      m->sub->present = NONE;
      m->sub->layout = NONE;
      m->layout = sp->mem[var]->layout;
      m->esize = sp->mem[var]->size;
    } else {
      m->kind = MK_LIST;
      m->form = WIRE_MEM_LIST;
      const hint *hs[1] = {h->elem};
      int r = element_layout(c, m, hs, 1, var);
      if (r) return r;
    }
  } else if (t == WIRE_T_MAP) {
    m->kind = MK_MAP;
    m->form = WIRE_MEM_MAP;
    const hint *hs[2] = {h->key, h->val};
    int r = element_layout(c, m, hs, 2, var);
    if (r) return r;
  } else {
    char code;
    uint32_t et = dense_elem(t, &code);
    if (!et) return 1;   /* float16 and bfloat16, dates, times, decimals,
                            unions, any */
    m->kind = MK_DENSE;
    m->form = WIRE_MEM_ARRAY;
    m->acode = code;
    m->sub = PyMem_Calloc(1, sizeof *m->sub);
    if (!m->sub) {
      PyErr_NoMemory();
      return -1;
    }
    hint eh = {et, WIRE_BY_NAME, 0, NULL, NULL, NULL};
    int r = mval_init(c, m->sub, &eh, 0, var, 0);
    if (r) return r;
    m->ew = form_width(m->sub->form);
  }
  if (force_present || (m->nullable && is_scalar(m->kind)))
    m->present = off + PRESENT_AT;
  return 0;
}

/* Builds the image plan of a class (and of the classes it nests) and its
 * libwire layout: 0, 1 (the layouts cannot carry the class), -1. Variant 1
 * has a presence byte on every field, to tell fields a writer did not send
 * (2, WIRE_MEM_MARK_ABSENT: they get the class defaults) from fields sent
 * as null (0). */
/* Sets m->est (and its items' and entries'): the fixed part of the object
 * read from m, charged by its owner (the struct's object, the list or
 * map), the rest (items, text) where it is built; a struct charges its
 * own object. Returns m->est. */
static uint32_t mval_est(mval *m) {
  uint32_t e = 0;
  switch (m->kind) {
  case MK_INT: case MK_UINT: case MK_F32: case MK_F64: e = LW_EST_NUM; break;
  case MK_STR: e = LW_EST_STR(0, 1); break;
  case MK_BYTES: e = LW_EST_BYTES(0); break;
  case MK_LIST: case MK_PACKED:
    mval_est(m->sub);
    e = m->set ? LW_EST_SET(0) : LW_EST_LIST(0);
    break;
  case MK_DENSE:
    mval_est(m->sub);
    e = m->acode ? LW_EST_ARRAY(0) : LW_EST_LIST(0);
    break;
  case MK_MAP:
    mval_est(&m->sub[0]);
    mval_est(&m->sub[1]);
    e = LW_EST_DICT(0);
    break;
  default: break;     /* none, bools, enum members, structs */
  }
  m->est = e;
  return e;
}

static int mem_build(Codec *c, splan *sp, int var) {
  struct mlay *ml = PyMem_Calloc(1, sizeof *ml);
  if (!ml) {
    PyErr_NoMemory();
    return -1;
  }
  sp->mem[var] = ml;
  uint32_t n = sp->n;
  ml->size = SLOT * n + 8;
  ml->memo = SLOT * n;
  ml->f = PyMem_Calloc(n ? n : 1, sizeof *ml->f);
  uint32_t *decl = PyMem_Calloc(n ? n : 1, sizeof *decl);
  if (!ml->f || !decl) {
    PyMem_Free(decl);
    ml->state = -1;
    PyErr_NoMemory();
    return -1;
  }
  size_t cnt = 0;
  int r = 1;
  if (wire_schema_field_order(c->ctx, sp->type, decl, n, &cnt) || cnt != n ||
      wire_mem_layout_new(c->ctx, sp->type, ml->size, &ml->layout))
    goto done;
  ml->enc_ok = 1;
  for (uint32_t i = 0; i < n; i++) {
    mval *m = &ml->f[i];
    if (!sp->attr[i]) {
      m->kind = MK_NONE;
      m->present = NONE;
      if (!sp->hints[i] || !sp->hints[i]->nullable) ml->enc_ok = 0;
      continue;
    }
    r = mval_init(c, m, sp->hints[i], SLOT * i, var, var == 1);
    if (r) goto done;
    r = 1;
    /* variant 1: presence 2 for a field the writer did not send, 0 for
     * one sent as null */
    if (add_row(c, ml->layout, decl[i], m,
                var == 1 ? WIRE_MEM_MARK_ABSENT : 0))
      goto done;
  }
  r = 0;
  ml->est = sp->est;
  for (uint32_t i = 0; i < n; i++) ml->est += mval_est(&ml->f[i]);
done:
  PyMem_Free(decl);
  if (r > 0) wire_ctx_clear_error(c->ctx);
  ml->state = r ? -1 : 1;
  return r;
}

/* The ready plan of a class (built and bound the first time), or NULL
 * (no Python error: the layouts cannot carry it). */
static struct mlay *mem_ready(Codec *c, splan *sp, int var) {
  struct mlay *ml = sp->mem[var];
  if (!ml) {
    if (mem_build(c, sp, var) < 0) return NULL;
    ml = sp->mem[var];
  }
  if (ml->state != 1) return NULL;
  if (!ml->bound) {
    if (wire_mem_bind(c->ctx, ml->layout)) {
      wire_ctx_clear_error(c->ctx);
      ml->state = -1;
      return NULL;
    }
    ml->bound = 1;
  }
  return ml;
}

/* ---- writing: Python objects -> image ------------------------------------- */

static int fill_struct(Codec *c, splan *sp, PyObject *o, uint8_t *img);

/* A buffer of numbers in the layout of dense array element `m` (zero
 * copy): 1 if *b holds it, 0 if the value has another layout, -1. */
static int dense_view(const mval *m, PyObject *v, Py_buffer *b) {
  if (PyObject_GetBuffer(v, b, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS)) {
    PyErr_Clear();
    return 0;
  }
  const char *f = b->format ? b->format : "B";
  if (*f == '@' || *f == '=' || *f == '<') f++;
  int ok = f[0] && !f[1] && b->itemsize == m->ew;
  if (ok) {
    uint8_t et = m->sub->kind;
    if (et == MK_INT) ok = strchr("bhilq", f[0]) != NULL ||
                           (m->ew == 1 && f[0] == 'B');
    else if (et == MK_UINT) ok = strchr("BHILQ", f[0]) != NULL ||
                                 (m->ew == 1 && f[0] == 'b');
    else if (et == MK_F32) ok = f[0] == 'f';
    else if (et == MK_F64) ok = f[0] == 'd';
    else ok = 0;
  }
  if (!ok) {
    PyBuffer_Release(b);
    return 0;
  }
  return 1;
}

/* R-WSTR-1 (spec/03-writer-policy.md) for text that is not all Latin-1,
 * given as UTF-16 code units: UTF-8 when the sampled units (the first 64,
 * with the Java runtime's quirk for the units after the last block of 4)
 * are all ASCII, else UTF-16. (wire_string_choose_encoding is the same rule
 * over UTF-8; test_layouts.py checks that the two agree.) */
static int32_t java_choice_ucs2(const Py_UCS2 *u, size_t n) {
  size_t m = n < 64 ? n : 64, whole = m / 4 * 4;
  for (size_t k = 0; k < whole; k++)
    if (u[k] >= 0x80) return WIRE_STR_UTF16;
  if (whole < m && u[whole] >= 0x80) return WIRE_STR_UTF16;
  return WIRE_STR_UTF8;
}

/* A str as the wire has it, in the encoding the Java runtime (and the tape
 * path) writes: Latin-1 text as PyUnicode's own 1-byte data; other text as
 * its UCS-2 data (UTF-16) or its UTF-8 (kept by the str object), as
 * R-WSTR-1 chooses. Strings with lone surrogates (no UTF-8) are left to
 * the tape path (1). */
static int str_data(struct mstate *s, PyObject *v, const void **t, size_t *n,
                    uint32_t *enc) {
  int kind = PyUnicode_KIND(v);
  if (kind == PyUnicode_1BYTE_KIND) {
    *t = PyUnicode_DATA(v);
    *n = (size_t)PyUnicode_GET_LENGTH(v);
    *enc = WIRE_STR_LATIN1;
    return 0;
  }
  Py_ssize_t un;
  const char *u = PyUnicode_AsUTF8AndSize(v, &un);  /* kept by the str */
  if (!u) {
    PyErr_Clear();
    return 1;
  }
  int32_t java = kind == PyUnicode_2BYTE_KIND
      ? java_choice_ucs2(PyUnicode_2BYTE_DATA(v),
                         (size_t)PyUnicode_GET_LENGTH(v))
      : wire_string_choose_encoding((const uint8_t *)u, (size_t)un);
  if (java == WIRE_STR_UTF8 || java < 0) {
    *t = u;
    *n = (size_t)un;
    *enc = WIRE_STR_UTF8;
    return 0;
  }
  *enc = WIRE_STR_UTF16;
#if PY_LITTLE_ENDIAN
  if (kind == PyUnicode_2BYTE_KIND) {
    *t = PyUnicode_DATA(v);
    *n = 2 * (size_t)PyUnicode_GET_LENGTH(v);
    return 0;
  }
#endif
  /* astral characters (or a big-endian host): UTF-16LE made for the call */
  PyObject *b = PyUnicode_AsEncodedString(v, "utf-16-le", "strict");
  if (!b) {
    PyErr_Clear();
    return 1;
  }
  int r = hold(s, b);
  Py_DECREF(b);
  if (r) return 1;
  *t = PyBytes_AS_STRING(b);
  *n = (size_t)PyBytes_GET_SIZE(b);
  return 0;
}

#if defined(__GNUC__)
#define HOT_INLINE static inline __attribute__((always_inline))
#else
#define HOT_INLINE static inline
#endif

HOT_INLINE int fill_value(Codec *c, const mval *m, PyObject *v,
                          uint8_t *base);

/* Items of a list / tuple (or set) into n * stride bytes of scratch. */
static int fill_items(Codec *c, const mval *m, PyObject *v, uint8_t *p,
                      size_t stride) {
  struct mstate *s = c->ms;
  PyObject *seq = v;
  if (PyAnySet_CheckExact(v)) {
    if (!m->set) return LW_FALLBACK;
    seq = PySequence_List(v);
    if (!seq || hold(s, seq)) {
      Py_XDECREF(seq);
      return -1;
    }
    Py_DECREF(seq);
  } else if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) {
    return LW_FALLBACK;
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if ((uint64_t)n > UINT32_MAX) return LW_FALLBACK;
  uint8_t *items = n ? salloc(s, (size_t)n * stride) : (uint8_t *)"";
  if (!items) return -1;
  st_ptr(p, items);
  st_len(p, (uint32_t)n);
  const mval *e = m->sub;
  for (Py_ssize_t i = 0; i < n; i++) {
    /* a property run from inside may shrink a list: no stale reads */
    if (i >= PySequence_Fast_GET_SIZE(seq)) return LW_FALLBACK;
    int r = fill_value(c, e, PySequence_Fast_GET_ITEM(seq, i),
                       items + (size_t)i * stride);
    if (r) return r;
  }
  return 0;
}

/* Every value kind (fill_value does the common cases inline). */
static int fill_other(Codec *c, const mval *m, PyObject *v, uint8_t *base) {
  struct mstate *s = c->ms;
  uint8_t *p = base + m->off;
  if (v == Py_None) return m->nullable ? 0 : LW_FALLBACK;
  if (m->present != NONE) base[m->present] = 1;
  switch (m->kind) {
  case MK_INT: {
    long long x;
    if (!PyLong_CheckExact(v)) return LW_FALLBACK;
    if (!lw_long_i64(v, &x)) {
      int ovf;
      x = PyLong_AsLongLongAndOverflow(v, &ovf);
      if (ovf) return LW_FALLBACK;
      if (x == -1 && PyErr_Occurred()) return -1;
    }
    if (x < m->lo || x > (long long)m->hi) return LW_FALLBACK;
    store_int(p, form_width(m->form), (uint64_t)x);
    return 0;
  }
  case MK_UINT: {
    long long x;
    unsigned long long u;
    if (!PyLong_CheckExact(v)) return LW_FALLBACK;
    if (lw_small_int(v, &x)) {
      if (x < 0) return LW_FALLBACK;
      u = (unsigned long long)x;
    } else {
      u = PyLong_AsUnsignedLongLong(v);
      if (u == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return LW_FALLBACK;
      }
    }
    if (u > m->hi) return LW_FALLBACK;
    store_int(p, form_width(m->form), u);
    return 0;
  }
  case MK_F64: {
    if (!PyFloat_CheckExact(v)) return LW_FALLBACK;
    double d = PyFloat_AS_DOUBLE(v);
    memcpy(p, &d, 8);
    return 0;
  }
  case MK_F32: {
    if (!PyFloat_CheckExact(v)) return LW_FALLBACK;
    uint32_t x = lw_f32_narrow(PyFloat_AS_DOUBLE(v));
    memcpy(p, &x, 4);
    return 0;
  }
  case MK_BOOL:
    if (v == Py_True) *p = 1;
    else if (v == Py_False) *p = 0;
    else return LW_FALLBACK;
    return 0;
  case MK_STR: {
    if (!PyUnicode_CheckExact(v)) return LW_FALLBACK;
    const void *t;
    size_t n;
    uint32_t enc;
    if (str_data(s, v, &t, &n, &enc)) return PyErr_Occurred() ? -1
                                                              : LW_FALLBACK;
    if (n > (UINT32_MAX >> 2)) return LW_FALLBACK;
    if (pin(s, v)) return -1;
    st_ptr(p, t);
    st_len(p, (uint32_t)(n << 2 | enc));
    return 0;
  }
  case MK_BYTES: {
    const void *t;
    Py_ssize_t n;
    if (PyBytes_CheckExact(v)) {
      if (pin(s, v)) return -1;
      t = PyBytes_AS_STRING(v);
      n = PyBytes_GET_SIZE(v);
    } else if (PyByteArray_CheckExact(v) || PyMemoryView_Check(v)) {
      Py_buffer *b = buf_push(s);
      if (!b) return -1;
      if (PyObject_GetBuffer(v, b, PyBUF_SIMPLE)) {   /* not contiguous */
        s->nbufs--;
        PyErr_Clear();
        return LW_FALLBACK;
      }
      t = b->buf ? b->buf : "";
      n = b->len;
    } else {
      return LW_FALLBACK;
    }
    if ((uint64_t)n > UINT32_MAX) return LW_FALLBACK;
    st_ptr(p, t);
    st_len(p, (uint32_t)n);
    return 0;
  }
  case MK_ENUM: {
    const eplan *ep = m->ep;
    for (Py_ssize_t i = 0; i < ep->nw; i++)   /* others: the tape refuses */
      if (ep->member[i] == v) {
        memcpy(p, &ep->value[i], 4);
        return 0;
      }
    return LW_FALLBACK;
  }
  case MK_STRUCT: {
    splan *sp = m->sp;
    struct mlay *ml = sp->mem[0];
    if (Py_TYPE(v) != (PyTypeObject *)sp->cls || !ml || ml->state != 1 ||
        !ml->enc_ok)
      return LW_FALLBACK;
    uint8_t *img = salloc(s, ml->size);
    if (!img) return -1;
    st_ptr(p, img);
    return fill_struct(c, sp, v, img);
  }
  case MK_ITEM: {
    splan *sp = m->sp;
    struct mlay *ml = sp->mem[0];
    if (Py_TYPE(v) != (PyTypeObject *)sp->cls || !ml || ml->state != 1 ||
        !ml->enc_ok)
      return LW_FALLBACK;
    return fill_struct(c, sp, v, p);
  }
  case MK_LIST:
    return fill_items(c, m, v, p, m->esize);
  case MK_PACKED:
    return fill_items(c, m, v, p, m->ew);
  case MK_DENSE: {
    if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) {
      if (Py_TYPE(v) != &PyMemoryView_Type && !lw_is_array(v)) {
        int rr = may_run_python(s);       /* another buffer exporter */
        if (rr) return rr;
      }
      Py_buffer *b = buf_push(s);
      if (!b) return -1;
      int r = dense_view(m, v, b);
      if (r <= 0) {
        s->nbufs--;
        return r < 0 ? -1 : LW_FALLBACK;
      }
      Py_ssize_t n = b->len / m->ew;
      if ((uint64_t)n > UINT32_MAX) return LW_FALLBACK;
      st_ptr(p, b->buf ? b->buf : "");
      st_len(p, (uint32_t)n);
      return 0;
    }
    return fill_items(c, m, v, p, m->ew);
  }
  case MK_MAP: {
    if (!PyDict_CheckExact(v)) return LW_FALLBACK;
    Py_ssize_t n = PyDict_GET_SIZE(v);
    if ((uint64_t)n > UINT32_MAX) return LW_FALLBACK;
    uint8_t *items = n ? salloc(s, (size_t)n * m->esize) : (uint8_t *)"";
    if (!items) return -1;
    st_ptr(p, items);
    st_len(p, (uint32_t)n);
    Py_ssize_t pos = 0, i = 0;
    PyObject *k, *x;
    while (PyDict_Next(v, &pos, &k, &x)) {
      if (i >= n) return LW_FALLBACK;     /* changed under us */
      uint8_t *e = items + (size_t)i++ * m->esize;
      int r = fill_value(c, &m->sub[0], k, e);
      if (!r) r = fill_value(c, &m->sub[1], x, e);
      if (r) return r;
    }
    return i == n ? 0 : LW_FALLBACK;
  }
  default:
    return LW_FALLBACK;
  }
}

/* A value into its slot: 0, LW_FALLBACK, -1. Small ints, floats, bools,
 * Latin-1 strings and enums here, the rest in fill_other. */
HOT_INLINE int fill_value(Codec *c, const mval *m, PyObject *v,
                          uint8_t *base) {
  uint8_t *p = base + m->off;
  switch (m->kind) {
  case MK_INT: {
    long long x;
    if (!PyLong_CheckExact(v) || !lw_long_i64(v, &x) || x < m->lo ||
        x > (long long)m->hi)
      break;
    if (m->form == WIRE_MEM_I32) {
      int32_t y = (int32_t)x;
      memcpy(p, &y, 4);
    } else if (m->form == WIRE_MEM_I64) {
      int64_t y = x;
      memcpy(p, &y, 8);
    } else {
      break;
    }
    if (m->present != NONE) base[m->present] = 1;
    return 0;
  }
  case MK_F64:
    if (!PyFloat_CheckExact(v)) break;
    memcpy(p, &((PyFloatObject *)v)->ob_fval, 8);
    if (m->present != NONE) base[m->present] = 1;
    return 0;
  case MK_BOOL:
    if (v != Py_True && v != Py_False) break;
    *p = v == Py_True;
    if (m->present != NONE) base[m->present] = 1;
    return 0;
  case MK_STR:
    if (!PyUnicode_CheckExact(v) || PyUnicode_KIND(v) != PyUnicode_1BYTE_KIND)
      break;
    {
      size_t n = (size_t)PyUnicode_GET_LENGTH(v);
      if (n > (UINT32_MAX >> 2) || pin(c->ms, v)) break;
      st_ptr(p, PyUnicode_DATA(v));
      st_len(p, (uint32_t)(n << 2 | WIRE_STR_LATIN1));
    }
    if (m->present != NONE) base[m->present] = 1;
    return 0;
  case MK_ENUM: {
    const eplan *ep = m->ep;
    for (Py_ssize_t i = 0; i < ep->nw; i++)   /* others: the tape refuses */
      if (ep->member[i] == v) {
        memcpy(p, &ep->value[i], 4);
        if (m->present != NONE) base[m->present] = 1;
        return 0;
      }
    break;
  }
  default:
    break;
  }
  if (!c->ms->pinning) return fill_other(c, m, v, base);
  /* Python code may run inside (a nested property): v stays alive */
  Py_INCREF(v);
  int r = fill_other(c, m, v, base);
  Py_DECREF(v);
  return r;
}

/* Fields of an instance with a __dict__: the dict's entries in the order
 * the class's instances had them last time (dataclass __init__ order),
 * matched by the interned names; anything else by name. */
static int fill_from_dict(Codec *c, splan *sp, const struct mlay *ml,
                          PyObject *o, PyObject *d, uint8_t *img) {
  Py_ssize_t pos = 0;
  PyObject *k, *v;
  uint32_t j = 0, n = sp->n;
  while (j < sp->nattr && PyDict_Next(d, &pos, &k, &v)) {
    uint32_t i = sp->dorder[j];
    if (sp->attr[i] != k) {
      for (i = 0; i < n && sp->attr[i] != k; i++) {}
      if (i == n) continue;               /* not a field */
      sp->dorder[j] = i;
    }
    j++;
    int r = fill_value(c, &ml->f[i], v, img);
    if (r) return r;
  }
  if (j == sp->nattr) return 0;
  /* a field not in the dict (a class default, a key not interned) */
  int rr = may_run_python(c->ms);
  if (rr) return rr;
  for (uint32_t i = 0; i < n; i++) {
    if (!sp->attr[i]) continue;
    PyObject *x = PyDict_GetItemWithError(d, sp->attr[i]);
    if (x) {
      Py_INCREF(x);
    } else {
      if (PyErr_Occurred()) return -1;
      x = PyObject_GetAttr(o, sp->attr[i]);
      if (!x) return -1;
    }
    int r = hold(c->ms, x);
    Py_DECREF(x);
    if (!r) r = fill_value(c, &ml->f[i], x, img);
    if (r) return r;
  }
  return 0;
}

static int fill_struct(Codec *c, splan *sp, PyObject *o, uint8_t *img) {
  struct mstate *s = c->ms;
  const struct mlay *ml = sp->mem[0];
  /* a cycle without reference tracking: the tape path reports it */
  if (++s->depth > s->max_depth) return LW_FALLBACK;
  int r = 0;
  PyObject *d = NULL;
  if (sp->use_dict) {
    d = PyObject_GenericGetDict(o, NULL);
    if (!d) PyErr_Clear();
  }
  if (d) {
    r = fill_from_dict(c, sp, ml, o, d, img);
    Py_DECREF(d);
  } else {
    for (uint32_t i = 0; i < sp->n && !r; i++) {
      if (!sp->attr[i]) continue;
      PyObject *v;
      if (sp->slot[i] >= 0) {
        v = *(PyObject **)((char *)o + sp->slot[i]);
        if (!v) v = Py_None;
      } else {
        r = may_run_python(s);                /* a property, a default */
        if (r) break;
        v = PyObject_GetAttr(o, sp->attr[i]);
        if (!v) return -1;
        r = hold(s, v);
        Py_DECREF(v);
        if (r) break;
      }
      r = fill_value(c, &ml->f[i], v, img);
    }
  }
  s->depth--;
  return r;
}

int lw_mem_encode(Codec *c, PyObject *obj, splan *sp, PyObject *into,
                  PyObject **out) {
  struct mstate *s = ms_get(c);
  if (!s) return -1;
  struct mlay *ml = mem_ready(c, sp, 0);
  if (!ml || !ml->enc_ok) return PyErr_Occurred() ? -1 : LW_FALLBACK;
  uint64_t lim = wire_ctx_get_limit(c->ctx, WIRE_LIMIT_DEPTH);
  s->max_depth = lim > 100000 ? 100000 : (size_t)lim;
  /* the caller's buffer first: its exporter may run Python code, which must
   * not happen between the walk and the encode */
  Py_buffer ib;
  if (into != Py_None &&
      PyObject_GetBuffer(into, &ib, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS))
    return -1;
  int r;
  uint8_t *img;
  s->pinning = sp->pin_walk;
  for (;;) {
    s->depth = 0;
    img = salloc(s, ml->size);
    r = img ? fill_struct(c, sp, obj, img) : -1;
    if (r != LW_RESTART) break;
    scratch_reset(s);
    s->pinning = 1;
    sp->pin_walk = 1;     /* this class's walks hold what they point into */
  }
  if (r == 0) {
    /* the UTF-8 of str objects is valid: no second check */
    wire_ctx_set_option(c->ctx, WIRE_OPT_TRUSTED_TEXT, 1);
    int32_t st;
    size_t n = 0;
    if (into != Py_None) {
      st = wire_mem_encode_to(c->ctx, ml->layout, img, ib.buf, (size_t)ib.len,
                              &n);
      if (st == WIRE_E_BUFFER_FULL) {
        wire_ctx_clear_error(c->ctx);
        lw_buffer_full(c, n);
        r = -1;
      } else if (!st) {
        *out = PyLong_FromSize_t(n);
        if (!*out) r = -1;
      }
    } else {
      const uint8_t *bytes;
      st = wire_mem_encode(c->ctx, ml->layout, img, &bytes, &n);
      if (!st) {
        *out = PyBytes_FromStringAndSize((const char *)bytes, (Py_ssize_t)n);
        if (!*out) r = -1;
      }
    }
    wire_ctx_set_option(c->ctx, WIRE_OPT_TRUSTED_TEXT, 0);
    if (r == 0 && st && st != WIRE_E_BUFFER_FULL) {
      /* what the encoder refuses, the tape path reports */
      wire_ctx_clear_error(c->ctx);
      r = LW_FALLBACK;
    }
  }
  if (into != Py_None) PyBuffer_Release(&ib);
  scratch_reset(s);
  s->pinning = 0;
  return r;
}

/* ---- reading: image -> Python objects -------------------------------------- */

static PyObject *build_struct(Codec *c, splan *sp, int var, uint8_t *img,
                              int memo);
static PyObject *build_value(Codec *c, const mval *m, const uint8_t *base);

/* Adds k to a set (v NULL) or k: v to a dict; an unhashable key (a list,
 * a dict) as its hashable form, as the tape path does. */
static int add_entry(Codec *c, PyObject *to, PyObject *k, PyObject *v) {
  int r = v ? PyDict_SetItem(to, k, v) : PySet_Add(to, k);
  if (r && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    PyObject *h = PyObject_CallOneArg(c->h_hashable, k);
    r = !h ? -1 : v ? PyDict_SetItem(to, h, v) : PySet_Add(to, h);
    Py_XDECREF(h);
  }
  return r;
}

static PyObject *build_items(Codec *c, const mval *m, const uint8_t *p,
                             size_t stride) {
  const uint8_t *items = ld_ptr(p);
  if (!items) Py_RETURN_NONE;
  uint32_t n = ld_len(p);
  const mval *e = m->sub;
  if (lw_charge(c, (size_t)n * ((m->set ? LW_EST_SET(1) - LW_EST_SET(0)
                                         : LW_EST_LIST(1) - LW_EST_LIST(0)) +
                                 e->est)))
    return NULL;
  if (!m->set) {
    PyObject *l = PyList_New(n);
    if (!l) return NULL;
    for (uint32_t i = 0; i < n; i++) {
      PyObject *v;
      if (e->kind == MK_ITEM) {
        /* an inline image: no reference can name it (libwire keeps
         * references to pointed-to structs only), its memo slot is not
         * initialised */
        v = build_struct(c, e->sp, e->var,
                         (uint8_t *)items + (size_t)i * stride, 0);
      } else if (e->kind == MK_STRUCT) {
        uint8_t *img = (uint8_t *)ld_ptr(items + (size_t)i * stride);
        v = img ? build_struct(c, e->sp, e->var, img, 1) : Py_NewRef(Py_None);
      } else {
        v = build_value(c, e, items + (size_t)i * stride);
      }
      if (!v) {
        Py_DECREF(l);
        return NULL;
      }
      PyList_SET_ITEM(l, i, v);
    }
    return l;
  }
  PyObject *set = PySet_New(NULL);
  if (!set) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    PyObject *v = build_value(c, e, items + (size_t)i * stride);
    int r = v ? add_entry(c, set, v, NULL) : -1;
    Py_XDECREF(v);
    if (r) {
      Py_DECREF(set);
      return NULL;
    }
  }
  return set;
}

static PyObject *build_value(Codec *c, const mval *m, const uint8_t *base) {
  const uint8_t *p = base + m->off;
  if (m->present != NONE && !base[m->present]) Py_RETURN_NONE;
  switch (m->kind) {
  case MK_INT:
    switch (m->form) {
    case WIRE_MEM_I8: { int8_t y; memcpy(&y, p, 1); return PyLong_FromLong(y); }
    case WIRE_MEM_I16: { int16_t y; memcpy(&y, p, 2); return PyLong_FromLong(y); }
    case WIRE_MEM_I32: { int32_t y; memcpy(&y, p, 4); return PyLong_FromLong(y); }
    default: { int64_t y; memcpy(&y, p, 8); return PyLong_FromLongLong(y); }
    }
  case MK_UINT:
    switch (m->form) {
    case WIRE_MEM_U8: return PyLong_FromLong(*p);
    case WIRE_MEM_U16: { uint16_t y; memcpy(&y, p, 2); return PyLong_FromLong(y); }
    case WIRE_MEM_U32: { uint32_t y; memcpy(&y, p, 4); return PyLong_FromUnsignedLong(y); }
    default: { uint64_t y; memcpy(&y, p, 8); return PyLong_FromUnsignedLongLong(y); }
    }
  case MK_F32: {
    uint32_t x;
    memcpy(&x, p, 4);
    return PyFloat_FromDouble(lw_f32_widen(x));
  }
  case MK_F64: {
    double d;
    memcpy(&d, p, 8);
    return PyFloat_FromDouble(d);
  }
  case MK_BOOL:
    return PyBool_FromLong(*p);
  case MK_STR: {
    const uint8_t *t = ld_ptr(p);
    if (!t) Py_RETURN_NONE;
    uint32_t h = ld_len(p);       /* the wire header: length << 2 | enc */
    Py_ssize_t n = (Py_ssize_t)(h >> 2);
    /* the text at its wire length (a str of UTF-8 text may take up to
     * four times that) */
    if (lw_charge(c, (size_t)n)) return NULL;
    PyObject *v;
    switch (h & 3) {
    case WIRE_STR_LATIN1:
      v = lw_str_latin1((const char *)t, (size_t)n);
      break;
    case WIRE_STR_UTF16: {
      int bo = -1;
      v = PyUnicode_DecodeUTF16((const char *)t, n, "surrogatepass", &bo);
      break;
    }
    default:
      v = PyUnicode_DecodeUTF8((const char *)t, n, "surrogatepass");
      break;
    }
    return v;
  }
  case MK_BYTES: {
    const uint8_t *t = ld_ptr(p);
    if (!t) Py_RETURN_NONE;
    if (lw_charge(c, ld_len(p))) return NULL;
    return lw_bytes_from(t, ld_len(p));
  }
  case MK_ENUM: {
    uint32_t v;
    memcpy(&v, p, 4);
    const eplan *ep = m->ep;
    if (v < ep->nvalue && ep->by_value[v]) return Py_NewRef(ep->by_value[v]);
    PyObject *key = PyLong_FromUnsignedLong(v);
    if (!key) return NULL;
    PyObject *mem = PyDict_GetItemWithError(ep->from_wire, key);
    Py_DECREF(key);
    if (mem) return Py_NewRef(mem);
    if (PyErr_Occurred()) return NULL;
    return lw_fail(c, "value", WIRE_E_VALUE, "%S has no member for wire "
                   "value %u", ep->cls, v);
  }
  case MK_STRUCT: {
    uint8_t *img = (uint8_t *)ld_ptr(p);
    if (!img) Py_RETURN_NONE;
    return build_struct(c, m->sp, m->var, img, 1);
  }
  case MK_LIST:
    return build_items(c, m, p, m->esize);
  case MK_PACKED:
    return build_items(c, m, p, m->ew);
  case MK_DENSE: {
    const uint8_t *t = ld_ptr(p);
    if (!t) Py_RETURN_NONE;
    if (!m->acode) return build_items(c, m, p, m->ew);   /* bools: a list */
    if (lw_charge(c, (size_t)ld_len(p) * m->ew)) return NULL;
    return lw_array_from(c, m->acode, t, (size_t)ld_len(p) * m->ew);
  }
  case MK_MAP: {
    const uint8_t *items = ld_ptr(p);
    if (!items) Py_RETURN_NONE;
    uint32_t n = ld_len(p);
    if (lw_charge(c, (size_t)n * (LW_EST_DICT(1) - LW_EST_DICT(0) +
                                   m->sub[0].est + m->sub[1].est)))
      return NULL;
    PyObject *d = _PyDict_NewPresized(n);
    if (!d) return NULL;
    for (uint32_t i = 0; i < n; i++) {
      const uint8_t *e = items + (size_t)i * m->esize;
      PyObject *k = build_value(c, &m->sub[0], e);
      PyObject *v = k ? build_value(c, &m->sub[1], e) : NULL;
      int r = v ? add_entry(c, d, k, v) : -1;
      Py_XDECREF(k);
      Py_XDECREF(v);
      if (r) {
        Py_DECREF(d);
        return NULL;
      }
    }
    return d;
  }
  default:
    c->ms->fallback = 1;
    return NULL;
  }
}

/* The object of a class image. Each pointed-to image has a slot for the
 * object built from it (`memo`), so a struct the payload references twice
 * (or in a cycle) is built once and shared. */
static PyObject *build_struct(Codec *c, splan *sp, int var, uint8_t *img,
                              int memo) {
  const struct mlay *ml = sp->mem[var];
  if (!ml || ml->state != 1) {
    c->ms->fallback = 1;
    return NULL;
  }
  if (memo) {
    PyObject *seen;
    memcpy(&seen, img + ml->memo, sizeof seen);
    if (seen) return Py_NewRef(seen);
  }
  if (lw_charge(c, ml->est)) return NULL;
  if (Py_EnterRecursiveCall(" in libwire.loads")) return NULL;
  PyObject *o = lw_new_instance(sp->cls);
  if (!o) goto fail;
  if (memo) {
    /* held until the call returns: a setter run while building could
     * drop the object that a later reference names */
    if (hold(c->ms, o)) goto fail;
    memcpy(img + ml->memo, &o, sizeof o);
  }
  for (uint32_t i = 0; i < sp->n; i++) {
    const mval *m = &ml->f[i];
    if (m->kind == MK_NONE) continue;
    PyObject *v;
    if (var == 1 && img[m->present] == 2) {
      /* a field the writer did not send (WIRE_MEM_MARK_ABSENT) */
      v = sp->factory[i] ? PyObject_CallNoArgs(sp->factory[i])
                         : Py_NewRef(sp->dflt[i] ? sp->dflt[i] : Py_None);
      if (v && sp->factory[i] && lw_charge(c, lw_obj_est(v))) Py_CLEAR(v);
    } else {
      v = build_value(c, m, img);
    }
    if (!v) goto fail;
    int r = lw_set_field(o, sp, i, v);
    Py_DECREF(v);
    if (r) goto fail;
  }
  Py_LeaveRecursiveCall();
  return o;
fail:
  Py_LeaveRecursiveCall();
  Py_XDECREF(o);
  return NULL;
}

/* ---- roots: which class a payload holds ------------------------------------- */

static int varu32(const uint8_t **p, const uint8_t *end, uint32_t *v) {
  uint32_t r = 0;
  for (int i = 0; i < 5; i++) {
    if (*p >= end) return 0;
    uint8_t b = *(*p)++;
    r |= (uint32_t)(b & 0x7F) << (7 * i);
    if (b < 0x80) {
      *v = r;
      return 1;
    }
  }
  return 0;
}

/* Skips a field type node of a TypeDef (R-TDEF-9). */
static int skip_type(const uint8_t **q, const uint8_t *end, int top,
                     int depth) {
  uint32_t v;
  if (depth > 64 || !varu32(q, end, &v)) return 0;
  uint32_t t = top ? v : v >> 2;
  if (t == WIRE_T_LIST || t == WIRE_T_SET)
    return skip_type(q, end, 0, depth + 1);
  if (t == WIRE_T_MAP)
    return skip_type(q, end, 0, depth + 1) && skip_type(q, end, 0, depth + 1);
  return 1;
}

typedef struct {
  size_t len;            /* bytes of the TypeDef */
  int byname;            /* the type is registered by name ... */
  uint32_t uid;          /* ... or by this id */
  const uint8_t *name;   /* namespace and name as written */
  size_t nlen;
  int tags, names;       /* whether fields are identified by tag / name */
} tdinfo;

/* The length of a TypeDef at p (R-TDEF-1), 0 if it does not fit. */
static size_t td_len(const uint8_t *p, const uint8_t *end) {
  if (end - p < 9) return 0;
  const uint8_t *q = p + 8;
  uint64_t size = p[0];
  if (size == 0xFF) {
    uint32_t extra;
    if (!varu32(&q, end, &extra)) return 0;
    size += extra;
  }
  if (size < 1 || (uint64_t)(end - q) < size) return 0;
  return (size_t)(q + size - p);
}

/* A TypeDef at p (R-TDEF-1..8): its length, its type spec and how its
 * fields are identified. 0 if it is not a struct TypeDef this reads. */
static int td_parse(const uint8_t *p, const uint8_t *end, tdinfo *o) {
  memset(o, 0, sizeof *o);
  size_t *len = &o->len;
  int *byname = &o->byname;
  uint32_t *uid = &o->uid;
  const uint8_t **name = &o->name;
  size_t *nlen = &o->nlen;
  if (end - p < 9) return 0;
  const uint8_t *q = p + 8;
  uint64_t h;
  memcpy(&h, p, 8);
  if (h & 0xF00) return 0;                 /* compressed, reserved bits */
  uint64_t size = h & 0xFF;
  if (size == 0xFF) {
    uint32_t extra;
    if (!varu32(&q, end, &extra)) return 0;
    size += extra;
  }
  if (size < 1 || (uint64_t)(end - q) < size) return 0;
  const uint8_t *body = q, *bend = q + size;
  *len = (size_t)(bend - p);
  uint8_t b0 = *q++;
  if (!(b0 & 0x80)) return 0;              /* not a struct */
  uint32_t nf = b0 & 0x1F;
  if (nf == 31) {
    uint32_t more;
    if (!varu32(&q, bend, &more)) return 0;
    nf += more;
  }
  *byname = (b0 & 0x20) != 0;
  if (!*byname) {
    if (!varu32(&q, bend, uid)) return 0;
  } else {
    const uint8_t *s = q;
    for (int k = 0; k < 2; k++) {
      if (q >= bend) return 0;
      uint32_t n = *q++ >> 2;
      if (n == 63) {
        uint32_t extra;
        if (!varu32(&q, bend, &extra)) return 0;
        n += extra;
      }
      if ((size_t)(bend - q) < n) return 0;
      q += n;
    }
    *name = s;
    *nlen = (size_t)(q - s);
  }
  for (uint32_t i = 0; i < nf; i++) {
    if (q >= bend) return 0;
    uint8_t h = *q++;
    uint32_t size = (h >> 2) & 0xF;
    if (size == 15) {
      uint32_t extra;
      if (!varu32(&q, bend, &extra)) return 0;
      size += extra;
    }
    if (!skip_type(&q, bend, 1, 0)) return 0;
    if ((h >> 6) == 3) {
      o->tags = 1;
    } else {
      o->names = 1;
      if ((size_t)(bend - q) < (size_t)size + 1) return 0;
      q += size + 1;
    }
  }
  (void)body;
  return 1;
}

static void tinfo_clear(struct mstate *s) {
  PyMem_Free(s->ti);
  s->ti = NULL;
  s->nti = 0;
  s->ti_ready = 0;
}

/* Type meta of every registered struct, from its TypeDef. */
static int tinfo_ready(Codec *c, struct mstate *s) {
  if (s->ti_ready) return 0;
  uint32_t n = wire_schema_type_count(c->ctx);
  s->ti = PyMem_Calloc(n ? n : 1, sizeof *s->ti);
  if (!s->ti) {
    PyErr_NoMemory();
    return -1;
  }
  s->nti = n;
  for (uint32_t t = 0; t < n; t++) {
    if (wire_schema_type_kind(c->ctx, t) != WIRE_KIND_STRUCT) continue;
    tinfo *ti = &s->ti[t];
    const uint8_t *td;
    size_t len;
    tdinfo o;
    if (wire_schema_typedef(c->ctx, t, &td, &len)) {
      wire_ctx_clear_error(c->ctx);
      continue;
    }
    if (!td_parse(td, td + len, &o)) continue;
    ti->byname = (uint8_t)o.byname;
    ti->uid = o.uid;
    ti->name = o.name;
    ti->nlen = o.nlen;
    ti->tags = (uint8_t)o.tags;
    ti->names = (uint8_t)o.names;
    ti->td = td;
    ti->tdlen = o.len;
    ti->ok = 1;
  }
  s->ti_ready = 1;
  return 0;
}

static void cache_clear(struct mstate *s) {
  for (uint32_t i = 0; i < s->ncache; i++) PyMem_Free(s->cache[i].key);
  memset(s->cache, 0, sizeof s->cache);
  s->ncache = s->last = s->next = 0;
}

/* The end of a meta string at p (R-MSWIRE-1: a header of its length and
 * a flag, a hash or an encoding byte, the bytes) announced there, NULL if
 * it is a reference or does not fit. */
static const uint8_t *meta_string_end(const uint8_t *p, const uint8_t *end) {
  uint32_t h;
  if (!varu32(&p, end, &h) || (h & 1)) return NULL;
  size_t len = h >> 1, skip = len > 16 ? 8 : len ? 1 : 0;
  if ((size_t)(end - p) < skip + len) return NULL;
  return p + skip + len;
}

/* The registered type of a payload's root as libwire reads its type meta
 * (wire_root_type), in *t; s->nti for a type without a class here. 0 when
 * libwire refuses the type meta (the tape path reports it). */
static int root_type_of(Codec *c, const uint8_t *d, size_t n, uint32_t *t) {
  struct mstate *s = c->ms;
  if (wire_root_type(c->ctx, d, n, t)) {
    wire_ctx_clear_error(c->ctx);
    return 0;
  }
  if (*t >= s->nti || !s->ti[*t].ok) *t = s->nti;
  return 1;
}

/* The class of a payload's root and the layout variant to read it with;
 * NULL: the tape path reads it (or a Python error). */
static splan *root_plan(Codec *c, const uint8_t *d, size_t n, int *var) {
  struct mstate *s = c->ms;
  if (n < 4 || d[0] != 0x01 || (d[1] != 0xFF && d[1] != 0x00)) return NULL;
  const uint8_t *p = d + 3, *end = d + n, *key = d + 2;
  uint8_t kind = d[2];
  int compat, named = 0;
  const uint8_t *td = NULL;
  tdinfo o;
  memset(&o, 0, sizeof o);
  compat = kind == WIRE_T_COMPATIBLE_STRUCT ||
           kind == WIRE_T_NAMED_COMPATIBLE_STRUCT ||
           (kind == WIRE_T_NAMED_STRUCT &&
            wire_ctx_get_option(c->ctx, WIRE_OPT_COMPATIBLE));
  if (compat) {
    uint32_t marker;
    if (!varu32(&p, end, &marker) || marker != 0) return NULL;
    td = p;
    size_t tl = td_len(p, end);
    if (!tl) return NULL;
    p += tl;
  } else if (kind == WIRE_T_STRUCT) {
    if (!varu32(&p, end, &o.uid)) return NULL;
  } else if (kind == WIRE_T_NAMED_STRUCT) {
    if (!(p = meta_string_end(p, end)) || !(p = meta_string_end(p, end)))
      return NULL;
    named = 1;
  } else {
    return NULL;
  }
  size_t klen = (size_t)(p - key);
  rcache *e = &s->cache[s->last];
  if (s->ncache && e->klen == klen && memcmp(e->key, key, klen) == 0) {
    *var = e->var;
    return e->sp;
  }
  for (uint32_t i = 0; i < s->ncache; i++) {
    e = &s->cache[i];
    if (e->klen == klen && memcmp(e->key, key, klen) == 0) {
      s->last = i;
      *var = e->var;
      return e->sp;
    }
  }
  /* a type meta not seen yet: which registered type, which class */
  if (tinfo_ready(c, s)) return NULL;
  splan *sp = NULL;
  int v = 0;
  uint32_t t = s->nti;
  if (named) {
    /* namespace and type name: libwire decodes the meta strings */
    if (!root_type_of(c, d, n, &t)) return NULL; /* (the tape path reports it) */
  } else if (!td || td_parse(td, end, &o)) {
    for (t = 0; t < s->nti; t++) {
      const tinfo *ti = &s->ti[t];
      if (!ti->ok || ti->byname != o.byname) continue;
      if (o.byname ? ti->nlen == o.nlen &&
                         memcmp(ti->name, o.name, o.nlen) == 0
                   : ti->uid == o.uid)
        break;
    }
    /* names in a writer's TypeDef in encodings other than ours (R-TDEF-7
     * lets a writer choose): libwire decodes them and names the type */
    if (td && o.byname && t == s->nti && !root_type_of(c, d, n, &t))
      t = s->nti;
  }
  if (t < s->nti) {
    eplan *ep;
    sp = lw_class_plan(c, t, &ep);
    if (!sp && PyErr_Occurred()) return NULL;
    const tinfo *ti = &s->ti[t];
    v = td && !(o.len == ti->tdlen && memcmp(td, ti->td, o.len) == 0);
    /* libwire maps a writer's field by tag onto a tagged field, by name
     * onto a field of that name (R-EVOLVE-2); tags where the schema has
     * only names cannot be matched there: the tape path reads those */
    if (v && o.tags && !ti->tags) sp = NULL;
  }
  uint8_t *copy = PyMem_Malloc(klen);
  if (!copy) {
    PyErr_NoMemory();
    return NULL;
  }
  memcpy(copy, key, klen);
  uint32_t slot = s->ncache < NCACHE ? s->ncache++ : s->next++ % NCACHE;
  e = &s->cache[slot];
  PyMem_Free(e->key);
  e->key = copy;
  e->klen = klen;
  e->sp = sp;      /* NULL: the tape path reads these roots */
  e->var = v;
  s->last = slot;
  *var = v;
  return sp;
}

int lw_mem_decode(Codec *c, const uint8_t *data, size_t len, PyObject **out) {
  struct mstate *s = ms_get(c);
  if (!s) return -1;
  int var = 0;
  splan *sp = root_plan(c, data, len, &var);
  if (!sp) return PyErr_Occurred() ? -1 : LW_FALLBACK;
  struct mlay *ml = mem_ready(c, sp, var);
  if (!ml) return PyErr_Occurred() ? -1 : LW_FALLBACK;
  /* lists and pointed-to images go to the arena after the root's image;
   * grown while libwire asks for more (WIRE_E_BUFFER_FULL: `used` is at
   * least the size needed), which it keeps within the context's
   * WIRE_LIMIT_MEM_DECODE (WIRE_E_LIMIT past it, raised as it is: the
   * tape path would build the same objects) */
  uint64_t per = wire_ctx_get_limit(c->ctx, WIRE_LIMIT_MEM_DECODE);
  size_t most = SIZE_MAX;
  if (len <= (SIZE_MAX - WIRE_MEM_DECODE_BASE - ml->size) / (per ? per : 1))
    most = ml->size + WIRE_MEM_DECODE_BASE + (size_t)per * len;
  size_t want = ml->size > ARENA0 ? ml->size : ARENA0;
  for (;;) {
    if (s->arena_cap < want || !s->arena) {
      PyMem_Free(s->arena);
      s->arena = PyMem_Malloc(want);
      s->arena_cap = s->arena ? want : 0;
      if (!s->arena) {
        PyErr_NoMemory();
        return -1;
      }
    }
    memset(s->arena, 0, ml->size);
    size_t used = ml->size;
    int32_t st = wire_mem_decode(c->ctx, ml->layout, data, len, s->arena,
                                 s->arena, s->arena_cap, &used, 0);
    if (!st) {
      uint64_t na = wire_mem_absent_count(c->ctx);
      if (na == s->nabsent) break;
      s->nabsent = na;
      if (var == 1) break;
      /* a struct within (the root's TypeDef is the registered one) was
       * read from a writer's TypeDef that lacks fields: read again with
       * a presence byte on every field, which tells them (they get the
       * class defaults, as the tape path gives them) */
      var = 1;
      ml = mem_ready(c, sp, 1);
      if (!ml) return PyErr_Occurred() ? -1 : LW_FALLBACK;
      continue;
    }
    if (st == WIRE_E_BUFFER_FULL && used > s->arena_cap) {
      wire_ctx_clear_error(c->ctx);
      want = s->arena_cap > most / 4 ? most : s->arena_cap * 4;
      if (want < used) want = used;
      continue;
    }
    if (st == WIRE_E_LIMIT) {
      lw_ctx_fail(c, st);
      return -1;
    }
    wire_ctx_clear_error(c->ctx);
    return LW_FALLBACK;
  }
  s->fallback = 0;
  /* the objects: charged against a budget of their own, by the same
   * formula as the arena's */
  lw_budget_start(c, len);
  *out = build_struct(c, sp, var, s->arena, 1);
  int r = *out ? 0 : (s->fallback && !PyErr_Occurred()) ? LW_FALLBACK : -1;
  scratch_reset(s);
  if (s->arena_cap > ARENA_KEEP) {
    PyMem_Free(s->arena);
    s->arena = NULL;
    s->arena_cap = 0;
  }
  return r;
}

void lw_mem_clear(Codec *c) {
  if (!c->ms) return;
  tinfo_clear(c->ms);
  cache_clear(c->ms);
}

void lw_mem_free(Codec *c) {
  struct mstate *s = c->ms;
  if (!s) return;
  lw_mem_clear(c);
  scratch_reset(s);
  PyMem_Free(s->head);
  PyMem_Free(s->pins);
  PyMem_Free(s->bufs);
  PyMem_Free(s->arena);
  PyMem_Free(s);
  c->ms = NULL;
}
