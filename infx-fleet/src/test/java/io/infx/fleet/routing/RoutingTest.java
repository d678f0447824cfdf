package io.infx.fleet.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.fleet.RunnerName;
import io.infx.fleet.SharedCorpus;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.spi.FleetAdapters;
import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutingTest {

  private static final Set<String> REGISTERED = Set.of("local", "slurm", "container");

  @Test
  void prefixIsTheTextBeforeTheFirstUnderscore() {
    PrefixRouter r = PrefixRouter.referenceSnapshot();
    assertThat(r.resolve(RunnerName.of("h200-dgxc-slurm_3")).orElseThrow().adapterId()).isEqualTo("slurm");
    assertThat(r.resolve(RunnerName.of("h100-cr_0")).orElseThrow().adapterId()).isEqualTo("container");
    assertThat(r.resolve(RunnerName.of("h200-cw_0")).orElseThrow().rule()).isEqualTo("prefix h200-cw");
    assertThat(r.resolve(RunnerName.of("b300-cw_00"))).isEmpty();
    assertThat(RunnerName.of("mi355x-amds_0_extra").fleetPrefix()).isEqualTo("mi355x-amds");
    assertThat(RunnerName.of("local").fleetPrefix()).isEqualTo("local");
  }

  @Test
  void theSnapshotsInventoryGapIsReportedAtLoadTime() {
    RunnerInventory inv = RunnerInventory.load(Path.of("src/test/resources/routing/snapshot-runners.yaml"));
    PrefixRouter table = PrefixRouter.referenceSnapshot();
    InventoryCheck.Report report = InventoryCheck.check(InventoryCheck.runners(inv), table, Optional.of(table),
        REGISTERED);
    assertThat(report.runnersWithoutAdapter()).containsExactly("b300-cw_00", "mi300x-tw_0");
    assertThat(report.prefixesWithoutRunner()).containsExactly("h100-cr", "mi325x-tw");
    assertThat(report.adaptersWithoutRunner()).containsExactly("local");
    assertThat(report.ok()).isFalse();
    assertThat(report.lines()).contains("runner without adapter: b300-cw_00", "routing prefix without runner: h100-cr");
  }

  @Test
  void clusterLabelsRouteEveryCorpusRunnerToTheSlurmAdapter() {
    Path file = SharedCorpus.require("conformance/matrix/configs").resolve("runners.yaml");
    RunnerInventory inv = RunnerInventory.load(file);
    ClusterLabelRouter router = ClusterLabelRouter.of(inv);
    FleetBinding b = router.resolve(RunnerName.of("h200-cw_00")).orElseThrow();
    assertThat(b.adapterId()).isEqualTo("slurm");
    assertThat(b.clusterId()).hasValue("h200-cw");
    assertThat(b.cluster().orElseThrow().slurm().orElseThrow().partition()).isEqualTo("h200");
    assertThat(b.rule()).isEqualTo("cluster:h200-cw → scheduler slurm");
    InventoryCheck.Report report = InventoryCheck.check(InventoryCheck.runners(inv), router, Optional.empty(),
        REGISTERED);
    assertThat(report.runnersWithoutAdapter()).isEmpty();
    assertThat(report.adaptersWithoutRunner()).containsExactly("container", "local");
    // A runner no cluster lists falls through to the next router.
    assertThat(router.resolve(RunnerName.of("local_0"))).isEmpty();
    assertThat(FleetRouter.firstOf(router, FleetLauncher.defaultRouter()).resolve(RunnerName.of("local_0"))
        .orElseThrow().adapterId()).isEqualTo("local");
  }

  @Test
  void adaptersAreDiscoveredThroughServiceLoader() {
    FleetAdapters a = FleetAdapters.load();
    assertThat(a.all().keySet()).containsExactly("container", "local", "slurm");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> a.get("kubernetes"))
        .hasMessage("no fleet adapter 'kubernetes' (registered: container, local, slurm)");
  }
}
