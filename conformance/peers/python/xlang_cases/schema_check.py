#!/usr/bin/env python3
"""Checks the FDL schemas in fixtures/schemas/xlang/ against the corpus bytes,
reading each schema the way fixtures/schemas/xlang/README.md says libwire
reads it (fory-compiler's parser, without its code-generation defaults, plus
the wire_* options):

  * compatible cases: every TypeDef in java_hex and pyfory_hex must list the
    fields that the schema gives (name or tag, type tree, nullable and ref
    bits), in the order of the field-order rule (format-facts F-STRUCT-1);
  * schema-consistent cases: the 4-byte schema hash that the schema gives
    (F-STRUCT-3) must appear in both buffers for every struct in the roots.

    python3 schema_check.py [CASE ...]     (prints one line per case, and the
                                           fingerprints with -v)
"""

import json
import os
import sys
import warnings

warnings.filterwarnings("ignore", message=".*ignoring unknown")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from fory_compiler.frontend.fdl.lexer import Lexer  # noqa: E402
from fory_compiler.frontend.fdl.parser import Parser  # noqa: E402
from fory_compiler.ir.ast import (  # noqa: E402
    ArrayType, Enum, ListType, MapType, Message, NamedType, PrimitiveType, Union,
)
from pyfory.lib import mmh3  # noqa: E402

import typedefs  # noqa: E402

REPO = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
SCHEMA_DIR = os.path.join(REPO, "fixtures", "schemas", "xlang")
CORPUS = os.path.join(REPO, "fixtures", "xlang-corpus")

TYPE_IDS = {v: k for k, v in typedefs.TYPE_NAMES.items()}
SCALARS = {
    ("bool", None): "bool", ("int8", None): "int8", ("int16", None): "int16",
    ("int32", None): "varint32", ("int32", "varint"): "varint32", ("int32", "fixed"): "int32",
    ("int64", None): "varint64", ("int64", "varint"): "varint64", ("int64", "fixed"): "int64",
    ("int64", "tagged"): "tagged_int64",
    ("uint8", None): "uint8", ("uint16", None): "uint16",
    ("uint32", None): "var_uint32", ("uint32", "varint"): "var_uint32", ("uint32", "fixed"): "uint32",
    ("uint64", None): "var_uint64", ("uint64", "varint"): "var_uint64", ("uint64", "fixed"): "uint64",
    ("uint64", "tagged"): "tagged_uint64",
    ("float16", None): "float16", ("bfloat16", None): "bfloat16", ("float32", None): "float32",
    ("float64", None): "float64", ("string", None): "string", ("bytes", None): "binary",
    ("date", None): "date", ("timestamp", None): "timestamp", ("duration", None): "duration",
    ("decimal", None): "decimal", ("any", None): "unknown",
}
PRIMITIVE_SIZES = {"bool": 1, "int8": 1, "int16": 2, "int32": 4, "varint32": 4, "int64": 8, "varint64": 8,
                   "tagged_int64": 8, "uint8": 1, "uint16": 2, "uint32": 4, "var_uint32": 4, "uint64": 8,
                   "var_uint64": 8, "tagged_uint64": 8, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8}
COMPRESSED = {"varint32", "var_uint32", "varint64", "var_uint64", "tagged_int64", "tagged_uint64"}


class Schema:
    def __init__(self, path):
        text = open(path).read()
        self.ast = Parser(Lexer(text, path).tokenize(), path).parse()
        opts = self.ast.options
        self.by_name_fields = bool(opts.get("wire_fields_by_name"))
        self.nullable_map_keys = bool(opts.get("wire_nullable_map_keys"))
        self.package = self.ast.package or ""
        # Namespace of types registered by name: wire_namespace, else the package, else foryc's "default".
        self.namespace = opts.get("wire_namespace", self.package or "default")
        self.auto_id = opts.get("enable_auto_type_id", True)
        self.types = {}
        for t in list(self.ast.enums) + list(self.ast.messages) + list(self.ast.unions):
            self.types[t.name] = t

    def full_name(self, t):
        """Notation / registration name: "ns.name", or "name" in the empty namespace."""
        if t.type_id is None:
            return "%s.%s" % (self.namespace, t.name) if self.namespace else t.name
        return "%s.%s" % (self.package, t.name) if self.package else t.name

    def by_name(self, t):
        return t.type_id is None

    def kind(self, t, compatible):
        """Type-id name a field of this user type carries in a TypeDef."""
        if isinstance(t, Enum):
            return "enum"
        if isinstance(t, Union):
            return "union"
        if t.options.get("wire_ext"):
            return "named_ext" if self.by_name(t) else "ext"
        evolving = t.options.get("evolving", True)
        if compatible and evolving:
            return "named_compatible_struct" if self.by_name(t) else "compatible_struct"
        return "named_struct" if self.by_name(t) else "struct"

    # -- type trees -------------------------------------------------------

    def node(self, ftype, compatible, nullable, ref, set_=False):
        """(type name, nullable, ref, children) for a field type."""
        if isinstance(ftype, PrimitiveType):
            name = SCALARS[(ftype.kind.value, ftype.encoding_modifier)]
            if name == "unknown":
                nullable = True
            return (name, nullable, ref, [])
        if isinstance(ftype, NamedType):
            return (self.kind(self.types[ftype.name], compatible), nullable, ref, [])
        if isinstance(ftype, ListType):
            el = self.node(ftype.element_type, compatible, ftype.element_optional, ftype.element_ref)
            return ("set" if set_ else "list", nullable, ref, [el])
        if isinstance(ftype, ArrayType):
            return ("%s_array" % SCALARS[(ftype.element_type.kind.value, None)].replace("var", "").lstrip("_")
                    .replace("int32_array", "int32_array"), nullable, ref, [])
        if isinstance(ftype, MapType):
            k = self.node(ftype.key_type, compatible, self.nullable_map_keys, False)
            v = self.node(ftype.value_type, compatible, ftype.value_optional, ftype.value_ref)
            return ("map", nullable, ref, [k, v])
        raise ValueError(ftype)

    def field_nodes(self, msg, compatible):
        out = []
        for f in msg.fields:
            ft = f.field_type
            nullable = f.optional
            if isinstance(ft, NamedType) and isinstance(self.types[ft.name], Message):
                nullable = f.options.get("nullable", True) is not False  # messages: nullable unless nullable=false
            name = f.options.get("wire_name", f.name)
            ident = name if self.by_name_fields else "#%d" % f.number
            out.append((ident, self.node(ft, compatible, nullable, f.ref, bool(f.options.get("wire_set")))))
        return out


def render(node, top=True):
    name, nullable, ref, children = node
    flags = "" if top else ("?" if nullable else "") + ("&" if ref else "")
    if name in ("list", "set"):
        return "%s%s<%s>" % (name, flags, render(children[0], False))
    if name == "map":
        return "%s%s<%s, %s>" % (name, flags, render(children[0], False), render(children[1], False))
    return name + flags


def field_order(fields):
    """F-STRUCT-1: (1) non-nullable primitives, (2) nullable primitives, (3) the rest;
    in (1)/(2) fixed before compressed, larger first, type id, identifier; (3) identifier."""
    def ident_key(ident):
        if ident.startswith("#"):
            return (0, int(ident[1:]), b"")
        return (1, 0, ident.encode())

    def key(item):
        ident, (name, nullable, _, _) = item
        if name in PRIMITIVE_SIZES:
            return (1 if nullable else 0, 1 if name in COMPRESSED else 0, -PRIMITIVE_SIZES[name],
                    TYPE_IDS[name], ident_key(ident))
        return (2, 0, 0, 0, ident_key(ident))
    return sorted(fields, key=key)


def fingerprint(fields):
    def fp(node, top):
        name, nullable, ref, children = node
        tid = TYPE_IDS[name]
        if name in ("enum", "named_enum", "struct", "named_struct", "compatible_struct", "named_compatible_struct",
                    "ext", "named_ext", "union", "typed_union", "named_union"):
            tid = 0
        s = "%d,%d,%d" % (tid, ref if top else 0, nullable if top else 0)
        if name in ("list", "set"):
            s += "[%s]" % fp(children[0], False)
        elif name == "map":
            s += "[%s|%s]" % (fp(children[0], False), fp(children[1], False))
        return s

    def ident_key(ident):
        return (0, int(ident[1:]), b"") if ident.startswith("#") else (1, 0, ident.encode())
    parts = sorted(fields, key=lambda f: ident_key(f[0]))
    return "".join("%s,%s;" % (ident.lstrip("#"), fp(node, True)) for ident, node in parts)


def schema_hash(fp):
    lane0 = mmh3.hash_buffer(fp.encode(), 47)[0]
    return (lane0 & 0xFFFFFFFF).to_bytes(4, "little")


def expected_typedef(schema, msg, compatible):
    fields = field_order(schema.field_nodes(msg, compatible))
    return ["%s %s nullable=%d ref=%d" % (ident, render(node), node[1], node[2]) for ident, node in fields]


def decoded_fields(text):
    out = []
    for line in text.splitlines()[2:]:
        parts = line.split()
        if parts[0] != "field":
            continue
        out.append("%s %s nullable=%s ref=%s" % (parts[1], " ".join(parts[2:-5]), parts[-5].split("=")[1],
                                                 parts[-4].split("=")[1]))
    return out


def registration(text):
    line = text.splitlines()[1]
    if ", id " in line:
        return ("id", int(line.split(", id ")[1].split(",")[0]))
    names = line.split("name ")[1].split(",")[0]
    ns, tn = [p.split("(")[0].strip() for p in names.split(" / ")]
    return ("name", "%s.%s" % (ns, tn) if ns else tn)


def check_case(case, verbose=False):
    doc = json.load(open(os.path.join(CORPUS, case + ".json")))
    schema = Schema(os.path.join(SCHEMA_DIR, case + ".fdl"))
    compatible = doc["mode"] == "compatible"
    problems, lines = [], []
    messages = [t for t in schema.types.values() if isinstance(t, Message) and not t.options.get("wire_ext")]
    if compatible:
        for which in ("java", "pyfory"):
            data = bytes.fromhex(doc[which + "_hex"] or "")
            seen = 0
            for off, text in typedefs.scan(data):
                if not text.splitlines()[1].lstrip().startswith("struct"):
                    continue
                kind, key = registration(text)
                msg = next((m for m in messages if (kind == "id" and m.type_id == key) or
                            (kind == "name" and schema.full_name(m) == key)), None)
                if msg is None:
                    problems.append("%s: TypeDef at %d for %s %s is not in the schema" % (which, off, kind, key))
                    continue
                seen += 1
                exp, got = expected_typedef(schema, msg, compatible), decoded_fields(text)
                if exp != got:
                    problems.append("%s: TypeDef of %s at %d: schema gives %s, bytes have %s" % (
                        which, msg.name, off, exp, got))
            if not seen and any(True for m in messages):
                lines.append("%s: no struct TypeDef found" % which)
    else:
        for msg in messages:
            fp = fingerprint(schema.field_nodes(msg, False))
            h = schema_hash(fp)
            used = msg.name in json.dumps(doc["roots"]) or schema.full_name(msg) in json.dumps(doc["roots"])
            if verbose:
                lines.append("%s fingerprint %r hash %s" % (msg.name, fp, h.hex()))
            if not used:
                continue
            for which in ("java", "pyfory"):
                if h.hex() not in (doc[which + "_hex"] or ""):
                    problems.append("%s: schema hash %s of %s (fingerprint %r) not found" % (which, h.hex(), msg.name, fp))
    return problems, lines


def main():
    verbose = "-v" in sys.argv
    names = [a for a in sys.argv[1:] if a != "-v"]
    if not names:
        names = sorted(f[:-5] for f in os.listdir(CORPUS) if f.endswith(".json"))
    bad = 0
    for n in names:
        problems, lines = check_case(n, verbose)
        print("%-58s %s" % (n, "ok" if not problems else "MISMATCH"))
        for l in lines:
            print("    " + l)
        for p in problems:
            print("    " + p)
        bad += bool(problems)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
