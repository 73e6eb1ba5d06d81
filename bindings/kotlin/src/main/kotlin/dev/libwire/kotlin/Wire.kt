package dev.libwire.kotlin

import java.lang.ref.Cleaner
import java.nio.file.Path
import kotlin.reflect.KClass

/**
 * Entry point: encode Kotlin values to Fory xlang bytes and back.
 *
 * Type mapping (encode → wire type; decode gives the same Kotlin type back):
 * `null` → null flag, `Boolean` → bool, `Byte` → int8, `Short` → int16,
 * `Int` → varint32, `Long` → varint64, `Float` → float32, `Double` → float64,
 * `String` → string, `ByteArray` → binary, `BooleanArray`/`ShortArray`/`IntArray`/
 * `LongArray`/`FloatArray`/`DoubleArray` → bool/int16/int32/int64/float32/float64
 * arrays (what the Fory Java runtime writes for `boolean[]`, `short[]`, ...),
 * `UByte`/`UShort`/`UInt`/`ULong` → uint8/uint16/uint32/uint64, `List`/`Array` → list,
 * `Set` → set, `Map` → map, `LocalDate` → date, `Instant` → timestamp,
 * `Duration` → duration, `BigDecimal` → decimal, registered data classes → struct,
 * registered enums → enum.
 *
 * Registrations (schemas, classes) apply to every context `Wire` creates
 * afterwards; each thread gets its own cached [Context] per [WireOptions].
 */
object Wire {
    private sealed interface Reg
    private class SchemaFile(val path: Path) : Reg
    private class SchemaText(val text: String, val name: String) : Reg
    private class DataClass(val k: KClass<*>, val type: String) : Reg
    private class EnumClass(val k: KClass<out Enum<*>>, val type: String) : Reg

    private val regs = ArrayList<Reg>()
    @Volatile private var generation = 0
    private val cleaner = Cleaner.create()

    private class PerThread(val generation: Int) {
        val contexts = HashMap<WireOptions, Context>()
    }

    private val local = ThreadLocal<PerThread>()

    // These three reach Native directly: Jdk.require() first, so that a JVM older than 22 gets
    // the UnsupportedOperationException itself, not an ExceptionInInitializerError of Native.

    /** Version of the loaded libwire ("0.1.0"). */
    @JvmStatic val libraryVersion: String get() { Jdk.require(); return Native.versionString() }

    /** The file libwire was loaded from with `-Dlibwire.path` or `LIBWIRE_PATH`; null when it is the copy bundled in the jar. */
    @JvmStatic val libraryPath: Path? get() { Jdk.require(); return Native.libraryPath }

    /** Where libwire came from: the file, or the URL of the bundled jar resource. */
    @JvmStatic val libraryLocation: String get() { Jdk.require(); return Native.libraryLocation }

    @JvmStatic @JvmOverloads
    fun encode(value: Any?, options: WireOptions = WireOptions.DEFAULT): ByteArray = context(options).encode(value)

    @JvmStatic @JvmOverloads
    fun decode(bytes: ByteArray, options: WireOptions = WireOptions.DEFAULT): Any? = context(options).decode(bytes)

    /** Every root value of a payload (several `serialize` calls concatenated). */
    @JvmStatic @JvmOverloads
    fun decodeAll(bytes: ByteArray, options: WireOptions = WireOptions.DEFAULT): List<Any?> = context(options).decodeAll(bytes)

    @JvmStatic @JvmOverloads
    fun encodeAll(values: List<Any?>, options: WireOptions = WireOptions.DEFAULT): ByteArray = context(options).encodeAll(values)

    /** Loads an FDL schema file (and its imports) into every context. */
    @JvmStatic fun registerSchema(path: Path) = add(SchemaFile(path.toAbsolutePath()))

    @JvmStatic fun registerSchema(path: String) = registerSchema(Path.of(path))

    @JvmStatic fun registerSchemaText(text: String, name: String = "<input>") = add(SchemaText(text, name))

    /** Binds [kclass] to the struct [typeName] of a registered schema (see [Context.registerDataClass]). */
    @JvmStatic fun registerDataClass(kclass: KClass<*>, typeName: String) = add(DataClass(kclass, typeName))

    /** Binds a Kotlin enum to the enum [typeName] of a registered schema (each constant as the enumerator of its exact name). */
    @JvmStatic fun registerEnum(kclass: KClass<out Enum<*>>, typeName: String) = add(EnumClass(kclass, typeName))

    /** Forgets every registration (tests). */
    @JvmStatic fun reset() = synchronized(this) {
        regs.clear()
        generation++
    }

    /** A new context with everything registered so far; the caller closes it. */
    @JvmStatic @JvmOverloads
    fun newContext(options: WireOptions = WireOptions.DEFAULT): Context {
        val snapshot = synchronized(this) { ArrayList(regs) }
        val ctx = Context(options)
        try {
            apply(ctx, snapshot)
        } catch (e: Throwable) {
            ctx.close()
            throw e
        }
        return ctx
    }

    /** This thread's cached context for [options] (do not close it). */
    @JvmStatic fun context(options: WireOptions = WireOptions.DEFAULT): Context {
        var pt = local.get()
        val gen = generation
        if (pt == null || pt.generation != gen) {
            pt?.let { old -> old.contexts.values.forEach { it.close() } }
            val fresh = PerThread(gen)
            val contexts = fresh.contexts
            cleaner.register(fresh) { contexts.values.forEach { runCatching { it.close() } } }
            local.set(fresh)
            pt = fresh
        }
        return pt.contexts.getOrPut(options) { newContext(options) }
    }

    private fun apply(ctx: Context, list: List<Reg>) {
        // schemas first, so that classes may be registered before the schema that declares them
        for (r in list) when (r) {
            is SchemaFile -> ctx.registerSchema(r.path)
            is SchemaText -> ctx.registerSchemaText(r.text, r.name)
            else -> {}
        }
        for (r in list) when (r) {
            is DataClass -> ctx.registerDataClass(r.k, r.type)
            is EnumClass -> ctx.registerEnum(r.k, r.type)
            else -> {}
        }
    }

    private fun add(r: Reg) = synchronized(this) {
        if (r is SchemaFile && regs.any { it is SchemaFile && it.path == r.path }) return@synchronized
        // validate now: a bad schema, a class without a primary constructor or a
        // type of the wrong kind fails here rather than at the next encode
        val schemas = regs.filter { it is SchemaFile || it is SchemaText } +
            (if (r is SchemaFile || r is SchemaText) listOf(r) else emptyList())
        Context().use { ctx ->
            apply(ctx, schemas)
            when (r) {
                is DataClass -> {
                    ClassInfo.of(r.k)
                    if (ctx.findType(r.type) != null) ctx.registerDataClass(r.k, r.type)
                }
                is EnumClass -> if (ctx.findType(r.type) != null) ctx.registerEnum(r.k, r.type)
                else -> {}
            }
        }
        regs.add(r)
        generation++
    }
}
