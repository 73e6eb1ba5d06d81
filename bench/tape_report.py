#!/usr/bin/env python3
"""Runs bench_tape under callgrind and prints Ir per operation.

    tape_report.py BENCHDIR [N1 N2]

BENCHDIR holds bench_tape (this library) and, if present, bench_tape_base
(the same program built against an older library, `make bench-tape
BASE=<commit>`): its enc_doc / dec_doc columns are that library's
wire_encode_tape / wire_decode_tape. Ir/op = (Ir(N2) - Ir(N1)) / (N2 - N1).
"""
import os
import subprocess
import sys

from callgrind_dumps import CALLGRIND, parse_dumps, per_op

WORKLOADS = ["list_mixed_1000", "map_str_i64_10000", "i64_array_100000",
             "binary_1MiB", "strings_10000", "list_mixed_1000_given",
             "map_str_i64_10000_given", "strings_10000_given",
             "list_mixed_1000_jvm", "strings_10000_jvm"]


def run(bdir, prog, n1, n2):
    out = os.path.join(bdir, f"callgrind.{prog}.out")
    r = subprocess.run(CALLGRIND + [f"--callgrind-out-file={out}",
                                    os.path.join(bdir, prog), str(n1), str(n2)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"{prog} failed")
    sys.stdout.write(r.stdout)
    return parse_dumps(out)


def fmt(v):
    return f"{v:>13,.0f}" if v is not None else f"{'-':>13}"


def main():
    bdir = os.path.abspath(sys.argv[1])
    n1 = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    n2 = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    cur = run(bdir, "bench_tape", n1, n2)
    base = None
    if os.path.exists(os.path.join(bdir, "bench_tape_base")):
        base = run(bdir, "bench_tape_base", n1, n2)
    print()
    print(f"Ir per operation = (Ir({n2} ops) - Ir({n1} ops)) / {n2 - n1}")
    cols = ["base enc", "doc enc", "direct enc", "enc (new buf)",
            "base dec", "doc dec", "direct dec", "dec (spans)"]
    print(f"{'workload':<25}" + "".join(f"{c:>14}" for c in cols) +
          f"{'enc x':>8}{'dec x':>8}")
    for w in WORKLOADS:
        be = per_op(base, f"{w} enc_doc", n1, n2) if base else None
        bd = per_op(base, f"{w} dec_doc", n1, n2) if base else None
        de = per_op(cur, f"{w} enc_doc", n1, n2)
        e = per_op(cur, f"{w} enc", n1, n2)
        en = per_op(cur, f"{w} enc_new", n1, n2)
        dd = per_op(cur, f"{w} dec_doc", n1, n2)
        d = per_op(cur, f"{w} dec", n1, n2)
        ds = per_op(cur, f"{w} dec_span", n1, n2)
        ref_e = be if be is not None else de
        ref_d = bd if bd is not None else dd
        xe = f"{ref_e / e:8.1f}" if ref_e and e else f"{'-':>8}"
        xd = f"{ref_d / d:8.1f}" if ref_d and d else f"{'-':>8}"
        print(f"{w:<25} " + " ".join(fmt(v) for v in (be, de, e, en, bd, dd, d, ds))
              + xe + xd)
    print()
    print("base = wire_encode_tape / wire_decode_tape of the older library "
          "(document replay);\ndoc = this library's document path "
          "(wire_doc_add_tape + wire_encode, wire_decode + walk);\ndirect = "
          "wire_encode_tape_to / wire_decode_tape_to into a reused writer;\n"
          "spans = wire_decode_tape_to with WIRE_TAPE_SPANS (binaries and "
          "arrays by offset);\nx = base (or doc) / direct.")


if __name__ == "__main__":
    main()
