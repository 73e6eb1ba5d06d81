package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * Float16 and BFloat16 values keep their 16 bits through the tape (spec/tape.md, FLOAT16 and
 * BFLOAT16 NaNs): every one of the 65,536 patterns of each type, read from Fory bytes as a root
 * and in a list (PACKED) and written again, gives the same bytes; the tape conversions
 * ([TapeOps.f16Tape] / [TapeOps.f16FromTape], the bfloat16 pair) are inverses with a NaN's
 * payload at the top of the f64's, quiet bit as it was.
 */
class Float16BitsTest {
    private fun bits(v: Any?): Int = when (v) {
        is Float16 -> v.bits.toInt() and 0xffff
        is BFloat16 -> v.bits.toInt() and 0xffff
        else -> error("$v (${v?.javaClass})")
    }

    @Test fun everyPatternAsRootAndInAList() {
        Context().use { ctx ->
            for (t in intArrayOf(TypeId.FLOAT16, TypeId.BFLOAT16)) {
                val list = java.io.ByteArrayOutputStream()
                list.write(byteArrayOf(0x01, 0xff.toByte(), TypeId.LIST.toByte(), 0x80.toByte(), 0x80.toByte(), 0x04, 0x08, t.toByte()))
                for (x in 0 until 65536) {
                    val p = byteArrayOf(0x01, 0xff.toByte(), t.toByte(), x.toByte(), (x ushr 8).toByte())
                    list.write(p, 3, 2)
                    val v = ctx.decode(p)
                    assertEquals(x, bits(v), "type $t 0x%04x read".format(x))
                    val back = ctx.encode(v)
                    if (!back.contentEquals(p)) assertEquals(hex(p), hex(back), "type $t 0x%04x written again".format(x))
                }
                val p = list.toByteArray()
                val l = ctx.decode(p) as List<*>
                for (x in 0 until 65536) assertEquals(x, bits(l[x]), "type $t 0x%04x in a list".format(x))
                val back = ctx.encode(l)
                assertEquals(p.size, back.size)
                assertEquals(true, back.contentEquals(p), "type $t: the list written again")
            }
        }
    }

    @Test fun tapeConversions() {
        for (x in 0 until 65536) {
            val h = x.toShort()
            assertEquals(h, TapeOps.f16FromTape(TapeOps.f16Tape(h)), "float16 0x%04x".format(x))
            assertEquals(h, TapeOps.bf16FromTape(TapeOps.bf16Tape(h)), "bfloat16 0x%04x".format(x))
            val sign = (x.toLong() ushr 15) shl 63
            if ((x and 0x7fff) > 0x7c00) {
                assertEquals(sign or 0x7ff0000000000000L or ((x and 0x3ff).toLong() shl 42), TapeOps.f16Tape(h), "float16 0x%04x widened".format(x))
            } else {
                assertEquals(java.lang.Float.float16ToFloat(h).toDouble().toRawBits(), TapeOps.f16Tape(h), "float16 0x%04x widened".format(x))
            }
            if ((x and 0x7fff) > 0x7f80) {
                assertEquals(sign or 0x7ff0000000000000L or ((x and 0x7f).toLong() shl 45), TapeOps.bf16Tape(h), "bfloat16 0x%04x widened".format(x))
            }
        }
        // a double NaN with no top payload bit: the quiet NaN of its sign
        assertEquals(0xfe00.toShort(), TapeOps.f16FromTape(0xfff0000000000001uL.toLong()))
        assertEquals(0x7fc0.toShort(), TapeOps.bf16FromTape(0x7ff0000000000001L))
    }
}
