package io.infx.client.agentx;

import io.infx.client.agentx.internal.HttpTransport;
import io.infx.client.agentx.internal.Replays;
import io.infx.client.agentx.internal.Transport;
import io.infx.core.InfxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Native AgentX replay (spec {@code agentx.md} §1): {@link AgenticOptions#users()} live session
 * trees replaying recorded coding-agent sessions against an OpenAI-compatible streaming
 * {@code /v1/chat/completions} endpoint. The result is typed ({@link AgenticResult}: TTFT / ITL /
 * E2EL statistics and histograms, counts, per-session figures); the AIPerf-shaped exports that
 * InferenceX's aggregator (and {@code io.infx.results.agentx.AgenticAggregator}) read are written
 * only when an artifact directory is given.
 *
 * <pre>{@code
 * // in memory: nothing is written
 * AgenticResult r = AgenticReplay.run(SyntheticCorpus.builder().traces(8).build().generate(),
 *     AgenticOptions.builder().baseUri(URI.create("http://localhost:8888")).model("m").users(4)
 *         .duration(Duration.ofSeconds(30)).build());
 * r.ttft().percentileMillis(90);  r.sessions();  r.successfulRequests();
 *
 * // with the exports InferenceX's aggregator reads
 * AgenticReplay.run(traces, options, Path.of("results/aiperf_artifacts"));
 * }</pre>
 *
 * <p>Writes into an artifact directory: {@code profile_export.jsonl} (one record per request,
 * warmup included and flagged), {@code profile_export_aiperf.json} (counters, stat blocks,
 * theoretical cache hit, validity stamp) and, when {@link AgenticOptions#serverMetricsUrls()} are
 * given, {@code server_metrics_export.json}. Files appear atomically when the run ends.
 */
public final class AgenticReplay {

  private AgenticReplay() {}

  /**
   * Replays {@code traces} in memory: the same run as with an artifact directory, nothing written
   * (the aggregate is still available as {@link AgenticResult#aggregateJson()}).
   *
   * @param traces the corpus (traces with fewer than two top-level requests cannot start a lane but
   *     are replayed when lanes recycle)
   * @throws InfxException kind {@code agentx} when no trace is usable, a root warmup request fails,
   *     or prompts cannot be synthesized
   */
  public static AgenticResult run(List<WekaTrace> traces, AgenticOptions options) {
    return replay(traces, options, Optional.empty(), "custom");
  }

  /**
   * Replays {@code traces} and writes the exports into {@code artifactDir}.
   *
   * @param traces the corpus (traces with fewer than two top-level requests cannot start a lane but
   *     are replayed when lanes recycle)
   * @param datasetSource how the corpus was named (recorded as {@code metadata.dataset.loader})
   * @throws InfxException kind {@code agentx} when no trace is usable, a root warmup request fails,
   *     or prompts cannot be synthesized; kind {@code file} when exports cannot be written
   */
  public static AgenticResult run(List<WekaTrace> traces, AgenticOptions options, Path artifactDir,
      String datasetSource) {
    return replay(traces, options, Optional.of(Objects.requireNonNull(artifactDir, "artifactDir")),
        Objects.requireNonNull(datasetSource, "datasetSource"));
  }

  /**
   * {@link #run(List, AgenticOptions, Path, String)} with the dataset named "custom".
   *
   * @throws InfxException as {@link #run(List, AgenticOptions, Path, String)}
   */
  public static AgenticResult run(List<WekaTrace> traces, AgenticOptions options, Path artifactDir) {
    return run(traces, options, artifactDir, "custom");
  }

  private static AgenticResult replay(List<WekaTrace> traces, AgenticOptions options,
      Optional<Path> artifactDir, String datasetSource) {
    Objects.requireNonNull(traces, "traces");
    Objects.requireNonNull(options, "options");
    try (Transport t = new HttpTransport(options.baseUri(), options.maxConnections(), options.deadlines())) {
      return run(traces, options, artifactDir, datasetSource, t);
    }
  }

  static AgenticResult run(List<WekaTrace> traces, AgenticOptions options, Path artifactDir,
      String datasetSource, Transport transport) {
    return run(traces, options, Optional.of(artifactDir), datasetSource, transport);
  }

  static AgenticResult run(List<WekaTrace> traces, AgenticOptions options, Optional<Path> artifactDir,
      String datasetSource, Transport transport) {
    return new AgenticResult(artifactDir, Replays.run(traces, options, artifactDir, datasetSource, transport));
  }
}
