/* tdcache_help.h - what the TypeDef cache tests (test_meta.c,
 * test_tdcache.c) share: an allocator that counts live allocations, live
 * bytes, their peak and the allocations made, can fail the n-th call and
 * fills what is freed with 0xA5 (a use after free shows without ASan);
 * and payloads of k distinct TypeDefs. Include after
 * <criterion/criterion.h> and wire.h. */
#ifndef TDCACHE_HELP_H
#define TDCACHE_HELP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  size_t live, live_bytes, calls, fail_at, peak;
  size_t allocs; /* allocations made (malloc, not realloc) */
  int failed;
} counter;
typedef struct {
  size_t size;
  size_t pad;
} hdr;
static inline void *c_malloc(void *u, size_t n) {
  counter *c = u;
  if (c->fail_at && ++c->calls == c->fail_at) {
    c->failed = 1;
    return NULL;
  }
  hdr *h = malloc(sizeof *h + n);
  h->size = n;
  c->allocs++;
  c->live++;
  c->live_bytes += n;
  if (c->live_bytes > c->peak) c->peak = c->live_bytes;
  return h + 1;
}
static inline void *c_realloc(void *u, void *p, size_t old, size_t n) {
  counter *c = u;
  (void)old;
  if (c->fail_at && ++c->calls == c->fail_at) {
    c->failed = 1;
    return NULL;
  }
  hdr *h = (hdr *)p - 1;
  size_t was = h->size;
  hdr *nh = realloc(h, sizeof *nh + n);
  nh->size = n;
  c->live_bytes = c->live_bytes - was + n;
  if (c->live_bytes > c->peak) c->peak = c->live_bytes;
  return nh + 1;
}
static inline void c_free(void *u, void *p, size_t n) {
  counter *c = u;
  (void)n;
  if (!p) return;
  hdr *h = (hdr *)p - 1;
  c->live--;
  c->live_bytes -= h->size;
  memset(h + 1, 0xA5, h->size); /* a use after free reads garbage */
  free(h);
}

/* k payloads, payload i one struct of its own type (id 100 + i): k
 * distinct TypeDefs, one per message. */
static inline uint8_t **distinct_payloads(int k, size_t *lens) {
  wire_ctx *w = wire_ctx_new();
  cr_assert_eq(wire_ctx_set_option(w, WIRE_OPT_COMPATIBLE, 1), WIRE_OK);
  char fdl[8192] = "package d;\n";
  for (int i = 0; i < k; i++) {
    char line[128];
    snprintf(line, sizeof line, "message T%d [id=%d] { int32 v%d = 1; }\n", i,
             100 + i, i);
    strcat(fdl, line);
  }
  cr_assert_eq(wire_schema_load_fdl(w, fdl, strlen(fdl), "d.fdl"), WIRE_OK);
  cr_assert_eq(wire_schema_finish(w), WIRE_OK);
  uint8_t **out = calloc((size_t)k, sizeof *out);
  for (int i = 0; i < k; i++) {
    char name[16];
    snprintf(name, sizeof name, "d.T%d", i);
    uint32_t t;
    cr_assert_eq(wire_schema_find_type(w, name, strlen(name), &t), WIRE_OK);
    wire_doc *d = wire_doc_new(w);
    wire_node *s = wire_node_new_struct(d, t);
    cr_assert_eq(wire_struct_set_field_at(
                     d, s, 0, wire_node_new_int(d, WIRE_T_VARINT32, i)),
                 WIRE_OK);
    cr_assert_eq(wire_doc_add_root(d, s), WIRE_OK);
    uint8_t *bytes;
    cr_assert_eq(wire_encode(w, d, &bytes, &lens[i]), WIRE_OK);
    out[i] = malloc(lens[i]);
    memcpy(out[i], bytes, lens[i]);
    wire_ctx_free_bytes(w, bytes);
    wire_doc_free(d);
  }
  wire_ctx_free(w);
  return out;
}

#endif
