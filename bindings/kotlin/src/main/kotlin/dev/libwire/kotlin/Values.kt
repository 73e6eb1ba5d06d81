package dev.libwire.kotlin

/** Wire type ids of the xlang format (`WIRE_T_*` in wire.h). */
object TypeId {
    const val UNKNOWN = 0
    const val BOOL = 1
    const val INT8 = 2
    const val INT16 = 3
    const val INT32 = 4
    const val VARINT32 = 5
    const val INT64 = 6
    const val VARINT64 = 7
    const val TAGGED_INT64 = 8
    const val UINT8 = 9
    const val UINT16 = 10
    const val UINT32 = 11
    const val VAR_UINT32 = 12
    const val UINT64 = 13
    const val VAR_UINT64 = 14
    const val TAGGED_UINT64 = 15
    const val FLOAT8 = 16
    const val FLOAT16 = 17
    const val BFLOAT16 = 18
    const val FLOAT32 = 19
    const val FLOAT64 = 20
    const val STRING = 21
    const val LIST = 22
    const val SET = 23
    const val MAP = 24
    const val ENUM = 25
    const val NAMED_ENUM = 26
    const val STRUCT = 27
    const val COMPATIBLE_STRUCT = 28
    const val NAMED_STRUCT = 29
    const val NAMED_COMPATIBLE_STRUCT = 30
    const val EXT = 31
    const val NAMED_EXT = 32
    const val UNION = 33
    const val TYPED_UNION = 34
    const val NAMED_UNION = 35
    const val NONE = 36
    const val DURATION = 37
    const val TIMESTAMP = 38
    const val DATE = 39
    const val DECIMAL = 40
    const val BINARY = 41
    const val ARRAY = 42
    const val BOOL_ARRAY = 43
    const val INT8_ARRAY = 44
    const val INT16_ARRAY = 45
    const val INT32_ARRAY = 46
    const val INT64_ARRAY = 47
    const val UINT8_ARRAY = 48
    const val UINT16_ARRAY = 49
    const val UINT32_ARRAY = 50
    const val UINT64_ARRAY = 51
    const val FLOAT8_ARRAY = 52
    const val FLOAT16_ARRAY = 53
    const val BFLOAT16_ARRAY = 54
    const val FLOAT32_ARRAY = 55
    const val FLOAT64_ARRAY = 56
    /** Not a wire id: the node kind of a null value. */
    const val NULL = 255

    /** Spec name of a type id (`"var_uint32"`), `"null"` for [NULL], null if undefined. */
    @JvmStatic fun name(id: Int): String? = Native.typeName(id)

    /** Inverse of [name]; -1 if unknown. */
    @JvmStatic fun fromName(name: String): Int {
        val b = name.toByteArray(Charsets.UTF_8)
        return Native.type_from_name.invokeExact(java.lang.foreign.MemorySegment.ofArray(b), b.size.toLong()) as Int
    }

    /** Element width in bytes of a dense array type, else 0. */
    @JvmStatic fun arrayWidth(id: Int): Int = Native.type_array_width.invokeExact(id) as Int

    internal fun isSignedInt(t: Int) = t in INT8..TAGGED_INT64
    internal fun isUnsignedInt(t: Int) = t in UINT8..TAGGED_UINT64
    internal fun isFloat(t: Int) = t in FLOAT16..FLOAT64
    internal fun isStruct(t: Int) = t in STRUCT..NAMED_EXT
    internal fun isUnion(t: Int) = t in UNION..NAMED_UNION
}

/** String encodings on the wire (`WIRE_STR_*`). */
object StringEncoding {
    const val LATIN1 = 0
    const val UTF16 = 1
    const val UTF8 = 2
    /** Let the writer pick as the Fory Java runtime does. */
    const val AUTO = -1
}

/** An IEEE binary16 value (wire type FLOAT16), kept as its bits. */
data class Float16(val bits: Short) {
    /** Exact. */
    fun toFloat(): Float = java.lang.Float.float16ToFloat(bits)
    override fun toString() = "Float16(${toFloat()})"

    companion object {
        /** Rounds to nearest even. */
        @JvmStatic fun of(value: Float) = Float16(java.lang.Float.floatToFloat16(value))
    }
}

/** A bfloat16 value (wire type BFLOAT16), kept as its bits. */
data class BFloat16(val bits: Short) {
    /** Exact. */
    fun toFloat(): Float = Float.fromBits((bits.toInt() and 0xffff) shl 16)
    override fun toString() = "BFloat16(${toFloat()})"

    companion object {
        /** Rounds to nearest even. */
        @JvmStatic fun of(value: Float) = BFloat16(Native.bfloat16_from_float.invokeExact(value) as Short)
    }
}

/** A FLOAT16_ARRAY: the element bits. */
class Float16Array(val bits: ShortArray) {
    override fun equals(other: Any?) = other is Float16Array && bits.contentEquals(other.bits)
    override fun hashCode() = bits.contentHashCode()
    override fun toString() = "Float16Array(${bits.contentToString()})"
}

/** A BFLOAT16_ARRAY: the element bits. */
class BFloat16Array(val bits: ShortArray) {
    override fun equals(other: Any?) = other is BFloat16Array && bits.contentEquals(other.bits)
    override fun hashCode() = bits.contentHashCode()
    override fun toString() = "BFloat16Array(${bits.contentToString()})"
}

/** The NONE value (type 36), distinct from null. */
object WireNone {
    override fun toString() = "WireNone"
}

/**
 * A struct of a schema type that has no registered Kotlin class.
 * [type] is the registered full name (`"ns.Name"` or `"Name"`); [typeId] the numeric
 * user id when the type is known only by id. [fields] are in wire order, by
 * snake_case wire name (or `"#<tag>"`).
 */
data class WireStruct(val type: String?, val fields: Map<String, Any?>, val typeId: Long? = null)

/** An enum value of a schema type that has no registered Kotlin enum class. */
data class WireEnum(val type: String?, val value: Int, val typeId: Long? = null)

/** A union value: [case] id and its [value]. [type] null for an untyped UNION. */
data class WireUnion(val type: String?, val case: Int, val value: Any?)

/**
 * Overrides how a data class property maps to its struct field.
 * [name]: wire (snake_case) field name; default: the property name in snake_case.
 * [type]: wire type name of a scalar field when it differs from the Kotlin default
 * (e.g. `"int32"` for a `fixed int32` field, `"tagged_int64"`, `"float16"`, `"uint8"`).
 */
@Target(AnnotationTarget.VALUE_PARAMETER, AnnotationTarget.PROPERTY)
@Retention(AnnotationRetention.RUNTIME)
annotation class WireField(val name: String = "", val type: String = "")

/** float16 / bfloat16 bit conversions (libwire's, round to nearest even). */
internal object Float16Bits {
    fun fromDouble(d: Double): Short = Native.float16_from_double.invokeExact(d) as Short
    fun toDouble(bits: Short): Double = Native.float16_to_double.invokeExact(bits) as Double
    fun bfloatFromDouble(d: Double): Short = Native.bfloat16_from_double.invokeExact(d) as Short
    fun bfloatToDouble(bits: Short): Double = (Native.bfloat16_to_float.invokeExact(bits) as Float).toDouble()
}

/** One line of [Context.dump]: a byte range of the payload and what it holds. */
data class DumpLine(val offset: Long, val length: Long, val depth: Int, val text: String)

/** The listing [Context.dump] produced, and the decoding error that ended it, if any. */
data class Dump(val lines: List<DumpLine>, val error: WireException?)

/** Flags of [Document.notation] and [Document.addNotation] (WIRE_NOTATION_* of wire.h). */
object Notation {
    /** Indent by two spaces. */
    const val PRETTY = 1
    /** "tracked": false on values written with the not-null flag where tracking would flag them. */
    const val UNTRACKED = 2
    /** Plain JSON (lossy). */
    const val PLAIN = 4
    /** Parse: recorded wire choices that no longer fit are chosen again. */
    const val REFIT = 8
}
