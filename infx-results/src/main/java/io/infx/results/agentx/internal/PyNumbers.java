package io.infx.results.agentx.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Number formatting and rounding exactly as the reference (CPython 3.11) does it, so that an
 * aggregate or a gate message written by infx is byte-for-byte what InferenceX writes.
 *
 * <p>All rounding here is round-half-even on the <em>exact binary value</em> of the double (what
 * CPython's {@code round()} and {@code format()} do), never on a shortest decimal representation.
 */
public final class PyNumbers {

  private PyNumbers() {}

  /**
   * {@code round(x, digits)}: the double nearest to {@code x} rounded half-even to {@code digits}
   * decimals. Non-finite values are returned unchanged.
   */
  public static double round(double x, int digits) {
    if (!Double.isFinite(x)) {
      return x;
    }
    BigDecimal rounded = new BigDecimal(x).setScale(digits, RoundingMode.HALF_EVEN);
    double r = Double.parseDouble(rounded.toString());
    return r == 0.0 && x < 0 ? -0.0 : r;
  }

  /** {@code round(x)} with no digits: half-even to an integer (Python's banker's rounding). */
  public static long roundToLong(double x) {
    return (long) Math.rint(x);
  }

  /**
   * {@code format(x, "g")}: six significant digits, trailing zeros removed, scientific notation
   * with a two-digit exponent when the decimal exponent is below -4 or at least 6 (e.g.
   * {@code 65}, {@code 4157}, {@code 0.1}, {@code 1.23457e+06}).
   */
  public static String formatG(double x) {
    if (Double.isNaN(x)) {
      return "nan";
    }
    if (Double.isInfinite(x)) {
      return x > 0 ? "inf" : "-inf";
    }
    if (x == 0.0) {
      return (1 / x < 0) ? "-0" : "0";
    }
    final int precision = 6;
    BigDecimal bd = new BigDecimal(x).round(new MathContext(precision, RoundingMode.HALF_EVEN));
    int exp = bd.precision() - bd.scale() - 1;
    if (exp >= -4 && exp < precision) {
      return stripZeros(bd.toPlainString());
    }
    BigDecimal mantissa = bd.movePointLeft(exp);
    String digits = stripZeros(mantissa.toPlainString());
    return digits + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
  }

  /**
   * {@code format(x, ".3%")}: {@code x * 100} (in double arithmetic, as CPython does) with exactly
   * three decimals, followed by {@code %}.
   */
  public static String formatPercent3(double x) {
    double pct = x * 100;
    if (!Double.isFinite(pct)) {
      return (Double.isNaN(pct) ? "nan" : pct > 0 ? "inf" : "-inf") + "%";
    }
    return new BigDecimal(pct).setScale(3, RoundingMode.HALF_EVEN).toPlainString() + "%";
  }

  private static String stripZeros(String plain) {
    if (!plain.contains(".")) {
      return plain;
    }
    int end = plain.length();
    while (plain.charAt(end - 1) == '0') {
      end--;
    }
    if (plain.charAt(end - 1) == '.') {
      end--;
    }
    return plain.substring(0, end);
  }
}
