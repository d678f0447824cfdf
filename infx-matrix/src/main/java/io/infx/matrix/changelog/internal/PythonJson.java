package io.infx.matrix.changelog.internal;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Canonical JSON text exactly as CPython's
 * {@code json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)} writes it:
 * keys sorted by code point at every level, no whitespace, every character outside printable
 * ASCII escaped as lowercase {@code \\uXXXX} (astral characters as surrogate pairs), floats in
 * Python's shortest {@code repr} form ({@code 1e-05}, {@code 0.0001}, {@code 1e+16},
 * {@code 100.0}, {@code NaN}, {@code Infinity}).
 *
 * <p>Used for the reference's recipe fingerprint and for order-insensitive structural comparison
 * of parsed YAML/JSON values.
 */
public final class PythonJson {

  private PythonJson() {}

  /** Sorting of dict keys as Python compares {@code str}: by Unicode code point. */
  public static final Comparator<String> CODE_POINT_ORDER = (a, b) -> {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  };

  /** The canonical text of {@code node}. */
  public static String dumpsSorted(JsonNode node) {
    StringBuilder sb = new StringBuilder();
    write(node, sb);
    return sb.toString();
  }

  private static void write(JsonNode node, StringBuilder sb) {
    switch (node.getNodeType()) {
      case OBJECT -> {
        List<Map.Entry<String, JsonNode>> entries = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = node.fields();
        it.forEachRemaining(entries::add);
        entries.sort(Map.Entry.comparingByKey(CODE_POINT_ORDER));
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> e : entries) {
          if (!first) {
            sb.append(',');
          }
          first = false;
          string(e.getKey(), sb);
          sb.append(':');
          write(e.getValue(), sb);
        }
        sb.append('}');
      }
      case ARRAY -> {
        sb.append('[');
        for (int i = 0; i < node.size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          write(node.get(i), sb);
        }
        sb.append(']');
      }
      case STRING -> string(node.textValue(), sb);
      case BOOLEAN -> sb.append(node.booleanValue() ? "true" : "false");
      case NULL -> sb.append("null");
      case NUMBER -> {
        if (node.isIntegralNumber()) {
          sb.append(node.bigIntegerValue().toString());
        } else {
          sb.append(floatRepr(node.doubleValue()));
        }
      }
      default -> throw new IllegalArgumentException(
          "Object of type " + node.getNodeType() + " is not JSON serializable");
    }
  }

  /** A JSON string literal with Python's {@code ensure_ascii} escaping. */
  public static void string(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20 || c > 0x7e) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  /** Python's {@code repr(float)} as {@code json.dumps} writes it (shortest round-trip digits). */
  public static String floatRepr(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return (1 / d < 0) ? "-0.0" : "0.0";
    }
    // Schubfach gives the shortest decimal that reads back as d (as CPython's repr does).
    BigDecimal shortest = new BigDecimal(DoubleToDecimal.toString(Math.abs(d))).stripTrailingZeros();
    if (shortest.precision() == 2) {
      // Java prints at least two digits; Python takes one when one digit reads back as d.
      BigDecimal one = new BigDecimal(Math.abs(d)).round(new java.math.MathContext(1,
          java.math.RoundingMode.HALF_EVEN));
      if (one.doubleValue() == Math.abs(d)) {
        shortest = one.stripTrailingZeros();
      }
    }
    String digits = shortest.unscaledValue().toString();
    int decpt = digits.length() - shortest.scale(); // d = 0.<digits> x 10^decpt
    StringBuilder sb = new StringBuilder();
    if (d < 0) {
      sb.append('-');
    }
    if (decpt <= -4 || decpt > 16) {
      sb.append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      int exp = decpt - 1;
      sb.append('e').append(exp < 0 ? '-' : '+');
      String e = Integer.toString(Math.abs(exp));
      if (e.length() < 2) {
        sb.append('0');
      }
      sb.append(e);
    } else if (decpt <= 0) {
      sb.append("0.").append("0".repeat(-decpt)).append(digits);
    } else if (decpt >= digits.length()) {
      sb.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
    } else {
      sb.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
    }
    return sb.toString();
  }
}
