"""dumps/loads through the proposed bulk entry points (BULK_PROPOSAL.md):
the whole message crosses the FFI boundary once, as a tape.

Used only when libwire._lib.tape is set (a libwire that exports
wire_encode_tape / wire_decode_tape, or the prototype library named by
LIBWIRE_TAPE_PATH). The Python side writes / reads the tape with
struct.pack / unpack_from; the values are the same as on the per-value
path (_codec.py).
"""

import array
import datetime
import decimal
import enum
import struct
import sys
from ctypes import byref, c_size_t, c_void_p, string_at

from . import _lib, ids
from ._errors import ctx_error, py_error
from ._codec import (_ARRAY_CODES, _ARRAY_TYPES, _EPOCH, _EPOCH_DATE,
                     _EPOCH_ORDINAL, _TYPED_ARRAY_IDS, _TYPED_ARRAY_NAMES,
                     _hashable)
from .values import (FLOAT_CLASSES, INT_CLASSES, NONE, Duration, EnumValue,
                     FrozenStruct, NoneValue, Struct, Timestamp, TypedArray,
                     Union, WireFloat, WireInt)

_LITTLE = sys.byteorder == "little"
REF, STRUCT_TD, ENUM_ID, PACKED = 0xF0, 0xF1, 0xF2, 0xF3
_PACK_MIN = 4          # lists shorter than this are not worth the scan
_p_packed = struct.Struct("<BBBI").pack
_u_packed = struct.Struct("<BBI").unpack_from

_p_bq = struct.Struct("<Bq").pack
_p_bQ = struct.Struct("<BQ").pack
_p_bd = struct.Struct("<Bd").pack
_p_bI = struct.Struct("<BI").pack
_p_bbI = struct.Struct("<BBI").pack
_p_bII = struct.Struct("<BII").pack
_p_bqI = struct.Struct("<BqI").pack
_p_I = struct.Struct("<I").pack
_p_H = struct.Struct("<H").pack
_p_dec = struct.Struct("<BiBI").pack
_u_I = struct.Struct("<I").unpack_from
_u_H = struct.Struct("<H").unpack_from
_u_q = struct.Struct("<q").unpack_from
_u_Q = struct.Struct("<Q").unpack_from
_u_d = struct.Struct("<d").unpack_from
_u_II = struct.Struct("<II").unpack_from
_u_qI = struct.Struct("<qI").unpack_from
_u_iBI = struct.Struct("<iBI").unpack_from

_NULL, _TRUE, _FALSE = b"\x00", b"\x01\x01", b"\x01\x00"
_I63 = 1 << 63


class TapeEncoder:
    __slots__ = ("ctx", "ref", "out", "memo", "count", "busy")

    def __init__(self, ctx):
        self.ctx = ctx
        self.memo = {}
        self.busy = False

    def encode(self, roots):
        ctx = self.ctx
        self.ref = ctx._ref
        out = self.out = bytearray(b"WT\x01\x00")
        out += _p_I(len(roots))
        self.count = 0
        self.busy = True
        try:
            value = self.value
            for obj in roots:
                value(obj)
            tape = bytes(out)
        except RecursionError:
            raise py_error("depth", "the value nests too deeply (a cycle "
                           "with ref=False?)") from None
        finally:
            self.memo.clear()
            self.out = None
            self.busy = False
        p = ctx._ptr
        res, ln = c_void_p(), c_size_t()
        st = _lib.tape.wire_encode_tape(p, tape, len(tape), byref(res),
                                        byref(ln))
        if st:
            raise ctx_error(p, st)
        data = string_at(res, ln.value)
        _lib.lib.wire_ctx_free_bytes(p, res)
        return data

    def shared(self, obj):
        k = self.memo.get(id(obj))
        if k is None:
            self.memo[id(obj)] = self.count
            self.count += 1
            return False
        self.out += _p_bI(REF, k)
        return True

    def value(self, obj):
        t = type(obj)
        out = self.out
        if t is str:
            try:
                b = obj.encode("utf-8")
            except UnicodeEncodeError as e:
                raise py_error("string", "text is not valid Unicode (%s)" % e)
            out += _p_bbI(21, 0xFF, len(b))
            out += b
        elif t is int:
            try:
                out += _p_bq(7, obj)
            except struct.error:
                raise py_error("value", "int %d is outside the int64 range"
                               % obj) from None
        elif t is float:
            out += _p_bd(20, obj)
        elif t is bool:
            out += _TRUE if obj else _FALSE
        elif obj is None:
            out += _NULL
        elif t is list or t is tuple:
            if self.shared(obj):
                return
            if len(obj) >= _PACK_MIN and self.packed(obj, 22):
                return
            out += _p_bI(22, len(obj))
            value = self.value
            for e in obj:       # the common scalars inline, the rest by call
                te = type(e)
                if te is int and -_I63 <= e < _I63:
                    out += _p_bq(7, e)
                elif te is str and e.isascii():
                    b = e.encode()
                    out += _p_bbI(21, 0xFF, len(b))
                    out += b
                elif te is float:
                    out += _p_bd(20, e)
                else:
                    value(e)
        elif t is dict:
            if self.shared(obj):
                return
            out += _p_bI(24, len(obj))
            value = self.value
            for k, v in obj.items():
                if type(k) is str and k.isascii():
                    b = k.encode()
                    out += _p_bbI(21, 0xFF, len(b))
                    out += b
                else:
                    value(k)
                tv = type(v)
                if tv is int and -_I63 <= v < _I63:
                    out += _p_bq(7, v)
                elif tv is float:
                    out += _p_bd(20, v)
                else:
                    value(v)
        else:
            self.other(obj, t)

    def other(self, obj, t):
        out = self.out
        if t is bytes or t is bytearray or t is memoryview:
            if not self.shared(obj):
                b = bytes(obj)
                out += _p_bI(41, len(b))
                out += b
        elif t is set or t is frozenset:
            if not self.shared(obj) and not (len(obj) >= _PACK_MIN and
                                             self.packed(obj, 23)):
                out += _p_bI(23, len(obj))
                for e in obj:
                    self.value(e)
        elif isinstance(obj, enum.Enum):
            cls = type(obj)
            tindex = self.ctx._type_of(cls)
            if tindex is None:
                raise py_error("unsupported", "enum %s is not registered"
                               % cls.__qualname__)
            out += _p_bII(25, tindex, self.ctx._enum_info(cls, tindex)
                          .to_wire[obj])
        elif isinstance(obj, WireInt):
            tid = obj.wire_type
            out += _p_bq(tid, obj) if tid <= 8 else _p_bQ(tid, obj)
        elif isinstance(obj, WireFloat):
            out += _p_bd(obj.wire_type, obj)
        elif isinstance(obj, datetime.datetime):
            if obj.tzinfo is None:
                obj = obj.astimezone()
            d = obj - _EPOCH
            nanos = getattr(obj, "nanos", None) if t is Timestamp else None
            if nanos is None:
                nanos = d.microseconds * 1000
            out += _p_bqI(38, d.days * 86400 + d.seconds, nanos)
        elif isinstance(obj, datetime.date):
            out += _p_bq(39, obj.toordinal() - _EPOCH_ORDINAL)
        elif isinstance(obj, datetime.timedelta):
            nanos = getattr(obj, "nanos", None) if t is Duration else None
            if nanos is None:
                nanos = obj.microseconds * 1000
            out += _p_bqI(37, obj.days * 86400 + obj.seconds, nanos)
        elif isinstance(obj, decimal.Decimal):
            if not self.shared(obj):
                sign, digits, exp = obj.as_tuple()
                if not isinstance(exp, int):
                    raise py_error("decimal", "%s has no wire form" % obj)
                mag = int("".join(map(str, digits))) if digits else 0
                raw = mag.to_bytes((mag.bit_length() + 7) // 8, "little")
                out += _p_dec(40, -exp, sign, len(raw))
                out += raw
        elif t is Struct or t is FrozenStruct:
            if not self.shared(obj):
                if obj.typedef is not None:
                    td = bytes(obj.typedef)
                    out += _p_bI(STRUCT_TD, len(td))
                    out += td
                    out += b"\xff\xff\xff\xff\xff\xff\xff\xff\x00\x00\x00\x00"
                elif isinstance(obj.type, str):
                    out += _p_bI(27, self.ctx.find_type(obj.type))
                else:
                    raise py_error("schema", "a Struct of type id %r needs its "
                                   "TypeDef or a schema" % (obj.type,))
                self.fields([(k.encode("utf-8"), v) for k, v in
                             obj.fields.items() if v is not None])
        elif t is EnumValue:
            ty = obj.type
            if isinstance(ty, str):
                out += _p_bII(25, self.ctx.find_type(ty), obj.value)
            elif isinstance(ty, tuple):
                ns, nm = (s.encode("utf-8") for s in ty)
                out.append(26)
                out += _p_H(len(ns)) + ns + _p_H(len(nm)) + nm
                out += _p_I(obj.value)
            else:
                out += _p_bII(ENUM_ID, 0xFFFFFFFF if ty is None else ty,
                              obj.value)
        elif t is Union:
            if not self.shared(obj):
                ti = (ids.BY_NAME if obj.type is None
                      else self.ctx.find_type(obj.type))
                out += _p_bII(33, ti, obj.case)
                self.value(obj.value)
        elif t is NoneValue:
            out.append(36)
        elif t is array.array:
            tid = _ARRAY_TYPES.get(obj.typecode)
            if tid is None:
                raise py_error("unsupported", "array.array of typecode %r has "
                               "no wire type" % obj.typecode)
            if not self.shared(obj):
                raw = obj.tobytes()
                out += _p_bI(tid, len(raw))
                out += raw
        elif t is TypedArray:
            if not self.shared(obj):
                out += _p_bI(_TYPED_ARRAY_IDS[obj.type], len(obj.data))
                out += obj.data
        elif isinstance(obj, bool):
            out += _TRUE if obj else _FALSE
        elif isinstance(obj, int):
            self.value(int(obj))
        elif isinstance(obj, float):
            out += _p_bd(20, obj)
        elif isinstance(obj, str):
            self.value(str(obj))
        else:
            tindex = self.ctx._type_of(t)
            if tindex is not None:
                if not self.shared(obj):
                    info = self.ctx._struct_info(t, tindex)
                    out += _p_bI(27, tindex)
                    items = []
                    for attr, wname, coerce in info.encode_fields:
                        v = getattr(obj, attr)
                        if v is not None:
                            items.append((wname, coerce(v) if coerce else v))
                    self.fields(items)
            elif isinstance(obj, (list, tuple)):
                self.value(list(obj))
            elif isinstance(obj, dict):
                self.value(dict(obj))
            elif isinstance(obj, (set, frozenset)):
                self.value(set(obj))
            else:
                raise py_error("unsupported", "cannot serialize a %s: no wire "
                               "type" % t.__qualname__)

    def packed(self, seq, kind):
        """A list/set of plain ints (int64) or plain floats as one PACKED
        op: the elements' bytes come from array.array, not a Python loop
        over struct.pack."""
        it = iter(seq)
        t0 = type(next(it))
        if t0 is int:
            if not all(type(e) is int for e in it):
                return False
            try:
                arr = array.array("q", seq)
            except OverflowError:
                return False
            et = 7
        elif t0 is float:
            if not all(type(e) is float for e in it):
                return False
            arr = array.array("d", seq)
            et = 20
        else:
            return False
        if not _LITTLE:
            arr.byteswap()
        out = self.out
        out += _p_packed(PACKED, kind, et, len(arr))
        out += arr.tobytes()
        return True

    def fields(self, items):
        out = self.out
        out += _p_I(len(items))
        for name, v in items:
            out += _p_H(len(name))
            out += name
            self.value(v)


_STR_CODECS = ("latin-1", "utf-16-le", "utf-8")


class TapeDecoder:
    __slots__ = ("ctx", "tape", "pos", "objs", "busy", "cls_of_type")

    def __init__(self, ctx):
        self.ctx = ctx
        self.busy = False

    def decode(self, data):
        ctx = self.ctx
        p = ctx._ptr
        if not isinstance(data, bytes):
            data = bytes(data)
        res, ln = c_void_p(), c_size_t()
        st = _lib.tape.wire_decode_tape(p, data, len(data), byref(res),
                                        byref(ln))
        if st:
            raise ctx_error(p, st)
        tape = string_at(res, ln.value)
        _lib.tape.tape_free(p, res)
        ctx._resolve()
        self.cls_of_type = ctx._cls_of_type
        self.tape = tape
        self.pos = 8
        self.objs = []
        self.busy = True
        try:
            value = self.value
            return [value() for _ in range(_u_I(tape, 4)[0])]
        except RecursionError:
            raise py_error("depth", "the value nests too deeply for Python's "
                           "recursion limit") from None
        finally:
            self.tape = self.objs = None
            self.busy = False

    def value(self):
        tape = self.tape
        pos = self.pos
        op = tape[pos]
        if op == 21:
            n = _u_I(tape, pos + 2)[0]
            end = pos + 6 + n
            self.pos = end
            return tape[pos + 6:end].decode(_STR_CODECS[tape[pos + 1]])
        if op == 7:
            self.pos = pos + 9
            return _u_q(tape, pos + 1)[0]
        if op == 20:
            self.pos = pos + 9
            return _u_d(tape, pos + 1)[0]
        if op == 1:
            self.pos = pos + 2
            return tape[pos + 1] != 0
        if op == 0:
            self.pos = pos + 1
            return None
        if op == 22:
            n = _u_I(tape, pos + 1)[0]
            self.pos = pos + 5
            v = []
            self.objs.append(v)
            value = self.value
            app = v.append
            pos += 5
            for _ in range(n):  # the common scalars inline, the rest by call
                op = tape[pos]
                if op == 7:
                    app(_u_q(tape, pos + 1)[0])
                    pos += 9
                elif op == 21:
                    m = _u_I(tape, pos + 2)[0]
                    end = pos + 6 + m
                    app(tape[pos + 6:end].decode(_STR_CODECS[tape[pos + 1]]))
                    pos = end
                elif op == 20:
                    app(_u_d(tape, pos + 1)[0])
                    pos += 9
                else:
                    self.pos = pos
                    app(value())
                    pos = self.pos
            self.pos = pos
            return v
        if op == 24:
            n = _u_I(tape, pos + 1)[0]
            self.pos = pos + 5
            v = {}
            self.objs.append(v)
            value = self.value
            for _ in range(n):
                k = value()
                x = value()
                try:
                    v[k] = x
                except TypeError:
                    v[_hashable(k)] = x
            return v
        if op == REF:
            self.pos = pos + 5
            return self.objs[_u_I(tape, pos + 1)[0]]
        if op == PACKED:
            kind, et, n = _u_packed(tape, pos + 1)
            start = pos + 7
            self.pos = start + 8 * n
            arr = array.array("d" if 16 <= et <= 20 else
                              "Q" if 9 <= et <= 15 else "q")
            arr.frombytes(tape[start:start + 8 * n])
            if not _LITTLE:
                arr.byteswap()
            v = arr.tolist()
            if et == 1:
                v = [x != 0 for x in v]
            elif et != 7 and et != 20:
                cls = INT_CLASSES.get(et) or FLOAT_CLASSES[et]
                v = [cls(x) for x in v]
            if kind == 23:
                v = set(v)
            self.objs.append(v)
            return v
        return self.other(op, pos)

    def other(self, op, pos):
        tape = self.tape
        if 2 <= op <= 8:
            self.pos = pos + 9
            return INT_CLASSES[op](_u_q(tape, pos + 1)[0])
        if 9 <= op <= 15:
            self.pos = pos + 9
            return INT_CLASSES[op](_u_Q(tape, pos + 1)[0])
        if 17 <= op <= 19:
            self.pos = pos + 9
            return FLOAT_CLASSES[op](_u_d(tape, pos + 1)[0])
        if op == 41:
            n = _u_I(tape, pos + 1)[0]
            self.pos = pos + 5 + n
            v = tape[pos + 5:pos + 5 + n]
            self.objs.append(v)
            return v
        if op == 23:
            n = _u_I(tape, pos + 1)[0]
            self.pos = pos + 5
            v = set()
            self.objs.append(v)
            for _ in range(n):
                e = self.value()
                try:
                    v.add(e)
                except TypeError:
                    v.add(_hashable(e))
            return v
        if op == 36:
            self.pos = pos + 1
            return NONE
        if op == 39:
            self.pos = pos + 9
            days = _u_q(tape, pos + 1)[0]
            try:
                return _EPOCH_DATE + datetime.timedelta(days=days)
            except OverflowError:
                raise py_error("unsupported", "date out of range") from None
        if op == 37 or op == 38:
            s, ns = _u_qI(tape, pos + 1)
            self.pos = pos + 13
            try:
                if op == 38:
                    if ns % 1000:
                        return Timestamp.from_epoch(s, ns)
                    return _EPOCH + datetime.timedelta(seconds=s,
                                                       microseconds=ns // 1000)
                if ns % 1000:
                    return Duration.from_parts(s, ns)
                return datetime.timedelta(seconds=s, microseconds=ns // 1000)
            except OverflowError:
                raise py_error("unsupported", "time out of range") from None
        if op == 40:
            scale, neg, n = _u_iBI(tape, pos + 1)
            start = pos + 10
            self.pos = start + n
            mag = int.from_bytes(tape[start:start + n], "little")
            v = decimal.Decimal((neg, tuple(map(int, str(mag))), -scale))
            self.objs.append(v)
            return v
        if op == 25:
            ti, value = _u_II(tape, pos + 1)
            self.pos = pos + 9
            cls = self.cls_of_type.get(ti)
            if cls is not None:
                try:
                    return self.ctx._enum_info(cls, ti).from_wire[value]
                except KeyError:
                    raise py_error("value", "%s has no member for wire value "
                                   "%d" % (cls.__qualname__, value)) from None
            return EnumValue(self.ctx.type_name(ti), value)
        if op == ENUM_ID:
            tid, value = _u_II(tape, pos + 1)
            self.pos = pos + 9
            return EnumValue(None if tid == 0xFFFFFFFF else tid, value)
        if op == 26:
            pos += 1
            n = _u_H(tape, pos)[0]
            ns = tape[pos + 2:pos + 2 + n].decode("utf-8")
            pos += 2 + n
            n = _u_H(tape, pos)[0]
            nm = tape[pos + 2:pos + 2 + n].decode("utf-8")
            pos += 2 + n
            self.pos = pos + 4
            return EnumValue((ns, nm), _u_I(tape, pos)[0])
        if op == 27 or op == STRUCT_TD:
            return self.struct(op, pos)
        if op == 33:
            ti, case = _u_II(tape, pos + 1)
            self.pos = pos + 9
            v = Union(None if ti == 0xFFFFFFFF else self.ctx.type_name(ti),
                      case, None)
            self.objs.append(v)
            v.value = self.value()
            return v
        if 43 <= op <= 56:
            n = _u_I(tape, pos + 1)[0]
            raw = tape[pos + 5:pos + 5 + n]
            self.pos = pos + 5 + n
            tc = _ARRAY_CODES.get(op)
            if tc is not None:
                v = array.array(tc)
                v.frombytes(raw)
            else:
                v = TypedArray(_TYPED_ARRAY_NAMES.get(op, str(op)), raw)
            self.objs.append(v)
            return v
        raise py_error("unsupported", "tape op %d" % op)

    def struct(self, op, pos):
        tape = self.tape
        pos += 1
        td = None
        if op == STRUCT_TD:
            n = _u_I(tape, pos)[0]
            td = tape[pos + 4:pos + 4 + n]
            pos += 4 + n
        ti = _u_I(tape, pos)[0]
        pos += 4
        if ti == 0xFFFFFFFF:
            uid = _u_I(tape, pos)[0]
            pos += 4
            n = _u_H(tape, pos)[0]
            ns = tape[pos + 2:pos + 2 + n].decode("utf-8")
            pos += 2 + n
            n = _u_H(tape, pos)[0]
            nm = tape[pos + 2:pos + 2 + n].decode("utf-8")
            pos += 2 + n
            name = (ns + "." + nm if ns else nm) if nm else (
                None if uid == 0xFFFFFFFF else uid)
            cls = None
        else:
            name = self.ctx.type_name(ti)
            cls = self.cls_of_type.get(ti) if td is None else None
        nf = _u_I(tape, pos)[0]
        self.pos = pos + 4
        if cls is not None:
            info = self.ctx._struct_info(cls, ti)
            obj = cls.__new__(cls)
            self.objs.append(obj)
            setter = object.__setattr__
            seen = set()
            for _ in range(nf):
                fname, fv = self.field()
                attr = info.attr_by_wire.get(fname)
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
        v = Struct(name, None, td)
        self.objs.append(v)
        fields = v.fields
        for _ in range(nf):
            fname, fv = self.field()
            fields[fname] = fv
        return v

    def field(self):
        tape, pos = self.tape, self.pos
        n = _u_H(tape, pos)[0]
        name = tape[pos + 2:pos + 2 + n].decode("utf-8")
        self.pos = pos + 2 + n
        return name, self.value()
