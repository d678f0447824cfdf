package io.infx.fleet.recipe;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A recipe string with launch variables: {@code ${NAME}} (the variable; an unset one is an error),
 * {@code ${NAME:-default}} (the default, itself a template, when the variable is unset or empty)
 * and {@code $$} (a literal {@code $}). Rendered by infx — not by a shell — so {@code infx recipe
 * show} prints the exact command that runs; in a command, each substituted value is shell-quoted
 * when it holds anything but {@code [A-Za-z0-9_./:=,@+%-]}.
 */
public final class CommandTemplate {

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_./:=,@+%-]+");

  private sealed interface Part permits Text, Var {}

  private record Text(String text) implements Part {}

  private record Var(String name, Optional<CommandTemplate> fallback) implements Part {}

  private final String source;
  private final List<Part> parts;

  private CommandTemplate(String source, List<Part> parts) {
    this.source = source;
    this.parts = List.copyOf(parts);
  }

  /**
   * Parses a template.
   *
   * @throws IllegalArgumentException naming the column of an unclosed {@code ${}, a bad variable
   *     name or a lone {@code $}
   */
  public static CommandTemplate parse(String text) {
    List<Part> parts = new ArrayList<>();
    int end = parse(text, 0, parts, false);
    if (end != text.length()) {
      throw new IllegalArgumentException("unexpected '}' at character " + (end + 1));
    }
    return new CommandTemplate(text, parts);
  }

  /** Parses from {@code i}; returns the index of the closing brace (nested) or the end. */
  private static int parse(String s, int i, List<Part> out, boolean nested) {
    StringBuilder text = new StringBuilder();
    while (i < s.length()) {
      char c = s.charAt(i);
      if (nested && c == '}') {
        break;
      }
      if (c != '$') {
        text.append(c);
        i++;
        continue;
      }
      if (i + 1 < s.length() && s.charAt(i + 1) == '$') {
        text.append('$');
        i += 2;
        continue;
      }
      if (i + 1 >= s.length() || s.charAt(i + 1) != '{') {
        throw new IllegalArgumentException("a '$' at character " + (i + 1) + " must start ${NAME} "
            + "(write $$ for a literal $; shell variables are not expanded, the recipe names launch variables)");
      }
      int start = i + 2;
      int j = start;
      while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
        j++;
      }
      String name = s.substring(start, j);
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("bad variable name '" + name + "' at character " + (i + 1)
            + " (expected ${NAME} with NAME = [A-Za-z_][A-Za-z0-9_]*)");
      }
      if (text.length() > 0) {
        out.add(new Text(text.toString()));
        text.setLength(0);
      }
      if (j < s.length() && s.startsWith(":-", j)) {
        List<Part> fb = new ArrayList<>();
        int close = parse(s, j + 2, fb, true);
        if (close >= s.length()) {
          throw new IllegalArgumentException("unclosed '${" + name + ":-' starting at character " + (i + 1));
        }
        out.add(new Var(name, Optional.of(new CommandTemplate(s.substring(j + 2, close), fb))));
        i = close + 1;
      } else if (j < s.length() && s.charAt(j) == '}') {
        out.add(new Var(name, Optional.empty()));
        i = j + 1;
      } else {
        throw new IllegalArgumentException("unclosed '${" + name + "' starting at character " + (i + 1)
            + " (only ${NAME} and ${NAME:-default} are supported)");
      }
    }
    if (text.length() > 0) {
      out.add(new Text(text.toString()));
    }
    return i;
  }

  /** The template as written. */
  public String source() {
    return source;
  }

  /** Every variable the template may read (including those inside defaults), in order. */
  public List<String> variables() {
    List<String> names = new ArrayList<>();
    for (Part p : parts) {
      if (p instanceof Var v) {
        names.add(v.name());
        v.fallback().ifPresent(f -> names.addAll(f.variables()));
      }
    }
    return names;
  }

  /**
   * Renders with values as they are (for environment values, paths, tokenizers).
   *
   * @throws IllegalArgumentException naming an unset variable without a default
   */
  public String render(Function<String, Optional<String>> vars) {
    return render(vars, false);
  }

  /** Renders for a shell command line: substituted values are quoted when needed. */
  public String renderForShell(Function<String, Optional<String>> vars) {
    return render(vars, true);
  }

  private String render(Function<String, Optional<String>> vars, boolean quote) {
    StringBuilder sb = new StringBuilder();
    for (Part p : parts) {
      if (p instanceof Text t) {
        sb.append(t.text());
        continue;
      }
      Var v = (Var) p;
      Optional<String> value = vars.apply(v.name()).filter(x -> !(v.fallback().isPresent() && x.isEmpty()));
      String s;
      if (value.isPresent()) {
        s = quote ? shellQuote(value.get()) : value.get();
      } else if (v.fallback().isPresent()) {
        s = v.fallback().get().render(vars, quote);
      } else {
        throw new IllegalArgumentException("${" + v.name() + "} is not set (not a launch variable of this "
            + "point, nor in the recipe's env, nor in the environment); write ${" + v.name() + ":-default}");
      }
      sb.append(s);
    }
    return sb.toString();
  }

  /** {@code value} as one shell word: as is when safe, else in single quotes. */
  public static String shellQuote(String value) {
    if (!value.isEmpty() && SAFE.matcher(value).matches()) {
      return value;
    }
    return "'" + value.replace("'", "'\\''") + "'";
  }

  @Override
  public String toString() {
    return source;
  }
}
