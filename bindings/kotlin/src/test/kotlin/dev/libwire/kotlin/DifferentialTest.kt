package dev.libwire.kotlin

import org.apache.fory.Fory
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Test
import java.math.BigDecimal
import java.math.BigInteger
import java.time.Duration
import java.time.Instant
import java.time.LocalDate
import java.util.IdentityHashMap
import java.util.Random
import kotlin.reflect.KClass
import kotlin.reflect.KType
import kotlin.reflect.full.isSubtypeOf
import kotlin.reflect.full.memberProperties
import kotlin.reflect.full.primaryConstructor
import kotlin.reflect.jvm.jvmErasure
import kotlin.reflect.typeOf

// The Kotlin side of DifferentialTest (the Java side is DiffModelJava.java).

enum class DkHue { RED, GREEN, BLUE }

data class DkLeaf(val name: String, val n: Int)

data class DkScalars(
    val b: Byte, val s: Short, val i: Int, val l: Long, val f: Float, val d: Double, val z: Boolean,
    val ob: Byte?, val os: Short?, val oi: Int?, val ol: Long?, val of: Float?, val od: Double?, val oz: Boolean?,
    val str: String, val ostr: String?, val hue: DkHue, val ohue: DkHue?,
    val day: LocalDate, val at: Instant, val span: Duration, val dec: BigDecimal,
    val oday: LocalDate?, val oat: Instant?, val ospan: Duration?, val odec: BigDecimal?,
    val weightGrams: Long,
)

/** Arrays have no content equality: DifferentialTest compares them by content. */
@Suppress("ArrayInDataClass")
data class DkArrays(
    val bin: ByteArray, val obin: ByteArray?, val zs: BooleanArray, val ss: ShortArray, val ints: IntArray,
    val ls: LongArray, val fs: FloatArray, val ds: DoubleArray, val oints: IntArray?,
)

data class DkColls(
    val strs: List<String?>, val longs: List<Long>, val ints: List<Int>, val dbls: List<Double>, val tags: Set<String>,
    val leaves: List<DkLeaf?>, val smap: Map<String?, String?>, val lmap: Map<String, Long?>, val leafmap: Map<String, DkLeaf>,
    val imap: Map<Int, Double>, val ostrs: List<String>?, val hues: List<DkHue>, val nested: List<List<String>>, val lset: Set<Long>,
)

data class DkOuter(val leaf: DkLeaf, val oleaf: DkLeaf?, val sc: DkScalars, val ar: DkArrays, val co: DkColls)

/** A node of a graph that may be cyclic (through [kids], filled after construction): identity equality. */
class DkNode(val name: String, val next: DkNode?, val kids: MutableList<DkNode>) {
    override fun toString() = "DkNode($name)"
}

data class DkGraph(val a: DkLeaf, val b: DkLeaf?, val many: List<DkLeaf>, val root: DkNode?, val plain: List<DkLeaf>)

/**
 * Randomized differential test of the compiled-codec path (registered data classes) against Fory Java
 * 1.6.0 xlang, on seeded random values of every field kind the data-class plans support, in every
 * mode (compatible or schema-consistent, reference tracking on or off). For each value:
 * (a) libwire's bytes equal Fory Java's; (b) Fory Java reads libwire's bytes to an equal value;
 * (c) libwire reads Fory Java's bytes to an equal value; (d) libwire reads its own bytes back.
 * Under reference tracking "equal" includes sharing (the same object graph up to identity).
 * `-Ddiff.seed=N` and `-Ddiff.count=N` change the seed and the number of values per class and mode.
 */
class DifferentialTest {
    private val fdl = """
        package dk;
        option wire_nullable_map_keys = true;  // Fory Java declares map keys nullable in its TypeDefs
        enum Hue [id=700] { RED = 0; GREEN = 1; BLUE = 2; }
        message Leaf [id=701] { string name = 1; int32 n = 2; }
        message Scalars [id=702] {
          int8 b = 1; int16 s = 2; int32 i = 3; int64 l = 4; float32 f = 5; float64 d = 6; bool z = 7;
          optional int8 ob = 8; optional int16 os = 9; optional int32 oi = 10; optional int64 ol = 11;
          optional float32 of = 12; optional float64 od = 13; optional bool oz = 14;
          string str = 15; optional string ostr = 16; Hue hue = 17; optional Hue ohue = 18;
          date day = 19; timestamp at = 20; duration span = 21; decimal dec = 22;
          optional date oday = 23; optional timestamp oat = 24; optional duration ospan = 25; optional decimal odec = 26;
          int64 weight_grams = 27;
        }
        // obin and oints are @Nullable in DiffModelJava, but Fory Java declares them not nullable (errata E-55)
        message Arrays [id=703] {
          bytes bin = 1; bytes obin = 2; array<bool> zs = 3; array<int16> ss = 4; array<int32> ints = 5;
          array<int64> ls = 6; array<float32> fs = 7; array<float64> ds = 8; array<int32> oints = 9;
        }
        // leaves (and Graph.plain), leafmap and nested are declared with @Nullable elements or values in
        // Java: without it they are tracked in same-schema mode under reference tracking (errata E-50, E-54)
        message Colls [id=704] {
          list<optional string> strs = 1; list<optional int64> longs = 2; list<optional int32> ints = 3;
          list<optional float64> dbls = 4; list<optional string> tags = 5 [wire_set = true];
          list<optional Leaf> leaves = 6; map<string, optional string> smap = 7; map<string, optional int64> lmap = 8;
          map<string, optional Leaf> leafmap = 9; map<int32, optional float64> imap = 10;
          optional list<optional string> ostrs = 11; list<optional Hue> hues = 12;
          list<optional list<optional string>> nested = 13; list<optional int64> lset = 14 [wire_set = true];
        }
        message Outer [id=705] {
          Leaf leaf = 1 [nullable = false]; Leaf oleaf = 2; Scalars sc = 3 [nullable = false];
          Arrays ar = 4 [nullable = false]; Colls co = 5 [nullable = false];
        }
        message Node [id=706] { string name = 1; ref Node next = 2; list<optional ref Node> kids = 3; }
        message Graph [id=707] {
          ref Leaf a = 1 [nullable = false]; ref Leaf b = 2; list<optional ref Leaf> many = 3; ref Node root = 4;
          list<optional Leaf> plain = 5;
        }
    """.trimIndent()

    private val pairs: List<Pair<KClass<*>, Class<*>>> = listOf(
        DkLeaf::class to DiffModelJava.Leaf::class.java, DkScalars::class to DiffModelJava.Scalars::class.java,
        DkArrays::class to DiffModelJava.Arrays::class.java, DkColls::class to DiffModelJava.Colls::class.java,
        DkOuter::class to DiffModelJava.Outer::class.java, DkNode::class to DiffModelJava.Node::class.java,
        DkGraph::class to DiffModelJava.Graph::class.java,
    )
    private val toJ: Map<Class<*>, Class<*>> = pairs.associate { it.first.java to it.second }
    private val toK: Map<Class<*>, KClass<*>> = pairs.associate { it.second to it.first }

    /**
     * Fory Java without reference tracking ignores `@Ref` on fields: its TypeDefs and schema hashes say
     * no ref (errata E-40) and its bytes carry no reference flags, so the schema that describes its
     * classes then has no `ref` on fields. It keeps the ref bit of `List<@Ref Leaf>`'s elements in its
     * TypeDefs (compatible mode), so those stay.
     */
    private val fdlNoRef = fdl.replace(Regex("(?<!optional )\\bref "), "")

    private fun context(mode: Mode): Context {
        val c = Context(WireOptions(compatible = mode.compatible, refTracking = mode.ref, peer = mode.peer))
        c.registerSchemaText(if (mode.ref) fdl else fdlNoRef, "dk.fdl")
        c.registerEnum(DkHue::class, "dk.Hue")
        for ((k, _) in pairs) c.registerDataClass(k, "dk." + k.simpleName!!.removePrefix("Dk"))
        return c
    }

    private fun fory(mode: Mode): Fory = Fory.builder().withXlang(true).withCompatible(mode.compatible)
        .withRefTracking(mode.ref).withClassVersionCheck(!mode.compatible).requireClassRegistration(true).build()
        .also { DiffModelJava.register(it) }

    data class Mode(val compatible: Boolean, val ref: Boolean, val peer: Peer = Peer.NONE) {
        override fun toString() = (if (compatible) "compatible" else "schema-consistent") + (if (ref) "+ref" else "") +
            (if (peer != Peer.NONE) "+peer=$peer" else "")
    }

    private val modes = listOf(Mode(false, false), Mode(false, true), Mode(true, false), Mode(true, true))

    private val seed = java.lang.Long.getLong("diff.seed", 20261206L)
    private val count = Integer.getInteger("diff.count", 20)

    @Test fun randomValuesAgainstForyJava() {
        val stats = StringBuilder()
        val problems = ArrayList<String>()
        for (mode in modes) context(mode).use { lw ->
            for (k in listOf(DkOuter::class, DkGraph::class)) {
                assertTrue(lw.hasLayout(k), lw.layoutProblem(k))
            }
            val writer = fory(mode)
            // seeded by the mode's place in the list (an enum's hashCode differs from run to run)
            val g = Gen(Random(seed + 7919L * modes.indexOf(mode)), mode.ref)
            var n = 0
            var cyclic = 0
            var foryMisreads = 0
            val values = ArrayList<Any>()
            repeat(count) { values.add(g.outer()) }
            repeat(count) { values.add(g.graph()) }
            values.addAll(g.edgeValues())
            for ((idx, v) in values.withIndex()) {
                val what = "$mode value $idx (${v::class.simpleName}, seed $seed)"
                val k = v::class
                val mine = attempt(problems, "$what: libwire encodes") { lw.encode(v) } ?: continue
                val j = toJava(v, IdentityHashMap())
                val theirs = attempt(problems, "$what: Fory Java serializes") { writer.serialize(j) } ?: continue
                System.getProperty("diff.dump")?.let { d ->
                    java.nio.file.Files.write(java.nio.file.Path.of(d, "${mode.toString().replace('+', '_')}.$idx.java.bin"), theirs)
                    java.nio.file.Files.write(java.nio.file.Path.of(d, "${mode.toString().replace('+', '_')}.$idx.libwire.bin"), mine)
                }
                // (a) the same bytes
                attempt(problems, "$what: (a) bytes") {
                    if (!mine.contentEquals(theirs)) fail<Unit>(bytesDiffer(theirs, mine))
                }
                // (b) Fory Java reads libwire's bytes (a fresh Fory per read: ForyUtf8BugProbe)
                attempt(problems, "$what: (b) Fory Java reads libwire's bytes") {
                    val back = fromJava(fory(mode).deserialize(mine), k, IdentityHashMap())
                    val miss = runCatching { same(v, back, mode.ref) }.exceptionOrNull()
                    if (miss != null) {
                        // errata E-53: fory-core 1.6.0 misreads some UTF-8 strings after others in one
                        // payload, its own bytes too; excluded when it misreads its own bytes of the
                        // value the same way (and so says nothing about libwire's)
                        val own = fromJava(fory(mode).deserialize(theirs), k, IdentityHashMap())
                        val ownMiss = runCatching { same(v, own, mode.ref) }.exceptionOrNull()
                        if (ownMiss == null || runCatching { same(own, back, mode.ref) }.isFailure) throw miss
                        foryMisreads++
                    }
                }
                if (mode.ref && hasCycle(v)) {
                    // the compiled codecs build immutable objects: a cycle through a struct is an error there
                    // (LayoutTest.nullsAndCyclesAreErrors); Fory Java's bytes must fail the same way, not misread
                    cyclic++
                    for (b in listOf(theirs, mine)) attempt(problems, "$what: (c/d) a cycle") {
                        val e = runCatching { lw.decode(b, k) }.exceptionOrNull()
                        assertTrue(e is WireException && e.cls == "ref", "a cycle decodes to ${e ?: "a value"}")
                    }
                } else {
                    // (c) libwire reads Fory Java's bytes; (d) and its own
                    attempt(problems, "$what: (c) libwire reads Fory Java's bytes ${hex(theirs).take(400)}") { same(v, lw.decode(theirs, k), mode.ref) }
                    attempt(problems, "$what: (d) libwire reads its own bytes") { same(v, lw.decode(mine, k), mode.ref) }
                }
                n++
            }
            stats.append("$mode: $n values ($cyclic cyclic; Fory Java misread its own bytes of $foryMisreads, errata E-53)\n")
        }
        println("DifferentialTest seed $seed:\n$stats")
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", "diff-problems.txt"), problems.joinToString("\n"))
        if (problems.isNotEmpty()) {
            // one line per kind of difference (the message without the value's index), with its count
            val kinds = problems.groupBy { it.replace(Regex("value \\d+ \\("), "value (").replace(Regex("offset \\d+.*"), "").replace(Regex("[0-9a-f]{20,}"), "…").take(300) }
            fail<Unit>("${problems.size} differences of ${kinds.size} kinds:\n" +
                kinds.entries.take(40).joinToString("\n") { (k, v) -> "${v.size}x $k\n    first: ${v[0].take(700)}" })
        }
    }

    /** Where two payloads part, with some bytes of each around that offset. */
    private fun bytesDiffer(want: ByteArray, got: ByteArray): String {
        var i = 0
        while (i < want.size && i < got.size && want[i] == got[i]) i++
        val from = maxOf(0, i - 16)
        fun part(b: ByteArray) = hex(b.copyOfRange(minOf(from, b.size), minOf(b.size, i + 24)))
        return "bytes part at offset $i of ${want.size} (Fory Java) / ${got.size} (libwire): from $from Java ${part(want)}, libwire ${part(got)}"
    }

    private fun <T> attempt(problems: MutableList<String>, what: String, f: () -> T): T? = try {
        f()
    } catch (e: Throwable) {
        problems.add("$what: ${e.toString().take(3000)}")
        null
    }

    // ---------------------------------------------------------------- generator

    private inner class Gen(val r: Random, val ref: Boolean) {
        fun <T> pick(vararg xs: T): T = xs[r.nextInt(xs.size)]
        fun chance(p: Double) = r.nextDouble() < p

        fun int(): Int = if (chance(0.3)) pick(0, -1, 1, Int.MIN_VALUE, Int.MAX_VALUE, 63, 64, -64, -65, 127, 128) else
            if (chance(0.5)) r.nextInt(1 shl (1 + r.nextInt(30))) * pick(1, -1) else r.nextInt()
        fun long(): Long = if (chance(0.3)) pick(0L, -1L, 1L, Long.MIN_VALUE, Long.MAX_VALUE, Int.MAX_VALUE + 1L, Int.MIN_VALUE - 1L, 1L shl 62, -(1L shl 62))
            else if (chance(0.5)) (r.nextLong() ushr (1 + r.nextInt(63))) * pick(1L, -1L) else r.nextLong()
        fun byte(): Byte = if (chance(0.4)) pick<Byte>(0, -1, 1, Byte.MIN_VALUE, Byte.MAX_VALUE) else r.nextInt().toByte()
        fun short(): Short = if (chance(0.4)) pick<Short>(0, -1, 1, Short.MIN_VALUE, Short.MAX_VALUE) else r.nextInt().toShort()
        fun float(): Float = if (chance(0.4)) pick(0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 1.5f) else Float.fromBits(r.nextInt()).let { if (it.isNaN()) 0.25f else it }
        fun double(): Double = if (chance(0.4)) pick(0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 0.1) else Double.fromBits(r.nextLong()).let { if (it.isNaN()) -2.5 else it }

        /** A char run of one class: ASCII, Latin-1 beyond ASCII, BMP beyond Latin-1, astral (a surrogate pair). */
        fun run(kind: Int, n: Int): String {
            val sb = StringBuilder()
            repeat(n) {
                when (kind) {
                    0 -> sb.append((0x20 + r.nextInt(0x5f)).toChar())
                    1 -> sb.append((0xa0 + r.nextInt(0x60)).toChar())
                    2 -> sb.append(pick('é', 'ß', '日', '本', 'Ω', 'Ж', '\u0100', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uffee', '\u2603'))
                    else -> sb.appendCodePoint(pick(0x1f600, 0x10000, 0x10ffff, 0x2a6d6, 0x1d11e))
                }
            }
            return sb.toString()
        }

        fun string(): String = when (r.nextInt(12)) {
            0 -> ""
            1 -> run(0, 1 + r.nextInt(20))
            2 -> run(0, 1 + r.nextInt(5)) + run(1, 1 + r.nextInt(5))
            3 -> run(2, 1 + r.nextInt(8))
            4 -> run(3, 1 + r.nextInt(4))
            5 -> run(0, 1 + r.nextInt(4)) + run(2, 1) + run(3, 1)
            // around Fory Java's sample of 64 UTF-16 units (R-WSTR-1): the non-Latin-1 part early or late
            6 -> run(0, 55 + r.nextInt(20)) + run(2 + r.nextInt(2), 1 + r.nextInt(3))
            7 -> run(2 + r.nextInt(2), 1 + r.nextInt(3)) + run(0, 55 + r.nextInt(40))
            8 -> run(1, 60 + r.nextInt(200))
            9 -> { val sb = StringBuilder(); repeat(1 + r.nextInt(12)) { sb.append(run(r.nextInt(4), 1 + r.nextInt(12))) }; sb.toString() }
            10 -> run(0, 100 + r.nextInt(300)) + run(2, 1)
            else -> run(2, 30 + r.nextInt(60)) + run(0, r.nextInt(40))
        }

        fun <T> maybe(p: Double, f: () -> T): T? = if (chance(p)) null else f()
        fun size(): Int = if (chance(0.15)) 0 else if (chance(0.1)) 20 + r.nextInt(40) else 1 + r.nextInt(5)
        fun <T> list(f: () -> T): List<T> = List(size()) { f() }

        /**
         * A list that may hold nulls, but not only nulls: Fory Java 1.6.0 declares an all-null list's
         * elements as a named struct `java.lang.Object` (errata E-18), which libwire does not read.
         */
        fun <T> someNulls(f: () -> T): List<T?> = List(size()) { maybe(0.2) { f() } }.let { l ->
            if (l.isNotEmpty() && l.all { it == null }) l + f() else l
        }

        fun date(): LocalDate = if (chance(0.3)) pick(LocalDate.of(1970, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(1, 1, 1),
            LocalDate.of(9999, 12, 31), LocalDate.of(2024, 2, 29), LocalDate.of(-5000, 6, 1)) else LocalDate.ofEpochDay(r.nextInt(4_000_000) - 2_000_000L)
        fun instant(): Instant = if (chance(0.3)) pick(Instant.EPOCH, Instant.ofEpochSecond(-1, 999_999_999), Instant.ofEpochSecond(0, 1),
            Instant.parse("2024-02-29T12:34:56.789Z"), Instant.ofEpochSecond(253402300799L, 999_999_999))
            else Instant.ofEpochSecond(r.nextLong() % 100_000_000_000L, r.nextInt(1_000_000_000).toLong())
        fun duration(): Duration = if (chance(0.3)) pick(Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(Long.MAX_VALUE / 4, 999_999_999),
            Duration.ofSeconds(-86400L * 365 * 1000, 5)) else Duration.ofSeconds(r.nextLong() % 10_000_000_000L, r.nextInt(1_000_000_000).toLong())
        fun decimal(): BigDecimal {
            val unscaled = when (r.nextInt(6)) {
                0 -> BigInteger.valueOf(pick(0L, -1L, 1L, (1L shl 62) - 1, -(1L shl 62), Long.MAX_VALUE, Long.MIN_VALUE))
                1 -> BigInteger.ONE.shiftLeft(62)
                2 -> BigInteger(70 + r.nextInt(200), r).let { if (r.nextBoolean()) it.negate() else it }
                3 -> BigInteger.valueOf(r.nextInt(100000).toLong() - 50000)
                else -> BigInteger.valueOf(long())
            }
            return BigDecimal(unscaled, if (chance(0.3)) 0 else r.nextInt(40) - 10)
        }

        fun leaf() = DkLeaf(string(), int())

        fun scalars() = DkScalars(
            byte(), short(), int(), long(), float(), double(), r.nextBoolean(),
            maybe(0.4) { byte() }, maybe(0.4) { short() }, maybe(0.4) { int() }, maybe(0.4) { long() },
            maybe(0.4) { float() }, maybe(0.4) { double() }, maybe(0.4) { r.nextBoolean() },
            string(), maybe(0.4) { string() }, pick(*DkHue.entries.toTypedArray()), maybe(0.4) { pick(*DkHue.entries.toTypedArray()) },
            date(), instant(), duration(), decimal(),
            maybe(0.4) { date() }, maybe(0.4) { instant() }, maybe(0.4) { duration() }, maybe(0.4) { decimal() },
            long(),
        )

        fun arrays() = DkArrays(
            // never null where DiffModelJava says @Nullable: Fory Java cannot write a null array field (errata E-55)
            ByteArray(size()).also { r.nextBytes(it) }, ByteArray(size()).also { r.nextBytes(it) },
            BooleanArray(size()) { r.nextBoolean() }, ShortArray(size()) { short() }, IntArray(size()) { int() },
            LongArray(size()) { long() }, FloatArray(size()) { float() }, DoubleArray(size()) { double() },
            IntArray(size()) { int() },
        )

        fun colls(): DkColls {
            val pool = List(1 + r.nextInt(3)) { leaf() }
            return DkColls(
                someNulls { string() }, list { long() }, list { int() }, list { double() },
                list { string() }.toCollection(LinkedHashSet()),
                someNulls { if (!ref && chance(0.3)) pool[r.nextInt(pool.size)] else leaf() },
                LinkedHashMap<String?, String?>().also { m -> repeat(size()) { m[maybe(0.1) { string() }] = maybe(0.2) { string() } } },
                LinkedHashMap<String, Long?>().also { m -> repeat(size()) { m[string()] = maybe(0.2) { long() } } },
                LinkedHashMap<String, DkLeaf>().also { m -> repeat(size()) { m[string()] = if (!ref && chance(0.3)) pool[0] else leaf() } },
                LinkedHashMap<Int, Double>().also { m -> repeat(size()) { m[int()] = double() } },
                maybe(0.4) { list { string() } }, list { pick(*DkHue.entries.toTypedArray()) },
                list { list { string() } }, list { long() }.toCollection(LinkedHashSet()),
            )
        }

        fun outer() = DkOuter(leaf(), maybe(0.4) { leaf() }, scalars(), arrays(), colls())

        fun graph(): DkGraph {
            val leaves = List(1 + r.nextInt(4)) { leaf() }
            fun lf() = if (ref || chance(0.5)) leaves[r.nextInt(leaves.size)] else leaf()
            val nodes = ArrayList<DkNode>()
            repeat(r.nextInt(5)) {
                val next = if (nodes.isEmpty() || chance(0.4)) null else if (ref) nodes[r.nextInt(nodes.size)] else null
                nodes.add(DkNode(string(), next, ArrayList()))
            }
            for (n in nodes) repeat(r.nextInt(3)) {
                // under reference tracking any node (itself, an ancestor: a cycle); without, a fresh leaf node
                n.kids.add(if (ref) nodes[r.nextInt(nodes.size)] else DkNode(string(), null, ArrayList()))
            }
            // `plain` is not declared ref: under reference tracking Fory Java shares its elements in
            // schema-consistent mode only, libwire's compiled codecs never (errata E-50), so no sharing there
            return DkGraph(lf(), maybe(0.3) { lf() }, List(size()) { lf() }, nodes.firstOrNull(), List(size()) { if (ref) leaf() else lf() })
        }

        /** Fixed edge cases: empty and null collections, extreme numbers, the longest strings. */
        fun edgeValues(): List<Any> {
            val empty = DkColls(emptyList(), emptyList(), emptyList(), emptyList(), emptySet(), emptyList(), emptyMap(), emptyMap(),
                emptyMap(), emptyMap(), emptyList(), emptyList(), listOf(emptyList()), emptySet())
            val sc = scalars()
            val arr = DkArrays(ByteArray(0), ByteArray(0), BooleanArray(0), ShortArray(0), IntArray(0), LongArray(0), FloatArray(0), DoubleArray(0), IntArray(0))
            val arrNull = DkArrays(ByteArray(1), ByteArray(1), BooleanArray(1), ShortArray(1), IntArray(1), LongArray(1), FloatArray(1), DoubleArray(1), IntArray(1))
            val mins = sc.copy(b = Byte.MIN_VALUE, s = Short.MIN_VALUE, i = Int.MIN_VALUE, l = Long.MIN_VALUE, f = -0f, d = -0.0,
                ob = Byte.MAX_VALUE, os = Short.MAX_VALUE, oi = Int.MAX_VALUE, ol = Long.MAX_VALUE, of = Float.NaN, od = Double.NaN, oz = false,
                str = "", ostr = "", weightGrams = -1)
            val nulls = sc.copy(ob = null, os = null, oi = null, ol = null, of = null, od = null, oz = null, ostr = null, ohue = null,
                oday = null, oat = null, ospan = null, odec = null)
            val strs = listOf("a".repeat(70) + "日", "日" + "a".repeat(70), "a".repeat(63) + "😀", "a".repeat(64) + "😀",
                "é".repeat(300), "😀".repeat(40), "x".repeat(5000) + "日", "日".repeat(2000))
            return listOf(
                DkOuter(DkLeaf("", 0), null, mins, arr, empty),
                DkOuter(DkLeaf("😀", -1), DkLeaf("é", Int.MIN_VALUE), nulls, arrNull, empty.copy(ostrs = null)),
            ) + strs.map { s -> DkOuter(DkLeaf(s, 1), null, sc.copy(str = s, ostr = s), arr, empty.copy(strs = listOf(s, null), smap = mapOf(s to s))) }
        }
    }

    // ---------------------------------------------------------------- Kotlin <-> Java objects

    private fun toJava(v: Any?, seen: IdentityHashMap<Any, Any>): Any? = when (v) {
        null -> null
        is Enum<*> -> DiffModelJava.Hue.valueOf(v.name)
        is Set<*> -> v.mapTo(LinkedHashSet()) { toJava(it, seen) }
        is List<*> -> v.mapTo(ArrayList()) { toJava(it, seen) }
        is Map<*, *> -> LinkedHashMap<Any?, Any?>().also { m -> for ((a, b) in v) m[toJava(a, seen)] = toJava(b, seen) }
        else -> {
            val jc = toJ[v.javaClass]
            if (jc == null) v else seen[v] ?: run {
                val o = jc.getDeclaredConstructor().newInstance()
                seen[v] = o
                for (p in v::class.primaryConstructor!!.parameters) {
                    val prop = v::class.memberProperties.first { it.name == p.name }
                    jc.getField(snakeCase(p.name!!)).set(o, toJava(prop.getter.call(v), seen))
                }
                o
            }
        }
    }

    private val mutableColl = typeOf<MutableCollection<*>?>()

    private fun fromJava(j: Any?, kt: KType, seen: IdentityHashMap<Any, Any>): Any? {
        if (j == null) return null
        val k = kt.jvmErasure
        return when {
            k == DkHue::class -> DkHue.valueOf((j as Enum<*>).name)
            k == Set::class -> (j as Set<*>).mapTo(LinkedHashSet()) { fromJava(it, kt.arguments[0].type!!, seen) }
            k == List::class -> (j as List<*>).mapTo(ArrayList()) { fromJava(it, kt.arguments[0].type!!, seen) }
            k == Map::class -> LinkedHashMap<Any?, Any?>().also { m ->
                for ((a, b) in j as Map<*, *>) m[fromJava(a, kt.arguments[0].type!!, seen)] = fromJava(b, kt.arguments[1].type!!, seen)
            }
            toJ.containsKey(k.java) -> fromJava(j, k, seen)
            else -> j
        }
    }

    /** A Java object as the Kotlin class [k]; mutable list properties are filled after the object exists (cycles). */
    private fun fromJava(j: Any, k: KClass<*>, seen: IdentityHashMap<Any, Any>): Any {
        seen[j]?.let { return it }
        val ctor = k.primaryConstructor!!
        val later = ArrayList<Pair<MutableList<Any?>, Pair<List<*>, KType>>>()
        val args = ctor.parameters.map { p ->
            val jv = j.javaClass.getField(snakeCase(p.name!!)).get(j)
            if (p.type.isSubtypeOf(mutableColl) && jv != null) {
                ArrayList<Any?>().also { later.add(it to ((jv as List<*>) to p.type.arguments[0].type!!)) }
            } else {
                fromJava(jv, p.type, seen)
            }
        }
        val o = ctor.call(*args.toTypedArray())!!
        seen[j] = o
        for ((dst, src) in later) for (x in src.first) dst.add(fromJava(x, src.second, seen))
        return o
    }

    // ---------------------------------------------------------------- comparison

    private fun isStruct(v: Any?) = v != null && toJ.containsKey(v.javaClass)

    private fun hasCycle(v: Any): Boolean {
        val state = IdentityHashMap<Any, Int>() // 1 on the path, 2 done
        fun visit(x: Any?): Boolean = when {
            x == null -> false
            x is Collection<*> -> x.any { visit(it) }
            x is Map<*, *> -> x.values.any { visit(it) }
            !isStruct(x) -> false
            state[x] == 1 -> true
            state[x] == 2 -> false
            else -> {
                state[x] = 1
                val found = x::class.memberProperties.any { visit(it.getter.call(x)) }
                state[x] = 2
                found
            }
        }
        return visit(v)
    }

    /**
     * [want] and [got] are the same value: numbers by their bits (NaN, -0.0), decimals with their
     * scale, arrays by content; with [shared], the same graph (a struct met twice in [want] is one
     * object in [got] and the other way round).
     */
    private fun same(want: Any?, got: Any?, shared: Boolean) {
        val ab = IdentityHashMap<Any, Any>()
        val ba = IdentityHashMap<Any, Any>()
        fun diff(a: Any?, b: Any?, path: String): String? {
            if (a == null || b == null) return if (a == null && b == null) null else "$path: $a vs $b"
            if (isStruct(a)) {
                if (a.javaClass != b.javaClass) return "$path: ${a.javaClass.simpleName} vs ${b.javaClass.simpleName}"
                if (shared) {
                    val m = ab[a]
                    val n = ba[b]
                    if (m != null || n != null) return if (m === b && n === a) null else "$path: sharing differs"
                    ab[a] = b
                    ba[b] = a
                }
                for (p in a::class.primaryConstructor!!.parameters) {
                    val prop = a::class.memberProperties.first { it.name == p.name }
                    diff(prop.getter.call(a), prop.getter.call(b), "$path.${p.name}")?.let { return it }
                }
                return null
            }
            return when {
                a is List<*> && b is List<*> -> if (a.size != b.size) "$path: size ${a.size} vs ${b.size}" else
                    a.indices.firstNotNullOfOrNull { diff(a[it], b[it], "$path[$it]") }
                a is Set<*> && b is Set<*> -> if (a == b) null else "$path: $a vs $b"
                a is Map<*, *> && b is Map<*, *> -> if (a.size != b.size || !b.keys.containsAll(a.keys)) "$path: keys ${a.keys} vs ${b.keys}" else
                    a.entries.firstNotNullOfOrNull { (k, x) -> diff(x, b[k], "$path[$k]") }
                a is Collection<*> || b is Collection<*> || a is Map<*, *> || b is Map<*, *> ->
                    "$path: ${a.javaClass.simpleName} vs ${b.javaClass.simpleName}"
                else -> if (deepEq(a, b)) null else "$path: $a vs $b"
            }
        }
        diff(want, got, "")?.let { fail<Unit>(it) }
    }
}
