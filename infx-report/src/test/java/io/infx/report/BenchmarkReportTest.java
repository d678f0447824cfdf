package io.infx.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.report.internal.Charts;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class BenchmarkReportTest {

  private static final Pattern EXTERNAL =
      Pattern.compile("(?i)(src|href)\\s*=\\s*[\"']?\\s*(https?:|//|ftp:)|url\\(\\s*[\"']?(https?:|//)|@import|<script|<link|<iframe");

  private static BenchmarkReport sweepReport() {
    return BenchmarkReport.builder()
        .title("sweep <test> & co")
        .points(ReportPoints.fromAggregates(SampleRows.sweep()).points())
        .problem(new ReportProblem("dsr1_1k1k_conc16", "server exited with status 1 before ready"))
        .metadata("config", "examples/configs/quickstart.yaml")
        .generatedAt(Instant.parse("2026-11-30T12:00:00Z"))
        .build();
  }

  @Test
  void oneWorkloadGivesThreeChartsWhoseDataAreThePoints() {
    BenchmarkReport report = sweepReport();

    assertThat(report.charts()).extracting(ReportChart::name).containsExactly(
        "dsr1-1k-1k-throughput-vs-interactivity", "dsr1-1k-1k-ttft-vs-concurrency",
        "dsr1-1k-1k-tpot-vs-concurrency");

    // Throughput chart: one series per configuration; x = interactivity, y = tput/GPU, conc order.
    XYDataset tput = ((XYPlot) report.charts().get(0).chart().getPlot()).getDataset();
    assertThat(tput.getSeriesCount()).as("two configurations and the Pareto frontier").isEqualTo(3);
    assertThat(tput.getSeriesKey(0)).isEqualTo("h200 sglang fp8 TP1");
    assertThat(tput.getSeriesKey(2)).isEqualTo(Charts.FRONTIER);
    // the frontier's points are points of the configurations, none beaten on both axes by another
    for (int i = 0; i < tput.getItemCount(2); i++) {
      double fx = tput.getXValue(2, i);
      double fy = tput.getYValue(2, i);
      for (int series = 0; series < 2; series++) {
        for (int j = 0; j < tput.getItemCount(series); j++) {
          double x = tput.getXValue(series, j);
          double y = tput.getYValue(series, j);
          assertThat(x >= fx && y >= fy && (x > fx || y > fy)).as("(%s, %s) dominates frontier point (%s, %s)", x, y, fx, fy)
              .isFalse();
        }
      }
    }
    assertThat(tput.getItemCount(0)).isEqualTo(4);
    double tpotConc4 = 0.002 + 0.0004 * 4;                       // SampleRows' model, TP1 conc 4
    assertThat(tput.getXValue(0, 2)).isCloseTo(1 / tpotConc4, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(tput.getYValue(0, 2)).isCloseTo(4 * 2 / tpotConc4, org.assertj.core.data.Offset.offset(1e-6));

    // TTFT chart: p50/p90/p99 per configuration, in ms against concurrency.
    XYDataset ttft = ((XYPlot) report.charts().get(1).chart().getPlot()).getDataset();
    assertThat(ttft.getSeriesCount()).isEqualTo(6);
    assertThat(ttft.getSeriesKey(1)).isEqualTo("h200 sglang fp8 TP1 p90");
    assertThat(ttft.getXValue(1, 3)).isEqualTo(8.0);
    assertThat(ttft.getYValue(1, 3)).isCloseTo((0.010 + 0.004 * 8) * 1.5 * 1000, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aSinglePointSeriesGetsAReadableAxis() {
    // one concurrency: one point per series; the x axis must span a readable range around it
    List<ReportPoint> one = ReportPoints.fromAggregates(SampleRows.sweep()).points().stream()
        .filter(p -> p.conc() == 4 && p.config().equals("h200 sglang fp8 TP1")).toList();
    assertThat(one).hasSize(1);
    BenchmarkReport report = BenchmarkReport.builder().title("one").points(one).build();
    XYPlot plot = (XYPlot) report.charts().get(0).chart().getPlot();
    double x = plot.getDataset().getXValue(0, 0);
    org.jfree.data.Range r = plot.getDomainAxis().getRange();
    assertThat(r.contains(x)).isTrue();
    assertThat(r.getLength()).as("range around %s", x).isGreaterThanOrEqualTo(0.39 * x);
    assertThat(plot.getDataset().getSeriesCount()).as("no frontier of one point").isEqualTo(1);
  }

  @Test
  void pageIsSelfContainedAndEscapesText() {
    String html = sweepReport().html();

    assertThat(html).startsWith("<!DOCTYPE html>");
    assertThat(EXTERNAL.matcher(html).find()).as("external resource or script in the page").isFalse();
    assertThat(html).contains("<title>sweep &lt;test&gt; &amp; co</title>");
    assertThat(html).doesNotContain("sweep <test>");
    assertThat(Pattern.compile("<svg ").matcher(html).results().count()).isEqualTo(3);
    assertThat(html).contains("href=\"charts/dsr1-1k-1k-ttft-vs-concurrency.png\"");
    // table: one row per point, and the failed point is explained
    assertThat(Pattern.compile("<tr><td class=\"text\">").matcher(html).results().count()).isEqualTo(8);
    assertThat(html).contains("dsr1_1k1k_conc16").contains("server exited with status 1 before ready");
    assertThat(html).contains("Generated 2026-11-30 12:00:00 UTC · 8 points · 2 configurations");
  }

  @Test
  void chartIdsDoNotCollideBetweenCharts() {
    String html = sweepReport().html();
    List<String> ids = Pattern.compile("\\bid=\"([^\"]+)\"").matcher(html).results()
        .map(m -> m.group(1)).toList();
    assertThat(ids).doesNotHaveDuplicates().isNotEmpty();
  }

  @Test
  void writesTheHtmlAndValidSvgAndPngExports(@TempDir Path dir) throws Exception {
    BenchmarkReport report = sweepReport();

    ReportFiles files = report.writeTo(dir);

    assertThat(files.html()).isEqualTo(dir.resolve("report.html")).exists();
    assertThat(Files.readString(files.html())).isEqualTo(report.html());
    assertThat(files.svg()).hasSize(3);
    assertThat(files.png()).hasSize(3);
    for (Path svg : files.svg()) {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      Document doc = f.newDocumentBuilder().parse(svg.toFile());
      assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
      assertThat(doc.getDocumentElement().getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
    }
    for (Path png : files.png()) {
      BufferedImage img = ImageIO.read(new ByteArrayInputStream(Files.readAllBytes(png)));
      assertThat(img.getWidth()).isEqualTo(2 * 960);
      assertThat(img.getHeight()).isEqualTo(2 * 540);
      // Both configurations' colours were painted.
      assertThat(pixelsNear(img, Charts.PALETTE.get(0))).isGreaterThan(200);
      assertThat(pixelsNear(img, Charts.PALETTE.get(1))).isGreaterThan(200);
    }
    try (var s = Files.list(dir)) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("report.html", "charts");
    }
    try (var s = Files.list(dir.resolve("charts"))) {
      assertThat(s.filter(p -> p.getFileName().toString().endsWith(".tmp"))).isEmpty();
    }
  }

  @Test
  void emptyReportIsStillAPage() {
    BenchmarkReport report = BenchmarkReport.builder().title("nothing")
        .problem(new ReportProblem("p", "failed")).build();
    assertThat(report.charts()).isEmpty();
    assertThat(report.html()).contains("No point produced a result").contains("failed")
        .endsWith("</html>\n");
  }

  @Test
  void workloadsGetTheirOwnCharts() {
    var rows = SampleRows.sweep();
    var eightK = SampleRows.fixed("b200", "vllm", 4, 8, 900, 0.2, 0.01);
    eightK.put("isl", 8192);
    rows.add(eightK);
    BenchmarkReport report = BenchmarkReport.builder()
        .points(ReportPoints.fromAggregates(rows).points()).build();
    assertThat(report.workloads()).containsExactly("dsr1 · 1k/1k", "dsr1 · 8k/1k");
    assertThat(report.charts()).extracting(ReportChart::name).contains(
        "dsr1-8k-1k-throughput-vs-interactivity", "dsr1-8k-1k-tpot-vs-concurrency");
    assertThat(report.charts()).hasSize(6);
  }

  static long pixelsNear(BufferedImage img, Color c) {
    long n = 0;
    for (int y = 0; y < img.getHeight(); y++) {
      for (int x = 0; x < img.getWidth(); x++) {
        int rgb = img.getRGB(x, y);
        if (Math.abs(((rgb >> 16) & 0xFF) - c.getRed()) <= 8
            && Math.abs(((rgb >> 8) & 0xFF) - c.getGreen()) <= 8
            && Math.abs((rgb & 0xFF) - c.getBlue()) <= 8) {
          n++;
        }
      }
    }
    return n;
  }
}
