package io.infx.run.internal;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.io.AtomicFiles;
import io.infx.results.evals.EvalInputException;
import io.infx.results.evals.ScoreValidator;
import io.infx.results.evals.ValidationOptions;
import io.infx.results.evals.ValidationReport;
import io.infx.run.PlannedPoint;
import io.infx.run.PointResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The "Verify eval scores" step of an eval point: {@code validate_scores.py --expected-concs <conc>}
 * in the point's workspace (where the job left {@code meta_env.json} and the staged lm-eval
 * output), its lines in the point log and in {@code eval_validation.log}.
 */
final class EvalGate {

  /** Where a run keeps the thresholds it applied (when none were given). */
  static final String THRESHOLDS_FILE = "eval_thresholds.yaml";

  private EvalGate() {}

  static PointResult.Eval validate(PlannedPoint point, Path workDir, Path thresholds, PrintWriter log) {
    List<String> lines = new ArrayList<>();
    ValidationOptions options = ValidationOptions.builder()
        .workingDir(workDir)
        .thresholds(thresholds.toAbsolutePath().toString())
        .expectedConcs(Integer.toString(point.conc().get(0)))
        .environmentModelPrefix(point.env().get(io.infx.core.launch.LaunchVariable.MODEL_PREFIX.name()))
        .build();
    try {
      ValidationReport report = ScoreValidator.validate(options, line -> {
        String text = (line.stream() == ValidationReport.Stream.ERR ? "[stderr] " : "") + line.text();
        lines.add(text);
        log.println("validate-evals: " + text);
      });
      lines.add("exit " + report.exitCode());
      return new PointResult.Eval(workDir, report);
    } catch (EvalInputException e) {
      lines.add("error: " + e.getMessage() + " (" + e.pythonError() + ")");
      throw new InfxException(ErrorKind.EVAL, e.getMessage());
    } finally {
      AtomicFiles.writeString(workDir.resolve("eval_validation.log"), String.join("\n", lines) + "\n");
    }
  }

  /** The gate's failures in one line: failed scores first, then manifest problems. */
  static String describe(ValidationReport report) {
    List<String> parts = new ArrayList<>();
    for (ValidationReport.ScoreCheck c : report.failures()) {
      parts.add(c.task() + " " + c.metric() + " = " + io.infx.core.python.PythonNumbers.formatFixed(c.value(), 4)
          + " < " + c.threshold().display() + " (" + c.threshold().source() + ")");
    }
    parts.addAll(report.manifestErrors());
    if (report.checks().isEmpty()) {
      parts.add("no metric matched (no lm-eval results with exact_match scores)");
    }
    return parts.stream().collect(Collectors.joining("; "));
  }
}
