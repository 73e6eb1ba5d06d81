/* impl.h - what a C implementation of the benchmark provides (one C file
 * per implementation, bench/README.md "Adding an implementation").
 *
 * An implementation prepares, at init, its own in-memory form of the six
 * reference values (model.h), e.g. protobuf-c messages, a generated C
 * struct, or nothing when it encodes the model structs directly. The driver
 * (bench_c.c) then measures encode and decode of each workload, and checks,
 * before measuring anything, that what decode_value reads back equals the
 * reference values and, for an implementation of Fory's format, that its
 * bytes equal Fory Rust's byte for byte and that it reads Fory Java's.
 *
 * Every function returns 0 on success and anything else on failure (after
 * a message on stderr); the driver then stops with an error. */
#ifndef BENCH_IMPL_H
#define BENCH_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* flags */
#define BENCH_FORY_BYTES 1u /* writes Fory xlang compatible-mode bytes */

typedef struct bench_impl {
  const char *name; /* as printed in BENCH lines: "floor", "libwire-doc" */
  uint32_t flags;

  /* Builds the state: contexts, schemas, the value of every workload in
   * the implementation's own form. NULL on failure. */
  void *(*init)(const bench_values *values);
  void (*fini)(void *state);

  /* Encodes workload w's prepared value: the measured "ser". *out points
   * to memory of the state, valid until the next call on it. */
  int (*encode)(void *state, int w, const uint8_t **out, size_t *out_len);

  /* Decodes bytes into the implementation's in-memory form and releases
   * that form again: the measured "de". Must read everything (no lazy
   * views left unparsed) and reject malformed input. */
  int (*decode)(void *state, int w, const uint8_t *data, size_t len);

  /* Decodes bytes into a model value (*out_value is the model struct of
   * workload w: bench_numeric, bench_sample, ...), strings and arrays
   * copied into `arena`: the byte checks compare it with the reference.
   * Not measured. */
  int (*decode_value)(void *state, int w, const uint8_t *data, size_t len,
                      bench_arena *arena, void *out_value);

  /* Optional (NULL when the format has no schema evolution): the
   * schema-mismatch read of Fory's suite, a reader whose types widen one
   * int32 field to int64 per struct (schemas/bench_v2.fdl), measured as
   * "de" of "<name>:v2". */
  int (*decode_v2)(void *state, int w, const uint8_t *data, size_t len);
  /* Reads like decode_v2 and checks the widened fields (and a few others)
   * against `values`. Not measured. */
  int (*check_v2)(void *state, int w, const uint8_t *data, size_t len,
                  const bench_values *values);
} bench_impl;

/* The implementations linked into a driver, NULL-terminated (impls.c). */
extern const bench_impl *const bench_impls[];

#endif
