// Run a benchmark: the embedded simulator as server, the fixed-sequence load generator as client
// (40 requests at concurrency 4, ISL 512 / OSL 64, as InferenceX's scripts drive it).
// Run from anywhere:  examples/run jshell/run-benchmark.jsh
import io.infx.client.*;
import io.infx.client.sim.*;
import java.io.PrintWriter;
import java.nio.file.Path;

var out = new PrintWriter(System.out, true);
try (var sim = SimServer.start(SimConfig.defaults())) {
  var outcome = ServeJob.builder()
      .backend(ServingBackend.parse("vllm")).baseUrl(sim.baseUri()).model("infx/sim-model").tokenizer("builtin")
      .randomInputLen(512).randomOutputLen(64).randomRangeRatio(0.8)
      .numPrompts(40).numWarmups(8).maxConcurrency(4)
      .body(BodyOptions.builder().ignoreEos(true).build())
      .saveResult(true).resultDir(Path.of("infx-out/jshell")).resultFilename("run-benchmark.json")
      .progress(false).build()
      .run(out, out);                                    // prints the benchmark_serving summary
  var m = outcome.metrics();
  System.out.printf("completed %d of %d, raw result in %s%n", m.completed(), m.requested(), outcome.rawFile().get());
  // typed statistics: *Millis views equal the raw file's *_ms fields; empty (not 0.0) without samples
  System.out.println("TTFT " + m.ttft());
  System.out.println("TPOT " + m.tpot() + " per output token");
  System.out.printf("p99 E2EL %.1f ms%n", m.e2el().percentileMillis(99).orElseThrow());
  var tpot = outcome.result().tpotHistogram();   // HdrHistogram, µs per output token
  System.out.printf("TPOT histogram: n=%d, p99 %.3f ms/token%n", tpot.getTotalCount(), tpot.getValueAtPercentile(99) / 1000.0);
}
/exit
