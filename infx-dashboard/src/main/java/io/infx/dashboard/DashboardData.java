package io.infx.dashboard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.results.ParetoFrontier;
import io.infx.store.LatestPoint;
import io.infx.store.mapping.ConfigParams;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the dashboard shows, computed from a model's stored points ({@code ResultStore.allPoints},
 * oldest run first): the snapshot at a date, the JSON rows of InferenceX-app's
 * {@code /api/v1/benchmarks}, availability, a point's history with its repetitions' confidence
 * interval and regression flags, and the Pareto frontier per hardware × framework. Pure: no I/O.
 */
public final class DashboardData {

  /** A point's history value is flagged when it is this much worse than the run before (5 %). */
  public static final double REGRESSION = 0.05;

  /** The frontier over every real configuration (what a buyer can reach on any hardware). */
  public static final String ALL = "all real configurations";

  private DashboardData() {}

  /**
   * The points as of {@code date} (default: the newest): for every (config, ISL, OSL) the newest
   * run on or before the date, all of its points — InferenceX-app's date-filtered rule.
   */
  public static List<LatestPoint> asOf(List<LatestPoint> all, Optional<LocalDate> date) {
    Map<String, String> newestRun = new LinkedHashMap<>();
    for (LatestPoint p : all) {
      if (date.isEmpty() || !p.date().isAfter(date.get())) {
        newestRun.put(curve(p), p.runId());             // oldest first: the last one wins
      }
    }
    List<LatestPoint> out = new ArrayList<>();
    for (LatestPoint p : all) {
      if (p.runId().equals(newestRun.get(curve(p)))) {
        out.add(p);
      }
    }
    return out;
  }

  private static String curve(LatestPoint p) {
    return p.config().cacheKey() + "|" + p.isl() + "|" + p.osl();
  }

  /** Legend name of a configuration: hardware · framework · precision · TP[/EP], SIMULATED marked. */
  public static String series(LatestPoint p) {
    ConfigParams c = p.config();
    String par = c.disagg() ? "P" + c.prefillTp() + "/D" + c.decodeTp()
        : "TP" + c.decodeTp() + (c.decodeEp() > 1 ? " EP" + c.decodeEp() : "");
    return (p.simulated() ? "SIMULATED " : "") + c.hardware() + " · " + c.framework() + " · " + c.precision()
        + " · " + par;
  }

  /** The hardware × framework group of a point (the frontier is drawn per group). */
  public static String group(LatestPoint p) {
    return (p.simulated() ? "SIMULATED " : "") + p.config().hardware() + " · " + p.config().framework();
  }

  /** InferenceX-app's benchmark row: the 17 config columns, isl, osl, conc, image, metrics, date, run url. */
  public static ArrayNode rows(List<LatestPoint> points) {
    ArrayNode a = Json.mapper().createArrayNode();
    for (LatestPoint p : points) {
      ObjectNode o = a.addObject();
      ConfigParams c = p.config();
      o.put("hardware", c.hardware()).put("framework", c.framework()).put("model", c.model())
          .put("precision", c.precision()).put("spec_method", c.specMethod()).put("disagg", c.disagg())
          .put("is_multinode", c.isMultinode()).put("prefill_tp", c.prefillTp()).put("prefill_ep", c.prefillEp())
          .put("prefill_dp_attention", c.prefillDpAttn()).put("prefill_num_workers", c.prefillNumWorkers())
          .put("decode_tp", c.decodeTp()).put("decode_ep", c.decodeEp())
          .put("decode_dp_attention", c.decodeDpAttn()).put("decode_num_workers", c.decodeNumWorkers())
          .put("num_prefill_gpu", c.numPrefillGpu()).put("num_decode_gpu", c.numDecodeGpu());
      put(o, "isl", p.isl());
      put(o, "osl", p.osl());
      o.put("conc", p.conc());
      o.put("image", p.image());
      o.set("metrics", p.metrics());
      o.put("date", p.date().toString());
      o.put("run_id", p.runId());
      o.put("run_url", p.runUrl());
      o.put("simulated", p.simulated());
      o.put("server_engine", p.serverEngine());
      o.put("series", series(p));
      o.put("group", group(p));
    }
    return a;
  }

  private static void put(ObjectNode o, String k, Integer v) {
    if (v == null) {
      o.putNull(k);
    } else {
      o.put(k, v);
    }
  }

  /**
   * The Pareto frontier of throughput per GPU against interactivity ({@code median_intvty}) per
   * hardware × framework group, and over every real (not simulated) configuration under {@link #ALL}:
   * {@code {group: [[intvty, tput], …]}} in increasing interactivity.
   */
  public static ObjectNode frontiers(List<LatestPoint> points) {
    Map<String, List<LatestPoint>> byGroup = new TreeMap<>();
    for (LatestPoint p : points) {
      if (p.metric("median_intvty").isPresent()) {
        byGroup.computeIfAbsent(group(p), g -> new ArrayList<>()).add(p);
        if (!p.simulated()) {
          byGroup.computeIfAbsent(ALL, g -> new ArrayList<>()).add(p);
        }
      }
    }
    ObjectNode o = Json.mapper().createObjectNode();
    byGroup.forEach((g, ps) -> {
      ArrayNode line = o.putArray(g);
      for (LatestPoint p : ParetoFrontier.of(ps, x -> x.metric("median_intvty").getAsDouble(),
          x -> x.metric("tput_per_gpu").orElse(Double.NaN))) {
        line.addArray().add(p.metric("median_intvty").getAsDouble()).add(p.metric("tput_per_gpu").getAsDouble());
      }
    });
    return o;
  }

  /**
   * Which dates have points, per ISL/OSL and precision: {@code {"dates": […], "combos": [{isl, osl,
   * precision, dates}]}}, dates ascending.
   */
  public static ObjectNode availability(List<LatestPoint> all) {
    TreeSet<String> dates = new TreeSet<>();
    Map<String, TreeSet<String>> combos = new TreeMap<>();
    for (LatestPoint p : all) {
      dates.add(p.date().toString());
      combos.computeIfAbsent(p.isl() + "/" + p.osl() + "/" + p.config().precision(), k -> new TreeSet<>())
          .add(p.date().toString());
    }
    ObjectNode o = Json.mapper().createObjectNode();
    dates.forEach(o.putArray("dates")::add);
    ArrayNode cs = o.putArray("combos");
    combos.forEach((k, ds) -> {
      String[] parts = k.split("/", 3);
      ObjectNode c = cs.addObject();
      c.put("isl", parts[0]).put("osl", parts[1]).put("precision", parts[2]);
      ds.forEach(c.putArray("dates")::add);
    });
    return o;
  }

  /**
   * One point's metric across runs (points of the same series, ISL, OSL and conc), oldest first:
   * {@code [{date, run_id, value, ci_low, ci_high, simulated, regression}]}. The interval comes
   * from the point's repetitions when the store kept them ({@code <metric>_ci_low/_ci_high}); a
   * value more than {@link #REGRESSION} worse than the run before is flagged (direction: lower is
   * better for latencies, higher for throughput and interactivity).
   */
  public static ArrayNode history(List<LatestPoint> all, String series, int isl, int osl, int conc, String metric) {
    boolean lowerIsBetter = metric.contains("ttft") || metric.contains("tpot") || metric.contains("e2el")
        || metric.contains("itl");
    ArrayNode a = Json.mapper().createArrayNode();
    Double previous = null;
    for (LatestPoint p : all) {
      if (!series(p).equals(series) || !Objects.equals(p.isl(), isl) || !Objects.equals(p.osl(), osl)
          || p.conc() != conc || p.metric(metric).isEmpty()) {
        continue;
      }
      double v = p.metric(metric).getAsDouble();
      ObjectNode o = a.addObject();
      o.put("date", p.date().toString()).put("run_id", p.runId()).put("value", v).put("simulated", p.simulated());
      p.metric(metric + "_ci_low").ifPresent(x -> o.put("ci_low", x));
      p.metric(metric + "_ci_high").ifPresent(x -> o.put("ci_high", x));
      boolean regression = previous != null && previous != 0
          && (lowerIsBetter ? v / previous - 1 > REGRESSION : 1 - v / previous > REGRESSION);
      o.put("regression", regression);
      previous = v;
    }
    return a;
  }

  /** Distinct values of a row field, sorted, for the page's filters. */
  static List<String> distinct(List<LatestPoint> all, java.util.function.Function<LatestPoint, String> f) {
    return new ArrayList<>(new TreeSet<>(all.stream().map(f).filter(Objects::nonNull).toList()));
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
