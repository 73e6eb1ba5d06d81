package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Data classes of one field layout, bound to structs of one schema hash. */
data class ShA(val n: Int, val s: String)
data class ShB(val n: Int, val s: String)
data class ShC(val n: Int, val s: String)
data class ShD(val n: Int, val s: String)
data class ShE(val n: Int, val s: String)
data class ShF(val n: Int, val s: String)

/**
 * An untyped `decode(bytes)` finds the root's class by the registered type the root names (its
 * user type id, or its namespace and type name), not by the schema hash: structs of the same
 * fields have the same hash (spec 5.6), and each must come back as its own class, in every mode
 * and way of registering: by an explicit id, by foryc's generated id, by name, and by the same
 * type name in two namespaces.
 */
class SameHashRootTest {
    /** sh.A and sh.B by id, sh.C and sh.D by generated ids. */
    private val byIds = """
        package sh;
        message A [id=701] { int32 n = 1; string s = 2; }
        message B [id=702] { int32 n = 1; string s = 2; }
        message C { int32 n = 1; string s = 2; }
        message D { int32 n = 1; string s = 2; }
    """.trimIndent()

    /** sh.A and sh.B by id, sh.C and sh.D by name; shx.C and shy.C by name, one type name in two namespaces. */
    private val byNames = """
        package sh;
        option enable_auto_type_id = false;
        message A [id=701] { int32 n = 1; string s = 2; }
        message B [id=702] { int32 n = 1; string s = 2; }
        message C { int32 n = 1; string s = 2; }
        message D { int32 n = 1; string s = 2; }
    """.trimIndent()
    private val nsX = "package shx;\noption enable_auto_type_id = false;\nmessage C { int32 n = 1; string s = 2; }\n"
    private val nsY = "package shy;\noption enable_auto_type_id = false;\nmessage C { int32 n = 1; string s = 2; }\n"

    private fun ctx(compatible: Boolean, ref: Boolean, names: Boolean = false): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(if (names) byNames else byIds, "sh.fdl")
        for ((k, n) in listOf(ShA::class to "A", ShB::class to "B", ShC::class to "C", ShD::class to "D")) c.registerDataClass(k, "sh.$n")
        if (names) {
            c.registerSchemaText(nsX, "shx.fdl")
            c.registerSchemaText(nsY, "shy.fdl")
            c.registerDataClass(ShE::class, "shx.C")
            c.registerDataClass(ShF::class, "shy.C")
        }
        return c
    }

    private fun values(i: Int, names: Boolean) =
        listOf(ShA(i, "a"), ShB(i, "b"), ShC(i, "c"), ShD(i, "d")) + if (names) listOf(ShE(i, "e"), ShF(i, "f")) else emptyList()

    @Test fun theFourStructsShareOneSchemaHash() {
        ctx(false, false).use { c ->
            // STRUCT + id (2 bytes each here), then the hash; NAMED_STRUCT + names, then the hash
            val a = c.encode(ShA(1, "a"))
            val b = c.encode(ShB(1, "a"))
            assertNotEquals(hex(a), hex(b))
            assertEquals(hex(a).substring(10, 18), hex(b).substring(10, 18), "the same schema hash after the ids")
        }
    }

    @Test fun untypedDecodesGiveEachStructsOwnClass() {
        val bad = ArrayList<String>()
        for (names in listOf(false, true)) for (compatible in listOf(false, true)) for (ref in listOf(false, true)) ctx(compatible, ref, names).use { c ->
            // in either order of first use, and again (the plans and roots are cached per context)
            for (round in 0 until 3) for (v in values(round, names).let { if (round == 1) it.reversed() else it }) {
                val bytes = c.encode(v)
                val mode = "names=$names compatible=$compatible ref=$ref round $round $v"
                // the compiled codec reads it (a root by id or with a TypeDef; one by name in
                // schema-consistent mode goes through the tape codec)
                val byName = names && !compatible && v !is ShA && v !is ShB
                val plan = c.mem.rootPlan(bytes)?.cls
                if (plan != (if (byName) null else v.javaClass)) bad.add("$mode: root plan of $plan")
                val got = runCatching { c.decode(bytes) }.getOrElse { it }
                if (got != v) bad.add("$mode: decode gave $got")
                val tape = runCatching { c.decodeAll(bytes).single() }.getOrElse { it }
                if (tape != v) bad.add("$mode: decodeAll gave $tape")
                val typed = runCatching { c.decode(bytes, v::class) }.getOrElse { it }
                if (typed != v) bad.add("$mode: typed decode gave $typed")
            }
        }
        assertTrue(bad.isEmpty(), bad.joinToString("\n"))
    }

    /** A root of a struct by id that no registered class has: the tape path's error, not a value of a class of the same hash. */
    @Test fun anUnboundIdWithAKnownHashIsNotAnotherClass() {
        ctx(false, false).use { c ->
            val bytes = c.encode(ShA(7, "x"))
            assertEquals("1bbd05", hex(bytes).substring(4, 10)) // STRUCT, id 701 = bd 05
            bytes[4] = 0x06 // id 829: not registered
            val got = runCatching { c.decode(bytes) }
            assertTrue(got.exceptionOrNull() is WireException, "got ${got.getOrNull()}")
        }
    }
}
