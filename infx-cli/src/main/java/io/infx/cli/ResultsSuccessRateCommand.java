package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.core.io.AtomicFiles;
import io.infx.results.ResultNames;
import io.infx.results.SuccessRate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code infx results success-rate}: planned points vs produced results, per runner label. */
@Command(
    name = "success-rate",
    mixinStandardHelpOptions = true,
    description = {
        "Count, per runner label, the benchmark points the run's matrix planned (one per "
            + "concurrency; eval-only rows excluded) that have a result row under RUN_DIR. Writes "
            + "run_stats.json ({hw: {n_success, total}}, the reference's shape) and prints a table "
            + "with the rate and the missing points. No hosted-CI API is used."
    })
public final class ResultsSuccessRateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "RUN_DIR", description = "The run's directory of results.")
  Path runDir;

  @Option(names = "--matrix", paramLabel = "FILE",
      description = "The run's matrix JSON (default: RUN_DIR/matrix.json).")
  Path matrix;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE",
      description = "Where to write the stats (default: RUN_DIR/run_stats.json).")
  Path output;

  @Override
  public Integer call() {
    Path matrixFile = matrix != null ? matrix : runDir.resolve("matrix.json");
    if (!Files.isRegularFile(matrixFile)) {
      throw new UsageException("matrix JSON not found: " + matrixFile + " (pass --matrix FILE)");
    }
    Path out = output != null ? output : runDir.resolve(ResultNames.RUN_STATS_FILE);
    SuccessRate.Report report = SuccessRate.count(runDir, matrixFile);
    AtomicFiles.writeString(out, report.toJsonText());
    spec.commandLine().getOut().print(report.toMarkdown());
    spec.commandLine().getErr().println("infx: wrote " + out);
    return 0;
  }
}
