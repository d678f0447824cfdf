package io.infx.client.metrics;

import java.util.Arrays;
import java.util.OptionalDouble;

/**
 * Summary statistics exactly as the reference computes them with numpy (client spec §5.3): the
 * arithmetic mean, the median (mean of the two middle values for even n), the <b>population</b>
 * standard deviation (divide by n) and percentiles by numpy's default linear interpolation
 * ({@code h = (n − 1)·p/100}, {@code x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])}).
 *
 * <p>Unit-free: every value is in the samples' own unit (seconds inside {@link LatencyStats},
 * tokens for {@link io.infx.client.ServeMetrics#serverInputLengths()}). An empty sample has no
 * statistic: each accessor returns an empty {@link OptionalDouble} and {@link #isEmpty()} is true.
 * (The reference writes 0.0 for every statistic of an empty list; the raw-result writer does the
 * same with {@code orElse(0.0)}, so only the Java view tells "none" from "zero".)
 *
 * <p>Immutable and thread-safe; {@link #toString()} reads {@code SampleStats{n=4, mean=2.5,
 * p50=2.5, p90=3.7, p99=3.97, max=4}}.
 */
public final class SampleStats {

  private final double[] sorted;
  private final double mean;
  private final double std;

  private SampleStats(double[] ordered, double[] sorted) {
    this.sorted = sorted;
    int n = sorted.length;
    if (n == 0) {
      mean = Double.NaN;
      std = Double.NaN;
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
    java.util.Objects.requireNonNull(values, "values");
    double[] s = values.clone();
    Arrays.sort(s);
    return new SampleStats(values, s);
  }

  /** Number of samples. */
  public int count() {
    return sorted.length;
  }

  /** True when there is no sample (then every statistic is empty). */
  public boolean isEmpty() {
    return sorted.length == 0;
  }

  /** Arithmetic mean (numpy pairwise summation, in sample order); empty without samples. */
  public OptionalDouble mean() {
    return isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(mean);
  }

  /** Population standard deviation (numpy {@code std} with {@code ddof=0}); empty without samples. */
  public OptionalDouble std() {
    return isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(std);
  }

  /** numpy median (mean of the two middle values for even n); empty without samples. */
  public OptionalDouble median() {
    return percentile(50);
  }

  /** Smallest sample; empty without samples. */
  public OptionalDouble min() {
    return isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(sorted[0]);
  }

  /** Largest sample; empty without samples. */
  public OptionalDouble max() {
    return isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(sorted[sorted.length - 1]);
  }

  /**
   * numpy's default (linear) percentile; empty without samples.
   *
   * @param p in [0, 100] (e.g. 99.9, not 0.999)
   * @throws IllegalArgumentException if {@code p} is outside [0, 100] or NaN (checked even when
   *     the sample is empty)
   */
  public OptionalDouble percentile(double p) {
    if (p < 0 || p > 100 || Double.isNaN(p)) {
      throw new IllegalArgumentException("percentile must be in [0, 100]: " + p);
    }
    int n = sorted.length;
    if (n == 0) {
      return OptionalDouble.empty();
    }
    double h = (n - 1) * (p / 100.0);
    int lo = (int) Math.floor(h);
    if (lo >= n - 1) {
      return OptionalDouble.of(sorted[n - 1]);
    }
    double frac = h - lo;
    return OptionalDouble.of(sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]));
  }

  /** {@code SampleStats{n=0}}, else n, mean, p50, p90, p99 and max in the samples' unit. */
  @Override
  public String toString() {
    return "SampleStats" + summary(this, 1, "");
  }

  /**
   * The shared body of the {@code toString} forms: {@code {n=…, mean=…, p50=…, p90=…, p99=…,
   * max=…}}, each value times {@code scale} with {@code unit} appended, 4 significant digits.
   */
  static String summary(SampleStats s, double scale, String unit) {
    if (s.isEmpty()) {
      return "{n=0}";
    }
    return "{n=" + s.count()
        + ", mean=" + fmt(s.mean * scale) + unit
        + ", p50=" + fmt(s.percentile(50).getAsDouble() * scale) + unit
        + ", p90=" + fmt(s.percentile(90).getAsDouble() * scale) + unit
        + ", p99=" + fmt(s.percentile(99).getAsDouble() * scale) + unit
        + ", max=" + fmt(s.sorted[s.sorted.length - 1] * scale) + unit + "}";
  }

  /** 4 significant digits, no exponent for everyday magnitudes, trailing zeros dropped. */
  static String fmt(double v) {
    if (v == 0 || !Double.isFinite(v)) {
      return v == 0 ? "0" : Double.toString(v);
    }
    java.math.BigDecimal d = new java.math.BigDecimal(v)
        .round(new java.math.MathContext(4, java.math.RoundingMode.HALF_EVEN))
        .stripTrailingZeros();
    return Math.abs(v) >= 1e-6 && Math.abs(v) < 1e9 ? d.toPlainString() : d.toString();
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
