#!/usr/bin/env python3
"""JSON-lines peer adapter that drives the real pyfory runtime.

Protocol (one JSON object per line on stdin, one per line on stdout):

  start   -> {"hello": {"name": "pyfory", "runtime": "pyfory", "version": V}}
  {"id": N, "op": "encode", "config": {...}, "values": [node, ...]}
          -> {"id": N, "ok": true, "hex": "..."}
  {"id": N, "op": "decode", "config": {...}, "hex": "..."}
          -> {"id": N, "ok": true, "values": [node, ...]}
  failure -> {"id": N, "ok": false, "class": "unsupported"|"error", "message": "..."}

Nodes use the value notation of spec/notation.md.  See README.md in this
directory for the mapping between notation and Python values, the
"pinning" mechanism used to make pyfory write exact wire types, and the
information pyfory loses on decode.

Command line options:
  --no-pin      do not pin wire types (int8 ... none, ordered sets); such
                nodes are answered with class "unsupported" instead
  --no-isolate  run pyfory in this process instead of a forked child per
                request (a pyfory crash then kills the peer)
  --timeout S   per-request time limit in isolated mode (default 60)
"""

import array
import dataclasses
import datetime
import decimal
import enum
import fractions
import json
import os
import select
import signal
import struct
import sys
import time

import pyfory
from pyfory.type_id import TypeId

import user_types

_S = pyfory.serialization


class Unsupported(Exception):
    """The value cannot be expressed with pyfory / Python values."""


class RequestError(Exception):
    """The request itself is malformed or semantically invalid."""


# ---------------------------------------------------------------------------
# Pinned wire types.
#
# pyfory picks the wire type of a root value from its Python class: int is
# always VARINT64, float always FLOAT64, None always the null flag.  The
# narrower types exist only as typing.Annotated hints for struct fields.
# pyfory's own type table (TypeResolver._types_info) maps each of those hints
# to a TypeInfo carrying the type id and pyfory's serializer for it.  A
# "pinned" value is an instance of a private subclass of int/float (or a
# marker object) that we add to that table as an alias of the hint's
# TypeInfo, so pyfory writes it with its own serializer and type id.
# ---------------------------------------------------------------------------

_INT_TYPES = {
    # key: (type id, min, max)
    "int8": (TypeId.INT8, -(1 << 7), (1 << 7) - 1),
    "int16": (TypeId.INT16, -(1 << 15), (1 << 15) - 1),
    "int32": (TypeId.INT32, -(1 << 31), (1 << 31) - 1),
    "varint32": (TypeId.VARINT32, -(1 << 31), (1 << 31) - 1),
    "int64": (TypeId.INT64, -(1 << 63), (1 << 63) - 1),
    "varint64": (TypeId.VARINT64, -(1 << 63), (1 << 63) - 1),
    "tagged_int64": (TypeId.TAGGED_INT64, -(1 << 63), (1 << 63) - 1),
    "uint8": (TypeId.UINT8, 0, (1 << 8) - 1),
    "uint16": (TypeId.UINT16, 0, (1 << 16) - 1),
    "uint32": (TypeId.UINT32, 0, (1 << 32) - 1),
    "var_uint32": (TypeId.VAR_UINT32, 0, (1 << 32) - 1),
    "uint64": (TypeId.UINT64, 0, (1 << 64) - 1),
    "var_uint64": (TypeId.VAR_UINT64, 0, (1 << 64) - 1),
    "tagged_uint64": (TypeId.TAGGED_UINT64, 0, (1 << 64) - 1),
}

_FLOAT_TYPES = {
    # key: (type id, exponent bits, mantissa bits, hex digits)
    "float16": (TypeId.FLOAT16, 5, 10, 4),
    "bfloat16": (TypeId.BFLOAT16, 8, 7, 4),
    "float32": (TypeId.FLOAT32, 8, 23, 8),
    "float64": (TypeId.FLOAT64, 11, 52, 16),
}


def _make_pinned_classes():
    classes = {}
    for key in _INT_TYPES:
        if key == "varint64":
            continue  # plain int already is VARINT64
        classes[key] = type("Pinned_" + key, (int,), {"__slots__": (), "wire": key})
    for key in ("float16", "bfloat16", "float32"):
        classes[key] = type("Pinned_" + key, (float,), {"__slots__": (), "wire": key})
    return classes


_PINNED = _make_pinned_classes()


class PinnedNone:
    """Stands for the NONE (36) value; pinned to pyfory's type(None) entry."""

    __slots__ = ()

    def __repr__(self):
        return "PinnedNone()"


class OrderedSet(set):
    """A set that iterates in insertion order, pinned to pyfory's set entry.

    pyfory's SetSerializer iterates the set with the Python iterator, so the
    elements are written in the order the notation lists them.
    """

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


class OrderedFrozenSet(frozenset):
    """Hashable counterpart of OrderedSet, for sets used as keys/elements."""

    __slots__ = ("_order",)

    def __new__(cls, items):
        self = frozenset.__new__(cls, items)
        self._order = list(items)
        return self

    def __iter__(self):
        return iter(self._order)


def _pin_types(fory):
    table = fory.type_resolver._types_info
    for key, cls in _PINNED.items():
        type_id = (_INT_TYPES.get(key) or _FLOAT_TYPES[key])[0]
        table[cls] = table[type_id]
    table[PinnedNone] = table[type(None)]
    table[OrderedSet] = table[set]
    table[OrderedFrozenSet] = table[set]


# ---------------------------------------------------------------------------
# Fory instances, cached per configuration.
# ---------------------------------------------------------------------------

_FORY_CACHE = {}


def _config_key(config, pin):
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise RequestError("config must be an object")
    ref = config.get("ref", False)
    compatible = config.get("compatible", False)
    if not isinstance(ref, bool) or not isinstance(compatible, bool):
        raise RequestError("config.ref and config.compatible must be booleans")
    return (ref, compatible, pin)


def get_fory(key):
    fory = _FORY_CACHE.get(key)
    if fory is None:
        ref, compatible, pin = key
        fory = pyfory.Fory(xlang=True, ref=ref, compatible=compatible)
        if pin:
            _pin_types(fory)
        _FORY_CACHE[key] = fory
    return fory


# ---------------------------------------------------------------------------
# Floats.
# ---------------------------------------------------------------------------


def _round_to_format(value, negative, ebits, mbits):
    """Bits of the binary float nearest to |value| (round half to even)."""
    sign = (1 << (ebits + mbits)) if negative else 0
    if value == 0:
        return sign
    bias = (1 << (ebits - 1)) - 1
    emin = 1 - bias
    exp_all_ones = (1 << ebits) - 1
    num, den = value.numerator, value.denominator
    e = num.bit_length() - den.bit_length()
    if fractions.Fraction(2) ** e > value:
        e -= 1
    if e < emin:
        e = emin
    scaled = value / (fractions.Fraction(2) ** (e - mbits))
    n = scaled.numerator // scaled.denominator
    rem = scaled - n
    half = fractions.Fraction(1, 2)
    if rem > half or (rem == half and n & 1):
        n += 1
    if n >> (mbits + 1):
        n >>= 1
        e += 1
    if n >> mbits:
        biased = e + bias
        mant = n - (1 << mbits)
    else:
        biased = 0
        mant = n
    if biased >= exp_all_ones:
        return sign | (exp_all_ones << mbits)
    return sign | (biased << mbits) | mant


def parse_float_bits(text, key):
    """Notation float string -> IEEE bits of the type named by key."""
    _, ebits, mbits, digits = _FLOAT_TYPES[key]
    if not isinstance(text, str):
        raise RequestError("%s value must be a string" % key)
    total = 1 + ebits + mbits
    s = text.strip().lower()
    if s.startswith("0x"):
        bits = int(s, 16)
        if bits >> total:
            raise RequestError("%s bit pattern %s too wide" % (key, text))
        return bits
    negative = s.startswith("-")
    body = s[1:] if s[:1] in "+-" else s
    exp_all_ones = (1 << ebits) - 1
    if body == "nan":
        return ((1 << (ebits + mbits)) if negative else 0) | (exp_all_ones << mbits) | (1 << (mbits - 1))
    if body in ("inf", "infinity"):
        return ((1 << (ebits + mbits)) if negative else 0) | (exp_all_ones << mbits)
    try:
        value = fractions.Fraction(body)
    except (ValueError, ZeroDivisionError):
        raise RequestError("bad %s value %r" % (key, text))
    return _round_to_format(value, negative, ebits, mbits)


def float64_from_bits(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def float64_bits(value):
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def float32_bits(value):
    return struct.unpack("<I", struct.pack("<f", value))[0]


def make_float(key, text, pin):
    bits = parse_float_bits(text, key)
    if key == "float64":
        return float64_from_bits(bits)
    if not pin:
        raise Unsupported("%s root/element values need wire-type pinning" % key)
    if key == "float32":
        value = struct.unpack("<f", struct.pack("<I", bits))[0]
        produced = float32_bits(value)
    elif key == "float16":
        value = _S._float16_from_bits(bits)
        produced = _S._float16_to_bits(value)
    else:
        value = _S._bfloat16_from_bits(bits)
        produced = _S._bfloat16_to_bits(value)
    if produced != bits:
        raise Unsupported(
            "pyfory cannot write %s bits 0x%x (a Python float round-trips to 0x%x)" % (key, bits, produced)
        )
    return _PINNED[key](value)


# ---------------------------------------------------------------------------
# Notation -> Python.
# ---------------------------------------------------------------------------

_ARRAY_INT_TYPES = {
    "int8_array": "Int8Array",
    "int16_array": "Int16Array",
    "int32_array": "Int32Array",
    "int64_array": "Int64Array",
    "uint8_array": "UInt8Array",
    "uint16_array": "UInt16Array",
    "uint32_array": "UInt32Array",
    "uint64_array": "UInt64Array",
}
_ARRAY_FLOAT_TYPES = {
    "float16_array": "float16",
    "bfloat16_array": "bfloat16",
    "float32_array": "float32",
    "float64_array": "float64",
}

TYPE_KEYS = (
    {"null", "none", "bool", "string", "binary", "date", "timestamp", "duration", "decimal"}
    | {"enum", "named_enum", "list", "set", "map", "bool_array", "ref", "struct", "union", "ext"}
    | set(_INT_TYPES)
    | set(_FLOAT_TYPES)
    | set(_ARRAY_INT_TYPES)
    | set(_ARRAY_FLOAT_TYPES)
)
ANNOTATION_KEYS = {"anchor", "enc", "header", "chunks", "approx", "iso", "tracked", "ns_enc", "name_enc",
                   "ns_hash", "name_hash", "ns_xref", "name_xref"}

_EPOCH_DATE = datetime.date(1970, 1, 1)
_EPOCH_ORDINAL = _EPOCH_DATE.toordinal()
_UTC = datetime.timezone.utc
_EPOCH_DT = datetime.datetime(1970, 1, 1, tzinfo=_UTC)


def _node_kind(node):
    if not isinstance(node, dict):
        raise RequestError("node must be a JSON object, got %r" % (node,))
    kinds = [k for k in node if k in TYPE_KEYS]
    unknown = [k for k in node if k not in TYPE_KEYS and k not in ANNOTATION_KEYS]
    if unknown:
        raise RequestError("unknown key(s) %s in node" % ", ".join(sorted(unknown)))
    if len(kinds) != 1:
        raise RequestError("node must have exactly one type key, got %s" % (kinds or "none"))
    kind = kinds[0]
    if kind == "ref" and len(node) != 1:
        raise RequestError("a ref node takes no other keys")
    return kind


def _parse_int(text, key):
    if not isinstance(text, str):
        raise RequestError("%s value must be a decimal string" % key)
    try:
        return int(text, 10)
    except ValueError:
        raise RequestError("bad %s value %r" % (key, text))


def _seconds_nanos(value, key):
    if not isinstance(value, dict) or set(value) != {"seconds", "nanos"}:
        raise RequestError("%s value must be {seconds, nanos}" % key)
    seconds = _parse_int(value["seconds"], key + ".seconds")
    nanos = value["nanos"]
    if isinstance(nanos, str):
        nanos = _parse_int(nanos, key + ".nanos")
    if isinstance(nanos, bool) or not isinstance(nanos, int) or not 0 <= nanos <= 999999999:
        raise RequestError("%s nanos must be an integer in 0..999999999" % key)
    if nanos % 1000:
        raise Unsupported("Python %s has microsecond precision; nanos=%d" % (key, nanos))
    return seconds, nanos


class Builder:
    """Builds the Python value for one root document."""

    def __init__(self, pin, enums=None):
        self.pin = pin
        self.anchors = {}
        self.enums = enums or {}

    def build(self, node, hashable=False):
        kind = _node_kind(node)
        if kind == "ref":
            name = node["ref"]
            if name not in self.anchors:
                raise RequestError("ref to unknown anchor %r" % (name,))
            obj = self.anchors[name]
            if hashable:
                try:
                    hash(obj)
                except TypeError:
                    raise Unsupported("shared %s used as map key / set element" % type(obj).__name__)
            return obj
        anchor = node.get("anchor")
        if anchor is not None and anchor in self.anchors:
            raise RequestError("duplicate anchor %r" % (anchor,))
        value = node[kind]
        if kind == "list" and not hashable:
            obj = []
            self._register(anchor, obj)
            if not isinstance(value, list):
                raise RequestError("list value must be an array")
            for item in value:
                obj.append(self.build(item))
            return obj
        if kind == "map":
            if hashable:
                raise Unsupported("a map cannot be a Python dict key or set element")
            obj = {}
            self._register(anchor, obj)
            if not isinstance(value, list):
                raise RequestError("map value must be an array of [key, value]")
            for entry in value:
                if not isinstance(entry, list) or len(entry) != 2:
                    raise RequestError("map entry must be [key, value]")
                k = self.build(entry[0], hashable=True)
                v = self.build(entry[1])
                if k in obj:
                    raise Unsupported("map keys collide as Python dict keys (e.g. 1 == 1.0 == True): %r" % (k,))
                obj[k] = v
            return obj
        if kind == "set" and not hashable:
            obj = OrderedSet() if self.pin else set()
            self._register(anchor, obj)
            if not isinstance(value, list):
                raise RequestError("set value must be an array")
            for item in value:
                e = self.build(item, hashable=True)
                if e in obj:
                    raise Unsupported("set elements collide as Python set members: %r" % (e,))
                obj.add(e)
            return obj
        obj = self._leaf(kind, value, hashable)
        self._register(anchor, obj)
        return obj

    def _register(self, anchor, obj):
        if anchor is not None:
            if not isinstance(anchor, str):
                raise RequestError("anchor must be a string")
            self.anchors[anchor] = obj

    def _leaf(self, kind, value, hashable):
        pin = self.pin
        if kind == "list":  # hashable context: tuple is written as LIST
            if not isinstance(value, list):
                raise RequestError("list value must be an array")
            return tuple(self.build(item, hashable=True) for item in value)
        if kind == "set":  # hashable context
            if not isinstance(value, list):
                raise RequestError("set value must be an array")
            items = [self.build(item, hashable=True) for item in value]
            obj = OrderedFrozenSet(items) if pin else frozenset(items)
            if len(obj) != len(items):
                raise Unsupported("set elements collide as Python set members")
            return obj
        if kind == "null":
            return None
        if kind == "none":
            if value is not None:
                raise RequestError("none value must be null")
            if not pin:
                raise Unsupported("NONE (36) values need wire-type pinning")
            return PinnedNone()
        if kind == "bool":
            if not isinstance(value, bool):
                raise RequestError("bool value must be true/false")
            return value
        if kind in _INT_TYPES:
            n = _parse_int(value, kind)
            _, lo, hi = _INT_TYPES[kind]
            if not lo <= n <= hi:
                raise RequestError("%s value %d out of range" % (kind, n))
            if kind == "varint64":
                return n
            if not pin:
                raise Unsupported("%s values need wire-type pinning" % kind)
            return _PINNED[kind](n)
        if kind in _FLOAT_TYPES:
            return make_float(kind, value, pin)
        if kind == "string":
            if not isinstance(value, str):
                raise RequestError("string value must be a JSON string")
            if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
                raise RequestError("string contains a surrogate code point (not a Unicode scalar value)")
            return value
        if kind == "binary":
            if not isinstance(value, str):
                raise RequestError("binary value must be a hex string")
            try:
                return bytes.fromhex(value)
            except ValueError:
                raise RequestError("bad binary hex %r" % (value,))
        if kind == "date":
            days = _parse_int(value, "date")
            try:
                return datetime.date.fromordinal(_EPOCH_ORDINAL + days)
            except (ValueError, OverflowError):
                raise Unsupported("date %d days is outside Python's date range (years 1..9999)" % days)
        if kind == "timestamp":
            seconds, nanos = _seconds_nanos(value, "timestamp")
            try:
                return _EPOCH_DT + datetime.timedelta(seconds=seconds, microseconds=nanos // 1000)
            except (ValueError, OverflowError):
                raise Unsupported("timestamp %d s is outside Python's datetime range" % seconds)
        if kind == "duration":
            seconds, nanos = _seconds_nanos(value, "duration")
            try:
                return datetime.timedelta(seconds=seconds, microseconds=nanos // 1000)
            except (ValueError, OverflowError):
                raise Unsupported("duration %d s is outside Python's timedelta range" % seconds)
        if kind == "decimal":
            if not isinstance(value, dict) or set(value) != {"unscaled", "scale"}:
                raise RequestError("decimal value must be {unscaled, scale}")
            unscaled = _parse_int(value["unscaled"], "decimal.unscaled")
            scale = value["scale"]
            if isinstance(scale, bool) or not isinstance(scale, int):
                raise RequestError("decimal scale must be an integer")
            if not -10000 <= scale <= 10000:
                raise Unsupported("pyfory 1.7.7 limits decimal scale to [-10000, 10000]; got %d" % scale)
            digits = tuple(int(c) for c in str(abs(unscaled)))
            if len(digits) > 24083:
                raise Unsupported("pyfory 1.7.7 limits decimal magnitude to 10000 bytes")
            return decimal.Decimal((1 if unscaled < 0 else 0, digits, -scale))
        if kind in ("enum", "named_enum"):
            key, member = _enum_key(kind, value)
            cls = self.enums.get(key)
            if cls is None:
                raise Unsupported("%s values need a registered Python Enum class" % kind)
            return cls["V%d" % member]
        if hashable:
            raise Unsupported("dense arrays are unhashable in Python (map key / set element)")
        if kind == "bool_array":
            if not isinstance(value, list) or not all(isinstance(v, bool) for v in value):
                raise RequestError("bool_array value must be an array of booleans")
            return _S.BoolArray(value)
        if kind in _ARRAY_INT_TYPES:
            if not isinstance(value, list):
                raise RequestError("%s value must be an array" % kind)
            nums = [_parse_int(v, kind) for v in value]
            try:
                return getattr(_S, _ARRAY_INT_TYPES[kind])(nums)
            except (OverflowError, TypeError) as e:
                raise RequestError("%s: %s" % (kind, e))
        if kind in _ARRAY_FLOAT_TYPES:
            if not isinstance(value, list):
                raise RequestError("%s value must be an array" % kind)
            fkey = _ARRAY_FLOAT_TYPES[kind]
            bits = [parse_float_bits(v, fkey) for v in value]
            if fkey == "float16":
                return _S.Float16Array.from_buffer(struct.pack("<%dH" % len(bits), *bits))
            if fkey == "bfloat16":
                return _S.BFloat16Array.from_buffer(struct.pack("<%dH" % len(bits), *bits))
            # array.array keeps the exact bit patterns (NaN payloads included).
            if fkey == "float32":
                arr = array.array("f")
                arr.frombytes(struct.pack("<%dI" % len(bits), *bits))
            else:
                arr = array.array("d")
                arr.frombytes(struct.pack("<%dQ" % len(bits), *bits))
            if sys.byteorder != "little":
                arr.byteswap()
            return arr
        raise RequestError("unhandled type key %s" % kind)


def _enum_key(kind, value):
    """(registration key, member value) of an enum / named_enum node."""
    if kind == "enum":
        if not isinstance(value, dict) or set(value) != {"type_id", "value"}:
            raise RequestError("enum value must be {type_id, value}")
        type_id, member = value["type_id"], value["value"]
        if isinstance(type_id, bool) or not isinstance(type_id, int) or not 0 <= type_id < (1 << 32):
            raise RequestError("enum type_id must be a uint32")
        key = ("id", type_id)
    else:
        if not isinstance(value, dict) or set(value) != {"namespace", "name", "value"}:
            raise RequestError("named_enum value must be {namespace, name, value}")
        ns, name, member = value["namespace"], value["name"], value["value"]
        if not isinstance(ns, str) or not isinstance(name, str):
            raise RequestError("named_enum namespace and name must be strings")
        if "." in name or not name:
            raise Unsupported("pyfory registers names as 'namespace.name'; a name containing '.' is ambiguous")
        key = ("name", ns, name)
    if isinstance(member, bool) or not isinstance(member, int) or not 0 <= member < (1 << 32):
        raise RequestError("enum value must be a uint32")
    return key, member


def collect_enums(node, found):
    """Gathers the members every enum type needs, before building values."""
    if isinstance(node, dict):
        for kind in ("enum", "named_enum"):
            if kind in node:
                key, member = _enum_key(kind, node[kind])
                found.setdefault(key, set()).add(member)
        for value in node.values():
            if isinstance(value, (dict, list)):
                collect_enums(value, found)
    elif isinstance(node, list):
        for item in node:
            collect_enums(item, found)
    return found


def register_enums(fory, found):
    """Creates and registers one Python Enum class per enum type.

    Member Vn has value n; pyfory's EnumSerializer writes the member value
    when all values are distinct non-negative ints (xlang mode).
    """
    classes = {}
    for i, (key, members) in enumerate(sorted(found.items(), key=repr)):
        cls = enum.Enum("PeerEnum%d" % i, [("V%d" % m, m) for m in sorted(members)])
        if key[0] == "id":
            fory.register_type(cls, type_id=key[1])
        else:
            _, ns, name = key
            fory.register_type(cls, name=("%s.%s" % (ns, name)) if ns else name)
        classes[key] = cls
    return classes


def _has_cycle(root):
    on_stack = set()
    done = set()

    def visit(obj):
        if isinstance(obj, dict):
            children = list(obj.keys()) + list(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            children = list(obj)
        else:
            return False
        oid = id(obj)
        if oid in on_stack:
            return True
        if oid in done:
            return False
        on_stack.add(oid)
        for child in children:
            if visit(child):
                return True
        on_stack.discard(oid)
        done.add(oid)
        return False

    return visit(root)


# ---------------------------------------------------------------------------
# Python -> notation.
# ---------------------------------------------------------------------------

def _is_shareable(obj):
    # Only fresh mutable containers are reported as shared; equal immutable
    # values (small ints, interned strings, b"") are often the same object.
    return isinstance(obj, (list, dict, set, array.array)) or isinstance(obj, _FORY_ARRAY_TYPES)


_FORY_ARRAY_TYPES = tuple(
    getattr(_S, n)
    for n in (
        "BoolArray",
        "Int8Array",
        "Int16Array",
        "Int32Array",
        "Int64Array",
        "UInt8Array",
        "UInt16Array",
        "UInt32Array",
        "UInt64Array",
        "Float16Array",
        "BFloat16Array",
        "Float32Array",
        "Float64Array",
    )
)
_FORY_ARRAY_KEYS = {
    "BoolArray": "bool_array",
    "Int8Array": "int8_array",
    "Int16Array": "int16_array",
    "Int32Array": "int32_array",
    "Int64Array": "int64_array",
    "UInt8Array": "uint8_array",
    "UInt16Array": "uint16_array",
    "UInt32Array": "uint32_array",
    "UInt64Array": "uint64_array",
    "Float16Array": "float16_array",
    "BFloat16Array": "bfloat16_array",
    "Float32Array": "float32_array",
    "Float64Array": "float64_array",
}
_PYARRAY_KEYS = {
    "b": "int8_array",
    "B": "uint8_array",
    "h": "int16_array",
    "H": "uint16_array",
    "i": "int32_array",
    "I": "uint32_array",
    "l": "int%d_array" % (8 * array.array("l").itemsize),
    "L": "uint%d_array" % (8 * array.array("L").itemsize),
    "q": "int64_array",
    "Q": "uint64_array",
    "f": "float32_array",
    "d": "float64_array",
}


class Printer:
    """Turns one decoded root value into a notation node."""

    def __init__(self, root):
        self.counts = {}
        self._count(root)
        self.names = {}
        self.active = set()

    def _children(self, obj):
        if isinstance(obj, dict):
            for k, v in obj.items():
                yield k
                yield v
        elif isinstance(obj, (list, tuple, set, frozenset)):
            for item in obj:
                yield item

    def _count(self, root):
        stack = [root]
        while stack:
            obj = stack.pop()
            if _is_shareable(obj):
                oid = id(obj)
                n = self.counts.get(oid, 0)
                self.counts[oid] = n + 1
                if n:
                    continue
            if isinstance(obj, (dict, list, tuple, set, frozenset)):
                stack.extend(reversed(list(self._children(obj))))

    def node(self, obj):
        shared = _is_shareable(obj) and self.counts.get(id(obj), 0) > 1
        if shared:
            name = self.names.get(id(obj))
            if name is not None:
                return {"ref": name}
            name = "a%d" % len(self.names)
            self.names[id(obj)] = name
        out = self._node(obj)
        if shared:
            out["anchor"] = name
        return out

    def _node(self, obj):
        if obj is None:
            return {"null": None}
        if isinstance(obj, PinnedNone):
            return {"none": None}
        if isinstance(obj, bool):
            return {"bool": obj}
        if isinstance(obj, int):
            wire = getattr(obj, "wire", None)
            if wire is not None:
                return {wire: str(int(obj))}
            if -(1 << 63) <= obj < (1 << 63):
                return {"varint64": str(obj)}
            if 0 <= obj < (1 << 64):
                return {"var_uint64": str(obj)}
            raise Unsupported("integer %d does not fit 64 bits" % obj)
        if isinstance(obj, float):
            wire = getattr(obj, "wire", None)
            if wire == "float32":
                return {"float32": "0x%08x" % float32_bits(obj)}
            if wire == "float16":
                return {"float16": "0x%04x" % _S._float16_to_bits(obj)}
            if wire == "bfloat16":
                return {"bfloat16": "0x%04x" % _S._bfloat16_to_bits(obj)}
            return {"float64": "0x%016x" % float64_bits(obj)}
        if isinstance(obj, str):
            return {"string": obj}
        if isinstance(obj, (bytes, bytearray)):
            return {"binary": bytes(obj).hex()}
        if isinstance(obj, (list, tuple)):
            return {"list": [self.node(item) for item in obj]}
        if isinstance(obj, (set, frozenset)):
            return {"set": [self.node(item) for item in obj]}
        if isinstance(obj, dict):
            return {"map": [[self.node(k), self.node(v)] for k, v in obj.items()]}
        if isinstance(obj, datetime.datetime):
            if obj.tzinfo is None:
                obj = obj.replace(tzinfo=_UTC)
            delta = obj - _EPOCH_DT
            seconds = delta.days * 86400 + delta.seconds
            return {"timestamp": {"seconds": str(seconds), "nanos": delta.microseconds * 1000}}
        if isinstance(obj, datetime.date):
            return {"date": str(obj.toordinal() - _EPOCH_ORDINAL)}
        if isinstance(obj, datetime.timedelta):
            seconds = obj.days * 86400 + obj.seconds
            return {"duration": {"seconds": str(seconds), "nanos": obj.microseconds * 1000}}
        if isinstance(obj, decimal.Decimal):
            sign, digits, exponent = obj.as_tuple()
            if not isinstance(exponent, int):
                raise Unsupported("non-finite Decimal %s" % obj)
            unscaled = int("".join(map(str, digits)) or "0")
            if sign:
                unscaled = -unscaled
            return {"decimal": {"unscaled": str(unscaled), "scale": -exponent}}
        if isinstance(obj, _FORY_ARRAY_TYPES):
            key = _FORY_ARRAY_KEYS[type(obj).__name__]
            if key == "bool_array":
                return {key: [bool(v) for v in obj]}
            if key in ("float16_array", "bfloat16_array"):
                return {key: ["0x%04x" % b for b in obj.to_buffer()]}
            if key == "float32_array":
                return {key: ["0x%08x" % float32_bits(v) for v in obj.to_buffer()]}
            if key == "float64_array":
                return {key: ["0x%016x" % float64_bits(v) for v in obj.to_buffer()]}
            return {key: [str(int(v)) for v in obj]}
        if isinstance(obj, array.array):
            key = _PYARRAY_KEYS.get(obj.typecode)
            if key is None:
                raise Unsupported("array.array typecode %r" % obj.typecode)
            if obj.typecode == "f":
                return {key: ["0x%08x" % float32_bits(v) for v in obj]}
            if obj.typecode == "d":
                return {key: ["0x%016x" % float64_bits(v) for v in obj]}
            return {key: [str(v) for v in obj]}
        raise Unsupported("no notation for decoded Python type %s.%s" % (type(obj).__module__, type(obj).__qualname__))


# ---------------------------------------------------------------------------
# Operations.
# ---------------------------------------------------------------------------


def _classify(exc):
    if isinstance(exc, Unsupported):
        return "unsupported"
    if isinstance(exc, user_types.SchemaError):
        return "idl"
    if isinstance(exc, RequestError):
        return "error"
    name = type(exc).__name__
    if name in ("TypeUnregisteredError", "ForyUnsupportedError") or isinstance(exc, NotImplementedError):
        return "unsupported"
    if isinstance(exc, TypeError) and "unhashable" in str(exc):
        return "unsupported"
    if isinstance(exc, ValueError) and str(exc).startswith("Unexpected user_type_id"):
        # enum / struct / ext payloads: the peer registers no user types
        return "unsupported"
    return "error"


def _message(exc):
    if isinstance(exc, (Unsupported, RequestError)):
        return str(exc)
    return "%s: %s" % (type(exc).__name__, exc)


def op_encode(req, fory, pin):
    values = req.get("values")
    if not isinstance(values, list):
        raise RequestError("encode needs a values array")
    found = {}
    for node in values:
        collect_enums(node, found)
    enums = {}
    if found:
        # Registration changes the instance; use a fresh one for this request.
        fory = pyfory.Fory(xlang=True, ref=fory.track_ref, compatible=fory.compatible)
        if pin:
            _pin_types(fory)
        try:
            enums = register_enums(fory, found)
        except Exception as exc:
            raise Unsupported("pyfory refused the enum registration: %s: %s" % (type(exc).__name__, exc))
    out = []
    for node in values:
        obj = Builder(pin, enums).build(node)
        if not fory.track_ref and _has_cycle(obj):
            raise RequestError("cyclic value with ref=false (pyfory 1.7.7 would overflow the C stack)")
        out.append(fory.serialize(obj))
    return {"ok": True, "hex": b"".join(out).hex()}


def op_decode(req, fory, pin):
    text = req.get("hex")
    if not isinstance(text, str):
        raise RequestError("decode needs a hex string")
    try:
        data = bytes.fromhex(text)
    except ValueError:
        raise RequestError("bad hex input")
    buf = pyfory.Buffer(data)
    values = []
    while buf.get_reader_index() < len(data):
        start = buf.get_reader_index()
        try:
            obj = fory.deserialize(buf)
        except Exception as exc:
            exc.root_index = len(values)
            exc.root_offset = start
            raise
        if buf.get_reader_index() <= start:
            raise RequestError("pyfory made no progress at offset %d" % start)
        values.append(Printer(obj).node(obj))
    return {"ok": True, "values": values}


class TypedBuilder(Builder):
    """Builder for a request with schemas: struct, enum and union nodes
    become instances of the foryc-generated classes."""

    def __init__(self, pin, types):
        Builder.__init__(self, pin)
        self.types = types

    def build(self, node, hashable=False):
        kind = _node_kind(node)
        if kind not in ("struct", "enum", "union", "ext"):
            return Builder.build(self, node, hashable)
        value = node[kind]
        if kind == "ext":
            raise Unsupported("ext types: foryc generates no carrier for them")
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            raise Unsupported("%s node without a type name (by type id only)" % kind)
        try:
            cls = self.types.cls(value["type"])
        except KeyError as exc:
            raise RequestError(str(exc))
        anchor = node.get("anchor")
        if kind == "enum":
            members = list(cls)
            member = value.get("value")
            obj = next((m for m in members if m.value == member), None)
            if obj is None:
                raise Unsupported("enum %s has no member with value %r" % (value["type"], member))
            self._register(anchor, obj)
            return obj
        if kind == "union":
            obj = cls._from_case_id(value.get("case"), self.build(value.get("value")))
            self._register(anchor, obj)
            return obj
        obj = cls()
        self._register(anchor, obj)
        fields = value.get("fields") or {}
        names = {f.name for f in dataclasses.fields(cls)}
        for name, child in fields.items():
            if name not in names:
                raise RequestError("%s has no field %r" % (value["type"], name))
            object.__setattr__(obj, name, self.build(child))
        return obj


def _typed_fory(req, pin):
    ref, compatible, _ = _config_key(req.get("config"), pin)
    fory = pyfory.Fory(xlang=True, ref=ref, compatible=compatible)
    if pin:
        _pin_types(fory)
    try:
        types = user_types.UserTypes(req["schemas"])
    except user_types.SchemaError:
        raise  # class idl: foryc rejects the schema
    types.register(fory)
    return fory, types


def op_typed(req, pin):
    """encode / decode with the request's schemas (foryc classes)."""
    fory, types = _typed_fory(req, pin)
    if req.get("op") == "encode":
        values = req.get("values")
        if not isinstance(values, list):
            raise RequestError("encode needs a values array")
        out = []
        for node in values:
            obj = TypedBuilder(pin, types).build(node)
            if not fory.track_ref and _has_cycle(obj):
                raise RequestError("cyclic value with ref=false (pyfory 1.7.7 would overflow the C stack)")
            out.append(fory.serialize(obj))
        return {"ok": True, "hex": b"".join(out).hex()}
    text = req.get("hex")
    if not isinstance(text, str):
        raise RequestError("decode needs a hex string")
    data = bytes.fromhex(text)
    buf = pyfory.Buffer(data)
    values = []
    while buf.get_reader_index() < len(data):
        start = buf.get_reader_index()
        try:
            obj = fory.deserialize(buf)
        except Exception as exc:
            exc.root_index = len(values)
            exc.root_offset = start
            raise
        if buf.get_reader_index() <= start:
            raise RequestError("pyfory made no progress at offset %d" % start)
        if req.get("project") and type(obj) not in types.names:
            continue  # projection: only the root structs of the reader's types
        values.append(user_types.TypedPrinter(fory, types, Printer, obj).node(obj))
    return {"ok": True, "values": values}


OPS = {"encode": op_encode, "decode": op_decode}


def handle(req, pin):
    """Runs one request; returns the response body (without id)."""
    try:
        op = OPS.get(req.get("op"))
        if op is None:
            raise RequestError("unknown op %r" % (req.get("op"),))
        if req.get("schemas"):
            return op_typed(req, pin)
        fory = get_fory(_config_key(req.get("config"), pin))
        return op(req, fory, pin)
    except RecursionError:
        return {"ok": False, "class": "error", "message": "RecursionError: value nested too deeply"}
    except Exception as exc:
        msg = _message(exc)
        if getattr(exc, "root_offset", None) is not None:
            msg += " (root %d at byte %d)" % (exc.root_index, exc.root_offset)
        return {"ok": False, "class": _classify(exc), "message": msg}


def _describe_status(status):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = str(sig)
        return "pyfory crashed (signal %s)" % name
    return "peer child exited with status %d and no answer" % os.WEXITSTATUS(status)


def handle_isolated(req, pin, timeout):
    # Create the cached instance in the parent so children inherit it.
    try:
        get_fory(_config_key(req.get("config"), pin))
    except Exception:
        pass
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rfd)
            resp = handle(req, pin)
            data = json.dumps(resp, ensure_ascii=True).encode()
            view = memoryview(data)
            while view:
                n = os.write(wfd, view)
                view = view[n:]
        finally:
            os._exit(0)
    os.close(wfd)
    chunks = []
    deadline = time.monotonic() + timeout
    timed_out = False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            break
        ready, _, _ = select.select([rfd], [], [], left)
        if not ready:
            continue
        chunk = os.read(rfd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(rfd)
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    if timed_out:
        return {"ok": False, "class": "error", "message": "timeout after %gs" % timeout}
    data = b"".join(chunks)
    if data:
        try:
            return json.loads(data)
        except ValueError:
            pass
    return {"ok": False, "class": "error", "message": _describe_status(status)}


# Everything pyfory 1.7.7 has: the built-in types, and user types (struct,
# enum, union, named types, TypeDefs) through foryc's generated classes.
# "evolution": a compatible-mode decode with the reader's classes is
# pyfory's own projection onto them. Not "ext" (foryc generates no ext
# carrier) or "oob".
CAPABILITIES = ["ref_tracking", "decimal", "temporal", "dense_array", "unsigned", "float16", "bfloat16",
                "meta_string", "compatible", "schema", "struct", "enum", "union", "named_types", "typedef", "peer",
                "evolution"]


def main(argv):
    pin = "--no-pin" not in argv
    isolate = "--no-isolate" not in argv
    timeout = 60.0
    if "--timeout" in argv:
        timeout = float(argv[argv.index("--timeout") + 1])
    sys.setrecursionlimit(20000)
    out = sys.stdout

    def emit(obj):
        out.write(json.dumps(obj, ensure_ascii=True) + "\n")
        out.flush()

    emit({"hello": {"name": "pyfory", "runtime": "pyfory", "version": pyfory.__version__,
                    "capabilities": CAPABILITIES}})
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise ValueError("request must be a JSON object")
        except ValueError as exc:
            emit({"id": None, "ok": False, "class": "error", "message": "bad request: %s" % exc})
            continue
        if isolate:
            body = handle_isolated(req, pin, timeout)
        else:
            body = handle(req, pin)
            if not body.get("ok"):
                _FORY_CACHE.clear()  # do not reuse an instance after a failure
        resp = {"id": req.get("id")}
        resp.update(body)
        emit(resp)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
