package io.infx.fleet.routing;

import io.infx.fleet.RunnerName;
import java.util.List;
import java.util.Optional;

/**
 * Runner name → adapter (fleet spec §5). Two strategies exist: {@link PrefixRouter} (the legacy
 * {@code launch_<prefix>.sh} rule) and {@link ClusterLabelRouter} (the newer {@code cluster:<id>}
 * membership); {@link #firstOf} chains them.
 */
public interface FleetRouter {

  /** The binding of {@code runner}, or empty when this router has no rule for it. */
  Optional<FleetBinding> resolve(RunnerName runner);

  /** The first router that resolves a runner wins. */
  static FleetRouter firstOf(FleetRouter... routers) {
    List<FleetRouter> list = List.of(routers);
    return runner -> list.stream().map(r -> r.resolve(runner)).flatMap(Optional::stream).findFirst();
  }
}
