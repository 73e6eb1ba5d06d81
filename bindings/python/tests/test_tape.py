"""The bulk path (BULK_PROPOSAL.md) through the prototype
proposal/wire_tape.c, compiled for the test; skipped without a C compiler.
The same values as on the per-value path, the same bytes."""

import datetime
import decimal
import os
import shutil
import subprocess

import pytest

import libwire
from libwire import _lib
from conftest import PKG, REPO, corpus

import test_roundtrip


@pytest.fixture(scope="module")
def tape_ctx(tmp_path_factory):
    before = _lib.tape
    if _lib.tape is None:
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc:
            pytest.skip("no C compiler for the tape prototype")
        real = os.path.realpath(libwire.library_path)
        out = str(tmp_path_factory.mktemp("tape") / "libwire_tape.so")
        r = subprocess.run(
            [cc, "-O2", "-shared", "-fPIC", "-I",
             os.path.join(REPO, "libwire", "include"),
             os.path.join(PKG, "proposal", "wire_tape.c"),
             "-L", os.path.dirname(real), "-l:" + os.path.basename(real),
             "-Wl,-rpath," + os.path.dirname(real), "-o", out],
            capture_output=True, text=True)
        if r.returncode:
            pytest.skip("cannot compile the prototype: " + r.stderr[-300:])
        assert _lib.attach_tape(out)
    yield libwire.Context(tape=True), libwire.Context(tape=False)
    _lib.tape = before      # other test modules use the per-value path


@pytest.mark.parametrize("value", test_roundtrip.VALUES,
                         ids=[repr(v)[:40] for v in test_roundtrip.VALUES])
def test_tape_round_trip_same_bytes(tape_ctx, value):
    tape, plain = tape_ctx
    data = tape.dumps(value)
    assert data == plain.dumps(value)
    assert tape.loads(data) == value


def test_tape_typed_and_special_values(tape_ctx):
    tape, plain = tape_ctx
    values = [libwire.Int32(-5), libwire.VarUInt64(2 ** 64 - 1),
              libwire.Float16(1.5), libwire.NONE,
              libwire.TypedArray("bool_array", b"\x01\x00"),
              libwire.Timestamp.from_epoch(5, 123456789),
              [1, 2.5, "x", "\u65e5", None, True, [b"b"], {"k": {1, 2}}],
              {"a": decimal.Decimal("1.5"), 3: datetime.date(2020, 1, 2)}]
    data = tape.dumps_all(values)
    assert data == plain.dumps_all(values)
    back = tape.loads_all(data)
    assert back == plain.loads_all(data)
    assert back[5].nanos == 123456789


@pytest.mark.parametrize("value", [
    list(range(-5, 10)), [0.5, -1.0, 1e300, float("inf")] * 2, set(range(8)),
    [True, False] * 3, [libwire.UInt64(2 ** 64 - 1)] * 4,
    [libwire.Float32(1.5)] * 4, [libwire.Int8(-1)] * 5, (1, 2, 3, 4),
    [1, 2, 3, 2.5], [[1, 2, 3, 4], [5, 6, 7, 8]],
], ids=repr)
def test_tape_packed_numeric_lists(tape_ctx, value):
    tape, plain = tape_ctx
    data = tape.dumps(value)
    assert data == plain.dumps(value)
    back = tape.loads(data)
    assert back == plain.loads(data)
    assert [type(x) for x in back] == [type(x) for x in plain.loads(data)]


def test_tape_refs_and_cycles(tape_ctx):
    ctx = libwire.Context(ref=True, tape=True)
    s = [1]
    a = [s, s]
    a.append(a)
    data = ctx.dumps(a)
    assert data == libwire.Context(ref=True, tape=False).dumps(a)
    back = ctx.loads(data)
    assert back[0] is back[1] and back[2] is back


def test_tape_structs_against_corpus(tape_ctx):
    for name in ("test_simple_struct", "test_union_xlang",
                 "test_named_simple_struct", "test_circular_ref_compatible",
                 "test_item"):
        case = corpus(name)
        kw = dict(ref=case["ref"], compatible=case["mode"] == "compatible",
                  schema=os.path.join(REPO, case["schema"]))
        data = bytes.fromhex(case["java_hex"])
        tape = libwire.Context(tape=True, **kw)
        values = tape.loads_all(data)
        assert tape.dumps_all(values) == data, name
        # no schema: structs keep their TypeDefs
        if kw["compatible"] and not kw["ref"]:
            bare = libwire.Context(tape=True, compatible=True)
            assert bare.dumps_all(bare.loads_all(data)) == data, name


def test_tape_errors(tape_ctx):
    tape, _ = tape_ctx
    with pytest.raises(libwire.WireError) as e:
        tape.loads(bytes.fromhex("01ff07"))
    assert e.value.cls == "truncated" and e.value.offset == 3
    with pytest.raises(libwire.WireError) as e:
        tape.dumps(2 ** 64)
    assert e.value.cls == "value"
