package io.infx.client.metrics;

import java.time.Duration;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * What one interval of a running serve benchmark recorded (see {@link IntervalListener}): the
 * TTFT, TPOT, ITL and E2EL histograms of the requests that finished in it, and its request and
 * token counts. Immutable: each histogram accessor returns a fresh copy.
 *
 * <p><b>Units.</b> Histogram values are <b>microseconds</b> (TPOT: µs per output token), 3
 * significant digits, as {@code ServeResult}'s final histograms; {@link #start()} and
 * {@link #end()} are offsets from the start of the measured phase.
 *
 * <p><b>Exact merge.</b> Every recorded value lands in exactly one interval, so adding the
 * histograms of all intervals of a run ({@link Histogram#add}) gives the run's final histograms
 * exactly, and the counts add up to the run's totals. A request that finishes while an interval
 * is being cut may have its counts in one interval and its latencies in the next.
 *
 * @param index 0 for the first interval of the measured phase, then 1, 2, …
 * @param start when the interval began, from the start of the measured phase
 * @param end when it ended (the next interval's {@code start})
 * @param completed successful requests that finished in the interval
 * @param failed requests that finished in the interval with a failure (cancellations excluded)
 * @param outputTokens output tokens of the successful requests that finished in it
 */
public record IntervalMetrics(int index, Duration start, Duration end, long completed,
    long failed, long outputTokens, Histogram ttftHistogram, Histogram tpotHistogram,
    Histogram itlHistogram, Histogram e2elHistogram) {

  /** Copies the histograms, so the snapshot stays immutable whatever the caller does. */
  public IntervalMetrics {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    ttftHistogram = Objects.requireNonNull(ttftHistogram, "ttftHistogram").copy();
    tpotHistogram = Objects.requireNonNull(tpotHistogram, "tpotHistogram").copy();
    itlHistogram = Objects.requireNonNull(itlHistogram, "itlHistogram").copy();
    e2elHistogram = Objects.requireNonNull(e2elHistogram, "e2elHistogram").copy();
  }

  /** TTFT of the requests that finished in the interval (µs); a copy. */
  @Override
  public Histogram ttftHistogram() {
    return ttftHistogram.copy();
  }

  /** TPOT (µs per output token) of those with more than one output token; a copy. */
  @Override
  public Histogram tpotHistogram() {
    return tpotHistogram.copy();
  }

  /** Per-chunk ITL gaps (µs) of the requests that finished in the interval; a copy. */
  @Override
  public Histogram itlHistogram() {
    return itlHistogram.copy();
  }

  /** E2EL (µs) of the requests that finished in the interval; a copy. */
  @Override
  public Histogram e2elHistogram() {
    return e2elHistogram.copy();
  }

  /** {@code end − start}. */
  public Duration length() {
    return end.minus(start);
  }

  /** Completed requests per second of the interval (req/s); 0 for an empty-length interval. */
  public double requestThroughput() {
    double s = length().toNanos() / 1e9;
    return s > 0 ? completed / s : 0;
  }

  /** Output tokens per second of the interval (tok/s); 0 for an empty-length interval. */
  public double outputThroughput() {
    double s = length().toNanos() / 1e9;
    return s > 0 ? outputTokens / s : 0;
  }

  /**
   * {@code IntervalMetrics{#3 [1.500s, 2.000s), completed=12, failed=0, outputTokens=768,
   * ttft p50/p99=10.2/15.1ms, tpot p50/p99=…}}.
   */
  @Override
  public String toString() {
    return "IntervalMetrics{#" + index + " [" + seconds(start) + ", " + seconds(end) + "), completed="
        + completed + ", failed=" + failed + ", outputTokens=" + outputTokens
        + ", ttft " + p50p99(ttftHistogram) + ", tpot " + p50p99(tpotHistogram)
        + ", itl " + p50p99(itlHistogram) + ", e2el " + p50p99(e2elHistogram) + "}";
  }

  private static String seconds(Duration d) {
    return String.format(java.util.Locale.ROOT, "%.3fs", d.toNanos() / 1e9);
  }

  private static String p50p99(Histogram h) {
    if (h.getTotalCount() == 0) {
      return "n=0";
    }
    return "p50/p99=" + SampleStats.fmt(h.getValueAtPercentile(50) / 1000.0) + "/"
        + SampleStats.fmt(h.getValueAtPercentile(99) / 1000.0) + "ms";
  }
}
