package io.infx.client.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SampleStatsTest {

  @Test
  void numpyLinearPercentilesMedianAndPopulationStd() {
    SampleStats s = SampleStats.of(new double[] {4, 1, 3, 2});
    // numpy.percentile([1,2,3,4], 90) = 1 + ... : h = 3 * 0.9 = 2.7 -> 3 + 0.7 * (4 - 3)
    assertThat(s.percentile(90).getAsDouble()).isCloseTo(3.7, within(1e-12));
    assertThat(s.percentile(99.9).getAsDouble()).isCloseTo(3 + 0.997, within(1e-12));
    assertThat(s.median()).hasValue(2.5);
    assertThat(s.mean()).hasValue(2.5);
    // population std: sqrt(((1.5²+0.5²)·2)/4) = sqrt(1.25)
    assertThat(s.std().getAsDouble()).isCloseTo(Math.sqrt(1.25), within(1e-15));
    assertThat(s.percentile(0)).hasValue(1);
    assertThat(s.percentile(100)).hasValue(4);
    assertThat(s.min()).hasValue(1);
    assertThat(s.max()).hasValue(4);
    assertThat(s.isEmpty()).isFalse();
  }

  @Test
  void oddCountMedianAndSingleValue() {
    assertThat(SampleStats.of(new double[] {5, 1, 3}).median()).hasValue(3);
    SampleStats one = SampleStats.of(new double[] {0.25});
    assertThat(one.percentile(99)).hasValue(0.25);
    assertThat(one.std()).hasValue(0);
  }

  @Test
  void emptySampleHasNoStatisticRatherThanZero() {
    SampleStats s = SampleStats.of(new double[0]);
    assertThat(s.isEmpty()).isTrue();
    assertThat(s.count()).isZero();
    assertThat(s.mean()).isEmpty();
    assertThat(s.median()).isEmpty();
    assertThat(s.std()).isEmpty();
    assertThat(s.min()).isEmpty();
    assertThat(s.max()).isEmpty();
    assertThat(s.percentile(99)).isEmpty();
    // a real zero is present, not empty: the two are now told apart
    assertThat(SampleStats.of(new double[] {0}).mean()).hasValue(0);
  }

  @Test
  void percentileOutsideRangeIsRejectedEvenWhenEmpty() {
    assertThatThrownBy(() -> SampleStats.of(new double[0]).percentile(100.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 100]");
    assertThatThrownBy(() -> SampleStats.of(new double[] {1}).percentile(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toStringShowsCountAndTheUsualStatistics() {
    // 1..100: mean 50.5; numpy p50 = 50.5, p90 = 1 + 99·0.9 = 90.1, p99 = 1 + 99·0.99 = 99.01
    double[] v = new double[100];
    for (int i = 0; i < v.length; i++) {
      v[i] = 100 - i;
    }
    assertThat(SampleStats.of(v)).hasToString(
        "SampleStats{n=100, mean=50.5, p50=50.5, p90=90.1, p99=99.01, max=100}");
    assertThat(SampleStats.of(new double[0])).hasToString("SampleStats{n=0}");
  }

  @Test
  void pairwiseSumMatchesExactSumOnLargeInput() {
    double[] v = new double[10_000];
    for (int i = 0; i < v.length; i++) {
      v[i] = (i % 7) * 0.125; // exactly representable: every order gives the same sum
    }
    double expected = 0;
    for (double d : v) {
      expected += d;
    }
    assertThat(SampleStats.of(v).mean()).hasValue(expected / v.length);
  }
}
