package io.infx.client;

import io.infx.client.internal.ArrivalDispatcher;
import io.infx.client.load.Ticker;
import io.infx.client.metrics.IntervalReporting;
import java.util.concurrent.CompletionStage;
import io.infx.client.dataset.Prompt;
import io.infx.client.load.ClosedLoop;
import io.infx.client.load.LoadModel;
import io.infx.client.load.OpenLoop;
import io.infx.core.InfxStyle;
import io.infx.core.UsageException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.immutables.value.Value;

/**
 * A fixed-sequence serving benchmark: warm-up requests (copies of the first prompt, excluded),
 * then every prompt once under a {@link LoadModel}, each request streamed by a
 * {@link StreamingClient}. {@link #run()} returns a {@link ServeResult} from which the reference's
 * metrics and raw result file are derived.
 *
 * <pre>{@code
 * ServeResult r = ServeBenchmark.builder()
 *     .client(ClientOptions.builder().baseUri(URI.create("http://127.0.0.1:8000")).build())
 *     .backend(ServingBackend.VLLM).model("m")
 *     .prompts(RandomDataset.generate(BuiltinTokenizer.instance(), 1024, 1024, 0.8, 0, 640, 0))
 *     .load(LoadModel.closed(64)).warmups(128)
 *     .body(BodyOptions.builder().ignoreEos(true).build())
 *     .build().run();
 * }</pre>
 */
@Value.Immutable
@InfxStyle
public abstract class ServeBenchmark {

  /** Called about four times a second from a background thread while a phase runs. */
  @FunctionalInterface
  public interface ProgressListener {
    void onProgress(Progress p);
  }

  /**
   * Progress of a phase.
   *
   * @param phase warm-up or measured
   * @param finished requests finished (any outcome)
   * @param total requests of the phase
   * @param failed failed requests so far
   * @param inFlight requests in flight now
   * @param elapsedNanos time since the phase started
   */
  public record Progress(RequestRecord.Phase phase, int finished, int total, int failed,
      int inFlight, long elapsedNanos) {}

  /** Connection, pool and deadline settings; the pool is resized to the load's concurrency. */
  public abstract ClientOptions client();

  public abstract ServingBackend backend();

  /** Endpoint path; default: the backend's API default. */
  @Value.Default
  public String endpoint() {
    return backend().api().defaultEndpoint();
  }

  /** The {@code model} field of every request. */
  public abstract String model();

  /** Measured prompts, in send order. */
  public abstract List<Prompt> prompts();

  /**
   * Tokens the server is known to count on top of every prompt's
   * {@link Prompt#promptTokens()} — special tokens, the chat template — as measured at start-up
   * by {@link PromptFramingProbe}; the input length check ({@link InputLengthCheck}) then judges
   * against it instead of inferring it from the median difference. Empty: inferred.
   */
  public abstract java.util.OptionalInt expectedFraming();

  public abstract LoadModel load();

  /** Warm-up requests (copies of the first prompt) before the measured phase. Default 0. */
  @Value.Default
  public int warmups() {
    return 0;
  }

  /**
   * Requests the client sends to an in-process canned SSE server before anything goes to the
   * benchmarked server, so the measured requests do not run the client's per-request code
   * (connect, write, SSE parsing) cold: a JVM interprets it for the first few hundred requests,
   * which showed as ~1–2 ms of TTFT against llama.cpp (see {@code ClientWarmup}). At most
   * {@link #clientWarmupBudget()} is spent, 8 requests at a time; requests an earlier run in
   * this JVM sent count (the JIT's work is per JVM). The warm-up's requests appear nowhere in the
   * result but as {@link ServeResult#clientWarmupRequests()}. Default 0 (none).
   */
  @Value.Default
  public int clientWarmup() {
    return 0;
  }

  /**
   * Longest time {@link #clientWarmup()}'s requests may take (then up to 10 s more while the JIT
   * compiler finishes what they queued, so its threads do not take CPU from the server during
   * the run). Default 5 s.
   */
  @Value.Default
  public Duration clientWarmupBudget() {
    return Duration.ofSeconds(5);
  }

  @Value.Default
  public BodyOptions body() {
    return BodyOptions.defaults();
  }

  /** Seed of the open-loop arrival schedule. Default 0. */
  @Value.Default
  public long seed() {
    return 0;
  }

  /** Stops dispatching and cancels what is in flight after this long (measured phase). */
  public abstract Optional<Duration> runTimeout();

  public abstract Optional<ProgressListener> progress();

  /**
   * Interval histograms during the measured phase ({@link IntervalReporting}): every
   * {@link IntervalReporting#every()} the listener gets the TTFT/TPOT/ITL/E2EL histograms and
   * counts recorded since the previous interval, the last (partial) interval before {@link #run()}
   * returns; their merge equals {@link ServeResult#ttftHistogram()} etc. exactly. Default: none.
   */
  @Value.Auxiliary
  public abstract Optional<IntervalReporting> intervals();

  /**
   * Profile the measured phase ({@code --profile}): {@code POST /start_profile} after the warm-ups
   * and {@code POST /stop_profile} after the last measured request, on the server's base URI, as
   * the reference client does (vLLM and SGLang expose these when their profiler is enabled). A
   * failed call does not stop the run; it is reported in {@link ServeResult#notes()}. Default false.
   */
  @Value.Default
  public boolean profile() {
    return false;
  }

  /**
   * Ends the run early when requested (SIGINT/SIGTERM in {@code infx bench serve}): no request is
   * sent after the request, in-flight requests get {@link #stopGrace()}, the rest are cancelled
   * (counted as cancelled), and {@link #run()} returns what finished, marked
   * {@link ServeResult#incomplete() incomplete}.
   */
  @Value.Auxiliary
  public abstract Optional<StopSignal> stop();

  /** How long in-flight requests may finish after a {@link #stop()} request. Default 10 s. */
  @Value.Default
  public Duration stopGrace() {
    return Duration.ofSeconds(10);
  }

  @Value.Check
  protected void check() {
    if (prompts().isEmpty()) {
      throw new UsageException("a serve benchmark needs at least one prompt");
    }
    if (warmups() < 0) {
      throw new UsageException("warm-ups must be ≥ 0");
    }
    checkEndpoint(backend(), endpoint());
  }

  /** The reference's rule: chat backends post to {@code …chat/completions}, the others to {@code …completions}. */
  static void checkEndpoint(ServingBackend backend, String ep) {
    boolean chat = backend.api() == ServingBackend.Api.CHAT;
    if (chat && !ep.endsWith("chat/completions")) {
      throw new UsageException("backend " + backend + " needs an endpoint ending in"
          + " 'chat/completions', got '" + ep + "'");
    }
    if (!chat && !(ep.endsWith("completions") || ep.endsWith("profile"))) {
      throw new UsageException("backend " + backend + " needs an endpoint ending in"
          + " 'completions', got '" + ep + "'");
    }
  }

  public static ImmutableServeBenchmark.Builder builder() {
    return ImmutableServeBenchmark.builder();
  }

  /** Runs warm-ups and the measured phase; blocks until every request has finished. */
  public ServeResult run() {
    int n = prompts().size();
    int conc = load().maxConcurrency().orElse(n);
    ClientOptions opts = ImmutableClientOptions.copyOf(client())
        .withMaxConnections(Math.max(1, Math.min(conc, 1 << 20)));
    LatencyRecorder rec = new LatencyRecorder(Ticker.system(),
        intervals().map(IntervalReporting::listener).orElse(null));
    // the client's own warm-up: this run's prompts and request path, 8 at a time, to a canned
    // server in this process (never the benchmarked one), its records dropped
    ClientWarmup.Result selfWarm = ClientWarmup.run(opts, clientWarmup(), (stub, k) -> {
      List<Prompt> cycle = new java.util.ArrayList<>(k);
      for (int i = 0; i < k; i++) {
        cycle.add(prompts().get(i % n));
      }
      PhaseResult wr = runPhase(stub, cycle, RequestRecord.Phase.WARMUP, 8, null, null,
          Optional.of(clientWarmupBudget()), false);
      int done = (int) Arrays.stream(wr.records).filter(r -> r != null).count();
      int bad = (int) Arrays.stream(wr.records).filter(r -> r != null && !r.success()).count();
      return new int[] {done, bad};
    });
    ClientJit.warmupOver(); // under tiered-warmup, C2 compiles nothing from the first real request on
    try (StreamingClient client = StreamingClient.create(opts)) {
      int warmFailed = 0;
      if (warmups() > 0) {
        List<Prompt> w = java.util.Collections.nCopies(warmups(), prompts().get(0));
        PhaseResult wr = runPhase(client, w, RequestRecord.Phase.WARMUP,
            Math.min(conc, warmups()), null, null, Optional.empty(), true);
        warmFailed = (int) Arrays.stream(wr.records).filter(r -> r == null || !r.success()).count();
      }
      List<String> notes = new java.util.ArrayList<>();
      if (profile()) {
        ProfilerCalls.call(opts, "/start_profile").ifPresent(notes::add);
      }
      long startUnixMillis = System.currentTimeMillis();
      long[] schedule = load() instanceof OpenLoop o ? o.scheduleNanos(n, seed()) : null;
      Integer slots = load() instanceof ClosedLoop c ? Integer.valueOf(c.concurrency())
          : load().maxConcurrency().isPresent() ? Integer.valueOf(load().maxConcurrency().getAsInt())
          : null;
      ClientStats.Probe probe = ClientStats.start();
      PhaseResult pr = runPhase(client, prompts(), RequestRecord.Phase.MEASURED,
          slots == null ? -1 : slots, schedule, rec, runTimeout(), true);
      ClientStats stats = probe.stop();
      long endUnixMillis = System.currentTimeMillis();
      if (profile()) {
        ProfilerCalls.call(opts, "/stop_profile").ifPresent(notes::add);
      }
      for (RequestRecord r : pr.records) {
        if (r != null) {
          r.resolveItl(); // tokenizer counts for per-token ITL, now that no stream is timed
        }
      }
      ServeResult result = new ServeResult(this, Arrays.asList(pr.records), pr.slotNanos,
          pr.startNanos, pr.endNanos, startUnixMillis / 1000.0, endUnixMillis / 1000.0, warmups(),
          warmFailed, opts, rec.totals(), stats, notes);
      result.clientWarmup(selfWarm.requests(), selfWarm.elapsed());
      stop().flatMap(StopSignal::reason).ifPresent(result::markInterrupted);
      return result;
    }
  }

  private record PhaseResult(RequestRecord[] records, long[] slotNanos, long startNanos,
      long endNanos) {}

  private PhaseResult runPhase(StreamingClient client, List<Prompt> prompts,
      RequestRecord.Phase phase, int concurrency, long[] schedule, LatencyRecorder rec,
      Optional<Duration> timeout, boolean report) {
    int n = prompts.size();
    RequestRecord[] out = new RequestRecord[n];
    CountDownLatch done = new CountDownLatch(n);
    AtomicInteger finished = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    long t0 = System.nanoTime();
    LatencyRecorder.Sampler sampler = null;
    if (rec != null) {
      rec.start(t0);
      sampler = intervals().map(i -> rec.startSampler(i.every())).orElse(null);
    }
    long deadline = timeout.map(d -> t0 + d.toNanos()).orElse(Long.MAX_VALUE);
    Thread reporter = startReporter(report ? progress().orElse(null) : null, phase, n, finished,
        failed, client, t0, done);
    // prepared on the dispatcher's thread, sent there or (closed loop) on an I/O thread; the
    // array's slot is cleared at the send, so only prepared-but-unsent bodies are held here
    java.util.concurrent.atomic.AtomicReferenceArray<InferenceRequest> ready =
        new java.util.concurrent.atomic.AtomicReferenceArray<>(n);
    ArrivalDispatcher.Sender sender = new ArrivalDispatcher.Sender() {
      @Override
      public void prepare(int i) {
        // the body is built before the wait, so the send itself is on time
        Prompt p = prompts.get(i);
        byte[] body = RequestBodies.forApi(backend().api(), model(), p.text(), p.outputTokens(),
            body());
        ready.set(i, new InferenceRequest(backend().api(), endpoint(), body, p.promptTokens()));
      }

      @Override
      public CompletionStage<?> send(int i, long intendedNanos) {
        return client.send(ready.getAndSet(i, null), i, phase, intendedNanos).whenComplete((r, ex) -> {
          out[i] = r;
          if (r != null && !r.success()) {
            failed.incrementAndGet();
          }
          if (rec != null && r != null) {
            rec.record(r); // wait-free
          }
          finished.incrementAndGet();
          done.countDown();
        });
      }
    };
    long[] slotNanos = new long[n];
    long startNanos = t0;
    try {
      StopSignal stop = stop().orElse(null);
      ArrivalDispatcher.Dispatch d = new ArrivalDispatcher(Ticker.system())
          .stopWhen(stop == null ? () -> false : stop::isRequested)
          .run(n, schedule, concurrency, timeout.map(Duration::toNanos).orElse(Long.MAX_VALUE),
              sender);
      slotNanos = d.slotNanos();
      startNanos = d.startNanos();
      for (int k = d.sent(); k < n; k++) {
        done.countDown(); // never sent: nothing to wait for
      }
      long grace = stopGrace().toNanos();
      while (!done.await(50, TimeUnit.MILLISECONDS)) {
        long now = System.nanoTime();
        if (now > deadline
            || (stop != null && stop.isRequested() && now - stop.requestedNanos() > grace)) {
          client.close(); // cancels what is in flight; their futures complete as cancelled
          done.await(10, TimeUnit.SECONDS);
          break;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      client.close();
    } finally {
      reporter.interrupt();
      awaitLastProgress(reporter);
      // in finally: an escaping exception must not leave the sampler thread reporting forever
      if (sampler != null) {
        sampler.close(); // the last, partial interval
      } else if (rec != null) {
        rec.sample(); // one interval: the whole phase
      }
    }
    long end = System.nanoTime();
    return new PhaseResult(out, slotNanos, startNanos, end);
  }

  /**
   * Waits (up to a second) for the reporter's last progress event of the phase, so a listener hears
   * it before anything that follows the phase (the next phase, the summary).
   */
  private static void awaitLastProgress(Thread reporter) {
    try {
      reporter.join(1_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Thread startReporter(ProgressListener l, RequestRecord.Phase phase, int total,
      AtomicInteger finished, AtomicInteger failed, StreamingClient client, long t0,
      CountDownLatch done) {
    Thread t = new Thread(() -> {
      if (l == null) {
        return;
      }
      try {
        while (done.getCount() > 0) {
          l.onProgress(new Progress(phase, finished.get(), total, failed.get(), client.inFlight(),
              System.nanoTime() - t0));
          Thread.sleep(250);
        }
      } catch (InterruptedException e) {
        // phase over
      }
      l.onProgress(new Progress(phase, finished.get(), total, failed.get(), 0,
          System.nanoTime() - t0));
    }, "infx-progress");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
