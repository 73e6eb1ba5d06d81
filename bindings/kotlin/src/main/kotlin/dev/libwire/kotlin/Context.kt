package dev.libwire.kotlin

import java.lang.foreign.Arena
import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout
import java.nio.file.Path
import kotlin.reflect.KClass

/**
 * A libwire context (`wire_ctx`): options, limits, the schema registry, the
 * Kotlin classes bound to schema types, and scratch memory. Not thread-safe
 * (use one per thread, or hand it over between threads); [close] frees the
 * native context and all memory of its arena.
 *
 * ```
 * Context(WireOptions(compatible = true)).use { ctx ->
 *     ctx.registerSchema("item.fdl")
 *     ctx.registerDataClass(Item::class, "Item")
 *     val bytes = ctx.encode(Item("a"))
 *     val item = ctx.decode(bytes) as Item
 * }
 * ```
 */
class Context @JvmOverloads constructor(options: WireOptions = WireOptions.DEFAULT) : AutoCloseable {
    init {
        Jdk.require()
    }

    /** Owns the scratch memory; freed by [close]. */
    internal val arena: Arena = Arena.ofShared()
    private val handle: MemorySegment

    /** The `wire_ctx*`; throws once the context is closed (a freed context must never reach C). */
    internal val ptr: MemorySegment
        get() {
            if (closed) throw IllegalStateException("libwire context is closed")
            return handle
        }
    /** Out-parameters of downcalls: 4 slots of 8 bytes ([out] and its slices). */
    internal val out: MemorySegment
    internal val out8: MemorySegment
    internal val out16: MemorySegment
    internal val out24: MemorySegment
    @Volatile private var closed = false

    val isClosed: Boolean get() = closed

    /** Documents made from this context and not yet closed: [close] frees them first. */
    internal val openDocuments = HashSet<Document>()

    /** Kotlin-side copies of the options (read per message without a downcall). */
    internal var refTrackingOption = options.refTracking
        private set
    internal var maxDepth = 64
        private set

    /** The tape buffers, reused per message: the build tape and the read tape. */
    internal var tapeBuffer = ByteArray(1 shl 12)
    internal var readBuffer = ByteArray(1 shl 12)
    private val typeNames = HashMap<Int, String?>()

    private val byClass = HashMap<Class<*>, Bound>()
    private val byType = HashMap<Int, Bound>()

    internal class Bound(val typeIndex: Int, val info: ClassInfo?, val enumInfo: EnumInfo?, val plan: StructPlan? = null)

    /** The encoder's output writer over a native buffer of this context (grown on WIRE_E_BUFFER_FULL). */
    private class Out(var arena: Arena?, var buf: MemorySegment, var writer: MemorySegment)
    private val encOut = Out(null, MemorySegment.NULL, MemorySegment.NULL)

    init {
        val p = Native.ctx_new.invokeExact() as MemorySegment
        if (p.address() == 0L) throw WireException("nomem", -1, "wire_ctx_new failed")
        handle = p
        out = arena.allocate(32, 8)
        out8 = out.asSlice(8, 8)
        out16 = out.asSlice(16, 8)
        out24 = out.asSlice(24, 8)
        try {
            Native.ctx_set_option.invokeExact(p, WireH.OPT_REF_TRACKING, if (options.refTracking) 1L else 0L) as Int
            Native.ctx_set_option.invokeExact(p, WireH.OPT_COMPATIBLE, if (options.compatible) 1L else 0L) as Int
            // JVM strings go to C as they are held (Latin-1 or UTF-16, tape enc 0x80/0x81) and
            // are written in the Java runtime's choice; Latin-1 is always valid, and UTF-16 is
            // copied as the JVM holds it, as Fory Java does: no second check in C
            Native.ctx_set_option.invokeExact(p, WireH.OPT_TRUSTED_TEXT, 1L) as Int
            Native.ctx_set_option.invokeExact(p, WireH.OPT_PEER, options.peer.id.toLong()) as Int
            for ((k, v) in options.limits) {
                val st = Native.ctx_set_limit.invokeExact(p, k.id, v) as Int
                if (st != 0) throw WireException(Native.statusName(st), -1, "bad value $v for limit $k")
            }
            maxDepth = (Native.ctx_get_limit.invokeExact(p, Limit.DEPTH.id) as Long).coerceAtMost(100_000L).toInt()
        } catch (e: Throwable) {
            Native.ctx_free.invokeExact(p)
            arena.close()
            throw e
        }
    }

    // ------------------------------------------------------------------ options
    /** Reference tracking (`WIRE_OPT_REF_TRACKING`). */
    var refTracking: Boolean
        get() = (Native.ctx_get_option.invokeExact(ptr, WireH.OPT_REF_TRACKING) as Long) != 0L
        set(v) {
            check(Native.ctx_set_option.invokeExact(ptr, WireH.OPT_REF_TRACKING, if (v) 1L else 0L) as Int)
            refTrackingOption = v
            mem.reset()
        }

    /** Compatible (schema evolution) mode (`WIRE_OPT_COMPATIBLE`). */
    var compatible: Boolean
        get() = (Native.ctx_get_option.invokeExact(ptr, WireH.OPT_COMPATIBLE) as Long) != 0L
        set(v) {
            check(Native.ctx_set_option.invokeExact(ptr, WireH.OPT_COMPATIBLE, if (v) 1L else 0L) as Int)
            mem.reset()
        }

    fun setLimit(limit: Limit, value: Long) {
        check(Native.ctx_set_limit.invokeExact(ptr, limit.id, value) as Int)
        if (limit == Limit.DEPTH) maxDepth = value.coerceAtMost(100_000L).toInt()
    }
    fun getLimit(limit: Limit): Long = Native.ctx_get_limit.invokeExact(ptr, limit.id) as Long

    val options: WireOptions get() = WireOptions(refTracking, compatible, peer = peerOption)
    internal val peerOption = options.peer

    // ------------------------------------------------------------------ schema
    /** Loads an FDL file (and its imports) and resolves names. */
    fun registerSchema(path: Path) {
        Arena.ofConfined().use { a ->
            check(Native.schema_load_fdl_file.invokeExact(ptr, a.allocateFrom(path.toString())) as Int)
        }
        check(Native.schema_finish.invokeExact(ptr) as Int)
        mem.reset()
    }

    fun registerSchema(path: String) = registerSchema(Path.of(path))

    /** Loads FDL source text; [name] is used in error messages and to resolve imports. */
    fun registerSchemaText(text: String, name: String = "<input>") {
        Arena.ofConfined().use { a ->
            val t = text.toByteArray(Charsets.UTF_8)
            val seg = a.allocate(t.size.toLong().coerceAtLeast(1))
            MemorySegment.copy(t, 0, seg, ValueLayout.JAVA_BYTE, 0, t.size)
            check(Native.schema_load_fdl.invokeExact(ptr, seg, t.size.toLong(), a.allocateFrom(name)) as Int)
        }
        check(Native.schema_finish.invokeExact(ptr) as Int)
        mem.reset()
    }

    /** Number of registered user types. */
    val typeCount: Int get() = Native.type_count.invokeExact(ptr) as Int

    /** Index of a registered type by full name (`"ns.Name"`) or unique bare name; null if absent. */
    fun findType(name: String): Int? {
        val b = name.toByteArray(Charsets.UTF_8)
        val st = Native.type_find.invokeExact(ptr, MemorySegment.ofArray(b), b.size.toLong(), out) as Int
        if (st != 0) {
            Native.ctx_clear_error.invokeExact(ptr)
            return null
        }
        return out.get(ValueLayout.JAVA_INT, 0)
    }

    /** [typeName], cached (registry indexes never change meaning). */
    internal fun cachedTypeName(index: Int): String? = typeNames.getOrPut(index) { typeName(index) }

    /** Full name of a registered type (`"ns.Name"` or `"Name"`). */
    fun typeName(index: Int): String? = Native.cString(Native.type_full_name.invokeExact(ptr, index) as MemorySegment)

    /** 1 struct, 2 enum, 3 union, 4 ext; -1 if no such type. */
    fun typeKind(index: Int): Int = Native.type_kind.invokeExact(ptr, index) as Int

    /**
     * Binds a Kotlin class to the schema struct [typeName]: properties map to
     * fields by snake_case name (or [WireField.name]); decoding calls the primary
     * constructor (defaults fill fields the payload lacks).
     */
    fun registerDataClass(kclass: KClass<*>, typeName: String) {
        val idx = findType(typeName) ?: throw WireException("schema", -1, "type $typeName is not in the schema")
        val kind = typeKind(idx)
        if (kind != 1 && kind != 4) throw WireException("schema", -1, "type $typeName is not a struct")
        val info = ClassInfo.of(kclass)
        val plan = if (kind == 1) wireFieldNames(idx)?.let { StructPlan.of(idx, it, info) } else null
        val b = Bound(idx, info, null, plan)
        byClass[kclass.java] = b
        byType[idx] = b
        mem.reset()
    }

    /**
     * Binds a Kotlin enum class to the schema enum [typeName]: each constant stands for the
     * enumerator of exactly its name (no case folding, no prefix stripping) and is written as that
     * enumerator's number; a constant with no such enumerator is refused when written (Enums.kt).
     */
    fun registerEnum(kclass: KClass<out Enum<*>>, typeName: String) {
        val idx = findType(typeName) ?: throw WireException("schema", -1, "type $typeName is not in the schema")
        if (typeKind(idx) != 2) throw WireException("schema", -1, "type $typeName is not an enum")
        val b = Bound(idx, null, EnumInfo(kclass.java.enumConstants as Array<Enum<*>>, enumDecl(idx)))
        byClass[kclass.java] = b
        byType[idx] = b
        mem.reset()
    }

    /** The wire (snake_case) names of a struct's fields in wire order, from a fresh struct node; null entries for fields known by tag only. */
    private fun wireFieldNames(idx: Int): List<String?>? = scratchStruct(idx) { node ->
        val n = Native.node_count.invokeExact(node) as Long
        (0 until n).map { i -> Native.cString(Native.node_field_name.invokeExact(node, i, out) as MemorySegment) }
    }

    /**
     * The numeric user type id of struct [idx] (what follows STRUCT in a root without a TypeDef),
     * or null when it is registered by name (or is no struct).
     */
    internal fun structUserId(idx: Int): Int? = scratchStruct(idx) { node ->
        (Native.node_user_type_id.invokeExact(node) as Int).takeIf { it != -1 }
    }

    /** [f] of a fresh struct node of type [idx] in a scratch document; null if none can be made. */
    private inline fun <T> scratchStruct(idx: Int, f: (MemorySegment) -> T?): T? {
        val doc = Native.doc_new.invokeExact(ptr) as MemorySegment
        if (doc.address() == 0L) return null
        try {
            val node = Native.node_new_struct.invokeExact(doc, idx) as MemorySegment
            if (node.address() == 0L) {
                Native.ctx_clear_error.invokeExact(ptr)
                return null
            }
            return f(node)
        } finally {
            Native.doc_free.invokeExact(doc)
        }
    }

    private val wireNameCache = HashMap<Int, List<String?>>()

    private val enumDecls = HashMap<Int, EnumDecl?>()

    /** What schema enum [index] declares (Enums.kt), null for no enum; once per index. */
    internal fun enumDecl(index: Int): EnumDecl? = enumDecls.getOrPut(index) { EnumDecl.of(this, index) }

    private val enumIds = HashMap<Int, Int>()
    private var enumIdsAt = -1

    /**
     * The schema enum registered with numeric user id [id], or null (a WireEnum by typeId alone
     * names it so). wire.h maps an id to a type index for a node only: a node of a scratch
     * document is asked, once per id; ids the schema lacks are asked again once it has more types.
     */
    internal fun enumById(id: Int): Int? {
        val n = typeCount
        if (n != enumIdsAt) { enumIds.clear(); enumIdsAt = n }
        val idx = enumIds.getOrPut(id) {
            val doc = Native.doc_new.invokeExact(ptr) as MemorySegment
            var t = -1
            if (doc.address() != 0L) {
                try {
                    val node = Native.node_new_enum.invokeExact(doc, id, 0) as MemorySegment
                    if (node.address() != 0L && Native.node_user_type.invokeExact(doc, node, out) as Int == 0) {
                        t = out.get(ValueLayout.JAVA_INT, 0) // (an enum node: found among enums only)
                    }
                } finally {
                    Native.doc_free.invokeExact(doc)
                }
            }
            Native.ctx_clear_error.invokeExact(ptr)
            t
        }
        return if (idx < 0) null else idx
    }

    /** [wireFieldNames], cached (a struct's fields never change once the schema is finished). */
    internal fun wireNames(idx: Int): List<String?> = wireNameCache.getOrPut(idx) { wireFieldNames(idx) ?: emptyList() }

    /** Whether [k] got a codec plan at registration (fields by wire index); false: it goes by field name. */
    fun hasPlan(k: KClass<*>): Boolean = byClass[k.java]?.plan != null

    internal fun boundClass(c: Class<*>): Bound? = byClass[c]
    /** The class an untyped decode builds for each struct type (the last one bound to it). */
    internal fun boundDataClasses(): List<Class<*>> = byType.values.mapNotNull { it.info?.kclass?.java }

    /**
     * Whether [k] is encoded and decoded by libwire's compiled codecs (a native memory layout made
     * for it on first use); false: it goes through the tape codec ([layoutProblem] says why).
     */
    fun hasLayout(k: KClass<*>): Boolean = mem.planOf(k.java) != null

    /** Why [k] has no native layout (null if it has one). */
    fun layoutProblem(k: KClass<*>): String? = if (mem.planOf(k.java) != null) null else mem.reasons[k.java]
    internal fun boundType(index: Int): Bound? = byType[index]

    // ------------------------------------------------------------------ codec
    /** Encodes one value as a complete payload (one root). */
    fun encode(value: Any?): ByteArray {
        if (value != null) {
            val p = mem.planOf(value.javaClass)
            if (p != null) {
                return try {
                    mem.encode(p, value)
                } catch (e: EnumRefused) {
                    encodeAll(listOf(value)) // (the tape path names the field; Enums.kt)
                }
            }
        }
        return encodeAll(listOf(value))
    }

    /** Encodes each value as one root, concatenated. */
    fun encodeAll(values: List<Any?>): ByteArray =
        encoder().encode(values)

    /** Decodes a payload holding exactly one root value. */
    fun decode(bytes: ByteArray): Any? {
        val p = mem.rootPlan(bytes)
        if (p != null) {
            if (!mem.roots.foreign) return mem.decode(p, bytes)
            try {
                return mem.decode(p, bytes)
            } catch (e: WireException) {
                // a writer's TypeDef past what the compiled decoder maps for its type (a limit):
                // the tape path reads it, as it did before the compiled codecs read such roots
                if (e.status != Status.LIMIT) throw e
                mem.roots.refuse(bytes)
            }
        }
        val all = decodeAll(bytes)
        if (all.size != 1) throw WireException("trailing", -1, "payload has ${all.size} root values, expected 1")
        return all[0]
    }

    /** Decodes every root value of a payload. */
    fun decodeAll(bytes: ByteArray): List<Any?> = (decoder ?: TapeDecoder(this).also { decoder = it }).decode(bytes)

    /**
     * Decodes a payload whose root is the data class [k] through its native layout (the tape codec
     * when [k] has none).
     */
    fun <T : Any> decode(bytes: ByteArray, k: KClass<T>): T {
        val p = mem.planOf(k.java)
        val v = if (p != null) mem.decode(p, bytes) else decode(bytes)
        val j = k.javaObjectType
        // a root of another type is the payload's fault: a WireException, not the ClassCastException of Class.cast
        if (!j.isInstance(v)) throw WireException("type", -1, "the payload holds ${v?.javaClass?.simpleName?.let { "a $it" } ?: "null"}, not a ${k.simpleName}")
        return j.cast(v)
    }

    /** Compiled codecs of registered data classes (libwire's native memory layouts). */
    internal val mem = MemCodec(this)

    /** Reused per message (a context is used by one thread at a time). */
    private var tapeEncoder: TapeEncoder? = null
    private var decoder: TapeDecoder? = null

    private fun encoder(): TapeEncoder {
        val e = tapeEncoder
        if (e != null && e.refTracking == refTrackingOption && e.depthLimit == maxDepth) return e
        return TapeEncoder(this).also { tapeEncoder = it }
    }

    /**
     * Annotated listing of a payload (`wire_dump`): one line per byte range with its offset,
     * length, nesting depth and a description, as `wire dump` prints it. Decoding errors
     * end the listing and are returned in [Dump.error].
     */
    fun dump(bytes: ByteArray): Dump {
        val lines = ArrayList<DumpLine>()
        val target = java.lang.invoke.MethodHandles.lookup().findStatic(
            Context::class.java, "dumpLine",
            java.lang.invoke.MethodType.methodType(
                Void.TYPE, ArrayList::class.java, MemorySegment::class.java, Long::class.javaPrimitiveType,
                Long::class.javaPrimitiveType, Int::class.javaPrimitiveType, MemorySegment::class.java,
            ),
        ).bindTo(lines)
        Arena.ofConfined().use { a ->
            val stub = Native.upcall(target, Native.DUMP_CALLBACK, a)
            val data = a.allocate(maxOf(1L, bytes.size.toLong()))
            MemorySegment.copy(bytes, 0, data, ValueLayout.JAVA_BYTE, 0, bytes.size)
            val st = Native.dump.invokeExact(ptr, data, bytes.size.toLong(), stub, MemorySegment.NULL) as Int
            return Dump(lines, if (st != 0) error(st) else null)
        }
    }

    // ------------------------------------------------------------------ the codec's downcalls
    private fun newOut(o: Out, cap: Long) {
        if (o.writer.address() != 0L) Native.writer_free.invokeExact(o.writer)
        o.arena?.close()
        val a = Arena.ofShared()
        o.arena = a
        o.buf = a.allocate(cap, 8)
        o.writer = Native.writer_new.invokeExact(ptr, o.buf, cap) as MemorySegment
        if (o.writer.address() == 0L) throw WireException("nomem", -1, "wire_writer_new failed")
    }

    /**
     * Encodes the build tape `tape[0, n)` (`wire_encode_tape_to`, the tape passed as a heap segment)
     * into the context's output writer and returns the payload.
     */
    internal fun encodeTape(tape: ByteArray, n: Int): ByteArray {
        val o = encOut
        // twice the tape and some: the room tape_enc.c's containers take their fast path in
        // (wq_open), which a fixed buffer must have from the start
        val room = 2L * n + 64
        if (o.writer.address() == 0L || o.buf.byteSize() < room) newOut(o, maxOf(4096L, room, if (o.writer.address() == 0L) 0L else o.buf.byteSize() * 2))
        while (true) {
            Native.writer_reset.invokeExact(o.writer)
            val st = Native.encode_tape_to.invokeExact(ptr, MemorySegment.ofArray(tape), n.toLong(), o.writer) as Int
            val size = Native.writer_size.invokeExact(o.writer) as Long
            if (st == 0) {
                val r = ByteArray(Math.toIntExact(size))
                MemorySegment.copy(o.buf, ValueLayout.JAVA_BYTE, 0L, r, 0, r.size)
                return r
            }
            if (st != Status.BUFFER_FULL) throw tapeError(st)
            Native.ctx_clear_error.invokeExact(ptr)
            newOut(o, maxOf(size, o.buf.byteSize() * 2))
        }
    }

    /**
     * Decodes a payload into a tape, written by C straight into [readBuffer] (`wire_decode_tape_into`
     * with `WIRE_TAPE_FIELD_INDEX` and `WIRE_TAPE_SPANS`: binaries and dense arrays as offsets into
     * [bytes], which the reader keeps; the payload and the buffer passed as heap segments, no
     * copy); returns its length. A buffer too small is grown to the size C reports and the call
     * made again.
     */
    internal fun decodeToTape(bytes: ByteArray): Int {
        val lenOut = tapeLen
        while (true) {
            val buf = readBuffer
            val st = Native.decode_tape_into.invokeExact(
                ptr, MemorySegment.ofArray(bytes), bytes.size.toLong(), WireH.TAPE_FIELD_INDEX or WireH.TAPE_SPANS,
                MemorySegment.ofArray(buf), buf.size.toLong(), MemorySegment.ofArray(lenOut),
            ) as Int
            val n = lenOut[0]
            if (st == 0) return Math.toIntExact(n)
            if (st != Status.BUFFER_FULL) throw error(st)
            Native.ctx_clear_error.invokeExact(ptr)
            if (n > Int.MAX_VALUE - 8) throw WireException("limit", -1, "a tape of $n bytes does not fit a JVM array")
            readBuffer = ByteArray(maxOf(n, 2L * buf.size).coerceAtMost(Int.MAX_VALUE - 8L).toInt())
        }
    }

    /** The tape length `wire_decode_tape_into` writes (a heap array lent to the call). */
    private val tapeLen = LongArray(1)

    // ------------------------------------------------------------------ errors
    /** The context's last error as an exception (and clears it). */
    internal fun error(status: Int): WireException {
        val code = (Native.ctx_error_code.invokeExact(ptr) as Int).let { if (it == 0) status else it }
        val offset = Native.ctx_error_offset.invokeExact(ptr) as Long
        val msg = Native.cString(Native.ctx_error_message.invokeExact(ptr) as MemorySegment) ?: ""
        Native.ctx_clear_error.invokeExact(ptr)
        return WireException(Native.statusName(code), offset, msg.ifEmpty { Native.statusName(code) }, code)
    }

    /** An error of `wire_encode_tape`: its offset is in the tape, which the caller never saw. */
    internal fun tapeError(status: Int): WireException {
        val e = error(status)
        return WireException(e.cls, -1, "${e.detail} (tape offset ${e.offset})", e.status)
    }

    internal fun check(status: Int) {
        if (status != 0) throw error(status)
    }

    /** A builder returned NULL: the error is on the context. */
    internal fun nodeFailed(): WireException = error(Status.ARG)

    private companion object {
        /** The `wire_dump_fn` upcall target. */
        @JvmStatic
        fun dumpLine(lines: ArrayList<DumpLine>, user: MemorySegment, offset: Long, length: Long, depth: Int, text: MemorySegment) {
            lines.add(DumpLine(offset, length, depth, Native.cString(text) ?: ""))
        }
    }

    override fun close() {
        if (closed) return
        for (d in openDocuments.toList()) d.close()
        closed = true
        if (encOut.writer.address() != 0L) Native.writer_free.invokeExact(encOut.writer)
        encOut.arena?.close()
        Native.ctx_free.invokeExact(handle)
        arena.close()
    }
}
