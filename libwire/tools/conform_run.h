/* conform_run.h - the state and the internal functions of `wire conform`,
 * shared by its files, each with one job:
 *   conform.c          the command: options, expected failures, the run
 *   conform_tests.c    one fixture file: valid, invalid and reader checks
 *   conform_compare.c  value equality (normalization, comparison)
 *   conform_proto.c    the testee process and the line protocol
 *   conform_report.c   per-area counts, the text table, the Markdown section
 *   conform_junit.c    the JUnit XML report
 *   conform_manifest.c fixture integrity (MANIFEST.json CRC-32s)
 *   conform_util.c     string, hex and clock helpers */
#ifndef WIRE_CONFORM_RUN_H
#define WIRE_CONFORM_RUN_H

#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>


/* The outcome of one test. */
enum { R_PASS, R_FAIL, R_XFAIL, R_XPASS, R_NOTCLAIMED };

typedef struct {
  char *id, *file, *area, *msg;
  int status;
  int unsupported; /* failed: the testee answered class "unsupported" */
  char *error;     /* invalid tests: the expected error class, else NULL */
  int accepted;    /* invalid tests: the testee decoded the bytes */
  char *rules;     /* the test's rule ids, "R-A-1 R-B-2" (NULL: none) */
} result;

typedef struct {
  /* options */
  const char *cmd, *junit, *xfail_file, *results_md, *results_json, *only,
      *log;
  char *dir, *root;
  double timeout;
  int verbose, any_class;
  /* testee */
  int inproc;
  pid_t pid;
  int wfd, rfd;
  char *buf;
  size_t blen, bcap;
  json_t *hello;  /* the "hello" object */
  json_t *caps;   /* claimed tag -> true */
  int caps_sent;  /* the hello listed capabilities */
  int strict;     /* byte-exact encode required (libwire) */
  long next_id;
  int restarts;
  int saw_unsupported; /* a response of the current test had that class */
  int saw_accepted;    /* the current invalid test decoded without error */
  const json_t *cur;   /* the test being run (for its class and rules) */
  /* bookkeeping */
  json_t *xfail;      /* id -> reason */
  json_t *xfail_seen; /* id -> true */
  json_t *ids;        /* id -> true, to warn about duplicates */
  json_t *manifest;   /* MANIFEST.json: relative path -> CRC-32, or NULL */
  result *res;
  size_t nres, capres;
} runner;


typedef struct {
  char **v;
  size_t n, cap;
} strvec;

typedef struct {
  char *area;
  int n[5];
  int unsupported; /* failed tests the testee answered "unsupported" */
} area_stat;


#define FAILED(s) ((s).n[R_FAIL] + (s).n[R_XPASS])
#define SKIPPED(s) ((s).n[R_XFAIL] + (s).n[R_NOTCLAIMED])
#define TOTAL(s) ((s).n[0] + (s).n[1] + (s).n[2] + (s).n[3] + (s).n[4])

/* conform_util.c */
char *cf_xstrdup(const char *s);
char *cf_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
char *cf_oneline(const char *s, size_t max);
char *cf_dump_short(const json_t *j, size_t max);
double cf_now_s(void);
int cf_streq_hex(const char *a, const char *b);
size_t cf_hex_diff_at(const char *a, const char *b);

/* conform_compare.c: NULL if the decoded roots `got` equal `want`, else a
 * description of the first difference (malloc'd). `subset`: struct fields
 * of `got` may be a superset (reader checks). */
char *cf_compare_roots_ex(const json_t *want, const json_t *got, int subset);
char *cf_compare_roots(const json_t *want, const json_t *got);

/* conform_proto.c */
int cf_testee_start(runner *r);
void cf_testee_stop(runner *r, int force);
void cf_set_caps(runner *r, const json_t *hello);
json_t *cf_request(runner *r, const json_t *base, const char *op,
                   const char *key, json_t *arg, char **err);
json_t *cf_success(runner *r, json_t *resp, const char *key, const char *what,
                   char **err);

/* conform_tests.c */
void cf_find_json(const char *dir, const char *rel, strvec *out);
int cf_cmp_str(const void *a, const void *b);
void cf_run_file(runner *r, const char *rel);
void cf_add_result(runner *r, const char *id, const char *file,
                   const char *area, int status, char *msg);

/* conform_manifest.c: the fixture index (relative path -> CRC-32 hex) of
 * DIR/MANIFEST.json, or NULL if there is none. */
json_t *cf_manifest_load(const char *dir);
/* The bytes of a fixture file after its CRC-32 check, or NULL with *why. */
unsigned char *cf_fixture_read(const runner *r, const char *rel, size_t *len,
                               char **why);
/* A failed result for each file the manifest lists that is not in files. */
void cf_manifest_missing(runner *r, const strvec *files);

/* conform_report.c */
area_stat *cf_stats(const runner *r, size_t *count);
void cf_free_stats(area_stat *s, size_t n);
int cf_in_group(const char *area, const char *group);
const char *cf_hello_str(const json_t *hello, const char *key);
void cf_print_table(const runner *r, const area_stat *s, size_t n);
int cf_write_md(const runner *r, const area_stat *s, size_t n);
/* Machine-readable counts for conformance/testees/results.sh: per area,
 * and per error class the invalid inputs the testee accepted. */
int cf_write_json(const runner *r, const area_stat *s, size_t n);

/* conform_junit.c */
int cf_write_junit(const runner *r, const area_stat *s, size_t n);

#endif
