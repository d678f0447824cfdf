package io.infx.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.infx.core.UsageException;
import io.infx.core.json.Json;
import io.infx.store.IngestOptions;
import io.infx.store.IngestReport;
import io.infx.store.ResultStore;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code infx db ingest}: store run directories, one transaction per directory. */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = {
        "Ingest infx run directories or InferenceX artifact directories (bmk_*, results_*/agg_bmk.json, "
            + "run-stats, eval_results_all, eval_*, changelog-metadata, optional workflow_run.json) into the store, "
            + "one transaction per directory. Rows are mapped exactly as InferenceX-app maps them; skipped rows "
            + "are counted by reason and unmapped names listed. Re-ingesting the same input changes nothing.",
        "Rows marked simulated are refused unless --allow-simulated; then they are stored flagged and never "
            + "enter the latest view of real rows."
    })
public final class DbIngestCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DbLocationOption store;

  @Parameters(arity = "1..*", paramLabel = "PATH", description = "Run or artifact directories (or JSON files of rows).")
  List<Path> paths;

  @Option(names = "--allow-simulated", description = "Store simulated rows (flagged).")
  boolean allowSimulated;

  @Option(names = "--run-id", paramLabel = "ID",
      description = "The run's id (e.g. the GitHub run id); default: workflow_run.json's id, else a content hash.")
  String runId;

  @Option(names = "--run-attempt", paramLabel = "N", description = "The run attempt (default 1 or workflow_run.json's).")
  Integer runAttempt;

  @Option(names = "--date", paramLabel = "YYYY-MM-DD",
      description = "The run's date (default: workflow_run.json's created_at, else the newest file's, UTC).")
  String date;

  @Option(names = "--json", description = "Print one JSON report per directory instead of a summary line.")
  boolean json;

  @Override
  public Integer call() throws JsonProcessingException {
    if (paths.size() > 1 && (runId != null || runAttempt != null || date != null)) {
      throw new UsageException("--run-id, --run-attempt and --date apply to one PATH; got " + paths.size());
    }
    IngestOptions options = IngestOptions.defaults().allowSimulated(allowSimulated).runId(runId);
    if (runAttempt != null) {
      if (runAttempt < 1) {
        throw new UsageException("--run-attempt must be at least 1, got " + runAttempt);
      }
      options = options.runAttempt(runAttempt);
    }
    if (date != null) {
      try {
        options = options.date(LocalDate.parse(date));
      } catch (DateTimeParseException e) {
        throw new UsageException("--date must be YYYY-MM-DD, got '" + date + "'");
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    try (ResultStore s = ResultStore.open(store.location())) {
      for (Path p : paths) {
        IngestReport r = s.ingest(p, options);
        if (json) {
          out.println(Json.pretty().writeValueAsString(r.toJson()));
        } else {
          out.println(summary(r));
          if (!r.unmappedModels().isEmpty() || !r.unmappedHardware().isEmpty()) {
            out.println("  unmapped: " + r.unmappedJson());
          }
          if (!r.ignoredFiles().isEmpty()) {
            spec.commandLine().getErr().println("infx: " + p + ": ignored (no rows): " + String.join(", ", r.ignoredFiles()));
          }
        }
      }
      out.println("store: " + s.location());
    }
    return 0;
  }

  static String summary(IngestReport r) {
    StringBuilder b = new StringBuilder();
    b.append(r.source()).append(": run ").append(r.runId()).append(" attempt ").append(r.runAttempt()).append(' ')
        .append(r.date()).append(r.newRun() ? " (new)" : " (known)").append(": benchmarks ")
        .append(r.benchmarksInserted()).append(" new, ").append(r.benchmarksDuplicate()).append(" duplicate");
    if (r.benchmarksUpdated() > 0) {
      b.append(" (").append(r.benchmarksUpdated()).append(" updated)");
    }
    if (r.simulatedRows() > 0) {
      b.append(", ").append(r.simulatedRows()).append(" simulated");
    }
    b.append("; run-stats ").append(r.runStats()).append("; evals ").append(r.evalsInserted()).append(" new, ")
        .append(r.evalsDuplicate()).append(" duplicate");
    if (r.samplesInserted() > 0) {
      b.append(", ").append(r.samplesInserted()).append(" samples");
    }
    if (r.changelogEntries() > 0) {
      b.append("; changelog ").append(r.changelogEntries());
    }
    if (r.telemetrySeries() > 0) {
      b.append("; telemetry ").append(r.telemetrySeries()).append(" series, ").append(r.telemetrySamples())
          .append(" samples");
    }
    b.append("; skipped ").append(r.skipped());
    if (r.skipped() > 0) {
      b.append(" (");
      boolean first = true;
      for (Map.Entry<String, Long> e : new java.util.TreeMap<>(r.skips()).entrySet()) {
        b.append(first ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
        first = false;
      }
      b.append(')');
    }
    return b.toString();
  }
}
