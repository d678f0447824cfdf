package io.infx.fleet.launch;

import io.infx.fleet.LaunchEnv;
import io.infx.fleet.spi.JobEvents;
import io.infx.fleet.spi.JobStatus;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How one launch ended.
 *
 * @param exitCode 0 on success; the workload's code, 124 (time-out), 130 (cancelled), 128+N
 *     (signal) or 1 otherwise
 * @param resultFilename the point's {@code RESULT_FILENAME}
 * @param env the projected environment
 * @param status the job's final status
 * @param rawFile {@code <RF>.json}, when the workload wrote it
 * @param aggregateFile {@code agg_<RF>.json}, when normalization ran
 * @param error the first error, when the launch failed
 * @param jobEvent the {@code job_event.json} written for this launch
 */
public record LaunchResult(int exitCode, String resultFilename, LaunchEnv env, JobStatus status,
    Optional<Path> rawFile, Optional<Path> aggregateFile, Optional<JobEvents.Failure> error, Path jobEvent) {

  public LaunchResult {
    Objects.requireNonNull(resultFilename, "resultFilename");
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(rawFile, "rawFile");
    Objects.requireNonNull(aggregateFile, "aggregateFile");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(jobEvent, "jobEvent");
  }

  /** True when nothing failed: measured, or {@link #endedWithoutResult() submitted / dry run}. */
  public boolean succeeded() {
    return exitCode == 0;
  }

  /**
   * True when the adapter ended the launch without a result by design ({@link
   * io.infx.fleet.spi.JobState#SUBMITTED} or {@link io.infx.fleet.spi.JobState#DRY_RUN}): no raw
   * result and no aggregate, and no failure either.
   */
  public boolean endedWithoutResult() {
    return exitCode == 0 && status.state().endsWithoutResult();
  }

  /**
   * The launch's outcome as {@code job_event.json} records it: {@code succeeded},
   * {@code submitted}, {@code dry_run}, {@code timed_out}, {@code cancelled} or {@code failed} — a job that ended SUCCEEDED whose
   * result then failed verification or normalization is {@code failed}.
   */
  public String outcome() {
    return outcome(exitCode, status.state());
  }

  static String outcome(int exitCode, io.infx.fleet.spi.JobState state) {
    if (exitCode == 0) {
      return switch (state) {
        case SUBMITTED -> "submitted";
        case DRY_RUN -> "dry_run";
        default -> "succeeded";
      };
    }
    return switch (state) {
      case TIMED_OUT -> "timed_out";
      case CANCELLED -> "cancelled";
      default -> "failed";
    };
  }
}
