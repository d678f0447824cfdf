package io.infx.client.agentx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What an AgentX replay produced: where its exports are and the headline numbers of its
 * {@code profile_export_aiperf.json}.
 */
public final class AgenticResult {

  private final Path artifactDir;
  private final ObjectNode aggregate;

  AgenticResult(Path artifactDir, ObjectNode aggregate) {
    this.artifactDir = artifactDir;
    this.aggregate = aggregate;
  }

  /** The directory holding {@code profile_export.jsonl} and {@code profile_export_aiperf.json}. */
  public Path artifactDir() {
    return artifactDir;
  }

  /** A copy of {@code profile_export_aiperf.json}. */
  public ObjectNode aggregate() {
    return aggregate.deepCopy();
  }

  /** Successful profiling requests. */
  public long successfulRequests() {
    return aggregate.path("request_count").path("avg").asLong();
  }

  /** Profiling requests that failed (cancellations at the end excluded). */
  public long failedRequests() {
    return aggregate.path("error_request_count").path("avg").asLong();
  }

  /** Theoretical prefix-cache hit rate of the successful profiling requests, in [0, 1]. */
  public double theoreticalCacheHitRate() {
    JsonNode h = aggregate.path("theoretical_prefix_cache_hit");
    long count = h.path("count").asLong();
    return count == 0 ? 0 : h.path("sum").asDouble() / count;
  }

  /** Whether the run may be submitted (see {@link #invalidReasons()}). */
  public boolean submissionValid() {
    return aggregate.path("metadata").path("submission_valid").asBoolean();
  }

  /** Why not, e.g. {@code unsafe_override} for a window shorter than 900 s. */
  public List<String> invalidReasons() {
    List<String> out = new ArrayList<>();
    aggregate.path("metadata").path("submission_invalid_reasons").forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Whether the run was cancelled (live error threshold). */
  public boolean cancelled() {
    return aggregate.path("was_cancelled").asBoolean();
  }

  /** Schedule lateness p99 of profiling dispatches, in ms. */
  public double schedulingLatenessP99Millis() {
    return aggregate.path("metadata").path("replay").path("schedule_lateness_ms").path("p99").asDouble();
  }

  @Override
  public String toString() {
    return "AgenticResult{" + successfulRequests() + " ok, " + failedRequests() + " failed, "
        + artifactDir + "}";
  }
}
