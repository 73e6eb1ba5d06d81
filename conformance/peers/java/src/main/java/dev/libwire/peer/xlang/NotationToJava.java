package dev.libwire.peer.xlang;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.lang.reflect.AnnotatedType;
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
import org.apache.fory.collection.BFloat16List;
import org.apache.fory.collection.Float16List;
import org.apache.fory.collection.Int32List;
import org.apache.fory.type.BFloat16;
import org.apache.fory.type.Float16;
import org.apache.fory.type.union.Union2;

/**
 * Builds Java objects from value-notation documents (spec/notation.md), using the declared Java
 * field types to pick carriers. User types are looked up by their notation type name.
 */
final class NotationToJava {
  private static final Set<String> ANNOTATIONS =
      Set.of("anchor", "tracked", "enc", "header", "chunks", "approx", "iso", "ns_enc", "name_enc");

  private final Map<String, Class<?>> types;
  private Map<String, Object> anchors = new HashMap<>();

  NotationToJava(Map<String, Class<?>> types) {
    this.types = types;
  }

  Object root(JsonNode node) {
    anchors = new HashMap<>();
    return convert(node, Object.class);
  }

  static String typeKey(JsonNode node) {
    String key = null;
    Iterator<String> it = node.fieldNames();
    while (it.hasNext()) {
      String k = it.next();
      if (ANNOTATIONS.contains(k)) {
        continue;
      }
      if (key != null) {
        throw new IllegalArgumentException("two type keys: " + key + ", " + k);
      }
      key = k;
    }
    if (key == null) {
      throw new IllegalArgumentException("node without a type key: " + node);
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

  static Type arg(Type t, int i) {
    if (t instanceof ParameterizedType) {
      Type a = ((ParameterizedType) t).getActualTypeArguments()[i];
      return a instanceof WildcardType ? ((WildcardType) a).getUpperBounds()[0] : a;
    }
    return Object.class;
  }

  static String snake(String name) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) {
          sb.append('_');
        }
        sb.append(Character.toLowerCase(c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  static List<Field> fields(Class<?> cls) {
    List<Field> out = new ArrayList<>();
    for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
          continue;
        }
        f.setAccessible(true);
        out.add(f);
      }
    }
    return out;
  }

  static Object newInstance(Class<?> cls) {
    try {
      Constructor<?> c = cls.getDeclaredConstructor();
      c.setAccessible(true);
      return c.newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot instantiate " + cls, e);
    }
  }

  private Object convert(JsonNode node, Type target) {
    String key = typeKey(node);
    JsonNode v = node.get(key);
    Class<?> raw = raw(target);
    switch (key) {
      case "ref":
        {
          Object o = anchors.get(v.asText());
          if (o == null) {
            throw new IllegalArgumentException("unknown anchor " + v.asText());
          }
          return o;
        }
      case "null":
      case "none":
        return null;
      case "struct":
        return struct(node, v);
      case "enum":
        {
          Class<?> cls = type(v.get("type").asText());
          return cls.getEnumConstants()[v.get("value").asInt()];
        }
      case "ext":
        {
          Class<?> cls = type(v.get("type").asText());
          if (cls != XTypes.MyExt.class) {
            throw new IllegalArgumentException("no carrier for ext " + cls);
          }
          XTypes.MyExt e = new XTypes.MyExt();
          e.id = zigzagVarint32(v.get("bytes").asText());
          return e;
        }
      case "union":
        {
          int c = v.get("case").asInt();
          Object value = convert(v.get("value"), arg(target, c));
          return c == 0 ? Union2.ofT1(value) : Union2.ofT2(value);
        }
      case "list":
      case "set":
        return collection(node, key, v, target, raw);
      case "map":
        {
          Map<Object, Object> m = new LinkedHashMap<>();
          anchor(node, m);
          for (JsonNode e : v) {
            m.put(convert(e.get(0), arg(target, 0)), convert(e.get(1), arg(target, 1)));
          }
          return m;
        }
      case "int32_array":
        {
          int[] a = new int[v.size()];
          for (int i = 0; i < a.length; i++) {
            a[i] = new BigInteger(v.get(i).asText()).intValue();
          }
          anchor(node, a);
          return a;
        }
      case "bool":
        return v.asBoolean();
      case "string":
        return v.asText();
      case "float32":
        return Float.intBitsToFloat((int) floatBits(v.asText(), 32));
      case "float64":
        return Double.longBitsToDouble(floatBits(v.asText(), 64));
      case "float16":
        return Float16.fromBits((short) floatBits(v.asText(), 16));
      case "bfloat16":
        return BFloat16.fromBits((short) floatBits(v.asText(), 16));
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
        return integer(key, new BigInteger(v.asText()), raw);
      default:
        throw new IllegalArgumentException("unsupported node " + key);
    }
  }

  private Class<?> type(String name) {
    Class<?> cls = types.get(name);
    if (cls == null) {
      throw new IllegalArgumentException("type not in the case: " + name);
    }
    return cls;
  }

  private void anchor(JsonNode node, Object o) {
    if (node.has("anchor")) {
      anchors.put(node.get("anchor").asText(), o);
    }
  }

  private Object struct(JsonNode node, JsonNode v) {
    Class<?> cls = type(v.get("type").asText());
    Object obj = newInstance(cls);
    anchor(node, obj);
    Map<String, Field> byName = new HashMap<>();
    for (Field f : fields(cls)) {
      byName.put(snake(f.getName()), f);
      byName.put(f.getName(), f);
    }
    Iterator<Map.Entry<String, JsonNode>> it = v.get("fields").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      Field f = byName.get(e.getKey());
      if (f == null) {
        throw new IllegalArgumentException(cls.getSimpleName() + " has no field " + e.getKey());
      }
      try {
        f.set(obj, convert(e.getValue(), f.getGenericType()));
      } catch (IllegalAccessException ex) {
        throw new IllegalStateException(ex);
      }
    }
    return obj;
  }

  private Object collection(JsonNode node, String key, JsonNode v, Type target, Class<?> raw) {
    if (raw == Int32List.class) {
      int[] a = new int[v.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = ((Number) convert(v.get(i), int.class)).intValue();
      }
      return new Int32List(a);
    }
    if (raw == Float16List.class || raw == BFloat16List.class) {
      short[] a = new short[v.size()];
      for (int i = 0; i < a.length; i++) {
        JsonNode e = v.get(i);
        a[i] = (short) floatBits(e.get(typeKey(e)).asText(), 16);
      }
      return raw == Float16List.class ? new Float16List(a) : new BFloat16List(a);
    }
    Collection<Object> c;
    if (key.equals("set") || (Set.class.isAssignableFrom(raw))) {
      c = new LinkedHashSet<>();
    } else {
      c = new ArrayList<>();
    }
    anchor(node, c);
    for (JsonNode e : v) {
      c.add(convert(e, arg(target, 0)));
    }
    return c;
  }

  private static Object integer(String key, BigInteger b, Class<?> raw) {
    if (raw == byte.class || raw == Byte.class) {
      return b.byteValue();
    }
    if (raw == short.class || raw == Short.class) {
      return b.shortValue();
    }
    if (raw == int.class || raw == Integer.class) {
      return b.intValue();
    }
    if (raw == long.class || raw == Long.class) {
      return b.longValue();
    }
    switch (key) {
      case "int8":
        return b.byteValue();
      case "int16":
        return b.shortValue();
      case "int32":
      case "varint32":
      case "uint8":
      case "uint16":
        return b.intValue();
      default:
        return b.longValue();
    }
  }

  /** The IEEE bits of a notation float string ("0x…" bits or a decimal). */
  static long floatBits(String s, int width) {
    if (s.startsWith("0x")) {
      return Long.parseUnsignedLong(s.substring(2), 16);
    }
    double d;
    switch (s) {
      case "nan":
        d = Double.NaN;
        break;
      case "inf":
        d = Double.POSITIVE_INFINITY;
        break;
      case "-inf":
        d = Double.NEGATIVE_INFINITY;
        break;
      default:
        d = Double.parseDouble(s);
    }
    switch (width) {
      case 64:
        return Double.doubleToRawLongBits(d);
      case 32:
        return Float.floatToRawIntBits((float) d) & 0xffffffffL;
      default:
        return Float16.toBits((float) d) & 0xffff;
    }
  }

  static int zigzagVarint32(String hex) {
    int shift = 0;
    long result = 0;
    for (int i = 0; i < hex.length(); i += 2) {
      int b = Integer.parseInt(hex.substring(i, i + 2), 16);
      result |= (long) (b & 0x7f) << shift;
      shift += 7;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    int u = (int) result;
    return (u >>> 1) ^ -(u & 1);
  }
}
