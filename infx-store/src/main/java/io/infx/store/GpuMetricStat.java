package io.infx.store;

/**
 * A per-GPU digest of one sampled metric over a whole series ({@code gpu_metric_gpu_stats}):
 * population standard deviation, percentiles interpolated linearly between closest ranks.
 *
 * @param gpuIndex the GPU
 * @param metric the sample column: {@code power_w} (W), {@code temperature_c}, {@code sm_clock_mhz},
 *     {@code mem_clock_mhz}, {@code gpu_util_pct}, {@code mem_util_pct}, {@code energy_j} (J, the
 *     cumulative counter), and AMD's {@code edge_temp_c} … {@code mm_activity_pct}
 */
public record GpuMetricStat(int gpuIndex, String metric, int sampleCount, double min, double max, double mean,
    double median, double p75, double p90, double p95, double p99, double stddev) {}
