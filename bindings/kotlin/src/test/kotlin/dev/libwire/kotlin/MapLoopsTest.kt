package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The tape decoder's map loop (round 27): a Latin-1 key and a 64-bit integer value are read in
 * the loop itself, any other key or value through the general item reader. Every mix of the two
 * paths, entry by entry, and the order of the entries.
 */
class MapLoopsTest {
    private val keys: List<Any?> = listOf("k", "", "é-latin1", "数据", "ab\u0100", 42L, -7, 2.5, true, null, "x".repeat(40))
    private val values: List<Any?> = listOf(
        0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 7, 2.5, true, null, "v", "数据", listOf("a", 1L),
        mapOf("in" to 2L), byteArrayOf(1, 2),
    )

    private fun roundTrip(ctx: Context, v: Map<Any?, Any?>) {
        val back = ctx.decode(ctx.encode(v))
        assertTrue(deepEq(v, back), "round trip of $v: got $back")
        assertEquals(v.keys.toList().map { if (it is ByteArray) it.toList() else it }, (back as Map<*, *>).keys.toList(), "entry order of $v")
    }

    @Test
    fun everyKeyAndValueKind() {
        for (ref in listOf(false, true)) {
            val ctx = Context(WireOptions(refTracking = ref))
            for (k in keys) for (v in values) {
                roundTrip(ctx, linkedMapOf(k to v))
                // the usual entry before and after the other kind, so the loop switches paths both ways
                roundTrip(ctx, linkedMapOf("a" to 1L, k to v, "b" to 2L))
                roundTrip(ctx, linkedMapOf(k to v, "c" to 3L))
            }
            roundTrip(ctx, linkedMapOf())
            roundTrip(ctx, (0 until 1000).associateTo(LinkedHashMap()) { "key$it" to it.toLong() * 1_000_003L })
        }
    }

    @Test
    fun sharedMapValues() {
        val ctx = Context(WireOptions(refTracking = true))
        val inner = mutableMapOf<Any?, Any?>("x" to 1L)
        val v = linkedMapOf<Any?, Any?>("first" to inner, "n" to 5L, "again" to inner)
        val back = ctx.decode(ctx.encode(v)) as Map<*, *>
        assertTrue(deepEq(v, back))
        assertSame(back["first"], back["again"], "a map met twice is one map after decoding")
    }
}
