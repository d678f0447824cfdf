package io.infx.results.agentx.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * {@code request_metrics} of the AgentX aggregate (spec §4.4), computed from the kept records:
 * completion-rate QPS in 1-second windows, latency blocks in seconds with interactivity as the
 * reciprocal of the matching ITL statistic, token distributions, wall-clock throughput and the
 * theoretical cache-hit rate.
 */
public final class RequestMetrics {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final String[] RECIPROCAL_KEYS = {"mean", "p50", "p75", "p90", "p95"};

  /** The throughput totals the per-GPU division needs, or {@code null} when throughput is empty. */
  public record Throughput(double inputTps, double outputTps, double totalTps) {}

  private final ObjectNode json;
  private final Throughput throughput;

  private RequestMetrics(ObjectNode json, Throughput throughput) {
    this.json = json;
    this.throughput = throughput;
  }

  /**
   * @param kept the records kept for metrics
   * @param aiperfAggregate the AIPerf {@code profile_export_aiperf.json} object (may be empty)
   * @param expectedOutputs recorded {@code out} of each record's trace turn (may be empty)
   */
  public static RequestMetrics compute(
      List<ProfileRecords.Kept> kept, JsonNode aiperfAggregate, long[] expectedOutputs) {
    ObjectNode root = F.objectNode();
    root.set("qps", qps(kept));
    root.set("latency", latency(kept));
    root.set("tokens", tokens(kept, expectedOutputs));
    Throughput[] tput = new Throughput[1];
    root.set("throughput", throughput(kept, tput));
    ObjectNode cache = F.objectNode();
    putNullable(cache, "theoretical_cache_hit_rate", theoreticalCacheHitRate(aiperfAggregate));
    root.set("cache", cache);
    return new RequestMetrics(root, tput[0]);
  }

  /** The nested {@code request_metrics} object (owned by the caller). */
  public ObjectNode json() {
    return json;
  }

  /** Throughput totals, or {@code null} when the records carry no usable start/end timestamps. */
  public Throughput throughput() {
    return throughput;
  }

  static ObjectNode qps(List<ProfileRecords.Kept> kept) {
    double[] ends = kept.stream().filter(ProfileRecords.Kept::hasEnd)
        .mapToDouble(k -> k.endNs() / 1e9).sorted().toArray();
    ObjectNode o = F.objectNode();
    if (ends.length < 2) {
      return o;
    }
    double first = ends[0];
    double last = ends[ends.length - 1];
    double duration = last - first;
    if (duration <= 0) {
      return o;
    }
    final double window = 1.0;
    double[] counts = new double[16];
    int n = 0;
    double current = first;
    while (current + window <= last) {
      // ends is sorted: the count in [current, current + window) is a difference of two ranks
      int count = firstAtLeast(ends, current + window) - firstAtLeast(ends, current);
      if (n == counts.length) {
        counts = Arrays.copyOf(counts, n * 2);
      }
      counts[n++] = count / window;
      current += window;
    }
    o.put("window_seconds", window);
    o.put("samples", n);
    if (n == 0) {
      o.put("mean", ends.length / duration);
    } else {
      o.setAll(StatBlock.of(Arrays.copyOf(counts, n)).toJson());
    }
    return o;
  }

  /** Index of the first element {@code >= x} in ascending {@code sorted}. */
  private static int firstAtLeast(double[] sorted, double x) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid] < x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  static ObjectNode latency(List<ProfileRecords.Kept> kept) {
    double[] ttft = msToSeconds(kept, ProfileRecords.Kept::ttftMs);
    double[] e2el = msToSeconds(kept, ProfileRecords.Kept::latencyMs);
    double[] itl = msToSeconds(kept, ProfileRecords.Kept::itlMs);
    double[] fullItl = msToSeconds(kept, ProfileRecords.Kept::fullResponseItlMs);
    double[] normalized = kept.stream()
        .filter(k -> positive(k.latencyMs()) && positive(k.outputTokensFloat()))
        .mapToDouble(k -> (k.latencyMs() / 1000.0) / k.outputTokensFloat())
        .toArray();

    ObjectNode o = F.objectNode();
    o.set("ttft", block(ttft));
    o.set("e2el", block(e2el));
    o.set("itl", block(itl));
    o.set("tpot", block(itl));
    o.set("intvty", reciprocal(itl));
    o.set("e2e_norm_intvty", reciprocal(normalized));
    o.set("full_response_itl", block(fullItl));
    o.set("full_response_intvty", reciprocal(fullItl));
    return o;
  }

  static ObjectNode tokens(List<ProfileRecords.Kept> kept, long[] expectedOutputs) {
    ObjectNode o = F.objectNode();
    o.set("input", intBlock(kept.stream().map(ProfileRecords.Kept::inputTokens)
        .filter(v -> v != null).mapToLong(Long::longValue).toArray()));
    o.set("output_actual", intBlock(kept.stream().map(ProfileRecords.Kept::outputTokens)
        .filter(v -> v != null).mapToLong(Long::longValue).toArray()));
    o.set("output_expected", intBlock(expectedOutputs));
    return o;
  }

  static ObjectNode throughput(List<ProfileRecords.Kept> kept, Throughput[] out) {
    ObjectNode o = F.objectNode();
    long minStart = Long.MAX_VALUE;
    long maxEnd = Long.MIN_VALUE;
    boolean anyStart = false;
    boolean anyEnd = false;
    long totalIn = 0;
    long totalOut = 0;
    for (ProfileRecords.Kept k : kept) {
      if (k.hasStart()) {
        anyStart = true;
        minStart = Math.min(minStart, k.startNs());
      }
      if (k.hasEnd()) {
        anyEnd = true;
        maxEnd = Math.max(maxEnd, k.endNs());
      }
      totalIn += k.inputTokens() == null ? 0 : k.inputTokens();
      totalOut += k.outputTokens() == null ? 0 : k.outputTokens();
    }
    if (!anyStart || !anyEnd) {
      return o;
    }
    double duration = (double) (maxEnd - minStart) / 1e9;
    if (duration <= 0) {
      return o;
    }
    double in = totalIn / duration;
    double outTps = totalOut / duration;
    double total = (totalIn + totalOut) / duration;
    o.set("input", F.objectNode().put("tokens_per_second", in));
    o.set("output", F.objectNode().put("tokens_per_second", outTps));
    o.set("total", F.objectNode().put("tokens_per_second", total));
    o.put("duration_seconds", duration);
    o.set("per_gpu", F.objectNode());
    out[0] = new Throughput(in, outTps, total);
    return o;
  }

  /**
   * {@code theoretical_prefix_cache_hit} as a rate: {@code sum/count} when both are numbers and
   * count &gt; 0, else {@code avg/100} for unit {@code %}, else {@code avg}; {@code null} if absent.
   */
  static Double theoreticalCacheHitRate(JsonNode aggregate) {
    JsonNode metric = JsonValues.member(aggregate, "theoretical_prefix_cache_hit");
    if (metric == null || !metric.isObject()) {
      return null;
    }
    Double hits = JsonValues.toFloat(metric.get("sum"));
    Double blocks = JsonValues.toFloat(metric.get("count"));
    if (hits != null && blocks != null && blocks > 0) {
      return hits / blocks;
    }
    Double avg = JsonValues.toFloat(metric.get("avg"));
    if (avg == null) {
      return null;
    }
    JsonNode unit = metric.get("unit");
    String u = unit == null ? "" : JsonValues.pyStr(unit).strip();
    return u.equals("%") ? avg / 100.0 : avg;
  }

  private static double[] msToSeconds(List<ProfileRecords.Kept> kept, Function<ProfileRecords.Kept, Double> f) {
    return kept.stream().map(f).filter(RequestMetrics::positive).mapToDouble(v -> v / 1000.0).toArray();
  }

  private static boolean positive(Double v) {
    return v != null && v > 0;
  }

  private static ObjectNode block(double[] values) {
    return values.length == 0 ? F.objectNode() : StatBlock.of(values).toJson();
  }

  private static ObjectNode intBlock(long[] values) {
    return values.length == 0 ? F.objectNode() : StatBlock.ofIntegers(values).toJson();
  }

  /** Per-user rate: the reciprocal of each latency statistic; std over per-sample reciprocals. */
  private static ObjectNode reciprocal(double[] latencies) {
    ObjectNode o = F.objectNode();
    if (latencies.length == 0) {
      return o;
    }
    StatBlock stats = StatBlock.of(latencies);
    double[] values = {stats.mean().doubleValue(), stats.p50(), stats.p75(), stats.p90(), stats.p95()};
    for (int i = 0; i < RECIPROCAL_KEYS.length; i++) {
      if (values[i] > 0) {
        o.put(RECIPROCAL_KEYS[i], 1.0 / values[i]);
      }
    }
    double[] perSample = Arrays.stream(latencies).filter(v -> v > 0).map(v -> 1.0 / v).toArray();
    if (perSample.length > 0) {
      o.put("std", AggregateStats.pstdev(perSample));
    }
    return o;
  }

  static void putNullable(ObjectNode o, String key, Double v) {
    if (v == null) {
      o.putNull(key);
    } else {
      o.put(key, v);
    }
  }
}
