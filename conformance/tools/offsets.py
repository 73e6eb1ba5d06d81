#!/usr/bin/env python3
"""The expected error offset (spec/04-errors-and-limits.md R-ERR-3) of every
invalid fixture: the byte offset, from the start of the payload, of the item
that failed.  The offsets are computed by libwire's decoder (`wire testee`),
checked against the test's bytes (an offset lies within the input; a
`truncated` error of a truncation test lies at or before its cut), and
recorded as "offset"; `wire conform` then checks them for every testee that
reports offsets.  An offset that changes is a behaviour change to review,
like a changed error class.

    python3 conformance/tools/offsets.py          # add/refresh "offset" in fixtures/invalid
    python3 conformance/tools/offsets.py --check  # exit 1 if a recorded offset differs
"""

import json
import os
import subprocess
import sys

from common import REPO, WIRE, write_json


def compute(tests):
    """Offsets for a list of invalid tests (dicts with bytes, config, schemas,
    error), in order; raises if libwire does not fail with the test's class."""
    p = subprocess.Popen([WIRE, "testee", "--root", REPO], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    try:
        p.stdout.readline()
        out = []
        for i, t in enumerate(tests):
            req = {"id": i, "op": "decode", "config": t.get("config", {}), "schemas": t.get("schemas", []),
                   "hex": t["bytes"]}
            if t.get("buffers"):  # out-of-band buffers (spec 1.12.1)
                req["buffers"] = t["buffers"]
            p.stdin.write(json.dumps(req) + "\n")
            p.stdin.flush()
            r = json.loads(p.stdout.readline())
            if r.get("ok") or r.get("class") != t["error"] or not isinstance(r.get("offset"), int):
                raise SystemExit("offsets: %s: libwire answers %s, the test expects class %s" % (
                    t.get("id") or t.get("name"), json.dumps(r)[:300], t["error"]))
            off = r["offset"]
            n = len(t["bytes"]) // 2
            if not 0 <= off <= n and t["error"] != "idl":  # idl: an offset in the schema file
                raise SystemExit("offsets: %s: offset %d outside the %d input bytes" % (t.get("id"), off, n))
            out.append(off)
        return out
    finally:
        p.stdin.close()
        p.wait()


def add(tests):
    """Sets "offset" on each invalid test (after "error")."""
    for t, off in zip(tests, compute(tests)):
        items = list(t.items())
        t.clear()
        for k, v in items:
            if k == "offset":
                continue
            t[k] = v
            if k == "error":
                t["offset"] = off


def main(argv):
    check = "--check" in argv
    base = os.path.join(REPO, "fixtures", "invalid")
    bad = 0
    for name in sorted(os.listdir(base)):
        path = os.path.join(base, name)
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if check:
            for t, off in zip(doc["tests"], compute(doc["tests"])):
                if t.get("offset") != off:
                    print("%s: offset %s recorded, libwire reports %d" % (t["id"], t.get("offset"), off))
                    bad += 1
            continue
        add(doc["tests"])
        write_json(path, doc)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
