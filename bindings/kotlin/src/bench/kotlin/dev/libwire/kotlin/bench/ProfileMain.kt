package dev.libwire.kotlin.bench

import dev.libwire.kotlin.Context
import dev.libwire.kotlin.WireOptions
import dev.libwire.kotlin.repoRoot

/**
 * A loop to profile under JFR (not a benchmark): `java -XX:StartFlightRecording=... ProfileMain
 * orders|media enc|dec SECONDS` with the bench profile's test classpath.
 */
object ProfileMain {
    @JvmStatic fun main(args: Array<String>) {
        val what = args.getOrElse(0) { "orders" }
        val dir = args.getOrElse(1) { "dec" }
        val secs = args.getOrElse(2) { "20" }.toLong()
        val ctx: Context
        val values: List<Any>
        if (what == "orders") {
            ctx = Context(WireOptions(compatible = true, refTracking = true))
            ctx.registerSchema(repoRoot.resolve("bindings/kotlin/src/test/orders.fdl"))
            ctx.registerEnum(OrderStatus::class, "orders.OrderStatus")
            for ((k, n) in listOf(Address::class to "Address", Category::class to "Category", Product::class to "Product",
                Customer::class to "Customer", OrderLine::class to "OrderLine", Order::class to "Order")) ctx.registerDataClass(k, "orders.$n")
            values = OrderGraph.create()
        } else {
            ctx = Context(WireOptions(compatible = true))
            ctx.registerSchema(repoRoot.resolve("bench/schemas/bench.fdl"))
            ctx.registerDataClass(Media::class, "bench.Media")
            ctx.registerDataClass(Image::class, "bench.Image")
            ctx.registerDataClass(MediaContent::class, "bench.MediaContent")
            ctx.registerEnum(Player::class, "bench.Player")
            ctx.registerEnum(Size::class, "bench.Size")
            values = listOf(BenchValues.mediaContent())
        }
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
