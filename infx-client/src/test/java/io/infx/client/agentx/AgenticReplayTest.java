package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** End to end against the embedded simulator (prefix caching on, 64-token blocks). */
class AgenticReplayTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private SimServer sim;

  @BeforeEach
  void start() {
    sim = SimServer.start(SimConfig.builder().blockSize(64).prefixCacheBlocks(1 << 20).build());
  }

  @AfterEach
  void stop() {
    sim.close();
  }

  private ImmutableAgenticOptions.Builder options(int users) {
    return AgenticOptions.builder().baseUri(sim.baseUri()).model("infx-sim").users(users)
        .runId("test").grace(Duration.ofSeconds(10));
  }

  static List<JsonNode> records(Path dir) throws Exception {
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("profile_export.jsonl"))) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  @Test
  void runsEndToEndWithWarmupProfilingAndExports() throws Exception {
    List<WekaTrace> traces = new SyntheticCorpus(6, 8, 5, 4, 2, 16, 0.05, 0.05, 3, 2).generate();
    AgenticResult r = AgenticReplay.run(traces,
        options(3).duration(Duration.ofSeconds(3)).warmupRequestsPerLane(2).build(), tmp.resolve("art"));
    List<JsonNode> recs = records(tmp.resolve("art"));
    long warmup = recs.stream().filter(n -> n.at("/metadata/benchmark_phase").asText().equals("warmup")).count();
    long profiling = recs.size() - warmup;
    assertThat(warmup).as("a primer and 2 warmup requests per lane").isEqualTo(9);
    assertThat(profiling).isGreaterThan(10);
    assertThat(r.successfulRequests()).isEqualTo(recs.stream()
        .filter(n -> n.at("/metadata/benchmark_phase").asText().equals("profiling") && n.get("error").isNull()).count());
    assertThat(r.failedRequests()).isZero();
    assertThat(r.submissionValid()).isFalse();
    assertThat(r.invalidReasons()).containsExactly("unsafe_override");
    assertThat(r.theoreticalCacheHitRate()).isGreaterThan(0.5);
    JsonNode agg = JSON.readTree(tmp.resolve("art/profile_export_aiperf.json").toFile());
    assertThat(agg.at("/request_count/avg").asLong()).isEqualTo(r.successfulRequests());
    assertThat(agg.at("/time_to_first_token/unit").asText()).isEqualTo("ms");
    assertThat(agg.at("/metadata/scenario").asText()).isEqualTo("agentx");
    JsonNode first = recs.get(recs.size() - 1);
    assertThat(first.at("/metrics/input_sequence_length/value").asInt()).isPositive();
    assertThat(first.at("/metrics/time_to_first_token/unit").asText()).isEqualTo("ms");
    assertThat(first.at("/metadata/x_correlation_id").asText()).isNotEmpty();
    assertThat(first.at("/metadata/root_correlation_id").asText()).isNotEmpty();
  }
}
