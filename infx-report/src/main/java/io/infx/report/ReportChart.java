package io.infx.report;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.awt.Rectangle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

/**
 * One chart of a report: a JFreeChart drawn to SVG by JFreeSVG (inline in the HTML and exported
 * as {@code <name>.svg}) and to PNG by {@link ChartUtils} (exported as {@code <name>.png}).
 *
 * @param workload the workload whose points the chart shows (see {@link ReportPoint#workload()})
 * @param name file-name stem, unique within the report, e.g.
 *     {@code dsr1-1k-1k-throughput-vs-interactivity}
 * @param title what the chart shows
 * @param chart the chart itself (e.g. to restyle it before writing)
 * @param width drawing width in px (PNG exports are drawn at twice the size)
 * @param height drawing height in px
 */
public record ReportChart(String workload, String name, String title, JFreeChart chart, int width, int height) {

  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]*");

  public ReportChart {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(chart, "chart");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("chart name must be a lower-case file-name stem, got '" + name + "'");
    }
    if (width < 100 || height < 100) {
      throw new IllegalArgumentException("chart size must be at least 100×100 px, got " + width + "×" + height);
    }
  }

  /**
   * The chart as one {@code <svg>} element (with {@code id} = {@link #name()}, a view box, and
   * definition ids prefixed by the name so that several charts can share one HTML page).
   */
  public String svgElement() {
    SVGGraphics2D g2 = new SVGGraphics2D(width, height);
    g2.setDefsKeyPrefix(name + "-");
    chart.draw(g2, new Rectangle(0, 0, width, height));
    return g2.getSVGElement(name, true, new ViewBox(0, 0, width, height), null, null);
  }

  /** A standalone SVG document (XML declaration + {@link #svgElement()}). */
  public String svgDocument() {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svgElement() + "\n";
  }

  /**
   * The chart as PNG bytes, drawn at twice its size for high-density screens.
   *
   * @throws InfxException kind {@code report} when the image cannot be encoded
   */
  public byte[] png() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ChartUtils.writeScaledChartAsPNG(out, chart, width, height, 2, 2);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.REPORT, "cannot draw chart " + name + " as PNG: " + e.getMessage(), e);
    }
    return out.toByteArray();
  }
}
