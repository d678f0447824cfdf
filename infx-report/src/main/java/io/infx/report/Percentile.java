package io.infx.report;

/**
 * The latency statistics a report shows. {@link #P50} is the median; the reference aggregates
 * publish it as {@code median_*} (fixed-sequence) or {@code p50} (AgentX).
 */
public enum Percentile {
  MEAN("mean"),
  P50("p50"),
  P90("p90"),
  P95("p95"),
  P99("p99"),
  P99_9("p99.9");

  private final String label;

  Percentile(String label) {
    this.label = label;
  }

  /** Short label as shown in charts and tables: {@code mean}, {@code p50}, …, {@code p99.9}. */
  public String label() {
    return label;
  }
}
