#!/usr/bin/env python3
"""Self-consistency of the committed fixture set, without any runtime
(fast: a few seconds; `make fixtures-check`, run by `make test` and
`make spec-check`):

1. every fixture file validates against fixtures/schema.json, and every
   value node has exactly one type key (spec/notation.md N-1, which the
   JSON Schema cannot say);
2. ids.json: every fixture id is registered for its file's kind and area,
   `retired` is exactly the registered ids that no fixture file holds, and
   the file is in the one form ids.py writes;
3. MANIFEST.json matches the files (manifest.py --check);
4. the counts that README.md and fixtures/README.md state are the counts of
   the files (`N valid tests`, `N whose bytes` (the generated valid tests,
   which pyfory and the Java runtime both confirm), `N exact payloads`,
   `N invalid inputs`).

`generate.py --check` is the other half: it regenerates everything with the
runtimes and compares the bytes.

    python3 conformance/tools/fixtures_check.py
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import FIXTURES, IDS_JSON, MANIFEST, REPO, SCHEMA_JSON, fixture_files, log, read_json, rel  # noqa: E402

TYPE_KEYS = frozenset("""null none bool int8 int16 int32 varint32 int64 varint64 tagged_int64 uint8 uint16 uint32
var_uint32 uint64 var_uint64 tagged_uint64 float16 bfloat16 float32 float64 string binary date timestamp duration
decimal enum named_enum list set map ref struct union ext bool_array int8_array int16_array int32_array int64_array
uint8_array uint16_array uint32_array uint64_array float16_array bfloat16_array float32_array float64_array""".split())

# The valid file that libwire/tests/exact/fixtures.py writes (generate.py's
# OWNED_ELSEWHERE): its tests are counted apart in the READMEs.
EXACT = "fixtures/valid/structs/exact.json"
README_COUNTS = ("README.md", "fixtures/README.md")


def node_errors(path, values):
    """Every node has exactly one type key (spec/notation.md N-1)."""
    errors = []

    def walk(n, where):
        keys = [k for k in n if k in TYPE_KEYS] if isinstance(n, dict) else []
        if len(keys) != 1:
            errors.append("%s: node %s has type keys %s" % (path, where, keys))
            return
        k, v = keys[0], n[keys[0]]
        if k in ("list", "set"):
            for i, c in enumerate(v):
                walk(c, "%s/%s/%d" % (where, k, i))
        elif k == "map":
            for i, (a, b) in enumerate(v):
                walk(a, "%s/map/%d/0" % (where, i))
                walk(b, "%s/map/%d/1" % (where, i))
        elif k in ("struct", "ext"):
            for f, c in v["fields"].items():
                walk(c, "%s/%s/%s" % (where, k, f))
        elif k == "union":
            walk(v["value"], where + "/union")

    for i, v in enumerate(values):
        walk(v, str(i))
    return errors


def schema_errors(docs):
    """docs: {path: fixture document}. The JSON Schema and node errors."""
    import jsonschema
    errors = []
    for path, doc in docs.items():
        for t in doc.get("tests", []):
            if "values" in t:
                errors += node_errors("%s %s" % (rel(path), t.get("id")), t["values"])
            for j, r in enumerate(t.get("readers", [])):
                errors += node_errors("%s %s reader %d" % (rel(path), t.get("id"), j), r.get("values", []))
    schema = read_json(SCHEMA_JSON)
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    for path, doc in docs.items():
        for e in v.iter_errors(doc):
            if e.context:  # oneOf: the errors of the branch of the test's kind (0 valid, 1 invalid)
                branch = 0 if isinstance(e.instance, dict) and "values" in e.instance else 1
                e = jsonschema.exceptions.best_match(
                    [c for c in e.context if c.relative_schema_path[0] == branch] or e.context)
            errors.append("schema error in %s at %s: %s" % (rel(path), "/".join(str(x) for x in e.absolute_path),
                                                            e.message[:300]))
    return errors


def validate(docs):
    """generate.py's step: exit when a generated document is not valid."""
    errors = schema_errors(docs)
    for e in errors[:20]:
        log(e)
    if errors:
        sys.exit("%d JSON Schema errors" % len(errors))


def id_errors(docs):
    import ids
    errors = []
    with open(IDS_JSON, encoding="utf-8") as f:
        text = f.read()
    import json
    reg = json.loads(text)
    by_id = {v: k for k, v in reg["ids"].items()}
    present = set()
    for path, doc in docs.items():
        kind = rel(path).split("/")[1]
        for t in doc["tests"]:
            fid = t["id"]
            if fid in present:
                errors.append("%s: id %s appears twice in the fixtures" % (rel(path), fid))
            present.add(fid)
            key = by_id.get(fid)
            if key is None:
                errors.append("%s: id %s is not in ids.json (ids are given out by the generators only)"
                              % (rel(path), fid))
            elif not key.startswith("%s|%s|" % (kind, doc["area"])):
                errors.append("%s: id %s is registered for %s" % (rel(path), fid, key))
    retired = sorted(v for v in reg["ids"].values() if v not in present)
    if reg.get("retired") != retired:
        errors.append("ids.json: retired lists %d ids, %d registered ids are in no fixture file (%s)" % (
            len(reg.get("retired", [])), len(retired), ", ".join(retired[:8])))
    elif text != ids.text(reg["ids"], reg["next"], reg["retired"]):
        errors.append("ids.json: not in the form ids.py writes (sorted keys)")
    for group, n in reg["next"].items():
        for v in reg["ids"].values():
            if v.startswith(group + ".") and v[len(group) + 1:].isdigit() and int(v[len(group) + 1:]) >= n:
                errors.append("ids.json: %s is not below next[%s] = %d" % (v, group, n))
    return errors


def counts(docs):
    c = {"valid": 0, "invalid": 0, "exact": 0}
    for path, doc in docs.items():
        r = rel(path)
        c[r.split("/")[1]] += len(doc["tests"])
        if r == EXACT:
            c["exact"] += len(doc["tests"])
    c["generated"] = c["valid"] - c["exact"]
    return c


COUNT_PATTERNS = {
    "valid": r"(\d[\d,]*) valid tests",
    "generated": r"(\d[\d,]*) whose bytes",
    "exact": r"(\d[\d,]*) exact payloads",
    "invalid": r"(\d[\d,]*) invalid inputs",
}


def readme_errors(c):
    errors = []
    for name in README_COUNTS:
        text = " ".join(open(os.path.join(REPO, name), encoding="utf-8").read().split())
        for what, pat in COUNT_PATTERNS.items():
            for m in re.finditer(pat, text):
                n = int(m.group(1).replace(",", ""))
                if n != c[what]:
                    errors.append("%s says \"%s\"; the fixtures have %d" % (name, m.group(0), c[what]))
    return errors


def main():
    docs = {p: read_json(p) for p in fixture_files()}
    errors = schema_errors(docs)
    errors += id_errors(docs)
    import manifest
    if not os.path.exists(MANIFEST) or read_json(MANIFEST) != manifest.compute():
        errors.append("fixtures/MANIFEST.json is out of date (conformance/tools/manifest.py)")
    c = counts(docs)
    errors += readme_errors(c)
    for e in errors[:40]:
        print("fixtures-check: " + e)
    if errors:
        print("fixtures-check: %d problem(s)" % len(errors))
        return 1
    print("fixtures-check: %d files, %d valid (%d generated, %d exact), %d invalid: schema, ids, manifest "
          "and README counts agree" % (len(docs), c["valid"], c["generated"], c["exact"], c["invalid"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
