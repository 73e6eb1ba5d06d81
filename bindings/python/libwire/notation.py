"""The value notation (spec/notation.md) <-> Documents, on the node API.

    to_notation(doc, i, untracked=False) -> dict    (like `wire decode`)
    add_notation_root(doc, value) -> Node           (like `wire encode`)

Printing records every wire choice of a decoded document, so encoding the
printed notation gives the same bytes.
"""

import datetime
import math
import re
import struct as _struct

from . import ids
from ._errors import WireError
from ._lib import lib
from .document import type_name as _type_name

__all__ = ["to_notation", "add_notation_root", "NotationError"]

_MS_NAMES = ["utf8", "lower_special", "luds", "first_to_lower_special",
             "all_to_lower_special"]


def _ms_name(e):
    raw = lib.wire_meta_encoding_name(e)
    return raw.decode() if raw is not None else _MS_NAMES[e]


class NotationError(WireError):
    def __init__(self, message):
        super().__init__("notation", None, message, ids.E_NOTATION)


# ---------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------

def _float_value(t, bits):
    if t == ids.FLOAT16:
        return lib.wire_float16_to_double(bits)
    if t == ids.BFLOAT16:
        return lib.wire_bfloat16_to_float(bits)
    if t == ids.FLOAT32:
        return _struct.unpack("<f", _struct.pack("<I", bits))[0]
    return _struct.unpack("<d", _struct.pack("<Q", bits))[0]


def _float_to_bits(t, d):
    if t == ids.FLOAT16:
        return lib.wire_float16_from_double(d)
    if t == ids.BFLOAT16:
        return lib.wire_bfloat16_from_double(d)
    if t == ids.FLOAT32:
        try:
            return _struct.unpack("<I", _struct.pack("<f", d))[0]
        except OverflowError:   # beyond float32: rounds to infinity
            return 0xFF800000 if d < 0 else 0x7F800000
    return _struct.unpack("<Q", _struct.pack("<d", d))[0]


def _bits_str(t, bits):
    digits = 16 if t == ids.FLOAT64 else 8 if t == ids.FLOAT32 else 4
    return "0x%0*x" % (digits, bits)


def _approx(t, bits):
    v = _float_value(t, bits)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if t == ids.FLOAT64:
        return repr(v)
    for p in range(1, 10):
        s = "%.*g" % (p, v)
        if _float_to_bits(t, float(s)) == bits:
            return s
    return repr(v)


def _civil(days):
    try:
        return datetime.date(1970, 1, 1) + datetime.timedelta(days=days)
    except OverflowError:
        return None


class _Printer:
    def __init__(self, doc, untracked):
        self.doc = doc
        self.ctx = doc.ctx
        self.untracked = untracked
        self.refs = {}
        self.visited = set()
        self.tds = []      # TypeDef addresses printed in this root

    def count(self, n):
        stack = [n]
        refs = self.refs
        while stack:
            n = stack.pop()
            i = n.index
            refs[i] = refs.get(i, 0) + 1
            if refs[i] > 1:
                continue
            t = n.type
            if t in (ids.LIST, ids.SET):
                stack.extend(n.children)
            elif t == ids.MAP:
                for k, v in n.items():
                    stack.append(k)
                    stack.append(v)
            elif t in ids.STRUCTS:
                stack.extend(f for _n, _t, f in n.fields if f is not None)
            elif t in ids.UNIONS:
                stack.append(n.union_value)

    def type_ident(self, n, body):
        ut = n.user_type
        if ut is not None:
            body["type"] = self.ctx.type_name(ut)
            return
        names = n.type_names
        if names is not None:
            ns, nm = names
            body["type"] = ns + "." + nm if ns else nm
            return
        uid = n.user_type_id
        if uid is not None:
            body["type_id"] = uid

    def name_encodings(self, n, o):
        e = n.name_encodings
        if e is None or e[0] < 0:
            return
        o["ns_enc"] = _ms_name(e[0])
        o["name_enc"] = _ms_name(e[1])

    def node(self, n):
        idx = n.index
        anchor = "a%d" % idx
        if idx in self.visited:
            return {"ref": anchor}
        self.visited.add(idx)
        t = n.type
        name = _type_name(t)
        o = {}
        if t == ids.NULL:
            o["null"] = None
        elif t == ids.NONE:
            o["none"] = None
        elif t == ids.BOOL:
            o["bool"] = bool(n.int)
        elif t in ids.FLOATS:
            bits = n.float_bits
            o[name] = _bits_str(t, bits)
            o["approx"] = _approx(t, bits)
        elif t == ids.STRING:
            o["string"] = n.text
            o["enc"] = n.string_encoding
        elif t == ids.BINARY:
            o["binary"] = n.bytes.hex()
        elif t == ids.DATE:
            days = n.int
            o["date"] = str(days)
            d = _civil(days)
            if d is not None and -3652059 < days < 2932897:
                o["iso"] = d.isoformat()
        elif t in (ids.TIMESTAMP, ids.DURATION):
            s = n.int
            ns = n.nanos
            o[name] = {"seconds": str(s), "nanos": ns}
            if t == ids.TIMESTAMP and -62135596800 < s < 253402300800:
                days, sod = divmod(s, 86400)
                d = _civil(days)
                o["iso"] = "%sT%02d:%02d:%02d.%09dZ" % (
                    d.isoformat(), sod // 3600, sod // 60 % 60, sod % 60, ns)
        elif t == ids.DECIMAL:
            unscaled, scale = n.decimal
            o["decimal"] = {"unscaled": str(unscaled), "scale": scale}
        elif t in (ids.ENUM, ids.NAMED_ENUM):
            self.enum(n, t, o)
        elif t in ids.STRUCTS:
            body = {}
            self.type_ident(n, body)
            fields = {}
            for fname, tag, fv in n.fields:
                if fname is None:
                    fname = "#%d" % tag
                if fv is not None:
                    fields[fname] = self.node(fv)
            body["fields"] = fields
            key = n.typedef_key
            if key:
                if key in self.tds:
                    body["typedef"] = self.tds.index(key)
                else:
                    body["typedef"] = n.typedef.hex()
                    self.tds.append(key)
            o["ext" if t >= ids.EXT else "struct"] = body
            self.name_encodings(n, o)
        elif t in ids.UNIONS:
            body = {}
            self.type_ident(n, body)
            body["case"] = n.union_case
            body["value"] = self.node(n.union_value)
            o["union"] = body
            self.name_encodings(n, o)
        elif t in (ids.LIST, ids.SET):
            o[name] = [self.node(c) for c in n.children]
            h = n.header
            if h is not None:
                o["header"] = h
        elif t == ids.MAP:
            o["map"] = [[self.node(k), self.node(v)] for k, v in n.items()]
            ch = n.chunks
            if ch:
                o["chunks"] = [list(c) for c in ch]
        elif ids.INT8 <= t <= ids.TAGGED_INT64:
            o[name] = str(n.int)
        elif ids.UINT8 <= t <= ids.TAGGED_UINT64:
            o[name] = str(n.uint)
        elif lib.wire_type_array_width(t):
            o[name] = _array_json(t, n.bytes)
        else:
            o["unsupported"] = name or "?"
        if t != ids.NULL:
            tr = n.tracked
            if self.refs.get(idx, 0) > 1:
                o["anchor"] = anchor
            elif tr is True:
                o["tracked"] = True
            elif tr is False and self.untracked:
                o["tracked"] = False
        return o

    def enum(self, n, t, o):
        ut = n.user_type
        if ut is not None:
            o["enum"] = {"type": self.ctx.type_name(ut), "value": n.enum_value}
            if t == ids.NAMED_ENUM:
                self.name_encodings(n, o)
            return
        if t == ids.ENUM:
            tid = n.enum_type_id
            if tid == 0xFFFFFFFF:
                o["enum"] = {"value": n.enum_value}
            else:
                o["enum"] = {"type_id": tid, "value": n.enum_value}
            return
        o["named_enum"] = {"namespace": n.enum_namespace,
                           "name": n.bytes.decode("utf-8"),
                           "value": n.enum_value}
        e = n.name_encodings
        if e is not None and e[0] >= 0:
            o["ns_enc"] = _ms_name(e[0])
            o["name_enc"] = _ms_name(e[1])
        hf = n.name_hash_forms
        if hf is not None:
            if hf[0]:
                o["ns_hash"] = "raw"
            if hf[1]:
                o["name_hash"] = "raw"
        xr = n.name_refs
        if xr is not None:
            if xr[0]:
                o["ns_xref"] = True
            if xr[1]:
                o["name_xref"] = True


_INT_ARRAYS = {ids.INT8_ARRAY: "b", ids.INT16_ARRAY: "h", ids.INT32_ARRAY: "i",
               ids.INT64_ARRAY: "q", ids.UINT8_ARRAY: "B",
               ids.UINT16_ARRAY: "H", ids.UINT32_ARRAY: "I",
               ids.UINT64_ARRAY: "Q"}
_FLOAT_ARRAYS = {ids.FLOAT16_ARRAY: (ids.FLOAT16, "H"),
                 ids.BFLOAT16_ARRAY: (ids.BFLOAT16, "H"),
                 ids.FLOAT32_ARRAY: (ids.FLOAT32, "I"),
                 ids.FLOAT64_ARRAY: (ids.FLOAT64, "Q")}


def _array_json(t, raw):
    w = lib.wire_type_array_width(t)
    n = len(raw) // w
    if t == ids.BOOL_ARRAY:
        return [b != 0 for b in raw[:n]]
    if t in _INT_ARRAYS:
        return [str(v) for v in _struct.unpack("<%d%s" % (n, _INT_ARRAYS[t]),
                                               raw[:n * w])]
    ft, code = _FLOAT_ARRAYS[t]
    return [_bits_str(ft, v) for v in _struct.unpack("<%d%s" % (n, code),
                                                     raw[:n * w])]


def node_notation(doc, node, untracked=False):
    """Any node of a document as a notation value."""
    p = _Printer(doc, untracked)
    p.count(node)
    return p.node(node)


def to_notation(doc, index, untracked=False):
    """Root `index` of a document as a notation value (a dict). With
    `untracked`, nodes written with the not-null flag where reference
    tracking would flag them get "tracked": false."""
    p = _Printer(doc, untracked)
    root = doc.root(index)
    p.count(root)
    return p.node(root)


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------

_ANNOTATIONS = frozenset((
    "anchor", "tracked", "enc", "header", "chunks", "ns_enc", "name_enc",
    "ns_hash", "name_hash", "ns_xref", "name_xref", "approx", "iso"))
_INT_RE = re.compile(r"^[+-]?[0-9]+$")
_UINT_RE = re.compile(r"^\+?[0-9]+$")
_HEX_RE = re.compile(r"^0[xX][0-9a-fA-F]+$")


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _parse_i64(s):
    if not isinstance(s, str) or not _INT_RE.match(s):
        return None
    v = int(s)
    return v if -(1 << 63) <= v < (1 << 63) else None


def _parse_u64(s):
    if not isinstance(s, str) or not _UINT_RE.match(s):
        return None
    v = int(s)
    return v if v < (1 << 64) else None


def _parse_float(t, s):
    """Bits of a float string: "0x<bits>" or a decimal / nan / inf."""
    if not isinstance(s, str):
        return None
    if _HEX_RE.match(s):
        v = int(s[2:], 16)
        mx = (1 << 64) - 1 if t == ids.FLOAT64 else (
            (1 << 32) - 1 if t == ids.FLOAT32 else 0xFFFF)
        return v if v <= mx else None
    if s == "nan":
        d = float("nan")
    elif s == "inf":
        d = float("inf")
    elif s == "-inf":
        d = float("-inf")
    else:
        if not re.match(r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$",
                        s):
            return None
        d = float(s)
    return _float_to_bits(t, d)


class _Parser:
    def __init__(self, doc):
        self.doc = doc
        self.ctx = doc.ctx
        self.anchors = {}
        self.tds = []        # struct nodes carrying the TypeDefs of this root

    def err(self, fmt, *args):
        raise NotationError(fmt % args if args else fmt)

    def remember(self, j, n):
        tr = j.get("tracked")
        if tr is not None:
            if not isinstance(tr, bool):
                self.err("\"tracked\" must be a boolean")
            n.tracked = tr
        a = j.get("anchor")
        if a is None:
            return
        if not isinstance(a, str):
            self.err("\"anchor\" must be a string")
        if a in self.anchors:
            self.err("anchor \"%s\" defined twice", a)
        self.anchors[a] = n
        n.tracked = True

    def msenc(self, j, key):
        v = j.get(key)
        if v is None:
            return -1
        for e in range(5):
            if v == _ms_name(e):
                return e
        self.err("unknown meta string encoding in \"%s\"", key)

    def name_encodings(self, j, n):
        a, b = self.msenc(j, "ns_enc"), self.msenc(j, "name_enc")
        if (a >= 0) != (b >= 0):
            self.err("give both ns_enc and name_enc or neither")
        if a >= 0:
            try:
                n.name_encodings = (a, b)
            except WireError:
                self.err("ns_enc/name_enc on a value without names")

    def node(self, j, depth=0):
        if not isinstance(j, dict):
            self.err("a node must be a JSON object")
        if depth > 10000:
            self.err("nesting too deep")
        if "ref" in j:
            r = j["ref"]
            if len(j) != 1 or not isinstance(r, str):
                self.err("a ref node is {\"ref\": \"name\"} alone")
            n = self.anchors.get(r)
            if n is None:
                self.err("unknown anchor \"%s\"", r)
            return n
        key = None
        v = None
        for k, val in j.items():
            if k in _ANNOTATIONS:
                continue
            if key is not None:
                self.err("two type keys: \"%s\" and \"%s\"", key, k)
            key, v = k, val
        if key is None:
            self.err("no type key")
        if key == "null":
            t = ids.NULL
        else:
            b = key.encode("utf-8")
            t = lib.wire_type_from_name(b, len(b))
        if t < 0:
            self.err("unknown type key \"%s\"", key)
        try:
            return self._node(j, key, v, t, depth)
        except NotationError:
            raise
        except WireError as e:
            self.err("value of \"%s\": %s", key, e.message)

    def _node(self, j, key, v, t, depth):
        d = self.doc
        if t == ids.NULL:
            n = d.null()
        elif t == ids.NONE:
            n = d.none()
        elif t == ids.BOOL:
            if not isinstance(v, bool):
                self.err("bool takes true or false")
            n = d.bool(v)
        elif t == ids.STRING:
            if not isinstance(v, str):
                self.err("string takes a JSON string")
            enc = j.get("enc")
            if enc is not None and enc not in ("latin1", "utf16", "utf8"):
                self.err("unknown string encoding \"%s\"", enc)
            try:
                b = v.encode("utf-8")
            except UnicodeEncodeError:
                raise WireError("string", None, "text with a lone surrogate",
                                ids.E_STRING) from None
            n = d.string(b, enc)
        elif t == ids.BINARY:
            if not isinstance(v, str) or len(v) % 2:
                self.err("binary takes a hex string of even length")
            try:
                n = d.binary(bytes.fromhex(v))
            except ValueError:
                self.err("binary hex has a bad digit")
        elif t == ids.DATE:
            days = _parse_i64(v)
            if days is None:
                self.err("date takes days as a decimal string")
            n = d.date(days)
        elif t in (ids.TIMESTAMP, ids.DURATION):
            s = _parse_i64(v.get("seconds")) if isinstance(v, dict) else None
            ns = v.get("nanos") if isinstance(v, dict) else None
            if s is None or not _is_int(ns) or not 0 <= ns <= 999999999 or \
                    len(v) != 2:
                self.err("%s takes {\"seconds\": \"...\", \"nanos\": N}", key)
            n = d.timestamp(s, ns) if t == ids.TIMESTAMP else d.duration(s, ns)
        elif t == ids.DECIMAL:
            us = v.get("unscaled") if isinstance(v, dict) else None
            sc = v.get("scale") if isinstance(v, dict) else None
            if not isinstance(us, str) or not _is_int(sc) or \
                    not -(1 << 31) <= sc < (1 << 31):
                self.err("decimal takes {\"unscaled\": \"...\", \"scale\": N}")
            if not _INT_RE.match(us):
                self.err("decimal unscaled has a bad digit")
            n = d.decimal(int(us), sc)
        elif t == ids.ENUM:
            n = self.enum(j, v)
        elif t == ids.NAMED_ENUM:
            n = self.named_enum(j, v)
        elif t in (ids.STRUCT, ids.EXT):
            return self.struct(j, key, v, t, depth)
        elif t == ids.UNION:
            if not isinstance(v, dict) or not _is_int(v.get("case")) or \
                    "value" not in v:
                self.err("union takes {\"type\", \"case\": N, \"value\": "
                         "node}")
            tn = v.get("type")
            ti = None
            if tn is not None:
                if not isinstance(tn, str):
                    self.err("union type is not in the schema")
                try:
                    ti = self.ctx.find_type(tn)
                except WireError:
                    self.err("union type is not in the schema")
            un = self.node(v["value"], depth + 1)
            n = d.union(ti, v["case"], un)
            self.name_encodings(j, n)
        elif t in (ids.LIST, ids.SET):
            if not isinstance(v, list):
                self.err("%s takes an array", key)
            n = d.list((), t)
            h = j.get("header")
            if h is not None:
                if not _is_int(h) or not 0 <= h <= 15:
                    self.err("\"header\" must be 0..15")
                n.header = h
            self.remember(j, n)
            for e in v:
                n.append(self.node(e, depth + 1))
            return n
        elif t == ids.MAP:
            if not isinstance(v, list):
                self.err("map takes an array of pairs")
            n = d.map()
            self.remember(j, n)
            for i, e in enumerate(v):
                if not isinstance(e, list) or len(e) != 2:
                    self.err("map entry %d is not a [key, value] pair", i)
                kn = self.node(e[0], depth + 1)
                vn = self.node(e[1], depth + 1)
                n.put(kn, vn)
            ch = j.get("chunks")
            if ch is not None:
                if not isinstance(ch, list):
                    self.err("\"chunks\" must be an array")
                for i, c in enumerate(ch):
                    if not (isinstance(c, list) and len(c) == 2 and
                            _is_int(c[0]) and _is_int(c[1])):
                        self.err("chunk %d must be [header 0..63, count "
                                 "1..255]", i)
                    try:
                        self.doc._ok(lib.wire_map_add_chunk(
                            self.doc._ptr, n.ptr, c[0], c[1]))
                    except WireError:
                        self.err("chunk %d must be [header 0..63, count "
                                 "1..255]", i)
            return n
        elif ids.INT8 <= t <= ids.TAGGED_INT64:
            x = _parse_i64(v)
            if x is None:
                self.err("%s takes a decimal string", key)
            n = d.int(x, t)
        elif ids.UINT8 <= t <= ids.TAGGED_UINT64:
            x = _parse_u64(v)
            if x is None:
                self.err("%s takes a decimal string", key)
            n = d.uint(x, t)
        elif t in ids.FLOATS:
            bits = _parse_float(t, v)
            if bits is None:
                self.err("%s takes \"0x<bits>\" or a decimal string", key)
            n = d.float_bits(bits, t)
        elif lib.wire_type_array_width(t):
            n = d.array(t, self.array(t, v))
        else:
            self.err("type \"%s\" cannot be written from the notation yet", key)
        self.remember(j, n)
        return n

    def array(self, t, v):
        if not isinstance(v, list):
            self.err("%s takes an array", _type_name(t))
        w = lib.wire_type_array_width(t)
        out = bytearray()
        for i, e in enumerate(v):
            if t == ids.BOOL_ARRAY:
                if not isinstance(e, bool):
                    self.err("element %d of bool_array is invalid", i)
                u = 1 if e else 0
            elif t in _FLOAT_ARRAYS:
                u = _parse_float(_FLOAT_ARRAYS[t][0], e)
            elif t in (ids.INT8_ARRAY, ids.INT16_ARRAY, ids.INT32_ARRAY,
                       ids.INT64_ARRAY):
                x = _parse_i64(e)
                bits = w * 8
                u = None
                if x is not None and -(1 << (bits - 1)) <= x < (1 << (bits - 1)):
                    u = x & ((1 << bits) - 1)
            else:
                u = _parse_u64(e)
                if u is not None and u >= (1 << (8 * w)):
                    u = None
            if u is None:
                self.err("element %d of %s is invalid", i, _type_name(t))
            out += u.to_bytes(w, "little")
        return bytes(out)

    def enum(self, j, v):
        d = self.doc
        if not isinstance(v, dict):
            self.err("enum takes {\"type_id\": N, \"value\": N}")
        tn, ti, ev = v.get("type"), v.get("type_id"), v.get("value")
        if tn is not None:
            idx = None
            if isinstance(tn, str) and _is_int(ev):
                try:
                    idx = self.ctx.find_type(tn)
                except WireError:
                    idx = None
            if idx is None or self.ctx.type_kind(idx) != ids.KIND_ENUM:
                self.err("enum type \"%s\" is not an enum of the schema",
                         tn if isinstance(tn, str) else "?")
            n = d.enum_of(idx, ev)
            self.name_encodings(j, n)
            return n
        if ti is None and _is_int(ev) and len(v) == 1:
            return d.enum(0xFFFFFFFF, ev)
        if not (_is_int(ti) and _is_int(ev) and 0 <= ti <= 0xFFFFFFFF and
                0 <= ev <= 0xFFFFFFFF):
            self.err("enum takes {\"type_id\": N, \"value\": N}")
        return d.enum(ti, ev)

    def named_enum(self, j, v):
        ns = v.get("namespace") if isinstance(v, dict) else None
        nm = v.get("name") if isinstance(v, dict) else None
        ev = v.get("value") if isinstance(v, dict) else None
        if not (isinstance(ns, str) and isinstance(nm, str) and _is_int(ev) and
                0 <= ev <= 0xFFFFFFFF):
            self.err("named_enum takes {\"namespace\", \"name\", \"value\"}")
        n = self.doc.named_enum(ns, nm, ev)
        a, b = self.msenc(j, "ns_enc"), self.msenc(j, "name_enc")
        if (a >= 0) != (b >= 0):
            self.err("give both ns_enc and name_enc or neither")
        if a >= 0:
            n.name_encodings = (a, b)
        hs, hn = j.get("ns_hash"), j.get("name_hash")
        if (hs is not None and not isinstance(hs, str)) or \
                (hn is not None and not isinstance(hn, str)):
            self.err("ns_hash/name_hash must be \"raw\" or \"abs\"")
        n.name_hash_forms = (1 if hs == "raw" else 0, 1 if hn == "raw" else 0)
        n.name_refs = (j.get("ns_xref") is True, j.get("name_xref") is True)
        return n

    def struct(self, j, key, v, t, depth):
        d = self.doc
        if not isinstance(v, dict):
            self.err("struct takes {\"type\": \"ns.Name\", \"fields\": {...}}")
        tn, fs, td = v.get("type"), v.get("fields"), v.get("typedef")
        if fs is not None and not isinstance(fs, dict):
            self.err("struct takes {\"type\": \"ns.Name\", \"fields\": {...}}")
        if _is_int(td):
            if not 0 <= td < len(self.tds):
                self.err("\"typedef\": %d names no earlier TypeDef", td)
            n = d.struct_like(self.tds[td])
        elif isinstance(td, str):
            try:
                raw = bytes.fromhex(td)
            except ValueError:
                self.err("\"typedef\" must be hex")
            n = d.struct_typedef(raw)
            self.tds.append(n)
        else:
            idx = None
            if isinstance(tn, str):
                try:
                    idx = self.ctx.find_type(tn)
                except WireError:
                    idx = None
            want = ids.KIND_EXT if t == ids.EXT else ids.KIND_STRUCT
            if idx is None or self.ctx.type_kind(idx) != want:
                self.err("%s type \"%s\" is not in the schema (--schema)", key,
                         tn if isinstance(tn, str) else "?")
            n = d.struct(idx)
        self.remember(j, n)
        self.name_encodings(j, n)
        for fk, fv in (fs or {}).items():
            c = self.node(fv, depth + 1)
            try:
                n.set_field(fk, c)
            except WireError:
                self.err("struct %s has no field \"%s\"",
                         tn if isinstance(tn, str) else "?", fk)
        return n


def add_notation_root(doc, value):
    """Builds a node from a notation value and adds it as a root. Raises
    NotationError (class "notation") or WireError."""
    n = _Parser(doc).node(value)
    doc.add_root(n)
    return n
