package dev.libwire.kotlin

import dev.libwire.kotlin.testee.Json
import org.apache.fory.Fory
import org.apache.fory.config.CompatibleMode
import org.apache.fory.config.Language
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.math.BigDecimal
import java.math.BigInteger
import java.nio.file.Files
import java.time.Duration
import java.time.Instant
import java.time.LocalDate

/** The Kotlin data class libwire binds to the same schema type. */
data class Item(val name: String)

/**
 * Interop both ways with the real Fory Java runtime (org.apache.fory:fory-core 1.6.0 from
 * Maven Central): Fory's bytes decode in libwire to equal Kotlin values, libwire's bytes
 * decode in Fory to equal Java values, and the bytes themselves are identical.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForyInteropTest {
    private fun fory(ref: Boolean = false, compatible: Boolean = false): Fory =
        Fory.builder()
            .withLanguage(Language.XLANG)
            .withRefTracking(ref)
            .withCompatibleMode(if (compatible) CompatibleMode.COMPATIBLE else CompatibleMode.SCHEMA_CONSISTENT)
            .build()

    private val plain by lazy { fory() }

    private fun <T> arrayListOf2(vararg xs: T) = java.util.ArrayList(xs.asList())

    /** Values as Java code hands them to Fory (java.util collections). */
    private fun builtins(): List<Any?> = listOf(
        true, false, 7.toByte(), (-3).toShort(), 0, 1, -1, Int.MAX_VALUE, Int.MIN_VALUE,
        0L, 300L, Long.MIN_VALUE, Long.MAX_VALUE, 1.25f, Float.NaN, -0.0, Math.PI, Double.MAX_VALUE,
        "", "hi", "héllo", "日本", "日本a", "aé日", "😀", "a😀", "a".repeat(70) + "日", "日" + "a".repeat(70),
        byteArrayOf(), byteArrayOf(0, -1, 127),
        intArrayOf(1, 2, -3), longArrayOf(Long.MIN_VALUE, 0), shortArrayOf(-1, 5), booleanArrayOf(true, false, true),
        floatArrayOf(1.5f, -2f), doubleArrayOf(0.1, 1e300),
        arrayListOf2<Any?>(1L, "a", null),
        arrayListOf2<Any?>(),
        arrayListOf2<Any?>(1L, 2L, 3L),
        arrayListOf2<Any?>("x", "y"),
        // a list that starts with Latin-1 strings (read as runs of them), of every short length, then other values
        arrayListOf2<Any?>("ab", "h\u00e9llo", "abcdefgh", "d".repeat(16), "e".repeat(17), 1L, "\u65e5\u672c", null, "caf\u00e9 1", 2.5, "z", arrayListOf2<Any?>("f", 3L)),
        arrayListOf2<Any?>(arrayListOf2<Any?>(1L), arrayListOf2<Any?>("z", 2.5)),
        // lists of compact strings only (one L1_LIST op on the tape): every length to 40, one- and
        // two-byte headers, Latin-1 beyond ASCII; one that turns out to hold a UTF-16 string at its
        // end, one with a null, nested ones
        java.util.ArrayList<Any?>((0..40).map { "x".repeat(it) } + "y".repeat(100) + "\u00e9".repeat(300) + "caf\u00e9"),
        arrayListOf2<Any?>(""),
        arrayListOf2<Any?>("a", "b", "\u65e5"),
        arrayListOf2<Any?>("a", null, "b"),
        arrayListOf2<Any?>(arrayListOf2<Any?>("p", "q"), arrayListOf2<Any?>("r"), "s"),
        java.util.LinkedHashSet(listOf("a", "b")),
        java.util.LinkedHashMap<Any?, Any?>().apply { put("a", 1L); put("b", "x") },
        java.util.LinkedHashMap<Any?, Any?>().apply { put(null, 1L) },
        java.util.LinkedHashMap<Any?, Any?>().apply { put("k", null) },
        java.util.LinkedHashMap<Any?, Any?>().apply { put(1L, arrayListOf2<Any?>(true)); put(2L, java.util.LinkedHashMap<Any?, Any?>()) },
        LocalDate.of(2021, 11, 23), LocalDate.of(1969, 7, 20),
        Instant.ofEpochSecond(100), Instant.ofEpochSecond(-1, 999_999_999), Instant.parse("2024-02-29T12:34:56.789Z"),
        Duration.ofMillis(-500), Duration.ofSeconds(86400L * 365, 1),
        BigDecimal("123.45"), BigDecimal.ZERO, BigDecimal("-0.001"),
        BigDecimal(BigInteger.ONE.shiftLeft(62)), BigDecimal(BigInteger.ONE.shiftLeft(100).negate(), 7),
        null,
    )

    private val paths = listOf(WireOptions())

    @Test fun builtinsForyToLibwire() {
        for (o in paths) for (v in builtins()) {
            val jb = plain.serialize(v)
            val got = Wire.decode(jb, o)
            assertTrue(deepEq(v, got), "libwire decoded Fory's ${hex(jb)} as $got, expected $v ($o)")
        }
    }

    @Test fun builtinsLibwireToFory() {
        for (o in paths) for (v in builtins()) {
            val wb = Wire.encode(v, o)
            // a fresh Fory per read: fory-core 1.6.0 misreads some UTF-8 strings after others (ForyUtf8BugProbe)
            val back = fory().deserialize(wb)
            assertTrue(deepEq(v, back), "Fory decoded libwire's ${hex(wb)} as $back, expected $v ($o)")
        }
    }

    @Test fun builtinsSameBytes() {
        for (o in paths) for (v in builtins()) {
            assertEquals(hex(plain.serialize(v)), hex(Wire.encode(v, o)), "bytes of $v ($o)")
        }
    }

    @Test fun sharedStringListsUnderRefTracking() {
        // a list of compact strings (L1_LIST) met twice: one reference, the same bytes as Fory's
        val f = fory(ref = true)
        val opts = WireOptions(refTracking = true)
        val ss = arrayListOf2<Any?>("alpha", "b\u00e9ta", "g".repeat(40))
        val outer = arrayListOf2<Any?>(ss, ss, arrayListOf2<Any?>("x", ss))
        assertEquals(hex(f.serialize(outer)), hex(Wire.encode(outer, opts)))
        val got = Wire.decode(Wire.encode(outer, opts), opts) as List<*>
        assertTrue(got[0] === got[1] && (got[2] as List<*>)[1] === got[0] && got[0] == ss)
    }

    @Test fun refTrackingBothWays() {
        val f = fory(ref = true)
        refTrackingBothWays(f)
    }

    private fun refTrackingBothWays(f: Fory) {
        val opts = WireOptions(refTracking = true)
        val inner = arrayListOf2<Any?>(1L, "s")
        val outer = arrayListOf2<Any?>(inner, inner, java.util.LinkedHashMap<Any?, Any?>().apply { put("k", inner) })
        val jb = f.serialize(outer)
        assertEquals(hex(jb), hex(Wire.encode(outer, opts)))
        val got = Wire.decode(jb, opts) as List<*>
        assertTrue(got[0] === got[1] && (got[2] as Map<*, *>)["k"] === got[0])
        val back = f.deserialize(Wire.encode(outer, opts)) as List<*>
        assertTrue(back[0] === back[1])
    }

    // ---------------------------------------------------------------- struct

    private val itemSchema get() = repoRoot.resolve("fixtures/schemas/xlang/test_item.fdl")

    private lateinit var ctx: Context

    @BeforeAll fun setUp() {
        ctx = Context(WireOptions.COMPATIBLE)
        ctx.registerSchema(itemSchema)
        ctx.registerDataClass(Item::class, "Item")
    }

    @AfterAll fun tearDown() = ctx.close()

    private fun foryItems(): Fory = fory(compatible = true).also { it.register(JavaItem::class.java, 102) }

    private fun corpusHex(): String {
        val json = Json.parse(Files.readString(repoRoot.resolve("fixtures/xlang-corpus/test_item.json"))) as Map<*, *>
        return json["java_hex"] as String
    }

    private val names = listOf("test_item_1", "test_item_2", "")

    @Test fun structCorpusBytes() {
        val items = names.map { Item(it) }
        assertEquals(corpusHex(), hex(ctx.encodeAll(items)))
        assertEquals(items, ctx.decodeAll(unhex(corpusHex())))
    }

    @Test fun structForyToLibwire() {
        val f = foryItems()
        val jb = names.map { n -> f.serialize(JavaItem().apply { name = n }) }.reduce { a, b -> a + b }
        assertEquals(corpusHex(), hex(jb), "Fory 1.6.0 still writes the corpus bytes")
        assertEquals(names.map { Item(it) }, ctx.decodeAll(jb))
    }

    @Test fun structLibwireToFory() {
        val f = foryItems()
        for (n in names + listOf("héllo wörld", "日本語")) {
            val wb = ctx.encode(Item(n))
            val back = f.deserialize(wb)
            assertTrue(back is JavaItem, "Fory gave ${back?.javaClass}")
            assertEquals(n, (back as JavaItem).name)
            assertEquals(hex(f.serialize(JavaItem().apply { name = n })), hex(wb))
        }
        // a list of structs: shared TypeDef within one payload
        val list = arrayListOf2<Any?>(Item("a"), Item("b"))
        val back = f.deserialize(ctx.encode(list)) as List<*>
        assertEquals(listOf("a", "b"), back.map { (it as JavaItem).name })
        val jl = arrayListOf2<Any?>(JavaItem().apply { name = "a" }, JavaItem().apply { name = "b" })
        assertEquals(list, ctx.decode(f.serialize(jl)))
    }

    @Test fun globalRegistration() {
        Wire.registerSchema(itemSchema)
        Wire.registerDataClass(Item::class, "Item")
        val b = Wire.encode(Item("x"), WireOptions.COMPATIBLE)
        assertEquals(Item("x"), Wire.decode(b, WireOptions.COMPATIBLE))
        assertEquals("x", (foryItems().deserialize(b) as JavaItem).name)
    }
}
