#!/usr/bin/env python3
"""Writes the "accept_<class>" mutants of conformance/mutants/mutants.json:
for every normative rule that invalid fixtures cite, the wrong choice of a
decoder that skips the check (answers every error of the fixtures' class
with success), killed by up to three of those fixtures.  Hand-written
mutants (other names) are kept as they are.

    python3 conformance/mutants/reject_mutants.py
"""

import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "conformance", "tools"))
import spec_check  # noqa: E402


def main():
    spec, _, _ = spec_check.load(ROOT)
    by_rule = {}  # rule id -> {class: [fixture ids]}
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "invalid", "**", "*.json"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for t in json.load(f)["tests"]:
                for rid in t["rules"]:
                    by_rule.setdefault(rid, {}).setdefault(t["error"], []).append(t["id"])
    path = os.path.join(HERE, "mutants.json")
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    keep = [m for m in doc["mutants"] if not m["name"].startswith("accept_")]
    accept = {}
    for r in spec.rules.values():
        if not r.normative or r.id not in by_rule:
            continue
        for cls, ids in sorted(by_rule[r.id].items()):
            m = accept.setdefault(cls, {"name": "accept_" + cls, "rules": [], "kills": [],
                                        "wrong": "skips the checks whose failure is class %s: decodes such input "
                                                 "without an error" % cls})
            if r.id not in m["rules"]:
                m["rules"].append(r.id)
            for fid in ids[:3]:
                if fid not in m["kills"]:
                    m["kills"].append(fid)
    doc["mutants"] = keep + [accept[c] for c in sorted(accept)]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    n = len({r for m in accept.values() for r in m["rules"]})
    print("reject_mutants: %d accept_<class> mutants for %d normative rules" % (len(accept), n))


if __name__ == "__main__":
    main()
