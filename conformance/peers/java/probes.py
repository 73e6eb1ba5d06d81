#!/usr/bin/env python3
"""Encode the PROBES.md values with the Java peer, decode them back, print the table.

Usage: python3 conformance/peers/java/probes.py [--md]   (build the jar first)
"""
import json
import os
import subprocess
import sys

JAR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "target", "fory-java-peer.jar")


def run(reqs):
    inp = "".join(json.dumps(r) + "\n" for r in reqs)
    out = subprocess.run(["java", "-jar", JAR], input=inp.encode(), capture_output=True)
    lines = out.stdout.decode().splitlines()
    return json.loads(lines[0]), [json.loads(l) for l in lines[1:]], out.stderr.decode()


def C(ref=False):
    return {"ref": ref, "compatible": False}

L=lambda n: {"varint64": str(n)}
S=lambda s: {"string": s}
N={"null": None}
def dec(u,s): return {"decimal":{"unscaled":str(u),"scale":s}}
probes = [
 ("string \"hi\"", False, S("hi")),
 ("string \"héllo\"", False, S("héllo")),
 ("string \"日本\"", False, S("日本")),
 ("string \"日本a\"", False, S("日本a")),
 ("string \"aé日\"", False, S("aé日")),
 ("string \"😀\"", False, S("😀")),
 ("string \"€\"", False, S("€")),
 ("string \"a😀\"", False, S("a😀")),
 ("string 'a'*70 + \"日\"", False, S("a"*70+"日")),
 ("string \"\" (empty)", False, S("")),
 ("string \"abcdé日\" (extra)", False, S("abcdé日")),
 ("string \"abcde日\" (extra)", False, S("abcde日")),
 ("string \"abcé日\" (extra)", False, S("abcé日")),
 ("string \"é日\" (extra)", False, S("é日")),
 ("string 'a'*63 + \"日\"*2 (extra)", False, S("a"*63+"日日")),
 ("string \"日\" + 'a'*70 (extra)", False, S("日"+"a"*70)),
 ("list [1L, \"a\", null]", False, {"list":[L(1),S("a"),N]}),
 ("list [null, null]", False, {"list":[N,N]}),
 ("list [] (empty)", False, {"list":[]}),
 ("list [1L, 2L]", False, {"list":[L(1),L(2)]}),
 ("map {null: 1L}", False, {"map":[[N,L(1)]]}),
 ("map {\"a\": null}", False, {"map":[[S("a"),N]]}),
 ("map {null: null}", False, {"map":[[N,N]]}),
 ("map {\"a\": 1L, \"b\": \"x\"}", False, {"map":[[S("a"),L(1)],[S("b"),S("x")]]}),
 ("ref=true: list [1L, 2L]", True, {"list":[L(1),L(2)]}),
 ("ref=true: list [x, x], x the same Long instance (1L)", True, {"list":[{"varint64":"1","anchor":"x"},{"ref":"x"}]}),
 ("ref=true: root Long 5", True, L(5)),
 ("ref=true: root string \"hi\"", True, S("hi")),
 ("ref=true: list containing itself", True, {"list":[{"ref":"self"}],"anchor":"self"}),
 ("ref=true: list [l, l], l = the same ArrayList [1L]", True, {"list":[{"list":[L(1)],"anchor":"l"},{"ref":"l"}]}),
 ("ref=false: list [l, l], l = the same ArrayList [1L]", False, {"list":[{"list":[L(1)],"anchor":"l"},{"ref":"l"}]}),
 ("ref=true: root null (extra)", True, N),
 ("ref=true: set {\"a\"} (extra)", True, {"set":[S("a")]}),
 ("ref=true: map {\"a\": 1L} (extra)", True, {"map":[[S("a"),L(1)]]}),
 ("Boolean true", False, {"bool": True}),
 ("BigDecimal 0", False, dec(0,0)),
 ("BigDecimal 123.45", False, dec(12345,2)),
 ("BigDecimal 2^62", False, dec(2**62,0)),
 ("BigDecimal 2^62-1", False, dec(2**62-1,0)),
 ("BigDecimal -2^62", False, dec(-2**62,0)),
 ("BigDecimal -2^62-1", False, dec(-2**62-1,0)),
 ("BigDecimal 2^63 (extra)", False, dec(2**63,0)),
 ("BigDecimal -1 scale -3 (extra)", False, dec(-1,-3)),
 ("LocalDate 2021-11-23", False, {"date":"18954"}),
 ("Instant 100 s", False, {"timestamp":{"seconds":"100","nanos":0}}),
 ("Duration -0.5 s", False, {"duration":{"seconds":"-1","nanos":500000000}}),
]
reqs=[{"id":i,"op":"encode","config":C(p[1]),"values":[p[2]]} for i,p in enumerate(probes)]
hello,res,err=run(reqs)
dreqs=[{"id":r["id"],"op":"decode","config":C(probes[r["id"]][1]),"hex":r["hex"]} for r in res if r.get("ok")]
_,dres,err2=run(dreqs)
d={r["id"]:r for r in dres}
rows=[]
for i,(name,ref,v) in enumerate(probes):
    r=res[i]
    back=d.get(i)
    rows.append((name, ref, json.dumps(v,ensure_ascii=False), r.get("hex") or ("%s: %s"%(r["class"],r["message"])), json.dumps(back.get("values") if back and back.get("ok") else back, ensure_ascii=False)))
if "--md" in sys.argv:
    for name,ref,v,h,b in rows:
        print("| %s | `%s` | `%s` |" % (name.replace("|","\\|"), h, b.replace("|","\\|")))
else:
    for row in rows:
        print(*row, sep="\n   ")
print(hello, file=sys.stderr)
if err or err2:
    print(err[:3000], err2[:3000], file=sys.stderr)
