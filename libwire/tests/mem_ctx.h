/* mem_ctx.h - the context a compiled-codec test starts from (test_mem*.c;
 * include after <criterion/criterion.h>): options set, a schema loaded
 * from FDL text and finished, its types found by name, layouts made from
 * a table of rows and bound. Each step is asserted to succeed, with the
 * context's message when it does not. */
#ifndef MEM_CTX_H
#define MEM_CTX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire.h"

/* Options for mem_ctx: (WIRE_OPT_*, value) pairs, set in that order
 * before the schema is loaded. A pair whose option is MEM_OPT_NONE is
 * passed over (an option left at its default by a condition). */
#define MEM_OPTS_END (-1)
#define MEM_OPT_NONE 0
#define MEM_OPTS(...) ((const int64_t[]){__VA_ARGS__, MEM_OPTS_END})

/* A new context (free it with wire_ctx_free) with the options opts
 * (MEM_OPTS(...), or NULL for none) and the schema fdl, whose messages
 * name it `name`, loaded and finished. */
static inline wire_ctx *mem_ctx(const char *fdl, const char *name,
                                const int64_t *opts) {
  wire_ctx *c = wire_ctx_new();
  cr_assert_not_null(c);
  for (; opts && opts[0] != MEM_OPTS_END; opts += 2)
    if (opts[0] != MEM_OPT_NONE)
      wire_ctx_set_option(c, (int32_t)opts[0], opts[1]);
  cr_assert_eq(wire_schema_load_fdl(c, fdl, strlen(fdl), name), WIRE_OK,
               "%s", wire_ctx_error_message(c));
  cr_assert_eq(wire_schema_finish(c), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  return c;
}

/* The id of the type named `name` ("package.Message") in c's schema. */
static inline uint32_t mem_ctx_type(wire_ctx *c, const char *name) {
  uint32_t t = 0;
  cr_assert_eq(wire_schema_find_type(c, name, strlen(name), &t), WIRE_OK,
               "%s: %s", name, wire_ctx_error_message(c));
  return t;
}

/* The layouts of the n rows at rows (wire_mem_layout_table) made in c;
 * returns the first one's id. MEM_CTX_TABLE(c, rows): all of the array
 * rows. */
static inline uint32_t mem_ctx_table(wire_ctx *c, const uint32_t *rows,
                                     size_t n) {
  uint32_t first = 0;
  cr_assert_eq(wire_mem_layout_table(c, rows, n, &first), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  return first;
}
#define MEM_CTX_TABLE(c, rows) \
  mem_ctx_table((c), &(rows)[0][0], sizeof(rows) / sizeof((rows)[0]))

#endif
