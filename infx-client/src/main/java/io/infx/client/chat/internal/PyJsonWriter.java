package io.infx.client.chat.internal;

import java.util.List;
import java.util.Map;

/**
 * transformers' {@code tojson} filter: {@code json.dumps(x, ensure_ascii=False, indent=indent,
 * separators=separators, sort_keys=sort_keys)} on template values, byte for byte as CPython.
 */
final class PyJsonWriter {

  private final Integer indent;
  private final String itemSep;
  private final String keySep;
  private final boolean sortKeys;

  PyJsonWriter(Integer indent, String itemSep, String keySep, boolean sortKeys) {
    this.indent = indent;
    this.itemSep = itemSep != null ? itemSep : indent != null ? "," : ", ";
    this.keySep = keySep != null ? keySep : ": ";
    this.sortKeys = sortKeys;
  }

  String dumps(Object v) {
    StringBuilder sb = new StringBuilder();
    write(sb, v, 0);
    return sb.toString();
  }

  private void write(StringBuilder sb, Object v, int level) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof Boolean b) {
      sb.append(b ? "true" : "false");
    } else if (v instanceof Long l) {
      sb.append(l);
    } else if (v instanceof Double d) {
      sb.append(Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity")
          : io.infx.core.python.PythonNumbers.floatRepr(d));
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof List<?> l) {
      if (l.isEmpty()) {
        sb.append("[]");
        return;
      }
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(itemSep);
        }
        newline(sb, level + 1);
        write(sb, l.get(i), level + 1);
      }
      newline(sb, level);
      sb.append(']');
    } else if (v instanceof Map<?, ?> m) {
      if (m.isEmpty()) {
        sb.append("{}");
        return;
      }
      List<Map.Entry<?, ?>> entries = new java.util.ArrayList<>(m.entrySet());
      if (sortKeys) {
        entries.sort((a, b) -> Py.compare(a.getKey(), b.getKey(), "<"));
      }
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : entries) {
        if (!first) {
          sb.append(itemSep);
        }
        first = false;
        newline(sb, level + 1);
        string(sb, key(e.getKey()));
        sb.append(keySep);
        write(sb, e.getValue(), level + 1);
      }
      newline(sb, level);
      sb.append('}');
    } else {
      throw Py.typeError("Object of type " + Py.typeName(v) + " is not JSON serializable");
    }
  }

  private static String key(Object k) {
    if (k instanceof String s) {
      return s;
    }
    if (k == null) {
      return "null";
    }
    if (k instanceof Boolean b) {
      return b ? "true" : "false";
    }
    if (k instanceof Long || k instanceof Double) {
      return Py.repr(k);
    }
    throw Py.typeError("keys must be str, int, float, bool or None, not " + Py.typeName(k));
  }

  private void newline(StringBuilder sb, int level) {
    if (indent != null) {
      sb.append('\n').append(" ".repeat(indent * level));
    }
  }

  private static void string(StringBuilder sb, String s) {
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
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
