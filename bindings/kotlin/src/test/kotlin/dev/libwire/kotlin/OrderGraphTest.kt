package dev.libwire.kotlin

import dev.libwire.kotlin.bench.Order
import dev.libwire.kotlin.bench.OrderGraph
import dev.libwire.kotlin.bench.OrderModelJava
import org.apache.fory.Fory
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertSame
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The order graph (the benchmark's dataset) through libwire's compiled codecs in compatible mode
 * with reference tracking, against Fory Java 1.6.0 xlang: the same bytes, each reads the other's,
 * shared objects stay shared.
 */
class OrderGraphTest {
    @Test fun ordersAgainstForyJava() {
        val orders = OrderGraph.create().take(20)
        OrderGraph.context().use { lw ->
            assertTrue(lw.hasLayout(Order::class), lw.layoutProblem(Order::class))
            val fory = Fory.builder().withXlang(true).withCompatible(true).withRefTracking(true)
                .withClassVersionCheck(false).requireClassRegistration(true).build()
            OrderModelJava.register(fory)
            var shared = 0
            for ((i, o) in orders.withIndex()) {
                val mine = lw.encode(o)
                val theirs = fory.serialize(OrderGraph.toJava(o))
                assertEquals(hex(theirs), hex(mine), "order $i: Fory Java's bytes")
                val back = lw.decode(theirs, Order::class)
                assertEquals(o, back, "order $i read from Fory's bytes")
                assertSame(back.shippingAddress, back.customer.addresses[0], "order $i: the shipping address is the customer's first")
                assertTrue(OrderGraph.sharesLikeTheOriginal(o, back), "order $i: products shared between lines")
                val j = fory.deserialize(mine) as OrderModelJava.Order
                assertEquals(o, OrderGraph.fromJava(j), "order $i read by Fory")
                if (o.lines.map { it.product }.toSet().size < o.lines.size) shared++
            }
            assertTrue(shared > 0, "some order repeats a product")
            // flipped bytes in a reference-tracked graph: a value or a WireException, nothing else
            val r = java.util.Random(11)
            val good = lw.encode(orders[0])
            repeat(Integer.getInteger("order.mutations", 300)) {
                val m = good.copyOf()
                repeat(1 + r.nextInt(3)) { m[r.nextInt(m.size)] = r.nextInt(256).toByte() }
                try {
                    lw.decode(m, Order::class)
                } catch (e: WireException) {
                    assertTrue(e.offset >= -1 && e.offset <= m.size, "offset ${e.offset}")
                }
            }
            assertEquals(orders[0], lw.decode(good, Order::class))
        }
    }
}
