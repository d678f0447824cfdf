package io.infx.results.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.pyjson.PythonJson;
import java.math.BigInteger;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The number conversions the reference normalizer relies on, with Python's semantics: {@code int(str)}
 * for environment values and {@code float(x)} for raw JSON values. Each conversion returns an
 * explanation instead of a value when Python would raise, so callers can classify the error.
 */
public final class PyNumbers {

  private PyNumbers() {}

  /** Outcome of a conversion: a value, or the reason Python would have raised. */
  public record Conversion<T>(Optional<T> value, String problem) {
    static <T> Conversion<T> ok(T value) {
      return new Conversion<>(Optional.of(value), "");
    }

    static <T> Conversion<T> fail(String problem) {
      return new Conversion<>(Optional.empty(), problem);
    }

    public boolean ok() {
      return value.isPresent();
    }
  }

  /**
   * Python {@code int(text)} with base 10: surrounding whitespace is ignored, an optional sign,
   * decimal digits with single underscores between them. Values beyond {@code int} are refused
   * (no GPU count or sequence length is that large).
   */
  public static Conversion<Integer> parseInt(String text) {
    String s = pyStrip(text);
    int i = 0;
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '+' || s.charAt(0) == '-')) {
      negative = s.charAt(0) == '-';
      i = 1;
    }
    if (i >= s.length()) {
      return Conversion.fail(invalidLiteral(text));
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
        return Conversion.fail(invalidLiteral(text));
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

  private static String invalidLiteral(String text) {
    return "invalid literal for int() with base 10: " + pyRepr(text);
  }

  // Python's float() accepts decimal literals with underscores between digits, inf/nan words.
  private static final Pattern FLOAT_LITERAL = Pattern.compile(
      "[+-]?(?:(?:\\d(?:_?\\d)*)?\\.?(?:\\d(?:_?\\d)*)?)(?:[eE][+-]?\\d(?:_?\\d)*)?");
  private static final Pattern SPECIAL = Pattern.compile(
      "[+-]?(?:inf|infinity|nan)", Pattern.CASE_INSENSITIVE);

  /**
   * Python {@code float(x)} for a JSON value: numbers convert (integers exactly rounded), booleans
   * are 1.0 / 0.0, strings are parsed as Python float literals; null, arrays and objects fail.
   */
  public static Conversion<Double> toFloat(JsonNode node) {
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
        + pyTypeName(node) + "'");
  }

  /** Python {@code float(text)}. */
  public static Conversion<Double> parseFloat(String text) {
    String s = pyStrip(text);
    if (SPECIAL.matcher(s).matches()) {
      boolean negative = s.startsWith("-");
      String word = s.replaceFirst("^[+-]", "").toLowerCase(java.util.Locale.ROOT);
      if (word.equals("nan")) {
        return Conversion.ok(Double.NaN);
      }
      return Conversion.ok(negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
    }
    if (!FLOAT_LITERAL.matcher(s).matches() || !containsMantissaDigit(s)) {
      return Conversion.fail("could not convert string to float: " + pyRepr(text));
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
   * Python {@code int(x)} for a JSON value, restricted to what is unambiguous: integers, floats
   * with an integral value, and integer strings. Fractional floats (which Python would truncate)
   * and booleans are refused.
   */
  public static Conversion<Integer> toInt(JsonNode node) {
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
        return Conversion.fail("expected an integer, got " + PythonJson.floatRepr(d));
      }
      if (d < Integer.MIN_VALUE || d > Integer.MAX_VALUE) {
        return Conversion.fail("value " + PythonJson.floatRepr(d) + " is out of range");
      }
      return Conversion.ok((int) d);
    }
    if (node.isTextual()) {
      return parseInt(node.textValue());
    }
    return Conversion.fail("expected an integer, got " + pyTypeName(node));
  }

  /** The Python type name of a parsed JSON value (as in Python's error messages). */
  public static String pyTypeName(JsonNode node) {
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
  public static String pyStrip(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isPySpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isPySpace(s.charAt(end - 1))) {
      end--;
    }
    return s.substring(start, end);
  }

  private static boolean isPySpace(char c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u0085';
  }

  /** Python's {@code repr()} of a string, as it appears in error messages. */
  public static String pyRepr(String s) {
    String quote = s.contains("'") && !s.contains("\"") ? "\"" : "'";
    StringBuilder sb = new StringBuilder(quote);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\') {
        sb.append("\\\\");
      } else if (String.valueOf(c).equals(quote)) {
        sb.append('\\').append(c);
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c < 0x20 || c == 0x7f) {
        sb.append(String.format("\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append(quote).toString();
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
   * truncate toward zero, strings parse as base-10 integer literals; empty when Python would
   * raise (null, containers, non-finite floats, non-integer strings, values beyond {@code long}).
   */
  public static java.util.OptionalLong pyInt(JsonNode node) {
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
