package dev.libwire.peer;

final class Strings {
  private Strings() {}

  /** True when every UTF-16 surrogate in s is part of a well-formed pair. */
  static boolean isScalarValues(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return false;
        }
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }
}
