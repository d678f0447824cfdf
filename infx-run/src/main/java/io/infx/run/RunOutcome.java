package io.infx.run;

import io.infx.results.evals.EvalRow;
import io.infx.report.ReportFiles;
import io.infx.report.ReportPoints;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run produced.
 *
 * @param plan the plan that was executed
 * @param layout where the files are
 * @param points every point's outcome, in plan order
 * @param collected the points of {@code results_bmk/agg_bmk.json} (this run's and resumed ones)
 * @param report the report files, when a report was written
 * @param evals the eval rows of {@code eval_results_all/agg_eval_all.json} (this run's eval points)
 */
public record RunOutcome(RunPlan plan, RunLayout layout, List<PointOutcome> points,
    ReportPoints collected, Optional<ReportFiles> report, List<EvalRow> evals) {

  public RunOutcome(RunPlan plan, RunLayout layout, List<PointOutcome> points, ReportPoints collected,
      Optional<ReportFiles> report) {
    this(plan, layout, points, collected, report, List.of());
  }

  public RunOutcome {
    evals = List.copyOf(evals);
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(layout, "layout");
    points = List.copyOf(points);
    Objects.requireNonNull(collected, "collected");
    Objects.requireNonNull(report, "report");
  }

  public long count(PointOutcome.Status status) {
    return points.stream().filter(p -> p.status() == status).count();
  }

  /**
   * 0 when no launched point failed and at least one point has a result or was handed over
   * ({@link PointOutcome.Status#SUBMITTED submitted}, {@link PointOutcome.Status#DRY_RUN dry run});
   * 1 otherwise.
   */
  public int exitCode() {
    boolean anyResult = points.stream().anyMatch(p -> p.hasResult()
        || p.status() == PointOutcome.Status.SUBMITTED || p.status() == PointOutcome.Status.DRY_RUN);
    return count(PointOutcome.Status.FAILED) == 0 && anyResult ? 0 : 1;
  }
}
