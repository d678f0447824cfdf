package io.infx.cli;

import io.infx.client.ServingBackend;
import io.infx.client.BodyOptions;
import io.infx.client.Deadlines;
import io.infx.client.ImmutableBodyOptions;
import io.infx.client.ImmutableServeJob;
import io.infx.client.MetricOptions;
import io.infx.client.ServeJob;
import io.infx.core.ErrorKind;
import io.infx.core.UsageException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code infx bench serve}: the fixed-sequence serving benchmark, accepting the flags InferenceX
 * passes to {@code benchmark_serving.py} (client spec §1.1 and §7). Progress goes to stderr, the
 * summary table to stdout; exit 1 when more than 5 % of the requests failed (after saving).
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Benchmark an OpenAI-compatible server with fixed-sequence random (or JSONL) prompts, "
            + "flag-compatible with InferenceX's benchmark_serving.py.",
        "Example: infx bench serve --backend vllm --base-url http://127.0.0.1:8000 --model M "
            + "--dataset-name random --random-input-len 1024 --random-output-len 1024 "
            + "--random-range-ratio 0.8 --num-prompts 640 --max-concurrency 64 --request-rate inf "
            + "--ignore-eos --num-warmups 128 --save-result --result-dir out --result-filename r.json"
    })
public final class BenchServeCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--backend", defaultValue = "vllm",
      description = "vllm, sglang, openai, lmdeploy, scalellm (Completions) or openai-chat (default: ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--base-url", description = "Server URL, e.g. http://127.0.0.1:8000 (overrides --host/--port).")
  String baseUrl;

  @Option(names = "--host", defaultValue = "127.0.0.1") String host;

  @Option(names = "--port", defaultValue = "8000") int port;

  @Option(names = "--endpoint", description = "API path (default: /v1/completions, or /v1/chat/completions for openai-chat).")
  String endpoint;

  @Option(names = "--model", required = true, description = "Model id sent with each request and recorded as model_id.")
  String model;

  @Option(names = "--served-model-name", description = "Model name sent in requests (default: --model).")
  String servedModelName;

  @Option(names = "--tokenizer", description = "builtin, a tokenizer.json, a directory holding one, or a model id in the local HF cache (default: --model; builtin against infx sim). Never downloads.")
  String tokenizer;

  @Option(names = "--tokenizer-mode", defaultValue = "auto", description = "Accepted for compatibility (auto, slow, mistral, custom); deepseek_v4 is not supported.")
  String tokenizerMode;

  @Option(names = "--trust-remote-code", description = "Accepted for compatibility (no effect: tokenizers are local files).")
  boolean trustRemoteCode;

  @Option(names = "--dataset-name", defaultValue = "random", description = "random (default) or jsonl.")
  String datasetName;

  @Option(names = "--dataset-path", description = "JSONL prompts file for --dataset-name jsonl.")
  Path datasetPath;

  @Option(names = "--num-prompts", defaultValue = "1000") int numPrompts;

  @Option(names = "--random-input-len", defaultValue = "1024") int randomInputLen;

  @Option(names = "--random-output-len", defaultValue = "128") int randomOutputLen;

  @Option(names = "--random-range-ratio", defaultValue = "1.0") double randomRangeRatio;

  @Option(names = "--random-prefix-len", defaultValue = "0") int randomPrefixLen;

  @Option(names = "--random-input-len-basis", defaultValue = "server", paramLabel = "server|client",
      description = "server (default): on Completions the server's own special tokens (BOS, asked"
          + " through its /tokenize) count toward --random-input-len, so the server counts exactly"
          + " that many; client: the reference's, the text alone is that long and the server adds"
          + " its BOS on top.")
  String randomInputLenBasis;

  @Option(names = "--random-num-workers", defaultValue = "0", description = "Accepted for compatibility; prompts do not depend on it.")
  int randomNumWorkers;

  @Option(names = "--use-chat-template", description = "Wrap each random prompt in the model's chat template (tokenizer_config.json chat_template or chat_template.jinja beside the tokenizer, or --chat-template), with add_generation_prompt, as the reference does; the template's own tokens are taken off --random-input-len.")
  boolean useChatTemplate;

  @Option(names = "--dsv4", description = "With --use-chat-template: InferenceX's DeepSeek-V4 encoding (encoding_dsv4.py, thinking mode) instead of a Jinja template.")
  boolean dsv4;

  @Option(names = "--chat-template", description = "infx extension: the chat template for --use-chat-template (a .jinja file, a tokenizer_config.json or a directory); default: the tokenizer's directory.")
  Path chatTemplate;

  @Option(names = "--seed", defaultValue = "0") long seed;

  @Option(names = "--request-rate", defaultValue = "inf", description = "Requests/s or inf (default: all at once, shaped by --max-concurrency).")
  String requestRate;

  @Option(names = "--burstiness", defaultValue = "1.0", description = "Gamma shape of inter-arrival times (1 = Poisson).")
  double burstiness;

  @Option(names = "--arrivals", defaultValue = "gamma", description = "gamma (default; Poisson at burstiness 1) or constant spacing.")
  String arrivals;

  @Option(names = "--max-concurrency", description = "Most requests in flight.")
  Integer maxConcurrency;

  @Option(names = "--num-warmups", defaultValue = "0") int numWarmups;

  @Option(names = "--client-warmup", paramLabel = "N", defaultValue = "2000",
      description = "infx extension: requests the client sends to an in-process canned SSE server"
          + " before the run (never to the benchmarked server), so the JVM's per-request code is"
          + " compiled before the first measured request; at most 5 s of requests and 10 s for the"
          + " compiler to finish; once per JVM; 0 = off (default: 2000).")
  int clientWarmup;

  @Option(names = "--client-jit", paramLabel = "MODE", description = "infx extension: JIT"
      + " compilers for the client's code: tiered, tiered-warmup (C2 only while the client warms"
      + " up, then C1) or c1 (default: tiered-warmup when the server is on loopback — the"
      + " optimizing compiler's CPU in the run would be the server's — else tiered).")
  String clientJit;

  @Option(names = "--ignore-eos") boolean ignoreEos;

  @Option(names = "--best-of", defaultValue = "1") int bestOf;

  @Option(names = "--logprobs") Integer logprobs;

  @Option(names = "--temperature", defaultValue = "0.0") double temperature;

  @Option(names = "--continuous-usage-stats", description = "Ask for per-chunk usage (exact per-token ITL on vLLM/SGLang).")
  boolean continuousUsage;

  @Option(names = "--percentile-metrics", defaultValue = "ttft,tpot,itl,e2el") String percentileMetrics;

  @Option(names = "--metric-percentiles", defaultValue = "90,99,99.9") String metricPercentiles;

  @Option(names = "--goodput", arity = "1..*", description = "SLOs KEY:VALUE in ms (ttft, tpot, e2el).")
  List<String> goodput = new ArrayList<>();

  @Option(names = "--save-result") boolean saveResult;

  @Option(names = "--save-detailed") boolean saveDetailed;

  @Option(names = "--result-dir") Path resultDir;

  @Option(names = "--result-filename") String resultFilename;

  @Option(names = "--hlog", description = "Also write TTFT/TPOT/ITL/E2EL/send-lateness HdrHistograms (µs) to this .hlog file.")
  Path hlog;

  @Option(names = "--hlog-interval", description = "With --hlog: one TTFT/TPOT/ITL/E2EL histogram per interval of"
      + " this length (250ms, 1s, …) instead of one per run.")
  String hlogInterval;

  @Option(names = "--metadata", arity = "1..*", description = "KEY=VALUE pairs saved in the raw result.")
  List<String> metadata = new ArrayList<>();

  @Option(names = "--disable-tqdm", description = "No progress bar.") boolean disableTqdm;

  @Option(names = "--profile", description = "POST /start_profile after the warm-ups and /stop_profile after the measured phase (the server's profiler must be enabled).") boolean profile;

  @Option(names = "--lora-modules", arity = "1..*", description = "Not supported.") List<String> loraModules;

  @Option(names = "--api-key", description = "Bearer token (default: $OPENAI_API_KEY). Never logged or saved.")
  String apiKey;

  @Option(names = "--num-runs", paramLabel = "N", defaultValue = "1",
      description = "Run the benchmark N times; each run's raw result is kept as NAME-run<k>.json and a table of "
          + "mean, std dev, 95%% interval and CV of the headline metrics across runs follows (default: ${DEFAULT-VALUE}).")
  int numRuns;

  @Option(names = "--http2", description = "HTTP/2 (h2c) instead of HTTP/1.1 keep-alive.") boolean http2;

  @Option(names = "--connection-reuse", defaultValue = "auto", description = "HTTP/1.1 keep-alive: auto (keep connections until the server is seen closing them, e.g. llama.cpp; then one per request), always, or never (one connection per request, as the Python client).")
  String connectionReuse;

  @Option(names = "--io-threads", description = "Client I/O threads (default: 1 when the server"
      + " is on loopback — it shares this machine's cores — else the CPU count).") Integer ioThreads;

  @Option(names = "--max-sse-event-bytes", defaultValue = "8388608", description = "Longest SSE line/event a server may send; a longer one fails that request as 'oversize' (default: ${DEFAULT-VALUE} = 8 MiB).")
  int maxSseEventBytes;

  @Option(names = "--interrupt-grace", defaultValue = "10s", description = "On SIGINT/SIGTERM: how long requests in flight may finish before they are cancelled; the raw result of what finished is then saved, marked incomplete (default: ${DEFAULT-VALUE}).")
  String interruptGrace;

  @Option(names = "--timeout-connect", defaultValue = "30s", description = "Connect deadline (e.g. 30s, 2m).") String timeoutConnect;

  @Option(names = "--timeout-first-byte", defaultValue = "30m") String timeoutFirstByte;

  @Option(names = "--timeout-idle", defaultValue = "10m", description = "Longest silence inside a stream.") String timeoutIdle;

  @Option(names = "--timeout-total", defaultValue = "6h", description = "Whole request (the reference's 6 h).") String timeoutTotal;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (tokenizerMode.equals("deepseek_v4")) {
      throw new UsageException("--tokenizer-mode deepseek_v4 is not supported");
    }
    if (loraModules != null && !loraModules.isEmpty()) {
      throw new UsageException("--lora-modules is not supported");
    }
    ImmutableBodyOptions.Builder body = BodyOptions.builder().ignoreEos(ignoreEos).bestOf(bestOf)
        .temperature(temperature).continuousUsageStats(continuousUsage);
    if (logprobs != null) {
      body.logprobs(logprobs);
    }
    ImmutableServeJob.Builder job = ServeJob.builder()
        .backend(ServingBackend.parse(backend)).host(host).port(port).model(model)
        .datasetName(datasetName).numPrompts(numPrompts).randomInputLen(randomInputLen)
        .randomOutputLen(randomOutputLen).randomRangeRatio(randomRangeRatio)
        .randomPrefixLen(randomPrefixLen)
        .randomInputLenCountsServerTokens(parseInputLenBasis(randomInputLenBasis)).seed(seed).useChatTemplate(useChatTemplate).dsv4(dsv4).requestRate(parseRate(requestRate))
        .burstiness(burstiness).constantArrivals(parseArrivals(arrivals)).numWarmups(numWarmups)
        .clientWarmup(clientWarmup)
        .clientJit(java.util.Optional.ofNullable(clientJit).map(BenchServeCommand::jitMode))
        .body(body.build()).metrics(metricOptions()).saveResult(saveResult)
        .saveDetailed(saveDetailed).metadata(parseMetadata(metadata)).http2(http2)
        .connectionReuse(parseConnectionReuse(connectionReuse))
        .progress(!disableTqdm).profile(profile)
        .deadlines(Deadlines.builder().connect(duration("--timeout-connect", timeoutConnect))
            .firstByte(duration("--timeout-first-byte", timeoutFirstByte))
            .idle(duration("--timeout-idle", timeoutIdle))
            .total(duration("--timeout-total", timeoutTotal)).build());
    if (baseUrl != null) {
      job.baseUrl(parseUrl(baseUrl));
    }
    if (endpoint != null) {
      job.endpoint(endpoint);
    }
    if (servedModelName != null) {
      job.servedModelName(servedModelName);
    }
    if (tokenizer != null) {
      job.tokenizer(tokenizer);
    }
    if (datasetPath != null) {
      job.datasetPath(datasetPath);
    }
    if (chatTemplate != null) {
      job.chatTemplate(chatTemplate);
    }
    if (maxConcurrency != null) {
      if (maxConcurrency < 1) {
        throw new UsageException("--max-concurrency must be ≥ 1, got " + maxConcurrency);
      }
      job.maxConcurrency(maxConcurrency);
    }
    if (resultDir != null) {
      job.resultDir(resultDir);
    }
    if (resultFilename != null) {
      job.resultFilename(resultFilename);
    }
    if (hlog != null) {
      job.histogramLog(hlog);
    }
    if (hlogInterval != null) {
      if (hlog == null) {
        throw new UsageException("--hlog-interval needs --hlog FILE");
      }
      job.histogramLogInterval(duration("--hlog-interval", hlogInterval));
    }
    String key = apiKey != null ? apiKey : System.getenv("OPENAI_API_KEY");
    if (key != null && !key.isEmpty()) {
      job.apiKey(key);
    }
    if (ioThreads != null) {
      job.ioThreads(ioThreads);
    }
    if (numRuns < 1) {
      throw new UsageException("--num-runs must be >= 1, got " + numRuns);
    }
    if (maxSseEventBytes < 64) {
      throw new UsageException("--max-sse-event-bytes must be ≥ 64, got " + maxSseEventBytes);
    }
    job.maxSseEventBytes(maxSseEventBytes);
    Duration grace = duration("--interrupt-grace", interruptGrace);
    Interrupts interrupts = Interrupts.install(err, interruptGrace);
    job.stop(interrupts.stop()).stopGrace(grace);
    ServeJob built = job.build();
    List<ServeJob.Outcome> runs = new ArrayList<>();
    int exit = 0;
    for (int k = 1; k <= numRuns; k++) {
      if (numRuns > 1) {
        err.println("infx: run " + k + "/" + numRuns);
      }
      ServeJob.Outcome o = built.run(out, err);
      if (numRuns > 1 && o.rawFile().isPresent()) {
        // every repetition is kept: <name>-run<k>.json beside where the single run would be
        Path f = o.rawFile().get();
        String name = f.getFileName().toString();
        Path kept = f.resolveSibling(name.replaceFirst("\\.json$", "") + "-run" + k + ".json");
        try {
          java.nio.file.Files.move(f, kept, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.io.IOException e) {
          throw new io.infx.core.InfxException(ErrorKind.FILE, "cannot keep run " + k + " as " + kept + ": " + e.getMessage(), e);
        }
        err.println("infx: raw result of run " + k + " written to " + kept);
      } else {
        o.rawFile().ifPresent(f -> err.println("infx: raw result written to " + f
            + (o.result().incomplete() ? " (incomplete: interrupted)" : "")));
      }
      if (o.gateFailure().isPresent() && !o.result().incomplete()) {
        err.println(o.gateFailure().get());
      }
      exit = Math.max(exit, o.exitCode());
      runs.add(o);
      if (o.result().incomplete()) {
        break; // interrupted: no further repetition
      }
    }
    if (numRuns > 1) {
      out.print(repetitionTable(runs));
      out.flush();
    }
    return interrupts.exitCode(exit);
  }

  /**
   * Mean, sample standard deviation, 95 % Student-t interval and coefficient of variation of the
   * headline metrics across the runs ({@code io.infx.results.RepeatStatistics}, the statistics of
   * {@code infx run --repeat}).
   */
  static String repetitionTable(List<ServeJob.Outcome> runs) {
    java.util.Map<String, java.util.function.Function<io.infx.client.ServeMetrics,
        java.util.OptionalDouble>> headline = new java.util.LinkedHashMap<>();
    headline.put("Output token throughput (tok/s)",
        m -> java.util.OptionalDouble.of(m.outputThroughput()));
    headline.put("Total token throughput (tok/s)",
        m -> java.util.OptionalDouble.of(m.totalTokenThroughput()));
    headline.put("Median TTFT (ms)", m -> m.ttft().medianMillis());
    headline.put("P99 TTFT (ms)", m -> m.ttft().percentileMillis(99));
    headline.put("Median TPOT (ms)", m -> m.tpot().medianMillis());
    headline.put("Median ITL (ms)", m -> m.itl().medianMillis());
    headline.put("Median E2EL (ms)", m -> m.e2el().medianMillis());
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(java.util.Locale.ROOT, "%n%s%n", "=".repeat(28) + " Repetitions (" + runs.size() + " runs) "
        + "=".repeat(28)));
    sb.append(String.format(java.util.Locale.ROOT, "%-34s %12s %10s %25s %7s%n", "metric", "mean", "std dev",
        "95% interval of the mean", "CV"));
    headline.forEach((name, f) -> {
      List<Double> vs = new ArrayList<>();
      for (ServeJob.Outcome o : runs) {
        f.apply(o.metrics()).ifPresent(vs::add);
      }
      if (vs.size() < runs.size()) {
        // a run without samples (e.g. no request produced more than one token for TPOT) has no
        // value, and a mean over the other runs would not be the mean of the repetitions
        sb.append(String.format(java.util.Locale.ROOT, "%-34s %12s (no samples in %d of %d runs)%n",
            name, "n/a", runs.size() - vs.size(), runs.size()));
        return;
      }
      io.infx.results.RepeatStatistics st = new io.infx.results.RepeatStatistics(vs, 0.95);
      sb.append(String.format(java.util.Locale.ROOT, "%-34s %12.2f %10.2f %12.2f – %-10.2f %6.1f%%%n", name, st.mean(),
          st.stdDev(), st.ciLow(), st.ciHigh(), st.cv() * 100));
    });
    sb.append("=".repeat(90)).append('\n');
    return sb.toString();
  }

  private MetricOptions metricOptions() {
    Map<String, Double> slo = new LinkedHashMap<>();
    for (String g : goodput) {
      int c = g.indexOf(':');
      if (c < 0) {
        throw new UsageException("--goodput expects KEY:VALUE (ms), got '" + g + "'");
      }
      try {
        slo.put(g.substring(0, c), Double.parseDouble(g.substring(c + 1)));
      } catch (NumberFormatException e) {
        throw new UsageException("--goodput " + g + ": the value must be a number of ms");
      }
    }
    List<Double> ps = new ArrayList<>();
    for (String p : metricPercentiles.split(",")) {
      try {
        ps.add(Double.parseDouble(p.trim()));
      } catch (NumberFormatException e) {
        throw new UsageException("--metric-percentiles: '" + p + "' is not a number");
      }
    }
    return MetricOptions.builder()
        .percentileMetrics(List.of(percentileMetrics.split(","))).metricPercentiles(ps)
        .goodput(slo).build();
  }

  static double parseRate(String s) {
    if (s.equalsIgnoreCase("inf")) {
      return Double.POSITIVE_INFINITY;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      throw new UsageException("--request-rate must be a number or inf, got '" + s + "'");
    }
  }

  private static boolean parseArrivals(String s) {
    return switch (s) {
      case "gamma", "poisson" -> false;
      case "constant" -> true;
      default -> throw new UsageException("--arrivals must be gamma, poisson or constant, got '" + s + "'");
    };
  }

  static Map<String, String> parseMetadata(List<String> items) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String item : items) {
      String[] parts = item.split("=", -1);
      if (parts.length < 2 || parts[0].isEmpty()) {
        throw new UsageException("--metadata expects KEY=VALUE, got '" + item + "'");
      }
      m.put(parts[0], parts[1]);
    }
    return m;
  }

  private static URI parseUrl(String s) {
    try {
      URI u = URI.create(s);
      if (u.getScheme() == null || u.getHost() == null) {
        throw new IllegalArgumentException();
      }
      return u;
    } catch (IllegalArgumentException e) {
      throw new UsageException("--base-url must look like http://host:port, got '" + s + "'");
    }
  }

  /** Parses {@code 250ms}, {@code 30s}, {@code 10m}, {@code 6h} or ISO-8601 ({@code PT30S}). */
  static Duration duration(String flag, String s) {
    try {
      String v = s.trim().toLowerCase(java.util.Locale.ROOT);
      if (v.startsWith("pt") || v.startsWith("p")) {
        return Duration.parse(s.trim().toUpperCase(java.util.Locale.ROOT));
      }
      if (v.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
      }
      long n = Long.parseLong(v.substring(0, v.length() - 1));
      return switch (v.charAt(v.length() - 1)) {
        case 's' -> Duration.ofSeconds(n);
        case 'm' -> Duration.ofMinutes(n);
        case 'h' -> Duration.ofHours(n);
        default -> throw new NumberFormatException();
      };
    } catch (RuntimeException e) {
      throw new UsageException(flag + ": expected a duration like 250ms, 30s, 10m or 6h, got '"
          + s + "'");
    }
  }

  static io.infx.client.ClientJit.Mode jitMode(String v) {
    return switch (v.toLowerCase(java.util.Locale.ROOT)) {
      case "tiered" -> io.infx.client.ClientJit.Mode.TIERED;
      case "tiered-warmup" -> io.infx.client.ClientJit.Mode.TIERED_WARMUP;
      case "c1" -> io.infx.client.ClientJit.Mode.C1;
      default -> throw new UsageException("--client-jit must be tiered, tiered-warmup or c1, got '"
          + v + "'");
    };
  }

  private static io.infx.client.ConnectionReuse parseConnectionReuse(String v) {
    return switch (v.toLowerCase(java.util.Locale.ROOT)) {
      case "auto" -> io.infx.client.ConnectionReuse.AUTO;
      case "always" -> io.infx.client.ConnectionReuse.ALWAYS;
      case "never" -> io.infx.client.ConnectionReuse.NEVER;
      default -> throw new UsageException("--connection-reuse " + v + ": expected auto, always or never");
    };
  }

  static boolean parseInputLenBasis(String basis) {
    return switch (basis) {
      case "server" -> true;
      case "client" -> false;
      default -> throw new UsageException("--random-input-len-basis must be server or client, got '"
          + basis + "'");
    };
  }
}
