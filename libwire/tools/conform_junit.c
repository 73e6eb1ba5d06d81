/* conform_junit.c - the JUnit XML report of a conformance run. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "conform_run.h"

static void xml_text(FILE *f, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '<') fputs("&lt;", f);
    else if (c == '>') fputs("&gt;", f);
    else if (c == '&') fputs("&amp;", f);
    else if (c == '"') fputs("&quot;", f);
    else if (c == '\n') fputs("&#10;", f);
    else if (c < 0x20 && c != '\t') fputc('?', f);
    else fputc(c, f);
  }
}

int cf_write_junit(const runner *r, const area_stat *s, size_t n) {
  FILE *f = fopen(r->junit, "w");
  if (!f) {
    fprintf(stderr, "wire conform: cannot write %s: %s\n", r->junit,
            strerror(errno));
    return -1;
  }
  const area_stat *t = &s[n];
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f, "<testsuites name=\"wire conform: ");
  xml_text(f, cf_hello_str(r->hello, "name"));
  fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
          TOTAL(*t), FAILED(*t), SKIPPED(*t));
  for (size_t k = 0; k < n; k++) {
    fprintf(f, "  <testsuite name=\"");
    xml_text(f, s[k].area);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
            TOTAL(s[k]), FAILED(s[k]), SKIPPED(s[k]));
    for (size_t i = 0; i < r->nres; i++) {
      const result *x = &r->res[i];
      if (!cf_in_group(x->area, s[k].area)) continue;
      fprintf(f, "    <testcase classname=\"");
      xml_text(f, x->area);
      fprintf(f, "\" name=\"");
      xml_text(f, x->id);
      fprintf(f, "\" file=\"");
      /* the fixture path relative to the root when DIR is below it */
      size_t rl = strlen(r->root);
      if (!strncmp(r->dir, r->root, rl) && r->dir[rl] == '/') {
        xml_text(f, r->dir + rl + 1);
        fputc('/', f);
      } else if (strcmp(r->dir, r->root)) {
        xml_text(f, r->dir);
        fputc('/', f);
      }
      xml_text(f, x->file);
      if (x->status == R_PASS) {
        fprintf(f, "\"/>\n");
        continue;
      }
      fprintf(f, "\">\n");
      const char *m = x->msg ? x->msg : "";
      if (x->status == R_FAIL || x->status == R_XPASS) {
        fprintf(f, "      <failure type=\"%s\" message=\"",
                x->status == R_FAIL ? "failure" : "unexpected_pass");
        xml_text(f, m);
        fprintf(f, "\"/>\n");
      } else {
        fprintf(f, "      <skipped message=\"%s",
                x->status == R_XFAIL ? "expected failure: " : "not claimed: ");
        xml_text(f, m);
        fprintf(f, "\"/>\n");
      }
      fprintf(f, "    </testcase>\n");
    }
    fprintf(f, "  </testsuite>\n");
  }
  fprintf(f, "</testsuites>\n");
  return fclose(f) ? -1 : 0;
}
