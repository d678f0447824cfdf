package io.infx.client.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.HashIds;
import io.infx.client.agentx.ImmutableAgenticOptions;
import io.infx.client.agentx.SubagentEntry;
import io.infx.client.agentx.TraceEntry;
import io.infx.client.agentx.TraceRequest;
import io.infx.client.agentx.WekaTrace;
import io.infx.client.load.VirtualTicker;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The AgentX schedule on a virtual clock (spec {@code agentx.md} §1.3–§1.7): every request of a
 * run is placed exactly, so each expected instant below is worked out by hand from the trace and
 * the fake server's latency (1 ms per output token) and compared to the nanosecond. The wall-clock
 * counterparts, with loaded-machine tolerances, are in {@code AgenticReplayBehaviourTest}.
 */
@Timeout(60)
class ReplayScheduleTest {

  /** Virtual timestamps are exact; the trace's seconds become nanoseconds through a double. */
  private static final double EXACT = 1e-6;
  private static final long MS = 1_000_000L;

  private final VirtualTicker ticker = new VirtualTicker();
  /** The fake server streams one token per millisecond. */
  private final VirtualTransport transport = new VirtualTransport(ticker, tokens -> tokens * MS);
  private final List<ReplayRecord> records = new ArrayList<>();

  private static ImmutableAgenticOptions.Builder options(int users) {
    return AgenticOptions.builder().baseUri(URI.create("http://127.0.0.1:9")).model("m").users(users)
        .runId("schedule").warmupRequestsPerLane(0).grace(Duration.ofSeconds(10))
        .startRatioMin(0).startRatioMax(0);
  }

  private static TraceRequest req(double t, double api, int in, int out, int... ids) {
    return TraceRequest.of(t, "m", in, out, HashIds.of(ids), api);
  }

  private static WekaTrace trace(String id, TraceEntry... entries) {
    return new WekaTrace(id, List.of("m"), 64, WekaTrace.HashIdScope.LOCAL, 0, 0, List.of(entries));
  }

  private ReplayEngine.Outcome run(AgenticOptions options, WekaTrace... traces) {
    ReplaySpec spec = ReplaySpec.of(options, List.of(traces));
    ReplayEngine engine = new ReplayEngine(spec, transport, records::add, null, ticker, Runnable::run);
    return engine.run();
  }

  private static long epochNs(Instant i) {
    return i.getEpochSecond() * 1_000_000_000L + i.getNano();
  }

  /** Seconds from the start of profiling. */
  private static double sinceProfiling(long epochNs, ReplayEngine.Outcome o) {
    return (epochNs - epochNs(o.profilingStart())) / 1e9;
  }

  private List<ReplayRecord> profiled() {
    return records.stream().filter(r -> !r.warmup()).toList();
  }

  private ReplayRecord find(int play, String conv, int turn) {
    return profiled().stream().filter(r -> r.sessionNum() == play && r.conversationId().equals(conv)
        && r.turnIndex() == turn).findFirst().orElseThrow(() -> new AssertionError(
            "no record of play " + play + " " + conv + " turn " + turn + " in " + profiled()));
  }

  private static double gap(ReplayRecord before, ReplayRecord after) {
    return (after.startNs() - before.endNs()) / 1e9;
  }

  @Test
  void turnsKeepTheirRecordedGapsDrainedLanesRestartAtOnceAndTheWindowStopsNewRequests() {
    // 4 turns, 40 output tokens (40 ms at the fake server); each next turn 0.4 s after the
    // recorded end of the previous one. The primer is turn 0 (start ratio 0), sent in warmup.
    WekaTrace t = trace("gaps", req(0, 0.05, 128, 40, 1, 2), req(0.45, 0.05, 192, 40, 1, 2, 3),
        req(0.9, 0.05, 256, 40, 1, 2, 3, 4), req(1.35, 0.05, 320, 40, 1, 2, 3, 4, 5));
    ReplayEngine.Outcome o = run(options(1).duration(Duration.ofSeconds(3)).build(), t);

    // warmup: the primer (1 token, 1 ms); profiling starts when it ends, at t=0 below.
    // play 0: turns 1-3 at 0.4, 0.4+0.04+0.4=0.84, 1.28 (each 40 ms); the tree drains at 1.32 and
    // the lane restarts at once with turn 0 of play 1: 1.32, 1.76, 2.20, 2.64; play 2 turn 0 at
    // 2.68, its turn 1 would be at 3.12, after the 3 s window.
    assertThat(records).filteredOn(ReplayRecord::warmup).singleElement()
        .satisfies(r -> assertThat(r.turnIndex()).isZero());
    List<Double> starts = profiled().stream().map(r -> sinceProfiling(r.startNs(), o)).toList();
    assertThat(starts).hasSize(8);
    double[] expected = {0.40, 0.84, 1.28, 1.32, 1.76, 2.20, 2.64, 2.68};
    for (int i = 0; i < expected.length; i++) {
      assertThat(starts.get(i)).as("start of profiled request %d", i).isCloseTo(expected[i], within(EXACT));
    }
    assertThat(profiled().stream().map(r -> r.sessionNum() + ":" + r.turnIndex()).toList())
        .containsExactly("0:1", "0:2", "0:3", "1:0", "1:1", "1:2", "1:3", "2:0");
    assertThat(profiled()).allSatisfy(r -> assertThat(r.latenessMs()).isZero());
    assertThat(Duration.between(o.profilingStart(), o.profilingEnd())).isEqualTo(Duration.ofSeconds(3));
    assertThat(o.cancelled()).isFalse();
    assertThat(o.plays()).isEqualTo(3);
  }

  @Test
  void subagentsStartAtTheirOffsetAndTheJoinWaitsForTheChild() {
    // turn 0 at 0 (40 tokens); a subagent starts 0.3 s after turn 0 started: 2 requests, the
    // second 2000 tokens (2 s at the fake server), 0.1 s apart; turn 1 0.4 s after turn 0's end
    // does not wait for it; turn 2 joins it 0.3 s after its recorded end.
    WekaTrace t = trace("sa",
        req(0, 0.1, 128, 40, 1, 2),
        new SubagentEntry(0.3, "agent", "Subagent", OptionalLong.empty(), OptionalLong.empty(),
            OptionalLong.empty(), "completed", List.of("m"),
            List.of(req(0.3, 0.4, 64, 50, 50), req(0.8, 0.4, 128, 2000, 50, 51)), 0, 0),
        req(0.5, 0.1, 192, 40, 1, 2, 3),
        req(1.5, 0.1, 256, 40, 1, 2, 3, 4));
    ReplayEngine.Outcome o = run(options(1).duration(Duration.ofSeconds(10)).build(), t);

    // play 1 (recycled, so every turn is profiled); its turn 0 starts at T:
    // turn 0 [T, T+0.04]; child 0 [T+0.3, T+0.35]; child 1 [T+0.45, T+2.45]; turn 1 at
    // T+0.04+0.4 = T+0.44; turn 2 at max(turn 1 end + 0.9, child end + 0.3) = T+2.75.
    ReplayRecord turn0 = find(1, "sa", 0);
    ReplayRecord turn1 = find(1, "sa", 1);
    ReplayRecord turn2 = find(1, "sa", 2);
    ReplayRecord child0 = find(1, "sa::sa:agent", 0);
    ReplayRecord child1 = find(1, "sa::sa:agent", 1);
    double t0 = sinceProfiling(turn0.startNs(), o);
    assertThat(sinceProfiling(child0.startNs(), o) - t0).as("spawn offset").isCloseTo(0.3, within(EXACT));
    assertThat(gap(child0, child1)).as("the child's own gap").isCloseTo(0.1, within(EXACT));
    assertThat(gap(turn0, turn1)).as("turn 1 keeps its gap, not waiting for the child")
        .isCloseTo(0.4, within(EXACT));
    assertThat(sinceProfiling(turn2.startNs(), o) - t0).as("the join decides turn 2")
        .isCloseTo(2.75, within(EXACT));
    assertThat(gap(child1, turn2)).isCloseTo(0.3, within(EXACT));
    // play 2 starts the moment play 1's tree drained (turn 2 was its last request)
    assertThat(find(2, "sa", 0).startNs()).isEqualTo(turn2.endNs());
    assertThat(o.cancelled()).isFalse();
  }

  @Test
  void theWindowEndsOnTimeAndTheDrainCancelsAfterTheGrace() {
    // every profiled request takes 5 s (5000 tokens); the window is 1 s, the grace 0.3 s
    WekaTrace t = trace("slow", req(0, 0.05, 128, 5000, 1, 2), req(0.1, 0.05, 192, 5000, 1, 2, 3),
        req(0.2, 0.05, 256, 5000, 1, 2, 3, 4));
    ReplayEngine.Outcome o = run(options(2).duration(Duration.ofSeconds(1))
        .grace(Duration.ofMillis(300)).build(), t, t);

    // both lanes: the primer (turn 0) in warmup, turn 1 at 0.05 s into the window, in flight at
    // its end (1 s) and cancelled when the grace ran out (1.3 s); nothing else is sent.
    assertThat(profiled()).hasSize(2).allSatisfy(r -> {
      assertThat(r.turnIndex()).isEqualTo(1);
      assertThat(sinceProfiling(r.startNs(), o)).isCloseTo(0.05, within(EXACT));
      assertThat(r.cancelled()).isTrue();
      assertThat(sinceProfiling(r.cancellationNs(), o)).isCloseTo(1.3, within(EXACT));
      assertThat(r.failure()).map(ReplayRecord.Failure::code).contains(499);
    });
    assertThat(Duration.between(o.profilingStart(), o.profilingEnd())).isEqualTo(Duration.ofSeconds(1));
    assertThat(Duration.between(o.profilingEnd(), o.end())).isEqualTo(Duration.ofMillis(300));
    assertThat(o.stats().cancelled).isEqualTo(2);
  }

  @Test
  void longRecordedIdleIsCutToTheTreeCap() {
    // 60 s of recorded idle between turns 1 and 2; the tree cap is 0.3 s
    WekaTrace t = trace("idle", req(0, 0.01, 64, 4, 1), req(0.1, 0.01, 128, 4, 1, 2),
        req(60.2, 0.01, 192, 4, 1, 2, 3));
    ReplayEngine.Outcome o = run(options(1).duration(Duration.ofSeconds(2))
        .traceIdleGapCap(Duration.ofMillis(300)).build(), t);
    ReplayRecord turn1 = find(0, "idle", 1);
    ReplayRecord turn2 = find(0, "idle", 2);
    assertThat(gap(turn1, turn2)).isCloseTo(0.3, within(EXACT));
    // each play takes 0.4 s (turn 1 at +0.09, 4 ms each, turn 2 0.3 s after turn 1's end), so
    // the 2 s window holds 5 such jumps, each skipping 60.2 - 0.11 - 0.3 s of recorded idle
    assertThat(o.stats().treeIdleJumps).isEqualTo(5);
    assertThat(o.stats().treeIdleSkippedSeconds).isCloseTo(5 * 59.79, within(EXACT));
    assertThat(o.stats().systemIdleJumps).isZero();
  }

  @Test
  void whenNothingRunsAnywhereTheNextDispatchIsAtMostTheSystemCapAway() {
    WekaTrace t = trace("idle", req(0, 0.01, 64, 4, 1), req(0.1, 0.01, 128, 4, 1, 2),
        req(60.2, 0.01, 192, 4, 1, 2, 3));
    run(options(1).duration(Duration.ofSeconds(2)).systemIdleGapCap(Duration.ofMillis(200)).build(), t);
    assertThat(gap(find(0, "idle", 1), find(0, "idle", 2))).isCloseTo(0.2, within(EXACT));
  }

  @Test
  void warmupRequestsContinueTheTreeAndProfilingResumesWithTheRecordedGap() {
    // 2 one-token warmup requests after the primer: turns 1 and 2 are sent back to back in
    // warmup (recorded idle removed); turn 3 is due 0.4 s after turn 2's end, kept into profiling
    WekaTrace t = trace("w", req(0, 0.05, 128, 40, 1, 2), req(0.45, 0.05, 192, 40, 1, 2, 3),
        req(0.9, 0.05, 256, 40, 1, 2, 3, 4), req(1.35, 0.05, 320, 40, 1, 2, 3, 4, 5));
    ReplayEngine.Outcome o = run(options(1).warmupRequestsPerLane(2).duration(Duration.ofSeconds(1))
        .build(), t);
    List<ReplayRecord> warm = records.stream().filter(ReplayRecord::warmup).toList();
    assertThat(warm).extracting(ReplayRecord::turnIndex).containsExactly(0, 1, 2);
    for (int i = 1; i < warm.size(); i++) {
      assertThat(warm.get(i).startNs()).as("warmup sends at once").isEqualTo(warm.get(i - 1).endNs());
    }
    assertThat(transport.sent).filteredOn(VirtualTransport.Sent::warmup)
        .allSatisfy(s -> assertThat(s.maxTokens()).isEqualTo(1));
    ReplayRecord turn3 = find(0, "w", 3);
    assertThat(sinceProfiling(turn3.startNs(), o)).isCloseTo(0.4, within(EXACT));
    assertThat(epochNs(o.profilingStart())).isEqualTo(warm.get(2).endNs());
  }
}
