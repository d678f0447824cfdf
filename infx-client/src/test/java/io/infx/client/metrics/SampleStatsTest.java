package io.infx.client.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SampleStatsTest {

  @Test
  void numpyLinearPercentilesMedianAndPopulationStd() {
    SampleStats s = SampleStats.of(new double[] {4, 1, 3, 2});
    // numpy.percentile([1,2,3,4], 90) = 1 + ... : h = 3 * 0.9 = 2.7 -> 3 + 0.7 * (4 - 3)
    assertThat(s.percentile(90)).isCloseTo(3.7, within(1e-12));
    assertThat(s.percentile(99.9)).isCloseTo(3 + 0.997, within(1e-12));
    assertThat(s.median()).isEqualTo(2.5);
    assertThat(s.mean()).isEqualTo(2.5);
    // population std: sqrt(((1.5²+0.5²)·2)/4) = sqrt(1.25)
    assertThat(s.std()).isCloseTo(Math.sqrt(1.25), within(1e-15));
    assertThat(s.percentile(0)).isEqualTo(1);
    assertThat(s.percentile(100)).isEqualTo(4);
  }

  @Test
  void oddCountMedianAndSingleValue() {
    assertThat(SampleStats.of(new double[] {5, 1, 3}).median()).isEqualTo(3);
    SampleStats one = SampleStats.of(new double[] {0.25});
    assertThat(one.percentile(99)).isEqualTo(0.25);
    assertThat(one.std()).isZero();
  }

  @Test
  void emptySampleIsAllZerosLikeTheReference() {
    SampleStats s = SampleStats.of(new double[0]);
    assertThat(s.mean()).isZero();
    assertThat(s.median()).isZero();
    assertThat(s.std()).isZero();
    assertThat(s.percentile(99)).isZero();
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
    assertThat(SampleStats.of(v).mean()).isEqualTo(expected / v.length);
  }
}
