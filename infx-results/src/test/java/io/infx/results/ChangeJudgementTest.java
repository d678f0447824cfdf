package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.results.ChangeJudgement.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The noise-band judgement behind {@code results gate} and {@code results compare}. */
class ChangeJudgementTest {

  private static final Comparison.Metric TPUT = Comparison.metrics(List.of("tput_per_gpu")).get(0);
  private static final Comparison.Metric TPOT = Comparison.metrics(List.of("median_tpot")).get(0);

  @Test
  void overlappingSamplesAreNoise() {
    List<Double> a = List.of(100.0, 104.0, 97.0, 101.0, 99.0);
    List<Double> b = List.of(101.0, 98.0, 103.0, 100.0, 97.0);
    ChangeJudgement j = ChangeJudgement.judge(TPUT, a, b, 0.05, 0.95);
    assertThat(j.verdict()).isEqualTo(Verdict.NO_CHANGE);
    assertThat(j.bandLow()).isNegative();
    assertThat(j.bandHigh()).isPositive();
    assertThat(j.change()).isCloseTo(499.0 / 501.0 - 1, org.assertj.core.api.Assertions.within(1e-12));
  }

  @Test
  void separatedSamplesAreSignificantAndTheThresholdDecidesRegression() {
    List<Double> a = List.of(100.0, 101.0, 99.0, 100.0, 102.0);
    List<Double> b = List.of(80.0, 81.0, 79.0, 80.0, 79.0);
    ChangeJudgement j = ChangeJudgement.judge(TPUT, a, b, 0.05, 0.95);
    assertThat(j.verdict()).isEqualTo(Verdict.REGRESSED);
    // every resampled ratio of means lies between min(b)/max(a) and max(b)/min(a)
    assertThat(j.bandLow()).isGreaterThanOrEqualTo(79.0 / 102.0 - 1);
    assertThat(j.bandHigh()).isLessThanOrEqualTo(81.0 / 99.0 - 1).isNegative();
    assertThat(ChangeJudgement.judge(TPUT, a, b, 0.25, 0.95).verdict()).as("20 %% drop, 25 %% tolerated")
        .isEqualTo(Verdict.WORSE);
    assertThat(ChangeJudgement.judge(TPUT, b, a, 0.05, 0.95).verdict()).isEqualTo(Verdict.BETTER);
  }

  @Test
  void lowerIsBetterMetricsRegressUpwards() {
    List<Double> a = List.of(0.010, 0.0101, 0.0099, 0.0100);
    List<Double> b = List.of(0.0125, 0.0126, 0.0124, 0.0125);
    assertThat(ChangeJudgement.judge(TPOT, a, b, 0.05, 0.95).verdict()).isEqualTo(Verdict.REGRESSED);
    assertThat(ChangeJudgement.judge(TPOT, b, a, 0.05, 0.95).verdict()).isEqualTo(Verdict.BETTER);
  }

  @Test
  void singleSamplesLeaveTheNoiseUnmeasuredAndNeverRegress() {
    ChangeJudgement j = ChangeJudgement.judge(TPUT, List.of(100.0), List.of(50.0, 51.0), 0.05, 0.95);
    assertThat(j.verdict()).isEqualTo(Verdict.UNMEASURED);
    assertThat(j.measured()).isFalse();
    assertThat(j.change()).isCloseTo(-0.495, org.assertj.core.api.Assertions.within(1e-12));
    assertThat(j.bandLow()).isNaN();
  }

  @Test
  void judgementsAreReproducible() {
    List<Double> a = List.of(100.0, 95.0, 105.0);
    List<Double> b = List.of(90.0, 99.0, 94.0);
    ChangeJudgement x = ChangeJudgement.judge(TPUT, a, b, 0.05, 0.95);
    ChangeJudgement y = ChangeJudgement.judge(TPUT, a, b, 0.05, 0.95);
    assertThat(x.bandLow()).isEqualTo(y.bandLow());
    assertThat(x.bandHigh()).isEqualTo(y.bandHigh());
  }

  @Test
  void theNoiseBandAgainstAFixedBoundSaysWhetherTheMeanIsBeyondIt() {
    // 10–12 % above the bound in every repetition: the band excludes 0 (above it)
    double[] above = ChangeJudgement.bandAgainst(List.of(1.10, 1.12, 1.11), 1.0, 0.95);
    assertThat(above[0]).isGreaterThan(0).isLessThanOrEqualTo(above[1]);
    assertThat(above[1]).isLessThanOrEqualTo(0.12 + 1e-12);
    // straddling the bound: the band holds 0, the repetitions cannot tell
    double[] straddle = ChangeJudgement.bandAgainst(List.of(0.95, 1.05), 1.0, 0.95);
    assertThat(straddle[0]).isLessThan(0);
    assertThat(straddle[1]).isGreaterThan(0);
    assertThat(ChangeJudgement.bandAgainst(List.of(1.5), 1.0, 0.95)[0]).isNaN();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ChangeJudgement.bandAgainst(List.of(1.0), 0, 0.95))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
