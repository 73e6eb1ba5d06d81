/* conform_tests.c - runs one fixture file: the valid, invalid and reader checks of
 * each test (conformance/PROTOCOL.md), and finds the fixture files. */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "conform_run.h"

static char *decode_check(runner *r, const json_t *base, const char *hex,
                          const json_t *want, const char *what) {
  char *err = NULL;
  json_t *arg = json_string(hex);
  json_t *resp = cf_request(r, base, "decode", "hex", arg, &err);
  json_decref(arg);
  if (!resp) {
    char *m = cf_fmt("%s: %s", what, err);
    free(err);
    return m;
  }
  json_t *got = cf_success(r, resp, "values", what, &err);
  if (got) {
    char *d = cf_compare_roots(want, got);
    if (d) {
      err = cf_fmt("%s: values differ %s", what, d);
      free(d);
    }
  }
  json_decref(resp);
  return err;
}

static json_t *request_base(runner *r, const json_t *t);
static json_t *alt_base(const json_t *base, const json_t *a);
static int same_buffers(const json_t *got, const json_t *want);

/* The "readers" checks of a valid test (fixtures/schema.json): decode
 * "bytes" with the reader's schemas and "project": the projected root
 * structs must have the expected fields (more fields are defaults the
 * decoder may add), or the decode must fail with the expected class. */
static char *run_readers(runner *r, const json_t *t, const json_t *base,
                         const char *bytes) {
  const json_t *readers = json_object_get(t, "readers");
  for (size_t i = 0; i < json_array_size(readers); i++) {
    const json_t *rd = json_array_get(readers, i);
    const json_t *want = json_object_get(rd, "values");
    const char *cls = json_string_value(json_object_get(rd, "error"));
    if (!json_is_array(json_object_get(rd, "schemas")) || (!want && !cls))
      return cf_fmt("malformed test: reader %zu needs \"schemas\" and "
                 "\"values\" or \"error\"", i);
    json_t *rt = json_pack("{s:O,s:O}", "config", json_object_get(base, "config"),
                           "schemas", json_object_get(rd, "schemas"));
    json_t *rbase = request_base(r, rt);
    json_decref(rt);
    json_object_set_new(rbase, "project", json_true());
    char *err = NULL, *what = cf_fmt("reader %zu", i);
    json_t *arg = json_string(bytes);
    json_t *resp = cf_request(r, rbase, "decode", "hex", arg, &err);
    json_decref(arg);
    json_decref(rbase);
    if (!resp) {
      char *m = cf_fmt("%s: %s", what, err);
      free(err);
      free(what);
      return m;
    }
    if (cls) {
      const char *got = json_string_value(json_object_get(resp, "class"));
      if (json_is_true(json_object_get(resp, "ok"))) {
        char *v = cf_dump_short(json_object_get(resp, "values"), 200);
        err = cf_fmt("%s: decoded without error, expected class %s: %s", what,
                  cls, v);
        free(v);
      } else if (!got || (strcmp(got, cls) != 0 &&
                          !(r->any_class && strcmp(got, "unsupported") != 0))) {
        const char *msg = json_string_value(json_object_get(resp, "message"));
        char *m = cf_oneline(msg ? msg : "", 200);
        if (got && !strcmp(got, "unsupported")) r->saw_unsupported = 1;
        err = cf_fmt("%s: class %s, expected %s: %s", what, got ? got : "?", cls,
                  m);
        free(m);
      }
    } else {
      json_t *got = cf_success(r, resp, "values", what, &err);
      if (got) {
        char *d = cf_compare_roots_ex(want, got, 1);
        if (d) {
          err = cf_fmt("%s: values differ %s", what, d);
          free(d);
        }
      }
    }
    json_decref(resp);
    free(what);
    if (err) return err;
  }
  return NULL;
}

static char *run_valid(runner *r, const json_t *t, const json_t *base) {
  const char *bytes = json_string_value(json_object_get(t, "bytes"));
  const json_t *values = json_object_get(t, "values");
  const json_t *alts = json_object_get(t, "alternatives");
  if (!bytes || !json_is_array(values))
    return cf_xstrdup("malformed test: needs \"bytes\" and \"values\"");
  char *err = decode_check(r, base, bytes, values, "decode");
  if (err) return err;
  for (size_t i = 0; i < json_array_size(alts); i++) {
    const json_t *a = json_array_get(alts, i);
    const char *ab = json_string_value(json_object_get(a, "bytes"));
    if (!ab) return cf_fmt("malformed test: alternative %zu has no bytes", i);
    char *w = cf_dump_short(json_object_get(a, "writers"), 60);
    char *what = cf_fmt("decode of alternative %zu (writers %s)", i, w);
    free(w);
    json_t *abase = alt_base(base, a);
    err = decode_check(r, abase, ab, values, what);
    json_decref(abase);
    free(what);
    if (err) return err;
  }
  err = run_readers(r, t, base, bytes);
  if (err) return err;
  json_t *resp = cf_request(r, base, "encode", "values", (json_t *)values, &err);
  if (!resp) {
    char *m = cf_fmt("encode: %s", err);
    free(err);
    return m;
  }
  const char *got = json_string_value(cf_success(r, resp, "hex", "encode", &err));
  const json_t *got_bufs = json_object_get(resp, "buffers");
  if (got && cf_streq_hex(got, bytes) &&
      !same_buffers(got_bufs, json_object_get(t, "buffers"))) {
    char *g = cf_dump_short(got_bufs, 240);
    err = cf_fmt("encode: the payload is right, its out-of-band buffers are "
                 "%s", g);
    free(g);
  } else if (got && !cf_streq_hex(got, bytes)) {
    int alt_ok = 0;
    for (size_t i = 0; !r->strict && i < json_array_size(alts); i++) {
      const json_t *a = json_array_get(alts, i);
      const char *ab = json_string_value(json_object_get(a, "bytes"));
      if (ab && cf_streq_hex(got, ab) &&
          same_buffers(got_bufs, json_object_get(a, "buffers")))
        alt_ok = 1;
    }
    if (!alt_ok) {
      char *g = cf_oneline(got, 240), *b = cf_oneline(bytes, 240);
      err = cf_fmt("encode: bytes differ at offset %zu: got %s, expected %s%s",
                cf_hex_diff_at(got, bytes), g, b,
                !r->strict && json_array_size(alts)
                    ? " (or an alternative)"
                    : "");
      free(g);
      free(b);
    }
  }
  json_decref(resp);
  return err;
}

static char *run_invalid(runner *r, const json_t *t, const json_t *base) {
  const char *bytes = json_string_value(json_object_get(t, "bytes"));
  const char *want = json_string_value(json_object_get(t, "error"));
  if (!bytes || !want)
    return cf_xstrdup("malformed test: needs \"bytes\" and \"error\"");
  char *err = NULL;
  json_t *arg = json_string(bytes);
  json_t *resp = cf_request(r, base, "decode", "hex", arg, &err);
  json_decref(arg);
  if (!resp) {
    char *m = cf_fmt("decode: %s", err);
    free(err);
    return m;
  }
  if (json_is_true(json_object_get(resp, "ok"))) {
    char *v = cf_dump_short(json_object_get(resp, "values"), 200);
    r->saw_accepted = 1;
    err = cf_fmt("decoded without error, expected class %s: %s", want, v);
    free(v);
  } else {
    const char *cls = json_string_value(json_object_get(resp, "class"));
    if (!cls) cls = "?";
    /* --any-error-class: any rejection passes, except "unsupported" (the
     * testee cannot serve the request) where another class is expected */
    int lenient = r->any_class && (strcmp(cls, "unsupported") != 0 ||
                                   strcmp(want, "unsupported") == 0);
    const json_t *want_off = json_object_get(t, "offset");
    const json_t *got_off = json_object_get(resp, "offset");
    if (strcmp(cls, want) != 0 && !lenient) {
      if (!strcmp(cls, "unsupported")) r->saw_unsupported = 1;
      const char *msg = json_string_value(json_object_get(resp, "message"));
      char *m = cf_oneline(msg ? msg : "", 200);
      err = cf_fmt("class %s, expected %s: %s", cls, want, m);
      free(m);
    } else if (!strcmp(cls, want) && json_is_integer(want_off) &&
               json_is_integer(got_off) &&
               json_integer_value(want_off) != json_integer_value(got_off)) {
      /* R-ERR-3: checked for testees whose failures carry an offset */
      const char *msg = json_string_value(json_object_get(resp, "message"));
      char *m = cf_oneline(msg ? msg : "", 200);
      err = cf_fmt("class %s at byte %lld, expected byte %lld (R-ERR-3): %s",
                   cls, (long long)json_integer_value(got_off),
                   (long long)json_integer_value(want_off), m);
      free(m);
    }
  }
  json_decref(resp);
  return err;
}

/* The tags of the test (every tag is a feature the testee must claim; a
 * test with schemas also needs "schema") that the testee does not claim, as
 * "a, b"; NULL if it claims them all. */
static char *missing_caps(runner *r, const json_t *t) {
  char buf[512] = "";
  size_t w = 0;
  const json_t *tags = json_object_get(t, "tags");
  const json_t *schemas = json_object_get(t, "schemas");
  json_t *need = json_array();
  size_t i;
  json_t *tag;
  json_array_foreach((json_t *)tags, i, tag) {
    const char *s = json_string_value(tag);
    if (s) json_array_append(need, tag);
  }
  if (json_array_size(schemas)) json_array_append_new(need, json_string("schema"));
  if (json_array_size(json_object_get(t, "readers")))
    json_array_append_new(need, json_string("evolution"));
  json_t *seen = json_object();
  json_array_foreach(need, i, tag) {
    const char *s = json_string_value(tag);
    if (json_object_get(r->caps, s) || json_object_get(seen, s)) continue;
    json_object_set_new(seen, s, json_true());
    int n = snprintf(buf + w, sizeof buf - w, "%s%s", w ? ", " : "", s);
    if (n > 0 && (size_t)n < sizeof buf - w) w += (size_t)n;
  }
  json_decref(seen);
  json_decref(need);
  return w ? cf_xstrdup(buf) : NULL;
}

/* The request fields every call of a test shares: config and schemas
 * (absolute paths). */
static json_t *request_base(runner *r, const json_t *t) {
  json_t *base = json_object();
  const json_t *config = json_object_get(t, "config");
  json_object_set_new(base, "config",
                      json_is_object(config) ? json_deep_copy(config)
                                              : json_object());
  json_t *abs = json_array();
  size_t i;
  json_t *s;
  json_array_foreach(json_object_get(t, "schemas"), i, s) {
    const char *p = json_string_value(s);
    if (!p) continue;
    if (p[0] == '/') {
      json_array_append(abs, s);
    } else {
      char *full = cf_fmt("%s/%s", r->root, p);
      json_array_append_new(abs, json_string(full));
      free(full);
    }
  }
  json_object_set_new(base, "schemas", abs);
  /* out-of-band buffers of "bytes" (spec R-OOB-1): sent with every
   * decode of the test */
  const json_t *bufs = json_object_get(t, "buffers");
  if (json_array_size(bufs)) json_object_set(base, "buffers", (json_t *)bufs);
  return base;
}

/* The base of a decode of alternative `a`: its own buffers, if any. */
static json_t *alt_base(const json_t *base, const json_t *a) {
  json_t *b = json_deep_copy(base);
  json_object_del(b, "buffers");
  const json_t *bufs = json_object_get(a, "buffers");
  if (json_array_size(bufs)) json_object_set(b, "buffers", (json_t *)bufs);
  return b;
}

/* Whether an encode response's "buffers" are the expected ones (absent
 * and empty are the same). */
static int same_buffers(const json_t *got, const json_t *want) {
  size_t n = json_array_size(got);
  if (n != json_array_size(want)) return 0;
  for (size_t i = 0; i < n; i++) {
    const char *g = json_string_value(json_array_get(got, i));
    const char *w = json_string_value(json_array_get(want, i));
    if (!g || !w || !cf_streq_hex(g, w)) return 0;
  }
  return 1;
}

void cf_add_result(runner *r, const char *id, const char *file,
                       const char *area, int status, char *msg) {
  if (r->nres == r->capres) {
    r->capres = r->capres * 2 + 64;
    r->res = realloc(r->res, r->capres * sizeof *r->res);
  }
  result *x = &r->res[r->nres++];
  x->id = cf_xstrdup(id);
  x->file = cf_xstrdup(file);
  x->area = cf_xstrdup(area);
  x->status = status;
  x->msg = msg;
  x->unsupported = status == R_FAIL && r->saw_unsupported;
  const char *ecls = json_string_value(json_object_get(r->cur, "error"));
  x->error = ecls ? cf_xstrdup(ecls) : NULL;
  x->accepted = r->saw_accepted;
  x->rules = NULL;
  const json_t *rules = json_object_get(r->cur, "rules");
  if (json_array_size(rules)) {
    size_t len = 1;
    for (size_t i = 0; i < json_array_size(rules); i++)
      if (json_string_value(json_array_get(rules, i)))
        len += strlen(json_string_value(json_array_get(rules, i))) + 1;
    x->rules = calloc(1, len);
    for (size_t i = 0; i < json_array_size(rules); i++) {
      const char *rid = json_string_value(json_array_get(rules, i));
      if (!rid) continue;
      if (*x->rules) strcat(x->rules, " ");
      strcat(x->rules, rid);
    }
  }
  r->saw_unsupported = 0;
  r->saw_accepted = 0;
  static const char *const label[] = {"ok", "FAIL", "xfail", "XPASS",
                                      "not claimed"};
  if (r->verbose || status == R_FAIL || status == R_XPASS) {
    printf("%-11s %s [%s]%s%s\n", label[status], id, area, msg ? ": " : "",
           msg ? msg : "");
    fflush(stdout);
  }
}

static void run_test(runner *r, const json_t *t, int invalid,
                     const char *file, const char *area, size_t index) {
  const char *tid = json_string_value(json_object_get(t, "id"));
  char *fallback = NULL;
  r->cur = json_is_object(t) ? t : NULL;
  r->saw_accepted = 0;
  if (!tid) tid = fallback = cf_fmt("%s#%zu", file, index);
  if (r->only && !strstr(tid, r->only) && !strstr(area, r->only)) {
    free(fallback);
    return;
  }
  if (json_object_get(r->ids, tid))
    fprintf(stderr, "wire conform: duplicate test id %s (%s)\n", tid, file);
  json_object_set_new(r->ids, tid, json_true());
  char *missing = json_is_object(t) ? missing_caps(r, t) : NULL;
  if (missing) {
    cf_add_result(r, tid, file, area, R_NOTCLAIMED, cf_fmt("needs %s", missing));
    free(missing);
    free(fallback);
    return;
  }
  char *err;
  r->saw_unsupported = 0;
  if (!json_is_object(t)) {
    err = cf_xstrdup("malformed test: not an object");
  } else {
    json_t *base = request_base(r, t);
    err = invalid ? run_invalid(r, t, base) : run_valid(r, t, base);
    json_decref(base);
  }
  const json_t *reason = json_object_get(r->xfail, tid);
  if (reason) json_object_set_new(r->xfail_seen, tid, json_true());
  const char *rs = json_string_value(reason);
  if (err && reason) {
    char *m = cf_fmt("%s (got: %s)", rs ? rs : "expected failure", err);
    free(err);
    cf_add_result(r, tid, file, area, R_XFAIL, m);
  } else if (err) {
    cf_add_result(r, tid, file, area, R_FAIL, err);
  } else if (reason) {
    cf_add_result(r, tid, file, area, R_XPASS,
               cf_fmt("passed, but the expected-failures list has it (%s): "
                   "remove it from the list",
                   rs ? rs : ""));
  } else {
    cf_add_result(r, tid, file, area, R_PASS, NULL);
  }
  free(fallback);
}

static void strvec_push(strvec *s, char *p) {
  if (s->n == s->cap) {
    s->cap = s->cap * 2 + 16;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = p;
}

int cf_cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.json under dir/rel (paths relative to dir). */
void cf_find_json(const char *dir, const char *rel, strvec *out) {
  char *full = cf_fmt("%s/%s", dir, rel);
  DIR *d = opendir(full);
  free(full);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char *p = cf_fmt("%s/%s", rel, e->d_name);
    char *fp = cf_fmt("%s/%s", dir, p);
    struct stat st;
    if (stat(fp, &st) == 0 && S_ISDIR(st.st_mode)) {
      cf_find_json(dir, p, out);
      free(p);
    } else {
      size_t n = strlen(p);
      if (n > 5 && !strcmp(p + n - 5, ".json")) strvec_push(out, p);
      else free(p);
    }
    free(fp);
  }
  closedir(d);
}

void cf_run_file(runner *r, const char *rel) {
  r->cur = NULL;
  int invalid = !strncmp(rel, "invalid/", 8);
  json_error_t jerr = {0};
  char *why = NULL;
  size_t len = 0;
  unsigned char *text = cf_fixture_read(r, rel, &len, &why);
  json_t *f = text ? json_loadb((const char *)text, len, JSON_ALLOW_NUL, &jerr)
                   : NULL;
  free(text);
  /* area: the file's "area", else its directory below valid/ or invalid/ */
  const char *sub = strchr(rel, '/') + 1;
  const char *slash = strchr(sub, '/');
  char *dir_area = slash ? cf_fmt("%.*s", (int)(slash - sub), sub) : cf_xstrdup("-");
  const char *area = json_string_value(json_object_get(f, "area"));
  char *key = cf_fmt("%s/%s", invalid ? "invalid" : "valid", area ? area : dir_area);
  const char *format = json_string_value(json_object_get(f, "format"));
  const json_t *tests = json_object_get(f, "tests");
  if (!f || !format || strcmp(format, "libwire-fixtures/1") != 0 ||
      !json_is_array(tests)) {
    char *m = why ? why
            : !f ? cf_fmt("cannot load: line %d: %s", jerr.line, jerr.text)
                 : cf_xstrdup("not a libwire-fixtures/1 file with \"tests\"");
    cf_add_result(r, rel, rel, key, R_FAIL, m);
  } else {
    for (size_t i = 0; i < json_array_size(tests); i++)
      run_test(r, json_array_get(tests, i), invalid, rel, key, i);
  }
  json_decref(f);
  free(key);
  free(dir_area);
}

