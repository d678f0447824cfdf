package io.infx.fleet.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.infx.fleet.internal.Cli;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The real single-host Slurm of {@code shared/slurm} (started by {@code .ci/run}). Tests skip when
 * it is not running, unless {@code INFX_REQUIRE_SLURM=1} (set by CI), where its absence fails.
 * After each test, no job whose name starts with {@link #PREFIX} may be left in the queue, and no
 * process whose command line carries {@link #MARKER} may be left on the machine.
 */
public final class LocalSlurm implements BeforeAllCallback, AfterEachCallback {

  /** Job-name prefix of every test job. */
  public static final String PREFIX = "infx-it";
  /** Marker put on the command lines of test workloads. */
  public static final String MARKER = "infx_slurm_it_marker";

  @Override
  public void beforeAll(ExtensionContext context) {
    boolean up;
    try {
      up = Cli.run(List.of("sinfo", "-h", "-o", "%P %a"), Map.of(), Duration.ofSeconds(20)).ok();
    } catch (RuntimeException e) {
      up = false;
    }
    if ("1".equals(System.getenv("INFX_REQUIRE_SLURM"))) {
      assertThat(up).as("INFX_REQUIRE_SLURM=1 but no Slurm answers `sinfo`").isTrue();
    }
    assumeTrue(up, "no local Slurm (start shared/slurm/start-local-slurm.sh); skipping Slurm integration tests");
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    List<String> jobs = ourJobs();
    List<String> procs = ourProcesses();
    while ((!jobs.isEmpty() || !procs.isEmpty()) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      jobs = ourJobs();
      procs = ourProcesses();
    }
    // Clean up for the next test before failing this one.
    if (!jobs.isEmpty()) {
      jobs.forEach(j -> Cli.run(List.of("scancel", j.split(" ")[0]), Map.of(), Duration.ofSeconds(30)));
    }
    assertThat(jobs).as("Slurm jobs left by %s", context.getDisplayName()).isEmpty();
    assertThat(procs).as("workload processes left by %s", context.getDisplayName()).isEmpty();
  }

  /** Active jobs whose name starts with {@link #PREFIX}: {@code "<id> <name> <state>"}. */
  public static List<String> ourJobs() {
    Cli.Result r = Cli.run(List.of("squeue", "-h", "-o", "%i %j %T"), Map.of(), Duration.ofSeconds(30));
    return r.stdout().lines().map(String::strip).filter(l -> l.contains(" " + PREFIX)).toList();
  }

  /** Processes whose command line carries {@link #MARKER}. */
  public static List<String> ourProcesses() {
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().orElse("").contains(MARKER))
        .filter(ProcessHandle::isAlive)
        .map(p -> p.pid() + " " + p.info().commandLine().orElse(""))
        .toList();
  }

  /** The only node's name. */
  public static String node() {
    return Cli.run(List.of("sinfo", "-h", "-o", "%N"), Map.of(), Duration.ofSeconds(30)).stdout().strip();
  }

  /** The node's short state, e.g. {@code idle}, {@code alloc}, {@code down*}. */
  public static String nodeState() {
    return Cli.run(List.of("sinfo", "-h", "-o", "%t"), Map.of(), Duration.ofSeconds(30)).stdout().strip();
  }
}
