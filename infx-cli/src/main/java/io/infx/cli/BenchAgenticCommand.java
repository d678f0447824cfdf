package io.infx.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.ProgressBar;
import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticProgress;
import io.infx.client.agentx.AgenticReplay;
import io.infx.client.agentx.AgenticResult;
import io.infx.client.agentx.ImmutableAgenticOptions;
import io.infx.client.agentx.TraceSources;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.client.tokenizer.HfTokenizer;
import io.infx.client.tokenizer.Tokenizers;
import io.infx.core.UsageException;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code infx bench agentic}: native AgentX replay of recorded coding-agent sessions against an
 * OpenAI-compatible server, writing AIPerf-shaped exports to {@code <result-dir>/aiperf_artifacts}
 * for {@code infx results agentic-aggregate} and {@code agentic-validate}.
 */
@Command(
    name = "agentic",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Replay agentic-coding traces (InferenceX AgentX): USERS live session trees with recorded "
            + "think time, growing shared prefixes and subagents, for a fixed profiling window.",
        "Example: infx bench agentic --base-url http://127.0.0.1:8888 --model M --users 32 "
            + "--trace semianalysis_cc_traces_weka_062126_256k --duration 3600",
        "Try it without a server or corpus: infx sim --port 8888 & infx bench agentic "
            + "--base-url http://127.0.0.1:8888 --model infx-sim --users 4 --trace synthetic --duration 60"})
public final class BenchAgenticCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--base-url", defaultValue = "http://localhost:8888",
      description = "Server URL (default: ${DEFAULT-VALUE}); /v1/chat/completions is appended.")
  URI baseUrl;

  @Option(names = "--model", required = true, description = "Model name sent on the wire.")
  String model;

  @Option(names = {"--users", "--concurrency"}, required = true, paramLabel = "N",
      description = "Live session trees (the run's conc).")
  int users;

  @Option(names = "--trace", paramLabel = "SOURCE",
      description = "Trace corpus: a .json/.jsonl file or directory, an InferenceX loader name, a Hugging "
          + "Face dataset id (from the local cache), or synthetic[:traces=N,turns=N,...] "
          + "(default: $WEKA_LOADER_OVERRIDE, else InferenceX's default for $MODEL_PREFIX: the uncapped "
          + "062126 corpus for dsv4/glm5.2/minimaxm3/kimik3 models, else " + TraceSources.DEFAULT_LOADER + ").")
  String trace;

  @Option(names = "--duration", paramLabel = "SECONDS",
      description = "Profiling window (default 3600; 1200 with --fast). Below 900 s the run is stamped "
          + "submission_valid=false.")
  Double durationSeconds;

  @Option(names = "--warmup-requests-per-lane", paramLabel = "N",
      description = "One-token warmup requests per lane after the primers (default 10; 1 with --fast).")
  Integer warmupPerLane;

  @Option(names = "--fast", description = "Fast mode: 1200 s and one warmup request per lane (diagnostic).")
  boolean fast;

  @Option(names = "--seed", defaultValue = "42", description = "Seed of start points, lane draws and prompt text (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--backend", defaultValue = "vllm",
      description = "Server kind: vllm, sglang, trt, atom, dynamo-* (dynamo sends session-affinity headers). "
          + "Default: ${DEFAULT-VALUE}.")
  String backend;

  @Option(names = "--affinity-headers", paramLabel = "KIND",
      description = "none, session (X-Session-ID), dynamo (X-Dynamo-Session-ID) or smg (X-SMG-Routing-Key); "
          + "default: dynamo for dynamo-* backends, else none.")
  String affinity;

  @Option(names = "--result-dir", defaultValue = "results", paramLabel = "DIR",
      description = "Exports go to DIR/aiperf_artifacts (default: ${DEFAULT-VALUE}).")
  Path resultDir;

  @Option(names = "--trajectory-start-min-ratio", defaultValue = "0.25", description = "Default: ${DEFAULT-VALUE}.")
  double startMin;

  @Option(names = "--trajectory-start-max-ratio", defaultValue = "0.75", description = "Default: ${DEFAULT-VALUE}.")
  double startMax;

  @Option(names = "--trace-idle-gap-cap-seconds", defaultValue = "300", description = "Per-tree idle cap (default: ${DEFAULT-VALUE}).")
  double treeCap;

  @Option(names = "--system-idle-gap-cap-seconds", defaultValue = "10", description = "Whole-system idle cap (default: ${DEFAULT-VALUE}).")
  double systemCap;

  @Option(names = "--benchmark-grace-period", defaultValue = "30", paramLabel = "SECONDS",
      description = "Drain after the window (default: ${DEFAULT-VALUE}).")
  double grace;

  @Option(names = "--failed-request-threshold", defaultValue = "0.10",
      description = "Live error ratio that cancels the run (default: ${DEFAULT-VALUE}).")
  double failedThreshold;

  @Option(names = "--server-metrics", paramLabel = "URL",
      description = "Prometheus endpoints to scrape (repeatable; default: <base-url>/metrics).")
  List<URI> serverMetrics = new ArrayList<>();

  @Option(names = "--no-server-metrics", description = "Do not scrape Prometheus metrics.")
  boolean noServerMetrics;

  @Option(names = "--tokenizer",
      description = "builtin, a tokenizer.json, a directory holding one, or a model id in the local HF "
          + "cache (default: --model if cached locally, else builtin). Never downloads.")
  String tokenizer;

  @Option(names = "--extra-inputs", paramLabel = "JSON", description = "Extra request-body fields, a JSON object.")
  String extraInputs;

  @Option(names = "--run-id", description = "Fixes the cache-bust markers (default: random per run).")
  String runId;

  @Option(names = {"--no-progress", "--disable-tqdm"},
      description = "No live progress line (by default stderr shows, once a second, the phase, requests "
          + "done, in flight, errors and time left, like bench serve's bar).")
  boolean noProgress;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    if (users < 1) {
      throw new UsageException("--users must be >= 1");
    }
    String source = trace != null ? trace
        : Optional.ofNullable(System.getenv("WEKA_LOADER_OVERRIDE")).filter(s -> !s.isBlank())
            .orElseGet(() -> TraceSources.defaultLoader(System.getenv(
                io.infx.core.launch.LaunchVariable.MODEL_PREFIX.name())));
    TraceSources.Corpus corpus = TraceSources.load(source, System.getenv());
    err.println("infx: agentic: " + corpus.description());

    ImmutableAgenticOptions.Builder o = AgenticOptions.builder()
        .baseUri(baseUrl).model(model).users(users).fast(fast).seed(seed)
        .startRatioMin(startMin).startRatioMax(startMax)
        .traceIdleGapCap(seconds(treeCap, "--trace-idle-gap-cap-seconds"))
        .systemIdleGapCap(seconds(systemCap, "--system-idle-gap-cap-seconds"))
        .grace(seconds(grace, "--benchmark-grace-period"))
        .failedRequestThreshold(failedThreshold)
        .affinity(affinity());
    if (durationSeconds != null) {
      o.duration(seconds(durationSeconds, "--duration"));
    }
    if (warmupPerLane != null) {
      o.warmupRequestsPerLane(warmupPerLane);
    }
    if (runId != null) {
      o.runId(runId);
    }
    if (extraInputs != null) {
      JsonNode n = Json.mapper().readTree(extraInputs);
      if (n == null || !n.isObject()) {
        throw new UsageException("--extra-inputs must be a JSON object");
      }
      o.putAllExtraBody(Json.mapper().convertValue(n, Map.class));
    }
    if (!noServerMetrics) {
      o.addAllServerMetricsUrls(serverMetrics.isEmpty() ? List.of(baseUrl.resolve("/metrics")) : serverMetrics);
    }
    o.tokenizer(resolveTokenizer(err));
    Interrupts interrupts = Interrupts.install(err, grace + " s (--benchmark-grace-period)");
    o.stop(interrupts.stop());
    ProgressBar bar = noProgress ? null : new ProgressBar(err);
    if (bar != null) {
      o.progress(AgenticProgress.onto(bar));
    }
    AgenticOptions options;
    try {
      options = o.build();
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Path artifacts = resultDir.resolve("aiperf_artifacts");
    // before any traffic: the exports of a long run must not meet an unwritable directory
    io.infx.core.io.OutputPreflight.check(artifacts, "--result-dir");
    AgenticResult r;
    try {
      r = AgenticReplay.run(corpus.traces(), options, artifacts, corpus.source());
    } finally {
      if (bar != null) {
        bar.finish();
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf(Locale.ROOT, "%-36s %s%n", "Artifacts:", artifacts);
    out.printf(Locale.ROOT, "%-36s %d%n", "Users (conc):", users);
    out.printf(Locale.ROOT, "%-36s %d%n", "Successful requests:", r.successfulRequests());
    out.printf(Locale.ROOT, "%-36s %d%n", "Failed requests:", r.failedRequests());
    out.printf(Locale.ROOT, "%-36s %d%n", "Cancelled at the end:", r.cancelledRequests());
    out.printf(Locale.ROOT, "%-36s %s%n", "Mean TTFT (ms):", millis(r.ttft().meanMillis()));
    out.printf(Locale.ROOT, "%-36s %s%n", "P90 TTFT (ms):", millis(r.ttft().percentileMillis(90)));
    out.printf(Locale.ROOT, "%-36s %s%n", "Mean ITL (ms):", millis(r.itl().meanMillis()));
    out.printf(Locale.ROOT, "%-36s %.1f%%%n", "Theoretical prefix-cache hit:", 100 * r.theoreticalCacheHitRate());
    out.printf(Locale.ROOT, "%-36s %.2f%n", "Schedule lateness p99 (ms):", r.schedulingLatenessP99Millis());
    out.printf(Locale.ROOT, "%-36s %s%n", "Submission valid:",
        r.submissionValid() ? "yes" : "no (" + String.join(", ", r.invalidReasons()) + ")");
    // like AIPerf: a cancelled run, or a stalled one (no observations through 98 % of a >= 900 s
    // window), exits non-zero after writing its exports
    return interrupts.exitCode(
        r.cancelled() || r.invalidReasons().contains("insufficient_profile_metric_coverage") ? 1 : 0);
  }

  /** {@code 12.34}, or {@code n/a} for a metric without a sample (no successful request). */
  private static String millis(java.util.OptionalDouble ms) {
    return ms.isPresent() ? String.format(Locale.ROOT, "%.2f", ms.getAsDouble()) : "n/a";
  }

  private AgenticOptions.Affinity affinity() {
    if (affinity == null) {
      return backend.toLowerCase(Locale.ROOT).startsWith("dynamo") ? AgenticOptions.Affinity.DYNAMO
          : AgenticOptions.Affinity.NONE;
    }
    try {
      return AgenticOptions.Affinity.valueOf(affinity.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("--affinity-headers must be none, session, dynamo or smg, got '" + affinity + "'");
    }
  }

  private io.infx.client.tokenizer.Tokenizer resolveTokenizer(PrintWriter err) {
    if (tokenizer != null) {
      return Tokenizers.resolve(Optional.of(tokenizer), model, baseUrl).tokenizer();
    }
    Optional<Path> local = Tokenizers.locate(model);
    if (local.isPresent()) {
      return HfTokenizer.load(local.get(), model);
    }
    err.println("infx: agentic: no local tokenizer for '" + model + "'; prompts are synthesized with "
        + "the builtin tokenizer (token counts are exact for infx sim, approximate for real models)");
    return BuiltinTokenizer.instance();
  }

  private static Duration seconds(double s, String flag) {
    if (!(s >= 0) || Double.isInfinite(s)) {
      throw new UsageException(flag + " must be a number of seconds >= 0");
    }
    return Duration.ofNanos((long) (s * 1e9));
  }
}
