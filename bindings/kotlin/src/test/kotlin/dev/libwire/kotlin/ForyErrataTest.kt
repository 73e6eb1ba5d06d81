package dev.libwire.kotlin

import dev.libwire.kotlin.ErrataModelsJava.Leaf
import dev.libwire.kotlin.ErrataModelsJava.NullArrays
import dev.libwire.kotlin.ErrataModelsJava.RefListOff
import dev.libwire.kotlin.ErrataModelsJava.Words
import dev.libwire.kotlin.testee.Json
import java.nio.file.Files
import org.apache.fory.Fory
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertThrows
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Fory Java 1.6.0 on the fixtures that settle spec/errata.md E-53, E-55 and E-56
 * (fixtures/valid/structs/exact.json): each check runs the runtime on the fixture's bytes or
 * on the value they hold, a fresh `Fory` each time.
 */
class ForyErrataTest {
    private val exact by lazy {
        val doc = Json.parse(Files.readString(repoRoot.resolve("fixtures/valid/structs/exact.json"))) as Map<*, *>
        (doc["tests"] as List<*>).associate { t -> (t as Map<*, *>)["id"] as String to t }
    }

    private fun bytesOf(id: String): ByteArray = unhex((exact[id] ?: error("no fixture $id"))["bytes"] as String)

    private fun compatibleOf(id: String): Boolean = ((exact[id]!!["config"]) as Map<*, *>)["compatible"] as Boolean

    private fun fory(compatible: Boolean, ref: Boolean = false): Fory =
        Fory.builder().withXlang(true).withCompatible(compatible).withRefTracking(ref)
            .requireClassRegistration(true).build().also {
                it.register(Words::class.java, "ex", "Words")
                it.register(NullArrays::class.java, "ex", "NullArrays")
                it.register(Leaf::class.java, "ex", "Leaf")
                it.register(RefListOff::class.java, "ex", "RefListOff")
            }

    private val long = "a".repeat(70) + "日"
    private val words = listOf(long, "aé日", long)

    /** E-53: Go's UTF-8 strings, in the order Fory Java misreads; Java's own bytes of them too. */
    @Test fun e53JavaMisreadsUtf8StringsInOnePayload() {
        for (id in listOf("exact.go.0031", "exact.go.0032")) {
            val got = (fory(compatibleOf(id)).deserialize(bytesOf(id)) as Words).words
            assertEquals(words.take(2), got.take(2), id)
            assertNotEquals(words[2], got[2], "$id: Fory Java read the third string right: E-53 no longer holds")
            assertEquals(words[2].length, got[2].length, "$id: the same length, characters replaced")
        }
        // Java's own bytes of the same list (UTF-8 strings, as Go writes them) read back the same wrong way
        val own = fory(true).serialize(Words().also { it.words = ArrayList(words) })
        assertTrue(hex(own).endsWith(hex(bytesOf("exact.go.0031")).takeLast(2 * 157)), "Java writes Go's string bytes")
        assertNotEquals(words, (fory(true).deserialize(own) as Words).words)
    }

    /** E-55: Java writes the fixtures' bytes (no null flag), and cannot write a null int[]. */
    @Test fun e55JavaDeclaresNullableArraysNotNullable() {
        val v = NullArrays().also { it.bin = byteArrayOf(1, 2, -1); it.ints = intArrayOf(3, -4) }
        for (id in listOf("exact.java.0049", "exact.java.0050")) {
            assertArrayEquals(bytesOf(id), fory(compatibleOf(id)).serialize(v), id)
            val back = fory(compatibleOf(id)).deserialize(bytesOf(id)) as NullArrays
            assertArrayEquals(v.ints, back.ints, id)
        }
        for (compatible in listOf(true, false)) {
            val e = assertThrows(Throwable::class.java) {
                fory(compatible).serialize(NullArrays().also { it.bin = byteArrayOf(1) })
            }
            assertTrue(generateSequence(e) { it.cause }.any { it is NullPointerException }, "not an NPE: $e")
        }
    }

    /** E-56: Java reads its list header without the tracking bit; the same list with the bit and
     * `ff` flags (libwire's bytes before R-WLIST-8) it misreads or rejects. */
    @Test fun e56JavaFailsOnATrackedHeaderWithoutTracking() {
        val id = "exact.java.0051"
        val h = hex(bytesOf(id))
        val back = fory(true).deserialize(bytesOf(id)) as RefListOff
        assertEquals(listOf(1, 1, 63), back.leaves.map { it.n })
        // three Leaf elements (n 1, 1, 63: zigzag 02 02 7e) after the header 08 and Leaf's type meta
        assertTrue(h.endsWith("02027e") && h.split("03081e02").size == 2, h)
        val tracked = unhex(h.replace("03081e02", "03091e02").removeSuffix("02027e") + "ff02ff02ff7e")
        val got = runCatching { (fory(true).deserialize(tracked) as RefListOff).leaves.map { it.n } }
        assertTrue(got.isFailure || got.getOrNull() != listOf(1, 1, 63),
            "Fory Java read ${hex(tracked)} as ${got.getOrNull()}: E-56 no longer holds")
    }
}
