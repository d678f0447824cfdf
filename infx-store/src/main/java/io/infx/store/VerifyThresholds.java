package io.infx.store;

/**
 * Limits {@code infx db verify} enforces (the reference only fails on exceptions).
 *
 * @param minBenchmarkRows fewest successful benchmark rows the store must hold
 * @param minCoverage smallest fraction (0…1) of successful rows that must carry each charted metric
 *     (tput_per_gpu, output/input tput per GPU, median/p99 TTFT, median E2EL, median interactivity)
 * @param maxErrorRate largest fraction (0…1) of benchmark rows with an error
 */
public record VerifyThresholds(long minBenchmarkRows, double minCoverage, double maxErrorRate) {

  public VerifyThresholds {
    if (minBenchmarkRows < 0 || minCoverage < 0 || minCoverage > 1 || maxErrorRate < 0 || maxErrorRate > 1) {
      throw new IllegalArgumentException("thresholds: rows >= 0, fractions within 0..1");
    }
  }

  /** No limits: verify reports, never fails. */
  public static VerifyThresholds none() {
    return new VerifyThresholds(0, 0, 1);
  }
}
