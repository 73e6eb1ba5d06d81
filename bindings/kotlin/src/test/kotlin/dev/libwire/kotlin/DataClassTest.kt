package dev.libwire.kotlin

import dev.libwire.kotlin.testee.Json
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.nio.file.Files

enum class Color { Green, Red, Blue, White }

data class SimpleStruct(
    val f1: Map<Int, Double?>,
    val f2: Int,
    val f3: Item,
    val f4: String,
    val f5: Color,
    val f6: List<String?>,
    val f7: Int,
    val f8: Int,
    val last: Int,
)

data class NullableComprehensiveCompatible(
    val byteField: Byte,
    val shortField: Short,
    val intField: Int,
    val longField: Long,
    val floatField: Float,
    val doubleField: Double,
    val boolField: Boolean,
    val boxedInt: Int,
    val boxedLong: Long,
    val boxedFloat: Float,
    val boxedDouble: Double,
    val boxedBool: Boolean,
    val stringField: String,
    val listField: List<String?>,
    val setField: Set<String?>,
    val mapField: Map<String, String?>,
    val nullableInt1: Int?,
    val nullableLong1: Long?,
    val nullableFloat1: Float?,
    val nullableDouble1: Double?,
    val nullableBool1: Boolean?,
    val nullableString2: String?,
    val nullableList2: List<String?>?,
    val nullableSet2: Set<String?>?,
    val nullableMap2: Map<String, String?>?,
)

data class StructWithUnion2(val union: WireUnion)

data class UnsignedSchemaConsistentSimple(
    @param:WireField(type = "tagged_uint64") val u64Tagged: ULong,
    @param:WireField(type = "tagged_uint64") val u64TaggedNullable: ULong?,
)

data class OneStringFieldStruct(val f1: String?)

/** Reader side of schema evolution: f2 is not in the payload, its default fills it. */
data class TwoStringFieldStruct(val f1: String, val f2: String = "(absent)")

/** Data classes bound to the corpus schemas: bytes equal to what Java 1.6.0 wrote, values equal to the case's roots. */
class DataClassTest {
    private fun both(body: () -> Unit) = body()

    private fun case(name: String) =
        Json.parse(Files.readString(repoRoot.resolve("fixtures/xlang-corpus/$name.json"))) as Map<*, *>

    private fun ctx(case: Map<*, *>, schemaKey: String = "schema"): Context {
        val c = Context(WireOptions(refTracking = case["ref"] == true, compatible = case["mode"] == "compatible"))
        c.registerSchema(repoRoot.resolve(case[schemaKey] as String))
        return c
    }

    @Test fun simpleStruct() = both {
        val case = case("test_simple_struct")
        ctx(case).use { c ->
            c.registerDataClass(SimpleStruct::class, "SimpleStruct")
            c.registerDataClass(Item::class, "Item")
            c.registerEnum(Color::class, "Color")
            val v = SimpleStruct(mapOf(1 to 1.0, 2 to 2.0), 39, Item("item"), "f4", Color.White, listOf("f6"), 40, 41, 42)
            assertEquals(case["java_hex"], hex(c.encode(v)))
            assertEquals(v, c.decode(unhex(case["java_hex"] as String)))
            assertEquals(v, c.decode(unhex(case["pyfory_hex"] as String)))
        }
    }

    @Test fun nullableFields() = both {
        for (name in listOf("test_nullable_field_compatible_not_null", "test_nullable_field_compatible_null")) {
            val case = case(name)
            val full = name.endsWith("not_null")
            ctx(case).use { c ->
                c.registerDataClass(NullableComprehensiveCompatible::class, "NullableComprehensiveCompatible")
                val v = NullableComprehensiveCompatible(
                    1, 2, 42, 123456789L, 1.5f, 2.5, true, 10, 20L, 1.1f, 2.2, true, "hello",
                    listOf("a", "b", "c"), linkedSetOf("x", "y"), linkedMapOf("key1" to "value1", "key2" to "value2"),
                    if (full) 100 else null, if (full) 200L else null, if (full) 1.5f else null, if (full) 2.5 else null,
                    if (full) false else null, if (full) "nullable_value" else null,
                    if (full) listOf("p", "q") else null, if (full) linkedSetOf("m", "n") else null,
                    if (full) mapOf("nk1" to "nv1") else null,
                )
                assertEquals(case["java_hex"], hex(c.encode(v)), name)
                assertEquals(v, c.decode(unhex(case["java_hex"] as String)), name)
            }
        }
    }

    @Test fun enums() = both {
        val case = case("test_color")
        ctx(case).use { c ->
            c.registerEnum(Color::class, "Color")
            val all = listOf(Color.Green, Color.Red, Color.Blue, Color.White)
            assertEquals(case["java_hex"], hex(c.encodeAll(all)))
            assertEquals(all, c.decodeAll(unhex(case["java_hex"] as String)))
        }
        // without a bound class: WireEnum by schema name
        ctx(case).use { c ->
            assertEquals(WireEnum("Color", 2), c.decodeAll(unhex(case["java_hex"] as String))[2])
            assertEquals(case["java_hex"], hex(c.encodeAll((0..3).map { WireEnum("Color", it) })))
        }
    }

    @Test fun unions() = both {
        val case = case("test_union_xlang")
        ctx(case).use { c ->
            c.registerDataClass(StructWithUnion2::class, "StructWithUnion2")
            val vs = listOf(
                StructWithUnion2(WireUnion("StringOrInt64", 0, "hello")),
                StructWithUnion2(WireUnion("StringOrInt64", 1, 42L)),
            )
            assertEquals(case["java_hex"], hex(c.encodeAll(vs)))
            assertEquals(vs, c.decodeAll(unhex(case["java_hex"] as String)))
        }
    }

    @Test fun wireTypeAnnotation() = both {
        val case = case("test_unsigned_schema_consistent_simple")
        ctx(case).use { c ->
            c.registerDataClass(UnsignedSchemaConsistentSimple::class, "UnsignedSchemaConsistentSimple")
            val v = UnsignedSchemaConsistentSimple(1_000_000_000uL, 500_000_000uL)
            assertEquals(case["java_hex"], hex(c.encode(v)))
            assertEquals(v, c.decode(unhex(case["java_hex"] as String)))
        }
    }

    @Test fun schemaEvolutionDefaults() = both {
        val case = case("test_schema_evolution_compatible_reverse")
        ctx(case).use { c ->
            c.registerDataClass(OneStringFieldStruct::class, "OneStringFieldStruct")
            assertEquals(case["java_hex"], hex(c.encode(OneStringFieldStruct("only_one"))))
        }
        ctx(case, "reader_schema").use { c ->
            c.registerDataClass(TwoStringFieldStruct::class, "TwoStringFieldStruct")
            assertEquals(TwoStringFieldStruct("only_one"), c.decode(unhex(case["java_hex"] as String)))
        }
    }

    @Test fun unboundStructsAreGeneric() = both {
        val case = case("test_simple_struct")
        ctx(case).use { c ->
            val v = c.decode(unhex(case["java_hex"] as String)) as WireStruct
            assertEquals("SimpleStruct", v.type)
            assertEquals(listOf("f2", "f7", "f8", "last", "f1", "f3", "f4", "f5", "f6"), v.fields.keys.toList())
            assertEquals(WireStruct("Item", mapOf("name" to "item")), v.fields["f3"])
            // and a generic struct encodes to the same bytes
            assertEquals(case["java_hex"], hex(c.encode(v)))
        }
    }

    @Test fun errorsFromBadBindings() = both {
        val case = case("test_simple_struct")
        ctx(case).use { c ->
            val e = assertThrows<WireException> { c.registerDataClass(Item::class, "NoSuchType") }
            assertEquals("schema", e.cls)
            val e2 = assertThrows<WireException> { c.registerEnum(Color::class, "Item") }
            assertEquals("schema", e2.cls)
            // SimpleStruct bound, Item not: the nested Item has no mapping
            c.registerDataClass(SimpleStruct::class, "SimpleStruct")
            c.registerEnum(Color::class, "Color")
            val v = SimpleStruct(emptyMap(), 0, Item("x"), "", Color.Red, emptyList(), 0, 0, 0)
            val e3 = assertThrows<WireException> { c.encode(v) }
            assertEquals("unsupported", e3.cls)
            assertTrue(e3.message!!.contains("Item"))
        }
        assertEquals("u64_tagged_nullable", snakeCase("u64TaggedNullable"))
        assertEquals("http_server", snakeCase("HTTPServer"))
        assertEquals("f1", snakeCase("f1"))
    }
}
