package com.acme.benchci;

import io.infx.client.BodyOptions;
import io.infx.client.ServeJob;
import io.infx.client.ServeMetrics;
import io.infx.client.ServingBackend;
import io.infx.client.metrics.SampleStats;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.matrix.ConfigIdentity;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.Sweep;
import io.infx.results.AggregateRow;
import io.infx.results.Parallelism;
import io.infx.results.ProcessRequest;
import io.infx.results.ResultProcessor;
import io.infx.results.RunIdentity;
import io.infx.results.SingleNodeTopology;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A team's CI tool built on infx as a library: declare the config in code (the design card's chain
 * {@code Sweep.of(identity).searchSpace(…).expand()}), benchmark every matrix row against the
 * in-process simulator, read the typed results (TTFT/TPOT/E2EL percentiles, the HdrHistogram of
 * TTFT, the normalized aggregate row) and fail the build when a point misses its gate.
 *
 * <p>Run: {@code mvn -f examples/consumer/pom.xml verify exec:java}. Exit status 0 when every point
 * passed, 1 otherwise. Every number it prints is SIMULATED (the embedded simulator, not an engine).
 */
public final class BenchmarkGate {

  /** The gate this team holds its (simulated) serving to: p99 TTFT, in milliseconds. */
  static final double MAX_P99_TTFT_MS = 2_000;

  private BenchmarkGate() {}

  /** The team's config: identity required by the types, one fixed-seq-len block, two concurrencies. */
  static Sweep.SingleNode declaration() {
    ConfigIdentity identity = ConfigIdentity.image("vllm/vllm-openai:v0.11.0")
        .model("acme/chat-8b")
        .modelPrefix("acme").precision("bf16").framework("vllm").runner("h100");
    return Sweep.of(identity).searchSpace(256, 32, Sweep.tp(1).concList(1, 4));
  }

  /** One benchmarked point: the row, the client's statistics and the normalized aggregate row. */
  record Point(MatrixRow row, ServeMetrics metrics, long ttftSamples, AggregateRow aggregate) {}

  public static void main(String[] args) {
    if (!run(System.out)) {
      System.exit(1);
    }
  }

  /** Expands, benchmarks and gates; prints a table on {@code out}; true when every point passed. */
  public static boolean run(PrintStream out) {
    Matrix matrix = declaration().expand();
    out.println("declared: " + declaration());
    out.println("expanded: " + matrix.size() + " matrix rows");

    List<Point> points = new ArrayList<>();
    Path work = tempDir();
    try (SimServer server = SimServer.start(SimConfig.builder().decodeStepBase(Duration.ofMillis(2)).build())) {
      for (MatrixRow row : matrix) {
        points.add(benchmark(server, row, work));
      }
    }

    boolean pass = true;
    out.println("SIMULATED (infx embedded simulator): conc, completed/requested, "
        + "TTFT p50/p99 ms, TPOT p50 ms, E2EL p99 ms, TTFT samples, tput/GPU tok/s");
    for (Point p : points) {
      ServeMetrics m = p.metrics();
      double p99Ttft = ms(m.ttft(), 99);
      boolean ok = m.failed() == 0 && m.completed() == m.requested() && p99Ttft <= MAX_P99_TTFT_MS
          && p.ttftSamples() == m.completed() && p.aggregate().simulated();
      pass &= ok;
      out.printf("  conc=%d  %d/%d  ttft %.1f/%.1f  tpot %.2f  e2el %.1f  n=%d  %.1f  %s%n",
          p.row().conc().get(0), m.completed(), m.requested(), ms(m.ttft(), 50), p99Ttft,
          ms(m.tpot(), 50), ms(m.e2el(), 99), p.ttftSamples(), p.aggregate().tputPerGpu(), ok ? "PASS" : "FAIL");
    }
    out.println(pass ? "gate: PASS" : "gate: FAIL");
    return pass;
  }

  static Point benchmark(SimServer server, MatrixRow row, Path work) {
    int conc = row.conc().get(0);
    // The generator's field names (the matrix JSON contract); typed accessors on the row types
    // replace these when the typed row contract (issue "One typed contract per stage boundary") lands.
    int isl = ((Number) row.fields().get("isl")).intValue();
    int osl = ((Number) row.fields().get("osl")).intValue();
    int tp = ((Number) row.fields().get("tp")).intValue();
    String name = row.expName() + "_conc" + conc;
    StringWriter log = new StringWriter();   // the benchmark_serving summary; this tool prints its own
    PrintWriter quiet = new PrintWriter(log, true);
    ServeJob.Outcome outcome = ServeJob.builder()
        .backend(ServingBackend.parse("vllm"))
        .baseUrl(server.baseUri())
        .model(row.model())
        .tokenizer("builtin")
        .randomInputLen(isl).randomOutputLen(osl).randomRangeRatio(0.8)
        .numPrompts(8 * conc).numWarmups(conc).maxConcurrency(conc)
        .body(BodyOptions.builder().ignoreEos(true).build())
        .saveResult(true).resultDir(work).resultFilename(name + ".json")
        .progress(false)
        .build()
        .run(quiet, quiet);

    RunIdentity identity = RunIdentity.builder()
        .hw(row.runner()).image(row.image()).modelPrefix(row.modelPrefix()).framework(row.framework())
        .precision(row.precision()).specDecoding("none").disagg(false).isl(isl).osl(osl)
        .topology(SingleNodeTopology.of(Parallelism.of(tp, 1), false))
        .build();
    AggregateRow aggregate = ResultProcessor.process(ProcessRequest.builder()
        .workDir(work).resultFilename(name).identity(identity).build()).row();
    return new Point(row, outcome.metrics(), outcome.result().ttftHistogram().getTotalCount(), aggregate);
  }

  /** A statistic in seconds, as a percentile in milliseconds. */
  private static double ms(SampleStats stats, double percentile) {
    return stats.percentile(percentile) * 1000;
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("bench-ci");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
