package io.infx.store;

import java.time.LocalDate;
import java.util.Optional;

/**
 * How to ingest one directory. Built like JMH's options: {@code IngestOptions.defaults()
 * .allowSimulated(true).runId("123")}. Every field is optional; without a run id the run is
 * identified by the content of its ingestible files (so the same artifacts are the same run
 * wherever they lie), and the date is the run metadata's, else the newest file's (UTC).
 */
public final class IngestOptions {

  private final boolean allowSimulated;
  private final String runId;
  private final Integer runAttempt;
  private final LocalDate date;

  private IngestOptions(boolean allowSimulated, String runId, Integer runAttempt, LocalDate date) {
    this.allowSimulated = allowSimulated;
    this.runId = runId;
    this.runAttempt = runAttempt;
    this.date = date;
  }

  public static IngestOptions defaults() {
    return new IngestOptions(false, null, null, null);
  }

  /** Store rows marked {@code simulated: true} (flagged, never in the latest view of real rows). */
  public IngestOptions allowSimulated(boolean allow) {
    return new IngestOptions(allow, runId, runAttempt, date);
  }

  /** The run's id (e.g. the GitHub run id); overrides the directory's metadata. */
  public IngestOptions runId(String id) {
    if (id != null && (id.isBlank() || id.length() > 128)) {
      throw new IllegalArgumentException("run id must be 1-128 characters");
    }
    return new IngestOptions(allowSimulated, id, runAttempt, date);
  }

  /** The run attempt (≥ 1). */
  public IngestOptions runAttempt(int attempt) {
    if (attempt < 1) {
      throw new IllegalArgumentException("run attempt must be at least 1, got " + attempt);
    }
    return new IngestOptions(allowSimulated, runId, attempt, date);
  }

  /** The run's date (the reference: the trigger run's creation date). */
  public IngestOptions date(LocalDate d) {
    return new IngestOptions(allowSimulated, runId, runAttempt, d);
  }

  public boolean allowSimulated() {
    return allowSimulated;
  }

  public Optional<String> runId() {
    return Optional.ofNullable(runId);
  }

  public Optional<Integer> runAttempt() {
    return Optional.ofNullable(runAttempt);
  }

  public Optional<LocalDate> date() {
    return Optional.ofNullable(date);
  }
}
