package dev.libwire.kotlin

import java.lang.foreign.Arena
import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout

/*
 * The numbers a schema enum declares, checked when an enum value is written. A bound Kotlin enum
 * constant stands for the schema enumerator of its exact name (case and all: no prefix stripped,
 * no case folded) and writes that enumerator's number (EnumInfo); a WireEnum writes its value. A
 * constant the schema enum has no enumerator of that name for, and a WireEnum number the schema
 * enum does not declare, are refused with one `value` error naming the field, the constant or
 * number, and the declared names or numbers, on every path. The check is made once per type
 * where it can be: registerEnum maps the constants to numbers and marks the ones without an
 * enumerator (EnumInfo.undeclared); an enum class whose every constant names an enumerator of
 * its own ordinal keeps the plain EnumSlot (no table, no check) in the compiled codecs. A
 * WireEnum of a schema enum (by name, or by a numeric id the schema has) is checked against the
 * enum's EnumDecl, built once per context. The compiled codecs throw EnumRefused without a field
 * and Context.encode writes the value again on the tape path, which names the field (one wording
 * on every path). Reading keeps any number: a newer writer's enumerator decodes into a WireEnum,
 * or into the bound constant of that enumerator's name, or is a `value` error when the bound
 * class has no constant for the number.
 */

/** What schema enum [type] declares (wire_schema_enum_values). */
internal class EnumDecl(val type: Int, val typeName: String, values: IntArray, names: Array<String>) {
    /** The enumerators' numbers by name (the first of a name the ABI let in twice). */
    private val byName: Map<String, Int> = HashMap<String, Int>().also { m ->
        for (i in names.indices) m.putIfAbsent(names[i], values[i])
    }
    /** The names in declaration order (for the error). */
    private val names = names.copyOf()

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

    /** The number of the enumerator named [name] exactly, or null. */
    fun valueOf(name: String): Int? = byName[name]

    /** The error for [x], written in [field] (null: at the root). */
    fun refuse(field: String?, x: Int): WireException {
        val vals = if (dense > 0) LongArray(dense) { it.toLong() } else sorted
        val shown = if (vals.isEmpty()) "none" else vals.take(8).joinToString(", ") +
            (if (vals.size > 8) ", ... (${vals.size} values)" else "")
        val msg = "enum value ${Integer.toUnsignedString(x)} is not declared by $typeName (declared: $shown)"
        return WireException("value", -1, if (field == null) msg else "field $field: $msg")
    }

    /** The error for a bound constant named [constant] that names no enumerator, written in [field]. */
    fun refuseName(field: String?, constant: String): WireException {
        val shown = if (names.isEmpty()) "none" else names.take(8).joinToString(", ") +
            (if (names.size > 8) ", ... (${names.size} values)" else "")
        val msg = "enum constant $constant is not declared by $typeName (declared: $shown)"
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
            val names = Array(n) { i ->
                ctx.check(Native.schema_enum_value_name.invokeExact(ctx.ptr, index, i.toLong(), ctx.out, ctx.out8) as Int)
                val len = ctx.out8.get(ValueLayout.JAVA_LONG, 0)
                val p = ctx.out.get(ValueLayout.ADDRESS, 0).reinterpret(len)
                String(p.toArray(ValueLayout.JAVA_BYTE), Charsets.UTF_8)
            }
            return EnumDecl(index, ctx.typeName(index) ?: "#$index", vals, names)
        }
    }
}

/**
 * An enum number [x] that [decl] does not declare, or a bound constant named [constant] that names
 * none of its enumerators, met where the field is not known (a list item, a compiled codec): the
 * struct field that holds it names it ([named]), the root otherwise.
 */
internal class EnumRefused(val decl: EnumDecl, val x: Int, val constant: String? = null) : RuntimeException(null, null, false, false) {
    fun named(field: String?): WireException = if (constant != null) decl.refuseName(field, constant) else decl.refuse(field, x)
}
