package io.infx.client.telemetry;

import io.infx.client.telemetry.ServerMetricNames.Engine;
import io.infx.client.telemetry.ServerMetricNames.Quantity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One server endpoint's {@code /metrics} over a point's measured window (warm-ups excluded): per
 * series its window summary, and the quantities infx reads ({@link Quantity}) — counters as the
 * increase between the window's boundary scrapes, gauges as peak and mean over the scrapes in the
 * window (boundaries included).
 *
 * <p>Built by {@link Accumulator}, the same code while a point runs ({@link TelemetrySession}) and
 * when a {@link ServerMetricsLog} is read back (the store): the two always agree. Memory is bounded
 * by the number of series, never by the number of scrapes.
 *
 * @param endpoint the scraped URL
 * @param engine the engine its metric names belong to
 * @param scrapes scrapes that returned an exposition
 * @param windowScrapes of which inside the window
 * @param failures scrapes that failed (connect, timeout, HTTP status, malformed text)
 * @param firstFailure the first failure's message, if any
 * @param droppedSeries series not kept because the endpoint exposed more than the cap
 * @param counters each counter quantity's increase over the window
 * @param gauges each gauge quantity's statistics over the window
 * @param series every series' window summary, in order of first appearance
 * @param complete whether both window boundaries were scraped (else counters are absent)
 */
public record ServerWindow(
    String endpoint,
    Engine engine,
    long scrapes,
    long windowScrapes,
    long failures,
    Optional<String> firstFailure,
    long droppedSeries,
    Map<Quantity, Double> counters,
    Map<Quantity, GaugeStats> gauges,
    List<SeriesWindow> series,
    boolean complete) {

  public ServerWindow {
    counters = Collections.unmodifiableMap(new EnumMap<>(counters.isEmpty() ? new EnumMap<>(Quantity.class) : counters));
    gauges = Collections.unmodifiableMap(gauges.isEmpty() ? new EnumMap<>(Quantity.class) : new EnumMap<>(gauges));
    series = List.copyOf(series);
  }

  /** A gauge over the window: peak, lowest, mean of the scrapes, and how many scrapes. */
  public record GaugeStats(double min, double max, double mean, long samples) {}

  /**
   * One series over the window.
   *
   * @param key the series key ({@code name{labels}})
   * @param name the metric name
   * @param labels its labels
   * @param counter counter (else gauge)
   * @param first the value at the window's start (a counter first seen inside the window starts at 0)
   * @param last the value at the window's end
   * @param delta counters: the increase (counter resets added back); gauges: null
   * @param min lowest value in the window
   * @param max highest
   * @param mean mean of the window's scrapes
   * @param samples scrapes in the window that had the series
   */
  public record SeriesWindow(String key, String name, Map<String, String> labels, boolean counter, Double first,
      Double last, Double delta, Double min, Double max, Double mean, long samples) {}

  /** The increase of a counter quantity over the window, if the engine exports it. */
  public OptionalDouble counter(Quantity q) {
    Double d = counters.get(q);
    return d == null ? OptionalDouble.empty() : OptionalDouble.of(d);
  }

  /** A gauge quantity's statistics, if the engine exports it. */
  public Optional<GaugeStats> gauge(Quantity q) {
    return Optional.ofNullable(gauges.get(q));
  }

  /**
   * The prefix-cache hit rate over the window, 0–1: hits ÷ queries (tokens) when the engine counts
   * them and queries &gt; 0, else the mean of its own hit-rate gauge.
   */
  public OptionalDouble prefixCacheHitRate() {
    OptionalDouble hits = counter(Quantity.PREFIX_CACHE_HITS);
    OptionalDouble queries = counter(Quantity.PREFIX_CACHE_QUERIES);
    if (hits.isPresent() && queries.isPresent() && queries.getAsDouble() > 0) {
      return OptionalDouble.of(hits.getAsDouble() / queries.getAsDouble());
    }
    return gauge(Quantity.PREFIX_CACHE_HIT_RATE).map(g -> OptionalDouble.of(g.mean())).orElse(OptionalDouble.empty());
  }

  /**
   * A quantity's value in one scrape: the recipe's terms summed, each term the first of its names
   * present; series of one name combined by sum (counters, running and waiting requests) or by
   * max (KV-cache usage and hit-rate gauges, one per engine rank). Empty when a term is absent.
   */
  public static OptionalDouble valueOf(ServerMetricsLog.Scrape s, Engine engine, Quantity q) {
    Optional<ServerMetricNames.Reading> r = ServerMetricNames.recipe(engine, q);
    if (r.isEmpty()) {
      return OptionalDouble.empty();
    }
    boolean sum = q.counter() || q == Quantity.REQUESTS_RUNNING || q == Quantity.REQUESTS_WAITING;
    double total = 0;
    for (List<String> term : r.get().terms()) {
      OptionalDouble t = OptionalDouble.empty();
      for (String name : term) {
        t = ofName(s.gauges(), name, sum);
        if (t.isEmpty()) {
          t = ofName(s.counters(), name, sum);
        }
        if (t.isPresent()) {
          break;
        }
      }
      if (t.isEmpty()) {
        return OptionalDouble.empty();
      }
      total += t.getAsDouble();
    }
    return OptionalDouble.of(r.get().percent() ? total / 100 : total);
  }

  private static OptionalDouble ofName(Map<String, Double> values, String name, boolean sum) {
    boolean any = false;
    double acc = sum ? 0 : Double.NEGATIVE_INFINITY;
    for (Map.Entry<String, Double> e : values.entrySet()) {
      String k = e.getKey();
      if (k.equals(name) || (k.startsWith(name) && k.length() > name.length() && k.charAt(name.length()) == '{')) {
        any = true;
        acc = sum ? acc + e.getValue() : Math.max(acc, e.getValue());
      }
    }
    return any ? OptionalDouble.of(acc) : OptionalDouble.empty();
  }

  /**
   * Folds scrapes into a window summary. Feed every scrape in order with whether it is inside the
   * window; {@link #windowStart} / {@link #windowEnd} mark the boundary scrapes.
   */
  public static final class Accumulator {
    private final String endpoint;
    private final int maxSeries;
    private Engine engine = Engine.UNKNOWN;
    private long scrapes;
    private long windowScrapes;
    private long failures;
    private String firstFailure;
    private long dropped;
    private boolean started;
    private boolean ended;
    private final Map<String, Acc> series = new LinkedHashMap<>();
    private final Map<Quantity, double[]> gaugeAcc = new EnumMap<>(Quantity.class);

    /** @param maxSeries series kept per endpoint; more are counted as dropped */
    public Accumulator(String endpoint, int maxSeries) {
      this.endpoint = endpoint;
      this.maxSeries = maxSeries;
    }

    private static final class Acc {
      final String name;
      final Map<String, String> labels;
      final boolean counter;
      Double first;
      Double last;
      Double prev;
      double delta;
      double min = Double.POSITIVE_INFINITY;
      double max = Double.NEGATIVE_INFINITY;
      double sum;
      long n;

      Acc(String name, Map<String, String> labels, boolean counter) {
        this.name = name;
        this.labels = labels;
        this.counter = counter;
      }
    }

    /** A failed scrape. */
    public void failure(String message) {
      failures++;
      if (firstFailure == null) {
        firstFailure = message;
      }
    }

    /**
     * One successful scrape.
     *
     * @param inWindow whether it lies in the measured window (boundary scrapes included; the
     *     settle scrapes between the measured phase's end and the end boundary are not)
     * @param boundary {@code start}, {@code end} or null
     */
    public void scrape(ServerMetricsLog.Scrape s, boolean inWindow, String boundary) {
      scrapes++;
      if (s.engine() != Engine.UNKNOWN) {
        engine = s.engine();
      }
      if ("start".equals(boundary)) {
        started = true;
        // the window's counters start here: what came before (warm-ups) is not counted
        for (Acc a : series.values()) {
          a.first = null;
          a.delta = 0;
          a.prev = null;
        }
      }
      if (inWindow) {
        windowScrapes++;
      }
      fold(s.counters(), true, inWindow);
      fold(s.gauges(), false, inWindow);
      if (inWindow) {
        for (Quantity q : Quantity.values()) {
          if (q.counter()) {
            continue;
          }
          OptionalDouble v = combined(s, q);
          if (v.isPresent()) {
            double[] g = gaugeAcc.computeIfAbsent(q, k -> new double[] {Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY, 0, 0});
            g[0] = Math.min(g[0], v.getAsDouble());
            g[1] = Math.max(g[1], v.getAsDouble());
            g[2] += v.getAsDouble();
            g[3]++;
          }
        }
      }
      if ("end".equals(boundary)) {
        ended = true;
      }
    }

    private void fold(Map<String, Double> values, boolean counter, boolean inWindow) {
      for (Map.Entry<String, Double> e : values.entrySet()) {
        Acc a = series.get(e.getKey());
        if (a == null) {
          if (series.size() >= maxSeries) {
            dropped++;
            continue;
          }
          String key = e.getKey();
          int brace = key.indexOf('{');
          String name = brace < 0 ? key : key.substring(0, brace);
          a = new Acc(name, brace < 0 ? Map.of() : ServerMetricsLog.labelsOf(key.substring(brace)), counter);
          series.put(key, a);
        }
        double v = e.getValue();
        if (!inWindow) {
          continue; // before the window (warm-ups) or a settle scrape: the end boundary carries it
        }
        if (a.first == null) {
          // first seen in the window: at the start boundary its value then; a counter born later starts at 0
          a.first = started && windowScrapes > 1 && a.counter ? 0.0 : v;
          a.prev = a.first;
        }
        if (a.counter && a.prev != null) {
          a.delta += v >= a.prev ? v - a.prev : v; // a reset counts from zero again
        }
        a.prev = v;
        a.last = v;
        a.min = Math.min(a.min, v);
        a.max = Math.max(a.max, v);
        a.sum += v;
        a.n++;
      }
    }

    private OptionalDouble combined(ServerMetricsLog.Scrape s, Quantity q) {
      return valueOf(s, engine, q);
    }

    /** Series kept so far (bounded by {@code maxSeries}). */
    public int seriesCount() {
      return series.size();
    }

    /** The summary so far. */
    public ServerWindow result() {
      boolean complete = started && ended;
      List<SeriesWindow> out = new ArrayList<>();
      for (Map.Entry<String, Acc> e : series.entrySet()) {
        Acc a = e.getValue();
        boolean seen = a.n > 0;
        out.add(new SeriesWindow(e.getKey(), a.name, a.labels, a.counter, seen ? a.first : null, seen ? a.last : null,
            a.counter && seen && complete ? a.delta : null, seen ? a.min : null, seen ? a.max : null,
            seen ? a.sum / a.n : null, a.n));
      }
      Map<Quantity, Double> counters = new EnumMap<>(Quantity.class);
      if (complete) {
        for (Quantity q : Quantity.values()) {
          if (!q.counter()) {
            continue;
          }
          ServerMetricNames.recipe(engine, q).ifPresent(r -> {
            double total = 0;
            for (List<String> term : r.terms()) {
              Double t = null;
              for (String name : term) {
                t = deltaOf(name);
                if (t != null) {
                  break;
                }
              }
              if (t == null) {
                return;
              }
              total += t;
            }
            counters.put(q, total);
          });
        }
      }
      Map<Quantity, GaugeStats> gauges = new EnumMap<>(Quantity.class);
      gaugeAcc.forEach((q, g) -> gauges.put(q, new GaugeStats(g[0], g[1], g[2] / g[3], (long) g[3])));
      return new ServerWindow(endpoint, engine, scrapes, windowScrapes, failures, Optional.ofNullable(firstFailure),
          dropped, counters, gauges, out, complete);
    }

    private Double deltaOf(String name) {
      Double total = null;
      for (Acc a : series.values()) {
        if (a.counter && a.name.equals(name) && a.n > 0) {
          total = (total == null ? 0 : total) + a.delta;
        }
      }
      return total;
    }
  }
}
