package dev.libwire.kotlin.bench

import dev.libwire.kotlin.Context

/**
 * A loop to profile under JFR (not a benchmark): `java -XX:StartFlightRecording=... ProfileMain
 * orders|media enc|dec SECONDS` with the bench profile's test classpath.
 */
data class ByName(val n: Int, val s: String, val xs: List<Long>)

object ProfileMain {
    @JvmStatic fun main(args: Array<String>) {
        val what = args.getOrElse(0) { "orders" }
        val dir = args.getOrElse(1) { "dec" }
        val secs = args.getOrElse(2) { "20" }.toLong()
        if (what == "mixed" && dir == "parts") {
            mixedParts()
            return
        }
        if (what == "seq") {
            sequence()
            return
        }
        if (what == "byname") {
            byName()
            return
        }
        if (what == "foreign") {
            foreign()
            return
        }
        if (what == "strings" || what == "mixed" || what == "longs" || what == "map" || what == "ints" || what == "doubles" || what == "binary") {
            dynamic(what)
            return
        }
        val ctx: Context = when (what) {
            "orders", "orders1" -> OrderGraph.context()
            "mediad", "mediadlack", "mediadnested" -> BenchValues.contextWithDefaults()
            else -> BenchValues.context()
        }
        val values: List<Any> = when (what) {
            "orders" -> OrderGraph.create()
            "orders1" -> listOf(benchOrder())
            "numeric" -> listOf(BenchValues.numericStruct())
            "sample" -> listOf(BenchValues.sample())
            "image" -> listOf(BenchValues.mediaContent().images[1])
            "structs" -> listOf(BenchValues.mediaContent(), BenchValues.numericStruct(), BenchValues.sample())
            "media1" -> listOf(BenchValues.mediaContent().media)
            "mediad", "mediadlack", "mediadnested" -> listOf(BenchValues.mediaContentD())
            else -> listOf(BenchValues.mediaContent())
        }
        val t0 = System.nanoTime()
        ctx.encode(values[0])
        val t1 = System.nanoTime()
        ctx.decode(ctx.encode(values[0]))
        System.err.println("first encode (plans, layouts, composed handles): ${(t1 - t0) / 1_000_000} ms; first decode ${(System.nanoTime() - t1) / 1_000_000} ms")
        // (mediadlack / mediadnested: the message of a writer lacking fields, its root TypeDef
        // other than the reader's or the reader's own; decoded into MediaContentD's defaults)
        val bytes = if (what == "mediadlack" || what == "mediadnested") listOf(BenchValues.lackingWriterBytes(what == "mediadlack"))
            else values.map { ctx.encode(it) }
        if (bytes.size == 1 && what.startsWith("mediad")) println("decoded: ${ctx.decode(bytes[0], MediaContentD::class)}")
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
        if (dir == "fory" || dir == "foryloop") {
            // the same orders decoded by Fory Java xlang (the bench's configuration) against
            // libwire, interleaved in this JVM: thread CPU time and bytes allocated per order
            @Suppress("UNCHECKED_CAST") val orders = values as List<Order>
            val fx = foryOrders()
            val fb = orders.map { fx.serialize(OrderGraph.toJava(it)) }
            val n = orders.size
            if (dir == "foryloop") {
                val end = System.nanoTime() + secs * 1_000_000_000L
                var s = 0
                while (System.nanoTime() < end) for (i in 0 until n) if (fx.deserialize(fb[i]) != null) s++
                println(s)
                return
            }
            val j0 = fx.deserialize(fb[0]) as OrderModelJava.Order
            println("Fory's collections: lines ${j0.lines.javaClass.name}, tags ${j0.lines[0].product.tags.javaClass.name}, attributes ${j0.attributes.javaClass.name}")
            fun alloc(f: () -> Unit): Double = allocatedPer(n, f)
            val lwDec = { for (i in 0 until n) ctx.decode(bytes[i], Order::class) }
            val plan = ctx.mem.planOf(Order::class.java)!!
            val snaps = bytes.map { ctx.mem.snapshot(plan, it) }
            for (i in 0 until n) check(ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) == orders[i])
            println("payload bytes per order %.0f, image bytes per order %.0f".format(bytes.sumOf { it.size } / n.toDouble(), snaps.sumOf { it.first.size - 64 } / n.toDouble()))
            val lwObj = { for (i in 0 until n) ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) }
            val lwNat = { for (i in 0 until n) ctx.mem.nativeOnly(plan, bytes[i]) }
            // the two halves one after the other, the objects from the image the call wrote (as
            // decode does) or from the snapshot of it
            val lwSeq = { for (i in 0 until n) { val u = ctx.mem.nativeOnly(plan, bytes[i]); ctx.mem.objectsOnly(plan, bytes[i], u) } }
            val lwMix = { for (i in 0 until n) { ctx.mem.nativeOnly(plan, bytes[i]); ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } }
            val fxDec = { for (i in 0 until n) fx.deserialize(fb[i]) }
            repeat(3) {
                val a = batches(250, 8, lwDec) / n
                val b = batches(250, 8, fxDec) / n
                val c = batches(250, 8, lwObj) / n
                val d = batches(250, 8, lwNat) / n
                val scratchA = ByteArray(1 shl 16); val scratchB = ByteArray(1 shl 16)
                val t1 = batches(250, 8) { for (i in 0 until n) { sink += dev.libwire.kotlin.Native.version_number.invokeExact() as Int; ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } } / n
                val t2 = batches(250, 8) { for (i in 0 until n) { ctx.mem.nativeOnly(plan, bytes[0]); ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } } / n
                val t3 = batches(250, 8) { for (i in 0 until n) { System.arraycopy(scratchA, 0, scratchB, 0, 16384); ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } } / n
                val t4 = batches(250, 8) { for (i in 0 until n) { System.arraycopy(scratchA, 0, scratchB, 0, 16384) } } / n
                if (System.getProperty("sweeps") != null) {
                    for (kb in intArrayOf(2, 8, 16, 32)) {
                        val len = kb * 1024
                        val cp = batches(250, 8) { for (i in 0 until n) System.arraycopy(scratchA, 0, scratchB, 0, len) } / n
                        val o = batches(250, 8) { for (i in 0 until n) { System.arraycopy(scratchA, 0, scratchB, 0, len); ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } } / n
                        val f = batches(250, 8) { for (i in 0 until n) { System.arraycopy(scratchA, 0, scratchB, 0, len); fx.deserialize(fb[i]) } } / n
                        val rd = batches(250, 8) { for (i in 0 until n) { var x = 0L; var k = 0; while (k < len) { x += scratchA[k]; k += 64 }; sink += x.toInt(); ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } } / n
                        println("round %d: %d KB copied before each order: libwire objects %.1f, fory decode %.1f (the copy alone %.1f); %d KB read (a byte a line): objects %.1f".format(it, kb, o, f, cp, kb, rd))
                    }
                }
                if (System.getProperty("sweeps") != null) {
                    // the decoder's code with little data: the C call of a Sample (non-flat, strings)
                    // or a MediaContent from another context before each order's objects
                    val other = BenchValues.context()
                    for (v in listOf<Any>(BenchValues.sample(), BenchValues.mediaContent())) {
                        val sp = other.mem.planOf(v.javaClass)!!
                        val sb = other.encode(v)
                        val alone = batches(250, 8) { for (i in 0 until n) other.mem.nativeOnly(sp, sb) } / n
                        val with = batches(250, 8) { for (i in 0 until n) { other.mem.nativeOnly(sp, sb); ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } } / n
                        val obj = batches(250, 8, lwObj) / n
                        println("round %d: objects with the C call of a %s (%d bytes) each %.1f (that call alone %.1f, objects alone %.1f)".format(it, v.javaClass.simpleName, sb.size, with, alone, obj))
                    }
                }
                println("round %d: objects with a trivial downcall each %.1f; with the C call of order 0 each %.1f; with a 16 KB arraycopy each %.1f (the copy alone %.1f)".format(it, t1, t2, t3, t4))
                println("round %d: C call then objects from its image %.1f, C call then objects from a snapshot %.1f".format(it, batches(250, 8, lwSeq) / n, batches(250, 8, lwMix) / n))
                println("round %d decode ns per order: libwire %.1f (objects alone %.1f, C call alone %.1f), fory %.1f; bytes allocated per order: libwire %.0f (objects alone %.0f), fory %.0f".format(it, a, c, d, b, alloc(lwDec), alloc(lwObj), alloc(fxDec)))
            }
            return
        }
        if (dir == "floorsplit") {
            // the order graph's decode floor (round 49) with one kind of object at a time not made
            // (OrderDecFloor.skip), beside the objects from a snapshot of the image, the whole decode
            // and Fory Java's decode, interleaved in this JVM: thread CPU time per order, best of 8
            // batches, 3 rounds; the cost of a kind is the floor less the floor without it
            @Suppress("UNCHECKED_CAST") val orders = values as List<Order>
            val plan = ctx.mem.planOf(Order::class.java)!!
            val snaps = bytes.map { ctx.mem.snapshot(plan, it) }
            val n = orders.size
            val fl = OrderDecFloor(bytes, orders)
            for (i in 0 until n) check(fl.build(i) == orders[i])
            val fx = org.apache.fory.Fory.builder().withXlang(true).withCompatible(true).withCodegen(true).withRefTracking(true)
                .withClassVersionCheck(false).requireClassRegistration(true).build()
            OrderModelJava.register(fx)
            val fb = orders.map { fx.serialize(OrderGraph.toJava(it)) }
            val kinds = listOf(0 to "floor", OrderDecFloor.NO_STR to "strings", OrderDecFloor.NO_THUMB to "thumbnails",
                OrderDecFloor.NO_TAGS to "tag sets", OrderDecFloor.NO_ATTRS to "attribute maps", OrderDecFloor.NO_DEC to "decimals",
                OrderDecFloor.NO_TIME to "instants", 63 to "all six")
            repeat(3) { round ->
                val sb = StringBuilder("round %d ns per order:".format(round))
                var whole = 0.0
                for ((mask, name) in kinds) {
                    fl.skip = mask
                    val t = batches(250, 8) { for (i in 0 until n) keep = fl.build(i) } / n
                    if (mask == 0) { whole = t; sb.append(" floor %.1f;".format(t)) } else sb.append(" %s %.1f".format(name, whole - t))
                }
                fl.skip = 0
                val o = batches(250, 8) { for (i in 0 until n) keep = ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } / n
                val c = batches(250, 8) { for (i in 0 until n) ctx.mem.nativeOnly(plan, bytes[i]) } / n
                val d = batches(250, 8) { for (i in 0 until n) keep = ctx.decode(bytes[i], Order::class) } / n
                val f = batches(250, 8) { for (i in 0 until n) keep = fx.deserialize(fb[i]) } / n
                println(sb.append("; objects from the image %.1f, C call alone %.1f, whole decode %.1f, Fory %.1f".format(o, c, d, f)))
            }
            return
        }
        if (dir == "objab" || dir == "objsnaploop") {
            // the order graph's JVM half alone (the objects of every order built from a snapshot of
            // its image) and the whole decode, interleaved in this JVM: thread CPU time per value,
            // best of 8 batches, 3 rounds; objsnaploop: the JVM half alone for SECONDS (perf, JFR)
            val plan = ctx.mem.planOf(values[0].javaClass)!!
            val snaps = bytes.map { ctx.mem.snapshot(plan, it) }
            for (i in values.indices) check(ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) == values[i])
            val n = values.size
            val lwObj = { for (i in 0 until n) keep = ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) }
            if (dir == "objsnaploop") {
                val end = System.nanoTime() + secs * 1_000_000_000L
                while (System.nanoTime() < end) lwObj()
                return
            }
            val reps = if (n > 1) 250 else 100000
            @Suppress("UNCHECKED_CAST") val fl = if (what == "orders") OrderDecFloor(bytes, values as List<Order>) else null
            if (fl != null) for (i in 0 until n) check(fl.build(i) == values[i])
            fun alloc(f: () -> Unit): Double = allocatedPer(n, f)
            if (fl != null) println("bytes allocated per order: objects %.0f, floor %.0f".format(alloc(lwObj), alloc { for (i in 0 until n) keep = fl.build(i) }))
            repeat(3) { round ->
                if (fl != null) println("round %d ns per value: floor %.1f".format(round, batches(reps, 8) { for (i in 0 until n) keep = fl.build(i) } / n))
                val o = batches(reps, 8, lwObj) / n
                val d = batches(reps, 8) { for (i in 0 until n) keep = ctx.decode(bytes[i], values[i]::class) } / n
                println("round %d ns per value: objects %.1f, whole decode %.1f".format(round, o, d))
            }
            return
        }
        if (dir == "encsplit" || dir == "callloop" || dir == "encloop") {
            // the encode of every value in pieces, interleaved in this JVM (thread CPU time per
            // value, best of 8 batches, 3 rounds); callloop / encloop: the C call alone on saved
            // images / the whole encode, for SECONDS (perf)
            val plan = ctx.mem.planOf(values[0].javaClass)!!
            val n = values.size
            val imgs = values.map { ctx.mem.imageCopy(plan, it) }
            val into = ByteArray(1 shl 16)
            var s = 0L
            if (dir == "callloop" || dir == "encloop") {
                val end = System.nanoTime() + secs * 1_000_000_000L
                if (dir == "callloop") while (System.nanoTime() < end) for (i in 0 until n) s += ctx.mem.encodeCallOn(plan, imgs[i])
                else while (System.nanoTime() < end) for (i in 0 until n) s += ctx.encode(values[i]).size
                println(s)
                return
            }
            val reps = if (n > 1) 250 else 100000
            repeat(3) { for (i in 0 until n) { s += ctx.mem.encodeSplit(plan, values[i], 7, null); s += ctx.encode(values[i]).size } }
            repeat(3) { round ->
                val whole = batches(reps, 8) { for (i in 0 until n) s += ctx.encode(values[i]).size } / n
                val img = batches(reps, 8) { for (i in 0 until n) s += ctx.mem.encodeSplit(plan, values[i], 1, null) } / n
                val imgCall = batches(reps, 8) { for (i in 0 until n) s += ctx.mem.encodeSplit(plan, values[i], 3, null) } / n
                val imgCallInto = batches(reps, 8) { for (i in 0 until n) s += ctx.mem.encodeSplit(plan, values[i], 11, into) } / n
                val imgCallNew = batches(reps, 8) { for (i in 0 until n) s += ctx.mem.encodeSplit(plan, values[i], 7, null) } / n
                val imgCallCopyOf = batches(reps, 8) { for (i in 0 until n) s += ctx.mem.encodeSplit(plan, values[i], 27, into) } / n
                val saved = batches(reps, 8) { for (i in 0 until n) s += ctx.mem.encodeCallOn(plan, imgs[i]) } / n
                val imgSaved = batches(reps, 8) { for (i in 0 until n) { s += ctx.mem.encodeSplit(plan, values[i], 1, null); s += ctx.mem.encodeCallOn(plan, imgs[i]) } } / n
                val one = batches(reps, 8) { for (i in 0 until n) s += ctx.mem.encodeCallOn(plan, imgs[0]) } / n
                println("round %d ns per value: whole %.1f; image %.1f, +call %.1f, +call+copy into one array %.1f, +call+new array %.1f, +call+copy into one array+copyOf %.1f; call on saved images %.1f, call on one saved image %.1f; image + call on the saved copy of the same image %.1f".format(
                    round, whole, img, imgCall, imgCallInto, imgCallNew, imgCallCopyOf, saved, one, imgSaved))
            }
            if (s == 42L) println()
            return
        }
        if (dir == "foryenc") {
            // the orders encoded by Fory Java xlang (the bench's configuration): to a new array, and
            // into one reused buffer (no result array), against libwire's encode, interleaved
            @Suppress("UNCHECKED_CAST") val orders = values as List<Order>
            val fx = foryOrders()
            val jo = orders.map { OrderGraph.toJava(it) }
            val n = orders.size
            val buf = org.apache.fory.memory.MemoryBuffer.newHeapBuffer(1 shl 16)
            var s = 0L
            val reps = 250
            println("bytes allocated per order: Fory to new array %.0f, Fory into one buffer %.0f, libwire %.0f, libwire image %.0f".format(
                allocatedPer(n) { for (i in 0 until n) s += fx.serialize(jo[i]).size },
                allocatedPer(n) { for (i in 0 until n) { buf.writerIndex(0); fx.serialize(buf, jo[i]); s += buf.writerIndex() } },
                allocatedPer(n) { for (i in 0 until n) s += ctx.encode(values[i]).size },
                allocatedPer(n) { val p = ctx.mem.planOf(values[0].javaClass)!!; for (i in 0 until n) s += ctx.mem.imageOnly(p, values[i]) }))
            repeat(3) { round ->
                val fa = batches(reps, 8) { for (i in 0 until n) s += fx.serialize(jo[i]).size } / n
                val fb = batches(reps, 8) { for (i in 0 until n) { buf.writerIndex(0); fx.serialize(buf, jo[i]); s += buf.writerIndex() } } / n
                val lw = batches(reps, 8) { for (i in 0 until n) s += ctx.encode(values[i]).size } / n
                println("round %d ns per order: Fory to new array %.1f, Fory into one buffer %.1f; libwire %.1f".format(round, fa, fb, lw))
            }
            if (s == 42L) println()
            return
        }
        if (dir == "alt") {
            // the alternation costs, libwire against Fory Java xlang (the bench's configuration) in
            // this JVM, interleaved: encode alone, decode alone and the two alternated order by
            // order (encode i, decode i); and inside libwire's two passes: encode's image and C
            // call (on saved images) apart and alternated, decode's C call and objects (from
            // snapshots) apart and alternated. Thread CPU time per order, best of 8 batches, 3 rounds
            @Suppress("UNCHECKED_CAST") val orders = values as List<Order>
            val fx = foryOrders()
            val jo = orders.map { OrderGraph.toJava(it) }
            val fb = jo.map { fx.serialize(it) }
            val n = orders.size
            val plan = ctx.mem.planOf(values[0].javaClass)!!
            val imgs = values.map { ctx.mem.imageCopy(plan, it) }
            val snaps = bytes.map { ctx.mem.snapshot(plan, it) }
            val reps = if (n > 1) 100 else 40000
            var s = 0L
            val only = System.getProperty("alt.only")
            val other = if (only == "alloc") BenchValues.context().let { oc -> val v = BenchValues.sample(); Triple(oc, oc.mem.planOf(v.javaClass)!!, oc.encode(v)) } else null
            repeat(3) { round ->
                val sb = StringBuilder("round $round ns per order:")
                fun t(name: String, f: () -> Unit): Double = (batches(reps, 8, f) / n).also { sb.append(" %s %.1f;".format(name, it)) }
                if (only == null || only == "lib") {
                    val e = t("lw enc") { for (i in 0 until n) s += ctx.encode(values[i]).size }
                    val d = t("lw dec") { for (i in 0 until n) keep = ctx.decode(bytes[i], Order::class) }
                    val a = t("lw enc+dec alternated") { for (i in 0 until n) { s += ctx.encode(values[i]).size; keep = ctx.decode(bytes[i], Order::class) } }
                    sb.append(" [lw alt - enc - dec %.1f]".format(a - e - d))
                }
                if (only == null || only == "fory") {
                    val e = t("fory enc") { for (i in 0 until n) s += fx.serialize(jo[i]).size }
                    val d = t("fory dec") { for (i in 0 until n) keep = fx.deserialize(fb[i]) }
                    val a = t("fory enc+dec alternated") { for (i in 0 until n) { s += fx.serialize(jo[i]).size; keep = fx.deserialize(fb[i]) } }
                    sb.append(" [fory alt - enc - dec %.1f]".format(a - e - d))
                }
                if (only == null || only == "pass") {
                    val im = t("lw image") { for (i in 0 until n) s += ctx.mem.imageOnly(plan, values[i]) }
                    val ca = t("lw enc call on saved") { for (i in 0 until n) s += ctx.mem.encodeCallOn(plan, imgs[i]) }
                    val ic = t("lw image+call on saved") { for (i in 0 until n) { s += ctx.mem.imageOnly(plan, values[i]); s += ctx.mem.encodeCallOn(plan, imgs[i]) } }
                    val na = t("lw dec call") { for (i in 0 until n) s += ctx.mem.nativeOnly(plan, bytes[i]) }
                    val ob = t("lw objects from snapshot") { for (i in 0 until n) keep = ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) }
                    val no = t("lw dec call+objects from snapshot") { for (i in 0 until n) { s += ctx.mem.nativeOnly(plan, bytes[i]); keep = ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } }
                    sb.append(" [enc passes alt - apart %.1f; dec passes alt - apart %.1f]".format(ic - im - ca, no - na - ob))
                    // Fory's one pass in place of libwire's JVM pass, beside libwire's C call
                    val fe = t("fory enc") { for (i in 0 until n) s += fx.serialize(jo[i]).size }
                    val fec = t("fory enc+lw enc call on saved") { for (i in 0 until n) { s += fx.serialize(jo[i]).size; s += ctx.mem.encodeCallOn(plan, imgs[i]) } }
                    val fd = t("fory dec") { for (i in 0 until n) keep = fx.deserialize(fb[i]) }
                    val fdc = t("lw dec call+fory dec") { for (i in 0 until n) { s += ctx.mem.nativeOnly(plan, bytes[i]); keep = fx.deserialize(fb[i]) } }
                    sb.append(" [fory enc with lw's C call - apart %.1f; fory dec with lw's C call - apart %.1f]".format(fec - fe - ca, fdc - fd - na))
                }
                if (only == "alloc") {
                    // each pass beside a bare allocation of what the other direction's JVM half
                    // allocates (11.5 KB of objects a decode, a 7 KB result an encode), apart and
                    // alternated: does fresh heap alone slow the C call or the image?
                    val na = t("lw dec call") { for (i in 0 until n) s += ctx.mem.nativeOnly(plan, bytes[i]) }
                    val a1 = t("alloc 11.5K") { for (i in 0 until n) { keep = ByteArray(11_500) } }
                    val x1 = t("dec call+alloc 11.5K") { for (i in 0 until n) { s += ctx.mem.nativeOnly(plan, bytes[i]); keep = ByteArray(11_500) } }
                    val ca = t("lw enc call on saved") { for (i in 0 until n) s += ctx.mem.encodeCallOn(plan, imgs[i]) }
                    val x3 = t("enc call on saved+alloc 11.5K") { for (i in 0 until n) { s += ctx.mem.encodeCallOn(plan, imgs[i]); keep = ByteArray(11_500) } }
                    val im = t("lw image") { for (i in 0 until n) s += ctx.mem.imageOnly(plan, values[i]) }
                    val a2 = t("alloc 7K") { for (i in 0 until n) { keep = ByteArray(7_000) } }
                    val x2 = t("image+alloc 7K") { for (i in 0 until n) { s += ctx.mem.imageOnly(plan, values[i]); keep = ByteArray(7_000) } }
                    val ob = t("lw objects from snapshot") { for (i in 0 until n) keep = ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) }
                    val sm = other?.let { (oc, op, ob2) -> t("small C dec call (Sample)") { for (i in 0 until n) s += oc.mem.nativeOnly(op, ob2) } } ?: 0.0
                    val x4 = other?.let { (oc, op, ob2) -> t("objects+small C dec call") { for (i in 0 until n) { s += oc.mem.nativeOnly(op, ob2); keep = ctx.mem.objectsFrom(plan, bytes[i], snaps[i]) } } } ?: 0.0
                    sb.append(" [dec call with alloc - apart %.1f; enc call with alloc - apart %.1f; image with alloc - apart %.1f; objects with a small C call - apart %.1f]".format(x1 - na - a1, x3 - ca - a1, x2 - im - a2, x4 - ob - sm))
                }
                println(sb)
            }
            if (s == 42L) println()
            return
        }
        if (dir == "altloop") {
            // the whole encode and decode alternated order by order for SECONDS (callgrind, perf)
            val end = System.nanoTime() + secs * 1_000_000_000L
            var s = 0L
            while (System.nanoTime() < end) for (i in values.indices) { s += ctx.encode(values[i]).size; keep = ctx.decode(bytes[i], values[i]::class) }
            println(s)
            return
        }
        if (dir == "outcopy") {
            // the result's array alone, after one encode of the largest value, for each value's length
            val plan = ctx.mem.planOf(values[0].javaClass)!!
            val n = values.size
            val lens = values.map { ctx.encode(it).size }
            val big = values[lens.indices.maxBy { lens[it] }]
            ctx.encode(big)
            val into = ByteArray(1 shl 16)
            val reps = if (n > 1) 2000 else 400000
            val names = listOf("new+copy from C", "copy into one array", "copy into one+copyOf", "copyOf alone", "new+arraycopy")
            repeat(3) { round ->
                val sb = StringBuilder("round $round ns per value:")
                for (w in 0..4) sb.append(" %s %.1f;".format(names[w], batches(reps, 8) { for (i in 0 until n) keep = ctx.mem.resultOf(lens[i], w, into) } / n))
                println(sb)
            }
            return
        }
        if (dir == "ab") {
            // for A/B runs of two builds in alternate JVMs: whole decode and encode only, thread
            // CPU time per value, best of 8 batches of ~0.15-0.3 s after a warm-up, 3 rounds
            // (-Dab.only=enc|dec: that direction only, the other never run in this JVM)
            val reps = if (values.size > 1) 250 else 100000
            val only = System.getProperty("ab.only")
            val doDec = only != "enc"
            val doEnc = only != "dec"
            // (-Dab.pollute=1: first, as RatioBenchTest does before the orders, the bench's struct
            // values encoded and decoded on their own context for ~0.5 s of CPU each, then the tape
            // workloads on a plain one: the binding's shared code profiled and compiled on them)
            if (System.getProperty("ab.pollute") != null) {
                val mx = java.lang.management.ManagementFactory.getThreadMXBean()
                val sc = BenchValues.context()
                val dc = Context()
                val tv = TapeValues()
                val jobs = listOf<() -> Any?>(
                    BenchValues.mediaContent().let { v -> { sc.decode(sc.encode(v)) } },
                    BenchValues.numericStruct().let { v -> { sc.decode(sc.encode(v)) } },
                    BenchValues.sample().let { v -> { sc.decode(sc.encode(v)) } },
                    { dc.decode(dc.encode(tv.mixed)) }, { dc.decode(dc.encode(tv.strings)) },
                )
                for (j in jobs) { val end = mx.currentThreadCpuTime + 500_000_000L; while (mx.currentThreadCpuTime < end) keep = j() }
            }
            repeat(3) { for (i in values.indices) { if (doDec) ctx.decode(bytes[i], values[i]::class); if (doEnc) ctx.encode(values[i]) } }
            var bd = Double.MAX_VALUE
            var be = Double.MAX_VALUE
            repeat(3) {
                if (doDec) bd = minOf(bd, batches(reps, 8) { for (i in values.indices) ctx.decode(bytes[i], values[i]::class) } / values.size)
                if (doEnc) be = minOf(be, batches(reps, 8) { for (i in values.indices) ctx.encode(values[i]) } / values.size)
            }
            println("ns per value: dec %.1f enc %.1f".format(bd, be))
            return
        }
        if (dir == "parts") {
            // thread CPU time per value of each half, best of 10 rounds of ~0.2 s
            val mx = java.lang.management.ManagementFactory.getThreadMXBean()
            val plans = values.map { ctx.mem.planOf(it.javaClass)!! }
            val reps = if (values.size > 1) 1000 else 100000
            fun best(f: () -> Unit): Double = batches(reps, f) / values.size
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
            if (values.size == 1 && !plans[0].flat) {
                ctx.mem.nativeOnly(plans[0], bytes[0])
                val pc = best { ctx.mem.decodeStage(plans[0], bytes[0], 1) }
                val call = best { ctx.mem.decodeStage(plans[0], bytes[0], 2) }
                val ac = best { ctx.mem.decodeStage(plans[0], bytes[0], 4) }
                println("dec: payload copy %.1f, wire_mem_decode call %.1f, arena copy %.1f (%d bytes)".format(pc, call, ac, ctx.mem.decodeStage(plans[0], bytes[0], 0)))
            }
            return
        }
        if (dir == "fields") {
            // the JVM half of decode field by field: thread CPU time per read of each field of the
            // root alone (its reader called on the decoded image), best of 12 batches, 3 rounds
            val plan = ctx.mem.planOf(values[0].javaClass)!!
            val used0 = ctx.mem.nativeOnly(plan, bytes[0])
            val r = ctx.mem.readerFor(plan, bytes[0], used0)
            val reps = 100000
            repeat(3) { round ->
                val whole = batches(reps) { sink += System.identityHashCode(plan.read(r, 0)) and 1 }
                val sb = StringBuilder("round %d: objects %.1f ns;".format(round, whole))
                var sum = 0.0
                for (f in plan.fields) {
                    val s = f.slot
                    val o = f.offset
                    val t = when {
                        s is dev.libwire.kotlin.ArraySlot && s.type == IntArray::class.java -> batches(reps) { sink += dev.libwire.kotlin.ArraySlot.ints(r, o)!!.size }
                        s is dev.libwire.kotlin.ArraySlot && s.type == LongArray::class.java -> batches(reps) { sink += dev.libwire.kotlin.ArraySlot.longs(r, o)!!.size }
                        s is dev.libwire.kotlin.ArraySlot && s.type == FloatArray::class.java -> batches(reps) { sink += dev.libwire.kotlin.ArraySlot.floats(r, o)!!.size }
                        s is dev.libwire.kotlin.ArraySlot && s.type == DoubleArray::class.java -> batches(reps) { sink += dev.libwire.kotlin.ArraySlot.doubles(r, o)!!.size }
                        s is dev.libwire.kotlin.ArraySlot -> batches(reps) { sink += dev.libwire.kotlin.ArraySlot.booleans(r, o)!!.size }
                        s === dev.libwire.kotlin.StrSlot -> batches(reps) { sink += r.string(o)!!.length }
                        else -> continue
                    }
                    sum += t
                    sb.append(" %s %.1f".format(f.name, t))
                }
                println(sb.append("; sum %.1f".format(sum)))
                if (System.getProperty("arrv") != null) {
                    val fi = plan.fields.first { it.name == "int_array" || it.name == "intArray" }
                    val o = fi.offset
                    val nine = IntArray(1) { 9 }
                    val nothing = batches(reps) { sink += nine[0] }
                    val alloc = batches(reps) { sink += IntArray(nine[0]).size }
                    val items = batches(reps) { sink += r.items(o) }
                    val cur = batches(reps) { sink += dev.libwire.kotlin.ArraySlot.ints(r, o)!!.size }
                    val loc = batches(reps) {
                        val b = r.b
                        val p = dev.libwire.kotlin.Img.I64.get(b, o) as Long
                        val n = dev.libwire.kotlin.Img.I32.get(b, o + 8) as Int
                        val q = (p - r.base).toInt()
                        val a = IntArray(n)
                        for (i in 0 until n) a[i] = dev.libwire.kotlin.Img.I32.get(b, q + 4 * i) as Int
                        sink += a.size
                    }
                    val pairs = batches(reps) {
                        val b = r.b
                        val p = dev.libwire.kotlin.Img.I64.get(b, o) as Long
                        val n = dev.libwire.kotlin.Img.I32.get(b, o + 8) as Int
                        val q = (p - r.base).toInt()
                        val a = IntArray(n)
                        var i = 0
                        while (i + 1 < n) { val x = dev.libwire.kotlin.Img.I64.get(b, q + 4 * i) as Long; a[i] = x.toInt(); a[i + 1] = (x ushr 32).toInt(); i += 2 }
                        if (i < n) a[i] = dev.libwire.kotlin.Img.I32.get(b, q + 4 * i) as Int
                        sink += a.size
                    }
                    val bb = java.nio.ByteBuffer.wrap(ByteArray(0))
                    val nio = batches(reps) {
                        val b = r.b
                        val p = dev.libwire.kotlin.Img.I64.get(b, o) as Long
                        val n = dev.libwire.kotlin.Img.I32.get(b, o + 8) as Int
                        val q = (p - r.base).toInt()
                        val a = IntArray(n)
                        java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(q ushr 2, a)
                        sink += a.size + bb.capacity()
                    }
                    val allocKeep = batches(reps) { keep = IntArray(nine[0]) }
                    val allocKeep36 = batches(reps) { keep = IntArray(36) }
                    val sumLoop = batches(reps) {
                        val b = r.b
                        val p = dev.libwire.kotlin.Img.I64.get(b, o) as Long
                        val n = dev.libwire.kotlin.Img.I32.get(b, o + 8) as Int
                        val q = (p - r.base).toInt()
                        var x = 0
                        for (i in 0 until n) x += dev.libwire.kotlin.Img.I32.get(b, q + 4 * i) as Int
                        sink += x
                    }
                    val copyKeep = batches(reps) { val a = IntArray(nine[0]); val src = nine; for (i in 0 until a.size) a[i] = src[0] + i; keep = a }
                    val segC = java.lang.foreign.MemorySegment.ofArray(r.b)
                    val ibC = java.nio.ByteBuffer.wrap(r.b).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer()
                    val segCached = batches(reps) {
                        val b = r.b
                        val p = dev.libwire.kotlin.Img.I64.get(b, o) as Long
                        val n = dev.libwire.kotlin.Img.I32.get(b, o + 8) as Int
                        val q = (p - r.base)
                        val a = IntArray(n)
                        java.lang.foreign.MemorySegment.copy(segC, dev.libwire.kotlin.Img.LE_I32, q, a, 0, n)
                        keep = a
                    }
                    val ibCached = batches(reps) {
                        val b = r.b
                        val p = dev.libwire.kotlin.Img.I64.get(b, o) as Long
                        val n = dev.libwire.kotlin.Img.I32.get(b, o + 8) as Int
                        val q = (p - r.base).toInt()
                        val a = IntArray(n)
                        ibC.get(q ushr 2, a, 0, n)
                        keep = a
                    }
                    val locKeep = batches(reps) {
                        val b = r.b
                        val p = dev.libwire.kotlin.Img.I64.get(b, o) as Long
                        val n = dev.libwire.kotlin.Img.I32.get(b, o + 8) as Int
                        val q = (p - r.base).toInt()
                        val a = IntArray(n)
                        for (i in 0 until n) a[i] = dev.libwire.kotlin.Img.I32.get(b, q + 4 * i) as Int
                        keep = a
                    }
                    val curKeep = batches(reps) { keep = dev.libwire.kotlin.ArraySlot.ints(r, o) }
                    val fo = plan.fields.associate { it.name to it.offset }
                    val sv = BenchValues.sample()
                    fun i32(n: String) = dev.libwire.kotlin.Img.I32.get(r.b, fo[n]!!) as Int
                    val offs = IntArray(14) { k -> fo[listOf("int_value", "long_value", "float_value", "double_value", "short_value", "char_value", "boolean_value",
                        "int_value_boxed", "long_value_boxed", "float_value_boxed", "double_value_boxed", "short_value_boxed", "char_value_boxed", "boolean_value_boxed")[k]] ?: 0 }


                    val scal = batches(reps) {
                        val b = r.b
                        keep = Sample(dev.libwire.kotlin.Img.I32.get(b, offs[0]) as Int, dev.libwire.kotlin.Img.I64.get(b, offs[1]) as Long, Float.fromBits(dev.libwire.kotlin.Img.I32.get(b, offs[2]) as Int), Double.fromBits(dev.libwire.kotlin.Img.I64.get(b, offs[3]) as Long),
                            dev.libwire.kotlin.Img.I32.get(b, offs[4]) as Int, dev.libwire.kotlin.Img.I32.get(b, offs[5]) as Int, b[offs[6]].toInt() != 0,
                            dev.libwire.kotlin.Img.I32.get(b, offs[7]) as Int, dev.libwire.kotlin.Img.I64.get(b, offs[8]) as Long, Float.fromBits(dev.libwire.kotlin.Img.I32.get(b, offs[9]) as Int), Double.fromBits(dev.libwire.kotlin.Img.I64.get(b, offs[10]) as Long),
                            dev.libwire.kotlin.Img.I32.get(b, offs[11]) as Int, dev.libwire.kotlin.Img.I32.get(b, offs[12]) as Int, b[offs[13]].toInt() != 0,
                            sv.intArray, sv.longArray, sv.floatArray, sv.doubleArray, sv.shortArray, sv.charArray, sv.booleanArray, sv.string)
                    }
                    val ctorOnly = batches(reps) {
                        keep = Sample(offs[0], offs[1].toLong(), 1f, 2.0, offs[4], offs[5], true, offs[7], 3L, 4f, 5.0, offs[11], offs[12], false,
                            sv.intArray, sv.longArray, sv.floatArray, sv.doubleArray, sv.shortArray, sv.charArray, sv.booleanArray, sv.string)
                    }
                    val nsOnly = batches(reps) { keep = NumericStruct(offs[0], offs[1], 1, 2, offs[4], offs[5], 3, offs[7], 4, offs[11], offs[12], 5) }
                    println("  Sample(...) of given values %.1f, NumericStruct(...) %.1f".format(ctorOnly, nsOnly))
                    val g = plan.gen!!
                    val genOnly = batches(reps) { keep = g.read(r, 0) }
                    println("  scalars and the constructor (arrays, string given) %.1f; generated read alone %.1f; plan.read %.1f".format(scal, genOnly, batches(reps) { keep = plan.read(r, 0) }))
                    println("  kept: segment cached %.1f, IntBuffer cached %.1f, local loop %.1f, current %.1f".format(segCached, ibCached, locKeep, curKeep))
                    println("  kept IntArray(n=9) %.1f, kept IntArray(36) %.1f, sum loop (no array) %.1f, fill loop kept %.1f".format(allocKeep, allocKeep36, sumLoop, copyKeep))
                    println("  int_array variants: empty lambda %.1f, IntArray(9) %.1f, items() %.1f, current %.1f, local loop %.1f, long pairs %.1f, IntBuffer %.1f".format(nothing, alloc, items, cur, loc, pairs, nio))
                }
            }
            return
        }
        if (dir == "rawab") {
            // the decode call's context and out-words as segments (0) or addresses (1), two
            // contexts interleaved in this JVM (-DaddressesFirst: that one first in each round):
            // the call alone and the whole decode, ns per value
            val ctxs = (0..1).map { k -> BenchValues.context().also { it.mem.outsAsAddresses = k == 1 } }
            val plans2 = ctxs.map { c -> c.mem.planOf(values[0].javaClass)!! }
            for (k in 0..1) ctxs[k].decode(bytes[0], values[0]::class)
            repeat(5) { round ->
                val sb = StringBuilder("round $round:")
                for (k in (if (System.getProperty("addressesFirst") != null) listOf(1, 0) else listOf(0, 1))) {
                    val c = ctxs[k]; val p = plans2[k]
                    val nat = batches(100000) { sink += c.mem.nativeOnly(p, bytes[0]) }
                    val dec = batches(100000) { sink += System.identityHashCode(c.decode(bytes[0])) and 1 }
                    sb.append(" %s: call %.1f, decode %.1f;".format(if (k == 1) "addresses" else "segments", nat, dec))
                }
                println(sb)
            }
            return
        }
        if (dir == "bases") {
            // decode with wire_mem_decode_bases (heap payload and arena) against the copying path
            // (-Dlibwire.decodeCopies=true), interleaved in this JVM: ns per value, best of 12 batches
            System.setProperty("libwire.decodeCopies", "true")
            val old = if (what == "orders") OrderGraph.context() else BenchValues.context()
            System.clearProperty("libwire.decodeCopies")
            val reps = if (values.size > 1) 1000 else 100000
            repeat(3) { round ->
                val a = batches(reps) { for (i in values.indices) ctx.decode(bytes[i], values[i]::class) } / values.size
                val b = batches(reps) { for (i in values.indices) old.decode(bytes[i], values[i]::class) } / values.size
                println("round %d decode ns per value: bases %.1f, copies %.1f".format(round, a, b))
            }
            return
        }
        if (dir == "gen") {
            // the JVM halves with the generated codecs against the composed handles, interleaved in
            // this JVM: thread CPU time per value, best of 12 batches, 3 rounds (-DcomposedFirst: handles first)
            val mx = java.lang.management.ManagementFactory.getThreadMXBean()
            val plans = values.map { ctx.mem.planOf(it.javaClass)!! }
            val all = listOf(NumericStruct::class.java, Sample::class.java, Media::class.java, Image::class.java, MediaContent::class.java)
                .mapNotNull { ctx.mem.planOf(it) }
            val gens = all.map { it.gen }
            if (gens.any { it == null }) { println("no generated codec (JDK < 24 or -Dlibwire.bytecode=false)"); return }
            val used = IntArray(values.size)
            val reps = 100000
            fun best(f: () -> Unit): Double = batches(reps, f)
            repeat(3) { round ->
                for (on in (if (System.getProperty("composedFirst") != null) listOf(false, true) else listOf(true, false))) {
                    for ((k, p) in all.withIndex()) p.gen = if (on) gens[k] else null
                    for (i in values.indices) {
                        val img = best { ctx.mem.imageOnly(plans[i], values[i]) }
                        used[i] = ctx.mem.nativeOnly(plans[i], bytes[i])
                        val obj = best { ctx.mem.objectsOnly(plans[i], bytes[i], used[i]) }
                        val dec = best { ctx.decode(bytes[i]) }
                        val root = best { ctx.mem.rootPlan(bytes[i]) }
                        val nat = best { used[i] = ctx.mem.nativeOnly(plans[i], bytes[i]) }
                        val typed = best { ctx.decode(bytes[i], values[i]::class) }
                        println("   rootPlan %.1f ns, nativeOnly %.1f ns, typed decode %.1f".format(root, nat, typed))
                        println("round %d %s %s: image %.1f ns, objects %.1f ns, whole decode %.1f ns".format(round, values[i].javaClass.simpleName, if (on) "generated" else "composed", img, obj, dec))
                    }
                }
            }
            return
        }
        if (dir == "copy") {
            // ways to copy native bytes into a new array (MemCodec.encode's result) and back
            val n = args.getOrElse(3) { "388" }.toInt()
            val seg = java.lang.foreign.Arena.ofConfined().allocate(1L shl 16, 8)
            val L = java.lang.foreign.ValueLayout.JAVA_BYTE
            fun best(f: () -> ByteArray): Double = perCall { f().size }
            val a = best { ByteArray(n).also { java.lang.foreign.MemorySegment.copy(seg, L, 0L, it, 0, n) } }
            val b = best { seg.asSlice(0L, n.toLong()).toArray(L) }
            val c = best { ByteArray(n).also { seg.asByteBuffer().get(0, it, 0, n) } }
            val src = ByteArray(n)
            val d = best { java.lang.foreign.MemorySegment.copy(src, 0, seg, L, 0L, n); src }
            val e = best { java.lang.foreign.MemorySegment.copy(java.lang.foreign.MemorySegment.ofArray(src), 0L, seg, 0L, n.toLong()); src }
            val f = best { src.copyOf(n) }
            println("ns per $n bytes: native->new array: MemorySegment.copy %.1f, toArray %.1f, ByteBuffer %.1f; array->native: copy(array) %.1f, copy(ofArray) %.1f; Arrays.copyOf %.1f".format(a, b, c, d, e, f))
            return
        }
        if (dir == "arr") {
            // a LongArray of n items out of a byte image: item by item against one MemorySegment.copy (ArraySlot.get)
            val img = ByteArray(8 * 64)
            val lay = dev.libwire.kotlin.Img.LE_I64
            for (n in intArrayOf(4, 9, 16, 32, 64)) {
                val loop = perCall { val a = LongArray(n); for (i in 0 until n) a[i] = dev.libwire.kotlin.Img.I64.get(img, 8 * i) as Long; a.size }
                val seg = perCall { val a = LongArray(n); java.lang.foreign.MemorySegment.copy(java.lang.foreign.MemorySegment.ofArray(img), lay, 0L, a, 0, n); a.size }
                println("ns per LongArray of %d from an image: loop %.1f, MemorySegment.copy %.1f".format(n, loop, seg))
            }
            return
        }
        if (dir == "u16") {
            // ways to build a String from UTF-16LE bytes (MemReader.string)
            val a = "Javaone Keynote\u1234".toByteArray(Charsets.UTF_16LE)
            val c = CharArray(64)
            fun best(f: () -> String): Double = perCall { f().length }
            val seg = best {
                java.lang.foreign.MemorySegment.copy(java.lang.foreign.MemorySegment.ofArray(a), dev.libwire.kotlin.Img.LE_CHAR, 0L, c, 0, a.size / 2)
                String(c, 0, a.size / 2)
            }
            val loop = best {
                val m = a.size / 2
                for (k in 0 until m) c[k] = (dev.libwire.kotlin.Img.I16.get(a, 2 * k) as Short).toInt().toChar()
                String(c, 0, m)
            }
            val dec = best { String(a, 0, a.size, Charsets.UTF_16LE) }
            println("ns per 16-char UTF-16 string: segment copy %.1f, loop %.1f, UTF_16LE decoder %.1f".format(seg, loop, dec))
            if (dev.libwire.kotlin.JStr.OPEN) {
                // MemReader's paths: UTF-16 (the check whether every char fits a byte, a copy that
                // becomes the String's) against Latin-1 text of as many chars (the copy only)
                val l1 = "Javaone Keynote!".toByteArray(Charsets.ISO_8859_1)
                val u = best { dev.libwire.kotlin.JStr.utf16Open(a, 0, a.size) }
                val l = best {
                    val v = ByteArray(l1.size)
                    System.arraycopy(l1, 0, v, 0, l1.size)
                    dev.libwire.kotlin.JStr.NEW.invokeExact(v, 0.toByte()) as String
                }
                // the check before round 9 (word by word with a branch each, then char by char)
                val before = best {
                    var i = 0
                    while (i + 8 <= a.size && (dev.libwire.kotlin.Img.I64.get(a, i) as Long) and -0x00FF00FF00FF0100L == 0L) i += 8
                    var k = i + 1
                    while (k < a.size && a[k].toInt() == 0) k += 2
                    if (k < a.size) dev.libwire.kotlin.JStr.NEW.invokeExact(a.copyOfRange(0, a.size), 1.toByte()) as String else ""
                }
                println("ns per 16-char string built as MemReader does: UTF-16 %.1f (the check before round 9: %.1f), Latin-1 %.1f".format(u, before, l))
            }
            return
        }
        if (dir == "objn" || dir == "decn") {
            // SECONDS x 10,000 calls of the JVM half of decode alone (objn) or of the whole decode
            // (decn), for instruction counts (perf stat: the difference of two counts over the
            // difference of their calls)
            val plan = ctx.mem.planOf(values[0].javaClass)!!
            countLoop(ctx, plan, bytes[0], ctx.mem.nativeOnly(plan, bytes[0]), secs, dir == "decn")
            return
        }
        if (dir == "objloop") {
            // the JVM half of decode alone in a loop of its own (compiled apart from main), for JFR / perf
            val plan = ctx.mem.planOf(values[0].javaClass)!!
            objLoop(ctx, plan, bytes[0], ctx.mem.nativeOnly(plan, bytes[0]), secs)
            return
        }
        if (dir == "floor") {
            mediaFloor(ctx, bytes[0])
            return
        }
        if (dir == "encfloor") {
            @Suppress("UNCHECKED_CAST")
            ordersEncFloor(ctx, values as List<Order>)
            return
        }
        val plans = values.map { ctx.mem.planOf(it.javaClass)!! }
        val used = IntArray(values.size)
        if (dir == "objects") {
            if (values.size != 1) throw IllegalArgumentException("objects: one value only")
            used[0] = ctx.mem.nativeOnly(plans[0], bytes[0])
        }
        val end = System.nanoTime() + secs * 1_000_000_000L
        var sink = 0L
        while (System.nanoTime() < end) {
            for (i in values.indices) {
                sink += when (dir) {
                    "enc" -> ctx.encode(values[i]).size.toLong()
                    // the JVM half of encode alone
                    "imageloop" -> ctx.mem.imageOnly(plans[i], values[i]).toLong()
                    // the JVM half of decode alone, again and again on one arena
                    "objects" -> if (ctx.mem.objectsOnly(plans[i], bytes[i], used[i]) === values[i]) 0L else 1L
                    else -> if (ctx.decode(bytes[i]) === values[i]) 0L else 1L
                }
            }
        }
        println(sink)
    }

    /**
     * The one order of bench/mem_orders.c (`make bench-orders`, the generated C structs) as the
     * binding's classes: the same values, so the C calls of `orders1` and of the C bench differ
     * only by the layouts (`/work/coord/kvg.sh`-style callgrind runs; Kotlin round 41).
     */
    private fun benchOrder(): Order {
        val root = Category(1, "Electronics", null)
        val sub = Category(2, "Electronics Premium", root)
        val thumb = ByteArray(2000) { (it * 7).toByte() }
        val price = java.math.BigDecimal.valueOf(12345, 2)
        val p1 = Product("SKU-100001", "Ultra Pro 1001",
            "Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor", sub, price, 1234,
            linkedSetOf("new", "sale", "bestseller"), thumb.copyOf(300))
        val p2 = Product("SKU-100002", "Eco Max 1002", "labore et dolore magna aliqua enim ad minim veniam", root,
            price, 321, linkedSetOf("new", "sale"), thumb.copyOf(200))
        val a1 = Address("Hauptstrasse 12", "Berlin", "10115", "DE")
        val a2 = Address("Parkallee 3", "Vienna", "1010", "AT")
        val customer = Customer(10001, "Alice", "Anderson", "alice.anderson1@example.com",
            java.time.Instant.ofEpochSecond(500000000), true, listOf(a1, a2))
        val lines = listOf(OrderLine(p1, 2, price, 0.1), OrderLine(p2, 1, price, 0.0), OrderLine(p1, 5, price, 0.25))
        return Order("ORD-000001", customer, lines, OrderStatus.PAID, java.time.Instant.ofEpochSecond(1700000000, 5000),
            a1, linkedMapOf("channel" to "web", "priority" to "high", "source" to "app"), "leave at the door")
    }

    private fun countLoop(ctx: Context, plan: dev.libwire.kotlin.MemPlan, payload: ByteArray, used: Int, n: Long, whole: Boolean) {
        var k = 0L
        if (whole) while (k < n) { for (i in 0 until 10000) keep = ctx.decode(payload); k++ }
        else while (k < n) { for (i in 0 until 10000) keep = ctx.mem.objectsOnly(plan, payload, used); k++ }
    }

    /**
     * The order graph's encode image (the JVM half of encode) against a floor and its parts, in one
     * JVM (thread CPU time per order, best of 8 batches of 250 x 200 orders, 3 rounds): the image as
     * encode writes it; the floor, each order's finished image copied into the writer's array; and
     * each kind of value alone, written by the writer's own code into an image of its own: the
     * strings of struct fields, the thumbnails, the decimals, the tag sets, the attributes maps, the
     * identity lookups of the referable objects (Address, Product, Category), as often as the
     * image has them. The whole less the parts is the per-field rest (getters, dispatch, scalars,
     * struct images).
     */
    private fun ordersEncFloor(ctx: Context, orders: List<Order>) {
        val n = orders.size
        val plan = ctx.mem.planOf(Order::class.java)!!
        val w = dev.libwire.kotlin.MemWriter()
        w.b = ByteArray(1 shl 16)
        // per order, what its image holds once (shared objects met again are references)
        val strs = ArrayList<Array<String>>(); val thumbs = ArrayList<Array<ByteArray>>(); val decs = ArrayList<Array<java.math.BigDecimal>>()
        val tagSets = ArrayList<Array<Set<String>>>(); val refs = ArrayList<Array<Any>>(); val maps = ArrayList<Map<String, String>>()
        val images = ArrayList<ByteArray>()
        for (o in orders) {
            val seen = java.util.IdentityHashMap<Any, Boolean>()
            val s = ArrayList<String>(); val t = ArrayList<ByteArray>(); val d = ArrayList<java.math.BigDecimal>()
            val g = ArrayList<Set<String>>(); val r = ArrayList<Any>()
            fun first(x: Any): Boolean { r.add(x); return seen.put(x, true) == null }
            fun address(a: Address) { if (first(a)) { s.add(a.street); s.add(a.city); s.add(a.zip); s.add(a.country) } }
            fun category(c: Category?) { if (c != null && first(c)) { s.add(c.name); category(c.parent) } }
            s.add(o.id)
            s.add(o.customer.firstName); s.add(o.customer.lastName); s.add(o.customer.email)
            for (a in o.customer.addresses) address(a)
            for (l in o.lines) {
                val p = l.product
                if (first(p)) {
                    s.add(p.sku); s.add(p.name); s.add(p.description); category(p.category)
                    d.add(p.price); g.add(p.tags); t.add(p.thumbnail)
                }
                d.add(l.unitPrice)
            }
            address(o.shippingAddress)
            o.notes?.let { s.add(it) }
            strs.add(s.toTypedArray()); thumbs.add(t.toTypedArray()); decs.add(d.toTypedArray())
            tagSets.add(g.toTypedArray()); refs.add(r.toTypedArray()); maps.add(o.attributes)
            w.reset(1L shl 32, true, 64)
            w.struct(plan, o)
            images.add(w.b.copyOf(w.top))
        }
        val tagSlot = ctx.mem.planOf(Product::class.java)!!.fields.first { it.name == "tags" }.slot
        val mapSlot = plan.fields.first { it.name == "attributes" }.slot
        println("per order: image %.0f bytes, %.1f strings, %.1f thumbnails (%.0f bytes), %.1f decimals, %.1f tag sets (%.1f tags), %.1f referable objects met, %.1f attributes".format(
            images.sumOf { it.size } / n.toDouble(), strs.sumOf { it.size } / n.toDouble(), thumbs.sumOf { it.size } / n.toDouble(),
            thumbs.sumOf { a -> a.sumOf { it.size } } / n.toDouble(), decs.sumOf { it.size } / n.toDouble(), tagSets.sumOf { it.size } / n.toDouble(),
            tagSets.sumOf { a -> a.sumOf { it.size } } / n.toDouble(), refs.sumOf { it.size } / n.toDouble(), maps.sumOf { it.size } / n.toDouble()))
        val whole = { for (i in 0 until n) { w.reset(1L shl 32, true, 64); w.struct(plan, orders[i]) } }
        val floor = { for (i in 0 until n) { val a = images[i]; w.reset(1L shl 32, true, 64); System.arraycopy(a, 0, w.b, w.alloc(a.size, 8), a.size) } }
        val pStr = { for (i in 0 until n) { w.reset(1L shl 32, true, 64); val a = strs[i]; val at = w.alloc(16 * a.size, 8); for (k in a.indices) w.string(at + 16 * k, a[k]) } }
        val pThumb = { for (i in 0 until n) { w.reset(1L shl 32, true, 64); val a = thumbs[i]; val at = w.alloc(16 * a.size, 8); for (k in a.indices) dev.libwire.kotlin.BytesSlot.put(w, at + 16 * k, a[k]) } }
        val pDec = { for (i in 0 until n) { w.reset(1L shl 32, true, 64); val a = decs[i]; val at = w.alloc(24 * a.size, 8); for (k in a.indices) dev.libwire.kotlin.DecimalSlot.put(w, at + 24 * k, a[k]) } }
        val pTags = { for (i in 0 until n) { w.reset(1L shl 32, true, 64); val a = tagSets[i]; val at = w.alloc(16 * a.size, 8); for (k in a.indices) tagSlot.put(w, at + 16 * k, a[k]) } }
        val pMap = { for (i in 0 until n) { w.reset(1L shl 32, true, 64); mapSlot.put(w, w.alloc(16, 8), maps[i]) } }
        val ids = dev.libwire.kotlin.IdentityInts()
        val pRef = { for (i in 0 until n) { ids.clear(); val a = refs[i]; for (k in a.indices) { if (ids.get(a[k]) < 0) ids.putAfterGet(a[k], k) } } }
        val pReset = { for (i in 0 until n) { w.reset(1L shl 32, true, 64) } }
        repeat(3) { round ->
            val tw = batches(250, 8, whole) / n
            val tf = batches(250, 8, floor) / n
            val ts = batches(250, 8, pStr) / n
            val tt = batches(250, 8, pThumb) / n
            val td = batches(250, 8, pDec) / n
            val tg = batches(250, 8, pTags) / n
            val tm = batches(250, 8, pMap) / n
            val tr = batches(250, 8, pRef) / n
            val t0 = batches(250, 8, pReset) / n
            val parts = ts + tt + td + tg + tm + tr
            println("round %d ns per order: image %.1f, floor (copy of the finished image) %.1f; parts: strings %.1f, thumbnails %.1f, decimals %.1f, tag sets %.1f, attributes %.1f, identity lookups %.1f (sum %.1f; reset %.1f); rest %.1f".format(
                round, tw, tf, ts, tt, td, tg, tm, tr, parts, t0, tw - parts))
        }
    }

    private fun objLoop(ctx: Context, plan: dev.libwire.kotlin.MemPlan, payload: ByteArray, used: Int, secs: Long) {
        val end = System.nanoTime() + secs * 1_000_000_000L
        while (System.nanoTime() < end) for (i in 0 until 10000) keep = ctx.mem.objectsOnly(plan, payload, used)
    }

    /**
     * MediaContent's JVM half against its floor, interleaved in one JVM (thread CPU time, best of 12
     * batches, 3 rounds): the objects built from the decoded image (MemCodec.objectsOnly), the same
     * objects built from the payload with every string's offset, length and coder known in
     * advance (no image read: allocations and copies only), the whole decode, Fory Java's decode
     * (the bench's configuration), bytes allocated per decode.
     */
    private fun mediaFloor(ctx: Context, payload: ByteArray) {
        val v = BenchValues.mediaContent()
        fun find(s: String): IntArray {
            if (s.isEmpty()) return intArrayOf(0, 0, 0)
            val latin = s.all { it.code < 256 }
            val enc = if (latin) s.toByteArray(Charsets.ISO_8859_1) else s.toByteArray(Charsets.UTF_16LE)
            for (i in 0..payload.size - enc.size) if (payload.copyOfRange(i, i + enc.size).contentEquals(enc)) return intArrayOf(i, enc.size, if (latin) 0 else 1)
            throw IllegalStateException("not in the payload: $s")
        }
        val m = v.media
        val strs = listOf(m.uri, m.title, m.format, m.persons[0], m.persons[1], m.copyright) + v.images.flatMap { listOf(it.uri, it.title) }
        val d = IntArray(3 * strs.size)
        for ((k, s) in strs.withIndex()) find(s).copyInto(d, 3 * k)
        fun str(k: Int): String {
            val n = d[3 * k + 1]
            if (n == 0) return ""
            val a = ByteArray(n)
            System.arraycopy(payload, d[3 * k], a, 0, n)
            return dev.libwire.kotlin.JStr.NEW.invokeExact(a, d[3 * k + 2].toByte()) as String
        }
        val players = Player.values()
        val sizes = Size.values()
        fun floor(): MediaContent {
            val media = Media(str(0), str(1), d[0] + 641, d[1] + 481, str(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                arrayOf<String>(str(3), str(4)).asList(), players[d[6] and 1], str(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(str(6 + 2 * i), str(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        check(floor().media.persons == v.media.persons)
        val plan = ctx.mem.planOf(MediaContent::class.java)!!
        val used = ctx.mem.nativeOnly(plan, payload)
        // where each string's pointer and header lie in the decoded image
        val r = ctx.mem.readerFor(plan, payload, used)
        val I64 = dev.libwire.kotlin.Img.I64
        fun fo(p: dev.libwire.kotlin.MemPlan, name: String) = p.fields.first { it.name == name }.offset
        val mf = plan.fields.first { it.name == "media" }
        val mp = (mf.slot as dev.libwire.kotlin.StructSlot).plan
        val mediaAt = r.off(I64.get(r.b, mf.offset) as Long)
        val imf = plan.fields.first { it.name == "images" }
        val ils = imf.slot as dev.libwire.kotlin.ListSlot
        val ip = (ils.item.slot as dev.libwire.kotlin.StructSlot).plan
        val k0 = r.items(imf.offset)
        val imageAts = IntArray(3) { r.off(I64.get(r.b, k0 + it * ils.stride) as Long) }
        val pk = r.items(mediaAt + fo(mp, "persons"))
        val so = intArrayOf(mediaAt + fo(mp, "uri"), mediaAt + fo(mp, "title"), mediaAt + fo(mp, "format"), pk, pk + 16, mediaAt + fo(mp, "copyright"),
            imageAts[0] + fo(ip, "uri"), imageAts[0] + fo(ip, "title"), imageAts[1] + fo(ip, "uri"), imageAts[1] + fo(ip, "title"),
            imageAts[2] + fo(ip, "uri"), imageAts[2] + fo(ip, "title"))
        for ((k, s) in strs.withIndex()) check(r.string(so[k]) == s) { "string $k" }
        fun strU(k: Int): String {
            val n = d[3 * k + 1]
            if (n == 0) return ""
            if (d[3 * k + 2] == 1) return dev.libwire.kotlin.JStr.utf16Open(payload, d[3 * k], n)
            val a = ByteArray(n)
            System.arraycopy(payload, d[3 * k], a, 0, n)
            return dev.libwire.kotlin.JStr.NEW.invokeExact(a, 0.toByte()) as String
        }
        fun floorU(): MediaContent {
            val media = Media(strU(0), strU(1), d[0] + 641, d[1] + 481, strU(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                arrayOf<String>(strU(3), strU(4)).asList(), players[d[6] and 1], strU(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(strU(6 + 2 * i), strU(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        fun strR(k: Int): String = r.string(so[k])!!
        fun floorR(): MediaContent {
            val media = Media(strR(0), strR(1), d[0] + 641, d[1] + 481, strR(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                arrayOf<String>(strR(3), strR(4)).asList(), players[d[6] and 1], strR(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(strR(6 + 2 * i), strR(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        check(ctx.mem.objectsOnly(plan, payload, used) == v)
        val fx = org.apache.fory.Fory.builder().withXlang(true).withCompatible(true).withCodegen(true)
            .withRefTracking(false).withClassVersionCheck(false).requireClassRegistration(true).build()
        dev.libwire.bench.ForyModel.register(fx)
        val fb = fx.serialize(dev.libwire.bench.ForyModel.mediaContent())
        val mx = java.lang.management.ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
        val tid = Thread.currentThread().threadId()
        fun alloc(f: () -> Unit): Double {
            val a = mx.getThreadAllocatedBytes(tid)
            repeat(1000) { f() }
            return (mx.getThreadAllocatedBytes(tid) - a) / 1000.0
        }
        val reps = 100000
        val objs = { keep = ctx.mem.objectsOnly(plan, payload, used) }
        val flo = { keep = floor() }
        val dec = { keep = ctx.decode(payload) }
        val fdec = { keep = fx.deserialize(fb) }
        val mg = mp.gen!!
        val ig = ip.gen!!
        // Media from its generated read, the images as in floorR / the images from theirs, Media as in floorR
        fun floorM(): MediaContent {
            val media = mg.read(r, mediaAt) as Media
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(strR(6 + 2 * i), strR(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        fun floorI(): MediaContent {
            val media = Media(strR(0), strR(1), d[0] + 641, d[1] + 481, strR(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                arrayOf<String>(strR(3), strR(4)).asList(), players[d[6] and 1], strR(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = ig.read(r, imageAts[i]) as Image
            return MediaContent(media, im.asList() as List<Image>)
        }
        val personsAt = mediaAt + fo(mp, "persons")
        val playerF = mp.fields.first { it.name == "player" }
        val playerAt = mediaAt + playerF.offset
        val playerSlot = playerF.slot
        // floorR with the persons list through the generated code's reader / the player through its slot
        fun floorP(): MediaContent {
            @Suppress("UNCHECKED_CAST")
            val media = Media(strR(0), strR(1), d[0] + 641, d[1] + 481, strR(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                dev.libwire.kotlin.MemGenRt.gStrListFixed(r, personsAt) as List<String>, players[d[6] and 1], strR(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(strR(6 + 2 * i), strR(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        fun floorE(): MediaContent {
            val media = Media(strR(0), strR(1), d[0] + 641, d[1] + 481, strR(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                arrayOf<String>(strR(3), strR(4)).asList(), playerSlot.get(r, playerAt) as Player, strR(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(strR(6 + 2 * i), strR(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        // the persons: items() then two strings, no loop / a loop over precomputed items, no items()
        fun floorP1(): MediaContent {
            val k = r.items(personsAt)
            val media = Media(strR(0), strR(1), d[0] + 641, d[1] + 481, strR(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                arrayOf<String>(r.string(k)!!, r.string(k + 16)!!).asList(), players[d[6] and 1], strR(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(strR(6 + 2 * i), strR(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        val pk0 = so[3]
        val pn = v.media.persons.size
        fun personsLoop(): List<String> {
            val a = arrayOfNulls<Any?>(pn)
            var k = pk0
            for (i in 0 until pn) { a[i] = r.string(k); k += 16 }
            @Suppress("UNCHECKED_CAST")
            return a.asList() as List<String>
        }
        fun floorP2(): MediaContent {
            val media = Media(strR(0), strR(1), d[0] + 641, d[1] + 481, strR(2), d[2] + 18000001L, d[3] + 58982401L, d[4], d[5] == 1,
                personsLoop(), players[d[6] and 1], strR(5))
            val im = arrayOfNulls<Image>(3)
            for (i in 0 until 3) im[i] = Image(strR(6 + 2 * i), strR(7 + 2 * i), d[i] + 1024, d[i + 1] + 768, sizes[d[i + 2] and 1])
            return MediaContent(media, im.asList() as List<Image>)
        }
        val floP1 = { keep = floorP1() }
        val floP2 = { keep = floorP2() }
        val floP = { keep = floorP() }
        val floE = { keep = floorE() }
        val floM = { keep = floorM() }
        val floI = { keep = floorI() }
        val floU = { keep = floorU() }
        val floR = { keep = floorR() }
        repeat(3) { round ->
            println("round %d ns: floor with the UTF-16 check %.1f, floor with the strings read from the image %.1f, that with Media's generated read %.1f, with Image's %.1f; floorR with the persons through gStrListFixed %.1f, the player through its slot %.1f".format(round, batches(reps, floU), batches(reps, floR), batches(reps, floM), batches(reps, floI), batches(reps, floP), batches(reps, floE)))
            println("round %d ns: persons: items() and two strings %.1f, a loop, no items() %.1f".format(round, batches(reps, floP1), batches(reps, floP2)))
            println("round %d ns: objects %.1f, floor %.1f, whole decode %.1f, fory decode %.1f; bytes allocated: objects %.0f, floor %.0f, decode %.0f, fory %.0f".format(
                round, batches(reps, objs), batches(reps, flo), batches(reps, dec), batches(reps, fdec), alloc(objs), alloc(flo), alloc(dec), alloc(fdec)))
        }
    }

    @JvmStatic var sink = 0
    @JvmStatic var keep: Any? = null

    /** A dynamic value through the tape codec: ns per call of decode, of its C half (tape and copy), and of encode. */
    private fun dynamic(what: String) {
        val words = listOf("alpha", "beta", "gamma", "delta", "caf\u00e9", "na\u00efve", "id", "value")
        val v: Any = when (what) {
            "strings" -> List(10000) { "%s %05d".format(words[it % 8], it) }
            "longs" -> LongArray(100000) { it * 0x9E3779B97F4A7C15uL.toLong() }
            "ints" -> IntArray(100000) { it * -0x61c88647 }
            "doubles" -> DoubleArray(100000) { it / 3.0 }
            "binary" -> ByteArray(1 shl 20) { (it * 31).toByte() }
            "map" -> LinkedHashMap<String, Long>().also { m -> for (i in 0 until 10000) m["key%05d".format(i)] = i * 0x9E3779B97F4A7C15uL.toLong() ushr (i and 63) }
            else -> List(1000) { i -> when (i % 8) { 0, 1, 7 -> i * 1234567L; 2 -> i / 3.0; 3 -> i % 3 == 0; 4, 5 -> words[i % 8] + "-" + i; else -> "\u6570\u636e" + i } }
        }
        val ctx = Context()
        val bytes = ctx.encode(v)
        val dec = dev.libwire.kotlin.TapeDecoder(ctx)
        if (System.getProperty("loop") != null) {
            val end = System.nanoTime() + 15_000_000_000L
            if (System.getProperty("loop") == "enc") while (System.nanoTime() < end) sink += ctx.encode(v).size
            else while (System.nanoTime() < end) sink += (ctx.decode(bytes) as? Collection<*>)?.size ?: 1
            return
        }
        for (round in 0 until 3) {
            val d = best { sink += (ctx.decode(bytes) as? Collection<*>)?.size ?: 1 }
            val t = best { sink += dec.tapeOnly(bytes) }
            val e = best { sink += ctx.encode(v).size }
            val w = dev.libwire.kotlin.TapeEncoder(ctx)
            val one = listOf(v)
            val j = best { sink += w.write(one) }
            // the encode's C call and the copy into the result alone, on the tape just written
            val tn = w.write(one)
            val c = best { sink += ctx.encodeTape(ctx.tapeBuffer, tn).size }
            println("$what µs per call: dec %.2f (C and tape copy %.2f, JVM %.2f), enc %.2f (JVM tape %.2f, C and copy %.2f; measured alone %.2f)".format(d / 1000, t / 1000, (d - t) / 1000, e / 1000, j / 1000, (e - j) / 1000, c / 1000))
        }
    }

    /**
     * RatioBenchTest's list_mixed_1000 (the same value, from [TapeValues]): its decode in parts, interleaved in this JVM, against Fory
     * Java's (the bench's dynamic configuration): the whole decode, the C call writing the tape
     * alone, the JVM's objects alone from a kept copy of the tape, Fory's decode; thread CPU time
     * per call, best of 12 batches of >= 20 ms, 3 rounds; and bytes allocated per call.
     * `-Donly=long|latin1|utf16`: the elements of one kind (a null first, so that the longs are
     * not packed; C then takes other paths than for the mixed list); `-Dloop=jvm|c|fory|dec`: one
     * part in a loop for perf; `-Ddump=FILE`: the payload, for a C harness.
     */
    private fun mixedParts() {
        val v = TapeValues().mixed
        // -Donly=utf16|latin1|long: the list's elements of that kind only, a null first (for perf)
        when (System.getProperty("only")) {
            "utf16" -> v.retainAll { it is String && it.any { c -> c.code >= 256 } }
            "latin1" -> v.retainAll { it is String && it.all { c -> c.code < 256 } }
            "long" -> v.retainAll { it is Long }
            else -> {}
        }
        if (System.getProperty("only") != null) v.add(0, null)
        val ctx = Context()
        val bytes = ctx.encode(v)
        val fory = org.apache.fory.Fory.builder().withLanguage(org.apache.fory.config.Language.XLANG).withRefTracking(false)
            .withCompatibleMode(org.apache.fory.config.CompatibleMode.SCHEMA_CONSISTENT).build()
        val fb = fory.serialize(v)
        check(dev.libwire.kotlin.deepEq(v, ctx.decode(bytes)) && dev.libwire.kotlin.deepEq(v, fory.deserialize(fb)))
        check(dev.libwire.kotlin.deepEq(v, ctx.decode(fb)) && dev.libwire.kotlin.deepEq(v, fory.deserialize(bytes)))
        val dec = dev.libwire.kotlin.TapeDecoder(ctx)
        val len = dec.tapeOnly(bytes)
        val tape = ctx.readBuffer.copyOf(len)
        check(dev.libwire.kotlin.deepEq(v, dec.fromTape(bytes, tape, len)[0]))
        println("payload bytes: libwire %d, Fory %d; tape bytes %d".format(bytes.size, fb.size, len))
        System.getProperty("dump")?.let { java.nio.file.Files.write(java.nio.file.Path.of(it), bytes) }
        val mx = java.lang.management.ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
        val tid = Thread.currentThread().threadId()
        fun alloc(f: () -> Unit): Double {
            val a = mx.getThreadAllocatedBytes(tid)
            repeat(100) { f() }
            return (mx.getThreadAllocatedBytes(tid) - a) / 100.0
        }
        if (System.getProperty("loop") != null) {
            // for perf: one part in a loop of 15 s
            val end = System.nanoTime() + 15_000_000_000L
            when (System.getProperty("loop")) {
                "jvm" -> while (System.nanoTime() < end) sink += (dec.fromTape(bytes, tape, len)[0] as List<*>).size
                "c" -> while (System.nanoTime() < end) sink += dec.tapeOnly(bytes)
                "fory" -> while (System.nanoTime() < end) sink += (fory.deserialize(fb) as List<*>).size
                else -> while (System.nanoTime() < end) sink += (ctx.decode(bytes) as List<*>).size
            }
            return
        }
        val whole = { sink += (ctx.decode(bytes) as List<*>).size }
        val cOnly = { sink += dec.tapeOnly(bytes) }
        val jvmOnly = { sink += (dec.fromTape(bytes, tape, len)[0] as List<*>).size }
        val fx = { sink += (fory.deserialize(fb) as List<*>).size }
        for (round in 0 until 3) {
            val d = best(whole)
            val c = best(cOnly)
            val j = best(jvmOnly)
            val f = best(fx)
            println("round %d list_mixed_1000 decode µs: libwire %.2f (C call writing the tape %.2f, JVM objects from a kept tape %.2f; sum %.2f), Fory %.2f; ratio %.3f".format(
                round, d / 1000, c / 1000, j / 1000, (c + j) / 1000, f / 1000, d / f))
        }
        println("bytes allocated per decode: libwire %.0f (JVM from the tape %.0f), Fory %.0f".format(alloc(whole), alloc(jvmOnly), alloc(fx)))
    }

    /**
     * RatioBenchTest's five tape workloads (the same generators and seed) decoded in its order,
     * round after round in one JVM, so that each decode runs with the profiles the ones before it
     * left (round 26): per round and workload, libwire's decode, its C call alone, the JVM's
     * objects alone from a kept tape, and Fory Java's decode, µs (thread CPU time, best of 12
     * batches of >= 20 ms).
     */
    private fun sequence() {
        val tv = TapeValues()
        val mixed = tv.mixed
        // -Dmixed=long|latin1|utf16|double: list_mixed_1000's elements of that kind only (a null first)
        System.getProperty("mixed")?.let { kind ->
            when (kind) {
                "utf16" -> mixed.retainAll { it is String && it.any { c -> c.code >= 256 } }
                "latin1" -> mixed.retainAll { it is String && it.all { c -> c.code < 256 } }
                "long" -> mixed.retainAll { it is Long }
                "double" -> mixed.retainAll { it is Double }
            }
            mixed.add(0, null)
        }
        val values = listOf<Pair<String, Any>>(
            "list_mixed_1000" to mixed, "map_str_i64_10000" to tv.map,
            "i64_array_100000" to tv.longs, "binary_1MiB" to tv.binary, "strings_10000" to tv.strings,
        )
        val only = System.getProperty("only")?.split(",")?.toSet()
        val ctx = Context()
        val fory = org.apache.fory.Fory.builder().withLanguage(org.apache.fory.config.Language.XLANG).withRefTracking(false)
            .withCompatibleMode(org.apache.fory.config.CompatibleMode.SCHEMA_CONSISTENT).build()
        val dec = dev.libwire.kotlin.TapeDecoder(ctx)
        for (round in 0 until 3) {
            for ((name, v) in values) {
                if (only != null && name !in only) continue
                val bytes = ctx.encode(v)
                val fb = fory.serialize(v)
                val d = best { sink += (ctx.decode(bytes) as? Collection<*>)?.size ?: 1 }
                val len = dec.tapeOnly(bytes)
                val tape = ctx.readBuffer.copyOf(len)
                val c = best { sink += dec.tapeOnly(bytes) }
                val j = best { sink += dec.fromTape(bytes, tape, len).size }
                val f = best { sink += (fory.deserialize(fb) as? Collection<*>)?.size ?: 1 }
                println("round %d %s decode µs: libwire %.2f (C call %.2f, JVM from a kept tape %.2f), Fory %.2f; ratio %.3f".format(
                    round, name, d / 1000, c / 1000, j / 1000, f / 1000, d / f))
            }
        }
    }

    /** Thread CPU ns per call of [f]: calls doubled until a batch takes 20 ms, then the best of 12 batches. */
    private fun best(f: () -> Unit): Double {
        val mx = java.lang.management.ManagementFactory.getThreadMXBean()
        var b = Long.MAX_VALUE
        var reps = 1
        while (true) { val t = mx.currentThreadCpuTime; repeat(reps) { f() }; if (mx.currentThreadCpuTime - t > 20_000_000) break; reps *= 2 }
        repeat(12) {
            val t = mx.currentThreadCpuTime
            repeat(reps) { f() }
            b = minOf(b, mx.currentThreadCpuTime - t)
        }
        return b / reps.toDouble()
    }

    private fun batches(reps: Int, f: () -> Unit): Double = batches(reps, 12, f)

    /**
     * `byname`: an untyped decode of a root by name in schema-consistent mode, `decode(bytes)`
     * (the compiled codecs, the class found from the names) against `decodeAll(bytes).single()`
     * (the tape codec, which such a root took before), in alternated batches in this JVM: thread
     * CPU time per value, best of 12 batches, 4 rounds.
     */
    private fun byName() {
        val ctx = Context(dev.libwire.kotlin.WireOptions(compatible = false))
        ctx.registerSchemaText("package bn;\noption enable_auto_type_id = false;\n" +
            "message ByName { int32 n = 1; string s = 2; list<int64> xs = 3; }\n", "bn.fdl")
        ctx.registerDataClass(ByName::class, "bn.ByName")
        val v = ByName(5, "hello", listOf(1L, 2L, 3L))
        val bytes = ctx.encode(v)
        check(ctx.decode(bytes) == v && ctx.decodeAll(bytes).single() == v && ctx.mem.rootPlan(bytes) != null)
        repeat(4) { round ->
            val tape = batches(100000) { keep = ctx.decodeAll(bytes).single() }
            val mem = batches(100000) { keep = ctx.decode(bytes) }
            println("round $round ns per value: tape %.1f, compiled %.1f (ratio %.2f)".format(tape, mem, mem / tape))
        }
    }

    /**
     * `foreign`: an untyped decode of a root whose TypeDef is a writer's, not the registered one
     * (Sample and MediaContent written from a schema with one field more, `extra_field`, by the
     * tape encoder), `decode(bytes)` (the compiled codecs, the class found by `wire_root_type`,
     * kept per TypeDef bytes: Roots.kt) against `decodeAll(bytes).single()` (the tape codec, which
     * such a root took before), in alternated batches in this JVM: thread CPU time per value, best
     * of 12 batches, 4 rounds.
     */
    private fun foreign() {
        val ctx = BenchValues.context()
        val text = java.nio.file.Files.readString(dev.libwire.kotlin.repoRoot.resolve("bench/schemas/bench.fdl"))
        val plain = Context(dev.libwire.kotlin.WireOptions(compatible = true)).also { it.registerSchemaText(text, "bench.fdl") }
        val writer = Context(dev.libwire.kotlin.WireOptions(compatible = true)).also {
            it.registerSchemaText(text.replace("message Sample [id=2] {", "message Sample [id=2] {\n    int32 extra_field = 99;")
                .replace("message MediaContent [id=5] {", "message MediaContent [id=5] {\n    int32 extra_field = 99;"), "bench.fdl")
        }
        for (v in listOf<Any>(BenchValues.sample(), BenchValues.mediaContent())) {
            val w = plain.decodeAll(ctx.encode(v)).single() as dev.libwire.kotlin.WireStruct
            val bytes = writer.encodeAll(listOf(w.copy(fields = w.fields + ("extra_field" to 7))))
            check(ctx.decode(bytes) == v && ctx.decodeAll(bytes).single() == v && ctx.mem.rootPlan(bytes) != null && ctx.mem.roots.foreign)
            repeat(4) { round ->
                val tape = batches(20000) { keep = ctx.decodeAll(bytes).single() }
                val mem = batches(20000) { keep = ctx.decode(bytes) }
                println("${v.javaClass.simpleName} round $round ns per value: tape %.1f, compiled %.1f (ratio %.2f)".format(tape, mem, mem / tape))
            }
        }
    }

    /** Bytes this thread allocates per value over 20 calls of [f], which handles [n] values. */
    private fun allocatedPer(n: Int, f: () -> Unit): Double {
        val mx = java.lang.management.ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
        val tid = Thread.currentThread().threadId()
        val a = mx.getThreadAllocatedBytes(tid)
        repeat(20) { f() }
        return (mx.getThreadAllocatedBytes(tid) - a) / 20.0 / n
    }

    /** Fory Java xlang as the bench configures it for the order graph, the order classes registered. */
    private fun foryOrders(): org.apache.fory.Fory =
        org.apache.fory.Fory.builder().withXlang(true).withCompatible(true).withCodegen(true).withRefTracking(true)
            .withClassVersionCheck(false).requireClassRegistration(true).build().also { OrderModelJava.register(it) }

    private fun batches(reps: Int, count: Int, f: () -> Unit): Double {
        val mx = java.lang.management.ManagementFactory.getThreadMXBean()
        var b = Long.MAX_VALUE
        repeat(count) {
            val t = mx.currentThreadCpuTime
            repeat(reps) { f() }
            b = minOf(b, mx.currentThreadCpuTime - t)
        }
        return b / reps.toDouble()
    }

    private fun perCall(f: () -> Int): Double {
        val mx = java.lang.management.ManagementFactory.getThreadMXBean()
        var b = Long.MAX_VALUE
        repeat(12) {
            val t0 = mx.currentThreadCpuTime
            repeat(1_000_000) { sink += f() }
            b = minOf(b, mx.currentThreadCpuTime - t0)
        }
        return b / 1e6
    }
}
