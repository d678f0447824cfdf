package io.infx.run;

/**
 * Follows a run's progress (the command line prints it on stderr). With several points in flight
 * it is called from several threads, never concurrently (the run serialises the calls); every
 * method defaults to doing nothing.
 */
public interface RunListener {

  RunListener NONE = new RunListener() {};

  /** The plan is ready; nothing has been launched yet. */
  default void planned(RunPlan plan) {}

  /** {@code point} starts; {@code done} points of {@code total} to launch are finished. */
  default void started(PlannedPoint point, int done, int total) {}

  /** {@code outcome} ended; {@code done} of {@code total} are now finished. */
  default void finished(PointOutcome outcome, int done, int total) {}

  /** After {@link #started}: how many points are now in flight (≤ {@code --max-parallel}). */
  default void inFlight(int points) {}

  /** A note worth showing (e.g. rows that were skipped, where the report went). */
  default void note(String message) {}
}
