package dev.libwire.kotlin.testee

/**
 * The value notation (spec/notation.md) for the testee: printed and parsed by
 * libwire itself ([dev.libwire.kotlin.Document.notation],
 * [dev.libwire.kotlin.Document.addNotation]), so the conformance suite checks
 * the binding's codec and not a notation printer of its own.
 */

/** A malformed request (answered with class "notation"). */
class NotationException(message: String) : RuntimeException(message)

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
