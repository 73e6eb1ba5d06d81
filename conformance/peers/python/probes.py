#!/usr/bin/env python3
"""Prints what pyfory writes / raises for the cases listed in PROBES.md.

Run: python3 conformance/peers/python/probes.py
Each line is "label: hex" or "label: RAISES Class: message".  Lines marked
"pinned" use the adapter's wire-type pinning (see README.md).
"""

import array
import datetime
import decimal
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pyfory  # noqa: E402
import pyfory_peer as peer  # noqa: E402

S = pyfory.serialization


def fory(ref=False, compatible=False, pin=True):
    return peer.get_fory((ref, compatible, pin))


def enc(label, value, ref=False, compatible=False):
    try:
        out = fory(ref, compatible).serialize(value).hex()
    except Exception as e:  # noqa: BLE001
        out = "RAISES %s: %s" % (type(e).__name__, e)
    print("%s: %s" % (label, out))


def dec(label, data, ref=False):
    buf = pyfory.Buffer(data)
    try:
        v = fory(ref).deserialize(buf)
        out = "-> %r (consumed %d of %d bytes)" % (v, buf.get_reader_index(), len(data))
    except Exception as e:  # noqa: BLE001
        out = "RAISES %s.%s: %s" % (type(e).__module__, type(e).__name__, e)
    print("%s [%s]: %s" % (label, data.hex(), out))


def zigzag(n):
    z = (n << 1) ^ (n >> 63)
    out = bytearray()
    while True:
        b = z & 0x7F
        z >>= 7
        if z:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def map_chunks(data, pos):
    """(offset, header, count, key type, value type) of str/int/str maps."""
    chunks = []
    while pos < len(data):
        header, size, ktype, vtype = data[pos], data[pos + 1], data[pos + 2], data[pos + 3]
        chunks.append((pos, header, size, ktype, vtype))
        p = pos + 4
        for _ in range(size):
            for t in (ktype, vtype):
                if t == 0x15:
                    n = data[p] >> 2
                    p += 1 + n
                else:
                    while data[p] & 0x80:
                        p += 1
                    p += 1
        pos = p
    return chunks


def section(title):
    print()
    print("## " + title)


def main():
    print("pyfory", pyfory.__version__)

    section("integer hints called as constructors")
    for name in ("Int8", "Int16", "Int32", "FixedInt32", "Int64", "FixedInt64", "TaggedInt64",
                 "UInt8", "UInt16", "UInt32", "FixedUInt32", "UInt64", "FixedUInt64", "TaggedUInt64"):
        hint = getattr(pyfory, name)
        try:
            v = hint(5)
            enc("pyfory.%s(5) -> %s %r" % (name, type(v).__name__, v), v)
        except Exception as e:  # noqa: BLE001
            print("pyfory.%s(5): RAISES %s: %s" % (name, type(e).__name__, e))
    for name in ("Float16", "BFloat16", "Float32"):
        hint = getattr(pyfory, name)
        try:
            v = hint(1.5)
            enc("pyfory.%s(1.5) -> %s %r" % (name, type(v).__name__, v), v)
        except Exception as e:  # noqa: BLE001
            print("pyfory.%s(1.5): RAISES %s: %s" % (name, type(e).__name__, e))

    section("pinned integer roots (pyfory's own serializer for each type id)")
    for key, vals in (
        ("int8", [5, -1, -128, 127]),
        ("int16", [5, -2, 32767]),
        ("int32", [5, -1]),
        ("varint32", [5, -1, 63, 64, -64, -65, 2**31 - 1, -2**31]),
        ("int64", [5, -1]),
        ("tagged_int64", [5, -1, 2**30 - 1, 2**30, -2**30, -2**30 - 1, 2**63 - 1, -2**63]),
        ("uint8", [5, 255]),
        ("uint16", [5, 65535]),
        ("uint32", [5, 2**32 - 1]),
        ("var_uint32", [5, 127, 128, 2**32 - 1]),
        ("uint64", [5, 2**64 - 1]),
        ("var_uint64", [5, 127, 128, 2**64 - 1]),
        ("tagged_uint64", [5, 2**31 - 1, 2**31, 2**64 - 1]),
    ):
        for v in vals:
            enc("pinned %s %d" % (key, v), peer._PINNED[key](v))

    section("pinned float roots")
    for key, bits in (
        ("float32", [0x3FC00000, 0x80000000, 0x7FC00000, 0x7FC00001, 0x00000001]),
        ("float16", [0x3C00, 0x8000, 0x7E00, 0x0001, 0x7BFF]),
        ("bfloat16", [0x3F80, 0x8000, 0x7FC0, 0x0001]),
    ):
        for b in bits:
            try:
                v = peer.make_float(key, "0x%x" % b, True)
                enc("pinned %s 0x%x" % (key, b), v)
            except Exception as e:  # noqa: BLE001
                print("pinned %s 0x%x: %s" % (key, b, e))
    for key, b in (("float16", 0x7C01), ("float16", 0xFE00), ("float16", 0x7E01), ("bfloat16", 0xFFC0),
                   ("bfloat16", 0x7F81), ("float32", 0x7F800001)):
        try:
            peer.make_float(key, "0x%x" % b, True)
            print("pinned %s 0x%x: ok" % (key, b))
        except Exception as e:  # noqa: BLE001
            print("pinned %s 0x%x: %s" % (key, b, e))
    enc("float 1.5 (plain)", 1.5)
    enc("float -0.0", -0.0)
    enc("float nan", float("nan"))
    enc("pinned none (36)", peer.PinnedNone())
    enc("None", None)
    enc("[pinned none]", [peer.PinnedNone()])

    section("dense arrays: pyfory array classes")
    for name, vals in (
        ("BoolArray", [True, False]),
        ("Int8Array", [1, -1]),
        ("Int16Array", [1, -1]),
        ("Int32Array", [1, -1]),
        ("Int64Array", [1, -1]),
        ("UInt8Array", [1, 255]),
        ("UInt16Array", [1, 65535]),
        ("UInt32Array", [1, 2**32 - 1]),
        ("UInt64Array", [1, 2**64 - 1]),
        ("Float16Array", [1.0, -2.0]),
        ("BFloat16Array", [1.0, -2.0]),
        ("Float32Array", [1.0, -2.0]),
        ("Float64Array", [1.0, -2.0]),
    ):
        enc("%s(%r)" % (name, vals), getattr(S, name)(vals))
        enc("%s([])" % name, getattr(S, name)([]))
    section("dense arrays: array.array")
    for tc, vals in (("b", [1, -1]), ("B", [1, 255]), ("h", [1]), ("H", [1]), ("i", [1]), ("I", [1]),
                     ("l", [1]), ("L", [1]), ("q", [1]), ("Q", [1]), ("f", [1.0]), ("d", [1.0])):
        enc("array(%r, %r)" % (tc, vals), array.array(tc, vals))
    enc("array('u', 'ab')", array.array("u", "ab"))
    enc("bytearray(b'ab')", bytearray(b"ab"))

    section("collections")
    enc("tuple (1, 2)", (1, 2))
    enc("tuple ()", ())
    enc("list []", [])
    enc("set()", set())
    enc("dict {}", {})
    enc("frozenset({1})", frozenset([1]))
    s = {1, "a", 2.5, None, True, b"x"}
    enc("set %r (iteration order %r)" % (s, list(s)), s)
    enc("[1, None]", [1, None])
    enc("[None, 1]", [None, 1])
    enc("['a', None]", ["a", None])
    enc("[1, 'a']", [1, "a"])
    enc("[None]", [None])
    enc("[None, None]", [None, None])
    enc("[1, 2]", [1, 2])
    enc("['a', 'b']", ["a", "b"])
    enc("[1.5, 2.5]", [1.5, 2.5])
    enc("[True, False]", [True, False])
    enc("[b'', b'']", [b"", b""])
    enc("[[1], [2]]", [[1], [2]])
    enc("[1, 'a'] ref=True", [1, "a"], ref=True)
    enc("[1, None] ref=True", [1, None], ref=True)
    enc("[[1], [2]] ref=True", [[1], [2]], ref=True)
    enc("[pinned int8 1, 'a'] ref=False", [peer._PINNED["int8"](1), "a"])
    enc("[pinned int8 1, 'a'] ref=True", [peer._PINNED["int8"](1), "a"], ref=True)
    enc("[1, 'a'] compatible=True", [1, "a"], compatible=True)
    d = {"a": 1, 2: "b", None: 3, 1.5: None, True: [1], b"k": 2.5}
    enc("dict %r" % (d,), d)
    enc("dict {'a': None}", {"a": None})
    enc("dict {None: 'a'}", {None: "a"})
    enc("dict {None: None}", {None: None})
    enc("dict {'a': 1, 'b': 'x'}", {"a": 1, "b": "x"})
    enc("dict {(1, 2): 3}", {(1, 2): 3})
    enc("dict {'a': [1]} ref=True", {"a": [1]}, ref=True)
    big = {"k%d" % i: i for i in range(300)}
    out = fory().serialize(big)
    print("dict 300 str->int: %d bytes, starts %s" % (len(out), out[:24].hex()))
    print("dict 300 str->int chunks (offset, header, count, ktype, vtype): %r" % map_chunks(out, 5))
    d300 = {"k%d" % i: (i if i != 100 else "s") for i in range(300)}
    out = fory().serialize(d300)
    print("dict 300 with value #100 a str, chunks: %r" % map_chunks(out, 5))
    out = fory().serialize({"k%d" % i: i for i in range(255)})
    print("dict 255 str->int chunks: %r" % map_chunks(out, 5))
    out = fory().serialize({"k%d" % i: i for i in range(256)})
    print("dict 256 str->int chunks: %r" % map_chunks(out, 5))
    out = fory().serialize({"k%d" % i: i for i in range(510)})
    print("dict 510 str->int chunks: %r" % map_chunks(out, 5))

    section("strings and bytes")
    for s in ["", "hi", "héllo", "日本", "日本a", "aé日", "😀", "€", "a😀", "ÿ", "\u0100"]:
        enc("string %r" % s, s)
    enc("string 'a\\ud800b' (lone surrogate)", "a\ud800b")
    lone = fory().serialize("a\ud800b")
    dec("read back 'a\\ud800b'", lone)
    enc("bytes b''", b"")
    enc("bytes b'ab'", b"ab")

    section("ref=True roots")
    enc("5 ref=True", 5, ref=True)
    enc("'s' ref=True", "s", ref=True)
    enc("None ref=True", None, ref=True)
    enc("1.5 ref=True", 1.5, ref=True)
    enc("True ref=True", True, ref=True)
    enc("b'' ref=True", b"", ref=True)
    enc("[1] ref=True", [1], ref=True)
    x = "shared"
    enc("[x, x] (same str) ref=True", [x, x], ref=True)
    b = b"xy"
    enc("[b, b] (same bytes) ref=True", [b, b], ref=True)
    a = [1]
    enc("[a, a] (same list) ref=True", [a, a], ref=True)
    enc("[a, a] (same list) ref=False", [a, a])
    dt = datetime.date(2020, 1, 1)
    enc("[d, d] (same date) ref=True", [dt, dt], ref=True)
    enc("pinned int8 5 ref=True", peer._PINNED["int8"](5), ref=True)

    section("varint boundaries (int root)")
    for v in (0, 1, -1, 63, 64, -64, -65, 2**31 - 1, -2**31, 2**63 - 1, -2**63, 2**63, -2**63 - 1):
        enc("int %d" % v, v)

    section("time and decimal")
    enc("date 2020-01-01", datetime.date(2020, 1, 1))
    enc("date 1969-12-31", datetime.date(1969, 12, 31))
    enc("datetime 2020-01-01T00:00:00.123456Z", datetime.datetime(2020, 1, 1, 0, 0, 0, 123456, tzinfo=datetime.timezone.utc))
    enc("datetime 1969-12-31T23:59:59.5Z", datetime.datetime(1969, 12, 31, 23, 59, 59, 500000, tzinfo=datetime.timezone.utc))
    enc("naive datetime 2020-01-01 (TZ=%s)" % os.environ.get("TZ", "unset"), datetime.datetime(2020, 1, 1))
    for sec, us in ((1, 1), (0, 1), (-1, 1), (253402300799, 999999), (-62135596800, 1), (1577836800, 123457)):
        dt = peer._EPOCH_DT + datetime.timedelta(seconds=sec, microseconds=us)
        enc("datetime %s (%d s + %d us)" % (dt.isoformat(), sec, us), dt)
    enc("timedelta(seconds=1, microseconds=5)", datetime.timedelta(seconds=1, microseconds=5))
    enc("timedelta(microseconds=-1)", datetime.timedelta(microseconds=-1))
    for t in ("1.25", "-1.25", "0", "-0.00", "1E+2", "12345678901234567890", "-9223372036854775808",
              "9223372036854775808", "1" * 40):
        enc("Decimal(%r)" % t, decimal.Decimal(t))

    section("decode: malformed inputs")
    dec("truncated string", b"\x01\xff\x15\x05\x61")
    dec("header only 0x02", b"\x02")
    dec("odd-length UTF-16 string (len 3, enc utf16)", b"\x01\xff\x15" + bytes([(3 << 2) | 1]) + b"abc")
    dec("odd-length UTF-16 string (len 1)", b"\x01\xff\x15" + bytes([(1 << 2) | 1]) + b"a")
    dec("invalid UTF-8 bytes (ff fe)", b"\x01\xff\x15" + bytes([(2 << 2) | 2]) + b"\xff\xfe")
    dec("UTF-8 surrogate ed a0 80", b"\x01\xff\x15" + bytes([(3 << 2) | 2]) + b"\xed\xa0\x80")
    dec("overlong UTF-8 c0 80", b"\x01\xff\x15" + bytes([(2 << 2) | 2]) + b"\xc0\x80")
    dec("UTF-16 lone surrogate 00 d8", b"\x01\xff\x15" + bytes([(2 << 2) | 1]) + b"\x00\xd8")
    dec("string encoding 3", b"\x01\xff\x15" + bytes([(1 << 2) | 3]) + b"a")
    dec("list count 1000000000", b"\x01\xff\x16\x80\x94\xeb\xdc\x03\x08\x07\x02")
    dec("list count 1000000000 elements int8", b"\x01\xff\x16\x80\x94\xeb\xdc\x03\x08\x02\x01")
    dec("map count 1000000000", b"\x01\xff\x18\x80\x94\xeb\xdc\x03")
    dec("binary len 1000000000", b"\x01\xff\x29\x80\x94\xeb\xdc\x03")
    dec("empty input", b"")
    dec("header 0x00", b"\x00\xff\x07\x0a")
    dec("header 0x03", b"\x03\xff\x07\x0a")
    dec("header 0x05", b"\x05\xff\x07\x0a")
    dec("ref flag at root, ref=False", b"\x01\xfe\x00")
    dec("ref flag at root, ref=True", b"\x01\xfe\x00", ref=True)
    dec("REF_VALUE flag 0x00 at root, ref=False", b"\x01\x00\x07\x0a")
    dec("flag 0x05 at root", b"\x01\x05\x07\x0a")
    dec("type id 0", b"\x01\xff\x00")
    dec("type id 63", b"\x01\xff\x3f")
    dec("type id 16 (float8)", b"\x01\xff\x10\x00")
    dec("type id 42 (array)", b"\x01\xff\x2a\x00")
    dec("type id 52 (float8_array)", b"\x01\xff\x34\x00")
    dec("enum type 25", b"\x01\xff\x19\x01\x00")
    dec("varint64 11 bytes", b"\x01\xff\x07" + b"\xff" * 10 + b"\x01")
    dec("varint32 0xffffffff0f", b"\x01\xff\x05\xff\xff\xff\xff\x0f")
    dec("varint32 6 bytes", b"\x01\xff\x05\xff\xff\xff\xff\xff\x01")
    dec("bool 2", b"\x01\xff\x01\x02")
    dec("int32 array odd byte size", b"\x01\xff\x2e\x03\x00\x00\x00")
    dec("bool array value 2", b"\x01\xff\x2b\x01\x02")
    dec("list nested 60 deep", b"\x01\xff" + b"\x16\x01\x00" * 60 + b"\x07\x00")
    dec("map chunk size 0", b"\x01\xff\x18\x01\x00\x00")
    dec("map with list key", bytes.fromhex("01ff180100011607020807020406"))
    dec("set with dup elements", bytes.fromhex("01ff17020807 0202".replace(" ", "")))
    dec("map with dup keys 'a'", bytes.fromhex("01ff180200021507046102046104"))
    dec("timestamp 1 ns", bytes.fromhex("01ff26000000000000000001000000"))
    dec("timestamp nanos 1e9", bytes.fromhex("01ff260000000000000000" + (10**9).to_bytes(4, "little").hex()))
    dec("timestamp year 10000", b"\x01\xff\x26" + (253402300800).to_bytes(8, "little") + b"\x00" * 4)
    dec("duration 1 ns", bytes.fromhex("01ff250001000000"))
    dec("date -719162 (0001-01-01)", b"\x01\xff\x27" + zigzag(-719162))
    dec("date -719163 (before 0001-01-01)", b"\x01\xff\x27" + zigzag(-719163))
    dec("date 2932897 (10000-01-01)", b"\x01\xff\x27" + zigzag(2932897))
    for sec, ns in ((0, 1), (0, 999), (0, 1000), (1, 1000), (0, 500), (0, 1500), (253402300799, 999999000),
                    (0, 999999999), (-1, 999999000), (1577836800, 123456000)):
        dec("timestamp (%d s, %d ns)" % (sec, ns), b"\x01\xff\x26" + sec.to_bytes(8, "little", signed=True) + ns.to_bytes(4, "little"))
    for sec, ns in ((0, 1), (0, 999), (0, 1500), (-1, 999999000), (1, 1000)):
        dec("duration (%d s, %d ns)" % (sec, ns), b"\x01\xff\x25" + zigzag(sec) + ns.to_bytes(4, "little"))
    dec("duration nanos -1", b"\x01\xff\x25\x00\xff\xff\xff\xff")
    dec("decimal scale 0x7fffffff", bytes.fromhex("01ff28feffffff0f02"))
    dec("trailing bytes after root", bytes.fromhex("01ff070aff"))


if __name__ == "__main__":
    main()
