#!/usr/bin/env python3
"""Regenerates the golden fixture set fixtures/valid/ and fixtures/invalid/.

    python3 conformance/tools/generate.py [--no-build] [--check]

--check writes nothing: it compares what it would write with the files
(fixtures, ids.json, wide.fdl, MANIFEST.json) and exits 1 on a difference.

1. Valid schema-less cases (cases_builtin.py): every available JSON-lines
   peer (peers.py) encodes the values; the Java runtime's bytes are the
   canonical "bytes" (libwire's writer policy follows it), or, for values the
   Java runtime cannot write, the bytes the other runtimes agree on. Other
   forms become "alternatives".
2. Valid typed cases (cases_typed.py): enums and our IDL schemas, encoded by
   pyfory and the Java runtime through typed.py.
3. Struct cases from the user-type corpus (fixtures/xlang-corpus): the bytes
   both runtimes wrote for each upstream cross-language case. Every test with
   schemas also cites the FDL and user-type rules that the declarations of
   the types its values use exercise (add_schema_rules).
4. Verification (verify.py): every runtime decodes every byte string; a
   test keeps only alternatives that two runtimes decode to its values, and a
   test whose bytes fewer than two runtimes decode is dropped (listed in the
   output).
5. Invalid cases (cases_invalid.py): hand-made and derived byte strings with
   the error class the spec gives.
6. Ids from ids.json (ids.py), JSON Schema validation (fixtures/schema.json),
   MANIFEST.json (manifest.py).

Fixture files that another tool writes (OWNED_ELSEWHERE) are kept as they
are: their ids count as used, and they are validated with the rest.

Deterministic: the same runtimes give the same files.
"""

import argparse
import collections
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import typed  # noqa: E402  (puts the corpus modules on sys.path first)
from common import (  # noqa: E402
    FIXTURES, FORMAT, REPO, SCHEMA_JSON, Peer, PeerError, dump_json, log, read_json, strip,
)
import ids as IDS  # noqa: E402
from fixtures_check import validate  # noqa: E402
import peers as P  # noqa: E402
import verify as V  # noqa: E402

SINCE = "0.1.0"
CORPUS_DIR = os.path.join(FIXTURES, "xlang-corpus")

# Fixture files written by other tools (path under fixtures/ -> the tool).
OWNED_ELSEWHERE = {
    "valid/structs/exact.json": "libwire/tests/exact/fixtures.py",
}


class Output:
    """Writes the generated files, or with check=True compares them with
    the files on disk and records each difference."""

    def __init__(self, check):
        self.check = check
        self.diffs = []

    def text(self, path, text):
        if not self.check:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return
        try:
            with open(path, encoding="utf-8") as f:
                have = f.read()
        except FileNotFoundError:
            self.diffs.append("%s: missing" % os.path.relpath(path, REPO))
            return
        if have != text:
            a, b = have.splitlines(), text.splitlines()
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            self.diffs.append("%s: differs from line %d (%d lines committed, %d generated)" % (
                os.path.relpath(path, REPO), i + 1, len(a), len(b)))

    def remove(self, path):
        if self.check:
            self.diffs.append("%s: not generated" % os.path.relpath(path, REPO))
        else:
            os.remove(path)


OUT = Output(False)


# ---------------------------------------------------------------------------
# Valid tests
# ---------------------------------------------------------------------------

def new_valid(case, values=None, schemas=None):
    t = {
        "_kind": "valid", "_area": case.area, "_key": case.key, "_group": case.group,
        "name": case.name,
        "rules": list(dict.fromkeys(case.rules)),
        "config": {"ref": bool(case.ref), "compatible": bool(case.compatible)},
        "schemas": list(schemas if schemas is not None else getattr(case, "schemas", [])),
        "values": values if values is not None else case.values,
        "bytes": None,
        "alternatives": [],
        "writers": [],
        "confirmed_by": [],
        "tags": sorted(set(case.tags)),
        "since": SINCE,
    }
    if case.upstream:
        t["upstream_case"] = case.upstream
    if case.note:
        t["note"] = case.note
    return t


def choose_bytes(t, hexes):
    """hexes: {runtime: hex}. Canonical = the Java runtime's, else the form
    most runtimes wrote (ties: table order of peers.PEERS)."""
    if not hexes:
        return False
    order = list(P.PEERS)
    if P.CANONICAL in hexes:
        canon = hexes[P.CANONICAL]
    else:
        counts = collections.Counter(hexes.values())
        canon = sorted(hexes.values(), key=lambda h: (-counts[h], min(order.index(n) for n, x in hexes.items()
                                                                     if x == h)))[0]
    t["bytes"] = canon
    t["writers"] = [n for n in order if hexes.get(n) == canon]
    alts = collections.OrderedDict()
    for n in order:
        h = hexes.get(n)
        if h is not None and h != canon:
            alts.setdefault(h, []).append(n)
    t["alternatives"] = [{"bytes": h, "writers": w, "confirmed_by": []} for h, w in alts.items()]
    return True


def builtin_tests(report):
    import cases_builtin
    names = [n for n in P.available_peers(build=True) if P.PEERS[n]["encodes"]]
    cases = cases_builtin.CASES
    results = {}
    for n in list(names):
        try:
            peer = Peer(n, P.PEERS[n]["cmd"])
        except PeerError as e:
            log("peer %s did not start (%s), skipped" % (n, e))
            names.remove(n)
            continue
        try:
            results[n] = peer.batch([{"op": "encode", "config": {"ref": c.ref, "compatible": c.compatible},
                                      "values": c.values} for c in cases])
        finally:
            peer.close()
    tests = []
    for i, c in enumerate(cases):
        t = new_valid(c)
        hexes = {n: results[n][i]["hex"] for n in names if results[n][i].get("ok")}
        if not choose_bytes(t, hexes):
            report.append("no runtime wrote %s/%s: %s" % (c.area, c.key, {n: results[n][i].get("message")
                                                                          for n in names}))
            continue
        tests.append(t)
    return tests


def typed_tests(report):
    import cases_typed
    OUT.text(os.path.join(REPO, "fixtures", "schemas", "idl", "wide.fdl"), typed.wide_fdl())
    jobs, tests = [], []
    for c in cases_typed.CASES:
        if c.schemas:
            values = c.values
            regs = []
            for s in c.schemas:
                regs += typed.idl_regs(s)
        else:
            values, regs = typed.typed_enum_values(c.values)
        jobs.append(typed.Job(c.key, regs, compatible=c.compatible, ref=c.ref, roots=values))
        tests.append(new_valid(c))
    py = typed.run_python(jobs)
    ja = typed.run_java(jobs) if "java" in P.available_peers() else [{} for _ in jobs]
    out = []
    for t, p, j in zip(tests, py, ja):
        # struct fields in wire order (spec/notation.md N-4), as pyfory writes them
        orders = p.get("field_orders") or j.get("field_orders") or {}
        t["values"] = [typed.CORPUS_GEN.order_fields(v, orders) for v in t["values"]]
        hexes = {}
        if j.get("hex"):
            hexes["java"] = j["hex"]
        if p.get("hex"):
            hexes["pyfory"] = p["hex"]
        if not choose_bytes(t, hexes):
            report.append("no runtime wrote %s/%s: java %s; pyfory %s" % (
                t["_area"], t["_key"], j.get("encode_error") or j.get("error"), p.get("encode_error")))
            continue
        out.append(t)
    return out


# Corpus cases that get a variant in the other mode, because the bytes of the
# case's own mode cannot be exchanged between the runtimes (corpus README).
def _skip_name_custom_roots():
    from notation import E, S, VI32
    return [E("color", 3), S("my_struct", id=VI32(42))]


# Corpus cases that get a variant, because the bytes of the case itself
# cannot be exchanged between the runtimes (fixtures/xlang-corpus/README.md):
# name -> (key, compatible, roots or None for the case's roots, note).
CORPUS_VARIANTS = {
    "test_skip_name_custom": (
        "variant enum and struct", True, _skip_name_custom_roots,
        "Variant with the case's by-name enum and struct as roots and without its ext: pyfory 1.7.7 writes a "
        "by-name ext with its default object serializer in compatible mode, and in same-schema mode the "
        "runtimes frame an ext field differently (pyfory writes type meta before the body), so no byte "
        "string with the ext is read by both."),
    "test_list_array_compatible_nullable_list_to_array_error": (
        "variant schema-consistent", False, None,
        "Schema-consistent variant: in compatible mode the Java runtime 1.6.0 cannot read a "
        "list<optional int32> field holding a null, not even its own bytes (corpus README); the "
        "compatible-mode root without a null is the test 'root 1'."),
}


class CorpusCase:
    def __init__(self, area, key, name, values, rules, compatible, ref, tags, upstream, note=None):
        self.area, self.group, self.key, self.name = area, "struct." + upstream[5:], key, name
        self.values, self.rules, self.compatible, self.ref = values, rules, compatible, ref
        self.tags, self.upstream, self.note = tags, upstream, note


def corpus_tags(doc, compatible):
    text = json.dumps(doc["roots"])
    tags = {"schema", "struct"}
    if compatible:
        tags |= {"compatible", "typedef"}
    if doc["ref"]:
        tags.add("ref_tracking")
    for needle, tag in [('"union"', "union"), ('"ext"', "ext"), ('"enum"', "enum"), ('"float16', "float16"),
                        ('"bfloat16', "bfloat16"), ('"uint', "unsigned"), ('"var_uint', "unsigned"),
                        ('"tagged_uint', "unsigned"), ('_array"', "dense_array")]:
        if needle in text:
            tags.add(tag)
    schema = open(os.path.join(REPO, doc["schema"]), encoding="utf-8").read()
    if "enable_auto_type_id = false" in schema or "wire_namespace" in schema:
        tags |= {"named_types", "meta_string"}
    return sorted(tags)


def corpus_rules(doc, compatible, tags):
    from cases_typed import R_COMP, R_SC, R_STRUCT
    rules = R_STRUCT + (R_COMP if compatible else R_SC)
    if "named_types" in tags:
        rules = rules + ["R-UTYPE-2", "R-MSWIRE-1", "R-MSWIRE-5"]
    if doc["ref"]:
        rules = rules + ["R-REF-3", "R-REF-4", "R-STRUCT-4"]
    if "enum" in tags:
        rules = rules + ["R-FIELD-4", "R-ENUM-3"]
    if "union" in tags:
        rules = rules + ["R-FIELD-5", "R-UNION-2"]
    if "ext" in tags:
        rules = rules + ["R-EXT-1", "R-EXT-3"]
    return rules


def attach_readers(t, doc, k):
    """Evolution pairs (corpus `reader_schema`): a decode-only check of the
    test's bytes read as the reader's version of the types. `values` are the
    reader runtimes' roots (`reader_roots`: the fields both reported; a
    decoder may add defaults), or the error class where they failed. k: the
    root the test holds (None: all of them). Confirmed by the runtimes the
    corpus records as reading these bytes as readers (`<rt>_reads_<writer>_as_reader`
    for a writer of the test's bytes; split roots inherit the flags of the
    whole buffer)."""
    roots = doc.get("reader_roots")
    if not doc.get("reader_schema") or not roots or doc["mode"] != "compatible" or not t.get("bytes"):
        return
    stop = roots.index("error") if "error" in roots else None
    if k is None:
        check = {"error": "schema"} if stop is not None else {"values": strip(roots)}
    elif stop is not None and k > stop:
        return
    elif stop is not None and k == stop:
        check = {"error": "schema"}
    else:
        check = {"values": strip([roots[k]])}
    confirmed = []
    for rt in P.PEERS:
        if any(doc.get("%s_reads_%s_as_reader" % (rt, "own" if w == rt else w)) for w in t["writers"]):
            confirmed.append(rt)
    if len(confirmed) < V.MIN_CONFIRMATIONS:
        return
    entry = {"schemas": [doc["reader_schema"]]}
    entry.update(check)
    entry["confirmed_by"] = confirmed
    entry["note"] = ("read with the reader's version of the schema (corpus %s): fields matched by tag id or "
                     "name, unknown fields dropped, missing fields defaulted" % doc["case"])
    t["readers"] = [entry]
    t["rules"] = list(dict.fromkeys(t["rules"] + ["R-EVOLVE-1", "R-EVOLVE-6"]))


def corpus_tests(report):
    files = sorted(f for f in os.listdir(CORPUS_DIR) if f.endswith(".json"))
    out = []
    for f in files:
        doc = read_json(os.path.join(CORPUS_DIR, f))
        name = doc["case"]
        area = "structs/" + name
        comp = doc["mode"] == "compatible"
        values = strip(doc["roots"])
        tags = corpus_tags(doc, comp)
        rules = corpus_rules(doc, comp, tags)
        base = CorpusCase(area, "corpus", "%s (%s, %d root%s)" % (
            name, doc["mode"].replace("_", "-"), len(values), "s" * (len(values) != 1)), values, rules, comp,
            doc["ref"], tags, name)
        t = new_valid(base, schemas=[doc["schema"]])
        hexes = {}
        if doc.get("java_hex"):
            hexes["java"] = doc["java_hex"]
        if doc.get("pyfory_hex"):
            hexes["pyfory"] = doc["pyfory_hex"]
        choose_bytes(t, hexes)
        t["_corpus"] = doc
        attach_readers(t, doc, None)
        out.append(t)
        # One test per root as well when there are several (a root can be
        # confirmed where the whole buffer is not).
        if len(values) > 1:
            ends_j = typed.corpus_root_split(name, doc["java_hex"]) if doc.get("java_hex") else []
            ends_p = typed.corpus_root_split(name, doc["pyfory_hex"]) if doc.get("pyfory_hex") else []
            for k in range(len(values)):
                rc = CorpusCase(area, "corpus root %d" % (k + 1), "%s, root %d of %d" % (name, k + 1, len(values)),
                                [values[k]], rules, comp, doc["ref"], tags, name)
                rt = new_valid(rc, schemas=[doc["schema"]])
                hx = {}
                for rt_name, ends, key in (("java", ends_j, "java_hex"), ("pyfory", ends_p, "pyfory_hex")):
                    if len(ends) == len(values):
                        start = 0 if k == 0 else ends[k - 1]
                        hx[rt_name] = doc[key][2 * start:2 * ends[k]]
                if choose_bytes(rt, hx):
                    attach_readers(rt, doc, k)
                    out.append(rt)
        if name in CORPUS_VARIANTS:
            vkey, vcomp, vroots, note = CORPUS_VARIANTS[name]
            prod = typed.corpus_produce(name, vcomp, vroots() if vroots else None)
            mode = "compatible" if vcomp else "schema-consistent"
            vtags = corpus_tags(doc, vcomp)
            vc = CorpusCase(area, vkey, "%s, %s (%s)" % (name, vkey.replace(" " + mode, ""), mode),
                            strip(prod["roots"]),
                            corpus_rules(doc, vcomp, vtags), vcomp, doc["ref"], vtags, name, note)
            vt = new_valid(vc, schemas=[doc["schema"]])
            hx = {k: prod[k + "_hex"] for k in ("java", "pyfory") if prod.get(k + "_hex")}
            if choose_bytes(vt, hx):
                out.append(vt)
            else:
                report.append("variant of %s not written: %s" % (name, prod))
    return out


# ---------------------------------------------------------------------------
# Rules that follow from the schema of a typed test
# ---------------------------------------------------------------------------
#
# A test with FDL schemas exercises the FDL rules of spec/06-fdl.md for the
# features that the types its values use have (the declarations of those
# types, not of every type in the file), and the user-type rules of
# spec/05-user-types.md whose subject those types have (a union field in a
# TypeDef, a dynamic field, a ref-tracked field holding a reference, ...).

FDL_SCALARS = frozenset("""bool int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 bfloat16 float32
float64 string bytes date timestamp duration decimal""".split())
FDL_WORDS = frozenset("list map array optional ref repeated fixed tagged varint any weak thread_safe true "
                      "false".split())


class FdlType:
    def __init__(self, kind, name, path, opts, fdl):
        self.kind, self.name, self.path, self.opts, self.fdl = kind, name, path, opts, fdl
        self.fields = []    # dicts: name, type, mods, opts, num


class FdlFile:
    def __init__(self, rel):
        import re
        text = open(os.path.join(REPO, rel), encoding="utf-8").read()
        text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
        text = re.sub(r"//[^\n]*", "", text)
        m = re.search(r"^\s*package\s+([\w.]+)\s*;", text, re.M)
        self.package = m.group(1) if m else None
        self.options = {k: v.strip('"') for k, v in
                        re.findall(r"^\s*option\s+(\w+)\s*=\s*(\"[^\"]*\"|[\w.]+)\s*;", text, re.M)}
        self.types = {}     # notation type name -> FdlType
        self._parse(text, [])

    @staticmethod
    def _opts(text):
        out = {}
        for part in (text or "").strip("[] ").split(","):
            if "=" in part:
                k, v = part.split("=", 1)
                out[k.strip()] = v.strip().strip('"')
        return out

    def _parse(self, text, outer):
        import re
        decl = re.compile(r"\b(message|enum|union)\s+(\w+)\s*(\[[^\]]*\])?\s*\{")
        pos, rest = 0, []
        while True:
            m = decl.search(text, pos)
            if not m:
                rest.append(text[pos:])
                break
            rest.append(text[pos:m.start()])
            depth, i = 1, m.end()
            while depth:
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
            path = outer + [m.group(2)]
            t = FdlType(m.group(1), m.group(2), ".".join(path), self._opts(m.group(3)), self)
            self.types[((self.package + ".") if self.package else "") + t.path] = t
            body = self._parse(text[m.end():i - 1], path)
            if t.kind != "enum":
                for stmt in body.split(";"):
                    f = re.match(r"^\s*((?:(?:optional|repeated|ref(?:\([^)]*\))?)\s+)*)(.+?)\s+(\w+)\s*=\s*(\d+)"
                                 r"\s*(\[.*\])?\s*$", stmt, re.S)
                    if f:
                        t.fields.append({"mods": f.group(1).split(), "type": " ".join(f.group(2).split()),
                                         "name": f.group(3), "num": int(f.group(4)), "opts": self._opts(f.group(5))})
            pos = i
        return "".join(rest)

    def by_name(self, t):
        """Whether a type is registered by name (R-FDL-5)."""
        return "id" not in t.opts and self.options.get("enable_auto_type_id") == "false"


def _fdl_rules(schemas, values, compatible, ref):
    import re
    types = {}
    for s in schemas:
        types.update(FdlFile(s).types)

    def lookup(word):
        for name, t in types.items():
            if name == word or name.endswith("." + word):
                return t
        return None

    def field_words(f):
        return [w for w in re.findall(r"[A-Za-z_][\w.]*", f["type"]) if w not in FDL_WORDS]

    def user_kinds(f):
        out = set()
        for w in field_words(f):
            if w == "any":
                out.add("any")
            elif w not in FDL_SCALARS:
                t = lookup(w)
                if t is not None:
                    out.add("ext" if t.opts.get("wire_ext") == "true" else t.kind)
        if re.search(r"\bany\b", f["type"]):
            out.add("any")
        return out

    used = {}       # notation type name -> FdlType
    seen = set()    # user-type rule ids found while walking the values

    def has(node, key):
        return isinstance(node, dict) and key in node

    def is_null(node):
        return has(node, "null")

    def walk(node):
        if isinstance(node, list):
            for x in node:
                walk(x)
            return
        if not isinstance(node, dict):
            return
        for key in ("struct", "ext", "enum", "union"):
            v = node.get(key)
            if isinstance(v, dict) and isinstance(v.get("type"), str) and v["type"] in types:
                t = types[v["type"]]
                used[v["type"]] = t
                if key in ("enum", "union"):
                    seen.add("R-FDL-12")
                if key in ("struct", "ext"):
                    decls = {f["opts"].get("wire_name", f["name"]): f for f in t.fields}
                    for fname, fval in v["fields"].items():
                        f = decls.get(fname)
                        if f is None:
                            continue
                        slot_items = []
                        if has(fval, "list") or has(fval, "set"):
                            slot_items = fval.get("list", fval.get("set"))
                        elif has(fval, "map"):
                            slot_items = [x for kv in fval["map"] for x in kv]
                        if has(fval, "ref") or any(has(x, "ref") for x in slot_items):
                            seen.add("R-FIELD-9")
                        elements_ref = re.search(r"<(optional\s+)?ref\b", f["type"]) or \
                            f["opts"].get("ref") == "true"
                        if ref and elements_ref and slot_items:
                            seen.add("R-FDL-11")    # the elements' tracking bit
                        # Declared element / key positions with nulls or tracking
                        # (R-FIELD-8). Struct and ext elements are dynamic in
                        # compatible mode and the Java runtime writes the value
                        # type of a map of structs, and float16/bfloat16 elements
                        # in compatible mode (errata E-27, E-28): not declared.
                        first = (field_words({"type": f["type"]}) or [""])[0]
                        elem = lookup(first) if first not in FDL_SCALARS else None
                        dynamic = first == "any" or (compatible and (
                            (elem is not None and elem.kind == "message") or first in ("float16", "bfloat16")))
                        if slot_items and not dynamic and (
                                any(is_null(x) for x in slot_items) or (ref and elements_ref)):
                            seen.add("R-FIELD-8")
        for k, v in node.items():
            if k in ("struct", "ext"):
                walk(list(v["fields"].values()))
            elif k == "union":
                walk(v["value"])
            elif k in ("list", "set"):
                walk(v)
            elif k == "map":
                walk([x for kv in v for x in kv])

    walk(values)
    if not used:
        return []
    rules = ["R-FDL-1", "R-FDLG-1", "R-FDLG-2", "R-FDLG-3", "R-FDL-4", "R-FDL-5"] + sorted(seen)
    structs = [t for t in used.values() if t.kind == "message"]
    fields = [(t, f) for t in structs for f in t.fields]
    files = {id(t.fdl): t.fdl for t in used.values()}.values()
    if any(t.opts.get("wire_ext") == "true" for t in structs):
        rules.append("R-FDLX-7")
    if structs or any(t.fdl.by_name(t) for t in used.values()):
        rules.append("R-UMODE-1")
    if any(t.fdl.by_name(t) for t in used.values()) and any("wire_namespace" in fl.options for fl in files):
        rules.append("R-FDLX-3")
    if compatible and any(t.opts.get("evolving") == "false" or t.fdl.options.get("evolving") == "false"
                          for t in structs):
        rules.append("R-UMODE-2")
    if fields:
        rules.append("R-FDL-10")
        by_name = [(t, f) for t, f in fields if t.fdl.options.get("wire_fields_by_name") == "true"]
        if by_name:
            rules += ["R-FDL-7", "R-FDLX-1"]
        if len(by_name) < len(fields):
            rules.append("R-FDL-6")
    for t, f in fields:
        kinds = user_kinds(f)
        words = field_words(f)
        if any(w in FDL_SCALARS for w in words) or "any" in kinds:
            rules.append("R-FDL-8")
        if re.search(r"\b(list|map|array)<", f["type"]) or kinds - {"any"}:
            rules.append("R-FDL-9")
        if kinds - {"any"}:
            rules.append("R-FDL-3")
        if kinds:
            rules.append("R-FIELD-3")
            if compatible:
                rules.append("R-TDEF-10")
        if compatible and "union" in kinds:
            rules.append("R-UTYPE-4")
        # A field's own ref flag shows in its framing, fingerprint and TypeDef; a
        # nested one only in a TypeDef (or in the elements, found while walking).
        if any(m.startswith("ref") for m in f["mods"]) or (compatible and (
                re.search(r"\bref\b", f["type"]) or f["opts"].get("ref") == "true")):
            rules.append("R-FDL-11")
        if f["opts"].get("wire_set") == "true":
            rules.append("R-FDLX-4")
        if "wire_name" in f["opts"]:
            rules += ["R-FDL-7", "R-FDLX-5"]
        if f["opts"].get("nullable") == "false" and kinds & {"message", "ext"}:
            rules.append("R-FDLX-6")
        if compatible and t.fdl.options.get("wire_nullable_map_keys") == "true" and re.search(r"\bmap<", f["type"]):
            rules.append("R-FDLX-2")
    return list(dict.fromkeys(rules))


def add_schema_rules(tests):
    for t in tests:
        if t["schemas"]:
            t["rules"] = list(dict.fromkeys(t["rules"] + _fdl_rules(t["schemas"], t["values"],
                                                                     t["config"]["compatible"],
                                                                     t["config"]["ref"])))


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

VALID_KEYS = ["id", "name", "rules", "config", "schemas", "values", "bytes", "alternatives", "writers",
              "confirmed_by", "readers", "tags", "since", "upstream_case", "note", "buffers"]
INVALID_KEYS = ["id", "name", "rules", "config", "schemas", "bytes", "error", "offset", "tags", "since", "upstream_case",
                "note", "buffers"]


def public(t):
    keys = VALID_KEYS if t["_kind"] == "valid" else INVALID_KEYS
    return {k: t[k] for k in keys if k in t}


def check_rules(tests):
    import re
    known = set()
    for f in os.listdir(os.path.join(REPO, "spec")):
        if f.endswith(".md"):
            known |= set(re.findall(r"\*\*(R-[A-Z0-9-]+)\*\*", open(os.path.join(REPO, "spec", f),
                                                                     encoding="utf-8").read()))
    bad = sorted({r for t in tests for r in t["rules"] if r not in known})
    if bad:
        sys.exit("unknown rule ids: %s" % bad)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-build", action="store_true", help="do not build the Java peer")
    ap.add_argument("--peers", help="comma-separated runtimes (default: pyfory,java or $LIBWIRE_PEERS)")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a generated file differs from the committed one")
    args = ap.parse_args()
    global OUT
    OUT = Output(args.check)
    if args.peers:
        P.select(args.peers.split(","))
    t0 = time.time()
    report = []
    if not args.no_build:
        P.available_peers(build=True)
    if args.check:
        missing = [n for n in ("pyfory", "java") if n not in P.available_peers()]
        if missing:
            sys.exit("generate --check: the runtimes %s are not available (conformance/tools/README.md, "
                     "Needs); without them the generated files cannot match" % ", ".join(missing))

    valid = builtin_tests(report)
    log("generate: %d schema-less cases encoded (%.1f s)" % (len(valid), time.time() - t0))
    valid += typed_tests(report)
    log("generate: + typed cases, %d (%.1f s)" % (len(valid), time.time() - t0))
    valid += corpus_tests(report)
    add_schema_rules(valid)
    log("generate: + corpus cases, %d (%.1f s)" % (len(valid), time.time() - t0))

    details = []
    got = V.confirm(valid, details)
    V.apply(valid, got)
    kept = []
    for ti, t in enumerate(valid):
        alts = []
        for a in t["alternatives"]:
            if len(a["confirmed_by"]) >= V.MIN_CONFIRMATIONS:
                alts.append(a)
            else:
                report.append("alternative of %s/%s dropped (written by %s, confirmed by %s): %s" % (
                    t["_area"], t["_key"], a["writers"], a["confirmed_by"] or "none", a["bytes"][:80]))
        t["alternatives"] = alts
        if len(t["confirmed_by"]) >= V.MIN_CONFIRMATIONS:
            kept.append(t)
        else:
            reasons = [d for d in details if d[0] == ti and d[1] == "bytes"]
            report.append("test %s/%s dropped (bytes written by %s, confirmed by %s)%s" % (
                t["_area"], t["_key"], t["writers"], t["confirmed_by"] or "none",
                "".join("\n    %s: %s" % (d[2], d[3][:300]) for d in reasons)))
    log("generate: verified (%.1f s); %d valid tests kept" % (time.time() - t0, len(kept)))
    for line in report:
        print(line)
    sys.stdout.flush()

    import cases_invalid
    invalid = cases_invalid.build(kept)
    for t in invalid:
        t["_kind"] = "invalid"
        t.setdefault("since", SINCE)

    import offsets
    offsets.add(invalid)  # the R-ERR-3 offset of each invalid test, from libwire

    check_rules(kept + invalid)
    reg = IDS.Registry()
    files = collections.OrderedDict()
    for t in kept + invalid:
        t["id"] = reg.get(t["_kind"], t["_area"], t["_key"], t["_group"])
        files.setdefault((t["_kind"], t["_area"]), []).append(public(t))
    docs = {}
    for (kind, area), tests in files.items():
        path = os.path.join(FIXTURES, kind, area + ".json")
        docs[path] = {"format": FORMAT, "area": area, "tests": tests}
    owned = {}
    for name, tool in OWNED_ELSEWHERE.items():
        path = os.path.join(FIXTURES, name)
        if path in docs:
            sys.exit("%s is written by %s, not here" % (name, tool))
        if not os.path.exists(path):
            sys.exit("%s is missing: run %s" % (name, tool))
        owned[path] = read_json(path)
        for t in owned[path]["tests"]:
            reg.keep(t["id"])
    validate(dict(docs, **owned))
    # Remove fixture files no longer produced, then write.
    for kind in ("valid", "invalid"):
        base = os.path.join(FIXTURES, kind)
        for root, _, fs in os.walk(base):
            for f in fs:
                p = os.path.join(root, f)
                if f.endswith(".json") and p not in docs and p not in owned:
                    OUT.remove(p)
    for path, doc in docs.items():
        OUT.text(path, dump_json(doc))
    OUT.text(reg.path, reg.text())
    import manifest
    if OUT.check:
        if not OUT.diffs and manifest.compute() != read_json(manifest.MANIFEST):
            OUT.diffs.append("fixtures/MANIFEST.json: out of date")
    else:
        manifest.build()

    per_area = collections.Counter()
    for (kind, area), tests in files.items():
        per_area[(kind, area)] += len(tests)
    for (kind, area), n in sorted(per_area.items()):
        print("%-8s %-60s %4d" % (kind, area, n))
    print("valid %d, invalid %d, dropped %d, in %.1f s" % (
        len(kept), len(invalid), len(valid) - len(kept), time.time() - t0))
    if OUT.check:
        for d in OUT.diffs:
            print("generate --check: " + d)
        if OUT.diffs:
            sys.exit("generate --check: %d generated file(s) differ from the committed fixtures; run "
                     "conformance/tools/generate.py and review the diff" % len(OUT.diffs))
        print("generate --check: every generated file matches the committed one")


if __name__ == "__main__":
    main()
