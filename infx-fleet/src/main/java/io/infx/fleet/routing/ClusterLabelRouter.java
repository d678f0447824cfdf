package io.infx.fleet.routing;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.bind.Names;
import io.infx.fleet.RunnerName;
import io.infx.fleet.spi.FleetAdapters;
import io.infx.matrix.runners.Cluster;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The newer routing rule: a runner belongs to exactly one {@code cluster:<id>} label of
 * {@code runners.yaml}; that cluster's record names its adapter ({@code adapter: <id>}, an infx
 * extension), or else its scheduler, and the scheduler selects the adapter ({@code slurm} →
 * {@code slurm} by default).
 *
 * <p>Rule {@code V46.adapter-registered} (this module's half of the {@code adapter} key; its shape
 * is {@code infx-matrix}'s {@code V46.adapter-name}): every {@code adapter} a cluster record names
 * is a registered {@link io.infx.fleet.spi.FleetAdapter} id. {@link #of(RunnerInventory,
 * FleetAdapters)} checks it for every record at once, located at the value.
 */
public final class ClusterLabelRouter implements FleetRouter {

  private final RunnerInventory inventory;
  private final Map<String, String> schedulerToAdapter;

  public ClusterLabelRouter(RunnerInventory inventory, Map<String, String> schedulerToAdapter) {
    this.inventory = inventory;
    this.schedulerToAdapter = Map.copyOf(schedulerToAdapter);
  }

  /**
   * Routes clusters to the adapter their record names, {@code slurm} clusters without one to the
   * {@code slurm} adapter. The names are not checked against a registry (see
   * {@link #of(RunnerInventory, FleetAdapters)}).
   */
  public static ClusterLabelRouter of(RunnerInventory inventory) {
    return new ClusterLabelRouter(inventory, Map.of("slurm", "slurm"));
  }

  /**
   * {@link #of(RunnerInventory)} after checking that every {@code adapter} a cluster record names
   * is registered in {@code adapters}.
   *
   * @throws ValidationException kind {@code runner-validation}, one {@code V46.adapter-registered}
   *     violation per record naming an unregistered adapter, at the value's {@code file:line:column}
   */
  public static ClusterLabelRouter of(RunnerInventory inventory, FleetAdapters adapters) {
    List<Violation> unknown = unregisteredAdapters(inventory, adapters.ids());
    if (!unknown.isEmpty()) {
      throw new ValidationException(ErrorKind.RUNNER_VALIDATION, unknown);
    }
    return of(inventory);
  }

  /**
   * The {@code V46.adapter-registered} violations of {@code inventory}: one per cluster record (in
   * id order) whose {@code adapter} is not in {@code registered}; empty when all are.
   */
  public static List<Violation> unregisteredAdapters(RunnerInventory inventory, Collection<String> registered) {
    List<Violation> out = new ArrayList<>();
    inventory.clustersById().forEach((id, c) -> c.adapter().filter(a -> !registered.contains(a)).ifPresent(a -> {
      StringBuilder msg = new StringBuilder("cluster '").append(id).append("' names adapter '").append(a)
          .append("', which is not registered (registered: ").append(String.join(", ", registered)).append(')');
      Names.hint(a, registered).ifPresent(h -> msg.append("; ").append(h));
      msg.append("; a plugin adapter's jar goes on INFX_CLASSPATH or in the plugin directory");
      io.infx.core.ImmutableViolation.Builder v = Violation.builder().ruleId("V46.adapter-registered").message(msg.toString());
      c.adapterOrigin().ifPresentOrElse(o -> v.pointer(o.pointer()).location(o.location()),
          () -> v.pointer("/clusters/" + id + "/adapter"));
      out.add(v.build());
    }));
    return out;
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
   *     cluster names no adapter and its scheduler has none
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
    if (c.adapter().isPresent()) {
      // the record's own choice comes before its scheduler
      return Optional.of(new FleetBinding(c.adapter().get(), runner, Optional.of(id), Optional.of(c),
          inventory.labelsOf(runner.name()), label + " → adapter " + c.adapter().get()));
    }
    String scheduler = c.scheduler().orElseThrow(() ->
        new InfxException(ErrorKind.ROUTING, "cluster '" + id + "' names neither an adapter nor a scheduler"));
    String adapter = schedulerToAdapter.get(scheduler);
    if (adapter == null) {
      throw new InfxException(ErrorKind.ROUTING, "cluster '" + id + "' uses scheduler '" + scheduler
          + "', which no adapter serves (known: " + schedulerToAdapter.keySet() + ")");
    }
    return Optional.of(new FleetBinding(adapter, runner, Optional.of(id), Optional.of(c),
        inventory.labelsOf(runner.name()),
        label + " → scheduler " + scheduler));
  }
}
