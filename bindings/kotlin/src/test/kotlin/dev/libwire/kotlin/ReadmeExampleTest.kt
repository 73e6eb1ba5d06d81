package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/** The example of README.md, verbatim apart from the schema path and the prints. */
class ReadmeExampleTest {
    data class Item(val name: String)

    @Test fun example() {
        val bytes = Wire.encode(listOf(1L, "two", 3.0, mapOf("k" to true)))
        assertEquals("[1, two, 3.0, {k=true}]", Wire.decode(bytes).toString())

        Wire.registerSchema(repoRoot.resolve("fixtures/schemas/xlang/test_item.fdl"))
        Wire.registerDataClass(Item::class, "Item")
        val opts = WireOptions(compatible = true)
        val item = Wire.decode(Wire.encode(Item("x"), opts), opts)
        assertEquals("Item(name=x)", item.toString())

        val e = runCatching { Wire.decode(byteArrayOf(1, -1, 7)) }.exceptionOrNull() as WireException
        assertEquals("truncated at byte 3: ${e.detail}", e.message)
    }
}
