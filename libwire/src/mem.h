/* mem.h - native memory layouts and their compiled plans (mem.c): the
 * state behind wire_mem_* in wire.h. Not installed.
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
};

/* mop.fl */
#define MF_FLAG 0x01    /* a reference / null flag precedes the value */
#define MF_REF 0x02     /* the flag may be a reference (ref tracked) */
#define MF_META 0x04    /* type meta precedes the body (struct in compat) */
#define MF_LEN64 0x08   /* length / count at aux is uint64_t */
#define MF_PRESENT 0x10 /* presence flag at `present` */
#define MF_CHECK 0x20   /* integer needs a range check */
#define MF_TRACK 0x40   /* written with REF_VALUE (ref tracking on) */

typedef struct wire_mop wire_mop;
/* fast paths of the struct loops (mop.x), chosen at bind time */
enum { MX_SLOW = 0, MX_VI32, MX_VI64, MX_BOOL, MX_ENUM, MX_F32, MX_F64,
       MX_STR, MX_VI32_64 /* decode only: varint32 into an int64 */ };

struct wire_mop {
  uint8_t x;     /* MX_*: the inline case of the struct loops */
  uint8_t code;  /* MOP_* */
  uint8_t wt;    /* wire type of the value (writer's, for mappings) */
  uint8_t form;  /* memory form (WIRE_MEM_*, flags masked) */
  uint8_t fl;    /* MF_* */
  uint8_t lh;    /* list header without nulls */
  uint8_t lh_null; /* list header with a null element */
  uint8_t ewt;   /* element wire type (dense arrays, lists of primitives) */
  uint8_t eform; /* element form of packed lists */
  uint32_t off, aux, present;
  uint32_t elem;     /* layout of a nested struct / element layout */
  uint32_t esize;    /* stride of list items */
  uint32_t local;    /* registered field (decl index), or WIRE_NO_TYPE */
  const wire_ftype *ft;   /* declared (or writer's) type */
  wire_mop *sub;     /* element ops: 1 (list) or 2 (map: key, value) */
  const wire_lfield *lf;  /* the writer's field (skips) */
  uint32_t rest;     /* most bytes this and the following inline ops
                        write (strings: their header), for one reserve */
};

/* The op sequence of a struct as some writer sent it. */
typedef struct wire_mplan {
  wire_mop *ops;
  uint32_t nops;
  /* fields of the reader the writer did not send: zeroed / defaulted */
  const wire_mspec **missing;
  uint32_t nmissing;
} wire_mplan;

/* A cached writer TypeDef of a layout's type and its mapping. */
typedef struct wire_mmap {
  struct wire_mmap *next;
  const uint8_t *td;   /* copy of the TypeDef bytes */
  uint32_t td_len;
  wire_mplan plan;
} wire_mmap;

typedef struct {
  uint32_t type;     /* registered struct, or WIRE_MEM_ELEMENT */
  uint32_t size;
  wire_mspec *specs;
  uint32_t nspecs, cap;
  bool bound, binding;
  /* compiled */
  wire_mplan plan;     /* registered field order */
  uint8_t kind;        /* struct kind written (WIRE_T_COMPATIBLE_STRUCT...) */
  uint8_t *td;         /* TypeDef bytes (compatible struct kinds) */
  uint32_t td_len;
  wire_mmap *maps;     /* writers' other TypeDefs */
  uint32_t nmaps;
  wire_mop elem_ops[2]; /* element layouts: slot 0 / 1 */
} wire_mlayout;

typedef struct wire_mem_s {
  wire_mlayout *layouts;
  uint32_t n, cap;
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
} wire_mem;

void wire__mem_free(wire_ctx *ctx);

#endif
