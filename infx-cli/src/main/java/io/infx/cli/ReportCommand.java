package io.infx.cli;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.report.BenchmarkReport;
import io.infx.report.ReportFiles;
import io.infx.report.ReportPoints;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code infx report}: the HTML report of any aggregate file — an {@code infx run} output, or a
 * {@code results_bmk/agg_bmk.json} downloaded from InferenceX CI.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
        "Write a self-contained HTML report (throughput per GPU vs interactivity, TTFT and TPOT "
            + "percentiles vs concurrency, a table) of aggregate rows, plus every chart as SVG and PNG.",
        "Input: a collected agg_bmk.json, one agg_<RESULT_FILENAME>.json, or any JSON array of "
            + "aggregate rows (fixed-sequence and AgentX). Prints the report's path on stdout."
    })
public final class ReportCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "AGGREGATES.json",
      description = "Aggregate rows, e.g. results_bmk/agg_bmk.json.")
  Path input;

  @Option(names = {"-o", "--out"}, paramLabel = "DIR",
      description = "Report directory (report.html, charts/); default: the input file's directory.")
  Path out;

  @Option(names = "--title", paramLabel = "TEXT", description = "Page title (default: the input file name).")
  String title;

  /** Charts are drawn off-screen: never try to reach a display (unless the user chose). */
  static void headless() {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  @Override
  public Integer call() {
    headless();
    PrintWriter err = spec.commandLine().getErr();
    if (Files.isDirectory(input)) {
      throw new InfxException(ErrorKind.FILE, input + " is a directory; give an aggregate JSON file "
          + "(e.g. " + input.resolve("results_bmk").resolve("agg_bmk.json") + ")");
    }
    ReportPoints read = ReportPoints.read(input);
    read.skipped().forEach(s -> err.println("infx: not plotted: " + input + " " + s.point() + ": " + s.message()));
    Path dir = out != null ? out : input.toAbsolutePath().getParent();
    BenchmarkReport report = BenchmarkReport.builder()
        .title(title != null ? title : "infx report: " + input.getFileName())
        .points(read.points())
        .problems(read.skipped())
        .metadata("aggregates", input.toString())
        .build();
    ReportFiles files = report.writeTo(dir);
    err.println("infx: report of " + read.points().size() + " points, " + report.charts().size()
        + " charts (SVG + PNG in " + dir.resolve(BenchmarkReport.CHARTS_DIR) + ")");
    spec.commandLine().getOut().println(files.html());
    return 0;
  }
}
