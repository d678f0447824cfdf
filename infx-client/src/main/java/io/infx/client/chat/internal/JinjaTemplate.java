package io.infx.client.chat.internal;

import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A compiled Jinja template, rendered the way Hugging Face transformers renders chat templates:
 * jinja2's {@code ImmutableSandboxedEnvironment} with {@code trim_blocks}, {@code lstrip_blocks},
 * the {@code loopcontrols} extension, the {@code {% generation %}} tag, and the globals
 * {@code raise_exception}, {@code strftime_now}, {@code range}, {@code namespace}, {@code dict};
 * {@code tojson} is {@code json.dumps(..., ensure_ascii=False)}. Thread-safe after compilation.
 */
public final class JinjaTemplate {

  private final List<Node.Stmt> body;

  private JinjaTemplate(List<Node.Stmt> body) {
    this.body = body;
  }

  /**
   * Parses a template.
   *
   * @throws TemplateError on a syntax error (the message names line and column)
   */
  public static JinjaTemplate compile(String source) {
    return new JinjaTemplate(Parser.parse(source));
  }

  /**
   * Renders with {@code context} (values: String, Number, Boolean, null, List, Map, nested).
   *
   * @param clock what {@code strftime_now} reads (system time zone of the clock)
   * @throws TemplateError when the template raises or misuses a value
   */
  public String render(Map<String, ?> context, Clock clock) {
    Map<String, Object> ctx = new HashMap<>();
    context.forEach((k, v) -> ctx.put(k, normalize(v)));
    try {
      return new Interpreter(globals(clock)).render(body, ctx);
    } catch (StackOverflowError e) {
      throw new TemplateError("RecursionError: template recursion too deep");
    }
  }

  /** Converts host values to template values (ints to Long, floats to Double, copies containers). */
  static Object normalize(Object v) {
    if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    if (v instanceof Float f) {
      return f.doubleValue();
    }
    if (v instanceof java.math.BigInteger b) {
      return b.longValue();
    }
    if (v instanceof java.math.BigDecimal d) {
      return d.doubleValue();
    }
    if (v instanceof Map<?, ?> m) {
      Map<Object, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(normalize(k), normalize(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      for (Object x : l) {
        out.add(normalize(x));
      }
      return out;
    }
    return v;
  }

  private static Map<String, Object> globals(Clock clock) {
    Map<String, Object> g = new HashMap<>();
    g.put("raise_exception", (PyCallable) (a, k) -> {
      throw new TemplateError(a.isEmpty() ? "raise_exception called" : Py.str(a.get(0)));
    });
    g.put("range", (PyCallable) (a, k) -> {
      long start = 0;
      long stop;
      long step = 1;
      if (a.size() == 1) {
        stop = Py.toLong(a.get(0));
      } else {
        start = Py.toLong(a.get(0));
        stop = Py.toLong(a.get(1));
        if (a.size() > 2) {
          step = Py.toLong(a.get(2));
        }
      }
      if (step == 0) {
        throw new TemplateError("ValueError: range() arg 3 must not be zero");
      }
      List<Object> out = new ArrayList<>();
      for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
        out.add(i);
        if (out.size() > 1_000_000) {
          throw new TemplateError("OverflowError: range too big");
        }
      }
      return out;
    });
    g.put("namespace", (PyCallable) (a, k) -> {
      Namespace ns = new Namespace();
      if (!a.isEmpty() && a.get(0) instanceof Map<?, ?> m) {
        m.forEach((key, v) -> ns.attrs.put(Py.str(key), v));
      }
      ns.attrs.putAll(k);
      return ns;
    });
    g.put("dict", (PyCallable) (a, k) -> {
      Map<Object, Object> out = new LinkedHashMap<>();
      if (!a.isEmpty() && a.get(0) instanceof Map<?, ?> m) {
        out.putAll(m);
      }
      out.putAll(k);
      return out;
    });
    g.put("strftime_now", (PyCallable) (a, k) ->
        strftime(Py.str(a.get(0)), ZonedDateTime.now(clock)));
    return g;
  }

  /** C {@code strftime} for the directives chat templates use (glibc's {@code %-d} included). */
  static String strftime(String fmt, ZonedDateTime t) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < fmt.length(); i++) {
      char c = fmt.charAt(i);
      if (c != '%' || i + 1 >= fmt.length()) {
        sb.append(c);
        continue;
      }
      char d = fmt.charAt(++i);
      boolean noPad = false;
      if (d == '-' && i + 1 < fmt.length()) {
        noPad = true;
        d = fmt.charAt(++i);
      }
      String two = noPad ? "%d" : "%02d";
      switch (d) {
        case 'd' -> sb.append(String.format(two, t.getDayOfMonth()));
        case 'e' -> sb.append(String.format(noPad ? "%d" : "%2d", t.getDayOfMonth()));
        case 'm' -> sb.append(String.format(two, t.getMonthValue()));
        case 'Y' -> sb.append(t.getYear());
        case 'y' -> sb.append(String.format(two, t.getYear() % 100));
        case 'H' -> sb.append(String.format(two, t.getHour()));
        case 'I' -> sb.append(String.format(two, (t.getHour() + 11) % 12 + 1));
        case 'M' -> sb.append(String.format(two, t.getMinute()));
        case 'S' -> sb.append(String.format(two, t.getSecond()));
        case 'p' -> sb.append(t.getHour() < 12 ? "AM" : "PM");
        case 'j' -> sb.append(String.format(noPad ? "%d" : "%03d", t.getDayOfYear()));
        case 'b', 'h' -> sb.append(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.US));
        case 'B' -> sb.append(t.getMonth().getDisplayName(TextStyle.FULL, Locale.US));
        case 'a' -> sb.append(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.US));
        case 'A' -> sb.append(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.US));
        case 'Z' -> sb.append(t.getZone().getDisplayName(TextStyle.SHORT, Locale.US));
        case '%' -> sb.append('%');
        default -> sb.append('%').append(d);
      }
    }
    return sb.toString();
  }
}
