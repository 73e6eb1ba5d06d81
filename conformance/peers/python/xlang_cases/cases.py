"""The user-type cases of the corpus: one entry per upstream XlangTestBase case
(format-facts.md section 4.2), with the schema, the registrations and the
root values in the value notation.

A Case lists TypeEntry registrations.  `type` is the notation name of the type
(the FDL message/enum/union name, prefixed with the package for types
registered by name), `py` the pyfory carrier (pytypes.py), `java` the simple
name of the Java carrier in XTypes.java (None: not registered in Java, e.g. the
union, which Java handles as the built-in Union2).
"""

from dataclasses import dataclass
from typing import Any, List, Optional

import pytypes as P
from notation import (
    A32, BF16, E, F16, F32, F64, I8, I16, I32, L, M, NULL, Ref, S, SET, Str, Bool, TI64, TU64, U, U8, U16, U32,
    U64, VI32, VI64, VU32, VU64, X,
)


@dataclass
class TypeEntry:
    type: str
    py: Any
    java: Optional[str]
    id: Optional[int] = None
    name: Optional[str] = None  # "ns.name" or "name" when registered by name
    ext: bool = False
    union: bool = False

    def ns_and_name(self):
        if "." in self.name:
            ns, _, n = self.name.rpartition(".")
            return ns, n
        return "", self.name


@dataclass
class Case:
    name: str
    mode: str  # "schema_consistent" | "compatible"
    types: List[TypeEntry]
    roots: List[dict]
    ref: bool = False
    noop_meta: bool = False
    reader_types: Optional[List[TypeEntry]] = None
    reader_roots: Optional[List[Any]] = None  # notation, or the string "error"
    runtime_roots: Optional[List[dict]] = None  # what the runtimes are given, if not `roots`
    notes: str = ""

    @property
    def compatible(self):
        return self.mode == "compatible"


SS, C = "schema_consistent", "compatible"


def T(type_, py, java, id=None, name=None, ext=False, union=False):
    return TypeEntry(type_, py, java, id=id, name=name, ext=ext, union=union)


def simple_struct_value(color, item, simple):
    return S(simple, f1=M((VI32(1), F64(1.0)), (VI32(2), F64(2.0))), f2=VI32(39), f3=S(item, name=Str("item")),
             f4=Str("f4"), f5=E(color, 3), f6=L(Str("f6")), f7=VI32(40), f8=VI32(41), last=VI32(42))


def item(t, name):
    return S(t, name=Str(name))


def nullable_sc(with_values):
    base = dict(
        byte_field=I8(1), short_field=I16(2), int_field=VI32(42), long_field=VI64(123456789),
        float_field=F32(1.5), double_field=F64(2.5), bool_field=Bool(True), string_field=Str("hello"),
        list_field=L(Str("a"), Str("b"), Str("c")), set_field=SET(Str("x"), Str("y")),
        map_field=M((Str("key1"), Str("value1")), (Str("key2"), Str("value2"))),
    )
    if with_values:
        base.update(
            nullable_int=VI32(100), nullable_long=VI64(200), nullable_float=F32(1.5), nullable_double=F64(2.5),
            nullable_bool=Bool(False), nullable_string=Str("nullable_value"), nullable_list=L(Str("p"), Str("q")),
            nullable_set=SET(Str("m"), Str("n")), nullable_map=M((Str("nk1"), Str("nv1"))),
        )
    else:
        for k in ("nullable_int", "nullable_long", "nullable_float", "nullable_double", "nullable_bool",
                  "nullable_string", "nullable_list", "nullable_set", "nullable_map"):
            base[k] = NULL
    return S("NullableComprehensiveSchemaConsistent", base)


def nullable_c(with_values):
    base = dict(
        byte_field=I8(1), short_field=I16(2), int_field=VI32(42), long_field=VI64(123456789),
        float_field=F32(1.5), double_field=F64(2.5), bool_field=Bool(True),
        boxed_int=VI32(10), boxed_long=VI64(20), boxed_float=F32(1.1), boxed_double=F64(2.2), boxed_bool=Bool(True),
        string_field=Str("hello"), list_field=L(Str("a"), Str("b"), Str("c")), set_field=SET(Str("x"), Str("y")),
        map_field=M((Str("key1"), Str("value1")), (Str("key2"), Str("value2"))),
    )
    if with_values:
        base.update(
            nullable_int1=VI32(100), nullable_long1=VI64(200), nullable_float1=F32(1.5), nullable_double1=F64(2.5),
            nullable_bool1=Bool(False), nullable_string2=Str("nullable_value"), nullable_list2=L(Str("p"), Str("q")),
            nullable_set2=SET(Str("m"), Str("n")), nullable_map2=M((Str("nk1"), Str("nv1"))),
        )
    else:
        for k in ("nullable_int1", "nullable_long1", "nullable_float1", "nullable_double1", "nullable_bool1",
                  "nullable_string2", "nullable_list2", "nullable_set2", "nullable_map2"):
            base[k] = NULL
    return S("NullableComprehensiveCompatible", base)


def unsigned_sc():
    return S("UnsignedSchemaConsistent", dict(
        u8_field=U8(200), u16_field=U16(60000), u32_var_field=VU32(3000000000), u32_fixed_field=U32(4000000000),
        u64_var_field=VU64(10000000000), u64_fixed_field=U64(15000000000), u64_tagged_field=TU64(1000000000),
        u8_nullable_field=U8(128), u16_nullable_field=U16(40000), u32_var_nullable_field=VU32(2500000000),
        u32_fixed_nullable_field=U32(3500000000), u64_var_nullable_field=VU64(8000000000),
        u64_fixed_nullable_field=U64(12000000000), u64_tagged_nullable_field=TU64(500000000),
    ))


def unsigned_c():
    return S("UnsignedSchemaCompatible", dict(
        u8_field1=U8(200), u16_field1=U16(60000), u32_var_field1=VU32(3000000000), u32_fixed_field1=U32(4000000000),
        u64_var_field1=VU64(10000000000), u64_fixed_field1=U64(15000000000), u64_tagged_field1=TU64(1000000000),
        u8_field2=U8(128), u16_field2=U16(40000), u32_var_field2=VU32(2500000000),
        u32_fixed_field2=U32(3500000000), u64_var_field2=VU64(8000000000),
        u64_fixed_field2=U64(12000000000), u64_tagged_field2=TU64(500000000),
    ))


def reduced_precision():
    return S("ReducedPrecisionFloatStruct", dict(
        float16_value=F16(0x3E00), bfloat16_value=BF16(0x3FC0),
        float16_array=L(F16(0x0000), F16(0x3C00), F16(0xBC00)),
        bfloat16_array=L(BF16(0x0000), BF16(0x3F80), BF16(0xBF80)),
    ))


def wrapper(color, ext, struct, wrap):
    return S(wrap, color=E(color, 3), my_ext=X(ext, "56"), my_struct=S(struct, id=VI32(42)))


def ref_outer(outer, inner, id_, name):
    return S(outer, inner1=S(inner, anchor="a1", id=VI32(id_), name=Str(name)), inner2=Ref("a1"))


def ref_override(shared):
    def el(anchor=None, ref=False):
        if ref:
            return Ref("e")
        return S("RefOverrideElement", id=VI32(7), name=Str("shared_element"), anchor=anchor)
    if shared:  # one object everywhere (what the runtimes are handed)
        return S("RefOverrideContainer", list_field=L(el("e"), el(ref=True)), set_field=SET(el(ref=True)),
                 map_field=M((Str("k1"), el(ref=True)), (Str("k2"), el(ref=True))))
    return S("RefOverrideContainer", list_field=L(el(), el()), set_field=SET(el()),
             map_field=M((Str("k1"), el()), (Str("k2"), el())))


def circular(name):
    return S("CircularRefStruct", name=Str(name), self_ref=Ref("a1"), anchor="a1")


COLOR_ID = T("Color", P.Color, "Color", id=101)
ITEM_ID = T("Item", P.Item, "Item", id=102)

CASES = [
    Case("test_simple_struct", C,
         [COLOR_ID, ITEM_ID, T("SimpleStruct", P.SimpleStruct, "SimpleStruct", id=103)],
         [simple_struct_value("Color", "Item", "SimpleStruct")]),
    Case("test_named_simple_struct", C,
         [T("demo.color", P.Color, "Color", name="demo.color"), T("demo.item", P.Item, "Item", name="demo.item"),
          T("demo.simple_struct", P.SimpleStruct, "SimpleStruct", name="demo.simple_struct")],
         [simple_struct_value("demo.color", "demo.item", "demo.simple_struct")]),
    Case("test_struct_evolving_override", C,
         [T("test.evolving_yes", P.EvolvingOverrideStruct, "EvolvingOverrideStruct", name="test.evolving_yes"),
          T("test.evolving_off", P.FixedOverrideStruct, "FixedOverrideStruct", name="test.evolving_off")],
         [S("test.evolving_yes", f1=Str("payload")), S("test.evolving_off", f1=Str("payload"))]),
    Case("test_list", C, [ITEM_ID],
         [L(Str("a"), Str("b")), L(NULL, Str("b")), L(item("Item", "a"), item("Item", "b")),
          L(NULL, item("Item", "c"))]),
    Case("test_map", C, [ITEM_ID],
         [M((Str("k1"), Str("v1")), (NULL, Str("v2")), (Str("k3"), NULL), (Str("k4"), Str("v4"))),
          M((Str("k1"), item("Item", "item1")), (NULL, item("Item", "item2")), (Str("k3"), NULL),
            (Str("k4"), item("Item", "item3")))]),
    Case("test_integer", C, [T("Item1", P.Item1, "Item1", id=101)],
         [S("Item1", f1=VI32(1), f2=VI32(2), f3=VI32(3), f4=VI32(4), f5=VI32(0), f6=VI32(0)),
          VI32(1), VI32(2), VI32(3), VI32(4), VI32(0), VI32(0)]),
    Case("test_item", C, [ITEM_ID],
         [item("Item", "test_item_1"), item("Item", "test_item_2"), item("Item", "")]),
    Case("test_color", C, [COLOR_ID], [E("Color", 0), E("Color", 1), E("Color", 2), E("Color", 3)]),
    Case("test_union_xlang", C,
         [T("StringOrInt64", P.StringOrInt64, None, id=300, union=True),
          T("StructWithUnion2", P.StructWithUnion2, "StructWithUnion2", id=301)],
         [S("StructWithUnion2", union=U("StringOrInt64", 0, Str("hello"))),
          S("StructWithUnion2", union=U("StringOrInt64", 1, VI64(42)))]),
    Case("test_struct_with_list", C, [T("StructWithList", P.StructWithList, "StructWithList", id=201)],
         [S("StructWithList", items=L(Str("a"), Str("b"), Str("c"))),
          S("StructWithList", items=L(Str("x"), NULL, Str("z")))]),
    Case("test_struct_with_map", C, [T("StructWithMap", P.StructWithMap, "StructWithMap", id=202)],
         [S("StructWithMap", data=M((Str("key1"), Str("value1")), (Str("key2"), Str("value2")))),
          S("StructWithMap", data=M((Str("k1"), NULL), (NULL, Str("v2"))))]),
    Case("test_signed_nested_annotated_container_schema_consistent", SS,
         [T("SignedNestedAnnotatedContainerSchemaConsistent", P.SignedNestedAnnotatedContainer,
            "SignedNestedAnnotatedContainer", id=803)],
         [S("SignedNestedAnnotatedContainerSchemaConsistent",
            values=M((I32(-7), L(TI64(7), TI64(-1000000000))), (I32(3), L(TI64(42)))))]),
    Case("test_signed_nested_annotated_container_compatible", C,
         [T("SignedNestedAnnotatedContainerCompatible", P.SignedNestedAnnotatedContainer,
            "SignedNestedAnnotatedContainer", id=804)],
         [S("SignedNestedAnnotatedContainerCompatible",
            values=M((I32(-7), L(TI64(7), TI64(-1000000000))), (I32(3), L(TI64(42)))))], noop_meta=True),
    Case("test_nested_annotated_container_schema_consistent", SS,
         [T("NestedAnnotatedContainerSchemaConsistent", P.NestedAnnotatedContainer, "NestedAnnotatedContainer",
            id=801)],
         [S("NestedAnnotatedContainerSchemaConsistent",
            values=M((U32(4000000000), L(TU64(7), TU64(1000000000))), (U32(3), L(TU64(42)))))]),
    Case("test_nested_annotated_container_compatible", C,
         [T("NestedAnnotatedContainerCompatible", P.NestedAnnotatedContainer, "NestedAnnotatedContainer", id=802)],
         [S("NestedAnnotatedContainerCompatible",
            values=M((U32(4000000000), L(TU64(7), TU64(1000000000))), (U32(3), L(TU64(42)))))], noop_meta=True),
    Case("test_skip_id_custom", C,
         [COLOR_ID, T("MyStruct", P.MyStruct, "MyStruct", id=102), T("MyExt", P.MyExt, "MyExt", id=103, ext=True),
          T("MyWrapper", P.MyWrapper, "MyWrapper", id=104)],
         [wrapper("Color", "MyExt", "MyStruct", "MyWrapper")],
         reader_types=[T("MyExt", P.MyExt, "MyExt", id=103, ext=True),
                       T("EmptyWrapper", P.EmptyWrapper, "EmptyWrapper", id=104)],
         reader_roots=[S("EmptyWrapper")]),
    Case("test_skip_name_custom", C,
         [T("color", P.Color, "Color", name="color"), T("my_struct", P.MyStruct, "MyStruct", name="my_struct"),
          T("my_ext", P.MyExt, "MyExt", name="my_ext", ext=True),
          T("my_wrapper", P.MyWrapper, "MyWrapper", name="my_wrapper")],
         [wrapper("color", "my_ext", "my_struct", "my_wrapper")],
         reader_types=[T("my_ext", P.MyExt, "MyExt", name="my_ext", ext=True),
                       T("my_wrapper", P.EmptyWrapper, "EmptyWrapper", name="my_wrapper")],
         reader_roots=[S("my_wrapper")]),
    Case("test_consistent_named", SS,
         [T("color", P.Color, "Color", name="color"), T("my_struct", P.MyStruct, "MyStruct", name="my_struct"),
          T("my_ext", P.MyExt, "MyExt", name="my_ext", ext=True)],
         [E("color", 3)] * 3 + [S("my_struct", id=VI32(42))] * 3 + [X("my_ext", "56")] * 3),
    Case("test_struct_version_check", SS, [T("VersionCheckStruct", P.VersionCheckStruct, "VersionCheckStruct", id=201)],
         [S("VersionCheckStruct", f1=VI32(10), f2=Str("test"), f3=F64(3.2))]),
    Case("test_polymorphic_list", C,
         [T("Dog", P.Dog, "Dog", id=302), T("Cat", P.Cat, "Cat", id=303),
          T("AnimalListHolder", P.AnimalListHolder, "AnimalListHolder", id=304)],
         [L(S("Dog", age=VI32(3), name=Str("Buddy")), S("Cat", age=VI32(5), lives=VI32(9))),
          S("AnimalListHolder", animals=L(S("Dog", age=VI32(2), name=Str("Rex")), S("Cat", age=VI32(4), lives=VI32(7))))]),
    Case("test_polymorphic_map", C,
         [T("Dog", P.Dog, "Dog", id=302), T("Cat", P.Cat, "Cat", id=303),
          T("AnimalMapHolder", P.AnimalMapHolder, "AnimalMapHolder", id=305)],
         [M((Str("dog1"), S("Dog", age=VI32(2), name=Str("Rex"))), (Str("cat1"), S("Cat", age=VI32(4), lives=VI32(9)))),
          S("AnimalMapHolder", animal_map=M((Str("myDog"), S("Dog", age=VI32(1), name=Str("Fido"))),
                                            (Str("myCat"), S("Cat", age=VI32(3), lives=VI32(8)))))]),
    Case("test_list_array_compatible_list_to_array", C,
         [T("CompatibleInt32ListField", P.CompatibleInt32ListField, "CompatibleInt32ListField", id=901)],
         [S("CompatibleInt32ListField", values=L(I32(1), I32(-2), I32(3))), S("CompatibleInt32ListField", values=L())],
         reader_types=[T("CompatibleInt32ArrayField", P.CompatibleInt32ArrayField, "CompatibleInt32ArrayField", id=901)],
         reader_roots=[S("CompatibleInt32ArrayField", values=A32(1, -2, 3)), S("CompatibleInt32ArrayField", values=A32())]),
    Case("test_list_array_compatible_array_to_list", C,
         [T("CompatibleInt32ArrayField", P.CompatibleInt32ArrayField, "CompatibleInt32ArrayField", id=901)],
         [S("CompatibleInt32ArrayField", values=A32(4, 5, 6)), S("CompatibleInt32ArrayField", values=A32())],
         reader_types=[T("CompatibleInt32ListField", P.CompatibleInt32ListField, "CompatibleInt32ListField", id=901)],
         reader_roots=[S("CompatibleInt32ListField", values=L(I32(4), I32(5), I32(6))),
                       S("CompatibleInt32ListField", values=L())]),
    Case("test_list_array_compatible_nullable_list_to_array_error", C,
         [T("CompatibleNullableInt32ListField", P.CompatibleNullableInt32ListField,
            "CompatibleNullableInt32ListField", id=901)],
         [S("CompatibleNullableInt32ListField", values=L(VI32(1), VI32(2), VI32(3))),
          S("CompatibleNullableInt32ListField", values=L(VI32(1), NULL, VI32(3)))],
         reader_types=[T("CompatibleInt32ArrayField", P.CompatibleInt32ArrayField, "CompatibleInt32ArrayField", id=901)],
         reader_roots=[S("CompatibleInt32ArrayField", values=A32(1, 2, 3)), "error"]),
    Case("test_one_string_field_schema", SS,
         [T("OneStringFieldStruct", P.OneStringFieldStruct, "OneStringFieldStruct", id=200)],
         [S("OneStringFieldStruct", f1=Str("hello"))]),
    Case("test_one_string_field_compatible", C,
         [T("OneStringFieldStruct", P.OneStringFieldStruct, "OneStringFieldStruct", id=200)],
         [S("OneStringFieldStruct", f1=Str("hello"))]),
    Case("test_two_string_field_compatible", C,
         [T("TwoStringFieldStruct", P.TwoStringFieldStruct, "TwoStringFieldStruct", id=201)],
         [S("TwoStringFieldStruct", f1=Str("first"), f2=Str("second"))]),
    Case("test_schema_evolution_compatible", C,
         [T("TwoStringFieldStruct", P.TwoStringFieldStruct, "TwoStringFieldStruct", id=200)],
         [S("TwoStringFieldStruct", f1=Str("first"), f2=Str("second"))],
         reader_types=[T("EmptyStruct", P.EmptyStruct, "EmptyStruct", id=200)],
         reader_roots=[S("EmptyStruct")]),
    Case("test_schema_evolution_compatible_reverse", C,
         [T("OneStringFieldStruct", P.OneStringFieldStruct, "OneStringFieldStruct", id=200)],
         [S("OneStringFieldStruct", f1=Str("only_one"))],
         reader_types=[T("TwoStringFieldStruct", P.TwoStringFieldStruct, "TwoStringFieldStruct", id=200)],
         reader_roots=[S("TwoStringFieldStruct", f1=Str("only_one"))]),
    Case("test_reduced_precision_float_struct", SS,
         [T("ReducedPrecisionFloatStruct", P.ReducedPrecisionFloatStruct, "ReducedPrecisionFloatStruct", id=213)],
         [reduced_precision()]),
    Case("test_reduced_precision_float_struct_compatible_skip", C,
         [T("ReducedPrecisionFloatStruct", P.ReducedPrecisionFloatStruct, "ReducedPrecisionFloatStruct", id=213)],
         [reduced_precision()], noop_meta=True,
         reader_types=[T("EmptyStruct", P.EmptyStruct, "EmptyStruct", id=213)],
         reader_roots=[S("EmptyStruct")]),
    Case("test_one_enum_field_schema", SS,
         [T("TestEnum", P.TestEnum, "TestEnum", id=210),
          T("OneEnumFieldStruct", P.OneEnumFieldStruct, "OneEnumFieldStruct", id=211)],
         [S("OneEnumFieldStruct", f1=E("TestEnum", 1))]),
    Case("test_one_enum_field_compatible", C,
         [T("TestEnum", P.TestEnum, "TestEnum", id=210),
          T("OneEnumFieldStruct", P.OneEnumFieldStruct, "OneEnumFieldStruct", id=211)],
         [S("OneEnumFieldStruct", f1=E("TestEnum", 0))]),
    Case("test_two_enum_field_compatible", C,
         [T("TestEnum", P.TestEnum, "TestEnum", id=210),
          T("TwoEnumFieldStruct", P.TwoEnumFieldStruct, "TwoEnumFieldStruct", id=212)],
         [S("TwoEnumFieldStruct", f1=E("TestEnum", 0), f2=E("TestEnum", 2))]),
    Case("test_enum_schema_evolution_compatible", C,
         [T("TestEnum", P.TestEnum, "TestEnum", id=210),
          T("TwoEnumFieldStruct", P.TwoEnumFieldStruct, "TwoEnumFieldStruct", id=211)],
         [S("TwoEnumFieldStruct", f1=E("TestEnum", 0), f2=E("TestEnum", 1))],
         reader_types=[T("TestEnum", P.TestEnum, "TestEnum", id=210), T("EmptyStruct", P.EmptyStruct, "EmptyStruct", id=211)],
         reader_roots=[S("EmptyStruct")]),
    Case("test_enum_schema_evolution_compatible_reverse", C,
         [T("TestEnum", P.TestEnum, "TestEnum", id=210),
          T("OneEnumFieldStruct", P.OneEnumFieldStruct, "OneEnumFieldStruct", id=211)],
         [S("OneEnumFieldStruct", f1=E("TestEnum", 2))],
         reader_types=[T("TestEnum", P.TestEnum, "TestEnum", id=210),
                       T("TwoEnumFieldStruct", P.TwoEnumFieldStruct, "TwoEnumFieldStruct", id=211)],
         reader_roots=[S("TwoEnumFieldStruct", f1=E("TestEnum", 2))]),
    Case("test_nullable_field_schema_consistent_not_null", SS,
         [T("NullableComprehensiveSchemaConsistent", P.NullableComprehensiveSchemaConsistent,
            "NullableComprehensiveSchemaConsistent", id=401)], [nullable_sc(True)]),
    Case("test_nullable_field_schema_consistent_null", SS,
         [T("NullableComprehensiveSchemaConsistent", P.NullableComprehensiveSchemaConsistent,
            "NullableComprehensiveSchemaConsistent", id=401)], [nullable_sc(False)]),
    Case("test_nullable_field_compatible_not_null", C,
         [T("NullableComprehensiveCompatible", P.NullableComprehensiveCompatible, "NullableComprehensiveCompatible",
            id=402)], [nullable_c(True)], noop_meta=True),
    Case("test_nullable_field_compatible_null", C,
         [T("NullableComprehensiveCompatible", P.NullableComprehensiveCompatible, "NullableComprehensiveCompatible",
            id=402)], [nullable_c(False)], noop_meta=True),
    Case("test_ref_schema_consistent", SS,
         [T("RefInnerSchemaConsistent", P.RefInner, "RefInner", id=501),
          T("RefOuterSchemaConsistent", P.RefOuterSchemaConsistent, "RefOuterSchemaConsistent", id=502)],
         [ref_outer("RefOuterSchemaConsistent", "RefInnerSchemaConsistent", 42, "shared_inner")], ref=True),
    Case("test_ref_compatible", C,
         [T("RefInnerCompatible", P.RefInner, "RefInner", id=503),
          T("RefOuterCompatible", P.RefOuterCompatible, "RefOuterCompatible", id=504)],
         [ref_outer("RefOuterCompatible", "RefInnerCompatible", 99, "compatible_shared")], ref=True, noop_meta=True),
    Case("test_collection_element_ref_override", SS,
         [T("RefOverrideElement", P.RefOverrideElement, "RefOverrideElement", id=701),
          T("RefOverrideContainer", P.RefOverrideContainer, "RefOverrideContainer", id=702)],
         [ref_override(False)], ref=True, runtime_roots=[ref_override(True)]),
    Case("test_circular_ref_schema_consistent", SS,
         [T("CircularRefStruct", P.CircularRefStruct, "CircularRefStruct", id=601)],
         [circular("circular_test")], ref=True),
    Case("test_circular_ref_compatible", C,
         [T("CircularRefStruct", P.CircularRefStruct, "CircularRefStruct", id=602)],
         [circular("compatible_circular")], ref=True, noop_meta=True),
    Case("test_unsigned_schema_consistent_simple", SS,
         [T("UnsignedSchemaConsistentSimple", P.UnsignedSchemaConsistentSimple, "UnsignedSchemaConsistentSimple", id=1)],
         [S("UnsignedSchemaConsistentSimple", u64_tagged=TU64(1000000000), u64_tagged_nullable=TU64(500000000))]),
    Case("test_unsigned_schema_consistent", SS,
         [T("UnsignedSchemaConsistent", P.UnsignedSchemaConsistent, "UnsignedSchemaConsistent", id=501)],
         [unsigned_sc()]),
    Case("test_unsigned_schema_compatible", C,
         [T("UnsignedSchemaCompatible", P.UnsignedSchemaCompatible, "UnsignedSchemaCompatible", id=502)],
         [unsigned_c()], noop_meta=True),
]
