package io.infx.client;

import static io.infx.core.Wording.setting;

import io.infx.client.chat.ChatTemplate;
import io.infx.client.chat.PromptTemplate;
import io.infx.client.dataset.JsonlDataset;
import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.load.LoadModel;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.client.tokenizer.Tokenizers;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import io.infx.core.io.OutputPreflight;
import io.infx.core.provenance.ServerProvenance;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Runs a {@link ServeJob} (the specification): every step that touches a file, the network or the
 * terminal lives here, in the reference's order — flag checks and output preflight before any
 * traffic, reachability, server probe, tokenizer and chat template, dataset, the benchmark,
 * summary, raw result, histogram log, failure gate.
 */
final class ServeRunner {

  private final ServeJob job;
  private final ServeListener listener;
  /** The interval histograms kept for {@code --hlog-interval}; null without it. */
  private HistogramLogIntervals hlogIntervals;

  ServeRunner(ServeJob job, ServeListener listener) {
    this.job = job;
    this.listener = listener;
  }

  ServeJob.Outcome run() {
    LoadModel load = job.checkedLoad();
    preflightOutputs();
    URI base = job.base();
    requireReachable(base);
    fileDescriptorWarning(load).ifPresent(listener::warning);
    ServerProvenance server = ServerProbe.probe(base, job.apiKey());
    listener.note("server: " + server.label() + " (identified by " + server.source() + ")");
    Tokenizers.Resolved tok = Tokenizers.resolve(job.tokenizer(), job.model(), base);
    try (Tokenizer t = tok.tokenizer()) {
      if (!tok.note().isEmpty()) {
        listener.note(tok.note());
      }
      PromptTemplate template = job.useChatTemplate() ? promptTemplate() : null;
      if (template != null) {
        describe(template, t);
      }
      // what the server counts on top of a prompt (BOS, its chat template), asked at start-up
      PromptFramingProbe.Framing framing = PromptFramingProbe.probe(base, job.apiKey(),
          job.servedModelName().orElse(job.model()));
      boolean chatApi = job.backend().api() == ServingBackend.Api.CHAT;
      // on Completions a random prompt's length counts the server's special tokens, so the
      // server counts exactly --random-input-len (the reference builds the full length and the
      // server adds its BOS on top)
      int serverAdded = !chatApi && job.datasetName().equals("random")
          && job.randomInputLenCountsServerTokens() ? framing.specialTokens().orElse(0) : 0;
      OptionalInt expectedFraming = chatApi ? framing.chatTokens()
          : serverAdded > 0 ? OptionalInt.of(0) : framing.specialTokens();
      if (framing.specialTokens().isPresent() || framing.chatTokens().isPresent()) {
        listener.note("server framing (" + framing.source() + "): "
            + (chatApi ? framing.chatTokens().orElse(-1) + " chat-template token(s) per request"
                : framing.specialTokens().orElse(0) + " special token(s) per prompt"
                    + (serverAdded > 0 ? ", counted in --random-input-len" : "")));
      }
      List<Prompt> prompts = prompts(t, template, serverAdded);
      ServeResult run = benchmark(load, prompts, t, expectedFraming);
      ServeMetrics m = run.metrics(job.metrics());
      if (run.incomplete()) {
        listener.note("interrupted by " + run.interruption().orElse("a stop request") + ": "
            + m.completed() + " completed, " + m.failed() + " failed, " + m.cancelled()
            + " cancelled, " + m.notSent() + " not sent; the result is marked incomplete");
      }
      java.io.StringWriter table = new java.io.StringWriter();
      try (PrintWriter tableOut = new PrintWriter(table)) {
        Summary.print(tableOut, run, m, job.metrics());
      }
      listener.summary(table.toString());
      Optional<Path> file = Optional.empty();
      if (job.saveResult()) {
        Map<String, Object> workload = job.workload(
            template == null ? null : template.description(), t.id());
        if (job.datasetName().equals("random")) {
          workload.put("random_input_len_server_special_tokens", serverAdded);
        }
        if (serverAdded > 0) {
          workload.put("token_count_note", "input_lens from the client tokenizer plus the"
              + " server's " + serverAdded + " special token(s); output from usage");
        }
        Map<String, Object> raw = RawResult.build(run, m, job.metrics(), new RawResult.Context(
            job.model(), job.tokenizer().orElse(job.model()), job.metadata(), job.saveDetailed(),
            workload, Optional.of(server)));
        Path f = job.resultFile(LocalDateTime.now());
        RawResult.write(f, raw);
        file = Optional.of(f);
      }
      job.histogramLog().ifPresent(f -> run.writeHistogramLog(f,
          hlogIntervals == null ? List.of() : hlogIntervals.entries()));
      return new ServeJob.Outcome(run, m, file, gate(m.completed(), m.requested(), m.inputLengthCheck()),
          job.model(), job.metrics(), Optional.of(server));
    }
  }

  /** Before any traffic: a multi-hour run must not end in an unwritable directory. */
  private void preflightOutputs() {
    if (job.saveResult()) {
      OutputPreflight.check(job.resultDir().orElse(Path.of("")), Wording.of(setting("resultDir")));
    }
    job.histogramLog().ifPresent(h -> OutputPreflight.check(
        h.toAbsolutePath().getParent(), Wording.of("the ", setting("histogramLog"), " directory")));
  }

  private void describe(PromptTemplate template, Tokenizer t) {
    if (job.datasetName().equals("random")) {
      listener.note("chat template: " + template.description() + " ("
          + RandomDataset.templateTokens(t, template) + " tokens of its own, taken off"
          + " --random-input-len as the reference does)");
    } else {
      listener.note("note: --use-chat-template applies to the random dataset only (as in"
          + " the reference); " + job.datasetName() + " prompts are sent as they are");
    }
  }

  private List<Prompt> prompts(Tokenizer t, PromptTemplate template, int serverAdded) {
    return switch (job.datasetName()) {
      case "random" -> RandomDataset.generate(t, job.randomInputLen(), job.randomOutputLen(),
          job.randomRangeRatio(), job.randomPrefixLen(), job.numPrompts(), job.seed(), template,
          serverAdded);
      case "jsonl" -> JsonlDataset.read(job.datasetPath().orElseThrow(() ->
          new UsageException(Wording.of(setting("datasetName"), " jsonl needs ", setting("datasetPath"), " FILE"))), t,
          job.randomOutputLen(), job.numPrompts());
      default -> throw new UsageException("unknown dataset '" + job.datasetName()
          + "' (supported: random, jsonl)");
    };
  }

  /**
   * The run's interval reporting: the job's listener, with the {@code --hlog-interval} log
   * keeping each interval first when both are asked for (checked equal by
   * {@link ServeJob#checkedLoad()}).
   */
  private Optional<io.infx.client.metrics.IntervalReporting> intervals() {
    if (job.histogramLog().isEmpty() || job.histogramLogInterval().isEmpty()) {
      return job.intervals();
    }
    hlogIntervals = new HistogramLogIntervals(
        job.intervals().map(io.infx.client.metrics.IntervalReporting::listener).orElse(null));
    return Optional.of(io.infx.client.metrics.IntervalReporting.every(
        job.histogramLogInterval().get(), hlogIntervals));
  }

  private ServeResult benchmark(LoadModel load, List<Prompt> prompts, Tokenizer t,
      OptionalInt expectedFraming) {
    ImmutableClientOptions.Builder co = ClientOptions.builder().baseUri(job.base())
        .http2(job.http2()).connectionReuse(job.connectionReuse()).deadlines(job.deadlines())
        .fallbackTokenizer(t).maxSseEventBytes(job.maxSseEventBytes())
        // texts are only saved with --save-detailed; without it they are counted and dropped
        .retainText(job.saveDetailed());
    job.apiKey().ifPresent(co::apiKey);
    job.ioThreads().ifPresent(co::ioThreads);
    ClientOptions options = co.build();
    IoThreads io = options.ioThreadChoice();
    if (io.reason() == IoThreads.Reason.LOOPBACK_SERVER) {
      listener.note("I/O threads: " + io.count() + " (" + io.reason().text() + ")");
    }
    // after the prompts are built (the tokenizer keeps its C2 code), before the client's warm-up
    ClientJit.Choice jit = ClientJit.apply(ClientJit.choose(job.clientJit(), job.base()));
    if (jit.mode() == ClientJit.Mode.C1) {
      listener.note("client JIT: C1 only (" + jit.reason() + ")");
    } else if (jit.mode() == ClientJit.Mode.TIERED_WARMUP) {
      listener.note("client JIT: tiered during the client warm-up, then C1 only (" + jit.reason() + ")");
    }
    ServeBenchmark bench = ServeBenchmark.builder()
        .client(options).backend(job.backend()).endpoint(job.endpointPath())
        .model(job.servedModelName().orElse(job.model())).prompts(prompts).load(load)
        .expectedFraming(expectedFraming)
        .warmups(job.numWarmups()).clientWarmup(job.clientWarmup()).body(job.body())
        .seed(job.seed()).profile(job.profile())
        .stop(job.stop()).stopGrace(job.stopGrace()).intervals(intervals())
        .progress(job.progress() ? Optional.<ServeBenchmark.ProgressListener>of(listener::progress) : Optional.empty())
        .build();
    ServeResult run = bench.run();
    for (String note : run.notes()) {
      listener.warning(note);
    }
    if (job.profile() && run.notes().isEmpty()) {
      listener.note("profiler started after the warm-ups and stopped after the measured phase");
    }
    return run;
  }

  /**
   * The reference's failure gate (more than 5 % of the requests failed), then infx's input-length
   * check; empty when the run passes.
   */
  static Optional<String> gate(int completed, int requested, InputLengthCheck inputLengths) {
    double failureRate = 1.0 - (double) completed / requested;
    if (failureRate > 0.05) {
      return Optional.of(String.format(Locale.ROOT,
          "FAIL: request failure rate %.1f%% exceeds 5%% threshold (%d/%d completed)",
          failureRate * 100, completed, requested));
    }
    if (inputLengths.verdict() == InputLengthCheck.Verdict.FAIL) {
      return Optional.of(String.format(Locale.ROOT,
          "FAIL: input lengths: %s (threshold %.0f%%)", inputLengths.message(),
          InputLengthCheck.FAIL_DEVIATION * 100));
    }
    return Optional.empty();
  }

  /**
   * Each in-flight request holds a socket: a limit ({@code ulimit -n}) below the concurrency
   * plus a margin for the JVM's own files makes requests fail mid-run, so say so up front.
   */
  static Optional<String> fileDescriptorWarning(LoadModel load) {
    int conc = load.maxConcurrency().orElse(Integer.MAX_VALUE);
    long max = maxFileDescriptors();
    if (max > 0 && conc != Integer.MAX_VALUE && conc + 256L > max) {
      return Optional.of("the open-file limit is " + max + " but up to " + conc
          + " requests will be in flight, each with a socket; raise it (ulimit -n "
          + (conc + 1024L) + ") or requests will fail with 'Too many open files'");
    }
    return Optional.empty();
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
  private PromptTemplate promptTemplate() {
    if (job.dsv4()) {
      return PromptTemplate.deepSeekV4();
    }
    if (job.chatTemplate().isPresent()) {
      return PromptTemplate.chat(ChatTemplate.load(job.chatTemplate().get()));
    }
    String source = job.tokenizer().orElse(job.model());
    Optional<Path> tokJson = source.equals("builtin") ? Optional.empty() : Tokenizers.locate(source);
    if (tokJson.isEmpty()) {
      throw new UsageException(Wording.of(setting("useChatTemplate"), " needs the model's chat template,"
          + " and tokenizer '" + source + "' has no directory to take it from; pass ",
          setting("chatTemplate"), " FILE (a .jinja file, a tokenizer_config.json or a directory holding one)"));
    }
    return PromptTemplate.chat(ChatTemplate.load(tokJson.get().toAbsolutePath().getParent()));
  }

  /** Fails fast, before prompts are built, when nothing listens at the server's address. */
  private static void requireReachable(URI base) {
    int port = base.getPort() != -1 ? base.getPort() : "https".equals(base.getScheme()) ? 443 : 80;
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(base.getHost(), port), 10_000);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.CONNECT, "cannot connect to " + base + ": " + e.getMessage()
          + " (is the server running?)", e);
    }
  }
}
