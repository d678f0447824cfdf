package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.load.Ticker;
import io.infx.client.load.VirtualTicker;
import io.infx.client.metrics.IntervalMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

  private static final long MS = 1_000_000;

  /** A success: send at {@code send}, token chunks at the given ms offsets, E2EL end at the last. */
  private static RequestRecord ok(long send, int outputTokens, long... chunkMs) {
    long[] chunks = new long[chunkMs.length];
    for (int i = 0; i < chunks.length; i++) {
      chunks[i] = send + chunkMs[i] * MS;
    }
    long end = chunks[chunks.length - 1];
    return RequestRecord.builder().sendNanos(send).intendedNanos(send).tokenChunkNanos(chunks)
        .e2elEndNanos(end).endNanos(end).outputTokens(outputTokens, TokenSource.USAGE)
        .promptTokens(10).status(200).doneSeen(true).build();
  }

  private static RequestRecord failed(long send) {
    return RequestRecord.builder().sendNanos(send).intendedNanos(send).endNanos(send + MS)
        .failure(new RequestFailure(FailureClass.HTTP_5XX, "boom", 500, "")).status(500).build();
  }

  private static RequestRecord cancelled(long send) {
    return RequestRecord.builder().sendNanos(send).intendedNanos(send).endNanos(send + MS)
        .cancelled(true).build();
  }

  @Test
  void tpotIsRecordedPerRequestAsTheReferenceDefinesIt() {
    LatencyRecorder rec = new LatencyRecorder(new VirtualTicker(), null);
    // TTFT 10 ms, E2EL 50 ms, 4 output tokens: TPOT = (50 − 10) / (4 − 1) = 13.333 ms = 13 333 µs
    rec.record(ok(0, 4, 10, 20, 30, 50));
    // one output token: no TPOT sample (spec §5.1), but TTFT and E2EL of 5 ms
    rec.record(ok(0, 1, 5));
    // 3 chunks carrying 6 tokens: TPOT divides by tokens, not chunks: (40 − 10) / 5 = 6 ms
    rec.record(ok(0, 6, 10, 25, 40));
    rec.record(failed(0));
    rec.record(cancelled(0));
    IntervalMetrics only = rec.sample();
    LatencyRecorder.Totals t = rec.totals();

    assertThat(t.tpot().getTotalCount()).isEqualTo(2);
    assertThat(t.tpot().valuesAreEquivalent(t.tpot().getMaxValue(), 13_333)).isTrue();
    assertThat(t.tpot().valuesAreEquivalent(t.tpot().getMinValue(), 6_000)).isTrue();
    assertThat(t.ttft().getTotalCount()).isEqualTo(3);
    assertThat(t.ttft().valuesAreEquivalent(t.ttft().getMinValue(), 5_000)).isTrue();
    assertThat(t.e2el().getTotalCount()).isEqualTo(3);
    assertThat(t.e2el().valuesAreEquivalent(t.e2el().getMaxValue(), 50_000)).isTrue();
    // gaps 10, 10, 20 and 15, 15 ms
    assertThat(t.itl().getTotalCount()).isEqualTo(5);
    assertThat(t.itl().getCountAtValue(15_000)).isEqualTo(2);
    assertThat(only.completed()).isEqualTo(3);
    assertThat(only.failed()).isEqualTo(1);
    assertThat(only.outputTokens()).isEqualTo(11);
  }

  @Test
  void tpotHistogramAgreesWithTheExactTpotStatistic() {
    List<RequestRecord> records = List.of(ok(0, 4, 10, 20, 30, 50), ok(0, 1, 5),
        ok(0, 6, 10, 25, 40), ok(0, 2, 7, 19));
    LatencyRecorder.Totals t = LatencyRecorder.totalsOf(records);
    List<io.infx.client.dataset.Prompt> prompts = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      prompts.add(new io.infx.client.dataset.Prompt("p" + i, 10, 8));
    }
    ServeBenchmark b = ServeBenchmark.builder()
        .client(ClientOptions.builder().baseUri(java.net.URI.create("http://127.0.0.1:9")).build())
        .backend(ServingBackend.VLLM).model("m").prompts(prompts)
        .load(io.infx.client.load.LoadModel.closed(1)).build();
    ServeResult run = new ServeResult(b, records, new long[records.size()], 0, 1_000 * MS, 1000.0,
        1001.0, 0, 0, b.client(), t, new ClientStats(0, 0, 0, -1, 1), List.of());
    ServeMetrics m = run.metrics(MetricOptions.defaults());
    assertThat(run).hasToString("ServeResult{model=m, prompts=4, sent=4, duration=1.000s, warmups=0}");
    // TTFTs 10, 5, 10, 7 ms; TPOTs 13.333, 12, 6 ms; E2ELs 50, 5, 40, 19 ms
    assertThat(m.toString()).startsWith("ServeMetrics{completed=4/4, failed=0, cancelled=0, "
        + "duration=1.000s, ttft=LatencyStats{n=4, mean=8ms, p50=8.5ms,")
        .contains("tpot=LatencyStats{n=3, mean=10.44ms, p50=12ms,");
    Histogram h = run.tpotHistogram();
    // TPOTs 13.333, 6 and 12 ms: same count, and each bucketed value within HdrHistogram's 0.1 %
    assertThat(h.getTotalCount()).isEqualTo(m.tpot().count()).isEqualTo(3);
    assertThat(m.tpot().maxMillis().getAsDouble()).isCloseTo(40.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(h.getMaxValue() / 1000.0).isCloseTo(m.tpot().maxMillis().getAsDouble(),
        org.assertj.core.data.Percentage.withPercentage(0.1));
    assertThat(h.getMinValue() / 1000.0).isCloseTo(m.tpot().minMillis().getAsDouble(),
        org.assertj.core.data.Percentage.withPercentage(0.1));
    assertThat(h.getValueAtPercentile(50) / 1000.0).isCloseTo(12.0,
        org.assertj.core.data.Percentage.withPercentage(0.1));
  }

  @Test
  void intervalsOnAVirtualClockAreContiguousAndMergeToTheTotalsExactly() {
    VirtualTicker clock = new VirtualTicker();
    List<IntervalMetrics> seen = new ArrayList<>();
    LatencyRecorder rec = new LatencyRecorder(clock, seen::add);
    long t0 = clock.nanoTime();
    rec.start(t0);
    rec.record(ok(t0, 4, 10, 20, 30, 50));
    clock.awaitUntil(t0 + Duration.ofSeconds(1).toNanos(), Long.MAX_VALUE);
    rec.sample();
    rec.record(ok(t0, 1, 5));
    rec.record(ok(t0, 6, 10, 25, 40));
    rec.record(failed(t0));
    clock.awaitUntil(t0 + Duration.ofMillis(1500).toNanos(), Long.MAX_VALUE);
    rec.sample();
    clock.awaitUntil(t0 + Duration.ofMillis(2500).toNanos(), Long.MAX_VALUE);
    rec.sample(); // nothing happened: an empty interval, still reported

    assertThat(seen).extracting(IntervalMetrics::index).containsExactly(0, 1, 2);
    assertThat(seen).extracting(IntervalMetrics::start).containsExactly(Duration.ZERO,
        Duration.ofSeconds(1), Duration.ofMillis(1500));
    assertThat(seen).extracting(IntervalMetrics::end).containsExactly(Duration.ofSeconds(1),
        Duration.ofMillis(1500), Duration.ofMillis(2500));
    assertThat(seen).extracting(IntervalMetrics::completed).containsExactly(1L, 2L, 0L);
    assertThat(seen).extracting(IntervalMetrics::failed).containsExactly(0L, 1L, 0L);
    assertThat(seen.get(1).outputTokens()).isEqualTo(7);
    assertThat(seen.get(1).requestThroughput()).isEqualTo(4.0); // 2 requests in 0.5 s
    assertThat(seen.get(0).tpotHistogram().getTotalCount()).isEqualTo(1);
    assertThat(seen.get(1).tpotHistogram().getTotalCount()).isEqualTo(1);
    assertThat(seen.get(2).ttftHistogram().getTotalCount()).isZero();

    LatencyRecorder.Totals totals = rec.totals();
    assertThat(merge(seen, IntervalMetrics::ttftHistogram)).isEqualTo(totals.ttft());
    assertThat(merge(seen, IntervalMetrics::tpotHistogram)).isEqualTo(totals.tpot());
    assertThat(merge(seen, IntervalMetrics::itlHistogram)).isEqualTo(totals.itl());
    assertThat(merge(seen, IntervalMetrics::e2elHistogram)).isEqualTo(totals.e2el());
    assertThat(seen.get(0).toString()).startsWith(
        "IntervalMetrics{#0 [0.000s, 1.000s), completed=1, failed=0, outputTokens=4, ttft p50/p99=");
  }

  @Test
  void afterAStallTheSamplerReportsOneLongerIntervalNotABurstOfEmptyOnes() throws Exception {
    VirtualTicker clock = new VirtualTicker();
    long t0 = clock.nanoTime();
    List<IntervalMetrics> seen = new CopyOnWriteArrayList<>();
    CountDownLatch three = new CountDownLatch(3);
    LatencyRecorder rec = new LatencyRecorder(clock, m -> {
      if (m.index() == 0) {
        // the listener (on the sampler thread) stalls 35 ms: boundaries 20, 30 and 40 ms pass
        clock.awaitUntil(clock.nanoTime() + 35 * MS, Long.MAX_VALUE);
      }
      seen.add(m);
      three.countDown();
    });
    rec.start(t0);
    LatencyRecorder.Sampler sampler = rec.startSampler(Duration.ofMillis(10));
    assertThat(three.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    sampler.close();
    // virtual time: [0, 10) then, sampled at 50 (the first boundary after the stall), [10, 50)
    assertThat(seen.get(0).end()).isEqualTo(Duration.ofMillis(10));
    assertThat(seen.get(1).start()).isEqualTo(Duration.ofMillis(10));
    assertThat(seen.get(1).end()).isEqualTo(Duration.ofMillis(50));
    assertThat(seen.get(2).start()).isEqualTo(Duration.ofMillis(50));
    assertThat(seen.get(2).end()).isEqualTo(Duration.ofMillis(60));
  }

  @Test
  void aSnapshotCannotBeChangedThroughItsHistograms() {
    LatencyRecorder rec = new LatencyRecorder(new VirtualTicker(), null);
    rec.record(ok(0, 4, 10, 20, 30, 50));
    IntervalMetrics m = rec.sample();
    m.ttftHistogram().reset();
    m.tpotHistogram().recordValue(1);
    assertThat(m.ttftHistogram().getTotalCount()).isEqualTo(1);
    assertThat(m.tpotHistogram().getTotalCount()).isEqualTo(1);
  }

  @Test
  void concurrentRecordingWhileSamplingLosesAndDuplicatesNothing() throws Exception {
    // 4 threads record while the sampler thread cuts 1 ms intervals: the merged intervals must
    // equal both the totals and a histogram recorded directly from the same requests
    List<IntervalMetrics> seen = new CopyOnWriteArrayList<>();
    LatencyRecorder rec = new LatencyRecorder(Ticker.system(), seen::add);
    rec.start(System.nanoTime());
    Histogram expectedTtft = new Histogram(3);
    Histogram expectedTpot = new Histogram(3);
    List<List<RequestRecord>> perThread = new ArrayList<>();
    Random rnd = new Random(7);
    for (int th = 0; th < 4; th++) {
      List<RequestRecord> rs = new ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        long ttft = 1 + rnd.nextInt(500);
        long e2el = ttft + rnd.nextInt(3000);
        int out = 1 + rnd.nextInt(64);
        RequestRecord r = ok(0, out, ttft, e2el);
        rs.add(r);
        expectedTtft.recordValue(ttft * 1000);
        if (out > 1) {
          expectedTpot.recordValue((e2el - ttft) * MS / (out - 1) / 1000);
        }
      }
      perThread.add(rs);
    }
    LatencyRecorder.Sampler sampler = rec.startSampler(Duration.ofMillis(1));
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (List<RequestRecord> rs : perThread) {
      Thread t = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < rs.size(); i++) {
          rec.record(rs.get(i));
          if (i % 100 == 0) {
            Thread.yield();
          }
        }
      });
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    sampler.close();

    LatencyRecorder.Totals totals = rec.totals();
    assertThat(seen.size()).isGreaterThanOrEqualTo(1);
    assertThat(seen).extracting(IntervalMetrics::index)
        .isEqualTo(java.util.stream.IntStream.range(0, seen.size()).boxed().toList());
    for (int i = 1; i < seen.size(); i++) {
      assertThat(seen.get(i).start()).isEqualTo(seen.get(i - 1).end());
    }
    assertThat(seen.stream().mapToLong(IntervalMetrics::completed).sum()).isEqualTo(12_000);
    assertThat(merge(seen, IntervalMetrics::ttftHistogram)).isEqualTo(totals.ttft())
        .isEqualTo(expectedTtft);
    assertThat(merge(seen, IntervalMetrics::tpotHistogram)).isEqualTo(totals.tpot())
        .isEqualTo(expectedTpot);
  }

  static Histogram merge(List<IntervalMetrics> intervals,
      java.util.function.Function<IntervalMetrics, Histogram> which) {
    Histogram sum = new Histogram(3);
    for (IntervalMetrics m : intervals) {
      sum.add(which.apply(m));
    }
    return sum;
  }
}
