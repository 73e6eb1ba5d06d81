/* mem_rows.h - the short names the compiled-codec tests (test_mem*.c,
 * reflist_holder.h) write their layout rows and wire_mem_layout_field
 * calls with. */
#ifndef MEM_ROWS_H
#define MEM_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* no length / count offset, no union case, no element layout */
#define N WIRE_MEM_NONE
/* the offset of field f in struct type t, as a row's uint32_t */
#define O(t, f) (uint32_t) offsetof(t, f)
/* a string stored as a pointer and a tagged header word */
#define TSTR (WIRE_MEM_STR | WIRE_MEM_STR_TAGGED)

#endif
