package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** 40 properties, defaults on both sides of the first mask int's last bit (two mask ints). */
data class AbWide(val p0: Int = 100, val p1: Int = 101, val p2: Int, val p3: Int, val p4: Int, val p5: Int, val p6: Int, val p7: Int, val p8: Int, val p9: Int, val p10: Int, val p11: Int, val p12: Int, val p13: Int, val p14: Int, val p15: Int, val p16: Int, val p17: Int, val p18: Int, val p19: Int, val p20: Int, val p21: Int, val p22: Int, val p23: Int, val p24: Int, val p25: Int, val p26: Int, val p27: Int, val p28: Int, val p29: Int, val p30: Int = 130, val p31: Int = 131, val p32: Int = 132, val p33: Int = 133, val p34: Int, val p35: Int, val p36: Int, val p37: Int, val p38: Int = 138, val p39: Int = 139)
/** The writer's R of [AbWide]'s: every other property from p1 on. */
data class AbWideW(val p1: Int, val p3: Int, val p5: Int, val p7: Int, val p9: Int, val p11: Int, val p13: Int, val p15: Int, val p17: Int, val p19: Int, val p21: Int, val p23: Int, val p25: Int, val p27: Int, val p29: Int, val p31: Int, val p33: Int, val p35: Int, val p37: Int, val p39: Int)

/** Defaults read through kotlin-reflect's callBy ([ClassInfo.defaultsCtorOn] false when first needed). */
data class AbK0(val n: Int, val s: String = "ks", val k: Long = 11L, val e: AbColor = AbColor.GREEN)

data class AbKIn(val s: String, val t: String = "td")
data class AbKR(val n: Int, val inner: AbKIn)
/** A writer's R with a field more than [AbKR]'s (its TypeDef differs), the nested In its own. */
data class AbKW(val n: Int, val inner: AbIn, val x: Int)
data class AbKW2(val n: Int, val inner: AbIn2, val x: Int)

/**
 * The two costs of a writer lacking fields (Kotlin round 64): a message whose root TypeDef is known
 * to lack fields decoded once, through the marked plan ([MemCodec.decode]); defaults through the
 * Kotlin compiler's constructor with a mask ([ClassInfo.withDefaults]).
 */
class AbsentFastTest {
    private val enums = "enum Color [id=422] { RED = 0; GREEN = 1; BLUE = 2; }\n"
    private val modes = listOf(WireOptions(compatible = true), WireOptions(compatible = true, refTracking = true))

    private fun write(o: WireOptions, fdl: String, vararg cls: Pair<kotlin.reflect.KClass<*>, String>, v: () -> Any): ByteArray =
        Context(o).use { w ->
            w.registerSchemaText("package ab;\n$enums$fdl", "ab.fdl")
            for ((k, n) in cls) w.registerDataClass(k, n)
            w.encode(v())
        }

    private fun reader(o: WireOptions, fdl: String, vararg cls: Pair<kotlin.reflect.KClass<*>, String>): Context = Context(o).also { r ->
        r.registerSchemaText("package ab;\n$enums$fdl", "ab.fdl")
        r.registerEnum(AbColor::class, "ab.Color")
        for ((k, n) in cls) r.registerDataClass(k, n)
        assertTrue(r.hasLayout(cls.last().first), r.layoutProblem(cls.last().first))
    }

    private fun text(f: () -> Any?): String = runCatching(f).let { it.getOrNull()?.toString() ?: it.exceptionOrNull()!!.message!! }

    /** The second and later messages of a writer lacking fields: one decode each (no marked read again), the same values; the reader's own TypeDef still read through the plain plan. */
    @Test fun secondMessageOfALackingWriterIsDecodedOnce() {
        val rOwn = "message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; Color e = 2; }\n"
        for (o in modes) {
            val old = write(o, "message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; }\n", AbOld::class to "ab.R") { AbOld(5) }
            reader(o, rOwn, AbD13::class to "ab.R").use { r ->
                val own = r.encode(AbD13(6, AbColor.RED))
                val m0 = r.mem.markedReads
                val k0 = r.mem.knownLackingReads
                assertEquals(AbD13(5, AbColor.BLUE), r.decode(old, AbD13::class), "$o")
                assertEquals(m0 + 1, r.mem.markedReads, "$o: the first message read twice")
                for (i in 1..3) {
                    assertEquals(AbD13(5, AbColor.BLUE), r.decode(old, AbD13::class), "$o")
                    assertEquals(AbD13(6, AbColor.RED), r.decode(own, AbD13::class), "$o")
                    assertEquals(m0 + 1, r.mem.markedReads, "$o: message $i read twice")
                    assertEquals(k0 + i, r.mem.knownLackingReads, "$o: message $i not read once through the marked plan")
                }
            }
            // a class whose check is off (a string without a default): the refusal, once known also in one decode
            reader(o, "message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; string s = 2; }\n", AbP1::class to "ab.R").use { r ->
                val want = "schema: AbP1: field s is missing from the payload"
                assertEquals(want, text { r.decode(old, AbP1::class) }, "$o")
                val k0 = r.mem.knownLackingReads
                assertEquals(want, text { r.decode(old, AbP1::class) }, "$o")
                assertEquals(k0 + 1, r.mem.knownLackingReads, "$o")
            }
        }
    }

    /**
     * Writers whose root TypeDef is the reader's own or differs from it only by a field more, their
     * nested In lacking a field or not: the values right each time; a header remembered is
     * forgotten when a message with it lacked nothing; the reader's own header is never remembered.
     */
    @Test fun nestedTypesLackingBehindTheSameRootTypeDef() {
        val inS = "message In [id=421] { string s = 1; }\n"
        val inST = "message In [id=421] { string s = 1; string t = 2; }\n"
        val rW = "message R [id=420] { int32 n = 1; In inner = 2 [nullable = false]; int32 x = 3; }\n"
        val rR = "message R [id=420] { int32 n = 1; In inner = 2 [nullable = false]; }\n"
        for (o in modes) {
            val lacks = write(o, inS + rW, AbIn::class to "ab.In", AbKW::class to "ab.R") { AbKW(1, AbIn("a"), 9) }
            val full = write(o, inST + rW, AbIn2::class to "ab.In", AbKW2::class to "ab.R") { AbKW2(2, AbIn2("b", "u"), 9) }
            val ownLacks = write(o, inS + rR, AbIn::class to "ab.In", AbOuter0::class to "ab.R") { AbOuter0(3, AbIn("c")) }
            reader(o, inST + rR, AbKIn::class to "ab.In", AbKR::class to "ab.R").use { r ->
                val own = r.encode(AbKR(4, AbKIn("d", "v")))
                val a = AbKR(1, AbKIn("a", "td"))
                val b = AbKR(2, AbKIn("b", "u"))
                assertEquals(a, r.decode(lacks, AbKR::class), "$o")
                val k0 = r.mem.knownLackingReads
                assertEquals(a, r.decode(lacks, AbKR::class), "$o")
                assertEquals(k0 + 1, r.mem.knownLackingReads, "$o: remembered")
                // the same root TypeDef, lacking nothing: through the marked plan once, then forgotten
                assertEquals(b, r.decode(full, AbKR::class), "$o")
                assertEquals(k0 + 2, r.mem.knownLackingReads, "$o")
                assertEquals(b, r.decode(full, AbKR::class), "$o")
                assertEquals(k0 + 2, r.mem.knownLackingReads, "$o: forgotten")
                // the reader's own root TypeDef, its In lacking t: read twice each time (not remembered)
                val m0 = r.mem.markedReads
                for (i in 1..2) {
                    assertEquals(AbKR(3, AbKIn("c", "td")), r.decode(ownLacks, AbKR::class), "$o")
                    assertEquals(AbKR(4, AbKIn("d", "v")), r.decode(own, AbKR::class), "$o")
                }
                assertEquals(m0 + 2, r.mem.markedReads, "$o")
                assertEquals(k0 + 2, r.mem.knownLackingReads, "$o: the reader's own TypeDef remembered")
            }
        }
    }

    /** The table of headers stays bounded: many writers' TypeDefs lacking fields, each read right. */
    @Test fun manyLackingWritersStayBounded() {
        val o = WireOptions(compatible = true)
        val rOwn = "message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; Color e = 2; }\n"
        reader(o, rOwn, AbD13::class to "ab.R").use { r ->
            for (i in 0 until 3 * MemCodec.LACKING) {
                // a writer with a field x under another number: another TypeDef each time
                val b = write(o, "message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; int32 x = ${i + 3}; }\n", AbOldX::class to "ab.R") { AbOldX(i, 7) }
                assertEquals(AbD13(i, AbColor.BLUE), r.decode(b, AbD13::class))
                assertEquals(AbD13(i, AbColor.BLUE), r.decode(b, AbD13::class))
            }
            assertEquals(MemCodec.LACKING, r.mem.planOf(AbD13::class.java)!!.lacking!!.size)
        }
    }

    private val wideR = "message R [id=420] { int32 p0 = 1; int32 p1 = 2; int32 p2 = 3; int32 p3 = 4; int32 p4 = 5; int32 p5 = 6; int32 p6 = 7; int32 p7 = 8; int32 p8 = 9; int32 p9 = 10; int32 p10 = 11; int32 p11 = 12; int32 p12 = 13; int32 p13 = 14; int32 p14 = 15; int32 p15 = 16; int32 p16 = 17; int32 p17 = 18; int32 p18 = 19; int32 p19 = 20; int32 p20 = 21; int32 p21 = 22; int32 p22 = 23; int32 p23 = 24; int32 p24 = 25; int32 p25 = 26; int32 p26 = 27; int32 p27 = 28; int32 p28 = 29; int32 p29 = 30; int32 p30 = 31; int32 p31 = 32; int32 p32 = 33; int32 p33 = 34; int32 p34 = 35; int32 p35 = 36; int32 p36 = 37; int32 p37 = 38; int32 p38 = 39; int32 p39 = 40; }\n"
    private val wideW = "message R [id=420] { int32 p1 = 2; int32 p3 = 4; int32 p5 = 6; int32 p7 = 8; int32 p9 = 10; int32 p11 = 12; int32 p13 = 14; int32 p15 = 16; int32 p17 = 18; int32 p19 = 20; int32 p21 = 22; int32 p23 = 24; int32 p25 = 26; int32 p27 = 28; int32 p29 = 30; int32 p31 = 32; int32 p33 = 34; int32 p35 = 36; int32 p37 = 38; int32 p39 = 40; }\n"

    /** 40 parameters (two mask ints): the defaults of the fields the writer lacks, by the compiler's constructor and by callBy alike. */
    @Test fun maskOfMoreThan32Parameters() {
        assertTrue(ClassInfo.of(AbWide::class).hasDefaultsCtor || !ClassInfo.defaultsCtorOn)
        val info = ClassInfo.of(AbWide::class)
        val args = arrayOfNulls<Any?>(40)
        val leftOut = BooleanArray(40)
        for (i in 0 until 40) if (i in setOf(0, 31, 32, 39)) leftOut[i] = true else args[i] = i
        val want = info.callByDefaults(args, leftOut)
        assertEquals(want, info.withDefaults(args, leftOut))
        assertEquals(listOf(100, 131, 132, 139), listOf((want as AbWide).p0, want.p31, want.p32, want.p39))
        for (o in modes) {
            val b = write(o, wideW, AbWideW::class to "ab.R") { AbWideW(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39) }
            reader(o, wideR, AbWide::class to "ab.R").use { r ->
                // (the writer lacks the even fields: those with a default take it, the others 0)
                val v = AbWide(100, 1, 0, 3, 0, 5, 0, 7, 0, 9, 0, 11, 0, 13, 0, 15, 0, 17, 0, 19, 0, 21, 0, 23, 0, 25, 0, 27, 0, 29, 130, 31, 132, 33, 0, 35, 0, 37, 138, 39)
                assertEquals(v, r.decode(b, AbWide::class), "$o")
                assertEquals(v, r.decode(b, AbWide::class), "$o")
                assertEquals(v, r.decodeAll(b)[0], "$o")
            }
        }
    }

    /** A class whose defaults go through callBy (no compiler's constructor found): the same values. */
    @Test fun defaultsWithoutTheCompilersConstructor() {
        val was = ClassInfo.defaultsCtorOn
        ClassInfo.defaultsCtorOn = false
        try {
            assertFalse(ClassInfo.of(AbK0::class).hasDefaultsCtor)
        } finally {
            ClassInfo.defaultsCtorOn = was
        }
        assertTrue(ClassInfo.of(AbD13::class).hasDefaultsCtor)
        for (o in modes) {
            val b = write(o, "message In [id=421] { string s = 1; }\nmessage R [id=420] { int32 n = 1; }\n", AbOld::class to "ab.R") { AbOld(5) }
            reader(o, "message R [id=420] { int32 n = 1; string s = 2; int64 k = 3; Color e = 4; }\n", AbK0::class to "ab.R").use { r ->
                for (i in 0..1) {
                    assertEquals(AbK0(5), r.decode(b, AbK0::class), "$o")
                    assertEquals(AbK0(5), r.decodeAll(b)[0], "$o")
                }
            }
        }
    }
}

data class AbOuter0(val n: Int, val inner: AbIn)
data class AbOldX(val n: Int, val x: Int)
