package io.infx.fleet.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.fleet.NoLeftoverProcesses;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.TestSimServerMain;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.spi.FailureKind;
import io.infx.fleet.spi.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The local adapter end to end: simulator or server command, client in-process, normalized result. */
@ExtendWith(NoLeftoverProcesses.class)
class LocalLaunchTest {

  @TempDir Path out;

  @Test
  void simulatorPointWritesRawAggregateAndSideFilesUnderTheResultFilename() throws Exception {
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("local_0")).workspace(out)
        .client(ClientSettings.builder().numPrompts(8).build())
        .launch();
    String rf = "qwen3_1k0k_bf16_vllm_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc2_local_0";
    assertThat(r.resultFilename()).isEqualTo(rf);
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(r.rawFile()).hasValue(out.resolve(rf + ".json"));
    assertThat(r.aggregateFile()).hasValue(out.resolve("agg_" + rf + ".json"));
    JsonNode raw = Json.mapper().readTree(out.resolve(rf + ".json").toFile());
    assertThat(raw.get("completed").asInt()).isEqualTo(8);
    assertThat(raw.get("max_concurrency").asInt()).isEqualTo(2);
    assertThat(raw.get("model_id").asText()).isEqualTo("Qwen/Qwen3-0.6B");
    JsonNode agg = Json.mapper().readTree(out.resolve("agg_" + rf + ".json").toFile());
    assertThat(agg.get("hw").asText()).isEqualTo("h200");
    assertThat(agg.get("conc").asInt()).isEqualTo(2);
    assertThat(agg.get("tp").asInt()).isEqualTo(1);
    assertThat(out.resolve("launch.env")).content().contains("RESULT_FILENAME=" + rf + "\n");
    assertThat(out.resolve("artifact_plan.json")).content().contains("\"bmk_" + rf + "\"");
    JsonNode ev = Json.mapper().readTree(out.resolve("job_event.json").toFile());
    assertThat(ev.get("outcome").asText()).isEqualTo("succeeded");
    assertThat(ev.get("identity").get("adapter").asText()).isEqualTo("local");
    assertThat(ev.get("identity").get("routing").asText()).isEqualTo("prefix local");
    assertThat(ev.get("stages").findValuesAsText("name")).contains("server", "readiness", "client",
        "cleanup:stop simulator", "normalize");
  }

  @Test
  void aChatTemplatePointWrapsItsPromptsAndRecordsTheTemplate() throws Exception {
    Path template = out.resolve("chat_template.jinja");
    Files.writeString(template, "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}"
        + "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}");
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("local_0")).workspace(out)
        .client(ClientSettings.builder().numPrompts(4).useChatTemplate(true).chatTemplate(template)
            .build())
        .launch();
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    JsonNode raw = Json.mapper().readTree(r.rawFile().orElseThrow().toFile());
    assertThat(raw.get("completed").asInt()).isEqualTo(4);
    assertThat(raw.get("infx").get("workload").get("chat_template").asText())
        .isEqualTo(template.toString());
  }

  @Test
  void serverCommandRunsAsAChildProcessWithThePointsEnvironmentAndIsStoppedAfterwards() throws Exception {
    String cp = System.getProperty("java.class.path");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> lines = new CopyOnWriteArrayList<>();
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("h200-cw_01")).adapter("local").workspace(out)
        .server(new ServerSpec.Command("exec '" + java + "' -cp '" + cp + "' " + TestSimServerMain.class.getName()))
        .client(ClientSettings.builder().numPrompts(4).tokenizer("builtin").build())
        .log((src, l) -> lines.add(src + ": " + l))
        .launch();
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(out.resolve("server.log")).content().contains("test simulator on port").contains("tp=1");
    // the log follower tails server.log on its own thread: give it time on a loaded machine
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (lines.stream().noneMatch(l -> l.startsWith("server: test simulator on port"))
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(lines).anyMatch(l -> l.startsWith("server: test simulator on port"));
    assertThat(r.aggregateFile()).isPresent();
    // NoLeftoverProcesses asserts the server JVM is gone.
  }

  @Test
  void aServerThatDiesBeforeReadyFailsTheLaunchAtTheServerStage() throws Exception {
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("local_0")).workspace(out)
        .server(new ServerSpec.Command("echo 'CUDA out of memory' >&2; exit 3"))
        .launch();
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.status().state()).isEqualTo(JobState.FAILED);
    assertThat(r.error()).hasValueSatisfying(e -> {
      assertThat(e.stage()).isEqualTo("readiness");
      assertThat(e.kind()).isEqualTo(FailureKind.SERVER);
      assertThat(e.message()).contains("exited with code 3");
    });
    assertThat(r.rawFile()).isEmpty();
    assertThat(out.resolve("server.log")).content().contains("CUDA out of memory");
    assertThat(out.resolve("job_event.json")).content().contains("\"outcome\" : \"failed\"");
  }

  @Test
  void aServerThatNeverBecomesReadyTimesOutAndIsKilled() {
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("local_0")).workspace(out)
        .server(new ServerSpec.Command("while true; do sleep 1; done"))
        .readinessTimeout(Duration.ofSeconds(2))
        .launch();
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.error().orElseThrow().message()).contains("not ready after 2 s");
  }

  @Test
  void evalOnlyRowsRunTheEvalInsteadOfTheLoadGenerator() throws Exception {
    var json = TestRows.json(TestRows.singleNode(1024, 128, 2));
    json.put("eval-only", true);
    json.put("run-eval", true);
    // a stand-in eval tool: asks the launched server, then writes lm-eval-shaped output (two levels deep)
    String evalCmd = "curl -sf \"$OPENAI_BASE_URL/models\" > /dev/null && mkdir -p \"$EVAL_RESULT_DIR/org__m\" && "
        + "printf '{\"lm_eval_version\": \"0.4.9\", \"results\": {\"gsm8k\": {\"exact_match,strict-match\": 0.9}}}' "
        + "> \"$EVAL_RESULT_DIR/org__m/results_t.json\" && printf '{}\\n' > \"$EVAL_RESULT_DIR/org__m/samples_gsm8k_t.jsonl\"";
    LaunchResult r = FleetLauncher.builder().row(io.infx.fleet.TestRows.of(json))
        .runner(RunnerName.of("local_0")).workspace(out)
        .client(io.infx.fleet.bench.ClientSettings.builder()
            .eval(io.infx.fleet.bench.EvalSettings.builder().command(evalCmd).build()).build())
        .launch();
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(r.rawFile()).as("no load generator for an eval-only row").isEmpty();
    assertThat(r.env().get("EVAL_ONLY")).contains("true");
    assertThat(out.resolve("results_t_conc2.json")).exists();
    assertThat(out.resolve("samples_gsm8k_t_conc2.jsonl")).exists();
    assertThat(out.resolve("eval_out")).doesNotExist();
    assertThat(out.resolve("meta_env.json")).content().contains("\"eval_concs\": [2],\n")
        .contains("\"completed_eval_concs\": [2],\n").contains("\"failed_eval_concs\": [],\n");
  }

  @Test
  void anEvalToolThatIsNotInstalledFailsTheEvalStep() throws Exception {
    var json = TestRows.json(TestRows.singleNode(1024, 128, 2));
    json.put("eval-only", true);
    LaunchResult r = FleetLauncher.builder().row(io.infx.fleet.TestRows.of(json))
        .runner(RunnerName.of("local_0")).workspace(out)
        .client(io.infx.fleet.bench.ClientSettings.builder()
            .eval(io.infx.fleet.bench.EvalSettings.builder().command("no-such-eval-tool-xyz --run").build()).build())
        .launch();
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.error().orElseThrow().stage()).isEqualTo("eval");
    assertThat(r.error().orElseThrow().message()).contains("'no-such-eval-tool-xyz' was not found");
    assertThat(out.resolve("meta_env.json")).content().contains("\"failed_eval_concs\": [2],\n");
  }

  @Test
  void unroutableRunnerIsAUsageError() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> FleetLauncher.builder()
            .row(TestRows.singleNode(1024, 128, 2)).runner(RunnerName.of("nowhere_1")).workspace(out).launch())
        .isInstanceOf(io.infx.core.UsageException.class)
        .hasMessageContaining("no adapter for runner 'nowhere_1'").hasMessageContaining("pass adapter ");
  }
}
