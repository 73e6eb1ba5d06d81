/* mem.h - native memory layouts and their compiled plans (mem_layout.c,
 * mem_enc.c, mem_dec.c with mem_dec_typedef.c): the state behind wire_mem_*
 * in wire.h, and the helpers they share. Not installed.
 *
 * A layout says where the fields of a registered struct live in memory
 * (mspec, as the caller gave them). Binding compiles it into a plan: one
 * mop per field in wire order, with the framing decided once (reference
 * flag or not, type meta or not, the list header), and the type meta bytes
 * (type id, TypeDef) computed once. Encoding and decoding walk the plan.
 * A writer's TypeDef that differs from the registered one gets its own op
 * sequence (a mapping: ops in the writer's order that store into the
 * reader's memory, skip, or convert), computed once and cached. */
#ifndef WIRE_MEM_H
#define WIRE_MEM_H

#include "dec.h"
#include "policy.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define copy_short wire__copy_short

typedef struct {
  uint32_t field, form, offset, aux, present, elem;
} wire_mspec;

/* op codes: how a value goes between memory and the wire */
enum {
  MOP_NONE = 0,
  MOP_INT,      /* integer wire types from/to integer forms */
  MOP_BOOL,
  MOP_BITS16,   /* float16 / bfloat16 */
  MOP_F32,
  MOP_F64,
  MOP_STR,
  MOP_BYTES,    /* binary */
  MOP_DENSE,    /* dense array <-> packed memory */
  MOP_PLIST,    /* list/set of primitives <-> packed memory */
  MOP_LIST,     /* list/set of element-layout items */
  MOP_MAP,
  MOP_STRUCT,   /* nested struct inline */
  MOP_STRUCT_PTR,
  MOP_ENUM,
  MOP_DATE,
  MOP_TIMESTAMP,
  MOP_DURATION,
  MOP_DECIMAL,
  MOP_SKIP,     /* mapping: a writer's field the reader does not have */
  MOP_UNION,    /* a union: case id at aux, the value at off (layout elem) */
};

/* mop.fl */
#define MF_FLAG 0x01    /* a reference / null flag precedes the value */
#define MF_REF 0x02     /* the flag may be a reference (ref tracked) */
#define MF_META 0x04    /* type meta precedes the body (struct in compat) */
#define MF_LEN64 0x08   /* length / count at aux is uint64_t */
#define MF_PRESENT 0x10 /* presence flag at `present` */
#define MF_CHECK 0x20   /* integer needs a range check */
#define MF_TRACK 0x40   /* written with REF_VALUE (ref tracking on) */
#define MF_TAGGED 0x80  /* string: the length word is the wire header */

typedef struct wire_mop wire_mop;
/* fast paths of the struct loops (mop.x), chosen at bind time */
enum { MX_SLOW = 0, MX_VI32, MX_VI64, MX_BOOL, MX_ENUM, MX_F32, MX_F64,
       MX_STR, MX_VI32_64 /* decode only: varint32 into an int64 */,
       MX_TSTR,  /* a tagged string (WIRE_MEM_STR_TAGGED) */
       MX_DENSE, /* binary, or a dense array held at its wire width
                    (esize: the width; not bool) */
       MX_RUN,   /* decode only (mop.dx): the first of a run of varints
                    of one case (drun of them) */
       MX_BOOLS, /* decode only: a bool array held as bytes */
       MX_NEST,  /* decode only: an inline struct without a flag */
       MX_LIST,  /* decode only: a list without a flag */
       MX_END,   /* the op after a struct plan's last (its ops[nops]),
                    where the struct loops end */
       /* encode only (mop.ex): */
       MX_SPTR,  /* a struct pointer without a presence flag */
       MX_DEC,   /* a decimal without a flag, meta or presence flag */
       MX_TIME,  /* a timestamp, likewise */
       MX_TSTRF, /* a tagged string with a null flag alone (nullable, not
                    tracked, no presence flag, 32-bit header) */
       MX_LTSTR, /* an MX_LIST of tagged strings (32-bit count and headers,
                    no presence flags) */
       MX_LSPTR, /* an MX_LIST of struct pointers (32-bit count, no
                    presence flags) */
       MX_STRF   /* a UTF-8 string with a null flag alone (as MX_TSTRF,
                    a 32-bit length) */ };

struct wire_mop {
  uint8_t x;     /* MX_*: the inline case of the struct loops */
  uint8_t code;  /* MOP_* */
  uint8_t wt;    /* wire type of the value (writer's, for mappings) */
  uint8_t form;  /* memory form (WIRE_MEM_*, flags masked) */
  uint8_t fl;    /* MF_* */
  uint8_t lh;    /* list header without nulls; of a map, the header of
                    its chunks without nulls (wire__pol_chunk) */
  uint8_t lh_null; /* list header with a null element */
  uint8_t ewt;   /* element wire type (dense arrays, lists of primitives) */
  uint8_t eform; /* element form of packed lists */
  uint8_t drun;  /* decoding: ops from this one to the end of its run of
                    varints of one inline case (0: not in one) */
  uint16_t dneed; /* the most bytes those ops read */
  uint32_t off, aux, present;
  uint32_t elem;     /* layout of a nested struct / element layout */
  uint32_t esize;    /* stride of list items */
  uint32_t local;    /* registered field (decl index), or WIRE_NO_TYPE */
  uint8_t ek;        /* encode only, maps: how their keys and values
                        are null and are strings, made at bind
                        (wire__menc_kinds) */
  const wire_ftype *ft;   /* declared (or writer's) type */
  wire_mop *sub;     /* element ops: 1 (list) or 2 (map: key, value) */
  const wire_lfield *lf;  /* the writer's field (skips) */
  uint32_t rest;     /* most bytes this and the following inline ops
                        write (strings: their header), for one reserve */
  uint8_t dx;        /* the decoder's case: x, or MX_RUN at a run's start */
  uint8_t ditems;    /* lists: the items the decoder reads in a loop of
                        their own when they come without flags (MDI_*) */
  uint8_t ex;        /* the encoder's case: dx, or one of encode only */
  uint8_t ds;        /* decode only: the struct loop's case of an op of dx
                        MX_SLOW (MDS_*; MDS_NONE: dec_field's way) */
};
/* mop.ds: the decoder's struct loop reads these without dec_field's call
 * and dispatch (none of them with a presence flag or a range check): a
 * struct pointer without a flag (PTR) and with one (FPTR, a reference /
 * null flag), a decimal (DEC) or timestamp / duration (TIME) without a
 * flag, a string of an inline form with a flag (FSTR), a map without a
 * flag (MAP). */
enum { MDS_NONE = 0, MDS_PTR, MDS_FPTR, MDS_DEC, MDS_TIME, MDS_FSTR, MDS_MAP,
       /* every op of a plan made with wire__mdec_ds_ok off (tests): no
        * struct loop case, and dec_body and ref_flag leave their inline
        * readers of decimals, timestamps and references to the general
        * ones (lists and maps get no ditems either); the decision is the
        * plan's, none is read per value */
       MDS_GENERAL };
/* mop.ditems: the element op (sub[0]) an inline struct, a UTF-8 string
 * with a 32-bit length, or a string left in its wire encoding
 * (WIRE_MEM_STR_TAGGED), a struct pointer (none of them with a presence
 * flag); of a map, MDI_STR: the key and the value strings of those two
 * forms (without a presence flag), MDI_TSTR when both are tagged (the
 * decoder tests `ditems & 2` for either) */
enum { MDI_NONE = 0, MDI_STRUCT, MDI_STR, MDI_TSTR, MDI_SPTR };

/* The most bytes a run of varint ops may read (a run is read after one
 * bounds check of this many bytes at most). */
#define WIRE_MEM_RUN_MAX 128

/* The op sequence of a struct as some writer sent it. */
typedef struct wire_mplan {
  wire_mop *ops;     /* nops of them, then one of dx MX_END */
  uint32_t nops;
  /* fields of the reader the writer did not send: zeroed / defaulted */
  const wire_mspec **missing;
  uint32_t nmissing;
  /* every op one of the struct loop's inline cases of a fixed-size value
   * or a varint (no string, list, nested struct, flag or meta) and no
   * field missing: a root of this plan may be read by wire_mem_decode's
   * flat path (mem_dec_root.c), without the decoder's state */
  bool flat;
  /* a body by this plan begins with the struct's schema hash (not
   * compatible mode, a kind that has one: wire__mem_hashed) */
  bool hashed;
} wire_mplan;

/* A cached writer TypeDef of a layout's type and its mapping. */
typedef struct wire_mmap {
  struct wire_mmap *next;
  const uint8_t *td;   /* copy of the TypeDef bytes */
  uint32_t td_len;
  wire_mplan plan;
  const uint32_t *gen;  /* the generated code's map (gen_run.c), or NULL */
  uint32_t ngen;
} wire_mmap;

/* What binding compiles from a layout for one mode of the context (the
 * framing, the struct kind, the schema hash and the writers' mappings
 * depend on WIRE_OPT_COMPATIBLE, WIRE_OPT_REF_TRACKING and WIRE_OPT_PEER). */
typedef struct {
  bool bound;
  uint32_t hash;       /* the same-schema hash written (the peer's) */
  wire_mplan plan;     /* registered field order */
  uint8_t kind;        /* struct kind written (WIRE_T_COMPATIBLE_STRUCT...) */
  uint8_t *td;         /* TypeDef bytes (compatible struct kinds) */
  uint32_t td_len;
  wire_mmap *maps;     /* writers' other TypeDefs */
  uint32_t nmaps;
  uint8_t pre[16];     /* a same-schema root's first bytes (wire_mlayout) */
  uint8_t pre_len;
} wire_mcompiled;

/* The modes a layout is compiled for: compatible, ref tracking, peer. */
#define WIRE_MEM_MODES 16

typedef struct {
  uint32_t type;     /* registered struct or union, or WIRE_MEM_ELEMENT */
  uint32_t size;
  wire_mspec *specs;
  uint32_t nspecs, cap;
  bool frozen;       /* bound once: no more rows */
  bool binding;
  bool is_struct;    /* a registered struct's (set when bound) */
  /* compiled for the current mode (wire_mem.mode); the other modes'
   * compilations wait in `other` (wire__mem_mode swaps them) */
  bool bound;
  uint32_t hash;       /* the same-schema hash written (the peer's) */
  wire_mplan plan;     /* registered field order */
  uint8_t kind;        /* struct kind written (WIRE_T_COMPATIBLE_STRUCT...) */
  uint8_t *td;         /* TypeDef bytes (compatible struct kinds), after
                          the four bytes that begin a root of this
                          layout: 01 FF kind 00 (td - 4) */
  uint32_t td_len;
  wire_mmap *maps;     /* writers' other TypeDefs */
  uint32_t nmaps;
  /* a root of a same-schema struct registered by id (WIRE_T_STRUCT, not
   * compatible mode) as this writer sends it: xlang header, not-null
   * flag, the kind, the user type id, the schema hash; recognised with
   * one compare (wire_mem_decode). pre_len 0: no such root. */
  uint8_t pre[16];
  uint8_t pre_len;
  wire_mcompiled other[WIRE_MEM_MODES];
} wire_mlayout;

typedef struct wire_mem_s {
  wire_mlayout *layouts;
  uint32_t n, cap;
  uint32_t mode;       /* the mode the layouts are compiled for */
  wire_arena arena;    /* ops, TypeDef copies, writers' layouts */
  /* encoder */
  wire_enc e;
  uint32_t gen;        /* message counter: TypeDefs announced */
  uint32_t *td_gen, *td_idx; /* per registered type */
  uint32_t ntd;
  uint32_t next_td;
  const void **refp;   /* tracked pointers of this message */
  uint32_t *refid;
  uint32_t nref, ref_cap;
  /* decoder: TypeDef index -> plan of this message */
  const wire_mplan **dtd;
  uint32_t *dtd_layout;
  uint32_t ndtd, dtd_cap;
  void **dref;         /* decoded tracked values by ref id (NULL: not a
                          struct pointer) */
  uint32_t *dref_layout;
  uint32_t ndref, dref_cap;
  wire_layout **tds;   /* the decoder's TypeDef table (wire_dec.tds) */
  size_t tds_cap;
  ms_entry *ms;        /* the decoder's meta string table */
  size_t ms_cap;
  bool words;          /* the decoder reads varint runs a word at a time
                          (mem_dec_run.c: the CPU can) */
  uint64_t nabsent;    /* struct values read with fields their writer's
                          TypeDef lacks (wire_mem_absent_count) */
} wire_mem;

void wire__mem_free(wire_ctx *ctx);
/* Whether the decoder's varint runs may be read a word at a time: the
 * CPU has BMI1 and BMI2 (mem_dec_run.c). */
bool wire__mdec_words(void);
/* Whether ops get the decoder's struct loop cases (mop.ds; read when
 * plans are made, never per value: off, the ops made from then on are
 * MDS_GENERAL; tests turn it off to compare with dec_field's way). */
extern bool wire__mdec_ds_ok;
/* Puts the layouts' compilations for the context's current options in
 * place (each mode is compiled once, when first used). */
void wire__mem_switch(wire_mem *m, uint32_t mode);
static inline void wire__mem_mode(const wire_ctx *ctx, wire_mem *m) {
  uint32_t mode = (ctx->compatible ? 1u : 0u) | (ctx->ref_tracking ? 2u : 0u) |
                  (uint32_t)(ctx->peer & 3) << 2;
  if (WIRE_UNLIKELY(mode != m->mode)) wire__mem_switch(m, mode);
}
/* The context's layout state, created on first use (NULL: out of memory). */
wire_mem *wire__mem_state(wire_ctx *ctx);

/* ---- shared by mem_layout.c, mem_enc.c and mem_dec.c ------------------ */

static inline int32_t nomem(wire_ctx *ctx) {
  return wire__fail(ctx, WIRE_E_NOMEM, 0, "out of memory");
}

static inline bool grow(wire_ctx *ctx, void **p, uint32_t *cap, uint32_t need,
                 size_t size) {
  if (need <= *cap) return true;
  uint32_t nc = *cap ? *cap : 8;
  while (nc < need) nc *= 2;
  void *q = wire__realloc(ctx, *p, (size_t)*cap * size, (size_t)nc * size);
  if (!q) return false;
  *p = q;
  *cap = nc;
  return true;
}

/* Room for n entries in the encoder's and the decoder's reference tables. */
static inline bool ref_room(wire_ctx *ctx, wire_mem *m, uint32_t n) {
  if (n <= m->ref_cap) return true;
  uint32_t nc = m->ref_cap ? m->ref_cap * 2 : 16;
  while (nc < n) nc *= 2;
  const void **a = wire__realloc(ctx, m->refp, m->ref_cap * sizeof *a, nc * sizeof *a);
  if (!a) return false;
  m->refp = a;
  uint32_t *b = wire__realloc(ctx, m->refid, m->ref_cap * sizeof *b, nc * sizeof *b);
  if (!b) {
    /* keep the sizes consistent: shrink back is not possible, so grow both
     * or report failure with the old capacity of the smaller one */
    return false;
  }
  m->refid = b;
  m->ref_cap = nc;
  return true;
}
static inline bool dref_room(wire_ctx *ctx, wire_mem *m, uint32_t n) {
  if (n <= m->dref_cap) return true;
  uint32_t nc = m->dref_cap ? m->dref_cap * 2 : 16;
  while (nc < n) nc *= 2;
  void **a = wire__realloc(ctx, m->dref, m->dref_cap * sizeof *a, nc * sizeof *a);
  if (!a) return false;
  m->dref = a;
  uint32_t *b = wire__realloc(ctx, m->dref_layout, m->dref_cap * sizeof *b,
                              nc * sizeof *b);
  if (!b) return false;
  m->dref_layout = b;
  m->dref_cap = nc;
  return true;
}

/* integer wire types and memory forms */
static inline bool is_int_wt(uint8_t t) {
  return t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_UINT64;
}
static inline bool is_int_form(uint32_t f) {
  return f >= WIRE_MEM_I8 && f <= WIRE_MEM_U64;
}
/* bits and signedness of an integer wire type / form */
static inline int wt_bits(uint8_t t) {
  switch (t) {
  case WIRE_T_INT8: case WIRE_T_UINT8: return 8;
  case WIRE_T_INT16: case WIRE_T_UINT16: return 16;
  case WIRE_T_INT32: case WIRE_T_VARINT32: case WIRE_T_UINT32:
  case WIRE_T_VAR_UINT32: return 32;
  default: return 64;
  }
}
static inline bool wt_signed(uint8_t t) { return t >= WIRE_T_INT8 && t <= WIRE_T_TAGGED_INT64; }
static inline int form_bits(uint32_t f) {
  switch (f) {
  case WIRE_MEM_I8: case WIRE_MEM_U8: case WIRE_MEM_BOOL: return 8;
  case WIRE_MEM_I16: case WIRE_MEM_U16: case WIRE_MEM_BITS16: return 16;
  case WIRE_MEM_I32: case WIRE_MEM_U32: case WIRE_MEM_F32:
  case WIRE_MEM_ENUM: return 32;
  default: return 64;
  }
}
static inline bool form_signed(uint32_t f) { return f >= WIRE_MEM_I8 && f <= WIRE_MEM_I64; }

/* The packed memory form of a primitive element type (0: none). */
static inline uint8_t natural_form(uint8_t t) {
  switch (t) {
  case WIRE_T_BOOL: return WIRE_MEM_BOOL;
  case WIRE_T_INT8: return WIRE_MEM_I8;
  case WIRE_T_INT16: return WIRE_MEM_I16;
  case WIRE_T_INT32: case WIRE_T_VARINT32: return WIRE_MEM_I32;
  case WIRE_T_INT64: case WIRE_T_VARINT64: case WIRE_T_TAGGED_INT64:
    return WIRE_MEM_I64;
  case WIRE_T_UINT8: return WIRE_MEM_U8;
  case WIRE_T_UINT16: return WIRE_MEM_U16;
  case WIRE_T_UINT32: case WIRE_T_VAR_UINT32: return WIRE_MEM_U32;
  case WIRE_T_UINT64: case WIRE_T_VAR_UINT64: case WIRE_T_TAGGED_UINT64:
    return WIRE_MEM_U64;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: return WIRE_MEM_BITS16;
  case WIRE_T_FLOAT32: return WIRE_MEM_F32;
  case WIRE_T_FLOAT64: return WIRE_MEM_F64;
  default: return 0;
  }
}
static inline uint32_t form_size(uint32_t f) { return (uint32_t)form_bits(f) / 8; }

/* Whether every value of form f fits integer wire type t. */
static inline bool int_fits(uint32_t f, uint8_t t) {
  int fb = form_bits(f), tb = wt_bits(t);
  bool fs = form_signed(f), ts = wt_signed(t);
  if (fs == ts) return fb <= tb;
  if (!fs && ts) return fb < tb;
  return false;
}
/* Whether every value of wire type t fits form f. */
static inline bool int_fits_form(uint8_t t, uint32_t f) {
  int fb = form_bits(f), tb = wt_bits(t);
  bool fs = form_signed(f), ts = wt_signed(t);
  if (fs == ts) return tb <= fb;
  if (ts && !fs) return false;
  return tb < fb;
}

/* memory access */
#define AT(base, off) ((const uint8_t *)(base) + (off))
static inline uint64_t ld_u(const uint8_t *p, uint32_t form) {
  switch (form) {
  case WIRE_MEM_I8: { int8_t v; memcpy(&v, p, 1); return (uint64_t)(int64_t)v; }
  case WIRE_MEM_I16: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v; }
  case WIRE_MEM_I32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v; }
  case WIRE_MEM_U8: case WIRE_MEM_BOOL: return *p;
  case WIRE_MEM_U16: case WIRE_MEM_BITS16: { uint16_t v; memcpy(&v, p, 2); return v; }
  case WIRE_MEM_U32: case WIRE_MEM_ENUM: case WIRE_MEM_F32: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { uint64_t v; memcpy(&v, p, 8); return v; }
  }
}
static inline void st_u(uint8_t *p, uint32_t form, uint64_t v) {
  switch (form_bits(form)) {
  case 8: *p = (uint8_t)v; break;
  case 16: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
  case 32: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}
static inline uint64_t ld_len(const uint8_t *base, const wire_mop *o) {
  if (o->fl & MF_LEN64) { uint64_t v; memcpy(&v, base + o->aux, 8); return v; }
  uint32_t v;
  memcpy(&v, base + o->aux, 4);
  return v;
}
static inline void st_len(uint8_t *base, const wire_mop *o, uint64_t n) {
  if (o->fl & MF_LEN64) memcpy(base + o->aux, &n, 8);
  else { uint32_t v = (uint32_t)n; memcpy(base + o->aux, &v, 4); }
}
static inline const void *ld_ptr(const uint8_t *p) {
  const void *v;
  memcpy(&v, p, sizeof v);
  return v;
}
static inline void st_ptr(uint8_t *p, const void *v) { memcpy(p, &v, sizeof v); }

/* Whether an integer value of form f (raw as loaded) fits wire type t. */
static inline bool int_in_range(uint64_t raw, uint32_t f, uint8_t t) {
  int tb = wt_bits(t);
  if (form_signed(f)) {
    int64_t v = (int64_t)raw;
    if (wt_signed(t)) return tb == 64 || (v >= -(INT64_C(1) << (tb - 1)) &&
                                          v < (INT64_C(1) << (tb - 1)));
    return v >= 0 && (tb == 64 || (uint64_t)v < (UINT64_C(1) << tb));
  }
  if (wt_signed(t)) return raw < (UINT64_C(1) << (tb - 1));
  return tb == 64 || raw < (UINT64_C(1) << tb);
}
/* Whether a decoded value of wire type t (raw: sign- or zero-extended) fits
 * form f. */
static inline bool form_in_range(uint64_t raw, uint8_t t, uint32_t f) {
  int fb = form_bits(f);
  if (wt_signed(t)) {
    int64_t v = (int64_t)raw;
    if (form_signed(f)) return fb == 64 || (v >= -(INT64_C(1) << (fb - 1)) &&
                                            v < (INT64_C(1) << (fb - 1)));
    return v >= 0 && (fb == 64 || (uint64_t)v < (UINT64_C(1) << fb));
  }
  if (form_signed(f)) return raw < (UINT64_C(1) << (fb - 1));
  return fb == 64 || raw < (UINT64_C(1) << fb);
}

/* Whether the value of op o at base is null (nullable fields). */
static inline bool is_null(const wire_mop *o, const uint8_t *base) {
  if (o->fl & MF_PRESENT) return base[o->present] == 0;
  switch (o->code) {
  case MOP_NONE: return true;
  case MOP_STRUCT_PTR: return ld_ptr(base + o->off) == NULL;
  case MOP_STR: case MOP_BYTES: case MOP_LIST: case MOP_PLIST: case MOP_DENSE:
  case MOP_MAP:
    return (o->ft->nullable) && ld_ptr(base + o->off) == NULL;
  default: return false;
  }
}

/* ---- text: the inline string cases of both codecs --------------------- */

/* Whether s[0..len) is valid UTF-8 (RFC 3629: no overlongs, surrogates or
 * code points above U+10FFFF), ASCII eight bytes at a time. */
static inline bool utf8_ok(const uint8_t *s, size_t len) {
  size_t i = 0;
  while (i < len) {
    while (i + 8 <= len) {
      uint64_t w;
      memcpy(&w, s + i, 8);
      w &= UINT64_C(0x8080808080808080);
      if (w) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        i += (size_t)__builtin_ctzll(w) >> 3; /* (to the first high byte) */
#endif
        break;
      }
      i += 8;
    }
    while (i < len && s[i] < 0x80) i++;
    if (i >= len) return true;
    uint8_t c = s[i];
    size_t left = len - i;
    if (c >= 0xC2 && c <= 0xDF) {
      if (left < 2 || (s[i + 1] & 0xC0) != 0x80) return false;
      i += 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      if (left < 3 || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80)
        return false;
      if (c == 0xE0 && s[i + 1] < 0xA0) return false;
      if (c == 0xED && s[i + 1] >= 0xA0) return false;
      i += 3;
    } else if (c >= 0xF0 && c <= 0xF4) {
      if (left < 4 || (s[i + 1] & 0xC0) != 0x80 || (s[i + 2] & 0xC0) != 0x80 ||
          (s[i + 3] & 0xC0) != 0x80)
        return false;
      if (c == 0xF0 && s[i + 1] < 0x90) return false;
      if (c == 0xF4 && s[i + 1] >= 0x90) return false;
      i += 4;
    } else {
      return false;
    }
  }
  return true;
}

/* Whether s[0..n) is ASCII, a word at a time: text shorter than a word in
 * one masked load when the input has a word from s on (lim: its end; the
 * bytes past n are loaded, not used), longer text with the last word
 * overlapping. */
static inline bool ascii_ok(const uint8_t *s, size_t n, const uint8_t *lim) {
  const uint64_t hi = UINT64_C(0x8080808080808080);
  uint64_t w;
  if (n >= 8) {
    for (size_t i = 0; i + 8 <= n; i += 8) {
      memcpy(&w, s + i, 8);
      if (w & hi) return false;
    }
    memcpy(&w, s + n - 8, 8);
    return !(w & hi);
  }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (lim - s >= 8) {
    memcpy(&w, s, 8);
    return !(w & hi & ((UINT64_C(1) << (8 * n)) - 1));
  }
#else
  (void)lim;
#endif
  uint32_t o = 0;
  for (size_t i = 0; i < n; i++) o |= s[i];
  return !(o & 0x80);
}
/* Copies s[0..n) to d, up to 128 bytes without a call: by 16-byte moves
 * (SSE2), the last overlapping; else as copy_short. */
static inline void copy_128(uint8_t *d, const uint8_t *s, size_t n) {
#if defined(__SSE2__)
  if (n >= 16 && n <= 128) {
    __m128i v;
    for (size_t i = 0; i + 16 < n; i += 16) {
      v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
      _mm_storeu_si128((__m128i *)(void *)(d + i), v);
    }
    v = _mm_loadu_si128((const __m128i *)(const void *)(s + n - 16));
    _mm_storeu_si128((__m128i *)(void *)(d + n - 16), v);
    return;
  }
#endif
  copy_short(d, s, n);
}

/* Valid UTF-8, ASCII text taking the short way. */
static inline bool text_ok(const uint8_t *s, size_t n, const uint8_t *lim) {
  return ascii_ok(s, n, lim) || utf8_ok(s, n);
}


/* compiling (mem_layout.c), also used for writers' TypeDefs
 * (mem_dec_typedef.c) */
int32_t wire__mem_compile_value(wire_ctx *ctx, uint32_t li,
                                const wire_ftype *wf, const wire_ftype *rf,
                                const wire_mspec *s, wire_mop *o, bool encoder);
void wire__mem_frame(wire_ctx *ctx, const wire_ftype *f, wire_mop *o);
void wire__mem_fast_paths(wire_mop *ops, uint32_t n);
/* The encoder's mop.ek of collection op o (a map's; 0 for others),
 * whose element ops are made (mem_enc.c). */
void wire__menc_kinds(wire_mop *o);
/* Whether a body of layout l begins with its schema hash in the
 * context's mode (wire_mplan.hashed). */
static inline bool wire__mem_hashed(const wire_ctx *ctx,
                                    const wire_mlayout *l) {
  return !ctx->compatible &&
         (l->kind == WIRE_T_STRUCT || l->kind == WIRE_T_NAMED_STRUCT);
}
/* ops[n] made the end of a struct plan's ops (MX_END). Its aux: the
 * plan's nmissing (0 here; a mapping sets it), which the decoder's struct
 * loop reads there with the op at hand. */
static inline void wire__mem_plan_end(wire_mop *ops, uint32_t n) {
  memset(&ops[n], 0, sizeof ops[n]);
  ops[n].dx = MX_END;
  ops[n].ex = MX_END;
}
/* Whether ops[0..n) make a flat plan (wire_mplan.flat). */
bool wire__mem_flat(const wire_mop *ops, uint32_t n);
const wire_mspec *wire__mem_spec_of(const wire_mlayout *l, uint32_t field);


#endif
