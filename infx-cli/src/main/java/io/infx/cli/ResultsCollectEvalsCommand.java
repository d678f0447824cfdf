package io.infx.cli;

import io.infx.results.evals.EvalCollector;
import io.infx.results.evals.EvalInputException;
import io.infx.results.evals.EvalRow;
import io.infx.results.evals.EvalSummary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code infx results collect-evals RESULTS_DIR EXP_NAME [SORT_BY]}: the eval collector
 * ({@code utils/collect_eval_results.py}) with its arguments, output and exit codes.
 */
@Command(
    name = "collect-evals",
    mixinStandardHelpOptions = true,
    description = {
        "Collect lm-eval results of eval artifacts (RESULTS_DIR itself and each immediate "
            + "subdirectory holding a meta_env.json) into agg_eval_EXP_NAME.json in the current "
            + "directory, and print a Markdown summary (single-node and multi-node tables) on "
            + "stdout, exactly as the reference utils/collect_eval_results.py.",
        "SORT_BY 'hw' orders the tables by hardware first; anything else by model prefix."
    })
public final class ResultsCollectEvalsCommand implements Callable<Integer> {

  /** The reference's usage line (printed on stdout, exit status 1). */
  static final String USAGE =
      "Usage: collect_eval_results.py <results_dir> <exp_name> [sort_by: model_prefix|hw]";

  @Spec CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "RESULTS_DIR EXP_NAME [SORT_BY]",
      description = "Results directory, experiment name, optional sort order (model_prefix|hw).")
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    return run(args, Path.of("").toAbsolutePath(), spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /**
   * Runs the command with an explicit working directory (tests and embedders).
   *
   * @return the exit status: 0, or 1 for a usage error or input the reference cannot process
   */
  static int run(List<String> argv, Path cwd, PrintWriter out, PrintWriter err) {
    if (argv.size() < 2) {
      out.println(USAGE);
      out.flush();
      return 1;
    }
    String expName = argv.get(1);
    EvalSummary.SortOrder order = EvalSummary.SortOrder.fromArgument(argv.size() > 2 ? argv.get(2) : null);
    try {
      List<EvalRow> rows = EvalCollector.collect(cwd, argv.get(0));
      out.print(EvalSummary.markdown(rows, order));
      out.flush();
      EvalSummary.writeAggregate(cwd.resolve(EvalSummary.aggregateFileName(expName)), rows);
      return 0;
    } catch (EvalInputException e) {
      printCrash(err, e);
      return 1;
    }
  }

  /** A user-facing message and, for log compatibility, the reference's exception line. */
  static void printCrash(PrintWriter err, EvalInputException e) {
    err.println("infx: error: " + e.getMessage());
    err.println(e.pythonError());
    err.flush();
  }
}
