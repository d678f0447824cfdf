package io.infx.fleet.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.UsageException;
import io.infx.fleet.RunnerName;
import io.infx.fleet.routing.ClusterLabelRouter;
import io.infx.fleet.routing.FleetBinding;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed way from a runners.yaml cluster record and -o options to the Slurm job's settings. */
class SlurmJobSettingsTest {

  @TempDir
  Path dir;

  private FleetBinding binding(String runner) throws Exception {
    Path inv = dir.resolve("runners.yaml");
    Files.writeString(inv, """
        labels:
          h200: [h200-a_0, h200-b_0]
          cluster:h200-x: [h200-a_0, h200-b_0]
          partition:batch: [h200-a_0]
          partition:long: [h200-b_0]
        clusters:
          h200-x:
            gpus-per-node: 8
            arch: x86_64
            scheduler: slurm
            slurm:
              partition: batch
              partitions: [batch, long]
              account: bench
              exclusive: true
              exclude: [node-3, node-7]
              gres: "gpu:h200:{gpus}"
              cpus-per-task: 16
        """);
    return ClusterLabelRouter.of(RunnerInventory.load(inv)).resolve(RunnerName.of(runner)).orElseThrow();
  }

  private static SlurmJobSettings fromBinding(FleetBinding b) {
    return SlurmJobSettings.fromCluster(b.cluster().orElseThrow(), b.runnerLabels());
  }

  @Test
  void theClusterRecordGivesTheRunnersPartitionAndTheSharedSettings() throws Exception {
    SlurmJobSettings a = fromBinding(binding("h200-a_0"));
    assertThat(a.partition()).hasValue("batch");
    assertThat(a.account()).hasValue("bench");
    assertThat(a.exclusive()).isTrue();
    assertThat(a.exclude()).containsExactly("node-3", "node-7");
    assertThat(a.gresTemplate()).isEqualTo("gpu:h200:{gpus}");
    assertThat(a.cpusPerTask()).isEqualTo(16);
    assertThat(a.mode()).isEqualTo(SlurmJobSettings.Mode.BATCH);
    // the runner's partition:<name> label picks among the record's partitions
    assertThat(fromBinding(binding("h200-b_0")).partition()).hasValue("long");
  }

  @Test
  void optionsGivenOnTheCommandLineWinOverTheRecordTheRestStays() throws Exception {
    SlurmJobSettings s = SlurmJobSettings.withOptions(fromBinding(binding("h200-a_0")),
        AdapterOptions.parse(List.of("slurm.partition=debug", "slurm.exclusive=false", "slurm.exclude=node-9",
            "slurm.mode=alloc", "slurm.gpus=0", "slurm.java=/opt/jdk/bin/java")));
    assertThat(s.partition()).hasValue("debug");
    assertThat(s.exclusive()).isFalse();
    assertThat(s.exclude()).containsExactly("node-9");
    assertThat(s.mode()).isEqualTo(SlurmJobSettings.Mode.ALLOC);
    assertThat(s.gpus()).hasValue(0);
    assertThat(s.java()).hasValue("/opt/jdk/bin/java");
    assertThat(s.account()).hasValue("bench");
    assertThat(s.gresTemplate()).isEqualTo("gpu:h200:{gpus}");
    assertThat(s.cpusPerTask()).isEqualTo(16);
  }

  @Test
  void theBackendSubmitsWithTheRecordsSettings() throws Exception {
    SlurmBackend backend = new SlurmBackend(fromBinding(binding("h200-b_0")));
    List<String> args = backend.resourceArgs(io.infx.fleet.spi.JobSpec.builder().name("h200-b_0")
        .command(List.of("true")).workspace(dir).gpus(4).timeLimit(java.time.Duration.ofMinutes(30)).build());
    assertThat(args).contains("--partition=long", "--account=bench", "--gres=gpu:h200:4", "--exclusive",
        "--exclude=node-3,node-7", "--cpus-per-task=16");
  }

  @Test
  void badOptionsAreNamed() {
    assertThatThrownBy(() -> SlurmJobSettings.fromOptions(AdapterOptions.of(Map.of("slurm.partiton", "x"))))
        .isInstanceOf(UsageException.class).hasMessageContaining("unknown adapter option 'slurm.partiton'");
    assertThatThrownBy(() -> SlurmJobSettings.fromOptions(AdapterOptions.of(Map.of("slurm.gpus", "-1"))))
        .isInstanceOf(UsageException.class).hasMessageContaining("slurm.gpus must be a non-negative integer");
    assertThatThrownBy(() -> SlurmJobSettings.fromOptions(AdapterOptions.of(Map.of("slurm.exclusive", "yes"))))
        .isInstanceOf(UsageException.class).hasMessageContaining("slurm.exclusive must be true or false");
    assertThatThrownBy(() -> SlurmJobSettings.fromOptions(AdapterOptions.of(Map.of("slurm.mode", "srun"))))
        .isInstanceOf(UsageException.class).hasMessageContaining("slurm.mode must be batch or alloc");
  }

  @Test
  void aRunnerOutsideAnyClusterGetsTheDefaults() {
    assertThat(SlurmJobSettings.fromOptions(AdapterOptions.empty())).isEqualTo(SlurmJobSettings.defaults());
  }
}
