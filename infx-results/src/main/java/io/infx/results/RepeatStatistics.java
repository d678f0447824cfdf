package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * One metric across the repetitions of a point: the values in repetition order, their mean, the
 * sample standard deviation ({@code n − 1}), a Student-t confidence interval of the mean
 * ({@code mean ± t(1 − α/2, n − 1) · s/√n}, valid for few samples of a roughly normal quantity)
 * and the coefficient of variation {@code s / mean}. Values are in the aggregate's units
 * (seconds for latencies, tok/s/GPU for throughput, tok/s/user for interactivity).
 *
 * @param values one per repetition, at least one
 * @param confidence level of the interval, e.g. 0.95
 */
public record RepeatStatistics(List<Double> values, double confidence) {

  public RepeatStatistics {
    values = List.copyOf(values);
    if (values.isEmpty()) {
      throw new IllegalArgumentException("statistics of no value");
    }
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
    }
  }

  public int n() {
    return values.size();
  }

  public double mean() {
    return stats().getMean();
  }

  /** Sample standard deviation ({@code n − 1} in the denominator); 0 for one value. */
  public double stdDev() {
    return n() < 2 ? 0 : stats().getStandardDeviation();
  }

  /** Half the width of the confidence interval of the mean; 0 for one value (no spread known). */
  public double halfWidth() {
    if (n() < 2) {
      return 0;
    }
    double t = new TDistribution(null, n() - 1).inverseCumulativeProbability(1 - (1 - confidence) / 2);
    return t * stdDev() / Math.sqrt(n());
  }

  public double ciLow() {
    return mean() - halfWidth();
  }

  public double ciHigh() {
    return mean() + halfWidth();
  }

  /** {@code stdDev / |mean|}; NaN when the mean is 0. */
  public double cv() {
    return mean() == 0 ? Double.NaN : stdDev() / Math.abs(mean());
  }

  private SummaryStatistics stats() {
    SummaryStatistics s = new SummaryStatistics();
    values.forEach(s::addValue);
    return s;
  }

  /** {@code {"mean", "std", "ci_low", "ci_high", "cv", "values"}} ({@code cv} null for a zero mean). */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("mean", mean());
    o.put("std", stdDev());
    o.put("ci_low", ciLow());
    o.put("ci_high", ciHigh());
    if (Double.isNaN(cv())) {
      o.putNull("cv");
    } else {
      o.put("cv", cv());
    }
    values.forEach(o.putArray("values")::add);
    return o;
  }

  /**
   * Reads {@link #toJson()}'s shape back (only {@code values} is read; the rest is derived).
   *
   * @throws IllegalArgumentException when {@code values} is missing, empty or not all numbers
   */
  public static RepeatStatistics fromJson(JsonNode o, double confidence) {
    JsonNode vs = o.path("values");
    if (!vs.isArray() || vs.isEmpty()) {
      throw new IllegalArgumentException("repeat statistics need a non-empty \"values\" array");
    }
    List<Double> values = new ArrayList<>();
    for (JsonNode v : vs) {
      if (!v.isNumber()) {
        throw new IllegalArgumentException("repeat value " + v + " is not a number");
      }
      values.add(v.doubleValue());
    }
    return new RepeatStatistics(values, confidence);
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%.6g ± %.3g (n=%d, cv %.1f%%)", mean(), halfWidth(), n(), cv() * 100);
  }
}
