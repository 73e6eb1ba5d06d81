package dev.libwire.peer.xlang;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.fory.Fory;
import org.apache.fory.memory.MemoryBuffer;
import org.apache.fory.meta.FieldInfo;
import org.apache.fory.meta.MetaCompressor;
import org.apache.fory.meta.TypeDef;

/**
 * Java side of the user-type corpus (conformance/peers/python/xlang_cases/generate.py).
 *
 * <pre>
 *   java -cp conformance/peers/java/target/fory-java-peer.jar \
 *       dev.libwire.peer.xlang.CorpusMain CASES.json RESULTS.json
 * </pre>
 *
 * CASES.json: {"cases": [{"case", "compatible", "ref", "noop_meta", "types": [...],
 * "reader_types": [...]|null, "roots": [node...], "pyfory_hex": "..."}]}. A type entry is
 * {"type": notation name, "java": simple class name in {@link XTypes}, "id": N} or with "ns" and
 * "name" instead of "id", plus "ext": true for an extension type. For every case the program
 * builds the roots as Java objects, serializes each with its own serialize call (once with
 * codegen off, once on), reads its own bytes back, reads the pyfory bytes (with the writer types
 * and, if given, the reader types) and prints decoded values in the loose comparison form.
 */
public final class CorpusMain {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Disables TypeDef compression (like the upstream driver's no-op compressor). */
  static final class NoOpMetaCompressor implements MetaCompressor {
    @Override
    public byte[] compress(byte[] data, int offset, int size) {
      byte[] result = new byte[size + 1];
      System.arraycopy(data, offset, result, 0, size);
      return result;
    }

    @Override
    public byte[] decompress(byte[] data, int offset, int size) {
      byte[] result = new byte[size];
      System.arraycopy(data, offset, result, 0, size);
      return result;
    }

    @Override
    public int hashCode() {
      return NoOpMetaCompressor.class.hashCode();
    }

    @Override
    public boolean equals(Object obj) {
      return obj instanceof NoOpMetaCompressor;
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: CorpusMain CASES.json RESULTS.json");
      System.exit(2);
    }
    // The runtime's logger prints to System.out.
    System.setOut(System.err);
    JsonNode input = MAPPER.readTree(new File(args[0]));
    ArrayNode results = MAPPER.createArrayNode();
    for (JsonNode c : input.get("cases")) {
      results.add(runCase(c));
    }
    ObjectNode out = MAPPER.createObjectNode();
    out.put("fory_version", Fory.class.getPackage().getImplementationVersion());
    out.set("results", results);
    MAPPER.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), out);
  }

  private static Class<?> javaClass(String simple) throws ClassNotFoundException {
    return Class.forName(XTypes.class.getName() + "$" + simple);
  }

  private static Fory build(JsonNode c, JsonNode types, boolean codegen) throws Exception {
    var b =
        Fory.builder()
            .withXlang(true)
            .withCompatible(c.get("compatible").asBoolean())
            .withRefTracking(c.get("ref").asBoolean())
            .withCodegen(codegen);
    if (c.path("noop_meta").asBoolean(false)) {
      b = b.withMetaCompressor(new NoOpMetaCompressor());
    }
    Fory fory = b.build();
    for (JsonNode t : types) {
      Class<?> cls = javaClass(t.get("java").asText());
      if (t.has("id")) {
        fory.register(cls, t.get("id").asInt());
      } else {
        fory.register(cls, t.get("ns").asText(), t.get("name").asText());
      }
      if (t.path("ext").asBoolean(false)) {
        fory.registerSerializer(cls, XTypes.MyExtSerializer.class);
      }
    }
    return fory;
  }

  private static Map<String, Class<?>> typeMap(JsonNode types) throws Exception {
    Map<String, Class<?>> m = new HashMap<>();
    for (JsonNode t : types) {
      m.put(t.get("type").asText(), javaClass(t.get("java").asText()));
    }
    return m;
  }

  private static Map<Class<?>, String> nameMap(JsonNode types) throws Exception {
    Map<Class<?>, String> m = new HashMap<>();
    for (JsonNode t : types) {
      m.put(javaClass(t.get("java").asText()), t.get("type").asText());
    }
    return m;
  }

  private static String stack(Throwable e) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (sb.length() > 0) {
        sb.append(" <- ");
      }
      sb.append(t.getClass().getName()).append(": ").append(t.getMessage());
    }
    // Drop identity hash codes (Object.toString) so that reruns print the same text.
    return sb.toString().replaceAll("@[0-9a-f]{4,8}\\b", "");
  }

  private static ObjectNode runCase(JsonNode c) {
    ObjectNode r = MAPPER.createObjectNode();
    r.put("case", c.get("case").asText());
    try {
      JsonNode types = c.get("types");
      Map<String, Class<?>> typeMap = typeMap(types);
      // Field order as the runtime's TypeDef lists it (= wire order of the fields).
      Fory plain = build(c, types, false);
      ObjectNode orders = MAPPER.createObjectNode();
      for (JsonNode t : types) {
        Class<?> cls = javaClass(t.get("java").asText());
        if (cls.isEnum() || t.path("ext").asBoolean(false)) {
          continue;
        }
        ArrayNode names = MAPPER.createArrayNode();
        try {
          TypeDef def = TypeDef.buildTypeDef(plain.getTypeResolver(), cls);
          for (FieldInfo fi : def.getFieldsInfo()) {
            names.add(NotationToJava.snake(fi.getFieldName()));
          }
          orders.set(t.get("type").asText(), names);
        } catch (Throwable e) {
          orders.put(t.get("type").asText(), "error: " + stack(e));
        }
      }
      r.set("field_orders", orders);

      for (boolean codegen : new boolean[] {false, true}) {
        Fory fory = build(c, types, codegen);
        NotationToJava conv = new NotationToJava(typeMap);
        List<Object> roots = new ArrayList<>();
        for (JsonNode node : c.get("roots")) {
          roots.add(conv.root(node));
        }
        MemoryBuffer buf = MemoryBuffer.newHeapBuffer(256);
        for (Object root : roots) {
          fory.serialize(buf, root);
        }
        byte[] bytes = buf.getBytes(0, buf.writerIndex());
        r.put(codegen ? "java_hex_codegen" : "java_hex", hex(bytes));
      }
      byte[] own = unhex(r.get("java_hex").asText());
      r.set("self_read", readAll(build(c, types, false), nameMap(types), own));
      r.set("self_read_codegen", readAll(build(c, types, true), nameMap(types), own));
      if (c.hasNonNull("pyfory_hex")) {
        byte[] py = unhex(c.get("pyfory_hex").asText());
        r.set("reads_pyfory", readAll(build(c, types, false), nameMap(types), py));
        r.set("reads_pyfory_codegen", readAll(build(c, types, true), nameMap(types), py));
        if (c.hasNonNull("reader_types")) {
          JsonNode rt = c.get("reader_types");
          r.set("reads_pyfory_as_reader", readAll(build(c, rt, false), nameMap(rt), py));
          r.set("reads_own_as_reader", readAll(build(c, rt, false), nameMap(rt), own));
        }
      }
    } catch (Throwable e) {
      r.put("error", stack(e));
      StringWriter sw = new StringWriter();
      e.printStackTrace(new PrintWriter(sw));
      System.err.println(sw);
    }
    return r;
  }

  /** Decodes all roots; {"values": [...]} or {"error": ..., "values": [roots read so far]}. */
  private static ObjectNode readAll(Fory fory, Map<Class<?>, String> names, byte[] bytes) {
    ObjectNode out = MAPPER.createObjectNode();
    ArrayNode values = MAPPER.createArrayNode();
    out.set("values", values);
    MemoryBuffer buf = MemoryBuffer.fromByteArray(bytes);
    try {
      while (buf.readerIndex() < bytes.length) {
        Object o = fory.deserialize(buf);
        values.add(new JavaToLoose(names).root(o));
      }
    } catch (Throwable e) {
      out.put("error", stack(e));
    }
    return out;
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(String.format("%02x", x & 0xff));
    }
    return sb.toString();
  }

  static byte[] unhex(String s) {
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }
}
