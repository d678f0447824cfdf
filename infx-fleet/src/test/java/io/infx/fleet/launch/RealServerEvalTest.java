package io.infx.fleet.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.EvalSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.results.evals.EvalThresholds;
import io.infx.results.evals.ScoreValidator;
import io.infx.results.evals.ValidationOptions;
import io.infx.results.evals.ValidationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An eval-only point against the real llama.cpp server of {@code shared/realserver} (a
 * random-weight tiny LLaMA: its answers are gibberish): the fleet starts llama-server as the
 * point's server, an lm-eval-like client (test resource {@code evals/mini-gsm8k.sh}, curl + jq)
 * asks it GSM8K-style questions through {@code /v1/chat/completions} and scores them like lm-eval's
 * gsm8k task, the output is staged, and the score gate with InferenceX's thresholds must fail.
 * Skipped when the real server, curl or jq is not available.
 */
class RealServerEvalTest {

  @TempDir Path out;

  private static Path realServer() {
    String env = System.getenv("INFX_SHARED");
    Path shared = env != null && !env.isBlank() ? Path.of(env)
        : Path.of(System.getProperty("infx.repo.root", "..")).toAbsolutePath().normalize().resolveSibling("shared");
    return shared.resolve("realserver");
  }

  private static boolean onPath(String tool) throws Exception {
    return new ProcessBuilder("bash", "-c", "command -v " + tool).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
  }

  @Test
  void gibberishAnswersFailTheScoreGate() throws Exception {
    Path rs = realServer();
    Path server = rs.resolve("bin/llama-server");
    Path model = rs.resolve("models/tiny-llama-2L-128d.gguf");
    Assumptions.assumeTrue(Files.isExecutable(server) && Files.isRegularFile(model),
        "real llama-server not found under " + rs + " (set INFX_SHARED); skipping");
    Assumptions.assumeTrue(onPath("curl") && onPath("jq"), "curl and jq are needed by the eval client; skipping");
    String client = Path.of(RealServerEvalTest.class.getResource("/evals/mini-gsm8k.sh").toURI()).toString();

    var row = TestRows.json(TestRows.singleNode(256, 32, 2));
    row.put("eval-only", true);
    row.put("run-eval", true);
    LaunchResult r = FleetLauncher.builder().row(io.infx.fleet.TestRows.of(row))
        .runner(RunnerName.of("local_0")).workspace(out)
        .server(new ServerSpec.Command("exec '" + server + "' -m '" + model + "' -a tiny --host 127.0.0.1 "
            + "--port \"$PORT\" -np 2 -c 4096 -t 1 --no-webui"))
        .readinessTimeout(Duration.ofSeconds(90))
        .client(ClientSettings.builder().eval(EvalSettings.builder().command("bash '" + client + "'").build()).build())
        .launch();
    assertThat(r.error()).as("launch").isEmpty();
    assertThat(r.exitCode()).isZero();

    Path results = out.resolve("results_2026-12-01T12-00-00.000000_conc2.json");
    assertThat(results).exists();
    // the answers really came from the server (five non-empty completions)
    List<String> samples = Files.readAllLines(out.resolve("samples_gsm8k_2026-12-01T12-00-00.000000_conc2.jsonl"));
    assertThat(samples).hasSize(5).allSatisfy(line -> assertThat(
        Json.mapper().readTree(line).get("resps").get(0).get(0).asText()).isNotBlank());
    assertThat(out.resolve("server.log")).content().isNotEmpty();

    Path thresholds = out.resolve("thresholds.yaml");
    AtomicFiles.writeString(thresholds, EvalThresholds.referenceText());
    ValidationReport gate = ScoreValidator.validate(ValidationOptions.builder().workingDir(out)
        .thresholds(thresholds.toString()).expectedConcs("2").environmentModelPrefix("qwen3").build());
    assertThat(gate.exitCode()).isEqualTo(1);
    assertThat(gate.manifestErrors()).isEmpty();
    assertThat(gate.failures()).isNotEmpty().allSatisfy(c -> {
      assertThat(c.task()).isEqualTo("gsm8k");
      assertThat(c.threshold().source()).isEqualTo("default");       // no qwen3 override: 0.9
      assertThat(c.value()).isLessThan(0.9);
    });
    JsonNode meta = Json.mapper().readTree(out.resolve("meta_env.json").toFile());
    assertThat(meta.get("completed_eval_concs").toString()).isEqualTo("[2]");
  }
}
