"""Context: options, limits, FDL schemas and Python class registrations."""

import dataclasses
import os
import re
import sys
import threading
import typing
from ctypes import byref, c_uint32

from . import _registry, ids
from ._errors import WireError, ctx_error, py_error
from ._lib import lib

__all__ = ["Context", "default_context"]


def _schema_paths(schema):
    if schema is None:
        return ()
    if isinstance(schema, (str, bytes, os.PathLike)):
        return (os.fspath(schema),)
    return tuple(os.fspath(s) for s in schema)


_SNAKE1 = re.compile(r"(.)([A-Z][a-z]+)")
_SNAKE2 = re.compile(r"([a-z0-9])([A-Z])")


def snake(name):
    """camelCase / PascalCase -> snake_case (the wire form of field names)."""
    return _SNAKE2.sub(r"\1_\2", _SNAKE1.sub(r"\1_\2", name)).lower()


def coercer(hint):
    """A function that wraps plain ints / floats of a value in the typed
    classes a field's type hint names (libwire.Int32, list[libwire.Float32],
    dict[libwire.VarInt32, float], Optional[...], Annotated[int,
    libwire.UInt8]), or None when the hint asks for nothing. The schema's
    declared field types are not visible through the C API (yet), so this is
    how plain Python numbers reach int32 / float32 / ... fields."""
    from .values import WireFloat, WireInt
    if hint is None:
        return None
    if isinstance(hint, type) and issubclass(hint, (WireInt, WireFloat)):
        plain = int if issubclass(hint, WireInt) else float

        def scalar(v, _h=hint, _p=plain):
            return _h(v) if type(v) is _p or (_p is float and type(v) is int) \
                else v
        return scalar
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Annotated:
        for meta in args[1:]:
            if isinstance(meta, type) and issubclass(meta, (WireInt, WireFloat)):
                return coercer(meta)
        return coercer(args[0])
    if origin is typing.Union:
        subs = [coercer(a) for a in args if a is not type(None)]
        subs = [s for s in subs if s is not None]
        return subs[0] if len(subs) == 1 else None
    if origin in (list, tuple, set, frozenset):
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            return None
        el = coercer(args[0]) if args else None
        if el is None:
            return None
        make = list if origin is tuple else origin

        def seq(v, _el=el, _make=make):
            if isinstance(v, (list, tuple, set, frozenset)):
                return _make(None if e is None else _el(e) for e in v)
            return v
        return seq
    if origin is dict:
        kc = coercer(args[0]) if args else None
        vc = coercer(args[1]) if len(args) > 1 else None
        if kc is None and vc is None:
            return None
        kc = kc or (lambda x: x)
        vc = vc or (lambda x: x)

        def mapping(v, _k=kc, _v=vc):
            if isinstance(v, dict):
                return {(None if k is None else _k(k)):
                        (None if x is None else _v(x)) for k, x in v.items()}
            return v
        return mapping
    return None


class _StructInfo:
    """How a registered Python class maps onto a schema struct."""

    __slots__ = ("cls", "type", "encode_fields", "attr_by_wire", "defaults",
                 "is_dataclass")
    # encode_fields: [(attr, wire name bytes, coerce function or None)]

    def __init__(self, cls, type_index):
        self.cls = cls
        self.type = type_index
        self.encode_fields = []   # [(attr, wire name bytes)]
        self.attr_by_wire = {}    # wire name -> attr
        self.defaults = {}        # attr -> (default, factory)
        self.is_dataclass = dataclasses.is_dataclass(cls)


class _EnumInfo:
    """Member <-> wire value of a registered enum.Enum (the rule pyfory
    uses: the members' own values when they are distinct non-negative ints,
    else their ordinals)."""

    __slots__ = ("type", "to_wire", "from_wire")

    def __init__(self, cls, type_index):
        self.type = type_index
        members = list(cls)
        vals = [m.value for m in members]
        explicit = all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                       for v in vals) and len(set(vals)) == len(vals)
        if explicit:
            self.to_wire = {m: int(m.value) for m in members}
        else:
            self.to_wire = {m: i for i, m in enumerate(members)}
        self.from_wire = {v: m for m, v in self.to_wire.items()}


class Context:
    """Options, limits, loaded FDL schemas and class registrations, around one
    wire_ctx. Not thread-safe: use one Context per thread (the module-level
    dumps/loads keep one per thread and configuration).

        ctx = Context(ref=True, compatible=True, schema="demo.fdl",
                      limits={"depth": 32})
        data = ctx.dumps(value); value = ctx.loads(data)
    """

    def __init__(self, *, ref=False, compatible=False, schema=None,
                 limits=None, tape=None):
        self._ptr = None
        p = lib.wire_ctx_new()
        if not p:
            raise MemoryError("wire_ctx_new")
        self._ptr = p
        self._ref = False
        self._compatible = False
        self.ref = ref
        self.compatible = compatible
        self._local = {}           # per-context registrations
        self._local_version = 0
        self._schemas = []
        self._key = None
        self._type_of_cls = {}     # cls -> type index
        self._cls_of_type = {}     # type index -> cls
        self._unresolved = {}      # cls -> reason
        self._struct_infos = {}
        self._enum_infos = {}
        self._names = {}           # type index -> full name
        self._encoder = None
        self._decoder = None
        self._tape_encoder = None
        self._tape_decoder = None
        self._use_tape = False
        self.use_tape = tape
        for path in _schema_paths(schema):
            self.load_schema(path)
        for k, v in (limits or {}).items():
            self.set_limit(k, v)

    # ---- lifetime -------------------------------------------------------
    def close(self):
        """Frees the wire_ctx. Documents made from it must be gone."""
        p, self._ptr = self._ptr, None
        self._encoder = self._decoder = None
        if p:
            lib.wire_ctx_free(p)

    def __del__(self):
        if sys.is_finalizing():
            return  # documents may outlive us at exit: leak, do not free
        try:
            self.close()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def ptr(self):
        """The wire_ctx* as an int (for direct calls into libwire._lib)."""
        return self._ptr

    # ---- options and limits ---------------------------------------------
    @property
    def ref(self):
        """Reference tracking when writing (shared objects and cycles)."""
        return self._ref

    @ref.setter
    def ref(self, value):
        self._check(lib.wire_ctx_set_option(self._ptr, ids.OPT_REF_TRACKING,
                                            1 if value else 0))
        self._ref = bool(value)

    @property
    def compatible(self):
        """Compatible (schema evolution) mode: structs carry TypeDefs."""
        return self._compatible

    @compatible.setter
    def compatible(self, value):
        self._check(lib.wire_ctx_set_option(self._ptr, ids.OPT_COMPATIBLE,
                                            1 if value else 0))
        self._compatible = bool(value)

    @property
    def peer(self):
        """The runtime ("java", "pyfory", "go") whose choices are read and
        written where the runtimes differ (WIRE_OPT_PEER), or None."""
        return getattr(self, "_peer", None)

    @peer.setter
    def peer(self, value):
        if value not in ids.PEERS:
            raise ValueError("peer must be None, 'java', 'pyfory' or 'go'")
        self._check(lib.wire_ctx_set_option(self._ptr, ids.OPT_PEER, ids.PEERS[value]))
        self._peer = value

    @property
    def use_tape(self):
        """Whether dumps/loads go through the bulk tape entry points
        (BULK_PROPOSAL.md): one FFI call per message. Defaults to True when
        the loaded library has them (libwire._lib.tape)."""
        return self._use_tape

    @use_tape.setter
    def use_tape(self, value):
        from . import _lib
        if value is None:
            value = _lib.tape is not None
        if value and _lib.tape is None:
            raise ValueError("the loaded libwire has no tape entry points "
                             "(see BULK_PROPOSAL.md)")
        self._use_tape = bool(value)

    @staticmethod
    def _limit_id(name):
        if isinstance(name, int):
            return name
        try:
            return ids.LIMITS[name]
        except KeyError:
            raise ValueError("unknown limit %r (one of %s)" % (
                name, ", ".join(ids.LIMITS))) from None

    def set_limit(self, name, value):
        """Sets a decoder limit: depth, binary, collection, nodes,
        decimal_digits, roots, typedef_bytes, typedef_fields."""
        self._check(lib.wire_ctx_set_limit(self._ptr, self._limit_id(name),
                                           int(value)))

    def get_limit(self, name):
        return lib.wire_ctx_get_limit(self._ptr, self._limit_id(name))

    @property
    def limits(self):
        """The current limits, by name."""
        return {k: self.get_limit(k) for k in ids.LIMITS}

    def _check(self, status):
        if status:
            raise ctx_error(self._ptr, status)

    # ---- schema ---------------------------------------------------------
    def load_schema(self, path):
        """Loads an FDL file (and its imports) into this context's registry
        (wire_schema_load_fdl_file). Returns self."""
        path = os.fspath(path)
        st = lib.wire_schema_load_fdl_file(self._ptr, os.fsencode(path))
        if st:
            raise ctx_error(self._ptr, st)
        self._schemas.append(path)
        self._key = None
        return self

    def load_schema_text(self, text, name=None):
        """Loads FDL source text (wire_schema_load_fdl). `name` is used in
        error messages and to resolve imports. Returns self."""
        b = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        st = lib.wire_schema_load_fdl(self._ptr, b, len(b),
                                      name.encode() if name else None)
        if st:
            raise ctx_error(self._ptr, st)
        self._key = None
        return self

    @property
    def schemas(self):
        return tuple(self._schemas)

    def types(self):
        """[(full name, kind)] of the registered user types, in registry
        order (kind: "struct", "enum", "union", "ext")."""
        kinds = {1: "struct", 2: "enum", 3: "union", 4: "ext"}
        return [(self.type_name(i), kinds.get(lib.wire_schema_type_kind(self._ptr, i)))
                for i in range(lib.wire_schema_type_count(self._ptr))]

    def find_type(self, name):
        """Registry index of a type by full name or unique bare name."""
        b = name.encode("utf-8")
        out = c_uint32()
        if lib.wire_schema_find_type(self._ptr, b, len(b), byref(out)):
            lib.wire_ctx_clear_error(self._ptr)
            raise py_error("schema", "the context's schema has no type %r"
                           % name)
        return out.value

    def type_name(self, index):
        name = self._names.get(index)
        if name is None:
            raw = lib.wire_schema_type_name(self._ptr, index)
            name = raw.decode("utf-8") if raw is not None else None
            self._names[index] = name
        return name

    def type_kind(self, index):
        return lib.wire_schema_type_kind(self._ptr, index)

    # ---- Python classes -------------------------------------------------
    def register(self, cls, name=None):
        """Registers a class for this context only (see libwire.struct)."""
        _registry.register(cls, name, registry=self._local)
        self._local_version += 1
        return cls

    def _resolve(self):
        key = (_registry.VERSION[0], self._local_version,
               lib.wire_schema_type_count(self._ptr))
        if key == self._key:
            return
        self._type_of_cls = {}
        self._cls_of_type = {}
        self._unresolved = {}
        self._struct_infos = {}
        self._enum_infos = {}
        self._names = {}
        want = {1: "struct", 2: "enum", 4: "struct"}
        for reg in (_registry.REGISTRY, self._local):
            for cls, (name, kind) in list(reg.items()):
                nm = name or cls.__name__
                b = nm.encode("utf-8")
                out = c_uint32()
                if lib.wire_schema_find_type(self._ptr, b, len(b), byref(out)):
                    lib.wire_ctx_clear_error(self._ptr)
                    self._unresolved[cls] = "the schema has no type %r" % nm
                    continue
                k = lib.wire_schema_type_kind(self._ptr, out.value)
                if want.get(k) != kind:
                    self._unresolved[cls] = ("%r is a %s in the schema, %s is "
                                             "registered as a %s" % (
                                                 nm, {1: "struct", 2: "enum",
                                                      3: "union", 4: "ext"}[k],
                                                 cls.__name__, kind))
                    continue
                self._type_of_cls[cls] = out.value
                self._cls_of_type[out.value] = cls
        self._key = key

    def _type_of(self, cls):
        """Type index of a registered class; None if not registered; raises
        if registered but not in the schema."""
        self._resolve()
        t = self._type_of_cls.get(cls)
        if t is None and cls in self._unresolved:
            raise py_error("schema", "%s: %s" % (cls.__qualname__,
                                                  self._unresolved[cls]))
        return t

    def _struct_info(self, cls, type_index):
        info = self._struct_infos.get(cls)
        if info is not None:
            return info
        info = _StructInfo(cls, type_index)
        wire_names = self._field_names(type_index)
        wset = set(wire_names)
        try:
            hints = typing.get_type_hints(cls, include_extras=True)
        except Exception:
            hints = dict(getattr(cls, "__annotations__", {}))
        if info.is_dataclass:
            attrs = [f.name for f in dataclasses.fields(cls)]
            for f in dataclasses.fields(cls):
                if f.default is not dataclasses.MISSING:
                    info.defaults[f.name] = (f.default, None)
                elif f.default_factory is not dataclasses.MISSING:
                    info.defaults[f.name] = (None, f.default_factory)
        else:
            attrs = list(getattr(cls, "__annotations__", {}))
        for a in attrs:
            for cand in (a, snake(a)):
                if cand in wset:
                    info.encode_fields.append((a, cand.encode("utf-8"),
                                               coercer(hints.get(a))))
                    info.attr_by_wire[cand] = a
                    break
            else:
                raise py_error("schema", "field %r of %s is not a field of %s"
                               % (a, cls.__qualname__,
                                  self.type_name(type_index)))
        self._struct_infos[cls] = info
        return info

    def _field_names(self, type_index):
        """Wire names of a struct type's fields, from a fresh struct node."""
        from ._lib import lib as L
        from ctypes import c_size_t, string_at
        doc = L.wire_doc_new(self._ptr)
        try:
            n = L.wire_node_new_struct(doc, type_index)
            if not n:
                raise ctx_error(self._ptr, with_offset=False)
            out = []
            ln = c_size_t()
            for i in range(L.wire_node_count(n)):
                p = L.wire_node_field_name(n, i, byref(ln))
                out.append(string_at(p, ln.value).decode("utf-8") if p
                           else "#%d" % L.wire_node_field_tag(n, i))
            return out
        finally:
            L.wire_doc_free(doc)

    def _enum_info(self, cls, type_index):
        info = self._enum_infos.get(cls)
        if info is None:
            info = self._enum_infos[cls] = _EnumInfo(cls, type_index)
        return info

    # ---- values ---------------------------------------------------------
    def dumps(self, obj):
        """One root value -> bytes."""
        return _codec.encode(self, (obj,))

    def dumps_all(self, objs):
        """Several root values -> one payload (the frames concatenated)."""
        return _codec.encode(self, tuple(objs))

    def loads(self, data):
        """bytes holding exactly one root value -> the value."""
        roots = _codec.decode(self, data)
        if len(roots) != 1:
            if not roots:
                raise WireError("truncated", 0, "the payload holds no value",
                                1)
            raise WireError("trailing", None, "the payload holds %d root "
                            "values; use loads_all" % len(roots), 20)
        return roots[0]

    def loads_all(self, data):
        """Every root value of a payload, as a list."""
        return _codec.decode(self, data)

    # ---- documents ------------------------------------------------------
    def document(self):
        """A new empty Document (the node-level API)."""
        from .document import Document
        return Document(self)

    def decode(self, data):
        """Decodes a payload into a Document (exact: every wire choice)."""
        from .document import Document
        return Document.decode(self, data)

    def __repr__(self):
        return "<libwire.Context ref=%s compatible=%s schemas=%r>" % (
            self._ref, self._compatible, self._schemas)


# ---- per-thread default contexts for the module-level functions ----------
_tls = threading.local()


def default_context(ref=False, compatible=False, schema=None):
    """The calling thread's cached Context for this configuration."""
    cache = getattr(_tls, "cache", None)
    if cache is None:
        cache = _tls.cache = {}
    if isinstance(schema, list):
        schema = tuple(schema)
    fast = (ref, compatible, schema)
    ctx = cache.get(fast)
    if ctx is None:
        key = (bool(ref), bool(compatible),
               tuple(os.path.abspath(p) for p in _schema_paths(schema)))
        ctx = cache.get(key)
        if ctx is None:
            ctx = cache[key] = Context(ref=ref, compatible=compatible,
                                       schema=key[2])
        cache[fast] = ctx
    return ctx


from . import _codec  # noqa: E402  (needs Context defined first)
