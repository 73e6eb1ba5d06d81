"""float16 and bfloat16 values keep their 16 bits through the tape
(spec/tape.md, FLOAT16 and BFLOAT16 NaNs). Python holds them as floats
(`libwire.Float16` / `libwire.BFloat16`, float subclasses): the value widened
to a double, a NaN bit for bit (its payload at the top of the double's, its
quiet bit as it was). Written again, the same 16 bits go out, for every one
of the 65,536 patterns of each type, as a root and in a list; a dense
array's `tolist` widens the same way."""

import struct

import pytest

import libwire
from libwire import ids


def widened(tid, h):
    """The double bits pattern h reads as, worked out from the fields."""
    mb = 10 if tid == ids.FLOAT16 else 7
    eb = 15 - mb
    bias = (1 << (eb - 1)) - 1
    sign = (h >> 15) << 63
    e = h >> mb & ((1 << eb) - 1)
    m = h & ((1 << mb) - 1)
    if e == (1 << eb) - 1:
        return sign | 0x7FF << 52 | m << (52 - mb)
    mag = (m + (1 << mb)) * 2.0 ** (e - bias - mb) if e else m * 2.0 ** (1 - bias - mb)
    return sign | dbits(mag)


def dbits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


TYPES = [(ids.FLOAT16, libwire.Float16), (ids.BFLOAT16, libwire.BFloat16)]


@pytest.mark.parametrize("tid,cls", TYPES, ids=["float16", "bfloat16"])
def test_every_pattern_as_root(tid, cls):
    bad = []
    for h in range(1 << 16):
        p = bytes([0x01, 0xFF, tid, h & 0xFF, h >> 8])
        v = libwire.loads(p)
        if type(v) is not cls or dbits(v) != widened(tid, h) or libwire.dumps(v) != p:
            bad.append(h)
    assert not bad, ["%04x" % h for h in bad[:10]]


@pytest.mark.parametrize("tid,cls", TYPES, ids=["float16", "bfloat16"])
def test_every_pattern_in_a_list(tid, cls):
    p = bytes([0x01, 0xFF, ids.LIST, 0x80, 0x80, 0x04, 0x08, tid])
    p += b"".join(struct.pack("<H", h) for h in range(1 << 16))
    v = libwire.loads(p)
    assert [dbits(x) for x in v] == [widened(tid, h) for h in range(1 << 16)]
    assert libwire.dumps(v) == p


@pytest.mark.parametrize("tid,name", [(ids.FLOAT16, "float16_array"),
                                      (ids.BFLOAT16, "bfloat16_array")])
def test_typed_array_tolist(tid, name):
    data = b"".join(struct.pack("<H", h) for h in range(1 << 16))
    got = libwire.TypedArray(name, data).tolist()
    assert [dbits(x) for x in got] == [widened(tid, h) for h in range(1 << 16)]
