/* conform_proto.c - the testee side of `wire conform`: starts the testee process,
 * reads its hello and exchanges one JSON line per request
 * (conformance/PROTOCOL.md); or serves requests in-process through libwire. */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "conform.h"
#include "conform_run.h"

/* Claimed by a testee whose hello has no "capabilities": the built-in
 * value types only (no user types, no schemas). */
static const char *const default_capabilities[] = {
    "ref_tracking", "decimal", "temporal", "dense_array", "unsigned",
    "float16",      "bfloat16", "meta_string", NULL};


void cf_testee_stop(runner *r, int force) {
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
  double deadline = cf_now_s() + timeout;
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
    double left = deadline - cf_now_s();
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

void cf_set_caps(runner *r, const json_t *hello) {
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

int cf_testee_start(runner *r) {
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
    cf_testee_stop(r, 1);
    return -1;
  }
  if (!r->hello) {
    r->hello = json_incref(hello);
    cf_set_caps(r, hello);
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
    if (r->restarts >= 20 || cf_testee_start(r) < 0) {
      *err = cf_xstrdup("the testee is not running");
      return NULL;
    }
    r->restarts++;
  }
  char *s = json_dumps(req, JSON_COMPACT);
  if (!s) {
    *err = cf_xstrdup("cannot serialize the request");
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
    char *got = cf_dump_short(rid, 40);
    *err = cf_fmt("protocol: response id %s, expected %ld", got, id);
    free(got);
    json_decref(resp);
  } else {
    *err = cf_fmt("no response: %s", why);
  }
  cf_testee_stop(r, 1);
  return NULL;
}

/* Runs op with the test's config and schemas and returns the response; on
 * a transport failure, NULL and *err. */
json_t *cf_request(runner *r, const json_t *base, const char *op,
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
json_t *cf_success(runner *r, json_t *resp, const char *key,
                       const char *what, char **err) {
  if (json_is_true(json_object_get(resp, "ok"))) {
    json_t *v = json_object_get(resp, key);
    if (v) return v;
    *err = cf_fmt("%s: the response has no \"%s\"", what, key);
    return NULL;
  }
  const char *cls = json_string_value(json_object_get(resp, "class"));
  const char *msg = json_string_value(json_object_get(resp, "message"));
  if (cls && !strcmp(cls, "unsupported")) r->saw_unsupported = 1;
  char *m = cf_oneline(msg ? msg : "", 300);
  *err = cf_fmt("%s failed: %s: %s", what, cls ? cls : "?", m);
  free(m);
  return NULL;
}

