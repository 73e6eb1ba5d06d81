#!/usr/bin/env python3
"""Per-message cost of the Python binding, side by side with pyfory 1.7.7.

    LIBWIRE_PATH=../../build/lib/libwire.so python3 bench.py [--quick] [--tape]

For every workload it times dumps (encode) and loads (decode) of one message
over many iterations (best of several interleaved repeats), does
the same with pyfory.Fory(xlang=True, ref=False), and prints the
microseconds per message and the ratio libwire/pyfory (above 1: the binding
is slower). The "core" column is the C library's share, measured through
the same ctypes handle: one wire_encode of an already built document, or
one wire_decode + wire_doc_free. The rest of the binding's time is Python
and FFI overhead: one ctypes call per value and per container edge, the
cost BULK_PROPOSAL.md removes.

With --tape the bulk entry points (wire_encode_tape / wire_decode_tape, in
the libwire core; or the library named by LIBWIRE_TAPE_PATH) are measured
too: column "tape us" is dumps/loads with one FFI call per message.

Clock: time.process_time (CPU time of this process) by default, so that
the time the process waits for a CPU on a loaded machine is not counted;
--wall uses time.perf_counter instead.

Workloads (list[1000] and map[10000] are the payloads of `make bench` when
build/bench/{list,map}.bin exist, else similar generated values):
  int        one int (VARINT64)
  str        one short string
  record     a dict of 8 mixed fields (a typical small message)
  item       struct Item {string name} from the FDL schema, compatible mode
             (a registered dataclass; pyfory: the same dataclass registered
             with type_id=102)
  list100    100 ints
  list1000   1,000 mixed scalars and strings
  map10000   map<string, varint64> of 10,000 entries
"""

import argparse
import dataclasses
import os
import random
import sys
import time
from ctypes import byref, c_size_t, c_void_p

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import libwire  # noqa: E402
from libwire import _lib  # noqa: E402
from libwire._lib import lib  # noqa: E402

try:
    import pyfory
except ImportError:
    pyfory = None


@dataclasses.dataclass
class Item:
    name: str = ""


def _payload(name):
    p = os.path.join(REPO, "build", "bench", name + ".bin")
    if os.path.exists(p):
        with open(p, "rb") as f:
            return libwire.loads(f.read())
    return None


def workloads():
    rnd = random.Random(7)
    list1000 = _payload("list")
    if list1000 is None:
        list1000 = []
        for i in range(1000):
            k = i % 8
            list1000.append(
                rnd.randrange(-2 ** 40, 2 ** 40) if k < 3 else
                rnd.random() if k == 3 else bool(i & 16) if k == 4 else
                "s%d\u00e9" % i if k < 7 else "\u65e5\u672c%d" % i)
    map10000 = _payload("map")
    if map10000 is None:
        map10000 = {"key%05d" % i: rnd.randrange(-2 ** 60, 2 ** 60)
                    for i in range(10000)}
    record = {"id": 123456, "name": "Alice Example", "email": "a@example.com",
              "score": 97.5, "active": True, "tags": ["admin", "ops"],
              "manager": None, "logins": 42}
    return [
        ("int", 12345, {}),
        ("str", "hello world", {}),
        ("record", record, {}),
        ("item", Item("test_item_1"), {"compatible": True}),
        ("list100", list(range(100)), {}),
        ("list1000", list1000, {}),
        ("map10000", map10000, {}),
    ]


CLOCK = time.process_time


def _calibrate(fn, budget):
    fn()
    n = 1
    while True:
        t = CLOCK()
        for _ in range(n):
            fn()
        dt = CLOCK() - t
        if dt > budget / 10 or n >= 1 << 20:
            return n, dt / n
        n *= 4


def timeit(fn, budget):
    """Seconds per call: best of 5 runs of n calls, n sized to the budget."""
    return timeit_many([fn], budget)[0]


def timeit_many(fns, budget):
    """Like timeit for several functions, their runs interleaved (the
    machine's load then weighs on all of them alike)."""
    plans = [(_calibrate(f, budget) if f else (0, None)) for f in fns]
    best = [p[1] for p in plans]
    for _ in range(5):
        for i, f in enumerate(fns):
            if f is None:
                continue
            n = plans[i][0]
            t = CLOCK()
            for _ in range(n):
                f()
            best[i] = min(best[i], (CLOCK() - t) / n)
    return best


def core_times(ctx, value, budget):
    """(encode, decode) seconds of the C library alone for this value."""
    from libwire import _codec
    p = ctx.ptr
    enc = _codec.Encoder(ctx)
    enc.ref = ctx.ref
    doc = enc.doc = lib.wire_doc_new(p)
    try:
        lib.wire_doc_add_root(doc, enc.build(value))
        out, ln = c_void_p(), c_size_t()

        def encode():
            lib.wire_encode(p, doc, byref(out), byref(ln))
            lib.wire_ctx_free_bytes(p, out)
        t_enc = timeit(encode, budget)
    finally:
        lib.wire_doc_free(doc)
    data = ctx.dumps(value)
    dout = c_void_p()

    def decode():
        lib.wire_decode(p, data, len(data), byref(dout))
        lib.wire_doc_free(dout.value)
    return t_enc, timeit(decode, budget)


def build_tape_lib():
    """The prototype tape library: LIBWIRE_TAPE_PATH, or compiled now."""
    if _lib.tape is not None:
        return True
    import shutil
    import subprocess
    import tempfile
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        print("--tape: no C compiler; set LIBWIRE_TAPE_PATH")
        return False
    libdir = os.path.dirname(os.path.abspath(libwire.library_path))
    out = os.path.join(tempfile.mkdtemp(prefix="wire_tape"), "libwire_tape.so")
    cmd = [cc, "-O2", "-shared", "-fPIC",
           "-I", os.path.join(REPO, "libwire", "include"),
           os.path.join(HERE, "proposal", "wire_tape.c"), "-L", libdir,
           "-l:" + os.path.basename(os.path.realpath(libwire.library_path)),
           "-Wl,-rpath," + libdir, "-o", out]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        print("--tape: compiling the prototype failed:\n" + r.stderr)
        return False
    return _lib.attach_tape(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="shorter runs")
    ap.add_argument("--tape", action="store_true",
                    help="also measure the bulk tape prototype")
    ap.add_argument("--wall", action="store_true",
                    help="wall-clock time (time.perf_counter)")
    args = ap.parse_args()
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    budget = 0.1 if args.quick else 0.4
    tape = args.tape and build_tape_lib()
    schema = os.path.join(REPO, "fixtures", "schemas", "xlang", "test_item.fdl")
    print("libwire %s at %s; pyfory %s; Python %s; load average %s; "
          "clock %s" % (
        libwire.version(), libwire.library_path,
        pyfory.__version__ if pyfory else "not installed",
        sys.version.split()[0],
        " ".join("%.1f" % x for x in os.getloadavg()), CLOCK.__name__))
    cols = ("workload", "op", "bytes", "libwire us", "core us", "pyfory us",
            "lw/pyfory")
    fmt = "%-9s %-6s %7s %11s %9s %10s %9s"
    if tape:
        cols += ("tape us", "tape/pyfory")
        fmt += " %9s %11s"
    print(fmt % cols)
    ratios = {}
    for name, value, opts in workloads():
        ctx = libwire.Context(schema=schema if name == "item" else None,
                              tape=False, **opts)
        tctx = libwire.Context(schema=schema if name == "item" else None,
                               tape=True, **opts) if tape else None
        for c in (ctx, tctx):
            if c is not None and name == "item":
                c.register(Item, "Item")
        data = ctx.dumps(value)
        assert ctx.loads(data) == value
        if tctx is not None:
            assert tctx.dumps(value) == data and tctx.loads(data) == value
        fory = None
        if pyfory is not None:
            fory = pyfory.Fory(xlang=True, ref=False,
                               compatible=opts.get("compatible", False))
            if name == "item":
                fory.register_type(Item, type_id=102)
            pdata = fory.serialize(value)
        core = core_times(ctx, value, budget)
        for op, fn, pfn, tfn, c in (
                ("dumps", lambda: ctx.dumps(value),
                 (lambda: fory.serialize(value)) if fory else None,
                 (lambda: tctx.dumps(value)) if tctx else None, core[0]),
                ("loads", lambda: ctx.loads(data),
                 (lambda: fory.deserialize(pdata)) if fory else None,
                 (lambda: tctx.loads(data)) if tctx else None, core[1])):
            t, pt, tt = timeit_many([fn, pfn, tfn], budget)
            row = [name, op, str(len(data)), "%.2f" % (t * 1e6),
                   "%.2f" % (c * 1e6), "%.2f" % (pt * 1e6) if pt else "-",
                   "%.1f" % (t / pt) if pt else "-"]
            if pt:
                ratios.setdefault(("per-value", op), []).append(t / pt)
            if tape:
                row += ["%.2f" % (tt * 1e6), "%.1f" % (tt / pt) if pt else "-"]
                if pt:
                    ratios.setdefault(("tape", op), []).append(tt / pt)
            print(fmt % tuple(row), flush=True)
        ctx.close()
        if tctx is not None:
            tctx.close()
    import math
    for (path, op), r in sorted(ratios.items()):
        print("geometric mean libwire/pyfory, %s path, %s: %.1f" % (
            path, op, math.exp(sum(map(math.log, r)) / len(r))))


if __name__ == "__main__":
    main()
