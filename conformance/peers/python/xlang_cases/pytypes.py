"""pyfory 1.7.7 carriers for the user-type corpus.

Each class has the shape that fixtures/schemas/xlang/<case>.fdl describes and
that XTypes.java declares for Java: same field names (snake_case), wire types,
nullability and reference flags.  Every field has a default so that the
notation converter can create an instance and then set the listed fields.
"""

import enum
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Set

import pyfory
from pyfory import Ref
from pyfory.union import Union, UnionSerializer


class Color(enum.Enum):
    Green = 0
    Red = 1
    Blue = 2
    White = 3


class TestEnum(enum.Enum):
    VALUE_A = 0
    VALUE_B = 1
    VALUE_C = 2


@dataclass
class Item:
    name: str = ""


@dataclass
class SimpleStruct:
    f1: Dict[Optional[pyfory.Int32], Optional[pyfory.Float64]] = None
    f2: pyfory.Int32 = 0
    f3: Item = None
    f4: str = ""
    f5: Color = None
    f6: List[Optional[str]] = None
    f7: pyfory.Int32 = 0
    f8: pyfory.Int32 = 0
    last: pyfory.Int32 = 0


@pyfory.dataclass
class EvolvingOverrideStruct:
    f1: str = ""


@pyfory.dataclass(evolving=False)
class FixedOverrideStruct:
    f1: str = ""


@dataclass
class Item1:
    f1: pyfory.Int32 = 0
    f2: pyfory.Int32 = 0
    f3: pyfory.Int32 = 0
    f4: pyfory.Int32 = 0
    f5: pyfory.Int32 = 0
    f6: pyfory.Int32 = 0


class StringOrInt64(Union):
    """Union with case 0 = string, case 1 = int64 (Java's Union2<String, Long>)."""

    __slots__ = ()

    @classmethod
    def _from_case_id(cls, case_id, value):
        return cls(case_id, value)


def string_or_int64_serializer(fory):
    return UnionSerializer(fory.type_resolver, StringOrInt64, {0: str, 1: pyfory.Int64})


@dataclass
class StructWithUnion2:
    union: StringOrInt64 = None


@dataclass
class StructWithList:
    items: List[Optional[str]] = None


@dataclass
class StructWithMap:
    data: Dict[Optional[str], Optional[str]] = None


@dataclass
class SignedNestedAnnotatedContainer:
    values: Dict[Optional[pyfory.FixedInt32], Optional[List[Optional[pyfory.TaggedInt64]]]] = None


@dataclass
class NestedAnnotatedContainer:
    values: Dict[Optional[pyfory.FixedUInt32], Optional[List[Optional[pyfory.TaggedUInt64]]]] = None


@dataclass
class MyStruct:
    id: pyfory.Int32 = 0


class MyExt:
    """Extension type; its body is one varint32 written by MyExtSerializer."""

    _corpus_ext = True

    def __init__(self, id=0):
        self.id = id

    def __eq__(self, other):
        return isinstance(other, MyExt) and other.id == self.id

    def __repr__(self):
        return "MyExt(id=%d)" % self.id


class MyExtSerializer(pyfory.serializer.Serializer):
    def write(self, write_context, value):
        write_context.write_varint32(value.id)

    def read(self, read_context):
        return MyExt(read_context.read_varint32())


@dataclass
class MyWrapper:
    color: Color = None
    my_ext: MyExt = None
    my_struct: MyStruct = None


@dataclass
class EmptyWrapper:
    pass


@dataclass
class VersionCheckStruct:
    f1: pyfory.Int32 = 0
    f2: Optional[str] = None
    f3: pyfory.Float64 = 0.0


@dataclass
class Dog:
    age: pyfory.Int32 = 0
    name: Optional[str] = None


@dataclass
class Cat:
    age: pyfory.Int32 = 0
    lives: pyfory.Int32 = 0


@dataclass
class AnimalListHolder:
    animals: List[Optional[Any]] = None


@dataclass
class AnimalMapHolder:
    animal_map: Dict[Optional[str], Optional[Any]] = None


@dataclass
class CompatibleInt32ListField:
    values: List[pyfory.FixedInt32] = pyfory.field(1, default_factory=list)


@dataclass
class CompatibleNullableInt32ListField:
    values: List[Optional[pyfory.Int32]] = pyfory.field(1, default_factory=list)


@dataclass
class CompatibleInt32ArrayField:
    values: pyfory.Array[pyfory.Int32] = pyfory.field(1, default_factory=pyfory.Int32Array)


@dataclass
class EmptyStruct:
    pass


@dataclass
class OneStringFieldStruct:
    f1: Optional[str] = None


@dataclass
class TwoStringFieldStruct:
    f1: str = ""
    f2: str = ""


@dataclass
class ReducedPrecisionFloatStruct:
    float16_value: pyfory.Float16 = 0.0
    bfloat16_value: pyfory.BFloat16 = 0.0
    float16_array: List[pyfory.Float16] = None
    bfloat16_array: List[pyfory.BFloat16] = None


@dataclass
class OneEnumFieldStruct:
    f1: TestEnum = None


@dataclass
class TwoEnumFieldStruct:
    f1: TestEnum = None
    f2: TestEnum = None


@dataclass
class NullableComprehensiveSchemaConsistent:
    byte_field: pyfory.Int8 = 0
    short_field: pyfory.Int16 = 0
    int_field: pyfory.Int32 = 0
    long_field: pyfory.Int64 = 0
    float_field: pyfory.Float32 = 0.0
    double_field: pyfory.Float64 = 0.0
    bool_field: bool = False
    string_field: str = ""
    list_field: List[Optional[str]] = None
    set_field: Set[Optional[str]] = None
    map_field: Dict[Optional[str], Optional[str]] = None
    nullable_int: Optional[pyfory.Int32] = None
    nullable_long: Optional[pyfory.Int64] = None
    nullable_float: Optional[pyfory.Float32] = None
    nullable_double: Optional[pyfory.Float64] = None
    nullable_bool: Optional[bool] = None
    nullable_string: Optional[str] = None
    nullable_list: Optional[List[Optional[str]]] = None
    nullable_set: Optional[Set[Optional[str]]] = None
    nullable_map: Optional[Dict[Optional[str], Optional[str]]] = None


@dataclass
class NullableComprehensiveCompatible:
    byte_field: pyfory.Int8 = 0
    short_field: pyfory.Int16 = 0
    int_field: pyfory.Int32 = 0
    long_field: pyfory.Int64 = 0
    float_field: pyfory.Float32 = 0.0
    double_field: pyfory.Float64 = 0.0
    bool_field: bool = False
    boxed_int: pyfory.Int32 = 0
    boxed_long: pyfory.Int64 = 0
    boxed_float: pyfory.Float32 = 0.0
    boxed_double: pyfory.Float64 = 0.0
    boxed_bool: bool = False
    string_field: str = ""
    list_field: List[Optional[str]] = None
    set_field: Set[Optional[str]] = None
    map_field: Dict[Optional[str], Optional[str]] = None
    nullable_int1: Optional[pyfory.Int32] = None
    nullable_long1: Optional[pyfory.Int64] = None
    nullable_float1: Optional[pyfory.Float32] = None
    nullable_double1: Optional[pyfory.Float64] = None
    nullable_bool1: Optional[bool] = None
    nullable_string2: Optional[str] = None
    nullable_list2: Optional[List[Optional[str]]] = None
    nullable_set2: Optional[Set[Optional[str]]] = None
    nullable_map2: Optional[Dict[Optional[str], Optional[str]]] = None


@dataclass(eq=False)
class RefInner:
    id: pyfory.Int32 = 0
    name: str = ""


@dataclass(eq=False)
class RefOuterSchemaConsistent:
    inner1: Optional[RefInner] = pyfory.field(default=None, ref=True, nullable=True, dynamic=False)
    inner2: Optional[RefInner] = pyfory.field(default=None, ref=True, nullable=True, dynamic=False)


@dataclass(eq=False)
class RefOuterCompatible:
    inner1: Optional[RefInner] = pyfory.field(default=None, ref=True, nullable=True)
    inner2: Optional[RefInner] = pyfory.field(default=None, ref=True, nullable=True)


@dataclass(eq=False)
class RefOverrideElement:
    id: pyfory.Int32 = 0
    name: str = ""


@dataclass(eq=False)
class RefOverrideContainer:
    list_field: List[Ref[RefOverrideElement, False]] = None
    set_field: Set[Ref[RefOverrideElement, False]] = None
    map_field: Dict[str, Ref[RefOverrideElement, False]] = None


@dataclass(eq=False)
class CircularRefStruct:
    name: str = ""
    self_ref: Optional["CircularRefStruct"] = pyfory.field(default=None, ref=True, nullable=True)


@dataclass
class UnsignedSchemaConsistentSimple:
    u64_tagged: pyfory.TaggedUInt64 = 0
    u64_tagged_nullable: Optional[pyfory.TaggedUInt64] = None


@dataclass
class UnsignedSchemaConsistent:
    u8_field: pyfory.UInt8 = 0
    u16_field: pyfory.UInt16 = 0
    u32_var_field: pyfory.UInt32 = 0
    u32_fixed_field: pyfory.FixedUInt32 = 0
    u64_var_field: pyfory.UInt64 = 0
    u64_fixed_field: pyfory.FixedUInt64 = 0
    u64_tagged_field: pyfory.TaggedUInt64 = 0
    u8_nullable_field: Optional[pyfory.UInt8] = None
    u16_nullable_field: Optional[pyfory.UInt16] = None
    u32_var_nullable_field: Optional[pyfory.UInt32] = None
    u32_fixed_nullable_field: Optional[pyfory.FixedUInt32] = None
    u64_var_nullable_field: Optional[pyfory.UInt64] = None
    u64_fixed_nullable_field: Optional[pyfory.FixedUInt64] = None
    u64_tagged_nullable_field: Optional[pyfory.TaggedUInt64] = None


@dataclass
class UnsignedSchemaCompatible:
    u8_field1: pyfory.UInt8 = 0
    u16_field1: pyfory.UInt16 = 0
    u32_var_field1: pyfory.UInt32 = 0
    u32_fixed_field1: pyfory.FixedUInt32 = 0
    u64_var_field1: pyfory.UInt64 = 0
    u64_fixed_field1: pyfory.FixedUInt64 = 0
    u64_tagged_field1: pyfory.TaggedUInt64 = 0
    u8_field2: Optional[pyfory.UInt8] = None
    u16_field2: Optional[pyfory.UInt16] = None
    u32_var_field2: Optional[pyfory.UInt32] = None
    u32_fixed_field2: Optional[pyfory.FixedUInt32] = None
    u64_var_field2: Optional[pyfory.UInt64] = None
    u64_fixed_field2: Optional[pyfory.FixedUInt64] = None
    u64_tagged_field2: Optional[pyfory.TaggedUInt64] = None
