package dev.libwire.kotlin

/** Wire type ids of the xlang format (`WIRE_T_*` in wire.h). */
object TypeId {
    const val UNKNOWN = WireH.T_UNKNOWN
    const val BOOL = WireH.T_BOOL
    const val INT8 = WireH.T_INT8
    const val INT16 = WireH.T_INT16
    const val INT32 = WireH.T_INT32
    const val VARINT32 = WireH.T_VARINT32
    const val INT64 = WireH.T_INT64
    const val VARINT64 = WireH.T_VARINT64
    const val TAGGED_INT64 = WireH.T_TAGGED_INT64
    const val UINT8 = WireH.T_UINT8
    const val UINT16 = WireH.T_UINT16
    const val UINT32 = WireH.T_UINT32
    const val VAR_UINT32 = WireH.T_VAR_UINT32
    const val UINT64 = WireH.T_UINT64
    const val VAR_UINT64 = WireH.T_VAR_UINT64
    const val TAGGED_UINT64 = WireH.T_TAGGED_UINT64
    const val FLOAT8 = WireH.T_FLOAT8
    const val FLOAT16 = WireH.T_FLOAT16
    const val BFLOAT16 = WireH.T_BFLOAT16
    const val FLOAT32 = WireH.T_FLOAT32
    const val FLOAT64 = WireH.T_FLOAT64
    const val STRING = WireH.T_STRING
    const val LIST = WireH.T_LIST
    const val SET = WireH.T_SET
    const val MAP = WireH.T_MAP
    const val ENUM = WireH.T_ENUM
    const val NAMED_ENUM = WireH.T_NAMED_ENUM
    const val STRUCT = WireH.T_STRUCT
    const val COMPATIBLE_STRUCT = WireH.T_COMPATIBLE_STRUCT
    const val NAMED_STRUCT = WireH.T_NAMED_STRUCT
    const val NAMED_COMPATIBLE_STRUCT = WireH.T_NAMED_COMPATIBLE_STRUCT
    const val EXT = WireH.T_EXT
    const val NAMED_EXT = WireH.T_NAMED_EXT
    const val UNION = WireH.T_UNION
    const val TYPED_UNION = WireH.T_TYPED_UNION
    const val NAMED_UNION = WireH.T_NAMED_UNION
    const val NONE = WireH.T_NONE
    const val DURATION = WireH.T_DURATION
    const val TIMESTAMP = WireH.T_TIMESTAMP
    const val DATE = WireH.T_DATE
    const val DECIMAL = WireH.T_DECIMAL
    const val BINARY = WireH.T_BINARY
    const val ARRAY = WireH.T_ARRAY
    const val BOOL_ARRAY = WireH.T_BOOL_ARRAY
    const val INT8_ARRAY = WireH.T_INT8_ARRAY
    const val INT16_ARRAY = WireH.T_INT16_ARRAY
    const val INT32_ARRAY = WireH.T_INT32_ARRAY
    const val INT64_ARRAY = WireH.T_INT64_ARRAY
    const val UINT8_ARRAY = WireH.T_UINT8_ARRAY
    const val UINT16_ARRAY = WireH.T_UINT16_ARRAY
    const val UINT32_ARRAY = WireH.T_UINT32_ARRAY
    const val UINT64_ARRAY = WireH.T_UINT64_ARRAY
    const val FLOAT8_ARRAY = WireH.T_FLOAT8_ARRAY
    const val FLOAT16_ARRAY = WireH.T_FLOAT16_ARRAY
    const val BFLOAT16_ARRAY = WireH.T_BFLOAT16_ARRAY
    const val FLOAT32_ARRAY = WireH.T_FLOAT32_ARRAY
    const val FLOAT64_ARRAY = WireH.T_FLOAT64_ARRAY
    /** Not a wire id: the node kind of a null value. */
    const val NULL = WireH.T_NULL

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
    const val LATIN1 = WireH.STR_LATIN1
    const val UTF16 = WireH.STR_UTF16
    const val UTF8 = WireH.STR_UTF8
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
    const val PRETTY = WireH.NOTATION_PRETTY
    /** "tracked": false on values written with the not-null flag where tracking would flag them. */
    const val UNTRACKED = WireH.NOTATION_UNTRACKED
    /** Plain JSON (lossy). */
    const val PLAIN = WireH.NOTATION_PLAIN
    /** Parse: recorded wire choices that no longer fit are chosen again. */
    const val REFIT = WireH.NOTATION_REFIT
}
