/* hex.h - the hex decoder of the tools (`--hex` input, testee requests). */
#ifndef WIRE_TOOLS_HEX_H
#define WIRE_TOOLS_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Decodes hex text in[0..len) into out (which may be `in` itself: the
 * output never runs ahead of the input). With `spaces`, ASCII whitespace
 * between digits is skipped. Returns the number of bytes written, or
 * (size_t)-1 with *bad set to the offset of the first character that is not
 * a hex digit (len for an odd number of digits). */
size_t hex_decode(const char *in, size_t len, uint8_t *out, int spaces,
                  size_t *bad);

#endif
