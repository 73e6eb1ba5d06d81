package dev.libwire.kotlin.bench

import dev.libwire.kotlin.Context
import dev.libwire.kotlin.WireOptions
import dev.libwire.kotlin.repoRoot
import java.math.BigDecimal
import java.time.Instant
import java.util.IdentityHashMap
import java.util.Random

/**
 * The dataset of the order-graph comparison (../shared/notes/performance.md): java.util.Random(42),
 * 16 categories, 200 products, 50 customers, 200 orders. Arguments are evaluated left to right as
 * in the Java original, so the order of the calls below is the order of the draws.
 */
object OrderGraph {
    private val ROOTS = listOf("Electronics", "Clothing", "Books", "Garden")
    private val ADJ = listOf("Ultra", "Pro", "Lite", "Max", "Eco", "Smart", "Classic", "Prime")
    private val TAGS = listOf("new", "sale", "bestseller", "limited", "organic", "imported", "clearance", "featured")
    private val FIRST = listOf("Alice", "Bruno", "Carla", "David", "Elena", "Frank", "Greta", "Henry", "Ingrid", "Jonas")
    private val LAST = listOf("Anderson", "Bergmann", "Costa", "Dubois", "Eriksen", "Ferrari", "Gruber", "Hansen", "Ivanov", "Jensen")
    private val STREETS = listOf("Hauptstrasse", "Bahnhofstrasse", "Ringstrasse", "Parkallee", "Lindenweg", "Bergstrasse")
    private val CITIES = listOf("Berlin", "Munich", "Hamburg", "Cologne", "Vienna", "Zurich", "Amsterdam", "Prague")
    private val KEYS = listOf("channel", "campaign", "salesRep", "priority", "giftWrap", "source")
    private val LOREM = ("Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut " +
        "labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi").split(" ")

    /** A libwire context for the orders: compatible mode, reference tracking, src/test/orders.fdl. */
    fun context(): Context {
        val c = Context(WireOptions(compatible = true, refTracking = true))
        c.registerSchema(repoRoot.resolve("bindings/kotlin/src/test/orders.fdl"))
        c.registerEnum(OrderStatus::class, "orders.OrderStatus")
        c.registerDataClass(Address::class, "orders.Address")
        c.registerDataClass(Category::class, "orders.Category")
        c.registerDataClass(Product::class, "orders.Product")
        c.registerDataClass(Customer::class, "orders.Customer")
        c.registerDataClass(OrderLine::class, "orders.OrderLine")
        c.registerDataClass(Order::class, "orders.Order")
        return c
    }

    private fun <T> Random.pick(l: List<T>): T = l[nextInt(l.size)]

    private fun Random.lorem(n: Int): String = (0 until n).joinToString(" ") { pick(LOREM) }

    fun create(): List<Order> {
        val r = Random(42)
        val categories = ArrayList<Category>()
        for (root in ROOTS) {
            val c = Category(categories.size + 1L, root, null)
            categories.add(c)
            for (s in listOf("Accessories", "Premium", "Budget")) categories.add(Category(categories.size + 1L, "$root $s", c))
        }
        val products = ArrayList<Product>()
        for (i in 0 until 200) {
            val name = r.pick(ADJ) + " " + r.pick(ADJ) + " " + (1000 + i)
            val tags = LinkedHashSet<String>()
            repeat(2 + r.nextInt(4)) { tags.add(r.pick(TAGS)) }
            val thumb = ByteArray(200 + r.nextInt(1800)).also { r.nextBytes(it) }
            products.add(
                Product(
                    "SKU-" + (100000 + i), name, r.lorem(20 + r.nextInt(60)), categories[r.nextInt(16)],
                    BigDecimal.valueOf(199L + r.nextInt(50000), 2), 50 + r.nextInt(20000), tags, thumb,
                ),
            )
        }
        val customers = ArrayList<Customer>()
        for (i in 0 until 50) {
            val first = r.pick(FIRST)
            val last = r.pick(LAST)
            val addresses = ArrayList<Address>()
            addresses.add(address(r))
            if (r.nextBoolean()) addresses.add(address(r))
            customers.add(
                Customer(
                    10000L + i, first, last, "${first.lowercase()}.${last.lowercase()}$i@example.com",
                    Instant.ofEpochMilli(500000000000L + r.nextInt(1_000_000_000) * 1000L), r.nextInt(5) == 0, addresses,
                ),
            )
        }
        val orders = ArrayList<Order>()
        for (i in 0 until 200) {
            val customer = customers[r.nextInt(50)]
            val lines = ArrayList<OrderLine>()
            repeat(1 + r.nextInt(8)) {
                val p = products[r.nextInt(200)]
                lines.add(OrderLine(p, 1 + r.nextInt(5), p.price, if (r.nextInt(4) == 0) r.nextInt(30) / 100.0 else 0.0))
            }
            val attributes = LinkedHashMap<String, String>()
            for (k in 0 until 2 + r.nextInt(5)) attributes[r.pick(KEYS) + k] = r.lorem(1 + r.nextInt(3))
            orders.add(
                Order(
                    "ORD-2026-%06d".format(i), customer, lines, OrderStatus.entries[r.nextInt(6)],
                    Instant.ofEpochMilli(1750000000000L + r.nextInt(30_000_000) * 1000L), customer.addresses[0], attributes,
                    if (r.nextInt(3) == 0) r.lorem(10 + r.nextInt(40)) else null,
                ),
            )
        }
        return orders
    }

    private fun address(r: Random) = Address(
        r.pick(STREETS) + " " + (1 + r.nextInt(150)), r.pick(CITIES), "%05d".format(r.nextInt(100000)), "Germany",
    )

    // ---------------------------------------------------------------- the Java classes Fory serializes
    /** The same order as OrderModelJava objects; an object shared in Kotlin is shared in Java. */
    fun toJava(o: Order): OrderModelJava.Order {
        val seen = IdentityHashMap<Any, Any>()
        fun addr(a: Address): OrderModelJava.Address = seen.getOrPut(a) {
            OrderModelJava.Address().apply { street = a.street; city = a.city; zip = a.zip; country = a.country }
        } as OrderModelJava.Address
        fun cat(c: Category): OrderModelJava.Category = seen.getOrPut(c) {
            OrderModelJava.Category().apply { id = c.id; name = c.name; parent = c.parent?.let { cat(it) } }
        } as OrderModelJava.Category
        fun prod(p: Product): OrderModelJava.Product = seen.getOrPut(p) {
            OrderModelJava.Product().apply {
                sku = p.sku; name = p.name; description = p.description; category = cat(p.category); price = p.price
                weight_grams = p.weightGrams; tags = LinkedHashSet(p.tags); thumbnail = p.thumbnail
            }
        } as OrderModelJava.Product
        val c = o.customer
        return OrderModelJava.Order().apply {
            id = o.id
            customer = OrderModelJava.Customer().apply {
                id = c.id; first_name = c.firstName; last_name = c.lastName; email = c.email; date_of_birth = c.dateOfBirth
                vip = c.vip; addresses = ArrayList(c.addresses.map { addr(it) })
            }
            lines = ArrayList(o.lines.map { l ->
                OrderModelJava.OrderLine().apply { product = prod(l.product); quantity = l.quantity; unit_price = l.unitPrice; discount = l.discount }
            })
            status = OrderModelJava.OrderStatus.valueOf(o.status.name)
            created = o.created
            shipping_address = addr(o.shippingAddress)
            attributes = LinkedHashMap(o.attributes)
            notes = o.notes
        }
    }

    fun fromJava(j: OrderModelJava.Order): Order {
        fun addr(a: OrderModelJava.Address) = Address(a.street, a.city, a.zip, a.country)
        fun cat(c: OrderModelJava.Category): Category = Category(c.id, c.name, c.parent?.let { cat(it) })
        fun prod(p: OrderModelJava.Product) =
            Product(p.sku, p.name, p.description, cat(p.category), p.price, p.weight_grams, p.tags, p.thumbnail)
        val c = j.customer
        return Order(
            j.id, Customer(c.id, c.first_name, c.last_name, c.email, c.date_of_birth, c.vip, c.addresses.map { addr(it) }),
            j.lines.map { OrderLine(prod(it.product), it.quantity, it.unit_price, it.discount) },
            OrderStatus.valueOf(j.status.name), j.created, addr(j.shipping_address), j.attributes, j.notes,
        )
    }

    /** Whether the shared objects of [o] came back shared (shipping address, repeated products). */
    fun sharesLikeTheOriginal(orig: Order, o: Order): Boolean {
        if ((orig.shippingAddress === orig.customer.addresses[0]) != (o.shippingAddress === o.customer.addresses[0])) return false
        for (i in orig.lines.indices) for (k in orig.lines.indices) {
            if ((orig.lines[i].product === orig.lines[k].product) != (o.lines[i].product === o.lines[k].product)) return false
        }
        return true
    }

    fun sharesLikeTheOriginal(orig: Order, j: OrderModelJava.Order): Boolean {
        if ((orig.shippingAddress === orig.customer.addresses[0]) != (j.shipping_address === j.customer.addresses[0])) return false
        for (i in orig.lines.indices) for (k in orig.lines.indices) {
            if ((orig.lines[i].product === orig.lines[k].product) != (j.lines[i].product === j.lines[k].product)) return false
        }
        return true
    }
}
