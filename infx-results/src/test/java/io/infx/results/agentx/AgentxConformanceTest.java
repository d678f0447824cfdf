package io.infx.results.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.core.InfxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every aggregate and validate case of {@code shared/conformance/agentx}, run in this JVM through
 * the library API. (Trace-filter cases run in infx-client, where the filter lives.)
 */
class AgentxConformanceTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  @TestFactory
  Stream<DynamicTest> everyAggregateAndValidateCase() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path dir : AgentxCorpus.cases()) {
      JsonNode meta = JSON.readTree(dir.resolve("case.json").toFile());
      String kind = meta.get("kind").asText();
      String name = dir.getFileName() + " (" + kind + ")";
      switch (kind) {
        case "aggregate" -> tests.add(DynamicTest.dynamicTest(name, () -> aggregate(dir)));
        case "aggregate-error" -> tests.add(DynamicTest.dynamicTest(name, () -> aggregateError(dir)));
        case "validate", "validate-error" -> tests.add(DynamicTest.dynamicTest(name, () -> validate(dir)));
        case "trace-filter" -> { /* infx-client */ }
        default -> throw new AssertionError("unknown case kind " + kind + " in " + dir);
      }
    }
    return tests.stream();
  }

  private AgenticAggregate run(Path caseDir) throws IOException {
    Path copy = AgentxCorpus.privateCopy(caseDir, tmp.resolve(caseDir.getFileName().toString()));
    Map<String, String> env = AgentxCorpus.stringMap(JSON.readTree(copy.resolve("env.json").toFile()));
    // Relative HF_HUB_CACHE is relative to the case; without one, point at nothing.
    env.putIfAbsent("HF_HUB_CACHE", copy.resolve("no-hf-cache-here").toString());
    return AgenticAggregator.aggregate(Path.of("results"), env, copy);
  }

  private void aggregate(Path caseDir) throws IOException {
    JsonNode expected = JSON.readTree(caseDir.resolve("expected.json").toFile());
    JsonNode actual = run(caseDir).toJson();
    assertThat(AgentxCorpus.diff(expected, actual)).as("differences from expected.json").isEmpty();
  }

  private void aggregateError(Path caseDir) throws IOException {
    JsonNode expected = JSON.readTree(caseDir.resolve("expected-error.json").toFile());
    InfxException e = org.junit.jupiter.api.Assertions.assertThrows(InfxException.class, () -> run(caseDir));
    assertThat(e.exitCode()).isNotZero();
    assertEquals(expected.get("message").asText(), e.getMessage());
  }

  private void validate(Path caseDir) throws IOException {
    boolean error = Files.exists(caseDir.resolve("expected-error.json"));
    JsonNode expected = JSON.readTree(caseDir.resolve(error ? "expected-error.json" : "expected.json").toFile());
    String threshold = JSON.readTree(caseDir.resolve("args.json").toFile()).get("failed_request_threshold").asText();
    Path copy = AgentxCorpus.privateCopy(caseDir, tmp.resolve(caseDir.getFileName().toString()));
    AgenticGate.Result r = AgenticGate.validate(
        Path.of("aiperf_artifacts"), AgenticGate.parseThreshold(threshold), copy);
    assertThat(r.exitCode()).isEqualTo(expected.get("exit_code").asInt());
    assertThat(r.stdout()).containsExactlyElementsOf(lines(expected.get("stdout")));
    assertThat(r.stderr()).containsExactlyElementsOf(lines(expected.get("stderr")));
  }

  private static List<String> lines(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
