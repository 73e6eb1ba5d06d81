package dev.libwire.peer;

import org.apache.fory.config.Config;
import org.apache.fory.context.ReadContext;
import org.apache.fory.context.WriteContext;
import org.apache.fory.serializer.Serializer;

/**
 * Delegates to the runtime's own serializer; on read it wraps the result in a {@link WireTagged}
 * carrying the xlang type id. Installed only on type-id lookup entries that no Java class uses
 * for writing, so encoding is unaffected.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
final class TagOnReadSerializer extends Serializer<Object> {
  private final Serializer delegate;
  private final int typeId;

  TagOnReadSerializer(Config config, Serializer<?> delegate, int typeId) {
    super(config, (Class) delegate.getType(), delegate.needToWriteRef(), delegate.isImmutable());
    this.delegate = delegate;
    this.typeId = typeId;
  }

  @Override
  public void write(WriteContext writeContext, Object value) {
    if (value instanceof WireTagged) {
      value = ((WireTagged) value).value;
    }
    delegate.write(writeContext, value);
  }

  @Override
  public Object read(ReadContext readContext) {
    Object v = delegate.read(readContext);
    return v == null ? null : new WireTagged(typeId, v);
  }
}
