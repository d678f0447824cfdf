package io.infx.matrix;

import io.infx.core.InfxStyle;
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

  @Value.Check
  protected void check() {
    io.infx.matrix.internal.Expansion.families(seqLens()); // rejects unknown families
    if (configKeys().isEmpty()) {
      throw new IllegalArgumentException("at least one config key is required");
    }
    if (evalMode() == EvalMode.SMOKE && trimConc()) {
      throw new IllegalArgumentException("smoke cannot be combined with trimming");
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
