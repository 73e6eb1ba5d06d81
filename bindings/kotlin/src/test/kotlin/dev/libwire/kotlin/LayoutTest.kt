package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.math.BigDecimal
import java.time.Duration
import java.time.Instant
import java.time.LocalDate

enum class Tone { LOW, HIGH }

data class Addr(val street: String, val city: String)

/** Not public in bytecode: the generated codecs cannot name it (LayoutTest.generatedCodecsAgreeWithTheComposedHandles). */
private data class HiddenAddr(val street: String, val city: String)

data class Holder(
    val id: Long,
    val small: Short,
    val tiny: Byte,
    val ratio: Float,
    val name: String,
    val note: String?,
    val count: Int?,
    val tone: Tone,
    val maybeTone: Tone?,
    val day: LocalDate,
    val at: Instant,
    val span: Duration,
    val price: BigDecimal,
    val blob: ByteArray,
    val nums: IntArray,
    val words: List<String>,
    val tags: Set<String>,
    val scores: Map<String, Long?>,
    val home: Addr,
    val work: Addr?,
    val all: List<Addr>,
) {
    override fun equals(other: Any?): Boolean = other is Holder && id == other.id && small == other.small &&
        tiny == other.tiny && ratio == other.ratio && name == other.name && note == other.note &&
        count == other.count && tone == other.tone && maybeTone == other.maybeTone && day == other.day &&
        at == other.at && span == other.span && price == other.price && blob.contentEquals(other.blob) &&
        nums.contentEquals(other.nums) && words == other.words && tags == other.tags && scores == other.scores &&
        home == other.home && work == other.work && all == other.all

    override fun hashCode() = id.hashCode()
}

/** A struct whose union field has no memory form: it goes through the tape codec. */
data class WithUnion(val id: Int, val choice: WireUnion)

/** A struct with an `any` field: the tape codec too. */
data class WithAny(val id: Int, val value: Any?)

data class Link(val name: String, val next: Link?)

data class Pair2(val a: Addr, val b: Addr)

/** Data classes in a list (null items too) and in a nullable field: the generated codecs call Addr's codec directly. */
data class Crowd(val people: List<Addr?>, val lead: Addr?, val id: Int, val marks: LongArray?, val names: List<String?>) {
    override fun equals(other: Any?): Boolean = other is Crowd && people == other.people && lead == other.lead && id == other.id &&
        (marks?.contentEquals(other.marks) ?: (other.marks == null)) && names == other.names

    override fun hashCode() = id
}

/** Only fields held in the image itself: crosses to C as heap segments (MemPlan.flat). */
data class Flat(val id: Long, val n: Int, val f: Double, val on: Boolean, val tone: Tone, val maybe: Int?, val day: LocalDate)

/** Registered data classes through libwire's compiled codecs (native memory layouts, wire_mem_*). */
class LayoutTest {
    private val fdl = """
        package lt;
        enum Tone [id=400] { LOW = 0; HIGH = 1; }
        message Addr [id=401] { string street = 1; string city = 2; }
        message Holder [id=402] {
          int64 id = 1; int16 small = 2; int8 tiny = 3; float32 ratio = 4; string name = 5;
          optional string note = 6; optional int32 count = 7; Tone tone = 8; optional Tone maybe_tone = 9;
          date day = 10; timestamp at = 11; duration span = 12; decimal price = 13; bytes blob = 14;
          array<int32> nums = 15; list<string> words = 16; list<string> tags = 17 [wire_set = true];
          map<string, optional int64> scores = 18; Addr home = 19 [nullable = false]; Addr work = 20;
          list<Addr> all = 21;
        }
        union Choice [id=403] { string text = 1; int64 number = 2; }
        message WithUnion [id=404] { int32 id = 1; Choice choice = 2; }
        message WithAny [id=405] { int32 id = 1; any value = 2; }
        message Link [id=406] { string name = 1; ref Link next = 2; }
        message Pair2 [id=407] { ref Addr a = 1 [nullable = false]; ref Addr b = 2 [nullable = false]; }
        message Crowd [id=409] { list<optional Addr> people = 1; Addr lead = 2; int32 id = 3; optional array<int64> marks = 4; list<optional string> names = 5; }
        message Flat [id=408] { int64 id = 1; int32 n = 2; float64 f = 3; bool on = 4; Tone tone = 5; optional int32 maybe = 6; date day = 7; }
    """.trimIndent()

    private fun ctx(compatible: Boolean, ref: Boolean = false): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(fdl, "lt.fdl")
        c.registerEnum(Tone::class, "lt.Tone")
        c.registerDataClass(Addr::class, "lt.Addr")
        c.registerDataClass(Holder::class, "lt.Holder")
        c.registerDataClass(WithUnion::class, "lt.WithUnion")
        c.registerDataClass(WithAny::class, "lt.WithAny")
        c.registerDataClass(Link::class, "lt.Link")
        c.registerDataClass(Pair2::class, "lt.Pair2")
        c.registerDataClass(Crowd::class, "lt.Crowd")
        c.registerDataClass(Flat::class, "lt.Flat")
        return c
    }

    private fun holder(full: Boolean) = Holder(
        -1234567890123L, -300, 7, 1.5f, "naïve – 日本", if (full) "a note" else null, if (full) 42 else null,
        Tone.HIGH, if (full) Tone.LOW else null, LocalDate.of(2024, 2, 29), Instant.ofEpochSecond(1_700_000_000L, 123_456_789),
        Duration.ofSeconds(-5, 250), BigDecimal("-12345678901234567890.125"), byteArrayOf(0, 1, -1, 127),
        intArrayOf(Int.MIN_VALUE, -1, 0, 1, Int.MAX_VALUE), listOf("x", "", "ÿ", "aé日", "😀", "日本", "a😀", "a".repeat(70) + "日", "é".repeat(40), "w".repeat(33), "日" + "a".repeat(80)), linkedSetOf("b", "a"),
        linkedMapOf("one" to 1L, "none" to null, "big" to Long.MIN_VALUE), Addr("1 Main St", "Oslo"),
        if (full) Addr("2 Work Rd", "Bergen") else null, listOf(Addr("a", "b"), Addr("c", "d")),
    )

    @Test fun everyFormRoundTripsWithTheTapeCodecsBytes() {
        for (compatible in listOf(false, true)) ctx(compatible).use { c ->
            assertTrue(c.hasLayout(Holder::class), c.layoutProblem(Holder::class))
            for (full in listOf(true, false)) {
                val v = holder(full)
                val bytes = c.encode(v)
                // the tape codec writes the Java runtime's bytes: the layout path must agree
                assertEquals(hex(c.encodeAll(listOf(v))), hex(bytes), "compatible=$compatible full=$full")
                assertEquals(v, c.decode(bytes))
                assertEquals(v, c.decode(bytes, Holder::class))
                // and the tape decoder reads the layout's bytes to the same value
                assertEquals(v, c.decodeAll(bytes).single())
            }
        }
    }

    @Test fun generatedCodecsAgreeWithTheComposedHandles() {
        // a class the generated code cannot name (private: package-private in bytecode) keeps its handles
        for (compatible in listOf(false, true)) Context(WireOptions(compatible = compatible)).use { h ->
            h.registerSchemaText(fdl, "lt.fdl")
            h.registerDataClass(HiddenAddr::class, "lt.Addr")
            assertTrue(h.hasLayout(HiddenAddr::class), h.layoutProblem(HiddenAddr::class))
            assertNull(h.mem.planOf(HiddenAddr::class.java)!!.gen, "a private class has no generated codec")
            assertEquals(HiddenAddr("x", "y"), h.decode(h.encode(HiddenAddr("x", "y")), HiddenAddr::class))
        }
        for (compatible in listOf(false, true)) ctx(compatible).use { c ->
            val classes = listOf(Holder::class.java, Addr::class.java, Flat::class.java, Link::class.java)
            val values = listOf<Any>(
                holder(true), holder(false), Flat(1, 2, 3.5, true, Tone.LOW, null, LocalDate.of(2001, 1, 1)),
                Link("a", Link("b", null)),
            )
            for (k in classes) {
                assertEquals(MemGenerator.ENABLED, c.mem.planOf(k)!!.gen != null, "${k.simpleName}: generated codec")
            }
            val gen = values.map { c.encode(it) }
            for ((v, b) in values.zip(gen)) assertEquals(v, c.decode(b, v::class))
            // the same plans with their composed handles: the same bytes and values
            val saved = classes.map { c.mem.planOf(it)!!.gen }
            for (k in classes) c.mem.planOf(k)!!.gen = null
            for ((v, b) in values.zip(gen)) {
                assertEquals(hex(b), hex(c.encode(v)), "$v")
                assertEquals(v, c.decode(b, v::class))
            }
            for ((k, g) in classes.zip(saved)) c.mem.planOf(k)!!.gen = g
        }
    }

    @Test fun dataClassesInListsAndFieldsThroughTheGeneratedCodecs() {
        for (compatible in listOf(false, true)) for (ref in listOf(false, true)) ctx(compatible, ref).use { c ->
            val a = Addr("1 Main St", "Oslo")
            val values = listOf(
                Crowd(listOf(a, null, Addr("é", "日本"), a), a, 7, longArrayOf(1, -2, Long.MAX_VALUE), listOf("x", null, "日本", "")),
                Crowd(java.util.LinkedList(listOf(Addr("x", "y"), a)), null, -1, null, listOf(null)),
                Crowd(emptyList(), null, 0, LongArray(40) { it * 3L }, emptyList()),
            )
            assertEquals(MemGenerator.ENABLED, c.mem.planOf(Crowd::class.java)!!.gen != null)
            val bytes = values.map { c.encode(it) }
            for ((v, b) in values.zip(bytes)) {
                val back = c.decode(b, Crowd::class)
                assertEquals(v, back)
                assertEquals(v, c.decodeAll(b).single())
                // the tape codec writes the Java runtime's bytes (without reference tracking it has
                // nothing to track here: the fields are not declared `ref`)
                if (!ref) assertEquals(hex(c.encodeAll(listOf(v))), hex(b), "compatible=$compatible $v")
            }
            // the composed handles: the same bytes and values
            val plans = listOf(Crowd::class.java, Addr::class.java).map { c.mem.planOf(it)!! }
            val saved = plans.map { it.gen }
            for (p in plans) p.gen = null
            for ((v, b) in values.zip(bytes)) {
                assertEquals(hex(b), hex(c.encode(v)), "$v")
                assertEquals(v, c.decode(b, Crowd::class))
            }
            for ((p, g) in plans.zip(saved)) p.gen = g
            // a value of another class in the list: an error, not a ClassCastException
            @Suppress("UNCHECKED_CAST")
            val wrong = Crowd(listOf("not an Addr") as List<Addr?>, null, 1, null, emptyList())
            assertThrows<WireException> { c.encode(wrong) }
        }
    }

    @Test fun unionAndAnyFieldsGoThroughTheTape() {
        ctx(true).use { c ->
            assertTrue(!c.hasLayout(WithUnion::class))
            assertTrue(c.layoutProblem(WithUnion::class)!!.contains("union"), c.layoutProblem(WithUnion::class))
            assertTrue(!c.hasLayout(WithAny::class))
            assertTrue(c.layoutProblem(WithAny::class)!!.contains("unknown"), c.layoutProblem(WithAny::class))
            val u = WithUnion(3, WireUnion("lt.Choice", 1, "hi"))
            assertEquals(u, c.decode(c.encode(u)))
            val a = WithAny(4, listOf(1L, "two"))
            assertEquals(a, c.decode(c.encode(a)))
        }
    }

    @Test fun sharedStructsStayShared() {
        ctx(true, ref = true).use { c ->
            assertTrue(c.hasLayout(Pair2::class), c.layoutProblem(Pair2::class))
            val x = Addr("s", "c")
            val bytes = c.encode(Pair2(x, x))
            assertEquals(hex(c.encodeAll(listOf(Pair2(x, x)))), hex(bytes))
            val back = c.decode(bytes) as Pair2
            assertSame(back.a, back.b)
            // without reference tracking the same object is written twice
            ctx(true).use { d -> assertTrue(d.encode(Pair2(x, x)).size > bytes.size) }
            val chain = Link("a", Link("b", null))
            assertEquals(chain, c.decode(c.encode(chain)))
            // a class met only in positions not declared `ref` (Crowd's people and lead) is not
            // looked up by identity (MemPlan.referable): the object met three times is written
            // in full three times, as three equal objects are
            assertTrue(c.hasLayout(Crowd::class), c.layoutProblem(Crowd::class))
            val crowd = Crowd(listOf(x, null, x), x, 7, null, listOf("n"))
            val cb = c.encode(crowd)
            assertEquals(hex(c.encode(Crowd(listOf(x.copy(), null, x.copy()), x.copy(), 7, null, listOf("n")))), hex(cb))
            assertEquals(crowd, c.decode(cb))
            // and a referable class still is: Pair2's fields are `ref Addr`, the same Addr a
            // reference, two equal ones two values
            assertTrue(c.encode(Pair2(x, x.copy())).size > bytes.size)
        }
    }

    /** The encoder's identity table (IdentityInts) grows for a message of many referable objects and is emptied for each next one. */
    @Test fun identityTableAcrossMessages() {
        ctx(true, ref = true).use { c ->
            fun chain(n: Int): Link { var l: Link? = null; for (i in n downTo 1) l = Link("n$i", l); return l!! }
            val x = Addr("s", "c")
            for (round in 0 until 3) {
                val long = chain(40) // 40 keys: the table grows past its first 64 slots
                val lb = c.encode(long)
                assertEquals(hex(c.encodeAll(listOf(long))), hex(lb))
                assertEquals(long, c.decode(lb))
                repeat(3) {
                    val small = c.encode(Pair2(x, x)) // 1 key
                    assertEquals(hex(c.encodeAll(listOf(Pair2(x, x)))), hex(small))
                    val back = c.decode(small) as Pair2
                    assertSame(back.a, back.b)
                    assertTrue(c.encode(Pair2(x, x.copy())).size > small.size)
                }
            }
        }
    }

    /**
     * The decoder's reference table (kept across messages, emptied for each; Kotlin round 49
     * measured one made per message for small images): small messages and ones of a ~120 KB
     * image alternated, each with its own values at the same image offsets, sharing kept.
     */
    @Test fun referenceTableOfSmallAndLargeImages() {
        ctx(true, ref = true).use { c ->
            fun crowd(tag: String, n: Int) = Crowd(List(n) { Addr("$tag street $it", "$tag city") }, Addr("$tag lead", "l"), n, null, listOf(tag))
            for (round in 0 until 2) {
                for (tag in listOf("a", "b")) {
                    val big = crowd(tag, 3000) // an image of ~120 KB
                    assertEquals(big, c.decode(c.encode(big)))
                    val x = Addr("$tag$round", "x")
                    val back = c.decode(c.encode(Pair2(x, x))) as Pair2
                    assertEquals(Pair2(x, x), back)
                    assertSame(back.a, back.b)
                    val small = crowd(tag + round, 3)
                    assertEquals(small, c.decode(c.encode(small)))
                }
            }
        }
    }

    @Test fun sharedItemsOfAListNotDeclaredRef() {
        // spec R-WLIST-8, errata E-50: Crowd's `list<optional Addr> people` holding x, null, x.
        // The layout codec writes each occurrence in full, as Java 1.6.0 does (header 0a, ff
        // flags; same-schema 0e); encodeAll keeps the sharing, as pyfory 1.7.7 and Go 1.6.1 do
        // (0b, 00 / fd / fe 01); in same-schema mode the declared header is then 0d, has-null
        // clear, as Java writes tracked declared elements (0f, which no runtime writes, before).
        for (compatible in listOf(true, false)) {
            ctx(compatible, ref = true).use { c ->
                val x = Addr("s", "c")
                val crowd = Crowd(listOf(x, null, x), Addr("l", "d"), 7, null, listOf("n"))
                val layout = c.encode(crowd)
                val tape = c.encodeAll(listOf(crowd))
                val lh = if (compatible) "030a" else "030e"
                val th = if (compatible) "030b" else "030d"
                assertTrue(hex(layout).contains(lh), "compatible=$compatible layout ${hex(layout)}")
                assertTrue(hex(tape).contains(th), "compatible=$compatible encodeAll ${hex(tape)}")
                assertTrue(hex(tape).contains("fdfe"), "compatible=$compatible: the repeat is a reference ${hex(tape)}")
                assertFalse(hex(tape).contains("030f"), "compatible=$compatible ${hex(tape)}")
                for (b in listOf(layout, tape)) {
                    assertEquals(crowd, c.decode(b), "compatible=$compatible ${hex(b)}")
                    assertEquals(listOf<Any?>(crowd), c.decodeAll(b), "compatible=$compatible ${hex(b)}")
                }
                val back = c.decodeAll(tape)[0] as Crowd
                assertSame(back.people[0], back.people[2], "compatible=$compatible: shared after the tape decoder")
            }
        }
    }

    @Test fun nullsAndCyclesAreErrors() {
        ctx(true).use { c ->
            // a null where the schema has no null: the JVM refuses it before C sees it
            val bad = Addr("s", "x")
            Addr::class.java.getDeclaredField("street").also { it.isAccessible = true }.set(bad, null)
            val e = assertThrows<WireException> { c.encode(bad) }
            assertEquals("value", e.cls)
            // a node pointing at itself without reference tracking: the depth limit
            val n = Link("a", null)
            val f = Link::class.java.getDeclaredField("next").also { it.isAccessible = true }
            f.set(n, n)
            assertEquals("depth", assertThrows<WireException> { c.encode(n) }.cls)
        }
        ctx(true, ref = true).use { c ->
            val n = Link("a", null)
            Link::class.java.getDeclaredField("next").also { it.isAccessible = true }.set(n, n)
            val bytes = c.encode(n) // a cycle is written as a reference
            assertEquals("ref", assertThrows<WireException> { c.decode(bytes) }.cls)
        }
    }

    /** Decimals of up to 18 digits (read as a long) and longer (through BigInteger): the tape codec's bytes, and back equal. */
    @Test fun decimalsOfEveryWidthAndScale() {
        val ds = listOf(
            "0", "0.00", "-1", "1E+3", "-7E-20", "255", "256", "-65536", "0.015", "123456789012345678", "-999999999999999999",
            "9223372036854775807", "-9223372036854775808", "1234567890123456789", "-12345678901234567890.125", "1E-400",
        ).map { BigDecimal(it) }
        for (compatible in listOf(false, true)) ctx(compatible).use { c ->
            for (d in ds) {
                val v = holder(true).copy(price = d)
                val bytes = c.encode(v)
                assertEquals(hex(c.encodeAll(listOf(v))), hex(bytes), "$d")
                val back = c.decode(bytes, Holder::class)
                assertEquals(d, back.price, "$d")
                assertEquals(d.scale(), back.price.scale(), "$d")
            }
        }
    }

    /** [decode] of [n] copies of [bytes] with 1-3 bytes flipped: a value or a WireException, never another exception. */
    private fun mutated(bytes: ByteArray, seed: Long, n: Int, decode: (ByteArray) -> Any) {
        val r = java.util.Random(seed)
        repeat(n) {
            val m = bytes.copyOf()
            repeat(1 + r.nextInt(3)) { m[r.nextInt(m.size)] = r.nextInt(256).toByte() }
            try {
                decode(m)
            } catch (e: WireException) {
                assertTrue(e.offset >= -1 && e.offset <= m.size, "offset ${e.offset}")
            }
        }
    }

    @Test fun badInputFailsCleanly() {
        ctx(true).use { c ->
            val bytes = c.encode(holder(true))
            for (k in listOf(1, 4, 10, bytes.size / 2, bytes.size - 1)) {
                val e = assertThrows<WireException> { c.decode(bytes.copyOf(k), Holder::class) }
                assertTrue(e.offset in 0..k.toLong(), "offset ${e.offset} for a prefix of $k")
            }
            // flipped bytes: a value or a WireException, never another exception
            mutated(bytes, 7, Integer.getInteger("layout.mutations", 400)) { c.decode(it, Holder::class) }
            // still usable afterwards
            assertEquals(holder(false), c.decode(c.encode(holder(false))))
        }
    }

    @Test fun largeValuesGrowTheBuffers() {
        ctx(true).use { c ->
            val big = holder(true).copy(blob = ByteArray(3 shl 20) { it.toByte() }, words = List(20000) { "w$it" })
            val bytes = c.encode(big)
            assertEquals(hex(c.encodeAll(listOf(big))).length, hex(bytes).length)
            val back = c.decode(bytes) as Holder
            assertArrayEquals(big.blob, back.blob)
            assertEquals(big.words, back.words)
        }
    }

    /**
     * Decoding into a heap arena (wire_mem_decode_bases, the default) and through native copies
     * (-Dlibwire.decodeCopies) give the same values, the arena grown or not.
     */
    @Test fun heapAndCopyingDecodesAgree() {
        assertNotNull(Native.mem_decode_bases, "the bundled libwire has wire_mem_decode_bases")
        System.setProperty("libwire.decodeCopies", "true")
        val copying = try { ctx(true) } finally {
            System.clearProperty("libwire.decodeCopies")
        }
        copying.use { old ->
            ctx(true).use { c ->
                val big = holder(true).copy(blob = ByteArray(1 shl 16) { it.toByte() }, words = List(9000) { "w$it" })
                for (v in listOf(holder(true), holder(false), big, holder(true))) {
                    val bytes = c.encode(v)
                    val a = c.decode(bytes, Holder::class)
                    val b = old.decode(bytes, Holder::class)
                    assertEquals(b, a)
                    assertEquals(v.words, a.words)
                    assertArrayEquals(v.blob, a.blob)
                }
            }
        }
    }

    @Test fun flatStructsCrossAsHeapSegments() {
        val vs = listOf(
            Flat(Long.MIN_VALUE, -1, -0.0, true, Tone.HIGH, 7, LocalDate.of(1969, 12, 31)),
            Flat(0, Int.MAX_VALUE, Double.NaN, false, Tone.LOW, null, LocalDate.of(2024, 2, 29)),
        )
        for (compatible in listOf(false, true)) ctx(compatible).use { c ->
            assertTrue(c.hasLayout(Flat::class), c.layoutProblem(Flat::class))
            assertTrue(c.mem.planOf(Flat::class.java)!!.flat)
            assertTrue(!c.mem.planOf(Addr::class.java)!!.flat)
            for (v in vs) {
                val bytes = c.encode(v)
                assertEquals(hex(c.encodeAll(listOf(v))), hex(bytes), "compatible=$compatible $v")
                assertEquals(v, c.decode(bytes))
                assertEquals(v, c.decode(bytes, Flat::class))
                // a struct with pointers in between leaves the flat path intact
                assertEquals(holder(true), c.decode(c.encode(holder(true))))
                assertEquals(v, c.decode(bytes, Flat::class))
                for (k in listOf(0, 1, 4, bytes.size / 2, bytes.size - 1)) {
                    val e = assertThrows<WireException> { c.decode(bytes.copyOf(k), Flat::class) }
                    assertTrue(e.offset in -1..k.toLong(), "offset ${e.offset} for a prefix of $k")
                }
                mutated(bytes, 11, 300) { c.decode(it, Flat::class) }
                assertEquals(v, c.decode(bytes, Flat::class))
            }
        }
        // a writer with a string field more: skipped by the flat reader
        val v2 = fdl.replace("optional int32 maybe = 6; date day = 7; }", "optional int32 maybe = 6; date day = 7; string extra = 8; }")
        data class Flat2(val id: Long, val n: Int, val f: Double, val on: Boolean, val tone: Tone, val maybe: Int?, val day: LocalDate, val extra: String)
        Context(WireOptions(compatible = true)).use { w ->
            w.registerSchemaText(v2, "lt2.fdl")
            w.registerEnum(Tone::class, "lt.Tone")
            w.registerDataClass(Flat2::class, "lt.Flat")
            val bytes = w.encode(Flat2(5, 6, 7.5, true, Tone.LOW, null, LocalDate.of(2000, 1, 1), "x".repeat(5000)))
            ctx(true).use { r -> assertEquals(Flat(5, 6, 7.5, true, Tone.LOW, null, LocalDate.of(2000, 1, 1)), r.decode(bytes, Flat::class)) }
        }
    }

    @Test fun evolvedWriterIsReadThroughAMapping() {
        val v2 = fdl.replace("message Addr [id=401] { string street = 1; string city = 2; }",
            "message Addr [id=401] { string street = 1; string city = 2; optional string zip = 3; }")
        data class Addr2(val street: String, val city: String, val zip: String?)
        Context(WireOptions(compatible = true)).use { w ->
            w.registerSchemaText(v2, "lt2.fdl")
            w.registerDataClass(Addr2::class, "lt.Addr")
            val bytes = w.encode(Addr2("s", "c", "z"))
            ctx(true).use { r ->
                assertEquals(Addr("s", "c"), r.decode(bytes, Addr::class))
                assertNull(r.layoutProblem(Addr::class))
            }
            assertNotNull(w.layoutProblem(Addr2::class) ?: "ok")
        }
    }
    /**
     * Untyped decodes pick the root's class by the first word of its TypeDef (MemCodec.rootPlan);
     * C compares the whole TypeDef again. Alternating classes come back as themselves, and a
     * TypeDef with another registered TypeDef's first word put in front of its body is an error,
     * never a value of either class.
     */
    @Test fun untypedDecodesPickTheRootByItsTypeDef() {
        ctx(true).use { c ->
            val values = listOf<Any>(
                Addr("a", "b"), holder(true), Flat(1, 2, 3.5, true, Tone.LOW, null, LocalDate.of(2001, 1, 1)),
                Link("x", null), Crowd(emptyList(), null, 3, null, emptyList()), Addr("", "ÿ"),
            )
            val bytes = values.map { c.encode(it) }
            repeat(2) { for ((v, b) in values.zip(bytes)) assertEquals(v, c.decode(b)) }
            val addr = bytes[0]
            val flat = bytes[2]
            assertEquals(0, addr[3].toInt(), "a new TypeDef, #0, at byte 4")
            for (other in listOf(flat, bytes[3], bytes[1])) {
                val forged = addr.copyOf()
                System.arraycopy(other, 4, forged, 4, 8)
                val e = runCatching { c.decode(forged) }
                assertTrue(e.exceptionOrNull() is WireException, "a forged TypeDef header: ${e.getOrNull() ?: e.exceptionOrNull()}")
            }
            // the header alone (fewer bytes than the TypeDef): not a root of the layouts
            assertThrows<WireException> { c.decode(flat.copyOf(12)) }
            assertEquals(values[2], c.decode(flat))
        }
    }

    /**
     * Strings at the edges of MemReader.string's paths: empty (any encoding), Latin-1 bytes above
     * 0x7f (made a compact String from a copy of the payload's bytes), UTF-16 (a char above 0xff
     * anywhere, also last), UTF-8 (Fory Java's choice for text beyond Latin-1 whose first 64 chars
     * are ASCII), in fields, lists, sets and maps.
     */
    @Test fun stringsOfEveryEncodingAndLength() {
        val texts = listOf(
            "", "a", "\u00ff", "\u0080", "\u00e9".repeat(3), "x".repeat(127) + "\u00ff", "abc\u0100", "\u0100abc", "ab\u1234",
            "\ud83d\ude00", "a".repeat(9) + "\u65e5", "\u0000", "\u00ff\u0000\u00ff", "z".repeat(300), "a".repeat(64) + "\u65e5", "b".repeat(70) + "\u00e9\u65e5",
        )
        for (compatible in listOf(false, true)) ctx(compatible).use { c ->
            for (t in texts) {
                val v = holder(true).copy(name = t, note = t, words = listOf(t, "", t), tags = linkedSetOf(t, "k"), scores = linkedMapOf(t to 1L))
                val back = c.decode(c.encode(v), Holder::class)
                assertEquals(v, back, "\"$t\"")
                assertEquals(t.length, back.name.length)
                val a = Addr(t, t + t)
                assertEquals(a, c.decode(c.encode(a)))
            }
        }
    }
    /**
     * UTF-16 text whose chars all fit in a byte (not what Fory Java or libwire write, but valid
     * input): MemReader makes it a compact String, equal to the same text written as Latin-1, on
     * the word-at-a-time check (8 bytes and more, the last word overlapping) and the short one.
     */
    @Test fun utf16TextOfLatin1CharsIsACompactString() {
        for (t in listOf("\u1234", "\u1234b", "\u1234bc", "\u1234bcd", "\u1234bcdefgh", "\u1234bcdefghijklmnop", "\u00e9\u1234", "\u00e9bc\u1234", "\u00e9bcdefghijklm\u1234")) {
            val wide = Addr(t, "x")
            for (compatible in listOf(false, true)) ctx(compatible).use { c ->
                val bytes = c.encode(wide)
                var n = 0
                for (i in 0 until bytes.size - 1) {
                    if (bytes[i] == 0x34.toByte() && bytes[i + 1] == 0x12.toByte()) { bytes[i] = 'z'.code.toByte(); bytes[i + 1] = 0; n++ }
                }
                assertEquals(1, n, "\"$t\"")
                val narrow = t.replace('\u1234', 'z')
                val back = c.decode(bytes, Addr::class)
                assertEquals(Addr(narrow, "x"), back, "\"$t\"")
                assertEquals(narrow.hashCode(), back.street.hashCode())
            }
        }
    }

    /**
     * UTF-16 text of 1-24 chars (Latin-1 chars above 0x7f, so that the writer picks UTF-16, not
     * UTF-8) with its one char above 0xff at every position (the last word
     * tested first, then the first, then the loop over the words between: JStr.utf16Open), and the
     * same text with that char made narrow on the wire (a compact String then): each decodes equal,
     * with the hash of the text.
     */
    @Test fun utf16TextWithItsWideCharAnywhere() {
        for (compatible in listOf(false, true)) ctx(compatible).use { c ->
            for (len in 1..24) for (pos in 0 until len) {
                val t = buildString { for (i in 0 until len) append(if (i == pos) '\u1234' else '\u00c0' + i % 32) }
                val bytes = c.encode(Addr(t, "x"))
                val back = c.decode(bytes, Addr::class)
                assertEquals(Addr(t, "x"), back, "\"$t\"")
                assertEquals(t.hashCode(), back.street.hashCode())
                var n = 0
                for (i in 0 until bytes.size - 1) {
                    if (bytes[i] == 0x34.toByte() && bytes[i + 1] == 0x12.toByte()) { bytes[i] = 'z'.code.toByte(); bytes[i + 1] = 0; n++ }
                }
                assertEquals(1, n, "\"$t\"")
                val narrow = t.replace('\u1234', 'z')
                val nb = c.decode(bytes, Addr::class)
                assertEquals(Addr(narrow, "x"), nb, "\"$narrow\" (UTF-16 on the wire)")
                assertEquals(narrow.hashCode(), nb.street.hashCode())
            }
        }
    }
}
