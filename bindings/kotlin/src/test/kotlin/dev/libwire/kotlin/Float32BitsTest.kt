package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

data class F32Holder(
    val f: Float,
    @param:WireField(type = "float32") val g: Float,
    val l: List<Float>,
    val m: Map<String, Float>,
)

/** The same with an `any` field, which has no memory form: the tape path (plan fields, typed fields). */
data class F32TapeHolder(
    val f: Float,
    @param:WireField(type = "float32") val g: Float,
    val l: List<Float>,
    val m: Map<String, Float>,
    val x: Any?,
)

/**
 * Float values keep their 32 bits through the tape (spec/tape.md, FLOAT32 NaNs): signaling NaNs
 * (`toDouble()` sets the quiet bit), NaN payloads, signed zeros, subnormals, read from Fory bytes
 * and written again give the same bytes, as roots, in lists (PACKED) and in data class fields.
 */
class Float32BitsTest {
    private val patterns = intArrayOf(
        0x7f800001, 0xff800001.toInt(), 0x7fa00000, 0x7fbfffff, 0xffbfffff.toInt(), 0x7f812345, // signaling
        0x7fc00000, 0xffc00000.toInt(), 0x7fc00001, 0xffd23456.toInt(), 0x7fffffff, // quiet, payloads
        0, 0x80000000.toInt(), 1, 0x80000001.toInt(), 0x007fffff, 0x807fffff.toInt(), // zeros, subnormals
        0x3f800000, 0x7f7fffff, 0x7f800000, 0xff800000.toInt(),
    )

    private fun le32(x: Int) = ByteArray(4) { (x ushr (8 * it)).toByte() }
    private fun bits(v: Any?): String = if (v is Float) "%08x".format(v.toRawBits()) else "$v (${v?.javaClass})"

    @Test fun roots() {
        Context().use { ctx ->
            for (x in patterns) {
                val p = byteArrayOf(0x01, 0xff.toByte(), TypeId.FLOAT32.toByte()) + le32(x)
                val v = ctx.decode(p)
                assertEquals("%08x".format(x), bits(v))
                assertEquals(hex(p), hex(ctx.encode(v)), "0x%08x written again".format(x))
            }
        }
    }

    @Test fun packedList() {
        Context().use { ctx ->
            var p = byteArrayOf(0x01, 0xff.toByte(), TypeId.LIST.toByte(), patterns.size.toByte(), 0x08, TypeId.FLOAT32.toByte())
            for (x in patterns) p += le32(x)
            val l = ctx.decode(p) as List<*>
            assertEquals(patterns.map { "%08x".format(it) }, l.map { bits(it) })
            assertEquals(hex(p), hex(ctx.encode(l)))
        }
    }

    @Test fun dataClassFields() {
        Context().use { ctx ->
            ctx.registerSchemaText(
                "package f32;\nmessage F32Holder {\n  float32 f = 1;\n  float32 g = 2;\n  list<float32> l = 3;\n  map<string, float32> m = 4;\n}\n" +
                    "message F32TapeHolder {\n  float32 f = 1;\n  float32 g = 2;\n  list<float32> l = 3;\n  map<string, float32> m = 4;\n  any x = 5;\n}\n",
            )
            ctx.registerDataClass(F32Holder::class, "f32.F32Holder")
            ctx.registerDataClass(F32TapeHolder::class, "f32.F32TapeHolder")
            assertTrue(ctx.hasLayout(F32Holder::class))
            assertFalse(ctx.hasLayout(F32TapeHolder::class))
            for (x in patterns) {
                val f = Float.fromBits(x)
                val want = "%08x".format(x)
                val b = ctx.encode(F32Holder(f, f, listOf(f, 1f, f), mapOf("k" to f)))
                val back = ctx.decode(b) as F32Holder
                assertEquals(listOf(want, want, want, want, want), listOf(bits(back.f), bits(back.g), bits(back.l[0]), bits(back.l[2]), bits(back.m["k"])), "layout")
                assertEquals(hex(b), hex(ctx.encode(back)), "0x%08x written again (layout)".format(x))
                val tb = ctx.encode(F32TapeHolder(f, f, listOf(f, 1f, f), mapOf("k" to f), f))
                val tback = ctx.decode(tb) as F32TapeHolder
                assertEquals(listOf(want, want, want, want, want, want), listOf(bits(tback.f), bits(tback.g), bits(tback.l[0]), bits(tback.l[2]), bits(tback.m["k"]), bits(tback.x)), "tape")
                assertEquals(hex(tb), hex(ctx.encode(tback)), "0x%08x written again (tape)".format(x))
            }
        }
    }

    /** The conversions over every NaN (both signs) and a stride of the other patterns. */
    @Test fun conversions() {
        val bad = ArrayList<String>()
        fun check(x: Int) {
            val f = Float.fromBits(x)
            val u = TapeOps.f32Tape(f)
            if (TapeOps.f32FromTape(u).toRawBits() != x || (!f.isNaN() && f.toDouble().toRawBits() != u)) {
                if (bad.size < 5) bad.add("%08x -> %016x".format(x, u))
            }
        }
        for (m in 1 until (1 shl 23)) {
            check(0x7f800000 or m)
            check(0xff800000.toInt() or m)
        }
        var x = 0L
        while (x < (1L shl 32)) { check(x.toInt()); x += 65521 }
        assertEquals(listOf<String>(), bad)
    }
}
