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

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "conform.h"
#include "wire.h"

static const char conform_usage[] =
    "usage: wire conform [options] [DIR]\n"
    "Runs every test of DIR/valid and DIR/invalid (DIR default: fixtures)\n"
    "against libwire in-process, or against a testee (conformance/PROTOCOL.md).\n"
    "  --testee CMD           run the shell command CMD as the testee\n"
    "  --expect-failures FILE JSON list of {\"id\", \"reason\"}: known failures\n"
    "                         (skipped); a listed test that passes fails the run\n"
    "  --junit FILE           write JUnit XML\n"
    "  --results-md FILE      write a Markdown section (per-area table)\n"
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

/* Claimed by a testee whose hello has no "capabilities": the built-in
 * value types only (no user types, no schemas). */
static const char *const default_capabilities[] = {
    "ref_tracking", "decimal", "temporal", "dense_array", "unsigned",
    "float16",      "bfloat16", "meta_string", NULL};

/* Node-level wire-choice annotations (spec/notation.md N-3; "tracked"
 * N-2). "typedef" is the struct-body annotation, handled separately. */
static const char *const node_annotations[] = {
    "enc", "header", "chunks", "tracked", "approx", "iso", "ns_enc",
    "name_enc", "ns_hash", "name_hash", "ns_xref", "name_xref", NULL};

enum { R_PASS, R_FAIL, R_XFAIL, R_XPASS, R_NOTCLAIMED };

typedef struct {
  char *id, *file, *area, *msg;
  int status;
  int unsupported; /* failed: the testee answered class "unsupported" */
} result;

typedef struct {
  /* options */
  const char *cmd, *junit, *xfail_file, *results_md, *only, *log;
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
  /* bookkeeping */
  json_t *xfail;      /* id -> reason */
  json_t *xfail_seen; /* id -> true */
  json_t *ids;        /* id -> true, to warn about duplicates */
  result *res;
  size_t nres, capres;
} runner;

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */
/* ---------------------------------------------------------------------- */

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  memcpy(d, s, n);
  return d;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int n = vsnprintf(NULL, 0, f, ap);
  va_end(ap);
  char *s = malloc((size_t)n + 1);
  va_start(ap, f);
  vsnprintf(s, (size_t)n + 1, f, ap);
  va_end(ap);
  return s;
}

/* A one-line copy of s, at most max bytes (then "..."). */
static char *oneline(const char *s, size_t max) {
  size_t n = strlen(s);
  size_t k = n > max ? max : n;
  char *d = malloc(k + 4);
  for (size_t i = 0; i < k; i++)
    d[i] = (s[i] == '\n' || s[i] == '\r' || s[i] == '\t') ? ' ' : s[i];
  if (n > max) {
    /* do not cut a UTF-8 sequence */
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    memcpy(d + k, "...", 4);
  } else {
    d[k] = 0;
  }
  return d;
}

static char *dump_short(const json_t *j, size_t max) {
  if (!j) return xstrdup("(nothing)");
  char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
  if (!s) return xstrdup("?");
  char *o = oneline(s, max);
  free(s);
  return o;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int streq_hex(const char *a, const char *b) {
  for (;; a++, b++) {
    int x = *a, y = *b;
    if (x >= 'A' && x <= 'F') x += 32;
    if (y >= 'A' && y <= 'F') y += 32;
    if (x != y) return 0;
    if (!x) return 1;
  }
}

/* First differing byte offset of two hex strings (same case-insensitive). */
static size_t hex_diff_at(const char *a, const char *b) {
  size_t i = 0;
  for (;; i++) {
    int x = a[i], y = b[i];
    if (x >= 'A' && x <= 'F') x += 32;
    if (y >= 'A' && y <= 'F') y += 32;
    if (x != y || !x) break;
  }
  return i / 2;
}

/* ---------------------------------------------------------------------- */
/* Value normalization and comparison (conformance/PROTOCOL.md)            */
/* ---------------------------------------------------------------------- */

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
  char *w = dump_short(want, 160), *g = dump_short(got, 160);
  c->path[c->plen] = 0;
  c->why = what ? fmt("at %s: %s", c->path, what)
                : fmt("at %s: expected %s, got %s", c->path, w, g);
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

static int eq(cmp *c, const json_t *a, const json_t *b) {
  if (json_typeof(a) != json_typeof(b) &&
      !(json_is_boolean(a) && json_is_boolean(b)))
    return differ(c, a, b, NULL);
  size_t mark = c->plen;
  int extra_ok = c->subset && c->in_fields;
  c->in_fields = 0;
  if (json_is_object(a)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)a, k, v) {
      if (!json_object_get(b, k)) {
        c->path[c->plen] = 0;
        char *w = dump_short(a, 160), *g = dump_short(b, 160);
        c->why = fmt("at %s: key \"%s\" missing; expected %s, got %s",
                     c->path, k, w, g);
        free(w);
        free(g);
        return 0;
      }
    }
    json_object_foreach((json_t *)b, k, v) {
      if (!extra_ok && !json_object_get(a, k)) {
        c->path[c->plen] = 0;
        char *w = dump_short(a, 160), *g = dump_short(b, 160);
        c->why = fmt("at %s: unexpected key \"%s\"; expected %s, got %s",
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
      char *m = fmt("%zu items, expected %zu", json_array_size(b),
                    json_array_size(a));
      differ(c, a, b, NULL);
      char *full = fmt("%s (%s)", c->why, m);
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
static char *compare_roots_ex(const json_t *want, const json_t *got,
                              int subset) {
  if (!json_is_array(got)) return xstrdup("the response has no \"values\" array");
  if (!json_is_array(want)) return xstrdup("the test has no \"values\" array");
  if (json_array_size(want) != json_array_size(got))
    return fmt("%zu root values, expected %zu", json_array_size(got),
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

static char *compare_roots(const json_t *want, const json_t *got) {
  return compare_roots_ex(want, got, 0);
}

/* ---------------------------------------------------------------------- */
/* The testee: libwire in-process or a child process                       */
/* ---------------------------------------------------------------------- */

static void testee_stop(runner *r, int force) {
  if (r->pid <= 0) return;
  close(r->wfd);
  r->wfd = -1;
  if (force) kill(-r->pid, SIGKILL);
  int status = 0, done = 0;
  for (int i = 0; i < 500 && !done; i++) { /* up to 5 s */
    pid_t w = waitpid(r->pid, &status, WNOHANG);
    if (w == r->pid || (w < 0 && errno != EINTR)) done = 1;
    else poll(NULL, 0, 10);
  }
  if (!done) {
    kill(-r->pid, SIGKILL);
    waitpid(r->pid, &status, 0);
    force = 1;
  }
  if (!force && done && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
    fprintf(stderr, "wire conform: the testee ended with status %d\n",
            WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  close(r->rfd);
  r->rfd = -1;
  r->pid = -1;
  r->blen = 0;
}

/* The next line from the testee (malloc'd, without the newline), or NULL
 * with *why set (timeout, end of output). */
static char *read_line(runner *r, double timeout, const char **why) {
  double deadline = now_s() + timeout;
  for (;;) {
    char *nl = r->blen ? memchr(r->buf, '\n', r->blen) : NULL;
    if (nl) {
      size_t k = (size_t)(nl - r->buf);
      char *line = malloc(k + 1);
      memcpy(line, r->buf, k);
      line[k] = 0;
      memmove(r->buf, nl + 1, r->blen - k - 1);
      r->blen -= k + 1;
      return line;
    }
    double left = deadline - now_s();
    if (left <= 0) {
      *why = "timeout";
      return NULL;
    }
    struct pollfd p = {r->rfd, POLLIN, 0};
    int pr = poll(&p, 1, left > 1e6 ? 1000000000 : (int)(left * 1000) + 1);
    if (pr < 0 && errno != EINTR) {
      *why = "poll failed";
      return NULL;
    }
    if (pr <= 0) continue;
    if (r->bcap - r->blen < 65536) {
      r->bcap = r->bcap * 2 + 65536;
      r->buf = realloc(r->buf, r->bcap);
    }
    ssize_t n = read(r->rfd, r->buf + r->blen, r->bcap - r->blen);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      *why = "the testee closed its output (crashed or exited)";
      return NULL;
    }
    r->blen += (size_t)n;
  }
}

/* The next JSON object line; other lines are passed to stderr. */
static json_t *read_json(runner *r, double timeout, const char **why) {
  for (;;) {
    char *line = read_line(r, timeout, why);
    if (!line) return NULL;
    json_t *j = json_loads(line, JSON_ALLOW_NUL, NULL);
    if (json_is_object(j)) {
      free(line);
      return j;
    }
    json_decref(j);
    if (*line) fprintf(stderr, "testee (not protocol): %s\n", line);
    free(line);
  }
}

static void set_caps(runner *r, const json_t *hello) {
  json_decref(r->caps);
  r->caps = json_object();
  const json_t *caps = json_object_get(hello, "capabilities");
  r->caps_sent = json_is_array(caps);
  if (r->caps_sent) {
    size_t i;
    json_t *c;
    json_array_foreach((json_t *)caps, i, c) {
      if (json_is_string(c))
        json_object_set_new(r->caps, json_string_value(c), json_true());
    }
  } else {
    for (int i = 0; default_capabilities[i]; i++)
      json_object_set_new(r->caps, default_capabilities[i], json_true());
  }
  const char *name = json_string_value(json_object_get(hello, "name"));
  r->strict = name && !strcmp(name, "libwire");
}

static int testee_start(runner *r) {
  int in[2], out[2];
  if (pipe(in) < 0) return -1;
  if (pipe(out) < 0) {
    close(in[0]);
    close(in[1]);
    return -1;
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    return -1;
  }
  if (pid == 0) {
    setpgid(0, 0);
    signal(SIGPIPE, SIG_DFL);
    dup2(in[0], 0);
    dup2(out[1], 1);
    if (r->log) {
      int fd = open(r->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        dup2(fd, 2);
        close(fd);
      }
    }
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", r->cmd, (char *)NULL);
    _exit(127);
  }
  setpgid(pid, pid);
  close(in[0]);
  close(out[1]);
  fcntl(in[1], F_SETFD, FD_CLOEXEC);
  fcntl(out[0], F_SETFD, FD_CLOEXEC);
  r->pid = pid;
  r->wfd = in[1];
  r->rfd = out[0];
  r->blen = 0;
  const char *why = NULL;
  double t = r->timeout < 60 ? 60 : r->timeout;
  json_t *h = read_json(r, t, &why);
  json_t *hello = json_object_get(h, "hello");
  if (!json_is_object(hello)) {
    fprintf(stderr, "wire conform: no hello from the testee `%s`: %s\n",
            r->cmd, why ? why : "the first line is not a hello");
    json_decref(h);
    testee_stop(r, 1);
    return -1;
  }
  if (!r->hello) {
    r->hello = json_incref(hello);
    set_caps(r, hello);
  }
  json_decref(h);
  return 0;
}

static int write_all(int fd, const char *s, size_t n) {
  while (n) {
    ssize_t w = write(fd, s, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return -1;
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Sends one request; returns the response, or NULL with *err set (then the
 * testee is restarted for the next request). */
static json_t *call(runner *r, json_t *req, char **err) {
  long id = ++r->next_id;
  json_object_set_new(req, "id", json_integer(id));
  if (r->inproc) return testee_handle(req, r->root);
  if (r->pid <= 0) {
    if (r->restarts >= 20 || testee_start(r) < 0) {
      *err = xstrdup("the testee is not running");
      return NULL;
    }
    r->restarts++;
  }
  char *s = json_dumps(req, JSON_COMPACT);
  if (!s) {
    *err = xstrdup("cannot serialize the request");
    return NULL;
  }
  size_t n = strlen(s);
  s[n] = '\n'; /* json_dumps' NUL becomes the newline */
  int wr = write_all(r->wfd, s, n + 1);
  free(s);
  const char *why = "the testee closed its input";
  json_t *resp = wr ? NULL : read_json(r, r->timeout, &why);
  if (resp) {
    json_t *rid = json_object_get(resp, "id");
    if (json_is_integer(rid) && json_integer_value(rid) == id) return resp;
    char *got = dump_short(rid, 40);
    *err = fmt("protocol: response id %s, expected %ld", got, id);
    free(got);
    json_decref(resp);
  } else {
    *err = fmt("no response: %s", why);
  }
  testee_stop(r, 1);
  return NULL;
}

/* Runs op with the test's config and schemas and returns the response; on
 * a transport failure, NULL and *err. */
static json_t *request(runner *r, const json_t *base, const char *op,
                       const char *key, json_t *arg, char **err) {
  json_t *req = json_deep_copy(base);
  json_object_set_new(req, "op", json_string(op));
  json_object_set(req, key, arg);
  json_t *resp = call(r, req, err);
  json_decref(req);
  return resp;
}

/* The "key" of a successful response (borrowed from resp), or NULL with
 * *err describing the failure. */
static json_t *success(runner *r, json_t *resp, const char *key,
                       const char *what, char **err) {
  if (json_is_true(json_object_get(resp, "ok"))) {
    json_t *v = json_object_get(resp, key);
    if (v) return v;
    *err = fmt("%s: the response has no \"%s\"", what, key);
    return NULL;
  }
  const char *cls = json_string_value(json_object_get(resp, "class"));
  const char *msg = json_string_value(json_object_get(resp, "message"));
  if (cls && !strcmp(cls, "unsupported")) r->saw_unsupported = 1;
  char *m = oneline(msg ? msg : "", 300);
  *err = fmt("%s failed: %s: %s", what, cls ? cls : "?", m);
  free(m);
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Tests                                                                   */
/* ---------------------------------------------------------------------- */

static char *decode_check(runner *r, const json_t *base, const char *hex,
                          const json_t *want, const char *what) {
  char *err = NULL;
  json_t *arg = json_string(hex);
  json_t *resp = request(r, base, "decode", "hex", arg, &err);
  json_decref(arg);
  if (!resp) {
    char *m = fmt("%s: %s", what, err);
    free(err);
    return m;
  }
  json_t *got = success(r, resp, "values", what, &err);
  if (got) {
    char *d = compare_roots(want, got);
    if (d) {
      err = fmt("%s: values differ %s", what, d);
      free(d);
    }
  }
  json_decref(resp);
  return err;
}

static json_t *request_base(runner *r, const json_t *t);

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
      return fmt("malformed test: reader %zu needs \"schemas\" and "
                 "\"values\" or \"error\"", i);
    json_t *rt = json_pack("{s:O,s:O}", "config", json_object_get(base, "config"),
                           "schemas", json_object_get(rd, "schemas"));
    json_t *rbase = request_base(r, rt);
    json_decref(rt);
    json_object_set_new(rbase, "project", json_true());
    char *err = NULL, *what = fmt("reader %zu", i);
    json_t *arg = json_string(bytes);
    json_t *resp = request(r, rbase, "decode", "hex", arg, &err);
    json_decref(arg);
    json_decref(rbase);
    if (!resp) {
      char *m = fmt("%s: %s", what, err);
      free(err);
      free(what);
      return m;
    }
    if (cls) {
      const char *got = json_string_value(json_object_get(resp, "class"));
      if (json_is_true(json_object_get(resp, "ok"))) {
        char *v = dump_short(json_object_get(resp, "values"), 200);
        err = fmt("%s: decoded without error, expected class %s: %s", what,
                  cls, v);
        free(v);
      } else if (!got || (strcmp(got, cls) != 0 &&
                          !(r->any_class && strcmp(got, "unsupported") != 0))) {
        const char *msg = json_string_value(json_object_get(resp, "message"));
        char *m = oneline(msg ? msg : "", 200);
        if (got && !strcmp(got, "unsupported")) r->saw_unsupported = 1;
        err = fmt("%s: class %s, expected %s: %s", what, got ? got : "?", cls,
                  m);
        free(m);
      }
    } else {
      json_t *got = success(r, resp, "values", what, &err);
      if (got) {
        char *d = compare_roots_ex(want, got, 1);
        if (d) {
          err = fmt("%s: values differ %s", what, d);
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
    return xstrdup("malformed test: needs \"bytes\" and \"values\"");
  char *err = decode_check(r, base, bytes, values, "decode");
  if (err) return err;
  for (size_t i = 0; i < json_array_size(alts); i++) {
    const json_t *a = json_array_get(alts, i);
    const char *ab = json_string_value(json_object_get(a, "bytes"));
    if (!ab) return fmt("malformed test: alternative %zu has no bytes", i);
    char *w = dump_short(json_object_get(a, "writers"), 60);
    char *what = fmt("decode of alternative %zu (writers %s)", i, w);
    free(w);
    err = decode_check(r, base, ab, values, what);
    free(what);
    if (err) return err;
  }
  err = run_readers(r, t, base, bytes);
  if (err) return err;
  json_t *resp = request(r, base, "encode", "values", (json_t *)values, &err);
  if (!resp) {
    char *m = fmt("encode: %s", err);
    free(err);
    return m;
  }
  const char *got = json_string_value(success(r, resp, "hex", "encode", &err));
  if (got && !streq_hex(got, bytes)) {
    int alt_ok = 0;
    for (size_t i = 0; !r->strict && i < json_array_size(alts); i++) {
      const char *ab =
          json_string_value(json_object_get(json_array_get(alts, i), "bytes"));
      if (ab && streq_hex(got, ab)) alt_ok = 1;
    }
    if (!alt_ok) {
      char *g = oneline(got, 240), *b = oneline(bytes, 240);
      err = fmt("encode: bytes differ at offset %zu: got %s, expected %s%s",
                hex_diff_at(got, bytes), g, b,
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
    return xstrdup("malformed test: needs \"bytes\" and \"error\"");
  char *err = NULL;
  json_t *arg = json_string(bytes);
  json_t *resp = request(r, base, "decode", "hex", arg, &err);
  json_decref(arg);
  if (!resp) {
    char *m = fmt("decode: %s", err);
    free(err);
    return m;
  }
  if (json_is_true(json_object_get(resp, "ok"))) {
    char *v = dump_short(json_object_get(resp, "values"), 200);
    err = fmt("decoded without error, expected class %s: %s", want, v);
    free(v);
  } else {
    const char *cls = json_string_value(json_object_get(resp, "class"));
    if (!cls) cls = "?";
    /* --any-error-class: any rejection passes, except "unsupported" (the
     * testee cannot serve the request) where another class is expected */
    int lenient = r->any_class && (strcmp(cls, "unsupported") != 0 ||
                                   strcmp(want, "unsupported") == 0);
    if (strcmp(cls, want) != 0 && !lenient) {
      if (!strcmp(cls, "unsupported")) r->saw_unsupported = 1;
      const char *msg = json_string_value(json_object_get(resp, "message"));
      char *m = oneline(msg ? msg : "", 200);
      err = fmt("class %s, expected %s: %s", cls, want, m);
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
  return w ? xstrdup(buf) : NULL;
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
      char *full = fmt("%s/%s", r->root, p);
      json_array_append_new(abs, json_string(full));
      free(full);
    }
  }
  json_object_set_new(base, "schemas", abs);
  return base;
}

static void add_result(runner *r, const char *id, const char *file,
                       const char *area, int status, char *msg) {
  if (r->nres == r->capres) {
    r->capres = r->capres * 2 + 64;
    r->res = realloc(r->res, r->capres * sizeof *r->res);
  }
  result *x = &r->res[r->nres++];
  x->id = xstrdup(id);
  x->file = xstrdup(file);
  x->area = xstrdup(area);
  x->status = status;
  x->msg = msg;
  x->unsupported = status == R_FAIL && r->saw_unsupported;
  r->saw_unsupported = 0;
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
  if (!tid) tid = fallback = fmt("%s#%zu", file, index);
  if (r->only && !strstr(tid, r->only) && !strstr(area, r->only)) {
    free(fallback);
    return;
  }
  if (json_object_get(r->ids, tid))
    fprintf(stderr, "wire conform: duplicate test id %s (%s)\n", tid, file);
  json_object_set_new(r->ids, tid, json_true());
  char *missing = json_is_object(t) ? missing_caps(r, t) : NULL;
  if (missing) {
    add_result(r, tid, file, area, R_NOTCLAIMED, fmt("needs %s", missing));
    free(missing);
    free(fallback);
    return;
  }
  char *err;
  r->saw_unsupported = 0;
  if (!json_is_object(t)) {
    err = xstrdup("malformed test: not an object");
  } else {
    json_t *base = request_base(r, t);
    err = invalid ? run_invalid(r, t, base) : run_valid(r, t, base);
    json_decref(base);
  }
  const json_t *reason = json_object_get(r->xfail, tid);
  if (reason) json_object_set_new(r->xfail_seen, tid, json_true());
  const char *rs = json_string_value(reason);
  if (err && reason) {
    char *m = fmt("%s (got: %s)", rs ? rs : "expected failure", err);
    free(err);
    add_result(r, tid, file, area, R_XFAIL, m);
  } else if (err) {
    add_result(r, tid, file, area, R_FAIL, err);
  } else if (reason) {
    add_result(r, tid, file, area, R_XPASS,
               fmt("passed, but the expected-failures list has it (%s): "
                   "remove it from the list",
                   rs ? rs : ""));
  } else {
    add_result(r, tid, file, area, R_PASS, NULL);
  }
  free(fallback);
}

/* ---------------------------------------------------------------------- */
/* Fixture files                                                           */
/* ---------------------------------------------------------------------- */

typedef struct {
  char **v;
  size_t n, cap;
} strvec;

static void strvec_push(strvec *s, char *p) {
  if (s->n == s->cap) {
    s->cap = s->cap * 2 + 16;
    s->v = realloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = p;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.json under dir/rel (paths relative to dir). */
static void find_json(const char *dir, const char *rel, strvec *out) {
  char *full = fmt("%s/%s", dir, rel);
  DIR *d = opendir(full);
  free(full);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    char *p = fmt("%s/%s", rel, e->d_name);
    char *fp = fmt("%s/%s", dir, p);
    struct stat st;
    if (stat(fp, &st) == 0 && S_ISDIR(st.st_mode)) {
      find_json(dir, p, out);
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

static void run_file(runner *r, const char *rel) {
  int invalid = !strncmp(rel, "invalid/", 8);
  char *full = fmt("%s/%s", r->dir, rel);
  json_error_t jerr;
  json_t *f = json_load_file(full, JSON_ALLOW_NUL, &jerr);
  free(full);
  /* area: the file's "area", else its directory below valid/ or invalid/ */
  const char *sub = strchr(rel, '/') + 1;
  const char *slash = strchr(sub, '/');
  char *dir_area = slash ? fmt("%.*s", (int)(slash - sub), sub) : xstrdup("-");
  const char *area = json_string_value(json_object_get(f, "area"));
  char *key = fmt("%s/%s", invalid ? "invalid" : "valid", area ? area : dir_area);
  const char *format = json_string_value(json_object_get(f, "format"));
  const json_t *tests = json_object_get(f, "tests");
  if (!f || !format || strcmp(format, "libwire-fixtures/1") != 0 ||
      !json_is_array(tests)) {
    char *m = !f ? fmt("cannot load: line %d: %s", jerr.line, jerr.text)
                 : xstrdup("not a libwire-fixtures/1 file with \"tests\"");
    add_result(r, rel, rel, key, R_FAIL, m);
  } else {
    for (size_t i = 0; i < json_array_size(tests); i++)
      run_test(r, json_array_get(tests, i), invalid, rel, key, i);
  }
  json_decref(f);
  free(key);
  free(dir_area);
}

/* ---------------------------------------------------------------------- */
/* Reports                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct {
  char *area;
  int n[5];
  int unsupported; /* failed tests the testee answered "unsupported" */
} area_stat;

/* Length of the table row key of an area: "valid/" or "invalid/" and the
 * area's first segment ("valid/structs/test_item" counts under
 * "valid/structs"). */
static size_t group_len(const char *area) {
  const char *a = strchr(area, '/');
  const char *b = a ? strchr(a + 1, '/') : NULL;
  return b ? (size_t)(b - area) : strlen(area);
}

static int in_group(const char *area, const char *group) {
  size_t n = group_len(area);
  return strlen(group) == n && !strncmp(area, group, n);
}

/* Per-row counts in order of first appearance; the last entry is the
 * total (area NULL). *count excludes the total. Free with free_stats. */
static area_stat *stats(const runner *r, size_t *count) {
  area_stat *s = calloc(r->nres + 1, sizeof *s);
  size_t n = 0;
  for (size_t i = 0; i < r->nres; i++) {
    size_t k = 0;
    while (k < n && !in_group(r->res[i].area, s[k].area)) k++;
    if (k == n)
      s[n++].area = fmt("%.*s", (int)group_len(r->res[i].area),
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

static void free_stats(area_stat *s, size_t n) {
  for (size_t k = 0; k < n; k++) free(s[k].area);
  free(s);
}

#define FAILED(s) ((s).n[R_FAIL] + (s).n[R_XPASS])
#define SKIPPED(s) ((s).n[R_XFAIL] + (s).n[R_NOTCLAIMED])
#define TOTAL(s) ((s).n[0] + (s).n[1] + (s).n[2] + (s).n[3] + (s).n[4])

static const char *hello_str(const json_t *hello, const char *key) {
  const char *s = json_string_value(json_object_get(hello, key));
  return s ? s : "?";
}

static void print_table(const runner *r, const area_stat *s, size_t n) {
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
         hello_str(h, "name"),
         hello_str(h, "version"),
         r->inproc ? " (in-process)" : "");
  if (!r->caps_sent)
    printf("the testee's hello lists no capabilities: assumed the built-in "
           "set (no schema, compatible, union, ext, named_types, typedef)\n");
}

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

static int write_junit(const runner *r, const area_stat *s, size_t n) {
  FILE *f = fopen(r->junit, "w");
  if (!f) {
    fprintf(stderr, "wire conform: cannot write %s: %s\n", r->junit,
            strerror(errno));
    return -1;
  }
  const area_stat *t = &s[n];
  fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(f, "<testsuites name=\"wire conform: ");
  xml_text(f, hello_str(r->hello, "name"));
  fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
          TOTAL(*t), FAILED(*t), SKIPPED(*t));
  for (size_t k = 0; k < n; k++) {
    fprintf(f, "  <testsuite name=\"");
    xml_text(f, s[k].area);
    fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n",
            TOTAL(s[k]), FAILED(s[k]), SKIPPED(s[k]));
    for (size_t i = 0; i < r->nres; i++) {
      const result *x = &r->res[i];
      if (!in_group(x->area, s[k].area)) continue;
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

static void md_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '|' || *s == '`' || *s == '<' || *s == '*' || *s == '_')
      fputc('\\', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
}

static int write_md(const runner *r, const area_stat *s, size_t n) {
  FILE *f = fopen(r->results_md, "w");
  if (!f) {
    fprintf(stderr, "wire conform: cannot write %s: %s\n", r->results_md,
            strerror(errno));
    return -1;
  }
  const json_t *h = r->hello;
  const char *name = hello_str(h, "name");
  const char *ver = hello_str(h, "version");
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
    for (size_t i = 0; i < r->nres && shown < 100; i++) {
      const result *x = &r->res[i];
      if (x->status != R_FAIL && x->status != R_XPASS) continue;
      char *m = oneline(x->msg ? x->msg : "", 240);
      fprintf(f, "- `%s` (%s): ", x->id, x->area);
      md_text(f, m);
      fputc('\n', f);
      free(m);
      shown++;
    }
    if (shown < nf) fprintf(f, "- ... and %d more\n", nf - shown);
    fprintf(f, "\n</details>\n");
  }
  return fclose(f) ? -1 : 0;
}

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
  r.dir = xstrdup(path);
  if (root) {
    if (!realpath(root, path)) {
      fprintf(stderr, "error: io at byte 0: %s: %s\n", root, strerror(errno));
      free(r.dir);
      return 2;
    }
    r.root = xstrdup(path);
  } else {
    char *up = fmt("%s/..", r.dir);
    r.root = xstrdup(realpath(up, path) ? path : r.dir);
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
    if (testee_start(&r) < 0) {
      free_runner(&r);
      return 2;
    }
  } else {
    r.inproc = 1;
    json_t *h = testee_hello();
    r.hello = json_incref(json_object_get(h, "hello"));
    set_caps(&r, r.hello);
    json_decref(h);
  }

  strvec files = {0};
  find_json(r.dir, "valid", &files);
  find_json(r.dir, "invalid", &files);
  if (files.n) qsort(files.v, files.n, sizeof *files.v, cmp_str);
  if (!files.n) {
    fprintf(stderr, "error: io at byte 0: no fixture files under %s/valid "
                    "or %s/invalid\n", r.dir, r.dir);
    free(files.v);
    testee_stop(&r, 0);
    free_runner(&r);
    return 2;
  }
  for (size_t i = 0; i < files.n; i++) {
    run_file(&r, files.v[i]);
    free(files.v[i]);
  }
  free(files.v);
  testee_stop(&r, 0);

  size_t n;
  area_stat *s = stats(&r, &n);
  print_table(&r, s, n);
  {
    const char *k;
    json_t *v;
    json_object_foreach(r.xfail, k, v) {
      if (!json_object_get(r.xfail_seen, k) && !json_object_get(r.ids, k))
        fprintf(stderr, "wire conform: the expected-failures list names %s, "
                        "which is not a test\n", k);
    }
  }
  if (r.junit && write_junit(&r, s, n) < 0) rc = 2;
  if (r.results_md && write_md(&r, s, n) < 0) rc = 2;
  const area_stat *t = &s[n];
  if (t->n[R_XFAIL]) printf("%d expected failures\n", t->n[R_XFAIL]);
  if (t->n[R_XPASS])
    printf("%d unexpected passes (listed in %s)\n", t->n[R_XPASS],
           r.xfail_file);
  printf("%d passed, %d failed, %d skipped\n", t->n[R_PASS], FAILED(*t),
         SKIPPED(*t));
  if (!rc && FAILED(*t)) rc = 1;
  free_stats(s, n);
  free_runner(&r);
  return rc;
}
