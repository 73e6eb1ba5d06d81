package dev.libwire.peer.xlang;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.annotation.ForyField;
import org.apache.fory.annotation.ForyStruct;
import org.apache.fory.annotation.Int32Type;
import org.apache.fory.annotation.Int64Type;
import org.apache.fory.annotation.Nullable;
import org.apache.fory.annotation.Ref;
import org.apache.fory.annotation.UInt16Type;
import org.apache.fory.annotation.UInt32Type;
import org.apache.fory.annotation.UInt64Type;
import org.apache.fory.annotation.UInt8Type;
import org.apache.fory.collection.BFloat16List;
import org.apache.fory.collection.Float16List;
import org.apache.fory.collection.Int32List;
import org.apache.fory.config.Int32Encoding;
import org.apache.fory.config.Int64Encoding;
import org.apache.fory.context.ReadContext;
import org.apache.fory.context.WriteContext;
import org.apache.fory.resolver.TypeResolver;
import org.apache.fory.serializer.Serializer;
import org.apache.fory.type.BFloat16;
import org.apache.fory.type.Float16;
import org.apache.fory.type.union.Union2;

/**
 * Java carriers for the user-type corpus cases. Each class has the shape (field names, Java
 * types, annotations) that fixtures/schemas/xlang/*.fdl describes. Field names are camelCase
 * where the schema name is snake_case; the runtime converts them on the wire. Classes are
 * looked up by simple name from the case list that generate.py writes.
 */
public final class XTypes {
  private XTypes() {}

  public enum Color {
    Green,
    Red,
    Blue,
    White,
  }

  public enum TestEnum {
    VALUE_A,
    VALUE_B,
    VALUE_C,
  }

  @ForyStruct
  public static class Item {
    String name;
  }

  @ForyStruct
  public static class SimpleStruct {
    HashMap<Integer, Double> f1;
    int f2;
    Item f3;
    String f4;
    Color f5;
    List<String> f6;
    int f7;
    int f8;
    int last;
  }

  @ForyStruct(evolution = ForyStruct.Evolution.ENABLED)
  public static class EvolvingOverrideStruct {
    String f1;
  }

  @ForyStruct(evolution = ForyStruct.Evolution.DISABLED)
  public static class FixedOverrideStruct {
    String f1;
  }

  @ForyStruct
  public static class Item1 {
    int f1;
    int f2;
    Integer f3;
    Integer f4;
    Integer f5;
    Integer f6;
  }

  @ForyStruct
  public static class StructWithUnion2 {
    Union2<String, Long> union;
  }

  @ForyStruct
  public static class StructWithList {
    List<String> items;
  }

  @ForyStruct
  public static class StructWithMap {
    Map<String, String> data;
  }

  @ForyStruct
  public static class SignedNestedAnnotatedContainer {
    Map<
            @Int32Type(encoding = Int32Encoding.FIXED) Integer,
            List<@Int64Type(encoding = Int64Encoding.TAGGED) Long>>
        values;
  }

  @ForyStruct
  public static class NestedAnnotatedContainer {
    Map<
            @UInt32Type(encoding = Int32Encoding.FIXED) Long,
            List<@UInt64Type(encoding = Int64Encoding.TAGGED) Long>>
        values;
  }

  @ForyStruct
  public static class MyStruct {
    int id;
  }

  /** Extension type: its body is what {@link MyExtSerializer} writes (one varint32). */
  public static class MyExt {
    int id;
  }

  public static class MyExtSerializer extends Serializer<MyExt> {
    public MyExtSerializer(TypeResolver typeResolver, Class<MyExt> cls) {
      super(typeResolver.getConfig(), cls);
    }

    @Override
    public void write(WriteContext writeContext, MyExt value) {
      writeContext.getBuffer().writeVarInt32(value.id);
    }

    @Override
    public MyExt read(ReadContext readContext) {
      MyExt obj = new MyExt();
      obj.id = readContext.getBuffer().readVarInt32();
      return obj;
    }
  }

  @ForyStruct
  public static class MyWrapper {
    Color color;
    MyExt myExt;
    MyStruct myStruct;
  }

  @ForyStruct
  public static class EmptyWrapper {}

  @ForyStruct
  public static class VersionCheckStruct {
    int f1;
    @Nullable String f2;
    double f3;
  }

  public interface Animal {}

  @ForyStruct
  public static class Dog implements Animal {
    int age;
    @Nullable String name;
  }

  @ForyStruct
  public static class Cat implements Animal {
    int age;
    int lives;
  }

  @ForyStruct
  public static class AnimalListHolder {
    List<Animal> animals;
  }

  @ForyStruct
  public static class AnimalMapHolder {
    Map<String, Animal> animal_map;
  }

  @ForyStruct
  public static class CompatibleInt32ListField {
    @ForyField(id = 1)
    @Int32Type(encoding = Int32Encoding.FIXED)
    Int32List values;
  }

  @ForyStruct
  public static class CompatibleNullableInt32ListField {
    @ForyField(id = 1)
    List<Integer> values;
  }

  @ForyStruct
  public static class CompatibleInt32ArrayField {
    @ForyField(id = 1)
    int[] values;
  }

  @ForyStruct
  public static class EmptyStruct {}

  @ForyStruct
  public static class OneStringFieldStruct {
    @Nullable String f1;
  }

  @ForyStruct
  public static class TwoStringFieldStruct {
    String f1;
    String f2;
  }

  @ForyStruct
  public static class ReducedPrecisionFloatStruct {
    Float16 float16Value;
    BFloat16 bfloat16Value;
    Float16List float16Array;
    BFloat16List bfloat16Array;
  }

  @ForyStruct
  public static class OneEnumFieldStruct {
    TestEnum f1;
  }

  @ForyStruct
  public static class TwoEnumFieldStruct {
    TestEnum f1;
    TestEnum f2;
  }

  /** The fields the two NullableComprehensive classes share (a class's inherited fields are
   * fields of its struct). */
  public abstract static class NullableComprehensiveBase {
    byte byteField;
    short shortField;
    int intField;
    long longField;
    float floatField;
    double doubleField;
    boolean boolField;
    String stringField;
    List<String> listField;
    Set<String> setField;
    Map<String, String> mapField;
  }

  @ForyStruct
  public static class NullableComprehensiveSchemaConsistent extends NullableComprehensiveBase {
    @Nullable Integer nullableInt;
    @Nullable Long nullableLong;
    @Nullable Float nullableFloat;
    @Nullable Double nullableDouble;
    @Nullable Boolean nullableBool;
    @Nullable String nullableString;
    @Nullable List<String> nullableList;
    @Nullable Set<String> nullableSet;
    @Nullable Map<String, String> nullableMap;
  }

  @ForyStruct
  public static class NullableComprehensiveCompatible extends NullableComprehensiveBase {
    Integer boxedInt;
    Long boxedLong;
    Float boxedFloat;
    Double boxedDouble;
    Boolean boxedBool;
    @Nullable Integer nullableInt1;
    @Nullable Long nullableLong1;
    @Nullable Float nullableFloat1;
    @Nullable Double nullableDouble1;
    @Nullable Boolean nullableBool1;
    @Nullable String nullableString2;
    @Nullable List<String> nullableList2;
    @Nullable Set<String> nullableSet2;
    @Nullable Map<String, String> nullableMap2;
  }

  @ForyStruct
  public static class RefInner {
    int id;
    String name;
  }

  @ForyStruct
  public static class RefOuterSchemaConsistent {
    @Nullable
    @ForyField(dynamic = ForyField.Dynamic.FALSE)
    @Ref
    RefInner inner1;

    @Nullable
    @ForyField(dynamic = ForyField.Dynamic.FALSE)
    @Ref
    RefInner inner2;
  }

  @ForyStruct
  public static class RefOuterCompatible {
    @Nullable @Ref RefInner inner1;
    @Nullable @Ref RefInner inner2;
  }

  @ForyStruct
  public static class RefOverrideElement {
    int id;
    String name;
  }

  @ForyStruct
  public static class RefOverrideContainer {
    List<@Ref(enable = false) RefOverrideElement> listField;
    Set<@Ref(enable = false) RefOverrideElement> setField;
    Map<String, @Ref(enable = false) RefOverrideElement> mapField;
  }

  @ForyStruct
  public static class CircularRefStruct {
    String name;
    @Nullable @Ref CircularRefStruct selfRef;
  }

  @ForyStruct
  public static class UnsignedSchemaConsistentSimple {
    @UInt64Type(encoding = Int64Encoding.TAGGED)
    long u64Tagged;

    @Nullable
    @UInt64Type(encoding = Int64Encoding.TAGGED)
    Long u64TaggedNullable;
  }

  @ForyStruct
  public static class UnsignedSchemaConsistent {
    @UInt8Type int u8Field;
    @UInt16Type int u16Field;
    @UInt32Type long u32VarField;
    @UInt32Type(encoding = Int32Encoding.FIXED) long u32FixedField;
    @UInt64Type(encoding = Int64Encoding.VARINT) long u64VarField;
    @UInt64Type(encoding = Int64Encoding.FIXED) long u64FixedField;
    @UInt64Type(encoding = Int64Encoding.TAGGED) long u64TaggedField;
    @Nullable @UInt8Type Integer u8NullableField;
    @Nullable @UInt16Type Integer u16NullableField;
    @Nullable @UInt32Type Long u32VarNullableField;
    @Nullable @UInt32Type(encoding = Int32Encoding.FIXED) Long u32FixedNullableField;
    @Nullable @UInt64Type(encoding = Int64Encoding.VARINT) Long u64VarNullableField;
    @Nullable @UInt64Type(encoding = Int64Encoding.FIXED) Long u64FixedNullableField;
    @Nullable @UInt64Type(encoding = Int64Encoding.TAGGED) Long u64TaggedNullableField;
  }

  @ForyStruct
  public static class UnsignedSchemaCompatible {
    @UInt8Type int u8Field1;
    @UInt16Type int u16Field1;
    @UInt32Type long u32VarField1;
    @UInt32Type(encoding = Int32Encoding.FIXED) long u32FixedField1;
    @UInt64Type(encoding = Int64Encoding.VARINT) long u64VarField1;
    @UInt64Type(encoding = Int64Encoding.FIXED) long u64FixedField1;
    @UInt64Type(encoding = Int64Encoding.TAGGED) long u64TaggedField1;
    @Nullable @UInt8Type Integer u8Field2;
    @Nullable @UInt16Type Integer u16Field2;
    @Nullable @UInt32Type Long u32VarField2;
    @Nullable @UInt32Type(encoding = Int32Encoding.FIXED) Long u32FixedField2;
    @Nullable @UInt64Type(encoding = Int64Encoding.VARINT) Long u64VarField2;
    @Nullable @UInt64Type(encoding = Int64Encoding.FIXED) Long u64FixedField2;
    @Nullable @UInt64Type(encoding = Int64Encoding.TAGGED) Long u64TaggedField2;
  }
}
