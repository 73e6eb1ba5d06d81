"""Context: options, limits, FDL schemas and Python class registrations."""

import dataclasses
import os
import re
import threading
import typing
from ctypes import byref, c_uint32

from . import _hooks, _native, _registry, ids
from ._errors import WireError, ctx_error, py_error
from ._lib import Closing, lib

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


class Context(Closing):
    """Options, limits, loaded FDL schemas and class registrations, around one
    wire_ctx. Not thread-safe: use one Context per thread (the module-level
    dumps/loads keep one per thread and configuration).

        ctx = Context(ref=True, compatible=True, schema="demo.fdl",
                      limits={"depth": 32})
        data = ctx.dumps(value); value = ctx.loads(data)
    """

    def __init__(self, *, ref=False, compatible=False, schema=None,
                 limits=None):
        self._ptr = None
        p = lib.wire_ctx_new()
        if not p:
            raise MemoryError("wire_ctx_new")
        self._ptr = p
        self._hooks = _hooks.Hooks(self)
        self._codec = _native.Codec(p, self._hooks)
        self._hooks.codec = self._codec
        # dumps / loads straight to C: the codec syncs the registrations
        self.dumps = self._codec.dumps
        self.loads = self._codec.loads
        self._ref = False
        self._compatible = False
        self.ref = ref
        self.compatible = compatible
        self._local = {}           # per-context registrations
        self._local_version = 0
        self._schemas = []
        self._key = None
        self._schema_version = 0
        self._type_of_cls = {}     # cls -> type index
        self._cls_of_type = {}     # type index -> cls
        self._unresolved = {}      # cls -> reason
        self._names = {}           # type index -> full name
        for path in _schema_paths(schema):
            self.load_schema(path)
        for k, v in (limits or {}).items():
            self.set_limit(k, v)

    # ---- lifetime -------------------------------------------------------
    def close(self):
        """Frees the wire_ctx. Documents made from it must be gone."""
        p, self._ptr = self._ptr, None
        codec = getattr(self, "_codec", None)
        if codec is not None:
            codec.close()
            self._codec = None
        if p:
            lib.wire_ctx_free(p)

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
        self._codec.set_ref(self._ref)

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
        self._schema_version += 1
        self._codec.invalidate()
        return self

    def load_schema_text(self, text, name=None):
        """Loads FDL source text (wire_schema_load_fdl). `name` is used in
        error messages and to resolve imports. Returns self."""
        b = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        st = lib.wire_schema_load_fdl(self._ptr, b, len(b),
                                      name.encode() if name else None)
        if st:
            raise ctx_error(self._ptr, st)
        self._schema_version += 1
        self._codec.invalidate()
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
        self._codec.invalidate()
        return cls

    def _resolve(self):
        key = (_registry.VERSION[0], self._local_version,
               self._schema_version)
        if key == self._key:
            return
        self._codec.clear()
        self._type_of_cls = {}
        self._cls_of_type = {}
        self._unresolved = {}
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

    # ---- values ---------------------------------------------------------
    def _sync(self):
        if self._key != (_registry.VERSION[0], self._local_version,
                         self._schema_version):
            self._resolve()

    def dumps(self, obj, into=None):
        """One root value -> bytes. With `into` (a writable buffer:
        bytearray, memoryview, ...) the payload is written there instead
        and its length returned; a buffer too small raises
        WireError("buffer_full") whose offset is the size needed.
        (Each Context binds this name to its codec's C method.)"""
        return self._codec.dumps(obj, into)

    def dumps_all(self, objs, into=None):
        """Several root values -> one payload (the frames concatenated)."""
        return self._codec.encode(tuple(objs), into)

    def loads(self, data):
        """One root value from any buffer (bytes, bytearray, memoryview,
        mmap). (Each Context binds this name to its codec's C method.)"""
        return self._codec.loads(data)

    def loads_all(self, data):
        """Every root value of a payload, as a list."""
        return self._codec.decode(data)

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


