package dev.libwire.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.type.BFloat16;
import org.apache.fory.type.BFloat16Array;
import org.apache.fory.type.Float16;
import org.apache.fory.type.Float16Array;
import org.apache.fory.type.Types;
import org.apache.fory.type.unsigned.UInt16;
import org.apache.fory.type.unsigned.UInt32;
import org.apache.fory.type.unsigned.UInt64;
import org.apache.fory.type.unsigned.UInt8;

/** Prints a value decoded by the Fory Java runtime in the value notation. */
final class NotationWriter {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** How often each shareable object occurs in the root's graph (by identity). */
  private final IdentityHashMap<Object, Integer> seen = new IdentityHashMap<>();
  /** Anchor names given so far. */
  private final IdentityHashMap<Object, String> names = new IdentityHashMap<>();

  private int nextAnchor = 1;

  static JsonNode writeRoot(Object root) {
    NotationWriter w = new NotationWriter();
    w.count(root);
    return w.write(root);
  }

  /**
   * Objects that can be shared on the wire. Boxed numbers, strings and time values are never
   * reference-tracked by the runtime in xlang mode, and the JDK caches some of them, so identity
   * says nothing about the wire for those.
   */
  private static boolean shareable(Object o) {
    if (o instanceof WireTagged) {
      return ((WireTagged) o).value.getClass().isArray();
    }
    return o instanceof Collection
        || o instanceof Map
        || (o != null && o.getClass().isArray())
        || o instanceof Float16Array
        || o instanceof BFloat16Array;
  }

  private void count(Object o) {
    if (!shareable(o)) {
      return;
    }
    Integer c = seen.get(o);
    if (c != null) {
      seen.put(o, c + 1);
      return;
    }
    seen.put(o, 1);
    if (o instanceof Collection) {
      for (Object e : (Collection<?>) o) count(e);
    } else if (o instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        count(e.getKey());
        count(e.getValue());
      }
    }
  }

  private JsonNode write(Object o) {
    if (shareable(o) && seen.getOrDefault(o, 0) > 1) {
      String name = names.get(o);
      if (name != null) {
        return F.objectNode().put("ref", name);
      }
      name = "a" + nextAnchor++;
      names.put(o, name);
      ObjectNode n = (ObjectNode) writeValue(o);
      n.put("anchor", name);
      return n;
    }
    return writeValue(o);
  }

  private JsonNode writeValue(Object o) {
    ObjectNode n = F.objectNode();
    if (o == null) {
      return n.putNull("null");
    }
    if (o instanceof WireTagged) {
      return tagged((WireTagged) o);
    }
    if (o instanceof Boolean) return n.put("bool", (Boolean) o);
    if (o instanceof Byte) return n.put("int8", o.toString());
    if (o instanceof Short) return n.put("int16", o.toString());
    if (o instanceof Integer) return n.put("varint32", o.toString());
    if (o instanceof Long) return n.put("varint64", o.toString());
    if (o instanceof UInt8) return n.put("uint8", Integer.toString(((UInt8) o).toInt()));
    if (o instanceof UInt16) return n.put("uint16", Integer.toString(((UInt16) o).toInt()));
    if (o instanceof UInt32) return n.put("uint32", Long.toString(((UInt32) o).toLong()));
    if (o instanceof UInt64) {
      return n.put("uint64", Long.toUnsignedString(((UInt64) o).toLong()));
    }
    if (o instanceof Float) {
      float f = (Float) o;
      return n.put("float32", Floats.bits32(f)).put("approx", Floats.approx(f));
    }
    if (o instanceof Double) {
      double d = (Double) o;
      return n.put("float64", Floats.bits64(d)).put("approx", Floats.approx(d));
    }
    if (o instanceof Float16) {
      short b = ((Float16) o).toBits();
      return n.put("float16", Floats.bits16(b)).put("approx", Floats.approx(Floats.half(b)));
    }
    if (o instanceof BFloat16) {
      short b = ((BFloat16) o).toBits();
      return n.put("bfloat16", Floats.bits16(b)).put("approx", Floats.approx(Floats.bhalf(b)));
    }
    if (o instanceof String) {
      String str = (String) o;
      if (!Strings.isScalarValues(str)) {
        throw PeerException.unsupported(
            "the runtime decoded a string with an unpaired surrogate; the notation holds only"
                + " Unicode scalar values");
      }
      return n.put("string", str);
    }
    if (o instanceof byte[]) return n.put("binary", Hex.encode((byte[]) o));
    if (o instanceof LocalDate) {
      LocalDate d = (LocalDate) o;
      return n.put("date", Long.toString(d.toEpochDay())).put("iso", d.toString());
    }
    if (o instanceof Instant) {
      Instant t = (Instant) o;
      n.set("timestamp", secondsNanos(t.getEpochSecond(), t.getNano()));
      return n.put("iso", t.toString());
    }
    if (o instanceof Duration) {
      Duration d = (Duration) o;
      n.set("duration", secondsNanos(d.getSeconds(), d.getNano()));
      return n;
    }
    if (o instanceof BigDecimal) {
      BigDecimal d = (BigDecimal) o;
      ObjectNode v = F.objectNode();
      v.put("unscaled", d.unscaledValue().toString());
      v.put("scale", d.scale());
      n.set("decimal", v);
      return n;
    }
    if (o instanceof boolean[]) {
      ArrayNode a = n.putArray("bool_array");
      for (boolean b : (boolean[]) o) a.add(b);
      return n;
    }
    if (o instanceof short[]) {
      ArrayNode a = n.putArray("int16_array");
      for (short s : (short[]) o) a.add(Short.toString(s));
      return n;
    }
    if (o instanceof int[]) {
      ArrayNode a = n.putArray("int32_array");
      for (int i : (int[]) o) a.add(Integer.toString(i));
      return n;
    }
    if (o instanceof long[]) {
      ArrayNode a = n.putArray("int64_array");
      for (long l : (long[]) o) a.add(Long.toString(l));
      return n;
    }
    if (o instanceof float[]) {
      ArrayNode a = n.putArray("float32_array");
      for (float f : (float[]) o) a.add(Floats.bits32(f));
      return n;
    }
    if (o instanceof double[]) {
      ArrayNode a = n.putArray("float64_array");
      for (double d : (double[]) o) a.add(Floats.bits64(d));
      return n;
    }
    if (o instanceof Float16Array) {
      Float16Array fa = (Float16Array) o;
      ArrayNode a = n.putArray("float16_array");
      for (int i = 0; i < fa.size(); i++) a.add(Floats.bits16(fa.getBits(i)));
      return n;
    }
    if (o instanceof BFloat16Array) {
      BFloat16Array fa = (BFloat16Array) o;
      ArrayNode a = n.putArray("bfloat16_array");
      for (int i = 0; i < fa.size(); i++) a.add(Floats.bits16(fa.getBits(i)));
      return n;
    }
    if (o instanceof List) {
      ArrayNode a = n.putArray("list");
      for (Object e : (List<?>) o) a.add(write(e));
      return n;
    }
    if (o instanceof Set) {
      ArrayNode a = n.putArray("set");
      for (Object e : (Set<?>) o) a.add(write(e));
      return n;
    }
    if (o instanceof Map) {
      ArrayNode a = n.putArray("map");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        ArrayNode pair = a.addArray();
        pair.add(write(e.getKey()));
        pair.add(write(e.getValue()));
      }
      return n;
    }
    if (o instanceof Collection) {
      ArrayNode a = n.putArray("list");
      for (Object e : (Collection<?>) o) a.add(write(e));
      return n;
    }
    throw PeerException.unsupported(
        "the runtime decoded a " + o.getClass().getName() + ", which has no notation mapping");
  }

  private static ObjectNode secondsNanos(long seconds, int nanos) {
    ObjectNode v = F.objectNode();
    v.put("seconds", Long.toString(seconds));
    v.put("nanos", nanos);
    return v;
  }

  private static JsonNode tagged(WireTagged t) {
    ObjectNode n = F.objectNode();
    Object v = t.value;
    switch (t.typeId) {
      case Types.INT32:
        return n.put("int32", v.toString());
      case Types.INT64:
        return n.put("int64", v.toString());
      case Types.TAGGED_INT64:
        return n.put("tagged_int64", v.toString());
      case Types.UINT8:
        return n.put("uint8", Long.toString(((Number) v).longValue() & 0xffL));
      case Types.UINT16:
        return n.put("uint16", Long.toString(((Number) v).longValue() & 0xffffL));
      case Types.UINT32:
        return n.put("uint32", Long.toString(((Number) v).longValue() & 0xffffffffL));
      case Types.VAR_UINT32:
        return n.put("var_uint32", Long.toString(((Number) v).longValue() & 0xffffffffL));
      case Types.UINT64:
        return n.put("uint64", Long.toUnsignedString(((Number) v).longValue()));
      case Types.VAR_UINT64:
        return n.put("var_uint64", Long.toUnsignedString(((Number) v).longValue()));
      case Types.TAGGED_UINT64:
        return n.put("tagged_uint64", Long.toUnsignedString(((Number) v).longValue()));
      case Types.INT8_ARRAY:
        {
          ArrayNode a = n.putArray("int8_array");
          for (byte b : (byte[]) v) a.add(Byte.toString(b));
          return n;
        }
      case Types.UINT8_ARRAY:
        {
          ArrayNode a = n.putArray("uint8_array");
          for (byte b : (byte[]) v) a.add(Integer.toString(b & 0xff));
          return n;
        }
      case Types.UINT16_ARRAY:
        {
          ArrayNode a = n.putArray("uint16_array");
          for (short s : (short[]) v) a.add(Integer.toString(s & 0xffff));
          return n;
        }
      case Types.UINT32_ARRAY:
        {
          ArrayNode a = n.putArray("uint32_array");
          for (int i : (int[]) v) a.add(Integer.toUnsignedString(i));
          return n;
        }
      case Types.UINT64_ARRAY:
        {
          ArrayNode a = n.putArray("uint64_array");
          for (long l : (long[]) v) a.add(Long.toUnsignedString(l));
          return n;
        }
      default:
        throw PeerException.error("internal: unexpected tagged type id " + t.typeId);
    }
  }
}
