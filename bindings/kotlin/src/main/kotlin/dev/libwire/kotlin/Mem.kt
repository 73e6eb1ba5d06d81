package dev.libwire.kotlin

import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout
import java.lang.invoke.MethodHandle
import java.lang.invoke.MethodHandles
import java.lang.invoke.MethodType
import java.math.BigDecimal
import java.math.BigInteger
import java.time.Duration
import java.time.Instant
import java.time.LocalDate
import kotlin.reflect.KType
import kotlin.reflect.jvm.jvmErasure

/*
 * Registered data classes as messages of libwire's compiled codecs (wire_mem_*, libwire/LAYOUTS.md).
 *
 * Per data class a [MemPlan], made the first time the class is encoded or decoded in a context: the
 * struct's fields as slots of a native "image" (a C-like struct: ints, pointer + length for strings,
 * lists and maps, pointers to the images of nested data classes), described to libwire once as a
 * layout. Encoding writes the image of a message into a heap array of the context whose pointers
 * are numbers from a base, and makes one call (`wire_mem_encode_based`, the array passed as a heap
 * segment: C reads the pointers relative to where the array is during the call).
 * Decoding is one call (`wire_mem_decode_bases`, the payload and a heap arena of the context both
 * passed as heap segments): C writes the image into the arena, its pointers are read back as offsets
 * from the bases the call reports, and the objects are built from the arena
 * (`-Dlibwire.decodeCopies=true`: the earlier path through native memory, for comparison). Buffers are reused per context and grown (the message is then redone) when short.
 */

/** A declared field type (`wire_schema_field_type_info`). */
internal class DeclType(
    val typeId: Int, val nullable: Boolean, val ref: Boolean, val user: Int,
    val elem: DeclType?, val key: DeclType?, val value: DeclType?,
)

/** A layout could not be made for a class (it goes through the tape codec instead). */
internal class NoLayout(msg: String) : Exception(msg, null, false, false)

/** The encode image was too small: redo the message with [need] bytes. */
internal class Regrow(val need: Int) : RuntimeException(null, null, false, false)

private const val NONE = -1 // WIRE_MEM_NONE as a uint32

/**
 * How one value sits in an image: a field, a list item, a map key or value. [size] bytes at the
 * slot's offset; pointer forms keep their length or count in the 4 bytes at offset + 8.
 */
internal abstract class Slot(@JvmField val form: Int, @JvmField val size: Int) {
    /** Pointer forms: null is a NULL pointer (no presence flag needed). */
    open val pointer: Boolean get() = false
    open val hasAux: Boolean get() = false
    /** The `elem` of the layout row (nested / element layout), or NONE. */
    open fun elem(): Int = NONE
    /** Writes non-null [v] at [at]. */
    abstract fun put(w: MemWriter, at: Int, v: Any)
    /** Reads the value at [at] (null for a NULL pointer). */
    abstract fun get(r: MemReader, at: Int): Any?
}

internal class IntSlot(form: Int, size: Int, private val kind: Int) : Slot(form, size) {
    override fun put(w: MemWriter, at: Int, v: Any) {
        when (kind) {
            0 -> w.b[at] = (v as Byte)
            1 -> Img.I16.set(w.b, at, v as Short)
            2 -> Img.I32.set(w.b, at, v as Int)
            else -> Img.I64.set(w.b, at, v as Long)
        }
    }
    override fun get(r: MemReader, at: Int): Any = when (kind) {
        0 -> r.b[at]
        1 -> Img.I16.get(r.b, at) as Short
        2 -> Img.I32.get(r.b, at) as Int
        else -> Img.I64.get(r.b, at) as Long
    }
}

internal object BoolSlot : Slot(WireH.MEM_BOOL, 1) {
    override fun put(w: MemWriter, at: Int, v: Any) { w.b[at] = if (v as Boolean) 1 else 0 }
    override fun get(r: MemReader, at: Int): Any = r.b[at].toInt() != 0
}

internal object F32Slot : Slot(WireH.MEM_F32, 4) {
    override fun put(w: MemWriter, at: Int, v: Any) { Img.I32.set(w.b, at, (v as Float).toRawBits()) }
    override fun get(r: MemReader, at: Int): Any = Float.fromBits(Img.I32.get(r.b, at) as Int)
}

internal object F64Slot : Slot(WireH.MEM_F64, 8) {
    override fun put(w: MemWriter, at: Int, v: Any) { Img.I64.set(w.b, at, (v as Double).toRawBits()) }
    override fun get(r: MemReader, at: Int): Any = Double.fromBits(Img.I64.get(r.b, at) as Long)
}

/** A string: pointer + the wire header (`WIRE_MEM_STR_TAGGED`), the text in its wire encoding. */
internal object StrSlot : Slot(WireH.MEM_STR or WireH.MEM_STR_TAGGED, 16) {
    override val pointer get() = true
    override val hasAux get() = true
    override fun put(w: MemWriter, at: Int, v: Any) = w.string(at, v as String)
    override fun get(r: MemReader, at: Int): Any? = r.string(at)
}

internal object BytesSlot : Slot(WireH.MEM_BYTES, 16) {
    override val pointer get() = true
    override val hasAux get() = true
    override fun put(w: MemWriter, at: Int, v: Any) {
        val a = v as ByteArray
        val o = w.alloc(a.size, 1)
        System.arraycopy(a, 0, w.b, o, a.size)
        w.span(at, o, a.size)
    }
    override fun get(r: MemReader, at: Int): Any? {
        val p = Img.I64.get(r.b, at) as Long
        if (p == 0L) return null
        val n = Img.I32.get(r.b, at + 8) as Int
        if (n == 0) return ByteArray(0)
        val a = r.bytes(p, n)
        return a.copyOfRange(r.pos, r.pos + n)
    }
}

/** A primitive array (dense array or list of primitives) of [width]-byte items. */
internal class ArraySlot(width: Int, @JvmField val type: Class<*>) : Slot(WireH.MEM_ARRAY, 16) {
    override val pointer get() = true
    override val hasAux get() = true
    /** Which array class [type] is (one int compare per value instead of a chain of class compares). */
    private val kind = when (type) {
        IntArray::class.java -> A_INT
        LongArray::class.java -> A_LONG
        DoubleArray::class.java -> A_DOUBLE
        FloatArray::class.java -> A_FLOAT
        ShortArray::class.java -> A_SHORT
        else -> A_BOOL
    }

    override fun put(w: MemWriter, at: Int, v: Any) {
        when {
            kind == A_INT && v is IntArray -> ints(w, at, v)
            kind == A_LONG && v is LongArray -> longs(w, at, v)
            kind == A_DOUBLE && v is DoubleArray -> doubles(w, at, v)
            kind == A_FLOAT && v is FloatArray -> floats(w, at, v)
            kind == A_SHORT && v is ShortArray -> shorts(w, at, v)
            kind == A_BOOL && v is BooleanArray -> booleans(w, at, v)
            else -> throw WireException("value", -1, "a ${v.javaClass.simpleName} where a ${type.simpleName} is declared")
        }
    }

    /** The name of the writer of this slot's array class (`(MemField, MemWriter, int, Object)void`, for the generated codecs). */
    val writer: String get() = "p" + reader

    override fun get(r: MemReader, at: Int): Any? = when (kind) {
        A_INT -> ints(r, at)
        A_LONG -> longs(r, at)
        A_DOUBLE -> doubles(r, at)
        A_FLOAT -> floats(r, at)
        A_SHORT -> shorts(r, at)
        else -> booleans(r, at)
    }

    /** The name of the reader of this slot's array class (the generated codecs call it directly). */
    val reader: String get() = arrayOf("ints", "longs", "doubles", "floats", "shorts", "booleans")[kind]

    companion object {
        // one writer per array class. Short arrays item by item, longer ones in bulk copies
        // between heap segments (ProfileMain arr, a LongArray out of an image: 9 items 7.4 ns
        // against 8.1, 32 items 13.2 against 13.4: about even); the image is little-endian, as
        // are the hosts packaged for
        @JvmStatic fun ints(w: MemWriter, at: Int, v: IntArray) {
            val n = v.size
            val o = w.alloc(n * 4, 8)
            val b = w.b
            if (n <= SHORT) for (i in 0 until n) Img.I32.set(b, o + 4 * i, v[i])
            else MemorySegment.copy(v, 0, MemorySegment.ofArray(b), Img.LE_I32, o.toLong(), n)
            w.span(at, o, n)
        }
        @JvmStatic fun longs(w: MemWriter, at: Int, v: LongArray) {
            val n = v.size
            val o = w.alloc(n * 8, 8)
            val b = w.b
            if (n <= SHORT) for (i in 0 until n) Img.I64.set(b, o + 8 * i, v[i])
            else MemorySegment.copy(v, 0, MemorySegment.ofArray(b), Img.LE_I64, o.toLong(), n)
            w.span(at, o, n)
        }
        @JvmStatic fun doubles(w: MemWriter, at: Int, v: DoubleArray) {
            val n = v.size
            val o = w.alloc(n * 8, 8)
            val b = w.b
            if (n <= SHORT) for (i in 0 until n) Img.I64.set(b, o + 8 * i, v[i].toRawBits())
            else MemorySegment.copy(v, 0, MemorySegment.ofArray(b), Img.LE_F64, o.toLong(), n)
            w.span(at, o, n)
        }
        @JvmStatic fun floats(w: MemWriter, at: Int, v: FloatArray) {
            val n = v.size
            val o = w.alloc(n * 4, 8)
            val b = w.b
            if (n <= SHORT) for (i in 0 until n) Img.I32.set(b, o + 4 * i, v[i].toRawBits())
            else MemorySegment.copy(v, 0, MemorySegment.ofArray(b), Img.LE_F32, o.toLong(), n)
            w.span(at, o, n)
        }
        @JvmStatic fun shorts(w: MemWriter, at: Int, v: ShortArray) {
            val n = v.size
            val o = w.alloc(n * 2, 8)
            val b = w.b
            if (n <= SHORT) for (i in 0 until n) Img.I16.set(b, o + 2 * i, v[i])
            else MemorySegment.copy(v, 0, MemorySegment.ofArray(b), Img.LE_I16, o.toLong(), n)
            w.span(at, o, n)
        }
        @JvmStatic fun booleans(w: MemWriter, at: Int, v: BooleanArray) {
            val n = v.size
            val o = w.alloc(n, 8)
            val b = w.b
            for (i in 0 until n) b[o + i] = if (v[i]) 1 else 0
            w.span(at, o, n)
        }

        // a field of each array class, as the generated codecs write it (null and other classes
        // through pAny: the error, or the NULL pointer)
        @JvmStatic fun pints(f: MemField, w: MemWriter, at: Int, x: Any?) { if (x is IntArray) ints(w, at + f.offset, x) else MemHandles.pAny(f.slot, f, w, at, x) }
        @JvmStatic fun plongs(f: MemField, w: MemWriter, at: Int, x: Any?) { if (x is LongArray) longs(w, at + f.offset, x) else MemHandles.pAny(f.slot, f, w, at, x) }
        @JvmStatic fun pdoubles(f: MemField, w: MemWriter, at: Int, x: Any?) { if (x is DoubleArray) doubles(w, at + f.offset, x) else MemHandles.pAny(f.slot, f, w, at, x) }
        @JvmStatic fun pfloats(f: MemField, w: MemWriter, at: Int, x: Any?) { if (x is FloatArray) floats(w, at + f.offset, x) else MemHandles.pAny(f.slot, f, w, at, x) }
        @JvmStatic fun pshorts(f: MemField, w: MemWriter, at: Int, x: Any?) { if (x is ShortArray) shorts(w, at + f.offset, x) else MemHandles.pAny(f.slot, f, w, at, x) }
        @JvmStatic fun pbooleans(f: MemField, w: MemWriter, at: Int, x: Any?) { if (x is BooleanArray) booleans(w, at + f.offset, x) else MemHandles.pAny(f.slot, f, w, at, x) }

        // one reader per array class: pointer + count at [at], the items in the payload or the arena copy
        @JvmStatic fun ints(r: MemReader, at: Int): IntArray? {
            val o = r.arrayItems(at)
            if (o < 0) return null
            val n = r.count
            val b = r.ib
            val a = IntArray(n)
            if (n <= SHORT) for (i in 0 until n) a[i] = Img.I32.get(b, o + 4 * i) as Int
            else MemorySegment.copy(MemorySegment.ofArray(b), Img.LE_I32, o.toLong(), a, 0, n)
            return a
        }
        @JvmStatic fun longs(r: MemReader, at: Int): LongArray? {
            val o = r.arrayItems(at)
            if (o < 0) return null
            val n = r.count
            val b = r.ib
            val a = LongArray(n)
            if (n <= SHORT) for (i in 0 until n) a[i] = Img.I64.get(b, o + 8 * i) as Long
            else MemorySegment.copy(MemorySegment.ofArray(b), Img.LE_I64, o.toLong(), a, 0, n)
            return a
        }
        @JvmStatic fun doubles(r: MemReader, at: Int): DoubleArray? {
            val o = r.arrayItems(at)
            if (o < 0) return null
            val n = r.count
            val b = r.ib
            val a = DoubleArray(n)
            if (n <= SHORT) for (i in 0 until n) a[i] = Double.fromBits(Img.I64.get(b, o + 8 * i) as Long)
            else MemorySegment.copy(MemorySegment.ofArray(b), Img.LE_F64, o.toLong(), a, 0, n)
            return a
        }
        @JvmStatic fun floats(r: MemReader, at: Int): FloatArray? {
            val o = r.arrayItems(at)
            if (o < 0) return null
            val n = r.count
            val b = r.ib
            val a = FloatArray(n)
            if (n <= SHORT) for (i in 0 until n) a[i] = Float.fromBits(Img.I32.get(b, o + 4 * i) as Int)
            else MemorySegment.copy(MemorySegment.ofArray(b), Img.LE_F32, o.toLong(), a, 0, n)
            return a
        }
        @JvmStatic fun shorts(r: MemReader, at: Int): ShortArray? {
            val o = r.arrayItems(at)
            if (o < 0) return null
            val n = r.count
            val b = r.ib
            val a = ShortArray(n)
            if (n <= SHORT) for (i in 0 until n) a[i] = Img.I16.get(b, o + 2 * i) as Short
            else MemorySegment.copy(MemorySegment.ofArray(b), Img.LE_I16, o.toLong(), a, 0, n)
            return a
        }
        @JvmStatic fun booleans(r: MemReader, at: Int): BooleanArray? {
            val o = r.arrayItems(at)
            if (o < 0) return null
            val n = r.count
            val b = r.ib
            if (o + n > b.size) throw WireException("state", -1, "a decoded pointer outside the arena")
            return BooleanArray(n) { b[o + it].toInt() != 0 }
        }

        const val A_INT = 0
        const val A_LONG = 1
        const val A_DOUBLE = 2
        const val A_FLOAT = 3
        const val A_SHORT = 4
        const val A_BOOL = 5
        /** Arrays up to this many items are copied item by item (-Dlibwire.shortArray=N). */
        @JvmField val SHORT = Integer.getInteger("libwire.shortArray", 32)
    }
}

/**
 * A bound enum whose numbers are not its ordinals (EnumInfo.wire): each constant is written as its
 * enumerator's number, a constant with no enumerator is refused, a number read back maps to its
 * constant.
 */
internal class MappedEnumSlot(private val info: EnumInfo, private val cls: Class<*>) : Slot(WireH.MEM_ENUM, 4) {
    private val wire = info.wire!!
    override fun put(w: MemWriter, at: Int, v: Any) {
        if (v.javaClass != cls && v.javaClass.superclass != cls) {
            throw WireException("value", -1, "a ${v.javaClass.simpleName} where ${cls.simpleName} is declared")
        }
        val o = (v as Enum<*>).ordinal
        info.refused(o)?.let { throw it }
        Img.I32.set(w.b, at, wire[o])
    }
    override fun get(r: MemReader, at: Int): Any {
        val k = Img.I32.get(r.b, at) as Int
        return info.constantOf(k) ?: throw WireException("value", -1, "enum value ${Integer.toUnsignedString(k)} out of range for ${cls.simpleName}")
    }
}

internal class EnumSlot(private val constants: Array<Enum<*>>, private val cls: Class<*>) : Slot(WireH.MEM_ENUM, 4) {
    override fun put(w: MemWriter, at: Int, v: Any) {
        if (v.javaClass != cls && v.javaClass.superclass != cls) {
            throw WireException("value", -1, "a ${v.javaClass.simpleName} where ${cls.simpleName} is declared")
        }
        Img.I32.set(w.b, at, (v as Enum<*>).ordinal)
    }
    override fun get(r: MemReader, at: Int): Any {
        val k = Img.I32.get(r.b, at) as Int
        if (k < 0 || k >= constants.size) throw WireException("value", -1, "enum value $k out of range for ${cls.simpleName}")
        return constants[k]
    }
}

internal object DateSlot : Slot(WireH.MEM_DATE, 8) {
    override fun put(w: MemWriter, at: Int, v: Any) { Img.I64.set(w.b, at, (v as LocalDate).toEpochDay()) }
    override fun get(r: MemReader, at: Int): Any = Time.date(Img.I64.get(r.b, at) as Long)
}

/** `wire_mem_time`: seconds (int64), nanos (uint32), pad. */
internal class TimeSlot(private val duration: Boolean) : Slot(if (duration) WireH.MEM_DURATION else WireH.MEM_TIMESTAMP, 16) {
    override fun put(w: MemWriter, at: Int, v: Any) {
        if (duration) {
            val d = v as Duration
            Img.I64.set(w.b, at, d.seconds); Img.I32.set(w.b, at + 8, d.nano)
        } else {
            val t = v as Instant
            Img.I64.set(w.b, at, t.epochSecond); Img.I32.set(w.b, at + 8, t.nano)
        }
    }
    override fun get(r: MemReader, at: Int): Any {
        val s = Img.I64.get(r.b, at) as Long
        val n = (Img.I32.get(r.b, at + 8) as Int).toLong() and 0xffffffffL
        return if (duration) Time.duration(s, n) else Time.instant(s, n)
    }
}

/** `wire_mem_decimal`: magnitude pointer, len, scale, negative, pad. */
internal object DecimalSlot : Slot(WireH.MEM_DECIMAL, 24) {
    override fun put(w: MemWriter, at: Int, v: Any) {
        val d = v as BigDecimal
        val un = d.unscaledValue()
        val len: Int
        val o: Int
        if (un.bitLength() < 63) {
            var m = Math.abs(un.toLong())
            len = (64 - java.lang.Long.numberOfLeadingZeros(m) + 7) / 8
            o = w.alloc(len, 1)
            for (i in 0 until len) { w.b[o + i] = m.toByte(); m = m ushr 8 }
        } else {
            val mag = magnitudeLE(un)
            len = mag.size
            o = w.alloc(len, 1)
            System.arraycopy(mag, 0, w.b, o, len)
        }
        w.ptr(at, o)
        Img.I32.set(w.b, at + 8, len)
        Img.I32.set(w.b, at + 12, d.scale())
        Img.I32.set(w.b, at + 16, if (un.signum() < 0) 1 else 0)
    }
    override fun get(r: MemReader, at: Int): Any {
        val n = Img.I32.get(r.b, at + 8) as Int
        val scale = Img.I32.get(r.b, at + 12) as Int
        val neg = (Img.I32.get(r.b, at + 16) as Int) != 0
        if (n == 0) return BigDecimal.valueOf(0L, scale)
        val a = r.bytes(Img.I64.get(r.b, at) as Long, n)
        val o = r.pos
        if (n <= 7) {
            var m = 0L
            for (i in n - 1 downTo 0) m = (m shl 8) or (a[o + i].toLong() and 0xff)
            return BigDecimal.valueOf(if (neg) -m else m, scale)
        }
        val be = ByteArray(n) { a[o + n - 1 - it] }
        val bi = BigInteger(1, be)
        return BigDecimal(if (neg) bi.negate() else bi, scale)
    }
}

/** A pointer to the image of a registered data class. */
internal class StructSlot(@JvmField val plan: MemPlan) : Slot(WireH.MEM_STRUCT_PTR, 8) {
    override val pointer get() = true
    override fun elem() = plan.layout
    override fun put(w: MemWriter, at: Int, v: Any) {
        if (v.javaClass !== plan.cls) throw WireException("value", -1, "a ${v.javaClass.simpleName} where ${plan.cls.simpleName} is declared")
        w.ptr(at, w.struct(plan, v))
    }
    override fun get(r: MemReader, at: Int): Any? {
        val p = Img.I64.get(r.b, at) as Long
        return if (p == 0L) null else r.struct(plan, r.off(p))
    }
}

/**
 * Items of lists and entries of maps: a slot, and for nullable items of a non-pointer form (Int?,
 * an enum...) a presence byte right after it ([present]).
 */
internal class Elem(@JvmField val slot: Slot, @JvmField val present: Boolean) {
    val size = slot.size + if (present) 1 else 0

    fun put(w: MemWriter, at: Int, x: Any?) {
        if (x == null) {
            if (present) w.b[at + slot.size] = 0 else w.nul(slot, at)
        } else {
            slot.put(w, at, x)
            if (present) w.b[at + slot.size] = 1
        }
    }

    fun get(r: MemReader, at: Int): Any? = if (present && r.b[at + slot.size].toInt() == 0) null else slot.get(r, at)
}

/**
 * A list or set: pointer to `count` items of an element layout (slot 0), count at + 8. [fixed]: a
 * read-only `List<T>` property (or item), read into a fixed-size list ([fixedList]); otherwise a
 * list is an `ArrayList` (`MutableList<T>`, `Collection<T>`...) and a set a `LinkedHashSet`.
 */
internal class ListSlot(@JvmField val item: Elem, @JvmField val set: Boolean, @JvmField val fixed: Boolean = false) : Slot(WireH.MEM_LIST, 16) {
    override val pointer get() = true
    override val hasAux get() = true
    @JvmField var elemLayout = NONE
    @JvmField val stride = (item.size + 7) and 7.inv()
    override fun elem() = elemLayout
    override fun put(w: MemWriter, at: Int, v: Any) {
        val c: Collection<*> = when (v) {
            is Collection<*> -> v
            is Array<*> -> v.asList()
            else -> throw WireException("value", -1, "a ${v.javaClass.simpleName} where a list is declared")
        }
        val n = c.size
        val o = w.alloc(n * stride, 8)
        var k = o
        val s = item.slot
        if (s === StrSlot && c is List<*> && c is java.util.RandomAccess) {
            // (strings, the usual items, without the virtual calls of Elem and Slot)
            for (i in 0 until n) {
                val x = c[i]
                if (x == null) w.nul(StrSlot, k) else w.string(k, x as String)
                k += stride
            }
        } else if (s is StructSlot && c is List<*> && c is java.util.RandomAccess) {
            for (i in 0 until n) {
                val x = c[i]
                if (x == null) Img.I64.set(w.b, k, 0L) else s.put(w, k, x)
                k += stride
            }
        } else if (s === StrSlot) {
            val end = o + n * stride
            for (x in c) {
                if (k == end) sizeMismatch(n)
                if (x == null) w.nul(StrSlot, k) else w.string(k, x as String)
                k += stride
            }
            if (k != end) sizeMismatch(n)
        } else if (c is List<*> && c is java.util.RandomAccess) {
            for (i in 0 until n) { item.put(w, k, c[i]); k += stride }
        } else {
            val end = o + n * stride
            for (x in c) {
                if (k == end) sizeMismatch(n)
                item.put(w, k, x); k += stride
            }
            if (k != end) sizeMismatch(n)
        }
        w.span(at, o, n)
    }
    override fun get(r: MemReader, at: Int): Any? {
        val p = Img.I64.get(r.b, at) as Long
        if (p == 0L) return null
        val n = Img.I32.get(r.b, at + 8) as Int
        if (set) {
            val s = LinkedHashSet<Any?>(hashCapacity(n))
            if (n > 0) {
                var k = r.off(p)
                if (item.slot === StrSlot) for (i in 0 until n) { s.add(r.string(k)); k += stride }
                else for (i in 0 until n) { s.add(item.get(r, k)); k += stride }
            }
            return s
        }
        if (fixed) {
            if (n == 0) return emptyFixed()
            val a = arrayOfNulls<Any?>(n)
            var k = r.off(p)
            val s = item.slot
            when {
                s === StrSlot -> for (i in 0 until n) { a[i] = r.string(k); k += stride }
                s is StructSlot -> for (i in 0 until n) { a[i] = s.get(r, k); k += stride }
                else -> for (i in 0 until n) { a[i] = item.get(r, k); k += stride }
            }
            return a.asList()
        }
        val l = ArrayList<Any?>(n)
        if (n > 0) {
            var k = r.off(p)
            val s = item.slot
            when {
                s === StrSlot -> for (i in 0 until n) { l.add(r.string(k)); k += stride }
                s is StructSlot -> for (i in 0 until n) { l.add(s.get(r, k)); k += stride }
                else -> for (i in 0 until n) { l.add(item.get(r, k)); k += stride }
            }
        }
        return l
    }
}

/** A map: pointer to `count` entries of an element layout (key at 0, value at [valueAt]). */
internal class MapSlot(@JvmField val key: Elem, @JvmField val value: Elem) : Slot(WireH.MEM_MAP, 16) {
    override val pointer get() = true
    override val hasAux get() = true
    @JvmField var elemLayout = NONE
    val valueAt = (key.size + 7) and 7.inv()
    val stride = (valueAt + value.size + 7) and 7.inv()
    override fun elem() = elemLayout
    override fun put(w: MemWriter, at: Int, v: Any) {
        val m = v as? Map<*, *> ?: throw WireException("value", -1, "a ${v.javaClass.simpleName} where a map is declared")
        val n = m.size
        val o = w.alloc(n * stride, 8)
        var k = o
        val end = o + n * stride
        if (key.slot === StrSlot && value.slot === StrSlot) {
            // (string to string, as attributes are: without the virtual calls of Elem and Slot)
            for ((x, y) in m) {
                if (k == end) sizeMismatch(n)
                if (x == null) w.nul(StrSlot, k) else w.string(k, x as String)
                if (y == null) w.nul(StrSlot, k + valueAt) else w.string(k + valueAt, y as String)
                k += stride
            }
        } else {
            for ((x, y) in m) {
                if (k == end) sizeMismatch(n)
                key.put(w, k, x)
                value.put(w, k + valueAt, y)
                k += stride
            }
        }
        if (k != end) sizeMismatch(n)
        w.span(at, o, n)
    }
    override fun get(r: MemReader, at: Int): Any? {
        val p = Img.I64.get(r.b, at) as Long
        if (p == 0L) return null
        val n = Img.I32.get(r.b, at + 8) as Int
        val m = LinkedHashMap<Any?, Any?>(hashCapacity(n))
        if (n > 0) {
            var k = r.off(p)
            if (key.slot === StrSlot && value.slot === StrSlot) {
                for (i in 0 until n) { m[r.string(k)] = r.string(k + valueAt); k += stride }
            } else {
                for (i in 0 until n) { m[key.get(r, k)] = value.get(r, k + valueAt); k += stride }
            }
        }
        return m
    }
}

/**
 * A collection or map whose iterator gave more or fewer items than its `size` said (modified while
 * it was written, or a broken implementation): refused, because the items not written would leave
 * bytes of an earlier message in the image, where C would read them as pointers.
 */
internal fun sizeMismatch(n: Int): Nothing =
    throw WireException("value", -1, "a collection or map whose number of items is not its size ($n)")

/** Little-endian views of the heap images. */
internal object Img {
    @JvmField val LE_I16: ValueLayout.OfShort = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val LE_I32: ValueLayout.OfInt = ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val LE_I64: ValueLayout.OfLong = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val LE_F32: ValueLayout.OfFloat = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val LE_F64: ValueLayout.OfDouble = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val LE_CHAR: ValueLayout.OfChar = ValueLayout.JAVA_CHAR_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val I16: java.lang.invoke.VarHandle = MethodHandles.byteArrayViewVarHandle(ShortArray::class.java, java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val I32: java.lang.invoke.VarHandle = MethodHandles.byteArrayViewVarHandle(IntArray::class.java, java.nio.ByteOrder.LITTLE_ENDIAN)
    @JvmField val I64: java.lang.invoke.VarHandle = MethodHandles.byteArrayViewVarHandle(LongArray::class.java, java.nio.ByteOrder.LITTLE_ENDIAN)
}

/** One field of a [MemPlan]. */
internal class MemField(
    /** Field kind: 1..7 primitives read through a typed getter, 0 any other value through [slot]. */
    @JvmField val kind: Int,
    @JvmField val offset: Int,
    /** Offset of the presence byte (nullable primitives, enums, dates...; every field of a [MemPlan.marked] plan), or -1. */
    @JvmField val present: Int,
    @JvmField val slot: Slot,
    @JvmField val getter: MethodHandle,
    @JvmField val arg: Int,
    @JvmField val nullable: Boolean,
    @JvmField val name: String,
    /** Declaration index of the field (the layout row's field number). */
    @JvmField val decl: Int,
)

/**
 * The compiled-codec plan of a data class bound to a schema struct: its image (fields at fixed
 * offsets, [size] bytes) and layout index in the context, the getters and the constructor.
 */
internal class MemPlan(@JvmField val cls: Class<*>, @JvmField val info: ClassInfo, @JvmField val typeIndex: Int) {
    @JvmField var layout = NONE
    @JvmField var size = 0
    /**
     * Every field is held in the image itself (no pointer: no string, binary, decimal, list, map or
     * nested struct). The image then crosses as a heap segment of its array, and so do the payload
     * and the decoded image (no copies to and from native memory).
     */
    @JvmField var flat = false
    /**
     * Some field, list item or map entry of this class is declared `ref` (or is a nullable struct
     * field a peer's framing tracks, `WIRE_OPT_PEER` Go): only then can libwire write one of its
     * values as a reference, so only then does the encoder look its values up by identity (under
     * reference tracking). libwire writes a struct in any other position in full each time it is
     * met (`MF_TRACK`, mem_layout.c), so a second image of a value met twice changes no byte.
     */
    @JvmField var referable = false
    @JvmField var fields: Array<MemField> = emptyArray()
    /**
     * The plan that tells fields a writer's TypeDef lacks (decode only, made on first need by
     * [MemCodec.markedOf]): a presence byte on every field, `WIRE_MEM_MARK_ABSENT` (libwire sets it
     * to 2 for a field the writer lacks, 0 for a null sent, 1 for a value), nested classes by their
     * marked plans; read by their generated codec ([MemGenerator.makeMarked]) or by [readMarked],
     * both applying the rule of fields the writer lacks. The plans used otherwise have none of this: their images, and the code that
     * reads them, are the same whether a class has defaults or not.
     */
    @JvmField var marked = false
    /** This plan's [marked] twin, once made. */
    @JvmField var markedPlan: MemPlan? = null
    /**
     * Some field of this class reads otherwise than the rule when libwire zeroes it for a writer
     * that lacks it: a declared default, a nullable property held without a presence byte, an enum,
     * date, timestamp, duration or decimal that is not nullable ([MemCodec.unsafe]).
     */
    @JvmField var unsafe = false
    /**
     * [unsafe] here or in a class this one holds (fields, list items, map entries): a decode of
     * this plan's root compares libwire's absent count before building objects, and reads the
     * message again through the [marked] plans when it moved ([MemCodec.decode]). A field held by
     * pointer that is not nullable needs no check: its NULL makes the constructor fail, and that
     * failure reads the message again the same way.
     */
    @JvmField var check = false
    /**
     * Root TypeDef headers (the first word of the TypeDef a compatible message starts with) of
     * writers whose messages this plan read lacking fields: a message starting with one is decoded
     * through the [marked] plan at once ([MemCodec.decode]). Null until the first; at most
     * [MemCodec.LACKING] (the oldest replaced), so hostile input cannot grow it.
     */
    @JvmField var lacking: LongArray? = null
    @JvmField var lackingNext = 0
    /** The header of this plan's own TypeDef (0: none, or not looked up yet). */
    @JvmField var ownHead = 0L
    @JvmField var ownHeadKnown = false
    private lateinit var ctor: MethodHandle
    private var nparams = 0

    /** `(MemWriter, Object, int)void`: every field of a value into its image at the int. */
    private lateinit var writeAll: MethodHandle
    /** `(MemReader, int)Object`: the constructor called with every field read from the image at the int. */
    private lateinit var readAll: MethodHandle

    fun initCtor() {
        nparams = info.fields.size
        val raw = MethodHandles.lookup().unreflectConstructor(info.javaCtor)
        ctor = raw.asSpreader(Array<Any?>::class.java, nparams)
            .asType(MethodType.methodType(Any::class.java, Array<Any?>::class.java))
        writeAll = MemHandles.writer(fields)
        readAll = MemHandles.reader(raw, fields)
        gen = if (!COMPOSED || (marked && !MARKED_GEN)) null else try {
            if (marked) MemGenerator.makeMarked(this) else MemGenerator.make(this)
        } catch (e: LinkageError) {
            null // (a JVM whose java.lang.classfile cannot be linked: the handles)
        }
    }

    /** The generated codec ([MemGenerator]), or null (then the composed handles); read through only when [flat]. */
    @JvmField var gen: MemGen? = null

    fun write(w: MemWriter, at: Int, v: Any) {
        val g = gen
        if (g != null) {
            try {
                g.write(w, v, at)
            } catch (e: ClassCastException) {
                throw WireException("value", -1, "${cls.simpleName}: $e")
            }
            return
        }
        if (COMPOSED) {
            try {
                writeAll.invokeExact(w, v, at)
            } catch (e: ClassCastException) {
                throw WireException("value", -1, "${cls.simpleName}: $e")
            }
            return
        }
        val b = w.b
        try {
            for (f in fields) {
                val g = f.getter
                val o = at + f.offset
                when (f.kind) {
                    K_I32 -> Img.I32.set(b, o, g.invokeExact(v) as Int)
                    K_I64 -> Img.I64.set(b, o, g.invokeExact(v) as Long)
                    K_F64 -> Img.I64.set(b, o, (g.invokeExact(v) as Double).toRawBits())
                    K_F32 -> Img.I32.set(b, o, (g.invokeExact(v) as Float).toRawBits())
                    K_BOOL -> b[o] = if (g.invokeExact(v) as Boolean) 1 else 0
                    K_I16 -> Img.I16.set(b, o, g.invokeExact(v) as Short)
                    K_I8 -> b[o] = g.invokeExact(v) as Byte
                    else -> {
                        val x = g.invokeExact(v) as Any?
                        if (x == null) {
                            if (!f.nullable) throw WireException("value", -1, "${cls.simpleName}.${f.name}: null in a field that is not nullable")
                            if (f.present < 0) w.nul(f.slot, o) else b[at + f.present] = 0
                        } else {
                            f.slot.put(w, o, x)
                            if (f.present >= 0) b[at + f.present] = 1
                        }
                    }
                }
            }
        } catch (e: WireException) {
            throw e
        } catch (e: Regrow) {
            throw e
        } catch (e: ClassCastException) {
            throw WireException("value", -1, "${cls.simpleName}: $e")
        }
    }

    fun read(r: MemReader, at: Int): Any {
        // (the generated read for every class: nested data classes and lists of them through the
        // nested class's codec called directly (MemGenRt), arrays through a reader per array
        // class; `ProfileMain <value> gen`, objects: NumericStruct 11.5 ns against 17 through the
        // composed handles, Sample 95-97 against 100, MediaContent 176-177 against 185-186)
        val g = gen
        if (marked) {
            // (the generated marked read, MemGenerator.makeMarked: its refusals are readMarked's)
            if (g == null || !GEN_READ) return readMarked(r, at)
            return try {
                g.read(r, at)
            } catch (e: ClassCastException) {
                throw WireException("value", -1, "${cls.simpleName}: ${e.message}")
            }
        }
        if (g != null && GEN_READ) {
            return try {
                g.read(r, at)
            } catch (e: NullPointerException) {
                throw nullRefused(r, at)
            } catch (e: ClassCastException) {
                throw WireException("value", -1, "${cls.simpleName}: ${e.message}")
            }
        }
        if (COMPOSED) {
            return try {
                readAll.invokeExact(r, at) as Any
            } catch (e: NullPointerException) {
                throw nullRefused(r, at)
            } catch (e: ClassCastException) {
                throw WireException("value", -1, "${cls.simpleName}: ${e.message}")
            }
        }
        val args = readArgs(r, at)
        return try {
            ctor.invokeExact(args) as Any
        } catch (e: NullPointerException) {
            throw nullRefused(r, at)
        } catch (e: ClassCastException) {
            throw WireException("value", -1, "${cls.simpleName}: ${e.message}")
        }
    }

    /** Every field read from the image at [at], by constructor parameter (a presence byte 0: null). */
    private fun readArgs(r: MemReader, at: Int): Array<Any?> {
        val b = r.b
        val args = arrayOfNulls<Any?>(nparams)
        for (f in fields) {
            args[f.arg] = if (f.kind == K_ANY && f.present >= 0 && b[at + f.present].toInt() == 0) null else field(r, at + f.offset, f)
        }
        return args
    }

    /** The value of field [f] at [o] (its presence byte not looked at). */
    private fun field(r: MemReader, o: Int, f: MemField): Any? {
        val b = r.b
        return when (f.kind) {
            K_I32 -> Img.I32.get(b, o) as Int
            K_I64 -> Img.I64.get(b, o) as Long
            K_F64 -> Double.fromBits(Img.I64.get(b, o) as Long)
            K_F32 -> Float.fromBits(Img.I32.get(b, o) as Int)
            K_BOOL -> b[o].toInt() != 0
            K_I16 -> Img.I16.get(b, o) as Short
            K_I8 -> b[o]
            else -> f.slot.get(r, o)
        }
    }

    /**
     * The read of a [marked] plan's image (cold: only for a message a writer's TypeDef lacking
     * fields was read from, or one whose constructor met a null): a field the writer lacks
     * (presence 2) takes the declared default, else null for a nullable property, else 0 / false
     * for a number or bool, else the message is refused (`schema`, naming the class and the field,
     * as the tape codec does). A field sent reads as it does on the plan without marks.
     */
    internal fun readMarked(r: MemReader, at: Int): Any {
        val b = r.b
        val args = arrayOfNulls<Any?>(nparams)
        var leftOut: BooleanArray? = null
        for (f in fields) {
            val fi = info.fields[f.arg]
            val p = b[at + f.present].toInt()
            if (p == 2) {
                when {
                    fi.param.isOptional -> (leftOut ?: BooleanArray(nparams).also { leftOut = it })[f.arg] = true
                    fi.nullable -> {}
                    else -> args[f.arg] = ClassInfo.zeroOf(fi.type)
                        ?: throw WireException("schema", -1, "${cls.simpleName}: field ${f.name} is missing from the payload")
                }
                continue
            }
            // (a null sent: null where the plan without marks has a presence byte or a pointer;
            // else the zeroed value, as that plan reads it)
            args[f.arg] = if (p == 0 && (f.slot.pointer || f.nullable)) null else field(r, at + f.offset, f)
        }
        for (f in fields) {
            if (args[f.arg] == null && !info.fields[f.arg].nullable && leftOut?.get(f.arg) != true) {
                throw WireException("value", -1, "${cls.simpleName}: field ${f.name} is null in the payload, and not nullable")
            }
        }
        val lo = leftOut
        try {
            if (lo == null) return ctor.invokeExact(args) as Any
            return info.withDefaults(args, lo)
        } catch (e: java.lang.reflect.InvocationTargetException) {
            throw WireException("value", -1, "${cls.simpleName}: constructor failed: ${e.targetException}")
        } catch (e: IllegalArgumentException) {
            throw WireException("value", -1, "${cls.simpleName}: ${e.message}")
        } catch (e: ClassCastException) {
            throw WireException("value", -1, "${cls.simpleName}: ${e.message}")
        }
    }

    /**
     * The refusal of an image whose constructor met a null for a property that is not nullable: a
     * field held by pointer left NULL (the writer's TypeDef lacks it, or its writer sent a null),
     * named when found here or in a nested struct (`schema`, as the tape codec refuses a missing
     * field), else `value`.
     */
    private fun nullRefused(r: MemReader, at: Int): WireException {
        r.nullMet = true
        val where = nullField(r, at, 0)
        return if (where != null) WireException("schema", -1, "$where is missing from the payload (or null)")
        else WireException("value", -1, "${cls.simpleName}: a null for a field that is not nullable")
    }

    private fun nullField(r: MemReader, at: Int, depth: Int): String? {
        for (f in fields) {
            if (!f.slot.pointer || f.present >= 0) continue
            val p = Img.I64.get(r.b, at + f.offset) as Long
            if (p == 0L) {
                if (!info.fields[f.arg].nullable) return "${cls.simpleName}: field ${f.name}"
            } else if (f.slot is StructSlot && depth < 64) {
                (f.slot as StructSlot).plan.nullField(r, r.off(p), depth + 1)?.let { return it }
            }
        }
        return null
    }

    companion object {
        /**
         * One composed MethodHandle per class for writing and one for reading (false: a loop over
         * the fields calling a getter handle each, arguments boxed into an array for the
         * constructor). Measured in the README; -Dlibwire.composed=false for the loop.
         */
        @JvmField val COMPOSED = System.getProperty("libwire.composed") != "false"
        /** Decode through the generated codecs too (-Dlibwire.generatedRead=false: the composed handles, as before). */
        @JvmField val GEN_READ = System.getProperty("libwire.generatedRead") != "false"
        /** Generated codecs for the [marked] plans too (-Dlibwire.markedGen=false: [readMarked], as before). */
        @JvmField val MARKED_GEN = System.getProperty("libwire.markedGen") != "false"
        const val K_ANY = 0
        const val K_I32 = 1
        const val K_I64 = 2
        const val K_F64 = 3
        const val K_F32 = 4
        const val K_BOOL = 5
        const val K_I16 = 6
        const val K_I8 = 7
    }
}

/**
 * Builds the image of one message in the heap array [b]; pointers are written as [base] plus the
 * offset of what they point to (the addresses the bytes will have once copied to native memory at
 * [base], or numbers from a base C relocates). Reused per context.
 */
internal class MemWriter {
    @JvmField var b = ByteArray(1 shl 14)
    @JvmField var base = 0L
    @JvmField var top = 0
    private var seen: IdentityInts? = null
    private var depth = 0
    private var maxDepth = 64

    fun reset(native: Long, track: Boolean, depthLimit: Int) {
        base = native
        top = 0
        depth = 0
        maxDepth = depthLimit
        seen = if (track) (seen ?: IdentityInts()).also { it.clear() } else null
    }

    fun alloc(n: Int, align: Int): Int {
        val at = (top + align - 1) and (align - 1).inv()
        val end = at + n
        if (end > b.size || end < 0) throw Regrow(end)
        top = end
        return at
    }

    fun ptr(at: Int, o: Int) { Img.I64.set(b, at, base + o) }

    /** Pointer to [o] and the count [n] after it (strings, binaries, arrays, lists, maps). */
    fun span(at: Int, o: Int, n: Int) {
        Img.I64.set(b, at, base + o)
        Img.I32.set(b, at + 8, n)
    }

    /** A null item or entry side: a NULL pointer or zeros (C writes null for a NULL pointer). */
    fun nul(s: Slot, at: Int) {
        if (!s.pointer) throw WireException("value", -1, "null in a list or map of non-nullable ${s.javaClass.simpleName.removeSuffix("Slot").lowercase()} items")
        Img.I64.set(b, at, 0L)
        if (s.hasAux) Img.I32.set(b, at + 8, 0)
    }

    /**
     * The image of a data class value; a value already written is shared under reference tracking.
     * The image is not cleared first (a fill per struct cost MediaContent's image 12-16 ns of
     * ~120): every byte libwire reads is written, a value or a null (a NULL pointer and a zero
     * count, [nul]; a presence byte 0).
     */
    fun struct(plan: MemPlan, v: Any): Int {
        val s = if (plan.referable) seen else null
        if (s != null) {
            val k = s.get(v)
            if (k >= 0) return k
        }
        if (++depth > maxDepth) throw WireException("depth", -1, "nesting deeper than $maxDepth (a cycle without reference tracking?)")
        val o = alloc(plan.size, 8)
        s?.putAfterGet(v, o)
        plan.write(this, o, v)
        depth--
        return o
    }

    /** [struct] written by [plan]'s generated codec [g] (a constant where the caller is generated code). */
    fun struct(plan: MemPlan, g: MemGen, v: Any): Int {
        val s = if (plan.referable) seen else null
        if (s != null) {
            val k = s.get(v)
            if (k >= 0) return k
        }
        if (++depth > maxDepth) throw WireException("depth", -1, "nesting deeper than $maxDepth (a cycle without reference tracking?)")
        val o = alloc(plan.size, 8)
        s?.putAfterGet(v, o)
        g.write(this, v, o)
        depth--
        return o
    }

    /** Scratch for the chars of a UTF-16 string. */
    private var chars = CharArray(256)

    /**
     * A string in the encoding the Java runtime writes it in (Latin-1 when every char fits, else
     * UTF-8 or UTF-16 by its sampling rule, spec R-WSTR-1), as the JVM holds it: the length word
     * is the wire header (`WIRE_MEM_STR_TAGGED`), so C copies the bytes as they are.
     *
     * Public API cannot tell a compact (Latin-1) `String` from a UTF-16 one. A char loop costs
     * 0.5-1 ns a char in place (README), so ASCII text from [PROBE] chars on is found by the
     * JDK's UTF-8 encoder instead (vectorized; for ASCII its output is a copy of the string's own
     * bytes), unless its first, middle or last char already says it is not ASCII (text with a
     * UTF-16 char would be encoded for nothing). Else the char loop, then the string's Latin-1
     * bytes (`getBytes(int, int, byte[], int)`, an array copy), UTF-8, or its chars in one bulk
     * copy.
     */
    fun string(at: Int, s: String) {
        // (the usual case, a compact String, in a method small enough to be inlined where it is called)
        if (JStr.OPEN && (JStr.CODER.get(s) as Byte).toInt() == 0) {
            val v = JStr.VALUE.get(s) as ByteArray
            val m = v.size
            if (m < 1 shl 30) {
                val o = alloc(m, 1)
                val b = b
                System.arraycopy(v, 0, b, o, m)
                Img.I64.set(b, at, base + o)
                Img.I32.set(b, at + 8, (m shl 2) or WireH.STR_LATIN1)
                return
            }
        }
        stringSlow(at, s)
    }

    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    private fun stringSlow(at: Int, s: String) {
        if (JStr.OPEN) {
            val latin1 = (JStr.CODER.get(s) as Byte).toInt() == 0
            if (latin1 || !javaPicksUtf8(JStr.VALUE.get(s) as ByteArray)) {
                // the String's own bytes, one array copy: a compact String is Latin-1, any other
                // holds a char above 0xff and is UTF-16 (little-endian: JStr.OPEN checks)
                val v = JStr.VALUE.get(s) as ByteArray
                val m = v.size
                if (m >= 1 shl 30) throw WireException("length", -1, "a string of more than 2^30 - 1 bytes")
                val o = alloc(m, if (latin1) 1 else 2)
                System.arraycopy(v, 0, b, o, m)
                Img.I64.set(b, at, base + o)
                Img.I32.set(b, at + 8, (m shl 2) or (if (latin1) WireH.STR_LATIN1 else WireH.STR_UTF16))
                return
            }
        }
        val n = s.length
        if (n >= PROBE && s[0].code < 0x80 && s[n - 1].code < 0x80 && s[n ushr 1].code < 0x80) {
            val u = s.toByteArray(Charsets.UTF_8)
            if (u.size == n) {
                val o = alloc(n, 1)
                System.arraycopy(u, 0, b, o, n)
                Img.I64.set(b, at, base + o)
                Img.I32.set(b, at + 8, (n shl 2) or WireH.STR_LATIN1) // n < 2^29: the image is an array
                return
            }
        }
        var i = 0
        while (i < n && s[i].code <= 0xff) i++
        val hdr: Long
        if (i == n) {
            val o = alloc(n, 1)
            (s as java.lang.String).getBytes(0, n, b, o)
            Img.I64.set(b, at, base + o)
            hdr = (n.toLong() shl 2) or WireH.STR_LATIN1.toLong()
        } else if (i >= (minOf(64, n) and 3.inv()) && javaPicksUtf8(s)) {
            // (a char above 0xff among the sampled chars makes the sample non-ASCII: UTF-16)
            val u = s.toByteArray(Charsets.UTF_8)
            val o = alloc(u.size, 1)
            System.arraycopy(u, 0, b, o, u.size)
            Img.I64.set(b, at, base + o)
            hdr = (u.size.toLong() shl 2) or WireH.STR_UTF8.toLong()
        } else {
            val o = alloc(2 * n, 2)
            var c = chars
            if (c.size < n) { c = CharArray(maxOf(n, 2 * c.size)); chars = c }
            s.toCharArray(c, 0, 0, n)
            // (a loop: MemorySegment.copy between heap arrays costs more for short strings)
            for (k in 0 until n) Img.I16.set(b, o + 2 * k, c[k].code.toShort())
            Img.I64.set(b, at, base + o)
            hdr = (2L * n shl 2) or WireH.STR_UTF16.toLong()
        }
        if (hdr > 0xffffffffL) throw WireException("length", -1, "a string of more than 2^30 - 1 bytes")
        Img.I32.set(b, at + 8, hdr.toInt())
    }

    private companion object {
        /** Strings at least this long are checked for ASCII by the JDK's UTF-8 encoder (-Dlibwire.asciiProbe=N). */
        @JvmField val PROBE = Integer.getInteger("libwire.asciiProbe", 8)
        /** The bits of four UTF-16LE chars in a word that are 0 when all four are ASCII (0xff80 each). */
        const val NOT_ASCII16 = -0x007F007F007F0080L
    }

    /** [javaPicksUtf8] on the UTF-16LE bytes [v] of a String (a char is ASCII when its high byte is 0 and its low one below 0x80). */
    private fun javaPicksUtf8(v: ByteArray): Boolean {
        val m = minOf(64, v.size ushr 1)
        val whole = m and 3.inv()
        val count = if (whole < m) whole + 1 else whole // chars [0, count) are sampled
        var k = 0
        // four chars a word (a char is ASCII when no bit outside 0x7f is set)
        while (k + 4 <= count) {
            if ((Img.I64.get(v, 2 * k) as Long) and NOT_ASCII16 != 0L) return false
            k += 4
        }
        while (k < count) {
            if (v[2 * k + 1].toInt() != 0 || v[2 * k] < 0) return false
            k++
        }
        return true
    }

    /** Fory Java's choice between UTF-8 and UTF-16 for text that is not Latin-1 (spec R-WSTR-1). */
    private fun javaPicksUtf8(s: String): Boolean {
        val m = minOf(64, s.length)
        val whole = m and 3.inv()
        var ascii = 0
        for (k in 0 until whole) if (s[k].code < 0x80) ascii++
        if (whole < m && s[whole].code < 0x80) ascii += m - whole
        return ascii == m
    }
}

/**
 * A `String`'s own bytes and coder (0 = Latin-1, 1 = UTF-16), readable when the JVM opens
 * `java.lang` to the binding (`--add-opens java.base/java.lang=ALL-UNNAMED`, or the binding's
 * module): Latin-1 strings are then copied to the image without finding out first, through public
 * API, whether every char fits in a byte. [OPEN] is false otherwise (or with
 * `-Dlibwire.stringInternals=false`), and the public-API path is taken.
 */
internal object JStr {
    @JvmField val VALUE: java.lang.invoke.VarHandle
    @JvmField val CODER: java.lang.invoke.VarHandle
    /** `String(byte[] value, byte coder)`, the runtime's own constructor: the array becomes the string's. */
    @JvmField val NEW: MethodHandle
    @JvmField val OPEN: Boolean

    init {
        var v: java.lang.invoke.VarHandle? = null
        var c: java.lang.invoke.VarHandle? = null
        var k: MethodHandle? = null
        if (System.getProperty("libwire.stringInternals") != "false" &&
            String::class.java.module.isOpen("java.lang", JStr::class.java.module)
        ) {
            try {
                val l = MethodHandles.privateLookupIn(String::class.java, MethodHandles.lookup())
                val value = l.findVarHandle(String::class.java, "value", ByteArray::class.java)
                val coder = l.findVarHandle(String::class.java, "coder", Byte::class.javaPrimitiveType)
                val ctor = l.findConstructor(
                    String::class.java,
                    MethodType.methodType(Void.TYPE, ByteArray::class.java, Byte::class.javaPrimitiveType),
                )
                // the layout this relies on: Latin-1 text as coder 0 and one byte per char
                // and UTF-16 text (a String with a char above 0xff) as coder 1, two bytes per char,
                // little-endian (as the wire wants it)
                val probe = "probe\u00e9"
                val wide = String(charArrayOf('\u1234', 'a'))
                val wv = value.get(wide) as ByteArray
                if ((coder.get(probe) as Byte).toInt() == 0 && (value.get(probe) as ByteArray).size == probe.length &&
                    (coder.get(wide) as Byte).toInt() == 1 && wv.size == 4 &&
                    wv[0] == 0x34.toByte() && wv[1] == 0x12.toByte() && wv[2] == 'a'.code.toByte() && wv[3] == 0.toByte() &&
                    ctor.invoke(wv.copyOf(), 1.toByte()) == wide && ctor.invoke(byteArrayOf(0x70, 0xe9.toByte()), 0.toByte()) == "p\u00e9"
                ) {
                    v = value
                    c = coder
                    k = ctor
                }
            } catch (_: ReflectiveOperationException) {
            } catch (_: RuntimeException) {
            }
        }
        OPEN = v != null
        NEW = k ?: MethodHandles.throwException(String::class.java, IllegalStateException::class.java)
            .let { MethodHandles.dropArguments(MethodHandles.insertArguments(it, 0, IllegalStateException("java.lang is not open")), 0, ByteArray::class.java, Byte::class.javaPrimitiveType) }
        // (unused when closed: any handle of the right shape)
        VALUE = v ?: MethodHandles.arrayElementVarHandle(Array<ByteArray>::class.java)
        CODER = c ?: MethodHandles.arrayElementVarHandle(ByteArray::class.java)
    }

    /** The high bytes of four UTF-16LE chars in a word. */
    private const val HIGH16 = -0x00FF00FF00FF0100L

    /**
     * The string of the UTF-16LE text in `a[o, o + n)` (n even) when [OPEN]: one array copy that
     * becomes the String's own (a String with a char above 0xff holds its chars as UTF-16 in the
     * machine's order, little-endian here). Text whose chars all fit in a byte is a compact
     * (Latin-1) String in the runtime, so it is made one, as `String(char[])` would. Null when
     * closed or n is odd (the caller's own path then).
     */
    @JvmStatic fun utf16(a: ByteArray, o: Int, n: Int): String? {
        if (!OPEN || n and 1 != 0) return null
        return utf16Open(a, o, n)
    }

    /** [utf16] when [OPEN] and n is even (checked by the caller). */
    @JvmStatic fun utf16Open(a: ByteArray, o: Int, n: Int): String {
        val end = o + n
        // the high bytes of every char ORed together, four chars a word with no branch per word and
        // the last word overlapping the one before it (text of 8 bytes and more; shorter, char by
        // char): a String with a char above 0xff is the usual case (the writer chose UTF-16 for it).
        // Before that loop, the last four chars and the first four are tested alone: text whose
        // chars above 0xff are many (CJK) or lie at either end (MediaContent's two) is known wide
        // after one or two words (round 28b in ROUNDS.md)
        var hi = 0L
        if (n >= 8) {
            hi = (Img.I64.get(a, end - 8) as Long) and HIGH16
            if (hi == 0L) hi = (Img.I64.get(a, o) as Long) and HIGH16
            if (hi == 0L) {
                var i = o + 8
                while (i + 8 < end) { hi = hi or (Img.I64.get(a, i) as Long); i += 8 }
                hi = hi and HIGH16
            }
        } else {
            var k = o + 1
            while (k < end) { hi = hi or a[k].toLong(); k += 2 }
        }
        if (hi != 0L) {
            val v = ByteArray(n)
            System.arraycopy(a, o, v, 0, n)
            return NEW.invokeExact(v, 1.toByte()) as String
        }
        val m = n ushr 1
        val l = ByteArray(m)
        for (i in 0 until m) l[i] = a[o + 2 * i]
        return NEW.invokeExact(l, 0.toByte()) as String
    }
}

/** Reads decoded images from the heap copy [b] of the native arena at [base]. */
internal class MemReader {
    @JvmField var b = ByteArray(0)
    @JvmField var base = 0L
    @JvmField var track = false
    /** Under reference tracking: the object built from the struct image at offset 8k, at k. */
    private var objs = arrayOfNulls<Any>(0)
    private var touched = IntArray(64)
    private var ntouched = 0

    /** A constructor met a null while this message was read (set by the refusal, [MemPlan.read]). */
    @JvmField var nullMet = false

    fun reset(heap: ByteArray, native: Long, track: Boolean, used: Int) {
        b = heap
        base = native
        this.track = track
        nullMet = false
        for (i in 0 until ntouched) objs[touched[i]] = null
        ntouched = 0
        if (track && objs.size <= used ushr 3) objs = arrayOfNulls(maxOf(objs.size * 2, (used ushr 3) + 1))
    }

    fun struct(plan: MemPlan, o: Int): Any {
        if (!track) return plan.read(this, o)
        val k = o ushr 3 // struct images are 8-aligned
        val x = objs[k]
        if (x != null) {
            if (x === BUILDING) throw WireException("ref", -1, "a cycle through a struct cannot be built into immutable objects")
            return x
        }
        objs[k] = BUILDING
        if (ntouched == touched.size) touched = touched.copyOf(ntouched * 2)
        touched[ntouched++] = k
        val v = plan.read(this, o)
        objs[k] = v
        return v
    }

    private object BUILDING

    /** The caller's payload, whose native copy starts at [srcBase]. */
    private var src = ByteArray(0)
    private var srcBase = 0L
    /** The offset in the array [bytes] returned. */
    @JvmField var pos = 0

    fun source(bytes: ByteArray, native: Long) {
        src = bytes
        srcBase = native
    }

    /** The array holding [n] bytes at native address [p] (the payload or the arena copy); their offset in [at]. */
    fun bytes(p: Long, n: Int): ByteArray {
        val d = p - srcBase
        if (d >= 0 && d + n <= src.size) {
            pos = d.toInt()
            return src
        }
        pos = off(p)
        if (pos + n > b.size) throw WireException("state", -1, "a decoded pointer outside the arena")
        return b
    }

    /** The count of the last [items]. */
    @JvmField var count = 0

    /** Pointer and count at [at] (arrays, lists): the offset of the items in [b] (the count in [count]), or -1 for a NULL pointer. */
    fun items(at: Int): Int {
        val p = Img.I64.get(b, at) as Long
        if (p == 0L) return -1
        val n = Img.I32.get(b, at + 8) as Int
        count = n
        ib = b
        return if (n == 0) 0 else off(p)
    }

    /** The array the items of the last [arrayItems] are in (the arena copy, or the payload). */
    @JvmField var ib = ByteArray(0)

    /**
     * [items] of a dense array, which points into the payload under `WIRE_MEM_ARRAYS_IN_PLACE`
     * (unaligned; else into the arena): the offset of the items in [ib].
     */
    fun arrayItems(at: Int): Int {
        val p = Img.I64.get(b, at) as Long
        if (p == 0L) return -1
        val n = Img.I32.get(b, at + 8) as Int
        count = n
        if (n == 0) { ib = b; return 0 }
        val d = p - srcBase
        if (d >= 0 && d <= src.size) { ib = src; return d.toInt() }
        ib = b
        return off(p)
    }

    fun off(p: Long): Int {
        val o = p - base
        if (o < 0 || o > b.size) throw WireException("state", -1, "a decoded pointer outside the arena")
        return o.toInt()
    }

    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    /** A string left in its wire encoding by the decoder (`WIRE_MEM_STR_TAGGED`: header in the length word). */
    fun string(at: Int): String? {
        val b = b
        val p = Img.I64.get(b, at) as Long
        if (p == 0L) return null
        val h = Img.I32.get(b, at + 8) as Int
        val n = h ushr 2
        if (n == 0) return "" // (any encoding)
        // (the usual case, Latin-1 text in the payload, in a method small enough to be inlined)
        if (h and 3 == WireH.STR_LATIN1) {
            val d = p - srcBase
            val a = src
            if (d >= 0 && d <= a.size - n) return latin1(a, d.toInt(), n)
        }
        return stringSlow(p, h)
    }

    /**
     * The string of the Latin-1 bytes `a[o, o + n)`: with `java.lang` open, a new array the bytes
     * are copied into becomes the String's own (`String(byte[], coder)`, as the JDK makes its
     * compact strings: one allocation that is not zeroed first, no bounds checks of the
     * constructor's); else `String(byte[], hibyte = 0, ...)`, one copy too.
     */
    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    private fun latin1(a: ByteArray, o: Int, n: Int): String {
        if (!JStr.OPEN) return java.lang.String(a, 0, o, n) as String
        val v = ByteArray(n)
        System.arraycopy(a, o, v, 0, n)
        return JStr.NEW.invokeExact(v, 0.toByte()) as String
    }

    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    private fun stringSlow(p: Long, h: Int): String {
        val n = h ushr 2
        if (n == 0) return ""
        if (h and 3 == WireH.STR_UTF16 && JStr.OPEN && n and 1 == 0) {
            // (UTF-16 text in the payload: here, not in [string], which stays small enough to be
            // inlined for the Latin-1 case)
            val d = p - srcBase
            if (d >= 0 && d <= src.size - n) return JStr.utf16Open(src, d.toInt(), n)
        }
        val a = bytes(p, n)
        val o = pos
        return when (h and 3) {
            // String(byte[], hibyte = 0, ...): the Latin-1 bytes become the string's own array in
            // one copy (measured 8.8 ns against 11.2 for String(bytes, ISO_8859_1))
            WireH.STR_LATIN1 -> latin1(a, o, n)
            WireH.STR_UTF16 -> JStr.utf16(a, o, n) ?: run {
                // into scratch chars, then the String (ProfileMain u16, a 16-char string: this
                // loop 21 ns, MemorySegment.copy into the chars 32, the JDK's UTF-16LE decoder 56)
                val m = n ushr 1
                var c = chars
                if (c.size < m) { c = CharArray(maxOf(m, 2 * c.size)); chars = c }
                for (k in 0 until m) c[k] = (Img.I16.get(a, o + 2 * k) as Short).toInt().toChar()
                String(c, 0, m)
            }
            else -> String(a, o, n, Charsets.UTF_8)
        }
    }

    private var chars = CharArray(256)

}

/**
 * The compiled-codec side of a [Context]: plans per data class (made on first use), the layouts in
 * libwire, and the buffers reused per message.
 */
/**
 * The number an encode image's pointers count from when C reads the image where the heap array is
 * (wire_mem_encode_based): any but 0 (a NULL pointer is 0).
 */
private const val IMAGE_BASE = 1L shl 32

internal class MemCodec(private val ctx: Context) {
    companion object {
        /** Root TypeDef headers a plan remembers as lacking fields ([MemPlan.lacking]). */
        const val LACKING = 8
    }

    private val plans = HashMap<Class<*>, MemPlan?>()
    /** The [MemPlan.marked] plans, made on first need ([markedOf]). */
    private val markedPlans = HashMap<Class<*>, MemPlan?>()
    /** Why a class has no plan (it goes through the tape codec). */
    val reasons = HashMap<Class<*>, String>()
    private val writer = MemWriter()
    private val reader = MemReader()
    /** The native copy of the encode image (as large as [MemWriter.b]). */
    private var image: MemorySegment = MemorySegment.NULL
    /** The decode arena (root image at 0) and its heap copy. */
    private var arena: MemorySegment = MemorySegment.NULL
    private var mirror = ByteArray(0)
    /** A heap segment of [mirror], made again only when [mirror] is replaced (one allocation less per decode). */
    private var mirrorSeg: MemorySegment = MemorySegment.ofArray(mirror)
    private var mirrorSegOf = mirror
    private fun mirrorSegment(): MemorySegment {
        val a = mirror
        if (mirrorSegOf === a) return mirrorSeg
        mirrorSegOf = a
        return MemorySegment.ofArray(a).also { mirrorSeg = it }
    }
    /** The native copy of the payload being decoded. */
    private var input: MemorySegment = MemorySegment.NULL
    /** The root-finding of untyped decodes (Roots.kt). */
    internal val roots = Roots(ctx, this)
    /** The plan of the root of [bytes] when it is a registered data class this context can read directly. */
    fun rootPlan(bytes: ByteArray): MemPlan? = roots.plan(bytes)

    /** Forgets every plan (the schema or the bindings changed); layouts made so far stay unused in C. */
    fun reset() {
        plans.clear()
        markedPlans.clear()
        reasons.clear()
        roots.reset()
        lastClass = null
        lastPlan = null
    }

    /** The class asked for last and its plan (one comparison instead of two map lookups per message). */
    private var lastClass: Class<*>? = null
    private var lastPlan: MemPlan? = null

    fun planOf(c: Class<*>): MemPlan? {
        if (c === lastClass) return lastPlan
        val p = findPlan(c)
        lastClass = c
        lastPlan = p
        return p
    }

    private fun findPlan(c: Class<*>): MemPlan? {
        if (plans.containsKey(c)) return plans[c]
        val created = ArrayList<MemPlan>()
        try {
            val p = build(c, created)
            bindAll(p, created)
            for (q in created) q.check = reaches(q, java.util.IdentityHashMap())
            return p
        } catch (e: NoLayout) {
            for (q in created) plans.remove(q.cls)
            plans[c] = null
            reasons[c] = e.message ?: "no layout"
            return null
        }
    }

    /** The layouts of the plans [created] (root [p] among them) made in libwire, and [p]'s bound. */
    private fun bindAll(p: MemPlan, created: List<MemPlan>) {
        for (q in created) {
            check(Native.mem_layout_new.invokeExact(ctx.ptr, q.typeIndex, q.size, ctx.out) as Int)
            q.layout = ctx.out.get(ValueLayout.JAVA_INT, 0)
        }
        for (q in created) rows(q)
        val st = Native.mem_bind.invokeExact(ctx.ptr, p.layout) as Int
        if (st != 0) throw NoLayout(ctx.error(st).detail)
    }

    /**
     * The [MemPlan.marked] twin of [p] (and of the classes it holds), made and bound the first time a
     * message needs it: the same fields and slots, a presence byte on each, marked.
     */
    fun markedOf(p: MemPlan): MemPlan {
        p.markedPlan?.let { return it }
        val created = ArrayList<MemPlan>()
        try {
            val m = build(p.cls, created, true)
            bindAll(m, created)
            p.markedPlan = m
            return m
        } catch (e: NoLayout) {
            for (q in created) markedPlans.remove(q.cls)
            throw WireException("state", -1, "${p.cls.simpleName}: no layout to tell the fields a writer lacks: ${e.message}")
        }
    }

    /** Whether [p] or a class it holds (fields, list items, map entries) is [MemPlan.unsafe]. */
    private fun reaches(p: MemPlan, seen: java.util.IdentityHashMap<MemPlan, Unit>): Boolean {
        if (seen.put(p, Unit) != null) return false
        if (p.unsafe) return true
        fun via(s: Slot): Boolean = when (s) {
            is StructSlot -> reaches(s.plan, seen)
            is ListSlot -> via(s.item.slot)
            is MapSlot -> via(s.key.slot) || via(s.value.slot)
            else -> false
        }
        return p.fields.any { via(it.slot) }
    }

    /**
     * Whether libwire's zeroing of field [f] (property [fi]) for a writer that lacks it reads
     * otherwise than the rule ([MemPlan.unsafe]): a declared default; a nullable property read
     * without a presence byte or pointer (a zero, not null); or a value that is neither a number nor
     * a bool nor held by pointer (an enum, date, timestamp, duration or decimal: a zero, not the
     * refusal). A NULL pointer for a property that is not nullable fails in the constructor.
     */
    private fun unsafe(fi: FieldInfo, f: MemField): Boolean =
        fi.param.isOptional ||
            (fi.nullable && !f.slot.pointer && f.present < 0) ||
            (!fi.nullable && !f.slot.pointer && ClassInfo.zeroOf(fi.type) == null)

    private fun check(st: Int) {
        if (st != 0) throw NoLayout(ctx.error(st).detail)
    }

    private fun build(c: Class<*>, created: ArrayList<MemPlan>, marked: Boolean = false): MemPlan {
        val plans = if (marked) markedPlans else plans
        if (plans.containsKey(c)) return plans[c] ?: throw NoLayout("${c.simpleName} has no layout: ${reasons[c]}")
        val bd = ctx.boundClass(c) ?: throw NoLayout("${c.simpleName} is not registered")
        val info = bd.info ?: throw NoLayout("${c.simpleName} is not a data class")
        if (ctx.typeKind(bd.typeIndex) != 1) throw NoLayout("${c.simpleName} is bound to a type that is not a struct")
        if (info.hasValueClass) throw NoLayout("${c.simpleName} has a property of a value class type")
        val plan = MemPlan(c, info, bd.typeIndex)
        plan.marked = marked
        plans[c] = plan
        created.add(plan)
        val t = bd.typeIndex
        val n = Native.schema_field_count.invokeExact(ctx.ptr, t) as Int
        val order = IntArray(n)
        if (n > 0) {
            val seg = ctx.arena.allocate(4L * n, 4)
            check(Native.schema_field_order.invokeExact(ctx.ptr, t, seg, n.toLong(), ctx.out8) as Int)
            for (i in 0 until n) order[i] = seg.get(ValueLayout.JAVA_INT, 4L * i)
        }
        val lookup = MethodHandles.lookup()
        val fields = ArrayList<MemField>()
        var at = 0
        val presents = ArrayList<Int>()
        val matched = HashSet<FieldInfo>()
        for (i in 0 until n) {
            check(Native.schema_field.invokeExact(ctx.ptr, t, i, ctx.out, ctx.out8, MemorySegment.NULL, ctx.out16) as Int)
            val name = Native.cString(ctx.out.get(ValueLayout.ADDRESS, 0))
            val d = declType(ctx.out16.get(ValueLayout.ADDRESS, 0))
            val f = name?.let { info.byWireName[it] }
            if (f == null) {
                if (d.nullable) continue // not in the class: written as null, skipped when read
                throw NoLayout("${c.simpleName} has no property for the field ${name ?: "#$i"}")
            }
            matched.add(f)
            val slot = slotFor(f.param.type, d, "${c.simpleName}.${f.wireName}", created, marked)
            val rt = f.getter.returnType
            val needPresent = !slot.pointer && d.nullable
            val kind = when {
                needPresent || f.wireType >= 0 -> MemPlan.K_ANY
                rt == Int::class.javaPrimitiveType -> MemPlan.K_I32
                rt == Long::class.javaPrimitiveType -> MemPlan.K_I64
                rt == Double::class.javaPrimitiveType -> MemPlan.K_F64
                rt == Float::class.javaPrimitiveType -> MemPlan.K_F32
                rt == Boolean::class.javaPrimitiveType -> MemPlan.K_BOOL
                rt == Short::class.javaPrimitiveType -> MemPlan.K_I16
                rt == Byte::class.javaPrimitiveType -> MemPlan.K_I8
                else -> MemPlan.K_ANY
            }
            val mh = lookup.unreflect(f.getter)
            val g = if (kind == MemPlan.K_ANY) mh.asType(MethodType.methodType(Any::class.java, Any::class.java))
            else mh.asType(MethodType.methodType(rt, Any::class.java))
            val align = when { slot.size >= 8 -> 8; slot.size >= 4 -> 4; else -> slot.size }
            at = (at + align - 1) and (align - 1).inv()
            // (a marked plan: a presence byte on every field, the kind kept)
            val pr = if (needPresent || marked) -2 - presents.size.also { presents.add(fields.size) } else -1
            fields.add(MemField(kind, at, pr, slot, g, f.index, d.nullable, f.wireName, order[i]))
            at += slot.size
        }
        for (f in info.fields) if (f !in matched) throw NoLayout("${c.simpleName}.${f.wireName} is not a field of the struct")
        // presence bytes after the values
        val fs = fields.toTypedArray()
        for ((k, idx) in presents.withIndex()) {
            val f = fs[idx]
            fs[idx] = MemField(f.kind, f.offset, at + k, f.slot, f.getter, f.arg, f.nullable, f.name, f.decl)
        }
        at += presents.size
        plan.fields = fs
        plan.unsafe = fs.any { unsafe(info.fields[it.arg], it) }
        plan.size = maxOf(8, (at + 7) and 7.inv())
        plan.flat = fs.all { !it.slot.pointer && it.slot !== DecimalSlot }
        plan.initCtor()
        return plan
    }

    /** How a property of Kotlin type [kt] carries declared type [d]. */
    private fun slotFor(kt: KType, d: DeclType, where: String, created: ArrayList<MemPlan>, marked: Boolean): Slot {
        val k = kt.jvmErasure.javaObjectType
        fun no(): Nothing = throw NoLayout("$where: a ${kt} cannot carry ${TypeId.name(d.typeId)}")
        val t = d.typeId
        return when {
            t == TypeId.STRUCT -> {
                val nested = ctx.boundType(d.user)?.info?.kclass?.java ?: throw NoLayout("$where: struct ${ctx.typeName(d.user)} has no bound class")
                if (nested != kt.jvmErasure.java) no()
                StructSlot(build(nested, created, marked).also { if (d.ref || (d.nullable && peerFrames)) it.referable = true })
            }
            t == TypeId.ENUM -> {
                val e = ctx.boundType(d.user)?.enumInfo ?: throw NoLayout("$where: enum ${ctx.typeName(d.user)} has no bound class")
                if (!Enum::class.java.isAssignableFrom(k)) no()
                if (e.wire == null) EnumSlot(e.constants, kt.jvmErasure.java) else MappedEnumSlot(e, kt.jvmErasure.java)
            }
            t == TypeId.UNION || t == TypeId.EXT || t == TypeId.UNKNOWN -> throw NoLayout("$where: ${TypeId.name(t)} fields have no memory form")
            t in TypeId.INT8..TypeId.TAGGED_UINT64 -> when (k) {
                java.lang.Byte::class.java -> IntSlot(WireH.MEM_I8, 1, 0)
                java.lang.Short::class.java -> IntSlot(WireH.MEM_I16, 2, 1)
                java.lang.Integer::class.java -> IntSlot(WireH.MEM_I32, 4, 2)
                java.lang.Long::class.java -> IntSlot(WireH.MEM_I64, 8, 3)
                else -> no()
            }
            t == TypeId.BOOL -> if (k == java.lang.Boolean::class.java) BoolSlot else no()
            t == TypeId.FLOAT32 || t == TypeId.FLOAT64 -> when (k) {
                java.lang.Float::class.java -> F32Slot
                java.lang.Double::class.java -> F64Slot
                else -> no()
            }
            t == TypeId.STRING -> if (k == String::class.java) StrSlot else no()
            t == TypeId.BINARY -> if (k == ByteArray::class.java) BytesSlot else no()
            t == TypeId.DATE -> if (k == LocalDate::class.java) DateSlot else no()
            t == TypeId.TIMESTAMP -> if (k == Instant::class.java) TimeSlot(false) else no()
            t == TypeId.DURATION -> if (k == Duration::class.java) TimeSlot(true) else no()
            t == TypeId.DECIMAL -> if (k == BigDecimal::class.java) DecimalSlot else no()
            TypeId.arrayWidth(t) > 0 || ((t == TypeId.LIST || t == TypeId.SET) && primArrayWidth(k) > 0) -> {
                val et = if (TypeId.arrayWidth(t) > 0) arrayElem(t) else d.elem?.typeId ?: no()
                val w = primArrayWidth(k)
                if (w <= 0 || naturalWidth(et, k) != w) no()
                ArraySlot(w, k)
            }
            t == TypeId.LIST || t == TypeId.SET -> {
                if (!Collection::class.java.isAssignableFrom(k) && !k.isArray) no()
                val et = kt.arguments.firstOrNull()?.type ?: no()
                val item = slotFor(et, d.elem ?: no(), "$where[]", created, marked)
                ListSlot(Elem(item, et.isMarkedNullable && !item.pointer), Set::class.java.isAssignableFrom(k), isReadOnlyList(kt))
            }
            t == TypeId.MAP -> {
                if (!Map::class.java.isAssignableFrom(k)) no()
                val kt0 = kt.arguments.getOrNull(0)?.type ?: no()
                val vt0 = kt.arguments.getOrNull(1)?.type ?: no()
                val ks = slotFor(kt0, d.key ?: no(), "$where.key", created, marked)
                val vs = slotFor(vt0, d.value ?: no(), "$where.value", created, marked)
                MapSlot(Elem(ks, kt0.isMarkedNullable && !ks.pointer), Elem(vs, vt0.isMarkedNullable && !vs.pointer))
            }
            else -> no()
        }
    }

    /** A peer's framing (`WIRE_OPT_PEER`) may track struct fields not declared `ref` (Go: the nullable ones). */
    private val peerFrames: Boolean get() = ctx.peerOption != Peer.NONE

    private fun primArrayWidth(k: Class<*>): Int = when (k) {
        IntArray::class.java, FloatArray::class.java -> 4
        LongArray::class.java, DoubleArray::class.java -> 8
        ShortArray::class.java -> 2
        BooleanArray::class.java -> 1
        else -> 0
    }

    /** Natural packed width of element type [t] in libwire's memory form, if [k] holds that kind. */
    private fun naturalWidth(t: Int, k: Class<*>): Int = when (t) {
        TypeId.BOOL -> if (k == BooleanArray::class.java) 1 else 0
        TypeId.INT16 -> if (k == ShortArray::class.java) 2 else 0
        TypeId.INT32, TypeId.VARINT32 -> if (k == IntArray::class.java) 4 else 0
        TypeId.INT64, TypeId.VARINT64, TypeId.TAGGED_INT64 -> if (k == LongArray::class.java) 8 else 0
        TypeId.FLOAT32 -> if (k == FloatArray::class.java) 4 else 0
        TypeId.FLOAT64 -> if (k == DoubleArray::class.java) 8 else 0
        else -> 0
    }

    private fun arrayElem(t: Int): Int = when (t) {
        TypeId.BOOL_ARRAY -> TypeId.BOOL
        TypeId.INT8_ARRAY -> TypeId.INT8
        TypeId.INT16_ARRAY -> TypeId.INT16
        TypeId.INT32_ARRAY -> TypeId.INT32
        TypeId.INT64_ARRAY -> TypeId.INT64
        TypeId.FLOAT32_ARRAY -> TypeId.FLOAT32
        TypeId.FLOAT64_ARRAY -> TypeId.FLOAT64
        else -> -1
    }

    private fun declType(ft: MemorySegment): DeclType {
        val o = ctx.arena.allocate(48, 8)
        check(
            Native.schema_field_type_info.invokeExact(
                ft, o, o.asSlice(4), o.asSlice(8), o.asSlice(12), o.asSlice(16), o.asSlice(24), o.asSlice(32),
            ) as Int,
        )
        fun sub(at: Long): DeclType? {
            val p = o.get(ValueLayout.ADDRESS, at)
            return if (p.address() == 0L) null else declType(p)
        }
        return DeclType(
            o.get(ValueLayout.JAVA_INT, 0), o.get(ValueLayout.JAVA_INT, 4) != 0, o.get(ValueLayout.JAVA_INT, 8) != 0,
            o.get(ValueLayout.JAVA_INT, 12), sub(16), sub(24), sub(32),
        )
    }

    /** The layout rows of a plan (and the element layouts its lists and maps need). */
    private fun rows(p: MemPlan) {
        for (f in p.fields) {
            prepare(f.slot)
            field(p.layout, f.decl, f.slot, f.offset, if (f.present >= 0) f.present else NONE, p.marked)
        }
    }

    private fun field(layout: Int, decl: Int, s: Slot, off: Int, present: Int, mark: Boolean = false) {
        check(
            Native.mem_layout_field.invokeExact(
                ctx.ptr, layout, decl, if (mark) s.form or WireH.MEM_MARK_ABSENT else s.form, off, if (s.hasAux) off + 8 else NONE, present, s.elem(),
            ) as Int,
        )
    }

    private fun prepare(s: Slot) {
        when (s) {
            is ListSlot -> if (s.elemLayout == NONE) {
                val item = s.item
                prepare(item.slot)
                s.elemLayout = element(s.stride)
                field(s.elemLayout, 0, item.slot, 0, if (item.present) item.slot.size else NONE)
            }
            is MapSlot -> if (s.elemLayout == NONE) {
                prepare(s.key.slot)
                prepare(s.value.slot)
                s.elemLayout = element(s.stride)
                field(s.elemLayout, 0, s.key.slot, 0, if (s.key.present) s.key.slot.size else NONE)
                field(s.elemLayout, 1, s.value.slot, s.valueAt, if (s.value.present) s.valueAt + s.value.slot.size else NONE)
            }
            else -> {}
        }
    }

    private fun element(stride: Int): Int {
        check(Native.mem_layout_new.invokeExact(ctx.ptr, WireH.MEM_ELEMENT.toInt(), stride, ctx.out) as Int)
        return ctx.out.get(ValueLayout.JAVA_INT, 0)
    }

    // ------------------------------------------------------------------ messages
    /** Only the JVM half of [encode]: the image, written in the heap array (benchmark breakdown). */
    internal fun imageOnly(plan: MemPlan, v: Any): Int {
        if (!plan.flat && !BASED && image.byteSize() < writer.b.size) image = ctx.arena.allocate(writer.b.size.toLong(), 8)
        writer.reset(if (plan.flat) 0L else if (BASED) IMAGE_BASE else image.address(), ctx.refTrackingOption, ctx.maxDepth)
        writer.struct(plan, v)
        return writer.top
    }

    /** Only the native half of [decode]: the call (and the copies of the copying path; benchmark breakdown). */
    internal fun nativeOnly(plan: MemPlan, bytes: ByteArray): Int {
        if (plan.flat) {
            val used = decodeFlat(plan, bytes)
            if (used >= 0) return used
        }
        if (Native.mem_decode_bases != null && !copying) return decodeHeap(plan, bytes)
        ctx.out.set(ValueLayout.JAVA_LONG, 0, plan.size.toLong())
        val st = Native.mem_decode.invokeExact(
            ctx.ptr, plan.layout, payload(bytes), bytes.size.toLong(), arena, arena, arena.byteSize(), ctx.out, 0,
        ) as Int
        if (st != 0) throw ctx.error(st)
        val used = Math.toIntExact(ctx.out.get(ValueLayout.JAVA_LONG, 0))
        MemorySegment.copy(arena, ValueLayout.JAVA_BYTE, 0, mirror, 0, used)
        return used
    }


    /**
     * Benchmark breakdown of a decode of many messages: the image [nativeOnly] wrote for [bytes]
     * (a copy of the arena's used bytes) and the two bases its pointers count from, for
     * [objectsFrom] to build the objects again later without the C call.
     */
    internal fun snapshot(plan: MemPlan, bytes: ByteArray): Triple<ByteArray, Long, Long> {
        val used = nativeOnly(plan, bytes)
        val heap = Native.mem_decode_bases != null && !copying
        return Triple(mirror.copyOf(used + 64), if (plan.flat) 0L else if (heap) arenaBase else arena.address(),
            if (plan.flat) 0L else if (heap) srcBase else input.address())
    }

    /** The objects of a [snapshot] of [bytes] built (the JVM half of decode only). */
    internal fun objectsFrom(plan: MemPlan, bytes: ByteArray, snap: Triple<ByteArray, Long, Long>): Any {
        reader.reset(snap.first, snap.second, ctx.refTrackingOption, snap.first.size)
        reader.source(bytes, snap.third)
        return reader.struct(plan, 0)
    }

    /** Only the JVM half of [decode], after [nativeOnly] of the same [bytes]: the objects built again. */
    internal fun objectsOnly(plan: MemPlan, bytes: ByteArray, used: Int): Any {
        val heap = Native.mem_decode_bases != null && !copying
        reader.reset(mirror, if (plan.flat) 0L else if (heap) arenaBase else arena.address(), ctx.refTrackingOption, used)
        reader.source(bytes, if (plan.flat) 0L else if (heap) srcBase else input.address())
        return reader.struct(plan, 0)
    }

    /** The reader as [objectsOnly] leaves it before the objects are built (benchmark breakdown per field). */
    internal fun readerFor(plan: MemPlan, bytes: ByteArray, used: Int): MemReader {
        val heap = Native.mem_decode_bases != null && !copying
        reader.reset(mirror, if (plan.flat) 0L else if (heap) arenaBase else arena.address(), ctx.refTrackingOption, used)
        reader.source(bytes, if (plan.flat) 0L else if (heap) srcBase else input.address())
        return reader
    }

    /**
     * Benchmark breakdown of [decode] (not flat) after one [nativeOnly] of the same [bytes]: 1 = copy
     * the payload to native, 2 = the wire_mem_decode call alone, 4 = copy the arena to the heap.
     */
    internal fun decodeStage(plan: MemPlan, bytes: ByteArray, stage: Int): Int {
        // (the copying path's buffers: decode no longer makes them when wire_mem_decode_bases is there)
        if (arena.byteSize() < plan.size + 4096L) arena = ctx.arena.allocate(maxOf(1L shl 16, 4 * (plan.size + 4096L)), 8)
        if (input.byteSize() < bytes.size) payload(bytes)
        if (stage and 1 != 0) payload(bytes)
        if (stage and 2 != 0) {
            ctx.out.set(ValueLayout.JAVA_LONG, 0, plan.size.toLong())
            val st = Native.mem_decode.invokeExact(
                ctx.ptr, plan.layout, input, bytes.size.toLong(), arena, arena, arena.byteSize(), ctx.out, 0,
            ) as Int
            if (st != 0) throw ctx.error(st)
        }
        val used = Math.toIntExact(ctx.out.get(ValueLayout.JAVA_LONG, 0))
        if (stage and 4 != 0) MemorySegment.copy(arena, ValueLayout.JAVA_BYTE, 0, mirror, 0, used)
        return used
    }

    /** Benchmark breakdown of [encode] after one [imageOnly]: 1 = copy the image to native, 2 = the call alone, 3 = both. */
    internal fun encodeStage(plan: MemPlan, stage: Int): Long {
        val based = !plan.flat && BASED
        if (stage and 1 != 0 && !plan.flat && !based) MemorySegment.copy(writer.b, 0, image, ValueLayout.JAVA_BYTE, 0, writer.top)
        if (stage and 2 != 0) {
            val st = if (based) {
                Native.mem_encode_based!!.invokeExact(ctx.ptr, plan.layout, MemorySegment.ofArray(writer.b), IMAGE_BASE, encPtr, encLen) as Int
            } else {
                val img = if (plan.flat) MemorySegment.ofArray(writer.b) else image
                Native.mem_encode.invokeExact(ctx.ptr, plan.layout, img, encPtr, encLen) as Int
            }
            if (st != 0) throw ctx.error(st)
        }
        return encLen.get(ValueLayout.JAVA_LONG, 0)
    }

    /**
     * Benchmark breakdown of [encode] of a based plan, message by message: 1 = the image, 2 = the C
     * call on the image in the writer's array, 4 = the result copied into a new array, 8 = the
     * result copied into [into] instead, 16 = that and `into.copyOf(n)`; returns the payload's length.
     */
    internal fun encodeSplit(plan: MemPlan, v: Any, stage: Int, into: ByteArray?): Int {
        if (stage and 1 != 0) imageOnly(plan, v)
        if (stage and 2 != 0) {
            val st = Native.mem_encode_based!!.invokeExact(ctx.ptr, plan.layout, MemorySegment.ofArray(writer.b), IMAGE_BASE, encPtr, encLen) as Int
            if (st != 0) throw ctx.error(st)
        }
        val n = encLen.get(ValueLayout.JAVA_LONG, 0).toInt()
        if (stage and 4 != 0) {
            val r = ByteArray(n)
            MemorySegment.copy(encPtr.get(ValueLayout.ADDRESS, 0).reinterpret(n.toLong()), ValueLayout.JAVA_BYTE, 0, r, 0, n)
            return r.size
        }
        if (stage and 8 != 0) MemorySegment.copy(encPtr.get(ValueLayout.ADDRESS, 0).reinterpret(n.toLong()), ValueLayout.JAVA_BYTE, 0, into!!, 0, n)
        if (stage and 16 != 0) return into!!.copyOf(n).size
        return n
    }

    /** Benchmark: the C call alone on a saved image [img] (a copy of the writer's array for one message). */
    internal fun encodeCallOn(plan: MemPlan, img: ByteArray): Int {
        val st = Native.mem_encode_based!!.invokeExact(ctx.ptr, plan.layout, MemorySegment.ofArray(img), IMAGE_BASE, encPtr, encLen) as Int
        if (st != 0) throw ctx.error(st)
        return encLen.get(ValueLayout.JAVA_LONG, 0).toInt()
    }

    /**
     * Benchmark: the result of the last encode made [n] bytes long in one of several ways: 0 = a new
     * array filled from C's buffer (as [encode]), 1 = C's buffer into [into], 2 = that and
     * `into.copyOf(n)`, 3 = `into.copyOf(n)` alone, 4 = a new array filled from [into] by
     * System.arraycopy.
     */
    internal fun resultOf(n: Int, way: Int, into: ByteArray): Any {
        val src = encPtr.get(ValueLayout.ADDRESS, 0).reinterpret(n.toLong())
        return when (way) {
            0 -> ByteArray(n).also { MemorySegment.copy(src, ValueLayout.JAVA_BYTE, 0, it, 0, n) }
            1 -> { MemorySegment.copy(src, ValueLayout.JAVA_BYTE, 0, into, 0, n); into }
            2 -> { MemorySegment.copy(src, ValueLayout.JAVA_BYTE, 0, into, 0, n); into.copyOf(n) }
            3 -> into.copyOf(n)
            else -> ByteArray(n).also { System.arraycopy(into, 0, it, 0, n) }
        }
    }

    /** Benchmark: a copy of the writer's array as [imageOnly] left it for [v]. */
    internal fun imageCopy(plan: MemPlan, v: Any): ByteArray {
        val top = imageOnly(plan, v)
        return writer.b.copyOf(maxOf(top + 64, 1 shl 14))
    }

    fun encode(plan: MemPlan, v: Any): ByteArray {
        val w = writer
        val flat = plan.flat
        val based = !flat && BASED
        while (true) {
            if (!flat && !based && image.byteSize() < w.b.size) image = ctx.arena.allocate(w.b.size.toLong(), 8)
            w.reset(if (flat) 0L else if (based) IMAGE_BASE else image.address(), ctx.refTrackingOption, ctx.maxDepth)
            try {
                w.struct(plan, v)
            } catch (e: Regrow) {
                w.b = ByteArray(maxOf(w.b.size * 2, e.need + (e.need shr 1)))
                continue
            }
            // (a flat image holds no pointer: C reads it from the heap array during the call; the
            // pointers of any other are numbers from IMAGE_BASE, which C reads relative to where
            // the array is during the call: no copy to native memory either)
            val st = if (based) {
                Native.mem_encode_based!!.invokeExact(ctx.ptr, plan.layout, MemorySegment.ofArray(w.b), IMAGE_BASE, encPtr, encLen) as Int
            } else {
                val img = if (flat) MemorySegment.ofArray(w.b) else image
                if (!flat) MemorySegment.copy(w.b, 0, image, ValueLayout.JAVA_BYTE, 0, w.top)
                Native.mem_encode.invokeExact(ctx.ptr, plan.layout, img, encPtr, encLen) as Int
            }
            if (st != 0) throw ctx.error(st)
            val n = Math.toIntExact(encLen.get(ValueLayout.JAVA_LONG, 0))
            val r = ByteArray(n)
            MemorySegment.copy(encPtr.get(ValueLayout.ADDRESS, 0).reinterpret(n.toLong()), ValueLayout.JAVA_BYTE, 0, r, 0, n)
            return r
        }
    }

    fun decode(plan: MemPlan, bytes: ByteArray): Any {
        if (plan.lacking != null && isLacking(plan, bytes)) return decodeKnownLacking(plan, bytes)
        try {
            if (plan.flat) {
                val used = decodeFlat(plan, bytes)
                if (used >= 0) {
                    if (plan.check && absentMoved()) return decodeMarked(plan, bytes)
                    reader.reset(mirror, 0L, ctx.refTrackingOption, used)
                    reader.source(bytes, 0L)
                    return reader.struct(plan, 0)
                }
            }
            if (Native.mem_decode_bases != null && !copying) {
                val used = decodeHeap(plan, bytes)
                if (plan.check && absentMoved()) return decodeMarked(plan, bytes)
                reader.reset(mirror, arenaBase, ctx.refTrackingOption, used)
                reader.source(bytes, srcBase)
                return reader.struct(plan, 0)
            }
            return decodeCopying(plan, bytes)
        } catch (e: WireException) {
            // a constructor met a null (MemPlan.nullRefused): a field the writer lacks, or a null
            // it sent, which the marked plans tell apart
            if (!reader.nullMet || plan.marked) throw e
            reader.nullMet = false
            return decodeMarked(plan, bytes)
        }
    }

    /**
     * libwire's count of struct values read from a writer's TypeDef that lacks some of their
     * fields ([absentMoved]), as last seen.
     */
    private var absentSeen = 0L

    /**
     * Whether the decode just made read a struct value from a writer's TypeDef lacking some of its
     * fields (`wire_mem_absent_count` moved; one downcall). A decode of a plan without
     * [MemPlan.check] does not look, so the first checked decode after one that moved the count
     * reads its message twice (the second time through the marked plans, to the same objects).
     */
    private fun absentMoved(): Boolean {
        val h = Native.mem_absent_count ?: return false
        val n = h.invokeExact(ctx.ptr.address()) as Long
        if (n == absentSeen) return false
        absentSeen = n
        return true
    }

    /** How many messages were decoded again by [decodeMarked] (tests). */
    @JvmField var markedReads = 0L

    /** How many messages went to the marked plan at once, their root TypeDef known to lack fields ([decodeKnownLacking]; tests). */
    @JvmField var knownLackingReads = 0L

    /**
     * [bytes] decoded again through [plan]'s [MemPlan.marked] twin (cold: the rule of fields a
     * writer lacks). When that decode moved the absent count, the root TypeDef's header is
     * remembered in [MemPlan.lacking] (unless it is the plan's own: a writer lacking fields of
     * nested structs only), so the next message starting with it is decoded once.
     */
    private fun decodeMarked(plan: MemPlan, bytes: ByteArray): Any {
        markedReads++
        try {
            return decode(markedOf(plan), bytes)
        } finally {
            if (absentMoved()) remember(plan, bytes)
        }
    }

    /**
     * A message whose root TypeDef header [MemPlan.lacking] holds, decoded once through the marked
     * plan (which reads any message as the plan and [decodeMarked] would: fields sent as sent). When
     * it lacked nothing after all (a TypeDef with the same header, or one whose nested types this
     * time lack nothing), the header is forgotten.
     */
    private fun decodeKnownLacking(plan: MemPlan, bytes: ByteArray): Any {
        knownLackingReads++
        try {
            return decode(markedOf(plan), bytes)
        } finally {
            if (!absentMoved()) forget(plan, rootHead(bytes))
        }
    }

    /** The first word of the root TypeDef of a compatible message (the one rootPlan compares), else 0. */
    private fun rootHead(bytes: ByteArray): Long {
        if (bytes.size < 12 || bytes[0].toInt() != 1 || bytes[3].toInt() != 0) return 0L
        val flag = bytes[1].toInt()
        if (flag != -1 && flag != 0) return 0L
        val kind = bytes[2].toInt() and 0xff
        // (a NAMED_STRUCT carries a TypeDef in compatible mode only: meta strings otherwise)
        if (kind != TypeId.COMPATIBLE_STRUCT && kind != TypeId.NAMED_COMPATIBLE_STRUCT && (kind != TypeId.NAMED_STRUCT || !ctx.compatible)) return 0L
        return Img.I64.get(bytes, 4) as Long
    }

    private fun isLacking(plan: MemPlan, bytes: ByteArray): Boolean {
        val h = rootHead(bytes)
        if (h == 0L) return false
        for (x in plan.lacking!!) if (x == h) return true
        return false
    }

    /** The root TypeDef header of [bytes] into [plan]'s [MemPlan.lacking] (bounded: the oldest replaced). */
    private fun remember(plan: MemPlan, bytes: ByteArray) {
        val h = rootHead(bytes)
        if (h == 0L || h == ownHead(plan)) return
        val t = plan.lacking ?: LongArray(LACKING).also { plan.lacking = it }
        for (x in t) if (x == h) return
        t[plan.lackingNext] = h
        plan.lackingNext = (plan.lackingNext + 1) % LACKING
    }

    private fun forget(plan: MemPlan, h: Long) {
        val t = plan.lacking ?: return
        for (i in t.indices) if (t[i] == h) t[i] = 0L
    }

    /** The first word of [plan]'s own TypeDef (0: none of 8 bytes). */
    private fun ownHead(plan: MemPlan): Long {
        if (!plan.ownHeadKnown) {
            plan.ownHeadKnown = true
            if (Native.schema_typedef.invokeExact(ctx.ptr, plan.typeIndex, ctx.out, ctx.out8) as Int == 0) {
                val n = ctx.out8.get(ValueLayout.JAVA_LONG, 0)
                if (n >= 8) plan.ownHead = ctx.out.get(ValueLayout.ADDRESS, 0).reinterpret(8).get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 0)
            } else {
                Native.ctx_clear_error.invokeExact(ctx.ptr)
            }
        }
        return plan.ownHead
    }

    /**
     * The arena size to decode [bytes] again with after WIRE_E_BUFFER_FULL: at least [need] (what C
     * reported), else [have] × 4, no more than C lets the decode take (the context's
     * [Limit.MEM_DECODE] per input byte + WireH.MEM_DECODE_BASE past the root's [root] bytes; C
     * fails with WIRE_E_LIMIT past it, so growing ends). A size past the largest JVM array: a limit
     * error at the offset C reported.
     */
    private fun grown(bytes: ByteArray, root: Long, have: Long, need: Long): Long {
        val per = ctx.getLimit(Limit.MEM_DECODE)
        val most = if (per != 0L && bytes.size > (Long.MAX_VALUE - root - WireH.MEM_DECODE_BASE) / per) Long.MAX_VALUE
            else root + WireH.MEM_DECODE_BASE + per * bytes.size
        val size = maxOf(need, minOf(most, have * 4))
        if (size > Int.MAX_VALUE - 8L) {
            val e = ctx.error(Status.BUFFER_FULL)
            throw WireException("limit", e.offset, "a decode arena of $size bytes does not fit a JVM array (${e.detail})")
        }
        return size
    }

    /** [decode] through native copies of the payload and the arena (a libwire without wire_mem_decode_bases, or [copying]). */
    private fun decodeCopying(plan: MemPlan, bytes: ByteArray): Any {
        val root = plan.size.toLong()
        if (arena.byteSize() < root + 4096) arena = ctx.arena.allocate(maxOf(1L shl 16, 4 * (root + 4096)), 8)
        val data = payload(bytes)
        while (true) {
            ctx.out.set(ValueLayout.JAVA_LONG, 0, root)
            val st = Native.mem_decode.invokeExact(
                ctx.ptr, plan.layout, data, bytes.size.toLong(), arena, arena, arena.byteSize(), ctx.out, 0,
            ) as Int
            if (st == Status.BUFFER_FULL) {
                arena = ctx.arena.allocate(grown(bytes, root, arena.byteSize(), ctx.out.get(ValueLayout.JAVA_LONG, 0)), 8)
                continue
            }
            if (st != 0) throw ctx.error(st)
            if (plan.check && absentMoved()) return decodeMarked(plan, bytes)
            val used = Math.toIntExact(ctx.out.get(ValueLayout.JAVA_LONG, 0))
            if (mirror.size < used) mirror = ByteArray(maxOf(used, mirror.size * 2))
            MemorySegment.copy(arena, ValueLayout.JAVA_BYTE, 0, mirror, 0, used)
            reader.reset(mirror, arena.address(), ctx.refTrackingOption, used)
            reader.source(bytes, data.address())
            return reader.struct(plan, 0)
        }
    }

    /** Encode images whose pointers are numbers from [IMAGE_BASE], read by C where the array is (wire_mem_encode_based); `-Dlibwire.encodeCopies=true`: copied to native memory first (the path before it; for comparison). */
    private val BASED = Native.mem_encode_based != null && !java.lang.Boolean.getBoolean("libwire.encodeCopies")

    /** `-Dlibwire.decodeCopies=true`: the payload copied to native memory and the arena back (the path before wire_mem_decode_bases; for comparison). */
    private val copying = java.lang.Boolean.getBoolean("libwire.decodeCopies")

    /** The addresses [decodeHeap]'s call saw for the payload (0) and [mirror] (8). */
    private val heapBases: MemorySegment
    /**
     * Dense arrays left in the payload (`WIRE_MEM_ARRAYS_IN_PLACE`): C copies none of them into the
     * arena, the JVM copies their items once, out of the caller's array ([MemReader.arrayItems]
     * reads either answer, so a libwire without the flag, which copies them, works the same).
     * `-Dlibwire.arraysInPlace=false`: copied into the arena, as before (round 25).
     */
    private val DFLAGS = if (System.getProperty("libwire.arraysInPlace") != "false") WireH.MEM_ARRAYS_IN_PLACE else 0
    private val basesAddr: Long
    private val usedAddr: Long
    /**
     * Pass the context and the decode call's two out-words (`arena_used`, `bases`) as addresses
     * (`long`s: the same register as a pointer where pointers are 64-bit) instead of segments: no
     * segment checks or session acquire for them in the downcall (`ProfileMain sample rawab`:
     * the call 87.5-89.0 -> 83.3-84.0 ns). `-Dlibwire.decodeOutSegments=true`: segments, as before.
     */
    @JvmField internal var outsAsAddresses = ValueLayout.ADDRESS.byteSize() == 8L &&
        !java.lang.Boolean.getBoolean("libwire.decodeOutSegments")
    /** The addresses the last [decodeHeap] call saw for the payload and [mirror]. */
    private var srcBase = 0L
    private var arenaBase = 0L
    /** The used-bytes in/out parameter of the decode calls. */
    private val usedOut: MemorySegment
    /** The encode calls' out-parameters (the payload's address and length), for the same reason. */
    private val encPtr: MemorySegment
    private val encLen: MemorySegment

    init {
        // all in memory of an automatic arena (freed with this codec by the GC): a downcall
        // acquires and releases the session of every segment it is passed, two atomic updates
        // per call for the context's shared arena, none for an automatic one
        val m = java.lang.foreign.Arena.ofAuto().allocate(40, 8)
        heapBases = m.asSlice(0, 16)
        basesAddr = heapBases.address()
        usedAddr = m.address() + 16
        usedOut = m.asSlice(16, 8)
        encPtr = m.asSlice(24, 8)
        encLen = m.asSlice(32, 8)
    }

    /**
     * The message decoded from the caller's array straight into [mirror], root image at 0 and the
     * arena after it (`wire_mem_decode_bases`: both heap segments, pinned for the call only). The
     * pointers in the image are the addresses the call saw, turned into offsets by the reader with
     * [heapBases]. Returns the bytes of [mirror] used; grows [mirror] while C asks for more
     * (WIRE_E_BUFFER_FULL), within the context's [Limit.MEM_DECODE] ([grown]).
     */
    private fun decodeHeap(plan: MemPlan, bytes: ByteArray): Int {
        val root = plan.size.toLong()
        if (mirror.size < root + 4096) mirror = ByteArray(maxOf(1 shl 16, (4 * (root + 4096)).toInt()))
        while (true) {
            val c = ctx.ptr
            usedOut.set(ValueLayout.JAVA_LONG, 0, root)
            val m = mirrorSegment()
            // (the context and the two out-words as addresses where pointers are 64-bit: round 25)
            val st = if (outsAsAddresses && Native.mem_decode_bases_at != null) Native.mem_decode_bases_at.invokeExact(
                c.address(), plan.layout, MemorySegment.ofArray(bytes), bytes.size.toLong(), m, m, mirror.size.toLong(), usedAddr, DFLAGS, basesAddr,
            ) as Int else Native.mem_decode_bases!!.invokeExact(
                c, plan.layout, MemorySegment.ofArray(bytes), bytes.size.toLong(), m, m, mirror.size.toLong(), usedOut, DFLAGS, heapBases,
            ) as Int
            if (st == Status.BUFFER_FULL) {
                mirror = ByteArray(grown(bytes, root, mirror.size.toLong(), usedOut.get(ValueLayout.JAVA_LONG, 0)).toInt())
                continue
            }
            if (st != 0) throw ctx.error(st)
            srcBase = heapBases.get(ValueLayout.JAVA_LONG, 0)
            arenaBase = heapBases.get(ValueLayout.JAVA_LONG, 8)
            return Math.toIntExact(usedOut.get(ValueLayout.JAVA_LONG, 0))
        }
    }

    /**
     * A flat plan's message decoded from the caller's array straight into [mirror] (both heap
     * segments, read and written by C during the call only: the image holds no pointer). The bytes
     * of the image used, or -1 when the decoder wanted more room than [mirror] (the native path
     * then decodes the message again with its growing arena).
     */
    private fun decodeFlat(plan: MemPlan, bytes: ByteArray): Int {
        if (mirror.size < plan.size + 4096) mirror = ByteArray(maxOf(mirror.size * 2, plan.size + 4096))
        // no arena (NULL, capacity 0) and no used-bytes word: a flat image holds no pointer, so C
        // allocates nothing; if it ever wanted to, the call fails with WIRE_E_BUFFER_FULL and the
        // native path below decodes the message again with its arena. One
        // heap segment and the out-parameter fewer per downcall (round 10 in ROUNDS.md).
        val st = if (outsAsAddresses) Native.mem_decode_at.invokeExact(
            ctx.ptr.address(), plan.layout, MemorySegment.ofArray(bytes), bytes.size.toLong(), mirrorSegment(), 0L, 0L, 0L, 0,
        ) as Int else Native.mem_decode.invokeExact(
            ctx.ptr, plan.layout, MemorySegment.ofArray(bytes), bytes.size.toLong(), mirrorSegment(), MemorySegment.NULL, 0L, MemorySegment.NULL, 0,
        ) as Int
        if (st == Status.BUFFER_FULL) return -1
        if (st != 0) throw ctx.error(st)
        return plan.size
    }

    /**
     * The payload copied to native memory of the context: decoded without WIRE_MEM_COPY, strings,
     * binaries and decimal magnitudes point into it, and are read from [bytes] at the same offsets
     * (so they are copied once, from the caller's array into the objects).
     */
    private fun payload(bytes: ByteArray): MemorySegment {
        if (input.byteSize() < bytes.size) input = ctx.arena.allocate(maxOf(4096L, bytes.size.toLong() * 2), 8)
        MemorySegment.copy(bytes, 0, input, ValueLayout.JAVA_BYTE, 0, bytes.size)
        return input
    }
}

/**
 * The composed handles of [MemPlan]: per field a small static method bound to the field's offset
 * (and slot), the getter filtered into it; chained with `foldArguments` (write) or collected into
 * the constructor's arguments (read). HotSpot customizes the lambda forms of a handle invoked
 * often, so the whole chain is compiled as one piece of code with the getters inlined.
 */
internal object MemHandles {
    private val L = MethodHandles.lookup()
    private val W = MemWriter::class.java
    private val R = MemReader::class.java
    private val I = Int::class.javaPrimitiveType!!
    private val J = Long::class.javaPrimitiveType!!
    private val D = Double::class.javaPrimitiveType!!
    private val F = Float::class.javaPrimitiveType!!
    private val Z = Boolean::class.javaPrimitiveType!!
    private val S = Short::class.javaPrimitiveType!!
    private val B = Byte::class.javaPrimitiveType!!
    private val O = Any::class.java
    private val V = Void.TYPE

    private fun st(name: String, t: MethodType): MethodHandle = L.findStatic(MemHandles::class.java, name, t)

    // writers: (MemWriter, int at, int off, T x)void
    @JvmStatic fun pI32(w: MemWriter, at: Int, off: Int, x: Int) { Img.I32.set(w.b, at + off, x) }
    @JvmStatic fun pI64(w: MemWriter, at: Int, off: Int, x: Long) { Img.I64.set(w.b, at + off, x) }
    @JvmStatic fun pF64(w: MemWriter, at: Int, off: Int, x: Double) { Img.I64.set(w.b, at + off, x.toRawBits()) }
    @JvmStatic fun pF32(w: MemWriter, at: Int, off: Int, x: Float) { Img.I32.set(w.b, at + off, x.toRawBits()) }
    @JvmStatic fun pBool(w: MemWriter, at: Int, off: Int, x: Boolean) { w.b[at + off] = if (x) 1 else 0 }
    @JvmStatic fun pI16(w: MemWriter, at: Int, off: Int, x: Short) { Img.I16.set(w.b, at + off, x) }
    @JvmStatic fun pI8(w: MemWriter, at: Int, off: Int, x: Byte) { w.b[at + off] = x }
    // (the slot is bound as an argument of its own: a constant of the customized handle, so its
    // put / get is a direct call, where f.slot, a field, would be a megamorphic virtual one)
    @JvmStatic fun pAny(s: Slot, f: MemField, w: MemWriter, at: Int, x: Any?) {
        if (x == null) {
            if (!f.nullable) throw WireException("value", -1, "field ${f.name}: null in a field that is not nullable")
            if (f.present < 0) w.nul(s, at + f.offset) else w.b[at + f.present] = 0
        } else {
            s.put(w, at + f.offset, x)
            if (f.present >= 0) w.b[at + f.present] = 1
        }
    }
    @JvmStatic fun pStr(f: MemField, w: MemWriter, at: Int, x: Any?) {
        if (x == null) {
            if (!f.nullable) throw WireException("value", -1, "field ${f.name}: null in a field that is not nullable")
            w.nul(StrSlot, at + f.offset)
        } else {
            w.string(at + f.offset, x as String)
        }
    }
    @JvmStatic fun noop(w: MemWriter, v: Any, at: Int) {}

    // readers: (MemReader, int at, int off)T
    @JvmStatic fun gI32(r: MemReader, at: Int, off: Int): Int = Img.I32.get(r.b, at + off) as Int
    @JvmStatic fun gI64(r: MemReader, at: Int, off: Int): Long = Img.I64.get(r.b, at + off) as Long
    @JvmStatic fun gF64(r: MemReader, at: Int, off: Int): Double = Double.fromBits(Img.I64.get(r.b, at + off) as Long)
    @JvmStatic fun gF32(r: MemReader, at: Int, off: Int): Float = Float.fromBits(Img.I32.get(r.b, at + off) as Int)
    @JvmStatic fun gBool(r: MemReader, at: Int, off: Int): Boolean = r.b[at + off].toInt() != 0
    @JvmStatic fun gI16(r: MemReader, at: Int, off: Int): Short = Img.I16.get(r.b, at + off) as Short
    @JvmStatic fun gI8(r: MemReader, at: Int, off: Int): Byte = r.b[at + off]
    @JvmStatic fun gStr(r: MemReader, at: Int, off: Int): String? = r.string(at + off)
    @JvmStatic fun gAny(s: Slot, f: MemField, r: MemReader, at: Int): Any? =
        if (f.present >= 0 && r.b[at + f.present].toInt() == 0) null else s.get(r, at + f.offset)

    private val PUT = mapOf(
        MemPlan.K_I32 to st("pI32", MethodType.methodType(V, W, I, I, I)),
        MemPlan.K_I64 to st("pI64", MethodType.methodType(V, W, I, I, J)),
        MemPlan.K_F64 to st("pF64", MethodType.methodType(V, W, I, I, D)),
        MemPlan.K_F32 to st("pF32", MethodType.methodType(V, W, I, I, F)),
        MemPlan.K_BOOL to st("pBool", MethodType.methodType(V, W, I, I, Z)),
        MemPlan.K_I16 to st("pI16", MethodType.methodType(V, W, I, I, S)),
        MemPlan.K_I8 to st("pI8", MethodType.methodType(V, W, I, I, B)),
    )
    private val GET = mapOf(
        MemPlan.K_I32 to st("gI32", MethodType.methodType(I, R, I, I)),
        MemPlan.K_I64 to st("gI64", MethodType.methodType(J, R, I, I)),
        MemPlan.K_F64 to st("gF64", MethodType.methodType(D, R, I, I)),
        MemPlan.K_F32 to st("gF32", MethodType.methodType(F, R, I, I)),
        MemPlan.K_BOOL to st("gBool", MethodType.methodType(Z, R, I, I)),
        MemPlan.K_I16 to st("gI16", MethodType.methodType(S, R, I, I)),
        MemPlan.K_I8 to st("gI8", MethodType.methodType(B, R, I, I)),
    )
    private val P_ANY = st("pAny", MethodType.methodType(V, Slot::class.java, MemField::class.java, W, I, O))
    private val P_STR = st("pStr", MethodType.methodType(V, MemField::class.java, W, I, O))
    private val G_STR = st("gStr", MethodType.methodType(String::class.java, R, I, I))
    private val G_ANY = st("gAny", MethodType.methodType(O, Slot::class.java, MemField::class.java, R, I))
    private val NOOP = st("noop", MethodType.methodType(V, W, O, I))

    /** `(MemWriter, Object v, int at)void` for every field in order. */
    fun writer(fields: Array<MemField>): MethodHandle {
        var mh = NOOP
        for (f in fields.reversed()) {
            // (MemWriter, int at, Object v)void
            val one = if (f.kind == MemPlan.K_ANY) {
                val put = if (f.slot === StrSlot && f.present < 0) P_STR.bindTo(f) else MethodHandles.insertArguments(P_ANY, 0, f.slot, f)
                MethodHandles.filterArguments(put, 2, f.getter)
            } else {
                val put = MethodHandles.insertArguments(PUT[f.kind]!!, 2, f.offset)
                MethodHandles.filterArguments(put, 2, f.getter)
            }
            val w = MethodHandles.permuteArguments(one, MethodType.methodType(V, W, O, I), 0, 2, 1)
            mh = MethodHandles.foldArguments(mh, w)
        }
        return mh
    }

    /** `(MemReader, int at)Object`: [ctor] applied to every field read at its offset. */
    fun reader(ctor: MethodHandle, fields: Array<MemField>): MethodHandle {
        val n = ctor.type().parameterCount()
        val byArg = arrayOfNulls<MethodHandle>(n)
        for (f in fields) {
            val pt = ctor.type().parameterType(f.arg)
            val g = when {
                f.kind != MemPlan.K_ANY -> MethodHandles.insertArguments(GET[f.kind]!!, 2, f.offset)
                f.slot === StrSlot && f.present < 0 -> MethodHandles.insertArguments(G_STR, 2, f.offset)
                else -> MethodHandles.insertArguments(G_ANY, 0, f.slot, f)
            }
            byArg[f.arg] = g.asType(MethodType.methodType(pt, R, I))
        }
        var mh = ctor
        for (i in 0 until n) mh = MethodHandles.collectArguments(mh, 2 * i, byArg[i]!!)
        val reorder = IntArray(2 * n) { it and 1 }
        return MethodHandles.permuteArguments(mh, MethodType.methodType(ctor.type().returnType(), R, I), *reorder)
            .asType(MethodType.methodType(O, R, I))
    }
}

/** Object identity → non-negative int, cleared in time proportional to what was put (open addressing). */
internal class IdentityInts {
    private var keys = arrayOfNulls<Any>(64)
    private var vals = IntArray(64)
    private var used = IntArray(32)
    private var n = 0

    fun clear() {
        for (i in 0 until n) keys[used[i]] = null
        n = 0
    }

    /** The free slot where [get] found nothing ([putAfterGet]). */
    private var free = 0

    fun get(k: Any): Int {
        val m = keys.size - 1
        var i = System.identityHashCode(k) * -0x61c88647 ushr 7 and m
        while (true) {
            val x = keys[i]
            if (x == null) {
                free = i
                return -1
            }
            if (x === k) return vals[i]
            i = (i + 1) and m
        }
    }

    /** [put] of the key [get] has just not found, nothing put since: into the slot it stopped at (no second hash and probe). */
    fun putAfterGet(k: Any, v: Int) {
        if (2 * (n + 1) > keys.size) {
            put(k, v)
            return
        }
        val i = free
        keys[i] = k
        vals[i] = v
        if (n == used.size) used = used.copyOf(n * 2)
        used[n++] = i
    }

    fun put(k: Any, v: Int) {
        if (2 * (n + 1) > keys.size) grow()
        val m = keys.size - 1
        var i = System.identityHashCode(k) * -0x61c88647 ushr 7 and m
        while (keys[i] != null) i = (i + 1) and m
        keys[i] = k
        vals[i] = v
        if (n == used.size) used = used.copyOf(n * 2)
        used[n++] = i
    }

    private fun grow() {
        val ok = keys
        val ov = vals
        val on = n
        val oi = used.copyOf(on)
        keys = arrayOfNulls(ok.size * 2)
        vals = IntArray(ok.size * 2)
        used = IntArray(maxOf(used.size, ok.size))
        n = 0
        for (j in 0 until on) put(ok[oi[j]]!!, ov[oi[j]])
    }
}
