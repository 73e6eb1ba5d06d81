"""The value notation (spec/notation.md) <-> Documents, through libwire's
own printer and parser (wire_notation_print / wire_notation_parse), so that
the binding, the CLI and every testee share one implementation.

    to_notation(doc, i, untracked=False) -> dict    (like `wire decode`)
    node_notation(doc, node, untracked=False) -> dict
    add_notation_root(doc, value) -> Node           (like `wire encode`)
    print_notation(doc, node, flags=0) -> str       (the JSON text)

Printing records every wire choice of a decoded document, so encoding the
printed notation gives the same bytes.
"""

import json
from ctypes import byref, c_size_t, c_void_p, string_at

from . import ids
from ._errors import WireError, ctx_error
from ._lib import lib
from .document import Node

__all__ = ["to_notation", "node_notation", "add_notation_root",
           "print_notation", "NotationError", "PRETTY", "UNTRACKED", "PLAIN",
           "REFIT"]

# wire.h WIRE_NOTATION_* flags
PRETTY, UNTRACKED, PLAIN, REFIT = 1, 2, 4, 8


class NotationError(WireError):
    def __init__(self, message):
        super().__init__("notation", None, message, ids.E_NOTATION)


def print_notation(doc, node, flags=0):
    """The notation (or with PLAIN, plain JSON) of a node, as text."""
    out, n = c_void_p(), c_size_t()
    st = lib.wire_notation_print(doc.ctx._ptr, doc._ptr, node.ptr, flags,
                                 byref(out), byref(n))
    if st:
        raise ctx_error(doc.ctx._ptr, st)
    try:
        return string_at(out.value, n.value).decode("utf-8")
    finally:
        lib.wire_ctx_free_bytes(doc.ctx._ptr, out)


def node_notation(doc, node, untracked=False):
    """Any node of a document as a notation value."""
    return json.loads(print_notation(doc, node, UNTRACKED if untracked else 0))


def to_notation(doc, index, untracked=False):
    """Root `index` of a document as a notation value (a dict). With
    `untracked`, nodes written with the not-null flag where reference
    tracking would flag them get "tracked": false."""
    return node_notation(doc, doc.root(index), untracked)


def add_notation_root(doc, value, flags=0):
    """Builds a node from a notation value (a JSON-like Python value, or its
    JSON text) and adds it as a root. Raises WireError (class "notation"
    for text that is not the notation)."""
    text = value if isinstance(value, str) else json.dumps(value)
    raw = text.encode("utf-8")
    out, used = c_void_p(), c_size_t()
    st = lib.wire_notation_parse(doc.ctx._ptr, doc._ptr, raw, len(raw), flags,
                                 byref(out), byref(used))
    if st:
        raise ctx_error(doc.ctx._ptr, st)
    node = Node(doc, out.value)
    doc.add_root(node)
    return node
