package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The typed AgentX result against the exports of the same run: every figure is derived here again
 * from {@code profile_export.jsonl} (the records) with the numpy rules, not read back from infx.
 */
class AgenticResultTest {

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

  private AgenticOptions options() {
    return AgenticOptions.builder().baseUri(sim.baseUri()).model("infx-sim").users(3).runId("typed")
        .grace(Duration.ofSeconds(10)).duration(Duration.ofSeconds(3)).warmupRequestsPerLane(1).build();
  }

  private static List<WekaTrace> corpus() {
    return SyntheticCorpus.builder().traces(6).turns(8).seed(5).prefixBlocks(4).outputTokens(16)
        .apiTime(0.05).thinkTime(0.05).subagentEvery(3).build().generate();
  }

  /** numpy's default percentile (linear), written out again for the test. */
  private static double percentile(double[] sorted, double p) {
    double h = (sorted.length - 1) * p / 100;
    int lo = (int) Math.floor(h);
    int hi = Math.min(lo + 1, sorted.length - 1);
    return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
  }

  @Test
  void typedFiguresAreThoseOfTheRecordsTheRunExported() throws Exception {
    AgenticResult r = AgenticReplay.run(corpus(), options(), tmp.resolve("art"));
    assertThat(r.artifactDir()).contains(tmp.resolve("art"));

    List<JsonNode> profiling = AgenticReplayTest.records(tmp.resolve("art")).stream()
        .filter(n -> n.at("/metadata/benchmark_phase").asText().equals("profiling")).toList();
    List<JsonNode> ok = profiling.stream().filter(n -> n.get("error").isNull()).toList();
    assertThat(ok).hasSizeGreaterThan(10);

    double[] ttft = ok.stream().mapToDouble(n -> n.at("/metrics/time_to_first_token/value").asDouble()).toArray();
    double[] e2el = ok.stream().mapToDouble(n -> n.at("/metrics/request_latency/value").asDouble()).toArray();
    double mean = Arrays.stream(ttft).average().orElseThrow();
    double[] sorted = ttft.clone();
    Arrays.sort(sorted);
    assertThat(r.successfulRequests()).isEqualTo(ok.size());
    assertThat(r.ttft().count()).isEqualTo(ok.size());
    assertThat(r.ttft().meanMillis().orElseThrow()).isCloseTo(mean, within(1e-9 * Math.max(1, mean)));
    assertThat(r.ttft().percentileMillis(90).orElseThrow()).isCloseTo(percentile(sorted, 90), within(1e-9));
    assertThat(r.e2el().maxMillis().orElseThrow())
        .isCloseTo(Arrays.stream(e2el).max().orElseThrow(), within(1e-9));
    // the aggregate file holds the same statistics
    JsonNode agg = JSON.readTree(tmp.resolve("art/profile_export_aiperf.json").toFile());
    assertThat(r.ttft().meanMillis().orElseThrow()).isCloseTo(agg.at("/time_to_first_token/avg").asDouble(),
        within(1e-9));
    assertThat(r.itl().count()).isEqualTo(agg.at("/inter_token_latency/count").asInt());
    assertThat(JSON.readTree(r.aggregateJson())).isEqualTo(agg);
    // histograms: one value per request, µs
    assertThat(r.ttftHistogram().getTotalCount()).isEqualTo(ok.size());
    assertThat(r.e2elHistogram().getMaxValue() / 1000.0)
        .isCloseTo(Arrays.stream(e2el).max().orElseThrow(), within(Arrays.stream(e2el).max().orElseThrow() * 1e-3));
    assertThat(r.itlHistogram().getTotalCount()).isEqualTo(r.itl().count());
    assertThat(r.outputTokens().mean().orElseThrow()).isCloseTo(
        ok.stream().mapToDouble(n -> n.at("/metrics/output_sequence_length/value").asDouble()).average().orElseThrow(),
        within(1e-9));
    // counts
    assertThat(r.warmupRequests()).isEqualTo(6); // per lane: its primer and one warm-up request
    assertThat(r.cancelledRequests() + r.failedRequests() + r.successfulRequests()).isEqualTo(profiling.size());
    assertThat(r.contextOverflows()).isZero();

    // sessions: grouped here by (session_num, conversation_id)
    Map<String, long[]> bySession = new LinkedHashMap<>();
    for (JsonNode n : profiling) {
      long[] t = bySession.computeIfAbsent(n.at("/metadata/session_num").asInt() + "/"
          + n.at("/metadata/conversation_id").asText(), k -> new long[3]);
      t[0]++;
      if (n.get("error").isNull()) {
        t[1]++;
        t[2] += n.at("/metrics/input_sequence_length/value").asLong();
      }
    }
    assertThat(r.sessions()).hasSize(bySession.size());
    for (AgenticSession s : r.sessions()) {
      long[] t = bySession.get(s.play() + "/" + s.conversationId());
      assertThat(t).as(s.toString()).isNotNull();
      assertThat(s.requests()).isEqualTo(t[0]);
      assertThat(s.successful()).isEqualTo(t[1]);
      assertThat(s.inputTokens()).isEqualTo(t[2]);
      assertThat(s.theoreticalCacheHitRate()).isBetween(0.0, 1.0);
    }
    assertThat(r.sessions()).anySatisfy(s -> assertThat(s.subagent()).isTrue());
    assertThat(r.sessions().stream().mapToLong(AgenticSession::successful).sum()).isEqualTo(r.successfulRequests());
  }

  @Test
  void inMemoryReplayWritesNothingAndIsTypedTheSameWay() throws Exception {
    Path cwd = Path.of("").toAbsolutePath();
    long before;
    try (var files = Files.list(cwd)) {
      before = files.count();
    }
    AgenticResult r = AgenticReplay.run(corpus(), options());
    assertThat(r.artifactDir()).isEmpty();
    assertThat(r.successfulRequests()).isPositive();
    assertThat(r.ttft().count()).isEqualTo(r.successfulRequests());
    assertThat(r.sessions()).isNotEmpty();
    assertThat(JSON.readTree(r.aggregateJson()).at("/request_count/avg").asLong()).isEqualTo(r.successfulRequests());
    assertThat(r.serverMetricsJson()).isEmpty();
    assertThat(r.toString()).contains("in memory");
    try (var files = Files.list(cwd)) {
      assertThat(files.count()).isEqualTo(before);
    }
  }

  @Test
  void theCorpusBuilderNamesWhatThePositionalConstructorTakesInOrder() {
    SyntheticCorpus built = SyntheticCorpus.builder().traces(6).turns(8).seed(5).prefixBlocks(4).growthBlocks(2)
        .outputTokens(16).apiTime(0.05).thinkTime(0.05).subagentEvery(3).subagentTurns(2).build();
    assertThat(built).isEqualTo(new SyntheticCorpus(6, 8, 5, 4, 2, 16, 0.05, 0.05, 3, 2));
    assertThat(SyntheticCorpus.builder().build()).isEqualTo(SyntheticCorpus.defaults());
    assertThat(built.toBuilder().seed(6).build()).isEqualTo(new SyntheticCorpus(6, 8, 6, 4, 2, 16, 0.05, 0.05, 3, 2));
    assertThat(SyntheticCorpus.parse("synthetic:traces=6,turns=8,seed=5,prefix=4,out=16,api=0.05,think=0.05,"
        + "subagent-every=3")).isEqualTo(built);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SyntheticCorpus.builder().turns(1).build())
        .isInstanceOf(io.infx.core.UsageException.class).hasMessage("turns must be ≥ 2, got 1");
    // the command-line form names its own keys
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SyntheticCorpus.parse("synthetic:prefix=0"))
        .isInstanceOf(io.infx.core.UsageException.class)
        .hasMessage("synthetic corpus: prefix must be ≥ 1, got 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SyntheticCorpus.builder().apiTime(Double.NaN).build())
        .hasMessageStartingWith("apiTime must be a finite number of seconds ≥ 0");
  }
}
