/* notation.h - the JSON value notation (spec/notation.md) for the tools. */
#ifndef WIRE_NOTATION_H
#define WIRE_NOTATION_H

#include <jansson.h>

#include "wire.h"

/* Converts root `index` of a document to a new JSON value. */
json_t *wire_notation_from_root(wire_doc *doc, size_t index);

/* Builds a node from JSON and adds it as a root. On failure returns a
 * status and writes a message into err (size errlen). */
int32_t wire_notation_add_root(wire_doc *doc, json_t *value, char *err,
                               size_t errlen);

#endif
