package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.ServingBackend;
import io.infx.client.BodyOptions;
import io.infx.client.ServeJob;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Round trip: the raw result infx's load generator writes (against the embedded simulator) is
 * normalized into a standard aggregate, and its {@code infx} extension drives the comparability
 * lint.
 */
class ClientRoundTripTest {

  private static SimServer sim;

  @TempDir Path dir;

  @BeforeAll
  static void startSimulator() {
    sim = SimServer.start(SimConfig.builder().build());
  }

  @AfterAll
  static void stopSimulator() {
    sim.close();
  }

  /** Runs the InferenceX-shaped client job: 16 prompts, ISL 64, OSL 16, conc 4. */
  private Path bench(Path into, String name, boolean ignoreEos) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    ServeJob.Outcome o = ServeJob.builder()
        .backend(ServingBackend.parse("vllm")).baseUrl(sim.baseUri()).model("tiny").tokenizer("builtin")
        .numPrompts(16).randomInputLen(64).randomOutputLen(16).randomRangeRatio(0.8)
        .maxConcurrency(4).numWarmups(2)
        .body(BodyOptions.builder().ignoreEos(ignoreEos).build())
        .saveResult(true).resultDir(into).resultFilename(name + ".json").progress(false)
        .build().run(new PrintWriter(out), new PrintWriter(err));
    assertThat(o.exitCode()).as(err.toString()).isZero();
    return o.rawFile().orElseThrow();
  }

  private static Map<String, String> env(String rf) {
    Map<String, String> env = new HashMap<>();
    env.put("RUNNER_TYPE", "h200");
    env.put("FRAMEWORK", "vllm");
    env.put("PRECISION", "fp8");
    env.put("SPEC_DECODING", "none");
    env.put("RESULT_FILENAME", rf);
    env.put("ISL", "64");
    env.put("OSL", "16");
    env.put("DISAGG", "false");
    env.put("MODEL_PREFIX", "tiny");
    env.put("IMAGE", "infx-sim");
    env.put("TP", "2");
    env.put("EP_SIZE", "1");
    env.put("DP_ATTENTION", "false");
    return env;
  }

  @Test
  void theLoadGeneratorsRawResultNormalizesToTheStandardShape() throws Exception {
    Path raw = bench(dir, "tiny_64_16_conc4", true);
    ProcessedResult r = ResultProcessor.processEnvironment(env("tiny_64_16_conc4"), dir);
    JsonNode rawJson = Json.mapper().readTree(raw.toFile());
    ObjectNode agg = r.row().toJson();

    List<String> keys = new ArrayList<>();
    agg.fieldNames().forEachRemaining(keys::add);
    List<String> expected = new ArrayList<>(List.of("hw", "conc", "image", "model",
        "infmax_model_prefix", "framework", "precision", "spec_decoding", "disagg",
        "recipe_fingerprint", "isl", "osl", "is_multinode", "tp", "pp", "dcp_size", "pcp_size",
        "ep", "dp_attention", "tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu"));
    for (String m : List.of("ttft", "tpot", "itl", "e2el")) {
      for (String stat : List.of("mean", "median", "std", "p90", "p99", "p99.9")) {
        expected.add(stat + "_" + m);
        if (m.equals("tpot")) {
          expected.add(stat + "_intvty");
        }
      }
    }
    expected.addAll(List.of("power_metric_schema_version", "power_valid"));
    expected.addAll(List.of("server_engine", "server_version", "simulated"));
    assertThat(keys).as("the standard 54-key single-node aggregate plus the provenance keys")
        .isEqualTo(expected);
    assertThat(rawJson.at("/infx/server/engine").textValue()).isEqualTo("infx-sim");
    assertThat(agg.get("server_engine").textValue()).isEqualTo("infx-sim");
    assertThat(agg.get("server_version").textValue()).isEqualTo(SimServer.VERSION);
    assertThat(agg.get("simulated").booleanValue()).isTrue();
    assertThat(AggregateRows.fromJson(agg).simulated()).as("read back").isTrue();
    assertThat(Summary.of(List.of(r.row())).toMarkdown()).contains("SIMULATED (infx-sim")
        .contains("not measurements");

    assertThat(agg.get("conc").intValue()).isEqualTo(4);
    assertThat(agg.get("model").textValue()).isEqualTo("tiny");
    assertThat(agg.get("tput_per_gpu").doubleValue())
        .isEqualTo(rawJson.get("total_token_throughput").doubleValue() / 2);
    assertThat(agg.get("median_intvty").doubleValue())
        .isEqualTo(1000.0 / rawJson.get("median_tpot_ms").doubleValue());
    assertThat(agg.get("p99_e2el").doubleValue())
        .isEqualTo(rawJson.get("p99_e2el_ms").doubleValue() / 1000.0);
    assertThat(AggregateSchema.validate(agg)).isEmpty();

    // the newer upstream guards accept the client's benchmark_outcome as consistent
    Path newer = Files.createDirectory(dir.resolve("newer"));
    Files.copy(raw, newer.resolve("tiny_64_16_conc4.json"));
    ProcessedResult checked = ResultProcessor.processEnvironment(env("tiny_64_16_conc4"), newer,
        NormalizerOptions.upstreamGuards());
    assertThat(checked.row().benchmarkOutcome()).map(BenchmarkOutcome::status).contains("passed");
    assertThat(checked.row().power()).as("upstream: no power fields on single-node").isEmpty();
  }

  @Test
  void theInfxExtensionFeedsTheComparabilityLint() throws Exception {
    Path a = Files.createDirectory(dir.resolve("a"));
    Path b = Files.createDirectory(dir.resolve("b"));
    Path c = Files.createDirectory(dir.resolve("c"));
    bench(a, "p", true);
    bench(b, "p", true);
    bench(c, "p", false);
    for (Path d : List.of(a, b, c)) {
      ResultProcessor.processEnvironment(env("p"), d);
    }
    WorkloadSettings s = WorkloadSettings.read(a.resolve("p.json")).orElseThrow();
    assertThat(s.hasExtension()).isTrue();
    assertThat(s.settings()).containsKeys("backend", "ignore_eos", "num_warmups",
        "random_range_ratio", "output_token_source", "seed", "workload_fingerprint");

    Comparison same = Comparison.of(AggregateRows.load(List.of(a)).rows(),
        AggregateRows.load(List.of(b)).rows(), Comparison::settingsBeside);
    assertThat(same.pairs()).singleElement().satisfies(p ->
        assertThat(p.comparability().status()).isEqualTo(Comparison.Status.COMPARABLE));

    Comparison differ = Comparison.of(AggregateRows.load(List.of(a)).rows(),
        AggregateRows.load(List.of(c)).rows(), Comparison::settingsBeside);
    assertThat(differ.pairs()).singleElement().satisfies(p -> {
      assertThat(p.comparability().status()).isEqualTo(Comparison.Status.NOT_COMPARABLE);
      assertThat(p.comparability().reasons()).contains("ignore_eos: true vs false");
    });
  }

  @Test
  void compareRefusesSimulatedAgainstRealUnlessAllowed() throws Exception {
    Path sim = Files.createDirectory(dir.resolve("sim"));
    Path real = Files.createDirectory(dir.resolve("real"));
    bench(sim, "p", true);
    Path raw = bench(real, "p", true);
    // the same traffic, as if a vLLM server had answered (what ServerProbe records for one)
    ObjectNode o = (ObjectNode) Json.mapper().readTree(raw.toFile());
    ((ObjectNode) o.get("infx")).set("server", Json.mapper().readTree(
        "{\"engine\":\"vllm\",\"version\":\"0.10.1\",\"simulated\":false,\"source\":\"GET /version\"}"));
    Files.writeString(raw, Json.compact().writeValueAsString(o));
    for (Path d : List.of(sim, real)) {
      ResultProcessor.processEnvironment(env("p"), d);
    }
    assertThat(AggregateRows.load(List.of(real)).rows()).singleElement()
        .satisfies(r -> assertThat(r.row().server()).hasValueSatisfying(p -> {
          assertThat(p.engine()).isEqualTo("vllm");
          assertThat(p.simulated()).isFalse();
        }));
    Comparison refused = Comparison.of(AggregateRows.load(List.of(sim)).rows(),
        AggregateRows.load(List.of(real)).rows(), Comparison::settingsBeside);
    assertThat(refused.pairs()).singleElement().satisfies(p -> {
      assertThat(p.comparability().status()).isEqualTo(Comparison.Status.NOT_COMPARABLE);
      assertThat(p.comparability().reasons().get(0)).startsWith("simulated vs real: baseline is SIMULATED infx-sim")
          .contains("candidate is vllm 0.10.1");
      assertThat(p.deltas()).isEmpty();
    });
    assertThat(refused.toMarkdown(Comparison.metrics(Comparison.DEFAULT_TABLE_METRICS)))
        .contains("SIMULATED rows come from infx's embedded simulator");
    Comparison allowed = Comparison.of(AggregateRows.load(List.of(sim)).rows(),
        AggregateRows.load(List.of(real)).rows(), Comparison::settingsBeside, true);
    assertThat(allowed.pairs()).singleElement().satisfies(p -> {
      assertThat(p.comparability().status()).isEqualTo(Comparison.Status.COMPARABLE);
      assertThat(p.comparability().notes()).anyMatch(n -> n.startsWith("SIMULATED vs real (allowed)"));
    });
  }
}
