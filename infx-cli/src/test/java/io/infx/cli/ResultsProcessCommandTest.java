package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx results process} in-process over the results conformance corpus. */
class ResultsProcessCommandTest {

  @TempDir Path tmp;

  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(status, out.toString(), err.toString());
  }

  private static Path corpusDir() {
    String shared = System.getenv("INFX_SHARED");
    Path base = shared != null && !shared.isEmpty()
        ? Paths.get(shared)
        : Paths.get(System.getProperty("infx.repo.root", ".")).toAbsolutePath().resolve("../shared");
    return base.resolve("conformance/results").normalize();
  }

  @TestFactory
  Stream<DynamicTest> everyCorpusCaseThroughTheCommandLine() throws Exception {
    Path corpus = corpusDir();
    if (!Files.isDirectory(corpus)) {
      return Stream.of(DynamicTest.dynamicTest("corpus absent", () -> assumeTrue(false,
          "conformance corpus not found at " + corpus + "; skipping")));
    }
    List<Path> cases;
    try (Stream<Path> s = Files.list(corpus)) {
      cases = s.filter(Files::isDirectory).sorted().collect(Collectors.toList());
    }
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> {
      Map<String, String> env = Json.mapper().readValue(c.resolve("env.json").toFile(),
          new TypeReference<LinkedHashMap<String, String>>() {});
      Path work = Files.createDirectory(tmp.resolve(c.getFileName().toString()));
      String rf = env.getOrDefault("RESULT_FILENAME", "raw");
      Files.copy(c.resolve("raw.json"), work.resolve(rf + ".json"));
      Run r = run("results", "process", "--env-file", c.resolve("env.json").toString(),
          "--dir", work.toString());
      if (Files.exists(c.resolve("expected.json"))) {
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode printed = Json.mapper().readTree(r.out());
        assertThat(printed).isEqualTo(Json.mapper().readTree(c.resolve("expected.json").toFile()));
        assertThat(Files.readString(work.resolve("agg_" + rf + ".json")).strip())
            .isEqualTo(r.out().strip());
      } else {
        JsonNode error = Json.mapper().readTree(c.resolve("expected-error.json").toFile());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).startsWith("infx: error: ").doesNotContain("\tat ");
        if (error.get("error_kind").textValue().equals("power_required")) {
          assertThat(r.err()).contains(error.get("message_contains").textValue());
          assertThat(Json.mapper().readTree(r.out()).get("power_valid").intValue()).isZero();
        } else {
          assertThat(r.out()).isEmpty();
        }
      }
    }));
  }

  @Test
  void badModeIsAUsageError() {
    Run r = run("results", "process", "--mode", "fast", "--dir", tmp.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--mode");
  }

  @Test
  void upstreamModeRejectsARawResultWithZeroOutputTokens() throws Exception {
    Path env = tmp.resolve("env.json");
    Files.writeString(env, "{\"RUNNER_TYPE\": \"h200\", \"FRAMEWORK\": \"vllm\", \"PRECISION\": \"fp8\","
        + " \"SPEC_DECODING\": \"none\", \"RESULT_FILENAME\": \"x\", \"ISL\": \"1024\", \"OSL\": \"1024\","
        + " \"DISAGG\": \"false\", \"MODEL_PREFIX\": \"m\", \"IMAGE\": \"i\", \"TP\": \"1\","
        + " \"EP_SIZE\": \"1\", \"DP_ATTENTION\": \"false\"}");
    // every request completed, so the outcome is "passed" — with nothing generated
    Files.writeString(tmp.resolve("x.json"), "{\"model_id\": \"m\", \"max_concurrency\": 4,"
        + " \"num_prompts\": 40, \"completed\": 40, \"total_output_tokens\": 0,"
        + " \"total_token_throughput\": 3031.58, \"output_throughput\": 0.0, \"mean_ttft_ms\": 37.4,"
        + " \"mean_tpot_ms\": 0.0, \"benchmark_outcome\": {\"status\": \"passed\", \"requested\": 40,"
        + " \"completed\": 40, \"failed\": 0, \"max_failure_rate\": 0.05}}");
    Run r = run("results", "process", "--mode", "upstream", "--env-file", env.toString(), "--dir", tmp.toString());
    assertThat(r.status()).as(r.out()).isEqualTo(1);
    assertThat(r.err()).startsWith("infx: error: ").contains("no output tokens (total_output_tokens is 0)");
    assertThat(r.out()).isEmpty();
    assertThat(tmp.resolve("agg_x.json")).doesNotExist();
  }

  @Test
  void missingRawFileIsAClassifiedError() throws Exception {
    Path env = tmp.resolve("env.json");
    Files.writeString(env, "{\"RUNNER_TYPE\": \"h200\", \"FRAMEWORK\": \"vllm\", \"PRECISION\": \"fp8\","
        + " \"SPEC_DECODING\": \"none\", \"RESULT_FILENAME\": \"x\", \"ISL\": \"1\", \"OSL\": \"1\","
        + " \"DISAGG\": \"false\", \"MODEL_PREFIX\": \"m\", \"IMAGE\": \"i\"}");
    Run r = run("results", "process", "--env-file", env.toString(), "--dir", tmp.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).contains("raw result file not found").contains("x.json");
  }

  @Test
  void allProcessesAMultiNodeGroupFromItsFileNames() throws Exception {
    Path env = tmp.resolve("env.json");
    Files.writeString(env, "{\"RUNNER_TYPE\": \"gb200\", \"FRAMEWORK\": \"dynamo-trt\","
        + " \"PRECISION\": \"fp4\", \"SPEC_DECODING\": \"none\", \"RESULT_FILENAME\": \"g\","
        + " \"ISL\": \"1024\", \"OSL\": \"1024\", \"DISAGG\": \"true\", \"MODEL_PREFIX\": \"dsr1\","
        + " \"IMAGE\": \"i\", \"CONC_LIST\": \"4 8\", \"PREFILL_NUM_WORKERS\": \"1\","
        + " \"PREFILL_TP\": \"4\", \"PREFILL_EP\": \"4\", \"PREFILL_DP_ATTN\": \"false\","
        + " \"DECODE_NUM_WORKERS\": \"1\", \"DECODE_TP\": \"8\", \"DECODE_EP\": \"8\","
        + " \"DECODE_DP_ATTN\": \"true\"}");
    Path work = Files.createDirectory(tmp.resolve("group"));
    Files.writeString(work.resolve("g_x_conc4_gpus_12_ctx_4_gen_8.json"), "{\"model_id\": \"m\","
        + " \"max_concurrency\": 4, \"total_token_throughput\": 1200.0, \"output_throughput\": 800.0}");
    Run r = run("results", "process", "--all", "--env-file", env.toString(), "--dir", work.toString());
    assertThat(r.status()).isEqualTo(1);
    JsonNode summary = Json.mapper().readTree(r.out());
    assertThat(summary.get("missing_concurrencies").get(0).intValue()).isEqualTo(8);
    assertThat(summary.get("points").get(0).get("exit_code").intValue()).isZero();
    assertThat(r.err()).contains("missing concurrencies [8]");
    assertThat(work.resolve("agg_g_x_conc4_gpus_12_ctx_4_gen_8.json")).exists();
  }
}
