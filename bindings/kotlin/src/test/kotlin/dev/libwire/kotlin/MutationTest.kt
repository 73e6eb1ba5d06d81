package dev.libwire.kotlin

import dev.libwire.kotlin.bench.BenchValues
import dev.libwire.kotlin.bench.MediaContent
import dev.libwire.kotlin.bench.NumericStruct
import dev.libwire.kotlin.bench.Order
import dev.libwire.kotlin.bench.OrderGraph
import dev.libwire.kotlin.bench.Sample
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Test
import java.lang.management.ManagementFactory
import kotlin.reflect.KClass

/**
 * Hostile input through both codec paths: seeded mutants of the benchmark's payloads (NumericStruct,
 * Sample, MediaContent, the order graph with reference tracking) decoded by the compiled codecs
 * (`decode(bytes, K::class)`) and by the tape path (`decodeAll`). Each decode gives a value or a
 * [WireException] with a known status and an offset inside the input (or -1), never another
 * exception; the JVM heap it allocates stays within a bound of the input's size; and the context
 * still decodes the original afterwards. `-Dmutation.count=N` sets the mutants per payload.
 */
class MutationTest {
    private val count = Integer.getInteger("mutation.count", 2500)

    /** A mutant of [good]: bytes replaced, set to varint and flag edges, cut, removed, inserted, repeated. */
    private fun mutant(good: ByteArray, r: java.util.Random): ByteArray {
        var m = good.copyOf()
        repeat(1 + r.nextInt(3)) {
            val at = r.nextInt(m.size)
            when (r.nextInt(6)) {
                0 -> m[at] = r.nextInt(256).toByte()
                1 -> m[at] = EDGES[r.nextInt(EDGES.size)]
                2 -> m = m.copyOf(at)
                3 -> m = m.copyOfRange(0, at) + m.copyOfRange(minOf(m.size, at + 1 + r.nextInt(4)), m.size)
                4 -> m = m.copyOfRange(0, at) + ByteArray(1 + r.nextInt(4)) { r.nextInt(256).toByte() } + m.copyOfRange(at, m.size)
                else -> { val n = minOf(m.size - at, 1 + r.nextInt(16)); m = m.copyOfRange(0, at + n) + m.copyOfRange(at, m.size) }
            }
            if (m.isEmpty()) m = byteArrayOf(EDGES[r.nextInt(EDGES.size)])
        }
        return m
    }

    /**
     * [m] with the hash of each TypeDef header that libwire refuses for its hash made right (as
     * the C and Go fuzz targets do), so that mutants of TypeDef bodies reach what lies behind the
     * check: the mapping of a writer's fields to the class.
     */
    private fun repaired(c: Context, m: ByteArray): ByteArray {
        var out = m
        repeat(16) {
            val e = try { c.decodeAll(out); return out } catch (e: WireException) { e }
            if (e.cls != "typedef" || !e.detail.contains("hash")) return out
            val fixed = typedefHash(out, e.offset.toInt()) ?: return out
            if (out === m) { out = m.copyOf(); repairs++ }
            for (i in 0 until 8) out[e.offset.toInt() + i] = (fixed ushr (8 * i)).toByte()
        }
        return out
    }

    private var repairs = 0
    private val errors = sortedMapOf<String, Int>()
    private val threads = ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean

    /** Runs [decode] on [m]; fails on anything but a value or a well-formed WireException. */
    private fun check(what: String, m: ByteArray, decode: (ByteArray) -> Any?) {
        val tid = Thread.currentThread().threadId()
        val before = threads.getThreadAllocatedBytes(tid)
        try {
            decode(m)
        } catch (e: WireException) {
            assertTrue(e.status in 1 until 64 && Status.fromName(e.cls) == e.status) { "$what: status ${e.status} '${e.cls}' for ${hex(m)}" }
            assertTrue(e.offset >= -1 && e.offset <= m.size) { "$what: offset ${e.offset} of ${m.size} for ${hex(m)}" }
            errors.merge(e.cls, 1, Int::plus)
        } catch (e: Throwable) {
            fail<Unit>("$what: ${e.javaClass.name} for ${hex(m)}", e)
        }
        val used = threads.getThreadAllocatedBytes(tid) - before
        assertTrue(used <= HEAP_PER_BYTE * m.size + HEAP_BASE) { "$what: $used bytes of heap for ${m.size} input bytes: ${hex(m)}" }
    }

    private fun <T : Any> mutate(c: Context, good: T, k: KClass<T>, seed: Long) {
        val bytes = c.encode(good)
        val r = java.util.Random(seed)
        repeat(count) {
            val m = mutant(bytes, r).let { if (it.size > 0 && r.nextBoolean()) repaired(c, it) else it }
            check("${k.simpleName} compiled", m) { c.decode(it, k) }
            check("${k.simpleName} tape", m) { c.decodeAll(it) }
        }
        assertEquals(good, c.decode(bytes, k))
        assertEquals(listOf(good), c.decodeAll(bytes))
        assertTrue(errors.size > 5, "${k.simpleName}: error classes $errors")
        assertTrue(repairs > count / 100, "TypeDef hashes repaired in $repairs mutants of ${k.simpleName}")
        errors.clear()
        repairs = 0
    }

    @Test fun benchStructs() {
        BenchValues.context().use { c ->
            for (k in listOf(NumericStruct::class, Sample::class, MediaContent::class))
                assertTrue(c.hasLayout(k), c.layoutProblem(k))
            mutate(c, BenchValues.numericStruct(), NumericStruct::class, 1)
            mutate(c, BenchValues.sample(), Sample::class, 2)
            mutate(c, BenchValues.mediaContent(), MediaContent::class, 3)
        }
    }

    @Test fun orderGraph() {
        OrderGraph.context().use { c ->
            assertTrue(c.hasLayout(Order::class), c.layoutProblem(Order::class))
            val orders = OrderGraph.create()
            mutate(c, orders[0], Order::class, 4)
            mutate(c, orders[3], Order::class, 5)
        }
    }

    /** A payload whose root is not the class asked for: a WireException, on both paths. */
    @Test fun aRootOfAnotherTypeIsAWireException() {
        BenchValues.context().use { c ->
            val cases = listOf<Pair<Any?, KClass<*>>>(
                5 to String::class, "x" to NumericStruct::class, listOf(1L) to Map::class,
                BenchValues.numericStruct() to MediaContent::class, BenchValues.numericStruct() to String::class,
                null to String::class, null to NumericStruct::class,
            )
            for ((v, k) in cases) {
                val bytes = c.encode(v)
                val e = org.junit.jupiter.api.assertThrows<WireException>("$v as ${k.simpleName}") { c.decode(bytes, k) }
                assertTrue(e.status > 0 && e.offset >= -1 && e.offset <= bytes.size, "$e")
            }
        }
    }

    private companion object {
        fun le64(b: ByteArray, at: Int): Long {
            var v = 0L
            for (i in 7 downTo 0) v = (v shl 8) or (b[at + i].toLong() and 0xff)
            return v
        }

        /** The header the TypeDef at [off] of [b] should have: its 52-bit hash of the body (spec/01-primitives.md). */
        fun typedefHash(b: ByteArray, off: Int): Long? {
            if (off < 0 || b.size - off < 8) return null
            val header = le64(b, off)
            var at = off + 8
            var size = (header and 0xff).toInt()
            if (size == 0xff) {
                var shift = 0
                var extra = 0
                while (true) {
                    if (at >= b.size || shift > 28) return null
                    val x = b[at++].toInt() and 0xff
                    extra = extra or ((x and 0x7f) shl shift)
                    if (x < 0x80) break
                    shift += 7
                }
                size += extra
            }
            if (size < 0 || size > b.size - at) return null
            val buf = ByteArray(size + 2)
            System.arraycopy(b, at, buf, 0, size)
            buf[size] = header.toByte()
            buf[size + 1] = ((header ushr 8) and 0x0f).toByte()
            var h = murmur3(buf) shl 12
            if (h < 0 && h != Long.MIN_VALUE) h = -h
            return (h and -0x1000L) or (header and 0xfff)
        }

        fun fmix(x: Long): Long {
            var k = x
            k = k xor (k ushr 33)
            k *= -0xae502812aa7333L // 0xff51afd7ed558ccd
            k = k xor (k ushr 33)
            k *= -0x3b314601e57a13adL // 0xc4ceb9fe1a85ec53
            return k xor (k ushr 33)
        }

        /** The first 64 bits of MurmurHash3_x64_128 of [d], seed 47. */
        fun murmur3(d: ByteArray): Long {
            val c1 = -0x783c846eeebdac2bL // 0x87c37b91114253d5
            val c2 = 0x4cf5ad432745937fL
            var h1 = 47L
            var h2 = 47L
            val blocks = d.size / 16
            for (i in 0 until blocks) {
                val k1 = java.lang.Long.rotateLeft(le64(d, 16 * i) * c1, 31) * c2
                h1 = (java.lang.Long.rotateLeft(h1 xor k1, 27) + h2) * 5 + 0x52dce729
                val k2 = java.lang.Long.rotateLeft(le64(d, 16 * i + 8) * c2, 33) * c1
                h2 = (java.lang.Long.rotateLeft(h2 xor k2, 31) + h1) * 5 + 0x38495ab5
            }
            var k1 = 0L
            var k2 = 0L
            val t = 16 * blocks
            for (i in d.size - 1 downTo t) {
                val x = d[i].toLong() and 0xff
                if (i - t >= 8) k2 = k2 xor (x shl (8 * (i - t - 8))) else k1 = k1 xor (x shl (8 * (i - t)))
            }
            if (d.size - t > 8) h2 = h2 xor (java.lang.Long.rotateLeft(k2 * c2, 33) * c1)
            if (d.size - t > 0) h1 = h1 xor (java.lang.Long.rotateLeft(k1 * c1, 31) * c2)
            h1 = h1 xor d.size.toLong()
            h2 = h2 xor d.size.toLong()
            h1 += h2
            h2 += h1
            h1 = fmix(h1)
            h2 = fmix(h2)
            return h1 + h2
        }

        val EDGES = byteArrayOf(0x00, 0x01, 0x7f, 0x80.toByte(), 0xff.toByte(), 0xfe.toByte(), 0xfd.toByte(), 0xfc.toByte())
        const val HEAP_PER_BYTE = 1024L
        const val HEAP_BASE = 4L shl 20
    }
}
