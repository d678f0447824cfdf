package io.infx.matrix;

import io.infx.core.ErrorKind;
import io.infx.core.InfxStyle;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.immutables.value.Value;

/**
 * Selection of a {@code generate test-config} run: config keys (exact keys or shell-style
 * {@code *}/{@code ?}/{@code [..]} patterns, resolved in the order given, de-duplicated), optional
 * concurrency and experiment-name filters. Step factor is always 2; no bounds or caps.
 */
@Value.Immutable
@InfxStyle
public abstract class TestConfigOptions {

  /** Exact keys or glob patterns; at least one. */
  public abstract List<String> configKeys();

  /** Keep only these concurrency values (never invents one). */
  public abstract List<Integer> concs();

  /** Keep only rows with these exact {@code exp-name}s (each must match exactly one row). */
  public abstract List<String> expNames();

  public abstract List<String> seqLens();

  public abstract Set<ScenarioType> scenarioTypes();

  public abstract Optional<String> runnerNodeFilter();

  @Value.Default
  public EvalMode evalMode() {
    return EvalMode.DEFAULT;
  }

  @Value.Default
  public boolean trimConc() {
    return false;
  }

  /**
   * The command line's checks, all reported at once: {@code seqLens} values are families (V52), at
   * least one config key (V53), smoke evals are not trimmed (V50).
   *
   * @throws ValidationException (kind {@code USAGE}) listing every broken check
   */
  @Value.Check
  protected void check() {
    List<Violation> bad = new ArrayList<>(io.infx.matrix.internal.Expansion.seqLensViolations(seqLens()));
    if (configKeys().isEmpty()) {
      bad.add(Violation.builder().ruleId("V53.config-keys").pointer("/configKeys")
          .message("at least one config key is required").build());
    }
    if (evalMode() == EvalMode.SMOKE && trimConc()) {
      bad.add(Violation.builder().ruleId("V50.smoke-trim").pointer("/trimConc")
          .message("smoke evals cannot be combined with trimming").build());
    }
    if (!bad.isEmpty()) {
      throw new ValidationException(ErrorKind.USAGE, bad);
    }
  }

  public static ImmutableTestConfigOptions.Builder builder() {
    return ImmutableTestConfigOptions.builder();
  }

  /** Every row of {@code keys}, default evals. */
  public static TestConfigOptions of(String... keys) {
    return builder().addConfigKeys(keys).build();
  }
}
