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
  UNKNOWN;

  /** True for states a job never leaves. */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == TIMED_OUT;
  }
}
