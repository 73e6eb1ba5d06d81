"""Helpers for the value notation (spec/notation.md) used by the tests."""

import copy
import struct

TYPE_KEYS = frozenset(
    """null none bool int8 int16 int32 varint32 int64 varint64 tagged_int64
    uint8 uint16 uint32 var_uint32 uint64 var_uint64 tagged_uint64 float16
    bfloat16 float32 float64 string binary date timestamp duration decimal
    enum named_enum list set map ref bool_array int8_array int16_array
    int32_array int64_array uint8_array uint16_array uint32_array
    uint64_array float16_array bfloat16_array float32_array
    float64_array""".split()
)
# Printed for humans only; readers ignore them.
READABLE = frozenset({"approx", "iso"})
# Wire-choice annotations (N-3) plus "tracked" (N-2): dropped for a fresh
# encoding that must follow the writer policy.
CHOICES = frozenset({"enc", "header", "chunks", "tracked", "ns_enc", "name_enc", "ns_hash", "name_hash"}) | READABLE
ANNOTATIONS = CHOICES | {"anchor"}


def type_key(node):
    assert isinstance(node, dict), "node is not an object: %r" % (node,)
    keys = [k for k in node if k in TYPE_KEYS]
    unknown = [k for k in node if k not in TYPE_KEYS and k not in ANNOTATIONS]
    assert not unknown, "unknown keys %r in %r" % (unknown, node)
    assert len(keys) == 1, "node must have exactly one type key: %r" % (node,)
    return keys[0]


def _walk(node, fn):
    """Rebuilds node bottom-up; fn(node_copy_without_children_rebuilt)."""
    k = type_key(node)
    out = dict(node)
    if k in ("list", "set"):
        out[k] = [_walk(c, fn) for c in node[k]]
    elif k == "map":
        out[k] = [[_walk(a, fn), _walk(b, fn)] for a, b in node[k]]
    return fn(out)


def drop(node, keys):
    """A copy of node without the given annotation keys, at every depth."""
    return _walk(node, lambda n: {a: b for a, b in n.items() if a not in keys})


def strip_readable(node):
    return drop(node, READABLE)


def strip_choices(node):
    return drop(node, CHOICES)


def drop_untracked(node):
    """Drops `"tracked": false` (printed by `decode --ref`, N-2)."""
    return _walk(node, lambda n: {a: b for a, b in n.items() if not (a == "tracked" and b is False)})


def canon_anchors(node):
    """Renames anchors to a1, a2, ... in document order (names are local)."""
    names = {}

    def visit(n):
        n = dict(n)
        k = type_key(n)
        if "anchor" in n:
            names.setdefault(n["anchor"], "a%d" % (len(names) + 1))
            n["anchor"] = names[n["anchor"]]
        if k == "ref":
            n["ref"] = names.get(n["ref"], "?" + str(n["ref"]))
        elif k in ("list", "set"):
            n[k] = [visit(c) for c in n[k]]
        elif k == "map":
            n[k] = [[visit(a), visit(b)] for a, b in n[k]]
        return n

    return visit(node)


def canon(node):
    """Form used to compare a decoded node with an expected one."""
    return canon_anchors(strip_readable(node))


def has_key(node, key):
    found = []
    _walk(node, lambda n: found.append(key in n) or n)
    return any(found)


# ---------------------------------------------------------------------------
# Node builders.
# ---------------------------------------------------------------------------


def pyfory_string_enc(text):
    """pyfory 1.7.7 picks the encoding from CPython's string kind."""
    top = max((ord(c) for c in text), default=0)
    if top <= 0xFF:
        return "latin1"
    if top <= 0xFFFF:
        return "utf16"
    return "utf8"


def S(text, enc=None):
    """A string node as libwire prints pyfory's bytes (enc = pyfory's)."""
    return {"string": text, "enc": enc or pyfory_string_enc(text)}


def V(n):
    return {"varint64": str(n)}


def F64(value):
    return {"float64": "0x%016x" % struct.unpack("<Q", struct.pack("<d", value))[0]}


NULL = {"null": None}


def L(items, header, **ann):
    node = {"list": list(items)}
    if items:
        node["header"] = header
    node.update(ann)
    return node


def M(entries, chunks, **ann):
    node = {"map": [list(e) for e in entries]}
    if entries:
        node["chunks"] = [list(c) for c in chunks]
    node.update(ann)
    return node


# ---------------------------------------------------------------------------
# Byte helpers (independent of libwire).
# ---------------------------------------------------------------------------


def varuint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def string_body(text, enc):
    """Header and bytes of a STRING value in the given encoding."""
    if enc == "latin1":
        data, code = text.encode("latin-1"), 0
    elif enc == "utf16":
        data, code = text.encode("utf-16-le"), 1
    else:
        data, code = text.encode("utf-8"), 2
    return varuint(len(data) << 2 | code) + data


def copy_node(node):
    return copy.deepcopy(node)
