package dev.libwire.peer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.fory.Fory;
import org.apache.fory.ForyModule;

/**
 * The user types of the fixtures' schemas: classes that foryc 1.7.7 generated (--java_out) for
 * every set of schema files a test names, compiled into one directory by
 * conformance/peers/usertypes (java), described by its units.json. A request with "schemas"
 * runs on a Fory instance on which the generated ForyModule of each schema file is installed.
 */
final class UserTypes {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One schema set: its classes and their descriptions. */
  static final class Unit {
    final String name;
    final String error;
    final List<String> modules = new ArrayList<>();
    /** Notation type name -> description (kind, fields in wire order, cases, values). */
    final Map<String, JsonNode> types = new HashMap<>();
    /** Notation type name -> class, and back. */
    final Map<String, Class<?>> classes = new HashMap<>();
    final Map<Class<?>, String> names = new HashMap<>();

    Unit(String name, String error) {
      this.name = name;
      this.error = error;
    }

    JsonNode type(String name) {
      JsonNode t = types.get(name);
      if (t == null) {
        throw PeerException.error("type '" + name + "' is not in the request's schemas");
      }
      return t;
    }

    Class<?> cls(String name) {
      Class<?> c = classes.get(name);
      if (c == null) {
        type(name);
        throw PeerException.unsupported("foryc generated no Java class for '" + name + "'");
      }
      return c;
    }
  }

  private final Path root;
  private final Map<String, Unit> units = new HashMap<>();
  private final ClassLoader loader;
  private final Map<String, Fory> pool = new HashMap<>();

  private UserTypes(Path root, Path dir) throws IOException {
    this.root = root;
    JsonNode manifest = JSON.readTree(dir.resolve("units.json").toFile());
    File classes = dir.resolve("classes").toFile();
    loader = new URLClassLoader(new URL[] {classes.toURI().toURL()}, UserTypes.class.getClassLoader());
    for (JsonNode u : manifest.get("units")) {
      String err = u.path("error").isTextual() ? u.get("error").textValue() : null;
      Unit unit = new Unit(u.get("name").textValue(), err);
      for (JsonNode m : u.path("modules")) {
        unit.modules.add(m.textValue());
      }
      Iterator<Map.Entry<String, JsonNode>> it = u.path("types").fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        unit.types.put(e.getKey(), e.getValue());
      }
      units.put(u.get("key").textValue(), unit);
    }
  }

  /**
   * The user types of this build, or null when the peer runs without them (no
   * -Dlibwire.usertypes=DIR, or DIR has no units.json).
   */
  static UserTypes load() {
    String dir = System.getProperty("libwire.usertypes");
    String root = System.getProperty("libwire.root");
    if (dir == null || root == null || !new File(dir, "units.json").isFile()) {
      return null;
    }
    try {
      return new UserTypes(Path.of(root).toAbsolutePath().normalize(), Path.of(dir));
    } catch (IOException e) {
      System.err.println("java peer: cannot read " + dir + "/units.json: " + e);
      return null;
    }
  }

  /** The unit of a request's "schemas" (paths relative to the repository or absolute). */
  Unit unit(JsonNode schemas) {
    StringBuilder key = new StringBuilder();
    for (JsonNode s : schemas) {
      Path p = Path.of(s.asText());
      if (p.isAbsolute()) {
        p = root.relativize(p.normalize());
      }
      if (key.length() > 0) {
        key.append('\n');
      }
      key.append(p.toString().replace(File.separatorChar, '/'));
    }
    Unit u = units.get(key.toString());
    if (u == null) {
      throw PeerException.unsupported(
          "no foryc classes for the schemas " + key.toString().replace('\n', ' ')
              + " (conformance/peers/usertypes compiles the sets the fixtures name)");
    }
    if (u.error != null) {
      throw new SchemaError(u.error);
    }
    if (u.classes.isEmpty()) {
      resolveClasses(u);
    }
    return u;
  }

  private void resolveClasses(Unit u) {
    for (Map.Entry<String, JsonNode> e : u.types.entrySet()) {
      JsonNode java = e.getValue().get("java");
      if (java == null) {
        continue;
      }
      try {
        Class<?> c = Class.forName(java.textValue(), true, loader);
        u.classes.put(e.getKey(), c);
        u.names.put(c, e.getKey());
      } catch (ClassNotFoundException ex) {
        throw PeerException.error("generated class " + java.textValue() + " is missing: " + ex);
      }
    }
  }

  /** A Fory instance with the unit's modules installed, one per (unit, ref, compatible). */
  Fory fory(Unit u, boolean ref, boolean compatible) {
    String key = u.name + "/" + ref + "/" + compatible;
    Fory f = pool.get(key);
    if (f == null) {
      f =
          ForyPool.build(
              ref,
              compatible,
              fory -> {
                for (String m : u.modules) {
                  try {
                    Class<?> c = Class.forName(m, true, loader);
                    ForyModule module = (ForyModule) c.getField("INSTANCE").get(null);
                    fory.register(module);
                  } catch (ReflectiveOperationException ex) {
                    throw PeerException.error("cannot install " + m + ": " + ex);
                  }
                }
              });
      pool.put(key, f);
    }
    return f;
  }

  void discard(Unit u, boolean ref, boolean compatible) {
    pool.remove(u.name + "/" + ref + "/" + compatible);
  }

  /** Instance fields of a generated class, by name with case and underscores dropped. */
  static Map<String, Field> fields(Class<?> cls) {
    Map<String, Field> out = new HashMap<>();
    for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || f.isSynthetic()) {
          continue;
        }
        f.setAccessible(true);
        out.putIfAbsent(norm(f.getName()), f);
      }
    }
    return out;
  }

  static String norm(String name) {
    return name.replace("_", "").toLowerCase(java.util.Locale.ROOT);
  }

  /** foryc rejected the request's schemas: class "idl". */
  static final class SchemaError extends RuntimeException {
    SchemaError(String message) {
      super(message);
    }
  }
}
