/* conform.h - `wire testee` (libwire as a conformance testee) and
 * `wire conform` (the conformance runner); see conformance/PROTOCOL.md. */
#ifndef WIRE_CONFORM_H
#define WIRE_CONFORM_H

#include <jansson.h>

/* The testee hello line: {"hello": {"name": "libwire", ...}}. New reference. */
json_t *testee_hello(void);

/* Serves one protocol request (decode or encode) with a fresh context and
 * returns the response object (new reference, never NULL). Relative schema
 * paths are resolved against `root` (NULL: the current directory). */
json_t *testee_handle(const json_t *request, const char *root);

/* `wire testee [--root DIR]`: the protocol on stdin/stdout. */
int cmd_testee(int argc, char **argv);

/* `wire conform [options] [DIR]`: runs the fixtures against a testee. */
int cmd_conform(int argc, char **argv);

#endif
