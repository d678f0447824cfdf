package io.infx.fleet.routing;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.fleet.RunnerName;
import io.infx.matrix.runners.Cluster;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The newer routing rule: a runner belongs to exactly one {@code cluster:<id>} label of
 * {@code runners.yaml}; that cluster's record names its scheduler, and the scheduler selects the
 * adapter ({@code slurm} → {@code slurm} by default).
 */
public final class ClusterLabelRouter implements FleetRouter {

  private final RunnerInventory inventory;
  private final Map<String, String> schedulerToAdapter;

  public ClusterLabelRouter(RunnerInventory inventory, Map<String, String> schedulerToAdapter) {
    this.inventory = inventory;
    this.schedulerToAdapter = Map.copyOf(schedulerToAdapter);
  }

  /** Routes {@code slurm} clusters to the {@code slurm} adapter. */
  public static ClusterLabelRouter of(RunnerInventory inventory) {
    return new ClusterLabelRouter(inventory, Map.of("slurm", "slurm"));
  }

  /** The {@code cluster:} labels listing {@code runner}. */
  public List<String> clusterLabelsOf(String runner) {
    List<String> out = new ArrayList<>();
    inventory.labels().forEach((label, runners) -> {
      if (label.startsWith(RunnerInventory.CLUSTER_PREFIX) && runners.contains(runner)) {
        out.add(label);
      }
    });
    return out;
  }

  /**
   * @throws InfxException kind {@code routing} when the runner sits in several clusters, or its
   *     cluster's scheduler has no adapter
   */
  @Override
  public Optional<FleetBinding> resolve(RunnerName runner) {
    List<String> labels = clusterLabelsOf(runner.name());
    if (labels.isEmpty()) {
      return Optional.empty();
    }
    if (labels.size() > 1) {
      throw new InfxException(ErrorKind.ROUTING, "runner '" + runner + "' is listed under several clusters: " + labels);
    }
    String label = labels.get(0);
    String id = label.substring(RunnerInventory.CLUSTER_PREFIX.length());
    Cluster c = inventory.clusterOf(label).orElseThrow(() ->
        new InfxException(ErrorKind.ROUTING, "label '" + label + "' names no clusters." + id + " record"));
    String adapter = schedulerToAdapter.get(c.scheduler());
    if (adapter == null) {
      throw new InfxException(ErrorKind.ROUTING, "cluster '" + id + "' uses scheduler '" + c.scheduler()
          + "', which no adapter serves (known: " + schedulerToAdapter.keySet() + ")");
    }
    return Optional.of(new FleetBinding(adapter, runner, Optional.of(id), Optional.of(c),
        inventory.labelsOf(runner.name()),
        label + " → scheduler " + c.scheduler()));
  }
}
