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
enum class AbColor { RED, GREEN, BLUE }
enum class AbSparse { ONE, FIVE }
data class AbP13(val n: Int, val e: AbColor)
data class AbD13(val n: Int, val e: AbColor = AbColor.BLUE)
data class AbP14(val n: Int, val dur: java.time.Duration)
data class AbD14(val n: Int, val dur: java.time.Duration = java.time.Duration.ofSeconds(3))
data class AbP15(val n: Int, val oe: AbColor?)
data class AbD15(val n: Int, val oe: AbColor? = AbColor.GREEN)
data class AbD16(val n: Int, val oday: LocalDate? = LocalDate.of(2003, 4, 5))
data class AbD17(val n: Int, val od: BigDecimal? = BigDecimal("2.5"))
data class AbD18(val n: Int, val ot: Instant? = Instant.ofEpochSecond(11))
data class AbP19(val n: Int, val sp: AbSparse)
data class AbD19(val n: Int, val sp: AbSparse = AbSparse.FIVE)
data class AbD20(val n: Int, val ol: List<String>? = listOf("dl"))
data class AbD21(val n: Int, val m: Map<String, Int> = mapOf("k" to 1))
data class AbP22(val n: Int, val ob: Boolean?)

// the writer's ab.R with nested structs (In: field s alone) and the reader's In with more fields
data class AbOldN(val n: Int, val inner: AbIn, val items: List<AbIn>)
data class AbInD(val s: String, val t: String = "td", val k: Int = 3, val e: AbColor = AbColor.GREEN, val oi: Int? = 4, val day: LocalDate? = null)
data class AbInE(val s: String, val e: AbColor)
data class AbInZ(val s: String, val k: Int, val oi: Int?, val ol: List<String>?)
data class AbOuterD(val n: Int, val inner: AbInD, val items: List<AbInD>)
data class AbOuterE(val n: Int, val inner: AbInE, val items: List<AbInE>)
data class AbOuterZ(val n: Int, val inner: AbInZ, val items: List<AbInZ>)
data class AbListD(val n: Int, val inner: AbIn, val items: List<AbInD>)
data class AbListE(val n: Int, val inner: AbIn, val items: List<AbInE>)
data class AbIn2W(val s: String)
data class AbOldL(val n: Int, val inner: AbIn, val items: List<AbIn2W>)

/**
 * A field the writer's TypeDef lacks (compatible mode), one field kind at a time, read by a data class
 * without and with a default for it, through the compiled codecs (`decode(bytes, K::class)`) and the
 * tape codec (`decodeAll`), in compatible mode with and without reference tracking. The rule
 * (README, "Structs"), the same on both paths: a declared default is taken; else a nullable property
 * is null; else a number or bool is 0 / false; else the payload is refused with `schema`, naming the
 * class and the field.
 */
class AbsentFieldTest {
    private val enums = "enum Color [id=422] { RED = 0; GREEN = 1; BLUE = 2; }\nenum Sparse [id=423] { ONE = 1; FIVE = 5; }\n"
    private val old = "package ab;\n${enums}message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; }\n"
    private val modes = listOf(WireOptions(compatible = true), WireOptions(compatible = true, refTracking = true))

    private fun bytes(o: WireOptions): ByteArray = Context(o).use { w ->
        w.registerSchemaText(old, "ab.fdl")
        w.registerDataClass(AbIn::class, "ab.In")
        w.registerDataClass(AbOld::class, "ab.R")
        w.encode(AbOld(5))
    }

    private fun enums(r: Context) {
        r.registerEnum(AbColor::class, "ab.Color")
        r.registerEnum(AbSparse::class, "ab.Sparse")
    }

    private fun ctx(k: KClass<*>, decl: String, o: WireOptions = WireOptions(compatible = true)): Context = Context(o).also { r ->
        r.registerSchemaText("package ab;\n${enums}message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; $decl }\n", "ab.fdl")
        enums(r)
        r.registerDataClass(AbIn::class, "ab.In")
        r.registerDataClass(k, "ab.R")
        assertTrue(r.hasLayout(k), r.layoutProblem(k))
    }

    private fun text(f: () -> Any?): String = runCatching(f).let { it.getOrNull()?.toString() ?: it.exceptionOrNull()!!.message!! }

    /** What reading [b] into [k] gives on each path: the value's text, or the error's kind and message. */
    private fun read(k: KClass<*>, decl: String, o: WireOptions, b: ByteArray): Pair<String, String> =
        ctx(k, decl, o).use { r -> text { r.decode(b, k) } to text { r.decodeAll(b)[0] } }

    private fun missing(k: KClass<*>, field: String) = "schema: ${k.simpleName}: field $field is missing from the payload"

    @Test fun eachKindWithoutAndWithADefault() {
        // (class, declaration, what both paths give)
        val rows = listOf(
            Triple(AbP0::class, "int32 i = 2;", "AbP0(n=5, i=0)"),
            Triple(AbD0::class, "int32 i = 2;", "AbD0(n=5, i=7)"),
            Triple(AbP1::class, "string s = 2;", missing(AbP1::class, "s")),
            Triple(AbD1::class, "string s = 2;", "AbD1(n=5, s=dflt)"),
            Triple(AbP2::class, "list<string> xs = 2;", missing(AbP2::class, "xs")),
            Triple(AbD2::class, "list<string> xs = 2;", "AbD2(n=5, xs=[d])"),
            Triple(AbP3::class, "optional int32 oi = 2;", "AbP3(n=5, oi=null)"),
            Triple(AbD3::class, "optional int32 oi = 2;", "AbD3(n=5, oi=9)"),
            Triple(AbP4::class, "timestamp t = 2;", missing(AbP4::class, "t")),
            Triple(AbD4::class, "timestamp t = 2;", "AbD4(n=5, t=1970-01-01T00:00:07Z)"),
            Triple(AbP5::class, "decimal d = 2;", missing(AbP5::class, "d")),
            Triple(AbD5::class, "decimal d = 2;", "AbD5(n=5, d=1.5)"),
            Triple(AbP6::class, "date day = 2;", missing(AbP6::class, "day")),
            Triple(AbD6::class, "date day = 2;", "AbD6(n=5, day=2000-01-02)"),
            Triple(AbP7::class, "bool b = 2;", "AbP7(n=5, b=false)"),
            Triple(AbD7::class, "bool b = 2;", "AbD7(n=5, b=true)"),
            Triple(AbP8::class, "float64 f = 2;", "AbP8(n=5, f=0.0)"),
            Triple(AbD8::class, "float64 f = 2;", "AbD8(n=5, f=1.5)"),
            Triple(AbP9::class, "In inner = 2 [nullable = false];", missing(AbP9::class, "inner")),
            Triple(AbD9::class, "In inner = 2 [nullable = false];", "AbD9(n=5, inner=AbIn(s=di))"),
            Triple(AbP10::class, "In maybe = 2;", "AbP10(n=5, maybe=null)"),
            Triple(AbD10::class, "In maybe = 2;", "AbD10(n=5, maybe=AbIn(s=dm))"),
            Triple(AbP11::class, "int64 l = 2;", "AbP11(n=5, l=0)"),
            Triple(AbD11::class, "int64 l = 2;", "AbD11(n=5, l=7)"),
            Triple(AbP12::class, "optional string str2 = 2;", "AbP12(n=5, str2=null)"),
            Triple(AbD12::class, "optional string str2 = 2;", "AbD12(n=5, str2=ds)"),
            Triple(AbP13::class, "Color e = 2;", missing(AbP13::class, "e")),
            Triple(AbD13::class, "Color e = 2;", "AbD13(n=5, e=BLUE)"),
            Triple(AbP14::class, "duration dur = 2;", missing(AbP14::class, "dur")),
            Triple(AbD14::class, "duration dur = 2;", "AbD14(n=5, dur=PT3S)"),
            Triple(AbP15::class, "optional Color oe = 2;", "AbP15(n=5, oe=null)"),
            Triple(AbD15::class, "optional Color oe = 2;", "AbD15(n=5, oe=GREEN)"),
            Triple(AbD16::class, "optional date oday = 2;", "AbD16(n=5, oday=2003-04-05)"),
            Triple(AbD17::class, "optional decimal od = 2;", "AbD17(n=5, od=2.5)"),
            Triple(AbD18::class, "optional timestamp ot = 2;", "AbD18(n=5, ot=1970-01-01T00:00:11Z)"),
            Triple(AbP19::class, "Sparse sp = 2;", missing(AbP19::class, "sp")),
            Triple(AbD19::class, "Sparse sp = 2;", "AbD19(n=5, sp=FIVE)"),
            Triple(AbD20::class, "optional list<string> ol = 2;", "AbD20(n=5, ol=[dl])"),
            Triple(AbD21::class, "map<string, int32> m = 2;", "AbD21(n=5, m={k=1})"),
            // a nullable property on a field declared not nullable (no presence byte on the fast plan)
            Triple(AbP22::class, "bool ob = 2;", "AbP22(n=5, ob=null)"),
        )
        for (o in modes) {
            val b = bytes(o)
            for ((k, decl, want) in rows) {
                val where = "${k.simpleName} [$decl] $o"
                assertEquals(want to want, read(k, decl, o, b), where)
            }
        }
    }

    /** A message of the reader's own TypeDef after one that lacked fields, and again after: read as sent (the absent count looked at per message). */
    @Test fun valuesSentAfterAMessageThatLackedFields() {
        for (o in modes) ctx(AbD13::class, "Color e = 2;", o).use { r ->
            val own = r.encode(AbD13(6, AbColor.RED))
            val old = bytes(o)
            val n = r.mem.markedReads
            for (i in 0 until 3) {
                assertEquals(AbD13(6, AbColor.RED), r.decode(own, AbD13::class), "$o")
                // (the message of the reader's own TypeDef read once: the count seen as it was)
                assertEquals(if (i == 0) n else n + 1, r.mem.markedReads, "$o")
                assertEquals(AbD13(5, AbColor.BLUE), r.decode(old, AbD13::class), "$o")
                // (untyped: a root TypeDef other than the registered ones goes through the compiled
                // codecs too in compatible mode (Roots.kt), read again through the marked plans)
                assertEquals(AbD13(5, AbColor.BLUE), r.decode(old), "$o")
                // (read twice the first time only, typed: its root TypeDef then known to lack
                // fields, so the later messages, typed or untyped, are decoded once)
                assertEquals(n + 1, r.mem.markedReads, "$o")
            }
        }
    }

    /** The classes with a default for a field that is not nullable, written and read under the reader's own TypeDef: the values sent, not the defaults. */
    @Test fun defaultsDoNotReplaceValuesSent() {
        val rows = listOf(
            Triple(AbD0(5, 3), "int32 i = 2;", "AbD0(n=5, i=3)"),
            Triple(AbD1(5, "x"), "string s = 2;", "AbD1(n=5, s=x)"),
            Triple(AbD2(5, listOf("a", "b")), "list<string> xs = 2;", "AbD2(n=5, xs=[a, b])"),
            Triple(AbD3(5, null), "optional int32 oi = 2;", "AbD3(n=5, oi=null)"),
            Triple(AbD4(5, Instant.ofEpochSecond(9)), "timestamp t = 2;", "AbD4(n=5, t=1970-01-01T00:00:09Z)"),
            Triple(AbD5(5, BigDecimal("2.25")), "decimal d = 2;", "AbD5(n=5, d=2.25)"),
            Triple(AbD6(5, LocalDate.of(2001, 3, 4)), "date day = 2;", "AbD6(n=5, day=2001-03-04)"),
            Triple(AbD7(5, false), "bool b = 2;", "AbD7(n=5, b=false)"),
            Triple(AbD8(5, 0.0), "float64 f = 2;", "AbD8(n=5, f=0.0)"),
            Triple(AbD9(5, AbIn("z")), "In inner = 2 [nullable = false];", "AbD9(n=5, inner=AbIn(s=z))"),
            Triple(AbD10(5, null), "In maybe = 2;", "AbD10(n=5, maybe=null)"),
            Triple(AbD11(5, 0L), "int64 l = 2;", "AbD11(n=5, l=0)"),
            Triple(AbD12(5, null), "optional string str2 = 2;", "AbD12(n=5, str2=null)"),
            Triple(AbD13(5, AbColor.RED), "Color e = 2;", "AbD13(n=5, e=RED)"),
            Triple(AbD15(5, null), "optional Color oe = 2;", "AbD15(n=5, oe=null)"),
            Triple(AbD16(5, null), "optional date oday = 2;", "AbD16(n=5, oday=null)"),
            Triple(AbD19(5, AbSparse.ONE), "Sparse sp = 2;", "AbD19(n=5, sp=ONE)"),
        )
        val modes = listOf(WireOptions(), WireOptions(compatible = true), WireOptions(compatible = true, refTracking = true))
        for (o in modes) for ((v, decl, want) in rows) {
            val k = v::class
            ctx(k, decl, o).use { r ->
                // (a class with defaults has its generated codec: the fields a writer lacks are read elsewhere)
                assertEquals(MemGenerator.ENABLED, r.mem.planOf(k.java)!!.gen != null, "${k.simpleName}: generated codec")
                val b = r.encode(v)
                assertEquals(want to want, text { r.decode(b, k) } to text { r.decodeAll(b)[0] }, "${k.simpleName} [$decl] $o")
                // a list of them: each image read on its own
                assertEquals(listOf(v, v), r.decode(r.encode(listOf(v, v)), List::class), "${k.simpleName} in a list $o")
            }
        }
    }

    /** A null the writer sent for a field the reader's class holds as not nullable, with and without a default: refused (a default is for a field the writer lacks). */
    @Test fun aNullSentIsNotAFieldLacking() {
        val w = "package ab;\n${enums}message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; optional string s = 2; }\n"
        for (o in modes) {
            val b = Context(o).use { c ->
                c.registerSchemaText(w, "ab.fdl")
                c.registerDataClass(AbIn::class, "ab.In")
                c.registerDataClass(AbP12::class, "ab.R")
                c.encode(AbP12(5, null))
            }
            for (k in listOf(AbP1::class, AbD1::class)) ctx(k, "string s = 2;", o).use { r ->
                val (c, t) = text { r.decode(b, k) } to text { r.decodeAll(b)[0] }
                assertEquals("value: ${k.simpleName}: field s is null in the payload, and not nullable", c, "$k $o")
                assertTrue(t.startsWith("value: "), "$k $o: $t")
            }
        }
    }

    private val nestedW = "package ab;\n${enums}message In [id=421] { string s = 1; }\n" +
        "message R [id=420] { int32 n = 1; In inner = 2 [nullable = false]; list<In> items = 3; }\n"
    /** The reader's declaration of each field of its In (one per property of the class bound to it). */
    private val inFields = mapOf(
        "s" to "string s = 1;", "t" to "string t = 2;", "k" to "int32 k = 3;", "e" to "Color e = 4;",
        "oi" to "optional int32 oi = 5;", "day" to "optional date day = 6;", "ol" to "optional list<string> ol = 7;",
    )

    private fun inDecl(inner: KClass<*>): String = inner.constructors.first().parameters.joinToString(" ") { inFields[snakeCase(it.name!!)]!! }

    private fun nested(o: WireOptions): ByteArray = Context(o).use { w ->
        w.registerSchemaText(nestedW, "ab.fdl")
        w.registerDataClass(AbIn::class, "ab.In")
        w.registerDataClass(AbOldN::class, "ab.R")
        val a = AbIn("a")
        w.encode(AbOldN(5, AbIn("x"), listOf(a, AbIn("b"), a)))
    }

    private fun nestedRead(outer: KClass<*>, inner: KClass<*>, o: WireOptions): Pair<String, String> {
        val fdl = "package ab;\n${enums}message In [id=421] { ${inDecl(inner)} }\n" +
            "message R [id=420] { int32 n = 1; In inner = 2 [nullable = false]; list<In> items = 3; }\n"
        return Context(o).use { r ->
            r.registerSchemaText(fdl, "ab.fdl")
            enums(r)
            r.registerDataClass(inner, "ab.In")
            r.registerDataClass(outer, "ab.R")
            assertTrue(r.hasLayout(outer), r.layoutProblem(outer))
            val b = nested(o)
            text { r.decode(b, outer) } to text { r.decodeAll(b)[0] }
        }
    }

    /** Fields missing from structs nested in the one decoded, as a field and as list items: the rule in each, on both paths. */
    @Test fun nestedStructsAndListsOfThem() {
        val d = { s: String -> "AbInD(s=$s, t=td, k=3, e=GREEN, oi=4, day=null)" }
        val z = { s: String -> "AbInZ(s=$s, k=0, oi=null, ol=null)" }
        for (o in modes) {
            val want = "AbOuterD(n=5, inner=${d("x")}, items=[${d("a")}, ${d("b")}, ${d("a")}])"
            assertEquals(want to want, nestedRead(AbOuterD::class, AbInD::class, o), "$o")
            val wz = "AbOuterZ(n=5, inner=${z("x")}, items=[${z("a")}, ${z("b")}, ${z("a")}])"
            assertEquals(wz to wz, nestedRead(AbOuterZ::class, AbInZ::class, o), "$o")
            val e = missing(AbInE::class, "e")
            assertEquals(e to e, nestedRead(AbOuterE::class, AbInE::class, o), "$o")
        }
    }

    /** The same with the class lacking fields only as list items (the check follows lists). */
    @Test fun listItemsLackingFields() {
        val d = { s: String -> "AbInD(s=$s, t=td, k=3, e=GREEN, oi=4, day=null)" }
        for (o in modes) {
            val want = "AbListD(n=5, inner=AbIn(s=x), items=[${d("a")}, ${d("b")}, ${d("a")}])"
            val w = "package ab;\n${enums}message In [id=421] { string s = 1; }\nmessage In2 [id=424] { string s = 1; }\n" +
                "message R [id=420] { int32 n = 1; In inner = 2 [nullable = false]; list<In2> items = 3; }\n"
            val b = Context(o).use { c ->
                c.registerSchemaText(w, "ab.fdl")
                c.registerDataClass(AbIn::class, "ab.In")
                c.registerDataClass(AbIn2W::class, "ab.In2")
                c.registerDataClass(AbOldL::class, "ab.R")
                val a = AbIn2W("a")
                c.encode(AbOldL(5, AbIn("x"), listOf(a, AbIn2W("b"), a)))
            }
            for ((k, inner, exp) in listOf(Triple(AbListD::class, AbInD::class, want), Triple(AbListE::class, AbInE::class, missing(AbInE::class, "e")))) {
                val r0 = "package ab;\n${enums}message In [id=421] { string s = 1; }\nmessage In2 [id=424] { ${inDecl(inner)} }\n" +
                    "message R [id=420] { int32 n = 1; In inner = 2 [nullable = false]; list<In2> items = 3; }\n"
                Context(o).use { r ->
                    r.registerSchemaText(r0, "ab.fdl")
                    enums(r)
                    r.registerDataClass(AbIn::class, "ab.In")
                    r.registerDataClass(inner, "ab.In2")
                    r.registerDataClass(k, "ab.R")
                    assertTrue(r.hasLayout(k), r.layoutProblem(k))
                    assertEquals(exp to exp, text { r.decode(b, k) } to text { r.decodeAll(b)[0] }, "$k $o")
                }
            }
        }
    }

    /** A field missing from a struct nested in the one decoded: named on both paths. */
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
            assertEquals(want to want, text { r.decode(b, AbOuter::class) } to text { r.decodeAll(b)[0] })
        }
    }
}
