package io.infx.cli;

import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.routing.ClusterLabelRouter;
import io.infx.fleet.routing.FleetRouter;
import io.infx.fleet.routing.InventoryCheck;
import io.infx.fleet.routing.PrefixRouter;
import io.infx.fleet.spi.FleetAdapters;
import io.infx.matrix.runners.RunnerInventory;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code infx fleet check}: every runner of runners.yaml must reach a registered adapter. */
@Command(name = "check", mixinStandardHelpOptions = true, description = {
    "Check runners.yaml against the routing rules and the registered adapters: runners without an "
        + "adapter (exit 1), routing prefixes without a runner and adapters without a runner (reported).",
    "Routing: cluster:<id> labels first (scheduler → adapter), then the reference's runner-prefix table."})
final class FleetCheckCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--runner-config", required = true, paramLabel = "runners.yaml")
  Path runnerConfig;

  @Option(names = "--routing", paramLabel = "RULE", defaultValue = "both",
      description = "cluster, prefix or both (default ${DEFAULT-VALUE}).")
  String routing;

  @Override
  public Integer call() {
    RunnerInventory inv = RunnerInventory.load(runnerConfig);
    FleetAdapters adapters = FleetAdapters.load();
    PrefixRouter prefix = PrefixRouter.referenceSnapshot();
    FleetRouter router = switch (routing) {
      case "cluster" -> ClusterLabelRouter.of(inv);
      case "prefix" -> FleetRouter.firstOf(FleetLauncher.defaultRouter());
      case "both" -> FleetRouter.firstOf(ClusterLabelRouter.of(inv), FleetLauncher.defaultRouter());
      default -> throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          "--routing must be cluster, prefix or both, got '" + routing + "'");
    };
    InventoryCheck.Report report = InventoryCheck.check(InventoryCheck.runners(inv), router,
        routing.equals("cluster") ? Optional.empty() : Optional.of(prefix), adapters.all().keySet());
    PrintWriter out = spec.commandLine().getOut();
    if (!routing.equals("prefix")) {
      // where a cluster record names an adapter that is not registered (its runners are listed below)
      ClusterLabelRouter.unregisteredAdapters(inv, adapters.ids()).forEach(v -> out.println(v.render()));
    }
    report.lines().forEach(out::println);
    out.println(InventoryCheck.runners(inv).size() + " runners, " + report.runnersWithoutAdapter().size()
        + " without adapter");
    return report.ok() ? 0 : 1;
  }
}
