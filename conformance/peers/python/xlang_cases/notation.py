"""Value-notation helpers for the user-type corpus (spec/notation.md, N-4).

Three jobs:
  * builders that keep the case definitions short (S, E, Str, I32, ...);
  * notation -> Python objects for pyfory, using the case's type table;
  * the "loose" comparison form, computed from a notation document and from a
    decoded Python object graph, so a decoded value can be compared with the
    value that was written (wire types erased, sets/maps unordered, shared
    objects as anchor/ref in a fixed traversal order).  JavaToLoose.java prints
    the same form for objects decoded by Java.
"""

import enum
import json
import math
import struct as _struct

import pyfory
from pyfory.union import Union as _PyforyUnion

ANNOTATIONS = {"anchor", "tracked", "enc", "header", "chunks", "approx", "iso", "ns_enc", "name_enc",
               "ns_hash", "name_hash", "ns_xref", "name_xref", "ns_again", "name_again"}
INT_KEYS = {
    "int8", "int16", "int32", "varint32", "int64", "varint64", "tagged_int64",
    "uint8", "uint16", "uint32", "var_uint32", "uint64", "var_uint64", "tagged_uint64",
}
FLOAT_KEYS = {"float16", "bfloat16", "float32", "float64"}


# ---------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------

def S(type_name, fields=None, anchor=None, **kw):
    """A struct node; fields given as a dict (kept in insertion order) or kwargs."""
    f = dict(fields or {})
    f.update(kw)
    node = {"struct": {"type": type_name, "fields": f}}
    if anchor:
        node["anchor"] = anchor
    return node


def E(type_name, value):
    return {"enum": {"type": type_name, "value": value}}


def U(type_name, case, value):
    return {"union": {"type": type_name, "case": case, "value": value}}


def X(type_name, hex_bytes):
    return {"ext": {"type": type_name, "bytes": hex_bytes}}


def Ref(name):
    return {"ref": name}


NULL = {"null": None}


def Str(s):
    return {"string": s}


def Bool(b):
    return {"bool": b}


def _int(key):
    return lambda v: {key: str(v)}


I8, I16, I32, VI32, I64, VI64, TI64 = (
    _int("int8"), _int("int16"), _int("int32"), _int("varint32"), _int("int64"), _int("varint64"), _int("tagged_int64"))
U8, U16, U32, VU32, U64, VU64, TU64 = (
    _int("uint8"), _int("uint16"), _int("uint32"), _int("var_uint32"), _int("uint64"), _int("var_uint64"),
    _int("tagged_uint64"))


def F32(x):
    bits = _struct.unpack("<I", _struct.pack("<f", float(x)))[0]
    return {"float32": "0x%08x" % bits, "approx": repr(_struct.unpack("<f", _struct.pack("<f", float(x)))[0])}


def F64(x):
    bits = _struct.unpack("<Q", _struct.pack("<d", float(x)))[0]
    return {"float64": "0x%016x" % bits, "approx": repr(float(x))}


def F16(bits):
    return {"float16": "0x%04x" % bits, "approx": repr(f16_value(bits))}


def BF16(bits):
    return {"bfloat16": "0x%04x" % bits, "approx": repr(bf16_value(bits))}


def L(*items):
    return {"list": list(items)}


def SET(*items):
    return {"set": list(items)}


def M(*pairs):
    return {"map": [list(p) for p in pairs]}


def A32(*values):
    return {"int32_array": [str(v) for v in values]}


# ---------------------------------------------------------------------------
# Node access and float decoding
# ---------------------------------------------------------------------------

def type_key(node):
    keys = [k for k in node if k not in ANNOTATIONS]
    if len(keys) != 1:
        raise ValueError("node needs exactly one type key: %r" % (node,))
    return keys[0]


def f16_value(bits):
    return _struct.unpack("<e", _struct.pack("<H", bits))[0]


def bf16_value(bits):
    return _struct.unpack("<f", _struct.pack("<I", bits << 16))[0]


def float_value(key, text):
    if text.startswith("0x"):
        bits = int(text, 16)
        if key == "float64":
            return _struct.unpack("<d", _struct.pack("<Q", bits))[0]
        if key == "float32":
            return _struct.unpack("<f", _struct.pack("<I", bits))[0]
        if key == "float16":
            return f16_value(bits)
        return bf16_value(bits)
    d = float(text)
    if key == "float32":
        return _struct.unpack("<f", _struct.pack("<f", d))[0]
    if key == "float16":
        return _struct.unpack("<e", _struct.pack("<e", d))[0]
    if key == "bfloat16":
        raise ValueError("use the bit form for bfloat16")
    return d


def zigzag_varint32(hex_bytes):
    data = bytes.fromhex(hex_bytes)
    result = shift = 0
    for b in data:
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    return (result >> 1) ^ -(result & 1)


def varint32_hex(v):
    u = ((v << 1) ^ (v >> 31)) & 0xFFFFFFFF
    out = bytearray()
    while True:
        b = u & 0x7F
        u >>= 7
        if u:
            out.append(b | 0x80)
        else:
            out.append(b)
            return out.hex()


# ---------------------------------------------------------------------------
# Notation -> Python
# ---------------------------------------------------------------------------

class OrderedSet(set):
    """A set that iterates in insertion order, so pyfory writes the elements
    in the order the notation lists them (plain sets iterate in hash order)."""

    __slots__ = ("_order",)

    def __init__(self):
        set.__init__(self)
        self._order = []

    def add(self, item):
        if item not in self:
            self._order.append(item)
            set.add(self, item)

    def __iter__(self):
        return iter(self._order)


class ToPython:
    """Builds Python objects from notation. `types` maps a notation type name
    to a TypeEntry (see cases.py)."""

    def __init__(self, types):
        self.types = types
        self.anchors = {}

    def root(self, node):
        self.anchors = {}
        return self.convert(node)

    def _anchor(self, node, obj):
        if "anchor" in node:
            self.anchors[node["anchor"]] = obj

    def convert(self, node):
        key = type_key(node)
        v = node[key]
        if key == "ref":
            return self.anchors[v]
        if key in ("null", "none"):
            return None
        if key == "struct":
            entry = self.types[v["type"]]
            obj = entry.py()  # every field has a default
            self._anchor(node, obj)
            for name, child in v["fields"].items():
                object.__setattr__(obj, name, self.convert(child))
            return obj
        if key == "enum":
            return self.types[v["type"]].py(v["value"])
        if key == "ext":
            entry = self.types[v["type"]]
            obj = entry.py()
            obj.id = zigzag_varint32(v["bytes"])
            return obj
        if key == "union":
            entry = self.types[v["type"]]
            return entry.py(v["case"], self.convert(v["value"]))
        if key == "list":
            out = []
            self._anchor(node, out)
            out.extend(self.convert(c) for c in v)
            return out
        if key == "set":
            out = OrderedSet()
            self._anchor(node, out)
            for c in v:
                out.add(self.convert(c))
            return out
        if key == "map":
            out = {}
            self._anchor(node, out)
            for k, val in v:
                out[self.convert(k)] = self.convert(val)
            return out
        if key == "int32_array":
            return pyfory.Int32Array([int(x) for x in v])
        if key in INT_KEYS:
            return int(v)
        if key in FLOAT_KEYS:
            return float_value(key, v)
        if key == "string":
            return v
        if key == "bool":
            return v
        raise ValueError("unsupported node %r" % key)


# ---------------------------------------------------------------------------
# Loose comparison form
# ---------------------------------------------------------------------------

def _sort_key_of_loose_key(k):
    # Same rule as JavaToLoose.sortKey: null first, then by text.
    if k is None:
        return "0"
    if isinstance(k, bool):
        return "1" + ("true" if k else "false")
    return "1" + str(k)


def loose_from_notation(node):
    """Loose form of one root document."""
    anchored = {}  # anchor name -> node
    referenced = set()

    def scan(n):
        key = type_key(n)
        v = n[key]
        if "anchor" in n:
            anchored[n["anchor"]] = n
        if key == "ref":
            referenced.add(v)
        elif key == "struct":
            for c in v["fields"].values():
                scan(c)
        elif key == "union":
            scan(v["value"])
        elif key in ("list", "set"):
            for c in v:
                scan(c)
        elif key == "map":
            for k, val in v:
                scan(k)
                scan(val)

    scan(node)
    ids = {}
    counter = [1]

    def conv(n):
        key = type_key(n)
        v = n[key]
        if key == "ref":
            return {"ref": ids[v]}
        name = n.get("anchor")
        if name is not None and name in referenced:
            ids[name] = counter[0]
            counter[0] += 1
            return {"anchor": ids[name], "value": inner(key, v)}
        return inner(key, v)

    def inner(key, v):
        if key in ("null", "none"):
            return None
        if key == "struct":
            return {"struct": v["type"], "fields": {k: conv(v["fields"][k]) for k in sorted(v["fields"])}}
        if key == "enum":
            return {"enum": v["type"], "value": v["value"]}
        if key == "ext":
            return {"ext": v["type"], "bytes": v["bytes"]}
        if key == "union":
            return {"union": v["case"], "value": conv(v["value"])}
        if key == "list":
            return [conv(c) for c in v]
        if key == "set":
            return {"set": [conv(c) for c in v]}
        if key == "map":
            pairs = sorted(v, key=lambda p: _sort_key_of_loose_key(_plain_key(p[0])))
            return {"map": [[conv(k), conv(val)] for k, val in pairs]}
        if key.endswith("_array"):
            return [int(x) for x in v]
        if key in INT_KEYS:
            return int(v)
        if key in FLOAT_KEYS:
            return {"f": float_value(key, v)}
        if key in ("string", "bool"):
            return v
        raise ValueError("unsupported node %r" % key)

    return conv(node)


def _plain_key(node):
    key = type_key(node)
    v = node[key]
    if key in ("null", "none"):
        return None
    if key in INT_KEYS:
        return int(v)
    return v


def loose_from_python(obj, names):
    """Loose form of a decoded Python object graph. `names` maps a Python class
    to its notation type name."""
    counts = {}

    def trackable(o):
        return isinstance(o, (list, dict, set, frozenset)) or (
            type(o) in names and not isinstance(o, (enum.Enum, _PyforyUnion)) and not _is_ext(o, names))

    def fields_of(o):
        return sorted(_field_names(o))

    def count(o):
        if o is None:
            return
        if trackable(o):
            counts[id(o)] = counts.get(id(o), 0) + 1
            if counts[id(o)] > 1:
                return
        for c in children(o):
            count(c)

    def children(o):
        if isinstance(o, _PyforyUnion):
            return [o.value()]
        if isinstance(o, dict):
            out = []
            for k in sorted(o, key=_sort_key_of_loose_key):
                out += [k, o[k]]
            return out
        if isinstance(o, (list, set, frozenset, tuple)):
            return list(o)
        if type(o) in names and not isinstance(o, enum.Enum) and not _is_ext(o, names):
            return [getattr(o, f) for f in fields_of(o)]
        return []

    count(obj)
    ids = {}
    keep = []  # keep objects alive so id() stays unique
    counter = [1]

    def conv(o):
        if o is not None and trackable(o) and counts.get(id(o), 0) > 1:
            if id(o) in ids:
                return {"ref": ids[id(o)]}
            ids[id(o)] = counter[0]
            keep.append(o)
            counter[0] += 1
            return {"anchor": ids[id(o)], "value": inner(o)}
        return inner(o)

    def inner(o):
        if o is None:
            return None
        if isinstance(o, bool):
            return o
        if isinstance(o, enum.Enum):
            return {"enum": names.get(type(o), type(o).__name__), "value": o.value}
        if isinstance(o, int):
            return int(o)
        if isinstance(o, float):
            return {"f": float(o)}
        if isinstance(o, str):
            return o
        if isinstance(o, _PyforyUnion):
            return {"union": o.case_id(), "value": conv(o.value())}
        if _is_ext(o, names):
            return {"ext": names[type(o)], "bytes": varint32_hex(o.id)}
        if isinstance(o, dict):
            return {"map": [[conv(k), conv(o[k])] for k in sorted(o, key=_sort_key_of_loose_key)]}
        if isinstance(o, (set, frozenset)):
            return {"set": [conv(e) for e in o]}
        if isinstance(o, (list, tuple)):
            return [conv(e) for e in o]
        if type(o) in names:
            return {"struct": names[type(o)], "fields": {f: conv(getattr(o, f)) for f in fields_of(o)}}
        if hasattr(o, "tolist"):
            return [int(x) if not isinstance(x, float) else {"f": x} for x in o.tolist()]
        try:
            return [conv(e) for e in o]
        except TypeError:
            raise ValueError("no loose form for %r" % (o,))

    return conv(obj)


def _is_ext(o, names):
    return getattr(type(o), "_corpus_ext", False)


def _field_names(o):
    import dataclasses
    if dataclasses.is_dataclass(o):
        return [f.name for f in dataclasses.fields(o)]
    return list(vars(o))


def canonical(loose):
    """Canonical JSON text of a loose value: sets and maps sorted."""

    def canon(x):
        if isinstance(x, list):
            return [canon(e) for e in x]
        if isinstance(x, dict):
            if set(x) == {"set"}:
                items = [canon(e) for e in x["set"]]
                return {"set": sorted(items, key=lambda e: json.dumps(e, sort_keys=True))}
            if set(x) == {"map"}:
                items = [[canon(k), canon(v)] for k, v in x["map"]]
                return {"map": sorted(items, key=lambda e: json.dumps(e[0], sort_keys=True))}
            if set(x) == {"f"}:
                f = x["f"]
                if isinstance(f, float) and math.isnan(f):
                    return {"f": "nan"}
                return {"f": float(f)}
            return {k: canon(v) for k, v in x.items()}
        return x

    return json.dumps(canon(loose), sort_keys=True)
