package io.infx.fleet.internal;

import io.infx.core.python.PythonJson;
import java.util.List;
import java.util.Map;

/** How row values become environment strings, the way the reference's workflow renders them. */
public final class EnvValues {

  private EnvValues() {}

  /**
   * Scalar text of a row value: strings verbatim, integers in decimal, booleans
   * {@code true}/{@code false}, {@code null} as the empty string; objects and lists as JSON text
   * ({@link #json}).
   */
  public static String text(Object v) {
    if (v == null) {
      return "";
    }
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Map<?, ?> || v instanceof List<?>) {
      return json(v);
    }
    return v.toString();
  }

  /**
   * JSON text with Python {@code json.dumps} defaults — {@code ", "} and {@code ": "} separators,
   * non-ASCII escaped as {@code \\uXXXX} — because that is the form the reference's result
   * processing sees in {@code ROUTER_METADATA} (results corpus case 006).
   */
  public static String json(Object v) {
    return PythonJson.dumpsValue(v);
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
