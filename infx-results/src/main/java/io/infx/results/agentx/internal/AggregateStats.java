package io.infx.results.agentx.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * The statistics of the reference aggregator, reproduced bit for bit.
 *
 * <ul>
 *   <li>{@link #percentile}: linear interpolation between closest ranks, {@code k = (n-1)·p/100},
 *       evaluated in the same double operations as the reference, so results are identical.
 *   <li>{@link #mean}: Python's {@code statistics.mean} — the exact mean of the doubles, rounded
 *       once (not a running floating-point sum).
 *   <li>{@link #pstdev}: Python 3.11's {@code statistics.pstdev} — the correctly rounded square root
 *       of the exact population variance.
 * </ul>
 */
public final class AggregateStats {

  /** Enough digits that rounding the exact result to a double is never affected in practice. */
  private static final MathContext EXACT = new MathContext(60, RoundingMode.HALF_EVEN);

  private AggregateStats() {}

  /** Percentile {@code p} (0..100) of ascending-sorted values; 0.0 for no values. */
  public static double percentile(double[] sorted, double p) {
    int n = sorted.length;
    if (n == 0) {
      return 0.0;
    }
    double k = (n - 1) * (p / 100);
    int f = (int) k;
    int c = f + 1;
    if (c >= n) {
      return sorted[f];
    }
    return sorted[f] + (k - f) * (sorted[c] - sorted[f]);
  }

  /** Exact arithmetic mean, rounded once to the nearest double. */
  public static double mean(double[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("mean of no values");
    }
    return toDouble(exactMean(values));
  }

  /**
   * Exact mean of integer-valued samples: a {@link Long} when the mean is a whole number (Python
   * returns an {@code int} then), otherwise the nearest {@link Double}.
   */
  public static Number meanOfIntegers(long[] values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("mean of no values");
    }
    BigDecimal sum = BigDecimal.ZERO;
    for (long v : values) {
      sum = sum.add(BigDecimal.valueOf(v));
    }
    BigDecimal n = BigDecimal.valueOf(values.length);
    BigDecimal[] qr = sum.divideAndRemainder(n);
    if (qr[1].signum() == 0) {
      return qr[0].longValueExact();
    }
    return toDouble(sum.divide(n, EXACT));
  }

  /** Population standard deviation; 0.0 for a single value (as the reference special-cases). */
  public static double pstdev(double[] values) {
    int n = values.length;
    if (n == 0) {
      throw new IllegalArgumentException("pstdev of no values");
    }
    if (n == 1) {
      return 0.0;
    }
    BigDecimal sum = BigDecimal.ZERO;
    BigDecimal sumSq = BigDecimal.ZERO;
    for (double v : values) {
      BigDecimal x = new BigDecimal(v);
      sum = sum.add(x);
      sumSq = sumSq.add(x.multiply(x));
    }
    BigDecimal count = BigDecimal.valueOf(n);
    // variance = (n·Σx² − (Σx)²) / n², exactly
    BigDecimal numerator = sumSq.multiply(count).subtract(sum.multiply(sum));
    if (numerator.signum() <= 0) {
      return 0.0;
    }
    BigDecimal variance = numerator.divide(count.multiply(count), EXACT);
    return toDouble(variance.sqrt(EXACT));
  }

  /** {@link #pstdev(double[])} of integer samples. */
  public static double pstdev(long[] values) {
    return pstdev(Arrays.stream(values).asDoubleStream().toArray());
  }

  private static BigDecimal exactMean(double[] values) {
    BigDecimal sum = BigDecimal.ZERO;
    for (double v : values) {
      sum = sum.add(new BigDecimal(v));
    }
    return sum.divide(BigDecimal.valueOf(values.length), EXACT);
  }

  private static double toDouble(BigDecimal exact) {
    return Double.parseDouble(exact.toString());
  }
}
