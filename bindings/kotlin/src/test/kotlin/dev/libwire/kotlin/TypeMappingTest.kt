package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.math.BigDecimal
import java.math.BigInteger
import java.time.Duration
import java.time.Instant
import java.time.LocalDate

/** Kotlin values ↔ bytes, checked against what the Fory Java runtime 1.6.0 writes (conformance/peers/java/PROBES.md). */
class TypeMappingTest {
    private fun check(value: Any?, expectHex: String, options: WireOptions = WireOptions.DEFAULT) {
        val bytes = Wire.encode(value, options)
        assertEquals(expectHex, hex(bytes), "encode $value")
        val back = Wire.decode(bytes, options)
        assertTrue(deepEq(value, back), "decode of $expectHex gave $back, expected $value")
    }

    @Test fun scalars() {
        check(true, "01ff0101")
        check(5L, "01ff070a")
        check(1, "01ff0502")
        check(-1, "01ff0501")
        check(3.toByte(), "01ff0203")
        check(258.toShort(), "01ff03" + "0201")
        check(1.5, "01ff14" + "000000000000f83f")
        check(1.5f, "01ff13" + "0000c03f")
        check(null, "01fd")
    }

    @Test fun strings() {
        check("hi", "01ff15086869")
        check("héllo", "01ff151468e96c6c6f")
        check("日本", "01ff1511e5652c67")
        check("aé日", "01ff151a61c3a9e697a5")
        check("😀", "01ff15113dd800de")
        check("", "01ff1500")
    }

    @Test fun utf16TextOfLatin1Chars() {
        // UTF-16 on the wire whose chars all fit in a byte (another writer's choice) decodes to
        // the String the JVM makes of those chars (a compact one: String.equals compares the
        // runtime's coder first), through the tape path and a data class's compiled codec
        // (when java.lang is open, as in the tests by default, the runtime's String internals are
        // in use: the start-up probe of JStr, its constructor included, passed)
        if (String::class.java.module.isOpen("java.lang", JStr::class.java.module)) assertTrue(JStr.OPEN)
        val s = Wire.decode(unhex("01ff1511" + "6800e900")) as String
        assertEquals("h\u00e9", s)
        assertEquals("h\u00e9".hashCode(), s.hashCode())
        assertEquals("\u1234a", Wire.decode(unhex("01ff1511" + "34126100")))
        Context(WireOptions.COMPATIBLE).use { ctx ->
            ctx.registerSchema(repoRoot.resolve("fixtures/schemas/xlang/test_item.fdl"))
            ctx.registerDataClass(Item::class, "Item")
            assertTrue(ctx.hasLayout(Item::class))
            val wide = ctx.encode(Item("\u1234a"))
            val at = hex(wide).indexOf("34126100") / 2
            assertTrue(at > 0, hex(wide))
            val narrow = wide.copyOf().also { byteArrayOf(0x68, 0, 0xe9.toByte(), 0).copyInto(it, at) }
            assertEquals(Item("h\u00e9"), ctx.decode(narrow, Item::class))
            assertEquals(Item("\u1234a"), ctx.decode(wide, Item::class))
        }
    }

    @Test fun collections() {
        check(listOf(1L, "a", null), "01ff160302ff0702ff150461fd")
        check(emptyList<Any>(), "01ff1600")
        check(listOf(1L, 2L), "01ff160208070204")
        check(mapOf(null to 1L), "01ff18010aff0702")
        check(mapOf("a" to null), "01ff180111ff150461")
        check(linkedMapOf("a" to 1L, "b" to "x"), "01ff1802000115070461020001151504620478")
        check(linkedSetOf("a"), "01ff170108150461")
    }

    @Test fun refTracking() {
        val ref = WireOptions(refTracking = true)
        check(listOf(1L, 2L), "0100160208070204", ref)
        check(5L, "0100070a", ref)
        val inner = arrayListOf<Any?>(1L)
        val bytes = Wire.encode(listOf(inner, inner), ref)
        assertEquals("0100160209160001080702fe01", hex(bytes))
        val back = Wire.decode(bytes, ref) as List<*>
        assertTrue(back[0] === back[1], "shared list decodes to one instance")
        // a list containing itself
        val self = ArrayList<Any?>()
        self.add(self)
        val cyc = Wire.encode(self, ref)
        assertEquals("010016010916fe00", hex(cyc))
        val d = Wire.decode(cyc, ref) as List<*>
        assertTrue(d[0] === d)
        // without ref tracking the shared list is written twice
        assertEquals("01ff160208160108070201080702", hex(Wire.encode(listOf(inner, inner), WireOptions())))
    }

    @Test fun timeAndDecimal() {
        check(LocalDate.of(2021, 11, 23), "01ff2794a802")
        check(Instant.ofEpochSecond(100), "01ff26640000000000000000000000")
        check(Duration.ofMillis(-500), "01ff25010065cd1d")
        check(BigDecimal("123.45"), "01ff2804e48103")
        check(BigDecimal.ZERO, "01ff280000")
        check(BigDecimal(BigInteger.ONE.shiftLeft(62)), "01ff2800210000000000000040")
        check(BigDecimal(BigInteger.ONE.shiftLeft(62).negate().subtract(BigInteger.ONE)), "01ff2800230100000000000040")
        check(BigDecimal(BigInteger.valueOf(-1), -3), "01ff280502")
    }

    @Test fun arrays() {
        check(byteArrayOf(1, 2, 3), "01ff2903010203")
        check(intArrayOf(1, -1), "01ff2e08" + "01000000" + "ffffffff")
        check(longArrayOf(7), "01ff2f08" + "0700000000000000")
        check(shortArrayOf(1, 2), "01ff2d04" + "0100" + "0200")
        check(booleanArrayOf(true, false), "01ff2b020100")
        check(floatArrayOf(1f), "01ff3704" + "0000803f")
        check(doubleArrayOf(1.0), "01ff3808" + "000000000000f03f")
        // arrays and binaries are read from the payload (SPAN ops) at their offsets, shared ones
        // stay shared, and empty ones are copied as usual
        val ref = WireOptions(refTracking = true)
        val longs = longArrayOf(1, -2, Long.MAX_VALUE)
        val bin = byteArrayOf(9, 8, 7)
        val v = listOf("x", longs, bin, longs, bin, byteArrayOf(), intArrayOf(), shortArrayOf(-1, 2))
        val back = Wire.decode(Wire.encode(v, ref), ref) as List<*>
        assertTrue(deepEq(v, back), "$back")
        assertTrue(back[1] === back[3] && back[2] === back[4])
        assertTrue(back[1] !== longs && back[2] !== bin)
    }

    @Test fun floats16AndUnsignedArrays() {
        check(Float16.of(1.5f), "01ff11003e")
        check(BFloat16.of(1.5f), "01ff12c03f")
        check(Float16Array(shortArrayOf(0x3e00)), "01ff3502003e")
        @OptIn(ExperimentalUnsignedTypes::class)
        check(uintArrayOf(1u, 4000000000u), "01ff3208" + "01000000" + "00286bee")
        check(WireNone, "01ff24")
        assertEquals(1.5f, Float16.of(1.5f).toFloat())
        assertEquals(1.5f, BFloat16.of(1.5f).toFloat())
    }

    @Test fun unsigned() {
        check(200.toUByte(), "01ff09c8")
        check(60000.toUShort(), "01ff0a60ea")
        check(4000000000u, "01ff0b0028 6bee".replace(" ", ""))
        check(1uL, "01ff0d0100000000000000")
    }

    @Test fun decodeAllRoots() {
        val bytes = Wire.encode("a") + Wire.encode(2L)
        assertEquals(listOf("a", 2L), Wire.decodeAll(bytes))
        assertThrows<WireException> { Wire.decode(bytes) }
    }

    @Test fun errors() {
        val e = assertThrows<WireException> { Wire.decode(unhex("01ff1508686")) }
        assertEquals("truncated", e.cls)
        assertEquals(Status.TRUNCATED, e.status)
        assertTrue(e.offset in 0..6, "offset ${e.offset}")
        val v = assertThrows<WireException> { Wire.decode(unhex("01ff0102")) }
        assertEquals("value", v.cls)
        assertEquals(3L, v.offset)
        val u = assertThrows<WireException> { Wire.encode(Any()) }
        assertEquals("unsupported", u.cls)
        val h = assertThrows<WireException> { Wire.decode(unhex("02ff0101")) }
        assertEquals("header", h.cls)
        assertEquals(0L, h.offset)
    }

    @Test fun limits() {
        val opts = WireOptions(limits = mapOf(Limit.COLLECTION to 2L))
        val bytes = Wire.encode(listOf(1L, 2L, 3L))
        val e = assertThrows<WireException> { Wire.decode(bytes, opts) }
        assertEquals("limit", e.cls)
        Context(opts).use { assertEquals(2L, it.getLimit(Limit.COLLECTION)) }
        assertNull(Wire.decode(Wire.encode(null)))
        assertArrayEquals(byteArrayOf(), Wire.decode(Wire.encode(byteArrayOf())) as ByteArray)
    }
}
