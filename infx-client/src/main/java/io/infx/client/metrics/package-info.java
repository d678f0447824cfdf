/**
 * Latency statistics and histograms of serve runs.
 *
 * <ul>
 *   <li>{@link io.infx.client.metrics.SampleStats} — numpy-exact statistics of a sample, unit-free;
 *   <li>{@link io.infx.client.metrics.LatencyStats} — one latency metric (TTFT, TPOT, ITL, E2EL, …)
 *       of a run, from the exact samples, with millisecond and {@link java.time.Duration} views;
 *   <li>{@link io.infx.client.metrics.IntervalReporting}, {@link io.infx.client.metrics.IntervalListener}
 *       and {@link io.infx.client.metrics.IntervalMetrics} — HdrHistogram interval histograms
 *       during a run, in the style of HdrHistogram's {@code Recorder}.
 * </ul>
 *
 * <p><b>Units convention.</b> A number carries its unit in its name ({@code meanMillis()},
 * {@code durationSeconds()}, {@code gcMillis()}); a {@link java.time.Duration} carries its own
 * and has none ({@code mean()}, {@code percentile(99)}). HdrHistograms hold <b>microseconds</b>
 * (TPOT: µs per output token), 3 significant digits; they are for merging and plotting, while the
 * reported statistics come from the exact samples (client spec §5.3).
 *
 * <p><b>Empty.</b> A statistic of no samples is an empty {@link java.util.OptionalDouble} /
 * {@link java.util.Optional}, with {@code isEmpty()} true. The raw result file still writes the
 * reference's 0.0 for it.
 */
package io.infx.client.metrics;
