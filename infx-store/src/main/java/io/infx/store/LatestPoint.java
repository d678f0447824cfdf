package io.infx.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.store.mapping.ConfigParams;
import java.time.LocalDate;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One benchmark point as the dashboard reads it: the 17 config columns, the point's coordinates,
 * its metrics and where it came from. Latencies are in the artifact's units (fixed-sequence rows:
 * seconds, as InferenceX's aggregates carry them); throughput in tok/s and tok/s/GPU;
 * interactivity in tok/s/user.
 *
 * @param config the configuration
 * @param benchmarkType {@code single_turn} or {@code agentic_traces}
 * @param isl input sequence length in tokens (null for agentic rows)
 * @param osl output sequence length in tokens (null for agentic rows)
 * @param conc concurrency (agentic: users)
 * @param offloadMode KV offload mode
 * @param recipeFingerprint the producer's recipe identity, or null
 * @param image the serving image, or null
 * @param date the run's date
 * @param runId the run's id
 * @param runUrl the run's URL, or null
 * @param metrics all metrics (a JSON object)
 * @param simulated whether the point came from the embedded simulator
 * @param serverEngine the serving engine that produced it, when recorded
 * @param serverVersion its version, when recorded
 * @param id the stored row's id ({@link ResultStore#telemetry(long)} reads its telemetry)
 */
public record LatestPoint(
    ConfigParams config,
    String benchmarkType,
    Integer isl,
    Integer osl,
    int conc,
    String offloadMode,
    String recipeFingerprint,
    String image,
    LocalDate date,
    String runId,
    String runUrl,
    JsonNode metrics,
    boolean simulated,
    String serverEngine,
    String serverVersion,
    long id) {

  public LatestPoint {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(metrics, "metrics");
  }

  /** The point's power and energy, when its metrics carry a valid measurement. */
  public java.util.Optional<PointPower> power() {
    return PointPower.of(metrics);
  }

  /** A numeric metric ({@code tput_per_gpu}, {@code median_intvty}, {@code p99_ttft}, …), if present. */
  public OptionalDouble metric(String name) {
    JsonNode v = metrics.get(name);
    return v != null && v.isNumber() ? OptionalDouble.of(v.doubleValue()) : OptionalDouble.empty();
  }
}
