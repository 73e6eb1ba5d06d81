#!/usr/bin/env python3
"""Cross-checks the Kotlin testee against the `wire` CLI on the xlang corpus.

For every fixtures/xlang-corpus/<case>.json: the testee decodes the Java and pyfory
bytes (with the case's schema and config) and must print the same notation as
`build/bin/wire decode`; it encodes the printed values back and must reproduce the
input bytes; and it encodes the case's `roots` and must give what `wire encode` gives.

    python3 bindings/kotlin/scripts/crosscheck.py [--testee CMD] [CASE ...]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
WIRE = os.path.join(ROOT, "build", "bin", "wire")


def wire(args, stdin):
    p = subprocess.run([WIRE] + args, input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def strip_readable(v):
    """Drops the readable-only annotations (approx, iso); everything else must match exactly."""
    if isinstance(v, dict):
        return {k: strip_readable(x) for k, x in v.items() if k not in ("approx", "iso")}
    if isinstance(v, list):
        return [strip_readable(x) for x in v]
    return v


def flags(case):
    f = []
    if case.get("ref"):
        f.append("--ref")
    if case.get("mode") == "compatible":
        f.append("--compatible")
    if case.get("schema"):
        f += ["--schema", os.path.join(ROOT, case["schema"])]
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--testee", default=os.path.join(ROOT, "bindings", "kotlin", "testee.sh"))
    ap.add_argument("cases", nargs="*")
    a = ap.parse_args()
    corpus = os.path.join(ROOT, "fixtures", "xlang-corpus")
    names = a.cases or sorted(f[:-5] for f in os.listdir(corpus) if f.endswith(".json"))
    proc = subprocess.Popen(a.testee, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    hello = json.loads(proc.stdout.readline())
    print("testee:", hello["hello"]["runtime"])
    rid = 0

    def ask(req):
        nonlocal rid
        rid += 1
        req["id"] = rid
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    ok = bad = 0
    for name in names:
        case = json.load(open(os.path.join(corpus, name + ".json")))
        cfg = {"ref": bool(case.get("ref")), "compatible": case.get("mode") == "compatible"}
        schemas = [case["schema"]] if case.get("schema") else []
        for side in ("java_hex", "pyfory_hex"):
            hx = case.get(side)
            if not hx:
                continue
            rc, out, err = wire(["decode", "--hex"] + flags(case), hx)
            r = ask({"op": "decode", "config": cfg, "schemas": schemas, "hex": hx})
            if rc != 0:
                same = not r["ok"]
                what = f"both fail ({err.strip()[:60]} / {r.get('class')})" if same else f"wire fails, testee ok"
            else:
                want = [json.loads(l) for l in out.splitlines() if l.strip()]
                same = r["ok"] and strip_readable(r["values"]) == strip_readable(want)
                what = "decode equal" if same else f"decode differs: {json.dumps(r)[:300]} vs {json.dumps(want)[:300]}"
                if same:
                    e = ask({"op": "encode", "config": cfg, "schemas": schemas, "values": r["values"]})
                    same = e["ok"] and e["hex"] == hx
                    what += ", re-encode " + ("identical" if same else f"differs: {e}")
            print(f"{'ok ' if same else 'BAD'} {name} {side}: {what}")
            ok += same
            bad += not same
        rc, out, err = wire(["encode", "--hex"] + flags(case), "\n".join(json.dumps(v) for v in case["roots"]))
        r = ask({"op": "encode", "config": cfg, "schemas": schemas, "values": case["roots"]})
        if rc != 0:
            same = not r["ok"]
        else:
            same = r["ok"] and r["hex"] == out.strip()
        print(f"{'ok ' if same else 'BAD'} {name} roots: encode {'equal' if same else 'differs: ' + json.dumps(r)[:200] + ' vs ' + out.strip()[:200] + err[:100]}")
        ok += same
        bad += not same
    proc.stdin.close()
    proc.wait()
    print(f"{ok} agree, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
