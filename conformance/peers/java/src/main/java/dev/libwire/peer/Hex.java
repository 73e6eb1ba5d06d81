package dev.libwire.peer;

final class Hex {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private Hex() {}

  static String encode(byte[] b) {
    char[] out = new char[b.length * 2];
    for (int i = 0; i < b.length; i++) {
      out[2 * i] = DIGITS[(b[i] >> 4) & 0xf];
      out[2 * i + 1] = DIGITS[b[i] & 0xf];
    }
    return new String(out);
  }

  static byte[] decode(String s) {
    String t = s.replaceAll("\\s+", "");
    if (t.length() % 2 != 0) {
      throw PeerException.error("hex string has an odd number of digits");
    }
    byte[] out = new byte[t.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(t.charAt(2 * i), 16);
      int lo = Character.digit(t.charAt(2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw PeerException.error("bad hex digit near offset " + (2 * i));
      }
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }
}
