package io.infx.fleet.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.UsageException;
import io.infx.core.json.Json;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.FleetAdapters;
import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 item 6: an adapter that hands the job to a system running it later (or only shows it)
 * reports SUBMITTED / DRY_RUN instead of ending "SUCCEEDED (exit 1)" for the missing result file,
 * and an adapter's own runner-name prefixes route runners to it.
 */
class NoResultLaunchTest {

  @TempDir Path tmp;

  /** Writes no result file; says what it did in the status it returns. */
  private static final class HandOver implements FleetAdapter {
    final String id;
    final JobStatus status;
    final AtomicReference<RunnerName> launched = new AtomicReference<>();

    HandOver(String id, JobStatus status) {
      this.id = id;
      this.status = status;
    }

    @Override public String id() {
      return id;
    }

    @Override public String description() {
      return "test: hands the job over";
    }

    @Override public Set<String> runnerPrefixes() {
      return Set.of(id + "-pool");
    }

    @Override public JobStatus launch(PointLaunch launch) {
      launched.set(launch.runner());
      return status;
    }
  }

  @Test
  void aSubmittedJobEndsSubmittedWithoutWaitingForTheResultFile() throws Exception {
    HandOver queue = new HandOver("queue", JobStatus.submitted("ticket 42"));
    long t0 = System.nanoTime();
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("queue-pool_3")).adapters(FleetAdapters.of(queue)).workspace(tmp).launch();
    long millis = (System.nanoTime() - t0) / 1_000_000;

    assertThat(queue.launched.get()).isEqualTo(RunnerName.of("queue-pool_3")); // routed by its prefix
    assertThat(r.exitCode()).isZero();
    assertThat(r.outcome()).isEqualTo("submitted");
    assertThat(r.endedWithoutResult()).isTrue();
    assertThat(r.error()).isEmpty();
    assertThat(r.rawFile()).isEmpty();
    assertThat(r.aggregateFile()).isEmpty();
    // verification polls 10 × 1 s for a result file; a submitted job skips it
    assertThat(millis).as("launch took %d ms", millis).isLessThan(9_000);
    JsonNode ev = Json.mapper().readTree(Files.readAllBytes(r.jobEvent()));
    assertThat(ev.toString()).contains("\"submitted\"").contains("\"queue\"").contains("prefix queue-pool")
        .doesNotContain("was not written");
  }

  @Test
  void aDryRunIsNotAFailure() {
    HandOver show = new HandOver("show", JobStatus.dryRun("would sbatch job.sh"));
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("anything_0")).adapter("show").adapters(FleetAdapters.of(show)).workspace(tmp).launch();

    assertThat(r.outcome()).isEqualTo("dry_run");
    assertThat(r.status().state()).isEqualTo(JobState.DRY_RUN);
    assertThat(r.status().raw()).isEqualTo("would sbatch job.sh");
    assertThat(r.succeeded()).isTrue();
  }

  @Test
  void aSucceededJobWithoutItsResultFileStillFails() {
    HandOver liar = new HandOver("liar", JobStatus.of(JobState.SUCCEEDED, "exit 0", 0));
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("liar-pool_0")).adapters(FleetAdapters.of(liar)).workspace(tmp).launch();

    assertThat(r.outcome()).isEqualTo("failed");
    assertThat(r.error()).hasValueSatisfying(f -> assertThat(f.message()).contains("was not written"));
  }

  @Test
  void duplicateIdsAreRefusedAndUnknownIdsNameTheRegistered() {
    assertThatThrownBy(() -> FleetAdapters.of(new HandOver("a", JobStatus.dryRun("")),
        new HandOver("a", JobStatus.dryRun("")))).hasMessageContaining("two fleet adapters claim id 'a'");
    FleetAdapters two = FleetAdapters.of(new HandOver("b", JobStatus.dryRun("")), new HandOver("a", JobStatus.dryRun("")));
    assertThatThrownBy(() -> two.get("c")).isInstanceOf(UsageException.class)
        .hasMessage("no fleet adapter 'c' (registered: a, b)");
  }
}
