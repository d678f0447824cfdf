package io.infx.cli;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.io.AtomicFiles;
import io.infx.results.AggregateRows;
import io.infx.results.Summary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code infx results summarize}: a table of aggregate rows. */
@Command(
    name = "summarize",
    mixinStandardHelpOptions = true,
    description = {
        "Print one line per measurement point: hardware, model prefix, ISL/OSL, framework, "
            + "precision, topology, conc, tput/GPU, output tput/GPU (tok/s/GPU), interactivity "
            + "(tok/s/user), median/p99 TTFT and TPOT (ms), median E2EL (s) — InferenceX's statistics.",
        "FILE may be an agg_*.json, a collected agg_bmk.json or a directory of them. AgentX and "
            + "invalid rows are listed on stderr, not summarized."
    })
public final class ResultsSummarizeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Aggregate files or directories.")
  List<Path> files;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table",
      description = "table (default: grouped by configuration, fits --width, colour on a terminal), "
          + "md (Markdown), csv or json.")
  String format;

  @Option(names = "--width", paramLabel = "COLUMNS",
      description = "Width of the table (default: $COLUMNS, else 100).")
  Integer width;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Write the table to FILE (atomically) instead of stdout.")
  Path output;

  @Override
  public Integer call() {
    if (!List.of("table", "md", "markdown", "csv", "json").contains(format)) {
      throw new UsageException("--format must be table, md, csv or json, got '" + format + "'");
    }
    AggregateRows.Loaded loaded = AggregateRows.load(files);
    PrintWriter err = spec.commandLine().getErr();
    report(err, loaded);
    if (loaded.rows().isEmpty()) {
      throw new InfxException(ErrorKind.SUMMARIZE, "no fixed-sequence aggregate rows found in " + files);
    }
    Summary summary = Summary.of(loaded.rows().stream().map(AggregateRows.Sourced::row).toList());
    String text = render(summary, format, width, output == null);
    if (output != null) {
      AtomicFiles.writeString(output, text);
    } else {
      spec.commandLine().getOut().print(text);
    }
    return 0;
  }

  /** Notes about unused rows printed before the rest are only counted. */
  static final int MAX_NOTES = 100;

  /**
   * The summary in {@code format}: {@code table} at {@code width} (else {@code $COLUMNS}, else 100)
   * with colour when {@code terminal} and the process has a console and {@code NO_COLOR} is unset.
   */
  static String render(Summary summary, String format, Integer width, boolean terminal) {
    return switch (format) {
      case "csv" -> summary.toCsv();
      case "json" -> io.infx.core.python.PythonJson.dumps(summary.toJson(), 2) + "\n";
      case "md", "markdown" -> "_" + Summary.STATISTICS_NOTE + "_\n\n" + summary.toMarkdown();
      default -> summary.toTable(width != null ? width : terminalWidth(), terminal && colour());
    };
  }

  static int terminalWidth() {
    try {
      String c = System.getenv("COLUMNS");
      return c == null ? 100 : Math.max(40, Integer.parseInt(c.trim()));
    } catch (NumberFormatException e) {
      return 100;
    }
  }

  static boolean colour() {
    return System.console() != null && System.getenv("NO_COLOR") == null
        && !"dumb".equals(System.getenv("TERM"));
  }

  static void report(PrintWriter err, AggregateRows.Loaded loaded) {
    int shown = 0;
    for (AggregateRows.Unused u : loaded.agentic()) {
      if (shown++ < MAX_NOTES) {
        err.println("infx: skipped " + u.source() + ": " + u.reason()
            + " (use `infx results agentic-validate` for AgentX results)");
      }
    }
    for (AggregateRows.Unused u : loaded.invalid()) {
      if (shown++ < MAX_NOTES) {
        err.println("infx: invalid row " + u.source() + ": " + u.reason().replace("\n", "\n  "));
      }
    }
    if (shown > MAX_NOTES) {
      err.println("infx: … and " + (shown - MAX_NOTES) + " more skipped or invalid rows (first "
          + MAX_NOTES + " shown)");
    }
  }
}
