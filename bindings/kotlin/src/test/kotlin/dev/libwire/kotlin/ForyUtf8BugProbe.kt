package dev.libwire.kotlin

import org.apache.fory.Fory
import org.apache.fory.config.Language
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test

/**
 * A bug of the Fory Java runtime found by the interop tests (not run by default:
 * `mvn test -Dgroups=probe -Dexcluded.groups=none`).
 *
 * fory-core 1.6.0 misreads its own UTF-8 string `"a"*70 + "日"` once the same `Fory`
 * has read a short UTF-8 string with non-ASCII characters (`"aé日"`, `"a😀"`): the first
 * characters come back garbled (`"a𨙡aaa…"`), as if a reused decode buffer kept stale
 * content. The bytes are exactly what Fory writes (and what libwire writes), so
 * ForyInteropTest reads every value with a fresh `Fory`.
 */
@Tag("probe")
class ForyUtf8BugProbe {
    @Test fun staleUtf8Buffer() {
        val target = "a".repeat(70) + "日"
        val f = Fory.builder().withLanguage(Language.XLANG).build()
        val bytes = f.serialize(target)
        assertEquals(target, f.deserialize(bytes))          // fine the first time
        f.deserialize(f.serialize("aé日"))                  // a short non-ASCII UTF-8 string
        val again = f.deserialize(bytes) as String
        println("fory-core 1.6.0 reads ${hex(bytes).take(16)}… as \"${again.take(4)}…\" after \"aé日\"")
        assertEquals(target, again, "Fory Java misreads the same bytes the second time")
    }
}
