package dev.libwire.kotlin

import dev.libwire.kotlin.testee.Json
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files

/** The writer's side of [ForeignRootTest]: fr.P of four fields, fr.Q of three. */
data class FrWriterP(val a: Int, val b: String, val c: Long, val e: Double)
data class FrWriterQ(val x: Int, val y: String, val z: Boolean)

/** The reader's: fr.P in another order, without c and e, with a field the writer lacks; fr.Q without z. */
data class FrP(val b: String, val a: Int, val extra: Long = 7)
data class FrQ(val y: String, val x: Int)

/**
 * An untyped `decode(bytes)` of a root whose TypeDef (compatible mode) is not the registered one -
 * a writer's of another field order, fewer or more fields - goes through the compiled codecs
 * (Roots.kt: `wire_root_type` names the type, the answer kept per TypeDef bytes) and gives what the
 * tape path (`decodeAll`) gives: the same value, or an error of the same class.
 */
class ForeignRootTest {
    private fun schema(named: Boolean, reader: Boolean): String {
        val opt = if (named) "option enable_auto_type_id = false;\n" else ""
        val p = if (named) "" else " [id=910]"
        val q = if (named) "" else " [id=911]"
        return "package fr;\n" + opt + if (reader) {
            "message P$p { string b = 2; int32 a = 1; int64 extra = 5; }\nmessage Q$q { string y = 2; int32 x = 1; }\n"
        } else {
            "message P$p { int32 a = 1; string b = 2; int64 c = 3; float64 e = 4; }\nmessage Q$q { int32 x = 1; string y = 2; bool z = 3; }\n"
        }
    }

    private fun ctx(named: Boolean, reader: Boolean): Context {
        val c = Context(WireOptions(compatible = true))
        c.registerSchemaText(schema(named, reader), "fr.fdl")
        if (reader) {
            c.registerDataClass(FrP::class, "fr.P")
            c.registerDataClass(FrQ::class, "fr.Q")
        } else {
            c.registerDataClass(FrWriterP::class, "fr.P")
            c.registerDataClass(FrWriterQ::class, "fr.Q")
        }
        return c
    }

    /** Both ways of an untyped decode: the value, or the class of the error. */
    private fun bothWays(c: Context, bytes: ByteArray): Pair<Any?, Any?> {
        val compiled = try { c.decode(bytes) } catch (e: WireException) { "error ${e.cls}" }
        val tape = try {
            val all = c.decodeAll(bytes)
            if (all.size == 1) all[0] else "error trailing"
        } catch (e: WireException) { "error ${e.cls}" }
        return compiled to tape
    }

    private fun payloads(named: Boolean): List<ByteArray> = ctx(named, false).use { w ->
        listOf(w.encode(FrWriterP(1, "one", 3L, 4.5)), w.encode(FrWriterQ(2, "two", true)), w.encode(FrWriterP(-9, "", 0L, -0.0)))
    }

    @Test fun aWritersTypeDefGoesThroughTheCompiledCodecs() {
        for (named in listOf(false, true)) {
            val ps = payloads(named)
            ctx(named, true).use { c ->
                // alternating types: each TypeDef's entry gives its own class
                for (round in 0 until 3) for (bytes in ps) {
                    assertNotNull(c.mem.rootPlan(bytes), "named=$named: the compiled codecs read a writer's TypeDef")
                    val (compiled, tape) = bothWays(c, bytes)
                    assertEquals(tape, compiled, "named=$named round $round")
                }
                assertEquals(FrP("one", 1, 7), c.decode(ps[0]))
                assertEquals(FrQ("two", 2), c.decode(ps[1]))
                assertEquals(2, c.mem.roots.foreignEntries(), "one entry per TypeDef")
            }
        }
    }

    /**
     * Every byte of the payloads replaced, and every cut: the untyped decode gives what the typed
     * one (`decode(bytes, K::class)`, the compiled codecs before this change too) gives, and what
     * the tape path gives but for one difference the typed decode of our own TypeDefs has as
     * well (checked on the reader's own payloads): bytes after the root ("trailing"; the tape
     * path reads them as a next root and reports what it finds there). (A struct type id of
     * another registration than the TypeDef's is refused by both, R-UTYPE-5.)
     */
    @Test fun damagedPayloadsGiveTheSameAnswerBothWays() {
        val bad = ArrayList<String>()
        val known = HashMap<Boolean, HashSet<String>>()
        var compiledOk = 0
        for (named in listOf(false, true)) ctx(named, true).use { c ->
            val own = listOf(c.encode(FrP("one", 1, 3)), c.encode(FrQ("two", 2)))
            for ((isOwn, orig) in payloads(named).map { false to it } + own.map { true to it }) {
                val variants = ArrayList<ByteArray>()
                for (i in orig.indices) for (v in intArrayOf(0x00, 0x80, 0xff, orig[i].toInt() xor 1)) {
                    variants.add(orig.copyOf().also { it[i] = v.toByte() })
                }
                for (n in 0 until orig.size) variants.add(orig.copyOf(n))
                for (m in variants) {
                    val (compiled, tape) = bothWays(c, m)
                    val k = c.mem.rootPlan(m)?.cls?.kotlin
                    if (k != null) {
                        val typed = try { c.decode(m, k) } catch (e: WireException) { "error ${e.cls}" }
                        if (typed != compiled) bad.add("${hex(m)}: untyped $compiled, typed $typed")
                    }
                    if (compiled == tape) {
                        if (compiled !is String && !isOwn) compiledOk++
                        continue
                    }
                    val kind = when {
                        compiled == "error trailing" && tape is String -> "trailing"
                        else -> null
                    }
                    if (kind == null) bad.add("${hex(m)}: compiled $compiled, tape $tape")
                    else known.getOrPut(isOwn) { HashSet() }.add(kind)
                }
            }
        }
        assertTrue(bad.isEmpty(), "${bad.size} differ:\n" + bad.take(20).joinToString("\n"))
        assertTrue(compiledOk > 0)
        assertTrue((known[true] ?: emptySet<String>()).containsAll(known[false] ?: emptySet()), "pre-existing: $known")
    }

    /** Distinct TypeDefs past the table's size: it stays bounded, and each still decodes. */
    @Test fun theTableOfTypeDefsIsBounded() {
        ctx(false, true).use { c ->
            for (k in 0 until 100) {
                val w = Context(WireOptions(compatible = true))
                w.use {
                    // the same type by id, a field of another name each time: another TypeDef
                    w.registerSchemaText("package fr;\noption wire_fields_by_name = true;\nmessage P [id=910] { int32 a = 1; string b = 2; int64 z$k = 3; }\n", "fr.fdl")
                    val bytes = w.encodeAll(listOf(WireStruct("fr.P", mapOf("a" to k, "b" to "v", "z$k" to 1L))))
                    assertNotNull(c.mem.rootPlan(bytes))
                    assertEquals(FrP("v", k, 7), c.decode(bytes))
                }
                assertTrue(c.mem.roots.foreignEntries() <= 64)
            }
            assertEquals(64, c.mem.roots.foreignEntries())
        }
    }

    private val known = listOf(SimpleStruct::class, Item::class, NullableComprehensiveCompatible::class,
        StructWithUnion2::class, OneStringFieldStruct::class, TwoStringFieldStruct::class)

    /**
     * The compatible-mode corpus cases (fixtures/xlang-corpus) whose root types have data classes
     * in these tests, read with the writer's schema and with the reader's: both ways equal.
     */
    @Test fun corpusCasesGiveTheSameValueBothWays() {
        var compared = 0
        var foreign = 0
        val bad = ArrayList<String>()
        Files.list(repoRoot.resolve("fixtures/xlang-corpus")).use { s -> s.filter { it.toString().endsWith(".json") }.sorted().toList() }.forEach { f ->
            val case = Json.parse(Files.readString(f)) as Map<*, *>
            if (case["mode"] != "compatible") return@forEach
            for (key in listOf("schema", "reader_schema")) {
                val schema = case[key] as String? ?: continue
                Context(WireOptions(compatible = true, refTracking = case["ref"] == true)).use { c ->
                    c.registerSchema(repoRoot.resolve(schema))
                    try { c.registerEnum(Color::class, "Color") } catch (e: WireException) {}
                    var any = false
                    for (k in known) {
                        try { c.registerDataClass(k, k.simpleName!!); any = true } catch (e: WireException) {}
                    }
                    if (!any) return@use
                    for (h in listOf("java_hex", "pyfory_hex")) {
                        val bytes = unhex(case[h] as String)
                        val p = c.mem.rootPlan(bytes) ?: continue
                        val own = c.mem.roots.foreignEntries()
                        val (compiled, tape) = bothWays(c, bytes)
                        if (!deepEq(compiled, tape)) bad.add("${f.fileName} $key $h: compiled $compiled, tape $tape")
                        compared++
                        if (own > 0) foreign++
                        assertTrue(p.cls.isInstance(compiled) || compiled is String)
                    }
                }
            }
        }
        assertTrue(bad.isEmpty(), bad.joinToString("\n"))
        assertTrue(compared >= 8, "compared $compared")
        assertTrue(foreign >= 2, "read from a writer's TypeDef: $foreign")
    }
}
