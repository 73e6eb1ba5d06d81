"""The valid schema-less cases: values only; the bytes come from the runtimes
(generate.py asks the pyfory and Java peers to encode every case).

A case is identified by (area, key). `key` must never change for a case
(the fixture id is derived from it through ids.json); a new case takes a new
key. The table is ours: values chosen from the format's boundaries
(spec/01-primitives.md, spec/02-values.md) and from the runtimes' writer
policies (spec/03-writer-policy.md).
"""

from notation_build import (
    ARR, B, BF16, BOOL, DATE, DEC, DUR, F16, F32, F64, L, M, NULL, REF, S, SET, TS, V32, V64, I, anchor,
)


class Case:
    def __init__(self, area, group, key, name, values, rules, tags=(), ref=False, compatible=False,
                 upstream=None, note=None):
        self.area = area
        self.group = group
        self.key = key
        self.name = name
        self.values = values
        self.rules = list(rules)
        self.tags = list(tags)
        self.ref = ref
        self.compatible = compatible
        self.upstream = upstream
        self.note = note


CASES = []


def add(area, group, key, name, values, rules, **kw):
    if not isinstance(values, list):
        values = [values]
    CASES.append(Case(area, group, key, name, values, rules, **kw))


ROOT = ["R-PAYLOAD-1", "R-PAYLOAD-2", "R-WROOT-1", "R-WROOT-2"]
UNSIGNED = ["unsigned"]

# ---------------------------------------------------------------------------
# primitives/bool
# ---------------------------------------------------------------------------
A = "primitives/bool"
R_BOOL = ["R-BOOL-1"] + ROOT
add(A, "prim.bool", "true", "bool true", BOOL(True), R_BOOL)
add(A, "prim.bool", "false", "bool false", BOOL(False), R_BOOL)
add(A, "prim.bool", "list", "list of bools", L(BOOL(True), BOOL(False), BOOL(True)), R_BOOL + ["R-LIST-2", "R-WLIST-1"])
add(A, "prim.bool", "list-null", "list of bools with a null", L(BOOL(False), NULL, BOOL(True)),
    R_BOOL + ["R-LIST-4", "R-LIST-6", "R-WLIST-1"])
add(A, "prim.bool", "map", "map bool to bool", M((BOOL(True), BOOL(False)), (BOOL(False), BOOL(True))),
    R_BOOL + ["R-MAP-4", "R-WMAP-1"])
add(A, "prim.bool", "ref-root", "bool root with reference tracking", BOOL(True), R_BOOL + ["R-REF-3"],
    ref=True, tags=["ref_tracking"])
add(A, "prim.bool", "two-roots", "two bool roots", [BOOL(True), BOOL(False)], R_BOOL + ["R-PAYLOAD-5"])

# ---------------------------------------------------------------------------
# primitives/int: fixed-width integers
# ---------------------------------------------------------------------------
A = "primitives/int"
R_FIXED = ["R-FIXED-1", "R-ORDER-1"] + ROOT
for key, vals, tags in [
    ("int8", [-128, -1, 0, 1, 127], []),
    ("int16", [-32768, -2, 0, 255, 256, 32767], []),
    ("uint8", [0, 1, 127, 128, 255], UNSIGNED),
    ("uint16", [0, 1, 255, 256, 32768, 65535], UNSIGNED),
    ("uint32", [0, 5, 65536, (1 << 31), (1 << 32) - 1], UNSIGNED),
    ("uint64", [0, 1, (1 << 32), (1 << 63), (1 << 64) - 1], UNSIGNED),
]:
    for v in vals:
        add(A, "prim." + key, "%s %d" % (key, v), "%s %d" % (key, v), I(key, v), R_FIXED, tags=tags)
    add(A, "prim." + key, "%s list" % key, "list of %s" % key, L(*[I(key, v) for v in vals]),
        R_FIXED + ["R-LIST-2", "R-WLIST-1"], tags=tags)
# Fixed INT32/INT64 only inside lists: the Java runtime reads a root INT32 or
# INT64 as a varint (spec/errata.md E-19).
for key, vals in [("int32", [-(1 << 31), -1, 0, 5, (1 << 31) - 1]),
                  ("int64", [-(1 << 63), -1, 0, 5, (1 << 32), (1 << 63) - 1])]:
    for v in vals:
        add(A, "prim." + key, "%s %d in list" % (key, v), "%s %d (in a list)" % (key, v), L(I(key, v)),
            R_FIXED + ["R-LIST-2"])
    add(A, "prim." + key, "%s list" % key, "list of %s" % key, L(*[I(key, v) for v in vals]),
        R_FIXED + ["R-LIST-2", "R-WLIST-1"])
# (The Java runtime 1.6.0 cannot read INT32 or INT64 elements of a list whose
# elements differ in type: NullPointerException.)
add(A, "prim.int", "mixed fixed", "list of the fixed-width integer types but INT32 and INT64",
    L(I("int8", -1), I("int16", -1), I("uint8", 255), I("uint16", 65535), I("uint32", (1 << 32) - 1),
      I("uint64", (1 << 64) - 1)),
    R_FIXED + ["R-LIST-4", "R-WLIST-1"], tags=UNSIGNED)
add(A, "prim.int", "map int16 uint16", "map int16 to uint16",
    M((I("int16", -1), I("uint16", 1)), (I("int16", 2), I("uint16", 65535))), R_FIXED + ["R-MAP-4"], tags=UNSIGNED)
add(A, "prim.int", "set int8", "set of int8", SET(I("int8", 1), I("int8", -1), I("int8", 0)),
    R_FIXED + ["R-LIST-1", "R-LIST-8"])

# ---------------------------------------------------------------------------
# primitives/varint: every length boundary
# ---------------------------------------------------------------------------
A = "primitives/varint"


def signed_boundaries(groups):
    vals = [0, 1, -1]
    for k in range(1, groups + 1):
        b = 1 << (7 * k - 1)
        vals += [b - 1, -b, b, -b - 1]
    return vals


R_V32 = ["R-VARINT-1", "R-VARINT-5"] + ROOT
R_VU32 = ["R-VARINT-1"] + ROOT
R_V64 = ["R-PVL-1", "R-PVL-4"] + ROOT
R_VU64 = ["R-PVL-1"] + ROOT
for v in signed_boundaries(4) + [(1 << 31) - 1, -(1 << 31)]:
    add(A, "prim.varint32", "varint32 %d" % v, "varint32 %d" % v, V32(v), R_V32)
for v in [0, 1, 127, 128, 300, (1 << 14) - 1, 1 << 14, (1 << 21) - 1, 1 << 21, (1 << 28) - 1, 1 << 28,
          (1 << 31), (1 << 32) - 1]:
    add(A, "prim.var_uint32", "var_uint32 %d" % v, "var_uint32 %d" % v, I("var_uint32", v), R_VU32, tags=UNSIGNED)
for v in signed_boundaries(8) + [(1 << 62) - 1, -(1 << 62), (1 << 63) - 1, -(1 << 63)]:
    add(A, "prim.varint64", "varint64 %d" % v, "varint64 %d" % v, V64(v), R_V64)
_vu64 = [0, 1]
for k in range(1, 9):
    _vu64 += [(1 << (7 * k)) - 1, 1 << (7 * k)]
_vu64 += [(1 << 63) - 1, 1 << 63, (1 << 64) - 1]
for v in _vu64:
    add(A, "prim.var_uint64", "var_uint64 %d" % v, "var_uint64 %d" % v, I("var_uint64", v), R_VU64 + ["R-PVL-2"],
        tags=UNSIGNED)
add(A, "prim.varint32", "varint32 list", "list of varint32 of every length",
    L(*[V32(v) for v in [0, -64, 64, -8193, 8192, 1 << 20, -(1 << 27) - 1, (1 << 31) - 1]]),
    R_V32 + ["R-LIST-2"])
add(A, "prim.varint64", "varint64 list", "list of varint64 of every length",
    L(*[V64((1 << (7 * k - 1))) for k in range(1, 10)]), R_V64 + ["R-LIST-2"])
add(A, "prim.var_uint32", "var_uint32 list", "list of var_uint32",
    L(*[I("var_uint32", (1 << (7 * k)) - 1) for k in range(1, 5)] + [I("var_uint32", (1 << 32) - 1)]),
    R_VU32 + ["R-LIST-2"], tags=UNSIGNED)
add(A, "prim.var_uint64", "var_uint64 list", "list of var_uint64",
    L(*[I("var_uint64", 1 << (7 * k)) for k in range(0, 9)] + [I("var_uint64", (1 << 64) - 1)]),
    R_VU64 + ["R-LIST-2"], tags=UNSIGNED)
add(A, "prim.varint64", "varint map", "map varint32 to varint64",
    M((V32(-1), V64(1 << 40)), (V32(1 << 30), V64(-(1 << 62)))), R_V32 + R_V64 + ["R-MAP-4"])

# ---------------------------------------------------------------------------
# primitives/tagged
# ---------------------------------------------------------------------------
A = "primitives/tagged"
R_TAG = ["R-TAGGED-1"] + ROOT
for v in [0, 5, -1, (1 << 30) - 1, 1 << 30, -(1 << 30), -(1 << 30) - 1, (1 << 31), (1 << 63) - 1, -(1 << 63)]:
    add(A, "prim.tagged_int64", "tagged_int64 %d" % v, "tagged_int64 %d" % v, I("tagged_int64", v), R_TAG)
for v in [0, 5, (1 << 31) - 1, 1 << 31, (1 << 32), (1 << 63), (1 << 64) - 1]:
    add(A, "prim.tagged_uint64", "tagged_uint64 %d" % v, "tagged_uint64 %d" % v, I("tagged_uint64", v),
        ["R-TAGGED-2"] + ROOT, tags=UNSIGNED)
add(A, "prim.tagged_int64", "tagged_int64 list", "list of tagged_int64, short and long forms",
    L(*[I("tagged_int64", v) for v in [0, -(1 << 30), (1 << 30), -(1 << 63)]]), R_TAG + ["R-LIST-2"])
add(A, "prim.tagged_uint64", "tagged_uint64 list", "list of tagged_uint64, short and long forms",
    L(*[I("tagged_uint64", v) for v in [1, (1 << 31) - 1, 1 << 31, (1 << 64) - 1]]), ["R-TAGGED-2", "R-LIST-2"] + ROOT,
    tags=UNSIGNED)

# ---------------------------------------------------------------------------
# primitives/float (float32, float64)
# ---------------------------------------------------------------------------
A = "primitives/float"
R_FL = ["R-FLOAT-1", "R-ORDER-1", "R-WNUM-2"] + ROOT
F64_BITS = {
    "0": 0x0000000000000000, "-0": 0x8000000000000000, "1.5": 0x3FF8000000000000, "0.1": 0x3FB999999999999A,
    "-2": 0xC000000000000000, "nan": 0x7FF8000000000000, "-nan": 0xFFF8000000000000,
    "nan-payload": 0x7FF8000000000001, "snan": 0x7FF0000000000001, "inf": 0x7FF0000000000000,
    "-inf": 0xFFF0000000000000, "min-subnormal": 0x0000000000000001, "-min-subnormal": 0x8000000000000001,
    "max-subnormal": 0x000FFFFFFFFFFFFF, "min-normal": 0x0010000000000000, "max": 0x7FEFFFFFFFFFFFFF,
    "-max": 0xFFEFFFFFFFFFFFFF, "pi": 0x400921FB54442D18, "2^53": 0x4340000000000000,
}
for name, bits in F64_BITS.items():
    add(A, "prim.float64", "float64 %s" % name, "float64 %s (0x%016x)" % (name, bits), F64(bits), R_FL)
F32_BITS = {
    "0": 0x00000000, "-0": 0x80000000, "1.5": 0x3FC00000, "0.1": 0x3DCCCCCD, "nan": 0x7FC00000,
    "nan-payload": 0x7FC00001, "-nan": 0xFFC00000, "inf": 0x7F800000, "-inf": 0xFF800000,
    "min-subnormal": 0x00000001, "max-subnormal": 0x007FFFFF, "min-normal": 0x00800000, "max": 0x7F7FFFFF,
    "-max": 0xFF7FFFFF, "16777217-rounded": 0x4B800000,
}
for name, bits in F32_BITS.items():
    add(A, "prim.float32", "float32 %s" % name, "float32 %s (0x%08x)" % (name, bits), F32(bits), R_FL)
add(A, "prim.float64", "float64 list", "list of float64 with a null",
    L(F64(1.5), NULL, F64(0x8000000000000000), F64(0x7FF0000000000000)), R_FL + ["R-LIST-4", "R-LIST-6"])
add(A, "prim.float32", "float32 list", "list of float32", L(F32(1.0), F32(-2.5), F32(0x7F800000)),
    R_FL + ["R-LIST-2"])
add(A, "prim.float32", "float mixed list", "list of float32 and float64",
    L(F32(1.5), F64(1.5), F32(0x80000000)), R_FL + ["R-LIST-4", "R-WLIST-1"])
add(A, "prim.float64", "float64 map", "map float64 to float32",
    M((F64(0.5), F32(0.5)), (F64(-1.0), F32(0x7F7FFFFF))), R_FL + ["R-MAP-4"])

# ---------------------------------------------------------------------------
# primitives/float16 (float16, bfloat16)
# ---------------------------------------------------------------------------
A = "primitives/float16"
for bits, what in [(0x3C00, "1"), (0xBC00, "-1"), (0x0000, "0"), (0x8000, "-0"), (0x0001, "min subnormal"),
                   (0x03FF, "max subnormal"), (0x0400, "min normal"), (0x7BFF, "max 65504"),
                   (0xFBFF, "-65504"), (0x7C00, "inf"), (0xFC00, "-inf"), (0x7E01, "nan with payload"),
                   (0x3555, "0.333"), (0x4248, "3.14")]:
    add(A, "prim.float16", "float16 0x%04x" % bits, "float16 %s (0x%04x)" % (what, bits), F16(bits), R_FL,
        tags=["float16"])
for bits, what in [(0x3F80, "1"), (0xBF80, "-1"), (0x0000, "0"), (0x8000, "-0"), (0x0001, "min subnormal"),
                   (0x007F, "max subnormal"), (0x0080, "min normal"), (0x7F7F, "max"), (0xFF7F, "-max"),
                   (0x7F80, "inf"), (0xFF80, "-inf"), (0x7FC0, "nan"), (0x4049, "3.14")]:
    add(A, "prim.bfloat16", "bfloat16 0x%04x" % bits, "bfloat16 %s (0x%04x)" % (what, bits), BF16(bits), R_FL,
        tags=["bfloat16"])
add(A, "prim.float16", "float16 list", "list of float16", L(F16(0x3C00), F16(0xC000), F16(0x7C00)),
    R_FL + ["R-LIST-2"], tags=["float16"])
add(A, "prim.bfloat16", "bfloat16 list", "list of bfloat16", L(BF16(0x3F80), BF16(0xC000), BF16(0x7F80)),
    R_FL + ["R-LIST-2"], tags=["bfloat16"])
add(A, "prim.float16", "half mixed list", "list of float16, bfloat16 and a null",
    L(F16(0x3C00), BF16(0x3F80), NULL), R_FL + ["R-LIST-4", "R-LIST-6"], tags=["float16", "bfloat16"])

# ---------------------------------------------------------------------------
# primitives/string
# ---------------------------------------------------------------------------
A = "primitives/string"
R_STR = ["R-STR-1", "R-STR-2", "R-WSTR-1", "R-V36-1"] + ROOT
STRINGS = [
    ("empty", ""),
    ("ascii", "hi"),
    ("ascii-31", "a" * 31),
    ("ascii-32", "b" * 32),
    ("ascii-300", "c" * 300),
    ("ascii-4095", "d" * 4095),
    ("ascii-4096", "e" * 4096),
    ("controls", "\x00\x01\x1f\x7f"),
    ("latin1", "h\u00e9llo"),
    ("latin1-ff", "\u00ff"),
    ("latin1-80", "\u0080"),
    ("latin1-300", "\u00e9" * 300),
    ("bmp", "\u65e5\u672c"),
    ("bmp-euro", "\u20ac"),
    ("bmp-then-ascii", "\u65e5\u672ca"),
    ("bmp-e-bmp", "\u00e9\u65e5"),
    ("astral", "\U0001f600"),
    ("ascii-astral", "a\U0001f600"),
    ("a-e-ri", "a\u00e9\u65e5"),
    ("abcde-ri", "abcde\u65e5"),
    ("abcd-e-ri", "abcd\u00e9\u65e5"),
    ("abc-e-ri", "abc\u00e9\u65e5"),
    ("ascii63-ri2", "a" * 63 + "\u65e5\u65e5"),
    ("ascii64-ri", "a" * 64 + "\u65e5"),
    ("ascii70-ri", "a" * 70 + "\u65e5"),
    ("ri-ascii70", "\u65e5" + "a" * 70),
    ("bmp-300", "\u65e5" * 300),
    ("astral-100", "\U0001f600" * 100),
    ("mixed-all", "a\u00e9\u65e5\U0001f600"),
    ("greek", "\u03b1\u03b2\u03b3"),
    ("cyrillic-ascii", "abcd\u0436"),
    ("max-bmp", "\uffff"),
    ("max-scalar", "\U0010ffff"),
    ("after-surrogates", "\ue000"),
    ("bom", "\ufeff"),
    ("nul-utf8", "abcd\x00\u65e5"),
]
for key, text in STRINGS:
    add(A, "prim.string", "string %s" % key, "string %s (%d chars)" % (key, len(text)), S(text), R_STR)
add(A, "prim.string", "string list", "list of strings in three encodings",
    L(S("a"), S("\u00e9"), S("\u65e5"), S("a\u00e9\u65e5")), R_STR + ["R-LIST-2"])
add(A, "prim.string", "string list null", "list of strings with a null", L(S("x"), NULL, S("")),
    R_STR + ["R-LIST-4", "R-LIST-6"])
add(A, "prim.string", "string map", "map string to string",
    M((S("k"), S("\u65e5\u672c")), (S("\u00e9"), S("v"))), R_STR + ["R-MAP-4"])
add(A, "prim.string", "string set", "set of strings", SET(S("a"), S("b"), S("c")), R_STR + ["R-LIST-1"])
add(A, "prim.string", "string roots", "three string roots", [S(""), S("\u00e9"), S("\U0001f600")],
    R_STR + ["R-PAYLOAD-1"])

# ---------------------------------------------------------------------------
# primitives/binary
# ---------------------------------------------------------------------------
A = "primitives/binary"
R_BIN = ["R-BIN-1", "R-VARINT-1"] + ROOT
for n in [0, 1, 2, 127, 128, 255, 256, 16383, 16384]:
    add(A, "prim.binary", "binary %d" % n, "binary of %d bytes" % n, B(bytes((i * 7 + 3) % 256 for i in range(n))),
        R_BIN)
add(A, "prim.binary", "binary all bytes", "binary holding every byte value", B(bytes(range(256))), R_BIN)
add(A, "prim.binary", "binary list", "list of binaries", L(B(b"ab"), B(b""), B(b"\x00\xff")), R_BIN + ["R-LIST-2"])
add(A, "prim.binary", "binary map", "map string to binary", M((S("k"), B(b"\x01\x02")), (S("e"), B(b""))),
    R_BIN + ["R-MAP-4"])

# ---------------------------------------------------------------------------
# arrays/dense
# ---------------------------------------------------------------------------
A = "arrays/dense"
R_ARR = ["R-BIN-1", "R-ORDER-1"] + ROOT
DENSE = {
    "bool_array": [[True, False, True], [False] * 130],
    "int8_array": [[-128, -1, 0, 127], list(range(-64, 64)) + [1]],
    "int16_array": [[-32768, -1, 0, 32767], list(range(64)) + [1]],
    "int32_array": [[-(1 << 31), -1, 0, (1 << 31) - 1], list(range(-16, 16)) + [7]],
    "int64_array": [[-(1 << 63), -1, 0, (1 << 63) - 1], list(range(16)) + [1 << 40]],
    "uint8_array": [[0, 1, 255], list(range(200))],
    "uint16_array": [[0, 1, 65535], list(range(0, 65536, 1024))],
    "uint32_array": [[0, 1, (1 << 32) - 1], [1 << k for k in range(32)] + [3]],
    "uint64_array": [[0, 1, (1 << 64) - 1], [1 << k for k in range(0, 64, 4)] + [5]],
    "float16_array": [[0x3C00, 0xC000, 0x0001, 0x7C00, 0xFC00, 0x8000, 0x7BFF, 0x7E01], [0x3C00] * 65],
    "bfloat16_array": [[0x3F80, 0xC000, 0x0001, 0x7F80, 0xFF80, 0x8000, 0x7FC0], [0x4000] * 65],
    "float32_array": [[0x3F800000, 0xC0000000, 0x00000001, 0x7F800000, 0x80000000, 0x7FC00000],
                      [0x3F800000] * 33],
    "float64_array": [[0x3FF8000000000000, 0x8000000000000000, 0x0000000000000001, 0x7FF0000000000000,
                       0x7FF8000000000000], [0x3FF0000000000000] * 17],
}
for key, (small, big) in DENSE.items():
    tags = ["dense_array"]
    if key.startswith("uint"):
        tags.append("unsigned")
    if key == "float16_array":
        tags.append("float16")
    if key == "bfloat16_array":
        tags.append("bfloat16")
    rules = R_ARR + (["R-BIN-3"] if key == "bool_array" else [])
    add(A, "arr." + key, "%s small" % key, "%s with edge values" % key, ARR(key, small), rules, tags=tags)
    add(A, "arr." + key, "%s empty" % key, "empty %s" % key, ARR(key, []), rules, tags=tags)
    add(A, "arr." + key, "%s long" % key, "%s of %d elements (two-byte length)" % (key, len(big)), ARR(key, big),
        rules, tags=tags)
    add(A, "arr." + key, "%s in list" % key, "list of two %s" % key, L(ARR(key, small[:2]), ARR(key, [])),
        rules + ["R-LIST-2"], tags=tags)
add(A, "arr.mixed", "arrays mixed list", "list of arrays of different types",
    L(ARR("int32_array", [1]), ARR("float64_array", [0x3FF0000000000000]), ARR("bool_array", [True])),
    R_ARR + ["R-LIST-4"], tags=["dense_array"])
add(A, "arr.mixed", "arrays map", "map string to int64_array",
    M((S("a"), ARR("int64_array", [1, 2])), (S("b"), ARR("int64_array", [])), (S("c"), NULL)),
    R_ARR + ["R-MAP-3", "R-MAP-4"], tags=["dense_array"])

# ---------------------------------------------------------------------------
# collections/list
# ---------------------------------------------------------------------------
A = "collections/list"
R_LIST = ["R-LIST-1", "R-LIST-2", "R-LIST-4", "R-WLIST-1", "R-WLIST-2", "R-WLIST-3"] + ROOT
add(A, "coll.list", "empty", "empty list", L(), R_LIST + ["R-WLIST-3"])
add(A, "coll.list", "one", "list of one varint64", L(V64(1)), R_LIST + ["R-LIST-5"])
add(A, "coll.list", "same-type", "list of two varint64", L(V64(1), V64(2)), R_LIST + ["R-LIST-5"])
add(A, "coll.list", "mixed", "list of varint64 and string", L(V64(1), S("a")), R_LIST)
add(A, "coll.list", "mixed-null", "list of varint64, string, null", L(V64(1), S("a"), NULL), R_LIST + ["R-LIST-6"])
add(A, "coll.list", "same-null", "list of varint64 and null", L(V64(1), NULL), R_LIST + ["R-LIST-5", "R-LIST-6"])
add(A, "coll.list", "null-first", "list starting with a null", L(NULL, V64(1)), R_LIST + ["R-LIST-5", "R-LIST-6"])
add(A, "coll.list", "strings-null", "list of string and null", L(S("a"), NULL), R_LIST + ["R-LIST-5", "R-LIST-6"])
# Not here: all-null lists (the Java runtime 1.6.0 writes a java.lang.Object
# element type that no runtime reads, and cannot read pyfory's NONE element
# type; spec/errata.md E-18) and NONE values (the Java runtime fails on them).
add(A, "coll.list", "nested", "list of lists", L(L(V64(1)), L(V64(2))), R_LIST)
add(A, "coll.list", "nested-empty", "list holding an empty list", L(L()), R_LIST)
add(A, "coll.list", "nested-mixed", "list of a list with null, a string, an empty list",
    L(L(V64(1), NULL), S("x"), L()), R_LIST)
add(A, "coll.list", "deep-10", "ten nested lists", L(L(L(L(L(L(L(L(L(L(V64(0))))))))))), R_LIST)
add(A, "coll.list", "heterogeneous", "list of eight kinds with a null",
    L(V64(1), S("a"), F64(1.5), B(b"x"), NULL, BOOL(True), L(V64(2)), DATE(18262)), R_LIST + ["R-LIST-6"],
    tags=["temporal"])
for n in [127, 128, 300]:
    add(A, "coll.list", "ints-%d" % n, "list of %d varint64" % n, L(*[V64(i) for i in range(n)]),
        R_LIST + ["R-VARINT-1"])
add(A, "coll.list", "strings-300", "list of 300 strings", L(*[S("s%d" % i) for i in range(300)]), R_LIST)
add(A, "coll.list", "varint32", "list of varint32", L(V32(1), V32(-1), V32(1 << 30)), R_LIST)
add(A, "coll.list", "int8-mixed", "list of int8 and uint16 and float32", L(I("int8", 1), I("uint16", 2), F32(1.5)),
    R_LIST, tags=UNSIGNED)
add(A, "coll.list", "decimals", "list of decimals", L(DEC(125, 2), DEC(-125, 2)), R_LIST, tags=["decimal"])
add(A, "coll.list", "dates", "list of dates", L(DATE(0), DATE(-1), DATE(18262)), R_LIST, tags=["temporal"])
add(A, "coll.list", "timestamps", "list of timestamps", L(TS(0), TS(1577836800, 123456000)), R_LIST,
    tags=["temporal"])
add(A, "coll.list", "maps", "list of maps", L(M((S("a"), V64(1))), M()), R_LIST)
add(A, "coll.list", "sets", "list of sets", L(SET(V64(1)), SET()), R_LIST)
add(A, "coll.list", "binary-null", "list of binaries with a null", L(B(b"\x01"), NULL, B(b"")),
    R_LIST + ["R-LIST-6"])
add(A, "coll.list", "mixed-many", "list alternating two types", L(*[V64(i) if i % 2 else S(str(i)) for i in range(20)]),
    R_LIST)
add(A, "coll.list", "null-mixed-tail", "list of mixed types ending in nulls",
    L(S("a"), V64(1), NULL, NULL), R_LIST + ["R-LIST-6"])
add(A, "coll.list", "float-nulls", "list of float64 with nulls", L(NULL, F64(1.0), NULL), R_LIST + ["R-LIST-6"])
add(A, "coll.list", "compatible", "list in compatible mode", L(V64(1), S("a"), NULL), R_LIST, compatible=True,
    tags=["compatible"])
add(A, "coll.list", "ref-off-shared", "the same list twice without reference tracking",
    L(L(V64(1)), L(V64(1))), R_LIST + ["R-WREF-1"])

# ---------------------------------------------------------------------------
# collections/set
# ---------------------------------------------------------------------------
A = "collections/set"
R_SET = ["R-LIST-1", "R-LIST-2", "R-LIST-4", "R-LIST-8", "R-WLIST-1"] + ROOT
add(A, "coll.set", "empty", "empty set", SET(), R_SET + ["R-WLIST-3"])
add(A, "coll.set", "one", "set of one varint64", SET(V64(1)), R_SET)
add(A, "coll.set", "ints", "set of varint64", SET(V64(1), V64(2), V64(3)), R_SET)
add(A, "coll.set", "strings", "set of strings", SET(S("a"), S("b"), S("\u00e9")), R_SET)
add(A, "coll.set", "mixed", "set of varint64 and string", SET(V64(1), S("a")), R_SET)
add(A, "coll.set", "mixed-null", "set with a null and mixed types",
    SET(V64(1), F64(2.5), NULL, B(b"x"), S("a")), R_SET + ["R-LIST-6"])
add(A, "coll.set", "same-null", "set of strings with a null", SET(S("a"), NULL), R_SET + ["R-LIST-6"])
add(A, "coll.set", "300", "set of 300 varint64", SET(*[V64(i) for i in range(300)]), R_SET)
add(A, "coll.set", "floats", "set of float64", SET(F64(0.5), F64(-0.5)), R_SET)
add(A, "coll.set", "dates", "set of dates", SET(DATE(1), DATE(2)), R_SET, tags=["temporal"])
add(A, "coll.set", "decimals", "set of decimals", SET(DEC(1), DEC(25, 1)), R_SET, tags=["decimal"])
add(A, "coll.set", "in-list", "list of sets", L(SET(S("a")), SET(V64(1), V64(2))), R_SET)
add(A, "coll.set", "int16", "set of int16", SET(I("int16", 1), I("int16", -1)), R_SET)
add(A, "coll.set", "bools", "set of bools", SET(BOOL(True), BOOL(False)), R_SET)
add(A, "coll.set", "ref", "set with reference tracking", SET(S("a")), R_SET + ["R-WREF-2"], ref=True,
    tags=["ref_tracking"])
add(A, "coll.set", "ref-mixed", "mixed set with reference tracking", SET(V64(1), S("a"), NULL),
    R_SET + ["R-WLIST-4"], ref=True, tags=["ref_tracking"])

# ---------------------------------------------------------------------------
# collections/map
# ---------------------------------------------------------------------------
A = "collections/map"
R_MAP = ["R-MAP-1", "R-MAP-2", "R-MAP-3", "R-MAP-4", "R-WMAP-1", "R-WMAP-2", "R-WMAP-3"] + ROOT


def kv(n, fmt="k%03d"):
    return [(S(fmt % i), V64(i)) for i in range(n)]


add(A, "coll.map", "empty", "empty map", M(), R_MAP)
add(A, "coll.map", "one", "map of one string to varint64", M((S("a"), V64(1))), R_MAP)
add(A, "coll.map", "str-int", "map string to varint64", M((S("a"), V64(1)), (S("b"), V64(2))), R_MAP)
for n in [254, 255, 256, 300, 510, 511]:
    add(A, "coll.map", "entries-%d" % n, "map of %d entries (chunks of at most 255)" % n, M(*kv(n)), R_MAP)
add(A, "coll.map", "value-type-change", "300 entries, a string value at entry 100",
    M(*[(S("k%03d" % i), S("s%d" % i) if i == 100 else V64(i)) for i in range(300)]), R_MAP)
add(A, "coll.map", "key-type-change", "map whose key type changes", M((S("a"), V64(1)), (V64(2), V64(2)), (V64(3), V64(3))),
    R_MAP)
add(A, "coll.map", "two-chunks", "map string to varint64 then string to string",
    M((S("a"), V64(1)), (S("b"), S("x"))), R_MAP)
add(A, "coll.map", "null-key", "map with a null key", M((NULL, V64(1))), R_MAP)
add(A, "coll.map", "null-value", "map with a null value", M((S("a"), NULL)), R_MAP)
add(A, "coll.map", "null-both", "map with a null key and a null value", M((NULL, NULL)), R_MAP)
add(A, "coll.map", "null-between", "null chunk between normal chunks",
    M((S("a"), V64(1)), (S("b"), NULL), (S("c"), V64(2)), (S("d"), V64(3))), R_MAP)
add(A, "coll.map", "null-chunks-all", "all three kinds of null chunk",
    M((NULL, S("v")), (S("k"), NULL), (S("x"), V64(1))), R_MAP)
add(A, "coll.map", "null-at-255", "a null value right after 255 entries",
    M(*(kv(255) + [(S("n"), NULL)] + [(S("z"), V64(1))])), R_MAP)
add(A, "coll.map", "mixed-chunks", "map with six chunk kinds",
    M((S("a"), V64(1)), (V64(2), S("b")), (NULL, V64(3)), (F64(1.5), NULL), (BOOL(True), L(V64(1))),
      (B(b"k"), F64(2.5))), R_MAP)
add(A, "coll.map", "list-value", "map string to list", M((S("a"), L(V64(1)))), R_MAP)
add(A, "coll.map", "nested", "map of maps", M((V64(1), M((S("x"), NULL))), (V64(2), M())), R_MAP)
add(A, "coll.map", "utf16", "map with UTF-16 strings", M((S("\u00e9"), S("\u65e5\u672c"))), R_MAP)
add(A, "coll.map", "astral-key", "map with an astral key", M((S("\U0001f600"), V64(1))), R_MAP)
add(A, "coll.map", "int-keys", "map varint64 to string", M(*[(V64(i), S("v%d" % i)) for i in range(10)]), R_MAP)
add(A, "coll.map", "dates", "map date to timestamp", M((DATE(1), TS(1)), (DATE(2), TS(2))), R_MAP,
    tags=["temporal"])
add(A, "coll.map", "decimal-values", "map string to decimal", M((S("a"), DEC(1)), (S("b"), DEC(1 << 70))), R_MAP,
    tags=["decimal"])
add(A, "coll.map", "int16-float32", "map int16 to float32", M((I("int16", 1), F32(1.0)), (I("int16", 2), F32(2.0))),
    R_MAP)
add(A, "coll.map", "set-values", "map string to set", M((S("s"), SET(V64(1))), (S("t"), SET())), R_MAP)
add(A, "coll.map", "alternating", "map whose value type alternates",
    M(*[(S("k%d" % i), V64(i) if i % 2 else S("v")) for i in range(6)]), R_MAP)
add(A, "coll.map", "compatible", "map in compatible mode", M((S("a"), V64(1)), (NULL, S("x"))), R_MAP,
    compatible=True, tags=["compatible"])
add(A, "coll.map", "ref-null-key", "null key with reference tracking", M((NULL, V64(1))), R_MAP + ["R-WMAP-4"],
    ref=True, tags=["ref_tracking"])
add(A, "coll.map", "ref-null-value", "null value with reference tracking", M((S("a"), NULL)), R_MAP + ["R-WMAP-4"],
    ref=True, tags=["ref_tracking"])
add(A, "coll.map", "ref-two-chunks", "two chunks with reference tracking", M((S("a"), V64(1)), (S("b"), S("x"))),
    R_MAP + ["R-WREF-2"], ref=True, tags=["ref_tracking"])
add(A, "coll.map", "ref-list-value", "list value with reference tracking", M((S("a"), L(V64(1)))),
    R_MAP + ["R-WREF-2"], ref=True, tags=["ref_tracking"])
add(A, "coll.map", "ref-300", "300 entries with reference tracking", M(*kv(300)), R_MAP + ["R-WREF-2"], ref=True,
    tags=["ref_tracking"])
add(A, "coll.map", "ref-decimal-value", "decimal value with reference tracking", M((S("a"), DEC(1))),
    R_MAP + ["R-WREF-2", "R-WREF-3"], ref=True, tags=["ref_tracking", "decimal"])

# ---------------------------------------------------------------------------
# temporal
# ---------------------------------------------------------------------------
A = "temporal"
R_DATE = ["R-TIME-3", "R-PVL-4"] + ROOT
R_TS = ["R-TIME-1", "R-ORDER-1"] + ROOT
R_DUR = ["R-TIME-1", "R-PVL-4"] + ROOT
for days, what in [(0, "1970-01-01"), (-1, "1969-12-31"), (1, "1970-01-02"), (18262, "2020-01-01"),
                   (18954, "2021-11-23"), (-719162, "0001-01-01"), (2932896, "9999-12-31"), (-25508, "1900-03-01"),
                   (63, "1970-03-05 (one-byte boundary)"), (64, "1970-03-06 (two bytes)"),
                   (-65, "1969-10-28 (two bytes)"), (8191, "1992-06-04"), (8192, "1992-06-05 (three bytes)"),
                   (11016, "2000-02-29"), (-141427, "1582-10-15")]:
    add(A, "temp.date", "date %d" % days, "date %s" % what, DATE(days), R_DATE, tags=["temporal"])
for s, ns, what in [(0, 0, "epoch"), (100, 0, "100 s"), (1577836800, 123456000, "2020-01-01T00:00:00.123456Z"),
                    (-1, 500000000, "1969-12-31T23:59:59.5Z"), (-2208988800, 0, "1900-01-01"),
                    (2147483647, 0, "2038-01-19T03:14:07Z"), (2147483648, 0, "2038-01-19T03:14:08Z"),
                    (253402300799, 0, "9999-12-31T23:59:59Z"), (-62135596800, 0, "0001-01-01"),
                    (1, 999999000, "1.999999 s"), (0, 1000, "1 microsecond"), (-1, 999999000, "-1 microsecond"),
                    (951782400, 0, "2000-02-29")]:
    add(A, "temp.timestamp", "timestamp %d %d" % (s, ns), "timestamp %s" % what, TS(s, ns), R_TS, tags=["temporal"])
for s, ns, what in [(0, 0, "zero"), (1, 5000, "1.000005 s"), (-1, 999999000, "-1 microsecond"),
                    (-86400, 0, "-1 day"), (-1, 500000000, "-0.5 s"), (86400000000, 999999000, "1e6 days"),
                    (-86400000000, 0, "-1e6 days"), (63, 0, "63 s"), (64, 0, "64 s (two-byte seconds)"),
                    (3600, 1000, "1 h + 1 us"), (0, 999999000, "0.999999 s")]:
    add(A, "temp.duration", "duration %d %d" % (s, ns), "duration %s" % what, DUR(s, ns), R_DUR, tags=["temporal"])
# -9223372036.854775 s: inside Go's time.Duration (its least value is -2^63 ns), whole microseconds
# (pyfory, E-20), below -9223372036 s, where Fory Go 1.6.1's reader refuses it (E-51)
add(A, "temp.duration", "duration -9223372037 145225000", "duration -9223372036.854775 s (floor seconds below "
    "Fory Go's read bound)", DUR(-9223372037, 145225000), R_DUR, tags=["temporal"])
add(A, "temp.mixed", "temporal list", "list of a date, a timestamp and a duration",
    L(DATE(1), TS(2), DUR(3)), R_DATE + R_TS + ["R-LIST-4"], tags=["temporal"])
add(A, "temp.mixed", "temporal map", "map string to date with a null", M((S("a"), DATE(5)), (S("b"), NULL)),
    R_DATE + ["R-MAP-3"], tags=["temporal"])
add(A, "temp.mixed", "ref dates", "list of equal dates with reference tracking", L(DATE(18262), DATE(18262)),
    R_DATE + ["R-WREF-3"], ref=True, tags=["temporal", "ref_tracking"])
add(A, "temp.mixed", "ref timestamp duration", "list of a timestamp and a duration with reference tracking",
    L(TS(1), DUR(1)), R_TS + ["R-WREF-2"], ref=True, tags=["temporal", "ref_tracking"])

# ---------------------------------------------------------------------------
# decimal
# ---------------------------------------------------------------------------
A = "decimal"
R_DEC = ["R-DEC-1", "R-DEC-2", "R-DEC-4", "R-DEC-5", "R-WNUM-1", "R-PVL-1"] + ROOT
for u, sc, what in [
    (0, 0, "0"), (12345, 2, "123.45"), (-1, 3, "-0.001"), (1, 0, "1"), (-1, 0, "-1"), (-1, -3, "-1E+3"),
    ((1 << 62) - 1, 0, "2^62-1 (largest small form)"), (-(1 << 62), 0, "-2^62 (smallest small form)"),
    (1 << 62, 0, "2^62 (smallest positive big form)"), (-(1 << 62) - 1, 0, "-2^62-1 (largest negative big form)"),
    (-((1 << 62) - 1), 0, "-(2^62-1)"), (1 << 63, 0, "2^63"), (-(1 << 63), 0, "-2^63"), ((1 << 64) - 1, 0, "2^64-1"),
    (1 << 64, 0, "2^64 (9 magnitude bytes)"), (10 ** 40, 0, "1E+40"), (-(10 ** 40), 0, "-1E+40"),
    (1, -17, "1E+17"), (-5, -17, "-5E+17"), (123456789012345678901234567890123456789, 0, "39 digits"),
    (-123456789012345678901234567890123456789, 38, "-1.234...E+0, scale 38"), (1, 10000, "1E-10000"),
    (1, -10000, "1E+10000"), (63, 0, "63"), (64, 0, "64 (two-byte header)"), (1 << 55, 0, "2^55"),
    (1 << 56, 0, "2^56"), (255, 2, "2.55"), ((1 << 2040) - 1, 0, "255 magnitude bytes"), (1 << 2040, 0,
                                                                                         "256 magnitude bytes"),
    (10 ** 18, 18, "1.000000000000000000"), (7, 63, "scale 63"), (7, 64, "scale 64 (two-byte scale)"),
    (7, -64, "scale -64"), (7, -65, "scale -65 (two-byte scale)"),
]:
    add(A, "dec", "decimal %d %d" % (u, sc), "decimal %s" % what, DEC(u, sc), R_DEC,
        tags=["decimal"])
add(A, "dec", "decimal list", "list of decimals across the boundary", L(DEC(1), DEC(1 << 62), DEC(-(1 << 62))),
    R_DEC + ["R-LIST-2"], tags=["decimal"])
add(A, "dec", "decimal ref list", "list of decimals with reference tracking", L(DEC(125, 2), DEC(-125, 2)),
    R_DEC + ["R-WREF-3"], ref=True, tags=["decimal", "ref_tracking"])
add(A, "dec", "decimal map", "map decimal to decimal", M((DEC(1, 1), DEC(2, 2)), (DEC(3, 3), DEC(1 << 64))),
    R_DEC + ["R-MAP-4"], tags=["decimal"])

# ---------------------------------------------------------------------------
# refs
# ---------------------------------------------------------------------------
A = "refs"
R_REF = ["R-REF-3", "R-REF-4", "R-REF-5", "R-REF-6", "R-WREF-1", "R-WREF-2", "R-WROOT-2"]
T = ["ref_tracking"]


def ref_case(key, name, values, rules=(), tags=()):
    add(A, "refs", key, name, values, R_REF + list(rules), ref=True, tags=T + list(tags))


ref_case("root-int", "varint64 root", V64(5))
ref_case("root-str", "string root", S("s"))
ref_case("root-null", "null root", NULL, ["R-PAYLOAD-6"])
ref_case("root-binary", "empty binary root", B(b""))
ref_case("root-date", "date root", DATE(18262), tags=["temporal"])
ref_case("root-decimal", "decimal root", DEC(5), tags=["decimal"])
ref_case("root-float64", "float64 root", F64(1.5))
ref_case("root-list", "list root", L(V64(1), V64(2)))
ref_case("root-empty-list", "empty list root", L())
ref_case("root-map", "map root", M((S("a"), V64(1))))
ref_case("root-set", "set root", SET(S("a")))
ref_case("root-array", "int32_array root", ARR("int32_array", [1, 2]), tags=["dense_array"])
ref_case("list-of-lists", "list of two distinct lists", L(L(V64(1)), L(V64(2))))
ref_case("mixed", "list of varint64 and string", L(V64(1), S("a")), ["R-WLIST-4"])
ref_case("mixed-null", "list of varint64, string and null", L(V64(1), S("a"), NULL), ["R-WLIST-4"])
ref_case("shared-list", "the same list twice", L(anchor(L(V64(1)), "x"), REF("x")))
ref_case("shared-list-3", "the same list three times", L(anchor(L(S("a")), "x"), REF("x"), REF("x")))
ref_case("cycle-self", "a list that contains itself", anchor(L(REF("x")), "x"))
ref_case("cycle-self-mixed", "a list holding 1 and itself", anchor(L(V64(1), REF("x")), "x"))
ref_case("shared-map", "the same map twice", L(anchor(M((S("k"), V64(1))), "x"), REF("x")))
ref_case("cycle-map", "a map holding itself as a value", anchor(M((S("self"), REF("x"))), "x"))
ref_case("shared-map-value", "a map whose two values are one list",
         M((S("x"), anchor(L(V64(1)), "v")), (S("y"), REF("v"))))
ref_case("shared-binary", "the same binary twice", L(anchor(B(b"xy"), "b"), REF("b")))
ref_case("same-string", "the same string twice (strings are not tracked)", L(S("shared"), S("shared")))
ref_case("list-with-null", "list of a list and a null", L(L(V64(1)), NULL))
ref_case("list-int-null", "list of varint64 and null", L(V64(1), NULL))
ref_case("nested-mixed", "list of a list and a string", L(L(V64(1)), S("a")), ["R-WLIST-4"])
ref_case("shared-array", "the same int32_array twice", L(anchor(ARR("int32_array", [7]), "a"), REF("a")),
         tags=["dense_array"])
ref_case("arrays", "two equal int32_arrays", L(ARR("int32_array", [7]), ARR("int32_array", [7])),
         tags=["dense_array"])
ref_case("float64-arrays", "two float64_arrays", L(ARR("float64_array", [0x3FF0000000000000]), ARR("float64_array", [])),
         tags=["dense_array"])
ref_case("shared-set", "the same set twice", L(anchor(SET(V64(1)), "s"), REF("s")))
ref_case("shared-in-map-key", "the same list as a map value and a list element",
         L(anchor(L(S("a")), "x"), M((S("k"), REF("x")))))
ref_case("deep-shared", "a shared list inside nested lists",
         L(L(anchor(L(V64(1)), "x")), L(REF("x"))))
ref_case("two-shared", "two shared lists interleaved",
         L(anchor(L(V64(1)), "x"), anchor(L(V64(2)), "y"), REF("y"), REF("x")))
ref_case("mutual-cycle", "two lists that contain each other",
         anchor(L(anchor(L(REF("a")), "b")), "a"))
ref_case("roots-restart", "two roots, reference ids restart per root",
         [L(anchor(L(V64(1)), "x"), REF("x")), L(anchor(L(V64(1)), "y"), REF("y"))], ["R-PAYLOAD-5"])
ref_case("map-chunks-shared", "map whose values share one map", M((S("a"), anchor(M(), "m")), (S("b"), REF("m"))))
ref_case("nulls-and-shared", "shared list among nulls", L(NULL, anchor(L(), "e"), NULL, REF("e")))
ref_case("strings-list", "list of strings", L(S("a"), S("b")))
ref_case("bools-list", "list of bools", L(BOOL(True), BOOL(False)))
add(A, "refs", "no-ref-shared", "the same list twice without reference tracking (written twice)",
    L(L(V64(1)), L(V64(1))), ["R-WREF-1"])

# ---------------------------------------------------------------------------
# roots
# ---------------------------------------------------------------------------
A = "roots"
R_ROOTS = ["R-PAYLOAD-1", "R-PAYLOAD-5", "R-PAYLOAD-6", "R-WROOT-1", "R-WROOT-2"]
add(A, "roots", "null", "null root", NULL, R_ROOTS)
add(A, "roots", "two-nulls", "two null roots", [NULL, NULL], R_ROOTS)
add(A, "roots", "int-then-string", "varint64 5 then the empty string", [V64(5), S("")], R_ROOTS)
add(A, "roots", "six", "six roots of different kinds",
    [V64(1), S("hi"), L(V64(1), NULL), M((S("a"), V64(1))), NULL, F64(2.5)], R_ROOTS)
add(A, "roots", "same-list-twice", "the same list value as two roots", [L(V64(1)), L(V64(1))], R_ROOTS)
add(A, "roots", "many", "twenty varint64 roots", [V64(i) for i in range(20)], R_ROOTS)
add(A, "roots", "ref-null", "null root with reference tracking", NULL, R_ROOTS, ref=True, tags=["ref_tracking"])
add(A, "roots", "ref-several", "several roots with reference tracking", [V64(5), S("hi"), NULL, L()], R_ROOTS,
    ref=True, tags=["ref_tracking"])
add(A, "roots", "compatible", "roots in compatible mode", [V64(5), S("hi"), NULL], R_ROOTS, compatible=True,
    tags=["compatible"])
add(A, "roots", "ref-compatible", "roots with reference tracking in compatible mode",
    [L(anchor(L(), "x"), REF("x")), S("a")], R_ROOTS, ref=True, compatible=True, tags=["compatible", "ref_tracking"])
add(A, "roots", "every-scalar", "one root of each scalar type both runtimes write",
    [BOOL(True), I("int8", 1), I("int16", 2), V32(3), V64(4), I("uint8", 5), I("uint16", 6), I("uint32", 7),
     I("uint64", 8), F16(0x3C00), BF16(0x3F80), F32(1.0), F64(1.0), S("s"), B(b"b"), DATE(1), TS(1), DUR(1),
     DEC(1)], R_ROOTS, tags=["unsigned", "float16", "bfloat16", "temporal", "decimal"])
