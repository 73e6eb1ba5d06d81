package dev.libwire.peer;

/**
 * A decoded value together with the xlang type id it was read under. Used only for wire types
 * whose Java carrier class is shared with another wire type (for example UINT8 and VARINT32 both
 * decode to java.lang.Integer), so that the decoder can print the type that was on the wire.
 */
final class WireTagged {
  final int typeId;
  final Object value;

  WireTagged(int typeId, Object value) {
    this.typeId = typeId;
    this.value = value;
  }
}
