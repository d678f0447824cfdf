package io.infx.client;

import io.infx.client.metrics.LatencyStats;
import io.infx.client.metrics.SampleStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * What a {@link ServeBenchmark} run observed: one record per measured prompt (in prompt order;
 * empty for a prompt never sent because the run timed out), the measured phase's wall time, and
 * the settings. {@link #metrics(MetricOptions)} computes the reference's statistics from the
 * exact samples.
 */
public final class ServeResult {

  private final ServeBenchmark benchmark;
  private final List<RequestRecord> records;
  private final long[] slotNanos;
  private final long startNanos;
  private final long endNanos;
  private final double startUnix;
  private final double endUnix;
  private final int warmups;
  private final int warmupFailures;
  private final ClientOptions clientOptions;
  private final Histogram ttftHist;
  private final Histogram tpotHist;
  private final Histogram itlHist;
  private final Histogram e2elHist;
  private final ClientStats clientStats;

  private final List<String> notes;
  private volatile String interruptedBy;

  ServeResult(ServeBenchmark benchmark, List<RequestRecord> records, long[] slotNanos,
      long startNanos, long endNanos, double startUnix, double endUnix, int warmups,
      int warmupFailures, ClientOptions clientOptions, LatencyRecorder.Totals histograms,
      ClientStats clientStats, List<String> notes) {
    this.clientStats = clientStats;
    this.notes = List.copyOf(notes);
    this.benchmark = benchmark;
    this.records = records;
    this.slotNanos = slotNanos;
    this.startNanos = startNanos;
    this.endNanos = endNanos;
    this.startUnix = startUnix;
    this.endUnix = endUnix;
    this.warmups = warmups;
    this.warmupFailures = warmupFailures;
    this.clientOptions = clientOptions;
    this.ttftHist = histograms.ttft();
    this.tpotHist = histograms.tpot();
    this.itlHist = histograms.itl();
    this.e2elHist = histograms.e2el();
  }

  /**
   * {@code ServeResult{model=m, prompts=40, sent=40, duration=1.234s, warmups=8}}, plus
   * {@code incomplete=SIGINT} when the run was cut short. The statistics are
   * {@link #metrics(MetricOptions)}.
   */
  @Override
  public String toString() {
    long sent = records.stream().filter(r -> r != null).count();
    return "ServeResult{model=" + benchmark.model() + ", prompts=" + records.size() + ", sent="
        + sent + ", duration=" + String.format(java.util.Locale.ROOT, "%.3fs", durationSeconds())
        + ", warmups=" + warmups + (interruptedBy != null ? ", incomplete=" + interruptedBy : "")
        + "}";
  }

  /** The benchmark that produced this result (prompts, load, backend). */
  public ServeBenchmark benchmark() {
    return benchmark;
  }

  /** The record of each prompt, in prompt order; empty when the prompt was never sent. */
  public List<Optional<RequestRecord>> records() {
    List<Optional<RequestRecord>> out = new ArrayList<>(records.size());
    for (RequestRecord r : records) {
      out.add(Optional.ofNullable(r));
    }
    return out;
  }

  /** The records of sent requests, in prompt order. */
  public List<RequestRecord> sentRecords() {
    return records.stream().filter(r -> r != null).toList();
  }

  /** Measured-phase wall time in seconds (the reference's {@code duration}). */
  public double durationSeconds() {
    return (endNanos - startNanos) / 1e9;
  }

  /** Wall-clock start of the measured phase, Unix epoch seconds (ms resolution). */
  public double startUnixSeconds() {
    return startUnix;
  }

  /** Wall-clock end of the measured phase, Unix epoch seconds (ms resolution). */
  public double endUnixSeconds() {
    return endUnix;
  }

  /** Warm-up requests sent before the measured phase (excluded from every metric). */
  public int warmups() {
    return warmups;
  }

  /** Warm-up requests that failed or were never sent (ignored, as the reference ignores them). */
  public int warmupFailures() {
    return warmupFailures;
  }

  /** The client options actually used (pool resized to the load's concurrency). */
  public ClientOptions clientOptions() {
    return clientOptions;
  }

  private volatile int clientWarmupRequests;
  private volatile double clientWarmupMillis;

  /**
   * Requests of the client's own warm-up ({@link ServeBenchmark#clientWarmup()}), sent to an
   * in-process canned server before the run, never to the benchmarked server; 0 when none.
   */
  public int clientWarmupRequests() {
    return clientWarmupRequests;
  }

  /** Wall time of the client's own warm-up, ms (0 when none). */
  public double clientWarmupMillis() {
    return clientWarmupMillis;
  }

  void clientWarmup(int requests, java.time.Duration took) {
    this.clientWarmupRequests = requests;
    this.clientWarmupMillis = took.toNanos() / 1e6;
  }

  /** Marks the result as cut short by {@code why} (e.g. {@code SIGINT}). */
  void markInterrupted(String why) {
    this.interruptedBy = why;
  }

  /**
   * Whether the run was stopped before every request was sent and answered (SIGINT/SIGTERM): the
   * records hold exactly what finished; the rest are cancelled or never sent.
   */
  public boolean incomplete() {
    return interruptedBy != null;
  }

  /** What stopped the run early (e.g. {@code SIGINT}), when {@link #incomplete()}. */
  public Optional<String> interruption() {
    return Optional.ofNullable(interruptedBy);
  }

  /** What went wrong around the run without failing it (e.g. a profiler call), one line each. */
  public List<String> notes() {
    return notes;
  }

  /** CPU, GC and allocation of this JVM during the measured phase. */
  public ClientStats clientStats() {
    return clientStats;
  }

  /**
   * TTFT histogram of successful requests, recorded on the fly: values in <b>µs</b>, 3 significant
   * digits. The exact statistics are {@link ServeMetrics#ttft()}; HdrHistogram's percentiles are
   * bucketed, so they differ from those by up to 0.1 %. A fresh copy on each call (callers may
   * reset or add to it).
   */
  public Histogram ttftHistogram() {
    return ttftHist.copy();
  }

  /**
   * TPOT histogram of successful requests with more than one output token: values in <b>µs per
   * output token</b>, 3 significant digits, one value per request, (E2EL − TTFT) / (output tokens −
   * 1) as {@link ServeMetrics#tpot()} (client spec §5.1). A fresh copy on each call.
   */
  public Histogram tpotHistogram() {
    return tpotHist.copy();
  }

  /**
   * Send lateness histogram (µs, 3 significant digits) of every sent measured request: actual send
   * time minus the later of its intended time and the moment its concurrency slot freed — the
   * client's own delay, with the queue wait for a slot excluded (coordinated omission, peers.md §3).
   * A fresh histogram on each call.
   */
  public Histogram latenessHistogram() {
    Histogram h = new Histogram(3);
    for (int i = 0; i < records.size(); i++) {
      RequestRecord r = records.get(i);
      if (r != null) {
        h.recordValue(lateNanos(r, i) / 1_000);
      }
    }
    return h;
  }

  /** Send lateness of measured request {@code i}, ns, ≥ 0: send time after its intended time and free slot. */
  private long lateNanos(RequestRecord r, int i) {
    return Math.max(0, r.sendNanos() - Math.max(r.intendedNanos(), slotNanos[i]));
  }

  /**
   * Per-chunk ITL histogram of successful requests: gaps between token-carrying chunks in
   * <b>µs</b>, 3 significant digits. A fresh copy on each call.
   */
  public Histogram itlHistogram() {
    return itlHist.copy();
  }

  /** E2EL histogram of successful requests: <b>µs</b>, 3 significant digits. A fresh copy. */
  public Histogram e2elHistogram() {
    return e2elHist.copy();
  }

  /**
   * Writes the TTFT, TPOT, ITL, E2EL and send-lateness histograms (µs; TPOT µs per token; tags
   * {@code ttft}, {@code tpot}, {@code itl}, {@code e2el}, {@code lateness}) of the whole measured
   * phase as an HdrHistogram log ({@code .hlog}), atomically; logs of several runs or workers merge
   * losslessly with HdrHistogram's tools.
   */
  public void writeHistogramLog(java.nio.file.Path file) {
    writeHistogramLog(file, List.of());
  }

  /**
   * As {@link #writeHistogramLog(java.nio.file.Path)}, but with TTFT/TPOT/ITL/E2EL as the given
   * interval histograms (each stamped with its own start and end), when there are any; send
   * lateness stays one whole-phase histogram.
   */
  void writeHistogramLog(java.nio.file.Path file, List<HistogramLogIntervals.Entry> intervals) {
    io.infx.core.io.AtomicFiles.write(file, out -> {
      java.io.PrintStream ps = new java.io.PrintStream(out, false, java.nio.charset.StandardCharsets.UTF_8);
      org.HdrHistogram.HistogramLogWriter w = new org.HdrHistogram.HistogramLogWriter(ps);
      w.outputComment("infx serve run: latencies in microseconds (tpot: per output token); model "
          + benchmark.model());
      w.outputLogFormatVersion();
      long startMillis = (long) (startUnix * 1000);
      w.outputStartTime(startMillis);
      w.setBaseTime(startMillis);
      w.outputLegend();
      long endMillis = (long) (endUnix * 1000);
      if (intervals.isEmpty()) {
        write(w, "e2el", e2elHistogram(), startMillis, endMillis);
        write(w, "itl", itlHistogram(), startMillis, endMillis);
        write(w, "tpot", tpotHistogram(), startMillis, endMillis);
        write(w, "ttft", ttftHistogram(), startMillis, endMillis);
      } else {
        for (HistogramLogIntervals.Entry e : intervals) {
          long s = startMillis + e.startNanos() / 1_000_000;
          long t = startMillis + e.endNanos() / 1_000_000;
          write(w, "e2el", HistogramLogIntervals.decompress(e.e2el()), s, t);
          write(w, "itl", HistogramLogIntervals.decompress(e.itl()), s, t);
          write(w, "tpot", HistogramLogIntervals.decompress(e.tpot()), s, t);
          write(w, "ttft", HistogramLogIntervals.decompress(e.ttft()), s, t);
        }
      }
      write(w, "lateness", latenessHistogram(), startMillis, endMillis);
      ps.flush();
    });
  }

  private static void write(org.HdrHistogram.HistogramLogWriter w, String tag, Histogram h,
      long startMillis, long endMillis) {
    h.setTag(tag);
    h.setStartTimeStamp(startMillis);
    h.setEndTimeStamp(endMillis);
    w.outputIntervalHistogram(h);
  }

  /**
   * Computes the statistics from the exact samples (client spec §5: values in seconds, throughputs
   * per second of {@link #durationSeconds()}), plus infx's extra views.
   */
  public ServeMetrics metrics(MetricOptions options) {
    int n = records.size();
    int[] inputLens = new int[n];
    int[] outputLens = new int[n];
    double[] ttftsAll = new double[n];
    double[][] itlsAll = new double[n][];
    String[] texts = new String[n];
    String[] errors = new String[n];
    List<Double> ttft = new ArrayList<>();
    List<Double> tpot = new ArrayList<>();
    List<Double> e2el = new ArrayList<>();
    DoubleList itl = new DoubleList();
    DoubleList itlToken = new DoubleList();
    List<Double> ttftChoices = new ArrayList<>();
    List<Double> ttftByte = new ArrayList<>();
    List<Double> ttftContent = new ArrayList<>();
    List<Double> ttftIntended = new ArrayList<>();
    List<Double> e2elIntended = new ArrayList<>();
    List<Double> lateness = new ArrayList<>();
    List<Double> queueWait = new ArrayList<>();
    Map<FailureClass, Integer> failures = new EnumMap<>(FailureClass.class);
    Map<TokenSource, Integer> sources = new EnumMap<>(TokenSource.class);
    Map<ItlPolicy, Integer> itlPolicies = new EnumMap<>(ItlPolicy.class);
    java.util.SortedMap<Integer, Long> tokensPerChunk = new java.util.TreeMap<>();
    List<RequestFailure> firstFailures = new ArrayList<>();
    int completed = 0;
    int failed = 0;
    int cancelled = 0;
    int notSent = 0;
    int good = 0;
    int noDone = 0;
    int promptMismatch = 0;
    int resends = 0;
    DoubleList islClient = new DoubleList();
    DoubleList islServer = new DoubleList();
    long totalIn = 0;
    long totalOut = 0;
    List<long[]> intervals = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RequestRecord r = records.get(i);
      Prompt0 p = prompt(i);
      inputLens[i] = p.promptTokens;
      texts[i] = "";
      errors[i] = "";
      itlsAll[i] = new double[0];
      if (r == null) {
        notSent++;
        errors[i] = "not sent (run timed out)";
        continue;
      }
      intervals.add(new long[] {r.sendNanos(), r.endNanos()});
      resends += r.resends();
      texts[i] = r.generatedText();
      lateness.add(lateNanos(r, i) / 1e9);
      queueWait.add(Math.max(0, (slotNanos[i] - r.intendedNanos()) / 1e9));
      if (r.cancelled()) {
        cancelled++;
        errors[i] = "cancelled";
        continue;
      }
      if (!r.success()) {
        failed++;
        RequestFailure f = r.failure().orElseThrow();
        failures.merge(f.kind(), 1, Integer::sum);
        if (firstFailures.size() < options.keepFailures()) {
          firstFailures.add(f);
        }
        errors[i] = f.message();
        continue;
      }
      completed++;
      sources.merge(r.outputTokenSource(), 1, Integer::sum);
      if (!r.doneSeen()) {
        noDone++;
      }
      if (r.usagePromptTokens().isPresent()) {
        if (r.usagePromptTokens().getAsInt() != r.promptTokens()) {
          promptMismatch++;
        }
        islClient.add(r.promptTokens());
        islServer.add(r.usagePromptTokens().getAsInt());
      }
      int out = r.outputTokens();
      outputLens[i] = out;
      totalIn += r.promptTokens();
      totalOut += out;
      double t = r.ttftSeconds();
      double e = r.e2elSeconds();
      ttftsAll[i] = t;
      ttft.add(t);
      e2el.add(e);
      double tp = 0;
      if (out > 1) {
        tp = (e - t) / (out - 1);
        tpot.add(tp);
      }
      int k = r.tokenChunks();
      double[] gaps = new double[Math.max(0, k - 1)];
      for (int c = 1; c < k; c++) {
        gaps[c - 1] = (r.tokenChunkNanos(c) - r.tokenChunkNanos(c - 1)) / 1e9;
        itl.add(gaps[c - 1]);
      }
      itlsAll[i] = gaps;
      r.perTokenItl(itlToken::add);
      itlPolicies.merge(r.itlPolicy(), 1, Integer::sum);
      r.tokensPerChunk().ifPresent(kk -> {
        for (int x : kk) {
          tokensPerChunk.merge(x, 1L, Long::sum);
        }
      });
      r.firstChoicesNanos().ifPresent(x -> ttftChoices.add((x - r.sendNanos()) / 1e9));
      r.headersNanos().ifPresent(x -> ttftByte.add((x - r.sendNanos()) / 1e9));
      r.firstContentNanos().ifPresent(x -> ttftContent.add((x - r.sendNanos()) / 1e9));
      ttftIntended.add(r.ttftFromIntendedSeconds());
      r.e2elEndNanos().ifPresent(x -> e2elIntended.add((x - r.intendedNanos()) / 1e9));
      if (options.goodput().isEmpty() || isGood(options.goodput(), t, tp, e)) {
        good++;
      }
    }
    double d = durationSeconds();
    ServeMetrics.Builder b = new ServeMetrics.Builder();
    b.requested = n;
    b.sent = n - notSent;
    b.completed = completed;
    b.failed = failed;
    b.cancelled = cancelled;
    b.notSent = notSent;
    b.durationSeconds = d;
    b.totalInputTokens = totalIn;
    b.totalOutputTokens = totalOut;
    b.requestThroughput = completed / d;
    b.requestGoodput = options.goodput().isEmpty() ? null : good / d;
    b.outputThroughput = totalOut / d;
    b.totalTokenThroughput = (totalIn + totalOut) / d;
    b.inputLens = inputLens;
    b.outputLens = outputLens;
    b.ttfts = ttftsAll;
    b.itls = itlsAll;
    b.generatedTexts = texts;
    b.errors = errors;
    b.ttft = stats(ttft);
    b.tpot = stats(tpot);
    b.itl = LatencyStats.ofSeconds(itl.toArray());
    b.e2el = stats(e2el);
    b.itlPerToken = LatencyStats.ofSeconds(itlToken.toArray());
    b.itlPolicies = itlPolicies;
    b.tokensPerChunk = tokensPerChunk;
    b.ttftFirstChoices = stats(ttftChoices);
    b.ttftFirstByte = stats(ttftByte);
    b.ttftFirstContent = stats(ttftContent);
    b.ttftFromIntended = stats(ttftIntended);
    b.e2elFromIntended = stats(e2elIntended);
    b.lateness = stats(lateness);
    b.queueWait = stats(queueWait);
    b.failuresByClass = failures;
    b.firstFailures = firstFailures;
    b.tokenSources = sources;
    b.streamsWithoutDone = noDone;
    b.usagePromptMismatches = promptMismatch;
    b.peakConcurrency = peakConcurrency(intervals);
    b.resends = resends;
    double[] ic = islClient.toArray();
    double[] is = islServer.toArray();
    int[] ici = new int[ic.length];
    int[] isi = new int[is.length];
    for (int k = 0; k < ic.length; k++) {
      ici[k] = (int) ic[k];
      isi[k] = (int) is[k];
    }
    b.inputLengthCheck = InputLengthCheck.judge(benchmark.backend().api(), ici, isi,
        benchmark.expectedFraming());
    b.serverIsl = SampleStats.of(is);
    b.serverIslHistogram = histogram(isi);
    return b.build();
  }

  /**
   * Per-request timing at the wire, ms, aligned with the prompts (null where a request was not
   * sent or the point was not reached): {@code queue_wait} (intended → slot freed, open loops with
   * a ceiling), {@code send_lateness} (slot/intended → send), and from the send:
   * {@code connection_ready} (connection acquired or connected, request head committed),
   * {@code request_written} (body handed to the socket), {@code response_head},
   * {@code first_byte} (first body byte), {@code first_token}; plus {@code resends} and
   * {@code connection_reused}.
   */
  public Map<String, List<Object>> wireTimings() {
    Map<String, List<Object>> out = new java.util.LinkedHashMap<>();
    for (String k : List.of("queue_wait", "send_lateness", "connection_ready", "request_written",
        "response_head", "first_byte", "first_token", "resends", "connection_reused")) {
      out.put(k, new ArrayList<>(records.size()));
    }
    for (int i = 0; i < records.size(); i++) {
      RequestRecord r = records.get(i);
      if (r == null) {
        out.values().forEach(l -> l.add(null));
        continue;
      }
      long send = r.sendNanos();
      out.get("queue_wait").add(Math.max(0, slotNanos[i] - r.intendedNanos()) / 1e6);
      out.get("send_lateness").add(lateNanos(r, i) / 1e6);
      out.get("connection_ready").add(since(send, r.connectionReadyNanos()));
      out.get("request_written").add(since(send, r.requestWrittenNanos()));
      out.get("response_head").add(since(send, r.headersNanos()));
      out.get("first_byte").add(since(send, r.firstByteNanos()));
      out.get("first_token").add(since(send, r.firstTokenNanos()));
      out.get("resends").add(r.resends());
      out.get("connection_reused").add(r.connectionReused());
    }
    return out;
  }

  private static Double since(long send, java.util.OptionalLong t) {
    return t.isPresent() ? (t.getAsLong() - send) / 1e6 : null;
  }

  /** At most 32 equal-width bins (low edge → count) over the values; empty when there are none. */
  static java.util.SortedMap<Integer, Integer> histogram(int[] v) {
    java.util.SortedMap<Integer, Integer> out = new java.util.TreeMap<>();
    if (v.length == 0) {
      return out;
    }
    int lo = Arrays.stream(v).min().getAsInt();
    int hi = Arrays.stream(v).max().getAsInt();
    int width = Math.max(1, (int) Math.ceil((hi - lo + 1) / 32.0));
    for (int x : v) {
      out.merge(lo + (x - lo) / width * width, 1, Integer::sum);
    }
    return out;
  }

  private record Prompt0(int promptTokens) {}

  private Prompt0 prompt(int i) {
    return new Prompt0(benchmark.prompts().get(i).promptTokens());
  }

  private static boolean isGood(Map<String, Double> slo, double ttft, double tpot, double e2el) {
    for (Map.Entry<String, Double> e : slo.entrySet()) {
      double v = switch (e.getKey()) {
        case "ttft" -> ttft;
        case "tpot" -> tpot;
        case "e2el" -> e2el;
        default -> throw new IllegalArgumentException("unknown goodput metric " + e.getKey());
      };
      if (v > e.getValue() / 1000.0) {
        return false;
      }
    }
    return true;
  }

  /** Most requests in flight at once at the client (sweep line; an end sorts before a start). */
  static int peakConcurrency(List<long[]> intervals) {
    int m = intervals.size();
    long[] ev = new long[2 * m];
    int k = 0;
    for (long[] iv : intervals) {
      ev[k++] = iv[0] * 2 + 1; // start
      ev[k++] = iv[1] * 2; // end sorts first at equal times
    }
    Arrays.sort(ev);
    int cur = 0;
    int peak = 0;
    for (long e : ev) {
      cur += (e & 1) == 1 ? 1 : -1;
      peak = Math.max(peak, cur);
    }
    return peak;
  }

  /** Latency statistics of samples in seconds. */
  private static LatencyStats stats(List<Double> v) {
    double[] a = new double[v.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = v.get(i);
    }
    return LatencyStats.ofSeconds(a);
  }

  /** A growable primitive list (ITL samples can be millions). */
  static final class DoubleList {
    private double[] a = new double[1024];
    private int n;

    void add(double v) {
      if (n == a.length) {
        a = Arrays.copyOf(a, n * 2);
      }
      a[n++] = v;
    }

    double[] toArray() {
      return Arrays.copyOf(a, n);
    }
  }
}
