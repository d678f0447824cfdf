package com.acme.benchci;

import io.infx.client.ServeJob;
import io.infx.client.ServeMetrics;
import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticReplay;
import io.infx.client.agentx.AgenticResult;
import io.infx.client.agentx.AgenticSession;
import io.infx.client.agentx.SyntheticCorpus;
import io.infx.client.metrics.LatencyStats;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.fleet.RunIdentities;
import io.infx.fleet.ServePresets;
import io.infx.matrix.ConfigIdentity;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.Sweep;
import io.infx.results.AggregateRow;
import io.infx.results.Normalizer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A team's CI tool built on infx as a library: declare the config in code (the design card's chain
 * {@code Sweep.singleNode(identity).searchSpace(…).expand()}), benchmark every matrix row against the
 * in-process simulator, read the typed results (TTFT/TPOT/E2EL percentiles in ms, the HdrHistograms
 * of TTFT and TPOT, the normalized aggregate row), replay AgentX sessions in memory (typed TTFT /
 * ITL / E2EL, per-session figures) and fail the build when a point misses its gate.
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
    return Sweep.singleNode(identity).searchSpace(256, 32, Sweep.tp(1).concList(1, 4));
  }

  /**
   * One benchmarked point: the row, the client's statistics, the TTFT and TPOT histograms (µs;
   * TPOT µs per output token) and the normalized aggregate row.
   */
  record Point(MatrixRow row, ServeMetrics metrics, Histogram ttftHistogram, Histogram tpotHistogram,
      AggregateRow aggregate) {}

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
    AgenticResult agentic;
    try (SimServer server = SimServer.start(SimConfig.builder().decodeStepBase(Duration.ofMillis(2)).build())) {
      for (MatrixRow row : matrix) {
        points.add(benchmark(server, row));
      }
      agentic = agenticReplay(server);
    }

    boolean pass = true;
    out.println("SIMULATED (infx embedded simulator): conc, completed/requested, "
        + "TTFT / TPOT / E2EL p50/p90/p99 ms (TPOT ms per token), tput/GPU tok/s");
    for (Point p : points) {
      ServeMetrics m = p.metrics();
      // empty only when no request succeeded: then the gate fails rather than reading 0.0
      double p99Ttft = m.ttft().percentileMillis(99).orElse(Double.POSITIVE_INFINITY);
      boolean ok = m.failed() == 0 && m.completed() == m.requested() && p99Ttft <= MAX_P99_TTFT_MS
          && p.ttftHistogram().getTotalCount() == m.completed()
          && p.tpotHistogram().getTotalCount() == m.tpot().count() && p.aggregate().simulated();
      pass &= ok;
      out.printf("  conc=%d  %d/%d  ttft %s  tpot %s  e2el %s  %.1f  %s%n",
          p.row().conc().get(0), m.completed(), m.requested(), percentiles(m.ttft()),
          percentiles(m.tpot()), percentiles(m.e2el()), p.aggregate().tputPerGpu(),
          ok ? "PASS" : "FAIL");
      printHistogram(out, "TPOT histogram (µs per output token)", p.tpotHistogram());
    }
    // AgentX: sessions replayed in memory (no artifact directory), read as typed figures
    boolean agenticOk = agentic.artifactDir().isEmpty() && agentic.successfulRequests() > 0
        && agentic.failedRequests() == 0 && agentic.ttftHistogram().getTotalCount() == agentic.successfulRequests()
        && agentic.sessions().stream().mapToLong(AgenticSession::successful).sum() == agentic.successfulRequests();
    pass &= agenticOk;
    out.printf("SIMULATED AgentX replay in memory: %d sessions, %d ok / %d failed, TTFT %s, ITL %s, "
        + "E2EL %s ms (p50/p90/p99), theoretical cache hit %.0f%%  %s%n", agentic.sessions().size(),
        agentic.successfulRequests(), agentic.failedRequests(), percentiles(agentic.ttft()),
        percentiles(agentic.itl()), percentiles(agentic.e2el()), 100 * agentic.theoreticalCacheHitRate(),
        agenticOk ? "PASS" : "FAIL");
    out.println(pass ? "gate: PASS" : "gate: FAIL");
    return pass;
  }

  /**
   * A short AgentX replay (2 users, 3 s) of a generated coding-agent corpus against {@code server},
   * in memory: the typed result, nothing written.
   */
  static AgenticResult agenticReplay(SimServer server) {
    SyntheticCorpus corpus = SyntheticCorpus.builder().traces(4).turns(6).seed(7).outputTokens(16)
        .apiTime(0.05).thinkTime(0.05).build();
    return AgenticReplay.run(corpus.generate(), AgenticOptions.builder()
        .baseUri(server.baseUri()).model("infx/sim-model").users(2)
        .duration(Duration.ofSeconds(3)).warmupRequestsPerLane(1).build());
  }

  /**
   * One point through infx's typed bridges, with nothing mapped by hand: the matrix row gives the
   * serve benchmark with InferenceX's workload rules ({@code ServePresets}: 10 × conc prompts,
   * 2 × conc warm-ups, range ratio 0.8, ignore-eos) and the run identity ({@code RunIdentities});
   * the client's typed outcome is normalized into the aggregate row without a raw file.
   */
  static Point benchmark(SimServer server, MatrixRow row) {
    // run(): silent (this tool prints its own table); run(ServeListener) would get notes,
    // warnings, progress and the benchmark_serving summary
    ServeJob.Outcome outcome = ServePresets.of(row)
        .baseUrl(server.baseUri())
        .tokenizer("builtin")
        .saveResult(false)
        .build()
        .run();
    AggregateRow aggregate = Normalizer.reference().normalize(outcome, RunIdentities.of(row));
    return new Point(row, outcome.metrics(), outcome.result().ttftHistogram(),
        outcome.result().tpotHistogram(), aggregate);
  }

  /** {@code p50/p90/p99} in ms, or {@code n/a} for a metric without samples. */
  private static String percentiles(LatencyStats stats) {
    if (stats.isEmpty()) {
      return "n/a";
    }
    return String.format("%.2f/%.2f/%.2f", stats.percentileMillis(50).getAsDouble(),
        stats.percentileMillis(90).getAsDouble(), stats.percentileMillis(99).getAsDouble());
  }

  /** A text bar chart of {@code h} in up to 8 equal-width bins between its min and max. */
  static void printHistogram(PrintStream out, String title, Histogram h) {
    out.printf("    %s, n=%d%n", title, h.getTotalCount());
    if (h.getTotalCount() == 0) {
      return;
    }
    long lo = h.getMinValue();
    long width = Math.max(1, (h.getMaxValue() - lo) / 8 + 1);
    long[] bins = new long[8];
    for (HistogramIterationValue v : h.recordedValues()) {
      bins[(int) Math.min(7, (v.getValueIteratedTo() - lo) / width)] += v.getCountAtValueIteratedTo();
    }
    long most = java.util.Arrays.stream(bins).max().orElse(1);
    for (int i = 0; i < bins.length; i++) {
      if (bins[i] > 0) {
        out.printf("      %7d–%-7d %-30s %d%n", lo + i * width, lo + (i + 1) * width - 1,
            "#".repeat((int) Math.max(1, 30 * bins[i] / most)), bins[i]);
      }
    }
  }
}
