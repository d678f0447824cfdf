package io.infx.fleet.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.python.PythonJson;
import java.util.Iterator;
import java.util.Map;

/** How row values become environment strings, the way the reference's workflow renders them. */
public final class EnvValues {

  private EnvValues() {}

  /**
   * Scalar text: strings verbatim (so {@code "False"} stays {@code False}), integers in decimal,
   * booleans {@code true}/{@code false}, {@code null}/absent as the empty string; objects and
   * arrays as JSON text ({@link #json}).
   */
  public static String text(JsonNode v) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return "";
    }
    if (v.isTextual()) {
      return v.textValue();
    }
    if (v.isBoolean()) {
      return v.booleanValue() ? "true" : "false";
    }
    if (v.isContainerNode()) {
      return json(v);
    }
    return v.asText();
  }

  /**
   * JSON text with Python {@code json.dumps} defaults — {@code ", "} and {@code ": "} separators,
   * non-ASCII escaped as {@code \\uXXXX} — because that is the form the reference's result
   * processing sees in {@code ROUTER_METADATA} (results corpus case 006).
   */
  public static String json(JsonNode v) {
    StringBuilder sb = new StringBuilder();
    write(v, sb);
    return sb.toString();
  }

  private static void write(JsonNode v, StringBuilder sb) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      sb.append("null");
    } else if (v.isObject()) {
      sb.append('{');
      Iterator<Map.Entry<String, JsonNode>> it = v.fields();
      boolean first = true;
      while (it.hasNext()) {
        var e = it.next();
        if (!first) {
          sb.append(", ");
        }
        first = false;
        string(e.getKey(), sb);
        sb.append(": ");
        write(e.getValue(), sb);
      }
      sb.append('}');
    } else if (v.isArray()) {
      sb.append('[');
      for (int i = 0; i < v.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        write(v.get(i), sb);
      }
      sb.append(']');
    } else if (v.isTextual()) {
      string(v.textValue(), sb);
    } else if (v.isBoolean()) {
      sb.append(v.booleanValue() ? "true" : "false");
    } else {
      sb.append(v.asText());
    }
  }

  private static void string(String s, StringBuilder sb) {
    PythonJson.appendString(sb, s);
  }

  /** {@code srt-recipe} → {@code SRT_RECIPE}: upper case, every non-alphanumeric becomes {@code _}. */
  public static String upperSnake(String key) {
    StringBuilder sb = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      sb.append(Character.isLetterOrDigit(c) && c < 0x80 ? Character.toUpperCase(c) : '_');
    }
    return sb.toString();
  }
}
