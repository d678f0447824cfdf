package io.infx.run;

import io.infx.matrix.Matrix;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a search will do: the matrix its configs expand to, and one {@link Configuration} per
 * serving configuration (the matrix rows that differ only in their concurrency), each with the
 * grid of loads it may probe. Rows a search cannot probe are listed with the reason.
 *
 * @param matrix the rows {@code infx generate} prints for the same files and filters
 * @param configurations what is searched, in matrix order
 * @param skipped the planned points no configuration takes, with {@link PlannedPoint#note()} saying why
 * @param adapter the fleet adapter(s), as {@link RunPlan#adapter()} says it
 */
public record SearchPlan(Matrix matrix, List<Configuration> configurations, List<PlannedPoint> skipped, String adapter) {

  /**
   * One serving configuration: a matrix row without its concurrency.
   *
   * @param id a file-name stem naming it: the rows' {@code RESULT_FILENAME} with {@code _conc<N>}
   *     left out (where its server's files go, {@code servers/<id>/})
   * @param rows its planned points, by ascending concurrency (the matrix's own loads)
   * @param grid the loads the search may probe
   */
  public record Configuration(String id, List<PlannedPoint> rows, LoadGrid grid) {
    public Configuration {
      Objects.requireNonNull(id, "id");
      rows = List.copyOf(rows);
      if (rows.isEmpty()) {
        throw new IllegalArgumentException("a configuration has at least one row");
      }
      Objects.requireNonNull(grid, "grid");
    }

    /** The row every probe is made from (the first one; probes differ only in their load). */
    public PlannedPoint template() {
      return rows.get(0);
    }

    /** The configuration's {@code RESULT_FILENAME} with the concurrency as {@code conc*}. */
    public String pattern() {
      PlannedPoint t = template();
      return t.resultFilename().replace("_conc" + t.conc().get(0) + "_", "_conc*_");
    }
  }

  public SearchPlan {
    Objects.requireNonNull(matrix, "matrix");
    configurations = List.copyOf(configurations);
    skipped = List.copyOf(skipped);
    Objects.requireNonNull(adapter, "adapter");
  }

  /** The plan as text, as {@code infx search --dry-run} prints it. */
  public String toTable(SearchAxis axis) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%d matrix rows → %d configuration%s to search on adapter '%s'%s%n",
        matrix.size(), configurations.size(), configurations.size() == 1 ? "" : "s", adapter,
        skipped.isEmpty() ? "" : ", " + skipped.size() + " row(s) skipped"));
    for (Configuration c : configurations) {
      LoadGrid g = c.grid();
      b.append(String.format(Locale.ROOT, "  %s  %s %s..%s step %s (%d loads)%n", c.pattern(), axis.label(),
          SearchAxis.format(g.lo()), SearchAxis.format(g.hi()), SearchAxis.format(g.step()), g.size()));
    }
    for (PlannedPoint p : skipped) {
      b.append("  skip ").append(p.resultFilename()).append(": ").append(p.note()).append('\n');
    }
    return b.toString();
  }
}
