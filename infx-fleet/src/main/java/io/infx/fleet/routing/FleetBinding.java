package io.infx.fleet.routing;

import io.infx.fleet.RunnerName;
import io.infx.matrix.runners.Cluster;
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
 * @param rule how it was resolved, e.g. {@code prefix h200-cw} or {@code cluster:h200-cw → scheduler slurm}
 */
public record FleetBinding(String adapterId, RunnerName runner, Optional<String> clusterId,
    Optional<Cluster> cluster, String rule) {
  public FleetBinding {
    Objects.requireNonNull(adapterId, "adapterId");
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(clusterId, "clusterId");
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(rule, "rule");
  }
}
