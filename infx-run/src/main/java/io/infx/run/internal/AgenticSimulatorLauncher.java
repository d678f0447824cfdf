package io.infx.run.internal;

import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticReplay;
import io.infx.client.agentx.AgenticResult;
import io.infx.client.agentx.TraceSources;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.core.InfxException;
import io.infx.core.provenance.ServerProvenance;
import io.infx.results.agentx.AgenticAggregator;
import io.infx.results.agentx.AgenticGate;
import io.infx.run.PlannedPoint;
import io.infx.run.PointLauncher;
import io.infx.run.PointResult;
import io.infx.run.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * AgentX points on the {@code local} adapter: the embedded simulator in this JVM, one fresh
 * instance per point (fixed-seq-len points go through {@link FleetPointLauncher}). AgentX points replay traces with {@code conc} users (prefix cache in 64-token blocks, as AgentX
 * traces count them), pass the 10 % failed-request gate and are aggregated like the reference
 * ({@code <RESULT_FILENAME>.json}, exports under {@code results/aiperf_artifacts}).
 */
public final class AgenticSimulatorLauncher implements PointLauncher {

  private final RunOptions options;

  public AgenticSimulatorLauncher(RunOptions options) {
    this.options = options;
  }

  @Override
  public PointResult launch(PlannedPoint point, Path workDir, PrintWriter log) throws Exception {
    log.println("infx run: " + point.resultFilename() + " on the embedded simulator");
    try {
      if (!point.agentic()) {
        throw new IllegalArgumentException("fixed-seq-len points run through FleetPointLauncher");
      }
      return agentic(point, workDir, log);
    } catch (InfxException e) {
      log.println("infx run: " + e.getMessage());
      return PointResult.failed(e.getMessage());
    }
  }

  private PointResult agentic(PlannedPoint point, Path workDir, PrintWriter log) {
    var env = point.env();
    String source = options.traceSource().orElse(Optional.ofNullable(System.getenv("WEKA_LOADER_OVERRIDE"))
        .filter(s -> !s.isBlank()).orElse(TraceSources.defaultLoader(point.row().modelPrefix())));
    TraceSources.Corpus corpus = TraceSources.load(source, System.getenv());
    log.println("traces: " + corpus.description());
    SimConfig simConfig = SimConfig.builder().from(options.simulator()).blockSize(64)
        .parallelism(io.infx.fleet.bench.BenchDriver.simParallelism(env.values())).build();
    Path results = workDir.resolve("results");
    Path artifacts = results.resolve("aiperf_artifacts");
    try (SimServer sim = SimServer.start(simConfig)) {
      log.println("simulator at " + sim.baseUri() + " (" + simConfig + ")");
      var o = AgenticOptions.builder()
          .baseUri(sim.baseUri())
          .model(point.row().model())
          .users(point.conc().get(0))
          .tokenizer(BuiltinTokenizer.instance())
          .addServerMetricsUrls(sim.baseUri().resolve("/metrics"));
      env.get(io.infx.core.launch.LaunchVariable.DURATION.name()).filter(d -> !d.isBlank())
          .ifPresent(d -> o.duration(Duration.ofSeconds(Long.parseLong(d))));
      AgenticResult r = AgenticReplay.run(corpus.traces(), o.build(), artifacts, corpus.source());
      log.println("AgentX replay: " + r.successfulRequests() + " successful, " + r.failedRequests()
          + " failed requests" + (r.submissionValid() ? "" : "; not a valid submission: " + r.invalidReasons()));
    }
    // the reference gate (error rate only): a replay on the simulator is a trial, usually shorter
    // than a valid submission's 900 s; its aggregate carries the stamp and says it is simulated
    AgenticGate.Result gate = AgenticGate.validate(artifacts, AgenticGate.DEFAULT_THRESHOLD,
        java.nio.file.Path.of(""), AgenticGate.Submission.ERROR_RATE_ONLY);
    log.println(gate.message());
    if (!gate.passed()) {
      return PointResult.failed(gate.message());
    }
    Path aggregate = workDir.resolve(point.resultFilename() + ".json");
    // The replay ran on the simulator: the row says so, like a fixed-sequence row on it does.
    AgenticAggregator.aggregate(results, env.values())
        .withServer(ServerProvenance.simulator(SimServer.VERSION)).writeTo(aggregate);
    return PointResult.succeeded(aggregate);
  }
}
