package io.infx.examples;

import io.infx.client.ReferenceWorkload;
import io.infx.client.ServeJob;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.report.BenchmarkReport;
import io.infx.report.ReportPoints;
import io.infx.results.Parallelism;
import io.infx.results.ProcessRequest;
import io.infx.results.ProcessedResult;
import io.infx.results.ResultProcessor;
import io.infx.results.RunIdentity;
import io.infx.results.SingleNodeTopology;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One benchmark point by hand, stage by stage: start the embedded simulator, drive it with the
 * fixed-sequence load generator (as InferenceX's {@code run_benchmark_serving} does), normalize
 * the raw result with a typed identity, and draw the report.
 *
 * <p>Run: {@code examples/run BenchmarkOnSimulator [OUT_DIR] [CONC]}.
 */
public final class BenchmarkOnSimulator {

  private BenchmarkOnSimulator() {}

  public static void main(String[] args) {
    Path out = Path.of(args.length > 0 ? args[0] : "infx-out/example-point");
    int conc = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    PrintWriter stdout = new PrintWriter(System.out, true);
    String name = "example_conc" + conc;

    SimConfig sim = SimConfig.builder().decodeStepBase(Duration.ofMillis(2)).build();
    try (SimServer server = SimServer.start(sim)) {
      // InferenceX's workload for one point: 10 × conc prompts, 2 × conc warm-ups, range ratio
      // 0.8, ignore-eos (ReferenceWorkload; from a matrix row: io.infx.fleet.ServePresets.of(row))
      ServeJob.Outcome run = ReferenceWorkload.fixedSeqLen("infx/sim-model", 512, 64, conc)
          .baseUrl(server.baseUri())
          .tokenizer("builtin")
          .resultDir(out).resultFilename(name + ".json")
          .progress(false)
          .build()
          .run(stdout, stdout);                       // prints the benchmark_serving summary
      System.out.println("raw result: " + run.rawFile().orElseThrow());
    }

    RunIdentity identity = RunIdentity.builder()
        .hw("sim").image("infx/embedded-simulator").modelPrefix("sim").framework("infx-sim")
        .precision("bf16").specDecoding("none").disagg(false).isl(512).osl(64)
        .topology(SingleNodeTopology.of(Parallelism.of(1, 1), false))
        .build();
    ProcessedResult agg = ResultProcessor.process(ProcessRequest.builder()
        .workDir(out).resultFilename(name).identity(identity).build());
    System.out.printf("tput/GPU %.1f tok/s, median TTFT %.1f ms → %s%n", agg.row().tputPerGpu(),
        agg.row().metric("median_ttft").orElse(Double.NaN) * 1000, agg.aggregateFile());

    BenchmarkReport report = BenchmarkReport.builder().title("one point on the simulator")
        .points(ReportPoints.read(agg.aggregateFile()).points()).build();
    System.out.println("report: " + report.writeTo(out).html());
  }
}
