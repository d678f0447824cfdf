package io.infx.client;

import io.infx.client.chat.ChatTemplate;
import io.infx.client.chat.PromptTemplate;
import io.infx.client.dataset.JsonlDataset;
import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.load.LoadModel;
import io.infx.client.load.OpenLoop;
import io.infx.client.tokenizer.Tokenizers;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.core.InfxException;
import io.infx.core.InfxStyle;
import io.infx.core.UsageException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
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
   * (at most 5 s); 0 turns it off.
   */
  @Value.Default
  public int clientWarmup() {
    return 2000;
  }

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
   */
  public record Outcome(ServeResult result, ServeMetrics metrics, Optional<Path> rawFile,
      Optional<String> gateFailure) {
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
   * Runs the job.
   *
   * @param out receives the summary table
   * @param err receives the progress bar and notes
   * @throws UsageException for bad flags, {@link InfxException} for unusable inputs
   */
  public Outcome run(PrintWriter out, PrintWriter err) {
    String endpoint = endpoint().orElse(backend().api().defaultEndpoint());
    if (numPrompts() < 1) {
      throw new UsageException("--num-prompts must be ≥ 1, got " + numPrompts());
    }
    LoadModel load = loadModel();
    if (dsv4() && !useChatTemplate()) {
      throw new UsageException("--dsv4 requires --use-chat-template to be set.");
    }
    ServeBenchmark.checkEndpoint(backend(), endpoint);
    if (saveResult()) {
      // before any traffic: a multi-hour run must not end in an unwritable directory
      resultFilename().ifPresent(ServeJob::requireFileName);
      io.infx.core.io.OutputPreflight.check(resultDir().orElse(Path.of("")), "--result-dir");
    }
    histogramLog().ifPresent(h -> io.infx.core.io.OutputPreflight.check(
        h.toAbsolutePath().getParent(), "the --hlog directory"));
    requireReachable(base());
    warnAboutFileDescriptors(load, err);
    io.infx.core.provenance.ServerProvenance server = ServerProbe.probe(base(), apiKey());
    err.println("infx: server: " + server.label() + " (identified by " + server.source() + ")");
    Tokenizers.Resolved tok = Tokenizers.resolve(tokenizer(), model(), base());
    try (Tokenizer t = tok.tokenizer()) {
      if (!tok.note().isEmpty()) {
        err.println("infx: " + tok.note());
      }
      PromptTemplate template = useChatTemplate() ? promptTemplate() : null;
      if (template != null) {
        if (datasetName().equals("random")) {
          err.println("infx: chat template: " + template.description() + " ("
              + RandomDataset.templateTokens(t, template) + " tokens of its own, taken off"
              + " --random-input-len as the reference does)");
        } else {
          err.println("infx: note: --use-chat-template applies to the random dataset only (as in"
              + " the reference); " + datasetName() + " prompts are sent as they are");
        }
      }
      List<Prompt> prompts = switch (datasetName()) {
        case "random" -> RandomDataset.generate(t, randomInputLen(), randomOutputLen(),
            randomRangeRatio(), randomPrefixLen(), numPrompts(), seed(), template);
        case "jsonl" -> JsonlDataset.read(datasetPath().orElseThrow(() ->
            new UsageException("--dataset-name jsonl needs --dataset-path FILE")), t,
            randomOutputLen(), numPrompts());
        default -> throw new UsageException("unknown dataset '" + datasetName()
            + "' (supported: random, jsonl)");
      };
      ImmutableClientOptions.Builder co = ClientOptions.builder().baseUri(base()).http2(http2())
          .connectionReuse(connectionReuse())
          .deadlines(deadlines()).fallbackTokenizer(t).maxSseEventBytes(maxSseEventBytes())
          // texts are only saved with --save-detailed; without it they are counted and dropped
          .retainText(saveDetailed());
      apiKey().ifPresent(co::apiKey);
      ioThreads().ifPresent(co::ioThreads);
      ProgressBar bar = progress() ? new ProgressBar(err) : null;
      ServeBenchmark bench = ServeBenchmark.builder()
          .client(co.build()).backend(backend()).endpoint(endpoint)
          .model(servedModelName().orElse(model())).prompts(prompts).load(load)
          .warmups(numWarmups()).clientWarmup(clientWarmup()).body(body()).seed(seed())
          .profile(profile())
          .stop(stop()).stopGrace(stopGrace())
          .progress(Optional.ofNullable(bar == null ? null : (ServeBenchmark.ProgressListener) bar::update))
          .build();
      ServeResult run = bench.run();
      if (bar != null) {
        bar.finish();
      }
      for (String note : run.notes()) {
        err.println("infx: warning: " + note);
      }
      if (profile() && run.notes().isEmpty()) {
        err.println("infx: profiler started after the warm-ups and stopped after the measured phase");
      }
      ServeMetrics m = run.metrics(metrics());
      if (run.incomplete()) {
        err.println("infx: interrupted by " + run.interruption().orElse("a stop request") + ": "
            + m.completed() + " completed, " + m.failed() + " failed, " + m.cancelled()
            + " cancelled, " + m.notSent() + " not sent; the result is marked incomplete");
      }
      Summary.print(out, run, m, metrics());
      Optional<Path> file = Optional.empty();
      if (saveResult()) {
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
        if (template != null) {
          workload.put("chat_template", template.description());
        }
        workload.put("tokenizer", t.id());
        workload.put("token_count_note", "input_lens from the client tokenizer; output from usage");
        Map<String, Object> raw = RawResult.build(run, m, metrics(), new RawResult.Context(
            model(), tokenizer().orElse(model()), metadata(), saveDetailed(), workload,
            Optional.of(server)));
        Path dir = resultDir().orElse(Path.of(""));
        Path f = dir.resolve(resultFilename().orElseGet(() -> defaultFileName(load)));
        RawResult.write(f, raw);
        file = Optional.of(f);
      }
      histogramLog().ifPresent(run::writeHistogramLog);
      double failureRate = 1.0 - (double) m.completed() / m.requested();
      Optional<String> gate = Optional.empty();
      if (failureRate > 0.05) {
        gate = Optional.of(String.format(java.util.Locale.ROOT,
            "FAIL: request failure rate %.1f%% exceeds 5%% threshold (%d/%d completed)",
            failureRate * 100, m.completed(), m.requested()));
      } else if (m.inputLengthCheck().verdict() == InputLengthCheck.Verdict.FAIL) {
        gate = Optional.of(String.format(java.util.Locale.ROOT,
            "FAIL: input lengths: %s (threshold %.0f%%)", m.inputLengthCheck().message(),
            InputLengthCheck.FAIL_DEVIATION * 100));
      }
      return new Outcome(run, m, file, gate);
    }
  }

  /** {@code --result-filename} must name a file in {@code --result-dir}, not a path elsewhere. */
  private static void requireFileName(String name) {
    Path p = Path.of(name).getFileName();
    io.infx.core.io.FileNames.problem(p == null ? "" : p.toString()).ifPresent(problem -> {
      throw new UsageException("--result-filename '" + name + "' " + problem);
    });
  }

  /**
   * Each in-flight request holds a socket: a limit ({@code ulimit -n}) below the concurrency
   * plus a margin for the JVM's own files makes requests fail mid-run, so say so up front.
   */
  static void warnAboutFileDescriptors(LoadModel load, PrintWriter err) {
    int conc = load.maxConcurrency().orElse(Integer.MAX_VALUE);
    long max = maxFileDescriptors();
    if (max > 0 && conc != Integer.MAX_VALUE && conc + 256L > max) {
      err.println("infx: warning: the open-file limit is " + max + " but up to " + conc
          + " requests will be in flight, each with a socket; raise it (ulimit -n "
          + (conc + 1024L) + ") or requests will fail with 'Too many open files'");
    }
  }

  private static long maxFileDescriptors() {
    java.lang.management.OperatingSystemMXBean os =
        java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean u) {
      return u.getMaxFileDescriptorCount();
    }
    return -1;
  }

  /**
   * The chat framing for {@code --use-chat-template}: the DeepSeek-V4 encoder with {@code --dsv4},
   * else the template of {@code --chat-template}, else of the tokenizer's directory.
   */
  PromptTemplate promptTemplate() {
    if (dsv4()) {
      return PromptTemplate.deepSeekV4();
    }
    if (chatTemplate().isPresent()) {
      return PromptTemplate.chat(ChatTemplate.load(chatTemplate().get()));
    }
    String source = tokenizer().orElse(model());
    Optional<Path> tokJson = source.equals("builtin") ? Optional.empty() : Tokenizers.locate(source);
    if (tokJson.isEmpty()) {
      throw new UsageException("--use-chat-template needs the model's chat template, and tokenizer '"
          + source + "' has no directory to take it from; pass --chat-template FILE (a .jinja file,"
          + " a tokenizer_config.json or a directory holding one)");
    }
    return PromptTemplate.chat(ChatTemplate.load(tokJson.get().toAbsolutePath().getParent()));
  }

  /** Fails fast, before prompts are built, when nothing listens at the server's address. */
  private static void requireReachable(java.net.URI base) {
    int port = base.getPort() != -1 ? base.getPort() : "https".equals(base.getScheme()) ? 443 : 80;
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new java.net.InetSocketAddress(base.getHost(), port), 10_000);
    } catch (java.io.IOException e) {
      throw new InfxException("connect", "cannot connect to " + base + ": " + e.getMessage()
          + " (is the server running?)", e);
    }
  }

  LoadModel loadModel() {
    if (!(burstiness() > 0) || Double.isInfinite(burstiness())) {
      throw new UsageException("--burstiness must be a finite number > 0 (the gamma shape), got "
          + burstiness());
    }
    double rate = requestRate();
    if (!(rate > 0)) {
      throw new UsageException("--request-rate must be > 0 or inf, got " + rate);
    }
    if (Double.isInfinite(rate)) {
      return LoadModel.closed(maxConcurrency().orElse(numPrompts()));
    }
    OpenLoop o = constantArrivals() ? LoadModel.constant(rate)
        : LoadModel.gamma(rate, burstiness());
    return maxConcurrency().isPresent() ? o.withCeiling(maxConcurrency().getAsInt()) : o;
  }

  private String defaultFileName(LoadModel load) {
    String rate = Double.isInfinite(requestRate()) ? "inf" : trimDouble(requestRate());
    String conc = maxConcurrency().isPresent() ? "-concurrency" + maxConcurrency().getAsInt() : "";
    String base = model().contains("/") ? model().substring(model().lastIndexOf('/') + 1) : model();
    String date = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
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
