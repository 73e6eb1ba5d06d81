#!/usr/bin/env python3
"""Conformance testee for the Python binding (conformance/PROTOCOL.md).

    wire conform --testee "python3 bindings/python/libwire_testee.py"

Speaks the JSON-lines protocol on stdin/stdout: a hello line, then one
response per request line ("decode": payload hex -> notation values;
"encode": notation values -> payload hex). It works on the binding's
node-level API (libwire.Document, ctypes over the functions the
extension module libwire._native exports), which keeps every wire type and
wire choice, so decoding and re-encoding is exact; libwire.notation prints and
parses the notation with libwire's own C implementation.

Options:
  --capabilities a,b,...   the capability tags to claim (default: all the
                           features the binding supports, CAPABILITIES)

Schemas named in a request are resolved against the working directory,
then against the repository root (two levels above this file).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))

# Every feature tag of fixtures/schema.json: the binding supports them all
# (the node-level API exposes the whole of libwire).
CAPABILITIES = [
    "bfloat16", "compatible", "decimal", "dense_array", "enum", "ext",
    "float16", "meta_string", "named_types", "ref_tracking", "schema",
    "struct", "temporal", "typedef", "union", "unsigned", "evolution", "peer",
]


def _args(argv):
    caps = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--capabilities" and i + 1 < len(argv):
            caps = [c for c in argv[i + 1].split(",") if c]
            i += 2
        else:
            sys.stderr.write("libwire_testee: unknown argument %r\n" % a)
            sys.exit(2)
    return caps


class BadRequest(Exception):
    pass


def _schema_path(p):
    if not isinstance(p, str):
        raise BadRequest("schemas must be strings")
    if os.path.isabs(p) or os.path.exists(p):
        return p
    alt = os.path.join(REPO, p)
    return alt if os.path.exists(alt) else p


class Testee:
    def __init__(self, libwire):
        self.lw = libwire
        from libwire import notation
        self.notation = notation
        self.contexts = {}

    def context(self, req):
        cfg = req.get("config") or {}
        if not isinstance(cfg, dict):
            raise BadRequest("config must be an object")
        ref, comp = cfg.get("ref", False), cfg.get("compatible", False)
        if not isinstance(ref, bool) or not isinstance(comp, bool):
            raise BadRequest("config.ref and config.compatible must be "
                             "booleans")
        peer = cfg.get("peer")
        if peer not in (None, "java", "pyfory", "go"):
            raise BadRequest("config.peer must be java, pyfory or go")
        schemas = req.get("schemas") or []
        if not isinstance(schemas, list):
            raise BadRequest("schemas must be an array")
        paths = tuple(_schema_path(s) for s in schemas)
        key = (ref, comp, peer, paths)
        ctx = self.contexts.get(key)
        if ctx is None:
            ctx = self.lw.Context(ref=ref, compatible=comp)
            ctx.peer = peer
            for p in paths:
                ctx.load_schema(p)
            if len(self.contexts) > 64:
                self.contexts.clear()
            self.contexts[key] = ctx
        return ctx, ref

    def handle(self, req):
        op = req.get("op")
        ctx, ref = self.context(req)
        if op == "decode":
            hx = req.get("hex")
            if not isinstance(hx, str):
                raise BadRequest("decode needs \"hex\"")
            try:
                data = bytes.fromhex(hx)
            except ValueError:
                raise BadRequest("\"hex\" is not hex text") from None
            doc = self.lw.Document.decode(ctx, data)
            try:
                if req.get("project") is True:
                    # Read each root struct as the reader schema's version
                    # of its type (conformance/PROTOCOL.md, "evolution").
                    vals = []
                    for i in range(len(doc)):
                        root = doc.root(i)
                        if not 27 <= root.type <= 30:
                            continue
                        ti = doc.user_type(root)
                        if ti is None:
                            continue
                        vals.append(self.notation.node_notation(
                            doc, doc.project(root, ti), ref))
                    return {"values": vals}
                return {"values": [self.notation.to_notation(doc, i, ref)
                                   for i in range(len(doc))]}
            finally:
                doc.close()
        if op == "encode":
            values = req.get("values")
            if not isinstance(values, list):
                raise BadRequest("encode needs \"values\"")
            doc = ctx.document()
            try:
                for v in values:
                    self.notation.add_notation_root(doc, v)
                return {"hex": doc.encode().hex()}
            finally:
                doc.close()
        raise BadRequest("unknown op %r" % (op,))


def main(argv):
    caps = _args(argv)
    # the package beside this file, or another build of it (tests)
    sys.path.insert(0, os.environ.get("LIBWIRE_PKG_DIR") or HERE)
    import libwire
    out = sys.stdout
    hello = {"hello": {"name": "libwire-python", "version": libwire.__version__,
                       "runtime": "libwire " + libwire.version(),
                       "capabilities": CAPABILITIES if caps is None else caps}}
    out.write(json.dumps(hello) + "\n")
    out.flush()
    t = Testee(libwire)
    for line in sys.stdin:
        if not line.strip():
            continue
        rid = None
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise BadRequest("a request is a JSON object")
            rid = req.get("id")
            resp = {"id": rid, "ok": True}
            resp.update(t.handle(req))
        except libwire.WireError as e:
            resp = {"id": rid, "ok": False, "class": e.cls,
                    "message": e.message}
            if e.offset is not None:
                resp["offset"] = e.offset
        except (BadRequest, ValueError) as e:
            resp = {"id": rid, "ok": False, "class": "arg", "message": str(e)}
        except RecursionError:
            resp = {"id": rid, "ok": False, "class": "depth",
                    "message": "nesting too deep for the testee"}
        out.write(json.dumps(resp, ensure_ascii=True) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
