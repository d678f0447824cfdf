package io.infx.client.agentx.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.agentx.AgenticOptions;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

/**
 * {@code profile_export_aiperf.json} in AIPerf's shape (spec {@code agentx.md} §3.3), so that
 * InferenceX's aggregator and gate read an infx replay like an AIPerf one: request counters,
 * per-metric stat blocks over the profiling records, the theoretical prefix-cache hit, the run's
 * window and a metadata block with the validity stamp.
 */
final class AggregateExport {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;

  private AggregateExport() {}

  static ObjectNode build(ReplayEngine.Outcome o, AgenticOptions options, String datasetSource,
      int traces, List<String> invalidReasons) {
    ReplayStats s = o.stats();
    ObjectNode root = F.objectNode();
    root.set("request_count", counter(s.successes));
    root.set("error_request_count", counter(s.errors));
    root.set("completed_request_count", counter(s.successes + s.errors));
    root.set("cancelled_request_count", counter(s.cancelled));
    metric(root, "time_to_first_token", "ms", s.ttftMs);
    metric(root, "request_latency", "ms", s.latencyMs);
    metric(root, "inter_token_latency", "ms", s.itlMs);
    metric(root, "input_sequence_length", "tokens", s.inputTokens);
    metric(root, "output_sequence_length", "tokens", s.outputTokens);
    ObjectNode hit = root.putObject("theoretical_prefix_cache_hit");
    hit.put("unit", "%");
    hit.put("avg", s.totalBlocks == 0 ? 0.0 : 100.0 * s.hitBlocks / s.totalBlocks);
    hit.put("sum", s.hitBlocks);
    hit.put("count", s.totalBlocks);
    ObjectNode overflow = root.putObject("context_overflow_count");
    overflow.put("unit", "requests");
    overflow.put("avg", s.contextOverflows);
    root.put("start_time", local(o.profilingStart()));
    root.put("end_time", local(o.end()));
    root.put("was_cancelled", o.cancelled());
    ObjectNode md = root.putObject("metadata");
    ObjectNode ds = md.putObject("dataset");
    ds.put("source_type", "weka");
    ds.put("loader", datasetSource);
    ds.put("num_dataset_entries", traces);
    md.put("scenario", "agentx");
    md.put("benchmark_tool", "infx");
    md.put("submission_valid", invalidReasons.isEmpty());
    md.putArray("submission_invalid_reasons").addAll(invalidReasons.stream().map(F::textNode).toList());
    if (o.cancelled()) {
      md.put("cancel_reason", o.cancelReason());
    }
    ObjectNode cfg = md.putObject("replay");
    cfg.put("concurrency", options.users());
    cfg.put("benchmark_duration_s", seconds(options.duration()));
    cfg.put("warmup_requests_per_lane", options.warmupRequestsPerLane());
    cfg.put("random_seed", options.seed());
    cfg.put("trajectory_start_min_ratio", options.startRatioMin());
    cfg.put("trajectory_start_max_ratio", options.startRatioMax());
    cfg.put("trace_idle_gap_cap_s", seconds(options.traceIdleGapCap()));
    cfg.put("system_idle_gap_cap_s", seconds(options.systemIdleGapCap()));
    cfg.put("plays", o.plays());
    cfg.put("system_idle_jumps", s.systemIdleJumps);
    cfg.put("system_idle_skipped_s", s.systemIdleSkippedSeconds);
    cfg.put("trace_idle_jumps", s.treeIdleJumps);
    cfg.put("trace_idle_skipped_s", s.treeIdleSkippedSeconds);
    ObjectNode late = cfg.putObject("schedule_lateness_ms");
    late.put("p50", s.lateness.getValueAtPercentile(50) / 1000.0);
    late.put("p90", s.lateness.getValueAtPercentile(90) / 1000.0);
    late.put("p95", s.lateness.getValueAtPercentile(95) / 1000.0);
    late.put("p99", s.lateness.getValueAtPercentile(99) / 1000.0);
    late.put("p999", s.lateness.getValueAtPercentile(99.9) / 1000.0);
    late.put("max", s.lateness.getMaxValue() / 1000.0);
    late.put("dispatches", s.lateness.getTotalCount());
    late.put("prompt_not_ready_at_due", s.bodiesLate);
    return root;
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static ObjectNode counter(long n) {
    ObjectNode o = F.objectNode();
    o.put("unit", "requests");
    o.put("avg", n);
    return o;
  }

  private static void metric(ObjectNode root, String name, String unit, ReplayStats.Samples samples) {
    if (samples.size() == 0) {
      return;
    }
    double[] v = samples.sorted();
    double sum = 0;
    for (double x : v) {
      sum += x;
    }
    double mean = sum / v.length;
    double ss = 0;
    for (double x : v) {
      ss += (x - mean) * (x - mean);
    }
    ObjectNode m = root.putObject(name);
    m.put("unit", unit);
    m.put("avg", mean);
    m.put("min", v[0]);
    m.put("max", v[v.length - 1]);
    for (int p : new int[] {1, 5, 10, 25, 50, 75, 90, 95, 99}) {
      m.put("p" + p, percentile(v, p));
    }
    m.put("std", Math.sqrt(ss / v.length));
    m.put("count", v.length);
  }

  /** numpy's default (linear) percentile. */
  static double percentile(double[] sorted, double p) {
    double k = (sorted.length - 1) * (p / 100);
    int f = (int) Math.floor(k);
    int c = Math.min(f + 1, sorted.length - 1);
    return sorted[f] + (k - f) * (sorted[c] - sorted[f]);
  }

  private static String local(java.time.Instant i) {
    return LocalDateTime.ofInstant(i, ZoneId.systemDefault()).toString();
  }
}
