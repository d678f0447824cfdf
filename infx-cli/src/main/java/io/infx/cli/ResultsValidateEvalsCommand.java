package io.infx.cli;

import io.infx.results.evals.EvalInputException;
import io.infx.results.evals.ScoreValidator;
import io.infx.results.evals.ValidateScoresArguments;
import io.infx.results.evals.ValidationOptions;
import io.infx.results.evals.ValidationReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code infx results validate-evals [options]}: the eval score gate
 * ({@code utils/evals/validate_scores.py}) with the reference's options, parsed the way its
 * argparse parser parses them ({@code --opt=value}, unambiguous prefixes, usage errors with exit
 * status 2), its environment ({@code MODEL_PREFIX}), messages and exit codes. The default
 * thresholds file is {@code utils/evals/thresholds.yaml} under the current directory.
 */
@Command(
    name = "validate-evals",
    description = {
        "Check lm-eval scores (results*.json in the current directory) against thresholds, "
            + "exactly as the reference utils/evals/validate_scores.py: PASS lines on stdout, "
            + "FAIL/WARN lines on stderr, exit 1 when a score is below its threshold, the batched "
            + "manifest is inconsistent or no metric matched.",
        "Options (argparse syntax, as the reference): --min-score FLOAT (0.85), --thresholds PATH "
            + "(default utils/evals/thresholds.yaml when present), --meta-env PATH (meta_env.json), "
            + "--model-prefix STR (else meta_env.json's infmax_model_prefix, else $MODEL_PREFIX), "
            + "--metric-prefix STR (exact_match,), --results-glob GLOB (results*.json), "
            + "--expected-concs \"N N ...\". -h prints the reference's help."
    })
public final class ResultsValidateEvalsCommand implements Callable<Integer> {

  /** Where the reference keeps its thresholds, relative to the repository root (the cwd in CI). */
  static final String DEFAULT_THRESHOLDS = "utils/evals/thresholds.yaml";

  @Spec CommandSpec spec;

  @Parameters(arity = "0..*", paramLabel = "OPTIONS", description = "validate_scores.py options.")
  List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    return run(args, Path.of("").toAbsolutePath(), System.getenv(), spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /**
   * Runs the command with an explicit working directory and environment (tests and embedders).
   *
   * @return 0 gate passed, 1 gate failed (or input the reference cannot process), 2 usage error
   */
  static int run(List<String> argv, Path cwd, Map<String, String> env, PrintWriter out, PrintWriter err) {
    ValidateScoresArguments.Parsed parsed = ValidateScoresArguments.parse(argv);
    if (parsed.help()) {
      out.print(ValidateScoresArguments.HELP);
      out.flush();
      return 0;
    }
    if (parsed.error().isPresent()) {
      err.print(ValidateScoresArguments.USAGE);
      err.println(ValidateScoresArguments.PROG + ": error: " + parsed.error().get());
      err.flush();
      return 2;
    }
    ValidationOptions options = parsed.toOptions(cwd, cwd.resolve(DEFAULT_THRESHOLDS).toAbsolutePath(), env);
    try {
      ValidationReport report = ScoreValidator.validate(options, line -> {
        PrintWriter w = line.stream() == ValidationReport.Stream.OUT ? out : err;
        w.println(line.text());
        w.flush();
      });
      return report.exitCode();
    } catch (EvalInputException e) {
      out.flush();
      ResultsCollectEvalsCommand.printCrash(err, e);
      return 1;
    }
  }
}
