package io.infx.results;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;

/**
 * The client's request-failure gate as recorded in a raw result (newer upstream
 * {@code benchmark_outcome}): {@code failed} when more than {@link #MAX_FAILURE_RATE} of the
 * requested measured requests failed.
 *
 * @param status {@code "passed"} or {@code "failed"}
 * @param requested requested measured requests ({@code num_prompts}), &gt; 0
 * @param completed successful requests, {@code 0 ≤ completed ≤ requested}
 * @param failed {@code requested − completed}
 */
public record BenchmarkOutcome(String status, int requested, int completed, int failed) {

  /** The gate: a run fails when more than 5 % of its requests failed. */
  public static final double MAX_FAILURE_RATE = 0.05;

  /**
   * Computes the outcome of {@code completed} successes out of {@code requested}.
   *
   * @throws IllegalArgumentException unless {@code 0 ≤ completed ≤ requested} and {@code requested > 0}
   */
  public static BenchmarkOutcome of(int requested, int completed) {
    if (requested <= 0 || completed < 0 || completed > requested) {
      throw new IllegalArgumentException(
          "Benchmark request counts must satisfy 0 <= completed <= requested > 0");
    }
    int failed = requested - completed;
    String status = (double) failed / requested > MAX_FAILURE_RATE ? "failed" : "passed";
    return new BenchmarkOutcome(status, requested, completed, failed);
  }

  /** {@code status == "failed"}. */
  public boolean isFailed() {
    return status.equals("failed");
  }

  /** {@code {"status", "requested", "completed", "failed", "max_failure_rate"}}. */
  public ObjectNode toJson() {
    ObjectNode node = Json.mapper().createObjectNode();
    node.put("status", status);
    node.put("requested", requested);
    node.put("completed", completed);
    node.put("failed", failed);
    node.put("max_failure_rate", MAX_FAILURE_RATE);
    return node;
  }
}
