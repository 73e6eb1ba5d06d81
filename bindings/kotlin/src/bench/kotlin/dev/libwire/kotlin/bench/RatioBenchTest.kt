package dev.libwire.kotlin.bench

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.cbor.databind.CBORMapper
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule
import com.fasterxml.jackson.module.kotlin.kotlinModule
import dev.libwire.bench.ForyModel
import dev.libwire.kotlin.Context
import dev.libwire.kotlin.WireOptions
import kotlinx.serialization.ExperimentalSerializationApi
import kotlinx.serialization.cbor.Cbor
import kotlinx.serialization.protobuf.ProtoBuf
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
 * encode and decode of both, 3 rounds. Fory's job and libwire's are warmed (until the JIT is
 * quiet too), then timed in alternation, 5 pairs of batches of ~50 ms of thread CPU time a round;
 * the ratio is the median of the 15 pairs' ratios, the µs each side's fastest batch (round 65:
 * on this shared machine a slow stretch lasts seconds and slows both batches of a pair).
 * Prints `BENCH kotlin <workload> <enc|dec> ratio=<libwire / fory-java>` and tables (also
 * target/bench-ratios.md); `-Dbench.batches=true` prints every batch. Before timing, each side's
 * bytes are read by the other and must give the value back.
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

    private val mx = java.lang.management.ManagementFactory.getThreadMXBean()
    private fun cpu(): Long = mx.currentThreadCpuTime
    private var sink = 0L

    private val jit = java.lang.management.ManagementFactory.getCompilationMXBean()
    /** -Dbench.batches=true: every batch's ns per call printed at the end (`BATCH` lines). */
    private val logBatches = java.lang.Boolean.getBoolean("bench.batches")
    private val batchLog = StringBuilder()

    /**
     * Runs [fn] for [warmNs] of thread CPU time, then on until the JIT has finished no compilation
     * for 3 stretches of ~20 ms in a row (at most [warmNs] more): a batch timed while C2 still
     * compiles the job's code times the tier-3 code (round 65). Returns ns per call of the last
     * stretch.
     */
    private fun warm(warmNs: Long, fn: () -> Any?): Long {
        val warmEnd = cpu() + warmNs
        var calls = 0L
        val t0 = cpu()
        while (cpu() < warmEnd) { touch(fn()); calls++ }
        var per = maxOf(1L, (cpu() - t0) / maxOf(1L, calls))
        val stop = cpu() + warmNs
        var quiet = 0
        var seen = jit.totalCompilationTime
        while (quiet < 3 && cpu() < stop) {
            val n = maxOf(1L, 20_000_000L / per)
            val t = cpu()
            for (k in 0 until n) touch(fn())
            per = maxOf(1L, (cpu() - t) / n)
            val now = jit.totalCompilationTime
            if (now == seen) quiet++ else { quiet = 0; seen = now }
        }
        return per
    }

    /** One batch of [calls] calls of [fn], ns per call of thread CPU time. */
    private fun batch(calls: Long, fn: () -> Any?): Double {
        val t = cpu()
        for (k in 0 until calls) touch(fn())
        return (cpu() - t).toDouble() / calls
    }

    /** Fastest of 5 batches of ~50 ms of thread CPU time after [warm], ns per call. */
    private fun measure(warmNs: Long, label: String, fn: () -> Any?): Double {
        val calls = maxOf(1L, 50_000_000L / warm(warmNs, fn))
        val times = DoubleArray(5) { batch(calls, fn) }
        if (logBatches) batchLog.append("BATCH $label |").append(times.joinToString("") { " %.0f".format(it) }).append('\n')
        return times.min()
    }

    /**
     * Fory's job [f] and libwire's [l] timed in alternation: both warmed, then 5 pairs of batches
     * of ~50 ms each (f, l, f, l, ...). Returns the fastest batch of each and adds each pair's
     * ratio l / f to [ratios]. A machine that slows for seconds (other jobs, the host) slows both
     * batches of a pair alike, where the fastest batches of jobs timed a minute apart need not
     * be comparable (round 65).
     */
    private fun pair(warmNs: Long, label: String, ratios: MutableList<Double>, f: () -> Any?, l: () -> Any?): Pair<Double, Double> {
        warm(warmNs, f)
        warm(warmNs, l)
        // both again, short: each one's warm-up may have compiled code the other shares
        val fc = maxOf(1L, 50_000_000L / warm(warmNs / 4, f))
        val lc = maxOf(1L, 50_000_000L / warm(warmNs / 4, l))
        val ft = DoubleArray(5)
        val lt = DoubleArray(5)
        for (i in 0 until 5) {
            ft[i] = batch(fc, f)
            lt[i] = batch(lc, l)
            ratios.add(lt[i] / ft[i])
        }
        if (logBatches) {
            batchLog.append("BATCH $label f |").append(ft.joinToString("") { " %.0f".format(it) }).append('\n')
            batchLog.append("BATCH $label l |").append(lt.joinToString("") { " %.0f".format(it) }).append('\n')
        }
        return ft.min() to lt.min()
    }

    private fun median(xs: List<Double>): Double = xs.sorted().let { if (it.size % 2 == 1) it[it.size / 2] else (it[it.size / 2 - 1] + it[it.size / 2]) / 2 }

    private fun touch(x: Any?) {
        sink += when (x) {
            is ByteArray -> x.size.toLong()
            is Collection<*> -> x.size.toLong()
            else -> 1L
        }
    }

    /** One library on the order graph: encode and decode of every order, one call each. */
    private class OrderLib(val name: String, val enc: (Int) -> ByteArray, val dec: (ByteArray) -> Any?, val check: (Int, Any?) -> Boolean)

    @OptIn(ExperimentalSerializationApi::class)
    @Test
    fun ratios() {
        val foryStructs = Fory.builder().withXlang(true).withCompatible(true).withCodegen(true)
            .withRefTracking(false).withClassVersionCheck(false).requireClassRegistration(true).build()
        ForyModel.register(foryStructs)
        val foryDyn = Fory.builder().withLanguage(Language.XLANG).withRefTracking(false)
            .withCompatibleMode(CompatibleMode.SCHEMA_CONSISTENT).build()
        val structs = BenchValues.context()
        for (k in listOf(NumericStruct::class, Sample::class, Media::class, Image::class, MediaContent::class)) {
            assertTrue(structs.hasLayout(k), "${k.simpleName} has a native layout: ${structs.layoutProblem(k)}")
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
        val tape = TapeValues()
        val allWorkloads = listOf(
            struct("MediaContent", BenchValues.mediaContent(), ForyModel.mediaContent()),
            struct("NumericStruct", BenchValues.numericStruct(), ForyModel.numericStruct()),
            struct("Sample", BenchValues.sample(), ForyModel.sample()),
            dynamic("list_mixed_1000", tape.mixed),
            dynamic("map_str_i64_10000", tape.map),
            dynamic("i64_array_100000", tape.longs),
            dynamic("binary_1MiB", tape.binary),
            dynamic("strings_10000", tape.strings),
        )
        // -Dbench.only=NAME,NAME (e.g. MediaContent,orders): a quicker run of some workloads
        val only = System.getProperty("bench.only")?.split(",")?.toSet()
        val workloads = allWorkloads.filter { only == null || it.name in only }
        val sizes = HashMap<String, Pair<Int, Int>>()
        for (w in workloads) {
            val lb = w.lEnc()
            val fb = w.fEnc()
            w.check(lb, fb)
            sizes[w.name] = lb.size to fb.size
        }

        // ---- the order graph: 200 orders, round-tripped one by one
        val orders = OrderGraph.create()
        val jorders = orders.map { OrderGraph.toJava(it) }
        val n = orders.size
        val lw = OrderGraph.context()
        assertTrue(lw.hasLayout(Order::class), "Order has a native layout: ${lw.layoutProblem(Order::class)}")
        val foryX = Fory.builder().withXlang(true).withCompatible(true).withCodegen(true).withRefTracking(true)
            .withClassVersionCheck(false).requireClassRegistration(true).build()
        OrderModelJava.register(foryX)
        val foryN = Fory.builder().withLanguage(Language.JAVA).withRefTracking(true).withCodegen(true)
            .requireClassRegistration(true).build()
        OrderModelJava.register(foryN)
        val proto = ProtoBuf
        val cbor = Cbor
        val json = ObjectMapper().registerModule(kotlinModule()).registerModule(JavaTimeModule())
        val jcbor = CBORMapper().registerModule(kotlinModule()).registerModule(JavaTimeModule())
        val libs = listOf(
            OrderLib("libwire (xlang, compatible, ref tracking)", { lw.encode(orders[it]) }, { lw.decode(it, Order::class) }) { i, v ->
                v == orders[i] && OrderGraph.sharesLikeTheOriginal(orders[i], v as Order)
            },
            OrderLib("Fory Java xlang (compatible, ref tracking)", { foryX.serialize(jorders[it]) }, { foryX.deserialize(it) }) { i, v ->
                OrderGraph.fromJava(v as OrderModelJava.Order) == orders[i] && OrderGraph.sharesLikeTheOriginal(orders[i], v)
            },
            OrderLib("Fory Java native (ref tracking)", { foryN.serialize(jorders[it]) }, { foryN.deserialize(it) }) { i, v ->
                OrderGraph.fromJava(v as OrderModelJava.Order) == orders[i] && OrderGraph.sharesLikeTheOriginal(orders[i], v)
            },
        ).let { all -> if (only == null || "orders" in only) all else all.take(2) } + listOf(
            OrderLib("kotlinx.serialization ProtoBuf", { proto.encodeToByteArray(Order.serializer(), orders[it]) },
                { proto.decodeFromByteArray(Order.serializer(), it) }) { i, v -> v == orders[i] },
            OrderLib("kotlinx.serialization CBOR", { cbor.encodeToByteArray(Order.serializer(), orders[it]) },
                { cbor.decodeFromByteArray(Order.serializer(), it) }) { i, v -> v == orders[i] },
            OrderLib("Jackson JSON (jackson-module-kotlin)", { json.writeValueAsBytes(orders[it]) },
                { json.readValue(it, Order::class.java) }) { i, v -> v == orders[i] },
            OrderLib("Jackson CBOR (jackson-module-kotlin)", { jcbor.writeValueAsBytes(orders[it]) },
                { jcbor.readValue(it, Order::class.java) }) { i, v -> v == orders[i] },
        ).filter { only == null || "orders" in only }
        val encoded = HashMap<String, List<ByteArray>>()
        for (l in libs) {
            val bs = List(n) { l.enc(it) }
            for (i in 0 until n) assertTrue(l.check(i, l.dec(bs[i])), "${l.name}: order $i comes back equal")
            encoded[l.name] = bs
        }
        // interop: each side reads the other's bytes to the same order
        val lwBytes = encoded[libs[0].name]!!
        val fxBytes = encoded[libs[1].name]!!
        var sameBytes = 0
        var firstDiff: String? = null
        for (i in 0 until n) {
            assertEquals(orders[i], lw.decode(fxBytes[i], Order::class), "libwire reads Fory's order $i")
            assertEquals(orders[i], OrderGraph.fromJava(foryX.deserialize(lwBytes[i]) as OrderModelJava.Order), "Fory reads libwire's order $i")
            if (lwBytes[i].contentEquals(fxBytes[i])) sameBytes++
            else if (firstDiff == null) {
                val k = (0 until minOf(lwBytes[i].size, fxBytes[i].size)).firstOrNull { lwBytes[i][it] != fxBytes[i][it] } ?: -1
                firstDiff = "order $i differs first at byte $k: libwire ${hex(lwBytes[i].copyOfRange(maxOf(0, k - 8), minOf(lwBytes[i].size, k + 24)))}, Fory ${hex(fxBytes[i].copyOfRange(maxOf(0, k - 8), minOf(fxBytes[i].size, k + 24)))}"
            }
        }
        firstDiff?.let { println(it) }
        assertEquals(n, sameBytes, "libwire writes Fory Java's bytes for every order")
        Files.createDirectories(Path.of("target"))
        Files.write(Path.of("target/order0.libwire.bin"), lwBytes[0])
        Files.write(Path.of("target/order0.fory-xlang.bin"), fxBytes[0])

        val best = HashMap<String, Double>()
        val ratios = HashMap<String, MutableList<Double>>()
        fun keep(k: String, v: Double) { best[k] = minOf(best[k] ?: Double.MAX_VALUE, v) }
        fun pairOf(k: String, f: () -> Any?, l: () -> Any?, warm: Long, per: Int = 1) {
            val (fb, lb) = pair(warm, k, ratios.getOrPut(k) { ArrayList() }, f, l)
            keep("$k f", fb / per)
            keep("$k l", lb / per)
        }
        var warm = 500_000_000L
        repeat(3) {
            for (w in workloads) {
                val lb = w.lEnc()
                val fb = w.fEnc()
                pairOf("${w.name} enc", w.fEnc, w.lEnc, warm)
                pairOf("${w.name} dec", { w.fDec(fb) }, { w.lDec(lb) }, warm)
                if (w.ctx === structs) {
                    val p = structs.mem.planOf(w.value.javaClass)!!
                    keep("${w.name} l image", measure(warm, "${w.name} l image") { structs.mem.imageOnly(p, w.value) })
                    keep("${w.name} l native", measure(warm, "${w.name} l native") { structs.mem.nativeOnly(p, lb) })
                }
            }
            // libwire and Fory Java xlang in alternation (the ratio); the other libraries alone
            val lwl = libs[0]
            val fxl = libs[1]
            val lwb = encoded[lwl.name]!!
            val fxb = encoded[fxl.name]!!
            pairOf("orders enc", { var t = 0L; for (i in 0 until n) t += fxl.enc(i).size; t },
                { var t = 0L; for (i in 0 until n) t += lwl.enc(i).size; t }, warm, n)
            pairOf("orders dec", { for (i in 0 until n) fxl.dec(fxb[i]); n }, { for (i in 0 until n) lwl.dec(lwb[i]); n }, warm, n)
            best["${lwl.name} enc"] = best["orders enc l"]!!
            best["${lwl.name} dec"] = best["orders dec l"]!!
            best["${fxl.name} enc"] = best["orders enc f"]!!
            best["${fxl.name} dec"] = best["orders dec f"]!!
            for (l in libs.drop(2)) {
                val bs = encoded[l.name]!!
                keep("${l.name} enc", measure(warm, "${l.name} enc") { var t = 0L; for (i in 0 until n) t += l.enc(i).size; t } / n)
                keep("${l.name} dec", measure(warm, "${l.name} dec") { for (i in 0 until n) l.dec(bs[i]); n } / n)
            }
            val op = lw.mem.planOf(Order::class.java)!!
            keep("orders l image", measure(warm, "orders l image") { for (i in 0 until n) lw.mem.imageOnly(op, orders[i]); n } / n)
            keep("orders l native", measure(warm, "orders l native") { for (i in 0 until n) lw.mem.nativeOnly(op, lwBytes[i]); n } / n)
            warm = 150_000_000L
        }
        val out = StringBuilder()
        fun line(s: String) { println(s); out.append(s).append('\n') }
        line("JDK ${Runtime.version()}, fory-core 1.6.0, libwire via java.lang.foreign; load ${loadAverage()}")
        line("")
        line("| workload | bytes libwire / Fory | Fory enc µs | libwire enc µs | enc ratio | Fory dec µs | libwire dec µs | dec ratio |")
        line("|---|---|---:|---:|---:|---:|---:|---:|")
        val bench = ArrayList<String>()
        val spread = ArrayList<String>()
        fun row(name: String, ls: Number, fs: Number, fe: Double, le: Double, fd: Double, ld: Double) {
            val re = median(ratios["$name enc"]!!)
            val rd = median(ratios["$name dec"]!!)
            line("| $name | $ls / $fs | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |".format(
                fe / 1000, le / 1000, re, fd / 1000, ld / 1000, rd))
            bench.add("BENCH kotlin $name enc ratio=%.2f".format(re))
            bench.add("BENCH kotlin $name dec ratio=%.2f".format(rd))
            for (d in listOf("enc", "dec")) {
                val r = ratios["$name $d"]!!
                spread.add("| $name $d | %.2f | %.2f–%.2f | %.2f |".format(median(r), r.min(), r.max(), r.min() / r.max()))
            }
        }
        for (w in workloads) {
            val (ls, fs) = sizes[w.name]!!
            row(w.name, ls, fs, best["${w.name} enc f"]!!, best["${w.name} enc l"]!!, best["${w.name} dec f"]!!, best["${w.name} dec l"]!!)
        }
        val avg = { name: String -> encoded[name]!!.sumOf { it.size } / n }
        row("orders", avg(libs[0].name), avg(libs[1].name), best["${libs[1].name} enc"]!!, best["${libs[0].name} enc"]!!,
            best["${libs[1].name} dec"]!!, best["${libs[0].name} dec"]!!)
        line("")
        line("Where the binding's time goes on the structs (µs): encode = the JVM writes the image + C (copy, wire_mem_encode, result copy); decode = C (wire_mem_decode, arena copy) + the JVM builds the objects")
        line("")
        line("| workload | enc: JVM image | enc: C and copies | dec: C and copy | dec: JVM objects |")
        line("|---|---:|---:|---:|---:|")
        for (name in workloads.map { it.name } + "orders") {
            val li = best["$name l image"] ?: continue
            val ln = best["$name l native"]!!
            val le = best["$name enc l"]!!
            val ld = best["$name dec l"]!!
            line("| $name | %.3f | %.3f | %.3f | %.3f |".format(li / 1000, (le - li) / 1000, ln / 1000, (ld - ln) / 1000))
        }
        line("")
        line("")
        line("Order graph: 200 orders (java.util.Random(42)), each encoded and decoded by itself; µs per order; every decoded order equals the original (libwire and Fory: shared objects shared); libwire and Fory xlang read each other's bytes (identical for $sameBytes of $n orders)")
        line("")
        line("| library | bytes per order | encode µs | decode µs | round trip µs | vs libwire |")
        line("|---|---:|---:|---:|---:|---:|")
        val lrt = best["${libs[0].name} enc"]!! + best["${libs[0].name} dec"]!!
        for (l in libs) {
            val e = best["${l.name} enc"]!!
            val d = best["${l.name} dec"]!!
            line("| ${l.name} | ${avg(l.name)} | %.2f | %.2f | %.2f | %.2f |".format(e / 1000, d / 1000, (e + d) / 1000, (e + d) / lrt))
        }
        line("")
        line("Ratios: the median of ${ratios.values.first().size} pairs of batches (Fory, libwire) timed in alternation; µs: each side's fastest batch")
        line("")
        line("| job | median ratio | pairs' range | min / max |")
        line("|---|---:|---:|---:|")
        for (sp in spread) line(sp)
        line("")
        for (b in bench) line(b)
        println("(sink $sink)")
        print(batchLog)
        Files.createDirectories(Path.of("target"))
        Files.writeString(Path.of("target/bench-ratios.md"), out.toString())
        structs.close()
        dyn.close()
        lw.close()
    }

    private fun loadAverage(): String = try {
        Files.readString(Path.of("/proc/loadavg")).split(" ").take(3).joinToString(" ")
    } catch (_: Exception) {
        "?"
    }
}
