package io.infx.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code RESULT_FILENAME} against the independent goldens of the results corpus: each success
 * case's {@code env.json} is what the reference workflow exported. The test turns that environment
 * back into a matrix row (the inverse of fleet spec §3, written here independently), projects it,
 * and compares every variable both sides define plus the full name. For multi-node cases the
 * golden is a per-point name; its GPU counts are recomputed from the topology
 * (workers × TP × PP × PCP per role; DCP and EP add none).
 */
class ResultNamingGoldenTest {

  private static final Pattern POINT_TAIL =
      Pattern.compile("^(.*)_conc(\\d+)_gpus_(\\d+)(?:_ctx_(\\d+)_gen_(\\d+))?$");

  @TestFactory
  Stream<DynamicTest> everySuccessCaseOfTheResultsCorpus() throws IOException {
    Path dir = SharedCorpus.require("conformance/results");
    List<Path> cases;
    try (Stream<Path> s = Files.list(dir)) {
      cases = s.filter(p -> Files.exists(p.resolve("expected.json")) && Files.exists(p.resolve("env.json")))
          .sorted().toList();
    }
    assertThat(cases).hasSizeGreaterThanOrEqualTo(10);
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> check(c)));
  }

  private static void check(Path caseDir) throws IOException {
    Map<String, String> golden = new TreeMap<>();
    Json.mapper().readTree(caseDir.resolve("env.json").toFile()).fields()
        .forEachRemaining(e -> golden.put(e.getKey(), e.getValue().asText()));
    boolean multi = golden.containsKey("CONC_LIST");
    if (golden.get("DISAGG").equals("False")) {
      // A hand-dispatched workflow input may spell the flag "False"; a typed matrix row holds a
      // boolean (single-node schema: Literal[False]) and projects the canonical "false".
      golden.put("DISAGG", "false");
      golden.put("RESULT_FILENAME", golden.get("RESULT_FILENAME").replace("_disagg-False_", "_disagg-false_"));
    }
    String rf = golden.get("RESULT_FILENAME");
    ObjectNode row = Json.mapper().createObjectNode();
    row.put("image", golden.get("IMAGE"));
    row.put("model", golden.get("MODEL"));
    row.put("model-prefix", golden.get("MODEL_PREFIX"));
    row.put("precision", golden.get("PRECISION"));
    row.put("framework", golden.get("FRAMEWORK"));
    row.put("runner", golden.get("RUNNER_TYPE"));
    row.put("isl", Integer.parseInt(golden.get("ISL")));
    row.put("osl", Integer.parseInt(golden.get("OSL")));
    row.put("max-model-len", Integer.parseInt(golden.get("ISL")) + Integer.parseInt(golden.get("OSL")) + 256);
    row.put("spec-decoding", golden.get("SPEC_DECODING"));
    row.put("exp-name", golden.get("EXP_NAME"));
    putBoolOrText(row, "disagg", golden.get("DISAGG"));
    row.put("run-eval", false);
    if (!golden.get("ROUTER_METADATA").isEmpty()) {
      row.set("router", Json.mapper().readTree(golden.get("ROUTER_METADATA")));
    }
    if (!golden.get("KV_P2P_TRANSFER").isEmpty()) {
      row.put("kv-p2p-transfer", golden.get("KV_P2P_TRANSFER"));
    } else if (multi && golden.get("DISAGG").equals("true")) {
      // These envs predate the transfer-engine input; a valid disagg row names one (schema
      // invariant), and the name is not part of RESULT_FILENAME.
      row.put("kv-p2p-transfer", "nixl");
      golden.remove("KV_P2P_TRANSFER");
    }
    if (!golden.get("RECIPE_FINGERPRINT").isEmpty()) {
      row.put("recipe-fingerprint", golden.get("RECIPE_FINGERPRINT"));
    }
    row.put("require-power", "1".equals(golden.get("REQUIRE_POWER")));
    String runner;
    if (!multi) {
      row.put("tp", Integer.parseInt(golden.get("TP")));
      row.put("pp", Integer.parseInt(golden.get("PP_SIZE")));
      row.put("dcp-size", Integer.parseInt(golden.get("DCP_SIZE")));
      row.put("pcp-size", Integer.parseInt(golden.get("PCP_SIZE")));
      row.put("ep", Integer.parseInt(golden.get("EP_SIZE")));
      row.put("dp-attn", Boolean.parseBoolean(golden.get("DP_ATTENTION")));
      row.put("conc", Integer.parseInt(golden.get("CONC")));
      // The runner is the only part of the name env.json does not carry separately.
      String marker = "_conc" + golden.get("CONC") + "_";
      runner = rf.substring(rf.lastIndexOf(marker) + marker.length());
    } else {
      row.put("node-count", 1); // not projected by name, and not in env.json
      var concs = row.putArray("conc");
      for (String c : golden.get("CONC_LIST").split(" ")) {
        concs.add(Integer.parseInt(c));
      }
      for (String role : List.of("prefill", "decode")) {
        String p = role.toUpperCase() + "_";
        ObjectNode w = row.putObject(role);
        w.put("num-worker", Integer.parseInt(golden.get(p + "NUM_WORKERS")));
        w.put("tp", Integer.parseInt(golden.get(p + "TP")));
        w.put("ep", Integer.parseInt(golden.get(p + "EP")));
        w.put("dp-attn", Boolean.parseBoolean(golden.get(p + "DP_ATTN")));
        w.put("pp", Integer.parseInt(golden.get(p + "PP_SIZE")));
        w.put("dcp-size", Integer.parseInt(golden.get(p + "DCP_SIZE")));
        w.put("pcp-size", Integer.parseInt(golden.get(p + "PCP_SIZE")));
        if (!golden.getOrDefault(p + "HARDWARE", "").isEmpty()) {
          w.put("hardware", golden.get(p + "HARDWARE"));
        }
      }
      Matcher m = Pattern.compile("_conc" + golden.get("CONC_LIST").replace(' ', 'x')
          + "_([a-z0-9-]+_[0-9]+)_").matcher(rf);
      assertThat(m.find()).as("runner in %s", rf).isTrue();
      runner = m.group(1);
    }

    LaunchEnv env = EnvProjector.standard().project(TestRows.of(row), RunnerName.of(runner),
        RunContext.defaults());

    // Every variable both sides define agrees (IS_MULTINODE's spelling and the per-point
    // RESULT_FILENAME are the normalizer's concern, checked separately below).
    golden.forEach((k, v) -> {
      if (env.values().containsKey(k) && !k.equals("RESULT_FILENAME") && !k.equals("IS_MULTINODE")) {
        assertThat(env.values().get(k)).as(k).isEqualTo(v);
      }
    });

    if (!multi) {
      assertThat(env.resultFilename()).isEqualTo(rf);
      assertThat(ResultNaming.resultFilename(TestRows.of(row), RunnerName.of(runner),
          FingerprintPolicy.LEGACY_PREFIX16)).isEqualTo(rf);
      return;
    }
    Matcher tail = POINT_TAIL.matcher(rf);
    assertThat(tail.matches()).isTrue();
    String stem = env.resultFilename();
    assertThat(tail.group(1)).startsWith(stem + "_");
    String config = tail.group(1).substring(stem.length() + 1);
    int prefillGpus = gpus(row.get("prefill"));
    int decodeGpus = gpus(row.get("decode"));
    boolean disagg = "true".equalsIgnoreCase(golden.get("DISAGG"));
    String point = ResultNaming.pointFilename(stem, config, Integer.parseInt(tail.group(2)),
        prefillGpus + decodeGpus, disagg ? OptionalInt.of(prefillGpus) : OptionalInt.empty(),
        disagg ? OptionalInt.of(decodeGpus) : OptionalInt.empty(), FingerprintPolicy.LEGACY_PREFIX16);
    assertThat(point).isEqualTo(rf + ".json");
    assertThat(golden.get("PREFILL_GPUS")).isEqualTo(Integer.toString(prefillGpus));
  }

  private static int gpus(JsonNode w) {
    return w.get("num-worker").asInt() * w.get("tp").asInt() * w.get("pp").asInt() * w.get("pcp-size").asInt();
  }

  private static void putBoolOrText(ObjectNode row, String key, String value) {
    if (value.equals("true") || value.equals("false")) {
      row.put(key, Boolean.parseBoolean(value));
    } else {
      row.put(key, value);
    }
  }
}
