package io.infx.client;

import static io.infx.core.Wording.setting;

import io.infx.client.load.LoadModel;
import io.infx.client.load.OpenLoop;
import io.infx.core.InfxException;
import io.infx.core.InfxStyle;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.immutables.value.Value;

/**
 * One {@code benchmark_serving}-style run as InferenceX invokes it (client spec §1 and §7): build
 * the dataset, run warm-ups and the measured phase, print the summary, save the raw result and
 * apply the 5 % failure gate. {@code infx bench serve} maps its flags onto this type, and the
 * fleet's local adapter runs it in-process.
 */
@Value.Immutable
@InfxStyle
public abstract class ServeJob {

  public abstract ServingBackend backend();

  /** {@code --base-url}; when absent, {@code http://<host>:<port>}. */
  public abstract Optional<URI> baseUrl();

  @Value.Default
  public String host() {
    return "127.0.0.1";
  }

  @Value.Default
  public int port() {
    return 8000;
  }

  /** {@code --endpoint}; default: the backend's API path. */
  public abstract Optional<String> endpoint();

  /** {@code --model}: recorded as {@code model_id}. */
  public abstract String model();

  /** {@code --served-model-name}: the {@code model} field sent; default {@link #model()}. */
  public abstract Optional<String> servedModelName();

  /** {@code --tokenizer}: {@code builtin}, a {@code tokenizer.json}, a directory or a model id. */
  public abstract Optional<String> tokenizer();

  /** {@code random} (default) or {@code jsonl}. */
  @Value.Default
  public String datasetName() {
    return "random";
  }

  public abstract Optional<Path> datasetPath();

  @Value.Default
  public int numPrompts() {
    return 1000;
  }

  @Value.Default
  public int randomInputLen() {
    return 1024;
  }

  @Value.Default
  public int randomOutputLen() {
    return 128;
  }

  @Value.Default
  public double randomRangeRatio() {
    return 1.0;
  }

  @Value.Default
  public int randomPrefixLen() {
    return 0;
  }

  /**
   * {@code --random-input-len-basis server} (default, true): on Completions the special tokens the
   * server adds to every prompt (its BOS, measured through {@code /tokenize} by
   * {@link PromptFramingProbe}) count toward {@code --random-input-len}, so the server counts
   * exactly the drawn length; {@code client} (false): the reference's construction, the text alone
   * is that long and the server adds its BOS on top.
   */
  @Value.Default
  public boolean randomInputLenCountsServerTokens() {
    return true;
  }

  @Value.Default
  public long seed() {
    return 0;
  }

  /**
   * {@code --use-chat-template}: wrap each random prompt in the model's chat template, as the
   * reference does (random dataset only; the template's own tokens are taken off the input length).
   */
  @Value.Default
  public boolean useChatTemplate() {
    return false;
  }

  /** {@code --dsv4}: the DeepSeek-V4 encoder instead of a Jinja template; needs {@link #useChatTemplate()}. */
  @Value.Default
  public boolean dsv4() {
    return false;
  }

  /**
   * {@code --chat-template} (infx extension): a {@code .jinja} file, a {@code tokenizer_config.json}
   * or a directory to take the chat template from; default: the tokenizer's directory.
   */
  public abstract Optional<Path> chatTemplate();

  /** {@code --request-rate}; infinity (default) releases all requests at once. */
  @Value.Default
  public double requestRate() {
    return Double.POSITIVE_INFINITY;
  }

  @Value.Default
  public double burstiness() {
    return 1.0;
  }

  /** Evenly spaced arrivals instead of gamma/Poisson (infx extension). */
  @Value.Default
  public boolean constantArrivals() {
    return false;
  }

  public abstract OptionalInt maxConcurrency();

  @Value.Default
  public int numWarmups() {
    return 0;
  }

  /**
   * Requests of the client's own JIT warm-up against an in-process canned server before the run
   * ({@link ServeBenchmark#clientWarmup()}; nothing reaches the benchmarked server). Default 2,000
   * (at most 5 s of requests, then up to 10 s for the JIT to go quiet); 0 turns it off.
   */
  @Value.Default
  public int clientWarmup() {
    return 2000;
  }

  /**
   * {@code --client-jit}: the JIT compilers for the client's code; empty = {@link ClientJit#choose}'s
   * default (C1 only when the server is on loopback, else the JVM's tiered compilation).
   */
  public abstract Optional<ClientJit.Mode> clientJit();

  @Value.Default
  public BodyOptions body() {
    return BodyOptions.defaults();
  }

  @Value.Default
  public MetricOptions metrics() {
    return MetricOptions.defaults();
  }

  @Value.Default
  public boolean saveResult() {
    return false;
  }

  @Value.Default
  public boolean saveDetailed() {
    return false;
  }

  public abstract Optional<Path> resultDir();

  public abstract Optional<String> resultFilename();

  /** Where to write the run's HdrHistogram log ({@code .hlog}), if anywhere. */
  public abstract Optional<Path> histogramLog();

  /**
   * {@code --hlog-interval}: with {@link #histogramLog()}, TTFT/TPOT/ITL/E2EL go into the log as
   * one histogram per interval of this length (each stamped with its start and end; their merge
   * is the whole run) instead of one per run. At least 1 ms; equal to
   * {@link #intervals()}'s when both are set. Default: one whole-run histogram per metric.
   */
  public abstract Optional<Duration> histogramLogInterval();

  /** {@code --metadata KEY=VALUE} pairs, in order. */
  public abstract Map<String, String> metadata();

  public abstract Optional<String> apiKey();

  @Value.Default
  public boolean http2() {
    return false;
  }

  /** HTTP/1.1 connection reuse ({@code --connection-reuse}); AUTO by default. */
  @Value.Default
  public ConnectionReuse connectionReuse() {
    return ConnectionReuse.AUTO;
  }

  @Value.Default
  public Deadlines deadlines() {
    return Deadlines.defaults();
  }

  /** {@code --io-threads}: client I/O threads; empty = {@link IoThreads#choose}'s default. */
  public abstract OptionalInt ioThreads();

  /** {@code --max-sse-event-bytes}: see {@link ClientOptions#maxSseEventBytes()}. */
  @Value.Default
  public int maxSseEventBytes() {
    return io.infx.client.sse.SseParser.DEFAULT_MAX_EVENT_BYTES;
  }

  /** Show the progress bar on stderr. */
  @Value.Default
  public boolean progress() {
    return true;
  }

  /** {@code --profile}: profile the measured phase (see {@link ServeBenchmark#profile()}). */
  @Value.Default
  public boolean profile() {
    return false;
  }

  /**
   * Interval histograms during the measured phase; see {@link ServeBenchmark#intervals()}.
   * Default: none.
   */
  @Value.Auxiliary
  public abstract Optional<io.infx.client.metrics.IntervalReporting> intervals();

  /** Ends the run early when requested; see {@link ServeBenchmark#stop()}. */
  @Value.Auxiliary
  public abstract Optional<StopSignal> stop();

  /** See {@link ServeBenchmark#stopGrace()}. Default 10 s. */
  @Value.Default
  public Duration stopGrace() {
    return Duration.ofSeconds(10);
  }

  public static ImmutableServeJob.Builder builder() {
    return ImmutableServeJob.builder();
  }

  /**
   * What the run produced.
   *
   * @param result the run and its records
   * @param metrics the statistics
   * @param rawFile where the raw result was written, when saved
   * @param gateFailure the failure-gate message when more than 5 % of the requests failed
   * @param modelId the job's {@code --model}, the raw result's {@code model_id}
   * @param metricOptions the {@code --percentile-metrics} and {@code --metric-percentiles} the
   *     statistics were computed with (the raw result's latency keys)
   * @param server what answered, when the probe identified it (the raw result's {@code infx.server})
   */
  public record Outcome(ServeResult result, ServeMetrics metrics, Optional<Path> rawFile,
      Optional<String> gateFailure, String modelId, MetricOptions metricOptions,
      Optional<io.infx.core.provenance.ServerProvenance> server) {

    /**
     * An outcome without the raw file's identity fields: {@code model_id} is the model requests
     * named, the metric options the defaults, the server unknown.
     */
    public Outcome(ServeResult result, ServeMetrics metrics, Optional<Path> rawFile,
        Optional<String> gateFailure) {
      this(result, metrics, rawFile, gateFailure, result.benchmark().model(), MetricOptions.defaults(),
          Optional.empty());
    }

    /** 0 when the gate passed, 1 otherwise (the reference's exit status). */
    public int exitCode() {
      return gateFailure.isPresent() ? 1 : 0;
    }
  }

  /** The base URL requests go to. */
  public URI base() {
    return baseUrl().orElse(URI.create("http://" + host() + ":" + port()));
  }

  /**
   * Runs the job ({@link ServeRunner}): checks the flags and the output locations before any
   * traffic, builds the dataset, runs the warm-ups and the measured phase, tells {@code listener}
   * what happens (notes, progress, the summary table), saves the raw result when
   * {@link #saveResult()} and applies the failure gate (the outcome's {@link Outcome#gateFailure()};
   * a failed gate is a result, not an exception).
   *
   * @param listener told the notes, warnings, progress and summary of the run
   * @return the result, its statistics and where the raw result was written
   * @throws UsageException for bad settings, {@link InfxException} for unusable inputs (no server,
   *     no tokenizer, an unreadable dataset)
   */
  public Outcome run(ServeListener listener) {
    return new ServeRunner(this, java.util.Objects.requireNonNull(listener, "listener")).run();
  }

  /**
   * Runs the job silently ({@link ServeListener#silent()}): the same as {@link #run(ServeListener)}
   * with nothing printed.
   *
   * @return the result, its statistics and where the raw result was written
   * @throws UsageException for bad settings, {@link InfxException} for unusable inputs
   */
  public Outcome run() {
    return run(ServeListener.silent());
  }

  /**
   * Runs the job as {@code infx bench serve} does ({@link ServeListener#printing}).
   *
   * @param out receives the summary table
   * @param err receives the progress bar (when {@link #progress()}), notes and warnings
   * @return the result, its statistics and where the raw result was written
   * @throws UsageException for bad settings, {@link InfxException} for unusable inputs
   */
  public Outcome run(PrintWriter out, PrintWriter err) {
    return run(ServeListener.printing(out, err));
  }

  /** The path requests are sent to: {@code --endpoint}, else the backend's API path. */
  String endpointPath() {
    return endpoint().orElse(backend().api().defaultEndpoint());
  }

  /**
   * Checks the flags that need no file and no network, in the order the command always checked
   * them, and returns the load model they describe.
   *
   * @throws UsageException naming the setting
   */
  LoadModel checkedLoad() {
    if (numPrompts() < 1) {
      throw new UsageException(Wording.of(setting("numPrompts"), " must be ≥ 1, got " + numPrompts()));
    }
    histogramLogInterval().ifPresent(d -> {
      if (d.compareTo(io.infx.client.metrics.IntervalReporting.MIN_INTERVAL) < 0) {
        throw new UsageException("--hlog-interval must be at least 1 ms, got " + d);
      }
      intervals().filter(i -> !i.every().equals(d)).ifPresent(i -> {
        throw new UsageException("--hlog-interval " + d + " differs from the interval listener's "
            + i.every() + ": one run has one interval length");
      });
    });
    LoadModel load = loadModel();
    if (dsv4() && !useChatTemplate()) {
      throw new UsageException(Wording.of(setting("dsv4"), " requires ", setting("useChatTemplate"), " to be set."));
    }
    ServeBenchmark.checkEndpoint(backend(), endpointPath());
    if (saveResult()) {
      resultFilename().ifPresent(ServeJob::requireFileName);
    }
    return load;
  }

  /** {@code --result-filename} must name a file in {@code --result-dir}, not a path elsewhere. */
  private static void requireFileName(String name) {
    Path p = Path.of(name).getFileName();
    io.infx.core.io.FileNames.problem(p == null ? "" : p.toString()).ifPresent(problem -> {
      throw new UsageException(Wording.of(setting("resultFilename"), " '" + name + "' " + problem));
    });
  }

  /**
   * The {@code workload} block of the raw result: the dataset's flags as given.
   *
   * @param templateDescription the chat template used, or {@code null} for none
   * @param tokenizerId the client tokenizer's id
   */
  Map<String, Object> workload(String templateDescription, String tokenizerId) {
    Map<String, Object> workload = new LinkedHashMap<>();
    workload.put("dataset", datasetName());
    if (datasetName().equals("random")) {
      workload.put("random_input_len", randomInputLen());
      workload.put("random_output_len", randomOutputLen());
      workload.put("random_range_ratio", randomRangeRatio());
      workload.put("random_prefix_len", randomPrefixLen());
    } else {
      workload.put("dataset_path", datasetPath().map(Path::toString).orElse(""));
    }
    workload.put("seed", seed());
    if (templateDescription != null) {
      workload.put("chat_template", templateDescription);
    }
    workload.put("tokenizer", tokenizerId);
    workload.put("token_count_note", "input_lens from the client tokenizer; output from usage");
    return workload;
  }

  /**
   * Where the raw result goes: {@code --result-dir}/{@code --result-filename}, else the
   * reference's name {@code <backend>-<rate>qps[-concurrency<N>]-<model basename>-<yyyyMMdd-HHmmss>.json}.
   *
   * @param startedAt the local time stamped into a default name
   */
  Path resultFile(LocalDateTime startedAt) {
    Path dir = resultDir().orElse(Path.of(""));
    return dir.resolve(resultFilename().orElseGet(() -> defaultFileName(startedAt)));
  }

  /**
   * The load model of {@code --request-rate}, {@code --burstiness}, {@code --constant-arrivals} and
   * {@code --max-concurrency}.
   *
   * @throws UsageException for a rate that is not {@code > 0} or a burstiness that is not finite {@code > 0}
   */
  LoadModel loadModel() {
    if (!(burstiness() > 0) || Double.isInfinite(burstiness())) {
      throw new UsageException(Wording.of(setting("burstiness"),
          " must be a finite number > 0 (the gamma shape), got " + burstiness()));
    }
    double rate = requestRate();
    if (!(rate > 0)) {
      throw new UsageException(Wording.of(setting("requestRate"), " must be > 0 or inf, got " + rate));
    }
    if (Double.isInfinite(rate)) {
      return LoadModel.closed(maxConcurrency().orElse(numPrompts()));
    }
    OpenLoop o = constantArrivals() ? LoadModel.constant(rate)
        : LoadModel.gamma(rate, burstiness());
    return maxConcurrency().isPresent() ? o.withCeiling(maxConcurrency().getAsInt()) : o;
  }

  private String defaultFileName(LocalDateTime startedAt) {
    String rate = Double.isInfinite(requestRate()) ? "inf" : trimDouble(requestRate());
    String conc = maxConcurrency().isPresent() ? "-concurrency" + maxConcurrency().getAsInt() : "";
    String base = model().contains("/") ? model().substring(model().lastIndexOf('/') + 1) : model();
    String date = startedAt.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    return backend().cliName() + "-" + rate + "qps" + conc + "-" + base + "-" + date + ".json";
  }

  private static String trimDouble(double d) {
    return io.infx.core.python.PythonRepr.floatRepr(d);
  }

  /** Deadlines of a Python-like run: the reference has only a 6 h total timeout. */
  public static Deadlines referenceDeadlines() {
    return Deadlines.builder().total(Duration.ofHours(6)).build();
  }
}
