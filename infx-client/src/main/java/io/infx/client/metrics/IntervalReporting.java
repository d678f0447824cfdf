package io.infx.client.metrics;

import java.time.Duration;
import java.util.Objects;

/**
 * Interval reporting of a serve benchmark: {@link #listener()} receives an
 * {@link IntervalMetrics} every {@link #every()} of the measured phase, plus one for the final
 * partial interval. Merging the intervals' histograms gives exactly the run's final histograms.
 * Intervals end on the boundaries {@code every}, {@code 2 × every}, … from the start of the
 * measured phase; after a stall (a slow listener, a descheduled thread) the boundaries that passed
 * are skipped, so one interval is longer rather than several empty ones following —
 * {@link IntervalMetrics#start()} and {@link IntervalMetrics#end()} always say what it covers.
 *
 * @param every the interval length, at least 1 ms
 * @param listener the receiver of each interval
 */
public record IntervalReporting(Duration every, IntervalListener listener) {

  /** The shortest interval: below it the sampler thread would take CPU from the run. */
  public static final Duration MIN_INTERVAL = Duration.ofMillis(1);

  /**
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code every} is shorter than {@link #MIN_INTERVAL}
   */
  public IntervalReporting {
    Objects.requireNonNull(every, "every");
    Objects.requireNonNull(listener, "listener");
    if (every.compareTo(MIN_INTERVAL) < 0) {
      throw new IllegalArgumentException("interval must be at least 1 ms, got " + every);
    }
  }

  /** {@code listener} every {@code every}; see the record's constructor for the checks. */
  public static IntervalReporting every(Duration every, IntervalListener listener) {
    return new IntervalReporting(every, listener);
  }
}
