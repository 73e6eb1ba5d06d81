/* mem_bases.c - wire_mem_decode for callers whose memory moves between
 * calls (a garbage-collected heap, pinned for the duration of one call):
 * the decode, and the addresses of the input and the arena as the call saw
 * them, so that the addresses it wrote can be turned into offsets. */
#include "internal.h"

int32_t wire_mem_decode_bases(wire_ctx *ctx, uint32_t layout,
                              const uint8_t *data, size_t len, void *out,
                              uint8_t *arena, size_t arena_cap,
                              size_t *arena_used, uint32_t flags,
                              uint64_t *bases) {
  if (!bases) return WIRE_E_ARG;
  bases[0] = (uint64_t)(uintptr_t)data;
  bases[1] = (uint64_t)(uintptr_t)arena;
  return wire_mem_decode(ctx, layout, data, len, out, arena, arena_cap,
                         arena_used, flags);
}
