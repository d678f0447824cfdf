package io.infx.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The typed, sealed row and its field table: reading, typed accessors, schema order. */
class MatrixRowTest {

  private static final String ROW = """
      {"image": "vllm/vllm-openai:v0.27.1", "model": "Qwen/Qwen3.5", "model-prefix": "qwen3.5",
       "precision": "fp8", "framework": "vllm", "runner": "b200", "isl": 8192, "osl": 1024,
       "tp": 8, "pp": 1, "dcp-size": 1, "pcp-size": 2, "conc": 2, "max-model-len": 9472, "ep": 4,
       "dp-attn": true, "spec-decoding": "mtp", "exp-name": "qwen3.5_8k1k", "disagg": false,
       "run-eval": false}
      """;

  @Test
  void typedAccessorsReadTheRowsValues() {
    MatrixRow row = MatrixRow.parse(ROW, "row.json");
    assertThat(row).isInstanceOf(MatrixRow.SingleNode.class);
    var sn = (MatrixRow.SingleNode) row;
    assertThat(List.of(sn.isl(), sn.osl(), sn.maxModelLen(), sn.tp(), sn.pp(), sn.dcpSize(), sn.pcpSize(), sn.ep()))
        .containsExactly(8192, 1024, 9472, 8, 1, 1, 2, 4);
    assertThat(sn.dpAttn()).isTrue();
    assertThat(sn.requirePower()).isFalse();
    assertThat(row.modelPrefix()).isEqualTo("qwen3.5");
    assertThat(row.specDecoding()).isEqualTo("mtp");
    assertThat(row.conc()).containsExactly(2);
    assertThat(row.evalOnly()).isFalse();
    assertThat(row.family()).isEqualTo("8k1k");
    assertThat(row.schemaForm()).containsEntry("eval-only", false).containsEntry("require-power", false);
  }

  @Test
  void everyProblemOfARowFileIsReportedWithFileLineAndColumn() {
    String broken = """
        {"image": "i", "model": "m", "model-prefix": "p", "precision": "fp8",
         "framework": "vllm", "runner": "b200", "isl": "8k", "osl": 1024, "max-model-len": 9472,
         "tp": 8, "pp": 1, "dcp-size": 1, "pcp-size": 0, "conc": 2, "ep": 1, "dp-attn": "maybe",
         "spec-decoding": "none", "disagg": false, "run-eval": false, "surprise": 1}
        """;
    assertThatThrownBy(() -> MatrixRow.parse(broken, "row.json"))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.ROW_VALIDATION);
          assertThat(e.violations().stream().map(Violation::render)).containsExactlyInAnyOrder(
              "row.json:4:75: [V61.extra] /surprise: Extra inputs are not permitted (SingleNodeMatrixEntry)",
              "row.json:2:48: [V61.isl] /isl: Input should be a valid integer (SingleNodeMatrixEntry)",
              "row.json:3:47: [V61.pcp-size] /pcp-size: Input should be greater than 0 (SingleNodeMatrixEntry)",
              "row.json:3:81: [V61.dp-attn] /dp-attn: Input should be a valid boolean (SingleNodeMatrixEntry)",
              "row.json:1:1: [V61.exp-name] /exp-name: Field required (SingleNodeMatrixEntry)");
        });
  }

  @Test
  void textThatIsNotOneRowObjectIsRefusedWithItsPosition() {
    assertThatThrownBy(() -> MatrixRow.parse("{\"tp\": 8,\n \"tp\": 4}", "r.json"))
        .isInstanceOf(InfxException.class).hasMessageStartingWith("r.json:2:")
        .hasMessageContaining("Duplicate field 'tp'");
    assertThatThrownBy(() -> MatrixRow.parse("[{}, {}]", "rows.json"))
        .hasMessageContaining("holds a JSON array of 2 rows");
  }

  @Test
  void invariantsOfTheReferenceModelsHold() {
    String multi = ROW.replace("\"tp\": 8, \"pp\": 1, \"dcp-size\": 1, \"pcp-size\": 2, \"conc\": 2,",
        "\"node-count\": 2, \"conc\": [2, 4], \"prefill\": {\"num-worker\": 1, \"tp\": 8, \"ep\": 1,"
            + " \"dp-attn\": false, \"hardware\": \"gb200\"}, \"decode\": {\"num-worker\": 1, \"tp\": 6,"
            + " \"dcp-size\": 4, \"ep\": 1, \"dp-attn\": false},")
        .replace("\"ep\": 4,\n \"dp-attn\": true,", "").replace("\"disagg\": false", "\"disagg\": true");
    assertThatThrownBy(() -> MatrixRow.parse(multi, "m.json"))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(Violation::ruleId).containsExactly("V61.dcp-divides-tp"));
    assertThatThrownBy(() -> MatrixRow.parse(multi.replace("\"dcp-size\": 4", "\"dcp-size\": 3"), "m.json"))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(Violation::ruleId).containsExactly("V61.hardware-pair", "V61.disagg-transfer"));
    MatrixRow fixed = MatrixRow.parse(multi.replace("\"dcp-size\": 4", "\"dcp-size\": 3")
        .replace(", \"hardware\": \"gb200\"", "").replace("\"disagg\": true", "\"disagg\": true, \"kv-p2p-transfer\": \"nixl\""),
        "m.json");
    var mn = (MatrixRow.MultiNode) fixed;
    assertThat(mn.decode()).isEqualTo(new MatrixRow.RowWorker(1, 6, 1, 3, 1, 1, false, java.util.Optional.empty(), List.of()));
    assertThat(mn.kvP2pTransfer()).contains("nixl");
    assertThat(mn.conc()).containsExactly(2, 4);
  }

  /** Schema order per kind, as the reference's four pydantic models declare their fields. */
  @Test
  void schemaOrderIsTheReferenceModelsDeclarationOrder() {
    assertThat(RowKind.SINGLE_NODE.schemaFields()).containsExactly("image", "srt-recipe", "eval-srt-recipe",
        "model", "model-prefix", "precision", "framework", "spec-decoding", "runner", "isl", "osl", "require-power",
        "tp", "pp", "dcp-size", "pcp-size", "ep", "dp-attn", "conc", "max-model-len", "exp-name", "disagg",
        "run-eval", "eval-only", "eval-framework", "eval-suite", "router", "recipe-fingerprint");
    assertThat(RowKind.MULTI_NODE.schemaFields()).containsExactly("srt-recipe", "eval-srt-recipe", "image",
        "model", "model-prefix", "precision", "framework", "spec-decoding", "runner", "node-count", "isl", "osl",
        "require-power", "prefill", "decode", "conc", "max-model-len", "exp-name", "disagg", "run-eval",
        "eval-only", "eval-conc", "eval-all-concs", "eval-framework", "eval-suite", "router", "kv-p2p-transfer",
        "recipe-fingerprint");
    assertThat(RowKind.SINGLE_NODE_AGENTIC.schemaFields()).containsExactly("image", "srt-recipe",
        "eval-srt-recipe", "model", "model-prefix", "precision", "framework", "runner", "tp", "pp", "dcp-size",
        "pcp-size", "ep", "dp-attn", "spec-decoding", "conc", "kv-offloading", "kv-offload-backend", "router",
        "total-cpu-dram-gb", "duration", "exp-name", "scenario-type", "run-eval", "eval-only", "eval-framework",
        "eval-suite", "recipe-fingerprint");
    assertThat(RowKind.MULTI_NODE_AGENTIC.schemaFields()).containsExactly("srt-recipe", "eval-srt-recipe",
        "image", "model", "model-prefix", "precision", "framework", "spec-decoding", "runner", "node-count",
        "prefill", "decode", "conc", "kv-offloading", "kv-offload-backend", "router", "kv-p2p-transfer",
        "total-cpu-dram-gb", "duration", "exp-name", "disagg", "scenario-type", "run-eval", "eval-only",
        "eval-conc", "eval-framework", "eval-suite", "recipe-fingerprint");
    assertThat(RowKind.WORKER_FIELDS).containsExactly("num-worker", "tp", "pp", "dcp-size", "pcp-size", "ep",
        "dp-attn", "hardware", "additional-settings");
  }

  /** Every row of the corpus reads back through JSON as a row of its kind, byte for byte. */
  @Test
  void everyCorpusRowReadsBackTypedAndByteForByte() throws IOException {
    Path corpus = Corpus.matrix();
    List<JsonNode> rows = new ArrayList<>();
    try (Stream<Path> files = Files.walk(corpus)) {
      for (Path f : files.filter(p -> p.getFileName().toString().equals("expected.json")).sorted().toList()) {
        collect(Json.mapper().readTree(f.toFile()), rows, 0);
      }
    }
    assertThat(rows).hasSizeGreaterThan(1000);
    EnumSet<RowKind> seen = EnumSet.noneOf(RowKind.class);
    for (JsonNode json : rows) {
      String text = io.infx.core.python.PythonJson.dumps(json);
      MatrixRow row = MatrixRow.parse(text, "corpus");
      seen.add(row.kind());
      assertThat(row.toJson()).isEqualTo(text);
      assertThat(row.expName()).isEqualTo(json.get("exp-name").asText());
      if (row instanceof MatrixRow.OnOneNode one) {
        assertThat(one.tp()).isEqualTo(json.get("tp").asInt());
        assertThat(one.dpAttn()).isEqualTo(json.get("dp-attn").asBoolean());
      }
      if (row instanceof MatrixRow.OnManyNodes many) {
        assertThat(many.prefill().tp()).isEqualTo(json.get("prefill").get("tp").asInt());
        assertThat(many.decode().pp()).isEqualTo(json.get("decode").path("pp").asInt(1));
      }
      if (row instanceof MatrixRow.FixedSeqLen f) {
        assertThat(f.maxModelLen()).isEqualTo(json.get("max-model-len").asInt());
      }
      if (row instanceof MatrixRow.Agentic a) {
        assertThat(a.duration()).isEqualTo(json.get("duration").asInt());
      }
    }
    assertThat(seen).containsExactlyInAnyOrder(RowKind.values());
  }

  @Test
  void nullFollowsTheReferenceModelsSemantics() {
    // optional: null means absent; defaulted: null is refused; required: null is a type error
    MatrixRow row = MatrixRow.of(withValue("router", null));
    assertThat(row.router()).isEmpty();
    assertThat(row.schemaForm()).doesNotContainKey("router");
    assertThatThrownBy(() -> MatrixRow.of(withValue("eval-only", null)))
        .hasMessageContaining("[V61.eval-only] eval-only: Input should not be null");
    assertThatThrownBy(() -> MatrixRow.of(withValue("model", null)))
        .hasMessageContaining("[V61.model] model: Input should be a valid string");
  }

  private static Map<String, Object> withValue(String key, Object value) {
    Map<String, Object> m = new java.util.LinkedHashMap<>(MatrixRow.parse(ROW, "r").fields());
    m.put(key, value);
    return m;
  }

  private static void collect(JsonNode n, List<JsonNode> out, int depth) {
    if (n.isArray()) {
      n.forEach(e -> {
        if (e.isObject() && e.has("image")) {
          out.add(e);
        }
      });
    } else if (n.isObject() && depth < 2) {
      n.fields().forEachRemaining(e -> collect(e.getValue(), out, depth + 1));
    }
  }
}
