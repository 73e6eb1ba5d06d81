"""Lists, sets and maps of the usual scalars (strings, ints, floats), which
the extension writes and reads inline (enc_fast / dec_fast in _native.c),
at every string length around the inline cases' limits, integers at the
varint boundaries, and large enough to be encoded straight into the
returned bytes: the same bytes as pyfory's, and each reads the other's."""

import pytest

import libwire

pyfory = pytest.importorskip("pyfory")

LENGTHS = list(range(0, 72)) + [100, 255, 1000]
INTS = [0, 1, -1, 63, -64, 127, 128, 2 ** 31 - 1, -(2 ** 31), 2 ** 31,
        2 ** 62, -(2 ** 62), 2 ** 63 - 1, -(2 ** 63), 2 ** 60 + 12345]


def ascii_text(n, seed=0):
    return "".join(chr(33 + (i * 7 + seed) % 94) for i in range(n))


def cases():
    yield "ascii", [ascii_text(n, n) for n in LENGTHS]
    yield "latin1", ["\u00e9" * n for n in LENGTHS]
    yield "latin1_tail", [ascii_text(n) + "\u00ff" for n in LENGTHS]
    yield "ucs2", ["\u65e5" + ascii_text(n) for n in (0, 1, 7, 8, 70)]
    yield "ints", INTS
    yield "floats", [0.0, -0.0, 1.5, -1e300, float("inf"), 2.0 ** 70]
    yield "mixed", ["a", 1, 2.5, True, None, "b" * 70, -(2 ** 63), "\u00e9"]
    yield "map_str_int", {ascii_text(n, n) + str(n): v
                          for n in LENGTHS for v in INTS[n % len(INTS):][:1]}
    yield "map_int_str", {v: ascii_text(i) for i, v in enumerate(INTS)}
    yield "map_str_float", {"k%d" % i: i / 3 for i in range(100)}
    yield "set_str", {ascii_text(n, 3) for n in LENGTHS}
    yield "nested", {"a": ["x", 1, {"y": [2.5, "z" * 65]}], "b": []}
    # large: the tape is encoded straight into the returned bytes
    yield "big_strings", ["s%d" % (i * 7919 % 10 ** 7) for i in range(10000)]
    yield "big_map", {"key%05d" % i: (i * 0x9E3779B97F4A7C15) % 2 ** 63 - 2 ** 62
                      for i in range(5000)}
    yield "big_latin1", ["\u00e9t\u00e9 %d" % i for i in range(3000)]


CASES = list(cases())


@pytest.mark.parametrize("name,value", CASES, ids=[c[0] for c in CASES])
def test_same_bytes_and_both_read(name, value, fory):
    ours = libwire.dumps(value)
    theirs = fory.serialize(value)
    if name != "set_str":      # set order is the iteration order of each
        assert ours.hex() == theirs.hex()
    assert libwire.loads(ours) == value
    assert libwire.loads(theirs) == value
    assert fory.deserialize(ours) == value


@pytest.mark.parametrize("name,value", CASES, ids=[c[0] for c in CASES])
def test_into_buffer_gives_the_same_bytes(name, value):
    data = libwire.dumps(value)
    ctx = libwire.Context()
    buf = bytearray(len(data) + 16)
    n = ctx.dumps(value, into=buf)
    assert bytes(buf[:n]) == data


def test_strings_read_are_exact_str_objects():
    back = libwire.loads(libwire.dumps([ascii_text(n) for n in LENGTHS]))
    for s, n in zip(back, LENGTHS):
        assert type(s) is str and len(s) == n and s == ascii_text(n)
        assert s.isascii()
        assert hash(s) == hash(ascii_text(n))


def test_int_outside_int64_in_a_list_fails():
    for bad in (2 ** 63, -(2 ** 63) - 1, 2 ** 100):
        with pytest.raises(libwire.WireError) as e:
            libwire.dumps(["a", 1, bad])
        assert e.value.cls == "value"


def test_declared_element_types_still_apply():
    # wrappers choose the wire type; plain ints next to them stay VARINT64
    data = libwire.dumps([libwire.Int32(5), 5, libwire.Float32(1.5), 1.5])
    back = libwire.loads(data)
    assert back == [5, 5, 1.5, 1.5]
    assert type(back[0]) is libwire.Int32 and type(back[1]) is int
    assert type(back[2]) is libwire.Float32 and type(back[3]) is float


def test_truncated_payloads_fail_cleanly():
    data = libwire.dumps(["abc" * i for i in range(40)] + [2 ** 62, 1.5])
    for cut in range(1, len(data)):
        with pytest.raises(libwire.WireError):
            libwire.loads(data[:cut])


def test_latin1_strings_read_are_canonical_str_objects():
    # a byte above 0x7F anywhere (the 8-byte words and the tail): the str
    # is of the one-byte kind and not ASCII; equality and hashing depend
    # on CPython's smallest-kind rule, so both are checked
    texts = [ascii_text(n)[:k] + "\u00e9" + ascii_text(n)[k:]
             for n in (1, 7, 8, 15, 16, 17, 40) for k in (0, n // 2, n)]
    texts += ["\u00ff", "\u0080" * 9, ascii_text(30)]
    for data in (libwire.dumps(texts), pyfory.Fory(xlang=True).serialize(texts)):
        back = libwire.loads(data)
        assert back == texts
        for s, t in zip(back, texts):
            assert s.isascii() == t.isascii()
            assert hash(s) == hash(t)
            assert {s: 1}[t] == 1
