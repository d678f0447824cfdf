package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every case of {@code shared/conformance/results} in this JVM, each in its own empty
 * directory with exactly the case's {@code env.json} as the environment (the test runner's own
 * environment is never consulted), and compares key order, JSON types and IEEE-754 values.
 */
class ResultsConformanceTest {

  /** Error kinds whose message fragment is part of the contract (corpus README). */
  private static final Set<String> MESSAGE_CONTRACT =
      Set.of("missing_env", "invalid_topology", "invalid_component_metadata", "power_required");

  @TempDir Path tmp;

  @TestFactory
  Stream<DynamicTest> everyCase() throws IOException {
    return SharedCorpus.cases("results", c -> () -> run(c));
  }

  private void run(Path caseDir) throws IOException {
    Map<String, String> env = Json.mapper().readValue(
        caseDir.resolve("env.json").toFile(), new TypeReference<LinkedHashMap<String, String>>() {});
    Path work = Files.createDirectory(tmp.resolve(caseDir.getFileName().toString()));
    String rf = env.getOrDefault("RESULT_FILENAME", "raw");
    Files.copy(caseDir.resolve("raw.json"), work.resolve(rf + ".json"));

    Path expected = caseDir.resolve("expected.json");
    if (Files.exists(expected)) {
      ProcessedResult result = ResultProcessor.processEnvironment(env, work);
      JsonNode want = Json.mapper().readTree(expected.toFile());
      Path agg = work.resolve("agg_" + rf + ".json");
      assertThat(agg).exists();
      assertSameJson(Json.mapper().readTree(agg.toFile()), want, "");
      assertSameJson(Json.mapper().readTree(result.aggregateText()), want, "");
      assertThat(result.exitCode()).isZero();
      // Beyond the corpus contract: the text is the reference's json.dump output byte for byte
      // (the corpus files add a final newline).
      assertThat(Files.readString(agg) + "\n").isEqualTo(Files.readString(expected));
      return;
    }

    JsonNode error = Json.mapper().readTree(caseDir.resolve("expected-error.json").toFile());
    String kind = error.get("error_kind").textValue();
    String fragment = error.get("message_contains").textValue();
    ResultsException e = catchThrowableOfType(ResultsException.class,
        () -> ResultProcessor.processEnvironment(env, work));
    assertThat(e).as("expected a %s failure", kind).isNotNull();
    assertThat(e.kind().wireName()).as("error kind (message: %s)", e.getMessage()).isEqualTo(kind);
    if (MESSAGE_CONTRACT.contains(kind)) {
      assertThat(e.getMessage()).contains(fragment);
    }
    try (Stream<Path> s = Files.list(work)) {
      Set<String> names = s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
      if (kind.equals("power_required")) {
        assertThat(names).contains("agg_" + rf + ".json");
        JsonNode agg = Json.mapper().readTree(work.resolve("agg_" + rf + ".json").toFile());
        assertThat(agg.get("power_valid").isInt()).isTrue();
        assertThat(agg.get("power_valid").intValue()).isZero();
      } else {
        assertThat(names).as("nothing may be written on failure").containsExactly(rf + ".json");
      }
    }
  }

  /** Same keys in the same order, same JSON types, strings equal, numbers equal as doubles. */
  static void assertSameJson(JsonNode actual, JsonNode expected, String path) {
    if (expected.isObject()) {
      if (!actual.isObject()) {
        fail("%s: expected an object, got %s", path, actual.getNodeType());
      }
      List<String> want = new ArrayList<>();
      expected.fieldNames().forEachRemaining(want::add);
      List<String> got = new ArrayList<>();
      actual.fieldNames().forEachRemaining(got::add);
      assertThat(got).as("keys of %s", path.isEmpty() ? "<root>" : path).isEqualTo(want);
      for (Iterator<String> it = expected.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        assertSameJson(actual.get(k), expected.get(k), path + "/" + k);
      }
    } else if (expected.isIntegralNumber()) {
      assertThat(actual.isIntegralNumber()).as("%s must be an integer, got %s", path, actual).isTrue();
      assertThat(actual.bigIntegerValue()).as(path).isEqualTo(expected.bigIntegerValue());
    } else if (expected.isFloatingPointNumber()) {
      assertThat(actual.isFloatingPointNumber()).as("%s must be a float, got %s", path, actual).isTrue();
      double a = actual.doubleValue();
      double x = expected.doubleValue();
      assertThat(a == x || (Double.isNaN(a) && Double.isNaN(x)))
          .as("%s: expected %s, got %s", path, x, a).isTrue();
    } else if (expected.isBoolean()) {
      assertThat(actual.isBoolean()).as("%s must be a boolean, got %s", path, actual).isTrue();
      assertThat(actual.booleanValue()).as(path).isEqualTo(expected.booleanValue());
    } else if (expected.isTextual()) {
      assertThat(actual.isTextual()).as("%s must be a string, got %s", path, actual).isTrue();
      assertThat(actual.textValue()).as(path).isEqualTo(expected.textValue());
    } else if (expected.isNull()) {
      assertThat(actual.isNull()).as("%s must be null", path).isTrue();
    } else if (expected.isArray()) {
      assertThat(actual.isArray()).as("%s must be an array", path).isTrue();
      assertThat(actual.size()).as("length of %s", path).isEqualTo(expected.size());
      for (int i = 0; i < expected.size(); i++) {
        assertSameJson(actual.get(i), expected.get(i), path + "/" + i);
      }
    } else {
      fail("%s: unsupported JSON node %s", path, expected.getNodeType());
    }
  }
}
