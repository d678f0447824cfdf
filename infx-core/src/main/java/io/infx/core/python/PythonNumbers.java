package io.infx.core.python;

import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Numbers exactly as CPython 3.11 renders, rounds and parses them, for every output and message
 * that must match the reference byte for byte: {@code repr(float)}, {@code round(x, n)},
 * {@code format(x, "g")}, {@code format(x, ".3%")}, {@code int(str)} and {@code float(x)}.
 *
 * <p>This is the one home of these rules (see docs/architecture.md); the tests check them against
 * values recorded from CPython ({@code infx-core/src/test/resources/python/}).
 */
public final class PythonNumbers {

  private PythonNumbers() {}

  // ---------------------------------------------------------------------------------------------
  // repr(float)

  /**
   * Python's {@code repr(float)} (also what {@code json.dumps} writes): the shortest decimal that
   * round-trips, in fixed notation when the decimal exponent is in [-4, 16) and in scientific
   * notation ({@code 1e-05}, {@code 1.2345678901234568e+17}) otherwise; whole values keep a
   * {@code .0}; {@code -0.0}, {@code NaN}, {@code Infinity}, {@code -Infinity}.
   *
   * <p>Why not {@code Double.toString}: before JDK 19 it is not always the shortest round-trip
   * form. The shortest digits come from Jackson's public {@link NumberOutput} (Schubfach, the
   * algorithm JDK 19+ uses), then are re-rendered in Python's layout.
   */
  public static String floatRepr(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0.0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    String java = NumberOutput.toString(d, true);
    boolean negative = java.startsWith("-");
    if (negative) {
      java = java.substring(1);
    }
    int ePos = java.indexOf('E');
    String mantissa = ePos >= 0 ? java.substring(0, ePos) : java;
    int exp = ePos >= 0 ? Integer.parseInt(java.substring(ePos + 1)) : 0;
    int dot = mantissa.indexOf('.');
    String intPart = dot >= 0 ? mantissa.substring(0, dot) : mantissa;
    String fracPart = dot >= 0 ? mantissa.substring(dot + 1) : "";
    String digits = intPart + fracPart;
    // value = 0.digits × 10^decpt once leading zeros are removed
    int decpt = intPart.length() + exp;
    int lead = 0;
    while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
      lead++;
      decpt--;
    }
    digits = digits.substring(lead);
    int trail = digits.length();
    while (trail > 1 && digits.charAt(trail - 1) == '0') {
      trail--;
    }
    digits = digits.substring(0, trail);
    if (digits.length() == 2) {
      // Java's layout keeps at least two significant digits; Python may need only one (5e-324).
      String one = oneDigit(Math.abs(d), digits, decpt);
      if (one != null) {
        if (one.equals("10")) {
          digits = "1";
          decpt++;
        } else {
          digits = one;
        }
      }
    }

    StringBuilder sb = new StringBuilder(24);
    if (negative) {
      sb.append('-');
    }
    if (decpt > -4 && decpt <= 16) {
      if (decpt <= 0) {
        sb.append("0.").append("0".repeat(-decpt)).append(digits);
      } else if (decpt >= digits.length()) {
        sb.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
      } else {
        sb.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
      }
    } else {
      sb.append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      int e = decpt - 1;
      sb.append('e').append(e < 0 ? '-' : '+');
      String es = Integer.toString(Math.abs(e));
      if (es.length() < 2) {
        sb.append('0');
      }
      sb.append(es);
    }
    return sb.toString();
  }

  /** The closest one-digit decimal that still parses back to {@code d}, or null if none does. */
  private static String oneDigit(double d, String twoDigits, int decpt) {
    int first = twoDigits.charAt(0) - '0';
    String best = null;
    BigDecimal exact = new BigDecimal(d);
    BigDecimal bestDistance = null;
    for (int candidate : new int[] {first, first + 1}) {
      BigDecimal value = BigDecimal.valueOf(candidate).scaleByPowerOfTen(decpt - 1);
      if (value.doubleValue() != d) {
        continue;
      }
      BigDecimal distance = value.subtract(exact).abs();
      if (bestDistance == null || distance.compareTo(bestDistance) < 0) {
        best = Integer.toString(candidate);
        bestDistance = distance;
      }
    }
    return best;
  }

  // ---------------------------------------------------------------------------------------------
  // round() and format()

  /**
   * {@code round(x, digits)}: half-even on the <em>exact binary value</em> of {@code x} (so
   * {@code round(2.675, 2) == 2.67}), never on a shortest decimal form; the sign of a zero result
   * follows {@code x}. Non-finite values are returned unchanged.
   */
  public static double round(double x, int digits) {
    if (!Double.isFinite(x)) {
      return x;
    }
    BigDecimal rounded = new BigDecimal(x).setScale(digits, RoundingMode.HALF_EVEN);
    double r = Double.parseDouble(rounded.toString());
    return r == 0.0 && (x < 0 || 1 / x < 0) ? -0.0 : r;
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

  // ---------------------------------------------------------------------------------------------
  // int() and float()

  /** Outcome of a conversion: a value, or the message Python's exception would carry. */
  public record Conversion<T>(Optional<T> value, String problem) {
    static <T> Conversion<T> ok(T value) {
      return new Conversion<>(Optional.of(value), "");
    }

    static <T> Conversion<T> fail(String problem) {
      return new Conversion<>(Optional.empty(), problem);
    }

    /** Whether Python would have returned a value. */
    public boolean ok() {
      return value.isPresent();
    }
  }

  /**
   * Python {@code int(text)} with base 10: surrounding whitespace is ignored, an optional sign,
   * decimal digits with single underscores <em>between</em> digits ({@code 1_2} yes, {@code 1__2},
   * {@code _1} and {@code 1_} no). Values beyond {@code int} are refused with
   * {@code "value … is out of range"} (no GPU count or sequence length is that large); other
   * failures carry Python's message {@code invalid literal for int() with base 10: '…'}.
   */
  public static Conversion<Integer> parseInt(String text) {
    String s = strip(text);
    int i = 0;
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
      negative = s.charAt(0) == '-';
      i = 1;
    }
    if (i >= s.length()) {
      return Conversion.fail(invalidIntLiteral(text));
    }
    StringBuilder digits = new StringBuilder();
    boolean lastWasDigit = false;
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      int d = Character.digit(c, 10);
      if (d >= 0) {
        digits.append((char) ('0' + d));
        lastWasDigit = true;
      } else if (c == '_' && lastWasDigit && i + 1 < s.length()
          && Character.digit(s.charAt(i + 1), 10) >= 0) {
        lastWasDigit = false;
      } else {
        return Conversion.fail(invalidIntLiteral(text));
      }
    }
    BigInteger value = new BigInteger(digits.toString());
    if (negative) {
      value = value.negate();
    }
    if (value.bitLength() > 31) {
      return Conversion.fail("value " + value + " is out of range");
    }
    return Conversion.ok(value.intValue());
  }

  private static String invalidIntLiteral(String text) {
    return "invalid literal for int() with base 10: " + PythonRepr.repr(text);
  }

  // Python's float() accepts decimal literals with underscores between digits, inf/nan words.
  private static final Pattern FLOAT_LITERAL = Pattern.compile(
      "[+-]?(?:(?:\\d(?:_?\\d)*)?\\.?(?:\\d(?:_?\\d)*)?)(?:[eE][+-]?\\d(?:_?\\d)*)?");
  private static final Pattern SPECIAL = Pattern.compile(
      "[+-]?(?:inf|infinity|nan)", Pattern.CASE_INSENSITIVE);

  /** Python {@code float(text)}. */
  public static Conversion<Double> parseFloat(String text) {
    String s = strip(text);
    if (SPECIAL.matcher(s).matches()) {
      boolean negative = s.startsWith("-");
      String word = s.replaceFirst("^[+-]", "").toLowerCase(Locale.ROOT);
      if (word.equals("nan")) {
        return Conversion.ok(Double.NaN);
      }
      return Conversion.ok(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
    }
    if (!FLOAT_LITERAL.matcher(s).matches() || !containsMantissaDigit(s)) {
      return Conversion.fail("could not convert string to float: " + PythonRepr.repr(text));
    }
    return Conversion.ok(Double.parseDouble(s.replace("_", "")));
  }

  private static boolean containsMantissaDigit(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == 'e' || c == 'E') {
        return false;
      }
      if (c >= '0' && c <= '9') {
        return true;
      }
    }
    return false;
  }

  /**
   * Python {@code float(x)} for a JSON value: numbers convert (integers exactly rounded), booleans
   * are 1.0 / 0.0, strings are parsed as Python float literals; null, arrays and objects fail.
   */
  public static Conversion<Double> toFloat(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return Conversion.fail("float() argument must be a string or a real number, not 'NoneType'");
    }
    if (node.isBoolean()) {
      return Conversion.ok(node.booleanValue() ? 1.0 : 0.0);
    }
    if (node.isNumber()) {
      if (node.isBigInteger()) {
        double d = node.bigIntegerValue().doubleValue();
        return Double.isInfinite(d)
            ? Conversion.fail("int too large to convert to float")
            : Conversion.ok(d);
      }
      return Conversion.ok(node.doubleValue());
    }
    if (node.isTextual()) {
      return parseFloat(node.textValue());
    }
    return Conversion.fail("float() argument must be a string or a real number, not '"
        + typeName(node) + "'");
  }

  /**
   * Python {@code int(x)} for a JSON value, restricted to what is unambiguous: integers, floats
   * with an integral value, and integer strings ({@link #parseInt}). Fractional floats (which
   * Python would truncate) and booleans are refused.
   */
  public static Conversion<Integer> toInt(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return Conversion.fail(
          "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
    }
    if (node.isIntegralNumber()) {
      if (!node.canConvertToInt()) {
        return Conversion.fail("value " + node.asText() + " is out of range");
      }
      return Conversion.ok(node.intValue());
    }
    if (node.isFloatingPointNumber()) {
      double d = node.doubleValue();
      if (!Double.isFinite(d) || d != Math.rint(d)) {
        return Conversion.fail("expected an integer, got " + floatRepr(d));
      }
      if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
        return Conversion.fail("value " + floatRepr(d) + " is out of range");
      }
      return Conversion.ok((int) d);
    }
    if (node.isTextual()) {
      return parseInt(node.textValue());
    }
    return Conversion.fail("expected an integer, got " + typeName(node));
  }

  /** The Python type name of a parsed JSON value (as in Python's error messages). */
  public static String typeName(@Nullable JsonNode node) {
    if (node == null || node.isNull()) {
      return "NoneType";
    }
    if (node.isBoolean()) {
      return "bool";
    }
    if (node.isIntegralNumber()) {
      return "int";
    }
    if (node.isNumber()) {
      return "float";
    }
    if (node.isTextual()) {
      return "str";
    }
    if (node.isArray()) {
      return "list";
    }
    return "dict";
  }

  /** Python's {@code str.strip()} with no argument: removes Unicode whitespace at both ends. */
  public static String strip(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isSpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isSpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  private static boolean isSpace(char c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u0085';
  }

  /**
   * {@code format(x, ".Nf")}: fixed notation with {@code digits} decimals, rounded half-even on the
   * exact binary value (0.90625 → {@code 0.9062} with 4, {@code 90.62} after ×100 with 2), as
   * CPython does; {@code nan}, {@code inf}, {@code -inf} for non-finite values, and {@code -0.00}
   * for a negative value that rounds to zero.
   */
  public static String formatFixed(double x, int digits) {
    if (Double.isNaN(x)) {
      return "nan";
    }
    if (Double.isInfinite(x)) {
      return x > 0 ? "inf" : "-inf";
    }
    String plain = new java.math.BigDecimal(x)
        .setScale(digits, java.math.RoundingMode.HALF_EVEN).toPlainString();
    boolean negative = x < 0 || (x == 0.0 && 1 / x < 0);
    return negative && !plain.startsWith("-") ? "-" + plain : plain;
  }

  /**
   * Python {@code int(x)} for any JSON value: booleans are 0/1, integers stay, finite floats
   * truncate toward zero, strings parse as base-10 integer literals ({@link #parseInt}); empty
   * when Python would raise (null, containers, non-finite floats, non-integer strings) or the
   * value is beyond {@code long}.
   */
  public static java.util.OptionalLong truncatingInt(@Nullable JsonNode node) {
    if (node == null || node.isNull() || node.isContainerNode()) {
      return java.util.OptionalLong.empty();
    }
    if (node.isBoolean()) {
      return java.util.OptionalLong.of(node.booleanValue() ? 1 : 0);
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? java.util.OptionalLong.of(node.longValue())
          : java.util.OptionalLong.empty();
    }
    if (node.isNumber()) {
      double d = node.doubleValue();
      if (!Double.isFinite(d) || Math.abs(d) >= 9.2e18) {
        return java.util.OptionalLong.empty();
      }
      return java.util.OptionalLong.of((long) d);
    }
    if (node.isTextual()) {
      Conversion<Integer> c = parseInt(node.textValue());
      return c.ok() ? java.util.OptionalLong.of(c.value().get()) : java.util.OptionalLong.empty();
    }
    return java.util.OptionalLong.empty();
  }
}
