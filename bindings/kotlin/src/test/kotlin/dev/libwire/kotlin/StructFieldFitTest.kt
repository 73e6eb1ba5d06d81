package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

data class PfA(val x: Int)
data class PfB(val y: Int)
data class PfH(val f: PfA)
data class PfHN(val f: PfA?)

/**
 * A compatible-mode struct field declared as struct g.A holding a value of another kind or type, as
 * pyfory 1.7.7 writes one (spec/errata.md E-STRUCTFIT-1): an int, a string, a list, a struct g.B, an
 * enum, None where the field is not nullable (NONE type meta) and null where it is; by id and by
 * name. A data class whose property is a PfA refuses each on both codec paths with class `schema`,
 * naming the struct and the field (`field g.H.f: ...`; the compiled codecs also give the offset of
 * the value's type meta), and never returns a PfA made of another value (Fory Java 1.6.0 reads a
 * struct B there as A(x=0)).
 */
class StructFieldFitTest {
    private val byId = "package g;\nmessage A [id=101] { int32 x = 1; }\nmessage B [id=102] { int32 y = 1; }\n" +
        "enum E [id=103] { R = 0; G = 1; }\nmessage H [id=104] { A f = 1 [nullable = false]; }\nmessage HN [id=105] { A f = 1; }\n"
    private val byName = "package g;\noption enable_auto_type_id = false;\nmessage A { int32 x = 1; }\nmessage B { int32 y = 1; }\n" +
        "enum E { R = 0; G = 1; }\nmessage H { A f = 1 [nullable = false]; }\nmessage HN { A f = 1; }\n"

    /** pyfory 1.7.7's bytes (compatible, ref off): "id|name / H|HN / what" to hex. */
    private val cases = listOf(
        "id/H/B" to "01ff1c000570adb6905aba49c168401c141c02052019cb91382d7cc16640056012",
        "id/H/a" to "01ff1c000570adb6905aba49c168401c141c0205b041dfe88ea318c16540055c0e",
        "id/H/enum" to "01ff1c000570adb6905aba49c168401c14196701",
        "id/H/i32" to "01ff1c000570adb6905aba49c168401c14070a",
        "id/H/list" to "01ff1c000570adb6905aba49c168401c14160208070204",
        "id/H/null" to "01ff1c000570adb6905aba49c168401c1424",
        "id/H/str" to "01ff1c000570adb6905aba49c168401c1415086869",
        "id/HN/B" to "01ff1c00054099c7d5efb577c169421c14ff1c02052019cb91382d7cc16640056012",
        "id/HN/a" to "01ff1c00054099c7d5efb577c169421c14ff1c0205b041dfe88ea318c16540055c0e",
        "id/HN/enum" to "01ff1c00054099c7d5efb577c169421c14ff196701",
        "id/HN/i32" to "01ff1c00054099c7d5efb577c169421c14ff070a",
        "id/HN/list" to "01ff1c00054099c7d5efb577c169421c14ff160208070204",
        "id/HN/null" to "01ff1c00054099c7d5efb577c169421c14fd",
        "id/HN/str" to "01ff1c00054099c7d5efb577c169421c14ff15086869",
        "name/H/B" to "01ff1e0008a00ec837b13d02e10518071c401e141e0208203cbb04227017e10518070440056012",
        "name/H/a" to "01ff1e0008a00ec837b13d02e10518071c401e141e020850bec0e29d021de10518070040055c0e",
        "name/H/enum" to "01ff1e0008a00ec837b13d02e10518071c401e141a020580e7c96c3d732d010518071001",
        "name/H/i32" to "01ff1e0008a00ec837b13d02e10518071c401e14070a",
        "name/H/list" to "01ff1e0008a00ec837b13d02e10518071c401e14160208070204",
        "name/H/null" to "01ff1e0008a00ec837b13d02e10518071c401e1424",
        "name/H/str" to "01ff1e0008a00ec837b13d02e10518071c401e1415086869",
        "name/HN/B" to "01ff1e00092053a82d307b76e105180a4338421e14ff1e0208203cbb04227017e10518070440056012",
        "name/HN/a" to "01ff1e00092053a82d307b76e105180a4338421e14ff1e020850bec0e29d021de10518070040055c0e",
        "name/HN/enum" to "01ff1e00092053a82d307b76e105180a4338421e14ff1a020580e7c96c3d732d010518071001",
        "name/HN/i32" to "01ff1e00092053a82d307b76e105180a4338421e14ff070a",
        "name/HN/list" to "01ff1e00092053a82d307b76e105180a4338421e14ff160208070204",
        "name/HN/null" to "01ff1e00092053a82d307b76e105180a4338421e14fd",
        "name/HN/str" to "01ff1e00092053a82d307b76e105180a4338421e14ff15086869",
    )

    private fun unhex(h: String) = ByteArray(h.length / 2) { h.substring(2 * it, 2 * it + 2).toInt(16).toByte() }

    private fun ctx(name: Boolean): Context = Context(WireOptions(compatible = true)).also { c ->
        c.registerSchemaText(if (name) byName else byId, "g.fdl")
        c.registerDataClass(PfA::class, "g.A")
        c.registerDataClass(PfB::class, "g.B")
        c.registerDataClass(PfH::class, "g.H")
        c.registerDataClass(PfHN::class, "g.HN")
    }

    @Test
    fun refusedNamingTheField() {
        for ((key, hex) in cases) {
            val (reg, holder, what) = key.split("/")
            val nullable = holder == "HN"
            val bytes = unhex(hex)
            val k = if (nullable) PfHN::class else PfH::class
            ctx(reg == "name").use { c ->
                val want: Any? = when {
                    what == "a" -> if (nullable) PfHN(PfA(7)) else PfH(PfA(7))
                    what == "null" && nullable -> PfHN(null)
                    else -> null
                }
                val compiled = runCatching { c.decode(bytes, k) }
                val tape = runCatching { c.decodeAll(bytes).single() }
                if (want != null) {
                    assertEquals(want, compiled.getOrThrow(), "$key: compiled")
                    assertEquals(want, tape.getOrThrow(), "$key: tape")
                    return@use
                }
                for ((path, r) in listOf("compiled" to compiled, "tape" to tape)) {
                    val e = r.exceptionOrNull()
                    assertTrue(e is WireException, "$key, $path: $r")
                    e as WireException
                    assertEquals("schema", e.cls, "$key, $path: ${e.message}")
                    assertTrue(e.detail.startsWith("field g.$holder.f: "), "$key, $path: ${e.detail}")
                    if (path == "compiled") {
                        assertTrue(e.detail.endsWith("where struct g.A is declared"), "$key: ${e.detail}")
                        // the value's type meta: after H's TypeDef and the flag (nullable); of struct B, its TypeDef
                        val at = (if (reg == "name") (if (nullable) 22L else 20L) else (if (nullable) 18L else 17L)) +
                            (if (what == "B") 2L else 0L)
                        assertEquals(at, e.offset, "$key: ${e.detail}")
                    } else {
                        assertTrue(e.detail.endsWith("does not fit PfA"), "$key: ${e.detail}")
                    }
                }
            }
        }
    }
}
