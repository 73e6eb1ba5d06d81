#!/usr/bin/env python3
"""The Python binding against pyfory 1.7.7, with msgspec and pickle as the
anchors a Python user would pick instead (not a timed test).

    python3 bench.py [--quick] [--wall]

Workloads: MediaContent, NumericStruct, Sample (registered classes,
compatible mode, the values of Fory's benchmark: bench/model.c, schema
bench/schemas/bench.fdl; pyfory: the same dataclasses with pyfory's field
types and ids), then list_mixed_1000 (1,000 ints, floats, strings, bools
and None), map_str_i64_10000, i64_array_100000 (array.array('q')),
binary_1MiB (bytes) and strings_10000 (short ASCII strings).

pyfory runs in its fastest documented xlang configuration:
Fory(xlang=True, ref=False, compatible=True) for the structs (as libwire's
Context(compatible=True)), Fory(xlang=True, ref=False) for the rest.

Time: batches of each implementation interleaved in this one process
(round robin, `rounds` times); per implementation the median of its batch
times. Clock: time.process_time (CPU time of the process, not the time it
waits for a CPU on a loaded machine), --wall: time.perf_counter.

Output: one line per workload and direction,
    BENCH python <workload> <enc|dec> ratio=<libwire time / pyfory time>
then the bytes check (BYTES ... equal / differ) and a table of
microseconds per operation.
"""

import argparse
import array
import dataclasses
import enum
import os
import pickle
import random
import statistics
import sys
import time
from typing import List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
SCHEMA = os.path.join(REPO, "bench", "schemas", "bench.fdl")
# LIBWIRE_BENCH_PKG: measure another copy of the package (an older binding)
sys.path.insert(0, os.environ.get("LIBWIRE_BENCH_PKG", HERE))

import libwire  # noqa: E402

try:
    import pyfory
except ImportError:
    pyfory = None
try:
    import msgspec
except ImportError:
    msgspec = None


# ---- libwire models (plain dataclasses registered to bench.fdl) --------

class Player(enum.IntEnum):
    JAVA = 0
    FLASH = 1


class Size(enum.IntEnum):
    SMALL = 0
    LARGE = 1


I32, I64, F32 = libwire.VarInt32, libwire.VarInt64, libwire.Float32
# The annotations name the wire types for older bindings (which did not
# know the declared field types); the extension takes them from the schema.


@dataclasses.dataclass
class NumericStruct:
    f1: I32
    f2: I32
    f3: I32
    f4: I32
    f5: I32
    f6: I32
    f7: I32
    f8: I32
    f9: I32
    f10: I32
    f11: I32
    f12: I32


@dataclasses.dataclass
class Sample:
    int_value: I32
    long_value: I64
    float_value: F32
    double_value: float
    short_value: I32
    char_value: I32
    boolean_value: bool
    int_value_boxed: I32
    long_value_boxed: I64
    float_value_boxed: F32
    double_value_boxed: float
    short_value_boxed: I32
    char_value_boxed: I32
    boolean_value_boxed: bool
    int_array: list
    long_array: list
    float_array: list
    double_array: list
    short_array: list
    char_array: list
    boolean_array: list
    string: str


@dataclasses.dataclass
class Media:
    uri: str
    title: str
    width: I32
    height: I32
    format: str
    duration: I64
    size: I64
    bitrate: I32
    has_bitrate: bool
    persons: List[str]
    player: Player
    copyright: str


@dataclasses.dataclass
class Image:
    uri: str
    title: str
    width: I32
    height: I32
    size: Size


@dataclasses.dataclass
class MediaContent:
    media: Media
    images: List[Image]


for _cls, _name in ((Player, "bench.Player"), (Size, "bench.Size")):
    libwire.enum(_name)(_cls)
for _cls in (NumericStruct, Sample, Media, Image, MediaContent):
    libwire.struct("bench." + _cls.__name__)(_cls)

NUMERIC = [-12345, 987654321, -31415, 27182818, -32000, 1000000, -999999999,
           42, 123456789, -42, 31415926, -27182818]
SAMPLE = dict(
    int_value=123, long_value=1230000, float_value=12.345,
    double_value=1.234567, short_value=12345, char_value=ord("!"),
    boolean_value=True, int_value_boxed=321, long_value_boxed=3210000,
    float_value_boxed=54.321, double_value_boxed=7.654321,
    short_value_boxed=32100, char_value_boxed=ord("$"),
    boolean_value_boxed=False,
    int_array=[-1234, -123, -12, -1, 0, 1, 12, 123, 1234],
    long_array=[-123400, -12300, -1200, -100, 0, 100, 1200, 12300, 123400],
    float_array=[-12.34, -12.3, -12.0, -1.0, 0.0, 1.0, 12.0, 12.3, 12.34],
    double_array=[-1.234, -1.23, -12.0, -1.0, 0.0, 1.0, 12.0, 1.23, 1.234],
    short_array=[-1234, -123, -12, -1, 0, 1, 12, 123, 1234],
    char_array=[ord(c) for c in "asdfASDF"],
    boolean_array=[True, False, False, True],
    string="ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
MEDIA = dict(uri="http://javaone.com/keynote.ogg", title="", width=641,
             height=481, format="video/theora\u1234", duration=18000001,
             size=58982401, bitrate=0, has_bitrate=False,
             persons=["Bill Gates, Jr.", "Steven Jobs"],
             copyright="Copyright (c) 2009, Scooby Dooby Doo")
IMAGES = [("http://javaone.com/keynote_huge.jpg", "Javaone Keynote\u1234",
           32000, 24000, "LARGE"),
          ("http://javaone.com/keynote_large.jpg", "", 1024, 768, "LARGE"),
          ("http://javaone.com/keynote_small.jpg", "", 320, 240, "SMALL")]


def lw_values():
    sample = dict(SAMPLE)
    for n, tc in (("int_array", "i"), ("long_array", "q"),
                  ("float_array", "f"), ("double_array", "d"),
                  ("short_array", "i"), ("char_array", "i")):
        sample[n] = array.array(tc, sample[n])
    return {
        "NumericStruct": NumericStruct(*NUMERIC),
        "Sample": Sample(**sample),
        "MediaContent": MediaContent(
            Media(player=Player.FLASH, **MEDIA),
            [Image(u, t, w, h, Size[s]) for u, t, w, h, s in IMAGES]),
    }


# ---- pyfory models: the same, with pyfory's field types and tag ids ----

def pyfory_models(optional=False):
    """pyfory's models, Fory instance and values. optional: MediaContent's
    struct field and list elements annotated Optional (nullable in pyfory's
    TypeDef, not in bench.fdl: a TypeDef that differs only in nullable
    flags, which a reader maps onto its registered type)."""
    pf = pyfory

    class PPlayer(enum.IntEnum):
        JAVA = 0
        FLASH = 1

    class PSize(enum.IntEnum):
        SMALL = 0
        LARGE = 1

    def F(i, **kw):
        return pf.field(id=i, **kw)

    ns = {"pf": pf, "F": F, "List": List, "Optional": Optional,
          "PPlayer": PPlayer, "PSize": PSize, "dataclass": dataclasses.dataclass}
    src = ["@dataclass\nclass PNumericStruct:"]
    src += ["    f%d: pf.Int32 = F(%d, default=0)" % (i, i) for i in range(1, 13)]
    src.append("@dataclass\nclass PSample:")
    types = {"int_value": "pf.Int32", "long_value": "pf.Int64",
             "float_value": "pf.Float32", "double_value": "pf.Float64",
             "short_value": "pf.Int32", "char_value": "pf.Int32",
             "boolean_value": "bool"}
    k = 1
    for boxed in ("", "_boxed"):
        for n, t in types.items():
            src.append("    %s%s: %s = F(%d, default=%s)" % (
                n, boxed, t, k, "0.0" if "Float" in t else
                "False" if t == "bool" else "0"))
            k += 1
    for n, t in (("int", "pf.Int32"), ("long", "pf.Int64"),
                 ("float", "pf.Float32"), ("double", "pf.Float64"),
                 ("short", "pf.Int32"), ("char", "pf.Int32"),
                 ("boolean", "bool")):
        src.append("    %s_array: pf.Array[%s] = F(%d, default=None)"
                   % (n, t, k))
        k += 1
    src.append("    string: str = F(22, default='')")
    src.append("""@dataclass
class PMedia:
    uri: str = F(1, default='')
    title: str = F(2, default='')
    width: pf.Int32 = F(3, default=0)
    height: pf.Int32 = F(4, default=0)
    format: str = F(5, default='')
    duration: pf.Int64 = F(6, default=0)
    size: pf.Int64 = F(7, default=0)
    bitrate: pf.Int32 = F(8, default=0)
    has_bitrate: bool = F(9, default=False)
    persons: List[str] = F(10, default_factory=list)
    player: PPlayer = F(11, default=None)
    copyright: str = F(12, default='')
@dataclass
class PImage:
    uri: str = F(1, default='')
    title: str = F(2, default='')
    width: pf.Int32 = F(3, default=0)
    height: pf.Int32 = F(4, default=0)
    size: PSize = F(5, default=None)
@dataclass
class PMediaContent:
    media: %s = F(1, default=None)
    images: List[%s] = F(2, default_factory=list)
""" % (("Optional[PMedia]", "Optional[PImage]") if optional
       else ("PMedia", "PImage")))
    exec("\n".join(src), ns)
    fory = pf.Fory(xlang=True, ref=False, compatible=True)
    for cls, tid in ((PPlayer, 6), (PSize, 7), (ns["PNumericStruct"], 1),
                     (ns["PSample"], 2), (ns["PMedia"], 3), (ns["PImage"], 4),
                     (ns["PMediaContent"], 5)):
        fory.register_type(cls, type_id=tid)
    sample = dict(SAMPLE)
    for n, tc in (("int_array", "i"), ("long_array", "q"),
                  ("float_array", "f"), ("double_array", "d"),
                  ("short_array", "i"), ("char_array", "i")):
        sample[n] = array.array(tc, sample[n])
    values = {
        "NumericStruct": ns["PNumericStruct"](*NUMERIC),
        "Sample": ns["PSample"](**sample),
        "MediaContent": ns["PMediaContent"](
            ns["PMedia"](player=PPlayer.FLASH, **MEDIA),
            [ns["PImage"](u, t, w, h, PSize[s]) for u, t, w, h, s in IMAGES]),
    }
    return fory, values


def msgspec_values():
    """msgspec.Struct versions of the structs (msgpack)."""
    S = msgspec.Struct
    ns = {"S": S, "List": List}
    exec("""
class MNumericStruct(S, array_like=True):
""" + "".join("    f%d: int\n" % i for i in range(1, 13)) + """
class MSample(S, array_like=True):
""" + "".join("    %s: %s\n" % (n, type(v).__name__ if not isinstance(v, list)
                                 else "list")
              for n, v in SAMPLE.items()) + """
class MMedia(S, array_like=True):
    uri: str
    title: str
    width: int
    height: int
    format: str
    duration: int
    size: int
    bitrate: int
    has_bitrate: bool
    persons: List[str]
    player: int
    copyright: str
class MImage(S, array_like=True):
    uri: str
    title: str
    width: int
    height: int
    size: int
class MMediaContent(S, array_like=True):
    media: MMedia
    images: List[MImage]
""", ns)
    vals = {
        "NumericStruct": ns["MNumericStruct"](*NUMERIC),
        "Sample": ns["MSample"](**SAMPLE),
        "MediaContent": ns["MMediaContent"](
            ns["MMedia"](player=1, **MEDIA),
            [ns["MImage"](u, t, w, h, 1 if s == "LARGE" else 0)
             for u, t, w, h, s in IMAGES]),
    }
    types = {k: type(v) for k, v in vals.items()}
    return vals, types


def dynamic_values():
    rnd = random.Random(7)
    mixed = []
    for i in range(1000):
        k = i % 5
        mixed.append(rnd.randrange(-2 ** 40, 2 ** 40) if k == 0 else
                     rnd.random() * 1e6 if k == 1 else
                     "item-%d" % rnd.randrange(10 ** 6) if k == 2 else
                     bool(i & 8) if k == 3 else
                     (None if i % 3 else rnd.randrange(100)))
    return {
        "list_mixed_1000": mixed,
        "map_str_i64_10000": {"key%05d" % i: rnd.randrange(-2 ** 62, 2 ** 62)
                              for i in range(10000)},
        "i64_array_100000": array.array("q", (rnd.randrange(-2 ** 63, 2 ** 63)
                                              for _ in range(100000))),
        "binary_1MiB": rnd.randbytes(1 << 20),
        "strings_10000": ["s%d" % rnd.randrange(10 ** 7) for _ in range(10000)],
    }


STRUCTS = ["MediaContent", "NumericStruct", "Sample"]
DYNAMIC = ["list_mixed_1000", "map_str_i64_10000", "i64_array_100000",
           "binary_1MiB", "strings_10000"]


def timeit(fn, n, clock):
    t = clock()
    for _ in range(n):
        fn()
    return (clock() - t) / n


def calibrate(fn, target):
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        dt = time.perf_counter() - t
        if dt >= target / 4 or n >= 1 << 20:
            return max(1, int(n * target / max(dt, 1e-9)))
        n *= 4


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--wall", action="store_true")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    if pyfory is None:
        sys.exit("bench.py needs pyfory 1.7.7 (pip install pyfory==1.7.7)")
    clock = time.perf_counter if a.wall else time.process_time
    rounds, target = (5, 0.02) if a.quick else (15, 0.05)

    ctx_s = libwire.Context(compatible=True, schema=SCHEMA)
    ctx_d = libwire.Context()
    fory_s, pf_vals = pyfory_models()
    fory_d = pyfory.Fory(xlang=True, ref=False)
    lw_vals = lw_values()
    dyn = dynamic_values()
    ms_vals, ms_types = msgspec_values() if msgspec else ({}, {})

    rows = []
    bytes_lines = []
    names = [w for w in STRUCTS + DYNAMIC
             if not a.only or w in a.only.split(",")]
    for w in names:
        if w in STRUCTS:
            lw_ctx, lv, fory, fv = ctx_s, lw_vals[w], fory_s, pf_vals[w]
            mv = ms_vals.get(w)
        else:
            lw_ctx, lv, fory, fv = ctx_d, dyn[w], fory_d, dyn[w]
            mv = dyn[w]
        try:
            lb = lw_ctx.dumps(lv)
            lw_ctx.loads(lb)
        except Exception as e:  # noqa: BLE001  (an older binding)
            print("BENCH python %s enc error=%s" % (w, type(e).__name__))
            print("BENCH python %s dec error=%s" % (w, type(e).__name__))
            continue
        fb = fory.serialize(fv)
        back = lw_ctx.loads(lb)
        # float32 fields come back rounded: compare what they write again
        assert back == lv or lw_ctx.dumps(back) == lb, \
            "libwire round trip of %s" % w
        # each side reads the other's bytes
        try:
            lw_ctx.loads(fb)
            cross = "libwire reads pyfory's bytes"
        except libwire.WireError as e:
            cross = "libwire cannot read pyfory's bytes (%s)" % e
        try:
            fory.deserialize(lb)
            cross += "; pyfory reads libwire's"
        except Exception as e:  # noqa: BLE001
            cross += "; pyfory cannot read libwire's (%s)" % (
                str(e).splitlines()[0][:60])
        bytes_lines.append("BYTES %s %s (%d vs %d bytes); %s" % (
            w, "equal" if lb == fb else "differ", len(lb), len(fb), cross))
        impls = {
            "libwire": (lambda: lw_ctx.dumps(lv), lambda: lw_ctx.loads(lb)),
            "pyfory": (lambda: fory.serialize(fv),
                       lambda: fory.deserialize(fb)),
            "pickle": (lambda: pickle.dumps(lv, 5),
                       lambda pb=pickle.dumps(lv, 5): pickle.loads(pb)),
        }
        if msgspec is not None and mv is not None:
            mv_enc = mv.tolist() if isinstance(mv, array.array) else mv
            enc_ = msgspec.msgpack.Encoder()
            mb = enc_.encode(mv_enc)
            dec_ = msgspec.msgpack.Decoder(ms_types[w]) if w in ms_types \
                else msgspec.msgpack.Decoder()
            impls["msgspec"] = (lambda: enc_.encode(mv_enc),
                                lambda: dec_.decode(mb))
        for d, k in (("enc", 0), ("dec", 1)):
            fns = {n: f[k] for n, f in impls.items()}
            counts = {n: calibrate(f, target) for n, f in fns.items()}
            times = {n: [] for n in fns}
            for _ in range(rounds):
                for n, f in fns.items():
                    times[n].append(timeit(f, counts[n], clock))
            med = {n: statistics.median(v) for n, v in times.items()}
            rows.append((w, d, med))
            print("BENCH python %s %s ratio=%.2f" % (
                w, d, med["libwire"] / med["pyfory"]), flush=True)
    print()
    for line in bytes_lines:
        print(line)
    print()
    cols = ["libwire", "pyfory", "msgspec", "pickle"]
    hdr = "%-18s %-3s " % ("workload", "op") + " ".join(
        "%10s" % (c + " us") for c in cols) + "  %8s %8s" % (
        "lw/fory", "lw/msgs")
    print(hdr)
    print("-" * len(hdr))
    for w, d, med in rows:
        cells = " ".join("%10.2f" % (med[c] * 1e6) if c in med else
                         "%10s" % "-" for c in cols)
        r2 = ("%8.2f" % (med["libwire"] / med["msgspec"])
              if "msgspec" in med else "%8s" % "-")
        print("%-18s %-3s %s  %8.2f %s" % (w, d, cells,
                                           med["libwire"] / med["pyfory"], r2))
    print("\nclock: %s; %d interleaved rounds; median batch time per op"
          % ("perf_counter" if a.wall else "process_time", rounds))


if __name__ == "__main__":
    main()
