package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class TraceCapFilterTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static Path corpus() {
    String shared = System.getenv("INFX_SHARED");
    Path dir = shared != null && !shared.isBlank()
        ? Path.of(shared, "conformance", "agentx")
        : Path.of(System.getProperty("infx.repo.root", ".")).toAbsolutePath().normalize()
            .resolveSibling("shared").resolve("conformance").resolve("agentx");
    assumeTrue(Files.isDirectory(dir), "AgentX conformance corpus not found at " + dir + " (set INFX_SHARED)");
    return dir;
  }

  /** Every trace-filter case of shared/conformance/agentx. */
  @TestFactory
  Stream<DynamicTest> conformanceTraceFilterCases() throws IOException {
    List<DynamicTest> tests = new ArrayList<>();
    try (Stream<Path> s = Files.list(corpus())) {
      for (Path dir : s.filter(Files::isDirectory).sorted().toList()) {
        if (!JSON.readTree(dir.resolve("case.json").toFile()).get("kind").asText().equals("trace-filter")) {
          continue;
        }
        tests.add(DynamicTest.dynamicTest(dir.getFileName().toString(), () -> {
          ObjectNode trace = (ObjectNode) JSON.readTree(dir.resolve("trace.json").toFile());
          long cap = JSON.readTree(dir.resolve("args.json").toFile()).get("cap_tokens").asLong();
          JsonNode expected = JSON.readTree(dir.resolve("expected.json").toFile());
          WekaTraces.parse(Files.readString(dir.resolve("trace.json")), "trace.json"); // valid input
          Optional<ObjectNode> actual = TraceCapFilter.filter(trace, cap);
          if (expected.isNull()) {
            assertThat(actual).isEmpty();
          } else {
            assertThat(actual).isPresent();
            assertThat(numericallyEqual(expected, actual.get())).as(actual.get().toString()).isTrue();
          }
        }));
      }
    }
    return tests.stream();
  }

  private static boolean numericallyEqual(JsonNode e, JsonNode a) {
    if (e.isNumber() && a.isNumber()) {
      return Math.abs(e.doubleValue() - a.doubleValue()) <= 1e-9;
    }
    if (e.isObject() && a.isObject()) {
      if (e.size() != a.size()) {
        return false;
      }
      var it = e.fieldNames();
      while (it.hasNext()) {
        String k = it.next();
        if (!a.has(k) || !numericallyEqual(e.get(k), a.get(k))) {
          return false;
        }
      }
      return true;
    }
    if (e.isArray() && a.isArray()) {
      if (e.size() != a.size()) {
        return false;
      }
      for (int i = 0; i < e.size(); i++) {
        if (!numericallyEqual(e.get(i), a.get(i))) {
          return false;
        }
      }
      return true;
    }
    return e.equals(a);
  }

  private static ObjectNode trace(String requests) throws IOException {
    return (ObjectNode) JSON.readTree("{\"id\":\"x\",\"block_size\":64,\"requests\":" + requests + ",\"totals\":{\"k\":1}}");
  }

  @Test
  void exactlyAtTheCapIsKeptAndNoDropMeansUnchanged() throws IOException {
    ObjectNode t = trace("[{\"t\":3.0,\"type\":\"n\",\"model\":\"m\",\"in\":255990,\"out\":10,\"hash_ids\":[]}]");
    assertThat(TraceCapFilter.filter(t, 256_000)).contains(t);
  }

  @Test
  void nothingSurvivingOmitsTheTrace() throws IOException {
    ObjectNode t = trace("[{\"t\":0,\"type\":\"n\",\"model\":\"m\",\"in\":300000,\"out\":1,\"hash_ids\":[]},"
        + "{\"t\":1,\"type\":\"subagent\",\"agent_id\":\"a\",\"requests\":[{\"t\":1,\"type\":\"n\",\"model\":\"m\",\"in\":256001,\"out\":0}]}]");
    assertThat(TraceCapFilter.filter(t, 256_000)).isEmpty();
  }

  @Test
  void shiftPreservesOverlapsAndOtherFields() throws IOException {
    ObjectNode t = trace("[{\"t\":1,\"type\":\"n\",\"model\":\"m\",\"in\":999,\"out\":2,\"hash_ids\":[]},"
        + "{\"t\":4.0,\"type\":\"n\",\"model\":\"m\",\"in\":10,\"out\":2,\"hash_ids\":[1],\"api_time\":5.0},"
        + "{\"t\":6.0,\"type\":\"n\",\"model\":\"m\",\"in\":10,\"out\":2,\"hash_ids\":[1,2]}]");
    ObjectNode f = TraceCapFilter.filter(t, 100).orElseThrow();
    assertThat(f.get("requests")).hasSize(2);
    assertThat(f.at("/requests/0/t").asDouble()).isZero();
    assertThat(f.at("/requests/1/t").asDouble()).isEqualTo(2.0);
    assertThat(f.at("/requests/0/api_time").asDouble()).isEqualTo(5.0);
    assertThat(f.at("/totals/k").asInt()).isEqualTo(1);
    assertThat(t.at("/requests/0/t").asInt()).as("input untouched").isEqualTo(1);
  }
}
