#!/usr/bin/env python3
"""Reports what the valid fixtures cover, read from `wire dump` of their
bytes: the type ids that appear as type meta, the meta string encodings,
string encodings, varint lengths of the integer types, map chunk sizes, and
the TypeDef size extension; plus the upstream case names and rule ids.

    python3 conformance/tools/coverage.py [--wire build/bin/wire]

Informational (exit 0); generate.py's coverage targets are listed in
conformance/tools/README.md."""

import argparse
import collections
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import FIXTURES, REPO, WIRE, fixture_files, read_json  # noqa: E402
from check_libwire import flags  # noqa: E402

BUILTIN_IDS = [i for i in range(1, 57) if i not in (16, 42, 52)]


def dump(wire, t, hx):
    p = subprocess.run([wire, "dump", "--hex"] + flags(t), input=hx, capture_output=True, text=True,
                       encoding="utf-8", errors="replace", timeout=60)
    return p.stdout if p.returncode == 0 else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wire", default=WIRE)
    args = ap.parse_args()
    tests = [t for p in fixture_files("valid") for t in read_json(p)["tests"]]
    jobs = []
    for t in tests:
        jobs.append((t, t["bytes"], "bytes"))
        for a in t.get("alternatives", []):
            jobs.append((t, a["bytes"], "alternative"))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        dumps = list(pool.map(lambda j: dump(args.wire, j[0], j[1]), jobs))
    type_ids = collections.Counter()
    ms_enc = collections.Counter()
    str_enc = collections.Counter()
    typedef_ext = 0
    for (t, _, kind), d in zip(jobs, dumps):
        for m in re.finditer(r"type id (\d+) \(", d):
            type_ids[int(m.group(1))] += 1
        for m in re.finditer(r"meta string encoding \d+ \((\w+)\)", d):
            ms_enc[(m.group(1), kind)] += 1
        for m in re.finditer(r"string header: .*?, (latin1|utf16|utf8)", d):
            str_enc[(m.group(1), kind)] += 1
        if re.search(r"^\s+\d+\s+ff [0-9a-f ]+\.\.\.\s+TypeDef:", d, re.M):
            typedef_ext += 1
    wide = [t["id"] for t in tests if t["config"]["compatible"] and "struct.wide" in t["id"]]
    print("type ids as type meta (canonical bytes and alternatives):")
    missing = [i for i in BUILTIN_IDS if type_ids[i] == 0]
    print("  covered: %s" % ", ".join("%d" % i for i in sorted(type_ids)))
    print("  built-in ids not covered: %s" % (", ".join(str(i) for i in missing) or "none"))
    print("meta string encodings: %s" % dict(sorted(ms_enc.items())))
    print("string encodings: %s" % dict(sorted(str_enc.items())))
    print("TypeDef headers with the size extension (size byte ff): in %d byte strings; wide compatible tests: %s" % (
        typedef_ext, ", ".join(wide)))
    corpus = sorted(f[:-5] for f in os.listdir(os.path.join(FIXTURES, "xlang-corpus")) if f.endswith(".json"))
    have = {t.get("upstream_case") for t in tests}
    print("upstream cases without a fixture: %s" % ([c for c in corpus if c not in have] or "none"))
    rules = set()
    for f in os.listdir(os.path.join(REPO, "spec")):
        if f.endswith(".md"):
            rules |= set(re.findall(r"\*\*(R-[A-Z0-9-]+)\*\*", open(os.path.join(REPO, "spec", f),
                                                                     encoding="utf-8").read()))
    used = {r for p in fixture_files() for t in read_json(p)["tests"] for r in t["rules"]}
    print("rule ids used by fixtures: %d of %d; not used: %s" % (len(used & rules), len(rules),
                                                                 " ".join(sorted(rules - used))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
