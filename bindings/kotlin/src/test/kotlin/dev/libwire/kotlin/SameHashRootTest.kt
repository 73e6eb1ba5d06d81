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
data class ShG(val n: Int, val s: String)

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
    /** A namespace of more than 16 meta string bytes (written with its hash). */
    private val nsLong = "package shy.a_much_longer_namespace;\noption enable_auto_type_id = false;\nmessage C { int32 n = 1; string s = 2; }\n"

    private fun ctx(compatible: Boolean, ref: Boolean, names: Boolean = false): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(if (names) byNames else byIds, "sh.fdl")
        for ((k, n) in listOf(ShA::class to "A", ShB::class to "B", ShC::class to "C", ShD::class to "D")) c.registerDataClass(k, "sh.$n")
        if (names) {
            c.registerSchemaText(nsX, "shx.fdl")
            c.registerSchemaText(nsY, "shy.fdl")
            c.registerDataClass(ShE::class, "shx.C")
            c.registerDataClass(ShF::class, "shy.C")
            c.registerSchemaText(nsLong, "long.fdl")
            c.registerDataClass(ShG::class, "shy.a_much_longer_namespace.C")
        }
        return c
    }

    private fun values(i: Int, names: Boolean) =
        listOf(ShA(i, "a"), ShB(i, "b"), ShC(i, "c"), ShD(i, "d")) + if (names) listOf(ShE(i, "e"), ShF(i, "f"), ShG(i, "g")) else emptyList()

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
                // the compiled codec reads it: a root by id, with a TypeDef, or by name in
                // schema-consistent mode (its names read by wire_root_type)
                val plan = c.mem.rootPlan(bytes)?.cls
                if (plan != v.javaClass) bad.add("$mode: root plan of $plan")
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

    /**
     * Schema-consistent mode, a root by name: a type with no class bound comes back as a generic
     * [WireStruct] (the tape path), a type the reader's schema lacks and a meta string reference where
     * the root's names must be announced are refused with the tape path's errors; none is read as
     * a class of the same hash.
     */
    @Test fun byNameRootsWithoutAClassOrAType() {
        for (ref in listOf(false, true)) {
            val bytes = ctx(false, ref, names = true).use { it.encode(ShG(3, "g")) }
            Context(WireOptions(compatible = false, refTracking = ref)).use { c ->
                c.registerSchemaText(nsLong, "long.fdl")
                c.registerDataClass(ShE::class, "shy.a_much_longer_namespace.C")
                assertEquals(ShE::class.java, c.mem.rootPlan(bytes)?.cls)
                assertEquals(ShE(3, "g"), c.decode(bytes))
            }
            Context(WireOptions(compatible = false, refTracking = ref)).use { c ->
                c.registerSchemaText(nsLong, "long.fdl")
                assertEquals(null, c.mem.rootPlan(bytes))
                val got = c.decode(bytes)
                assertTrue(got is WireStruct && got.type == "shy.a_much_longer_namespace.C", "got $got")
            }
            Context(WireOptions(compatible = false, refTracking = ref)).use { c ->
                c.registerSchemaText(nsX, "shx.fdl")
                c.registerDataClass(ShE::class, "shx.C")
                val e = runCatching { c.decode(bytes) }.exceptionOrNull()
                assertTrue(e is WireException && e.cls == "schema" &&
                    e.detail.contains("struct shy.a_much_longer_namespace.C is not in the schema"), "got $e")
            }
            ctx(false, ref, names = true).use { c ->
                val bad = bytes.copyOf()
                bad[3] = 0x23 // a reference, not the namespace
                assertEquals(null, c.mem.rootPlan(bad))
                val e = runCatching { c.decode(bad) }.exceptionOrNull()
                assertTrue(e is WireException && e.cls == "meta_string", "got $e")
            }
        }
    }
}
