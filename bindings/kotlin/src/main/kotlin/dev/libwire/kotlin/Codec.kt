package dev.libwire.kotlin

import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout
import java.math.BigDecimal
import java.math.BigInteger
import java.nio.ByteOrder
import java.time.Duration
import java.time.Instant
import java.time.LocalDate
import java.util.IdentityHashMap

private val LE_NATIVE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
private val I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
private val I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
private val I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
private val F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
private val F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)

/** Magnitude of |unscaled| as little-endian bytes (empty for zero). */
internal fun magnitudeLE(unscaled: BigInteger): ByteArray {
    val be = unscaled.abs().toByteArray()
    var start = 0
    while (start < be.size && be[start] == 0.toByte()) start++
    val n = be.size - start
    return ByteArray(n) { be[be.size - 1 - it] }
}

internal fun bigDecimalOf(negative: Boolean, magLE: ByteArray, scale: Int): BigDecimal {
    val be = ByteArray(magLE.size) { magLE[magLE.size - 1 - it] }
    var bi = BigInteger(1, be)
    if (negative) bi = bi.negate()
    return BigDecimal(bi, scale)
}

/** Little-endian element bytes of a primitive array, as the C side wants them. */
internal fun arraySegment(a: Any): Pair<Int, MemorySegment> = when (a) {
    is BooleanArray -> TypeId.BOOL_ARRAY to MemorySegment.ofArray(ByteArray(a.size) { if (a[it]) 1 else 0 })
    is ShortArray -> TypeId.INT16_ARRAY to le(MemorySegment.ofArray(a), I16)
    is IntArray -> TypeId.INT32_ARRAY to le(MemorySegment.ofArray(a), I32)
    is LongArray -> TypeId.INT64_ARRAY to le(MemorySegment.ofArray(a), I64)
    is FloatArray -> TypeId.FLOAT32_ARRAY to le(MemorySegment.ofArray(a), I32)
    is DoubleArray -> TypeId.FLOAT64_ARRAY to le(MemorySegment.ofArray(a), I64)
    is Float16Array -> TypeId.FLOAT16_ARRAY to le(MemorySegment.ofArray(a.bits), I16)
    is BFloat16Array -> TypeId.BFLOAT16_ARRAY to le(MemorySegment.ofArray(a.bits), I16)
    else -> throw WireException("unsupported", -1, "not a primitive array: ${a.javaClass.name}")
}

@OptIn(ExperimentalUnsignedTypes::class)
internal fun unsignedArraySegment(a: Any): Pair<Int, MemorySegment> = when (a) {
    is UByteArray -> TypeId.UINT8_ARRAY to MemorySegment.ofArray(a.asByteArray())
    is UShortArray -> TypeId.UINT16_ARRAY to le(MemorySegment.ofArray(a.asShortArray()), I16)
    is UIntArray -> TypeId.UINT32_ARRAY to le(MemorySegment.ofArray(a.asIntArray()), I32)
    is ULongArray -> TypeId.UINT64_ARRAY to le(MemorySegment.ofArray(a.asLongArray()), I64)
    else -> throw WireException("unsupported", -1, "not an unsigned array: ${a.javaClass.name}")
}

/** On a big-endian host, a little-endian copy; on little-endian hosts the array itself. */
private fun le(seg: MemorySegment, layout: ValueLayout): MemorySegment {
    if (LE_NATIVE) return seg
    val copy = MemorySegment.ofArray(ByteArray(seg.byteSize().toInt()))
    val w = layout.byteSize()
    var i = 0L
    while (i < seg.byteSize()) {
        for (k in 0 until w) copy.set(ValueLayout.JAVA_BYTE, i + k, seg.get(ValueLayout.JAVA_BYTE, i + w - 1 - k))
        i += w
    }
    return copy
}

/** Kotlin values → a document (one downcall per builder call) → `wire_encode`. */
internal class Encoder(private val ctx: Context) {
    private val c = ctx.ptr
    private var doc: MemorySegment = MemorySegment.NULL
    private val seen: IdentityHashMap<Any, MemorySegment>? = if (ctx.refTracking) IdentityHashMap() else null
    private var depth = 0
    private val maxDepth = ctx.getLimit(Limit.DEPTH).coerceAtMost(100_000L).toInt()

    fun encodeRoots(values: List<Any?>): ByteArray {
        doc = Native.doc_new.invokeExact(c) as MemorySegment
        if (doc.address() == 0L) throw ctx.nodeFailed()
        try {
            for (v in values) {
                seen?.clear()
                val n = node(v)
                ctx.check(Native.doc_add_root.invokeExact(doc, n) as Int)
            }
            return finish()
        } finally {
            Native.doc_free.invokeExact(doc)
        }
    }

    /** Builds the document for [value] and frees it without encoding (benchmark breakdown). */
    internal fun buildOnly(value: Any?) {
        doc = Native.doc_new.invokeExact(c) as MemorySegment
        if (doc.address() == 0L) throw ctx.nodeFailed()
        try {
            ctx.check(Native.doc_add_root.invokeExact(doc, node(value)) as Int)
        } finally {
            Native.doc_free.invokeExact(doc)
        }
    }

    private fun finish(): ByteArray {
        val st = Native.encode.invokeExact(c, doc, ctx.out, ctx.out8) as Int
        if (st != 0) throw ctx.error(st)
        val p = ctx.out.get(ValueLayout.ADDRESS, 0)
        val len = ctx.out8.get(ValueLayout.JAVA_LONG, 0)
        try {
            val arr = ByteArray(Math.toIntExact(len))
            MemorySegment.copy(p.reinterpret(len), ValueLayout.JAVA_BYTE, 0, arr, 0, arr.size)
            return arr
        } finally {
            Native.ctx_free_bytes.invokeExact(c, p)
        }
    }

    private fun ok(n: MemorySegment): MemorySegment {
        if (n.address() == 0L) throw ctx.nodeFailed()
        return n
    }

    fun string(s: String): MemorySegment {
        val b = s.toByteArray(Charsets.UTF_8)
        return ok(Native.node_new_string.invokeExact(doc, MemorySegment.ofArray(b), b.size.toLong(), -1) as MemorySegment)
    }

    fun node(v: Any?): MemorySegment = when (v) {
        null -> ok(Native.node_new_null.invokeExact(doc) as MemorySegment)
        is String -> string(v)
        is Long -> ok(Native.node_new_int.invokeExact(doc, TypeId.VARINT64, v) as MemorySegment)
        is Int -> ok(Native.node_new_int.invokeExact(doc, TypeId.VARINT32, v.toLong()) as MemorySegment)
        is Double -> ok(Native.node_new_float_bits.invokeExact(doc, TypeId.FLOAT64, v.toRawBits()) as MemorySegment)
        is Boolean -> ok(Native.node_new_bool.invokeExact(doc, if (v) 1 else 0) as MemorySegment)
        is Float -> ok(Native.node_new_float_bits.invokeExact(doc, TypeId.FLOAT32, v.toRawBits().toLong() and 0xffffffffL) as MemorySegment)
        is Short -> ok(Native.node_new_int.invokeExact(doc, TypeId.INT16, v.toLong()) as MemorySegment)
        is Byte -> ok(Native.node_new_int.invokeExact(doc, TypeId.INT8, v.toLong()) as MemorySegment)
        else -> complex(v)
    }

    @OptIn(ExperimentalUnsignedTypes::class)
    private fun complex(v: Any): MemorySegment {
        seen?.get(v)?.let { return it }
        if (++depth > maxDepth) throw WireException("depth", -1, "nesting deeper than $maxDepth (a cycle without reference tracking?)")
        try {
            return when (v) {
                is List<*> -> list(v, TypeId.LIST)
                is Set<*> -> list(v, TypeId.SET)
                is Map<*, *> -> map(v)
                is ByteArray -> remember(v, ok(Native.node_new_binary.invokeExact(doc, MemorySegment.ofArray(v), v.size.toLong()) as MemorySegment))
                is BooleanArray, is ShortArray, is IntArray, is LongArray, is FloatArray, is DoubleArray,
                is Float16Array, is BFloat16Array -> {
                    val (t, seg) = arraySegment(v)
                    remember(v, ok(Native.node_new_array.invokeExact(doc, t, seg, seg.byteSize()) as MemorySegment))
                }
                is UByteArray, is UShortArray, is UIntArray, is ULongArray -> {
                    val (t, seg) = unsignedArraySegment(v)
                    remember(v, ok(Native.node_new_array.invokeExact(doc, t, seg, seg.byteSize()) as MemorySegment))
                }
                is UByte -> ok(Native.node_new_uint.invokeExact(doc, TypeId.UINT8, v.toLong()) as MemorySegment)
                is UShort -> ok(Native.node_new_uint.invokeExact(doc, TypeId.UINT16, v.toLong()) as MemorySegment)
                is UInt -> ok(Native.node_new_uint.invokeExact(doc, TypeId.UINT32, v.toLong()) as MemorySegment)
                is ULong -> ok(Native.node_new_uint.invokeExact(doc, TypeId.UINT64, v.toLong()) as MemorySegment)
                is Float16 -> ok(Native.node_new_float_bits.invokeExact(doc, TypeId.FLOAT16, v.bits.toLong() and 0xffffL) as MemorySegment)
                is BFloat16 -> ok(Native.node_new_float_bits.invokeExact(doc, TypeId.BFLOAT16, v.bits.toLong() and 0xffffL) as MemorySegment)
                is LocalDate -> ok(Native.node_new_date.invokeExact(doc, v.toEpochDay()) as MemorySegment)
                is Instant -> ok(Native.node_new_timestamp.invokeExact(doc, v.epochSecond, v.nano) as MemorySegment)
                is Duration -> ok(Native.node_new_duration.invokeExact(doc, v.seconds, v.nano) as MemorySegment)
                is BigDecimal -> {
                    val mag = magnitudeLE(v.unscaledValue())
                    ok(Native.node_new_decimal.invokeExact(doc, if (v.signum() < 0) 1 else 0, MemorySegment.ofArray(mag), mag.size.toLong(), v.scale()) as MemorySegment)
                }
                is Array<*> -> list(v.asList(), TypeId.LIST)
                is WireNone -> ok(Native.node_new_none.invokeExact(doc) as MemorySegment)
                is WireStruct -> wireStruct(v)
                is WireEnum -> wireEnum(v)
                is WireUnion -> {
                    val idx = if (v.type == null) -1 else (ctx.findType(v.type) ?: throw WireException("schema", -1, "union type ${v.type} is not in the schema"))
                    val inner = node(v.value)
                    ok(Native.node_new_union.invokeExact(doc, idx, v.case, inner) as MemorySegment)
                }
                else -> bound(v)
            }
        } finally {
            depth--
        }
    }

    private fun remember(v: Any, n: MemorySegment): MemorySegment {
        seen?.put(v, n)
        return n
    }

    private fun list(v: Collection<*>, type: Int): MemorySegment {
        val n = ok(Native.node_new_list.invokeExact(doc, type) as MemorySegment)
        remember(v, n)
        for (e in v) {
            val en = node(e)
            ctx.check(Native.list_append.invokeExact(doc, n, en) as Int)
        }
        return n
    }

    private fun map(v: Map<*, *>): MemorySegment {
        val n = ok(Native.node_new_map.invokeExact(doc) as MemorySegment)
        remember(v, n)
        for ((k, x) in v) {
            val kn = node(k)
            val vn = node(x)
            ctx.check(Native.map_put.invokeExact(doc, n, kn, vn) as Int)
        }
        return n
    }

    private fun bound(v: Any): MemorySegment {
        val b = ctx.boundClass(v.javaClass) ?: run {
            if (v is Enum<*>) throw WireException("unsupported", -1, "enum ${v.javaClass.name} is not registered (registerEnum)")
            throw WireException("unsupported", -1, "no wire mapping for ${v.javaClass.name} (register data classes with registerDataClass)")
        }
        if (b.enumInfo != null) {
            return ok(Native.node_new_enum_of.invokeExact(doc, b.typeIndex, (v as Enum<*>).ordinal) as MemorySegment)
        }
        val info = b.info!!
        val n = ok(Native.node_new_struct.invokeExact(doc, b.typeIndex) as MemorySegment)
        remember(v, n)
        for (f in info.fields) {
            val fv = try {
                f.read(v)
            } catch (e: java.lang.reflect.InvocationTargetException) {
                throw WireException("value", -1, "getter of ${f.wireName} failed: ${e.targetException}")
            } ?: continue
            val fn = if (f.wireType >= 0) typed(f.wireType, fv) else node(fv)
            val st = Native.struct_set_field.invokeExact(doc, n, MemorySegment.ofArray(f.nameBytes), f.nameBytes.size.toLong(), fn) as Int
            if (st != 0) throw ctx.error(st)
        }
        return n
    }

    private fun wireStruct(v: WireStruct): MemorySegment {
        val type = v.type ?: throw WireException("unsupported", -1, "WireStruct without a type name")
        val idx = ctx.findType(type) ?: throw WireException("schema", -1, "struct type $type is not in the schema")
        val n = ok(Native.node_new_struct.invokeExact(doc, idx) as MemorySegment)
        remember(v, n)
        for ((name, fv) in v.fields) {
            if (fv == null) continue
            val fn = node(fv)
            val nb = name.toByteArray(Charsets.UTF_8)
            val st = Native.struct_set_field.invokeExact(doc, n, MemorySegment.ofArray(nb), nb.size.toLong(), fn) as Int
            if (st != 0) throw ctx.error(st)
        }
        return n
    }

    private fun wireEnum(v: WireEnum): MemorySegment {
        if (v.type != null) {
            val idx = ctx.findType(v.type) ?: throw WireException("schema", -1, "enum type ${v.type} is not in the schema")
            return ok(Native.node_new_enum_of.invokeExact(doc, idx, v.value) as MemorySegment)
        }
        val id = v.typeId ?: -1L
        return ok(Native.node_new_enum.invokeExact(doc, id.toInt(), v.value) as MemorySegment)
    }

    /** A scalar node of an explicit wire type (from [WireField.type]). */
    private fun typed(t: Int, v: Any): MemorySegment {
        fun num(): Number = when (v) {
            is Number -> v
            is UByte -> v.toLong()
            is UShort -> v.toLong()
            is UInt -> v.toLong()
            is ULong -> v.toLong()
            is Boolean -> if (v) 1 else 0
            else -> throw WireException("value", -1, "a ${v.javaClass.simpleName} cannot be written as ${TypeId.name(t)}")
        }
        return when {
            TypeId.isSignedInt(t) -> ok(Native.node_new_int.invokeExact(doc, t, num().toLong()) as MemorySegment)
            TypeId.isUnsignedInt(t) -> ok(Native.node_new_uint.invokeExact(doc, t, num().toLong()) as MemorySegment)
            t == TypeId.FLOAT16 && v is Float16 -> node(v)
            t == TypeId.BFLOAT16 && v is BFloat16 -> node(v)
            TypeId.isFloat(t) -> ok(Native.node_new_float.invokeExact(doc, t, num().toDouble()) as MemorySegment)
            else -> node(v)
        }
    }
}

/** A decoded document → Kotlin values. String and binary bytes are read from the heap input. */
internal class Decoder(
    private val ctx: Context,
    private val doc: MemorySegment,
    private val input: ByteArray,
    private val base: Long,
) {
    private var memo: HashMap<Int, Any?>? = null
    private val building = HashSet<Int>()

    fun roots(): List<Any?> {
        val n = (Native.doc_root_count.invokeExact(doc) as Long).toInt()
        val out = ArrayList<Any?>(n)
        for (i in 0 until n) {
            memo?.clear()
            out.add(value(Native.doc_root.invokeExact(doc, i.toLong()) as MemorySegment))
        }
        return out
    }

    fun value(n: MemorySegment): Any? {
        val t = Native.node_type.invokeExact(n) as Int
        return when (t) {
            TypeId.STRING -> string(n)
            TypeId.VARINT64, TypeId.INT64, TypeId.TAGGED_INT64 -> Native.node_int.invokeExact(n) as Long
            TypeId.VARINT32, TypeId.INT32 -> (Native.node_int.invokeExact(n) as Long).toInt()
            TypeId.FLOAT64 -> Double.fromBits(Native.node_float_bits.invokeExact(n) as Long)
            TypeId.BOOL -> (Native.node_int.invokeExact(n) as Long) != 0L
            TypeId.NULL -> null
            TypeId.FLOAT32 -> Float.fromBits((Native.node_float_bits.invokeExact(n) as Long).toInt())
            TypeId.INT8 -> (Native.node_int.invokeExact(n) as Long).toByte()
            TypeId.INT16 -> (Native.node_int.invokeExact(n) as Long).toShort()
            TypeId.UINT8 -> (Native.node_uint.invokeExact(n) as Long).toUByte()
            TypeId.UINT16 -> (Native.node_uint.invokeExact(n) as Long).toUShort()
            TypeId.UINT32, TypeId.VAR_UINT32 -> (Native.node_uint.invokeExact(n) as Long).toUInt()
            TypeId.UINT64, TypeId.VAR_UINT64, TypeId.TAGGED_UINT64 -> (Native.node_uint.invokeExact(n) as Long).toULong()
            TypeId.FLOAT16 -> Float16((Native.node_float_bits.invokeExact(n) as Long).toShort())
            TypeId.BFLOAT16 -> BFloat16((Native.node_float_bits.invokeExact(n) as Long).toShort())
            TypeId.NONE -> WireNone
            TypeId.DATE -> LocalDate.ofEpochDay(Native.node_int.invokeExact(n) as Long)
            TypeId.TIMESTAMP -> Instant.ofEpochSecond(Native.node_int.invokeExact(n) as Long, (Native.node_nanos.invokeExact(n) as Int).toLong())
            TypeId.DURATION -> Duration.ofSeconds(Native.node_int.invokeExact(n) as Long, (Native.node_nanos.invokeExact(n) as Int).toLong())
            TypeId.DECIMAL -> bigDecimalOf(
                (Native.node_decimal_negative.invokeExact(n) as Int) != 0, bytes(n),
                Native.node_decimal_scale.invokeExact(n) as Int,
            )
            else -> shared(n, t)
        }
    }

    /** Values that may be shared (reference-tracked): memoised by node index. */
    private fun shared(n: MemorySegment, t: Int): Any? {
        val idx = Native.node_index.invokeExact(n) as Int
        val m = memo ?: HashMap<Int, Any?>().also { memo = it }
        if (m.containsKey(idx)) return m[idx]
        if (idx in building) throw WireException("ref", -1, "a cycle through a struct cannot be built into immutable objects")
        return when (t) {
            TypeId.LIST -> {
                val c = (Native.node_count.invokeExact(n) as Long).toInt()
                val l = ArrayList<Any?>(c)
                m[idx] = l
                for (i in 0 until c) l.add(value(Native.node_child.invokeExact(n, i.toLong()) as MemorySegment))
                l
            }
            TypeId.SET -> {
                val c = (Native.node_count.invokeExact(n) as Long).toInt()
                val s = LinkedHashSet<Any?>(c * 2)
                m[idx] = s
                for (i in 0 until c) s.add(value(Native.node_child.invokeExact(n, i.toLong()) as MemorySegment))
                s
            }
            TypeId.MAP -> {
                val c = (Native.node_count.invokeExact(n) as Long).toInt()
                val map = LinkedHashMap<Any?, Any?>(c * 2)
                m[idx] = map
                for (i in 0 until c) {
                    val k = value(Native.node_map_key.invokeExact(n, i.toLong()) as MemorySegment)
                    val v = value(Native.node_map_value.invokeExact(n, i.toLong()) as MemorySegment)
                    map[k] = v
                }
                map
            }
            TypeId.BINARY -> bytes(n).also { m[idx] = it }
            TypeId.ENUM, TypeId.NAMED_ENUM -> enumValue(n, t)
            else -> when {
                TypeId.arrayWidth(t) > 0 -> array(n, t).also { m[idx] = it }
                TypeId.isStruct(t) -> {
                    building.add(idx)
                    try {
                        struct(n).also { m[idx] = it }
                    } finally {
                        building.remove(idx)
                    }
                }
                TypeId.isUnion(t) -> {
                    val type = userTypeName(n)
                    val case = Native.node_union_case.invokeExact(n) as Int
                    WireUnion(type, case, value(Native.node_union_value.invokeExact(n) as MemorySegment)).also { m[idx] = it }
                }
                else -> throw WireException("unsupported", -1, "no Kotlin mapping for wire type ${TypeId.name(t)}")
            }
        }
    }

    private fun string(n: MemorySegment): String {
        val p = Native.node_bytes.invokeExact(n, ctx.out) as MemorySegment
        val len = ctx.out.get(ValueLayout.JAVA_LONG, 0)
        val enc = Native.node_string_encoding.invokeExact(n) as Int
        val cs = when (enc) {
            StringEncoding.LATIN1 -> Charsets.ISO_8859_1
            StringEncoding.UTF16 -> Charsets.UTF_16LE
            else -> Charsets.UTF_8
        }
        val off = p.address() - base
        if (off >= 0 && off + len <= input.size) return String(input, off.toInt(), len.toInt(), cs)
        val tmp = ByteArray(len.toInt())
        MemorySegment.copy(p.reinterpret(len), ValueLayout.JAVA_BYTE, 0, tmp, 0, tmp.size)
        return String(tmp, cs)
    }

    private fun bytes(n: MemorySegment): ByteArray {
        val p = Native.node_bytes.invokeExact(n, ctx.out) as MemorySegment
        val len = ctx.out.get(ValueLayout.JAVA_LONG, 0)
        if (len == 0L) return ByteArray(0)
        val off = p.address() - base
        if (off >= 0 && off + len <= input.size) return input.copyOfRange(off.toInt(), (off + len).toInt())
        val tmp = ByteArray(Math.toIntExact(len))
        MemorySegment.copy(p.reinterpret(len), ValueLayout.JAVA_BYTE, 0, tmp, 0, tmp.size)
        return tmp
    }

    @OptIn(ExperimentalUnsignedTypes::class)
    private fun array(n: MemorySegment, t: Int): Any {
        val p = Native.node_bytes.invokeExact(n, ctx.out) as MemorySegment
        val len = ctx.out.get(ValueLayout.JAVA_LONG, 0)
        val seg = p.reinterpret(len)
        val w = TypeId.arrayWidth(t)
        val c = (len / w).toInt()
        return when (t) {
            TypeId.BOOL_ARRAY -> BooleanArray(c) { seg.get(ValueLayout.JAVA_BYTE, it.toLong()) != 0.toByte() }
            TypeId.INT8_ARRAY -> ByteArray(c).also { MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, it, 0, c) }
            TypeId.UINT8_ARRAY -> ByteArray(c).also { MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, it, 0, c) }.asUByteArray()
            TypeId.INT16_ARRAY -> ShortArray(c).also { MemorySegment.copy(seg, I16, 0, it, 0, c) }
            TypeId.UINT16_ARRAY -> ShortArray(c).also { MemorySegment.copy(seg, I16, 0, it, 0, c) }.asUShortArray()
            TypeId.INT32_ARRAY -> IntArray(c).also { MemorySegment.copy(seg, I32, 0, it, 0, c) }
            TypeId.UINT32_ARRAY -> IntArray(c).also { MemorySegment.copy(seg, I32, 0, it, 0, c) }.asUIntArray()
            TypeId.INT64_ARRAY -> LongArray(c).also { MemorySegment.copy(seg, I64, 0, it, 0, c) }
            TypeId.UINT64_ARRAY -> LongArray(c).also { MemorySegment.copy(seg, I64, 0, it, 0, c) }.asULongArray()
            TypeId.FLOAT32_ARRAY -> FloatArray(c).also { MemorySegment.copy(seg, F32, 0, it, 0, c) }
            TypeId.FLOAT64_ARRAY -> DoubleArray(c).also { MemorySegment.copy(seg, F64, 0, it, 0, c) }
            TypeId.FLOAT16_ARRAY -> Float16Array(ShortArray(c).also { MemorySegment.copy(seg, I16, 0, it, 0, c) })
            TypeId.BFLOAT16_ARRAY -> BFloat16Array(ShortArray(c).also { MemorySegment.copy(seg, I16, 0, it, 0, c) })
            else -> throw WireException("unsupported", -1, "no Kotlin mapping for ${TypeId.name(t)}")
        }
    }

    /** The schema type index of a user-typed node, or -1. */
    private fun userType(n: MemorySegment): Int {
        val st = Native.node_user_type.invokeExact(doc, n, ctx.out) as Int
        if (st != 0) {
            Native.ctx_clear_error.invokeExact(ctx.ptr)
            return -1
        }
        return ctx.out.get(ValueLayout.JAVA_INT, 0)
    }

    /** Registered full name, or the names carried on the wire, or null (known by id only). */
    private fun userTypeName(n: MemorySegment): String? {
        val ti = userType(n)
        if (ti >= 0) return ctx.typeName(ti)
        val st = Native.node_type_names.invokeExact(n, ctx.out, ctx.out8, ctx.out16, ctx.out24) as Int
        if (st != 0) return null
        val ns = text(ctx.out.get(ValueLayout.ADDRESS, 0), ctx.out8.get(ValueLayout.JAVA_LONG, 0))
        val nm = text(ctx.out16.get(ValueLayout.ADDRESS, 0), ctx.out24.get(ValueLayout.JAVA_LONG, 0))
        return if (ns.isEmpty()) nm else "$ns.$nm"
    }

    private fun text(p: MemorySegment, len: Long): String {
        if (len == 0L) return ""
        val b = ByteArray(len.toInt())
        MemorySegment.copy(p.reinterpret(len), ValueLayout.JAVA_BYTE, 0, b, 0, b.size)
        return String(b, Charsets.UTF_8)
    }

    private fun enumValue(n: MemorySegment, t: Int): Any {
        val v = Native.node_enum_value.invokeExact(n) as Int
        val ti = userType(n)
        if (ti >= 0) {
            val e = ctx.boundType(ti)?.enumInfo
            if (e != null) {
                if (v < 0 || v >= e.constants.size) throw WireException("value", -1, "enum value $v out of range for ${ctx.typeName(ti)}")
                return e.constants[v]
            }
            return WireEnum(ctx.typeName(ti), v)
        }
        if (t == TypeId.NAMED_ENUM) {
            val nsp = Native.node_enum_namespace.invokeExact(n, ctx.out) as MemorySegment
            val ns = text(nsp, ctx.out.get(ValueLayout.JAVA_LONG, 0))
            val nmp = Native.node_bytes.invokeExact(n, ctx.out) as MemorySegment
            val nm = text(nmp, ctx.out.get(ValueLayout.JAVA_LONG, 0))
            return WireEnum(if (ns.isEmpty()) nm else "$ns.$nm", v)
        }
        val id = (Native.node_enum_type_id.invokeExact(n) as Int).toLong() and 0xffffffffL
        return WireEnum(null, v, if (id == 0xffffffffL) null else id)
    }

    private fun fieldName(n: MemorySegment, i: Int): String {
        val p = Native.node_field_name.invokeExact(n, i.toLong(), ctx.out) as MemorySegment
        if (p.address() == 0L) return "#" + (Native.node_field_tag.invokeExact(n, i.toLong()) as Int)
        return text(p, ctx.out.get(ValueLayout.JAVA_LONG, 0))
    }

    private fun struct(n: MemorySegment): Any {
        val ti = userType(n)
        val info = if (ti >= 0) ctx.boundType(ti)?.info else null
        val count = (Native.node_count.invokeExact(n) as Long).toInt()
        if (info == null) {
            val fields = LinkedHashMap<String, Any?>()
            for (i in 0 until count) {
                val fv = Native.node_field.invokeExact(n, i.toLong()) as MemorySegment
                fields[fieldName(n, i)] = if (fv.address() == 0L) null else value(fv)
            }
            val name = userTypeName(n)
            val id = (Native.node_user_type_id.invokeExact(n) as Int).toLong() and 0xffffffffL
            return WireStruct(name, fields, if (name == null && id != 0xffffffffL) id else null)
        }
        val values = arrayOfNulls<Any?>(info.fields.size)
        val present = BooleanArray(info.fields.size)
        for (i in 0 until count) {
            val f = info.byWireName[fieldName(n, i)] ?: continue // a field this class does not have: skipped
            val fv = Native.node_field.invokeExact(n, i.toLong()) as MemorySegment
            values[f.index] = if (fv.address() == 0L) null else coerceField(value(fv), f)
            present[f.index] = true
        }
        return info.construct(values, present)
    }
}

/** Adapts a decoded value to the property type (numeric widening, list ↔ set ↔ array). */
@OptIn(ExperimentalUnsignedTypes::class)
internal fun coerceField(v: Any?, f: FieldInfo): Any? {
    if (v == null || f.type.isInstance(v)) return v
    val t = f.type
    return when {
        v is Number && t == Long::class.javaObjectType -> v.toLong()
        v is Number && t == Int::class.javaObjectType -> v.toInt()
        v is Number && t == Short::class.javaObjectType -> v.toShort()
        v is Number && t == Byte::class.javaObjectType -> v.toByte()
        v is Number && t == Double::class.javaObjectType -> v.toDouble()
        v is Number && t == Float::class.javaObjectType -> v.toFloat()
        v is Float16 && t == Float::class.javaObjectType -> v.toFloat()
        v is BFloat16 && t == Float::class.javaObjectType -> v.toFloat()
        v is UInt && t == Long::class.javaObjectType -> v.toLong()
        v is Collection<*> && t == Set::class.java -> LinkedHashSet(v)
        v is Collection<*> && t == List::class.java -> ArrayList(v)
        v is Collection<*> && t == IntArray::class.java -> IntArray(v.size).also { a -> v.forEachIndexed { i, e -> a[i] = (e as Number).toInt() } }
        v is Collection<*> && t == LongArray::class.java -> LongArray(v.size).also { a -> v.forEachIndexed { i, e -> a[i] = (e as Number).toLong() } }
        v is Collection<*> && t == ShortArray::class.java -> ShortArray(v.size).also { a -> v.forEachIndexed { i, e -> a[i] = (e as Number).toShort() } }
        v is Collection<*> && t == DoubleArray::class.java -> DoubleArray(v.size).also { a -> v.forEachIndexed { i, e -> a[i] = (e as Number).toDouble() } }
        v is Collection<*> && t == FloatArray::class.java -> FloatArray(v.size).also { a -> v.forEachIndexed { i, e -> a[i] = (e as Number).toFloat() } }
        v is Collection<*> && t == BooleanArray::class.java -> BooleanArray(v.size).also { a -> v.forEachIndexed { i, e -> a[i] = e as Boolean } }
        v is IntArray && t == List::class.java -> v.toList()
        v is LongArray && t == List::class.java -> v.toList()
        v is UIntArray && t == IntArray::class.java -> v.asIntArray()
        v is ULongArray && t == LongArray::class.java -> v.asLongArray()
        v is UShortArray && t == ShortArray::class.java -> v.asShortArray()
        v is UByteArray && t == ByteArray::class.java -> v.asByteArray()
        else -> throw WireException("value", -1, "field ${f.wireName}: a ${v.javaClass.simpleName} does not fit ${t.simpleName}")
    }
}
