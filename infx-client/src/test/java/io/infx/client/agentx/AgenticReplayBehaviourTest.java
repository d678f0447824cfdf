package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.FailureClass;
import io.infx.client.RequestFailure;
import io.infx.client.RequestRecord;
import io.infx.client.agentx.internal.Conversation;
import io.infx.client.agentx.internal.HttpTransport;
import io.infx.client.agentx.internal.TracePlan;
import io.infx.client.agentx.internal.Transport;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.sim.Timeline;
import io.infx.core.InfxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay semantics against the embedded simulator, with tolerances that hold on a loaded 2-core
 * CI machine (never early; at most a quarter second late). The exact schedule is tested on a
 * virtual clock ({@code internal.ReplayScheduleTest}); these wall-clock tests check that it holds
 * on the system clock, over HTTP. Tight figures are measured by {@code benchmarks/} (see
 * docs/performance.md).
 */
class AgenticReplayBehaviourTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Lateness a loaded CI machine may add to a scheduled dispatch. */
  private static final double LATE = 0.25;
  /** Timestamps are taken on different threads; allow this much "early". */
  private static final double EARLY = 0.005;

  @TempDir Path tmp;
  private SimServer sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
  }

  private SimServer sim(io.infx.client.sim.ImmutableSimConfig.Builder b) {
    sim = SimServer.start(b.blockSize(64).prefixCacheBlocks(1 << 20).build());
    return sim;
  }

  private ImmutableAgenticOptions.Builder options(int users) {
    return AgenticOptions.builder().baseUri(sim.baseUri()).model("infx-sim").users(users)
        .runId("test").grace(Duration.ofSeconds(10)).warmupRequestsPerLane(0);
  }

  /** One record of profile_export.jsonl. */
  record Rec(int play, String conv, int turn, boolean warmup, double start, double end,
      String requestId, String error, boolean cancelled, JsonNode raw) {}

  private List<Rec> records(Path dir) throws Exception {
    List<Rec> out = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("profile_export.jsonl"))) {
      JsonNode n = JSON.readTree(line);
      JsonNode m = n.get("metadata");
      out.add(new Rec(m.get("session_num").asInt(), m.get("conversation_id").asText(),
          m.get("turn_index").asInt(), m.get("benchmark_phase").asText().equals("warmup"),
          m.get("request_start_ns").asLong() / 1e9, m.get("request_end_ns").asLong() / 1e9,
          m.get("x_request_id").asText(), n.get("error").isNull() ? null : n.at("/error/type").asText(),
          m.get("was_cancelled").asBoolean(), n));
    }
    return out;
  }

  private static TraceRequest req(double t, double api, int in, int out, int... ids) {
    return TraceRequest.of(t, "m", in, out, HashIds.of(ids), api);
  }

  private static WekaTrace trace(String id, TraceEntry... entries) {
    return new WekaTrace(id, List.of("m"), 64, WekaTrace.HashIdScope.LOCAL, 0, 0, List.of(entries));
  }

  /** A transport that remembers each request's server id and may fail chosen ones. */
  static final class Capturing implements Transport {
    final HttpTransport inner;
    final Map<String, RequestRecord> byHeaderId = new ConcurrentHashMap<>();
    final Map<String, String> bodies = new ConcurrentHashMap<>();
    final Map<String, List<Map.Entry<String, String>>> headers = new ConcurrentHashMap<>();
    final Predicate<Integer> fail;
    int profiled;

    Capturing(SimServer sim, Predicate<Integer> failProfilingRequestNumber) {
      this.inner = new HttpTransport(sim.baseUri(), 64, io.infx.client.Deadlines.defaults());
      this.fail = failProfilingRequestNumber;
    }

    @Override
    public synchronized CompletableFuture<RequestRecord> send(byte[] body, int promptTokens,
        List<Map.Entry<String, String>> headers, boolean warmup, long intendedNanos) {
      String id = headers.get(0).getValue();
      bodies.put(id, new String(body, java.nio.charset.StandardCharsets.UTF_8));
      this.headers.put(id, headers);
      if (!warmup && fail.test(profiled++)) {
        long now = System.nanoTime();
        return CompletableFuture.completedFuture(RequestRecord.builder().sendNanos(now).endNanos(now + 1_000_000)
            .status(500).failure(new RequestFailure(FailureClass.HTTP_5XX, "Internal Server Error", 500, "boom")).build());
      }
      return inner.send(body, promptTokens, headers, warmup, intendedNanos).thenApply(r -> {
        byHeaderId.put(id, r);
        return r;
      });
    }

    @Override
    public int inFlight() {
      return inner.inFlight();
    }

    @Override
    public void close() {
      inner.close();
    }
  }

  @Test
  void promptsReuseBlocksAsTheTraceSays() throws Exception {
    sim(SimConfig.builder());
    List<WekaTrace> traces = new SyntheticCorpus(3, 10, 9, 6, 3, 40, 0.02, 0.02, 0, 1).generate();
    Map<String, TracePlan> plans = new HashMap<>();
    traces.forEach(t -> plans.put(t.id(), TracePlan.of(t)));
    Capturing transport = new Capturing(sim, n -> false);
    AgenticReplay.run(traces, options(2).duration(Duration.ofSeconds(4)).build(), tmp, "synthetic", transport);
    List<Rec> recs = records(tmp);
    int checked = 0;
    long expectedTokens = 0;
    long cachedTokens = 0;
    for (Rec r : recs) {
      if (r.warmup() || r.error() != null) {
        continue;
      }
      RequestRecord rr = transport.byHeaderId.get(r.requestId());
      Timeline tl = sim.timeline(rr.requestId().orElseThrow()).orElseThrow();
      Conversation root = plans.get(r.conv()).root();
      int hit = root.hitBlocks(r.turn());
      // the previous turn of this play must have been sent (not the first turn after a primer)
      boolean previousSent = r.turn() == 0 || recs.stream().anyMatch(o -> o.play() == r.play()
          && o.conv().equals(r.conv()) && o.turn() == r.turn() - 1 && !o.warmup());
      if (!previousSent) {
        continue;
      }
      int messages = 2 * r.turn() + 1;
      assertThat((double) tl.cachedTokens())
          .as("%s turn %d: server cache hits vs %d trace blocks", r.conv(), r.turn(), hit)
          .isBetween(hit * 64.0 - 64, hit * 64.0 + 64 + 4.0 * messages);
      expectedTokens += hit * 64L;
      cachedTokens += tl.cachedTokens();
      checked++;
    }
    assertThat(checked).isGreaterThan(10);
    assertThat(expectedTokens).isPositive();
    assertThat((double) cachedTokens / expectedTokens).isBetween(0.9, 1.2);
  }

  @Test
  void recordedEndToStartGapsAreHonoured() throws Exception {
    sim(SimConfig.builder());
    // api 0.05 s, next turn 0.4 s after the recorded end
    WekaTrace t = trace("gaps", req(0, 0.05, 128, 8, 1, 2), req(0.45, 0.05, 192, 8, 1, 2, 3),
        req(0.9, 0.05, 256, 8, 1, 2, 3, 4), req(1.35, 0.05, 320, 8, 1, 2, 3, 4, 5));
    AgenticReplay.run(List.of(t), options(1).duration(Duration.ofSeconds(4)).build(), tmp);
    List<Rec> recs = records(tmp).stream().filter(r -> !r.warmup() && !r.cancelled()).toList();
    int gaps = 0;
    for (int i = 1; i < recs.size(); i++) {
      Rec prev = recs.get(i - 1);
      Rec cur = recs.get(i);
      if (cur.play() == prev.play() && cur.turn() == prev.turn() + 1) {
        assertThat(cur.start() - prev.end()).as("gap before %s turn %d", cur.conv(), cur.turn())
            .isBetween(0.4 - EARLY, 0.4 + LATE);
        gaps++;
      } else if (cur.play() != prev.play()) {
        // a drained lane restarts at once with turn 0 of a new play
        assertThat(cur.turn()).isZero();
        assertThat(cur.start() - prev.end()).isLessThan(LATE);
      }
    }
    assertThat(gaps).isGreaterThanOrEqualTo(4);
  }

  @Test
  void subagentsStartAtTheirOffsetAndJoinsWaitForThem() throws Exception {
    sim(SimConfig.builder());
    // turn 0 at 0 (api 0.1); subagent starts 0.3 after turn 0 started, 2 requests, ends 1.2;
    // turn 1 at 0.5 does not wait; turn 2 at 1.5 joins the subagent (0.3 after its end). The
    // subagent's second request generates 600 tokens (~1.2 s in the simulator), so in the replay
    // the join, not turn 1's recorded gap of 0.9 s, decides when turn 2 starts.
    WekaTrace t = trace("sa",
        req(0, 0.1, 128, 8, 1, 2),
        new SubagentEntry(0.3, "agent", "Subagent", java.util.OptionalLong.empty(), java.util.OptionalLong.empty(),
            java.util.OptionalLong.empty(), "completed", List.of("m"),
            List.of(req(0.3, 0.4, 64, 8, 50), req(0.8, 0.4, 128, 600, 50, 51)), 0, 0),
        req(0.5, 0.1, 192, 8, 1, 2, 3),
        req(1.5, 0.1, 256, 8, 1, 2, 3, 4));
    TracePlan plan = TracePlan.of(t);
    assertThat(plan.root().spawnedBy(0)).singleElement().satisfies(c -> assertThat(c.joinTurn()).isEqualTo(2));
    AgenticReplay.run(List.of(t), options(1).duration(Duration.ofSeconds(5)).startRatioMin(0).startRatioMax(0).build(), tmp);
    Map<Integer, List<Rec>> byPlay = records(tmp).stream().filter(r -> !r.warmup())
        .collect(Collectors.groupingBy(Rec::play, TreeMap::new, Collectors.toList()));
    int plays = 0;
    for (List<Rec> play : byPlay.values()) {
      Rec turn0 = find(play, "sa", 0);
      Rec turn2 = find(play, "sa", 2);
      Rec child0 = find(play, "sa::sa:agent", 0);
      Rec child1 = find(play, "sa::sa:agent", 1);
      if (turn0 == null || turn2 == null || child0 == null || child1 == null) {
        continue; // the initial play starts at its primer; cut-off plays at the end
      }
      assertThat(child0.start() - turn0.start()).as("spawn offset").isBetween(0.3 - EARLY, 0.3 + LATE);
      assertThat(child1.start() - child0.end()).as("child's own gap").isBetween(0.1 - EARLY, 0.1 + LATE);
      Rec turn1 = find(play, "sa", 1);
      assertThat(turn1.start()).as("turn 1 does not wait for the child").isLessThan(child1.end());
      // turn 2 waits for both its predecessor's recorded gap and the joined child
      double ready = Math.max(turn1.end() + 0.9, child1.end() + 0.3);
      assertThat(child1.end() + 0.3).as("the join decides").isGreaterThan(turn1.end() + 0.9);
      assertThat(turn2.start() - ready).as("join waits for the child").isBetween(-EARLY, LATE);
      plays++;
    }
    assertThat(plays).isGreaterThanOrEqualTo(1);
  }

  private static Rec find(List<Rec> recs, String conv, int turn) {
    return recs.stream().filter(r -> r.conv().equals(conv) && r.turn() == turn).findFirst().orElse(null);
  }

  @Test
  void stopsIssuingOnTimeDrainsAndCancelsAfterGrace() throws Exception {
    // slow decode: 200 tokens x 10 ms = 2 s per request
    sim(SimConfig.builder().decodeStepBase(Duration.ofMillis(10)));
    List<WekaTrace> traces = new SyntheticCorpus(4, 6, 2, 2, 1, 200, 0.05, 0.01, 0, 1).generate();
    long t0 = System.nanoTime();
    AgenticResult r = AgenticReplay.run(traces,
        options(4).duration(Duration.ofSeconds(1)).grace(Duration.ofMillis(300)).build(), tmp);
    double wall = (System.nanoTime() - t0) / 1e9;
    JsonNode agg = r.aggregateNode();
    List<Rec> recs = records(tmp);
    double windowStart = java.time.LocalDateTime.parse(agg.get("start_time").asText())
        .atZone(java.time.ZoneId.systemDefault()).toInstant().toEpochMilli() / 1e3;
    for (Rec rec : recs) {
      if (!rec.warmup()) {
        assertThat(rec.start()).as("no request starts after the window").isLessThan(windowStart + 1.0 + LATE);
      }
    }
    assertThat(recs.stream().filter(Rec::cancelled).count()).as("in-flight requests cancelled after grace").isPositive();
    assertThat(agg.at("/cancelled_request_count/avg").asLong()).isPositive();
    assertThat(wall).as("warmup (~2 s) + 1 s window + 0.3 s grace").isLessThan(2 * 2.5 + 1 + 0.3 + 3);
  }

  @Test
  void contextOverflowEndsThatSessionOnlyAndOtherErrorsDoNot() throws Exception {
    // prompts grow 128 tokens per turn; the model holds ~1000
    sim(SimConfig.builder().maxModelLen(1000));
    List<WekaTrace> traces = new SyntheticCorpus(2, 12, 4, 2, 1, 8, 0.01, 0.01, 0, 1).generate();
    AgenticResult r = AgenticReplay.run(traces, options(2).duration(Duration.ofSeconds(3))
        .startRatioMin(0).startRatioMax(0).failedRequestThreshold(1.0).build(), tmp);
    List<Rec> recs = records(tmp).stream().filter(x -> !x.warmup()).toList();
    Map<Integer, List<Rec>> byPlay = recs.stream().collect(Collectors.groupingBy(Rec::play));
    int overflowed = 0;
    for (List<Rec> play : byPlay.values()) {
      OptionalDouble firstOverflow = play.stream().filter(x -> "HTTPStatusError".equals(x.error()))
          .mapToDouble(Rec::start).min();
      if (firstOverflow.isPresent()) {
        overflowed++;
        int lastTurn = play.stream().filter(x -> x.start() <= firstOverflow.getAsDouble()).mapToInt(Rec::turn).max().orElseThrow();
        assertThat(play).as("nothing after the overflow in this play")
            .allMatch(x -> x.turn() <= lastTurn);
      }
    }
    assertThat(overflowed).isGreaterThanOrEqualTo(2);
    assertThat(r.aggregateNode().at("/context_overflow_count/avg").asLong()).isPositive();
    assertThat(r.invalidReasons()).contains("context_overflow_rate_exceeded");
    assertThat(recs.get(0).raw().at("/error").isNull() || recs.get(0).raw().at("/error/code").asInt() == 400).isTrue();
  }

  @Test
  void aGenericErrorAdvancesTheSession() throws Exception {
    sim(SimConfig.builder());
    List<WekaTrace> traces = new SyntheticCorpus(2, 8, 4, 2, 1, 8, 0.01, 0.01, 0, 1).generate();
    // every 4th profiling request fails with a 500 (not an overflow)
    Capturing transport = new Capturing(sim, n -> n % 4 == 1);
    AgenticReplay.run(traces, options(2).duration(Duration.ofSeconds(2)).failedRequestThreshold(1.0).build(),
        tmp, "synthetic", transport);
    List<Rec> recs = records(tmp).stream().filter(x -> !x.warmup()).toList();
    int continued = 0;
    for (Rec e : recs) {
      if (e.error() != null && !e.cancelled()) {
        if (recs.stream().anyMatch(o -> o.play() == e.play() && o.conv().equals(e.conv()) && o.turn() == e.turn() + 1)) {
          continued++;
        }
      }
    }
    assertThat(continued).isPositive();
  }

  @Test
  void theLiveErrorThresholdCancelsTheRun() throws Exception {
    sim(SimConfig.builder());
    List<WekaTrace> traces = new SyntheticCorpus(3, 10, 4, 2, 1, 8, 0.01, 0.01, 0, 1).generate();
    // every profiling request fails: 100 % > 10 % once 10 requests completed
    Capturing transport = new Capturing(sim, n -> true);
    long t0 = System.nanoTime();
    AgenticResult r = AgenticReplay.run(traces, options(2).duration(Duration.ofSeconds(30)).build(),
        tmp, "synthetic", transport);
    assertThat((System.nanoTime() - t0) / 1e9).as("cancelled long before the 30 s window").isLessThan(20);
    assertThat(r.cancelled()).isTrue();
    assertThat(r.invalidReasons()).contains("run_cancelled");
    assertThat(r.failedRequests()).isBetween(10L, 20L);
    assertThat(r.aggregateNode().at("/metadata/cancel_reason").asText()).contains("exceeded the failed-request threshold");
  }

  @Test
  void aFailingRootWarmupRequestAbortsTheRun() {
    sim(SimConfig.builder().faults(io.infx.client.sim.Faults.always(io.infx.client.sim.Faults.Kind.HTTP_500)));
    List<WekaTrace> traces = new SyntheticCorpus(1, 4, 4, 2, 1, 8, 0.01, 0.01, 0, 1).generate();
    assertThatThrownBy(() -> AgenticReplay.run(traces, options(1).duration(Duration.ofSeconds(2)).build(), tmp))
        .isInstanceOf(InfxException.class).hasMessageContaining("warmup request of root session")
        .hasMessageContaining("aborted before profiling");
  }

  @Test
  void primerIsTheTurnBeforeTheStartPoint() throws Exception {
    sim(SimConfig.builder());
    // turns at 0 / 0.1 / 0.2 s with both ratios 0.5: t* = 0.1, primer = turn 0, profiling from turn 1
    WekaTrace t = trace("ts", req(0, 0.01, 64, 4, 1), req(0.1, 0.01, 128, 4, 1, 2), req(0.2, 0.01, 192, 4, 1, 2, 3));
    AgenticReplay.run(List.of(t), options(1).duration(Duration.ofSeconds(1)).startRatioMin(0.5).startRatioMax(0.5).build(), tmp);
    List<Rec> recs = records(tmp);
    assertThat(recs.get(0).warmup()).isTrue();
    assertThat(recs.get(0).turn()).isZero();
    assertThat(recs.get(0).raw().at("/metrics/input_sequence_length/value").asInt()).isGreaterThanOrEqualTo(64);
    assertThat(recs.get(1).warmup()).isFalse();
    assertThat(recs.get(1).turn()).isEqualTo(1);
    // the primer carries the full history up to its turn, so turn 1 finds it cached
    assertThat(recs.stream().filter(r -> !r.warmup()).map(Rec::turn).toList()).startsWith(1, 2, 0, 1, 2);
  }

  @Test
  void exactlyUsersTreesLiveAndDrainedLanesRecycleWithNewMarkers() throws Exception {
    sim(SimConfig.builder());
    List<WekaTrace> traces = new SyntheticCorpus(5, 4, 6, 2, 1, 8, 0.02, 0.02, 2, 2).generate();
    Capturing transport = new Capturing(sim, n -> false);
    AgenticReplay.run(traces, options(3).duration(Duration.ofSeconds(3)).build(), tmp, "synthetic", transport);
    List<Rec> recs = records(tmp);
    Map<Integer, double[]> span = new HashMap<>();
    Map<Integer, String> markers = new HashMap<>();
    for (Rec r : recs) {
      span.merge(r.play(), new double[] {r.start(), r.end()},
          (a, b) -> new double[] {Math.min(a[0], b[0]), Math.max(a[1], b[1])});
      String body = transport.bodies.get(r.requestId());
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\[rid:([0-9a-f]{12})\\]").matcher(body);
      assertThat(m.find()).isTrue();
      String prev = markers.putIfAbsent(r.play(), m.group(1));
      assertThat(prev == null || prev.equals(m.group(1))).as("one marker per play").isTrue();
    }
    assertThat(span.size()).as("lanes recycled").isGreaterThan(3);
    assertThat(markers.values().stream().distinct().count()).isEqualTo(markers.size());
    // at no instant are more than 3 trees live
    for (double[] s : span.values()) {
      double mid = (s[0] + s[1]) / 2;
      long live = span.values().stream().filter(o -> o[0] < mid && mid < o[1]).count();
      assertThat(live).isLessThanOrEqualTo(3);
    }
    // recycled plays start from turn 0
    recs.stream().filter(r -> r.play() >= 3).collect(Collectors.groupingBy(Rec::play)).values()
        .forEach(play -> assertThat(play.get(0).turn()).isZero());
  }

  @Test
  void correlationAndAffinityHeaders() throws Exception {
    sim(SimConfig.builder());
    List<WekaTrace> traces = new SyntheticCorpus(2, 6, 8, 2, 1, 8, 0.01, 0.01, 2, 2).generate();
    Capturing transport = new Capturing(sim, n -> false);
    AgenticReplay.run(traces, options(2).duration(Duration.ofSeconds(1)).affinity(AgenticOptions.Affinity.DYNAMO).build(),
        tmp, "synthetic", transport);
    List<Rec> recs = records(tmp);
    int children = 0;
    for (Rec r : recs) {
      Map<String, String> h = new HashMap<>();
      transport.headers.get(r.requestId()).forEach(e -> h.put(e.getKey(), e.getValue()));
      assertThat(h.get("X-Request-ID")).isEqualTo(r.requestId());
      assertThat(h.get("X-Correlation-ID")).isEqualTo(r.raw().at("/metadata/x_correlation_id").asText());
      assertThat(h.get("X-Dynamo-Session-ID")).isEqualTo(h.get("X-Correlation-ID"));
      if (r.conv().contains("::sa:")) {
        children++;
        assertThat(h.get("X-Dynamo-Parent-Session-ID")).isEqualTo(r.raw().at("/metadata/root_correlation_id").asText());
      } else {
        assertThat(h).doesNotContainKey("X-Dynamo-Parent-Session-ID");
        assertThat(h.get("X-Correlation-ID")).isEqualTo(r.raw().at("/metadata/root_correlation_id").asText());
      }
    }
    assertThat(children).isPositive();
  }

  @Test
  void sameSeedAndRunIdGiveTheSameStartPointsAndPromptBytes() throws Exception {
    sim(SimConfig.builder());
    List<WekaTrace> traces = new SyntheticCorpus(4, 8, 11, 2, 1, 8, 0.01, 0.01, 0, 1).generate();
    List<java.util.Set<String>> primers = new ArrayList<>();
    for (long seed : new long[] {7, 7, 8}) {
      Capturing transport = new Capturing(sim, n -> false);
      Path dir = tmp.resolve("seed" + seed + "-" + primers.size());
      AgenticReplay.run(traces, options(3).seed(seed).duration(Duration.ofMillis(300)).build(), dir,
          "synthetic", transport);
      // the primers: each lane's first request, with its start point and its full history
      java.util.Set<String> first = new java.util.HashSet<>();
      for (Rec r : records(dir)) {
        if (r.warmup()) {
          first.add(r.conv() + "#" + r.turn() + "#" + transport.bodies.get(r.requestId()).hashCode());
        }
      }
      primers.add(first);
    }
    assertThat(primers.get(0)).hasSize(3).isEqualTo(primers.get(1));
    assertThat(primers.get(2)).isNotEqualTo(primers.get(0));
  }

  @Test
  void longRecordedIdleIsCappedPerTreeAndSystemWide() throws Exception {
    sim(SimConfig.builder());
    // 60 s of recorded idle between turn 1 and turn 2
    WekaTrace t = trace("idle", req(0, 0.01, 64, 4, 1), req(0.1, 0.01, 128, 4, 1, 2), req(60.2, 0.01, 192, 4, 1, 2, 3));
    AgenticResult r = AgenticReplay.run(List.of(t), options(1).duration(Duration.ofSeconds(2))
        .startRatioMin(0).startRatioMax(0).traceIdleGapCap(Duration.ofMillis(300)).build(), tmp);
    List<Rec> recs = records(tmp).stream().filter(x -> !x.warmup()).toList();
    Rec t1 = recs.get(0);
    Rec t2 = recs.get(1);
    assertThat(t1.turn()).isEqualTo(1);
    assertThat(t2.turn()).isEqualTo(2);
    assertThat(t2.start() - t1.end()).isBetween(0.3 - EARLY, 0.3 + LATE);
    assertThat(r.aggregateNode().at("/metadata/replay/trace_idle_jumps").asLong()).isPositive();

    Path other = tmp.resolve("system");
    AgenticResult r2 = AgenticReplay.run(List.of(t), options(1).duration(Duration.ofSeconds(2))
        .startRatioMin(0).startRatioMax(0).systemIdleGapCap(Duration.ofMillis(200)).build(), other);
    List<Rec> recs2 = records(other).stream().filter(x -> !x.warmup()).toList();
    assertThat(recs2.get(1).start() - recs2.get(0).end()).isBetween(0.2 - EARLY, 0.2 + LATE);
    assertThat(r2.aggregateNode().at("/metadata/replay/system_idle_jumps").asLong()).isPositive();
  }
}
