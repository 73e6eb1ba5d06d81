package dev.libwire.peer;

/** A request failure, classified as reported back on the protocol ("unsupported" or "error"). */
final class PeerException extends RuntimeException {
  final String kind;

  private PeerException(String kind, String message) {
    super(message);
    this.kind = kind;
  }

  /** The value (or bytes) cannot be represented with the Java runtime's carriers. */
  static PeerException unsupported(String message) {
    return new PeerException("unsupported", message);
  }

  /** The request itself is malformed (bad notation, bad hex, out-of-range literal, ...). */
  static PeerException error(String message) {
    return new PeerException("error", message);
  }
}
