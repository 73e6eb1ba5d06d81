"""Small builders for value-notation nodes (spec/notation.md) used by the
case tables."""

import struct

NULL = {"null": None}


def I(key, v):  # noqa: E743
    return {key: str(int(v))}


def V64(v):
    return I("varint64", v)


def V32(v):
    return I("varint32", v)


def S(text):
    return {"string": text}


def B(data):
    if isinstance(data, (bytes, bytearray)):
        data = bytes(data).hex()
    return {"binary": data}


def BOOL(b):
    return {"bool": bool(b)}


def F64(x):
    if isinstance(x, int):
        return {"float64": "0x%016x" % x}
    return {"float64": "0x%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]}


def F32(x):
    if isinstance(x, int):
        return {"float32": "0x%08x" % x}
    return {"float32": "0x%08x" % struct.unpack("<I", struct.pack("<f", x))[0]}


def F16(bits):
    return {"float16": "0x%04x" % bits}


def BF16(bits):
    return {"bfloat16": "0x%04x" % bits}


def L(*items, **ann):
    return dict({"list": list(items)}, **ann)


def SET(*items, **ann):
    return dict({"set": list(items)}, **ann)


def M(*pairs, **ann):
    return dict({"map": [[k, v] for k, v in pairs]}, **ann)


def DATE(days):
    return {"date": str(days)}


def TS(seconds, nanos=0):
    return {"timestamp": {"seconds": str(seconds), "nanos": nanos}}


def DUR(seconds, nanos=0):
    return {"duration": {"seconds": str(seconds), "nanos": nanos}}


def DEC(unscaled, scale=0):
    return {"decimal": {"unscaled": str(unscaled), "scale": scale}}


def ARR(key, values):
    if key == "bool_array":
        return {key: [bool(v) for v in values]}
    if key.startswith(("float", "bfloat")):
        width = {"float16_array": 4, "bfloat16_array": 4, "float32_array": 8, "float64_array": 16}[key]
        return {key: ["0x%0*x" % (width, v) for v in values]}
    return {key: [str(v) for v in values]}


def ENUM(type_id, value):
    return {"enum": {"type_id": type_id, "value": value}}


def NENUM(namespace, name, value):
    return {"named_enum": {"namespace": namespace, "name": name, "value": value}}


def REF(name):
    return {"ref": name}


def anchor(node, name):
    return dict(node, anchor=name)
