"""float32 values keep their 32 bits through the tape (spec/tape.md, FLOAT32
NaNs). Python has no float32 value: a FLOAT32 reads as `libwire.Float32` (a
float subclass) outside declared fields and as `float` in a field declared
float32, both holding the float32 widened to a double, a NaN bit for bit
(its quiet bit as it was). Written again, the same 32 bits go out:
signaling NaNs, NaN payloads, signed zeros and subnormals."""

import dataclasses
import struct

import pytest

import libwire
from libwire import ids

PATTERNS = [
    0x7F800001, 0xFF800001, 0x7FA00000, 0x7FBFFFFF, 0xFFBFFFFF, 0x7F812345,  # signaling
    0x7FC00000, 0xFFC00000, 0x7FC00001, 0xFFD23456, 0x7FFFFFFF,  # quiet, payloads
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF,
    0x3F800000, 0x7F7FFFFF, 0x7F800000, 0xFF800000,
]


def widened(x):
    """The double bits a float32 reads as (computed without a float32
    conversion, which would quiet a signaling NaN)."""
    if x & 0x7F800000 == 0x7F800000 and x & 0x7FFFFF:
        return (x >> 31) << 63 | 0x7FF << 52 | (x & 0x7FFFFF) << 29
    return struct.unpack("<Q", struct.pack("<d", struct.unpack("<f", struct.pack("<I", x))[0]))[0]


def dbits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def root(x):
    return bytes([0x01, 0xFF, ids.FLOAT32]) + struct.pack("<I", x)


@pytest.mark.parametrize("x", PATTERNS, ids=[f"{x:08x}" for x in PATTERNS])
def test_root(x):
    v = libwire.loads(root(x))
    assert type(v) is libwire.Float32
    assert dbits(v) == widened(x)
    assert libwire.dumps(v) == root(x)


def test_list_and_dict():
    p = bytes([0x01, 0xFF, ids.LIST, len(PATTERNS), 0x08, ids.FLOAT32])
    p += b"".join(struct.pack("<I", x) for x in PATTERNS)
    lst = libwire.loads(p)
    assert [dbits(v) for v in lst] == [widened(x) for x in PATTERNS]
    assert all(type(v) is libwire.Float32 for v in lst)
    assert libwire.dumps(lst) == p
    d = {f"k{i}": v for i, v in enumerate(lst)}
    b = libwire.dumps(d)
    back = libwire.loads(b)
    assert [dbits(back[f"k{i}"]) for i in range(len(PATTERNS))] == [widened(x) for x in PATTERNS]
    assert libwire.dumps(back) == b


SCHEMA = """
package f32;
message H [id=990] { float32 f = 1; list<float32> l = 2; map<string, float32> m = 3; }
"""


@dataclasses.dataclass
class H:
    f: float
    l: list
    m: dict


@pytest.mark.parametrize("layouts", [False, True], ids=["tape", "layout"])
def test_declared_fields(layouts):
    ctx = libwire.Context()
    ctx.load_schema_text(SCHEMA)
    ctx.register(H, "f32.H")
    ctx._codec.use_layouts(layouts)
    for x in PATTERNS:
        f = float(libwire.loads(root(x)))  # a plain float (Float32 subclass values take the tape)
        b = ctx.dumps(H(f, [f, 1.0, f], {"k": f}))
        assert struct.unpack("<I", b[-4:])[0] == x  # the map's value, last
        back = ctx.loads(b)
        want = widened(x)
        assert [dbits(back.f), dbits(back.l[0]), dbits(back.l[2]), dbits(back.m["k"])] == [want] * 4
        assert ctx.dumps(back) == b
    st = ctx._codec.stats()
    assert (st["layout_loads"] > 0) == layouts and (st["tape_loads"] > 0) != layouts
