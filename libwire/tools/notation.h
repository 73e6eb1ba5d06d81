/* notation.h - the JSON value notation (spec/notation.md) for the tools. */
#ifndef WIRE_NOTATION_H
#define WIRE_NOTATION_H

#include <jansson.h>

#include "wire.h"

/* Converts root `index` of a document to a new JSON value. With
 * `untracked`, values written with the not-null flag 0xff get
 * "tracked": false (needed to re-encode them exactly under ref tracking,
 * whose policy would flag them 0x00). */
json_t *wire_notation_from_root(wire_ctx *ctx, wire_doc *doc, size_t index,
                                int untracked);

/* Converts any node (and what it reaches) to JSON. */
json_t *wire_notation_from_node(wire_ctx *ctx, wire_doc *doc, wire_node *node);
json_t *wire_notation_from_node_ex(wire_ctx *ctx, wire_doc *doc,
                                   wire_node *node, int untracked);

/* Builds a node from JSON and adds it as a root. On failure returns a
 * status and writes a message into err (size errlen). */
int32_t wire_notation_add_root(wire_ctx *ctx, wire_doc *doc, json_t *value,
                               char *err, size_t errlen);

#endif
