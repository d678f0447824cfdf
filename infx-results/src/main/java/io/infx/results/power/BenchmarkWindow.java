package io.infx.results.power;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The measured-phase window and request counts a raw result provides for energy normalization
 * (reference {@code _load_benchmark_data}): start/end epoch seconds and duration must be finite
 * numbers with {@code end > start} and {@code duration > 0}; the counts must be positive integers.
 */
record BenchmarkWindow(
    double startUnix, double endUnix, double reportedDurationS,
    int completed, int totalInputTokens, int totalOutputTokens) {

  double integrationDurationS() {
    return endUnix - startUnix;
  }

  /** The window (if usable) and the reasons found while reading it, in discovery order. */
  record Loaded(Optional<BenchmarkWindow> window, List<String> reasons) {}

  static Loaded load(JsonNode raw) {
    JsonNode start = raw.get("benchmark_start_time_unix");
    JsonNode end = raw.get("benchmark_end_time_unix");
    JsonNode duration = raw.get("duration");
    if (!isNumber(start) || !isNumber(end) || !isNumber(duration)) {
      return new Loaded(Optional.empty(), List.of("invalid_benchmark_window"));
    }
    double s = start.doubleValue();
    double e = end.doubleValue();
    double d = duration.doubleValue();
    if (!Double.isFinite(s) || !Double.isFinite(e) || !Double.isFinite(d) || e <= s || d <= 0) {
      return new Loaded(Optional.empty(), List.of("invalid_benchmark_window"));
    }
    List<String> reasons = new ArrayList<>();
    double integration = e - s;
    double tolerance = Math.max(0.5, integration * 0.01);
    if (Math.abs(d - integration) > tolerance) {
      reasons.add("benchmark_duration_mismatch");
    }
    int completed = positiveCount(raw.get("completed"), "invalid_successful_query_count", reasons);
    int input = positiveCount(raw.get("total_input_tokens"), "invalid_input_token_count", reasons);
    int output = positiveCount(raw.get("total_output_tokens"), "invalid_output_token_count", reasons);
    return new Loaded(Optional.of(new BenchmarkWindow(s, e, d, completed, input, output)), reasons);
  }

  private static boolean isNumber(JsonNode n) {
    return n != null && n.isNumber();
  }

  private static int positiveCount(JsonNode n, String reason, List<String> reasons) {
    if (n == null || !n.isIntegralNumber() || !n.canConvertToInt() || n.intValue() <= 0) {
      if (!reasons.contains(reason)) {
        reasons.add(reason);
      }
      return 0;
    }
    return n.intValue();
  }
}
