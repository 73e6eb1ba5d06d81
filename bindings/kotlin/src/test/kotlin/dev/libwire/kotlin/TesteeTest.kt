package dev.libwire.kotlin

import dev.libwire.kotlin.testee.Json
import dev.libwire.kotlin.testee.Testee
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.nio.file.Files

/** The conformance testee's request handling (conformance/PROTOCOL.md), in-process. */
class TesteeTest {
    private fun ask(t: Testee, req: Map<String, Any?>): Map<String, Any?> {
        // through the JSON text, as on the wire
        @Suppress("UNCHECKED_CAST")
        return Json.parse(Json.write(t.handle(Json.write(req)))) as Map<String, Any?>
    }

    @Test fun hello() {
        Testee(repoRoot).use { t ->
            val h = t.hello()["hello"] as Map<*, *>
            assertEquals("libwire-kotlin", h["name"])
            assertTrue((h["capabilities"] as List<*>).containsAll(listOf("ref_tracking", "compatible", "schema")))
        }
    }

    @Test fun builtins() {
        Testee(repoRoot).use { t ->
            val cfg = mapOf("ref" to false, "compatible" to false)
            val enc = ask(t, mapOf("id" to 1L, "op" to "encode", "config" to cfg, "values" to listOf(
                mapOf("string" to "hi"),
                mapOf("list" to listOf(mapOf("varint64" to "1"), mapOf("string" to "a"), mapOf("null" to null))),
                mapOf("float32" to "1.5"),
                mapOf("uint16_array" to listOf("1", "65535")),
                mapOf("decimal" to mapOf("unscaled" to "-123456789012345678901234567890", "scale" to 3L)),
            )))
            assertEquals(true, enc["ok"], enc.toString())
            assertEquals(1L, enc["id"])
            val dec = ask(t, mapOf("id" to 2L, "op" to "decode", "config" to cfg, "hex" to enc["hex"]))
            assertEquals(true, dec["ok"], dec.toString())
            val values = dec["values"] as List<*>
            assertEquals(5, values.size)
            assertEquals(mapOf("string" to "hi", "enc" to "latin1"), values[0])
            assertEquals(mapOf("float32" to "0x3fc00000", "approx" to "1.5"), values[2])
            assertEquals(mapOf("uint16_array" to listOf("1", "65535")), values[3])
            assertEquals(mapOf("decimal" to mapOf("unscaled" to "-123456789012345678901234567890", "scale" to 3L)), values[4])
            // and back to the same bytes
            val again = ask(t, mapOf("id" to 3L, "op" to "encode", "config" to cfg, "values" to values))
            assertEquals(enc["hex"], again["hex"])
        }
    }

    @Test fun failures() {
        Testee(repoRoot).use { t ->
            val cfg = mapOf("ref" to false, "compatible" to false)
            fun cls(req: Map<String, Any?>) = ask(t, req).also { assertEquals(false, it["ok"]) }["class"]
            assertEquals("truncated", cls(mapOf("id" to 1L, "op" to "decode", "config" to cfg, "hex" to "01ff07")))
            assertEquals("header", cls(mapOf("id" to 1L, "op" to "decode", "config" to cfg, "hex" to "00")))
            assertEquals("notation", cls(mapOf("id" to 1L, "op" to "encode", "config" to cfg, "values" to listOf(mapOf("string" to "a", "bool" to true)))))
            assertEquals("notation", cls(mapOf("id" to 1L, "op" to "encode", "config" to cfg, "values" to listOf(mapOf("ref" to "nope")))))
            assertEquals("notation", cls(mapOf("id" to 1L, "op" to "encode", "config" to cfg, "values" to listOf(mapOf("int8" to "300"))))) // libwire's parser: a value the notation cannot write
            assertEquals("idl", cls(mapOf("id" to 1L, "op" to "decode", "config" to cfg, "schemas" to listOf("bindings/kotlin/pom.xml"), "hex" to "01fd")))
            assertEquals("unsupported", cls(mapOf("id" to 1L, "op" to "frobnicate", "config" to cfg)))
            val bad = Json.parse(Json.write(t.handle("{not json"))) as Map<*, *>
            assertEquals(null, bad["id"])
            assertEquals(false, bad["ok"])
        }
    }

    /** Every corpus case: decode + re-encode is byte-exact, and encoding the roots gives a runtime's bytes. */
    @Test fun xlangCorpus() {
        val dir = repoRoot.resolve("fixtures/xlang-corpus")
        val cases = Files.list(dir).use { s -> s.filter { it.toString().endsWith(".json") }.sorted().toList() }
        assertTrue(cases.size >= 48)
        var javaBytes = 0
        Testee(repoRoot).use { t ->
            for (f in cases) {
                val c = Json.parse(Files.readString(f)) as Map<*, *>
                val cfg = mapOf("ref" to (c["ref"] == true), "compatible" to (c["mode"] == "compatible"))
                val schemas = listOfNotNull(c["schema"])
                val javaHex = c["java_hex"] as String
                val dec = ask(t, mapOf("id" to 1L, "op" to "decode", "config" to cfg, "schemas" to schemas, "hex" to javaHex))
                assertEquals(true, dec["ok"], "${f.fileName}: $dec")
                val re = ask(t, mapOf("id" to 2L, "op" to "encode", "config" to cfg, "schemas" to schemas, "values" to dec["values"]))
                assertEquals(javaHex, re["hex"], "${f.fileName}: re-encode")
                val enc = ask(t, mapOf("id" to 3L, "op" to "encode", "config" to cfg, "schemas" to schemas, "values" to c["roots"]))
                assertEquals(true, enc["ok"], "${f.fileName}: $enc")
                assertTrue(enc["hex"] == javaHex || enc["hex"] == c["pyfory_hex"], "${f.fileName}: roots encode to neither runtime's bytes")
                if (enc["hex"] == javaHex) javaBytes++
            }
        }
        assertEquals(cases.size, javaBytes, "roots encode to exactly Java's bytes in every case")
    }
}
