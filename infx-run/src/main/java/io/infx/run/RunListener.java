package io.infx.run;

/**
 * Follows a run's progress (the command line prints it on stderr). Called on the run's thread;
 * every method defaults to doing nothing.
 */
public interface RunListener {

  RunListener NONE = new RunListener() {};

  /** The plan is ready; nothing has been launched yet. */
  default void planned(RunPlan plan) {}

  /** {@code point} starts; {@code done} points of {@code total} to launch are finished. */
  default void started(PlannedPoint point, int done, int total) {}

  /** {@code outcome} ended; {@code done} of {@code total} are now finished. */
  default void finished(PointOutcome outcome, int done, int total) {}

  /** A note worth showing (e.g. rows that were skipped, where the report went). */
  default void note(String message) {}
}
