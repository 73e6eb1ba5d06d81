#!/usr/bin/env python3
"""The driver of `make bench`: Fory's six workloads through every
implementation (bench/README.md).

    six.py --out DIR --bench-c BIN --rust BIN --java JAR --payloads DIR
           [--n1 N] [--n2 N] [--ns-rounds R] [--ns-procs P]
           [--java-warmup-ms MS]

1. The peers write their bytes afresh (DIR/payloads/{rust,java}); each
   checks its sizes and reads the other's bytes; they must equal the
   committed payloads (bench/payloads), which the C checks use.
2. bench_c check: every C implementation's values, and libwire's bytes ==
   Fory Rust's byte for byte (fails loudly otherwise).
3. Instructions: bench_c and fory-bench under callgrind, Ir per op =
   (Ir(N2 loop) - Ir(N1 loop)) / (N2 - N1).
4. Time: the C process and the Rust process alternate P times (each
   interleaves its own operations batch by batch); the median over the
   processes of each one's median is kept. Java: one JVM, warmed up.
5. One line per measurement:
       BENCH <workload> <ser|de> <impl> ir=<Ir/op> ns=<ns/op>
   then the ratios to fory-rust, the mismatch read / matching read, and
   the byte sizes.
"""
import argparse
import filecmp
import os
import statistics
import subprocess
import sys

import callgrind_dumps
from callgrind_dumps import CALLGRIND, per_op_all

WORKLOADS = ["NumericStruct", "Sample", "MediaContent", "NumericStructList",
             "SampleList", "MediaContentList"]


def run(cmd, echo=False):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if echo:
        sys.stdout.write(r.stdout)
    if r.returncode != 0:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit(f"six.py: FAILED: {' '.join(cmd)}")
    return r.stdout


def parse_dumps(path, n1, n2):
    """{label: Ir per op} from a combined callgrind output file."""
    return per_op_all(callgrind_dumps.parse_dumps(path), n1, n2)


def parse_ns(text):
    out = {}
    for line in text.splitlines():
        f = line.split()
        if len(f) == 5 and f[0] == "NS":
            out[" ".join(f[1:4])] = float(f[4])
    return out


def callgrind(out, name, cmd, n1, n2):
    path = os.path.join(out, f"callgrind.{name}.out")
    run(CALLGRIND + [f"--callgrind-out-file={path}"] + cmd)
    return parse_dumps(path, n1, n2)


def peers(a):
    """Fresh peer bytes; they must equal the committed payloads."""
    fresh = os.path.join(a.out, "payloads")
    for sub in ("rust", "java"):
        os.makedirs(os.path.join(fresh, sub), exist_ok=True)
    sizes = {}
    for line in (run([a.rust, "bytes", f"{fresh}/rust"]) +
                 run(["java", "-jar", a.java, "bytes", f"{fresh}/java"])
                 ).splitlines():
        f = line.split()
        if f and f[0] == "SIZE":
            sizes[(f[1], f[2])] = int(f[3])
            print(line)
    run([a.rust, "read", f"{fresh}/java"], echo=True)
    run(["java", "-jar", a.java, "read", f"{fresh}/rust"], echo=True)
    stale = [f"{sub}/{w}.bin" for sub in ("rust", "java") for w in WORKLOADS
             if not filecmp.cmp(f"{fresh}/{sub}/{w}.bin",
                                f"{a.payloads}/{sub}/{w}.bin", shallow=False)]
    if stale:
        raise SystemExit("six.py: FAILED: the peers' bytes differ from the "
                         "committed bench/payloads (" + ", ".join(stale) +
                         "): run `make bench-payloads` and review the diff")
    print("peer payloads: identical to bench/payloads")
    return sizes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--bench-c", required=True)
    ap.add_argument("--rust", required=True)
    ap.add_argument("--java", required=True)
    ap.add_argument("--payloads", required=True)
    ap.add_argument("--n1", type=int, default=2)
    ap.add_argument("--n2", type=int, default=10)
    ap.add_argument("--ns-rounds", type=int, default=15)
    ap.add_argument("--ns-procs", type=int, default=3)
    ap.add_argument("--java-warmup-ms", type=int, default=6000)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)

    print("== peers: bytes")
    sizes = peers(a)

    print("== C implementations: checks (bytes vs Fory Rust, values, "
          "Fory Java's bytes)")
    for line in run([a.bench_c, "check", a.payloads]).splitlines():
        f = line.split()
        if f and f[0] == "SIZE" and len(f) == 4:
            sizes[(f[1], f[2])] = int(f[3])
        if f and f[0] in ("BYTES", "bench_c:"):
            print(line)

    print(f"== instructions (callgrind, N1={a.n1}, N2={a.n2})")
    ir = callgrind(a.out, "c", [a.bench_c, "callgrind", str(a.n1),
                                str(a.n2), a.payloads], a.n1, a.n2)
    ir.update(callgrind(a.out, "rust", [a.rust, "callgrind", str(a.n1),
                                        str(a.n2)], a.n1, a.n2))

    print(f"== time (thread CPU; C and Rust processes alternate "
          f"{a.ns_procs}x, Java one JVM after {a.java_warmup_ms} ms warm-up)")
    runs = {}
    for _ in range(a.ns_procs):
        for cmd in ([a.bench_c, "ns", str(a.ns_rounds), a.payloads],
                    [a.rust, "ns", str(a.ns_rounds)]):
            for k, v in parse_ns(run(cmd)).items():
                runs.setdefault(k, []).append(v)
    for k, v in parse_ns(run(["java", "-jar", a.java, "ns",
                              str(a.java_warmup_ms),
                              str(a.ns_rounds)])).items():
        runs.setdefault(k, []).append(v)
    ns = {k: statistics.median(v) for k, v in runs.items()}

    impls = []
    for k in list(ir) + list(ns):
        name = k.split()[2]
        if name not in impls:
            impls.append(name)
    order = ["fory-rust", "fory-rust:v2", "fory-java", "fory-java:v2"]
    impls = ([i for i in order if i in impls] +
             [i for i in impls if i not in order])

    print()
    for w in WORKLOADS:
        for op in ("ser", "de"):
            for imp in impls:
                k = f"{w} {op} {imp}"
                if k not in ir and k not in ns:
                    continue
                irs = f"{ir[k]:.0f}" if k in ir else "-"
                nss = f"{ns[k]:.1f}" if k in ns else "-"
                print(f"BENCH {k} ir={irs} ns={nss}")

    def ratio_table(title, data, base_of, only=lambda c: True):
        cols = [i for i in impls if only(i) and any(
            f"{w} {op} {i}" in data for w in WORKLOADS
            for op in ("ser", "de"))]
        print()
        print(title)
        hdr = f"{'workload':<18} {'op':<3} " + " ".join(f"{c:>13}"
                                                       for c in cols)
        print(hdr)
        print("-" * len(hdr))
        for w in WORKLOADS:
            for op in ("ser", "de"):
                cells = []
                for c in cols:
                    k = f"{w} {op} {c}"
                    b = f"{w} {op} {base_of(c)}"
                    if k in data and b in data and data[b]:
                        cells.append(f"{data[k] / data[b]:13.2f}")
                    else:
                        cells.append(f"{'':>13}")
                if any(x.strip() for x in cells):
                    print(f"{w:<18} {op:<3} " + " ".join(cells))

    def vs_rust(c):
        return "fory-rust:v2" if c.endswith(":v2") else "fory-rust"

    ratio_table("Instructions (Ir/op) relative to fory-rust (an impl:v2 "
                "relative to fory-rust:v2)", ir, vs_rust)
    ratio_table("Time (ns/op) relative to fory-rust: C and Rust measured in "
                "alternating processes, Java in\nits own JVM; ratios across "
                "processes carry the machine's drift (up to 1.5x here)",
                ns, vs_rust)
    ratio_table("Mismatch read (V2 reader) relative to the matching read of "
                "the same impl, Ir", ir,
                lambda c: c[:-3], lambda c: c.endswith(":v2"))

    print()
    print("Bytes")
    names = sorted({imp for (_, imp) in sizes},
                   key=lambda i: (order + impls).index(i)
                   if i in order + impls else 99)
    print(f"{'workload':<18} " + " ".join(f"{n:>12}" for n in names))
    for w in WORKLOADS:
        print(f"{w:<18} " + " ".join(
            f"{sizes[(w, n)]:>12}" if (w, n) in sizes else f"{'-':>12}"
            for n in names))


if __name__ == "__main__":
    main()
