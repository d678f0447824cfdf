package io.infx.store.mapping;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Counts every row an ingest leaves out, by reason, and the unmapped names seen (InferenceX-app
 * {@code skip-tracker.ts}): nothing is skipped silently. One tracker per ingest; the mappers mutate
 * it. DB and telemetry errors print their first {@value #MAX_PRINTED_ERRORS} messages each to the
 * sink, then only count.
 */
public final class SkipTracker {

  /** The skip counters, in the reference's order. */
  public enum Skip {
    badZip, unmappedModel, unmappedHw, noIslOsl, failedRun, dbError, traceReplayMissing,
    unsupportedVersion, quarantined, telemetryError
  }

  public static final int MAX_PRINTED_ERRORS = 10;

  private final Map<Skip, Long> skips = new LinkedHashMap<>();
  private final Set<String> unmappedModels = new LinkedHashSet<>();
  private final Set<String> unmappedHws = new LinkedHashSet<>();
  private final Set<String> unmappedPrecisions = new LinkedHashSet<>();
  private final Consumer<String> errorSink;
  private int dbErrorsPrinted;
  private int telemetryErrorsPrinted;

  /** A tracker whose error lines go to standard error. */
  public SkipTracker() {
    this(System.err::println);
  }

  public SkipTracker(Consumer<String> errorSink) {
    this.errorSink = errorSink;
    for (Skip s : Skip.values()) {
      skips.put(s, 0L);
    }
  }

  /** Adds one to a counter. */
  public void inc(Skip skip) {
    add(skip, 1);
  }

  public void add(Skip skip, long by) {
    skips.merge(skip, by, Long::sum);
  }

  public void set(Skip skip, long value) {
    skips.put(skip, value);
  }

  public long count(Skip skip) {
    return skips.get(skip);
  }

  /** All counters, in the reference's order. */
  public Map<Skip, Long> skips() {
    return Collections.unmodifiableMap(skips);
  }

  /** Sum of every counter except telemetryError (which is informational). */
  public long totalSkipped() {
    long t = 0;
    for (Map.Entry<Skip, Long> e : skips.entrySet()) {
      if (e.getKey() != Skip.telemetryError && e.getKey() != Skip.dbError) {
        t += e.getValue();
      }
    }
    return t;
  }

  public Set<String> unmappedModels() {
    return Collections.unmodifiableSet(unmappedModels);
  }

  public Set<String> unmappedHws() {
    return Collections.unmodifiableSet(unmappedHws);
  }

  public Set<String> unmappedPrecisions() {
    return Collections.unmodifiableSet(unmappedPrecisions);
  }

  public void addUnmappedModel(String model) {
    unmappedModels.add(model);
  }

  public void addUnmappedHw(String hw) {
    unmappedHws.add(hw);
  }

  public void addUnmappedPrecision(String precision) {
    unmappedPrecisions.add(precision);
  }

  /** Counts a database error, printing the first ten. */
  public void recordDbError(String context, String message) {
    add(Skip.dbError, 1);
    if (dbErrorsPrinted < MAX_PRINTED_ERRORS) {
      errorSink.accept("  [DB ERROR] " + context + ": " + message);
      dbErrorsPrinted++;
      if (dbErrorsPrinted == MAX_PRINTED_ERRORS) {
        errorSink.accept("  [DB ERROR] further DB errors suppressed; count included in summary");
      }
    }
  }

  /** Counts a non-fatal telemetry error (kept apart from dbError, which fails an ingest). */
  public void recordTelemetryError(String context, String message) {
    add(Skip.telemetryError, 1);
    if (telemetryErrorsPrinted < MAX_PRINTED_ERRORS) {
      errorSink.accept("  [TELEMETRY ERROR] " + context + ": " + message);
      telemetryErrorsPrinted++;
      if (telemetryErrorsPrinted == MAX_PRINTED_ERRORS) {
        errorSink.accept("  [TELEMETRY ERROR] further telemetry errors suppressed; count included in summary");
      }
    }
  }

  /** Counters and unmapped names at one moment, to report per-artifact drops with {@link #diff}. */
  public record Snapshot(long model, long hw, long islOsl, Set<String> models, Set<String> hws) {}

  /** What changed since a snapshot. */
  public record Diff(long droppedModel, long droppedHw, long droppedIslOsl, List<String> newModels, List<String> newHws) {}

  public Snapshot snapshot() {
    return new Snapshot(count(Skip.unmappedModel), count(Skip.unmappedHw), count(Skip.noIslOsl),
        Collections.unmodifiableSet(new LinkedHashSet<>(unmappedModels)),
        Collections.unmodifiableSet(new LinkedHashSet<>(unmappedHws)));
  }

  public Diff diff(Snapshot before) {
    List<String> models = new ArrayList<>();
    for (String m : unmappedModels) {
      if (!before.models().contains(m)) {
        models.add(m);
      }
    }
    List<String> hws = new ArrayList<>();
    for (String h : unmappedHws) {
      if (!before.hws().contains(h)) {
        hws.add(h);
      }
    }
    return new Diff(count(Skip.unmappedModel) - before.model(), count(Skip.unmappedHw) - before.hw(),
        count(Skip.noIslOsl) - before.islOsl(), models, hws);
  }
}
