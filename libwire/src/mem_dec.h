/* mem_dec.h - what the parts of the compiled decoder share: its state over
 * one wire_mem_decode (mem_dec.c) and the TypeDef mappings
 * (mem_dec_typedef.c). Not installed. */
#ifndef WIRE_MEM_DEC_H
#define WIRE_MEM_DEC_H

#include "mem.h"

#define NOTYPE WIRE_NO_TYPE

typedef struct {
  wire_dec d;      /* the cursor and the shared reading rules */
  wire_ctx *ctx;
  wire_mem *m;
  uint8_t *arena;
  size_t cap, used;
  bool copy;
  wire_doc *scratch;
} mdec;

#define IN(x) (&(x)->d.in)

static inline bool dfail(mdec *x, int32_t code, const uint8_t *at,
                         const char *what) {
  return wire__dec_fail(&x->d, code, at, "%s", what);
}

/* The plan for the TypeDef bytes td[0..len) of layout li's type (the
 * layout's own plan, or a mapping compiled once and cached); *out_wl gets
 * the writer's layout. NULL with the error set (at: its offset). */
const wire_mplan *wire__mdec_plan_for_td(mdec *x, uint32_t li,
                                         const uint8_t *td, size_t len,
                                         const uint8_t *at,
                                         const wire_layout **out_wl);
/* Records a TypeDef announced in the message (its index is the next one)
 * with the plan it maps to. */
bool wire__mdec_push_td(mdec *x, const wire_layout *wl, const wire_mplan *p,
                        const uint8_t *at);

/* push_td with room in both tables already (the usual case) inline. */
static inline bool wire__mdec_push_td_fast(mdec *x, const wire_layout *wl,
                                           const wire_mplan *p,
                                           const uint8_t *at) {
  wire_dec *d = &x->d;
  wire_mem *m = x->m;
  if (WIRE_LIKELY(d->ntds < d->tds_cap && d->ntds < m->dtd_cap)) {
    m->dtd[d->ntds] = p;
    d->tds[d->ntds++] = (wire_layout *)wl;
    m->ndtd = (uint32_t)d->ntds;
    return true;
  }
  return wire__mdec_push_td(x, wl, p, at);
}

#endif
