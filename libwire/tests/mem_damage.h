/* mem_damage.h - a message damaged every way one byte can damage it, for
 * the compiled decoder's tests (test_mem_*.c; include after
 * <criterion/criterion.h>): every prefix, every byte changed to each of a
 * few values, every one-byte reference id after a reference flag, every
 * arena smaller than the message needs.
 *
 * A probe decodes the damaged bytes two ways (a fast path and the general
 * one, a cached mapping and a fresh one, the compiled decoder and the
 * document decoder) and asserts that they agree (mem_damage_agree: the
 * same status, and on failure the same byte offset); the sweeps assert
 * what holds of every damaged form whoever reads it: no prefix decodes, an
 * arena too small fails with WIRE_E_BUFFER_FULL. Each damaged form lies in
 * a buffer of exactly its length, so a read past it shows under ASan and
 * valgrind. */
#ifndef MEM_DAMAGE_H
#define MEM_DAMAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

/* A probe: decodes data[0..n) two ways, into arenas of cap bytes at most
 * (MEM_DAMAGE_ARENA: the probe's whole arena), asserts that the two
 * agree and returns the status. strict: the damage lies where the two
 * must agree on the status too (a probe that always compares ignores
 * it). */
typedef int32_t (*mem_damage_probe)(const void *env, const uint8_t *data,
                                    size_t n, size_t cap, int strict);
#define MEM_DAMAGE_ARENA SIZE_MAX

/* A failed decode of n bytes by c is clean: the context holds the status
 * and an offset within the input. Returns the offset (0 on success). */
static inline uint64_t mem_damage_clean(wire_ctx *c, int32_t st, size_t n) {
  if (st == WIRE_OK) return 0;
  uint64_t off = wire_ctx_error_offset(c);
  cr_assert_eq(wire_ctx_error_code(c), st, "%zu bytes: status %d, context %d",
               n, st, wire_ctx_error_code(c));
  cr_assert_leq(off, n, "%zu bytes: error offset %llu", n,
                (unsigned long long)off);
  return off;
}

/* Two decodes of the same n bytes (named a and b; cap: their arena) agree:
 * the same status, and on failure the same byte offset. */
static inline void mem_damage_agree(const char *a, int32_t s1, uint64_t f1,
                                    const char *b, int32_t s2, uint64_t f2,
                                    size_t n, size_t cap) {
  cr_assert_eq(s1, s2, "%zu bytes, arena %zu: %s %d, %s %d", n, cap, a, s1,
               b, s2);
  if (s1)
    cr_assert_eq(f1, f2, "%zu bytes, arena %zu: %s at %llu, %s at %llu", n,
                 cap, a, (unsigned long long)f1, b, (unsigned long long)f2);
}

/* bytes[0..n) in a buffer of exactly n bytes (never NULL) */
static inline uint8_t *mem_damage_exact(const uint8_t *bytes, size_t n) {
  uint8_t *p = malloc(n ? n : 1);
  cr_assert_not_null(p);
  if (n) memcpy(p, bytes, n);
  return p;
}

/* Two contexts' decodes of the same n bytes (ca's status s1, cb's s2)
 * agree: the same status, and on failure the same error offset. Returns
 * s1. */
static inline int32_t mem_damage_agree_ctx(wire_ctx *ca, int32_t s1,
                                           wire_ctx *cb, int32_t s2,
                                           size_t n) {
  cr_assert_eq(s1, s2, "%zu bytes: cases %d (%s), general %d (%s)", n, s1,
               wire_ctx_error_message(ca), s2, wire_ctx_error_message(cb));
  if (s1)
    cr_assert_eq(wire_ctx_error_offset(ca), wire_ctx_error_offset(cb),
                 "%s / %s", wire_ctx_error_message(ca),
                 wire_ctx_error_message(cb));
  return s1;
}

/* v encoded with layout l of c, which must succeed, copied to out (cap
 * bytes at most). Returns the length. */
static inline size_t mem_damage_encode(wire_ctx *c, uint32_t l, const void *v,
                                       uint8_t *out, size_t cap) {
  const uint8_t *p;
  size_t n;
  cr_assert_eq(wire_mem_encode(c, l, v, &p, &n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert_leq(n, cap);
  memcpy(out, p, n);
  return n;
}

/* mem_damage_encode, and the bytes are the document codec's too: decoded
 * into a document and encoded again, they come out the same. */
static inline size_t mem_damage_encode_doc(wire_ctx *c, uint32_t l,
                                           const void *v, uint8_t *out,
                                           size_t cap) {
  size_t n = mem_damage_encode(c, l, v, out, cap);
  wire_doc *d;
  cr_assert_eq(wire_decode(c, out, n, &d), WIRE_OK, "%s at %llu",
               wire_ctx_error_message(c),
               (unsigned long long)wire_ctx_error_offset(c));
  uint8_t *again;
  size_t alen;
  cr_assert_eq(wire_encode(c, d, &again, &alen), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  cr_assert(alen == n && !memcmp(again, out, alen),
            "the document codec writes the same bytes (%zu / %zu)", alen, n);
  wire_ctx_free_bytes(c, again);
  wire_doc_free(d);
  return n;
}

/* Two decoded values of layout l (a decoded by ca, b by cb) are the same
 * value: each context encodes its own to the same bytes, or both fail
 * with the same status. */
static inline void mem_damage_same_values(wire_ctx *ca, wire_ctx *cb,
                                          uint32_t l, const void *a,
                                          const void *b) {
  const uint8_t *p;
  size_t n1, n2;
  int32_t e1 = wire_mem_encode(ca, l, a, &p, &n1);
  uint8_t *first = e1 ? NULL : mem_damage_exact(p, n1);
  int32_t e2 = wire_mem_encode(cb, l, b, &p, &n2);
  cr_assert_eq(e1, e2, "%s / %s", wire_ctx_error_message(ca),
               wire_ctx_error_message(cb));
  if (!e1)
    cr_assert(n1 == n2 && !memcmp(first, p, n1), "values differ");
  free(first);
}

/* v encoded with layout l of c and decoded back by c (WIRE_MEM_COPY, into
 * out with an arena of cap bytes), which must succeed. Returns the bytes in
 * a buffer of exactly their length (free it), their count in *n. */
static inline uint8_t *mem_damage_round_trip(wire_ctx *c, uint32_t l,
                                             const void *v, size_t *n,
                                             void *out, void *arena,
                                             size_t cap) {
  const uint8_t *p;
  cr_assert_eq(wire_mem_encode(c, l, v, &p, n), WIRE_OK, "%s",
               wire_ctx_error_message(c));
  uint8_t *bytes = mem_damage_exact(p, *n);
  size_t used = 0;
  cr_assert_eq(wire_mem_decode(c, l, bytes, *n, out, arena, cap, &used,
                               WIRE_MEM_COPY),
               WIRE_OK, "%s", wire_ctx_error_message(c));
  return bytes;
}

/* A comparing probe: data[0..n) decoded with layout l by ca one way and by
 * cb another, asserted to agree; returns the status. */
typedef int32_t (*mem_damage_pair)(wire_ctx *ca, wire_ctx *cb, uint32_t l,
                                   const uint8_t *data, size_t n);

/* Every message with one byte set to each of its 256 values, then every
 * prefix, which must fail, each through f in a buffer of exactly its
 * length. */
static inline void mem_damage_every_value(mem_damage_pair f, wire_ctx *ca,
                                          wire_ctx *cb, uint32_t l,
                                          const uint8_t *bytes, size_t n) {
  uint8_t *p = mem_damage_exact(bytes, n);
  for (size_t i = 0; i < n; i++) {
    for (unsigned v = 0; v < 256; v++) {
      p[i] = (uint8_t)v;
      f(ca, cb, l, p, n);
    }
    p[i] = bytes[i];
  }
  free(p);
  for (size_t cut = 0; cut < n; cut++) {
    p = mem_damage_exact(bytes, cut);
    cr_assert_neq(f(ca, cb, l, p, cut), WIRE_OK, "%zu of %zu", cut, n);
    free(p);
  }
}

/* Every prefix of bytes[0..n) fails; a cut at body or later is probed
 * strictly. */
static inline void mem_damage_prefixes(mem_damage_probe f, const void *env,
                                       const uint8_t *bytes, size_t n,
                                       size_t body) {
  for (size_t cut = 0; cut < n; cut++) {
    uint8_t *p = mem_damage_exact(bytes, cut);
    cr_assert_neq(f(env, p, cut, MEM_DAMAGE_ARENA, cut >= body), WIRE_OK,
                  "the prefix of %zu of %zu bytes decodes", cut, n);
    free(p);
  }
}

/* Every message with one byte replaced by that byte ^ flip and by each of
 * subs[0..ns); a change at body or later is probed strictly. */
static inline void mem_damage_bytes(mem_damage_probe f, const void *env,
                                    const uint8_t *bytes, size_t n,
                                    size_t body, uint8_t flip,
                                    const uint8_t *subs, size_t ns) {
  uint8_t *p = mem_damage_exact(bytes, n);
  for (size_t i = 0; i < n; i++) {
    for (size_t s = 0; s <= ns; s++) {
      p[i] = s ? subs[s - 1] : (uint8_t)(bytes[i] ^ flip);
      f(env, p, n, MEM_DAMAGE_ARENA, i >= body);
    }
    p[i] = bytes[i];
  }
  free(p);
}

/* mem_damage_prefixes, then mem_damage_bytes */
static inline void mem_damage_all(mem_damage_probe f, const void *env,
                                  const uint8_t *bytes, size_t n, size_t body,
                                  uint8_t flip, const uint8_t *subs,
                                  size_t ns) {
  mem_damage_prefixes(f, env, bytes, n, body);
  mem_damage_bytes(f, env, bytes, n, body, flip, subs, ns);
}

/* After every reference flag (flag, e.g. 0xFE: a reference id follows)
 * each one-byte id below ids, probed strictly. Returns how many flags
 * there were. */
static inline size_t mem_damage_ref_ids(mem_damage_probe f, const void *env,
                                        const uint8_t *bytes, size_t n,
                                        uint8_t flag, uint8_t ids) {
  uint8_t *p = mem_damage_exact(bytes, n);
  size_t flags = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    if (bytes[i] != flag) continue;
    flags++;
    for (uint8_t v = 0; v < ids; v++) {
      p[i + 1] = v;
      f(env, p, n, MEM_DAMAGE_ARENA, 1);
    }
    p[i + 1] = bytes[i + 1];
  }
  free(p);
  return flags;
}

/* Arenas too small for decoding bytes[0..n) with layout l of c (flags:
 * wire_mem_decode's) into out. For every size below the one needed, each
 * in a buffer of exactly that size: WIRE_E_BUFFER_FULL at an offset within
 * the input, and a size needed more than the arena's and at most what the
 * message takes; an arena of the size reported, grown so again while
 * asked, ends with WIRE_OK. Then, when f is given, the probe at that arena
 * size fails with WIRE_E_BUFFER_FULL too. Returns the size needed. */
static inline size_t mem_damage_arenas(wire_ctx *c, uint32_t l,
                                       const uint8_t *bytes, size_t n,
                                       void *out, uint32_t flags,
                                       mem_damage_probe f, const void *env) {
  size_t need = 0;
  {
    uint8_t *a = malloc(1 << 20);
    cr_assert_not_null(a);
    cr_assert_eq(wire_mem_decode(c, l, bytes, n, out, a, 1 << 20, &need,
                                 flags), WIRE_OK, "%s",
                 wire_ctx_error_message(c));
    free(a);
  }
  for (size_t cap = 0; cap < need; cap++) {
    uint8_t *a = malloc(cap ? cap : 1);
    cr_assert_not_null(a);
    size_t used = 0;
    int32_t st = wire_mem_decode(c, l, bytes, n, out, cap ? a : NULL, cap,
                                 &used, flags);
    cr_assert_eq(st, WIRE_E_BUFFER_FULL, "arena %zu of %zu: %d", cap, need,
                 st);
    cr_assert_lt(mem_damage_clean(c, st, n), n);
    cr_assert(used > cap && used <= need, "arena %zu: %zu reported, %zu taken",
              cap, used, need);
    free(a);
    size_t grown = used;
    do {
      a = malloc(grown);
      cr_assert_not_null(a);
      used = 0;
      st = wire_mem_decode(c, l, bytes, n, out, a, grown, &used, flags);
      free(a);
      if (st == WIRE_E_BUFFER_FULL) {
        cr_assert_gt(used, grown);
        grown = used;
      }
    } while (st == WIRE_E_BUFFER_FULL);
    cr_assert_eq(st, WIRE_OK, "%s", wire_ctx_error_message(c));
    cr_assert_eq(used, need);
    if (f)
      cr_assert_eq(f(env, bytes, n, cap, 1), WIRE_E_BUFFER_FULL,
                   "arena %zu of %zu", cap, need);
  }
  return need;
}

#endif
