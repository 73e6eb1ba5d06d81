"""Python values <-> documents: the friendly dumps/loads path.

Encoding builds one wire_doc per message with the builder functions (one FFI
call per value and per container edge) and encodes it with one wire_encode
call; decoding is one wire_decode call followed by accessor calls per node.
See BULK_PROPOSAL.md for the single-call path proposed to the core.
"""

import array
import datetime
import decimal
import enum
import sys
from ctypes import byref, c_size_t, c_uint32, c_void_p, string_at

from . import ids
from ._errors import ctx_error, py_error
from ._lib import lib
from .values import (FLOAT_CLASSES, INT_CLASSES, Duration, EnumValue, NONE,
                     NoneValue, Struct, FrozenStruct, Timestamp, TypedArray, Union, WireFloat,
                     WireInt)

_doc_new = lib.wire_doc_new
_doc_free = lib.wire_doc_free
_add_root = lib.wire_doc_add_root
_encode = lib.wire_encode
_decode = lib.wire_decode
_free_bytes = lib.wire_ctx_free_bytes
_new_null = lib.wire_node_new_null
_new_none = lib.wire_node_new_none
_new_bool = lib.wire_node_new_bool
_new_int = lib.wire_node_new_int
_new_uint = lib.wire_node_new_uint
_new_float = lib.wire_node_new_float
_new_string = lib.wire_node_new_string
_new_binary = lib.wire_node_new_binary
_new_array = lib.wire_node_new_array
_new_date = lib.wire_node_new_date
_new_timestamp = lib.wire_node_new_timestamp
_new_duration = lib.wire_node_new_duration
_new_decimal = lib.wire_node_new_decimal
_new_enum = lib.wire_node_new_enum
_new_named_enum = lib.wire_node_new_named_enum
_new_enum_of = lib.wire_node_new_enum_of
_new_list = lib.wire_node_new_list
_append = lib.wire_list_append
_new_map = lib.wire_node_new_map
_put = lib.wire_map_put
_new_struct = lib.wire_node_new_struct
_new_struct_td = lib.wire_node_new_struct_typedef
_set_field = lib.wire_struct_set_field
_new_union = lib.wire_node_new_union
_set_tracked = lib.wire_node_set_tracked

_node_type = lib.wire_node_type
_node_int = lib.wire_node_int
_node_uint = lib.wire_node_uint
_node_float = lib.wire_node_float
_node_nanos = lib.wire_node_nanos
_node_bytes = lib.wire_node_bytes
_node_str_enc = lib.wire_node_string_encoding
_node_count = lib.wire_node_count
_node_child = lib.wire_node_child
_node_key = lib.wire_node_map_key
_node_value = lib.wire_node_map_value
_node_field = lib.wire_node_field
_node_field_name = lib.wire_node_field_name
_node_field_tag = lib.wire_node_field_tag
_node_index = lib.wire_node_index
_node_user_type = lib.wire_node_user_type
_node_type_names = lib.wire_node_type_names
_node_user_type_id = lib.wire_node_user_type_id
_node_typedef = lib.wire_node_typedef
_node_enum_value = lib.wire_node_enum_value
_node_enum_type_id = lib.wire_node_enum_type_id
_node_enum_ns = lib.wire_node_enum_namespace
_node_union_case = lib.wire_node_union_case
_node_union_value = lib.wire_node_union_value
_node_union_case = lib.wire_node_union_case
_dec_neg = lib.wire_node_decimal_negative
_dec_scale = lib.wire_node_decimal_scale
_root_count = lib.wire_doc_root_count
_root = lib.wire_doc_root

_I64_MIN, _I64_MAX = -(1 << 63), (1 << 63) - 1
_EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_EPOCH_DATE = datetime.date(1970, 1, 1)
_UTC = datetime.timezone.utc
_LITTLE = sys.byteorder == "little"

# array.array typecode -> dense array type id (by item size for ints).
_ARRAY_TYPES = {}
for _tc, _signed in (("b", 1), ("h", 1), ("i", 1), ("l", 1), ("q", 1),
                     ("B", 0), ("H", 0), ("I", 0), ("L", 0), ("Q", 0)):
    _sz = array.array(_tc).itemsize
    _ARRAY_TYPES[_tc] = {(1, 1): ids.INT8_ARRAY, (2, 1): ids.INT16_ARRAY,
                         (4, 1): ids.INT32_ARRAY, (8, 1): ids.INT64_ARRAY,
                         (1, 0): ids.UINT8_ARRAY, (2, 0): ids.UINT16_ARRAY,
                         (4, 0): ids.UINT32_ARRAY, (8, 0): ids.UINT64_ARRAY}[
                             (_sz, _signed)]
_ARRAY_TYPES["f"] = ids.FLOAT32_ARRAY
_ARRAY_TYPES["d"] = ids.FLOAT64_ARRAY
# dense array type id -> typecode for decoding
_ARRAY_CODES = {}
for _tc in ("b", "h", "i", "q", "B", "H", "I", "Q", "f", "d"):
    _ARRAY_CODES.setdefault(_ARRAY_TYPES[_tc], _tc)
_TYPED_ARRAY_IDS = {"bool_array": ids.BOOL_ARRAY,
                    "float16_array": ids.FLOAT16_ARRAY,
                    "bfloat16_array": ids.BFLOAT16_ARRAY}
_TYPED_ARRAY_NAMES = {v: k for k, v in _TYPED_ARRAY_IDS.items()}

# Python types whose objects are built once per dumps call (so that a shared
# object is one node: a back reference with ref=True, or written again in
# full with ref=False).
_SHAREABLE = (list, tuple, dict, set, frozenset)


def _check_node(p, n):
    if not n:
        raise ctx_error(p, with_offset=False)
    return n


class Encoder:
    """Builds one document per dumps call. One per Context, reused (the
    per-call state is reset), so that no closures are made per message."""

    __slots__ = ("ctx", "p", "ref", "doc", "memo", "busy")

    def __init__(self, ctx):
        self.ctx = ctx
        self.p = ctx._ptr
        self.doc = None
        self.memo = {}
        self.busy = False

    def fail(self):
        raise ctx_error(self.p, with_offset=False)

    def encode(self, roots):
        """Root values -> bytes (one wire_doc, one wire_encode)."""
        p = self.p
        self.ref = self.ctx._ref
        doc = self.doc = _doc_new(p)
        if not doc:
            raise MemoryError("wire_doc_new")
        self.busy = True
        build = self.build
        try:
            for obj in roots:
                if _add_root(doc, build(obj)):
                    self.fail()
            out = c_void_p()
            ln = c_size_t()
            st = _encode(p, doc, byref(out), byref(ln))
            if st:
                raise ctx_error(p, st)
            data = string_at(out, ln.value)
            _free_bytes(p, out)
            return data
        except RecursionError:
            raise py_error("depth", "the value nests too deeply (a cycle "
                           "with ref=False?)") from None
        finally:
            _doc_free(doc)
            self.doc = None
            self.memo.clear()
            self.busy = False

    def shared(self, obj):
        """The node already built for obj in this message, or None."""
        n = self.memo.get(id(obj))
        if n is not None and self.ref:
            _set_tracked(n, 1)
        return n

    def build(self, obj):
        t = type(obj)
        if t is str:
            try:
                b = obj.encode("utf-8")
            except UnicodeEncodeError as e:
                raise py_error("string", "text is not valid Unicode (%s)" % e)
            n = _new_string(self.doc, b, len(b), -1)
        elif t is int:
            if _I64_MIN <= obj <= _I64_MAX:
                n = _new_int(self.doc, 7, obj)  # VARINT64
            else:
                raise py_error("value", "int %d is outside the int64 range; "
                               "wrap it as libwire.VarUInt64 / UInt64 for an "
                               "unsigned 64-bit value" % obj)
        elif t is float:
            n = _new_float(self.doc, 20, obj)   # FLOAT64
        elif t is bool:
            n = _new_bool(self.doc, 1 if obj else 0)
        elif obj is None:
            n = _new_null(self.doc)
        elif t is list or t is tuple:
            memo = self.memo
            key = id(obj)
            n = memo.get(key)
            if n is not None:
                if self.ref:
                    _set_tracked(n, 1)
                return n
            doc = self.doc
            n = _new_list(doc, 22)
            if not n:
                self.fail()
            memo[key] = n
            build = self.build
            for e in obj:
                if _append(doc, n, build(e)):
                    self.fail()
            return n
        elif t is dict:
            memo = self.memo
            key = id(obj)
            n = memo.get(key)
            if n is not None:
                if self.ref:
                    _set_tracked(n, 1)
                return n
            doc = self.doc
            n = _new_map(doc)
            if not n:
                self.fail()
            memo[key] = n
            build = self.build
            for k, v in obj.items():
                if _put(doc, n, build(k), build(v)):
                    self.fail()
            return n
        else:
            n = self.build_other(obj, t)
        if not n:
            self.fail()
        return n

    def build_other(self, obj, t):
        doc = self.doc
        if t is bytes or t is bytearray or t is memoryview:
            n = self.shared(obj)
            if n is None:
                b = bytes(obj)
                n = _new_binary(doc, b, len(b))
                if n:
                    self.memo[id(obj)] = n
            return n
        if t is set or t is frozenset:
            n = self.shared(obj)
            if n is not None:
                return n
            n = _new_list(doc, 23)
            if not n:
                self.fail()
            self.memo[id(obj)] = n
            build = self.build
            for e in obj:
                if _append(doc, n, build(e)):
                    self.fail()
            return n
        if isinstance(obj, enum.Enum):
            return self.build_enum(obj, type(obj))
        if isinstance(obj, WireInt):
            tid = obj.wire_type
            if tid <= 8:
                return _new_int(doc, tid, obj)
            return _new_uint(doc, tid, obj)
        if isinstance(obj, WireFloat):
            return _new_float(doc, obj.wire_type, obj)
        if isinstance(obj, datetime.datetime):
            return self.build_timestamp(obj, t)
        if isinstance(obj, datetime.date):
            return _new_date(doc, obj.toordinal() - _EPOCH_ORDINAL)
        if isinstance(obj, datetime.timedelta):
            nanos = getattr(obj, "nanos", None) if t is Duration else None
            if nanos is None:
                nanos = obj.microseconds * 1000
            return _new_duration(doc, obj.days * 86400 + obj.seconds, nanos)
        if isinstance(obj, decimal.Decimal):
            n = self.shared(obj)
            if n is None:
                n = self.build_decimal(obj)
                if n:
                    self.memo[id(obj)] = n
            return n
        if t is Struct or t is FrozenStruct:
            return self.build_struct_generic(obj)
        if t is EnumValue:
            return self.build_enum_generic(obj)
        if t is Union:
            return self.build_union(obj)
        if t is NoneValue:
            return _new_none(doc)
        if t is array.array:
            tid = _ARRAY_TYPES.get(obj.typecode)
            if tid is None:
                raise py_error("unsupported", "array.array of typecode %r has "
                               "no wire type" % obj.typecode)
            n = self.shared(obj)
            if n is None:
                if not _LITTLE:
                    obj = array.array(obj.typecode, obj)
                    obj.byteswap()
                raw = obj.tobytes()
                n = _new_array(doc, tid, raw, len(raw))
                if n:
                    self.memo[id(obj)] = n
            return n
        if t is TypedArray:
            tid = _TYPED_ARRAY_IDS.get(obj.type)
            if tid is None:
                raise py_error("unsupported", "TypedArray type %r" % obj.type)
            return _new_array(doc, tid, obj.data, len(obj.data))
        # subclasses of the plain types, then registered classes
        if isinstance(obj, bool):
            return _new_bool(doc, 1 if obj else 0)
        if isinstance(obj, int):
            return self.build(int(obj))
        if isinstance(obj, float):
            return _new_float(doc, 20, obj)
        if isinstance(obj, str):
            return self.build(str(obj))
        tindex = self.ctx._type_of(t)
        if tindex is not None:
            return self.build_struct(obj, t, tindex)
        if isinstance(obj, (list, tuple)):
            return self.build(list(obj))
        if isinstance(obj, dict):
            return self.build(dict(obj))
        if isinstance(obj, (set, frozenset)):
            return self.build(set(obj))
        raise py_error("unsupported", "cannot serialize a %s: no wire type "
                       "(register a class for a schema type with "
                       "@libwire.struct)" % t.__qualname__)

    def build_timestamp(self, obj, t):
        if obj.tzinfo is None:
            obj = obj.astimezone()  # naive = local time, like pyfory
        d = obj - _EPOCH
        nanos = getattr(obj, "nanos", None) if t is Timestamp else None
        if nanos is None:
            nanos = d.microseconds * 1000
        return _new_timestamp(self.doc, d.days * 86400 + d.seconds, nanos)

    def build_decimal(self, obj):
        sign, digits, exp = obj.as_tuple()
        if not isinstance(exp, int):
            raise py_error("decimal", "%s has no wire form" % obj)
        mag = int("".join(map(str, digits))) if digits else 0
        raw = mag.to_bytes((mag.bit_length() + 7) // 8, "little")
        scale = -exp
        if not -(1 << 31) <= scale < (1 << 31):
            raise py_error("decimal", "the scale of %s is outside int32" % obj)
        return _new_decimal(self.doc, sign, raw, len(raw), scale)

    def build_enum(self, obj, cls):
        tindex = self.ctx._type_of(cls)
        if tindex is None:
            raise py_error("unsupported", "enum %s is not registered (use "
                           "@libwire.enum(\"ns.Name\"))" % cls.__qualname__)
        info = self.ctx._enum_info(cls, tindex)
        return _new_enum_of(self.doc, tindex, info.to_wire[obj])

    def build_enum_generic(self, obj):
        ty = obj.type
        if isinstance(ty, str):
            return _new_enum_of(self.doc, self.ctx.find_type(ty), obj.value)
        if isinstance(ty, tuple):
            ns, nm = (s.encode("utf-8") for s in ty)
            return _new_named_enum(self.doc, ns, len(ns), nm, len(nm),
                                   obj.value)
        return _new_enum(self.doc, 0xFFFFFFFF if ty is None else ty, obj.value)

    def build_union(self, obj):
        tindex = (ids.BY_NAME if obj.type is None
                  else self.ctx.find_type(obj.type))
        return _new_union(self.doc, tindex, obj.case, self.build(obj.value))

    def build_struct(self, obj, cls, tindex):
        n = self.shared(obj)
        if n is not None:
            return n
        info = self.ctx._struct_info(cls, tindex)
        doc = self.doc
        n = _new_struct(doc, tindex)
        if not n:
            self.fail()
        self.memo[id(obj)] = n
        build = self.build
        for attr, wname, coerce in info.encode_fields:
            v = getattr(obj, attr)
            if v is not None:
                if coerce is not None:
                    v = coerce(v)
                if _set_field(doc, n, wname, len(wname), build(v)):
                    self.fail()
        return n

    def build_struct_generic(self, obj):
        n = self.shared(obj)
        if n is not None:
            return n
        doc = self.doc
        if obj.typedef is not None:
            td = bytes(obj.typedef)
            n = _new_struct_td(doc, td, len(td))
        elif isinstance(obj.type, str):
            n = _new_struct(doc, self.ctx.find_type(obj.type))
        else:
            raise py_error("schema", "a Struct of type id %r needs its TypeDef "
                           "or a schema" % (obj.type,))
        if not n:
            self.fail()
        self.memo[id(obj)] = n
        build = self.build
        for name, v in obj.fields.items():
            if v is not None:
                b = name.encode("utf-8")
                if _set_field(doc, n, b, len(b), build(v)):
                    self.fail()
        return n


def encode(ctx, roots):
    """Root values -> bytes."""
    if ctx._use_tape:
        enc = ctx._tape_encoder
        if enc is None or enc.busy:
            from ._tape import TapeEncoder
            enc = TapeEncoder(ctx)
            if ctx._tape_encoder is None:
                ctx._tape_encoder = enc
        return enc.encode(roots)
    enc = ctx._encoder
    if enc is None or enc.busy:
        enc = Encoder(ctx)
        if ctx._encoder is None:
            ctx._encoder = enc
    return enc.encode(roots)


def _hashable(v):
    """A map key / set element: lists become tuples, sets frozensets."""
    try:
        hash(v)
        return v
    except TypeError:
        pass
    if isinstance(v, list):
        return tuple(_hashable(e) for e in v)
    if isinstance(v, set):
        return frozenset(_hashable(e) for e in v)
    if isinstance(v, Struct):
        return FrozenStruct(v.type, {k: _hashable(x) for k, x in
                                     v.fields.items()}, v.typedef)
    if isinstance(v, dict):
        raise py_error("unsupported", "a map cannot be a Python dict key or "
                       "set element")
    raise py_error("unsupported", "a %s cannot be a Python dict key or set "
                   "element" % type(v).__name__)


class Decoder:
    """Converts a decoded document to Python values. One per Context,
    reused across loads calls."""

    __slots__ = ("ctx", "p", "doc", "memo", "ln", "pln", "u32", "pu32",
                 "busy", "cls_of_type")

    def __init__(self, ctx):
        self.ctx = ctx
        self.p = ctx._ptr
        self.doc = None
        self.memo = {}
        self.ln = c_size_t()
        self.pln = byref(self.ln)
        self.u32 = c_uint32()
        self.pu32 = byref(self.u32)
        self.busy = False

    def decode(self, data):
        p = self.p
        if not isinstance(data, bytes):
            data = bytes(data)
        out = c_void_p()
        st = _decode(p, data, len(data), byref(out))
        if st:
            raise ctx_error(p, st)
        doc = self.doc = out.value
        self.busy = True
        self.ctx._resolve()
        self.cls_of_type = self.ctx._cls_of_type
        conv = self.conv
        try:
            return [conv(_root(doc, r)) for r in range(_root_count(doc))]
        except RecursionError:
            raise py_error("depth", "the value nests too deeply for Python's "
                           "recursion limit") from None
        finally:
            _doc_free(doc)
            self.doc = None
            self.memo.clear()
            self.busy = False

    def conv(self, n):
        t = _node_type(n)
        if t == 21:   # STRING
            e = _node_str_enc(n)
            b = string_at(_node_bytes(n, self.pln), self.ln.value)
            if e == 0:
                return b.decode("latin-1")
            if e == 1:
                return b.decode("utf-16-le", "surrogatepass")
            return b.decode("utf-8")
        if t == 7:    # VARINT64
            return _node_int(n)
        if t == 20:   # FLOAT64
            return _node_float(n)
        if t == 1:
            return _node_int(n) != 0
        if t == 255:
            return None
        if t == 22:   # LIST
            i = _node_index(n)
            memo = self.memo
            v = memo.get(i)
            if v is not None:
                return v
            v = memo[i] = []
            app = v.append
            conv = self.conv
            for k in range(_node_count(n)):
                app(conv(_node_child(n, k)))
            return v
        if t == 24:   # MAP
            i = _node_index(n)
            memo = self.memo
            v = memo.get(i)
            if v is not None:
                return v
            v = memo[i] = {}
            conv = self.conv
            for k in range(_node_count(n)):
                key = conv(_node_key(n, k))
                val = conv(_node_value(n, k))
                try:
                    v[key] = val
                except TypeError:
                    v[_hashable(key)] = val
            return v
        return self.conv_other(n, t)

    def conv_other(self, n, t):
        pln, ln, memo = self.pln, self.ln, self.memo
        if t <= 15:
            cls = INT_CLASSES.get(t)
            if t <= 8:
                return cls(_node_int(n))
            return cls(_node_uint(n))
        if t <= 19:
            return FLOAT_CLASSES[t](_node_float(n))
        if t == 36:
            return NONE
        if t == 41:
            i = _node_index(n)
            v = memo.get(i)
            if v is None:
                v = memo[i] = string_at(_node_bytes(n, pln), ln.value)
            return v
        if t == 23:   # SET
            i = _node_index(n)
            v = memo.get(i)
            if v is not None:
                return v
            v = memo[i] = set()
            conv = self.conv
            for k in range(_node_count(n)):
                e = conv(_node_child(n, k))
                try:
                    v.add(e)
                except TypeError:
                    v.add(_hashable(e))
            return v
        if t == 39:   # DATE
            days = _node_int(n)
            try:
                return _EPOCH_DATE + datetime.timedelta(days=days)
            except OverflowError:
                raise py_error("unsupported", "date %d days from 1970-01-01 is "
                               "outside Python's date range" % days) from None
        if t == 38:   # TIMESTAMP
            s, ns = _node_int(n), _node_nanos(n)
            try:
                if ns % 1000:
                    return Timestamp.from_epoch(s, ns)
                return _EPOCH + datetime.timedelta(seconds=s,
                                                   microseconds=ns // 1000)
            except OverflowError:
                raise py_error("unsupported", "timestamp %d s is outside "
                               "Python's datetime range" % s) from None
        if t == 37:   # DURATION
            s, ns = _node_int(n), _node_nanos(n)
            try:
                if ns % 1000:
                    return Duration.from_parts(s, ns)
                return datetime.timedelta(seconds=s, microseconds=ns // 1000)
            except OverflowError:
                raise py_error("unsupported", "duration %d s is outside "
                               "Python's timedelta range" % s) from None
        if t == 40:   # DECIMAL
            i = _node_index(n)
            v = memo.get(i)
            if v is None:
                mag = int.from_bytes(string_at(_node_bytes(n, pln), ln.value),
                                     "little")
                digits = tuple(map(int, str(mag)))
                v = memo[i] = decimal.Decimal((_dec_neg(n), digits,
                                               -_dec_scale(n)))
            return v
        if t == 25 or t == 26:
            return self.conv_enum(n, t)
        if 27 <= t <= 32:
            return self.conv_struct(n, t)
        if 33 <= t <= 35:
            i = _node_index(n)
            v = memo.get(i)
            if v is not None:
                return v
            if not _node_user_type(self.doc, n, self.pu32):
                name = self.ctx.type_name(self.u32.value)
            else:
                lib.wire_ctx_clear_error(self.p)
                name = self.names_of(n) if t == 35 else (
                    _node_user_type_id(n) if t == 34 else None)
            v = memo[i] = Union(name, _node_union_case(n), None)
            v.value = self.conv(_node_union_value(n))
            return v
        if 43 <= t <= 56:
            i = _node_index(n)
            v = memo.get(i)
            if v is not None:
                return v
            raw = string_at(_node_bytes(n, pln), ln.value)
            tc = _ARRAY_CODES.get(t)
            if tc is not None:
                v = array.array(tc)
                v.frombytes(raw)
                if not _LITTLE:
                    v.byteswap()
            else:
                v = TypedArray(_TYPED_ARRAY_NAMES.get(t, str(t)), raw)
            memo[i] = v
            return v
        raise py_error("unsupported", "no Python value for wire type %d" % t)

    def names_of(self, n):
        pns, pnm = c_void_p(), c_void_p()
        lns, lnm = c_size_t(), c_size_t()
        if _node_type_names(n, byref(pns), byref(lns), byref(pnm), byref(lnm)):
            lib.wire_ctx_clear_error(self.p)
            return None
        ns = string_at(pns, lns.value).decode("utf-8") if lns.value else ""
        nm = string_at(pnm, lnm.value).decode("utf-8") if lnm.value else ""
        return ns + "." + nm if ns else nm

    def conv_enum(self, n, t):
        value = _node_enum_value(n)
        pln, ln = self.pln, self.ln
        if not _node_user_type(self.doc, n, self.pu32):
            ti = self.u32.value
            cls = self.cls_of_type.get(ti)
            if cls is not None:
                info = self.ctx._enum_info(cls, ti)
                try:
                    return info.from_wire[value]
                except KeyError:
                    raise py_error("value", "%s has no member for wire value "
                                   "%d" % (cls.__qualname__, value)) from None
            return EnumValue(self.ctx.type_name(ti), value)
        lib.wire_ctx_clear_error(self.p)
        if t == 25:
            tid = _node_enum_type_id(n)
            return EnumValue(None if tid == 0xFFFFFFFF else tid, value)
        nsp = _node_enum_ns(n, pln)
        ns = string_at(nsp, ln.value).decode("utf-8") if ln.value else ""
        nmp = _node_bytes(n, pln)
        nm = string_at(nmp, ln.value).decode("utf-8") if ln.value else ""
        return EnumValue((ns, nm), value)

    def conv_struct(self, n, t):
        i = _node_index(n)
        memo = self.memo
        v = memo.get(i)
        if v is not None:
            return v
        td = _node_typedef(n, self.pln)
        tdb = string_at(td, self.ln.value) if td else None
        if not _node_user_type(self.doc, n, self.pu32):
            ti = self.u32.value
            cls = self.cls_of_type.get(ti)
            if cls is not None and tdb is None:
                return self.conv_registered(n, i, cls, ti)
            name = self.ctx.type_name(ti)
        else:
            lib.wire_ctx_clear_error(self.p)
            name = self.names_of(n)
            if name is None:
                tid = _node_user_type_id(n)
                name = None if tid == 0xFFFFFFFF else tid
        v = memo[i] = Struct(name, None, tdb)
        fields = v.fields
        for fname, fv in self.field_items_lazy(n):
            fields[fname] = fv
        return v

    def field_items_lazy(self, n):
        pln, ln, conv = self.pln, self.ln, self.conv
        for k in range(_node_count(n)):
            pn = _node_field_name(n, k, pln)
            name = (string_at(pn, ln.value).decode("utf-8") if pn
                    else "#%d" % _node_field_tag(n, k))
            f = _node_field(n, k)
            yield name, (conv(f) if f else None)

    def conv_registered(self, n, i, cls, ti):
        info = self.ctx._struct_info(cls, ti)
        obj = cls.__new__(cls)
        self.memo[i] = obj
        seen = set()
        setter = object.__setattr__
        by_wire = info.attr_by_wire
        for fname, fv in self.field_items_lazy(n):
            attr = by_wire.get(fname)
            if attr is not None:
                setter(obj, attr, fv)
                seen.add(attr)
        for attr, (dflt, factory) in info.defaults.items():
            if attr not in seen:
                setter(obj, attr, factory() if factory else dflt)
        for attr, _w, _c in info.encode_fields:
            if attr not in seen and attr not in info.defaults:
                setter(obj, attr, None)
        return obj


def decode(ctx, data):
    """bytes -> [root values] (one wire_decode, accessors per node)."""
    if ctx._use_tape:
        dec = ctx._tape_decoder
        if dec is None or dec.busy:
            from ._tape import TapeDecoder
            dec = TapeDecoder(ctx)
            if ctx._tape_decoder is None:
                ctx._tape_decoder = dec
        return dec.decode(data)
    dec = ctx._decoder
    if dec is None or dec.busy:
        dec = Decoder(ctx)
        if ctx._decoder is None:
            ctx._decoder = dec
    return dec.decode(data)
