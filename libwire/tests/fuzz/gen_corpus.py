#!/usr/bin/env python3
"""Regenerates the fuzz seed corpus (corpus/*.bin) from the pyfory runtime.

Every seed is a payload written by pyfory in xlang mode (plus three
hand-written union payloads), so it is valid and must round-trip through
libwire losslessly. Usage:
    python3 libwire/tests/fuzz/gen_corpus.py [OUTDIR]
"""
import datetime
import decimal
import enum
import os
import sys

import pyfory


class Color(enum.Enum):
    RED = 0
    GREEN = 1
    BLUE = 2


class Shape(enum.Enum):
    SQUARE = 0
    CIRCLE = 1


def fory(ref, enums=False):
    f = pyfory.Fory(xlang=True, ref=ref)
    if enums:
        f.register_type(Color, type_id=101)
        f.register_type(Shape, name="example.shapes.Shape")
    return f


def seeds():
    plain = fory(False)
    out = {
        "list_mixed": plain.serialize([1, "a", None]),
        "map_str_int": plain.serialize({"a": 1, "bb": 2, "ccc": -3}),
        "str_latin1": plain.serialize("h\u00e9llo"),
        "str_utf16": plain.serialize("\u4f60\u597d, world"),
        "str_empty": plain.serialize(""),
        "binary": plain.serialize(b"\x00\x01\xfe\xff"),
        "float64": plain.serialize(1.5),
        "float64_nan": plain.serialize(float("nan")),
        "bool": plain.serialize(True),
        "int_big": plain.serialize(2 ** 40),
        "int_min": plain.serialize(-(2 ** 63)),
        "int_neg": plain.serialize(-5),
        "none": plain.serialize(None),
        "set": plain.serialize({1, 2, 3}),
        "date": plain.serialize(datetime.date(2024, 1, 2)),
        "timestamp": plain.serialize(datetime.datetime(
            2024, 1, 2, 3, 4, 5, 678000, tzinfo=datetime.timezone.utc)),
        "duration": plain.serialize(datetime.timedelta(seconds=5,
                                                       microseconds=7)),
        "decimal_small": plain.serialize(decimal.Decimal("1.23")),
        "decimal_big": plain.serialize(
            decimal.Decimal("-123456789012345678901234567890.5")),
        "nested_lists": plain.serialize([[1], [2, 3], [], ["x", 1.0]]),
        "map_nulls": plain.serialize({1: None, None: 2, "k": "v"}),
        "map_mixed": plain.serialize({"a": [1, 2], 2: {"x": True}, 3.5: b"z"}),
        "list_with_nulls": plain.serialize([None, 1, None, 2]),
        "tuple": plain.serialize((1, 2, "three")),
    }
    en = fory(False, enums=True)
    out["enum_list"] = en.serialize([Color.GREEN, Color.RED, Color.BLUE])
    out["named_enum"] = en.serialize([Shape.CIRCLE, Color.RED, Shape.SQUARE])
    out["named_enum_map"] = en.serialize({Shape.CIRCLE: Shape.SQUARE})
    ref = fory(True)
    shared = [1, 2]
    out["ref_shared"] = ref.serialize([shared, shared, "x", "x"])
    cyc = []
    cyc.append(cyc)
    out["ref_list_cycle"] = ref.serialize(cyc)
    dcyc = {}
    dcyc["self"] = dcyc
    out["ref_map_cycle"] = ref.serialize(dcyc)
    out["ref_plain_values"] = ref.serialize([1, "a", None, {"k": [None]}])
    out["ref_shared_map"] = ref.serialize({"a": shared, "b": shared})
    # Two root values back to back (a payload stream).
    out["two_roots"] = plain.serialize(7) + plain.serialize(["y"])
    # Hand-written (no registry needed to decode them): unions.
    out["union_typed"] = bytes.fromhex("01ff220500ff0702")
    out["union_named"] = bytes.fromhex("01ff230204000000ff24")
    out["union_plain"] = bytes.fromhex("01ff2101ff150461")
    return out


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(outdir, exist_ok=True)
    for name, data in sorted(seeds().items()):
        with open(os.path.join(outdir, name + ".bin"), "wb") as fh:
            fh.write(data)
        print(f"{name:20s} {data.hex()}")


if __name__ == "__main__":
    main()
