package dev.libwire.kotlin.testee

import dev.libwire.kotlin.Context
import dev.libwire.kotlin.Document
import dev.libwire.kotlin.Node
import dev.libwire.kotlin.StringEncoding
import dev.libwire.kotlin.TypeId
import dev.libwire.kotlin.WireException
import java.math.BigInteger
import java.time.LocalDate
import java.time.ZoneOffset
import java.time.format.DateTimeFormatter

/** The value notation (spec/notation.md) cannot be turned into a document as asked. */
class NotationException(message: String) : RuntimeException(message)

private val META_ENCODINGS = listOf("utf8", "lower_special", "luds", "first_to_lower_special", "all_to_lower_special")

private fun hexOf(b: ByteArray): String {
    val sb = StringBuilder(b.size * 2)
    for (x in b) {
        val v = x.toInt() and 0xff
        sb.append("0123456789abcdef"[v shr 4]).append("0123456789abcdef"[v and 15])
    }
    return sb.toString()
}

private fun hexDigit(c: Char): Int = when (c) {
    in '0'..'9' -> c - '0'
    in 'a'..'f' -> c - 'a' + 10
    in 'A'..'F' -> c - 'A' + 10
    else -> -1
}

internal fun parseHex(s: String, what: String): ByteArray {
    if (s.length % 2 != 0) throw NotationException("$what has odd length")
    return ByteArray(s.length / 2) {
        val a = hexDigit(s[2 * it])
        val b = hexDigit(s[2 * it + 1])
        if (a < 0 || b < 0) throw NotationException("$what has a bad digit")
        (a shl 4 or b).toByte()
    }
}

/** Notation JSON → document nodes (one root at a time; anchors are local to a root). */
class NotationReader(private val ctx: Context, private val doc: Document) {
    private val anchors = HashMap<String, Node>()
    private val typedefs = ArrayList<Node>()
    private var depth = 0

    companion object {
        private val ANNOTATIONS = setOf(
            "anchor", "tracked", "enc", "header", "chunks", "ns_enc", "name_enc",
            "ns_hash", "name_hash", "ns_xref", "name_xref", "approx", "iso",
        )
    }

    fun addRoot(json: Any?) {
        anchors.clear()
        typedefs.clear()
        doc.addRoot(node(json))
    }

    private fun err(msg: String): Nothing = throw NotationException(msg)

    private fun i64(v: Any?, what: String): Long =
        (v as? String)?.let { s -> if (s.isEmpty() || s.trim() != s || s.startsWith("+")) null else s.toLongOrNull() }
            ?: err("$what takes a decimal string")

    private fun u64(v: Any?, what: String): Long =
        (v as? String)?.let { s -> if (s.isEmpty() || s.startsWith("-") || s.startsWith("+")) null else s.toULongOrNull()?.toLong() }
            ?: err("$what takes a decimal string")

    private fun jint(v: Any?, what: String, lo: Long, hi: Long): Long {
        val x = (v as? Long) ?: err("$what must be an integer")
        if (x < lo || x > hi) err("$what is out of range")
        return x
    }

    /** Float string → bits of type [t] (0x bits, or decimal/nan/inf rounded to nearest even). */
    private fun floatBits(t: Int, v: Any?): Long {
        val s = v as? String ?: err("${TypeId.name(t)} takes \"0x<bits>\" or a decimal string")
        if (s.startsWith("0x") || s.startsWith("0X")) {
            val x = s.substring(2).toULongOrNull(16) ?: err("bad float bits \"$s\"")
            val max = when (t) { TypeId.FLOAT64 -> ULong.MAX_VALUE; TypeId.FLOAT32 -> 0xffffffffuL; else -> 0xffffuL }
            if (x > max || s.length == 2) err("bad float bits \"$s\"")
            return x.toLong()
        }
        val d = when (s) {
            "nan" -> Double.NaN
            "inf" -> Double.POSITIVE_INFINITY
            "-inf" -> Double.NEGATIVE_INFINITY
            else -> {
                if (s.isEmpty() || s.any { it.isLetter() && it != 'e' && it != 'E' }) err("bad float \"$s\"")
                s.toDoubleOrNull() ?: err("bad float \"$s\"")
            }
        }
        return when (t) {
            TypeId.FLOAT16 -> dev.libwire.kotlin.Float16Bits.fromDouble(d).toLong() and 0xffff
            TypeId.BFLOAT16 -> dev.libwire.kotlin.Float16Bits.bfloatFromDouble(d).toLong() and 0xffff
            TypeId.FLOAT32 -> d.toFloat().toRawBits().toLong() and 0xffffffffL
            else -> d.toRawBits()
        }
    }

    private fun remember(j: Map<*, *>, n: Node) {
        val tr = j["tracked"]
        if (j.containsKey("tracked")) {
            if (tr !is Boolean) err("\"tracked\" must be a boolean")
            n.tracked = if (tr) 1 else 0
        }
        if (!j.containsKey("anchor")) return
        val a = j["anchor"] as? String ?: err("\"anchor\" must be a string")
        if (anchors.containsKey(a)) err("anchor \"$a\" defined twice")
        anchors[a] = n
        n.tracked = 1
    }

    private fun msenc(j: Map<*, *>, key: String): Int {
        if (!j.containsKey(key)) return -1
        val i = META_ENCODINGS.indexOf(j[key] as? String)
        if (i < 0) err("unknown meta string encoding in \"$key\"")
        return i
    }

    private fun nameEncodings(j: Map<*, *>, n: Node) {
        val a = msenc(j, "ns_enc")
        val b = msenc(j, "name_enc")
        if ((a >= 0) != (b >= 0)) err("give both ns_enc and name_enc or neither")
        if (a >= 0) {
            try {
                n.nameEncodings = a to b
            } catch (e: WireException) {
                err("ns_enc/name_enc on a value without names")
            }
        }
    }

    fun node(j: Any?): Node {
        if (j !is Map<*, *>) err("a node must be a JSON object")
        if (++depth > 10000) err("nesting too deep")
        try {
            return nodeOf(j)
        } finally {
            depth--
        }
    }

    private fun nodeOf(j: Map<*, *>): Node {
        if (j.containsKey("ref")) {
            val r = j["ref"]
            if (j.size != 1 || r !is String) err("a ref node is {\"ref\": \"name\"} alone")
            return anchors[r] ?: err("unknown anchor \"$r\"")
        }
        var key: String? = null
        for (k in j.keys) {
            k as String
            if (k in ANNOTATIONS) continue
            if (key != null) err("two type keys: \"$key\" and \"$k\"")
            key = k
        }
        if (key == null) err("no type key")
        val v = j[key]
        val t = if (key == "null") TypeId.NULL else TypeId.fromName(key)
        if (t < 0) err("unknown type key \"$key\"")
        val n: Node = when {
            t == TypeId.NULL -> doc.newNull()
            t == TypeId.NONE -> doc.newNone()
            t == TypeId.BOOL -> doc.newBool(v as? Boolean ?: err("bool takes true or false"))
            t == TypeId.STRING -> {
                val s = v as? String ?: err("string takes a JSON string")
                val enc = if (!j.containsKey("enc")) StringEncoding.AUTO else when (j["enc"]) {
                    "latin1" -> StringEncoding.LATIN1
                    "utf16" -> StringEncoding.UTF16
                    "utf8" -> StringEncoding.UTF8
                    else -> err("unknown string encoding \"${j["enc"]}\"")
                }
                doc.newString(s, enc)
            }
            t == TypeId.BINARY -> doc.newBinary(parseHex(v as? String ?: err("binary takes a hex string"), "binary hex"))
            t == TypeId.DATE -> doc.newDate(i64(v, "date"))
            t == TypeId.TIMESTAMP || t == TypeId.DURATION -> {
                val o = v as? Map<*, *> ?: err("$key takes {\"seconds\": \"…\", \"nanos\": N}")
                if (o.size != 2 || !o.containsKey("seconds") || !o.containsKey("nanos")) err("$key takes {\"seconds\": \"…\", \"nanos\": N}")
                val s = i64(o["seconds"], "$key seconds")
                val ns = jint(o["nanos"], "$key nanos", 0, 999_999_999).toInt()
                if (t == TypeId.TIMESTAMP) doc.newTimestamp(s, ns) else doc.newDuration(s, ns)
            }
            t == TypeId.DECIMAL -> {
                val o = v as? Map<*, *> ?: err("decimal takes {\"unscaled\": \"…\", \"scale\": N}")
                val us = o["unscaled"] as? String ?: err("decimal takes {\"unscaled\": \"…\", \"scale\": N}")
                val scale = jint(o["scale"], "decimal scale", Int.MIN_VALUE.toLong(), Int.MAX_VALUE.toLong()).toInt()
                val digits = us.removePrefix("-").removePrefix("+")
                if (digits.isEmpty() || digits.any { it !in '0'..'9' } || (us.startsWith("-") && us.startsWith("-+"))) err("decimal unscaled has a bad digit")
                val neg = us.startsWith("-")
                doc.newDecimal(neg, dev.libwire.kotlin.magnitudeLE(BigInteger(digits)), scale)
            }
            t == TypeId.ENUM -> enumNode(j, v)
            t == TypeId.NAMED_ENUM -> {
                val o = v as? Map<*, *> ?: err("named_enum takes {\"namespace\", \"name\", \"value\"}")
                val ns = o["namespace"] as? String ?: err("named_enum takes {\"namespace\", \"name\", \"value\"}")
                val nm = o["name"] as? String ?: err("named_enum takes {\"namespace\", \"name\", \"value\"}")
                val ev = jint(o["value"], "named_enum value", 0, 0xffffffffL).toInt()
                val n = doc.newNamedEnum(ns, nm, ev)
                nameEncodings(j, n)
                val hs = j["ns_hash"]
                val hn = j["name_hash"]
                if ((j.containsKey("ns_hash") && hs !is String) || (j.containsKey("name_hash") && hn !is String)) {
                    err("ns_hash/name_hash must be \"raw\" or \"abs\"")
                }
                n.nameHashForms = (if (hs == "raw") 1 else 0) to (if (hn == "raw") 1 else 0)
                n.nameRefs = (j["ns_xref"] == true) to (j["name_xref"] == true)
                n
            }
            t == TypeId.STRUCT || t == TypeId.EXT -> return structNode(j, t, key, v)
            t == TypeId.UNION -> {
                val o = v as? Map<*, *> ?: err("union takes {\"type\", \"case\": N, \"value\": node}")
                val case = jint(o["case"], "union case", 0, 0xffffffffL).toInt()
                if (!o.containsKey("value")) err("union takes {\"type\", \"case\": N, \"value\": node}")
                var idx = -1
                if (o.containsKey("type")) {
                    val tn = o["type"] as? String ?: err("union type is not in the schema")
                    idx = ctx.findType(tn) ?: err("union type is not in the schema")
                }
                val inner = node(o["value"])
                val n = doc.newUnion(idx, case, inner)
                nameEncodings(j, n)
                n
            }
            t == TypeId.LIST || t == TypeId.SET -> {
                val arr = v as? List<*> ?: err("$key takes an array")
                val n = doc.newList(t)
                if (j.containsKey("header")) {
                    val h = jint(j["header"], "\"header\"", 0, 15).toInt()
                    n.listHeader = h
                }
                remember(j, n)
                for (e in arr) n.append(node(e))
                return n
            }
            t == TypeId.MAP -> {
                val arr = v as? List<*> ?: err("map takes an array of pairs")
                val n = doc.newMap()
                remember(j, n)
                for ((i, e) in arr.withIndex()) {
                    if (e !is List<*> || e.size != 2) err("map entry $i is not a [key, value] pair")
                    val kn = node(e[0])
                    val vn = node(e[1])
                    n.put(kn, vn)
                }
                if (j.containsKey("chunks")) {
                    val ch = j["chunks"] as? List<*> ?: err("\"chunks\" must be an array")
                    for ((i, e) in ch.withIndex()) {
                        val pair = e as? List<*>
                        val h = pair?.getOrNull(0) as? Long
                        val c = pair?.getOrNull(1) as? Long
                        if (pair == null || pair.size != 2 || h == null || c == null || h !in 0..0xffffffffL || c !in 0..0xffffffffL) {
                            err("chunk $i must be [header 0..63, count 1..255]")
                        }
                        try {
                            n.addChunk(h.toInt(), c.toInt())
                        } catch (x: WireException) {
                            err("chunk $i must be [header 0..63, count 1..255]")
                        }
                    }
                }
                return n
            }
            TypeId.isSignedInt(t) -> doc.newInt(t, i64(v, key))
            TypeId.isUnsignedInt(t) -> doc.newUint(t, u64(v, key))
            TypeId.isFloat(t) -> doc.newFloatBits(t, floatBits(t, v))
            TypeId.arrayWidth(t) > 0 -> arrayNode(t, v)
            else -> err("type \"$key\" cannot be written from the notation")
        }
        remember(j, n)
        return n
    }

    private fun enumNode(j: Map<*, *>, v: Any?): Node {
        val o = v as? Map<*, *> ?: err("enum takes {\"type_id\": N, \"value\": N}")
        if (o.containsKey("type")) {
            val tn = o["type"] as? String
            val ev = o["value"] as? Long
            val idx = tn?.let { ctx.findType(it) }
            if (tn == null || ev == null || idx == null || ctx.typeKind(idx) != 2) err("enum type \"${tn ?: "?"}\" is not an enum of the schema")
            val n = doc.newEnumOf(idx, ev.toInt())
            nameEncodings(j, n)
            return n
        }
        if (!o.containsKey("type_id") && o.size == 1 && o["value"] is Long) {
            return doc.newEnum(-1, (o["value"] as Long).toInt())
        }
        val ti = jint(o["type_id"], "enum type_id", 0, 0xffffffffL)
        val ev = jint(o["value"], "enum value", 0, 0xffffffffL)
        return doc.newEnum(ti.toInt(), ev.toInt())
    }

    private fun structNode(j: Map<*, *>, t: Int, key: String, v: Any?): Node {
        val o = v as? Map<*, *> ?: err("struct takes {\"type\": \"ns.Name\", \"fields\": {…}}")
        val fs = o["fields"]
        if (fs != null && fs !is Map<*, *>) err("struct takes {\"type\": \"ns.Name\", \"fields\": {…}}")
        val td = o["typedef"]
        val tn = o["type"] as? String
        val n: Node = when (td) {
            is Long -> {
                if (td < 0 || td >= typedefs.size) err("\"typedef\": $td names no earlier TypeDef")
                doc.newStructLike(typedefs[td.toInt()])
            }
            is String -> doc.newStructTypedef(parseHex(td, "\"typedef\"")).also { typedefs.add(it) }
            else -> {
                val idx = tn?.let { ctx.findType(it) }
                val want = if (t == TypeId.EXT) 4 else 1
                if (idx == null || ctx.typeKind(idx) != want) err("$key type \"${tn ?: "?"}\" is not in the schema")
                doc.newStruct(idx)
            }
        }
        remember(j, n)
        nameEncodings(j, n)
        if (fs is Map<*, *>) {
            for ((fk, fv) in fs) {
                val c = node(fv)
                try {
                    n.setField(fk as String, c)
                } catch (e: WireException) {
                    err("struct ${tn ?: "?"} has no field \"$fk\"")
                }
            }
        }
        return n
    }

    private fun arrayNode(t: Int, v: Any?): Node {
        val arr = v as? List<*> ?: err("${TypeId.name(t)} takes an array")
        val w = TypeId.arrayWidth(t)
        val buf = ByteArray(arr.size * w)
        for ((i, e) in arr.withIndex()) {
            val u: Long = when (t) {
                TypeId.BOOL_ARRAY -> if (e is Boolean) (if (e) 1L else 0L) else err("element $i of ${TypeId.name(t)} is invalid")
                TypeId.FLOAT16_ARRAY -> floatBits(TypeId.FLOAT16, e)
                TypeId.BFLOAT16_ARRAY -> floatBits(TypeId.BFLOAT16, e)
                TypeId.FLOAT32_ARRAY -> floatBits(TypeId.FLOAT32, e)
                TypeId.FLOAT64_ARRAY -> floatBits(TypeId.FLOAT64, e)
                TypeId.INT8_ARRAY, TypeId.INT16_ARRAY, TypeId.INT32_ARRAY, TypeId.INT64_ARRAY -> {
                    val x = (e as? String)?.toLongOrNull() ?: err("element $i of ${TypeId.name(t)} is invalid")
                    val bits = w * 8
                    if (bits < 64 && (x < -(1L shl (bits - 1)) || x > (1L shl (bits - 1)) - 1)) err("element $i of ${TypeId.name(t)} is invalid")
                    x
                }
                else -> {
                    val x = (e as? String)?.takeIf { !it.startsWith("-") && !it.startsWith("+") }?.toULongOrNull()
                        ?: err("element $i of ${TypeId.name(t)} is invalid")
                    if (w < 8 && x >= (1uL shl (8 * w))) err("element $i of ${TypeId.name(t)} is invalid")
                    x.toLong()
                }
            }
            for (k in 0 until w) buf[i * w + k] = (u ushr (8 * k)).toByte()
        }
        return doc.newArray(t, buf)
    }
}

/** Document root → notation JSON (Kotlin maps/lists for [Json.write]). */
class NotationWriter(private val ctx: Context, private val doc: Document, private val untracked: Boolean = false) {
    private lateinit var refs: IntArray
    private lateinit var visited: BooleanArray
    private val typedefs = ArrayList<Long>()

    fun root(index: Int): Map<String, Any?> = node(doc.root(index))

    /** Any node printed as one root document (anchors and TypeDef numbering local to it). */
    fun node(r: Node): Map<String, Any?> {
        val n = doc.nodeCount.toInt()
        refs = IntArray(n + 1)
        visited = BooleanArray(n + 1)
        typedefs.clear()
        countRefs(r)
        return print(r)
    }

    private fun countRefs(root: Node) {
        val stack = ArrayDeque<Node>()
        stack.addLast(root)
        while (stack.isNotEmpty()) {
            val n = stack.removeLast()
            if (refs[n.index]++ > 0) continue
            val t = n.type
            when {
                t == TypeId.LIST || t == TypeId.SET -> for (k in 0 until n.count) stack.addLast(n.child(k))
                t == TypeId.MAP -> for (k in 0 until n.count) {
                    stack.addLast(n.mapKey(k))
                    stack.addLast(n.mapValue(k))
                }
                TypeId.isStruct(t) -> for (k in 0 until n.count) n.field(k)?.let { stack.addLast(it) }
                TypeId.isUnion(t) -> stack.addLast(n.unionValue)
            }
        }
    }

    private fun typeIdent(n: Node, o: MutableMap<String, Any?>) {
        n.userType?.let { o["type"] = ctx.typeName(it); return }
        n.typeNames?.let { (ns, nm) -> o["type"] = if (ns.isEmpty()) nm else "$ns.$nm"; return }
        val id = n.userTypeId
        if (id != -1) o["type_id"] = id.toLong() and 0xffffffffL
    }

    private fun floatJson(t: Int, bits: Long): String {
        val digits = when (t) { TypeId.FLOAT64 -> 16; TypeId.FLOAT32 -> 8; else -> 4 }
        return "0x" + java.lang.Long.toHexString(bits).padStart(digits, '0')
    }

    private fun approx(t: Int, bits: Long): String {
        val d: Double = when (t) {
            TypeId.FLOAT64 -> Double.fromBits(bits)
            TypeId.FLOAT32 -> Float.fromBits(bits.toInt()).toDouble()
            TypeId.FLOAT16 -> dev.libwire.kotlin.Float16Bits.toDouble(bits.toShort())
            else -> dev.libwire.kotlin.Float16Bits.bfloatToDouble(bits.toShort())
        }
        return when {
            d.isNaN() -> "nan"
            d == Double.POSITIVE_INFINITY -> "inf"
            d == Double.NEGATIVE_INFINITY -> "-inf"
            t == TypeId.FLOAT64 -> d.toString()
            else -> d.toFloat().toString()
        }
    }

    private fun nameEncodings(n: Node, o: MutableMap<String, Any?>) {
        val (a, b) = n.nameEncodings
        if (a < 0) return
        o["ns_enc"] = META_ENCODINGS.getOrNull(a)
        o["name_enc"] = META_ENCODINGS.getOrNull(b)
    }

    private fun print(n: Node): Map<String, Any?> {
        val idx = n.index
        val anchor = "a$idx"
        if (visited[idx]) return mapOf("ref" to anchor)
        visited[idx] = true
        val t = n.type
        val o = LinkedHashMap<String, Any?>()
        when {
            t == TypeId.NULL -> o["null"] = null
            t == TypeId.NONE -> o["none"] = null
            t == TypeId.BOOL -> o["bool"] = n.int != 0L
            TypeId.isFloat(t) -> {
                o[TypeId.name(t)!!] = floatJson(t, n.floatBits)
                o["approx"] = approx(t, n.floatBits)
            }
            t == TypeId.STRING -> {
                o["string"] = n.text
                o["enc"] = when (n.stringEncoding) { StringEncoding.LATIN1 -> "latin1"; StringEncoding.UTF16 -> "utf16"; else -> "utf8" }
            }
            t == TypeId.BINARY -> o["binary"] = hexOf(n.bytes)
            t == TypeId.DATE -> {
                val days = n.int
                o["date"] = days.toString()
                if (days > -3652059 && days < 2932897) o["iso"] = LocalDate.ofEpochDay(days).toString()
            }
            t == TypeId.TIMESTAMP || t == TypeId.DURATION -> {
                val s = n.int
                o[TypeId.name(t)!!] = linkedMapOf("seconds" to s.toString(), "nanos" to n.nanos.toLong())
                if (t == TypeId.TIMESTAMP && s > -62135596800L && s < 253402300800L) {
                    o["iso"] = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'")
                        .format(java.time.Instant.ofEpochSecond(s, n.nanos.toLong()).atOffset(ZoneOffset.UTC))
                }
            }
            t == TypeId.DECIMAL -> {
                val d = n.decimal
                o["decimal"] = linkedMapOf("unscaled" to d.unscaledValue().toString(), "scale" to d.scale().toLong())
            }
            t == TypeId.ENUM || t == TypeId.NAMED_ENUM -> enumJson(n, t, o)
            TypeId.isStruct(t) -> {
                val body = LinkedHashMap<String, Any?>()
                typeIdent(n, body)
                val fields = LinkedHashMap<String, Any?>()
                for (k in 0 until n.count) {
                    val name = n.fieldName(k) ?: "#${n.fieldTag(k)}"
                    val fv = n.field(k) ?: continue
                    fields[name] = print(fv)
                }
                body["fields"] = fields
                val addr = n.typedefAddress
                if (addr != 0L) {
                    val k = typedefs.indexOf(addr)
                    if (k >= 0) {
                        body["typedef"] = k.toLong()
                    } else {
                        body["typedef"] = hexOf(n.typedef!!)
                        typedefs.add(addr)
                    }
                }
                o[if (t >= TypeId.EXT) "ext" else "struct"] = body
                nameEncodings(n, o)
            }
            TypeId.isUnion(t) -> {
                val body = LinkedHashMap<String, Any?>()
                typeIdent(n, body)
                body["case"] = n.unionCase.toLong() and 0xffffffffL
                body["value"] = print(n.unionValue)
                o["union"] = body
                nameEncodings(n, o)
            }
            t == TypeId.LIST || t == TypeId.SET -> {
                val arr = ArrayList<Any?>()
                o[TypeId.name(t)!!] = arr
                val h = n.listHeader
                if (h >= 0) o["header"] = h.toLong()
                for (k in 0 until n.count) arr.add(print(n.child(k)))
            }
            t == TypeId.MAP -> {
                val arr = ArrayList<Any?>()
                o["map"] = arr
                for (k in 0 until n.count) arr.add(listOf(print(n.mapKey(k)), print(n.mapValue(k))))
                val ch = n.chunks
                if (ch.isNotEmpty()) o["chunks"] = ch.map { (h, c) -> listOf(h.toLong(), c.toLong() and 0xffffffffL) }
            }
            TypeId.isSignedInt(t) -> o[TypeId.name(t)!!] = n.int.toString()
            TypeId.isUnsignedInt(t) -> o[TypeId.name(t)!!] = java.lang.Long.toUnsignedString(n.uint)
            TypeId.arrayWidth(t) > 0 -> o[TypeId.name(t)!!] = arrayJson(n, t)
            else -> throw WireException("unsupported", -1, "cannot print wire type ${TypeId.name(t)}")
        }
        if (t != TypeId.NULL) {
            val tr = n.tracked
            when {
                refs[idx] > 1 -> o["anchor"] = anchor
                tr == 1 -> o["tracked"] = true
                tr == 0 && untracked -> o["tracked"] = false
            }
        }
        return o
    }

    private fun enumJson(n: Node, t: Int, o: MutableMap<String, Any?>) {
        val value = n.enumValue.toLong() and 0xffffffffL
        val ut = n.userType
        if (ut != null) {
            o["enum"] = linkedMapOf("type" to ctx.typeName(ut), "value" to value)
            if (t == TypeId.NAMED_ENUM) nameEncodings(n, o)
            return
        }
        if (t == TypeId.ENUM) {
            val id = n.enumTypeId
            o["enum"] = if (id == -1) linkedMapOf("value" to value) else linkedMapOf("type_id" to (id.toLong() and 0xffffffffL), "value" to value)
            return
        }
        o["named_enum"] = linkedMapOf(
            "namespace" to n.enumNamespace,
            "name" to String(n.bytes, Charsets.UTF_8),
            "value" to value,
        )
        nameEncodings(n, o)
        val (hf, hn) = n.nameHashForms
        if (hf != 0) o["ns_hash"] = "raw"
        if (hn != 0) o["name_hash"] = "raw"
        val (xs, xn) = n.nameRefs
        if (xs) o["ns_xref"] = true
        if (xn) o["name_xref"] = true
    }

    private fun arrayJson(n: Node, t: Int): List<Any?> {
        val b = n.bytes
        val w = TypeId.arrayWidth(t)
        return List(b.size / w) { i ->
            var u = 0L
            for (k in 0 until w) u = u or ((b[i * w + k].toLong() and 0xff) shl (8 * k))
            when (t) {
                TypeId.BOOL_ARRAY -> u != 0L
                TypeId.INT8_ARRAY -> u.toByte().toString()
                TypeId.INT16_ARRAY -> u.toShort().toString()
                TypeId.INT32_ARRAY -> u.toInt().toString()
                TypeId.INT64_ARRAY -> u.toString()
                TypeId.FLOAT16_ARRAY -> floatJson(TypeId.FLOAT16, u)
                TypeId.BFLOAT16_ARRAY -> floatJson(TypeId.BFLOAT16, u)
                TypeId.FLOAT32_ARRAY -> floatJson(TypeId.FLOAT32, u)
                TypeId.FLOAT64_ARRAY -> floatJson(TypeId.FLOAT64, u)
                else -> java.lang.Long.toUnsignedString(u)
            }
        }
    }
}
