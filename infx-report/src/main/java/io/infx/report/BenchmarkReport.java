package io.infx.report;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.io.AtomicFiles;
import io.infx.report.internal.Charts;
import io.infx.report.internal.HtmlPage;
import java.awt.Color;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A benchmark report: one self-contained static HTML page (inline CSS and SVG, no script, no
 * network access needed to view it) with, per workload (model × ISL/OSL, or AgentX),
 * <ul>
 *   <li>throughput per GPU (tok/s/GPU) against interactivity (tok/s/user at the median TPOT), one
 *       line per serving configuration, points labelled with their concurrency;</li>
 *   <li>TTFT p50/p90/p99 (ms) against concurrency;</li>
 *   <li>TPOT p50/p90/p99 (ms) against concurrency;</li>
 * </ul>
 * then a table of every point and the points that produced no result. {@link #writeTo(Path)} also
 * exports every chart as SVG and PNG.
 *
 * <pre>{@code
 * BenchmarkReport report = BenchmarkReport.builder()
 *     .title("quickstart")
 *     .points(ReportPoints.read(Path.of("out/results_bmk/agg_bmk.json")).points())
 *     .metadata("config", "examples/configs/quickstart.yaml")
 *     .build();
 * report.writeTo(Path.of("out"));   // out/report.html, out/charts/*.svg, out/charts/*.png
 * }</pre>
 *
 * <p>Charts are built once, when the report is built; {@link #charts()} exposes them (JFreeChart
 * objects are mutable: restyle them before writing if you wish).
 */
public final class BenchmarkReport {

  /** File name of the HTML page inside the report directory. */
  /**
   * Most points one report draws (5,000): every point is an SVG/PNG mark and an HTML table row,
   * and 20,000 rows took minutes and gigabytes; a bigger input is refused with its size.
   */
  public static final int MAX_POINTS = 5_000;

  public static final String HTML_FILE = "report.html";

  /** Sub-directory of the report directory holding the chart exports. */
  public static final String CHARTS_DIR = "charts";

  private final String title;
  private final List<ReportPoint> points;
  private final List<ReportProblem> problems;
  private final Map<String, String> metadata;
  private final Instant generatedAt;
  private final List<ReportChart> charts;
  private final List<ReportEval> evals;
  private final java.util.Optional<ReportSearch> search;

  private BenchmarkReport(Builder b) {
    this.search = java.util.Optional.ofNullable(b.search);
    this.evals = List.copyOf(b.evals);
    this.title = b.title;
    this.points = List.copyOf(b.points);
    this.problems = List.copyOf(b.problems);
    this.metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(b.metadata));
    this.generatedAt = b.generatedAt == null ? Instant.now() : b.generatedAt;
    if (points.size() > MAX_POINTS) {
      throw new InfxException(ErrorKind.TOO_BIG, "a report draws at most " + MAX_POINTS + " points, this one has "
          + points.size() + " (filter the aggregates, or tabulate them with"
          + " `infx results summarize --format csv`)");
    }
    List<ReportChart> built = new ArrayList<>(buildCharts(points, b.chartWidth, b.chartHeight));
    search.ifPresent(sr -> built.addAll(searchCharts(sr, points, b.chartWidth, b.chartHeight)));
    this.charts = List.copyOf(built);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * A report of a collected aggregate file ({@code agg_bmk.json} or one {@code agg_*.json});
   * rows that cannot be plotted are listed as problems.
   *
   * @throws InfxException kind {@code file} when the file is missing or not JSON
   */
  public static BenchmarkReport of(Path aggregates, String title) {
    ReportPoints read = ReportPoints.read(aggregates);
    return builder().title(title).points(read.points()).problems(read.skipped())
        .metadata("aggregates", aggregates.toString()).build();
  }

  public String title() {
    return title;
  }

  public List<ReportPoint> points() {
    return points;
  }

  /** Eval scores, each next to the throughput it guards (an "Eval" column and an "Evals" section). */
  public List<ReportEval> evals() {
    return evals;
  }

  public List<ReportProblem> problems() {
    return problems;
  }

  /** The SLO search the report shows, if it is a search's report ({@code infx search}). */
  public java.util.Optional<ReportSearch> search() {
    return search;
  }

  public Map<String, String> metadata() {
    return metadata;
  }

  public Instant generatedAt() {
    return generatedAt;
  }

  /** Workloads in first-seen order (one section of charts each). */
  public List<String> workloads() {
    return points.stream().map(ReportPoint::workload).distinct().toList();
  }

  /** Every chart, in page order. */
  public List<ReportChart> charts() {
    return charts;
  }

  /** The whole page as HTML text. */
  public String html() {
    return HtmlPage.render(this);
  }

  /**
   * Writes {@code dir/report.html} and {@code dir/charts/<chart>.svg|.png}, each atomically (the
   * page last, so a page on disk never links to charts that are not there).
   *
   * @throws InfxException kind {@code file} when a file cannot be written
   */
  public ReportFiles writeTo(Path dir) {
    List<Path> svg = new ArrayList<>();
    List<Path> png = new ArrayList<>();
    Path chartsDir = dir.resolve(CHARTS_DIR);
    for (ReportChart c : charts) {
      Path s = chartsDir.resolve(c.name() + ".svg");
      AtomicFiles.writeString(s, c.svgDocument());
      svg.add(s);
      Path p = chartsDir.resolve(c.name() + ".png");
      AtomicFiles.write(p, c.png());
      png.add(p);
    }
    Path html = dir.resolve(HTML_FILE);
    AtomicFiles.writeString(html, html());
    return new ReportFiles(html, svg, png);
  }

  private static List<ReportChart> buildCharts(List<ReportPoint> points, int w, int h) {
    List<ReportChart> out = new ArrayList<>();
    Map<String, List<ReportPoint>> byWorkload = new LinkedHashMap<>();
    points.forEach(p -> byWorkload.computeIfAbsent(p.workload(), k -> new ArrayList<>()).add(p));
    List<String> stems = new ArrayList<>();
    for (Map.Entry<String, List<ReportPoint>> e : byWorkload.entrySet()) {
      String workload = e.getKey();
      List<ReportPoint> pts = e.getValue();
      Map<String, Color> colours = Charts.colours(pts);
      String stem = uniqueStem(slug(workload), stems);
      Charts.throughputVsInteractivity(workload + ": throughput per GPU vs interactivity", pts, colours)
          .ifPresent(c -> out.add(new ReportChart(workload, stem + "-throughput-vs-interactivity",
              "Throughput per GPU vs interactivity", c, w, h)));
      Charts.latencyVsConcurrency(workload + ": TTFT vs concurrency", "TTFT", pts,
          ReportPoint::ttft, colours)
          .ifPresent(c -> out.add(new ReportChart(workload, stem + "-ttft-vs-concurrency",
              "TTFT percentiles vs concurrency", c, w, h)));
      Charts.latencyVsConcurrency(workload + ": TPOT vs concurrency", "TPOT", pts,
          ReportPoint::tpot, colours)
          .ifPresent(c -> out.add(new ReportChart(workload, stem + "-tpot-vs-concurrency",
              "TPOT percentiles vs concurrency", c, w, h)));
    }
    return List.copyOf(out);
  }

  /**
   * Per workload, the loads that met the search's SLO: throughput per GPU against interactivity, one
   * line per configuration, the Pareto frontier across them (colours as in the workload's other charts).
   */
  private static List<ReportChart> searchCharts(ReportSearch search, List<ReportPoint> all, int w, int h) {
    List<ReportChart> out = new ArrayList<>();
    Map<String, List<ReportPoint>> byWorkload = new LinkedHashMap<>();
    search.passing().forEach(p -> byWorkload.computeIfAbsent(p.workload(), k -> new ArrayList<>()).add(p));
    List<String> stems = new ArrayList<>();
    for (Map.Entry<String, List<ReportPoint>> e : byWorkload.entrySet()) {
      String workload = e.getKey();
      List<ReportPoint> workloadPoints = all.stream().filter(p -> p.workload().equals(workload)).toList();
      Map<String, Color> colours = Charts.colours(workloadPoints.isEmpty() ? e.getValue() : workloadPoints);
      e.getValue().forEach(p -> colours.computeIfAbsent(p.config(), c -> Color.GRAY));
      String stem = uniqueStem(slug(workload), stems);
      Charts.throughputVsInteractivity(workload + ": loads meeting " + search.slo(), e.getValue(), colours)
          .ifPresent(c -> out.add(new ReportChart(workload, stem + "-slo-frontier",
              "Loads meeting the SLO: throughput per GPU vs interactivity, Pareto frontier across configurations",
              c, w, h)));
    }
    return out;
  }

  /** The chart-name stem of a workload ({@code dsr1 · 1k/1k} → {@code dsr1-1k-1k}). */
  public static String slug(String text) {
    String s = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.]+", "-").replaceAll("^[-.]+|-+$", "");
    return s.isEmpty() ? "workload" : s;
  }

  private static String uniqueStem(String stem, List<String> used) {
    String s = stem;
    for (int n = 2; used.contains(s); n++) {
      s = stem + "-" + n;
    }
    used.add(s);
    return s;
  }

  /** Builds a {@link BenchmarkReport}; every setting is optional (an empty report is valid). */
  public static final class Builder {
    private String title = "infx benchmark report";
    private final List<ReportPoint> points = new ArrayList<>();
    private final List<ReportProblem> problems = new ArrayList<>();
    private final List<ReportEval> evals = new ArrayList<>();
    private final Map<String, String> metadata = new LinkedHashMap<>();
    private Instant generatedAt;
    private int chartWidth = 960;
    private int chartHeight = 540;
    private ReportSearch search;

    private Builder() {}

    /** An SLO search to show: its table, its notes and a frontier chart per workload. */
    public Builder search(ReportSearch search) {
      this.search = Objects.requireNonNull(search, "search");
      return this;
    }

    public Builder title(String title) {
      this.title = Objects.requireNonNull(title, "title");
      return this;
    }

    public Builder points(Collection<ReportPoint> points) {
      points.forEach(this::point);
      return this;
    }

    public Builder point(ReportPoint point) {
      points.add(Objects.requireNonNull(point, "point"));
      return this;
    }

    /** Eval scores to show (see {@link ReportEvals#match}). */
    public Builder evals(Collection<ReportEval> evals) {
      evals.forEach(e -> this.evals.add(Objects.requireNonNull(e, "eval")));
      return this;
    }

    public Builder problems(Collection<ReportProblem> problems) {
      problems.forEach(this::problem);
      return this;
    }

    public Builder problem(ReportProblem problem) {
      problems.add(Objects.requireNonNull(problem, "problem"));
      return this;
    }

    /** A line of the report header, e.g. {@code ("config", "quickstart.yaml")}; order kept. */
    public Builder metadata(String key, String value) {
      metadata.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Time shown as "generated at" (default: when the report is built). */
    public Builder generatedAt(Instant at) {
      this.generatedAt = Objects.requireNonNull(at, "at");
      return this;
    }

    /** Size of every chart in CSS px (default 960 × 540). */
    public Builder chartSize(int width, int height) {
      if (width < 100 || height < 100) {
        throw new IllegalArgumentException("chart size must be at least 100×100 px, got " + width + "×" + height);
      }
      this.chartWidth = width;
      this.chartHeight = height;
      return this;
    }

    public BenchmarkReport build() {
      return new BenchmarkReport(this);
    }
  }
}
