"""Python classes for the user types of FDL schemas.

A dataclass (or any class) becomes the Python form of a schema struct with
@libwire.struct("demo.Item"), an enum.Enum subclass the form of a schema enum
with @libwire.enum("demo.Color"). The name is the registered full name
("namespace.Name", or "Name" for an empty namespace) or any name the schema
has only once without its namespace; with no argument the class's own
__name__ is looked up that way. Registrations are global (every Context sees
them) and are matched against each Context's schema when it first needs
them; Context.register() adds registrations that only one Context sees.
"""

import enum as _enum

__all__ = ["struct", "enum", "register", "unregister"]

# cls -> (name or None, kind) ; kind "struct" or "enum"
REGISTRY = {}
VERSION = [0]


def _kind_of(cls):
    return "enum" if isinstance(cls, type) and issubclass(cls, _enum.Enum) \
        else "struct"


def register(cls, name=None, registry=None):
    """Registers `cls` for the schema type `name` (see the module doc)."""
    if not isinstance(cls, type):
        raise TypeError("register() takes a class, not %r" % (cls,))
    if name is not None and not isinstance(name, str):
        raise TypeError("the type name must be a str")
    (REGISTRY if registry is None else registry)[cls] = (name, _kind_of(cls))
    VERSION[0] += 1
    return cls


def unregister(cls):
    REGISTRY.pop(cls, None)
    VERSION[0] += 1


def _decorator(kind):
    def deco(name=None):
        if isinstance(name, type):  # used bare: @libwire.struct
            cls = name
            if _kind_of(cls) != kind:
                raise TypeError("@libwire.%s on %s" % (kind, cls.__name__))
            return register(cls)

        def wrap(cls):
            if _kind_of(cls) != kind:
                raise TypeError("@libwire.%s on %s" % (kind, cls.__name__))
            return register(cls, name)
        return wrap
    deco.__name__ = kind
    deco.__doc__ = ("Class decorator: @libwire.%s(\"ns.Name\") or "
                    "@libwire.%s registers the class for the schema %s of "
                    "that name." % (kind, kind, kind))
    return deco


struct = _decorator("struct")
enum = _decorator("enum")
