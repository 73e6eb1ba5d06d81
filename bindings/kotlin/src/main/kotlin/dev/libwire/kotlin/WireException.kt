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
    const val OK = 0
    const val TRUNCATED = 1
    const val VARINT = 2
    const val HEADER = 3
    const val REF = 4
    const val TYPE = 5
    const val STRING = 6
    const val LENGTH = 7
    const val DEPTH = 8
    const val LIMIT = 9
    const val NOMEM = 10
    const val ARG = 11
    const val META_STRING = 12
    const val DECIMAL = 13
    const val VALUE = 14
    const val UNSUPPORTED = 15
    const val COLLECTION = 16
    const val NOTATION = 17
    const val BUFFER_FULL = 18
    const val STATE = 19
    const val TRAILING = 20
    const val TYPEDEF = 21
    const val SCHEMA = 22
    const val IDL = 23
    const val ENCODE = 24

    private val names = arrayOf(
        "ok", "truncated", "varint", "header", "ref", "type", "string", "length", "depth", "limit",
        "nomem", "arg", "meta_string", "decimal", "value", "unsupported", "collection", "notation",
        "buffer_full", "state", "trailing", "typedef", "schema", "idl", "encode",
    )

    /** The status name as libwire prints it (`wire_status_name`). */
    fun name(status: Int): String = Native.statusName(status)

    /** One-sentence description of a status (`wire_status_message`). */
    fun message(status: Int): String =
        Native.cString(Native.status_message.invokeExact(status) as java.lang.foreign.MemorySegment) ?: "unknown status"

    internal fun fromName(name: String): Int = names.indexOf(name).let { if (it < 0) UNSUPPORTED else it }
}
