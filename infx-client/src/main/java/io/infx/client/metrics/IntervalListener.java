package io.infx.client.metrics;

/**
 * Receives the latency histograms of each interval of a running serve benchmark, in
 * HdrHistogram's {@code Recorder} style: the run records wait-free from its I/O threads, and every
 * {@link IntervalReporting#every() interval} the recorder's {@code getIntervalHistogram()} hands
 * over what was recorded since the previous interval. Register it with
 * {@code ServeBenchmark.builder().intervals(IntervalReporting.every(Duration.ofSeconds(1), l))} (or
 * the same option of {@code ServeJob}).
 *
 * <p>Calls come one at a time, in order, from a background thread ({@code infx-intervals}); the
 * last one, for the partial interval that ends with the measured phase, comes from the thread
 * that called {@code run()} before {@code run()} returns. Keep the callback short: the next
 * interval waits for it (recording does not). An exception it throws is logged and dropped; the
 * run goes on.
 */
@FunctionalInterface
public interface IntervalListener {

  /** Called with the snapshot of one interval. */
  void onInterval(IntervalMetrics interval);
}
