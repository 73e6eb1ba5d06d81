package dev.libwire.kotlin

import java.nio.file.Path

/** Repository root (surefire sets libwire.repo; fallback: ../.. of the working directory). */
val repoRoot: Path = Path.of(System.getProperty("libwire.repo") ?: "../..").toAbsolutePath().normalize()

fun hex(b: ByteArray): String = b.joinToString("") { "%02x".format(it.toInt() and 0xff) }

fun unhex(s: String): ByteArray = ByteArray(s.length / 2) { s.substring(2 * it, 2 * it + 2).toInt(16).toByte() }

/** Deep equality that compares arrays by content (inside lists, sets and maps too). */
@OptIn(ExperimentalUnsignedTypes::class)
fun deepEq(a: Any?, b: Any?): Boolean = when {
    a is ByteArray && b is ByteArray -> a.contentEquals(b)
    a is IntArray && b is IntArray -> a.contentEquals(b)
    a is LongArray && b is LongArray -> a.contentEquals(b)
    a is ShortArray && b is ShortArray -> a.contentEquals(b)
    a is BooleanArray && b is BooleanArray -> a.contentEquals(b)
    a is FloatArray && b is FloatArray -> a.contentEquals(b)
    a is DoubleArray && b is DoubleArray -> a.contentEquals(b)
    a is UByteArray && b is UByteArray -> a.contentEquals(b)
    a is UShortArray && b is UShortArray -> a.contentEquals(b)
    a is UIntArray && b is UIntArray -> a.contentEquals(b)
    a is ULongArray && b is ULongArray -> a.contentEquals(b)
    a is List<*> && b is List<*> -> a.size == b.size && a.indices.all { deepEq(a[it], b[it]) }
    a is Set<*> && b is Set<*> -> a.size == b.size && a.all { x -> b.any { deepEq(x, it) } }
    a is Map<*, *> && b is Map<*, *> -> a.size == b.size && a.entries.all { (k, v) ->
        b.entries.any { (k2, v2) -> deepEq(k, k2) && deepEq(v, v2) }
    }
    else -> a == b
}

/** The bound class of [k] in [c] without its plan: encodeAll and decodeAll take the tape path by field names. */
internal fun dropPlan(c: Context, k: Class<*>) {
    val f = Context::class.java.getDeclaredField("byClass").apply { isAccessible = true }
    @Suppress("UNCHECKED_CAST") val m = f.get(c) as HashMap<Class<*>, Context.Bound>
    val b = m[k] ?: return
    m[k] = Context.Bound(b.typeIndex, b.info, b.enumInfo, null)
}
