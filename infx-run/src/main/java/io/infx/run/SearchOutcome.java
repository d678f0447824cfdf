package io.infx.run;

import io.infx.report.ReportFiles;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a search produced.
 *
 * @param options what was searched and how (the SLO, the axis, the settings)
 * @param plan the plan that was searched
 * @param configurations every configuration's search, in plan order
 * @param frontier the Pareto frontier of throughput per GPU against interactivity over every load
 *     that met the SLO, across configurations (in increasing interactivity)
 * @param layout the run directory (probes are its points: {@code points/}, {@code bmk/}, the
 *     collected {@code results_bmk/agg_bmk.json}, the store)
 * @param searchFile {@code search.json}
 * @param report the report files
 * @param server what served the probes, said plainly ({@code SIMULATED: …} for the simulator)
 */
public record SearchOutcome(SearchOptions options, SearchPlan plan, List<ConfigurationSearch> configurations, List<FrontierPoint> frontier,
    RunLayout layout, Path searchFile, Optional<ReportFiles> report, String server) {

  /**
   * A load on the SLO frontier.
   *
   * @param configuration the configuration's {@link SearchPlan.Configuration#id()}
   * @param label the report's name of the configuration
   * @param load the load (concurrency)
   * @param tputPerGpu throughput per GPU there, tok/s/GPU
   * @param interactivity interactivity there (at the median TPOT), tok/s/user
   * @param resultFilename the probe's point
   */
  public record FrontierPoint(String configuration, String label, double load, double tputPerGpu,
      double interactivity, String resultFilename) {}

  public SearchOutcome {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(plan, "plan");
    configurations = List.copyOf(configurations);
    frontier = List.copyOf(frontier);
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(searchFile, "searchFile");
    Objects.requireNonNull(report, "report");
    Objects.requireNonNull(server, "server");
  }

  /** 0 when every configuration was searched to a stop (whatever it found), 1 when one could not be. */
  public int exitCode() {
    return configurations.stream().anyMatch(c -> c.error().isPresent()) || configurations.isEmpty() ? 1 : 0;
  }
}
