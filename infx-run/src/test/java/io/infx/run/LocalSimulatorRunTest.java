package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default {@code local} adapter for real: embedded simulator, in-process client, normalizer. */
class LocalSimulatorRunTest {

  @TempDir Path tmp;

  @Test
  void pointsRunOnTheEmbeddedSimulatorAndNormalize() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 256, 16, "[1, 4]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);

    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .promptsPerConc(3).build()).run(RunListener.NONE);

    assertThat(out.points()).allSatisfy(o ->
        assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED));
    JsonNode rows = Json.mapper().readTree(out.layout().collectedFile().toFile());
    assertThat(rows).hasSize(2);
    for (JsonNode r : rows) {
      assertThat(r.get("hw").asText()).isEqualTo("h200");
      assertThat(r.get("model").asText()).isEqualTo("org/model");
      assertThat(r.get("tp").asInt()).isEqualTo(8);
      assertThat(r.get("isl").asInt()).isEqualTo(256);
      assertThat(r.get("tput_per_gpu").asDouble()).isPositive();
      assertThat(r.get("median_ttft").asDouble()).isPositive();
      // TP8 row: the simulator's step is 2 ms × (1/8 + 0.15 × 7/8) = 0.51 ms (docs/simulator.md),
      // so at most ~1,950 tok/s/user; a loaded machine only makes steps longer
      assertThat(r.get("median_intvty").asDouble()).isBetween(20.0, 1960.0);
      assertThat(r.get("simulated").asBoolean()).isTrue();
      assertThat(r.get("server_engine").asText()).isEqualTo("infx-sim");
    }
    assertThat(rows.get(1).get("conc").asInt()).isEqualTo(4);
    JsonNode raw = Json.mapper().readTree(out.layout().pointDir(out.plan().points().get(1).resultFilename())
        .resolve(out.plan().points().get(1).resultFilename() + ".json").toFile());
    assertThat(raw.get("num_prompts").asInt()).isEqualTo(12);         // 3 per unit of concurrency
    assertThat(raw.get("max_concurrency").asInt()).isEqualTo(4);
    assertThat(raw.get("completed").asInt()).isEqualTo(12);
    // launched through infx-fleet: the point's workspace has the fleet's launch record
    Path work = out.layout().pointDir(out.plan().points().get(1).resultFilename());
    JsonNode event = Json.mapper().readTree(work.resolve("job_event.json").toFile());
    assertThat(event.get("identity").get("adapter").asText()).isEqualTo("local");
    assertThat(event.get("outcome").asText()).isEqualTo("succeeded");
    assertThat(work.resolve("launch.env")).content().contains("CONC=4\n")
        .contains("INFX_CLUSTER_NOTE=from the cluster record\n");  // runners.yaml cluster record
  }

  @Test
  void agentxPointsReplayTracesAndAggregateLikeTheReference() throws Exception {
    Path examples = TestConfigs.examples();
    RunOutcome out = BenchmarkRun.of(RunOptions.builder()
        .addConfigFiles(examples.resolve("example-master.yaml"))
        .selection(Selection.parse(java.util.List.of("--scenario-type", "agentic-coding", "--max-conc", "4")))
        .agenticDuration(java.time.Duration.ofSeconds(4))
        .traceSource("synthetic:traces=4,turns=4")
        .out(tmp.resolve("out")).build()).run(RunListener.NONE);

    assertThat(out.points()).hasSize(1);
    PointOutcome o = out.points().get(0);
    assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED);
    String rf = o.point().resultFilename();
    assertThat(o.point().env().get("DURATION")).hasValue("4");
    Path work = out.layout().pointDir(rf);
    assertThat(work.resolve("results/aiperf_artifacts/profile_export.jsonl")).exists();
    // the reference's artifact: bmk_agentic_<RF>/<RF>.json, collected with the fixed rows
    assertThat(out.layout().artifactAggregate(rf, true)).exists();
    JsonNode rows = Json.mapper().readTree(out.layout().collectedFile().toFile());
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("scenario_type").asText()).isEqualTo("agentic-coding");
    assertThat(rows.get(0).get("conc").asInt()).isEqualTo(4);
    assertThat(out.collected().points()).hasSize(1);
    assertThat(out.collected().points().get(0).workload()).endsWith("AgentX");
    // replayed on the simulator: marked like the fixed-sequence rows, in the row, the point
    // artifact and the label the summary table and the HTML report print
    assertThat(rows.get(0).get("simulated").asBoolean(false)).isTrue();
    assertThat(rows.get(0).get("server_engine").asText()).isEqualTo("infx-sim");
    assertThat(Json.mapper().readTree(out.layout().artifactAggregate(rf, true).toFile())
        .path("simulated").asBoolean(false)).isTrue();
    assertThat(out.collected().points().get(0).config()).startsWith("SIMULATED");
  }
}
