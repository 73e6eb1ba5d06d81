package dev.libwire.kotlin

import java.util.IdentityHashMap
import kotlin.reflect.KClass
import kotlin.reflect.KType
import kotlin.reflect.full.isSubtypeOf
import kotlin.reflect.full.withNullability
import kotlin.reflect.typeOf

/*
 * What a data class's list property decodes to, on every path (compiled codecs, generated or
 * composed; the tape codec):
 *  - declared read-only `List<T>`: a fixed-size list over an array of the items
 *    (`java.util.Arrays.asList`, what Kotlin's `listOf(a, b, …)` returns; `set` works, `add` and
 *    `remove` throw), empty lists included;
 *  - declared `MutableList<T>` (or `ArrayList<T>`): an `ArrayList`;
 *  - anything else (`Collection<T>`, `Any`, dynamic values): an `ArrayList`, as before.
 * The same holds for lists nested in lists, sets and maps, by the type arguments.
 */

private val MUTABLE_COLLECTION: KType = typeOf<MutableCollection<*>>()
private val NO_ITEMS = arrayOfNulls<Any?>(0)

/** The JVM class of every fixed-size list this binding makes (`java.util.Arrays$ArrayList`). */
internal val FIXED_LIST_CLASS: Class<*> = NO_ITEMS.asList().javaClass

/** A new empty fixed-size list (a new wrapper over a shared empty array: no two values share one list). */
internal fun emptyFixed(): List<Any?> = NO_ITEMS.asList()

/**
 * Is [t] Kotlin's read-only `List<T>` (not `MutableList<T>`)? Both are `java.util.List` and have
 * the same `KClass` (`classifier` does not tell them apart: checked, LayoutTest
 * `readOnlyListsAreFixedSizeOnEveryPath`); the Kotlin type does: `MutableList<T>` is a subtype of
 * `MutableCollection<*>`, `List<T>` is not.
 */
internal fun isReadOnlyList(t: KType): Boolean {
    if ((t.classifier as? KClass<*>)?.java != List::class.java) return false
    return try {
        !t.withNullability(false).isSubtypeOf(MUTABLE_COLLECTION)
    } catch (_: Error) {
        false // (kotlin-reflect cannot compare this type: an ArrayList, as before)
    } catch (_: RuntimeException) {
        false
    }
}

/**
 * The tape codec's counterpart of [ListSlot.fixed]: makes what the tape decoder built (`ArrayList`,
 * `LinkedHashSet`, `LinkedHashMap`) into the shape a property's type asks for, at any depth.
 * [memo] (reference tracking) maps a list already converted to its result, so that a list shared
 * by two read-only `List` properties stays one instance.
 */
internal abstract class Shape {
    abstract fun apply(v: Any, memo: IdentityHashMap<Any, Any>?): Any

    companion object {
        /** The shape of a value of type [t], or null when nothing in it needs one. */
        fun of(t: KType): Shape? {
            val j = (t.classifier as? KClass<*>)?.java ?: return null
            val args = t.arguments
            fun sub(i: Int): Shape? = args.getOrNull(i)?.type?.let { of(it) }
            return when {
                j == List::class.java -> if (isReadOnlyList(t)) FixedList(sub(0)) else MutableListShape(sub(0))
                j == Set::class.java -> sub(0)?.let { SetShape(it) }
                j == Map::class.java -> {
                    val k = sub(0)
                    val v = sub(1)
                    if (k == null && v == null) null else MapShape(k, v)
                }
                else -> null
            }
        }
    }
}

private fun Shape?.on(x: Any?, memo: IdentityHashMap<Any, Any>?): Any? = if (this == null || x == null) x else apply(x, memo)

private class FixedList(val item: Shape?) : Shape() {
    override fun apply(v: Any, memo: IdentityHashMap<Any, Any>?): Any {
        if (v !is Collection<*> || v.javaClass === FIXED_LIST_CLASS) return v // (ours: its items are shaped)
        memo?.get(v)?.let { return it }
        val n = v.size
        val out = if (n == 0) {
            emptyFixed()
        } else {
            val a = arrayOfNulls<Any?>(n)
            var i = 0
            for (x in v) a[i++] = item.on(x, memo)
            a.asList()
        }
        memo?.put(v, out)
        return out
    }
}

private class MutableListShape(val item: Shape?) : Shape() {
    override fun apply(v: Any, memo: IdentityHashMap<Any, Any>?): Any {
        if (v !is Collection<*>) return v
        @Suppress("UNCHECKED_CAST")
        val l = if (v is ArrayList<*>) v as ArrayList<Any?> else {
            memo?.get(v)?.let { return it }
            ArrayList<Any?>(v).also { memo?.put(v, it) }
        }
        if (item != null) for (i in l.indices) l[i] = item.on(l[i], memo)
        return l
    }
}

private class SetShape(val item: Shape) : Shape() {
    override fun apply(v: Any, memo: IdentityHashMap<Any, Any>?): Any {
        if (v !is Collection<*>) return v
        memo?.get(v)?.let { return it }
        val s = LinkedHashSet<Any?>(hashCapacity(v.size))
        for (x in v) s.add(item.on(x, memo))
        memo?.put(v, s)
        return s
    }
}

private class MapShape(val key: Shape?, val value: Shape?) : Shape() {
    override fun apply(v: Any, memo: IdentityHashMap<Any, Any>?): Any {
        if (v !is Map<*, *>) return v
        memo?.get(v)?.let { return it }
        val m = LinkedHashMap<Any?, Any?>(hashCapacity(v.size))
        for ((k, x) in v) m[key.on(k, memo)] = value.on(x, memo)
        memo?.put(v, m)
        return m
    }
}
