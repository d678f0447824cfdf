package io.infx.run.internal;

import io.infx.client.Backend;
import io.infx.client.BodyOptions;
import io.infx.client.ServeJob;
import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticReplay;
import io.infx.client.agentx.AgenticResult;
import io.infx.client.agentx.TraceSources;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.core.InfxException;
import io.infx.results.ProcessedResult;
import io.infx.results.ResultProcessor;
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
 * The {@code local} adapter with its default server: the embedded simulator, in this JVM, one
 * fresh instance per point. Fixed-sequence points run the client as InferenceX's
 * {@code benchmark_lib.sh} invokes it (backend {@code vllm}, random dataset, ISL/OSL upper bounds
 * with {@code RANDOM_RANGE_RATIO}, {@code num_prompts = 10·conc}, {@code 2·conc} warm-ups,
 * {@code ignore_eos}, request rate inf), then the reference normalizer on the point's environment.
 * AgentX points replay traces with {@code conc} users (prefix cache in 64-token blocks, as AgentX
 * traces count them), pass the 10 % failed-request gate and are aggregated like the reference
 * ({@code <RESULT_FILENAME>.json}, exports under {@code results/aiperf_artifacts}).
 */
public final class EmbeddedSimulatorLauncher implements PointLauncher {

  private final RunOptions options;

  public EmbeddedSimulatorLauncher(RunOptions options) {
    this.options = options;
  }

  @Override
  public PointResult launch(PlannedPoint point, Path workDir, PrintWriter log) throws Exception {
    log.println("infx run: " + point.resultFilename() + " on the embedded simulator");
    try {
      return point.agentic() ? agentic(point, workDir, log) : fixed(point, workDir, log);
    } catch (InfxException e) {
      log.println("infx run: " + e.getMessage());
      return PointResult.failed(e.getMessage());
    }
  }

  private PointResult fixed(PlannedPoint point, Path workDir, PrintWriter log) {
    var env = point.env();
    int conc = point.conc().get(0);
    double ratio = Double.parseDouble(env.get("RANDOM_RANGE_RATIO").orElse("0.8"));
    try (SimServer sim = SimServer.start(options.simulator())) {
      log.println("simulator at " + sim.baseUri() + " (" + options.simulator() + ")");
      ServeJob job = ServeJob.builder()
          .backend(Backend.parse("vllm"))
          .baseUrl(sim.baseUri())
          .model(point.row().model())
          .tokenizer("builtin")
          .datasetName("random")
          .randomInputLen(point.row().isl().orElseThrow())
          .randomOutputLen(point.row().osl().orElseThrow())
          .randomRangeRatio(ratio)
          .numPrompts(options.promptsPerConc() * conc)
          .numWarmups(options.warmupsPerConc() * conc)
          .maxConcurrency(conc)
          .body(BodyOptions.builder().ignoreEos(true).build())
          .saveResult(true)
          .resultDir(workDir)
          .resultFilename(point.resultFilename() + ".json")
          .progress(false)
          .build();
      ServeJob.Outcome outcome = job.run(log, log);
      if (outcome.gateFailure().isPresent()) {
        return PointResult.failed(outcome.gateFailure().get());
      }
    }
    ProcessedResult processed = ResultProcessor.processEnvironment(point.env().values(), workDir);
    return PointResult.succeeded(processed.aggregateFile());
  }

  private PointResult agentic(PlannedPoint point, Path workDir, PrintWriter log) {
    var env = point.env();
    String source = options.traceSource().orElse(Optional.ofNullable(System.getenv("WEKA_LOADER_OVERRIDE"))
        .filter(s -> !s.isBlank()).orElse(TraceSources.defaultLoader(point.row().modelPrefix())));
    TraceSources.Corpus corpus = TraceSources.load(source, System.getenv());
    log.println("traces: " + corpus.description());
    SimConfig simConfig = SimConfig.builder().from(options.simulator()).blockSize(64).build();
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
      env.get("DURATION").filter(d -> !d.isBlank())
          .ifPresent(d -> o.duration(Duration.ofSeconds(Long.parseLong(d))));
      AgenticResult r = AgenticReplay.run(corpus.traces(), o.build(), artifacts, corpus.source());
      log.println("AgentX replay: " + r.successfulRequests() + " successful, " + r.failedRequests()
          + " failed requests" + (r.submissionValid() ? "" : "; not a valid submission: " + r.invalidReasons()));
    }
    AgenticGate.Result gate = AgenticGate.validate(artifacts, AgenticGate.DEFAULT_THRESHOLD);
    log.println(gate.message());
    if (!gate.passed()) {
      return PointResult.failed(gate.message());
    }
    Path aggregate = workDir.resolve(point.resultFilename() + ".json");
    AgenticAggregator.aggregate(results, env.values()).writeTo(aggregate);
    return PointResult.succeeded(aggregate);
  }
}
