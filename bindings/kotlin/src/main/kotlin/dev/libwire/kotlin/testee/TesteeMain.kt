package dev.libwire.kotlin.testee

import dev.libwire.kotlin.Context
import dev.libwire.kotlin.Document
import dev.libwire.kotlin.Native
import dev.libwire.kotlin.Notation
import dev.libwire.kotlin.TypeId
import dev.libwire.kotlin.Wire
import dev.libwire.kotlin.WireException
import dev.libwire.kotlin.Peer
import dev.libwire.kotlin.WireOptions
import java.io.BufferedReader
import java.io.BufferedWriter
import java.io.InputStreamReader
import java.io.OutputStreamWriter
import java.nio.file.Files
import java.nio.file.Path

/**
 * The conformance testee (conformance/PROTOCOL.md): JSON lines on stdin/stdout,
 * values in the value notation (spec/notation.md), served through the
 * Document API of the Kotlin binding (and so through libwire via Java FFM).
 *
 *     java -jar bindings/kotlin/target/libwire-kotlin-testee.jar
 */
object TesteeMain {
    @JvmStatic
    fun main(args: Array<String>) {
        val out = BufferedWriter(OutputStreamWriter(System.out, Charsets.UTF_8))
        val input = BufferedReader(InputStreamReader(System.`in`, Charsets.UTF_8))
        Testee(findRepoRoot()).use { t ->
            out.write(Json.write(t.hello()))
            out.newLine()
            out.flush()
            while (true) {
                val line = input.readLine() ?: break
                if (line.isBlank()) continue
                out.write(Json.write(t.handle(line)))
                out.newLine()
                out.flush()
            }
        }
    }

    /** -Dlibwire.repo, LIBWIRE_REPO, the repository holding this jar, or the working directory. */
    fun findRepoRoot(): Path {
        System.getProperty("libwire.repo")?.takeIf { it.isNotEmpty() }?.let { return Path.of(it).toAbsolutePath().normalize() }
        System.getenv("LIBWIRE_REPO")?.takeIf { it.isNotEmpty() }?.let { return Path.of(it).toAbsolutePath().normalize() }
        try {
            var p: Path? = Path.of(TesteeMain::class.java.protectionDomain.codeSource.location.toURI()).toAbsolutePath()
            while (p != null) {
                if (Files.isDirectory(p.resolve("fixtures")) && Files.isDirectory(p.resolve("libwire"))) return p
                p = p.parent
            }
        } catch (_: Exception) {
        }
        return Path.of("").toAbsolutePath()
    }
}

/** Request handling, separate from the stdio loop so tests can drive it. */
class Testee(private val root: Path) : AutoCloseable {
    private data class Key(val ref: Boolean, val compatible: Boolean, val peer: Peer, val schemas: List<Path>)

    private val contexts = HashMap<Key, Context>()

    fun hello(): Map<String, Any?> = linkedMapOf(
        "hello" to linkedMapOf(
            "name" to "libwire-kotlin",
            "version" to "0.1.0",
            "runtime" to "libwire ${Wire.libraryVersion} via java.lang.foreign (JDK ${Runtime.version()})",
            "capabilities" to listOf(
                "ref_tracking", "compatible", "schema", "float16", "bfloat16", "decimal", "struct", "enum",
                "union", "ext", "named_types", "unsigned", "dense_array", "temporal", "meta_string", "typedef", "peer",
            ) + (if (Native.struct_project != null) listOf("evolution") else emptyList()),
        ),
    )

    private fun context(ref: Boolean, compatible: Boolean, peer: Peer, schemas: List<Path>): Context {
        val key = Key(ref, compatible, peer, schemas)
        contexts[key]?.let { return it }
        val ctx = Context(WireOptions(refTracking = ref, compatible = compatible, peer = peer))
        try {
            for (s in schemas) ctx.registerSchema(s)
        } catch (e: Throwable) {
            ctx.close()
            throw e
        }
        contexts[key] = ctx
        return ctx
    }

    private fun fail(id: Any?, cls: String, message: String) =
        linkedMapOf("id" to id, "ok" to false, "class" to cls, "message" to message)

    fun handle(line: String): Map<String, Any?> {
        val req = try {
            Json.parse(line) as? Map<*, *> ?: return fail(null, "arg", "a request must be a JSON object")
        } catch (e: Json.ParseError) {
            return fail(null, "arg", "request is not JSON: ${e.message}")
        }
        val id = req["id"]
        return try {
            val cfg = req["config"] as? Map<*, *> ?: emptyMap<String, Any?>()
            val ref = cfg["ref"] == true
            val compatible = cfg["compatible"] == true
            val peer = when (cfg["peer"]) {
                null -> Peer.NONE
                "java" -> Peer.JAVA
                "pyfory" -> Peer.PYFORY
                "go" -> Peer.GO
                else -> return fail(id, "arg", "config.peer must be java, pyfory or go")
            }
            val schemas = (req["schemas"] as? List<*> ?: emptyList<Any?>()).map {
                val s = it as? String ?: throw NotationException("schemas must be strings")
                val p = Path.of(s)
                (if (p.isAbsolute) p else root.resolve(p)).normalize()
            }
            val ctx = context(ref, compatible, peer, schemas)
            when (req["op"]) {
                "decode" -> {
                    val hex = req["hex"] as? String ?: return fail(id, "arg", "decode needs \"hex\"")
                    val bytes = parseHex(hex, "hex")
                    val project = req["project"]
                    if (project != null && project !is Boolean) return fail(id, "arg", "\"project\" must be a boolean")
                    Document.decode(ctx, bytes).use { doc ->
                        val flags = if (ref) Notation.UNTRACKED else 0
                        val values = if (project == true) {
                            // every root struct whose type the schemas have, read as the schemas' version
                            doc.roots.filter { it.type in TypeId.STRUCT..TypeId.NAMED_COMPATIBLE_STRUCT && it.userType != null }
                                .map { r -> Json.parse(doc.notation(r.project(r.userType!!), flags)) }
                        } else {
                            List(doc.rootCount) { Json.parse(doc.notation(doc.root(it), flags)) }
                        }
                        linkedMapOf("id" to id, "ok" to true, "values" to values)
                    }
                }
                "encode" -> {
                    val values = req["values"] as? List<*> ?: return fail(id, "arg", "encode needs \"values\"")
                    Document(ctx).use { doc ->
                        for (v in values) doc.addNotation(Json.write(v))
                        val out = doc.encode()
                        linkedMapOf("id" to id, "ok" to true, "hex" to out.joinToString("") { "%02x".format(it.toInt() and 0xff) })
                    }
                }
                else -> fail(id, "unsupported", "unknown op ${req["op"]}")
            }
        } catch (e: WireException) {
            fail(id, e.cls, e.detail)
        } catch (e: NotationException) {
            fail(id, "notation", e.message ?: "bad notation")
        } catch (e: StackOverflowError) {
            fail(id, "depth", "nesting too deep for the testee")
        } catch (e: RuntimeException) {
            fail(id, "unsupported", "${e.javaClass.simpleName}: ${e.message}")
        }
    }

    override fun close() {
        contexts.values.forEach { it.close() }
        contexts.clear()
    }
}
