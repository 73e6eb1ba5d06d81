package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** The build tapes the codec writes (spec/tape.md, version 2), and tape-specific paths. */
class TapeFormatTest {
    private fun tape(ctx: Context, vararg roots: Any?): String {
        val n = TapeEncoder(ctx).write(roots.toList())
        return hex(ctx.tapeBuffer.copyOf(n))
    }

    @Test fun examples() {
        Context().use { ctx ->
            assertEquals(
                "57540200" + "01000000" + "1603000000" + "070100000000000000" + "158001000000" + "61" + "00",
                tape(ctx, listOf(1L, "a", null)),
            )
        }
        Context(WireOptions.COMPATIBLE).use { ctx ->
            ctx.registerSchema(repoRoot.resolve("fixtures/schemas/xlang/test_item.fdl"))
            ctx.registerDataClass(Item::class, "Item")
            // a data class with a plan: STRUCT_IDX, fields by wire index
            assertTrue(ctx.hasPlan(Item::class))
            assertEquals("57540200" + "01000000" + "f40000000001000000" + "158001000000" + "78", tape(ctx, Item("x")))
            // UTF-16 text goes as the JVM holds it (enc 0x81)
            assertEquals("57540200" + "01000000" + "158104000000" + "3412" + "6100", tape(ctx, "\u1234a"))
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

    @Test fun stringLengths() {
        // every length around the short copy (two 8-byte words for 8..16 bytes), Latin-1 and UTF-16,
        // in a list: the tape holds each string's bytes exactly, and the payload decodes to them
        Context().use { ctx ->
            val all = ArrayList<Any?>()
            for (len in 0..20) {
                val latin = String(CharArray(len) { ('a' + (it * 7 + len) % 26) }).replaceRange(0, minOf(1, len), if (len > 0) "\u00e9" else "")
                val wide = String(CharArray(len) { (0x4e00 + it * 31 + len).toChar() })
                for (s in listOf(latin, wide)) {
                    val isLatin = s.all { it.code <= 0xff }
                    val bytes = if (isLatin) s.toByteArray(Charsets.ISO_8859_1) else s.toByteArray(Charsets.UTF_16LE)
                    val enc = if (isLatin) "80" else "81"
                    val lenHex = hex(byteArrayOf(bytes.size.toByte(), 0, 0, 0))
                    assertEquals("57540200" + "01000000" + "1603000000" + "00" + "15" + enc + lenHex + hex(bytes) + "00",
                        tape(ctx, listOf(null, s, null)), "length $len: $s")
                    all.add(s)
                }
            }
            assertEquals(all, ctx.decode(ctx.encode(all)))
        }
    }

    @Test fun decodedStrings() {
        // the reader's Latin-1 strings at every length around its word copies (8..16 bytes), ASCII
        // and not, at every offset in the tape, alone and between other values: each decodes to
        // its text, as a String of its own (a later decode into the same tape buffer leaves it)
        Context().use { ctx ->
            val all = ArrayList<Any?>()
            for (len in 0..40) {
                for (shift in 0..2) {
                    all.add(String(CharArray(len) { ('A' + (it * 5 + len + shift) % 58) }))
                    all.add(String(CharArray(len) { (0xa0 + (it * 3 + len + shift) % 96).toChar() }))
                    if (shift == 1) all.add(len.toLong())
                    if (shift == 2) all.add(null)
                }
            }
            val first = ctx.decode(ctx.encode(all)) as List<*>
            assertEquals(all, first)
            val other = List(all.size) { "#".repeat(it % 41) }
            assertEquals(other, ctx.decode(ctx.encode(other)))
            assertEquals(all, first)
            // Latin-1 and UTF-16 text (a surrogate pair) as map keys and values
            val m = linkedMapOf<Any?, Any?>("caf\u00e9 00001" to "na\u00efve-00002", "\ud83d\ude00 wide" to 1L, "" to "x")
            assertEquals(m, ctx.decode(ctx.encode(m)))
        }
        // a fresh context's tape buffer (4 KiB) grown for a larger tape; a truncated payload gives
        // its own error at the offset where it ends, not the buffer's, and the context goes on
        val big = List(2000) { "value %05d".format(it) }
        val bytes = Context().use { it.encode(big) }
        Context().use { ctx ->
            val e = assertThrows<WireException> { ctx.decode(bytes.copyOf(bytes.size - 3)) }
            assertEquals(Status.TRUNCATED, e.status, e.toString())
            assertEquals(big, ctx.decode(bytes))
        }
    }
}
