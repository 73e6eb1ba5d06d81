package dev.libwire.kotlin.bench

import java.math.BigDecimal
import java.time.Instant

/**
 * The order graph's decode floor (Kotlin round 49): the objects of each order built from values
 * known in advance, with no image read. Every string is copied out of the payload at an offset
 * found beforehand (a new Latin-1 String, as the decoder makes it), every thumbnail out of the
 * payload too, decimals from their unscaled long and scale, instants from seconds and nanos, sets
 * and maps as the decoder makes them (presized LinkedHash*), lists as fixed-size lists over an
 * array; objects shared within an order (products, categories, addresses) built once per order
 * through a table made per order. What the floor reads instead of the image is a small tree of
 * plain objects (the recipe) holding those offsets and numbers.
 */
internal class OrderDecFloor(private val payloads: List<ByteArray>, orders: List<Order>) {
    /**
     * Parts of the build left out, for `ProfileMain orders floorsplit` (the cost of each kind of
     * object is the floor's time less the time without it): [NO_STR] every string the same one, not
     * made; [NO_THUMB] the thumbnails one shared array; [NO_TAGS] the tag sets one shared empty set;
     * [NO_ATTRS] the attributes one shared empty map; [NO_DEC] the decimals one shared BigDecimal;
     * [NO_TIME] the instants one shared Instant. 0: the whole floor (what [build] equals to the order).
     */
    @JvmField var skip = 0

    class RStr(@JvmField val off: Int, @JvmField val len: Int)
    class RAddr(@JvmField val idx: Int, @JvmField val s: Array<RStr>)
    class RCat(@JvmField val idx: Int, @JvmField val id: Long, @JvmField val name: RStr, @JvmField val parent: RCat?)
    class RDec(@JvmField val unscaled: Long, @JvmField val scale: Int)
    class RProd(
        @JvmField val idx: Int, @JvmField val sku: RStr, @JvmField val name: RStr, @JvmField val desc: RStr, @JvmField val cat: RCat,
        @JvmField val price: RDec, @JvmField val weight: Int, @JvmField val tags: Array<RStr>, @JvmField val thumb: RStr,
    )
    class RLine(@JvmField val p: RProd, @JvmField val q: Int, @JvmField val price: RDec, @JvmField val discount: Double)
    class ROrder(
        @JvmField val shared: Int, @JvmField val id: RStr, @JvmField val cid: Long, @JvmField val cs: Array<RStr>, @JvmField val dobS: Long,
        @JvmField val dobN: Int, @JvmField val vip: Boolean, @JvmField val addrs: Array<RAddr>, @JvmField val lines: Array<RLine>,
        @JvmField val status: Int, @JvmField val cS: Long, @JvmField val cN: Int, @JvmField val ship: RAddr, @JvmField val attrs: Array<RStr>,
        @JvmField val notes: RStr?,
    )

    private val recipes: Array<ROrder>

    init {
        recipes = Array(orders.size) { k -> recipe(payloads[k], orders[k]) }
    }

    private fun recipe(pl: ByteArray, o: Order): ROrder {
        val seen = java.util.IdentityHashMap<Any, Any>()
        var n = 0
        fun s(x: String): RStr {
            if (x.isEmpty()) return RStr(0, 0)
            val e = x.toByteArray(Charsets.ISO_8859_1)
            check(x.all { it.code < 256 })
            return RStr(find(pl, e), e.size)
        }
        fun addr(a: Address): RAddr = seen.getOrPut(a) { RAddr(n++, arrayOf(s(a.street), s(a.city), s(a.zip), s(a.country))) } as RAddr
        fun cat(c: Category): RCat = seen.getOrPut(c) { RCat(n++, c.id, s(c.name), c.parent?.let { cat(it) }) } as RCat
        fun dec(d: BigDecimal) = RDec(d.unscaledValue().longValueExact(), d.scale())
        fun prod(p: Product): RProd = seen.getOrPut(p) {
            val idx = n++
            val sku = s(p.sku); val name = s(p.name); val desc = s(p.description); val c = cat(p.category)
            RProd(idx, sku, name, desc, c, dec(p.price), p.weightGrams, p.tags.map { s(it) }.toTypedArray(),
                RStr(find(pl, p.thumbnail), p.thumbnail.size))
        } as RProd
        val c = o.customer
        val id = s(o.id)
        val cs = arrayOf(s(c.firstName), s(c.lastName), s(c.email))
        val addrs = c.addresses.map { addr(it) }.toTypedArray()
        val lines = o.lines.map { RLine(prod(it.product), it.quantity, dec(it.unitPrice), it.discount) }.toTypedArray()
        val ship = addr(o.shippingAddress)
        val attrs = o.attributes.flatMap { (a, b) -> listOf(s(a), s(b)) }.toTypedArray()
        val notes = o.notes?.let { s(it) }
        return ROrder(n, id, c.id, cs, c.dateOfBirth.epochSecond, c.dateOfBirth.nano, c.vip, addrs, lines, o.status.ordinal,
            o.created.epochSecond, o.created.nano, ship, attrs, notes)
    }

    private fun find(pl: ByteArray, e: ByteArray): Int {
        outer@ for (i in 0..pl.size - e.size) {
            for (j in e.indices) if (pl[i + j] != e[j]) continue@outer
            return i
        }
        throw IllegalStateException("not in the payload")
    }

    private val statuses = OrderStatus.entries.toTypedArray()
    private val oneThumb = ByteArray(0)
    private val oneDec = BigDecimal.ONE
    private val oneTime = Instant.EPOCH

    private fun dec(d: RDec): BigDecimal = if (skip and NO_DEC != 0) oneDec else BigDecimal.valueOf(d.unscaled, d.scale)
    private fun time(s: Long, n: Int): Instant = if (skip and NO_TIME != 0) oneTime else Instant.ofEpochSecond(s, n.toLong())

    fun build(k: Int): Order {
        val r = recipes[k]
        val pl = payloads[k]
        val t = arrayOfNulls<Any>(r.shared)
        val c = Customer(r.cid, str(pl, r.cs[0]), str(pl, r.cs[1]), str(pl, r.cs[2]), time(r.dobS, r.dobN), r.vip,
            fixed(r.addrs.size) { addr(pl, t, r.addrs[it]) })
        val lines = fixed(r.lines.size) {
            val l = r.lines[it]
            OrderLine(prod(pl, t, l.p), l.q, dec(l.price), l.discount)
        }
        val a = r.attrs
        val m: Map<String, String>
        if (skip and NO_ATTRS != 0) m = emptyMap() else {
            val h = LinkedHashMap<String, String>(dev.libwire.kotlin.hashCapacity(a.size / 2))
            var i = 0
            while (i < a.size) { h[str(pl, a[i])] = str(pl, a[i + 1]); i += 2 }
            m = h
        }
        return Order(str(pl, r.id), c, lines, statuses[r.status], time(r.cS, r.cN), addr(pl, t, r.ship), m,
            r.notes?.let { str(pl, it) })
    }

    private inline fun <T> fixed(n: Int, f: (Int) -> T): List<T> {
        val a = arrayOfNulls<Any?>(n)
        for (i in 0 until n) a[i] = f(i)
        @Suppress("UNCHECKED_CAST")
        return a.asList() as List<T>
    }

    private fun str(pl: ByteArray, s: RStr): String {
        val n = s.len
        if (n == 0 || skip and NO_STR != 0) return ""
        val v = ByteArray(n)
        System.arraycopy(pl, s.off, v, 0, n)
        return dev.libwire.kotlin.JStr.NEW.invokeExact(v, 0.toByte()) as String
    }

    private fun addr(pl: ByteArray, t: Array<Any?>, a: RAddr): Address {
        val x = t[a.idx]
        if (x != null) return x as Address
        val v = Address(str(pl, a.s[0]), str(pl, a.s[1]), str(pl, a.s[2]), str(pl, a.s[3]))
        t[a.idx] = v
        return v
    }

    private fun cat(pl: ByteArray, t: Array<Any?>, c: RCat): Category {
        val x = t[c.idx]
        if (x != null) return x as Category
        val v = Category(c.id, str(pl, c.name), c.parent?.let { cat(pl, t, it) })
        t[c.idx] = v
        return v
    }

    private fun prod(pl: ByteArray, t: Array<Any?>, p: RProd): Product {
        val x = t[p.idx]
        if (x != null) return x as Product
        val tags: Set<String>
        if (skip and NO_TAGS != 0) tags = emptySet() else {
            val h = LinkedHashSet<String>(dev.libwire.kotlin.hashCapacity(p.tags.size))
            for (g in p.tags) h.add(str(pl, g))
            tags = h
        }
        val th = p.thumb
        val v = Product(str(pl, p.sku), str(pl, p.name), str(pl, p.desc), cat(pl, t, p.cat), dec(p.price),
            p.weight, tags, if (skip and NO_THUMB != 0) oneThumb else pl.copyOfRange(th.off, th.off + th.len))
        t[p.idx] = v
        return v
    }

    companion object {
        // (the bits of [skip])
        const val NO_STR = 1; const val NO_THUMB = 2; const val NO_TAGS = 4
        const val NO_ATTRS = 8; const val NO_DEC = 16; const val NO_TIME = 32
    }
}
