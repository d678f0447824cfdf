package io.infx.results.agentx.internal;

import static io.infx.results.agentx.internal.MetricIndex.AVG_GAUGE_KEYS;
import static io.infx.results.agentx.internal.MetricIndex.COUNTER_KEYS;
import static io.infx.results.agentx.internal.MetricIndex.GAUGE_KEYS;
import static io.infx.results.agentx.internal.MetricIndex.counterInt;
import static io.infx.results.agentx.internal.MetricIndex.label;
import static io.infx.results.agentx.internal.MetricIndex.normalizeFraction;
import static io.infx.results.agentx.internal.MetricIndex.rate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Reads one serving engine's Prometheus metrics into the normalized {@code server_metrics} block
 * (spec §4.5). Detection order, first match wins: Dynamo-vLLM, ATOM, SGLang, vLLM.
 */
public sealed interface ServerMetricsAdapter {

  /** The {@code adapter} name written to the aggregate. */
  String name();

  /** Whether this adapter reads these metrics (or, with no metrics, this framework). */
  boolean matches(MetricIndex metrics, String frameworkLowerCase);

  /** Fills the cache, kv_cache, kv_offload, tokens and sources parts of {@code nested}. */
  void populate(MetricIndex metrics, ObjectNode nested);

  /** GPU KV capacity in tokens from the engine's logs, or {@code null}. */
  Long capacityFromLogs(List<Path> logs);

  /** All adapters in detection order. */
  List<ServerMetricsAdapter> ALL = List.of(new DynamoVllm(), new Atom(), new Sglang(), new Vllm());

  /** The first adapter that matches, or {@code null}. */
  static ServerMetricsAdapter detect(MetricIndex metrics, String framework) {
    String fw = framework.toLowerCase(java.util.Locale.ROOT);
    for (ServerMetricsAdapter a : ALL) {
      if (a.matches(metrics, fw)) {
        return a;
      }
    }
    return null;
  }

  /** vLLM ({@code vllm:*} metrics). */
  final class Vllm implements ServerMetricsAdapter {

    /** Dynamo's frontend counts tokens once per request; prefer it over summed workers. */
    private final boolean frontendTotals;

    Vllm() {
      this(false);
    }

    Vllm(boolean frontendTotals) {
      this.frontendTotals = frontendTotals;
    }

    @Override
    public String name() {
      return "vllm";
    }

    @Override
    public boolean matches(MetricIndex m, String fw) {
      return m.anyNameStartsWith("vllm:") || (m.isEmpty() && fw.equals("vllm"));
    }

    /** Prompt and generation token totals (before rounding to whole numbers). */
    private Double[] totals(MetricIndex m) {
      if (frontendTotals) {
        return new Double[] {
            firstCounter(m, "dynamo_frontend_input_sequence_tokens", "vllm:prompt_tokens"),
            firstCounter(m, "dynamo_frontend_output_tokens", "vllm:generation_tokens")};
      }
      return new Double[] {m.sum("vllm:prompt_tokens"), m.sum("vllm:generation_tokens")};
    }

    private static Double firstCounter(MetricIndex m, String... names) {
      for (String n : names) {
        Double v = m.sum(n);
        if (v != null) {
          return v;
        }
      }
      return null;
    }

    @Override
    public void populate(MetricIndex m, ObjectNode nested) {
      Double[] totals = totals(m);
      Double hits = m.sum("vllm:prefix_cache_hits");
      Double queries = m.sum("vllm:prefix_cache_queries");
      Double gpuRate = rate(hits, queries);
      Double extHits = m.sum("vllm:external_prefix_cache_hits");
      Double extQueries = m.sum("vllm:external_prefix_cache_queries");
      Double extRate = rate(extHits, extQueries);
      Double cpuRate = extRate;
      Double overall = null;

      ObjectNode tokens = (ObjectNode) nested.get("tokens");
      Map<String, Double> bySource = m.sumByLabel("vllm:prompt_tokens_by_source", "source", COUNTER_KEYS);
      if (!bySource.isEmpty()) {
        Double local = bySource.get("local_cache_hit");
        Double external = bySource.get("external_kv_transfer");
        Double compute = bySource.get("local_compute");
        double sourceTotal = 0;
        for (double v : bySource.values()) {
          sourceTotal += v;
        }
        if (sourceTotal > 0) {
          if (local != null) {
            gpuRate = local / sourceTotal;
          }
          if (external != null) {
            cpuRate = external / sourceTotal;
            extRate = external / sourceTotal;
          }
          overall = ((local == null ? 0.0 : local) + (external == null ? 0.0 : external)) / sourceTotal;
        }
        ObjectNode pbs = (ObjectNode) tokens.get("prompt_by_source");
        put(pbs, "gpu_cache_hit", local);
        put(pbs, "cpu_or_external_cache_hit", external);
        put(pbs, "computed", compute);
        pbs.set("raw", toJson(bySource));
      } else if (gpuRate != null) {
        overall = gpuRate;
      }

      Double gpuUsage = normalizeFraction(m.gauge(
          List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"), GAUGE_KEYS, false, s -> true));
      Double cpuUsage = normalizeFraction(m.gauge(
          List.of("vllm:cpu_kv_cache_usage_perc"), GAUGE_KEYS, false, s -> true));

      ObjectNode cache = (ObjectNode) nested.get("cache");
      put(cache, "gpu_cache_hit_rate", gpuRate);
      put(cache, "cpu_cache_hit_rate", cpuRate);
      put(cache, "external_cache_hit_rate", extRate);
      put(cache, "overall_cache_hit_rate", overall);
      put(cache, "prefix_cache_hits", hits);
      put(cache, "prefix_cache_queries", queries);
      put(cache, "external_prefix_cache_hits", extHits);
      put(cache, "external_prefix_cache_queries", extQueries);

      ObjectNode kv = (ObjectNode) nested.get("kv_cache");
      put(kv, "gpu_usage_pct", gpuUsage);
      put(kv, "cpu_usage_pct", cpuUsage);

      ObjectNode offload = (ObjectNode) nested.get("kv_offload");
      Double g2cBytes = m.sum("vllm:kv_offload_bytes_gpu_to_cpu");
      Double c2gBytes = m.sum("vllm:kv_offload_bytes_cpu_to_gpu");
      Double g2cTime = m.sum("vllm:kv_offload_time_gpu_to_cpu");
      Double c2gTime = m.sum("vllm:kv_offload_time_cpu_to_gpu");
      put(offload, "bytes_gpu_to_cpu", g2cBytes);
      put(offload, "bytes_cpu_to_gpu", c2gBytes);
      put(offload, "time_gpu_to_cpu", g2cTime);
      put(offload, "time_cpu_to_gpu", c2gTime);
      put(offload, "bandwidth_gpu_to_cpu_bytes_per_second", rate(g2cBytes, g2cTime));
      put(offload, "bandwidth_cpu_to_gpu_bytes_per_second", rate(c2gBytes, c2gTime));

      put(tokens, "prompt_total", counterInt(totals[0]));
      put(tokens, "generation_total", counterInt(totals[1]));
      nested.set("sources", sources(m));
    }

    @Override
    public Long capacityFromLogs(List<Path> logs) {
      return KvCapacityLogs.vllm(logs);
    }

    private static final List<String> SOURCE_METRICS = List.of(
        "vllm:prompt_tokens", "vllm:generation_tokens", "vllm:prefix_cache_hits",
        "vllm:prefix_cache_queries", "vllm:kv_cache_usage_perc", "vllm:prompt_tokens_by_source");

    /** One entry per distinct source id (role, endpoint, worker/rank/engine labels), sorted by id. */
    private static ArrayNode sources(MetricIndex m) {
      TreeSet<String> ids = new TreeSet<>();
      for (String name : SOURCE_METRICS) {
        for (JsonNode s : m.series(name)) {
          ids.add(sourceId(s));
        }
      }
      ArrayNode out = JsonNodeFactory.instance.arrayNode();
      for (String id : ids) {
        Predicate<JsonNode> mine = s -> sourceId(s).equals(id);
        Double prompt = m.sum(List.of("vllm:prompt_tokens"), COUNTER_KEYS, mine);
        Double gen = m.sum(List.of("vllm:generation_tokens"), COUNTER_KEYS, mine);
        Double hits = m.sum(List.of("vllm:prefix_cache_hits"), COUNTER_KEYS, mine);
        Double queries = m.sum(List.of("vllm:prefix_cache_queries"), COUNTER_KEYS, mine);
        Double usage = normalizeFraction(m.gauge(
            List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"), GAUGE_KEYS, false, mine));
        ObjectNode e = out.addObject();
        e.put("id", id);
        e.put("role", id.split("\\|", 2)[0]);
        put(e, "prompt_tokens", prompt);
        put(e, "generation_tokens", gen);
        put(e, "prefix_cache_hit_rate", rate(hits, queries));
        put(e, "gpu_kv_cache_usage_pct", usage);
      }
      return out;
    }

    static String sourceId(JsonNode series) {
      String component = label(series, "dynamo_component");
      if (component == null || component.isEmpty()) {
        component = label(series, "component");
      }
      component = component == null ? "" : component;
      String role = switch (component) {
        case "prefill" -> "prefill";
        case "backend", "decode" -> "decode";
        case "frontend", "router" -> "router";
        default -> "combined";
      };
      StringBuilder id = new StringBuilder(role);
      JsonNode endpoint = series.get("endpoint_url");
      if (JsonValues.truthy(endpoint)) {
        id.append('|').append(JsonValues.pyStr(endpoint));
      }
      for (String key : new String[] {"worker_id", "dp_rank", "engine"}) {
        String v = label(series, key);
        if (v != null) {
          id.append('|').append(key).append('=').append(v);
        }
      }
      return id.toString();
    }
  }

  /** Dynamo frontend + vLLM workers: vLLM's reading plus frontend and router figures. */
  final class DynamoVllm implements ServerMetricsAdapter {

    private final Vllm vllm = new Vllm(true);

    @Override
    public String name() {
      return "dynamo-vllm";
    }

    @Override
    public boolean matches(MetricIndex m, String fw) {
      return fw.startsWith("dynamo") || m.anyNameStartsWith("dynamo_");
    }

    @Override
    public void populate(MetricIndex m, ObjectNode nested) {
      vllm.populate(m, nested);
      ObjectNode kv = (ObjectNode) nested.get("kv_cache");
      if (kv.get("gpu_usage_pct").isNull()) {
        put(kv, "gpu_usage_pct", normalizeFraction(m.gauge(
            List.of("dynamo_component_gpu_cache_usage_percent"), GAUGE_KEYS, false, s -> true)));
      }
      Double cached = m.sum("dynamo_frontend_cached_tokens");
      Double input = m.sum("dynamo_frontend_input_sequence_tokens");
      ObjectNode cache = (ObjectNode) nested.get("cache");
      put(cache, "frontend_cache_hit_rate", rate(cached, input));
      put(cache, "router_kv_hit_rate", normalizeFraction(m.gauge(
          List.of("dynamo_component_router_kv_hit_rate"), AVG_GAUGE_KEYS, true, s -> true)));
      put(cache, "router_shared_cache_hit_rate", normalizeFraction(m.gauge(
          List.of("dynamo_component_router_shared_cache_hit_rate"), AVG_GAUGE_KEYS, true, s -> true)));
      put(cache, "frontend_cached_tokens", cached);
      put(cache, "frontend_input_tokens", input);
      // Reference quirk kept on purpose: a null overall rate is not back-filled from the frontend.
    }

    @Override
    public Long capacityFromLogs(List<Path> logs) {
      return KvCapacityLogs.vllm(logs);
    }
  }

  /** SGLang ({@code sglang:*} metrics), HiCache host tier included. */
  final class Sglang implements ServerMetricsAdapter {

    @Override
    public String name() {
      return "sglang";
    }

    @Override
    public boolean matches(MetricIndex m, String fw) {
      return m.anyNameStartsWith("sglang:") || (m.isEmpty() && fw.equals("sglang"));
    }

    @Override
    public void populate(MetricIndex m, ObjectNode nested) {
      Double prompt = m.sum("sglang:prompt_tokens");
      Double generation = m.sum("sglang:generation_tokens");
      Map<String, Double> bySource = m.sumByLabel("sglang:cached_tokens", "cache_source", COUNTER_KEYS);
      Double device = bySource.get("device");
      Double host = bySource.get("host");
      Double totalCached = null;
      if (!bySource.isEmpty()) {
        double t = 0;
        for (double v : bySource.values()) {
          t += v;
        }
        totalCached = t;
      }
      Double cpuRate = rate(host, prompt);
      Double overall = rate(totalCached, prompt);
      if (overall == null) {
        overall = normalizeFraction(m.gauge(List.of("sglang:cache_hit_rate"), AVG_GAUGE_KEYS, true, s -> true));
      }
      Double hostUsed = m.gauge(List.of("sglang:hicache_host_used_tokens"), GAUGE_KEYS, false, s -> true);
      Double hostTotal = m.gauge(List.of("sglang:hicache_host_total_tokens"), GAUGE_KEYS, false, s -> true);

      ObjectNode cache = (ObjectNode) nested.get("cache");
      put(cache, "gpu_cache_hit_rate", rate(device, prompt));
      put(cache, "cpu_cache_hit_rate", cpuRate);
      put(cache, "external_cache_hit_rate", cpuRate);
      put(cache, "overall_cache_hit_rate", overall);
      cache.set("cached_tokens_by_source", toJson(bySource));

      ObjectNode kv = (ObjectNode) nested.get("kv_cache");
      put(kv, "gpu_usage_pct", normalizeFraction(
          m.gauge(List.of("sglang:token_usage"), GAUGE_KEYS, false, s -> true)));
      put(kv, "gpu_total_tokens", counterInt(m.sum(
          List.of("sglang:max_total_num_tokens"), new String[] {"max", "avg", "total", "sum"}, s -> true)));
      put(kv, "cpu_usage_pct", rate(hostUsed, hostTotal));
      put(kv, "cpu_used_tokens", hostUsed);
      put(kv, "cpu_total_tokens", hostTotal);

      ObjectNode tokens = (ObjectNode) nested.get("tokens");
      put(tokens, "prompt_total", counterInt(prompt));
      put(tokens, "generation_total", counterInt(generation));
      ObjectNode pbs = (ObjectNode) tokens.get("prompt_by_source");
      put(pbs, "gpu_cache_hit", device);
      put(pbs, "cpu_or_external_cache_hit", host);
      put(pbs, "computed", m.sum(List.of("sglang:realtime_tokens"), COUNTER_KEYS,
          MetricIndex.labelEquals("mode", "prefill_compute")));
      pbs.set("raw", toJson(bySource));
    }

    @Override
    public Long capacityFromLogs(List<Path> logs) {
      return KvCapacityLogs.sglang(logs);
    }
  }

  /** ATOM ({@code atom:*} or {@code atom_*} metrics, counters optionally suffixed {@code _total}). */
  final class Atom implements ServerMetricsAdapter {

    @Override
    public String name() {
      return "atom";
    }

    @Override
    public boolean matches(MetricIndex m, String fw) {
      return m.anyNameStartsWith("atom:") || m.anyNameStartsWith("atom_") || (m.isEmpty() && fw.equals("atom"));
    }

    @Override
    public void populate(MetricIndex m, ObjectNode nested) {
      Double prompt = counter(m, "prompt_tokens");
      Double generation = counter(m, "generation_tokens");
      Double cached = counter(m, "prefix_cache_cached_tokens");
      Double full = counter(m, "prefix_cache_full_tokens");
      Double lmcache = counter(m, "lmcache_loaded_tokens");
      Double gpuRate = rate(cached, full);
      Double extRate = rate(lmcache, full);

      ObjectNode cache = (ObjectNode) nested.get("cache");
      put(cache, "gpu_cache_hit_rate", gpuRate);
      put(cache, "cpu_cache_hit_rate", extRate);
      put(cache, "external_cache_hit_rate", extRate);
      put(cache, "overall_cache_hit_rate", gpuRate);
      put(cache, "prefix_cache_hits", cached);
      put(cache, "prefix_cache_queries", full);
      put(cache, "external_prefix_cache_hits", lmcache);
      put(cache, "external_prefix_cache_queries", lmcache == null ? null : full);

      ObjectNode kv = (ObjectNode) nested.get("kv_cache");
      put(kv, "gpu_usage_pct", normalizeFraction(
          m.gauge(names("kv_cache_usage_ratio"), GAUGE_KEYS, false, s -> true)));

      ObjectNode tokens = (ObjectNode) nested.get("tokens");
      put(tokens, "prompt_total", counterInt(prompt));
      put(tokens, "generation_total", counterInt(generation));
    }

    @Override
    public Long capacityFromLogs(List<Path> logs) {
      return null;
    }

    private static List<String> names(String base) {
      return List.of("atom:" + base, "atom_" + base, "atom:" + base + "_total", "atom_" + base + "_total");
    }

    /** The first accepted spelling of the counter that has a value. */
    private static Double counter(MetricIndex m, String base) {
      for (String n : names(base)) {
        Double v = m.sum(n);
        if (v != null) {
          return v;
        }
      }
      return null;
    }
  }

  private static void put(ObjectNode o, String key, Double v) {
    if (v == null) {
      o.putNull(key);
    } else {
      o.put(key, v);
    }
  }

  private static void put(ObjectNode o, String key, Long v) {
    if (v == null) {
      o.putNull(key);
    } else {
      o.put(key, v);
    }
  }

  private static ObjectNode toJson(Map<String, Double> map) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    map.forEach(o::put);
    return o;
  }
}
