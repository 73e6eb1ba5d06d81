"""Thin wrapper around the `wire` CLI for the tests.

Every call runs the binary once with text on stdin and returns a Result.
The helpers that expect success assert it, and every failing call is
checked for the documented error format: one stderr line
`error: <class> at byte <offset>: <message>`, possibly followed by
`hint: ...` lines, and exit status 1 (a negative
status is a crash by signal, which is always a bug).
"""

import json
import re
import subprocess

ERROR_RE = re.compile(r"^error: ([a-z_]+) at byte ([0-9]+): (.+)$")
TIMEOUT = 20


class Result:
    def __init__(self, args, rc, out, err):
        self.args = args
        self.rc = rc
        self.out = out
        self.err = err

    def __repr__(self):
        return "Result(args=%r, rc=%r, out=%r, err=%r)" % (self.args, self.rc, self.out[:2000], self.err[:2000])

    @property
    def crashed(self):
        return self.rc < 0

    def error(self):
        """(class, offset, message) of a failed run; asserts the format."""
        assert not self.crashed, "wire crashed with signal %d: %r" % (-self.rc, self)
        assert self.rc == 1, "expected exit status 1 on error: %r" % (self,)
        lines = self.err.splitlines()
        assert lines and all(x.startswith("hint: ") for x in lines[1:]), \
            "expected one error line (and hint: lines): %r" % (self,)
        m = ERROR_RE.match(lines[0])
        assert m, "stderr is not `error: <class> at byte <offset>: <message>`: %r" % (self,)
        return m.group(1), int(m.group(2)), m.group(3)


class Wire:
    def __init__(self, path):
        self.path = path

    def run(self, args, text):
        argv = [self.path] + list(args)
        p = subprocess.run(
            argv,
            input=text,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="replace",
            timeout=TIMEOUT,
        )
        return Result(argv, p.returncode, p.stdout, p.stderr)

    # -- decode ----------------------------------------------------------
    def decode(self, hex_text, ref=False, pretty=False, extra=()):
        args = ["decode", "--hex"]
        if ref:
            args.append("--ref")
        if pretty:
            args.append("--pretty")
        args.extend(extra)
        return self.run(args, hex_text)

    def decode_ok(self, hex_text, ref=False):
        """The decoded root documents (a list of JSON values)."""
        r = self.decode(hex_text, ref=ref)
        assert not r.crashed, "wire crashed: %r" % (r,)
        assert r.rc == 0 and r.err == "", "decode failed: %r" % (r,)
        docs = []
        for line in r.out.splitlines():
            assert line.strip(), "blank line in decode output: %r" % (r,)
            docs.append(json.loads(line))
        return docs, r

    # -- encode ----------------------------------------------------------
    def encode(self, text, ref=False):
        args = ["encode", "--hex"]
        if ref:
            args.append("--ref")
        return self.run(args, text)

    def encode_ok(self, text, ref=False):
        """Hex (lower case, no whitespace) of the encoded documents."""
        r = self.encode(text, ref=ref)
        assert not r.crashed, "wire crashed: %r" % (r,)
        assert r.rc == 0 and r.err == "", "encode failed: %r" % (r,)
        out = r.out.strip()
        assert re.fullmatch(r"[0-9a-f]*", out), "encode output is not lower-case hex: %r" % (r,)
        return out

    def encode_docs(self, docs, ref=False):
        return self.encode_ok("\n".join(json.dumps(d, ensure_ascii=False) for d in docs) + "\n", ref=ref)

    # -- dump ------------------------------------------------------------
    def dump(self, hex_text, ref=False):
        args = ["dump", "--hex"]
        if ref:
            args.append("--ref")
        return self.run(args, hex_text)
