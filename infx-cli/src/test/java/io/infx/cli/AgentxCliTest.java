package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AgentX commands end to end through {@link Main#run}: every shared conformance case that a
 * command can reproduce from the outside (trace-filter, validate, aggregate with --env-file).
 */
class AgentxCliTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private final CliHarness cli = new CliHarness();

  private int run(String... args) {
    return cli.run(args);
  }

  private static Path corpus() {
    return CliHarness.agentxCorpus();
  }

  private static List<Path> cases(String... kinds) throws Exception {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(corpus())) {
      for (Path d : s.filter(Files::isDirectory).sorted().toList()) {
        String kind = JSON.readTree(d.resolve("case.json").toFile()).get("kind").asText();
        if (List.of(kinds).contains(kind)) {
          out.add(d);
        }
      }
    }
    return out;
  }

  @Test
  void traceFilterCases() throws Exception {
    List<Path> cases = cases("trace-filter");
    assertThat(cases).isNotEmpty();
    for (Path c : cases) {
      long cap = JSON.readTree(c.resolve("args.json").toFile()).get("cap_tokens").asLong();
      assertThat(run("agentx", "trace-filter", "--cap-tokens", String.valueOf(cap), c.resolve("trace.json").toString()))
          .as(cli.err()).isZero();
      JsonNode expected = JSON.readTree(c.resolve("expected.json").toFile());
      assertThat(JSON.readTree(cli.out())).as(c.toString()).isEqualTo(expected);
    }
  }

  @Test
  void traceFilterRejectsAnInvalidTraceWithItsLocation() throws Exception {
    Path bad = tmp.resolve("bad.json");
    Files.writeString(bad, "{\"id\": \"x\", \"block_size\": 64,\n \"requests\": [{\"t\": 0, \"type\": \"n\"}]}");
    assertThat(run("agentx", "trace-filter", bad.toString())).isEqualTo(1);
    assertThat(cli.out()).isEmpty();
    assertThat(cli.err()).contains(bad + ":2:").contains("[request.model]").doesNotContain("\tat ");
  }

  @Test
  void validateCases() throws Exception {
    for (Path c : cases("validate", "validate-error")) {
      boolean error = Files.exists(c.resolve("expected-error.json"));
      JsonNode expected = JSON.readTree(c.resolve(error ? "expected-error.json" : "expected.json").toFile());
      String threshold = JSON.readTree(c.resolve("args.json").toFile()).get("failed_request_threshold").asText();
      Path dir = c.resolve("aiperf_artifacts");
      int code = run("results", "agentic-validate", dir.toString(), "--failed-request-threshold", threshold);
      assertThat(code).as(c.toString()).isEqualTo(expected.get("exit_code").asInt());
      // the reference prints the path as given; we gave it absolute
      assertThat(cli.out().lines().toList()).isEqualTo(lines(expected.get("stdout"), dir));
      assertThat(cli.err().lines().toList()).isEqualTo(lines(expected.get("stderr"), dir));
    }
  }

  @Test
  void validateThresholdOutOfRangeIsAUsageError() throws Exception {
    assertThat(run("results", "agentic-validate", tmp.toString(), "--failed-request-threshold", "2")).isEqualTo(2);
    assertThat(cli.err()).contains("between 0 and 1");
  }

  @Test
  void aggregateCasesWithEnvFile() throws Exception {
    for (Path c : cases("aggregate", "aggregate-error")) {
      Path copy = tmp.resolve("a/b/c").resolve(c.getFileName().toString());
      copyTree(c, copy);
      ObjectNodeEnv.write(copy.resolve("env.json"), copy.resolve("env-with-cache.json"), copy.resolve("no-hf"));
      int code = run("results", "agentic-aggregate", "--env-file", copy.resolve("env-with-cache.json").toString(),
          "--result-dir", copy.resolve("results").toString(), "--out", "-");
      if (Files.exists(c.resolve("expected-error.json"))) {
        JsonNode e = JSON.readTree(c.resolve("expected-error.json").toFile());
        assertThat(code).isEqualTo(1);
        assertThat(cli.err()).contains(e.get("message").asText());
      } else {
        assertThat(code).as(cli.err()).isZero();
        JsonNode expected = JSON.readTree(c.resolve("expected.json").toFile());
        JsonNode actual = JSON.readTree(cli.out());
        assertThat(sameJson(expected, actual)).as(c + "\n" + actual).isTrue();
        assertThat(cli.err()).contains("Requests: ");
      }
    }
  }

  @Test
  void aggregateNeedsAResultFilenameOrOut() throws Exception {
    Path env = tmp.resolve("env");
    Files.writeString(env, "KV_OFFLOADING=none\n");
    assertThat(run("results", "agentic-aggregate", "--env-file", env.toString())).isEqualTo(1);
    assertThat(cli.err()).contains("RESULT_FILENAME env var not set");
  }

  @Test
  void aggregateRefusesMissingRequiredVariablesAndWritesNothing() throws Exception {
    Path results = tmp.resolve("results/aiperf_artifacts");
    Files.createDirectories(results);
    Files.writeString(results.resolve("profile_export.jsonl"), "{\"metadata\":{\"benchmark_phase\":\"profiling\","
        + "\"request_start_ns\":1000000000,\"request_end_ns\":2000000000},\"metrics\":{\"request_latency\":"
        + "{\"value\":1000}},\"error\":null}\n");
    Path env = tmp.resolve("env");
    // before: model "" and conc 0 written, exit 0
    Files.writeString(env, "KV_OFFLOADING=none\nRESULT_FILENAME=point\nAGENTIC_OUTPUT_DIR=" + tmp + "\n");
    assertThat(run("results", "agentic-aggregate", "--env-file", env.toString(),
        "--result-dir", tmp.resolve("results").toString())).isEqualTo(1);
    assertThat(cli.err()).contains("Missing required environment variables: MODEL, FRAMEWORK, CONC, TP")
        .doesNotContain("\tat ");
    assertThat(tmp.resolve("point.json")).doesNotExist();
    try (Stream<Path> left = Files.list(tmp)) {
      assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("results", "env");
    }
  }

  @Test
  void validateFailsARunStampedInvalidAndTheAggregateCarriesTheStamp() throws Exception {
    Path art = tmp.resolve("results/aiperf_artifacts");
    Files.createDirectories(art);
    Files.writeString(art.resolve("profile_export.jsonl"), "{\"metadata\":{\"benchmark_phase\":\"profiling\","
        + "\"request_start_ns\":1000000000,\"request_end_ns\":2000000000},\"metrics\":{\"request_latency\":"
        + "{\"value\":1000}},\"error\":null}\n");
    Files.writeString(art.resolve("profile_export_aiperf.json"), "{\"request_count\":{\"avg\":1},"
        + "\"error_request_count\":{\"avg\":0},\"metadata\":{\"submission_valid\":false,"
        + "\"submission_invalid_reasons\":[\"insufficient_profile_metric_coverage\"]}}");
    assertThat(run("results", "agentic-validate", art.toString(), "--failed-request-threshold", "0.10")).isEqualTo(1);
    assertThat(cli.out()).isEmpty();
    assertThat(cli.err()).contains("ERROR: aiperf run is not a valid submission")
        .contains("(insufficient_profile_metric_coverage)");

    Path env = tmp.resolve("env");
    Files.writeString(env, "MODEL=m\nFRAMEWORK=vllm\nCONC=1\nTP=1\nKV_OFFLOADING=none\nHF_HUB_CACHE="
        + tmp.resolve("no-hf") + "\n");
    assertThat(run("results", "agentic-aggregate", "--env-file", env.toString(), "--result-dir",
        tmp.resolve("results").toString(), "--out", "-")).as(cli.err()).isZero();
    JsonNode agg = JSON.readTree(cli.out());
    assertThat(agg.get("submission_valid").booleanValue()).isFalse();
    assertThat(agg.get("submission_invalid_reasons").get(0).asText()).isEqualTo("insufficient_profile_metric_coverage");
    assertThat(cli.err()).contains("Not a valid submission: insufficient_profile_metric_coverage");
  }

  /** Structural equality, numbers within 1e-9 (the conformance README's comparison). */
  private static boolean sameJson(JsonNode e, JsonNode a) {
    if (e.isNumber() && a.isNumber()) {
      return Math.abs(e.doubleValue() - a.doubleValue()) <= 1e-9;
    }
    if (e.getNodeType() != a.getNodeType() || e.size() != a.size()) {
      return false;
    }
    if (e.isObject()) {
      for (var it = e.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        if (!a.has(k) || !sameJson(e.get(k), a.get(k))) {
          return false;
        }
      }
      return true;
    }
    if (e.isArray()) {
      for (int i = 0; i < e.size(); i++) {
        if (!sameJson(e.get(i), a.get(i))) {
          return false;
        }
      }
      return true;
    }
    return e.equals(a);
  }

  private static List<String> lines(JsonNode array, Path dir) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText().replace("aiperf_artifacts/", dir + "/")));
    return out;
  }

  private static void copyTree(Path from, Path to) throws Exception {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
  }

  /** env.json plus an HF_HUB_CACHE that points at nothing (conformance README). */
  private static final class ObjectNodeEnv {
    static void write(Path envJson, Path target, Path noCache) throws Exception {
      var o = (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(envJson.toFile());
      if (!o.has("HF_HUB_CACHE")) {
        o.put("HF_HUB_CACHE", noCache.toString());
      }
      Files.writeString(target, o.toString());
    }
  }
}
