package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The repetitions of one point ({@code infx run --repeat N}, {@code bench serve --num-runs N}):
 * how many, and per headline metric its {@link RepeatStatistics} (mean, standard deviation,
 * confidence interval of the mean, coefficient of variation, every value). A point's aggregate row
 * carries them under {@code "repeats"} — {@code {"n": 5, "confidence": 0.95, "metrics":
 * {"tput_per_gpu": {"mean", "std", "ci_low", "ci_high", "cv", "values"}, …}}} — and only when it
 * was repeated, so a single run's row is exactly the reference's.
 */
public record Repetitions(int n, double confidence, Map<String, RepeatStatistics> metrics) {

  /** The aggregate key that holds them. */
  public static final String KEY = "repeats";

  /** Default confidence level of the intervals. */
  public static final double CONFIDENCE = 0.95;

  /**
   * The headline metrics whose statistics are kept (aggregate keys): throughputs per GPU, and the
   * median and p99 of TTFT, TPOT, ITL, E2EL and interactivity — InferenceX's summary statistics.
   */
  public static final List<String> HEADLINE = List.of(
      "tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu",
      "median_ttft", "p99_ttft", "median_tpot", "p99_tpot", "median_itl", "p99_itl",
      "median_e2el", "p99_e2el", "median_intvty", "p99_intvty");

  /** Numeric keys that are counts or flags, not measurements: never averaged. */
  private static final Set<String> NOT_AVERAGED = Set.of("power_metric_schema_version", "power_valid",
      "num_aggregate_gpu");

  public Repetitions {
    metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    if (n < 1) {
      throw new IllegalArgumentException("repetitions: n must be >= 1, got " + n);
    }
  }

  /** The statistics of one metric, if it was kept. */
  public Optional<RepeatStatistics> metric(String key) {
    return Optional.ofNullable(metrics.get(key));
  }

  /**
   * One aggregate row for a point measured {@code reps.size()} times: the first repetition's row
   * with every measured number replaced by its mean across the repetitions, plus
   * {@code "repeats"} ({@link #HEADLINE} statistics). One repetition is returned unchanged.
   *
   * @throws IllegalArgumentException when there is no row, or the rows are not the same point
   *     (their {@link NaturalKey}s differ)
   */
  public static ObjectNode combine(List<? extends JsonNode> reps) {
    if (reps.isEmpty()) {
      throw new IllegalArgumentException("no repetition to combine");
    }
    ObjectNode first = (ObjectNode) reps.get(0);
    if (reps.size() == 1) {
      return first.deepCopy();
    }
    Optional<NaturalKey> key = NaturalKey.of(first);
    for (JsonNode r : reps) {
      if (!NaturalKey.of(r).equals(key)) {
        throw new IllegalArgumentException("repetitions of different points: " + key.map(NaturalKey::json)
            .orElse("?") + " vs " + NaturalKey.of(r).map(NaturalKey::json).orElse("?"));
      }
    }
    ObjectNode out = first.deepCopy();
    Set<String> identity = Set.copyOf(NaturalKey.FIELDS);
    Iterator<Map.Entry<String, JsonNode>> it = first.fields();
    while (it.hasNext()) {
      String k = it.next().getKey();
      if (identity.contains(k) || NOT_AVERAGED.contains(k) || k.equals(KEY)) {
        continue;
      }
      List<Double> vs = values(reps, k);
      if (vs != null) {
        out.put(k, vs.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
      }
    }
    Map<String, RepeatStatistics> stats = new LinkedHashMap<>();
    for (String k : HEADLINE) {
      List<Double> vs = values(reps, k);
      if (vs != null) {
        stats.put(k, new RepeatStatistics(vs, CONFIDENCE));
      }
    }
    out.set(KEY, new Repetitions(reps.size(), CONFIDENCE, stats).toJson());
    return out;
  }

  /** The key's value in every row, or null when a row lacks it or it is not a finite number. */
  private static List<Double> values(List<? extends JsonNode> reps, String k) {
    List<Double> vs = new ArrayList<>();
    for (JsonNode r : reps) {
      JsonNode v = r.get(k);
      if (v == null || !v.isNumber() || !Double.isFinite(v.doubleValue())) {
        return null;
      }
      vs.add(v.doubleValue());
    }
    return vs;
  }

  /** How many repetitions an aggregate row records: its {@code repeats.n}, else 1. */
  public static int count(JsonNode row) {
    JsonNode n = row.path(KEY).path("n");
    return n.isIntegralNumber() && n.intValue() >= 1 ? n.intValue() : 1;
  }

  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("n", n);
    o.put("confidence", confidence);
    ObjectNode m = o.putObject("metrics");
    metrics.forEach((k, s) -> m.set(k, s.toJson()));
    return o;
  }

  /**
   * Reads {@link #toJson()}'s shape.
   *
   * @throws IllegalArgumentException naming what is malformed
   */
  public static Repetitions fromJson(JsonNode o) {
    if (!o.isObject() || !o.path("n").isIntegralNumber() || !o.path("metrics").isObject()) {
      throw new IllegalArgumentException("\"repeats\" must be an object with an integer \"n\" and an object \"metrics\"");
    }
    double confidence = o.path("confidence").isNumber() ? o.get("confidence").doubleValue() : CONFIDENCE;
    Map<String, RepeatStatistics> m = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = o.get("metrics").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      m.put(e.getKey(), RepeatStatistics.fromJson(e.getValue(), confidence));
    }
    return new Repetitions(o.get("n").intValue(), confidence, m);
  }
}
