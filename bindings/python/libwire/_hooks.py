"""The Python side of the C codec (libwire/_native.c): class plans, and
the values that have no plain Python counterpart.

The C walk handles None, bool, int, float, str, bytes-like objects, list,
tuple, dict, set, frozenset, array.array, the typed wrappers and
registered classes itself. For anything else it calls `Hooks.encode`,
which returns a tape fragment (spec/tape.md): (shareable, head bytes,
pairs), where `pairs` is None or a tuple of (prefix bytes, value) - the C
walk writes each prefix and then the value. On decode it calls
`Hooks.decode(op, ...)` for the ops it does not build itself.
"""

import array
import dataclasses
import datetime
import decimal
import enum
import struct

from . import _registry, ids
from ._errors import WireError, py_error
from .values import (FLOAT_CLASSES, INT_CLASSES, NONE, Duration, EnumValue,
                     FrozenStruct, NoneValue, Struct, Timestamp, TypedArray,
                     Union)

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_EPOCH_DATE = datetime.date(1970, 1, 1)
_EPOCH_ORDINAL = _EPOCH_DATE.toordinal()
_TYPED_ARRAY_IDS = {"bool_array": ids.BOOL_ARRAY,
                    "float16_array": ids.FLOAT16_ARRAY,
                    "bfloat16_array": ids.BFLOAT16_ARRAY,
                    "float8_array": ids.FLOAT8_ARRAY}
_TYPED_ARRAY_NAMES = {v: k for k, v in _TYPED_ARRAY_IDS.items()}
OP_STRUCT_TD, OP_ENUM_ID, OP_STRUCT_IDX = (ids.TAPE_STRUCT_TD, ids.TAPE_ENUM_ID,
                                         ids.TAPE_STRUCT_IDX)
_NO_TYPE = ids.BY_NAME

_p_bq = struct.Struct("<Bq").pack
_p_bqI = struct.Struct("<BqI").pack
_p_bI = struct.Struct("<BI").pack
_p_bII = struct.Struct("<BII").pack
_p_I = struct.Struct("<I").pack
_p_H = struct.Struct("<H").pack
_p_dec = struct.Struct("<BiBI").pack


def hashable(v):
    """A map key / set element: lists become tuples, sets frozensets."""
    try:
        hash(v)
        return v
    except TypeError:
        pass
    if isinstance(v, list):
        return tuple(hashable(e) for e in v)
    if isinstance(v, set):
        return frozenset(hashable(e) for e in v)
    if isinstance(v, Struct):
        return FrozenStruct(v.type, {k: hashable(x) for k, x in
                                     v.fields.items()}, v.typedef)
    if isinstance(v, dict):
        raise py_error("unsupported", "a map cannot be a Python dict key or "
                       "set element")
    raise py_error("unsupported", "a %s cannot be a Python dict key or set "
                   "element" % type(v).__name__)


def enum_wire_values(cls):
    """Member -> wire value of an enum.Enum, as pyfory maps them: the
    members' own values when these are distinct non-negative ints, else
    their ordinals."""
    members = list(cls)
    vals = [m.value for m in members]
    explicit = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                   for v in vals) and len(set(vals)) == len(vals)
    if explicit:
        return members, [int(m.value) for m in members]
    return members, list(range(len(members)))


class Hooks:
    """One per Context; the codec calls back into it."""

    WireError = WireError
    array = array.array
    INT_CLASSES = INT_CLASSES
    FLOAT_CLASSES = FLOAT_CLASSES
    NONE = NONE
    VERSION = _registry.VERSION      # the codec syncs when VERSION[0] moves

    def __init__(self, ctx):
        self.ctx = ctx
        self.codec = None
        self._enum_names = {}      # (namespace, name) -> type index or None
        self._enum_names_at = None   # ... for this schema version

    def _enum_named(self, ty):
        """The schema enum an EnumValue's (namespace, name) names - the one
        whose full name is exactly `namespace.name` (`name` in the empty
        namespace) - or None: then nothing says which numbers it declares."""
        ctx = self.ctx
        if self._enum_names_at != ctx._schema_version:
            self._enum_names.clear()
            self._enum_names_at = ctx._schema_version
        try:
            return self._enum_names[ty]
        except KeyError:
            pass
        except TypeError:          # unhashable: the write refuses it after
            return None
        ns, nm = ty
        full = "%s.%s" % (ns, nm) if ns else nm
        try:
            ti = ctx.find_type(full)
        except WireError:
            ti = None
        if ti is not None and ctx.type_name(ti) != full:
            ti = None          # (a bare name found in another namespace)
        self._enum_names[ty] = ti
        return ti

    def sync(self):
        """Before a call: the registrations and schemas up to date."""
        self.ctx._sync()

    # ---- plans ----------------------------------------------------------
    def register(self, cls):
        """Adds the plan of a registered class met while encoding."""
        ctx = self.ctx
        ti = ctx._type_of(cls)    # raises if registered but not in the schema
        if ti is None:
            return False
        self._add(cls, ti)
        return True

    def class_of(self, ti):
        """Adds the plan of the class registered for type index `ti`."""
        ctx = self.ctx
        ctx._resolve()
        cls = ctx._cls_of_type.get(ti)
        if cls is not None:
            self._add(cls, ti)
        return None

    def _add(self, cls, ti):
        codec = self.codec
        ctx = self.ctx
        if isinstance(cls, type) and issubclass(cls, enum.Enum):
            members, values = enum_wire_values(cls)
            codec.add_enum(cls, ti, members, values)
            return
        wire = codec.fields(ti)
        by_wire = {name: i for i, (name, _tag) in enumerate(wire) if name}
        attrs = [None] * len(wire)
        defaults = [None] * len(wire)
        factories = [None] * len(wire)
        if dataclasses.is_dataclass(cls):
            fields = dataclasses.fields(cls)
            names = [f.name for f in fields]
        else:
            fields = None
            names = list(getattr(cls, "__annotations__", {}))
        from .context import snake
        for k, a in enumerate(names):
            for cand in (a, snake(a)):
                i = by_wire.get(cand)
                if i is not None:
                    attrs[i] = a
                    if fields is not None:
                        f = fields[k]
                        if f.default is not dataclasses.MISSING:
                            defaults[i] = f.default
                        elif f.default_factory is not dataclasses.MISSING:
                            factories[i] = f.default_factory
                    break
            else:
                raise py_error("schema", "field %r of %s is not a field of %s"
                               % (a, cls.__qualname__, ctx.type_name(ti)))
        codec.add_struct(cls, ti, attrs, defaults, factories,
                         ctx.type_name(ti) or str(ti))

    def type_name(self, ti):
        return self.ctx.type_name(ti)

    hashable = staticmethod(hashable)

    # ---- values the C walk does not write itself ------------------------
    def encode(self, obj, decl):
        t = type(obj)
        if isinstance(obj, datetime.datetime):
            if obj.tzinfo is None:
                obj = obj.astimezone()
            d = obj - _EPOCH
            nanos = getattr(obj, "nanos", None) if t is Timestamp else None
            if nanos is None:
                nanos = d.microseconds * 1000
            return False, _p_bqI(ids.TIMESTAMP, d.days * 86400 + d.seconds, nanos), None
        if isinstance(obj, datetime.date):
            return False, _p_bq(ids.DATE, obj.toordinal() - _EPOCH_ORDINAL), None
        if isinstance(obj, datetime.timedelta):
            nanos = getattr(obj, "nanos", None) if t is Duration else None
            if nanos is None:
                nanos = obj.microseconds * 1000
            return (False, _p_bqI(ids.DURATION, obj.days * 86400 + obj.seconds, nanos),
                    None)
        if isinstance(obj, decimal.Decimal):
            sign, digits, exp = obj.as_tuple()
            if not isinstance(exp, int):
                raise py_error("decimal", "%s has no wire form" % obj)
            mag = int("".join(map(str, digits))) if digits else 0
            raw = mag.to_bytes((mag.bit_length() + 7) // 8, "little")
            return True, _p_dec(ids.DECIMAL, -exp, sign, len(raw)) + raw, None
        if t is Struct or t is FrozenStruct:
            if obj.typedef is not None:
                td = bytes(obj.typedef)
                # type index and user id: none (the TypeDef decides); no names
                head = (_p_bI(OP_STRUCT_TD, len(td)) + td +
                        _p_I(_NO_TYPE) + _p_I(_NO_TYPE) + _p_H(0) + _p_H(0))
            elif isinstance(obj.type, str):
                head = _p_bI(ids.STRUCT, self.ctx.find_type(obj.type))
            else:
                raise py_error("schema", "a Struct of type id %r needs its "
                               "TypeDef or a schema" % (obj.type,))
            items = [(k.encode("utf-8"), v) for k, v in obj.fields.items()
                     if v is not None]
            head += _p_I(len(items))
            # (the third item names the field in the walk's messages)
            tn = obj.type.encode("utf-8") + b"." if isinstance(obj.type, str) else b""
            return True, head, tuple((_p_H(len(k)) + k, v, tn + k)
                                     for k, v in items)
        if t is EnumValue:
            ty = obj.type
            if isinstance(ty, str):
                ti = self.ctx.find_type(ty)
                self.codec.enum_check(ti, obj.value)   # a declared number only
                return False, _p_bII(ids.ENUM, ti, obj.value), None
            if isinstance(ty, tuple):
                ti = self._enum_named(ty)
                if ti is not None:
                    self.codec.enum_check(ti, obj.value)   # a declared number only
                ns, nm = (s.encode("utf-8") for s in ty)
                return (False, bytes([ids.NAMED_ENUM]) + _p_H(len(ns)) + ns + _p_H(len(nm)) +
                        nm + _p_I(obj.value), None)
            if ty is not None:
                self.codec.enum_check_id(ty, obj.value)   # a schema enum's id
            return (False, _p_bII(OP_ENUM_ID, _NO_TYPE if ty is None else ty,
                                  obj.value), None)
        if t is Union:
            ti = _NO_TYPE if obj.type is None else self.ctx.find_type(obj.type)
            return True, _p_bII(ids.UNION, ti, obj.case), ((b"", obj.value),)
        if t is NoneValue:
            return False, bytes([ids.NONE]), None
        if t is TypedArray:
            tid = _TYPED_ARRAY_IDS.get(obj.type)
            if tid is None:
                raise py_error("unsupported", "TypedArray type %r" % obj.type)
            data = bytes(obj.data)
            return True, _p_bI(tid, len(data)) + data, None
        if isinstance(obj, enum.Enum):
            raise py_error("unsupported", "enum %s is not registered"
                           % t.__qualname__)
        # subclasses of the plain types
        if isinstance(obj, bool):
            return False, bytes([ids.BOOL, 1 if obj else 0]), None
        for base in (int, float, str, bytes, list, tuple, dict, set,
                     frozenset, bytearray):
            if isinstance(obj, base):
                return False, b"", ((b"", base(obj)),)
        raise py_error("unsupported", "cannot serialize a %s: no wire type"
                       % t.__qualname__)

    def decode(self, op, *a):
        if op == OP_STRUCT_IDX:          # a registered struct without class
            ti = a[0]
            names = [n if n is not None else "#%d" % tag
                     for n, tag in self.codec.fields(ti)]
            return Struct(self.ctx.type_name(ti), None, None), names
        if op == ids.STRUCT or op == OP_STRUCT_TD:
            ti, ident, td = a
            if ti != _NO_TYPE:
                name = self.ctx.type_name(ti)
            else:
                uid, ns, nm = ident
                name = (ns + "." + nm if ns else nm) if nm else (
                    None if uid == _NO_TYPE else uid)
            return Struct(name, None, td)
        if op == ids.ENUM:
            return EnumValue(self.ctx.type_name(a[0]), a[1])
        if op == ids.NAMED_ENUM:
            return EnumValue((a[0], a[1]), a[2])
        if op == OP_ENUM_ID:
            return EnumValue(None if a[0] == _NO_TYPE else a[0], a[1])
        if op == ids.UNION:
            ti, case = a
            return Union(None if ti == _NO_TYPE else self.ctx.type_name(ti),
                         case, None)
        if op == ids.DATE:
            try:
                return _EPOCH_DATE + datetime.timedelta(days=a[0])
            except OverflowError:
                raise py_error("unsupported", "date out of range") from None
        if op == ids.DURATION or op == ids.TIMESTAMP:
            s, ns = a
            try:
                if op == ids.TIMESTAMP:
                    if ns % 1000:
                        return Timestamp.from_epoch(s, ns)
                    return _EPOCH + datetime.timedelta(seconds=s,
                                                       microseconds=ns // 1000)
                if ns % 1000:
                    return Duration.from_parts(s, ns)
                return datetime.timedelta(seconds=s, microseconds=ns // 1000)
            except OverflowError:
                raise py_error("unsupported", "time out of range") from None
        if op == ids.DECIMAL:
            scale, neg, raw = a
            mag = int.from_bytes(raw, "little")
            return decimal.Decimal((neg, tuple(map(int, str(mag))), -scale))
        if ids.BOOL_ARRAY <= op <= ids.FLOAT64_ARRAY:
            return TypedArray(_TYPED_ARRAY_NAMES.get(op, str(op)), a[0])
        raise py_error("unsupported", "tape op %d" % op)
