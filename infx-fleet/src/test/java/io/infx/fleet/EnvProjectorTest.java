package io.infx.fleet;

import io.infx.core.ErrorKind;
import io.infx.matrix.MatrixRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class EnvProjectorTest {

  private static final String ROW = """
      {"image": "vllm/vllm-openai:v0.27.1", "model": "Qwen/Qwen3.5", "model-prefix": "qwen3.5",
       "precision": "fp8", "framework": "vllm", "runner": "b200", "isl": 8192, "osl": 1024,
       "tp": 8, "pp": 1, "dcp-size": 1, "pcp-size": 1, "conc": 2, "max-model-len": 9472, "ep": 1,
       "dp-attn": false, "spec-decoding": "none", "exp-name": "qwen3.5_8k1k", "disagg": false,
       "run-eval": false}
      """;

  private static LaunchEnv project(MatrixRow row) {
    return EnvProjector.standard().project(row, RunnerName.of("b200-nb_1"), RunContext.defaults());
  }

  @Test
  void rowFileProblemsAreReportedByTheRowWithFileLineAndColumn() {
    String broken = """
        {"image": "i", "model": "m", "model-prefix": "p", "precision": "fp8",
         "framework": "vllm", "runner": "b200", "isl": "8k", "osl": 1024, "max-model-len": 9472,
         "tp": 8, "pp": 1, "dcp-size": 1, "pcp-size": 0, "conc": 2, "ep": 1, "dp-attn": "maybe",
         "spec-decoding": "none", "disagg": false, "run-eval": false}
        """;
    // the typed row checks its own schema once (rule V61); the projection never re-validates
    assertThatThrownBy(() -> MatrixRow.parse(broken, "row.json"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          List<String> lines = e.violations().stream().map(Violation::render).toList();
          assertThat(lines).containsExactlyInAnyOrder(
              "row.json:1:1: [V61.exp-name] /exp-name: Field required (SingleNodeMatrixEntry)",
              "row.json:2:48: [V61.isl] /isl: Input should be a valid integer (SingleNodeMatrixEntry)",
              "row.json:3:47: [V61.pcp-size] /pcp-size: Input should be greater than 0 (SingleNodeMatrixEntry)",
              "row.json:3:81: [V61.dp-attn] /dp-attn: Input should be a valid boolean (SingleNodeMatrixEntry)");
          assertThat(e.kind()).isEqualTo(ErrorKind.ROW_VALIDATION);
        });
  }

  @Test
  void aSingleNodeRowWithSeveralConcurrenciesIsRefusedWhereItsConcIs() {
    // the schema allows int | list[int]; a single-node launch runs exactly one
    MatrixRow row = MatrixRow.parse(ROW.replace("\"conc\": 2", "\"conc\": [2, 4]"), "row.json");
    assertThatThrownBy(() -> project(row))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(Violation::render)
            .containsExactly("row.json:3:58: [fleet.row.conc] /conc: a single-node row runs one concurrency;"
                + " 'conc' holds 2 values"));
    MatrixRow one = MatrixRow.parse(ROW.replace("\"conc\": 2", "\"conc\": [2]"), "row.json");
    assertThat(project(one).values()).containsEntry("CONC", "2");
  }

  @Test
  void rowFileErrorsNameTheFileAndPosition() {
    assertThatThrownBy(() -> MatrixRow.parse("{\"tp\": 8,\n \"tp\": 4}", "r.json"))
        .isInstanceOf(InfxException.class).hasMessageStartingWith("r.json:2:")
        .hasMessageContaining("Duplicate field 'tp'");
    assertThatThrownBy(() -> MatrixRow.parse("[{}, {}]", "rows.json"))
        .hasMessageContaining("holds a JSON array of 2 rows");
  }

  @Test
  void rowFieldsTheTableDoesNotProjectAreForwardedInUpperSnakeAfterTheTable() {
    ObjectNode json = TestRows.json(MatrixRow.parse(ROW, "r"));
    json.put("srt-recipe", "recipes/x.yaml");
    json.put("eval-suite", "gsm8k");
    LaunchEnv env = project(TestRows.of(json));
    assertThat(env.values()).containsEntry("SRT_RECIPE", "recipes/x.yaml").containsEntry("EVAL_SUITE", "gsm8k");
    var keys = List.copyOf(env.values().keySet());
    assertThat(keys.indexOf("SRT_RECIPE")).isGreaterThan(keys.indexOf("SWEBENCH_GEN_MODE"))
        .isLessThan(keys.indexOf("RANDOM_RANGE_RATIO"));
    assertThat(keys.indexOf("EVAL_SUITE")).isGreaterThan(keys.indexOf("SRT_RECIPE"));
    // keys outside the row's schema never reach a launch: the row refuses them
    json.put("my.custom-key", 7);
    assertThatThrownBy(() -> TestRows.of(json)).hasMessageContaining("[V61.extra] /my.custom-key");
  }

  @Test
  void overlayNeverReplacesThePointsOwnSettings() {
    LaunchEnv env = new LaunchEnv(Map.of("A", "1", "MODEL_PATH", "/point"), java.util.Set.of(),
        java.util.Set.of("MODEL_PATH"));
    LaunchEnv layered = env.withOverlay(Map.of("A", "2", "MODEL_PATH", "/cluster", "B", "3"));
    assertThat(layered.values()).containsEntry("A", "2").containsEntry("MODEL_PATH", "/point").containsEntry("B", "3");
  }

  private static final Pattern SINGLE = Pattern.compile(
      "^(?<exp>.+)_(?<prec>[^_]+)_(?<fw>[^_]+)_tp(?<tp>\\d+)-pp(?<pp>\\d+)-dcp(?<dcp>\\d+)-pcp(?<pcp>\\d+)"
          + "-ep(?<ep>\\d+)-dpa(?<dpa>true|false)_disagg-false_spec-(?<spec>[^_]+(?:_model)?)_conc(?<conc>\\d+)"
          + "_(?<runner>.+)$");

  @Test
  void singleNodeNamesParseBackToTheirTopology() {
    qt().forAll(integers().between(1, 64), integers().between(1, 8), integers().between(1, 8),
            integers().between(1, 512))
        .checkAssert((tp, pp, pcp, conc) -> {
          boolean dpa = conc % 2 == 0;
          ObjectNode json = TestRows.json(MatrixRow.parse(ROW, "r"));
          json.put("tp", tp).put("pp", pp).put("pcp-size", pcp).put("ep", tp).put("conc", conc).put("dp-attn", dpa);
          LaunchEnv env = project(TestRows.of(json));
          Matcher m = SINGLE.matcher(env.resultFilename());
          assertThat(m.matches()).as(env.resultFilename()).isTrue();
          assertThat(m.group("tp")).isEqualTo(tp.toString());
          assertThat(m.group("pp")).isEqualTo(pp.toString());
          assertThat(m.group("pcp")).isEqualTo(pcp.toString());
          assertThat(m.group("conc")).isEqualTo(conc.toString());
          assertThat(m.group("dpa")).isEqualTo(Boolean.toString(dpa));
          assertThat(m.group("runner")).isEqualTo("b200-nb_1");
          assertThat(env.values().get("GPU_COUNT")).isEqualTo(Long.toString((long) tp * pp * pcp));
        });
  }

  @Test
  void everyRowOfTheMatrixCorpusProjects() {
    List<ObjectNode> rows = SharedCorpus.allMatrixRows();
    assertThat(rows).hasSizeGreaterThan(1000);
    for (ObjectNode json : rows) {
      MatrixRow row = TestRows.of(json);
      LaunchEnv env = project(row);
      String rf = env.resultFilename();
      assertThat(rf).as(json.toString()).startsWith(json.get("exp-name").asText() + "_")
          .endsWith("_b200-nb_1" + (json.has("recipe-fingerprint")
              ? "_recipe-" + json.get("recipe-fingerprint").asText().substring(0, 16) : ""))
          .doesNotContain("/").doesNotContain(" ");
      assertThat(env.values().get("IS_MULTINODE")).isEqualTo(row.multiNode() ? "true" : "false");
      assertThat(env.values().get("RUNNER_TYPE")).isEqualTo(json.get("runner").asText());
      if (row.agentic()) {
        assertThat(env.values()).containsEntry("ISL", "0").containsEntry("IS_AGENTIC", "1");
      }
      assertThat(ArtifactPlan.of(row, rf).names()).last().isEqualTo("job_event_" + rf);
    }
  }
}
