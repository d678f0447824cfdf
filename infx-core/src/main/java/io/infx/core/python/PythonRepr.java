package io.infx.core.python;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Python's {@code repr()} and {@code str()} of values, for messages and labels the reference
 * words that way ({@code ['a', 'b']}, {@code {'k': 1}}, {@code "it's"}, {@code True},
 * {@code None}, {@code 1e-05}).
 *
 * <p>String quoting follows CPython: single quotes unless the text contains a single quote and no
 * double quote; backslashes, the chosen quote, {@code \t \n \r} and non-printable characters are
 * escaped ({@code \x07}, {@code \xa0}, {@code \u2028}).
 */
public final class PythonRepr {

  private PythonRepr() {}

  /**
   * {@code repr(value)} for Java values standing in for Python ones: {@code null} → {@code None},
   * {@link Boolean}, {@link String}, floating-point and integral {@link Number}s, {@link Collection}
   * (a list), {@link Map} (a dict, in iteration order) and parsed {@link JsonNode}s.
   */
  public static String repr(@Nullable Object value) {
    StringBuilder sb = new StringBuilder();
    appendRepr(sb, value);
    return sb.toString();
  }

  /** {@code str(node)}: the text itself for a JSON string, {@link #repr} for everything else. */
  public static String str(@Nullable JsonNode node) {
    if (node != null && node.isTextual()) {
      return node.textValue();
    }
    return repr(node);
  }

  /** {@code repr(float)} as Python prints it outside JSON ({@code inf}, {@code nan}). */
  public static String floatRepr(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    return PythonNumbers.floatRepr(d);
  }

  private static void appendRepr(StringBuilder sb, Object value) {
    if (value == null) {
      sb.append("None");
    } else if (value instanceof CharSequence s) {
      appendString(sb, s.toString());
    } else if (value instanceof Boolean b) {
      sb.append(b ? "True" : "False");
    } else if (value instanceof Double || value instanceof Float) {
      sb.append(floatRepr(((Number) value).doubleValue()));
    } else if (value instanceof JsonNode n) {
      appendNode(sb, n);
    } else if (value instanceof Collection<?> c) {
      sb.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        appendRepr(sb, o);
      }
      sb.append(']');
    } else if (value instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        appendRepr(sb, e.getKey());
        sb.append(": ");
        appendRepr(sb, e.getValue());
      }
      sb.append('}');
    } else {
      sb.append(value);
    }
  }

  private static void appendNode(StringBuilder sb, JsonNode n) {
    if (n.isNull() || n.isMissingNode()) {
      sb.append("None");
    } else if (n.isTextual()) {
      appendString(sb, n.textValue());
    } else if (n.isBoolean()) {
      sb.append(n.booleanValue() ? "True" : "False");
    } else if (n.isIntegralNumber()) {
      sb.append(n.bigIntegerValue());
    } else if (n.isNumber()) {
      sb.append(floatRepr(n.doubleValue()));
    } else if (n.isArray()) {
      sb.append('[');
      for (int i = 0; i < n.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        appendNode(sb, n.get(i));
      }
      sb.append(']');
    } else if (n.isObject()) {
      sb.append('{');
      Iterator<Map.Entry<String, JsonNode>> it = n.fields();
      boolean first = true;
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!first) {
          sb.append(", ");
        }
        first = false;
        appendString(sb, e.getKey());
        sb.append(": ");
        appendNode(sb, e.getValue());
      }
      sb.append('}');
    } else {
      appendString(sb, n.asText());
    }
  }

  private static void appendString(StringBuilder sb, String s) {
    char quote = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
    sb.append(quote);
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (cp == '\\') {
        sb.append("\\\\");
      } else if (cp == quote) {
        sb.append('\\').append(quote);
      } else if (cp == '\n') {
        sb.append("\\n");
      } else if (cp == '\r') {
        sb.append("\\r");
      } else if (cp == '\t') {
        sb.append("\\t");
      } else if (!printable(cp)) {
        if (cp <= 0xff) {
          sb.append(String.format("\\x%02x", cp));
        } else if (cp <= 0xffff) {
          sb.append(String.format("\\u%04x", cp));
        } else {
          sb.append(String.format("\\U%08x", cp));
        }
      } else {
        sb.appendCodePoint(cp);
      }
    }
    sb.append(quote);
  }

  /** CPython's {@code str.isprintable()} for one code point (space is printable). */
  private static boolean printable(int cp) {
    if (cp == ' ') {
      return true;
    }
    return switch (Character.getType(cp)) {
      case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
          Character.UNASSIGNED, Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR -> false;
      default -> true;
    };
  }
}
