"""The CLI on payloads the real runtimes write now for ordinary classes
(libwire/tests/cli/writers: pyfory 1.7.7, fory-core 1.6.0, Fory Go 1.6.1),
with no flags: `decode --plain | jq`, `schema` then `decode --schema`,
`decode | encode` byte for byte - including a struct type that occurs twice
in one message and a recursive type (TypeDef back-references, issue 11
item 1) - and plain JSON back to the runtime's bytes."""

import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
WRITERS = os.path.join(HERE, "..", "cli", "writers")
sys.path.insert(0, WRITERS)
import pyfory_writer  # noqa: E402
import payloads as writers  # noqa: E402

_CACHE = {}


def payloads(runtime):
    if runtime not in _CACHE:
        if runtime == "pyfory":
            _CACHE[runtime] = writers.pyfory_payloads()
        elif runtime == "java":
            assert os.path.exists(writers.JAR), "build the Java peer first (bash .ci/setup)"
            _CACHE[runtime] = writers.java_payloads()
        else:
            _CACHE[runtime] = writers.go_payloads()
    return _CACHE[runtime]


RUNTIMES = ["pyfory", "java", "go"]


def wire_run(wire, args, data, text=False):
    p = subprocess.run([wire.path] + args, input=data, capture_output=True, timeout=60)
    assert p.returncode >= 0, "wire crashed: %r" % (p,)
    return p


def ok(wire, args, data):
    p = wire_run(wire, args, data)
    assert p.returncode == 0 and p.stderr == b"", (args, p.stderr.decode())
    return p.stdout


def cases():
    for rt in RUNTIMES:
        names = ["order", "person"] + (["tree"] if rt != "go" else [])
        for n in names:
            yield pytest.param(rt, n, id="%s-%s" % (rt, n))


@pytest.mark.parametrize("runtime,name", list(cases()))
def test_decode_encode_roundtrip_without_flags(wire, runtime, name):
    """No schema, no --compatible: the mode comes from the bytes, and the
    notation keeps every TypeDef (repeated types refer back to theirs)."""
    b = payloads(runtime)[name]
    text = ok(wire, ["decode"], b)
    assert ok(wire, ["encode"], text) == b
    if name in ("person", "tree"):
        # the second Address / every inner Node refers to an earlier TypeDef
        assert b'"typedef":0' in text or b'"typedef":1' in text, text


@pytest.mark.parametrize("runtime", ["pyfory", "java"])
def test_plain_and_jq(wire, runtime):
    if not shutil.which("jq"):
        pytest.fail("jq is not installed (bash .ci/setup installs it)")
    b = payloads(runtime)["order"]
    plain = ok(wire, ["decode", "--plain"], b)
    name = subprocess.run(["jq", "-r", ".customer.name"], input=plain, capture_output=True,
                          check=True).stdout
    assert name == b"Ada Lovelace\n"
    v = json.loads(plain)
    assert v["id"] == 1001
    assert [l["product"]["price"] for l in v["lines"]] == ["349.99", "0.05"]
    assert v["placed"] == "2024-02-29T12:34:56.789Z" and v["due"] == "2024-03-15"
    assert v["tags"] == {"channel": "web", "gift": "no"}
    assert v["blob"] == "AAEC/w=="


@pytest.mark.parametrize("runtime,name", list(cases()))
def test_inferred_schema_reads_the_payload(wire, runtime, name, tmp_path):
    """`wire schema` gives FDL whose TypeDefs are the writer's: decoding with
    it needs no "typedef" annotation, and re-encodes the same bytes."""
    b = payloads(runtime)[name]
    fdl = tmp_path / "inferred.fdl"
    fdl.write_bytes(ok(wire, ["schema"], b))
    text = ok(wire, ["decode", "--schema", str(fdl)], b)
    assert b'"typedef"' not in text, text[:400]
    assert b'"type":"shop.' in text
    assert ok(wire, ["encode", "--schema", str(fdl), "--compatible"], text) == b
    plain_no_schema = ok(wire, ["decode", "--plain"], b)
    plain = ok(wire, ["decode", "--plain", "--schema", str(fdl)], b)
    if name != "order":
        assert plain == plain_no_schema


def test_plain_json_back_to_pyfory(wire, tmp_path):
    """decode --plain, then encode --plain with the inferred schema: pyfory's
    own bytes, and pyfory reads them back to an equal object."""
    b = payloads("pyfory")["order"]
    fdl = tmp_path / "shop.fdl"
    fdl.write_bytes(ok(wire, ["schema"], b))
    plain = ok(wire, ["decode", "--plain"], b)
    out = ok(wire, ["encode", "--plain", "--compatible", "--schema", str(fdl), "--type", "shop.Order"], plain)
    assert out == b
    f = pyfory_writer.fory()
    assert f.deserialize(out) == pyfory_writer.order()


@pytest.mark.parametrize("runtime", ["pyfory", "java"])
def test_repeated_types_with_a_schema_whose_typedef_differs(wire, runtime, tmp_path):
    """A schema whose Address has one more field than the writer's: each
    struct keeps the writer's TypeDef (printed once, referred to after), and
    decode | encode is still exact."""
    fdl = tmp_path / "v2.fdl"
    fdl.write_text("package shop;\noption enable_auto_type_id = false;\n"
                   "option wire_fields_by_name = true;\n"
                   "message Address { string city = 1; string street = 2; string zip = 3; }\n"
                   "message Person { Address home = 1; string name = 2; Address work = 3; }\n")
    b = payloads(runtime)["person"]
    text = ok(wire, ["decode", "--schema", str(fdl)], b)
    doc = json.loads(text)
    home = doc["struct"]["fields"]["home"]["struct"]
    work = doc["struct"]["fields"]["work"]["struct"]
    # numbered in pre-order: Person's own TypeDef (when printed) is #0
    person_td = 1 if isinstance(doc["struct"].get("typedef"), str) else 0
    assert isinstance(home["typedef"], str), doc
    assert work["typedef"] == person_td, doc
    assert ok(wire, ["encode", "--schema", str(fdl), "--compatible"], text) == b


def test_same_schema_payload_says_what_it_can(wire):
    b = writers.pyfory_payloads(False)["order"]
    p = wire_run(wire, ["schema"], b)
    assert p.returncode == 1
    err = p.stderr.decode()
    assert "same-schema payload carries no TypeDefs" in err and "registered by name" in err
    assert err.count("\n") == 2 and "hint: " in err


def test_same_schema_tree_reads_with_the_schema_of_the_compatible_one(wire, tmp_path):
    """The FDL inferred from a compatible payload also gives the schema hash
    pyfory writes in same-schema mode."""
    fdl = tmp_path / "tree.fdl"
    fdl.write_bytes(ok(wire, ["schema"], payloads("pyfory")["tree"]))
    b = writers.pyfory_payloads(False)["tree"]
    plain = json.loads(ok(wire, ["decode", "--plain", "--schema", str(fdl)], b))
    assert plain["children"][0]["children"][0]["value"] == 4
