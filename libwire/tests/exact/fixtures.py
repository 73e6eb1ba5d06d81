"""Writes the exactness fixtures (fixtures/valid/structs/exact.json) from
what the runtimes write now: every payload of the harness (models_py.py,
ExactWriter.java, gowriter/) with the values libwire decodes from it with
the runtime user's schema (fixtures/schemas/exact/) and the runtime as its
peer (config.peer, spec 3.10). The writer's bytes are the fixture bytes;
confirmed_by lists the writer when it reads its bytes back to the object it
wrote, and, for a reader check (camel, evo: the payload read with v2.fdl),
when the writer's v2 classes read the payload to v2's object (the same
checks conformance/tools/verify.py repeats).

    python3 libwire/tests/exact/fixtures.py [--wire build/bin/wire]

Then run conformance/tools/manifest.py --write."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402

REPO = harness.REPO
sys.path.insert(0, os.path.join(REPO, "conformance", "tools"))
from common import fixture_files, read_json, write_json  # noqa: E402
import ids as id_registry  # noqa: E402
from fixtures_check import validate  # noqa: E402

OUT = os.path.join(REPO, "fixtures", "valid", "structs", "exact.json")
IDS = os.path.join(REPO, "conformance", "tools", "ids.json")

BASE_RULES = ["R-PAYLOAD-1", "R-UTYPE-1", "R-STRUCT-1", "R-FIELD-1", "R-FIELD-2"]


def rules_of(rt, model, compat):
    """The rules and errata a payload exercises, beyond BASE_RULES."""
    r = ["R-TDEF-1", "R-SHARED-5"] if compat else ["R-SHASH-1", "R-SHASH-2", "R-SHASH-3"]
    named_fields = {"order", "media", "person", "nested", "empty", "optionals", "refoff",
                    "samples", "tree"}
    if not compat:
        if rt == "pyfory" and model in named_fields:
            r += ["R-PEER-2", "E-33"]
        if rt == "pyfory" and model == "empty":
            r += ["R-PEER-1", "E-32"]
        if rt == "java" and model == "refoff":
            r += ["R-PEER-1", "E-40"]
        if rt == "go":
            r += ["R-PEER-1", "E-41"]
        if rt == "go" and model in ("tree", "samples", "media"):
            r += ["R-MSWIRE-8", "R-MSWIRE-9", "E-46"]
        if rt == "pyfory" and model == "refoff":
            r += ["E-40"]
    if rt == "go" and model == "any":
        r += ["R-PEER-3", "E-42"]
    if rt == "go" and model == "order" and not compat:
        r += ["R-PEER-3"]
    if model == "any" and rt != "go":
        r += ["R-FDLX-8", "E-43"]
    if model == "shared":
        r += ["R-FDLX-9", "R-WLIST-8"] + (["E-45"] if rt == "pyfory" else [])
    if model == "order":
        r += ["R-WLIST-8"]
    if model == "reflist":
        r += ["R-WREF-2", "R-WLIST-1", "R-WLIST-8", "E-50"] + ([] if compat else ["R-WLIST-5"])
    if model == "longname" and rt in ("pyfory", "go"):
        r += ["R-PEER-4", "R-MSWIRE-3", "E-26"]
    if model in ("tree", "person", "order", "media", "samples") and compat:
        r += ["N-5.2"]
    if rt == "go" and model == "tree" and compat:
        r += ["N-5.3", "E-44"]
    if model in harness.UNION_MODELS:
        r += ["R-UNION-1", "R-UNION-2"] + (["R-UNION-5"] if model != "ulabel" else [])
    if model in harness.OOB_MODELS:
        r += ["R-PAYLOAD-3", "R-BIN-5", "R-OOB-1", "R-OOB-2", "R-OOB-3", "R-OOB-6", "E-48"]
    if model == "mapfixed":
        r += ["R-UMODE-2"]
    if model in harness.SHAPES_MODELS:
        r += ["R-UNION-1", "R-UNION-2", "R-UNION-5", "R-UMODE-2"] + \
            (["R-LIST-3", "E-49"] if compat and rt == "pyfory" else [])
    if model == "nestedref":
        r += [] if compat else ["E-52"] + (["R-PEER-3"] if rt == "go" else [])
    if model == "words":
        r += ["R-WSTR-1", "E-53"]
    if model == "nests":
        r += ["R-WLIST-1", "R-WLIST-8", "E-54"] + ([] if compat else ["E-50"])
    if model == "nulls":
        r += ["R-LIST-5", "R-WLIST-2", "E-57"]
    if model == "nullarrays":
        r += ["E-55"]
    if model == "reflistoff":
        r += ["R-WLIST-8", "E-40", "E-56"]
    if model == "camel" and compat:
        r += ["R-EVOLVE-7", "E-47"]
    if model == "evo" and compat:
        r += ["R-EVOLVE-8"]
    if model in harness.FIT_MODELS:
        r += ["R-FIELD-3", "E-58"]
    return BASE_RULES + r


def tags_of(model, compat):
    t = ["peer", "schema", "struct"] + (
        ["union"] if model in harness.UNION_MODELS else
        ["union", "enum", "dense_array", "unsigned"] if model in harness.SHAPES_MODELS else
        [] if model.startswith("fitid_") else ["named_types"])
    if compat:
        t += ["compatible", "typedef"]
    if model in harness.REF:
        t.append("ref_tracking")
    if model in ("order", "media", "optionals"):
        t.append("enum") if model != "optionals" else None
    if model == "order":
        t += ["decimal", "temporal"]
    if model in ("fitid_enum", "fitname_enum"):
        t.append("enum")
    if model.startswith("fitname_"):
        t.append("meta_string")
    if model in ("sample", "samples", "blobs"):
        t.append("dense_array")
    if model in harness.OOB_MODELS:
        t.append("oob")
    if model in ("order", "camel", "evo", "refoff", "empty", "longname", "media", "sample",
                 "samples", "tree", "person", "nested", "optionals", "any", "shared", "blobs",
                 "mapfixed"):
        t.append("meta_string")
    return sorted(set(t))


def projected(wire, rt, key, data):
    """The reader check of camel/evo (R-EVOLVE-7/8): v2.fdl's view."""
    args = ["decode", "--project", "--schema", os.path.join(harness.SCHEMAS, "v2.fdl")] + \
        harness.mode_args(key) + harness.peer_args(rt)
    p = wire.run(args, data)
    if p.returncode != 0:
        raise SystemExit("%s %s: %s" % (rt, key, p.stderr.decode()))
    return [json.loads(line) for line in p.stdout.decode().splitlines()]


def main(argv):
    wire = harness.Wire(os.path.abspath(argv[argv.index("--wire") + 1]) if "--wire" in argv
                        else os.path.join(REPO, "build", "bin", "wire"))
    with open(IDS, encoding="utf-8") as f:
        reg = json.load(f)
    tests = []
    for rt in harness.RUNTIMES:
        p = harness.peer(rt)
        ps = p.payloads()
        confirmed = p.read_back(ps)
        # the reader checks: the v1 payload read with the runtime's v2
        # classes (the writer's read mode, NAME.MODE.v2)
        confirmed.update(p.read_back({k + ".v2": ps[k] for k in ps
                                      if k.endswith(".compat") and k.split(".")[0] in harness.PROJECTED}))
        for key in sorted(ps):
            model, mode = key.split(".")
            compat = mode == "compat"
            data = ps[key]
            s = harness.schema_args(rt, key)
            args = ["decode"] + s + harness.mode_args(key) + harness.ref_args(key) + \
                harness.peer_args(rt)
            values = [json.loads(line) for line in wire.ok(args, data).decode().splitlines()]
            out = wire.ok(["encode"] + s + harness.mode_args(key) + harness.ref_args(key) +
                          harness.peer_args(rt),
                          "\n".join(json.dumps(v) for v in values).encode())
            if out != data or harness.buffers_of(out) != harness.buffers_of(data):
                raise SystemExit("%s %s: libwire does not write the bytes back" % (rt, key))
            group = "exact.%s" % rt
            case = "valid|structs/exact|%s %s" % (rt, key)
            if case not in reg["ids"]:
                n = reg["next"].get(group, 1)
                reg["ids"][case] = "%s.%04d" % (group, n)
                reg["next"][group] = n + 1
            schemas = [x for x in s if x != "--schema"]
            t = {
                "id": reg["ids"][case],
                "name": "%s %s (%s mode)%s" % (rt, model, "compatible" if compat else "same-schema",
                                               ", reference tracking" if model in harness.REF
                                               else ""),
                "rules": rules_of(rt, model, compat),
                "config": {"ref": model in harness.REF, "compatible": compat, "peer": rt},
                "schemas": [os.path.relpath(x, REPO) for x in schemas],
                "values": values,
                "bytes": data.hex(),
                "alternatives": [],
                "writers": [rt],
                "confirmed_by": [rt] if confirmed.get(key) == "ok" else [],
                "tags": tags_of(model, compat),
                "since": "0.1.0",
                "note": "libwire/tests/exact: model %s of the %s writer" % (model, rt),
            }
            if harness.buffers_of(data):  # out-of-band buffers (spec 1.12.1)
                t["buffers"] = [b.hex() for b in harness.buffers_of(data)]
            if compat and model in harness.PROJECTED:
                t["readers"] = [{
                    "schemas": ["fixtures/schemas/exact/v2.fdl"],
                    "values": projected(wire, rt, key, data),
                    "confirmed_by": [rt] if confirmed.get(key + ".v2") == "ok" else [],
                }]
            tests.append(t)
    doc = {"format": "libwire-fixtures/1", "area": "structs/exact", "tests": tests}
    validate({OUT: doc})  # fixtures/schema.json, as generate.py does for its files
    write_json(OUT, doc)
    # ids.json in the form conformance/tools/generate.py writes: retired =
    # the registered ids that no fixture file holds.
    present = {t["id"] for p in fixture_files() for t in read_json(p)["tests"]}
    with open(IDS, "w", encoding="utf-8") as f:
        f.write(id_registry.text(reg["ids"], reg["next"], [v for v in reg["ids"].values() if v not in present]))
    print("wrote %d tests to %s" % (len(tests), os.path.relpath(OUT, REPO)))


if __name__ == "__main__":
    main(sys.argv[1:])
