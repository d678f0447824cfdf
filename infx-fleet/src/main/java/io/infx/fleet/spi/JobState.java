package io.infx.fleet.spi;

/** Scheduler-neutral state of a job (fleet spec §11.4). */
public enum JobState {
  PENDING,
  RUNNING,
  SUCCEEDED,
  FAILED,
  CANCELLED,
  TIMED_OUT,
  /** The backend could not tell (e.g. the job left the queue and no record was found). */
  UNKNOWN,
  /**
   * The adapter handed the job to a system that runs it later (a queue, a CI pipeline) and does
   * not wait: this launch ends without a result file, and without failing for it.
   */
  SUBMITTED,
  /** The adapter only showed what it would run (nothing ran): no result file, not a failure. */
  DRY_RUN;

  /** True for states a job never leaves (for this launch: {@link #SUBMITTED} and {@link #DRY_RUN} too). */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == TIMED_OUT || endsWithoutResult();
  }

  /**
   * True for {@link #SUBMITTED} and {@link #DRY_RUN}: the launch ended as the adapter intended, but
   * measured nothing, so the launcher neither waits for {@code <RESULT_FILENAME>.json} nor reports
   * its absence as a failure.
   */
  public boolean endsWithoutResult() {
    return this == SUBMITTED || this == DRY_RUN;
  }
}
