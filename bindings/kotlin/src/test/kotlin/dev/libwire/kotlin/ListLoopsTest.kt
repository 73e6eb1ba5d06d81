package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The tape decoder's two list loops (round 26): a list whose first element is a Latin-1 string
 * is read by a loop of its own that hands over to the general one at the first other element;
 * any other list by the general loop from its start. Every handover point and element kind.
 */
class ListLoopsTest {
    private val others: List<Any?> = listOf(
        42L, -1L, Long.MIN_VALUE, 2.5, true, false, null, "数据", "ä", "", "x".repeat(40),
        listOf("in", "ner", 7L), mapOf("k" to 1L), byteArrayOf(1, 2, 3), 7, "naïve-1", "ab\u0100",
    )

    private fun latin1(n: Int): String = String(CharArray(n) { 'a' + (it % 26) }).let { if (n % 3 == 0 && n > 0) "é" + it.drop(1) else it }

    private fun roundTrip(ctx: Context, v: List<Any?>) {
        val back = ctx.decode(ctx.encode(v))
        assertTrue(deepEq(v, back), "round trip of $v: got $back")
    }

    @Test
    fun latin1FirstThenEveryKind() {
        for (ref in listOf(false, true)) {
            val ctx = Context(WireOptions(refTracking = ref))
            // Latin-1 strings of every length to 40 (each constant-length array of 4..16), then one other element
            for (n in 0..40) {
                roundTrip(ctx, List(5) { latin1(n + it) })
                for (o in others) {
                    roundTrip(ctx, listOf(latin1(n), o))
                    roundTrip(ctx, listOf(latin1(n), latin1(n + 1), o, latin1(n), o))
                    roundTrip(ctx, listOf(o, latin1(n), o))
                }
            }
            roundTrip(ctx, listOf("only"))
            roundTrip(ctx, emptyList<Any?>())
            roundTrip(ctx, listOf(listOf("a", "b"), listOf("c", 1L), "d"))
        }
    }

    @Test
    fun sharedListsAfterLatin1() {
        val ctx = Context(WireOptions(refTracking = true))
        val inner = mutableListOf<Any?>("shared", 1L)
        val v = listOf("first", inner, "mid", inner)
        val back = ctx.decode(ctx.encode(v)) as List<*>
        assertEquals(4, back.size)
        assertTrue(deepEq(v, back))
        assertSame(back[1], back[3], "a list met twice is one list after decoding")
    }
}
