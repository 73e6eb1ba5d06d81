package dev.libwire.kotlin

import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout

/** Entries of [Roots]' table of foreign root TypeDefs, and the longest TypeDef it keeps. */
private const val FOREIGN_MAX = 64
private const val FOREIGN_KEY_MAX = 4096

/**
 * The class of an untyped decode's root (`Context.decode(bytes)`): the registered data class
 * whose plan reads it through the compiled codecs ([MemCodec.decode]), or null for the tape path.
 * The root's type meta names it: a user type id, a namespace and type name (schema-consistent
 * mode), or a TypeDef (compatible mode), the registered one or a writer's own ([foreignRoot]).
 */
internal class Roots(private val ctx: Context, private val mem: MemCodec) {
    /** Root candidates of untyped decodes: registered TypeDefs (compatible mode) and [rootIds]. */
    private var roots: List<Pair<ByteArray, MemPlan>>? = null

    /** Forgets what was found (the schema or the bindings changed). */
    fun reset() {
        roots = null
    }

    /** The plan of the root of [bytes] when it is a registered data class this context can read directly. */
    fun plan(bytes: ByteArray): MemPlan? {
        foreign = false
        if (bytes.size < 8 || bytes[0].toInt() != 1) return null
        val flag = bytes[1].toInt()
        if (flag != -1 && flag != 0) return null
        val kind = bytes[2].toInt() and 0xff
        if (roots == null) findRoots()
        if (kind == TypeId.NAMED_STRUCT && !rootsCompatible) return namedRoot(bytes)
        if (kind == TypeId.COMPATIBLE_STRUCT || kind == TypeId.NAMED_COMPATIBLE_STRUCT || kind == TypeId.NAMED_STRUCT) {
            if (bytes[3].toInt() != 0) return null
            // the TypeDef's first word (its header: body size, flags and a hash of the body)
            // picks the root: wire_mem_decode compares the whole TypeDef with the layout's own
            // again and refuses a TypeDef of another type, so an equal header of another
            // TypeDef (a collision of the hash) ends in that error, never in another class
            if (bytes.size >= 12) {
                val head = Img.I64.get(bytes, 4) as Long
                val heads = rootHeads
                for (i in heads.indices) {
                    if (heads[i] == head && bytes.size - 4 >= rootLens[i]) return rootPlans[i]
                }
            }
            for (r in roots!!) if (r.first.size < 8 && rootIs(bytes, r.first)) return r.second
            return foreignRoot(bytes)
        }
        if (kind == TypeId.STRUCT) {
            // the user type id (a varuint32) names the type; the schema hash after it is only the
            // check, which C makes (structs of the same fields have the same hash, spec 5.6)
            var id = 0
            var i = 3
            while (true) {
                if (i >= bytes.size || i > 7) return null
                val b = bytes[i].toInt()
                id = id or ((b and 0x7f) shl (7 * (i - 3)))
                i++
                if (b >= 0) break
            }
            val at = java.util.Arrays.binarySearch(rootIds, id)
            return if (at >= 0) rootIdPlans[at] else null
        }
        return null
    }

    /**
     * A root by name in schema-consistent mode: its namespace and type name are two meta strings
     * (each a header of its length, a hash or an encoding byte, its bytes), whose bytes as
     * written pick the plan ([namedKeys]); bytes not seen before are read by libwire
     * (`wire_root_type`, which decodes the meta strings and finds the type). wire_mem_decode
     * checks the names again, so a wrong entry could only end in its error, never in another class.
     */
    private fun namedRoot(bytes: ByteArray): MemPlan? {
        var at = 3
        for (k in 0..1) {
            var h = 0
            var i = at
            while (true) {
                if (i >= bytes.size || i - at > 4) return null
                val b = bytes[i].toInt()
                h = h or ((b and 0x7f) shl (7 * (i - at)))
                i++
                if (b >= 0) break
            }
            if (h and 1 != 0 || h < 0) return null // a reference: the tape path reports it
            val len = h ushr 1
            at = i + (if (len > 16) 8 else if (len > 0) 1 else 0) + len
            if (at > bytes.size) return null
        }
        val keys = namedKeys
        for (i in 0 until namedCount) {
            val key = keys[i]
            if (key.size == at - 3 && java.util.Arrays.equals(bytes, 3, at, key, 0, key.size)) return namedPlans[i]
        }
        val st = Native.root_type.invokeExact(ctx.ptr, MemorySegment.ofArray(bytes), bytes.size.toLong(), ctx.out) as Int
        if (st != 0) {
            Native.ctx_clear_error.invokeExact(ctx.ptr)
            return null // (the tape path reports the error)
        }
        val p = namedByType[ctx.out.get(ValueLayout.JAVA_INT, 0)]
        if (namedCount < keys.size) { // (a bounded table: past it, libwire reads the names each time)
            keys[namedCount] = bytes.copyOfRange(3, at)
            namedPlans[namedCount++] = p
        }
        return p
    }

    /**
     * A root TypeDef (compatible mode) other than the registered ones ([roots]): a writer's of
     * another field order, fewer or more fields, or other names or flags (pyfory, Fory Java). Its
     * bytes seen before pick the plan ([foreignKeys]); bytes not seen before are read by libwire
     * (`wire_root_type`: the type the TypeDef names, as the compiled decoder reads it), and the
     * plan of that type is kept for them. wire_mem_decode reads the TypeDef again and maps the
     * writer's fields onto the layout's type, refusing a TypeDef of another type, so an entry
     * could only end in that error, never in another class. The table is bounded (entries are
     * replaced in turn past [FOREIGN_MAX], and a TypeDef longer than [FOREIGN_KEY_MAX] bytes is
     * read by libwire each time): hostile input does not grow it.
     */
    private fun foreignRoot(bytes: ByteArray): MemPlan? {
        foreign = true
        val end = typeDefEnd(bytes)
        if (end < 0) return null // (the tape path reports it)
        val n = end - 4
        val head = Img.I64.get(bytes, 4) as Long
        val keys = foreignKeys
        val heads = foreignHeads
        for (i in 0 until foreignCount) {
            val key = keys[i]!!
            if (heads[i] == head && key.size == n && java.util.Arrays.equals(bytes, 4, end, key, 0, n)) return foreignPlans[i]
        }
        val st = Native.root_type.invokeExact(ctx.ptr, MemorySegment.ofArray(bytes), bytes.size.toLong(), ctx.out) as Int
        if (st != 0) {
            Native.ctx_clear_error.invokeExact(ctx.ptr)
            return null // (the tape path reports the error)
        }
        val p = byType[ctx.out.get(ValueLayout.JAVA_INT, 0)] // (null: no plan, the tape path reads these roots)
        if (n <= FOREIGN_KEY_MAX) {
            val at = if (foreignCount < FOREIGN_MAX) foreignCount++ else foreignNext.also { foreignNext = (it + 1) % FOREIGN_MAX }
            keys[at] = bytes.copyOfRange(4, end)
            heads[at] = head
            foreignPlans[at] = p
        }
        return p
    }

    /**
     * The end of the root's TypeDef in [bytes] (at 4: an 8-byte header whose low byte is the body
     * size, a varuint32 of the size past 255 when it is 0xff, the body; spec R-TDEF-1), or -1 when
     * it does not fit.
     */
    private fun typeDefEnd(bytes: ByteArray): Int {
        if (bytes.size < 12) return -1
        var size = bytes[4].toInt() and 0xff
        var at = 12
        if (size == 0xff) {
            var extra = 0L
            var shift = 0
            while (true) {
                if (at >= bytes.size || shift > 28) return -1
                val b = bytes[at++].toInt()
                extra = extra or ((b and 0x7f).toLong() shl shift)
                shift += 7
                if (b >= 0) break
            }
            if (extra > Int.MAX_VALUE - 255) return -1
            size += extra.toInt()
        }
        return if (bytes.size - at >= size) at + size else -1
    }

    /** Of each foreign root TypeDef seen by [foreignRoot]: its bytes, first word and plan (null: the tape path). */
    private val foreignKeys = arrayOfNulls<ByteArray>(FOREIGN_MAX)
    private val foreignHeads = LongArray(FOREIGN_MAX)
    private val foreignPlans = arrayOfNulls<MemPlan>(FOREIGN_MAX)
    private var foreignCount = 0
    private var foreignNext = 0
    /** Whether the last [plan] came from a writer's TypeDef ([foreignRoot]). */
    @JvmField var foreign = false

    /**
     * The compiled decoder refused [bytes]' root with a limit (it maps at most 64 writer TypeDefs
     * of one type per context, `MAX_MAPS` in mem_dec_typedef.c): its TypeDef's entry sends it to
     * the tape path from now on, which reads it as before.
     */
    fun refuse(bytes: ByteArray) {
        val end = typeDefEnd(bytes)
        if (end < 0) return
        for (i in 0 until foreignCount) {
            val key = foreignKeys[i]!!
            if (key.size == end - 4 && java.util.Arrays.equals(bytes, 4, end, key, 0, key.size)) foreignPlans[i] = null
        }
    }

    /** How many TypeDefs [foreignRoot] keeps (tests). */
    internal fun foreignEntries(): Int = foreignCount
    /** The plans of every bound struct, by type index ([foreignRoot]). */
    private var byType = HashMap<Int, MemPlan>()

    /** Of each root's names seen by [namedRoot]: their bytes and the plan (null: the tape path). */
    private val namedKeys = Array(64) { ByteArray(0) }
    private val namedPlans = arrayOfNulls<MemPlan>(64)
    private var namedCount = 0
    /** The plans of the bound structs registered by name, by type index. */
    private var namedByType = HashMap<Int, MemPlan>()
    private var rootsCompatible = false

    /** The user type ids of the bound structs registered by id, sorted, and their plans. */
    private var rootIds = IntArray(0)
    private var rootIdPlans: Array<MemPlan> = emptyArray()

    /** Of each root TypeDef of 8 bytes or more ([roots]): its first word, its length and its plan. */
    private var rootHeads = LongArray(0)
    private var rootLens = IntArray(0)
    private var rootPlans: Array<MemPlan> = emptyArray()

    private fun rootIs(bytes: ByteArray, td: ByteArray): Boolean =
        bytes.size - 4 >= td.size && java.util.Arrays.equals(bytes, 4, 4 + td.size, td, 0, td.size)

    private fun findRoots() {
        val tds = ArrayList<Pair<ByteArray, MemPlan>>()
        val ids = java.util.TreeMap<Int, MemPlan>()
        val named = HashMap<Int, MemPlan>()
        val all = HashMap<Int, MemPlan>()
        for (c in ctx.boundDataClasses()) {
            val p = mem.planOf(c) ?: continue
            if (Native.schema_typedef.invokeExact(ctx.ptr, p.typeIndex, ctx.out, ctx.out8) as Int == 0) {
                val n = ctx.out8.get(ValueLayout.JAVA_LONG, 0).toInt()
                val td = ByteArray(n)
                MemorySegment.copy(ctx.out.get(ValueLayout.ADDRESS, 0).reinterpret(n.toLong()), ValueLayout.JAVA_BYTE, 0, td, 0, n)
                tds.add(td to p)
            } else {
                Native.ctx_clear_error.invokeExact(ctx.ptr)
            }
            all[p.typeIndex] = p
            if (ctx.typeKind(p.typeIndex) == 1) {
                // (the registry refuses an id given twice, and a type is bound to one class)
                val id = ctx.structUserId(p.typeIndex)
                if (id != null) ids[id] = p else named[p.typeIndex] = p
            }
        }
        namedByType = named
        byType = all
        foreignCount = 0
        foreignNext = 0
        java.util.Arrays.fill(foreignKeys, null)
        java.util.Arrays.fill(foreignPlans, null)
        namedCount = 0
        java.util.Arrays.fill(namedPlans, null)
        rootsCompatible = ctx.compatible
        roots = tds
        rootIds = ids.keys.toIntArray()
        rootIdPlans = ids.values.toTypedArray()
        val long = tds.filter { it.first.size >= 8 }
        rootHeads = LongArray(long.size) { Img.I64.get(long[it].first, 0) as Long }
        rootLens = IntArray(long.size) { long[it].first.size }
        rootPlans = Array(long.size) { long[it].second }
    }
}
