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
 * Selection, bounds and eval mode of a full sweep ({@code generate full-sweep}). Defaults: no
 * filter, both node kinds, step factor 2, no bounds, default eval policy.
 *
 * <p>Filters: {@code modelPrefixes} match the start of the <em>config key</em> (not the
 * {@code model-prefix} field, as in the reference); {@code precisions}, {@code frameworks} and
 * {@code runnerTypes} match exactly; {@code seqLens} ({@code 1k1k}, {@code 8k1k}) keeps fixed blocks
 * of those families and never filters agentic rows. Bounds: see
 * {@link Generator#fullSweep(Catalog, io.infx.matrix.runners.RunnerInventory, FullSweepOptions)}.
 */
@Value.Immutable
@InfxStyle
public abstract class FullSweepOptions {

  public abstract List<String> modelPrefixes();

  public abstract List<String> precisions();

  public abstract List<String> frameworks();

  /** Runner labels; each must be a label of the runner file. */
  public abstract List<String> runnerTypes();

  /** Sequence families: {@code 1k1k}, {@code 8k1k}. */
  public abstract List<String> seqLens();

  /** Scenario lists to read; empty means both. */
  public abstract Set<ScenarioType> scenarioTypes();

  /** Expands each config to the concrete runner names containing this text. */
  public abstract Optional<String> runnerNodeFilter();

  @Value.Default
  public boolean singleNode() {
    return true;
  }

  @Value.Default
  public boolean multiNode() {
    return true;
  }

  /** Geometric step factor of concurrency ranges; must exceed 1. */
  @Value.Default
  public int stepSize() {
    return 2;
  }

  public abstract Optional<Integer> minConc();

  public abstract Optional<Integer> maxConc();

  /** Skips single-node fixed entries with a larger TP. */
  public abstract Optional<Integer> maxTp();

  /** Clamps an explicit single-node fixed EP to this value. */
  public abstract Optional<Integer> maxEp();

  @Value.Default
  public EvalMode evalMode() {
    return EvalMode.DEFAULT;
  }

  /** Keep only the minimum concurrency of each deployment shape, after eval selection. */
  @Value.Default
  public boolean trimConc() {
    return false;
  }

  /**
   * The command line's checks, all reported at once: {@code seqLens} values are families (V52),
   * {@code stepSize} exceeds 1 (V47), {@code minConc ≤ maxConc} when both are set (V48), smoke
   * evals are not trimmed (V50).
   *
   * @throws ValidationException (kind {@code USAGE}) listing every broken check, each with a pointer
   *     naming the attribute ({@code /stepSize}, {@code /seqLens/0}, …)
   */
  @Value.Check
  protected void check() {
    List<Violation> bad = new ArrayList<>(io.infx.matrix.internal.Expansion.seqLensViolations(seqLens()));
    if (stepSize() <= 1) {
      bad.add(Violation.builder().ruleId("V47.step-size").pointer("/stepSize")
          .message("the concurrency step factor must be greater than 1").expected("> 1")
          .actual(Integer.toString(stepSize())).build());
    }
    if (minConc().isPresent() && maxConc().isPresent() && minConc().get() > maxConc().get()) {
      bad.add(Violation.builder().ruleId("V48.conc-bounds").pointer("/minConc")
          .message("minConc must be less than or equal to maxConc").expected("≤ " + maxConc().get())
          .actual(Integer.toString(minConc().get())).build());
    }
    if (evalMode() == EvalMode.SMOKE && trimConc()) {
      bad.add(Violation.builder().ruleId("V50.smoke-trim").pointer("/trimConc")
          .message("smoke evals cannot be combined with trimming").build());
    }
    if (!bad.isEmpty()) {
      throw new ValidationException(ErrorKind.USAGE, bad);
    }
  }

  public static ImmutableFullSweepOptions.Builder builder() {
    return ImmutableFullSweepOptions.builder();
  }

  /** All defaults: everything, default evals. */
  public static FullSweepOptions defaults() {
    return builder().build();
  }
}
