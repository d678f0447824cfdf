package io.infx.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.infx.core.json.Json;
import io.infx.report.BenchmarkReport;
import io.infx.report.ReportFiles;
import io.infx.report.ReportPoint;
import io.infx.report.ReportPoints;
import io.infx.report.ReportSearch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report of a search: every probe as a point (charts and table as {@code infx run} draws them),
 * the search's table, notes and, per workload, the frontier of the loads that met the SLO.
 */
final class SearchReport {

  private SearchReport() {}

  static ReportFiles write(SearchOptions options, SearchPlan plan, List<ConfigurationSearch> results,
      List<SearchOutcome.FrontierPoint> frontier, ReportPoints collected, String server, RunLayout layout) {
    List<ReportSearch.Line> lines = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    ArrayNode passingRows = Json.mapper().createArrayNode();
    for (ConfigurationSearch r : results) {
      lines.add(new ReportSearch.Line(r.workload(), r.label(), r.best(), r.tputPerGpu(), r.interactivity(),
          r.bracket(), r.probesUsed(), r.trace().map(BoundarySearch.Trace::measurements).orElse(0), r.verdict()));
      r.trace().ifPresent(t -> t.anomalies().forEach(a -> notes.add(r.label() + ": " + a.message())));
      for (BoundarySearch.Probe p : r.trace().map(BoundarySearch.Trace::probes).orElse(List.of())) {
        Path agg = layout.artifactAggregate(p.measurement().point(), false);
        if (p.passed() && !p.measurement().point().isEmpty() && Files.isRegularFile(agg)) {
          passingRows.add(read(agg));
        }
      }
    }
    // the passing probes among the collected points keep their labels (same rows, same labelling)
    List<ReportPoint> passing = new ArrayList<>();
    List<ReportPoint> fromPassing = ReportPoints.fromAggregates(passingRows).points();
    for (ReportPoint p : fromPassing) {
      collected.points().stream()
          .filter(q -> q.workload().equals(p.workload()) && q.conc() == p.conc() && q.tputPerGpu() == p.tputPerGpu())
          .findFirst().ifPresentOrElse(passing::add, () -> passing.add(p));
    }
    String frontierText = frontier.isEmpty() ? "no load met the SLO"
        : String.join("; ", frontier.stream().map(f -> String.format(Locale.ROOT, "%s at %s %s (%.1f tok/s/GPU, %.1f tok/s/user)",
            f.label(), options.axis().label(), SearchAxis.format(f.load()), f.tputPerGpu(), f.interactivity())).toList());
    BenchmarkReport report = BenchmarkReport.builder()
        .title(options.run().title().orElse("infx search: " + options.run().configFiles().get(0).getFileName()
            + " under " + options.slo()))
        .points(collected.points())
        .problems(collected.skipped())
        .search(new ReportSearch(options.slo().toString(), options.axis().label(), lines, passing, notes))
        .metadata("configs", String.join(", ", options.run().configFiles().stream().map(Path::toString).toList()))
        .metadata("slo", options.slo().toString())
        .metadata("search", options.settings().strategy().name().toLowerCase(Locale.ROOT) + ", at most "
            + options.settings().maxProbes() + " probes per configuration, " + options.settings().maxRepeats()
            + " measurements per load, noise band ±" + Math.round(options.settings().noiseBand() * 100) + " %")
        .metadata("adapter", plan.adapter())
        .metadata("server", server)
        .metadata("frontier", frontierText)
        .metadata("search file", layout.dir().resolve(SloSearch.SEARCH_FILE).toString())
        .metadata("aggregates", layout.collectedFile().toString())
        .build();
    return report.writeTo(layout.dir());
  }

  private static JsonNode read(Path f) {
    try {
      return Json.mapper().readTree(Files.readAllBytes(f));
    } catch (IOException e) {
      throw new io.infx.core.InfxException(io.infx.core.ErrorKind.FILE, "cannot read " + f + ": " + e.getMessage(), e);
    }
  }
}
