package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotSame
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import java.util.IdentityHashMap
import kotlin.reflect.full.primaryConstructor

data class LkAddr(val street: String, val city: String)

/** Read-only `List` and `MutableList` properties side by side, at the top and nested. */
data class Kinds(
    val ro: List<String>,
    val mu: MutableList<String>,
    val roAddr: List<LkAddr>,
    val muAddr: MutableList<LkAddr>,
    val nums: List<Long>,
    val byKey: Map<String, List<String>>,
    val byKeyMu: Map<String, MutableList<String>>,
    val maybe: List<String>?,
    val col: Collection<String>,
)

/** The same lists in a class with a union field: no layout, the tape codec decodes it. */
data class KindsU(
    val ro: List<String>,
    val mu: MutableList<String>,
    val roAddr: List<LkAddr>,
    val muAddr: MutableList<LkAddr>,
    val byKey: Map<String, List<String>>,
    val pick: WireUnion,
)

/** What a read-only `List` property decodes to (fixed-size), and a `MutableList` one (`ArrayList`), on every path. */
class ListKindsTest {
    private val fdl = """
        package lk;
        message Addr [id=501] { string street = 1; string city = 2; }
        message Kinds [id=502] {
          list<string> ro = 1; list<string> mu = 2; list<Addr> ro_addr = 3; list<Addr> mu_addr = 4;
          list<int64> nums = 5; map<string, list<string>> by_key = 6; map<string, list<string>> by_key_mu = 7;
          optional list<string> maybe = 8; list<string> col = 9;
        }
        union Pick [id=503] { string text = 1; int64 number = 2; }
        message KindsU [id=504] {
          list<string> ro = 1; list<string> mu = 2; list<Addr> ro_addr = 3; list<Addr> mu_addr = 4;
          map<string, list<string>> by_key = 5; Pick pick = 6;
        }
    """.trimIndent()

    private val fixedClass = Class.forName("java.util.Arrays\$ArrayList")

    private fun ctx(compatible: Boolean, ref: Boolean = false): Context {
        val c = Context(WireOptions(compatible = compatible, refTracking = ref))
        c.registerSchemaText(fdl, "lk.fdl")
        c.registerDataClass(LkAddr::class, "lk.Addr")
        c.registerDataClass(Kinds::class, "lk.Kinds")
        c.registerDataClass(KindsU::class, "lk.KindsU")
        return c
    }

    private fun kinds(empty: Boolean): Kinds {
        val a = LkAddr("1 Main St", "Oslo")
        return if (empty) {
            Kinds(listOf(), mutableListOf(), listOf(), mutableListOf(), listOf(), mapOf("e" to listOf()), mapOf("e" to mutableListOf()), listOf(), listOf())
        } else {
            Kinds(
                listOf("x", "日本", "é"), mutableListOf("m"), listOf(a, LkAddr("é", "日本")), mutableListOf(a), listOf(1L, -2L, Long.MAX_VALUE),
                mapOf("k" to listOf("a", "b"), "one" to listOf("c")), mapOf("k" to mutableListOf("a")), listOf("maybe"), listOf("c1", "c2"),
            )
        }
    }

    private fun assertFixed(l: List<*>?, what: String) {
        assertTrue(l != null && l.javaClass === fixedClass, "$what: ${l?.javaClass?.name}")
        @Suppress("UNCHECKED_CAST")
        val m = l as MutableList<Any?>
        assertThrows<UnsupportedOperationException>(what) { m.add("more") }
        assertThrows<UnsupportedOperationException>(what) { m.add(0, "more") }
        if (m.isNotEmpty()) assertThrows<UnsupportedOperationException>(what) { m.removeAt(0) }
    }

    private fun assertGrowable(l: MutableList<*>?, what: String) {
        assertTrue(l is java.util.ArrayList<*>, "$what: ${l?.javaClass?.name}")
        @Suppress("UNCHECKED_CAST")
        val m = l as MutableList<Any?>
        val n = m.size
        m.add(m.firstOrNull())
        assertEquals(n + 1, m.size, what)
        m.removeAt(n)
    }

    private fun check(v: Kinds, back: Kinds, what: String) {
        assertEquals(v, back, what)
        assertFixed(back.ro, "$what ro")
        assertFixed(back.roAddr, "$what roAddr")
        assertFixed(back.nums, "$what nums")
        assertFixed(back.maybe, "$what maybe")
        for ((k, l) in back.byKey) assertFixed(l, "$what byKey[$k]")
        assertGrowable(back.mu, "$what mu")
        assertGrowable(back.muAddr, "$what muAddr")
        for ((k, l) in back.byKeyMu) assertGrowable(l, "$what byKeyMu[$k]")
        assertTrue(back.col is java.util.ArrayList<*>, "$what col: ${back.col.javaClass.name}")
        assertEquals(v, back, "$what (after the adds and removes)")
    }

    @Test fun kotlinReflectTellsListFromMutableListOnlyByTheType() {
        val ps = Kinds::class.primaryConstructor!!.parameters.associateBy { it.name }
        // the same classifier (java.util.List) for both: the subtype test tells them apart
        assertEquals(ps["ro"]!!.type.classifier, ps["mu"]!!.type.classifier)
        assertTrue(isReadOnlyList(ps["ro"]!!.type))
        assertFalse(isReadOnlyList(ps["mu"]!!.type))
        assertTrue(isReadOnlyList(ps["maybe"]!!.type), "nullable List")
        assertFalse(isReadOnlyList(ps["col"]!!.type), "Collection")
        val vt = ps["byKeyMu"]!!.type.arguments[1].type!!
        assertFalse(isReadOnlyList(vt))
        assertTrue(isReadOnlyList(ps["byKey"]!!.type.arguments[1].type!!))
    }

    @Test fun readOnlyListsAreFixedSizeOnEveryPath() {
        for (compatible in listOf(false, true)) for (ref in listOf(false, true)) ctx(compatible, ref).use { c ->
            assertTrue(c.hasLayout(Kinds::class), c.layoutProblem(Kinds::class))
            for (empty in listOf(false, true)) {
                val v = kinds(empty)
                val bytes = c.encode(v)
                val what = "compatible=$compatible ref=$ref empty=$empty"
                check(v, c.decode(bytes, Kinds::class), "$what layout")
                check(v, c.decode(bytes) as Kinds, "$what layout, by type")
                check(v, c.decodeAll(bytes).single() as Kinds, "$what tape")
                // the composed handles (no generated codec)
                val plans = listOf(Kinds::class.java, LkAddr::class.java).map { c.mem.planOf(it)!! }
                val saved = plans.map { it.gen }
                for (p in plans) p.gen = null
                check(v, c.decode(bytes, Kinds::class), "$what composed")
                for ((p, g) in plans.zip(saved)) p.gen = g
            }
        }
    }

    /**
     * Read-only lists of strings and of structs of every length from 0 to 6 through the generated
     * codecs (MemGenRt.gStrListFixed / gStructListFixed: one to three items read one by one, more in
     * a loop), in order, with and without reference tracking (a struct met twice in a list is
     * written twice there: list items are not a `ref` position).
     */
    @Test fun readOnlyListsOfEverySmallLength() {
        val texts = listOf("a", "", "日本語", "é", "x".repeat(40), "b", "c")
        for (compatible in listOf(false, true)) for (ref in listOf(false, true)) ctx(compatible, ref).use { c ->
            for (n in 0..6) {
                val shared = LkAddr("shared", "twice")
                val addrs = List(n) { i -> if (n >= 2 && (i == 0 || i == n - 1)) shared else LkAddr("s$i", texts[i]) }
                val v = Kinds(texts.take(n), mutableListOf(), addrs, mutableListOf(), listOf(), mapOf(), mapOf(), null, listOf())
                val what = "n=$n compatible=$compatible ref=$ref"
                val back = c.decode(c.encode(v), Kinds::class)
                assertEquals(v, back, what)
                assertEquals(texts.take(n), back.ro.toList(), what)
                assertFixed(back.ro, "$what ro")
                assertFixed(back.roAddr, "$what roAddr")
                assertEquals(addrs, back.roAddr.toList(), what)
            }
        }
    }

    @Test fun theTapeFallbackShapesListsTheSameWay() {
        for (compatible in listOf(false, true)) ctx(compatible).use { c ->
            assertFalse(c.hasLayout(KindsU::class))
            for (empty in listOf(false, true)) {
                val a = LkAddr("a", "b")
                val v = if (empty) KindsU(listOf(), mutableListOf(), listOf(), mutableListOf(), mapOf(), WireUnion("lk.Pick", 2, 7L))
                else KindsU(listOf("x"), mutableListOf("y", "z"), listOf(a, a), mutableListOf(a), mapOf("k" to listOf("v")), WireUnion("lk.Pick", 1, "t"))
                val back = c.decode(c.encode(v), KindsU::class)
                val what = "compatible=$compatible empty=$empty"
                assertEquals(v, back, what)
                assertFixed(back.ro, "$what ro")
                assertFixed(back.roAddr, "$what roAddr")
                for ((k, l) in back.byKey) assertFixed(l, "$what byKey[$k]")
                assertGrowable(back.mu, "$what mu")
                assertGrowable(back.muAddr, "$what muAddr")
            }
        }
    }

    @Test fun shapesKeepSharedListsShared() {
        val ps = Kinds::class.primaryConstructor!!.parameters.associateBy { it.name }
        val ro = Shape.of(ps["ro"]!!.type)!!
        val src = arrayListOf<Any?>("a", "b")
        val memo = IdentityHashMap<Any, Any>()
        val one = ro.apply(src, memo)
        assertSame(one, ro.apply(src, memo), "one list for one source under reference tracking")
        assertSame(one, ro.apply(one, null), "a fixed list is kept")
        assertNotSame(one, ro.apply(src, null))
        assertEquals(src, one)
        // MutableList: the ArrayList itself, items shaped in place
        val mu = Shape.of(ps["byKeyMu"]!!.type)!!
        @Suppress("UNCHECKED_CAST")
        val m = mu.apply(linkedMapOf("k" to arrayListOf("a")), null) as Map<String, MutableList<String>>
        assertTrue(m["k"] is java.util.ArrayList<*>)
        val byKey = Shape.of(ps["byKey"]!!.type)!!
        @Suppress("UNCHECKED_CAST")
        val f = byKey.apply(linkedMapOf("k" to arrayListOf("a")), null) as Map<String, List<String>>
        assertSame(fixedClass, f["k"]!!.javaClass)
        assertNull(Shape.of(ps["col"]!!.type))
    }
}
