#!/usr/bin/env python3
"""Golden tests of the `wire` CLI's output, in the manner of zstd's
cli-tests: each cases/NAME.sh is run with `sh` in libwire/tests/cli/ (so
data/ and schemas/ are relative paths) with the CLI first on PATH, and its
stdout, stderr and exit status must equal cases/NAME.sh.stdout.exact,
NAME.sh.stderr.exact and NAME.sh.exit.

    python3 libwire/tests/cli/run.py [--wire build/bin/wire] [NAME...]
    python3 libwire/tests/cli/run.py --bless [NAME...]   # rewrite the files

--bless records what the CLI prints now: review the diff before committing.
`--coverage` also checks that every error and hint message the CLI's own
sources print (libwire/tools/{wire,dump,schema,help}.c) appears in some
.stderr.exact file.
"""

import difflib
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CASES = os.path.join(HERE, "cases")
TOOLS = [os.path.join(REPO, "libwire", "tools", f)
         for f in ("wire.c", "dump.c", "schema.c", "help.c", "buffers.c")]


def case_names():
    return sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(CASES, "*.sh")))


def run_case(name, wire):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS")}
    env["PATH"] = os.path.dirname(os.path.abspath(wire)) + os.pathsep + env.get("PATH", "")
    env["TERM"] = "dumb"
    env["LC_ALL"] = "C"
    p = subprocess.run(["sh", os.path.join(CASES, name + ".sh")], cwd=HERE, env=env,
                       capture_output=True, timeout=300)
    return p.stdout, p.stderr, p.returncode


def expected(name):
    base = os.path.join(CASES, name + ".sh")
    out = {}
    for part in ("stdout", "stderr"):
        path = "%s.%s.exact" % (base, part)
        out[part] = open(path, "rb").read() if os.path.exists(path) else None
    path = base + ".exit"
    out["exit"] = int(open(path).read()) if os.path.exists(path) else None
    return out


def bless(name, wire):
    out, err, rc = run_case(name, wire)
    base = os.path.join(CASES, name + ".sh")
    with open(base + ".stdout.exact", "wb") as f:
        f.write(out)
    with open(base + ".stderr.exact", "wb") as f:
        f.write(err)
    with open(base + ".exit", "w") as f:
        f.write("%d\n" % rc)


def check(name, wire):
    """A list of problems (empty when the case passes)."""
    out, err, rc = run_case(name, wire)
    want = expected(name)
    problems = []
    for part, got in (("stdout", out), ("stderr", err)):
        if want[part] is None:
            problems.append("no %s.sh.%s.exact (run with --bless)" % (name, part))
        elif got != want[part]:
            diff = difflib.unified_diff(
                want[part].decode("utf-8", "replace").splitlines(),
                got.decode("utf-8", "replace").splitlines(),
                "%s.sh.%s.exact" % (name, part), "%s (now)" % part, lineterm="", n=2)
            problems.append("\n".join(list(diff)[:80]))
    if want["exit"] is None:
        problems.append("no %s.sh.exit" % name)
    elif rc != want["exit"]:
        problems.append("exit status %d, expected %d" % (rc, want["exit"]))
    return problems


# ---- error message coverage ---------------------------------------------------

_CALLS = re.compile(r"\b(cli_error|usage_error|cli_hint|fprintf\(stderr,|fputs)\s*\(?")
_LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _arguments(src, start):
    """The text of a call's arguments from `start` (after the opening
    parenthesis) to the matching one."""
    depth, i = 1, start
    while i < len(src) and depth:
        c = src[i]
        if c == '"':
            i += 1
            while src[i] != '"':
                i += 2 if src[i] == "\\" else 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        i += 1
    return src[start:i - 1]


def _messages(args):
    """Runs of adjacent string literals (one message each)."""
    runs, cur, pos = [], [], 0
    for m in _LIT.finditer(args):
        between = args[pos:m.start()]
        if cur and between.strip():
            runs.append("".join(cur))
            cur = []
        cur.append(m.group(1))
        pos = m.end()
    if cur:
        runs.append("".join(cur))
    return runs


def _pattern(fmt):
    text = fmt.encode().decode("unicode_escape")
    parts = re.split(r"%[-0-9]*(?:ll|z|l)?[sduxc]", text)
    return re.compile(".*".join(re.escape(p) for p in parts), re.S)


def tool_messages():
    """(file, message) of every literal error or hint the CLI prints."""
    found = []
    for path in TOOLS:
        src = open(path).read()
        for m in _CALLS.finditer(src):
            call = m.group(1)
            if call == "fputs":
                # only fputs(..., stderr)
                args = _arguments(src, m.end())
                if not args.rstrip().endswith("stderr"):
                    continue
            else:
                args = _arguments(src, m.end())
            for msg in _messages(args):
                # class names, option names and other single words are
                # arguments, not messages; the allocator's failure is not
                # provoked by a golden test
                if " " not in msg.strip() or msg == "out of memory":
                    continue
                if msg in ("error: %s at byte %llu: %s\\n", "hint: ", "error: arg at byte 0: "):
                    continue
                found.append((os.path.basename(path), msg))
    return found


def uncovered_messages():
    stderr = ""
    for p in glob.glob(os.path.join(CASES, "*.stderr.exact")):
        stderr += open(p, encoding="utf-8", errors="replace").read()
    return [(f, m) for f, m in tool_messages() if not _pattern(m).search(stderr)]


def main(argv):
    wire = os.path.join(REPO, "build", "bin", "wire")
    names, do_bless, coverage = [], False, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--wire":
            wire = argv[i + 1]
            i += 2
            continue
        if a == "--bless":
            do_bless = True
        elif a == "--coverage":
            coverage = True
        else:
            names.append(a)
        i += 1
    names = names or case_names()
    failed = 0
    for n in names:
        if do_bless:
            bless(n, wire)
            print("blessed", n)
            continue
        probs = check(n, wire)
        print(("FAIL " if probs else "ok   ") + n)
        for p in probs:
            print(p)
        failed += bool(probs)
    if coverage:
        for f, m in uncovered_messages():
            print("no golden test prints %s's message: %s" % (f, m))
            failed += 1
    print("%d of %d cases failed" % (failed, len(names)) if failed else "%d cases passed" % len(names))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
