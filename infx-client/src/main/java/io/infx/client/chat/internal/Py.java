package io.infx.client.chat.internal;

import io.infx.core.python.PythonJson;
import io.infx.core.python.PythonRepr;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Python value semantics for template values: {@code null} is {@code None}, {@link Boolean},
 * {@link Long} ({@code int}), {@link Double} ({@code float}), {@link String}, {@link List}
 * ({@code list}; {@link PyTuple} for tuples), {@link Map} ({@code dict}, insertion-ordered),
 * {@link Namespace}, {@link PyCallable} and {@link Undefined}. Truthiness, {@code str()},
 * {@code repr()}, equality and ordering follow CPython.
 */
final class Py {

  private Py() {}

  static String typeName(Object v) {
    if (v == null) {
      return "NoneType";
    }
    if (v instanceof Boolean) {
      return "bool";
    }
    if (v instanceof Long) {
      return "int";
    }
    if (v instanceof Double) {
      return "float";
    }
    if (v instanceof String) {
      return "str";
    }
    if (v instanceof PyTuple) {
      return "tuple";
    }
    if (v instanceof List) {
      return "list";
    }
    if (v instanceof Map) {
      return "dict";
    }
    if (v instanceof Namespace) {
      return "Namespace";
    }
    if (v instanceof Undefined) {
      return "Undefined";
    }
    if (v instanceof LoopInfo) {
      return "LoopContext";
    }
    if (v instanceof PyCallable) {
      return "function";
    }
    return v.getClass().getSimpleName();
  }

  static TemplateError typeError(String msg) {
    return new TemplateError("TypeError: " + msg);
  }

  static boolean truthy(Object v) {
    if (v == null || v instanceof Undefined) {
      return false;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof Long l) {
      return l != 0;
    }
    if (v instanceof Double d) {
      return d != 0.0;
    }
    if (v instanceof String s) {
      return !s.isEmpty();
    }
    if (v instanceof List<?> l) {
      return !l.isEmpty();
    }
    if (v instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return true;
  }

  /** Python {@code str(v)}; undefined renders as the empty string. */
  static String str(Object v) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof Undefined) {
      return "";
    }
    return repr(v);
  }

  static String repr(Object v) {
    StringBuilder sb = new StringBuilder();
    repr(sb, v);
    return sb.toString();
  }

  private static void repr(StringBuilder sb, Object v) {
    if (v == null) {
      sb.append("None");
    } else if (v instanceof Boolean b) {
      sb.append(b ? "True" : "False");
    } else if (v instanceof Long l) {
      sb.append(l);
    } else if (v instanceof Double d) {
      sb.append(floatRepr(d));
    } else if (v instanceof String s) {
      reprString(sb, s);
    } else if (v instanceof PyTuple t) {
      sb.append('(');
      for (int i = 0; i < t.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        repr(sb, t.get(i));
      }
      sb.append(t.size() == 1 ? ",)" : ")");
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        repr(sb, l.get(i));
      }
      sb.append(']');
    } else if (v instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          sb.append(", ");
        }
        first = false;
        repr(sb, e.getKey());
        sb.append(": ");
        repr(sb, e.getValue());
      }
      sb.append('}');
    } else if (v instanceof Namespace ns) {
      sb.append("<Namespace ");
      repr(sb, ns.attrs);
      sb.append('>');
    } else if (v instanceof Undefined) {
      sb.append("Undefined");
    } else {
      sb.append('<').append(typeName(v)).append('>');
    }
  }

  /** {@code repr(float)}: infx-core's one home for the rule ({@code nan}, {@code inf}, {@code 1e+20}). */
  static String floatRepr(double d) {
    return PythonRepr.floatRepr(d);
  }

  /** {@code repr(str)}: infx-core's one home for the rule (quote choice, escapes). */
  static void reprString(StringBuilder sb, String s) {
    sb.append(PythonRepr.repr(s));
  }

  /** CPython's {@code str.isspace()} for one code point. */
  static boolean isSpace(int c) {
    return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c == 0x85 || c == 0xa0
        || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029
        || c == 0x202f || c == 0x205f || c == 0x3000;
  }

  static boolean isNumber(Object v) {
    return v instanceof Long || v instanceof Double || v instanceof Boolean;
  }

  static double toDouble(Object v) {
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    return ((Number) v).doubleValue();
  }

  static long toLong(Object v) {
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    return ((Number) v).longValue();
  }

  static boolean isIntLike(Object v) {
    return v instanceof Long || v instanceof Boolean;
  }

  static boolean eq(Object a, Object b) {
    if (a == b) {
      return true;
    }
    if (a == null || b == null) {
      return false;
    }
    if (a instanceof Undefined || b instanceof Undefined) {
      return a instanceof Undefined && b instanceof Undefined;
    }
    if (isNumber(a) && isNumber(b)) {
      if (isIntLike(a) && isIntLike(b)) {
        return toLong(a) == toLong(b);
      }
      return toDouble(a) == toDouble(b);
    }
    if (a instanceof String || b instanceof String) {
      return a.equals(b);
    }
    if (a instanceof List<?> la && b instanceof List<?> lb) {
      if ((a instanceof PyTuple) != (b instanceof PyTuple) || la.size() != lb.size()) {
        return false;
      }
      for (int i = 0; i < la.size(); i++) {
        if (!eq(la.get(i), lb.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> ma && b instanceof Map<?, ?> mb) {
      if (ma.size() != mb.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : ma.entrySet()) {
        Object k = findKey(mb, e.getKey());
        if (k == NO_KEY || !eq(e.getValue(), mb.get(k))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  static final Object NO_KEY = new Object();

  /** The key of {@code m} equal to {@code key} in Python's sense (1 == 1.0 == True), or NO_KEY. */
  static Object findKey(Map<?, ?> m, Object key) {
    if (m.containsKey(key)) {
      return key;
    }
    if (isNumber(key) || key == null) {
      for (Object k : m.keySet()) {
        if (eq(k, key)) {
          return k;
        }
      }
    }
    return NO_KEY;
  }

  static int compare(Object a, Object b, String op) {
    if (isNumber(a) && isNumber(b)) {
      if (isIntLike(a) && isIntLike(b)) {
        return Long.compare(toLong(a), toLong(b));
      }
      return Double.compare(toDouble(a), toDouble(b));
    }
    if (a instanceof String sa && b instanceof String sb) {
      return PythonJson.CODE_POINT_ORDER.compare(sa, sb);
    }
    if (a instanceof List<?> la && b instanceof List<?> lb
        && (a instanceof PyTuple) == (b instanceof PyTuple)) {
      for (int i = 0; i < Math.min(la.size(), lb.size()); i++) {
        if (!eq(la.get(i), lb.get(i))) {
          return compare(la.get(i), lb.get(i), op);
        }
      }
      return Integer.compare(la.size(), lb.size());
    }
    if (a instanceof Undefined u) {
      throw u.error();
    }
    if (b instanceof Undefined u) {
      throw u.error();
    }
    throw typeError("'" + op + "' not supported between instances of '" + typeName(a) + "' and '"
        + typeName(b) + "'");
  }

  static boolean contains(Object container, Object item) {
    if (container instanceof String s) {
      if (!(item instanceof String i)) {
        if (item instanceof Undefined u) {
          throw u.error();
        }
        throw typeError("'in <string>' requires string as left operand, not " + typeName(item));
      }
      return s.contains(i);
    }
    if (container instanceof Map<?, ?> m) {
      return findKey(m, item) != NO_KEY;
    }
    if (container instanceof List<?> l) {
      for (Object o : l) {
        if (eq(o, item)) {
          return true;
        }
      }
      return false;
    }
    if (container instanceof Undefined) {
      return false;
    }
    if (container instanceof Namespace) {
      throw typeError("argument of type 'Namespace' is not iterable");
    }
    throw typeError("argument of type '" + typeName(container) + "' is not iterable");
  }

  /** Python iteration: lists, tuples, dict keys, string characters; undefined is empty. */
  static List<Object> iterate(Object v) {
    if (v instanceof List<?> l) {
      return new ArrayList<>(l);
    }
    if (v instanceof Map<?, ?> m) {
      return new ArrayList<>(m.keySet());
    }
    if (v instanceof String s) {
      List<Object> out = new ArrayList<>();
      s.codePoints().forEach(c -> out.add(new String(Character.toChars(c))));
      return out;
    }
    if (v instanceof Undefined) {
      return new ArrayList<>();
    }
    throw typeError("'" + typeName(v) + "' object is not iterable");
  }

  static long len(Object v) {
    if (v instanceof String s) {
      return s.codePointCount(0, s.length());
    }
    if (v instanceof List<?> l) {
      return l.size();
    }
    if (v instanceof Map<?, ?> m) {
      return m.size();
    }
    if (v instanceof Undefined) {
      return 0;
    }
    throw typeError("object of type '" + typeName(v) + "' has no len()");
  }

  /** Python sequence index (negative from the end); IndexError beyond. */
  static int index(long i, int size) {
    long j = i < 0 ? i + size : i;
    if (j < 0 || j >= size) {
      throw new IndexOutOfBoundsException();
    }
    return (int) j;
  }

  /** Code points of a string, so that indexing and slicing count characters as Python does. */
  static int[] codePoints(String s) {
    return s.codePoints().toArray();
  }

  static String fromCodePoints(int[] cps, int from, int to) {
    return new String(cps, from, to - from);
  }

  static Iterator<Object> iter(Object v) {
    return iterate(v).iterator();
  }
}
