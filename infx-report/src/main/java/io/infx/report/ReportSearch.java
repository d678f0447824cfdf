package io.infx.report;

import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * An SLO search to show in a report ({@code infx search}): the SLO, one line per configuration, and
 * every load that met the SLO — the report draws their throughput per GPU against interactivity per
 * workload with the Pareto frontier across configurations (what a buyer can reach under the SLO).
 *
 * @param slo the SLO as written, e.g. {@code ttft.p99<=2000ms,tpot.p50<=50ms}
 * @param axis what was searched, e.g. {@code conc}
 * @param configurations one line per configuration, in search order
 * @param passing every load that met the SLO (report points of the probes that passed)
 * @param notes lines said under the table (anomalies, undecided loads), in order
 */
public record ReportSearch(String slo, String axis, List<Line> configurations, List<ReportPoint> passing,
    List<String> notes) {

  /**
   * One configuration's search.
   *
   * @param workload the workload of its points
   * @param config its configuration label (the series name of its points)
   * @param best the largest load that met the SLO, if any
   * @param tputPerGpu throughput per GPU there, tok/s/GPU
   * @param interactivity interactivity there, tok/s/user
   * @param bracket {@code [last pass, first fail]} as text ({@code ?} marks an undecided end)
   * @param probes loads measured
   * @param measurements measurements taken (repetitions included)
   * @param verdict how the search ended and what it saw, e.g. {@code converged; cliff}
   */
  public record Line(String workload, String config, OptionalDouble best, OptionalDouble tputPerGpu,
      OptionalDouble interactivity, String bracket, int probes, int measurements, String verdict) {
    public Line {
      Objects.requireNonNull(workload, "workload");
      Objects.requireNonNull(config, "config");
      Objects.requireNonNull(best, "best");
      Objects.requireNonNull(tputPerGpu, "tputPerGpu");
      Objects.requireNonNull(interactivity, "interactivity");
      Objects.requireNonNull(bracket, "bracket");
      Objects.requireNonNull(verdict, "verdict");
    }
  }

  public ReportSearch {
    Objects.requireNonNull(slo, "slo");
    Objects.requireNonNull(axis, "axis");
    configurations = List.copyOf(configurations);
    passing = List.copyOf(passing);
    notes = List.copyOf(notes);
  }
}
