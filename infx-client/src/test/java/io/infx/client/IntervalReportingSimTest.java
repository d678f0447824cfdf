package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.load.LoadModel;
import io.infx.client.metrics.IntervalMetrics;
import io.infx.client.metrics.IntervalReporting;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.tokenizer.BuiltinTokenizer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IntervalReportingSimTest {

  @Test
  void intervalsDuringARunMergeExactlyIntoTheFinalHistograms() {
    List<Prompt> prompts = RandomDataset.generate(BuiltinTokenizer.instance(), 64, 24, 0.5, 0,
        48, 0);
    List<IntervalMetrics> seen = new CopyOnWriteArrayList<>();
    List<String> threads = new CopyOnWriteArrayList<>();
    try (SimServer sim = SimServer.start(
        SimConfig.builder().decodeStepBase(Duration.ofMillis(2)).build())) {
      ServeResult run = ServeBenchmark.builder()
          .client(ClientOptions.builder().baseUri(sim.baseUri()).build())
          .backend(ServingBackend.VLLM).model("m").prompts(prompts)
          .body(BodyOptions.builder().ignoreEos(true).build())
          .load(LoadModel.closed(4)).warmups(4)
          .intervals(IntervalReporting.every(Duration.ofMillis(20), m -> {
            seen.add(m);
            threads.add(Thread.currentThread().getName());
          }))
          .build().run();
      ServeMetrics m = run.metrics(MetricOptions.defaults());
      assertThat(m.completed()).isEqualTo(48);

      // ~48 requests of ~50 ms at concurrency 4 take ≥ 0.5 s: several 20 ms intervals, however
      // loaded the machine; the last, partial one comes from the thread that called run()
      assertThat(seen.size()).isGreaterThan(2);
      assertThat(threads.subList(0, seen.size() - 1)).containsOnly("infx-intervals");
      assertThat(seen).extracting(IntervalMetrics::index)
          .isEqualTo(java.util.stream.IntStream.range(0, seen.size()).boxed().toList());
      assertThat(seen.get(0).start()).isEqualTo(Duration.ZERO);
      for (int i = 1; i < seen.size(); i++) {
        assertThat(seen.get(i).start()).isEqualTo(seen.get(i - 1).end());
      }
      // the intervals cover the measured phase (warm-ups excluded): they end with it
      double lastEnd = seen.get(seen.size() - 1).end().toNanos() / 1e9;
      assertThat(lastEnd).isBetween(m.durationSeconds() - 0.5, m.durationSeconds() + 0.5);

      assertThat(seen.stream().mapToLong(IntervalMetrics::completed).sum()).isEqualTo(48);
      assertThat(seen.stream().mapToLong(IntervalMetrics::failed).sum()).isZero();
      assertThat(seen.stream().mapToLong(IntervalMetrics::outputTokens).sum())
          .isEqualTo(m.totalOutputTokens());
      assertThat(LatencyRecorderTest.merge(seen, IntervalMetrics::ttftHistogram))
          .isEqualTo(run.ttftHistogram());
      assertThat(LatencyRecorderTest.merge(seen, IntervalMetrics::tpotHistogram))
          .isEqualTo(run.tpotHistogram());
      assertThat(LatencyRecorderTest.merge(seen, IntervalMetrics::itlHistogram))
          .isEqualTo(run.itlHistogram());
      assertThat(LatencyRecorderTest.merge(seen, IntervalMetrics::e2elHistogram))
          .isEqualTo(run.e2elHistogram());
      assertThat(run.ttftHistogram().getTotalCount()).isEqualTo(48);
      assertThat(run.tpotHistogram().getTotalCount()).isEqualTo(m.tpot().count()).isEqualTo(48);
    }
  }

  @Test
  void aJobHasOneIntervalLength() {
    ImmutableServeJob.Builder job = ServeJob.builder().backend(ServingBackend.VLLM).model("m")
        .histogramLog(java.nio.file.Path.of("r.hlog")).histogramLogInterval(Duration.ofSeconds(1));
    assertThat(job.build().checkedLoad()).isNotNull();
    assertThatThrownBy(() -> job.intervals(IntervalReporting.every(Duration.ofSeconds(2), m -> { }))
        .build().checkedLoad())
        .isInstanceOf(io.infx.core.UsageException.class)
        .hasMessageContaining("--hlog-interval PT1S differs from the interval listener's PT2S");
    assertThatThrownBy(() -> ServeJob.builder().backend(ServingBackend.VLLM).model("m")
        .histogramLogInterval(Duration.ofNanos(10)).build().checkedLoad())
        .isInstanceOf(io.infx.core.UsageException.class).hasMessageContaining("at least 1 ms");
  }

  @Test
  void intervalShorterThanAMillisecondIsRejected() {
    assertThatThrownBy(() -> IntervalReporting.every(Duration.ofNanos(999_999), m -> { }))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1 ms");
    assertThatThrownBy(() -> IntervalReporting.every(Duration.ofSeconds(1), null))
        .isInstanceOf(NullPointerException.class).hasMessage("listener");
  }
}
