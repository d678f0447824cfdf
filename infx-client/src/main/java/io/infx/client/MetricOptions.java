package io.infx.client;

import static io.infx.core.Wording.setting;

import io.infx.core.InfxStyle;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.immutables.value.Value;

/**
 * Which statistics a result reports, as the reference's {@code --percentile-metrics},
 * {@code --metric-percentiles} and {@code --goodput} flags.
 */
@Value.Immutable
@InfxStyle
public abstract class MetricOptions {

  private static final Set<String> METRICS = Set.of("ttft", "tpot", "itl", "e2el");

  /** Metric groups saved, in the reference's order ttft, tpot, itl, e2el. Default all four. */
  @Value.Default
  public List<String> percentileMetrics() {
    return List.of("ttft", "tpot", "itl", "e2el");
  }

  /** Percentiles reported per metric. Default 90, 99, 99.9. */
  @Value.Default
  public List<Double> metricPercentiles() {
    return List.of(90.0, 99.0, 99.9);
  }

  /** Goodput SLOs in ms by metric ({@code ttft}, {@code tpot}, {@code e2el}); empty: no goodput. */
  public abstract Map<String, Double> goodput();

  /** Failures whose details are kept in the result. Default 5. */
  @Value.Default
  public int keepFailures() {
    return 5;
  }

  @Value.Check
  protected void check() {
    for (String m : percentileMetrics()) {
      if (!METRICS.contains(m)) {
        throw new UsageException(Wording.of(setting("percentileMetrics"), ": unknown metric '" + m
            + "' (known: ttft, tpot, itl, e2el)"));
      }
    }
    for (double p : metricPercentiles()) {
      if (!(p >= 0 && p <= 100)) {
        throw new UsageException(Wording.of(setting("metricPercentiles"), ": " + p + " is not in [0, 100]"));
      }
    }
    for (Map.Entry<String, Double> e : goodput().entrySet()) {
      if (!Set.of("ttft", "tpot", "e2el").contains(e.getKey())) {
        throw new UsageException(Wording.of(setting("goodput"), ": invalid metric name '" + e.getKey()
            + "' (valid: ttft, tpot, e2el)"));
      }
      if (!(e.getValue() >= 0)) {
        throw new UsageException(Wording.of(setting("goodput"), ": the SLO of " + e.getKey()
            + " must be a non-negative number of milliseconds, got " + e.getValue()));
      }
    }
  }

  public static ImmutableMetricOptions.Builder builder() {
    return ImmutableMetricOptions.builder();
  }

  public static MetricOptions defaults() {
    return builder().build();
  }
}
