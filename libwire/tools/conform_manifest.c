/* conform_manifest.c - fixture integrity: every fixture file is checked
 * against the CRC-32 that DIR/MANIFEST.json records for it (zlib's crc32,
 * the checksum manifest.py writes) before its tests run, so a modified,
 * missing or unlisted file is reported instead of silently testing other
 * bytes. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "conform_run.h"

/* The manifest path of a fixture ("fixtures/valid/x.json") relative to the
 * fixtures directory ("valid/x.json"): everything after the first '/'. */
static const char *below_top(const char *path) {
  const char *s = strchr(path, '/');
  return s ? s + 1 : path;
}

json_t *cf_manifest_load(const char *dir) {
  char *p = cf_fmt("%s/MANIFEST.json", dir);
  json_error_t jerr;
  json_t *m = json_load_file(p, 0, &jerr);
  free(p);
  if (!m) return NULL;
  json_t *out = json_object();
  size_t i;
  json_t *e;
  json_array_foreach(json_object_get(m, "files"), i, e) {
    const char *path = json_string_value(json_object_get(e, "path"));
    const char *crc = json_string_value(json_object_get(e, "crc32"));
    if (path && crc)
      json_object_set_new(out, below_top(path), json_string(crc));
  }
  json_decref(m);
  return out;
}

/* Reads a whole file; NULL if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  unsigned char *b = malloc(cap);
  for (;;) {
    if (n == cap) b = realloc(b, cap *= 2);
    size_t k = fread(b + n, 1, cap - n, f);
    if (!k) break;
    n += k;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(b);
    return NULL;
  }
  *len = n;
  return b;
}

unsigned char *cf_fixture_read(const runner *r, const char *rel, size_t *len,
                               char **why) {
  char *full = cf_fmt("%s/%s", r->dir, rel);
  unsigned char *b = slurp(full, len);
  free(full);
  if (!b) {
    *why = cf_xstrdup("cannot read the file");
    return NULL;
  }
  if (!r->manifest) return b;
  const char *want = json_string_value(json_object_get(r->manifest, rel));
  if (!want) {
    *why = cf_xstrdup("the file is not listed in MANIFEST.json (run "
                      "conformance/tools/manifest.py after adding fixtures)");
    free(b);
    return NULL;
  }
  unsigned long crc = crc32(0L, Z_NULL, 0);
  size_t off = 0;
  while (off < *len) { /* crc32 takes a uInt length */
    size_t k = *len - off > (1u << 30) ? (1u << 30) : *len - off;
    crc = crc32(crc, b + off, (uInt)k);
    off += k;
  }
  char got[16];
  snprintf(got, sizeof got, "%08lx", crc & 0xffffffffUL);
  if (strcmp(got, want) != 0) {
    *why = cf_fmt("modified: CRC-32 %s, MANIFEST.json records %s (tests "
                  "not run)", got, want);
    free(b);
    return NULL;
  }
  return b;
}

void cf_manifest_missing(runner *r, const strvec *files) {
  if (!r->manifest) return;
  const char *k;
  json_t *v;
  json_object_foreach(r->manifest, k, v) {
    int found = 0;
    for (size_t i = 0; i < files->n && !found; i++)
      found = !strcmp(files->v[i], k);
    if (!found && (!strncmp(k, "valid/", 6) || !strncmp(k, "invalid/", 8))) {
      char *area = cf_fmt("%s/missing", !strncmp(k, "valid/", 6) ? "valid"
                                                                 : "invalid");
      cf_add_result(r, k, k, area, R_FAIL,
                    cf_xstrdup("missing: MANIFEST.json lists this fixture "
                               "file but it does not exist"));
      free(area);
    }
  }
}
