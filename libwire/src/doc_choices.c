/* doc_choices.c - the wire choices a document node can carry besides its
 * value, for writing bytes exactly as another runtime did: reference
 * tracking, the list header, map chunk boundaries, meta string encodings,
 * hash forms and repeated announcements of type names. Each setter has its getter; a decoded
 * document has them all set. */
#include "schema.h"

int32_t wire_node_set_tracked(wire_node *n, int32_t tracked) {
  if (!n) return WIRE_E_ARG;
  n->flags |= WIRE_NF_TRACK_SET;
  if (tracked) n->flags |= WIRE_NF_TRACKED;
  else n->flags &= (uint8_t)~WIRE_NF_TRACKED;
  return WIRE_OK;
}
int32_t wire_node_tracked(const wire_node *n) {
  if (!n) return -1;
  if (!(n->flags & WIRE_NF_TRACK_SET)) return -1;
  return (n->flags & WIRE_NF_TRACKED) != 0;
}

int32_t wire_list_set_header(wire_node *l, int32_t h) {
  if (!l || (l->type != WIRE_T_LIST && l->type != WIRE_T_SET) || h > 15)
    return WIRE_E_ARG;
  if (h < 0) {
    l->flags &= (uint8_t)~WIRE_NF_HDR_SET;
  } else {
    l->flags |= WIRE_NF_HDR_SET;
    l->a = (uint8_t)h;
  }
  return WIRE_OK;
}
int32_t wire_list_header(const wire_node *l) {
  if (!l || !(l->flags & WIRE_NF_HDR_SET)) return -1;
  return l->a;
}

int32_t wire_map_add_chunk(wire_doc *d, wire_node *m, uint32_t h,
                           uint32_t count) {
  if (!d || !m || m->type != WIRE_T_MAP || h > 0x3F || count < 1 ||
      count > 255)
    return WIRE_E_ARG;
  return wire__chunk_push(d, m, h, count);
}
int32_t wire_map_clear_chunks(wire_node *m) {
  if (!m || m->type != WIRE_T_MAP) return WIRE_E_ARG;
  if (m->v.map) m->v.map->chunks = NULL;
  return WIRE_OK;
}
size_t wire_map_chunk_count(const wire_node *m) {
  if (!m || m->type != WIRE_T_MAP || !wire__chunks(m)) return 0;
  return wire__chunks(m)->n;
}
int32_t wire_map_chunk(const wire_node *m, size_t i, uint32_t *h,
                       uint32_t *count) {
  if (i >= wire_map_chunk_count(m)) return WIRE_E_ARG;
  uint16_t c = wire__chunks(m)->c[i];
  if (h) *h = c >> 8;
  if (count) *count = c & 0xFF;
  return WIRE_OK;
}

static bool has_names(const wire_node *n) {
  return n && (n->type == WIRE_T_NAMED_ENUM || n->type == WIRE_T_NAMED_STRUCT ||
               n->type == WIRE_T_NAMED_EXT || n->type == WIRE_T_NAMED_UNION);
}

int32_t wire_node_set_name_encodings(wire_node *n, int32_t nse, int32_t ne) {
  if (!has_names(n)) return WIRE_E_ARG;
  if (nse < 0 || ne < 0) {
    n->flags &= (uint8_t)~WIRE_NF_NAMES_SET;
    return WIRE_OK;
  }
  if (nse > 4 || ne > 4) return WIRE_E_ARG;
  n->flags |= WIRE_NF_NAMES_SET;
  n->a = (uint8_t)nse;
  n->b = (uint8_t)ne;
  return WIRE_OK;
}
int32_t wire_node_name_encodings(const wire_node *n, int32_t *nse,
                                 int32_t *ne) {
  if (!has_names(n)) return WIRE_E_ARG;
  bool set = n->flags & WIRE_NF_NAMES_SET;
  if (nse) *nse = set ? n->a : -1;
  if (ne) *ne = set ? n->b : -1;
  return WIRE_OK;
}

static wire_names *names_of(const wire_node *n);

/* Any value of a type registered by name (named enums, structs, unions,
 * ext). */
int32_t wire_node_set_name_hash_forms(wire_node *n, int32_t ns_form,
                                      int32_t name_form) {
  wire_names *nm = names_of(n);
  if (!nm || ns_form < 0 || ns_form > 1 || name_form < 0 || name_form > 1)
    return WIRE_E_ARG;
  nm->ns_hash_form = (uint8_t)ns_form;
  nm->name_hash_form = (uint8_t)name_form;
  return WIRE_OK;
}
static wire_names *names_of(const wire_node *n) {
  if (!n) return NULL;
  switch (n->type) {
  case WIRE_T_NAMED_ENUM: return n->v.names;
  case WIRE_T_NAMED_STRUCT: case WIRE_T_NAMED_COMPATIBLE_STRUCT:
  case WIRE_T_NAMED_EXT: return wire__st_names(n);
  case WIRE_T_NAMED_UNION: return n->v.un->names;
  default: return NULL;
  }
}

/* flags: 1 namespace is a cross-role reference, 2 type name is one,
 * 4 namespace announced again, 8 type name announced again. */
int32_t wire_node_set_name_refs(wire_node *n, int32_t ns_xref,
                                int32_t name_xref) {
  wire_names *nm = names_of(n);
  if (!nm) return WIRE_E_ARG;
  nm->ns_xref = (ns_xref & 1) != 0;
  nm->name_xref = (name_xref & 1) != 0;
  nm->ns_again = (ns_xref & 2) != 0;
  nm->name_again = (name_xref & 2) != 0;
  return WIRE_OK;
}

int32_t wire_node_name_refs(const wire_node *n, int32_t *ns_xref,
                            int32_t *name_xref) {
  wire_names *nm = names_of(n);
  if (!nm) return WIRE_E_ARG;
  if (ns_xref) *ns_xref = nm->ns_xref | (nm->ns_again << 1);
  if (name_xref) *name_xref = nm->name_xref | (nm->name_again << 1);
  return WIRE_OK;
}

int32_t wire_node_name_hash_forms(const wire_node *n, int32_t *ns_form,
                                  int32_t *name_form) {
  wire_names *nm = names_of(n);
  if (!nm) return WIRE_E_ARG;
  if (ns_form) *ns_form = nm->ns_hash_form;
  if (name_form) *name_form = nm->name_hash_form;
  return WIRE_OK;
}
