package dev.libwire.kotlin

import dev.libwire.kotlin.bench.BenchValues
import dev.libwire.kotlin.bench.ImageD
import dev.libwire.kotlin.bench.MediaContentD
import dev.libwire.kotlin.bench.MediaD
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The [MemPlan.marked] plans read through generated code ([MemGenerator.makeMarked]; Kotlin round
 * 65): a message of a writer lacking fields, once known, decoded by the marked plans' generated
 * reads, to the values [MemPlan.readMarked] gives (AbsentFieldTest and AbsentFastTest run the rule's
 * cases through them).
 */
/** A nullable enum held by a presence byte, and a default the writer ([AbMgW]) lacks. */
data class AbMg(val n: Int, val e: AbColor? = AbColor.BLUE, val d: Int = 7)
data class AbMgW(val n: Int, val e: AbColor?)

class MarkedGenTest {
    private fun gen(p: MemPlan): String? = p.gen?.javaClass?.name

    /** `ProfileMain mediadlack`'s message: MediaContentD, MediaD and ImageD read by their marked plans' generated codecs. */
    @Test fun markedPlansOfTheBenchClassesAreGenerated() {
        val bytes = BenchValues.lackingWriterBytes(true)
        val full = BenchValues.mediaContentD()
        val want = MediaContentD(
            full.media.copy(bitrate = 0, hasBitrate = false, copyright = ""),
            full.images.map { it.copy(title = "") },
        )
        BenchValues.contextWithDefaults().use { r ->
            assertEquals(want, r.decode(bytes, MediaContentD::class))
            val k0 = r.mem.knownLackingReads
            for (i in 1..3) assertEquals(want, r.decode(bytes, MediaContentD::class))
            assertEquals(k0 + 3, r.mem.knownLackingReads, "through the marked plan at once")
            val m = r.mem.markedOf(r.mem.planOf(MediaContentD::class.java)!!)
            assertTrue(m.marked)
            val media = (m.fields.first { it.slot is StructSlot }.slot as StructSlot).plan
            val image = ((m.fields.first { it.slot is ListSlot }.slot as ListSlot).item.slot as StructSlot).plan
            assertEquals(MediaD::class.java, media.cls)
            assertEquals(ImageD::class.java, image.cls)
            for (p in listOf(m, media, image)) {
                assertTrue(p.marked, p.cls.simpleName)
                if (MemGenerator.ENABLED && MemPlan.MARKED_GEN) {
                    assertTrue(gen(p)?.contains("MemGenMarked") == true, "${p.cls.simpleName}: ${gen(p)}")
                }
            }
        }
    }

    /** A class with defaults past the first mask int ([AbWide]) and one with an enum default: generated marked codecs. */
    @Test fun markedPlansOfTheRuleClassesAreGenerated() {
        val o = WireOptions(compatible = true)
        Context(o).use { w ->
            w.registerSchemaText("package ab;\nmessage R [id=420] { ${(0 until 40).filter { it % 2 == 1 }.joinToString(" ") { "int32 p$it = ${it + 1};" }} }\n", "ab.fdl")
            w.registerDataClass(AbWideW::class, "ab.R")
            val bytes = w.encode(AbWideW(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39))
            Context(o).use { r ->
                r.registerSchemaText("package ab;\nmessage R [id=420] { ${(0 until 40).joinToString(" ") { "int32 p$it = ${it + 1};" }} }\n", "ab.fdl")
                r.registerDataClass(AbWide::class, "ab.R")
                val v = r.decode(bytes, AbWide::class)
                assertEquals(100, v.p0); assertEquals(1, v.p1); assertEquals(0, v.p2); assertEquals(130, v.p30); assertEquals(31, v.p31)
                assertEquals(132, v.p32); assertEquals(33, v.p33); assertEquals(0, v.p34); assertEquals(138, v.p38); assertEquals(39, v.p39)
                val m = r.mem.planOf(AbWide::class.java)!!.markedPlan!!
                if (MemGenerator.ENABLED && MemPlan.MARKED_GEN) assertTrue(gen(m)?.contains("MemGenMarked") == true, "${gen(m)}")
            }
        }
    }

    /** A null sent for a nullable enum (a presence byte 0 in the marked image) read null by the generated marked read, not the zeroed enum. */
    @Test fun aNullSentThroughTheGeneratedMarkedRead() {
        val en = "package ab;\nenum Color [id=422] { RED = 0; GREEN = 1; BLUE = 2; }\n"
        for (o in listOf(WireOptions(compatible = true), WireOptions(compatible = true, refTracking = true))) {
            val (nul, green) = Context(o).use { w ->
                w.registerSchemaText(en + "message R [id=420] { int32 n = 1; optional Color e = 2; }\n", "ab.fdl")
                w.registerEnum(AbColor::class, "ab.Color")
                w.registerDataClass(AbMgW::class, "ab.R")
                w.encode(AbMgW(1, null)) to w.encode(AbMgW(2, AbColor.GREEN))
            }
            Context(o).use { r ->
                r.registerSchemaText(en + "message R [id=420] { int32 n = 1; optional Color e = 2; int32 d = 3; }\n", "ab.fdl")
                r.registerEnum(AbColor::class, "ab.Color")
                r.registerDataClass(AbMg::class, "ab.R")
                for (i in 1..3) {
                    assertEquals(AbMg(1, null, 7), r.decode(nul, AbMg::class), "$o")
                    assertEquals(AbMg(2, AbColor.GREEN, 7), r.decode(green, AbMg::class), "$o")
                }
                val m = r.mem.planOf(AbMg::class.java)!!.markedPlan!!
                if (MemGenerator.ENABLED && MemPlan.MARKED_GEN) assertTrue(gen(m)?.contains("MemGenMarked") == true, "${gen(m)}")
            }
        }
    }
}
