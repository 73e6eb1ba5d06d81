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

/**
 * A field the writer's TypeDef lacks (compatible mode), one field kind at a time, read by a data class
 * without and with a default for it, through the compiled codecs (`decode(bytes, K::class)`) and the
 * tape codec (`decodeAll`). Pins what each path gives today; the two differ (README, "Structs"): the
 * tape codec takes the parameter's default, else null for a nullable property, else refuses with
 * `schema` (the field is missing); the compiled codecs never take a default: a number, bool, date,
 * timestamp or decimal reads as the zeroed memory's value (0, false, the epoch), a nullable property
 * as null, and a non-null string, list or struct is refused with `value`.
 */
class AbsentFieldTest {
    private val old = "package ab;\nmessage In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; }\n"

    private val bytes: ByteArray = Context(WireOptions(compatible = true)).use { w ->
        w.registerSchemaText(old, "ab.fdl")
        w.registerDataClass(AbIn::class, "ab.In")
        w.registerDataClass(AbOld::class, "ab.R")
        w.encode(AbOld(5))
    }

    /** What reading [bytes] into [k] gives on each path: the value's text, or the error's class and message. */
    private fun read(k: KClass<*>, decl: String): Pair<String, String> =
        Context(WireOptions(compatible = true)).use { r ->
            r.registerSchemaText("package ab;\nmessage In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; $decl }\n", "ab.fdl")
            r.registerDataClass(AbIn::class, "ab.In")
            r.registerDataClass(k, "ab.R")
            assertTrue(r.hasLayout(k), r.layoutProblem(k))
            fun text(f: () -> Any?) = runCatching(f).let { it.getOrNull()?.toString() ?: it.exceptionOrNull()!!.message!! }
            text { r.decode(bytes, k) } to text { r.decodeAll(bytes)[0] }
        }

    @Test fun eachKindWithoutAndWithADefault() {
        val rows = listOf(
            Triple(AbP0::class, "int32 i = 2;", "AbP0(n=5, i=0)" to "schema: AbP0: field i is missing from the payload"),
            Triple(AbD0::class, "int32 i = 2;", "AbD0(n=5, i=0)" to "AbD0(n=5, i=7)"),
            Triple(AbP1::class, "string s = 2;", "value: AbP1: a null for a field that is not nullable" to "schema: AbP1: field s is missing from the payload"),
            Triple(AbD1::class, "string s = 2;", "value: AbD1: a null for a field that is not nullable" to "AbD1(n=5, s=dflt)"),
            Triple(AbP2::class, "list<string> xs = 2;", "value: AbP2: a null for a field that is not nullable" to "schema: AbP2: field xs is missing from the payload"),
            Triple(AbD2::class, "list<string> xs = 2;", "value: AbD2: a null for a field that is not nullable" to "AbD2(n=5, xs=[d])"),
            Triple(AbP3::class, "optional int32 oi = 2;", "AbP3(n=5, oi=null)" to "AbP3(n=5, oi=null)"),
            Triple(AbD3::class, "optional int32 oi = 2;", "AbD3(n=5, oi=null)" to "AbD3(n=5, oi=9)"),
            Triple(AbP4::class, "timestamp t = 2;", "AbP4(n=5, t=1970-01-01T00:00:00Z)" to "schema: AbP4: field t is missing from the payload"),
            Triple(AbD4::class, "timestamp t = 2;", "AbD4(n=5, t=1970-01-01T00:00:00Z)" to "AbD4(n=5, t=1970-01-01T00:00:07Z)"),
            Triple(AbP5::class, "decimal d = 2;", "AbP5(n=5, d=0)" to "schema: AbP5: field d is missing from the payload"),
            Triple(AbD5::class, "decimal d = 2;", "AbD5(n=5, d=0)" to "AbD5(n=5, d=1.5)"),
            Triple(AbP6::class, "date day = 2;", "AbP6(n=5, day=1970-01-01)" to "schema: AbP6: field day is missing from the payload"),
            Triple(AbD6::class, "date day = 2;", "AbD6(n=5, day=1970-01-01)" to "AbD6(n=5, day=2000-01-02)"),
            Triple(AbP7::class, "bool b = 2;", "AbP7(n=5, b=false)" to "schema: AbP7: field b is missing from the payload"),
            Triple(AbD7::class, "bool b = 2;", "AbD7(n=5, b=false)" to "AbD7(n=5, b=true)"),
            Triple(AbP8::class, "float64 f = 2;", "AbP8(n=5, f=0.0)" to "schema: AbP8: field f is missing from the payload"),
            Triple(AbD8::class, "float64 f = 2;", "AbD8(n=5, f=0.0)" to "AbD8(n=5, f=1.5)"),
            Triple(AbP9::class, "In inner = 2 [nullable = false];", "value: AbP9: a null for a field that is not nullable" to "schema: AbP9: field inner is missing from the payload"),
            Triple(AbD9::class, "In inner = 2 [nullable = false];", "value: AbD9: a null for a field that is not nullable" to "AbD9(n=5, inner=AbIn(s=di))"),
            Triple(AbP10::class, "In maybe = 2;", "AbP10(n=5, maybe=null)" to "AbP10(n=5, maybe=null)"),
            Triple(AbD10::class, "In maybe = 2;", "AbD10(n=5, maybe=null)" to "AbD10(n=5, maybe=AbIn(s=dm))"),
            Triple(AbP11::class, "int64 l = 2;", "AbP11(n=5, l=0)" to "schema: AbP11: field l is missing from the payload"),
            Triple(AbD11::class, "int64 l = 2;", "AbD11(n=5, l=0)" to "AbD11(n=5, l=7)"),
            Triple(AbP12::class, "optional string str2 = 2;", "AbP12(n=5, str2=null)" to "AbP12(n=5, str2=null)"),
            Triple(AbD12::class, "optional string str2 = 2;", "AbD12(n=5, str2=null)" to "AbD12(n=5, str2=ds)"),
        )
        for ((k, decl, want) in rows) assertEquals(want, read(k, decl), "${k.simpleName} [$decl]: compiled to tape")
    }
}
