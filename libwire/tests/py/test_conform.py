"""`wire conform` and `wire testee` on small fixture directories built in
tmp_path from known-good bytes: the summary line, failures of wrong
fixtures, expected-failure lists both ways, a subprocess testee (libwire's
own, and a relay that changes its hello), JUnit XML and the Markdown table."""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TIMEOUT = 120

NO_CONFIG = {"ref": False, "compatible": False}


def valid(tid, values, hexbytes, alternatives=(), tags=(), schemas=(), config=None):
    return {
        "id": tid, "name": tid, "rules": [], "config": config or NO_CONFIG,
        "schemas": list(schemas), "values": values, "bytes": hexbytes,
        "alternatives": [{"bytes": b, "writers": ["java"]} for b in alternatives],
        "writers": ["java", "pyfory"], "confirmed_by": ["java", "pyfory"],
        "tags": list(tags), "since": "0.1.0",
    }


def invalid(tid, hexbytes, error, tags=()):
    return {
        "id": tid, "name": tid, "rules": [], "config": NO_CONFIG, "schemas": [],
        "bytes": hexbytes, "error": error, "tags": list(tags), "since": "0.1.0",
        "note": "",
    }


GOOD_VALID = [
    valid("prim/varint64_m1", [{"varint64": "-1"}], "01ff0701"),
    # two roots, one with a wire-choice annotation that the comparison drops
    valid("prim/two_roots", [{"string": "hi", "enc": "latin1"}, {"varint64": "-1"}],
          "01ff1508686901ff0701"),
    valid("prim/float16", [{"float16": "0x3e00", "approx": "1.5"}], "01ff11003e",
          tags=["float16"]),
]
GOOD_INVALID = [
    invalid("bad/header", "00ff070a", "header"),
    invalid("bad/truncated", "01ff07", "truncated"),
]
# Needs a capability no testee claims.
UNCLAIMED = invalid("bad/unclaimed", "03ff070a", "unsupported", tags=["no_such_feature"])


def write(dirpath, kind, area, tests):
    d = os.path.join(str(dirpath), kind, area)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, area + ".json"), "w") as f:
        json.dump({"format": "libwire-fixtures/1", "area": area, "tests": tests}, f)


def fixtures(tmp_path, extra_valid=(), extra_invalid=()):
    d = tmp_path / "fixtures"
    write(d, "valid", "prim", GOOD_VALID + list(extra_valid))
    write(d, "invalid", "bad", GOOD_INVALID + [UNCLAIMED] + list(extra_invalid))
    return d


def conform(wire, *args):
    p = subprocess.run([wire.path, "conform"] + [str(a) for a in args],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert p.returncode >= 0, "wire conform crashed: %r" % (p,)
    return p


def summary(p):
    lines = p.stdout.splitlines()
    assert lines, p
    return lines[-1]


def test_good_fixtures_pass(wire, tmp_path):
    p = conform(wire, fixtures(tmp_path))
    assert p.returncode == 0, p
    assert summary(p) == "5 passed, 0 failed, 1 skipped"
    assert "not claimed" in p.stdout  # the legend and the column


def test_wrong_fixtures_fail(wire, tmp_path):
    d = fixtures(
        tmp_path,
        extra_valid=[valid("prim/wrong_bytes", [{"varint64": "-1"}], "01ff0702")],
        extra_invalid=[invalid("bad/wrong_class", "01ff07", "varint"),
                       invalid("bad/not_invalid", "01ff0701", "truncated")],
    )
    p = conform(wire, d)
    assert p.returncode == 1, p
    assert summary(p) == "5 passed, 3 failed, 1 skipped"
    for tid in ("prim/wrong_bytes", "bad/wrong_class", "bad/not_invalid"):
        assert "FAIL" in p.stdout and tid in p.stdout, p.stdout


def oob_test(tid, buffers, alternatives=()):
    """Fory Java's list of two byte[], both out of band (spec R-OOB-1)."""
    t = valid(tid, [{"list": [{"binary": "09"}, {"binary": "08"}], "oob": True}],
              "03ff160208290000", tags=["oob"])
    t["buffers"] = buffers
    t["alternatives"] = [dict(a, writers=["java"]) for a in alternatives]
    return t


def test_out_of_band_buffers(wire, tmp_path):
    d = tmp_path / "fixtures"
    write(d, "valid", "prim", [
        oob_test("prim/oob", ["09", "08"]),
        # the alternative (both in band) decodes without buffers
        oob_test("prim/oob_alt", ["09", "08"],
                 alternatives=[{"bytes": "03ff16020829010109010108"}]),
        # too few buffers: the decode fails
        oob_test("prim/oob_short", ["09"]),
    ])
    write(d, "invalid", "bad", [
        invalid("bad/oob_marker", "03ff2902", "value", tags=["oob"]),
        dict(invalid("bad/oob_width", "03ff2e00", "length", tags=["oob"]),
             buffers=["010203"]),
    ])
    p = conform(wire, "-v", d)
    assert summary(p) == "4 passed, 1 failed, 0 skipped", p.stdout
    assert "prim/oob_short" in p.stdout and "out-of-band buffer #1 needed" in p.stdout
    # a testee that does not claim "oob" is not asked
    p = conform(wire, "--testee", relay(wire, tmp_path, "nocaps"), d)
    assert summary(p) == "0 passed, 0 failed, 5 skipped", p.stdout


def test_value_mismatch_is_reported(wire, tmp_path):
    d = tmp_path / "fixtures"
    write(d, "valid", "prim", [valid("prim/wrong_value", [{"varint64": "-2"}], "01ff0701")])
    p = conform(wire, d)
    assert p.returncode == 1
    assert "values differ" in p.stdout and '"-2"' in p.stdout, p.stdout
    assert summary(p) == "0 passed, 1 failed, 0 skipped"


def test_anchors_compare_by_first_use(wire, tmp_path):
    # [x, x] with x a shared list, under reference tracking
    enc = subprocess.run([wire.path, "encode", "--hex", "--ref"],
                         input='{"list": [{"list": [], "anchor": "a"}, {"ref": "a"}]}',
                         capture_output=True, text=True, check=True).stdout.strip()
    d = tmp_path / "fixtures"
    cfg = {"ref": True, "compatible": False}
    write(d, "valid", "refs", [
        valid("refs/shared", [{"list": [{"list": [], "anchor": "zz"}, {"ref": "zz"}]}],
              enc, config=cfg, tags=["ref_tracking"]),
    ])
    p = conform(wire, d)
    assert p.returncode == 0, p
    assert summary(p) == "1 passed, 0 failed, 0 skipped"


def xfail_file(tmp_path, ids):
    path = tmp_path / "xfail.json"
    path.write_text(json.dumps([{"id": i, "reason": "known"} for i in ids]))
    return path


def test_expected_failures_are_skipped(wire, tmp_path):
    d = fixtures(tmp_path, extra_invalid=[invalid("bad/wrong_class", "01ff07", "varint")])
    p = conform(wire, "--expect-failures", xfail_file(tmp_path, ["bad/wrong_class"]), d)
    assert p.returncode == 0, p
    assert "1 expected failures" in p.stdout
    assert summary(p) == "5 passed, 0 failed, 2 skipped"


def test_expected_failure_that_passes_fails_the_run(wire, tmp_path):
    d = fixtures(tmp_path)
    p = conform(wire, "--expect-failures", xfail_file(tmp_path, ["prim/varint64_m1"]), d)
    assert p.returncode == 1, p
    assert "unexpected pass" in p.stdout and "prim/varint64_m1" in p.stdout
    assert summary(p) == "4 passed, 1 failed, 1 skipped"


def test_bad_expect_failures_file_is_a_usage_error(wire, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"id": "x"}')
    p = conform(wire, "--expect-failures", bad, fixtures(tmp_path))
    assert p.returncode == 2, p


def test_wire_testee_as_subprocess(wire, tmp_path):
    d = fixtures(tmp_path,
                 extra_valid=[valid("prim/wrong_bytes", [{"varint64": "-1"}], "01ff0702")])
    inproc = conform(wire, d)
    sub = conform(wire, "--testee", "%s testee" % wire.path, d)
    assert sub.returncode == inproc.returncode == 1, sub
    assert summary(sub) == summary(inproc) == "5 passed, 1 failed, 1 skipped"


def test_testee_protocol(wire):
    reqs = [
        {"id": 1, "op": "decode", "config": NO_CONFIG, "hex": "01ff0701"},
        {"id": 2, "op": "encode", "config": NO_CONFIG, "values": [{"varint64": "-1"}]},
        {"id": 3, "op": "decode", "config": NO_CONFIG, "hex": "01ff07"},
        {"id": 4, "op": "decode", "config": {"ref": False, "compatible": True},
         "schemas": ["fixtures/schemas/xlang/test_item.fdl"],
         "hex": "01ff1c000740e77dddc02d2ac1664815340c2000"},
    ]
    p = subprocess.run([wire.path, "testee"], cwd=ROOT, timeout=TIMEOUT, text=True,
                       capture_output=True,
                       input="".join(json.dumps(r) + "\n" for r in reqs))
    assert p.returncode == 0, p
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    hello = lines[0]["hello"]
    assert hello["name"] == "libwire"
    assert "schema" in hello["capabilities"] and "oob" in hello["capabilities"]
    assert lines[1] == {"id": 1, "ok": True, "values": [{"varint64": "-1"}]}
    assert lines[2] == {"id": 2, "ok": True, "hex": "01ff0701"}
    assert lines[3]["id"] == 3 and lines[3]["ok"] is False
    assert lines[3]["class"] == "truncated"
    assert lines[4]["ok"] is True, lines[4]
    assert lines[4]["values"][0]["struct"]["type"] == "Item"


def test_schemas_relative_to_root(wire, tmp_path):
    with open(os.path.join(ROOT, "fixtures", "xlang-corpus", "test_item.json")) as f:
        case = json.load(f)
    d = tmp_path / "fixtures"
    write(d, "valid", "user", [
        valid("user/item", case["roots"], case["java_hex"], schemas=[case["schema"]],
              config={"ref": False, "compatible": True}, tags=["schema", "compatible"]),
    ])
    for extra in ([], ["--testee", "%s testee" % wire.path]):
        p = conform(wire, "--root", ROOT, *extra, d)
        assert p.returncode == 0, p
        assert summary(p) == "1 passed, 0 failed, 0 skipped"


RELAY = r"""
import json, subprocess, sys
mode = sys.argv[2]
child = subprocess.Popen([sys.argv[1], "testee"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
hello = json.loads(child.stdout.readline())
hello["hello"]["name"] = "relay"
if mode == "nocaps":
    del hello["hello"]["capabilities"]
if mode == "noevolution":
    hello["hello"]["capabilities"].remove("evolution")
print(json.dumps(hello), flush=True)
for line in sys.stdin:
    child.stdin.write(line)
    child.stdin.flush()
    sys.stdout.write(child.stdout.readline())
    sys.stdout.flush()
child.stdin.close()
sys.exit(child.wait())
"""


def relay(wire, tmp_path, mode):
    script = tmp_path / "relay.py"
    script.write_text(RELAY)
    return "%s %s %s %s" % (sys.executable, script, wire.path, mode)


def corpus_case(name):
    with open(os.path.join(ROOT, "fixtures", "xlang-corpus", name + ".json")) as f:
        return json.load(f)


def reader_test(tid, case, reader):
    t = valid(tid, case["roots"], case["java_hex"], schemas=[case["schema"]],
              config={"ref": False, "compatible": True}, tags=["schema", "compatible"])
    t["readers"] = [dict(reader, schemas=[case["reader_schema"]], confirmed_by=["java", "pyfory"])]
    return t


def test_reader_checks(wire, tmp_path):
    """"readers": the bytes read with the reader's schema version; the
    expected fields are a subset of the projection (libwire adds the
    default of the field the writer lacks), or the expected error class."""
    rev = corpus_case("test_schema_evolution_compatible_reverse")
    nul = corpus_case("test_list_array_compatible_nullable_list_to_array_error")
    assert rev["reader_roots"] == [{"struct": {"type": "TwoStringFieldStruct",
                                               "fields": {"f1": {"string": "only_one"}}}}]
    d = tmp_path / "fixtures"
    write(d, "valid", "evo", [
        reader_test("evo/reverse", rev, {"values": rev["reader_roots"]}),
        reader_test("evo/null_to_array", nul, {"error": "schema"}),
    ])
    for extra in ([], ["--testee", "%s testee" % wire.path]):
        p = conform(wire, "--root", ROOT, *extra, d)
        assert p.returncode == 0, p
        assert summary(p) == "2 passed, 0 failed, 0 skipped"
    p = conform(wire, "--root", ROOT, "-v", "--testee", relay(wire, tmp_path, "noevolution"), d)
    assert p.returncode == 0, p
    assert summary(p) == "0 passed, 0 failed, 2 skipped" and "needs evolution" in p.stdout, p
    wrong = {"struct": {"type": "TwoStringFieldStruct", "fields": {"f1": {"string": "other"}}}}
    write(d, "valid", "evo", [
        reader_test("evo/wrong_value", rev, {"values": [wrong]}),
        reader_test("evo/wrong_class", nul, {"error": "truncated"}),
        reader_test("evo/no_error", rev, {"error": "schema"}),
    ])
    p = conform(wire, "--root", ROOT, d)
    assert p.returncode == 1, p
    assert summary(p) == "0 passed, 3 failed, 0 skipped", p
    assert "reader 0: values differ" in p.stdout and "class schema, expected truncated" in p.stdout
    assert "decoded without error, expected class schema" in p.stdout


def test_alternative_bytes_accepted_from_other_testees(wire, tmp_path):
    # "hi" as UTF-8 is the canonical form here; libwire writes Latin-1, which
    # is listed as an alternative: only libwire must match "bytes" exactly.
    d = tmp_path / "fixtures"
    write(d, "valid", "str", [
        valid("str/hi", [{"string": "hi"}], "01ff150a6869", alternatives=["01ff15086869"]),
    ])
    p = conform(wire, d)
    assert p.returncode == 1 and "bytes differ at offset 3" in p.stdout, p
    p = conform(wire, "--testee", relay(wire, tmp_path, "rename"), d)
    assert p.returncode == 0, p
    assert summary(p) == "1 passed, 0 failed, 0 skipped"


def test_hello_without_capabilities_claims_builtins_only(wire, tmp_path):
    d = fixtures(tmp_path, extra_valid=[
        valid("prim/dec", [{"decimal": {"unscaled": "12345", "scale": 2}}],
              subprocess.run([wire.path, "encode", "--hex"],
                             input='{"decimal": {"unscaled": "12345", "scale": 2}}',
                             capture_output=True, text=True, check=True).stdout.strip(),
              tags=["decimal"]),
        valid("prim/needs_union", [{"varint64": "-1"}], "01ff0701", tags=["union"]),
    ])
    p = conform(wire, "-v", "--testee", relay(wire, tmp_path, "nocaps"), d)
    assert p.returncode == 0, p
    assert summary(p) == "6 passed, 0 failed, 2 skipped"
    assert "lists no capabilities" in p.stdout


def test_junit_and_markdown(wire, tmp_path):
    # a declared element type at the root: libwire answers class "unsupported"
    unsup = valid("prim/unsupported", [{"varint64": "5"}], "01ff160104070a")
    d = fixtures(tmp_path, extra_valid=[unsup],
                 extra_invalid=[invalid("bad/wrong_class", "01ff07", "varint"),
                                invalid("bad/<&\"x>", "01ff07", "ref")])
    junit = tmp_path / "out.xml"
    md = tmp_path / "out.md"
    p = conform(wire, "--junit", junit, "--results-md", md, d)
    assert p.returncode == 1
    root = ET.parse(str(junit)).getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("9", "3", "1")
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"valid/prim", "invalid/bad"}
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert len(cases) == 9
    assert "unsupported" in cases["prim/unsupported"].find("failure").get("message")
    assert cases["bad/wrong_class"].find("failure") is not None
    assert cases['bad/<&"x>'].find("failure") is not None
    assert cases["bad/unclaimed"].find("skipped") is not None
    assert cases["prim/varint64_m1"].find("failure") is None
    text = md.read_text()
    assert text.startswith("## libwire ")
    # area, passed, failed, of which unsupported, not claimed, xfail, total
    assert "| valid/prim | 3 | 1 | 1 | 0 | 0 | 4 |" in text
    assert "| invalid/bad | 2 | 2 | 0 | 1 | 0 | 5 |" in text
    assert "| **total** | **5** | **3** | **1** | **1** | **0** | **9** |" in text


def test_malformed_fixture_file_fails(wire, tmp_path):
    d = fixtures(tmp_path)
    (d / "valid" / "prim" / "broken.json").write_text("{not json")
    p = conform(wire, d)
    assert p.returncode == 1
    assert "broken.json" in p.stdout
    assert summary(p) == "5 passed, 1 failed, 1 skipped"


def test_usage_errors(wire, tmp_path):
    assert conform(wire, "--frobnicate").returncode == 2
    assert conform(wire, tmp_path / "does-not-exist").returncode == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    p = conform(wire, empty)
    assert p.returncode == 2 and "no fixture files" in p.stderr, p
    p = conform(wire, "--testee", "exit 0", fixtures(tmp_path))
    assert p.returncode == 2 and "no hello" in p.stderr, p


def test_sub_areas_count_under_their_first_segment(wire, tmp_path):
    d = tmp_path / "fixtures"
    write(d, "valid", "one", [valid("grp/a", [{"varint64": "-1"}], "01ff0701")])
    write(d, "valid", "two", [valid("grp/b", [{"varint64": "-1"}], "01ff0701")])
    for name in ("one", "two"):  # areas "grp/one" and "grp/two"
        path = d / "valid" / name / (name + ".json")
        f = json.loads(path.read_text())
        f["area"] = "grp/" + name
        path.write_text(json.dumps(f))
    md = tmp_path / "out.md"
    p = conform(wire, "--results-md", md, d)
    assert p.returncode == 0, p
    assert "| valid/grp | 2 | 0 | 0 | 0 | 0 | 2 |" in md.read_text()
    rows = [line for line in p.stdout.splitlines() if line.startswith("valid/")]
    assert len(rows) == 1 and rows[0].split()[:3] == ["valid/grp", "2", "0"], p.stdout


def test_strings_with_nul(wire, tmp_path):
    node = {"string": "a\u0000b"}
    hx = subprocess.run([wire.path, "encode", "--hex"], input=json.dumps(node),
                        capture_output=True, text=True, check=True).stdout.strip()
    d = tmp_path / "fixtures"
    write(d, "valid", "str", [valid("str/nul", [node], hx)])
    for extra in ([], ["--testee", "%s testee" % wire.path]):
        p = conform(wire, *extra, d)
        assert p.returncode == 0, p
        assert summary(p) == "1 passed, 0 failed, 0 skipped"


def _manifest(d):
    import zlib
    files = []
    for kind in ("valid", "invalid"):
        for top, _, names in os.walk(os.path.join(str(d), kind)):
            for n in sorted(names):
                p = os.path.join(top, n)
                rel = os.path.relpath(p, str(d))
                with open(p, "rb") as f:
                    files.append({"path": "fixtures/" + rel, "crc32": "%08x" % zlib.crc32(f.read())})
    with open(os.path.join(str(d), "MANIFEST.json"), "w") as f:
        json.dump({"files": files}, f)


def test_manifest_reports_modified_and_missing_files(wire, tmp_path):
    d = fixtures(tmp_path)
    _manifest(d)
    p = conform(wire, d)
    assert p.returncode == 0, p.stdout + p.stderr
    # one byte of a valid fixture changed: its tests are not run, the file fails
    vf = os.path.join(str(d), "valid", "prim", "prim.json")
    with open(vf) as f:
        text = f.read()
    with open(vf, "w") as f:
        f.write(text.replace("01ff0701", "01ff0702", 1))
    os.remove(os.path.join(str(d), "invalid", "bad", "bad.json"))
    p = conform(wire, d)
    assert p.returncode == 1
    assert "valid/prim/prim.json" in p.stdout and "modified: CRC-32" in p.stdout
    assert "invalid/bad/bad.json" in p.stdout and "missing" in p.stdout
    assert "prim/varint64_m1" not in p.stdout


def test_struct_fields_compared_in_wire_order(wire, tmp_path):
    # Item {name: string}: two fields are needed for an order, so use the
    # by-name struct of a two-field schema
    schema = tmp_path / "two.fdl"
    schema.write_text("message Two [id=101] {\n    string a = 1;\n    string b = 2;\n}\n")
    cfg = {"ref": False, "compatible": False}
    good = valid("two/ok", [{"struct": {"type": "Two", "fields": {"a": {"string": "x"}, "b": {"string": "y"}}}}],
                 "", schemas=[str(schema)], tags=["struct"], config=cfg)
    enc = subprocess.run([wire.path, "testee"], input=json.dumps(
        {"id": 1, "op": "encode", "config": cfg, "schemas": [str(schema)], "values": good["values"]}) + "\n",
        capture_output=True, text=True, timeout=TIMEOUT).stdout.splitlines()[1]
    good["bytes"] = json.loads(enc)["hex"]
    swapped = json.loads(json.dumps(good))
    swapped["id"] = "two/swapped"
    f = swapped["values"][0]["struct"]["fields"]
    swapped["values"][0]["struct"]["fields"] = {"b": f["b"], "a": f["a"]}
    d = tmp_path / "fixtures"
    write(d, "valid", "two", [good, swapped])
    p = conform(wire, d)
    assert p.returncode == 1
    assert "two/swapped" in p.stdout and "wire order" in p.stdout
    assert "FAIL        two/ok" not in p.stdout


def test_error_offsets_checked(wire, tmp_path):
    # "01ff150761": string header (1 << 2) | 3 has a reserved encoding; libwire
    # reports it at byte 3 (R-ERR-3)
    good = invalid("off/ok", "01ff150761", "string")
    good["offset"] = 3
    bad = invalid("off/wrong", "01ff150761", "string")
    bad["offset"] = 2
    d = tmp_path / "fixtures"
    write(d, "invalid", "off", [good, bad])
    p = conform(wire, d)
    assert p.returncode == 1, p.stdout
    assert "off/wrong" in p.stdout and "expected byte 2 (R-ERR-3)" in p.stdout
    assert "FAIL        off/ok" not in p.stdout
