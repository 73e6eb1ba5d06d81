"""The node-level API: a Document is a wire_doc (an arena of nodes holding
the root values of one payload), a Node one of its nodes.

Unlike dumps/loads, this level is exact: every node has its wire type id and
the wire choices a decoded payload recorded (string encodings, reference
flags, list headers, map chunks, meta string encodings, TypeDefs), so
Document.decode(...).encode() gives the input bytes back. The conformance
testee (libwire_testee.py) and libwire.notation work at this level.

    with ctx.document() as doc:
        lst = doc.list([doc.int(1, "int32"), doc.string("a")])
        doc.add_root(lst)
        data = doc.encode()
"""

from ctypes import byref, c_int32, c_size_t, c_uint32, c_void_p, string_at

from . import ids
from ._errors import ctx_error, py_error
from ._lib import Closing, lib

__all__ = ["Document", "Node", "type_id", "type_name"]

_STR_ENC = {"latin1": 0, "utf16": 1, "utf8": 2}
_STR_ENC_NAMES = {0: "latin1", 1: "utf16", 2: "utf8"}


def type_id(t):
    """A type id from an int or a spec name ("int32", "var_uint64",
    "null")."""
    if isinstance(t, int):
        return t
    if t == "null":
        return ids.NULL
    b = t.encode()
    v = lib.wire_type_from_name(b, len(b))
    if v < 0:
        raise py_error("arg", "unknown type name %r" % t)
    return v


def type_name(t):
    """Spec name of a type id ("int32"); "null" for ids.NULL."""
    raw = lib.wire_type_name(t)
    return raw.decode() if raw is not None else None


class Document(Closing):
    """A wire_doc. Nodes belong to the document and die with it; a decoded
    document also keeps the input bytes it points into."""

    def __init__(self, ctx, _ptr=None, _data=None):
        self.ctx = ctx
        self._data = _data
        if _ptr is None:
            _ptr = lib.wire_doc_new(ctx._ptr)
            if not _ptr:
                raise MemoryError("wire_doc_new")
        self._ptr = _ptr

    @classmethod
    def decode(cls, ctx, data):
        """Decodes every root of a payload (wire_decode)."""
        data = bytes(data)
        out = c_void_p()
        st = lib.wire_decode(ctx._ptr, data, len(data), byref(out))
        if st:
            raise ctx_error(ctx._ptr, st)
        return cls(ctx, out.value, data)

    def close(self):
        p, self._ptr = self._ptr, None
        if p:
            lib.wire_doc_free(p)

    # ---- roots and encoding ----------------------------------------------
    @property
    def roots(self):
        return [Node(self, lib.wire_doc_root(self._ptr, i))
                for i in range(lib.wire_doc_root_count(self._ptr))]

    def project(self, node, type_index):
        """Reads struct `node` as the schema's version `type_index` of its
        type (wire_struct_project): a new node of this document."""
        out = c_void_p()
        st = lib.wire_struct_project(self._ptr, node.ptr, type_index,
                                     byref(out))
        if st:
            raise ctx_error(self.ctx._ptr, st)
        return Node(self, out.value)

    def user_type(self, node):
        """Registry index of a user-typed node in the schema, or None."""
        t = c_uint32()
        if lib.wire_node_user_type(self._ptr, node.ptr, byref(t)):
            return None
        return t.value

    def root(self, i):
        n = lib.wire_doc_root(self._ptr, i)
        if not n:
            raise IndexError(i)
        return Node(self, n)

    def __len__(self):
        return lib.wire_doc_root_count(self._ptr)

    def add_root(self, node):
        self._ok(lib.wire_doc_add_root(self._ptr, node.ptr))
        return node

    @property
    def node_count(self):
        return lib.wire_doc_node_count(self._ptr)

    def encode(self):
        """Every root -> bytes (wire_encode)."""
        p = self.ctx._ptr
        out = c_void_p()
        ln = c_size_t()
        st = lib.wire_encode(p, self._ptr, byref(out), byref(ln))
        if st:
            raise ctx_error(p, st)
        try:
            return string_at(out, ln.value)
        finally:
            lib.wire_ctx_free_bytes(p, out)

    # ---- builders --------------------------------------------------------
    def _ok(self, st):
        if st:
            raise ctx_error(self.ctx._ptr, st, with_offset=False)

    def _node(self, ptr):
        if not ptr:
            raise ctx_error(self.ctx._ptr, with_offset=False)
        return Node(self, ptr)

    def null(self):
        return self._node(lib.wire_node_new_null(self._ptr))

    def none(self):
        return self._node(lib.wire_node_new_none(self._ptr))

    def bool(self, v):
        return self._node(lib.wire_node_new_bool(self._ptr, 1 if v else 0))

    def int(self, v, type="varint64"):
        """A signed integer node (int8 ... tagged_int64), range-checked."""
        v = int(v)
        if not -(1 << 63) <= v < (1 << 63):
            raise py_error("value", "%d is outside int64" % v)
        return self._node(lib.wire_node_new_int(self._ptr, type_id(type), v))

    def uint(self, v, type="var_uint64"):
        """An unsigned integer node (uint8 ... tagged_uint64)."""
        v = int(v)
        if not 0 <= v < (1 << 64):
            raise py_error("value", "%d is outside uint64" % v)
        return self._node(lib.wire_node_new_uint(self._ptr, type_id(type), v))

    def float(self, v, type="float64"):
        """A float node, rounded to the type (nearest, ties to even)."""
        return self._node(lib.wire_node_new_float(self._ptr, type_id(type),
                                                  float(v)))

    def float_bits(self, bits, type="float64"):
        """A float node from its IEEE bit pattern (exact)."""
        return self._node(lib.wire_node_new_float_bits(self._ptr,
                                                       type_id(type), bits))

    def string(self, text, encoding=None):
        """A string; encoding None = the Java runtime's choice, or "latin1",
        "utf16", "utf8"."""
        b = text.encode("utf-8", "surrogatepass") if isinstance(text, str) \
            else bytes(text)
        enc = -1 if encoding is None else _STR_ENC[encoding]
        return self._node(lib.wire_node_new_string(self._ptr, b, len(b), enc))

    def binary(self, data):
        b = bytes(data)
        return self._node(lib.wire_node_new_binary(self._ptr, b, len(b)))

    def array(self, type, raw):
        """A dense array from raw little-endian element bytes."""
        b = bytes(raw)
        return self._node(lib.wire_node_new_array(self._ptr, type_id(type), b,
                                                  len(b)))

    def date(self, days):
        return self._node(lib.wire_node_new_date(self._ptr, days))

    def timestamp(self, seconds, nanos=0):
        return self._node(lib.wire_node_new_timestamp(self._ptr, seconds,
                                                      nanos))

    def duration(self, seconds, nanos=0):
        return self._node(lib.wire_node_new_duration(self._ptr, seconds,
                                                     nanos))

    def decimal(self, unscaled, scale):
        """unscaled * 10**-scale; unscaled is any Python int."""
        neg = unscaled < 0
        mag = -unscaled if neg else unscaled
        raw = mag.to_bytes((mag.bit_length() + 7) // 8, "little")
        return self._node(lib.wire_node_new_decimal(self._ptr, 1 if neg else 0,
                                                    raw, len(raw), scale))

    def enum(self, type_id_, value):
        """ENUM with a numeric user type id (0xFFFFFFFF: an enum field value
        of a type known only from a TypeDef)."""
        return self._node(lib.wire_node_new_enum(self._ptr, type_id_, value))

    def named_enum(self, namespace, name, value):
        ns = namespace.encode("utf-8")
        nm = name.encode("utf-8")
        return self._node(lib.wire_node_new_named_enum(self._ptr, ns, len(ns),
                                                       nm, len(nm), value))

    def _type_index(self, t):
        return self.ctx.find_type(t) if isinstance(t, str) else t

    def enum_of(self, type, value):
        """An enum value of a schema enum (registry index or name)."""
        return self._node(lib.wire_node_new_enum_of(self._ptr,
                                                    self._type_index(type),
                                                    value))

    def list(self, items=(), type="list"):
        n = self._node(lib.wire_node_new_list(self._ptr, type_id(type)))
        for e in items:
            n.append(e)
        return n

    def set(self, items=()):
        return self.list(items, "set")

    def map(self, items=()):
        n = self._node(lib.wire_node_new_map(self._ptr))
        for k, v in items:
            n.put(k, v)
        return n

    def struct(self, type, fields=None):
        """A struct (or ext) of a schema type (registry index or name);
        fields: {name: Node}."""
        n = self._node(lib.wire_node_new_struct(self._ptr,
                                                self._type_index(type)))
        for k, v in (fields or {}).items():
            n.set_field(k, v)
        return n

    def struct_typedef(self, typedef, fields=None):
        """A struct whose layout comes from TypeDef bytes."""
        b = bytes(typedef)
        n = self._node(lib.wire_node_new_struct_typedef(self._ptr, b, len(b)))
        for k, v in (fields or {}).items():
            n.set_field(k, v)
        return n

    def struct_like(self, other):
        return self._node(lib.wire_node_new_struct_like(self._ptr, other.ptr))

    def union(self, type, case, value):
        """type: schema union (index or name), or None for an untyped UNION."""
        t = ids.BY_NAME if type is None else self._type_index(type)
        return self._node(lib.wire_node_new_union(self._ptr, t, case,
                                                  value.ptr))


class Node:
    """One node of a Document (valid while the document lives)."""

    __slots__ = ("doc", "ptr")

    def __init__(self, doc, ptr):
        self.doc = doc
        self.ptr = ptr

    def __eq__(self, other):
        return isinstance(other, Node) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        return "<Node %s #%d>" % (self.type_name, self.index)

    # ---- kind ------------------------------------------------------------
    @property
    def type(self):
        """Wire type id (ids.*), ids.NULL for a null."""
        return lib.wire_node_type(self.ptr)

    @property
    def type_name(self):
        return type_name(self.type)

    @property
    def index(self):
        """Creation order in the document (dense identity key)."""
        return lib.wire_node_index(self.ptr)

    # ---- scalars ---------------------------------------------------------
    @property
    def int(self):
        return lib.wire_node_int(self.ptr)

    @property
    def uint(self):
        return lib.wire_node_uint(self.ptr)

    @property
    def float(self):
        return lib.wire_node_float(self.ptr)

    @property
    def float_bits(self):
        return lib.wire_node_float_bits(self.ptr)

    @property
    def nanos(self):
        return lib.wire_node_nanos(self.ptr)

    @property
    def bytes(self):
        """String bytes in wire encoding, binary / array payload, decimal
        magnitude (little-endian), named enum type name."""
        ln = c_size_t()
        p = lib.wire_node_bytes(self.ptr, byref(ln))
        return string_at(p, ln.value) if p else b""

    @property
    def text(self):
        """A string node's text."""
        ln = c_size_t()
        lib.wire_node_string_utf8(self.ptr, None, 0, byref(ln))
        import ctypes
        buf = ctypes.create_string_buffer(ln.value + 1)
        st = lib.wire_node_string_utf8(self.ptr, buf, ln.value + 1, byref(ln))
        if st:
            raise ctx_error(self.doc.ctx._ptr, st, with_offset=False)
        return buf.raw[:ln.value].decode("utf-8", "surrogatepass")

    @property
    def string_encoding(self):
        return _STR_ENC_NAMES.get(lib.wire_node_string_encoding(self.ptr))

    @property
    def decimal(self):
        """(unscaled int, scale)."""
        mag = int.from_bytes(self.bytes, "little")
        neg = lib.wire_node_decimal_negative(self.ptr)
        return (-mag if neg else mag), lib.wire_node_decimal_scale(self.ptr)

    @property
    def decimal_negative(self):
        return bool(lib.wire_node_decimal_negative(self.ptr))

    @property
    def enum_value(self):
        return lib.wire_node_enum_value(self.ptr)

    @property
    def enum_type_id(self):
        return lib.wire_node_enum_type_id(self.ptr)

    @property
    def enum_namespace(self):
        ln = c_size_t()
        p = lib.wire_node_enum_namespace(self.ptr, byref(ln))
        return string_at(p, ln.value).decode("utf-8") if p else ""

    # ---- containers ------------------------------------------------------
    @property
    def count(self):
        return lib.wire_node_count(self.ptr)

    def __len__(self):
        return lib.wire_node_count(self.ptr)

    def child(self, i):
        return Node(self.doc, lib.wire_node_child(self.ptr, i))

    @property
    def children(self):
        p = self.ptr
        return [Node(self.doc, lib.wire_node_child(p, i))
                for i in range(lib.wire_node_count(p))]

    def items(self):
        """A map's entries as [(key Node, value Node)] in wire order."""
        p, d = self.ptr, self.doc
        return [(Node(d, lib.wire_node_map_key(p, i)),
                 Node(d, lib.wire_node_map_value(p, i)))
                for i in range(lib.wire_node_count(p))]

    def append(self, node):
        self.doc._ok(lib.wire_list_append(self.doc._ptr, self.ptr, node.ptr))
        return self

    def put(self, key, value):
        self.doc._ok(lib.wire_map_put(self.doc._ptr, self.ptr, key.ptr,
                                      value.ptr))
        return self

    # ---- structs, unions, user types ------------------------------------
    def field_name(self, i):
        ln = c_size_t()
        p = lib.wire_node_field_name(self.ptr, i, byref(ln))
        return string_at(p, ln.value).decode("utf-8") if p else None

    def field_tag(self, i):
        return lib.wire_node_field_tag(self.ptr, i)

    def field(self, i):
        f = lib.wire_node_field(self.ptr, i)
        return Node(self.doc, f) if f else None

    @property
    def fields(self):
        """[(wire name or None, tag, Node or None)] in wire order."""
        return [(self.field_name(i), self.field_tag(i), self.field(i))
                for i in range(self.count)]

    def set_field(self, name, node):
        b = name.encode("utf-8")
        self.doc._ok(lib.wire_struct_set_field(self.doc._ptr, self.ptr, b,
                                               len(b), node.ptr))
        return self

    @property
    def user_type(self):
        """Registry index of a struct/ext/enum/union in the context's
        schema, or None."""
        out = c_uint32()
        if lib.wire_node_user_type(self.doc._ptr, self.ptr, byref(out)):
            lib.wire_ctx_clear_error(self.doc.ctx._ptr)
            return None
        return out.value

    @property
    def type_names(self):
        """(namespace, name) of a type registered by name, else None."""
        pns, pnm = c_void_p(), c_void_p()
        lns, lnm = c_size_t(), c_size_t()
        if lib.wire_node_type_names(self.ptr, byref(pns), byref(lns),
                                    byref(pnm), byref(lnm)):
            return None
        return (string_at(pns, lns.value).decode("utf-8") if lns.value else "",
                string_at(pnm, lnm.value).decode("utf-8") if lnm.value else "")

    @property
    def user_type_id(self):
        v = lib.wire_node_user_type_id(self.ptr)
        return None if v == 0xFFFFFFFF else v

    @property
    def typedef(self):
        """The TypeDef bytes the struct was read with (see wire.h), or
        None. Identical TypeDefs of one root are the same bytes object key:
        typedef_key tells them apart."""
        ln = c_size_t()
        p = lib.wire_node_typedef(self.ptr, byref(ln))
        return string_at(p, ln.value) if p else None

    @property
    def typedef_key(self):
        """Address of the TypeDef (equal for structs sharing one), or
        None."""
        ln = c_size_t()
        return lib.wire_node_typedef(self.ptr, byref(ln))

    @property
    def union_case(self):
        return lib.wire_node_union_case(self.ptr)

    @property
    def union_value(self):
        return Node(self.doc, lib.wire_node_union_value(self.ptr))

    # ---- wire choices ----------------------------------------------------
    @property
    def tracked(self):
        """True / False if recorded (REF_VALUE / not), None = policy."""
        v = lib.wire_node_tracked(self.ptr)
        return None if v < 0 else bool(v)

    @tracked.setter
    def tracked(self, v):
        self.doc._ok(lib.wire_node_set_tracked(self.ptr, 1 if v else 0))

    @property
    def header(self):
        """Recorded list/set element header, or None (writer policy)."""
        v = lib.wire_list_header(self.ptr)
        return None if v < 0 else v

    @header.setter
    def header(self, h):
        self.doc._ok(lib.wire_list_set_header(self.ptr, -1 if h is None else h))

    @property
    def chunks(self):
        """Recorded map chunks [(header, count)], [] = writer policy."""
        h, c = c_uint32(), c_uint32()
        out = []
        for i in range(lib.wire_map_chunk_count(self.ptr)):
            lib.wire_map_chunk(self.ptr, i, byref(h), byref(c))
            out.append((h.value, c.value))
        return out

    @chunks.setter
    def chunks(self, chunks):
        self.doc._ok(lib.wire_map_clear_chunks(self.ptr))
        for h, c in chunks or ():
            self.doc._ok(lib.wire_map_add_chunk(self.doc._ptr, self.ptr, h, c))

    @property
    def name_encodings(self):
        """(namespace, type name) meta string encodings (ints, -1 =
        policy), or None for a node without names."""
        a, b = c_int32(), c_int32()
        if lib.wire_node_name_encodings(self.ptr, byref(a), byref(b)):
            return None
        return a.value, b.value

    @name_encodings.setter
    def name_encodings(self, v):
        a, b = v
        self.doc._ok(lib.wire_node_set_name_encodings(self.ptr, a, b))

    @property
    def name_hash_forms(self):
        a, b = c_int32(), c_int32()
        if lib.wire_node_name_hash_forms(self.ptr, byref(a), byref(b)):
            return None
        return a.value, b.value

    @name_hash_forms.setter
    def name_hash_forms(self, v):
        self.doc._ok(lib.wire_node_set_name_hash_forms(self.ptr, *v))

    @property
    def name_refs(self):
        a, b = c_int32(), c_int32()
        if lib.wire_node_name_refs(self.ptr, byref(a), byref(b)):
            return None
        return bool(a.value), bool(b.value)

    @name_refs.setter
    def name_refs(self, v):
        self.doc._ok(lib.wire_node_set_name_refs(self.ptr, 1 if v[0] else 0,
                                                 1 if v[1] else 0))
