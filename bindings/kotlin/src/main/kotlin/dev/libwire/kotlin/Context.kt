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
    private var inputArena: Arena? = null
    private var input: MemorySegment = MemorySegment.NULL
    @Volatile private var closed = false

    val isClosed: Boolean get() = closed

    /** Documents made from this context and not yet closed: [close] frees them first. */
    internal val openDocuments = HashSet<Document>()

    /**
     * Whether [encode]/[decode] use the bulk path (one `wire_encode_tape` / `wire_decode_tape`
     * call per message) rather than one downcall per value. On by default when the loaded
     * libwire has the tape functions; the values and bytes are the same either way.
     */
    var bulk: Boolean = Native.encode_tape != null && Native.decode_tape != null
        set(v) {
            if (v && (Native.encode_tape == null || Native.decode_tape == null)) {
                throw WireException("unsupported", -1, "the loaded libwire has no wire_encode_tape/wire_decode_tape")
            }
            field = v
        }

    /** Kotlin-side copies of the options (read per message without a downcall). */
    internal var refTrackingOption = options.refTracking
        private set
    internal var maxDepth = 64
        private set

    /**
     * Bulk path: send Latin-1 strings as latin1 bytes (tape enc 0) instead of UTF-8 with the
     * writer policy (enc 0xFF). Same payload bytes; which is faster depends on libwire's tape
     * replay (benchmark knob).
     */
    internal var tapeLatin1 = false

    /** Reused per message by the bulk path. */
    internal var tapeBuffer = ByteArray(1 shl 12)
    internal var readBuffer = ByteArray(1 shl 12)
    private var scratchArena: Arena? = null
    private var scratch: MemorySegment = MemorySegment.NULL
    private val typeNames = HashMap<Int, String?>()

    private val byClass = HashMap<Class<*>, Bound>()
    private val byType = HashMap<Int, Bound>()

    internal class Bound(val typeIndex: Int, val info: ClassInfo?, val enumInfo: EnumInfo?)

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
            for ((k, v) in options.limits) {
                val st = Native.ctx_set_limit.invokeExact(p, k.id, v) as Int
                if (st != 0) throw WireException(Native.statusName(st), -1, "bad value $v for limit $k")
            }
            options.bulk?.let { bulk = it }
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
        }

    /** Compatible (schema evolution) mode (`WIRE_OPT_COMPATIBLE`). */
    var compatible: Boolean
        get() = (Native.ctx_get_option.invokeExact(ptr, WireH.OPT_COMPATIBLE) as Long) != 0L
        set(v) { check(Native.ctx_set_option.invokeExact(ptr, WireH.OPT_COMPATIBLE, if (v) 1L else 0L) as Int) }

    fun setLimit(limit: Limit, value: Long) {
        check(Native.ctx_set_limit.invokeExact(ptr, limit.id, value) as Int)
        if (limit == Limit.DEPTH) maxDepth = value.coerceAtMost(100_000L).toInt()
    }
    fun getLimit(limit: Limit): Long = Native.ctx_get_limit.invokeExact(ptr, limit.id) as Long

    val options: WireOptions get() = WireOptions(refTracking, compatible, bulk = bulk)

    // ------------------------------------------------------------------ schema
    /** Loads an FDL file (and its imports) and resolves names. */
    fun registerSchema(path: Path) {
        Arena.ofConfined().use { a ->
            check(Native.schema_load_fdl_file.invokeExact(ptr, a.allocateFrom(path.toString())) as Int)
        }
        check(Native.schema_finish.invokeExact(ptr) as Int)
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
        val b = Bound(idx, ClassInfo.of(kclass), null)
        byClass[kclass.java] = b
        byType[idx] = b
    }

    /** Binds a Kotlin enum class to the schema enum [typeName]: the wire value is the ordinal. */
    fun registerEnum(kclass: KClass<out Enum<*>>, typeName: String) {
        val idx = findType(typeName) ?: throw WireException("schema", -1, "type $typeName is not in the schema")
        if (typeKind(idx) != 2) throw WireException("schema", -1, "type $typeName is not an enum")
        val b = Bound(idx, null, EnumInfo(kclass.java.enumConstants as Array<Enum<*>>))
        byClass[kclass.java] = b
        byType[idx] = b
    }

    internal fun boundClass(c: Class<*>): Bound? = byClass[c]
    internal fun boundType(index: Int): Bound? = byType[index]

    // ------------------------------------------------------------------ codec
    /** Encodes one value as a complete payload (one root). */
    fun encode(value: Any?): ByteArray = encodeAll(listOf(value))

    /** Encodes each value as one root, concatenated. */
    fun encodeAll(values: List<Any?>): ByteArray =
        if (bulk) TapeEncoder(this).encode(values) else Encoder(this).encodeRoots(values)

    /** Decodes a payload holding exactly one root value. */
    fun decode(bytes: ByteArray): Any? {
        val all = decodeAll(bytes)
        if (all.size != 1) throw WireException("trailing", -1, "payload has ${all.size} root values, expected 1")
        return all[0]
    }

    /** Decodes every root value of a payload. */
    fun decodeAll(bytes: ByteArray): List<Any?> = if (bulk) TapeDecoder(this).decode(bytes) else decodeNodes(bytes)

    /** The per-value path: `wire_decode`, then accessor downcalls per node. */
    internal fun decodeNodes(bytes: ByteArray): List<Any?> {
        val seg = inputSegment(bytes)
        val st = Native.decode.invokeExact(ptr, seg, bytes.size.toLong(), out) as Int
        if (st != 0) throw error(st)
        val doc = out.get(ValueLayout.ADDRESS, 0)
        try {
            return Decoder(this, doc, bytes, seg.address()).roots()
        } finally {
            Native.doc_free.invokeExact(doc)
        }
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

    /** `wire_decode` + `wire_doc_free` only, no Kotlin values (benchmark breakdown); returns the root count. */
    internal fun decodeDocOnly(bytes: ByteArray): Long {
        val seg = inputSegment(bytes)
        val st = Native.decode.invokeExact(ptr, seg, bytes.size.toLong(), out) as Int
        if (st != 0) throw error(st)
        val doc = out.get(ValueLayout.ADDRESS, 0)
        val n = Native.doc_root_count.invokeExact(doc) as Long
        Native.doc_free.invokeExact(doc)
        return n
    }

    /** Copies [bytes] into the context's reusable native input buffer. */
    internal fun inputSegment(bytes: ByteArray): MemorySegment {
        val n = bytes.size.toLong()
        if (input.byteSize() < n || input.address() == 0L) {
            inputArena?.close()
            val a = Arena.ofShared()
            inputArena = a
            input = a.allocate(maxOf(n, 256L, input.byteSize() * 2), 8)
        }
        MemorySegment.copy(bytes, 0, input, ValueLayout.JAVA_BYTE, 0, bytes.size)
        return input
    }

    /** A reusable native buffer of at least [n] bytes (bulk path: the build tape). */
    internal fun nativeScratch(n: Long): MemorySegment {
        if (scratch.byteSize() < n || scratch.address() == 0L) {
            scratchArena?.close()
            val a = Arena.ofShared()
            scratchArena = a
            scratch = a.allocate(maxOf(n, 4096L, scratch.byteSize() * 2), 8)
        }
        return scratch
    }

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
        Native.ctx_free.invokeExact(handle)
        inputArena?.close()
        scratchArena?.close()
        arena.close()
    }
}
