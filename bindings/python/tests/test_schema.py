"""User types from FDL schemas: structs, enums, unions, against the xlang
corpus bytes (fixtures/xlang-corpus, written by pyfory 1.7.7 and Java)."""

import dataclasses
import enum
import glob
import os
from typing import Dict, List, Optional

import pytest

import libwire
from conftest import CORPUS, REPO, corpus, schema

ITEM = schema("test_item")


def test_item_struct_matches_corpus():
    case = corpus("test_item")
    roots = [libwire.Struct("Item", name="test_item_1"),
             libwire.Struct("Item", {"name": "test_item_2"}),
             libwire.Struct("Item", name="")]
    data = libwire.dumps_all(roots, compatible=True, schema=ITEM)
    assert data.hex() == case["java_hex"] == case["pyfory_hex"]
    back = libwire.loads_all(data, compatible=True, schema=ITEM)
    assert back == roots
    assert back[0].type == "Item" and back[0].name == "test_item_1"


def test_item_dataclass_with_decorator():
    @libwire.struct("Item")
    @dataclasses.dataclass
    class Item:
        name: str = ""

    try:
        case = corpus("test_item")
        data = libwire.dumps_all([Item("test_item_1"), Item("test_item_2"),
                                  Item("")], compatible=True, schema=ITEM)
        assert data.hex() == case["java_hex"]
        back = libwire.loads_all(bytes.fromhex(case["pyfory_hex"]),
                                 compatible=True, schema=ITEM)
        assert back == [Item("test_item_1"), Item("test_item_2"), Item("")]
    finally:
        libwire.unregister(Item)


def test_bare_decorator_uses_class_name():
    ctx = libwire.Context(compatible=True, schema=ITEM)

    @dataclasses.dataclass
    class Item:
        name: str

    ctx.register(Item)     # the name "Item" is looked up in the schema
    assert ctx.loads(ctx.dumps(Item("q"))) == Item("q")
    # another context does not see it
    assert isinstance(libwire.loads(ctx.dumps(Item("q")), compatible=True,
                                    schema=ITEM), libwire.Struct)


def test_struct_without_schema_round_trips_with_its_typedef():
    case = corpus("test_item")
    data = bytes.fromhex(case["java_hex"])
    back = libwire.loads_all(data, compatible=True)      # no schema
    assert back[0].type == 102 and back[0].typedef is not None
    assert back[0].fields == {"name": "test_item_1"}
    assert libwire.dumps_all(back, compatible=True) == data


def test_schema_consistent_mode():
    case = corpus("test_one_string_field_schema")
    ctx = libwire.Context(schema=schema("test_one_string_field_schema"))
    data = bytes.fromhex(case["java_hex"])
    v = ctx.loads_all(data)
    assert ctx.dumps_all(v) == data


class Color(enum.Enum):
    Green = 0
    Red = 1
    Blue = 2
    White = 3


def test_enum_registered_and_generic():
    case = corpus("test_color")
    data = bytes.fromhex(case["java_hex"])
    ctx = libwire.Context(compatible=True, schema=schema("test_color"))
    assert ctx.loads_all(data) == [libwire.EnumValue("Color", i)
                                   for i in range(4)]
    ctx.register(Color, "Color")
    assert ctx.loads_all(data) == list(Color)
    assert ctx.dumps_all(list(Color)) == data
    assert ctx.dumps_all([libwire.EnumValue("Color", i) for i in range(4)]) \
        == data


def test_enum_ordinals_when_values_are_not_ints():
    class Shade(enum.Enum):
        GREEN = "g"
        RED = "r"
        BLUE = "b"
        WHITE = "w"
    ctx = libwire.Context(compatible=True, schema=schema("test_color"))
    ctx.register(Shade, "Color")
    assert ctx.loads(ctx.dumps(Shade.BLUE)) is Shade.BLUE
    assert ctx.dumps(Shade.BLUE) == ctx.dumps(libwire.EnumValue("Color", 2))


def test_unregistered_enum_is_an_error():
    class Other(enum.Enum):
        A = 1
    with pytest.raises(libwire.WireError) as e:
        libwire.dumps(Other.A)
    assert e.value.cls == "unsupported"


def test_simple_struct_dataclasses_match_java():
    case = corpus("test_simple_struct")
    ctx = libwire.Context(compatible=True, schema=schema("test_simple_struct"))

    @dataclasses.dataclass
    class Item:
        name: str

    # plain ints and floats: the plan of the class knows the declared
    # field types (wire_schema_field), here varint32 keys and fields
    @dataclasses.dataclass
    class SimpleStruct:
        f1: Dict[int, Optional[float]]
        f2: int
        f3: Item
        f4: str
        f5: Color
        f6: List[Optional[str]]
        f7: int
        f8: int
        last: int

    for cls, name in ((Item, "Item"), (SimpleStruct, "SimpleStruct"),
                      (Color, "Color")):
        ctx.register(cls, name)
    v = SimpleStruct({1: 1.0, 2: 2.0}, 39, Item("item"), "f4", Color.White,
                     ["f6"], 40, 41, 42)
    data = ctx.dumps(v)
    assert data.hex() == case["java_hex"]
    back = ctx.loads(bytes.fromhex(case["pyfory_hex"]))
    assert back == v and isinstance(back.f3, Item) and back.f5 is Color.White


def test_plain_int_in_int32_field_of_a_generic_struct_is_an_error():
    # a generic Struct has no class plan: its values carry their wire types
    # (libwire.VarInt32(1) would do)
    ctx = libwire.Context(compatible=True, schema=schema("test_simple_struct"))
    s = libwire.Struct("SimpleStruct", f1={}, f2=1, f3=libwire.Struct(
        "Item", name="x"), f4="", f5=libwire.EnumValue("Color", 0), f6=[],
        f7=1, f8=1, last=1)
    with pytest.raises(libwire.WireError) as e:
        ctx.dumps(s)
    assert e.value.cls == "encode" and "f2" in e.value.message


def test_union():
    case = corpus("test_union_xlang")
    ctx = libwire.Context(compatible=True, schema=schema("test_union_xlang"))
    data = bytes.fromhex(case["java_hex"])
    v = ctx.loads_all(data)
    assert v[0].fields["union"] == libwire.Union("StringOrInt64", 0, "hello")
    assert v[1].fields["union"] == libwire.Union("StringOrInt64", 1, 42)
    assert ctx.dumps_all(v) == data
    fresh = [libwire.Struct("StructWithUnion2",
                            union=libwire.Union("StringOrInt64", 0, "hello")),
             libwire.Struct("StructWithUnion2",
                            union=libwire.Union("StringOrInt64", 1, 42))]
    assert ctx.dumps_all(fresh) == data


def test_named_types():
    case = corpus("test_named_simple_struct")
    ctx = libwire.Context(compatible=True,
                          schema=schema("test_named_simple_struct"))
    data = bytes.fromhex(case["java_hex"])
    v = ctx.loads_all(data)
    assert v[0].type == "demo.simple_struct"
    assert v[0].f3 == libwire.Struct("demo.item", name="item")
    assert ctx.dumps_all(v) == data


def test_context_types_listing():
    ctx = libwire.Context(schema=schema("test_simple_struct"))
    assert ("SimpleStruct", "struct") in ctx.types()
    assert ("Color", "enum") in ctx.types()
    assert ctx.type_name(ctx.find_type("Item")) == "Item"


def _corpus_cases():
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.json"))):
        name = os.path.basename(path)[:-5]
        yield name


def _freeze(v, stack=()):
    """Compare values with sets ordered (Python set order is per run);
    a back edge of a cycle becomes a marker."""
    if isinstance(v, (libwire.Struct, list, dict, set, frozenset)):
        if id(v) in stack:
            return ("cycle", stack.index(id(v)))
        stack = stack + (id(v),)
    if isinstance(v, libwire.Struct):
        return ("struct", v.type, tuple((k, _freeze(x, stack)) for k, x in
                                        v.fields.items()))
    if isinstance(v, (set, frozenset)):
        return ("set", tuple(sorted((_freeze(x, stack) for x in v), key=repr)))
    if isinstance(v, list):
        return [_freeze(x, stack) for x in v]
    if isinstance(v, dict):
        return {k: _freeze(x, stack) for k, x in v.items()}
    return v


def _has_set(v, seen=None):
    seen = set() if seen is None else seen
    if id(v) in seen:
        return False
    seen.add(id(v))
    if isinstance(v, (set, frozenset)):
        return True
    if isinstance(v, libwire.Struct):
        return any(_has_set(x, seen) for x in v.fields.values())
    if isinstance(v, (list, tuple)):
        return any(_has_set(x, seen) for x in v)
    if isinstance(v, dict):
        return any(_has_set(x, seen) for x in v.values())
    if isinstance(v, libwire.Union):
        return _has_set(v.value, seen)
    return False


@pytest.mark.parametrize("name", list(_corpus_cases()))
def test_corpus_loads_dumps(name):
    """Every corpus payload loads with its schema into generic values, and
    dumps gives the Java runtime's bytes back (where Python's set order does
    not decide them)."""
    case = corpus(name)
    ctx = libwire.Context(ref=case["ref"],
                          compatible=case["mode"] == "compatible",
                          schema=os.path.join(REPO, case["schema"]))
    data = bytes.fromhex(case["java_hex"])
    values = ctx.loads_all(data)
    again = ctx.dumps_all(values)
    if any(_has_set(v) for v in values):
        assert _freeze(ctx.loads_all(again)) == _freeze(values)
    else:
        assert again == data
    if case["pyfory_reads_java"] and name != "test_skip_name_custom":
        from_py = ctx.loads_all(bytes.fromhex(case["pyfory_hex"]))
        assert _freeze(from_py) == _freeze(values)
