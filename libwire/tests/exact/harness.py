"""The exactness harness (issue 11): user models written by pyfory 1.7.7,
Fory Java 1.6.0 and Fory Go 1.6.1 (models_py.py, ExactWriter.java,
gowriter/), read by the wire CLI with and without a schema, written again,
compared byte for byte, and libwire's fresh encoding read back by the
runtime that wrote the payload.

    python3 libwire/tests/exact/harness.py [--wire build/bin/wire] [RUNTIME...]

prints one line per payload and check, and the totals. The pytest module
libwire/tests/py/test_exact.py runs the same checks.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
JAR = os.path.join(REPO, "conformance", "peers", "java", "target", "fory-java-peer.jar")
GO = os.environ.get("GO") or shutil.which("go") or "/usr/local/go/bin/go"
SCHEMAS = os.path.join(REPO, "fixtures", "schemas", "exact")
RUNTIMES = ("pyfory", "java", "go")

# The root type of each model (namespace ex).
ROOTS = {"order": "Order", "media": "MediaContent", "sample": "Sample", "samples": "SampleList",
         "tree": "Node", "person": "Person", "nested": "Outer", "empty": "HasEmpty",
         "optionals": "Optionals", "any": "Holder", "camel": "Camel", "evo": "Evo",
         "shared": "SharedLists", "refoff": "RefOff", "reflist": "Route",
         "longname": "LongNamedStructForTheLongNamesCheck",
         "ulist": "UHolder", "umap": "UHolder", "ulabel": "UHolder",
         "blobs": "Blobs", "mapfixed": "Inventory", "shapes": "Shapes",
         "nests": "Nests", "nullarrays": "NullArrays", "reflistoff": "RefListOff",
         "nestedref": "Outer", "words": "Words", "nulls": "Nulls"}
# errata E-58 (R-FIELD-3): a compatible-mode field declared as struct A
# holding an int, a string, a list, a struct B, an enum or NONE, types by
# id (fitid_*, fit_id.fdl) or by name (fitname_*, fit_name.fdl); pyfory
# only (no other runtime writes one), compatible mode only (the field has
# type meta only there). No plain check: plain JSON cannot say that the
# field holds something other than an A, so encode --plain refuses it.
FIT_VALUES = ("int", "str", "list", "struct", "enum", "none")
FIT_MODELS = {"fit%s_%s" % (by, v) for by in ("id", "name") for v in FIT_VALUES}
ROOTS.update({m: "H" for m in FIT_MODELS})
# Union cases of list and map type, through the code foryc generates from
# fixtures/schemas/exact/union.fdl for pyfory and for Java.
UNION_MODELS = {"ulist", "umap", "ulabel"}
# The shapes of the upstream compiler's collection.fdl and example.fdl, in
# fixtures/schemas/exact/shapes.fdl (foryc's code for pyfory and Java).
SHAPES_MODELS = {"shapes"}
# The FDL files whose foryc-generated Java classes ExactWriter uses.
JAVA_FORYC = ("union.fdl", "shapes.fdl")


# Models written with a buffer callback (out-of-band buffers, spec
# 1.12.1): pyfory and Java (Fory Go 1.6.1 announces buffers but writes
# every body in band, errata E-48).
OOB_MODELS = {"blobs"}


# Models only the Java writer has: map<string, M> with M not evolving, in
# compatible mode (issue 11 item 3); the Java cases of errata E-54 (nests:
# unannotated generic elements under reference tracking), E-55
# (nullarrays: @Nullable primitive arrays) and E-56 (reflistoff: List<@Ref
# T> without reference tracking).
JAVA_MODELS = {"mapfixed", "nests", "nullarrays", "reflistoff"}
# Models of the Java and the Go writer: errata E-52 (nestedref: a struct
# field held by value, under reference tracking; Java writes the
# specification's form, Go a flag before the field, R-PEER-3).
JAVA_GO_MODELS = {"nestedref"}

# Models only the Go writer has: UTF-8 strings that Fory Java 1.6.0
# misreads in one payload (errata E-53; Java cannot read back its own
# bytes of them, and pyfory writes UTF-16), and a list of interface values
# that are all nil (errata E-57: no element type; Java writes an element
# type no runtime reads, pyfory one Java and Go do not read).
GO_MODELS = {"words", "nulls"}


def models(runtime):
    """The models a runtime's writer writes (Go slices cannot be shared)."""
    return sorted(m for m in ROOTS if not (runtime == "go" and m == "shared") and
                  not (runtime == "go" and m in UNION_MODELS | SHAPES_MODELS) and
                  not (runtime == "go" and m in OOB_MODELS) and
                  not (runtime != "java" and m in JAVA_MODELS) and
                  not (runtime == "pyfory" and m in JAVA_GO_MODELS) and
                  not (runtime != "go" and m in GO_MODELS) and
                  not (runtime != "pyfory" and m in FIT_MODELS))


def modes(model):
    """The modes a model is written in."""
    return ("compat",) if model in FIT_MODELS else ("compat", "same")


def checks(model):
    """The checks a model's payloads get (CHECKS less plain for FIT_MODELS)."""
    return tuple(c for c in CHECKS if not (c == "plain" and model in FIT_MODELS))


class Payload(bytes):
    """A payload and the out-of-band buffers it reads (a bytes object, so
    that everything else handles it as the payload)."""
    buffers = ()


def with_buffers(data, buffers):
    p = Payload(data)
    p.buffers = list(buffers)
    return p


def buffers_of(data):
    return list(getattr(data, "buffers", ()))


def parse_payload(text):
    """'HEX [BUFFER ...]' (an empty buffer is '-') as a Payload."""
    hx, *bufs = text.split()
    return with_buffers(bytes.fromhex(hx), [bytes.fromhex(b.strip("-")) for b in bufs])


def format_payload(data):
    return " ".join([data.hex()] + [b.hex() or "-" for b in buffers_of(data)])


# Models written with reference tracking on.
REF = {"order", "shared", "reflist", "nests", "nestedref"}


def _lines(text):
    out = {}
    for line in text.splitlines():
        if line.strip():
            k, v = line.split(None, 1)
            out[k] = v
    return out


class Java:
    """ExactWriter compiled once; `write` and `read` run one JVM each."""

    def __init__(self):
        if not os.path.exists(JAR):
            raise RuntimeError("build the Java peer first (bash .ci/setup): %s" % JAR)
        self.tmp = tempfile.mkdtemp(prefix="wire-exact-java-")
        # the union classes foryc (fory-compiler 1.7.7) generates for Java
        gen = os.path.join(self.tmp, "gen")
        srcs = [os.path.join(HERE, "ExactWriter.java")]
        for fdl in JAVA_FORYC:
            subprocess.run(["foryc", "--java_out", gen, os.path.join(SCHEMAS, fdl)], check=True,
                           capture_output=True, text=True, timeout=120)
        for d, _dirs, files in os.walk(gen):
            srcs += [os.path.join(d, f) for f in sorted(files) if f.endswith(".java")]
        subprocess.run(["javac", "-nowarn", "-d", self.tmp, "-cp", JAR] + srcs,
                       check=True, capture_output=True, text=True)

    def _run(self, args, stdin=""):
        p = subprocess.run(["java", "-cp", self.tmp + os.pathsep + JAR, "ExactWriter"] + args,
                           input=stdin, capture_output=True, text=True, timeout=300)
        if p.returncode != 0:
            raise RuntimeError("ExactWriter %s failed: %s" % (args, p.stderr[-2000:]))
        return _lines(p.stdout)

    def payloads(self):
        return {k: parse_payload(v) for k, v in self._run([]).items()}

    def read_back(self, items):
        return self._run(["--read"], "".join("%s %s\n" % (k, format_payload(b))
                                             for k, b in items.items()))


class Go:
    def __init__(self):
        self.dir = os.path.join(HERE, "gowriter")
        self.bin = os.path.join(tempfile.mkdtemp(prefix="wire-exact-go-"), "gowriter")
        env = dict(os.environ, GOFLAGS="-mod=mod")
        subprocess.run([GO, "build", "-o", self.bin, "."], cwd=self.dir, check=True,
                       capture_output=True, text=True, env=env, timeout=600)

    def _run(self, args, stdin=""):
        p = subprocess.run([self.bin] + args, input=stdin, capture_output=True, text=True,
                           timeout=120)
        if p.returncode != 0:
            raise RuntimeError("gowriter %s failed: %s" % (args, p.stderr[-2000:]))
        return _lines(p.stdout)

    def payloads(self):
        return {k: parse_payload(v) for k, v in self._run([]).items()}

    def read_back(self, items):
        return self._run(["--read"], "".join("%s %s\n" % (k, format_payload(b))
                                             for k, b in items.items()))


class Pyfory:
    def __init__(self):
        sys.path.insert(0, HERE)
        import models_py
        self.m = models_py

    def payloads(self):
        return self.m.payloads()

    def read_back(self, items):
        return {k: self.m.read_back(k, b) for k, b in items.items()}


def peer(runtime):
    return {"pyfory": Pyfory, "java": Java, "go": Go}[runtime]()


class Wire:
    def __init__(self, path):
        self.path = path

    def run(self, args, data):
        """Runs the CLI; a payload's out-of-band buffers go in as files
        (--buffers), and an encode's come back on its output (Payload)."""
        tmp = tempfile.mkdtemp(prefix="wire-exact-buffers-")
        try:
            extra = []
            if args[0] in ("decode", "dump", "schema") and buffers_of(data):
                for i, b in enumerate(buffers_of(data)):
                    with open(os.path.join(tmp, "in.%d" % i), "wb") as f:
                        f.write(b)
                extra = ["--buffers", os.path.join(tmp, "in")]
            if args[0] == "encode":
                extra = ["--buffers", os.path.join(tmp, "out")]
            p = subprocess.run([self.path] + args + extra, input=bytes(data), capture_output=True,
                               timeout=60)
            if p.returncode < 0:
                raise AssertionError("wire crashed (signal %d): %s" % (-p.returncode, args))
            if args[0] == "encode" and p.returncode == 0:
                bufs = []
                while os.path.exists(os.path.join(tmp, "out.%d" % len(bufs))):
                    with open(os.path.join(tmp, "out.%d" % len(bufs)), "rb") as f:
                        bufs.append(f.read())
                p.stdout = with_buffers(p.stdout, bufs)
            return p
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def ok(self, args, data):
        p = self.run(args, data)
        if p.returncode != 0:
            raise CheckFailed("wire %s: %s" % (" ".join(args), p.stderr.decode(errors="replace").strip()))
        return p.stdout


class CheckFailed(Exception):
    pass


def root_type(key):
    m = model_of(key)
    ns = "longnamespace.forthemetastrings." if m == "longname" else \
        "exu." if m in UNION_MODELS else "exs." if m in SHAPES_MODELS else \
        "exf." if m in FIT_MODELS else "ex."
    return ns + ROOTS[m]


def model_of(key):
    return key.split(".")[0]


def mode_args(key):
    return ["--compatible"] if key.endswith(".compat") else ["--same-schema"]


def ref_args(key):
    return ["--ref"] if model_of(key) in REF else []


def schema_args(runtime, key):
    """The FDL a user of `runtime` writes for the model (schemas/RUNTIME.fdl;
    the long-named type has a package of its own, schemas/long.fdl)."""
    if model_of(key) in UNION_MODELS:
        return ["--schema", os.path.join(SCHEMAS, "union.fdl")]
    if model_of(key) in SHAPES_MODELS:
        return ["--schema", os.path.join(SCHEMAS, "shapes.fdl")]
    if model_of(key) in FIT_MODELS:
        return ["--schema", os.path.join(SCHEMAS, "fit_%s.fdl" % model_of(key)[3:].split("_")[0])]
    out = ["--schema", os.path.join(SCHEMAS, "%s.fdl" % runtime)]
    if model_of(key) == "longname":
        out += ["--schema", os.path.join(SCHEMAS, "long.fdl")]
    return out


def check_no_schema(wire, runtime, key, data):
    """Compatible payloads: decode without a schema, encode, same bytes
    (--peer says who wrote them). A union case of list or map type is
    written with the case's declared types, which only a schema has: then
    decoding without one must fail, saying so."""
    if model_of(key) in ("ulist", "umap", "shapes"):
        p = wire.run(["decode"] + peer_args(runtime), data)
        if p.returncode != 1 or b"needs a schema" not in p.stderr:
            raise CheckFailed("decoding without a schema: %r" % (p,))
        return
    text = wire.ok(["decode"] + ref_args(key) + peer_args(runtime), data)
    out = wire.ok(["encode"] + ref_args(key) + peer_args(runtime), text)
    same_payload(data, out)


def same_payload(data, out):
    """The bytes and the out-of-band buffers are the writer's."""
    if out != data:
        raise CheckFailed("decode | encode differs:\n  in  %s\n  out %s" % (data.hex(), out.hex()))
    if buffers_of(out) != buffers_of(data):
        raise CheckFailed("decode | encode gives other buffers:\n  in  %s\n  out %s" %
                          (format_payload(data), format_payload(out)))


def check_schema(wire, runtime, key, data):
    """With the user's schema: decode, encode, same bytes; and the decoded
    document names the schema's root type."""
    s = schema_args(runtime, key) + mode_args(key) + ref_args(key) + \
        peer_args(runtime)
    text = wire.ok(["decode"] + s, data)
    root = root_type(key)
    if json.loads(text.splitlines()[0]).get("struct", {}).get("type") != root:
        raise CheckFailed("root is not %s: %s" % (root, text[:200]))
    out = wire.ok(["encode"] + s, text)
    same_payload(data, out)


def peer_args(runtime):
    # WIRE_EXACT_NO_PEER=1: measure a wire without --peer (before issue 11)
    return [] if os.environ.get("WIRE_EXACT_NO_PEER") else ["--peer", runtime]


# The notation's record of wire choices (spec/notation.md): without them
# the encoder chooses afresh, as a writer of these values would.
CHOICES = {"enc", "header", "chunks", "ns_enc", "name_enc", "ns_hash", "name_hash", "ns_xref",
           "name_xref", "ns_again", "name_again", "tracked", "band"}


def strip_choices(v):
    if isinstance(v, dict):
        return {k: strip_choices(x) for k, x in v.items() if k not in CHOICES}
    if isinstance(v, list):
        return [strip_choices(x) for x in v]
    return v


def fresh(wire, runtime, key, data):
    """libwire's own encoding of the decoded values (the notation without
    its recorded wire choices; shared values stay shared), for the runtime
    to read back."""
    s = schema_args(runtime, key) + mode_args(key) + ref_args(key) + \
        peer_args(runtime)
    docs = [strip_choices(json.loads(line)) for line in wire.ok(["decode"] + s, data).splitlines()]
    return wire.ok(["encode"] + s, "\n".join(json.dumps(d) for d in docs).encode())


def plain(wire, runtime, key, data):
    """Plain JSON (decode --plain) written again through the schema: the
    values, without identity (plain JSON cannot say two fields are one
    object)."""
    s = schema_args(runtime, key) + mode_args(key) + ref_args(key) + \
        peer_args(runtime)
    text = wire.ok(["decode", "--plain"] + s, data)
    oob = ["--oob"] if model_of(key) in OOB_MODELS else []
    return wire.ok(["encode", "--plain", "--type", root_type(key)] + oob + s, text)


# What a v1 payload reads as with fixtures/schemas/exact/v2.fdl (--project --plain), and
# the writer's fields v2 has no place for (reported, never dropped silently).
PROJECTED = {
    "evo": ({"id": 7, "name": "seven", "count": 42, "added": ""}, ["old"]),
    "camel": ({"first_name": "Grace", "last_name": "Hopper", "birth_year": 1906,
               "is_active": True}, []),
}


def check_project(wire, runtime, key, data):
    args = ["decode", "--plain", "--project", "--schema", os.path.join(SCHEMAS, "v2.fdl")] + \
        mode_args(key) + peer_args(runtime)
    p = wire.run(args, data)
    if p.returncode != 0:
        raise CheckFailed("wire %s: %s" % (" ".join(args), p.stderr.decode().strip()))
    want, dropped = PROJECTED[model_of(key)]
    got = json.loads(p.stdout)
    if got != want:
        raise CheckFailed("projected %r, expected %r" % (got, want))
    err = p.stderr.decode()
    for f in dropped:
        if ('field "%s" has no field' % f) not in err:
            raise CheckFailed("no warning about the dropped field %s: %r" % (f, err))
    if not dropped and err:
        raise CheckFailed("unexpected warning: %r" % err)
    if dropped and wire.run(args + ["--strict"], data).returncode != 1:
        raise CheckFailed("--strict does not fail on the dropped field")


CHECKS = ("no-schema", "schema", "fresh", "plain", "project")


def run_all(wire, runtimes):
    """{(runtime, key, check): 'ok' | reason}"""
    res = {}
    for rt in runtimes:
        p = peer(rt)
        ps = p.payloads()
        fresh_bytes = {}
        for key, data in sorted(ps.items()):
            if key.endswith(".compat") and model_of(key) in PROJECTED:
                try:
                    check_project(wire, rt, key, data)
                    res[(rt, key, "project")] = "ok"
                except CheckFailed as e:
                    res[(rt, key, "project")] = str(e)
            if key.endswith(".compat"):
                try:
                    check_no_schema(wire, rt, key, data)
                    res[(rt, key, "no-schema")] = "ok"
                except CheckFailed as e:
                    res[(rt, key, "no-schema")] = str(e)
            try:
                check_schema(wire, rt, key, data)
                res[(rt, key, "schema")] = "ok"
            except CheckFailed as e:
                res[(rt, key, "schema")] = str(e)
            for check, fn in (("fresh", fresh), ("plain", plain)):
                if check not in checks(model_of(key)):
                    continue
                try:
                    k = key if check == "fresh" else key + ".plain"
                    fresh_bytes[k] = fn(wire, rt, key, data)
                except CheckFailed as e:
                    res[(rt, key, check)] = str(e)
        if fresh_bytes:
            for k, verdict in p.read_back(fresh_bytes).items():
                if k.endswith(".plain"):
                    res[(rt, k[:-6], "plain")] = verdict
                else:
                    res[(rt, k, "fresh")] = verdict
    return res


def main(argv):
    wire = "build/bin/wire"
    rts = []
    it = iter(argv)
    for a in it:
        if a == "--wire":
            wire = next(it)
        else:
            rts.append(a)
    res = run_all(Wire(os.path.abspath(wire)), rts or RUNTIMES)
    passed = 0
    for (rt, key, check), v in sorted(res.items()):
        passed += v == "ok"
        print("%-7s %-18s %-9s %s" % (rt, key, check, v.splitlines()[0][:160] if v else v))
    print("passed %d of %d" % (passed, len(res)))


if __name__ == "__main__":
    main(sys.argv[1:])
