package io.infx.results.evals;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of {@link ScoreValidator#validate}: every line printed (in order, with its stream),
 * each score checked, the batched-manifest errors, and the exit status (0 when every checked score
 * met its threshold, the manifest was consistent and at least one metric was checked).
 *
 * @param lines output lines in the order they were produced
 * @param checks every metric compared against a threshold
 * @param manifestErrors batched-concurrency manifest problems (each also a {@code FAIL:} line)
 * @param exitCode 0 or 1, as {@code validate_scores.py} exits
 */
public record ValidationReport(List<Line> lines, List<ScoreCheck> checks, List<String> manifestErrors,
    int exitCode) {

  public ValidationReport {
    lines = List.copyOf(lines);
    checks = List.copyOf(checks);
    manifestErrors = List.copyOf(manifestErrors);
  }

  /** Where a line goes: PASS and informational lines to stdout, FAIL and WARN lines to stderr. */
  public enum Stream { OUT, ERR }

  /** One printed line (without its newline). */
  public record Line(Stream stream, String text) {}

  /**
   * One metric compared against its threshold.
   *
   * @param conc the {@code _concN} suffix of the result file, when batched
   * @param task lm-eval task
   * @param metric metric name, e.g. {@code exact_match,strict-match}
   * @param value the score (fraction; NaN passes, as in the reference)
   * @param threshold the threshold and its source
   * @param passed {@code !(value < threshold)}
   * @param file the result file as globbed
   */
  public record ScoreCheck(Optional<Long> conc, String task, String metric, double value,
      EvalThresholds.Threshold threshold, boolean passed, String file) {}

  /** Whether the gate passed ({@link #exitCode()} is 0). */
  public boolean passed() {
    return exitCode == 0;
  }

  /** The failed checks. */
  public List<ScoreCheck> failures() {
    return checks.stream().filter(c -> !c.passed()).toList();
  }
}
