package io.infx.client.agentx.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticSession;
import io.infx.client.agentx.WekaTrace;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Glue between the public {@code AgenticReplay} and the engine: runs it, tallies the typed result
 * and, when there is an artifact directory, writes the exports.
 */
public final class Replays {

  private Replays() {}

  /**
   * What a replay produced, for {@code AgenticResult}: the {@code profile_export_aiperf.json}
   * document, the profiling samples of the successful requests (ms, tokens) and the sessions.
   *
   * @param aggregate {@code profile_export_aiperf.json}
   * @param ttftMs TTFT of each successful profiling request, ms
   * @param itlMs ITL of each successful profiling request that has one, ms
   * @param e2elMs request latency of each successful profiling request, ms
   * @param inputTokens prompt tokens of each successful profiling request
   * @param outputTokens output tokens of each successful profiling request
   * @param warmupRequests warm-up primer records
   * @param contextOverflows profiling requests the server refused as too long for its context
   * @param sessions per-session figures
   * @param serverMetrics {@code server_metrics_export.json}, when server metrics were scraped
   */
  public record Run(ObjectNode aggregate, double[] ttftMs, double[] itlMs, double[] e2elMs,
      double[] inputTokens, double[] outputTokens, long warmupRequests, long contextOverflows,
      List<AgenticSession> sessions, Optional<ObjectNode> serverMetrics) {}

  /**
   * Replays {@code traces}; with an {@code artifactDir}, writes {@code profile_export.jsonl} (streamed
   * during the run), {@code profile_export_aiperf.json} and, when scraped,
   * {@code server_metrics_export.json} into it; without one, writes nothing.
   */
  public static Run run(List<WekaTrace> traces, AgenticOptions options, Optional<Path> artifactDir,
      String datasetSource, Transport transport) {
    ReplaySpec spec = ReplaySpec.of(options, traces);
    ReplayEngine.Outcome outcome;
    ServerMetricsScraper scraper = options.serverMetricsUrls().isEmpty()
        ? null : new ServerMetricsScraper(options.serverMetricsUrls());
    SessionTally sessions = new SessionTally();
    RecordSink sink = artifactDir.map(d -> new RecordSink(d.resolve("profile_export.jsonl"))).orElse(null);
    Consumer<ReplayRecord> records = sink == null ? sessions : sessions.andThen(sink::add);
    try {
      ReplayEngine engine = ReplayEngine.create(spec, transport, records, scraper);
      try {
        outcome = engine.run();
      } finally {
        engine.close();
      }
    } finally {
      if (sink != null) {
        sink.close();
      }
    }
    List<String> reasons = new ArrayList<>();
    if (options.duration().compareTo(AgenticOptions.MIN_VALID_DURATION) < 0) {
      reasons.add("unsafe_override");
    }
    if (outcome.cancelled()) {
      reasons.add("run_cancelled");
    }
    ReplayStats s = outcome.stats();
    long startNs = outcome.profilingStart().getEpochSecond() * 1_000_000_000L + outcome.profilingStart().getNano();
    if (!outcome.cancelled() && ReplayStats.insufficientCoverage(options.duration().toNanos(), startNs, s.lastObservationNs)) {
      reasons.add("insufficient_profile_metric_coverage");
    }
    long responses = s.successes + s.errors;
    if (responses > 0 && (double) s.contextOverflows / responses > 0.01) {
      reasons.add("context_overflow_rate_exceeded");
    }
    ObjectNode aggregate = AggregateExport.build(outcome, options, datasetSource, traces.size(), reasons);
    Optional<ObjectNode> serverMetrics = Optional.ofNullable(scraper).map(ServerMetricsScraper::export);
    artifactDir.ifPresent(d -> {
      write(d.resolve("profile_export_aiperf.json"), aggregate);
      serverMetrics.ifPresent(m -> write(d.resolve("server_metrics_export.json"), m));
    });
    return new Run(aggregate, s.ttftMs.values(), s.itlMs.values(), s.latencyMs.values(),
        s.inputTokens.values(), s.outputTokens.values(), s.warmupRecords, s.contextOverflows,
        sessions.sessions(), serverMetrics);
  }

  private static void write(Path file, ObjectNode json) {
    AtomicFiles.write(file, text(json).getBytes(StandardCharsets.UTF_8));
  }

  /** {@code json} as the export files hold it: pretty-printed, with a final newline. */
  public static String text(ObjectNode json) {
    try {
      return Json.pretty().writeValueAsString(json) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
