package dev.libwire.kotlin

import org.junit.jupiter.api.Test

data class PfA(val x: Int)
data class PfB(val y: Int)
data class PfH(val f: PfA)
data class PfHN(val f: PfA?)

class ZzProbeTest {
    private val fdl = "package g;\nmessage A [id=101] { int32 x = 1; }\nmessage B [id=102] { int32 y = 1; }\nenum E [id=103] { R = 0; G = 1; }\nmessage H [id=104] { A f = 1; }\nmessage HN [id=105] { A f = 1; }\n"
    @Test
    fun probe() {
        val lines = java.io.File("/tmp/pf/j/cases.txt").readLines().filter { it.startsWith("id/") }
        for (l in lines) {
            val (k, h) = l.split(" ")
            val b = ByteArray(h.length / 2) { h.substring(2 * it, 2 * it + 2).toInt(16).toByte() }
            Context(WireOptions(compatible = true)).use { c ->
                c.registerSchemaText(fdl, "g.fdl")
                c.registerDataClass(PfA::class, "g.A"); c.registerDataClass(PfB::class, "g.B")
                c.registerDataClass(PfH::class, "g.H"); c.registerDataClass(PfHN::class, "g.HN")
                val kc = if (k.contains("/HN/")) PfHN::class else PfH::class
                val r1 = try { c.decode(b, kc).toString() } catch (e: Throwable) { "!! ${e.javaClass.simpleName}: ${e.message}" }
                val r2 = try { c.decodeAll(b).toString() } catch (e: Throwable) { "!! ${e.javaClass.simpleName}: ${e.message}" }
                println("PROBE $k compiled: $r1")
                println("PROBE $k tape:     $r2")
            }
        }
    }
}
