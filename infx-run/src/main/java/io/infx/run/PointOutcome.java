package io.infx.run;

import io.infx.client.ServeMetrics;
import io.infx.results.AggregateRow;
import io.infx.results.AggregateRows;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one planned point ended.
 *
 * @param point the planned point
 * @param status what happened
 * @param message the failure or skip reason; empty on success
 * @param took wall time spent on the point (zero when it was not launched)
 * @param aggregate the point's fixed-sequence aggregate row, typed: the {@code agg_<RESULT_FILENAME>.json}
 *     the run published for it (this run's or, resumed, an earlier run's), read back with {@link
 *     AggregateRows#fromJson}; empty without a result, for AgentX and eval-only points
 * @param metrics the load generator's typed statistics (TTFT/TPOT/ITL/E2EL {@code LatencyStats}
 *     and counts) when the point was benchmarked in this JVM ({@code local} or container adapter,
 *     one repetition); empty for points run by another process (Slurm, a plugin adapter), resumed
 *     or repeated points — their numbers are in {@link #aggregate()}
 */
public record PointOutcome(PlannedPoint point, Status status, Optional<String> message, Duration took,
    Optional<AggregateRow> aggregate, Optional<ServeMetrics> metrics) {

  /**
   * Final state of a point. {@code SUBMITTED} and {@code DRY_RUN}: the adapter handed the point to a
   * system that runs it later, or only showed what it would run — no result, and no failure.
   */
  public enum Status { SUCCEEDED, RESUMED, FAILED, SKIPPED, SUBMITTED, DRY_RUN }

  public PointOutcome {
    Objects.requireNonNull(point, "point");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(took, "took");
    Objects.requireNonNull(aggregate, "aggregate");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** An outcome without a typed row or statistics (not launched, failed, handed over). */
  public PointOutcome(PlannedPoint point, Status status, Optional<String> message, Duration took) {
    this(point, status, message, took, Optional.empty(), Optional.empty());
  }

  /** Whether the point has an aggregate (measured now or by an earlier run). */
  public boolean hasResult() {
    return status == Status.SUCCEEDED || status == Status.RESUMED;
  }
}
