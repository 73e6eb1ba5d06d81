/* conform.c - `wire conform`: runs the conformance fixtures
 * (every JSON file under fixtures/valid/ and fixtures/invalid/; see
 * fixtures/README.md) against libwire in-process or against any testee speaking
 * conformance/PROTOCOL.md, and reports per area.
 *
 * A valid test passes when the testee
 *   - decodes "bytes" to "values" (compared after the PROTOCOL.md
 *     normalization: wire-choice annotations dropped, anchors matched by
 *     first use; unreferenced anchors dropped, floats compared as bits),
 *   - decodes the bytes of every alternative to the same values, and
 *   - encodes "values" to "bytes" exactly (libwire), or to "bytes" or the
 *     bytes of one of the alternatives (any other testee).
 * A valid test with "readers" also needs every reader check to pass:
 * decoding "bytes" with the reader's schemas and "project" gives the
 * reader's values (struct fields compared as a subset: a decoder may add
 * defaults) or fails with the reader's error class; such a test needs the
 * capability "evolution".
 * An invalid test passes when decoding "bytes" fails with the class the
 * test's "error" names. A test needs every one of its tags (and "schema"
 * when it has schemas) among the capabilities of the testee's hello, else
 * it is "not claimed".
 */

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform.h"
#include "conform_run.h"

static const char conform_usage[] =
    "usage: wire conform [options] [DIR]\n"
    "Runs every test of DIR/valid and DIR/invalid (DIR default: fixtures)\n"
    "against libwire in-process, or against a testee (conformance/PROTOCOL.md).\n"
    "  --testee CMD           run the shell command CMD as the testee\n"
    "  --expect-failures FILE JSON list of {\"id\", \"reason\"}: known failures\n"
    "                         (skipped); a listed test that passes fails the run\n"
    "  --junit FILE           write JUnit XML\n"
    "  --results-md FILE      write a Markdown section (per-area table)\n"
    "  --results-json FILE    write the per-area counts and, per error class,\n"
    "                         the invalid inputs the testee accepted (JSON)\n"
    "  --root DIR             schema paths are relative to DIR (default: the\n"
    "                         parent directory of the fixtures directory)\n"
    "  --only TEXT            only tests whose id or area contains TEXT\n"
    "  --timeout SECONDS      per request (default 60)\n"
    "  --testee-log FILE      append the testee's stderr to FILE\n"
    "  --any-error-class      invalid tests pass on any decode failure (for\n"
    "                         testees that do not classify errors)\n"
    "  -v                     print every test\n"
    "Exit status: 0 if nothing failed, 1 if a test failed, 2 on usage or setup\n"
    "errors. The last line of the output is `N passed, N failed, N skipped`.\n";


/* ---------------------------------------------------------------------- */
/* Command                                                                 */
/* ---------------------------------------------------------------------- */

static int load_xfail(runner *r) {
  json_error_t jerr;
  json_t *j = json_load_file(r->xfail_file, 0, &jerr);
  if (!json_is_array(j)) {
    fprintf(stderr, "wire conform: %s: %s\n", r->xfail_file,
            j ? "not a JSON list of {\"id\", \"reason\"}" : jerr.text);
    json_decref(j);
    return -1;
  }
  size_t i;
  json_t *e;
  json_array_foreach(j, i, e) {
    const char *id = json_string_value(json_object_get(e, "id"));
    if (!id) {
      fprintf(stderr, "wire conform: %s: entry %zu has no \"id\"\n",
              r->xfail_file, i);
      json_decref(j);
      return -1;
    }
    json_t *reason = json_object_get(e, "reason");
    json_object_set_new(r->xfail, id,
                        json_is_string(reason) ? json_incref(reason)
                                               : json_string("expected failure"));
  }
  json_decref(j);
  return 0;
}

static void free_runner(runner *r) {
  for (size_t i = 0; i < r->nres; i++) {
    free(r->res[i].id);
    free(r->res[i].file);
    free(r->res[i].area);
    free(r->res[i].msg);
    free(r->res[i].error);
    free(r->res[i].rules);
  }
  free(r->res);
  free(r->buf);
  free(r->dir);
  free(r->root);
  json_decref(r->hello);
  json_decref(r->caps);
  json_decref(r->xfail);
  json_decref(r->xfail_seen);
  json_decref(r->ids);
  json_decref(r->manifest);
}

int cmd_conform(int argc, char **argv) {
  runner r = {0};
  r.timeout = 60;
  r.pid = -1;
  r.wfd = r.rfd = -1;
  const char *dir = NULL, *root = NULL;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char **val = NULL;
    if (!strcmp(a, "--testee")) val = &r.cmd;
    else if (!strcmp(a, "--junit")) val = &r.junit;
    else if (!strcmp(a, "--expect-failures")) val = &r.xfail_file;
    else if (!strcmp(a, "--results-md")) val = &r.results_md;
    else if (!strcmp(a, "--results-json")) val = &r.results_json;
    else if (!strcmp(a, "--root")) val = &root;
    else if (!strcmp(a, "--only")) val = &r.only;
    else if (!strcmp(a, "--testee-log")) val = &r.log;
    else if (!strcmp(a, "--timeout")) {
      if (i + 1 >= argc || (r.timeout = strtod(argv[++i], NULL)) <= 0) {
        fputs(conform_usage, stderr);
        return 2;
      }
      continue;
    } else if (!strcmp(a, "--any-error-class")) {
      r.any_class = 1;
      continue;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
      r.verbose = 1;
      continue;
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(conform_usage, stdout);
      return 0;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "error: arg at byte 0: unknown option %s\n%s", a,
              conform_usage);
      return 2;
    } else if (!dir) {
      dir = a;
      continue;
    } else {
      fputs(conform_usage, stderr);
      return 2;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "error: arg at byte 0: %s needs a value\n%s", a,
              conform_usage);
      return 2;
    }
    *val = argv[++i];
  }
  char path[PATH_MAX];
  if (!realpath(dir ? dir : "fixtures", path)) {
    fprintf(stderr, "error: io at byte 0: %s: %s\n", dir ? dir : "fixtures",
            strerror(errno));
    return 2;
  }
  r.dir = cf_xstrdup(path);
  if (root) {
    if (!realpath(root, path)) {
      fprintf(stderr, "error: io at byte 0: %s: %s\n", root, strerror(errno));
      free(r.dir);
      return 2;
    }
    r.root = cf_xstrdup(path);
  } else {
    char *up = cf_fmt("%s/..", r.dir);
    r.root = cf_xstrdup(realpath(up, path) ? path : r.dir);
    free(up);
  }
  r.xfail = json_object();
  r.xfail_seen = json_object();
  r.ids = json_object();
  int rc = 0;
  if (r.xfail_file && load_xfail(&r) < 0) {
    free_runner(&r);
    return 2;
  }
  if (r.cmd) {
    signal(SIGPIPE, SIG_IGN);
    if (cf_testee_start(&r) < 0) {
      free_runner(&r);
      return 2;
    }
  } else {
    r.inproc = 1;
    json_t *h = testee_hello();
    r.hello = json_incref(json_object_get(h, "hello"));
    cf_set_caps(&r, r.hello);
    json_decref(h);
  }

  strvec files = {0};
  cf_find_json(r.dir, "valid", &files);
  cf_find_json(r.dir, "invalid", &files);
  if (files.n) qsort(files.v, files.n, sizeof *files.v, cf_cmp_str);
  if (!files.n) {
    fprintf(stderr, "error: io at byte 0: no fixture files under %s/valid "
                    "or %s/invalid\n", r.dir, r.dir);
    free(files.v);
    cf_testee_stop(&r, 0);
    free_runner(&r);
    return 2;
  }
  r.manifest = cf_manifest_load(r.dir);
  if (!r.manifest)
    fprintf(stderr, "wire conform: no %s/MANIFEST.json: the fixture files "
                    "are not checked against their CRC-32s\n", r.dir);
  cf_manifest_missing(&r, &files);
  for (size_t i = 0; i < files.n; i++) {
    cf_run_file(&r, files.v[i]);
    free(files.v[i]);
  }
  free(files.v);
  cf_testee_stop(&r, 0);

  size_t n;
  area_stat *s = cf_stats(&r, &n);
  cf_print_table(&r, s, n);
  {
    const char *k;
    json_t *v;
    json_object_foreach(r.xfail, k, v) {
      if (!json_object_get(r.xfail_seen, k) && !json_object_get(r.ids, k))
        fprintf(stderr, "wire conform: the expected-failures list names %s, "
                        "which is not a test\n", k);
    }
  }
  if (r.junit && cf_write_junit(&r, s, n) < 0) rc = 2;
  if (r.results_md && cf_write_md(&r, s, n) < 0) rc = 2;
  if (r.results_json && cf_write_json(&r, s, n) < 0) rc = 2;
  const area_stat *t = &s[n];
  if (t->n[R_XFAIL]) printf("%d expected failures\n", t->n[R_XFAIL]);
  if (t->n[R_XPASS])
    printf("%d unexpected passes (listed in %s)\n", t->n[R_XPASS],
           r.xfail_file);
  printf("%d passed, %d failed, %d skipped\n", t->n[R_PASS], FAILED(*t),
         SKIPPED(*t));
  if (!rc && FAILED(*t)) rc = 1;
  cf_free_stats(s, n);
  free_runner(&r);
  return rc;
}
