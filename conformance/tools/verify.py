#!/usr/bin/env python3
"""Re-verifies the valid fixtures against the runtimes.

    python3 conformance/tools/verify.py [--update] [--only ID_PREFIX ...] [-v]

Every valid test's "bytes" and each of its "alternatives" are decoded by every
available runtime; a runtime confirms a byte string when it decodes it to the
test's "values" (compared as conformance/PROTOCOL.md says, after the erasure
the runtime's carriers imply: peers.py). Schema-less values go through the
JSON-lines peers of peers.PEERS; enums and structs through typed.py (the
peers load no schemas): the user-type corpus cases with the corpus
generator's carriers, our IDL schemas with foryc's carriers.

A test with a peer dialect (config.peer: the fixtures exact.*, bytes one
runtime writes for its own classes) is confirmed by that runtime reading the
bytes back to the object it wrote (libwire/tests/exact, the writer's read
mode); one confirmation suffices there, since the dialect is that runtime's.
Its reader check (camel, evo: the bytes read with v2.fdl) is confirmed by
the writer's v2 classes reading the bytes to v2's object (read mode,
NAME.MODE.v2).

Without --update the recorded "confirmed_by" lists must equal what the
runtimes do now, and every test needs two confirmations of "bytes" (one for
a peer-dialect test): the exit status is 1 otherwise. --update rewrites the lists in place (the fixture
files only; run manifest.py afterwards).
"""

import argparse
import os
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from common import Peer, PeerError, comparable, fixture_files, log, read_json, rel, write_json  # noqa: E402
import peers as P  # noqa: E402

MIN_CONFIRMATIONS = 2
PEER_ORDER = list(P.PEERS)


def kind_of(test):
    if (test.get("config") or {}).get("peer"):
        return "peer"
    schemas = test.get("schemas") or []
    if any(s.startswith("fixtures/schemas/xlang/") for s in schemas):
        return "corpus"
    if schemas:
        return "idl"
    import typed
    if typed.has_enum(test["values"]):
        return "enum"
    return "plain"


def byte_strings(test):
    """[(label, hex)]: the canonical bytes, then each alternative."""
    out = [("bytes", test["bytes"])]
    for i, a in enumerate(test.get("alternatives", [])):
        out.append(("alt%d" % i, a["bytes"]))
    return out


def _plain(tests, names, details):
    """{(test index, label): set of runtimes} for schema-less tests."""
    got = {}
    items = []
    for ti, t in tests:
        for label, hx in byte_strings(t):
            items.append((ti, t, label, hx))
    for name in names:
        try:
            peer = Peer(name, P.PEERS[name]["cmd"])
        except PeerError as e:
            log("peer %s did not start (%s), skipped" % (name, e))
            continue
        try:
            reqs = [{"op": "decode", "config": t["config"], "hex": hx} for _, t, _, hx in items]
            resps = peer.batch(reqs)
        finally:
            peer.close()
        for (ti, t, label, hx), r in zip(items, resps):
            ok = False
            if r.get("ok"):
                want = comparable(P.prepare(name, t["values"]))
                have = comparable(P.normalise_output(r["values"]))
                ok = want == have
                if not ok:
                    details.append((ti, label, name, "decoded %s" % _short(r["values"])))
            else:
                details.append((ti, label, name, r.get("message", "")[:300]))
            if ok:
                got.setdefault((ti, label), set()).add(name)
    return got


def _short(x):
    import json
    s = json.dumps(x, ensure_ascii=False)
    return s if len(s) < 400 else s[:400] + "..."


def _typed(tests, details):
    import typed
    got = {}
    jobs, meta = [], []
    for ti, t in tests:
        k = kind_of(t)
        if k == "enum":
            values, regs = typed.typed_enum_values(t["values"])
        else:
            values = t["values"]
            regs = []
            for s in t["schemas"]:
                regs += typed.idl_regs(s)
        hexes = byte_strings(t)
        jobs.append(typed.Job(str(ti), regs, compatible=t["config"]["compatible"], ref=t["config"]["ref"],
                              decode=[h for _, h in hexes]))
        meta.append((ti, t, values, hexes, regs))
    if not jobs:
        return got
    runs = {"pyfory": typed.run_python(jobs)}
    if "java" in P.available_peers():
        runs["java"] = typed.run_java(jobs)
    for name, res in runs.items():
        for (ti, t, values, hexes, regs), r in zip(meta, res):
            for (label, _), read in zip(hexes, r.get("decoded", [{}] * len(hexes))):
                if typed.loose_matches(read, values, regs):
                    got.setdefault((ti, label), set()).add(name)
                else:
                    details.append((ti, label, name,
                                    read.get("error") or "decoded %s" % _short(read.get("values"))))
    return got


def _corpus(tests, details):
    import typed
    got = {}
    items, meta = [], []
    for ti, t in tests:
        for label, hx in byte_strings(t):
            items.append((t["upstream_case"], hx, t["values"], t["config"]["compatible"]))
            meta.append((ti, t, label))
    if not items:
        return got
    res = typed.corpus_verify(items)
    for (ti, t, label), r in zip(meta, res):
        for name in ("pyfory", "java"):
            if r.get(name):
                got.setdefault((ti, label), set()).add(name)
            else:
                details.append((ti, label, name, r.get(name + "_error", "")))
    return got


def _peer(tests, details):
    """{(test index, "bytes"): [runtime]} for peer-dialect tests: the writer
    runtime (config.peer) reads the bytes back to the object it wrote."""
    exact = os.path.join(HERE, "..", "..", "libwire", "tests", "exact")
    if exact not in sys.path:
        sys.path.insert(0, exact)
    import harness
    by_rt = {}
    for i, t in tests:
        m = re.search(r"model (\w+) of the", t.get("note", ""))
        if not m:
            details.append("%s: no model in its note" % t["id"])
            continue
        key = "%s.%s" % (m.group(1), "compat" if t["config"]["compatible"] else "same")
        # with its out-of-band buffers, if any (spec 1.12.1)
        data = harness.with_buffers(bytes.fromhex(t["bytes"]),
                                    [bytes.fromhex(b) for b in t.get("buffers", [])])
        by_rt.setdefault(t["config"]["peer"], []).append((i, key, data))
    got, tmap = {}, dict(tests)
    for rt, items in by_rt.items():
        asked = {k: b for _i, k, b in items}
        # reader checks (camel, evo): the writer's v2 classes read the bytes
        # (its read mode's NAME.MODE.v2)
        asked.update({k + ".v2": b for i, k, b in items if tmap[i].get("readers")})
        verdicts = harness.peer(rt).read_back(asked)
        for i, k, _b in items:
            got[(i, "bytes")] = [rt] if verdicts.get(k) == "ok" else []
            if verdicts.get(k) != "ok":
                details.append("%s %s: %s" % (rt, k, verdicts.get(k)))
            if tmap[i].get("readers"):
                v = verdicts.get(k + ".v2")
                got[(i, "reader0")] = [rt] if v == "ok" else []
                if v != "ok":
                    details.append("%s %s.v2: %s" % (rt, k, v))
    return got


def confirm(tests, details=None):
    """Computes the confirmations of every test (list of test dicts):
    returns {(index, label): sorted runtime names}."""
    if details is None:
        details = []
    names = [n for n in P.available_peers() if n in P.PEERS]
    groups = {"plain": [], "enum": [], "idl": [], "corpus": [], "peer": []}
    for i, t in enumerate(tests):
        groups[kind_of(t)].append((i, t))
    got = {}
    t0 = time.time()
    got.update(_plain(groups["plain"], names, details))
    log("verify: %d schema-less tests in %.1f s" % (len(groups["plain"]), time.time() - t0))
    t0 = time.time()
    got.update(_typed(groups["enum"] + groups["idl"], details))
    log("verify: %d enum/IDL tests in %.1f s" % (len(groups["enum"]) + len(groups["idl"]), time.time() - t0))
    t0 = time.time()
    got.update(_corpus(groups["corpus"], details))
    log("verify: %d corpus tests in %.1f s" % (len(groups["corpus"]), time.time() - t0))
    t0 = time.time()
    got.update(_peer(groups["peer"], details))
    log("verify: %d peer-dialect tests in %.1f s" % (len(groups["peer"]), time.time() - t0))
    order = {n: i for i, n in enumerate(PEER_ORDER)}
    return {k: sorted(v, key=lambda n: order.get(n, 99)) for k, v in got.items()}


def apply(tests, got):
    """Writes the confirmations into the tests."""
    for i, t in enumerate(tests):
        t["confirmed_by"] = got.get((i, "bytes"), [])
        for j, a in enumerate(t.get("alternatives", [])):
            a["confirmed_by"] = got.get((i, "alt%d" % j), [])
        if (i, "reader0") in got:  # peer-dialect reader checks (verify only these)
            t["readers"][0]["confirmed_by"] = got[(i, "reader0")]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--update", action="store_true", help="rewrite confirmed_by in the fixture files")
    ap.add_argument("--only", nargs="*", help="test id prefixes")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every failed decode")
    ap.add_argument("--peers", help="comma-separated runtimes (default: pyfory,java or $LIBWIRE_PEERS)")
    args = ap.parse_args()
    if args.peers:
        P.select(args.peers.split(","))
    t0 = time.time()
    files = fixture_files("valid")
    docs = {p: read_json(p) for p in files}
    tests, where = [], []
    for p, d in docs.items():
        for k, t in enumerate(d["tests"]):
            if args.only and not any(t["id"].startswith(x) for x in args.only):
                continue
            tests.append(t)
            where.append((p, k))
    details = []
    got = confirm(tests, details)
    problems = 0
    changed = set()
    for i, t in enumerate(tests):
        now = got.get((i, "bytes"), [])
        if len(now) < (1 if kind_of(t) == "peer" else MIN_CONFIRMATIONS):
            print("UNCONFIRMED %s: bytes confirmed by %s" % (t["id"], ", ".join(now) or "no runtime"))
            problems += 1
        if sorted(now) != sorted(t.get("confirmed_by", [])):
            print("CHANGED %s: bytes confirmed_by %s, recorded %s" % (t["id"], now, t.get("confirmed_by")))
            problems += 0 if args.update else 1
            changed.add(where[i][0])
        for j, a in enumerate(t.get("alternatives", [])):
            nowa = got.get((i, "alt%d" % j), [])
            if sorted(nowa) != sorted(a.get("confirmed_by", [])):
                print("CHANGED %s: alternative %d confirmed_by %s, recorded %s" % (
                    t["id"], j, nowa, a.get("confirmed_by")))
                problems += 0 if args.update else 1
                changed.add(where[i][0])
        if (i, "reader0") in got:
            nowr, was = got[(i, "reader0")], t["readers"][0].get("confirmed_by", [])
            if sorted(nowr) != sorted(was):
                print("CHANGED %s: reader check confirmed_by %s, recorded %s" % (t["id"], nowr, was))
                problems += 0 if args.update else 1
                changed.add(where[i][0])
    if args.verbose:
        for ti, label, name, msg in details:
            print("  no confirmation: %s %s by %s: %s" % (tests[ti]["id"], label, name, msg))
    if args.update:
        apply(tests, got)
        for p in sorted(changed):
            write_json(p, docs[p])
            print("updated %s" % rel(p))
    counts = {}
    for i, t in enumerate(tests):
        for n in got.get((i, "bytes"), []):
            counts[n] = counts.get(n, 0) + 1
    print("verified %d valid tests in %.1f s; confirmations of bytes per runtime: %s; problems: %d" % (
        len(tests), time.time() - t0, ", ".join("%s %d" % kv for kv in sorted(counts.items())), problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
