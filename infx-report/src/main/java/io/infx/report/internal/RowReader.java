package io.infx.report.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.report.Latency;
import io.infx.report.Percentile;
import io.infx.report.ReportPoint;
import io.infx.report.ReportPoints;
import io.infx.report.ReportProblem;
import io.infx.results.AggregateSchema;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Reads report points out of aggregate rows. Fixed-sequence rows carry the reference
 * normalizer's flat keys ({@code median_ttft} in seconds, {@code median_intvty} in tok/s/user);
 * AgentX rows nest them under {@code request_metrics} ({@code latency.ttft.p50} in seconds,
 * {@code latency.intvty.p50}, {@code throughput.per_gpu.total_tput_tps}).
 */
public final class RowReader {

  /** Keys that identify a serving configuration (everything but conc and the measurements). */
  private static final List<String> IDENTITY = List.of(
      "hw", "image", "model", "infmax_model_prefix", "framework", "precision", "spec_decoding",
      "disagg", "recipe_fingerprint", "isl", "osl", "scenario_type", "router", "kv_p2p_transfer",
      "is_multinode", "tp", "pp", "dcp_size", "pcp_size", "ep", "dp_attention",
      "prefill_tp", "prefill_pp", "prefill_dcp_size", "prefill_pcp_size", "prefill_ep",
      "prefill_dp_attention", "prefill_num_workers", "decode_tp", "decode_pp", "decode_dcp_size",
      "decode_pcp_size", "decode_ep", "decode_dp_attention", "decode_num_workers",
      "num_prefill_gpu", "num_decode_gpu", "prefill_hw", "decode_hw", "kv_offloading",
      "kv_offload_backend", "allocated_cpu_dram_gb", "server_engine", "server_version", "simulated");

  private static final Map<Percentile, String> FIXED_STATS = fixedStats();
  private static final Map<Percentile, String> AGENTIC_STATS = agenticStats();

  private RowReader() {}

  /** Points of the given rows (sources name each row in messages); see {@link ReportPoints}. */
  public static ReportPoints points(List<JsonNode> rows, List<String> sources) {
    List<ReportPoint> points = new ArrayList<>();
    List<String> identities = new ArrayList<>();
    List<ReportProblem> skipped = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      JsonNode row = rows.get(i);
      String source = sources.get(i);
      try {
        points.add(AggregateSchema.isAgentic(row) ? agentic(row, source) : fixed(row, source));
        identities.add(identity(row));
      } catch (IllegalArgumentException e) {
        skipped.add(new ReportProblem(source, "not plotted: " + e.getMessage()));
      }
    }
    return new ReportPoints(uniqueLabels(points, identities), skipped);
  }

  private static ReportPoint fixed(JsonNode row, String source) {
    requireObject(row);
    return new ReportPoint(workload(row), configLabel(row), conc(row),
        number(row, "tput_per_gpu"), number(row, "output_tput_per_gpu"),
        optional(row.get("median_intvty")),
        fixedLatency(row, "ttft"), fixedLatency(row, "tpot"), fixedLatency(row, "e2el"), source);
  }

  private static ReportPoint agentic(JsonNode row, String source) {
    JsonNode metrics = row.path("request_metrics");
    JsonNode perGpu = metrics.path("throughput").path("per_gpu");
    JsonNode latency = metrics.path("latency");
    return new ReportPoint(workload(row), configLabel(row), conc(row),
        number(perGpu, "total_tput_tps", "request_metrics.throughput.per_gpu.total_tput_tps"),
        number(perGpu, "output_tput_tps", "request_metrics.throughput.per_gpu.output_tput_tps"),
        optional(latency.path("intvty").get("p50")),
        agenticLatency(latency.path("ttft")), agenticLatency(latency.path("tpot")),
        agenticLatency(latency.path("e2el")), source);
  }

  private static Latency fixedLatency(JsonNode row, String metric) {
    Map<Percentile, Double> ms = new EnumMap<>(Percentile.class);
    FIXED_STATS.forEach((p, prefix) -> seconds(row.get(prefix + "_" + metric)).ifPresent(v -> ms.put(p, v)));
    return new Latency(ms);
  }

  private static Latency agenticLatency(JsonNode stats) {
    Map<Percentile, Double> ms = new EnumMap<>(Percentile.class);
    AGENTIC_STATS.forEach((p, key) -> seconds(stats.get(key)).ifPresent(v -> ms.put(p, v)));
    return new Latency(ms);
  }

  /** A latency in seconds, as milliseconds; absent unless a finite non-negative number. */
  private static OptionalDouble seconds(JsonNode v) {
    OptionalDouble s = optional(v);
    return s.isPresent() ? OptionalDouble.of(s.getAsDouble() * 1000.0) : s;
  }

  private static OptionalDouble optional(JsonNode v) {
    if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(v.asDouble());
  }

  private static void requireObject(JsonNode row) {
    if (!row.isObject()) {
      throw new IllegalArgumentException("expected an aggregate row (JSON object), got "
          + row.getNodeType().toString().toLowerCase(Locale.ROOT));
    }
  }

  private static int conc(JsonNode row) {
    requireObject(row);
    JsonNode c = row.get("conc");
    if (c == null || !c.canConvertToInt() || !c.isIntegralNumber() || c.asInt() < 1) {
      throw new IllegalArgumentException("'conc' must be a positive integer, got " + c);
    }
    return c.asInt();
  }

  private static double number(JsonNode row, String key) {
    return number(row, key, key);
  }

  private static double number(JsonNode node, String key, String path) {
    JsonNode v = node.get(key);
    if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < 0) {
      throw new IllegalArgumentException("'" + path + "' must be a finite number >= 0, got " + v);
    }
    return v.asDouble();
  }

  /** {@link #workload} for other report parts (eval rows use the labels of the point they guard). */
  public static String workloadLabel(JsonNode row) {
    return workload(row);
  }

  /** {@link #configLabel} for other report parts. */
  public static String configurationLabel(JsonNode row) {
    return configLabel(row);
  }

  /** E.g. {@code dsr1 · 1k/1k}, {@code gptoss · 1024/8192}, {@code dsr1 · AgentX}. */
  static String workload(JsonNode row) {
    String prefix = text(row, "infmax_model_prefix", text(row, "model", "model"));
    if (AggregateSchema.isAgentic(row)) {
      return prefix + " · AgentX";
    }
    return prefix + " · " + tokens(row.path("isl").asInt()) + "/" + tokens(row.path("osl").asInt());
  }

  private static String tokens(int n) {
    return n > 0 && n % 1024 == 0 ? (n / 1024) + "k" : Integer.toString(n);
  }

  /** How a simulated series' label starts (the HTML page also adds a banner when one is present). */
  public static final String SIMULATED_MARK = "SIMULATED";

  /** E.g. {@code h200 sglang fp8 TP8 EP8 DPA}, {@code gb200 dynamo-trt fp4 P2×TP4 / D1×TP8 disagg}. */
  static String configLabel(JsonNode row) {
    List<String> parts = new ArrayList<>();
    if (row.path("simulated").asBoolean(false)) {
      parts.add(SIMULATED_MARK); // a simulated series must never read as hardware
    }
    parts.add(text(row, "hw", "?"));
    parts.add(text(row, "framework", "?"));
    parts.add(text(row, "precision", "?"));
    if (row.path("is_multinode").asBoolean(false) && row.has("prefill_tp")) {
      parts.add(role(row, "prefill_", "P") + " / " + role(row, "decode_", "D"));
    } else {
      parts.add(parallelism(row, ""));
    }
    if (row.path("disagg").asBoolean(false)) {
      parts.add("disagg");
    }
    String spec = text(row, "spec_decoding", "none");
    if (!spec.equals("none") && !spec.isEmpty()) {
      parts.add("spec " + spec);
    }
    String offload = text(row, "kv_offloading", "none");
    if (!offload.equals("none") && !offload.isEmpty()) {
      parts.add("offload " + offload);
    }
    if (!row.path("simulated").asBoolean(false) && row.path("server_engine").isTextual()) {
      parts.add("· " + row.get("server_engine").textValue());
    }
    return String.join(" ", parts);
  }

  private static String role(JsonNode row, String prefix, String name) {
    String workers = row.has(prefix + "num_workers")
        ? row.path(prefix + "num_workers").asText() + "×" : "";
    return name + workers + parallelism(row, prefix);
  }

  private static String parallelism(JsonNode row, String prefix) {
    StringBuilder b = new StringBuilder("TP").append(row.path(prefix + "tp").asText("?"));
    appendIfOver1(b, row, prefix + "pp", "PP");
    appendIfOver1(b, row, prefix + "dcp_size", "DCP");
    appendIfOver1(b, row, prefix + "pcp_size", "PCP");
    appendIfOver1(b, row, prefix + "ep", "EP");
    if (row.path(prefix + "dp_attention").asText("false").equals("true")
        || row.path(prefix + "dp_attention").asBoolean(false)) {
      b.append(" DPA");
    }
    return b.toString();
  }

  private static void appendIfOver1(StringBuilder b, JsonNode row, String key, String label) {
    JsonNode v = row.get(key);
    if (v != null && v.isIntegralNumber() && v.asInt() > 1) {
      b.append(' ').append(label).append(v.asInt());
    }
  }

  private static String text(JsonNode row, String key, String fallback) {
    JsonNode v = row.get(key);
    return v == null || v.isNull() || !v.isValueNode() || v.asText().isEmpty() ? fallback : v.asText();
  }

  private static String identity(JsonNode row) {
    StringBuilder b = new StringBuilder();
    for (String k : IDENTITY) {
      JsonNode v = row.get(k);
      if (v != null) {
        b.append(k).append('=').append(v).append('\n');
      }
    }
    return b.toString();
  }

  /**
   * Gives configurations that share a label within a workload (they differ only in fields the
   * label leaves out, e.g. the image) distinct labels: the second becomes {@code "label (2)"}.
   */
  private static List<ReportPoint> uniqueLabels(List<ReportPoint> points, List<String> identities) {
    Map<String, String> labelOf = new HashMap<>();            // workload + identity → label
    Map<String, Integer> used = new LinkedHashMap<>();        // workload + label → configs so far
    List<ReportPoint> out = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      ReportPoint p = points.get(i);
      String key = p.workload() + "\n" + identities.get(i);
      String label = labelOf.computeIfAbsent(key, k -> {
        int n = used.merge(p.workload() + "\n" + p.config(), 1, Integer::sum);
        return n == 1 ? p.config() : p.config() + " (" + n + ")";
      });
      out.add(label.equals(p.config()) ? p : new ReportPoint(p.workload(), label, p.conc(),
          p.tputPerGpu(), p.outputTputPerGpu(), p.interactivity(), p.ttft(), p.tpot(), p.e2el(),
          p.source()));
    }
    return out;
  }

  private static Map<Percentile, String> fixedStats() {
    Map<Percentile, String> m = new EnumMap<>(Percentile.class);
    m.put(Percentile.MEAN, "mean");
    m.put(Percentile.P50, "median");
    m.put(Percentile.P90, "p90");
    m.put(Percentile.P95, "p95");
    m.put(Percentile.P99, "p99");
    m.put(Percentile.P99_9, "p99.9");
    return m;
  }

  private static Map<Percentile, String> agenticStats() {
    Map<Percentile, String> m = new EnumMap<>(Percentile.class);
    m.put(Percentile.MEAN, "mean");
    m.put(Percentile.P50, "p50");
    m.put(Percentile.P90, "p90");
    m.put(Percentile.P95, "p95");
    m.put(Percentile.P99, "p99");
    m.put(Percentile.P99_9, "p99.9");
    return m;
  }
}
