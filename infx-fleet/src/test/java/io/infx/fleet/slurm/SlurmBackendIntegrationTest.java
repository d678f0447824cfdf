package io.infx.fleet.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.fleet.internal.Cli;
import io.infx.fleet.spi.BackendException;
import io.infx.fleet.spi.JobHandle;
import io.infx.fleet.spi.JobSpec;
import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@link SlurmBackend} against the real local Slurm (see {@link LocalSlurm}). */
@ExtendWith(LocalSlurm.class)
class SlurmBackendIntegrationTest {

  @TempDir Path ws;

  private final String name = LocalSlurm.PREFIX + "-" + UUID.randomUUID().toString().substring(0, 8) + "_0";

  /** Runs {@code script} from a file whose name carries the marker, so its bash stays findable. */
  private JobSpec spec(String script) {
    Path file = ws.resolve(LocalSlurm.MARKER + ".sh");
    try {
      Files.writeString(file, script + "\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return JobSpec.builder().name(name)
        .command(List.of("bash", file.toString()))
        .workspace(ws).putEnv("ROUTER_METADATA", "{\"name\": \"r\", \"version\": \"1\"}").build();
  }

  private static SlurmBackend batch() {
    return new SlurmBackend(SlurmJobSettings.builder().pollInterval(Duration.ofMillis(300)).build());
  }

  @Test
  void batchJobSucceedsWithTheFullEnvironmentIncludingCommasAndWritesIntoTheWorkspace() {
    SlurmBackend slurm = batch();
    List<String> lines = new CopyOnWriteArrayList<>();
    JobHandle h = slurm.start(spec("echo \"meta=$ROUTER_METADATA\"; echo \"job=$SLURM_JOB_NAME\"; echo done > out.txt"));
    JobStatus s = slurm.await(h, Duration.ofSeconds(60), (src, l) -> lines.add(l));
    assertThat(s.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(s.raw()).isEqualTo("COMPLETED|0:0");
    assertThat(s.nodes()).hasValue(LocalSlurm.node());
    assertThat(lines).contains("meta={\"name\": \"r\", \"version\": \"1\"}", "job=" + name);
    assertThat(ws.resolve("out.txt")).hasContent("done");
  }

  @Test
  void nonZeroExitMapsToFailedWithTheCode() {
    SlurmBackend slurm = batch();
    JobHandle h = slurm.start(spec("exit 3"));
    JobStatus s = slurm.await(h, Duration.ofSeconds(60), (a, b) -> { });
    assertThat(s.state()).isEqualTo(JobState.FAILED);
    assertThat(s.exitCode()).hasValue(3);
    assertThat(s.raw()).isEqualTo("FAILED|3:0");
    assertThat(s.retriable()).isFalse();
  }

  @Test
  void cancelEndsARunningJobAndItsProcesses() throws Exception {
    SlurmBackend slurm = batch();
    JobHandle h = slurm.start(spec("echo started; while true; do sleep 1; done"));
    waitFor(() -> slurm.status(h).state() == JobState.RUNNING && LocalSlurm.ourProcesses().size() > 0);
    slurm.cancel(h, Duration.ofSeconds(30));
    JobStatus s = slurm.await(h, Duration.ofSeconds(30), (a, b) -> { });
    assertThat(s.state()).isEqualTo(JobState.CANCELLED);
    assertThat(s.launcherExitCode()).isEqualTo(130);
    slurm.cancel(h, Duration.ofSeconds(5)); // idempotent
  }

  @Test
  void timeLimitMapsToTimedOut() {
    SlurmBackend slurm = batch();
    JobHandle h = slurm.start(JobSpec.builder().from(spec("while true; do sleep 1; done")).timeLimit(Duration.ofMinutes(1)).build());
    try {
      JobStatus s = slurm.await(h, Duration.ofMinutes(4), (a, b) -> { });
      assertThat(s.state()).isEqualTo(JobState.TIMED_OUT);
      assertThat(s.raw()).startsWith("TIMEOUT|");
      assertThat(s.launcherExitCode()).isEqualTo(124);
    } finally {
      slurm.cancel(h, Duration.ofSeconds(30));
    }
  }

  @Test
  void nodeFailureMapsToARetriableFailure() throws Exception {
    SlurmBackend slurm = batch();
    JobHandle h = slurm.start(spec("while true; do sleep 1; done"));
    String node = LocalSlurm.node();
    try {
      waitFor(() -> slurm.status(h).state() == JobState.RUNNING);
      assertThat(Cli.run(List.of("scontrol", "update", "NodeName=" + node, "State=DOWN", "Reason=infx-test"),
          Map.of(), Duration.ofSeconds(30)).ok()).isTrue();
      JobStatus s = slurm.await(h, Duration.ofSeconds(60), (a, b) -> { });
      assertThat(s.state()).isEqualTo(JobState.FAILED);
      assertThat(s.raw()).startsWith("NODE_FAIL|");
      assertThat(s.retriable()).isTrue();
    } finally {
      Cli.run(List.of("scontrol", "update", "NodeName=" + node, "State=RESUME"), Map.of(), Duration.ofSeconds(30));
      waitFor(() -> LocalSlurm.nodeState().startsWith("idle"));
      slurm.cancel(h, Duration.ofSeconds(30));
    }
  }

  @Test
  void allocModeRunsTheStepInASallocAllocationAndMapsItsExitCode() {
    SlurmBackend slurm = new SlurmBackend(SlurmJobSettings.builder().mode(SlurmJobSettings.Mode.ALLOC)
        .pollInterval(Duration.ofMillis(300)).build());
    JobHandle ok = slurm.start(JobSpec.builder().from(spec("echo \"gpus=$CUDA_VISIBLE_DEVICES\"")).gpus(2).build());
    List<String> lines = new CopyOnWriteArrayList<>();
    try {
      JobStatus s = slurm.await(ok, Duration.ofSeconds(60), (a, l) -> lines.add(l));
      assertThat(s.state()).isEqualTo(JobState.SUCCEEDED);
      assertThat(lines).contains("gpus=0,1");
    } finally {
      slurm.cancel(ok, Duration.ofSeconds(30)); // the allocation lives until scancel
    }
    assertThat(slurm.read(ok.id()).state()).isEqualTo(JobState.CANCELLED);

    JobHandle bad = slurm.start(spec("exit 7"));
    try {
      JobStatus s = slurm.await(bad, Duration.ofSeconds(60), (a, l) -> { });
      assertThat(s.state()).isEqualTo(JobState.FAILED);
      assertThat(s.exitCode()).hasValue(7);
    } finally {
      slurm.cancel(bad, Duration.ofSeconds(30));
    }
  }

  @Test
  void oversizeRequestsAreRefusedWithSlurmsMessage() {
    SlurmBackend slurm = batch();
    assertThatThrownBy(() -> slurm.start(JobSpec.builder().from(spec("true")).gpus(9).build()))
        .isInstanceOf(BackendException.class).hasMessageContaining("sbatch refused the job");
  }

  @Test
  void leftoversAreCancelledByRunnerName() throws Exception {
    SlurmBackend slurm = batch();
    slurm.start(spec("while true; do sleep 1; done"));
    slurm.start(spec("while true; do sleep 1; done"));
    String user = System.getProperty("user.name");
    waitFor(() -> slurm.queued(name, user).size() == 2);
    slurm.cancelNamed(name, Duration.ofSeconds(30));
    assertThat(slurm.queued(name, user)).isEmpty();
  }

  private static void waitFor(java.util.function.BooleanSupplier cond) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 60 s");
      }
      Thread.sleep(200);
    }
  }
}
