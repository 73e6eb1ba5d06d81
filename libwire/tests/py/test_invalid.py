"""Invalid payloads: `wire decode` must fail with the right error class at a
plausible offset, exit with status 1 and one `error: ...` line, and never
crash (a negative exit status is a signal)."""

import datetime
import decimal
import enum
import random

import pytest

import pyfory
import pyfory_peer as peer

# (id, hex, allowed classes, (lowest, highest) allowed offset)
# Offsets: the byte where the bad item starts, up to the byte where the
# decoder noticed the problem.
INVALID = [
    # --- payload header -------------------------------------------------
    ("header 0x00", "00ff070a", {"header"}, (0, 0)),
    ("header 0x02 (no xlang bit)", "02ff070a", {"header"}, (0, 0)),
    ("header 0x02 alone", "02", {"header"}, (0, 0)),
    ("header 0x05 (reserved bit)", "05ff070a", {"header"}, (0, 0)),
    ("header 0xff", "ffff070a", {"header"}, (0, 0)),
    ("header 0x03, binary out of band, no buffer", "03ff2900", {"truncated"}, (3, 3)),
    ("second root with header 0x00", "01ff070a00ff070a", {"header"}, (4, 4)),
    ("trailing byte after a root", "01ff070aff", {"header", "trailing", "truncated"}, (4, 5)),
    # --- reference flags --------------------------------------------------
    ("root ref flag 0x05", "0105070a", {"ref"}, (1, 1)),
    ("root ref flag 0xfc", "01fc070a", {"ref"}, (1, 1)),
    ("root ref flag 0x80", "0180070a", {"ref"}, (1, 1)),
    ("root back-reference, nothing tracked yet", "01fe00", {"ref"}, (1, 2)),
    ("element ref id 5, nothing tracked", "01ff16010916fe05", {"ref"}, (6, 7)),
    ("element ref id 1, only the root tracked", "010016010916fe01", {"ref"}, (6, 7)),
    ("element ref id 2 of 2 tracked", "0100160209160001080702fe02", {"ref"}, (11, 12)),
    ("ref id past 32 bits", "0100160109" + "16fe" + "ffffffff1f", {"ref", "varint"}, (6, 11)),
    ("REF_VALUE flag in a list without tracking bit", "01ff16010a070002", {"ref"}, (6, 6)),
    ("back-reference in a list without tracking bit", "010016010a16fe00", {"ref"}, (6, 7)),
    ("element flag 0x07 in a tracking list", "01ff16010107", {"ref"}, (5, 5)),
    ("map null-chunk side with flag 0x33", "01ff18010a330702", {"ref"}, (5, 5)),
    # --- varints ------------------------------------------------------------
    ("varint64 overlong 2 bytes for 0", "01ff078000", {"varint"}, (3, 4)),
    ("varint64 overlong 9 bytes for 0", "01ff07808080808080808000", {"varint"}, (3, 11)),
    ("varint64 overlong 9 bytes, 9th byte 0", "01ff07ffffffffffffffff00", {"varint"}, (3, 11)),
    ("varint32 6 bytes", "01ff05ffffffffff01", {"varint"}, (3, 8)),
    ("varint32 5th byte beyond 32 bits", "01ff05ffffffff1f", {"varint"}, (3, 7)),
    ("var_uint32 5th byte beyond 32 bits", "01ff0cffffffff1f", {"varint"}, (3, 7)),
    ("var_uint32 overlong", "01ff0c8080808000", {"varint"}, (3, 7)),
    ("var_uint64 overlong", "01ff0e808080808080808000", {"varint"}, (3, 11)),
    ("list length overlong", "01ff168000", {"varint"}, (3, 4)),
    ("string header overlong", "01ff158000", {"varint", "string"}, (3, 4)),
    ("decimal scale varint32 6 bytes", "01ff28808080808000", {"varint"}, (3, 8)),
    ("enum user type id beyond 32 bits", "01ff19ffffffff1f00", {"varint"}, (3, 7)),
    ("date overlong", "01ff278000", {"varint"}, (3, 4)),
    # --- strings ------------------------------------------------------------
    ("string encoding 3", "01ff150761", {"string"}, (3, 3)),
    ("string encoding 3, empty", "01ff1503", {"string"}, (3, 3)),
    ("utf16 odd byte length", "01ff150d616263", {"string"}, (3, 6)),
    ("utf16 lone high surrogate", "01ff150900d8", {"string"}, (3, 5)),
    ("utf16 lone low surrogate", "01ff150900dc", {"string"}, (3, 5)),
    ("utf16 high surrogate then 'A'", "01ff151100d84100", {"string"}, (3, 7)),
    ("utf16 surrogates swapped", "01ff151100de3dd8", {"string"}, (3, 7)),
    ("utf8 invalid bytes ff fe", "01ff150afffe", {"string"}, (3, 5)),
    ("utf8 encoded surrogate", "01ff150eeda080", {"string"}, (3, 6)),
    ("utf8 overlong encoding", "01ff150ac080", {"string"}, (3, 5)),
    ("utf8 truncated sequence", "01ff1506e6", {"string"}, (3, 4)),
    ("utf8 beyond U+10FFFF", "01ff1512f4908080", {"string"}, (3, 7)),
    ("utf8 lone continuation byte", "01ff150a6180", {"string"}, (3, 5)),
    ("utf8 invalid in a list element", "01ff1601081506c3", {"string"}, (5, 7)),
    ("string longer than the input", "01ff1510616263", {"truncated"}, (3, 7)),
    # --- values out of domain ----------------------------------------------
    ("bool byte 2", "01ff0102", {"value"}, (3, 3)),
    ("bool byte ff", "01ff01ff", {"value"}, (3, 3)),
    ("bool array element 2", "01ff2b020102", {"value"}, (3, 5)),
    ("bool in a list", "01ff160208010103", {"value"}, (5, 7)),
    ("timestamp nanos 1e9", "01ff26" + "0000000000000000" + "00ca9a3b", {"value"}, (3, 11)),
    ("timestamp nanos 0xffffffff", "01ff26" + "0000000000000000" + "ffffffff", {"value"}, (3, 11)),
    ("duration nanos 1e9", "01ff25" + "00" + "00ca9a3b", {"value"}, (3, 4)),
    ("duration nanos -1", "01ff25" + "01" + "ffffffff", {"value"}, (3, 4)),
    ("timestamp nanos 1e9 in a list", "01ff16010826" + "0000000000000000" + "00ca9a3b", {"value"}, (6, 14)),
    # --- lengths and limits -------------------------------------------------
    ("int32 array 3 bytes", "01ff2e03000000", {"length"}, (3, 3)),
    ("int16 array 3 bytes", "01ff2d03010203", {"length"}, (3, 3)),
    ("int64 array 12 bytes", "01ff2f0c" + "00" * 12, {"length"}, (3, 3)),
    ("uint32 array 2 bytes", "01ff320201ff", {"length"}, (3, 3)),
    ("float16 array 3 bytes", "01ff3503003c00", {"length"}, (3, 3)),
    ("float64 array 7 bytes", "01ff3807" + "00" * 7, {"length"}, (3, 3)),
    ("list count 1e9, few bytes", "01ff168094ebdc03080702", {"length", "limit", "truncated"}, (3, 11)),
    ("set count 1e9, few bytes", "01ff178094ebdc03080702", {"length", "limit", "truncated"}, (3, 11)),
    ("map count 1e9, no bytes", "01ff188094ebdc03", {"length", "limit", "truncated"}, (3, 8)),
    ("list count 2^32-1", "01ff16ffffffff0f080702", {"length", "limit", "truncated"}, (3, 11)),
    ("binary length 1e9", "01ff298094ebdc03", {"length", "limit", "truncated"}, (3, 8)),
    ("string length 2^34", "01ff15808080808001", {"length", "limit", "truncated", "string"}, (3, 9)),
    ("int8 array length 1e9", "01ff2c8094ebdc03", {"length", "limit", "truncated"}, (3, 8)),
    # --- collections ---------------------------------------------------------
    ("map chunk size 0", "01ff18010000", {"collection"}, (4, 5)),
    ("map chunk size 2 > 1 entry left", "01ff1801000215070461020462" + "04", {"collection"}, (4, 5)),
    ("map chunk size 255, 2 entries", "01ff180200ff150704610204620" + "4", {"collection"}, (4, 5)),
    ("map second chunk too big", "01ff18020001150704610200021507046204", {"collection"}, (11, 12)),
    ("map chunk header reserved bits 0xc0", "01ff1801c0011507046102", {"collection"}, (4, 4)),
    ("list element header reserved bits 0xf0", "01ff1601f0", {"collection"}, (4, 4)),
    ("list element header 0x10", "01ff1601100702", {"collection"}, (4, 4)),
    ("null element in a list without has-null bit", "01ff160208" + "07" + "02" + "fd", {"truncated"}, (7, 8)),
    ("null element, header 0 (no flags)", "01ff160100fd", {"type", "collection"}, (5, 5)),
    # --- nesting -------------------------------------------------------------
    ("100 nested lists", "01ff16" + "010816" * 99 + "00", {"depth"}, (3, 300)),
    ("100 nested maps", "01ff18" + "01000115180461" * 99 + "00", {"depth"}, (3, 700)),
    ("100 nested lists, each element typed", "01ff16" + "010016" * 99 + "00", {"depth"}, (3, 300)),
    ("100000 nested lists", "01ff16" + "010816" * 99999 + "00", {"depth"}, (3, 300000)),
    ("100 nested tracked lists", "010016" + "01091600" * 99 + "00", {"depth"}, (3, 500)),
    # --- decimals ------------------------------------------------------------
    ("decimal big form for 1", "01ff28000501", {"decimal"}, (4, 5)),
    ("decimal big form, high zero byte", "01ff2800090100", {"decimal"}, (4, 6)),
    ("decimal big form, 0 bytes", "01ff280001", {"decimal"}, (4, 4)),
    ("decimal big form, negative 0 bytes", "01ff280003", {"decimal"}, (4, 4)),
    ("decimal big form for 2^62-1", "01ff280021ffffffffffffff3f", {"decimal"}, (4, 12)),
    ("decimal big form for -2^62", "01ff2800230000000000000040", {"decimal"}, (4, 12)),
    ("decimal big form for 0 (one zero byte)", "01ff28000500", {"decimal"}, (4, 5)),
    ("decimal big form, 2^62 bytes", "01ff2800ffffffffffffffffff", {"decimal", "limit", "length", "truncated"},
     (4, 13)),
    # --- type ids --------------------------------------------------------------
    ("type id 0", "01ff00", {"type"}, (2, 2)),
    ("type id 42 (ARRAY)", "01ff2a", {"type"}, (2, 2)),
    ("type id 200", "01ffc801", {"type"}, (2, 3)),
    ("type id 63", "01ff3f", {"type"}, (2, 2)),
    ("type id 0 as list element type", "01ff16010800", {"type"}, (5, 5)),
    ("type id 42 as map key type", "01ff180100012a07", {"type"}, (6, 6)),
    ("type id 200 as element type", "01ff160100c801", {"type"}, (5, 6)),
    # --- meta strings ---------------------------------------------------------
    ("meta string encoding 7", "01ff1a06070c8c70080489cb744002", {"meta_string"}, (3, 4)),
    ("meta string back-reference with no strings", "01ff1a0303" + "00", {"meta_string"}, (3, 3)),
    ("meta string hash with bad encoding byte", "01ff1a22" + "07bdb639b338544a" + "00" * 17, {"meta_string"},
     (3, 12)),
    # --- truncated at the very start ------------------------------------------
    ("empty input", "", {"truncated"}, (0, 0)),
    ("header only", "01", {"truncated"}, (1, 1)),
    ("no type id", "01ff", {"truncated"}, (2, 2)),
    ("float64 short", "01ff1400000000", {"truncated"}, (3, 7)),
    ("timestamp short", "01ff2600000000000000000000", {"truncated"}, (3, 13)),
    ("varint runs to the end", "01ff0780", {"truncated"}, (3, 4)),
]

assert len(INVALID) >= 40


@pytest.mark.parametrize("hexin,classes,span", [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_payload(wire, hexin, classes, span):
    r = wire.decode(hexin)
    assert r.out == "", "no output on failure: %r" % (r,)
    cls, off, msg = r.error()
    assert cls in classes, "class %r (%s), expected one of %s" % (cls, msg, sorted(classes))
    lo, hi = span
    assert lo <= off <= hi, "offset %d (%s: %s) not in [%d, %d]" % (off, cls, msg, lo, hi)
    assert off <= len(hexin) // 2


@pytest.mark.parametrize("hexin,classes,span", [c[1:] for c in INVALID], ids=[c[0] for c in INVALID])
def test_invalid_payload_dump(wire, hexin, classes, span):
    """dump decodes like decode and reports the same error."""
    r = wire.dump(hexin)
    cls, off, _ = r.error()
    d = wire.decode(hexin).error()
    assert (cls, off) == d[:2]


# ---------------------------------------------------------------------------
# Truncation of real pyfory payloads at every offset.
# ---------------------------------------------------------------------------


def _truncation_payloads():
    f = pyfory.Fory(xlang=True, ref=False, compatible=False)
    peer._pin_types(f)
    r = pyfory.Fory(xlang=True, ref=True, compatible=False)
    e = pyfory.Fory(xlang=True, ref=False, compatible=False)
    color = enum.Enum("color", [("A", 0), ("B", 1), ("C", 2)])
    e.register_type(color, name="demo.color")
    shared = [1]
    cyc = []
    cyc.append(cyc)
    return {
        "map mixed": f.serialize({"a": 1, 2: "b", None: 3, 1.5: None, True: [1], b"k": 2.5}),
        "list heterogeneous": f.serialize(
            [1, "h\u00e9llo", "\u65e5\u672c", "\U0001f600", None, b"xy", [2.5], datetime.date(2020, 1, 1)]
        ),
        "string utf16, 2-byte header": f.serialize("x" * 40 + "\u65e5"),
        "decimal 10^40": f.serialize(decimal.Decimal(10 ** 40)),
        "timestamp": f.serialize(datetime.datetime(2020, 1, 1, 0, 0, 0, 123456, tzinfo=datetime.timezone.utc)),
        "duration": f.serialize(datetime.timedelta(days=-3, microseconds=7)),
        "float32 array": f.serialize(pyfory.Float32Array([1.0, -2.0])),
        "pinned ints": f.serialize(
            [peer._PINNED["tagged_int64"](1 << 40), peer._PINNED["var_uint32"](300), peer._PINNED["int16"](-2)]
        ),
        "ref shared and cyclic": r.serialize([shared, shared, cyc]),
        "named enum": e.serialize([color.A, 1, color.C]),
        "varint64 max": f.serialize((1 << 63) - 1),
    }


TRUNC = _truncation_payloads()
TRUNC_CASES = [(name, data.hex(), k) for name, data in TRUNC.items() for k in range(len(data))]


@pytest.mark.parametrize(
    "hexin,k", [(h[: 2 * k], k) for _, h, k in TRUNC_CASES], ids=["%s[:%d]" % (n, k) for n, _, k in TRUNC_CASES]
)
def test_truncated_pyfory_payload(wire, hexin, k):
    r = wire.decode(hexin)
    cls, off, msg = r.error()
    assert cls == "truncated", "cut at %d: %s at %d: %s" % (k, cls, off, msg)
    assert 0 <= off <= k, "cut at %d: offset %d beyond the input" % (k, off)
    if k >= 1:
        assert off >= 1, "the header byte was complete"


def test_full_truncation_payloads_decode(wire):
    """The uncut payloads are valid (so every cut above is a real cut)."""
    for name, data in TRUNC.items():
        docs, _ = wire.decode_ok(data.hex())
        assert len(docs) == 1, name


# ---------------------------------------------------------------------------
# Never crash: byte mutations of pyfory payloads.
# ---------------------------------------------------------------------------


def _mutations():
    rnd = random.Random(20240601)
    out = []
    for name in ("map mixed", "list heterogeneous", "ref shared and cyclic", "named enum", "decimal 10^40"):
        data = TRUNC[name]
        for i in range(1, len(data)):
            for v in (0x00, 0xFF, 0x80, 0x7F, data[i] ^ 0x01):
                m = bytearray(data)
                m[i] = v
                if bytes(m) != data:
                    out.append(("%s@%d=%02x" % (name, i, v), bytes(m).hex()))
        for j in range(20):
            m = bytearray(data)
            for _ in range(3):
                m[rnd.randrange(1, len(m))] = rnd.randrange(256)
            out.append(("%s~random%d" % (name, j), bytes(m).hex()))
    return out


MUTATIONS = _mutations()


@pytest.mark.parametrize("hexin", [m[1] for m in MUTATIONS], ids=[m[0] for m in MUTATIONS])
def test_mutated_payload_never_crashes(wire, hexin):
    r = wire.decode(hexin)
    assert not r.crashed, "crashed with signal %d on %s" % (-r.rc, hexin)
    if r.rc == 0:
        # Accepted: then it must also re-encode to the same bytes.
        assert r.err == ""
        assert wire.encode_ok(r.out) == hexin
    else:
        cls, off, _ = r.error()
        assert 0 <= off <= len(hexin) // 2


def test_depth_limit_is_not_hit_by_moderate_nesting(wire):
    """60 nested lists are fine with the default limit of 64."""
    hexin = "01ff16" + "010816" * 59 + "00"
    docs, r = wire.decode_ok(hexin)
    assert wire.encode_ok(r.out) == hexin


def test_deep_notation_does_not_crash_encode(wire):
    text = '{"list": [' * 100000 + "]}" * 100000
    r = wire.encode(text)
    assert not r.crashed
    cls, _, _ = r.error()
    assert cls in ("depth", "notation", "limit")
