package dev.libwire.peer;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.fory.Fory;
import org.apache.fory.config.CompatibleMode;
import org.apache.fory.config.Language;
import org.apache.fory.resolver.TypeInfo;
import org.apache.fory.resolver.TypeResolver;
import org.apache.fory.resolver.XtypeResolver;
import org.apache.fory.serializer.Serializer;
import org.apache.fory.type.Types;

/** One Fory instance per (ref, compatible) configuration, built lazily. */
final class ForyPool {
  /**
   * Wire types that the runtime decodes into a class it also uses for a different wire type
   * (Integer, Long, byte[], short[], int[], long[]). Their type-id lookup entries get a
   * {@link TagOnReadSerializer} so the decoded value remembers its wire type.
   */
  private static final int[] TAGGED_ON_READ = {
    Types.INT32,
    Types.INT64,
    Types.TAGGED_INT64,
    Types.UINT8,
    Types.UINT16,
    Types.UINT32,
    Types.VAR_UINT32,
    Types.UINT64,
    Types.VAR_UINT64,
    Types.TAGGED_UINT64,
    Types.INT8_ARRAY,
    Types.UINT8_ARRAY,
    Types.UINT16_ARRAY,
    Types.UINT32_ARRAY,
    Types.UINT64_ARRAY,
  };

  private final Map<String, Fory> cache = new HashMap<>();

  Fory get(boolean ref, boolean compatible) {
    return cache.computeIfAbsent(key(ref, compatible), k -> build(ref, compatible));
  }

  /** Drops an instance after a failure, in case the failure left it in a bad state. */
  void discard(boolean ref, boolean compatible) {
    cache.remove(key(ref, compatible));
  }

  private static String key(boolean ref, boolean compatible) {
    return ref + "/" + compatible;
  }

  private static Fory build(boolean ref, boolean compatible) {
    return build(ref, compatible, f -> {});
  }

  /**
   * A new instance: the builder settings above, then {@code setup} (registrations), then the
   * decoded-type tags below.
   */
  static Fory build(boolean ref, boolean compatible, Consumer<Fory> setup) {
    Fory fory =
        Fory.builder()
            .withLanguage(Language.XLANG)
            .withRefTracking(ref)
            .withCompatibleMode(
                compatible ? CompatibleMode.COMPATIBLE : CompatibleMode.SCHEMA_CONSISTENT)
            .build();
    setup.accept(fory);
    // Finish the runtime's lazy registration before touching its type table.
    fory.deserialize(fory.serialize(null));
    TypeResolver resolver = fory.getTypeResolver();
    if (resolver instanceof XtypeResolver) {
      XtypeResolver xr = (XtypeResolver) resolver;
      for (int typeId : TAGGED_ON_READ) {
        TypeInfo info = xr.getXtypeInfo(typeId);
        if (info == null || info.getSerializer() == null) {
          continue;
        }
        // Leave alone an entry that is also the write-side entry of its class.
        TypeInfo byClass = xr.getTypeInfo(info.getType(), false);
        if (byClass == info) {
          continue;
        }
        Serializer<?> original = info.getSerializer();
        info.setSerializer(new TagOnReadSerializer(fory.getConfig(), original, typeId));
      }
    }
    return fory;
  }
}
