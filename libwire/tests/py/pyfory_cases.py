"""The table of pyfory interop cases used by test_pyfory_interop.py.

Each case is a Python value that pyfory 1.7.7 serializes, and the notation
that libwire must print for those bytes, written by hand from the format
(spec/notation.md, conformance/peers/python/PROBES.md), including the wire
choices pyfory made (enc, header, chunks, tracked).

`java` gives the bytes the Fory Java runtime (fory-core 1.6.0) writes for the
same value where its writer policy differs from pyfory's (see
conformance/peers/java/PROBES.md); `wire encode` without wire-choice
annotations must follow Java. Every `java` value below was checked against
the Java peer (conformance/peers/java, fory-core 1.6.0).
"""

import array
import datetime
import decimal
import struct

import pyfory
from notation import F64, NULL, L, M, S, V, string_body

_S = pyfory.serialization
UTC = datetime.timezone.utc


class Case:
    """One interop case.

    roots:  Python values (one per root), or None to build them from the
            expected notation with the peer's Builder (pinned wire types,
            ordered sets, shared objects, enums).
    expect: notation of each root as libwire must print it.
    java:   hex the Java writer policy gives, where it differs from pyfory.
    go:     hex libwire writes fresh in Fory Go's form, where neither
            pyfory's nor Java's is the policy (all-null lists, errata E-57).
    """

    def __init__(self, cid, roots, expect, ref=False, java=None, pyfory_cannot_read=None,
                 pyfory_rejects_fresh=None, go=None):
        self.id = cid
        self.pyfory_rejects_fresh = pyfory_rejects_fresh
        self.pyfory_cannot_read = pyfory_cannot_read
        self.roots = roots
        self.expect = expect
        self.ref = ref
        self.java = java
        self.go = go

    def __repr__(self):
        return "Case(%s)" % self.id


CASES = []


def case(cid, value, node, **kw):
    CASES.append(Case(cid, [value], [node], **kw))


def built(cid, node, **kw):
    """A case whose Python value the peer's Builder makes from `node`."""
    CASES.append(Case(cid, None, [node], **kw))


# ---------------------------------------------------------------------------
# bool, none
# ---------------------------------------------------------------------------
case("bool-true", True, {"bool": True})
case("bool-false", False, {"bool": False})
built("none", {"none": None})
case("null-root", None, NULL)

# ---------------------------------------------------------------------------
# Python int = VARINT64, at every varint length boundary.
# ---------------------------------------------------------------------------
_VARINT64 = [0, 1, -1]
for _k in range(1, 9):
    _b = 1 << (7 * _k - 1)  # zigzag(v) needs k+1 bytes from here on
    _VARINT64 += [_b - 1, _b, -_b, -_b - 1]
_VARINT64 += [(1 << 62) - 1, 1 << 62, -(1 << 62), (1 << 63) - 1, -(1 << 63)]
for _v in _VARINT64:
    case("varint64 %d" % _v, _v, V(_v))

# Pinned integer wire types (peer README "Pinned wire types").
_PINNED_INTS = {
    "int8": [-128, -1, 0, 127],
    "int16": [-32768, -2, 5, 32767],
    "int32": [-(1 << 31), -1, 5, (1 << 31) - 1],
    "varint32": [0, 63, 64, -64, -65, 8191, 8192, (1 << 31) - 1, -(1 << 31)],
    "int64": [-(1 << 63), -1, 5, (1 << 63) - 1],
    "tagged_int64": [0, 5, -1, (1 << 30) - 1, 1 << 30, -(1 << 30), -(1 << 30) - 1, (1 << 63) - 1, -(1 << 63)],
    "uint8": [0, 255],
    "uint16": [0, 65535],
    "uint32": [0, 5, (1 << 32) - 1],
    "var_uint32": [0, 127, 128, 16383, 16384, (1 << 32) - 1],
    "uint64": [0, (1 << 64) - 1],
    "var_uint64": [0, 127, 128, (1 << 56) - 1, 1 << 56, (1 << 63), (1 << 64) - 1],
    "tagged_uint64": [0, 5, (1 << 31) - 1, 1 << 31, (1 << 64) - 1],
}
for _key, _vals in _PINNED_INTS.items():
    for _v in _vals:
        built("%s %d" % (_key, _v), {_key: str(_v)})

# ---------------------------------------------------------------------------
# Floats.
# ---------------------------------------------------------------------------
_F64 = {
    "0": 0.0,
    "-0": -0.0,
    "1.5": 1.5,
    "0.1": 0.1,
    "nan": float("nan"),
    "inf": float("inf"),
    "-inf": float("-inf"),
    "min-subnormal": 5e-324,
    "max-subnormal": 2.225073858507201e-308,
    "min-normal": 2.2250738585072014e-308,
    "max": 1.7976931348623157e308,
    "-max": -1.7976931348623157e308,
}
for _name, _v in _F64.items():
    case("float64 %s" % _name, _v, F64(_v))
for _bits in [0x7FF8000000000001, 0xFFF8000000000000, 0x7FF0000000000001, 0x8000000000000001]:
    case("float64 0x%016x" % _bits, struct.unpack("<d", struct.pack("<Q", _bits))[0], {"float64": "0x%016x" % _bits})

for _bits in ["3fc00000", "80000000", "7f800000", "ff800000", "7fc00000", "7fc00001", "00000001", "007fffff", "7f7fffff"]:
    built("float32 0x%s" % _bits, {"float32": "0x" + _bits})
for _bits in ["3c00", "0001", "03ff", "7bff", "fc00", "8000", "7e01"]:
    built("float16 0x%s" % _bits, {"float16": "0x" + _bits})
for _bits in ["3f80", "0001", "7f7f", "ff80", "7fc0", "8000"]:
    built("bfloat16 0x%s" % _bits, {"bfloat16": "0x" + _bits})

# ---------------------------------------------------------------------------
# Strings.  pyfory: latin1 / utf16 / utf8 from CPython's string kind.
# Java (PROBES): latin1 if all chars <= U+00FF, else utf8 iff the sampled
# prefix is ASCII, else utf16.
# ---------------------------------------------------------------------------


def java_string_enc(text):
    """Encoding fory-core 1.6.0 picks (conformance/peers/java/PROBES.md)."""
    units = text.encode("utf-16-le")
    units = [units[i] | units[i + 1] << 8 for i in range(0, len(units), 2)]
    if all(u <= 0xFF for u in units):
        return "latin1"
    s = min(64, len(units))
    k = s - s % 4
    if all(u < 0x80 for u in units[:k]) and (k == s or units[k] < 0x80):
        return "utf8"
    return "utf16"


_STRINGS = {
    "empty": "",
    "ascii": "hi",
    "ascii-long-300": "a" * 300,
    "latin1": "h\u00e9llo",
    "latin1-ff": "\u00ff",
    "latin1-long-300": "\u00e9" * 300,
    "bmp": "\u65e5\u672c",
    "bmp-euro": "\u20ac",
    "bmp-then-ascii": "\u65e5\u672ca",
    "astral": "\U0001f600",
    "ascii-astral": "a\U0001f600",
    "mixed-a-e-ri": "a\u00e9\u65e5",
    "mixed-abcde-ri": "abcde\u65e5",
    "mixed-abcde-acute-ri": "abcd\u00e9\u65e5",
    "mixed-all": "a\u00e9\u65e5\U0001f600",
    "ascii70-ri": "a" * 70 + "\u65e5",
    "ri-ascii70": "\u65e5" + "a" * 70,
    "bmp-long-300": "\u65e5" * 300,
    "astral-long-100": "\U0001f600" * 100,
    "nul-and-controls": "\x00\x01\x7f",
}
for _name, _text in _STRINGS.items():
    _jenc = java_string_enc(_text)
    _java = None
    if _jenc != S(_text)["enc"]:
        _java = ("01ff15" + string_body(_text, _jenc).hex())
    case("string %s" % _name, _text, S(_text), java=_java)

# ---------------------------------------------------------------------------
# Binary.
# ---------------------------------------------------------------------------
case("binary empty", b"", {"binary": ""})
case("binary 1", b"\x00", {"binary": "00"})
case("binary 127", bytes(range(127)), {"binary": bytes(range(127)).hex()})
case("binary 200", bytes(range(200)), {"binary": bytes(range(200)).hex()})

# ---------------------------------------------------------------------------
# Dense arrays: pyfory's array classes and array.array.
# ---------------------------------------------------------------------------


def _ints(vals):
    return [str(v) for v in vals]


_INT_ARRAYS = {
    "int8_array": ("Int8Array", "b", [-128, -1, 0, 127]),
    "int16_array": ("Int16Array", "h", [-32768, -1, 0, 32767]),
    "int32_array": ("Int32Array", "i", [-(1 << 31), -1, 0, (1 << 31) - 1]),
    "int64_array": ("Int64Array", "q", [-(1 << 63), -1, 0, (1 << 63) - 1]),
    "uint8_array": ("UInt8Array", "B", [0, 1, 255]),
    "uint16_array": ("UInt16Array", "H", [0, 1, 65535]),
    "uint32_array": ("UInt32Array", "I", [0, 1, (1 << 32) - 1]),
    "uint64_array": ("UInt64Array", "Q", [0, 1, (1 << 64) - 1]),
}
for _key, (_cls, _code, _vals) in _INT_ARRAYS.items():
    case("%s pyfory.%s" % (_key, _cls), getattr(pyfory, _cls)(_vals), {_key: _ints(_vals)})
    case("%s array('%s')" % (_key, _code), array.array(_code, _vals), {_key: _ints(_vals)})
    case("%s empty" % _key, getattr(pyfory, _cls)([]), {_key: []})
case("int32_array 100 elements (2-byte size)", array.array("i", range(-50, 50)), {"int32_array": _ints(range(-50, 50))})
case("uint8_array 200 elements", pyfory.UInt8Array(list(range(200))), {"uint8_array": _ints(range(200))})
case("bool_array", pyfory.BoolArray([True, False, True]), {"bool_array": [True, False, True]})
case("bool_array empty", pyfory.BoolArray([]), {"bool_array": []})

_F16 = [0x3C00, 0xC000, 0x0001, 0x7C00, 0xFC00, 0x8000, 0x7BFF, 0x7E00]
case(
    "float16_array",
    pyfory.Float16Array.from_buffer(struct.pack("<%dH" % len(_F16), *_F16)),
    {"float16_array": ["0x%04x" % b for b in _F16]},
)
_BF16 = [0x3F80, 0xC000, 0x0001, 0x7F80, 0xFF80, 0x8000, 0x7FC0, 0x7FC1]
case(
    "bfloat16_array",
    pyfory.BFloat16Array.from_buffer(struct.pack("<%dH" % len(_BF16), *_BF16)),
    {"bfloat16_array": ["0x%04x" % b for b in _BF16]},
)
case("float16_array empty", pyfory.Float16Array.from_buffer(b""), {"float16_array": []})
_F32 = [0x3F800000, 0xC0000000, 0x00000001, 0x7F800000, 0x80000000, 0x7FC00001]
_f32arr = array.array("f")
_f32arr.frombytes(struct.pack("<%dI" % len(_F32), *_F32))
case("float32_array array('f')", _f32arr, {"float32_array": ["0x%08x" % b for b in _F32]})
case(
    "float32_array pyfory.Float32Array",
    pyfory.Float32Array([1.0, -2.0, 0.5]),
    {"float32_array": ["0x3f800000", "0xc0000000", "0x3f000000"]},
)
_F64A = [0x3FF8000000000000, 0x8000000000000000, 0x0000000000000001, 0x7FF0000000000000, 0x7FF8000000000001]
_f64arr = array.array("d")
_f64arr.frombytes(struct.pack("<%dQ" % len(_F64A), *_F64A))
case("float64_array array('d')", _f64arr, {"float64_array": ["0x%016x" % b for b in _F64A]})
case(
    "float64_array pyfory.Float64Array",
    pyfory.Float64Array([1.0, -2.0]),
    {"float64_array": ["0x3ff0000000000000", "0xc000000000000000"]},
)

# ---------------------------------------------------------------------------
# Lists.  Header bits: 1 tracking, 2 has null, 4 declared, 8 same type.
# ---------------------------------------------------------------------------
case("list empty", [], {"list": []})
case("list tuple-empty", (), {"list": []})
case("list [1,2]", [1, 2], L([V(1), V(2)], 8))
case("list tuple (1,2)", (1, 2), L([V(1), V(2)], 8))
case("list [1,'a']", [1, "a"], L([V(1), S("a")], 0))
case("list [1,None]", [1, None], L([V(1), NULL], 10))
case("list [None,1]", [None, 1], L([NULL, V(1)], 10))
case("list ['a',None]", ["a", None], L([S("a"), NULL], 10))
case("list [1,'a',None]", [1, "a", None], L([V(1), S("a"), NULL], 2))
# pyfory declares NONE (36) as the element type of an all-null list; Java
# 1.6.0 writes java.lang.Object as a NAMED_STRUCT there, which it cannot read
# back (Java PROBES), so this is not a Java policy fact. libwire writes Fory
# Go's form of []any{nil}: no same-type bit, no element type, which pyfory,
# Java and Go read (R-WLIST-2, errata E-57).
case("list all-null [None]", [None], L([NULL], 10), go="01ff160102fd")
case("list all-null [None,None,None]", [None, None, None], L([NULL, NULL, NULL], 10),
     go="01ff160302fdfdfd")
case("list nested [[1],[2]]", [[1], [2]], L([L([V(1)], 8), L([V(2)], 8)], 8))
case("list nested [[]]", [[]], L([{"list": []}], 8))
case("list nested [[1,None],'x',[]]", [[1, None], "x", []], L([L([V(1), NULL], 10), S("x"), {"list": []}], 0))
case(
    "list heterogeneous",
    [1, "a", 1.5, b"x", None, True, [2], datetime.date(2020, 1, 1)],
    L(
        [V(1), S("a"), F64(1.5), {"binary": "78"}, NULL, {"bool": True}, L([V(2)], 8), {"date": "18262"}],
        2,
    ),
)
case("list 300 ints", list(range(300)), L([V(i) for i in range(300)], 8))
case("list strings latin1/utf16", ["a", "\u00e9", "\u65e5"], L([S("a"), S("\u00e9"), S("\u65e5")], 8))
case(
    "list astral string",
    ["\U0001f600"],
    L([S("\U0001f600")], 8),
    java="01ff16010815" + string_body("\U0001f600", "utf16").hex(),
)
case("list floats with null", [1.5, None, -0.0], L([F64(1.5), NULL, F64(-0.0)], 10))
case(
    "list decimals",
    [decimal.Decimal("1.25"), decimal.Decimal("-1.25")],
    L([{"decimal": {"unscaled": "125", "scale": 2}}, {"decimal": {"unscaled": "-125", "scale": 2}}], 8),
)
built("list pinned int8", L([{"int8": "1"}, {"int8": "-1"}], 8))
built("list pinned mixed", L([{"int8": "1"}, {"uint16": "2"}, {"float32": "0x3fc00000"}], 0))
built("list of arrays", L([{"int32_array": ["1"]}, {"int32_array": []}], 8))

# ---------------------------------------------------------------------------
# Sets (the peer's insertion-ordered set keeps the wire order fixed).
# ---------------------------------------------------------------------------
case("set empty", set(), {"set": []})
case("frozenset {1}", frozenset({1}), {"set": [V(1)], "header": 8})
built("set [1,2]", {"set": [V(1), V(2)], "header": 8})
built("set strings", {"set": [S("a"), S("b"), S("\u00e9")], "header": 8})
built(
    "set mixed with null",
    {"set": [V(1), F64(2.5), NULL, {"binary": "78"}, S("a")], "header": 2},
)

# ---------------------------------------------------------------------------
# Maps.  Chunk header bits: 1 key tracking, 2 key null, 4 key declared,
# 8 value tracking, 16 value null, 32 value declared.
# ---------------------------------------------------------------------------
case("map empty", {}, {"map": []})
case("map str->int", {"a": 1, "b": 2}, M([[S("a"), V(1)], [S("b"), V(2)]], [[0, 2]]))
case(
    "map mixed chunks",
    {"a": 1, 2: "b", None: 3, 1.5: None, True: [1], b"k": 2.5},
    M(
        [
            [S("a"), V(1)],
            [V(2), S("b")],
            [NULL, V(3)],
            [F64(1.5), NULL],
            [{"bool": True}, L([V(1)], 8)],
            [{"binary": "6b"}, F64(2.5)],
        ],
        [[0, 1], [0, 1], [10, 1], [17, 1], [0, 1], [0, 1]],
    ),
)
case(
    "map 255 entries",
    {"k%03d" % i: i for i in range(255)},
    M([[S("k%03d" % i), V(i)] for i in range(255)], [[0, 255]]),
)
case(
    "map 256 entries",
    {"k%03d" % i: i for i in range(256)},
    M([[S("k%03d" % i), V(i)] for i in range(256)], [[0, 255], [0, 1]]),
)
case(
    "map 300 entries",
    {"k%03d" % i: i for i in range(300)},
    M([[S("k%03d" % i), V(i)] for i in range(300)], [[0, 255], [0, 45]]),
)
_m300 = {"k%03d" % i: (("s%d" % i) if i == 100 else i) for i in range(300)}
case(
    "map 300 entries, one str value",
    _m300,
    M(
        [[S(k), S(v) if isinstance(v, str) else V(v)] for k, v in _m300.items()],
        [[0, 100], [0, 1], [0, 199]],
    ),
)
case("map null key", {None: 1}, M([[NULL, V(1)]], [[10, 1]]))
case("map null value", {"a": None}, M([[S("a"), NULL]], [[17, 1]]))
case("map null key and value", {None: None}, M([[NULL, NULL]], [[18, 1]]))
case(
    "map nulls between chunks",
    {"a": 1, "b": None, "c": 2, "d": 3},
    M([[S("a"), V(1)], [S("b"), NULL], [S("c"), V(2)], [S("d"), V(3)]], [[0, 1], [17, 1], [0, 2]]),
)
# pyfory writes a tuple key as LIST but cannot read it back (a list is not
# hashable): (e) checks that pyfory fails on its own bytes the same way.
case(
    "map tuple key",
    {(1, 2): 3},
    M([[L([V(1), V(2)], 8), V(3)]], [[0, 1]]),
    pyfory_cannot_read=TypeError,
)
case("map list value", {"a": [1]}, M([[S("a"), L([V(1)], 8)]], [[0, 1]]))
case(
    "map nested",
    {1: {"x": None}, 2: {}},
    M([[V(1), M([[S("x"), NULL]], [[17, 1]])], [V(2), {"map": []}]], [[0, 2]]),
)
case(
    "map utf16 strings",
    {"\u00e9": "\u65e5\u672c"},
    M([[S("\u00e9"), S("\u65e5\u672c")]], [[0, 1]]),
)
case(
    "map astral key",
    {"\U0001f600": 1},
    M([[S("\U0001f600"), V(1)]], [[0, 1]]),
    java="01ff1801000115" + "07" + string_body("\U0001f600", "utf16").hex() + "02",
)

# ---------------------------------------------------------------------------
# Date (zigzag varint64 days), timestamp (int64 s + uint32 ns), duration
# (zigzag varint64 s + int32 ns).
# ---------------------------------------------------------------------------
_EPOCH_ORD = datetime.date(1970, 1, 1).toordinal()
for _d in [
    datetime.date(1970, 1, 1),
    datetime.date(1969, 12, 31),
    datetime.date(2020, 1, 1),
    datetime.date(1, 1, 1),
    datetime.date(9999, 12, 31),
    datetime.date(1900, 3, 1),
]:
    case("date %s" % _d.isoformat(), _d, {"date": str(_d.toordinal() - _EPOCH_ORD)})
# Hand-checked values for two of them (not derived from Python's calendar).
case("date 9999-12-31 literal", datetime.date(9999, 12, 31), {"date": "2932896"})
case("date 0001-01-01 literal", datetime.date(1, 1, 1), {"date": "-719162"})

_TS = [
    (datetime.datetime(1970, 1, 1, tzinfo=UTC), "0", 0),
    (datetime.datetime(2020, 1, 1, 0, 0, 0, 123456, tzinfo=UTC), "1577836800", 123456000),
    (datetime.datetime(1969, 12, 31, 23, 59, 59, 500000, tzinfo=UTC), "-1", 500000000),
    (datetime.datetime(1900, 1, 1, tzinfo=UTC), "-2208988800", 0),
    (datetime.datetime(2038, 1, 19, 3, 14, 8, tzinfo=UTC), "2147483648", 0),
    (datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC), "253402300799", 0),
]
for _dt, _s, _ns in _TS:
    case("timestamp %s" % _dt.isoformat(), _dt, {"timestamp": {"seconds": _s, "nanos": _ns}})

_DUR = [
    (datetime.timedelta(0), "0", 0),
    (datetime.timedelta(seconds=1, microseconds=5), "1", 5000),
    (datetime.timedelta(microseconds=-1), "-1", 999999000),
    (datetime.timedelta(days=-1), "-86400", 0),
    (datetime.timedelta(seconds=-1, microseconds=500000), "-1", 500000000),
    (datetime.timedelta(days=1000000, microseconds=999999), "86400000000", 999999000),
    (datetime.timedelta(days=-1000000), "-86400000000", 0),
]
for _td, _s, _ns in _DUR:
    case("duration %r" % _td, _td, {"duration": {"seconds": _s, "nanos": _ns}})

# ---------------------------------------------------------------------------
# Decimal: zigzag varint32 scale, then small (zigzag << 1) or big form.
# ---------------------------------------------------------------------------
_DEC = [
    ("0", "0", 0),
    ("123.45", "12345", 2),
    ("-0.001", "-1", 3),
    (str(1 << 62), str(1 << 62), 0),
    (str(-(1 << 62)), str(-(1 << 62)), 0),
    (str((1 << 62) - 1), str((1 << 62) - 1), 0),
    (str(-((1 << 62) - 1)), str(-((1 << 62) - 1)), 0),
    (str(-(1 << 62) - 1), str(-(1 << 62) - 1), 0),
    (str(1 << 63), str(1 << 63), 0),
    (str(-(1 << 63)), str(-(1 << 63)), 0),
    (str((1 << 64) - 1), str((1 << 64) - 1), 0),
    (str(1 << 64), str(1 << 64), 0),
    (str(10 ** 40), str(10 ** 40), 0),
    (str(-(10 ** 40)), str(-(10 ** 40)), 0),
    ("1E+17", "1", -17),
    ("-5E+17", "-5", -17),
    ("123456789012345678901234567890123456789", "123456789012345678901234567890123456789", 0),
    ("-1.23456789012345678901234567890123456789", "-123456789012345678901234567890123456789", 38),
    ("1E-10000", "1", 10000),
]
for _text, _unscaled, _scale in _DEC:
    case(
        "decimal %s" % _text,
        decimal.Decimal(_text),
        {"decimal": {"unscaled": _unscaled, "scale": _scale}},
    )

# ---------------------------------------------------------------------------
# Enums, registered by id 101 and by name "demo.color".
# ---------------------------------------------------------------------------
built("enum id 101 value 0", {"enum": {"type_id": 101, "value": 0}})
built("enum id 101 value 200", {"enum": {"type_id": 101, "value": 200}})
built("enum id 1 value 1", {"enum": {"type_id": 1, "value": 1}})
# Meta strings: pyfory writes "demo" and "color" as LOWER_SPECIAL (1).  Java
# offers only UTF_8 / ALL_TO_LOWER_SPECIAL / LUDS for namespaces and
# UTF_8 / LUDS / FIRST_TO_LOWER_SPECIAL / ALL_TO_LOWER_SPECIAL for type names,
# so fory-core 1.6.0 writes both as ALL_TO_LOWER_SPECIAL (4), same bits
# (checked with fory-core 1.6.0: Fory.register(color.class, "demo", "color")).
built(
    "named_enum demo.color",
    {
        "named_enum": {"namespace": "demo", "name": "color", "value": 2},
        "ns_enc": "lower_special",
        "name_enc": "lower_special",
    },
    java="01ff1a06040c8c70080489cb744002",
)
built(
    "named_enum demo.Color",
    {
        "named_enum": {"namespace": "demo", "name": "Color", "value": 1},
        "ns_enc": "lower_special",
        "name_enc": "first_to_lower_special",
    },
    java="01ff1a06040c8c70080389cb744001",
)
# Meta strings longer than 16 bytes carry a 64-bit hash (murmur3 x64_128
# lane 0, seed 47, low byte = encoding).  Here lane 0 is non-negative, and
# pyfory and Java agree on the hash bits.
built(
    "named_enum long type name (hashed meta string)",
    {
        "named_enum": {"namespace": "demo", "name": "averyveryverylongtypenamexyz", "value": 1},
        "ns_enc": "lower_special",
        "name_enc": "lower_special",
    },
    java="01ff1a06040c8c702404c8e2d4bd246f4202a48e2a48e2a48e16e69a78791a0612f8c801",
)
# Here lane 0 of the namespace hash is negative: fory-core 1.6.0 writes
# Math.abs(lane0) (bdb639b338544a..), pyfory 1.7.7 writes lane0 itself
# (4249c64cc7abb5..) and, on reading, rejects any other hash ("Malformed
# metastring hash"), so pyfory cannot read the Java bytes.  Java does not
# check the hash on reading.  libwire must read pyfory's bytes (they are what
# pyfory writes) and reproduce them losslessly; it records the pyfory form as
# "ns_hash": "raw".
built(
    "named_enum long names (hashed meta strings, negative murmur lane)",
    {
        "named_enum": {
            "namespace": "averyveryverylongnamespace",
            "name": "averyveryverylongtypename",
            "value": 1,
        },
        "ns_enc": "lower_special",
        "name_enc": "lower_special",
        # The namespace (17 bytes) is hashed the pyfory way; the 16-byte
        # name has no hash.
        "ns_hash": "raw",
    },
    java="01ff1a2204bdb639b338544a82a48e2a48e2a48e16e699a06124f00880200402a48e2a48e2a48e16e69a78791a061001",
    pyfory_rejects_fresh=ValueError,
)
built(
    "list of enums",
    L([{"enum": {"type_id": 101, "value": 0}}, {"enum": {"type_id": 101, "value": 1}}], 8),
)
built(
    "list of two enum types",
    L([{"enum": {"type_id": 101, "value": 0}}, {"enum": {"type_id": 102, "value": 1}}], 0),
)
built(
    "list of named enums (meta string back-reference)",
    L(
        [
            {
                "named_enum": {"namespace": "demo", "name": "color", "value": 0},
                "ns_enc": "lower_special",
                "name_enc": "lower_special",
            },
            {
                "named_enum": {"namespace": "demo", "name": "color", "value": 2},
                "ns_enc": "lower_special",
                "name_enc": "lower_special",
            },
        ],
        8,
    ),
    java="01ff1602081a06040c8c70080489cb74400002",
)

# ---------------------------------------------------------------------------
# Several roots in one buffer.
# ---------------------------------------------------------------------------
CASES.append(
    Case(
        "roots x6",
        [1, "hi", [1, None], {"a": 1}, None, 2.5],
        [V(1), S("hi"), L([V(1), NULL], 10), M([[S("a"), V(1)]], [[0, 1]]), NULL, F64(2.5)],
    )
)
CASES.append(Case("roots x2 same list", [[1], [1]], [L([V(1)], 8), L([V(1)], 8)]))

# ---------------------------------------------------------------------------
# Reference tracking (ref=True).  Every non-null root gets 0x00.
# ---------------------------------------------------------------------------


def T(node):
    node = dict(node)
    node["tracked"] = True
    return node


case("ref root int", 5, T(V(5)), ref=True)
case("ref root str", "s", T(S("s")), ref=True)
case("ref root bool", True, T({"bool": True}), ref=True)
case("ref root null", None, NULL, ref=True)
case("ref root bytes", b"", T({"binary": ""}), ref=True)
case("ref root date", datetime.date(2020, 1, 1), T({"date": "18262"}), ref=True)
case("ref root list [1,2]", [1, 2], T(L([V(1), V(2)], 8)), ref=True)
case("ref root empty list", [], T({"list": []}), ref=True)
case("ref root map {'a':1}", {"a": 1}, T(M([[S("a"), V(1)]], [[0, 1]])), ref=True)
built("ref root set {'a'}", T({"set": [S("a")], "header": 8}), ref=True)
case("ref list of lists", [[1], [2]], T(L([T(L([V(1)], 8)), T(L([V(2)], 8))], 9)), ref=True)
case(
    "ref list [1,'a']",
    [1, "a"],
    T(L([V(1), S("a")], 1)),
    ref=True,
    # Java writes REF_VALUE (00) for each element of a heterogeneous list
    # under ref tracking; pyfory writes NOT_NULL_VALUE (ff).
    java="010016020100070200150461",
)
_shared = [1]
case(
    "ref shared list",
    [_shared, _shared],
    T(L([L([V(1)], 8, anchor="x"), {"ref": "x"}], 9)),
    ref=True,
)
_cyc = []
_cyc.append(_cyc)
case("ref cyclic list", _cyc, {"list": [{"ref": "x"}], "header": 9, "anchor": "x"}, ref=True)
_cyc2 = [1]
_cyc2.append(_cyc2)
case(
    "ref cyclic list [1, self]",
    _cyc2,
    {"list": [V(1), {"ref": "x"}], "header": 1, "anchor": "x"},
    ref=True,
    java="0100160201000702fe00",
)
_sd = {"k": 1}
case(
    "ref shared dict",
    [_sd, _sd],
    T(L([M([[S("k"), V(1)]], [[0, 1]], anchor="x"), {"ref": "x"}], 9)),
    ref=True,
)
_cd = {}
_cd["self"] = _cd
case(
    "ref cyclic dict",
    _cd,
    {"map": [[S("self"), {"ref": "x"}]], "chunks": [[8, 1]], "anchor": "x"},
    ref=True,
)
_sv = [1]
case(
    "ref dict with shared value",
    {"x": _sv, "y": _sv},
    T(M([[S("x"), L([V(1)], 8, anchor="v")], [S("y"), {"ref": "v"}]], [[8, 2]])),
    ref=True,
)
case("ref map list value", {"a": [1]}, T(M([[S("a"), T(L([V(1)], 8))]], [[8, 1]])), ref=True)
_sb = b"xy"
case(
    "ref shared bytes",
    [_sb, _sb],
    T(L([{"binary": "7879", "anchor": "b"}, {"ref": "b"}], 9)),
    ref=True,
)
_ss = "shared-string"
case("ref same str twice", [_ss, _ss], T(L([S(_ss), S(_ss)], 8)), ref=True)
_sdt = datetime.date(2020, 1, 1)
# pyfory tracks date objects; Java 1.6.0 never tracks time values.  The
# anchor in the notation asks for a shared reference, so libwire must write
# pyfory's bytes here.
case(
    "ref shared date",
    [_sdt, _sdt],
    T(L([{"date": "18262", "anchor": "d"}, {"ref": "d"}], 9)),
    ref=True,
)
case("ref list with null", [[1], None], T(L([T(L([V(1)], 8)), NULL], 11)), ref=True)
case("ref list [1,None]", [1, None], T(L([V(1), NULL], 10)), ref=True)
# Java 1.6.0 fails on [null] with ref tracking (ClassUnregisteredException:
# void); libwire writes Fory Go's form (03: tracking and has-null, E-57).
case("ref list [None]", [None], T(L([NULL], 10)), ref=True, go="0100160103fd")
case(
    "ref list [[1],'a']",
    [[1], "a"],
    T(L([T(L([V(1)], 8)), S("a")], 1)),
    ref=True,
    java="010016020100160108070200150461",
)
# The non-null side of a null chunk carries the chunk's tracking bit: under
# ref tracking both runtimes write it with REF_VALUE (00), even a string.
case("ref map null value", {"a": None}, T(M([[T(S("a")), NULL]], [[17, 1]])), ref=True)
case("ref map null key, list value", {None: [1]}, T(M([[NULL, T(L([V(1)], 8))]], [[10, 1]])), ref=True)
case(
    "ref map two chunks",
    {"a": 1, "b": "x"},
    T(M([[S("a"), V(1)], [S("b"), S("x")]], [[0, 1], [0, 1]])),
    ref=True,
)
built(
    "ref set mixed",
    T({"set": [V(1), S("a"), NULL], "header": 3}),
    ref=True,
    java="010017030300070200150461fd",
)
# pyfory does not track dense arrays (header 08, no flags); Java tracks them
# (header 09, each array with REF_VALUE).
case(
    "ref list of arrays",
    [pyfory.Int32Array([7]), pyfory.Int32Array([7])],
    T(L([{"int32_array": ["7"]}, {"int32_array": ["7"]}], 8)),
    ref=True,
    java="01001602092e0004070000000004" + "07000000",
)
CASES.append(
    Case(
        "ref roots x2 (ref ids restart per root)",
        [[_shared, _shared], [_shared, _shared]],
        [
            T(L([L([V(1)], 8, anchor="x"), {"ref": "x"}], 9)),
            T(L([L([V(1)], 8, anchor="y"), {"ref": "y"}], 9)),
        ],
        ref=True,
    )
)

# Trackable types in same-type slots differ (spec R-WREF-3): Java tracks
# decimals and dense arrays, not time values; pyfory the reverse.
_DEC2 = [decimal.Decimal("1.25"), decimal.Decimal("-1.25")]
case(
    "ref list of decimals",
    _DEC2,
    T(L([{"decimal": {"unscaled": "125", "scale": 2}}, {"decimal": {"unscaled": "-125", "scale": 2}}], 8)),
    ref=True,
    java="0100160209280004f4030004f203",
)
case(
    "ref list of equal dates",
    [datetime.date(2020, 1, 1), datetime.date(2020, 1, 1)],
    T(L([T({"date": "18262"}), T({"date": "18262"})], 9)),
    ref=True,
    java="010016020827ac9d02ac9d02",
)
case(
    "ref list timestamp and duration",
    [datetime.datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC), datetime.timedelta(seconds=1)],
    T(L([T({"timestamp": {"seconds": "1", "nanos": 0}}), T({"duration": {"seconds": "1", "nanos": 0}})], 1)),
    ref=True,
)
case(
    "ref map decimal value",
    {"a": decimal.Decimal(1)},
    T(M([[S("a"), {"decimal": {"unscaled": "1", "scale": 0}}]], [[0, 1]])),
    ref=True,
    java="01001801080115280461000004",
)
case(
    "ref list of float64 arrays",
    [pyfory.Float64Array([1.0]), pyfory.Float64Array([])],
    T(L([{"float64_array": ["0x3ff0000000000000"]}, {"float64_array": []}], 8)),
    ref=True,
    java="0100160209380008000000000000f03f0000",
)

IDS = [c.id for c in CASES]
assert len(set(IDS)) == len(IDS), "duplicate case ids"
