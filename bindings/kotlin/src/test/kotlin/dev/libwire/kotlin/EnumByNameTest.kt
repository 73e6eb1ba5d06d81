package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** Bound to en.Sparse (ONE = 1, FIVE = 5, THOUSAND = 1000) by name. */
enum class EnSparse { ONE, FIVE, THOUSAND }

/** Bound to en.Dense (A = 0, B = 1, C = 2) by name: each name's number is its ordinal (no table). */
enum class EnDense { A, B, C }

/** Bound to en.Turned (X = 1, Y = 0): the numbers are 0 and 1 but not in ordinal order. */
enum class EnTurned { X, Y }

data class EnS(val c: EnSparse)
data class EnO(val c: EnSparse?)
data class EnL(val c: List<EnSparse>)
data class EnK(val c: Map<EnSparse, String>)
data class EnMA(val c: Any?)
data class EnT(val c: EnTurned)

/**
 * A bound Kotlin enum constant is written as the number of the schema enumerator of its exact name
 * (Enums.kt, EnumInfo), on every write path (compiled codec, tape by plan, tape by field names),
 * in every mode, and a number read back maps to the constant of that name on every read path. The
 * bytes are those of a WireEnum of that number, and at the root and in a schema-consistent struct
 * those pyfory 1.7.7 writes for an IntEnum member of that value.
 */
class EnumByNameTest {
    private val fdl = """
        package en;
        enum Sparse [id=601] { ONE = 1; FIVE = 5; THOUSAND = 1000; }
        enum Dense [id=602] { A = 0; B = 1; C = 2; }
        enum Turned [id=603] { X = 1; Y = 0; }
        message S [id=610] { Sparse c = 1; }
        message O [id=611] { optional Sparse c = 1; }
        message L [id=612] { list<Sparse> c = 1; }
        message K [id=613] { map<Sparse, string> c = 1; }
        message MA [id=614] { any c = 1; }
        message T [id=615] { Turned c = 1; }
    """.trimIndent()

    private val number = mapOf(EnSparse.ONE to 1, EnSparse.FIVE to 5, EnSparse.THOUSAND to 1000)

    private fun ctx(compatible: Boolean, ref: Boolean): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(fdl, "en.fdl")
        c.registerEnum(EnSparse::class, "en.Sparse")
        c.registerEnum(EnDense::class, "en.Dense")
        c.registerEnum(EnTurned::class, "en.Turned")
        for ((k, n) in listOf(EnS::class to "S", EnO::class to "O", EnL::class to "L", EnK::class to "K", EnMA::class to "MA", EnT::class to "T")) {
            c.registerDataClass(k, "en.$n")
        }
        return c
    }

    private fun we(v: Int) = WireEnum("en.Sparse", v)

    /** [v] and the same value with WireEnums in place of the constants (written as the numbers). */
    private fun holders(e: EnSparse): List<Pair<Any, Any>> {
        val w = we(number[e]!!)
        return listOf(
            e to w,
            EnS(e) to WireStruct("en.S", mapOf("c" to w)),
            EnO(e) to WireStruct("en.O", mapOf("c" to w)),
            EnL(listOf(EnSparse.FIVE, e)) to WireStruct("en.L", mapOf("c" to listOf(we(5), w))),
            EnK(mapOf(e to "x")) to WireStruct("en.K", mapOf("c" to mapOf(w to "x"))),
            EnMA(e) to WireStruct("en.MA", mapOf("c" to w)),
        )
    }

    @Test fun constantsAreWrittenAsTheirEnumeratorsNumbersOnEveryPath() {
        val bad = ArrayList<String>()
        for (compatible in listOf(false, true)) for (ref in listOf(false, true)) for (e in EnSparse.entries) {
            for ((v, wv) in holders(e)) ctx(compatible, ref).use { c ->
                val want = hex(c.encodeAll(listOf(wv)))
                val mode = "compatible=$compatible ref=$ref $v"
                if (v !is Enum<*> && v !is EnMA && !c.hasLayout(v::class)) bad.add("$mode: no compiled codec: ${c.layoutProblem(v::class)}")
                val got = listOf("encode" to c.encode(v), "encodeAll" to c.encodeAll(listOf(v))) +
                    run { dropPlan(c, v.javaClass); listOf("encodeAll by field names" to c.encodeAll(listOf(v))) }
                for ((path, b) in got) if (hex(b) != want) bad.add("$mode $path: ${hex(b)}, want $want")
            }
        }
        assertTrue(bad.isEmpty(), bad.joinToString("\n"))
    }

    @Test fun numbersReadBackAsTheConstantsOfTheirNamesOnEveryPath() {
        val bad = ArrayList<String>()
        for (compatible in listOf(false, true)) for (ref in listOf(false, true)) for (e in EnSparse.entries) {
            for ((v, wv) in holders(e)) ctx(compatible, ref).use { c ->
                val bytes = c.encodeAll(listOf(wv)) // (written from the numbers, not from the constants)
                val mode = "compatible=$compatible ref=$ref $v"
                val got = ArrayList<Pair<String, Any?>>()
                if (v !is Enum<*> && c.hasLayout(v::class)) got.add("decode (compiled codec)" to runCatching { c.decode(bytes, v::class) }.getOrElse { it })
                // (untyped too: in schema-consistent mode S, MA and T share a struct hash, and the root's id picks the class)
                got.add("decode" to runCatching { c.decode(bytes) }.getOrElse { it })
                got.add("decodeAll (tape)" to runCatching { c.decodeAll(bytes).single() }.getOrElse { it })
                dropPlan(c, v.javaClass)
                got.add("decodeAll by field names" to runCatching { c.decodeAll(bytes).single() }.getOrElse { it })
                for ((path, r) in got) if (r != v) bad.add("$mode $path: $r")
            }
        }
        assertTrue(bad.isEmpty(), bad.joinToString("\n"))
    }

    /**
     * What pyfory 1.7.7 writes (xlang, ref off) for IntEnum Sparse(ONE=1, FIVE=5, THOUSAND=1000) id
     * 601, and a dataclass S(c: Sparse) id 610 in schema-consistent mode. The struct's 4-byte schema
     * hash (bytes 5..8) is not compared: pyfory hashes this struct to 448b807b, libwire to another
     * number (a difference of the struct hash, not of enums).
     */
    @Test fun bytesAreThosePyforyWrites() {
        val root = mapOf(EnSparse.ONE to "01ff19d90401", EnSparse.FIVE to "01ff19d90405", EnSparse.THOUSAND to "01ff19d904e807")
        val struct = mapOf(EnSparse.ONE to "01ff1be204448b807b01", EnSparse.FIVE to "01ff1be204448b807b05",
            EnSparse.THOUSAND to "01ff1be204448b807be807")
        for (compatible in listOf(false, true)) ctx(compatible, false).use { c ->
            for (e in EnSparse.entries) {
                assertEquals(root[e], hex(c.encode(e)), "compatible=$compatible $e")
                assertEquals(e, c.decode(unhex(root[e]!!)), "compatible=$compatible $e")
            }
        }
        ctx(false, false).use { c ->
            for (e in EnSparse.entries) {
                val ours = hex(c.encode(EnS(e)))
                fun noHash(h: String) = h.substring(0, 10) + "########" + h.substring(18)
                assertEquals(noHash(struct[e]!!), noHash(ours), "$e")
                val py = unhex(ours.substring(0, 18) + struct[e]!!.substring(18)) // pyfory's value bytes under our hash
                assertEquals(EnS(e), c.decode(py, EnS::class), "$e")
                assertEquals(EnS(e), c.decodeAll(py).single(), "$e")
            }
        }
    }

    /** A number the schema enum declares but the class has no constant for, or one it does not declare, is the existing value error. */
    @Test fun aNumberWithoutAConstantIsAValueError() {
        val wide = fdl.replace("THOUSAND = 1000;", "THOUSAND = 1000; ZERO = 0; TWO = 2; N999 = 999; N1001 = 1001;")
        for (compatible in listOf(false, true)) ctx(compatible, false).use { c ->
            for (n in listOf(0, 2, 999, 1001)) {
                val (s, root) = Context(WireOptions(compatible = compatible)).use { w ->
                    w.registerSchemaText(wide, "en.fdl")
                    w.encodeAll(listOf(WireStruct("en.S", mapOf("c" to we(n))))) to w.encodeAll(listOf(we(n)))
                }
                for (f in listOf<() -> Any?>({ c.decode(s, EnS::class) }, { c.decodeAll(s) }, { c.decodeAll(root) })) {
                    val e = assertThrows<WireException> { f() }
                    assertEquals("value", e.cls, e.message)
                    assertTrue(e.message!!.contains("enum value $n out of range"), e.message)
                }
            }
        }
    }

    /** The enum of ordinals 0 .. n-1 keeps the plain slot (no table); the others get the mapped one. */
    @Test fun onlyEnumsWhoseNamesAreNotTheirOrdinalsGetATable() {
        ctx(false, false).use { c ->
            fun info(n: String) = c.boundType(c.findType(n)!!)!!.enumInfo!!
            assertNull(info("en.Dense").wire)
            assertEquals(listOf(1, 5, 1000), info("en.Sparse").wire!!.toList())
            assertEquals(listOf(1, 0), info("en.Turned").wire!!.toList())
            assertNull(info("en.Sparse").undeclared)
            for (e in EnDense.entries) assertEquals(e, c.decodeAll(c.encodeAll(listOf(e))).single())
        }
    }

    /** Names decide even when the numbers are 0 .. n-1 in another order: X (ordinal 0) is 1, Y (ordinal 1) is 0. */
    @Test fun namesDecideWhereOrdinalsWouldSwapTheValues() {
        for (compatible in listOf(false, true)) ctx(compatible, false).use { c ->
            for ((e, n) in listOf(EnTurned.X to 1, EnTurned.Y to 0)) {
                val w = WireEnum("en.Turned", n)
                assertEquals(hex(c.encodeAll(listOf(w))), hex(c.encode(e)))
                assertEquals(hex(c.encodeAll(listOf(WireStruct("en.T", mapOf("c" to w))))), hex(c.encode(EnT(e))))
                assertEquals(EnT(e), c.decode(c.encode(EnT(e)), EnT::class))
                assertEquals(e, c.decode(c.encodeAll(listOf(w))))
            }
        }
    }
}
