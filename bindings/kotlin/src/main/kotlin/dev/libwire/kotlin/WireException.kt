package dev.libwire.kotlin

/**
 * A failure reported by libwire or by the binding.
 *
 * @property cls the error class: the snake_case status name of `wire.h`
 *   (`truncated`, `varint`, `type`, `schema`, ...; see spec/04-errors-and-limits.md),
 *   or `unsupported` for a Kotlin value the binding cannot map.
 * @property offset byte offset in the input (decode) or output (encode) where it
 *   happened; -1 when the error has no position (e.g. a value the binding rejects).
 * @property status the numeric `WIRE_E_*` code (see [Status]).
 */
class WireException(
    val cls: String,
    val offset: Long,
    val detail: String,
    val status: Int = Status.fromName(cls),
) : RuntimeException(if (offset >= 0) "$cls at byte $offset: $detail" else "$cls: $detail")

/** The pinned `WIRE_E_*` status codes of `wire.h`, by name. */
object Status {
    const val OK = WireH.OK
    const val TRUNCATED = WireH.E_TRUNCATED
    const val VARINT = WireH.E_VARINT
    const val HEADER = WireH.E_HEADER
    const val REF = WireH.E_REF
    const val TYPE = WireH.E_TYPE
    const val STRING = WireH.E_STRING
    const val LENGTH = WireH.E_LENGTH
    const val DEPTH = WireH.E_DEPTH
    const val LIMIT = WireH.E_LIMIT
    const val NOMEM = WireH.E_NOMEM
    const val ARG = WireH.E_ARG
    const val META_STRING = WireH.E_META_STRING
    const val DECIMAL = WireH.E_DECIMAL
    const val VALUE = WireH.E_VALUE
    const val UNSUPPORTED = WireH.E_UNSUPPORTED
    const val COLLECTION = WireH.E_COLLECTION
    const val NOTATION = WireH.E_NOTATION
    const val BUFFER_FULL = WireH.E_BUFFER_FULL
    const val STATE = WireH.E_STATE
    const val TRAILING = WireH.E_TRAILING
    const val TYPEDEF = WireH.E_TYPEDEF
    const val SCHEMA = WireH.E_SCHEMA
    const val IDL = WireH.E_IDL
    const val ENCODE = WireH.E_ENCODE

    private val names: Array<String> by lazy { Array(WireH.STATUS_COUNT) { Native.statusName(it) } }

    /** The status name as libwire prints it (`wire_status_name`). */
    fun name(status: Int): String = Native.statusName(status)

    /** One-sentence description of a status (`wire_status_message`). */
    fun message(status: Int): String =
        Native.cString(Native.status_message.invokeExact(status) as java.lang.foreign.MemorySegment) ?: "unknown status"

    internal fun fromName(name: String): Int = names.indexOf(name).let { if (it < 0) UNSUPPORTED else it }
}
