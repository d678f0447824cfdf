package io.infx.store.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Raw benchmark row → {@link BenchmarkParams} (InferenceX-app {@code benchmark-mapper.ts}
 * @00f37ac0 with {@code agentic-v3-flatten.ts}, {@code full-response-interactivity.ts},
 * {@code runtime-metadata.ts}, {@code tpu-normalization.ts}). Result schemas v1 (shared tp/ep),
 * v2 (prefill_/decode_ fields) and v3 (agentic rows with nested request/server metrics, flattened
 * first). A row that cannot be mapped is counted on the tracker and yields empty.
 */
public final class BenchmarkMapper {

  private BenchmarkMapper() {}

  /** Raw fields that are dimensions or routing, never metrics. */
  public static final Set<String> NON_METRIC_KEYS = Set.of(
      "hw", "model", "framework", "precision", "infmax_model_prefix",
      "isl", "osl", "conc", "image", "recipe_fingerprint", "recipe-fingerprint", "result_schema_version",
      "disagg", "is_multinode", "spec_decoding",
      "tp", "ep", "dp_attention",
      "prefill_tp", "prefill_ep", "prefill_dp_attention", "prefill_num_workers",
      "decode_tp", "decode_ep", "decode_dp_attention", "decode_num_workers",
      "num_gpus", "num_prefill_gpu", "num_decode_gpu", "num_aggregate_gpu",
      "scenario_type", "users", "offload_mode", "num_requests_total", "num_requests_successful",
      "kv_offloading", "kv_offload_backend", "kv_p2p_transfer", "router",
      "request_metrics", "server_metrics", "dataset", "workers",
      "power_invalid_reasons", "power_audit", "benchmark_outcome");

  /** Measured power fields withheld when the power verdict is invalid ({@code metric-keys.ts}). */
  public static final List<String> MEASURED_POWER_METRIC_KEYS = List.of(
      "avg_power_w", "avg_total_gpu_power_w", "total_gpu_energy_j", "p75_power_w", "p75_total_gpu_power_w",
      "p90_power_w", "p90_total_gpu_power_w", "joules_per_successful_query", "joules_per_output_token",
      "joules_per_total_token", "prefill_avg_power_w", "decode_avg_power_w", "joules_per_input_token",
      "prefill_joules_per_input_token", "decode_joules_per_output_token", "avg_temp_c", "peak_temp_c",
      "avg_util_pct", "avg_mem_used_mb", "avg_cpu_socket_power_w", "avg_total_cpu_power_w", "total_cpu_energy_j",
      "avg_total_module_power_w", "total_module_energy_j");

  private static final List<String> INTVTY_STATS = List.of("mean", "median", "p75", "p90", "p95", "p99", "p99.9");

  private static final Pattern POSITIVE_DECIMAL = Pattern.compile("^[1-9]\\d*$");
  private static final Pattern REASON_CODE = Pattern.compile("^[a-z][a-z0-9_]*$");
  private static final Pattern AUDIT_SOURCE = Pattern.compile("^[a-zA-Z0-9_./-]+$");

  /**
   * Maps one raw row.
   *
   * @param row the raw row (any JSON value; non-objects map to nothing)
   * @param tracker counts skips and unmapped names
   * @param islOslFallback ISL/OSL for rows that omit them (old artifacts encode them in file names)
   * @return the point, or empty when the row is skipped (failed outcome, unmapped model or
   *     hardware, no ISL/OSL/conc, zero successful requests)
   */
  public static Optional<BenchmarkParams> map(JsonNode row, SkipTracker tracker, Normalizers.IslOsl islOslFallback) {
    return map(row, tracker, islOslFallback, null);
  }

  /** {@link #map(JsonNode, SkipTracker, Normalizers.IslOsl)} with the producing run's id (legacy repairs). */
  public static Optional<BenchmarkParams> map(JsonNode rawRow, SkipTracker tracker, Normalizers.IslOsl islOslFallback,
      String runId) {
    JsonNode row = normalizeLegacyTpuRow(flattenAgenticAggRow(rawRow), runId);
    JsonNode outcome = Js.get(row, "benchmark_outcome");
    JsonNode status = Js.get(outcome, "status");
    if (status != null && status.isTextual() && status.textValue().equals("failed")) {
      tracker.inc(SkipTracker.Skip.failedRun);
      return Optional.empty();
    }

    Optional<ModelAndGpu> resolved = ModelAndGpu.resolve(row, () -> ModelAndGpu.prefixOrModel(row), tracker);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    ModelAndGpu keys = resolved.get();

    boolean agentic = Js.string(Js.coalesce(Js.get(row, "scenario_type"), Js.nodes().textNode(""))).startsWith("agentic");
    String benchmarkType = agentic ? BenchmarkParams.AGENTIC_TRACES : BenchmarkParams.SINGLE_TURN;
    Long isl = null;
    Long osl = null;
    if (!agentic) {
      isl = Normalizers.parseIntOrNull(Js.get(row, "isl"));
      if (isl == null && islOslFallback != null) {
        isl = islOslFallback.isl();
      }
      osl = Normalizers.parseIntOrNull(Js.get(row, "osl"));
      if (osl == null && islOslFallback != null) {
        osl = islOslFallback.osl();
      }
    }
    Long conc = agentic ? Normalizers.parseIntOrNull(Js.get(row, "users")) : Normalizers.parseIntOrNull(Js.get(row, "conc"));
    if (agentic && conc == null) {
      conc = Normalizers.parseIntOrNull(Js.get(row, "conc"));
    }
    if (conc == null || conc == 0 || (!agentic && (isl == null || isl == 0 || osl == null || osl == 0))) {
      tracker.inc(SkipTracker.Skip.noIslOsl);
      return Optional.empty();
    }
    JsonNode ok = Js.get(row, "num_requests_successful");
    if (Js.isNumber(ok) && ok.doubleValue() == 0 && Js.isNumber(Js.get(row, "num_requests_total"))) {
      tracker.inc(SkipTracker.Skip.failedRun);
      return Optional.empty();
    }

    JsonNode offloadField = Js.get(row, "offload_mode");
    String offloadMode;
    if (Js.isString(offloadField) && !offloadField.textValue().isEmpty()) {
      offloadMode = offloadField.textValue();
    } else {
      String d = descriptorToOnOff(Js.get(row, "kv_offloading"));
      if (d == null) {
        d = descriptorToOnOff(Js.get(row, "offloading"));
      }
      offloadMode = d != null ? d : "off";
    }

    Normalizers.Framework fw = Normalizers.normalizeFramework(
        Js.string(Js.coalesce(Js.get(row, "framework"), Js.nodes().textNode(""))), Js.get(row, "disagg"));
    String precision = Normalizers.normalizePrecision(Js.string(Js.coalesce(Js.get(row, "precision"), Js.nodes().textNode(""))));
    if (!Normalizers.PRECISION_KEYS.contains(precision)) {
      tracker.addUnmappedPrecision(precision);
    }
    String specMethod = Normalizers.normalizeSpecMethod(Js.get(row, "spec_decoding"));
    ConfigTopology topology = ConfigTopology.resolve(row, fw.framework(), fw.disagg());

    ObjectNode metrics = captureNumericMetrics(row);
    normalizePowerContractMetrics(row, metrics);
    if (agentic) {
      metrics = preferFullResponseMetrics(metrics);
    }
    if (!topology.disagg() && (metrics.has("prefill_pp") || metrics.has("decode_pp"))) {
      double pp = Math.max(numOr(metrics, "prefill_pp", 1), numOr(metrics, "decode_pp", 1));
      metrics.set("prefill_pp", Js.numberNode(pp));
      metrics.set("decode_pp", Js.numberNode(pp));
    }
    if (agentic) {
      metrics.put("offload_mode", offloadMode);
    }
    metrics.setAll(extractRuntimeMetadata(row));
    if (agentic) {
      for (String k : INTVTY_STATS) {
        JsonNode itl = metrics.get(k + "_itl");
        if (itl != null && itl.isNumber() && itl.doubleValue() > 0) {
          metrics.set(k + "_intvty", Js.numberNode(1 / itl.doubleValue()));
        } else {
          metrics.remove(k + "_intvty");
        }
      }
    }

    JsonNode imageRaw = Js.get(row, "image");
    String image = Js.truthy(imageRaw) ? Js.string(imageRaw).replace('#', '/') : null;
    JsonNode fpRaw = Js.coalesce(Js.get(row, "recipe_fingerprint"), Js.get(row, "recipe-fingerprint"));
    String fingerprint = Js.isString(fpRaw) && !fpRaw.textValue().strip().isEmpty() ? fpRaw.textValue().strip() : null;

    boolean powerWithheld = scrubWithheldPowerMetrics(metrics);
    ArrayNode workers = powerWithheld ? null : extractWorkers(Js.get(row, "workers"));
    List<String> reasons = extractPowerInvalidReasons(Js.get(row, "power_invalid_reasons"));
    ObjectNode audit = extractPowerAudit(Js.get(row, "power_audit"));

    ConfigParams config = ConfigParams.of(keys.gpuKey(), fw.framework(), keys.modelKey(), precision, specMethod, topology);
    return Optional.of(new BenchmarkParams(config, benchmarkType, isl, osl, conc, offloadMode, image, fingerprint,
        metrics, workers, reasons, audit));
  }

  private static double numOr(ObjectNode metrics, String key, double d) {
    JsonNode v = metrics.get(key);
    return v == null || !v.isNumber() ? d : v.doubleValue();
  }

  private static String descriptorToOnOff(JsonNode v) {
    if (Js.isString(v) && !v.textValue().isEmpty()) {
      return v.textValue().equals("none") ? "off" : "on";
    }
    return null;
  }

  /** Every numeric non-dimension field, under its raw key ({@code captureNumericMetrics}). */
  static ObjectNode captureNumericMetrics(JsonNode row) {
    ObjectNode metrics = Js.nodes().objectNode();
    if (row == null || !row.isObject()) {
      return metrics;
    }
    for (Map.Entry<String, JsonNode> e : row.properties()) {
      if (NON_METRIC_KEYS.contains(e.getKey())) {
        continue;
      }
      OptionalDouble n = Normalizers.parseNum(e.getValue());
      if (n.isPresent()) {
        metrics.set(e.getKey(), Js.numberNode(n.getAsDouble()));
      }
    }
    // infx run --repeat N: the repetitions' confidence interval and count of each headline metric
    // (io.infx.results.Repetitions) as <metric>_ci_low, <metric>_ci_high and <metric>_n, so the
    // dashboard can draw a point's history with its interval; absent for single measurements
    JsonNode reps = row.path(io.infx.results.Repetitions.KEY).path("metrics");
    if (reps.isObject()) {
      for (Map.Entry<String, JsonNode> e : reps.properties()) {
        JsonNode lo = e.getValue().get("ci_low");
        JsonNode hi = e.getValue().get("ci_high");
        JsonNode vs = e.getValue().get("values");
        if (lo != null && lo.isNumber() && hi != null && hi.isNumber() && vs != null && vs.isArray()) {
          metrics.set(e.getKey() + "_ci_low", Js.numberNode(lo.doubleValue()));
          metrics.set(e.getKey() + "_ci_high", Js.numberNode(hi.doubleValue()));
          metrics.set(e.getKey() + "_n", Js.numberNode(vs.size()));
        }
      }
    }
    return metrics;
  }

  /**
   * Re-parses the power contract after capture: {@code power_valid} is 1 only for 1 or '1' (else 0,
   * removed when the row lacks it); {@code power_metric_schema_version} is kept only as a positive
   * safe integer (a canonical decimal string counts).
   */
  public static void normalizePowerContractMetrics(JsonNode row, ObjectNode metrics) {
    if (row != null && row.isObject() && row.has("power_valid")) {
      JsonNode v = row.get("power_valid");
      boolean one = (v.isNumber() && v.doubleValue() == 1) || (v.isTextual() && v.textValue().equals("1"));
      metrics.set("power_valid", Js.numberNode(one ? 1 : 0));
    } else {
      metrics.remove("power_valid");
    }
    if (row == null || !row.isObject() || !row.has("power_metric_schema_version")) {
      metrics.remove("power_metric_schema_version");
      return;
    }
    JsonNode raw = row.get("power_metric_schema_version");
    Double version = null;
    if (raw.isNumber()) {
      version = raw.doubleValue();
    } else if (raw.isTextual() && POSITIVE_DECIMAL.matcher(raw.textValue()).matches()) {
      version = Js.stringToNumber(raw.textValue());
    }
    if (version != null && Js.isSafeInteger(version) && version > 0) {
      metrics.set("power_metric_schema_version", Js.numberNode(version));
    } else {
      metrics.remove("power_metric_schema_version");
    }
  }

  /**
   * Fail-closed power publication: when {@code power_valid} is 0, every measured power field is
   * removed (contract and diagnostics stay).
   *
   * @return whether the power payload was withheld (callers then drop worker telemetry too)
   */
  public static boolean scrubWithheldPowerMetrics(ObjectNode metrics) {
    JsonNode v = metrics.get("power_valid");
    if (v == null || !v.isNumber() || v.doubleValue() != 0) {
      return false;
    }
    MEASURED_POWER_METRIC_KEYS.forEach(metrics::remove);
    return true;
  }

  /**
   * Narrows a raw {@code workers} array: entries need a string role and numeric worker_idx,
   * num_gpus, avg_power_w; optional telemetry is kept when well-typed.
   *
   * @return the entries, or null for a non-array, an empty array or no valid entry
   */
  public static ArrayNode extractWorkers(JsonNode raw) {
    if (raw == null || !raw.isArray() || raw.isEmpty()) {
      return null;
    }
    ArrayNode out = Js.nodes().arrayNode();
    for (JsonNode e : raw) {
      if (e == null || !e.isContainerNode()) {
        continue;
      }
      JsonNode roleNode = e.get("role");
      String role = roleNode != null && roleNode.isTextual() ? roleNode.textValue() : null;
      OptionalDouble idx = Normalizers.parseInt2(e.get("worker_idx"));
      OptionalDouble gpus = Normalizers.parseInt2(e.get("num_gpus"));
      OptionalDouble power = Normalizers.parseNum(e.get("avg_power_w"));
      if (role == null || idx.isEmpty() || gpus.isEmpty() || power.isEmpty()) {
        continue;
      }
      ObjectNode w = Js.nodes().objectNode();
      w.put("role", role);
      w.set("worker_idx", Js.numberNode(idx.getAsDouble()));
      w.set("num_gpus", Js.numberNode(gpus.getAsDouble()));
      w.set("avg_power_w", Js.numberNode(power.getAsDouble()));
      JsonNode hosts = e.get("hosts");
      if (hosts != null && hosts.isArray()) {
        boolean allStrings = true;
        for (JsonNode h : hosts) {
          allStrings &= h.isTextual();
        }
        if (allStrings) {
          w.set("hosts", hosts.deepCopy());
        }
      }
      for (String k : List.of("avg_temp_c", "peak_temp_c", "avg_util_pct", "avg_mem_used_mb")) {
        OptionalDouble n = Normalizers.parseNum(e.get(k));
        if (n.isPresent()) {
          w.set(k, Js.numberNode(n.getAsDouble()));
        }
      }
      out.add(w);
    }
    return out.isEmpty() ? null : out;
  }

  /** Valid, de-duplicated reason codes (at most 32, each ≤ 64 chars), or null when none. */
  public static List<String> extractPowerInvalidReasons(JsonNode raw) {
    if (raw == null || !raw.isArray()) {
      return null;
    }
    List<String> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (JsonNode e : raw) {
      if (!e.isTextual()) {
        continue;
      }
      String code = e.textValue().strip();
      if (code.isEmpty() || code.length() > 64 || !REASON_CODE.matcher(code).matches() || seen.contains(code)) {
        continue;
      }
      seen.add(code);
      out.add(code);
      if (out.size() >= 32) {
        break;
      }
    }
    return out.isEmpty() ? null : out;
  }

  /** The narrowed measurement-window audit, or null when it carries nothing. */
  public static ObjectNode extractPowerAudit(JsonNode raw) {
    if (raw == null || !raw.isObject()) {
      return null;
    }
    ObjectNode audit = Js.nodes().objectNode();
    for (String k : List.of("window_start_unix", "window_end_unix", "max_sample_gap_s")) {
      OptionalDouble n = Normalizers.parseNum(raw.get(k));
      if (n.isPresent() && Double.isFinite(n.getAsDouble())) {
        audit.set(k, Js.numberNode(n.getAsDouble()));
      }
    }
    for (String k : List.of("expected_gpu_count", "observed_gpu_count", "sample_count")) {
      OptionalDouble n = Normalizers.parseInt2(raw.get(k));
      if (n.isPresent() && Js.isSafeInteger(n.getAsDouble()) && n.getAsDouble() >= 0) {
        audit.set(k, Js.numberNode(n.getAsDouble()));
      }
    }
    JsonNode source = raw.get("source");
    if (source != null && source.isTextual()) {
      String s = source.textValue();
      if (s.length() <= 512 && AUDIT_SOURCE.matcher(s).matches() && !s.startsWith("/")
          && !List.of(s.split("/", -1)).contains("..")) {
        audit.put("source", s);
      }
    }
    JsonNode ids = raw.get("observed_gpu_ids");
    if (ids != null && ids.isArray()) {
      Set<String> kept = new LinkedHashSet<>();
      for (JsonNode id : ids) {
        if (id.isTextual() && !id.textValue().isEmpty() && id.textValue().length() <= 128) {
          kept.add(id.textValue());
        }
      }
      if (!kept.isEmpty()) {
        ArrayNode a = audit.putArray("observed_gpu_ids");
        kept.stream().limit(1024).forEach(a::add);
      }
    }
    boolean hasNumeric = !audit.isEmpty();
    String producer = auditSha(raw.get("producer_sha"));
    String exporter = auditSha(raw.get("exporter_image_sha256"));
    audit.put("producer_sha", producer);
    audit.put("exporter_image_sha256", exporter);
    if (!hasNumeric && producer == null && exporter == null) {
      return null;
    }
    return audit;
  }

  private static String auditSha(JsonNode v) {
    if (v == null || !v.isTextual()) {
      return null;
    }
    String s = v.textValue().strip();
    return !s.isEmpty() && s.length() <= 128 ? s : null;
  }

  /**
   * Runtime components as flat string metrics: {@code kv_offloading}, {@code kv_offload_backend}
   * (+ {@code _version}), {@code kv_p2p_transfer}, {@code router_name}/{@code router_version};
   * strings trimmed, empty ones dropped; components may be legacy strings or {@code {name, version}}.
   */
  public static ObjectNode extractRuntimeMetadata(JsonNode row) {
    ObjectNode m = Js.nodes().objectNode();
    String kv = nonEmpty(Js.get(row, "kv_offloading"));
    if (kv != null) {
      m.put("kv_offloading", kv);
    }
    String[] backend = component(Js.get(row, "kv_offload_backend"));
    if (backend[0] != null) {
      m.put("kv_offload_backend", backend[0]);
    }
    if (backend[1] != null) {
      m.put("kv_offload_backend_version", backend[1]);
    }
    String transfer = nonEmpty(Js.get(row, "kv_p2p_transfer"));
    if (transfer != null) {
      m.put("kv_p2p_transfer", transfer);
    }
    String[] router = component(Js.get(row, "router"));
    if (router[0] != null) {
      m.put("router_name", router[0]);
    }
    if (router[1] != null) {
      m.put("router_version", router[1]);
    }
    return m;
  }

  private static String nonEmpty(JsonNode v) {
    return v != null && v.isTextual() && !v.textValue().strip().isEmpty() ? v.textValue().strip() : null;
  }

  private static String[] component(JsonNode raw) {
    String legacy = nonEmpty(raw);
    if (legacy != null) {
      return new String[] {legacy, null};
    }
    if (raw == null || !raw.isObject()) {
      return new String[] {null, null};
    }
    return new String[] {nonEmpty(raw.get("name")), nonEmpty(raw.get("version"))};
  }

  /**
   * Replaces canonical AgentX ITL/interactivity with the full-response values when any is present;
   * missing full-response percentiles delete their canonical counterparts.
   */
  static ObjectNode preferFullResponseMetrics(ObjectNode metrics) {
    ObjectNode out = metrics.deepCopy();
    boolean has = INTVTY_STATS.stream().anyMatch(s -> isNum(out.get(s + "_full_response_itl")));
    if (!has) {
      return out;
    }
    for (String s : INTVTY_STATS) {
      out.remove(s + "_itl");
      out.remove(s + "_intvty");
      JsonNode itl = out.get(s + "_full_response_itl");
      if (isNum(itl) && Double.isFinite(itl.doubleValue()) && itl.doubleValue() > 0) {
        out.set(s + "_itl", itl);
        out.set(s + "_intvty", Js.numberNode(1 / itl.doubleValue()));
      }
    }
    out.remove("std_itl");
    out.remove("std_intvty");
    JsonNode stdItl = out.get("std_full_response_itl");
    JsonNode stdIntvty = out.get("std_full_response_intvty");
    if (isNum(stdItl) && Double.isFinite(stdItl.doubleValue())) {
      out.set("std_itl", stdItl);
    }
    if (isNum(stdIntvty) && Double.isFinite(stdIntvty.doubleValue())) {
      out.set("std_intvty", stdIntvty);
    }
    return out;
  }

  private static boolean isNum(JsonNode v) {
    return v != null && v.isNumber();
  }

  private static final Map<String, String> V3_STAT_KEYS = orderedPairs(
      "mean", "mean", "p50", "median", "median", "median", "p75", "p75", "p90", "p90", "p95", "p95",
      "p99", "p99", "p99.9", "p99.9", "std", "std");

  private static final Map<String, String> V3_TOKEN_METRICS = orderedPairs(
      "input", "input_tokens", "output_actual", "output_tokens_actual", "output_expected", "output_tokens_expected");

  private static final String[][] V3_SCALAR_PATHS = {
      {"request_metrics.throughput.input.tokens_per_second", "input_tput_tps"},
      {"request_metrics.throughput.output.tokens_per_second", "output_tput_tps"},
      {"request_metrics.throughput.total.tokens_per_second", "total_tput_tps"},
      {"request_metrics.throughput.duration_seconds", "duration_seconds"},
      {"request_metrics.throughput.per_gpu.total_tput_tps", "tput_per_gpu"},
      {"request_metrics.throughput.per_gpu.output_tput_tps", "output_tput_per_gpu"},
      {"request_metrics.throughput.per_gpu.input_tput_tps", "input_tput_per_gpu"},
      {"request_metrics.cache.theoretical_cache_hit_rate", "theoretical_cache_hit_rate"},
      {"server_metrics.cache.gpu_cache_hit_rate", "server_gpu_cache_hit_rate"},
      {"server_metrics.cache.cpu_cache_hit_rate", "server_cpu_cache_hit_rate"},
      {"server_metrics.cache.external_cache_hit_rate", "server_external_cache_hit_rate"},
      {"server_metrics.kv_cache.gpu_usage_pct", "gpu_kv_cache_usage_pct"},
      {"server_metrics.tokens.prompt_total", "total_prompt_tokens"},
      {"server_metrics.tokens.generation_total", "total_generation_tokens"},
      {"server_metrics.tokens.requests_completed", "total_requests_completed"},
      {"request_metrics.stability.window_seconds", "observed_window_seconds"},
      {"request_metrics.stability.expected_window_count", "observed_window_expected_count"},
      {"request_metrics.stability.observed_window_count", "observed_window_count"},
      {"request_metrics.stability.min_window_requests", "observed_window_min_requests"},
      {"request_metrics.stability.root_trajectory_count", "root_trajectory_count"},
      {"request_metrics.stability.root_trajectory_kish_effective_count", "root_trajectory_kish_effective_count"},
      {"request_metrics.stability.root_trajectory_largest_share", "root_trajectory_largest_share"},
  };

  private static Map<String, String> orderedPairs(String... kv) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }

  private static JsonNode atPath(JsonNode obj, String... path) {
    JsonNode cur = obj;
    for (String seg : path) {
      if (cur == null || !cur.isObject()) {
        return null;
      }
      cur = cur.get(seg);
    }
    return cur;
  }

  private static void flattenStatBlock(JsonNode block, String suffix, ObjectNode out) {
    if (block == null || !block.isObject()) {
      return;
    }
    for (Map.Entry<String, String> e : V3_STAT_KEYS.entrySet()) {
      OptionalDouble n = Normalizers.parseNum(block.get(e.getKey()));
      if (n.isPresent()) {
        out.set(e.getValue() + "_" + suffix, Js.numberNode(n.getAsDouble()));
      }
    }
  }

  /**
   * v3 agentic rows (nested {@code request_metrics}/{@code server_metrics}) → the flat schema; other
   * rows are returned unchanged. The nested containers stay (they are not metrics).
   */
  public static JsonNode flattenAgenticAggRow(JsonNode row) {
    JsonNode rm = Js.get(row, "request_metrics");
    if (rm == null || !rm.isObject()) {
      return row;
    }
    ObjectNode flat = Js.nodes().objectNode();
    for (String metric : List.of("ttft", "e2el", "itl", "tpot", "intvty")) {
      flattenStatBlock(atPath(row, "request_metrics", "latency", metric), metric, flat);
    }
    flattenStatBlock(atPath(row, "request_metrics", "qps"), "qps", flat);
    for (Map.Entry<String, String> e : V3_TOKEN_METRICS.entrySet()) {
      flattenStatBlock(atPath(row, "request_metrics", "tokens", e.getKey()), e.getValue(), flat);
    }
    for (String[] p : V3_SCALAR_PATHS) {
      OptionalDouble n = Normalizers.parseNum(atPath(row, p[0].split("\\.")));
      if (n.isPresent()) {
        flat.set(p[1], Js.numberNode(n.getAsDouble()));
      }
    }
    for (String metric : List.of("ttft", "e2el", "intvty")) {
      for (String pct : List.of("p75", "p90")) {
        for (String bound : List.of("min", "max")) {
          OptionalDouble v = Normalizers.parseNum(
              atPath(row, "request_metrics", "stability", "observed_ranges", metric, pct, bound));
          if (v.isPresent()) {
            flat.set("observed_window_" + pct + "_" + metric + "_" + bound, Js.numberNode(v.getAsDouble()));
          }
        }
      }
    }
    ObjectNode copy = ((ObjectNode) row).deepCopy();
    copy.setAll(flat);
    return copy;
  }

  /**
   * The reference's one verified legacy repair: the manual TPU Qwen sweep of run 30864013158
   * predates num_gpus/DP; other rows pass unchanged.
   */
  static JsonNode normalizeLegacyTpuRow(JsonNode row, String runId) {
    if (!"30864013158".equals(runId) || row == null || !row.isObject()) {
      return row;
    }
    String hw = Js.string(row.get("hw")).toLowerCase(java.util.Locale.ROOT);
    JsonNode tpNode = row.get("tp");
    double tp = Js.number(tpNode);
    boolean matches = hw.equals("tpuv7")
        && "Qwen/Qwen3.5-397B-A17B-FP8".equals(text(row.get("model")))
        && "vllm".equals(text(row.get("framework")))
        && "fp8".equals(text(row.get("precision")))
        && "none".equals(text(row.get("spec_decoding")))
        && Js.number(row.get("isl")) == 8192 && Js.number(row.get("osl")) == 1024
        && (tp == 1 || tp == 8) && Js.number(row.get("ep")) == 1
        && !isTrue(row.get("disagg")) && !isTrue(row.get("is_multinode"))
        && !row.has("num_gpus") && !row.has("num_prefill_gpu") && !row.has("num_decode_gpu") && !row.has("dp");
    if (!matches) {
      return row;
    }
    int dp = tp == 1 ? 8 : 1;
    ObjectNode n = ((ObjectNode) row).deepCopy();
    n.put("num_gpus", 4);
    n.put("dp", dp);
    n.put("disagg", false);
    if (row.has("prefill_tp")) {
      n.put("prefill_num_workers", 0);
      n.put("decode_num_workers", 0);
    }
    for (String k : List.of("tput_per_gpu", "input_tput_per_gpu", "output_tput_per_gpu")) {
      if (row.has(k) && row.get(k).isNumber()) {
        n.set(k, Js.numberNode(row.get(k).doubleValue() / dp));
      }
    }
    return n;
  }

  private static String text(JsonNode v) {
    return v != null && v.isTextual() ? v.textValue() : null;
  }

  private static boolean isTrue(JsonNode v) {
    return v != null && ((v.isBoolean() && v.booleanValue()) || (v.isTextual() && v.textValue().equals("true")));
  }
}
