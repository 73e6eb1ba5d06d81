package dev.libwire.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fory.type.BFloat16;
import org.apache.fory.type.Float16;
import org.apache.fory.type.union.Union;
import org.apache.fory.type.unsigned.UInt16;
import org.apache.fory.type.unsigned.UInt32;
import org.apache.fory.type.unsigned.UInt64;
import org.apache.fory.type.unsigned.UInt8;

/**
 * Notation -> Java objects for a request with schemas: struct, enum and union nodes become
 * instances of the foryc-generated classes, and every value is built for the Java type the
 * generated field (or list element, map key, union case) declares, so that the runtime writes
 * it with the type the schema gives it.
 */
final class TypedReader {
  private final UserTypes.Unit unit;
  private final Map<String, Object> anchors = new HashMap<>();

  private TypedReader(UserTypes.Unit unit) {
    this.unit = unit;
  }

  static Object readRoot(UserTypes.Unit unit, JsonNode node) {
    return new TypedReader(unit).read(node, null, Object.class);
  }

  static String typeKey(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw PeerException.error("a node must be a JSON object: " + node);
    }
    String key = null;
    Iterator<String> it = node.fieldNames();
    while (it.hasNext()) {
      String k = it.next();
      if (NotationReader.ANNOTATIONS.contains(k) || k.equals("typedef") || k.equals("ns_hash")
          || k.equals("name_hash") || k.equals("ns_xref") || k.equals("name_xref")
          || k.equals("ns_again") || k.equals("name_again")) {
        continue;
      }
      if (key != null) {
        throw PeerException.error("node has two type keys (" + key + ", " + k + "): " + node);
      }
      key = k;
    }
    if (key == null) {
      throw PeerException.error("node has no type key: " + node);
    }
    return key;
  }

  static Class<?> raw(Type t) {
    if (t instanceof Class) {
      return (Class<?>) t;
    }
    if (t instanceof ParameterizedType) {
      return (Class<?>) ((ParameterizedType) t).getRawType();
    }
    if (t instanceof WildcardType) {
      return raw(((WildcardType) t).getUpperBounds()[0]);
    }
    return Object.class;
  }

  /** Type argument i of t, looking through superclasses (Int32List is a List of Integer). */
  static Type arg(Type t, int i) {
    if (t instanceof ParameterizedType) {
      Type a = ((ParameterizedType) t).getActualTypeArguments()[i];
      return a instanceof WildcardType ? ((WildcardType) a).getUpperBounds()[0] : a;
    }
    if (t instanceof Class && ((Class<?>) t).getGenericSuperclass() != null
        && !((Class<?>) t).isArray()) {
      return arg(((Class<?>) t).getGenericSuperclass(), i);
    }
    if (t instanceof Class && ((Class<?>) t).isArray()) {
      return ((Class<?>) t).getComponentType();
    }
    return Object.class;
  }

  private void remember(JsonNode node, Object o) {
    JsonNode a = node.get("anchor");
    if (a != null) {
      anchors.put(a.asText(), o);
    }
  }

  /** Node -> Java object of type {@code target}, the schema's descriptor {@code d} (or null). */
  Object read(JsonNode node, JsonNode d, Type target) {
    String key = typeKey(node);
    JsonNode v = node.get(key);
    Class<?> raw = raw(target);
    switch (key) {
      case "ref":
        {
          String name = v.asText();
          if (!anchors.containsKey(name)) {
            throw PeerException.error("ref to unknown (or later) anchor '" + name + "'");
          }
          return anchors.get(name);
        }
      case "null":
        if (raw.isPrimitive()) {
          throw PeerException.unsupported("null for a field of Java type " + raw.getName());
        }
        return null;
      case "struct":
        return struct(node, v);
      case "enum":
        return enumValue(node, v);
      case "union":
        return union(node, v);
      case "ext":
        throw PeerException.unsupported("ext types: foryc generates no Java carrier for them");
      case "list":
      case "set":
        return collection(node, key, v, d, target, raw);
      case "map":
        return map(node, v, d, target, raw);
      default:
        Object o = scalar(node, key, v, raw);
        remember(node, o);
        return o;
    }
  }

  private Object struct(JsonNode node, JsonNode v) {
    if (!v.has("type")) {
      throw PeerException.unsupported("struct node without a type name (by type id only)");
    }
    String name = v.get("type").asText();
    JsonNode desc = unit.type(name);
    Class<?> cls = unit.cls(name);
    Object obj = newInstance(cls);
    remember(node, obj);
    Map<String, Field> fields = UserTypes.fields(cls);
    Map<String, JsonNode> byName = new HashMap<>();
    for (JsonNode f : desc.path("fields")) {
      byName.put(f.get("name").asText(), f);
      byName.putIfAbsent(f.get("decl").asText(), f);
    }
    Iterator<Map.Entry<String, JsonNode>> it = v.path("fields").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode fd = byName.get(e.getKey());
      Field f = fd == null ? null : fields.get(UserTypes.norm(fd.get("decl").asText()));
      if (f == null) {
        throw PeerException.error(name + " (foryc's class) has no field '" + e.getKey() + "'");
      }
      Object value = read(e.getValue(), fd.get("type"), f.getGenericType());
      if (value == null && f.getType().isPrimitive()) {
        throw PeerException.unsupported("null for the primitive field " + name + "." + e.getKey());
      }
      try {
        f.set(obj, value);
      } catch (IllegalAccessException | IllegalArgumentException ex) {
        throw PeerException.error(
            "cannot set " + name + "." + e.getKey() + " (" + f.getType().getName() + ") to "
                + (value == null ? "null" : value.getClass().getName()));
      }
    }
    return obj;
  }

  private Object enumValue(JsonNode node, JsonNode v) {
    if (!v.has("type")) {
      throw PeerException.unsupported("enum node without a type name (by type id only)");
    }
    Class<?> cls = unit.cls(v.get("type").asText());
    int want = v.path("value").asInt(-1);
    Object found = null;
    Object[] constants = cls.getEnumConstants();
    Method id = enumIdMethod(cls);
    for (int i = 0; i < constants.length && found == null; i++) {
      int value = i;
      if (id != null) {
        try {
          value = ((Number) id.invoke(constants[i])).intValue();
        } catch (ReflectiveOperationException e) {
          throw PeerException.error("enum id of " + constants[i] + ": " + e);
        }
      }
      if (value == want) {
        found = constants[i];
      }
    }
    if (found == null) {
      throw PeerException.unsupported(cls.getSimpleName() + " has no member with value " + want);
    }
    remember(node, found);
    return found;
  }

  /** The @ForyEnumId accessor of a generated enum, or null (ordinal). */
  static Method enumIdMethod(Class<?> cls) {
    for (Method m : cls.getDeclaredMethods()) {
      if (m.getParameterCount() == 0
          && m.isAnnotationPresent(org.apache.fory.annotation.ForyEnumId.class)) {
        m.setAccessible(true);
        return m;
      }
    }
    return null;
  }

  private Object union(JsonNode node, JsonNode v) {
    if (!v.has("type")) {
      throw PeerException.unsupported("union node without a type name (by type id only)");
    }
    String name = v.get("type").asText();
    JsonNode desc = unit.type(name);
    Class<?> cls = unit.cls(name);
    int c = v.path("case").asInt(-1);
    JsonNode cd = null;
    for (JsonNode k : desc.path("cases")) {
      if (k.get("id").asInt() == c) {
        cd = k;
      }
    }
    if (cd == null) {
      throw PeerException.unsupported(name + " has no case " + c);
    }
    Method of = null;
    String want = "of" + UserTypes.norm(cd.get("name").asText());
    for (Method m : cls.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 1
          && UserTypes.norm(m.getName()).equals(want)) {
        of = m;
      }
    }
    if (of == null) {
      throw PeerException.unsupported("foryc's " + cls.getSimpleName() + " has no factory for case " + c);
    }
    Object value = read(v.get("value"), cd.get("type"), of.getGenericParameterTypes()[0]);
    try {
      Object u = of.invoke(null, value);
      remember(node, u);
      return u;
    } catch (ReflectiveOperationException e) {
      Throwable t = e.getCause() != null ? e.getCause() : e;
      throw PeerException.unsupported(cls.getSimpleName() + "." + of.getName() + ": " + t);
    }
  }

  private static Object newInstance(Class<?> cls) {
    try {
      Constructor<?> c = cls.getDeclaredConstructor();
      c.setAccessible(true);
      return c.newInstance();
    } catch (ReflectiveOperationException e) {
      throw PeerException.error("cannot instantiate " + cls.getName() + ": " + e);
    }
  }

  private static JsonNode elem(JsonNode d, String key) {
    return d != null && d.isObject() ? d.get(key) : null;
  }

  @SuppressWarnings("unchecked")
  private Object collection(
      JsonNode node, String key, JsonNode v, JsonNode d, Type target, Class<?> raw) {
    JsonNode ed = elem(d, "list");
    if (raw.isArray()) {
      Class<?> ct = raw.getComponentType();
      Object arr = Array.newInstance(ct, v.size());
      remember(node, arr);
      for (int i = 0; i < v.size(); i++) {
        Object e = read(v.get(i), ed, ct);
        if (e == null && ct.isPrimitive()) {
          throw PeerException.unsupported("null element in a Java " + ct + "[]");
        }
        Array.set(arr, i, e);
      }
      return arr;
    }
    Collection<Object> c;
    if (raw == Object.class || raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
      c = Set.class.isAssignableFrom(raw) || (raw == Object.class && key.equals("set"))
          ? new LinkedHashSet<>() : new ArrayList<>();
    } else {
      c = (Collection<Object>) newInstance(raw);
    }
    remember(node, c);
    Type et = arg(target, 0);
    for (JsonNode e : v) {
      c.add(read(e, ed, et));
    }
    return c;
  }

  @SuppressWarnings("unchecked")
  private Object map(JsonNode node, JsonNode v, JsonNode d, Type target, Class<?> raw) {
    JsonNode kd = null;
    JsonNode vd = null;
    JsonNode md = elem(d, "map");
    if (md != null && md.isArray() && md.size() == 2) {
      kd = md.get(0);
      vd = md.get(1);
    }
    Map<Object, Object> m;
    if (raw == Object.class || raw.isInterface() || Modifier.isAbstract(raw.getModifiers())) {
      m = new LinkedHashMap<>();
    } else {
      m = (Map<Object, Object>) newInstance(raw);
    }
    remember(node, m);
    int n = 0;
    for (JsonNode e : v) {
      if (!e.isArray() || e.size() != 2) {
        throw PeerException.error("map entry must be [key, value]: " + e);
      }
      m.put(read(e.get(0), kd, arg(target, 0)), read(e.get(1), vd, arg(target, 1)));
      n++;
    }
    if (m.size() != n) {
      throw PeerException.unsupported("map has keys that are equal in Java");
    }
    return m;
  }

  private static Object scalar(JsonNode node, String key, JsonNode v, Class<?> raw) {
    switch (key) {
      case "int8":
      case "int16":
      case "int32":
      case "varint32":
      case "int64":
      case "varint64":
      case "tagged_int64":
      case "uint8":
      case "uint16":
      case "uint32":
      case "var_uint32":
      case "uint64":
      case "var_uint64":
      case "tagged_uint64":
        if (raw == Object.class) {
          break;
        }
        return integer(key, v, raw);
      case "float32":
        if (raw == double.class || raw == Double.class) {
          return (double) Floats.parseFloat32(v.asText());
        }
        break;
      case "float64":
        if (raw == float.class || raw == Float.class) {
          return (float) Floats.parseFloat64(v.asText());
        }
        break;
      default:
        break;
    }
    ObjectNode copy = JsonNodeFactory.instance.objectNode();
    copy.set(key, v);
    Object o = NotationReader.readRoot(copy);
    if (raw == Object.class || raw.isInstance(o) || (raw.isPrimitive() && o != null)) {
      return o;
    }
    if ((raw == Float16.class || raw == BFloat16.class) && o != null) {
      return o;
    }
    throw PeerException.unsupported(
        key + " for a Java " + raw.getName() + " (foryc's class declares another type)");
  }

  private static Object integer(String key, JsonNode v, Class<?> raw) {
    String s = v.asText();
    if (!s.matches("[+-]?\\d+")) {
      throw PeerException.error(key + " must be a decimal integer string: " + s);
    }
    BigInteger b = new BigInteger(s);
    if (raw == byte.class || raw == Byte.class) return b.byteValue();
    if (raw == short.class || raw == Short.class) return b.shortValue();
    if (raw == int.class || raw == Integer.class) return b.intValue();
    if (raw == long.class || raw == Long.class) return b.longValue();
    if (raw == UInt8.class) return UInt8.valueOf(b.intValue());
    if (raw == UInt16.class) return UInt16.valueOf(b.intValue());
    if (raw == UInt32.class) return UInt32.valueOf(b.intValue());
    if (raw == UInt64.class) return UInt64.valueOf(b.longValue());
    if (raw == float.class || raw == Float.class) return b.floatValue();
    if (raw == double.class || raw == Double.class) return b.doubleValue();
    throw PeerException.unsupported(key + " for a Java " + raw.getName());
  }

  static boolean isUnion(Object o) {
    return o instanceof Union;
  }
}
