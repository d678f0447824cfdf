package io.infx.client.chat.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Python methods of {@code str}, {@code dict} and {@code list} as templates call them
 * ({@code content.strip()}, {@code message.get('x')}, {@code text.split('</think>')[-1]}).
 * Mutating methods ({@code list.append}, {@code dict.update}, …) are refused as jinja2's
 * {@code ImmutableSandboxedEnvironment}, which transformers uses, refuses them.
 */
final class Methods {

  private Methods() {}

  private static final java.util.Set<String> UNSAFE_LIST = java.util.Set.of("append", "clear",
      "extend", "insert", "pop", "remove", "reverse", "sort");
  private static final java.util.Set<String> UNSAFE_DICT = java.util.Set.of("clear", "pop",
      "popitem", "setdefault", "update");

  /** A bound method of {@code obj}, or null when the type has no such method. */
  static PyCallable bind(Object obj, String name) {
    if (obj instanceof String s) {
      return strMethod(s, name);
    }
    if (obj instanceof Map<?, ?> m) {
      if (UNSAFE_DICT.contains(name)) {
        return unsafe(name, "dict");
      }
      return dictMethod(m, name);
    }
    if (obj instanceof List<?> l) {
      if (UNSAFE_LIST.contains(name) && !(obj instanceof PyTuple)) {
        return unsafe(name, "list");
      }
      return listMethod(l, name);
    }
    return null;
  }

  private static PyCallable unsafe(String name, String type) {
    return (a, k) -> {
      throw new TemplateError("SecurityError: access to attribute '" + name + "' of '" + type
          + "' object is unsafe.");
    };
  }

  private static Object arg(List<Object> a, Map<String, Object> kw, int i, String name, Object def) {
    if (i < a.size()) {
      return a.get(i);
    }
    return kw.getOrDefault(name, def);
  }

  private static String strArg(Object v, String method) {
    if (v instanceof String s) {
      return s;
    }
    throw Py.typeError(method + " arg must be None or str");
  }

  private static PyCallable dictMethod(Map<?, ?> m, String name) {
    return switch (name) {
      case "get" -> (a, k) -> {
        Object key = arg(a, k, 0, "key", null);
        Object found = Py.findKey(m, key);
        return found == Py.NO_KEY ? arg(a, k, 1, "default", null) : m.get(found);
      };
      case "items" -> (a, k) -> {
        List<Object> out = new ArrayList<>();
        m.forEach((key, v) -> out.add(new PyTuple(java.util.Arrays.asList(key, v))));
        return out;
      };
      case "keys" -> (a, k) -> new ArrayList<Object>(m.keySet());
      case "values" -> (a, k) -> new ArrayList<Object>(m.values());
      case "copy" -> (a, k) -> new java.util.LinkedHashMap<Object, Object>(m);
      default -> null;
    };
  }

  private static PyCallable listMethod(List<?> l, String name) {
    return switch (name) {
      case "index" -> (a, k) -> {
        for (int i = 0; i < l.size(); i++) {
          if (Py.eq(l.get(i), a.get(0))) {
            return (long) i;
          }
        }
        throw new TemplateError("ValueError: " + Py.repr(a.get(0)) + " is not in list");
      };
      case "count" -> (a, k) -> l.stream().filter(o -> Py.eq(o, a.get(0))).count();
      case "copy" -> (a, k) -> new ArrayList<Object>(l);
      default -> null;
    };
  }

  private static PyCallable strMethod(String s, String name) {
    return switch (name) {
      case "strip" -> (a, k) -> strip(s, chars(arg(a, k, 0, "chars", null)), true, true);
      case "lstrip" -> (a, k) -> strip(s, chars(arg(a, k, 0, "chars", null)), true, false);
      case "rstrip" -> (a, k) -> strip(s, chars(arg(a, k, 0, "chars", null)), false, true);
      case "split" -> (a, k) -> split(s, arg(a, k, 0, "sep", null),
          Py.toLong(arg(a, k, 1, "maxsplit", -1L)));
      case "rsplit" -> (a, k) -> rsplit(s, arg(a, k, 0, "sep", null),
          Py.toLong(arg(a, k, 1, "maxsplit", -1L)));
      case "splitlines" -> (a, k) -> new ArrayList<Object>(splitlines(s,
          Py.truthy(arg(a, k, 0, "keepends", false))));
      case "startswith" -> (a, k) -> affix(s, a.get(0), true);
      case "endswith" -> (a, k) -> affix(s, a.get(0), false);
      case "replace" -> (a, k) -> replace(s, strArg(a.get(0), "replace"),
          strArg(a.get(1), "replace"), a.size() > 2 ? Py.toLong(a.get(2)) : -1);
      case "upper" -> (a, k) -> s.toUpperCase(Locale.ROOT);
      case "lower" -> (a, k) -> s.toLowerCase(Locale.ROOT);
      case "casefold" -> (a, k) -> s.toLowerCase(Locale.ROOT);
      case "title" -> (a, k) -> title(s);
      case "capitalize" -> (a, k) -> capitalize(s);
      case "swapcase" -> (a, k) -> swapcase(s);
      case "find" -> (a, k) -> (long) cpIndex(s, s.indexOf(strArg(a.get(0), "find")));
      case "rfind" -> (a, k) -> (long) cpIndex(s, s.lastIndexOf(strArg(a.get(0), "rfind")));
      case "index", "rindex" -> (a, k) -> {
        String sub = strArg(a.get(0), name);
        int i = name.equals("index") ? s.indexOf(sub) : s.lastIndexOf(sub);
        if (i < 0) {
          throw new TemplateError("ValueError: substring not found");
        }
        return (long) cpIndex(s, i);
      };
      case "count" -> (a, k) -> {
        String sub = strArg(a.get(0), "count");
        if (sub.isEmpty()) {
          return Py.len(s) + 1;
        }
        long n = 0;
        for (int i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length())) {
          n++;
        }
        return n;
      };
      case "join" -> (a, k) -> {
        StringBuilder sb = new StringBuilder();
        boolean first = true;
        for (Object o : Py.iterate(a.get(0))) {
          if (!(o instanceof String str)) {
            throw Py.typeError("sequence item: expected str instance, " + Py.typeName(o) + " found");
          }
          if (!first) {
            sb.append(s);
          }
          first = false;
          sb.append(str);
        }
        return sb.toString();
      };
      case "format" -> (a, k) -> StrFormat.format(s, a, k);
      case "isdigit", "isnumeric", "isdecimal" -> (a, k) ->
          !s.isEmpty() && s.codePoints().allMatch(Character::isDigit);
      case "isalpha" -> (a, k) -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetter);
      case "isalnum" -> (a, k) -> !s.isEmpty() && s.codePoints().allMatch(Character::isLetterOrDigit);
      case "isspace" -> (a, k) -> !s.isEmpty() && s.codePoints().allMatch(Py::isSpace);
      case "islower" -> (a, k) -> s.codePoints().anyMatch(Character::isLowerCase)
          && s.equals(s.toLowerCase(Locale.ROOT));
      case "isupper" -> (a, k) -> s.codePoints().anyMatch(Character::isUpperCase)
          && s.equals(s.toUpperCase(Locale.ROOT));
      case "removeprefix" -> (a, k) -> {
        String p = strArg(a.get(0), "removeprefix");
        return s.startsWith(p) ? s.substring(p.length()) : s;
      };
      case "removesuffix" -> (a, k) -> {
        String p = strArg(a.get(0), "removesuffix");
        return !p.isEmpty() && s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s;
      };
      case "partition", "rpartition" -> (a, k) -> {
        String sep = strArg(a.get(0), name);
        int i = name.equals("partition") ? s.indexOf(sep) : s.lastIndexOf(sep);
        if (i < 0) {
          return name.equals("partition") ? new PyTuple(List.of(s, "", ""))
              : new PyTuple(List.of("", "", s));
        }
        return new PyTuple(List.of(s.substring(0, i), sep, s.substring(i + sep.length())));
      };
      case "zfill" -> (a, k) -> {
        int w = (int) Py.toLong(a.get(0));
        int n = (int) Py.len(s);
        if (n >= w) {
          return s;
        }
        String sign = !s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+') ? s.substring(0, 1) : "";
        return sign + "0".repeat(w - n) + s.substring(sign.length());
      };
      case "center", "ljust", "rjust" -> (a, k) -> {
        int w = (int) Py.toLong(a.get(0));
        String fill = a.size() > 1 ? (String) a.get(1) : " ";
        int n = (int) Py.len(s);
        if (n >= w) {
          return s;
        }
        int pad = w - n;
        return switch (name) {
          case "ljust" -> s + fill.repeat(pad);
          case "rjust" -> fill.repeat(pad) + s;
          default -> {
            int left = pad / 2 + (pad & w & 1);
            yield fill.repeat(left) + s + fill.repeat(pad - left);
          }
        };
      };
      default -> null;
    };
  }

  private static int cpIndex(String s, int charIndex) {
    return charIndex < 0 ? -1 : s.codePointCount(0, charIndex);
  }

  private static String chars(Object v) {
    if (v == null) {
      return null;
    }
    return strArg(v, "strip");
  }

  /** Python {@code str.strip(chars)}: whitespace when {@code chars} is None. */
  static String strip(String s, String chars, boolean left, boolean right) {
    int[] cps = Py.codePoints(s);
    int from = 0;
    int to = cps.length;
    if (left) {
      while (from < to && stripped(cps[from], chars)) {
        from++;
      }
    }
    if (right) {
      while (to > from && stripped(cps[to - 1], chars)) {
        to--;
      }
    }
    return Py.fromCodePoints(cps, from, to);
  }

  private static boolean stripped(int c, String chars) {
    return chars == null ? Py.isSpace(c) : chars.indexOf(new String(Character.toChars(c))) >= 0;
  }

  static List<Object> split(String s, Object sepArg, long maxsplit) {
    List<Object> out = new ArrayList<>();
    if (sepArg == null) {
      int[] cps = Py.codePoints(s);
      int i = 0;
      int n = cps.length;
      while (true) {
        while (i < n && Py.isSpace(cps[i])) {
          i++;
        }
        if (i >= n) {
          break;
        }
        if (maxsplit >= 0 && out.size() >= maxsplit) {
          int end = n;
          while (end > i && Py.isSpace(cps[end - 1])) {
            end--;
          }
          out.add(Py.fromCodePoints(cps, i, end));
          break;
        }
        int j = i;
        while (j < n && !Py.isSpace(cps[j])) {
          j++;
        }
        out.add(Py.fromCodePoints(cps, i, j));
        i = j;
      }
      return out;
    }
    String sep = strArg(sepArg, "split");
    if (sep.isEmpty()) {
      throw new TemplateError("ValueError: empty separator");
    }
    int start = 0;
    while (maxsplit < 0 || out.size() < maxsplit) {
      int i = s.indexOf(sep, start);
      if (i < 0) {
        break;
      }
      out.add(s.substring(start, i));
      start = i + sep.length();
    }
    out.add(s.substring(start));
    return out;
  }

  static List<Object> rsplit(String s, Object sepArg, long maxsplit) {
    if (maxsplit < 0) {
      return split(s, sepArg, -1);
    }
    if (sepArg == null) {
      List<Object> out = new ArrayList<>();
      int[] cps = Py.codePoints(s);
      int i = cps.length;
      while (true) {
        while (i > 0 && Py.isSpace(cps[i - 1])) {
          i--;
        }
        if (i <= 0) {
          break;
        }
        if (out.size() >= maxsplit) {
          int st = 0;
          while (st < i && Py.isSpace(cps[st])) {
            st++;
          }
          out.add(0, Py.fromCodePoints(cps, st, i));
          break;
        }
        int j = i;
        while (j > 0 && !Py.isSpace(cps[j - 1])) {
          j--;
        }
        out.add(0, Py.fromCodePoints(cps, j, i));
        i = j;
      }
      return out;
    }
    String sep = strArg(sepArg, "rsplit");
    List<Object> out = new ArrayList<>();
    int end = s.length();
    while (out.size() < maxsplit) {
      int i = s.lastIndexOf(sep, end - sep.length());
      if (i < 0) {
        break;
      }
      out.add(0, s.substring(i + sep.length(), end));
      end = i;
    }
    out.add(0, s.substring(0, end));
    return out;
  }

  /** Python {@code str.splitlines}: splits on \n, \r, \r\n, \v, \f, \x1c-\x1e, \x85, \u2028, \u2029. */
  static List<String> splitlines(String s, boolean keepends) {
    List<String> out = new ArrayList<>();
    int start = 0;
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      int eol = -1;
      if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
        eol = 2;
      } else if (c == '\n' || c == '\r' || c == 0x0b || c == 0x0c || (c >= 0x1c && c <= 0x1e)
          || c == 0x85 || c == 0x2028 || c == 0x2029) {
        eol = 1;
      }
      if (eol > 0) {
        out.add(s.substring(start, keepends ? i + eol : i));
        i += eol;
        start = i;
      } else {
        i++;
      }
    }
    if (start < s.length()) {
      out.add(s.substring(start));
    }
    return out;
  }

  private static boolean affix(String s, Object what, boolean prefix) {
    if (what instanceof List<?> l) {
      for (Object o : l) {
        if (affix(s, o, prefix)) {
          return true;
        }
      }
      return false;
    }
    String p = strArg(what, prefix ? "startswith" : "endswith");
    return prefix ? s.startsWith(p) : s.endsWith(p);
  }

  static String replace(String s, String old, String rep, long count) {
    if (count < 0) {
      if (old.isEmpty()) {
        StringBuilder sb = new StringBuilder(rep);
        s.codePoints().forEach(c -> sb.appendCodePoint(c).append(rep));
        return sb.toString();
      }
      return s.replace(old, rep);
    }
    StringBuilder sb = new StringBuilder();
    int start = 0;
    long n = 0;
    while (n < count) {
      int i = s.indexOf(old, start);
      if (i < 0 || old.isEmpty()) {
        break;
      }
      sb.append(s, start, i).append(rep);
      start = i + old.length();
      n++;
    }
    return sb.append(s.substring(start)).toString();
  }

  static String title(String s) {
    StringBuilder sb = new StringBuilder();
    boolean prevCased = false;
    for (int i = 0; i < s.length(); ) {
      int c = s.codePointAt(i);
      i += Character.charCount(c);
      if (prevCased) {
        sb.appendCodePoint(Character.toLowerCase(c));
      } else {
        sb.appendCodePoint(Character.toTitleCase(c));
      }
      prevCased = Character.isLetter(c);
    }
    return sb.toString();
  }

  static String capitalize(String s) {
    if (s.isEmpty()) {
      return s;
    }
    int c = s.codePointAt(0);
    return new String(Character.toChars(Character.toTitleCase(c)))
        + s.substring(Character.charCount(c)).toLowerCase(Locale.ROOT);
  }

  private static String swapcase(String s) {
    StringBuilder sb = new StringBuilder();
    s.codePoints().forEach(c -> sb.appendCodePoint(Character.isUpperCase(c)
        ? Character.toLowerCase(c) : Character.toUpperCase(c)));
    return sb.toString();
  }
}
