#!/usr/bin/env python3
"""Regenerates the golden fixture set fixtures/valid/ and fixtures/invalid/.

    python3 conformance/tools/generate.py [--no-build] [--keep-going]

1. Valid schema-less cases (cases_builtin.py): every available JSON-lines
   peer (peers.py) encodes the values; the Java runtime's bytes are the
   canonical "bytes" (libwire's writer policy follows it), or, for values the
   Java runtime cannot write, the bytes the other runtimes agree on. Other
   forms become "alternatives".
2. Valid typed cases (cases_typed.py): enums and our IDL schemas, encoded by
   pyfory and the Java runtime through typed.py.
3. Struct cases from the user-type corpus (fixtures/xlang-corpus): the bytes
   both runtimes wrote for each upstream cross-language case.
4. Verification (verify.py): every runtime decodes every byte string; a
   test keeps only alternatives that two runtimes decode to its values, and a
   test whose bytes fewer than two runtimes decode is dropped (listed in the
   output).
5. Invalid cases (cases_invalid.py): hand-made and derived byte strings with
   the error class the spec gives.
6. Ids from ids.json (ids.py), JSON Schema validation (fixtures/schema.json),
   MANIFEST.json (manifest.py).

Deterministic: the same runtimes give the same files.
"""

import argparse
import collections
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import typed  # noqa: E402  (puts the corpus modules on sys.path first)
from common import (  # noqa: E402
    FIXTURES, FORMAT, REPO, SCHEMA_JSON, Peer, PeerError, log, read_json, strip, write_json,
)
import ids as IDS  # noqa: E402
import peers as P  # noqa: E402
import verify as V  # noqa: E402

SINCE = "0.1.0"
CORPUS_DIR = os.path.join(FIXTURES, "xlang-corpus")


# ---------------------------------------------------------------------------
# Valid tests
# ---------------------------------------------------------------------------

def new_valid(case, values=None, schemas=None):
    t = {
        "_kind": "valid", "_area": case.area, "_key": case.key, "_group": case.group,
        "name": case.name,
        "rules": list(dict.fromkeys(case.rules)),
        "config": {"ref": bool(case.ref), "compatible": bool(case.compatible)},
        "schemas": list(schemas if schemas is not None else getattr(case, "schemas", [])),
        "values": values if values is not None else case.values,
        "bytes": None,
        "alternatives": [],
        "writers": [],
        "confirmed_by": [],
        "tags": sorted(set(case.tags)),
        "since": SINCE,
    }
    if case.upstream:
        t["upstream_case"] = case.upstream
    if case.note:
        t["note"] = case.note
    return t


def choose_bytes(t, hexes):
    """hexes: {runtime: hex}. Canonical = the Java runtime's, else the form
    most runtimes wrote (ties: table order of peers.PEERS)."""
    if not hexes:
        return False
    order = list(P.PEERS)
    if P.CANONICAL in hexes:
        canon = hexes[P.CANONICAL]
    else:
        counts = collections.Counter(hexes.values())
        canon = sorted(hexes.values(), key=lambda h: (-counts[h], min(order.index(n) for n, x in hexes.items()
                                                                     if x == h)))[0]
    t["bytes"] = canon
    t["writers"] = [n for n in order if hexes.get(n) == canon]
    alts = collections.OrderedDict()
    for n in order:
        h = hexes.get(n)
        if h is not None and h != canon:
            alts.setdefault(h, []).append(n)
    t["alternatives"] = [{"bytes": h, "writers": w, "confirmed_by": []} for h, w in alts.items()]
    return True


def builtin_tests(report):
    import cases_builtin
    names = [n for n in P.available_peers(build=True) if P.PEERS[n]["encodes"]]
    cases = cases_builtin.CASES
    results = {}
    for n in list(names):
        try:
            peer = Peer(n, P.PEERS[n]["cmd"])
        except PeerError as e:
            log("peer %s did not start (%s), skipped" % (n, e))
            names.remove(n)
            continue
        try:
            results[n] = peer.batch([{"op": "encode", "config": {"ref": c.ref, "compatible": c.compatible},
                                      "values": c.values} for c in cases])
        finally:
            peer.close()
    tests = []
    for i, c in enumerate(cases):
        t = new_valid(c)
        hexes = {n: results[n][i]["hex"] for n in names if results[n][i].get("ok")}
        if not choose_bytes(t, hexes):
            report.append("no runtime wrote %s/%s: %s" % (c.area, c.key, {n: results[n][i].get("message")
                                                                          for n in names}))
            continue
        tests.append(t)
    return tests


def typed_tests(report):
    import cases_typed
    with open(os.path.join(REPO, "fixtures", "schemas", "idl", "wide.fdl"), "w") as f:
        f.write(typed.wide_fdl())
    jobs, tests = [], []
    for c in cases_typed.CASES:
        if c.schemas:
            values = c.values
            regs = []
            for s in c.schemas:
                regs += typed.idl_regs(s)
        else:
            values, regs = typed.typed_enum_values(c.values)
        jobs.append(typed.Job(c.key, regs, compatible=c.compatible, ref=c.ref, roots=values))
        tests.append(new_valid(c))
    py = typed.run_python(jobs)
    ja = typed.run_java(jobs) if "java" in P.available_peers() else [{} for _ in jobs]
    out = []
    for t, p, j in zip(tests, py, ja):
        hexes = {}
        if j.get("hex"):
            hexes["java"] = j["hex"]
        if p.get("hex"):
            hexes["pyfory"] = p["hex"]
        if not choose_bytes(t, hexes):
            report.append("no runtime wrote %s/%s: java %s; pyfory %s" % (
                t["_area"], t["_key"], j.get("encode_error") or j.get("error"), p.get("encode_error")))
            continue
        out.append(t)
    return out


# Corpus cases that get a variant in the other mode, because the bytes of the
# case's own mode cannot be exchanged between the runtimes (corpus README).
def _skip_name_custom_roots():
    from notation import E, S, VI32
    return [E("color", 3), S("my_struct", id=VI32(42))]


# Corpus cases that get a variant, because the bytes of the case itself
# cannot be exchanged between the runtimes (fixtures/xlang-corpus/README.md):
# name -> (key, compatible, roots or None for the case's roots, note).
CORPUS_VARIANTS = {
    "test_skip_name_custom": (
        "variant enum and struct", True, _skip_name_custom_roots,
        "Variant with the case's by-name enum and struct as roots and without its ext: pyfory 1.7.7 writes a "
        "by-name ext with its default object serializer in compatible mode, and in same-schema mode the "
        "runtimes frame an ext field differently (pyfory writes type meta before the body), so no byte "
        "string with the ext is read by both."),
    "test_list_array_compatible_nullable_list_to_array_error": (
        "variant schema-consistent", False, None,
        "Schema-consistent variant: in compatible mode the Java runtime 1.6.0 cannot read a "
        "list<optional int32> field holding a null, not even its own bytes (corpus README); the "
        "compatible-mode root without a null is the test 'root 1'."),
}


class CorpusCase:
    def __init__(self, area, key, name, values, rules, compatible, ref, tags, upstream, note=None):
        self.area, self.group, self.key, self.name = area, "struct." + upstream[5:], key, name
        self.values, self.rules, self.compatible, self.ref = values, rules, compatible, ref
        self.tags, self.upstream, self.note = tags, upstream, note


def corpus_tags(doc, compatible):
    text = json.dumps(doc["roots"])
    tags = {"schema", "struct"}
    if compatible:
        tags |= {"compatible", "typedef"}
    if doc["ref"]:
        tags.add("ref_tracking")
    for needle, tag in [('"union"', "union"), ('"ext"', "ext"), ('"enum"', "enum"), ('"float16', "float16"),
                        ('"bfloat16', "bfloat16"), ('"uint', "unsigned"), ('"var_uint', "unsigned"),
                        ('"tagged_uint', "unsigned"), ('_array"', "dense_array")]:
        if needle in text:
            tags.add(tag)
    schema = open(os.path.join(REPO, doc["schema"]), encoding="utf-8").read()
    if "enable_auto_type_id = false" in schema or "wire_namespace" in schema:
        tags |= {"named_types", "meta_string"}
    return sorted(tags)


def corpus_rules(doc, compatible, tags):
    from cases_typed import R_COMP, R_SC, R_STRUCT
    rules = R_STRUCT + (R_COMP if compatible else R_SC)
    if "named_types" in tags:
        rules = rules + ["R-UTYPE-2", "R-MSWIRE-1", "R-MSWIRE-5"]
    if doc["ref"]:
        rules = rules + ["R-REF-3", "R-REF-4", "R-STRUCT-4"]
    if "enum" in tags:
        rules = rules + ["R-FIELD-4", "R-ENUM-3"]
    if "union" in tags:
        rules = rules + ["R-FIELD-5", "R-UNION-2"]
    if "ext" in tags:
        rules = rules + ["R-EXT-1", "R-EXT-3"]
    return rules


def corpus_tests(report):
    files = sorted(f for f in os.listdir(CORPUS_DIR) if f.endswith(".json"))
    out = []
    for f in files:
        doc = read_json(os.path.join(CORPUS_DIR, f))
        name = doc["case"]
        area = "structs/" + name
        comp = doc["mode"] == "compatible"
        values = strip(doc["roots"])
        tags = corpus_tags(doc, comp)
        rules = corpus_rules(doc, comp, tags)
        base = CorpusCase(area, "corpus", "%s (%s, %d root%s)" % (
            name, doc["mode"].replace("_", "-"), len(values), "s" * (len(values) != 1)), values, rules, comp,
            doc["ref"], tags, name)
        t = new_valid(base, schemas=[doc["schema"]])
        hexes = {}
        if doc.get("java_hex"):
            hexes["java"] = doc["java_hex"]
        if doc.get("pyfory_hex"):
            hexes["pyfory"] = doc["pyfory_hex"]
        choose_bytes(t, hexes)
        t["_corpus"] = doc
        out.append(t)
        # One test per root as well when there are several (a root can be
        # confirmed where the whole buffer is not).
        if len(values) > 1:
            ends_j = typed.corpus_root_split(name, doc["java_hex"]) if doc.get("java_hex") else []
            ends_p = typed.corpus_root_split(name, doc["pyfory_hex"]) if doc.get("pyfory_hex") else []
            for k in range(len(values)):
                rc = CorpusCase(area, "corpus root %d" % (k + 1), "%s, root %d of %d" % (name, k + 1, len(values)),
                                [values[k]], rules, comp, doc["ref"], tags, name)
                rt = new_valid(rc, schemas=[doc["schema"]])
                hx = {}
                for rt_name, ends, key in (("java", ends_j, "java_hex"), ("pyfory", ends_p, "pyfory_hex")):
                    if len(ends) == len(values):
                        start = 0 if k == 0 else ends[k - 1]
                        hx[rt_name] = doc[key][2 * start:2 * ends[k]]
                if choose_bytes(rt, hx):
                    out.append(rt)
        if name in CORPUS_VARIANTS:
            vkey, vcomp, vroots, note = CORPUS_VARIANTS[name]
            prod = typed.corpus_produce(name, vcomp, vroots() if vroots else None)
            mode = "compatible" if vcomp else "schema-consistent"
            vtags = corpus_tags(doc, vcomp)
            vc = CorpusCase(area, vkey, "%s, %s (%s)" % (name, vkey.replace(" " + mode, ""), mode),
                            strip(prod["roots"]),
                            corpus_rules(doc, vcomp, vtags), vcomp, doc["ref"], vtags, name, note)
            vt = new_valid(vc, schemas=[doc["schema"]])
            hx = {k: prod[k + "_hex"] for k in ("java", "pyfory") if prod.get(k + "_hex")}
            if choose_bytes(vt, hx):
                out.append(vt)
            else:
                report.append("variant of %s not written: %s" % (name, prod))
    return out


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

VALID_KEYS = ["id", "name", "rules", "config", "schemas", "values", "bytes", "alternatives", "writers",
              "confirmed_by", "tags", "since", "upstream_case", "note"]
INVALID_KEYS = ["id", "name", "rules", "config", "schemas", "bytes", "error", "tags", "since", "upstream_case",
                "note"]


def public(t):
    keys = VALID_KEYS if t["_kind"] == "valid" else INVALID_KEYS
    return {k: t[k] for k in keys if k in t}


def check_rules(tests):
    import re
    known = set()
    for f in os.listdir(os.path.join(REPO, "spec")):
        if f.endswith(".md"):
            known |= set(re.findall(r"\*\*(R-[A-Z0-9-]+)\*\*", open(os.path.join(REPO, "spec", f),
                                                                     encoding="utf-8").read()))
    bad = sorted({r for t in tests for r in t["rules"] if r not in known})
    if bad:
        sys.exit("unknown rule ids: %s" % bad)


TYPE_KEYS = frozenset("""null none bool int8 int16 int32 varint32 int64 varint64 tagged_int64 uint8 uint16 uint32
var_uint32 uint64 var_uint64 tagged_uint64 float16 bfloat16 float32 float64 string binary date timestamp duration
decimal enum named_enum list set map ref struct union ext bool_array int8_array int16_array int32_array int64_array
uint8_array uint16_array uint32_array uint64_array float16_array bfloat16_array float32_array float64_array""".split())


def check_nodes(path, values):
    """Every node has exactly one type key (spec/notation.md N-1), which the
    JSON Schema cannot say."""

    def walk(n, where):
        keys = [k for k in n if k in TYPE_KEYS]
        if len(keys) != 1:
            sys.exit("%s: node %s has type keys %s" % (path, where, keys))
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


def validate(docs):
    import jsonschema
    for path, doc in docs.items():
        for t in doc["tests"]:
            if "values" in t:
                check_nodes("%s %s" % (path, t["id"]), t["values"])
    schema = read_json(SCHEMA_JSON)
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    errors = 0
    for path, doc in docs.items():
        for e in v.iter_errors(doc):
            errors += 1
            if errors < 20:
                log("schema error in %s at %s: %s" % (path, "/".join(str(x) for x in e.path), e.message[:300]))
    if errors:
        sys.exit("%d JSON Schema errors" % errors)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true", help="do not build the Java peer")
    ap.add_argument("--peers", help="comma-separated runtimes (default: pyfory,java or $LIBWIRE_PEERS)")
    args = ap.parse_args()
    if args.peers:
        P.select(args.peers.split(","))
    t0 = time.time()
    report = []
    if not args.no_build:
        P.available_peers(build=True)

    valid = builtin_tests(report)
    log("generate: %d schema-less cases encoded (%.1f s)" % (len(valid), time.time() - t0))
    valid += typed_tests(report)
    log("generate: + typed cases, %d (%.1f s)" % (len(valid), time.time() - t0))
    valid += corpus_tests(report)
    log("generate: + corpus cases, %d (%.1f s)" % (len(valid), time.time() - t0))

    details = []
    got = V.confirm(valid, details)
    V.apply(valid, got)
    kept = []
    for ti, t in enumerate(valid):
        alts = []
        for a in t["alternatives"]:
            if len(a["confirmed_by"]) >= V.MIN_CONFIRMATIONS:
                alts.append(a)
            else:
                report.append("alternative of %s/%s dropped (written by %s, confirmed by %s): %s" % (
                    t["_area"], t["_key"], a["writers"], a["confirmed_by"] or "none", a["bytes"][:80]))
        t["alternatives"] = alts
        if len(t["confirmed_by"]) >= V.MIN_CONFIRMATIONS:
            kept.append(t)
        else:
            reasons = [d for d in details if d[0] == ti and d[1] == "bytes"]
            report.append("test %s/%s dropped (bytes written by %s, confirmed by %s)%s" % (
                t["_area"], t["_key"], t["writers"], t["confirmed_by"] or "none",
                "".join("\n    %s: %s" % (d[2], d[3][:300]) for d in reasons)))
    log("generate: verified (%.1f s); %d valid tests kept" % (time.time() - t0, len(kept)))
    for line in report:
        print(line)
    sys.stdout.flush()

    import cases_invalid
    invalid = cases_invalid.build(kept)
    for t in invalid:
        t["_kind"] = "invalid"
        t.setdefault("since", SINCE)

    check_rules(kept + invalid)
    reg = IDS.Registry()
    files = collections.OrderedDict()
    for t in kept + invalid:
        t["id"] = reg.get(t["_kind"], t["_area"], t["_key"], t["_group"])
        files.setdefault((t["_kind"], t["_area"]), []).append(public(t))
    docs = {}
    for (kind, area), tests in files.items():
        path = os.path.join(FIXTURES, kind, area + ".json")
        docs[path] = {"format": FORMAT, "area": area, "tests": tests}
    validate(docs)
    # Remove fixture files no longer produced, then write.
    for kind in ("valid", "invalid"):
        base = os.path.join(FIXTURES, kind)
        for root, _, fs in os.walk(base):
            for f in fs:
                p = os.path.join(root, f)
                if f.endswith(".json") and p not in docs:
                    os.remove(p)
    for path, doc in docs.items():
        write_json(path, doc)
    reg.save()
    import manifest
    manifest.build()

    per_area = collections.Counter()
    for (kind, area), tests in files.items():
        per_area[(kind, area)] += len(tests)
    for (kind, area), n in sorted(per_area.items()):
        print("%-8s %-60s %4d" % (kind, area, n))
    print("valid %d, invalid %d, dropped %d, in %.1f s" % (
        len(kept), len(invalid), len(valid) - len(kept), time.time() - t0))


if __name__ == "__main__":
    main()
