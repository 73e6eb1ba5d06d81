/* fuzz_typedef.h - TypeDef hash repair for the fuzz targets that read
 * compatible-mode payloads (header only; fuzz_schema.c, fuzz_mem_decode.c,
 * fuzz_tape_decode.c, fuzz_heap.c, fuzz_gen_decode.c).
 *
 * A TypeDef header carries a 52-bit hash of its body, so almost every
 * mutation inside a TypeDef stops at the hash check and the code behind it
 * is never reached. fuzz_repair_typedefs() therefore decodes the payload
 * with the target's own decoder; while that fails with WIRE_E_TYPEDEF at
 * the offset of a TypeDef header whose hash does not match the body that
 * follows, it recomputes the header's hash bits (as wire__typedef_read
 * does) and decodes again, at most 32 times. The target then runs its
 * checks on the repaired payload, which libFuzzer does not see: a
 * reproducer is the original input, repaired again on replay. */
#ifndef WIRE_FUZZ_TYPEDEF_H
#define WIRE_FUZZ_TYPEDEF_H

#include "wire.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The hash bits of the TypeDef header at data[off], computed from the
 * body as wire__typedef_read does; false if there is no complete TypeDef
 * there, its header is not one that reaches the hash check, or its hash
 * already matches. */
static bool fuzz_typedef_header(const uint8_t *data, size_t size, size_t off,
                                uint64_t *fixed) {
  if (off > size || size - off < 8) return false;
  uint64_t header = 0;
  for (int i = 0; i < 8; i++) header |= (uint64_t)data[off + i] << (8 * i);
  if (header & 0xF00) return false; /* compressed or reserved bits */
  size_t at = off + 8;
  uint64_t body = header & 0xFF;
  if (body == 0xFF) { /* varuint32 extension */
    uint64_t extra = 0;
    int shift = 0;
    for (;;) {
      if (at >= size || shift > 28) return false;
      uint8_t b = data[at++];
      extra |= (uint64_t)(b & 0x7F) << shift;
      if (!(b & 0x80)) break;
      shift += 7;
    }
    body += extra;
  }
  if (body > size - at || body > 4096) return false;
  uint8_t buf[4096 + 2];
  memcpy(buf, data + at, body);
  buf[body] = (uint8_t)(header & 0xFF);
  buf[body + 1] = (uint8_t)((header >> 8) & 0x0F);
  uint64_t h;
  wire_murmur3_x64_128(buf, body + 2, 47, &h, NULL);
  h <<= 12;
  if ((int64_t)h < 0 && h != UINT64_C(0x8000000000000000)) h = 0 - h;
  h &= UINT64_C(0xFFFFFFFFFFFFF000);
  *fixed = h | (header & 0xFFF);
  return *fixed != header;
}

/* A decoder run by the repair: the status of decoding buf[0..size) on ctx
 * (the error code and offset left on ctx). */
typedef int32_t (*fuzz_decode_fn)(wire_ctx *ctx, const uint8_t *buf,
                                  size_t size, void *user);

/* Repairs the TypeDef hashes of buf in place (see above). Returns the
 * status of the last decode, which read buf as it is on return. */
static int32_t fuzz_repair_typedefs(wire_ctx *ctx, uint8_t *buf, size_t size,
                                    fuzz_decode_fn decode, void *user) {
  int32_t st = decode(ctx, buf, size, user);
  for (int i = 0; i < 32 && st == WIRE_E_TYPEDEF; i++) {
    size_t off = (size_t)wire_ctx_error_offset(ctx);
    uint64_t fixed;
    if (!fuzz_typedef_header(buf, size, off, &fixed)) break;
    for (int k = 0; k < 8; k++) buf[off + k] = (uint8_t)(fixed >> (8 * k));
    st = decode(ctx, buf, size, user);
  }
  return st;
}

/* fuzz_repair_typedefs' decoder for the document path: wire_decode (the
 * document freed). */
static int32_t fuzz_decode_doc(wire_ctx *ctx, const uint8_t *buf, size_t size,
                               void *user) {
  (void)user;
  wire_doc *doc = NULL;
  int32_t st = wire_decode(ctx, buf, size, &doc);
  wire_doc_free(doc);
  return st;
}

/* fuzz_repair_typedefs' decoder for the compiled codecs: wire_mem_decode
 * of layout `root` into out (zeroed first: out_size bytes) and the arena;
 * used gets the arena bytes taken (or needed). */
typedef struct {
  uint32_t root, flags;
  void *out;
  size_t out_size;
  uint8_t *arena;
  size_t cap, used;
} fuzz_mem_run;
static int32_t fuzz_decode_mem(wire_ctx *ctx, const uint8_t *buf, size_t size,
                               void *user) {
  fuzz_mem_run *r = user;
  memset(r->out, 0, r->out_size);
  r->used = 0;
  return wire_mem_decode(ctx, r->root, buf, size, r->out, r->arena, r->cap,
                         &r->used, r->flags);
}

/* A malloc'ed copy of data[0..size) of exactly size bytes (so that
 * AddressSanitizer sees a read past the payload), its TypeDef hashes
 * repaired by decode when `repair` (compatible mode); *st (if not NULL)
 * gets the status of the last decode, or of one decode when not
 * repairing. */
static uint8_t *fuzz_repaired_copy(wire_ctx *ctx, const uint8_t *data,
                                   size_t size, bool repair,
                                   fuzz_decode_fn decode, void *user,
                                   int32_t *st) {
  uint8_t *buf = malloc(size ? size : 1);
  if (!buf) abort();
  if (size) memcpy(buf, data, size);
  int32_t s = repair ? fuzz_repair_typedefs(ctx, buf, size, decode, user)
              : st ? decode(ctx, buf, size, user) : WIRE_OK;
  if (st) *st = s;
  return buf;
}

#endif
