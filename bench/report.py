#!/usr/bin/env python3
"""Runs the benchmark under callgrind and prints the table.

    report.py BENCHDIR [N1 N2]

BENCHDIR holds bench_wire and libcgmark.so (built by bench/Makefile); the
callgrind output files and the payloads go there too. See bench/README.md.
"""
import os
import subprocess
import sys

from callgrind_dumps import CALLGRIND, parse_dumps, per_op

HERE = os.path.dirname(os.path.abspath(__file__))
ELEMENTS = {"list": 1000, "map": 10000}


def run(cmd, env=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=env)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return r.stdout


def main():
    bdir = os.path.abspath(sys.argv[1])
    n1 = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    n2 = int(sys.argv[3]) if len(sys.argv) > 3 else 10

    c_out = os.path.join(bdir, "callgrind.wire.out")
    sys.stdout.write(run(CALLGRIND + [f"--callgrind-out-file={c_out}",
                                      os.path.join(bdir, "bench_wire"),
                                      str(n1), str(n2), bdir]))
    wire = parse_dumps(c_out)

    py = None
    try:
        import pyfory  # noqa: F401  (only to know whether it is there)
        py_out = os.path.join(bdir, "callgrind.pyfory.out")
        env = dict(os.environ, PYTHONHASHSEED="0")
        sys.stdout.write(run(
            CALLGRIND + [f"--callgrind-out-file={py_out}", sys.executable,
                         os.path.join(HERE, "bench_pyfory.py"), str(n1),
                         str(n2), bdir, os.path.join(bdir, "libcgmark.so")],
            env=env))
        py = parse_dumps(py_out)
        version = pyfory.__version__
    except ImportError:
        print("pyfory is not installed: libwire numbers only")

    print()
    print(f"Instructions (callgrind Ir) per operation = "
          f"(Ir({n2} ops) - Ir({n1} ops)) / {n2 - n1}")
    hdr = (f"{'workload':<12} {'op':<7} {'libwire Ir/op':>14} "
           f"{'Ir/elem':>8} {'pyfory Ir/op':>14} {'Ir/elem':>8} "
           f"{'libwire/pyfory':>15}")
    print(hdr)
    print("-" * len(hdr))
    for name in ("list", "map"):
        for op in ("build", "encode", "decode"):
            label = f"{name} {op}"
            w = per_op(wire, label, n1, n2)
            p = per_op(py, label, n1, n2) if py else None
            ne = ELEMENTS[name]
            ws = f"{w:14,.0f} {w / ne:8.1f}" if w is not None else f"{'-':>14} {'-':>8}"
            ps = f"{p:14,.0f} {p / ne:8.1f}" if p is not None else f"{'-':>14} {'-':>8}"
            rs = f"{w / p:15.3f}" if (w is not None and p) else f"{'-':>15}"
            print(f"{name + '[' + str(ne) + ']':<12} {op:<7} {ws} {ps} {rs}")
    print()
    print("build = the document builder API (wire_doc_new ... wire_doc_free);"
          " encode = wire_encode +\nwire_ctx_free_bytes; decode = "
          "wire_decode + wire_doc_free. pyfory: Fory(xlang=True, ref=False)"
          "\n.serialize / .deserialize of the same values"
          + (f" (pyfory {version})." if py else "."))


if __name__ == "__main__":
    main()
