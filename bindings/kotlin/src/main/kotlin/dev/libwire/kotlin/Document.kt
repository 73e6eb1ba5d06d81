package dev.libwire.kotlin

import java.lang.foreign.Arena
import java.lang.foreign.MemorySegment
import java.lang.foreign.ValueLayout
import java.lang.invoke.MethodHandle
import java.math.BigDecimal

/**
 * The lower-level API: a libwire document (`wire_doc`), a graph of [Node]s with
 * explicit wire type ids and wire choices (string encodings, list headers, map
 * chunks, reference flags, meta string encodings). Decoding keeps every choice,
 * so `Document.decode(ctx, bytes).encode()` reproduces the input bytes.
 *
 * A document belongs to its [Context] and must be closed before it. Nodes die
 * with the document.
 */
class Document private constructor(
    val context: Context,
    internal val ptr: MemorySegment,
    /** Decoded documents point into their input: kept here until [close]. */
    private val inputArena: Arena?,
) : AutoCloseable {
    private var closed = false

    init {
        context.openDocuments.add(this)
    }

    /** A new empty document. */
    constructor(context: Context) : this(context, newDoc(context), null)

    companion object {
        private fun newDoc(ctx: Context): MemorySegment {
            val d = Native.doc_new.invokeExact(ctx.ptr) as MemorySegment
            if (d.address() == 0L) throw ctx.nodeFailed()
            return d
        }

        /** Decodes every root of [bytes] (copied to native memory owned by the document). */
        @JvmStatic fun decode(context: Context, bytes: ByteArray): Document {
            val arena = Arena.ofShared()
            try {
                val seg = arena.allocate(maxOf(1L, bytes.size.toLong()))
                MemorySegment.copy(bytes, 0, seg, ValueLayout.JAVA_BYTE, 0, bytes.size)
                val st = Native.decode.invokeExact(context.ptr, seg, bytes.size.toLong(), context.out) as Int
                if (st != 0) throw context.error(st)
                return Document(context, context.out.get(ValueLayout.ADDRESS, 0), arena)
            } catch (e: Throwable) {
                arena.close()
                throw e
            }
        }
    }

    private fun live(): MemorySegment {
        check(!closed) { "document is closed" }
        return ptr
    }

    val isClosed: Boolean get() = closed

    internal fun wrap(p: MemorySegment): Node {
        if (p.address() == 0L) throw context.nodeFailed()
        return Node(this, p)
    }

    internal fun wrapOrNull(p: MemorySegment): Node? = if (p.address() == 0L) null else Node(this, p)

    // ---------------------------------------------------------------- roots
    val rootCount: Int get() = (Native.doc_root_count.invokeExact(live()) as Long).toInt()
    fun root(index: Int): Node = wrap(Native.doc_root.invokeExact(live(), index.toLong()) as MemorySegment)
    val roots: List<Node> get() = List(rootCount) { root(it) }
    fun addRoot(node: Node) = context.check(Native.doc_add_root.invokeExact(live(), node.ptr) as Int)
    /** Number of nodes (node indexes are 0 until this). */
    val nodeCount: Long get() = Native.doc_node_count.invokeExact(live()) as Long

    /** Adds the roots of a build tape (spec/tape.md) to this document (`wire_doc_add_tape`). */
    fun addTape(tape: ByteArray) {
        val h = Native.doc_add_tape ?: throw WireException("unsupported", -1, "the loaded libwire has no wire_doc_add_tape")
        Arena.ofConfined().use { a ->
            val seg = a.allocate(maxOf(1L, tape.size.toLong()))
            MemorySegment.copy(tape, 0, seg, ValueLayout.JAVA_BYTE, 0, tape.size)
            val st = h.invokeExact(context.ptr, live(), seg, tape.size.toLong()) as Int
            if (st != 0) throw context.tapeError(st)
        }
    }

    /** Encodes every root (`wire_encode`), reproducing recorded wire choices. */
    fun encode(): ByteArray {
        val c = context
        val st = Native.encode.invokeExact(c.ptr, live(), c.out, c.out8) as Int
        if (st != 0) throw c.error(st)
        val p = c.out.get(ValueLayout.ADDRESS, 0)
        val len = c.out8.get(ValueLayout.JAVA_LONG, 0)
        try {
            val arr = ByteArray(Math.toIntExact(len))
            MemorySegment.copy(p.reinterpret(len), ValueLayout.JAVA_BYTE, 0, arr, 0, arr.size)
            return arr
        } finally {
            Native.ctx_free_bytes.invokeExact(c.ptr, p)
        }
    }

    // ---------------------------------------------------------------- notation
    /**
     * [node] and what it reaches as one JSON document of the value notation
     * (spec/notation.md), printed by libwire (`wire_notation_print`); [flags]
     * are the WIRE_NOTATION_* bits ([Notation]).
     */
    @JvmOverloads fun notation(node: Node, flags: Int = 0): String {
        val h = Native.notation_print ?: throw WireException("unsupported", -1, "the loaded libwire has no wire_notation_print")
        val c = context
        val st = h.invokeExact(c.ptr, live(), node.ptr, flags, c.out, c.out8) as Int
        if (st != 0) throw c.error(st)
        val p = c.out.get(ValueLayout.ADDRESS, 0)
        val len = c.out8.get(ValueLayout.JAVA_LONG, 0)
        try {
            val arr = ByteArray(Math.toIntExact(len))
            MemorySegment.copy(p.reinterpret(len), ValueLayout.JAVA_BYTE, 0, arr, 0, arr.size)
            return String(arr, Charsets.UTF_8)
        } finally {
            Native.ctx_free_bytes.invokeExact(c.ptr, p)
        }
    }

    /** Parses one JSON document of the notation with libwire (`wire_notation_parse`) and adds its value as a root. */
    @JvmOverloads fun addNotation(text: String, flags: Int = 0): Node {
        val h = Native.notation_parse ?: throw WireException("unsupported", -1, "the loaded libwire has no wire_notation_parse")
        val c = context
        val utf8 = text.toByteArray(Charsets.UTF_8)
        Arena.ofConfined().use { a ->
            val seg = a.allocate(maxOf(1L, utf8.size.toLong()))
            MemorySegment.copy(utf8, 0, seg, ValueLayout.JAVA_BYTE, 0, utf8.size)
            val st = h.invokeExact(c.ptr, live(), seg, utf8.size.toLong(), flags, c.out, c.out8) as Int
            if (st != 0) throw c.error(st)
        }
        val n = wrap(c.out.get(ValueLayout.ADDRESS, 0))
        addRoot(n)
        return n
    }

    // ---------------------------------------------------------------- builders
    fun newNull(): Node = wrap(Native.node_new_null.invokeExact(live()) as MemorySegment)
    fun newNone(): Node = wrap(Native.node_new_none.invokeExact(live()) as MemorySegment)
    fun newBool(v: Boolean): Node = wrap(Native.node_new_bool.invokeExact(live(), if (v) 1 else 0) as MemorySegment)
    /** Any signed integer type (INT8..TAGGED_INT64); range-checked. */
    fun newInt(typeId: Int, v: Long): Node = wrap(Native.node_new_int.invokeExact(live(), typeId, v) as MemorySegment)
    /** Any unsigned integer type (UINT8..TAGGED_UINT64); [v] holds the 64 bits. */
    fun newUint(typeId: Int, v: Long): Node = wrap(Native.node_new_uint.invokeExact(live(), typeId, v) as MemorySegment)
    /** FLOAT16/BFLOAT16/FLOAT32/FLOAT64 from raw IEEE bits. */
    fun newFloatBits(typeId: Int, bits: Long): Node = wrap(Native.node_new_float_bits.invokeExact(live(), typeId, bits) as MemorySegment)
    /** FLOAT16/BFLOAT16/FLOAT32/FLOAT64, rounded to nearest even. */
    fun newFloat(typeId: Int, v: Double): Node = wrap(Native.node_new_float.invokeExact(live(), typeId, v) as MemorySegment)
    /** A string; [encoding] one of [StringEncoding] (AUTO = the Java runtime's choice). */
    @JvmOverloads fun newString(text: String, encoding: Int = StringEncoding.AUTO): Node = newStringUtf8(text.toByteArray(Charsets.UTF_8), encoding)
    fun newStringUtf8(utf8: ByteArray, encoding: Int = StringEncoding.AUTO): Node =
        wrap(Native.node_new_string.invokeExact(live(), MemorySegment.ofArray(utf8), utf8.size.toLong(), encoding) as MemorySegment)
    fun newBinary(bytes: ByteArray): Node = wrap(Native.node_new_binary.invokeExact(live(), MemorySegment.ofArray(bytes), bytes.size.toLong()) as MemorySegment)
    /** A dense array from little-endian element bytes. */
    fun newArray(typeId: Int, bytes: ByteArray): Node =
        wrap(Native.node_new_array.invokeExact(live(), typeId, MemorySegment.ofArray(bytes), bytes.size.toLong()) as MemorySegment)
    fun newDate(days: Long): Node = wrap(Native.node_new_date.invokeExact(live(), days) as MemorySegment)
    fun newTimestamp(seconds: Long, nanos: Int): Node = wrap(Native.node_new_timestamp.invokeExact(live(), seconds, nanos) as MemorySegment)
    fun newDuration(seconds: Long, nanos: Int): Node = wrap(Native.node_new_duration.invokeExact(live(), seconds, nanos) as MemorySegment)
    fun newDecimal(negative: Boolean, magnitudeLE: ByteArray, scale: Int): Node =
        wrap(Native.node_new_decimal.invokeExact(live(), if (negative) 1 else 0, MemorySegment.ofArray(magnitudeLE), magnitudeLE.size.toLong(), scale) as MemorySegment)
    fun newDecimal(v: BigDecimal): Node = newDecimal(v.signum() < 0, magnitudeLE(v.unscaledValue()), v.scale())
    /** ENUM by numeric user type id (0xFFFFFFFF = unknown type: a field read through a TypeDef). */
    fun newEnum(userTypeId: Int, value: Int): Node = wrap(Native.node_new_enum.invokeExact(live(), userTypeId, value) as MemorySegment)
    fun newNamedEnum(namespace: String, name: String, value: Int): Node {
        val ns = namespace.toByteArray(Charsets.UTF_8)
        val nm = name.toByteArray(Charsets.UTF_8)
        return wrap(Native.node_new_named_enum.invokeExact(live(), MemorySegment.ofArray(ns), ns.size.toLong(), MemorySegment.ofArray(nm), nm.size.toLong(), value) as MemorySegment)
    }
    /** A LIST (or SET with [typeId] = [TypeId.SET]); add elements with [Node.append]. */
    @JvmOverloads fun newList(typeId: Int = TypeId.LIST): Node = wrap(Native.node_new_list.invokeExact(live(), typeId) as MemorySegment)
    fun newSet(): Node = newList(TypeId.SET)
    fun newMap(): Node = wrap(Native.node_new_map.invokeExact(live()) as MemorySegment)
    /** A struct of registered type index [type] (see [Context.findType]); fields unset. */
    fun newStruct(type: Int): Node = wrap(Native.node_new_struct.invokeExact(live(), type) as MemorySegment)
    fun newStruct(typeName: String): Node = newStruct(
        context.findType(typeName) ?: throw WireException("schema", -1, "type $typeName is not in the schema"),
    )
    /** A struct whose layout is given by TypeDef bytes. */
    fun newStructTypedef(typedef: ByteArray): Node =
        wrap(Native.node_new_struct_typedef.invokeExact(live(), MemorySegment.ofArray(typedef), typedef.size.toLong()) as MemorySegment)
    /** A struct with the same type and layout as [other]. */
    fun newStructLike(other: Node): Node = wrap(Native.node_new_struct_like.invokeExact(live(), other.ptr) as MemorySegment)
    /** An enum value of registered enum type index [type]. */
    fun newEnumOf(type: Int, value: Int): Node = wrap(Native.node_new_enum_of.invokeExact(live(), type, value) as MemorySegment)
    /** A union: [type] a registered union index, or -1 (WIRE_BY_NAME) for an untyped UNION. */
    fun newUnion(type: Int, caseId: Int, value: Node): Node = wrap(Native.node_new_union.invokeExact(live(), type, caseId, value.ptr) as MemorySegment)

    override fun close() {
        if (closed) return
        closed = true
        context.openDocuments.remove(this)
        Native.doc_free.invokeExact(ptr)
        inputArena?.close()
    }
}

/**
 * One node of a [Document]. Equality is node identity (shared and cyclic values
 * are the same node). Accessors are valid for the node kinds named in `wire.h`.
 */
class Node internal constructor(val document: Document, private val p: MemorySegment) {
    private val ctx get() = document.context

    /** The `wire_node*`; throws once the document is closed (its nodes are freed with it). */
    internal val ptr: MemorySegment
        get() {
            check(!document.isClosed) { "document is closed" }
            return p
        }

    override fun equals(other: Any?) = other is Node && other.p.address() == p.address()
    override fun hashCode() = p.address().hashCode()
    override fun toString() = "Node(${TypeId.name(type)}#$index)"

    /** Node kind: a [TypeId], or [TypeId.NULL]. */
    val type: Int get() = Native.node_type.invokeExact(ptr) as Int
    /** Creation order in the document, 0..nodeCount-1. */
    val index: Int get() = Native.node_index.invokeExact(ptr) as Int

    /** Signed ints, bool, date (days), timestamp/duration seconds. */
    val int: Long get() = Native.node_int.invokeExact(ptr) as Long
    /** Unsigned ints (the 64 bits). */
    val uint: Long get() = Native.node_uint.invokeExact(ptr) as Long
    val floatBits: Long get() = Native.node_float_bits.invokeExact(ptr) as Long
    val float: Double get() = Native.node_float.invokeExact(ptr) as Double
    /** Nanoseconds of a timestamp/duration. */
    val nanos: Int get() = Native.node_nanos.invokeExact(ptr) as Int

    /** String: bytes in wire encoding; binary/arrays: payload; decimal: magnitude LE; named enum: type name. */
    val bytes: ByteArray get() {
        val p = Native.node_bytes.invokeExact(ptr, ctx.out) as MemorySegment
        return copy(p, ctx.out.get(ValueLayout.JAVA_LONG, 0))
    }

    /** [StringEncoding] of a string node. */
    val stringEncoding: Int get() = Native.node_string_encoding.invokeExact(ptr) as Int

    /** Text of a string node. */
    val text: String get() {
        val st = Native.node_string_utf8.invokeExact(ptr, MemorySegment.NULL, 0L, ctx.out) as Int
        val need = ctx.out.get(ValueLayout.JAVA_LONG, 0)
        if (need == 0L) return ""
        if (st != 0 && st != Status.BUFFER_FULL) throw ctx.error(st)
        val buf = ByteArray(Math.toIntExact(need))
        ctx.check(Native.node_string_utf8.invokeExact(ptr, MemorySegment.ofArray(buf), need, ctx.out) as Int)
        return String(buf, Charsets.UTF_8)
    }

    val decimalNegative: Boolean get() = (Native.node_decimal_negative.invokeExact(ptr) as Int) != 0
    val decimalScale: Int get() = Native.node_decimal_scale.invokeExact(ptr) as Int
    val decimal: BigDecimal get() = bigDecimalOf(decimalNegative, bytes, decimalScale)

    /** Enum: numeric user type id (0xFFFFFFFF as -1 when unknown). */
    val enumTypeId: Int get() = Native.node_enum_type_id.invokeExact(ptr) as Int
    /** Named enum: namespace. */
    val enumNamespace: String get() {
        val p = Native.node_enum_namespace.invokeExact(ptr, ctx.out) as MemorySegment
        return String(copy(p, ctx.out.get(ValueLayout.JAVA_LONG, 0)), Charsets.UTF_8)
    }
    val enumValue: Int get() = Native.node_enum_value.invokeExact(ptr) as Int

    /** Elements of a list/set, entries of a map, fields of a struct. */
    val count: Int get() = (Native.node_count.invokeExact(ptr) as Long).toInt()
    fun child(i: Int): Node = document.wrap(Native.node_child.invokeExact(ptr, i.toLong()) as MemorySegment)
    fun mapKey(i: Int): Node = document.wrap(Native.node_map_key.invokeExact(ptr, i.toLong()) as MemorySegment)
    fun mapValue(i: Int): Node = document.wrap(Native.node_map_value.invokeExact(ptr, i.toLong()) as MemorySegment)
    val children: List<Node> get() = List(count) { child(it) }

    /** Struct field [i] in wire order; null when unset. */
    fun field(i: Int): Node? = document.wrapOrNull(Native.node_field.invokeExact(ptr, i.toLong()) as MemorySegment)
    /** Wire (snake_case) name of field [i]; null for a field known only by tag id. */
    fun fieldName(i: Int): String? {
        val p = Native.node_field_name.invokeExact(ptr, i.toLong(), ctx.out) as MemorySegment
        if (p.address() == 0L) return null
        return String(copy(p, ctx.out.get(ValueLayout.JAVA_LONG, 0)), Charsets.UTF_8)
    }
    fun fieldTag(i: Int): Int = Native.node_field_tag.invokeExact(ptr, i.toLong()) as Int

    /** Registered type index of a struct/ext/enum/union node in the context's schema; null if absent. */
    val userType: Int? get() {
        val st = Native.node_user_type.invokeExact(document.ptr, ptr, ctx.out) as Int
        if (st != 0) {
            Native.ctx_clear_error.invokeExact(ctx.ptr)
            return null
        }
        return ctx.out.get(ValueLayout.JAVA_INT, 0)
    }

    /** (namespace, name) of a type carried by name; null otherwise. */
    val typeNames: Pair<String, String>? get() {
        val c = ctx
        val st = Native.node_type_names.invokeExact(ptr, c.out, c.out8, c.out16, c.out24) as Int
        if (st != 0) {
            Native.ctx_clear_error.invokeExact(c.ptr)
            return null
        }
        val ns = copy(c.out.get(ValueLayout.ADDRESS, 0), c.out8.get(ValueLayout.JAVA_LONG, 0))
        val nm = copy(c.out16.get(ValueLayout.ADDRESS, 0), c.out24.get(ValueLayout.JAVA_LONG, 0))
        return String(ns, Charsets.UTF_8) to String(nm, Charsets.UTF_8)
    }

    /** Numeric user type id of a struct/enum/typed union; -1 (0xFFFFFFFF) if by name or unknown. */
    val userTypeId: Int get() = Native.node_user_type_id.invokeExact(ptr) as Int

    /** The TypeDef a struct was read with when the schema would not write the same bytes. */
    val typedef: ByteArray? get() {
        val p = Native.node_typedef.invokeExact(ptr, ctx.out) as MemorySegment
        if (p.address() == 0L) return null
        return copy(p, ctx.out.get(ValueLayout.JAVA_LONG, 0))
    }
    /** Identity of the TypeDef storage (equal for structs sharing one TypeDef); 0 if none. */
    val typedefAddress: Long get() = (Native.node_typedef.invokeExact(ptr, ctx.out) as MemorySegment).address()

    /**
     * This struct (read with the writer's TypeDef) as registered type [type], the reader's
     * version (`wire_struct_project`): fields matched by tag id or name, fields the reader
     * lacks dropped, fields the writer lacks defaulted, list <-> dense array conversions.
     * A new node of the same document.
     */
    fun project(type: Int): Node {
        val h = Native.struct_project ?: throw WireException("unsupported", -1, "the loaded libwire has no wire_struct_project")
        val c = ctx
        val st = h.invokeExact(document.ptr, ptr, type, c.out) as Int
        if (st != 0) throw c.error(st)
        return document.wrap(c.out.get(ValueLayout.ADDRESS, 0))
    }

    val unionCase: Int get() = Native.node_union_case.invokeExact(ptr) as Int
    val unionValue: Node get() = document.wrap(Native.node_union_value.invokeExact(ptr) as MemorySegment)

    // ---------------------------------------------------------------- building
    fun append(element: Node) = ctx.check(Native.list_append.invokeExact(document.ptr, ptr, element.ptr) as Int)
    fun put(key: Node, value: Node) = ctx.check(Native.map_put.invokeExact(document.ptr, ptr, key.ptr, value.ptr) as Int)
    /** Sets a struct field by wire name, declared name, or `"#<tag>"`. */
    fun setField(name: String, value: Node) {
        val b = name.toByteArray(Charsets.UTF_8)
        ctx.check(Native.struct_set_field.invokeExact(document.ptr, ptr, MemorySegment.ofArray(b), b.size.toLong(), value.ptr) as Int)
    }

    // ---------------------------------------------------------------- wire choices
    /** 1: written with REF_VALUE (0x00); 0: NOT_NULL where tracking would flag it; -1: writer policy. */
    var tracked: Int
        get() = Native.node_tracked.invokeExact(ptr) as Int
        set(v) { ctx.check(Native.node_set_tracked.invokeExact(ptr, v) as Int) }

    /** List/set element header byte 0..15, or -1 for the writer policy. */
    var listHeader: Int
        get() = Native.list_header.invokeExact(ptr) as Int
        set(v) { ctx.check(Native.list_set_header.invokeExact(ptr, v) as Int) }

    /** Map chunks as (header, count) pairs in order; empty = writer policy. */
    val chunks: List<Pair<Int, Int>> get() {
        val n = (Native.map_chunk_count.invokeExact(ptr) as Long).toInt()
        val c = ctx
        return List(n) {
            ctx.check(Native.map_chunk.invokeExact(ptr, it.toLong(), c.out, c.out8) as Int)
            c.out.get(ValueLayout.JAVA_INT, 0) to c.out8.get(ValueLayout.JAVA_INT, 0)
        }
    }
    fun addChunk(header: Int, count: Int) = ctx.check(Native.map_add_chunk.invokeExact(document.ptr, ptr, header, count) as Int)
    fun clearChunks() = ctx.check(Native.map_clear_chunks.invokeExact(ptr) as Int)

    /**
     * The (namespace, name) pair that the node getter [h] (`h(node, &ns, &name)`) writes, or null
     * where it fails (not a named type); its error is cleared.
     */
    private fun namePair(h: MethodHandle): Pair<Int, Int>? {
        val c = ctx
        val st = h.invokeExact(ptr, c.out, c.out8) as Int
        if (st != 0) {
            Native.ctx_clear_error.invokeExact(c.ptr)
            return null
        }
        return c.out.get(ValueLayout.JAVA_INT, 0) to c.out8.get(ValueLayout.JAVA_INT, 0)
    }

    /** Meta string encodings (namespace, name) of a named type; -1 = policy. */
    var nameEncodings: Pair<Int, Int>
        get() = namePair(Native.node_name_encodings) ?: (-1 to -1)
        set(v) { ctx.check(Native.node_set_name_encodings.invokeExact(ptr, v.first, v.second) as Int) }

    /** Hash forms of long names: 0 = Java (abs), 1 = pyfory (raw). */
    var nameHashForms: Pair<Int, Int>
        get() = namePair(Native.node_name_hash_forms) ?: (0 to 0)
        set(v) { ctx.check(Native.node_set_name_hash_forms.invokeExact(ptr, v.first, v.second) as Int) }

    /** Whether namespace / name were written as cross-role meta string references (pyfory). */
    var nameRefs: Pair<Boolean, Boolean>
        get() = namePair(Native.node_name_refs)?.let { (ns, nm) -> (ns != 0) to (nm != 0) } ?: (false to false)
        set(v) { ctx.check(Native.node_set_name_refs.invokeExact(ptr, if (v.first) 1 else 0, if (v.second) 1 else 0) as Int) }

    private fun copy(p: MemorySegment, len: Long): ByteArray {
        if (len == 0L || p.address() == 0L) return ByteArray(0)
        val b = ByteArray(Math.toIntExact(len))
        MemorySegment.copy(p.reinterpret(len), ValueLayout.JAVA_BYTE, 0, b, 0, b.size)
        return b
    }
}
