package io.infx.client.metrics;

import java.util.Arrays;

/**
 * Summary statistics exactly as the reference computes them with numpy (client spec §5.3): the
 * arithmetic mean, the median (mean of the two middle values for even n), the <b>population</b>
 * standard deviation (divide by n) and percentiles by numpy's default linear interpolation
 * ({@code h = (n − 1)·p/100}, {@code x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])}). An empty sample
 * gives 0.0 for every statistic, as the reference does. Every value is in the samples' own unit
 * (seconds for {@link io.infx.client.ServeMetrics}); the raw file multiplies by 1000 (ms).
 */
public final class SampleStats {

  private final double[] sorted;
  private final double mean;
  private final double std;

  private SampleStats(double[] ordered, double[] sorted) {
    this.sorted = sorted;
    int n = sorted.length;
    if (n == 0) {
      mean = 0;
      std = 0;
      return;
    }
    // sums in the sample's own order, like numpy
    double m = pairwiseSum(ordered, 0, n) / n;
    double[] dev = new double[n];
    for (int i = 0; i < n; i++) {
      double d = ordered[i] - m;
      dev[i] = d * d;
    }
    this.mean = m;
    this.std = Math.sqrt(pairwiseSum(dev, 0, n) / n);
  }

  /** Statistics of {@code values} (copied; mean and std summed in the given order, as numpy). */
  public static SampleStats of(double[] values) {
    double[] s = values.clone();
    Arrays.sort(s);
    return new SampleStats(values, s);
  }

  /** Number of samples. */
  public int count() {
    return sorted.length;
  }

  /** Arithmetic mean (numpy pairwise summation, in sample order); 0.0 when empty. */
  public double mean() {
    return mean;
  }

  /** Population standard deviation (numpy {@code std} with {@code ddof=0}). */
  public double std() {
    return std;
  }

  /** numpy median (mean of the two middle values for even n); 0.0 when empty. */
  public double median() {
    return percentile(50);
  }

  /** Smallest sample; 0.0 when empty. */
  public double min() {
    return sorted.length == 0 ? 0 : sorted[0];
  }

  /** Largest sample; 0.0 when empty. */
  public double max() {
    return sorted.length == 0 ? 0 : sorted[sorted.length - 1];
  }

  /**
   * numpy's default (linear) percentile; 0.0 when empty.
   *
   * @param p in [0, 100] (e.g. 99.9, not 0.999)
   * @throws IllegalArgumentException if {@code p} is outside [0, 100] or NaN
   */
  public double percentile(double p) {
    if (p < 0 || p > 100 || Double.isNaN(p)) {
      throw new IllegalArgumentException("percentile must be in [0, 100]: " + p);
    }
    int n = sorted.length;
    if (n == 0) {
      return 0;
    }
    double h = (n - 1) * (p / 100.0);
    int lo = (int) Math.floor(h);
    if (lo >= n - 1) {
      return sorted[n - 1];
    }
    double frac = h - lo;
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
  }

  /** numpy-style pairwise summation (blocks of 8 below 128 elements), for numpy-close sums. */
  static double pairwiseSum(double[] a, int off, int n) {
    if (n < 8) {
      double s = 0;
      for (int i = off; i < off + n; i++) {
        s += a[i];
      }
      return s;
    }
    if (n <= 128) {
      double r0 = a[off];
      double r1 = a[off + 1];
      double r2 = a[off + 2];
      double r3 = a[off + 3];
      double r4 = a[off + 4];
      double r5 = a[off + 5];
      double r6 = a[off + 6];
      double r7 = a[off + 7];
      int i;
      for (i = 8; i < n - (n % 8); i += 8) {
        r0 += a[off + i];
        r1 += a[off + i + 1];
        r2 += a[off + i + 2];
        r3 += a[off + i + 3];
        r4 += a[off + i + 4];
        r5 += a[off + i + 5];
        r6 += a[off + i + 6];
        r7 += a[off + i + 7];
      }
      double res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
      for (; i < n; i++) {
        res += a[off + i];
      }
      return res;
    }
    int n2 = n / 2;
    n2 -= n2 % 8;
    return pairwiseSum(a, off, n2) + pairwiseSum(a, off + n2, n - n2);
  }
}
