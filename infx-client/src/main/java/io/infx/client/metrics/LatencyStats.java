package io.infx.client.metrics;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The distribution of one latency metric of a serve run (TTFT, TPOT, ITL, E2EL and infx's extra
 * views), computed from the exact samples as the reference does (see {@link SampleStats}).
 *
 * <p><b>Units.</b> A number's unit is in its name; a {@link Duration} needs none:
 * <ul>
 *   <li>{@code meanMillis()}, {@code percentileMillis(99)}, … are milliseconds, computed as the
 *       statistic in seconds × 1000 — bit for bit the value the raw result file writes (the
 *       reference's {@code mean_ttft_ms}, {@code p99_tpot_ms}, …);
 *   <li>{@code mean()}, {@code percentile(99)}, … are the same statistics as {@link Duration}s
 *       (rounded to the nanosecond);
 *   <li>{@link #seconds()} is the underlying {@link SampleStats}, in seconds (the reference's
 *       internal unit).
 * </ul>
 * TPOT is a time per output token: its values are ms (or a {@code Duration}) per token.
 *
 * <p><b>Empty.</b> Without samples (every request failed; no request produced more than one token
 * for TPOT) {@link #isEmpty()} is true and every statistic is empty — not 0.0 as in the raw file.
 *
 * <p>Immutable and thread-safe. {@link #toString()} reads e.g.
 * {@code LatencyStats{n=40, mean=12.31ms, p50=11.9ms, p90=15.02ms, p99=20.1ms, max=21.4ms}}.
 */
public final class LatencyStats {

  private final SampleStats seconds;

  private LatencyStats(SampleStats seconds) {
    this.seconds = seconds;
  }

  /** The distribution of {@code samples}, given in <b>seconds</b> (copied). */
  public static LatencyStats ofSeconds(double[] samples) {
    return new LatencyStats(SampleStats.of(Objects.requireNonNull(samples, "samples")));
  }

  /** A view of {@code seconds} (statistics of samples in seconds). */
  public static LatencyStats ofSeconds(SampleStats seconds) {
    return new LatencyStats(Objects.requireNonNull(seconds, "seconds"));
  }

  /** The statistics in seconds, as the reference computes them before it multiplies by 1000. */
  public SampleStats seconds() {
    return seconds;
  }

  /** Number of samples. */
  public int count() {
    return seconds.count();
  }

  /** True when there is no sample (then every statistic is empty). */
  public boolean isEmpty() {
    return seconds.isEmpty();
  }

  /** Mean in ms (the raw file's {@code mean_<metric>_ms}); empty without samples. */
  public OptionalDouble meanMillis() {
    return millis(seconds.mean());
  }

  /** numpy median in ms ({@code median_<metric>_ms}); empty without samples. */
  public OptionalDouble medianMillis() {
    return millis(seconds.median());
  }

  /** Population standard deviation in ms ({@code std_<metric>_ms}); empty without samples. */
  public OptionalDouble stdMillis() {
    return millis(seconds.std());
  }

  /** Smallest sample in ms; empty without samples. */
  public OptionalDouble minMillis() {
    return millis(seconds.min());
  }

  /** Largest sample in ms; empty without samples. */
  public OptionalDouble maxMillis() {
    return millis(seconds.max());
  }

  /**
   * numpy linear percentile in ms ({@code p<p>_<metric>_ms}); empty without samples.
   *
   * @param p in [0, 100] (99.9, not 0.999)
   * @throws IllegalArgumentException if {@code p} is outside [0, 100] or NaN
   */
  public OptionalDouble percentileMillis(double p) {
    return millis(seconds.percentile(p));
  }

  /** {@link #meanMillis()} as a {@link Duration}. */
  public Optional<Duration> mean() {
    return duration(seconds.mean());
  }

  /** {@link #medianMillis()} as a {@link Duration}. */
  public Optional<Duration> median() {
    return duration(seconds.median());
  }

  /** {@link #stdMillis()} as a {@link Duration}. */
  public Optional<Duration> std() {
    return duration(seconds.std());
  }

  /** {@link #minMillis()} as a {@link Duration}. */
  public Optional<Duration> min() {
    return duration(seconds.min());
  }

  /** {@link #maxMillis()} as a {@link Duration}. */
  public Optional<Duration> max() {
    return duration(seconds.max());
  }

  /**
   * {@link #percentileMillis(double)} as a {@link Duration}.
   *
   * @throws IllegalArgumentException if {@code p} is outside [0, 100] or NaN
   */
  public Optional<Duration> percentile(double p) {
    return duration(seconds.percentile(p));
  }

  private static OptionalDouble millis(OptionalDouble s) {
    // × 1000 on the seconds value, exactly as the raw-result writer computes its *_ms fields
    return s.isPresent() ? OptionalDouble.of(s.getAsDouble() * 1000) : OptionalDouble.empty();
  }

  private static Optional<Duration> duration(OptionalDouble s) {
    return s.isPresent() ? Optional.of(Duration.ofNanos(Math.round(s.getAsDouble() * 1e9)))
        : Optional.empty();
  }

  /** {@code LatencyStats{n=0}}, else n, mean, p50, p90, p99 and max in ms (4 significant digits). */
  @Override
  public String toString() {
    return "LatencyStats" + SampleStats.summary(seconds, 1000, "ms");
  }
}
