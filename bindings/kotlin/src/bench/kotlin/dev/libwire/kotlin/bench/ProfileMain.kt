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
        val ctx: Context = if (what == "orders") OrderGraph.context() else BenchValues.context()
        val values: List<Any> = if (what == "orders") OrderGraph.create() else listOf(BenchValues.mediaContent())
        val t0 = System.nanoTime()
        ctx.encode(values[0])
        val t1 = System.nanoTime()
        ctx.decode(ctx.encode(values[0]))
        System.err.println("first encode (plans, layouts, composed handles): ${(t1 - t0) / 1_000_000} ms; first decode ${(System.nanoTime() - t1) / 1_000_000} ms")
        val bytes = values.map { ctx.encode(it) }
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
