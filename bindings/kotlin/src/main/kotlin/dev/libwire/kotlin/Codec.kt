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


/**
 * Adapts a decoded value to the property type (numeric widening, list ↔ set ↔ array). A value that
 * cannot be one (an int or a struct of another type where a struct is declared: compatible mode
 * lets a writer put any value in a struct field, spec R-FIELD-10) is refused with class `schema`,
 * naming the struct [owner] (its schema name) and the field, as the compiled codecs do.
 */
@OptIn(ExperimentalUnsignedTypes::class)
internal fun coerceField(v: Any?, f: FieldInfo, owner: String? = null): Any? {
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
        else -> throw WireException(
            "schema", -1,
            "field ${if (owner != null) "$owner." else ""}${f.wireName}: a ${v.javaClass.simpleName} does not fit ${t.simpleName}",
        )
    }
}

/**
 * java.time values from decoded numbers: the wire allows dates and instants beyond what
 * java.time represents, which is a value error (not a DateTimeException from deep inside a decode).
 */
internal object Time {
    fun date(days: Long): LocalDate = try {
        LocalDate.ofEpochDay(days)
    } catch (e: java.time.DateTimeException) {
        throw WireException("value", -1, "date $days days from the epoch is outside java.time.LocalDate")
    }

    fun instant(seconds: Long, nanos: Long): Instant = try {
        Instant.ofEpochSecond(seconds, nanos)
    } catch (e: java.time.DateTimeException) {
        throw WireException("value", -1, "timestamp $seconds s is outside java.time.Instant")
    } catch (e: ArithmeticException) {
        throw WireException("value", -1, "timestamp $seconds s is outside java.time.Instant")
    }

    fun duration(seconds: Long, nanos: Long): Duration = try {
        Duration.ofSeconds(seconds, nanos)
    } catch (e: ArithmeticException) {
        throw WireException("value", -1, "duration $seconds s is outside java.time.Duration")
    }
}
