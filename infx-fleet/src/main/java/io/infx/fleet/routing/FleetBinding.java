package io.infx.fleet.routing;

import io.infx.fleet.RunnerName;
import io.infx.matrix.runners.Cluster;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a runner's jobs go: the adapter id, the cluster record when the newer layout names one,
 * and the rule that decided (for messages and {@code job_event.json}).
 *
 * @param adapterId registered {@link io.infx.fleet.spi.FleetAdapter} id, e.g. {@code slurm}
 * @param runner the concrete runner
 * @param clusterId the {@code cluster:<id>} it belongs to, when known
 * @param cluster that cluster's record, when known
 * @param runnerLabels the runner's labels in the runner file when routed by one (e.g. its
 *     {@code partition:<name>} label), else empty
 * @param rule how it was resolved, e.g. {@code prefix h200-cw} or {@code cluster:h200-cw → scheduler slurm}
 */
public record FleetBinding(String adapterId, RunnerName runner, Optional<String> clusterId,
    Optional<Cluster> cluster, List<String> runnerLabels, String rule) {
  public FleetBinding {
    Objects.requireNonNull(adapterId, "adapterId");
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(clusterId, "clusterId");
    Objects.requireNonNull(cluster, "cluster");
    runnerLabels = List.copyOf(runnerLabels);
    Objects.requireNonNull(rule, "rule");
  }
}
