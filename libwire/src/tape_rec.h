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
#define R_SAME 0x08    /* string: the wire bytes are the tape bytes */
#define NONE32 UINT32_MAX

typedef struct {
  uint32_t at;   /* tape offset of the op byte */
  uint32_t end;  /* record index after this value and its children */
  uint32_t x;    /* REF: target; ENUM, TYPED_UNION, UNION: user type id;
                    NAMED_ENUM, NAMED_UNION: names index; structs: index
                    into the struct table */
  uint32_t n;    /* list, set, map, packed: count; enum value; union case */
  uint32_t mark; /* reference id + 1 in the root being written */
  uint8_t type;  /* the node kind a document would have (WIRE_T_*) */
  uint8_t flags; /* R_* */
  uint8_t a, b;  /* string: wire encoding, given encoding; packed: a = elem */
} trec;

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

/* Pass 1 over the whole tape (tape_index.c); *roots gets the root count. */
int32_t wire__tape_index(wire_ctx *ctx, scratch *s, const uint8_t *tape,
                         size_t len, uint32_t *roots);

#endif
