"""User types against the real runtimes: the corpus in fixtures/xlang-corpus
holds, for each upstream cross-language case, the bytes pyfory 1.7.7 and the
Java runtime (fory-core 1.6.0) wrote from one FDL schema
(conformance/peers/python/xlang_cases/generate.py regenerates it by running
both runtimes). libwire must read both runtimes' bytes with the schema,
re-encode them byte for byte, and write the Java runtime's bytes for the
case's values."""
import glob
import json
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
CASES = sorted(glob.glob(os.path.join(ROOT, "fixtures", "xlang-corpus", "*.json")))

# Bytes a runtime writes that do not follow the case's schema (runtime bugs),
# with the error class libwire must report for them.
BROKEN = {
    # pyfory 1.7.7 ignores the custom serializer of an ext registered by name
    # in compatible mode and writes a struct body instead (corpus README).
    ("test_skip_name_custom", "pyfory"): "varint",
}

ANNOTATIONS = {"enc", "header", "chunks", "tracked", "approx", "iso", "typedef",
               "ns_enc", "name_enc", "ns_hash", "name_hash"}


def load(path):
    with open(path) as f:
        return json.load(f)


def flags(case):
    f = ["--schema", os.path.join(ROOT, case["schema"])]
    if case["mode"] == "compatible":
        f.append("--compatible")
    if case.get("ref"):
        f.append("--ref")
    return f


def strip(node, anchors):
    """Drops wire-choice annotations and renames anchors by first use."""
    if isinstance(node, list):
        return [strip(x, anchors) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k in ANNOTATIONS:
            continue
        if k in ("anchor", "ref"):
            out[k] = anchors.setdefault(v, "a%d" % len(anchors))
            continue
        out[k] = strip(v, anchors)
    return out


def params():
    for path in CASES:
        case = load(path)
        for rt in ("pyfory", "java"):
            if case.get(rt + "_hex"):
                yield pytest.param(path, rt, id="%s-%s" % (case["case"], rt))


@pytest.mark.parametrize("path,runtime", list(params()))
def test_reads_and_rewrites_runtime_bytes(wire, path, runtime):
    case = load(path)
    hx = case[runtime + "_hex"]
    r = wire.run(["decode", "--hex"] + flags(case), hx)
    broken = BROKEN.get((case["case"], runtime))
    if broken:
        assert r.rc == 1 and r.err.startswith("error: %s at byte" % broken), r
        return
    assert r.rc == 0 and r.err == "", r
    docs = [json.loads(line) for line in r.out.splitlines() if line.strip()]
    assert strip(docs, {}) == strip(case["roots"], {}), "decoded values differ"
    again = wire.run(["encode", "--hex"] + flags(case), r.out)
    assert again.rc == 0, again
    assert again.out.strip() == hx, "decode | encode is not lossless"


@pytest.mark.parametrize("path", CASES, ids=[os.path.basename(p)[:-5] for p in CASES])
def test_writes_java_runtime_bytes(wire, path):
    case = load(path)
    text = "\n".join(json.dumps(r) for r in case["roots"])
    r = wire.run(["encode", "--hex"] + flags(case), text)
    assert r.rc == 0, r
    expected = case.get("java_hex") or case["pyfory_hex"]
    assert r.out.strip() == expected
    if case.get("pyfory_hex") == case.get("java_hex"):
        assert r.out.strip() == case["pyfory_hex"]


def reader_params():
    for path in CASES:
        case = load(path)
        reader = os.path.join(ROOT, case["schema"][:-4] + ".reader.fdl")
        if os.path.exists(reader) and case["mode"] == "compatible":
            for rt in ("pyfory", "java"):
                if case.get(rt + "_hex") and (case["case"], rt) not in BROKEN:
                    yield pytest.param(path, reader, rt,
                                       id="%s-%s" % (case["case"], rt))


@pytest.mark.parametrize("path,reader,runtime", list(reader_params()))
def test_reads_with_another_schema_version(wire, path, reader, runtime):
    """Compatible payloads carry their TypeDefs: a reader with another
    version of the schema still reads them, and keeps them lossless."""
    case = load(path)
    hx = case[runtime + "_hex"]
    f = ["--compatible", "--schema", reader] + (["--ref"] if case.get("ref") else [])
    r = wire.run(["decode", "--hex"] + f, hx)
    assert r.rc == 0 and r.err == "", r
    again = wire.run(["encode", "--hex"] + f, r.out)
    assert again.rc == 0 and again.out.strip() == hx, again


@pytest.mark.parametrize("path", [p for p in CASES if load(p)["mode"] == "compatible"],
                         ids=lambda p: os.path.basename(p)[:-5])
def test_schema_less_decode_of_compatible_payloads(wire, path):
    """Without a schema, TypeDefs give the field names and types."""
    case = load(path)
    hx = case.get("java_hex") or case["pyfory_hex"]
    f = ["--compatible"] + (["--ref"] if case.get("ref") else [])
    r = wire.run(["decode", "--hex"] + f, hx)
    if any("ext" in json.dumps(x) for x in case["roots"]):
        # an ext body is the custom serializer's: only a schema describes it
        assert r.rc == 1 and r.err.startswith("error: unsupported"), r
        return
    assert r.rc == 0, r
    again = wire.run(["encode", "--hex"] + f, r.out)
    assert again.rc == 0 and again.out.strip() == hx, again


@pytest.mark.parametrize("path", [p for p in CASES if load(p)["mode"] != "compatible"],
                         ids=lambda p: os.path.basename(p)[:-5])
def test_same_schema_payload_needs_the_schema(wire, path):
    case = load(path)
    hx = case.get("java_hex") or case["pyfory_hex"]
    r = wire.run(["decode", "--hex"] + (["--ref"] if case.get("ref") else []), hx)
    assert r.rc == 1 and r.err.startswith("error: schema at byte"), r
    assert "not in the schema" in r.err


GENERATOR = os.path.join(ROOT, "conformance", "peers", "python", "xlang_cases", "generate.py")
JAR = os.path.join(ROOT, "conformance", "peers", "java", "target", "fory-java-peer.jar")


def test_runtimes_still_write_the_corpus(tmp_path):
    """Runs pyfory and the Java runtime now, from the schemas, and checks that
    they write exactly the bytes the corpus (and so the tests above) use."""
    import subprocess
    import sys
    assert os.path.exists(JAR), "build the Java peer first (bash .ci/setup)"
    r = subprocess.run([sys.executable, GENERATOR, "--no-build", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 0, r.stderr[-2000:]
    for path in CASES:
        fresh = os.path.join(str(tmp_path), os.path.basename(path))
        assert os.path.exists(fresh), "the generator no longer writes " + path
        old, new = load(path), load(fresh)
        for rt in ("pyfory_hex", "java_hex"):
            assert new.get(rt) == old.get(rt), "%s: %s changed" % (old["case"], rt)
        assert new["roots"] == old["roots"]


def subset(expected, actual):
    """Every field the reader's runtime reported is in libwire's projection
    with the same value (libwire also fills defaults for missing fields)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if "fields" in expected and "fields" in actual:
            return all(k in actual["fields"] and subset(v, actual["fields"][k])
                       for k, v in expected["fields"].items()) and \
                expected.get("type") == actual.get("type")
        return set(expected) <= set(actual) and all(subset(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(subset(a, b) for a, b in zip(expected, actual))
    return expected == actual


def projection_params():
    for path in CASES:
        case = load(path)
        if case.get("reader_schema") and case.get("reader_roots"):
            yield pytest.param(path, id=case["case"])


@pytest.mark.parametrize("path", list(projection_params()))
def test_reads_into_the_readers_version(wire, path):
    """Evolution pairs: the writer's payload read as the reader's version of
    the types (fields matched by tag id or name, unknown ones skipped,
    missing ones defaulted, list <-> array conversions, and the error for a
    null element read into an array), as the runtimes read it."""
    case = load(path)
    hx = case.get("java_hex") or case["pyfory_hex"]
    f = ["--compatible", "--project", "--schema", os.path.join(ROOT, case["reader_schema"])]
    r = wire.run(["decode", "--hex"] + f, hx)
    expected = case["reader_roots"]
    got = [json.loads(line) for line in r.out.splitlines() if line.strip()]
    if "error" in expected:
        k = expected.index("error")
        assert r.rc == 1 and r.err.startswith("error: schema at byte"), r
        assert len(got) == k
        expected = expected[:k]
    else:
        assert r.rc == 0, r
    assert subset(strip(expected, {}), strip(got, {})), (expected, got)
