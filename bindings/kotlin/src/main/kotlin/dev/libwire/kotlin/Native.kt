package dev.libwire.kotlin

import java.lang.foreign.Arena
import java.lang.foreign.FunctionDescriptor
import java.lang.foreign.Linker
import java.lang.foreign.MemoryLayout
import java.lang.foreign.MemorySegment
import java.lang.foreign.SymbolLookup
import java.lang.foreign.ValueLayout
import java.lang.invoke.MethodHandle
import java.nio.file.Files
import java.nio.file.Path

/**
 * Downcall handles for the functions of `wire.h` (libwire's only header).
 *
 * Every handle is a `static final` field (`@JvmField` in an `object`), so the
 * JIT sees a constant and `invokeExact` is inlined. Type mapping:
 * `int32_t`/`uint32_t` → `Int`, `int64_t`/`uint64_t`/`size_t` → `Long`,
 * `uint16_t` → `Short`, pointers → `MemorySegment`.
 *
 * Short functions that never call back into Java and never block are linked
 * with `Linker.Option.critical(true)`: no thread-state transition, and heap
 * segments (Kotlin arrays) may be passed directly where the C side only reads
 * or writes them during the call (builders copy their byte arguments).
 */
/**
 * The FFM API (`java.lang.foreign`) is final since JDK 22. The classes target 17 so that an
 * older JVM loads them and gets this message instead of an obscure linkage error; every entry
 * point ([Wire], [Context], [Native], [Status], [TypeId], [Float16], [BFloat16]) calls [require]
 * before touching `java.lang.foreign` (or JDK 20+ methods); PackagingTest checks each on an old JDK.
 */
internal object Jdk {
    private val supported = Runtime.version().feature() >= 22

    @JvmStatic fun require() {
        if (!supported) {
            throw UnsupportedOperationException(
                "libwire-kotlin needs JDK 22 or newer (the java.lang.foreign API); this JVM is " +
                    "${System.getProperty("java.version")} at ${System.getProperty("java.home")}",
            )
        }
    }
}

internal object Native {
    /** The file libwire was loaded from with `-Dlibwire.path` / `LIBWIRE_PATH`; null for the bundled copy. */
    @JvmField val libraryPath: Path?
    /** Where libwire came from: that file, or the URL of the jar resource. */
    @JvmField val libraryLocation: String
    /** The temporary copy the bundled library was loaded from (deleted once loaded); null with an override. */
    @JvmField val extractedCopy: Path?

    private val linker: Linker
    internal val lookup: SymbolLookup

    init {
        Jdk.require()
        linker = Linker.nativeLinker()
        val explicit = System.getProperty("libwire.path").takeUnless { it.isNullOrEmpty() }
            ?: System.getenv("LIBWIRE_PATH").takeUnless { it.isNullOrEmpty() }
        if (explicit != null) {
            val p = Path.of(explicit).toAbsolutePath().normalize()
            if (!Files.exists(p)) throw UnsatisfiedLinkError("libwire not found at $p (-Dlibwire.path / LIBWIRE_PATH)")
            libraryPath = p
            libraryLocation = p.toString()
            extractedCopy = null
            lookup = SymbolLookup.libraryLookup(p, Arena.global())
        } else {
            val res = bundledResource()
            val tmp = extract(res)
            extractedCopy = tmp
            try {
                lookup = SymbolLookup.libraryLookup(tmp, Arena.global())
            } finally {
                // dlopen keeps its mapping: the file is not needed once loaded, so nothing is left behind
                Files.deleteIfExists(tmp)
            }
            libraryPath = null
            libraryLocation = Native::class.java.getResource(res)!!.toString()
        }
    }

    /** The jar resource of libwire.so for this platform (only linux-x86_64 is packaged). */
    private fun bundledResource(): String {
        val os = System.getProperty("os.name").lowercase()
        val arch = when (val a = System.getProperty("os.arch").lowercase()) {
            "amd64", "x86_64" -> "x86_64"
            else -> a
        }
        val plat = (if (os.startsWith("linux")) "linux" else os.replace(' ', '_')) + "-" + arch
        val res = "/dev/libwire/kotlin/native/$plat/libwire.so"
        if (Native::class.java.getResource(res) == null) {
            throw UnsatisfiedLinkError(
                "this libwire-kotlin jar carries no libwire for $plat (only linux-x86_64); " +
                    "set -Dlibwire.path=/path/to/libwire.so or LIBWIRE_PATH",
            )
        }
        return res
    }

    /** Copies the resource to a fresh file in java.io.tmpdir (as sqlite-jdbc and zstd-jni do). */
    private fun extract(res: String): Path {
        val tmp = Files.createTempFile("libwire-", ".so")
        try {
            Native::class.java.getResourceAsStream(res)!!.use { input ->
                Files.copy(input, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING)
            }
        } catch (e: Exception) {
            Files.deleteIfExists(tmp)
            throw UnsatisfiedLinkError("cannot extract $res to $tmp: $e")
        }
        return tmp
    }

    private val I: ValueLayout.OfInt = ValueLayout.JAVA_INT
    private val J: ValueLayout.OfLong = ValueLayout.JAVA_LONG
    private val D: ValueLayout.OfDouble = ValueLayout.JAVA_DOUBLE
    private val F: ValueLayout.OfFloat = ValueLayout.JAVA_FLOAT
    private val S: ValueLayout.OfShort = ValueLayout.JAVA_SHORT
    private val P = ValueLayout.ADDRESS

    private val CRITICAL = Linker.Option.critical(true)

    private fun fn(name: String, ret: MemoryLayout?, vararg args: MemoryLayout, critical: Boolean = true): MethodHandle {
        val addr = lookup.find(name).orElseThrow { UnsatisfiedLinkError("libwire has no symbol $name") }
        val desc = if (ret == null) FunctionDescriptor.ofVoid(*args) else FunctionDescriptor.of(ret, *args)
        return if (critical) linker.downcallHandle(addr, desc, CRITICAL) else linker.downcallHandle(addr, desc)
    }

    private fun fnOpt(name: String, ret: MemoryLayout?, vararg args: MemoryLayout, critical: Boolean = true): MethodHandle? =
        if (lookup.find(name).isPresent) fn(name, ret, *args, critical = critical) else null

    /** Whether the loaded library exports `name` (for functions added later). */
    fun has(name: String): Boolean = lookup.find(name).isPresent

    // --- version, status, type ids ------------------------------------------------
    @JvmField val version_number = fn("wire_version_number", I)
    @JvmField val version_string = fn("wire_version_string", P)
    @JvmField val status_name = fn("wire_status_name", P, I)
    @JvmField val status_message = fn("wire_status_message", P, I)
    @JvmField val type_name = fn("wire_type_name", P, I)
    @JvmField val type_from_name = fn("wire_type_from_name", I, P, J)
    @JvmField val type_array_width = fn("wire_type_array_width", I, I)

    // --- context ------------------------------------------------------------------
    @JvmField val ctx_new = fn("wire_ctx_new", P, critical = false)
    @JvmField val ctx_free = fn("wire_ctx_free", null, P, critical = false)
    @JvmField val ctx_set_option = fn("wire_ctx_set_option", I, P, I, J)
    @JvmField val ctx_get_option = fn("wire_ctx_get_option", J, P, I)
    @JvmField val ctx_set_limit = fn("wire_ctx_set_limit", I, P, I, J)
    @JvmField val ctx_get_limit = fn("wire_ctx_get_limit", J, P, I)
    @JvmField val ctx_error_code = fn("wire_ctx_error_code", I, P)
    @JvmField val ctx_error_offset = fn("wire_ctx_error_offset", J, P)
    @JvmField val ctx_error_message = fn("wire_ctx_error_message", P, P)
    @JvmField val ctx_clear_error = fn("wire_ctx_clear_error", null, P)
    @JvmField val ctx_free_bytes = fn("wire_ctx_free_bytes", null, P, P)

    // --- primitives -----------------------------------------------------------------
    @JvmField val float16_from_float = fn("wire_float16_from_float", S, F)
    @JvmField val float16_to_float = fn("wire_float16_to_float", F, S)
    @JvmField val float16_from_double = fn("wire_float16_from_double", S, D)
    @JvmField val float16_to_double = fn("wire_float16_to_double", D, S)
    @JvmField val bfloat16_from_float = fn("wire_bfloat16_from_float", S, F)
    @JvmField val bfloat16_to_float = fn("wire_bfloat16_to_float", F, S)
    @JvmField val bfloat16_from_double = fn("wire_bfloat16_from_double", S, D)
    @JvmField val string_choose_encoding = fn("wire_string_choose_encoding", I, P, J)
    @JvmField val meta_encoding_name = fn("wire_meta_encoding_name", P, I)

    // --- document -------------------------------------------------------------------
    @JvmField val doc_new = fn("wire_doc_new", P, P)
    @JvmField val doc_free = fn("wire_doc_free", null, P, critical = false)
    @JvmField val doc_root_count = fn("wire_doc_root_count", J, P)
    @JvmField val doc_root = fn("wire_doc_root", P, P, J)
    @JvmField val doc_add_root = fn("wire_doc_add_root", I, P, P)
    @JvmField val doc_node_count = fn("wire_doc_node_count", J, P)

    @JvmField val node_new_null = fn("wire_node_new_null", P, P)
    @JvmField val node_new_none = fn("wire_node_new_none", P, P)
    @JvmField val node_new_bool = fn("wire_node_new_bool", P, P, I)
    @JvmField val node_new_int = fn("wire_node_new_int", P, P, I, J)
    @JvmField val node_new_uint = fn("wire_node_new_uint", P, P, I, J)
    @JvmField val node_new_float_bits = fn("wire_node_new_float_bits", P, P, I, J)
    @JvmField val node_new_float = fn("wire_node_new_float", P, P, I, D)
    @JvmField val node_new_string = fn("wire_node_new_string", P, P, P, J, I)
    @JvmField val node_new_binary = fn("wire_node_new_binary", P, P, P, J)
    @JvmField val node_new_array = fn("wire_node_new_array", P, P, I, P, J)
    @JvmField val node_new_date = fn("wire_node_new_date", P, P, J)
    @JvmField val node_new_timestamp = fn("wire_node_new_timestamp", P, P, J, I)
    @JvmField val node_new_duration = fn("wire_node_new_duration", P, P, J, I)
    @JvmField val node_new_decimal = fn("wire_node_new_decimal", P, P, I, P, J, I)
    @JvmField val node_new_enum = fn("wire_node_new_enum", P, P, I, I)
    @JvmField val node_new_named_enum = fn("wire_node_new_named_enum", P, P, P, J, P, J, I)
    @JvmField val node_new_list = fn("wire_node_new_list", P, P, I)
    @JvmField val list_append = fn("wire_list_append", I, P, P, P)
    @JvmField val node_new_map = fn("wire_node_new_map", P, P)
    @JvmField val map_put = fn("wire_map_put", I, P, P, P, P)
    @JvmField val node_new_struct = fn("wire_node_new_struct", P, P, I)
    @JvmField val struct_set_field = fn("wire_struct_set_field", I, P, P, P, J, P)
    @JvmField val node_new_struct_typedef = fn("wire_node_new_struct_typedef", P, P, P, J)
    @JvmField val node_new_struct_like = fn("wire_node_new_struct_like", P, P, P)
    @JvmField val node_new_enum_of = fn("wire_node_new_enum_of", P, P, I, I)
    @JvmField val node_new_union = fn("wire_node_new_union", P, P, I, I, P)

    @JvmField val node_set_tracked = fn("wire_node_set_tracked", I, P, I)
    @JvmField val node_tracked = fn("wire_node_tracked", I, P)
    @JvmField val list_set_header = fn("wire_list_set_header", I, P, I)
    @JvmField val list_header = fn("wire_list_header", I, P)
    @JvmField val map_add_chunk = fn("wire_map_add_chunk", I, P, P, I, I)
    @JvmField val map_clear_chunks = fn("wire_map_clear_chunks", I, P)
    @JvmField val map_chunk_count = fn("wire_map_chunk_count", J, P)
    @JvmField val map_chunk = fn("wire_map_chunk", I, P, J, P, P)
    @JvmField val node_set_name_encodings = fn("wire_node_set_name_encodings", I, P, I, I)
    @JvmField val node_name_encodings = fn("wire_node_name_encodings", I, P, P, P)
    @JvmField val node_set_name_hash_forms = fn("wire_node_set_name_hash_forms", I, P, I, I)
    @JvmField val node_name_hash_forms = fn("wire_node_name_hash_forms", I, P, P, P)
    @JvmField val node_set_name_refs = fn("wire_node_set_name_refs", I, P, I, I)
    @JvmField val node_name_refs = fn("wire_node_name_refs", I, P, P, P)

    @JvmField val node_type = fn("wire_node_type", I, P)
    @JvmField val node_int = fn("wire_node_int", J, P)
    @JvmField val node_uint = fn("wire_node_uint", J, P)
    @JvmField val node_float_bits = fn("wire_node_float_bits", J, P)
    @JvmField val node_float = fn("wire_node_float", D, P)
    @JvmField val node_nanos = fn("wire_node_nanos", I, P)
    @JvmField val node_bytes = fn("wire_node_bytes", P, P, P)
    @JvmField val node_string_encoding = fn("wire_node_string_encoding", I, P)
    @JvmField val node_string_utf8 = fn("wire_node_string_utf8", I, P, P, J, P)
    @JvmField val node_decimal_negative = fn("wire_node_decimal_negative", I, P)
    @JvmField val node_decimal_scale = fn("wire_node_decimal_scale", I, P)
    @JvmField val node_enum_type_id = fn("wire_node_enum_type_id", I, P)
    @JvmField val node_enum_namespace = fn("wire_node_enum_namespace", P, P, P)
    @JvmField val node_enum_value = fn("wire_node_enum_value", I, P)
    @JvmField val node_count = fn("wire_node_count", J, P)
    @JvmField val node_child = fn("wire_node_child", P, P, J)
    @JvmField val node_map_key = fn("wire_node_map_key", P, P, J)
    @JvmField val node_map_value = fn("wire_node_map_value", P, P, J)
    @JvmField val node_field = fn("wire_node_field", P, P, J)
    @JvmField val node_field_name = fn("wire_node_field_name", P, P, J, P)
    @JvmField val node_field_tag = fn("wire_node_field_tag", I, P, J)
    @JvmField val node_user_type = fn("wire_node_user_type", I, P, P, P)
    @JvmField val node_type_names = fn("wire_node_type_names", I, P, P, P, P, P)
    @JvmField val node_user_type_id = fn("wire_node_user_type_id", I, P)
    @JvmField val node_typedef = fn("wire_node_typedef", P, P, P)
    /** Reading across schema versions (libwire >= the evolution commit); null if absent. */
    @JvmField val struct_project: MethodHandle? = fnOpt("wire_struct_project", I, P, P, I, P, critical = false)
    @JvmField val node_union_case = fn("wire_node_union_case", I, P)
    @JvmField val node_union_value = fn("wire_node_union_value", P, P)
    @JvmField val node_index = fn("wire_node_index", I, P)

    // --- schema ---------------------------------------------------------------------
    @JvmField val schema_load_fdl = fn("wire_schema_load_fdl", I, P, P, J, P, critical = false)
    @JvmField val schema_load_fdl_file = fn("wire_schema_load_fdl_file", I, P, P, critical = false)
    @JvmField val schema_finish = fn("wire_schema_finish", I, P, critical = false)
    @JvmField val type_count = fn("wire_schema_type_count", I, P)
    @JvmField val type_find = fn("wire_schema_find_type", I, P, P, J, P)
    @JvmField val type_full_name = fn("wire_schema_type_name", P, P, I)
    @JvmField val type_kind = fn("wire_schema_type_kind", I, P, I)

    // --- whole-message codec (may run long: ordinary transitions) -------------------
    @JvmField val decode = fn("wire_decode", I, P, P, J, P, critical = false)
    @JvmField val encode = fn("wire_encode", I, P, P, P, P, critical = false)
    // --- value notation (libwire's printer and parser) -----------------------------
    @JvmField val notation_print: MethodHandle? = fnOpt("wire_notation_print", I, P, P, P, I, P, P, critical = false)
    @JvmField val notation_parse: MethodHandle? = fnOpt("wire_notation_parse", I, P, P, P, J, I, P, P, critical = false)

    // --- tapes (spec/tape.md) -------------------------------------------------------

    @JvmField val doc_add_tape: MethodHandle? = fnOpt("wire_doc_add_tape", I, P, P, P, J, critical = false)

    // --- the codec path: direct tape codec into reused writers (one call per message) ----
    // Critical with heap access: the tape (encode) and the payload (decode) are passed as
    // heap segments of Kotlin byte arrays, read by C during the call only, so no copy.
    private val HEAP = Linker.Option.critical(true)
    @JvmField val encode_tape_to: MethodHandle = linker.downcallHandle(
        lookup.find("wire_encode_tape_to").get(), FunctionDescriptor.of(I, P, P, J, P), HEAP,
    )
    // (decode: the tape written straight into a heap array lent to the call, and its length
    // into another)
    @JvmField val decode_tape_into: MethodHandle = linker.downcallHandle(
        lookup.find("wire_decode_tape_into").get(), FunctionDescriptor.of(I, P, P, J, I, P, J, P), HEAP,
    )
    @JvmField val writer_new = fn("wire_writer_new", P, P, P, J, critical = false)
    @JvmField val writer_free = fn("wire_writer_free", null, P, critical = false)
    @JvmField val writer_reset = fn("wire_writer_reset", null, P)
    @JvmField val writer_size = fn("wire_writer_size", J, P)

    // --- compiled codecs over native memory layouts (libwire/LAYOUTS.md) ------------
    @JvmField val schema_field_count = fn("wire_schema_field_count", I, P, I)
    @JvmField val schema_field = fn("wire_schema_field", I, P, I, I, P, P, P, P)
    @JvmField val schema_field_type_info = fn("wire_schema_field_type_info", I, P, P, P, P, P, P, P, P)
    @JvmField val schema_field_order = fn("wire_schema_field_order", I, P, I, P, J, P)
    @JvmField val schema_typedef = fn("wire_schema_typedef", I, P, I, P, P)
    /** The registered type of a payload's root (its type meta read as the decoders read it). */
    @JvmField val root_type = fn("wire_root_type", I, P, P, J, P)
    @JvmField val schema_hash = fn("wire_schema_hash", I, P, I, P)
    @JvmField val schema_enum_values = fn("wire_schema_enum_values", I, P, I, P, J, P)
    @JvmField val schema_enum_value_name = fn("wire_schema_enum_value_name", I, P, I, J, P, P)
    @JvmField val mem_layout_new = fn("wire_mem_layout_new", I, P, I, I, P)
    @JvmField val mem_layout_field = fn("wire_mem_layout_field", I, P, I, I, I, I, I, I, I)
    @JvmField val mem_bind = fn("wire_mem_bind", I, P, I, critical = false)
    /** The image is native memory of the context; the payload stays in the context until the next call. */
    @JvmField val mem_encode = fn("wire_mem_encode", I, P, I, P, P, P)
    /**
     * The image as a heap segment (a Kotlin byte array, pinned for the call only) whose pointers are
     * numbers from `base` (no copy of the image to native memory). Null with a libwire that lacks
     * it (`-Dlibwire.path`): the image is then copied to native memory.
     */
    @JvmField val mem_encode_based: MethodHandle? = fnOpt("wire_mem_encode_based", I, P, I, P, J, P, P)
    /** The payload is a heap segment (a Kotlin byte array, read during the call only). */
    @JvmField val mem_decode: MethodHandle = linker.downcallHandle(
        lookup.find("wire_mem_decode").get(), FunctionDescriptor.of(I, P, I, P, J, P, P, J, P, I), CRITICAL,
    )

    /**
     * The same with the payload and the arena as heap segments (Kotlin byte arrays, pinned for the
     * call only), and the addresses the call saw for them in `bases`: the image's pointers less
     * those are offsets into the two arrays (no copy of the payload to native memory, nor of the
     * arena back). Null with a libwire that lacks it (`-Dlibwire.path`): the copying path then.
     */
    @JvmField val mem_decode_bases: MethodHandle? = if (lookup.find("wire_mem_decode_bases").isPresent) linker.downcallHandle(
        lookup.find("wire_mem_decode_bases").get(), FunctionDescriptor.of(I, P, I, P, J, P, P, J, P, I, P), CRITICAL,
    ) else null

    /** [mem_decode] with the context, the arena and `arena_used` passed as addresses (a flat root: 0, 0; see [mem_decode_bases_at]). */
    @JvmField val mem_decode_at: MethodHandle = linker.downcallHandle(
        lookup.find("wire_mem_decode").get(), FunctionDescriptor.of(I, J, I, P, J, P, J, J, J, I), CRITICAL,
    )

    /**
     * [mem_decode_bases] with the context, `arena_used` and `bases` passed as addresses (`long`s:
     * native memory the caller keeps alive; no segment checks or session acquire for them). Only
     * where pointers are 64-bit (then a pointer and a `long` argument travel alike).
     */
    @JvmField val mem_decode_bases_at: MethodHandle? = if (lookup.find("wire_mem_decode_bases").isPresent) linker.downcallHandle(
        lookup.find("wire_mem_decode_bases").get(), FunctionDescriptor.of(I, J, I, P, J, P, P, J, J, I, J), CRITICAL,
    ) else null

    /**
     * `wire_mem_absent_count` with the context as an address: how many struct values the compiled
     * decoder has read from a writer's TypeDef lacking some of their fields. Null with a libwire
     * that lacks it (`-Dlibwire.path`): such fields then read as libwire zeroes them.
     */
    @JvmField val mem_absent_count: MethodHandle? = if (lookup.find("wire_mem_absent_count").isPresent) linker.downcallHandle(
        lookup.find("wire_mem_absent_count").get(), FunctionDescriptor.of(J, J), CRITICAL,
    ) else null

    // --- annotated listing (calls back into Java: never a critical downcall) ---------
    @JvmField val dump = fn("wire_dump", I, P, P, J, P, P, critical = false)
    @JvmField val DUMP_CALLBACK: FunctionDescriptor =
        FunctionDescriptor.ofVoid(P, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, P)

    fun upcall(target: MethodHandle, desc: FunctionDescriptor, arena: Arena): MemorySegment =
        linker.upcallStub(target, desc, arena)

    /** Reads a NUL-terminated C string returned by the library (static or owned storage). */
    fun cString(p: MemorySegment): String? =
        if (p.address() == 0L) null else p.reinterpret(Long.MAX_VALUE).getString(0)

    fun statusName(status: Int): String = cString(status_name.invokeExact(status) as MemorySegment) ?: "unknown"

    fun typeName(typeId: Int): String? = cString(type_name.invokeExact(typeId) as MemorySegment)

    fun versionString(): String = cString(version_string.invokeExact() as MemorySegment) ?: "?"
}
