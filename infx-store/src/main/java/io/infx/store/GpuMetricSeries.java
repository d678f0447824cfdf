package io.infx.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One stored GPU telemetry series ({@code gpu_metric_series}, InferenceX-app's shape): one CSV of a
 * {@code gpu_metrics_<suffix>} artifact, linked to the benchmark points it was recorded beside.
 *
 * @param id the series' row id ({@link ResultStore#gpuSamples(long)} reads its samples)
 * @param artifactName the artifact's full name, e.g. {@code gpu_metrics_dsr1_8k1k_…_b200-x_0}
 * @param configKey the name without {@code gpu_metrics_}: the suffix it shares with {@code bmk_<suffix>}
 * @param fileName the CSV's path inside the artifact
 * @param vendor {@code nvidia} or {@code amd}
 * @param source the collector: {@code dcgm} (infx's DCGM scraper), {@code nvidia-smi}, {@code amd-smi},
 *     or what the context sidecar names
 * @param simulated whether the simulator's DCGM endpoint produced it (power model, not a GPU)
 * @param sampleIntervalS median gap between a GPU's consecutive samples, seconds (absent with one sample)
 * @param sampleCount samples (GPU × instant)
 * @param gpuCount distinct GPUs
 * @param startedAt first sample
 * @param endedAt last sample
 * @param sidecars the parsed sidecars: {@code context}, {@code identity}, {@code energyStart},
 *     {@code energyEnd} (JSON; null members when absent)
 * @param stats the per-GPU digest, ordered by GPU then metric
 */
public record GpuMetricSeries(long id, String artifactName, String configKey, String fileName, String vendor,
    String source, boolean simulated, OptionalDouble sampleIntervalS, int sampleCount, int gpuCount,
    Instant startedAt, Instant endedAt, JsonNode sidecars, List<GpuMetricStat> stats) {

  public GpuMetricSeries {
    Objects.requireNonNull(artifactName, "artifactName");
    stats = List.copyOf(stats);
  }
}
