package io.infx.results.power;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.results.MultiNodeTopology;
import io.infx.results.SingleNodeTopology;
import io.infx.results.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The power stage the reference runs after normalizing a result: decides whether a valid GPU power
 * measurement covers the benchmark window and produces the energy metrics and the audit sidecar.
 *
 * <p>Single-node results are measured from a telemetry CSV (see {@link PowerSettings}). Multi-node
 * results would be measured from the srt-slurm power package, which infx does not read yet: they
 * are always reported invalid ({@code power_artifacts_missing} when the package directory is
 * absent, {@code multinode_power_package_unsupported} when it exists), so {@code REQUIRE_POWER}
 * fails them — the same outcome the reference has without telemetry.
 */
public final class PowerStage {

  private PowerStage() {}

  /**
   * Assesses the power measurement of one result.
   *
   * @param raw the raw result (window, request and token counts)
   * @param rawLabel the raw file name as recorded in the sidecar
   * @param topology the result's topology (expected GPU counts)
   * @param settings telemetry locations and policy
   * @param workDir directory that relative telemetry paths are resolved against
   */
  public static PowerValidation assess(
      JsonNode raw, String rawLabel, Topology topology, PowerSettings settings, Path workDir) {
    if (topology instanceof SingleNodeTopology s) {
      Path chosen = null;
      String label = null;
      for (Path candidate : settings.telemetryCandidates()) {
        Path resolved = workDir.resolve(candidate);
        if (Files.isRegularFile(resolved)) {
          chosen = resolved;
          label = candidate.toString();
          break;
        }
      }
      if (chosen == null) {
        Path first = settings.telemetryCandidates().isEmpty()
            ? Path.of("gpu_metrics.csv") : settings.telemetryCandidates().get(0);
        chosen = workDir.resolve(first);
        label = first.toString();
      }
      return SingleNodePower.assess(raw, chosen, label, rawLabel, s.totalGpus(),
          settings.maxSampleGapSeconds(), ZoneId.systemDefault());
    }
    MultiNodeTopology m = (MultiNodeTopology) topology;
    Path dir = workDir.resolve(settings.powerArtifactDir());
    List<String> reasons = new ArrayList<>(BenchmarkWindow.load(raw).reasons());
    SingleNodePower.add(reasons, Files.isDirectory(dir)
        ? "multinode_power_package_unsupported" : "power_artifacts_missing");
    ObjectNode sidecar = Json.mapper().createObjectNode();
    sidecar.put("schema_version", 1);
    sidecar.put("power_valid", false);
    ArrayNode r = sidecar.putArray("reasons");
    reasons.forEach(r::add);
    sidecar.put("power_artifact_dir", settings.powerArtifactDir().toString());
    sidecar.put("benchmark_result", rawLabel);
    sidecar.put("expected_prefill_gpu_count", m.effectivePrefillGpus());
    sidecar.put("expected_decode_gpu_count", m.decodeGpus());
    sidecar.putObject("metrics");
    return new PowerValidation(false, reasons, Map.of(), sidecar);
  }
}
