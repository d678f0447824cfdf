package io.infx.run;

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
 */
public record PointOutcome(PlannedPoint point, Status status, Optional<String> message, Duration took) {

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
  }

  /** Whether the point has an aggregate (measured now or by an earlier run). */
  public boolean hasResult() {
    return status == Status.SUCCEEDED || status == Status.RESUMED;
  }
}
