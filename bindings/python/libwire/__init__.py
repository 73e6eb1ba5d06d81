"""libwire: Python binding of libwire, a C implementation of the Apache Fory
xlang binary format (a C extension module with libwire compiled in).

    import libwire
    data = libwire.dumps({"a": [1, 2.5, "x"]})
    libwire.loads(data)                      # {'a': [1, 2.5, 'x']}

Friendly API: dumps / loads / dumps_all / loads_all, Context, WireError,
@libwire.struct / @libwire.enum, and the value classes of libwire.values.
Node-level API: libwire.document (Document, Node) and libwire.notation.
"""

from . import ids
from ._errors import WireError
from ._lib import library_path
from ._registry import enum, register, struct, unregister
from .context import Context, default_context
from .document import Document, Node
from .values import (NONE, BFloat16, Duration, EnumValue, Float16, Float32,
                     Float64, FrozenStruct, Int8, Int16, Int32, Int64,
                     NoneValue, Struct,
                     TaggedInt64, TaggedUInt64, Timestamp, TypedArray, UInt8,
                     UInt16, UInt32, UInt64, Union, VarInt32, VarInt64,
                     VarUInt32, VarUInt64)

__version__ = "0.1.0"

__all__ = [
    "dumps", "loads", "dumps_all", "loads_all", "Context", "WireError",
    "struct", "enum", "register", "unregister", "Document", "Node",
    "Struct", "FrozenStruct", "EnumValue", "Union", "TypedArray", "Timestamp", "Duration",
    "NONE", "NoneValue", "Int8", "Int16", "Int32", "VarInt32", "Int64",
    "VarInt64", "TaggedInt64", "UInt8", "UInt16", "UInt32", "VarUInt32",
    "UInt64", "VarUInt64", "TaggedUInt64", "Float16", "BFloat16", "Float32",
    "Float64", "ids", "library_path", "default_context", "version",
]


def version():
    """Version string of the libwire compiled into the extension."""
    from ._native import version as _v
    return _v()


def dumps(obj, *, ref=False, compatible=False, schema=None):
    """Serializes one value to Fory xlang bytes.

    ref: reference tracking (shared objects written once, cycles allowed);
    compatible: compatible mode (structs carry TypeDefs); schema: an FDL file
    path or a list of them, for user types (structs, enums, unions).
    Raises WireError.
    """
    return default_context(ref, compatible, schema).dumps(obj)


def loads(data, *, ref=False, compatible=False, schema=None):
    """Deserializes bytes holding exactly one root value. Raises WireError."""
    return default_context(ref, compatible, schema).loads(data)


def dumps_all(objs, *, ref=False, compatible=False, schema=None):
    """Serializes several root values into one payload (frames one after
    the other)."""
    return default_context(ref, compatible, schema).dumps_all(objs)


def loads_all(data, *, ref=False, compatible=False, schema=None):
    """Every root value of a payload, as a list."""
    return default_context(ref, compatible, schema).loads_all(data)
