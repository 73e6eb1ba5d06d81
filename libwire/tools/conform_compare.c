/* conform_compare.c - value equality for the conformance runner: the normalization and
 * comparison of decoded roots (conformance/PROTOCOL.md "Comparing", spec/notation.md
 * "Equality"). */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "conform_run.h"

/* Node-level wire-choice annotations (spec/notation.md N-3; "tracked"
 * N-2). "typedef" is the struct-body annotation, handled separately. */
static const char *const node_annotations[] = {
    "enc", "header", "chunks", "tracked", "approx", "iso", "ns_enc",
    "name_enc", "ns_hash", "name_hash", "ns_xref", "name_xref", "ns_again",
    "name_again", "band", "oob", NULL};


static int in_list(const char *const *list, const char *s) {
  for (int i = 0; list[i]; i++)
    if (strcmp(list[i], s) == 0) return 1;
  return 0;
}

/* Every name used by a {"ref": name} node anywhere under j. */
static void collect_refs(const json_t *j, json_t *refs) {
  if (json_is_object(j)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)j, k, v) {
      if (strcmp(k, "ref") == 0 && json_is_string(v))
        json_object_set_new(refs, json_string_value(v), json_true());
      else
        collect_refs(v, refs);
    }
  } else if (json_is_array(j)) {
    size_t i;
    json_t *v;
    json_array_foreach((json_t *)j, i, v) collect_refs(v, refs);
  }
}

static int float_width(const char *key) {
  if (!strcmp(key, "float16") || !strcmp(key, "bfloat16")) return 16;
  if (!strcmp(key, "float32")) return 32;
  if (!strcmp(key, "float64")) return 64;
  return 0;
}

/* A float string of type `key` ("float16", ...) in its bit form. */
static json_t *norm_float(const char *key, const json_t *v) {
  const char *s = json_string_value(v);
  int w = float_width(key);
  if (!s || !w) return json_deep_copy(v);
  uint64_t bits;
  char *end;
  errno = 0;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    bits = strtoull(s + 2, &end, 16);
    if (errno || *end || !s[2]) return json_deep_copy(v);
  } else {
    double d = strtod(s, &end);
    if (end == s || *end) return json_deep_copy(v);
    if (!strcmp(key, "float16")) {
      bits = wire_float16_from_double(d);
    } else if (!strcmp(key, "bfloat16")) {
      bits = wire_bfloat16_from_double(d);
    } else if (w == 32) {
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      bits = u;
    } else {
      memcpy(&bits, &d, 8);
    }
  }
  if (w < 64) bits &= (UINT64_C(1) << w) - 1;
  char b[24];
  snprintf(b, sizeof b, "0x%0*llx", w / 4, (unsigned long long)bits);
  return json_string(b);
}

static json_t *norm_node(const json_t *n, const json_t *refs);

static json_t *norm_nodes(const json_t *arr, const json_t *refs) {
  if (!json_is_array(arr)) return json_deep_copy(arr);
  json_t *o = json_array();
  size_t i;
  json_t *v;
  json_array_foreach((json_t *)arr, i, v)
      json_array_append_new(o, norm_node(v, refs));
  return o;
}

/* Struct, ext and union bodies: drop "typedef", normalize nested nodes. */
static json_t *norm_body(const json_t *body, const json_t *refs) {
  if (!json_is_object(body)) return json_deep_copy(body);
  json_t *o = json_object();
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)body, k, v) {
    if (!strcmp(k, "typedef")) continue;
    if (!strcmp(k, "value")) {
      json_object_set_new(o, k, norm_node(v, refs));
    } else if (!strcmp(k, "fields") && json_is_object(v)) {
      json_t *f = json_object();
      const char *fk;
      json_t *fv;
      json_object_foreach(v, fk, fv)
          json_object_set_new(f, fk, norm_node(fv, refs));
      json_object_set_new(o, k, f);
    } else {
      json_object_set_new(o, k, json_deep_copy(v));
    }
  }
  return o;
}

static json_t *norm_node(const json_t *n, const json_t *refs) {
  if (!json_is_object(n)) return json_deep_copy(n);
  json_t *o = json_object();
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)n, k, v) {
    if (in_list(node_annotations, k)) continue;
    if (!strcmp(k, "anchor")) {
      if (json_is_string(v) && json_object_get(refs, json_string_value(v)))
        json_object_set_new(o, k, json_deep_copy(v));
      continue;
    }
    json_t *nv;
    if (!strcmp(k, "list") || !strcmp(k, "set")) {
      nv = norm_nodes(v, refs);
    } else if (!strcmp(k, "map") && json_is_array(v)) {
      nv = json_array();
      size_t i;
      json_t *e;
      json_array_foreach(v, i, e) json_array_append_new(nv, norm_nodes(e, refs));
    } else if (!strcmp(k, "struct") || !strcmp(k, "ext") ||
               !strcmp(k, "union")) {
      nv = norm_body(v, refs);
    } else if (float_width(k)) {
      nv = norm_float(k, v);
    } else if (json_is_array(v) && strlen(k) > 6 &&
               !strcmp(k + strlen(k) - 6, "_array")) {
      char elem[32];
      snprintf(elem, sizeof elem, "%.*s", (int)(strlen(k) - 6), k);
      nv = json_array();
      size_t i;
      json_t *e;
      json_array_foreach(v, i, e) {
        json_array_append_new(
            nv, float_width(elem) ? norm_float(elem, e) : json_deep_copy(e));
      }
    } else {
      nv = json_deep_copy(v);
    }
    json_object_set_new(o, k, nv);
  }
  return o;
}

typedef struct {
  json_t *ab, *ba; /* anchor name bijection */
  char path[512];
  size_t plen;
  char *why;
  int subset;    /* readers checks: "got" may have more struct fields */
  int in_fields; /* the objects being compared are struct "fields" */
} cmp;

static void path_push(cmp *c, const char *f, ...)
    __attribute__((format(printf, 2, 3)));
static void path_push(cmp *c, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  if (c->plen < sizeof c->path) {
    int n = vsnprintf(c->path + c->plen, sizeof c->path - c->plen, f, ap);
    if (n > 0) c->plen += (size_t)n;
    if (c->plen >= sizeof c->path) c->plen = sizeof c->path - 1;
  }
  va_end(ap);
}

static int differ(cmp *c, const json_t *want, const json_t *got,
                  const char *what) {
  char *w = cf_dump_short(want, 160), *g = cf_dump_short(got, 160);
  c->path[c->plen] = 0;
  c->why = what ? cf_fmt("at %s: %s", c->path, what)
                : cf_fmt("at %s: expected %s, got %s", c->path, w, g);
  free(w);
  free(g);
  return 0;
}

static int same_name(cmp *c, const char *a, const char *b) {
  const json_t *x = json_object_get(c->ab, a), *y = json_object_get(c->ba, b);
  if (!x && !y) {
    json_object_set_new(c->ab, a, json_string(b));
    json_object_set_new(c->ba, b, json_string(a));
    return 1;
  }
  return x && y && !strcmp(json_string_value(x), b) &&
         !strcmp(json_string_value(y), a);
}

/* The fields both structs have come in the same order: the notation lists
 * struct fields in wire order (spec/notation.md N-4, "Equality"). */
static int fields_in_order(cmp *c, const json_t *a, const json_t *b) {
  void *ia = json_object_iter((json_t *)a), *ib = json_object_iter((json_t *)b);
  for (;;) {
    while (ia && !json_object_get(b, json_object_iter_key(ia)))
      ia = json_object_iter_next((json_t *)a, ia);
    while (ib && !json_object_get(a, json_object_iter_key(ib)))
      ib = json_object_iter_next((json_t *)b, ib);
    if (!ia || !ib) return 1;
    const char *ka = json_object_iter_key(ia), *kb = json_object_iter_key(ib);
    if (strcmp(ka, kb) != 0) {
      c->path[c->plen] = 0;
      c->why = cf_fmt("at %s: field \"%s\" where \"%s\" was expected: struct "
                      "fields are listed in wire order (spec/notation.md N-4)",
                      c->path, kb, ka);
      return 0;
    }
    ia = json_object_iter_next((json_t *)a, ia);
    ib = json_object_iter_next((json_t *)b, ib);
  }
}

static int eq(cmp *c, const json_t *a, const json_t *b) {
  if (json_typeof(a) != json_typeof(b) &&
      !(json_is_boolean(a) && json_is_boolean(b)))
    return differ(c, a, b, NULL);
  size_t mark = c->plen;
  int is_fields = c->in_fields;
  int extra_ok = c->subset && is_fields;
  c->in_fields = 0;
  if (json_is_object(a)) {
    const char *k;
    json_t *v;
    if (is_fields && !fields_in_order(c, a, b)) return 0;
    json_object_foreach((json_t *)a, k, v) {
      if (!json_object_get(b, k)) {
        c->path[c->plen] = 0;
        char *w = cf_dump_short(a, 160), *g = cf_dump_short(b, 160);
        c->why = cf_fmt("at %s: key \"%s\" missing; expected %s, got %s",
                     c->path, k, w, g);
        free(w);
        free(g);
        return 0;
      }
    }
    json_object_foreach((json_t *)b, k, v) {
      if (!extra_ok && !json_object_get(a, k)) {
        c->path[c->plen] = 0;
        char *w = cf_dump_short(a, 160), *g = cf_dump_short(b, 160);
        c->why = cf_fmt("at %s: unexpected key \"%s\"; expected %s, got %s",
                     c->path, k, w, g);
        free(w);
        free(g);
        return 0;
      }
    }
    json_object_foreach((json_t *)a, k, v) {
      json_t *w = json_object_get(b, k);
      path_push(c, ".%s", k);
      int ok;
      if ((!strcmp(k, "anchor") || !strcmp(k, "ref")) && json_is_string(v) &&
          json_is_string(w)) {
        ok = same_name(c, json_string_value(v), json_string_value(w));
        if (!ok) differ(c, v, w, "anchors do not match (shared structure differs)");
      } else {
        c->in_fields = !strcmp(k, "fields") && json_is_object(v);
        ok = eq(c, v, w);
      }
      c->plen = mark;
      if (!ok) return 0;
    }
    return 1;
  }
  if (json_is_array(a)) {
    if (json_array_size(a) != json_array_size(b)) {
      char *m = cf_fmt("%zu items, expected %zu", json_array_size(b),
                    json_array_size(a));
      differ(c, a, b, NULL);
      char *full = cf_fmt("%s (%s)", c->why, m);
      free(c->why);
      free(m);
      c->why = full;
      return 0;
    }
    for (size_t i = 0; i < json_array_size(a); i++) {
      path_push(c, "[%zu]", i);
      int ok = eq(c, json_array_get(a, i), json_array_get(b, i));
      c->plen = mark;
      if (!ok) return 0;
    }
    return 1;
  }
  if (!json_equal((json_t *)a, (json_t *)b)) return differ(c, a, b, NULL);
  return 1;
}

/* NULL if the decoded roots `got` equal the expected roots `want`, else a
 * description of the first difference. */
char *cf_compare_roots_ex(const json_t *want, const json_t *got,
                              int subset) {
  if (!json_is_array(got)) return cf_xstrdup("the response has no \"values\" array");
  if (!json_is_array(want)) return cf_xstrdup("the test has no \"values\" array");
  if (json_array_size(want) != json_array_size(got))
    return cf_fmt("%zu root values, expected %zu", json_array_size(got),
               json_array_size(want));
  for (size_t i = 0; i < json_array_size(want); i++) {
    const json_t *a = json_array_get(want, i), *b = json_array_get(got, i);
    json_t *ra = json_object(), *rb = json_object();
    collect_refs(a, ra);
    collect_refs(b, rb);
    json_t *na = norm_node(a, ra), *nb = norm_node(b, rb);
    cmp c = {json_object(), json_object(), "", 0, NULL, subset, 0};
    path_push(&c, "values[%zu]", i);
    int ok = eq(&c, na, nb);
    json_decref(c.ab);
    json_decref(c.ba);
    json_decref(na);
    json_decref(nb);
    json_decref(ra);
    json_decref(rb);
    if (!ok) return c.why;
  }
  return NULL;
}

char *cf_compare_roots(const json_t *want, const json_t *got) {
  return cf_compare_roots_ex(want, got, 0);
}
