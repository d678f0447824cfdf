package io.infx.client.chat.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** jinja2's built-in filters, plus transformers' {@code tojson}. */
final class Filters {

  private Filters() {}

  private static final java.util.Set<String> NAMES = java.util.Set.of("abs", "attr", "capitalize",
      "center", "count", "d", "default", "dictsort", "e", "escape", "first", "float", "format",
      "indent", "int", "items", "join", "last", "length", "list", "lower", "map", "max", "min",
      "reject", "rejectattr", "replace", "reverse", "round", "safe", "select", "selectattr", "sort",
      "string", "sum", "title", "tojson", "trim", "unique", "upper", "wordcount", "batch");

  static boolean exists(String name) {
    return NAMES.contains(name);
  }

  static Object apply(Interpreter in, String name, Object v, List<Object> a, Map<String, Object> kw) {
    switch (name) {
      case "safe":
        return v;
      case "string":
        return Py.str(v);
      case "length", "count":
        return Py.len(v);
      case "trim":
        return Methods.strip(Py.str(v), (String) arg(a, kw, 0, "chars", null), true, true);
      case "upper":
        return Py.str(v).toUpperCase(Locale.ROOT);
      case "lower":
        return Py.str(v).toLowerCase(Locale.ROOT);
      case "capitalize":
        return Methods.capitalize(Py.str(v));
      case "title":
        return Methods.title(Py.str(v));
      case "d", "default": {
        Object def = arg(a, kw, 0, "default_value", "");
        boolean bool = Py.truthy(arg(a, kw, 1, "boolean", false));
        return v instanceof Undefined || (bool && !Py.truthy(v)) ? def : v;
      }
      case "tojson": {
        Object ind = arg(a, kw, 0, "indent", null);
        Object seps = kw.get("separators");
        String itemSep = null;
        String keySep = null;
        if (seps instanceof List<?> l && l.size() == 2) {
          itemSep = (String) l.get(0);
          keySep = (String) l.get(1);
        }
        boolean ensureAscii = Py.truthy(kw.getOrDefault("ensure_ascii", false));
        String out = new PyJsonWriter(ind == null ? null : (int) Py.toLong(ind), itemSep, keySep,
            Py.truthy(kw.getOrDefault("sort_keys", false))).dumps(v);
        return ensureAscii ? asciiOnly(out) : out;
      }
      case "join": {
        String sep = Py.str(arg(a, kw, 0, "d", ""));
        Object attr = arg(a, kw, 1, "attribute", null);
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (Object o : Py.iterate(v)) {
          if (!first) {
            sb.append(sep);
          }
          first = false;
          sb.append(Py.str(attr == null ? o : in.attrPath(o, attr)));
        }
        return sb.toString();
      }
      case "items": {
        if (v instanceof Undefined) {
          return new ArrayList<>();
        }
        if (!(v instanceof Map<?, ?> m)) {
          throw Py.typeError("Can only get item pairs from a mapping.");
        }
        List<Object> out = new ArrayList<>();
        m.forEach((k, val) -> out.add(new PyTuple(java.util.Arrays.asList(k, val))));
        return out;
      }
      case "dictsort": {
        if (!(v instanceof Map<?, ?> m)) {
          throw Py.typeError("dictsort expects a mapping");
        }
        boolean cs = Py.truthy(arg(a, kw, 0, "case_sensitive", false));
        String by = (String) arg(a, kw, 1, "by", "key");
        boolean rev = Py.truthy(arg(a, kw, 2, "reverse", false));
        int pos = by.equals("value") ? 1 : 0;
        List<Object> out = new ArrayList<>();
        m.forEach((k, val) -> out.add(new PyTuple(java.util.Arrays.asList(k, val))));
        Comparator<Object> cmp = (x, y) -> Py.compare(sortKey(((PyTuple) x).get(pos), cs),
            sortKey(((PyTuple) y).get(pos), cs), "<");
        out.sort(rev ? cmp.reversed() : cmp);
        return out;
      }
      case "list":
        return Py.iterate(v);
      case "first": {
        List<Object> l = Py.iterate(v);
        return l.isEmpty() ? new Undefined("No first item, sequence was empty.") : l.get(0);
      }
      case "last": {
        List<Object> l = Py.iterate(v);
        return l.isEmpty() ? new Undefined("No last item, sequence was empty.") : l.get(l.size() - 1);
      }
      case "reverse": {
        if (v instanceof String s) {
          return new StringBuilder(s).reverse().toString();
        }
        List<Object> l = Py.iterate(v);
        java.util.Collections.reverse(l);
        return l;
      }
      case "replace": {
        Object count = arg(a, kw, 2, "count", null);
        return Methods.replace(Py.str(v), Py.str(a.get(0)), Py.str(a.get(1)),
            count == null ? -1 : Py.toLong(count));
      }
      case "indent":
        return indent(Py.str(v), arg(a, kw, 0, "width", 4L), Py.truthy(arg(a, kw, 1, "first", false)),
            Py.truthy(arg(a, kw, 2, "blank", false)));
      case "int": {
        Object def = arg(a, kw, 0, "default", 0L);
        if (v instanceof String s) {
          try {
            return Long.parseLong(s.strip().replace("_", ""));
          } catch (NumberFormatException e) {
            try {
              return (long) Double.parseDouble(s.strip());
            } catch (NumberFormatException e2) {
              return def;
            }
          }
        }
        return Py.isNumber(v) ? (Object) Py.toLong(v) : def;
      }
      case "float": {
        Object def = arg(a, kw, 0, "default", 0.0);
        if (v instanceof String s) {
          try {
            return Double.parseDouble(s.strip());
          } catch (NumberFormatException e) {
            return def;
          }
        }
        return Py.isNumber(v) ? (Object) Py.toDouble(v) : def;
      }
      case "abs":
        return v instanceof Double d ? (Object) Math.abs(d) : (Object) Math.abs(Py.toLong(v));
      case "round": {
        int prec = (int) Py.toLong(arg(a, kw, 0, "precision", 0L));
        String method = (String) arg(a, kw, 1, "method", "common");
        java.math.RoundingMode mode = switch (method) {
          case "ceil" -> java.math.RoundingMode.CEILING;
          case "floor" -> java.math.RoundingMode.FLOOR;
          default -> java.math.RoundingMode.HALF_UP;
        };
        return new java.math.BigDecimal(Double.toString(Py.toDouble(v))).setScale(prec, mode)
            .doubleValue();
      }
      case "wordcount":
        return (long) Methods.split(Py.str(v), null, -1).size();
      case "center": {
        long w = Py.toLong(arg(a, kw, 0, "width", 80L));
        return Methods.bind(Py.str(v), "center").call(List.of(w), Map.of());
      }
      case "format":
        return StrFormat.percent(Py.str(v), a.size() == 1 ? a.get(0) : new PyTuple(a));
      case "e", "escape":
        return Py.str(v).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\"", "&#34;").replace("'", "&#39;");
      case "attr":
        return in.getattr(v, Py.str(a.get(0)));
      case "map":
        return map(in, v, a, kw);
      case "select", "reject":
        return select(in, v, a, name.equals("select"), false);
      case "selectattr", "rejectattr":
        return select(in, v, a, name.equals("selectattr"), true);
      case "unique": {
        boolean cs = Py.truthy(arg(a, kw, 0, "case_sensitive", false));
        Object attr = arg(a, kw, 1, "attribute", null);
        List<Object> out = new ArrayList<>();
        List<Object> seen = new ArrayList<>();
        for (Object o : Py.iterate(v)) {
          Object key = sortKey(attr == null ? o : in.attrPath(o, attr), cs);
          if (seen.stream().noneMatch(s -> Py.eq(s, key))) {
            seen.add(key);
            out.add(o);
          }
        }
        return out;
      }
      case "sort": {
        boolean rev = Py.truthy(arg(a, kw, 0, "reverse", false));
        boolean cs = Py.truthy(arg(a, kw, 1, "case_sensitive", false));
        Object attr = arg(a, kw, 2, "attribute", null);
        List<Object> l = Py.iterate(v);
        Comparator<Object> cmp = (x, y) -> Py.compare(
            sortKey(attr == null ? x : in.attrPath(x, attr), cs),
            sortKey(attr == null ? y : in.attrPath(y, attr), cs), "<");
        l.sort(rev ? cmp.reversed() : cmp);
        return l;
      }
      case "min", "max": {
        boolean cs = Py.truthy(arg(a, kw, 0, "case_sensitive", false));
        Object attr = arg(a, kw, 1, "attribute", null);
        List<Object> l = Py.iterate(v);
        if (l.isEmpty()) {
          return new Undefined("No aggregated item, sequence was empty.");
        }
        Object best = l.get(0);
        for (Object o : l) {
          int c = Py.compare(sortKey(attr == null ? o : in.attrPath(o, attr), cs),
              sortKey(attr == null ? best : in.attrPath(best, attr), cs), "<");
          if (name.equals("min") ? c < 0 : c > 0) {
            best = o;
          }
        }
        return best;
      }
      case "sum": {
        Object attr = arg(a, kw, 0, "attribute", null);
        Object total = arg(a, kw, 1, "start", 0L);
        for (Object o : Py.iterate(v)) {
          total = Interpreter.arith("+", total, attr == null ? o : in.attrPath(o, attr));
        }
        return total;
      }
      case "batch": {
        int n = (int) Py.toLong(a.get(0));
        List<Object> out = new ArrayList<>();
        List<Object> cur = new ArrayList<>();
        for (Object o : Py.iterate(v)) {
          cur.add(o);
          if (cur.size() == n) {
            out.add(cur);
            cur = new ArrayList<>();
          }
        }
        if (!cur.isEmpty()) {
          if (a.size() > 1) {
            while (cur.size() < n) {
              cur.add(a.get(1));
            }
          }
          out.add(cur);
        }
        return out;
      }
      default:
        throw new TemplateError("TemplateRuntimeError: No filter named '" + name + "'.");
    }
  }

  private static Object arg(List<Object> a, Map<String, Object> kw, int i, String name, Object def) {
    return i < a.size() ? a.get(i) : kw.getOrDefault(name, def);
  }

  private static Object sortKey(Object v, boolean caseSensitive) {
    return !caseSensitive && v instanceof String s ? s.toLowerCase(Locale.ROOT) : v;
  }

  private static String asciiOnly(String s) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c > 0x7e) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** jinja2 3.1's {@code indent}: a newline is appended before splitting, as jinja2 does. */
  static String indent(String s, Object width, boolean first, boolean blank) {
    String ind = width instanceof String w ? w : " ".repeat((int) Py.toLong(width));
    List<String> lines = Methods.splitlines(s + "\n", false);
    StringBuilder rv = new StringBuilder();
    if (blank) {
      rv.append(String.join("\n" + ind, lines));
    } else {
      rv.append(lines.isEmpty() ? "" : lines.get(0));
      for (int i = 1; i < lines.size(); i++) {
        rv.append('\n');
        if (!lines.get(i).isEmpty()) {
          rv.append(ind);
        }
        rv.append(lines.get(i));
      }
    }
    return first ? ind + rv : rv.toString();
  }

  private static Object map(Interpreter in, Object v, List<Object> a, Map<String, Object> kw) {
    List<Object> out = new ArrayList<>();
    if (!Py.truthy(v)) {
      return out; // jinja2's map: "if value:" guards the loop, so None maps to nothing
    }
    if (kw.containsKey("attribute")) {
      Object attr = kw.get("attribute");
      Object def = kw.get("default");
      for (Object o : Py.iterate(v)) {
        Object r = in.attrPath(o, attr);
        out.add(r instanceof Undefined && kw.containsKey("default") ? def : r);
      }
      return out;
    }
    if (a.isEmpty()) {
      return Py.iterate(v);
    }
    String filter = Py.str(a.get(0));
    List<Object> rest = a.subList(1, a.size());
    Map<String, Object> kwRest = new LinkedHashMap<>(kw);
    for (Object o : Py.iterate(v)) {
      out.add(apply(in, filter, o, rest, kwRest));
    }
    return out;
  }

  private static Object select(Interpreter in, Object v, List<Object> a, boolean keep,
      boolean byAttr) {
    List<Object> out = new ArrayList<>();
    if (!Py.truthy(v)) {
      return out; // jinja2's select/reject: "if value:" guards the loop, so None selects nothing
    }
    int off = byAttr ? 1 : 0;
    Object attr = byAttr ? a.get(0) : null;
    String test = a.size() > off ? Py.str(a.get(off)) : null;
    List<Object> targs = a.size() > off + 1 ? a.subList(off + 1, a.size()) : List.of();
    for (Object o : Py.iterate(v)) {
      Object x = byAttr ? in.attrPath(o, attr) : o;
      boolean ok = test == null ? Py.truthy(x) : Tests.apply(test, x, targs);
      if (ok == keep) {
        out.add(o);
      }
    }
    return out;
  }
}
