/* doc_access.c - reading a document node: its type, scalar value, bytes,
 * text, decimal, enum and children. Each accessor checks the node's kind
 * and returns 0, NULL or -1 for a node of another kind (the values of
 * structs and unions are read through doc.c's user type functions). */
#include <string.h>

#include "schema.h"

uint32_t wire_node_type(const wire_node *n) { return n ? n->type : WIRE_T_NULL; }
/* Each accessor returns 0 / NULL for a node of another kind. */
int64_t wire_node_int(const wire_node *n) {
  if (!n) return 0;
  switch (n->type) {
  case WIRE_T_BOOL: case WIRE_T_DATE: case WIRE_T_TIMESTAMP:
  case WIRE_T_DURATION:
    return n->v.i;
  default:
    return wire__is_int_type(n->type) ? n->v.i : 0;
  }
}
uint64_t wire_node_uint(const wire_node *n) {
  return n && wire__is_uint_type(n->type) ? n->v.u : 0;
}
uint64_t wire_node_float_bits(const wire_node *n) {
  return n && wire__is_float_type(n->type) ? n->v.u : 0;
}

double wire_node_float(const wire_node *n) {
  if (!n) return 0;
  uint64_t u;
  switch (n->type) { /* a NaN keeps its bits (internal.h) */
  case WIRE_T_FLOAT16: u = wire__f16_widen((uint16_t)n->v.u); break;
  case WIRE_T_BFLOAT16: u = wire__bf16_widen((uint16_t)n->v.u); break;
  case WIRE_T_FLOAT32: u = wire__f32_widen((uint32_t)n->v.u); break;
  case WIRE_T_FLOAT64: u = n->v.u; break;
  default: return 0;
  }
  double x;
  memcpy(&x, &u, 8);
  return x;
}

uint32_t wire_node_nanos(const wire_node *n) {
  return n && (n->type == WIRE_T_TIMESTAMP || n->type == WIRE_T_DURATION)
             ? n->small
             : 0;
}

const uint8_t *wire_node_bytes(const wire_node *n, size_t *len) {
  size_t l = 0;
  const uint8_t *p = NULL;
  if (n) {
    if (n->type == WIRE_T_STRING || n->type == WIRE_T_BINARY ||
        wire__is_array_type(n->type)) {
      p = n->v.p;
      l = n->small;
    } else if (n->type == WIRE_T_DECIMAL) {
      p = n->v.dec->mag;
      l = n->v.dec->len;
    } else if (n->type == WIRE_T_NAMED_ENUM) {
      p = n->v.names->name;
      l = n->v.names->name_len;
    }
  }
  if (len) *len = l;
  return p;
}

int32_t wire_node_string_encoding(const wire_node *n) {
  return n && n->type == WIRE_T_STRING ? n->a : -1;
}

int32_t wire_node_string_utf8(const wire_node *n, uint8_t *out, size_t cap,
                              size_t *out_len) {
  if (!n || n->type != WIRE_T_STRING || (!out && cap)) return WIRE_E_ARG;
  size_t need = wire__string_utf8_len(n->a, n->v.p, n->small);
  if (out_len) *out_len = need;
  if (need > cap) return WIRE_E_BUFFER_FULL;
  wire__string_to_utf8(n->a, n->v.p, n->small, out);
  return WIRE_OK;
}

int32_t wire_node_decimal_negative(const wire_node *n) {
  return n && n->type == WIRE_T_DECIMAL && (n->flags & WIRE_NF_NEGATIVE);
}
int32_t wire_node_decimal_scale(const wire_node *n) {
  return n && n->type == WIRE_T_DECIMAL ? (int32_t)n->small : 0;
}
uint32_t wire_node_enum_type_id(const wire_node *n) {
  return n && n->type == WIRE_T_ENUM ? n->v.en : 0;
}
const uint8_t *wire_node_enum_namespace(const wire_node *n, size_t *len) {
  if (!n || n->type != WIRE_T_NAMED_ENUM) {
    if (len) *len = 0;
    return NULL;
  }
  if (len) *len = n->v.names->ns_len;
  return n->v.names->ns;
}
uint32_t wire_node_enum_value(const wire_node *n) {
  return n && (n->type == WIRE_T_ENUM || n->type == WIRE_T_NAMED_ENUM)
             ? n->small
             : 0;
}

size_t wire_node_count(const wire_node *n) {
  if (!n) return 0;
  switch (n->type) {
  case WIRE_T_LIST: case WIRE_T_SET: case WIRE_T_MAP:
    return n->small;
  case WIRE_T_STRUCT: case WIRE_T_COMPATIBLE_STRUCT: case WIRE_T_NAMED_STRUCT:
  case WIRE_T_NAMED_COMPATIBLE_STRUCT: case WIRE_T_EXT: case WIRE_T_NAMED_EXT:
    /* (a lazy struct holds every field of its layout) */
    return (n->v.u & WIRE_ST_LAZY) ? wire__st_layout(n)->nfields : n->small;
  default:
    if (wire__is_array_type(n->type))
      return (size_t)n->small / wire_type_array_width(n->type);
    if (n->type == WIRE_T_BINARY) return (size_t)n->small;
    return 0;
  }
}

wire_node *wire_node_child(const wire_node *n, size_t i) {
  if (!n || (n->type != WIRE_T_LIST && n->type != WIRE_T_SET) ||
      i >= n->small)
    return NULL;
  return n->v.list->items[i];
}
wire_node *wire_node_map_key(const wire_node *n, size_t i) {
  if (!n || n->type != WIRE_T_MAP || i >= n->small) return NULL;
  return n->v.map->kv[2 * i];
}
wire_node *wire_node_map_value(const wire_node *n, size_t i) {
  if (!n || n->type != WIRE_T_MAP || i >= n->small) return NULL;
  return n->v.map->kv[2 * i + 1];
}

uint32_t wire_node_index(const wire_node *n) { return n ? n->index : 0; }
size_t wire_doc_node_count(const wire_doc *d) { return d ? d->nnodes : 0; }
