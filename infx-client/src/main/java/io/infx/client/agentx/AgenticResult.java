package io.infx.client.agentx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.agentx.internal.Replays;
import io.infx.client.metrics.LatencyStats;
import io.infx.client.metrics.SampleStats;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * What an AgentX replay produced, typed: request counts, the TTFT / ITL / E2EL distributions of the
 * successful profiling requests (statistics and HdrHistograms), token counts, the theoretical
 * prefix-cache hit, the validity stamp, per-session figures — and, when the replay wrote them, where
 * its exports are.
 *
 * <p>The numbers are those of {@code profile_export_aiperf.json} (spec {@code agentx.md} §3.3),
 * computed from the same records: {@code ttft().meanMillis()} is its
 * {@code time_to_first_token.avg} and {@code ttft().percentileMillis(90)} its {@code p90} (numpy's
 * linear percentile over the same samples; equal up to floating-point rounding, since the statistics
 * here are computed in seconds as InferenceX's aggregator reads them). Only profiling requests count:
 * warm-up primers and requests cancelled at the end of the window are counted apart.
 *
 * <p>Immutable; the histograms are returned as copies.
 */
public final class AgenticResult {

  private final Optional<Path> artifactDir;
  private final ObjectNode aggregate;
  private final LatencyStats ttft;
  private final LatencyStats itl;
  private final LatencyStats e2el;
  private final Histogram ttftHistogram;
  private final Histogram itlHistogram;
  private final Histogram e2elHistogram;
  private final SampleStats inputTokens;
  private final SampleStats outputTokens;
  private final long warmupRequests;
  private final long contextOverflows;
  private final List<AgenticSession> sessions;
  private final Optional<String> serverMetricsJson;

  AgenticResult(Optional<Path> artifactDir, Replays.Run run) {
    this.artifactDir = artifactDir;
    this.aggregate = run.aggregate();
    this.ttft = LatencyStats.ofSeconds(seconds(run.ttftMs()));
    this.itl = LatencyStats.ofSeconds(seconds(run.itlMs()));
    this.e2el = LatencyStats.ofSeconds(seconds(run.e2elMs()));
    this.ttftHistogram = micros(run.ttftMs());
    this.itlHistogram = micros(run.itlMs());
    this.e2elHistogram = micros(run.e2elMs());
    this.inputTokens = SampleStats.of(run.inputTokens());
    this.outputTokens = SampleStats.of(run.outputTokens());
    this.warmupRequests = run.warmupRequests();
    this.contextOverflows = run.contextOverflows();
    this.sessions = run.sessions();
    this.serverMetricsJson = run.serverMetrics().map(Replays::text);
  }

  private static double[] seconds(double[] ms) {
    double[] s = new double[ms.length];
    for (int i = 0; i < ms.length; i++) {
      s[i] = ms[i] / 1000;
    }
    return s;
  }

  /** Values in µs, 3 significant digits, auto-resizing (as {@code ServeResult}'s histograms). */
  private static Histogram micros(double[] ms) {
    Histogram h = new Histogram(3);
    for (double v : ms) {
      h.recordValue(Math.max(0, Math.round(v * 1000)));
    }
    return h;
  }

  /**
   * The directory holding {@code profile_export.jsonl}, {@code profile_export_aiperf.json} and
   * {@code server_metrics_export.json}; empty for an in-memory replay
   * ({@link AgenticReplay#run(List, AgenticOptions)}).
   */
  public Optional<Path> artifactDir() {
    return artifactDir;
  }

  /** Successful profiling requests ({@code request_count}). */
  public long successfulRequests() {
    return aggregate.path("request_count").path("avg").asLong();
  }

  /** Profiling requests that failed, cancellations at the end excluded ({@code error_request_count}). */
  public long failedRequests() {
    return aggregate.path("error_request_count").path("avg").asLong();
  }

  /** Profiling requests cancelled when the window closed ({@code cancelled_request_count}). */
  public long cancelledRequests() {
    return aggregate.path("cancelled_request_count").path("avg").asLong();
  }

  /** Warm-up primer requests (one per lane and primer turn; not part of any statistic). */
  public long warmupRequests() {
    return warmupRequests;
  }

  /**
   * Profiling requests the server refused because the prompt no longer fit its context (each ends
   * its session; more than 1 % of the responses makes the run invalid).
   */
  public long contextOverflows() {
    return contextOverflows;
  }

  /** TTFT of the successful profiling requests ({@code time_to_first_token}). */
  public LatencyStats ttft() {
    return ttft;
  }

  /**
   * ITL of the successful profiling requests that streamed more than one token
   * ({@code inter_token_latency}; InferenceX's aggregate reads it as TPOT too).
   */
  public LatencyStats itl() {
    return itl;
  }

  /** End-to-end latency of the successful profiling requests ({@code request_latency}). */
  public LatencyStats e2el() {
    return e2el;
  }

  /** TTFT histogram of the successful profiling requests: values in <b>µs</b>, 3 significant digits. */
  public Histogram ttftHistogram() {
    return ttftHistogram.copy();
  }

  /** ITL histogram (µs, 3 significant digits), one value per request as {@link #itl()}. */
  public Histogram itlHistogram() {
    return itlHistogram.copy();
  }

  /** E2EL histogram of the successful profiling requests (µs, 3 significant digits). */
  public Histogram e2elHistogram() {
    return e2elHistogram.copy();
  }

  /** Prompt tokens of the successful profiling requests (the client's count; unit: tokens). */
  public SampleStats inputTokens() {
    return inputTokens;
  }

  /** Output tokens of the successful profiling requests (unit: tokens). */
  public SampleStats outputTokens() {
    return outputTokens;
  }

  /**
   * Every session that sent a profiling request, in the order they first did (spec
   * {@code agentx.md} §1.3: a session is one live replay of one conversation of a trace).
   */
  public List<AgenticSession> sessions() {
    return sessions;
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

  /**
   * Why not: {@code unsafe_override} (a window shorter than 900 s), {@code run_cancelled},
   * {@code insufficient_profile_metric_coverage}, {@code context_overflow_rate_exceeded}.
   */
  public List<String> invalidReasons() {
    List<String> out = new ArrayList<>();
    aggregate.path("metadata").path("submission_invalid_reasons").forEach(n -> out.add(n.asText()));
    return out;
  }

  /** Whether the run was cancelled (live failed-request threshold). */
  public boolean cancelled() {
    return aggregate.path("was_cancelled").asBoolean();
  }

  /** Why the run was cancelled; empty unless {@link #cancelled()}. */
  public Optional<String> cancelReason() {
    JsonNode r = aggregate.path("metadata").path("cancel_reason");
    return r.isTextual() ? Optional.of(r.asText()) : Optional.empty();
  }

  /** Schedule lateness p99 of profiling dispatches, in ms (how late the replayer sent, not the server). */
  public double schedulingLatenessP99Millis() {
    return aggregate.path("metadata").path("replay").path("schedule_lateness_ms").path("p99").asDouble();
  }

  /**
   * {@code profile_export_aiperf.json} as the replay wrote (or, in memory, would have written) it:
   * AIPerf's aggregate shape, which InferenceX's aggregator and {@code AgenticAggregator} read.
   */
  public String aggregateJson() {
    return Replays.text(aggregate);
  }

  /** {@code server_metrics_export.json}, when {@link AgenticOptions#serverMetricsUrls()} were scraped. */
  public Optional<String> serverMetricsJson() {
    return serverMetricsJson;
  }

  /** The aggregate document, for this package's tests. */
  ObjectNode aggregateNode() {
    return aggregate.deepCopy();
  }

  @Override
  public String toString() {
    return "AgenticResult{" + successfulRequests() + " ok, " + failedRequests() + " failed, "
        + sessions.size() + " sessions, ttft " + ttft + ", " + artifactDir.map(Path::toString).orElse("in memory")
        + "}";
  }
}
