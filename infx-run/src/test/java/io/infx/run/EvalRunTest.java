package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.fleet.bench.EvalSettings;
import io.infx.results.evals.EvalRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Eval points end to end on the local adapter: the embedded simulator is launched through the
 * fleet, a fake lm-eval (test resource {@code evals/fake-lm-eval.sh}: checks the server answers on
 * {@code $PORT}, writes lm-eval-shaped output) runs against it, its output is staged and
 * {@code meta_env.json} written as benchmark_lib.sh does, the score gate runs with InferenceX's
 * thresholds (dsr1 gsm8k ≥ 0.91), and the run collects {@code eval_results_all/agg_eval_all.json}.
 */
class EvalRunTest {

  @TempDir Path tmp;
  private Path cfg;
  private String fakeEval;

  /** An 8k1k dsr1 entry: the eval policy picks its conc-32 row (the highest concurrency). */
  private static final String CONFIG = """
      dsr1-sim:
        image: img:1
        model: deepseek-ai/DeepSeek-R1-0528
        model-prefix: dsr1
        precision: fp8
        framework: sglang
        runner: h200
        multinode: false
        scenarios:
          fixed-seq-len:
          - isl: 8192
            osl: 1024
            search-space:
            - { tp: 8, conc-list: [16, 32] }
      """;

  @BeforeEach
  void setUp() throws Exception {
    cfg = TestConfigs.write(tmp, "m.yaml", CONFIG);
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    fakeEval = Path.of(EvalRunTest.class.getResource("/evals/fake-lm-eval.sh").toURI()).toString();
  }

  private ImmutableRunOptions.Builder evalsOnly(String evalCommand) {
    return RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .selection(Selection.parse(List.of("--evals-only")))
        .eval(EvalSettings.builder().command(evalCommand).build());
  }

  @Test
  void evalOnlyPointsRunTheEvalCollectAndPassTheGate() throws Exception {
    RunOutcome out = BenchmarkRun.of(evalsOnly("bash " + fakeEval).build()).run(RunListener.NONE);

    assertThat(out.points()).hasSize(1).allSatisfy(o ->
        assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED));
    assertThat(out.exitCode()).isZero();
    PlannedPoint p16 = out.plan().points().get(0);
    assertThat(p16.conc()).containsExactly(32);
    assertThat(p16.env().get("EVAL_ONLY")).contains("true");
    Path work = out.layout().pointDir(p16.resultFilename());
    // staged as _stage_lm_eval_artifacts does: flat, _conc<N> suffix, result dir removed
    assertThat(work.resolve("results_2026-12-01T12-00-00.000000_conc32.json")).exists();
    assertThat(work.resolve("samples_gsm8k_2026-12-01T12-00-00.000000_conc32.jsonl")).exists();
    assertThat(work.resolve("eval_out")).doesNotExist();
    assertThat(work.resolve(p16.resultFilename() + ".json")).as("no throughput run").doesNotExist();
    JsonNode meta = Json.mapper().readTree(work.resolve("meta_env.json").toFile());
    assertThat(meta.get("infmax_model_prefix").asText()).isEqualTo("dsr1");
    assertThat(meta.get("hw").asText()).isEqualTo("h200");
    assertThat(meta.get("conc").asInt()).isEqualTo(32);
    assertThat(meta.get("tp").asInt()).isEqualTo(8);
    assertThat(meta.get("isl").asText()).isEqualTo("8192");
    assertThat(meta.get("eval_concs").toString()).isEqualTo("[32]");
    assertThat(meta.get("completed_eval_concs").toString()).isEqualTo("[32]");
    assertThat(meta.get("failed_eval_concs").toString()).isEqualTo("[]");
    // the fake client talked to the launched server with the reference's eval concurrency
    JsonNode results = Json.mapper().readTree(work.resolve("results_2026-12-01T12-00-00.000000_conc32.json").toFile());
    assertThat(results.get("concurrency").asText()).isEqualTo("32");
    assertThat(results.get("base_url").asText()).startsWith("http://127.0.0.1:");
    assertThat(work.resolve("eval_validation.log")).content()
        .contains("PASS: [conc=32] gsm8k exact_match,strict-match = 0.9500 (>= 0.91 from models.dsr1)")
        .contains("PASS: batched eval produced every requested concurrency");

    // collected like collect-evals.yml, one row per point, with the configuration it guards
    assertThat(out.layout().evalAggregateFile()).exists();
    assertThat(out.evals()).hasSize(1);
    EvalRow r = out.evals().get(0);
    assertThat(r.conc()).isEqualTo(32);
    assertThat(r.hw()).isEqualTo("H200");
    assertThat(r.framework()).isEqualTo("sglang");
    assertThat(r.task()).isEqualTo("gsm8k");
    assertThat(r.scoreValue()).hasValue(0.95);
    assertThat(r.source()).startsWith("eval_dsr1_8k1k_").endsWith("_conc32.json");
    // the artifact as CI uploads it (eval_<exp-name>_<RESULT_FILENAME>), at the top of the run directory
    Path artifact = out.layout().evalArtifactDir("eval_dsr1_8k1k_" + p16.resultFilename());
    try (Stream<Path> s = Files.list(artifact)) {
      assertThat(s.map(d -> d.getFileName().toString()).sorted().toList()).containsExactly("meta_env.json",
          "results_2026-12-01T12-00-00.000000_conc32.json", "samples_gsm8k_2026-12-01T12-00-00.000000_conc32.jsonl");
    }
    // and the run's results store holds the eval (infx db reads it)
    try (io.infx.store.ResultStore store = io.infx.store.ResultStore.open(
        io.infx.store.StoreLocation.embedded(out.layout().dir().resolve("infx-results.mv.db")))) {
      assertThat(store.runs()).singleElement().satisfies(run -> assertThat(run.evalRows()).isEqualTo(1));
    }
    // eval-only points produce no throughput rows
    assertThat(Json.mapper().readTree(out.layout().collectedFile().toFile())).isEmpty();
  }

  @Test
  void scoresBelowThresholdFailThePointAndStayInTheAggregate() throws Exception {
    RunOutcome out = BenchmarkRun.of(evalsOnly("env FAKE_EVAL_SCORE=0.5 FAKE_EVAL_FLEX=0.93 bash " + fakeEval)
        .build()).run(RunListener.NONE);

    assertThat(out.exitCode()).isEqualTo(1);
    assertThat(out.points()).allSatisfy(o -> {
      assertThat(o.status()).isEqualTo(PointOutcome.Status.FAILED);
      assertThat(o.message()).hasValueSatisfying(m -> assertThat(m)
          .startsWith("eval score gate failed: gsm8k exact_match,strict-match = 0.5000 < 0.91 (models.dsr1)")
          .doesNotContain("flexible"));
    });
    assertThat(out.evals()).singleElement().satisfies(e -> assertThat(e.scoreValue()).hasValue(0.5));
    JsonNode run = Json.mapper().readTree(out.layout().runFile().toFile());
    assertThat(run.get("points").get(0).get("status").asText()).isEqualTo("failed");
  }

  @Test
  void aFailingEvalCommandFailsThePointAndRecordsTheFailedConcurrency() throws Exception {
    RunOutcome out = BenchmarkRun.of(evalsOnly("env FAKE_EVAL_EXIT=4 bash " + fakeEval).build())
        .run(RunListener.NONE);
    PointOutcome o = out.points().get(0);
    assertThat(o.status()).isEqualTo(PointOutcome.Status.FAILED);
    assertThat(o.message()).hasValueSatisfying(m -> assertThat(m).contains("exited with status 4"));
    JsonNode meta = Json.mapper().readTree(out.layout().pointDir(o.point().resultFilename())
        .resolve("meta_env.json").toFile());
    assertThat(meta.get("completed_eval_concs").toString()).isEqualTo("[]");
    assertThat(meta.get("failed_eval_concs").toString()).isEqualTo("[" + o.point().conc().get(0) + "]");
  }

  @Test
  void aMissingEvalToolFailsThePointWithAClearMessage() throws Exception {
    RunOutcome out = BenchmarkRun.of(evalsOnly("infx-no-such-eval-tool --tasks gsm8k").build())
        .run(RunListener.NONE);
    assertThat(out.points()).allSatisfy(o -> {
      assertThat(o.status()).isEqualTo(PointOutcome.Status.FAILED);
      assertThat(o.message()).hasValueSatisfying(m -> assertThat(m)
          .contains("'infx-no-such-eval-tool' was not found").contains("yours to install"));
    });
  }

  @Test
  void runEvalRowsMeasureThroughputAndThenEvalOnTheSameServer() throws Exception {
    // default eval policy: the conc-32 row of the 8k1k entry carries run-eval: true
    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .selection(Selection.parse(List.of("--min-conc", "32")))
        .promptsPerConc(1).warmupsPerConc(0)
        .simulator(io.infx.client.sim.SimConfig.builder().prefillTokensPerSecond(2_000_000).build())
        .eval(EvalSettings.builder().command("bash " + fakeEval).limit(50).build())
        .build()).run(RunListener.NONE);

    PointOutcome o = out.points().get(0);
    assertThat(o.point().env().get("RUN_EVAL")).contains("true");
    assertThat(o.point().env().get("EVAL_ONLY")).contains("false");
    assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED);
    assertThat(Json.mapper().readTree(out.layout().collectedFile().toFile())).hasSize(1);
    assertThat(out.evals()).singleElement().satisfies(e -> {
      assertThat(e.conc()).isEqualTo(32);
      assertThat(e.nEff().asInt()).isEqualTo(50);          // --eval-limit reached the tool as EVAL_LIMIT
    });
    // the report shows the score next to the throughput it guards: the row of the conc-32 point
    String html = Files.readString(out.report().orElseThrow().html());
    assertThat(html).contains("<th class=\"text\">Eval score</th>").contains("<h2>Evals</h2>");
    JsonNode agg = Json.mapper().readTree(out.layout().collectedFile().toFile()).get(0);
    String tput = String.format(java.util.Locale.ROOT, "%,.1f", agg.get("tput_per_gpu").asDouble());
    assertThat(html).containsPattern("<td>32</td><td class=\"text\">gsm8k</td><td>95\\.00% ±0\\.59%</td><td>"
        + java.util.regex.Pattern.quote(tput) + "</td>");
    assertThat(html).contains("gsm8k 95.00% ±0.59%</td></tr>");
  }

  @Test
  void withoutAnEvalCommandLmEvalMustBeInstalled() throws Exception {
    Process probe = new ProcessBuilder("bash", "-c", "python3 -c 'import lm_eval'").redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    org.junit.jupiter.api.Assumptions.assumeTrue(probe.waitFor() != 0,
        "lm_eval is installed here; the missing-tool message cannot be observed");
    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .selection(Selection.parse(List.of("--evals-only"))).build()).run(RunListener.NONE);
    assertThat(out.points()).singleElement().satisfies(o -> {
      assertThat(o.status()).isEqualTo(PointOutcome.Status.FAILED);
      assertThat(o.message()).hasValueSatisfying(m -> assertThat(m)
          .contains(io.infx.fleet.bench.EvalStep.LM_EVAL_MISSING));
    });
  }
}
