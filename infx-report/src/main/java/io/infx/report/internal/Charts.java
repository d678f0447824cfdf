package io.infx.report.internal;

import io.infx.report.Latency;
import io.infx.report.Percentile;
import io.infx.report.ReportPoint;
import io.infx.results.ParetoFrontier;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Builds the report's JFreeChart charts. One colour per serving configuration (consistent across a
 * workload's charts), one line style per percentile. No global JFreeChart state is touched.
 */
public final class Charts {

  /** Okabe–Ito colours (distinguishable with colour-vision deficiencies), then Tableau's. */
  public static final List<Color> PALETTE = List.of(
      new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
      new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0x8C564B),
      new Color(0x7F7F7F), new Color(0xBCBD22), new Color(0x17BECF), new Color(0x9467BD));

  /** Percentiles drawn in the latency charts, with their line styles. */
  public static final List<Percentile> LATENCY_PERCENTILES =
      List.of(Percentile.P50, Percentile.P90, Percentile.P99);

  private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
  private static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
  private static final Font TICK = new Font(Font.SANS_SERIF, Font.PLAIN, 11);
  private static final Font ITEM = new Font(Font.SANS_SERIF, Font.PLAIN, 10);
  private static final Color GRID = new Color(0xDDDDDD);
  private static final Color INK = new Color(0x222222);
  private static final Shape DOT = new Ellipse2D.Double(-4, -4, 8, 8);
  private static final Color FRONTIER_INK = new Color(0x555555);

  /** Series name of the Pareto frontier in the throughput-vs-interactivity chart. */
  public static final String FRONTIER = "Pareto frontier";

  private Charts() {}

  /** Colour of each configuration, in first-seen order. */
  public static Map<String, Color> colours(List<ReportPoint> points) {
    Map<String, Color> m = new LinkedHashMap<>();
    for (ReportPoint p : points) {
      m.computeIfAbsent(p.config(), c -> PALETTE.get(m.size() % PALETTE.size()));
    }
    return m;
  }

  /**
   * Throughput per GPU (y, tok/s/GPU) against interactivity (x, tok/s/user) — the InferenceX
   * dashboard's main view. Each configuration's points are joined in concurrency order and
   * labelled with their concurrency. Empty when no point publishes interactivity.
   */
  public static Optional<JFreeChart> throughputVsInteractivity(
      String title, List<ReportPoint> points, Map<String, Color> colours) {
    XYSeriesCollection data = new XYSeriesCollection();
    XYLineAndShapeRenderer renderer = renderer();
    List<List<Integer>> concs = new ArrayList<>();
    int s = 0;
    for (Map.Entry<String, List<ReportPoint>> e : byConfig(points).entrySet()) {
      XYSeries series = new XYSeries(e.getKey(), false, true);
      List<Integer> seriesConcs = new ArrayList<>();
      for (ReportPoint p : e.getValue()) {
        if (p.interactivity().isPresent()) {
          series.add(p.interactivity().getAsDouble(), p.tputPerGpu());
          seriesConcs.add(p.conc());
        }
      }
      if (series.isEmpty()) {
        continue;
      }
      data.addSeries(series);
      concs.add(seriesConcs);
      style(renderer, s++, colours.get(e.getKey()), solid());
    }
    if (data.getSeriesCount() == 0) {
      return Optional.empty();
    }
    // the Pareto frontier over every configuration of the workload (grey, dashed, unlabelled)
    List<ReportPoint> frontier = ParetoFrontier.of(
        points.stream().filter(p -> p.interactivity().isPresent()).toList(),
        p -> p.interactivity().getAsDouble(), ReportPoint::tputPerGpu);
    if (frontier.size() > 1) {
      XYSeries f = new XYSeries(FRONTIER, false, true);
      frontier.forEach(p -> f.add(p.interactivity().getAsDouble(), p.tputPerGpu()));
      data.addSeries(f);
      renderer.setSeriesPaint(s, FRONTIER_INK);
      renderer.setSeriesStroke(s, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
          new float[] {6f, 4f}, 0f));
      renderer.setSeriesShapesVisible(s, false);
      renderer.setSeriesItemLabelsVisible(s, false);
      s++;
    }
    renderer.setDefaultItemLabelGenerator((dataset, series, item) ->
        series < concs.size() ? "c" + concs.get(series).get(item) : null);
    renderer.setDefaultItemLabelsVisible(true);
    renderer.setDefaultItemLabelFont(ITEM);
    renderer.setDefaultItemLabelPaint(INK);
    renderer.setDefaultPositiveItemLabelPosition(
        new ItemLabelPosition(ItemLabelAnchor.OUTSIDE12, TextAnchor.BOTTOM_CENTER));
    NumberAxis x = numberAxis("Interactivity (tok/s/user, at median TPOT)");
    x.setAutoRangeIncludesZero(false);
    readableRange(x, points.stream().filter(p -> p.interactivity().isPresent())
        .mapToDouble(p -> p.interactivity().getAsDouble()).toArray());
    NumberAxis y = numberAxis("Throughput per GPU (tok/s/GPU)");
    XYPlot plot = new XYPlot(data, x, y, renderer);
    return Optional.of(chart(title, plot, true));
  }

  /**
   * Latency percentiles (y, ms) against concurrency (x, log₂ scale): one colour per configuration,
   * solid p50, dashed p90, dotted p99. Empty when no point publishes any of them.
   */
  public static Optional<JFreeChart> latencyVsConcurrency(String title, String metric,
      List<ReportPoint> points, Function<ReportPoint, Latency> latency, Map<String, Color> colours) {
    XYSeriesCollection data = new XYSeriesCollection();
    XYLineAndShapeRenderer renderer = renderer();
    List<Percentile> shown = new ArrayList<>();
    int s = 0;
    for (Map.Entry<String, List<ReportPoint>> e : byConfig(points).entrySet()) {
      for (Percentile pct : LATENCY_PERCENTILES) {
        XYSeries series = new XYSeries(e.getKey() + " " + pct.label(), false, true);
        e.getValue().stream().sorted(Comparator.comparingInt(ReportPoint::conc))
            .forEach(p -> latency.apply(p).get(pct).ifPresent(v -> series.add(p.conc(), v)));
        if (series.isEmpty()) {
          continue;
        }
        data.addSeries(series);
        style(renderer, s++, colours.get(e.getKey()), stroke(pct));
        if (!shown.contains(pct)) {
          shown.add(pct);
        }
      }
    }
    if (data.getSeriesCount() == 0) {
      return Optional.empty();
    }
    LogAxis x = concurrencyAxis(points);
    NumberAxis y = numberAxis(metric + " (ms)");
    XYPlot plot = new XYPlot(data, x, y, renderer);
    LegendItemCollection legend = new LegendItemCollection();
    for (Map.Entry<String, List<ReportPoint>> e : byConfig(points).entrySet()) {
      Color c = colours.get(e.getKey());
      legend.add(legendItem(e.getKey(), c, solid(), true));
    }
    for (Percentile pct : LATENCY_PERCENTILES) {
      if (shown.contains(pct)) {
        legend.add(legendItem(pct.label(), INK, stroke(pct), false));
      }
    }
    plot.setFixedLegendItems(legend);
    return Optional.of(chart(title, plot, true));
  }

  private static Map<String, List<ReportPoint>> byConfig(List<ReportPoint> points) {
    Map<String, List<ReportPoint>> m = new LinkedHashMap<>();
    for (ReportPoint p : points) {
      m.computeIfAbsent(p.config(), c -> new ArrayList<>()).add(p);
    }
    m.values().forEach(l -> l.sort(Comparator.comparingInt(ReportPoint::conc)));
    return m;
  }

  private static XYLineAndShapeRenderer renderer() {
    XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
    r.setDrawSeriesLineAsPath(true);
    return r;
  }

  private static void style(XYLineAndShapeRenderer r, int series, Color colour, Stroke stroke) {
    r.setSeriesPaint(series, colour);
    r.setSeriesStroke(series, stroke);
    r.setSeriesShape(series, DOT);
    r.setSeriesShapesFilled(series, true);
  }

  private static Stroke solid() {
    return new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
  }

  private static Stroke stroke(Percentile p) {
    return switch (p) {
      case P90 -> new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
          new float[] {8f, 5f}, 0f);
      case P99 -> new BasicStroke(2.0f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f,
          new float[] {1f, 5f}, 0f);
      default -> solid();
    };
  }

  private static LegendItem legendItem(String label, Color colour, Stroke stroke, boolean shape) {
    Shape line = new Line2D.Double(-12, 0, 12, 0);
    return new LegendItem(label, null, null, null, shape, DOT, true, colour, false, colour,
        stroke, true, line, stroke, colour);
  }

  private static NumberAxis numberAxis(String label) {
    NumberAxis a = new NumberAxis(label);
    a.setAutoRangeIncludesZero(true);
    a.setLabelFont(LABEL);
    a.setTickLabelFont(TICK);
    a.setLabelPaint(INK);
    a.setTickLabelPaint(INK);
    a.setNumberFormatOverride(new DecimalFormat("#,##0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)));
    return a;
  }

  /**
   * A data range narrower than a fifth of its magnitude (one point per series, the normal case
   * for one-concurrency tests) would be stretched over a few units of the last digit, every tick
   * printing the same number: widen it to ±20 % around the data (at least ±1).
   */
  static void readableRange(NumberAxis axis, double[] values) {
    double min = java.util.Arrays.stream(values).min().orElse(Double.NaN);
    double max = java.util.Arrays.stream(values).max().orElse(Double.NaN);
    if (!Double.isFinite(min) || !Double.isFinite(max)) {
      return;
    }
    double mid = (min + max) / 2;
    double half = Math.max(Math.abs(mid) * 0.2, 1.0);
    if (max - min < 2 * half) {
      axis.setAutoRange(false);
      axis.setRange(min >= 0 ? Math.max(0, mid - half) : mid - half, mid + half);
    }
  }

  private static LogAxis concurrencyAxis(List<ReportPoint> points) {
    int min = points.stream().mapToInt(ReportPoint::conc).min().orElse(1);
    int max = points.stream().mapToInt(ReportPoint::conc).max().orElse(1);
    LogAxis a = new LogAxis("Concurrency");
    a.setBase(2);
    a.setSmallestValue(0.25);
    a.setTickUnit(new NumberTickUnit(1.0));
    a.setNumberFormatOverride(new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT)));
    a.setRange(min / 1.4, max * 1.4);
    a.setLabelFont(LABEL);
    a.setTickLabelFont(TICK);
    a.setLabelPaint(INK);
    a.setTickLabelPaint(INK);
    return a;
  }

  private static JFreeChart chart(String title, XYPlot plot, boolean legend) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setOutlinePaint(GRID);
    plot.setDomainGridlinePaint(GRID);
    plot.setRangeGridlinePaint(GRID);
    plot.setDomainGridlineStroke(new BasicStroke(1f));
    plot.setRangeGridlineStroke(new BasicStroke(1f));
    plot.setAxisOffset(new RectangleInsets(4, 4, 4, 4));
    JFreeChart chart = new JFreeChart(title, TITLE, plot, legend);
    chart.setBackgroundPaint(Color.WHITE);
    chart.setAntiAlias(true);
    chart.setTextAntiAlias(true);
    TextTitle t = chart.getTitle();
    t.setPaint(INK);
    t.setPadding(new RectangleInsets(8, 8, 4, 8));
    LegendTitle l = chart.getLegend();
    if (l != null) {
      l.setItemFont(LABEL);
      l.setItemPaint(INK);
      l.setFrame(new org.jfree.chart.block.BlockBorder(Color.WHITE));
      l.setBackgroundPaint(Color.WHITE);
      l.setPosition(RectangleEdge.BOTTOM);
    }
    return chart;
  }
}
