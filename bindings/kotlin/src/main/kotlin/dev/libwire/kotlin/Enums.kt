package dev.libwire.kotlin

import java.lang.foreign.Arena
import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout

/*
 * The numbers a schema enum declares, checked when an enum value is written. A bound Kotlin enum
 * writes its ordinal and a WireEnum its value; a number the writer's schema enum does not declare
 * is refused with one `value` error naming the field, the number and the declared numbers, on
 * every path. The check is made once per type where it can be: registerEnum marks the constants
 * whose ordinals the schema enum lacks (EnumInfo.undeclared, null when there is none: then the
 * compiled codecs keep the unchecked EnumSlot); a WireEnum of a schema enum (by name, or by a
 * numeric id the schema has) is checked against the enum's EnumDecl, built once per context.
 * The compiled codecs throw EnumRefused without a field and Context.encode writes the value again
 * on the tape path, which names the field (one wording on every path). Reading keeps any number,
 * as before (a newer writer's enumerator decodes into a WireEnum, or into a bound constant of that
 * ordinal).
 */

/** What schema enum [type] declares (wire_schema_enum_values). */
internal class EnumDecl(val type: Int, val typeName: String, values: IntArray) {
    /** The values are exactly 0 .. dense-1 (the usual ordinals): no table. */
    private val dense: Int
    /** Otherwise the values, as unsigned, sorted. */
    private val sorted: LongArray

    init {
        val s = LongArray(values.size) { values[it].toLong() and 0xffffffffL }.also { it.sort() }
        if (s.isNotEmpty() && s.last() == (s.size - 1).toLong()) {
            dense = s.size; sorted = LongArray(0)
        } else {
            dense = 0; sorted = s
        }
    }

    /** Whether the enum declares [x] (a 32-bit number read as unsigned). */
    fun has(x: Int): Boolean {
        val u = x.toLong() and 0xffffffffL
        return u < dense || java.util.Arrays.binarySearch(sorted, u) >= 0
    }

    /** The error for [x], written in [field] (null: at the root). */
    fun refuse(field: String?, x: Int): WireException {
        val vals = if (dense > 0) LongArray(dense) { it.toLong() } else sorted
        val shown = if (vals.isEmpty()) "none" else vals.take(8).joinToString(", ") +
            (if (vals.size > 8) ", ... (${vals.size} values)" else "")
        val msg = "enum value ${Integer.toUnsignedString(x)} is not declared by $typeName (declared: $shown)"
        return WireException("value", -1, if (field == null) msg else "field $field: $msg")
    }

    companion object {
        /** The declaration of type [index], null when it is no enum of [ctx]'s schema. */
        fun of(ctx: Context, index: Int): EnumDecl? {
            val st = Native.schema_enum_values.invokeExact(ctx.ptr, index, MemorySegment.NULL, 0L, ctx.out8) as Int
            if (st == Status.ARG) { // (else BUFFER_FULL: the count asked for)
                Native.ctx_clear_error.invokeExact(ctx.ptr)
                return null
            }
            val n = ctx.out8.get(ValueLayout.JAVA_LONG, 0).toInt()
            val vals = Arena.ofConfined().use { a ->
                val seg = a.allocate(4L * maxOf(n, 1), 4)
                ctx.check(Native.schema_enum_values.invokeExact(ctx.ptr, index, seg, n.toLong(), ctx.out8) as Int)
                IntArray(n) { seg.getAtIndex(ValueLayout.JAVA_INT, it.toLong()) }
            }
            return EnumDecl(index, ctx.typeName(index) ?: "#$index", vals)
        }
    }
}

/**
 * An enum number [x] that [decl] does not declare, met where the field is not known (a list item,
 * a compiled codec): the struct field that holds it names it ([named]), the root otherwise.
 */
internal class EnumRefused(val decl: EnumDecl, val x: Int) : RuntimeException(null, null, false, false) {
    fun named(field: String?): WireException = decl.refuse(field, x)
}
