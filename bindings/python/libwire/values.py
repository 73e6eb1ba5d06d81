"""Python values for wire types that have no plain Python counterpart.

- Integer and float wrappers (Int8 ... TaggedUInt64, Float16, BFloat16,
  Float32): subclasses of int / float that pin the wire type. `dumps` writes
  a plain int as VARINT64 and a plain float as FLOAT64; `loads` returns
  these wrappers for every other numeric wire type, so that a decoded value
  is written back with its type. They compare and hash like the plain value.
- Struct, EnumValue, Union: user-type values that have no registered Python
  class (see libwire.struct / libwire.enum).
- TypedArray: a dense array with no array.array typecode (bool, float16,
  bfloat16 arrays).
- Timestamp / Duration: datetime / timedelta carrying nanoseconds that are
  not whole microseconds.
"""

import datetime
import reprlib
import struct

from . import ids

__all__ = [
    "Int8", "Int16", "Int32", "VarInt32", "Int64", "VarInt64", "TaggedInt64",
    "UInt8", "UInt16", "UInt32", "VarUInt32", "UInt64", "VarUInt64",
    "TaggedUInt64", "Float16", "BFloat16", "Float32", "Float64",
    "Struct", "FrozenStruct", "EnumValue", "Union", "TypedArray", "Timestamp", "Duration",
    "NoneValue", "NONE",
]


class WireInt(int):
    """Base of the typed integers; `wire_type` is the type id."""

    __slots__ = ()
    wire_type = ids.VARINT64
    _lo, _hi = -(1 << 63), (1 << 63) - 1

    def __new__(cls, value=0):
        self = int.__new__(cls, value)
        if not cls._lo <= self <= cls._hi:
            raise ValueError("%d is out of range for %s" % (int(self),
                                                            cls.__name__))
        return self

    def __repr__(self):
        return "%s(%d)" % (type(self).__name__, int(self))


class WireFloat(float):
    """Base of the typed floats; the value is rounded to the type (nearest,
    ties to even) when written."""

    __slots__ = ()
    wire_type = ids.FLOAT64

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, float(self))


def _int_class(name, tid, bits, signed):
    lo, hi = ((-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed
              else (0, (1 << bits) - 1))
    return type(name, (WireInt,), {"__slots__": (), "wire_type": tid,
                                   "_lo": lo, "_hi": hi,
                                   "__module__": "libwire"})


Int8 = _int_class("Int8", ids.INT8, 8, True)
Int16 = _int_class("Int16", ids.INT16, 16, True)
Int32 = _int_class("Int32", ids.INT32, 32, True)
VarInt32 = _int_class("VarInt32", ids.VARINT32, 32, True)
Int64 = _int_class("Int64", ids.INT64, 64, True)
VarInt64 = _int_class("VarInt64", ids.VARINT64, 64, True)
TaggedInt64 = _int_class("TaggedInt64", ids.TAGGED_INT64, 64, True)
UInt8 = _int_class("UInt8", ids.UINT8, 8, False)
UInt16 = _int_class("UInt16", ids.UINT16, 16, False)
UInt32 = _int_class("UInt32", ids.UINT32, 32, False)
VarUInt32 = _int_class("VarUInt32", ids.VAR_UINT32, 32, False)
UInt64 = _int_class("UInt64", ids.UINT64, 64, False)
VarUInt64 = _int_class("VarUInt64", ids.VAR_UINT64, 64, False)
TaggedUInt64 = _int_class("TaggedUInt64", ids.TAGGED_UINT64, 64, False)


def _float_class(name, tid):
    return type(name, (WireFloat,), {"__slots__": (), "wire_type": tid,
                                     "__module__": "libwire"})


Float16 = _float_class("Float16", ids.FLOAT16)
BFloat16 = _float_class("BFloat16", ids.BFLOAT16)
Float32 = _float_class("Float32", ids.FLOAT32)
Float64 = _float_class("Float64", ids.FLOAT64)

# Decoding: wire type id -> wrapper (plain int / float for the defaults).
INT_CLASSES = {c.wire_type: c for c in (
    Int8, Int16, Int32, VarInt32, Int64, TaggedInt64, UInt8, UInt16, UInt32,
    VarUInt32, UInt64, VarUInt64, TaggedUInt64)}
FLOAT_CLASSES = {c.wire_type: c for c in (Float16, BFloat16, Float32)}


class NoneValue:
    """The NONE (36) value, as opposed to a null reference (Python None)."""

    __slots__ = ()
    _inst = None

    def __new__(cls):
        if cls._inst is None:
            cls._inst = object.__new__(cls)
        return cls._inst

    def __repr__(self):
        return "libwire.NONE"

    def __reduce__(self):
        return (NoneValue, ())


NONE = NoneValue()


class Struct:
    """A struct (or ext) value without a registered Python class.

    type     registered full name ("demo.Item"; the bare name for an empty
             namespace), or the numeric user type id when the reader has no
             schema for it.
    fields   dict: wire field name (snake_case, or "#<tag>") -> value, in
             wire order.
    typedef  the TypeDef bytes the struct was read with when the reader's
             schema would not write the same (compatible mode: another
             version of the type, or no schema); dumps reuses them, so the
             value round-trips. None otherwise.

    Fields can be read as attributes too (s.name) unless they clash with
    the three attributes above.
    """

    __slots__ = ("type", "fields", "typedef")

    def __init__(self, type, fields=None, typedef=None, **kw):
        self.type = type
        self.fields = dict(fields or ())
        self.fields.update(kw)
        self.typedef = typedef

    def __getattr__(self, name):
        if name in ("fields", "type", "typedef", "_hash") or \
                name.startswith("__"):
            raise AttributeError(name)
        try:
            return self.fields[name]
        except KeyError:
            raise AttributeError(name) from None

    def __reduce__(self):
        return (type(self), (self.type, self.fields, self.typedef))

    def __getitem__(self, name):
        return self.fields[name]

    def __setitem__(self, name, value):
        self.fields[name] = value

    def __eq__(self, other):
        if not isinstance(other, Struct):
            return NotImplemented
        return self.type == other.type and self.fields == other.fields

    __hash__ = None

    @reprlib.recursive_repr()
    def __repr__(self):
        return "Struct(%r, %r)" % (self.type, self.fields)


class FrozenStruct(Struct):
    """A hashable Struct: what a struct becomes when Python needs it as a set
    element or dict key (its field values frozen the same way: lists to
    tuples, sets to frozensets). It is written exactly like a Struct."""

    __slots__ = ("_hash",)

    def __init__(self, type, fields=None, typedef=None, **kw):
        Struct.__init__(self, type, fields, typedef, **kw)
        self._hash = None

    def __setitem__(self, name, value):
        raise TypeError("FrozenStruct is immutable")

    def __hash__(self):
        if self._hash is None:
            self._hash = hash((Struct, self.type,
                               tuple(self.fields.items())))
        return self._hash

    @reprlib.recursive_repr()
    def __repr__(self):
        return "FrozenStruct(%r, %r)" % (self.type, self.fields)


class EnumValue:
    """An enum value without a registered Python enum class.

    type   registered full name, the numeric user type id, or
           (namespace, name) of a named enum unknown to the reader; None for
           an enum field read through a TypeDef without a schema.
    value  the wire value (uint32).
    """

    __slots__ = ("type", "value")

    def __init__(self, type, value):
        self.type = type
        self.value = value

    def __eq__(self, other):
        if not isinstance(other, EnumValue):
            return NotImplemented
        return self.type == other.type and self.value == other.value

    def __hash__(self):
        return hash((EnumValue, self.type, self.value))

    def __repr__(self):
        return "EnumValue(%r, %r)" % (self.type, self.value)


class Union:
    """A union value: type (full name, or None for an untyped UNION), the
    case id and the case's value."""

    __slots__ = ("type", "case", "value")

    def __init__(self, type, case, value):
        self.type = type
        self.case = case
        self.value = value

    def __eq__(self, other):
        if not isinstance(other, Union):
            return NotImplemented
        return (self.type, self.case, self.value) == (other.type, other.case,
                                                      other.value)

    __hash__ = None

    @reprlib.recursive_repr()
    def __repr__(self):
        return "Union(%r, %r, %r)" % (self.type, self.case, self.value)


def _bfloat16_value(b):
    """The float of bfloat16 bits b as a tape carries it: exact, a NaN with
    its payload at the top of the double's and its quiet bit as it was
    (wire_bfloat16_to_float returns a C float, and ctypes' conversion of it
    to a double would set a signaling NaN's quiet bit)."""
    x = b << 16
    if x & 0x7F800000 == 0x7F800000 and x & 0x7FFFFF:
        u = (x >> 31) << 63 | 0x7FF << 52 | (x & 0x7FFFFF) << 29
        return struct.unpack("<d", struct.pack("<Q", u))[0]
    return struct.unpack("<f", struct.pack("<I", x))[0]


class TypedArray:
    """A dense array with no array.array typecode: `type` is the wire type
    name ("bool_array", "float16_array", "bfloat16_array"), `data` the raw
    little-endian element bytes."""

    __slots__ = ("type", "data")

    def __init__(self, type, data):
        self.type = type
        self.data = bytes(data)

    def tolist(self):
        from ._lib import lib
        d = self.data
        if self.type == "bool_array":
            return [b != 0 for b in d]
        conv = (lib.wire_float16_to_double if self.type == "float16_array"
                else _bfloat16_value)
        return [conv(d[i] | d[i + 1] << 8) for i in range(0, len(d) - 1, 2)]

    def __len__(self):
        return len(self.data) if self.type == "bool_array" else len(self.data) // 2

    def __eq__(self, other):
        if not isinstance(other, TypedArray):
            return NotImplemented
        return self.type == other.type and self.data == other.data

    __hash__ = None

    def __repr__(self):
        return "TypedArray(%r, %r)" % (self.type, self.tolist())


class Timestamp(datetime.datetime):
    """An aware UTC datetime with nanosecond precision: `nanos` holds the
    full fraction of the second (0..999_999_999); the datetime part is
    truncated to microseconds. `loads` returns it only when the nanoseconds
    are not whole microseconds."""

    nanos = 0

    @classmethod
    def from_epoch(cls, seconds, nanos):
        self = cls.fromtimestamp(0, datetime.timezone.utc) + datetime.timedelta(
            seconds=seconds, microseconds=nanos // 1000)
        self = cls.combine(self.date(), self.timetz())
        self.nanos = nanos
        return self


class Duration(datetime.timedelta):
    """A timedelta with nanosecond precision (`nanos` 0..999_999_999 of the
    last second); see Timestamp."""

    nanos = 0

    @classmethod
    def from_parts(cls, seconds, nanos):
        self = cls(seconds=seconds, microseconds=nanos // 1000)
        self.nanos = nanos
        return self
