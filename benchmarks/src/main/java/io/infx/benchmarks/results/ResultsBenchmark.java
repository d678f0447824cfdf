package io.infx.benchmarks.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.results.AggregateRow;
import io.infx.results.Collector;
import io.infx.results.Normalizer;
import io.infx.results.Parallelism;
import io.infx.results.RunIdentity;
import io.infx.results.SingleNodeTopology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the results pipeline: one raw result (a conc-64 1k/1k point: 640 requests, the standard
 * 24 metric keys) parsed, normalized and serialized as the reference writes it; and collecting a
 * run of 1 000 aggregates (read, validate, deduplicate, write {@code agg_bmk.json}).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar ResultsBenchmark -f 1 -wi 3 -i 5
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ResultsBenchmark {

  private byte[] raw;
  private RunIdentity identity;
  private Path runDir;
  private Path output;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    Random rnd = new Random(1);
    StringBuilder sb = new StringBuilder("{\"date\": \"20261130-190209\", \"backend\": \"vllm\","
        + " \"model_id\": \"deepseek-ai/DeepSeek-R1-0528\", \"tokenizer_id\": \"deepseek-ai/DeepSeek-R1-0528\","
        + " \"best_of\": 1, \"num_prompts\": 640, \"request_rate\": \"inf\", \"burstiness\": 1.0,"
        + " \"max_concurrency\": 64, \"duration\": 89.78, \"completed\": 640,"
        + " \"total_input_tokens\": 593088, \"total_output_tokens\": 587344,"
        + " \"request_throughput\": 7.12, \"request_goodput:\": null, \"output_throughput\": 6541.5,"
        + " \"total_token_throughput\": 13147.1");
    for (String list : new String[] {"input_lens", "output_lens"}) {
      sb.append(", \"").append(list).append("\": [");
      for (int i = 0; i < 640; i++) {
        sb.append(i == 0 ? "" : ", ").append(819 + rnd.nextInt(206));
      }
      sb.append(']');
    }
    for (String m : new String[] {"ttft", "tpot", "itl", "e2el"}) {
      for (String s : new String[] {"mean", "median", "std", "p90", "p99", "p99.9"}) {
        sb.append(", \"").append(s).append('_').append(m).append("_ms\": ").append(1 + rnd.nextDouble() * 100);
      }
    }
    raw = sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
    identity = RunIdentity.builder().hw("h200").image("lmsysorg/sglang:v0.5.16-cu130")
        .modelPrefix("dsr1").framework("sglang").precision("fp8").specDecoding("none")
        .disagg(false).isl(1024).osl(1024)
        .topology(SingleNodeTopology.of(Parallelism.of(8, 1), false)).build();

    runDir = Files.createTempDirectory("infx-results-bench");
    Normalizer n = Normalizer.reference();
    for (int i = 0; i < 1000; i++) {
      JsonNode r = Json.mapper().readTree(new String(raw, StandardCharsets.UTF_8)
          .replace("\"max_concurrency\": 64", "\"max_concurrency\": " + (i + 1)));
      Path d = Files.createDirectories(runDir.resolve("bmk_" + i));
      Files.writeString(d.resolve("agg_" + i + ".json"), n.normalize(r, identity).toJsonText());
    }
    output = Files.createTempFile("agg_bmk", ".json");
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (var s = Files.walk(runDir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
    Files.deleteIfExists(output);
  }

  /** Parse one raw result, normalize it and render the aggregate text. */
  @Benchmark
  public String normalizeOneRawResult() throws IOException {
    AggregateRow row = Normalizer.reference().normalize(Json.mapper().readTree(raw), identity);
    return row.toJsonText();
  }

  /** Collect 1 000 aggregate files into agg_bmk.json (validation and duplicate check included). */
  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public int collectThousandAggregates() {
    Collector.Report r = Collector.collect(runDir, Set.of(output));
    Collector.write(output, r.allRows());
    return r.entries().size();
  }
}
