package io.infx.client.chat.internal;

import java.util.List;
import java.util.Map;

/** Python {@code str.format} for the forms templates use: {@code {}}, {@code {0}}, {@code {name}}, {@code {{ }}}. */
final class StrFormat {

  private StrFormat() {}

  static String format(String fmt, List<Object> args, Map<String, Object> kwargs) {
    StringBuilder sb = new StringBuilder();
    int auto = 0;
    for (int i = 0; i < fmt.length(); i++) {
      char c = fmt.charAt(i);
      if (c == '{') {
        if (i + 1 < fmt.length() && fmt.charAt(i + 1) == '{') {
          sb.append('{');
          i++;
          continue;
        }
        int close = fmt.indexOf('}', i);
        if (close < 0) {
          throw new TemplateError("ValueError: Single '{' encountered in format string");
        }
        String field = fmt.substring(i + 1, close);
        String conv = null;
        String spec = "";
        int colon = field.indexOf(':');
        if (colon >= 0) {
          spec = field.substring(colon + 1);
          field = field.substring(0, colon);
        }
        int bang = field.indexOf('!');
        if (bang >= 0) {
          conv = field.substring(bang + 1);
          field = field.substring(0, bang);
        }
        Object v;
        if (field.isEmpty()) {
          v = args.get(auto++);
        } else if (field.chars().allMatch(Character::isDigit)) {
          v = args.get(Integer.parseInt(field));
        } else if (kwargs.containsKey(field)) {
          v = kwargs.get(field);
        } else {
          throw new TemplateError("KeyError: " + Py.repr(field));
        }
        String s = "r".equals(conv) ? Py.repr(v) : Py.str(v);
        sb.append(applySpec(s, spec));
        i = close;
      } else if (c == '}') {
        if (i + 1 < fmt.length() && fmt.charAt(i + 1) == '}') {
          i++;
        }
        sb.append('}');
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static String applySpec(String s, String spec) {
    if (spec.isEmpty()) {
      return s;
    }
    char align = '<';
    String width = spec;
    if (spec.charAt(0) == '<' || spec.charAt(0) == '>' || spec.charAt(0) == '^') {
      align = spec.charAt(0);
      width = spec.substring(1);
    }
    if (!width.chars().allMatch(Character::isDigit) || width.isEmpty()) {
      throw new TemplateError("ValueError: unsupported format spec '" + spec + "'");
    }
    int w = Integer.parseInt(width);
    int pad = Math.max(0, w - (int) Py.len(s));
    return switch (align) {
      case '>' -> " ".repeat(pad) + s;
      case '^' -> " ".repeat(pad / 2) + s + " ".repeat(pad - pad / 2);
      default -> s + " ".repeat(pad);
    };
  }

  /** Python printf-style {@code "%s" % args} for %s, %r, %d, %i, %f (with precision) and %%. */
  static String percent(String fmt, Object arg) {
    List<?> args = arg instanceof PyTuple t ? t : List.of(arg == null ? "None" : arg);
    if (arg == null) {
      args = java.util.Collections.singletonList(null);
    }
    StringBuilder sb = new StringBuilder();
    int n = 0;
    for (int i = 0; i < fmt.length(); i++) {
      char c = fmt.charAt(i);
      if (c != '%') {
        sb.append(c);
        continue;
      }
      int j = i + 1;
      while (j < fmt.length() && ".0123456789-+ ".indexOf(fmt.charAt(j)) >= 0) {
        j++;
      }
      if (j >= fmt.length()) {
        throw new TemplateError("ValueError: incomplete format");
      }
      String flags = fmt.substring(i + 1, j);
      char t = fmt.charAt(j);
      i = j;
      if (t == '%') {
        sb.append('%');
        continue;
      }
      if (n >= args.size()) {
        throw Py.typeError("not enough arguments for format string");
      }
      Object v = args.get(n++);
      switch (t) {
        case 's' -> sb.append(Py.str(v));
        case 'r' -> sb.append(Py.repr(v));
        case 'd', 'i' -> sb.append(String.format("%" + flags + "d", Py.toLong(v)));
        case 'f' -> sb.append(String.format(java.util.Locale.ROOT, "%" + flags + "f", Py.toDouble(v)));
        default -> throw new TemplateError("ValueError: unsupported format character '" + t + "'");
      }
    }
    if (n < args.size()) {
      throw Py.typeError("not all arguments converted during string formatting");
    }
    return sb.toString();
  }
}
