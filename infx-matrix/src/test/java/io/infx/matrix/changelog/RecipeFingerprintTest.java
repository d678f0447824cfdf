package io.infx.matrix.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class RecipeFingerprintTest {

  static ObjectNode row(String json) throws Exception {
    return (ObjectNode) Json.mapper().readTree(json);
  }

  /** Generator-form row of corpus case 012; hash computed with CPython's json.dumps + sha256. */
  @Test
  void matchesTheReferenceHashOfAGeneratorFormRow() throws Exception {
    ObjectNode r = row("{\"image\":\"example/vllm:0.0.1\",\"model\":\"example/Tiny-FP8\","
        + "\"model-prefix\":\"tiny\",\"precision\":\"fp8\",\"framework\":\"vllm\",\"runner\":\"h100\","
        + "\"isl\":8192,\"osl\":1024,\"tp\":8,\"pp\":1,\"dcp-size\":1,\"pcp-size\":1,\"conc\":16,"
        + "\"max-model-len\":9472,\"ep\":1,\"dp-attn\":false,\"spec-decoding\":\"none\","
        + "\"exp-name\":\"tiny_8k1k\",\"disagg\":false,\"run-eval\":false}");
    assertThat(RecipeFingerprint.of(r))
        .isEqualTo("17b040c997551d059582a843ea3bacbb60bb26d4fa2e13e3ad652bfe871c3d8a");
  }

  @Test
  void ignoresConcurrencyNameAndKeyOrder() throws Exception {
    ObjectNode a = row("{\"tp\":8,\"conc\":4,\"exp-name\":\"x\",\"image\":\"i\"}");
    ObjectNode b = row("{\"image\":\"i\",\"conc\":64,\"tp\":8,\"exp-name\":\"y\","
        + "\"recipe-fingerprint\":\"" + "0".repeat(64) + "\"}");
    assertThat(RecipeFingerprint.of(a)).isEqualTo(RecipeFingerprint.of(b)).hasSize(64)
        .matches("[0-9a-f]{64}");
    assertThat(RecipeFingerprint.of(row("{\"tp\":4,\"conc\":4,\"image\":\"i\"}")))
        .isNotEqualTo(RecipeFingerprint.of(a));
  }

  @Test
  void historicalConfigFileSettingsHashLikeSrtRecipeFields() throws Exception {
    ObjectNode old = row("{\"image\":\"i\",\"prefill\":{\"tp\":4,\"additional-settings\":"
        + "[\"CONFIG_FILE=r.yaml\",\"X=1\"]},\"decode\":{\"tp\":8,\"additional-settings\":"
        + "[\"EVAL_CONFIG_FILE=e.yaml\"]}}");
    ObjectNode current = row("{\"image\":\"i\",\"srt-recipe\":\"r.yaml\",\"eval-srt-recipe\":"
        + "\"e.yaml\",\"prefill\":{\"tp\":4,\"additional-settings\":[\"X=1\"]},"
        + "\"decode\":{\"tp\":8}}");
    assertThat(RecipeFingerprint.canonicalRecipe(old))
        .isEqualTo(RecipeFingerprint.canonicalRecipe(current));
  }

  @Test
  void conflictingHistoricalSelectorsAreAnError() throws Exception {
    ObjectNode r = row("{\"srt-recipe\":\"a\",\"prefill\":{\"additional-settings\":"
        + "[\"CONFIG_FILE=b\"]}}");
    assertThatThrownBy(() -> RecipeFingerprint.of(r)).isInstanceOf(InfxException.class)
        .hasMessageContaining("Conflicting historical srt-recipe selectors");
  }

  /**
   * Every throughput row of every corpus plan: turn the planner form back into the generator form
   * (drop the fingerprint and the defaults the planner's schema writes out) and the reference's
   * fingerprint must come out again.
   */
  @Test
  void recomputesEveryCorpusFingerprint() throws Exception {
    Path cases = CorpusPaths.changelogCases();
    Assumptions.assumeTrue(Files.isDirectory(cases), "conformance corpus not found at " + cases);
    List<JsonNode> rows = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(cases)) {
      for (Path dir : dirs.sorted().toList()) {
        Path expected = dir.resolve("expected.json");
        if (!Files.exists(expected)) {
          continue;
        }
        JsonNode plan = Json.mapper().readTree(expected.toFile());
        for (String bucket : List.of("single_node", "multi_node")) {
          plan.get(bucket).elements().forEachRemaining(list -> list.forEach(rows::add));
        }
      }
    }
    assertThat(rows).hasSizeGreaterThan(10);
    for (JsonNode planned : rows) {
      ObjectNode generated = ((ObjectNode) planned).deepCopy();
      String expected = generated.remove("recipe-fingerprint").textValue();
      dropIfFalse(generated, "require-power");
      dropIfFalse(generated, "eval-only");
      dropIfFalse(generated, "eval-all-concs");
      for (String role : List.of("prefill", "decode")) {
        if (generated.get(role) instanceof ObjectNode w && w.path("additional-settings").isArray()
            && w.get("additional-settings").isEmpty()) {
          w.remove("additional-settings");
        }
      }
      assertThat(RecipeFingerprint.of(generated)).as(planned.toString()).isEqualTo(expected);
    }
  }

  private static void dropIfFalse(ObjectNode o, String key) {
    if (o.path(key).isBoolean() && !o.get(key).booleanValue()) {
      o.remove(key);
    }
  }
}
