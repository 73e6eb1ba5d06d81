#!/usr/bin/env python3
"""A mutant testee: libwire's `wire testee` with one decision changed, as
mutants.json describes (the conformance runner must fail it on the fixtures
listed there).

    mutate.py WIRE NAME [ROOT]        speaks conformance/PROTOCOL.md
    mutate.py --run WIRE [ROOT] [--mutant-wire MWIRE]
                                      runs every mutant; exit 1 if one survives
    mutate.py --find MWIRE NAME [ROOT] the fixtures a switch mutant fails
                                      (to choose its "kills")

A mutant that changes what a decoder reports (offsets, classes, the
printed notation) is applied to libwire's responses; the decisions of the
wire format behind them are libwire's own. A mutant with "switch": true is
a wrong choice inside libwire itself (libwire/src/mutant.h): WIRE is then
the mutant build of the CLI (make build/mutant/bin/wire, -DWIRE_MUTANTS),
run with WIRE_MUTANT=NAME.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _fields_reversed(node):
    if isinstance(node, list):
        return [_fields_reversed(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k in ("struct", "ext") and isinstance(v, dict) and isinstance(v.get("fields"), dict):
            v = dict(v, fields={fk: _fields_reversed(fv) for fk, fv in reversed(list(v["fields"].items()))})
        else:
            v = _fields_reversed(v)
        out[k] = v
    return out


def _floats_by_value(node):
    if isinstance(node, list):
        return [_floats_by_value(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for k, v in node.items():
        if k in ("float64", "float32") and isinstance(v, str) and v.startswith("0x"):
            bits = int(v, 16)
            width = 64 if k == "float64" else 32
            sign, exp_all = 1 << (width - 1), ((1 << (11 if width == 64 else 8)) - 1) << (52 if width == 64 else 23)
            frac = (1 << (52 if width == 64 else 23)) - 1
            if bits & ~sign == 0:
                bits = 0  # -0.0 -> 0.0
            elif bits & exp_all == exp_all and bits & frac:
                bits = exp_all | (1 << ((52 if width == 64 else 23) - 1))  # canonical quiet NaN
            v = "0x%0*x" % (width // 4, bits)
        else:
            v = _floats_by_value(v)
        out[k] = v
    return out


def _unshare(node, anchors=None):
    anchors = {} if anchors is None else anchors
    if isinstance(node, list):
        return [_unshare(x, anchors) for x in node]
    if not isinstance(node, dict):
        return node
    if "ref" in node and len(node) == 1 and node["ref"] in anchors:
        return json.loads(json.dumps(anchors[node["ref"]]))
    out = {k: _unshare(v, anchors) for k, v in node.items() if k != "anchor"}
    if "anchor" in node:
        anchors[node["anchor"]] = out
    return out


def mutate(name, req, resp):
    ok = resp.get("ok")
    if name.startswith("accept_") and not ok and resp.get("class") == name[len("accept_"):]:
        return {"id": resp.get("id"), "ok": True, "values": []}
    if name == "offset_plus_one" and not ok and isinstance(resp.get("offset"), int):
        resp["offset"] += 1
    elif name == "fields_declared_order" and ok and "values" in resp:
        resp["values"] = _fields_reversed(resp["values"])
    elif name == "floats_by_value" and ok and "values" in resp:
        resp["values"] = _floats_by_value(resp["values"])
    elif name == "unshare_refs" and ok and "values" in resp:
        try:
            resp["values"] = _unshare(resp["values"])
        except RecursionError:
            pass  # a cycle cannot be unshared; this mutant leaves it
    elif name == "zero_width_truncated" and not ok and resp.get("class") == "limit":
        # a count compared with the input left before its limit: a list whose
        # count exceeds the bytes left reports truncated
        n = len(req.get("hex", "")) // 2
        if resp.get("offset", 0) < n:
            resp["class"] = "truncated"
    return resp


def serve(wire, name, root, switch=False):
    env = dict(os.environ, WIRE_MUTANT=name) if switch else None
    p = subprocess.Popen([wire, "testee", "--root", root], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, env=env)
    hello = json.loads(p.stdout.readline())
    hello["hello"]["name"] = "mutant-" + name  # not "libwire": encodes compare like another testee's
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        p.stdin.write(line if line.endswith("\n") else line + "\n")
        p.stdin.flush()
        resp = json.loads(p.stdout.readline())
        print(json.dumps(resp if switch else mutate(name, req, resp)), flush=True)
    p.stdin.close()
    p.wait()


def _cmd(wire, name, root, switch):
    return "%s %s %s%s %s %s" % (sys.executable, os.path.join(HERE, "mutate.py"), "--switch " if switch else "",
                                 wire, name, root)


def run_all(wire, root, mutant_wire=None):
    doc = json.load(open(os.path.join(HERE, "mutants.json")))
    survivors = 0
    for m in doc["mutants"]:
        if m.get("switch"):
            if not mutant_wire:
                print("mutants: %s: needs --mutant-wire (the -DWIRE_MUTANTS build)" % m["name"])
                survivors += 1
                continue
            cmd = _cmd(mutant_wire, m["name"], root, True)
        else:
            cmd = _cmd(wire, m["name"], root, False)
        failed = set()
        for fid in m["kills"]:
            r = subprocess.run([wire, "conform", "--root", root, "--testee", cmd, "--only", fid,
                                os.path.join(root, "fixtures")], capture_output=True, text=True)
            last = (r.stdout.strip().splitlines() or [""])[-1]
            if last.startswith("0 passed, 0 failed"):
                print("mutants: %s: no fixture %s" % (m["name"], fid))
                survivors += 1
            elif r.returncode == 1:
                failed.add(fid)
        missed = [f for f in m["kills"] if f not in failed]
        status = "killed by %d of %d" % (len(failed), len(m["kills"]))
        print("mutants: %-22s %-28s %s%s" % (m["name"], " ".join(m["rules"]), status,
                                              "; SURVIVES " + ", ".join(missed) if missed else ""))
        survivors += bool(missed)
    print("mutants: %d mutants, %d survive" % (len(doc["mutants"]), survivors))
    return 1 if survivors else 0


def find(mwire, name, root):
    """Every fixture the switch mutant fails (a full suite run)."""
    r = subprocess.run([mwire, "conform", "--root", root, "--testee", _cmd(mwire, name, root, True), "-v",
                        os.path.join(root, "fixtures")], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("FAIL"):
            print(line[:220])
    print((r.stdout.strip().splitlines() or [""])[-1])
    return 0


def main(argv):
    default_root = os.path.abspath(os.path.join(HERE, "..", ".."))
    if argv and argv[0] == "--run":
        mwire = None
        if "--mutant-wire" in argv:
            i = argv.index("--mutant-wire")
            mwire = os.path.abspath(argv[i + 1])
            argv = argv[:i] + argv[i + 2:]
        root = argv[2] if len(argv) > 2 else default_root
        return run_all(os.path.abspath(argv[1]), root, mwire)
    if argv and argv[0] == "--find":
        return find(os.path.abspath(argv[1]), argv[2], argv[3] if len(argv) > 3 else default_root)
    switch = bool(argv) and argv[0] == "--switch"
    if switch:
        argv = argv[1:]
    root = argv[2] if len(argv) > 2 else default_root
    serve(argv[0], argv[1], root, switch)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
