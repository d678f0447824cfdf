package io.infx.client.load;

import java.util.OptionalInt;
import java.util.SplittableRandom;

/**
 * Open loop: requests arrive on a schedule at {@code rate} requests/s whatever the server does.
 * The schedule follows the reference: after every request (the last included) the release loop
 * waits one interval, drawn from Gamma(shape = burstiness, scale = 1 / (rate · burstiness)) —
 * exponential (Poisson arrivals) for burstiness 1 — or exactly {@code 1 / rate} for constant
 * arrivals.
 *
 * @param rate requests per second, &gt; 0 and finite
 * @param arrivals the inter-arrival distribution
 * @param burstiness gamma shape, &gt; 0 (ignored for constant arrivals)
 * @param ceiling optional concurrency ceiling; arrivals beyond it queue in order
 * @throws IllegalArgumentException if the rate, burstiness or ceiling is out of range
 */
public record OpenLoop(double rate, Arrivals arrivals, double burstiness, OptionalInt ceiling)
    implements LoadModel {

  /** Inter-arrival distributions. */
  public enum Arrivals { GAMMA, CONSTANT }

  public OpenLoop {
    if (!(rate > 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("an open loop needs a finite rate > 0, got " + rate);
    }
    if (!(burstiness > 0)) {
      throw new IllegalArgumentException("burstiness must be > 0, got " + burstiness);
    }
    if (ceiling.isPresent() && ceiling.getAsInt() < 1) {
      throw new IllegalArgumentException("the concurrency ceiling must be ≥ 1");
    }
  }

  /**
   * The same arrivals under a concurrency ceiling.
   *
   * @throws IllegalArgumentException if {@code maxConcurrency} &lt; 1
   */
  public OpenLoop withCeiling(int maxConcurrency) {
    return new OpenLoop(rate, arrivals, burstiness, OptionalInt.of(maxConcurrency));
  }

  /** The ceiling, when one was set; unbounded otherwise. */
  @Override
  public OptionalInt maxConcurrency() {
    return ceiling;
  }

  /**
   * Intended send offsets from the start of the measured phase, in nanoseconds: request {@code i}
   * is due after the first {@code i} intervals (so element 0 is 0). Deterministic for a seed; the
   * draws come from {@link SplittableRandom}, not the reference's numpy RNG, so only the
   * distribution matches.
   *
   * @param n number of requests (array length)
   * @param seed schedule seed ({@code --seed})
   */
  public long[] scheduleNanos(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed ^ 0x5DEECE66DL);
    long[] out = new long[n];
    double t = 0;
    for (int i = 0; i < n; i++) {
      out[i] = Math.round(t * 1e9);
      t += arrivals == Arrivals.CONSTANT ? 1.0 / rate
          : gamma(r, burstiness) / (rate * burstiness);
    }
    return out;
  }

  /** Gamma(shape, 1) by Marsaglia–Tsang (with the shape &lt; 1 boost). */
  static double gamma(SplittableRandom r, double shape) {
    if (shape < 1) {
      double u = r.nextDouble();
      return gamma(r, shape + 1) * Math.pow(u, 1.0 / shape);
    }
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x;
      double v;
      do {
        x = normal(r);
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      double u = r.nextDouble();
      if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
        return d * v;
      }
    }
  }

  private static double normal(SplittableRandom r) {
    double u1 = r.nextDouble();
    double u2 = r.nextDouble();
    return Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  }
}
