package dev.libwire.peer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.fory.Fory;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.type.Types;

/**
 * JSON-lines peer adapter around the Apache Fory Java runtime (xlang mode).
 *
 * <p>stdin: one request object per line; stdout: one response object per request line, after a
 * hello line. Everything else the process (or the runtime's logger) prints goes to stderr.
 */
public final class Main {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ForyPool pool = new ForyPool();

  /** The foryc-generated classes of the fixtures' schemas, or null (built without them). */
  private final UserTypes userTypes = UserTypes.load();

  /** The built-in value types, and with user types those of the schemas. */
  private static final String[] CAPABILITIES = {
    "ref_tracking", "decimal", "temporal", "dense_array", "unsigned", "float16", "bfloat16",
    "meta_string", "compatible"
  };

  private static final String[] USER_CAPABILITIES = {
    "schema", "struct", "enum", "union", "named_types", "typedef", "evolution", "peer"
  };

  public static void main(String[] args) throws IOException {
    // The runtime's built-in logger prints to System.out; keep stdout for the protocol only.
    PrintStream out =
        new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    System.setOut(System.err);

    ObjectNode hello = JSON.createObjectNode();
    ObjectNode info = hello.putObject("hello");
    info.put("name", "java");
    info.put("runtime", "org.apache.fory:fory-core");
    info.put("version", foryVersion());
    Main peer = new Main();
    ArrayNode caps = info.putArray("capabilities");
    for (String c : CAPABILITIES) caps.add(c);
    if (peer.userTypes != null) {
      for (String c : USER_CAPABILITIES) caps.add(c);
    }
    emit(out, hello);

    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      emit(out, peer.handle(line));
    }
    out.flush();
    System.exit(0);
  }

  private static void emit(PrintStream out, JsonNode node) throws JsonProcessingException {
    out.print(JSON.writeValueAsString(node));
    out.print('\n');
    out.flush();
  }

  static String foryVersion() {
    try (InputStream s = Main.class.getResourceAsStream("/fory-java-peer.properties")) {
      if (s != null) {
        Properties p = new Properties();
        p.load(s);
        String v = p.getProperty("fory.version");
        if (v != null && !v.startsWith("$")) {
          return v;
        }
      }
    } catch (IOException ignored) {
      // fall through
    }
    String v = Fory.class.getPackage().getImplementationVersion();
    return v != null ? v : "unknown";
  }

  JsonNode handle(String line) {
    JsonNode req;
    try {
      req = JSON.readTree(line);
    } catch (IOException e) {
      return failure(null, "error", "request is not JSON: " + e.getMessage());
    }
    JsonNode id = req.get("id");
    if (!req.isObject()) {
      return failure(null, "error", "request must be a JSON object");
    }
    JsonNode config = req.get("config");
    boolean ref = config != null && config.path("ref").asBoolean(false);
    boolean compatible = config != null && config.path("compatible").asBoolean(false);
    String op = req.path("op").asText("");
    JsonNode schemas = req.get("schemas");
    if (schemas != null && schemas.isArray() && schemas.size() > 0) {
      return typed(id, req, op, schemas, ref, compatible);
    }
    try {
      switch (op) {
        case "encode":
          return encode(id, req, ref, compatible);
        case "decode":
          return decode(id, req, ref, compatible);
        default:
          return failure(id, "error", "unknown op '" + op + "'");
      }
    } catch (PeerException e) {
      return failure(id, e.kind, e.getMessage());
    } catch (StackOverflowError e) {
      pool.discard(ref, compatible);
      return failure(id, "error", "stack overflow (cyclic value?)");
    } catch (Throwable e) {
      pool.discard(ref, compatible);
      return failure(id, "error", describe(e));
    }
  }

  /** A request with schemas: the foryc-generated classes of those schemas (UserTypes). */
  private JsonNode typed(
      JsonNode id, JsonNode req, String op, JsonNode schemas, boolean ref, boolean compatible) {
    if (userTypes == null) {
      return failure(id, "unsupported", "the Java peer was started without user types");
    }
    UserTypes.Unit unit = null;
    try {
      unit = userTypes.unit(schemas);
      Fory fory = userTypes.fory(unit, ref, compatible);
      switch (op) {
        case "encode":
          {
            JsonNode values = req.get("values");
            if (values == null || !values.isArray()) {
              throw PeerException.error("encode needs a \"values\" array");
            }
            Object[] roots = new Object[values.size()];
            for (int i = 0; i < roots.length; i++) {
              roots[i] = TypedReader.readRoot(unit, values.get(i));
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            for (Object root : roots) {
              bytes.writeBytes(fory.serialize(root));
            }
            ObjectNode resp = success(id);
            resp.put("hex", Hex.encode(bytes.toByteArray()));
            return resp;
          }
        case "decode":
          {
            boolean project = req.path("project").asBoolean(false);
            final UserTypes.Unit u = unit;
            return decodeRoots(
                id,
                req,
                fory,
                () -> userTypes.discard(u, ref, compatible),
                value ->
                    project && (value == null || !u.names.containsKey(value.getClass()))
                        ? null // projection: the root structs of the reader's types only
                        : TypedWriter.writeRoot(u, value));
          }
        default:
          return failure(id, "error", "unknown op '" + op + "'");
      }
    } catch (UserTypes.SchemaError e) {
      return failure(id, "idl", e.getMessage());
    } catch (PeerException e) {
      return failure(id, e.kind, e.getMessage());
    } catch (StackOverflowError e) {
      if (unit != null) userTypes.discard(unit, ref, compatible);
      return failure(id, "error", "stack overflow (cyclic value?)");
    } catch (Throwable e) {
      if (unit != null) userTypes.discard(unit, ref, compatible);
      return failure(id, "error", describe(e));
    }
  }

  private JsonNode encode(JsonNode id, JsonNode req, boolean ref, boolean compatible) {
    JsonNode values = req.get("values");
    if (values == null || !values.isArray()) {
      throw PeerException.error("encode needs a \"values\" array");
    }
    // Build every root first so an unsupported node fails the request before any runtime call.
    Object[] roots = new Object[values.size()];
    for (int i = 0; i < roots.length; i++) {
      roots[i] = NotationReader.readRoot(values.get(i));
    }
    Fory fory = pool.get(ref, compatible);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Object root : roots) {
      bytes.writeBytes(fory.serialize(root));
    }
    ObjectNode resp = success(id);
    resp.put("hex", Hex.encode(bytes.toByteArray()));
    return resp;
  }

  private JsonNode decode(JsonNode id, JsonNode req, boolean ref, boolean compatible) {
    return decodeRoots(
        id, req, pool.get(ref, compatible), () -> pool.discard(ref, compatible),
        NotationWriter::writeRoot);
  }

  /**
   * Decodes every root of the request's bytes with {@code fory} (one MemoryBuffer,
   * deserialize until the end) and prints each with {@code print} (null: the root is left
   * out); {@code discard} drops the instance after a runtime failure.
   */
  private static JsonNode decodeRoots(
      JsonNode id, JsonNode req, Fory fory, Runnable discard,
      java.util.function.Function<Object, JsonNode> print) {
    JsonNode hex = req.get("hex");
    if (hex == null || !hex.isTextual()) {
      throw PeerException.error("decode needs a \"hex\" string");
    }
    byte[] data = Hex.decode(hex.textValue());
    MemoryBuffer buffer = MemoryBuffer.fromByteArray(data);
    ObjectNode resp = success(id);
    ArrayNode out = resp.putArray("values");
    while (buffer.readerIndex() < data.length) {
      int before = buffer.readerIndex();
      Object value;
      try {
        value = fory.deserialize(buffer);
      } catch (PeerException e) {
        throw e;
      } catch (Throwable e) {
        discard.run();
        throw PeerException.error(
            "runtime failed to decode the root value at byte " + before + ": " + describe(e));
      }
      value = tagRootScalar(data, before, value);
      if (buffer.readerIndex() <= before) {
        throw PeerException.error("runtime made no progress at byte " + before);
      }
      JsonNode node = print.apply(value);
      if (node != null) {
        out.add(node);
      }
    }
    if (buffer.readerIndex() != data.length) {
      throw PeerException.error(
          "runtime read past the end: reader index " + buffer.readerIndex() + " of " + data.length);
    }
    return resp;
  }

  /**
   * The runtime reads a root INT32 / INT64 / TAGGED_INT64 value through an inlined fast path
   * that bypasses the type table (so {@link TagOnReadSerializer} never sees it) and hands back a
   * plain Integer / Long. Recover the wire type from the root's type id byte (bitmap, ref/null
   * flag, type id) so the printed node names the type that was on the wire.
   */
  private static Object tagRootScalar(byte[] data, int start, Object value) {
    if (!(value instanceof Integer || value instanceof Long) || start + 2 >= data.length) {
      return value;
    }
    int flag = data[start + 1] & 0xff;
    int typeId = data[start + 2] & 0xff;
    if (flag != 0xff && flag != 0x00) {
      return value;
    }
    if (typeId == Types.INT32 || typeId == Types.INT64 || typeId == Types.TAGGED_INT64) {
      return new WireTagged(typeId, value);
    }
    return value;
  }

  private static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder();
    Throwable t = e;
    for (int depth = 0; t != null && depth < 4; depth++, t = t.getCause()) {
      if (depth > 0) {
        sb.append(" <- ");
      }
      sb.append(t.getClass().getSimpleName());
      if (t.getMessage() != null) {
        String m = t.getMessage();
        sb.append(": ").append(m.length() > 300 ? m.substring(0, 300) + "..." : m);
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return sb.toString();
  }

  private static ObjectNode success(JsonNode id) {
    ObjectNode resp = JSON.createObjectNode();
    resp.set("id", id);
    resp.put("ok", true);
    return resp;
  }

  private static ObjectNode failure(JsonNode id, String kind, String message) {
    ObjectNode resp = JSON.createObjectNode();
    resp.set("id", id);
    resp.put("ok", false);
    resp.put("class", kind);
    resp.put("message", message == null ? "" : message);
    return resp;
  }
}
