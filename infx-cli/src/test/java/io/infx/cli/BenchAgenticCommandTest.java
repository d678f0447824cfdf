package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench agentic} → {@code results agentic-aggregate} → {@code results agentic-validate}. */
class BenchAgenticCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private final CliHarness cli = new CliHarness();

  private int run(String... args) {
    return cli.run(args);
  }

  @Test
  void replaysAgainstTheSimulatorThenAggregatesAndValidates() throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.builder().blockSize(64).build())) {
      Path results = tmp.resolve("results");
      int code = run("bench", "agentic", "--base-url", sim.baseUri().toString(), "--model", "infx-sim",
          "--users", "3", "--trace", "synthetic:traces=5,turns=6,api=0.02,think=0.02,out=16",
          "--duration", "2", "--warmup-requests-per-lane", "1", "--result-dir", results.toString(),
          "--run-id", "cli-test", "--tokenizer", "builtin");
      assertThat(code).as(cli.err()).isZero();
      assertThat(cli.out()).contains("Successful requests:").contains("Submission valid:")
          .contains("unsafe_override");
      // the live line on stderr, like bench serve's: warm-up against its quota (3 primers + 3 × 1),
      // then the 2 s window with its time left; the last line is ended
      assertThat(cli.err()).contains("\rwarm-up  |").contains("/6 done [")
          .containsPattern("\rprofiling \\|[# ]{30}\\| \\d+ done \\[\\d+s, [\\d.]+ req/s, \\d+ in flight, \\d+ errors?, 0:0[0-2] left\\]")
          .contains("\rdrain    |");
      assertThat(results.resolve("aiperf_artifacts/profile_export.jsonl")).exists();
      assertThat(results.resolve("aiperf_artifacts/server_metrics_export.json")).exists();

      Path env = tmp.resolve("run.env");
      Files.writeString(env, "MODEL=infx-sim\nFRAMEWORK=vllm\nTP=1\nCONC=3\nKV_OFFLOADING=none\n"
          + "HF_HUB_CACHE=" + tmp.resolve("no-hf") + "\n");
      assertThat(run("results", "agentic-aggregate", "--env-file", env.toString(), "--result-dir",
          results.toString(), "--out", "-")).as(cli.err()).isZero();
      JsonNode agg = JSON.readTree(cli.out());
      assertThat(agg.get("num_requests_successful").asLong()).isPositive();
      assertThat(agg.at("/request_accounting/records_warmup_dropped").asLong()).isEqualTo(6);
      assertThat(agg.at("/server_metrics/adapter").asText()).isEqualTo("vllm");
      assertThat(agg.at("/server_metrics/cache/gpu_cache_hit_rate").asDouble()).isPositive();
      assertThat(agg.at("/request_metrics/cache/theoretical_cache_hit_rate").asDouble()).isBetween(0.3, 1.0);
      assertThat(agg.at("/request_metrics/throughput/per_gpu/total_tput_tps").asDouble()).isPositive();
      // a 2 s window is no submission: the stamp reaches the aggregate and fails the gate
      assertThat(agg.get("submission_valid").booleanValue()).isFalse();
      assertThat(agg.get("submission_invalid_reasons").toString()).contains("unsafe_override");

      assertThat(run("results", "agentic-validate", results.resolve("aiperf_artifacts").toString(),
          "--failed-request-threshold", "0.10")).isEqualTo(1);
      assertThat(cli.err()).contains("not a valid submission").contains("submission_valid=false (unsafe_override)");
      assertThat(run("results", "agentic-validate", results.resolve("aiperf_artifacts").toString(),
          "--failed-request-threshold", "0.10", "--allow-invalid-submission")).isZero();
      assertThat(cli.out()).startsWith("Validated aiperf request error rate: 0/");
    }
  }

  @Test
  void noProgressKeepsStderrFreeOfTheLiveLine() throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.builder().blockSize(64).build())) {
      int code = run("bench", "agentic", "--base-url", sim.baseUri().toString(), "--model", "infx-sim",
          "--users", "1", "--trace", "synthetic:traces=2,turns=3,api=0.02,think=0.02,out=8",
          "--duration", "1", "--warmup-requests-per-lane", "0", "--result-dir", tmp.resolve("r").toString(),
          "--tokenizer", "builtin", "--no-progress");
      assertThat(code).as(cli.err()).isZero();
      assertThat(cli.err()).doesNotContain("\r").doesNotContain(" done [");
    }
  }

  @Test
  void badArgumentsAreUsageErrors() {
    assertThat(run("bench", "agentic", "--model", "m", "--users", "0", "--trace", "synthetic")).isEqualTo(2);
    assertThat(cli.err()).contains("--users must be >= 1");
    assertThat(run("bench", "agentic", "--model", "m", "--users", "1", "--trace", "synthetic:bogus=1")).isEqualTo(2);
    assertThat(cli.err()).contains("unknown key 'bogus'");
    assertThat(run("bench", "agentic", "--model", "m", "--users", "1", "--trace", "no_such_loader")).isEqualTo(1);
    assertThat(cli.err()).contains("unknown trace source 'no_such_loader'");
  }
}
