package dev.libwire.kotlin

import java.lang.reflect.Constructor
import java.lang.reflect.Method
import java.util.concurrent.ConcurrentHashMap
import kotlin.reflect.KClass
import kotlin.reflect.KFunction
import kotlin.reflect.KParameter
import kotlin.reflect.KProperty1
import kotlin.reflect.full.findAnnotation
import kotlin.reflect.full.memberProperties
import kotlin.reflect.full.primaryConstructor
import kotlin.reflect.jvm.isAccessible
import kotlin.reflect.jvm.javaConstructor
import kotlin.reflect.jvm.javaGetter
import kotlin.reflect.jvm.jvmErasure

/** snake_case of a Kotlin/Java identifier, as the Fory runtimes name fields on the wire. */
fun snakeCase(name: String): String {
    val sb = StringBuilder(name.length + 4)
    for (i in name.indices) {
        val c = name[i]
        if (c.isUpperCase()) {
            val prev = if (i > 0) name[i - 1] else '_'
            val next = if (i + 1 < name.length) name[i + 1] else '_'
            if (i > 0 && prev != '_' && (prev.isLowerCase() || prev.isDigit() || next.isLowerCase())) sb.append('_')
            sb.append(c.lowercaseChar())
        } else {
            sb.append(c)
        }
    }
    return sb.toString()
}

/** One constructor property of a bound class. */
internal class FieldInfo(
    val index: Int,
    val param: KParameter,
    val wireName: String,
    val getter: Method,
    /** Kotlin getter, used when the property type is a value class (ULong, ...): the Java getter returns it unboxed. */
    private val kgetter: KProperty1<Any, *>?,
    /** Boxed class of the property type (java.lang.Integer for Int). */
    val type: Class<*>,
    val nullable: Boolean,
    /** Wire type id from [WireField.type], or -1. */
    val wireType: Int,
) {
    val nameBytes: ByteArray = wireName.toByteArray(Charsets.UTF_8)

    /** How the tape decoder's lists become this property's (read-only `List`: fixed-size), or null. */
    val shape: Shape? = Shape.of(param.type)

    fun read(obj: Any): Any? = if (kgetter != null) kgetter.get(obj) else getter.invoke(obj)
}

/** Reflection data of a class bound to a schema struct (computed once per class). */
internal class ClassInfo private constructor(val kclass: KClass<*>) {
    val ctor: KFunction<Any>
    val javaCtor: Constructor<*>
    val fields: Array<FieldInfo>
    val byWireName: HashMap<String, FieldInfo> = HashMap()
    /** A property of a value class type (ULong, ...): the JVM constructor takes it unboxed, so go through kotlin-reflect. */
    private var anyValueClass = false
    val hasValueClass: Boolean get() = anyValueClass

    init {
        ctor = kclass.primaryConstructor ?: throw WireException(
            "unsupported", -1, "${kclass.qualifiedName} has no primary constructor",
        )
        ctor.isAccessible = true
        javaCtor = ctor.javaConstructor!!
        javaCtor.isAccessible = true
        val props = kclass.memberProperties.associateBy { it.name }
        fields = ctor.parameters.mapIndexed { i, p ->
            val name = p.name ?: throw WireException("unsupported", -1, "constructor parameter $i has no name")
            val prop = props[name] ?: throw WireException(
                "unsupported", -1, "${kclass.qualifiedName}: constructor parameter $name is not a property",
            )
            val ann = p.findAnnotation<WireField>() ?: prop.findAnnotation<WireField>()
            val wireName = ann?.name?.takeIf { it.isNotEmpty() } ?: snakeCase(name)
            val wireType = ann?.type?.takeIf { it.isNotEmpty() }?.let {
                val t = TypeId.fromName(it)
                if (t < 0) throw WireException("unsupported", -1, "unknown wire type \"$it\" on $name")
                t
            } ?: -1
            val getter = prop.javaGetter ?: throw WireException("unsupported", -1, "$name has no getter")
            getter.isAccessible = true
            val valueClass = p.type.jvmErasure.isValue
            if (valueClass) {
                anyValueClass = true
                prop.isAccessible = true
            }
            @Suppress("UNCHECKED_CAST")
            FieldInfo(
                i, p, wireName, getter, if (valueClass) prop as KProperty1<Any, *> else null,
                p.type.jvmErasure.javaObjectType, p.type.isMarkedNullable, wireType,
            )
        }.toTypedArray()
        for (f in fields) byWireName[f.wireName] = f
    }

    /** The JVM memory an instance takes, estimated (a header, a word a field), for Limit.MEM_DECODE. */
    val heapBytes: Long = 16L + 8L * fields.size

    /** The field whose wire name is the UTF-8 bytes `buf[off, off+len)`; [guess] is tried first. */
    fun field(buf: ByteArray, off: Int, len: Int, guess: Int): FieldInfo? {
        if (guess in fields.indices && nameIs(fields[guess], buf, off, len)) return fields[guess]
        for (f in fields) if (nameIs(f, buf, off, len)) return f
        return null
    }

    private fun nameIs(f: FieldInfo, buf: ByteArray, off: Int, len: Int): Boolean =
        f.nameBytes.size == len && java.util.Arrays.equals(f.nameBytes, 0, len, buf, off, off + len)

    /** Builds an instance from values by field index; `present[i]` false = not in the payload. */
    fun construct(values: Array<Any?>, present: BooleanArray): Any {
        var all = true
        for (i in fields.indices) if (!present[i]) { all = false; break }
        try {
            if (all && !anyValueClass) return javaCtor.newInstance(*values)
            val args = arrayOfNulls<Any?>(fields.size)
            val leftOut = BooleanArray(fields.size)
            for (f in fields) {
                when {
                    present[f.index] -> args[f.index] = values[f.index]
                    f.param.isOptional -> leftOut[f.index] = true
                    f.nullable -> {}
                    zeroOf(f.type) != null -> args[f.index] = zeroOf(f.type)
                    else -> throw WireException(
                        "schema", -1, "${kclass.simpleName}: field ${f.wireName} is missing from the payload",
                    )
                }
            }
            return withDefaults(args, leftOut)
        } catch (e: java.lang.reflect.InvocationTargetException) {
            throw WireException("value", -1, "${kclass.simpleName}: constructor failed: ${e.targetException}")
        } catch (e: IllegalArgumentException) {
            throw WireException("value", -1, "${kclass.simpleName}: ${e.message}")
        }
    }

    /**
     * The Kotlin compiler's constructor that takes defaults, `<init>(the parameters, int mask, …,
     * DefaultConstructorMarker)` (a mask int per 32 parameters; bit i of mask i / 32 set: parameter
     * i takes its default), spread over an `Object[]` of the parameters, the masks and the marker;
     * null when the class has none of that shape (not compiled by kotlinc, no default, a property of
     * a value class, or `-Dlibwire.defaultsCtor=false`): then [withDefaults] calls kotlin-reflect's
     * `callBy`.
     */
    private val defaultsCtor: java.lang.invoke.MethodHandle? by lazy { findDefaultsCtor() }

    private fun findDefaultsCtor(): java.lang.invoke.MethodHandle? {
        if (!defaultsCtorOn || anyValueClass || fields.none { it.param.isOptional }) return null
        val own = javaCtor.parameterTypes
        val masks = (own.size + 31) / 32
        val c = kclass.java.declaredConstructors.firstOrNull { c ->
            val t = c.parameterTypes
            c.isSynthetic && t.size == own.size + masks + 1 &&
                t.last().name == "kotlin.jvm.internal.DefaultConstructorMarker" &&
                (0 until own.size).all { t[it] == own[it] } && (own.size until own.size + masks).all { t[it] == Integer.TYPE }
        } ?: return null
        return try {
            c.isAccessible = true
            java.lang.invoke.MethodHandles.lookup().unreflectConstructor(c)
                .asSpreader(Array<Any?>::class.java, c.parameterCount)
                .asType(java.lang.invoke.MethodType.methodType(Any::class.java, Array<Any?>::class.java))
        } catch (e: ReflectiveOperationException) {
            null
        } catch (e: RuntimeException) {
            null // (InaccessibleObjectException: a class of a module not open to this one)
        }
    }

    /**
     * An instance from [args] by field index, the parameters set in [leftOut] taking their
     * declared defaults: through [defaultsCtor] with the mask of [leftOut] (their arguments the
     * JVM's zero of their types), else `callBy`. A failure of the constructor: an
     * InvocationTargetException, as from `callBy`.
     */
    fun withDefaults(args: Array<Any?>, leftOut: BooleanArray): Any {
        val h = defaultsCtor ?: return callByDefaults(args, leftOut)
        val n = fields.size
        val all = arrayOfNulls<Any?>(n + (n + 31) / 32 + 1)
        val types = javaCtor.parameterTypes
        val mask = IntArray((n + 31) / 32)
        for (i in 0 until n) {
            if (leftOut[i]) {
                mask[i ushr 5] = mask[i ushr 5] or (1 shl (i and 31))
                all[i] = if (types[i].isPrimitive) jvmZero(types[i]) else null
            } else {
                all[i] = args[i]
            }
        }
        for (k in mask.indices) all[n + k] = mask[k]
        try {
            return h.invokeExact(all) as Any
        } catch (e: Exception) {
            throw java.lang.reflect.InvocationTargetException(e)
        }
    }

    /** [withDefaults] through kotlin-reflect. */
    fun callByDefaults(args: Array<Any?>, leftOut: BooleanArray): Any {
        val byParam = HashMap<KParameter, Any?>()
        for (f in fields) if (!leftOut[f.index]) byParam[f.param] = args[f.index]
        return ctor.callBy(byParam)
    }

    /** Whether [withDefaults] goes through the compiler's constructor (tests). */
    val hasDefaultsCtor: Boolean get() = defaultsCtor != null

    companion object {
        /** `-Dlibwire.defaultsCtor=false`: every default through `callBy` (read per class, when first needed; tests set it). */
        @JvmField @Volatile var defaultsCtorOn = System.getProperty("libwire.defaultsCtor") != "false"

        /** The JVM's zero of primitive type [t], boxed. */
        private fun jvmZero(t: Class<*>): Any = when (t) {
            Integer.TYPE -> 0
            java.lang.Long.TYPE -> 0L
            java.lang.Double.TYPE -> 0.0
            java.lang.Float.TYPE -> 0f
            java.lang.Boolean.TYPE -> false
            java.lang.Short.TYPE -> 0.toShort()
            java.lang.Byte.TYPE -> 0.toByte()
            else -> 0.toChar()
        }

        /**
         * What a number or bool property the payload lacks (no default, not nullable) reads as: 0 /
         * false, as the compiled codecs read libwire's zeroed field and Fory Java fills its primitives.
         */
        fun zeroOf(t: Class<*>): Any? = when (t) {
            java.lang.Integer::class.java -> 0
            java.lang.Long::class.java -> 0L
            java.lang.Double::class.java -> 0.0
            java.lang.Float::class.java -> 0f
            java.lang.Boolean::class.java -> false
            java.lang.Short::class.java -> 0.toShort()
            java.lang.Byte::class.java -> 0.toByte()
            else -> null
        }

        private val cache = ConcurrentHashMap<KClass<*>, ClassInfo>()
        fun of(k: KClass<*>): ClassInfo = cache.computeIfAbsent(k) { ClassInfo(it) }
    }
}

/**
 * A bound Kotlin enum class: each constant stands for the enumerator of schema enum [decl] with
 * its exact name and is written as that enumerator's number (Enums.kt). [wire]: by ordinal, the
 * numbers; null when every constant names an enumerator of its own ordinal (then the number is the
 * ordinal: the plain EnumSlot, no table). [undeclared]: by ordinal, the constants that name no
 * enumerator (refused when written), null when there is none. [constantOf] maps a number read
 * back to its constant, null when the class has none for it.
 */
internal class EnumInfo(val constants: Array<Enum<*>>, val decl: EnumDecl?) {
    val wire: IntArray?
    val undeclared: BooleanArray?
    /** With [wire]: the mapped numbers, sorted, and the constants in the same order. */
    private val keys: IntArray
    private val keyed: Array<Enum<*>?>

    init {
        val vals = arrayOfNulls<Int>(constants.size)
        if (decl != null) for (i in constants.indices) vals[i] = decl.valueOf(constants[i].name)
        val missing = BooleanArray(constants.size) { vals[it] == null }
        undeclared = missing.takeIf { m -> m.any { it } }
        if (decl == null || constants.indices.all { vals[it] == it }) {
            wire = null; keys = IntArray(0); keyed = arrayOfNulls(0)
        } else {
            wire = IntArray(constants.size) { vals[it] ?: 0 }
            val order = constants.indices.filter { vals[it] != null }.sortedBy { vals[it]!! }
            keys = IntArray(order.size) { vals[order[it]]!! }
            keyed = Array(order.size) { constants[order[it]] }
        }
    }

    /** The constant of number [v], or null. */
    fun constantOf(v: Int): Enum<*>? {
        if (wire == null) return if (v >= 0 && v < constants.size) constants[v] else null
        val i = java.util.Arrays.binarySearch(keys, v)
        return if (i >= 0) keyed[i] else null
    }

    /** The refusal of constant [o] when it names no enumerator, else null. */
    fun refused(o: Int): EnumRefused? =
        if (undeclared != null && undeclared[o]) EnumRefused(decl!!, o, constants[o].name) else null
}
