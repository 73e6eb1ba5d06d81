"""The node-level API (Document, Node), the value notation and the
conformance testee."""

import glob
import json
import os
import subprocess
import sys

import pytest

import libwire
from libwire import ids
from libwire.notation import add_notation_root, to_notation
from conftest import CORPUS, PKG, REPO, WIRE_CLI, corpus, schema


def test_build_exact_wire_types_and_choices():
    ctx = libwire.Context()
    with ctx.document() as doc:
        lst = doc.list([doc.int(5, "int32"), doc.uint(7, ids.VAR_UINT32),
                        doc.string("abc", "utf16"), doc.float(1.5, "float32"),
                        doc.null()])
        lst.header = 0x02   # has-null, not same-type
        doc.add_root(lst)
        m = doc.map([(doc.string("k"), doc.bool(True))])
        doc.add_root(m)
        doc.add_root(doc.decimal(-12345678901234567890, 3))
        data = doc.encode()
    with ctx.decode(data) as back:
        a, b, c = back.roots
        kids = a.children
        assert [k.type_name for k in kids] == ["int32", "var_uint32", "string",
                                               "float32", "null"]
        assert kids[0].int == 5 and kids[1].uint == 7
        assert kids[2].text == "abc" and kids[2].string_encoding == "utf16"
        assert kids[3].float == 1.5 and kids[3].float_bits == 0x3fc00000
        assert a.header == 0x02
        (k, v), = b.items()
        assert k.text == "k" and v.int == 1 and b.chunks
        assert c.decimal == (-12345678901234567890, 3)
        assert back.encode() == data


def test_decoded_document_reencodes_pyfory_bytes_exactly(fory):
    # pyfory writes "a\u00e9\u65e5" as UTF-16 (libwire's policy: UTF-8);
    # the document records the choice.
    data = fory.serialize(["a\u00e9\u65e5", {"x": None}, "\U0001F600"])
    ctx = libwire.Context()
    with ctx.decode(data) as doc:
        s = doc.root(0).child(0)
        assert s.string_encoding == "utf16"
        assert doc.encode() == data
    assert libwire.dumps(libwire.loads(data)) != data   # friendly API: policy


def test_struct_nodes():
    ctx = libwire.Context(compatible=True, schema=schema("test_item"))
    with ctx.document() as doc:
        s = doc.struct("Item", {"name": doc.string("test_item_1")})
        doc.add_root(s)
        assert s.fields[0][0] == "name" and s.user_type == ctx.find_type("Item")
        data = doc.encode()
    assert data.hex() == corpus("test_item")["java_hex"][:len(data) * 2]


def _cli(args, inp):
    return subprocess.run([WIRE_CLI] + args, input=inp, capture_output=True,
                          text=True)


def _strip_approx(x):
    if isinstance(x, dict):
        return {k: _strip_approx(v) for k, v in x.items() if k != "approx"}
    if isinstance(x, list):
        return [_strip_approx(v) for v in x]
    return x


CASES = sorted(os.path.basename(p)[:-5]
               for p in glob.glob(os.path.join(CORPUS, "*.json")))


@pytest.mark.parametrize("name", CASES)
def test_notation_matches_cli_and_reencodes(name):
    case = corpus(name)
    ref, comp = case["ref"], case["mode"] == "compatible"
    ctx = libwire.Context(ref=ref, compatible=comp,
                          schema=os.path.join(REPO, case["schema"]))
    for who in ("java_hex", "pyfory_hex"):
        hx = case[who]
        if (name, who) == ("test_skip_name_custom", "pyfory_hex"):
            continue   # pyfory 1.7.7 writer bug, see the corpus README
        with ctx.decode(bytes.fromhex(hx)) as doc:
            notes = [to_notation(doc, i, ref) for i in range(len(doc))]
        if os.path.exists(WIRE_CLI):
            args = ["decode", "--hex", "--schema",
                    os.path.join(REPO, case["schema"])]
            args += ["--ref"] if ref else []
            args += ["--compatible"] if comp else []
            out = _cli(args, hx)
            assert out.returncode == 0, out.stderr
            expect = [json.loads(line) for line in out.stdout.splitlines()]
            assert _strip_approx(notes) == _strip_approx(expect)
        with ctx.document() as doc:
            for n in notes:
                add_notation_root(doc, json.loads(json.dumps(n)))
            assert doc.encode().hex() == hx


def test_notation_parse_errors():
    ctx = libwire.Context()
    for bad in ({}, {"int32": "1", "string": "x"}, {"int8": "300"},
                {"nope": 1}, {"ref": "missing"}, {"list": 5}):
        with ctx.document() as doc:
            with pytest.raises(libwire.WireError) as e:
                add_notation_root(doc, bad)
            assert e.value.cls == "notation", bad


def _testee(requests, *args):
    env = dict(os.environ)
    inp = "".join(json.dumps(r) + "\n" for r in requests)
    p = subprocess.run([sys.executable, os.path.join(PKG, "libwire_testee.py")]
                       + list(args), input=inp, capture_output=True, text=True,
                       env=env, cwd=REPO, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(line) for line in p.stdout.splitlines()]
    return lines[0], lines[1:]


def test_testee_protocol():
    item = corpus("test_item")
    reqs = [
        {"id": 1, "op": "decode", "config": {"ref": False, "compatible": False},
         "hex": "01ff160302ff0702ff150461fd"},
        {"id": 2, "op": "encode", "config": {"ref": False, "compatible": False},
         "values": [{"list": [{"varint64": "1"}, {"string": "a"},
                              {"null": None}]}, {"int8": "-1"}]},
        {"id": 3, "op": "decode", "config": {"ref": False, "compatible": True},
         "schemas": [item["schema"]], "hex": item["java_hex"]},
        {"id": 4, "op": "encode", "config": {"ref": False, "compatible": True},
         "schemas": [item["schema"]], "values": item["roots"]},
        {"id": 5, "op": "decode", "config": {}, "hex": "01ff07"},
        {"id": 6, "op": "encode", "config": {}, "values": [{"bogus": 1}]},
        {"id": 7, "op": "frobnicate", "config": {}},
    ]
    hello, resps = _testee(reqs)
    assert hello["hello"]["name"] == "libwire-python"
    assert "ref_tracking" in hello["hello"]["capabilities"]
    r = {x["id"]: x for x in resps}
    assert r[1]["ok"] and r[1]["values"][0]["list"][1] == {
        "string": "a", "enc": "latin1"}
    assert r[2] == {"id": 2, "ok": True,
                    "hex": "01ff160302ff0702ff150461fd" + "01ff02ff"}
    assert r[3]["ok"] and r[3]["values"][0]["struct"]["fields"]["name"][
        "string"] == "test_item_1"
    assert r[4]["ok"] and r[4]["hex"] == item["java_hex"]
    assert not r[5]["ok"] and r[5]["class"] == "truncated"
    assert not r[6]["ok"] and r[6]["class"] == "notation"
    assert not r[7]["ok"] and r[7]["class"] == "arg"


def test_testee_capabilities_option():
    hello, resps = _testee([], "--capabilities", "ref_tracking,schema")
    assert hello["hello"]["capabilities"] == ["ref_tracking", "schema"]
    assert resps == []


def _conform(extra):
    p = subprocess.run([WIRE_CLI, "conform", "-v"] + extra +
                       [os.path.join(REPO, "fixtures")], capture_output=True,
                       text=True, cwd=REPO, timeout=600)
    fails = sorted(line.split()[1] for line in p.stdout.splitlines()
                   if line.startswith("FAIL"))
    return p.stdout.splitlines()[-1] if p.stdout else p.stderr, fails


@pytest.mark.skipif(not os.path.exists(WIRE_CLI), reason="no build/bin/wire")
def test_conformance_suite_same_as_libwire_in_process():
    """`wire conform` through this testee gives the results of libwire
    in-process: the binding adds no failure of its own."""
    probe = subprocess.run([WIRE_CLI, "conform", "--help"],
                           capture_output=True, text=True)
    if probe.returncode != 0 or not os.path.isdir(
            os.path.join(REPO, "fixtures", "valid")):
        pytest.skip("this wire has no conform command or no fixtures")
    cmd = "%s %s" % (sys.executable, os.path.join(PKG, "libwire_testee.py"))
    summary, fails = _conform(["--testee", cmd])
    base_summary, base_fails = _conform([])
    assert "passed" in summary, summary
    assert fails == base_fails
    # the tests that need a capability the binding does not claim (out-of-
    # band buffers, "oob") are not claimed: skipped here, passed in-process
    sys.path.insert(0, PKG)
    import libwire_testee
    unclaimed = _tests_needing_other_than(libwire_testee.CAPABILITIES)
    passed, failed, skipped = _counts(summary)
    bpassed, bfailed, bskipped = _counts(base_summary)
    assert (passed, failed, skipped) == (bpassed - unclaimed, bfailed,
                                         bskipped + unclaimed), (summary, base_summary)


def _counts(summary):
    """(passed, failed, skipped) of a `wire conform` summary line."""
    words = summary.replace(",", "").split()
    return tuple(int(words[words.index(w) - 1]) for w in ("passed", "failed", "skipped"))


def _tests_needing_other_than(caps):
    """Fixture tests with a tag outside caps (the runner's capabilities)."""
    n = 0
    for path in glob.glob(os.path.join(REPO, "fixtures", "*", "**", "*.json"), recursive=True):
        with open(path) as f:
            for t in json.load(f).get("tests", []):
                if any(tag not in caps for tag in t.get("tags", [])):
                    n += 1
    return n
