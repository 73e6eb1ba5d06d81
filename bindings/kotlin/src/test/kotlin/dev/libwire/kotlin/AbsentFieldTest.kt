package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.math.BigDecimal
import java.time.Instant
import java.time.LocalDate
import kotlin.reflect.KClass

/** The writer's ab.R: field n alone. */
data class AbOld(val n: Int)
data class AbIn(val s: String)

// ab.R of the reader: n and one field the writer lacks, without (AbPk) and with (AbDk) a default.
data class AbP0(val n: Int, val i: Int)
data class AbD0(val n: Int, val i: Int = 7)
data class AbP1(val n: Int, val s: String)
data class AbD1(val n: Int, val s: String = "dflt")
data class AbP2(val n: Int, val xs: List<String>)
data class AbD2(val n: Int, val xs: List<String> = listOf("d"))
data class AbP3(val n: Int, val oi: Int?)
data class AbD3(val n: Int, val oi: Int? = 9)
data class AbP4(val n: Int, val t: Instant)
data class AbD4(val n: Int, val t: Instant = Instant.ofEpochSecond(7))
data class AbP5(val n: Int, val d: BigDecimal)
data class AbD5(val n: Int, val d: BigDecimal = BigDecimal("1.5"))
data class AbP6(val n: Int, val day: LocalDate)
data class AbD6(val n: Int, val day: LocalDate = LocalDate.of(2000, 1, 2))
data class AbP7(val n: Int, val b: Boolean)
data class AbD7(val n: Int, val b: Boolean = true)
data class AbP8(val n: Int, val f: Double)
data class AbD8(val n: Int, val f: Double = 1.5)
data class AbP9(val n: Int, val inner: AbIn)
data class AbD9(val n: Int, val inner: AbIn = AbIn("di"))
data class AbP10(val n: Int, val maybe: AbIn?)
data class AbD10(val n: Int, val maybe: AbIn? = AbIn("dm"))
data class AbP11(val n: Int, val l: Long)
data class AbD11(val n: Int, val l: Long = 7L)
data class AbP12(val n: Int, val str2: String?)
data class AbD12(val n: Int, val str2: String? = "ds")
data class AbIn2(val s: String, val t: String)
data class AbOuter(val n: Int, val inner: AbIn2)

/**
 * A field the writer's TypeDef lacks (compatible mode), one field kind at a time, read by a data class
 * without and with a default for it, through the compiled codecs (`decode(bytes, K::class)`) and the
 * tape codec (`decodeAll`). The rule (README, "Structs"): a declared default is taken; else a nullable
 * property is null; else a number or bool is 0 / false; else the payload is refused with `schema`,
 * naming the class and the field. Where the compiled codecs still differ (a nullable property with a
 * default reads as null there; a non-null date, timestamp or decimal without one as the epoch / 0),
 * the row gives both results.
 */
class AbsentFieldTest {
    private val old = "package ab;\nmessage In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; }\n"

    private val bytes: ByteArray = Context(WireOptions(compatible = true)).use { w ->
        w.registerSchemaText(old, "ab.fdl")
        w.registerDataClass(AbIn::class, "ab.In")
        w.registerDataClass(AbOld::class, "ab.R")
        w.encode(AbOld(5))
    }

    private fun ctx(k: KClass<*>, decl: String, o: WireOptions = WireOptions(compatible = true)): Context = Context(o).also { r ->
        r.registerSchemaText("package ab;\nmessage In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; $decl }\n", "ab.fdl")
        r.registerDataClass(AbIn::class, "ab.In")
        r.registerDataClass(k, "ab.R")
        assertTrue(r.hasLayout(k), r.layoutProblem(k))
    }

    private fun text(f: () -> Any?): String = runCatching(f).let { it.getOrNull()?.toString() ?: it.exceptionOrNull()!!.message!! }

    /** What reading [bytes] into [k] gives on each path: the value's text, or the error's kind and message. */
    private fun read(k: KClass<*>, decl: String): Pair<String, String> =
        ctx(k, decl).use { r -> text { r.decode(bytes, k) } to text { r.decodeAll(bytes)[0] } }

    private fun missing(k: KClass<*>, field: String) = "schema: ${k.simpleName}: field $field is missing from the payload"

    @Test fun eachKindWithoutAndWithADefault() {
        // (class, declaration, what both paths give, what the compiled codecs give where they differ)
        val rows = listOf(
            listOf(AbP0::class, "int32 i = 2;", "AbP0(n=5, i=0)"),
            listOf(AbD0::class, "int32 i = 2;", "AbD0(n=5, i=7)"),
            listOf(AbP1::class, "string s = 2;", missing(AbP1::class, "s")),
            listOf(AbD1::class, "string s = 2;", "AbD1(n=5, s=dflt)"),
            listOf(AbP2::class, "list<string> xs = 2;", missing(AbP2::class, "xs")),
            listOf(AbD2::class, "list<string> xs = 2;", "AbD2(n=5, xs=[d])"),
            listOf(AbP3::class, "optional int32 oi = 2;", "AbP3(n=5, oi=null)"),
            listOf(AbD3::class, "optional int32 oi = 2;", "AbD3(n=5, oi=9)", "AbD3(n=5, oi=null)"),
            listOf(AbP4::class, "timestamp t = 2;", missing(AbP4::class, "t"), "AbP4(n=5, t=1970-01-01T00:00:00Z)"),
            listOf(AbD4::class, "timestamp t = 2;", "AbD4(n=5, t=1970-01-01T00:00:07Z)"),
            listOf(AbP5::class, "decimal d = 2;", missing(AbP5::class, "d"), "AbP5(n=5, d=0)"),
            listOf(AbD5::class, "decimal d = 2;", "AbD5(n=5, d=1.5)"),
            listOf(AbP6::class, "date day = 2;", missing(AbP6::class, "day"), "AbP6(n=5, day=1970-01-01)"),
            listOf(AbD6::class, "date day = 2;", "AbD6(n=5, day=2000-01-02)"),
            listOf(AbP7::class, "bool b = 2;", "AbP7(n=5, b=false)"),
            listOf(AbD7::class, "bool b = 2;", "AbD7(n=5, b=true)"),
            listOf(AbP8::class, "float64 f = 2;", "AbP8(n=5, f=0.0)"),
            listOf(AbD8::class, "float64 f = 2;", "AbD8(n=5, f=1.5)"),
            listOf(AbP9::class, "In inner = 2 [nullable = false];", missing(AbP9::class, "inner")),
            listOf(AbD9::class, "In inner = 2 [nullable = false];", "AbD9(n=5, inner=AbIn(s=di))"),
            listOf(AbP10::class, "In maybe = 2;", "AbP10(n=5, maybe=null)"),
            listOf(AbD10::class, "In maybe = 2;", "AbD10(n=5, maybe=AbIn(s=dm))", "AbD10(n=5, maybe=null)"),
            listOf(AbP11::class, "int64 l = 2;", "AbP11(n=5, l=0)"),
            listOf(AbD11::class, "int64 l = 2;", "AbD11(n=5, l=7)"),
            listOf(AbP12::class, "optional string str2 = 2;", "AbP12(n=5, str2=null)"),
            listOf(AbD12::class, "optional string str2 = 2;", "AbD12(n=5, str2=ds)", "AbD12(n=5, str2=null)"),
        )
        for (row in rows) {
            val k = row[0] as KClass<*>
            val want = row[2] as String
            val compiled = row.getOrNull(3) as String? ?: want
            val (c, t) = read(k, row[1] as String)
            val where = "${k.simpleName} [${row[1]}]"
            assertEquals(want, t, "$where: tape")
            // (the compiled codecs cannot tell a field the writer lacks from a null it sent for one held
            // by pointer: they add that to the message)
            if (compiled.startsWith("schema:")) assertEquals("$compiled (or null)", c, "$where: compiled")
            else assertEquals(compiled, c, "$where: compiled")
        }
    }

    /** The classes with a default for a field that is not nullable, written and read under the reader's own TypeDef: the values sent, not the defaults. */
    @Test fun defaultsDoNotReplaceValuesSent() {
        val rows = listOf(
            Triple(AbD0(5, 3), "int32 i = 2;", "AbD0(n=5, i=3)"),
            Triple(AbD1(5, "x"), "string s = 2;", "AbD1(n=5, s=x)"),
            Triple(AbD2(5, listOf("a", "b")), "list<string> xs = 2;", "AbD2(n=5, xs=[a, b])"),
            Triple(AbD4(5, Instant.ofEpochSecond(9)), "timestamp t = 2;", "AbD4(n=5, t=1970-01-01T00:00:09Z)"),
            Triple(AbD5(5, BigDecimal("2.25")), "decimal d = 2;", "AbD5(n=5, d=2.25)"),
            Triple(AbD6(5, LocalDate.of(2001, 3, 4)), "date day = 2;", "AbD6(n=5, day=2001-03-04)"),
            Triple(AbD7(5, false), "bool b = 2;", "AbD7(n=5, b=false)"),
            Triple(AbD8(5, 0.0), "float64 f = 2;", "AbD8(n=5, f=0.0)"),
            Triple(AbD9(5, AbIn("z")), "In inner = 2 [nullable = false];", "AbD9(n=5, inner=AbIn(s=z))"),
            Triple(AbD11(5, 0L), "int64 l = 2;", "AbD11(n=5, l=0)"),
        )
        val modes = listOf(WireOptions(), WireOptions(compatible = true), WireOptions(compatible = true, refTracking = true))
        for (o in modes) for ((v, decl, want) in rows) {
            val k = v::class
            ctx(k, decl, o).use { r ->
                val b = r.encode(v)
                assertEquals(want to want, text { r.decode(b, k) } to text { r.decodeAll(b)[0] }, "${k.simpleName} [$decl] $o")
                // a list of them: each image read on its own
                assertEquals(listOf(v, v), r.decode(r.encode(listOf(v, v)), List::class), "${k.simpleName} in a list $o")
            }
        }
    }

    /** A field missing from a struct nested in the one decoded: named on both paths (the compiled codecs find it in the nested image). */
    @Test fun missingFieldOfANestedStructIsNamed() {
        val fdl = "package ab;\nmessage R [id=420] { int32 n = 1; In inner = 2 [nullable = false]; }\n"
        val b = Context(WireOptions(compatible = true)).use { w ->
            w.registerSchemaText("message In [id=421] { string s = 1; }\n".let { fdl + it }, "ab.fdl")
            w.registerDataClass(AbIn::class, "ab.In")
            w.registerDataClass(AbP9::class, "ab.R")
            w.encode(AbP9(5, AbIn("x")))
        }
        Context(WireOptions(compatible = true)).use { r ->
            r.registerSchemaText(fdl + "message In [id=421] { string s = 1; string t = 2; }\n", "ab.fdl")
            r.registerDataClass(AbIn2::class, "ab.In")
            r.registerDataClass(AbOuter::class, "ab.R")
            assertTrue(r.hasLayout(AbOuter::class), r.layoutProblem(AbOuter::class))
            val want = "schema: AbIn2: field t is missing from the payload"
            assertEquals("$want (or null)" to want, text { r.decode(b, AbOuter::class) } to text { r.decodeAll(b)[0] })
        }
    }
}
