package io.infx.client.agentx;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.agentx.internal.HttpTransport;
import io.infx.client.agentx.internal.Replays;
import io.infx.client.agentx.internal.Transport;
import io.infx.core.InfxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Native AgentX replay (spec {@code agentx.md} §1): {@link AgenticOptions#users()} live session
 * trees replaying recorded coding-agent sessions against an OpenAI-compatible streaming
 * {@code /v1/chat/completions} endpoint, with AIPerf-shaped exports that InferenceX's aggregator
 * (and {@code io.infx.results.agentx.AgenticAggregator}) read.
 *
 * <pre>{@code
 * AgenticResult r = AgenticReplay.run(WekaTraces.load(Path.of("traces.jsonl")),
 *     AgenticOptions.builder().baseUri(URI.create("http://localhost:8888")).model("m").users(32).build(),
 *     Path.of("results/aiperf_artifacts"));
 * }</pre>
 *
 * <p>Writes into the artifact directory: {@code profile_export.jsonl} (one record per request,
 * warmup included and flagged), {@code profile_export_aiperf.json} (counters, stat blocks,
 * theoretical cache hit, validity stamp) and, when {@link AgenticOptions#serverMetricsUrls()} are
 * given, {@code server_metrics_export.json}. Files appear atomically when the run ends.
 */
public final class AgenticReplay {

  private AgenticReplay() {}

  /**
   * Replays {@code traces} and writes the exports.
   *
   * @param traces the corpus (traces with fewer than two top-level requests cannot start a lane but
   *     are replayed when lanes recycle)
   * @param datasetSource how the corpus was named (recorded as {@code metadata.dataset.loader})
   * @throws InfxException kind {@code agentx} when no trace is usable, a root warmup request fails,
   *     or prompts cannot be synthesized; kind {@code file} when exports cannot be written
   */
  public static AgenticResult run(List<WekaTrace> traces, AgenticOptions options, Path artifactDir,
      String datasetSource) {
    Objects.requireNonNull(traces, "traces");
    try (Transport t = new HttpTransport(options.baseUri(), options.maxConnections(), options.deadlines())) {
      return run(traces, options, artifactDir, datasetSource, t);
    }
  }

  /** {@link #run(List, AgenticOptions, Path, String)} with the dataset named "custom". */
  public static AgenticResult run(List<WekaTrace> traces, AgenticOptions options, Path artifactDir) {
    return run(traces, options, artifactDir, "custom");
  }

  static AgenticResult run(List<WekaTrace> traces, AgenticOptions options, Path artifactDir,
      String datasetSource, Transport transport) {
    ObjectNode aggregate = Replays.run(traces, options, artifactDir, datasetSource, transport);
    return new AgenticResult(artifactDir, aggregate);
  }
}
