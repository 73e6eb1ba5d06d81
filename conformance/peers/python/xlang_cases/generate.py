#!/usr/bin/env python3
"""Regenerates the user-type corpus fixtures/xlang-corpus/ from the cases in
cases.py, with pyfory (in this process) and the Java runtime (one JVM run of
dev.libwire.peer.xlang.CorpusMain).

    python3 conformance/peers/python/xlang_cases/generate.py [--only CASE ...] [--no-build]

For each case it writes fixtures/xlang-corpus/<case>.json: the roots in the
value notation, the bytes each runtime wrote (one serialize call per root,
concatenated), and whether each runtime reads the other's bytes back to the
same values.  It also checks every schema in fixtures/schemas/xlang/ with
foryc (fory-compiler 1.7.7).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import pyfory  # noqa: E402
from pyfory.meta.meta_compressor import NoOpMetaCompressor  # noqa: E402
from pyfory.type_id import TypeId  # noqa: E402

import cases as CASES_MOD  # noqa: E402
import pytypes as P  # noqa: E402
from notation import ToPython, canonical, loose_from_notation, loose_from_python, type_key  # noqa: E402
from notes import NOTES  # noqa: E402
import schema_check  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
JAVA_DIR = os.path.join(REPO, "conformance", "peers", "java")
JAR = os.path.join(JAVA_DIR, "target", "fory-java-peer.jar")
SCHEMA_DIR = os.path.join(REPO, "fixtures", "schemas", "xlang")
OUT_DIR = os.path.join(REPO, "fixtures", "xlang-corpus")


# ---------------------------------------------------------------------------
# pyfory side
# ---------------------------------------------------------------------------

class PinnedVarint32(int):
    """A root int that pyfory writes as VARINT32 (a plain int is VARINT64)."""


def make_fory(case, types):
    kw = dict(xlang=True, compatible=case.compatible, ref=case.ref)
    if case.noop_meta:
        kw["meta_compressor"] = NoOpMetaCompressor()
    fory = pyfory.Fory(**kw)
    for t in types:
        reg = {}
        if t.id is not None:
            reg["type_id"] = t.id
        else:
            reg["name"] = t.name
        if t.union:
            fory.register_union(t.py, serializer=P.string_or_int64_serializer(fory), **reg)
        elif t.ext:
            fory.register_type(t.py, serializer=P.MyExtSerializer(fory.type_resolver, t.py), **reg)
        else:
            fory.register_type(t.py, **reg)
    table = fory.type_resolver._types_info
    table[PinnedVarint32] = table[TypeId.VARINT32]
    return fory


def python_roots(case, types, roots):
    conv = ToPython({t.type: t for t in types})
    out = []
    for node in roots:
        if type_key(node) == "varint32":
            out.append(PinnedVarint32(int(node["varint32"])))
        else:
            out.append(conv.root(node))
    return out


def py_serialize(case):
    fory = make_fory(case, case.types)
    objs = python_roots(case, case.types, case.runtime_roots or case.roots)
    return b"".join(fory.serialize(o) for o in objs), fory


def py_field_orders(fory, types):
    orders = {}
    for t in types:
        if t.ext or t.union or isinstance(t.py, type) and issubclass(t.py, __import__("enum").Enum):
            continue
        try:
            orders[t.type] = list(fory.type_resolver.get_serializer(t.py)._field_names)
        except Exception as e:  # noqa: BLE001
            orders[t.type] = "error: %s" % e
    return orders


def isolated(fn):
    """Runs fn() in a forked child (pyfory can crash on foreign bytes)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            res = {"ok": fn()}
        except BaseException as e:  # noqa: BLE001
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        data = json.dumps(res).encode()
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if not data:
        return {"error": "pyfory crashed (status %d)" % status}
    return json.loads(data)


def py_read_all(case, types, data):
    """Decodes all roots; {"values": [loose...]} plus "error" if a root failed."""

    def run():
        fory = make_fory(case, types)
        names = {t.py: t.type for t in types}
        buf = pyfory.Buffer(data)
        values = []
        try:
            while buf.get_reader_index() < len(data):
                values.append(loose_from_python(fory.deserialize(buf), names))
        except Exception as e:  # noqa: BLE001
            return {"values": values, "error": "%s: %s" % (type(e).__name__, e)}
        return {"values": values}

    res = isolated(run)
    return res.get("ok", {"values": [], "error": res.get("error")})


# ---------------------------------------------------------------------------
# comparisons
# ---------------------------------------------------------------------------

def expected_loose(roots):
    return [canonical(loose_from_notation(r)) for r in roots]


def matches(read, roots):
    """True when `read` (from a *_read_all) decoded exactly `roots`."""
    if read is None or read.get("error"):
        return False
    got = [canonical(v) for v in read["values"]]
    return got == expected_loose(roots)


def subset(exp, act):
    if isinstance(exp, dict) and "struct" in exp and isinstance(act, dict) and "struct" in act:
        if exp["struct"] != act["struct"]:
            return False
        return all(k in act["fields"] and subset(v, act["fields"][k]) for k, v in exp["fields"].items())
    if isinstance(exp, dict) and set(exp) in ({"set"}, {"map"}, {"f"}):
        return canonical(exp) == canonical(act)
    if isinstance(exp, dict) and isinstance(act, dict):
        return set(exp) == set(act) and all(subset(exp[k], act[k]) for k in exp)
    if isinstance(exp, list) and isinstance(act, list):
        return len(exp) == len(act) and all(subset(a, b) for a, b in zip(exp, act))
    return exp == act


def matches_reader(read, reader_roots):
    """Reader-schema read: struct fields not listed in the expected value are
    not compared (they are absent from the writer); "error" expects a failure
    at that root."""
    if read is None:
        return False
    values = read["values"]
    for i, exp in enumerate(reader_roots):
        if exp == "error":
            return i == len(values) and bool(read.get("error"))
        if i >= len(values) or not subset(loose_from_notation(exp), values[i]):
            return False
    return not read.get("error") and len(values) == len(reader_roots)


def first_diff(a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return i
    return min(len(a), len(b)) if len(a) != len(b) else None


# ---------------------------------------------------------------------------
# notation ordering: struct fields in wire order
# ---------------------------------------------------------------------------

def order_fields(node, orders):
    key = type_key(node)
    v = node[key]
    out = dict(node)
    if key == "struct":
        order = orders.get(v["type"])
        fields = v["fields"]
        names = list(fields)
        if isinstance(order, list):
            names = [n for n in order if n in fields] + [n for n in fields if n not in order]
        out["struct"] = {"type": v["type"], "fields": {n: order_fields(fields[n], orders) for n in names}}
    elif key == "union":
        out["union"] = dict(v, value=order_fields(v["value"], orders))
    elif key in ("list", "set"):
        out[key] = [order_fields(c, orders) for c in v]
    elif key == "map":
        out[key] = [[order_fields(k, orders), order_fields(x, orders)] for k, x in v]
    return out


# ---------------------------------------------------------------------------
# Java side
# ---------------------------------------------------------------------------

def ensure_jar(build):
    srcs = []
    for root, _, files in os.walk(os.path.join(JAVA_DIR, "src")):
        srcs += [os.path.join(root, f) for f in files]
    newest = max(os.path.getmtime(p) for p in srcs + [os.path.join(JAVA_DIR, "pom.xml")])
    if build and (not os.path.exists(JAR) or os.path.getmtime(JAR) < newest):
        subprocess.run(["mvn", "-q", "-f", os.path.join(JAVA_DIR, "pom.xml"), "package", "-DskipTests"],
                       check=True)
    if not os.path.exists(JAR):
        sys.exit("missing %s (build it with mvn -q -f conformance/peers/java/pom.xml package -DskipTests)" % JAR)


def java_types(types):
    out = []
    for t in types:
        if t.java is None:
            continue
        e = {"type": t.type, "java": t.java}
        if t.id is not None:
            e["id"] = t.id
        else:
            ns, name = t.ns_and_name()
            e["ns"], e["name"] = ns, name
        if t.ext:
            e["ext"] = True
        out.append(e)
    return out


def run_java(case_inputs):
    with tempfile.TemporaryDirectory() as d:
        inp, outp = os.path.join(d, "cases.json"), os.path.join(d, "results.json")
        with open(inp, "w") as f:
            json.dump({"cases": case_inputs}, f)
        proc = subprocess.run(["java", "-cp", JAR, "dev.libwire.peer.xlang.CorpusMain", inp, outp],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            sys.stderr.write(proc.stderr[-4000:])
            sys.exit("java CorpusMain failed")
        with open(outp) as f:
            return json.load(f)


# ---------------------------------------------------------------------------
# foryc
# ---------------------------------------------------------------------------

def check_schemas(names):
    """Runs foryc on each case's .fdl (and .reader.fdl).  Returns
    {case: (ok, message)}.  foryc's Python and Java generators reject nested
    collections (map<K, list<V>>); for those files the C++ target, which
    accepts them, is used."""
    from concurrent.futures import ThreadPoolExecutor

    foryc = shutil.which("foryc")
    if not foryc:
        return {n: (False, "foryc not installed (pip install fory-compiler==1.7.7)") for n in names}

    def check_file(path, out):
        previous = ""
        for langs in ("python,java", "cpp"):
            proc = subprocess.run([foryc, "--lang", langs, "--output", out, path],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            err = proc.stderr.strip()
            if proc.returncode == 0:
                if langs == "cpp":
                    return True, "%s is accepted by foryc --lang cpp (its python/java generators: %s)" % (
                        os.path.basename(path), previous)
                return True, None
            errors = [ln for ln in err.splitlines() if ln.startswith("Error")]
            previous = errors[-1].split(": ", 2)[-1] if errors else err[-300:]
            if "nested list/map" not in err:
                break
        return False, "%s: foryc failed: %s" % (os.path.basename(path), previous)

    def check_case(n, d):
        ok, messages = True, []
        for suffix in (".fdl", ".reader.fdl"):
            path = os.path.join(SCHEMA_DIR, n + suffix)
            if not os.path.exists(path):
                if suffix == ".fdl":
                    ok = False
                    messages.append(n + ".fdl is missing")
                continue
            good, msg = check_file(path, os.path.join(d, n + suffix))
            ok = ok and good
            if msg:
                messages.append(msg)
        return ok, "; ".join(messages)

    with tempfile.TemporaryDirectory() as d:
        with ThreadPoolExecutor(max_workers=8) as pool:
            futures = {n: pool.submit(check_case, n, d) for n in names}
            return {n: f.result() for n, f in futures.items()}


# ---------------------------------------------------------------------------
# main
# ---------------------------------------------------------------------------

def ext_as_fields(node):
    """The corpus notation describes an ext body by the schema's fields
    (spec N-4): the cases' ext types write one zigzag varint32, `int32 id`.
    The runtimes' adapters keep the raw body bytes internally."""
    if isinstance(node, list):
        return [ext_as_fields(x) for x in node]
    if not isinstance(node, dict):
        return node
    if "ext" in node and isinstance(node["ext"], dict) and "bytes" in node["ext"]:
        from notation import zigzag_varint32
        body = node["ext"]
        out = {"ext": {"type": body["type"],
                       "fields": {"id": {"varint32": str(zigzag_varint32(body["bytes"]))}}}}
        for k, v in node.items():
            if k != "ext":
                out[k] = v
        return out
    return {k: ext_as_fields(v) for k, v in node.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*", help="case names to regenerate")
    ap.add_argument("--no-build", action="store_true", help="do not rebuild the Java jar")
    ap.add_argument("--out", help="write the corpus here instead of fixtures/xlang-corpus "
                    "(the tests regenerate into a temporary directory and compare)")
    args = ap.parse_args()
    global OUT_DIR
    if args.out:
        OUT_DIR = os.path.abspath(args.out)
    t0 = time.time()
    selected = [c for c in CASES_MOD.CASES if not args.only or c.name in args.only]
    ensure_jar(not args.no_build)

    py = {}
    java_inputs = []
    for case in selected:
        info = {}
        try:
            data, fory = py_serialize(case)
            info["hex"] = data.hex()
            info["orders"] = py_field_orders(fory, case.types)
        except Exception as e:  # noqa: BLE001
            info["error"] = "%s: %s" % (type(e).__name__, e)
            info["orders"] = {}
        py[case.name] = info
        java_inputs.append({
            "case": case.name, "compatible": case.compatible, "ref": case.ref, "noop_meta": case.noop_meta,
            "types": java_types(case.types),
            "reader_types": java_types(case.reader_types) if case.reader_types else None,
            "roots": case.runtime_roots or case.roots,
            "pyfory_hex": info.get("hex"),
        })
    java_out = run_java(java_inputs)
    java_version = java_out.get("fory_version") or "1.6.0"
    java = {r["case"]: r for r in java_out["results"]}
    schema_status = check_schemas([c.name for c in selected])

    os.makedirs(OUT_DIR, exist_ok=True)
    summary = []
    for case in selected:
        p, j = py[case.name], java[case.name]
        notes = []
        py_hex, java_hex = p.get("hex"), j.get("java_hex")
        if p.get("error"):
            notes.append("pyfory could not serialize: " + p["error"])
        if j.get("error"):
            notes.append("Java could not serialize: " + j["error"])
        if java_hex and j.get("java_hex_codegen") not in (None, java_hex):
            notes.append("Java codegen and interpreter serializers wrote different bytes (java_hex is the "
                         "interpreter's; codegen: %s)" % j["java_hex_codegen"])

        # Field order: pyfory's serializer order vs Java's TypeDef order.
        porders, jorders = p.get("orders", {}), j.get("field_orders", {})
        for t, o in porders.items():
            if isinstance(o, list) and isinstance(jorders.get(t), list) and jorders[t] != o:
                notes.append("field order differs for %s: pyfory %s, Java %s" % (t, o, jorders[t]))
        orders = porders if porders else jorders
        roots = [order_fields(r, orders) for r in case.roots]

        pyfory_reads_java = java_reads_pyfory = False
        extra = {}
        if java_hex:
            read = py_read_all(case, case.types, bytes.fromhex(java_hex))
            pyfory_reads_java = matches(read, case.roots)
            if not pyfory_reads_java:
                notes.append("pyfory reading java_hex: " + (read.get("error") or "decoded %s" % json.dumps(read["values"])))
        if py_hex:
            read = py_read_all(case, case.types, bytes.fromhex(py_hex))
            if not matches(read, case.roots):
                notes.append("pyfory does not read its own bytes back: " + (read.get("error") or json.dumps(read["values"])))
            jr = j.get("reads_pyfory")
            java_reads_pyfory = matches(jr, case.roots)
            if jr is not None and not java_reads_pyfory:
                notes.append("Java reading pyfory_hex: " + (jr.get("error") or "decoded %s" % json.dumps(jr["values"])))
        for k in ("self_read", "reads_pyfory"):
            if j.get(k) is not None and j.get(k + "_codegen") is not None and \
                    matches(j[k], case.roots) != matches(j[k + "_codegen"], case.roots):
                notes.append("Java %s with codegen: %s" % ("reading its own bytes" if k == "self_read" else
                             "reading pyfory_hex", j[k + "_codegen"].get("error") or "decoded differently"))
        if java_hex and not matches(j.get("self_read"), case.roots):
            sr = j.get("self_read") or {}
            notes.append("Java does not read its own bytes back: " + (sr.get("error") or json.dumps(sr.get("values"))))

        if case.reader_types:
            rorders = {}
            try:
                rorders = py_field_orders(make_fory(case, case.reader_types), case.reader_types)
            except Exception:  # noqa: BLE001
                pass
            extra["reader_schema"] = "fixtures/schemas/xlang/%s.reader.fdl" % case.name
            extra["reader_roots"] = [r if r == "error" else order_fields(r, rorders) for r in case.reader_roots]
            if java_hex:
                read = py_read_all(case, case.reader_types, bytes.fromhex(java_hex))
                extra["pyfory_reads_java_as_reader"] = matches_reader(read, case.reader_roots)
                extra["pyfory_as_reader_decoded"] = read
            if py_hex and j.get("reads_pyfory_as_reader") is not None:
                jr = j["reads_pyfory_as_reader"]
                extra["java_reads_pyfory_as_reader"] = matches_reader(jr, case.reader_roots)
                extra["java_as_reader_decoded"] = jr
            if py_hex:
                own = py_read_all(case, case.reader_types, bytes.fromhex(py_hex))
                extra["pyfory_reads_own_as_reader"] = matches_reader(own, case.reader_roots)
            if j.get("reads_own_as_reader") is not None:
                extra["java_reads_own_as_reader"] = matches_reader(j["reads_own_as_reader"], case.reader_roots)

        if py_hex and java_hex:
            if py_hex == java_hex:
                notes.insert(0, "pyfory and Java wrote identical bytes.")
            else:
                a, b = bytes.fromhex(py_hex), bytes.fromhex(java_hex)
                off = first_diff(a, b)
                notes.insert(0, "bytes differ (pyfory %d bytes, Java %d bytes; first difference at offset %d)."
                             % (len(a), len(b), off))
        manual = NOTES.get(case.name)
        if manual:
            notes.append(manual)
        if case.notes:
            notes.append(case.notes)
        schema_ok, schema_msg = schema_status[case.name]
        if schema_msg:
            notes.append("Schema check: %s." % schema_msg)

        doc = {
            "case": case.name,
            "mode": case.mode,
            "ref": case.ref,
            "schema": "fixtures/schemas/xlang/%s.fdl" % case.name,
            "roots": ext_as_fields(roots),
            "pyfory_hex": py_hex,
            "java_hex": java_hex,
            "pyfory_reads_java": pyfory_reads_java,
            "java_reads_pyfory": java_reads_pyfory,
            "notes": " ".join(notes),
            "producers": {"pyfory": pyfory.__version__, "java": "org.apache.fory:fory-core " + java_version},
            "config": {"compatible": case.compatible, "ref": case.ref,
                       "meta_compressor": "none (no-op)" if case.noop_meta else "default"},
            "field_order": {"pyfory": porders, "java": jorders},
        }
        doc.update(extra)
        path = os.path.join(OUT_DIR, case.name + ".json")
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
        # The schema against the bytes: TypeDefs (compatible) or schema hashes (schema-consistent).
        try:
            problems, _ = schema_check.check_case(case.name)
        except Exception as e:  # noqa: BLE001
            problems = ["schema_check failed: %s: %s" % (type(e).__name__, e)]
        doc["schema_matches_bytes"] = not problems
        if problems:
            doc["notes"] += " Schema vs bytes: " + "; ".join(problems)
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
        summary.append((case.name, case.mode, py_hex is not None, java_hex is not None,
                        py_hex == java_hex and py_hex is not None, pyfory_reads_java, java_reads_pyfory,
                        extra.get("pyfory_reads_java_as_reader"), extra.get("java_reads_pyfory_as_reader"),
                        ("ok" if schema_ok else "FAILED") + ("" if doc["schema_matches_bytes"] else " (bytes!)")))

    print("%-58s %-4s %-3s %-3s %-5s %-5s %-5s %-5s %-5s %s" % (
        "case", "mode", "py", "jv", "same", "p<-j", "j<-p", "rp<-j", "rj<-p", "schema"))
    for s in summary:
        print("%-58s %-4s %-3s %-3s %-5s %-5s %-5s %-5s %-5s %s" % (
            s[0], "SS" if s[1] == "schema_consistent" else "C", *("y" if x else ("-" if x is None else "n")
                                                                  for x in s[2:9]), s[9]))
    print("%d cases in %.1f s" % (len(summary), time.time() - t0))


if __name__ == "__main__":
    main()
