package io.infx.store.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JavaScript value semantics the reference mappers rely on (they are TypeScript): truthiness,
 * {@code String()}, {@code Number()}, {@code parseFloat}, {@code parseInt(s, 10)}, {@code
 * Math.round}. Artifact rows are Jackson trees; a JavaScript {@code undefined} is a Java
 * {@code null} or a {@link MissingNode}, a JavaScript {@code null} is a {@code NullNode}.
 */
final class Js {

  /** Largest integer a double holds exactly ({@code Number.MAX_SAFE_INTEGER}). */
  static final double MAX_SAFE_INTEGER = 9007199254740991d;

  private static final Pattern DECIMAL_LITERAL =
      Pattern.compile("[+-]?(?:\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)");
  private static final Pattern FLOAT_PREFIX =
      Pattern.compile("^[+-]?(?:Infinity|\\d+\\.?\\d*(?:[eE][+-]?\\d+)?|\\.\\d+(?:[eE][+-]?\\d+)?)");
  private static final Pattern INT_PREFIX = Pattern.compile("^[+-]?\\d+");

  private Js() {}

  static boolean isUndefined(JsonNode v) {
    return v == null || v.isMissingNode();
  }

  /** {@code v === null || v === undefined}. */
  static boolean isNullish(JsonNode v) {
    return v == null || v.isMissingNode() || v.isNull();
  }

  /** {@code a ?? b}. */
  static JsonNode coalesce(JsonNode a, JsonNode b) {
    return isNullish(a) ? b : a;
  }

  /** A property read: {@code obj?.[key]}; undefined (null) when obj is not an object. */
  static JsonNode get(JsonNode obj, String key) {
    if (obj == null || !obj.isObject()) {
      return null;
    }
    return obj.get(key);
  }

  /** JavaScript truthiness. */
  static boolean truthy(JsonNode v) {
    if (isNullish(v)) {
      return false;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    if (v.isNumber()) {
      double d = v.doubleValue();
      return d != 0 && !Double.isNaN(d);
    }
    if (v.isTextual()) {
      return !v.textValue().isEmpty();
    }
    return true;
  }

  /** {@code typeof v === 'number'}. */
  static boolean isNumber(JsonNode v) {
    return v != null && v.isNumber();
  }

  /** {@code typeof v === 'string'}. */
  static boolean isString(JsonNode v) {
    return v != null && v.isTextual();
  }

  /** {@code v && typeof v === 'object' && !Array.isArray(v)}. */
  static boolean isPlainObject(JsonNode v) {
    return v != null && v.isObject();
  }

  /** JavaScript {@code String(v)}. */
  static String string(JsonNode v) {
    if (isUndefined(v)) {
      return "undefined";
    }
    if (v.isNull()) {
      return "null";
    }
    if (v.isTextual()) {
      return v.textValue();
    }
    if (v.isBoolean()) {
      return v.booleanValue() ? "true" : "false";
    }
    if (v.isNumber()) {
      return numberToString(v.doubleValue());
    }
    if (v.isArray()) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < v.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        JsonNode e = v.get(i);
        if (!isNullish(e)) {
          b.append(string(e));
        }
      }
      return b.toString();
    }
    return "[object Object]";
  }

  /** JavaScript {@code Number.prototype.toString()} for the values ingest meets. */
  static String numberToString(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return "0";
    }
    double abs = Math.abs(d);
    if (d == Math.rint(d) && abs < 1e21) {
      return new BigDecimal(d).toPlainString();
    }
    if (abs >= 1e-6 && abs < 1e21) {
      return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
    String s = Double.toString(d).replace("E", "e");
    int e = s.indexOf('e');
    String mantissa = s.substring(0, e);
    if (mantissa.endsWith(".0")) {
      mantissa = mantissa.substring(0, mantissa.length() - 2);
    }
    String exp = s.substring(e + 1);
    return mantissa + "e" + (exp.startsWith("-") ? exp : "+" + exp);
  }

  /** JavaScript {@code Number(v)}. */
  static double number(JsonNode v) {
    if (isUndefined(v)) {
      return Double.NaN;
    }
    if (v.isNull()) {
      return 0;
    }
    if (v.isBoolean()) {
      return v.booleanValue() ? 1 : 0;
    }
    if (v.isNumber()) {
      return v.doubleValue();
    }
    if (v.isTextual()) {
      return stringToNumber(v.textValue());
    }
    if (v.isArray()) {
      return stringToNumber(string(v));
    }
    return Double.NaN;
  }

  /** JavaScript {@code Number(s)} for a string: the whole trimmed text must be a literal. */
  static double stringToNumber(String raw) {
    String s = raw.strip();
    if (s.isEmpty()) {
      return 0;
    }
    switch (s) {
      case "Infinity", "+Infinity" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-Infinity" -> {
        return Double.NEGATIVE_INFINITY;
      }
      default -> { }
    }
    if (s.length() > 2 && s.charAt(0) == '0') {
      char p = Character.toLowerCase(s.charAt(1));
      int radix = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
      if (radix != 0) {
        try {
          return new java.math.BigInteger(s.substring(2), radix).doubleValue();
        } catch (NumberFormatException e) {
          return Double.NaN;
        }
      }
    }
    if (!DECIMAL_LITERAL.matcher(s).matches()) {
      return Double.NaN;
    }
    return Double.parseDouble(s);
  }

  /** JavaScript {@code parseFloat(s)}: the longest numeric prefix after leading white space. */
  static double parseFloat(String raw) {
    String s = raw.stripLeading();
    Matcher m = FLOAT_PREFIX.matcher(s);
    if (!m.find()) {
      return Double.NaN;
    }
    String lit = m.group();
    if (lit.endsWith("Infinity")) {
      return lit.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    return Double.parseDouble(lit);
  }

  /** JavaScript {@code parseInt(s, 10)}. */
  static double parseInt(String raw) {
    String s = raw.stripLeading();
    Matcher m = INT_PREFIX.matcher(s);
    if (!m.find()) {
      return Double.NaN;
    }
    return new BigDecimal(m.group()).doubleValue();
  }

  /** JavaScript {@code Math.round(x)}: halves round towards +∞. */
  static double round(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x) || Math.abs(x) >= 4503599627370496d) {
      return x;
    }
    double f = Math.floor(x);
    return x - f >= 0.5 ? f + 1 : f;
  }

  /** {@code Number.isSafeInteger(n)}. */
  static boolean isSafeInteger(double n) {
    return !Double.isNaN(n) && !Double.isInfinite(n) && n == Math.rint(n) && Math.abs(n) <= MAX_SAFE_INTEGER;
  }

  /** A JSON number node as JavaScript would print it: integral values without a fraction. */
  static JsonNode numberNode(double d) {
    if (isSafeInteger(d) && !(d == 0 && 1 / d < 0)) {
      return LongNode.valueOf((long) d);
    }
    return DoubleNode.valueOf(d);
  }

  static JsonNodeFactory nodes() {
    return JsonNodeFactory.instance;
  }

  static Iterator<java.util.Map.Entry<String, JsonNode>> entries(JsonNode obj) {
    return obj.properties().iterator();
  }
}
