package dev.libwire.peer;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.type.BFloat16;
import org.apache.fory.type.BFloat16Array;
import org.apache.fory.type.Float16;
import org.apache.fory.type.Float16Array;
import org.apache.fory.type.unsigned.UInt16;
import org.apache.fory.type.unsigned.UInt32;
import org.apache.fory.type.unsigned.UInt64;
import org.apache.fory.type.unsigned.UInt8;

/** Builds the Java object graph that the Fory Java runtime would be handed for a notation node. */
final class NotationReader {
  static final Set<String> TYPE_KEYS =
      Set.of(
          "null", "none", "bool", "int8", "int16", "int32", "varint32", "int64", "varint64",
          "tagged_int64", "uint8", "uint16", "uint32", "var_uint32", "uint64", "var_uint64",
          "tagged_uint64", "float16", "bfloat16", "float32", "float64", "string", "binary", "date",
          "timestamp", "duration", "decimal", "enum", "named_enum", "bool_array", "int8_array",
          "int16_array", "int32_array", "int64_array", "uint8_array", "uint16_array",
          "uint32_array", "uint64_array", "float16_array", "bfloat16_array", "float32_array",
          "float64_array", "list", "set", "map", "ref");

  static final Set<String> ANNOTATIONS =
      Set.of("anchor", "enc", "header", "chunks", "approx", "iso", "tracked", "ns_enc", "name_enc");

  /** Anchors of the current root document. */
  private final Map<String, Object> anchors = new HashMap<>();

  /** Reads one root document. */
  static Object readRoot(JsonNode node) {
    return new NotationReader().read(node);
  }

  private Object read(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw PeerException.error("a node must be a JSON object: " + node);
    }
    String typeKey = null;
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String k = names.next();
      if (TYPE_KEYS.contains(k)) {
        if (typeKey != null) {
          throw PeerException.error("node has two type keys (" + typeKey + ", " + k + "): " + node);
        }
        typeKey = k;
      } else if (!ANNOTATIONS.contains(k)) {
        throw PeerException.error("unknown key '" + k + "' in node " + node);
      }
    }
    if (typeKey == null) {
      throw PeerException.error("node has no type key: " + node);
    }
    JsonNode v = node.get(typeKey);
    String anchor = node.has("anchor") ? text(node.get("anchor"), "anchor") : null;
    if (anchor != null && anchors.containsKey(anchor)) {
      throw PeerException.error("anchor '" + anchor + "' defined twice");
    }
    Object result;
    switch (typeKey) {
      case "ref":
        {
          String name = text(v, "ref");
          if (!anchors.containsKey(name)) {
            throw PeerException.error("ref to unknown (or later) anchor '" + name + "'");
          }
          return anchors.get(name);
        }
      case "list":
        {
          List<Object> list = new ArrayList<>();
          remember(anchor, list);
          for (JsonNode e : array(v, "list")) list.add(read(e));
          return list;
        }
      case "set":
        {
          Set<Object> set = new LinkedHashSet<>();
          remember(anchor, set);
          int n = 0;
          for (JsonNode e : array(v, "set")) {
            set.add(read(e));
            n++;
          }
          if (set.size() != n) {
            throw PeerException.unsupported(
                "set has elements that are equal in Java; a java.util.Set cannot hold them");
          }
          return set;
        }
      case "map":
        {
          Map<Object, Object> map = new LinkedHashMap<>();
          remember(anchor, map);
          int n = 0;
          for (JsonNode e : array(v, "map")) {
            if (!e.isArray() || e.size() != 2) {
              throw PeerException.error("map entry must be [key, value]: " + e);
            }
            Object k = read(e.get(0));
            Object val = read(e.get(1));
            map.put(k, val);
            n++;
          }
          if (map.size() != n) {
            throw PeerException.unsupported(
                "map has keys that are equal in Java; a java.util.Map cannot hold them");
          }
          return map;
        }
      default:
        result = scalar(typeKey, v);
        remember(anchor, result);
        return result;
    }
  }

  private void remember(String anchor, Object value) {
    if (anchor != null) {
      anchors.put(anchor, value);
    }
  }

  private Object scalar(String type, JsonNode v) {
    switch (type) {
      case "null":
        if (!v.isNull()) {
          throw PeerException.unsupported(
              "typed null (" + v + "): a Java null carries no type");
        }
        return null;
      case "bool":
        if (!v.isBoolean()) throw PeerException.error("bool takes true/false: " + v);
        return v.booleanValue();
      case "int8":
        return (byte) integer(v, type, -128, 127);
      case "int16":
        return (short) integer(v, type, Short.MIN_VALUE, Short.MAX_VALUE);
      case "varint32":
        return (int) integer(v, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case "varint64":
        return integer(v, type, Long.MIN_VALUE, Long.MAX_VALUE);
      case "uint8":
        return UInt8.valueOf((int) unsigned(v, type, 8));
      case "uint16":
        return UInt16.valueOf((int) unsigned(v, type, 16));
      case "uint32":
        return UInt32.valueOf((int) unsigned(v, type, 32));
      case "uint64":
        return UInt64.valueOf(unsigned(v, type, 64));
      case "int32":
        throw PeerException.unsupported(
            "int32 (fixed): Java writes every Integer as varint32; fixed int32 needs a struct"
                + " field annotation");
      case "int64":
        throw PeerException.unsupported(
            "int64 (fixed): Java writes every Long as varint64; fixed int64 needs a struct field"
                + " annotation");
      case "tagged_int64":
        throw PeerException.unsupported(
            "tagged_int64: no Java root carrier (Long is always varint64)");
      case "var_uint32":
        throw PeerException.unsupported(
            "var_uint32: no Java root carrier (UInt32 writes fixed uint32)");
      case "var_uint64":
        throw PeerException.unsupported(
            "var_uint64: no Java root carrier (UInt64 writes fixed uint64)");
      case "tagged_uint64":
        throw PeerException.unsupported(
            "tagged_uint64: no Java root carrier (UInt64 writes fixed uint64)");
      case "float16":
        return Float16.fromBits(Floats.parseFloat16(text(v, type)));
      case "bfloat16":
        return BFloat16.fromBits(Floats.parseBFloat16(text(v, type)));
      case "float32":
        return Floats.parseFloat32(text(v, type));
      case "float64":
        return Floats.parseFloat64(text(v, type));
      case "string":
        {
          String str = text(v, type);
          if (!Strings.isScalarValues(str)) {
            throw PeerException.error("string holds an unpaired surrogate");
          }
          return str;
        }
      case "binary":
        return Hex.decode(text(v, type));
      case "date":
        return LocalDate.ofEpochDay(integer(v, type, Long.MIN_VALUE, Long.MAX_VALUE));
      case "timestamp":
        {
          long[] sn = secondsNanos(v, type);
          return Instant.ofEpochSecond(sn[0], sn[1]);
        }
      case "duration":
        {
          long[] sn = secondsNanos(v, type);
          return Duration.ofSeconds(sn[0], sn[1]);
        }
      case "decimal":
        {
          if (!v.isObject() || !v.has("unscaled") || !v.has("scale")) {
            throw PeerException.error("decimal takes {unscaled, scale}: " + v);
          }
          BigInteger unscaled = bigInteger(v.get("unscaled"), "decimal.unscaled");
          JsonNode sc = v.get("scale");
          if (!sc.canConvertToInt() || !sc.isIntegralNumber()) {
            throw PeerException.error("decimal scale must be an int32: " + sc);
          }
          return new BigDecimal(unscaled, sc.intValue());
        }
      case "none":
        throw PeerException.unsupported("none: fory-core has no Java carrier for NONE");
      case "enum":
      case "named_enum":
        throw PeerException.unsupported(
            type + ": needs a compiled Java enum class registered with the runtime");
      case "bool_array":
        {
          List<JsonNode> a = array(v, type);
          boolean[] r = new boolean[a.size()];
          for (int i = 0; i < r.length; i++) {
            if (!a.get(i).isBoolean()) throw PeerException.error("bool_array element: " + a.get(i));
            r[i] = a.get(i).booleanValue();
          }
          return r;
        }
      case "int16_array":
        {
          List<JsonNode> a = array(v, type);
          short[] r = new short[a.size()];
          for (int i = 0; i < r.length; i++) {
            r[i] = (short) integer(a.get(i), type, Short.MIN_VALUE, Short.MAX_VALUE);
          }
          return r;
        }
      case "int32_array":
        {
          List<JsonNode> a = array(v, type);
          int[] r = new int[a.size()];
          for (int i = 0; i < r.length; i++) {
            r[i] = (int) integer(a.get(i), type, Integer.MIN_VALUE, Integer.MAX_VALUE);
          }
          return r;
        }
      case "int64_array":
        {
          List<JsonNode> a = array(v, type);
          long[] r = new long[a.size()];
          for (int i = 0; i < r.length; i++) {
            r[i] = integer(a.get(i), type, Long.MIN_VALUE, Long.MAX_VALUE);
          }
          return r;
        }
      case "float32_array":
        {
          List<JsonNode> a = array(v, type);
          float[] r = new float[a.size()];
          for (int i = 0; i < r.length; i++) r[i] = Floats.parseFloat32(text(a.get(i), type));
          return r;
        }
      case "float64_array":
        {
          List<JsonNode> a = array(v, type);
          double[] r = new double[a.size()];
          for (int i = 0; i < r.length; i++) r[i] = Floats.parseFloat64(text(a.get(i), type));
          return r;
        }
      case "float16_array":
        {
          List<JsonNode> a = array(v, type);
          short[] r = new short[a.size()];
          for (int i = 0; i < r.length; i++) r[i] = Floats.parseFloat16(text(a.get(i), type));
          return Float16Array.wrapBits(r);
        }
      case "bfloat16_array":
        {
          List<JsonNode> a = array(v, type);
          short[] r = new short[a.size()];
          for (int i = 0; i < r.length; i++) r[i] = Floats.parseBFloat16(text(a.get(i), type));
          return BFloat16Array.wrapBits(r);
        }
      case "int8_array":
        throw PeerException.unsupported(
            "int8_array: Java writes byte[] as binary; INT8_ARRAY only via a struct field"
                + " annotation");
      case "uint8_array":
      case "uint16_array":
      case "uint32_array":
      case "uint64_array":
        throw PeerException.unsupported(
            type + ": no Java root carrier (unsigned arrays only via struct field annotations)");
      default:
        throw PeerException.error("unhandled type key " + type);
    }
  }

  private static String text(JsonNode v, String what) {
    if (v == null || !v.isTextual()) {
      throw PeerException.error(what + " takes a JSON string, got " + v);
    }
    return v.textValue();
  }

  private static List<JsonNode> array(JsonNode v, String what) {
    if (v == null || !v.isArray()) {
      throw PeerException.error(what + " takes a JSON array, got " + v);
    }
    List<JsonNode> out = new ArrayList<>(v.size());
    v.forEach(out::add);
    return out;
  }

  private static BigInteger bigInteger(JsonNode v, String what) {
    String s = text(v, what);
    if (!s.matches("[+-]?\\d+")) {
      throw PeerException.error(what + " must be a decimal integer string: " + s);
    }
    return new BigInteger(s);
  }

  private static long integer(JsonNode v, String what, long min, long max) {
    BigInteger b = bigInteger(v, what);
    if (b.compareTo(BigInteger.valueOf(min)) < 0 || b.compareTo(BigInteger.valueOf(max)) > 0) {
      throw PeerException.error(what + " out of range: " + b);
    }
    return b.longValue();
  }

  /** Parses an unsigned value of the given width; returns its bit pattern. */
  private static long unsigned(JsonNode v, String what, int width) {
    BigInteger b = bigInteger(v, what);
    if (b.signum() < 0 || b.bitLength() > width) {
      throw PeerException.error(what + " out of range: " + b);
    }
    return b.longValue();
  }

  private static long[] secondsNanos(JsonNode v, String what) {
    if (!v.isObject() || !v.has("seconds") || !v.has("nanos")) {
      throw PeerException.error(what + " takes {seconds, nanos}: " + v);
    }
    long s = integer(v.get("seconds"), what + ".seconds", Long.MIN_VALUE, Long.MAX_VALUE);
    JsonNode n = v.get("nanos");
    if (!n.isIntegralNumber() || n.longValue() < 0 || n.longValue() > 999_999_999L) {
      throw PeerException.error(what + ".nanos must be an integer in 0..999999999: " + n);
    }
    return new long[] {s, n.longValue()};
  }
}
