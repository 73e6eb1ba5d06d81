package dev.libwire.kotlin

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test
import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/** The self-contained jar: libwire comes from the resources, and old JVMs get a clear message. */
class PackagingTest {
    @Test
    fun `libwire is loaded from the bundled resource without a system property`() {
        assumeTrue(System.getProperty("libwire.path").isNullOrEmpty() && System.getenv("LIBWIRE_PATH").isNullOrEmpty(),
            "-Dlibwire.path or LIBWIRE_PATH is set: the override is in use")
        assertNull(Wire.libraryPath)
        assertTrue(Wire.libraryLocation.endsWith("dev/libwire/kotlin/native/linux-x86_64/libwire.so"), Wire.libraryLocation)
        assertEquals("0.1.0", Wire.libraryVersion)
        // the extracted copy is deleted once loaded
        val copy = Native.extractedCopy
        assertTrue(copy != null && copy.fileName.toString().startsWith("libwire-") && !Files.exists(copy), "$copy")
    }

    @Test
    fun `constants come from wire h`() {
        assertEquals(21, TypeId.STRING)
        assertEquals(24, Status.ENCODE)
        assertEquals("encode", Status.name(Status.ENCODE))
        assertEquals(Status.ENCODE, WireException("encode", -1, "x").status)
    }

    /** A JVM older than 22 (Debian's OpenJDK 17 here) loads the classes and says what it needs. */
    @Test
    fun `an old JDK gets a clear message`() {
        val old = oldJdk()
        assumeTrue(old != null, "no JDK older than 22 under /usr/lib/jvm")
        val cp = System.getProperty("java.class.path")
        val p = ProcessBuilder(old!!.resolve("bin/java").toString(), "-cp", cp, "dev.libwire.kotlin.testee.TesteeMain")
            .redirectErrorStream(true).start()
        p.outputStream.close()
        val out = p.inputStream.readBytes().toString(Charsets.UTF_8)
        p.waitFor()
        assertTrue(out.contains("libwire-kotlin needs JDK 22 or newer"), out)
        assertTrue(p.exitValue() != 0)
    }

    /**
     * Every public entry point that reaches native code throws the UnsupportedOperationException
     * itself on an old JDK (the README's promise), not an ExceptionInInitializerError of Native
     * or a NoSuchMethodError, and so does a second call.
     */
    @Test
    fun `every entry point gives an old JDK the same message`() {
        val old = oldJdk()
        assumeTrue(old != null, "no JDK older than 22 under /usr/lib/jvm")
        val p = ProcessBuilder(old!!.resolve("bin/java").toString(), "-cp", System.getProperty("java.class.path"),
            "dev.libwire.kotlin.OldJdkProbe").redirectErrorStream(true).start()
        p.outputStream.close()
        val lines = p.inputStream.readBytes().toString(Charsets.UTF_8).lines().filter { it.isNotBlank() }
        p.waitFor()
        assertEquals(15, lines.size, lines.joinToString("\n"))
        for (line in lines) {
            assertTrue(line.contains(": java.lang.UnsupportedOperationException: libwire-kotlin needs JDK 22 or newer (the java.lang.foreign API); this JVM is "), line)
        }
    }

    private fun oldJdk(): Path? = (File("/usr/lib/jvm").listFiles() ?: emptyArray()).map { it.toPath() }.firstOrNull { j ->
        val rel = j.resolve("release")
        Files.exists(j.resolve("bin/java")) && Files.exists(rel) &&
            Regex("JAVA_VERSION=\"(\\d+)").find(Files.readString(rel))?.groupValues?.get(1)?.toInt()?.let { it < 22 } == true
    }
}
