package io.infx.results.agentx.internal;

import io.infx.core.python.PythonNumbers;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The {@code metrics} map of an AIPerf {@code server_metrics_export.json} (spec §3.4) and the
 * reference's helpers over it: counter sums, gauges combined across series, per-label sums.
 * Every helper reads, per series, the first numeric stat in a preference order.
 */
public final class MetricIndex {

  /** Counter preference: {@code total, sum, max, avg}. */
  public static final String[] COUNTER_KEYS = {"total", "sum", "max", "avg"};
  /** Gauge preference: {@code max, avg, total}. */
  public static final String[] GAUGE_KEYS = {"max", "avg", "total"};
  /** Gauge preference for rates reported as averages: {@code avg, max, total}. */
  public static final String[] AVG_GAUGE_KEYS = {"avg", "max", "total"};

  private final Map<String, JsonNode> metrics;

  private MetricIndex(Map<String, JsonNode> metrics) {
    this.metrics = metrics;
  }

  /** The index of a parsed export file; empty when the file or its {@code metrics} is not an object. */
  public static MetricIndex of(JsonNode exportFile) {
    Map<String, JsonNode> map = new LinkedHashMap<>();
    JsonNode m = JsonValues.member(exportFile, "metrics");
    if (m != null && m.isObject()) {
      Iterator<Map.Entry<String, JsonNode>> it = m.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        map.put(e.getKey(), e.getValue());
      }
    }
    return new MetricIndex(map);
  }

  public boolean isEmpty() {
    return metrics.isEmpty();
  }

  public int size() {
    return metrics.size();
  }

  public boolean has(String name) {
    return metrics.containsKey(name);
  }

  /** Metric names in ascending order. */
  public List<String> sortedNames() {
    return new ArrayList<>(new TreeSet<>(metrics.keySet()));
  }

  public boolean anyNameStartsWith(String prefix) {
    return metrics.keySet().stream().anyMatch(n -> n.startsWith(prefix));
  }

  /** The series objects of {@code name} (empty when absent or malformed). */
  public List<JsonNode> series(String name) {
    List<JsonNode> out = new ArrayList<>();
    JsonNode series = JsonValues.member(metrics.get(name), "series");
    if (series != null && series.isArray()) {
      for (JsonNode s : series) {
        if (s.isObject()) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /** Sum over all series of the named metrics of the first numeric stat; {@code null} if none. */
  public Double sum(List<String> names, String[] keys, Predicate<JsonNode> filter) {
    double total = 0;
    boolean found = false;
    for (String name : names) {
      for (JsonNode s : series(name)) {
        if (!filter.test(s)) {
          continue;
        }
        Double v = stat(s, keys);
        if (v != null) {
          total += v;
          found = true;
        }
      }
    }
    return found ? total : null;
  }

  /** {@link #sum(List, String[], Predicate)} of one counter with the counter preference. */
  public Double sum(String name) {
    return sum(List.of(name), COUNTER_KEYS, s -> true);
  }

  /**
   * A gauge over all series of the named metrics: per series the first numeric stat, combined by
   * {@code max} or arithmetic mean; {@code null} if no series has a value.
   */
  public Double gauge(List<String> names, String[] keys, boolean average, Predicate<JsonNode> filter) {
    List<Double> values = new ArrayList<>();
    for (String name : names) {
      for (JsonNode s : series(name)) {
        if (filter.test(s)) {
          Double v = stat(s, keys);
          if (v != null) {
            values.add(v);
          }
        }
      }
    }
    if (values.isEmpty()) {
      return null;
    }
    if (average) {
      double sum = 0;
      for (double v : values) {
        sum += v;
      }
      return sum / values.size();
    }
    double max = values.get(0);
    for (double v : values) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** Sum of the counter per value of {@code label}, in order of first appearance. */
  public Map<String, Double> sumByLabel(String name, String label, String[] keys) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (JsonNode s : series(name)) {
      String value = label(s, label);
      Double v = stat(s, keys);
      if (value != null && v != null) {
        out.merge(value, v, Double::sum);
      }
    }
    return out;
  }

  /** The string value of {@code labels.<key>} of a series, or {@code null}. */
  public static String label(JsonNode series, String key) {
    JsonNode v = JsonValues.member(series.get("labels"), key);
    return v == null || v.isNull() ? null : JsonValues.pyStr(v);
  }

  /** A series filter: {@code labels.<key> == value}. */
  public static Predicate<JsonNode> labelEquals(String key, String value) {
    return s -> value.equals(label(s, key));
  }

  private static Double stat(JsonNode series, String[] keys) {
    JsonNode stats = series.get("stats");
    if (stats == null || !stats.isObject()) {
      return null;
    }
    for (String key : keys) {
      JsonNode v = stats.get(key);
      if (v != null && v.isNumber()) {
        double d = v.doubleValue();
        if (Double.isFinite(d)) {
          return d;
        }
      }
    }
    return null;
  }

  /** {@code a / b}, or {@code null} when either is {@code null} or {@code b <= 0}. */
  public static Double rate(Double a, Double b) {
    return a == null || b == null || b <= 0 ? null : a / b;
  }

  /** A gauge reported in percent (value &gt; 1.5) as a fraction; {@code null} stays {@code null}. */
  public static Double normalizeFraction(Double v) {
    return v == null ? null : v > 1.5 ? v / 100.0 : v;
  }

  /** A counter rounded half-even to a whole number; {@code null} stays {@code null}. */
  public static Long counterInt(Double v) {
    return v == null ? null : PythonNumbers.roundToLong(v);
  }
}
