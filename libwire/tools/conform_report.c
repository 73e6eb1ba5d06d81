/* conform_report.c - per-area counts of a conformance run, their text
 * table and their Markdown section (conformance/RESULTS.md). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conform_run.h"

/* Length of the table row key of an area: "valid/" or "invalid/" and the
 * area's first segment ("valid/structs/test_item" counts under
 * "valid/structs"). */
static size_t group_len(const char *area) {
  const char *a = strchr(area, '/');
  const char *b = a ? strchr(a + 1, '/') : NULL;
  return b ? (size_t)(b - area) : strlen(area);
}

int cf_in_group(const char *area, const char *group) {
  size_t n = group_len(area);
  return strlen(group) == n && !strncmp(area, group, n);
}

/* Per-row counts in order of first appearance; the last entry is the
 * total (area NULL). *count excludes the total. Free with free_stats. */
area_stat *cf_stats(const runner *r, size_t *count) {
  area_stat *s = calloc(r->nres + 1, sizeof *s);
  size_t n = 0;
  for (size_t i = 0; i < r->nres; i++) {
    size_t k = 0;
    while (k < n && !cf_in_group(r->res[i].area, s[k].area)) k++;
    if (k == n)
      s[n++].area = cf_fmt("%.*s", (int)group_len(r->res[i].area),
                        r->res[i].area);
    s[k].n[r->res[i].status]++;
    s[k].unsupported += r->res[i].unsupported;
  }
  area_stat tot = {NULL, {0}, 0};
  for (size_t k = 0; k < n; k++) {
    for (int j = 0; j < 5; j++) tot.n[j] += s[k].n[j];
    tot.unsupported += s[k].unsupported;
  }
  s[n] = tot;
  *count = n;
  return s;
}

void cf_free_stats(area_stat *s, size_t n) {
  for (size_t k = 0; k < n; k++) free(s[k].area);
  free(s);
}

#define FAILED(s) ((s).n[R_FAIL] + (s).n[R_XPASS])
#define SKIPPED(s) ((s).n[R_XFAIL] + (s).n[R_NOTCLAIMED])
#define TOTAL(s) ((s).n[0] + (s).n[1] + (s).n[2] + (s).n[3] + (s).n[4])

const char *cf_hello_str(const json_t *hello, const char *key) {
  const char *s = json_string_value(json_object_get(hello, key));
  return s ? s : "?";
}

void cf_print_table(const runner *r, const area_stat *s, size_t n) {
  size_t w = 5;
  for (size_t k = 0; k < n; k++)
    if (strlen(s[k].area) > w) w = strlen(s[k].area);
  printf("\n%-*s  %6s  %6s  %11s  %11s  %6s  %7s\n", (int)w, "area",
         "passed", "failed", "unsupported", "not claimed", "xfail", "skipped");
  for (size_t k = 0; k <= n; k++) {
    const area_stat *a = &s[k];
    printf("%-*s  %6d  %6d  %11d  %11d  %6d  %7d\n", (int)w,
           a->area ? a->area : "total", a->n[R_PASS], FAILED(*a),
           a->unsupported, a->n[R_NOTCLAIMED], a->n[R_XFAIL], SKIPPED(*a));
  }
  printf("(skipped = not claimed by the testee + expected failures (xfail); "
         "failed includes unexpected passes and the tests the testee "
         "answered \"unsupported\")\n");
  const json_t *h = r->hello;
  printf("testee: %s %s%s\n",
         cf_hello_str(h, "name"),
         cf_hello_str(h, "version"),
         r->inproc ? " (in-process)" : "");
  if (!r->caps_sent)
    printf("the testee's hello lists no capabilities: assumed the built-in "
           "set (no schema, compatible, union, ext, named_types, typedef)\n");
}

static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|' || *s == '`' || *s == '<' || *s == '*' || *s == '_')
      fputc('\\', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
}

int cf_write_md(const runner *r, const area_stat *s, size_t n) {
  FILE *f = fopen(r->results_md, "w");
  if (!f) {
    fprintf(stderr, "wire conform: cannot write %s: %s\n", r->results_md,
            strerror(errno));
    return -1;
  }
  const json_t *h = r->hello;
  const char *name = cf_hello_str(h, "name");
  const char *ver = cf_hello_str(h, "version");
  const char *rt = json_string_value(json_object_get(h, "runtime"));
  fprintf(f, "## %s %s\n\n", name, ver);
  if (rt && strcmp(rt, name)) fprintf(f, "Runtime: %s. ", rt);
  if (r->inproc) fprintf(f, "Run in-process by `wire conform`.");
  else fprintf(f, "Testee: `%s`.", r->cmd);
  if (r->any_class)
    fprintf(f, " Invalid inputs pass when decoding fails with any error "
               "class (`--any-error-class`).");
  fprintf(f, "\n\nClaimed capabilities: ");
  const char *k;
  json_t *v;
  int first = 1;
  json_object_foreach(r->caps, k, v) {
    fprintf(f, "%s%s", first ? "" : ", ", k);
    first = 0;
  }
  if (!r->caps_sent) fprintf(f, " (its hello lists none; the runner's default "
                             "set of built-in types)");
  fprintf(f, ".\n\n| area | passed | failed | of which unsupported | not "
             "claimed | expected failures | total |\n"
             "|---|---:|---:|---:|---:|---:|---:|\n");
  for (size_t i = 0; i <= n; i++) {
    const area_stat *a = &s[i];
    fprintf(f, a->area ? "| %s | %d | %d | %d | %d | %d | %d |\n"
                       : "| **%s** | **%d** | **%d** | **%d** | **%d** | "
                         "**%d** | **%d** |\n",
            a->area ? a->area : "total", a->n[R_PASS], FAILED(*a),
            a->unsupported, a->n[R_NOTCLAIMED], a->n[R_XFAIL], TOTAL(*a));
  }
  const area_stat *t = &s[n];
  fprintf(f, "\n%d passed, %d failed, %d skipped (not claimed + expected "
             "failures).\n", t->n[R_PASS], FAILED(*t), SKIPPED(*t));
  int nf = FAILED(*t), shown = 0;
  if (nf) {
    fprintf(f, "\n<details><summary>%d failures</summary>\n\n", nf);
    /* user-type disagreements (valid/structs) all, first; then the first
     * 100 others */
    for (int pass = 0; pass < 2; pass++) {
      int others = 0;
      for (size_t i = 0; i < r->nres; i++) {
        const result *x = &r->res[i];
        if (x->status != R_FAIL && x->status != R_XPASS) continue;
        int structs = !strncmp(x->area, "valid/structs", 13);
        if (structs != (pass == 0)) continue;
        if (!structs && others++ >= 100) break;
        char *m = cf_oneline(x->msg ? x->msg : "", 240);
        fprintf(f, "- `%s` (%s", x->id, x->area);
        if (x->rules && structs) {
          /* a user-type disagreement: the rules the test pins */
          char *rl = cf_oneline(x->rules, 120);
          fprintf(f, "; rules %s", rl);
          free(rl);
        }
        fprintf(f, "): ");
        md_text(f, m);
        fputc('\n', f);
        free(m);
        shown++;
      }
    }
    if (shown < nf) fprintf(f, "- ... and %d more\n", nf - shown);
    fprintf(f, "\n</details>\n");
  }
  return fclose(f) ? -1 : 0;
}

int cf_write_json(const runner *r, const area_stat *s, size_t n) {
  json_t *areas = json_object(), *acc = json_object(), *inv = json_object();
  for (size_t i = 0; i <= n; i++) {
    const area_stat *a = &s[i];
    json_object_set_new(
        areas, a->area ? a->area : "total",
        json_pack("{s:i,s:i,s:i,s:i,s:i,s:i}", "passed", a->n[R_PASS],
                  "failed", FAILED(*a), "unsupported", a->unsupported,
                  "not_claimed", a->n[R_NOTCLAIMED], "xfail", a->n[R_XFAIL],
                  "total", TOTAL(*a)));
  }
  for (size_t i = 0; i < r->nres; i++) {
    const result *x = &r->res[i];
    if (!x->error || x->status == R_NOTCLAIMED) continue;
    json_t *c = json_object_get(inv, x->error);
    json_object_set_new(inv, x->error,
                        json_integer(c ? json_integer_value(c) + 1 : 1));
    if (!x->accepted) continue;
    json_t *ids = json_object_get(acc, x->error);
    if (!ids) {
      ids = json_array();
      json_object_set_new(acc, x->error, ids);
    }
    json_array_append_new(ids, json_string(x->id));
  }
  json_t *doc = json_pack("{s:s,s:s,s:O,s:o,s:o,s:o}", "name",
                          cf_hello_str(r->hello, "name"), "version",
                          cf_hello_str(r->hello, "version"), "capabilities",
                          r->caps, "areas", areas, "invalid_run", inv,
                          "accepted_invalid", acc);
  int rc = json_dump_file(doc, r->results_json, JSON_INDENT(1) | JSON_SORT_KEYS);
  json_decref(doc);
  if (rc)
    fprintf(stderr, "wire conform: cannot write %s: %s\n", r->results_json,
            strerror(errno));
  return rc ? -1 : 0;
}
