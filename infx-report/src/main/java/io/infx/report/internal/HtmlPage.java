package io.infx.report.internal;

import io.infx.report.BenchmarkReport;
import io.infx.report.Latency;
import io.infx.report.Percentile;
import io.infx.report.ReportChart;
import io.infx.report.ReportPoint;
import io.infx.report.ReportProblem;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Renders a {@link BenchmarkReport} as one static HTML5 page: inline CSS, inline SVG, no script
 * and no external resource, so the page shows the same with or without network access. Chart
 * exports are linked relatively ({@code charts/<name>.svg|png}).
 */
public final class HtmlPage {

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private static final String CSS = """
      :root { color-scheme: light; }
      body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
             color: #222; background: #fff; margin: 0 auto; max-width: 1100px; padding: 24px; }
      h1 { font-size: 24px; margin: 0 0 4px; }
      h2 { font-size: 19px; margin: 32px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
      .meta { color: #555; margin: 0; }
      dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 12px 0; }
      dl.meta dt { font-weight: 600; }
      dl.meta dd { margin: 0; font-family: ui-monospace, "DejaVu Sans Mono", monospace; word-break: break-all; }
      nav ul { margin: 4px 0; padding-left: 20px; }
      figure.chart { margin: 16px 0 24px; }
      figure.chart svg { display: block; max-width: 100%; height: auto; border: 1px solid #eee; }
      figcaption { color: #555; font-size: 13px; margin-top: 4px; }
      table { border-collapse: collapse; width: 100%; font-size: 12.5px; }
      th, td { padding: 4px 6px; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
      th { background: #f6f6f6; position: sticky; top: 0; }
      td.text, th.text { text-align: left; white-space: normal; }
      .swatch { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 6px; }
      .problems li { margin: 4px 0; }
      .problems code { background: #f6f6f6; padding: 0 3px; }
      footer { color: #666; font-size: 12.5px; margin-top: 32px; border-top: 1px solid #ddd; padding-top: 8px; }
      """;

  private HtmlPage() {}

  public static String render(BenchmarkReport report) {
    StringBuilder h = new StringBuilder(64 * 1024);
    List<ReportPoint> points = report.points();
    long configs = points.stream().map(p -> p.workload() + "\n" + p.config()).distinct().count();
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<meta name=\"generator\" content=\"infx\">\n")
        .append("<title>").append(esc(report.title())).append("</title>\n")
        .append("<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");

    h.append("<header>\n<h1>").append(esc(report.title())).append("</h1>\n")
        .append("<p class=\"meta\">Generated ").append(TIME.format(report.generatedAt()))
        .append(" · ").append(points.size()).append(points.size() == 1 ? " point" : " points")
        .append(" · ").append(configs).append(configs == 1 ? " configuration" : " configurations");
    if (!report.problems().isEmpty()) {
      h.append(" · <a href=\"#problems\">").append(report.problems().size())
          .append(report.problems().size() == 1 ? " point without result" : " points without result")
          .append("</a>");
    }
    h.append("</p>\n");
    if (points.stream().anyMatch(p -> p.config().startsWith(RowReader.SIMULATED_MARK + " "))) {
      h.append("<p class=\"simulated\" style=\"background:#fff3cd;border:2px solid #b8860b;padding:0.5em;"
          + "font-weight:bold\">SIMULATED: series marked SIMULATED come from infx's embedded simulator "
          + "(server_engine infx-sim), not from an inference engine on the named hardware. Their "
          + "numbers are not measurements.</p>\n");
    }
    if (!report.metadata().isEmpty()) {
      h.append("<dl class=\"meta\">\n");
      report.metadata().forEach((k, v) ->
          h.append("<dt>").append(esc(k)).append("</dt><dd>").append(esc(v)).append("</dd>\n"));
      h.append("</dl>\n");
    }
    h.append("</header>\n");

    List<String> workloads = report.workloads();
    if (workloads.size() > 1) {
      h.append("<nav>\n<ul>\n");
      for (String w : workloads) {
        h.append("<li><a href=\"#").append(anchor(w)).append("\">").append(esc(w)).append("</a></li>\n");
      }
      h.append("<li><a href=\"#results\">Results table</a></li>\n</ul>\n</nav>\n");
    }

    report.search().ifPresent(sr -> search(h, sr, report));

    for (String w : workloads) {
      h.append("<section class=\"workload\" id=\"").append(anchor(w)).append("\">\n<h2>")
          .append(esc(w)).append("</h2>\n");
      for (ReportChart c : report.charts()) {
        if (!c.workload().equals(w)) {
          continue;
        }
        h.append("<figure class=\"chart\" data-chart=\"").append(esc(c.name())).append("\">\n")
            .append(c.svgElement()).append('\n')
            .append("<figcaption>").append(esc(c.title())).append(" · export: <a href=\"")
            .append(BenchmarkReport.CHARTS_DIR).append('/').append(esc(c.name())).append(".svg\">SVG</a> · <a href=\"")
            .append(BenchmarkReport.CHARTS_DIR).append('/').append(esc(c.name())).append(".png\">PNG</a>")
            .append("</figcaption>\n</figure>\n");
      }
      h.append("</section>\n");
    }
    if (points.isEmpty()) {
      h.append("<p><strong>No point produced a result</strong>; there is nothing to chart.</p>\n");
    }

    table(h, report);
    evals(h, report);
    problems(h, report.problems());

    h.append("<footer>\n<p>Throughput per GPU = total (input + output) token throughput / GPUs "
        + "(TP × PP × PCP on one node; reference <code>process_result.py</code>). Interactivity = "
        + "1000 / median TPOT in ms, i.e. tokens/s seen by one user at the median TPOT. "
        + "TTFT = time to first token, TPOT = time per output token after the first, E2EL = "
        + "end-to-end request latency; p50/p90/p99 are percentiles over the measured requests.</p>\n"
        + "<p>Made by infx. This page loads nothing from the network.</p>\n</footer>\n");
    h.append("</body>\n</html>\n");
    return h.toString();
  }

  private static void table(StringBuilder h, BenchmarkReport report) {
    h.append("<section id=\"results\">\n<h2>Results</h2>\n");
    if (report.points().isEmpty()) {
      h.append("<p>No results.</p>\n</section>\n");
      return;
    }
    h.append("<p class=\"note\">").append(esc(io.infx.results.Summary.STATISTICS_NOTE))
        .append(" The same statistics as <code>infx results summarize</code> and <code>compare</code>.</p>\n");
    h.append("<table class=\"results\">\n<thead><tr>")
        .append("<th class=\"text\">Workload</th><th class=\"text\">Configuration</th><th>Conc</th>")
        .append("<th>Tput/GPU<br>tok/s</th><th>Output tput/GPU<br>tok/s</th><th>Interactivity<br>tok/s/user</th>")
        .append("<th>TTFT p50<br>ms</th><th>TTFT p99<br>ms</th><th>TPOT p50<br>ms</th><th>TPOT p99<br>ms</th>")
        .append("<th>E2EL p50<br>s</th>")
        .append(report.evals().isEmpty() ? "" : "<th class=\"text\">Eval score</th>")
        .append("</tr></thead>\n<tbody>\n");
    Map<String, Integer> workloadOrder = new LinkedHashMap<>();
    Map<String, Integer> configOrder = new LinkedHashMap<>();
    for (ReportPoint p : report.points()) {
      workloadOrder.putIfAbsent(p.workload(), workloadOrder.size());
      configOrder.putIfAbsent(p.workload() + "\n" + p.config(), configOrder.size());
    }
    Map<String, Map<String, java.awt.Color>> colours = new LinkedHashMap<>();
    List<ReportPoint> sorted = new ArrayList<>(report.points());
    sorted.sort(Comparator.<ReportPoint>comparingInt(p -> workloadOrder.get(p.workload()))
        .thenComparingInt(p -> configOrder.get(p.workload() + "\n" + p.config()))
        .thenComparingInt(ReportPoint::conc));
    for (ReportPoint p : sorted) {
      java.awt.Color c = colours.computeIfAbsent(p.workload(), w -> Charts.colours(
          report.points().stream().filter(q -> q.workload().equals(w)).toList())).get(p.config());
      h.append("<tr><td class=\"text\">").append(esc(p.workload())).append("</td><td class=\"text\">")
          .append("<span class=\"swatch\" style=\"background:#")
          .append(String.format(Locale.ROOT, "%06x", c.getRGB() & 0xFFFFFF)).append("\"></span>")
          .append(esc(p.config())).append("</td><td>").append(p.conc()).append("</td>")
          .append(cell(p.tputPerGpu(), 1)).append(cell(p.outputTputPerGpu(), 1))
          .append(cell(p.interactivity(), 1))
          .append(ms(p.ttft(), Percentile.P50)).append(ms(p.ttft(), Percentile.P99))
          .append(ms(p.tpot(), Percentile.P50)).append(ms(p.tpot(), Percentile.P99));
      OptionalDouble e2el = p.e2el().get(Percentile.P50);
      h.append(e2el.isPresent() ? cell(e2el.getAsDouble() / 1000.0, 3) : "<td>–</td>");
      if (!report.evals().isEmpty()) {
        List<String> scores = new ArrayList<>();
        for (io.infx.report.ReportEval e : report.evals()) {
          if (e.workload().equals(p.workload()) && e.config().equals(p.config()) && e.conc() == p.conc()) {
            scores.add(e.task() + " " + score(e));
          }
        }
        h.append("<td class=\"text\">").append(scores.isEmpty() ? "–" : esc(String.join(", ", scores))).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</tbody>\n</table>\n</section>\n");
  }

  /** The SLO search: the SLO, one line per configuration, the notes (anomalies). */
  private static void search(StringBuilder h, io.infx.report.ReportSearch sr, BenchmarkReport report) {
    h.append("<section id=\"slo-search\">\n<h2>SLO search</h2>\n<p>SLO <code>").append(esc(sr.slo()))
        .append("</code>: per configuration the largest ").append(esc(sr.axis()))
        .append(" meeting every term, with the bracket [last pass, first fail] it rests on (<code>?</code>: an"
            + " undecided end). The frontier charts below show every load that met the SLO.</p>\n")
        .append("<table class=\"results search\">\n<thead><tr><th class=\"text\">Workload</th>"
            + "<th class=\"text\">Configuration</th><th>Best ").append(esc(sr.axis()))
        .append("</th><th>Tput/GPU<br>tok/s</th><th>Interactivity<br>tok/s/user</th><th>Bracket</th>"
            + "<th>Probes</th><th>Measurements</th><th class=\"text\">Verdict</th></tr></thead>\n<tbody>\n");
    for (io.infx.report.ReportSearch.Line l : sr.configurations()) {
      h.append("<tr><td class=\"text\">").append(esc(l.workload())).append("</td><td class=\"text\">")
          .append(esc(l.config())).append("</td>")
          .append(l.best().isPresent() ? cell(l.best().getAsDouble(), l.best().getAsDouble() == Math.rint(l.best().getAsDouble()) ? 0 : 2)
              : "<td>none</td>")
          .append(cell(l.tputPerGpu(), 1)).append(cell(l.interactivity(), 1))
          .append("<td>").append(esc(l.bracket())).append("</td><td>").append(l.probes()).append("</td><td>")
          .append(l.measurements()).append("</td><td class=\"text\">").append(esc(l.verdict())).append("</td></tr>\n");
    }
    h.append("</tbody>\n</table>\n");
    if (!sr.notes().isEmpty()) {
      h.append("<ul class=\"problems\">\n");
      sr.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>\n"));
      h.append("</ul>\n");
    }
    h.append("</section>\n");
  }

  /** Every eval score with the throughput of the configuration it guards (eval-only points too). */
  private static void evals(StringBuilder h, BenchmarkReport report) {
    if (report.evals().isEmpty()) {
      return;
    }
    h.append("<section id=\"evals\">\n<h2>Evals</h2>\n<p>Accuracy of each evaluated configuration "
        + "(lm-eval, as a percentage with its standard error) next to the throughput it guards: a speed-up "
        + "that breaks answers shows here.</p>\n<table class=\"results\">\n<thead><tr>"
        + "<th class=\"text\">Workload</th><th class=\"text\">Configuration</th><th>Conc</th>"
        + "<th class=\"text\">Task</th><th>Score</th><th>Tput/GPU<br>tok/s</th><th class=\"text\">Source</th>"
        + "</tr></thead>\n<tbody>\n");
    for (io.infx.report.ReportEval e : report.evals()) {
      h.append("<tr><td class=\"text\">").append(esc(e.workload())).append("</td><td class=\"text\">")
          .append(esc(e.config())).append("</td><td>").append(e.conc()).append("</td><td class=\"text\">")
          .append(esc(e.task())).append("</td><td>").append(esc(score(e))).append("</td>")
          .append(cell(e.tputPerGpu(), 1)).append("<td class=\"text\">").append(esc(e.source()))
          .append("</td></tr>\n");
    }
    h.append("</tbody>\n</table>\n</section>\n");
  }

  /** {@code 95.15% ±0.59%} (the collector's table form), {@code –} when there is no score. */
  private static String score(io.infx.report.ReportEval e) {
    if (e.score().isEmpty()) {
      return "–";
    }
    String s = String.format(Locale.ROOT, "%.2f%%", e.score().getAsDouble() * 100);
    return e.scoreSe().isPresent() ? s + String.format(Locale.ROOT, " ±%.2f%%", e.scoreSe().getAsDouble() * 100) : s;
  }

  private static void problems(StringBuilder h, List<ReportProblem> problems) {
    if (problems.isEmpty()) {
      return;
    }
    h.append("<section id=\"problems\" class=\"problems\">\n<h2>Points without result</h2>\n<ul>\n");
    for (ReportProblem p : problems) {
      h.append("<li><code>").append(esc(p.point())).append("</code>: ").append(esc(p.message()))
          .append("</li>\n");
    }
    h.append("</ul>\n</section>\n");
  }

  private static String ms(Latency l, Percentile p) {
    OptionalDouble v = l.get(p);
    if (v.isEmpty()) {
      return "<td>–</td>";
    }
    return cell(v.getAsDouble(), v.getAsDouble() < 10 ? 2 : 1);
  }

  private static String cell(OptionalDouble v, int decimals) {
    return v.isPresent() ? cell(v.getAsDouble(), decimals) : "<td>–</td>";
  }

  private static String cell(double v, int decimals) {
    return "<td>" + String.format(Locale.ROOT, "%,." + decimals + "f", v) + "</td>";
  }

  private static String anchor(String workload) {
    return "w-" + BenchmarkReport.slug(workload);
  }

  /** HTML text/attribute escaping. */
  static String esc(String s) {
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
