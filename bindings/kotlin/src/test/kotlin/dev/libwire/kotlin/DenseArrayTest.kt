package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** Every dense array kind a data class can hold through the compiled codecs (Mem.kt's readers). */
data class Arrs(
    val i: IntArray, val l: LongArray, val s: ShortArray, val f: FloatArray, val d: DoubleArray, val b: BooleanArray,
) {
    override fun equals(other: Any?): Boolean = other is Arrs && i.contentEquals(other.i) && l.contentEquals(other.l) &&
        s.contentEquals(other.s) && f.contentEquals(other.f) && d.contentEquals(other.d) && b.contentEquals(other.b)

    override fun hashCode() = i.size

    override fun toString() = "Arrs(${i.size} items, first ${i.firstOrNull()}, last ${l.lastOrNull()})"
}

/**
 * Decoded dense arrays hold every item, on both decode paths and at the lengths where the mem
 * readers change method (item by item up to libwire.shortArray = 32, one bulk copy above). Each
 * length is decoded right after arrays of another pattern were made and dropped, so an item left
 * unwritten (a short copy, or an array allocated without zeroing, as round 23 of ROUNDS.md
 * tried) would show their bytes or zeros, never the expected value.
 */
@OptIn(ExperimentalUnsignedTypes::class)
class DenseArrayTest {
    private val lengths = listOf(0, 1, 7, 8, 100_000)

    /** The arrays of length [n], items derived from [seed] and the index (no item is 0 or false for every seed). */
    private fun values(n: Int, seed: Int): List<Any> {
        fun x(k: Int) = (k + 1) * -0x61c88647 + seed * 0x3b9aca07
        return listOf(
            IntArray(n) { x(it) or 1 },
            LongArray(n) { x(it).toLong() * 0x9E3779B97L or 1 },
            ShortArray(n) { (x(it) or 1).toShort() },
            FloatArray(n) { x(it) / 7.0f + 0.5f },
            DoubleArray(n) { x(it) / 3.0 + 0.25 },
            BooleanArray(n) { (it + seed) % 3 != 0 },
            ByteArray(n) { (x(it) or 1).toByte() },
            UIntArray(n) { (x(it) or 1).toUInt() },
            ULongArray(n) { (x(it).toLong() * 31 or 1).toULong() },
            UShortArray(n) { (x(it) or 1).toUShort() },
            UByteArray(n) { (x(it) or 1).toUByte() },
            Float16Array(ShortArray(n) { (x(it) and 0x3bff or 0x3000).toShort() }),
            BFloat16Array(ShortArray(n) { (x(it) and 0x3fff or 0x3f00).toShort() }),
        )
    }

    @Test fun dynamicArraysOfEveryElementTypeRoundTrip() {
        // the tape codec: each array a SPAN of the payload, copied once into its new array
        for (n in lengths) {
            for (seed in 1..3) {
                val vs = values(n, seed)
                repeat(2) { Wire.decode(Wire.encode(values(n + 3, seed + 7))) } // garbage of another pattern
                for (v in vs) {
                    val back = Wire.decode(Wire.encode(v))
                    assertNotNull(back)
                    assertEquals(v.javaClass, back!!.javaClass, "type of ${v.javaClass.simpleName}[$n]")
                    assertTrue(deepEq(v, back), "${v.javaClass.simpleName}[$n] seed $seed")
                }
                // the same arrays inside a list (one tape, several spans)
                val back = Wire.decode(Wire.encode(vs)) as List<*>
                assertEquals(vs.size, back.size)
                for (k in vs.indices) assertTrue(deepEq(vs[k], back[k]), "list item ${vs[k].javaClass.simpleName}[$n]")
            }
        }
    }

    @Test fun dataClassArraysRoundTrip() {
        // the compiled codecs: up to libwire.shortArray items copied one by one, more at once
        val fdl = """
            package da;
            message Arrs [id=420] {
              array<int32> i = 1; array<int64> l = 2; array<int16> s = 3; array<float32> f = 4;
              array<float64> d = 5; array<bool> b = 6;
            }
        """.trimIndent()
        for (compatible in listOf(false, true)) Context(WireOptions(compatible = compatible)).use { c ->
            c.registerSchemaText(fdl, "da.fdl")
            c.registerDataClass(Arrs::class, "da.Arrs")
            fun arrs(n: Int, seed: Int): Arrs {
                val v = values(n, seed)
                return Arrs(v[0] as IntArray, v[1] as LongArray, v[2] as ShortArray, v[3] as FloatArray, v[4] as DoubleArray, v[5] as BooleanArray)
            }
            for (n in lengths + listOf(31, 32, 33)) {
                for (seed in 1..3) {
                    repeat(2) { c.decode(c.encode(arrs(n + 5, seed + 11)), Arrs::class) }
                    val a = arrs(n, seed)
                    assertEquals(a, c.decode(c.encode(a), Arrs::class), "Arrs of $n items, seed $seed, compatible $compatible")
                }
            }
            assertNotNull(c.mem.planOf(Arrs::class.java), "Arrs goes through the compiled codecs")
        }
    }
}
