package io.infx.results.power;

import io.infx.core.InfxStyle;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Where the power stage looks for GPU telemetry and whether a missing or invalid measurement fails
 * the result. Relative paths are taken against the result's working directory.
 *
 * <p>Reference ({@code utils/process_result.py}): single-node telemetry is the first existing file
 * of {@code $GPU_METRICS_CSV}, {@code gpu_metrics.csv}, {@code /workspace/gpu_metrics.csv};
 * multi-node telemetry is the srt-slurm power package under {@code $POWER_ARTIFACT_DIR}
 * (default {@code LOGS/power}).
 */
@Value.Immutable
@InfxStyle
public abstract class PowerSettings {

  /** Single-node telemetry CSV candidates, first existing file wins. */
  @Value.Default
  public List<Path> telemetryCandidates() {
    return List.of(Paths.get("gpu_metrics.csv"), Paths.get("/workspace/gpu_metrics.csv"));
  }

  /** Multi-node power package directory. */
  @Value.Default
  public Path powerArtifactDir() {
    return Paths.get("LOGS", "power");
  }

  /** Multi-node results root ({@code POWER_RESULT_ROOT}). */
  @Value.Default
  public Path powerResultRoot() {
    return Paths.get("LOGS");
  }

  /** Expected producer commit of the multi-node power package ({@code POWER_PRODUCER_SHA}). */
  public abstract Optional<String> producerSha();

  /** Fail (after writing the aggregate) when no valid measurement exists ({@code REQUIRE_POWER}). */
  @Value.Default
  public boolean requirePower() {
    return false;
  }

  /** Largest gap between two samples of one GPU inside the window, seconds. */
  @Value.Default
  public double maxSampleGapSeconds() {
    return 3.0;
  }

  public static ImmutablePowerSettings.Builder builder() {
    return ImmutablePowerSettings.builder();
  }

  /** Defaults: reference candidates, best effort. */
  public static PowerSettings defaults() {
    return builder().build();
  }

  /**
   * Reads {@code GPU_METRICS_CSV}, {@code REQUIRE_POWER} (on by {@link io.infx.core.launch.LaunchVariable#isFlagOn}: {@code 1}/{@code true}/{@code yes}/{@code on}),
   * {@code POWER_ARTIFACT_DIR}, {@code POWER_RESULT_ROOT} and {@code POWER_PRODUCER_SHA}.
   */
  public static PowerSettings fromEnvironment(Map<String, String> env) {
    ImmutablePowerSettings.Builder b = builder();
    String csv = env.get(io.infx.core.launch.LaunchVariable.GPU_METRICS_CSV.name());
    if (csv != null && !csv.isEmpty()) {
      b.telemetryCandidates(List.of(
          Paths.get(csv), Paths.get("gpu_metrics.csv"), Paths.get("/workspace/gpu_metrics.csv")));
    }
    b.requirePower(io.infx.core.launch.LaunchVariable.REQUIRE_POWER.isOnIn(env));
    b.powerArtifactDir(Paths.get(env.getOrDefault(io.infx.core.launch.LaunchVariable.POWER_ARTIFACT_DIR.name(), "LOGS/power")));
    b.powerResultRoot(Paths.get(env.getOrDefault(io.infx.core.launch.LaunchVariable.POWER_RESULT_ROOT.name(), "LOGS")));
    String sha = env.get(io.infx.core.launch.LaunchVariable.POWER_PRODUCER_SHA.name());
    if (sha != null && !sha.isEmpty()) {
      b.producerSha(sha);
    }
    return b.build();
  }
}
