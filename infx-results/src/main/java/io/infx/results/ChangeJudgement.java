package io.infx.results;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Whether one metric of one point changed beyond run-to-run noise: the one rule behind
 * {@code infx results gate} and the marks of {@code infx results compare}.
 *
 * <p>Method (valid for few samples, no normality assumed): a percentile bootstrap of the ratio of
 * means. Each side's repetition values are resampled with replacement {@link #RESAMPLES} times
 * (fixed seed, so a verdict is reproducible), and the {@code confidence} interval of
 * {@code mean(candidate*) / mean(baseline*) − 1} is the <em>noise band</em>. A change is
 * significant when the band excludes 0; a significant change in the metric's bad direction whose
 * point estimate exceeds the threshold is a regression. With fewer than 2 samples on a side the
 * noise cannot be measured: the change is {@link Verdict#UNMEASURED} and never a regression (run
 * with {@code --repeat N}). A percentile bootstrap of 3–5 samples is narrower than the true
 * interval (it ignores the {@code n − 1} correction); the regression threshold is the guard
 * against that optimism, so keep it at or above the CV the runs report.
 *
 * @param metric the compared metric (direction and unit)
 * @param baseline the baseline's samples (one per repetition), aggregate units
 * @param candidate the candidate's samples
 * @param change {@code mean(candidate) / mean(baseline) − 1} (e.g. −0.2 for 20 % lower)
 * @param bandLow lower end of the noise band (relative, like {@code change}); NaN when unmeasured
 * @param bandHigh upper end of the noise band; NaN when unmeasured
 * @param verdict what the change means for this metric
 */
public record ChangeJudgement(Comparison.Metric metric, List<Double> baseline, List<Double> candidate,
    double change, double bandLow, double bandHigh, Verdict verdict) {

  /** Bootstrap resamples per judgement. */
  public static final int RESAMPLES = 10_000;

  /** A threshold no change exceeds: judges significance only (what {@code compare} shows). */
  public static final double NO_THRESHOLD = Double.POSITIVE_INFINITY;

  /** Default confidence of the noise band. */
  public static final double CONFIDENCE = 0.95;

  /** What a change means. */
  public enum Verdict {
    /** Inside the noise band ({@code ~}). */
    NO_CHANGE("~"),
    /** Significantly better ({@code ▲}). */
    BETTER("▲"),
    /** Significantly worse, but not beyond the regression threshold ({@code ▼}). */
    WORSE("▼"),
    /** Significantly worse beyond the threshold: fails the gate ({@code ▼!}). */
    REGRESSED("▼!"),
    /** Fewer than 2 samples on a side: noise unknown; the sign of the change only. */
    UNMEASURED("?");

    private final String mark;

    Verdict(String mark) {
      this.mark = mark;
    }

    public String mark() {
      return mark;
    }
  }

  public ChangeJudgement {
    baseline = List.copyOf(baseline);
    candidate = List.copyOf(candidate);
  }

  /**
   * Judges one metric.
   *
   * @param maxRegression largest tolerated change in the bad direction, as a fraction (0.05 = 5 %)
   * @throws IllegalArgumentException when a side has no sample, or the baseline mean is 0
   */
  public static ChangeJudgement judge(Comparison.Metric metric, List<Double> baseline, List<Double> candidate,
      double maxRegression, double confidence) {
    if (baseline.isEmpty() || candidate.isEmpty()) {
      throw new IllegalArgumentException(metric.key() + ": a side has no sample");
    }
    double mb = mean(baseline);
    double mc = mean(candidate);
    if (mb == 0) {
      throw new IllegalArgumentException(metric.key() + ": baseline mean is 0, no ratio");
    }
    double change = mc / mb - 1;
    if (baseline.size() < 2 || candidate.size() < 2) {
      return new ChangeJudgement(metric, baseline, candidate, change, Double.NaN, Double.NaN, Verdict.UNMEASURED);
    }
    double[] b = baseline.stream().mapToDouble(Double::doubleValue).toArray();
    double[] c = candidate.stream().mapToDouble(Double::doubleValue).toArray();
    double[] band = bootstrap(b, c, confidence);
    double lo = band[0];
    double hi = band[1];
    Verdict v;
    if (lo <= 0 && hi >= 0) {
      v = Verdict.NO_CHANGE;
    } else {
      boolean up = lo > 0;
      boolean better = up == (metric.direction() == Comparison.Direction.HIGHER_IS_BETTER);
      double worse = metric.direction() == Comparison.Direction.HIGHER_IS_BETTER ? -change : change;
      v = better ? Verdict.BETTER : worse > maxRegression ? Verdict.REGRESSED : Verdict.WORSE;
    }
    return new ChangeJudgement(metric, baseline, candidate, change, lo, hi, v);
  }

  /**
   * The noise band of repeated measurements against a fixed reference — e.g. an SLO bound
   * ({@code infx search}): the same percentile bootstrap as {@link #judge} ({@link #RESAMPLES}
   * resamples, fixed seed) of {@code mean(samples*) / reference − 1}, the reference taking the
   * baseline's place without spread. A band that excludes 0 says the samples' mean is above (or
   * below) the reference beyond run-to-run noise.
   *
   * @param samples one value per repetition, aggregate units
   * @param reference the fixed value compared with, same unit, not 0
   * @return {@code {low, high}}, relative like {@link #change()}; {@code {NaN, NaN}} for fewer than
   *     2 samples (the noise cannot be measured)
   * @throws IllegalArgumentException when {@code samples} is empty or {@code reference} is 0 or not finite
   */
  public static double[] bandAgainst(List<Double> samples, double reference, double confidence) {
    if (samples.isEmpty()) {
      throw new IllegalArgumentException("no sample to compare with " + reference);
    }
    if (reference == 0 || !Double.isFinite(reference)) {
      throw new IllegalArgumentException("the reference must be finite and not 0, got " + reference);
    }
    if (samples.size() < 2) {
      return new double[] {Double.NaN, Double.NaN};
    }
    return bootstrap(new double[] {reference}, samples.stream().mapToDouble(Double::doubleValue).toArray(), confidence);
  }

  /** The percentile-bootstrap interval of {@code mean(c*) / mean(b*) − 1}: the one home of the noise band. */
  private static double[] bootstrap(double[] b, double[] c, double confidence) {
    SplittableRandom rnd = new SplittableRandom(0x1f2e3d4cL);
    double[] ratios = new double[RESAMPLES];
    int n = 0;
    for (int i = 0; i < RESAMPLES; i++) {
      double rb = resampledMean(b, rnd);
      double rc = resampledMean(c, rnd);
      if (rb != 0) {
        ratios[n++] = rc / rb - 1;
      }
    }
    java.util.Arrays.sort(ratios, 0, n);
    double alpha = 1 - confidence;
    return new double[] {ratios[(int) Math.floor(alpha / 2 * (n - 1))], ratios[(int) Math.ceil((1 - alpha / 2) * (n - 1))]};
  }

  /** Whether the noise band was measured (both sides have ≥ 2 samples). */
  public boolean measured() {
    return verdict != Verdict.UNMEASURED;
  }

  /** {@code +12.3%} style change, with the band as {@code [−1.0%, +2.0%]} when measured. */
  public String describe() {
    String s = String.format(Locale.ROOT, "%+.1f%%", change * 100);
    return measured() ? s + String.format(Locale.ROOT, " [%+.1f%%, %+.1f%%]", bandLow * 100, bandHigh * 100) : s;
  }

  private static double resampledMean(double[] xs, SplittableRandom rnd) {
    double sum = 0;
    for (int i = 0; i < xs.length; i++) {
      sum += xs[rnd.nextInt(xs.length)];
    }
    return sum / xs.length;
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }
}
