package io.infx.core;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * An error message that names settings in the library's words, so each front end can show them in
 * its own: the library names a setting by its API name ({@code numPrompts}, the builder attribute
 * of {@code ServeJob}), and the command line shows the flag the user typed ({@code --num-prompts}).
 *
 * <pre>{@code
 * throw new UsageException(Wording.of(setting("numPrompts"), " must be ≥ 1, got " + n));
 * // getMessage():                      "numPrompts must be ≥ 1, got 0"
 * // render(name -> "--" + kebab(name)): "--num-prompts must be ≥ 1, got 0"
 * }</pre>
 *
 * Why: a library message worded as a flag ("--num-prompts must be ≥ 1") is wrong for a caller of
 * the Java API, and a message in API words is wrong for a user of the command line; one message
 * with named settings is right for both.
 */
public final class Wording implements Serializable {

  private static final long serialVersionUID = 1L;

  /** A setting named in a message, by its library name (e.g. {@code numPrompts}). */
  public record Setting(String name) implements Serializable {
    public Setting {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a setting name is empty");
      }
    }
  }

  /** Text and settings in order; adjacent text parts are kept apart (no meaning). */
  private final List<Object> parts;

  private Wording(List<Object> parts) {
    this.parts = parts;
  }

  /** A setting to name in a message; {@code name} is the library's name for it. */
  public static Setting setting(String name) {
    return new Setting(name);
  }

  /**
   * A message from parts: each {@link Setting} is a named setting, a {@code Wording} is spliced in,
   * anything else is text ({@link String#valueOf(Object)}).
   *
   * @throws NullPointerException when {@code parts} is null
   */
  public static Wording of(Object... parts) {
    Objects.requireNonNull(parts, "parts");
    List<Object> list = new ArrayList<>(parts.length);
    for (Object p : parts) {
      if (p instanceof Wording w) {
        list.addAll(w.parts);
      } else {
        list.add(p instanceof Setting s ? s : String.valueOf(p));
      }
    }
    return new Wording(List.copyOf(list));
  }

  /** The settings this message names, in order (repeats included). */
  public List<String> settings() {
    return parts.stream().filter(Setting.class::isInstance).map(p -> ((Setting) p).name()).toList();
  }

  /** The message with each setting shown as {@code name.apply(libraryName)}. */
  public String render(UnaryOperator<String> name) {
    Objects.requireNonNull(name, "name");
    StringBuilder b = new StringBuilder();
    for (Object p : parts) {
      b.append(p instanceof Setting s ? name.apply(s.name()) : (String) p);
    }
    return b.toString();
  }

  /** The message in the library's words: each setting by its library name. */
  @Override
  public String toString() {
    return render(UnaryOperator.identity());
  }
}
