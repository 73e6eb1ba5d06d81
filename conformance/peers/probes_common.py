"""Probes of a JSON-lines peer (conformance/PROTOCOL.md): what it writes for
a list of dynamic values, whether it reads its own bytes back, and whether
it reads what pyfory 1.7.7 writes for the same value. Shared by the probe
scripts of the Go and Rust peers (conformance/peers/go/probes.py,
conformance/peers/rust/probes.py), which only name the default peer.

The pyfory column needs pyfory installed (pip install pyfory==1.7.7).
"""
import datetime
import decimal
import json
import shlex
import subprocess

L = lambda n: {"varint64": str(n)}
S = lambda s: {"string": s}
N = {"null": None}
UTC = datetime.timezone.utc
NOPY = object()  # no pyfory counterpart

# (label, ref, notation node, Python value for pyfory or NOPY)
PROBES = [
    ('"hi"', False, S("hi"), "hi"),
    ('"héllo"', False, S("héllo"), "héllo"),
    ('"日本"', False, S("日本"), "日本"),
    ("300 (varint64)", False, L(300), 300),
    ("-1 (varint32; pyfory: varint64)", False, {"varint32": "-1"}, -1),
    ("1.5 (float64)", False, {"float64": "1.5"}, 1.5),
    ("1.5 (float32)", False, {"float32": "1.5"}, NOPY),
    ("[1, 2, 3] (list of varint64)", False, {"list": [L(1), L(2), L(3)]}, [1, 2, 3]),
    ("int64_array [1, 2, 3]", False, {"int64_array": ["1", "2", "3"]}, NOPY),
    ("int32_array [1, 2, 3]", False, {"int32_array": ["1", "2", "3"]}, NOPY),
    ('{"a": "b"}', False, {"map": [[S("a"), S("b")]]}, {"a": "b"}),
    ('{"a": 1, "b": 2}', False, {"map": [[S("a"), L(1)], [S("b"), L(2)]]}, {"a": 1, "b": 2}),
    ('{"a": null}', False, {"map": [[S("a"), N]]}, {"a": None}),
    ('{null: "a"}', False, {"map": [[N, S("a")]]}, {None: "a"}),
    ('set {"a"}', False, {"set": [S("a")]}, {"a"}),
    ('b"\\x00\\xff"', False, {"binary": "00ff"}, b"\x00\xff"),
    ("true", False, {"bool": True}, True),
    ("null", False, N, None),
    ("date 2020-01-01", False, {"date": "18262"}, datetime.date(2020, 1, 1)),
    ("timestamp 2020-01-01T00:00:00.123456Z", False,
     {"timestamp": {"seconds": "1577836800", "nanos": 123456000}},
     datetime.datetime(2020, 1, 1, 0, 0, 0, 123456, tzinfo=UTC)),
    ("duration 1 s 5 µs", False, {"duration": {"seconds": "1", "nanos": 5000}}, datetime.timedelta(seconds=1, microseconds=5)),
    ("decimal 1.25", False, {"decimal": {"unscaled": "125", "scale": 2}}, decimal.Decimal("1.25")),
    ('[1, "a", null]', False, {"list": [L(1), S("a"), N]}, [1, "a", None]),
    ("[null, null]", False, {"list": [N, N]}, [None, None]),
    ("[] (empty list)", False, {"list": []}, []),
    ('[["a"], ["b"]]', False, {"list": [{"list": [S("a")]}, {"list": [S("b")]}]}, [["a"], ["b"]]),
    ("int8 -1", False, {"int8": "-1"}, NOPY),
    ("uint8 255", False, {"uint8": "255"}, NOPY),
    ("int32 5 (fixed)", False, {"int32": "5"}, NOPY),
    ("int64 5 (fixed)", False, {"int64": "5"}, NOPY),
    ("tagged_int64 5", False, {"tagged_int64": "5"}, NOPY),
    ("uint8_array [1, 255]", False, {"uint8_array": ["1", "255"]}, NOPY),
    ("float16 1.0", False, {"float16": "1.0"}, NOPY),
    ('ref=true: "hi"', True, S("hi"), "hi"),
    ("ref=true: [1, 2]", True, {"list": [L(1), L(2)]}, [1, 2]),
    ("ref=true: [[1], [2]]", True, {"list": [{"list": [L(1)]}, {"list": [L(2)]}]}, [[1], [2]]),
    ("ref=true: [l, l], l = [1] shared", True,
     {"list": [{"list": [L(1)], "anchor": "l"}, {"ref": "l"}]}, "SHARED"),
]


def run(peer, reqs):
    inp = "".join(json.dumps(r) + "\n" for r in reqs)
    out = subprocess.run(shlex.split(peer), input=inp.encode(), capture_output=True)
    lines = out.stdout.decode().splitlines()
    return json.loads(lines[0]), {r["id"]: r for r in map(json.loads, lines[1:])}


def pyfory_hex(ref, value):
    if value is NOPY:
        return None
    try:
        import pyfory
    except ImportError:
        return None
    if isinstance(value, str) and value == "SHARED":
        inner = [1]
        value = [inner, inner]
    return pyfory.Fory(xlang=True, ref=ref).serialize(value).hex()


def show(resp):
    if resp is None:
        return "—"
    if resp.get("ok"):
        if "hex" in resp:
            return "`%s`" % resp["hex"]
        return "`%s`" % json.dumps(resp["values"], ensure_ascii=False)
    return "%s: %s" % (resp["class"], resp["message"])


def main(argv, default_peer):
    peer = default_peer
    if "--peer" in argv:
        peer = argv[argv.index("--peer") + 1]
    cfg = lambda ref: {"ref": ref, "compatible": False}
    enc = [{"id": i, "op": "encode", "config": cfg(p[1]), "values": [p[2]]} for i, p in enumerate(PROBES)]
    hello, eres = run(peer, enc)
    dec = []
    py = {}
    for i, p in enumerate(PROBES):
        r = eres.get(i)
        if r and r.get("ok"):
            dec.append({"id": "self%d" % i, "op": "decode", "config": cfg(p[1]), "hex": r["hex"]})
        h = pyfory_hex(p[1], p[3])
        if h is not None:
            py[i] = h
            dec.append({"id": "py%d" % i, "op": "decode", "config": cfg(p[1]), "hex": h})
    _, dres = run(peer, dec)
    md = "--md" in argv
    if md:
        print("Peer: %s %s (%s)\n" % (hello["hello"]["runtime"], hello["hello"]["version"], hello["hello"]["name"]))
        print("| value | peer writes | peer reads its bytes as | pyfory 1.7.7 writes | peer reads pyfory's bytes as |")
        print("|---|---|---|---|---|")
    for i, p in enumerate(PROBES):
        same = ""
        if i in py and eres.get(i, {}).get("hex") == py[i]:
            same = " (= peer)"
        cols = [p[0], show(eres.get(i)), show(dres.get("self%d" % i)),
                ("`%s`%s" % (py[i], same)) if i in py else "—", show(dres.get("py%d" % i))]
        if md:
            print("| " + " | ".join(c.replace("|", "\\|") for c in cols) + " |")
        else:
            print("\n".join(["== " + cols[0]] + ["   " + c for c in cols[1:]]))
    return 0


