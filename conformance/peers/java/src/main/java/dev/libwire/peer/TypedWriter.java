package dev.libwire.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.fory.type.BFloat16;
import org.apache.fory.type.Float16;
import org.apache.fory.type.union.Union;
import org.apache.fory.type.unsigned.UInt16;
import org.apache.fory.type.unsigned.UInt32;
import org.apache.fory.type.unsigned.UInt64;
import org.apache.fory.type.unsigned.UInt8;

/**
 * Java objects decoded with the generated classes -> notation. A field prints with the node kind
 * its schema type has (an FDL int32 field as varint32, a fixed one as int32), struct fields in
 * the schema's wire order; values outside the schema (roots, `any` fields) print as {@link
 * NotationWriter} prints them.
 */
final class TypedWriter {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private final UserTypes.Unit unit;
  private final IdentityHashMap<Object, Integer> seen = new IdentityHashMap<>();
  private final IdentityHashMap<Object, String> names = new IdentityHashMap<>();
  private int nextAnchor = 1;

  private TypedWriter(UserTypes.Unit unit) {
    this.unit = unit;
  }

  static JsonNode writeRoot(UserTypes.Unit unit, Object root) {
    TypedWriter w = new TypedWriter(unit);
    w.count(root);
    return w.write(root, null);
  }

  private boolean shareable(Object o) {
    return o instanceof Collection
        || o instanceof Map
        || (o != null && o.getClass().isArray())
        || (o != null && unit.names.containsKey(o.getClass()) && !o.getClass().isEnum());
  }

  private void count(Object o) {
    if (o instanceof WireTagged) {
      o = ((WireTagged) o).value;
    }
    if (o instanceof Union) {
      count(((Union) o).getValue());
    }
    if (!shareable(o)) {
      return;
    }
    Integer c = seen.get(o);
    seen.put(o, c == null ? 1 : c + 1);
    if (c != null) {
      return;
    }
    if (o instanceof Collection) {
      for (Object e : (Collection<?>) o) count(e);
    } else if (o instanceof Map) {
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        count(e.getKey());
        count(e.getValue());
      }
    } else if (o.getClass().isArray()) {
      if (!o.getClass().getComponentType().isPrimitive()) {
        for (int i = 0; i < Array.getLength(o); i++) count(Array.get(o, i));
      }
    } else {
      for (Field f : UserTypes.fields(o.getClass()).values()) {
        try {
          count(f.get(o));
        } catch (IllegalAccessException e) {
          throw PeerException.error("cannot read " + f + ": " + e);
        }
      }
    }
  }

  private JsonNode write(Object o, JsonNode d) {
    if (shareable(o) && seen.getOrDefault(o, 0) > 1) {
      String name = names.get(o);
      if (name != null) {
        return F.objectNode().put("ref", name);
      }
      name = "a" + nextAnchor++;
      names.put(o, name);
      ObjectNode n = (ObjectNode) value(o, d);
      n.put("anchor", name);
      return n;
    }
    return value(o, d);
  }

  private static JsonNode sub(JsonNode d, String key) {
    return d != null && d.isObject() ? d.get(key) : null;
  }

  private JsonNode value(Object o, JsonNode d) {
    ObjectNode n = F.objectNode();
    if (o == null) {
      return n.putNull("null");
    }
    Class<?> cls = o.getClass();
    String type = unit.names.get(cls);
    if (type == null && o instanceof Union && unit.names.containsKey(cls.getSuperclass())) {
      type = unit.names.get(cls.getSuperclass());
    }
    if (type != null) {
      return user(o, type);
    }
    if (d != null && d.isTextual()) {
      JsonNode s = scalar(d.textValue(), o);
      if (s != null) {
        return s;
      }
    }
    JsonNode arrayKey = sub(d, "array");
    if (arrayKey != null) {
      return denseArray(arrayKey.asText(), o);
    }
    if (unordered(o)) {
      throw PeerException.unsupported(
          "the runtime decoded a " + cls.getName() + " of " + ((o instanceof Map)
              ? ((Map<?, ?>) o).size() : ((Collection<?>) o).size())
              + " entries, which does not keep the wire order (spec/notation.md N-7.2)");
    }
    JsonNode ed = sub(d, "list");
    if (o instanceof Collection || (cls.isArray() && ed != null)) {
      ArrayNode a = n.putArray(o instanceof java.util.Set ? "set" : "list");
      if (o instanceof Collection) {
        for (Object e : (Collection<?>) o) a.add(write(e, ed));
      } else {
        for (int i = 0; i < Array.getLength(o); i++) a.add(write(Array.get(o, i), ed));
      }
      return n;
    }
    if (o instanceof Map) {
      JsonNode md = sub(d, "map");
      JsonNode kd = md != null && md.isArray() ? md.get(0) : null;
      JsonNode vd = md != null && md.isArray() ? md.get(1) : null;
      ArrayNode a = n.putArray("map");
      for (Map.Entry<?, ?> e : ((Map<?, ?>) o).entrySet()) {
        ArrayNode pair = a.addArray();
        pair.add(write(e.getKey(), kd));
        pair.add(write(e.getValue(), vd));
      }
      return n;
    }
    return NotationWriter.writeRoot(o);
  }

  /** A hash map or set of 2+ entries: its iteration order is not the wire order. */
  private static boolean unordered(Object o) {
    if (o instanceof java.util.HashMap && !(o instanceof java.util.LinkedHashMap)) {
      return ((Map<?, ?>) o).size() > 1;
    }
    if (o instanceof java.util.HashSet && !(o instanceof java.util.LinkedHashSet)) {
      return ((Collection<?>) o).size() > 1;
    }
    return false;
  }

  private JsonNode user(Object o, String type) {
    JsonNode desc = unit.type(type);
    ObjectNode n = F.objectNode();
    String kind = desc.get("kind").asText();
    if (kind.equals("enum")) {
      Method id = TypedReader.enumIdMethod(o.getClass());
      int value = ((Enum<?>) o).ordinal();
      if (id != null) {
        try {
          value = ((Number) id.invoke(o)).intValue();
        } catch (ReflectiveOperationException e) {
          throw PeerException.error("enum id of " + o + ": " + e);
        }
      }
      n.putObject("enum").put("type", type).put("value", value);
      return n;
    }
    if (kind.equals("union")) {
      Union u = (Union) o;
      JsonNode cd = null;
      for (JsonNode c : desc.path("cases")) {
        if (c.get("id").asInt() == u.getIndex()) {
          cd = c;
        }
      }
      ObjectNode b = n.putObject("union");
      b.put("type", type).put("case", u.getIndex());
      b.set("value", write(u.getValue(), cd == null ? null : cd.get("type")));
      return n;
    }
    ObjectNode b = n.putObject("struct");
    b.put("type", type);
    ObjectNode fields = b.putObject("fields");
    Map<String, Field> byNorm = UserTypes.fields(o.getClass());
    for (JsonNode fd : desc.path("fields")) {
      Field f = byNorm.get(UserTypes.norm(fd.get("decl").asText()));
      if (f == null) {
        continue; // foryc's class lacks the field: the runtime neither reads nor writes it
      }
      try {
        fields.set(fd.get("name").asText(), write(f.get(o), fd.get("type")));
      } catch (IllegalAccessException e) {
        throw PeerException.error("cannot read " + f + ": " + e);
      }
    }
    return n;
  }

  /** A scalar printed with the schema's node kind, or null if the descriptor is not a scalar. */
  private static JsonNode scalar(String key, Object o) {
    ObjectNode n = F.objectNode();
    if (o instanceof WireTagged) {
      o = ((WireTagged) o).value;
    }
    switch (key) {
      case "int8":
      case "int16":
      case "int32":
      case "varint32":
      case "int64":
      case "varint64":
      case "tagged_int64":
        if (o instanceof Number) {
          return n.put(key, Long.toString(((Number) o).longValue()));
        }
        return null;
      case "uint8":
      case "uint16":
      case "uint32":
      case "var_uint32":
      case "uint64":
      case "var_uint64":
      case "tagged_uint64":
        {
          long bits;
          if (o instanceof UInt8) bits = ((UInt8) o).toInt();
          else if (o instanceof UInt16) bits = ((UInt16) o).toInt();
          else if (o instanceof UInt32) bits = ((UInt32) o).toLong();
          else if (o instanceof UInt64) bits = ((UInt64) o).toLong();
          else if (o instanceof Number) bits = ((Number) o).longValue();
          else return null;
          switch (key) {
            case "uint8":
              bits &= 0xffL;
              break;
            case "uint16":
              bits &= 0xffffL;
              break;
            case "uint32":
            case "var_uint32":
              bits &= 0xffffffffL;
              break;
            default:
              break;
          }
          return n.put(key, Long.toUnsignedString(bits));
        }
      case "float32":
        if (o instanceof Number) {
          float f = ((Number) o).floatValue();
          return n.put("float32", Floats.bits32(f)).put("approx", Floats.approx(f));
        }
        return null;
      case "float64":
        if (o instanceof Number) {
          double v = ((Number) o).doubleValue();
          return n.put("float64", Floats.bits64(v)).put("approx", Floats.approx(v));
        }
        return null;
      case "float16":
        if (o instanceof Float16) {
          short b = ((Float16) o).toBits();
          return n.put("float16", Floats.bits16(b));
        }
        return null;
      case "bfloat16":
        if (o instanceof BFloat16) {
          short b = ((BFloat16) o).toBits();
          return n.put("bfloat16", Floats.bits16(b));
        }
        return null;
      default:
        return null;
    }
  }

  private static JsonNode denseArray(String key, Object o) {
    ObjectNode n = F.objectNode();
    if (o == null || !o.getClass().isArray()) {
      if (o instanceof Collection) {
        ArrayNode a = n.putArray(key);
        for (Object e : (Collection<?>) o) {
          JsonNode s = scalar(key.substring(0, key.length() - "_array".length()), e);
          if (s == null) {
            return NotationWriter.writeRoot(o);
          }
          a.add(s.elements().next());
        }
        return n;
      }
      return NotationWriter.writeRoot(o);
    }
    String elem = key.substring(0, key.length() - "_array".length());
    ArrayNode a = n.putArray(key);
    for (int i = 0; i < Array.getLength(o); i++) {
      Object e = Array.get(o, i);
      if (e instanceof Boolean) {
        a.add((Boolean) e);
        continue;
      }
      JsonNode s = scalar(elem, e);
      if (s == null) {
        return NotationWriter.writeRoot(o);
      }
      a.add(s.get(elem));
    }
    return n;
  }
}
