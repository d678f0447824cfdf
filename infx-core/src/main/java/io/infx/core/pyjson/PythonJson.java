package io.infx.core.pyjson;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON text exactly as CPython's {@code json.dumps} writes it, for outputs that must match the
 * reference byte for byte: {@code indent=N} (items on their own lines, separators {@code ","} and
 * {@code ": "}) or the default one-line form ({@code ", "} and {@code ": "}), optional
 * {@code sort_keys} (code-point order), ASCII-only output ({@code ensure_ascii}: everything outside
 * {@code ' '..'~'} as {@code \\uXXXX}, astral characters as surrogate pairs), empty containers as
 * {@code []} / {@code {}}, and floats in {@code repr} form (shortest round-trip digits,
 * {@code 1e-05}, {@code 1e+16}, {@code 5e-324}, {@code NaN}, {@code Infinity}). Checked against
 * CPython 3.11 output in the tests.
 */
public final class PythonJson {

  private PythonJson() {}

  /** {@code json.dumps(node)}: one line, separators {@code ", "} and {@code ": "}. */
  public static String dumps(JsonNode node) {
    return dumps(node, -1, false);
  }

  /** {@code json.dumps(node, indent=indent)}; {@code indent < 0} means the one-line form. */
  public static String dumps(JsonNode node, int indent) {
    return dumps(node, indent, false);
  }

  /** {@code json.dumps(node, indent=indent, sort_keys=sortKeys)}. */
  public static String dumps(JsonNode node, int indent, boolean sortKeys) {
    StringBuilder sb = new StringBuilder();
    write(sb, node, indent, 0, sortKeys, indent >= 0 ? "," : ", ", ": ");
    return sb.toString();
  }

  /**
   * {@code json.dumps(node, sort_keys=True, separators=(",", ":"))}: the canonical one-line form
   * without whitespace (the reference's recipe fingerprint and structural comparisons).
   */
  public static String dumpsCompactSorted(JsonNode node) {
    StringBuilder sb = new StringBuilder();
    write(sb, node, -1, 0, true, ",", ":");
    return sb.toString();
  }

  /** Python's ordering of {@code str} keys: by Unicode code point (not UTF-16 unit). */
  public static final java.util.Comparator<String> CODE_POINT_ORDER = (a, b) -> {
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

  private static void write(StringBuilder sb, JsonNode node, int indent, int level, boolean sortKeys,
      String itemSep, String keySep) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      sb.append("null");
    } else if (node.isBoolean()) {
      sb.append(node.booleanValue() ? "true" : "false");
    } else if (node.isIntegralNumber()) {
      sb.append(node.bigIntegerValue().toString());
    } else if (node.isNumber()) {
      sb.append(floatRepr(node.doubleValue()));
    } else if (node.isTextual()) {
      appendString(sb, node.textValue());
    } else if (node.isArray()) {
      if (node.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append('[');
      Iterator<JsonNode> it = node.elements();
      boolean first = true;
      while (it.hasNext()) {
        if (!first) {
          sb.append(itemSep);
        }
        first = false;
        newline(sb, indent, level + 1);
        write(sb, it.next(), indent, level + 1, sortKeys, itemSep, keySep);
      }
      newline(sb, indent, level);
      sb.append(']');
    } else if (node.isObject()) {
      if (node.isEmpty()) {
        sb.append("{}");
        return;
      }
      sb.append('{');
      Iterator<Map.Entry<String, JsonNode>> it = node.fields();
      if (sortKeys) {
        java.util.List<Map.Entry<String, JsonNode>> entries = new java.util.ArrayList<>();
        it.forEachRemaining(entries::add);
        entries.sort(Map.Entry.comparingByKey(CODE_POINT_ORDER));
        it = entries.iterator();
      }
      boolean first = true;
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!first) {
          sb.append(itemSep);
        }
        first = false;
        newline(sb, indent, level + 1);
        appendString(sb, e.getKey());
        sb.append(keySep);
        write(sb, e.getValue(), indent, level + 1, sortKeys, itemSep, keySep);
      }
      newline(sb, indent, level);
      sb.append('}');
    } else {
      // POJO or binary nodes never occur in parsed JSON; render their text form.
      appendString(sb, node.asText());
    }
  }

  private static void newline(StringBuilder sb, int indent, int level) {
    if (indent < 0) {
      return;
    }
    sb.append('\n');
    sb.append(" ".repeat(indent * level));
  }

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /**
   * Appends {@code s} as a JSON string literal with {@code ensure_ascii} escaping: Python's short
   * escapes for {@code " \\ \n \r \t \b \f}, everything else outside {@code ' '..'~'} as a
   * lowercase {@code \\uXXXX} (astral characters as their surrogate pair).
   */
  public static void appendString(StringBuilder sb, CharSequence s) {
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
            sb.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  /**
   * Python's {@code repr(float)}: the shortest decimal that round-trips, written in fixed notation
   * when the decimal exponent is in [-4, 16) and in scientific notation ({@code 1e-05},
   * {@code 1.2345678901234568e+17}) otherwise; whole values keep a {@code .0}.
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
    // Schubfach yields the shortest round-trip digits (Java's format, e.g. "4.0168721560427855E-5");
    // extract digits and exponent and re-render them the way Python does.
    String java = DoubleToDecimal.toString(d);
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
      // Java renders at least two significant digits; Python may need only one (5e-324).
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

    StringBuilder sb = new StringBuilder();
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
    java.math.BigDecimal exact = new java.math.BigDecimal(d);
    java.math.BigDecimal bestDistance = null;
    for (int candidate : new int[] {first, first + 1}) {
      java.math.BigDecimal value = java.math.BigDecimal.valueOf(candidate).scaleByPowerOfTen(decpt - 1);
      if (value.doubleValue() != d) {
        continue;
      }
      java.math.BigDecimal distance = value.subtract(exact).abs();
      if (bestDistance == null || distance.compareTo(bestDistance) < 0) {
        best = Integer.toString(candidate);
        bestDistance = distance;
      }
    }
    return best;
  }
}
