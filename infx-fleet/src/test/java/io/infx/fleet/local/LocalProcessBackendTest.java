package io.infx.fleet.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.fleet.NoLeftoverProcesses;
import io.infx.fleet.spi.JobHandle;
import io.infx.fleet.spi.JobSpec;
import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(NoLeftoverProcesses.class)
class LocalProcessBackendTest {

  @TempDir Path ws;
  private final LocalProcessBackend backend = new LocalProcessBackend();

  private JobSpec spec(String script) {
    return JobSpec.builder().name("t_1").command(List.of("bash", "-c", script)).workspace(ws)
        .putEnv("INFX_GREETING", "hello, world").build();
  }

  @Test
  void runsWithTheGivenEnvironmentAndStreamsItsLog() {
    List<String> lines = new CopyOnWriteArrayList<>();
    JobHandle h = backend.start(spec("echo \"$INFX_GREETING\"; echo second; printf last"));
    JobStatus s = backend.await(h, Duration.ofSeconds(30), (src, l) -> lines.add(src + ":" + l));
    assertThat(s.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(s.launcherExitCode()).isZero();
    assertThat(lines).containsExactly("t_1:hello, world", "t_1:second", "t_1:last");
    assertThat(ws.resolve("t_1.log")).hasContent("hello, world\nsecond\nlast");
  }

  @Test
  void nonZeroExitIsAFailureWithThatCode() {
    JobHandle h = backend.start(spec("exit 3"));
    JobStatus s = backend.await(h, Duration.ofSeconds(30), (a, b) -> { });
    assertThat(s.state()).isEqualTo(JobState.FAILED);
    assertThat(s.exitCode()).hasValue(3);
    assertThat(s.launcherExitCode()).isEqualTo(3);
  }

  @Test
  void cancelEndsTheWholeProcessTreeIncludingBackgroundChildren() throws Exception {
    JobHandle h = backend.start(spec("sleep 300 & sleep 300 & echo started; wait"));
    waitForLog("started");
    assertThat(backend.process(h).descendants().count()).isGreaterThanOrEqualTo(2);
    backend.cancel(h, Duration.ofSeconds(5));
    assertThat(backend.status(h).state()).isEqualTo(JobState.CANCELLED);
    assertThat(backend.status(h).launcherExitCode()).isEqualTo(130);
    backend.cancel(h, Duration.ofSeconds(1)); // idempotent
  }

  @Test
  void processesIgnoringSigtermAreKilledAfterTheGracePeriod() throws Exception {
    JobHandle h = backend.start(spec("trap '' TERM; echo started; while true; do sleep 0.1; done"));
    waitForLog("started");
    long t0 = System.nanoTime();
    backend.cancel(h, Duration.ofMillis(500));
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(6));
    assertThat(backend.process(h).isAlive()).isFalse();
  }

  @Test
  void timeLimitEndsTheJobAsTimedOut() {
    JobSpec s = JobSpec.builder().from(spec("sleep 300")).timeLimit(Duration.ofSeconds(1)).build();
    JobHandle h = backend.start(s);
    JobStatus st = backend.await(h, Duration.ofSeconds(30), (a, b) -> { });
    assertThat(st.state()).isEqualTo(JobState.TIMED_OUT);
    assertThat(st.launcherExitCode()).isEqualTo(124);
  }

  @Test
  void awaitReturnsTheRunningStatusWhenItsOwnTimeoutPassesFirst() {
    JobHandle h = backend.start(spec("sleep 300"));
    try {
      assertThat(backend.await(h, Duration.ofMillis(300), (a, b) -> { }).state()).isEqualTo(JobState.RUNNING);
    } finally {
      backend.cancel(h, Duration.ofSeconds(5));
    }
  }

  private void waitForLog(String text) throws Exception {
    Path log = ws.resolve("t_1.log");
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(log) && Files.readString(log).contains(text)) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("log never said " + text);
  }
}
