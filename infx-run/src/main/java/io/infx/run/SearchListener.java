package io.infx.run;

/**
 * Follows a search (the command line prints it on stderr). With several configurations searched at
 * once the calls come from several threads, never concurrently (the search serialises them); every
 * method defaults to doing nothing.
 */
public interface SearchListener {

  SearchListener NONE = new SearchListener() {};

  /** The plan is ready; nothing has been measured yet. */
  default void planned(SearchPlan plan) {}

  /** A configuration's search starts. */
  default void started(SearchPlan.Configuration configuration) {}

  /** A load is about to be measured ({@code repetition} 1, 2, …), or taken from an earlier run. */
  default void measuring(SearchPlan.Configuration configuration, PlannedPoint probe, int repetition) {}

  /** A load's verdict is in. */
  default void probed(SearchPlan.Configuration configuration, BoundarySearch.Probe probe) {}

  /** A configuration's search ended. */
  default void finished(ConfigurationSearch result) {}

  /** A note worth showing (a server started, a probe re-measured, where the report went). */
  default void note(String message) {}
}
