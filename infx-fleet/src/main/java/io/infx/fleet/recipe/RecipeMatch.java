package io.infx.fleet.recipe;

import io.infx.core.InfxStyle;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Which matrix rows a recipe serves. Every given criterion must hold; an absent {@code match}
 * serves every row (specificity 0). Patterns are globs ({@code *}, {@code ?}).
 *
 * <p>Specificity (most specific match wins): a matching {@code config-keys} pattern counts
 * {@value #CONFIG_KEY_WEIGHT} (exact key one more), each of {@code model-prefix},
 * {@code precision}, {@code framework} and {@code runner} counts 1.
 */
@Value.Immutable
@InfxStyle
public abstract class RecipeMatch {

  /** Weight of a matching config-key pattern: more specific than the other four together. */
  public static final int CONFIG_KEY_WEIGHT = 10;

  /** Master-config keys (globs), e.g. {@code dsr1-fp8-h200-sglang} or {@code dsr1-*-sglang}. */
  public abstract List<String> configKeys();

  /** The row's {@code model-prefix}, e.g. {@code dsr1}. */
  public abstract Optional<String> modelPrefix();

  /** The row's {@code precision}, e.g. {@code fp8}. */
  public abstract Optional<String> precision();

  /** The row's {@code framework}, e.g. {@code sglang}. */
  public abstract Optional<String> framework();

  /** Runner glob over the row's runner label and the concrete runner, e.g. {@code h200*}. */
  public abstract Optional<String> runner();

  /** The specificity with which {@code row} matches, or empty when it does not. */
  public java.util.OptionalInt specificity(RecipeRow row) {
    int score = 0;
    if (!configKeys().isEmpty()) {
      int best = -1;
      for (String pattern : configKeys()) {
        for (String key : row.configKeys()) {
          if (Glob.matches(pattern, key)) {
            best = Math.max(best, pattern.equals(key) ? CONFIG_KEY_WEIGHT + 1 : CONFIG_KEY_WEIGHT);
          }
        }
      }
      if (best < 0) {
        return java.util.OptionalInt.empty();
      }
      score += best;
    }
    if (modelPrefix().isPresent()) {
      if (!modelPrefix().get().equals(row.modelPrefix())) {
        return java.util.OptionalInt.empty();
      }
      score++;
    }
    if (precision().isPresent()) {
      if (!precision().get().equalsIgnoreCase(row.precision())) {
        return java.util.OptionalInt.empty();
      }
      score++;
    }
    if (framework().isPresent()) {
      if (!framework().get().equals(row.framework())) {
        return java.util.OptionalInt.empty();
      }
      score++;
    }
    if (runner().isPresent()) {
      if (!Glob.matches(runner().get(), row.runnerLabel()) && !Glob.matches(runner().get(), row.runner())) {
        return java.util.OptionalInt.empty();
      }
      score++;
    }
    return java.util.OptionalInt.of(score);
  }

  /** Why {@code row} does not match (for the no-recipe error), e.g. {@code framework vllm ≠ sglang}. */
  public String mismatch(RecipeRow row) {
    List<String> why = new java.util.ArrayList<>();
    if (!configKeys().isEmpty() && row.configKeys().stream()
        .noneMatch(k -> configKeys().stream().anyMatch(p -> Glob.matches(p, k)))) {
      why.add("config-keys " + configKeys() + " ∌ " + row.configKeys());
    }
    modelPrefix().filter(v -> !v.equals(row.modelPrefix())).ifPresent(v -> why.add("model-prefix " + v + " ≠ " + row.modelPrefix()));
    precision().filter(v -> !v.equalsIgnoreCase(row.precision())).ifPresent(v -> why.add("precision " + v + " ≠ " + row.precision()));
    framework().filter(v -> !v.equals(row.framework())).ifPresent(v -> why.add("framework " + v + " ≠ " + row.framework()));
    runner().filter(v -> !Glob.matches(v, row.runnerLabel()) && !Glob.matches(v, row.runner()))
        .ifPresent(v -> why.add("runner " + v + " ≠ " + row.runnerLabel() + "/" + row.runner()));
    return String.join(", ", why);
  }

  /** Glob matching with {@code *} and {@code ?} (the rest literal). */
  static final class Glob {
    private Glob() {}

    static boolean matches(String glob, String text) {
      StringBuilder re = new StringBuilder();
      for (char c : glob.toCharArray()) {
        switch (c) {
          case '*' -> re.append(".*");
          case '?' -> re.append('.');
          default -> re.append(java.util.regex.Pattern.quote(String.valueOf(c)));
        }
      }
      return text.matches(re.toString());
    }
  }
}
