package io.infx.run.internal;

import io.infx.client.Backend;
import io.infx.client.BodyOptions;
import io.infx.client.ServeJob;
import io.infx.client.sim.SimServer;
import io.infx.core.InfxException;
import io.infx.results.ProcessedResult;
import io.infx.results.ResultProcessor;
import io.infx.run.PlannedPoint;
import io.infx.run.PointLauncher;
import io.infx.run.PointResult;
import io.infx.run.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The {@code local} adapter with its default server: the embedded simulator, in this JVM, one
 * fresh instance per point; the fixed-sequence client as InferenceX's {@code benchmark_lib.sh}
 * invokes it (backend {@code vllm}, random dataset, ISL/OSL upper bounds with
 * {@code RANDOM_RANGE_RATIO}, {@code num_prompts = 10·conc}, {@code 2·conc} warm-ups,
 * {@code ignore_eos}, request rate inf); then the reference normalizer on the point's
 * environment.
 */
public final class EmbeddedSimulatorLauncher implements PointLauncher {

  private final RunOptions options;

  public EmbeddedSimulatorLauncher(RunOptions options) {
    this.options = options;
  }

  @Override
  public PointResult launch(PlannedPoint point, Path workDir, PrintWriter log) {
    var env = point.env();
    int conc = point.conc().get(0);
    int isl = point.row().isl().orElseThrow();
    int osl = point.row().osl().orElseThrow();
    double ratio = Double.parseDouble(env.get("RANDOM_RANGE_RATIO").orElse("0.8"));
    log.println("infx run: " + point.resultFilename() + " on the embedded simulator");
    try (SimServer sim = SimServer.start(options.simulator())) {
      log.println("simulator at " + sim.baseUri() + " (" + options.simulator() + ")");
      ServeJob job = ServeJob.builder()
          .backend(Backend.parse("vllm"))
          .baseUrl(sim.baseUri())
          .model(point.row().model())
          .tokenizer("builtin")
          .datasetName("random")
          .randomInputLen(isl)
          .randomOutputLen(osl)
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
      ProcessedResult processed = ResultProcessor.processEnvironment(env.values(), workDir);
      return PointResult.succeeded(processed.aggregateFile());
    } catch (InfxException e) {
      log.println("infx run: " + e.getMessage());
      return PointResult.failed(e.getMessage());
    }
  }
}
