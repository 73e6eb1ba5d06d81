#!/usr/bin/env python3
"""pyfory side of the benchmark (run under callgrind by report.py).

    bench_pyfory.py N1 N2 DATADIR CGMARK_SO

Loads the payloads bench_wire wrote (DATADIR/list.bin, DATADIR/map.bin),
deserializes them with pyfory to get the very same Python values, checks
whether pyfory serializes them back to identical bytes, and then measures
serialize and deserialize like bench_wire does: a warm-up call and loops of
N1 and N2 calls, each bracketed by callgrind client requests (zero stats /
dump stats "<label> <n>") issued through the small cgmark shared library.
The interpreter start-up and the pyfory import run with instrumentation
off (--instr-atstart=no) and are never counted.
"""
import ctypes
import sys

import pyfory


def main():
    n1, n2 = int(sys.argv[1]), int(sys.argv[2])
    datadir, marklib = sys.argv[3], sys.argv[4]
    cg = ctypes.CDLL(marklib)
    cg.cgmark_dump.argtypes = [ctypes.c_char_p]
    fory = pyfory.Fory(xlang=True, ref=False)

    def measure(label, n, fn):
        cg.cgmark_zero()
        for _ in range(n):
            fn()
        cg.cgmark_dump(f"{label} {n}".encode())

    cg.cgmark_start()
    for name in ("list", "map"):
        with open(f"{datadir}/{name}.bin", "rb") as fh:
            payload = fh.read()
        value = fory.deserialize(payload)
        again = fory.serialize(value)
        same = "identical" if again == payload else (
            f"differ ({len(again)} vs {len(payload)} bytes)")
        print(f"pyfory {name}: {len(value)} elements, re-serialized bytes "
              f"{same}", flush=True)

        # Results are bound to a name so the previous one is freed inside
        # the loop, as libwire's loop frees its output.
        box = [None]

        def ser():
            box[0] = fory.serialize(value)

        def de():
            box[0] = fory.deserialize(payload)

        for op, fn in (("encode", ser), ("decode", de)):
            measure("warmup", 1, fn)
            measure(f"{name} {op}", n1, fn)
            measure(f"{name} {op}", n2, fn)
            box[0] = None


if __name__ == "__main__":
    main()
