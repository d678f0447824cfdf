package io.infx.results;

import java.util.Locale;
import java.util.Objects;

/**
 * One term of a service-level objective ({@link Slo}), e.g. {@code ttft.p99<=2000ms}: a metric, the
 * statistic of it that is bounded, a comparison and the bound.
 *
 * <p>Units: {@link #bound()} is in the aggregate row's unit of the metric — <b>seconds</b> for TTFT,
 * TPOT, ITL and E2EL (the normalizer's {@code *_ms ÷ 1000}), tokens/s per user for interactivity
 * ({@code *_intvty = 1000 / TPOT ms}), a fraction in [0, 1] for goodput. {@link #text()} keeps the
 * unit the user wrote ({@code 2000ms}, {@code 2s}, {@code 99%}).
 *
 * <p>Which values are bounded: {@link #key()} names the aggregate key the term reads
 * ({@code p99_ttft}, {@code median_tpot}, {@code mean_e2el}, {@code p90_intvty} — note that
 * {@code pX_intvty} is the interactivity <em>at</em> the X-th percentile TPOT, the slow tail, as the
 * reference normalizer publishes it), or {@code goodput} for the share of requested prompts that met
 * every per-request threshold ({@link Slo#goodputThresholdsMillis()}).
 *
 * @param metric what is measured
 * @param statistic which statistic of it; {@link Statistic#NONE} for goodput
 * @param comparison how the statistic is compared with the bound
 * @param bound the bound, in the aggregate's unit (see above)
 * @param text the term as written, without blanks (e.g. {@code ttft.p99<=2000ms})
 */
public record SloTerm(Metric metric, Statistic statistic, Operator comparison, double bound, String text) {

  /** The measured quantity of a term, with the aggregate-key stem and the direction of its bound. */
  public enum Metric {
    /** Time to first token; an upper bound, in s (written in us, ms or s). */
    TTFT("ttft", true),
    /** Time per output token after the first; an upper bound, in s. */
    TPOT("tpot", true),
    /** Inter-token latency (gap between streamed chunks); an upper bound, in s. */
    ITL("itl", true),
    /** End-to-end request latency; an upper bound, in s. */
    E2EL("e2el", true),
    /** Interactivity, tokens/s per user ({@code 1000 / TPOT ms}); a lower bound. */
    INTERACTIVITY("intvty", false),
    /** Share of requested prompts that met every per-request threshold; a lower bound in [0, 1]. */
    GOODPUT("goodput", false);

    private final String stem;
    private final boolean latency;

    Metric(String stem, boolean latency) {
      this.stem = stem;
      this.latency = latency;
    }

    /** The aggregate-key stem ({@code ttft}, {@code intvty}) or {@code goodput}. */
    public String stem() {
      return stem;
    }

    /** Whether this is a latency (bounded from above, in seconds). */
    public boolean latency() {
      return latency;
    }
  }

  /**
   * The statistic a term bounds: the mean, a percentile (p50 is the reference's {@code median}), or
   * none (goodput is one number).
   *
   * @param kind mean, percentile or none
   * @param percentile the percentile in (0, 100) for {@link Kind#PERCENTILE}, else NaN
   */
  public record Statistic(Kind kind, double percentile) {

    /** What kind of statistic. */
    public enum Kind { MEAN, PERCENTILE, NONE }

    /** The mean. */
    public static final Statistic MEAN = new Statistic(Kind.MEAN, Double.NaN);

    /** No statistic (goodput). */
    public static final Statistic NONE = new Statistic(Kind.NONE, Double.NaN);

    public Statistic {
      Objects.requireNonNull(kind, "kind");
      if (kind == Kind.PERCENTILE && !(percentile > 0 && percentile < 100)) {
        throw new IllegalArgumentException("a percentile is in (0, 100), got " + percentile);
      }
      if (kind != Kind.PERCENTILE) {
        percentile = Double.NaN;
      }
    }

    /** The {@code p}-th percentile, {@code 0 < p < 100}; 50 is the median. */
    public static Statistic percentile(double p) {
      return new Statistic(Kind.PERCENTILE, p);
    }

    /**
     * The prefix of the aggregate key: {@code mean}, {@code median} for p50, {@code p90},
     * {@code p99.9} (the raw file's {@code --metric-percentiles} spelling: an integer when whole).
     */
    public String keyPrefix() {
      return switch (kind) {
        case MEAN -> "mean";
        case NONE -> "";
        case PERCENTILE -> percentile == 50 ? "median" : "p" + percentileText(percentile);
      };
    }

    /** How a term writes it: {@code mean}, {@code p50}, {@code p99.9}; empty for none. */
    public String label() {
      return switch (kind) {
        case MEAN -> "mean";
        case NONE -> "";
        case PERCENTILE -> "p" + percentileText(percentile);
      };
    }

    /** {@code 90}, {@code 99.9}: an integer when whole, as the client names percentile keys. */
    public static String percentileText(double p) {
      return p == Math.rint(p) ? Long.toString((long) p) : io.infx.core.python.PythonNumbers.floatRepr(p);
    }
  }

  /** How a statistic is compared with the bound: the term's operator. */
  public enum Operator {
    AT_MOST("<="), BELOW("<"), AT_LEAST(">="), ABOVE(">");

    private final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }

    /** Whether the bound is an upper bound ({@code <=}, {@code <}). */
    public boolean upper() {
      return this == AT_MOST || this == BELOW;
    }
  }

  public SloTerm {
    Objects.requireNonNull(metric, "metric");
    Objects.requireNonNull(statistic, "statistic");
    Objects.requireNonNull(comparison, "comparison");
    Objects.requireNonNull(text, "text");
    if (!Double.isFinite(bound) || bound < 0) {
      throw new IllegalArgumentException("an SLO bound is a finite number >= 0, got " + bound);
    }
    if ((metric == Metric.GOODPUT) != (statistic.kind() == Statistic.Kind.NONE)) {
      throw new IllegalArgumentException(metric == Metric.GOODPUT ? "goodput has no statistic"
          : metric.stem() + " needs a statistic (mean or a percentile)");
    }
    if (metric.latency() != comparison.upper()) {
      throw new IllegalArgumentException(metric.stem() + (metric.latency() ? " is bounded from above (<=, <)"
          : " is bounded from below (>=, >)"));
    }
    if (metric == Metric.GOODPUT && bound > 1) {
      throw new IllegalArgumentException("goodput is a share in [0, 1], got " + bound);
    }
  }

  /** The key of the value this term bounds: an aggregate key ({@code p99_ttft}) or {@code goodput}. */
  public String key() {
    return metric == Metric.GOODPUT ? metric.stem() : statistic.keyPrefix() + "_" + metric.stem();
  }

  /** {@code ttft.p99}, {@code goodput}: the term's left-hand side as written canonically. */
  public String label() {
    return metric == Metric.GOODPUT ? metric.stem() : metric.stem() + "." + statistic.label();
  }

  /** Whether {@code value} (in the aggregate's unit) meets the bound. */
  public boolean passes(double value) {
    return switch (comparison) {
      case AT_MOST -> value <= bound;
      case BELOW -> value < bound;
      case AT_LEAST -> value >= bound;
      case ABOVE -> value > bound;
    };
  }

  /**
   * How much of the bound {@code value} uses: {@code value / bound} for an upper bound,
   * {@code bound / value} for a lower one — below 1 inside the bound, above 1 outside it, so every
   * term is on one scale (a search interpolates it). A zero denominator gives +∞ (or 1 for 0/0).
   */
  public double ratio(double value) {
    double num = comparison.upper() ? value : bound;
    double den = comparison.upper() ? bound : value;
    if (den == 0) {
      return num == 0 ? 1 : Double.POSITIVE_INFINITY;
    }
    return num / den;
  }

  /**
   * A value in the unit the term was written in, for messages: {@code 1843.2 ms}, {@code 1.84 s},
   * {@code 97.5%}, {@code 21.3 tok/s/user}.
   */
  public String format(double value) {
    if (metric.latency()) {
      boolean seconds = text.endsWith("s") && !text.endsWith("ms") && !text.endsWith("us") && !text.endsWith("µs");
      return seconds ? String.format(Locale.ROOT, "%.3f s", value)
          : String.format(Locale.ROOT, "%.1f ms", value * 1000);
    }
    if (metric == Metric.GOODPUT) {
      return String.format(Locale.ROOT, "%.1f%%", value * 100);
    }
    return String.format(Locale.ROOT, "%.1f tok/s/user", value);
  }

  @Override
  public String toString() {
    return text;
  }
}
