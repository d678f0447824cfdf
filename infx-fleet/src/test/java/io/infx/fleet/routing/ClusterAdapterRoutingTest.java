package io.infx.fleet.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ErrorKind;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.tree.Source;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.launch.LaunchResult;
import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.FleetAdapters;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;
import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 item 6: a runners.yaml cluster record may name its adapter ({@code adapter: <id>}, an
 * infx extension); routing prefers it over the scheduler and over runner-name prefixes, and a name
 * no registered adapter has is a located runner-file error.
 */
class ClusterAdapterRoutingTest {

  @TempDir Path tmp;

  /** Claims the {@code acme-h100} runner-name prefix; records which runner it launched. */
  private static final class Recording implements FleetAdapter {
    final String id;
    final AtomicReference<PointLaunch> launched = new AtomicReference<>();

    Recording(String id) {
      this.id = id;
    }

    @Override public String id() {
      return id;
    }

    @Override public String description() {
      return "test: records the launch";
    }

    @Override public Set<String> runnerPrefixes() {
      return id.equals("prefixed") ? Set.of("acme-h100") : Set.of();
    }

    @Override public JobStatus launch(PointLaunch launch) {
      launched.set(launch);
      return JobStatus.dryRun(id + " would run " + launch.runner());
    }
  }

  private static final String LABELS = """
      labels:
        h100: [acme-h100_0, h100-b_0]
        cluster:acme-h100: [acme-h100_0]
        cluster:h100-b: [h100-b_0]
      """;

  /** One adapter-only cluster and one Slurm cluster that also names an adapter. */
  private static final String CLUSTERS = """
      clusters:
        acme-h100:
          gpus-per-node: 8
          arch: x86_64
          adapter: acme
          env: {ACME_QUEUE: gpu}
        h100-b:
          gpus-per-node: 8
          arch: x86_64
          scheduler: slurm
          adapter: recording
          slurm: {partition: main, exclusive: false, volumes: {hf: {path: /data/hf}}}
      """;

  private static RunnerInventory inventory(String clusters) {
    return RunnerInventory.load(Source.text("runners.yaml", LABELS + clusters));
  }

  @Test
  void theRecordsAdapterComesBeforeItsSchedulerAndBeforeRunnerPrefixes() throws Exception {
    Recording acme = new Recording("acme");
    Recording prefixed = new Recording("prefixed");   // claims acme-h100_*: the record still wins
    Recording recording = new Recording("recording");
    FleetAdapters adapters = FleetAdapters.of(acme, prefixed, recording, new Recording("slurm"));
    RunnerInventory inv = inventory(CLUSTERS);

    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2)).runner(RunnerName.of("acme-h100_0"))
        .adapters(adapters).inventory(inv).workspace(tmp.resolve("a")).launch();
    assertThat(r.outcome()).isEqualTo("dry_run");
    assertThat(acme.launched.get()).isNotNull();
    assertThat(prefixed.launched.get()).isNull();
    // the binding carries the record (its env is overlaid on the launch environment)
    assertThat(acme.launched.get().binding().orElseThrow().rule()).isEqualTo("cluster:acme-h100 → adapter acme");
    assertThat(acme.launched.get().env().get("ACME_QUEUE")).hasValue("gpu");
    assertThat(Files.readString(r.jobEvent())).contains("cluster:acme-h100 → adapter acme");

    FleetBinding slurmCluster = ClusterLabelRouter.of(inv, adapters).resolve(RunnerName.of("h100-b_0")).orElseThrow();
    assertThat(slurmCluster.adapterId()).isEqualTo("recording");
    assertThat(slurmCluster.cluster().orElseThrow().slurm().orElseThrow().partition()).isEqualTo("main");
  }

  @Test
  void withoutAdapterKeyTheSchedulerStillRoutes() {
    RunnerInventory inv = inventory(CLUSTERS.replace("    adapter: recording\n", ""));
    FleetBinding b = ClusterLabelRouter.of(inv).resolve(RunnerName.of("h100-b_0")).orElseThrow();
    assertThat(b.adapterId()).isEqualTo("slurm");
    assertThat(b.rule()).isEqualTo("cluster:h100-b → scheduler slurm");
  }

  @Test
  void anUnregisteredAdapterIsALocatedRunnerFileErrorBeforeAnythingIsWritten() {
    RunnerInventory inv = inventory(CLUSTERS.replace("adapter: recording", "adapter: recordnig"));
    FleetAdapters adapters = FleetAdapters.of(new Recording("acme"), new Recording("recording"), new Recording("slurm"));
    Path ws = tmp.resolve("never");
    assertThatThrownBy(() -> FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("acme-h100_0")).adapters(adapters).inventory(inv).workspace(ws).launch())
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.RUNNER_VALIDATION);
          assertThat(e.violations()).singleElement().satisfies(v -> {
            assertThat(v.ruleId()).isEqualTo("V46.adapter-registered");
            // LABELS is 4 lines; "adapter: recordnig" is line 15 of the file, its value at column 14
            assertThat(v.location()).hasValue(new Location("runners.yaml", 15, 14));
            assertThat(v.pointer()).isEqualTo("/clusters/h100-b/adapter");
            assertThat(v.message()).startsWith("cluster 'h100-b' names adapter 'recordnig', which is not registered "
                + "(registered: acme, recording, slurm)").contains("did you mean 'recording'");
          });
          assertThat(e.getMessage()).startsWith("runners.yaml:15:14: [V46.adapter-registered] ");
        });
    assertThat(ws).doesNotExist();
  }
}
