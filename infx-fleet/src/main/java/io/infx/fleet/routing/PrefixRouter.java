package io.infx.fleet.routing;

import io.infx.fleet.RunnerName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The legacy routing rule: the fleet prefix of a runner name (text before the first {@code _})
 * selects the launcher, as {@code bash ./runners/launch_${RUNNER_NAME%%_*}.sh} does. Here the
 * prefix maps to an adapter id.
 */
public final class PrefixRouter implements FleetRouter {

  private final Map<String, String> table;

  private PrefixRouter(Map<String, String> table) {
    this.table = Collections.unmodifiableMap(new LinkedHashMap<>(table));
  }

  /** A router over {@code prefix → adapter id}. */
  public static PrefixRouter of(Map<String, String> prefixToAdapter) {
    return new PrefixRouter(prefixToAdapter);
  }

  /**
   * The launchers of the reference's Aug-2026 snapshot (fleet spec §6.1), each mapped to the
   * adapter of its shape — docker launchers to {@code container}, Slurm ones to {@code slurm}. Note the snapshot's own gaps, which
   * {@link InventoryCheck} reports: no launcher for {@code b300-cw} and {@code mi300x-tw}
   * runners, and the {@code h100-cr} and {@code mi325x-tw} launchers have no runner.
   */
  public static PrefixRouter referenceSnapshot() {
    Map<String, String> t = new LinkedHashMap<>();
    for (String p : new String[] {"h100-cr", "mi325x-tw", "rtx6000pro-lat"}) {
      t.put(p, "container");
    }
    for (String p : new String[] {"h100-cw", "h200-cw", "b200-cw", "h100-dgxc-slurm", "h200-dgxc-slurm",
        "b200-dgxc-slurm", "b200-nb", "mi300x-amds", "mi355x-amds", "b200-nscale-slurm", "b300-nv", "gb200-nv",
        "gb300-nv"}) {
      t.put(p, "slurm");
    }
    return new PrefixRouter(t);
  }

  /** {@code prefix → adapter id}, in table order. */
  public Map<String, String> table() {
    return table;
  }

  @Override
  public Optional<FleetBinding> resolve(RunnerName runner) {
    String prefix = runner.fleetPrefix();
    return Optional.ofNullable(table.get(prefix)).map(a -> new FleetBinding(a, runner, Optional.empty(),
        Optional.empty(), List.of(), "prefix " + prefix));
  }
}
