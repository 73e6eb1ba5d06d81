#!/usr/bin/env python3
"""Runs libwire's `wire` CLI on every fixture and lists where it disagrees.

    python3 conformance/tools/check_libwire.py [--wire build/bin/wire] [--json OUT] [-q]

Valid tests: `wire decode --hex [--ref] [--compatible] [--schema F]...` of
"bytes" and of every alternative must print "values" (compared as
conformance/PROTOCOL.md says: wire-choice annotations dropped, anchors
renamed; order kept), and `wire encode` of "values" must give "bytes".
Invalid tests: `wire decode` must fail with the test's error class.
Exit status 1 when anything disagrees. This checks libwire against the
fixtures; the fixtures themselves come from the runtimes (generate.py)."""

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import REPO, WIRE, comparable, fixture_files, read_json  # noqa: E402


def flags(t):
    f = []
    if t["config"]["ref"]:
        f.append("--ref")
    if t["config"]["compatible"]:
        f.append("--compatible")
    for s in t.get("schemas", []):
        f += ["--schema", os.path.join(REPO, s)]
    return f


def run(wire, args, text):
    p = subprocess.run([wire] + args, input=text, capture_output=True, text=True, encoding="utf-8",
                       errors="replace", timeout=60)
    return p.returncode, p.stdout, p.stderr


def error_class(err):
    line = err.strip().splitlines()[0] if err.strip() else ""
    if line.startswith("error: "):
        return line[7:].split(" ", 1)[0], line
    return None, line


def check_valid(wire, t):
    out = []
    f = flags(t)
    for label, hx in [("bytes", t["bytes"])] + [("alternative %d" % i, a["bytes"])
                                               for i, a in enumerate(t.get("alternatives", []))]:
        rc, so, se = run(wire, ["decode", "--hex"] + f, hx)
        if rc != 0:
            out.append({"id": t["id"], "check": "decode " + label, "expected": "values",
                        "actual": se.strip()[:400]})
            continue
        docs = [json.loads(x) for x in so.splitlines() if x.strip()]
        if comparable(docs) != comparable(t["values"]):
            out.append({"id": t["id"], "check": "decode " + label,
                        "expected": json.dumps(comparable(t["values"]), ensure_ascii=False)[:600],
                        "actual": json.dumps(comparable(docs), ensure_ascii=False)[:600]})
    text = "\n".join(json.dumps(v, ensure_ascii=False) for v in t["values"]) + "\n"
    rc, so, se = run(wire, ["encode", "--hex"] + f, text)
    if rc != 0:
        out.append({"id": t["id"], "check": "encode", "expected": t["bytes"][:600], "actual": se.strip()[:400]})
    elif so.strip() != t["bytes"]:
        out.append({"id": t["id"], "check": "encode", "expected": t["bytes"][:600], "actual": so.strip()[:600]})
    return out


def check_invalid(wire, t):
    rc, so, se = run(wire, ["decode", "--hex"] + flags(t), t["bytes"])
    if rc == 0:
        return [{"id": t["id"], "check": "decode", "expected": t["error"], "actual": "ok: " + so.strip()[:300]}]
    cls, line = error_class(se)
    if cls != t["error"]:
        return [{"id": t["id"], "check": "decode", "expected": t["error"], "actual": line[:300]}]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wire", default=WIRE)
    ap.add_argument("--json", help="write the failures as JSON to this file")
    ap.add_argument("-q", "--quiet", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = ap.parse_args()
    jobs = []
    for p in fixture_files():
        kind = "valid" if "/valid/" in p else "invalid"
        for t in read_json(p)["tests"]:
            jobs.append((kind, t))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda j: check_valid(args.wire, j[1]) if j[0] == "valid"
                                else check_invalid(args.wire, j[1]), jobs))
    failures = [f for r in results for f in r]
    nvalid = sum(1 for k, _ in jobs if k == "valid")
    failed_ids = {f["id"] for f in failures}
    if not args.quiet:
        for f in failures:
            print("%s [%s]\n  expected: %s\n  actual:   %s" % (f["id"], f["check"], f["expected"], f["actual"]))
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(failures, fh, indent=1, ensure_ascii=False)
    print("libwire: %d valid and %d invalid tests; %d tests with failures (%d checks)" % (
        nvalid, len(jobs) - nvalid, len(failed_ids), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
