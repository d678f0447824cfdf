package io.infx.results.agentx.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code server_metrics} block of the AgentX aggregate (spec §4.5): always the full skeleton,
 * filled by the detected engine adapter, with the KV capacity from engine logs overriding any
 * metric, and token totals falling back to the records' ISL/OSL sums.
 */
public final class ServerMetricsSection {

  /** Warning emitted when the export is missing or has no metrics. */
  public static final String MISSING_WARNING = "server_metrics_export.json missing or empty";

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** The block and the warnings it raised. */
  public record Result(ObjectNode json, List<String> warnings) {}

  private ServerMetricsSection() {}

  /**
   * @param exportFile the parsed {@code server_metrics_export.json}, or {@code null} when missing
   * @param framework the {@code FRAMEWORK} of the run (adapter fallback when there are no metrics)
   * @throws InfxException kind {@code agentic-aggregate} when metrics are present but no adapter
   *     reads them (message identical to the reference)
   */
  public static Result compute(
      JsonNode exportFile, String framework, List<ProfileRecords.Kept> kept, List<Path> logs) {
    MetricIndex metrics = MetricIndex.of(exportFile);
    ObjectNode nested = skeleton(!metrics.isEmpty(), metrics.size());
    List<String> warnings = new ArrayList<>();
    ServerMetricsAdapter adapter = ServerMetricsAdapter.detect(metrics, framework);

    if (metrics.isEmpty()) {
      warnings.add(MISSING_WARNING);
    } else {
      if (adapter == null) {
        List<String> names = metrics.sortedNames();
        throw new InfxException(ErrorKind.AGENTIC_AGGREGATE,
            "Unsupported agentic server metrics backend; framework='"
                + framework.toLowerCase(java.util.Locale.ROOT) + "', metric_names=["
                + String.join(", ", names.subList(0, Math.min(10, names.size()))) + "]");
      }
      nested.put("adapter", adapter.name());
      adapter.populate(metrics, nested);
    }
    if (adapter != null) {
      Long capacity = adapter.capacityFromLogs(logs);
      if (capacity != null) {
        ((ObjectNode) nested.get("kv_cache")).put("gpu_total_tokens", capacity);
      }
    }

    ObjectNode tokens = (ObjectNode) nested.get("tokens");
    if (tokens.get("prompt_total").isNull()) {
      putNullable(tokens, "prompt_total", tokenSum(kept, true));
    }
    if (tokens.get("generation_total").isNull()) {
      putNullable(tokens, "generation_total", tokenSum(kept, false));
    }
    tokens.put("requests_completed", kept.size());
    return new Result(nested, warnings);
  }

  private static Long tokenSum(List<ProfileRecords.Kept> kept, boolean input) {
    long total = 0;
    boolean found = false;
    for (ProfileRecords.Kept k : kept) {
      Long v = input ? k.inputTokens() : k.outputTokens();
      if (v != null) {
        total += v;
        found = true;
      }
    }
    return found ? total : null;
  }

  private static void putNullable(ObjectNode o, String key, Long v) {
    if (v == null) {
      o.putNull(key);
    } else {
      o.put(key, v);
    }
  }

  static ObjectNode skeleton(boolean present, int metricCount) {
    ObjectNode o = F.objectNode();
    o.put("present", present);
    o.put("adapter", "none");
    o.put("metric_count", metricCount);
    ObjectNode cache = o.putObject("cache");
    for (String k : new String[] {"gpu_cache_hit_rate", "cpu_cache_hit_rate", "external_cache_hit_rate",
        "overall_cache_hit_rate", "prefix_cache_hits", "prefix_cache_queries",
        "external_prefix_cache_hits", "external_prefix_cache_queries"}) {
      cache.putNull(k);
    }
    cache.putObject("cached_tokens_by_source");
    for (String k : new String[] {"frontend_cache_hit_rate", "router_kv_hit_rate",
        "router_shared_cache_hit_rate", "frontend_cached_tokens", "frontend_input_tokens"}) {
      cache.putNull(k);
    }
    ObjectNode kv = o.putObject("kv_cache");
    for (String k : new String[] {"gpu_usage_pct", "gpu_total_tokens", "cpu_usage_pct",
        "cpu_used_tokens", "cpu_total_tokens"}) {
      kv.putNull(k);
    }
    ObjectNode offload = o.putObject("kv_offload");
    for (String k : new String[] {"bytes_gpu_to_cpu", "bytes_cpu_to_gpu", "time_gpu_to_cpu",
        "time_cpu_to_gpu", "bandwidth_gpu_to_cpu_bytes_per_second",
        "bandwidth_cpu_to_gpu_bytes_per_second"}) {
      offload.putNull(k);
    }
    ObjectNode tokens = o.putObject("tokens");
    tokens.putNull("prompt_total");
    tokens.putNull("generation_total");
    tokens.putNull("requests_completed");
    ObjectNode pbs = tokens.putObject("prompt_by_source");
    pbs.putNull("gpu_cache_hit");
    pbs.putNull("cpu_or_external_cache_hit");
    pbs.putNull("computed");
    pbs.putObject("raw");
    o.putArray("sources");
    return o;
  }
}
