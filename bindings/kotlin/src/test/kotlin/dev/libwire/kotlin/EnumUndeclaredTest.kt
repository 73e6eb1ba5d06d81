package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** Bound to eu.Color (RED = 0, GREEN = 1, BLUE = 2) by name: CYAN names no enumerator. */
enum class EuWide { RED, GREEN, BLUE, CYAN }

/** Bound to eu.Sparse (ONE = 1, FIVE = 5, THOUSAND = 1000) by name: TWO names no enumerator. */
enum class EuSparse { ONE, FIVE, THOUSAND, TWO }

data class EuM(val c: EuWide)
data class EuO(val c: EuWide?)
data class EuL(val c: List<EuWide>)
data class EuK(val c: Map<EuWide, String>)
data class EuV(val c: Map<String, EuWide>)
data class EuS(val c: EuSparse)
data class EuIn(val n: Int, val c: EuWide)
data class EuN(val c: List<EuIn>)
data class EuMW(val c: WireEnum)
data class EuLW(val c: List<WireEnum>)
data class EuMA(val c: Any?)

/**
 * An enum number the writer's schema enum does not declare is refused when written (Enums.kt):
 * a constant of a bound Kotlin enum whose name the schema enum lacks, a WireEnum of a schema
 * enum (by name, or by numeric id when the schema has the id) with another number; on every
 * write path (the compiled codecs, the tape by plan and by field names, encode and encodeAll), in
 * every mode, at the root, in a field, an optional field, a list, a map key or value, a struct in
 * a list, a WireStruct; one `value` error naming the field, the constant or number and the
 * declared names or numbers.
 * Declared numbers are written as before; reading keeps any number (a newer writer's).
 */
class EnumUndeclaredTest {
    private val fdl = """
        package eu;
        enum Color [id=500] { RED = 0; GREEN = 1; BLUE = 2; }
        enum Sparse [id=501] { ONE = 1; FIVE = 5; THOUSAND = 1000; }
        message M [id=510] { Color c = 1; }
        message O [id=511] { optional Color c = 1; }
        message L [id=512] { list<Color> c = 1; }
        message K [id=513] { map<Color, string> c = 1; }
        message V [id=514] { map<string, Color> c = 1; }
        message S [id=515] { Sparse c = 1; }
        message In [id=516] { int32 n = 1; Color c = 2; }
        message N [id=517] { list<In> c = 1; }
        message MW [id=518] { Color c = 1; }
        message LW [id=519] { list<Color> c = 1; }
        message MA [id=520] { any c = 1; }
    """.trimIndent()

    private fun ctx(compatible: Boolean, ref: Boolean, schema: String = fdl): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(schema, "eu.fdl")
        c.registerEnum(EuWide::class, "eu.Color")
        c.registerEnum(EuSparse::class, "eu.Sparse")
        for ((k, n) in listOf(EuM::class to "M", EuO::class to "O", EuL::class to "L", EuK::class to "K", EuV::class to "V",
            EuS::class to "S", EuIn::class to "In", EuN::class to "N", EuMW::class to "MW", EuLW::class to "LW", EuMA::class to "MA")) {
            c.registerDataClass(k, "eu.$n")
        }
        return c
    }

    private fun we(t: String, v: Int) = WireEnum(t, v)

    private class Case(val v: Any, val num: String, val enum: String, val field: String?)

    private val cases = listOf(
        Case(EuWide.CYAN, "CYAN", "Color", null),
        Case(we("eu.Color", 7), "7", "Color", null),
        Case(we("eu.Color", -1), "4294967295", "Color", null),
        Case(WireEnum(null, 7, 500L), "7", "Color", null),
        Case(EuSparse.TWO, "TWO", "Sparse", null),
        Case(we("eu.Sparse", 999), "999", "Sparse", null),
        Case(EuM(EuWide.CYAN), "CYAN", "Color", "EuM.c"),
        Case(EuO(EuWide.CYAN), "CYAN", "Color", "EuO.c"),
        Case(EuL(listOf(EuWide.RED, EuWide.CYAN)), "CYAN", "Color", "EuL.c"),
        Case(EuK(mapOf(EuWide.CYAN to "x")), "CYAN", "Color", "EuK.c"),
        Case(EuV(mapOf("k" to EuWide.BLUE, "j" to EuWide.CYAN)), "CYAN", "Color", "EuV.c"),
        Case(EuS(EuSparse.TWO), "TWO", "Sparse", "EuS.c"),
        Case(EuIn(1, EuWide.CYAN), "CYAN", "Color", "EuIn.c"),
        Case(EuN(listOf(EuIn(1, EuWide.RED), EuIn(2, EuWide.CYAN))), "CYAN", "Color", "EuIn.c"),
        Case(EuMW(we("eu.Color", 5)), "5", "Color", "EuMW.c"),
        Case(EuMW(WireEnum(null, 6, 500L)), "6", "Color", "EuMW.c"),
        Case(EuLW(listOf(we("eu.Color", 0), we("eu.Color", 4))), "4", "Color", "EuLW.c"),
        Case(EuMA(we("eu.Color", 9)), "9", "Color", "EuMA.c"),
        Case(EuMA(EuWide.CYAN), "CYAN", "Color", "EuMA.c"),
        Case(WireStruct("eu.M", mapOf("c" to we("eu.Color", 8))), "8", "Color", "eu.M.c"),
        Case(WireStruct("eu.L", mapOf("c" to listOf(EuWide.CYAN))), "CYAN", "Color", "eu.L.c"),
    )

    private val declared = mapOf("Color" to "0, 1, 2", "Sparse" to "1, 5, 1000")
    private val declaredNames = mapOf("Color" to "RED, GREEN, BLUE", "Sparse" to "ONE, FIVE, THOUSAND")

    /** Each write path's outcome: the error, or the bytes' hex. */
    private fun paths(c: Context, v: Any): List<Pair<String, Any>> {
        fun run(f: () -> ByteArray): Any = try { hex(f()) } catch (e: WireException) { e }
        val out = ArrayList<Pair<String, Any>>()
        out.add("encode (${if (c.hasLayout(v::class)) "compiled codec" else "tape"})" to run { c.encode(v) })
        out.add("encodeAll" to run { c.encodeAll(listOf(v)) })
        for (k in listOf(v.javaClass) + (if (v is EuN) listOf(EuIn::class.java) else emptyList())) dropPlan(c, k)
        out.add("encodeAll by field names" to run { c.encodeAll(listOf(v)) })
        return out
    }

    @Test fun undeclaredNumbersAreRefusedOnEveryPath() {
        val bad = ArrayList<String>()
        for (cs in cases) for (compatible in listOf(false, true)) for (ref in listOf(false, true)) ctx(compatible, ref).use { c ->
            var want = if (cs.num[0].isLetter()) "enum constant ${cs.num} is not declared by eu.${cs.enum} (declared: ${declaredNames[cs.enum]})"
            else "enum value ${cs.num} is not declared by eu.${cs.enum} (declared: ${declared[cs.enum]})"
            if (cs.field != null) want = "field ${cs.field}: $want"
            for ((path, r) in paths(c, cs.v)) {
                if (r !is WireException || r.cls != "value" || r.detail != want) {
                    bad.add("${cs.v} compatible=$compatible ref=$ref $path: ${if (r is WireException) r.message else "writes $r"}")
                }
            }
        }
        assertTrue(bad.isEmpty(), "want one value error naming the field, the number and the declared ones:\n" + bad.joinToString("\n"))
    }

    /** The holders above that have compiled codecs: the check is made there too (not only on the tape). */
    @Test fun compiledCodecsHoldTheEnums() {
        ctx(true, false).use { c ->
            for (k in listOf(EuM::class, EuO::class, EuL::class, EuK::class, EuV::class, EuS::class, EuIn::class, EuN::class)) {
                assertTrue(c.hasLayout(k), "$k: ${c.layoutProblem(k)}")
            }
        }
    }

    @Test fun declaredNumbersAreWrittenAsBefore() {
        for (compatible in listOf(false, true)) ctx(compatible, false).use { c ->
            for (v in listOf<Any>(EuM(EuWide.BLUE), EuO(null), EuO(EuWide.RED), EuL(listOf(EuWide.GREEN, EuWide.BLUE)),
                EuK(mapOf(EuWide.RED to "r")), EuV(mapOf("b" to EuWide.BLUE)), EuS(EuSparse.FIVE), EuS(EuSparse.ONE), EuS(EuSparse.THOUSAND),
                EuN(listOf(EuIn(1, EuWide.GREEN))))) {
                val b = c.encode(v)
                assertEquals(hex(b), hex(c.encodeAll(listOf(v))), "$v")
                assertEquals(v, c.decode(b, v::class), "$v") // (typed: M and MW have the same schema hash)
            }
            for (v in listOf<Any>(we("eu.Color", 2), WireEnum(null, 1, 500L), EuMW(we("eu.Color", 1)), we("eu.Sparse", 1000),
                EuLW(listOf(we("eu.Color", 0))), WireStruct("eu.M", mapOf("c" to we("eu.Color", 0))))) {
                assertNotNull(c.encode(v), "$v")
            }
            // a WireEnum by id and by name write the same bytes
            assertEquals(hex(c.encode(we("eu.Color", 2))), hex(c.encode(WireEnum(null, 2, 500L))))
        }
    }

    /** A WireEnum by an id the schema lacks is written as it is (nothing says what it declares). */
    @Test fun anEnumByAnUnknownIdIsWritten() {
        ctx(false, false).use { c -> assertNotNull(c.encode(WireEnum(null, 77, 999L))) }
    }

    /**
     * A newer writer's enumerator (CYAN = 3 in its Color) decodes as before: into a WireEnum where
     * the reader binds no class; refused when written back. Into a bound class it is the constant
     * of the reader's enumerator of that number, a value error when the reader's enum has none.
     */
    @Test fun aNewerWritersNumberStillDecodes() {
        val newer = fdl.replace("BLUE = 2;", "BLUE = 2; CYAN = 3;")
        for (compatible in listOf(false, true)) {
            val bytes = ctx(compatible, false, newer).use { w -> w.encode(EuMA(EuWide.CYAN)) to w.encode(EuWide.CYAN) }
            Context(WireOptions(compatible = compatible)).use { r ->
                r.registerSchemaText(fdl, "eu.fdl")
                r.registerDataClass(EuMA::class, "eu.MA")
                val got = r.decode(bytes.first)
                assertEquals(EuMA(we("eu.Color", 3)), got)
                assertEquals(we("eu.Color", 3), r.decode(bytes.second))
                val e = assertThrows<WireException> { r.encode(got!!) }
                assertEquals("field EuMA.c: enum value 3 is not declared by eu.Color (declared: 0, 1, 2)", e.detail)
            }
            ctx(compatible, false).use { r ->
                // the reader's eu.Color has no enumerator 3, so no constant stands for it (CYAN names none)
                val e = assertThrows<WireException> { r.decode(bytes.second) }
                assertEquals("value", e.cls)
                assertEquals("enum value 3 out of range for eu.Color", e.detail)
            }
            ctx(compatible, false, newer).use { r ->
                assertEquals(EuWide.CYAN, r.decode(bytes.second))      // the reader's CYAN = 3
            }
        }
    }
}
