package io.infx.client.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticProgress;
import io.infx.client.agentx.HashIds;
import io.infx.client.agentx.TraceRequest;
import io.infx.client.agentx.WekaTrace;
import io.infx.client.load.VirtualTicker;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The live progress of a replay ({@link AgenticOptions#progress()}) on a virtual clock: a snapshot
 * at the start of each phase and every second of it, with counts worked out by hand from the
 * schedule of {@code ReplayScheduleTest}'s first case.
 */
@Timeout(60)
class ReplayProgressTest {

  private static final long MS = 1_000_000L;

  private final VirtualTicker ticker = new VirtualTicker();
  /** The fake server streams one token per millisecond. */
  private final VirtualTransport transport = new VirtualTransport(ticker, tokens -> tokens * MS);
  private final List<AgenticProgress> seen = new ArrayList<>();
  private final List<Long> at = new ArrayList<>();

  private static TraceRequest req(double t, double api, int in, int out, int... ids) {
    return TraceRequest.of(t, "m", in, out, HashIds.of(ids), api);
  }

  /** One lane, 4 turns of 40 tokens (40 ms) 0.4 s apart; start ratio 0 makes turn 0 the primer. */
  private static final WekaTrace GAPS = new WekaTrace("gaps", List.of("m"), 64,
      WekaTrace.HashIdScope.LOCAL, 0, 0,
      List.of(req(0, 0.05, 128, 40, 1, 2), req(0.45, 0.05, 192, 40, 1, 2, 3),
          req(0.9, 0.05, 256, 40, 1, 2, 3, 4), req(1.35, 0.05, 320, 40, 1, 2, 3, 4, 5)));

  private ReplayEngine.Outcome run(Transport server) {
    AgenticOptions options = AgenticOptions.builder().baseUri(URI.create("http://127.0.0.1:9"))
        .model("m").users(1).runId("progress").warmupRequestsPerLane(0).startRatioMin(0)
        .startRatioMax(0).duration(Duration.ofSeconds(3)).grace(Duration.ofSeconds(10))
        .progress(p -> {
          seen.add(p);
          at.add(ticker.nanoTime());
        })
        .build();
    return new ReplayEngine(ReplaySpec.of(options, List.of(GAPS)), server, r -> { }, null, ticker,
        Runnable::run).run();
  }

  @Test
  void aSnapshotAtEachPhaseStartAndEverySecondWithDoneInFlightErrorsAndTimeLeft() {
    // Profiling (from the primer's end, 1 ms) sends turns at 0.40, 0.84, 1.28, then the next play
    // at 1.32, 1.76, 2.20, 2.64 and 2.68, each over 40 ms later; the 3 s window then ends with
    // nothing in flight.
    ReplayEngine.Outcome o = run(transport);

    long start = VirtualTicker.START;
    long profiling = start + MS; // the primer: one token
    // the last one when the scheduler's next check (at most MAX_PARK_NANOS later) finds the drain empty
    assertThat(at).containsExactly(start, profiling, profiling, profiling + 1_000 * MS,
        profiling + 2_000 * MS, profiling + 3_000 * MS, profiling + 3_000 * MS,
        profiling + 3_000 * MS + ReplayEngine.MAX_PARK_NANOS);
    assertThat(seen.stream().map(this::line).toList()).containsExactly(
        // warm-up: the quota is 1 primer + 0 requests per lane, no clock bounds it yet; the
        // primer's body is being built (it goes out on the loop's next turn, same instant)
        "WARMUP 0/1 done, 0 failed, 0 in flight, 0 s elapsed, left -",
        // it ends with the primer's end
        "WARMUP 1/1 done, 0 failed, 0 in flight, 0 s elapsed, left 0 ms",
        "PROFILING 0/0 done, 0 failed, 0 in flight, 0 s elapsed, left 3000 ms",
        // ended by 1 s: 0.44 and 0.88
        "PROFILING 2/0 done, 0 failed, 0 in flight, 1 s elapsed, left 2000 ms",
        // ended by 2 s: also 1.32, 1.36 and 1.80
        "PROFILING 5/0 done, 0 failed, 0 in flight, 2 s elapsed, left 1000 ms",
        // the window is over (2.24, 2.68, 2.72 ended too), then the drain's grace starts
        "PROFILING 8/0 done, 0 failed, 0 in flight, 3 s elapsed, left 0 ms",
        "DRAIN 8/0 done, 0 failed, 0 in flight, 0 s elapsed, left 10000 ms",
        // the run is over
        "DRAIN 8/0 done, 0 failed, 0 in flight, 0 s elapsed, left 0 ms");
    assertThat(o.stats().successes).isEqualTo(8);
  }

  @Test
  void failedRequestsAreCountedAndInFlightOnesShown() {
    // the same server, but every profiled request takes 600 ms longer than its tokens (640 ms),
    // and the second profiled one answers 500
    List<Integer> profiledSends = new ArrayList<>();
    VirtualTransport slow = new VirtualTransport(ticker, tokens -> tokens * MS + (tokens > 1 ? 600 * MS : 0));
    Transport failing = new Transport() {
      @Override
      public java.util.concurrent.CompletableFuture<io.infx.client.RequestRecord> send(byte[] body,
          int promptTokens, List<java.util.Map.Entry<String, String>> headers, boolean warmup, long intended) {
        var f = slow.send(body, promptTokens, headers, warmup, intended);
        if (warmup) {
          return f;
        }
        profiledSends.add(profiledSends.size());
        if (profiledSends.size() != 2) {
          return f;
        }
        return f.thenApply(r -> io.infx.client.RequestRecord.builder().intendedNanos(r.intendedNanos())
            .sendNanos(r.sendNanos()).endNanos(r.endNanos()).status(500)
            .failure(new io.infx.client.RequestFailure(io.infx.client.FailureClass.HTTP_5XX,
                "HTTP 500", 500, "boom"))
            .build());
      }

      @Override
      public int inFlight() {
        return slow.inFlight();
      }

      @Override
      public void close() {
        slow.close();
      }
    };
    run(failing);
    // each turn 0.4 s after the previous one's end: play 0 turns 1-3 at 0.40-1.04, 1.44-2.08
    // (failed), 2.48-3.12; play 1 would start at 3.12, after the window. At 1 s turn 1 is in
    // flight; at 2 s turn 1 is done and turn 2 in flight; at 3 s (the window's end) turn 2 has
    // failed and turn 3 is in flight; it ends in the drain, which then ends the run.
    assertThat(seen.stream().map(this::line).toList()).containsExactly(
        "WARMUP 0/1 done, 0 failed, 0 in flight, 0 s elapsed, left -",
        "WARMUP 1/1 done, 0 failed, 0 in flight, 0 s elapsed, left 0 ms",
        "PROFILING 0/0 done, 0 failed, 0 in flight, 0 s elapsed, left 3000 ms",
        "PROFILING 0/0 done, 0 failed, 1 in flight, 1 s elapsed, left 2000 ms",
        "PROFILING 1/0 done, 0 failed, 1 in flight, 2 s elapsed, left 1000 ms",
        "PROFILING 2/0 done, 1 failed, 1 in flight, 3 s elapsed, left 0 ms",
        "DRAIN 2/0 done, 1 failed, 1 in flight, 0 s elapsed, left 10000 ms",
        "DRAIN 3/0 done, 1 failed, 0 in flight, 0 s elapsed, left 0 ms");
  }

  private String line(AgenticProgress p) {
    return p.phase() + " " + p.finished() + "/" + p.target() + " done, " + p.failed() + " failed, "
        + p.inFlight() + " in flight, " + p.elapsed().toSeconds() + " s elapsed, left "
        + p.left().map(l -> l.toMillis() + " ms").orElse("-");
  }
}
