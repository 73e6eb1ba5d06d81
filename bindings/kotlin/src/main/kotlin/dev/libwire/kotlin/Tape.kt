package dev.libwire.kotlin

import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout
import java.lang.invoke.MethodHandles
import java.lang.invoke.VarHandle
import java.math.BigDecimal
import java.math.BigInteger
import java.nio.ByteOrder
import java.time.Duration
import java.time.Instant
import java.time.LocalDate
import java.util.IdentityHashMap

/**
 * The codec path: a whole message crosses the FFI boundary in one call
 * (`wire_encode_tape_to` / `wire_decode_tape_into`, the direct tape codec; format in
 * spec/tape.md, version 2). The JVM writes or reads the tape in a heap `byte[]` reused
 * per context, passed to C as a heap segment (critical downcall, no copy). Encode: C writes
 * the payload into a writer over a native buffer of the context (then copied into the
 * result; writing into a heap array lent to the call and copying that was slower, measured);
 * decode: C writes the tape straight into the context's heap array (`readBuffer`). Registered data classes with a
 * [StructPlan] go as `STRUCT_IDX` (fields by wire index).
 */
internal object TapeOps {
    const val NULL = WireH.TAPE_NULL
    const val REF = WireH.TAPE_REF
    const val STRUCT_TD = WireH.TAPE_STRUCT_TD
    const val ENUM_ID = WireH.TAPE_ENUM_ID
    const val PACKED = WireH.TAPE_PACKED
    const val STRUCT_IDX = WireH.TAPE_STRUCT_IDX
    const val L1_LIST = WireH.TAPE_L1_LIST
    const val SPAN = WireH.TAPE_SPAN
    /** String encodings of tape v2: the text as the JVM holds it, written in the Java runtime's choice. */
    const val LATIN1_JAVA = WireH.TAPE_STR_JAVA or WireH.STR_LATIN1
    const val UTF16_JAVA = WireH.TAPE_STR_JAVA or WireH.STR_UTF16

    @JvmField val LE16: VarHandle = MethodHandles.byteArrayViewVarHandle(ShortArray::class.java, ByteOrder.LITTLE_ENDIAN)
    @JvmField val LE32: VarHandle = MethodHandles.byteArrayViewVarHandle(IntArray::class.java, ByteOrder.LITTLE_ENDIAN)
    @JvmField val LE64: VarHandle = MethodHandles.byteArrayViewVarHandle(LongArray::class.java, ByteOrder.LITTLE_ENDIAN)

    /**
     * The f64 bits a tape carries for a Float (spec/tape.md, FLOAT32 NaNs): `x.toDouble()`,
     * except that a NaN is widened bit for bit, its quiet bit as it was (`toDouble()` sets it,
     * so a signaling NaN would come back quiet).
     */
    @JvmStatic fun f32Tape(x: Float): Long {
        val b = x.toRawBits()
        if ((b and 0x7fffffff) > 0x7f800000) {
            return ((b.toLong() ushr 31) shl 63) or 0x7ff0000000000000L or ((b.toLong() and 0x7fffff) shl 29)
        }
        return x.toDouble().toRawBits()
    }

    /**
     * The Float of a tape's f64 bits: `toFloat()`, except that a NaN is narrowed bit for bit (its
     * top 23 payload bits, the quiet bit as it is; the quiet NaN if those are all zero), so
     * `f32FromTape(f32Tape(x))` has x's bits.
     */
    @JvmStatic fun f32FromTape(u: Long): Float {
        if ((u and Long.MAX_VALUE) > 0x7ff0000000000000L) {
            val m = (u ushr 29).toInt() and 0x7fffff
            return Float.fromBits(((u ushr 63).toInt() shl 31) or 0x7f800000 or (if (m != 0) m else 0x400000))
        }
        return Double.fromBits(u).toFloat()
    }

    /**
     * The f64 bits a tape carries for float16 bits h (spec/tape.md, FLOAT16 and BFLOAT16 NaNs):
     * the exact value, a NaN's 10 payload bits as the top of the f64's, quiet bit as it was.
     * Worked from the bits, so no conversion can set a signaling NaN's quiet bit.
     */
    @JvmStatic fun f16Tape(h: Short): Long {
        val x = h.toInt() and 0xffff
        val sign = (x.toLong() ushr 15) shl 63
        val e = (x ushr 10) and 0x1f
        val m = (x and 0x3ff).toLong()
        return when {
            e == 0x1f -> sign or 0x7ff0000000000000L or (m shl 42)
            e != 0 -> sign or ((e + 1008).toLong() shl 52) or (m shl 42)
            m == 0L -> sign
            else -> sign or (m.toDouble().toRawBits() - (24L shl 52)) // m * 2^-24
        }
    }

    /**
     * The float16 bits of a tape's f64 bits: rounded to nearest even, a NaN narrowed bit for bit
     * (its top 10 payload bits, quiet bit as it is; the quiet NaN if those are all zero), so
     * `f16FromTape(f16Tape(h)) == h` for every h.
     */
    @JvmStatic fun f16FromTape(u: Long): Short {
        if ((u and Long.MAX_VALUE) > 0x7ff0000000000000L) {
            val m = (u ushr 42).toInt() and 0x3ff
            return (((u ushr 48).toInt() and 0x8000) or 0x7c00 or (if (m != 0) m else 0x200)).toShort()
        }
        Jdk.require()
        return java.lang.Float.floatToFloat16(Double.fromBits(u).toFloat())
    }

    /** The f64 bits a tape carries for bfloat16 bits b: as [f32Tape] of the float32 `b << 16`. */
    @JvmStatic fun bf16Tape(b: Short): Long {
        val x = (b.toInt() and 0xffff) shl 16
        if ((x and 0x7fffffff) > 0x7f800000) {
            return ((x.toLong() ushr 31) shl 63) or 0x7ff0000000000000L or ((x.toLong() and 0x7f0000) shl 29)
        }
        return Float.fromBits(x).toDouble().toRawBits()
    }

    /**
     * The bfloat16 bits of a tape's f64 bits (a bfloat16 widened: the top 16 bits of its float32;
     * a NaN narrowed bit for bit, its top 7 payload bits, the quiet NaN if those are all zero).
     */
    @JvmStatic fun bf16FromTape(u: Long): Short {
        if ((u and Long.MAX_VALUE) > 0x7ff0000000000000L) {
            val m = (u ushr 45).toInt() and 0x7f
            return (((u ushr 48).toInt() and 0x8000) or 0x7f80 or (if (m != 0) m else 0x40)).toShort()
        }
        return (Double.fromBits(u).toFloat().toRawBits() ushr 16).toShort()
    }
}

/** Kotlin values → build tape → `wire_encode_tape`. */
internal class TapeEncoder(private val ctx: Context) {
    private var b: ByteArray = ctx.tapeBuffer
    private var n = 0
    private val seen: IdentityHashMap<Any, Int>? = if (ctx.refTrackingOption) IdentityHashMap() else null
    /** Number of the next referenceable value (pre-order over the whole tape). */
    private var ord = 0
    private var depth = 0
    private val maxDepth = ctx.maxDepth
    val depthLimit: Int get() = maxDepth
    /** The ref tracking option this encoder was made for (the context makes a new one when it changes). */
    val refTracking: Boolean = seen != null

    /** Writes the build tape only (benchmark breakdown); returns its length. */
    fun write(values: List<Any?>): Int {
        n = 0
        ord = 0
        depth = 0
        b = ctx.tapeBuffer
        u8('W'.code); u8('T'.code); u8(WireH.TAPE_VERSION); u8(0)
        u32(values.size)
        for (v in values) {
            seen?.clear()
            value(v)
        }
        ctx.tapeBuffer = b
        return n
    }

    fun encode(values: List<Any?>): ByteArray {
        try {
            write(values)
        } catch (e: EnumRefused) {
            throw e.named(null) // (a root value)
        }
        return ctx.encodeTape(b, n)
    }

    // ------------------------------------------------------------ primitives
    private fun room(k: Int) {
        if (n + k > b.size) b = b.copyOf(maxOf(b.size * 2, n + k))
    }
    private fun u8(v: Int) { room(1); b[n++] = v.toByte() }
    private fun u16(v: Int) { room(2); TapeOps.LE16.set(b, n, v.toShort()); n += 2 }
    private fun u32(v: Int) { room(4); TapeOps.LE32.set(b, n, v); n += 4 }
    private fun u64(v: Long) { room(8); TapeOps.LE64.set(b, n, v); n += 8 }
    private fun raw(a: ByteArray) { room(a.size); System.arraycopy(a, 0, b, n, a.size); n += a.size }
    private fun op64(op: Int, v: Long) { room(9); b[n] = op.toByte(); TapeOps.LE64.set(b, n + 1, v); n += 9 }
    private fun opF64(op: Int, v: Double) = op64(op, v.toRawBits())

    /**
     * A string as the JVM holds it: Latin-1 bytes (enc 0x80) when every char fits, else
     * UTF-16LE (enc 0x81); C writes the Java runtime's choice from it without a check.
     */
    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    private fun string(s: String) {
        if (JStr.OPEN) {
            // the String's own bytes (Mem.kt, JStr): Latin-1 when compact, else UTF-16LE
            val v = JStr.VALUE.get(s) as ByteArray
            val m = v.size
            room(6 + m)
            val b = b
            val o = n
            b[o] = TypeId.STRING.toByte()
            b[o + 1] = (if ((JStr.CODER.get(s) as Byte).toInt() == 0) TapeOps.LATIN1_JAVA else TapeOps.UTF16_JAVA).toByte()
            TapeOps.LE32.set(b, o + 2, m)
            if (m in 8..16) {
                // short text in two (overlapping) words: no call of the array copy stub
                TapeOps.LE64.set(b, o + 6, TapeOps.LE64.get(v, 0) as Long)
                TapeOps.LE64.set(b, o + 6 + m - 8, TapeOps.LE64.get(v, m - 8) as Long)
            } else {
                System.arraycopy(v, 0, b, o + 6, m)
            }
            n = o + 6 + m
            return
        }
        val len = s.length
        if (len >= ASCII_PROBE) {
            // ASCII (the common case) through the JDK's vectorized UTF-8 encoder: its own Latin-1
            val u = s.toByteArray(Charsets.UTF_8)
            if (u.size == len) {
                room(6 + len)
                b[n] = TypeId.STRING.toByte()
                b[n + 1] = TapeOps.LATIN1_JAVA.toByte()
                TapeOps.LE32.set(b, n + 2, len)
                System.arraycopy(u, 0, b, n + 6, len)
                n += 6 + len
                return
            }
        }
        var i = 0
        while (i < len && s[i].code <= 0xff) i++
        if (i == len) {
            room(6 + len)
            b[n] = TypeId.STRING.toByte()
            b[n + 1] = TapeOps.LATIN1_JAVA.toByte()
            TapeOps.LE32.set(b, n + 2, len)
            (s as java.lang.String).getBytes(0, len, b, n + 6)
            n += 6 + len
        } else {
            room(6 + 2 * len)
            b[n] = TypeId.STRING.toByte()
            b[n + 1] = TapeOps.UTF16_JAVA.toByte()
            TapeOps.LE32.set(b, n + 2, 2 * len)
            var o = n + 6
            for (k in 0 until len) { TapeOps.LE16.set(b, o, s[k].code.toShort()); o += 2 }
            n = o
        }
    }

    /** Under ref tracking: a REF to an object already written in this root; else numbers it. */
    private fun shared(v: Any): Boolean {
        if (seen != null) {
            val k = seen[v]
            if (k != null) {
                u8(TapeOps.REF)
                u32(k)
                return true
            }
            seen[v] = ord
        }
        ord++
        return false
    }

    fun value(v: Any?) {
        when (v) {
            null -> u8(TapeOps.NULL)
            is String -> string(v)
            is Long -> op64(TypeId.VARINT64, v)
            is Int -> op64(TypeId.VARINT32, v.toLong())
            is Double -> opF64(TypeId.FLOAT64, v)
            is Boolean -> { u8(TypeId.BOOL); u8(if (v) 1 else 0) }
            is Float -> op64(TypeId.FLOAT32, TapeOps.f32Tape(v))
            is Short -> op64(TypeId.INT16, v.toLong())
            is Byte -> op64(TypeId.INT8, v.toLong())
            else -> complex(v)
        }
    }

    @OptIn(ExperimentalUnsignedTypes::class)
    private fun complex(v: Any) {
        if (++depth > maxDepth) throw WireException("depth", -1, "nesting deeper than $maxDepth (a cycle without reference tracking?)")
        try {
            when (v) {
                is List<*> -> {
                    if (!shared(v) && !(JStr.OPEN && L1_LISTS && v is java.util.RandomAccess && v.size > 0 && v[0] is String && latin1List(v))) {
                        u8(TypeId.LIST); u32(v.size)
                        if (v is java.util.RandomAccess) for (i in 0 until v.size) value(v[i]) else for (e in v) value(e)
                    }
                }
                is Set<*> -> { if (!shared(v)) { u8(TypeId.SET); u32(v.size); for (e in v) value(e) } }
                is Map<*, *> -> {
                    if (!shared(v)) {
                        u8(TypeId.MAP); u32(v.size)
                        for ((k, x) in v) { value(k); value(x) }
                    }
                }
                is ByteArray -> { if (!shared(v)) { u8(TypeId.BINARY); u32(v.size); raw(v) } }
                is BooleanArray, is ShortArray, is IntArray, is LongArray, is FloatArray, is DoubleArray,
                is Float16Array, is BFloat16Array -> { if (!shared(v)) array(arraySegment(v)) }
                is UByteArray, is UShortArray, is UIntArray, is ULongArray -> { if (!shared(v)) array(unsignedArraySegment(v)) }
                is UByte -> op64(TypeId.UINT8, v.toLong())
                is UShort -> op64(TypeId.UINT16, v.toLong())
                is UInt -> op64(TypeId.UINT32, v.toLong())
                is ULong -> op64(TypeId.UINT64, v.toLong())
                is Float16 -> op64(TypeId.FLOAT16, TapeOps.f16Tape(v.bits))
                is BFloat16 -> op64(TypeId.BFLOAT16, TapeOps.bf16Tape(v.bits))
                is LocalDate -> op64(TypeId.DATE, v.toEpochDay())
                is Instant -> { op64(TypeId.TIMESTAMP, v.epochSecond); u32(v.nano) }
                is Duration -> { op64(TypeId.DURATION, v.seconds); u32(v.nano) }
                is BigDecimal -> {
                    ord++
                    val mag = magnitudeLE(v.unscaledValue())
                    u8(TypeId.DECIMAL); u32(v.scale()); u8(if (v.signum() < 0) 1 else 0); u32(mag.size); raw(mag)
                }
                is Array<*> -> { if (!shared(v)) { u8(TypeId.LIST); u32(v.size); for (e in v) value(e) } }
                is WireNone -> u8(TypeId.NONE)
                is WireStruct -> wireStruct(v)
                is WireEnum -> wireEnum(v)
                is WireUnion -> {
                    val idx = if (v.type == null) -1 else (ctx.findType(v.type) ?: throw WireException("schema", -1, "union type ${v.type} is not in the schema"))
                    ord++
                    u8(TypeId.UNION); u32(idx); u32(v.case)
                    value(v.value)
                }
                else -> bound(v)
            }
        } finally {
            depth--
        }
    }

    /**
     * A list of compact (Latin-1) Strings only, as one `L1_LIST` (spec/tape.md): each string's
     * wire bytes (its header, length << 2 | Latin-1, then its bytes), which C checks and copies
     * at once. At the first element that is not such a String nothing is left written and false
     * is returned (the list is then written as a LIST).
     */
    private fun latin1List(v: List<*>): Boolean {
        val c = v.size
        val start = n
        room(9)
        b[start] = TapeOps.L1_LIST.toByte()
        TapeOps.LE32.set(b, start + 1, c)
        n = start + 9
        for (i in 0 until c) {
            val s = v[i]
            if (s !is String || (JStr.CODER.get(s) as Byte).toInt() != 0) { n = start; return false }
            val a = JStr.VALUE.get(s) as ByteArray
            val m = a.size
            room(5 + m)
            val b = b
            var o = n
            if (m < 32) {
                b[o++] = (m shl 2).toByte()
            } else {
                var h = m.toLong() shl 2
                while (h >= 0x80) { b[o++] = (h or 0x80).toByte(); h = h ushr 7 }
                b[o++] = h.toByte()
            }
            if (m in 8..16) {
                // short text in two (overlapping) words: no call of the array copy stub
                TapeOps.LE64.set(b, o, TapeOps.LE64.get(a, 0) as Long)
                TapeOps.LE64.set(b, o + m - 8, TapeOps.LE64.get(a, m - 8) as Long)
            } else {
                System.arraycopy(a, 0, b, o, m)
            }
            n = o + m
        }
        TapeOps.LE32.set(b, start + 5, n - start - 9)
        return true
    }

    private fun array(a: Pair<Int, MemorySegment>) {
        val (t, seg) = a
        val len = seg.byteSize().toInt()
        u8(t); u32(len)
        room(len)
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, b, n, len)
        n += len
    }

    private fun bound(v: Any) {
        val bd = ctx.boundClass(v.javaClass) ?: run {
            if (v is Enum<*>) throw WireException("unsupported", -1, "enum ${v.javaClass.name} is not registered (registerEnum)")
            throw WireException("unsupported", -1, "no wire mapping for ${v.javaClass.name} (register data classes with registerDataClass)")
        }
        val ei = bd.enumInfo
        if (ei != null) {
            val o = (v as Enum<*>).ordinal
            val w = ei.wire
            if (w == null) {
                u8(TypeId.ENUM); u32(bd.typeIndex); u32(o)
            } else {
                ei.refused(o)?.let { throw it }
                u8(TypeId.ENUM); u32(bd.typeIndex); u32(w[o])
            }
            return
        }
        if (shared(v)) return
        val plan = bd.plan
        if (plan != null) {
            planned(plan, v)
            return
        }
        val info = bd.info!!
        u8(TypeId.STRUCT); u32(bd.typeIndex)
        val countAt = n
        u32(0)
        var count = 0
        for (f in info.fields) {
            val fv = try {
                f.read(v)
            } catch (e: java.lang.reflect.InvocationTargetException) {
                throw WireException("value", -1, "getter of ${f.wireName} failed: ${e.targetException}")
            } ?: continue
            u16(f.nameBytes.size); raw(f.nameBytes)
            try {
                if (f.wireType >= 0) typed(f.wireType, fv) else value(fv)
            } catch (e: EnumRefused) {
                throw e.named("${v.javaClass.simpleName}.${f.wireName}")
            }
            count++
        }
        TapeOps.LE32.set(b, countAt, count)
    }

    /** A data class by its plan: STRUCT_IDX, every field in wire order. */
    private fun planned(plan: StructPlan, v: Any) {
        val fs = plan.fields
        room(9)
        b[n] = TapeOps.STRUCT_IDX.toByte()
        TapeOps.LE32.set(b, n + 1, plan.typeIndex)
        TapeOps.LE32.set(b, n + 5, fs.size)
        n += 9
        try {
            for (f in fs) {
                val g = f.getter
                when (f.kind) {
                    StructPlan.K_INT -> op64(TypeId.VARINT32, (g.invokeExact(v) as Int).toLong())
                    StructPlan.K_LONG -> op64(TypeId.VARINT64, g.invokeExact(v) as Long)
                    StructPlan.K_STRING -> {
                        val x = g.invokeExact(v) as Any?
                        if (x == null) u8(TapeOps.NULL) else string(x as String)
                    }
                    StructPlan.K_DOUBLE -> opF64(TypeId.FLOAT64, g.invokeExact(v) as Double)
                    StructPlan.K_BOOL -> { room(2); b[n] = TypeId.BOOL.toByte(); b[n + 1] = if (g.invokeExact(v) as Boolean) 1 else 0; n += 2 }
                    StructPlan.K_FLOAT -> op64(TypeId.FLOAT32, TapeOps.f32Tape(g.invokeExact(v) as Float))
                    StructPlan.K_SHORT -> op64(TypeId.INT16, (g.invokeExact(v) as Short).toLong())
                    StructPlan.K_BYTE -> op64(TypeId.INT8, (g.invokeExact(v) as Byte).toLong())
                    else -> {
                        val x = g.invokeExact(v) as Any?
                        try {
                            if (x == null) u8(TapeOps.NULL)
                            else if (f.info.wireType >= 0) typed(f.info.wireType, x) else value(x)
                        } catch (e: EnumRefused) {
                            throw e.named("${v.javaClass.simpleName}.${f.info.wireName}")
                        }
                    }
                }
            }
        } catch (e: WireException) {
            throw e
        } catch (e: RuntimeException) {
            throw WireException("value", -1, "getter of ${v.javaClass.simpleName} failed: $e")
        }
    }

    private fun wireStruct(v: WireStruct) {
        val type = v.type ?: throw WireException("unsupported", -1, "WireStruct without a type name")
        val idx = ctx.findType(type) ?: throw WireException("schema", -1, "struct type $type is not in the schema")
        if (shared(v)) return
        u8(TypeId.STRUCT); u32(idx)
        val countAt = n
        u32(0)
        var count = 0
        for ((name, fv) in v.fields) {
            if (fv == null) continue
            val nb = name.toByteArray(Charsets.UTF_8)
            u16(nb.size); raw(nb)
            try {
                value(fv)
            } catch (e: EnumRefused) {
                throw e.named("$type.$name")
            } catch (e: WireException) {
                // a value with no wire mapping, a type the schema lacks, ...: named by the
                // innermost field, once ("field ns.T.f: "), as libwire names a field's refusal
                if (e.offset >= 0 || e.detail.startsWith("field ")) throw e
                throw WireException(e.cls, e.offset, "field $type.$name: ${e.detail}", e.status)
            }
            count++
        }
        TapeOps.LE32.set(b, countAt, count)
    }

    private fun wireEnum(v: WireEnum) {
        if (v.type != null) {
            val idx = ctx.findType(v.type) ?: throw WireException("schema", -1, "enum type ${v.type} is not in the schema")
            val d = ctx.enumDecl(idx)
            if (d != null && !d.has(v.value)) throw EnumRefused(d, v.value)
            u8(TypeId.ENUM); u32(idx); u32(v.value)
        } else {
            val id = (v.typeId ?: 0xffffffffL).toInt()
            val d = ctx.enumById(id)?.let { ctx.enumDecl(it) }
            if (d != null && !d.has(v.value)) throw EnumRefused(d, v.value)
            u8(TapeOps.ENUM_ID); u32(id); u32(v.value)
        }
    }

    /** A scalar of an explicit wire type ([WireField.type]). */
    private fun typed(t: Int, v: Any) {
        fun num(): Number = when (v) {
            is Number -> v
            is UByte -> v.toLong()
            is UShort -> v.toLong()
            is UInt -> v.toLong()
            is ULong -> v.toLong()
            is Boolean -> if (v) 1 else 0
            else -> throw WireException("value", -1, "a ${v.javaClass.simpleName} cannot be written as ${TypeId.name(t)}")
        }
        when {
            TypeId.isSignedInt(t) || TypeId.isUnsignedInt(t) -> op64(t, num().toLong())
            t == TypeId.FLOAT16 && v is Float16 -> value(v)
            t == TypeId.BFLOAT16 && v is BFloat16 -> value(v)
            t == TypeId.FLOAT32 && v is Float -> op64(t, TapeOps.f32Tape(v))
            TypeId.isFloat(t) -> opF64(t, num().toDouble())
            else -> value(v)
        }
    }
}

/**
 * The initial capacity of a hash map or set that gets [n] entries and never resizes: n / 0.75 + 1
 * (n * 2 made tables twice that size, 10,000 entries: 32,768 slots instead of 16,384, zeroed and
 * walked for nothing).
 */
internal fun hashCapacity(n: Int): Int = if (n < 3) 4 else n + n / 3 + 1

/** Lists of compact Strings as one L1_LIST (`-Dlibwire.l1Lists=false`: as a LIST of STRING ops). */
private val L1_LISTS = System.getProperty("libwire.l1Lists") != "false"

/** Strings at least this long are checked for ASCII by the JDK's UTF-8 encoder (-Dlibwire.tapeAsciiProbe=N). */
private val ASCII_PROBE = Integer.getInteger("libwire.tapeAsciiProbe", 8)

/** `wire_decode_tape` → read tape → Kotlin values (no further downcalls except type-name lookups). */
internal class TapeDecoder(private val ctx: Context) {
    private var b: ByteArray = ctx.readBuffer
    private var p = 0
    private var end = 0
    /** Referenceable values in pre-order (placeholders while a struct is being built). */
    private val ords = ArrayList<Any?>()

    private object Building

    /** `wire_decode_tape` + copy of the tape only (benchmark breakdown); returns the tape length. */
    fun tapeOnly(bytes: ByteArray): Int {
        fetch(bytes)
        return end
    }

    /**
     * [decode] from a tape made before ([tape], [len] bytes; [bytes] its payload, for SPANs): the
     * JVM half alone, no C call (benchmark breakdown, `ProfileMain mixed parts`).
     */
    fun fromTape(bytes: ByteArray, tape: ByteArray, len: Int): List<Any?> {
        ords.clear()
        shapes?.clear()
        memStart(bytes.size)
        b = tape
        end = len
        src = bytes
        p = 4
        val roots = u32()
        val out = ArrayList<Any?>(roots)
        repeat(roots) { out.add(value()) }
        return out
    }

    /** The payload being decoded: SPAN ops give binaries and dense arrays as offsets into it. */
    private var src: ByteArray = b

    /** Under reference tracking, lists already shaped for a property (one instance when shared). */
    private var shapes: java.util.IdentityHashMap<Any, Any>? = null

    private fun memo(): java.util.IdentityHashMap<Any, Any>? =
        if (!ctx.refTrackingOption) null else shapes ?: java.util.IdentityHashMap<Any, Any>().also { shapes = it }

    private fun shaped(v: Any?, f: FieldInfo): Any? {
        val sh = f.shape
        return if (sh == null || v == null) v else sh.apply(v, memo())
    }

    fun decode(bytes: ByteArray): List<Any?> {
        ords.clear()
        shapes?.clear()
        memStart(bytes.size)
        fetch(bytes)
        src = bytes
        p = 4
        val roots = u32()
        val out = ArrayList<Any?>(roots)
        repeat(roots) { out.add(value()) }
        return out
    }

    /**
     * JVM memory made for struct objects so far ([charge]), and what [Limit.MEM_DECODE] allows for
     * this payload of [memLen] bytes (-1: the limit not read yet).
     */
    private var mem = 0L
    private var memMax = -1L
    private var memLen = 0

    private fun memStart(len: Int) {
        mem = 0L
        memMax = -1L
        memLen = len
    }

    /**
     * Counts [n] bytes about to be made for a struct object (an estimate per class,
     * [ClassInfo.heapBytes], [StructPlan.heapBytes]) against the context's [Limit.MEM_DECODE]
     * budget: the limit per payload byte + WireH.MEM_DECODE_BASE, as for the compiled codecs' arena
     * (spec R-LIMIT-9). In compatible mode a writer's struct can take one payload byte and the
     * reader's class be hundreds of bytes, so the tape path keeps the same ceiling.
     */
    private fun charge(n: Long) {
        mem += n
        if (mem > memMax) memOver()
    }

    /** A [WireStruct] of [nf] fields, estimated: the object and its map, a map entry a field. */
    private fun wireStructBytes(nf: Int): Long = 64L + 48L * nf

    /** The first charge reads the limit; past it, a "limit" error at offset 0 (the read tape carries no payload offsets). */
    private fun memOver() {
        val per = ctx.getLimit(Limit.MEM_DECODE)
        if (memMax < 0) {
            memMax = if (per != 0L && memLen > (Long.MAX_VALUE - WireH.MEM_DECODE_BASE) / per) Long.MAX_VALUE
                else WireH.MEM_DECODE_BASE + per * memLen
            if (mem <= memMax) return
        }
        throw WireException(
            "limit", 0,
            "decoding makes more than $memMax bytes of objects for $memLen input bytes (WIRE_LIMIT_MEM_DECODE: " +
                "$per per input byte + ${WireH.MEM_DECODE_BASE}; tape path: offset 0, the read tape has no input offsets)",
        )
    }

    private fun fetch(bytes: ByteArray) {
        val len = ctx.decodeToTape(bytes)
        b = ctx.readBuffer
        end = len
        if (len < 8 || b[0] != 'W'.code.toByte() || b[1] != 'T'.code.toByte() || (b[2] != 1.toByte() && b[2] != 2.toByte())) {
            throw WireException("arg", -1, "libwire returned a tape of an unknown version")
        }
    }

    private fun u8(): Int = b[p++].toInt() and 0xff
    private fun u16(): Int { val v = (TapeOps.LE16.get(b, p) as Short).toInt() and 0xffff; p += 2; return v }
    private fun u32(): Int { val v = TapeOps.LE32.get(b, p) as Int; p += 4; return v }
    private fun u64(): Long { val v = TapeOps.LE64.get(b, p) as Long; p += 8; return v }
    private fun f64(): Double = Double.fromBits(u64())

    private fun text(): String {
        val k = u16()
        val s = String(b, p, k, Charsets.UTF_8)
        p += k
        return s
    }

    /**
     * The Latin-1 text `a[o, o + k)` as a compact String. With java.lang open ([JStr]) a text of
     * 4 to 16 bytes goes into an array that becomes the String's own in (overlapping) words,
     * without a call of the array copy stub (which costs more than the copy at these lengths);
     * else, and when longer, `String(byte[], hibyte 0, ...)`: one copy, no charset decoder.
     */
    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN")
    private fun latin1(a: ByteArray, o: Int, k: Int): String {
        if (k in 4..16 && JStr.OPEN) {
            val v = when (k) {
                // (a constant length each: the new array's zeroing is straight stores, no loop)
                4 -> ByteArray(4); 5 -> ByteArray(5); 6 -> ByteArray(6); 7 -> ByteArray(7)
                8 -> ByteArray(8); 9 -> ByteArray(9); 10 -> ByteArray(10); 11 -> ByteArray(11)
                12 -> ByteArray(12); 13 -> ByteArray(13); 14 -> ByteArray(14); 15 -> ByteArray(15)
                else -> ByteArray(16)
            }
            if (k >= 8) {
                TapeOps.LE64.set(v, 0, TapeOps.LE64.get(a, o) as Long)
                TapeOps.LE64.set(v, k - 8, TapeOps.LE64.get(a, o + k - 8) as Long)
            } else {
                TapeOps.LE32.set(v, 0, TapeOps.LE32.get(a, o) as Int)
                TapeOps.LE32.set(v, k - 4, TapeOps.LE32.get(a, o + k - 4) as Int)
            }
            return JStr.NEW.invokeExact(v, 0.toByte()) as String
        }
        return java.lang.String(a, 0, o, k) as String
    }

    /**
     * [latin1] written into the caller's bytecode (`inline`; the same lines, kept apart so that
     * [latin1], [item] and [value] stay as they were: 292 bytecodes, under `FreqInlineSize`, 325,
     * which a wrapper around this would pass), for [latin1s] and [elements]: compiled alone,
     * [latin1]'s code grows with the lengths seen (≈ 3,000 bytes in the full benchmark, over C2's
     * `InlineSmallCode`, 2,500), and a loop compiled after it then called it instead of inlining
     * it (round 26).
     */
    @Suppress("DEPRECATION", "PLATFORM_CLASS_MAPPED_TO_KOTLIN", "NOTHING_TO_INLINE")
    private inline fun latin1Here(a: ByteArray, o: Int, k: Int): String {
        if (k in 4..16 && JStr.OPEN) {
            val v = when (k) {
                // (a constant length each: the new array's zeroing is straight stores, no loop)
                4 -> ByteArray(4); 5 -> ByteArray(5); 6 -> ByteArray(6); 7 -> ByteArray(7)
                8 -> ByteArray(8); 9 -> ByteArray(9); 10 -> ByteArray(10); 11 -> ByteArray(11)
                12 -> ByteArray(12); 13 -> ByteArray(13); 14 -> ByteArray(14); 15 -> ByteArray(15)
                else -> ByteArray(16)
            }
            if (k >= 8) {
                TapeOps.LE64.set(v, 0, TapeOps.LE64.get(a, o) as Long)
                TapeOps.LE64.set(v, k - 8, TapeOps.LE64.get(a, o + k - 8) as Long)
            } else {
                TapeOps.LE32.set(v, 0, TapeOps.LE32.get(a, o) as Int)
                TapeOps.LE32.set(v, k - 4, TapeOps.LE32.get(a, o + k - 4) as Int)
            }
            return JStr.NEW.invokeExact(v, 0.toByte()) as String
        }
        return java.lang.String(a, 0, o, k) as String
    }

    private fun blob(k: Int): ByteArray = b.copyOfRange(p, p + k).also { p += k }

    private fun fullName(ns: String, name: String) = if (ns.isEmpty()) name else "$ns.$name"

    @OptIn(ExperimentalUnsignedTypes::class)
    fun value(): Any? {
        val op = u8()
        return when (op) {
            TypeId.STRING -> {
                val enc = u8()
                val k = u32()
                val s = when (enc) {
                    // (String(byte[], hibyte 0, ...): one copy, no charset decoder)
                    StringEncoding.LATIN1 -> latin1(b, p, k)
                    // (the JDK's UTF-16LE decoder goes through a CharsetDecoder per string)
                    StringEncoding.UTF16 -> JStr.utf16(b, p, k) ?: run { val o = p; String(CharArray(k ushr 1) { ((b[o + 2 * it].toInt() and 0xff) or (b[o + 2 * it + 1].toInt() shl 8)).toChar() }) }
                    else -> String(b, p, k, Charsets.UTF_8)
                }
                p += k
                s
            }
            TypeId.VARINT64, TypeId.INT64, TypeId.TAGGED_INT64 -> u64()
            TypeId.VARINT32, TypeId.INT32 -> u64().toInt()
            TypeId.FLOAT64 -> f64()
            TypeId.BOOL -> u8() != 0
            TapeOps.NULL -> null
            TypeId.LIST -> list(u32())
            TypeId.SET -> {
                val c = u32()
                val coll = LinkedHashSet<Any?>(hashCapacity(c))
                ords.add(coll)
                for (i in 0 until c) coll.add(item())
                coll
            }
            TypeId.MAP -> map(u32())
            TapeOps.PACKED -> packed()
            TapeOps.REF -> {
                val k = u32()
                val v = ords[k]
                if (v === Building) throw WireException("ref", -1, "a cycle through a struct cannot be built into immutable objects")
                v
            }
            TypeId.FLOAT32 -> TapeOps.f32FromTape(u64())
            TypeId.INT8 -> u64().toByte()
            TypeId.INT16 -> u64().toShort()
            TypeId.UINT8 -> u64().toUByte()
            TypeId.UINT16 -> u64().toUShort()
            TypeId.UINT32, TypeId.VAR_UINT32 -> u64().toUInt()
            TypeId.UINT64, TypeId.VAR_UINT64, TypeId.TAGGED_UINT64 -> u64().toULong()
            TypeId.FLOAT16 -> Float16(TapeOps.f16FromTape(u64()))
            TypeId.BFLOAT16 -> BFloat16(TapeOps.bf16FromTape(u64()))
            TypeId.NONE -> WireNone
            TypeId.DATE -> Time.date(u64())
            TypeId.TIMESTAMP -> { val s = u64(); Time.instant(s, (u32().toLong() and 0xffffffffL)) }
            TypeId.DURATION -> { val s = u64(); Time.duration(s, (u32().toLong() and 0xffffffffL)) }
            TypeId.DECIMAL -> {
                val scale = u32()
                val neg = u8() != 0
                val k = u32()
                val be = ByteArray(k) { b[p + k - 1 - it] }
                p += k
                val bi = BigInteger(1, be)
                BigDecimal(if (neg) bi.negate() else bi, scale).also { ords.add(it) }
            }
            TypeId.BINARY -> blob(u32()).also { ords.add(it) }
            TapeOps.SPAN -> {
                // u8 type, u32 n, u64 offset: the bytes are the payload's (C checked the bounds)
                val t = u8()
                val n = u32()
                val at = u64()
                if (n < 0 || at < 0 || at + n > src.size) throw WireException("arg", -1, "a tape span outside the payload")
                val o = at.toInt()
                (if (t == TypeId.BINARY) src.copyOfRange(o, o + n) else array(t, src, o, n)).also { ords.add(it) }
            }
            TypeId.ENUM -> {
                val type = u32()
                val v = u32()
                val e = ctx.boundType(type)?.enumInfo
                if (e != null) {
                    e.constantOf(v) ?: throw WireException("value", -1, "enum value ${Integer.toUnsignedString(v)} out of range for ${ctx.cachedTypeName(type)}")
                } else {
                    WireEnum(ctx.cachedTypeName(type), v)
                }
            }
            TypeId.NAMED_ENUM -> {
                val ns = text()
                val nm = text()
                WireEnum(fullName(ns, nm), u32())
            }
            TapeOps.ENUM_ID -> {
                val id = u32().toLong() and 0xffffffffL
                WireEnum(null, u32(), if (id == 0xffffffffL) null else id)
            }
            TapeOps.STRUCT_IDX -> structIdx()
            TypeId.STRUCT, TapeOps.STRUCT_TD -> struct(op)
            TypeId.UNION -> {
                val type = u32()
                val case = u32()
                val at = ords.size
                ords.add(Building)
                val inner = value()
                val u = WireUnion(if (type == -1) null else ctx.cachedTypeName(type), case, inner)
                ords[at] = u
                u
            }
            else -> {
                if (TypeId.arrayWidth(op) > 0) {
                    val len = u32()
                    val o = p
                    p += len
                    array(op, b, o, len).also { ords.add(it) }
                }
                else throw WireException("arg", -1, "unknown tape op 0x%02x".format(op))
            }
        }
    }

    /**
     * A LIST's [c] elements into an `ArrayList` of that capacity, in methods of their own: the
     * loops' `add` is `ArrayList`'s alone (no call through `MutableCollection` shared with sets)
     * and the loops are compiled apart from [value]'s large switch. A list whose first element is
     * a Latin-1 string is read by [latin1s], any other by [elements] (round 26: a loop shared by
     * all lists takes its branch profile from all of them, and the strings decode ran 20–40 %
     * slower after list_mixed's in the same JVM).
     */
    private fun list(c: Int): ArrayList<Any?> {
        val l = ArrayList<Any?>(c)
        ords.add(l)
        if (c > 0 && b[p].toInt() == TypeId.STRING && b[p + 1].toInt() == StringEncoding.LATIN1) latin1s(l, c) else elements(l, c, 0)
        return l
    }

    /** A list's elements from its first Latin-1 string; from the first other element on, [elements]. */
    private fun latin1s(l: ArrayList<Any?>, c: Int) {
        var i = 0
        while (i < c) {
            val b = b
            val o = p
            if (b[o].toInt() != TypeId.STRING || b[o + 1].toInt() != StringEncoding.LATIN1) {
                elements(l, c, i)
                return
            }
            val k = TapeOps.LE32.get(b, o + 2) as Int
            p = o + 6 + k
            l.add(latin1Here(b, o + 6, k))
            i++
        }
    }

    /**
     * A list's elements [from] on into [l]. The usual ones are read in this loop's own bytecode,
     * Latin-1 text included ([latin1] is `inline`), not through [item] (which sets and maps use):
     * C2 compiles [item] on its own first (it runs once per element), and when [latin1] was
     * already hot then, that code (3,200–4,800 bytes with [latin1] inlined) is over
     * `InlineSmallCode` (2,500), so the loop called it for every element instead of inlining it
     * ("already compiled into a big method": the JVM half's slow mode, round 26). Other elements,
     * UTF-16 strings among them, go through [value] (a call): reading UTF-16 here too
     * ([JStr.utf16Open] inlined into the loop) made list_mixed's JVM half slower (round 26).
     */
    private fun elements(l: ArrayList<Any?>, c: Int, from: Int) {
        var i = from
        while (i < c) {
            val b = b
            val o = p
            val v: Any? = when (b[o].toInt()) {
                TypeId.STRING -> if (b[o + 1].toInt() == StringEncoding.LATIN1) {
                    val k = TapeOps.LE32.get(b, o + 2) as Int
                    p = o + 6 + k
                    latin1Here(b, o + 6, k)
                } else {
                    value()
                }
                TypeId.VARINT64 -> { p = o + 9; TapeOps.LE64.get(b, o + 1) as Long }
                TypeId.FLOAT64 -> { p = o + 9; Double.fromBits(TapeOps.LE64.get(b, o + 1) as Long) }
                TypeId.BOOL -> { p = o + 2; b[o + 1].toInt() != 0 }
                TapeOps.NULL -> { p = o + 1; null }
                else -> value()
            }
            l.add(v)
            i++
        }
    }

    /**
     * A MAP's [c] entries into a `LinkedHashMap`, in a method of its own (as [list], and for the
     * same reason: [item] compiled alone may be too big to inline, and a loop inside [value]'s
     * switch shares its profile with every other container). A Latin-1 key and a 64-bit integer
     * value, the usual entry of a `Map<String, Long>`, are read in this loop's own bytecode; any
     * other key or value by [item].
     */
    private fun map(c: Int): LinkedHashMap<Any?, Any?> {
        val m = LinkedHashMap<Any?, Any?>(hashCapacity(c))
        ords.add(m)
        var i = 0
        while (i < c) {
            val b = b
            var o = p
            val k: Any? = if (b[o].toInt() == TypeId.STRING && b[o + 1].toInt() == StringEncoding.LATIN1) {
                val n = TapeOps.LE32.get(b, o + 2) as Int
                p = o + 6 + n
                latin1Here(b, o + 6, n)
            } else {
                item()
            }
            o = p
            val v: Any? = if (b[o].toInt() == TypeId.VARINT64) {
                p = o + 9
                TapeOps.LE64.get(b, o + 1) as Long
            } else {
                item()
            }
            m[k] = v
            i++
        }
        return m
    }

    /**
     * An element of a list, set or map: the usual scalars (Latin-1 strings, 64-bit ints,
     * doubles, bools, nulls) read here, in a method small enough to be inlined into the
     * container's loop (the op read once, no dispatch through [value]'s whole switch); any
     * other op by [value].
     */
    private fun item(): Any? {
        val b = b
        val o = p
        when (b[o].toInt()) {
            TypeId.STRING -> if (b[o + 1].toInt() == StringEncoding.LATIN1) {
                val k = TapeOps.LE32.get(b, o + 2) as Int
                p = o + 6 + k
                return latin1(b, o + 6, k)
            }
            TypeId.VARINT64 -> { p = o + 9; return TapeOps.LE64.get(b, o + 1) as Long }
            TypeId.FLOAT64 -> { p = o + 9; return Double.fromBits(TapeOps.LE64.get(b, o + 1) as Long) }
            TypeId.BOOL -> { p = o + 2; return b[o + 1].toInt() != 0 }
            TapeOps.NULL -> { p = o + 1; return null }
        }
        return value()
    }

    private fun packed(): Any {
        val kind = u8()
        val et = u8()
        val c = u32()
        val coll: MutableCollection<Any?> = if (kind == TypeId.LIST) ArrayList(c) else LinkedHashSet(hashCapacity(c))
        ords.add(coll)
        for (i in 0 until c) {
            val raw = TapeOps.LE64.get(b, p) as Long
            p += 8
            coll.add(
                when (et) {
                    TypeId.VARINT64, TypeId.INT64, TypeId.TAGGED_INT64 -> raw
                    TypeId.VARINT32, TypeId.INT32 -> raw.toInt()
                    TypeId.FLOAT64 -> Double.fromBits(raw)
                    TypeId.BOOL -> raw != 0L
                    TypeId.FLOAT32 -> TapeOps.f32FromTape(raw)
                    TypeId.INT8 -> raw.toByte()
                    TypeId.INT16 -> raw.toShort()
                    TypeId.UINT8 -> raw.toUByte()
                    TypeId.UINT16 -> raw.toUShort()
                    TypeId.UINT32, TypeId.VAR_UINT32 -> raw.toUInt()
                    TypeId.UINT64, TypeId.VAR_UINT64, TypeId.TAGGED_UINT64 -> raw.toULong()
                    TypeId.FLOAT16 -> Float16(TapeOps.f16FromTape(raw))
                    TypeId.BFLOAT16 -> BFloat16(TapeOps.bf16FromTape(raw))
                    else -> throw WireException("arg", -1, "packed element type $et")
                },
            )
        }
        return coll
    }

    /** The dense array of type [t] in the [len] bytes of [a] at [p] (one bulk copy, or one loop for bools). */
    @OptIn(ExperimentalUnsignedTypes::class)
    private fun array(t: Int, a: ByteArray, p: Int, len: Int): Any {
        val w = TypeId.arrayWidth(t)
        if (w <= 0 || len % w != 0) throw WireException("arg", -1, "a ${TypeId.name(t)} of $len bytes")
        val c = len / w
        val seg = MemorySegment.ofArray(a)
        val at = p.toLong()
        return when (t) {
            TypeId.BOOL_ARRAY -> BooleanArray(c) { a[p + it] != 0.toByte() }
            TypeId.INT8_ARRAY -> a.copyOfRange(p, p + c)
            TypeId.UINT8_ARRAY -> a.copyOfRange(p, p + c).asUByteArray()
            TypeId.INT16_ARRAY -> ShortArray(c).also { MemorySegment.copy(seg, LE_I16, at, it, 0, c) }
            TypeId.UINT16_ARRAY -> ShortArray(c).also { MemorySegment.copy(seg, LE_I16, at, it, 0, c) }.asUShortArray()
            TypeId.INT32_ARRAY -> IntArray(c).also { MemorySegment.copy(seg, LE_I32, at, it, 0, c) }
            TypeId.UINT32_ARRAY -> IntArray(c).also { MemorySegment.copy(seg, LE_I32, at, it, 0, c) }.asUIntArray()
            TypeId.INT64_ARRAY -> LongArray(c).also { MemorySegment.copy(seg, LE_I64, at, it, 0, c) }
            TypeId.UINT64_ARRAY -> LongArray(c).also { MemorySegment.copy(seg, LE_I64, at, it, 0, c) }.asULongArray()
            TypeId.FLOAT32_ARRAY -> FloatArray(c).also { MemorySegment.copy(seg, LE_F32, at, it, 0, c) }
            TypeId.FLOAT64_ARRAY -> DoubleArray(c).also { MemorySegment.copy(seg, LE_F64, at, it, 0, c) }
            TypeId.FLOAT16_ARRAY -> Float16Array(ShortArray(c).also { MemorySegment.copy(seg, LE_I16, at, it, 0, c) })
            TypeId.BFLOAT16_ARRAY -> BFloat16Array(ShortArray(c).also { MemorySegment.copy(seg, LE_I16, at, it, 0, c) })
            else -> throw WireException("unsupported", -1, "no Kotlin mapping for ${TypeId.name(t)}")
        }
    }

    /** STRUCT_IDX: a registered struct, fields in wire order (the plan's order when the class has one). */
    private fun structIdx(): Any {
        val type = u32()
        val nf = u32()
        val bd = ctx.boundType(type)
        val plan = bd?.plan
        if (plan == null || plan.fields.size != nf) {
            // no class, or a class bound by name: the field names come from the schema
            return structIdxByName(type, nf, bd?.info)
        }
        charge(plan.heapBytes)
        val at = ords.size
        ords.add(Building)
        val args = plan.newArgs()
        for (f in plan.fields) {
            val v = value()
            val c = if (v == null || f.info.type.isInstance(v)) v else coerceField(v, f.info, ctx.cachedTypeName(type))
            val sh = f.info.shape
            args[f.arg] = if (sh == null || c == null) c else sh.apply(c, memo())
        }
        val obj = plan.construct(args)
        ords[at] = obj
        return obj
    }

    private fun structIdxByName(type: Int, nf: Int, info: ClassInfo?): Any {
        val names = ctx.wireNames(type)
        if (info == null) {
            charge(wireStructBytes(nf))
            val fields = LinkedHashMap<String, Any?>()
            val s = WireStruct(ctx.cachedTypeName(type), fields, null)
            ords.add(s)
            for (i in 0 until nf) {
                val v = value()
                fields[names.getOrNull(i) ?: "#$i"] = v
            }
            return s
        }
        charge(info.heapBytes)
        val at = ords.size
        ords.add(Building)
        val values = arrayOfNulls<Any?>(info.fields.size)
        val present = BooleanArray(info.fields.size)
        for (i in 0 until nf) {
            val v = value()
            val f = names.getOrNull(i)?.let { info.byWireName[it] } ?: continue
            values[f.index] = shaped(coerceField(v, f, ctx.cachedTypeName(type)), f)
            present[f.index] = true
        }
        val obj = info.construct(values, present)
        ords[at] = obj
        return obj
    }

    private fun struct(op: Int): Any {
        if (op == TapeOps.STRUCT_TD) {
            val k = u32()
            p += k // the TypeDef: the layout is already applied
        }
        val type = u32()
        var name: String? = null
        var typeId: Long? = null
        if (type == -1) {
            val id = u32().toLong() and 0xffffffffL
            val ns = text()
            val nm = text()
            if (nm.isNotEmpty()) name = fullName(ns, nm) else if (id != 0xffffffffL) typeId = id
        }
        val info = if (type != -1) ctx.boundType(type)?.info else null
        val nf = u32()
        if (info == null) {
            charge(wireStructBytes(nf))
            val fields = LinkedHashMap<String, Any?>()
            val s = WireStruct(if (type != -1) ctx.cachedTypeName(type) else name, fields, typeId)
            ords.add(s)
            repeat(nf) {
                val fname = text()
                fields[fname] = value()
            }
            return s
        }
        charge(info.heapBytes)
        val at = ords.size
        ords.add(Building)
        val values = arrayOfNulls<Any?>(info.fields.size)
        val present = BooleanArray(info.fields.size)
        for (i in 0 until nf) {
            val k = u16()
            val f = info.field(b, p, k, i)
            p += k
            val v = value()
            if (f == null) continue // a field this class does not have: skipped
            values[f.index] = shaped(coerceField(v, f, if (type != -1) ctx.cachedTypeName(type) else name), f)
            present[f.index] = true
        }
        val obj = info.construct(values, present)
        ords[at] = obj
        return obj
    }

    companion object {
        private val LE_I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
        private val LE_I32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
        private val LE_I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
        private val LE_F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
        private val LE_F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN)
    }
}
