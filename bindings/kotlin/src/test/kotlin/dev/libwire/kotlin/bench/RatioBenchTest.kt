package dev.libwire.kotlin.bench

import dev.libwire.kotlin.Context
import dev.libwire.kotlin.TapeEncoder
import dev.libwire.kotlin.WireOptions
import dev.libwire.kotlin.deepEq
import dev.libwire.kotlin.hex
import dev.libwire.kotlin.repoRoot
import org.apache.fory.Fory
import org.apache.fory.config.CompatibleMode
import org.apache.fory.config.Language
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/**
 * The binding against Fory Java 1.6.0 in one JVM (`mvn -B -Pbench verify`): for each workload,
 * encode and decode of both, interleaved (3 rounds; each job warmed, then the fastest of 7
 * batches of ~0.1 s of thread CPU time: on a shared machine interference only adds time).
 * Prints `BENCH kotlin <workload> <enc|dec> ratio=<libwire / fory-java>` and a table
 * (also target/bench-ratios.md). Before timing, each side's bytes are read by the other and
 * must give the value back.
 */
@Tag("bench")
class RatioBenchTest {
    class Workload(
        val name: String,
        val ctx: Context,
        val value: Any,
        val lEnc: () -> ByteArray,
        val lDec: (ByteArray) -> Any?,
        val fEnc: () -> ByteArray,
        val fDec: (ByteArray) -> Any?,
        val check: (libBytes: ByteArray, foryBytes: ByteArray) -> Unit,
    )

    private var state = -7046029254386353131L

    private fun rng(): Long {
        state = state xor (state ushr 12)
        state = state xor (state shl 25)
        state = state xor (state ushr 27)
        return state * 0x2545F4914F6CDD1DL
    }

    private fun spread(): Long {
        val r = rng()
        val v = rng() ushr (r and 63).toInt()
        return if (r and 64 != 0L) -v else v
    }

    private val words = listOf("alpha", "beta", "gamma", "delta", "café", "naïve", "id", "value")
    private val cjk = listOf("数据", "字符串", "编码器", "解码", "测试值", "列表", "映射表", "序列化")

    private fun listMixed(): List<Any?> = ArrayList<Any?>(1000).also { list ->
        for (i in 0 until 1000) list.add(
            when (i % 8) {
                0, 1, 7 -> spread()
                2 -> rng().toDouble() / 1048576.0
                3 -> (rng() and 1L) != 0L
                4, 5 -> words[(rng() and 7).toInt()] + "-" + i
                else -> cjk[(rng() and 7).toInt()] + cjk[(rng() and 7).toInt()]
            },
        )
    }

    private val mx = java.lang.management.ManagementFactory.getThreadMXBean()
    private fun cpu(): Long = mx.currentThreadCpuTime
    private var sink = 0L

    private fun measure(warmNs: Long, fn: () -> Any?): Double {
        val warmEnd = cpu() + warmNs
        var calls = 0L
        while (cpu() < warmEnd) { touch(fn()); calls++ }
        val batch = maxOf(1L, calls * 100_000_000L / warmNs)
        var best = Double.MAX_VALUE
        repeat(7) {
            val t0 = cpu()
            for (k in 0 until batch) touch(fn())
            best = minOf(best, (cpu() - t0).toDouble() / batch)
        }
        return best
    }

    private fun touch(x: Any?) {
        sink += when (x) {
            is ByteArray -> x.size.toLong()
            is Collection<*> -> x.size.toLong()
            else -> 1L
        }
    }

    @Test
    fun ratios() {
        val foryStructs = Fory.builder().withXlang(true).withCompatible(true).withCodegen(true)
            .withRefTracking(false).withClassVersionCheck(false).requireClassRegistration(true).build()
        ForyModel.register(foryStructs)
        val foryDyn = Fory.builder().withLanguage(Language.XLANG).withRefTracking(false)
            .withCompatibleMode(CompatibleMode.SCHEMA_CONSISTENT).build()
        val structs = Context(WireOptions(compatible = true))
        structs.registerSchema(repoRoot.resolve("bench/schemas/bench.fdl"))
        structs.registerDataClass(NumericStruct::class, "bench.NumericStruct")
        structs.registerDataClass(Sample::class, "bench.Sample")
        structs.registerDataClass(Media::class, "bench.Media")
        structs.registerDataClass(Image::class, "bench.Image")
        structs.registerDataClass(MediaContent::class, "bench.MediaContent")
        structs.registerEnum(Player::class, "bench.Player")
        structs.registerEnum(Size::class, "bench.Size")
        for (k in listOf(NumericStruct::class, Sample::class, Media::class, Image::class, MediaContent::class)) {
            assertTrue(structs.hasPlan(k), "${k.simpleName} has a codec plan")
        }
        val dyn = Context()

        fun struct(name: String, k: Any, j: Any): Workload = Workload(
            name, structs, k, { structs.encode(k) }, { structs.decode(it) }, { foryStructs.serialize(j) }, { foryStructs.deserialize(it) },
        ) { lb, fb ->
            assertEquals(k, structs.decode(fb), "$name: libwire reads Fory's bytes")
            assertArrayEquals(fb, foryStructs.serialize(foryStructs.deserialize(lb)), "$name: Fory reads libwire's bytes")
        }
        fun dynamic(name: String, v: Any): Workload = Workload(
            name, dyn, v, { dyn.encode(v) }, { dyn.decode(it) }, { foryDyn.serialize(v) }, { foryDyn.deserialize(it) },
        ) { lb, fb ->
            assertTrue(deepEq(v, dyn.decode(fb)), "$name: libwire reads Fory's bytes")
            assertTrue(deepEq(v, foryDyn.deserialize(lb)), "$name: Fory reads libwire's bytes")
        }
        val map = LinkedHashMap<String, Long>().also { m -> for (i in 0 until 10000) m["key%05d".format(i)] = spread() }
        val workloads = listOf(
            struct("MediaContent", BenchValues.mediaContent(), ForyModel.mediaContent()),
            struct("NumericStruct", BenchValues.numericStruct(), ForyModel.numericStruct()),
            struct("Sample", BenchValues.sample(), ForyModel.sample()),
            dynamic("list_mixed_1000", listMixed()),
            dynamic("map_str_i64_10000", map),
            dynamic("i64_array_100000", LongArray(100000) { spread() }),
            dynamic("binary_1MiB", ByteArray(1 shl 20) { rng().toByte() }),
            dynamic("strings_10000", List(10000) { "%s %05d".format(words[(rng() and 7).toInt()], it) }),
        )
        val sizes = HashMap<String, Pair<Int, Int>>()
        for (w in workloads) {
            val lb = w.lEnc()
            val fb = w.fEnc()
            w.check(lb, fb)
            sizes[w.name] = lb.size to fb.size
        }
        val best = HashMap<String, Double>()
        var warm = 1_000_000_000L
        repeat(3) {
            for (w in workloads) {
                val lb = w.lEnc()
                val fb = w.fEnc()
                for ((key, fn) in listOf<Pair<String, () -> Any?>>(
                    "f enc" to w.fEnc, "l enc" to w.lEnc, "f dec" to { w.fDec(fb) }, "l dec" to { w.lDec(lb) },
                    "l tape" to { TapeEncoder(w.ctx).write(listOf(w.value)) }, "l ctape" to { w.ctx.decodeToTape(lb) },
                )) {
                    val k = "${w.name} $key"
                    best[k] = minOf(best[k] ?: Double.MAX_VALUE, measure(warm, fn))
                }
            }
            warm = 300_000_000L
        }
        val out = StringBuilder()
        fun line(s: String) { println(s); out.append(s).append('\n') }
        line("JDK ${Runtime.version()}, fory-core 1.6.0 (xlang; structs compatible + codegen), libwire via java.lang.foreign; load ${loadAverage()}")
        line("")
        line("| workload | bytes libwire / Fory | Fory enc µs | libwire enc µs | enc ratio | Fory dec µs | libwire dec µs | dec ratio |")
        line("|---|---|---:|---:|---:|---:|---:|---:|")
        val bench = ArrayList<String>()
        for (w in workloads) {
            val fe = best["${w.name} f enc"]!!; val le = best["${w.name} l enc"]!!
            val fd = best["${w.name} f dec"]!!; val ld = best["${w.name} l dec"]!!
            val (ls, fs) = sizes[w.name]!!
            line("| ${w.name} | $ls / $fs | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |".format(
                fe / 1000, le / 1000, le / fe, fd / 1000, ld / 1000, ld / fd))
            bench.add("BENCH kotlin ${w.name} enc ratio=%.2f".format(le / fe))
            bench.add("BENCH kotlin ${w.name} dec ratio=%.2f".format(ld / fd))
        }
        line("")
        line("Where the binding's time goes (µs): encode = the JVM writes the tape + C (wire_encode_tape_to, result copy); decode = C (wire_decode_tape_to, tape copy) + the JVM reads the tape")
        line("")
        line("| workload | enc: JVM tape | enc: C | dec: C | dec: JVM |")
        line("|---|---:|---:|---:|---:|")
        for (w in workloads) {
            val le = best["${w.name} l enc"]!!; val lt = best["${w.name} l tape"]!!
            val ld = best["${w.name} l dec"]!!; val lc = best["${w.name} l ctape"]!!
            line("| ${w.name} | %.3f | %.3f | %.3f | %.3f |".format(lt / 1000, (le - lt) / 1000, lc / 1000, (ld - lc) / 1000))
        }
        line("")
        for (b in bench) line(b)
        println("(sink $sink)")
        Files.createDirectories(Path.of("target"))
        Files.writeString(Path.of("target/bench-ratios.md"), out.toString())
        structs.close()
        dyn.close()
    }

    private fun loadAverage(): String = try {
        Files.readString(Path.of("/proc/loadavg")).split(" ").take(3).joinToString(" ")
    } catch (_: Exception) {
        "?"
    }
}
