package io.infx.run;

import io.infx.matrix.Matrix;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The expanded matrix of a run and one {@link PlannedPoint} per launch, in matrix order.
 *
 * @param matrix the rows {@code generate} would print for the same files and filters
 * @param points what the run does with each row
 * @param adapter the fleet adapter(s) the points run on, as said to the user: an id ({@code local}), or
 *     several with where they came from ({@code local, acme-echo (runners.yaml)})
 */
public record RunPlan(Matrix matrix, List<PlannedPoint> points, String adapter) {

  public RunPlan {
    Objects.requireNonNull(matrix, "matrix");
    points = List.copyOf(points);
    Objects.requireNonNull(adapter, "adapter");
  }

  public long count(PlannedPoint.Action action) {
    return points.stream().filter(p -> p.action() == action).count();
  }

  /** The plan as a text table (one line per point), as {@code infx run --dry-run} prints it. */
  public String toTable() {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%d matrix rows → %d points on adapter '%s': %d to run, %d resumed, %d skipped%n",
        matrix.size(), points.size(), adapter, count(PlannedPoint.Action.RUN),
        count(PlannedPoint.Action.RESUME), count(PlannedPoint.Action.SKIP)));
    int w = points.stream().mapToInt(p -> p.resultFilename().length()).max().orElse(10);
    String fmt = "%4s  %-6s  %-8s  %-" + Math.max(w, 15) + "s  %s%n";
    b.append(String.format(Locale.ROOT, fmt, "#", "action", "conc", io.infx.core.launch.LaunchVariable.RESULT_FILENAME.name(), "note"));
    for (PlannedPoint p : points) {
      String conc = p.conc().size() == 1 ? p.conc().get(0).toString()
          : String.join("x", p.conc().stream().map(String::valueOf).toList());
      b.append(String.format(Locale.ROOT, fmt, p.index(), p.action().name().toLowerCase(Locale.ROOT),
          conc, p.resultFilename(), p.note()));
    }
    return b.toString();
  }
}
