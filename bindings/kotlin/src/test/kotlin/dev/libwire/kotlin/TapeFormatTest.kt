package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** The build tapes the bulk path writes (the examples of BULK_PROPOSAL.md §3.3), and tape-specific paths. */
class TapeFormatTest {
    private fun tape(ctx: Context, vararg roots: Any?): String {
        val n = TapeEncoder(ctx).write(roots.toList())
        return hex(ctx.tapeBuffer.copyOf(n))
    }

    @Test fun examples() {
        Context().use { ctx ->
            assertEquals(
                "57540100" + "01000000" + "1603000000" + "070100000000000000" + "15ff0100000061" + "00",
                tape(ctx, listOf(1L, "a", null)),
            )
        }
        Context(WireOptions.COMPATIBLE).use { ctx ->
            ctx.registerSchema(repoRoot.resolve("fixtures/schemas/xlang/test_item.fdl"))
            ctx.registerDataClass(Item::class, "Item")
            assertEquals("57540100" + "01000000" + "1b0000000001000000" + "04006e616d65" + "15ff0100000078", tape(ctx, Item("x")))
        }
    }

    @Test fun packedSharedAndErrors() {
        Context(WireOptions(refTracking = true)).use { ctx ->
            // a decoded list of one numeric type comes back as PACKED; shared lists as REF
            val inner = arrayListOf<Any?>(1L, 2L, 3L)
            val v = listOf(inner, inner, listOf(true, false), listOf(1.5, 2.5))
            val back = ctx.decode(ctx.encode(v)) as List<*>
            assertTrue(deepEq(v, back))
            assertTrue(back[0] === back[1])
            // an encode error names the tape offset in the message, not as a payload offset
            val e = assertThrows<WireException> { ctx.encode(WireEnum(null, 1, null)) }
            assertEquals(-1L, e.offset)
            assertTrue(e.detail.contains("tape offset"), e.detail)
        }
    }
}
