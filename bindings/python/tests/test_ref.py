"""Shared references and cycles (ref=True): identity preserved both ways."""

import dataclasses
import decimal

import pytest

import libwire
from conftest import corpus, schema


def test_shared_list_identity():
    s = [1, 2]
    v = [s, s, [s]]
    back = libwire.loads(libwire.dumps(v, ref=True))
    assert back == v
    assert back[0] is back[1] is back[2][0]


def test_without_ref_shared_objects_are_copied():
    s = [1, 2]
    back = libwire.loads(libwire.dumps([s, s]))
    assert back == [s, s] and back[0] is not back[1]


def test_list_cycle():
    a = ["x"]
    a.append(a)
    back = libwire.loads(libwire.dumps(a, ref=True))
    assert back[0] == "x" and back[1] is back


def test_dict_cycle_and_mutual_cycle():
    a, b = {}, {}
    a["b"] = b
    b["a"] = a
    back = libwire.loads(libwire.dumps([a, b], ref=True))
    x, y = back
    assert x["b"] is y and y["a"] is x


def test_cycle_without_ref_is_a_depth_error():
    a = []
    a.append(a)
    with pytest.raises(libwire.WireError) as e:
        libwire.dumps(a)
    assert e.value.cls == "depth"
    assert e.value.offset is not None


def test_shared_scalars_of_trackable_types():
    b = b"shared bytes"
    d = decimal.Decimal("1.5")
    back = libwire.loads(libwire.dumps([b, b, d, d, "s", "s"], ref=True))
    assert back == [b, b, d, d, "s", "s"]
    assert back[0] is back[1] and back[2] is back[3]


def test_shared_sets():
    s = {1, 2}
    back = libwire.loads(libwire.dumps({"a": s, "b": s}, ref=True))
    assert back["a"] is back["b"] == {1, 2}


def test_struct_self_reference():
    # CircularRefStruct: `ref CircularRefStruct self_ref` (corpus case)
    case = corpus("test_circular_ref_compatible")
    ctx = libwire.Context(ref=True, compatible=True,
                          schema=schema("test_circular_ref_compatible"))
    s = libwire.Struct("CircularRefStruct", name="compatible_circular")
    s["self_ref"] = s
    data = ctx.dumps(s)
    assert data.hex() == case["java_hex"]
    back = ctx.loads(bytes.fromhex(case["pyfory_hex"]))
    assert back.fields["self_ref"] is back
    assert back.name == "compatible_circular"


def test_registered_struct_cycle():
    ctx = libwire.Context(ref=True, compatible=True,
                          schema=schema("test_circular_ref_compatible"))

    @dataclasses.dataclass(eq=False)
    class Circ:
        name: str = ""
        self_ref: "Circ" = None

    ctx.register(Circ, "CircularRefStruct")
    c = Circ("compatible_circular")
    c.self_ref = c
    data = ctx.dumps(c)
    assert data.hex() == corpus("test_circular_ref_compatible")["java_hex"]
    back = ctx.loads(data)
    assert isinstance(back, Circ) and back.self_ref is back
