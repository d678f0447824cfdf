package io.infx.fleet.spi;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A job's status as a backend reads it.
 *
 * @param state scheduler-neutral state
 * @param raw the backend's own words, e.g. {@code NODE_FAIL|0:0} for Slurm or {@code exit 3}
 * @param exitCode the workload's exit code when known
 * @param nodes where it ran, when known
 * @param retriable true when the failure is the infrastructure's (node failure, preemption), so
 *     running the same point again may succeed; false for the workload's own failures
 */
public record JobStatus(JobState state, String raw, OptionalInt exitCode, Optional<String> nodes, boolean retriable) {

  public JobStatus {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(raw, "raw");
    Objects.requireNonNull(exitCode, "exitCode");
    Objects.requireNonNull(nodes, "nodes");
  }

  public static JobStatus of(JobState state, String raw) {
    return new JobStatus(state, raw, OptionalInt.empty(), Optional.empty(), false);
  }

  public static JobStatus of(JobState state, String raw, int exitCode) {
    return new JobStatus(state, raw, OptionalInt.of(exitCode), Optional.empty(), false);
  }

  /**
   * A job handed to a system that runs it later ({@link JobState#SUBMITTED}), e.g. {@code
   * submitted("pipeline 4711")}; the launch reports it as submitted, not as failed.
   */
  public static JobStatus submitted(String raw) {
    return of(JobState.SUBMITTED, raw);
  }

  /** A launch that only showed what it would run ({@link JobState#DRY_RUN}); nothing ran. */
  public static JobStatus dryRun(String raw) {
    return of(JobState.DRY_RUN, raw);
  }

  public JobStatus withNodes(String nodes) {
    return new JobStatus(state, raw, exitCode, Optional.ofNullable(nodes).filter(n -> !n.isBlank()), retriable);
  }

  public JobStatus asRetriable() {
    return new JobStatus(state, raw, exitCode, nodes, true);
  }

  /** Only {@link JobState#SUCCEEDED} succeeds (a cancelled Slurm allocation also reports exit 0). */
  public boolean succeeded() {
    return state == JobState.SUCCEEDED;
  }

  /**
   * The process exit status a launcher reports for this job: 0 on success, the workload's code
   * when it failed with one, 124 for a time-out (as GNU {@code timeout}), 130 for a cancellation
   * (as SIGINT), 0 for {@link JobState#SUBMITTED} and {@link JobState#DRY_RUN} (nothing failed),
   * 1 otherwise.
   */
  public int launcherExitCode() {
    return switch (state) {
      case SUCCEEDED, SUBMITTED, DRY_RUN -> 0;
      case TIMED_OUT -> 124;
      case CANCELLED -> 130;
      case FAILED -> exitCode.isPresent() && exitCode.getAsInt() != 0 ? exitCode.getAsInt() : 1;
      default -> 1;
    };
  }
}
