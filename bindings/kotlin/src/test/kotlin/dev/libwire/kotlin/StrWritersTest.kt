package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.util.LinkedList
import java.util.TreeMap
import java.util.TreeSet

/** Lists, sets and maps of strings in every nullable position the generated writers (`MemGenRt.pStrItems`, `pStrMap`) take. */
data class StrBag(
    val items: List<String?>,
    val set: Set<String>,
    val attrs: Map<String, String?>,
    val maybe: List<String>?,
    val maybeMap: Map<String, String?>?,
    val col: Collection<String>,
    val after: Int,
)

/**
 * The generated codecs' writers of string lists, sets and string-to-string maps: the tape codec's
 * bytes for lists that are and are not `RandomAccess`, hash, linked and sorted sets and maps, null
 * items and values, empty and null collections; a collection whose iterator does not give `size`
 * items is refused (its image would hold items never written).
 */
class StrWritersTest {
    private val fdl = """
        package sw;
        message StrBag [id=601] {
          list<optional string> items = 1; list<string> set = 2 [wire_set = true];
          map<string, optional string> attrs = 3; optional list<string> maybe = 4;
          optional map<string, optional string> maybe_map = 5; list<string> col = 6; int32 after = 7;
        }
    """.trimIndent()

    private fun ctx(compatible: Boolean, ref: Boolean): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(fdl, "sw.fdl")
        c.registerDataClass(StrBag::class, "sw.StrBag")
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

    private class LiarMap(private val m: Map<String, String?>, private val extra: Int) : AbstractMap<String, String?>() {
        override val entries: Set<Map.Entry<String, String?>> get() = LiarSet(m.entries.toList(), extra)
    }

    @Test fun aCollectionWhoseSizeIsNotItsItemsIsRefused() {
        ctx(true, true).use { c ->
            val ok = bags()[0]
            for (extra in listOf(1, -1)) {
                val e1 = assertThrows<WireException> { c.encode(ok.copy(col = Liar(listOf("a", "b", "c"), extra))) }
                assertTrue(e1.message!!.contains("col"), e1.message)
                val e2 = assertThrows<WireException> { c.encode(ok.copy(set = LiarSet(listOf("a", "b", "c"), extra))) }
                assertTrue(e2.message!!.contains("set"), e2.message)
                val e3 = assertThrows<WireException> { c.encode(ok.copy(attrs = LiarMap(linkedMapOf("a" to "1", "b" to null, "c" to "3"), extra))) }
                assertTrue(e3.message!!.contains("attrs"), e3.message)
            }
            // and the context still encodes
            assertEquals(hex(c.encodeAll(listOf(ok))), hex(c.encode(ok)))
        }
    }
}
