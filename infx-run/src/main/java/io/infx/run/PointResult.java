package io.infx.run;

import io.infx.client.ServeMetrics;
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
 * @param noResult set when the adapter ended the point without a result by design (submitted to a
 *     system that runs it later, or a dry run): neither a measurement nor a failure
 * @param metrics the load generator's typed statistics, when it ran in this JVM (the {@code local}
 *     and container adapters; empty for points benchmarked by another process)
 */
public record PointResult(Optional<Path> aggregate, Optional<String> failure, Optional<Eval> eval,
    Optional<NoResult> noResult, Optional<ServeMetrics> metrics) {

  /**
   * A point the adapter ended without a result, on purpose.
   *
   * @param kind submitted or dry run
   * @param detail the adapter's own words, e.g. a job or pipeline id; may be empty
   */
  public record NoResult(Kind kind, String detail) {
    /** Why there is no result. */
    public enum Kind { SUBMITTED, DRY_RUN }

    public NoResult {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(detail, "detail");
    }
  }

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
    Objects.requireNonNull(noResult, "noResult");
    Objects.requireNonNull(metrics, "metrics");
    if (noResult.isPresent() && (aggregate.isPresent() || failure.isPresent() || eval.isPresent())) {
      throw new IllegalArgumentException("a point ended without a result has no aggregate, failure or eval");
    }
    if (failure.isEmpty() && aggregate.isEmpty() && eval.isEmpty() && noResult.isEmpty()) {
      throw new IllegalArgumentException("a successful point result has an aggregate or an eval");
    }
    if (failure.isPresent() && aggregate.isPresent()) {
      throw new IllegalArgumentException("a point result has either an aggregate or a failure");
    }
  }

  public PointResult(Optional<Path> aggregate, Optional<String> failure, Optional<Eval> eval,
      Optional<NoResult> noResult) {
    this(aggregate, failure, eval, noResult, Optional.empty());
  }

  public PointResult(Optional<Path> aggregate, Optional<String> failure, Optional<Eval> eval) {
    this(aggregate, failure, eval, Optional.empty());
  }

  /** This result with the typed statistics of a load generator that ran in this JVM. */
  public PointResult withMetrics(Optional<ServeMetrics> metrics) {
    return new PointResult(aggregate, failure, eval, noResult, metrics);
  }

  public PointResult(Optional<Path> aggregate, Optional<String> failure) {
    this(aggregate, failure, Optional.empty());
  }

  /** The adapter submitted the point or only showed it ({@code detail}: its words, e.g. a job id). */
  public static PointResult endedWithoutResult(NoResult.Kind kind, String detail) {
    return new PointResult(Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.of(new NoResult(kind, detail)));
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
