/* tape_rec.h - the index of records of the direct tape encoder, shared by
 * pass 1 (tape_index.c: the tape read and checked into records) and
 * pass 2 (tape_enc.c: the records written as bytes), and the per-context
 * scratch that holds it. Not installed. */
#ifndef WIRE_TAPE_REC_H
#define WIRE_TAPE_REC_H

#include "tape.h"

/* ---- records ------------------------------------------------------------ */

#define R_REF 0x01     /* a REF op: x = the record it names */
#define R_TRACKED 0x02 /* named by a REF under reference tracking */
#define R_PACKED 0x04  /* PACKED list/set: a = element type, n = count */
#define R_FLAT 0x10    /* list, set or map of scalars (below): no records for
                          its elements, pass 2 reads them from the tape */
#define R_FSAME 0x20   /* flat list: the non-null elements are all of type a;
                          flat map: no null, keys all of type a, values of b */
#define R_FNULL 0x40   /* flat list: an element is null */
#define R_FL1 0x08     /* flat list: every element a STRING of encoding
                          0x80 (a JVM's compact Latin-1 text for the Java
                          choice), written as it is (S_COPY, its length) */
#define R_L1LIST 0x80  /* L1_LIST: n = count, span = bytes of its elements'
                          wire bytes (after the op's 9 bytes), checked */
#define NONE32 UINT32_MAX

typedef struct {
  uint32_t at;   /* tape offset of the op byte */
  uint32_t end;  /* record index after this value and its children */
  uint32_t x;    /* REF: target; ENUM, TYPED_UNION, UNION: user type id;
                    NAMED_ENUM, NAMED_UNION: names index; structs: index
                    into the struct table; flat container: its first
                    string in `strs`; string: how it is written (S_*) */
  uint32_t n;    /* list, set, map, packed: count; enum value; union case */
  uint32_t mark; /* reference id + 1 in the root being written */
  uint32_t span; /* flat container: tape bytes of its elements */
  uint8_t type;  /* the node kind a document would have (WIRE_T_*) */
  uint8_t flags; /* R_* */
  uint8_t a, b;  /* string: wire encoding, given encoding; packed: a = elem;
                    flat: the first non-null type (list), the key and value
                    types (map) */
} trec;

/* How the bytes of a tape string become its wire bytes. */
enum {
  S_COPY,    /* they are the same */
  S_LATIN1,  /* UTF-8 of chars below U+0100, checked well formed */
  S_UTF16,   /* UTF-8 checked well formed, into UTF-16 */
  S_ANY      /* wire__transcode (any text, malformed trusted text too) */
};

/* A string of a flat container, as pass 1 checked it (in tape order from
 * the container's record x). */
typedef struct {
  uint32_t n;    /* byte length on the wire */
  uint8_t enc;   /* wire encoding */
  uint8_t given; /* encoding of the tape bytes */
  uint8_t how;   /* S_* */
  uint8_t pad;
} tstr;

typedef struct {
  const wire_layout *l;
  uint32_t fields; /* first of l->nfields record indices in `fld` */
} tstruct;

typedef struct {
  const uint8_t *td;
  uint32_t len;
  wire_layout *l;
} ttd;

struct wire_tape_scratch {
  trec *recs;
  size_t nrecs, recs_cap;
  uint32_t *refs; /* referenceable values by number: their records */
  size_t nrefs, refs_cap;
  tstruct *sts;
  size_t nsts, sts_cap;
  uint32_t *fld;
  size_t nfld, fld_cap;
  tstr *strs; /* strings of flat containers */
  size_t nstrs, strs_cap;
  wire_names *names;
  size_t nnames, names_cap;
  ttd *tds;
  size_t ntds, tds_cap;
  wire_arena arena; /* layouts of STRUCT_TD TypeDefs */
  wire_enc enc;     /* writer tables (meta strings, TypeDefs, marks) */
  wire_buf out;     /* output of wire_encode_tape */
  struct wire_tape_dec_scratch *dec; /* the decoder's (tape_dec.c) */
};

typedef struct wire_tape_scratch scratch;


/* Grows an array of `size`-byte items to hold `need` of them. */
static inline bool grow_arr(wire_ctx *ctx, void **p, size_t *cap, size_t need,
                            size_t size) {
  if (need <= *cap) return true;
  void *m = wire__grow(ctx, *p, cap, need - 1, size, 64);
  if (!m) return false;
  *p = m;
  return true;
}

/* ---- scalars -------------------------------------------------------------
 * A list, set or map whose elements are all scalars - values without
 * children or identity, each a fixed number of tape bytes or a string - is
 * "flat": pass 1 checks its elements without making records for them and
 * sums up their types (R_FLAT, R_FSAME, R_FNULL); pass 2 writes them
 * straight from the tape. */

/* The fixed tape bytes of a scalar of op o (a string: its op, encoding
 * and length, its bytes follow), or 0 if o is not a scalar op. */
static inline size_t scalar_fixed(uint8_t o) {
  if (o >= WIRE_T_INT8 && o <= WIRE_T_TAGGED_UINT64) return 9;
  switch (o) {
  case WIRE_TAPE_NULL: case WIRE_T_NONE: return 1;
  case WIRE_T_BOOL: return 2;
  case WIRE_T_STRING: return 6;
  case WIRE_T_FLOAT16: case WIRE_T_BFLOAT16: case WIRE_T_FLOAT32:
  case WIRE_T_FLOAT64: case WIRE_T_DATE: return 9;
  case WIRE_T_TIMESTAMP: case WIRE_T_DURATION: return 13;
  default: return 0;
  }
}

/* Tape bytes of the scalar at p (a checked one). */
static inline size_t scalar_size(const uint8_t *p) {
  if (p[0] != WIRE_T_STRING) return scalar_fixed(p[0]);
  uint32_t n;
  memcpy(&n, p + 2, 4);
  return 6 + (size_t)n;
}

/* The node kind of the scalar whose op is o. */
static inline uint8_t scalar_type(uint8_t o) {
  return o == WIRE_TAPE_NULL ? WIRE_T_NULL : o;
}

/* Pass 1 over the whole tape (tape_index.c); *roots gets the root count. */
int32_t wire__tape_index(wire_ctx *ctx, scratch *s, const uint8_t *tape,
                         size_t len, uint32_t *roots);

#endif
