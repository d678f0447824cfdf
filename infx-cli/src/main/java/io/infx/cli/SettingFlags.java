package io.infx.cli;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Shows the settings a library message names ({@code numPrompts}, see {@link io.infx.core.Wording})
 * as the flags of the command that ran ({@code --num-prompts}), so a user reads the flag they typed
 * while the library keeps its own words.
 *
 * <p>A setting is the option whose annotated field has its name, else the option spelled as its
 * kebab-case ({@code numPrompts} → {@code --num-prompts}), else the option of {@link #ALIASES}
 * (the few flags named otherwise than the library's setting); a setting the command has no option
 * for keeps its library name.
 */
final class SettingFlags {

  /** Library setting → flag, where neither the field name nor the kebab-case spelling matches. */
  static final Map<String, String> ALIASES = Map.of(
      "histogramLog", "--hlog",
      "simulator", "--sim-option",
      "serverCommand", "--server-cmd",
      "lo", "--range",
      "hi", "--range");

  private SettingFlags() {}

  /** The flag of {@code spec} for the library setting {@code setting}, or {@code setting} itself. */
  static String flagFor(CommandSpec spec, String setting) {
    Objects.requireNonNull(setting, "setting");
    for (OptionSpec o : spec.options()) {
      if (o.userObject() instanceof Field f && f.getName().equals(setting)) {
        return o.longestName();
      }
    }
    String kebab = "--" + kebab(setting);
    String alias = ALIASES.get(setting);
    for (String candidate : alias == null ? new String[] {kebab} : new String[] {kebab, alias}) {
      for (OptionSpec o : spec.options()) {
        if (Arrays.asList(o.names()).contains(candidate)) {
          return candidate;
        }
      }
    }
    return setting;
  }

  /** {@code numPrompts} → {@code num-prompts}; {@code dsv4} → {@code dsv4}. */
  static String kebab(String camel) {
    StringBuilder b = new StringBuilder(camel.length() + 4);
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) {
          b.append('-');
        }
        b.append(Character.toLowerCase(c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
