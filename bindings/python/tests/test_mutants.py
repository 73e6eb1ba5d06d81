"""Hostile input through both codec paths: seeded mutants of the benchmark's
payloads (NumericStruct, Sample, MediaContent; compatible mode) decoded by
the layouts and by the tape path (use_layouts(False)). Each decode gives a
value or a WireError with a status name, its code and an offset inside the
input (or None), never another exception; the Python heap it allocates
stays within a bound of the input's size; and the contexts still decode the
original afterwards. LIBWIRE_MUTANTS=n sets the mutants per payload."""

import os
import random
import struct
import sys
import tracemalloc

import libwire
from conftest import PKG, REPO

sys.path.insert(0, PKG)
import bench  # noqa: E402  (the benchmark's models, registered as bench.*)

BENCH_FDL = os.path.join(REPO, "bench", "schemas", "bench.fdl")
COUNT = int(os.environ.get("LIBWIRE_MUTANTS", "2500"))
EDGES = (0x00, 0x01, 0x7F, 0x80, 0xFF, 0xFE, 0xFD, 0xFC)
# Python heap a decode may allocate: per input byte, and a constant
HEAP_PER_BYTE, HEAP_BASE = 1024, 1 << 20
M64 = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def _fmix(k):
    k ^= k >> 33
    k = (k * 0xFF51AFD7ED558CCD) & M64
    k ^= k >> 33
    k = (k * 0xC4CEB9FE1A85EC53) & M64
    return k ^ (k >> 33)


def murmur3(data, seed=47):
    """The first 64 bits of MurmurHash3_x64_128."""
    c1, c2 = 0x87C37B91114253D5, 0x4CF5AD432745937F
    h1 = h2 = seed
    n = len(data) // 16
    for i in range(n):
        k1, k2 = struct.unpack_from("<QQ", data, 16 * i)
        h1 ^= (_rotl((k1 * c1) & M64, 31) * c2) & M64
        h1 = ((_rotl(h1, 27) + h2) * 5 + 0x52DCE729) & M64
        h2 ^= (_rotl((k2 * c2) & M64, 33) * c1) & M64
        h2 = ((_rotl(h2, 31) + h1) * 5 + 0x38495AB5) & M64
    tail = data[16 * n:]
    if len(tail) > 8:
        k2 = int.from_bytes(tail[8:], "little")
        h2 ^= (_rotl((k2 * c2) & M64, 33) * c1) & M64
    if tail:
        k1 = int.from_bytes(tail[:8], "little")
        h1 ^= (_rotl((k1 * c1) & M64, 31) * c2) & M64
    h1 ^= len(data)
    h2 ^= len(data)
    h1 = (h1 + h2) & M64
    h2 = (h2 + h1) & M64
    h1, h2 = _fmix(h1), _fmix(h2)
    return (h1 + h2) & M64


def typedef_header(data, off):
    """The header the TypeDef at data[off:] should have (its 52-bit hash of
    the body, spec/01-primitives.md), or None."""
    if off is None or off < 0 or len(data) - off < 8:
        return None
    header = int.from_bytes(data[off:off + 8], "little")
    at, size = off + 8, header & 0xFF
    if size == 0xFF:
        extra = shift = 0
        while True:
            if at >= len(data) or shift > 28:
                return None
            b = data[at]
            at += 1
            extra |= (b & 0x7F) << shift
            if b < 0x80:
                break
            shift += 7
        size += extra
    if size > len(data) - at:
        return None
    body = bytes(data[at:at + size]) + bytes([header & 0xFF,
                                              (header >> 8) & 0x0F])
    h = (murmur3(body) << 12) & M64
    if h >> 63 and h != 1 << 63:
        h = (-h) & M64
    return (h & 0xFFFFFFFFFFFFF000) | (header & 0xFFF)


def repaired(ctx, data):
    """data with the hash of each TypeDef libwire refuses for its hash made
    right (as the C and Go fuzz targets do), so that mutants of TypeDef
    bodies reach the mapping of the writer's fields behind the check."""
    out = bytearray(data)
    for _ in range(16):
        try:
            ctx.loads(bytes(out))
            break
        except libwire.WireError as e:
            fixed = typedef_header(out, e.offset)
            if e.cls != "typedef" or "hash" not in e.message or \
                    fixed is None:
                break
            out[e.offset:e.offset + 8] = fixed.to_bytes(8, "little")
        except Exception:  # (reported by the decode under test)
            break
    return bytes(out)


def mutant(good, rnd):
    """good with bytes replaced, set to varint and flag edges, cut, removed,
    inserted or repeated (one to three times)."""
    m = bytearray(good)
    for _ in range(rnd.randrange(1, 4)):
        at = rnd.randrange(len(m))
        kind = rnd.randrange(6)
        if kind == 0:
            m[at] = rnd.randrange(256)
        elif kind == 1:
            m[at] = rnd.choice(EDGES)
        elif kind == 2:
            del m[at:]
        elif kind == 3:
            del m[at:at + rnd.randrange(1, 5)]
        elif kind == 4:
            m[at:at] = rnd.randbytes(rnd.randrange(1, 5))
        else:
            m[at:at] = m[at:at + rnd.randrange(1, 17)]
        if not m:
            m.append(rnd.choice(EDGES))
    return bytes(m)


def check(ctx, what, data, errors):
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    try:
        ctx.loads(data)
    except libwire.WireError as e:
        assert isinstance(e.cls, str) and e.cls and \
            libwire._errors.status_name(e.code) == e.cls, \
            "%s: class %r code %r for %s" % (what, e.cls, e.code, data.hex())
        assert e.offset is None or 0 <= e.offset <= len(data), \
            "%s: offset %r of %d for %s" % (what, e.offset, len(data),
                                            data.hex())
        errors[e.cls] = errors.get(e.cls, 0) + 1
    except Exception as e:  # noqa: BLE001 (the finding)
        raise AssertionError("%s: %s: %s for %s" % (
            what, type(e).__name__, e, data.hex())) from e
    used = tracemalloc.get_traced_memory()[1] - before
    assert used <= HEAP_PER_BYTE * len(data) + HEAP_BASE, \
        "%s: %d bytes of heap for %d input bytes: %s" % (
            what, used, len(data), data.hex())


def test_mutants_of_the_bench_structs_through_both_paths():
    layouts = libwire.Context(compatible=True, schema=BENCH_FDL)
    tape = libwire.Context(compatible=True, schema=BENCH_FDL)
    tape._codec.use_layouts(False)
    tracemalloc.start()
    try:
        for seed, (name, value) in enumerate(bench.lw_values().items()):
            good = layouts.dumps(value)
            assert tape.dumps(value) == good
            want = layouts.loads(good)  # (float32 fields rounded)
            rnd = random.Random(seed)
            errors, repairs = {}, 0
            for _ in range(COUNT):
                m = mutant(good, rnd)
                if rnd.random() < 0.5:
                    r = repaired(tape, m)
                    repairs += r != m
                    m = r
                check(layouts, name + " layouts", m, errors)
                check(tape, name + " tape", m, errors)
            assert repairs > COUNT // 100, (name, repairs)
            assert len(errors) > 5, (name, errors)
            assert layouts.loads(good) == want
            assert tape.loads(good) == want
    finally:
        tracemalloc.stop()
