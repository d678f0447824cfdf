package io.infx.matrix.internal;

import io.infx.core.pyjson.PythonJson;
import java.util.Collection;
import java.util.Map;

/**
 * JSON text exactly as Python's {@code json.dumps} writes it by default: {@code ", "} and
 * {@code ": "} separators, ASCII-only output (non-ASCII as {@code \\uXXXX}, astral characters as
 * surrogate pairs), Python's escapes for control characters. Or compact ({@code ","}, {@code ":"}).
 */
public final class PyJson {

  private PyJson() {}

  /** {@code json.dumps(value)}. */
  public static String dumps(Object value) {
    StringBuilder sb = new StringBuilder(256);
    write(sb, value, ", ", ": ", false);
    return sb.toString();
  }

  /** {@code json.dumps(value, separators=(",", ":"), sort_keys=sortKeys)}. */
  public static String compact(Object value, boolean sortKeys) {
    StringBuilder sb = new StringBuilder(256);
    write(sb, value, ",", ":", sortKeys);
    return sb.toString();
  }

  /** Appends {@code value} to {@code sb} with the given separators. */
  public static void write(StringBuilder sb, Object value, String itemSep, String keySep, boolean sortKeys) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      string(sb, s);
    } else if (value instanceof Boolean b) {
      sb.append(b ? "true" : "false");
    } else if (value instanceof Number n) {
      sb.append(n);
    } else if (value instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      Iterable<? extends Map.Entry<?, ?>> entries = m.entrySet();
      if (sortKeys) {
        java.util.TreeMap<String, Object> sorted = new java.util.TreeMap<>(PythonJson.CODE_POINT_ORDER);
        for (Map.Entry<?, ?> e : m.entrySet()) {
          sorted.put((String) e.getKey(), e.getValue());
        }
        entries = sorted.entrySet();
      }
      for (Map.Entry<?, ?> e : entries) {
        if (!first) {
          sb.append(itemSep);
        }
        first = false;
        string(sb, (String) e.getKey());
        sb.append(keySep);
        write(sb, e.getValue(), itemSep, keySep, sortKeys);
      }
      sb.append('}');
    } else if (value instanceof Collection<?> c) {
      sb.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          sb.append(itemSep);
        }
        first = false;
        write(sb, o, itemSep, keySep, sortKeys);
      }
      sb.append(']');
    } else {
      throw new IllegalArgumentException("not a JSON value: " + value.getClass());
    }
  }

  static void string(StringBuilder sb, String s) {
    PythonJson.appendString(sb, s);
  }
}
