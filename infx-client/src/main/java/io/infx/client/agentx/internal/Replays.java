package io.infx.client.agentx.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.WekaTrace;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Glue between the public {@code AgenticReplay} and the engine: runs it and writes the exports. */
public final class Replays {

  private Replays() {}

  public static ObjectNode run(List<WekaTrace> traces, AgenticOptions options, Path artifactDir,
      String datasetSource, Transport transport) {
    ReplaySpec spec = ReplaySpec.of(options, traces);
    ReplayEngine.Outcome outcome;
    ServerMetricsScraper scraper = options.serverMetricsUrls().isEmpty()
        ? null : new ServerMetricsScraper(options.serverMetricsUrls());
    try (RecordSink sink = new RecordSink(artifactDir.resolve("profile_export.jsonl"))) {
      ReplayEngine engine = ReplayEngine.create(spec, transport, sink::add, scraper);
      try {
        outcome = engine.run();
      } finally {
        engine.close();
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
    write(artifactDir.resolve("profile_export_aiperf.json"), aggregate);
    if (scraper != null) {
      write(artifactDir.resolve("server_metrics_export.json"), scraper.export());
    }
    return aggregate;
  }

  private static void write(Path file, ObjectNode json) {
    try {
      AtomicFiles.write(file, (Json.pretty().writeValueAsString(json) + "\n").getBytes(StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
