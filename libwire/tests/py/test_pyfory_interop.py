"""libwire against the real pyfory runtime (pyfory 1.7.7, xlang, compatible=False).

For every case in pyfory_cases.CASES:
  (a) pyfory serializes the value;
  (b) `wire decode --hex` prints the expected notation (readable annotations
      "approx"/"iso" ignored; "enc", "header", "chunks", "tracked" and the
      anchor structure compared);
  (c) `wire decode | wire encode` gives back pyfory's bytes exactly;
  (d) `wire encode` of the expected notation without wire-choice annotations
      gives pyfory's bytes, or the Java runtime's where the Java writer policy
      differs (test id says `writer=java`);
  (e) pyfory deserializes that fresh encoding to a value equal to the
      original (same shape of shared references when ref=True).
"""

import array
import datetime
import decimal
import enum
import math
import struct

import pytest

import pyfory
import pyfory_peer as peer
from notation import canon, drop_untracked, strip_choices
from pyfory_cases import CASES

REF_CASES = [c for c in CASES if c.ref]

_FORY = {}


def fresh_fory(ref):
    f = pyfory.Fory(xlang=True, ref=ref, compatible=False)
    peer._pin_types(f)  # pinned int8/float32/... classes and ordered sets
    return f


def fory_for(ref):
    if ref not in _FORY:
        _FORY[ref] = fresh_fory(ref)
    return _FORY[ref]


_PREP = {}


def prepare(case):
    """(fory instance, python roots) of a case; enums get a fresh instance."""
    if case.id in _PREP:
        return _PREP[case.id]
    found = {}
    for node in case.expect:
        peer.collect_enums(node, found)
    if found:
        fory = fresh_fory(case.ref)
        enums = peer.register_enums(fory, found)
    else:
        fory, enums = fory_for(case.ref), {}
    if case.roots is None:
        roots = [peer.Builder(True, enums).build(strip_choices(n)) for n in case.expect]
    else:
        roots = case.roots
    _PREP[case.id] = (fory, roots)
    return fory, roots


_HEX = {}


def pyfory_hex(case):
    """(a) pyfory's bytes for the case (one serialize() per root)."""
    if case.id not in _HEX:
        fory, roots = prepare(case)
        _HEX[case.id] = b"".join(fory.serialize(v) for v in roots).hex()
    return _HEX[case.id]


def expected_fresh_hex(case):
    if case.go is not None:
        return case.go
    return case.java if case.java is not None else pyfory_hex(case)


def writer_id(case):
    return "%s-writer=%s" % (case.id, "go" if case.go is not None else
                             "java" if case.java is not None else "pyfory")


# ---------------------------------------------------------------------------
# Python value comparison for (e).
# ---------------------------------------------------------------------------


def _bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _float_values(obj):
    if isinstance(obj, array.array):
        return list(obj)
    if hasattr(obj, "to_buffer"):  # Float16Array / BFloat16Array: raw bits
        return list(obj.to_buffer())
    return list(obj)


_ARRAY_KIND = {"b": "int8", "B": "uint8", "h": "int16", "H": "uint16", "i": "int32", "I": "uint32",
               "q": "int64", "Q": "uint64", "l": "int64", "L": "uint64", "f": "float32", "d": "float64"}


def _array_kind(obj):
    if isinstance(obj, array.array):
        return _ARRAY_KIND[obj.typecode]
    name = type(obj).__name__
    return {"BoolArray": "bool", "Float16Array": "float16", "BFloat16Array": "bfloat16"}.get(
        name, name.replace("Array", "").lower()
    )


def _is_array(obj):
    return isinstance(obj, array.array) or isinstance(obj, peer._FORY_ARRAY_TYPES)


def assert_same_value(orig, got, path="root", memo=None, track=False):
    """orig (what was serialized) and got (what pyfory read) are equal.

    With track=True, shared containers must map one-to-one (same sharing
    and cycles)."""
    if memo is None:
        memo = ({}, {})
    fwd, back = memo
    if isinstance(orig, (list, tuple, dict, set, frozenset)) or _is_array(orig):
        if track and isinstance(orig, (list, dict, set)) or (track and _is_array(orig)):
            if id(orig) in fwd:
                assert fwd[id(orig)] is got, "%s: sharing differs" % path
                return
            assert id(got) not in back, "%s: decoded object shared where the original is not" % path
            fwd[id(orig)] = got
            back[id(got)] = orig
    if orig is None or isinstance(orig, peer.PinnedNone):
        assert got is None, "%s: expected None, got %r" % (path, got)
    elif isinstance(orig, bool):
        assert type(got) is bool and got == orig, "%s: %r != %r" % (path, got, orig)
    elif isinstance(orig, enum.Enum):
        assert got is orig, "%s: %r != %r" % (path, got, orig)
    elif isinstance(orig, int):
        assert isinstance(got, int) and not isinstance(got, bool) and int(got) == int(orig), "%s: %r != %r" % (
            path, got, orig)
    elif isinstance(orig, float):
        assert isinstance(got, float), "%s: %r is not a float" % (path, got)
        assert _bits(got) == _bits(orig), "%s: float bits %016x != %016x" % (path, _bits(got), _bits(orig))
    elif isinstance(orig, (str, bytes)):
        assert type(got) is type(orig) and got == orig, "%s: %r != %r" % (path, got, orig)
    elif isinstance(orig, datetime.datetime):
        assert isinstance(got, datetime.datetime), "%s: %r" % (path, got)
        if got.tzinfo is None:
            got = got.replace(tzinfo=datetime.timezone.utc)
        assert got == orig, "%s: %r != %r" % (path, got, orig)
    elif isinstance(orig, (datetime.date, datetime.timedelta)):
        assert type(got) is type(orig) and got == orig, "%s: %r != %r" % (path, got, orig)
    elif isinstance(orig, decimal.Decimal):
        assert isinstance(got, decimal.Decimal) and got.as_tuple() == orig.as_tuple(), "%s: %r != %r" % (
            path, got, orig)
    elif isinstance(orig, (list, tuple)):
        assert isinstance(got, list), "%s: %r is not a list" % (path, got)
        assert len(got) == len(orig), "%s: length %d != %d" % (path, len(got), len(orig))
        for i, (a, b) in enumerate(zip(orig, got)):
            assert_same_value(a, b, "%s[%d]" % (path, i), memo, track)
    elif isinstance(orig, (set, frozenset)):
        assert isinstance(got, (set, frozenset)), "%s: %r is not a set" % (path, got)
        assert set(got) == set(orig), "%s: %r != %r" % (path, got, orig)
    elif isinstance(orig, dict):
        assert isinstance(got, dict), "%s: %r is not a dict" % (path, got)
        ok, gk = list(orig), list(got)
        assert len(ok) == len(gk), "%s: %d entries != %d" % (path, len(gk), len(ok))
        for i, (a, b) in enumerate(zip(ok, gk)):
            assert_same_value(a, b, "%s.key[%d]" % (path, i), memo, track)
            assert_same_value(orig[a], got[b], "%s[%r]" % (path, a), memo, track)
    elif _is_array(orig):
        assert _is_array(got), "%s: %r is not a dense array" % (path, got)
        assert _array_kind(got) == _array_kind(orig), "%s: %s array != %s array" % (
            path, _array_kind(got), _array_kind(orig))
        kind = _array_kind(orig)
        a, b = _float_values(orig), _float_values(got)
        assert len(a) == len(b), "%s: %d elements != %d" % (path, len(b), len(a))
        if kind in ("float32", "float64"):
            assert [_bits(x) for x in a] == [_bits(x) for x in b], "%s: %r != %r" % (path, b, a)
        else:
            assert [int(x) for x in a] == [int(x) for x in b], "%s: %r != %r" % (path, b, a)
    else:
        raise AssertionError("%s: no comparison for %r" % (path, orig))


# ---------------------------------------------------------------------------
# Tests.
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_decode_pyfory_bytes(wire, case):
    """(b) libwire prints the expected notation for pyfory's bytes."""
    hx = pyfory_hex(case)
    docs, _ = wire.decode_ok(hx)
    assert len(docs) == len(case.expect), "roots: %r" % (docs,)
    for got, want in zip(docs, case.expect):
        assert canon(got) == canon(want), "pyfory bytes %s" % hx
    for d in docs:  # `"tracked": false` is printed by `decode --ref` only
        assert drop_untracked(d) == d


@pytest.mark.parametrize("case", REF_CASES, ids=[c.id for c in REF_CASES])
def test_decode_ref_option_only_adds_untracked_marks(wire, case):
    """(b) with --ref: the same notation, plus `"tracked": false` on nodes
    written `ff` where reference tracking would write `00` (N-2)."""
    hx = pyfory_hex(case)
    plain, _ = wire.decode_ok(hx)
    docs, _ = wire.decode_ok(hx, ref=True)
    assert [canon(drop_untracked(d)) for d in docs] == [canon(d) for d in plain]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_lossless_roundtrip(wire, case):
    """(c) decode | encode reproduces pyfory's bytes exactly."""
    hx = pyfory_hex(case)
    r = wire.decode(hx)
    assert r.rc == 0, r
    assert wire.encode_ok(r.out) == hx



@pytest.mark.parametrize("case", REF_CASES, ids=[c.id for c in REF_CASES])
def test_lossless_roundtrip_ref_option(wire, case):
    """(c) with --ref on both sides (the payload was written by a
    ref-tracking pyfory): still exactly pyfory's bytes."""
    hx = pyfory_hex(case)
    r = wire.decode(hx, ref=True)
    assert r.rc == 0, r
    assert wire.encode_ok(r.out, ref=True) == hx


_FRESH = {}


def fresh_hex(wire, case):
    if case.id not in _FRESH:
        _FRESH[case.id] = wire.encode_docs([strip_choices(n) for n in case.expect], ref=case.ref)
    return _FRESH[case.id]


@pytest.mark.parametrize("case", CASES, ids=[writer_id(c) for c in CASES])
def test_fresh_encode_follows_writer_policy(wire, case):
    """(d) encode without wire-choice annotations = the runtime's bytes."""
    want = expected_fresh_hex(case)
    if case.java is not None:
        # The Java bytes must really differ, else the case is mislabelled.
        assert want != pyfory_hex(case)
    assert fresh_hex(wire, case) == want


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_pyfory_reads_fresh_encoding(wire, case):
    """(e) pyfory reads libwire's fresh encoding back to an equal value."""
    fory, roots = prepare(case)
    data = bytes.fromhex(fresh_hex(wire, case))
    if case.pyfory_cannot_read is not None:
        # pyfory cannot read this value back even from its own bytes; check
        # that this is still so, and that libwire wrote the same bytes.
        assert data.hex() == pyfory_hex(case)
        with pytest.raises(case.pyfory_cannot_read):
            fory.deserialize(bytes.fromhex(pyfory_hex(case)))
        return
    if case.pyfory_rejects_fresh is not None:
        # pyfory cannot read the Java runtime's bytes for this value (see the
        # case); check that pyfory reads its own bytes and rejects the fresh
        # (Java-policy) bytes the same way.
        assert data.hex() == expected_fresh_hex(case) != pyfory_hex(case)
        own = fory.deserialize(bytes.fromhex(pyfory_hex(case)))
        assert_same_value(roots[0], own)
        with pytest.raises(case.pyfory_rejects_fresh):
            fory.deserialize(data)
        return
    buf = pyfory.Buffer(data)
    got = []
    while buf.get_reader_index() < len(data) and len(got) <= len(roots):
        got.append(fory.deserialize(buf))
    assert buf.get_reader_index() == len(data)
    assert len(got) == len(roots)
    for i, (a, b) in enumerate(zip(roots, got)):
        assert_same_value(a, b, "root%d" % i, track=case.ref)


def test_case_table_is_not_trivial():
    """The table covers the built-in types the brief lists."""
    assert len(CASES) > 250
    kinds = {next(k for k in n if k not in ("enc", "header", "chunks", "tracked", "anchor", "ns_enc", "name_enc"))
             for c in CASES for n in c.expect}
    for k in ["bool", "none", "null", "varint64", "int8", "tagged_uint64", "float16", "bfloat16", "float32",
              "float64", "string", "binary", "list", "set", "map", "date", "timestamp", "duration", "decimal",
              "enum", "named_enum", "bool_array", "int8_array", "uint64_array", "float16_array",
              "bfloat16_array", "float32_array", "float64_array"]:
        assert k in kinds, k
    assert any(math.isnan(struct.unpack("<d", struct.pack("<Q", int(n["float64"], 16)))[0])
               for c in CASES for n in c.expect if "float64" in n)
