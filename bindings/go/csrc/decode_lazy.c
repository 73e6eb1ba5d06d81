/* decode_lazy.c - structs kept lazy by the document decoder (spec
 * R-SEC-13; issue 9: peak heap <= 32 x input + 64 KiB). A list of structs of one one-byte field
 * costs an item pointer, a struct node, a body and a field node per input
 * byte (64 bytes) when decoded eagerly. Once the document's heap passes
 * its budget (dec.h, wire__dec_lazy_due), each struct read is still
 * decoded in full, so that every error keeps its status and byte offset,
 * and then, when its fields read none of the root's tables (meta strings,
 * TypeDefs, references: what the same bytes would decode to depends on
 * them), out-of-band buffers or any block the arenas took meanwhile, its
 * body and nodes are given back and the node keeps a pointer to a shared
 * record (meta word, and the document's input and options) and the offset
 * of its field bytes: 28
 * bytes per one-byte struct with the item pointer. The fields are decoded
 * again, from the same input under the same options, on first access
 * (wire__st_open), with the node indexes they had. */
#include "dec.h"

static void opts_get(const wire_ctx *c, struct wire_lazy_opts *o) {
  o->ref_tracking = c->ref_tracking;
  o->compatible = c->compatible;
  o->peer = c->peer;
  o->max_depth = c->max_depth;
  o->max_binary = c->max_binary;
  o->max_collection = c->max_collection;
  o->max_nodes = c->max_nodes;
  o->max_decimal_bytes = c->max_decimal_bytes;
}
static void opts_set(wire_ctx *c, const struct wire_lazy_opts *o) {
  c->ref_tracking = o->ref_tracking;
  c->compatible = o->compatible;
  c->peer = o->peer;
  c->max_depth = o->max_depth;
  c->max_binary = o->max_binary;
  c->max_collection = o->max_collection;
  c->max_nodes = o->max_nodes;
  c->max_decimal_bytes = o->max_decimal_bytes;
}

bool wire__dec_lazy_begin(dec *d, const tmeta *tm, wire_lazy_mark *m) {
  wire_doc *doc = d->doc;
  /* structs with fields (ext bodies are their serializer's), outside
   * out-of-band roots, at offsets a node's 32 bits hold */
  if (!tm->layout->nfields || tm->type == WIRE_T_EXT ||
      tm->type == WIRE_T_NAMED_EXT || d->oob ||
      (uint64_t)(d->in.end - d->in.base) > UINT32_MAX)
    return false;
  m->arena_p = doc->arena.p;
  m->nodes_p = doc->nodes.p;
  m->arena_total = doc->arena.total;
  m->nodes_total = doc->nodes.total;
  m->null = doc->null;
  m->touched = d->touched;
  m->empty_st = d->empty_st;
  m->smeta = d->smeta;
  m->nm_last = d->nm_last;
  d->lazy = false; /* the structs inside it stay eager */
  return true;
}

bool wire__dec_lazy_end(dec *d, wire_node *n, const wire_lazy_mark *m) {
  wire_doc *doc = d->doc;
  d->lazy = true;
  /* Kept as decoded when its fields read a table, made the shared null
   * (its index would be taken again), or took a block or a cache entry
   * that outlives it. */
  if (d->touched != m->touched || doc->null != m->null ||
      doc->arena.total != m->arena_total ||
      doc->nodes.total != m->nodes_total || d->empty_st != m->empty_st ||
      d->smeta != m->smeta || d->nm_last != m->nm_last)
    return true;
  const void *meta = n->v.st->meta;
  /* its body and nodes given back; doc->nnodes is not: the indexes are
   * those its fields take again */
  doc->arena.p = m->arena_p;
  doc->nodes.p = m->nodes_p;
  wire_lazy_src *src = d->lazy_src;
  if (!src) {
    if (!(src = wire__arena_alloc(&doc->arena, sizeof *src)))
      return wire__dec_fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
    src->doc = doc;
    src->in = d->in.base;
    src->len = (size_t)(d->in.end - d->in.base);
    opts_get(d->ctx, &src->opts);
    d->lazy_src = src;
  }
  wire_lazy *z = d->lazy_rec;
  if (!z || z->meta != meta) {
    if (!(z = wire__arena_alloc(&doc->arena, sizeof *z)))
      return wire__dec_fail(d, WIRE_E_NOMEM, d->in.p, "out of memory");
    z->meta = meta;
    z->src = src;
    d->lazy_rec = z;
  }
  n->v.u = (uint64_t)(uintptr_t)z | WIRE_ST_LAZY;
  n->small = (uint32_t)(m->at - d->in.base);
  return true;
}

bool wire__st_materialise(wire_node *n) {
  wire_lazy *z = (wire_lazy *)(uintptr_t)(n->v.u & ~(uint64_t)WIRE_ST_LAZY);
  wire_lazy_src *src = z->src;
  wire_doc *doc = src->doc;
  wire_ctx *ctx = doc->ctx;
  wire_layout *l = wire__meta_layout(z->meta);
  wire_sbody *body = wire__struct_body(doc, l);
  if (!body) return false;
  body->meta = z->meta;
  /* the options it was validated under, the context's own afterwards */
  struct wire_lazy_opts own;
  opts_get(ctx, &own);
  opts_set(ctx, &src->opts);
  size_t oob_used = ctx->oob_used;
  dec d;
  wire__dec_init(&d, ctx, src->in, src->len, doc, NULL);
  d.in.p = src->in + n->small;
  uint32_t nnodes = doc->nnodes;
  doc->nnodes = n->index + 1;
  bool ok = true;
  for (uint32_t i = 0; ok && i < l->nfields; i++) {
    const uint8_t *fs = d.in.p;
    ok = wire__dec_field(&d, &l->fields[i], &body->fields[i]) &&
         wire__dec_took_bytes(&d, fs);
  }
  doc->nnodes = nnodes;
  ctx->oob_used = oob_used;
  opts_set(ctx, &own);
  /* (no tables were made: nothing for wire__dec_fini) */
  if (!ok) return false;
  n->v.st = body;
  n->small = l->nfields;
  return true;
}
