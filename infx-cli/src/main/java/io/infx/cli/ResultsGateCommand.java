package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.core.io.AtomicFiles;
import io.infx.results.AggregateRows;
import io.infx.results.ChangeJudgement;
import io.infx.results.Comparison;
import io.infx.results.RegressionGate;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code infx results gate}: fail CI on a significant regression of candidate against baseline. */
@Command(
    name = "gate",
    mixinStandardHelpOptions = true,
    description = {
        "Regression gate for CI: match the points of BASELINE and CANDIDATE (run directories or "
            + "aggregate files, as results compare takes them) and judge every gated metric over the "
            + "repetitions of both (infx run --repeat N): a 95% percentile-bootstrap interval of the "
            + "ratio of means is the noise band; a change whose band excludes 0, in the metric's bad "
            + "direction and larger than --max-regression, is a regression.",
        "Exit status: 0 no significant regression beyond the threshold (also when nothing could be "
            + "judged, unless --require-repeats); 1 at least one significant regression; 2 usage or "
            + "input error; 3 nothing judged (no comparable point with >= 2 repetitions on both sides) "
            + "and --require-repeats was given."
    })
public final class ResultsGateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "BASELINE", description = "Baseline run directory or aggregate file.")
  Path baseline;

  @Parameters(index = "1", paramLabel = "CANDIDATE", description = "Candidate run directory or aggregate file.")
  Path candidate;

  @Option(names = "--metric", paramLabel = "KEY", split = ",",
      description = "Gated metric, repeatable (aggregate keys; default: tput_per_gpu, median_ttft, median_tpot, "
          + "median_e2el, median_intvty).")
  List<String> metrics;

  @Option(names = "--max-regression", paramLabel = "PCT", defaultValue = "5",
      description = "Largest tolerated change in a metric's bad direction, in percent (default: ${DEFAULT-VALUE}).")
  double maxRegressionPct;

  @Option(names = "--confidence", paramLabel = "LEVEL", defaultValue = "0.95",
      description = "Confidence of the noise band (default: ${DEFAULT-VALUE}).")
  double confidence;

  @Option(names = "--require-repeats",
      description = "Exit 3 when nothing could be judged (no point with >= 2 repetitions on both sides).")
  boolean requireRepeats;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "markdown",
      description = "markdown (default) or json.")
  String format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
  Path output;

  @Override
  public Integer call() {
    if (!format.equals("markdown") && !format.equals("json")) {
      throw new UsageException("--format must be 'markdown' or 'json', got '" + format + "'");
    }
    if (!(maxRegressionPct >= 0)) {
      throw new UsageException("--max-regression must be a percentage >= 0, got " + maxRegressionPct);
    }
    if (!(confidence > 0 && confidence < 1)) {
      throw new UsageException("--confidence must be between 0 and 1, got " + confidence);
    }
    List<Comparison.Metric> gated;
    try {
      gated = Comparison.metrics(metrics == null || metrics.isEmpty() ? RegressionGate.DEFAULT_METRICS : metrics);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--metric: " + e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    AggregateRows.Loaded a = AggregateRows.load(List.of(baseline));
    AggregateRows.Loaded b = AggregateRows.load(List.of(candidate));
    ResultsSummarizeCommand.report(err, a);
    ResultsSummarizeCommand.report(err, b);
    RegressionGate gate = RegressionGate.of(Comparison.of(a.rows(), b.rows(), Comparison::settingsBeside),
        gated, maxRegressionPct / 100, confidence);
    String text = format.equals("json") ? gate.toJsonText() + "\n" : gate.toText();
    if (output != null) {
      AtomicFiles.writeString(output, text);
    } else {
      spec.commandLine().getOut().print(text);
    }
    int code = gate.exitCode(requireRepeats);
    err.println("infx: gate " + gate.outcome().name().toLowerCase(java.util.Locale.ROOT) + " (exit " + code + ", "
        + ChangeJudgement.RESAMPLES + " bootstrap resamples)");
    return code;
  }
}
