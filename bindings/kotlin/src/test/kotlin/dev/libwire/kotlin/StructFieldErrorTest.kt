package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * A generic [WireStruct] whose field holds what the tape path cannot write is refused naming the
 * struct and the field (`field g.P.a: ...`), the innermost field once, as libwire names a field's
 * refusal; a field name the struct lacks is refused naming the struct (`struct g.P has no field
 * zz`, libwire's message, to which the binding adds the tape offset); in both modes, at the root
 * and inside a list.
 */
class StructFieldErrorTest {
    private val fdl = """
        package g;
        message In [id=601] { string s = 1; }
        message P [id=602] { int32 a = 1; In inner = 2; list<int32> l = 3; }
    """.trimIndent()

    private fun p(vararg bad: Pair<String, Any?>): WireStruct {
        val f = linkedMapOf<String, Any?>("a" to 1, "inner" to WireStruct("g.In", mapOf("s" to "y")), "l" to listOf(1))
        for ((k, v) in bad) f[k] = v
        return WireStruct("g.P", f)
    }

    @Test fun refusalsNameTheFieldOrTheStruct() {
        val cases = listOf(
            p("a" to Object()) to "unsupported: field g.P.a: no wire mapping for java.lang.Object (register data classes with registerDataClass)",
            p("l" to listOf(Object())) to "unsupported: field g.P.l: no wire mapping for java.lang.Object (register data classes with registerDataClass)",
            p("inner" to WireStruct("g.In", mapOf("s" to Object()))) to
                "unsupported: field g.In.s: no wire mapping for java.lang.Object (register data classes with registerDataClass)",
            p("inner" to WireStruct("g.Zz", mapOf())) to "schema: field g.P.inner: struct type g.Zz is not in the schema",
            p("zz" to 1) to "encode: struct g.P has no field zz",
            p("inner" to WireStruct("g.In", mapOf("s" to "y", "zz" to 1))) to "encode: struct g.In has no field zz",
        )
        for (compatible in listOf(false, true)) Context(WireOptions(compatible = compatible)).use { c ->
            c.registerSchemaText(fdl, "g.fdl")
            c.encode(p()) // (the good value writes, before and after)
            for ((v, want) in cases) for (root in listOf(v, listOf(p(), v))) {
                val e = runCatching { c.encode(root) }.exceptionOrNull()
                assertEquals(want, (e as? WireException)?.let { "${it.cls}: ${it.detail.substringBefore(" (tape offset")}" }, "compatible=$compatible $root")
            }
            c.encode(p()) // (the good value writes, before and after)
        }
    }
}
