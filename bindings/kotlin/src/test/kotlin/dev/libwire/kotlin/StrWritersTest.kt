package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.util.LinkedList
import java.util.TreeMap
import java.util.TreeSet

/** Lists, sets and maps of strings, nullable items and values, nullable collections. */
data class StrBag(
    val items: List<String?>,
    val set: Set<String>,
    val attrs: Map<String, String?>,
    val maybe: List<String>?,
    val maybeMap: Map<String, String?>?,
    val col: Collection<String>,
    val after: Int,
)

/** A collection of longs and a map of other values (the list and map slots' general loops). */
data class Holder2(val nums: Collection<Long>, val scores: Map<String, Long?>)

/**
 * The compiled codecs' writers of string lists, sets and string-to-string maps (`ListSlot.put`,
 * `MapSlot.put`): the tape codec's bytes for lists that are and are not `RandomAccess`, hash,
 * linked and sorted sets and maps, null items and values, empty and null collections, both
 * reference modes, and read back equal in the writer's order.
 */
class StrWritersTest {
    private val fdl = """
        package sw;
        message StrBag [id=601] {
          list<optional string> items = 1; list<string> set = 2 [wire_set = true];
          map<string, optional string> attrs = 3; optional list<string> maybe = 4;
          optional map<string, optional string> maybe_map = 5; list<string> col = 6; int32 after = 7;
        }
        message Holder2 [id=602] { list<int64> nums = 1; map<string, optional int64> scores = 2; }
    """.trimIndent()

    private fun ctx(compatible: Boolean, ref: Boolean): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(fdl, "sw.fdl")
        c.registerDataClass(StrBag::class, "sw.StrBag")
        c.registerDataClass(Holder2::class, "sw.Holder2")
        return c
    }

    private fun bags(): List<StrBag> {
        val many = (0 until 40).map { if (it % 7 == 3) null else "item$it" + "é".repeat(it % 3) + (if (it % 5 == 0) "日" else "") }
        return listOf(
            StrBag(listOf("a", null, "bc"), linkedSetOf("x", "y"), linkedMapOf("k" to "v", "n" to null), listOf("m"), linkedMapOf("q" to "r"), listOf("c1", "c2"), 7),
            StrBag(LinkedList(many), TreeSet(many.filterNotNull()), TreeMap(many.filterNotNull().associateWith { if (it.length % 2 == 0) null else it.reversed() }),
                null, null, LinkedList(listOf("only")), -1),
            StrBag(emptyList(), emptySet(), emptyMap(), emptyList(), emptyMap(), emptyList(), 0),
            StrBag(ArrayList(many), HashSet(many.filterNotNull()), HashMap(mapOf("" to "", "日本" to "é", "z" to null)), many.filterNotNull(), HashMap(mapOf("a" to null)), java.util.ArrayDeque(listOf("h1", "h2", "h3")), Int.MAX_VALUE),
        )
    }

    @Test fun theTapeCodecsBytesAndBack() {
        for (compatible in listOf(false, true)) for (ref in listOf(false, true)) ctx(compatible, ref).use { c ->
            assertTrue(c.hasLayout(StrBag::class), c.layoutProblem(StrBag::class))
            for ((i, v) in bags().withIndex()) {
                val bytes = c.encode(v)
                // (the tape codec takes lists and sets only where a list is declared: col as a list there)
                assertEquals(hex(c.encodeAll(listOf(v.copy(col = ArrayList(v.col))))), hex(bytes), "compatible=$compatible ref=$ref bag $i")
                val back = c.decode(bytes, StrBag::class)
                assertEquals(v.items, back.items)
                assertEquals(v.set, back.set)
                assertEquals(v.attrs, back.attrs)
                assertEquals(v.maybe, back.maybe)
                assertEquals(v.maybeMap, back.maybeMap)
                assertEquals(v.col.toList(), back.col.toList())
                assertEquals(v.after, back.after)
                // the iteration order is the wire's
                assertEquals(v.set.toList(), back.set.toList())
                assertEquals(v.attrs.keys.toList(), back.attrs.keys.toList())
            }
        }
    }

    /** A collection (or map) whose iterator gives [extra] items more than its size says. */
    private class Liar<T>(private val items: List<T>, private val extra: Int) : AbstractCollection<T>() {
        override val size get() = items.size - extra
        override fun iterator() = items.iterator()
    }

    private class LiarSet<T>(private val items: List<T>, private val extra: Int) : AbstractSet<T>() {
        override val size get() = items.size - extra
        override fun iterator() = items.iterator()
    }

    private class LiarMap<V>(private val m: Map<String, V>, private val extra: Int) : AbstractMap<String, V>() {
        override val entries: Set<Map.Entry<String, V>> get() = LiarSet(m.entries.toList(), extra)
    }

    /**
     * A collection or map whose iterator does not give `size` items (one more or one fewer) is
     * refused: the items not written would leave an earlier message's bytes in the image.
     */
    @Test fun aCollectionWhoseSizeIsNotItsItemsIsRefused() {
        ctx(true, true).use { c ->
            val ok = bags()[0]
            assertTrue(c.hasLayout(Holder2::class), c.layoutProblem(Holder2::class))
            // an earlier message with long lists, so that the image holds its bytes
            c.encode(bags()[1])
            for (extra in listOf(1, -1)) {
                assertThrows<WireException> { c.encode(ok.copy(col = Liar(listOf("a", "b", "c"), extra))) }
                assertThrows<WireException> { c.encode(ok.copy(set = LiarSet(listOf("a", "b", "c"), extra))) }
                assertThrows<WireException> { c.encode(ok.copy(attrs = LiarMap(linkedMapOf("a" to "1", "b" to null, "c" to "3"), extra))) }
                // a list of non-string items and a map of other entries (the slots' general loops)
                assertThrows<WireException> { c.encode(Holder2(Liar(listOf(1L, 2L, 3L), extra), linkedMapOf("k" to 1L))) }
                assertThrows<WireException> { c.encode(Holder2(listOf(1L), LiarMap(linkedMapOf("a" to 1L, "b" to null, "c" to 3L), extra))) }
            }
            // and the context still encodes
            assertEquals(hex(c.encodeAll(listOf(ok))), hex(c.encode(ok)))
            val h = Holder2(LinkedList(listOf(5L, 6L)), linkedMapOf("x" to null))
            assertEquals(hex(c.encodeAll(listOf(h))), hex(c.encode(h)))
        }
    }
}
