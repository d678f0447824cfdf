package io.infx.client.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LatencyStatsTest {

  @Test
  void millisecondViewsAreTheSecondStatisticsTimesAThousandBitForBit() {
    double[] seconds = {0.0123, 0.0456, 0.0021, 0.0999, 0.0314};
    LatencyStats l = LatencyStats.ofSeconds(seconds);
    SampleStats s = SampleStats.of(seconds);
    // the raw file computes statistic(seconds) × 1000; the ms views must be exactly that
    assertThat(l.meanMillis()).hasValue(s.mean().getAsDouble() * 1000);
    assertThat(l.medianMillis()).hasValue(0.0314 * 1000);
    assertThat(l.stdMillis()).hasValue(s.std().getAsDouble() * 1000);
    assertThat(l.percentileMillis(99)).hasValue(s.percentile(99).getAsDouble() * 1000);
    assertThat(l.minMillis()).hasValue(0.0021 * 1000);
    assertThat(l.maxMillis()).hasValue(0.0999 * 1000);
    assertThat(l.count()).isEqualTo(5);
  }

  @Test
  void durationViewsRoundToTheNanosecond() {
    // sorted: 1, 2, 4, 8 ms; numpy p50 = 3 ms, p90: h = 3·0.9 = 2.7 → 4 + 0.7·4 = 6.8 ms
    LatencyStats l = LatencyStats.ofSeconds(new double[] {0.008, 0.001, 0.004, 0.002});
    assertThat(l.median()).hasValue(Duration.ofMillis(3));
    assertThat(l.percentile(90)).hasValue(Duration.ofNanos(6_800_000));
    assertThat(l.mean()).hasValue(Duration.ofNanos(3_750_000));
    assertThat(l.min()).hasValue(Duration.ofMillis(1));
    assertThat(l.max()).hasValue(Duration.ofMillis(8));
  }

  @Test
  void emptyHasNoStatistic() {
    LatencyStats l = LatencyStats.ofSeconds(new double[0]);
    assertThat(l.isEmpty()).isTrue();
    assertThat(l.meanMillis()).isEmpty();
    assertThat(l.percentileMillis(99)).isEmpty();
    assertThat(l.median()).isEmpty();
    assertThat(l.max()).isEmpty();
    assertThat(l).hasToString("LatencyStats{n=0}");
  }

  @Test
  void toStringIsInMilliseconds() {
    // 10, 20, 30, 40 ms: mean 25; p50 25; p90: h = 2.7 → 30 + 0.7·10 = 37; p99: h = 2.97 → 39.7
    LatencyStats l = LatencyStats.ofSeconds(new double[] {0.04, 0.01, 0.03, 0.02});
    assertThat(l).hasToString(
        "LatencyStats{n=4, mean=25ms, p50=25ms, p90=37ms, p99=39.7ms, max=40ms}");
  }
}
