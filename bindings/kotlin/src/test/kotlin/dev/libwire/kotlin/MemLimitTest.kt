package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

/** A writer's version of ml.S: its one bool field, one byte a list item in compatible mode. */
data class SmallS(val b: Boolean)
data class SmallM(val items: List<SmallS>)

/** The reader's ml.S: 100 int64 fields more, an image of some 800 bytes an item. */
data class BigS(val b: Boolean, val f1: Long, val f2: Long, val f3: Long, val f4: Long, val f5: Long, val f6: Long, val f7: Long, val f8: Long, val f9: Long, val f10: Long, val f11: Long, val f12: Long, val f13: Long, val f14: Long, val f15: Long, val f16: Long, val f17: Long, val f18: Long, val f19: Long, val f20: Long, val f21: Long, val f22: Long, val f23: Long, val f24: Long, val f25: Long, val f26: Long, val f27: Long, val f28: Long, val f29: Long, val f30: Long, val f31: Long, val f32: Long, val f33: Long, val f34: Long, val f35: Long, val f36: Long, val f37: Long, val f38: Long, val f39: Long, val f40: Long, val f41: Long, val f42: Long, val f43: Long, val f44: Long, val f45: Long, val f46: Long, val f47: Long, val f48: Long, val f49: Long, val f50: Long, val f51: Long, val f52: Long, val f53: Long, val f54: Long, val f55: Long, val f56: Long, val f57: Long, val f58: Long, val f59: Long, val f60: Long, val f61: Long, val f62: Long, val f63: Long, val f64: Long, val f65: Long, val f66: Long, val f67: Long, val f68: Long, val f69: Long, val f70: Long, val f71: Long, val f72: Long, val f73: Long, val f74: Long, val f75: Long, val f76: Long, val f77: Long, val f78: Long, val f79: Long, val f80: Long, val f81: Long, val f82: Long, val f83: Long, val f84: Long, val f85: Long, val f86: Long, val f87: Long, val f88: Long, val f89: Long, val f90: Long, val f91: Long, val f92: Long, val f93: Long, val f94: Long, val f95: Long, val f96: Long, val f97: Long, val f98: Long, val f99: Long, val f100: Long)
data class BigM(val items: List<BigS>)

/** BigS with defaults: the tape path builds one from the writer's one field (without defaults it is a "schema" error). */
data class BigSD(val b: Boolean, val f1: Long = 0, val f2: Long = 0, val f3: Long = 0, val f4: Long = 0, val f5: Long = 0, val f6: Long = 0, val f7: Long = 0, val f8: Long = 0, val f9: Long = 0, val f10: Long = 0, val f11: Long = 0, val f12: Long = 0, val f13: Long = 0, val f14: Long = 0, val f15: Long = 0, val f16: Long = 0, val f17: Long = 0, val f18: Long = 0, val f19: Long = 0, val f20: Long = 0, val f21: Long = 0, val f22: Long = 0, val f23: Long = 0, val f24: Long = 0, val f25: Long = 0, val f26: Long = 0, val f27: Long = 0, val f28: Long = 0, val f29: Long = 0, val f30: Long = 0, val f31: Long = 0, val f32: Long = 0, val f33: Long = 0, val f34: Long = 0, val f35: Long = 0, val f36: Long = 0, val f37: Long = 0, val f38: Long = 0, val f39: Long = 0, val f40: Long = 0, val f41: Long = 0, val f42: Long = 0, val f43: Long = 0, val f44: Long = 0, val f45: Long = 0, val f46: Long = 0, val f47: Long = 0, val f48: Long = 0, val f49: Long = 0, val f50: Long = 0, val f51: Long = 0, val f52: Long = 0, val f53: Long = 0, val f54: Long = 0, val f55: Long = 0, val f56: Long = 0, val f57: Long = 0, val f58: Long = 0, val f59: Long = 0, val f60: Long = 0, val f61: Long = 0, val f62: Long = 0, val f63: Long = 0, val f64: Long = 0, val f65: Long = 0, val f66: Long = 0, val f67: Long = 0, val f68: Long = 0, val f69: Long = 0, val f70: Long = 0, val f71: Long = 0, val f72: Long = 0, val f73: Long = 0, val f74: Long = 0, val f75: Long = 0, val f76: Long = 0, val f77: Long = 0, val f78: Long = 0, val f79: Long = 0, val f80: Long = 0, val f81: Long = 0, val f82: Long = 0, val f83: Long = 0, val f84: Long = 0, val f85: Long = 0, val f86: Long = 0, val f87: Long = 0, val f88: Long = 0, val f89: Long = 0, val f90: Long = 0, val f91: Long = 0, val f92: Long = 0, val f93: Long = 0, val f94: Long = 0, val f95: Long = 0, val f96: Long = 0, val f97: Long = 0, val f98: Long = 0, val f99: Long = 0, val f100: Long = 0)
data class BigMD(val items: List<BigSD>)

/**
 * Limit.MEM_DECODE (WIRE_LIMIT_MEM_DECODE): a compatible writer's list of one-byte structs that the
 * reader's data class makes images of hundreds of bytes is refused with a "limit" error at the
 * default (512 bytes per payload byte + 1 MiB), and decodes once the limit is raised; the same
 * through the heap arena and through native copies (-Dlibwire.decodeCopies).
 */
class MemLimitTest {
    private val writerFdl = """
        package ml;
        message S [id=501] { bool b = 1; }
        message M [id=502] { list<S> items = 1; }
    """.trimIndent()
    private val readerFdl = """
        package ml;
        message S [id=501] { bool b = 1; int64 f1 = 2; int64 f2 = 3; int64 f3 = 4; int64 f4 = 5; int64 f5 = 6; int64 f6 = 7; int64 f7 = 8; int64 f8 = 9; int64 f9 = 10; int64 f10 = 11; int64 f11 = 12; int64 f12 = 13; int64 f13 = 14; int64 f14 = 15; int64 f15 = 16; int64 f16 = 17; int64 f17 = 18; int64 f18 = 19; int64 f19 = 20; int64 f20 = 21; int64 f21 = 22; int64 f22 = 23; int64 f23 = 24; int64 f24 = 25; int64 f25 = 26; int64 f26 = 27; int64 f27 = 28; int64 f28 = 29; int64 f29 = 30; int64 f30 = 31; int64 f31 = 32; int64 f32 = 33; int64 f33 = 34; int64 f34 = 35; int64 f35 = 36; int64 f36 = 37; int64 f37 = 38; int64 f38 = 39; int64 f39 = 40; int64 f40 = 41; int64 f41 = 42; int64 f42 = 43; int64 f43 = 44; int64 f44 = 45; int64 f45 = 46; int64 f46 = 47; int64 f47 = 48; int64 f48 = 49; int64 f49 = 50; int64 f50 = 51; int64 f51 = 52; int64 f52 = 53; int64 f53 = 54; int64 f54 = 55; int64 f55 = 56; int64 f56 = 57; int64 f57 = 58; int64 f58 = 59; int64 f59 = 60; int64 f60 = 61; int64 f61 = 62; int64 f62 = 63; int64 f63 = 64; int64 f64 = 65; int64 f65 = 66; int64 f66 = 67; int64 f67 = 68; int64 f68 = 69; int64 f69 = 70; int64 f70 = 71; int64 f71 = 72; int64 f72 = 73; int64 f73 = 74; int64 f74 = 75; int64 f75 = 76; int64 f76 = 77; int64 f77 = 78; int64 f78 = 79; int64 f79 = 80; int64 f80 = 81; int64 f81 = 82; int64 f82 = 83; int64 f83 = 84; int64 f84 = 85; int64 f85 = 86; int64 f86 = 87; int64 f87 = 88; int64 f88 = 89; int64 f89 = 90; int64 f90 = 91; int64 f91 = 92; int64 f92 = 93; int64 f93 = 94; int64 f94 = 95; int64 f95 = 96; int64 f96 = 97; int64 f97 = 98; int64 f98 = 99; int64 f99 = 100; int64 f100 = 101; }
        message M [id=502] { list<S> items = 1; }
    """.trimIndent()

    private val items = 20000

    private fun payload(): ByteArray = Context(WireOptions.COMPATIBLE).use { w ->
        w.registerSchemaText(writerFdl, "w.fdl")
        w.registerDataClass(SmallS::class, "ml.S")
        w.registerDataClass(SmallM::class, "ml.M")
        w.encode(SmallM(List(items) { SmallS(it % 3 == 0) }))
    }

    private fun reader(limit: Long? = null, copies: Boolean = false): Context {
        if (copies) System.setProperty("libwire.decodeCopies", "true")
        try {
            val c = Context(WireOptions(compatible = true, limits = limit?.let { mapOf(Limit.MEM_DECODE to it) } ?: emptyMap()))
            c.registerSchemaText(readerFdl, "r.fdl")
            c.registerDataClass(BigS::class, "ml.S")
            c.registerDataClass(BigM::class, "ml.M")
            assertTrue(c.hasLayout(BigM::class), c.layoutProblem(BigM::class))
            return c
        } finally {
            if (copies) System.clearProperty("libwire.decodeCopies")
        }
    }

    private fun checkItems(m: BigM) {
        assertEquals(items, m.items.size)
        for ((i, s) in m.items.withIndex()) {
            assertEquals(i % 3 == 0, s.b)
            assertEquals(0L, s.f100)
        }
    }

    @Test fun theDefaultRefusesAmplificationAndARaisedLimitTakesIt() {
        val bytes = payload()
        assertTrue(bytes.size < 2 * items, "${bytes.size} bytes")
        for (copies in listOf(false, true)) {
            reader(copies = copies).use { c ->
                assertEquals(512L, c.getLimit(Limit.MEM_DECODE))
                val e = assertThrows<WireException> { c.decode(bytes, BigM::class) }
                assertEquals("limit", e.cls, e.message)
                assertEquals(Status.LIMIT, e.status)
                assertTrue(e.offset in 0..bytes.size.toLong(), "offset ${e.offset}")
                assertTrue(e.detail.contains("WIRE_LIMIT_MEM_DECODE"), e.detail)
                // raised on the context: decoded, every item
                c.setLimit(Limit.MEM_DECODE, 4096L)
                checkItems(c.decode(bytes, BigM::class))
                checkItems(c.decode(bytes) as BigM)
                // and back: refused again
                c.setLimit(Limit.MEM_DECODE, 512L)
                assertEquals("limit", assertThrows<WireException> { c.decode(bytes, BigM::class) }.cls)
            }
            // raised through the options
            reader(limit = 4096L, copies = copies).use { c -> checkItems(c.decode(bytes, BigM::class)) }
            // a few items fit within the 1 MiB whatever the limit
            reader(limit = 0L, copies = copies).use { c ->
                val few = Context(WireOptions.COMPATIBLE).use { w ->
                    w.registerSchemaText(writerFdl, "w.fdl")
                    w.registerDataClass(SmallS::class, "ml.S")
                    w.registerDataClass(SmallM::class, "ml.M")
                    w.encode(SmallM(List(100) { SmallS(true) }))
                }
                assertEquals(100, c.decode(few, BigM::class).items.size)
            }
        }
    }

    /**
     * The same payload through the tape path (decodeAll: Tape.kt builds the objects): each item is
     * a BigSD made from the writer's one field and the class's defaults, charged its estimate
     * (16 + 8 × 101 bytes) against the same budget, so the default refuses it with the same
     * "limit" error (at offset 0: the read tape carries no payload offsets) and a raised limit
     * decodes it.
     */
    @Test fun theTapePathHasTheSameCeiling() {
        val bytes = payload()
        Context(WireOptions.COMPATIBLE).use { c ->
            c.registerSchemaText(readerFdl, "r.fdl")
            c.registerDataClass(BigSD::class, "ml.S")
            c.registerDataClass(BigMD::class, "ml.M")
            val e = assertThrows<WireException> { c.decodeAll(bytes) }
            assertEquals("limit", e.cls, e.message)
            assertEquals(Status.LIMIT, e.status)
            assertEquals(0L, e.offset)
            assertTrue(e.detail.contains("WIRE_LIMIT_MEM_DECODE"), e.detail)
            c.setLimit(Limit.MEM_DECODE, 4096L)
            val m = c.decodeAll(bytes).single() as BigMD
            assertEquals(items, m.items.size)
            for ((i, s) in m.items.withIndex()) {
                assertEquals(i % 3 == 0, s.b)
                assertEquals(0L, s.f100)
            }
            c.setLimit(Limit.MEM_DECODE, 512L)
            assertEquals("limit", assertThrows<WireException> { c.decodeAll(bytes) }.cls)
        }
    }
}
