package io.infx.client;

import io.infx.client.dataset.Prompt;
import io.infx.client.load.ClosedLoop;
import io.infx.client.load.OpenLoop;
import io.infx.client.metrics.LatencyStats;
import io.infx.client.metrics.SampleStats;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The raw result file of a serve run: exactly the reference client's keys, order and JSON types
 * (client spec §6.1, including the {@code "request_goodput:"} key with its trailing colon and the
 * newer {@code benchmark_outcome}), so existing normalizers accept it, followed by one extra object
 * {@code "infx"} with the workload settings, accounting, failure classes and infx's additional
 * metric views and, when known, {@code infx.server}: the engine that answered ({@link
 * io.infx.core.provenance.ServerProvenance}). Latency statistics are in ms; the {@code infx} object's keys never end in
 * {@code ms} at the top level nor contain {@code tpot}, so the reference normalizer's generic key
 * rules ignore it.
 */
public final class RawResult {

  /** The schema tag of the {@code infx} extension object. */
  public static final String SCHEMA = "infx.serve.raw/1";

  private RawResult() {}

  /**
   * Identity fields and options of the raw file that the run itself does not know.
   *
   * @param modelId {@code model_id} ({@code --model})
   * @param tokenizerId {@code tokenizer_id} ({@code --tokenizer} or the model)
   * @param metadata {@code --metadata} pairs, inserted after {@code num_prompts}
   * @param saveDetailed add {@code ttfts}, {@code itls}, {@code generated_texts}, {@code errors}
   * @param workload settings recorded under {@code infx.workload} (dataset, lengths, seed, ...)
   */
  public record Context(String modelId, String tokenizerId, Map<String, String> metadata,
      boolean saveDetailed, Map<String, Object> workload,
      Optional<io.infx.core.provenance.ServerProvenance> server) {

    /** A context without server provenance (the raw file then has no {@code infx.server}). */
    public Context(String modelId, String tokenizerId, Map<String, String> metadata,
        boolean saveDetailed, Map<String, Object> workload) {
      this(modelId, tokenizerId, metadata, saveDetailed, workload, Optional.empty());
    }
  }

  /** Builds the ordered raw-result object. */
  public static Map<String, Object> build(ServeResult run, ServeMetrics m, MetricOptions mo,
      Context ctx) {
    ServeBenchmark b = run.benchmark();
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("date", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    o.put("backend", b.backend().cliName());
    o.put("model_id", ctx.modelId());
    o.put("tokenizer_id", ctx.tokenizerId());
    o.put("best_of", b.body().bestOf());
    o.put("num_prompts", m.requested());
    ctx.metadata().forEach(o::put);
    double rate = b.load() instanceof OpenLoop ol ? ol.rate() : Double.POSITIVE_INFINITY;
    o.put("request_rate", Double.isInfinite(rate) ? "inf" : (Object) rate);
    o.put("burstiness", b.load() instanceof OpenLoop ol ? ol.burstiness() : 1.0);
    OptionalInt mc = b.load().maxConcurrency();
    o.put("max_concurrency", mc.isPresent() ? (Object) mc.getAsInt() : null);
    o.put("duration", m.durationSeconds());
    o.put("benchmark_start_time_unix", run.startUnixSeconds());
    o.put("benchmark_end_time_unix", run.endUnixSeconds());
    o.put("completed", m.completed());
    o.put("total_input_tokens", m.totalInputTokens());
    o.put("total_output_tokens", m.totalOutputTokens());
    o.put("request_throughput", m.requestThroughput());
    o.put("request_goodput:", m.requestGoodput().isPresent() ? (Object) m.requestGoodput().getAsDouble() : null);
    o.put("output_throughput", m.outputThroughput());
    o.put("total_token_throughput", m.totalTokenThroughput());
    o.put("input_lens", m.inputLens());
    o.put("output_lens", m.outputLens());
    if (ctx.saveDetailed()) {
      o.put("ttfts", m.ttftsSeconds());
      o.put("itls", m.itlsView());
      o.put("generated_texts", m.generatedTexts());
      o.put("errors", m.errors());
    }
    o.putAll(latencyFields(m, mo));
    o.put("benchmark_outcome", outcome(m));
    o.put("infx", extension(run, m, mo, ctx));
    return o;
  }

  /**
   * The latency keys of the raw result, in file order: per metric group of {@code
   * --percentile-metrics} (reference order ttft, tpot, itl, e2el) {@code mean_<m>_ms},
   * {@code median_<m>_ms}, {@code std_<m>_ms} and {@code p<P>_<m>_ms} for each of {@code
   * --metric-percentiles}; values in milliseconds, {@code 0.0} for a group without samples (as the
   * reference writes it). The one home of these names: the raw file and the typed normalizer
   * ({@code io.infx.results.Normalizer#normalize(ServeJob.Outcome, …)}) both read them from here.
   */
  public static Map<String, Double> latencyFields(ServeMetrics m, MetricOptions mo) {
    Map<String, Double> o = new LinkedHashMap<>();
    for (String metric : List.of("ttft", "tpot", "itl", "e2el")) {
      if (!mo.percentileMetrics().contains(metric)) {
        continue;
      }
      LatencyStats s = switch (metric) {
        case "ttft" -> m.ttft();
        case "tpot" -> m.tpot();
        case "itl" -> m.itl();
        default -> m.e2el();
      };
      putStats(o, metric, s, mo.metricPercentiles(), "_ms");
    }
    return o;
  }

  /** The newer upstream's verdict: failed when more than 5 % of the requested prompts failed. */
  static Map<String, Object> outcome(ServeMetrics m) {
    Map<String, Object> o = new LinkedHashMap<>();
    int failed = m.requested() - m.completed();
    boolean bad = m.requested() <= 0 || (double) failed / m.requested() > 0.05;
    o.put("status", bad ? "failed" : "passed");
    o.put("requested", m.requested());
    o.put("completed", m.completed());
    o.put("failed", failed);
    o.put("max_failure_rate", 0.05);
    return o;
  }

  /** {@code p90}, {@code p99}, {@code p99.9}: integer when whole, as the reference writes it. */
  public static String percentileLabel(double p) {
    return p == Math.rint(p) ? Long.toString((long) p) : io.infx.core.python.PythonRepr.floatRepr(p);
  }

  /**
   * The reference's {@code mean_/median_/std_/p<X>_<metric>_ms} fields. An empty sample list
   * writes 0.0 for every statistic, as the reference does (client spec §5.3).
   */
  private static void putStats(Map<String, ? super Double> o, String metric, LatencyStats s, List<Double> ps,
      String suffix) {
    o.put("mean_" + metric + suffix, s.meanMillis().orElse(0.0));
    o.put("median_" + metric + suffix, s.medianMillis().orElse(0.0));
    o.put("std_" + metric + suffix, s.stdMillis().orElse(0.0));
    for (double p : ps) {
      o.put("p" + percentileLabel(p) + "_" + metric + suffix, s.percentileMillis(p).orElse(0.0));
    }
  }

  /** One of infx's extra views, ms, with the reference's 0.0 for an empty view (and count 0). */
  private static Map<String, Object> statsBlock(LatencyStats s, List<Double> ps) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("count", s.count());
    o.put("mean", s.meanMillis().orElse(0.0));
    o.put("median", s.medianMillis().orElse(0.0));
    o.put("std", s.stdMillis().orElse(0.0));
    for (double p : ps) {
      o.put("p" + percentileLabel(p), s.percentileMillis(p).orElse(0.0));
    }
    o.put("max", s.maxMillis().orElse(0.0));
    return o;
  }

  private static Map<String, Object> extension(ServeResult run, ServeMetrics m, MetricOptions mo,
      Context ctx) {
    ServeBenchmark b = run.benchmark();
    Map<String, Object> x = new LinkedHashMap<>();
    x.put("schema", SCHEMA);
    x.put("version", Optional.ofNullable(RawResult.class.getPackage().getImplementationVersion())
        .orElse("dev"));
    // what answered: engine, version, simulated (the normalizer publishes it on the aggregate row)
    ctx.server().ifPresent(p -> x.put("server", p.toJson()));
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("backend", b.backend().cliName());
    w.put("api", b.backend().api().name().toLowerCase(java.util.Locale.ROOT));
    w.put("endpoint", b.endpoint());
    w.put("ignore_eos", b.body().ignoreEos());
    w.put("temperature", b.body().temperature());
    w.put("continuous_usage_stats", b.body().continuousUsageStats());
    w.put("num_warmups", run.warmups());
    w.putAll(ctx.workload());
    w.put("fingerprint", fingerprint(b.prompts(),
        b.load() instanceof OpenLoop ol ? ol.scheduleNanos(b.prompts().size(), b.seed()) : null));
    x.put("workload", w);
    Map<String, Object> load = new LinkedHashMap<>();
    if (b.load() instanceof ClosedLoop c) {
      load.put("model", "closed-loop");
      load.put("concurrency", c.concurrency());
    } else if (b.load() instanceof OpenLoop ol) {
      load.put("model", "open-loop");
      load.put("rate", ol.rate());
      load.put("arrivals", ol.arrivals() == OpenLoop.Arrivals.CONSTANT ? "constant"
          : ol.burstiness() == 1.0 ? "poisson" : "gamma");
      load.put("burstiness", ol.burstiness());
      load.put("ceiling", ol.ceiling().isPresent() ? (Object) ol.ceiling().getAsInt() : null);
      load.put("schedule_seed", b.seed());
    }
    load.put("observed_peak_concurrency", m.peakConcurrency());
    x.put("load", load);
    Map<String, Object> acc = new LinkedHashMap<>();
    acc.put("requested", m.requested());
    acc.put("sent", m.sent());
    acc.put("completed", m.completed());
    acc.put("failed", m.failed());
    acc.put("cancelled", m.cancelled());
    acc.put("not_sent", m.notSent());
    acc.put("conserved", m.conserved());
    acc.put("warmups", run.warmups());
    acc.put("warmup_failures", run.warmupFailures());
    acc.put("resends", m.resends());
    x.put("accounting", acc);
    if (run.incomplete()) {
      // cut short (SIGINT/SIGTERM): the records are exactly what finished before the stop
      x.put("incomplete", true);
      x.put("interrupted_by", run.interruption().orElse(""));
    }
    Map<String, Object> fails = new LinkedHashMap<>();
    for (FailureClass k : FailureClass.values()) {
      fails.put(k.label(), m.failuresByClass().getOrDefault(k, 0));
    }
    List<Map<String, Object>> first = new ArrayList<>();
    for (RequestFailure f : m.firstFailures()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("class", f.kind().label());
      e.put("message", f.message());
      e.put("status", f.status());
      e.put("body", f.body());
      first.add(e);
    }
    Map<String, Object> failures = new LinkedHashMap<>();
    failures.put("by_class", fails);
    failures.put("first", first);
    x.put("failures", failures);
    Map<String, Object> tokens = new LinkedHashMap<>();
    Map<TokenSource, Integer> src = m.tokenSources();
    tokens.put("output_source", src.size() == 1 ? src.keySet().iterator().next().label()
        : src.isEmpty() ? "none" : "mixed");
    Map<String, Object> bySource = new LinkedHashMap<>();
    src.forEach((k, v) -> bySource.put(k.label(), v));
    tokens.put("output_source_counts", bySource);
    tokens.put("input_source", "client-tokenizer");
    tokens.put("usage_prompt_token_mismatches", m.usagePromptMismatches());
    tokens.put("streams_without_done", m.streamsWithoutDone());
    InputLengthCheck ic = m.inputLengthCheck();
    Map<String, Object> check = new LinkedHashMap<>();
    check.put("verdict", ic.verdict().name().toLowerCase(java.util.Locale.ROOT));
    check.put("compared", ic.compared());
    check.put("framing_tokens", ic.framingTokens());
    check.put("framing_measured", ic.framingMeasured());
    check.put("median_deviation", ic.medianDeviation());
    check.put("max_deviation", ic.maxDeviation());
    check.put("deviating_requests", ic.deviating());
    check.put("warn_above", InputLengthCheck.WARN_DEVIATION);
    check.put("fail_above", InputLengthCheck.FAIL_DEVIATION);
    check.put("message", ic.message());
    tokens.put("input_length_check", check);
    SampleStats sl = m.serverInputLengths();
    Map<String, Object> isl = new LinkedHashMap<>();
    isl.put("count", sl.count());
    if (!sl.isEmpty()) {
      isl.put("min", sl.min().getAsDouble());
      isl.put("median", sl.median().getAsDouble());
      isl.put("mean", sl.mean().getAsDouble());
      isl.put("p99", sl.percentile(99).getAsDouble());
      isl.put("max", sl.max().getAsDouble());
    }
    Map<String, Object> bins = new LinkedHashMap<>();
    m.serverInputLengthHistogram().forEach((k, v) -> bins.put(Integer.toString(k), v));
    isl.put("histogram", bins);
    tokens.put("server_input_lengths", isl);
    x.put("tokens", tokens);
    x.put("itl_attribution", itlAttribution(m));
    Map<String, Object> views = new LinkedHashMap<>();
    List<Double> ps = mo.metricPercentiles();
    views.put("ttft_first_choices_chunk", statsBlock(m.ttftFirstChoices(), ps));
    views.put("ttft_first_byte", statsBlock(m.ttftFirstByte(), ps));
    views.put("ttft_first_content", statsBlock(m.ttftFirstContent(), ps));
    views.put("itl_per_token", statsBlock(m.itlPerToken(), ps));
    views.put("ttft_from_intended", statsBlock(m.ttftFromIntended(), ps));
    views.put("e2el_from_intended", statsBlock(m.e2elFromIntended(), ps));
    views.put("send_lateness", statsBlock(m.lateness(), ps));
    views.put("queue_wait", statsBlock(m.queueWait(), ps));
    x.put("latency_views_in_milliseconds", views);
    Map<String, Object> client = new LinkedHashMap<>();
    ClientOptions co = run.clientOptions();
    client.put("http", co.http2() ? "2" : "1.1");
    client.put("pool_size", co.maxConnections());
    client.put("connection_reuse", co.connectionReuse().name().toLowerCase(java.util.Locale.ROOT));
    IoThreads io = co.ioThreadChoice();
    client.put("io_threads", io.count());
    client.put("io_threads_reason", io.reason().name().toLowerCase(java.util.Locale.ROOT));
    // the JIT compilers in this JVM during the run (null: a library run that did not choose)
    ClientJit.applied().ifPresentOrElse(j -> {
      client.put("jit", j.mode().cliName());
      client.put("jit_reason", j.reason());
    }, () -> client.put("jit", null));
    // the client's own JIT warm-up against an in-process canned server (never the benchmarked one)
    client.put("client_warmup_requests", run.clientWarmupRequests());
    client.put("client_warmup_ms", Math.round(run.clientWarmupMillis() * 10) / 10.0);
    client.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    client.put("available_processors", Runtime.getRuntime().availableProcessors());
    // host load when the run ended (1-minute average of runnable threads; null where the OS has
    // none): runs made on a busier host are flagged by the comparability lint
    double hostLoad = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    client.put("host_load_average", hostLoad < 0 ? null : (Object) hostLoad);
    ClientStats cs = run.clientStats();
    client.put("cpu_percent_of_one_core", cs.cpuPercent());
    client.put("gc_collections", cs.gcCollections());
    client.put("gc_time_millis", cs.gcMillis());
    client.put("allocated_bytes_per_request",
        cs.allocatedBytes() < 0 || m.sent() == 0 ? null : (Object) (cs.allocatedBytes() / m.sent()));
    x.put("client", client);
    if (ctx.saveDetailed()) {
      x.put("wire_timings_in_milliseconds", run.wireTimings());
    }
    return x;
  }

  /**
   * How per-token ITL ({@code latency_views_in_milliseconds.itl_per_token}) was computed:
   * {@code policy} (the run's, see {@link ServeMetrics#itlPolicy()}: {@code usage-deltas},
   * {@code usage-total}, {@code tokenizer}, {@code per-chunk}, or {@code none}),
   * {@code requests_by_policy}, and {@code tokens_per_chunk} (tokens → number of token chunks
   * that carried that many; chunks of per-chunk requests are not counted). The reference's
   * {@code itls} and {@code *_itl_ms} stay per chunk.
   */
  static Map<String, Object> itlAttribution(ServeMetrics m) {
    Map<String, Object> a = new LinkedHashMap<>();
    a.put("policy", m.itlPolicy().map(ItlPolicy::label).orElse("none"));
    Map<String, Object> by = new LinkedHashMap<>();
    for (ItlPolicy p : ItlPolicy.values()) {
      by.put(p.label(), m.itlPolicies().getOrDefault(p, 0));
    }
    a.put("requests_by_policy", by);
    Map<String, Object> k = new LinkedHashMap<>();
    m.tokensPerChunk().forEach((tokens, chunks) -> k.put(Integer.toString(tokens), chunks));
    a.put("tokens_per_chunk", k);
    a.put("definition", "a chunk of k tokens arriving a gap after the previous token chunk adds"
        + " k entries of gap/k; a first chunk's extra tokens add none");
    return a;
  }

  /**
   * SHA-256 over the ordered (intended send offset in ns or -1 for closed loops, prompt tokens,
   * output tokens, SHA-256 of the prompt text) of every prompt: equal fingerprints mean two runs
   * sent the same traffic.
   */
  public static String fingerprint(List<Prompt> prompts, long[] scheduleNanos) {
    try {
      MessageDigest all = MessageDigest.getInstance("SHA-256");
      MessageDigest one = MessageDigest.getInstance("SHA-256");
      java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(16);
      for (int i = 0; i < prompts.size(); i++) {
        Prompt p = prompts.get(i);
        buf.clear();
        buf.putLong(scheduleNanos == null ? -1 : scheduleNanos[i]);
        buf.putInt(p.promptTokens()).putInt(p.outputTokens());
        all.update(buf.array());
        all.update(one.digest(p.text().getBytes(StandardCharsets.UTF_8)));
      }
      return HexFormat.of().formatHex(all.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the object as one line of JSON, atomically. */
  public static void write(Path file, Map<String, Object> raw) {
    AtomicFiles.write(file, out -> Json.compact().writeValue(out, raw));
  }
}
