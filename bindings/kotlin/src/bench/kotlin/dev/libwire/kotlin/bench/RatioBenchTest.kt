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

    private val mx = java.lang.management.ManagementFactory.getThreadMXBean()
    private fun cpu(): Long = mx.currentThreadCpuTime
    private var sink = 0L

    /** Fastest of 5 batches of ~50 ms of thread CPU time after [warmNs] of warm-up, ns per call. */
    private fun measure(warmNs: Long, fn: () -> Any?): Double {
        val warmEnd = cpu() + warmNs
        var calls = 0L
        val t0 = cpu()
        while (cpu() < warmEnd) { touch(fn()); calls++ }
        val per = maxOf(1L, (cpu() - t0) / maxOf(1L, calls))
        val batch = maxOf(1L, 50_000_000L / per)
        var best = Double.MAX_VALUE
        repeat(5) {
            val t = cpu()
            for (k in 0 until batch) touch(fn())
            best = minOf(best, (cpu() - t).toDouble() / batch)
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
        var warm = 500_000_000L
        repeat(3) {
            for (w in workloads) {
                val lb = w.lEnc()
                val fb = w.fEnc()
                for ((key, fn) in listOf<Pair<String, () -> Any?>>(
                    "f enc" to w.fEnc, "l enc" to w.lEnc, "f dec" to { w.fDec(fb) }, "l dec" to { w.lDec(lb) },
                ) + (if (w.ctx === structs) {
                    val p = structs.mem.planOf(w.value.javaClass)!!
                    listOf<Pair<String, () -> Any?>>("l image" to { structs.mem.imageOnly(p, w.value) }, "l native" to { structs.mem.nativeOnly(p, lb) })
                } else emptyList())) {
                    val k = "${w.name} $key"
                    best[k] = minOf(best[k] ?: Double.MAX_VALUE, measure(warm, fn))
                }
            }
            for (l in libs) {
                val bs = encoded[l.name]!!
                val e = measure(warm) { var t = 0L; for (i in 0 until n) t += l.enc(i).size; t } / n
                val d = measure(warm) { for (i in 0 until n) l.dec(bs[i]); n } / n
                best["${l.name} enc"] = minOf(best["${l.name} enc"] ?: Double.MAX_VALUE, e)
                best["${l.name} dec"] = minOf(best["${l.name} dec"] ?: Double.MAX_VALUE, d)
            }
            val op = lw.mem.planOf(Order::class.java)!!
            val oi = measure(warm) { for (i in 0 until n) lw.mem.imageOnly(op, orders[i]); n } / n
            val on = measure(warm) { for (i in 0 until n) lw.mem.nativeOnly(op, lwBytes[i]); n } / n
            best["orders l image"] = minOf(best["orders l image"] ?: Double.MAX_VALUE, oi)
            best["orders l native"] = minOf(best["orders l native"] ?: Double.MAX_VALUE, on)
            warm = 150_000_000L
        }
        val out = StringBuilder()
        fun line(s: String) { println(s); out.append(s).append('\n') }
        line("JDK ${Runtime.version()}, fory-core 1.6.0, libwire via java.lang.foreign; load ${loadAverage()}")
        line("")
        line("| workload | bytes libwire / Fory | Fory enc µs | libwire enc µs | enc ratio | Fory dec µs | libwire dec µs | dec ratio |")
        line("|---|---|---:|---:|---:|---:|---:|---:|")
        val bench = ArrayList<String>()
        fun row(name: String, ls: Number, fs: Number, fe: Double, le: Double, fd: Double, ld: Double) {
            line("| $name | $ls / $fs | %.3f | %.3f | %.2f | %.3f | %.3f | %.2f |".format(
                fe / 1000, le / 1000, le / fe, fd / 1000, ld / 1000, ld / fd))
            bench.add("BENCH kotlin $name enc ratio=%.2f".format(le / fe))
            bench.add("BENCH kotlin $name dec ratio=%.2f".format(ld / fd))
        }
        for (w in workloads) {
            val (ls, fs) = sizes[w.name]!!
            row(w.name, ls, fs, best["${w.name} f enc"]!!, best["${w.name} l enc"]!!, best["${w.name} f dec"]!!, best["${w.name} l dec"]!!)
        }
        val avg = { name: String -> encoded[name]!!.sumOf { it.size } / n }
        row("orders", avg(libs[0].name), avg(libs[1].name), best["${libs[1].name} enc"]!!, best["${libs[0].name} enc"]!!,
            best["${libs[1].name} dec"]!!, best["${libs[0].name} dec"]!!)
        line("")
        line("Where the binding's time goes on the structs (µs): encode = the JVM writes the image + C (copy, wire_mem_encode, result copy); decode = C (wire_mem_decode, arena copy) + the JVM builds the objects")
        line("")
        line("| workload | enc: JVM image | enc: C and copies | dec: C and copy | dec: JVM objects |")
        line("|---|---:|---:|---:|---:|")
        best["orders l enc"] = best["${libs[0].name} enc"]!!
        best["orders l dec"] = best["${libs[0].name} dec"]!!
        for (name in workloads.map { it.name } + "orders") {
            val li = best["$name l image"] ?: continue
            val ln = best["$name l native"]!!
            val le = best["$name l enc"]!!
            val ld = best["$name l dec"]!!
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
        for (b in bench) line(b)
        println("(sink $sink)")
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
