package dev.libwire.kotlin

/**
 * Run by PackagingTest on a JVM older than 22: calls each public entry point that reaches
 * native code (or a JDK 20+ method) and prints, per entry point, `<name>: <exception class>: <message>`.
 */
object OldJdkProbe {
    private val calls: List<Pair<String, () -> Any?>> = listOf(
        "Wire.libraryLocation" to { Wire.libraryLocation },
        "Wire.libraryVersion" to { Wire.libraryVersion },
        "Wire.libraryPath" to { Wire.libraryPath },
        "Wire.encode" to { Wire.encode(listOf(1L, "two")) },
        "Wire.decode" to { Wire.decode(byteArrayOf(2, -1, 0)) },
        "Context()" to { Context().close() },
        "Status.name" to { Status.name(Status.ENCODE) },
        "Status.message" to { Status.message(Status.ENCODE) },
        "TypeId.name" to { TypeId.name(TypeId.STRING) },
        "TypeId.fromName" to { TypeId.fromName("string") },
        "TypeId.arrayWidth" to { TypeId.arrayWidth(TypeId.INT32_ARRAY) },
        "Float16.of" to { Float16.of(1.5f) },
        "Float16.toFloat" to { Float16(0x3c00).toFloat() },
        "BFloat16.of" to { BFloat16.of(1.5f) },
        // a second call after the first failure still says why
        "Wire.libraryLocation (again)" to { Wire.libraryLocation },
    )

    @JvmStatic fun main(args: Array<String>) {
        for ((name, call) in calls) {
            val line = try {
                "returned ${call()}"
            } catch (t: Throwable) {
                "${t.javaClass.name}: ${t.message}"
            }
            println("$name: $line")
        }
    }
}
