package io.infx.results.evals;

import io.infx.core.InfxStyle;
import java.nio.file.Path;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * What {@link ScoreValidator} checks, with the defaults of {@code validate_scores.py}. Relative
 * paths and the results glob resolve against {@link #workingDir()}; messages show them as given.
 */
@Value.Immutable
@InfxStyle
public abstract class ValidationOptions {

  /** Directory relative paths resolve against (the reference's current directory). */
  public abstract Path workingDir();

  /** {@code --min-score}: the threshold of a task no config entry covers (default 0.85). */
  @Value.Default
  public double minScore() {
    return 0.85;
  }

  /**
   * {@code --thresholds}: the thresholds file as given. Empty means the default file
   * ({@link #defaultThresholds()}) when it exists; an empty string means none.
   */
  public abstract Optional<String> thresholds();

  /**
   * The built-in thresholds file, used when {@link #thresholds()} is empty and the file exists;
   * printed as its absolute path. The command line uses {@code utils/evals/thresholds.yaml} under
   * the working directory, as the reference (run from the repository root) does.
   */
  public abstract Optional<Path> defaultThresholds();

  /** {@code --meta-env}: the artifact's metadata file (default {@code meta_env.json}). */
  @Value.Default
  public String metaEnv() {
    return "meta_env.json";
  }

  /** {@code --model-prefix}: overrides the prefix read from meta_env.json and $MODEL_PREFIX. */
  public abstract Optional<String> modelPrefix();

  /** The value of the {@code MODEL_PREFIX} environment variable, the last prefix source. */
  public abstract Optional<String> environmentModelPrefix();

  /** {@code --metric-prefix}: only metrics whose name starts with it are checked. */
  @Value.Default
  public String metricPrefix() {
    return "exact_match,";
  }

  /** {@code --results-glob}: lm-eval result files (Python {@code glob.glob}; default {@code results*.json}). */
  @Value.Default
  public String resultsGlob() {
    return "results*.json";
  }

  /**
   * {@code --expected-concs}: the whitespace-separated concurrencies the workflow requested (a
   * batched multi-node eval); they must be unique positive integers.
   */
  public abstract Optional<String> expectedConcs();

  public static ImmutableValidationOptions.Builder builder() {
    return ImmutableValidationOptions.builder();
  }
}
