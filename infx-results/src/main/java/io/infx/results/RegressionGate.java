package io.infx.results;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A statistical regression gate for CI: judges every matched point of a {@link Comparison} and
 * every gated metric with {@link ChangeJudgement} (bootstrap interval of the ratio of means over
 * the repetitions of both runs) and fails only on a significant change in a metric's bad direction
 * larger than the threshold.
 *
 * <p>Exit codes ({@link #exitCode(boolean)}): {@code 0} no significant regression beyond the
 * threshold; {@code 1} at least one; {@code 3} (only when repetitions are required) nothing could
 * be judged — no comparable point had at least 2 repetitions on both sides. Usage and input errors
 * exit {@code 2} before a gate is built.
 *
 * <pre>{@code
 * RegressionGate g = RegressionGate.of(Comparison.of(base, cand, Comparison::settingsBeside),
 *     Comparison.metrics(RegressionGate.DEFAULT_METRICS), 0.05, ChangeJudgement.CONFIDENCE);
 * System.exit(g.exitCode(false));
 * }</pre>
 */
public final class RegressionGate {

  /** Metrics gated unless others are named: throughput, and InferenceX's median latencies. */
  public static final List<String> DEFAULT_METRICS = List.of(
      "tput_per_gpu", "median_ttft", "median_tpot", "median_e2el", "median_intvty");

  /** Default tolerated change in the bad direction: 5 %. */
  public static final double DEFAULT_MAX_REGRESSION = 0.05;

  /** The gate's overall outcome. */
  public enum Outcome { PASS, REGRESSION, INCONCLUSIVE }

  /** The judgements of one matched point (empty when the pair is not comparable). */
  public record Point(Comparison.Pair pair, List<ChangeJudgement> judgements) {}

  private final Comparison comparison;
  private final List<Point> points;
  private final double maxRegression;
  private final double confidence;

  private RegressionGate(Comparison comparison, List<Point> points, double maxRegression, double confidence) {
    this.comparison = comparison;
    this.points = points;
    this.maxRegression = maxRegression;
    this.confidence = confidence;
  }

  /**
   * Judges every pair of {@code comparison}.
   *
   * @param maxRegression tolerated change in the bad direction as a fraction (0.05 = 5 %), ≥ 0
   * @param confidence level of the noise band, in (0, 1)
   * @throws IllegalArgumentException for a negative threshold or a confidence outside (0, 1)
   */
  public static RegressionGate of(Comparison comparison, List<Comparison.Metric> metrics, double maxRegression,
      double confidence) {
    if (!(maxRegression >= 0) || !(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("max regression must be >= 0 and confidence in (0, 1)");
    }
    List<Point> points = new ArrayList<>();
    for (Comparison.Pair p : comparison.pairs()) {
      List<ChangeJudgement> js = new ArrayList<>();
      for (Comparison.Metric m : metrics) {
        p.judge(m, maxRegression, confidence).ifPresent(js::add);
      }
      points.add(new Point(p, List.copyOf(js)));
    }
    return new RegressionGate(comparison, List.copyOf(points), maxRegression, confidence);
  }

  public List<Point> points() {
    return points;
  }

  /** Every judgement that failed the gate. */
  public List<ChangeJudgement> regressions() {
    return points.stream().flatMap(p -> p.judgements().stream())
        .filter(j -> j.verdict() == ChangeJudgement.Verdict.REGRESSED).toList();
  }

  public Outcome outcome() {
    if (!regressions().isEmpty()) {
      return Outcome.REGRESSION;
    }
    boolean judged = points.stream().flatMap(p -> p.judgements().stream()).anyMatch(ChangeJudgement::measured);
    return judged ? Outcome.PASS : Outcome.INCONCLUSIVE;
  }

  /**
   * @param requireRepeats whether an inconclusive gate fails (3) instead of passing (0)
   * @return 0 pass, 1 significant regression beyond the threshold, 3 inconclusive when required
   */
  public int exitCode(boolean requireRepeats) {
    return switch (outcome()) {
      case PASS -> 0;
      case REGRESSION -> 1;
      case INCONCLUSIVE -> requireRepeats ? 3 : 0;
    };
  }

  /** A text report: per point and metric the means, n, change, noise band and verdict, then the outcome. */
  public String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "## Regression gate: max regression %.1f%%, %.0f%% bootstrap noise band "
        + "of the ratio of means (%d resamples)%n%n", maxRegression * 100, confidence * 100, ChangeJudgement.RESAMPLES));
    sb.append("| point | metric | baseline (n) | candidate (n) | change | noise band | verdict |\n");
    sb.append("|---|---|---:|---:|---:|---:|---|\n");
    for (Point p : points) {
      if (p.pair().comparability().status() == Comparison.Status.NOT_COMPARABLE) {
        sb.append("| ").append(p.pair().key()).append(" | — | | | | | not comparable: ")
            .append(String.join("; ", p.pair().comparability().reasons()).replace("|", "\\|")).append(" |\n");
        continue;
      }
      for (ChangeJudgement j : p.judgements()) {
        double scale = j.metric().scale();
        sb.append("| ").append(p.pair().key()).append(" | ").append(j.metric().label()).append(" | ")
            .append(Summary.fixed(mean(j.baseline()) * scale, 2)).append(" (").append(j.baseline().size()).append(") | ")
            .append(Summary.fixed(mean(j.candidate()) * scale, 2)).append(" (").append(j.candidate().size()).append(") | ")
            .append(String.format(Locale.ROOT, "%+.1f%%", j.change() * 100)).append(" | ")
            .append(j.measured() ? String.format(Locale.ROOT, "[%+.1f%%, %+.1f%%]", j.bandLow() * 100, j.bandHigh() * 100)
                : "not measured")
            .append(" | ").append(word(j.verdict())).append(" |\n");
      }
      if (!p.pair().comparability().conditions().isEmpty()) {
        sb.append("| ").append(p.pair().key()).append(" | ⚠ | | | | | ")
            .append(String.join("; ", p.pair().comparability().conditions())).append(" |\n");
      }
    }
    for (Comparison.Unpaired u : comparison.unpaired()) {
      sb.append("| ").append(u.key()).append(" | — | | | | | unmatched (").append(u.side()).append("): ")
          .append(u.reason()).append(" |\n");
    }
    sb.append('\n');
    List<ChangeJudgement> r = regressions();
    switch (outcome()) {
      case REGRESSION -> sb.append("REGRESSION: ").append(r.size()).append(" significant regression")
          .append(r.size() == 1 ? "" : "s").append(" beyond ").append(pct(maxRegression)).append(" (")
          .append(String.join(", ", r.stream().map(j -> j.metric().key()).distinct().toList())).append(")\n");
      case PASS -> sb.append("PASS: no significant regression beyond ").append(pct(maxRegression)).append('\n');
      case INCONCLUSIVE -> sb.append("INCONCLUSIVE: no comparable point has at least 2 repetitions on both sides; "
          + "the noise band cannot be measured (run both with --repeat N)\n");
    }
    return sb.toString();
  }

  private static String word(ChangeJudgement.Verdict v) {
    return switch (v) {
      case NO_CHANGE -> "~ no significant change";
      case BETTER -> "▲ better";
      case WORSE -> "▼ worse (within threshold)";
      case REGRESSED -> "▼ REGRESSED";
      case UNMEASURED -> "? noise not measured";
    };
  }

  private static String pct(double f) {
    return String.format(Locale.ROOT, "%.1f%%", f * 100);
  }

  private static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** The gate as JSON: outcome, threshold, and per point and metric the samples, change, band, verdict. */
  public ObjectNode toJson() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("outcome", outcome().name().toLowerCase(Locale.ROOT));
    root.put("max_regression", maxRegression);
    root.put("confidence", confidence);
    ArrayNode ps = root.putArray("points");
    for (Point p : points) {
      ObjectNode o = ps.addObject();
      o.put("key", p.pair().key());
      o.put("comparability", p.pair().comparability().status().name().toLowerCase(Locale.ROOT));
      ArrayNode cond = o.putArray("conditions");
      p.pair().comparability().conditions().forEach(cond::add);
      ObjectNode ms = o.putObject("metrics");
      for (ChangeJudgement j : p.judgements()) {
        ObjectNode m = ms.putObject(j.metric().key());
        j.baseline().forEach(m.putArray("baseline")::add);
        j.candidate().forEach(m.putArray("candidate")::add);
        m.put("change", j.change());
        if (j.measured()) {
          m.put("noise_band_low", j.bandLow());
          m.put("noise_band_high", j.bandHigh());
        }
        m.put("verdict", j.verdict().name().toLowerCase(Locale.ROOT));
      }
    }
    return root;
  }

  public String toJsonText() {
    return PythonJson.dumps(toJson(), 2);
  }

  /** The comparison the gate judged. */
  public Comparison comparison() {
    return comparison;
  }
}
