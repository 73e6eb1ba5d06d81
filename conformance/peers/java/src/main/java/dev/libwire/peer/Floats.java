package dev.libwire.peer;

import java.math.BigDecimal;

/** Float literals of the value notation: "0x" bit patterns or decimal / nan / inf / -inf. */
final class Floats {
  private Floats() {}

  private static boolean isBits(String s) {
    return s.startsWith("0x") || s.startsWith("0X");
  }

  private static long parseBits(String s, int hexDigits) {
    String h = s.substring(2);
    if (h.isEmpty() || h.length() > hexDigits) {
      throw PeerException.error("float bit pattern must have at most " + hexDigits + " hex digits: " + s);
    }
    try {
      return Long.parseUnsignedLong(h, 16);
    } catch (NumberFormatException e) {
      throw PeerException.error("bad float bit pattern: " + s);
    }
  }

  private static String normalizeDecimal(String s) {
    String t = s.trim().toLowerCase();
    switch (t) {
      case "nan":
      case "+nan":
        return "NaN";
      case "-nan":
        return "-NaN";
      case "inf":
      case "+inf":
      case "infinity":
      case "+infinity":
        return "Infinity";
      case "-inf":
      case "-infinity":
        return "-Infinity";
      default:
        if (!t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)(e[+-]?\\d+)?")) {
          throw PeerException.error("bad float literal: " + s);
        }
        return t;
    }
  }

  static double parseFloat64(String s) {
    if (isBits(s)) {
      return Double.longBitsToDouble(parseBits(s, 16));
    }
    String d = normalizeDecimal(s);
    if (d.equals("NaN")) return Double.longBitsToDouble(0x7ff8000000000000L);
    if (d.equals("-NaN")) return Double.longBitsToDouble(0xfff8000000000000L);
    return Double.parseDouble(d);
  }

  static float parseFloat32(String s) {
    if (isBits(s)) {
      return Float.intBitsToFloat((int) parseBits(s, 8));
    }
    String d = normalizeDecimal(s);
    if (d.equals("NaN")) return Float.intBitsToFloat(0x7fc00000);
    if (d.equals("-NaN")) return Float.intBitsToFloat(0xffc00000);
    return Float.parseFloat(d);
  }

  /** Bits of an IEEE binary16 value. */
  static short parseFloat16(String s) {
    if (isBits(s)) {
      return (short) parseBits(s, 4);
    }
    return (short) narrow(s, 5, 10);
  }

  /** Bits of a bfloat16 value. */
  static short parseBFloat16(String s) {
    if (isBits(s)) {
      return (short) parseBits(s, 4);
    }
    return (short) narrow(s, 8, 7);
  }

  /**
   * Rounds a decimal literal to a small binary format (expBits exponent bits, manBits stored
   * mantissa bits) with round-to-nearest-even, computed exactly on the decimal value.
   */
  private static int narrow(String s, int expBits, int manBits) {
    String d = normalizeDecimal(s);
    int signShift = expBits + manBits;
    int expMask = (1 << expBits) - 1;
    int infBits = expMask << manBits;
    if (d.equals("NaN") || d.equals("-NaN")) {
      int sign = d.startsWith("-") ? 1 : 0;
      return (sign << signShift) | infBits | (1 << (manBits - 1));
    }
    if (d.equals("Infinity") || d.equals("-Infinity")) {
      int sign = d.startsWith("-") ? 1 : 0;
      return (sign << signShift) | infBits;
    }
    int sign = d.startsWith("-") ? 1 : 0;
    BigDecimal mag = new BigDecimal(d).abs();
    if (mag.signum() == 0) {
      return sign << signShift;
    }
    int bias = (1 << (expBits - 1)) - 1;
    int minExp = 1 - bias;
    // e = floor(log2(mag)), clamped below at the smallest normal exponent.
    int e = mag.toBigInteger().signum() > 0 ? mag.toBigInteger().bitLength() - 1 : -1;
    while (e > minExp && mag.compareTo(pow2(e)) < 0) e--;
    if (e > 2 * bias + 2) {
      return (sign << signShift) | infBits;
    }
    if (e < minExp) e = minExp;
    BigDecimal ulp = pow2(e - manBits);
    BigDecimal[] qr = mag.divideAndRemainder(ulp);
    long units = qr[0].longValueExact();
    int cmp = qr[1].multiply(BigDecimal.valueOf(2)).compareTo(ulp);
    if (cmp > 0 || (cmp == 0 && (units & 1) == 1)) {
      units++;
    }
    long pattern = ((long) (e - minExp) << manBits) + units;
    if (pattern >= infBits) {
      return (sign << signShift) | infBits;
    }
    return (sign << signShift) | (int) pattern;
  }

  private static BigDecimal pow2(int e) {
    if (e >= 0) {
      return new BigDecimal(java.math.BigInteger.ONE.shiftLeft(e));
    }
    return BigDecimal.ONE.divide(new BigDecimal(java.math.BigInteger.ONE.shiftLeft(-e)));
  }

  static String bits16(short b) {
    return String.format("0x%04x", b & 0xffff);
  }

  static String bits32(float f) {
    return String.format("0x%08x", Float.floatToRawIntBits(f));
  }

  static String bits64(double d) {
    return String.format("0x%016x", Double.doubleToRawLongBits(d));
  }

  /** Readable form for the "approx" annotation. */
  static String approx(double d) {
    if (Double.isNaN(d)) return "nan";
    if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
    return Double.toString(d);
  }

  static String approx(float f) {
    if (Float.isNaN(f)) return "nan";
    if (Float.isInfinite(f)) return f > 0 ? "inf" : "-inf";
    return Float.toString(f);
  }

  /** binary16 bits to float (exact). */
  static float half(short h) {
    int b = h & 0xffff;
    int sign = b >>> 15;
    int exp = (b >>> 10) & 0x1f;
    int man = b & 0x3ff;
    float v;
    if (exp == 0) {
      v = man * 0x1p-24f;
    } else if (exp == 31) {
      v = man == 0 ? Float.POSITIVE_INFINITY : Float.NaN;
    } else {
      v = Math.scalb(1.0f + man / 1024.0f, exp - 15);
    }
    return sign == 1 ? -v : v;
  }

  /** bfloat16 bits to float (exact). */
  static float bhalf(short h) {
    return Float.intBitsToFloat((h & 0xffff) << 16);
  }
}
