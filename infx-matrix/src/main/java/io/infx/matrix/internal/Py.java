package io.infx.matrix.internal;

import java.util.Collection;
import java.util.Map;

/** Python-style rendering of lists and dicts, for messages the reference words that way. */
public final class Py {

  private Py() {}

  /** {@code ['a', 'b']}, {@code {'k': ['v']}}, {@code 12}, {@code True}. */
  public static String repr(Object value) {
    if (value == null) {
      return "None";
    }
    if (value instanceof String s) {
      return s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? "\"" + s + "\"" : "'" + s.replace("'", "\\'") + "'";
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (value instanceof Collection<?> c) {
      StringBuilder sb = new StringBuilder("[");
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        sb.append(repr(o));
      }
      return sb.append(']').toString();
    }
    if (value instanceof Map<?, ?> m) {
      StringBuilder sb = new StringBuilder("{");
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        sb.append(repr(e.getKey())).append(": ").append(repr(e.getValue()));
      }
      return sb.append('}').toString();
    }
    return String.valueOf(value);
  }
}
