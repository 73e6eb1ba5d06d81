/* gen_c.h - what the parts of `wire gen c` share: gen_c.c writes the
 * C structs, the layout tables and the registration; gen_c_code.c writes
 * the straight-line encoders and decoders over the same structs,
 * gen_c_entry.c the per-message entry points and gen_c_helpers.c the
 * helpers those call. Not installed. */
#ifndef WIRE_GEN_C_H
#define WIRE_GEN_C_H

#include "schema.h"

/* A growing text buffer (sb_put: printf-style; bad on allocation failure). */
typedef struct {
  wire_ctx *ctx;
  char *p;
  size_t len, cap;
  bool bad;
} sb;

void wire__sb_put(sb *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
#define put wire__sb_put
void wire__sb_cat(sb *d, const sb *s);
#define sb_cat wire__sb_cat

/* How a value is held in the generated structs. */
typedef struct vinfo vinfo;
struct vinfo {
  char ctype[200];
  const char *form;
  int shape;     /* 0 plain, 1 {ptr,len}, 2 {items,count} */
  bool flag;     /* a presence flag next to it */
  int64_t elem;  /* layout index, or -1 */
  char item[240];/* shape 2: the C type of an item / map entry */
  vinfo *sub[2]; /* list: the item's value (sub[0]); map: key, value */
  vinfo *next;   /* every vinfo of the generation, for freeing */
};

typedef struct {
  wire_ctx *ctx;
  wire_registry *r;
  char prefix[128];     /* C identifier prefix of the package */
  uint8_t *ok;          /* per type: a struct with a memory form */
  uint8_t *state;       /* definition: 0 not yet, 1 in progress, 2 done */
  uint32_t *layout_of;  /* struct -> layout index in the table */
  uint32_t nstructs;    /* struct layouts (the first in the table) */
  uint32_t nelem;       /* element layouts after them */
  uint32_t nhelper;
  sb h, pre, erows;
  sb *rows_of;          /* per type: its layout rows */
  vinfo ***fv;          /* per type, per declared field: how it is held
                           (NULL: not in the struct) */
  vinfo *vall;          /* every vinfo allocated */
  uint8_t *sl[2];       /* per mode (0 same-schema, 1 compatible), per type:
                           the struct has straight-line code (gen_c_code.c) */
  bool nomem;
} gen;

/* gen_c.c */
void wire__gen_cname(const gen *g, uint32_t ti, char *out, size_t cap);
const char *wire__gen_member(const char *name, char *buf, size_t cap);
const char *wire__gen_flag(const gen *g, uint32_t ti, uint32_t k, char *buf,
                           size_t cap);
uint8_t wire__gen_kind_of(const gen *g, const wire_ftype *f);

/* gen_c_code.c: the straight-line codecs, the entry points (written by
 * gen_c_entry.c) and the checks the registration makes of what they
 * assume. `c` gets the code; wire__gen_code_fields adds the members of
 * <prefix>_wire they use. */
void wire__gen_code_fields(gen *g, sb *h);
void wire__gen_code_prepare(gen *g);
void wire__gen_code_tds(gen *g, sb *c);
void wire__gen_code(gen *g, sb *c);
void wire__gen_code_register(gen *g, sb *c);

/* gen_c_calls.c: per struct with straight-line code in one mode (ok: that
 * mode's sl), how the decoders' bodies call it. -1: out of memory. */
typedef struct {
  uint32_t parents; /* calls of its body in bounded bodies */
  uint32_t depth;   /* bounded: most depth levels its body enters, its own
                       included */
  bool unbounded;   /* on a cycle of struct types, or reaching one */
  bool nonzero;     /* bounded: its body always reads a byte or more */
} wire_gen_call;
int wire__gen_calls(const gen *g, const uint8_t *ok, int mode, wire_gen_call *calls);

/* gen_c_code.c: the state of writing one mode's code (the codecs, and
 * the entry points' branches). */
typedef struct {
  gen *g;
  sb *c;
  int mode;          /* 0 same-schema, 1 compatible */
  const uint8_t *ok; /* sl_compute of this mode */
  uint32_t tmp;      /* numbering of local variables */
  bool unchecked;    /* decoding a run whose bytes were checked to be there */
  bool tail;         /* checked varints through the readers that take
                        the input's start (@__rvu32t, in the map bodies) */
  int lmp;           /* the map variable of the struct elements of the list
                        being decoded (dec_meta), or -1 */
  const wire_gen_call *calls; /* the decoders' calls of this mode
                                 (gen_c_calls.c), NULL: none known */
  bool bounded;      /* writing a bounded body (NM_i<mode>): no depth count,
                        lvl levels entered in it so far (its own included)
                        on top of its caller's `lv` */
  uint32_t lvl;
  uint32_t les;      /* the list whose struct element is being decoded, + 1:
                        its zero-width check after a field map's read; 0:
                        none */
} cg;

/* The struct kind written for ti in x's mode, and whether it carries its
 * TypeDef (else its user id). */
uint8_t wire__gen_kind_in(const cg *x, uint32_t ti);
#define kind_in wire__gen_kind_in
bool wire__gen_has_td(const cg *x, uint32_t ti);
#define has_td wire__gen_has_td

/* gen_c_entry.c: <Type>_encode and <Type>_decode of struct ti, C name nm
 * (the modes with straight-line code in g->sl, the interpreter after). */
void wire__gen_entries(gen *g, sb *c, uint32_t ti, const char *nm);

/* gen_c_helpers.c: the helpers every generated file starts with (their
 * text, for nann announced TypeDefs at most), written to c. */
void wire__gen_helpers(gen *g, sb *c, uint32_t nann);

#endif
