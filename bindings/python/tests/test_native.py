"""The C extension: plans of registered classes (declared field types,
range checks naming the field, slots), buffers in and out, reference
counts and memory over many calls, the constants taken from wire.h, and
the same bytes as pyfory on Fory's benchmark models."""

import array
import dataclasses
import gc
import mmap
import os
import random
import sys
import tracemalloc
from typing import List, Optional

import pytest

import libwire
from libwire import _native
from conftest import PKG, REPO, schema

sys.path.insert(0, PKG)
import bench  # noqa: E402  (the benchmark's models, registered as bench.*)

BENCH_FDL = os.path.join(REPO, "bench", "schemas", "bench.fdl")


@pytest.fixture
def bctx():
    return libwire.Context(compatible=True, schema=BENCH_FDL)


def test_plain_ints_and_floats_fill_fields_of_any_width(bctx):
    v = bench.lw_values()
    for name in ("NumericStruct", "Sample", "MediaContent"):
        data = bctx.dumps(v[name])
        back = bctx.loads(data)
        assert type(back) is type(v[name])
        assert bctx.dumps(back) == data
    ns = bctx.loads(bctx.dumps(v["NumericStruct"]))
    assert type(ns.f1) is int and ns.f2 == 987654321   # plain ints back


@pytest.mark.parametrize("value", [2 ** 31, -2 ** 31 - 1, 2 ** 64])
def test_int_outside_the_declared_width_names_the_field(bctx, value):
    s = bench.NumericStruct(*bench.NUMERIC)
    s.f7 = value
    with pytest.raises(libwire.WireError) as e:
        bctx.dumps(s)
    assert e.value.cls == "value"
    assert "bench.NumericStruct.f7" in e.value.message
    assert str(value) in e.value.message and "varint32" in e.value.message


def test_int_range_edges_pass(bctx):
    s = bench.NumericStruct(*([2 ** 31 - 1] * 6 + [-2 ** 31] * 6))
    assert bctx.loads(bctx.dumps(s)) == s


def test_unsigned_field_rejects_negative():
    ctx = libwire.Context()
    ctx.load_schema_text("package t;\nmessage U [id=300] {\n"
                         "  uint8 a = 1;\n  uint64 b = 2;\n}\n")

    @dataclasses.dataclass
    class U:
        a: int
        b: int
    ctx.register(U, "t.U")
    assert ctx.loads(ctx.dumps(U(255, 2 ** 64 - 1))) == U(255, 2 ** 64 - 1)
    for bad in (U(256, 0), U(-1, 0), U(0, -1), U(0, 2 ** 64)):
        with pytest.raises(libwire.WireError) as e:
            ctx.dumps(bad)
        assert e.value.cls == "value" and "t.U." in e.value.message


def test_slots_dataclass_reads_and_writes_slots():
    ctx = libwire.Context(compatible=True, schema=BENCH_FDL)

    @dataclasses.dataclass(slots=True)
    class Image:
        uri: str
        title: str
        width: int
        height: int
        size: bench.Size
    ctx.register(Image, "bench.Image")
    v = Image("u", "t", 1, 2, bench.Size.LARGE)
    back = ctx.loads(ctx.dumps(v))
    assert back == v and type(back) is Image and not hasattr(back, "__dict__")


def test_loads_from_any_buffer(tmp_path):
    value = {"a": [1, 2.5, "x", b"\x00" * 100]}
    data = libwire.dumps(value)
    assert libwire.loads(bytearray(data)) == value
    assert libwire.loads(memoryview(data)) == value
    assert libwire.loads(memoryview(b"xx" + data)[2:]) == value
    p = tmp_path / "payload.bin"
    p.write_bytes(data)
    with open(p, "rb") as f, mmap.mmap(f.fileno(), 0,
                                       access=mmap.ACCESS_READ) as m:
        assert libwire.loads(m) == value


def test_dumps_into_a_caller_buffer():
    ctx = libwire.Context()
    value = ["x" * 50, 7, b"\x01" * (1 << 17)]
    want = ctx.dumps(value)
    buf = bytearray(len(want) + 10)
    n = ctx.dumps(value, into=buf)
    assert n == len(want) and bytes(buf[:n]) == want
    small = bytearray(10)
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(value, into=small)
    assert e.value.cls == "buffer_full" and e.value.offset == len(want)
    view = memoryview(bytearray(len(want)))
    assert ctx.dumps(value, into=view) == len(want)
    assert view.tobytes() == want


def test_large_binary_and_array_round_trip():
    ctx = libwire.Context()
    blob = os.urandom(1 << 20)
    arr = array.array("q", range(-50000, 50000))
    for v in (blob, arr, bytearray(blob), memoryview(blob)):
        back = ctx.loads(ctx.dumps(v))
        assert bytes(back) == bytes(v) if not isinstance(v, array.array) \
            else back == v


def test_large_binaries_copied_intact_at_every_size_and_offset():
    # Binaries of 4 KiB or more are copied by _pybytes.c's loop (forwards or
    # backwards, by where the new bytes object lies against the payload
    # modulo 4 KiB): sizes around its 128-byte steps, its 4 KiB and 4 MiB
    # limits, sources at every offset modulo 64 and spread over a page
    # (so both directions run), at the root, in a list and in a map.
    ctx = libwire.Context()
    rnd = random.Random(12)
    sizes = [4095, 4096, 4097, 4096 + 127, 4096 + 128, 4096 + 129, 70001,
             (1 << 20) + 33, (4 << 20) - 1, 4 << 20, (4 << 20) + 1]
    for i, size in enumerate(sizes):
        blob = rnd.randbytes(size)
        for value in (blob, [b"x", blob], {"k": blob}):
            data = ctx.dumps(value)
            buf = bytearray(len(data) + 4096)
            offsets = range(0, 4096, 61) if size < 1 << 16 else \
                range(i % 7, 4096, 509)
            for off in offsets:
                buf[off:off + len(data)] = data
                assert ctx.loads(memoryview(buf)[off:off + len(data)]) \
                    == value, (size, off)


def test_nested_binaries_and_arrays_are_copied_out_of_the_payload():
    # Inside containers, binaries and dense arrays reach Python as SPAN ops
    # (offsets into the payload): each value must be its own copy, intact
    # after the caller's buffer changes, and empty ones must work too.
    ctx = libwire.Context()
    blob = os.urandom(3000)
    value = {"b": [blob, b"", b"z"],
             "q": array.array("q", range(-500, 500)),
             "d": array.array("d", [0.5, -1.25]),
             "e": array.array("i")}
    buf = bytearray(ctx.dumps(value))
    back = ctx.loads(buf)
    assert back == value
    buf[:] = bytes(len(buf))
    assert back == value
    assert ctx.loads(memoryview(b"xyz" + bytes(ctx.dumps(value)))[3:]) == value

def test_no_reference_leak_and_bounded_memory(bctx):
    v = bench.lw_values()
    dyn = {"l": [1, 2.5, "s", None, True, b"b", {"k": [1, 2]}, {1, 2}],
           "big": 2 ** 62, "arr": array.array("i", [1, 2, 3])}
    objs = [v["MediaContent"], v["Sample"], dyn]
    media = v["MediaContent"].media
    refs = [sys.getrefcount(o) for o in objs] + [sys.getrefcount(media)]
    datas = [bctx.dumps(o) for o in objs]
    for _ in range(200):      # warm-up: plans, caches, free lists
        for o, d in zip(objs, datas):
            bctx.loads(bctx.dumps(o))
            bctx.loads(d)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(3000):
        for o, d in zip(objs, datas):
            bctx.dumps(o)
            bctx.loads(d)
    del o, d                  # the loop variables hold the last pair
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 64 * 1024, grown
    assert [sys.getrefcount(o) for o in objs] + [sys.getrefcount(media)] == \
        refs
    # errors release what they took too
    s = bench.NumericStruct(*bench.NUMERIC)
    s.f3 = 2 ** 40
    r = sys.getrefcount(s)
    for _ in range(100):
        with pytest.raises(libwire.WireError):
            bctx.dumps([s, "x"])
        with pytest.raises(libwire.WireError):
            bctx.loads(datas[0][:-3])
    assert sys.getrefcount(s) == r


def test_struct_cycles_with_ref_tracking():
    ctx = libwire.Context(ref=True, compatible=True, schema=BENCH_FDL)
    a = [1]
    v = {"x": a, "y": a, "self": None}
    v["self"] = v
    back = ctx.loads(ctx.dumps(v))
    assert back["x"] is back["y"] and back["self"] is back


def test_constants_come_from_wire_h():
    sys.path.insert(0, os.path.join(PKG, "tools"))
    import gen_constants
    with open(os.path.join(REPO, "libwire", "include", "wire.h")) as f:
        names = gen_constants.names(f.read())
    # the built module carries every constant of the repository's wire.h
    # (a stale build fails here)
    assert sorted(_native.CONSTANTS) == sorted(names)
    assert libwire.ids.INT32 == _native.CONSTANTS["WIRE_T_INT32"] == 4
    assert libwire.ids.LIMITS["depth"] == _native.CONSTANTS["WIRE_LIMIT_DEPTH"]


def test_node_level_api_loads_the_extension_itself():
    assert libwire.library_path == _native.__file__
    ctx = libwire.Context()
    doc = ctx.decode(libwire.dumps([1, "a"]))
    try:
        assert doc.encode() == libwire.dumps([1, "a"])
    finally:
        doc.close()


# ---- pyfory on the benchmark models -------------------------------------

def test_same_bytes_as_pyfory_on_benchmark_models(bctx):
    pytest.importorskip("pyfory")
    fory, pvals = bench.pyfory_models()
    v = bench.lw_values()
    for name in ("NumericStruct", "Sample", "MediaContent"):
        mine, theirs = bctx.dumps(v[name]), fory.serialize(pvals[name])
        assert mine == theirs, name
        back = bctx.loads(theirs)
        assert bctx.dumps(back) == theirs
        assert fory.serialize(fory.deserialize(mine)) == theirs


def test_dumps_from_inside_dumps_is_refused():
    ctx = libwire.Context()
    ctx.load_schema_text("package t;\nmessage P [id=301] { string name = 1; }\n")

    class P:
        name: str

        @property
        def name(self):            # runs while the codec walks the object
            return ctx.dumps("inner").hex()
    ctx.register(P, "t.P")
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(P())
    assert e.value.cls == "state"
    assert ctx.loads(ctx.dumps([1])) == [1]     # the context still works
    other = libwire.Context()                   # another context is fine
    other.load_schema_text("package t;\nmessage P [id=301] { string name = 1; }\n")

    class Q:
        name: str

        @property
        def name(self):
            return ctx.dumps("inner").hex()
    other.register(Q, "t.P")
    data = other.dumps(Q())
    assert ctx.dumps("inner").hex().encode() in data


def test_typed_buffers_are_dense_arrays():
    import ctypes
    ctx = libwire.Context()
    buf = (ctypes.c_int64 * 3)(1, -2, 3)          # format "<q": int64_array
    back = ctx.loads(ctx.dumps(buf))
    assert back == array.array("q", [1, -2, 3])
    assert ctx.dumps(buf) == ctx.dumps(array.array("q", [1, -2, 3]))
    f32 = (ctypes.c_float * 2)(1.5, -2.0)
    assert ctx.loads(ctx.dumps(f32)) == array.array("f", [1.5, -2.0])
    # a memoryview stays a binary (bytes), whatever its format
    assert ctx.loads(ctx.dumps(memoryview(b"ab"))) == b"ab"
