package io.infx.run;

import io.infx.results.evals.ValidationReport;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link PointLauncher} produced for one point.
 *
 * @param aggregate {@code agg_<RESULT_FILENAME>.json} in the point's workspace, when the point
 *     measured throughput and succeeded
 * @param failure what went wrong, as shown to a user, when it did not
 * @param eval the eval of an eval point (run-eval or eval-only row): its staged output and score
 *     gate; present on a failed gate too
 */
public record PointResult(Optional<Path> aggregate, Optional<String> failure, Optional<Eval> eval) {

  /**
   * An eval point's eval: {@code meta_env.json}, {@code results*_conc<N>.json} and
   * {@code samples_*_conc<N>.jsonl} in {@code workspace}, and the gate's report
   * ({@code validate_scores.py} on them).
   */
  public record Eval(Path workspace, ValidationReport gate) {
    public Eval {
      Objects.requireNonNull(workspace, "workspace");
      Objects.requireNonNull(gate, "gate");
    }
  }

  public PointResult {
    Objects.requireNonNull(aggregate, "aggregate");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(eval, "eval");
    if (failure.isEmpty() && aggregate.isEmpty() && eval.isEmpty()) {
      throw new IllegalArgumentException("a successful point result has an aggregate or an eval");
    }
    if (failure.isPresent() && aggregate.isPresent()) {
      throw new IllegalArgumentException("a point result has either an aggregate or a failure");
    }
  }

  public PointResult(Optional<Path> aggregate, Optional<String> failure) {
    this(aggregate, failure, Optional.empty());
  }

  public static PointResult succeeded(Path aggregate) {
    return new PointResult(Optional.of(aggregate), Optional.empty(), Optional.empty());
  }

  /** A run-eval point: throughput measured and the eval gate passed. */
  public static PointResult succeeded(Path aggregate, Eval eval) {
    return new PointResult(Optional.of(aggregate), Optional.empty(), Optional.of(eval));
  }

  /** An eval-only point whose gate passed. */
  public static PointResult evalOnly(Eval eval) {
    return new PointResult(Optional.empty(), Optional.empty(), Optional.of(eval));
  }

  public static PointResult failed(String message) {
    return new PointResult(Optional.empty(), Optional.of(message), Optional.empty());
  }

  /** A failed eval point whose output is kept (e.g. scores below threshold). */
  public static PointResult failed(String message, Eval eval) {
    return new PointResult(Optional.empty(), Optional.of(message), Optional.of(eval));
  }

  public boolean ok() {
    return failure.isEmpty();
  }
}
