package io.infx.cli;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Violation;
import io.infx.results.Collector;
import io.infx.results.ResultNames;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code infx results collect}: the run-level collector ({@code utils/collect_results.py}). */
@Command(
    name = "collect",
    mixinStandardHelpOptions = true,
    description = {
        "Collect every *.json under DIR (sorted paths) into one JSON array, exactly as the "
            + "reference utils/collect_results.py would (a file holding a list becomes one nested "
            + "element; empty or unparseable files are skipped).",
        "Every row is also checked against the aggregate schema, and rows sharing a natural key "
            + "are reported as duplicates; problems go to stderr. With --strict only valid, "
            + "first-seen rows are written, the rest go to rejected_rows.json next to the output, "
            + "and the exit status is 1."
    })
public final class ResultsCollectCommand implements Callable<Integer> {

  private static final int MAX_LISTED = 5;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DIR", description = "Directory of downloaded bmk_* artifacts.")
  Path dir;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = ResultNames.COLLECTED_FILE,
      description = "Output file (default: ${DEFAULT-VALUE}).")
  Path output;

  @Option(names = "--strict",
      description = "Write only valid, non-duplicate rows; rejects to rejected_rows.json; exit 1 if any.")
  boolean strict;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Path rejectsFile = output.toAbsolutePath().resolveSibling("rejected_rows.json");
    Collector.Report report = Collector.collect(dir, Set.of(output, rejectsFile));
    for (Collector.Skipped s : report.skipped()) {
      err.println("infx: skipped " + s.source() + ": " + s.reason());
    }
    if (report.entries().isEmpty()) {
      throw new InfxException(ErrorKind.COLLECT, "No valid JSON results found under " + dir);
    }
    for (Collector.Entry e : report.invalid()) {
      List<Violation> v = e.violations();
      for (Violation violation : v.subList(0, Math.min(v.size(), MAX_LISTED))) {
        err.println("infx: invalid row " + e.source() + ": " + violation.render());
      }
      if (v.size() > MAX_LISTED) {
        err.println("infx: invalid row " + e.source() + ": … and " + (v.size() - MAX_LISTED)
            + " more (all of them in rejected_rows.json with --strict)");
      }
    }
    for (Collector.Duplicate d : report.duplicates()) {
      err.println("infx: duplicate rows (" + d.key().describe() + "): " + String.join(", ", d.sources()));
    }
    List<Collector.Reject> rejects = report.rejects();
    if (strict) {
      Collector.write(output, report.acceptedRows());
      if (!rejects.isEmpty()) {
        Collector.writeRejects(rejectsFile, rejects);
      }
    } else {
      Collector.write(output, report.allRows());
    }
    int written = strict ? report.acceptedRows().size() : report.entries().size();
    err.println("infx: wrote " + written + " rows from " + dir + " to " + output + " ("
        + report.agenticRows() + " agentic, " + report.invalid().size() + " invalid, "
        + report.duplicates().size() + " duplicate groups, " + report.skipped().size()
        + " files skipped)");
    if (strict && !rejects.isEmpty()) {
      err.println("infx: error: " + rejects.size() + " rejected rows/files written to " + rejectsFile);
      return 1;
    }
    return 0;
  }
}
