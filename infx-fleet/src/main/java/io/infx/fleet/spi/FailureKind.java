package io.infx.fleet.spi;

/**
 * Class of the first error of a launch, recorded in {@code job_event.json}. Whether running the
 * same point again may help follows from the class (newer reference design, fleet spec §8).
 *
 * <p>Not an {@link io.infx.core.ErrorKind}: it classifies how a launched job ended (a record in the
 * job's events, which a run reports and may retry), by the stage that failed and whether a retry
 * can help; an {@code ErrorKind} classifies an exception thrown to the caller. A launch that fails
 * with an {@link io.infx.core.InfxException} is recorded as a {@code FailureKind} (for example
 * {@link #INPUT} or {@link #SERVER}) so both views stay available.
 */
public enum FailureKind {
  /** Bad row, runner or options: fix the input. */
  INPUT(false),
  /** Scheduler refused or lost the job (no allocation, node failure, preemption). */
  SCHEDULER(true),
  /** Shared storage or file transfer failed. */
  STORAGE(true),
  /** Image could not be pulled or imported. */
  IMAGE(true),
  /** The inference server failed to start or died. */
  SERVER(false),
  /** The load generator failed. */
  CLIENT(false),
  /** The expected result files are missing or invalid. */
  RESULT(false),
  /** The job ran past its time limit. */
  TIMEOUT(false),
  /** Cancelled by a user or a signal. */
  CANCELLED(false),
  /** A cleanup step failed. */
  CLEANUP(false),
  /** A bug in infx. */
  INTERNAL(false);

  private final boolean retriable;

  FailureKind(boolean retriable) {
    this.retriable = retriable;
  }

  /** Default retriability of this class. */
  public boolean retriable() {
    return retriable;
  }
}
