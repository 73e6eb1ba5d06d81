package dev.libwire.kotlin

import java.lang.invoke.MethodHandle
import java.lang.invoke.MethodHandles
import java.lang.invoke.MethodType

/**
 * The codec plan of a data class bound to a schema struct, made once at registration:
 * the class's properties in the struct's wire order, each with a getter MethodHandle typed
 * to its primitive (no boxing on encode) and the tape op it is written as, and the primary
 * constructor as one MethodHandle taking the arguments as an array. Messages are written
 * as tape `STRUCT_IDX` (fields by wire index, no names) and read back from the tapes that
 * `wire_decode_tape_to` gives with `WIRE_TAPE_FIELD_INDEX`.
 *
 * There is no plan (and the class goes by field name, [ClassInfo]) when the class and the
 * struct do not match one to one: a schema field the class lacks, a constructor parameter
 * the struct lacks, a field known only by its tag, a value class property.
 */
internal class StructPlan(
    val typeIndex: Int,
    /** In wire order. */
    @JvmField val fields: Array<FieldPlan>,
    /** `(Object[])Object`: the primary constructor, arguments in parameter order. */
    private val ctor: MethodHandle,
    private val nparams: Int,
    private val info: ClassInfo,
) {
    fun newArgs(): Array<Any?> = arrayOfNulls(nparams)

    /** The JVM memory an instance takes, estimated (a header, a word a field), for Limit.MEM_DECODE. */
    @JvmField val heapBytes: Long = 16L + 8L * nparams

    fun construct(args: Array<Any?>): Any = try {
        ctor.invokeExact(args) as Any
    } catch (e: NullPointerException) {
        throw WireException("value", -1, "${info.kclass.simpleName}: a null for a field that is not nullable")
    } catch (e: ClassCastException) {
        throw WireException("value", -1, "${info.kclass.simpleName}: ${e.message}")
    }

    companion object {
        const val K_ANY = 0
        const val K_INT = 1
        const val K_LONG = 2
        const val K_DOUBLE = 3
        const val K_FLOAT = 4
        const val K_BOOL = 5
        const val K_SHORT = 6
        const val K_BYTE = 7
        const val K_STRING = 8

        /** The plan, or null when the class does not match the struct one to one. */
        fun of(typeIndex: Int, wireNames: List<String?>, info: ClassInfo): StructPlan? {
            if (info.hasValueClass) return null
            if (wireNames.size != info.fields.size) return null
            val lookup = MethodHandles.lookup()
            val fields = ArrayList<FieldPlan>(wireNames.size)
            for (name in wireNames) {
                val f = info.byWireName[name ?: return null] ?: return null
                val g = f.getter
                val rt = g.returnType
                val kind = when {
                    f.wireType >= 0 -> K_ANY
                    rt == Int::class.javaPrimitiveType -> K_INT
                    rt == Long::class.javaPrimitiveType -> K_LONG
                    rt == Double::class.javaPrimitiveType -> K_DOUBLE
                    rt == Float::class.javaPrimitiveType -> K_FLOAT
                    rt == Boolean::class.javaPrimitiveType -> K_BOOL
                    rt == Short::class.javaPrimitiveType -> K_SHORT
                    rt == Byte::class.javaPrimitiveType -> K_BYTE
                    rt == String::class.java -> K_STRING
                    else -> K_ANY
                }
                val mh = lookup.unreflect(g)
                val typed = when (kind) {
                    K_ANY, K_STRING -> mh.asType(MethodType.methodType(Any::class.java, Any::class.java))
                    else -> mh.asType(MethodType.methodType(rt, Any::class.java))
                }
                fields.add(FieldPlan(kind, typed, f))
            }
            val n = info.fields.size
            val ctor = lookup.unreflectConstructor(info.javaCtor)
                .asSpreader(Array<Any?>::class.java, n)
                .asType(MethodType.methodType(Any::class.java, Array<Any?>::class.java))
            return StructPlan(typeIndex, fields.toTypedArray(), ctor, n, info)
        }
    }
}

/** One field of a [StructPlan]: how it is read from an instance and which constructor argument it is. */
internal class FieldPlan(
    @JvmField val kind: Int,
    /** `(Object)<prim>` for the primitive kinds, `(Object)Object` otherwise. */
    @JvmField val getter: MethodHandle,
    @JvmField val info: FieldInfo,
) {
    @JvmField val arg: Int = info.index
}
