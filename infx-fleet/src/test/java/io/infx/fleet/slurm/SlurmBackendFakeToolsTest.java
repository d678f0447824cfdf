package io.infx.fleet.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.fleet.spi.BackendException;
import io.infx.fleet.spi.JobHandle;
import io.infx.fleet.spi.JobSpec;
import io.infx.fleet.spi.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the local Slurm cannot show (Pyxis flags, accounting, cluster-record flags): the backend
 * against fake {@code sbatch/salloc/scontrol/sacct} executables that record their arguments.
 */
class SlurmBackendFakeToolsTest {

  @TempDir Path bin;
  @TempDir Path ws;

  private void fake(String name, String body) throws Exception {
    Path f = bin.resolve(name);
    Files.writeString(f, "#!/bin/bash\necho \"$0 $*\" >> " + bin.resolve("calls.log") + "\n" + body + "\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private List<String> calls() throws Exception {
    return Files.readAllLines(bin.resolve("calls.log"));
  }

  @BeforeEach
  void tools() throws Exception {
    fake("sbatch", "echo '4242;cluster'");
    fake("scontrol", "exit 1");
    fake("sacct", "echo 'COMPLETED|0:0'");
    fake("scancel", "true");
  }

  private JobSpec spec() {
    return JobSpec.builder().name("h200-cw_01").command(List.of("bash", "bench.sh")).workspace(ws)
        .image("nvcr.io#nvidia/sglang:1").gpus(8).timeLimit(Duration.ofMinutes(180))
        .putMounts("/mnt/hf", "/mnt/hf_hub_cache").build();
  }

  @Test
  void clusterRecordFlagsAndPyxisReachSbatchAndTheBatchScript() throws Exception {
    SlurmBackend slurm = new SlurmBackend(SlurmJobSettings.builder().binDir(bin).partition("h200").account("bench")
        .gresTemplate("gpu:h200:{gpus}").exclusive(true).addExclude("b300-005", "b300-006").cpusPerTask(16)
        .pyxis(true).build());
    JobHandle h = slurm.start(spec());
    assertThat(h.id()).isEqualTo("4242");
    String call = calls().get(0);
    assertThat(call).contains("--parsable --partition=h200 --account=bench --nodes=1 --job-name=h200-cw_01 --time=180 "
        + "--gres=gpu:h200:8 --exclusive --exclude=b300-005,b300-006 --cpus-per-task=16 --no-requeue --export=ALL");
    String script = Files.readString(ws.resolve(".infx-h200-cw_01.sbatch"));
    assertThat(script).contains("exec srun '--container-image=nvcr.io#nvidia/sglang:1' "
        + "--container-mounts=/mnt/hf:/mnt/hf_hub_cache," + ws + ":/workspace --container-workdir=/workspace "
        + "--no-container-entrypoint --container-remap-root --no-container-mount-home bash bench.sh");
  }

  @Test
  void terminalStateFallsBackToAccountingWhenTheControllerForgotTheJob() throws Exception {
    SlurmBackend slurm = new SlurmBackend(SlurmJobSettings.builder().binDir(bin).build());
    JobHandle h = slurm.start(JobSpec.builder().from(spec()).image(java.util.Optional.empty()).build());
    assertThat(slurm.status(h).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(calls()).anyMatch(c -> c.endsWith("sacct -X -n -P -j 4242 --format=State,ExitCode"));
  }

  @Test
  void sallocWithoutAGrantIsARetriableSchedulerError() throws Exception {
    fake("salloc", "echo 'salloc: error: Job submit/allocate failed: Requested node configuration is not available' >&2; exit 1");
    SlurmBackend slurm = new SlurmBackend(SlurmJobSettings.builder().binDir(bin).mode(SlurmJobSettings.Mode.ALLOC).build());
    assertThatThrownBy(() -> slurm.start(spec())).isInstanceOfSatisfying(BackendException.class, e -> {
      assertThat(e.retriable()).isTrue();
      assertThat(e.getMessage()).contains("salloc failed to allocate a job (exit 1)")
          .contains("Requested node configuration is not available");
    });
  }

  @Test
  void withoutPyxisTheImageIsIgnoredAndTheCommandRunsAsIs() throws Exception {
    SlurmBackend slurm = new SlurmBackend(SlurmJobSettings.builder().binDir(bin).build());
    slurm.start(spec());
    assertThat(Files.readString(ws.resolve(".infx-h200-cw_01.sbatch"))).contains("exec bash bench.sh\n")
        .doesNotContain("container");
  }
}
