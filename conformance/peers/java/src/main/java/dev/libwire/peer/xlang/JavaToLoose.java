package dev.libwire.peer.xlang;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.fory.collection.BFloat16List;
import org.apache.fory.collection.Float16List;
import org.apache.fory.collection.Int32List;
import org.apache.fory.type.BFloat16;
import org.apache.fory.type.Float16;
import org.apache.fory.type.union.Union;

/**
 * Prints a decoded Java object graph in the "loose" comparison form that generate.py also
 * derives from the notation: wire types are erased (integers are numbers, floats are
 * {"f": double}), sets and maps are compared unordered, struct fields are keyed by snake_case
 * name, and objects seen more than once are printed as {"anchor": k, "value": …} / {"ref": k}
 * (traversal: struct fields by name, map entries by key).
 */
final class JavaToLoose {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private final Map<Class<?>, String> names;
  private final IdentityHashMap<Object, Integer> counts = new IdentityHashMap<>();
  private final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
  private int next = 1;

  JavaToLoose(Map<Class<?>, String> names) {
    this.names = names;
  }

  JsonNode root(Object o) {
    count(o);
    return convert(o);
  }

  private boolean trackable(Object o) {
    return o != null
        && (names.containsKey(o.getClass())
            || o instanceof Collection
            || o instanceof Map
            || o.getClass().isArray())
        && !(o instanceof Enum);
  }

  private void count(Object o) {
    if (o == null) {
      return;
    }
    if (trackable(o)) {
      int c = counts.merge(o, 1, Integer::sum);
      if (c > 1) {
        return;
      }
    }
    for (Object child : children(o)) {
      count(child);
    }
  }

  private List<Object> children(Object o) {
    List<Object> out = new ArrayList<>();
    if (o instanceof Union) {
      out.add(((Union) o).getValue());
    } else if (o instanceof Map) {
      for (Map.Entry<?, ?> e : sortedEntries((Map<?, ?>) o)) {
        out.add(e.getKey());
        out.add(e.getValue());
      }
    } else if (o instanceof Collection) {
      out.addAll((Collection<?>) o);
    } else if (names.containsKey(o.getClass()) && !(o instanceof Enum) && !isExt(o)) {
      for (Field f : sortedFields(o.getClass())) {
        try {
          out.add(f.get(o));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return out;
  }

  private static boolean isExt(Object o) {
    return o instanceof XTypes.MyExt;
  }

  private static List<Field> sortedFields(Class<?> cls) {
    List<Field> fs = NotationToJava.fields(cls);
    fs.sort((a, b) -> NotationToJava.snake(a.getName()).compareTo(NotationToJava.snake(b.getName())));
    return fs;
  }

  private static String sortKey(Object k) {
    return k == null ? "0" : "1" + k;
  }

  private static List<Map.Entry<?, ?>> sortedEntries(Map<?, ?> m) {
    List<Map.Entry<?, ?>> es = new ArrayList<>(m.entrySet());
    es.sort((a, b) -> sortKey(a.getKey()).compareTo(sortKey(b.getKey())));
    return es;
  }

  private JsonNode convert(Object o) {
    if (o == null) {
      return F.nullNode();
    }
    if (trackable(o) && counts.getOrDefault(o, 0) > 1) {
      Integer id = ids.get(o);
      if (id != null) {
        return F.objectNode().put("ref", id);
      }
      id = next++;
      ids.put(o, id);
      ObjectNode wrap = F.objectNode();
      wrap.put("anchor", id);
      wrap.set("value", inner(o));
      return wrap;
    }
    return inner(o);
  }

  private JsonNode inner(Object o) {
    if (o instanceof Boolean) {
      return F.booleanNode((Boolean) o);
    }
    if (o instanceof Byte || o instanceof Short || o instanceof Integer || o instanceof Long) {
      return F.numberNode(((Number) o).longValue());
    }
    if (o instanceof Float || o instanceof Double) {
      return F.objectNode().put("f", ((Number) o).doubleValue());
    }
    if (o instanceof Float16) {
      return F.objectNode().put("f", (double) ((Float16) o).toFloat());
    }
    if (o instanceof BFloat16) {
      return F.objectNode().put("f", (double) ((BFloat16) o).toFloat());
    }
    if (o instanceof String) {
      return F.textNode((String) o);
    }
    if (o instanceof Enum) {
      ObjectNode n = F.objectNode();
      n.put("enum", names.getOrDefault(o.getClass(), o.getClass().getSimpleName()));
      n.put("value", ((Enum<?>) o).ordinal());
      return n;
    }
    if (o instanceof Union) {
      ObjectNode n = F.objectNode();
      n.put("union", ((Union) o).getIndex());
      n.set("value", convert(((Union) o).getValue()));
      return n;
    }
    if (o instanceof XTypes.MyExt) {
      ObjectNode n = F.objectNode();
      n.put("ext", names.get(o.getClass()));
      n.put("bytes", varint32Hex(((XTypes.MyExt) o).id));
      return n;
    }
    if (o instanceof Int32List) {
      Int32List l = (Int32List) o;
      ArrayNode a = F.arrayNode();
      for (int i = 0; i < l.size(); i++) {
        a.add(l.getInt(i));
      }
      return a;
    }
    if (o instanceof Float16List) {
      Float16List l = (Float16List) o;
      ArrayNode a = F.arrayNode();
      for (int i = 0; i < l.size(); i++) {
        a.add(F.objectNode().put("f", (double) Float16.toFloat(l.getShort(i))));
      }
      return a;
    }
    if (o instanceof BFloat16List) {
      BFloat16List l = (BFloat16List) o;
      ArrayNode a = F.arrayNode();
      for (int i = 0; i < l.size(); i++) {
        a.add(F.objectNode().put("f", (double) BFloat16.toFloat(l.getShort(i))));
      }
      return a;
    }
    if (o instanceof int[]) {
      ArrayNode a = F.arrayNode();
      for (int x : (int[]) o) {
        a.add(x);
      }
      return a;
    }
    if (o instanceof Map) {
      ArrayNode a = F.arrayNode();
      for (Map.Entry<?, ?> e : sortedEntries((Map<?, ?>) o)) {
        ArrayNode pair = F.arrayNode();
        pair.add(convert(e.getKey()));
        pair.add(convert(e.getValue()));
        a.add(pair);
      }
      return F.objectNode().set("map", a);
    }
    if (o instanceof java.util.Set) {
      ArrayNode a = F.arrayNode();
      for (Object e : (Collection<?>) o) {
        a.add(convert(e));
      }
      return F.objectNode().set("set", a);
    }
    if (o instanceof Collection) {
      ArrayNode a = F.arrayNode();
      for (Object e : (Collection<?>) o) {
        a.add(convert(e));
      }
      return a;
    }
    String name = names.get(o.getClass());
    if (name != null) {
      ObjectNode fields = F.objectNode();
      for (Field f : sortedFields(o.getClass())) {
        try {
          fields.set(NotationToJava.snake(f.getName()), convert(f.get(o)));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
      ObjectNode n = F.objectNode();
      n.put("struct", name);
      n.set("fields", fields);
      return n;
    }
    throw new IllegalArgumentException("no loose form for " + o.getClass().getName());
  }

  static String varint32Hex(int v) {
    long u = ((v << 1) ^ (v >> 31)) & 0xffffffffL;
    StringBuilder sb = new StringBuilder();
    do {
      int b = (int) (u & 0x7f);
      u >>>= 7;
      if (u != 0) {
        b |= 0x80;
      }
      sb.append(String.format("%02x", b));
    } while (u != 0);
    return sb.toString();
  }
}
