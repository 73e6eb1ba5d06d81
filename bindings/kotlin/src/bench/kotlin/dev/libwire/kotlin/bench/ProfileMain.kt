package dev.libwire.kotlin.bench

import dev.libwire.kotlin.Context

/**
 * A loop to profile under JFR (not a benchmark): `java -XX:StartFlightRecording=... ProfileMain
 * orders|media enc|dec SECONDS` with the bench profile's test classpath.
 */
object ProfileMain {
    @JvmStatic fun main(args: Array<String>) {
        val what = args.getOrElse(0) { "orders" }
        val dir = args.getOrElse(1) { "dec" }
        val secs = args.getOrElse(2) { "20" }.toLong()
        val ctx: Context = when (what) {
            "orders" -> OrderGraph.context()
            else -> BenchValues.context()
        }
        val values: List<Any> = when (what) {
            "orders" -> OrderGraph.create()
            "numeric" -> listOf(BenchValues.numericStruct())
            "sample" -> listOf(BenchValues.sample())
            else -> listOf(BenchValues.mediaContent())
        }
        val t0 = System.nanoTime()
        ctx.encode(values[0])
        val t1 = System.nanoTime()
        ctx.decode(ctx.encode(values[0]))
        System.err.println("first encode (plans, layouts, composed handles): ${(t1 - t0) / 1_000_000} ms; first decode ${(System.nanoTime() - t1) / 1_000_000} ms")
        val bytes = values.map { ctx.encode(it) }
        if (dir == "time") {
            // thread CPU time per value of a whole encode, best of 10 rounds
            val mx = java.lang.management.ManagementFactory.getThreadMXBean()
            val reps = if (values.size > 1) 2000 else 200000
            var best = Long.MAX_VALUE
            repeat(10) {
                val t = mx.currentThreadCpuTime
                repeat(reps) { for (i in values.indices) ctx.encode(values[i]) }
                best = minOf(best, mx.currentThreadCpuTime - t)
            }
            println("encode ns per value: ${best / reps.toDouble() / values.size}")
            return
        }
        if (dir == "image") {
            // thread CPU time per value of the JVM half of encode, best of 10 rounds
            val mx = java.lang.management.ManagementFactory.getThreadMXBean()
            val plans = values.map { ctx.mem.planOf(it.javaClass)!! }
            var best = Long.MAX_VALUE
            repeat(10) {
                val t = mx.currentThreadCpuTime
                repeat(if (values.size > 1) 2000 else 200000) { for (i in values.indices) ctx.mem.imageOnly(plans[i], values[i]) }
                best = minOf(best, mx.currentThreadCpuTime - t)
            }
            println("image ns per value: ${best / (if (values.size > 1) 2000.0 else 200000.0) / values.size}")
            return
        }
        if (dir == "parts") {
            // thread CPU time per value of each half, best of 10 rounds of ~0.2 s
            val mx = java.lang.management.ManagementFactory.getThreadMXBean()
            val plans = values.map { ctx.mem.planOf(it.javaClass)!! }
            val reps = if (values.size > 1) 1000 else 100000
            fun best(f: () -> Unit): Double {
                var b = Long.MAX_VALUE
                repeat(12) {
                    val t = mx.currentThreadCpuTime
                    repeat(reps) { f() }
                    b = minOf(b, mx.currentThreadCpuTime - t)
                }
                return b / reps.toDouble() / values.size
            }
            val used = IntArray(values.size)
            val enc = best { for (i in values.indices) ctx.encode(values[i]) }
            val image = best { for (i in values.indices) ctx.mem.imageOnly(plans[i], values[i]) }
            val dec = best { for (i in values.indices) ctx.decode(bytes[i], values[i]::class) }
            val native = best { for (i in values.indices) used[i] = ctx.mem.nativeOnly(plans[i], bytes[i]) }
            val objects = if (values.size == 1) best { ctx.mem.objectsOnly(plans[0], bytes[0], used[0]) } else Double.NaN
            if (values.size == 1) {
                ctx.mem.imageOnly(plans[0], values[0]); ctx.mem.encodeStage(plans[0], 1)
                val cp = best { ctx.mem.encodeStage(plans[0], 1) }
                val call = best { ctx.mem.encodeStage(plans[0], 2) }
                println("enc: copy image %.1f, wire_mem_encode call %.1f (bytes %d)".format(cp, call, ctx.mem.encodeStage(plans[0], 0)))
            }
            println("ns per value: enc %.1f (image %.1f, rest %.1f)  dec %.1f (native+copy %.1f, objects %.1f)".format(enc, image, enc - image, dec, native, objects))
            return
        }
        val end = System.nanoTime() + secs * 1_000_000_000L
        var sink = 0L
        while (System.nanoTime() < end) {
            for (i in values.indices) {
                if (dir == "enc") sink += ctx.encode(values[i]).size else sink += ctx.decode(bytes[i]).hashCode()
            }
        }
        println(sink)
    }
}
