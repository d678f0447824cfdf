package io.infx.store;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one ingest of one directory did (one transaction). Counts of new and duplicate rows per
 * table; a re-ingest of the same input reports everything as duplicate and changes nothing.
 *
 * @param source the ingested directory
 * @param runId the run's id ({@code github} id, or {@code infx-…}/{@code dir-…} content ids)
 * @param runAttempt the run attempt
 * @param date the run's date
 * @param newRun whether the run row was created by this ingest
 * @param benchmarksInserted new {@code benchmark_results} rows
 * @param benchmarksDuplicate rows whose natural key was already stored (metrics refreshed only
 *     when they differ; see {@link #benchmarksUpdated})
 * @param benchmarksUpdated duplicates whose stored content differed and was replaced
 * @param simulatedRows rows flagged simulated among the stored ones
 * @param runStats run-stats rows written (new or replaced)
 * @param evalsInserted new {@code eval_results} rows
 * @param evalsDuplicate eval rows already stored
 * @param samplesInserted new {@code eval_samples} rows
 * @param changelogEntries changelog rows written
 * @param skips skip counters (reference names: unmappedModel, noIslOsl, failedRun, …), zeros left out
 * @param unmappedModels raw model names that mapped to no DB key
 * @param unmappedHardware raw hardware names that mapped to no GPU key
 * @param unmappedPrecisions precisions outside the known set (stored anyway)
 * @param ignoredFiles JSON files in the directory that hold no benchmark rows
 * @param telemetrySeries telemetry series written (new or replaced): GPU series of
 *     {@code gpu_metrics_*} artifacts and server {@code /metrics} series of {@code server_metrics_*}
 * @param telemetrySamples their samples inserted
 */
public record IngestReport(
    String source,
    String runId,
    int runAttempt,
    LocalDate date,
    boolean newRun,
    long benchmarksInserted,
    long benchmarksDuplicate,
    long benchmarksUpdated,
    long simulatedRows,
    long runStats,
    long evalsInserted,
    long evalsDuplicate,
    long samplesInserted,
    long changelogEntries,
    Map<String, Long> skips,
    List<String> unmappedModels,
    List<String> unmappedHardware,
    List<String> unmappedPrecisions,
    List<String> ignoredFiles,
    long telemetrySeries,
    long telemetrySamples) {

  public IngestReport {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(date, "date");
    skips = Map.copyOf(skips);
    unmappedModels = List.copyOf(unmappedModels);
    unmappedHardware = List.copyOf(unmappedHardware);
    unmappedPrecisions = List.copyOf(unmappedPrecisions);
    ignoredFiles = List.copyOf(ignoredFiles);
  }

  /** Total rows skipped, every reason. */
  public long skipped() {
    return skips.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The unmapped entities as the reference reports them: {@code {models, hardware, precisions, datasets}}. */
  public ObjectNode unmappedJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    unmappedModels.forEach(o.putArray("models")::add);
    var hw = o.putArray("hardware");
    unmappedHardware.forEach(hw::add);
    var p = o.putArray("precisions");
    unmappedPrecisions.forEach(p::add);
    o.putArray("datasets");
    if (!o.has("models")) {
      o.putArray("models");
    }
    return o;
  }

  /** The report as JSON (keys in a fixed order). */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("source", source).put("run_id", runId).put("run_attempt", runAttempt).put("date", date.toString())
        .put("new_run", newRun);
    ObjectNode b = o.putObject("benchmarks");
    b.put("inserted", benchmarksInserted).put("duplicate", benchmarksDuplicate).put("updated", benchmarksUpdated)
        .put("simulated", simulatedRows);
    o.put("run_stats", runStats);
    ObjectNode e = o.putObject("evals");
    e.put("inserted", evalsInserted).put("duplicate", evalsDuplicate).put("samples_inserted", samplesInserted);
    o.put("changelog_entries", changelogEntries);
    ObjectNode s = o.putObject("skips");
    new java.util.TreeMap<>(skips).forEach(s::put);
    o.set("unmapped", unmappedJson());
    var ig = o.putArray("ignored_files");
    ignoredFiles.forEach(ig::add);
    return o;
  }
}
