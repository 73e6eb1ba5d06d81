/* reflist_holder.h - the two-struct schema shared by the tests of a list of
 * struct elements (test_reflist.c, test_reflist_off.c): `Holder` with one
 * list `items` of `Addr` (one string, `city`), its C images with tagged
 * strings, and a context with their layouts bound. Each test supplies its own
 * FDL text (the list's modifiers differ); the type names are ex.Addr and
 * ex.Holder in both. Include after <criterion/criterion.h>. */
#ifndef REFLIST_HOLDER_H
#define REFLIST_HOLDER_H

#include <stddef.h>
#include <string.h>

#include "wire.h"

#include "mem_ctx.h"
#include "mem_rows.h"

typedef struct { const uint8_t *p; uint32_t h, pad; } jstr; /* tagged */
typedef struct { jstr city; } addr;
typedef struct {
  const addr *const *items;
  uint32_t nitems, pad;
} holder;

/* A context with the FDL loaded and the options set; *lay is the holder's
 * layout (layouts: 0 holder, 1 addr, 2 addr pointer). */
static wire_ctx *reflist_make(const char *fdl, int compatible, int ref, uint32_t *lay) {
  wire_ctx *c = mem_ctx(fdl, "ex.fdl",
                        MEM_OPTS(WIRE_OPT_REF_TRACKING, ref,
                                 WIRE_OPT_COMPATIBLE, compatible,
                                 WIRE_OPT_TRUSTED_TEXT, 1));
  uint32_t ta = mem_ctx_type(c, "ex.Addr");
  uint32_t th = mem_ctx_type(c, "ex.Holder");
  const uint32_t rows[][WIRE_MEM_ROW] = {
      {WIRE_MEM_ROW_LAYOUT, th, sizeof(holder), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_LIST, O(holder, items), O(holder, nitems), N, 2, 0},
      {WIRE_MEM_ROW_LAYOUT, ta, sizeof(addr), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, TSTR, O(addr, city), O(addr, city.h), N, N, 0},
      {WIRE_MEM_ROW_LAYOUT, WIRE_MEM_ELEMENT, sizeof(void *), 0, 0, 0, 0, 0},
      {WIRE_MEM_ROW_FIELD, 0, WIRE_MEM_STRUCT_PTR, 0, N, N, 1, 0},
  };
  *lay = MEM_CTX_TABLE(c, rows);
  return c;
}

/* A one-character Latin-1 tagged string. */
static jstr L1(const char *s) {
  return (jstr){(const uint8_t *)s, (uint32_t)strlen(s) << 2 | WIRE_STR_LATIN1, 0};
}

/* The bytes the document encoder writes for a holder given in notation
 * text; free them with wire_ctx_free_bytes. */
static uint8_t *reflist_doc_encode(wire_ctx *c, const char *text, size_t *n) {
  wire_doc *d = wire_doc_new(c);
  wire_node *root;
  size_t used;
  cr_assert_eq(wire_notation_parse(c, d, text, strlen(text), 0, &root, &used), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_eq(wire_doc_add_root(d, root), WIRE_OK);
  uint8_t *out;
  cr_assert_eq(wire_encode(c, d, &out, n), WIRE_OK, "%s", wire_ctx_error_message(c));
  wire_doc_free(d);
  return out;
}

#endif
