package io.infx.results.agentx.internal;

import io.infx.core.python.PythonNumbers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.doubles;
import static org.quicktheories.generators.SourceDSL.lists;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class AggregateStatsTest {

  @Test
  void percentilesOfFourValues() {
    // spec §7 #6: TTFTs 10, 20, 30, 40 ms
    double[] s = {0.010, 0.020, 0.030, 0.040};
    assertThat(AggregateStats.percentile(s, 50)).isCloseTo(0.025, within(1e-15));
    assertThat(AggregateStats.percentile(s, 75)).isCloseTo(0.0325, within(1e-15));
    assertThat(AggregateStats.percentile(s, 90)).isCloseTo(0.037, within(1e-15));
    assertThat(AggregateStats.percentile(s, 95)).isCloseTo(0.0385, within(1e-15));
    assertThat(PythonNumbers.round(AggregateStats.pstdev(s), 5)).isEqualTo(0.01118);
    assertThat(AggregateStats.percentile(new double[0], 50)).isZero();
    assertThat(AggregateStats.percentile(new double[] {7}, 95)).isEqualTo(7);
  }

  @Test
  void meanIsExactNotARunningSum() {
    // a running sum of 0.1 ten times is 0.9999999999999999; the exact mean of the doubles is 0.1
    double[] tenths = new double[10];
    Arrays.fill(tenths, 0.1);
    assertThat(AggregateStats.mean(tenths)).isEqualTo(0.1);
    assertThat(AggregateStats.meanOfIntegers(new long[] {100, 200, 300, 400})).isEqualTo(250L);
    assertThat(AggregateStats.meanOfIntegers(new long[] {10, 20, 30, 40, 101})).isEqualTo(40.2);
  }

  @Test
  void pstdevIsPopulationStd() {
    assertThat(AggregateStats.pstdev(new double[] {1, 2, 3, 4})).isEqualTo(Math.sqrt(1.25));
    assertThat(AggregateStats.pstdev(new double[] {5})).isZero();
    assertThat(AggregateStats.pstdev(new double[] {3, 3, 3})).isZero();
    assertThat(AggregateStats.pstdev(new long[] {100, 200, 300, 400})).isCloseTo(111.80339887, within(1e-8));
  }

  @Test
  void percentileIsMonotoneAndBounded() {
    qt().forAll(lists().of(doubles().between(-1e6, 1e6)).ofSizeBetween(1, 40))
        .checkAssert((List<Double> xs) -> {
          double[] s = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
          double prev = Double.NEGATIVE_INFINITY;
          for (int p : new int[] {0, 25, 50, 75, 90, 95, 100}) {
            double v = AggregateStats.percentile(s, p);
            assertThat(v).isBetween(s[0], s[s.length - 1]).isGreaterThanOrEqualTo(prev);
            prev = v;
          }
        });
  }

  @Test
  void meanAndStdAgreeWithTextbookFormulas() {
    qt().forAll(lists().of(doubles().between(-1e3, 1e3)).ofSizeBetween(2, 30))
        .checkAssert((List<Double> xs) -> {
          double[] v = xs.stream().mapToDouble(Double::doubleValue).toArray();
          double naiveMean = Arrays.stream(v).sum() / v.length;
          double naiveVar = Arrays.stream(v).map(x -> (x - naiveMean) * (x - naiveMean)).sum() / v.length;
          assertThat(AggregateStats.mean(v)).isCloseTo(naiveMean, within(1e-9));
          assertThat(AggregateStats.pstdev(v)).isCloseTo(Math.sqrt(naiveVar), within(1e-6));
        });
  }
}
