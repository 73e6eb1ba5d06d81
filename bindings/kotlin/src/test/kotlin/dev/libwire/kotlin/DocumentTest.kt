package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.math.BigDecimal

/** The lower-level Document API: type ids and wire choices. */
class DocumentTest {
    @Test fun buildWithWireChoices() {
        Context().use { ctx ->
            Document(ctx).use { doc ->
                val list = doc.newList()
                list.append(doc.newInt(TypeId.INT32, 1))          // fixed-width int32
                list.append(doc.newString("hi", StringEncoding.UTF16))
                list.append(doc.newUint(TypeId.VAR_UINT64, -1))   // 2^64-1
                list.append(doc.newFloat(TypeId.FLOAT16, 1.5))
                doc.addRoot(list)
                val bytes = doc.encode()
                assertEquals("01ff16040004010000001511680069000effffffffffffffffff11003e", hex(bytes))
                Document.decode(ctx, bytes).use { d ->
                    val l = d.root(0)
                    assertEquals(TypeId.LIST, l.type)
                    assertEquals(4, l.count)
                    assertEquals(0, l.listHeader)
                    assertEquals(TypeId.INT32, l.child(0).type)
                    assertEquals(1L, l.child(0).int)
                    assertEquals("hi", l.child(1).text)
                    assertEquals(StringEncoding.UTF16, l.child(1).stringEncoding)
                    assertEquals(-1L, l.child(2).uint)
                    assertEquals(0x3e00L, l.child(3).floatBits)
                    assertEquals(1.5, l.child(3).float)
                    assertArrayEquals(bytes, d.encode())
                }
            }
        }
    }

    @Test fun mapChunksAndRefs() {
        Context(WireOptions(refTracking = true)).use { ctx ->
            val input = unhex("0100160209160001080702fe01")
            Document.decode(ctx, input).use { d ->
                val outer = d.root(0)
                assertEquals(outer.child(0), outer.child(1))           // one shared node
                assertEquals(1, outer.child(0).tracked)
                assertEquals(9, outer.listHeader)
                assertArrayEquals(input, d.encode())
            }
        }
        Context().use { ctx ->
            val input = unhex("01ff1802000115070461020001151504620478")
            Document.decode(ctx, input).use { d ->
                val m = d.root(0)
                assertEquals(listOf(0 to 1, 0 to 1), m.chunks)
                assertEquals("a", m.mapKey(0).text)
                assertEquals(1L, m.mapValue(0).int)
            }
            Document(ctx).use { d ->
                val m = d.newMap()
                m.put(d.newString("a"), d.newInt(TypeId.VARINT64, 1))
                m.put(d.newString("b"), d.newInt(TypeId.VARINT64, 2))
                m.addChunk(0, 1)
                m.addChunk(0, 1)  // force two chunks where the policy writes one
                d.addRoot(m)
                assertEquals("01ff18020001150704610200011507046204", hex(d.encode()))
                m.clearChunks()
                assertEquals("01ff180200021507046102046204", hex(d.encode()))
            }
        }
    }

    /** The name choices of a named value (set, read back), and of a value without names (the fallbacks). */
    @Test fun nameChoices() {
        Context().use { ctx ->
            Document(ctx).use { d ->
                val e = d.newNamedEnum("ns", "color", 3)
                assertEquals(-1 to -1, e.nameEncodings) // the policy's
                e.nameEncodings = 0 to 2
                assertEquals(0 to 2, e.nameEncodings)
                assertEquals(0 to 0, e.nameHashForms)
                e.nameHashForms = 1 to 0
                assertEquals(1 to 0, e.nameHashForms)
                assertEquals(false to false, e.nameRefs)
                e.nameRefs = false to true
                assertEquals(false to true, e.nameRefs)
                val i = d.newInt(TypeId.INT32, 1)
                assertEquals(-1 to -1, i.nameEncodings)
                assertEquals(0 to 0, i.nameHashForms)
                assertEquals(false to false, i.nameRefs)
                d.addRoot(e)
                Document.decode(ctx, d.encode()).use { x -> assertEquals(0 to 2, x.root(0).nameEncodings) }
            }
        }
    }

    @Test fun scalarsAndErrors() {
        Context().use { ctx ->
            Document(ctx).use { d ->
                d.addRoot(d.newDecimal(BigDecimal("-12.5")))
                d.addRoot(d.newTimestamp(100, 5))
                d.addRoot(d.newNamedEnum("ns", "color", 3))
                d.addRoot(d.newArray(TypeId.UINT16_ARRAY, byteArrayOf(1, 0, 2, 0)))
                val b = d.encode()
                Document.decode(ctx, b).use { x ->
                    assertEquals(BigDecimal("-12.5"), x.root(0).decimal)
                    assertEquals(100L, x.root(1).int)
                    assertEquals(5, x.root(1).nanos)
                    assertEquals("ns", x.root(2).enumNamespace)
                    assertEquals("color", String(x.root(2).bytes))
                    assertEquals(3, x.root(2).enumValue)
                    assertEquals(4, x.rootCount)
                    assertArrayEquals(byteArrayOf(1, 0, 2, 0), x.root(3).bytes)
                    assertNull(x.root(0).userType)
                }
                val e = assertThrows<WireException> { d.newInt(TypeId.INT8, 1000) }
                assertEquals("value", e.cls)
            }
            val t = assertThrows<WireException> { Document.decode(ctx, unhex("01ff07")) }
            assertEquals("truncated", t.cls)
            assertEquals(3L, t.offset)
        }
        assertEquals("var_uint32", TypeId.name(TypeId.VAR_UINT32))
        assertEquals(TypeId.FLOAT16_ARRAY, TypeId.fromName("float16_array"))
        assertEquals(8, TypeId.arrayWidth(TypeId.FLOAT64_ARRAY))
    }
}

class LifecycleTest {
    @Test fun closedObjectsRefuseUse() {
        val ctx = Context()
        val doc = Document(ctx)
        val n = doc.newString("x")
        ctx.close()                      // closes the open document first
        assertThrows<IllegalStateException> { n.text }
        assertThrows<IllegalStateException> { doc.newNull() }
        assertThrows<IllegalStateException> { ctx.encode(1) }
        ctx.close()                      // idempotent
    }

    @Test fun threadsGetTheirOwnContexts() {
        val errors = java.util.concurrent.ConcurrentLinkedQueue<Throwable>()
        val threads = (0 until 4).map { t ->
            Thread {
                try {
                    repeat(200) { i ->
                        val v = listOf(t.toLong(), "s$i", mapOf("k" to i))
                        assertEquals(v, Wire.decode(Wire.encode(v)))
                    }
                } catch (e: Throwable) {
                    errors.add(e)
                }
            }
        }
        threads.forEach { it.start() }
        threads.forEach { it.join() }
        assertEquals(emptyList<Throwable>(), errors.toList())
    }
}

class DumpProjectTapeTest {
    @Test fun dumpListsByteRanges() {
        Context().use { ctx ->
            val d = ctx.dump(unhex("01ff15086869"))
            assertNull(d.error)
            assertEquals(0L, d.lines.first().offset)
            assertTrue(d.lines.any { it.text.contains("hi") }, d.lines.toString())
            val bad = ctx.dump(unhex("01ff1508"))
            assertEquals("truncated", bad.error?.cls)
        }
    }

    @Test fun projectAcrossSchemaVersions() {
        val case = dev.libwire.kotlin.testee.Json.parse(
            java.nio.file.Files.readString(repoRoot.resolve("fixtures/xlang-corpus/test_schema_evolution_compatible_reverse.json")),
        ) as Map<*, *>
        Context(WireOptions.COMPATIBLE).use { ctx ->
            ctx.registerSchema(repoRoot.resolve(case["reader_schema"] as String))
            Document.decode(ctx, unhex(case["java_hex"] as String)).use { doc ->
                val root = doc.root(0)
                val p = root.project(root.userType!!)
                val names = (0 until p.count).map { p.fieldName(it) }
                assertEquals(listOf("f1", "f2"), names)
                assertEquals("only_one", p.field(0)!!.text)
                assertEquals("", p.field(1)!!.text)
            }
        }
    }

    @Test fun documentFromTape() {
        Context().use { ctx ->
            val n = TapeEncoder(ctx).write(listOf(listOf(1L, "a", null)))
            Document(ctx).use { d ->
                d.addTape(ctx.tapeBuffer.copyOf(n))
                assertEquals("01ff160302ff0702ff150461fd", hex(d.encode()))
            }
        }
    }
}
