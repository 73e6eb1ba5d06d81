"""WireError: every failure libwire reports, with its class and byte offset."""

from ._lib import lib

__all__ = ["WireError"]


class WireError(Exception):
    """A libwire failure.

    cls      error class: the status name of wire.h ("truncated", "varint",
             "schema", ...), the same names as spec/04-errors-and-limits.md
             and the conformance fixtures. Failures found on the Python side
             use the same names ("value" for an int outside int64,
             "unsupported" for a Python type with no wire mapping).
    offset   byte offset in the input (decoding) or the output (encoding)
             where it happened; None when no byte position applies.
    message  detailed message.
    code     the numeric status (WIRE_E_*), or None.
    """

    def __init__(self, cls, offset, message, code=None):
        self.cls = cls
        self.offset = offset
        self.message = message
        self.code = code
        where = "" if offset is None else " at byte %d" % offset
        super().__init__("%s%s: %s" % (cls, where, message))

    def __reduce__(self):
        return (type(self), (self.cls, self.offset, self.message, self.code))


_NAMES = {}


def status_name(status):
    name = _NAMES.get(status)
    if name is None:
        name = _NAMES[status] = lib.wire_status_name(status).decode()
    return name


def ctx_error(ctxp, status=None, with_offset=True):
    """The WireError recorded on a context (after a failed call)."""
    code = lib.wire_ctx_error_code(ctxp)
    if not code:
        code = status if status else 19  # WIRE_E_STATE: no error recorded
    msg = lib.wire_ctx_error_message(ctxp).decode("utf-8", "replace")
    if not msg:
        msg = lib.wire_status_message(code).decode()
    off = lib.wire_ctx_error_offset(ctxp) if with_offset else None
    return WireError(status_name(code), off, msg, code)


def py_error(cls, message):
    """A failure found on the Python side (no byte offset)."""
    code = {"value": 14, "unsupported": 15, "schema": 22, "arg": 11,
            "string": 6, "notation": 17, "ref": 4, "depth": 8}.get(cls)
    return WireError(cls, None, message, code)
