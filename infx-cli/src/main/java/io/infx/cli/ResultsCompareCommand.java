package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.core.io.AtomicFiles;
import io.infx.results.AggregateRows;
import io.infx.results.Comparison;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code infx results compare}: candidate run B against baseline run A, point by point. */
@Command(
    name = "compare",
    mixinStandardHelpOptions = true,
    description = {
        "Compare run B (candidate) with run A (baseline): rows are matched by hardware, model "
            + "prefix, framework, precision, spec decoding, disagg, topology, ISL/OSL and conc; "
            + "each matched point gets deltas and ratios of throughput, TTFT, TPOT, interactivity and E2EL "
            + "(InferenceX's statistics: medians, p99 where shown). With repetitions on both sides "
            + "(infx run --repeat N) a change inside the noise band is marked ~ (the judgement of results gate).",
        "Comparability lint: the workload settings recorded in the raw results beside the "
            + "aggregates (agg_<name>.json -> <name>.json: backend and the infx extension: "
            + "ignore_eos, range ratio, warmups, token-count source, seed, ...) must agree; points "
            + "whose settings differ are listed but not ranked.",
        "Provenance: a point whose one side the embedded simulator produced (simulated: true) and "
            + "the other a real engine is refused (not ranked, exit 1) unless --allow-simulated."
    })
public final class ResultsCompareCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "A", description = "Baseline: aggregate file or directory.")
  Path baseline;

  @Parameters(index = "1", paramLabel = "B", description = "Candidate: aggregate file or directory.")
  Path candidate;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "markdown",
      description = "markdown (default) or json (every metric: baseline, candidate, delta, ratio).")
  String format;

  @Option(names = "--metrics", paramLabel = "KEYS", split = ",",
      description = "Metrics of the Markdown table (default: tput_per_gpu, output_tput_per_gpu, "
          + "median_ttft, p99_ttft, median_tpot, median_intvty, median_e2el).")
  List<String> metrics;

  @Option(names = "--strict",
      description = "Exit 1 when a matched point is not comparable or its settings cannot be verified.")
  boolean strict;

  @Option(names = "--allow-simulated",
      description = "Rank simulated rows against real ones (marked SIMULATED); default: refuse.")
  boolean allowSimulated;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write to FILE instead of stdout.")
  Path output;

  @Override
  public Integer call() {
    if (!format.equals("markdown") && !format.equals("json")) {
      throw new UsageException("--format must be 'markdown' or 'json', got '" + format + "'");
    }
    List<Comparison.Metric> shown;
    try {
      shown = Comparison.metrics(metrics == null ? Comparison.DEFAULT_TABLE_METRICS : metrics);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--metrics: " + e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    AggregateRows.Loaded a = AggregateRows.load(List.of(baseline));
    AggregateRows.Loaded b = AggregateRows.load(List.of(candidate));
    ResultsSummarizeCommand.report(err, a);
    ResultsSummarizeCommand.report(err, b);
    Comparison c = Comparison.of(a.rows(), b.rows(), Comparison::settingsBeside, allowSimulated);
    long mixed = c.pairs().stream()
        .filter(p -> p.baseline().row().simulated() != p.candidate().row().simulated()).count();
    long blocked = c.pairs().stream()
        .filter(p -> p.comparability().status() == Comparison.Status.NOT_COMPARABLE).count();
    long unverified = c.pairs().stream()
        .filter(p -> p.comparability().status() == Comparison.Status.UNVERIFIED).count();
    String text = format.equals("json") ? c.toJsonText() + "\n" : c.toMarkdown(shown);
    if (output != null) {
      AtomicFiles.writeString(output, text);
    } else {
      spec.commandLine().getOut().print(text);
    }
    err.println("infx: " + c.pairs().size() + " matched points (" + blocked + " not comparable, "
        + unverified + " unverified), " + c.unpaired().size() + " unmatched rows");
    if (blocked > 0) {
      err.println("infx: warning: " + blocked + " points ran with different workload settings and "
          + "were not ranked: " + Arrays.toString(c.pairs().stream()
              .filter(p -> p.comparability().status() == Comparison.Status.NOT_COMPARABLE)
              .map(p -> p.key() + " (" + String.join("; ", p.comparability().reasons()) + ")")
              .toArray()));
    }
    if (mixed > 0 && !allowSimulated) {
      err.println("infx: error: " + mixed + " matched point(s) compare a SIMULATED row with a real one; "
          + "refusing to rank them (pass --allow-simulated to compare anyway)");
      return 1;
    }
    return strict && (blocked > 0 || unverified > 0) ? 1 : 0;
  }
}
